"""Kabu-Tsukuri, clause by clause: the rules and the decisions of docs/rules/kabu-tsukuri.md.
Each test drives the engine through ``Match``: seeded tables where hands must be known,
physical ones (the referee types bets and rows) where a row's cards must be chosen."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise, permutations
from typing import Any

import pytest
from matchtools import play, refused, since

from kabucli.cards import HANAFUDA_MONTHS
from kabucli.engine import Match, check_header, make_header
from kabucli.errors import KabuError, ParseError
from kabucli.events import End
from kabucli.games.kabu_tsukuri.rules import (
    GAME,
    Arrange,
    Bet,
    Deal,
    KabuRules,
    Result,
    Stakes,
    Turn,
    hand_size,
    strength,
)
from kabucli.games.kabu_tsukuri.text import row_name
from kabucli.log import SeatInfo
from kabucli.rules import build

# -- helpers ---------------------------------------------------------------------------------


def new_match(n: int = 3, seed: int | None = None, **rules: Any) -> Match:
    seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
    match = Match(GAME, make_header(GAME, KabuRules(**rules), seats, seed))
    match.advance()
    return match


def lay_in_order(m: Match) -> None:
    """Every seat lays its hand as dealt (sorted): rows of the first nine, the tenth aside;
    the hand then plays out to the next one's arranging (or the end)."""
    for _ in range(m.nseats):
        seat = m.pending.seats[0]
        cards = m.state.cards[seat]
        m.submit(Arrange(seat, [cards[0:3], cards[3:6], cards[6:9]], cards[9:]))
        m.advance()


def physical_row(m: Match, rows: list[str]) -> None:
    """At a real table: everyone bets, then turns over ``rows`` (one per seat, turn order)."""
    for _ in range(m.nseats):
        play(m, "bet")
    for row in rows:
        play(m, f"show {row}")


def results(m: Match) -> list[Result]:
    return [e for e in m.events if isinstance(e, Result)]


def beats(stronger: tuple[int, ...], weaker: tuple[int, ...], ranking: str = "extended") -> bool:
    return strength(stronger, ranking) > strength(weaker, ranking)


def ties(a: tuple[int, ...], b: tuple[int, ...], ranking: str = "extended") -> bool:
    return strength(a, ranking) == strength(b, ranking)


# -- cards and players ------------------------------------------------------------------------

def test_the_deck_is_48_hanafuda_cards_counted_by_month() -> None:
    assert GAME.deck is HANAFUDA_MONTHS
    assert Counter(HANAFUDA_MONTHS.cards()) == dict.fromkeys(range(1, 13), 4)
    assert HANAFUDA_MONTHS.size == 48


@pytest.mark.parametrize("month", range(1, 13))
def test_a_card_is_typed_as_its_month(month: int) -> None:
    assert HANAFUDA_MONTHS.parse(str(month)) == month
    assert HANAFUDA_MONTHS.token(month) == str(month)


@pytest.mark.parametrize(("token", "month"), [("1b", 1), ("3r", 3), ("11a", 11), ("12c3", 12),
                                              ("8B", 8)])
def test_a_named_hanafuda_card_is_refused_with_its_month_to_type(token: str, month: int) -> None:
    """Kabu-Tsukuri keeps months only, so it cannot keep a named card's identity: a named card
    is refused in one line that says what to type instead (a row, an arrangement, the solver)."""
    with pytest.raises(KabuError, match="not a card of the hanafuda"):
        HANAFUDA_MONTHS.parse(token)
    said = f"'{token}': Kabu-Tsukuri counts cards by month only, so a card is typed as its " \
           f"month ('{month}' for {token})"
    m = physical_match(2)
    play(m, "bet", "bet")
    for move in (f"show {token}-2-3", f"p2 shows 5-5-{token}"):
        with pytest.raises(ParseError) as info:
            GAME.parse(m.state, move)
        assert str(info.value) == said
    m = new_match(2, seed=3)
    with pytest.raises(ParseError, match=f"'{month}' for {token}"):
        GAME.parse(m.state, f"rows {token}-2-3 4-5-6 7-8-9 aside 10")
    with pytest.raises(ParseError, match=f"'{month}' for {token}"):
        GAME.solve(KabuRules(), [token, "2", "3", "4", "5", "6", "7", "8", "9", "10"], 4, 1)


@pytest.mark.parametrize("word", ["-1-2-3", "1-2-3-", "1--2-3", "1-2,-3", "1,2,,3"])
def test_a_row_with_a_stray_dash_or_comma_is_refused_not_read_without_it(word: str) -> None:
    """A row is three months joined by '-': '-1-2-3' is no row 1-2-3 (the '-' before 1 read as
    nothing, '-1' taken for 1), and '1--2-3' has a card missing between the dashes."""
    m = physical_match(2)
    play(m, "bet", "bet")
    with pytest.raises(ParseError, match=f"'{word}'.*joined by '-'"):
        GAME.parse(m.state, f"show {word}")
    m = new_match(2, seed=3)
    with pytest.raises(ParseError, match="joined by '-'"):
        GAME.parse(m.state, f"rows {word} 4-5-6 7-8-9 aside 10")
    assert GAME.parse(m.state, "rows 1-2-3 4-5-6 7-8-9 aside 10") is not None


def test_a_row_laid_of_two_cards_is_refused_naming_that_row() -> None:
    """A row laid short ('1-2') is refused while reading, naming the row, not left to the
    count of the whole arrangement."""
    m = new_match(2, seed=3)
    with pytest.raises(ParseError, match=r"^'1-2' is not a row of three cards joined by '-'"):
        GAME.parse(m.state, "rows 1-2 4-5-6 7-8-9-3 aside 10")


def test_a_row_laid_of_four_cards_is_refused_naming_that_row() -> None:
    """A row laid long ('1-2-3-4') is refused while reading, naming the row, as a short one
    is (not read and left to the engine's count of the whole arrangement)."""
    m = new_match(2, seed=3)
    with pytest.raises(ParseError, match=r"^'1-2-3-4' is not a row of three cards"):
        GAME.parse(m.state, "rows 1-2-3-4 5-6-7 8-9-10")


def test_an_arrangement_of_four_rows_is_refused_while_reading() -> None:
    m = new_match(2, seed=3)
    with pytest.raises(ParseError, match=r"^an arrangement is 3 rows like .*got 4 words"):
        GAME.parse(m.state, "rows 1-2-3 4-5-6 7-8-9 10-11-12")


def test_aside_with_no_card_after_it_is_refused_saying_what_it_needs() -> None:
    """'aside' names the card set aside: typed with nothing after it, it is refused while
    reading, with 9 cards (no card is set aside) as with 10, not read as no 'aside' at all."""
    for n, seed in ((5, 3), (2, 3)):
        m = new_match(n, seed=seed)
        with pytest.raises(ParseError, match="'aside' needs the card set aside after it"):
            GAME.parse(m.state, "rows 1-2-3 4-5-6 7-8-9 aside")


