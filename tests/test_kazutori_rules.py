"""Kazu-Tori, clause by clause: the rules and the decisions of docs/rules/kazu-tori.md. Each
test drives the engine through ``Match``.

Most tables are physical (no seed): the referee types each card as it is flipped and the seat
whose hand was first on a card, so a test can set up any situation. Seeded games are used
where the cards inside the piles matter (who got which card).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from matchtools import play, refused, since, step

from kabucli.cards import DAINI_40, JIZO, ONI, UNKNOWN
from kabucli.engine import Match, make_header
from kabucli.errors import ParseError
from kabucli.events import End, Event, Pay
from kabucli.games.kazu_tori.render import describe
from kabucli.games.kazu_tori.rules import (
    GAME,
    WORDS,
    Claim,
    Deal,
    Flip,
    Handout,
    KazuToriRules,
    Pass,
    Penalty,
    Race,
    Return,
    Score,
    Shuffle,
    Stop,
    matches,
    pile_sizes,
)
from kabucli.log import SeatInfo

# -- helpers ---------------------------------------------------------------------------------


def table(n: int = 4, **rules: Any) -> Match:
    """A physical game of ``n`` players, dealt and waiting for p1's first flip."""
    m = new_match(n, None, **rules)
    step(m, "deal")
    return m


def new_match(n: int = 4, seed: int | None = None, **rules: Any) -> Match:
    seats = [SeatInfo(f"P{i}") for i in range(1, n + 1)]
    m = Match(GAME, make_header(GAME, KazuToriRules(**rules), seats, seed))
    m.advance()
    return m










def piles(m: Match) -> list[int]:
    return [len(m.state.piles[p]) for p in range(1, m.nseats + 1)]


def view(m: Match) -> dict[str, Any]:
    return GAME.view(m.state)


def run(m: Match, *cards: str) -> None:
    """Each next player flips the given cards in turn (nobody claims)."""
    for card in cards:
        step(m, f"flip {card}")


def misses(m: Match, k: int) -> None:
    """Each next player flips a card that does not match the number they say (never the Oni or
    the Jizo, and never more copies than the deck has); nobody claims. ``k`` flips."""
    for _ in range(k):
        say = GAME.view(m.state)["count"]
        shown = Counter(m.state.table)
        card = next(v for v in (2, 3, 5, 6, 7, 8, 9, 10)
                    if v % 10 != say % 10 and shown[v] < DAINI_40.counts[v])
        step(m, f"flip {card}")


def last(m: Match, kind: type[Event]) -> Any:
    return next(e for e in reversed(m.events) if isinstance(e, kind))


# -- the deck, the deal, the count ------------------------------------------------------------

def test_deck_has_forty_cards_with_one_oni_one_jizo_three_ones_three_fours() -> None:
    counts = Counter(DAINI_40.cards())
    assert DAINI_40.size == 40
    assert counts[ONI] == counts[JIZO] == 1
    assert counts[1] == counts[4] == 3
    assert all(counts[v] == 4 for v in (2, 3, 5, 6, 7, 8, 9, 10))


@pytest.mark.parametrize(("n", "sizes"), [(2, [20, 20]), (3, [14, 13, 13]),
                                          (4, [10, 10, 10, 10]), (5, [8, 8, 8, 8, 8])])
def test_piles_are_forty_over_n_and_with_three_players_the_dealer_holds_the_extra_card(
        n: int, sizes: list[int]) -> None:
    assert pile_sizes(n) == sizes
    m = table(n)
    assert piles(m) == sizes
    seeded = new_match(n, seed=5)
    deal = seeded.events[0]
    assert isinstance(deal, Deal) and deal.piles is not None
    assert [len(p) for p in deal.piles] == sizes
    assert Counter(c for p in deal.piles for c in p) == Counter(DAINI_40.cards())


def test_a_real_table_deal_has_only_sizes_and_other_sizes_are_refused() -> None:
    m = new_match(4)
    assert m.pending.kind == "chance"
    assert "10/10/10/10" in refused(m, Deal([11, 10, 10, 9]))
    assert "face down" in refused(m, Deal([10] * 4, [[1] * 10] * 4))
    step(m, "deal")
    assert GAME.notate(m.events[0]) == "deal 10/10/10/10"


def test_at_a_real_table_no_race_is_drawn_the_referee_types_who_claimed_first() -> None:
    """Races between bots are drawn from the seed; a real table has none to record."""
    m = new_match(4)
    assert refused(m, "race p1=5 p2=7") == ("races are drawn only in seeded games (at a real "
                                            "table type who claimed first)")
    step(m, "deal")
    assert m.events == [Deal([10] * 4)]


def test_a_race_draw_is_a_number_from_0_to_999_per_player_still_in() -> None:
    s = new_match(4, seed=1).state
    assert GAME.parse(s, "race p1=999 p2=0 p4=500") == Race([999, 0, -1, 500])
    with pytest.raises(ParseError):
        GAME.parse(s, "race p1=1000")


@pytest.mark.parametrize(("text", "message"), [
    ("penalty p2 to p3 p4 p1", "a penalty reads 'penalty p2 gives p3 p4 p1'"),
    ("handout p1 jizo p2 card p3", "a hand-out reads 'handout p1 jizo p2 cards p3 p4' (jizo "
                                   "'removed' after its third use, cards '-' for none)"),
    ("score won p1=40 p2=0 p3=0 p4=0 wins p1",
     "a score reads 'score REASON [pN] p1=CARDS ... wins pN[,pM]'"),
    ("score take p1=40 p2=0 p3=0 p4=0 won p1",
     "a score reads 'score REASON [pN] p1=CARDS ... wins pN[,pM]'"),
    ("deal 41/0/0/0", "'41/0/0/0' is not pile sizes like 10/10/10/10"),
    # a size that is no number is refused, not left out (three piles read for four)
    ("deal 10/ten/10/10", "'10/ten/10/10' is not pile sizes like 10/10/10/10"),
    # 'nobody' is the whole list of a penalty that gives no card, not its first seat
    ("penalty p2 gives nobody p3", "'nobody' is not a seat p1-p4"),
    # pile sizes are the whole deal: a part after a '|' is not left out
    ("deal 20/20 | 20", "'20/20' is not a card of the Daini (40) deck (its cards: 1-10, Oni, "
                        "Jizo)"),
])
def test_an_engine_events_words_are_read_not_passed_over(text: str, message: str) -> None:
    """The words of a penalty, a hand-out and a score ('gives', 'cards', the reason, 'wins')
    and a deal's pile sizes (numbers, at most the deck's 40) are checked as they are read."""
    with pytest.raises(ParseError) as info:
        GAME.parse(new_match(4, seed=1).state, text)
    assert str(info.value) == message


def test_every_spelling_of_a_kazutori_verb_reads_as_the_documented_one() -> None:
    """'claim' may be typed 'take' or 'slap', 'pass' 'go', 'stop' 'agree'."""
    m = table(4)
    run(m, "4")
    for verb in ("claim", "take", "slap"):
        assert GAME.parse(m.state, f"p2 {verb}") == Claim(2), verb
    for verb in ("pass", "go"):
        assert GAME.parse(m.state, f"p3 {verb}") == Pass(3), verb
    for verb in ("stop", "agree"):
        assert GAME.parse(m.state, f"p3 {verb}") == Stop(3), verb


def test_a_deals_piles_around_an_empty_part_read_as_without_it() -> None:
    """A '|' too many at either end of a deal line (an empty part) is passed over: the piles
    read as typed without it, each labelled with its seat."""
    state = new_match(2).state
    want = GAME.parse(state, "deal p1 1-2-3 | p2 4-5-6")
    assert GAME.parse(state, "deal | p1 1-2-3 | p2 4-5-6 |") == want


