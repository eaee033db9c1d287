"""The decks of the five games and the card tokens people type and the program prints.

A card is a small integer *code*. Cards that no rule tells apart share one code (the three
plain 7s of a kabufuda deck are all code 7), so a deck is a multiset of codes. Every code has
exactly one printed token, and parsing is forgiving about case and a few aliases, so that what
the program prints can always be typed back.

The unknown card (a card face down at a real table) is code ``UNKNOWN`` and prints as ``??``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from kabucli.errors import ParseError
from kabucli.safetext import quoted

UNKNOWN: Final = -1
UNKNOWN_TOKEN: Final = "??"


@dataclass(frozen=True)
class Deck:
    """A deck: how many copies of each card code it holds and how each code is written."""

    name: str
    title: str
    counts: Mapping[int, int]
    tokens: Mapping[int, str]
    values: Mapping[int, int]
    aliases: Mapping[str, int] = field(default_factory=dict)
    # how its tokens are written, for a refusal of one that is not (a short deck's are listed)
    spelled: str = ""
    # each card in words, where its token is a code ("GR": "green reverse"), as a listener
    # hears it (the replay page's names of its card images); a card left out is its token
    words: Mapping[int, str] = field(default_factory=dict)
    _lookup: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lookup = {tok.lower(): code for code, tok in self.tokens.items()}
        for alias, code in self.aliases.items():
            lookup[alias.lower()] = code
        lookup[UNKNOWN_TOKEN] = UNKNOWN
        object.__setattr__(self, "_lookup", lookup)

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    def cards(self) -> list[int]:
        """The whole deck in its canonical (unshuffled) order: codes ascending, copies adjacent."""
        return [code for code in sorted(self.counts) for _ in range(self.counts[code])]

    def token(self, code: int) -> str:
        """The printed token of a card; ``#CODE`` for a code outside the deck (which only a
        damaged log holds, and which the games refuse), so any event can be printed."""
        if code == UNKNOWN:
            return UNKNOWN_TOKEN
        token = self.tokens.get(code)
        return f"#{code}" if token is None else token

    def value(self, code: int) -> int:
        return self.values[code]

    def named(self, token: str) -> str:
        """A token's card in words (:attr:`words`); the token itself where the deck has no
        words for it, or it is not one of the deck's."""
        code = self._lookup.get(token.lower())
        return token if code is None else self.words.get(code, token)

    def parse(self, text: str) -> int:
        """The code of one typed token; raises ParseError naming the token and the deck."""
        code = self._lookup.get(text.strip().lower())
        if code is None:
            raise ParseError(f"{quoted(text)} is not a card of the {self.title} deck (its "
                             f"cards: {self.spelled or _listed(self.tokens.values())})")
        return code

    def parse_many(self, texts: Iterable[str]) -> list[int]:
        return [self.parse(t) for t in texts]

    def check_available(self, seen: Mapping[int, int], new: Iterable[int]) -> str | None:
        """Why ``new`` cards cannot exist given the cards already ``seen`` (how many of each
        code showed; a code left out: none), or None if they can."""
        extra = Counter(c for c in new if c != UNKNOWN)
        for code, n in sorted(extra.items()):
            have = self.counts.get(code, 0)
            if code not in self.counts:
                return f"card code {code} is not in the {self.title} deck"
            showed = seen.get(code, 0)
            if showed + n > have:
                copies = "copy" if have == 1 else "copies"
                why = f"the {self.title} deck has only {have} {copies} of {self.token(code)}"
                if not showed:  # the new cards alone are too many: say how many they are
                    return f"{why}, not {n}"
                return f"{why}, and {showed} already showed" + (f", so not {n} more" if n > 1
                                                                 else "")
        return None


def _listed(tokens: Iterable[str]) -> str:
    """Tokens in their order, a run of consecutive numbers written as one range: ``1-10,
    Oni, Jizo``."""
    out: list[str] = []
    run: list[int] = []
    for tok in [*tokens, ""]:
        if tok.isdigit() and (not run or int(tok) == run[-1] + 1):
            run.append(int(tok))
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)))
        run = [int(tok)] if tok.isdigit() else []
        if tok and not tok.isdigit():
            out.append(tok)
    return ", ".join(out)


def _numbered(name: str, title: str, counts: dict[int, int], **kw: object) -> Deck:
    tokens = {c: str(c) for c in counts}
    values = {c: c for c in counts}
    extra_tokens = kw.pop("extra_tokens", {})
    extra_values = kw.pop("extra_values", {})
    assert isinstance(extra_tokens, dict) and isinstance(extra_values, dict)
    tokens.update(extra_tokens)
    values.update(extra_values)
    aliases = kw.pop("aliases", {})
    assert isinstance(aliases, dict)
    return Deck(name, title, counts, tokens, values, aliases)


# Kabufuda for Dare: values 1-10, four of each, the red special 1 removed (so three 1s).
KABUFUDA_39: Final = _numbered(
    "kabufuda-39", "kabufuda (39)", {v: 3 if v == 1 else 4 for v in range(1, 11)}
)

# Daini for Kazu-Tori: one 1 is the Oni, one 4 is the Jizo.
ONI: Final = 11
JIZO: Final = 12
DAINI_40: Final = _numbered(
    "daini-40",
    "Daini (40)",
    {**{v: 3 if v in (1, 4) else 4 for v in range(1, 11)}, ONI: 1, JIZO: 1},
    extra_tokens={ONI: "Oni", JIZO: "Jizo"},
    extra_values={ONI: 0, JIZO: 0},
    aliases={"O": ONI, "J": JIZO},
)

