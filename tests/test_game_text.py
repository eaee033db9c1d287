"""Words live apart from rules: each registered game's rules page (its package's rules.md) is
the one source of ``kabucli rules GAME``, of the prompt's ``help`` and of docs/rules/; its
text module answers hints and prompt questions; its rules module holds no words and does not
know the engine's Match (Kazu-Tori's races are its bots')."""

from __future__ import annotations

import io
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kabucli import bots, games
from kabucli.cli import app
from kabucli.cli.common import _markdown
from kabucli.engine import Match, make_header
from kabucli.log import SeatInfo
from kabucli.session import COMMANDS, start
from kabucli.shuffle import Rng

ROOT = Path(__file__).parent.parent
runner = CliRunner()


def run(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


@pytest.mark.parametrize("name", games.names())
def test_the_docs_rules_page_is_the_packaged_page(name: str) -> None:
    docs = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    assert docs == games.page(name), (
        f"docs/rules/{name}.md differs from the game's rules.md (the source): copy it over")


def test_every_rules_page_in_docs_belongs_to_a_registered_game() -> None:
    assert sorted(p.stem for p in (ROOT / "docs" / "rules").glob("*.md")) == sorted(games.names())


def test_the_rules_pages_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "rules.md" in config["tool"]["setuptools"]["package-data"]["*"]


@pytest.mark.parametrize("name", games.names())
def test_kabucli_rules_prints_the_page_as_it_is_when_piped(name: str) -> None:
    res = run("rules", name)
    assert res.exit_code == 0
    assert res.stdout.startswith(games.page(name))
    assert "House rules (--rule NAME=VALUE)" in res.stdout  # then the tables of the program
    data = run("rules", name, "--json")
    assert data.exit_code == 0
    parsed = json.loads(data.stdout)
    assert parsed["rules"] == games.page(name) and parsed["notation"] == games.notation(name)


def test_a_page_is_drawn_as_markdown_at_a_terminal_and_printed_as_it_is_otherwise() -> None:
    page = games.page("dare")
    drawn, plain = io.StringIO(), io.StringIO()
    _markdown(Console(file=drawn, force_terminal=True, width=100), page)
    _markdown(Console(file=plain, force_terminal=False, width=40), page)
    assert plain.getvalue() == page  # not folded at the console's width, no markup read
    text = drawn.getvalue()
    assert "\x1b[" in text and "Doshippin" in text
    assert "| 1    | Doshippin" not in text and "## " not in text


@pytest.mark.parametrize("name", games.names())
def test_the_move_notation_is_a_section_of_the_page(name: str) -> None:
    notation = games.notation(name)
    assert notation.strip() and "\n## " not in notation
    assert notation in games.page(name)
    # every verb the notation's first table shows is one the game parses
    assert "undo" in notation and re.search(r"^\| `", notation, re.M)


def test_help_at_the_prompt_prints_the_notation_and_the_games_own_commands(
        tmp_path: Path) -> None:
    res = run("play", "yatchaba", "--seed", "3", "--bot", "2=smart",
              "--log", str(tmp_path / "g.kbl"), input="help\nquit\n")
    assert res.exit_code == 0
    assert games.notation("yatchaba").splitlines()[0] in res.stdout
    assert "odds" in res.stdout


def hints_of_a_bot_game(name: str) -> set[str]:
    """Every hint a whole seeded bot game of ``name`` gives the seats it waits for, checking
    at each event that the hint is one line and that an unknown question gets no answer."""
    g = games.get(name)
    kind = next(iter(bots.kinds(name)))
    n = g.default_players
    m = Match(g, make_header(g, g.Rules(), [SeatInfo(f"b{i}") for i in range(1, n + 1)], 11))
    seated = {p: bots.make(name, kind, Rng(11, f"bot/{p}")) for p in range(1, n + 1)}
    words = games.text(name)
    hints: set[str] = set()
    while not m.over:
        for seat in m.pending.seats:
            hint = words.hint(m.state, seat)
            assert isinstance(hint, str) and "\n" not in hint
            hints.add(hint)
        assert games.command(name, m.state, "no-such-question") is None
        ev = m.expected() or g.bot_event(m, seated)
        assert ev is not None
        m.submit(ev)
    return hints


@pytest.mark.parametrize("name", games.names())
def test_every_game_has_a_text_module_with_hints_and_commands(name: str) -> None:
    asked = games.commands(name, False)
    assert isinstance(asked, dict)
    assert all(isinstance(k, str) and v for k, v in asked.items())
    hints = hints_of_a_bot_game(name)
    assert hints and all(hints), "a seat the game waits for gets no hint"


@pytest.mark.parametrize("name", games.names())
def test_a_hint_names_no_question_of_the_prompt(name: str) -> None:
    # the hint is what a bot program is told with its turn, and a program can only send
    # moves: a question the prompt answers (Kabu-Tsukuri's 'best') is the prompt's to add
    questions = {*games.commands(name, False), *COMMANDS}
    for hint in hints_of_a_bot_game(name):
        assert not any(f"'{q}'" in hint for q in questions), hint


@pytest.mark.parametrize("name", games.names())
def test_a_hint_offers_no_blank_line(name: str) -> None:
    # a bot program's blank line is refused ('empty move'), so the hint it is sent must not
    # offer one; a blank line at the prompt is the prompt's to offer (prompt_hint)
    for hint in hints_of_a_bot_game(name):
        assert "blank" not in hint, hint


def test_the_kazu_tori_prompt_still_offers_its_blank_line_in_a_window() -> None:
    g = games.get("kazu-tori")
    m = Match(g, make_header(g, g.Rules(), [SeatInfo("Ann"), SeatInfo("Bob")], 11))
    while m.state.phase != "window":
        m.submit(m.expected() or g.parse(m.state, "flip"))
    assert games.text("kazu-tori").hint(m.state, 1).endswith("; 'pN pass' lets it go")
    assert games.prompt_hint("kazu-tori", m.state, 1).endswith(
        "; 'pN pass' (or a blank line) lets the bots react")


@pytest.mark.parametrize("name", games.names())
def test_a_rules_module_holds_no_words_and_does_not_know_the_match(name: str) -> None:
    rules = vars(games.part(name, "rules"))
    game = games.get(name)
    assert "Match" not in rules
    for word in ("hint", "rules_doc", "notation_doc", "commands", "command", "hand_name",
                 "odds_text", "closing_text", "ratio"):
        assert word not in rules and not hasattr(game, word), word


def test_kazu_tori_races_are_its_bots_and_the_game_still_asks_them() -> None:
    from kabucli.games.kazu_tori import bots as kazu_bots, rules as kazu_rules

    assert "bot_move" in vars(kazu_bots) and "reaction_ms" in vars(kazu_bots)
    assert "reaction_ms" not in vars(kazu_rules.KazuTori)
    g = kazu_rules.GAME
    seats = [SeatInfo(f"b{i}", "bot:sharp") for i in range(1, 5)]
    sess = start(g, g.Rules(), seats, 5, None, None)
    sess.run_bots()
    assert sess.match.over
    assert any(type(e) is kazu_rules.Race for e in sess.match.events)
