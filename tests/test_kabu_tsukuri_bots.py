"""Kabu-Tsukuri's built-in bots: ``random`` lays its own hand in any order, ``best`` lays the
solver's arrangement, neither plays cards it was not dealt, and ``best`` wins chips from
``random`` over many hands."""

from __future__ import annotations

from collections import Counter

import pytest
from matchtools import bot_match

from kabucli.bots import about, kinds
from kabucli.errors import BotError
from kabucli.games.kabu_tsukuri.bots import BestBot, RandomBot
from kabucli.games.kabu_tsukuri.rules import GAME, Arrange, KabuRules
from kabucli.games.kabu_tsukuri.solver import solve
from kabucli.shuffle import Rng


def test_the_bots_are_registered_with_a_line_each() -> None:
    assert set(kinds("kabu-tsukuri")) == {"random", "best"}
    assert all(about("kabu-tsukuri").values())


def test_random_lays_its_own_hand_and_varies() -> None:
    m, _ = bot_match(GAME, KabuRules(), {1: "random", 2: "random"}, 3)
    m.advance()
    seat = m.pending.seats[0]
    bot = RandomBot(Rng(1, "t"))
    moves = [bot.choose(GAME, m.state, seat) for _ in range(20)]
    for ev in moves:
        assert isinstance(ev, Arrange)
        assert Counter([c for r in ev.rows for c in r] + ev.aside) == Counter(
            m.state.cards[seat])
        assert m.why_not(ev) is None
    assert len({GAME.notate(ev) for ev in moves}) > 10


@pytest.mark.parametrize("n", [3, 5])
def test_best_lays_the_solvers_arrangement(n: int) -> None:
    rules = KabuRules(bet=2)
    m, _ = bot_match(GAME, rules, dict.fromkeys(range(1, n + 1), "best"), 11)
    m.advance()
    seat = m.pending.seats[0]
    ev = BestBot(Rng(1, "t")).choose(GAME, m.state, seat)
    plan = solve(m.state.cards[seat], n, "extended", 2, m.state.ledger.pot)[0]
    assert isinstance(ev, Arrange)
    assert ev.rows == [list(r) for r in plan.rows] and ev.aside == list(plan.aside)
    assert m.why_not(ev) is None


@pytest.mark.parametrize("bot", [RandomBot, BestBot])
def test_a_bot_cannot_lay_cards_the_program_did_not_deal(bot: type) -> None:
    m, _ = bot_match(GAME, KabuRules(), {1: "random", 2: "random"}, 3)
    m.state.cards[2] = []  # as at a real table
    with pytest.raises(BotError, match="no cards the program dealt"):
        bot(Rng(1, "t")).choose(GAME, m.state, 2)


def test_best_wins_chips_from_random_over_many_hands() -> None:
    """40 seeded matches of 5 hands, best in seats 1 and 3 against random in 2 and 4."""
    gain = {"best": 0, "random": 0}
    for seed in range(40):
        kinds_ = {1: "best", 2: "random", 3: "best", 4: "random"}
        m, bots = bot_match(GAME, KabuRules(hands=5), kinds_, seed)
        while m.advance().kind != "over":
            move = GAME.bot_move(m, bots)
            assert move is not None
            m.accept_trusted(move[0])
        for seat, kind in kinds_.items():
            gain[kind] += m.state.ledger.seat(seat) - 50
    assert gain["best"] > 0 > gain["random"]


def test_best_lays_the_solvers_arrangement_for_the_pot_carried_into_the_hand() -> None:
    """Over seeded matches with ties carrying the pot, every move of best is the solver's
    first arrangement for its hand, the players, the ranking, the bet and the pot carried,
    and a carried pot changes some of them (so the pot is read, not left out)."""
    carried = changed = 0
    for seed in range(30):
        rules = KabuRules(bet=2, hands=6)
        m, bots = bot_match(GAME, rules, {1: "best", 2: "best", 3: "best"}, seed)
        while m.advance().kind != "over":
            move = GAME.bot_move(m, bots)
            assert move is not None
            s = m.state
            seat = move[0].seat
            pot = s.ledger.pot
            plan = solve(s.cards[seat], 3, "extended", 2, pot)[0]
            assert move[0] == Arrange(seat, [list(r) for r in plan.rows], list(plan.aside))
            if pot:
                carried += 1
                other = solve(s.cards[seat], 3, "extended", 2, 0)[0]
                changed += (other.rows, other.aside) != (plan.rows, plan.aside)
            m.accept_trusted(move[0])
    assert carried >= 10 and changed >= 1, (carried, changed)