# Hanafuda: 12 months of four cards. Code = (month - 1) * 4 + index within the month.
# Kinds: b bright, a animal, r ribbon, c chaff (numbered when a month has several).
HANAFUDA_KINDS: tuple[tuple[str, ...], ...] = (
    ("b", "r", "c1", "c2"),  # 1 January, pine
    ("a", "r", "c1", "c2"),  # 2 February, plum
    ("b", "r", "c1", "c2"),  # 3 March, cherry
    ("a", "r", "c1", "c2"),  # 4 April, wisteria
    ("a", "r", "c1", "c2"),  # 5 May, iris
    ("a", "r", "c1", "c2"),  # 6 June, peony
    ("a", "r", "c1", "c2"),  # 7 July, bush clover
    ("b", "a", "c1", "c2"),  # 8 August, pampas
    ("a", "r", "c1", "c2"),  # 9 September, chrysanthemum
    ("a", "r", "c1", "c2"),  # 10 October, maple
    ("b", "a", "r", "c"),  # 11 November, willow
    ("b", "c1", "c2", "c3"),  # 12 December, paulownia
)
MONTH_NAMES: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                      "Dec")
MONTH_WORDS: Final = ("January", "February", "March", "April", "May", "June", "July", "August",
                      "September", "October", "November", "December")
KIND_WORDS: Final = {"b": "bright", "a": "animal", "r": "ribbon", "c": "chaff"}


def month_of(code: int) -> int:
    """The month (1-12) of a hanafuda card code."""
    return code // 4 + 1


def _hanafuda() -> Deck:
    tokens: dict[int, str] = {}
    values: dict[int, int] = {}
    words: dict[int, str] = {}  # 12c3: December chaff 3 (its third chaff)
    for m, kinds in enumerate(HANAFUDA_KINDS, start=1):
        for i, kind in enumerate(kinds):
            code = (m - 1) * 4 + i
            tokens[code] = f"{m}{kind}"
            values[code] = m
            words[code] = " ".join((MONTH_WORDS[m - 1], KIND_WORDS[kind[0]], kind[1:])).strip()
    return Deck("hanafuda-48", "hanafuda (48)", dict.fromkeys(tokens, 1), tokens, values,
                spelled="a month 1-12 and its kind: b, a, r, or c1 to c3 (November's: c), as "
                        "in 1b, 2a, 9r, 12c3", words=words)


HANAFUDA_48: Final = _hanafuda()

# Hanafuda counted by month, for games whose rules never tell two cards of a month apart
# (Kabu-Tsukuri): codes are the months 1-12, four copies each. A card is typed as its month
# only: a named card (3b, 11r) is not a token of this deck, since a log of months could not
# tell the same named card shown twice from two cards of its month.
HANAFUDA_MONTHS: Final = _numbered(
    "hanafuda-months", "hanafuda (48, by month)", dict.fromkeys(range(1, 13), 4))

# Uno Dare: per color one 0, two each of 1-9, two Skips, two Reverses, two Dares (each Dare
# card distinct by its dare number); plus 8 Wild Dares. 108 cards.
UNO_COLORS: Final = ("R", "Y", "G", "B")
UNO_COLOR_NAMES: Final = ("red", "yellow", "green", "blue")
UNO_SKIP: Final = 40  # + color index
UNO_REVERSE: Final = 44  # + color index
UNO_DARE: Final = 48  # + dare number - 1; dare numbers 1-8 are colored, 9-16 are wild


def uno_color(code: int) -> int | None:
    """Color index 0-3 of an Uno Dare card, None for a Wild Dare."""
    if code < UNO_SKIP:
        return code // 10
    if code < UNO_DARE:
        return (code - UNO_SKIP) % 4
    number = code - UNO_DARE + 1
    return (number - 1) // 2 if number <= 8 else None


def _uno() -> Deck:
    counts: dict[int, int] = {}
    tokens: dict[int, str] = {}
    values: dict[int, int] = {}
    words: dict[int, str] = {}  # GR: green reverse, WD11: wild dare 11
    for ci, c in enumerate(UNO_COLORS):
        color = UNO_COLOR_NAMES[ci]
        for n in range(10):
            code = ci * 10 + n
            counts[code] = 1 if n == 0 else 2
            tokens[code] = f"{c}{n}"
            values[code] = n
            words[code] = f"{color} {n}"
        counts[UNO_SKIP + ci] = 2
        tokens[UNO_SKIP + ci] = f"{c}S"
        values[UNO_SKIP + ci] = 20
        words[UNO_SKIP + ci] = f"{color} skip"
        counts[UNO_REVERSE + ci] = 2
        tokens[UNO_REVERSE + ci] = f"{c}R"
        values[UNO_REVERSE + ci] = 20
        words[UNO_REVERSE + ci] = f"{color} reverse"
    for number in range(1, 17):
        code = UNO_DARE + number - 1
        counts[code] = 1
        if number <= 8:
            tokens[code] = f"{UNO_COLORS[(number - 1) // 2]}D{number}"
            values[code] = 20
            words[code] = f"{UNO_COLOR_NAMES[(number - 1) // 2]} dare {number}"
        else:
            tokens[code] = f"WD{number}"
            values[code] = 50
            words[code] = f"wild dare {number}"
    return Deck("uno-dare-108", "Uno Dare (108)", counts, tokens, values,
                spelled="a color R, Y, G or B and 0-9, S (skip) or R (reverse), as in R5, "
                        "GS; a dare: its color, D and its number (RD1 to BD8), or WD9 to WD16",
                words=words)


UNO_DARE_108: Final = _uno()

DECKS: dict[str, Deck] = {
    d.name: d for d in (KABUFUDA_39, DAINI_40, HANAFUDA_48, HANAFUDA_MONTHS, UNO_DARE_108)
}
