"""Dare, clause by clause: the rules and the decisions of docs/rules/dare.md. Each test drives
the engine through ``Match``.

Most tables are physical (no seed): the referee types the field and the players' sets, and
hands stay unknown unless a test deals them. A few use a seed where the hands must be known.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise, permutations
from typing import Any

import pytest
from matchtools import play, refused, since, step

from kabucli.cards import UNKNOWN
from kabucli.engine import Match, check_header, make_header
from kabucli.errors import KabuError, ParseError
from kabucli.events import End, Pay, Undo
from kabucli.games.dare.rules import (
    GAME,
    DareRules,
    Deal,
    Lay,
    Result,
    Show,
    strength,
)
from kabucli.games.dare.text import hand_name, hint
from kabucli.hands import ARASHI, NOBORI
from kabucli.log import SeatInfo

U9 = [UNKNOWN] * 9
EXAMPLE_HAND = [1, 2, 3, 3, 3, 4, 5, 5, 9]  # the worked example of the rules page


# -- helpers ---------------------------------------------------------------------------------

def new_match(n: int = 3, seed: int | None = None, advance: bool = True, **rules: Any) -> Match:
    seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
    match = Match(GAME, make_header(GAME, DareRules(**rules), seats, seed))
    if advance:
        match.advance()
    return match










def notations(m: Match) -> list[str]:
    return since(m, 0)


def balances(m: Match) -> list[int]:
    return list(m.state.ledger.balances)  # [pot, p1, p2, ...]


# A physical round with a field of 1-7-5 (reference 3), dealer p1, so p2, p3, p1 play in turn.
# After these lays p2, p3 and p1 all qualify; the cards still unseen are
# 1 x1, 2 x2, 3 x2, 4 x3, 5 x1, 6 x2, 7 x2, 8 x3, 10 x2 (and no 9).
TWO_SETS_EACH = ("deal 1-7-5", "1-3-9 3-5-5", "4-9-10 6-8-9", "2-2-9 6-7-10")


def showdown(shows: tuple[str, str, str], **rules: Any) -> Match:
    m = new_match(**rules)
    play(m, *TWO_SETS_EACH)
    start = len(m.events)
    for cards in shows:
        step(m, f"show {cards}")
    assert since(m, start)[:3] == [f"p{p} shows {c}" for p, c in zip((2, 3, 1), shows,
                                                                       strict=True)]
    return m


def last_result(m: Match) -> Result:
    return next(e for e in reversed(m.events) if isinstance(e, Result))


# -- the deck, the players and the deal --------------------------------------------------------

def test_deck_is_39_kabufuda_cards_with_three_ones() -> None:
    deck = GAME.deck
    assert deck.size == 39
    assert Counter(deck.cards()) == Counter({1: 3, **{v: 4 for v in range(2, 11)}})


def test_deck_four_players_seeded_deal_uses_the_whole_deck() -> None:
    m = new_match(4, seed=5)
    deal = m.events[0]
    assert isinstance(deal, Deal) and deal.hands is not None
    cards = deal.field + [c for h in deal.hands for c in h]
    assert Counter(cards) == Counter(GAME.deck.cards())


def test_deck_has_no_fourth_one() -> None:
    m = new_match(advance=False)
    # the deal alone holds four 1s: the reason says so (not "0 already showed")
    assert refused(m, "deal 1-1-1 | p1 1-2-2-2-2-3-3-3-3 | p2 ??-??-??-??-??-??-??-??-?? "
                      "| p3 ??-??-??-??-??-??-??-??-??") == \
        "the kabufuda (39) deck has only 3 copies of 1, not 4"


@pytest.mark.parametrize("n", [2, 3, 4])
def test_players_two_to_four_may_play(n: int) -> None:
    m = new_match(n, seed=1)
    assert m.pending.kind == "action"
    assert m.pending.seats == (2,)


@pytest.mark.parametrize("n", [1, 5])
def test_players_one_or_five_refused_at_header_check(n: int) -> None:
    header = make_header(GAME, DareRules(), [SeatInfo(f"P{i}") for i in range(1, n + 1)], None)
    with pytest.raises(KabuError, match=f"Dare takes 2-4 players, the log has {n}"):
        check_header(GAME, header)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deal_nine_cards_to_each_player_and_three_face_up_to_the_field(n: int) -> None:
    m = new_match(n, seed=11)
    deal = m.events[0]
    assert isinstance(deal, Deal) and deal.hands is not None
    assert len(deal.field) == 3
    assert [len(h) for h in deal.hands] == [9] * n
    dealt = Counter(deal.field + [c for h in deal.hands for c in h])
    assert not dealt - Counter(GAME.deck.cards())  # the rest (39 - 9n - 3 cards) is unused
    assert m.state.field == deal.field


def test_deal_each_player_sees_their_own_hand_and_of_the_others_only_how_many_cards() -> None:
    m = new_match(seed=3)
    for seat in (1, 2, 3):
        hands = GAME.view(m.state, seat)["hands"]
        assert hands[f"p{seat}"] == [GAME.deck.token(c) for c in m.state.hands[seat]]
        assert [hands[f"p{p}"] for p in (1, 2, 3) if p != seat] == [9, 9]


def test_a_hand_shown_is_seen_by_every_seat_and_one_not_shown_counted_as_left() -> None:
    """At a real table, after two sets each (6 of 9 cards laid) and p2's show: every seat
    sees p2's three cards; of a hand not shown, how many cards are left (3, not the 9
    dealt)."""
    m = new_match()
    play(m, *TWO_SETS_EACH, "show 2-3-4")
    for seat in (1, 3):
        hands = GAME.view(m.state, seat)["hands"]
        assert hands["p2"] == ["2", "3", "4"]
        assert hands[f"p{4 - seat}"] == 3


def test_a_hand_hidden_from_the_viewer_is_drawn_as_its_cards_left_face_down() -> None:
    """After two sets each, every hand (p1's own: a real table's cards are unseen) is drawn
    as three cards face down, not the nine dealt."""
    from rich.console import Console

    from kabucli import render

    m = new_match()
    play(m, *TWO_SETS_EACH)
    for viewer in (None, 1):
        console = Console(width=100, no_color=True, record=True)
        console.print(render.table(GAME, m, viewer))
        rows = [line for line in console.export_text().splitlines() if "qualified" in line]
        assert [row.count("??") for row in rows] == [3, 3, 3]


def test_deal_of_the_wrong_size_refused() -> None:
    m = new_match(advance=False)
    assert refused(m, "deal 1-7") == ("the field has 3 cards, not 2: type the 3 turned up "
                                      "(e.g. 'deal 1-7-5')")
    assert refused(m, Deal(1, 1, [1, 7, 5], [U9, U9])) == "each of the 3 players is dealt 9 cards"
    assert refused(m, Deal(1, 1, [1, 7, 5], [U9, U9, [UNKNOWN] * 8])) == \
        "each of the 3 players is dealt 9 cards"


def test_deal_field_cards_are_face_up_so_each_is_named() -> None:
    m = new_match(advance=False)
    assert refused(m, "deal 1-7-??") == "the field cards are face up: each must be named"


def test_deal_of_round_one_is_by_p1() -> None:
    m = new_match(advance=False)
    assert m.pending.what == "the deal of round 1 by p1"
    assert refused(m, Deal(1, 2, [1, 7, 5])) == \
        "this is the deal of round 1 by p1, not of round 1 by p2"
    assert refused(m, Deal(2, 1, [1, 7, 5])) == \
        "this is the deal of round 1 by p1, not of round 2 by p1"


# -- ante and reference ------------------------------------------------------------------------

def test_ante_text_example_three_players_five_chips_make_a_pot_of_15() -> None:
    m = new_match(ante=5)
    play(m, "deal 1-7-5")
    assert notations(m) == ["deal 1-7-5", "pay p2 pot 5 ante", "pay p3 pot 5 ante",
                            "pay p1 pot 5 ante"]
    assert balances(m) == [15, 45, 45, 45]


def test_ante_every_player_antes_every_round() -> None:
    m = new_match(ante=2)
    play(m, "deal 1-7-5", "pass", "pass", "pass")  # nobody qualifies: the pot carries
    start = len(m.events)
    play(m, "deal 2-2-2")
    assert since(m, start) == ["deal 2-2-2", "pay p2 pot 2 ante", "pay p3 pot 2 ante",
                               "pay p1 pot 2 ante"]
    assert balances(m) == [12, 46, 46, 46]


def test_ante_zero_records_no_payments() -> None:
    m = new_match(ante=0)
    play(m, "deal 1-7-5")
    assert notations(m) == ["deal 1-7-5"]
    assert m.pending.seats == (2,)
    assert balances(m) == [0, 50, 50, 50]


def test_chips_balances_may_go_negative() -> None:
    m = new_match(chips=0, ante=3)
    play(m, "deal 1-7-5")
    assert balances(m) == [9, -3, -3, -3]


def test_reference_text_example_field_1_7_5_gives_3() -> None:
    m = new_match()
    play(m, "deal 1-7-5")
    assert m.state.ref == 3
    assert m.pending.what == "p2 to lay sets matching 3"


@pytest.mark.parametrize(("field", "ref"), [("10-10-10", 0), ("9-9-8", 6), ("1-1-7", 9),
                                            ("2-3-4", 9), ("10-10-1", 1)])
def test_reference_is_the_ones_digit_of_the_field_sum(field: str, ref: int) -> None:
    m = new_match()
    play(m, f"deal {field}")
    assert m.state.ref == ref


# -- turns -------------------------------------------------------------------------------------

def test_turn_order_starts_at_the_dealers_right_and_ends_with_the_dealer() -> None:
    m = new_match(4)
    play(m, "deal 1-7-5")
    seen = []
    for _ in range(4):
        seen.append(m.pending.seats[0])
        step(m, "pass")
    assert seen == [2, 3, 4, 1]
    # round 2: p3 becomes Dare, so p3 deals round 3 and p4 plays first, p3 last
    play(m, "deal 1-7-5", "pass", "1-3-9 3-5-5 4-9-10", "deal 1-7-5")
    assert m.state.dealer == 3
    seen = []
    for _ in range(4):
        seen.append(m.pending.seats[0])
        step(m, "pass")
    assert seen == [4, 1, 2, 3]


def test_turn_only_the_player_whose_turn_it_is_lays_the_others_have_no_move() -> None:
    m = new_match(seed=3)  # hands known, dealer p1: p2 lays first
    assert m.pending.seats == (2,)
    assert GAME.legal(m.state, 2)
    assert GAME.legal(m.state, 3) == [] and GAME.legal(m.state, 1) == []
    step(m, "pass")
    assert GAME.legal(m.state, 3)
    assert GAME.legal(m.state, 2) == [] and GAME.legal(m.state, 1) == []


def test_turn_a_player_lays_zero_to_three_sets() -> None:
    m = new_match()
    play(m, "deal 1-7-5")
    for move in ("pass", "1-3-9", "1-3-9 3-5-5", "1-3-9 3-5-5 4-9-10"):
        assert m.why_not(GAME.parse(m.state, move)) is None
    assert refused(m, "1-3-9 3-5-5 4-9-10 6-8-9") == (
        "a hand of 9 cards holds at most 3 sets, not 4: type at most 3 (e.g. '1-3-9 3-5-5 "
        "1-2-10'), or 'pass'")


def test_turn_a_set_is_three_cards() -> None:
    m = new_match()
    play(m, "deal 1-7-5")
    assert refused(m, Lay(2, [[3, 10]])) == "a set is three cards, not 2 (3-10)"
    assert refused(m, Lay(2, [[1, 1, 1, 10]])) == "a set is three cards, not 4 (1-1-1-10)"


def test_turn_each_set_must_match_the_reference() -> None:
    m = new_match()
    play(m, "deal 1-7-5")
    also = ": type sets whose ones digit is 3 (e.g. '1-3-9'), or 'pass'"  # (a real table)
    assert refused(m, "1-2-4") == "set 1-2-4 adds up to 7, ones digit 7, not the reference 3" + also
    assert refused(m, "1-3-9 2-2-4") == ("set 2-2-4 adds up to 8, ones digit 8, not the "
                                         "reference 3" + also)
    # a ones digit below the reference does not match either
    assert refused(m, "1-1-10") == ("set 1-1-10 adds up to 12, ones digit 2, not the "
                                    "reference 3" + also)


def test_turn_laid_cards_are_face_up_so_each_is_named() -> None:
    m = new_match()
    play(m, "deal 1-7-5")
    assert refused(m, Lay(2, [[UNKNOWN, 3, 9]])) == "laid cards are face up: each must be named"


def test_turn_seeded_laid_cards_must_be_in_the_players_hand() -> None:
    m = new_match(seed=3)
    hand = Counter(m.state.hands[2])
    ref = m.state.ref
    lacking = next([a, b, c] for a in range(1, 11) for b in range(a, 11) for c in range(b, 11)
                   if (a + b + c) % 10 == ref and Counter((a, b, c)) - hand)
    text = "-".join(map(str, lacking))
    held = "-".join(map(str, sorted(hand.elements())))
    assert refused(m, text) == f"p2's hand {held} does not hold {text}"


def test_turn_known_hand_laid_cards_must_be_in_it() -> None:
    m = new_match()
    play(m, Deal(1, 1, [1, 7, 5], [U9, EXAMPLE_HAND, U9]))
    assert refused(m, "1-3-9 3-10-10") == \
        "p2's hand 1-2-3-3-3-4-5-5-9 does not hold 1-3-9 3-10-10"
    assert refused(m, "3-5-5 4-4-5") == "p2's hand 1-2-3-3-3-4-5-5-9 does not hold 3-5-5 4-4-5"


def test_turn_a_known_card_laid_leaves_the_hand_and_the_unknown_cards_stay_unknown() -> None:
    m = new_match()
    part = [1, 3, 9] + [UNKNOWN] * 6  # the referee saw three of p2's cards
    play(m, Deal(1, 1, [1, 7, 5], [U9, part, U9]), "1-3-9")
    assert m.state.hands[2] == [UNKNOWN] * 6
    assert m.state.seen[1] == 2  # the field's 1 and p2's: nothing revealed twice


def test_turn_physical_a_hand_not_seen_has_no_list_of_legal_moves() -> None:
    """At a real table the sets a face-down hand may lay are unknown: its player's legal
    moves are not listed (not a pass alone, nor sets of unknown cards, which are laid face
    up), whatever the reference; one known hand is listed."""
    for field in ("1-7-5", "1-1-5"):  # references 3 and 7 (three unknown cards 'add up' to 7)
        m = new_match()
        play(m, f"deal {field}")
        assert m.pending.seats == (2,) and GAME.legal(m.state, 2) == []
    m = new_match()
    play(m, Deal(1, 1, [1, 7, 5], [U9, EXAMPLE_HAND, U9]))
    assert Lay(2, [[1, 3, 9], [3, 5, 5]]) in GAME.legal(m.state, 2)


def test_turn_physical_the_example_sets_use_no_card_face_up_four_times() -> None:
    """The hint's examples at a real table are sets the deck may still hold: with the four
    9s face up (two in the field, two laid) the usual '1-3-9' is not offered."""
    m = new_match()
    play(m, "deal 9-9-5", "9-9-5")  # reference 3
    assert m.state.seen[9] == 4
    assert hint(m.state, 3) == ("lay 0-3 sets of three cards whose ones digit is 3 "
                                "(e.g. '3-5-5 1-1-1'), or 'pass'")


def test_turn_physical_laid_cards_must_still_exist_in_the_deck() -> None:
    m = new_match()
    play(m, "deal 7-7-9", "7-7-9")  # reference 3; all four 7s are now face up
    assert refused(m, "6-7-10") == (
        "the kabufuda (39) deck has only 4 copies of 7, and 4 already showed: "
        "type sets of cards the deck still holds (e.g. '1-3-9'), or 'pass'")
    instead = ": type sets of cards the deck still holds (e.g. '1-3-9'), or 'pass'"
    assert refused(m, "1-1-1 1-2-10") == \
        "the kabufuda (39) deck has only 3 copies of 1, not 4" + instead
    # some showed before, and the sets add more than are left
    assert refused(m, "5-9-9 5-9-9") == ("the kabufuda (39) deck has only 4 copies of 9, and 2 "
                                         "already showed, so not 4 more" + instead)


def test_turn_physical_a_set_of_cards_all_shown_is_refused_with_what_to_type() -> None:
    """At a real table a refusal says what to type instead: a set with a fifth 7 says to lay
    sets of cards the deck still holds (an example of them), or 'pass'."""
    m = new_match()
    play(m, "deal 7-7-9", "7-7-9")  # reference 3; all four 7s are now face up
    why = refused(m, "6-7-10 3-5-5")
    assert why == ("the kabufuda (39) deck has only 4 copies of 7, and 4 already showed: type "
                   "sets of cards the deck still holds (e.g. '1-3-9'), or 'pass'")
    play(m, "1-3-9")  # the example is taken


def test_turn_physical_cards_shown_count_against_the_deck_only_in_their_own_round() -> None:
    """Rules page, At a real table: a laid set's cards must still exist in the deck "counting
    the field and every card already shown this round": a new deal gathers every card again."""
    m = new_match()
    play(m, "deal 7-7-9", "7-7-9")  # reference 3; all four 7s are face up in round 1
    assert refused(m, "6-7-10") == (
        "the kabufuda (39) deck has only 4 copies of 7, and 4 already showed: "
        "type sets of cards the deck still holds (e.g. '1-3-9'), or 'pass'")
    play(m, "pass", "pass")  # nobody qualifies: round 2, the same dealer
    play(m, "deal 7-7-9", "7-7-9")  # the same four 7s again, now in round 2
    assert m.state.round == 2 and m.state.laid[2] == [[7, 7, 9]]


