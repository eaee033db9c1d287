"""Kazu-Tori's house rules and events: the msgspec structs of its logs and headers.

They live apart from the rules in ``kazutori.py`` so that module can be compiled (mypyc compiles
plain classes and functions, not msgspec ``Struct`` subclasses); ``kazutori.py`` re-exports them.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec import Meta

from kabucli.cards import DAINI_40, UNKNOWN
from kabucli.events import Event

# A card code as a log may hold it: a Daini card, or UNKNOWN (a reader refuses any other).
Card = Annotated[int, Meta(ge=UNKNOWN, le=max(DAINI_40.counts))]


class KazuToriRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Kazu-Tori's house rules (docs/rules/kazu-tori.md)."""

    limit: Annotated[
        Literal[10, 15, 20],
        Meta(description="the count runs from one up to this number, then starts again"),
    ] = 10
    tie: Annotated[
        Literal["split", "each", "none"],
        Meta(description="several players with the most cards: split = each payment is shared, "
                         "odd chips stay with the payer; each = every tied winner is paid in "
                         "full; none = nobody pays"),
    ] = "split"
    max_flips: Annotated[
        int, Meta(ge=1, le=100_000, description="a game stops and is scored when a flip beyond "
                                                "this many is due (seeded games; at a real table "
                                                "use 'stop')"),
    ] = 2000
    chips: Annotated[
        int, Meta(ge=0, le=1_000_000_000, description="chips every player starts with")
    ] = 50


# -- events ------------------------------------------------------------------------------

class Deal(Event, tag="deal", frozen=True):
    """The deck is dealt into one face-down pile per seat, listed top card first (seeded
    games); at a real table only the sizes are known."""

    KIND: ClassVar[str] = "chance"
    sizes: list[int]
    piles: list[list[Card]] | None = None


class Shuffle(Event, tag="shuffle", frozen=True):
    """The players in ``seats`` shuffle the cards they just received into their piles: the new
    piles, top card first. After a return the table is shuffled and dealt back first, so the
    new piles also say who got which card. Seeded games only: at a real table nothing is
    learnt."""

    KIND: ClassVar[str] = "chance"
    seats: list[int]
    piles: list[list[Card]]


class Flip(Event, tag="flip", frozen=True):
    """``seat`` turns the top card of their pile and says the next number. ``card`` is the card
    the referee saw (real table); a seeded game leaves it out: the pile's top card is flipped.
    A flip closes the claim window of the card before it."""

    SHOWS: ClassVar[bool] = True
    seat: int
    card: Card | None = None


class Claim(Event, tag="claim", frozen=True):
    """``seat`` claims the card just flipped (the first hand on it)."""

    seat: int


class Pass(Event, tag="pass", frozen=True):
    """``seat`` lets the card just flipped go (a person at the prompt, so that bots may react)."""

    seat: int


class Stop(Event, tag="stop", frozen=True):
    """The players agree to end the game here (proposed by ``seat``); it is scored as it stands."""

    seat: int


class Race(Event, tag="race", frozen=True):
    """Reaction draws (0-999, one per seat, -1 for a seat that is out) for a race between bots
    that claim the same card; each bot turns its draw into milliseconds by its profile."""

    KIND: ClassVar[str] = "chance"
    draws: list[int]


class Penalty(Event, tag="penalty", frozen=True):
    """A wrong claim: ``seat`` gives the top card of their pile to each seat in ``to``."""

    KIND: ClassVar[str] = "auto"
    seat: int
    to: list[int]


class Handout(Event, tag="handout", frozen=True):
    """The Jizo flipped by ``seat`` goes to ``jizo`` (0: it leaves the game after its third use);
    the other table cards go one each to the seats in ``to``, most recent card first."""

    KIND: ClassVar[str] = "auto"
    seat: int
    jizo: int
    to: list[int]


class Return(Event, tag="return", frozen=True):
    """The count reached the limit untaken: the (shuffled) table goes back, ``counts[i]`` cards
    to seat i+1, each as many as they flipped."""

    KIND: ClassVar[str] = "auto"
    counts: list[int]


class Score(Event, tag="score", frozen=True):
    """How the game ended (``seat``: the taker, the Oni's flipper or the proposer; 0 if none),
    the cards each seat holds, and the winners (the most cards)."""

    KIND: ClassVar[str] = "auto"
    reason: Literal["take", "oni", "out", "agreement", "max_flips"]
    seat: int
    cards: list[int]
    winners: list[int]