def test_a_move_typed_before_the_deal_without_a_seat_names_the_dealer_not_p0() -> None:
    # p1 flips first once the piles are dealt; there is no seat p0 to quote
    m = new_match(4)
    for typed, quoted in (("7", "p1 flip 7"), ("flip", "p1 flip"), ("stop", "p1 stop")):
        reason = refused(m, typed)
        assert reason.startswith("waiting for the deal") and f"not for '{quoted}'" in reason
        assert "p0" not in reason


def test_the_dealer_flips_first_saying_one_and_the_count_passes_to_the_next_seat() -> None:
    m = table(4)
    assert view(m)["next"] == "p1" and view(m)["count"] == 1
    assert "not p2's turn (waiting for p1: p1 to flip saying one)" in refused(m, "p2 flip 3")
    run(m, "3", "5", "6")
    v = view(m)
    assert v["table"] == ["3", "5", "6"] and v["table_by"] == ["p1", "p2", "p3"]
    assert v["said"] == 3 and v["next"] == "p4" and v["count"] == 4
    assert piles(m) == [9, 9, 9, 10]


def test_while_a_card_lies_in_its_window_the_table_waits_for_claims_or_the_next_seats_flip(
) -> None:
    m = table(4)
    run(m, "7")
    assert m.pending.what == ("claims on the 7 (said one: may not be taken), or p2's flip "
                              "saying two")
    run(m, "2", "3", "4")  # p4's 4, said four: the seat after p4 is p1
    assert m.pending.what == ("claims on the 4 (said four: may be taken), or p1's flip "
                              "saying five")

@pytest.mark.parametrize("seed", [5, 11])
def test_while_a_flip_waits_for_the_hand_out_or_return_it_closes_next_names_that_flip(
        seed: int) -> None:
    # the state after each event (what replay --json shows): in phase "turn", "next" and
    # "count" are the seat that turns the next card and the number that card is said with
    m = new_match(4, seed=seed)
    while not m.over:
        step(m, Flip(m.state.next_flipper()))
    s = GAME.new_state(m.state.rules, 4, False)
    views = []
    for ev in m.events:
        GAME.apply(s, ev)
        views.append(GAME.view(s))
    waits = 0
    for i, v in enumerate(views):
        if v["phase"] != "turn":
            continue
        turned = next((w for w in views[i + 1:] if w["phase"] != "turn"), None)
        if turned is None or turned["phase"] != "window":
            continue
        waits += bool(v["table"])  # the closing window's cards are still out
        assert (v["next"], v["count"]) == (turned["table_by"][-1], turned["said"]), (i, v)
    assert waits  # some flips waited for a hand-out or a return

@pytest.mark.parametrize("limit", [10, 15, 20])
def test_the_count_runs_to_the_limit_and_the_seat_after_the_last_flipper_starts_at_one(
        limit: int) -> None:
    m = table(4, limit=limit)
    said = []
    for _ in range(limit):
        misses(m, 1)
        said.append(view(m)["said"])
    assert said == list(range(1, limit + 1))
    assert view(m)["count"] == 1 and view(m)["next"] == f"p{limit % 4 + 1}"


# -- matching (ones digits) --------------------------------------------------------------------

@pytest.mark.parametrize(("limit", "said", "takeable"), [
    (10, 1, {1}), (10, 7, {7}), (10, 10, {10}),
    (15, 11, {1}), (15, 12, {2}), (15, 15, {5}), (15, 10, {10}),
    (20, 11, {1}), (20, 14, {4}), (20, 19, {9}), (20, 20, {10}),
])
def test_a_card_matches_when_its_ones_digit_is_the_numbers(
        limit: int, said: int, takeable: set[int]) -> None:
    assert said <= limit
    assert {v for v in range(1, 11) if matches(v, said)} == takeable


def test_the_oni_matches_every_number_and_the_jizo_none() -> None:
    assert all(matches(ONI, k) for k in range(1, 21))
    assert not any(matches(JIZO, k) for k in range(1, 21))


def test_on_a_limit_15_table_a_1_said_eleven_may_be_taken() -> None:
    m = table(4, limit=15)
    run(m, *["9", "9", "9", "9", "8", "8", "8", "8", "7", "7"])
    step(m, "flip 1")
    assert view(m)["said"] == 11 and view(m)["takeable"] is True
    step(m, "p3 claim")  # p3 flipped 3 of the 11 table cards
    assert piles(m)[2] == 10 - 3 + 11 and view(m)["next"] == "p3" and view(m)["count"] == 1


# -- claims --------------------------------------------------------------------------------------

def test_a_valid_claim_takes_the_whole_table_and_the_claimer_flips_next_saying_one() -> None:
    m = table(4)
    run(m, "5", "7", "3")
    assert view(m)["takeable"] is True
    step(m, "p1 claim")
    assert view(m)["table"] == []
    assert piles(m) == [9 + 3, 9, 9, 10]
    assert view(m)["next"] == "p1" and view(m)["count"] == 1 and view(m)["phase"] == "turn"
    assert "not p4's turn (waiting for p1: p1 to flip saying one)" in refused(m, "p4 flip 2")


def test_the_flipper_may_claim_their_own_card() -> None:
    m = table(4)
    run(m, "1")
    step(m, "p1 claim")
    assert piles(m) == [10, 10, 10, 10] and view(m)["next"] == "p1"


def test_the_first_valid_claim_wins_and_only_the_card_just_flipped_counts() -> None:
    m = table(4)
    run(m, "8", "2")
    step(m, "p4 claim")
    assert refused(m, "p3 claim") == ("there is no card to claim (p4 flips next): type 'p4 flip "
                                      "CARD' with the card seen")  # (a real table)
    assert "no card to claim" in GAME.check(m.state, Claim(4))
    run(m, "6")  # p4 says one: a 6 does not match
    assert view(m)["takeable"] is False


def test_a_matching_card_let_go_cannot_be_claimed_once_the_next_card_lies_on_it() -> None:
    """Seed: "At any moment, if the ones digit of the number on the card that was discarded
    matches ..."; RULINGS: "Only the card just flipped counts". A 1 said one was let go; once
    p2 flips a 5 saying two, a claim is a wrong claim (the 1 under it no longer counts)."""
    m = table(4)
    run(m, "1")
    assert view(m)["takeable"] is True
    run(m, "5")  # p2 says two
    assert view(m)["takeable"] is False
    start = len(m.events)
    step(m, "p3 claim")
    assert since(m, start) == ["p3 claim", "penalty p3 gives p4 p1 p2"]
    assert view(m)["table"] == ["1", "5"] and piles(m) == [10, 10, 7, 11]

def test_a_wrong_claim_gives_one_card_to_each_other_player_from_the_claimers_right() -> None:
    m = table(4)
    run(m, "5", "6")
    start = len(m.events)
    step(m, "p3 claim")
    assert since(m, start) == ["p3 claim", "penalty p3 gives p4 p1 p2"]
    assert piles(m) == [10, 10, 7, 11]


def test_after_a_wrong_claim_the_card_stays_and_the_count_goes_on() -> None:
    m = table(4)
    run(m, "5", "6")
    step(m, "p3 claim")
    v = view(m)
    assert v["table"] == ["5", "6"] and v["phase"] == "window"
    assert v["next"] == "p3" and v["count"] == 3
    assert "already claimed" in refused(m, "p3 claim")
    step(m, "p1 claim")  # another player may still claim it wrongly, and pays too
    assert since(m, len(m.events) - 1) == ["penalty p1 gives p2 p3 p4"]


def test_a_wrong_claim_with_few_cards_left_gives_what_there_is_and_puts_the_claimer_out() -> None:
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")  # 7 cards: one each to p2-p5
    run(m, "3")
    step(m, "p1 claim")  # 3 cards: p2, p3 and p4 get one, p5 none
    assert last(m, Penalty) == Penalty(1, [2, 3, 4])
    assert piles(m) == [0, 9, 10, 10, 9]
    assert view(m)["out"] == ["p1"] and view(m)["last_call"] is True


def test_the_oni_may_be_claimed_whatever_the_number() -> None:
    m = table(4)
    run(m, "5", "Oni")
    assert view(m)["takeable"] is True
    step(m, "p4 claim")
    assert piles(m) == [9, 9, 10, 12]