def test_turn_text_example_hand_lays_1_3_9_and_3_5_5_and_keeps_2_3_4() -> None:
    m = new_match()
    play(m, Deal(1, 1, [1, 7, 5], [U9, EXAMPLE_HAND, U9]))
    legal = GAME.legal(m.state, 2)
    assert Lay(2, [[1, 3, 9], [3, 5, 5]]) in legal
    assert all(len(ev.sets) < 3 for ev in legal if isinstance(ev, Lay))  # no Dare with this hand
    play(m, "1-3-9 3-5-5")
    assert m.state.hands[2] == [2, 3, 4]
    play(m, "pass", "pass")
    assert m.pending.what == "p2 to show the three cards left"
    assert refused(m, "show 2-3-5") == ("p2 has 2-3-4 left, not 2-3-5: type the three cards "
                                        "p2 shows (e.g. 'show 2-3-4')")
    start = len(m.events)
    play(m, "show 2-3-4")
    assert since(m, start)[:3] == ["p2 shows 2-3-4", "result round 1 showdown p2 deals p2",
                                   "pay pot p2 3 win"]
    assert hand_name([2, 3, 4], "none") == "Kabu (9)"


def test_three_sets_make_dare_who_takes_the_pot_at_once_and_later_players_do_not_play() -> None:
    m = new_match()
    play(m, "deal 1-7-5")
    start = len(m.events)
    play(m, "1-3-9 3-5-5 4-9-10")
    assert since(m, start) == ["p2 sets 1-3-9 3-5-5 4-9-10", "result round 1 dare p2 deals p2",
                               "pay pot p2 3 win"]
    assert m.pending.what == "the deal of round 2 by p2"
    assert m.state.laid[3] is None and m.state.laid[1] is None
    assert balances(m) == [0, 49, 52, 49]


