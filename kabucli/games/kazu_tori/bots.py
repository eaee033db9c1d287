"""Kazu-Tori bots: ``sharp`` claims exactly the cards that may be taken; ``random`` claims at
random and sometimes wrongly (to exercise the penalties).

Each bot has a ``reaction`` profile (fastest, slowest in ms): when several bots claim the same
card, ``KazuTori.bot_event`` records a seeded race draw per seat and the fastest claims first.
``claims`` answers whether the bot claims the card just flipped; ``choose`` gives the bot's
move as an event. A bot sees only what is face up: the card just flipped and the number said.
"""

from __future__ import annotations

from typing import Any, ClassVar

from mypy_extensions import mypyc_attr  # compiled, the bot classes stay subclassable

from kabucli.engine import Game
from kabucli.events import Event
from kabucli.games.kazu_tori.rules import Claim, Flip, KazuToriState, Pass
from kabucli.shuffle import Rng


@mypyc_attr(allow_interpreted_subclasses=True)
class _KazuToriBot:
    """What both bots share: ``choose`` from ``claims``.

    Trusted (see ``Game.bot_move``): the engine asks ``choose`` only of the seat that must
    flip when no card waits for a claim, and the answer is then ``Flip(seat)`` with no card,
    the one move ``KazuTori.legal`` lists for that seat in a seeded game besides ``stop``
    (``bot_move`` asks bots nothing at a real table). In a claim window the engine asks only
    ``claims`` and builds the event itself."""

    # class-level, so the renderer can read a kind's profile from the class itself
    reaction: ClassVar[tuple[int, int]]
    about: ClassVar[str]  # what the kind does, in one line for people (kabucli rules)
    trusted: ClassVar[bool] = True
    # never claims a card that may not be taken, so it is not asked about those (and the
    # engine reads this on every flip: a missing attribute would cost a raised AttributeError)
    careful: ClassVar[bool] = False

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def claims(self, s: KazuToriState, seat: int) -> bool:
        raise NotImplementedError

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: KazuToriState = state
        if s.phase == "window" and seat not in s.claimed and self.claims(s, seat):
            return Claim(seat)
        return Flip(seat) if seat == s.next_flipper() else Pass(seat)


@mypyc_attr(allow_interpreted_subclasses=True)
class SharpBot(_KazuToriBot):
    """Claims every card that may be taken, and never any other."""

    about = "claims every card that may be taken and never another, and reaches for it fast"
    reaction = (180, 340)
    careful = True

    def claims(self, s: KazuToriState, seat: int) -> bool:
        return s.takeable()


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot(_KazuToriBot):
    """Claims a card that may be taken half the time, and any other card one time in 16."""

    about = ("claims a card that may be taken half the time and any other card one time in "
             "16, and reaches for it slower")
    reaction = (220, 600)
    ODDS_RIGHT = 2
    ODDS_WRONG = 16

    def claims(self, s: KazuToriState, seat: int) -> bool:
        odds = self.ODDS_RIGHT if s.phase == "window" and s.ok else self.ODDS_WRONG  # takeable
        k = _POWER_OF_TWO.get(odds)  # below(2**k) is bits(k): no draw is ever refused
        return (self.rng.bits(k) if k is not None else self.rng.below(odds)) == 0


_POWER_OF_TWO = {1 << k: k for k in range(1, 31)}

BOTS = {"sharp": SharpBot, "random": RandomBot}
