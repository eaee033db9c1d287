"""Dare bots: ``random`` lays any legal choice of sets; ``best`` becomes Dare when it can and
otherwise keeps the strongest showdown hand it can."""

from __future__ import annotations

from typing import Any, ClassVar

from mypy_extensions import mypyc_attr  # compiled, the bot classes stay subclassable

from kabucli.cards import UNKNOWN
from kabucli.engine import Game
from kabucli.errors import BotError
from kabucli.events import Event
from kabucli.games.dare.rules import DareState, Lay, Move, legal_lays, strength, take
from kabucli.shuffle import Rng


def _moves(s: DareState, seat: int) -> tuple[Move, ...]:
    hand = s.hands[seat]
    if UNKNOWN in hand:
        raise BotError(f"p{seat}'s hand is face down to the log: a bot cannot play it")
    return legal_lays(tuple(hand), s.ref)


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """Any legal move, uniformly among the distinct choices of sets.

    Trusted (its moves are recorded without a second check): it picks from ``legal_lays`` of
    its own hand and the reference, the list ``Dare.legal`` is made of."""

    about: ClassVar[str] = "lays any legal choice of sets (or none), each equally likely"
    trusted = True

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        moves = _moves(state, seat)
        move = moves[self.rng.below(len(moves))]
        return Lay(seat, [list(st) for st in move])


@mypyc_attr(allow_interpreted_subclasses=True)
class BestBot:
    """Three sets if the hand allows; else the two sets leaving the strongest hand; else pass.

    Trusted: every move it returns (pass included, the first of the list) comes from
    ``legal_lays`` of its own hand and the reference, the list ``Dare.legal`` is made of."""

    about: ClassVar[str] = ("becomes Dare when its hand allows; else lays the two sets that "
                            "keep the strongest showdown hand; else lays none")
    trusted = True

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: DareState = state
        moves = _moves(s, seat)
        if len(moves[-1]) == 3:  # legal_lays lists moves by number of sets: Dare comes last
            return Lay(seat, [list(st) for st in moves[-1]])
        best: tuple[tuple[int, int], Move] | None = None
        for move in moves:
            if len(move) != 2:
                continue
            got = take(s.hands[seat], [c for st in move for c in st])
            assert got is not None
            key = strength(got[0], s.rules.yaku)
            if best is None or key > best[0]:
                best = (key, move)
        return Lay(seat, [list(st) for st in best[1]] if best is not None else [])


BOTS = {"random": RandomBot, "best": BestBot}
