"""Uno Dare's rules, one test (or a few) per clause of the rule text and of the rulings.

Most tests referee a real table (``--physical``: the test types each card, as a referee does);
the seeded ones start from a deal written here (hands and pile chosen), so that the draws
and the pile running out are known."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from matchtools import play, refused, since
from rich.console import Console

from kabucli import render
from kabucli.cards import UNKNOWN, UNO_DARE_108
from kabucli.engine import Match, make_header, walk
from kabucli.errors import KabuError, ParseError, RuleError
from kabucli.games.uno_dare import text
from kabucli.games.uno_dare.events import DARES
from kabucli.games.uno_dare.rules import (
    CODES,
    GAME,
    Answer,
    Catch,
    Deal,
    Keep,
    Name,
    Pass,
    Penalty,
    Play,
    Race,
    Reshuffle,
    Score,
    Uno,
    UnoDareRules,
    UnoState,
    dare_number,
    playable,
)
from kabucli.games.uno_dare.text import DARE_LISTS, dare_text
from kabucli.log import SeatInfo
from kabucli.rules import build, validate

DECK = UNO_DARE_108


def cards(text: str) -> list[int]:
    return DECK.parse_many(text.split())


def rules(**values: object) -> UnoDareRules:
    return validate(UnoDareRules, dict(values), "uno-dare")


def physical(n: int = 3, **values: object) -> Match:
    """A real table of ``n`` players (the test types every card)."""
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, n + 1)]
    m = Match(GAME, make_header(GAME, rules(**values), seats, None))
    m.advance()
    return m


def seeded(hands: list[str], up: str, pile: str, **values: object) -> Match:
    """A seeded match whose first deal is ``hands``, ``up`` and ``pile`` (top card last):
    the deal is recorded as it is, as if the seed had dealt it."""
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, len(hands) + 1)]
    m = Match(GAME, make_header(GAME, rules(**values), seats, 1))
    m._commit(Deal(1, 1, DECK.parse(up), [cards(h) for h in hands], cards(pile)))
    m.advance()
    return m


def st(m: Match) -> UnoState:
    state: UnoState = m.state
    return state


def pile_emptied(m: Match) -> UnoState:
    """``m``'s state, its draw pile emptied as if drawn to the end (a shortcut for the draws
    that empty it): the discards wait to be reshuffled."""
    s = st(m)
    s.pile.clear()
    GAME._settle(s)
    return s


# -- the deck -----------------------------------------------------------------------------

def test_deck_has_108_cards_per_color_one_0_two_of_1_to_9_two_skips_reverses_dares() -> None:
    assert DECK.size == 108
    for color in "RYGB":
        assert DECK.counts[DECK.parse(f"{color}0")] == 1
        for n in range(1, 10):
            assert DECK.counts[DECK.parse(f"{color}{n}")] == 2
        assert DECK.counts[DECK.parse(f"{color}S")] == 2
        assert DECK.counts[DECK.parse(f"{color}R")] == 2
    dares = [c for c in DECK.counts if dare_number(c)]
    assert len(dares) == 16 and all(DECK.counts[c] == 1 for c in dares)


def test_dare_numbers_1_to_8_are_colored_dares_red_1_2_yellow_3_4_green_5_6_blue_7_8() -> None:
    assert [dare_number(DECK.parse(t)) for t in
            ["RD1", "RD2", "YD3", "YD4", "GD5", "GD6", "BD7", "BD8"]] == list(range(1, 9))


def test_dare_numbers_9_to_16_are_the_eight_wild_dares() -> None:
    assert [dare_number(DECK.parse(f"WD{n}")) for n in range(9, 17)] == list(range(9, 17))
    assert all(DECK.value(DECK.parse(f"WD{n}")) == 50 for n in range(9, 17))


def test_no_draw_two_wild_or_wild_draw_four_in_the_deck() -> None:
    for token in ("R+2", "W", "W+4", "WD4", "RD9"):
        with pytest.raises(Exception):  # noqa: B017 (ParseError: not a card of the deck)
            DECK.parse(token)


@pytest.mark.parametrize("n", [2, 10])
def test_players_2_to_10_each_dealt_seven_with_one_card_turned_up(n: int) -> None:
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, n + 1)]
    m = Match(GAME, make_header(GAME, rules(), seats, 5))
    m.advance()
    s = st(m)
    assert [len(s.hands[p]) for p in range(1, n + 1)] == [7] * n
    assert len(s.discards) == 1 and len(s.pile) == 108 - 7 * n - 1
    assert s.accounted() == 108
    assert (GAME.min_players, GAME.max_players) == (2, 10)


def test_play_passes_in_seat_order_from_the_dealers_left_and_wraps_round() -> None:
    """Seed: the dealer's left goes first and play proceeds clockwise; RULINGS: the next seat
    plays next. Four number cards go round p2, p3, p4, p1, and p2 is next again."""
    m = physical(4)
    play(m, "deal R5")
    order = []
    for card in ("R1", "R2", "R3", "R4"):
        order.append(st(m).turn)
        play(m, card)
    assert order == [2, 3, 4, 1] and st(m).turn == 2 and st(m).direction == 1


def test_house_rule_defaults_are_the_rulings() -> None:
    """RULINGS: dares family, dare_skips true, target 500, scoring winner (and the rules page:
    dare_on_wild false, max_turns 1000, stuck_rounds 3). A match with no rule set plays by
    them: the first score to reach 500 ends it, 499 does not."""
    assert build(UnoDareRules) == UnoDareRules(
        dares="family", house_dares=(), dare_skips=True, dare_on_wild=False, target=500,
        scoring="winner", max_turns=1000, stuck_rounds=3)
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, 4)]
    assert make_header(GAME, build(UnoDareRules), seats, 1).rules == {
        "dares": "family", "house_dares": [], "dare_skips": True, "dare_on_wild": False,
        "target": 500, "scoring": "winner", "max_turns": 1000, "stuck_rounds": 3}
    for before, over in ((429, False), (430, True)):  # p2 wins a round of 70 points
        m = seeded(["R1 GS", "G1 R2", "B1 WD9"], "G5", "Y1 Y2 Y3 Y4")
        st(m).totals[2] = before  # a shortcut for the rounds won before
        play(m, "p2 G1 uno", "p3 B1 uno", "p1 R1 uno", "p2 R2")
        assert st(m).totals[2] == before + 70 and m.over is over


# -- the first discard --------------------------------------------------------------------

def test_first_discard_number_the_player_after_the_dealer_plays_first() -> None:
    m = physical()
    play(m, "deal R5")
    assert st(m).turn == 2 and st(m).color == 0


def test_first_discard_skip_skips_the_first_player() -> None:
    m = physical()
    play(m, "deal RS")
    assert st(m).turn == 3


def test_first_discard_reverse_the_dealer_plays_first_in_the_reversed_direction() -> None:
    m = physical(4)
    play(m, "deal GR")
    assert st(m).turn == 1 and st(m).direction == -1
    play(m, "G3")
    assert st(m).turn == 4


def test_first_discard_reverse_with_two_players_the_dealer_plays_first() -> None:
    """A Reverse turned up first: the dealer plays first (RULINGS); with two players a Reverse
    acts as a Skip, which skips the first player: the same, the dealer plays first."""
    m = physical(2)
    play(m, "deal GR")
    assert st(m).turn == 1 and st(m).phase == "turn"
    assert "it is not p2's turn" in refused(m, "p2 G3")
    play(m, "G3")
    assert st(m).turn == 2


def test_first_discard_dare_hits_the_first_player() -> None:
    m = physical()
    play(m, "deal YD3")
    assert st(m).phase == "hit" and st(m).hit == 2 and st(m).hit_number == 3
    play(m, "decline")
    assert len(st(m).hands[2]) == 9 and st(m).turn == 3


def test_first_discard_wild_dare_the_first_player_names_the_color_and_is_hit() -> None:
    m = physical()
    play(m, "deal WD12")
    assert st(m).phase == "name" and m.pending.seats == (2,)
    assert "not now" in refused(m, "decline")
    play(m, "blue")
    assert st(m).color == 3 and st(m).phase == "hit" and st(m).hit == 2
    play(m, "try", "done")
    assert len(st(m).hands[2]) == 7 and st(m).turn == 3


@pytest.mark.parametrize("color", [-1, 4])
def test_the_color_named_for_a_wild_dare_turned_up_is_one_of_the_four(color: int) -> None:
    """A Name event (as a log may hold it) naming no color of red, yellow, green, blue is
    refused, and the first player still names the color."""
    m = physical()
    play(m, "deal WD12")
    assert refused(m, Name(2, color)) == f"color {color} is not one of the four"
    play(m, "green")
    assert st(m).color == 2 and st(m).phase == "hit"

@pytest.mark.parametrize(("deal", "answers", "first"), [
    (["deal YD3"], ["decline"], 2),
    (["deal YD3"], ["try", "failed"], 2),
    (["deal WD12", "blue"], ["try", "done"], 2),
])
@pytest.mark.parametrize("dare_skips", [True, False])
def test_dare_skips_also_rules_a_dare_or_wild_dare_turned_up_first(
        deal: list[str], answers: list[str], first: int, dare_skips: bool) -> None:
    m = physical(dare_skips=dare_skips)
    play(m, *deal, *answers)
    # the first player (p2) was hit: they lose their turn with dare_skips, else play it
    assert st(m).phase == "turn" and st(m).turn == (3 if dare_skips else first)


# -- matching -------------------------------------------------------------------------------

@pytest.mark.parametrize(("top", "color", "card", "ok"), [
    ("R5", 0, "R9", True),    # same color
    ("R5", 0, "G5", True),    # same number
    ("RS", 0, "GS", True),    # same symbol: Skip on Skip
    ("RR", 0, "BR", True),    # Reverse on Reverse
    ("RD1", 0, "BD8", True),  # Dare on Dare
    ("R5", 0, "G6", False),
    ("RS", 0, "GR", False),
    ("R5", 0, "WD9", True),   # a Wild Dare is always playable
    ("WD9", 2, "G4", True),   # a Wild Dare on the pile: its named color
    ("WD9", 2, "RD1", False),  # ...not the Dare symbol
    ("WD9", 2, "WD10", True),
])
def test_a_card_matches_by_color_number_or_symbol_and_wild_dares_always(
        top: str, color: int, card: str, ok: bool) -> None:
    assert playable(DECK.parse(card), DECK.parse(top), color) is ok


@pytest.mark.parametrize("at_a_real_table", [True, False])
def test_house_rule_dare_on_wild_lets_a_colored_dare_match_a_wild_dare(
        at_a_real_table: bool) -> None:
    """By default a Wild Dare on the pile is matched by its named color only (a Decision);
    with dare_on_wild a colored Dare of any color may go on it too, as Dare on Dare. The
    bots' choices and legal() follow the same rule."""
    assert playable(DECK.parse("BD8"), DECK.parse("WD9"), 2) is False
    assert playable(DECK.parse("BD8"), DECK.parse("WD9"), 2, dare_on_wild=True) is True
    assert playable(DECK.parse("B3"), DECK.parse("WD9"), 2, dare_on_wild=True) is False
    for house_rule in (False, True):
        if at_a_real_table:
            m = physical(2, dare_on_wild=house_rule)
            play(m, "deal R5")
        else:
            m = seeded(["R1 R2 R3 R4 R6 R7 R8", "WD9 BD8 G1 G2 G3 G4 G6"], "R5",
                       "Y1 Y2 Y3 Y4 Y6 Y7 Y8", dare_on_wild=house_rule)
        play(m, "p2 WD9 green", "p1 try", "p1 done")  # p1 hit, skipped: p2 plays on
        seat = st(m).turn
        assert (seat, st(m).discards[-1], st(m).color) == (2, DECK.parse("WD9"), 2)
        legal = [GAME.notate(e) for e in GAME.legal(st(m), seat)]
        if house_rule:
            play(m, f"p{seat} BD8")
            assert st(m).discards[-1] == DECK.parse("BD8")
        else:
            assert "does not match" in refused(m, f"p{seat} BD8")
        if not at_a_real_table:
            assert (f"p{seat} play BD8" in legal) is house_rule


