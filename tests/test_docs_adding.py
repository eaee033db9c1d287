"""docs/adding-a-game.md says what a contributor must do to add a game: each claim that
names a file or a part of the engine is checked here against the repository."""

from __future__ import annotations

import re
from pathlib import Path

from kabucli import games

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")


def _section(heading: str) -> str:
    _, found, rest = DOC.partition(f"\n## {heading}\n")
    assert found, f"docs/adding-a-game.md has no '## {heading}' section"
    return rest.split("\n## ", 1)[0]


def _named(text: str) -> str:
    """``text`` lower-cased with spaces as '-': a game's title (``Uno Dare``), as some
    files write it, then reads as its name (``uno-dare``)."""
    return text.lower().replace(" ", "-")


def _names(text: str, name: str, title: str) -> bool:
    """Whether a file's ``text`` names the game, by its name or by its title: a title need
    not be the name with spaces (``High Card``, ``highcard``), and some files are to be
    headed by the title alone (docs/log-format.md's table of codes, docs/shuffle.md)."""
    named = _named(text)
    return name in named or _named(title) in named


def test_a_game_is_named_by_its_title_even_when_the_title_is_not_its_name() -> None:
    """A sixth game, ``highcard`` titled ``High Card``, is in docs/log-format.md's table and
    in docs/shuffle.md by its title alone, as their tests want it (probe BV): it was taken
    for missing, since only the name was looked for, so that no title-headed row could
    satisfy both tests."""
    row = "| High Card | 2 `deal`, 3 `call`, 4 `show`, 5 `pay`, 6 `result`, 7 `end` |"
    assert _names(row, "highcard", "High Card")
    assert _names("- **Uno Dare** (`deal`, `race`):", "uno-dare", "Uno Dare")
    assert not _names(row, "uno-dare", "Uno Dare")
    assert not _names("| Dare | 2 `deal` |", "highcard", "High Card")


def test_every_file_the_doc_says_to_edit_by_hand_names_every_registered_game() -> None:
    """The doc lists the files that name each game by hand (registering the game does not
    reach them). Each exists and names every registered game (those a bullet limits to games
    with ``public_chance``, only those): a file listed that no longer names the games, or a
    game missing from one, fails here."""
    bullets = re.findall(r"^- `([^`]+)`(.*(?:\n  .*)*)", _section("Edits by hand"), re.M)
    assert bullets, "the section lists no file"
    for path, words in bullets:
        file = ROOT / path
        assert file.is_file(), f"the doc names {path}, which does not exist"
        text = file.read_text(encoding="utf-8")
        wanted = [name for name in games.names()
                  if "public_chance" not in words or games.get(name).public_chance]
        missing = [name for name in wanted
                   if not _names(text, name, games.get(name).title)]
        assert not missing, f"{path} does not name {missing}"


def test_the_doc_lists_every_test_module_that_takes_every_registered_game() -> None:
    """The doc's list of the test modules a new game is run through is every module that
    reads the registered games."""
    reads = re.compile(r"games\.names\(\)|games\.GAMES|registry import GAMES")
    modules = {p.name for p in (ROOT / "tests").glob("test_*.py")
               if reads.search(p.read_text(encoding="utf-8"))}
    flat = re.sub(r"\s+", " ", _section("What the tests ask of every registered game"))
    assert "These two are not all" in flat, "the doc no longer lists the test modules"
    start = flat.index("These two are not all")
    listed = set(re.findall(r"`(test_\w+\.py)`", flat[start:flat.index("keeps this list", start)]))
    assert listed == modules, (f"modules not listed: {sorted(modules - listed)}; listed, not "
                               f"reading the games: {sorted(listed - modules)}")


def test_every_optional_part_of_a_game_module_the_program_asks_for_is_in_the_doc() -> None:
    """What kabucli takes from a game's render and text modules when they have it (read with
    ``getattr(module, NAME, default)``: ``outcome``, ``describe``, ``prompt_what``...) is
    named in the doc, so a new game knows it may provide it."""
    asked = set()
    for path in (ROOT / "kabucli").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        asked |= set(re.findall(
            r'getattr\((?:_module\(game\)|games\.text\([^)]*\)|text\(name\)|words),\s*"(\w+)"',
            source))
    for path in (ROOT / "kabucli").rglob("*.py"):  # a game's own methods asked so (solve)
        asked |= set(re.findall(r'getattr\((?:g|game),\s*"(\w+)"',
                                path.read_text(encoding="utf-8")))
    assert {"outcome", "describe", "prompt_what", "prompt_hint", "SEEDED_ONLY",
            "solve"} <= asked
    missing = sorted(name for name in asked if f"`{name}" not in DOC)
    assert not missing, f"asked of a game's modules, not in docs/adding-a-game.md: {missing}"


def test_every_attribute_a_game_class_must_set_is_in_the_doc() -> None:
    """The class attributes of :class:`kabucli.engine.Game` without a default (``name``,
    ``deck``, ``min_players``...) are each named in the doc's section on the game class."""
    import ast

    # (read from the source: the compiled engine's classes keep no annotations)
    tree = ast.parse((ROOT / "kabucli" / "engine.py").read_text(encoding="utf-8"))
    game = next(node for node in tree.body
                if isinstance(node, ast.ClassDef) and node.name == "Game")
    section = _section("How rules.py is written")
    required = [node.target.id for node in game.body
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.value is None and node.target.id != "verbs"]
    assert "min_players" in required
    missing = [name for name in required if f"`{name}`" not in section]
    assert not missing, f"a game must set these, the doc does not say: {missing}"


def test_every_registered_game_has_its_events_in_the_log_format_and_its_recordings_listed(
        ) -> None:
    """The doc asks for a game's ``### Dare's events`` section in docs/log-format.md (each of
    its own events with its kind and fields, what tests/foreign/events.mjs is written from)
    and its section in replays/README.md saying what each recording shows. Nothing checked
    either: a sixth game (probe BV, ``highcard``) passed every test with neither."""
    log_format = (ROOT / "docs" / "log-format.md").read_text(encoding="utf-8")
    readme = (ROOT / "replays" / "README.md").read_text(encoding="utf-8")
    for name in games.names():
        title = games.get(name).title
        _, found, rest = log_format.partition(f"\n### {title}'s events\n")
        assert found, f"docs/log-format.md has no '### {title}'s events' section"
        section = rest.split("\n#", 1)[0]
        for event in games.event_types(name):
            if event.__module__.startswith("kabucli.games."):  # (its own, not pay, end...)
                tag, kind = event.__struct_config__.tag, event.KIND
                assert re.search(rf"^\| (?:`\w+`, )*`{tag}`(?:, `\w+`)* \| {kind} \|", section,
                                 re.M), (
                    f"docs/log-format.md, {title}'s events: no row '| `{tag}` | {kind} |'")
        _, found, rest = readme.partition(f"\n## {title} (`replays/{name}/`)\n")
        assert found, f"replays/README.md has no '## {title} (`replays/{name}/`)' section"
        section = rest.split("\n## ", 1)[0]
        for log in sorted((ROOT / "replays" / name).glob("*.*")):
            assert f"`{log.name}`" in section, f"replays/README.md does not list {log.name}"