def test_a_turn_line_names_one_of_the_three_rows() -> None:
    """A hand has three rows: a turn line of row 4 (or 0) is refused while reading."""
    m = new_match(2, seed=3)
    for row in (0, 4):
        with pytest.raises(ParseError, match="row"):
            GAME.parse(m.state, f"turn row {row} | p1 1-2-3 | p2 4-5-6")
    assert GAME.parse(m.state, "turn row 3 | p1 1-2-3 | p2 4-5-6") == Turn(
        3, [[1, 2, 3], [4, 5, 6]])


def test_a_deal_line_lists_the_hands_after_a_bar_in_seat_order() -> None:
    """A seeded deal reads 'deal | p1 CARDS | p2 CARDS | rest CARDS': cards before the first
    '|' are refused, saying how a deal reads; hands labelled out of seat order are refused."""
    m = new_match(2, seed=3)
    with pytest.raises(ParseError, match=r"^a deal reads 'deal' or 'deal \| p1 CARDS"):
        GAME.parse(m.state, "deal 1-1-2-2-3-3-4-4-5-5")
    with pytest.raises(ParseError, match=r"^hand 1 of the deal is labelled p2: give the hands "
                                         r"in seat order, p1 to p2"):
        GAME.parse(m.state, "deal | p2 1-1-2-2-3-3-4-4-5-5 | p1 6-6-7-7-8-8-9-9-10-10 | rest 11")


def test_a_deal_line_reads_rest_in_any_case_and_refuses_a_hand_labelled_with_an_earlier_seat(
        ) -> None:
    m = new_match(2, seed=3)
    hands = "| p1 1-1-2-2-3-3-4-4-5-5 | p2 6-6-7-7-8-8-9-9-10-10"
    assert GAME.parse(m.state, f"deal {hands} | REST 11") == GAME.parse(
        m.state, f"deal {hands} | rest 11")
    with pytest.raises(ParseError, match=r"^hand 2 of the deal is labelled p1: give the hands "
                                         r"in seat order"):
        GAME.parse(m.state, "deal | 1-1-2-2-3-3-4-4-5-5 | p1 6-6-7-7-8-8-9-9-10-10 | rest 11")


def test_a_turn_line_refuses_a_row_labelled_with_an_earlier_seat_or_a_word_after_the_row(
        ) -> None:
    m = new_match(2, seed=3)
    with pytest.raises(ParseError, match=r"^row 2 of the turn is labelled p1: give the rows in "
                                         r"seat order"):
        GAME.parse(m.state, "turn row 1 | 1-2-3 | p1 4-5-6")
    with pytest.raises(ParseError, match=r"^a turn reads 'turn row N \| p1 A-B-C"):
        GAME.parse(m.state, "turn row 1 2 | p1 1-2-3 | p2 4-5-6")


@pytest.mark.parametrize("line", ["stakes row 1 2 each 3", "stakes row 1 2 bananas",
                                  "result hands 1 row 2 p1 takes 8",
                                  "result hand 1 rows 2 p1 takes 8",
                                  "result hand 1 row 2 p1 gets 8",
                                  "result hand 1 row 2 tie p1,p2 takes 8"])
def test_the_referees_stakes_and_result_lines_read_only_as_the_rules_page_writes_them(
        line: str) -> None:
    """docs/rules/kabu-tsukuri.md: 'stakes row 1 1 each', 'result hand 1 row 2 p3 takes 8',
    'result hand 1 row 3 tie p1,p3 carries 8'; any other word in their places is refused."""
    m = new_match(2, seed=3)
    with pytest.raises(ParseError, match=r"^(the bets|a result) read"):
        GAME.parse(m.state, line)
    assert GAME.parse(m.state, "stakes row 1 2 each") == Stakes(1, 2)
    assert GAME.parse(m.state, "result hand 1 row 2 tie p1,p2 carries 8") == Result(
        1, 2, [1, 2], 8)


@pytest.mark.parametrize("token", ["A", "J", "Q", "K", "a", "j", "q"])
def test_a_52_card_deck_without_kings_is_typed_as_numbers_a_j_q_are_not_read(token: str) -> None:
    """Rules page, Cards: a 52-card deck without its Kings plays the same way "(Ace = 1, Jack
    = 11, Queen = 12), typed as those numbers: A, J and Q are not read"."""
    with pytest.raises(KabuError, match="not a card of the hanafuda"):
        HANAFUDA_MONTHS.parse(token)
    assert [HANAFUDA_MONTHS.parse(t) for t in ("1", "11", "12")] == [1, 11, 12]
    m = physical_match(2)
    play(m, "bet", "bet")
    with pytest.raises(ParseError):
        GAME.parse(m.state, f"show {token}-2-3")


@pytest.mark.parametrize("n", [1, 6])
def test_two_to_five_players(n: int) -> None:
    seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
    with pytest.raises(KabuError, match="takes 2-5 players"):
        check_header(GAME, make_header(GAME, KabuRules(), seats, 1))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_two_to_four_players_are_dealt_ten_cards_each(n: int) -> None:
    m = new_match(n, seed=5)
    deal = m.events[0]
    assert isinstance(deal, Deal) and deal.hands is not None
    assert [len(h) for h in deal.hands] == [10] * n
    assert hand_size(n) == 10


def test_five_players_are_dealt_nine_cards_each() -> None:
    m = new_match(5, seed=5)
    deal = m.events[0]
    assert isinstance(deal, Deal) and deal.hands is not None
    assert [len(h) for h in deal.hands] == [9] * 5


@pytest.mark.parametrize("n", [2, 5])
def test_the_remaining_cards_are_not_used_and_all_48_are_accounted_for(n: int) -> None:
    m = new_match(n, seed=9)
    deal = m.events[0]
    assert isinstance(deal, Deal) and deal.hands is not None and deal.rest is not None
    assert len(deal.rest) == 48 - n * hand_size(n)
    assert Counter(deal.rest + [c for h in deal.hands for c in h]) == dict.fromkeys(
        range(1, 13), 4)


def test_p1_deals_first_and_rows_are_laid_from_the_dealers_next_seat() -> None:
    m = new_match(3, seed=1)
    deal = m.events[0]
    assert isinstance(deal, Deal) and deal.dealer == 1
    assert m.pending.seats == (2,)
    lay_in_order(m)
    assert [e.seat for e in m.events if isinstance(e, Arrange)] == [2, 3, 1]


def test_a_seeded_deal_that_is_not_the_seeds_is_refused() -> None:
    m = new_match(2, seed=1)
    m2 = Match(GAME, m.header)
    deal = m.events[0]
    assert isinstance(deal, Deal) and deal.hands is not None
    swapped = Deal(1, 1, [deal.hands[1], deal.hands[0]], deal.rest)
    assert "the seed deals" in (m2.why_not(swapped) or "")



