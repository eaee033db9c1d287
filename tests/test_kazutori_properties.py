"""Kazu-Tori invariants over many seeded bot games and random referee sessions: every game
ends, the 40 cards are accounted for after every event, chips are conserved, every log walks
clean (and survives both log encodings), and a seed always gives the same game."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from matchtools import bot_match, typed_at_table

from kabucli.engine import Match, make_header, walk
from kabucli.events import End, Event, Pay, Undo
from kabucli.games import event_types
from kabucli.games.kazu_tori.rules import (
    GAME,
    Claim,
    Deal,
    Flip,
    Handout,
    KazuToriRules,
    Penalty,
    Return,
    Score,
    Stop,
    pile_sizes,
)
from kabucli.log import SeatInfo, read_log, write_log
from kabucli.shuffle import Rng

SEEDS = range(300)


def setup_for(seed: int) -> tuple[int, KazuToriRules, dict[int, str]]:
    """Players, house rules and bot kinds of game ``seed``, all drawn from the seed."""
    rng = Rng(seed, "test/setup")
    n = 2 + rng.below(4)
    rules = KazuToriRules(
        limit=rng.choice([10, 15, 20]),
        tie=rng.choice(["split", "each", "none"]),
        max_flips=rng.choice([2000, 20 + rng.below(200)]),
        chips=rng.below(60),
    )
    kinds = {p: rng.choice(["random", "sharp"]) for p in range(1, n + 1)}
    return n, rules, kinds


def play_game(seed: int) -> Match:
    n, rules, kinds = setup_for(seed)
    m, bots = bot_match(GAME, rules, kinds, seed)
    total = n * rules.chips
    for _ in range(100_000):
        if m.over:
            break
        ev = m.expected() or GAME.bot_event(m, bots)
        assert ev is not None, f"seed {seed}: nobody can act at {m.pending}"
        m.submit(ev)
        assert m.state.accounted() == 40, f"seed {seed}: cards after {GAME.notate(ev)}"
        assert m.state.ledger.total() == total, f"seed {seed}: chips after {GAME.notate(ev)}"
    assert m.over, f"seed {seed}: the game did not end"
    return m


@pytest.fixture(scope="module")
def played() -> dict[int, Match]:
    return {seed: play_game(seed) for seed in SEEDS}


def test_every_game_ends_with_a_score_and_an_end_that_conserves_chips(
        played: dict[int, Match]) -> None:
    reasons = set()
    for seed, m in played.items():
        n, rules, _ = setup_for(seed)
        end, score = m.events[-1], next(e for e in m.events if isinstance(e, Score))
        assert isinstance(end, End), seed
        assert sum(end.balances) + end.pot == n * rules.chips, seed
        assert m.state.flips <= rules.max_flips, seed
        reasons.add(score.reason)
    assert reasons >= {"take", "oni", "max_flips"}


def test_every_log_walks_clean_to_the_same_state(played: dict[int, Match]) -> None:
    for seed, m in played.items():
        replay, violation = walk(GAME, m.header, m.events)
        assert violation is None, (seed, violation)
        assert GAME.view(replay.state) == GAME.view(m.state)
        assert GAME.outcome(replay.state) == GAME.outcome(m.state)


def test_the_same_seed_gives_the_same_events(played: dict[int, Match]) -> None:
    for seed in SEEDS[:40]:
        assert play_game(seed).events == played[seed].events


def test_every_event_survives_both_log_encodings(played: dict[int, Match],
                                                  tmp_path: Path) -> None:
    for seed in SEEDS[:30]:
        m = played[seed]
        for suffix, fmt in ((".kbl", "msgpack"), (".jsonl", "jsonl")):
            path = tmp_path / f"{seed}{suffix}"
            write_log(path, m.header, m.events, fmt)  # type: ignore[arg-type]
            data = read_log(path, event_types)
            assert data.events == m.events


def test_the_notation_of_every_event_parses_back_to_it(played: dict[int, Match]) -> None:
    kinds = set()
    for seed in SEEDS[:60]:
        m = played[seed]
        replay = Match(GAME, m.header)
        for ev in m.events:
            assert GAME.parse(replay.state, GAME.notate(ev)) == ev, GAME.notate(ev)
            kinds.add(type(ev).__name__)
            replay.submit(ev)
    assert kinds >= {"Deal", "Shuffle", "Flip", "Claim", "Race", "Penalty", "Handout",
                     "Return", "Score", "Pay", "End"}
    assert GAME.parse(replay.state, "undo") == Undo() and GAME.notate(Undo()) == "undo"


# -- a referee at a real table, typing whatever is legal ---------------------------------------

@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 5), limit=st.sampled_from([10, 15, 20]),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=400))
def test_a_referee_session_keeps_the_cards_and_chips_whatever_is_typed(
        n: int, limit: int, picks: list[int]) -> None:
    seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
    m = Match(GAME, make_header(GAME, KazuToriRules(limit=limit), seats, None))
    m.advance()
    m.submit(Deal(pile_sizes(n)))
    for pick in picks:
        m.advance()
        if m.over:
            break
        p = m.pending
        assert p.kind == "action"
        moves: list[Event] = [e for seat in p.seats for e in GAME.legal(m.state, seat)
                              if not isinstance(e, Stop) or pick % 97 == 0]
        assert moves, GAME.view(m.state)
        ev = moves[pick % len(moves)]
        assert m.why_not(ev) is None, (GAME.notate(ev), m.why_not(ev))
        assert GAME.parse(m.state, GAME.notate(ev)) == ev
        m.submit(ev)
        assert m.state.accounted() == 40
        assert m.state.ledger.total() == 50 * n
    replay, violation = walk(GAME, m.header, m.events)
    assert violation is None
    assert [GAME.parse(replay.state, GAME.notate(e)) for e in m.events] == m.events




# -- a seeded game retyped at a real table -------------------------------------------------------

def test_every_seeded_game_typed_card_by_card_at_a_real_table_is_accepted_and_settles_the_same(
        played: dict[int, Match]) -> None:
    # RULINGS (unknown cards): a real table's checks may refuse only what cannot happen, so a
    # game that did happen, typed as a referee would (the deal's sizes, each card as it is
    # turned, each claim), is accepted whole and derives the same penalties, hand-outs,
    # returns, score and payments. (Where a seed stopped a game at max_flips, a real table
    # refuses that flip instead: the two are compared up to it.)
    derived = (Penalty, Handout, Return, Score, Pay, End)
    capped = 0
    for seed, m in played.items():
        n = m.nseats
        seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
        table = Match(GAME, make_header(GAME, m.state.rules, seats, None))
        table.advance()
        table.submit(Deal(pile_sizes(n)))
        table.advance()
        flips = 0
        want = [e for e in m.events if isinstance(e, derived)]
        for i, ev in enumerate(m.events):
            typed: Event | None = None
            if isinstance(ev, Flip):
                flips += 1
                turned = GAME.turned_by(m.state, flips)
                if turned is None:  # max_flips
                    assert "max_flips" in (table.why_not(Flip(ev.seat, 2)) or ""), seed
                    want = [e for e in m.events[:i] if isinstance(e, derived)]
                    capped += 1
                    break
                typed = Flip(ev.seat, turned[1])
            elif isinstance(ev, Claim | Stop):
                typed = ev
            if typed is None:
                continue
            typed_at_table(table, typed, seed)
        got = [e for e in table.events if isinstance(e, derived)]
        assert got == want, seed
    assert 0 < capped < len(played)  # both kinds of game were compared
