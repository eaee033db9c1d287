"""Yatchaba, clause by clause: the rules and the decisions of docs/rules/yatchaba.md. Each test
drives ``Match``.

Most tables are physical (no seed): the referee types ``deal`` when three cards are laid face
down and ``reveal`` with what they turn out to be, so each test chooses the cards.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb
from typing import Any

import pytest
from matchtools import play, refused, step

from kabucli.cards import month_of
from kabucli.engine import Match, make_header
from kabucli.errors import KabuError, ParseError
from kabucli.events import End, Event, Pay
from kabucli.games.yatchaba.rules import (
    BOOK,
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
    amount,
)
from kabucli.games.yatchaba.text import hint
from kabucli.log import SeatInfo
from kabucli.session import start

# -- helpers ---------------------------------------------------------------------------------


def new_match(n: int = 4, seed: int | None = None, **rules: Any) -> Match:
    seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
    match = Match(GAME, make_header(GAME, YatchabaRules(**rules), seats, seed))
    match.advance()
    return match


def play_out(m: Match) -> None:
    """Play a seeded match to its end: each guesser names its first legal guess, everyone
    bets, and whoever decides stops."""
    while not m.over:
        step(m, GAME.legal(m.state, m.state.guesser)[0])
        while m.state.phase == "bet":
            step(m, "bet")
        if m.state.phase == "decide":
            step(m, "stop")


def balances(m: Match) -> list[int]:
    return m.state.ledger.balances[1:]


def bets_of(m: Match) -> list[tuple[int, int]]:
    return [(e.seat, e.amount) for e in m.events if isinstance(e, Bet)]


def of_type(m: Match, kind: type[Event]) -> list[Any]:
    return [e for e in m.events if isinstance(e, kind)]


def wrong_round(m: Match, reveal: str = "4 5 6", guess: str = "9 10 11") -> None:
    """A round where everyone bets once, the decider stops and the guess is wrong."""
    play(m, "deal", f"guess {guess}")
    while m.state.phase == "bet":
        step(m, "bet")
    if m.state.phase == "decide":
        step(m, "stop")
    step(m, f"reveal {reveal}")


# -- the deck ---------------------------------------------------------------------------------

def test_deck_is_the_48_hanafuda_cards_four_of_each_month() -> None:
    assert GAME.deck.size == 48
    assert Counter(month_of(c) for c in GAME.deck.cards()) == Counter(
        {m: 4 for m in range(1, 13)})
    # a seeded game lays its cards from those 48, never one face up in the same game
    m = new_match(8, seed=11, games=1)
    play_out(m)
    laid = [c for d in of_type(m, Deal) for c in d.cards]
    assert all(0 <= c < 48 for c in laid) and len(set(laid)) == len(laid)


# -- rounds, laps and amounts -----------------------------------------------------------------

def test_count_schedule_rises_by_one_with_each_bet_across_laps() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "bet", "continue", "bet", "bet")
    assert bets_of(m) == [(1, 1), (2, 2), (3, 3), (4, 4), (1, 5), (2, 6)]
    assert [amount("count", k) for k in range(5)] == [1, 2, 3, 4, 5]


def test_book_schedule_follows_the_book_then_stays_at_fifty() -> None:
    m = new_match(2, amounts="book")
    play(m, "deal", "guess 1 2 3")
    for _ in range(8):
        play(m, "bet", "bet", "continue")
    amounts = [a for _, a in bets_of(m)]
    assert amounts == [*BOOK, 50, 50, 50]
    assert amounts[:3] == [3, 7, 11]


def test_the_book_schedule_is_the_books_thirteen_amounts_then_fifty() -> None:
    # the amounts as docs/rules/yatchaba.md gives them, not the engine's own BOOK constant
    book = [3, 7, 11, 12, 16, 22, 26, 30, 31, 35, 41, 45, 50]
    m = new_match(2, amounts="book")
    play(m, "deal", "guess 1 2 3")
    for _ in range(8):
        play(m, "bet", "bet", "continue")
    assert [a for _, a in bets_of(m)] == [*book, 50, 50, 50]


def test_sequence_starts_afresh_each_round() -> None:
    m = new_match(2)
    wrong_round(m)
    assert [a for _, a in bets_of(m)] == [1, 2]
    play(m, "deal", "guess 1 2 3", "bet")
    assert bets_of(m)[-1] == (2, 1)


def test_only_real_bets_advance_the_sequence() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet", "pass", "bet")
    assert bets_of(m) == [(1, 1), (3, 2)]
    assert m.pending.what == "p4 to bet 3 or pass"


def test_a_bet_of_another_amount_is_refused() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet 1")
    assert refused(m, "bet 5") == "the next amount of the sequence is 2, not 5: type 'bet'"
    step(m, "bet 2")
    assert bets_of(m)[-1] == (2, 2)


def test_in_a_seeded_game_a_refused_bet_or_pass_gives_the_rule_without_what_to_type() -> None:
    # the words of what to type are for a referee at a real table (docs/rules/yatchaba.md)
    m = new_match(3, seed=1)
    step(m, GAME.legal(m.state, 1)[0])
    assert refused(m, Pass(1)) == "p1 is the guesser, and the guesser cannot pass"
    assert refused(m, Bet(1, 4)) == "the next amount of the sequence is 1, not 4"


def test_a_pass_costs_one_chip_into_the_pot() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet", "pass")
    assert balances(m) == [99, 99, 100, 100]
    assert m.state.ledger.pot == 2
    assert m.state.passes[2] == 1


def test_a_player_who_passed_bets_no_more_this_round() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet", "pass", "bet", "bet", "continue")
    play(m, "bet")  # p1 (guesser) bets 4; p2 is skipped
    assert m.pending.seats == (3,)
    assert refused(m, Bet(2, 5)).startswith("it is not p2's turn")
    play(m, "bet", "bet")
    assert bets_of(m) == [(1, 1), (3, 2), (4, 3), (1, 4), (3, 5), (4, 6)]


def test_the_guesser_cannot_pass() -> None:
    m = new_match(3)
    play(m, "deal", "guess 1 2 3")
    assert refused(m, "pass") == ("p1 is the guesser, and the guesser cannot pass: "
                                  "type 'bet' (1 chip)")
    assert GAME.legal(m.state, 1) == [Bet(1, 1)]


# -- continue or stop ---------------------------------------------------------------------------

def test_the_chips_put_in_this_round_count_a_pass_and_every_lap_and_start_again_each_round(
) -> None:
    # what the table shows a seat put in the pot this round (view "bets", "in this round N")
    m = new_match(3)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "continue", "bet", "pass")
    assert GAME.view(m.state)["bets"] == {"p1": 1 + 4, "p2": 2 + 1, "p3": 3}
    play(m, "bet", "stop", "reveal 4 5 6")
    assert m.state.guesser == 2 and m.state.round == 2
    assert GAME.view(m.state)["bets"] == {"p1": 0, "p2": 0, "p3": 0}


def test_the_view_gives_the_lap_and_the_seats_that_passed_this_round() -> None:
    # the state a bot is sent (docs/bots.md: lap, passed)
    m = new_match(3)
    play(m, "deal", "guess 1 2 3", "bet", "pass", "bet", "continue")
    view = GAME.view(m.state)
    assert (view["lap"], view["passed"]) == (2, ["p2"])
    play(m, "bet", "bet", "stop", "reveal 4 5 6")
    view = GAME.view(m.state)
    assert (view["round"], view["lap"], view["passed"], view["passes"]["p2"]) == (2, 1, [], 1)


def test_the_last_player_of_the_lap_decides_continue_or_stop() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "bet")
    assert m.pending.kind == "action" and m.pending.seats == (4,)
    assert GAME.legal(m.state, 4) == [Continue(4), Stop(4)]
    assert refused(m, Stop(3)).startswith("it is not p3's turn")


def test_when_the_last_player_passed_the_last_one_still_betting_decides() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "pass")
    assert m.pending.seats == (3,)
    step(m, "stop")
    assert m.pending.kind == "chance" and m.state.phase == "reveal"


def test_in_later_rounds_the_seat_before_the_guesser_decides() -> None:
    m = new_match(4)
    wrong_round(m)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "bet")
    assert [s for s, _ in bets_of(m)[-4:]] == [2, 3, 4, 1]
    assert m.pending.seats == (1,)


def test_betting_stops_by_itself_when_only_the_guesser_is_left() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet", "pass", "pass", "pass")
    assert m.state.phase == "reveal"
    assert not of_type(m, Stop) and not of_type(m, Continue)


def test_continue_starts_another_lap_with_the_guesser_and_amounts_keep_rising() -> None:
    m = new_match(3)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "continue")
    assert m.pending.seats == (1,) and m.pending.what == "p1 to bet 4"
    assert m.state.lap == 2


class AlwaysContinue:
    """A bot that never stops: it continues whenever it decides, else makes its lowest legal
    move (the guess 1 1 1 when it can be right, a bet)."""

    def choose(self, game: Any, state: Any, seat: int) -> Event:
        if state.phase == "decide":
            return Continue(seat)
        return game.legal(state, seat)[0]


def play_always_continuing(n: int, seed: int, **rules: Any) -> Match:
    """A seeded match in which every seat is an :class:`AlwaysContinue`."""
    m = new_match(n, seed=seed, **rules)
    bot = AlwaysContinue()
    for _ in range(200_000):
        if m.over:
            break
        ev = m.expected()
        if ev is None:
            ev = bot.choose(GAME, m.state, m.pending.seats[0])
            assert m.why_not(ev) is None, (GAME.notate(ev), m.why_not(ev))
        m.submit(ev)
    return m


def test_after_max_laps_laps_the_cards_are_turned_over_as_after_a_stop() -> None:
    m = new_match(3, max_laps=2)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "continue", "bet", "bet", "bet")
    assert m.state.phase == "reveal" and m.state.lap == 2
    assert m.pending.kind == "chance" and m.pending.seats == ()
    assert GAME.legal(m.state, 3) == []  # legal() and check() agree: no decision is left
    assert hint(m.state, 1).startswith("max_laps=2 laps are over, so the betting stopped")
    assert "waiting for the three cards to be turned over" in refused(m, Continue(3))
    play(m, "reveal 1 2 3")
    assert of_type(m, Result)[-1].right is True
    assert len(of_type(m, Continue)) == 1 and not of_type(m, Stop)


def test_max_laps_1_allows_no_continue() -> None:
    m = new_match(2, max_laps=1)
    play(m, "deal", "guess 1 2 3", "bet", "bet")
    assert m.state.phase == "reveal" and not of_type(m, Continue)


def test_every_round_ends_even_when_the_decider_always_continues() -> None:
    # Two seats: the guesser cannot pass and the other always continues, so only max_laps
    # ends a round; with more seats every bot bets too.
    for n, seed, cap in ((2, 1, 4), (4, 7, 3), (2, 3, 100)):
        m = play_always_continuing(n, seed, max_laps=cap)
        assert m.over, (n, seed, cap)
        rounds = of_type(m, Result)
        assert rounds and len(of_type(m, Continue)) == len(rounds) * (cap - 1)
        assert not of_type(m, Stop)


def test_the_default_max_laps_ends_a_round_no_real_table_would_reach() -> None:
    assert YatchabaRules().max_laps == 100
    m = play_always_continuing(2, 5, games=1)
    assert m.over and len(of_type(m, Continue)) == len(of_type(m, Result)) * 99


# -- guesses and the reveal ----------------------------------------------------------------------

def test_a_guess_is_a_multiset_of_months_in_any_order() -> None:
    m = new_match(3)
    play(m, "deal", "guess 8 1 1")
    assert m.state.guess == [1, 1, 8]
    assert of_type(m, Guess) == [Guess(1, [1, 1, 8])]


def test_guessing_a_month_twice_needs_two_cards_of_that_month() -> None:
    m = new_match(3)
    play(m, "deal", "guess jan jan aug", "bet", "bet", "bet", "stop", "reveal 1 8 8")
    assert of_type(m, Result)[0].right is False


def test_right_guess_whatever_the_order_of_the_cards() -> None:
    m = new_match(3)
    play(m, "deal", "guess 1 1 8", "bet", "bet", "bet", "stop", "reveal 8a 1r 1b")
    assert of_type(m, Reveal) == [Reveal([1, 1, 8], [0, 1, 29])]
    assert of_type(m, Result)[0].right is True


def test_any_three_months_are_a_guess_even_one_that_can_never_be_right() -> None:
    # RULINGS: the guesser names 3 months (repeats allowed). A guess the cards face up make
    # hopeless is recorded as said; the prompt asks first (confirm) and the guess is wrong.
    m = new_match(4)
    wrong_round(m, reveal="1 1 1")
    wrong_round(m, reveal="1 2 3")
    play(m, "deal")
    hopeless = Guess(3, [1, 5, 6])
    assert hopeless in GAME.legal(m.state, 3) and len(GAME.legal(m.state, 3)) == 364
    question = GAME.confirm(m.state, hopeless)
    assert question == ("Guess 1 5 6 can never be right: not enough cards of those months are "
                        "left face down or in the deck (4 Jan, 0 May, 0 Jun face up). Record "
                        "it anyway?")
    assert GAME.confirm(m.state, Guess(3, [4, 5, 6])) is None
    play(m, "guess 6 5 1", "bet", "bet", "bet", "bet", "stop", "reveal 5 6 7")
    assert of_type(m, Guess)[-1] == hopeless
    assert of_type(m, Result)[-1].right is False


def test_a_guess_said_aloud_is_recorded_once_the_person_confirms_it() -> None:
    seats = [SeatInfo("A", "human"), SeatInfo("B", "human"), SeatInfo("C", "human")]
    sess = start(GAME, YatchabaRules(), seats, None, None, None)
    for move in ("deal", "guess 2 3 4", "bet", "bet", "bet", "stop", "reveal 1 1 9", "deal"):
        sess.submit_line(move)
        sess.match.advance()
    asked: list[str] = []
    assert sess.submit_line("guess 1 1 1", confirm=lambda q: asked.append(q) or False) is None
    assert "can never be right" in asked[0] and sess.match.state.phase == "guess"
    assert sess.submit_line("guess 1 1 1", confirm=lambda q: True) == Guess(2, [1, 1, 1])
    assert sess.submit_line("bet 1", confirm=lambda q: False) == Bet(2, 1)  # nothing asked


def test_a_seeded_guess_is_right_when_its_months_equal_the_laid_cards_as_a_multiset() -> None:
    # RULINGS: the named months equal the months of the three cards as a multiset. Seed 3
    # lays 8a 8c1 11c (Aug, Aug, Nov) in the first round.
    for guess, right in (("guess 11 8 8", True), ("guess 8 11 11", False),
                         ("guess 8 11 12", False)):
        m = new_match(3, seed=3)
        assert m.state.laid == [28, 30, 43]
        play(m, guess, "bet", "bet", "bet", "stop")
        assert of_type(m, Reveal)[0] == Reveal([8, 8, 11], [28, 30, 43])
        assert of_type(m, Result)[0].right is right, guess
        assert any(p.why == "win" and p.dst == 1 for p in of_type(m, Pay)) is right


def test_the_odds_of_a_later_guess_are_the_same_while_its_cards_wait_to_be_turned_over() -> None:
    # three Januaries face up since round 1: 1 2 3 has 1·4·4 ways out of C(45, 3), whether
    # the players are betting on it or the cards are about to be turned over
    m = new_match(4)
    wrong_round(m, reveal="1 1 1")
    play(m, "deal", "guess 1 2 3")
    odds = str(Fraction(1 * 4 * 4, comb(45, 3)))
    assert GAME.view(m.state)["odds"] == odds
    while m.state.phase == "bet":
        step(m, "bet")
    step(m, "stop")
    assert (m.state.phase, GAME.view(m.state)["odds"]) == ("reveal", odds)


def test_revealed_cards_stay_face_up_for_the_rest_of_the_game() -> None:
    m = new_match(4)
    wrong_round(m, reveal="1b 2a 3b")
    assert GAME.view(m.state)["face_up"] == ["1b", "2a", "3b"]
    wrong_round(m, reveal="4 5 6")
    assert GAME.view(m.state)["face_up"] == ["1b", "2a", "3b", "4", "5", "6"]
    assert m.state.left[1:7] == [3, 3, 3, 3, 3, 3]


def test_a_fifth_card_of_a_month_cannot_be_revealed() -> None:
    m = new_match(4)
    wrong_round(m, reveal="1 1 1")
    play(m, "deal", "guess 2 3 4", "bet", "bet", "bet", "bet", "stop")
    reason = refused(m, "reveal 1 1 5")
    assert reason == "2 Jan cards cannot be face down: the deck has 4 and 3 already face up"


def test_a_fifth_card_of_a_month_cannot_be_laid_face_down() -> None:
    # RULINGS: a card shown must still exist in the deck (no fifth January). The four
    # Januaries are face up, given by month only: a deal that names a January is refused
    # as the reveal would be, instead of leaving the referee no reveal to type.
    m = new_match(3)
    wrong_round(m, reveal="1 1 1", guess="2 3 4")
    wrong_round(m, reveal="1 2 3", guess="2 3 5")
    assert m.state.left[1] == 0
    reason = refused(m, "deal 1b 4a 5a")
    assert reason == ("1 Jan card cannot be face down: the deck has 4 and 4 already face up: "
                      "type 'deal' alone, or name three cards not face up")
    step(m, "deal 4a 5a 6a")
    play(m, "guess 4 5 6", "bet", "bet", "bet", "stop", "reveal 4a 5a 6a")
    assert of_type(m, Result)[-1].right is True


def test_a_card_already_face_up_cannot_be_revealed_again() -> None:
    m = new_match(4)
    wrong_round(m, reveal="1b 2a 3b")
    play(m, "deal", "guess 2 3 4", "bet", "bet", "bet", "bet", "stop")
    assert "already showed" in refused(m, "reveal 1b 5a 6a")
    step(m, "reveal 1r 5a 6a")


def test_a_card_face_up_since_an_earlier_round_of_the_game_cannot_be_named_again() -> None:
    m = new_match(4)
    wrong_round(m, reveal="1b 2a 3b")  # round 1
    wrong_round(m, reveal="4a 5a 6a")  # round 2: 1b is face up since round 1
    assert "already showed" in refused(m, "deal 1b 7a 8a")
    play(m, "deal", "guess 2 3 4", "bet", "bet", "bet", "bet", "stop")
    assert "already showed" in refused(m, "reveal 1b 7a 8a")
    step(m, "reveal 1r 7a 8a")


def test_a_deal_naming_a_card_already_face_up_is_refused() -> None:
    m = new_match(4)
    wrong_round(m, reveal="1b 2a 3b")
    reason = refused(m, "deal 1b 4a 5a")
    assert reason == ("the hanafuda (48) deck has only 1 copy of 1b, and 1 already showed: "
                      "type 'deal' alone, or name three cards not face up")
    step(m, "deal 1r 4a 5a")


def test_a_deal_names_all_three_laid_cards_or_none() -> None:
    m = new_match(3)
    for text in ("deal 1b ?? ??", "deal ?? 1b 2a"):
        assert refused(m, text) == "name all three laid cards, or none ('deal' alone)"
    step(m, "deal")


def test_named_laid_cards_are_listed_in_ascending_order() -> None:
    """A deal read from a log or built by a program (typed ones are sorted when read)."""
    m = new_match(3)
    b1, a4, a5 = (GAME.deck.parse(t) for t in ("1b", "4a", "5a"))
    for cards in ([a4, b1, a5], [a5, a4, b1]):
        assert refused(m, Deal(1, 1, 1, cards)) == "the laid cards are listed in ascending order"
    step(m, Deal(1, 1, 1, [b1, a4, a5]))


def test_a_guess_names_three_months() -> None:
    """A guess read from a log or built by a program (typed ones are checked when read)."""
    m = new_match(4)
    play(m, "deal")
    for months in ([1, 2], [1, 2, 3, 4]):
        assert refused(m, Guess(1, months)) == f"a guess names 3 months, not {len(months)}"
    step(m, Guess(1, [1, 2, 3]))


def test_a_guess_names_months_1_to_12_listed_in_ascending_order() -> None:
    """A guess read from a log or built by a program: each month is one of the twelve (the
    lowest and the highest checked too), and the three are listed lowest first."""
    m = new_match(4)
    play(m, "deal")
    for months in ([0, 1, 2], [1, 2, 13]):
        assert refused(m, Guess(1, months)) == "months are 1-12"
    for months in ([1, 3, 2], [2, 1, 3]):
        assert refused(m, Guess(1, months)) == \
            "the months of a guess are listed in ascending order"
    step(m, Guess(1, [1, 12, 12]))


def test_the_revealed_cards_are_of_months_1_to_12_and_each_card_of_its_own_month() -> None:
    """A reveal read from a log or built by a program: a month outside the twelve, or a card
    named for a month it is not of, is refused."""
    m = new_match(4)
    play(m, "deal", "guess 2 3 4", "bet", "bet", "bet", "bet", "stop")
    for months in ([0, 1, 2], [1, 2, 13]):
        assert refused(m, Reveal(months)) == "months are 1-12"
    # card 4 is 2a, a February card, given as the January one
    assert refused(m, Reveal([1, 2, 3], [4, -1, -1])) == "card 2a is not a Jan card"
    step(m, Reveal([1, 2, 3], [0, 4, -1]))
    assert GAME.view(m.state)["face_up"][:3] == ["1b", "2a", "3"]


def test_a_revealed_card_code_outside_the_deck_is_refused() -> None:
    """A reveal read from a log or built by a program naming a card code no hanafuda card has."""
    m = new_match(4)
    play(m, "deal", "guess 2 3 4", "bet", "bet", "bet", "bet", "stop")
    for code in (48, 99):
        assert refused(m, Reveal([1, 2, 12], [0, -1, code])) == (
            f"card code {code} is not in the hanafuda (48) deck")
    step(m, Reveal([1, 2, 12], [0, -1, 47]))


def test_a_reveal_is_the_three_cards_laid_listed_in_ascending_order() -> None:
    """A reveal read from a log or built by a program (typed ones are sorted when read)."""
    m = new_match(4)
    play(m, "deal", "guess 2 3 4", "bet", "bet", "bet", "bet", "stop")
    assert refused(m, Reveal([1, 8])) == "3 cards are turned over, not 2"
    assert refused(m, Reveal([8, 1, 1])) == \
        "the revealed cards are listed in ascending order of month"
    assert refused(m, Reveal([1, 1, 8], [0, -1, -1])) == \
        "the revealed cards are listed in ascending order"
    step(m, Reveal([1, 1, 8], [-1, 0, -1]))
    assert GAME.view(m.state)["face_up"][:3] == ["1", "1b", "8"]


def test_named_laid_cards_must_be_the_ones_turned_over() -> None:
    m = new_match(3)
    play(m, "deal 1b 2a 3b", "guess 1 2 3", "bet", "bet", "bet", "stop")
    assert refused(m, "reveal 1 2 3") == "the cards laid face down were 1b 2a 3b"
    step(m, "reveal 3b 2a 1b")
    assert of_type(m, Result)[0].right is True


def test_seeded_cards_come_from_the_seed_and_only_the_seed() -> None:
    m = new_match(4, seed=7)
    deal = of_type(m, Deal)[0]
    assert deal.cards is not None and len(deal.cards) == 3
    play(m, "guess 1 2 3", "bet", "bet", "bet", "bet")
    m.submit(Stop(4))  # no advance: the reveal is still to come
    expected = m.expected()
    assert expected == Reveal([c // 4 + 1 for c in deal.cards], deal.cards)
    other = Reveal([12, 12, 12], [44, 45, 46])
    assert refused(m, other) == f"the seed deals {GAME.notate(expected)!r} here"


def test_a_seeded_deal_is_three_draws_without_replacement_from_the_cards_not_face_up() -> None:
    # docs/shuffle.md: below(n) picks a position in the ascending list of the cards not face
    # up in this game, the card there is taken out, then below(n - 1) in what is left, then
    # below(n - 2), from the chance event's own stream; the log writes the three ascending
    from kabucli.shuffle import chance_rng

    deals = 0
    for seed in range(1, 6):
        m = new_match(4, seed=seed, games=2)
        play_out(m)
        chances = 0
        face_up: set[int] = set()
        for ev in m.events:
            if isinstance(ev, Deal):
                rest = [c for c in range(48) if c not in face_up]
                rng = chance_rng(seed, chances)
                drawn = [rest.pop(rng.below(len(rest))) for _ in range(3)]
                assert ev.cards == sorted(drawn)
                deals += 1
            elif isinstance(ev, Reveal):
                face_up.update(ev.cards or [])
            elif isinstance(ev, GameEnd):
                face_up.clear()
            chances += ev.KIND == "chance"
    assert deals > 10


def test_seeded_laid_cards_are_hidden_from_the_seats() -> None:
    m = new_match(4, seed=7)
    assert GAME.view(m.state, 1)["laid"] == ["??", "??", "??"]
    assert GAME.view(m.state)["laid"] != ["??", "??", "??"]


# -- payouts ----------------------------------------------------------------------------------

def test_dealer_right_in_the_first_round_takes_the_whole_pot_and_ends_the_game() -> None:
    m = new_match(3)
    play(m, "deal", "guess 1 1 8", "bet", "bet", "bet", "stop", "reveal 1 1 8")
    assert of_type(m, Result) == [Result(1, 1, 1, True, 0)]
    assert of_type(m, Pay) == [Pay(0, 1, 6, "win")]
    assert of_type(m, GameEnd) == [GameEnd(1, 1, 0, 2)]
    assert balances(m) == [105, 98, 97]


def test_later_guesser_right_takes_the_pot_less_the_dealers_fifth_rounded_down() -> None:
    m = new_match(2)
    wrong_round(m)  # p1 bets 1, p2 bets 2
    play(m, "deal", "guess 7 8 9", "bet", "bet", "continue", "bet", "bet", "stop",
         "reveal 7 8 9")
    assert m.state.history[0]["winner"] == 2
    # pot 3 + 1 + 2 + 3 + 4 = 13: the dealer's share is 13 // 5 = 2, the guesser takes 11
    assert of_type(m, Pay) == [Pay(0, 2, 11, "win"), Pay(0, 1, 2, "dealer")]
    assert balances(m) == [100 - 1 - 2 - 4 + 2, 100 - 2 - 1 - 3 + 11]
    assert of_type(m, GameEnd)[0] == GameEnd(1, 2, 0, 2)


def test_no_winner_gives_the_dealer_a_fifth_and_carries_the_rest() -> None:
    m = new_match(3)
    for _ in range(3):
        wrong_round(m)  # 1 + 2 + 3 each round: pot 18
    assert of_type(m, Result)[-1] == Result(1, 3, 3, False, 0)
    assert of_type(m, Pay) == [Pay(0, 1, 3, "dealer")]
    assert of_type(m, GameEnd) == [GameEnd(1, 0, 15, 2)]
    assert m.state.ledger.pot == 15
    # the next game: p2 deals and guesses first, the pot is still there, all cards are back
    assert (m.state.game, m.state.dealer, m.state.guesser) == (2, 2, 2)
    assert m.state.left[1:] == [4] * 12 and m.state.table == []


def test_a_small_pot_gives_the_dealer_nothing_and_records_no_empty_payment() -> None:
    m = new_match(2)
    play(m, "deal", "guess 1 2 3", "bet", "pass", "reveal 4 5 6")
    play(m, "deal", "guess 1 2 3", "bet", "pass", "reveal 4 5 6")
    assert m.state.ledger.pot == 4 and not of_type(m, Pay)
    assert of_type(m, GameEnd)[0] == GameEnd(1, 0, 4, 2)


def test_a_later_guesser_right_on_a_pot_below_five_takes_it_all_and_the_dealer_nothing() -> None:
    m = new_match(2)
    play(m, "deal", "guess 1 2 3", "bet", "pass", "reveal 4 5 6")  # pot 2
    play(m, "deal", "guess 1 2 3", "bet", "pass", "reveal 3 2 1")  # pot 4, p2 right
    # the dealer's share is 4 // 5 = 0: no payment of 0 is recorded, the guesser takes 4
    assert of_type(m, Pay) == [Pay(0, 2, 4, "win")]
    assert m.state.ledger.pot == 0 and balances(m) == [100 - 1 - 1, 100 - 1 - 1 + 4]
    assert of_type(m, GameEnd)[0] == GameEnd(1, 2, 0, 2)


def test_a_carried_pot_goes_to_the_next_winner() -> None:
    m = new_match(2)
    wrong_round(m)
    wrong_round(m)  # pot 6, dealer p1 takes 1, 5 carried
    assert m.state.ledger.pot == 5
    play(m, "deal", "guess 1 2 3", "bet", "bet", "stop", "reveal 1 2 3")
    assert of_type(m, Pay)[-1] == Pay(0, 2, 8, "win")  # p2 deals game 2: the whole pot


def test_chips_may_go_negative() -> None:
    m = new_match(2, chips=0)
    play(m, "deal", "guess 1 2 3", "bet", "bet")
    assert balances(m) == [-1, -2]
    assert m.state.ledger.total() == 0


# -- passes and the right to guess ------------------------------------------------------------

def _passing_rounds(m: Match, seat: int, reveals: list[str]) -> None:
    """Wrong guesses of 1 2 3, one round for each of ``reveals``, where ``seat`` passes and
    everyone else bets."""
    for reveal in reveals:
        play(m, "deal", "guess 1 2 3")
        while m.state.phase == "bet":
            step(m, "pass" if m.state.bettor == seat else "bet")
        if m.state.phase == "decide":
            step(m, "stop")
        step(m, f"reveal {reveal}")


def _three_passes_by_p4(m: Match, rounds: int = 3) -> None:
    """Rounds where p4 passes and everyone else bets."""
    _passing_rounds(m, 4, [f"{4 + guess_round} 10 11" for guess_round in range(rounds)])


def test_a_pass_beyond_the_limit_costs_the_right_to_guess() -> None:
    m = new_match(4)
    _three_passes_by_p4(m)
    # p4's third pass in this game: p4 is skipped, nobody is left to guess
    assert of_type(m, Result)[-1] == Result(1, 3, 3, False, 0)
    assert of_type(m, GameEnd)[0].winner == 0
    assert [r.guesser for r in of_type(m, Result)] == [1, 2, 3]


def test_the_hint_warns_before_the_pass_that_loses_the_right() -> None:
    m = new_match(4)
    _three_passes_by_p4(m, rounds=1)
    play(m, "deal", "guess 1 2 3", "bet", "bet")
    assert "(1 of 2 passes used this game)" in hint(m.state, 4)
    play(m, "pass", "bet", "stop", "reveal 5 10 11", "deal", "guess 1 2 3", "bet")
    assert m.pending.seats == (4,)
    assert "another pass loses your turn as guesser" in hint(m.state, 4)


def test_the_prompt_says_the_passes_used_and_warns_before_the_pass_that_loses_the_right(
) -> None:
    """The play prompt (render.prompt_what) says how many passes the bettor has used, and
    before the pass that costs the right to guess, that it does (not only the hint, which a
    person sees after '?' or a refusal); the guesser, who cannot pass, is asked as before."""
    from kabucli import render

    m = new_match(4)
    assert render.prompt_what(GAME, m) == m.pending.what  # (no bet yet: the deal)
    _three_passes_by_p4(m, rounds=1)
    play(m, "deal", "guess 1 2 3")
    assert m.pending.seats == (m.state.guesser,)  # the guesser bets first: asked as before
    assert render.prompt_what(GAME, m) == m.pending.what == f"p{m.state.guesser} to bet 1"
    play(m, "bet", "bet")
    assert render.prompt_what(GAME, m) == "p4 to bet 3 or pass (1 of 2 passes used)"
    play(m, "pass", "bet", "stop", "reveal 5 10 11", "deal", "guess 1 2 3", "bet")
    assert render.prompt_what(GAME, m) == ("p4 to bet 2 or pass (a pass now loses the turn "
                                           "as guesser)")
    assert "you have passed 2 times of 2 this game" in hint(m.state, 4)


def test_passes_within_the_limit_keep_the_right_to_guess() -> None:
    m = new_match(4, pass_limit=3)
    _three_passes_by_p4(m)
    assert of_type(m, Result)[-1] == Result(1, 3, 3, False, 4)
    assert m.state.guesser == 4


def test_pass_limit_zero_makes_any_pass_cost_the_right_to_guess() -> None:
    m = new_match(3, pass_limit=0)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "pass", "stop", "reveal 4 5 6")
    assert of_type(m, Result)[-1] == Result(1, 1, 1, False, 2)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "stop", "reveal 4 5 6")
    assert of_type(m, Result)[-1] == Result(1, 2, 2, False, 0)  # p3 is skipped


def test_a_seat_that_lost_the_right_to_guess_is_skipped_and_the_next_one_guesses() -> None:
    # the next seat that still may guess: p2 passed three times in game 1, so after the
    # dealer's wrong guess the turn goes past p2 to p3, then p4
    m = new_match(4, pass_limit=0)
    play(m, "deal", "guess 1 2 3", "bet", "pass", "bet", "bet", "stop", "reveal 4 5 6")
    assert of_type(m, Result)[-1] == Result(1, 1, 1, False, 3)
    assert m.state.guesser == 3 and not m.state.may_guess(2)
    wrong_round(m)
    assert [r.guesser for r in of_type(m, Result)] == [1, 3]
    assert of_type(m, Result)[-1].next == 4


def test_passes_by_a_seat_that_already_guessed_cost_nobody_a_turn() -> None:
    # the dealer guessed first; its passes in the later rounds lose it nothing more, and
    # every other seat still guesses once
    m = new_match(4)
    wrong_round(m)
    _passing_rounds(m, 1, ["7 8 9", "10 11 12"])
    assert m.state.passes[1] == 2
    play(m, "deal", "guess 1 2 3", "bet", "pass", "bet", "bet", "stop")
    assert m.state.guesser == 4 and m.state.passes[1] == 3  # a third pass by p1
    step(m, "reveal 1 1 1")
    assert [r.guesser for r in of_type(m, Result)] == [1, 2, 3, 4]
    assert of_type(m, GameEnd) == [GameEnd(1, 0, m.state.ledger.pot, 2)]

def test_the_view_gives_the_amount_due_only_while_betting_and_the_seats_that_may_still_guess(
) -> None:
    # the state a bot is sent (docs/bots.md: next_amount, may_guess)
    m = new_match(4, pass_limit=0)
    play(m, "deal", "guess 1 2 3", "bet")
    view = GAME.view(m.state)
    assert (view["phase"], view["next_amount"]) == ("bet", 2)
    assert view["may_guess"] == ["p1", "p2", "p3", "p4"]
    play(m, "pass", "bet", "bet")  # p2's pass costs its turn; p3 bets 2, p4 bets 3
    view = GAME.view(m.state)
    assert (view["phase"], view["next_amount"]) == ("decide", None)
    assert view["may_guess"] == ["p1", "p3", "p4"]


def test_passes_are_counted_per_game() -> None:
    m = new_match(4)
    _three_passes_by_p4(m)
    assert m.state.game == 2 and m.state.passes[4] == 0 and m.state.may_guess(4)


# -- guessers, games and the match ---------------------------------------------------------------

def test_the_guess_passes_to_the_next_seat_after_a_wrong_guess() -> None:
    m = new_match(4)
    for _ in range(3):
        wrong_round(m)
    assert [r.next for r in of_type(m, Result)] == [2, 3, 4]
    assert m.pending.what == "p4 to lay three cards face down"


def test_a_seat_that_has_guessed_is_shown_as_having_guessed_for_the_rest_of_the_game() -> None:
    from kabucli.games.yatchaba import render

    m = new_match(4)
    wrong_round(m)
    wrong_round(m)
    shown = {seat["seat"]: seat["info"][2] for seat in render.scene(GAME, m)["seats"]}
    assert shown == {1: "guessed", 2: "guessed", 3: "guessing", 4: "may guess"}


def test_the_view_gives_the_dealer_of_the_game_and_the_guesser_of_the_round() -> None:
    m = new_match(4)
    wrong_round(m)
    view = GAME.view(m.state)
    assert (view["dealer"], view["guesser"], view["round"]) == (1, 2, 2)


def test_a_game_ends_when_everyone_who_may_guess_has_guessed() -> None:
    m = new_match(4)
    for _ in range(4):
        wrong_round(m)
    assert [r.next for r in of_type(m, Result)] == [2, 3, 4, 0]
    assert len(of_type(m, GameEnd)) == 1


def test_the_deal_passes_to_the_next_seat_for_each_game() -> None:
    m = new_match(3, games=4)
    dealers = []
    for _ in range(4):
        dealers.append(m.state.dealer)
        play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "stop", "reveal 1 2 3")
    assert dealers == [1, 2, 3, 1]
    assert [g.dealer for g in of_type(m, GameEnd)] == [2, 3, 1, 0]
    assert m.over


def test_a_match_has_one_game_per_player_by_default() -> None:
    assert new_match(5).state.games == 5
    assert new_match(5, games=2).state.games == 2


def test_the_match_ends_with_the_balances_and_the_pot_left() -> None:
    m = new_match(2, games=1)
    wrong_round(m)
    wrong_round(m)
    assert m.over
    end = m.events[-1]
    assert isinstance(end, End)
    assert end.balances == balances(m) and end.pot == m.state.ledger.pot == 5
    assert sum(end.balances) + end.pot == 200
    out = GAME.outcome(m.state)
    assert out is not None and out["games"][0]["winner"] is None and out["pot"] == 5


def test_the_outcome_gives_each_games_own_winner_or_none_and_its_rounds() -> None:
    m = new_match(2, games=2)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "stop", "reveal 1 2 3")  # p1 deals, right
    wrong_round(m)  # p2 deals, wrong
    wrong_round(m)  # p1 wrong: nobody right in game 2
    assert m.over
    assert [(g.game, g.winner) for g in of_type(m, GameEnd)] == [(1, 1), (2, 0)]
    out = GAME.outcome(m.state)
    assert out is not None
    assert [(g["dealer"], g["winner"], g["rounds"]) for g in out["games"]] == [
        ("p1", "p1", 1), ("p2", None, 2)]


def test_eight_guessers_never_run_the_deck_short() -> None:
    m = new_match(8, seed=3, games=1)
    play_out(m)
    laid = [c for d in of_type(m, Deal) for c in d.cards]
    assert len(laid) == len(set(laid)) == 3 * len(of_type(m, Result))
    assert len(of_type(m, Result)) <= 8


# -- what a referee types ---------------------------------------------------------------------

def test_seats_act_only_in_their_turn() -> None:
    m = new_match(4)
    play(m, "deal")
    assert refused(m, Guess(2, [1, 2, 3])).startswith("it is not p2's turn")
    play(m, "guess 1 2 3")
    assert refused(m, "p3 bet 2").startswith("it is not p3's turn")
    assert refused(m, Pass(1)) == ("p1 is the guesser, and the guesser cannot pass: "
                                   "type 'bet' (1 chip)")


def test_deal_must_name_the_round_it_belongs_to() -> None:
    m = new_match(4)
    reason = refused(m, Deal(1, 2, 2))
    assert reason.startswith("this is round 1 of game 1, laid by p1")


def test_the_guesser_lays_three_cards_face_down_a_deal_by_another_seat_is_refused() -> None:
    """A deal read from a log or built by a program names who lays it: the guesser of this
    round, and the cards it names are three (or none)."""
    m = new_match(4)
    reason = refused(m, Deal(1, 1, 2))
    assert reason == ("this is round 1 of game 1, laid by p1, not round 1 of game 1 laid "
                      "by p2")
    for cards in ([0, 4], [0, 4, 8, 12]):
        assert refused(m, Deal(1, 1, 1, cards)) == (
            f"the guesser lays 3 cards, not {len(cards)}: type 'deal' alone, or name all "
            "three")
    play(m, Deal(1, 1, 1, [0, 4, 8]), "guess 9 10 11", "bet", "bet", "bet", "bet", "stop",
         "reveal 1b 2a 3b")
    assert refused(m, Deal(1, 2, 1)).startswith("this is round 2 of game 1, laid by p2")
    step(m, Deal(1, 2, 2))


@pytest.mark.parametrize("text", [
    "guess 1 2", "guess 1 2 13", "guess 1 2 3 4", "guess 0 1 2", "0 1 2", "guess foo 1 2",
    "guess janx 1 2", "bet x", "reveal 1 2", "reveal 0 1 2", "reveal junk 1 2", "pass now",
    "fold"])
def test_malformed_moves_do_not_parse(text: str) -> None:
    m = new_match(3)
    play(m, "deal")
    with pytest.raises(ParseError):
        GAME.parse(m.state, text)


def test_months_may_be_typed_by_name_or_number() -> None:
    m = new_match(3)
    play(m, "deal")
    assert GAME.parse(m.state, "guess jan jan aug") == Guess(1, [1, 1, 8])
    assert GAME.parse(m.state, "guess January 1 August") == Guess(1, [1, 1, 8])
    assert GAME.parse(m.state, "8 1 1") == Guess(1, [1, 1, 8])
    assert GAME.parse(m.state, "p1 guess 12 11 10") == Guess(1, [10, 11, 12])


def test_reveal_may_mix_months_and_named_cards() -> None:
    m = new_match(3)
    ev = GAME.parse(m.state, "reveal 8 1b jan")
    assert ev == Reveal([1, 1, 8], [-1, 0, -1])
    assert GAME.notate(ev) == "reveal 1 1b 8"
    assert GAME.parse(m.state, "reveal 1 1 8") == Reveal([1, 1, 8])


def test_a_month_typed_by_name_takes_three_letters_at_least() -> None:
    """Two letters name no month ('ma' is March and May, 'ju' June and July): refused, in a
    guess and in a reveal; three letters are enough."""
    m = new_match(3)
    play(m, "deal")
    for text in ("guess ma 1 2", "guess 1 ju 2", "reveal ja 1 2"):
        with pytest.raises(ParseError, match=r"^.(ma|ju|ja). is not a "):
            GAME.parse(m.state, text)
    assert GAME.parse(m.state, "guess mar may jul") == Guess(1, [3, 5, 7])


def test_a_card_turned_over_is_typed_by_its_month_or_name_not_as_face_down() -> None:
    m = new_match(3)
    with pytest.raises(ParseError, match="a revealed card is face up: give its month or its "
                       "name"):
        GAME.parse(m.state, "reveal ?? 1 2")


@pytest.mark.parametrize("text", ["reveal 1 1", "reveal 1 1 8 9", "reveal 1b 1r 8a 9a"])
def test_a_reveal_names_three_cards_not_fewer_nor_more(text: str) -> None:
    m = new_match(3)
    n = len(text.split()) - 1
    with pytest.raises(ParseError) as info:
        GAME.parse(m.state, text)
    assert str(info.value) == ("three cards are turned over: type their months or names, e.g. "
                               f"'reveal 1 1 8' or 'reveal 1b 1r 8a', not {n}")


def test_a_deal_typed_as_three_face_down_cards_is_the_deal_alone() -> None:
    """'deal ?? ?? ??' (the laid cards as the table shows them) records what 'deal' does."""
    m = new_match(3)
    assert GAME.parse(m.state, "deal ?? ?? ??") == Deal(1, 1, 1)
    step(m, "deal ?? ?? ??")
    assert m.state.phase == "guess" and m.state.laid is None


def test_a_guess_typed_with_another_seat_is_that_seats_and_refused_out_of_turn() -> None:
    m = new_match(3)
    play(m, "deal")
    assert GAME.parse(m.state, "p2 guess 1 2 3") == Guess(2, [1, 2, 3])
    assert GAME.parse(m.state, "p2 3 2 1") == Guess(2, [1, 2, 3])
    assert refused(m, "p2 guess 1 2 3")
    step(m, "p1 guess 1 2 3")


def test_three_months_alone_are_a_guess_only_while_a_guess_is_awaited() -> None:
    """Typed without 'reveal' when the cards are turned over, months are no move: the
    refusal says what to type (not that a guess is out of its phase)."""
    m = new_match(3)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "stop")
    with pytest.raises(ParseError, match=r"^'1' is not a Yatchaba move: .*'reveal 1 1 8'"):
        GAME.parse(m.state, "1 1 8")


def test_a_bet_typed_takes_one_amount_or_none() -> None:
    m = new_match(3)
    play(m, "deal", "guess 1 2 3")
    due = m.state.next_amount()
    with pytest.raises(ParseError, match=f"^'bet' takes the amount alone .*'{due} 2'"):
        GAME.parse(m.state, f"bet {due} 2")
    assert GAME.parse(m.state, f"bet {due}") == Bet(1, due)


def test_continue_and_stop_take_nothing_after_them() -> None:
    m = new_match(3)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet")
    for text in ("stop now", "continue 5", "p3 stop 2"):
        with pytest.raises(ParseError, match="takes nothing after it"):
            GAME.parse(m.state, text)
    assert GAME.parse(m.state, "stop") == Stop(3)


def test_s_is_short_for_stop_and_c_and_more_for_continue() -> None:
    m = new_match(3)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet")
    assert [GAME.parse(m.state, w) for w in ("s", "S", "stop", "p3 s")] == [Stop(3)] * 4
    assert [GAME.parse(m.state, w) for w in ("c", "cont", "more", "continue")] == \
        [Continue(3)] * 4


def test_a_pass_takes_nothing_after_it_while_seats_bet() -> None:
    m = new_match(3)
    play(m, "deal", "guess 1 2 3", "bet")
    for text in ("pass now", "p2 pass 1"):
        with pytest.raises(ParseError, match=r"^'pass' takes nothing after it"):
            GAME.parse(m.state, text)
    assert GAME.parse(m.state, "pass") == Pass(2)


def test_a_move_typed_without_a_seat_outside_its_phase_is_nobodys() -> None:
    m = new_match(3)
    play(m, "deal")
    with pytest.raises(ParseError, match=r"^nobody may bet now: waiting for p1 to name"):
        GAME.parse(m.state, "bet")
    step(m, "guess 1 2 3")
    for verb in ("stop", "continue"):
        with pytest.raises(ParseError, match=f"^nobody may {verb} now: waiting for p1 to bet"):
            GAME.parse(m.state, verb)


def test_the_cards_turned_over_may_be_typed_after_reveal_turn_or_show() -> None:
    m = new_match(3)
    for verb in ("reveal", "turn", "show", "SHOW"):
        assert GAME.parse(m.state, f"{verb} 8 1b jan") == Reveal([1, 1, 8], [-1, 0, -1])


def test_commas_separate_the_words_of_a_typed_move() -> None:
    m = new_match(3)
    play(m, "deal")
    assert GAME.parse(m.state, "guess 1,1,8") == Guess(1, [1, 1, 8])
    assert GAME.parse(m.state, "jan, jan, aug") == Guess(1, [1, 1, 8])
    assert GAME.parse(m.state, "reveal 8,1b,jan") == Reveal([1, 1, 8], [-1, 0, -1])


def test_the_decider_cannot_bet_and_a_bettor_cannot_stop() -> None:
    m = new_match(4)
    play(m, "deal", "guess 1 2 3", "bet", "bet", "bet", "bet")
    assert refused(m, Bet(4, 5)) == "waiting for p4 to continue or stop, not for 'p4 bet 5'"
    step(m, "continue")
    assert refused(m, Stop(1)) == "waiting for p1 to bet 5, not for 'p1 stop'"


@pytest.mark.parametrize("text,event", [
    ("result game 1 round 2 p2 wrong next p3", Result(1, 2, 2, False, 3)),
    ("result game 1 round 3 p3 right next -", Result(1, 3, 3, True, 0)),
    ("pay pot p3 11 win", Pay(0, 3, 11, "win")),
    ("pay pot p1 2 dealer", Pay(0, 1, 2, "dealer")),
    ("gameend 1 winner - carry 14 deals p2", GameEnd(1, 0, 14, 2)),
    ("end games p1=98 p2=111 p3=97 p4=94 pot=0", End("games", [98, 111, 97, 94], 0)),
])
def test_the_engines_own_events_print_and_parse_back(text: str, event: Event) -> None:
    m = new_match(4)
    assert GAME.parse(m.state, text) == event
    assert GAME.notate(event) == text


@pytest.mark.parametrize(("text", "message"), [
    ("result game 1 round 2 p2 maybe next p3",
     "a result reads 'result game G round R pN right|wrong next pM|-', e.g. "
     "'result game 1 round 2 p2 wrong next p3'"),
    ("gameend 1 winner - chips 14 deals p2",
     "the end of a game reads 'gameend G winner pN|- carry CHIPS deals pM|-', e.g. "
     "'gameend 1 winner - carry 14 deals p2'"),
    # an amount that is no number: the shape of a bet, not the range of a number
    ("p2 bet x", "'bet' takes the amount alone (or nothing), not 'x'"),
])
def test_an_events_words_are_read_not_passed_over(text: str, message: str) -> None:
    """A result's verdict is 'right' or 'wrong' (nothing else is read as wrong), a game's
    end names its carry, and a bet's amount is digits."""
    with pytest.raises(ParseError) as info:
        GAME.parse(new_match(4).state, text)
    assert str(info.value) == message


def test_four_players_by_default_when_no_seat_count_is_given() -> None:
    """Rules page, Cards, players, chips: "2 to 8 players (4 by default; the text recommends
    4 to 6)"."""
    from kabucli import games
    from kabucli.session import build_seats

    game = games.get("yatchaba")
    assert len(build_seats(game, None, [], [])) == 4
    assert len(build_seats(game, None, [], ["all=smart"])) == 4
    assert len(build_seats(game, None, ["1=Ann"], [])) == 4  # one named seat: still four


@pytest.mark.parametrize("n", [2, 8])
def test_two_to_eight_players_may_play(n: int) -> None:
    """RULINGS: players 4-6 (2-8 allowed). A table of 2 or of 8 is dealt and the dealer
    guesses first."""
    m = new_match(n)
    assert m.nseats == n and (m.state.dealer, m.state.guesser) == (1, 1)
    assert m.pending.what == "p1 to lay three cards face down"


@pytest.mark.parametrize("n", [1, 9])
def test_one_or_nine_players_are_refused(n: int) -> None:
    with pytest.raises(KabuError, match=f"takes 2-8 players, the log has {n}"):
        new_match(n)