def test_physical_the_deal_is_the_dealers_a_deal_by_another_seat_is_refused() -> None:
    """p1 deals the first hand (the deal then passes): a deal recorded as another seat's is
    refused, as is one of another hand."""
    m = new_match(3)
    assert refused(m, Deal(1, 2)) == "this is the deal of hand 1 by p1, not of hand 1 by p2"
    assert refused(m, Deal(2, 1)) == "this is the deal of hand 1 by p1, not of hand 2 by p1"
    play(m, "deal")
    assert m.events == [Deal(1, 1)]

# -- arranging ---------------------------------------------------------------------------------

def test_with_ten_cards_one_card_is_set_aside() -> None:
    m = new_match(2, seed=3)
    cards = m.state.cards[2]
    assert "one is set aside" in refused(m, Arrange(2, [cards[0:3], cards[3:6], cards[6:9]]))
    play(m, Arrange(2, [cards[0:3], cards[3:6], cards[6:9]], cards[9:]))
    assert m.state.aside[2] == cards[9:]


def test_with_nine_cards_no_card_is_set_aside() -> None:
    m = new_match(5, seed=3)
    seat = m.pending.seats[0]
    cards = m.state.cards[seat]
    assert "none is set aside" in refused(
        m, Arrange(seat, [cards[0:3], cards[3:6], [cards[6], cards[7], cards[8]]], [cards[0]]))
    play(m, Arrange(seat, [cards[0:3], cards[3:6], cards[6:9]]))


@pytest.mark.parametrize("pick", [0, 4, 9])
def test_the_card_set_aside_is_the_players_choice_and_never_shown(pick: int) -> None:
    """RULINGS: with ten cards a player sets one aside face down, the one they choose; it
    plays no part and no other seat sees it, even once every row is turned over."""
    m = new_match(2, seed=3, hands=2)
    for seat in (2, 1):
        cards = list(m.state.cards[seat])
        aside = [cards.pop(pick)]
        m.submit(Arrange(seat, [cards[0:3], cards[3:6], cards[6:9]], aside))
        assert m.state.aside[seat] == aside
    for _ in range(8):  # three rounds of stakes, turn and result, less row 3's result
        ev = m.expected()
        assert ev is not None
        m.submit(ev)
    assert [len(r) for r in m.state.shown[2]] == [3, 3, 3]
    assert "p2" not in GAME.view(m.state, 1)["aside"]
    assert GAME.view(m.state, 2)["aside"] == {"p2": [str(m.state.aside[2][0])]}


def test_the_order_within_a_row_is_the_players_and_turns_over_as_laid() -> None:
    """RULINGS: the order within a row is the player's (it makes Nobori and Kudari): each row
    turns over exactly as laid, not sorted, and is judged in that order."""
    m = new_match(2, seed=3, hands=1)
    laid = {}
    for seat in (2, 1):
        c = m.state.cards[seat]
        laid[seat] = [c[2::-1], c[5:2:-1], c[8:5:-1]]  # each row high to low
        play(m, Arrange(seat, laid[seat], c[9:]))
    turns = [e for e in m.events if isinstance(e, Turn)]
    assert [t.rows for t in turns] == [[laid[1][r], laid[2][r]] for r in range(3)]
    assert any(t.rows[0] != sorted(t.rows[0]) for t in turns)
    for turn, result in zip(turns, results(m), strict=True):
        assert sorted(result.best) == best(turn, "extended")


def test_a_row_turned_over_is_judged_and_named_in_its_laid_order_not_reversed() -> None:
    """Nobori rises and Kudari falls *as laid*: p2's 5-6-7 (Nobori, 8) beats p1's 9-8-7
    (Kudari, 4); read the other way round, 7-8-9 would be Nobori and win. The table names
    each row turned over as laid too."""
    m = physical_match(2)
    physical_row(m, ["5-6-7", "9-8-7"])  # p1 deals: p2 turns over first
    assert results(m)[-1] == Result(1, 1, [2], 2)
    m = physical_match(2)
    play(m, "bet")
    play(m, "bet")
    play(m, "show 5-6-7")
    play(m, "show 9-8-7")
    m.advance()
    names = GAME.view(m.state)["names"]
    assert names["p2"][0] == "Nobori, Oicho (8)" and names["p1"][0] == "Kudari, Yotsuya (4)"


def test_rows_are_three_rows_of_three_cards() -> None:
    m = new_match(2, seed=3)
    c = m.state.cards[2]
    assert "3 rows of 3 cards" in refused(m, Arrange(2, [c[0:4], c[4:6], c[6:9]], c[9:]))
    assert "3 rows of 3 cards" in refused(m, Arrange(2, [c[0:3], c[3:6]], c[6:7]))
    # the third row too: four cards there and none aside is not three rows of three
    assert "3 rows of 3 cards" in refused(m, Arrange(2, [c[0:3], c[3:6], c[6:10]], []))


def test_rows_are_the_players_own_cards() -> None:
    m = new_match(2, seed=3)
    mine, theirs = m.state.cards[2], m.state.cards[1]
    other = [theirs[0], *mine[1:]]
    if Counter(other) == Counter(mine):  # the same month: take one the seat lacks
        other = [next(x for x in range(1, 13) if x not in mine), *mine[1:]]
    assert "p2's hand is" in refused(m, Arrange(2, [other[0:3], other[3:6], other[6:9]],
                                                other[9:]))


def test_rows_are_laid_in_turn_and_only_by_the_seat_on_turn() -> None:
    m = new_match(3, seed=3)
    c = m.state.cards[3]
    reason = m.why_not(Arrange(3, [c[0:3], c[3:6], c[6:9]], c[9:]))
    assert reason is not None and "not p3's turn" in reason


def test_the_arrangement_is_secret_until_each_row_is_turned_over() -> None:
    m = new_match(2, seed=4)
    for seat in (2, 1):
        c = m.state.cards[seat]
        m.submit(Arrange(seat, [c[0:3], c[3:6], c[6:9]], c[9:]))
    before = GAME.view(m.state, 1)
    assert before["rows"]["p2"] == "face down"
    assert before["cards"]["p2"] == 10
    assert "p2" not in before["aside"]
    assert before["rows"]["p1"] == [[HANAFUDA_MONTHS.token(x) for x in r]
                                    for r in m.state.rows[1]]
    for _ in range(2):  # the bets, and row 1 turned over
        ev = m.expected()
        assert ev is not None
        m.submit(ev)
    after = GAME.view(m.state, 1)
    row1 = m.state.rows[2][0]
    assert after["shown"]["p2"] == [[HANAFUDA_MONTHS.token(x) for x in row1]]
    assert after["rows"]["p2"] == "face down"
    assert GAME.view(m.state)["rows"]["p2"] == [[HANAFUDA_MONTHS.token(x) for x in r]
                                               for r in m.state.rows[2]]


