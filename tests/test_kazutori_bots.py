"""Kazu-Tori bots and races: ``sharp`` claims exactly the cards that may be taken, ``random``
claims at random and sometimes wrongly; when several bots claim one card a recorded seeded
``Race`` decides who was first; people at the prompt are asked before any bot."""

from __future__ import annotations

from typing import Any

import pytest

from kabucli.bots import make
from kabucli.cards import ONI
from kabucli.engine import Match, make_header, walk
from kabucli.errors import BotError
from kabucli.events import Event
from kabucli.games.kazu_tori.bots import reaction_ms
from kabucli.games.kazu_tori.rules import (
    GAME,
    RACE_DRAWS,
    Claim,
    Flip,
    KazuToriRules,
    KazuToriState,
    Pass,
    Penalty,
    Race,
    Shuffle,
)
from kabucli.log import SeatInfo
from kabucli.shuffle import Rng


def seated(kinds: list[str | None], seed: int | None = 7,
           **rules: Any) -> tuple[Match, dict[int, Any]]:
    """A match with a bot of each kind (None: a person) and its bots."""
    seats = [SeatInfo(f"P{i}", f"bot:{k}" if k else "human") for i, k in enumerate(kinds, 1)]
    m = Match(GAME, make_header(GAME, KazuToriRules(**rules), seats, seed))
    bots = {i: make("kazu-tori", k, Rng(seed or 0, f"bot/{i}"))
            for i, k in enumerate(kinds, 1) if k}
    return m, bots


def play_out(m: Match, bots: dict[int, Any]) -> None:
    while True:
        m.advance()
        if m.over:
            return
        ev = GAME.bot_event(m, bots)
        assert ev is not None, m.pending
        m.submit(ev)


def actions(m: Match) -> list[tuple[bool, Event]]:
    """Each action of a finished match, with whether the card on the table could be taken
    just before it (replayed from the log)."""
    replay = Match(GAME, m.header)
    out = []
    for ev in m.events:
        s = replay.state
        if ev.KIND == "action":
            out.append((s.phase == "window" and s.ok, ev))
        replay.submit(ev)
    return out


def test_sharp_bots_claim_every_card_that_may_be_taken_and_no_other() -> None:
    for seed in range(20):
        m, bots = seated(["sharp"] * 4, seed)
        play_out(m, bots)
        claims = 0
        for takeable, ev in actions(m):
            if isinstance(ev, Claim):
                claims += 1
                assert takeable, (seed, ev)
            elif isinstance(ev, Flip):
                assert not takeable, f"seed {seed}: a takeable card went unclaimed"
        assert claims and not any(isinstance(e, Penalty) for e in m.events)


def test_random_bots_claim_at_random_sometimes_wrongly() -> None:
    right = wrong = missed = 0
    for seed in range(30):
        m, bots = seated(["random"] * 4, seed)
        play_out(m, bots)
        for takeable, ev in actions(m):
            if isinstance(ev, Claim):
                right += takeable
                wrong += not takeable
            elif isinstance(ev, Flip) and takeable:
                missed += 1
    assert right and wrong and missed


def test_a_race_between_bots_is_a_recorded_chance_event_and_the_fastest_claims() -> None:
    races = 0
    kinds = ["sharp", "random", "sharp", "random"]
    for seed in range(20):
        m, bots = seated(list(kinds), seed)
        play_out(m, bots)
        replay = Match(GAME, m.header)
        for i, ev in enumerate(m.events):
            s = replay.state
            if isinstance(ev, Race):
                races += 1
                claim = m.events[i + 1]
                assert isinstance(claim, Claim)
                assert all(0 <= d < RACE_DRAWS if p in s.ins else d == -1
                           for p, d in enumerate(ev.draws, 1))

                key = {p: (reaction_ms(bots[p], ev.draws[p - 1]), (p - s.last - 1) % 4)
                       for p in s.ins}
                # every sharp bot in the window raced for a card that may be taken
                if s.ok:
                    rivals = [p for p in s.ins if kinds[p - 1] == "sharp" and p not in s.claimed]
                    assert all(key[claim.seat] <= key[p] for p in rivals), (seed, i)
            replay.submit(ev)
        assert walk(GAME, m.header, m.events)[1] is None
    assert races > 10