@pytest.mark.parametrize("card", ["BS", "BR", "B3"])
def test_house_rule_dare_on_wild_lets_a_colored_dare_not_a_skip_reverse_or_number_match_a_wild_dare(
        card: str) -> None:
    """dare_on_wild adds Dare on Wild Dare (as Dare on Dare) and nothing else: a Skip, a
    Reverse or a number of another color than the one named still does not match."""
    assert playable(DECK.parse(card), DECK.parse("WD9"), 2, dare_on_wild=True) is False
    m = physical(2, dare_on_wild=True)
    play(m, "deal R5", "p2 WD9 green", "p1 try", "p1 done")
    assert "does not match" in refused(m, f"p2 {card}")

def test_a_card_the_player_does_not_hold_is_refused_with_the_hand_they_hold() -> None:
    """'play R1' by a player without one was refused as 'p1 does not hold R1', which left
    them to look up what they may play (probe BP); the refusal quotes their hand, as
    Dare's does."""
    m = seeded(["B1 B2 B3", "R5 G7 WD9"], "R3", "Y1 Y2 Y3")  # (p1 deals: p2 plays first)
    assert refused(m, "R1") == "p2's hand R5 G7 WD9 does not hold R1"


def test_a_card_that_does_not_match_is_refused() -> None:
    m = physical()
    play(m, "deal R5")
    assert "does not match R5 (red)" in refused(m, "G7")


@pytest.mark.parametrize(("up", "before", "ok"), [
    ("G5", [], "GD5"),                      # on a number: its color only
    ("GS", [], "GD6"),                      # on a Skip (p2 is skipped, p3 plays)
    ("GR", ["p1 draw", "p1 keep"], "GD6"),  # on a Reverse (the dealer first, then p3)
    ("YD3", ["decline"], "RD1"),            # on another Dare, whatever its color
])
def test_a_dare_is_played_only_on_its_color_or_on_another_dare(up: str, before: list[str],
                                                                ok: str) -> None:
    """Seed: a Dare card can only be played on a card of its color or on another Dare: not on
    a number, Skip or Reverse of another color."""
    m = physical()
    play(m, f"deal {up}", *before)
    if up != "YD3":
        for bad in ("RD1", "YD4", "BD8"):
            assert "does not match" in refused(m, bad)
    seat = st(m).turn
    play(m, ok)
    assert st(m).discards[-1] == DECK.parse(ok) and st(m).hit == st(m).step(seat, 1)


def test_a_wild_dare_played_hits_the_next_player_with_its_own_dare_number() -> None:
    m = physical(4, dares="show-off")
    play(m, "deal R5", "p2 WD13 yellow")
    s = st(m)
    assert (s.phase, s.hit, s.turn, s.hit_number, s.color) == ("hit", 3, 3, 13, 1)
    assert GAME.view(s)["dare"] == {"number": 13, "text": DARE_LISTS["show-off"][12]}
    play(m, "decline")
    assert len(st(m).hands[3]) == 9 and st(m).turn == 4 and st(m).hit == 0


def test_a_wild_dare_names_a_color_and_that_color_is_played_next() -> None:
    m = physical()
    play(m, "deal R5")
    assert "names a color" in refused(m, "WD10")
    assert "only a Wild Dare names a color" in refused(m, "R7 blue")
    play(m, "WD10 g")
    assert st(m).color == 2 and st(m).hit == 3


@pytest.mark.parametrize("color", [-1, 4])
def test_a_wild_dare_played_names_one_of_the_four_colors(color: int) -> None:
    """A Play event of a Wild Dare (as a log or a bot of the user's may hold it) naming no
    color of red, yellow, green, blue is refused, and the player still plays it naming one."""
    m = physical()
    play(m, "deal R5")
    assert "names a color" in refused(m, Play(2, DECK.parse("WD10"), color))
    play(m, "WD10 b")
    assert st(m).color == 3 and st(m).hit == 3


# -- drawing --------------------------------------------------------------------------------

def test_a_player_may_always_draw_instead_of_playing_even_holding_a_match() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 Y8", "B1 B2 B3 B4 B6 B7 B8"],
               "Y5", "Y9 B9")
    play(m, "p2 draw")
    assert st(m).hands[2][-1] == DECK.parse("B9")
    assert st(m).turn == 3  # B9 does not match Y5: the turn passes


def test_a_card_drawn_that_matches_may_be_played_at_once_and_only_that_card() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 Y8", "B1 B2 B3 B4 B6 B7 B8"],
               "Y5", "B9 Y9")
    play(m, "draw")
    assert st(m).phase == "drawn" and st(m).turn == 2
    assert "only the card just drawn (Y9)" in refused(m, "Y8")
    assert "not p1's" in refused(m, "p1 R1")
    play(m, "Y9")
    assert st(m).turn == 3


def test_a_card_drawn_may_be_kept_and_the_turn_passes() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 Y8", "B1 B2 B3 B4 B6 B7 B8"],
               "Y5", "B9 Y9")
    play(m, "draw", "keep")
    assert st(m).turn == 3 and len(st(m).hands[2]) == 8


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discards_but_the_top_card() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 Y8", "B1 B2 B3 B4 B6 B7 Y3"],
               "Y5", "Y9")
    play(m, "p2 Y8", "p3 Y3", "p1 draw")  # p1 takes the last card: the pile is empty
    last = m.events[-1]
    assert type(last) is Reshuffle and last.size == 2 and last.pile is not None
    assert sorted(last.pile) == sorted(cards("Y5 Y8"))
    assert st(m).discards == cards("Y3") and st(m).phase == "drawn"


def test_with_nothing_left_to_draw_a_draw_passes_the_turn() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"],
               "Y5", "")
    play(m, "p2 draw")
    assert st(m).turn == 3 and len(st(m).hands[2]) == 7


def test_no_pass_or_keep_without_a_draw_a_player_who_does_not_play_draws() -> None:
    m = physical()
    play(m, "deal R5")
    assert refused(m, "keep") == "not now: waiting for p2 to play on R5 (red) or draw"
    why = "there is no missing UNO call now (waiting for p2 to play on R5 (red) or draw)"
    assert refused(m, "pass") == why
    assert refused(m, "p2 pass") == why
    assert st(m).turn == 2 and st(m).phase == "turn"


def test_at_a_real_table_after_a_draw_any_matching_card_may_be_played() -> None:
    m = physical()
    play(m, "deal R5", "draw")
    assert st(m).phase == "drawn" and len(st(m).hands[2]) == 8
    play(m, "R7")  # maybe not the card drawn: the program cannot tell
    assert st(m).discards[-1] == DECK.parse("R7") and len(st(m).hands[2]) == 7
    assert st(m).turn == 3
    m = physical()
    play(m, "deal R5", "draw")
    assert "does not match R5" in refused(m, "G7")  # it must still match


def test_a_penalty_drawn_partly_before_and_partly_after_a_reshuffle() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 RD1", "B1 B2 B3 B4 B6 B7 B8"], "R5", "Y9")
    play(m, "p2 RD1", "p3 decline")  # one card in the pile for a penalty of 2
    assert since(m, 1) == ["p2 play RD1", "p3 decline", "penalty p3 draws 1 declined",
                           "reshuffle R5", "penalty p3 draws 1 declined"]
    assert len(st(m).hands[3]) == 9 and st(m).hands[3][-2:] == cards("Y9 R5")


def test_a_penalty_with_nothing_left_to_draw_at_all_draws_what_there_is() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"],
               "YD3", "")  # an empty pile, and no discards under the dare turned up
    play(m, "decline")
    assert since(m, 1) == ["p2 decline", "penalty p2 draws 0 declined"]
    assert len(st(m).hands[2]) == 7 and st(m).turn == 3 and st(m).phase == "turn"


# -- action cards ---------------------------------------------------------------------------

def test_skip_the_next_player_misses_their_turn() -> None:
    m = physical(4)
    play(m, "deal R5", "RS")
    assert st(m).turn == 4


def test_reverse_play_turns_round() -> None:
    m = physical(4)
    play(m, "deal R5", "RR")
    assert st(m).turn == 1 and st(m).direction == -1
    play(m, "R3")
    assert st(m).turn == 4


def test_reverse_with_two_players_acts_as_skip() -> None:
    m = physical(2)
    play(m, "deal R5", "RR")
    assert st(m).turn == 2


def test_skip_with_two_players_the_same_player_plays_again() -> None:
    m = physical(2)
    play(m, "deal R5", "RS")
    assert st(m).turn == 2 and st(m).phase == "turn"
    play(m, "R3")  # p2 again
    assert st(m).turn == 1


def test_dare_hit_decline_draws_two() -> None:
    m = physical()
    play(m, "deal R5", "RD1")
    assert m.pending.seats == (3,) and st(m).hit_number == 1
    play(m, "decline")
    assert since(m, len(m.events) - 2) == ["p3 decline", "penalty p3 draws 2 declined"]
    assert len(st(m).hands[3]) == 9


def test_dare_hit_try_then_done_draws_nothing() -> None:
    m = physical()
    play(m, "deal R5", "RD1", "try")
    assert st(m).phase == "verdict"
    assert "not now" in refused(m, "decline")
    play(m, "done")
    assert len(st(m).hands[3]) == 7


def test_the_moves_listed_for_a_color_to_name_a_dare_hit_and_a_verdict_are_the_rules_own() -> None:
    """What a seat may do (the moves listed to bots and to the conformance checks): name one
    of the four colors for a Wild Dare turned up, try or decline a dare, and after a try the
    table's done or failed; nobody else moves meanwhile."""
    m = physical()
    play(m, "deal WD12")
    assert GAME.legal(st(m), 2) == [Name(2, c) for c in range(4)]
    play(m, "green")
    assert GAME.legal(st(m), 2) == [Answer(2, "try"), Answer(2, "decline")]
    play(m, "try")
    assert GAME.legal(st(m), 2) == [Answer(2, "done"), Answer(2, "failed")]
    assert GAME.legal(st(m), 1) == GAME.legal(st(m), 3) == []
    for ev in GAME.legal(st(m), 2):
        assert m.why_not(ev) is None


def test_dare_hit_try_then_failed_draws_two() -> None:
    m = physical()
    play(m, "deal R5", "RD1", "try", "failed")
    assert type(m.events[-1]) is Penalty and len(st(m).hands[3]) == 9


def test_dare_skips_default_the_hit_player_loses_their_turn_either_way() -> None:
    m = physical()
    play(m, "deal R5", "RD1", "try", "done")
    assert st(m).turn == 1
    m = physical()
    play(m, "deal R5", "RD1", "decline")
    assert st(m).turn == 1


def test_dare_skips_false_the_hit_player_plays_after_the_dare() -> None:
    m = physical(dare_skips=False)
    play(m, "deal R5", "RD1", "decline")
    assert st(m).turn == 3 and st(m).phase == "turn"