def test_three_sets_by_the_dealer_after_others_qualified_still_win_at_once() -> None:
    m = new_match()
    play(m, "deal 1-7-5", "1-3-9 3-5-5", "2-2-9 6-7-10")
    start = len(m.events)
    play(m, "4-9-10 6-8-9 4-4-5")
    assert since(m, start)[1:3] == ["result round 1 dare p1 deals p1", "pay pot p1 3 win"]


def test_two_sets_qualify_for_the_showdown_fewer_are_out() -> None:
    m = new_match()
    play(m, "deal 1-7-5", "1-3-9", "4-9-10 6-8-9", "pass")
    assert m.state.qualified == [3]
    assert m.pending.what == "p3 to show the three cards left"
    assert refused(m, Show(2, [2, 3, 4])) == ("p3 shows next, not p2: type the three cards p3 "
                                              "shows (e.g. 'show 2-3-4')")
    start = len(m.events)
    play(m, "show 2-2-3")
    assert since(m, start)[:3] == ["p3 shows 2-2-3", "result round 1 showdown p3 deals p3",
                                   "pay pot p3 3 win"]


def test_never_forced_to_lay_a_set_the_hand_could_make() -> None:
    dare_hand = [1, 3, 3, 4, 5, 5, 9, 9, 10]  # 1-3-9 3-5-5 4-9-10
    m = new_match()
    play(m, Deal(1, 1, [1, 7, 5], [U9, dare_hand, U9]))
    legal = GAME.legal(m.state, 2)
    assert Lay(2, [[1, 3, 9], [3, 5, 5], [4, 9, 10]]) in legal
    for move in (Lay(2, []), Lay(2, [[1, 3, 9]]), Lay(2, [[3, 5, 5], [4, 9, 10]])):
        assert move in legal
        assert m.why_not(move) is None
    play(m, "3-5-5 4-9-10")  # keeps 1-3-9 (a set) for the showdown: digit 3
    assert m.state.hands[2] == [1, 3, 9]


