"""Dare bots: ``random`` lays any legal choice of sets; ``best`` becomes Dare when it can and
otherwise keeps the strongest showdown hand it can."""

from __future__ import annotations

from typing import Any

from kabucli.engine import Game
from kabucli.events import Event
from kabucli.games.dare import DareState, Lay, legal_lays, strength
from kabucli.shuffle import Rng


class RandomBot:
    """Any legal move, uniformly among the distinct choices of sets."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: DareState = state
        moves = legal_lays(tuple(s.hands[seat]), s.ref)
        move = moves[self.rng.below(len(moves))]
        return Lay(seat, [list(st) for st in move])


class BestBot:
    """Three sets if the hand allows; else the two sets leaving the strongest hand; else pass."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: DareState = state
        hand = tuple(s.hands[seat])
        moves = legal_lays(hand, s.ref)
        if len(moves[-1]) == 3:
            return Lay(seat, [list(st) for st in moves[-1]])
        best: tuple[tuple[int, int], list[list[int]]] | None = None
        for move in moves:
            if len(move) != 2:
                continue
            left = list(hand)
            for st in move:
                for c in st:
                    left.remove(c)
            key = strength(left, s.rules.yaku)
            if best is None or key > best[0]:
                best = (key, [list(st) for st in move])
        return Lay(seat, best[1] if best is not None else [])


BOTS = {"random": RandomBot, "best": BestBot}