def test_dare_skips_false_the_hit_player_may_play_a_dare_card_once_the_first_dare_is_settled(
        ) -> None:
    """Rules page, Decision (dares do not stack): "With dare_skips = false they may play a
    dare card on their turn once the first dare is settled." p3, hit by RD1, declines and
    then plays a Dare of their own, which hits p1; a Wild Dare may follow the same way."""
    for answers in (["p3 decline"], ["p3 try", "p3 failed"], ["p3 try", "p3 done"]):
        m = physical(dare_skips=False)
        play(m, "deal R5", "p2 RD1", *answers)
        assert st(m).turn == 3 and st(m).phase == "turn" and st(m).hit == 0
        play(m, "p3 RD2")
        assert st(m).discards[-1] == DECK.parse("RD2")
        assert (st(m).phase, st(m).hit, st(m).hit_number) == ("hit", 1, 2)
    m = physical(dare_skips=False)
    play(m, "deal R5", "p2 RD1", "p3 decline", "p3 WD9 blue")
    assert (st(m).phase, st(m).hit, st(m).hit_number, st(m).color) == ("hit", 1, 9, 3)


@pytest.mark.parametrize("dare_skips", [True, False])
def test_a_dare_hits_the_next_player_in_the_direction_of_play(dare_skips: bool) -> None:
    """After a Reverse the next player is the previous seat: a dare hits them, and with
    dare_skips the turn then passes on in the reversed direction."""
    m = physical(4, dare_skips=dare_skips)
    play(m, "deal R5", "p2 RR", "p1 RD1")  # play runs p2, p1, p4, p3, ...
    assert st(m).hit == 4 and st(m).direction == -1
    play(m, "decline")
    assert len(st(m).hands[4]) == 9 and st(m).turn == (3 if dare_skips else 4)


@pytest.mark.parametrize("answer", ["p3 RD2", "p3 WD9 red", "p3 draw", "p3 R7"])
def test_a_player_hit_by_a_dare_answers_it_and_cannot_pass_it_on(answer: str) -> None:
    """A Decision (the texts allow no stacking): the player hit tries the dare or declines it
    before any card is played or drawn; another Dare does not pass it on to the next player."""
    m = physical()
    play(m, "deal R5", "p2 RD1")
    assert "waiting for p3, hit by dare #1, to try it or decline" in refused(m, answer)
    play(m, "p3 try")
    assert "waiting for the table's verdict" in refused(m, answer)
    play(m, "p3 done")
    assert st(m).turn == 1 and st(m).hit == 0


def test_a_dare_hit_shows_the_dare_number_and_its_text() -> None:
    m = physical(dares="daredevil")
    play(m, "deal R5", "RD2")
    hint = text.hint(st(m), 3)
    assert "dare #2" in hint and DARE_LISTS["daredevil"][1] in hint
    assert GAME.view(st(m))["dare"] == {"number": 2, "text": DARE_LISTS["daredevil"][1]}


def test_a_dare_card_as_the_last_card_makes_the_next_player_draw_two_without_a_dare() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 RD1", "B1 B2 B3 B4 B6 B7 B8"],
               "G5", "Y1 Y2 Y3 Y4 Y6")
    play(m, "p2 G1 uno", "p3 B1", "p1 R1", "p2 RD1")
    rd1 = Play(2, DECK.parse("RD1"))
    last = m.events.index(rd1)
    assert since(m, last)[:3] == [
        "p2 play RD1", "penalty p3 draws 2 last", "score round 1 winner p2 hands p1=30 p2=0 "
        "p3=40"]
    assert st(m).totals[2] == 70  # the two cards p3 drew (Y6, Y4) count


def test_a_dare_as_the_last_card_on_an_empty_draw_pile_reshuffles_the_discards_for_the_draw(
) -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 GD5", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y7")
    play(m, "p2 G1 uno", "p3 draw")  # Y7: the pile is empty, G5 is reshuffled into a new one
    play(m, "p1 draw", "p1 keep")  # G5: the pile is empty again, G1 alone on the discards
    assert st(m).pile == [] and st(m).discards == cards("G1")
    start = len(m.events)
    play(m, "p2 GD5")  # the last card: the round ends, the discard under it is reshuffled
    assert since(m, start)[:4] == ["p2 play GD5", "reshuffle G1", "penalty p3 draws 1 last",
                                   "score round 1 winner p2 hands p1=36 p2=0 p3=39"]


def test_a_wild_dare_as_the_last_card_makes_the_next_player_draw_two_without_a_dare() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 WD9", "B1 B2 B3 B4 B6 B7 B8"],
               "G5", "Y1 Y2 Y3 Y4 Y6")
    play(m, "p2 G1 uno", "p3 B1", "p1 R1", "p2 WD9 blue")
    last = m.events.index(Play(2, DECK.parse("WD9"), 3))
    assert since(m, last)[:3] == [
        "p2 play WD9 blue", "penalty p3 draws 2 last", "score round 1 winner p2 hands p1=30 "
        "p2=0 p3=40"]
    assert not any(type(e) is Answer for e in m.events)  # nobody was hit by dare #9
    assert st(m).totals[2] == 70  # the two cards p3 drew (Y6, Y4) count


def test_a_wild_dare_as_the_last_card_needs_no_color_at_a_real_table() -> None:
    m = physical(2, target=1000)
    play(m, "deal R5", "p2 R6", "p1 R7", "p2 R8", "p1 R9", "p2 R1", "p1 R2", "p2 R3", "p1 R4",
         "p2 G4", "p1 G3")
    assert "names a color" in refused(m, "p2 WD9")  # two cards left: a color is named
    play(m, "p2 G2 uno", "p1 G1")
    start = len(m.events)
    play(m, "p2 WD9")  # the last card: the round ends, no color is played on
    assert since(m, start) == ["p2 play WD9", "penalty p1 draws 2 last"]
    assert st(m).phase == "round" and st(m).color == 2  # the color in play stays green
    assert walk(GAME, m.header, m.events)[1] is None  # the log audits clean


def test_a_wild_dare_as_the_last_card_needs_no_color_in_a_seeded_game() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 WD9", "B1 B2 B3 B4 B6 B7 B8"],
               "G5", "Y1 Y2 Y3 Y4 Y6")
    wd9 = DECK.parse("WD9")
    assert "names a color" in refused(m, "p2 WD9")
    assert Play(2, wd9) not in GAME.legal(st(m), 2)
    play(m, "p2 G1 uno", "p3 B1", "p1 R1")
    assert Play(2, wd9) in GAME.legal(st(m), 2)
    play(m, "p2 WD9")
    last = m.events.index(Play(2, wd9))
    assert since(m, last)[:3] == [
        "p2 play WD9", "penalty p3 draws 2 last", "score round 1 winner p2 hands p1=30 p2=0 "
        "p3=40"]
    assert GAME.parse(st(m), "p2 play WD9") == Play(2, wd9)  # the notation reads back


# -- UNO ------------------------------------------------------------------------------------

def test_uno_called_with_the_next_to_last_card_cannot_be_caught() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    play(m, "G1 uno")
    assert st(m).window == 0 and m.pending.seats == (3,)
    assert "called UNO in time" in refused(m, "p3 catch p2")


def test_a_missing_uno_call_caught_before_the_next_move_draws_two() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2 Y3")
    play(m, "G1")
    assert st(m).window == 2 and m.pending.seats == (1, 2, 3)
    play(m, "p1 catch p2")
    assert since(m, len(m.events) - 2) == ["p1 catch p2", "penalty p2 draws 2 uno"]
    assert len(st(m).hands[2]) == 3 and st(m).turn == 3


def test_a_player_caught_without_uno_is_not_shown_as_having_called_it_before_the_penalty() -> None:
    """``replay --step`` draws the table after the catch, before the penalty event that
    follows it: the player caught holds one card still, but never called UNO."""
    m = physical(2)
    play(m, "deal R5", "p2 R6", "p1 R7", "p2 R8", "p1 R9", "p2 R1", "p1 R2", "p2 R3", "p1 R4",
         "p2 G4", "p1 G3", "p2 G2", "p1 catch p2")
    assert since(m, len(m.events) - 2) == ["p1 catch p2", "penalty p2 draws 2 uno"]
    after_catch, broken = walk(GAME, m.header, m.events[:-1])  # the penalty still to come
    assert broken is None and after_catch.state.todo
    console = Console(width=100, no_color=True, record=True)
    console.print(render.table(GAME, after_catch))
    p2 = next(line for line in console.export_text().splitlines() if "│ p2 " in line)
    assert "UNO" not in p2.replace("no UNO", "") and "caught" in p2


def test_a_late_uno_call_before_anybody_catches_saves_the_player() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    play(m, "G1", "p2 uno")
    assert st(m).window == 0
    assert "called UNO in time" in refused(m, "p3 catch p2")


def test_only_the_player_left_with_one_card_calls_uno_for_themselves() -> None:
    """Seed: the player down to one card yells "Uno!"; another seat cannot call it for them
    (that would save them from a catch)."""
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2 Y3")
    play(m, "G1")
    assert st(m).window == 2
    assert refused(m, "p3 uno") == "p3 does not hold one card without having called UNO"
    play(m, "p1 catch p2")
    assert since(m, len(m.events) - 2) == ["p1 catch p2", "penalty p2 draws 2 uno"]

def test_a_missing_uno_call_is_let_go_once_by_each_other_seat_and_never_by_the_player() -> None:
    """While p2 holds one card without having called UNO, each other seat may catch p2 or let
    the call go (pass), once; p2 calls UNO or waits, but does not pass."""
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2 Y3")
    play(m, "G1")
    assert refused(m, "p2 pass") == "p2 calls UNO ('uno') or waits to be caught, but does not pass"
    play(m, "p1 pass")
    assert refused(m, "p1 pass") == "p1 already let p2's missing call go"
    assert st(m).window == 2

def test_a_catch_by_a_seat_not_to_move_says_why_it_is_refused() -> None:
    # by the seat to move or by any other: the reason, not "it is not p1's turn"
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    play(m, "G1", "p2 uno")
    assert m.pending.seats == (3,)
    assert refused(m, "p1 catch p2") == "p2 called UNO in time"
    assert refused(m, "p1 catch p3") == "p3 holds 7 cards, not one: nobody may be caught now"
    assert refused(m, "p1 pass") == "there is no missing UNO call now"
    assert "it is not p1's turn" in refused(m, "p1 draw")


def test_a_catch_after_the_next_move_is_too_late() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    play(m, "G1", "p3 draw")
    assert "too late" in refused(m, "p1 catch p2")


def test_a_catch_moves_after_a_missing_call_is_too_late_not_a_call_in_time() -> None:
    # p2 never called UNO; two moves later a catch is refused as too late (it said "p2
    # called UNO in time"), until p2's hand changes
    m = physical()
    play(m, "deal R5", *[f"R{k}" for k in (1, 1, 2, 2, 3, 3, 4, 4, 6, 6, 7, 7, 8, 8)], "Y8",
         "p2 Y9", "p3 draw", "p3 keep", "p1 Y1")
    assert st(m).window == 1 and len(st(m).hands[2]) == 1
    assert "too late: p2 did not call UNO" in refused(m, "p3 catch p2")
    play(m, "p1 uno", "p2 draw", "p2 keep")  # p1 called late; p2 holds two cards again
    assert "p1 called UNO in time" in refused(m, "p3 catch p1")
    assert "p2 holds 2 cards, not one" in refused(m, "p3 catch p2")