# -- the showdown --------------------------------------------------------------------------------

def test_showdown_ones_digit_decides_nine_best() -> None:
    m = showdown(("4-4-10", "2-3-4", "2-8-10"))  # 8, 9, 0
    assert last_result(m) == Result(1, "showdown", [3], 3)
    assert balances(m) == [0, 49, 49, 52]


def test_showdown_ones_digit_zero_is_worst() -> None:
    m = showdown(("2-8-10", "1-4-6", "4-6-10"))  # 0, 1, 0
    assert last_result(m) == Result(1, "showdown", [3], 3)


def test_showdown_cards_must_still_exist_in_the_deck() -> None:
    m = new_match()
    play(m, *TWO_SETS_EACH)
    assert refused(m, "show 9-2-2") == (
        "the kabufuda (39) deck has only 4 copies of 9, and 4 already showed: "
        "type the three cards p2 shows (e.g. 'show 2-3-4')")
    # the rule refuses such an event (from a log); typed, it is refused as it is read
    assert refused(m, Show(2, [2, 3])) == "a showdown hand is three named cards"
    assert refused(m, Show(2, [2, 3, UNKNOWN])) == "a showdown hand is three named cards"
    with pytest.raises(ParseError, match=r"three cards, not 2: type the three cards p2 shows"):
        m.game.parse(m.state, "show 2-3")


def test_showdown_cards_shown_by_an_earlier_player_count_against_the_deck() -> None:
    """At a real table each hand shown is checked against the cards seen so far, the hands
    shown before it in the showdown included."""
    m = new_match()
    play(m, *TWO_SETS_EACH, "show 8-8-8")  # p2: one 8 had showed (p3's 6-8-9), now all four
    assert refused(m, "show 8-2-3") == (
        "the kabufuda (39) deck has only 4 copies of 8, and 4 already showed: "
        "type the three cards p3 shows (e.g. 'show 2-3-4')")
    play(m, "show 2-3-4")
    assert m.state.shown[3] == [2, 3, 4]


