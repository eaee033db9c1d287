"""Yatchaba bots: ``smart`` guesses a most likely multiset and follows the expected-value rule
of its docstring; ``random`` only ever makes legal moves and spreads its choices."""

from __future__ import annotations

from collections import Counter
from typing import Any

from matchtools import bot_match

from kabucli.bots import kinds, make
from kabucli.engine import Match, make_header
from kabucli.events import Event
from kabucli.games.yatchaba.bots import RandomBot, SmartBot
from kabucli.games.yatchaba.rules import (
    GAME,
    GUESSES,
    Bet,
    Continue,
    Guess,
    Pass,
    Stop,
    YatchabaRules,
    best_guesses,
    ways,
)
from kabucli.log import SeatInfo
from kabucli.shuffle import Rng


def new_match(n: int, **rules: Any) -> Match:
    seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
    match = Match(GAME, make_header(GAME, YatchabaRules(**rules), seats, None))
    match.advance()
    return match


def play(m: Match, *moves: str) -> None:
    for move in moves:
        m.submit(GAME.parse(m.state, move))
        m.advance()


def smart_move(m: Match) -> Event:
    seat = m.pending.seats[0]
    return SmartBot(Rng(0, "test")).choose(GAME, m.state, seat)


def test_both_bots_are_registered() -> None:
    assert set(kinds("yatchaba")) == {"random", "smart"}
    assert isinstance(make("yatchaba", "smart", Rng(1)), SmartBot)


def test_smart_guesses_a_most_likely_multiset_given_the_face_up_cards() -> None:
    m = new_match(3)
    play(m, "deal", "guess 9 10 11", "bet", "bet", "bet", "stop", "reveal 1 2 3", "deal")
    ev = smart_move(m)
    assert isinstance(ev, Guess)
    best, tops = best_guesses(m.state.left)
    assert ways(m.state.left, ev.months) == best and tuple(ev.months) in tops
    assert not {1, 2, 3} & set(ev.months)  # months with a card face up are less likely


def test_smart_passes_when_no_right_to_guess_is_at_stake() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet")
    assert smart_move(m) == Pass(2)


def test_smart_guesser_always_bets() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3")
    assert smart_move(m) == Bet(1, 1)


def _big_carried_pot(laps: int) -> Match:
    """Two players, no free pass: game 1 builds a pot that game 2 inherits; p2 deals game 2
    and has just bet, so p1 (who guesses later) faces the amount 2."""
    m = new_match(2, pass_limit=0)
    play(m, "deal", "guess 9 10 11")
    for _ in range(laps - 1):
        play(m, "bet", "bet", "continue")
    play(m, "bet", "bet", "stop", "reveal 1 2 3", "deal", "guess 9 10 11", "bet", "pass",
         "reveal 4 5 6", "deal", "guess 1 2 3", "bet")
    assert m.state.game == 2 and m.pending.seats == (1,)
    return m


def test_smart_bets_to_keep_its_turn_as_guesser_when_the_pot_is_big() -> None:
    m = _big_carried_pot(15)  # pot 465 + 2, the dealer takes 93, 374 carried, + 1
    assert m.state.ledger.pot == 375
    assert smart_move(m) == Bet(1, 2)


def test_smart_passes_and_gives_up_its_turn_when_the_pot_is_small() -> None:
    m = _big_carried_pot(3)
    assert m.state.ledger.pot < 100
    assert smart_move(m) == Pass(1)


def test_smart_dealer_continues_only_when_the_others_add_enough() -> None:
    # p2 guesses, p1 (the dealer, stake 0.2) is last: continue when 0.2 * others > 0.8
    m = new_match(3)
    play(m, "deal", "guess 9 10 11", "bet", "bet", "bet", "stop", "reveal 4 5 6",
         "deal", "guess 1 2 3", "bet", "pass", "bet")
    assert m.pending.seats == (1,)
    assert smart_move(m) == Stop(1)  # next lap: p2 bets 3 only, 0.6 < 0.8
    m = new_match(3)
    play(m, "deal", "guess 9 10 11", "bet", "bet", "bet", "stop", "reveal 4 5 6",
         "deal", "guess 1 2 3", "bet", "bet", "bet")
    assert smart_move(m) == Continue(1)  # p2 bets 4 and p3 at least 1: 1.0 > 0.8


