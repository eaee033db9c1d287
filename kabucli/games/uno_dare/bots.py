"""Uno Dare bots: ``random`` plays any legal move and sometimes forgets UNO; ``strong`` keeps
its Wild Dares for when they matter, names the color it holds most of, hits a player close to
going out with a dare, never forgets UNO and catches every missing call.

A bot sees only its own hand, the discards and the sizes of the other hands. ``choose`` gives
its move when the state waits for its seat; ``catches`` answers whether it catches a player
holding one card without a call (the engine builds the catch and races bots for it). A dare
tried by a bot is judged by chance: the bot's ``daring`` is its chance in 16 of doing it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from mypy_extensions import mypyc_attr  # compiled, the bot classes stay subclassable

from kabucli.cards import UNKNOWN
from kabucli.engine import Game
from kabucli.errors import BotError
from kabucli.events import Event
from kabucli.games.uno_dare.rules import (
    COLOR,
    COLORS,
    DARE,
    POINTS,
    SYMBOL,
    WILD,
    Answer,
    Draw,
    Keep,
    Name,
    Play,
    UnoState,
)
from kabucli.shuffle import Rng


def _hand(s: UnoState, seat: int) -> list[int]:
    hand = s.hands[seat]
    if s.physical and UNKNOWN in hand:
        raise BotError(f"p{seat}'s hand is face down to the log: a bot cannot play it")
    return hand


def most_held(hand: list[int]) -> int:
    """The color the hand holds most cards of (the lowest such color on a tie; red when it
    holds only Wild Dares)."""
    counts = [0] * COLORS
    for c in hand:
        k = COLOR[c]
        if k != WILD:
            counts[k] += 1
    return counts.index(max(counts))


@mypyc_attr(allow_interpreted_subclasses=True)
class _UnoBot:
    """What both bots share. Trusted (see ``Game.bot_move``): every move comes from the
    state's own legality rules as ``UnoDare.legal`` lists them: a card of its hand that
    matches (the card just drawn after a draw), a color for a Wild Dare, draw, keep, a
    dare answer of the phase, a color to name."""

    about: ClassVar[str]
    reaction: ClassVar[tuple[int, int]]
    trusted: ClassVar[bool] = True
    daring: ClassVar[int] = 8  # chance in 16 that a dare it tries is judged done

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def catches(self, s: UnoState, seat: int) -> bool:
        raise NotImplementedError

    def pick(self, s: UnoState, seat: int, options: list[int]) -> Event:
        raise NotImplementedError

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: UnoState = state
        phase = s.phase
        if phase == "turn" or phase == "drawn":
            hand = _hand(s, seat)
            top = s.discards[-1]
            color = s.color
            if phase == "drawn":
                options = [s.drawn]
            else:
                ok = s.matches[top * 4 + color]
                options = [c for c in hand if ok[c]]
            return self.pick(s, seat, options)
        if phase == "hit":
            return Answer(seat, "try" if self.tries(s, seat) else "decline")
        if phase == "verdict":
            return Answer(seat, "done" if self.rng.bits(4) < self.daring else "failed")
        if phase == "name":
            return Name(seat, most_held(_hand(s, seat)))
        raise BotError(f"p{seat} has no move in phase {phase}")

    def tries(self, s: UnoState, seat: int) -> bool:
        return self.rng.bits(1) == 1


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot(_UnoBot):
    """Any legal move: a matching card at random, or one time in eight (always, when no
    card matches) a draw, or keeping the card drawn; names a color at random for a Wild
    Dare it plays (for one turned up first, the color it holds most of), forgets UNO one
    time in four and catches a missing call half the time."""

    about = ("plays a matching card at random, draws (or keeps the card drawn) one time in "
             "8, forgets UNO one time in four and catches a missing call half the time")
    reaction = (250, 700)

    def catches(self, s: UnoState, seat: int) -> bool:
        return self.rng.bits(1) == 1

    def pick(self, s: UnoState, seat: int, options: list[int]) -> Event:
        k = len(options)
        if k == 0 or self.rng.bits(3) == 0:  # draw (or keep the card drawn) one time in 8
            return Draw(seat) if s.phase == "turn" else Keep(seat)
        card = options[self.rng.below(k)]
        color = self.rng.below(COLORS) if COLOR[card] == WILD else None
        uno = len(s.hands[seat]) == 2 and self.rng.bits(2) != 0
        return Play(seat, card, color, uno)


@mypyc_attr(allow_interpreted_subclasses=True)
class StrongBot(_UnoBot):
    """Plays whenever it can: a dare (or Skip) on a next player close to going out, else
    its highest-scoring card of the color it holds most of; keeps its Wild Dares until
    nothing else matches or an opponent is close to going out; names the color it holds most
    of; always calls UNO, always catches, tries dares (it does most of them)."""

    about = ("keeps Wild Dares for when they matter, names the color it holds most of, plays "
             "dares on a player close to going out, never forgets UNO and catches others")
    reaction = (150, 400)
    daring = 12

    def catches(self, s: UnoState, seat: int) -> bool:
        return True

    def pick(self, s: UnoState, seat: int, options: list[int]) -> Event:
        if not options:
            return Draw(seat)
        hand = s.hands[seat]
        nxt = s.step(seat, 1)
        danger = len(s.hands[nxt]) <= 2
        close = min(len(s.hands[p]) for p in range(1, s.n + 1) if p != seat) <= 2
        mine = most_held(hand)

        def key(card: int) -> tuple[int, int, int]:
            sym = SYMBOL[card]
            wild = COLOR[card] == WILD
            hits = sym >= DARE or sym == 10  # a dare or a skip stops the next player
            # wild cards last unless an opponent is close to going out
            first = 2 if danger and hits else (0 if wild and not close else 1)
            return (first, int(COLOR[card] == mine), POINTS[card])

        card = max(options, key=key)
        if COLOR[card] == WILD and not close and len(options) > 1 and len(hand) > 2:
            others = [c for c in options if COLOR[c] != WILD]
            if others:
                card = max(others, key=key)
        color = None
        if COLOR[card] == WILD:
            rest = list(hand)
            rest.remove(card)
            color = most_held(rest)
        return Play(seat, card, color, len(hand) == 2)

    def tries(self, s: UnoState, seat: int) -> bool:
        return True


BOTS = {"random": RandomBot, "strong": StrongBot}
