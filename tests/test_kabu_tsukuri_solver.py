"""The Kabu-Tsukuri solver: its model computed the slow way agrees with the fast one, its
choice is never worse than any other arrangement, it covers every arrangement, and it is fast.

The slow way draws every opposing row card by card from the unseen cards, folds the other
players in one at a time (the strongest row and how many share it), and values an
arrangement by walking the 27 ways its three rounds can go (won, carried, lost) with the pot
each one carries."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations, permutations, product

import pytest
from hypothesis import given, settings, strategies as st

from kabucli.games.kabu_tsukuri.solver import (
    LEVELS,
    Model,
    arrangement_value,
    row_strength,
    solve,
    unseen,
)
from kabucli.shuffle import Rng

DECK = [m for m in range(1, 13) for _ in range(4)]


# -- the slow way ------------------------------------------------------------------------------

def slow_distribution(hand: list[int], ranking: str) -> list[float]:
    """The strength of a row of three unseen cards drawn one by one, each order counted."""
    left = Counter(DECK)
    left.subtract(hand)
    cards = [m for m, k in left.items() for _ in range(k)]
    counts = [0] * LEVELS
    for i, a in enumerate(cards):
        for j, b in enumerate(cards):
            if j == i:
                continue
            for k, c in enumerate(cards):
                if k not in (i, j):
                    counts[row_strength(a, b, c, ranking)] += 1
    total = sum(counts)
    return [x / total for x in counts]


def slow_odds(dist: list[float], others: int) -> tuple[list[float], list[float]]:
    """Win and tie chances of each strength, folding the other rows in one at a time."""
    top: dict[tuple[int, int], float] = {(-1, 0): 1.0}  # (strongest so far, how many) -> p
    for _ in range(others):
        nxt: dict[tuple[int, int], float] = {}
        for (best, n), p in top.items():
            for level, q in enumerate(dist):
                if q == 0:
                    continue
                key = (level, 1) if level > best else (best, n + 1) if level == best else (best, n)
                nxt[key] = nxt.get(key, 0.0) + p * q
        top = nxt
    win = [sum(p for (b, _), p in top.items() if b < s) for s in range(LEVELS)]
    tie = [sum(p for (b, n), p in top.items() if b == s or (b > s and n >= 2))
           for s in range(LEVELS)]
    return win, tie


def slow_value(hand: list[int], rows: list[tuple[int, ...]], players: int, ranking: str,
               bet: int = 1, carried: int = 0) -> float:
    """The expected chips of ``rows`` over the 27 ways the rounds can go."""
    win, tie = slow_odds(slow_distribution(hand, ranking), players - 1)
    levels = [row_strength(*r, ranking) for r in rows]
    total = 0.0
    for ways in range(27):
        p, pot, gain = 1.0, carried, -3 * bet
        for r in range(3):
            outcome = ways // 3 ** r % 3
            s = levels[r]
            pot += players * bet
            if outcome == 0:
                p *= win[s]
                gain += pot
                pot = 0
            elif outcome == 1:
                p *= tie[s]
            else:
                p *= 1 - win[s] - tie[s]
                pot = 0
        total += p * gain
    return total


# -- the model ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "ranking"), [(2, "extended"), (4, "extended"),
                                                  (5, "kabu")])
def test_the_model_agrees_with_the_slow_way(players: int, ranking: str) -> None:
    hand = [1, 1, 3, 4, 5, 7, 9, 10, 10, 12][: 9 if players == 5 else 10]
    model = Model(hand, players, ranking)
    win, tie = slow_odds(slow_distribution(hand, ranking), players - 1)
    assert model.win == pytest.approx(win, abs=1e-12)
    assert model.tie == pytest.approx(tie, abs=1e-12)


@pytest.mark.parametrize(("hand", "players", "ranking"), [
    ([1, 1, 1, 2, 2, 2, 3, 3, 3, 12], 4, "extended"),  # one 1, 2 and 3 left: one way to draw
    ([5, 5, 5, 6, 6, 6, 7, 7, 7], 5, "extended"),
    ([4, 4, 4, 4, 8, 8, 8, 9, 9, 9], 3, "kabu"),  # no 4 left at all
])
def test_the_model_agrees_with_the_slow_way_when_months_are_nearly_all_held(
        hand: list[int], players: int, ranking: str) -> None:
    """Months with one card (or none) left unseen: rows of three such months can be drawn in
    exactly one way (their laid orders aside), and still count."""
    model = Model(hand, players, ranking)
    win, tie = slow_odds(slow_distribution(hand, ranking), players - 1)
    assert model.win == pytest.approx(win, abs=1e-12)
    assert model.tie == pytest.approx(tie, abs=1e-12)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_win_and_tie_chance_is_a_chance(players: int) -> None:
    """w and t of every strength are between 0 and 1, and so is w + t, on hands dealt at
    random; never below 0 even by rounding (`solve --json` would print -0.0). (Above 1 by
    rounding they can be: a sure win sums the weaker strengths' chances, 1.0000000000000007.)"""
    for seed in range(12):
        hand = Rng(seed, "solver-chances").shuffled(DECK)[: 9 if players == 5 else 10]
        for ranking in ("extended", "kabu"):
            model = Model(hand, players, ranking)
            for w, t in zip(model.win, model.tie, strict=True):
                assert 0.0 <= w <= 1.0 + 1e-12 and 0.0 <= t <= 1.0 + 1e-12
                assert w + t <= 1.0 + 1e-12


def test_the_unseen_cards_are_the_deck_less_the_players_own_hand() -> None:
    left = unseen([1, 1, 12, 12, 12, 12, 5, 6, 7, 8])
    assert left[1] == 2 and left[12] == 0 and left[5] == 3 and left[9] == 4
    assert sum(left) == 38


def test_a_row_that_cannot_lose_wins_with_certainty() -> None:
    hand = [1, 10, 10, 10, 10, 3, 3, 3, 3, 2]  # every 10 in hand: no other Doshippin
    model = Model(hand, 4, "extended")
    s = row_strength(1, 10, 10, "extended")
    assert model.win[s] == pytest.approx(1.0)
    assert model.tie[s] == pytest.approx(0.0)


# -- the search ---------------------------------------------------------------------------------

def random_arrangement(hand: list[int], rng: Rng) -> list[tuple[int, ...]]:
    cards = rng.shuffled(hand)
    return [tuple(cards[i:i + 3]) for i in (0, 3, 6)]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5),
       ranking=st.sampled_from(["extended", "kabu"]), carried=st.integers(0, 6))
