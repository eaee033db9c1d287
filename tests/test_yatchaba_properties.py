"""Yatchaba invariants over many seeded bot matches: every match ends, chips are conserved
after every event, every log walks clean (also after a trip through both log encodings),
every event's notation parses back to the same event, a seed always gives the same match,
and a tampered copy of a log is refused at the event that was changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from matchtools import bot_header, bot_match, typed_at_table

from kabucli.engine import Match, make_header, walk
from kabucli.events import End, Event, Pay
from kabucli.games.yatchaba.rules import (
    GAME,
    Bet,
    Continue,
    Deal,
    GameEnd,
    Guess,
    Pass,
    Result,
    Reveal,
    Stop,
    YatchabaRules,
)
from kabucli.log import SeatInfo, read_log, write_log
from kabucli.shuffle import Rng

SEEDS = range(250)


def setup_for(seed: int) -> tuple[int, YatchabaRules, dict[int, str]]:
    """Players, house rules and bot kinds of match ``seed``, all drawn from the seed."""
    rng = Rng(seed, "test/setup")
    n = 2 + rng.below(7)
    rules = YatchabaRules(
        amounts=rng.choice(["count", "book"]),
        pass_limit=rng.below(4),
        games=rng.below(4),
        chips=rng.below(120),
    )
    kinds = {p: rng.choice(["random", "smart"]) for p in range(1, n + 1)}
    return n, rules, kinds


def header_for(seed: int) -> Any:
    _, rules, kinds = setup_for(seed)
    return bot_header(GAME, rules, kinds, seed)


def play_match(seed: int) -> Match:
    n, rules, kinds = setup_for(seed)
    match, bots = bot_match(GAME, rules, kinds, seed)
    total = n * rules.chips
    for _ in range(100_000):
        if match.over:
            break
        ev = match.expected()
        if ev is None:
            ev = GAME.bot_event(match, bots)
            assert ev is not None, f"seed {seed}: nobody can act at {match.pending}"
            assert ev in GAME.legal(match.state, match.pending.seats[0])
        assert GAME.parse(match.state, GAME.notate(ev)) == ev, GAME.notate(ev)
        match.submit(ev)
        assert match.state.ledger.total() == total, f"seed {seed}: chips after {ev}"
    assert match.over, f"seed {seed}: the match did not end"
    return match


@pytest.fixture(scope="module")
def played() -> dict[int, Match]:
    return {seed: play_match(seed) for seed in SEEDS}


def test_every_seeded_bot_match_ends_with_chips_conserved(played: dict[int, Match]) -> None:
    for seed, m in played.items():
        n, rules, _ = setup_for(seed)
        end = m.events[-1]
        assert isinstance(end, End)
        assert sum(end.balances) + end.pot == n * rules.chips
        assert len([e for e in m.events if isinstance(e, GameEnd)]) == (rules.games or n)


def test_every_log_walks_clean(played: dict[int, Match]) -> None:
    for seed, m in played.items():
        replayed, violation = walk(GAME, header_for(seed), m.events)
        assert violation is None, f"seed {seed}: {violation}"
        assert replayed.over and GAME.outcome(replayed.state) == GAME.outcome(m.state)


def test_a_seed_always_gives_the_same_match(played: dict[int, Match]) -> None:
    for seed in (0, 17, 101):
        assert play_match(seed).events == played[seed].events


def test_every_game_has_at_most_one_winner_and_rounds_follow_the_rules(
        played: dict[int, Match]) -> None:
    for seed, m in played.items():
        n, _, _ = setup_for(seed)
        for h in m.state.history:
            assert 1 <= h["rounds"] <= n
        laid: list[int] = []
        for ev in m.events:
            if isinstance(ev, Deal):
                assert ev.cards is not None and not set(ev.cards) & set(laid)
                laid += ev.cards
            elif isinstance(ev, GameEnd):
                laid = []


def test_logs_survive_both_encodings(played: dict[int, Match], tmp_path: Path) -> None:
    for seed in list(SEEDS)[:20]:
        m = played[seed]
        for suffix, fmt in ((".kbl", "msgpack"), (".jsonl", "jsonl")):
            path = tmp_path / f"y{seed}{suffix}"
            write_log(path, header_for(seed), m.events, fmt)  # type: ignore[arg-type]
            data = read_log(path, lambda _name: GAME.events)
            assert data.events == m.events
            _, violation = walk(GAME, data.header, data.events)
            assert violation is None


# -- tampered copies ---------------------------------------------------------------------

def _first(events: list[Event], kind: type[Event], when: Any = None) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, kind) and (
        when is None or when(e)))


def _tampered(events: list[Event], index: int, new: Event | None) -> list[Event]:
    out = list(events)
    if new is None:
        del out[index]
    else:
        out[index] = new
    return out


def _cases(events: list[Event]) -> list[tuple[str, int, Event | None, str]]:
    """(what, index, replacement or None to drop, words the refusal must contain)."""
    bet = _first(events, Bet, lambda e: e.amount > 1)
    b: Bet = events[bet]  # type: ignore[assignment]
    deal = _first(events, Deal)
    d: Deal = events[deal]  # type: ignore[assignment]
    assert d.cards is not None
    other = next(c for c in range(48) if c not in d.cards)
    reveal = _first(events, Reveal)
    result = _first(events, Result)
    r: Result = events[result]  # type: ignore[assignment]
    guess = _first(events, Guess)
    g: Guess = events[guess]  # type: ignore[assignment]
    end = len(events) - 1
    e: End = events[end]  # type: ignore[assignment]
    gameend = _first(events, GameEnd)
    ge: GameEnd = events[gameend]  # type: ignore[assignment]
    cases = [
        ("a bet of a wrong amount", bet, Bet(b.seat, b.amount + 1), "next amount"),
        # another seat, or one the table does not have: either reason names it
        ("a bet by the wrong seat", bet, Bet(b.seat % 8 + 1, b.amount), f"p{b.seat % 8 + 1}"),
        ("a pass by the guesser", guess + 1, Pass(g.seat), "cannot pass"),
        ("other laid cards", deal, Deal(d.game, d.round, d.guesser,
                                        sorted([other, *d.cards[1:]])), "the seed deals"),
        ("a guess by another seat", guess, Guess(g.seat % 2 + 1, g.months), "turn"),
        ("other revealed cards", reveal, Reveal([12, 12, 12], [44, 45, 46]), "the seed deals"),
        ("a flipped result", result, msgspec.structs.replace(r, right=not r.right),
         "the engine computes"),
        ("another carried pot", gameend, msgspec.structs.replace(ge, carry=ge.carry + 1),
         "the engine computes"),
        ("other final balances", end, End(e.reason, [x + 1 for x in e.balances], e.pot - 1),
         "the engine computes"),
        ("a dropped bet", bet, None, ""),
        ("a stop before the lap ends", guess + 1, Stop(g.seat), "waiting for"),
    ]
    pays = [i for i, ev in enumerate(events) if isinstance(ev, Pay)]
    if pays:
        p: Pay = events[pays[0]]  # type: ignore[assignment]
        cases.append(("a payment of another amount", pays[0],
                      Pay(p.src, p.dst, p.amount + 1, p.why), "the engine computes"))
    conts = [i for i, ev in enumerate(events) if isinstance(ev, Continue)]
    if conts:
        c: Continue = events[conts[0]]  # type: ignore[assignment]
        cases.append(("a continue by another seat", conts[0], Continue(c.seat % 8 + 1),
                      f"p{c.seat % 8 + 1}"))
    return cases


@pytest.mark.parametrize("seed", [2, 5, 11, 23, 42, 77])
def test_a_tampered_log_is_refused_at_the_changed_event(played: dict[int, Match],
                                                          seed: int) -> None:
    events = list(played[seed].events)
    header = header_for(seed)
    for what, index, new, words in _cases(events):
        if new is not None and new == events[index]:
            continue  # the change happens to give the same event (e.g. seat 1 of 1)
        _, violation = walk(GAME, header, _tampered(events, index, new))
        assert violation is not None, f"seed {seed}: {what} was not noticed"
        assert violation.index == index + 1, f"seed {seed}: {what}: {violation}"
        assert words in violation.reason, f"seed {seed}: {what}: {violation.reason}"


def test_every_seeded_match_typed_at_a_real_table_is_accepted_and_settles_the_same(
        played: dict[int, Match]) -> None:
    # RULINGS (unknown cards): a real table's checks may refuse only what cannot happen, so a
    # match that did happen, typed as a referee would (cards laid face down unseen, every
    # guess, bet, pass and decision, the cards turned over by month or by name), is accepted
    # whole and settles every round and game the same
    for seed, m in played.items():
        n = m.nseats
        seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
        table = Match(GAME, make_header(GAME, m.state.rules, seats, None))
        table.advance()
        for ev in m.events:
            typed: Event | None = None
            if isinstance(ev, Deal):
                typed = Deal(ev.game, ev.round, ev.guesser)
            elif isinstance(ev, Reveal):
                typed = Reveal(ev.months, ev.cards if seed % 2 else None)
            elif isinstance(ev, Guess | Bet | Pass | Continue | Stop):
                typed = ev
            if typed is None:
                continue
            typed_at_table(table, typed, seed)
        assert table.over, seed
        settled = (Result, Pay, GameEnd, End)
        assert [e for e in table.events if isinstance(e, settled)] == \
            [e for e in m.events if isinstance(e, settled)], seed