def test_showdown_physical_a_hand_of_cards_all_shown_is_refused_with_what_to_type() -> None:
    """At a real table a showdown hand with a card whose copies all showed is refused with
    what to type instead, and the example is cards the deck still holds: once p2 shows 3-3-4
    the four 3s are face up, so neither the refusal nor the hint offers 'show 2-3-4'."""
    m = new_match()
    play(m, *TWO_SETS_EACH, "show 3-3-4")  # p2: two 3s had showed (p2's 1-3-9 3-5-5)
    example = "show 1-2-2"  # unseen now: 1 x1, 2 x2, 4 x2, 5 x1, 6 x2, 7 x2, 8 x3, 10 x2
    assert hint(m.state, 3) == f"type the three cards p3 shows (e.g. '{example}')"
    assert refused(m, "show 2-3-4") == ("the kabufuda (39) deck has only 4 copies of 3, and 4 "
                                        "already showed: type the three cards p3 shows "
                                        f"(e.g. '{example}')")
    with pytest.raises(ParseError, match=f"type the three cards p3 shows, e.g. '{example}'"):
        m.game.parse(m.state, "show 2-3")
    play(m, example)  # the example is taken
    assert m.state.shown[3] == [1, 2, 2]


def test_yaku_none_three_of_a_kind_counts_only_its_ones_digit() -> None:
    m = showdown(("3-6-10", "4-4-4", "2-6-10"))  # 9, 2, 8
    assert last_result(m) == Result(1, "showdown", [2], 2)


def test_yaku_arashi_three_of_a_kind_beats_any_other_hand() -> None:
    m = showdown(("3-6-10", "4-4-4", "2-6-10"), yaku="arashi")
    assert last_result(m) == Result(1, "showdown", [3], 3)


def test_yaku_arashi_a_pair_is_not_three_of_a_kind() -> None:
    m = showdown(("3-6-10", "4-4-8", "2-6-10"), yaku="arashi")  # 9, a pair of 4s (6), 8
    assert last_result(m) == Result(1, "showdown", [2], 2)
    assert strength([4, 4, 8], "arashi") == (0, 6)
    assert strength([2, 8, 8], "arashi") == (0, 8)


def test_yaku_arashi_two_three_of_a_kinds_tie() -> None:
    m = showdown(("3-6-10", "4-4-4", "8-8-8"), yaku="arashi")
    assert last_result(m) == Result(1, "tie", [], 1)
    assert strength([4, 4, 4], "arashi") == strength([8, 8, 8], "arashi")


def test_yaku_extended_named_hands_rank_in_the_reference_order() -> None:
    ranked = [  # strongest first (docs/rules/dare.md), then plain hands by ones digit
        ("Doshippin", [10, 1, 10]),
        ("Arashi-kabu", [3, 3, 3]),
        ("Arashi", [2, 2, 2]),
        ("Nana-Go-San", [7, 5, 3]),
        ("Ichi-Ni-San", [1, 2, 3]),
        ("Raijin", [4, 7, 9]),
        ("Fujin", [3, 7, 10]),
        ("Nobori", [2, 3, 4]),
        ("Nobori", [6, 7, 8]),
        ("plain 9", [1, 8, 10]),
        ("plain 1", [2, 4, 5]),
        ("plain 0", [2, 8, 10]),
    ]
    keys = [strength(cards, "extended") for _, cards in ranked]
    assert all(a > b for a, b in pairwise(keys))
    names = [hand_name(cards, "extended") for _, cards in ranked]
    assert names == ["Doshippin", "Arashi-kabu", "Arashi (three of a kind)", "Nana-Go-San",
                     "Ichi-Ni-San", "Raijin", "Fujin", "Nobori, Kabu (9)", "Nobori, Pin (1)",
                     "Kabu (9)", "Pin (1)", "Buta (0)"]


def test_yaku_extended_equal_named_hands_tie_whatever_their_digits() -> None:
    assert strength([2, 2, 2], "extended") == strength([9, 9, 9], "extended") == (ARASHI, 0)
    m = showdown(("3-7-10", "3-7-10", "4-4-8"), yaku="extended")  # two Fujin
    assert last_result(m) == Result(1, "tie", [], 1)


def test_yaku_extended_named_hand_beats_a_plain_nine() -> None:
    m = showdown(("5-6-8", "3-7-10", "4-4-10"), yaku="extended")  # plain 9, Fujin, 8
    assert last_result(m) == Result(1, "showdown", [3], 3)
    m = showdown(("5-6-8", "3-7-10", "4-4-10"))  # the same hands without yaku
    assert last_result(m) == Result(1, "showdown", [2], 2)


def test_yaku_extended_nobori_ties_are_broken_by_the_ones_digit() -> None:
    assert strength([6, 7, 8], "extended") == (NOBORI, 1)
    m = showdown(("6-7-8", "2-3-4", "4-5-6"), yaku="extended")  # Nobori 1, 9, 5
    assert last_result(m) == Result(1, "showdown", [3], 3)


def test_yaku_extended_nobori_held_in_any_order_and_no_wrap_from_10_to_1() -> None:
    for cards in permutations([3, 4, 5]):
        assert strength(cards, "extended") == (NOBORI, 2)
    assert strength([8, 9, 10], "extended") == (NOBORI, 7)
    assert strength([9, 10, 1], "extended") == (0, 0)
    assert strength([10, 1, 2], "extended") == (0, 3)


def test_yaku_extended_kudari_cannot_occur_a_falling_run_is_nobori() -> None:
    assert hand_name([5, 4, 3], "extended") == "Nobori, Nizou (2)"
    assert strength([5, 4, 3], "extended") == strength([3, 4, 5], "extended")


# -- ties, carries and who deals -------------------------------------------------------------

TIED_P3_P1 = ("4-4-10", "3-8-8", "4-7-8")  # p2 8, p3 9, p1 9: p3 is first in turn order


def test_tie_carry_pot_stays_and_the_same_dealer_deals_again() -> None:
    m = showdown(TIED_P3_P1)
    assert notations(m)[-1] == "result round 1 tie - deals p1"
    assert last_result(m) == Result(1, "tie", [], 1)
    assert balances(m) == [3, 49, 49, 49]
    assert m.pending.what == "the deal of round 2 by p1"
    play(m, "deal 1-7-5")
    assert balances(m) == [6, 48, 48, 48]
    assert m.pending.seats == (2,)