def test_the_jizo_may_never_be_claimed_a_claim_pays_the_penalty_first_then_the_hand_out() -> None:
    m = table(4)
    run(m, "2", "5", "Jizo")  # the Jizo said three
    assert view(m)["takeable"] is False
    start = len(m.events)
    step(m, "p1 claim")
    assert since(m, start) == ["p1 claim", "penalty p1 gives p2 p3 p4"]
    step(m, "p4 flip 6")
    assert since(m, start + 2) == ["p4 flip 6", "handout p3 jizo p4 cards p1 p2"]


def test_an_out_player_neither_claims_nor_flips() -> None:
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")
    assert "p1 is out" in refused(m, Claim(1))
    assert "p1 is out" in refused(m, "p1 flip 2")
    assert "p3 flips next, not p2" in refused(m, "p2 flip 2")
    run(m, "2", "2", "2")  # p3, p4, p5
    assert view(m)["next"] == "p2"  # p1 is skipped


def test_an_out_player_is_offered_no_move_neither_a_claim_nor_a_pass() -> None:
    # the moves Tab offers and a bot program is sent (GAME.legal), not only what check refuses
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")  # p1 gave its last cards and is out; the 3 still lies in its window
    assert view(m)["out"] == ["p1"] and view(m)["top"] == "3"
    assert GAME.legal(m.state, 1) == [] and GAME.bot_legal(m.state, 1) == []
    assert Claim(2) in GAME.legal(m.state, 2)
    run(m, "2")  # p3: a window again
    assert GAME.legal(m.state, 1) == []

def test_a_claim_names_a_seat_and_pass_and_stop_are_actions() -> None:
    m = table(4)
    run(m, "4")
    with pytest.raises(ParseError, match="who claimed"):
        GAME.parse(m.state, "claim")
    assert GAME.parse(m.state, "claim p2") == Claim(2) == GAME.parse(m.state, "p2 claim")
    assert GAME.parse(m.state, "p3 pass") == Pass(3)
    assert GAME.parse(m.state, "stop") == Stop(2)  # proposed by the next flipper by default
    assert GAME.parse(m.state, "7") == Flip(2, 7)
    assert GAME.parse(m.state, "p2 flip oni") == Flip(2, ONI)
    with pytest.raises(ParseError):
        GAME.parse(m.state, "p2 grab")
    # a claim names one seat: typed before it or after it, not both
    with pytest.raises(ParseError, match="'claim' takes nothing after it, got 'p2'"):
        GAME.parse(m.state, "p1 claim p2")
    # a card alone is one flip: two cards are no move
    with pytest.raises(ParseError, match="'7 8' is not a Kazu-Tori move"):
        GAME.parse(m.state, "7 8")



@pytest.mark.parametrize(("text", "message"), [
    ("claim p2 p3", "'claim' takes nothing after it, got 'p2 p3'"),
    ("p2 pass now", "'pass' takes nothing after it, got 'now'"),
    ("p3 flip 7 8", "a flip turns one card, got '7 8'"),
])
def test_a_claim_a_pass_and_a_flip_take_no_word_beyond_their_own(text: str, message: str) -> None:
    """A word more after a claim's seat, a pass or a flip's card is refused, not passed over
    (the move would be read without it)."""
    m = table(4)
    run(m, "4")
    with pytest.raises(ParseError) as info:
        GAME.parse(m.state, text)
    assert str(info.value) == message


def test_a_deal_of_named_piles_reads_back_as_printed_each_pile_labelled_with_its_seat() -> None:
    """A seeded deal prints 'deal p1 CARDS | p2 CARDS ...': the seat labels are read off."""
    m = new_match(2, 7)
    deal = next(e for e in m.events if type(e) is Deal)
    assert deal.piles is not None
    text = GAME.notate(deal)
    assert text.startswith("deal p1 ") and " | p2 " in text
    assert GAME.parse(m.state, text) == deal


def test_a_deal_of_named_piles_refuses_a_pile_labelled_with_another_seat() -> None:
    """The labels are read, not passed over: 'deal p2 ... | p1 ...' gave p1 the cards
    labelled p2 (as Uno Dare's deal line did, found by probe EA)."""
    m = new_match(2, 7)
    with pytest.raises(ParseError, match=r"^pile 1 of the deal is labelled p2: give the piles "
                                         r"in seat order, p1 to p2$"):
        GAME.parse(m.state, "deal p2 1-2-3 | p1 4-5-6")
    unlabelled = GAME.parse(m.state, "deal 1-2-3 | 4-5-6")
    assert GAME.parse(m.state, "deal p1 1-2-3 | p2 4-5-6") == unlabelled


# -- the Jizo -------------------------------------------------------------------------------------

def test_the_jizo_goes_to_the_flippers_right_and_the_rest_from_the_seat_after_that() -> None:
    m = table(4)
    run(m, "2", "5", "6", "9", "Jizo")  # p1 flipped the Jizo as the fifth card
    assert view(m)["on_close"] == {"jizo": "p2", "cards": {"p1": 1, "p2": 1, "p3": 1, "p4": 1}}
    before = piles(m)
    step(m, "p2 flip 3")
    assert last(m, Handout) == Handout(1, 2, [3, 4, 1, 2])
    # the hand-out comes before p2's flip: p2 got the Jizo and a card, then flipped one
    assert piles(m) == [before[0] + 1, before[1] + 2 - 1, before[2] + 1, before[3] + 1]
    assert view(m)["table"] == ["3"] and view(m)["jizo_uses"] == 1


def test_the_jizo_hands_out_the_most_recent_card_first() -> None:
    # seeded: the cards are known, so who got which card can be checked
    for seed in range(200):
        m = new_match(4, seed=seed)
        handed = _first_handout(m)
        if handed is not None and len(set(handed[0][:-1])) == len(handed[0]) - 1 >= 2:
            break  # two or more other cards, all different: their order shows
    else:
        pytest.fail("no seeded game with a Jizo hand-out of two different cards or more")
    table_before, before, handout, shuffle = handed
    assert table_before[-1] == JIZO
    gifts: dict[int, Counter[int]] = {p: Counter() for p in range(1, 5)}
    gifts[handout.jizo][JIZO] += 1
    for seat, card in zip(handout.to, reversed(table_before[:-1]), strict=True):
        gifts[seat][card] += 1
    for seat, pile in zip(shuffle.seats, shuffle.piles, strict=True):
        assert Counter(pile) == Counter(before[seat]) + gifts[seat]


def _first_handout(m: Match) -> tuple[list[int], list[list[int]], Handout, Shuffle] | None:
    """Play with nobody claiming until the first Jizo hand-out and its shuffle."""
    while not m.over:
        p = m.pending
        if p.kind != "action":
            m.advance()
            continue
        if m.state.phase == "window" and m.state.table[-1] == JIZO:
            table_before = list(m.state.table)
            before = [list(pl) for pl in m.state.piles]
            step(m, Flip(m.state.next_flipper()))
            i = next(i for i, e in enumerate(m.events) if isinstance(e, Handout))
            ho, sh = m.events[i], m.events[i + 1]
            assert isinstance(ho, Handout) and isinstance(sh, Shuffle)
            return table_before, before, ho, sh
        step(m, Flip(m.state.next_flipper()))
    return None


def p1_out_of_five() -> Match:
    """A real table of five where p1 is out: two wrong claims gave away both its cards."""
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")  # p1 is out
    return m


def test_the_jizo_hand_out_skips_players_who_are_out() -> None:
    m = p1_out_of_five()
    run(m, "5", "6", "Jizo")  # p3, p4, p5; the Jizo said five
    step(m, "p2 flip 8")
    assert last(m, Handout) == Handout(5, 2, [3, 4, 5, 2])


