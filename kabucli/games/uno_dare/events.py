"""Uno Dare's house rules and events: the msgspec structs of its logs and headers.

They live apart from the rules in ``rules.py`` so that module can be compiled (mypyc compiles
plain classes and functions, not msgspec ``Struct`` subclasses); ``rules.py`` re-exports them.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec
from msgspec import Meta

from kabucli.events import Event

DARE_LISTS = ("family", "daredevil", "show-off", "house-rules")
DARES = 16  # dares on a list, numbered 1-16
DARE_TEXT = 80  # characters in one dare of the house-rules list


class UnoDareRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Uno Dare's house rules (docs/rules/uno-dare.md)."""

    dares: Annotated[
        Literal["family", "daredevil", "show-off", "house-rules"],
        Meta(description="the dare list played: one of the three shipped with kabucli, or "
                         "house-rules, your own 16 dares given as house_dares"),
    ] = "family"
    house_dares: Annotated[
        tuple[str, ...],
        Meta(description="the 16 dares of the house-rules list, in order (in a rules file: a "
                         f"list of 16 texts of at most {DARE_TEXT} characters)"),
    ] = ()
    dare_skips: Annotated[
        bool, Meta(description="a player hit by a dare loses their turn, whether they do the "
                               "dare or draw 2"),
    ] = True
    dare_on_wild: Annotated[
        bool, Meta(description="a colored Dare may also be played on a Wild Dare (Dare on "
                               "Dare), not only on the color named"),
    ] = False
    target: Annotated[
        int, Meta(ge=1, le=1_000_000, description="the match ends when a score reaches this"),
    ] = 500
    scoring: Annotated[
        Literal["winner", "lowest"],
        Meta(description="winner = the round winner scores the other hands, first to the "
                         "target wins; lowest = each player scores their own hand, when "
                         "anyone reaches the target the lowest score wins"),
    ] = "winner"
    max_turns: Annotated[
        int, Meta(ge=10, le=100_000, description="a round still going after this many turns "
                                                 "ends without a winner and scores nothing"),
    ] = 1000
    stuck_rounds: Annotated[
        int, Meta(ge=1, le=1000, description="the match ends when this many rounds in a row "
                                             "score nothing (out of turns, or won against "
                                             "hands of zeros)"),
    ] = 3

    def __post_init__(self) -> None:
        if self.dares == "house-rules" and len(self.house_dares) != DARES:
            raise ValueError(f"dares=house-rules needs house_dares: {DARES} dares, "
                             f"not {len(self.house_dares)}")
        if self.dares != "house-rules" and self.house_dares:
            raise ValueError("house_dares are played only with dares=house-rules")
        for i, text in enumerate(self.house_dares, 1):
            if not text.isprintable() or not text.strip():
                raise ValueError(f"house dare #{i} must be printable text on one line")
            if len(text) > DARE_TEXT:
                raise ValueError(f"house dare #{i} is {len(text)} characters long; at most "
                                 f"{DARE_TEXT}")


# -- events ------------------------------------------------------------------------------

class Deal(Event, tag="deal", frozen=True):
    """Round ``round``, dealt by ``dealer``: seven cards each, and ``up`` turned up as the
    first discard. A seeded game records the hands and the draw pile (``pile``, top card
    last); at a real table only ``up`` is seen."""

    KIND: ClassVar[str] = "chance"
    round: int
    dealer: int
    up: int
    hands: list[list[int]] | None = None
    pile: list[int] | None = None


class Play(Event, tag="play", frozen=True):
    """``seat`` plays ``card`` (naming ``color`` 0-3 for a Wild Dare); ``uno``: they call
    UNO as they play their next-to-last card."""

    seat: int
    card: int
    color: int | None = None
    uno: bool = False


class Draw(Event, tag="draw", frozen=True):
    """``seat`` draws one card from the pile instead of playing (the top card, in a seeded
    game; an unknown card at a real table)."""

    SHOWS: ClassVar[bool] = True
    seat: int


class Keep(Event, tag="keep", frozen=True):
    """``seat`` keeps the card just drawn and ends their turn."""

    seat: int


class Name(Event, tag="name", frozen=True):
    """``seat`` names the color of a Wild Dare turned up as the first discard."""

    seat: int
    color: int


class Answer(Event, tag="answer", frozen=True):
    """The player hit by a dare ``decline``s (draws 2) or will ``try``; after a try, the
    table's verdict: ``done`` or ``failed`` (draws 2)."""

    seat: int
    answer: Literal["decline", "try", "done", "failed"]


class Uno(Event, tag="uno", frozen=True):
    """``seat``, down to one card, calls UNO after all (before anyone catches them)."""

    seat: int


class Catch(Event, tag="catch", frozen=True):
    """``seat`` catches ``target`` holding one card without having called UNO."""

    seat: int
    target: int


class Pass(Event, tag="pass", frozen=True):
    """``seat`` lets a missing UNO call go (so that the bots may react)."""

    seat: int


class Race(Event, tag="race", frozen=True):
    """Reaction draws (0-999 per seat, -1 for a seat not racing) for bots catching the same
    missing UNO call; each bot turns its draw into milliseconds by its profile."""

    KIND: ClassVar[str] = "chance"
    draws: list[int]


class Reshuffle(Event, tag="reshuffle", frozen=True):
    """The empty draw pile is refilled from the discards except the top card: ``size``
    cards, and in a seeded game their new order (``pile``, top card last)."""

    KIND: ClassVar[str] = "chance"
    size: int
    pile: list[int] | None = None


class Penalty(Event, tag="penalty", frozen=True):
    """``seat`` draws ``count`` cards from the pile because of ``why`` (fewer than the
    penalty when the pile and the discards run out)."""

    KIND: ClassVar[str] = "auto"
    SHOWS: ClassVar[bool] = True
    seat: int
    count: int
    why: Literal["declined", "failed", "uno", "last"]


class Show(Event, tag="show", frozen=True):
    """At a real table, at the end of a round: ``seat`` shows the cards left in hand."""

    KIND: ClassVar[str] = "chance"
    seat: int
    cards: list[int]


class Score(Event, tag="score", frozen=True):
    """Round ``round`` is over: ``winner`` went out (0: the round reached ``max_turns``),
    ``hands`` the points left in each hand (index 0 is seat 1)."""

    KIND: ClassVar[str] = "auto"
    round: int
    winner: int
    hands: list[int]
