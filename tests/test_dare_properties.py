"""Dare invariants over many seeded bot matches: every match ends, no exception, chips are
conserved after every event, every log walks clean, and a seed always gives the same match."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from matchtools import bot_match, typed_at_table

from kabucli.engine import Match, make_header, walk
from kabucli.events import End, Event, Pay
from kabucli.games.dare.rules import GAME, DareRules, Deal, Lay, Result, Show
from kabucli.log import SeatInfo
from kabucli.shuffle import Rng

SEEDS = range(300)


def setup_for(seed: int) -> tuple[int, DareRules, dict[int, str]]:
    """Players, house rules and bot kinds of match ``seed``, all drawn from the seed."""
    rng = Rng(seed, "test/setup")
    n = 2 + rng.below(3)
    rules = DareRules(
        ante=rng.below(4),
        yaku=rng.choice(["none", "arashi", "extended"]),
        tie=rng.choice(["carry", "split", "order"]),
        rounds=1 + rng.below(10),
        chips=rng.below(60),
    )
    kinds = {p: rng.choice(["random", "best"]) for p in range(1, n + 1)}
    return n, rules, kinds


def play_match(seed: int, check_each: bool = True) -> tuple[Match, list[Event]]:
    n, rules, kinds = setup_for(seed)
    match, bots = bot_match(GAME, rules, kinds, seed)
    total = n * rules.chips
    for _ in range(10_000):
        if match.over:
            break
        ev = match.expected()
        if ev is None:
            ev = GAME.bot_event(match, bots)
            assert ev is not None, f"seed {seed}: nobody can act at {match.pending}"
        match.submit(ev)
        if check_each:
            assert match.state.ledger.total() == total, f"seed {seed}: chips after {ev}"
    assert match.over, f"seed {seed}: the match did not end"
    return match, list(match.events)


@pytest.fixture(scope="module")
def played() -> dict[int, tuple[Match, list[Event]]]:
    return {seed: play_match(seed) for seed in SEEDS}


def test_every_match_ends_with_an_end_event_and_conserves_chips(
        played: dict[int, tuple[Match, list[Event]]]) -> None:
    for seed, (match, events) in played.items():
        n, rules, _ = setup_for(seed)
        end = events[-1]
        assert isinstance(end, End), seed
        assert sum(end.balances) + end.pot == n * rules.chips, seed
        assert match.state.round == rules.rounds, seed


def test_every_log_walks_clean(played: dict[int, tuple[Match, list[Event]]]) -> None:
    for match, events in played.values():
        replay, violation = walk(GAME, match.header, events)
        assert violation is None, violation
        assert GAME.view(replay.state) == GAME.view(match.state)


def test_same_seed_gives_the_same_events(played: dict[int, tuple[Match, list[Event]]]) -> None:
    for seed in SEEDS[:60]:
        _, again = play_match(seed, check_each=False)
        assert again == played[seed][1], seed


def test_matches_cover_every_way_a_round_ends(
        played: dict[int, tuple[Match, list[Event]]]) -> None:
    reasons = {r.reason for match, _ in played.values() for r in match.state.history}
    assert reasons == {"dare", "showdown", "tie", "split", "order", "nobody"}


def test_laid_sets_always_match_the_reference_and_showdowns_show_three_cards(
        played: dict[int, tuple[Match, list[Event]]]) -> None:
    for match, events in played.values():
        replay = Match(GAME, match.header)
        for ev in events:
            if isinstance(ev, Lay):
                assert len(ev.sets) <= 3
                assert all(sum(s) % 10 == replay.state.ref for s in ev.sets)
            if isinstance(ev, Show):
                assert ev.seat in replay.state.qualified and len(ev.cards) == 3
            replay.submit(ev)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_any_seed_plays_a_whole_match(seed: int) -> None:
    match, events = play_match(seed)
    assert walk(GAME, match.header, events)[1] is None


@settings(max_examples=200, deadline=None)
@given(sets=st.lists(st.lists(st.integers(1, 10), min_size=3, max_size=3), max_size=3),
       seat=st.integers(1, 4))
def test_notation_of_any_lay_parses_back(sets: list[list[int]], seat: int) -> None:
    state = GAME.new_state(DareRules(), 4, True)
    ev = Lay(seat, sorted(sorted(s) for s in sets))
    assert GAME.parse(state, GAME.notate(ev)) == ev


def test_every_seeded_match_typed_at_a_real_table_is_accepted_and_settles_the_same(
        played: dict[int, tuple[Match, list[Event]]]) -> None:
    # RULINGS (unknown cards): a real table's checks may refuse only what cannot happen, so a
    # match that did happen, typed as a referee would (each field, each player's sets, each
    # showdown hand, the hands face down), is accepted whole and settles every round the same
    for seed, (m, events) in played.items():
        n = m.nseats
        seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
        table = Match(GAME, make_header(GAME, m.state.rules, seats, None))
        table.advance()
        for ev in events:
            typed: Event | None = None
            if isinstance(ev, Deal):
                typed = Deal(ev.round, ev.dealer, ev.field)
            elif isinstance(ev, Lay | Show):
                typed = ev
            if typed is None:
                continue
            typed_at_table(table, typed, seed)
        assert table.over, seed
        settled = (Result, Pay, End)
        assert [e for e in table.events if isinstance(e, settled)] == \
            [e for e in events if isinstance(e, settled)], seed
