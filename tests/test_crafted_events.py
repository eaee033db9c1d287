"""Every check of every game, reached with events built by hand (not parsed from notation):
what a user's bot or a crafted log may hand the engine. Each test pairs an event that breaks
exactly one rule with one that differs from it only there and is accepted at the same moment,
so that each check has a test that fails without it (a rule whose check went missing lets the
broken event through, or, for a malformed event, makes the check raise).

Dare's enumeration of the sets a hand may lay is also checked against a brute force of its
own, for hands of every shape, and against what the referee accepts.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

import msgspec
import pytest
from matchtools import play

from kabucli import games
from kabucli.cards import JIZO, ONI, UNKNOWN
from kabucli.engine import Game, Match, make_header
from kabucli.events import Event
from kabucli.games.dare.rules import GAME as DARE, Deal, Lay, Show, legal_lays
from kabucli.games.kazu_tori import rules as kt
from kabucli.games.yatchaba import rules as ya
from kabucli.log import SeatInfo
from kabucli.shuffle import Rng

KAZU = kt.GAME
YATCHABA = ya.GAME


def table(game: Game, n: int, seed: int | None = None, **rules: Any) -> Match:
    """A fresh match of ``n`` seats, all people: seeded, or at a real table (no seed)."""
    seats = [SeatInfo(f"p{i}") for i in range(1, n + 1)]
    match = Match(game, make_header(game, game.Rules(**rules), seats, seed))
    match.advance()
    return match


def only_broken(match: Match, good: Event, bad: Event) -> str:
    """``good`` is accepted here and ``bad``, which differs from it in one rule, is refused;
    the reason. Checking either changes nothing."""
    before = match.game.view(match.state)
    assert match.why_not(good) is None, match.why_not(good)
    reason = match.why_not(bad)
    assert reason is not None, f"{bad} was accepted"
    assert match.game.view(match.state) == before
    return reason


# -- Dare -----------------------------------------------------------------------------------

def dare_turns(hands: bool = False) -> Match:
    """A real table of 2 (p2 lays first) after the field 1-7-5: the reference is 3. With
    ``hands`` the deal names every hand, else the hands are face down to the log."""
    m = table(DARE, 2)
    if hands:
        play(m, Deal(1, 1, [1, 7, 5], [[1, 2, 3, 3, 3, 4, 5, 5, 9], [2, 2, 4, 4, 6, 8, 9, 9, 10]]))
    else:
        play(m, "deal 1-7-5")
    assert m.pending.seats == (2,)
    return m


def test_dare_a_set_is_three_cards() -> None:
    m = dare_turns()
    only_broken(m, Lay(2, [[1, 2, 10]]), Lay(2, [[1, 2]]))  # 1+2 = 3 matches, yet two cards


def test_dare_laid_cards_are_named() -> None:
    m = dare_turns()
    only_broken(m, Lay(2, [[2, 2, 9]]), Lay(2, [[UNKNOWN, 2, 2]]))  # -1+2+2 = 3


def test_dare_a_set_matches_the_reference() -> None:
    m = dare_turns()
    only_broken(m, Lay(2, [[1, 2, 10]]), Lay(2, [[1, 2, 3]]))


def test_dare_a_known_hand_lays_only_what_it_holds() -> None:
    m = dare_turns(hands=True)
    only_broken(m, Lay(2, [[2, 2, 9], [4, 9, 10]]), Lay(2, [[2, 2, 9], [3, 10, 10]]))


def test_dare_cards_laid_from_a_face_down_hand_must_be_left_in_the_deck() -> None:
    m = dare_turns()  # the field shows one of the three 1s
    only_broken(m, Lay(2, [[1, 2, 10]]), Lay(2, [[1, 1, 1]]))
    only_broken(m, Lay(2, [[1, 2, 10]]), Lay(2, [[1, 1, 11]]))  # no card 11 in the deck


def test_dare_at_most_three_sets() -> None:
    """Four sets are refused (a hand of nine cannot hold twelve, so the hand check alone
    would refuse them too)."""
    m = dare_turns()
    sets = [[1, 2, 10], [2, 2, 9], [3, 3, 7], [4, 4, 5]]
    only_broken(m, Lay(2, sets[:3]), Lay(2, sets))


def dare_deal() -> tuple[Match, Deal]:
    """A real table of 3 waiting for the deal, and a whole deal with every hand named."""
    m = table(DARE, 3)
    deal = DARE.chance(m.state, Rng(4, "test/deal"))
    assert isinstance(deal, Deal) and deal.hands is not None
    return m, deal


def test_dare_the_deal_is_of_this_round_by_this_dealer() -> None:
    m, deal = dare_deal()
    only_broken(m, deal, msgspec.structs.replace(deal, round=2))
    only_broken(m, deal, msgspec.structs.replace(deal, dealer=2))


def test_dare_the_field_is_three_named_cards() -> None:
    m, deal = dare_deal()
    field = deal.field
    only_broken(m, Deal(1, 1, field), Deal(1, 1, field[:2]))
    only_broken(m, Deal(1, 1, field), Deal(1, 1, [*field[:2], UNKNOWN]))


def test_dare_a_deal_names_nine_cards_for_every_player_or_no_hand() -> None:
    m, deal = dare_deal()
    assert deal.hands is not None
    only_broken(m, deal, msgspec.structs.replace(deal, hands=deal.hands[:2]))
    short = [deal.hands[0][:8], *deal.hands[1:]]
    only_broken(m, deal, msgspec.structs.replace(deal, hands=short))


def test_dare_a_deal_holds_no_more_copies_than_the_deck() -> None:
    m, deal = dare_deal()
    assert deal.hands is not None and any(1 in h for h in deal.hands)  # the deck has three 1s
    only_broken(m, Deal(1, 1, [1, 1, 1]), Deal(1, 1, [1, 1, 1], deal.hands))
    only_broken(m, Deal(1, 1, [1, 7, 10]), Deal(1, 1, [1, 7, 11]))  # no card 11


def dare_showdown() -> Match:
    """A real table of 2 at the showdown: p2 and p1 laid two sets each from face-down hands
    (p2 laid 1-2-10 and 2-2-9); p2 shows first."""
    m = dare_turns()
    play(m, "1-2-10 2-2-9", "3-3-7 4-4-5")
    assert m.pending.kind == "chance"
    return m


def test_dare_a_show_comes_at_the_showdown_and_a_deal_before_it() -> None:
    m = table(DARE, 2)
    only_broken(m, Deal(1, 1, [1, 7, 5]), Show(2, [3, 4, 6]))
    m = dare_showdown()
    only_broken(m, Show(2, [3, 4, 6]), Deal(1, 1, [1, 7, 5]))


def test_dare_the_qualified_players_show_in_turn() -> None:
    m = dare_showdown()
    only_broken(m, Show(2, [3, 4, 6]), Show(1, [3, 4, 6]))


def test_dare_a_shown_hand_is_three_named_cards() -> None:
    m = dare_showdown()
    only_broken(m, Show(2, [3, 4, 6]), Show(2, [3, 4]))
    only_broken(m, Show(2, [3, 4, 6]), Show(2, [3, 4, UNKNOWN]))


def test_dare_a_shown_card_must_be_left_in_the_deck() -> None:
    m = dare_showdown()  # the field and p2's sets show two of the three 1s
    only_broken(m, Show(2, [3, 4, 6]), Show(2, [1, 1, 4]))


def test_dare_a_known_hand_shows_what_is_left_of_it() -> None:
    m = dare_turns(hands=True)
    play(m, Lay(2, [[2, 2, 9], [4, 9, 10]]), Lay(1, [[1, 3, 9], [3, 5, 5]]))
    only_broken(m, Show(2, [4, 6, 8]), Show(2, [4, 6, 9]))


# Dare's sets, enumerated another way: by values, not by positions in the hand.

def lays_by_values(hand: tuple[int, ...], ref: int) -> set[tuple[tuple[int, ...], ...]]:
    """Every multiset of 0-3 value triples with ones digit ``ref`` that ``hand`` holds."""
    have = Counter(hand)
    values = sorted(have)
    triples = [t for t in combinations_with_replacement(values, 3) if sum(t) % 10 == ref]
    out: set[tuple[tuple[int, ...], ...]] = set()
    for k in range(4):
        for choice in combinations_with_replacement(triples, k):
            if not Counter(c for t in choice for c in t) - have:
                out.add(choice)
    return out


def as_sets(moves: tuple[tuple[tuple[int, int, int], ...], ...]) -> list[tuple[tuple[int, ...],
                                                                             ...]]:
    return [tuple(sorted(tuple(sorted(st)) for st in m)) for m in moves]


HANDS = [
    (1, 2, 3, 3, 3, 4, 5, 5, 9),
    (5,) * 9,  # more copies than the deck has: the general enumeration
    (UNKNOWN, UNKNOWN, UNKNOWN, 2, 3, 5, 5, 7, 8),  # unknown cards count as their code, -1
    tuple(sorted(tuple(range(1, 11)) * 2)),  # more cards than a hand holds
    (9, 1, 3, 5, 5, 7, 2, 2, 6),  # not sorted (hands are kept sorted): the same sets
    (),
    (10, 10, 10, 10, 10, 10),
]


@pytest.mark.parametrize("hand", HANDS)
def test_dare_legal_lays_is_every_choice_of_sets_once_whatever_the_hand(
        hand: tuple[int, ...]) -> None:
    for ref in (*range(10), 10, -1):
        moves = legal_lays(hand, ref)
        sets = as_sets(moves)
        if list(hand) == sorted(hand):
            assert len(set(sets)) == len(sets), (hand, ref)  # each choice once
        assert set(sets) == lays_by_values(hand, ref), (hand, ref)
        assert [len(m) for m in moves] == sorted(len(m) for m in moves)


def test_dare_legal_lays_of_random_hands_is_the_brute_force_and_what_the_referee_accepts(
        ) -> None:
    rng = Rng(11, "test/lays")
    deck = DARE.deck.cards()
    for i in range(60):
        n = 2 + i % 3
        m = table(DARE, n, seed=i)
        hand = m.state.hands[m.pending.seats[0]]
        ref = m.state.ref
        seat = m.pending.seats[0]
        lays = [ev for ev in DARE.legal(m.state, seat) if isinstance(ev, Lay)]
        legal = {tuple(tuple(st) for st in ev.sets) for ev in lays}
        assert legal == lays_by_values(tuple(hand), ref)
        # a few sets the hand may not lay: each refused
        for _ in range(5):
            t = tuple(sorted(deck[rng.below(len(deck))] for _ in range(3)))
            if sum(t) % 10 == ref and (t,) not in legal:
                assert m.why_not(Lay(seat, [list(t)])) is not None
        for move in legal:
            assert m.why_not(Lay(seat, [list(st) for st in move])) is None
        odd = tuple(sorted(rng.shuffled(deck)[:3 + i % 13]))
        assert set(as_sets(legal_lays(odd, ref))) == lays_by_values(odd, ref)


# -- Kazu-Tori ------------------------------------------------------------------------------

def kazu(n: int = 3, **rules: Any) -> Match:
    """A real table of ``n`` after the deal: p1 flips first."""
    m = table(KAZU, n, **rules)
    play(m, "deal")
    return m


def test_kazutori_a_real_table_deal_gives_the_pile_sizes_only() -> None:
    m = table(KAZU, 3)
    sizes = kt.pile_sizes(3)
    only_broken(m, kt.Deal(sizes), kt.Deal([13, 13, 14]))
    piles = [[1] * k for k in sizes]
    only_broken(m, kt.Deal(sizes), kt.Deal(sizes, piles))


def test_kazutori_races_and_shuffles_are_not_typed_at_a_real_table() -> None:
    """Refused, and saying why (not just that they are no moves of a person)."""
    m = table(KAZU, 3)
    assert "seeded" in only_broken(m, kt.Deal(kt.pile_sizes(3)), kt.Race([1, 2, 3]))
    assert "real table" in only_broken(m, kt.Deal(kt.pile_sizes(3)), kt.Shuffle([1], [[1, 2]]))


def test_kazutori_a_flip_at_a_real_table_names_a_face_up_card_left_in_the_deck() -> None:
    m = kazu()
    assert "p1 flip 7" in only_broken(m, kt.Flip(1, 7), kt.Flip(1))  # not "card None"
    only_broken(m, kt.Flip(1, 7), kt.Flip(1, UNKNOWN))
    play(m, kt.Flip(1, ONI))
    only_broken(m, kt.Flip(2, 7), kt.Flip(2, ONI))  # one Oni in the deck, and it is up


def test_kazutori_a_seeded_flip_names_no_card() -> None:
    m = table(KAZU, 3, seed=5)
    only_broken(m, kt.Flip(1), kt.Flip(1, m.state.piles[1][0]))


def test_kazutori_the_next_player_flips_while_others_may_claim() -> None:
    m = kazu()
    play(m, kt.Flip(1, 7))  # said "one": the 7 may not be taken; everyone may claim
    assert set(m.pending.seats) == {1, 2, 3}
    only_broken(m, kt.Flip(2, 8), kt.Flip(3, 8))


def test_kazutori_a_real_table_stops_flipping_at_max_flips() -> None:
    for limit, ok in ((2, True), (1, False)):
        m = kazu(max_flips=limit)
        play(m, kt.Flip(1, 7))
        assert (m.why_not(kt.Flip(2, 8)) is None) is ok
        assert m.why_not(kt.Stop(2)) is None


def test_kazutori_the_jizo_leaves_after_its_third_use() -> None:
    """After its third hand-out the Jizo is out of the game: a flip of it is refused (the
    deck check alone would refuse it too: the Jizo is the one card out of the game)."""
    m = kazu(2)
    for other in (None, 8, 9):  # each 7 closes the Jizo's window: its hand-out
        if other is not None:  # (the Jizo went to the next player: the other one turns first)
            play(m, kt.Flip(m.state.next_flipper(), other))
        play(m, kt.Flip(m.state.next_flipper(), JIZO))
        play(m, kt.Flip(m.state.next_flipper(), 7))
    assert m.state.jizo_uses == 3 and m.state.removed == [JIZO]
    nxt = m.state.next_flipper()
    only_broken(m, kt.Flip(nxt, 9), kt.Flip(nxt, JIZO))


def test_kazutori_claims_and_passes_need_a_card_just_flipped() -> None:
    m = kazu()
    assert m.pending.seats == (1,)
    only_broken(m, kt.Stop(1), kt.Claim(1))
    only_broken(m, kt.Stop(1), kt.Pass(1))


def test_kazutori_a_seat_claims_or_passes_a_card_once() -> None:
    m = kazu()
    play(m, kt.Flip(1, 7), kt.Claim(2))  # a wrong claim: p2 pays, the 7 stays up
    only_broken(m, kt.Claim(3), kt.Claim(2))
    play(m, kt.Pass(3))
    only_broken(m, kt.Pass(1), kt.Pass(3))


# -- Yatchaba -------------------------------------------------------------------------------

def yatchaba(*moves: str | Event, n: int = 3, **rules: Any) -> Match:
    m = table(YATCHABA, n, **rules)
    play(m, *moves)
    return m


def test_yatchaba_a_guess_names_three_months_1_to_12_in_order() -> None:
    m = yatchaba("deal")
    good = ya.Guess(1, [1, 1, 8])
    only_broken(m, good, ya.Guess(1, [1, 8]))
    only_broken(m, good, ya.Guess(1, [1, 1, 8, 8]))
    only_broken(m, good, ya.Guess(1, [1, 1, 13]))
    only_broken(m, ya.Guess(1, [1, 1, 12]), ya.Guess(1, [0, 1, 12]))
    only_broken(m, good, ya.Guess(1, [8, 1, 1]))
    only_broken(m, good, ya.Guess(1, [1, 8, 1]))


def test_yatchaba_a_guess_that_can_never_be_right_is_still_a_guess() -> None:
    # RULINGS: any three months, repeats allowed; two Januaries are up, yet 1 1 1 is a guess
    m = yatchaba("deal", "guess 1 1 8", "bet", "pass", "pass", "reveal 1 1 2", "deal")
    assert m.pending.seats == (2,)
    assert m.why_not(ya.Guess(2, [1, 1, 1])) is None
    only_broken(m, ya.Guess(2, [1, 1, 1]), ya.Guess(2, [1, 1, 1, 1]))


def test_yatchaba_a_laid_card_deal_is_of_this_round_and_names_three_cards_in_order() -> None:
    m = yatchaba()
    good = ya.Deal(1, 1, 1, [0, 4, 8])
    only_broken(m, good, ya.Deal(1, 1, 2, [0, 4, 8]))
    only_broken(m, good, ya.Deal(2, 1, 1, [0, 4, 8]))
    only_broken(m, good, ya.Deal(1, 2, 1, [0, 4, 8]))
    only_broken(m, good, ya.Deal(1, 1, 1, [0, 4]))
    only_broken(m, good, ya.Deal(1, 1, 1, [UNKNOWN, 0, 4]))
    only_broken(m, good, ya.Deal(1, 1, 1, [4, 0, 8]))
    only_broken(m, good, ya.Deal(1, 1, 1, [0, 4, 48]))


def test_yatchaba_bets_follow_the_sequence_and_the_guesser_cannot_pass() -> None:
    m = yatchaba("deal", "guess 1 1 8")
    only_broken(m, ya.Bet(1, 1), ya.Bet(1, 2))
    only_broken(m, ya.Bet(1, 1), ya.Pass(1))
    play(m, ya.Bet(1, 1))
    only_broken(m, ya.Pass(2), ya.Bet(2, 1))


def test_yatchaba_each_action_comes_in_its_own_phase() -> None:
    m = yatchaba("deal")
    only_broken(m, ya.Guess(1, [1, 1, 8]), ya.Bet(1, 1))
    only_broken(m, ya.Guess(1, [1, 1, 8]), ya.Continue(1))
    play(m, "guess 1 1 8")
    only_broken(m, ya.Bet(1, 1), ya.Guess(1, [1, 1, 8]))
    only_broken(m, ya.Bet(1, 1), ya.Stop(1))
    play(m, "bet", "bet", "bet")  # the lap is over: p3 decides
    assert m.pending.seats == (3,)
    only_broken(m, ya.Continue(3), ya.Bet(3, 4))
    only_broken(m, ya.Stop(3), ya.Pass(3))
    play(m, "stop")
    only_broken(m, ya.Reveal([1, 1, 8]), ya.Deal(1, 1, 1))
    m = yatchaba()
    only_broken(m, ya.Deal(1, 1, 1), ya.Reveal([1, 1, 8]))


def at_reveal(*laid: int) -> Match:
    """A real table of 3 at the first reveal; ``laid``: the cards the deal named, if any."""
    deal: Event = ya.Deal(1, 1, 1, list(laid)) if laid else ya.Deal(1, 1, 1)
    return yatchaba(deal, "guess 1 1 8", "bet", "pass", "pass")


def test_yatchaba_three_cards_are_revealed_in_order_of_month() -> None:
    m = at_reveal()
    good = ya.Reveal([1, 1, 8])
    only_broken(m, good, ya.Reveal([1, 8]))
    only_broken(m, good, ya.Reveal([1, 1, 8, 8]))
    only_broken(m, good, ya.Reveal([1, 1, 13]))
    only_broken(m, ya.Reveal([1, 1, 12]), ya.Reveal([0, 1, 12]))
    only_broken(m, good, ya.Reveal([8, 1, 1]))


def test_yatchaba_a_month_has_four_cards() -> None:
    m = yatchaba("deal", "guess 1 1 8", "bet", "pass", "pass", "reveal 1 1 2", "deal",
                 "guess 3 4 5", "bet", "pass", "pass")
    assert m.state.phase == "reveal"
    only_broken(m, ya.Reveal([1, 1, 3]), ya.Reveal([1, 1, 1]))


def test_yatchaba_named_revealed_cards_are_three_in_order_each_of_its_month() -> None:
    m = at_reveal()
    good = ya.Reveal([1, 1, 8], [0, 1, 28])
    only_broken(m, good, ya.Reveal([1, 1, 8], [0, 1]))
    only_broken(m, good, ya.Reveal([1, 1, 8], [1, 0, 28]))  # pairs in canonical order
    only_broken(m, good, ya.Reveal([1, 1, 8], [0, 1, 4]))  # 4 is a February card
    only_broken(m, good, ya.Reveal([1, 1, 8], [0, 1, 99]))
    only_broken(m, ya.Reveal([1, 1, 8], [UNKNOWN, 0, 28]),
                ya.Reveal([1, 1, 8], [UNKNOWN, 4, 28]))


def test_yatchaba_a_revealed_card_may_not_be_face_up_already() -> None:
    m = yatchaba("deal", "guess 1 1 8", "bet", "pass", "pass", "reveal 1b 2a 8a", "deal",
                 "guess 3 4 5", "bet", "pass", "pass")
    only_broken(m, ya.Reveal([1, 2, 3], [1, 5, 8]), ya.Reveal([1, 2, 3], [0, 5, 8]))


def test_yatchaba_the_revealed_cards_are_those_laid() -> None:
    m = at_reveal(0, 4, 8)
    only_broken(m, ya.Reveal([1, 2, 3], [0, 4, 8]), ya.Reveal([1, 2, 3], [0, 4, 9]))
    only_broken(m, ya.Reveal([1, 2, 3], [0, 4, 8]), ya.Reveal([1, 2, 3]))


# -- every game -----------------------------------------------------------------------------

def first_action(name: str) -> tuple[Match, int, list[Event]]:
    """A seeded match of 2 of game ``name`` at its first action: the seat to act, and its
    legal moves."""
    game = games.get(name)
    m = table(game, 2, seed=1)
    seat = m.pending.seats[0]
    return m, seat, game.legal(m.state, seat)


@pytest.mark.parametrize("name", games.names())
def test_an_action_of_another_game_is_refused(name: str) -> None:
    """A user's bot may answer with any event at all: another game's move is refused, even
    when it names the seat whose turn it is."""
    m, seat, _ = first_action(name)
    tried = 0
    for other in games.names():
        if other != name:
            for ev in first_action(other)[2][:3]:
                if "seat" in ev.__struct_fields__:
                    foreign = msgspec.structs.replace(ev, seat=seat)
                    assert m.why_not(foreign) is not None, (name, foreign)
                    tried += 1
    assert tried >= 2