def test_a_draw_with_nothing_left_to_draw_keeps_a_missing_call_too_late() -> None:
    # p2 plays down to one card without calling UNO and p3's move makes the call too late;
    # p2's draw finds nothing left to draw anywhere, so p2 still holds the one card: a catch
    # is still too late (it said "p2 called UNO in time")
    m = seeded(["B1 B2 B3 B4 B6 B7 B8", "R1 G9", "B1 B2 B3 B4 B6 B7 B8"], "R5", "Y7")
    play(m, "p2 R1", "p3 draw", "p1 draw", "p1 keep")
    assert st(m).pile == [] and len(st(m).discards) == 1 and st(m).missed == {2}
    play(m, "p2 draw")
    assert st(m).hands[2] == cards("G9") and st(m).turn == 3
    assert "too late: p2 did not call UNO" in refused(m, "p3 catch p2")


def test_a_catch_of_a_player_holding_several_cards_is_refused() -> None:
    m = physical()
    play(m, "deal R5", "R3")
    assert "holds 6 cards, not one" in refused(m, "p3 catch p2")


def test_uno_is_called_before_or_after_the_color_of_a_wild_dare() -> None:
    m = physical(2, target=1000)
    play(m, "deal R5", "p2 R6", "p1 R7", "p2 R8", "p1 R9", "p2 R1", "p1 R2", "p2 R3", "p1 R4",
         "p2 G4", "p1 G3")
    assert GAME.parse(st(m), "WD9 uno green") == GAME.parse(st(m), "WD9 green uno") \
        == Play(2, DECK.parse("WD9"), 2, True)
    play(m, "p2 WD9 uno green")
    assert st(m).window == 0 and st(m).color == 2 and len(st(m).hands[2]) == 1


def test_a_hand_shown_at_the_end_of_a_round_is_the_size_the_player_holds() -> None:
    m = physical(2, target=1000)
    play(m, "deal R5", "p2 R6", "p1 R7", "p2 R8", "p1 R9", "p2 R1", "p1 R0", "p2 R3", "p1 R4",
         "p2 G4", "p1 G3", "p2 G2 uno", "p1 G1", "p2 G7")  # p2 wins; p1 holds one card
    assert refused(m, "p1 shows R5-R6") == ("p1 holds 1 card, not 2: type the 1 card p1 "
                                            "shows (e.g. 'p1 shows R1')")  # (was "1 cards")
    play(m, "p1 shows R5")
    assert st(m).phase == "deal" and st(m).totals[2] == 5


def test_uno_is_called_only_with_the_next_to_last_card() -> None:
    m = physical()
    play(m, "deal R5")
    assert "next-to-last card" in refused(m, "R3 uno")


def test_uno_is_not_called_with_the_last_card() -> None:
    m = seeded(["B2 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2 Y3")
    play(m, "p2 G1 uno", "p3 B1", "p1 B2")
    assert "next-to-last card" in refused(m, "p2 G2 uno")
    assert Play(2, DECK.parse("G2"), None, True) not in GAME.legal(st(m), 2)
    play(m, "p2 G2")  # without 'uno' it wins the round
    assert Score(1, 2, [30, 0, 30]) in m.events


def test_the_moves_listed_with_the_next_to_last_card_offer_it_with_and_without_the_uno_call(
) -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    g1 = DECK.parse("G1")
    assert {Play(2, g1, None, True), Play(2, g1, None, False)} <= set(GAME.legal(st(m), 2))


def test_while_a_missing_call_may_be_caught_only_the_seat_to_move_draws() -> None:
    # every seat may act (catch, pass), but a draw is still the move of the seat to move
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2 Y3")
    play(m, "G1")
    assert st(m).window == 2 and m.pending.seats == (1, 2, 3)
    assert refused(m, "p1 draw") == "it is p3's move, not p1's (round 1, turn 2)"
    assert len(st(m).hands[1]) == 7 and st(m).turn == 3 and st(m).window == 2


def test_nobody_catches_themselves() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    play(m, "G1")
    assert st(m).window == 2
    assert refused(m, "p2 catch p2") == "nobody catches themselves: type 'uno' to call it"
    assert Catch(2, 2) not in GAME.legal(st(m), 2)
    assert st(m).window == 2 and len(st(m).hands[2]) == 1


PLAIN = ["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 G3"]  # p2 plays G1 on G5
DARED = ["R1 R2 R3 R4 R6 R7 R8", "G1 RD1", "B1 B2 B3 B4 B6 B7 B8"]  # p2 plays RD1 on R5


@pytest.mark.parametrize(("hands", "up", "first", "next_move"), [
    (PLAIN, "G5", "p2 G1", "p3 G3"),
    (PLAIN, "G5", "p2 G1", "p3 draw"),
    (DARED, "R5", "p2 RD1", "p3 decline"),
    (DARED, "R5", "p2 RD1", "p3 try"),
], ids=["a-card-played", "a-draw", "a-dare-declined", "a-dare-tried"])
def test_the_uno_window_closes_at_any_next_move(hands: list[str], up: str, first: str,
                                                next_move: str) -> None:
    m = seeded(hands, up, "Y1 Y2 Y3 Y4")
    play(m, first)  # p2 is down to one card without calling UNO
    assert st(m).window == 2
    play(m, next_move)
    assert st(m).window == 0
    # refused as too late (or, while the table judges a dare tried, as nobody's move but p3's)
    assert re.search("too late|not p1's turn", refused(m, "p1 catch p2"))
    refused(m, "p1 pass")
    assert len(st(m).hands[2]) == 1


# -- races between bots ---------------------------------------------------------------------

class Catcher:
    """A test bot: catches every missing call, with a fixed reaction profile."""

    trusted = True

    def __init__(self, reaction: tuple[int, int]) -> None:
        self.reaction = reaction

    def catches(self, s: UnoState, seat: int) -> bool:
        return True


class _Daring:
    """A bot of the user's with its own chance in 16 that a dare it tries is judged done."""

    def __init__(self, daring: int) -> None:
        self.daring = daring


def test_the_table_judges_a_user_bots_dare_done_daring_times_in_16() -> None:
    seats = [SeatInfo("p1", "bot:cmd:mine"), SeatInfo("p2", "bot:strong")]
    matches = [Match(GAME, make_header(GAME, rules(), seats, seed)) for seed in range(1, 321)]

    def done(daring: int) -> int:
        return sum(GAME._verdict(m, _Daring(daring), 1).answer == "done" for m in matches)

    assert done(0) == 0 and done(16) == 320
    assert 0 < done(1) < 60 and 260 < done(15) < 320  # about 20 in 320, and 300
    assert 110 < done(8) < 210  # about half


def test_bots_catching_together_race_and_the_fastest_catches() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8", "Y7 Y8 Y9 B5 B9 GS GR"],
               "G5", "Y1 Y2 Y3 Y4")
    play(m, "p2 G1")
    bots = {1: Catcher((500, 500)), 3: Catcher((100, 100)), 4: Catcher((300, 300))}
    move = GAME.bot_move(m, bots)
    assert move is not None and move[0] == Catch(3, 2)
    assert type(m.events[-1]) is Race and m.events[-1].draws[1] == -1


def test_a_race_of_equal_times_goes_to_the_first_seat_after_the_player_caught() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G2 G6 G7", "G3 G4", "Y7 Y8 Y9 B5 B9 GS GR"],
               "G5", "Y1 Y2 Y3 Y4")
    play(m, "p2 G2", "p3 G3")  # p3 is down to one card without calling UNO
    same = (200, 200)  # every draw gives 200 ms
    move = GAME.bot_move(m, {1: Catcher(same), 2: Catcher(same), 4: Catcher(same)})
    assert move is not None and move[0] == Catch(4, 3)  # p4 comes first after p3
    assert type(m.events[-1]) is Race


def test_a_race_line_names_no_seat_that_let_the_call_go() -> None:
    """The race draws a time for every seat but the one caught, also for a person who let
    the call go before the bots were asked: the line named them as racing ('reaction times
    for a race to catch p2: p1 draw 811, p3 389 ms, p4 175 ms', probe BU). Only the seats
    still free to catch are named."""
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8", "Y7 Y8 Y9 B5 B9 GS GR"],
               "G5", "Y1 Y2 Y3 Y4")
    play(m, "p2 G1", "p1 pass")
    move = GAME.bot_move(m, {3: Catcher((100, 100)), 4: Catcher((300, 300))})
    assert move is not None and move[0] == Catch(3, 2)
    race = m.events[-1]
    assert type(race) is Race and race.draws[0] >= 0  # (p1's draw is made all the same)
    line = render.event_line(GAME, len(m.events), race, m).plain
    assert "race to catch p2: p3 " in line and ", p4 " in line and "p1" not in line, line


class Asked:
    """A test bot with no ``catches`` (as a user's program): asked for its move, it catches."""

    trusted = False

    def choose(self, game: object, s: UnoState, seat: int) -> Catch:
        return Catch(seat, s.window)


def test_a_bot_of_the_users_own_is_asked_for_its_move_in_the_race() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    play(m, "p2 G1")
    move = GAME.bot_move(m, {1: Asked(), 3: Asked()})
    assert move is not None and move[0] in (Catch(1, 2), Catch(3, 2)) and move[1] is False
    assert type(m.events[-1]) is Race


def test_people_are_asked_before_bots_catch() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    play(m, "p2 G1")
    bots = {3: Catcher((100, 100))}
    assert GAME.bot_move(m, bots) is None  # p1, a person, may catch first
    play(m, "p1 pass")
    move = GAME.bot_move(m, bots)
    assert move is not None and move[0] == Catch(3, 2)


class LetsGo:
    """A test bot that never catches a missing call."""

    trusted = True

    def catches(self, s: UnoState, seat: int) -> bool:
        return False


def test_bots_that_do_not_catch_let_the_call_go_and_the_person_to_move_moves() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2")
    play(m, "p2 G1")  # p2 holds one card, uncalled; p3, a person, is to move
    bots = {1: LetsGo()}
    assert GAME.bot_move(m, bots) is None  # p3 may catch first
    play(m, "p3 pass")
    assert GAME.bot_move(m, bots) == (Pass(1), True)  # the bot's choice is recorded
    play(m, Pass(1))
    assert GAME.bot_move(m, bots) is None  # nobody caught: p3 moves
    play(m, "p3 B1")
    assert st(m).window == 0 and 2 in st(m).missed


