"""Dare's words: the names of showdown hands and the hints of the play prompt.

The rules page is ``rules.md`` beside this module (see :mod:`kabucli.games`).
"""

from __future__ import annotations

from kabucli.games.dare.rules import Dare, DareState, strength
from kabucli.hands import ARASHI, NOBORI, RANK_NAMES, digit_name

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


def hint(s: DareState, seat: int) -> str:
    """What ``seat`` may type now, in one line."""
    if s.phase == "turns":
        return (f"lay 0-3 sets of three cards whose ones digit is {s.ref} "
                "(e.g. '1-3-9 3-5-5'), or 'pass'")
    if s.phase == "show":
        return f"type the three cards p{Dare._next_show(s)} shows (e.g. 'show 2-3-4')"
    if s.phase == "deal":
        return "type the three field cards as they are turned up (e.g. 'deal 1-7-5')"
    return ""

