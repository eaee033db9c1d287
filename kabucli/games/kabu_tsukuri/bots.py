"""Kabu-Tsukuri bots: ``random`` lays its cards in any order; ``best`` lays the solver's
arrangement (the most expected chips per hand, see the solver)."""

from __future__ import annotations

from typing import Any, ClassVar

from mypy_extensions import mypyc_attr  # compiled, the bot classes stay subclassable

from kabucli.engine import Game
from kabucli.errors import BotError
from kabucli.events import Event
from kabucli.games.kabu_tsukuri.rules import ROW, ROWS, Arrange, KabuState
from kabucli.games.kabu_tsukuri.solver import solve
from kabucli.shuffle import Rng


def _hand(s: KabuState, seat: int) -> list[int]:
    if s.phase != "arrange" or not s.cards[seat]:
        raise BotError(f"p{seat} has no cards the program dealt: a bot cannot lay them")
    return s.cards[seat]


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Any arrangement, each order of its hand equally likely.

    Trusted (its moves are recorded without a second check): a shuffle of its own hand cut
    into rows is always a legal arrangement."""

    about: ClassVar[str] = "lays its cards in a random order (and sets a random card aside)"
    trusted = True

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        cards = self.rng.shuffled(_hand(state, seat))
        rows = [cards[i * ROW:(i + 1) * ROW] for i in range(ROWS)]
        return Arrange(seat, rows, cards[ROWS * ROW:])


@mypyc_attr(allow_interpreted_subclasses=True)
class BestBot:
    """The solver's best arrangement for its hand, the players, the ranking, the bet and the
    pot carried into the hand.

    Trusted: the solver only splits and orders the bot's own hand."""

    about: ClassVar[str] = ("lays the arrangement with the most expected chips per hand "
                            "against rows laid at random (the solver)")
    trusted = True

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: KabuState = state
        rules = s.rules
        plan = solve(_hand(s, seat), s.n, rules.ranking, rules.bet, s.ledger.pot)[0]
        return Arrange(seat, [list(r) for r in plan.rows], list(plan.aside))


BOTS = {"random": RandomBot, "best": BestBot}
