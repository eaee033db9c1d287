"""Dare bots against brute force: ``best`` is Dare whenever the hand allows, otherwise keeps the
strongest showdown hand there is; ``random`` plays only legal moves and more than one of them."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from kabucli.bots import make
from kabucli.cards import UNKNOWN
from kabucli.errors import BotError
from kabucli.games.dare.rules import GAME, DareRules, DareState, Lay, strength
from kabucli.shuffle import Rng

DECK = GAME.deck.cards()


def turn_state(hand: list[int], ref: int, yaku: str = "none") -> DareState:
    """A two-player state where p2 (first after dealer p1) is to lay from ``hand``."""
    s = GAME.new_state(DareRules(yaku=yaku), 2, False)  # type: ignore[arg-type]
    s.phase = "turns"
    s.ref = ref
    s.hands[2] = sorted(hand)
    s.hands[1] = []
    return s


def hands(count: int, stream: str) -> list[tuple[list[int], int]]:
    """``count`` random 9-card hands from the 39-card deck, each with a random reference."""
    rng = Rng(2024, stream)
    return [(rng.shuffled(DECK)[:9], rng.below(10)) for _ in range(count)]


def brute_dare(hand: list[int], ref: int) -> bool:
    """Whether the nine cards split into three sets with ones digit ``ref``."""
    idx = range(9)
    for a in combinations(idx, 3):
        if sum(hand[i] for i in a) % 10 != ref:
            continue
        rest = [i for i in idx if i not in a]
        for b in combinations(rest, 3):
            c = [i for i in rest if i not in b]
            if sum(hand[i] for i in b) % 10 == ref and sum(hand[i] for i in c) % 10 == ref:
                return True
    return False


def brute_best_left(hand: list[int], ref: int, yaku: str) -> tuple[int, int] | None:
    """The strongest three cards left after laying two sets, or None when no two sets exist."""
    best = None
    idx = range(9)
    for a in combinations(idx, 3):
        if sum(hand[i] for i in a) % 10 != ref:
            continue
        rest = [i for i in idx if i not in a]
        for b in combinations(rest, 3):
            if sum(hand[i] for i in b) % 10 != ref:
                continue
            key = strength([hand[i] for i in rest if i not in b], yaku)
            best = key if best is None else max(best, key)
    return best


def assert_legal(s: DareState, ev: Lay) -> None:
    assert ev.seat == 2
    assert len(ev.sets) <= 3
    assert all(len(st) == 3 and sum(st) % 10 == s.ref for st in ev.sets)
    laid = Counter(c for st in ev.sets for c in st)
    assert not laid - Counter(s.hands[2]), f"{ev} is not in {s.hands[2]}"
    assert GAME.check(s, ev) is None
    assert ev in GAME.legal(s, 2)


def test_best_becomes_dare_whenever_the_hand_allows() -> None:
    bot = make("dare", "best", Rng(1))
    seen = Counter()
    for hand, ref in hands(1500, "dare"):
        s = turn_state(hand, ref)
        ev = bot.choose(GAME, s, 2)
        assert isinstance(ev, Lay)
        assert_legal(s, ev)
        can = brute_dare(hand, ref)
        seen[can] += 1
        assert (len(ev.sets) == 3) == can, (sorted(hand), ref, ev)
    assert seen[True] > 20 and seen[False] > 20  # both cases were exercised


@pytest.mark.parametrize("yaku", ["none", "arashi", "extended"])
def test_best_otherwise_keeps_the_strongest_showdown_hand(yaku: str) -> None:
    bot = make("dare", "best", Rng(2))
    checked = 0
    for hand, ref in hands(600, f"showdown/{yaku}"):
        if brute_dare(hand, ref):
            continue
        s = turn_state(hand, ref, yaku)
        ev = bot.choose(GAME, s, 2)
        assert isinstance(ev, Lay)
        assert_legal(s, ev)
        want = brute_best_left(hand, ref, yaku)
        if want is None:
            assert len(ev.sets) < 2
            continue
        assert len(ev.sets) == 2
        left = Counter(hand) - Counter(c for st in ev.sets for c in st)
        assert strength(sorted(left.elements()), yaku) == want, (sorted(hand), ref, ev)
        checked += 1
    assert checked > 100


def test_random_plays_only_legal_moves_and_more_than_one_of_them() -> None:
    bot = make("dare", "random", Rng(3))
    hand, ref = [1, 2, 3, 3, 3, 4, 5, 5, 9], 3  # the example hand of docs/rules/dare.md
    s = turn_state(hand, ref)
    chosen = Counter()
    for _ in range(300):
        ev = bot.choose(GAME, s, 2)
        assert isinstance(ev, Lay)
        assert_legal(s, ev)
        chosen[GAME.notate(ev)] += 1
    assert len(chosen) > 1
    assert len(chosen) == len(GAME.legal(s, 2))  # 300 draws reach every one of the choices


def test_random_is_legal_on_many_hands() -> None:
    bot = make("dare", "random", Rng(4))
    for hand, ref in hands(300, "random"):
        s = turn_state(hand, ref)
        ev = bot.choose(GAME, s, 2)
        assert isinstance(ev, Lay)
        assert_legal(s, ev)


@pytest.mark.parametrize("kind", ["random", "best"])
def test_bots_refuse_a_hand_they_cannot_see(kind: str) -> None:
    s = turn_state([UNKNOWN] * 9, 3)
    with pytest.raises(BotError, match="face down"):
        make("dare", kind, Rng(5)).choose(GAME, s, 2)