def test_the_solvers_best_is_never_worse_than_a_random_sample(
        seed: int, players: int, ranking: str, carried: int) -> None:
    rng = Rng(seed, "solver-test")
    hand = rng.shuffled(DECK)[: 9 if players == 5 else 10]
    best = solve(hand, players, ranking, 1, carried)[0]
    assert Counter([c for r in best.rows for c in r] + list(best.aside)) == Counter(hand)
    model = Model(hand, players, ranking, 1, carried)
    assert arrangement_value(model, best.rows) == pytest.approx(best.ev)
    assert slow_value(hand, list(best.rows), players, ranking, 1, carried) == pytest.approx(
        best.ev)
    for _ in range(200):
        rows = random_arrangement(hand, rng)
        assert arrangement_value(model, rows) <= best.ev + 1e-9
    for rows in [random_arrangement(hand, rng) for _ in range(3)]:  # and the slow way
        assert slow_value(hand, rows, players, ranking, 1, carried) <= best.ev + 1e-9


@pytest.mark.parametrize("hand", [
    [1, 1, 1, 1, 2, 2, 2, 2, 3, 3],
    [3, 3, 3, 4, 4, 4, 5, 5, 5, 6],
    [10, 10, 11, 11, 12, 12, 1, 1, 9, 9],
])
def test_the_solver_covers_every_arrangement(hand: list[int]) -> None:
    """Every distinct laid order of the hand (set-aside card last), valued one by one."""
    model = Model(hand, 3, "extended")
    best = max(arrangement_value(model, [seq[0:3], seq[3:6], seq[6:9]])
               for seq in set(permutations(hand)))
    assert solve(hand, 3, "extended")[0].ev == pytest.approx(best)