def test_a_race_goes_to_the_shortest_reaction_and_a_tie_to_the_first_seat_after_the_flipper(
        ) -> None:
    class Fixed:
        """A bot that claims every card, with a fixed reaction time."""

        def __init__(self, ms: int) -> None:
            self.reaction = (ms, ms)

        def claims(self, s: KazuToriState, seat: int) -> bool:
            return True

        def choose(self, game: Any, state: Any, seat: int) -> Event:
            return Flip(seat)

    m, _ = seated(["sharp"] * 4, seed=3)
    m.advance()
    m.submit(Flip(1))
    m.advance()
    bots: dict[int, Any] = {1: Fixed(300), 2: Fixed(250), 3: Fixed(250), 4: Fixed(400)}
    assert GAME.bot_event(m, bots) == Claim(2)
    assert isinstance(m.events[-1], Race)
    m, _ = seated(["sharp"] * 4, seed=3)
    m.advance()
    m.submit(Flip(1))
    m.advance()
    same: dict[int, Any] = {p: Fixed(200) for p in (1, 3, 4)}
    same[2] = Fixed(900)
    assert GAME.bot_event(m, same) == Claim(3)  # p1 flipped: p3 comes before p4 and p1


def test_a_person_is_asked_first_and_a_typed_claim_beats_every_bot() -> None:
    for seed in range(100):  # a deal where p1's first card may be taken ("one": a 1 or the Oni)
        m, bots = seated([None, "sharp", "sharp", "sharp"], seed)
        m.advance()
        if m.state.piles[1][0] in (1, ONI):
            break
    assert GAME.bot_event(m, bots) is None  # p1 (a person) flips first
    m.submit(GAME.parse(m.state, "flip"))
    m.advance()
    assert m.state.takeable()
    assert GAME.bot_event(m, bots) is None  # the window is open: p1 is asked first
    start = len(m.events)
    m.submit(GAME.parse(m.state, "p1 claim"))
    m.advance()
    assert [type(e) for e in m.events[start:]] == [Claim, Shuffle]
    assert GAME.view(m.state)["next"] == "p1" and len(m.state.piles[1]) == 10


def test_when_the_person_passes_the_bots_react_or_the_next_flipper_flips() -> None:
    m, bots = seated([None, "sharp", "sharp", "sharp"], seed=11)
    for _ in range(60):
        m.advance()
        if m.over:
            break
        ev = GAME.bot_event(m, bots)
        if ev is not None:
            m.submit(ev)
            continue
        s = m.state
        if s.phase == "window" and 1 not in s.passed and 1 not in s.claimed:
            m.submit(Pass(1))
            ev = GAME.bot_event(m, bots)
            if s.ok:
                assert isinstance(ev, Claim) and ev.seat != 1
            elif s.next_flipper() != 1:
                assert ev == Flip(s.next_flipper())
            else:
                # the person flips next: the bots' letting the card go is recorded first,
                # one pass at a time, so they are not asked again while the person decides
                assert isinstance(ev, Pass) and ev.seat != 1
            if ev is not None:
                m.submit(ev)
        else:
            m.submit(Flip(1))  # p1's own flip
    assert any(isinstance(e, Pass) for e in m.events)
    assert walk(GAME, m.header, m.events)[1] is None


def test_bots_are_not_asked_at_a_real_table() -> None:
    m, bots = seated(["sharp"] * 4, seed=None)
    m.submit(GAME.parse(m.state, "deal"))
    m.advance()
    assert GAME.bot_event(m, bots) is None