def test_an_arrangement_is_hidden_from_every_seat_but_its_own() -> None:
    """What a replay as one seat leaves out (Game.hidden_from): another seat's rows and card
    set aside, and chance events as in every game; bets and results are public."""
    arrange = Arrange(3, [[1, 2, 3], [4, 5, 6], [7, 8, 9]], [10])
    assert [GAME.hidden_from(arrange, seat) for seat in (1, 2, 3)] == [True, True, False]
    assert GAME.hidden_from(Deal(1, 1, [[1] * 10] * 3, [2] * 18), 3)
    assert not GAME.hidden_from(Stakes(1, 1), 1)
    assert not GAME.hidden_from(Result(1, 1, [3], 3), 1)
    assert not GAME.hidden_from(GAME.parse(new_match(3).state, "p2 bets"), 1)


def test_a_row_turned_over_is_seen_by_every_seat() -> None:
    """Rules page, "Secret rows": another seat's row is shown once turned over, at a real
    table (one seat's row shown) as in a seeded game (a row turned over at every seat)."""
    m = physical_match(3)
    play(m, "bet", "bet", "bet")
    show = GAME.parse(m.state, "p2 shows 5-6-7")
    assert [GAME.hidden_from(show, seat) for seat in (1, 2, 3)] == [False, False, False]
    turn = Turn(1, [[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    assert [GAME.hidden_from(turn, seat) for seat in (1, 2, 3)] == [False, False, False]


def test_each_row_turns_over_in_its_round() -> None:
    m = new_match(2, seed=4, hands=1)
    lay_in_order(m)
    turns = [e for e in m.events if isinstance(e, Turn)]
    assert [t.row for t in turns] == [1, 2, 3]
    for r, turn in enumerate(turns):
        assert turn.rows == [m.state.rows[1][r], m.state.rows[2][r]]


# -- betting and the pot ---------------------------------------------------------------------

def test_rows_are_laid_before_any_bet_a_bet_while_rows_are_laid_is_refused() -> None:
    """Each player arranges their rows, then places the bet: in a seeded game the seat
    laying its rows cannot bet instead."""
    m = new_match(2, seed=3)
    assert m.pending.seats == (2,)
    assert refused(m, Bet(2)) == "no bet is due now (waiting for p2 to lay three rows)"

def test_every_player_bets_on_every_row() -> None:
    m = new_match(3, seed=4, bet=2)
    lay_in_order(m)
    stakes = [e for e in m.events if isinstance(e, Stakes)]
    assert [(s.row, s.amount) for s in stakes[:3]] == [(1, 2), (2, 2), (3, 2)]


def test_in_a_seeded_game_every_seat_pays_the_bet_into_the_pot_for_every_row() -> None:
    """RULINGS: "everyone pays `bet` into the pot" each round. A seeded hand of three at bet
    2 (no ties): each row's pot is 3 x 2, and each seat ends 3 x 2 down plus what it took."""
    m = new_match(3, seed=4, bet=2, hands=1, chips=50)
    lay_in_order(m)
    res = results(m)
    assert len(res) == 3 and all(len(r.best) == 1 for r in res)
    assert [r.amount for r in res] == [6, 6, 6]
    won = {p: sum(r.amount for r in res if r.best == [p]) for p in (1, 2, 3)}
    assert m.state.ledger.balances[1:] == [50 - 6 + won[p] for p in (1, 2, 3)]
    assert m.state.ledger.pot == 0


def test_the_strongest_row_takes_the_pot() -> None:
    m = physical_match(3)
    physical_row(m, ["5-6-7", "1-10-10", "9-9-9"])  # p2 Nobori, p3 Doshippin, p1 Arashi
    assert results(m)[-1] == Result(1, 1, [3], 3)
    assert m.state.ledger.balances == [0, 49, 49, 52]


def test_a_tie_for_strongest_carries_the_pot_to_the_next_row() -> None:
    m = physical_match(3)
    physical_row(m, ["1-1-1", "9-9-9", "5-6-7"])  # two Arashi tie
    assert results(m)[-1] == Result(1, 1, [2, 3], 3)
    assert m.state.ledger.pot == 3 and m.state.carried == 3
    physical_row(m, ["2-3-4", "5-5-9", "6-6-8"])  # p2's Nobori takes both rows' bets
    assert results(m)[-1] == Result(1, 2, [2], 6)
    assert m.state.ledger.balances == [0, 48, 54, 48]


def test_a_row_3_tie_carries_the_pot_into_the_next_hand() -> None:
    m = physical_match(2, hands=2)
    physical_row(m, ["1-2-6", "4-4-5"])  # p2 9 against p1 3
    physical_row(m, ["1-2-7", "4-4-6"])  # 0 against 4
    physical_row(m, ["3-5-11", "2-8-9"])  # 9 and 9: the pot of 2 carries into hand 2
    assert results(m)[-1] == Result(1, 3, [2, 1], 2)
    assert m.state.hand == 2 and m.state.ledger.pot == 2
    play(m, "deal")
    physical_row(m, ["1-1-7", "2-2-2"])  # hand 2 (p2 deals, p1 first): p2's Arashi takes
    assert results(m)[-1] == Result(2, 1, [2], 4)  # the 2 carried and the 2 bets


def test_a_row_2_tie_carries_the_pot_to_row_3() -> None:
    """Seed: "In the case of a draw, the pot for the second row carries over to the third
    row." Three seats, bet 2: row 2 ties three ways, row 3's winner takes both rows' bets."""
    m = physical_match(3, bet=2)
    physical_row(m, ["1-2-6", "4-4-5", "2-2-3"])  # p2's Kabu (9) takes row 1
    assert results(m)[-1] == Result(1, 1, [2], 6)
    physical_row(m, ["1-3-5", "2-8-9", "4-6-9"])  # 9, 9, 9: a three-way tie
    assert results(m)[-1] == Result(1, 2, [2, 3, 1], 6)
    assert m.state.ledger.pot == 6 and m.state.carried == 6 and m.state.row == 3
    physical_row(m, ["10-10-1", "5-6-7", "7-7-8"])  # p2's Doshippin
    assert results(m)[-1] == Result(1, 3, [2], 12)  # row 2's 6 and row 3's 6
    assert m.state.ledger.pot == 0
    assert m.state.ledger.balances == [0, 44, 62, 44]


def test_a_pot_carried_from_row_1_and_again_from_row_2_goes_whole_to_row_3() -> None:
    """Two ties in one hand: each carry adds to the pot, and row 3's winner takes all of it."""
    m = physical_match(3)
    physical_row(m, ["1-1-1", "9-9-9", "12-12-12"])  # three Arashi tie
    assert results(m)[-1] == Result(1, 1, [2, 3, 1], 3)
    physical_row(m, ["2-2-5", "4-5-10", "3-8-8"])  # 9, 9, 9 tie again
    assert results(m)[-1] == Result(1, 2, [2, 3, 1], 6)
    assert m.state.ledger.pot == 6
    physical_row(m, ["4-6-10", "6-8-11", "7-5-3"])  # p1's Nana-Go-San
    assert results(m)[-1] == Result(1, 3, [1], 9)  # 3 bets a row, three rows
    assert m.state.ledger.balances == [0, 56, 47, 47]


def test_the_pot_left_after_the_last_hand_is_reported_at_the_end() -> None:
    m = physical_match(2, hands=1)
    physical_row(m, ["1-2-6", "4-4-5"])
    physical_row(m, ["1-2-7", "4-4-6"])
    physical_row(m, ["3-5-11", "2-8-9"])
    end = m.events[-1]
    assert isinstance(end, End) and end.pot == 2 and end.reason == "hands"
    assert sum(end.balances) + end.pot == 2 * 50
    assert GAME.outcome(m.state) is not None and GAME.outcome(m.state)["pot"] == 2


def test_a_row_3_tie_in_the_last_hand_still_says_it_carries_and_the_end_names_the_pot_left(
        ) -> None:
    """Rules page, Decision: the line of a row-3 tie in the last hand "still reads '...
    carries to the next hand' (there is none), and the end of the match reports the pot next
    to the balances (match over: p1 49, p2 49; pot left 2)"; without a pot left it says none."""
    from kabucli.games.kabu_tsukuri.render import describe

    m = physical_match(2, hands=1)
    physical_row(m, ["1-2-6", "4-4-5"])  # p2's 9 against p1's 3: p2 takes 2
    physical_row(m, ["1-2-7", "4-4-6"])  # p2's 0 against p1's 4: p1 takes 2
    physical_row(m, ["3-5-11", "2-8-9"])  # 9 and 9: the last row ties
    last, end = m.events[-2], m.events[-1]
    assert isinstance(last, Result) and isinstance(end, End)
    assert describe(GAME, last, m) == "hand 1 row 3: tie (p2, p1), 2 carries to the next hand"
    assert describe(GAME, end, m) == "match over: p1 49, p2 49; pot left 2"
    m = physical_match(2, hands=1)
    physical_row(m, ["1-2-6", "4-4-5"])
    physical_row(m, ["1-2-7", "4-4-6"])
    physical_row(m, ["3-5-8", "2-8-9"])  # p1's 9 takes row 3: nothing is left
    assert describe(GAME, m.events[-1], m) == "match over: p1 51, p2 49"


def test_a_match_is_hands_hands() -> None:
    m = new_match(2, seed=8, hands=3)
    lay_in_order(m)
    lay_in_order(m)
    lay_in_order(m)
    assert m.over
    assert [e.hand for e in m.events if isinstance(e, Deal)] == [1, 2, 3]


def test_the_outcome_is_known_only_once_the_match_is_over() -> None:
    """After the last row of the last hand the match still awaits its end (the balances and
    the pot left): until that End is recorded there is no outcome, nor a winner."""
    m = physical_match(2, hands=1)
    physical_row(m, ["1-2-6", "4-4-5"])
    physical_row(m, ["1-2-7", "4-4-6"])
    physical_row(m, ["3-5-8", "2-8-9"])
    assert isinstance(m.events[-1], End) and GAME.outcome(m.state) is not None
    m2 = Match(GAME, m.header)
    for ev in m.events[:-1]:
        m2.submit(ev)
    assert m2.pending.kind == "auto" and GAME.outcome(m2.state) is None
    m2.submit(m.events[-1])
    assert GAME.outcome(m2.state) == GAME.outcome(m.state)


def test_the_view_names_the_seat_to_move_only_while_a_seat_must_act() -> None:
    """What a seat is shown names whose turn it is while a seat must act (a bet at a real
    table), and nobody while the table waits for a row to be turned over or the deal."""
    m = new_match(3)
    assert GAME.view(m.state)["turn"] is None  # the deal
    play(m, "deal")
    assert GAME.view(m.state)["turn"] == 2  # p1 deals: p2 bets first
    play(m, "bet", "bet", "bet")
    assert m.pending.kind == "chance" and GAME.view(m.state)["turn"] is None


def test_the_match_ends_after_its_last_hand_and_the_most_chips_wins() -> None:
    """The end of the match (a Decision, with hands): the most chips wins, equal most chips
    share the win; a pot still carried stays out of the balances."""
    m = physical_match(2, hands=1)
    physical_row(m, ["1-2-6", "4-4-5"])  # p2's 9
    physical_row(m, ["1-2-7", "4-4-6"])  # p1's 4
    physical_row(m, ["3-5-8", "2-8-9"])  # p2 6, p1 9: p1 takes row 3
    out = GAME.outcome(m.state)
    assert m.over and out is not None
    assert out["balances"] == {"p1": 51, "p2": 49} and out["leaders"] == ["p1"]
    m = physical_match(2, hands=1)
    physical_row(m, ["1-2-6", "4-4-5"])
    physical_row(m, ["1-2-7", "4-4-6"])
    physical_row(m, ["3-5-11", "2-8-9"])  # a tie: 2 stay in the pot
    out = GAME.outcome(m.state)
    assert out is not None and out["leaders"] == ["p1", "p2"] and out["pot"] == 2


def test_chips_are_only_moved_never_made() -> None:
    m = new_match(4, seed=2, hands=4, chips=7, bet=3)
    for _ in range(4):
        lay_in_order(m)
    assert m.over and m.state.ledger.total() == 4 * 7


def test_chips_balances_may_go_negative() -> None:
    """RULINGS, Chips: balances may go negative (a score sheet); nobody is out for it."""
    m = physical_match(2, chips=0, hands=2)
    physical_row(m, ["1-2-6", "4-4-5"])  # p2's 9 beats p1's 3
    assert m.state.ledger.balances == [0, -1, 1]
    physical_row(m, ["1-2-7", "4-4-6"])  # p1's 4 beats p2's 0
    physical_row(m, ["3-3-3", "2-8-9"])  # p2's Arashi-kabu
    assert m.state.ledger.balances == [0, -1, 1]
    play(m, "deal")  # p1, below zero, is dealt in and bets on
    physical_row(m, ["1-1-2", "5-5-5"])  # p2 deals, p1 turns first: p2's Arashi
    assert m.state.ledger.balances == [0, -2, 2]
    m = new_match(3, seed=4, chips=0, hands=2)
    for _ in range(2):
        lay_in_order(m)
    end = m.events[-1]
    assert isinstance(end, End) and end.reason == "hands"
    assert min(end.balances) < 0 and sum(end.balances) + end.pot == 0


def test_house_rule_defaults_are_the_rulings() -> None:
    """RULINGS: ranking extended, dealer rotate, bet 1 (the default of each); the rules page:
    chips 50 and hands 10. A match with no rule set plays by them."""
    assert build(KabuRules) == KabuRules(ranking="extended", dealer="rotate", bet=1,
                                         chips=50, hands=10)
    m = new_match(2, seed=6)
    assert m.header.rules == {"ranking": "extended", "dealer": "rotate", "bet": 1,
                              "chips": 50, "hands": 10}
    assert m.state.ledger.balances == [0, 50, 50]
    for _ in range(10):
        lay_in_order(m)
    assert m.over
    assert [e.dealer for e in m.events if isinstance(e, Deal)] == [1, 2] * 5
    assert {e.amount for e in m.events if isinstance(e, Stakes)} == {1}
    turns = [e for e in m.events if isinstance(e, Turn)]
    for turn, result in zip(turns, results(m), strict=True):  # each row judged as extended
        assert sorted(result.best) == best(turn, "extended")
    assert any(best(t, "extended") != best(t, "kabu") for t in turns)  # where they differ


def best(turn: Turn, ranking: str) -> list[int]:
    """The seats whose row of ``turn`` is the strongest under ``ranking``."""
    judged = [strength(r, ranking) for r in turn.rows]
    return [p for p, v in enumerate(judged, 1) if v == max(judged)]


# -- the next dealer ---------------------------------------------------------------------------

def test_dealer_rotate_passes_the_deal_to_the_next_seat() -> None:
    m = new_match(3, seed=8, hands=4)
    for _ in range(4):
        lay_in_order(m)
    assert [e.dealer for e in m.events if isinstance(e, Deal)] == [1, 2, 3, 1]


def test_dealer_winner_gives_the_deal_to_the_winner_of_row_3() -> None:
    m = physical_match(3, hands=2, dealer="winner")
    physical_row(m, ["1-2-6", "4-4-5", "2-2-3"])
    physical_row(m, ["1-2-7", "4-4-6", "1-1-3"])
    physical_row(m, ["3-5-11", "12-12-12", "7-7-8"])  # p3's Arashi takes row 3
    assert m.state.dealer == 3
    play(m, "deal")
    assert m.events[-1] == Deal(2, 3)
    assert m.state.order == [1, 2, 3]


def test_dealer_winner_keeps_the_dealer_when_row_3_ties() -> None:
    m = physical_match(2, hands=2, dealer="winner")
    physical_row(m, ["1-2-6", "4-4-5"])
    physical_row(m, ["1-2-7", "4-4-6"])
    physical_row(m, ["3-5-11", "2-8-9"])
    assert m.state.dealer == 1


# -- row strength: the extended ranking ------------------------------------------------------

NEIGHBOURS = [  # each named row against the next one down
    ("doshippin_beats_arashi_kabu", (1, 10, 10), (3, 3, 3)),
    ("arashi_kabu_beats_any_other_arashi", (3, 3, 3), (12, 12, 12)),
    ("arashi_beats_nana_go_san", (2, 2, 2), (7, 5, 3)),
    ("nana_go_san_beats_ichi_ni_san", (3, 5, 7), (1, 2, 3)),
    ("ichi_ni_san_beats_raijin", (1, 2, 3), (4, 7, 9)),
    ("raijin_beats_fujin", (4, 7, 9), (3, 7, 10)),
    ("fujin_beats_the_best_nobori", (3, 7, 10), (2, 3, 4)),
    ("the_weakest_nobori_beats_the_best_kudari", (9, 10, 11), (4, 3, 2)),
    ("the_weakest_kudari_beats_a_kabu_row", (11, 10, 9), (1, 2, 6)),
]


@pytest.mark.parametrize(("name", "stronger", "weaker"), NEIGHBOURS,
                         ids=[n for n, _, _ in NEIGHBOURS])
def test_named_row_against_its_neighbour(name: str, stronger: tuple[int, ...],
                                         weaker: tuple[int, ...]) -> None:
    assert beats(stronger, weaker)


@pytest.mark.parametrize(("cards", "name"), [
    ((1, 10, 10), "Doshippin"), ((3, 3, 3), "Arashi-kabu"), ((11, 11, 11), "Arashi"),
    ((12, 12, 12), "Arashi"), ((7, 5, 3), "Nana-Go-San"), ((3, 2, 1), "Ichi-Ni-San"),
    ((9, 4, 7), "Raijin"), ((10, 3, 7), "Fujin"), ((5, 6, 7), "Nobori, Oicho (8)"),
    ((7, 6, 5), "Kudari, Oicho (8)"), ((1, 2, 6), "Kabu (9)"), ((5, 6, 11), "Nizou (2)"),
])
def test_every_named_row_has_its_name(cards: tuple[int, ...], name: str) -> None:
    assert row_name(strength(cards, "extended"), "extended") == name


@pytest.mark.parametrize("cards", [(1, 10, 10), (3, 5, 7), (1, 2, 3), (4, 7, 9), (3, 7, 10)])
def test_named_rows_other_than_runs_count_in_any_laid_order(cards: tuple[int, ...]) -> None:
    assert len({strength(p, "extended") for p in permutations(cards)}) == 1


def test_nobori_is_a_row_rising_by_one_as_laid() -> None:
    assert row_name(strength((5, 6, 7), "extended"), "extended").startswith("Nobori")
    assert row_name(strength((5, 7, 6), "extended"), "extended") == "Oicho (8)"


def test_kudari_is_a_row_falling_by_one_as_laid() -> None:
    assert row_name(strength((7, 6, 5), "extended"), "extended").startswith("Kudari")
    assert beats((5, 6, 7), (7, 6, 5))


def test_10_11_12_counts_as_nobori_and_11_12_1_does_not() -> None:
    assert row_name(strength((10, 11, 12), "extended"), "extended") == "Nobori, Santa (3)"
    assert row_name(strength((12, 11, 10), "extended"), "extended") == "Kudari, Santa (3)"
    assert row_name(strength((11, 12, 1), "extended"), "extended") == "Yotsuya (4)"
    assert row_name(strength((12, 1, 2), "extended"), "extended") == "Goke (5)"
    assert row_name(strength((1, 12, 11), "extended"), "extended") == "Yotsuya (4)"


def test_a_run_that_is_also_a_named_hand_counts_as_the_named_hand() -> None:
    assert ties((1, 2, 3), (3, 2, 1))
    assert row_name(strength((1, 2, 3), "extended"), "extended") == "Ichi-Ni-San"


def test_two_equal_named_rows_tie() -> None:
    assert ties((1, 1, 1), (9, 9, 9))  # two Arashi, whatever their months
    assert ties((11, 11, 11), (2, 2, 2))
    assert ties((7, 5, 3), (3, 7, 5))


def test_nobori_against_nobori_compares_the_ones_digit() -> None:
    assert beats((2, 3, 4), (5, 6, 7))  # 9 against 8
    assert ties((2, 3, 4), (2, 3, 4))


def test_kudari_against_kudari_compares_the_ones_digit() -> None:
    assert beats((4, 3, 2), (7, 6, 5))
    assert beats((7, 6, 5), (11, 10, 9))  # 8 against 0


def test_plain_rows_count_the_ones_digit_of_the_sum_9_best_0_worst() -> None:
    assert beats((1, 2, 6), (4, 4, 12))  # 9 against 0
    assert ties((1, 2, 6), (2, 8, 9))
    plain = sorted({strength((a, b, 1), "extended") for a in (2, 4, 8) for b in (5, 6, 11)})
    assert all(0 <= s <= 9 for s in plain)


def test_months_add_up_at_face_value() -> None:
    assert strength((5, 6, 11), "extended") == 2  # 22
    assert strength((12, 12, 5), "extended") == 9  # 29


def page_rank(row: tuple[int, int, int]) -> tuple[int, int]:
    """A row's place in the table of the rules page, written out anew from the page: (rank
    from the bottom, the ones digit where equals compare by it, else 0)."""
    digit = sum(row) % 10
    a, b, c = row
    x, y, z = sorted(row)
    named = {(1, 10, 10): 10, (3, 3, 3): 9, (3, 5, 7): 7, (1, 2, 3): 6, (4, 7, 9): 5,
             (3, 7, 10): 4}.get((x, y, z))
    if named is not None:
        return named, 0
    if a == b == c:
        return 8, 0  # Arashi: every other three of a kind, whatever its months
    if b == a + 1 and c == b + 1:
        return 3, digit  # Nobori, as laid
    if b == a - 1 and c == b - 1:
        return 2, digit  # Kudari, as laid
    return 1, digit


def test_every_laid_row_ranks_as_the_rules_page_table_lists() -> None:
    """All 12**3 laid rows: one row beats another exactly when the rules page's table puts it
    higher, and ties exactly when the table puts them level."""
    rows = [(a, b, c) for a in range(1, 13) for b in range(1, 13) for c in range(1, 13)]
    rows.sort(key=page_rank)
    for lower, higher in pairwise(rows):
        if page_rank(lower) == page_rank(higher):
            assert ties(lower, higher), (lower, higher)
        else:
            assert beats(higher, lower), (higher, lower)


def test_ranking_kabu_uses_the_ones_digit_alone() -> None:
    assert strength((1, 10, 10), "kabu") == 1
    assert strength((3, 3, 3), "kabu") == 9
    assert ties((5, 6, 7), (2, 2, 4), "kabu")
    assert beats((1, 2, 6), (4, 7, 9), "kabu")
    assert row_name(strength((3, 3, 3), "kabu"), "kabu") == "Kabu (9)"


def test_ranking_kabu_decides_a_whole_game() -> None:
    m = physical_match(2, ranking="kabu")
    physical_row(m, ["1-10-10", "4-4-5"])  # 1 against 3: the Doshippin loses
    assert results(m)[-1].best == [1]


# -- a real table ------------------------------------------------------------------------------

def physical_match(n: int, **rules: Any) -> Match:
    m = new_match(n, **rules)
    play(m, "deal")
    return m


def test_physical_a_deal_names_no_card() -> None:
    m = new_match(3)
    assert m.pending.kind == "chance"
    assert "type 'deal' alone" in refused(m, Deal(1, 1, [[1] * 10] * 3, [2] * 18))
    play(m, "deal")
    assert m.events[-1] == Deal(1, 1)


def test_physical_a_deal_naming_only_the_cards_left_is_refused_too() -> None:
    """At a real table the program knows no card: a deal with no hands but the cards left
    over (as a log or a program could hold it) is refused like one naming hands."""
    m = new_match(3)
    assert "type 'deal' alone" in refused(m, Deal(1, 1, None, [2] * 18))
    assert "type 'deal' alone" in refused(m, Deal(1, 1, None, []))


def test_physical_nobody_types_an_arrangement() -> None:
    m = physical_match(2)
    reason = m.why_not(Arrange(2, [[1, 2, 3], [4, 5, 6], [7, 8, 9]], [10]))
    assert reason is not None and "rows are learnt as they are turned over" in reason


def test_physical_bets_are_due_in_turn_from_the_dealers_next_seat() -> None:
    m = physical_match(3)
    assert m.pending.seats == (2,)
    assert "not p3's turn" in (m.why_not(GAME.parse(m.state, "p3 bets")) or "")
    play(m, "p2 bets", "bet")
    assert m.pending.seats == (1,)
    assert m.state.ledger.pot == 2


def test_physical_each_bet_is_paid_by_the_seat_that_bets() -> None:
    """At a real table each player places the bet in turn: the chips leave the betting seat
    (bet 3 here), not a neighbour's."""
    m = physical_match(3, bet=3, chips=50)
    balances = m.state.ledger.balances
    play(m, "p2 bets")
    assert balances[1:4] == [50, 47, 50] and m.state.ledger.pot == 3
    play(m, "p3 bets", "p1 bets")
    assert balances[1:4] == [47, 47, 47] and m.state.ledger.pot == 9

def test_physical_rows_are_shown_in_turn_after_every_bet() -> None:
    m = physical_match(2)
    assert "waiting for p2's bet" in refused(m, "show 1-2-3")
    play(m, "bet", "bet")
    assert "p2 turns row 1 over next" in refused(m, "p1 shows 1-2-3")


def test_physical_a_card_turned_over_must_still_exist_in_the_deck() -> None:
    m = physical_match(3)
    physical_row(m, ["5-5-5", "5-6-7"])  # four 5s are out
    assert "only 4 copies of 5" in refused(m, "show 5-8-9")


def test_physical_a_revealed_card_must_still_exist_so_a_named_card_cannot_show_twice() -> None:
    """RULINGS: a revealed card must still exist in the deck. A log of months cannot tell the
    Pine Bright (1b) shown twice from two January cards, so the named card is refused and
    nothing is recorded; the months are counted (no fifth January)."""
    m = physical_match(2)
    play(m, "bet", "bet")
    for move in ("show 1b-2-3", "show 1b-1b-1b"):
        with pytest.raises(ParseError, match=r"typed as its month \('1' for 1b\)"):
            GAME.parse(m.state, move)
    assert since(m, 0) == ["deal", "p2 bets", "p1 bets"]
    play(m, "show 1-2-3", "show 1-1-1")
    assert "only 4 copies of 1" in refused_row(m, "1-4-5")


def test_physical_a_row_with_a_fifth_card_of_a_month_says_what_to_type_instead() -> None:
    m = physical_match(3)
    physical_row(m, ["5-5-5", "5-6-7"])  # four 5s are out
    reason = refused(m, "show 5-8-9")
    assert reason.startswith("the hanafuda (48, by month) deck has only 4 copies of 5")
    assert reason.endswith(": type the row p1 turns over again, as its cards show")


def refused_row(m: Match, row: str) -> str:
    """The next row turned over, ``row``, refused after everyone bets: why."""
    for _ in range(m.nseats):
        play(m, "bet")
    return refused(m, f"show {row}")


def test_physical_a_players_own_rows_use_distinct_cards() -> None:
    m = physical_match(2)
    physical_row(m, ["4-4-4", "1-2-6"])
    physical_row(m, ["4-3-2", "1-2-7"])  # p2's fourth 4
    for _ in range(2):
        play(m, "bet")
    assert "only 4 copies of 4" in refused(m, "show 4-8-9")


def test_physical_a_row_is_three_named_cards() -> None:
    m = physical_match(2)
    play(m, "bet", "bet")
    assert "a row is 3 named cards" in refused(m, "show 1-2-??")
    with pytest.raises(ParseError, match="not a row of three cards"):
        GAME.parse(m.state, "show 1-2")


def test_physical_an_empty_line_says_what_the_referee_types_now() -> None:
    # it said "type three rows like '1-2-3 4-5-6 7-8-9 aside 12'", which nobody types at a
    # real table
    m = physical_match(2)
    with pytest.raises(ParseError, match="empty move: type 'bet' when p2 has put the bet"):
        GAME.parse(m.state, "")
    play(m, "bet", "bet")
    for line in ("", "p2"):
        with pytest.raises(ParseError, match=r"empty move: type the row p2 turns over.*show"):
            GAME.parse(m.state, line)
    seeded = new_match(2, seed=1)
    with pytest.raises(ParseError, match=r"empty move: lay your 10 cards in three rows"):
        GAME.parse(seeded.state, "")


def test_physical_a_seeded_turn_is_refused_at_a_real_table() -> None:
    m = physical_match(2)
    play(m, "bet", "bet")
    assert "seat by seat" in refused(m, Turn(1, [[1, 2, 3], [4, 5, 6]]))


def test_an_undo_takes_back_the_last_bet_or_row() -> None:
    m = physical_match(2)
    play(m, "bet", "bet", "show 1-2-3", "undo")
    assert m.pending.what == "p2 to turn row 1 over"
    assert since(m, 0) == ["deal", "p2 bets", "p1 bets"]


def test_physical_the_cards_are_dealt_once_a_hand() -> None:
    """A second 'deal' while the rows of the hand are still being turned over is refused:
    it would start the bets of the hand again."""
    m = physical_match(2)
    play(m, "bet", "bet")
    assert refused(m, "deal") == "hand 1 is already dealt (waiting for p2 to turn row 1 over)"
    play(m, "show 1-2-3")
    assert since(m, 0) == ["deal", "p2 bets", "p1 bets", "p2 shows 1-2-3"]


def test_physical_no_row_is_turned_over_before_the_deal() -> None:
    m = new_match(2)
    assert refused(m, "show 1-2-3") == ("no row is turned over now (waiting for the deal of "
                                        "hand 1 by p1)")
    play(m, "deal")
    assert m.events == [Deal(1, 1)]


def test_physical_a_bet_is_the_legal_move_only_of_the_seat_to_bet_while_bets_are_due() -> None:
    m = physical_match(2)
    s = m.state
    assert [GAME.legal(s, p) for p in (1, 2)] == [[], [Bet(2)]]
    play(m, "bet", "bet")  # now rows are turned over: no bet is legal, not even p2's
    assert m.pending.what == "p2 to turn row 1 over"
    assert [GAME.legal(s, p) for p in (1, 2)] == [[], []]
    assert refused(m, Bet(2)) == "waiting for p2 to turn row 1 over, not for 'p2 bets'"


@pytest.mark.parametrize("players", [2, 5])
def test_the_solver_takes_a_table_of_two_to_five_players(players: int) -> None:
    """`kabucli solve --players N`: the table sizes a hand is dealt at, the fewest and the
    most included; outside them the hand could not have been dealt."""
    hand = ["1", "1", "3", "4", "5", "7", "9", "10", "10", "12"][:hand_size(players)]
    out = GAME.solve(KabuRules(), hand, players, 1)
    assert out["players"] == players and len(out["arrangements"]) == 1
    wrong = 1 if players == 2 else 6
    with pytest.raises(ParseError, match=f"takes 2-5 players, not {wrong}"):
        GAME.solve(KabuRules(), hand, wrong, 1)


@pytest.mark.parametrize(("pair", "kind"), [
    ("bet=-1", "integer 0-1000000"), ("bet=1000001", "integer 0-1000000"),
    ("chips=-1", "integer 0-1000000000"), ("chips=1000000001", "integer 0-1000000000"),
    ("hands=0", "integer 1-10000"), ("hands=10001", "integer 1-10000"),
])
def test_house_rules_bet_chips_and_hands_are_refused_outside_the_rules_pages_bounds(
        pair: str, kind: str) -> None:
    """Rules page, House rules: bet 0-1000000, chips 0-1000000000, hands 1-10000; "a value
    outside them is refused when the rules are read". The bounds themselves are allowed."""
    with pytest.raises(KabuError) as err:
        build(KabuRules, [pair], game="kabu-tsukuri")
    assert str(err.value).endswith(f"is not allowed: expected {kind}")
    assert build(KabuRules, ["bet=0", "chips=0", "hands=1"], game="kabu-tsukuri") == \
        KabuRules(bet=0, chips=0, hands=1)
    assert build(KabuRules, ["bet=1000000", "chips=1000000000", "hands=10000"],
                 game="kabu-tsukuri") == KabuRules(bet=1_000_000, chips=1_000_000_000,
                                                   hands=10_000)


def test_a_comma_that_ends_a_word_is_a_lists_not_a_card_missing() -> None:
    """'show 1-2-3,' and rows typed '1-2-3, 4-5-6, 7-8-9 aside 10' were read before the
    stray-dash check, which refused them: a comma at a word's end is a list's punctuation."""
    m = physical_match(2)
    play(m, "bet", "bet")
    assert GAME.parse(m.state, "show 1-2-3,") == GAME.parse(m.state, "show 1-2-3")
    m = new_match(2, seed=3)
    assert (GAME.parse(m.state, "1-2-3, 4-5-6, 7-8-9, aside 10,")
            == GAME.parse(m.state, "1-2-3 4-5-6 7-8-9 aside 10"))
    for word in ("1-2-3,,", "1-2-3-,", ",1-2-3"):  # a card missing still
        with pytest.raises(ParseError, match="joined by '-'"):
            GAME.parse(m.state, f"rows {word} 4-5-6 7-8-9 aside 10")


@pytest.mark.parametrize("sep", [" ", ", ", "-"])
def test_a_typed_deal_reads_cards_apart_as_solve_does(sep: str) -> None:
    """'deal | p1 1 1 3 ...' was refused, the hand read as one card '1 1 3 ...', while
    'kabucli solve kabu-tsukuri 1 1 3 ...' takes cards apart by spaces (and commas): a hand
    is read the same way in both."""
    m = new_match(2, seed=1)
    deal = m.events[0]
    assert isinstance(deal, Deal) and deal.hands is not None and deal.rest is not None
    line = "deal " + "".join(f"| p{i} {sep.join(map(str, h))} "
                             for i, h in enumerate(deal.hands, start=1))
    line += f"| rest {sep.join(map(str, deal.rest))}"
    m2 = Match(GAME, m.header)
    play(m2, line)
    assert m2.events[0] == deal
