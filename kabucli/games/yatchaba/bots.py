"""Yatchaba bots: ``random`` picks uniformly among the legal moves; ``smart`` guesses the most
likely months and bets, passes and stops by a small expected-value rule.

The ``smart`` rule, in chips. Let ``p`` be the chance that the current guess is right and ``q``
the chance of the best guess now (both from the cards face up, see ``games.yatchaba.ways``).
A seat's *stake* is the share of the pot it expects to take at the end of this game:

* the dealer (when not guessing): 0.2, the dealer's share whether a later guesser is right or
  nobody is;
* a seat that will still guess later in this game: ``(1 - p) * 0.8 * q``;
* anyone else: 0.

A chip put in the pot costs ``1 - stake``. The guesser always bets (it cannot pass). Another
seat bets the amount ``a`` when ``a * (1 - stake) <= 1 * (1 - stake) + penalty``, where
``penalty = 0.8 * q * (pot + a)`` if this pass would cost the right to guess and 0 otherwise;
else it passes. The player who decides says ``continue`` when the chips the others will add in
the next lap (the guesser's next amount, and 1 for each other player still in, assuming they
pass) are worth more to it than its own next chip: ``stake * others > (1 - stake) * 1``;
otherwise ``stop``. The future pot of the next game is left out of the sums.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr  # compiled, the bot classes stay subclassable

from kabucli.engine import Game
from kabucli.events import Event
from kabucli.games.yatchaba.rules import (
    GUESSES,
    MONTHS,
    PAIR_WAYS,
    PASS_COST,
    TRIPLE_WAYS,
    Bet,
    Continue,
    Guess,
    Pass,
    Stop,
    YatchabaState,
    draws,
    ways,
)
from kabucli.shuffle import Rng

WIN_SHARE: Final = 0.8
DEALER_SHARE: Final = 0.2


def best_guess(left: list[int], offset: int = 0) -> tuple[int, list[int]]:
    """A guess with the most ways to be right, and that number.

    The best three different months are the three with the most unseen cards; the best pair
    takes the month with the most and the next one; the best triple the month with the most.
    Months with as many unseen cards are taken in order from ``offset`` (0-11), so a
    generator can vary the choice among equally good guesses.
    """
    rotated = [(m - 1 + offset) % MONTHS + 1 for m in range(1, MONTHS + 1)]
    order = [m for r in (4, 3, 2, 1, 0) for m in rotated if left[m] == r]
    a, b, c = order[0], order[1], order[2]
    ra, rb, rc = left[a], left[b], left[c]
    three = ra * rb * rc
    pair = PAIR_WAYS[ra] * rb
    triple = TRIPLE_WAYS[ra]
    if three >= pair and three >= triple:
        return three, sorted((a, b, c))
    if pair >= triple:
        return pair, sorted((a, a, b))
    return triple, [a, a, a]


@lru_cache(maxsize=4096)
def _best_odds(left: tuple[int, ...]) -> float:
    """The chance of the best guess given the unseen cards per month."""
    total = draws(list(left))
    return best_guess(list(left))[0] / total if total else 0.0


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot:
    """A uniformly random legal move: any guess that can be right, bet or pass, continue or
    stop.

    Trusted (its moves are recorded without a second check): a bet of exactly the amount due,
    a pass only when it is not the guesser, continue or stop, a guess from ``GUESSES`` with
    ``ways > 0``: each a move of ``Yatchaba.legal``."""

    about: ClassVar[str] = ("any guess that can be right; bets or passes, continues or stops, "
                            "at even odds")
    trusted = True

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: YatchabaState = state
        rng = self.rng
        phase = s.phase
        # rng.bits(1) is rng.below(2), without the general case's overhead
        if phase == "bet":
            if seat == s.guesser or rng.bits(1) == 0:
                return Bet(seat, s.due)
            return Pass(seat)
        if phase == "decide":
            return Continue(seat) if rng.bits(1) == 0 else Stop(seat)
        left = s.left
        while True:  # rejection sampling: uniform among the guesses that can be right
            g = GUESSES[rng.below(len(GUESSES))]
            if ways(left, g):
                return Guess(seat, list(g))


@mypyc_attr(allow_interpreted_subclasses=True)
class SmartBot:
    """The most likely guess; bets, passes and stops by the rule in the module docstring.

    Trusted: its bets are of the amount due, it passes only when it is not the guesser, and
    its guess (ascending months) has the most ways to be right, which is more than none as
    at least 24 cards are never face up (at most 8 rounds of 3): each a move of
    ``Yatchaba.legal``."""

    about: ClassVar[str] = ("a most likely guess given the cards face up; bets, passes and "
                            "stops when the chips it expects to win are worth it")
    trusted = True

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: YatchabaState = state
        phase = s.phase
        if phase == "guess":
            return Guess(seat, best_guess(s.left, self.rng.below(MONTHS))[1])
        if phase == "bet":
            a = s.due
            if seat == s.guesser or a <= PASS_COST:
                return Bet(seat, a)
            if s.passes[seat] < s.rules.pass_limit or not self._guesses_later(s, seat):
                # No right to guess is at risk: a > 1 chips cost more than the 1 of a pass
                # whatever the stake (which is below 1).
                return Pass(seat)
            q = self._best_odds(s)
            stake = self.stake(s, seat, q)
            penalty = WIN_SHARE * q * (s.ledger.pot + a)
            if a * (1 - stake) <= PASS_COST * (1 - stake) + penalty:
                return Bet(seat, a)
            return Pass(seat)
        # deciding: continue when the others' chips next lap outweigh one's own chip
        if seat != s.dealer and not self._guesses_later(s, seat):
            return Stop(seat)  # no stake in the pot
        others = s.due + PASS_COST * sum(
            1 for p in s.order[1:] if p != seat and not s.out[p])
        stake = self.stake(s, seat, self._best_odds(s))
        if stake * others > (1 - stake) * PASS_COST:
            return Continue(seat)
        return Stop(seat)

    @staticmethod
    def _best_odds(s: YatchabaState) -> float:
        return _best_odds(tuple(s.left))

    @staticmethod
    def _guesses_later(s: YatchabaState, seat: int) -> bool:
        return seat not in s.guessed and s.may_guess(seat)

    def stake(self, s: YatchabaState, seat: int, q: float) -> float:
        """The share of the pot ``seat`` expects at the end of this game (see the module)."""
        if seat == s.dealer and seat != s.guesser:
            return DEALER_SHARE
        if self._guesses_later(s, seat):
            total = draws(s.left)
            p = ways(s.left, s.guess) / total if total else 0.0
            return (1 - p) * WIN_SHARE * q
        return 0.0


BOTS = {"random": RandomBot, "smart": SmartBot}