# Two missing calls in one round: p2 plays down to one card without calling, the person at p1
# lets it go, the window ends one of three ways, then p3 plays down to one card uncalled.
TWO_WINDOWS = (["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "G3 G4", "B1 B2 B3 B4 B6 B7 B8"], "G5",
               "Y1 Y2 Y3 Y4 Y6 Y7")


@pytest.mark.parametrize("ended_by", [["p4 catch p2"], ["p2 uno"], []],
                         ids=["a-catch", "a-late-uno", "the-next-move"])
def test_a_pass_is_per_window_each_missing_uno_call_asks_the_people_first_again(
        ended_by: list[str]) -> None:
    m = seeded(*TWO_WINDOWS)
    play(m, "p2 G1", "p1 pass", *ended_by, "p3 G3")
    assert st(m).window == 3
    bots = {2: Catcher((100, 100)), 4: Catcher((300, 300))}
    assert GAME.bot_move(m, bots) is None  # p1, a person, is asked first again
    play(m, "p1 pass")  # and may let this call go too
    move = GAME.bot_move(m, bots)
    assert move is not None and move[0] == Catch(2, 3)


# -- scoring and the match ------------------------------------------------------------------

def test_cards_score_face_value_20_for_skip_reverse_dare_and_50_for_a_wild_dare() -> None:
    assert [DECK.value(DECK.parse(t)) for t in ["R0", "R7", "B9", "GS", "YR", "BD8", "WD16"]] == \
        [0, 7, 9, 20, 20, 20, 50]


def test_scoring_winner_the_round_winner_scores_every_other_hand() -> None:
    m = seeded(["R1 GS", "G1 R2", "B1 WD9"], "G5", "Y1 Y2 Y3 Y4", target=500)
    play(m, "p2 G1 uno", "p3 B1 uno", "p1 R1 uno", "p2 R2")
    score = next(e for e in m.events if type(e) is Score)
    assert score.winner == 2 and score.hands == [20, 0, 50]
    assert st(m).totals[1:] == [0, 70, 0] and st(m).dealer == 2


def test_scoring_lowest_each_player_adds_their_own_hand_and_the_lowest_wins() -> None:
    m = seeded(["R1 GS", "G1 R2", "B1 WD9"], "G5", "Y1 Y2 Y3 Y4", target=50,
               scoring="lowest")
    play(m, "p2 G1 uno", "p3 B1 uno", "p1 R1 uno", "p2 R2")
    assert st(m).totals[1:] == [20, 0, 50]
    assert m.over and GAME.outcome(st(m))["winners"] == ["p2"]  # type: ignore[index]


def test_scoring_lowest_the_lowest_total_wins_and_ties_share_the_win() -> None:
    m = seeded(["R1 R0", "G1 R2", "B1 WD9"], "G5", "Y1 Y2 Y3 Y4", target=50,
               scoring="lowest")
    play(m, "p2 G1 uno", "p3 B1 uno", "p1 R1 uno", "p2 R2")
    assert st(m).totals[1:] == [0, 0, 50]  # p1 kept R0: 0 points, as p2 who went out
    out = GAME.outcome(st(m))
    assert m.over and out is not None and out["winners"] == ["p1", "p2"]


def test_the_match_ends_when_a_score_reaches_the_target() -> None:
    m = seeded(["R1 GS", "G1 R2", "B1 WD9"], "G5", "Y1 Y2 Y3 Y4", target=70)
    play(m, "p2 G1 uno", "p3 B1 uno", "p1 R1 uno", "p2 R2")
    assert m.over
    out = GAME.outcome(st(m))
    assert out is not None and out["winners"] == ["p2"] and out["scores"]["p2"] == 70


def test_the_match_has_no_outcome_until_a_score_reaches_the_target() -> None:
    m = seeded(["R1 GS", "G1 R2", "B1 WD9"], "G5", "Y1 Y2 Y3 Y4", target=71)
    assert GAME.outcome(st(m)) is None
    play(m, "p2 G1 uno", "p3 B1 uno", "p1 R1 uno", "p2 R2")  # p2 scores 70: one short
    assert not m.over and st(m).round == 2 and GAME.outcome(st(m)) is None


def test_the_deal_passes_to_the_next_seat_after_each_round() -> None:
    m = seeded(["R1 GS", "G1 R2", "B1 WD9"], "G5", "Y1 Y2 Y3 Y4")
    play(m, "p2 G1 uno", "p3 B1 uno", "p1 R1 uno", "p2 R2")
    assert st(m).round == 2 and st(m).dealer == 2
    deal = next(e for e in reversed(m.events) if type(e) is Deal)
    assert deal.dealer == 2 and deal.round == 2


def test_the_next_round_starts_at_the_new_dealers_left_in_seat_order() -> None:
    """Round 2 is dealt by p2: p3 (p2's left, the next seat) plays first, clockwise again
    whatever the direction was when round 1 ended."""
    m = physical(3, target=1000)
    play(m, "deal R5")
    st(m).hands[2] = [UNKNOWN] * 2  # a shortcut: p2 is down to two cards
    play(m, "p2 RR uno", "p1 R3", "p3 R4")  # reversed: p2, p1, p3, p2
    assert st(m).direction == -1 and st(m).turn == 2
    play(m, "p2 R6")  # p2 goes out; p1 and p3 show the cards left
    play(m, "p1 shows B1-B2-B3-B4-B6-B7", "p3 shows Y1-Y2-Y3-Y4-Y6-Y7")
    assert (st(m).round, st(m).dealer, st(m).phase) == (2, 2, "deal")
    play(m, "deal Y5")
    assert st(m).turn == 3 and st(m).direction == 1
    play(m, "Y1")
    assert st(m).turn == 1


def test_a_round_past_max_turns_ends_without_a_winner_and_scores_nothing() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"],
               "Y5", "", max_turns=10)
    play(m, *["draw"] * 10)
    score = next(e for e in m.events if type(e) is Score)
    assert score.winner == 0 and st(m).totals == [0, 0, 0, 0] and st(m).round == 2


def test_a_missing_uno_call_is_neither_shown_nor_caught_once_the_round_ran_out_of_turns(
) -> None:
    # p2's tenth turn leaves p2 one card without a call, and the round ends there without a
    # winner: while the hands are shown the table shows no call missing, and none is caught
    m = physical(2, max_turns=10)
    play(m, "deal R5", "p2 R1", "p1 draw", "p1 keep", "p2 R2", "p1 draw", "p1 keep", "p2 R3",
         "p1 draw", "p1 keep", "p2 R4", "p1 draw", "p1 keep", "p2 RS", "p2 RS")
    assert st(m).phase == "round" and len(st(m).hands[2]) == 1
    assert GAME.view(st(m))["uno_missing"] is None
    assert refused(m, "p1 catch p2") == ("waiting for p1 to show the cards left, not for "
                                         "'p1 catch p2'")
    play(m, "p1 shows R6-R7-R8-G1-G2-G3-G4-G6-G7-G8-G9", "p2 shows B9")
    assert st(m).round == 2 and st(m).totals == [0, 0, 0]


def test_max_turns_each_card_played_counts_one_turn() -> None:
    """Rules page: "each card played or draw counts one" toward max_turns."""
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "R1 R2 R3 R4 R6 R7 R8", "R9 R9 R0 G1 G2 G3 G4"],
               "R5", "", max_turns=10)
    play(m, "R1", "R9", "R1", "R2", "R9", "R2", "R3", "R0", "R3")  # p2, p3, p1, ...
    assert st(m).round == 1 and st(m).turns == 9
    play(m, "R4")  # p2: the tenth turn
    score = next(e for e in m.events if type(e) is Score)
    assert score.winner == 0 and st(m).round == 2


def test_the_deal_passes_to_the_next_seat_after_a_round_without_a_winner() -> None:
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"],
               "Y5", "", max_turns=10)
    play(m, *["draw"] * 10)
    score = next(e for e in m.events if type(e) is Score)
    assert score.winner == 0
    assert st(m).round == 2 and st(m).dealer == 2
    deal = next(e for e in reversed(m.events) if type(e) is Deal)
    assert deal.round == 2 and deal.dealer == 2


# -- the dare lists ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["family", "daredevil", "show-off"])
def test_the_three_shipped_dare_lists_hold_16_short_dares(name: str) -> None:
    texts = DARE_LISTS[name]
    assert len(texts) == DARES and len(set(texts)) == DARES
    assert all(0 < len(t) <= 70 and t.isprintable() for t in texts)
    assert dare_text(rules(dares=name), 16) == texts[15]


def house_file(tmp_path: Path, dares: list[str]) -> Path:
    path = tmp_path / "house.toml"
    body = ",\n".join(f'  "{d}"' for d in dares)
    path.write_text(f'[uno-dare]\ndares = "house-rules"\nhouse_dares = [\n{body}\n]\n')
    return path


def test_house_rules_dares_come_from_a_rules_file_and_are_written_into_the_header(
        tmp_path: Path) -> None:
    dares = [f"House dare number {i}" for i in range(1, 17)]
    r = build(UnoDareRules, file=house_file(tmp_path, dares), game="uno-dare")
    assert r.house_dares == tuple(dares) and dare_text(r, 9) == "House dare number 9"
    header = make_header(GAME, r, [SeatInfo("a", "human"), SeatInfo("b", "human")], 3)
    assert list(header.rules["house_dares"]) == dares
    assert Match(GAME, header).rules == r  # a replay reads the same texts back


@pytest.mark.parametrize(("dares", "words"), [
    (["one"] * 15, "16 dares, not 15"),
    (["one"] * 17, "16 dares, not 17"),
    (["x" * 81] + ["one"] * 15, "#1 is 81 characters long"),
    (["bell\\u0007"] + ["one"] * 15, "printable"),
])
def test_house_rules_dares_are_checked_when_read(tmp_path: Path, dares: list[str],
                                                 words: str) -> None:
    with pytest.raises(RuleError) as err:
        build(UnoDareRules, file=house_file(tmp_path, dares), game="uno-dare")
    assert words in str(err.value)


def test_house_dares_are_played_only_with_the_house_rules_list() -> None:
    with pytest.raises(RuleError, match="only with dares=house-rules"):
        rules(house_dares=["a"] * 16)


def test_a_house_dare_is_shown_as_text_never_as_markup() -> None:
    m = physical(dares="house-rules", house_dares=["[red]blush[/] [link=x]now[/]"] + ["ok"] * 15)
    play(m, "deal RD1")
    console = Console(width=100, no_color=True, record=True)
    console.print(render.table(GAME, m))
    assert '"[red]blush[/] [link=x]now[/]"' in console.export_text()


# -- at a real table --------------------------------------------------------------------------

def test_at_a_real_table_hands_are_known_only_by_their_size() -> None:
    m = physical()
    play(m, "deal R5", "draw")
    s = st(m)
    assert s.hands[2] == [UNKNOWN] * 8 and s.phase == "drawn"
    assert GAME.view(s, 1)["hands"]["p2"] == 8


def test_at_a_real_table_no_race_is_drawn_the_referee_types_who_caught_first() -> None:
    """Races between bots are drawn from the seed; a real table has none to record."""
    m = physical(2)  # waiting for the deal: a chance event, as a race is
    assert refused(m, Race([500, 200])) == ("races are drawn only in seeded games (at a real "
                                            "table type who caught first)")
    play(m, "deal R5")
    assert st(m).discards == cards("R5")


def test_at_a_real_table_a_card_is_refused_when_every_copy_already_showed() -> None:
    m = physical()
    play(m, "deal R0")
    assert "the deck has 1 R0: it is accounted for" in refused(m, "R0")
    m = physical()
    play(m, "deal R1", "R1")
    assert "the deck has 2 R1: all are accounted for" in refused(m, "R1")


def test_at_a_real_table_a_card_accounted_for_is_refused_saying_what_to_type_instead() -> None:
    """The referee typed a card all of whose copies showed (a slip, or the wrong card read):
    the refusal says to type the card really shown, or 'draw'."""
    m = physical()
    play(m, "deal R5", "G5", "GD5", "try", "done")
    reason = refused(m, "GD5")
    assert reason.startswith("the deck has 1 GD5: it is accounted for")
    assert "type the card p2 shows" in reason and "'draw'" in reason


def test_at_a_real_table_a_hand_shown_with_a_card_accounted_for_says_what_to_type_instead(
) -> None:
    m = physical(3, target=1000)
    play(m, "deal R5")
    st(m).hands[2] = [UNKNOWN] * 2  # a shortcut: p2 is down to two cards
    play(m, "p2 RR uno", "p1 R3", "p3 R4", "p2 R6")  # p2 goes out
    reason = refused(m, "p1 shows R6-R6-B1-B3-B4-B6")  # p2 played one of the two R6s
    assert "only 2 copies of R6, and 1 already showed, so not 2 more" in reason
    assert "type the 6 cards p1 shows again" in reason