def test_tie_split_equal_shares_odd_chips_stay_first_tied_in_turn_order_deals() -> None:
    m = showdown(TIED_P3_P1, tie="split")
    tail = since(m, len(m.events) - 3)
    assert tail == ["result round 1 split p3,p1 deals p3", "pay pot p3 1 split",
                    "pay pot p1 1 split"]
    assert balances(m) == [1, 50, 49, 50]
    assert m.pending.what == "the deal of round 2 by p3"


def test_tie_split_three_tied_players_share_the_pot_equally() -> None:
    m = showdown(("2-7-10", "3-8-8", "4-7-8"), tie="split")  # all three 9
    assert last_result(m) == Result(1, "split", [2, 3, 1], 2)
    assert balances(m) == [0, 50, 50, 50]  # a pot of 3: one chip each


def test_tie_split_shares_of_zero_chips_are_not_recorded() -> None:
    m = new_match(ante=0, tie="split")
    play(m, "deal 1-7-5", "1-3-9 3-5-5", "4-9-10 6-8-9", "2-2-9 6-7-10",
         "show 4-4-10", "show 3-8-8", "show 4-7-8")
    assert notations(m)[-1] == "result round 1 split p3,p1 deals p3"
    assert balances(m) == [0, 50, 50, 50]


def test_tie_order_first_tied_player_in_turn_order_wins() -> None:
    m = showdown(TIED_P3_P1, tie="order")
    assert since(m, len(m.events) - 2) == ["result round 1 order p3 deals p3", "pay pot p3 3 win"]
    assert balances(m) == [0, 49, 49, 52]


def test_no_qualified_player_pot_carries_and_the_dealer_deals_again() -> None:
    m = new_match()
    play(m, "deal 1-7-5", "1-3-9", "pass", "4-9-10")
    assert notations(m)[-1] == "result round 1 nobody - deals p1"
    assert balances(m) == [3, 49, 49, 49]
    assert m.pending.what == "the deal of round 2 by p1"


def test_winner_takes_the_pot_and_deals_the_next_round() -> None:
    m = new_match(tie="carry")
    play(m, "deal 1-7-5", "pass", "pass", "pass")  # pot 3 carries
    play(m, "deal 1-7-5", "pass", "1-3-9 3-5-5", "pass", "show 2-3-4")
    assert since(m, len(m.events) - 2) == ["result round 2 showdown p3 deals p3",
                                           "pay pot p3 6 win"]
    assert balances(m) == [0, 48, 48, 54]
    assert m.pending.what == "the deal of round 3 by p3"


def test_dare_with_an_empty_pot_records_no_payment() -> None:
    m = new_match(ante=0)
    play(m, "deal 1-7-5", "1-3-9 3-5-5 4-9-10")
    assert notations(m) == ["deal 1-7-5", "p2 sets 1-3-9 3-5-5 4-9-10",
                            "result round 1 dare p2 deals p2"]
    assert m.state.dealer == 2


# -- the match ---------------------------------------------------------------------------------

def test_rounds_house_rule_ends_the_match_after_that_many_rounds() -> None:
    m = new_match(rounds=2)
    play(m, "deal 1-7-5", "1-3-9 3-5-5 4-9-10")  # p2 is Dare and deals round 2
    play(m, "deal 1-7-5", "pass", "1-3-9 3-5-5 4-9-10")  # p3 passes, p1 is Dare
    assert notations(m)[-1] == "end rounds p1=51 p2=51 p3=48 pot=0"
    assert m.over
    assert m.events[-1] == End("rounds", [51, 51, 48], 0)
    outcome = m.outcome()
    assert outcome is not None and outcome["leaders"] == ["p1", "p2"]
    assert [r["reason"] for r in outcome["rounds"]] == ["dare", "dare"]
    assert refused(m, "pass") == "the match is already over"


def test_outcome_is_none_until_the_match_is_over() -> None:
    """The match has no result before its end: not while a round is played (the turns, the
    showdown), nor between rounds; after the last round, the balances and who leads."""
    m = new_match(rounds=2)
    assert m.outcome() is None  # the deal of round 1 awaited
    play(m, *TWO_SETS_EACH)
    assert m.pending.what == "p2 to show the three cards left" and m.outcome() is None
    play(m, "show 2-3-4", "show 3-8-8", "show 4-7-8")  # all three 9: a tie, the pot stays
    assert m.pending.what == "the deal of round 2 by p1" and m.outcome() is None
    play(m, "deal 1-7-5")
    assert m.pending.seats == (2,) and m.outcome() is None
    play(m, "1-3-9 3-5-5 4-9-10")  # p2 is Dare: the match is over
    assert m.over
    assert m.outcome() == {
        "balances": {"p1": 48, "p2": 54, "p3": 48}, "pot": 0, "leaders": ["p2"],
        "rounds": [{"round": 1, "reason": "tie", "winners": []},
                   {"round": 2, "reason": "dare", "winners": ["p2"]}]}


def test_rounds_default_is_ten() -> None:
    assert DareRules().rounds == 10
    m = new_match()
    for _ in range(10):
        play(m, "deal 1-7-5", "pass", "pass", "pass")
    assert m.over and m.state.round == 10


def test_pot_left_after_the_last_round_stays_and_is_reported_in_the_end_event() -> None:
    m = new_match(rounds=1)
    play(m, "deal 1-7-5", "pass", "pass", "pass")
    assert m.events[-2:] == [Result(1, "nobody", [], 1), End("rounds", [49, 49, 49], 3)]


def test_chips_house_rule_sets_every_starting_balance() -> None:
    assert DareRules().chips == 50
    m = new_match(4, chips=7)
    assert balances(m) == [0, 7, 7, 7, 7]


