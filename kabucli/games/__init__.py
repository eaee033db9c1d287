"""The registry of games: each module defines one ``GAME`` object of the same shape."""

from __future__ import annotations

from importlib import import_module

from kabucli.engine import Game
from kabucli.errors import ParseError
from kabucli.events import Event

# name -> module; modules are imported only when the game is used, to keep start-up fast.
MODULES: dict[str, str] = {
    "dare": "kabucli.games.dare",
    "kazu-tori": "kabucli.games.kazutori",
    "kabu-tsukuri": "kabucli.games.kabu_tsukuri",
    "yatchaba": "kabucli.games.yatchaba",
}
ALIASES: dict[str, str] = {"kazutori": "kazu-tori", "kabutsukuri": "kabu-tsukuri"}


def names() -> list[str]:
    return list(MODULES)


def get(name: str) -> Game:
    key = ALIASES.get(name.lower(), name.lower())
    if key not in MODULES:
        raise ParseError(f"unknown game '{name}' (games: {', '.join(MODULES)})")
    game = import_module(MODULES[key]).GAME
    assert isinstance(game, Game)
    return game


def event_types(name: str) -> tuple[type[Event], ...]:
    return get(name).events