@pytest.mark.parametrize("up", ["B3", "G7", "YS", "RD1"])
def test_the_hint_of_a_turn_gives_examples_the_table_then_takes(up: str) -> None:
    """The hint of a turn (the prompt's '?', and a refusal out of turn) said "e.g. 'R5', 'WD12
    red'" whatever the top card: on B3, 'R5' was then refused as not matching."""
    m = physical()
    play(m, f"deal {up}")
    if up == "RD1":  # p2 is hit first: the turn that follows is p3's
        play(m, "decline")
    seat = st(m).turn
    hint = text.hint(st(m), seat)
    examples = re.search(r"e\.g\. '([^']+)', '([^']+)'", hint)
    assert examples is not None, hint
    for move in examples.groups():
        assert m.why_not(GAME.parse(st(m), f"p{seat} {move}")) is None, (hint, move)


def test_the_hint_of_a_turn_names_no_card_all_of_whose_copies_showed() -> None:
    m = physical()
    play(m, "deal G5", "GD5", "decline", "p1 WD12 red", "try", "done", "p3 R0")
    hint = text.hint(st(m), 1)  # on R0: the one R0 and WD12 showed
    assert "'R0'" not in hint and "'WD12" not in hint
    examples = re.search(r"e\.g\. '([^']+)', '([^']+)'", hint)
    assert examples is not None, hint
    for move in examples.groups():
        assert m.why_not(GAME.parse(st(m), f"p1 {move}")) is None, (hint, move)


def _example(words: str) -> str:
    """The move a hint or a refusal gives as its example ("e.g. 'MOVE'")."""
    found = re.search(r"e\.g\. '([^']+)'", words)
    assert found is not None, words
    return found.group(1)


def test_a_refusal_out_of_turn_gives_an_example_the_seat_to_move_may_then_play() -> None:
    # (it said "e.g. 'p3 R5'" whatever the top card: on a yellow one that was refused)
    m = physical()
    lines = ["deal R5", *(f"R{k}" for k in (1, 1, 2, 2, 3, 3, 4, 4, 6, 6, 7, 7, 8, 8)), "Y8",
             "p2 Y9"]  # p2 down to one card without UNO: anyone may act, p3 is to play
    play(m, *lines)
    move = _example(refused(m, "p1 Y4"))
    assert move.startswith("p3 ") and m.why_not(GAME.parse(st(m), move)) is None, move


def _showdown() -> Match:
    """A real table of two where p2 went out, the deck's one R0 among its plays, and p1
    holds seven cards nobody saw: p1 shows them next."""
    m = physical(2, target=1000)
    play(m, "deal R5", "p2 R6", "p1 R7", "p2 R0", "p1 R8", "p2 R9", "p1 draw", "p1 keep",
         "p2 R1", "p1 draw", "p1 keep", "p2 R2", "p1 R5", "p2 R3 uno", "p1 draw", "p1 keep",
         "p2 R4")
    assert m.pending.kind == "chance" and len(st(m).hands[1]) == 7
    return m


def test_the_hint_at_a_showdown_gives_a_show_the_table_then_takes() -> None:
    # (it said "e.g. 'p2 shows R5-G7-WD12'" whoever showed and whatever was played: here
    # p1 shows, and the one R0 was played)
    m = _showdown()
    move = _example(text.hint(st(m), 1))
    assert move.startswith("p1 shows ") and "R0" not in move.split()[-1].split("-"), move
    assert m.why_not(GAME.parse(st(m), move)) is None, move


def test_a_refused_show_gives_a_show_the_table_then_takes() -> None:
    m = _showdown()
    for wrong in ("p2 shows R1", "p1 shows R1-R2"):
        move = _example(refused(m, wrong))
        assert "R0" not in move.split()[-1].split("-"), (wrong, move)
        assert m.why_not(GAME.parse(st(m), move)) is None, (wrong, move)


def test_at_a_real_table_a_reshuffled_pile_still_holds_the_cards_put_in_it() -> None:
    m = physical(2)
    play(m, "deal R5", "R1", "p1 R1")
    s = pile_emptied(m)
    assert m.pending.kind == "chance" and "reshuffle of 2 discards" in m.pending.what
    play(m, "reshuffle")
    assert s.pool == Counter(cards("R5 R1")) and len(s.pile) == 2 and s.discards == cards("R1")
    assert "all are accounted for" in refused(m, "R1")  # one on top, one in the new pile
    play(m, "draw")  # a card drawn from the new pile: that R1 may now be in p2's hand
    play(m, "R1")
    assert st(m).discards == cards("R1 R1")


def test_at_a_real_table_a_seat_that_drew_nothing_since_a_reshuffle_holds_no_card_it_took_in(
) -> None:
    """The one R0 went into the new pile. p1 draws one card from it: that may be the R0, so
    the counts of the whole table allowed an R0 from p2 too, who drew nothing since and held
    no R0 at the reshuffle (probe CC: a real table let a seat play a card that could only be
    in another's hand). p2 is refused, p1 is not; at the end of the round p2 cannot show
    one either."""
    m = physical(3)
    play(m, "deal R5", "p2 R0", "p3 R1")
    s = pile_emptied(m)
    play(m, "reshuffle")
    assert s.pool == Counter(cards("R5 R0")) and s.discards == cards("R1")
    play(m, "p1 draw", "p1 keep")
    assert refused(m, "p2 R0") == ("p2 cannot hold R0: at the last reshuffle every R0 went "
                                   "into the draw pile or lay face up, and p2 has drawn "
                                   "nothing since")
    r0 = cards("R0")[0]
    assert not any(isinstance(e, Play) and e.card == r0 for e in GAME.legal(s, 2))
    play(m, "p2 R6", "p3 R2")
    assert any(isinstance(e, Play) and e.card == r0 for e in GAME.legal(s, 1))
    s.hands[1] = [UNKNOWN]  # a shortcut: p1 is down to one card
    play(m, "p1 R7")
    assert m.pending.kind == "chance" and "show" in m.pending.what
    assert "p2 cannot hold R0: " in refused(m, "p2 shows R0-R2-R3-R4-R8")
    play(m, "p2 shows R9-R2-R3-R4-R8")


def test_at_a_real_table_a_reshuffle_before_the_pile_runs_out_is_refused_with_why() -> None:
    """It used to be refused quoting the notation ("waiting for p2 to play ..., not for
    'reshuffle 0'"), which says neither why nor what to do."""
    m = physical()
    play(m, "deal R5")
    assert refused(m, "reshuffle") == ("the draw pile still holds 86 cards: the discards "
                                       "become the new pile only when it runs out")
    m = physical(2)
    play(m, "deal R5")
    st(m).pile[1:] = []  # a shortcut for the draws that leave one card
    assert "the draw pile still holds 1 card: " in refused(m, "reshuffle")
    st(m).pile.clear()  # and with nothing under the top card, none can make a new pile
    assert refused(m, "reshuffle") == ("there are no discards under the top card to make a "
                                       "new pile of")


def test_at_a_real_table_the_hands_are_shown_and_scored_at_the_end_of_a_round() -> None:
    m = physical(2, target=1)
    play(m, "deal R5")
    st(m).hands[1] = [UNKNOWN]  # a shortcut: p1 is down to one card
    play(m, "p2 R6", "p1 R7")
    assert m.pending.kind == "chance" and "show" in m.pending.what
    assert "holds 6 cards" in refused(m, "p2 shows R8")
    play(m, "p2 shows R8-G8-B8-Y8-WD9-GS")
    assert m.over and st(m).totals[1] == 8 * 4 + 50 + 20


def test_what_a_reshuffle_waits_for_names_its_own_size() -> None:
    for played in (["R1"], ["R1", "p1 R2", "R3"]):
        m = physical(2)
        play(m, "deal R5", *played)
        st(m).pile.clear()
        GAME._settle(st(m))
        discards = "1 discard" if played == ["R1"] else "3 discards"
        assert m.pending.what == f"the reshuffle of {discards} into a new draw pile"


def test_what_a_turn_waits_for_names_the_top_card_and_the_color_in_play() -> None:
    """The table shows the top discard and the color in play (rules page, at a real table):
    the card last played, not the one turned up first."""
    m = physical()
    play(m, "deal R5", "R7", "G7")
    assert m.pending.what == "p1 to play on G7 (green) or draw"
    assert "waiting for p1 to play on G7 (green) or draw" in refused(m, "keep")


def test_the_rules_page_lists_the_shipped_dares_as_played() -> None:
    from kabucli import games

    page = games.page("uno-dare")
    for name, dares in DARE_LISTS.items():
        section = page.split(f"\n*{name}*\n\n", 1)[1]
        assert section.startswith("".join(f"{i}. {d}\n" for i, d in enumerate(dares, 1))), name


def test_at_a_real_table_the_new_pile_is_face_down_a_reshuffle_names_no_card() -> None:
    """Only a seeded game's reshuffle records the new pile's cards; typed at a real table
    with cards, the pile would be known card by card."""
    m = physical(2)
    play(m, "deal R5", "R1", "p1 R1")
    st(m).pile.clear()  # a shortcut for the draws that empty it
    GAME._settle(st(m))
    assert refused(m, "reshuffle R5 R1") == ("at a real table the new pile is face down: type "
                                             "'reshuffle' alone")
    play(m, "reshuffle")
    assert st(m).pile == [UNKNOWN, UNKNOWN]


@pytest.mark.parametrize("up", [-1, len(CODES)])
def test_at_a_real_table_the_card_turned_up_is_a_card_of_the_deck(up: int) -> None:
    """A deal read from a log names a code; one outside the deck's is refused, not dealt."""
    m = physical()
    assert refused(m, Deal(1, 1, up)) == "the card turned up is face up: name it"
    play(m, "deal R5")
    assert st(m).discards == cards("R5")


@pytest.mark.parametrize(("rnd", "dealer"), [(1, 2), (2, 1)])
def test_a_deal_is_of_this_round_by_its_dealer(rnd: int, dealer: int) -> None:
    """A deal read from a log names its round and dealer; another round's or another
    dealer's is refused, not dealt."""
    m = physical()
    assert refused(m, Deal(rnd, dealer, DECK.parse("R5"))) == (
        f"this is the deal of round 1 by p1, not of round {rnd} by p{dealer}")
    play(m, "deal R5")
    assert st(m).turn == 2


@pytest.mark.parametrize("target", [0, 4])
def test_a_catch_names_a_seat_at_the_table(target: int) -> None:
    """A catch read from a log (or made by a bot of the user's) of a seat not at the table
    is refused, with or without a missing call."""
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "B1 B2 B3 B4 B6 B7 B8"], "G5", "Y1 Y2 Y3")
    assert refused(m, Catch(1, target)) == f"there is no seat p{target}"
    play(m, "G1")
    assert refused(m, Catch(1, target)) == f"there is no seat p{target}"


def stall(m: Match, rounds: int = 0) -> None:
    """Play the match to its end as bots that never play a card would: draw, keep, let a
    missing call go, decline a dare, name a color when a Wild Dare is turned up; with
    ``rounds``, only until that many rounds were scored. (Rounds of ``max_turns=10`` take a
    few dozen moves: a match still going after 10,000 fails.)"""
    for _ in range(10_000):
        p = m.advance()
        if p.kind == "over" or 0 < rounds <= [type(e) for e in m.events].count(Score):
            return
        moves = GAME.legal(st(m), p.seats[0])
        m.submit(next((e for e in moves if type(e).__name__ in ("Draw", "Keep", "Pass")),
                      next((e for e in moves if type(e) is Answer and e.answer == "decline"),
                           moves[0])))
    raise AssertionError(f"the match is still going after 10,000 moves, round {st(m).round}")