def test_chips_are_conserved_by_every_payment() -> None:
    m = new_match(seed=9, ante=3, rounds=3)
    total = sum(balances(m))
    while not m.over:
        move = GAME.legal(m.state, m.pending.seats[0])[-1]
        m.submit(move)
        while (ev := m.expected()) is not None:
            m.submit(ev)
            assert sum(balances(m)) == total
    assert sum(m.events[-1].balances) + m.events[-1].pot == total  # type: ignore[attr-defined]


# -- undo ----------------------------------------------------------------------------------------

def test_undo_takes_back_the_last_action() -> None:
    m = new_match(seed=4)
    hand = list(m.state.hands[2])
    play(m, "pass")
    assert m.pending.seats == (3,)
    before = len(m.events)
    step(m, Undo())
    assert len(m.events) == before - 1
    assert m.pending.seats == (2,)
    assert m.state.hands[2] == hand and m.state.laid[2] is None


def test_undo_then_the_same_play_replays_the_same_seeded_deal() -> None:
    m = new_match(seed=4)
    play(m, "pass", "pass", "pass")  # round 1 ends with nobody: round 2 is dealt
    recorded = list(m.events)
    assert isinstance(recorded[-4], Deal) and recorded[-4].round == 2
    step(m, Undo())  # takes back p1's pass and everything after it
    assert m.pending.seats == (1,)
    assert m.events == recorded[:6]
    play(m, "pass")
    assert m.events == recorded


def test_undo_with_nothing_to_take_back_refused() -> None:
    m = new_match(seed=4)
    assert "take back" in refused(m, Undo())


# -- what Match.why_not refuses ------------------------------------------------------------------

def test_refused_out_of_turn() -> None:
    m = new_match()
    play(m, "deal 1-7-5")
    assert refused(m, "p3 pass") == \
        "it is not p3's turn (waiting for p2: p2 to lay sets matching 3)"


def test_refused_wrong_kind_of_event() -> None:
    m = new_match()
    assert refused(m, "pass") == "waiting for the deal of round 1 by p1, not for 'p2 pass'"
    play(m, "deal 1-7-5")
    assert refused(m, "deal 1-7-5") == \
        "waiting for p2 to lay sets matching 3, not for 'deal 1-7-5'"


def test_refused_seeded_deal_that_the_seed_does_not_deal() -> None:
    m = new_match(seed=8, advance=False)
    want = m.expected()
    assert isinstance(want, Deal)
    other = Deal(1, 1, list(reversed(want.field)), want.hands)
    if other == want:
        other = Deal(1, 1, [10, 10, 10], want.hands)
    assert refused(m, other) == f"the seed deals {GAME.notate(want)!r} here"
    m.submit(want)


def test_refused_auto_event_that_the_engine_does_not_compute() -> None:
    m = new_match(advance=False)
    m.submit(GAME.parse(m.state, "deal 1-7-5"))
    assert refused(m, Pay(2, 0, 5, "ante")) == "the engine computes 'pay p2 pot 1 ante' here"
    assert refused(m, Pay(3, 0, 1, "ante")) == "the engine computes 'pay p2 pot 1 ante' here"
    assert refused(m, End("rounds", [50, 50, 50], 0)) == \
        "the engine computes 'pay p2 pot 1 ante' here"


def test_refused_deal_while_waiting_for_the_showdown() -> None:
    m = new_match()
    play(m, *TWO_SETS_EACH)
    assert refused(m, "deal 1-7-5") == \
        "round 1 is already dealt (waiting for p2 to show the three cards left)"


def test_refused_show_while_waiting_for_the_deal() -> None:
    m = new_match()
    assert refused(m, "show 2-3-4") == \
        "there is no showdown now (waiting for the deal of round 1 by p1)"


# -- notation ------------------------------------------------------------------------------------

