"""The registry of games: registering a game is one line in :data:`GAMES`.

Each game is one package, ``kabucli/games/<name>/`` (the name with ``_`` for ``-``), of the
same files:

- ``events.py``: its events (msgspec structs, the records of a log);
- ``rules.py``: its house rules, its state and its :class:`~kabucli.engine.Game`, ``GAME``;
- ``text.py``: its words: the rules page, the notation, hints and names shown to people;
- ``bots.py``: ``BOTS``, its built-in bots by kind;
- ``render.py``: ``table(game, match, viewer)``, its table drawn for a terminal.

Everything else finds a game's parts from here: the bot and render registries, the shared
conformance tests, the compiled core (setup.py compiles each package's rules and bots), the
benchmark. Packages are imported only when their game is used, to keep start-up fast.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from kabucli.engine import Game
from kabucli.errors import ParseError
from kabucli.events import Event

GAMES: tuple[str, ...] = ("dare", "kazu-tori", "kabu-tsukuri", "yatchaba")
ALIASES: dict[str, str] = {"kazutori": "kazu-tori", "kabutsukuri": "kabu-tsukuri"}


def names() -> list[str]:
    return list(GAMES)


def canonical(name: str) -> str:
    """The registered name of ``name`` (any case, or an alias); ParseError if none."""
    key = ALIASES.get(name.lower(), name.lower())
    if key not in GAMES:
        raise ParseError(f"unknown game '{name}' (games: {', '.join(GAMES)})")
    return key


def part(name: str, module: str) -> ModuleType:
    """One module of a registered game's package, e.g. ``part("dare", "bots")``."""
    return import_module(f"kabucli.games.{canonical(name).replace('-', '_')}.{module}")


def get(name: str) -> Game:
    game = part(name, "rules").GAME
    assert isinstance(game, Game)
    return game


def event_types(name: str) -> tuple[type[Event], ...]:
    return get(name).events