@pytest.mark.parametrize(("scoring", "winner"), [("winner", "p1"), ("lowest", "p2")])
def test_three_rounds_in_a_row_out_of_turns_end_the_match_the_scores_deciding_it(
        scoring: str, winner: str) -> None:
    """Rules page, Decision: when three rounds in a row run out of turns with nobody out,
    the match ends there (``end stuck``), and the scores as they stand decide it as at the
    target: bots that never play a card still finish a match."""
    seats = [SeatInfo(f"p{i}", "bot:random") for i in (1, 2)]
    m = Match(GAME, make_header(GAME, rules(max_turns=10, scoring=scoring), seats, 5))
    st(m).totals[1:] = [40, 25]  # (the scores of rounds played before)
    stall(m)
    scores = [e for e in m.events if type(e) is Score]
    assert len(scores) == 3 and not any(e.winner for e in scores)
    end = m.events[-1]
    assert type(end).__name__ == "End" and end.reason == "stuck"  # type: ignore[attr-defined]
    out = m.outcome()
    assert out is not None and out["winners"] == [winner]
    assert GAME.notate(end).startswith("end stuck p1=40 p2=25")


def test_a_round_with_a_winner_between_rounds_out_of_turns_starts_the_count_again() -> None:
    """Only three rounds in a row that score nothing end the match: a round someone wins,
    scoring points, between them starts the count again."""
    seats = [SeatInfo(f"p{i}", "bot:random") for i in (1, 2)]
    m = Match(GAME, make_header(GAME, rules(max_turns=10), seats, 5))
    won = Score(0, 1, [0, 7])
    st(m).history[:] = [Score(0, 0, [0, 0]), Score(0, 0, [0, 0]), won]
    stall(m)
    scores = [e for e in m.events if type(e) is Score]
    assert len(scores) == 3 and m.events[-1].reason == "stuck"  # type: ignore[attr-defined]


@pytest.mark.parametrize("scoring", ["winner", "lowest"])
def test_rounds_won_with_only_zeros_left_in_the_hands_count_as_scoring_nothing(
        scoring: str) -> None:
    """A round won against hands of zeros (R0, Y0, ...) scores nothing either, under both
    scorings: it counts towards the three, as a round out of turns does. (It did not: bots
    going out against hands of zeros, which happens between random bots, reset the count,
    and a match of such rounds never ended.)"""
    seats = [SeatInfo(f"p{i}", "bot:random") for i in (1, 2)]
    m = Match(GAME, make_header(GAME, rules(max_turns=10, scoring=scoring), seats, 5))
    st(m).history[:] = [Score(0, 1, [0, 0]), Score(0, 2, [0, 0])]  # (won: zeros left)
    stall(m)
    scores = [e for e in m.events if type(e) is Score]
    assert len(scores) == 1 and m.events[-1].reason == "stuck"  # type: ignore[attr-defined]


def test_stuck_rounds_sets_how_many_rounds_in_a_row_that_score_nothing_end_the_match() -> None:
    """House rule stuck_rounds (1-1000, default 3): two of them end the match at the
    second such round."""
    seats = [SeatInfo(f"p{i}", "bot:random") for i in (1, 2)]
    m = Match(GAME, make_header(GAME, rules(max_turns=10, stuck_rounds=2), seats, 5))
    stall(m)
    assert len([e for e in m.events if type(e) is Score]) == 2
    assert m.events[-1].reason == "stuck"  # type: ignore[attr-defined]
    for bad in (0, 1001):
        with pytest.raises(RuleError):
            rules(stuck_rounds=bad)


def test_a_log_from_before_stuck_rounds_is_read_with_the_most_it_may_be() -> None:
    """A log recorded before the rule existed (no stuck_rounds in its header) played on
    through rounds that scored nothing: it is read with stuck_rounds 1000, and a match of
    three such rounds in a row then goes on, as it did, while a new one ends there."""
    from kabucli.engine import check_header

    seats = [SeatInfo(f"p{i}", "bot:random") for i in (1, 2)]
    header = make_header(GAME, rules(max_turns=10), seats, 5)
    old = msgspec.structs.replace(header, rules={k: v for k, v in header.rules.items()
                                                 if k != "stuck_rounds"})
    assert check_header(GAME, old).stuck_rounds == 1000  # type: ignore[attr-defined]
    for h, ends in ((old, False), (header, True)):
        m = Match(GAME, h)
        st(m).history[:] = [Score(0, 0, [0, 0])] * 2  # (two rounds out of turns before)
        stall(m, rounds=1)
        assert [type(e) for e in m.events].count(Score) == 1 and m.over == ends
        assert (st(m).round, st(m).phase == "over") == ((1, True) if ends else (2, False))


def test_one_stuck_round_is_said_as_one_round_not_1_rounds() -> None:
    """With stuck_rounds=1 the result and the end's description said '1 rounds in a row
    scored nothing' (probe BH): a count is said as a sentence says it."""
    from kabucli.games.uno_dare.render import describe, won_why

    seats = [SeatInfo(f"p{i}", "bot:random") for i in (1, 2)]
    m = Match(GAME, make_header(GAME, rules(max_turns=10, stuck_rounds=1), seats, 5))
    st(m).totals[1:] = [40, 25]
    stall(m)
    end = m.events[-1]
    assert end.reason == "stuck"  # type: ignore[attr-defined]
    out = m.outcome()
    assert out is not None
    assert won_why(m, out) == ("winner: p1, with the highest score (40 points) when 1 round "
                               "in a row scored nothing")
    assert describe(GAME, end, m) == ("match over: 1 round in a row scored nothing; scores "
                                      "p1 40, p2 25")


@pytest.mark.parametrize(("scoring", "totals", "winners"), [
    ("winner", [30, 30, 10], ["p1", "p2"]),
    ("lowest", [30, 60, 30], ["p1", "p3"]),
])
def test_a_match_ended_by_stuck_rounds_with_level_scores_is_a_shared_win(
        scoring: str, totals: list[int], winners: list[str]) -> None:
    """Rules page, Decision: after stuck_rounds rounds that score nothing the scores as they
    stand decide the match, "ties share the win" (under both scorings)."""
    seats = [SeatInfo(f"p{i}", "bot:random") for i in (1, 2, 3)]
    m = Match(GAME, make_header(GAME, rules(max_turns=10, scoring=scoring), seats, 5))
    st(m).totals[1:] = totals
    stall(m)
    assert m.events[-1].reason == "stuck"  # type: ignore[attr-defined]
    out = m.outcome()
    assert out is not None and out["winners"] == winners


@pytest.mark.parametrize(("pair", "kind"), [
    ("target=0", "integer 1-1000000"), ("target=1000001", "integer 1-1000000"),
    ("max_turns=9", "integer 10-100000"), ("max_turns=100001", "integer 10-100000"),
])
def test_house_rules_target_and_max_turns_are_refused_outside_the_rules_pages_bounds(
        pair: str, kind: str) -> None:
    """Rules page, House rules: target 1-1000000, max_turns 10-100000; "a value outside these
    bounds is refused when the rules are read". The bounds themselves are allowed."""
    with pytest.raises(RuleError) as err:
        build(UnoDareRules, [pair], game="uno-dare")
    assert str(err.value).endswith(f"is not allowed: expected {kind}")
    edge = build(UnoDareRules, ["target=1", "max_turns=10"], game="uno-dare")
    assert (edge.target, edge.max_turns) == (1, 10)
    edge = build(UnoDareRules, ["target=1000000", "max_turns=100000"], game="uno-dare")
    assert (edge.target, edge.max_turns) == (1_000_000, 100_000)


def test_a_reshuffle_of_one_discard_is_said_as_one_discard_not_1_discards() -> None:
    """At a real table with one card under the top discard, the reshuffle's line said 'the 1
    discards under the top card are shuffled' (probe BT): a count is said as a sentence
    says it; three are still 'discards'."""
    from kabucli.games.uno_dare.render import describe

    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 Y8", "B1 B2 B3 B4 B6 B7 Y3"],
               "Y5", "Y9")
    play(m, "p2 Y8", "p3 draw")  # p3 takes the last card: Y5 alone is under Y8
    last = m.events[-1]
    assert type(last) is Reshuffle and last.size == 1
    assert describe(GAME, last, m) == ("the 1 discard under the top card is shuffled into a "
                                       "new draw pile")
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 Y8", "B1 B2 B3 B4 B6 B7 Y3"],
               "Y5", "Y9")
    play(m, "p2 Y8", "p3 Y3", "p1 draw")  # Y5 and Y8 under Y3
    last = m.events[-1]
    assert type(last) is Reshuffle and last.size == 2
    assert describe(GAME, last, m) == ("the 2 discards under the top card are shuffled into "
                                       "a new draw pile")


def test_a_draw_with_nothing_left_to_draw_is_said_as_drawing_nothing() -> None:
    """With every card but the top discard in a hand, a draw takes no card and passes the
    turn (rules page); its line said 'p2 draws a card' and the hint offered 'draw' as ever
    (probe BT). The draw that takes the pile's last card still draws a card."""
    from kabucli.games.uno_dare.render import describe

    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"],
               "Y5", "Y9")
    assert "or 'draw'" in text.hint(st(m), 2) and "nothing" not in text.hint(st(m), 2)
    play(m, "p2 draw")  # the last card, Y9: it matches
    assert describe(GAME, m.events[-1], m) == "p2 draws a card, and may play it"
    play(m, "keep")
    assert text.hint(st(m), 3) == (
        "play a card on Y5, color yellow (e.g. 'Y0', 'WD9 yellow', add 'uno' with your "
        "next-to-last card), or 'draw' (nothing is left to draw: every other card is in a "
        "hand, and a draw only passes the turn)")
    play(m, "p3 draw")
    assert len(st(m).hands[3]) == 7 and st(m).turn == 1
    assert describe(GAME, m.events[-1], m) == ("p3 draws nothing: every card but the top "
                                               "discard is in a hand; the turn passes")
    m = seeded(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 G3 G4 G6 G7 G8", "B1 B2 B3 B4 B6 B7 B8"],
               "Y5", "G9")
    play(m, "p2 draw")  # the last card, G9: it does not match, the turn passes
    assert st(m).turn == 3 and len(st(m).hands[2]) == 8
    assert describe(GAME, m.events[-1], m) == "p2 draws a card"


@pytest.mark.parametrize("n", [1, 11])
def test_fewer_than_2_or_more_than_10_players_are_refused(n: int) -> None:
    """Seed: "can be played by 2-10 players"; a table of 1 or 11 is refused, not dealt."""
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, n + 1)]
    with pytest.raises(KabuError, match=f"takes 2-10 players, the log has {n}"):
        Match(GAME, make_header(GAME, rules(), seats, 5))


def _a_round_won(m: Match, winner: int, up: str, color: str, shown: str) -> None:
    """At a real table of two: ``winner`` (the seat to play first) goes out in two turns
    (a shortcut leaves them two cards), the other one plays a card and shows ``shown``."""
    other = 3 - winner
    play(m, f"deal {up}")
    assert st(m).turn == winner
    st(m).hands[winner] = [UNKNOWN] * 2  # a shortcut: down to two cards
    play(m, f"p{winner} {color}6 uno", f"p{other} {color}7", f"p{winner} {color}8")
    play(m, f"p{other} shows {shown}")


