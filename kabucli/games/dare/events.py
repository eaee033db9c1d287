"""Dare's house rules and events: the msgspec structs of its logs and headers.

They live apart from the rules in ``dare.py`` so that module can be compiled (mypyc compiles
plain classes and functions, not msgspec ``Struct`` subclasses); ``dare.py`` re-exports them.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec import Meta

from kabucli.cards import KABUFUDA_39, UNKNOWN
from kabucli.events import Event

# A card code as a log may hold it: a kabufuda card, or UNKNOWN (a reader refuses any other).
Card = Annotated[int, Meta(ge=UNKNOWN, le=max(KABUFUDA_39.counts))]


class DareRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Dare's house rules (docs/rules/dare.md)."""

    ante: Annotated[
        int, Meta(ge=0, le=1_000_000, description="chips each player puts in the pot every round")
    ] = 1
    yaku: Annotated[
        Literal["none", "arashi", "extended"],
        Meta(description="showdown hands: none = ones digit only; arashi = three of a kind "
                         "beats all; extended = the named 3-card hands of Hiki-Kabu first"),
    ] = "none"
    tie: Annotated[
        Literal["carry", "split", "order"],
        Meta(description="equal best hands: carry = pot stays, same dealer; split = equal "
                         "shares, odd chips stay; order = first tied player in turn order wins"),
    ] = "carry"
    rounds: Annotated[int, Meta(ge=1, le=10_000, description="rounds in a match")] = 10
    chips: Annotated[
        int, Meta(ge=0, le=1_000_000_000, description="chips every player starts with")
    ] = 50


# -- events ------------------------------------------------------------------------------

class Deal(Event, tag="deal", frozen=True):
    """Round ``round`` is dealt by ``dealer``: the field, and each seat's hand when known."""

    KIND: ClassVar[str] = "chance"
    round: int
    dealer: int
    field: list[Card]
    hands: list[list[Card]] | None = None


class Lay(Event, tag="lay", frozen=True):
    """``seat`` lays down ``sets`` (0-3 sets of three cards) on their turn."""

    seat: int
    sets: list[list[Card]]


class Show(Event, tag="show", frozen=True):
    """A qualified player shows the three cards left in hand at the showdown."""

    KIND: ClassVar[str] = "chance"
    seat: int
    cards: list[Card]


class Result(Event, tag="result", frozen=True):
    """How round ``round`` ended, who wins the pot, and who deals next."""

    KIND: ClassVar[str] = "auto"
    round: int
    reason: Literal["dare", "showdown", "tie", "split", "order", "nobody"]
    winners: list[int]
    dealer: int