@pytest.mark.parametrize(("hand", "players", "ranking", "carried"), [
    ([4, 5, 6, 6, 7, 8, 9, 9, 10], 5, "extended", 0),  # nine cards: nothing set aside
    ([1, 2, 3, 3, 5, 7, 7, 9, 10], 5, "kabu", 3),
    ([2, 3, 4, 5, 6, 7, 11, 12, 12, 1], 2, "kabu", 0),
])
def test_the_solver_covers_every_arrangement_of_nine_and_both_rankings(
        hand: list[int], players: int, ranking: str, carried: int) -> None:
    model = Model(hand, players, ranking, 1, carried)
    values = sorted({arrangement_value(model, [seq[0:3], seq[3:6], seq[6:9]])
                     for seq in set(permutations(hand))}, reverse=True)
    plans = solve(hand, players, ranking, 1, carried, top=4)
    assert plans[0].ev == pytest.approx(values[0])
    # the list: best first, each an arrangement of the hand valued as the model says
    assert [p.ev for p in plans] == sorted((p.ev for p in plans), reverse=True)
    for plan in plans:
        assert Counter([c for r in plan.rows for c in r] + list(plan.aside)) == Counter(hand)
        assert arrangement_value(model, plan.rows) == pytest.approx(plan.ev)


def test_the_solver_lists_arrangements_best_first() -> None:
    plans = solve([1, 1, 3, 4, 5, 7, 9, 10, 10, 12], 4, top=5)
    assert len(plans) == 5
    assert [p.ev for p in plans] == sorted((p.ev for p in plans), reverse=True)
    assert len({(p.rows, p.aside) for p in plans}) == 5


def test_the_solver_takes_the_carried_pot_into_account() -> None:
    hand = [1, 1, 3, 4, 5, 7, 9, 10, 10, 12]
    assert solve(hand, 4, carried=8)[0].ev > solve(hand, 4)[0].ev