@pytest.mark.parametrize(("scoring", "totals", "winners"), [
    ("winner", [52, 73], ["p2"]),   # the round winner adds the other hand: 23, then 50
    ("lowest", [73, 52], ["p2"]),   # each adds their own hand: p1 23 + 50; p2 52
])
def test_scores_add_up_round_after_round_until_one_reaches_the_target(
        scoring: str, totals: list[int], winners: list[str]) -> None:
    """Seed: "the first player to reach 500 points (or whatever sum)": points add up over the
    rounds. Target 60: no round scores 60 by itself (23, 52, 50), the third round's total
    does, and the match ends there."""
    m = physical(2, target=60, scoring=scoring)
    _a_round_won(m, 2, "R5", "R", "B1-B2-B3-B4-B6-B7")  # 23 points
    assert not m.over and st(m).round == 2
    _a_round_won(m, 1, "Y5", "Y", "B9-B9-B8-B8-G9-G9")  # 52 points
    assert not m.over and st(m).round == 3
    _a_round_won(m, 2, "G5", "G", "RS-RR-Y1-Y2-Y3-Y4")  # 50 points
    assert st(m).totals[1:] == totals
    out = GAME.outcome(st(m))
    assert m.over and out is not None and out["winners"] == winners


# -- typed lines: who a move is by, when the line leaves it out --------------------------------

def _typed_state(phase: str, turn: int, window: int = 0, n: int = 3) -> UnoState:
    """A real table's state in ``phase``, ``turn`` to move, ``window`` the seat that may be
    caught (0: none): what the reader of a typed line looks at."""
    s = GAME.new_state(rules(), n, True)
    s.phase, s.turn, s.window = phase, turn, window
    return s


def test_a_catch_typed_names_exactly_one_seat() -> None:
    """'catch p2 p3' is refused (not read as a catch of p2)."""
    with pytest.raises(ParseError, match="a catch names who is caught"):
        GAME.parse(_typed_state("turn", 3, window=2), "catch p2 p3")
    assert GAME.parse(_typed_state("turn", 3, window=2), "catch p2") == Catch(3, 2)


def test_uno_typed_without_a_seat_is_the_call_of_the_seat_that_may_be_caught() -> None:
    """p2 is down to one card without having called UNO while p3 is to play: 'uno' alone is
    p2's late call, not p3's."""
    assert GAME.parse(_typed_state("turn", 3, window=2), "uno") == Uno(2)
    assert GAME.parse(_typed_state("turn", 3), "uno") == Uno(3)


def test_a_pass_after_a_draw_keeps_the_card_only_for_the_drawer_and_not_while_a_call_is_missing(
) -> None:
    """After p2 drew: 'pass' (or 'p2 pass') keeps the card; 'p3 pass' is p3 letting a
    missing call go; while p1 may be caught, 'pass' alone lets p1's call go (p2 keeps by
    'p2 pass' or 'keep')."""
    assert GAME.parse(_typed_state("drawn", 2), "pass") == Keep(2)
    assert GAME.parse(_typed_state("drawn", 2), "p2 pass") == Keep(2)
    assert GAME.parse(_typed_state("drawn", 2, window=1), "p3 pass") == Pass(3)
    assert GAME.parse(_typed_state("drawn", 2, window=1), "pass") == Pass(2)
    assert GAME.parse(_typed_state("drawn", 2, window=1), "p2 pass") == Keep(2)


def test_a_card_played_is_typed_by_its_name_not_as_a_face_down_card() -> None:
    """'p3 ??' is refused while reading it, saying why (not as a code outside the deck)."""
    with pytest.raises(ParseError, match="a played card is face up: name it"):
        GAME.parse(_typed_state("turn", 3), "p3 ??")


def test_uno_after_a_card_is_read_in_any_case() -> None:
    """'p3 R3 UNO' and 'p3 WD12 Red Uno' call UNO, as 'uno' does."""
    r3, wd12 = DECK.parse("R3"), DECK.parse("WD12")
    assert GAME.parse(_typed_state("turn", 3), "p3 R3 UNO") == Play(3, r3, None, True)
    assert GAME.parse(_typed_state("turn", 3), "p3 WD12 Red Uno") == Play(3, wd12, 0, True)


def test_at_a_real_table_a_card_one_seat_showed_cannot_be_shown_by_the_next_beyond_its_copies(
) -> None:
    """At the end of a round p1 shows the only B0 and both B1s: p3 cannot show a B0 or a B1
    too (the hands shown count as seen, as the discards do)."""
    m = physical(3, target=1000)
    play(m, "deal R5")
    st(m).hands[2] = [UNKNOWN] * 2  # a shortcut: p2 is down to two cards
    play(m, "p2 RR uno", "p1 R3", "p3 R4", "p2 R6")  # p2 goes out
    play(m, "p1 shows B0-B1-B1-B3-B4-B6")
    assert "only 1 copy of B0, and 1 already showed" in refused(m, "p3 shows B0-Y1-Y2-Y3-Y4-Y6")
    assert "only 2 copies of B1, and 2 already showed" in refused(
        m, "p3 shows B1-Y1-Y2-Y3-Y4-Y6")
    play(m, "p3 shows B2-Y1-Y2-Y3-Y4-Y6")


def test_at_a_real_table_a_hand_down_to_one_unseen_card_is_counted_face_down_too() -> None:
    """A hand nobody has seen reads 'N face down' whatever its size (one card: '1 face down',
    not '??'); a hand shown reads its cards."""
    from kabucli.games.uno_dare.render import hand_line

    assert hand_line(GAME, [UNKNOWN]).plain == "1 face down"
    assert hand_line(GAME, [UNKNOWN] * 7).plain == "7 face down"
    assert hand_line(GAME, cards("R5 G7")).plain == " R5   G7 "


def test_at_a_real_table_the_card_left_on_top_at_a_reshuffle_counts_as_out_of_every_hand(
) -> None:
    """Both R1s lay on the discards at the reshuffle: one went into the new pile, one stayed
    on top. p1 draws one card (maybe that R1); p2, who drew nothing since, cannot hold one."""
    m = physical(3)
    play(m, "deal R5", "p2 R1", "p3 R1")
    s = pile_emptied(m)
    play(m, "reshuffle")
    assert s.pool == Counter(cards("R5 R1")) and s.discards == cards("R1")
    play(m, "p1 draw", "p1 keep")
    assert refused(m, "p2 R1") == ("p2 cannot hold R1: at the last reshuffle every R1 went "
                                   "into the draw pile or lay face up, and p2 has drawn "
                                   "nothing since")


# -- the reading of typed lines, each check pinned (mutation probe EA) ------------------------

def _seeded_state() -> UnoState:
    m = Match(GAME, make_header(GAME, rules(), [SeatInfo("a"), SeatInfo("b")], 3))
    m.advance()
    return st(m)


@pytest.mark.parametrize(("line", "said"), [
    ("deal R5 | p2 R1 | p1 G7 | pile B2", "hand 1 of the deal is labelled p2: give the hands "
                                          "in seat order, p1 to p2"),
    ("deal R5 | p1 R1 | p1 G7 | pile B2", "hand 2 of the deal is labelled p1: give the hands "
                                          "in seat order, p1 to p2"),
    ("deal R5 | banana R1 | p2 G7 | pile B2", "each part of a deal reads 'pN CARDS'"),
    ("deal R5 | p1 R1 | p9 G7 | pile B2", "there is no seat p9"),
    ("deal R5 | p1", "each part of a deal reads 'pN CARDS' or 'pile CARDS'"),
])
def test_a_deal_line_gives_each_hand_labelled_with_its_seat_in_seat_order(line: str,
                                                                          said: str) -> None:
    """docs/rules/uno-dare.md: 'deal round 1 dealer p1 up R5 | p1 R1-G7-... | ... | pile ...':
    a hand labelled with another seat, or with no seat, is refused (it was read as the next
    seat's hand whatever its label); a part with no cards after its label says how it reads."""
    s = _seeded_state()
    with pytest.raises(ParseError, match=re.escape(said)):
        GAME.parse(s, line)
    assert GAME.parse(s, "deal R5 | P1 R1 | p2 G7 | PILE B2") == Deal(
        1, 1, DECK.parse("R5"), [cards("R1"), cards("G7")], cards("B2"))


@pytest.mark.parametrize("line", ["deal R5 | p1 R1 | p2 G7 | pile B2 | pile Y3",
                                  "deal R5 | p1 R1 | pile B2 | p2 G7",
                                  "deal R5 | pile B2 | p1 R1 | p2 G7"])
def test_a_deal_line_gives_its_pile_once_as_its_last_part(line: str) -> None:
    """docs/rules/uno-dare.md writes the pile after the hands. A pile given twice kept the
    second and dropped the first without a word; it is refused, as a pile before a hand is."""
    s = _seeded_state()
    with pytest.raises(ParseError, match=re.escape("the pile is the last part of a deal, "
                                                   "given once")):
        GAME.parse(s, line)
    assert GAME.parse(s, "deal R5 | p1 R1 | p2 G7 | pile B2 Y3").pile == cards("B2 Y3")


@pytest.mark.parametrize(("line", "said"), [
    ("R5 red blue", "after the card only a color (for a Wild Dare) and 'uno' may follow"),
    ("reshuffle 109", "a reshuffle is a whole number 0-108, not '109'"),
    ("penalty p2 takes 2 declined", "a penalty reads 'penalty p2 draws 2 declined'"),
    ("race p1=1000", "'p1=1000' should read pN=DRAW (DRAW 0-999)"),
    ("score round 1 winner p1 hands x1=3 p2=4", "a score reads 'score round N winner pN"),
    ("score round 1 winner p1 hands p1=3 p2=4 p3=5", "a score reads 'score round N winner pN"),
])
def test_a_typed_line_with_a_word_or_number_out_of_its_place_is_refused_saying_how_it_reads(
        line: str, said: str) -> None:
    s = _seeded_state()
    with pytest.raises(ParseError, match=re.escape(said)):
        GAME.parse(s, line)
    assert GAME.parse(s, "race p1=999") == Race([999, -1])
    assert GAME.parse(s, "reshuffle 108") == Reshuffle(108)


def test_at_a_real_tables_round_end_each_hand_shown_is_seen_by_every_seat() -> None:
    """"At the end of a round every player shows the cards left" (docs/rules/uno-dare.md):
    the show is a public chance event (hidden_from no seat) and p2's view right after p1
    shows holds p1's cards, while p3's hand, not shown yet, is still only its size. The show
    was hidden from the other seats (replay --as p2 --json: "hidden") while the text replay
    told it to them (probe ES)."""
    from kabucli import games
    from kabucli.games.uno_dare.rules import Show
    from kabucli.log import read_log

    path = Path(__file__).resolve().parent.parent / "replays/uno-dare/3p-physical-round.kbl"
    data = read_log(path, games.event_types)
    match = Match(GAME, data.header)
    shows = 0
    for ev in data.events:
        match.submit(ev)
        if not isinstance(ev, Show):
            continue
        shows += 1
        assert not any(GAME.hidden_from(ev, k) for k in (1, 2, 3))
        for k in (1, 2, 3):
            hands = GAME.view(match.state, k)["hands"]
            assert hands[f"p{ev.seat}"] == [UNO_DARE_108.token(c) for c in ev.cards], k
        if ev.seat == 1:
            assert GAME.view(match.state, 2)["hands"]["p3"] == 8  # (p3 shows next)
    assert shows == 2
