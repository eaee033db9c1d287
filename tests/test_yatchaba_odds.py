"""Yatchaba odds: the exact chance that a guess is right given the cards face up, checked
against a brute-force count of every set of three cards that could be face down."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

from hypothesis import given, settings, strategies as st

from kabucli.cards import HANAFUDA_48, month_of
from kabucli.engine import Match, make_header
from kabucli.games.yatchaba.bots import best_guess
from kabucli.games.yatchaba.rules import (
    GAME,
    GUESSES,
    YatchabaRules,
    best_guesses,
    draws,
    probability,
    ways,
)
from kabucli.games.yatchaba.text import command, odds_text
from kabucli.log import SeatInfo

ALL_CARDS = list(range(HANAFUDA_48.size))


def left_after(face_up: list[int]) -> list[int]:
    left = [0] + [4] * 12
    for c in face_up:
        left[month_of(c)] -= 1
    return left


def brute_force(face_up: list[int]) -> tuple[Counter[tuple[int, ...]], int]:
    """How many 3-card sets from the cards not face up show each multiset of months."""
    unseen = [c for c in ALL_CARDS if c not in set(face_up)]
    tally: Counter[tuple[int, ...]] = Counter()
    total = 0
    for trio in combinations(unseen, 3):
        tally[tuple(sorted(month_of(c) for c in trio))] += 1
        total += 1
    return tally, total


face_ups = st.lists(st.sampled_from(ALL_CARDS), unique=True, max_size=27)


@settings(max_examples=40, deadline=None)
@given(face_ups)
def test_odds_equal_a_brute_force_count_for_every_guess(face_up: list[int]) -> None:
    tally, total = brute_force(face_up)
    left = left_after(face_up)
    assert draws(left) == total == comb(48 - len(face_up), 3)
    for guess in GUESSES:
        assert ways(left, guess) == tally[guess], (face_up, guess)
        assert probability(left, guess) == Fraction(tally[guess], total)


@settings(max_examples=40, deadline=None)
@given(face_ups)
def test_the_chances_of_all_guesses_add_up_to_one(face_up: list[int]) -> None:
    left = left_after(face_up)
    assert sum(probability(left, g) for g in GUESSES) == 1


@settings(max_examples=60, deadline=None)
@given(face_ups, st.integers(0, 11))
def test_the_best_guess_is_a_most_likely_multiset(face_up: list[int], offset: int) -> None:
    left = left_after(face_up)
    top, tops = best_guesses(left)
    value, guess = best_guess(left, offset)
    assert value == top and tuple(guess) in tops


def test_odds_of_the_first_guess_on_a_full_deck() -> None:
    full = [0] + [4] * 12
    assert probability(full, (1, 2, 3)) == Fraction(64, 17296)
    assert probability(full, (1, 1, 8)) == Fraction(6 * 4, 17296)
    assert probability(full, (5, 5, 5)) == Fraction(4, 17296)


def test_the_game_shows_the_odds_of_the_current_guess_given_the_face_up_months() -> None:
    seats = [SeatInfo(f"P{i}") for i in range(1, 4)]
    m = Match(GAME, make_header(GAME, YatchabaRules(), seats, None))
    m.advance()
    for move in ("deal", "guess 9 10 11", "bet", "bet", "bet", "stop", "reveal 1 1 8",
                 "deal", "guess 1 1 8"):
        m.submit(GAME.parse(m.state, move))
        m.advance()
    # 45 cards not face up: 2 Januaries, 3 Augusts
    expected = Fraction(comb(2, 2) * 3, comb(45, 3))
    assert GAME.odds(m.state) == expected
    assert GAME.odds(m.state, [8, 1, 1]) == expected
    assert GAME.odds(m.state, [1, 1, 1]) == 0
    assert GAME.view(m.state)["odds"] == str(expected)
    text = odds_text(m.state)
    assert text.startswith(f"guess Jan Jan Aug: {expected.numerator}/{expected.denominator}")
    assert "best guess" in text


def test_the_odds_command_answers_for_the_current_guess_or_any_months() -> None:
    seats = [SeatInfo(f"P{i}") for i in range(1, 4)]
    m = Match(GAME, make_header(GAME, YatchabaRules(), seats, None))
    m.advance()
    assert command(m.state, "bet") is None
    assert command(m.state, "odds").startswith("best guess Jan Feb Mar: 4/1081 (0.370%")
    for move in ("deal", "guess 1 1 8"):
        m.submit(GAME.parse(m.state, move))
    assert command(m.state, "odds").startswith("guess Jan Jan Aug: 3/2162 (0.139%, 1 in 721)")
    assert command(m.state, "odds 5 5 5").startswith("guess May May May: 1/4324 (")
    assert "not a month" in (command(m.state, "odds 5 5 x") or "")


def test_after_the_reveal_the_view_keeps_the_odds_the_guess_had_when_it_was_made() -> None:
    # The odds of a guess are those of the cards face down, given the cards face up before
    # they were turned over; the three revealed cards are not taken out again.
    seats = [SeatInfo(f"P{i}") for i in range(1, 4)]
    m = Match(GAME, make_header(GAME, YatchabaRules(), seats, None))
    m.advance()
    for move in ("deal", "guess 5 6 7", "bet", "bet", "bet", "stop"):
        m.submit(GAME.parse(m.state, move))
        m.advance()
    before = GAME.view(m.state)["odds"]
    assert before == str(Fraction(64, comb(48, 3))) == "4/1081"
    m.submit(GAME.parse(m.state, "reveal 4c2 7c2 11c"))  # the result is not derived yet
    view = GAME.view(m.state)
    assert view["phase"] == "result" and view["guess"] == [5, 6, 7]
    assert view["odds"] == before  # not 4·4·3 / C(45, 3) = 8/2365
    m.advance()  # the next round: a new guess, odds given the 3 cards now face up
    for move in ("deal", "guess 5 6 7"):
        m.submit(GAME.parse(m.state, move))
    assert GAME.view(m.state)["odds"] == str(Fraction(4 * 4 * 3, comb(45, 3)))
