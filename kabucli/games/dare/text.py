"""Dare's words: the names of showdown hands and the hints of the play prompt.

The rules page is ``rules.md`` beside this module (see :mod:`kabucli.games`).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from kabucli.cards import UNKNOWN
from kabucli.games.dare.rules import GAME, HAND, Dare, DareState, strength
from kabucli.hands import ARASHI, NOBORI, RANK_NAMES, digit_name
from kabucli.notation import card_list

EMPTY = "type sets like '1-3-9 3-5-5', or 'pass'"  # (when no hint applies)


def hand_name(cards: list[int] | tuple[int, ...], yaku: str) -> str:
    """The name of a showdown hand, e.g. ``Kabu (9)`` or ``Arashi (three of a kind)``."""
    plain = digit_name(sum(cards) % 10)
    rank, _ = strength(cards, yaku)
    if rank == 0:
        return plain
    if yaku == "arashi" or rank == ARASHI:
        return "Arashi (three of a kind)"
    if rank == NOBORI:
        return f"Nobori, {plain}"
    return RANK_NAMES[rank]


# the sets an example names first, per reference (then any other, in ascending order)
_EXAMPLES = {0: ((1, 9, 10), (2, 8, 10)), 1: ((1, 2, 8), (3, 4, 4)), 2: ((1, 2, 9), (3, 4, 5)),
             3: ((1, 3, 9), (3, 5, 5)), 4: ((1, 4, 9), (2, 5, 7)), 5: ((1, 5, 9), (2, 6, 7)),
             6: ((1, 6, 9), (2, 7, 7)), 7: ((1, 7, 9), (3, 6, 8)), 8: ((1, 8, 9), (2, 7, 9)),
             9: ((1, 9, 9), (3, 7, 9))}


def example_sets(s: DareState, count: int) -> str:
    """``count`` sets whose ones digit is the reference, as typed (``1-3-9 3-5-5``); at a
    real table of cards the deck may still hold (none of them seen this round, the field
    included: a seeded game's seen cards are every hand's)."""
    left = {v: GAME.deck.counts[v] - (s.seen[v] if s.physical else 0) for v in range(1, 11)}
    ones = s.ref
    picked: list[tuple[int, ...]] = []
    others = (t for t in combinations_with_replacement(range(1, 11), 3) if sum(t) % 10 == ones)
    for st in (*_EXAMPLES[ones], *others):
        need = {v: st.count(v) for v in st}
        if st not in picked and all(left[v] >= k for v, k in need.items()):
            picked.append(st)
            for v, k in need.items():
                left[v] -= k
            if len(picked) == count:
                break
    return " ".join(card_list(GAME.deck, st) for st in picked)


def wrong_sum(s: DareState, cards: list[int]) -> str:
    """Why a set of ``cards`` whose ones digit is not the reference is refused; at a real
    table, what to type instead (bots and a seeded log's replay meet it too)."""
    total = sum(cards)
    why = (f"set {card_list(GAME.deck, cards)} adds up to {total}, ones digit {total % 10}, not "
           f"the reference {s.ref}")
    if not s.physical:
        return why
    return f"{why}: type sets whose ones digit is {s.ref} (e.g. '{example_sets(s, 1)}'), or 'pass'"


def example_show(s: DareState, seat: int) -> str:
    """What ``seat`` may show, as typed (``show 2-3-4``): the cards it holds when its hand is
    known, else three cards the deck may still hold (at a real table none of whose copies
    all showed this round), 2-3-4 if it may."""
    hand = s.hands[seat]
    if len(hand) == 3 and UNKNOWN not in hand:
        return f"show {card_list(GAME.deck, hand)}"
    left = {v: GAME.deck.counts[v] - (s.seen[v] if s.physical else 0) for v in range(1, 11)}
    for st in ((2, 3, 4), *combinations_with_replacement(range(1, 11), 3)):
        if all(left[v] >= st.count(v) for v in st):
            return f"show {card_list(GAME.deck, st)}"
    return "show 2-3-4"  # (39 cards, 27 at most in sight: never reached)


def too_many_sets(s: DareState, sets: int) -> str:
    """Why a lay of more than 3 sets is refused; at a real table, what to type instead."""
    why = f"a hand of {HAND} cards holds at most 3 sets, not {sets}"
    if not s.physical:
        return why
    return f"{why}: type at most 3 (e.g. '{example_sets(s, 3)}'), or 'pass'"


def hint(s: DareState, seat: int) -> str:
    """What ``seat`` may type now, in one line."""
    if s.phase == "turns":
        return (f"lay 0-3 sets of three cards whose ones digit is {s.ref} "
                f"(e.g. '{example_sets(s, 2)}'), or 'pass'")
    if s.phase == "show":
        who = Dare._next_show(s)
        return f"type the three cards p{who} shows (e.g. '{example_show(s, who)}')"
    if s.phase == "deal":
        return "type the three field cards as they are turned up (e.g. 'deal 1-7-5')"
    return ""

