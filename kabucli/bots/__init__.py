"""Bots: built-in players, and the registry that names them for ``--bot SEAT=KIND``.

A bot is an object with ``choose(game, state, seat) -> Event`` (:class:`Bot`). Built-in bots
live in each game's package (``kabucli/games/<name>/bots.py``, a ``BOTS`` dict of kind ->
factory); they read the engine state directly (and only what their seat may know), and each
gets its own seeded generator, so a seeded game between bots is the same game every time.
Users' bots (``cmd:``, ``py:``) are in :mod:`kabucli.bots.external`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from kabucli import games
from kabucli.engine import Game, Match
from kabucli.errors import BotError, ParseError
from kabucli.events import Event
from kabucli.log import EXTERNAL as EXTERNAL  # users' programs and Python classes
from kabucli.safetext import NAME_SHOWN, quoted, safe_text
from kabucli.shuffle import Rng


class Bot(Protocol):
    def choose(self, game: Game, state: Any, seat: int) -> Event: ...


BotFactory = Callable[[Rng], Bot]

def kinds(game: str) -> dict[str, BotFactory]:
    """The built-in bots of ``game`` (its package's ``bots.BOTS``), by kind."""
    if game not in games.GAMES:
        return {}
    bots: dict[str, BotFactory] = games.part(game, "bots").BOTS
    return bots


def about(game: str) -> dict[str, str]:
    """What each built-in bot kind of ``game`` does, in one line (its class's ``about``)."""
    return {kind: str(getattr(factory, "about", "")) for kind, factory in kinds(game).items()}


# The external kinds as people write them, and what each is.
EXTERNAL_ABOUT = {
    "cmd:COMMAND": "your own program, in any language, talking JSON Lines over stdin/stdout "
                   "(docs/bots.md)",
    "py:FILE.py:CLASS": "your own Python class, from a file or a module (docs/bots.md)",
}


def command_words(command: str) -> list[str]:
    """A ``cmd:`` bot's command split into words as a shell would (``shlex.split``), which is
    how its program is started; ParseError saying which quote is never closed (or that it
    ends in a lone backslash) when it cannot be, or that it names no program ('""')."""
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        pass
    else:
        if words and not words[0]:  # (started, it was 'Permission denied' in every match)
            raise ParseError("the command names no program: its first word is empty (quote "
                             "as in a shell)")
        return words
    quote, at, i = "", 0, 0
    while i < len(command):
        ch = command[i]
        if ch == "\\" and quote != "'":
            if i + 1 == len(command):
                return _unsplit("it ends in a lone backslash")
            i += 2
            continue
        if quote and ch == quote:
            quote = ""
        elif not quote and ch in "'\"":
            quote, at = ch, i + 1
        i += 1
    return _unsplit(f"the {quote or '?'} at character {at} of the command is never closed")


def _unsplit(why: str) -> list[str]:
    raise ParseError(f"the command cannot be split into words: {why} (quote as in a shell)")


def check_kind(game: str, kind: str) -> None:
    """ParseError unless ``kind`` names a built-in bot of ``game`` or an external bot (a
    command that can be split into words)."""
    if kind.startswith(EXTERNAL):
        if not kind.partition(":")[2].strip():
            raise ParseError(f"bot '{kind}' needs a command or class after '{kind[:-1]}'")
        if not kind.isprintable():  # as a log's header must name it (logdata.control_problem)
            raise ParseError(f"bot '{safe_text(kind, 60)}' holds a tab, a line break or "
                             "another character that is not printable text")
        if kind.startswith("cmd:"):
            try:
                command_words(kind[4:])
            except ParseError as exc:
                raise ParseError(f"bot {quoted(kind, NAME_SHOWN)}: {exc}") from None
        return
    table = kinds(game)
    if kind not in table:
        known = ", ".join([*table, *EXTERNAL_ABOUT])
        # (a log's header may name any length: shown cut, as a seat's control is)
        raise ParseError(f"unknown bot {quoted(kind, NAME_SHOWN)} for {game} (bots: {known})")


def make(game: str, kind: str, rng: Rng, match: Match | None = None, seat: int = 0,
         timeout: float | None = None, stream: str | None = None) -> Bot:
    """The bot ``kind`` of ``game`` for ``seat`` of ``match``, drawing from ``rng``. A Python
    bot (``py:``) runs in a process of its own that keeps a copy of ``match``, so it needs it;
    its generator is built there, from the match's seed and ``stream`` (the stream of ``rng``;
    None: ``bot/SEAT``).
    ``timeout``: the seconds an external bot has for each answer (None: ``bot_timeout()``)."""
    check_kind(game, kind)
    if kind.startswith("cmd:"):
        from kabucli.bots.external import ProcessBot

        return ProcessBot(kind[4:].strip(), timeout)
    if kind.startswith("py:"):
        from kabucli.bots.external import PythonBot

        if match is None:
            raise BotError(f"bot '{kind}' runs only in a match (make it with one)")
        return PythonBot(kind[3:].strip(), match, seat, timeout, stream)
    return kinds(game)[kind](rng)