def test_the_count_goes_on_after_the_jizo_and_restarts_at_one_when_it_said_the_limit() -> None:
    m = table(4)
    run(m, "2", "Jizo")
    assert view(m)["count"] == 3 and view(m)["next"] == "p3"
    step(m, "p3 flip 3")
    assert view(m)["said"] == 3
    m = table(4)
    run(m, "2", "3", "4", "5", "6", "7", "8", "9", "2", "Jizo")  # the Jizo said ten
    step(m, "p3 flip 8")
    assert view(m)["said"] == 1 and last(m, Handout).seat == 2
    assert not any(isinstance(e, Return) for e in m.events)


def test_after_its_third_use_the_jizo_leaves_the_game() -> None:
    m = table(4, limit=20)  # no return at ten in the 14 flips below
    # each time, the player who received the Jizo turns it when their turn comes
    run(m, "5", "Jizo", "3")  # p2's Jizo goes to p3 (the 5 to p4)
    assert view(m)["jizo_uses"] == 1
    run(m, "6", "8", "9", "Jizo", "2")  # p3's Jizo goes to p4
    assert view(m)["jizo_uses"] == 2
    run(m, "7", "5", "6", "Jizo", "2")  # p4 turns it the third time
    assert view(m)["jizo_uses"] == 3
    assert [h.jizo for h in m.events if isinstance(h, Handout)] == [3, 4, 0]
    assert view(m)["removed"] == ["Jizo"]
    # with the Jizo gone, the 6 (most recent) goes to the player after p4, the 5 to the
    # one after that, and so on
    assert last(m, Handout) == Handout(4, 0, [1, 2, 3, 4])
    assert "left the game" in refused(m, "flip Jizo")
    assert m.state.accounted() == 40


def test_the_table_shows_that_the_jizo_turned_a_third_time_leaves_the_game_when_it_closes(
) -> None:
    m = table(4, limit=20)
    run(m, "5", "Jizo", "3")  # first use: p2's Jizo goes to p3
    run(m, "6", "8", "9", "Jizo", "2")  # second: p3's goes to p4
    run(m, "7", "5", "6", "Jizo")  # p4 turns it the third time: its window is open
    assert view(m)["on_close"] == {"jizo": "removed",
                                   "cards": {"p1": 1, "p2": 1, "p3": 1, "p4": 1}}
    run(m, "2")
    assert last(m, Handout) == Handout(4, 0, [1, 2, 3, 4])

def test_the_jizo_turned_a_third_time_cannot_be_turned_again_by_the_next_player() -> None:
    # its window still open: the flip that closes it would hand it out a third time, so it is
    # gone, even for a player whose pile might have held it (p4 gave them cards)
    m = table(4, limit=20)
    run(m, "5", "Jizo", "3")  # first use: p2's Jizo goes to p3
    run(m, "6", "8", "9", "Jizo", "2")  # second: p3's goes to p4
    run(m, "7")  # p1 says nine
    step(m, "p4 claim")  # wrong: p4 gives p1, p2 and p3 a card each, maybe the Jizo
    run(m, "5", "6", "Jizo")  # p4 turns the Jizo the third time
    assert view(m)["next"] == "p1" and view(m)["jizo_uses"] == 2
    assert refused(m, "p1 flip Jizo") == "the Jizo left the game after its third use"

# -- returns and Last Call -----------------------------------------------------------------------

def test_the_limit_reached_untaken_returns_the_cards_as_many_as_each_flipped() -> None:
    m = table(4)
    run(m, "2", "3", "4", "5", "6", "7", "8", "9", "2", "3")
    assert view(m)["on_close"] == {"return": {"p1": 3, "p2": 3, "p3": 2, "p4": 2}}
    step(m, "p3 flip 6")
    assert last(m, Return) == Return([3, 3, 2, 2])
    assert view(m)["table"] == ["6"] and view(m)["said"] == 1
    assert piles(m) == [10, 10, 9, 10]


def test_a_seeded_return_shuffles_the_table_and_deals_it_back_in_one_recorded_shuffle() -> None:
    for seed in range(100):
        m = new_match(4, seed=seed)
        while not m.over and not any(isinstance(e, Return) for e in m.events):
            if m.state.phase == "window" and m.state.said == 10 and m.state.table[-1] != JIZO \
                    and not m.state.ok:
                table_before = list(m.state.table)
                before = [list(pl) for pl in m.state.piles]
                step(m, Flip(m.state.next_flipper()))
                i = next(i for i, e in enumerate(m.events) if isinstance(e, Return))
                ret, sh = m.events[i], m.events[i + 1]
                assert isinstance(ret, Return) and isinstance(sh, Shuffle)
                assert sh.seats == [p for p in range(1, 5) if ret.counts[p - 1]]
                got = Counter[int]()
                for seat, pile in zip(sh.seats, sh.piles, strict=True):
                    assert len(pile) == len(before[seat]) + ret.counts[seat - 1]
                    got += Counter(pile) - Counter(before[seat])
                assert got == Counter(table_before)
                return
            if m.state.phase == "window" and m.state.ok:
                step(m, Claim(m.state.last))
            else:
                step(m, Flip(m.state.next_flipper()))
    pytest.fail("no return in the seeded games tried")


def test_a_return_after_a_jizo_hand_out_mid_count_shuffles_only_the_piles_that_got_cards(
) -> None:
    # the Jizo's hand-out cleared the table during the count: at the limit only the players
    # who turned a card since get one back, and only their piles are shuffled
    for seed in range(1, 30):
        m = new_match(4, seed=seed)
        while not m.over:
            step(m, Flip(m.state.next_flipper()))
        for i, ev in enumerate(m.events):
            if isinstance(ev, Return) and 0 in ev.counts:
                sh = m.events[i + 1]
                assert isinstance(sh, Shuffle)
                assert sh.seats == [p for p in range(1, 5) if ev.counts[p - 1]]
                return
    pytest.fail("no return with a player getting nothing in the seeded games tried")

def test_flipping_the_last_card_puts_the_player_out_and_starts_last_call() -> None:
    m = table(5, limit=20)  # no return in the 16 flips below
    run(m, "7")
    step(m, "p1 claim")  # wrong: p1 gives 4 and keeps 3
    misses(m, 14)  # p2-p5, p1, p2-p5, p1, p2-p5: p1 has one card left
    assert piles(m)[0] == 1 and view(m)["last_call"] is False and view(m)["next"] == "p1"
    misses(m, 1)
    assert view(m)["out"] == ["p1"] and view(m)["last_call"] is True
    assert view(m)["next"] == "p2"


def test_a_claim_with_no_card_to_claim_or_by_a_player_who_is_out_is_refused_with_why() -> None:
    # claims are no one's turn: the reason is that there is no card, or that the claimer is
    # out, the same whoever claims (not "it is not p2's turn")
    m = table(4)
    run(m, "1")  # p1 flips a 1 saying one
    step(m, "p3 claim")  # takes the table; p3 flips next
    why = "there is no card to claim (p3 flips next): type 'p3 flip CARD' with the card seen"
    for seat in ("p2", "p3"):
        assert refused(m, f"{seat} claim") == why
    assert refused(m, "p2 pass") == why
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")  # p1 gave away all 8 cards: out
    run(m, "3")  # p3 flips a 3 saying three
    assert refused(m, "p1 claim") == "p1 is out (their pile is empty) and no longer plays"
    assert refused(m, "p1 pass") == "p1 is out (their pile is empty) and no longer plays"


def test_in_last_call_the_limit_keeps_the_cards_on_the_table_and_the_count_restarts() -> None:
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")  # p1 out
    cards = ["2", "3", "4", "5", "6", "7", "8", "9"]  # said two..nine: never a match
    run(m, *cards)
    assert view(m)["said"] == 10 and view(m)["on_close"] == {"restart": True}
    n = len(view(m)["table"])
    step(m, "flip 2")
    assert not any(isinstance(e, Return) for e in m.events)
    assert len(view(m)["table"]) == n + 1 and view(m)["said"] == 1