ROUND_TRIP = [
    "deal 1-7-5",
    "deal 1-7-5 | p1 1-2-3-3-3-4-5-5-9 | p2 ??-??-??-??-??-??-??-??-?? | "
    "p3 2-2-4-6-6-8-8-10-10",
    "p2 sets 1-3-9 3-5-5",
    "p2 sets 1-3-9",
    "p3 pass",
    "p1 sets 1-3-9 3-5-5 4-9-10",
    "p3 shows 2-3-4",
    "pay p1 pot 1 ante",
    "pay pot p2 3 win",
    "pay pot p3 1 split",
    "result round 1 dare p2 deals p2",
    "result round 4 tie - deals p1",
    "result round 2 split p3,p1 deals p3",
    "result round 9 nobody - deals p2",
    "end rounds p1=51 p2=-4 p3=50 pot=3",
    "undo",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_notation_round_trip_of_every_event_kind(text: str) -> None:
    state = GAME.new_state(DareRules(), 3, True)
    ev = GAME.parse(state, text)
    assert GAME.notate(ev) == text
    assert GAME.parse(state, GAME.notate(ev)) == ev


def test_notation_covers_every_event_type() -> None:
    state = GAME.new_state(DareRules(), 3, True)
    kinds = {type(GAME.parse(state, text)) for text in ROUND_TRIP}
    assert kinds == set(GAME.events)


def test_notation_typed_on_a_turn_defaults_to_that_player_and_sorts() -> None:
    m = new_match()
    play(m, "deal 1-7-5")
    assert GAME.parse(m.state, "5-5-3 9,3,1") == Lay(2, [[1, 3, 9], [3, 5, 5]])
    assert GAME.parse(m.state, "lay 9-1-3") == Lay(2, [[1, 3, 9]])
    assert GAME.parse(m.state, "P3 PASS") == Lay(3, [])


def test_every_spelling_of_a_dare_verb_reads_as_the_documented_one() -> None:
    """'sets' may be typed 'set', 'lay' or 'lays'; 'pass' 'none' or '-'; 'show' 'shows';
    'deal' 'field': each spelling gives the event its documented word gives."""
    m = new_match()
    play(m, "deal 1-7-5")
    state = m.state
    for verb in ("sets", "set", "lay", "lays"):
        assert GAME.parse(state, f"p2 {verb} 1-3-9") == Lay(2, [[1, 3, 9]]), verb
    for verb in ("pass", "none", "-"):
        assert GAME.parse(state, f"p2 {verb}") == Lay(2, []), verb
    for verb in ("show", "shows"):
        assert GAME.parse(state, f"p3 {verb} 2-3-4") == Show(3, [2, 3, 4]), verb
    fresh = GAME.new_state(DareRules(), 3, True)
    assert GAME.parse(fresh, "field 1-7-5") == GAME.parse(fresh, "deal 1-7-5")


def test_a_showdown_hand_and_a_deals_hands_are_read_sorted() -> None:
    """Cards typed in any order read as the sorted hand the log records and prints (the
    showdown's '9-1-3' is 'shows 1-3-9', as a set's is)."""
    state = GAME.new_state(DareRules(), 3, True)
    assert GAME.parse(state, "p2 shows 9-1-3") == Show(2, [1, 3, 9])
    hand = "9-8-7-6-5-4-3-2-1"
    ev = GAME.parse(state, f"deal 1-7-5 | p1 {hand} | p2 {hand} | p3 {hand}")
    assert type(ev) is Deal and ev.hands == [list(range(1, 10))] * 3


@pytest.mark.parametrize(("text", "message"), [
    ("1-3", "'1-3' is not a set of three cards joined by '-' (e.g. 1-3-9)"),
    ("1-3-9 3-5", "'3-5' is not a set of three cards joined by '-' (e.g. 1-3-9)"),
    ("sets 1-3-x", "'x' is not a card of the kabufuda (39) deck (its cards: 1-10)"),
    ("1-3-11", "'11' is not a card of the kabufuda (39) deck (its cards: 1-10)"),
    ("blah", "'blah' is not a Dare move: use sets like '1-3-9', 'pass', 'show 2-3-4' or "
             "'deal 1-7-5'"),
    ("", "empty move: type the three field cards as they are turned up (e.g. 'deal 1-7-5')"),
    ("pass 1-3-9", "'pass' takes nothing after it, got '1-3-9'"),
    ("sets", "'sets' needs sets after it, like '1-3-9 3-5-5' (type 'pass' to lay none)"),
    ("p7 pass", "there is no seat p7 (seats are p1-p3)"),
    ("p2 deal 1-7-5", "'deal' is not typed after a seat: type 'deal 1-7-5'"),
    ("deal 1-7-5 | p2 1-2-3-4-5-6-7-8-9",
     "hand 1 of the deal is labelled p2: give the hands in seat order, p1 to p3"),
    # a hand left blank (a '|' too many) is counted out of the hands listed
    ("deal 1-7-5 | p1 1-2-3-4-5-6-7-8-9 | p2 1-2-3-4-5-6-7-8-9 |",
     "the deal lists 2 hands, not 3: list each player's hand in seat order, p1 to p3, 9 cards "
     "each ('??' for a card nobody saw), or none"),
    ("pay p1 pot x ante", "a payment reads 'pay FROM TO CHIPS [WHY]', e.g. 'pay p1 pot 1 ante'"),
    ("pay p1 p9 1 ante", "'p9' is neither 'pot' nor a seat p1-p3"),
    ("result round 1 won p2 deals p2",
     "'won' is not a way a round ends (dare, showdown, tie, split, order, nobody)"),
    # the words 'round' and 'deals' are read, not passed over; the round is a number
    ("result rnd 1 dare p2 deals p2", "a result reads 'result round N REASON WINNERS deals pN', "
                                      "e.g. 'result round 3 showdown p2 deals p2'"),
    ("result round 1 dare p2 dealer p2", "a result reads 'result round N REASON WINNERS deals "
                                         "pN', e.g. 'result round 3 showdown p2 deals p2'"),
    ("result round one dare p2 deals p2", "a result reads 'result round N REASON WINNERS deals "
                                          "pN', e.g. 'result round 3 showdown p2 deals p2'"),
    ("result round 1 dare pot deals p2", "a result reads 'result round N REASON WINNERS deals "
                                          "pN', e.g. 'result round 3 showdown p2 deals p2'"),
    ("result round 1 dare", "a result reads 'result round N REASON WINNERS deals pN', e.g. "
                            "'result round 3 showdown p2 deals p2'"),
    ("end rounds p1=1 p2=2", "the end reads 'end REASON p1=CHIPS p2=CHIPS p3=CHIPS pot=CHIPS'"),
    ("end rounds p1=1 p2=2 p3=x pot=0",
     "the end reads 'end REASON p1=CHIPS p2=CHIPS p3=CHIPS pot=CHIPS'"),
    ("undo 2", "'undo' takes nothing after it, got '2'"),
])
def test_notation_typos_raise_parse_errors_that_quote_the_input(text: str, message: str) -> None:
    state = GAME.new_state(DareRules(), 3, True)
    with pytest.raises(ParseError) as info:
        GAME.parse(state, text)
    assert str(info.value) == message


def test_a_seeded_games_refusal_of_a_word_offers_only_the_players_moves() -> None:
    """'show' and 'deal' are the referee's at a real table: where the seed deals, a word
    that is no move is answered with the moves a player types."""
    with pytest.raises(ParseError) as info:
        GAME.parse(GAME.new_state(DareRules(), 3, False), "blah")
    assert str(info.value) == "'blah' is not a Dare move: use sets like '1-3-9' or 'pass'"


def test_physical_an_empty_line_says_what_the_referee_types_now() -> None:
    # it said "type sets like '1-3-9 3-5-5', or 'pass'" while the referee had to type the
    # deal or a showdown hand
    m = new_match(2)
    with pytest.raises(ParseError, match=r"empty move: type the three field cards .*'deal 1-7-5'"):
        GAME.parse(m.state, "")
    play(m, "deal 1-7-5")
    for line in ("", "p2"):
        with pytest.raises(ParseError, match=r"empty move: lay 0-3 sets .* ones digit is 3"):
            GAME.parse(m.state, line)
    play(m, "1-3-9 3-5-5", "2-2-9 4-4-5")
    with pytest.raises(ParseError, match=r"empty move: type the three cards p2 shows"):
        GAME.parse(m.state, "")