def test_smart_as_dealer_passes_every_round_after_its_own_and_so_never_decides() -> None:
    # The rules page: once the guesser has bet, the amount due is at least 2, more than the
    # 1 chip of a pass, and the dealer has no turn to guess left to keep: it passes, and a
    # seat that has passed is never the one who decides. (The test above builds a dealer
    # who bet, which the smart bot itself never does.)
    m = new_match(3)
    play(m, "deal", "guess 9 10 11", "bet", "bet", "bet", "stop", "reveal 4 5 6",
         "deal", "guess 1 2 3", "bet", "bet")
    assert m.pending.seats == (1,) and smart_move(m) == Pass(1)
    dealer_moves: Counter[str] = Counter()
    for seed in range(40):
        n = 2 + seed % 7
        match, bots = bot_match(GAME, YatchabaRules(), {p: "smart" for p in range(1, n + 1)},
                                seed)
        while True:
            match.advance()
            if match.over:
                break
            seat = match.pending.seats[0]
            s = match.state
            ev = bots[seat].choose(GAME, s, seat)
            if seat == s.dealer and seat != s.guesser:
                dealer_moves[type(ev).__name__] += 1
            match.submit(ev)
    assert dealer_moves["Pass"] > 100 and set(dealer_moves) == {"Pass"}


def test_smart_stops_when_it_has_no_stake_in_the_pot() -> None:
    # round 3: p3 guesses, p2 is last; p2 has guessed already and does not deal: stake 0
    m = new_match(3)
    for guess in ("9 10 11", "9 10 11"):
        play(m, "deal", f"guess {guess}", "bet", "bet", "bet", "stop", "reveal 4 5 6")
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet")
    assert m.pending.seats == (2,)
    assert smart_move(m) == Stop(2)


def test_random_bot_guesses_only_possible_guesses_and_varies() -> None:
    m = new_match(3)
    play(m, "deal", "guess 9 10 11", "bet", "bet", "bet", "stop", "reveal 1 1 1",
         "deal", "guess 2 3 4", "bet", "bet", "bet", "stop", "reveal 1 5 6", "deal")
    bot = RandomBot(Rng(5, "test"))
    seen: Counter[tuple[int, ...]] = Counter()
    for _ in range(300):
        ev = bot.choose(GAME, m.state, 3)
        assert isinstance(ev, Guess) and 1 not in ev.months
        assert m.why_not(ev) is None
        seen[tuple(ev.months)] += 1
    assert len(seen) > 100


def test_random_bot_may_make_every_guess_that_can_be_right() -> None:
    """Uniform among the guesses that can be right: each of them comes up, the last of the
    list (12 12 12) as much as the first, and none that cannot be right."""
    m = new_match(3)
    play(m, "deal")
    left = m.state.left
    possible = {g for g in GUESSES if ways(left, g)}
    bot = RandomBot(Rng(6, "test"))
    seen = Counter(tuple(bot.choose(GAME, m.state, 1).months) for _ in range(20 * len(possible)))
    assert set(seen) == possible
    assert min(seen.values()) >= 3


def test_smart_varies_its_guess_among_equally_likely_ones() -> None:
    """Every guess of three different months is equally likely at the first deal: smart's
    generator picks among them (the offset of ``best_guess``), it does not always guess the
    same months."""
    m = new_match(3)
    play(m, "deal")
    bot = SmartBot(Rng(7, "test"))
    _, tops = best_guesses(m.state.left)
    guesses = {tuple(bot.choose(GAME, m.state, 1).months) for _ in range(60)}
    assert guesses <= set(tops) and len(guesses) > 5


def test_random_bot_continues_or_stops_at_even_odds() -> None:
    m = new_match(2)
    play(m, "deal", "guess 9 10 11", "bet", "bet")
    seat = m.pending.seats[0]
    bot = RandomBot(Rng(8, "test"))
    moves = Counter(type(bot.choose(GAME, m.state, seat)) for _ in range(1600))
    assert set(moves) == {Continue, Stop}
    assert 700 <= moves[Continue] <= 900, moves


# -- smart's rule as docs/rules/yatchaba.md states it, worked out apart from the bot ---------

