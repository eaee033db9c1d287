"""Yatchaba's house rules and events: the msgspec structs of its logs and headers.

They live apart from the rules in ``rules.py`` so that module can be compiled (mypyc compiles
plain classes and functions, not msgspec ``Struct`` subclasses); ``rules.py`` re-exports them.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec import Meta

from kabucli.cards import HANAFUDA_48, UNKNOWN
from kabucli.events import Event

# A card code and a month as a log may hold them (a reader refuses any other): a hanafuda
# card or UNKNOWN, and a month 1-12.
Card = Annotated[int, Meta(ge=UNKNOWN, le=max(HANAFUDA_48.counts))]
Month = Annotated[int, Meta(ge=1, le=12)]


class YatchabaRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Yatchaba's house rules (docs/rules/yatchaba.md)."""

    amounts: Annotated[
        Literal["count", "book"],
        Meta(description="bet sequence of a round: count = 1, 2, 3, ...; book = 3, 7, 11, 12, "
                         "16, 22, 26, 30, 31, 35, 41, 45, 50, then 50 each time"),
    ] = "count"
    pass_limit: Annotated[
        int, Meta(ge=0, le=100, description="passes a player may make in one game before a "
                                            "further pass costs them the right to be a guesser "
                                            "in that game"),
    ] = 2
    games: Annotated[
        int, Meta(ge=0, le=1000, description="games in a match (each game is dealt by the next "
                                             "seat); 0 = one game per player"),
    ] = 0
    chips: Annotated[
        int, Meta(ge=0, le=1_000_000_000, description="chips every player starts with")
    ] = 100
    max_laps: Annotated[
        int, Meta(ge=1, le=10_000, description="betting laps in a round at most: after this "
                                               "many the decider cannot continue and the "
                                               "cards are turned over, as after a stop"),
    ] = 100


# -- events ------------------------------------------------------------------------------

class Deal(Event, tag="deal", frozen=True):
    """The guesser of round ``round`` of game ``game`` lays three cards face down. ``cards``
    are known in a seeded game; at a real table they are unknown (None)."""

    KIND: ClassVar[str] = "chance"
    game: int
    round: int
    guesser: int
    cards: list[Card] | None = None


class Guess(Event, tag="guess", frozen=True):
    """The guesser names three months (ascending; repeats allowed)."""

    seat: int
    months: list[Month]


class Bet(Event, tag="bet", frozen=True):
    """``seat`` puts the next amount of the sequence in the pot."""

    seat: int
    amount: int


class Pass(Event, tag="pass", frozen=True):
    """``seat`` puts 1 chip in the pot and bets no more this round."""

    seat: int


class Continue(Event, tag="continue", frozen=True):
    """The last player of the lap still betting asks for another lap."""

    seat: int


class Stop(Event, tag="stop", frozen=True):
    """The last player of the lap still betting ends the betting: the cards are turned over."""

    seat: int


class Reveal(Event, tag="reveal", frozen=True):
    """The three cards turned over, ascending by month. ``cards[i]`` is the card whose month
    is ``months[i]``, or UNKNOWN when a real table gave only the month; None: months only."""

    KIND: ClassVar[str] = "chance"
    months: list[Month]
    cards: list[Card] | None = None


class Result(Event, tag="result", frozen=True):
    """Whether the guess of round ``round`` was right, and who guesses next (0: game over)."""

    KIND: ClassVar[str] = "auto"
    game: int
    round: int
    guesser: int
    right: bool
    next: int


class GameEnd(Event, tag="gameend", frozen=True):
    """Game ``game`` is over: its winner (0: nobody), the pot carried into the next game, and
    the dealer of the next game (0: the match is over)."""

    KIND: ClassVar[str] = "auto"
    game: int
    winner: int
    carry: int
    dealer: int
