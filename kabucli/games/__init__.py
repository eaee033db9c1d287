"""The registry of games: registering a game is one line in
:data:`kabucli.registry.GAMES`.

Each game is one package, ``kabucli/games/<name>/`` (the name with ``_`` for ``-``), of the
same files:

- ``events.py``: its events (msgspec structs, the records of a log);
- ``rules.py``: its house rules, its state and its :class:`~kabucli.engine.Game`, ``GAME``:
  the rules as data (a hand's rank, not its name), no words meant for people;
- ``rules.md``: its rules page, in Markdown, standing alone: what ``kabucli rules GAME``
  prints (:func:`page`), with a ``## Move notation`` section that the play prompt's ``help``
  prints (:func:`notation`); a copy is kept in ``docs/rules/<name>.md`` (a test compares them);
- ``text.py``: its words (:func:`text`): ``hint(state, seat)``, one line saying what moves
  a seat may make now (a bot program gets it with each turn: no question of the prompt);
  optionally ``prompt_hint(state, seat)``, that line as the play prompt shows it, with the
  prompt's questions that answer now (:func:`prompt_hint`); optionally ``COMMANDS`` (name ->
  help), the questions the game answers at the play prompt (e.g. Yatchaba's ``odds``), and
  ``command(state, line)``, the answer to one (None when ``line`` is not one; never changes
  the state): without them the game answers none (:func:`commands`, :func:`command`);
  optionally ``SEEDED_ONLY``, the moves of the notation's first table (its typed
  cell, without the backticks) and the questions a real table never types, which the help of
  a real table leaves out (:func:`notation`, :func:`commands`); and the names and phrases its
  render module shows (e.g. Dare's hand names);
- ``bots.py``: ``BOTS``, its built-in bots by kind;
- ``render.py``: ``table(game, match, viewer)``, its table drawn for a terminal.

Everything else finds a game's parts from here: the bot and render registries, the shared
conformance tests, the compiled core (setup.py compiles each package's rules and bots), the
benchmark. Packages are imported only when their game is used, to keep start-up fast.
How a game's rules are written (pending, check, the todo queue, apply, parse) is in
docs/adding-a-game.md.
"""

from __future__ import annotations

from importlib import import_module
from importlib.resources import files
from types import ModuleType

from kabucli import log as _log
from kabucli.engine import Game
from kabucli.errors import ParseError
from kabucli.events import Event, Forfeit
from kabucli.registry import ALIASES as ALIASES, GAMES as GAMES, game_key


def names() -> list[str]:
    return list(GAMES)


def canonical(name: str) -> str:
    """The registered name of ``name``; ParseError if none. Every command reads a game's name
    here: in any case, with spaces around it, '_' or a space for '-' ('kazu_tori',
    'Uno Dare'), or an alias ('kazutori'); an unknown name close to a game's is refused
    with that game suggested."""
    key = game_key(name)
    if key not in GAMES:
        from difflib import get_close_matches

        # (a name far longer than any game's is near none: not compared, as a log's header
        # may name one megabytes long)
        near = (get_close_matches(key, [*GAMES, *ALIASES], n=1)
                if name.isprintable() and len(key) <= 40 else [])
        meant = f": did you mean '{ALIASES.get(near[0], near[0])}'?" if near else ""
        from kabucli.safetext import quoted  # (cut and safe: a log's may be megabytes long)

        raise ParseError(f"unknown game {quoted(name)}{meant} (games: {', '.join(GAMES)})")
    return key


_PARTS: dict[tuple[str, str], ModuleType] = {}


def part(name: str, module: str) -> ModuleType:
    """One module of a registered game's package, e.g. ``part("dare", "bots")``."""
    found = _PARTS.get((name, module))
    if found is None:
        found = import_module(f"kabucli.games.{canonical(name).replace('-', '_')}.{module}")
        _PARTS[name, module] = found  # asked several times a match: once is enough
    return found


