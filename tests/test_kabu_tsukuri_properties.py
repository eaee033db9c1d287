"""Kabu-Tsukuri invariants over many seeded bot matches and random physical tables: every
hand ends, the 48 cards are accounted for in every deal, chips are conserved after every
event, every event's notation parses back to the same event, every log walks clean (also
after a trip through both encodings), a seed always gives the same match, and the bots' moves
are legal. The solver's own property (never worse than a sample) is in
test_kabu_tsukuri_solver.py."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st
from matchtools import bot_header, bot_match

from kabucli.engine import Match, make_header, walk
from kabucli.games.kabu_tsukuri.rules import GAME, Deal, KabuRules, Result, hand_size
from kabucli.log import SeatInfo, read_log, write_log
from kabucli.shuffle import Rng

SEEDS = range(120)


def setup_for(seed: int) -> tuple[int, KabuRules, dict[int, str]]:
    """Players, house rules and bot kinds of match ``seed``, all drawn from the seed."""
    rng = Rng(seed, "test/setup")
    n = 2 + rng.below(4)
    rules = KabuRules(ranking=rng.choice(["extended", "kabu"]),
                      dealer=rng.choice(["rotate", "winner"]),
                      bet=rng.below(4), chips=rng.below(60), hands=1 + rng.below(4))
    kinds = {p: "best" if rng.below(4) == 0 else "random" for p in range(1, n + 1)}
    return n, rules, kinds


def play_match(seed: int) -> Match:
    n, rules, kinds = setup_for(seed)
    match, bots = bot_match(GAME, rules, kinds, seed)
    match.check_trusted = []  # every trusted bot move is checked in full too
    total = n * rules.chips
    for _ in range(10_000):
        if match.over:
            break
        ev = match.expected()
        if ev is None:
            move = GAME.bot_move(match, bots)
            assert move is not None, f"seed {seed}: nobody can act at {match.pending}"
            ev, trusted = move
            assert trusted
            assert GAME.parse(match.state, GAME.notate(ev)) == ev, GAME.notate(ev)
            match.accept_trusted(ev)  # checked in full first: check_trusted is a list
        else:
            assert GAME.parse(match.state, GAME.notate(ev)) == ev, GAME.notate(ev)
            match.submit(ev)
        assert match.state.ledger.total() == total, f"seed {seed}: chips after {ev}"
    assert match.over, f"seed {seed}: the match did not end"
    return match


@pytest.fixture(scope="module")
def played() -> dict[int, Match]:
    return {seed: play_match(seed) for seed in SEEDS}


def test_every_hand_ends_and_every_match_plays_its_hands(played: dict[int, Match]) -> None:
    for seed, m in played.items():
        _, rules, _ = setup_for(seed)
        res = [e for e in m.events if isinstance(e, Result)]
        assert [(r.hand, r.row) for r in res] == [(h, r) for h in range(1, rules.hands + 1)
                                                  for r in (1, 2, 3)], seed


def test_every_deal_accounts_for_the_48_cards(played: dict[int, Match]) -> None:
    for seed, m in played.items():
        n = m.nseats
        for deal in (e for e in m.events if isinstance(e, Deal)):
            assert deal.hands is not None and deal.rest is not None
            assert [len(h) for h in deal.hands] == [hand_size(n)] * n
            cards = Counter(deal.rest + [c for h in deal.hands for c in h])
            assert cards == dict.fromkeys(range(1, 13), 4), seed


def test_every_pot_is_taken_or_carried_whole(played: dict[int, Match]) -> None:
    for m in played.values():
        for r in (e for e in m.events if isinstance(e, Result)):
            assert r.best and r.amount >= 0


def test_every_log_walks_clean_in_both_encodings(played: dict[int, Match],
                                                 tmp_path: Path) -> None:
    for seed, m in list(played.items())[:40]:
        for suffix, fmt in ((".kbl", "msgpack"), (".jsonl", "jsonl")):
            path = tmp_path / f"{seed}{suffix}"
            write_log(path, m.header, m.events, fmt)
            data = read_log(path, lambda _: GAME.events)
            match, violation = walk(GAME, data.header, data.events)
            assert violation is None, (seed, violation)
            assert match.over


def test_a_seed_always_gives_the_same_match(played: dict[int, Match]) -> None:
    for seed in (3, 17, 58):
        again = play_match(seed)
        assert again.events == played[seed].events
        assert again.header.rules == played[seed].header.rules
        assert bot_header(GAME, *setup_for(seed)[1:], seed).seats == played[seed].header.seats


def test_every_trusted_bot_move_is_legal(played: dict[int, Match]) -> None:
    checked = sum(len(m.check_trusted or []) for m in played.values())
    assert checked > 0


# -- random physical tables -----------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 5), hands=st.integers(1, 3),
       ranking=st.sampled_from(["extended", "kabu"]), dealer=st.sampled_from(["rotate",
                                                                            "winner"]))
def test_a_physical_table_with_random_rows_ends_with_chips_conserved(
        seed: int, n: int, hands: int, ranking: Any, dealer: Any) -> None:
    """A referee types the deal, every bet and every row (the rows of a random deal, in a
    random order); the match ends after its hands and audits clean."""
    rules = KabuRules(ranking=ranking, dealer=dealer, hands=hands, bet=2, chips=10)
    seats = [SeatInfo(f"P{i}", "human") for i in range(1, n + 1)]
    m = Match(GAME, make_header(GAME, rules, seats, None))
    rng = Rng(seed, "physical")
    cards: dict[int, list[int]] = {}
    while (p := m.advance()).kind != "over":
        s: Any = m.state
        if s.phase == "deal":
            deck = rng.shuffled([c for c in range(1, 13) for _ in range(4)])
            k = hand_size(n)
            cards = {i: deck[(i - 1) * k:(i - 1) * k + 9] for i in range(1, n + 1)}
            m.submit(GAME.parse(s, "deal"))
        elif p.kind == "action":
            m.submit(GAME.parse(s, "bet"))
        else:
            seat, r = s.actor, s.row - 1
            row = cards[seat][3 * r:3 * r + 3]
            m.submit(GAME.parse(s, "show " + "-".join(map(str, row))))
        assert m.state.ledger.total() == n * 10
    assert walk(GAME, m.header, m.events)[1] is None
    assert len([e for e in m.events if isinstance(e, Result)]) == 3 * hands