def test_in_last_call_the_next_valid_take_ends_the_game_the_taker_taking_first() -> None:
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")  # p1 out, Last Call
    run(m, "5")  # p3 says three
    step(m, "p4 claim")  # wrong: the game goes on
    assert not m.over
    run(m, "4")  # p4 says four
    start = len(m.events)
    step(m, "p2 claim")
    assert m.over
    score = last(m, Score)
    assert score.reason == "take" and score.seat == 2
    assert score.cards[1] == 10 + 4  # p2 took the four table cards before scoring
    assert since(m, start)[:2] == ["p2 claim", GAME.notate(score)]


def test_flipping_the_oni_as_the_last_card_ends_the_game_and_the_flipper_keeps_it() -> None:
    m = table(5, limit=20)
    run(m, "7")
    step(m, "p1 claim")  # wrong: p1 keeps 3 cards
    run(m, "2")
    step(m, "p2 claim")  # p2 takes the 7 and the 2 and says one
    misses(m, 14)  # p2-p5, p1, p2-p5, p1, p2-p5
    assert piles(m) == [1, 7, 6, 6, 6] and view(m)["next"] == "p1"
    table_before = list(m.state.table)
    step(m, "flip Oni")
    assert m.over
    assert last(m, Score) == Score("oni", 1, [1, 7, 6, 6, 6], [2])
    assert m.state.table == table_before  # the flipper took the Oni back; the rest is dead
    assert [e for e in m.events if isinstance(e, Pay)] == [
        Pay(1, 2, 1, "cards"), Pay(3, 2, 6, "cards"), Pay(4, 2, 6, "cards"),
        Pay(5, 2, 6, "cards")]
    assert m.state.accounted() == 40


def test_the_table_tells_a_last_card_turned_puts_its_flipper_out_and_the_oni_ends_the_game(
) -> None:
    m = table(5, limit=20)
    run(m, "7")
    step(m, "p1 claim")  # wrong: p1 keeps 3 cards
    run(m, "2")
    step(m, "p2 claim")
    misses(m, 4)  # p2-p5
    step(m, "flip 8")  # p1 says five
    assert describe(GAME, m.events[-1], m) == "p1 turns 8, says five"
    misses(m, 9)
    assert piles(m) == [1, 7, 6, 6, 6] and view(m)["next"] == "p1"
    step(m, "flip Oni")
    flip = next(e for e in reversed(m.events) if isinstance(e, Flip))
    assert describe(GAME, flip, m) == (
        "p1 turns Oni, says fifteen: the Oni as the last card ends the game")
    m = table(5, limit=20)
    run(m, "7")
    step(m, "p1 claim")
    misses(m, 14)  # p1 has one card left and flips next
    assert piles(m)[0] == 1 and view(m)["next"] == "p1"
    say = view(m)["count"]
    shown = Counter(m.state.table)
    card = next(v for v in range(2, 11) if v % 10 != say % 10 and shown[v] < DAINI_40.counts[v])
    step(m, Flip(1, card))  # a card that may not be taken
    assert describe(GAME, m.events[-1], m) == (
        f"p1 turns {card}, says {WORDS[say]} (p1's last card: p1 is out)")

def test_when_every_pile_is_empty_the_game_ends_and_nobody_wins() -> None:
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")  # p1 out: Last Call, nothing is returned from now on
    rest = Counter(DAINI_40.cards()) - Counter([7, 3, ONI, JIZO])
    cards = [ONI, *rest.elements(), JIZO]  # the Jizo is the very last card of all
    assert len(cards) == 38
    for card in cards:
        step(m, f"flip {DAINI_40.token(card)}")
    assert m.over and piles(m) == [0] * 5
    assert last(m, Score) == Score("out", 0, [0] * 5, [])
    assert not any(isinstance(e, Pay | Handout) for e in m.events)


# -- scoring -----------------------------------------------------------------------------------

def _end_by_agreement(m: Match) -> Score:
    step(m, "stop")
    assert m.over
    return last(m, Score)


def test_most_cards_wins_each_other_player_pays_a_chip_per_card_an_out_player_nothing() -> None:
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")  # p1 out: 0 9 10 10 9
    score = _end_by_agreement(m)
    assert score.cards == [0, 9, 10, 10, 9] and score.winners == [3, 4]
    pays = [e for e in m.events if isinstance(e, Pay)]
    # tie=split: 9 cards shared by two winners: 4 each, the odd chip stays with the payer
    assert pays == [Pay(2, 3, 4, "cards, tie split"), Pay(2, 4, 4, "cards, tie split"),
                    Pay(5, 3, 4, "cards, tie split"), Pay(5, 4, 4, "cards, tie split")]
    end = m.events[-1]
    assert isinstance(end, End) and end.balances == [50, 42, 58, 58, 42]


@pytest.mark.parametrize("tie", ["split", "each", "none"])  # the tie rule is for ties only
def test_a_single_winner_is_paid_one_chip_per_card_by_each_loser(tie: str) -> None:
    m = table(4, tie=tie)
    run(m, "5", "7", "3")
    step(m, "p1 claim")  # 12 9 9 10
    score = _end_by_agreement(m)
    assert score.reason == "agreement" and score.winners == [1]
    assert [e for e in m.events if isinstance(e, Pay)] == [
        Pay(2, 1, 9, "cards"), Pay(3, 1, 9, "cards"), Pay(4, 1, 10, "cards")]


def test_tie_each_makes_every_loser_pay_every_tied_winner_in_full() -> None:
    m = table(4, tie="each")
    run(m, "5", "6")
    score = _end_by_agreement(m)  # 9 9 10 10
    assert score.winners == [3, 4]
    assert [e for e in m.events if isinstance(e, Pay)] == [
        Pay(1, 3, 9, "cards, tie each"), Pay(1, 4, 9, "cards, tie each"),
        Pay(2, 3, 9, "cards, tie each"), Pay(2, 4, 9, "cards, tie each")]


def test_tie_none_means_nobody_pays() -> None:
    m = table(4, tie="none")
    run(m, "5", "6")
    score = _end_by_agreement(m)
    assert score.winners == [3, 4]
    assert not any(isinstance(e, Pay) for e in m.events)
    assert m.state.ledger.balances[1:] == [50, 50, 50, 50]


def test_a_game_ends_by_agreement_scored_as_it_stands_with_table_cards_dead() -> None:
    m = table(4)
    run(m, "5", "6", "2")
    score = _end_by_agreement(m)
    assert score.cards == [9, 9, 9, 10] and view(m)["table"] == ["5", "6", "2"]
    assert "already over" in refused(m, Flip(4, 3))


def _flip_to_the_end(m: Match) -> None:
    """Each next flipper flips, nobody claims, until the game ends."""
    while not m.over:
        if m.pending.kind == "action":
            step(m, Flip(m.state.next_flipper()))
        else:
            m.advance()


def test_a_seeded_game_stops_at_max_flips_and_is_scored() -> None:
    m = new_match(4, seed=3, max_flips=5)
    _flip_to_the_end(m)
    assert m.state.flips == 5 and last(m, Score).reason == "max_flips"


def test_while_a_card_lies_flipped_every_seat_may_claim_it_once_or_let_it_go() -> None:
    """The moves listed to bots and to the conformance checks (legal): in the window after a
    flip every seat may claim the card (once) or pass; the next flipper may flip too."""
    m = new_match(4, seed=1)
    step(m, Flip(1))
    s = m.state
    assert s.phase == "window"
    for seat in range(1, 5):
        assert {Claim(seat), Pass(seat)} <= set(GAME.legal(s, seat))
    assert Flip(2) in GAME.legal(s, 2)
    step(m, Claim(2))
    assert Claim(2) not in GAME.legal(s, 2) and Claim(3) in GAME.legal(s, 3)


def test_a_game_ended_by_max_flips_names_no_seat_that_ended_it() -> None:
    """The score of the end names the seat that ended the game (the taker, the Oni's flipper,
    the proposer); nobody ends it when the flips run out."""
    m = new_match(3, seed=5, max_flips=4)
    _flip_to_the_end(m)
    score = last(m, Score)
    assert (score.reason, score.seat) == ("max_flips", 0)