def test_a_bot_with_only_choose_takes_part_in_races() -> None:
    class ChooseOnly:
        reaction = (100, 100)

        def choose(self, game: Any, state: Any, seat: int) -> Event:
            s: KazuToriState = state
            if s.phase == "window" and s.takeable():
                return Claim(seat)
            return Flip(seat) if seat == s.next_flipper() else Pass(seat)

    m, bots = seated(["sharp"] * 4, seed=5)
    bots[4] = ChooseOnly()
    play_out(m, bots)
    claims = [e.seat for e in m.events if isinstance(e, Claim)]
    assert claims.count(4) > len(claims) // 2  # 100 ms beats the sharp bots' 180 and more


def test_the_same_seed_gives_the_same_game() -> None:
    for seed in (1, 2, 3):
        a, bots_a = seated(["random", "sharp", "random"], seed)
        b, bots_b = seated(["random", "sharp", "random"], seed)
        play_out(a, bots_a)
        play_out(b, bots_b)
        assert a.events == b.events


@pytest.mark.parametrize("where", ["window", "turn"])
def test_a_bot_never_stops_the_game(where: str) -> None:
    """Stop ends a game by the players' agreement, which bots cannot give (RULINGS: between
    bots a game ends at max_flips): it is not among a bot's legal moves, and a bot that
    answers it anyway, in a claim window or on its own turn, fails as for an illegal move. A
    window's stop ended the game for that bot alone (probe AB: with two players, p2 won 19
    chips every game by stopping after p1's first flip)."""
    from kabucli.games.kazu_tori.rules import Stop

    class Stopper:
        def choose(self, game: Any, state: Any, seat: int) -> Event:
            s: KazuToriState = state
            assert not any(type(e) is Stop for e in game.bot_legal(s, seat))
            assert any(type(e) is Stop for e in game.legal(s, seat))  # a person's, still
            if s.phase == where:
                return Stop(seat)
            return Flip(seat) if seat == s.next_flipper() else Pass(seat)

    m, _ = seated([None, None], seed=3)
    with pytest.raises(BotError, match=r"^bot p\d played 'p\d stop', which is not legal: a "
                       r"game is ended by agreement \('stop'\) only by the people"):
        play_out(m, {1: Stopper(), 2: Stopper()})
    assert not any(type(e) is Stop for e in m.events)