def test_the_solver_takes_under_50_ms_a_hand() -> None:
    rng = Rng(7, "solver-speed")
    hands = [rng.shuffled(DECK)[:10] for _ in range(20)]
    solve(hands[0], 4)  # the tables are made at import; this warms the caches
    times = []
    for hand in hands:
        start = time.perf_counter()
        solve(hand, 4)
        times.append(time.perf_counter() - start)
    assert sorted(times)[len(times) // 2] < 0.050


@pytest.mark.parametrize("hand", [[1, 1, 1, 1, 2, 2, 2, 2, 3, 3], [3, 3, 3, 5, 5, 5, 7, 7, 7, 12]])
def test_among_arrangements_of_equal_value_the_first_found_is_the_best_whatever_top(
        hand: list[int]) -> None:
    """solve(): among equal values, the first found in the search's order. These hands have
    equal-valued arrangements (two triples in either order as rows 1 and 2): the one best
    arrangement is the first of the list of the three best, not a later equal one."""
    one = solve(hand, 4, top=1)[0]
    three = solve(hand, 4, top=3)
    assert (one.rows, one.aside, one.ev) == (three[0].rows, three[0].aside, three[0].ev)
    assert three[1].ev == three[0].ev  # the tie the order settles


# -- against the rules as the docs state them -----------------------------------------------------

NAMED = {(1, 10, 10): 1, (3, 3, 3): 2, (3, 5, 7): 4, (1, 2, 3): 5, (4, 7, 9): 6, (3, 7, 10): 7}


def documented_strength(row: tuple[int, ...], ranking: str) -> tuple[int, int]:
    """docs/rules/kabu-tsukuri.md's table, as a key that sorts weakest first: (minus the
    table's rank, the ones digit where it decides, else 0)."""
    digit = sum(row) % 10
    if ranking == "kabu":
        return (0, digit)
    rank = NAMED.get(tuple(sorted(row)))
    if rank is None and row[0] == row[1] == row[2]:
        rank = 3  # Arashi
    if rank is not None:
        return (-rank, 0)
    if row[1] == row[0] + 1 and row[2] == row[1] + 1:
        return (-8, digit)  # Nobori
    if row[1] == row[0] - 1 and row[2] == row[1] - 1:
        return (-9, digit)  # Kudari
    return (-10, digit)


@pytest.mark.parametrize("ranking", ["extended", "kabu"])
def test_the_solvers_row_strength_orders_rows_as_the_documented_table(ranking: str) -> None:
    """Every laid row (12**3): two rows tie in row_strength exactly when they tie by the
    docs' table, and the stronger by one is the stronger by the other."""
    keys: dict[int, set[tuple[int, int]]] = {}
    for row in product(range(1, 13), repeat=3):
        keys.setdefault(row_strength(*row, ranking), set()).add(documented_strength(row, ranking))
    assert all(len(k) == 1 for k in keys.values())
    by_level = [next(iter(keys[level])) for level in sorted(keys)]
    assert by_level == sorted(set(by_level))


def every_arrangement(hand: list[int], model: Model,
                      ranking: str) -> dict[tuple[object, ...], float]:
    """Every arrangement of the hand with row 3 laid in its strongest order (the docs: "row 3
    is always laid in its strongest order"), by months (each row's months and strength, the
    month set aside), with its value: every card set aside, every three for row 1, every
    three of the rest for row 2, every strength a row's laid orders reach."""
    def reach(cards: tuple[int, ...]) -> set[int]:
        return {row_strength(*order, ranking) for order in permutations(cards)}

    out: dict[tuple[object, ...], float] = {}
    asides = range(len(hand)) if len(hand) == 10 else [None]
    for a in asides:
        nine = [c for i, c in enumerate(hand) if i != a]
        for p1 in combinations(range(9), 3):
            rest = [i for i in range(9) if i not in p1]
            for p2 in combinations(rest, 3):
                r1 = tuple(sorted(nine[i] for i in p1))
                r2 = tuple(sorted(nine[i] for i in p2))
                r3 = tuple(sorted(nine[i] for i in rest if i not in p2))
                s3 = max(reach(r3))
                for s1 in reach(r1):
                    for s2 in reach(r2):
                        key = (r1, s1, r2, s2, r3, s3, () if a is None else (hand[a],))
                        out[key] = model.value([s1, s2, s3])
    return out


@pytest.mark.parametrize(("seed", "players", "ranking", "carried"), [
    (1, 4, "extended", 0), (2, 5, "extended", 2), (3, 3, "kabu", 0), (4, 2, "extended", 5),
    (5, 5, "kabu", 0), (6, 4, "extended", 3),
])
def test_the_solvers_top_list_is_the_best_arrangements_one_by_one(
        seed: int, players: int, ranking: str, carried: int) -> None:
    """solve(top=K) lists the K most valuable distinct arrangements, as every arrangement
    valued one by one says (a list long enough that the search trims what it keeps)."""
    hand = Rng(seed, "solver-brute").shuffled(DECK)[: 9 if players == 5 else 10]
    model = Model(hand, players, ranking, 1, carried)
    every = every_arrangement(hand, model, ranking)
    plans = solve(hand, players, ranking, 1, carried, top=25)
    assert [p.ev for p in plans] == pytest.approx(sorted(every.values(), reverse=True)[:25])
    seen = set()
    for p in plans:
        key = (tuple(sorted(p.rows[0])), p.levels[0], tuple(sorted(p.rows[1])), p.levels[1],
               tuple(sorted(p.rows[2])), p.levels[2], p.aside)
        assert key not in seen
        seen.add(key)
        assert every[key] == pytest.approx(p.ev)
        assert list(p.levels) == [row_strength(*r, ranking) for r in p.rows]
    assert solve(hand, players, ranking, 1, carried)[0].ev == pytest.approx(plans[0].ev)


@pytest.mark.parametrize("ranking", ["extended", "kabu"])
def test_the_solver_lays_each_row_in_the_first_order_by_months_that_reaches_its_strength(
        ranking: str) -> None:
    """What `kabucli solve` and the `best` bot show: of the laid orders that give a row its
    strength, the first by months (1-10-10, not 10-10-1; a run that is neither Nobori nor
    Kudari as 3-5-4), so the same arrangement always reads the same."""
    hand = [1, 10, 10, 3, 4, 5, 7, 8, 9, 12]
    for plan in solve(hand, 4, ranking, top=25):
        for row, level in zip(plan.rows, plan.levels, strict=True):
            orders = sorted(o for o in set(permutations(row))
                            if row_strength(*o, ranking) == level)
            assert row == orders[0]
