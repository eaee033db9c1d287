"""Kabu-Tsukuri's house rules and events: the msgspec structs of its logs and headers.

They live apart from ``rules.py`` so that module can be compiled (mypyc compiles plain classes
and functions, not msgspec ``Struct`` subclasses). Cards are months 1-12.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec import Meta

from kabucli.events import Event


class KabuRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Kabu-Tsukuri's house rules (docs/rules/kabu-tsukuri.md)."""

    ranking: Annotated[
        Literal["extended", "kabu"],
        Meta(description="row strength: extended = the named hands first (Doshippin, "
                         "Arashi, ..., Nobori, Kudari), then the ones digit; kabu = the ones "
                         "digit of the sum alone"),
    ] = "extended"
    dealer: Annotated[
        Literal["rotate", "winner"],
        Meta(description="who deals the next hand: rotate = the next seat; winner = the "
                         "winner of row 3 (the same dealer when row 3 ties)"),
    ] = "rotate"
    bet: Annotated[
        int, Meta(ge=0, le=1_000_000, description="chips each player bets on every row")
    ] = 1
    chips: Annotated[
        int, Meta(ge=0, le=1_000_000_000, description="chips every player starts with")
    ] = 50
    hands: Annotated[int, Meta(ge=1, le=10_000, description="hands in a match")] = 10


# -- events ------------------------------------------------------------------------------

class Deal(Event, tag="deal", frozen=True):
    """Hand ``hand`` is dealt by ``dealer``: each seat's cards (sorted) and the cards left
    unused, when known (a seeded game); None at a real table."""

    KIND: ClassVar[str] = "chance"
    hand: int
    dealer: int
    hands: list[list[int]] | None = None
    rest: list[int] | None = None


class Arrange(Event, tag="arrange", frozen=True):
    """``seat`` lays its cards face down: three rows of three in laid order, and with ten
    cards the one set aside. Secret: a seat's view shows another seat's rows only once
    turned over."""

    seat: int
    rows: list[list[int]]
    aside: list[int] = msgspec.field(default_factory=list)


class Bet(Event, tag="bet", frozen=True):
    """At a real table: ``seat`` puts the bet of this row in the pot."""

    seat: int


class Stakes(Event, tag="stakes", frozen=True):
    """Every seat puts ``amount`` chips in the pot for row ``row`` (a seeded game)."""

    KIND: ClassVar[str] = "auto"
    row: int
    amount: int


class Turn(Event, tag="turn", frozen=True):
    """Row ``row`` is turned over at every seat (a seeded game): ``rows`` by seat."""

    KIND: ClassVar[str] = "chance"
    row: int
    rows: list[list[int]]


class Show(Event, tag="show", frozen=True):
    """At a real table: ``seat`` turns its row of this round over, showing ``cards``."""

    KIND: ClassVar[str] = "chance"
    seat: int
    cards: list[int]


class Result(Event, tag="result", frozen=True):
    """Row ``row`` of hand ``hand``: ``best`` are the seats with the strongest row. One seat
    takes ``amount`` (the whole pot); several tie and the pot (``amount``) carries on."""

    KIND: ClassVar[str] = "auto"
    hand: int
    row: int
    best: list[int]
    amount: int
