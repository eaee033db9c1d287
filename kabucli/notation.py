"""Notation: what every game's moves are typed and printed with.

The events every game shares (payments, the end of a match, undo) read and print the same
way in every game (:func:`notate_shared`, :func:`parse_shared`)::

    pay p1 pot 1 ante          chips move from a party to another (``pot`` or a seat)
    end rounds p1=52 p2=47 pot=1
    undo

A game's ``parse`` is a :class:`Verbs` table: an optional seat ``pN``, then a verb and its
words, each verb handled by one function of the game (the shared verbs are handled here).
Seats are read by :func:`seat_of` and the helpers built on it (every number range-checked);
card lists are printed by :func:`card_list`, seat lists by :func:`seat_list`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Final, Generic, TypeVar

from kabucli.errors import ParseError
from kabucli.events import End, Event, Forfeit, Pay, Undo
from kabucli.ledger import POT, party_name
from kabucli.safetext import quoted, safe_text

if TYPE_CHECKING:
    from kabucli.cards import Deck

SHARED_VERBS = frozenset({"pay", "end", "undo"})
LOG_INT: Final = 2**63 - 1  # the largest whole number a log holds (msgpack: 64-bit integers)
# characters in a typed move or a bot's answer (the longest notation has 120)
MAX_LINE: Final = 1000


def whole(word: str, lo: int, hi: int) -> int | None:
    """The number ``word`` spells in ASCII digits (after a ``-`` when ``lo`` < 0) when it
    lies in ``lo``..``hi``, else None. A number with more digits than the bounds is refused
    without converting it (thousands of digits would stop ``int``)."""
    digits = word[1:] if word[:1] == "-" and lo < 0 else word
    if not (digits.isascii() and digits.isdigit()):
        return None
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(max(-lo, hi))):
        return None
    value = -int(digits) if word[:1] == "-" else int(digits)
    return value if lo <= value <= hi else None


def number(word: str, lo: int, hi: int, what: str) -> int:
    """:func:`whole`, or a ParseError saying that ``what`` takes a number from lo to hi."""
    value = whole(word, lo, hi)
    if value is None:
        raise ParseError(f"{what} is a whole number {lo}-{hi}, not '{safe_text(word, 24)}'")
    return value


def seat_of(word: str, nseats: int) -> int | None:
    """The seat a word ``pN`` names (any case); None when the word is not of that form, a
    ParseError when N is no seat."""
    low = word.lower()
    if len(low) >= 2 and low[0] == "p" and low[1:].isdigit():
        seat = whole(low[1:], 1, nseats)
        if seat is None:
            raise ParseError(f"there is no seat {safe_text(word, 24)} (seats are p1-p{nseats})")
        return seat
    return None


def no_player(word: str, nseats: int, example: str) -> str:
    """Why a word where a move names a seat (``catch Cta``) is refused: it is no seat (nor a
    name the session could read as one: a misspelt name, or one two seats share); with the
    move to type and the players, whom the prompt writes as the table does (``p1 Ann``), as
    it does when such a word starts the line."""
    seats = ", ".join(f"p{i}" for i in range(1, nseats + 1))
    return f"{quoted(word)} is not a seat: type {quoted(example)} (the players are {seats})"


def split_seat(text: str, nseats: int) -> tuple[int | None, str]:
    """Split an optional leading seat ``pN`` off typed notation: (the seat or None, the rest)."""
    words = text.split(None, 1)  # (a tab after the seat parts it as a space does)
    seat = seat_of(words[0], nseats) if words else None
    if seat is None:
        return None, text.strip()
    return seat, words[1].strip() if len(words) > 1 else ""


def in_seat_order(part: str, i: int, nseats: int, what: str, line: str) -> tuple[int | None, str]:
    """Part ``i`` (from 1) of a line that gives each seat a part in seat order (``deal | p1
    CARDS | p2 CARDS``): :func:`split_seat` of it, and a ParseError when it is labelled with
    another seat than the ``i``-th ("hand 2 of the deal is labelled p1: ..."; ``what``: the
    part, ``line``: the line it is of)."""
    who, rest = split_seat(part, nseats)
    if who is not None and who != i:
        raise ParseError(f"{what} {i} of {line} is labelled p{who}: give the {what}s in seat "
                         f"order, p1 to p{nseats}")
    return who, rest


def parse_seat(word: str, nseats: int, zero: str = "") -> int:
    """A word that must name a seat ``pN``, or be ``zero`` (read as 0, e.g. ``-`` for
    nobody) when one is given; else a ParseError."""
    if zero and word.lower() == zero:
        return 0
    found = seat_of(word, nseats)
    if found is None:
        raise ParseError(f"'{safe_text(word, 24)}' is not a seat p1-p{nseats}"
                         + (f" or '{zero}'" if zero else ""))
    return found


def parse_seats(words: Iterable[str], nseats: int) -> list[int]:
    """Words that must each name a seat."""
    return [parse_seat(w, nseats) for w in words]


def seat_list(seats: Iterable[int], sep: str = " ", none: str = "-") -> str:
    """Seats printed ``p1 p3`` (or joined by ``sep``); ``none`` when there are none."""
    return sep.join(f"p{s}" for s in seats) or none


def card_list(deck: Deck, cards: Iterable[int], sep: str = "-", none: str = "") -> str:
    """Cards printed by their tokens joined by ``sep`` (``1-3-9``); ``none`` when empty."""
    token = deck.token
    return sep.join(token(c) for c in cards) or none


def cards_in(deck: Deck, text: str, what: str = "") -> list[int]:
    """The cards of a list typed as :func:`card_list` prints it, joined by '-', or apart by
    spaces or commas: ``1-3-9``, ``1 3 9``, ``1, 3, 9`` (every game reads a list so). A word
    with a card missing between two '-' (``1--3``, ``-1``) is refused, naming it; ``what``
    says what the cards are (Kabu-Tsukuri's ``months 1-12``), for that refusal."""
    out: list[int] = []
    for word in text.split():
        # a comma that ends the word is a list's ('1, 10, 10', '1-2-3, 4-5-6'): no card missing
        tokens = (word[:-1] if word.endswith(",") else word).replace(",", "-").split("-")
        if not all(tokens):  # '-1-2-3', '1--2-3', '1-2-3-', '1,,2': a card missing
            eg = card_list(deck, sorted(deck.counts)[:3])
            raise ParseError(f"{quoted(word)}: cards are {what + ' ' if what else ''}joined by "
                             f"'-' (e.g. {eg}), with a card between every two '-'")
        out += deck.parse_many(tokens)
    return out


def party(word: str, nseats: int) -> int:
    """The party a word names: ``pot`` (0) or a seat ``p1``..``pN``."""
    if word.lower() == "pot":
        return POT
    try:
        seat = seat_of(word, nseats)
    except ParseError:  # a seat out of range: said as below
        seat = None
    if seat is not None:
        return seat
    raise ParseError(f"{quoted(word)} is neither 'pot' nor a seat p1-p{nseats}")


def notate_shared(ev: Event) -> str | None:
    """The notation of a shared event, or None for a game's own events."""
    if type(ev) is Pay:
        return f"pay {party_name(ev.src)} {party_name(ev.dst)} {ev.amount} {ev.why}".rstrip()
    if type(ev) is End:
        balances = " ".join(f"p{i}={b}" for i, b in enumerate(ev.balances, 1))
        return f"end {ev.reason} {balances} pot={ev.pot}"
    if type(ev) is Undo:
        return "undo"
    if type(ev) is Forfeit:
        return f"forfeit p{ev.seat} {ev.reason}"
    return None


def parse_shared(verb: str, args: list[str], nseats: int) -> Event:
    """A shared event from its verb (one of SHARED_VERBS) and the words after it."""
    if verb == "undo":
        if args:
            raise ParseError(f"'undo' takes nothing after it, got {quoted(' '.join(args))}")
        return Undo()
    if verb == "pay":
        if len(args) < 3 or not args[2].isdigit():
            raise ParseError("a payment reads 'pay FROM TO CHIPS [WHY]', e.g. 'pay p1 pot 1 ante'")
        # (why and the end's reason are the engine's own words, all lower case)
        return Pay(party(args[0], nseats), party(args[1], nseats),
                   number(args[2], 0, LOG_INT, "a payment"), " ".join(args[3:]).lower())
    if verb == "end":
        want = [f"p{i}" for i in range(1, nseats + 1)] + ["pot"]
        shape = "the end reads 'end REASON " + " ".join(f"{w}=CHIPS" for w in want) + "'"
        if len(args) != nseats + 2:
            raise ParseError(shape)
        values = []
        for word, name in zip(args[1:], want, strict=True):
            key, sep, val = word.partition("=")
            value = whole(val, -LOG_INT, LOG_INT)
            if key.lower() != name or not sep or value is None:
                raise ParseError(shape)
            values.append(value)
        return End(args[0].lower(), values[:-1], values[-1])
    raise ParseError(f"{quoted(verb)} is not an event every game shares")


S = TypeVar("S")


# A dash after a letter or digit (before another, a space or the end: a word being typed,
# '1ー') that a Japanese input method, or a word processor, types for '-': the long vowel
# mark (U+30FC, also half-width U+FF70 once folded), the hyphens and dashes U+2010-U+2015,
# the minus sign U+2212.
_DASHES = re.compile("(?<=[0-9A-Za-z])[\u2010-\u2015\u2212\u30fc](?![^0-9A-Za-z\\s])")


def typed_form(line: str) -> str:
    """A typed line as the notation reads it: Unicode's compatibility forms folded (NFKC), so
    that full-width letters, digits and spaces, as a Japanese input method types them
    (``ｐ１　ｓｅｔｓ　４－６－８``), read as their ASCII forms, and a dash-like mark after a
    letter or digit (``4ー6ー8``) as ``-``. A line in ASCII is itself; a name's own
    long vowel mark (``ジョー``) is kept, as it follows no letter of the notation. A line
    that folding would make longer than :data:`MAX_LINE` (a few signs fold into up to 18
    characters each: 'ﷺ') stays as typed, so that its refusal counts what was typed."""
    if line.isascii():
        return line
    folded = _DASHES.sub("-", unicodedata.normalize("NFKC", line))
    return folded if len(folded) <= max(len(line), MAX_LINE) else line


class Typed:
    """One typed move, split: the seat typed before it (or None), its words after the seat
    (as typed), and the text after the seat."""

    __slots__ = ("rest", "seat", "words")

    def __init__(self, seat: int | None, words: list[str], rest: str) -> None:
        self.seat = seat
        self.words = words
        self.rest = rest

    @property
    def verb(self) -> str:
        """The first word in lower case."""
        return self.words[0].lower()

    @property
    def args(self) -> list[str]:
        """The words after the verb."""
        return self.words[1:]

    @property
    def low(self) -> list[str]:
        """The words after the verb in lower case: a line's own words (``round``, ``draws``,
        ``winner``, a reason) are read in any case, as its verb and its seats are; a refusal
        quotes :attr:`args`, as typed."""
        return [w.lower() for w in self.words[1:]]

    def none_after(self, verb: str = "") -> None:
        """A ParseError unless nothing follows the verb (named ``verb`` in the message)."""
        if len(self.words) > 1:
            raise ParseError(f"'{verb or self.verb}' takes nothing after it, got "
                             f"{quoted(' '.join(self.words[1:]))}")


Handler = Callable[[S, Typed], Event]


class Verbs(Generic[S]):
    """A game's parser: its verbs (every spelling) -> the function that reads the move.

    ``parse(state, text, nseats)`` splits an optional seat ``pN`` off ``text``, then hands
    the move to the handler of its first word, or to ``other`` when that word is no verb
    (e.g. Dare's ``1-3-9``, a set typed without ``sets``). The shared verbs (``pay``,
    ``end``, ``undo``) are read by :func:`parse_shared`; they and the verbs in ``seatless``
    (the game's own engine events) are refused after a seat. ``empty`` is the message for
    a line with no words (or a function of the state that gives it, for a game whose moves
    differ by phase); ``split`` cuts the text after the seat into words (at spaces).
    """

    __slots__ = ("empty", "handlers", "other", "seatless", "split")

    def __init__(self, handlers: Mapping[str, Handler[S]], other: Handler[S],
                 empty: str | Callable[[S], str],
                 seatless: Iterable[str] = (),
                 split: Callable[[str], list[str]] = str.split) -> None:
        self.handlers = dict(handlers)
        self.other = other
        self.empty = empty
        self.seatless = frozenset(seatless) | SHARED_VERBS
        self.split = split

    def reads(self, word: str) -> bool:
        """Whether a line whose first word is ``word`` (lower case) is read as a move or an
        engine event: one of the verbs, every spelling, the shared ones among them."""
        return word in self.handlers or word in self.seatless

    def parse(self, state: S, text: str, nseats: int) -> Event:
        seat, rest = split_seat(text, nseats)
        words = self.split(rest)
        if not words:
            empty = self.empty
            raise ParseError(empty if isinstance(empty, str) else empty(state))
        verb = words[0].lower()
        if verb in self.seatless:
            if seat is not None:
                raise ParseError(f"{quoted(words[0])} is not typed after a seat: type "
                                 f"{quoted(rest)}")
            if verb in SHARED_VERBS:
                return parse_shared(verb, words[1:], nseats)
        typed = Typed(seat, words, rest)
        handler = self.handlers.get(verb)
        return (self.other if handler is None else handler)(state, typed)