def documented_smart(s: Any, seat: int) -> str:
    """The move kind docs/rules/yatchaba.md's ``smart`` makes at a bet or a decision, worked
    out from the page's words alone (its own sums, not the bot's code): the stake, a chip's
    cost ``1 - stake``, the penalty of a pass that costs the turn to guess, and the lap's
    chips. ``p``: the current guess's chance; ``q``: the best guess's chance now."""
    total = sum(ways(s.left, g) for g in GUESSES)  # (every way three face-down cards fall)
    q = max(ways(s.left, g) for g in GUESSES) / total
    p = ways(s.left, s.guess) / total
    guesses_later = seat not in s.guessed and s.passes[seat] <= s.rules.pass_limit
    if seat == s.dealer and seat != s.guesser:
        stake = 0.2
    elif guesses_later:
        stake = (1 - p) * 0.8 * q
    else:
        stake = 0.0
    if s.phase == "bet":
        if seat == s.guesser:
            return "Bet"  # (it must)
        a = s.due
        # a pass costs the turn to guess when it is one more than the limit allows
        costs_turn = guesses_later and s.passes[seat] + 1 > s.rules.pass_limit
        penalty = 0.8 * q * (s.ledger.pot + a) if costs_turn else 0.0
        return "Bet" if a * (1 - stake) <= (1 - stake) + penalty else "Pass"
    others = s.due + sum(1 for p_ in s.order[1:] if p_ != seat and not s.out[p_])
    return "Continue" if stake * others > (1 - stake) else "Stop"


def test_smart_bets_passes_continues_and_stops_as_the_rules_page_says() -> None:
    """At every bet and decision of seeded matches (smart and random seats, count and book
    amounts, pass limits 0-2), ``smart`` in that seat makes the move the page's rule worked
    out apart gives (documented_smart), with the pot as it is and with more chips in it
    (every pot to 1,000 more where a pass costs the turn to guess, so the penalty comes to
    outweigh the bet), and at a decision with 10 and 100 more chips due next lap: a stake of
    p where the page says 1 - p, or a penalty without the bet's own chips, passed every test
    before (probe ET: Y15). Each branch of the rule is met."""
    seen: Counter[str] = Counter()
    smart = SmartBot(Rng(1, "bot/check"))  # (its bets and decisions draw nothing)
    for seed in range(40):
        n = 2 + seed % 4
        kinds_ = {p: "smart" if (p + seed) % 3 else "random" for p in range(1, n + 1)}
        rules = YatchabaRules(amounts=("count", "book")[seed % 2], pass_limit=seed % 3,
                              games=2)
        match, bots = bot_match(GAME, rules, kinds_, seed)
        while match.logged < 3000:
            pend = match.advance()
            if pend.kind == "over":
                break
            seat = pend.seats[0]
            s: Any = match.state
            if s.phase in ("bet", "decide"):
                # a pass that costs the turn to guess: every pot to 1,000 more chips, where the
                # penalty comes to outweigh the bet; a decision: more chips due next lap
                costs = (s.phase == "bet" and seat not in s.guessed
                         and s.passes[seat] == s.rules.pass_limit)
                pots = range(1001) if costs else (0, 50, 500)
                dues = (0, 10, 100) if s.phase == "decide" else (0,)
                for more, due in [(m, d) for m in pots for d in dues]:
                    s.ledger.balances[0] += more
                    s.due += due
                    try:
                        want = documented_smart(s, seat)
                        got = type(smart.choose(GAME, s, seat)).__name__
                    finally:
                        s.ledger.balances[0] -= more
                        s.due -= due
                    assert got == want, (seed, match.logged, seat, s.phase, more, due)
                    who = "guesser" if seat == s.guesser else "other"
                    seen[f"{want} {who}"] += 1
                    if want == "Bet" and who == "other" and s.due > 1:
                        seen["bet for the penalty"] += 1
            match.submit(bots[seat].choose(GAME, s, seat))
    assert seen["Bet guesser"] and seen["Pass other"] and seen["bet for the penalty"], seen
    assert seen["Continue guesser"] + seen["Continue other"] > 0, seen
    assert seen["Stop guesser"] + seen["Stop other"] > 0, seen