def text(name: str) -> ModuleType:
    """A registered game's words: its ``text`` module (``hint``, ``COMMANDS``, ``command``)."""
    return part(name, "text")


def prompt_hint(name: str, state: object, seat: int) -> str:
    """What a person at the play prompt may type now: the game's ``prompt_hint`` when its
    text module has one (the moves and the questions of the prompt), else its ``hint``."""
    words = text(name)
    hint = getattr(words, "prompt_hint", words.hint)
    return str(hint(state, seat))


def page(name: str) -> str:
    """A registered game's rules page (its package's ``rules.md``, Markdown)."""
    package = f"kabucli.games.{canonical(name).replace('-', '_')}"
    return files(package).joinpath("rules.md").read_text(encoding="utf-8")


NOTATION = "## Move notation"


def notation(name: str, physical: bool = False) -> str:
    """The move notation: the ``## Move notation`` section of the rules page, without its
    heading (up to the next heading of that level). With ``physical`` (the help of a real
    table), less the rows of the moves the game's ``SEEDED_ONLY`` names."""
    _, found, rest = page(name).partition(f"\n{NOTATION}\n")
    assert found, f"the rules page of {name} has no '{NOTATION}' section"
    section = rest.split("\n## ", 1)[0].strip() + "\n"
    seeded = _seeded_only(name)
    if not physical or not seeded:
        return section
    lines = section.splitlines(keepends=True)
    kept = [line for line in lines if _typed_cell(line) not in seeded]
    dropped = {_typed_cell(line) for line in lines} & seeded
    moves = seeded - set(commands(name, False))  # (a question may have no row)
    assert moves <= dropped, f"the notation of {name} has no row for {sorted(moves - dropped)}"
    return "".join(kept)


def _seeded_only(name: str) -> frozenset[str]:
    return frozenset(getattr(text(name), "SEEDED_ONLY", ()))


def _typed_cell(line: str) -> str | None:
    """The first cell of a row of a Markdown table, without its backticks (None if no row)."""
    if not line.startswith("|"):
        return None
    return line.split("|")[1].strip().strip("`")


def commands(name: str, physical: bool) -> dict[str, str]:
    """The questions the game answers at the play prompt (its text module's ``COMMANDS``; none
    without), those of its ``SEEDED_ONLY`` left out at a real table (``physical``)."""
    found: dict[str, str] = getattr(text(name), "COMMANDS", {})
    if not physical:
        return found
    seeded = _seeded_only(name)
    return {word: what for word, what in found.items() if word not in seeded}


def command(name: str, state: object, line: str) -> str | None:
    """The game's answer to ``line`` typed at the play prompt, when it is one of the game's
    questions (:func:`commands`; its text module's ``command``), else None. Changes
    nothing."""
    answer = getattr(text(name), "command", None)
    if answer is None:
        return None
    found: str | None = answer(state, line)
    return found


class GameEvents(tuple[type[Event], ...]):
    """A game's event types, with the game they belong to."""

    game: Game

    @classmethod
    def of(cls, game: Game) -> GameEvents:
        found = _EVENTS.get(game.name)
        if found is None:
            types: tuple[type[Event], ...] = game.events
            found = _EVENTS[game.name] = cls(types if Forfeit in types else (*types, Forfeit))
            found.game = game
        return found


_EVENTS: dict[str, GameEvents] = {}


def get(name: str) -> Game:
    """The registered game ``name`` (ParseError, a KabuError, when there is none)."""
    game = part(name, "rules").GAME
    assert isinstance(game, Game)
    return game


def event_types(name: str) -> GameEvents:
    """The events a log of game ``name`` may hold: the game's own, and a bot's forfeit (which
    the engine handles for every game); they also carry the game (``.game``), which the log
    module needs to read its logs (a format 2 log is read by the game's engine)."""
    return GameEvents.of(get(name))


_log.find_game = get  # a format 2 log is read and written by its game's engine
