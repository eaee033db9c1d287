"""The speed-ups of the bot hot path answer exactly what the plain code answers: Dare's packed
``legal_lays`` against enumerating card positions, Dare's cached ``pending`` against a fresh
one, and the engine's cached house rules against validating them again."""

from __future__ import annotations

from itertools import combinations

import msgspec
import pytest

from kabucli.bots import make
from kabucli.engine import Match, _header_rules, make_header, walk
from kabucli.errors import KabuError
from kabucli.games.dare import GAME, DareRules, _legal_lays_any, legal_lays
from kabucli.log import SeatInfo
from kabucli.shuffle import Rng

DECK = GAME.deck.cards()


def brute_force_lays(hand: tuple[int, ...], ref: int) -> set[tuple[tuple[int, ...], ...]]:
    """Every choice of 0-3 disjoint position triples matching ``ref``, as sorted value sets."""
    triples = [t for t in combinations(range(len(hand)), 3)
               if sum(hand[i] for i in t) % 10 == ref]
    out: set[tuple[tuple[int, ...], ...]] = {()}
    for k in (1, 2, 3):
        for choice in combinations(triples, k):
            used = [i for t in choice for i in t]
            if len(set(used)) == len(used):
                out.add(tuple(sorted(tuple(hand[i] for i in t) for t in choice)))
    return out


def test_legal_lays_lists_every_distinct_choice_of_sets_once_in_order() -> None:
    rng = Rng(7, "test/legal-lays")
    for _ in range(300):
        hand = tuple(sorted(rng.shuffled(DECK)[:9]))
        ref = rng.below(10)
        moves = legal_lays.__wrapped__(hand, ref)
        assert moves == _legal_lays_any(hand, ref)
        assert set(moves) == brute_force_lays(hand, ref)
        assert list(moves) == sorted(moves, key=lambda m: (len(m), m))


@pytest.mark.parametrize("hand", [
    (),
    (5, 5, 5, 5, 5, 5, 5, 5, 5),  # more copies than a deck holds: the general path
    (9, 1, 3, 5, 5, 7, 2, 2, 6),  # not sorted: the general path keeps the hand's order
    (-1, -1, -1, 2, 3, 5, 5, 7, 8),  # unknown cards
    tuple(range(1, 11)) * 2,  # more cards than any hand
])
def test_legal_lays_of_odd_hands_is_the_general_enumeration(hand: tuple[int, ...]) -> None:
    for ref in (*range(10), 10, -1):
        assert legal_lays.__wrapped__(hand, ref) == _legal_lays_any(hand, ref)


def test_cached_pending_equals_a_fresh_pending_at_every_step() -> None:
    steps = 0
    for seed in range(40):
        n = 2 + seed % 3
        rules = DareRules(rounds=3, tie=("carry", "split", "order")[seed % 3])
        seats = [SeatInfo(f"p{i}", "bot:random") for i in range(1, n + 1)]
        match = Match(GAME, make_header(GAME, rules, seats, seed))
        bots = {i: make("dare", "random", Rng(seed, f"bot/{i}")) for i in range(1, n + 1)}
        while True:
            assert GAME.pending(match.state) == GAME._new_pending(match.state)
            steps += 1
            if match.advance().kind == "over":
                break
            assert GAME.pending(match.state) == GAME._new_pending(match.state)
            ev = GAME.bot_event(match, bots)
            assert ev is not None
            match.submit(ev)
        assert walk(GAME, match.header, match.events)[1] is None
    assert steps > 40


def test_cached_house_rules_tell_true_from_one_and_still_refuse_bad_values() -> None:
    assert _header_rules(GAME, {"rounds": 3}) == DareRules(rounds=3)
    assert _header_rules(GAME, {"rounds": 3}) is _header_rules(GAME, {"rounds": 3})
    with pytest.raises(KabuError, match="rounds"):
        _header_rules(GAME, {"rounds": True})  # equal to 1 and hashed alike, yet not an int
    with pytest.raises(KabuError, match="rounds"):
        _header_rules(GAME, {"rounds": 0})
    with pytest.raises(KabuError, match="rounds"):
        _header_rules(GAME, {"rounds": 0})  # refused again: errors are not cached
    with pytest.raises(KabuError):
        _header_rules(GAME, {"rounds": [3]})  # cannot be hashed: validated, and refused
    assert msgspec.structs.asdict(_header_rules(GAME, {}))["rounds"] == 10