def test_at_a_real_table_max_flips_refuses_the_flip_and_stop_ends_the_game() -> None:
    m = table(4, max_flips=2)
    run(m, "5", "6")
    assert "max_flips=2" in refused(m, "flip 2")
    assert _end_by_agreement(m).reason == "agreement"


def test_at_a_real_table_max_flips_refuses_any_flip_first_and_offers_a_claim_only_on_a_match(
) -> None:
    """Once max_flips is reached, a flip by the wrong seat was told to type the right seat's
    flip (refused in turn), and every refusal offered a claim on the card on the table, even
    one that may not be taken (a wrong claim)."""
    m = table(4, max_flips=2)
    run(m, "5", "6")  # the 6 said two: may not be taken
    for flip in ("flip 2", "p1 flip 2", "p4 flip 9", "p2 flip"):
        assert refused(m, flip) == "the game has reached max_flips=2: end it with 'stop'", flip
    m = table(4, max_flips=2)
    run(m, "5", "2")  # the 2 said two: may be taken
    assert refused(m, "p1 flip 3") == ("the game has reached max_flips=2: end it with 'stop' "
                                      "(or claim the card on the table)")


# -- what a referee's entries are checked against ----------------------------------------------

def test_a_fifth_card_of_a_value_or_a_second_oni_is_refused() -> None:
    m = table(4)
    run(m, "7", "7", "7", "7")
    assert "only 4 copies of 7" in refused(m, "flip 7")
    m = table(4)
    run(m, "Oni")
    assert "only 1 copy of Oni" in refused(m, "flip Oni")


def test_a_seeded_flip_comes_from_the_pile_and_a_real_table_flip_names_its_card() -> None:
    m = new_match(4, seed=1)
    top = m.state.piles[1][0]
    assert "top of the pile" in refused(m, Flip(1, 7))
    step(m, "flip")
    assert view(m)["table"] == [DAINI_40.token(top)]
    m = table(4)
    assert "type the card" in refused(m, Flip(1))
    # the card turned is face up: a real table's flip names it, never as unknown
    assert refused(m, Flip(1, UNKNOWN)) == "a flipped card is face up: name it"
    assert refused(m, "p1 flip ??") == "a flipped card is face up: name it"


def test_the_forty_cards_stay_accounted_for_at_a_real_table() -> None:
    m = table(4)
    run(m, "2", "3", "Jizo", "5")
    step(m, "p2 claim")
    run(m, "1", "2", "3", "4", "5", "6", "8", "9", "10", "10")
    step(m, "flip 2")
    assert m.state.accounted() == 40
    assert sum(piles(m)) + len(view(m)["table"]) + len(view(m)["removed"]) == 40


def test_a_card_handed_out_or_returned_as_the_window_closes_may_be_turned_at_once() -> None:
    # RULINGS: the cards a player receives go into their pile and it is shuffled; the Jizo's
    # hand-out and the return at the limit happen when the window closes, before the next
    # flip, so that flip may turn a card just received: it is out of sight by then
    m = table(4)
    run(m, "2", "Jizo")  # p2's Jizo goes to p3 when p3 flips
    step(m, "p3 flip Jizo")
    assert last(m, Handout) == Handout(2, 3, [4])
    assert view(m)["table"] == ["Jizo"] and view(m)["jizo_uses"] == 1
    m = table(4)
    run(m, "2", "3", "Oni", "5", "6", "7", "8", "9", "10", "2")  # p3 turned the Oni at three
    assert view(m)["on_close"] == {"return": {"p1": 3, "p2": 3, "p3": 2, "p4": 2}}
    step(m, "p3 flip Oni")
    assert last(m, Return) == Return([3, 3, 2, 2])
    assert view(m)["table"] == ["Oni"] and view(m)["takeable"] is True
    m = table(4)
    run(m, "7", "7", "7", "7", "2", "3", "5", "6", "8", "9")  # all four 7s go back
    step(m, "p3 flip 7")
    assert view(m)["table"] == ["7"]
    # a card still in sight after the transfer is refused as before: the cards stay on the
    # table in Last Call, and the third hand-out takes the Jizo out of the game
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")
    run(m, "3")
    step(m, "p1 claim")  # p1 is out: Last Call
    run(m, "Oni", "3", "4", "5", "6", "7", "8", "9")  # p3 turned the Oni; said ten
    assert view(m)["on_close"] == {"restart": True}
    assert "only 1 copy of Oni" in refused(m, "flip Oni")


# -- where the Oni and the Jizo are (each exists once and moves face up) ---------------------

def test_the_oni_taken_into_a_pile_may_be_turned_only_from_that_pile() -> None:
    m = table(4)
    run(m, "Oni")
    step(m, "p2 claim")  # everyone saw the Oni go into p2's pile
    run(m, "5")  # p2
    assert refused(m, "p3 flip Oni") == "the Oni went into p2's pile"
    run(m, "6", "7")  # p3, p4
    assert refused(m, "p1 flip Oni") == "the Oni went into p2's pile"
    run(m, "8")  # p1
    step(m, "p2 flip Oni")
    assert view(m)["top"] == "Oni"


def test_the_jizo_handed_on_may_be_turned_only_by_its_receiver() -> None:
    m = table(4)
    run(m, "2", "Jizo", "3")  # p2's Jizo goes to p3 when p3 flips
    run(m, "5")  # p4
    assert refused(m, "p1 flip Jizo") == "the Jizo went into p3's pile"
    run(m, "6", "8")  # p1, p2
    step(m, "p3 flip Jizo")
    assert view(m)["top"] == "Jizo"


def test_the_oni_handed_out_by_the_jizo_is_in_its_receivers_pile() -> None:
    m = table(4)
    run(m, "Oni", "Jizo")  # the Oni (most recent but the Jizo) goes to p4, the Jizo to p3
    assert refused(m, "p3 flip Oni") == "the Oni went into p4's pile"
    run(m, "3")  # p3
    assert last(m, Handout) == Handout(2, 3, [4])
    step(m, "p4 flip Oni")


def test_a_penalty_from_a_pile_that_may_hold_the_oni_may_have_given_it_away() -> None:
    m = table(4)
    run(m, "Oni")
    step(m, "p2 claim")  # the Oni is in p2's pile
    run(m, "5")  # p2 says one
    step(m, "p3 claim")  # wrong: p3's gifts cannot hold the Oni
    assert refused(m, "p3 flip Oni") == "the Oni went into p2's pile"
    run(m, "6")  # p3 says two
    step(m, "p2 claim")  # wrong: p2 gives p3 p4 p1 a card each, maybe the Oni
    assert last(m, Penalty) == Penalty(2, [3, 4, 1])
    step(m, "p4 flip Oni")
    m = table(4)
    run(m, "Oni")
    step(m, "p2 claim")
    run(m, "5", "6")  # p2, p3
    step(m, "p4 claim")  # wrong, from a pile without the Oni
    assert refused(m, "p4 flip Oni") == "the Oni went into p2's pile"


def test_the_oni_returned_at_the_limit_may_be_in_any_receivers_pile() -> None:
    m = table(4)
    run(m, "2", "3", "Oni", "5", "6", "7", "8", "9", "10", "2")  # p3 turned it; said ten
    step(m, "p3 flip 4")  # the table is returned: the Oni to one of p1-p4
    step(m, "p4 flip Oni")
    assert view(m)["top"] == "Oni"


def test_the_oni_returned_at_the_limit_is_in_a_pile_of_those_who_turned_a_card_in_the_count(
) -> None:
    m = table(4)
    run(m, "5", "6", "7", "8", "9", "10", "2", "Jizo")  # p4's Jizo said eight
    run(m, "3")  # p1 says nine: the hand-out clears the table
    run(m, "Oni")  # p2 says ten, and nobody takes it
    run(m, "4")  # p3: the 3 goes back to p1, the Oni to p2
    assert last(m, Return) == Return([1, 1, 0, 0])
    assert refused(m, "p4 flip Oni") == "the Oni went into p1's or p2's pile"

