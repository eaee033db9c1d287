"""The three-card hands of the kabu family, shared by Dare and Kabu-Tsukuri.

The extended ranking (the named hands of Hiki-Kabu and Oicho-Kabu's local rules) ranks named
hands above every plain hand; a plain hand counts the ones digit of its sum. Ranks are small
integers, higher wins: a hand's *strength* is ``rank * 10 + digit`` for the ranks compared by
their digit (plain, Kudari, Nobori) and ``rank * 10`` for the others, whose equals tie.
"""

from __future__ import annotations

PLAIN = 0
KUDARI = 2  # falling by one in laid order (Kabu-Tsukuri only: a held hand has no order)
NOBORI = 3  # rising by one (in laid order for Kabu-Tsukuri, in any order for Dare)
FUJIN = 4
RAIJIN = 5
ICHI_NI_SAN = 6
NANA_GO_SAN = 7
ARASHI = 8  # three of a kind other than 3-3-3
ARASHI_KABU = 9
DOSHIPPIN = 10

# The named hands that do not depend on order, by their sorted cards.
FIXED: dict[tuple[int, int, int], int] = {
    (1, 10, 10): DOSHIPPIN,
    (3, 3, 3): ARASHI_KABU,
    (3, 5, 7): NANA_GO_SAN,
    (1, 2, 3): ICHI_NI_SAN,
    (4, 7, 9): RAIJIN,
    (3, 7, 10): FUJIN,
}
BY_DIGIT = frozenset({PLAIN, KUDARI, NOBORI})  # ranks whose equals compare by the ones digit

RANK_NAMES = {
    DOSHIPPIN: "Doshippin", ARASHI_KABU: "Arashi-kabu", ARASHI: "Arashi",
    NANA_GO_SAN: "Nana-Go-San", ICHI_NI_SAN: "Ichi-Ni-San", RAIJIN: "Raijin", FUJIN: "Fujin",
    NOBORI: "Nobori", KUDARI: "Kudari",
}
DIGIT_NAMES = ("Buta", "Pin", "Nizou", "Santa", "Yotsuya", "Goke", "Roppou", "Shichiken",
               "Oicho", "Kabu")


def fixed_rank(a: int, b: int, c: int) -> int:
    """The rank of a sorted three-card hand among the hands order does not change: a named
    hand, three of a kind (Arashi), or PLAIN."""
    named = FIXED.get((a, b, c))
    if named is not None:
        return named
    if a == b == c:
        return ARASHI
    return PLAIN


def digit_name(digit: int) -> str:
    """``Kabu (9)``: the name of a plain hand's ones digit."""
    return f"{DIGIT_NAMES[digit]} ({digit})"
