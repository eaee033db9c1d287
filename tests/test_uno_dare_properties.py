"""Uno Dare invariants over many seeded bot games: every game ends, the 108 cards are
accounted for after every event, the scores add up, every log walks clean (and survives both
log encodings), every event's notation parses back to it, a seed always gives the same game,
and the same game refereed at a real table (cards learnt only as shown) is accepted too."""

from __future__ import annotations

from pathlib import Path

import pytest
from matchtools import bot_match

from kabucli.cards import UNKNOWN
from kabucli.engine import Match, make_header, walk
from kabucli.events import End, Event
from kabucli.games import event_types
from kabucli.games.uno_dare.rules import (
    GAME,
    Deal,
    Draw,
    Keep,
    Penalty,
    Race,
    Reshuffle,
    Score,
    Show,
    UnoDareRules,
    UnoState,
)
from kabucli.log import read_log, write_log
from kabucli.shuffle import Rng

SEEDS = range(150)


def setup_for(seed: int) -> tuple[int, UnoDareRules, dict[int, str]]:
    """Players, house rules and bot kinds of game ``seed``, all drawn from the seed."""
    rng = Rng(seed, "test/setup")
    n = 2 + rng.below(9)
    rules = UnoDareRules(
        dares=rng.choice(["family", "daredevil", "show-off"]),
        dare_skips=rng.below(2) == 1,
        target=20 + rng.below(120),
        scoring=rng.choice(["winner", "lowest"]),
        max_turns=rng.choice([1000, 40 + rng.below(100)]),
    )
    kinds = {p: rng.choice(["random", "strong"]) for p in range(1, n + 1)}
    return n, rules, kinds


def play_game(seed: int) -> Match:
    """A seeded game between bots, every event checked, parsed back from its notation, and
    the cards counted after it."""
    _, rules, kinds = setup_for(seed)
    m, bots = bot_match(GAME, rules, kinds, seed)
    for _ in range(200_000):
        if m.over:
            break
        ev = m.expected()
        if ev is None:
            move = GAME.bot_move(m, bots)
            assert move is not None, f"seed {seed}: nobody can act at {m.pending}"
            ev = move[0]
        text = GAME.notate(ev)
        assert GAME.parse(m.state, text) == ev, f"seed {seed}: {text!r} parses differently"
        m.submit(ev)
        s: UnoState = m.state
        if s.phase != "deal":
            assert s.accounted() == 108, f"seed {seed}: cards after {text}"
    assert m.over, f"seed {seed}: the game did not end"
    return m


@pytest.fixture(scope="module")
def played() -> dict[int, Match]:
    return {seed: play_game(seed) for seed in SEEDS}


def test_every_game_ends_with_the_scores_the_rounds_add_up_to(played: dict[int, Match]) -> None:
    for seed, m in played.items():
        n, rules, _ = setup_for(seed)
        totals = [0] * n
        for ev in m.events:
            if type(ev) is Score and ev.winner:
                if rules.scoring == "winner":
                    totals[ev.winner - 1] += sum(ev.hands)
                else:
                    totals = [t + h for t, h in zip(totals, ev.hands, strict=True)]
        end = m.events[-1]
        assert type(end) is End and end.balances == totals, seed
        # the target reached; or three rounds in a row that scored nothing (out of turns,
        # or won against hands of zeros), the first such three
        scored = [bool(ev.winner and sum(ev.hands)) for ev in m.events if type(ev) is Score]
        stuck = [i for i in range(2, len(scored)) if not any(scored[i - 2:i + 1])]
        if end.reason == "target":
            assert max(totals) >= rules.target and not stuck, seed
        else:
            assert end.reason == "stuck" and max(totals) < rules.target, seed
            assert stuck == [len(scored) - 1], seed
        out = GAME.outcome(m.state)
        assert out is not None
        best = (min if rules.scoring == "lowest" else max)(totals)
        assert out["winners"] == [f"p{p}" for p in range(1, n + 1) if totals[p - 1] == best]


def test_the_games_show_every_kind_of_event(played: dict[int, Match]) -> None:
    kinds = {type(e).__name__ for m in played.values() for e in m.events}
    assert kinds >= {"Deal", "Play", "Draw", "Keep", "Name", "Answer", "Catch", "Race",
                     "Reshuffle", "Penalty", "Score", "End"}
    whys = {e.why for m in played.values() for e in m.events if type(e) is Penalty}
    assert whys == {"declined", "failed", "uno", "last"}