def test_a_pile_emptied_by_its_last_flip_holds_neither_special_card() -> None:
    m = table(4)
    run(m, "5")
    step(m, "p2 claim")  # wrong: p2 keeps 7
    run(m, "6")
    step(m, "p2 claim")  # wrong: p2 keeps 3
    run(m, "7", "8", "9", "10", "2", "Jizo")  # p4's Jizo said eight
    run(m, "3", "Oni", "4")  # the hand-out, p2's Oni said ten, then its return
    assert last(m, Return) == Return([1, 1, 0, 0])  # the Oni is in p1's or p2's pile
    misses(m, 8)
    step(m, "p4 flip 10")
    step(m, "p3 claim")  # a take: the count restarts before p2 gets cards back
    misses(m, 7)
    assert piles(m)[1] == 1 and view(m)["next"] == "p2"
    say = view(m)["count"]
    shown = Counter(m.state.table)
    card = next(v for v in range(2, 11) if v % 10 != say % 10 and shown[v] < DAINI_40.counts[v])
    step(m, Flip(2, card))  # p2's last card, not the Oni: p2 is out
    assert view(m)["out"] == ["p2"]
    assert refused(m, "p3 flip Oni") == "the Oni went into p1's pile"

def test_the_last_card_of_the_only_pile_that_may_hold_the_oni_is_the_oni() -> None:
    m = table(4, limit=15)  # no return in the flips below
    run(m, "5")
    step(m, "p2 claim")  # wrong: p2 keeps 7
    run(m, "6")
    step(m, "p2 claim")  # wrong: p2 keeps 3
    run(m, "3")  # p3 says three
    step(m, "p3 claim")
    run(m, "Oni")  # p3 says one
    step(m, "p2 claim")  # p2: 4 cards, one of them the Oni
    misses(m, 12)  # p2 flips 3 of them
    assert piles(m)[1] == 1 and view(m)["next"] == "p2"
    shown = Counter(m.state.table)
    other = next(v for v in (2, 3, 5, 6, 7, 8, 9, 10) if shown[v] < DAINI_40.counts[v])
    assert refused(m, Flip(2, other)) == "the Oni went into p2's pile: it is p2's last card"
    step(m, "p2 flip Oni")
    assert m.over and (last(m, Score).reason, last(m, Score).seat) == ("oni", 2)
    # both special cards in one pile: they are its last two cards
    m = table(4, limit=15)
    run(m, "5")
    step(m, "p2 claim")
    run(m, "6")
    step(m, "p2 claim")
    run(m, "3")
    step(m, "p3 claim")
    run(m, "Oni")
    step(m, "p2 claim")  # p2: 4 cards, one of them the Oni
    run(m, "2", "7", "8", "Jizo", "9")  # p1's Jizo goes to p2 before p2's flip
    misses(m, 7)  # p2 flips 1 of them
    assert piles(m)[1] == 2 and view(m)["next"] == "p2"
    assert refused(m, "p2 flip 10") == (
        "the Oni and the Jizo both went into p2's pile: they are p2's last two cards")
    step(m, "p2 flip Jizo")


def test_an_empty_pile_holds_neither_special_card_so_a_refusal_names_no_player_who_is_out(
) -> None:
    m = table(5, limit=20)  # no return in the flips below
    run(m, "5")
    step(m, "p2 claim")  # wrong: p2 gives 4 and keeps 4
    run(m, "6")  # p2 says two, keeps 3
    run(m, "3")  # p3 says three
    step(m, "p3 claim")
    run(m, "Oni")  # p3 says one
    step(m, "p2 claim")  # the Oni is in p2's pile, of 4 cards
    run(m, "7")  # p2 says one, keeps 3
    step(m, "p2 claim")  # wrong: p2 gives its 3 cards, maybe the Oni, to p3 p4 p5, and is out
    assert last(m, Penalty) == Penalty(2, [3, 4, 5]) and view(m)["out"] == ["p2"]
    misses(m, 3)  # p3, p4, p5
    assert view(m)["next"] == "p1"
    assert refused(m, "p1 flip Oni") == "the Oni went into p3's, p4's or p5's pile"

# -- rules the audit found untested ---------------------------------------------------------

def test_a_player_who_turns_their_last_card_is_out_at_once_and_cannot_claim_it() -> None:
    m = table(5, limit=20)  # no return in the 16 flips below
    run(m, "7")
    step(m, "p1 claim")  # wrong: p1 gives 4 and keeps 3
    misses(m, 14)  # p1 has one card left and flips next
    assert piles(m)[0] == 1 and view(m)["next"] == "p1"
    say = view(m)["count"]
    shown = Counter(m.state.table)
    card = next(v for v in range(1, 11) if v % 10 == say % 10 and shown[v] < DAINI_40.counts[v])
    step(m, Flip(1, card))
    assert view(m)["out"] == ["p1"] and view(m)["takeable"] is True
    assert "p1 is out" in refused(m, "p1 claim")
    step(m, "p2 claim")  # anyone still in may: in Last Call that take ends the game
    assert m.over and (last(m, Score).reason, last(m, Score).seat) == ("take", 2)


def test_penalty_gifts_skip_players_who_are_out() -> None:
    m = p1_out_of_five()
    run(m, "9")  # p3 says three
    start = len(m.events)
    step(m, "p3 claim")  # wrong: one card each to p4, p5 and p2; none to p1
    assert since(m, start) == ["p3 claim", "penalty p3 gives p4 p5 p2"]
    assert piles(m) == [0, 10, 6, 11, 10]


def test_last_call_starting_in_the_limit_cards_window_keeps_the_cards_on_the_table() -> None:
    m = table(5)
    run(m, "7")
    step(m, "p1 claim")  # wrong: p1 keeps 3
    run(m, "3", "4", "5", "6", "7", "8", "9", "10", "2")  # said two..ten: p1 keeps 2
    assert view(m)["said"] == 10 and view(m)["on_close"] == {
        "return": {"p1": 2, "p2": 2, "p3": 2, "p4": 2, "p5": 2}}
    step(m, "p1 claim")  # wrong: p1 gives its last 2 cards, is out, and Last Call starts
    assert last(m, Penalty) == Penalty(1, [2, 3])
    assert view(m)["last_call"] is True and view(m)["on_close"] == {"restart": True}
    step(m, "p2 flip 1")
    assert not any(isinstance(e, Return) for e in m.events)
    assert len(view(m)["table"]) == 11 and view(m)["said"] == 1



def _first_window(seed: int, takeable: bool) -> Match:
    """A seeded table of four where nobody claims until a card that may (or may not) be
    taken, other than the Oni or the Jizo, is on the table."""
    m = new_match(4, seed=seed)
    while True:
        s = m.state
        if s.phase == "window" and not m.state.todo and s.ok == takeable \
                and s.table[-1] not in (ONI, JIZO):
            return m
        step(m, Flip(s.next_flipper()))


def test_a_seeded_take_shuffles_the_table_into_the_takers_pile_in_one_recorded_shuffle() -> None:
    # RULINGS: cards a player receives go into their pile and the pile is shuffled; in a
    # seeded game that shuffle is a recorded chance event
    m = _first_window(2, takeable=True)
    taker = m.state.next_flipper()  # not the flipper: anyone still in may take
    table_before = list(m.state.table)
    pile_before = list(m.state.piles[taker])
    start = len(m.events)
    step(m, Claim(taker))
    shuffle = m.events[start + 1]
    assert isinstance(shuffle, Shuffle) and len(m.events) == start + 2
    assert shuffle.seats == [taker]
    assert Counter(shuffle.piles[0]) == Counter(pile_before) + Counter(table_before)
    assert m.state.piles[taker] == shuffle.piles[0]  # the pile is in the shuffled order
    assert view(m)["next"] == f"p{taker}" and view(m)["count"] == 1