def test_a_py_class_that_picks_stop_from_game_legal_is_told_of_bot_legal(
        tmp_path: Any) -> None:
    """A py: class written before bots stopped stopping (it chose among ``game.legal``, as
    docs/bots.md said then) fails its match; the line says where a bot's moves are now."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    bot = tmp_path / "old.py"
    bot.write_text("class Old:\n    def __init__(self, rng): pass\n"
                   "    def choose(self, game, state, seat):\n"
                   "        return game.legal(state, seat)[-1]\n")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-m", "kabucli", "sim", "kazu-tori", "-b", f"py:{bot}:Old", "-b",
         "random", "-m", "1", "--seed", "1", "--workers", "1", "--json"],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(root)})
    failed = json.loads(done.stdout)["failed"]
    assert len(failed) == 1 and "'p1 stop', which is not legal" in failed[0]["reason"]
    assert "game.bot_legal(state, seat) in a py: class" in failed[0]["reason"]


def test_a_person_still_stops_a_game_with_bots() -> None:
    from kabucli.games.kazu_tori.rules import Stop

    m, bots = seated([None, "sharp", "random"], seed=3)
    m.advance()
    while (ev := GAME.bot_event(m, bots)) is not None:  # up to the person's turn or window
        m.submit(ev)
        m.advance()
    assert not m.over and 1 in m.pending.seats
    seat = 1
    assert m.why_not(Stop(seat)) is None
    m.submit(Stop(seat))
    m.advance()
    out = GAME.outcome(m.state)
    assert out is not None and out["reason"] == "agreement"


def test_a_log_in_which_a_bot_seat_stops_breaks_a_rule_at_that_stop() -> None:
    """A stop is the players' agreement, which bots never make: a log that gives one to a bot
    seat (written by hand, or by a kabucli whose program bots could stop) was audited valid.
    The walk an audit makes now stops there, saying why (a person's stop among bots still
    passes: above)."""
    from kabucli.games.kazu_tori.rules import Stop

    m, bots = seated(["sharp", "random", "sharp"], seed=3)
    m.advance()
    for _ in range(5):  # a few flips in
        ev = GAME.bot_event(m, bots)
        assert ev is not None
        m.submit(ev)
        m.advance()
    seat = m.pending.seats[0]
    assert GAME.legal(m.state, seat) and Stop(seat) in GAME.legal(m.state, seat)
    assert m.why_not(Stop(seat)) == (
        f"p{seat} is a bot: a stop is the players' agreement, which bots do not make (a game "
        "between bots ends by its rules, or at max_flips)")
    bad = [*m.events, Stop(seat)]
    violation = walk(GAME, m.header, bad)[1]
    assert violation is not None and violation.index == len(bad)
    assert violation.reason.startswith(f"p{seat} is a bot: a stop is the players' agreement")


def test_a_race_draw_becomes_a_reaction_time_by_the_profile_sharp_180_340_random_220_600(
        ) -> None:
    """Rules page, Seeded play, bots and races: `sharp` reacts in 180-340 ms, `random` in
    220-600 ms, and each bot turns its draw 0-999 into ``min + (max - min) * draw / 999`` ms."""
    sharp = make("kazu-tori", "sharp", Rng(1, "bot/1"))
    rand = make("kazu-tori", "random", Rng(1, "bot/2"))
    assert [reaction_ms(sharp, d) for d in (0, 999, 500, 1)] == [180, 340, 260, 180]
    assert [reaction_ms(rand, d) for d in (0, 999, 500, 3)] == [220, 600, 410, 221]
    # so a random bot's fastest draw beats a sharp bot's slowest, and not the other way round
    assert reaction_ms(rand, 0) < reaction_ms(sharp, 999)
    assert reaction_ms(sharp, 250) < reaction_ms(rand, 250)


def test_the_random_bot_claims_a_card_that_may_be_taken_half_the_time_any_other_one_in_16(
        ) -> None:
    """Rules page, Seeded play, bots and races: `random` "claims a card that may be taken half
    the time and any other card one time in 16"."""
    def window(takeable: bool) -> KazuToriState:
        """The state of a seeded table at its first window whose card may (or may not) be
        taken, nobody claiming before (the Oni, always takeable, left out)."""
        for seed in range(50):
            m = Match(GAME, make_header(GAME, KazuToriRules(), [SeatInfo(f"P{i}")
                                                                for i in range(1, 5)], seed))
            while not m.over:
                m.advance()
                s = m.state
                if s.phase == "window" and s.table[-1] != ONI and bool(s.ok) is takeable:
                    assert s.takeable() is takeable
                    return s
                m.submit(Flip(s.next_flipper()))
        raise AssertionError("no such window")

    windows = {True: window(True), False: window(False)}
    bot = make("kazu-tori", "random", Rng(5, "bot/3"))
    n = 8000
    right = sum(bot.claims(windows[True], 3) for _ in range(n))
    wrong = sum(bot.claims(windows[False], 3) for _ in range(n))
    # 4000 and 500 expected; the bounds are more than 5 standard deviations wide
    assert 3700 < right < 4300, right
    assert 380 < wrong < 620, wrong


def test_sharp_says_it_claims_a_card_exactly_when_it_may_be_taken() -> None:
    """``claims`` itself answers truly (a ``py:`` class may subclass SharpBot and ask it), not
    only through the engine, which never asks a careful bot about a card that may not be
    taken."""
    answers = set()
    for seed in range(10):
        m, bots = seated(["sharp"] * 3, seed)
        sharp = bots[1]
        while not m.over:
            p = m.advance()
            if p.kind == "over":
                break
            s = m.state
            if s.phase == "window":
                for seat in s.ins:
                    answers.add((s.ok, sharp.claims(s, seat)))
            move = m.game.bot_move(m, bots)
            assert move is not None
            m.accept_trusted(move[0])
    assert answers == {(True, True), (False, False)}