def test_every_log_walks_clean(played: dict[int, Match]) -> None:
    for seed, m in played.items():
        match, violation = walk(GAME, m.header, m.events)
        assert violation is None, (seed, violation)
        assert match.over and match.outcome() == m.outcome()


def test_a_seed_always_gives_the_same_game(played: dict[int, Match]) -> None:
    for seed in list(SEEDS)[:10]:
        assert play_game(seed).events == played[seed].events


@pytest.mark.parametrize("suffix", [".kbl", ".jsonl"])
def test_logs_survive_both_encodings(played: dict[int, Match], tmp_path: Path,
                                     suffix: str) -> None:
    for seed in list(SEEDS)[:20]:
        m = played[seed]
        path = tmp_path / f"g{seed}{suffix}"
        write_log(path, m.header, m.events, "jsonl" if suffix == ".jsonl" else "msgpack")
        data = read_log(path, event_types)
        assert data.events == m.events and data.header == m.header


def test_every_trusted_bot_move_is_legal() -> None:
    for seed in list(SEEDS)[:30]:
        _, rules, kinds = setup_for(seed)
        m, bots = bot_match(GAME, rules, kinds, seed)
        m.check_trusted = []
        while m.advance().kind != "over":
            move = GAME.bot_move(m, bots)
            assert move is not None and move[1]
            m.accept_trusted(move[0])
        assert m.check_trusted


def test_every_legal_move_is_allowed_and_nothing_else_of_a_seat(
        played: dict[int, Match]) -> None:
    """Along one game, each seat's legal moves all pass the check."""
    m0 = played[3]
    m = Match(GAME, m0.header)
    for ev in m0.events[:300]:
        p = m.pending
        if p.kind == "action":
            for seat in p.seats:
                for move in GAME.legal(m.state, seat):
                    assert m.why_not(move) is None, GAME.notate(move)
        m.submit(ev)


# -- the same games at a real table ------------------------------------------------------------

def refereed(seeded: Match) -> list[Event]:
    """What a referee types, and the engine derives, for the game ``seeded`` played at a real
    table: the card turned up instead of the deal, each card as it is played, draws of unknown
    cards (kept when the seeded turn passed at once), the reshuffles by size, the catches
    without races, and each hand shown at the end of a round."""
    header = seeded.header
    phys = Match(GAME, make_header(GAME, seeded.rules, header.seats, None))
    mirror = Match(GAME, header)
    out: list[Event] = []

    def put(ev: Event) -> None:
        reason = phys.why_not(ev)
        assert reason is None, f"{GAME.notate(ev)}: {reason}"
        phys.submit(ev)
        out.append(ev)
        while (auto := phys.expected()) is not None:
            phys.submit(auto)
            out.append(auto)

    keep = 0  # a seat whose draw ended the seeded turn: it keeps the card, after a reshuffle
    for ev in seeded.events:
        before: UnoState = mirror.state
        if keep and type(ev) is not Reshuffle:
            put(Keep(keep))
            keep = 0
        if type(ev) is Score and phys.pending.kind == "chance":
            for seat in range(1, mirror.nseats + 1):
                hand = before.hands[seat]
                if hand and UNKNOWN in phys.state.hands[seat]:
                    put(Show(seat, list(hand)))
        mirror.submit(ev)
        t = type(ev)
        if ev.KIND == "auto" or t is Race:
            continue
        if t is Deal:
            put(Deal(ev.round, ev.dealer, ev.up))
        elif t is Reshuffle:
            put(Reshuffle(ev.size))
        else:
            put(ev)
            if t is Draw and mirror.state.phase != "drawn" and phys.state.phase == "drawn":
                keep = ev.seat
    return out


def test_every_seeded_game_is_accepted_when_refereed_at_a_real_table(
        played: dict[int, Match]) -> None:
    for seed in list(SEEDS)[:60]:
        m = played[seed]
        events = refereed(m)
        phys = Match(GAME, make_header(GAME, m.rules, m.header.seats, None))
        match, violation = walk(GAME, phys.header, events)
        assert violation is None, (seed, violation)
        assert match.over and match.outcome() == m.outcome(), seed