def test_a_seeded_penalty_shuffles_each_receivers_pile_in_one_recorded_shuffle() -> None:
    m = _first_window(2, takeable=False)
    claimer = m.state.last
    given = m.state.piles[claimer][:3]  # the top card to each of the three others
    before = {p: list(m.state.piles[p]) for p in range(1, 5)}
    start = len(m.events)
    step(m, Claim(claimer))
    penalty, shuffle = m.events[start + 1:start + 3]
    others = [(claimer + k - 1) % 4 + 1 for k in (1, 2, 3)]
    assert penalty == Penalty(claimer, others)
    assert isinstance(shuffle, Shuffle) and shuffle.seats == sorted(others)
    for seat, pile in zip(shuffle.seats, shuffle.piles, strict=True):
        assert Counter(pile) == Counter(before[seat]) + Counter([given[others.index(seat)]])
        assert m.state.piles[seat] == pile
    assert m.state.piles[claimer] == before[claimer][3:]  # the claimer's pile is not shuffled


def test_nobody_sees_any_pile_their_own_included() -> None:
    # the seed text: the piles are dealt face down and the players may not look at them
    m = new_match(4, seed=1)
    for seat in range(1, 5):
        assert GAME.view(m.state, seat)["piles"] == {f"p{p}": 10 for p in range(1, 5)}
    assert GAME.view(m.state)["piles"]["p1"] == [DAINI_40.token(c) for c in m.state.piles[1]]

def test_at_a_real_table_an_empty_line_says_what_the_referee_types_now() -> None:
    # a blank line was played as 'flip' or 'pass' (for seeded games, where the pile is
    # known and bots race): at a real table that refused moves nobody typed, "waiting for
    # the deal ..., not for 'p1 flip'" and "say who lets the card go, e.g. 'p2 pass'"
    from kabucli.session import Session

    m = new_match(4)
    sess = Session(m, {})
    with pytest.raises(ParseError, match=r"^empty move: type 'deal' once each player"):
        sess.parse_line("")
    step(m, "deal")
    with pytest.raises(ParseError, match=r"^empty move: p1 flips saying one: 'p1 flip CARD'"):
        sess.parse_line("  ")
    run(m, "7")
    with pytest.raises(ParseError, match=r"^empty move: the 7 \(said one\) may NOT be taken"):
        sess.parse_line("")
    seeded = new_match(4, seed=1)  # a blank line still flips, or lets a card go
    assert Session(seeded, {}).parse_line("") == Flip(1)


def test_a_blank_line_flips_only_once_every_seat_still_in_has_claimed_or_let_the_card_go() -> None:
    # a seat that let the card go and then claimed it anyway (wrongly) counts once: while p1
    # and p4 have done neither, a blank line lets the card go rather than flipping past them
    m = _first_window(2, takeable=False)
    play(m, Pass(2), Claim(2), Pass(3), Claim(3))
    assert m.state.passed == {2, 3} and m.state.claimed == {2, 3}
    assert GAME.blank_move(m.state) == "pass"
    play(m, Pass(1), Pass(4))
    assert GAME.blank_move(m.state) == "flip"


def test_a_player_who_let_the_card_go_may_still_claim_it_before_the_next_flip() -> None:
    m = _first_window(2, takeable=True)
    taker = m.state.next_flipper()
    step(m, Pass(taker))
    assert refused(m, Pass(taker)) == f"p{taker} already let this card go"
    table_before = len(m.state.table)
    pile_before = len(m.state.piles[taker])
    step(m, Claim(taker))
    assert len(m.state.piles[taker]) == pile_before + table_before and m.state.table == []


def test_a_player_who_let_the_card_go_is_still_offered_the_claim_among_their_legal_moves(
) -> None:
    # the moves a bot program is sent and Tab offers (GAME.legal), not only what check allows
    m = _first_window(2, takeable=True)
    taker = m.state.next_flipper()
    assert Claim(taker) in GAME.legal(m.state, taker)
    step(m, Pass(taker))
    legal = GAME.legal(m.state, taker)
    assert Claim(taker) in legal and Pass(taker) not in legal
    assert Claim(taker) in GAME.bot_legal(m.state, taker)

@pytest.mark.parametrize(("tie", "paid"), [("split", []), ("each", [2, 3, 4, 5]),
                                           ("none", [])])
def test_the_onis_flipper_pays_its_one_card_to_tied_winners_by_the_tie_rule(
        tie: str, paid: list[int]) -> None:
    # the Oni's one card is a payment like any other: under `split` one chip cannot be shared
    # by four winners, so it stays with the payer; under `each` every winner gets 1
    m = table(5, limit=20, tie=tie)  # no return in the flips below
    run(m, "7")
    step(m, "p1 claim")  # wrong: p1 gives 4 and keeps 3
    misses(m, 14)
    assert piles(m) == [1, 6, 6, 6, 6] and view(m)["next"] == "p1"
    step(m, "flip Oni")
    assert last(m, Score) == Score("oni", 1, [1, 6, 6, 6, 6], [2, 3, 4, 5])
    assert [e for e in m.events if isinstance(e, Pay)] == [
        Pay(1, w, 1, f"cards, tie {tie}") for w in paid]


def _nth_flip_where(seed: int, wanted: Any) -> int | None:
    """The number of the first flip (nobody claiming) after which ``wanted(state)`` holds."""
    m = new_match(4, seed=seed)
    while not m.over:
        if m.pending.kind != "action":
            m.advance()
            continue
        step(m, Flip(m.state.next_flipper()))
        if m.state.phase == "window" and wanted(m.state):
            return int(m.state.flips)
    return None


@pytest.mark.parametrize("closing", ["handout", "return"])
def test_max_flips_stops_the_game_after_the_closing_windows_hand_out_or_return(
        closing: str) -> None:
    """Rules page, Out, Last Call and the end: "when a flip beyond this many is due, the game
    stops instead (after the closing window's hand-out or return) and is scored as it
    stands": the last card's window still hands out the Jizo's table or returns the cards at
    the limit, so they are counted in the piles, not dead on the table."""
    def wanted(s: Any) -> bool:
        if closing == "handout":
            return bool(s.table[-1] == JIZO)
        return bool(s.said == s.rules.limit and s.table[-1] != JIZO and JIZO not in s.table)

    seed, k = next((seed, k) for seed in range(200)
                   if (k := _nth_flip_where(seed, wanted)) is not None)
    m = new_match(4, seed=seed, max_flips=k)
    _flip_to_the_end(m)
    kinds = [type(e).__name__ for e in m.events]
    score_at = kinds.index("Score")
    want = Handout if closing == "handout" else Return
    assert kinds[score_at - 3:score_at] == ["Flip", want.__name__, "Shuffle"], (seed, k, kinds)
    score = last(m, Score)
    assert score.reason == "max_flips" and m.state.table == []
    assert sum(score.cards) == 40  # every table card went back into a pile before scoring


def test_four_players_by_default_when_no_seat_count_is_given() -> None:
    """Rules page, Cards and players: "4 players by default, 2 to 5 allowed" (RULINGS:
    "Players: 4")."""
    from kabucli import games
    from kabucli.session import build_seats

    game = games.get("kazu-tori")
    assert len(build_seats(game, None, [], [])) == 4
    assert len(build_seats(game, None, [], ["all=sharp"])) == 4
    assert len(build_seats(game, None, ["1=Ann"], [])) == 4  # one named seat: still four


def test_chips_balances_may_go_negative() -> None:
    """RULINGS, Conventions for all five games: "Balances may go negative (a score sheet)";
    Kazu-Tori has no house rule that puts out a player who cannot pay."""
    m = table(4, chips=0)
    run(m, "5", "7", "3")
    step(m, "p1 claim")  # 12 9 9 10
    step(m, "stop")
    assert m.over
    end = m.events[-1]
    assert isinstance(end, End) and end.balances == [28, -9, -9, -10]
    assert sum(end.balances) == 0
