"""The notation of the events every game shares: payments, the end of a match, and undo.

    pay p1 pot 1 ante          chips move from a party to another (``pot`` or a seat)
    end rounds p1=52 p2=47 pot=1
    undo

Each game's ``notate`` and ``parse`` hand these to :func:`notate_shared` and
:func:`parse_shared`, so they read and print the same way in every game.
"""

from __future__ import annotations

from kabucli.errors import ParseError
from kabucli.events import End, Event, Pay, Undo
from kabucli.ledger import POT, party_name
from kabucli.safetext import safe_text

SHARED_VERBS = frozenset({"pay", "end", "undo"})
LOG_INT = 2**63 - 1  # the largest whole number a log holds (msgpack: 64-bit integers)
MAX_LINE = 1000  # characters in a typed move or a bot's answer (the longest notation has 120)


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


def party(word: str, nseats: int) -> int:
    """The party a word names: ``pot`` (0) or a seat ``p1``..``pN``."""
    low = word.lower()
    if low == "pot":
        return POT
    seat = whole(low[1:], 1, nseats) if low[:1] == "p" else None
    if seat is not None:
        return seat
    raise ParseError(f"'{word}' is neither 'pot' nor a seat p1-p{nseats}")


def notate_shared(ev: Event) -> str | None:
    """The notation of a shared event, or None for a game's own events."""
    if type(ev) is Pay:
        return f"pay {party_name(ev.src)} {party_name(ev.dst)} {ev.amount} {ev.why}".rstrip()
    if type(ev) is End:
        balances = " ".join(f"p{i}={b}" for i, b in enumerate(ev.balances, 1))
        return f"end {ev.reason} {balances} pot={ev.pot}"
    if type(ev) is Undo:
        return "undo"
    return None


def parse_shared(verb: str, args: list[str], nseats: int) -> Event:
    """A shared event from its verb (one of SHARED_VERBS) and the words after it."""
    if verb == "undo":
        if args:
            raise ParseError(f"'undo' takes nothing after it, got '{' '.join(args)}'")
        return Undo()
    if verb == "pay":
        if len(args) < 3 or not args[2].isdigit():
            raise ParseError("a payment reads 'pay FROM TO CHIPS [WHY]', e.g. 'pay p1 pot 1 ante'")
        return Pay(party(args[0], nseats), party(args[1], nseats),
                   number(args[2], 0, LOG_INT, "a payment"), " ".join(args[3:]))
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
        return End(args[0], values[:-1], values[-1])
    raise ParseError(f"'{verb}' is not an event every game shares")
