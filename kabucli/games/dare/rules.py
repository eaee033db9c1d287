"""Dare (誰, "who?"): lay down three-card sets that match the field's ones digit.

The rules as kabucli plays them are its rules page (rules.md). Each round every player is dealt 9
cards and 3 go face up to the field; the field's ones digit is the *reference*. In turn,
starting at the dealer's right (the next seat) and ending with the dealer, each player lays down
0-3 sets of three cards whose ones digit equals the reference. Three sets: the player is Dare
and takes the pot at once. Two sets: the player goes to the showdown with the three cards left.
Fewer: out of the round. The best showdown hand takes the pot; the winner deals next.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from typing import Any, Final

from kabucli.cards import KABUFUDA_39, UNKNOWN
from kabucli.engine import READY, Game, Pending, Pendings, Step
from kabucli.errors import ParseError
from kabucli.events import End, Event, Pay, Undo
from kabucli.games.dare.events import (  # re-exported: the game's module names them all
    DareRules as DareRules,
    Deal as Deal,
    Lay as Lay,
    Result as Result,
    Show as Show,
)
from kabucli.hands import NOBORI, PLAIN, fixed_rank
from kabucli.ledger import POT, Ledger
from kabucli.notation import (
    LOG_INT,
    Typed,
    Verbs,
    card_list,
    cards_in,
    in_seat_order,
    notate_shared,
    number,
    party,
    seat_list,
)
from kabucli.safetext import quoted
from kabucli.shuffle import Rng

# The event classes the hot paths tell events apart by, as static names: compiled,
# an imported name is looked up in the module's dict at every use, a Final one is
# read directly.
_DEAL: Final = Deal
_END: Final = End
_LAY: Final = Lay
_PAY: Final = Pay
_RESULT: Final = Result
_SHOW: Final = Show

HAND: Final = 9
FIELD: Final = 3


# -- showdown strength ---------------------------------------------------------------------

def strength(cards: list[int] | tuple[int, ...], yaku: str) -> tuple[int, int]:
    """Comparable strength of a showdown hand: (named-hand rank, ones digit); higher wins.

    Equal named hands tie whatever their digits (the digit is zeroed), except Nobori, whose
    ties are broken by the digit. A held hand has no laid order, so three consecutive values
    in any order count as Nobori and Kudari never occurs.
    """
    digit = sum(cards) % 10
    if yaku == "none":
        return (0, digit)
    a, b, c = sorted(cards)
    if yaku == "arashi":
        return (1, 0) if a == b == c else (0, digit)
    rank = fixed_rank(a, b, c)
    if rank != PLAIN:
        return (rank, 0)
    if b == a + 1 and c == b + 1:
        return (NOBORI, digit)
    return (0, digit)


# -- legal sets -----------------------------------------------------------------------------

Move = tuple[tuple[int, int, int], ...]


# A hand of values 1-10 packed into one integer: 4 bits per value counting its copies, each
# field with a guard bit (8) added, so "does the hand hold these cards" is one subtraction:
# a field that runs short borrows its own guard bit. Counts stay below 8 (at most 4 copies).
_SHIFT = 4
_GUARD = sum(8 << (_SHIFT * v) for v in range(1, 11))
_UNIT = {v: 1 << (_SHIFT * v) for v in range(1, 11)}
# Per reference: every set of three values (ascending, lexicographic order) with that ones
# digit, and its packed form.
_SETS = tuple(
    tuple((t, sum(_UNIT[c] for c in t))
          for t in combinations_with_replacement(range(1, 11), 3) if sum(t) % 10 == ref)
    for ref in range(10)
)


def legal_lays(hand: tuple[int, ...], ref: int) -> tuple[Move, ...]:
    """Every distinct way to lay 0-3 sets from a sorted hand, as sorted tuples of sorted sets.

    Sorted by (number of sets, sets): pass first, then single sets, pairs and triples.
    """
    if len(hand) > 15 or not (isinstance(ref, int) and 0 <= ref <= 9):
        return _legal_lays_any(hand, ref)
    packed = 0
    prev = 1
    unit = _UNIT
    for c in hand:
        if c < prev or c > 10:  # not sorted, or not a value 1-10: the general way
            return _legal_lays_any(hand, ref)
        prev = c
        packed += unit[c]
    g = _GUARD
    if packed & g:  # eight or more copies of a value
        return _legal_lays_any(hand, ref)
    packed += g
    # Sets held in the hand, in order; a move is a non-decreasing run of their indices, so
    # each is made once and they come out already sorted.
    fits = [(t, m) for t, m in _SETS[ref] if (packed - m) & g == g]
    pairs: list[Move] = []
    threes: list[Move] = []
    n = len(fits)
    for i in range(n):
        t1, m1 = fits[i]
        r1 = packed - m1
        for j in range(i, n):
            t2, m2 = fits[j]
            r2 = r1 - m2
            if r2 & g != g:
                continue
            pairs.append((t1, t2))
            for k in range(j, n):
                t3, m3 = fits[k]
                if (r2 - m3) & g == g:
                    threes.append((t1, t2, t3))
    return ((), *[(t,) for t, _ in fits], *pairs, *threes)


def _legal_lays_any(hand: tuple[int, ...], ref: int) -> tuple[Move, ...]:
    """legal_lays for any hand (unsorted, unknown cards): every choice of card positions."""
    triples = [t for t in combinations(range(len(hand)), 3)
               if (hand[t[0]] + hand[t[1]] + hand[t[2]]) % 10 == ref]
    moves: set[Move] = {()}

    def vals(t: tuple[int, int, int]) -> tuple[int, int, int]:
        return (hand[t[0]], hand[t[1]], hand[t[2]])

    for i, t1 in enumerate(triples):
        s1 = set(t1)
        moves.add((vals(t1),))
        for j in range(i + 1, len(triples)):
            t2 = triples[j]
            if s1.isdisjoint(t2):
                moves.add(tuple(sorted((vals(t1), vals(t2)))))
                s12 = s1.union(t2)
                for t3 in triples[j + 1:]:
                    if s12.isdisjoint(t3):
                        moves.add(tuple(sorted((vals(t1), vals(t2), vals(t3)))))
    return tuple(sorted(moves, key=lambda m: (len(m), m)))


def take(hand: list[int], cards: list[int]) -> tuple[list[int], list[int]] | None:
    """``hand`` without ``cards``, and the cards that came from face-down (unknown) places.

    A known card in the hand is used first; otherwise an unknown card stands for it and the
    card is *revealed* (the caller checks it still exists in the deck). None when neither is
    there. A fully known hand reveals nothing, so this is plain multiset removal.
    """
    left = list(hand)
    revealed: list[int] = []
    for c in cards:
        if c in left:
            left.remove(c)
        elif UNKNOWN in left:
            left.remove(UNKNOWN)
            revealed.append(c)
        else:
            return None
    return left, revealed


# -- state ----------------------------------------------------------------------------------

class DareState:
    """Everything about a Dare match at one moment. Seats are 1..n; lists are indexed by seat.

    ``hands`` hold card codes, sorted, with ``UNKNOWN`` for cards the log has not seen (a
    physical game); ``seen`` counts every card of this round's deal known to be out of the
    deck (the field, known hands, and cards revealed from unknown hands). It is counted from
    ``dealt`` (the known cards of the deal) when first asked: with every hand known nothing
    is ever revealed, and bot games never ask.
    """

    __slots__ = ("_seen", "dealer", "dealt", "field", "hands", "history", "laid", "ledger", "n",
                 "order", "pend", "phase", "physical", "qualified", "ref", "round", "rules",
                 "shown", "todo", "turn")

    def __init__(self, rules: DareRules, n: int, physical: bool) -> None:
        self.rules = rules
        self.n = n
        self.physical = physical
        self.round = 1
        self.dealer = 1
        self.ledger = Ledger(n, rules.chips)
        self.phase = "deal"
        self.history: list[Result] = []
        self.pend: Pending | None = None  # see Dare.pending
        self._reset_round()

    def _reset_round(self) -> None:
        n = self.n
        self.order = [(self.dealer + i - 1) % n + 1 for i in range(1, n + 1)]
        self.field: list[int] = []
        self.ref = 0
        self.hands: list[list[int]] = [[] for _ in range(n + 1)]
        self.laid: list[list[list[int]] | None] = [None] * (n + 1)
        self.shown: list[list[int] | None] = [None] * (n + 1)
        self.qualified: list[int] = []
        self.turn = 0
        self.todo: list[Step] = []  # the antes, then the payouts (see engine.READY)
        self.dealt: list[int] = []
        self._seen: Counter[int] | None = None

    @property
    def seen(self) -> Counter[int]:
        seen = self._seen
        if seen is None:
            seen = self._seen = Counter(self.dealt)
        return seen

    @property
    def actor(self) -> int:
        return self.order[self.turn]


# -- the game -------------------------------------------------------------------------------

class Dare(Game[DareState, DareRules]):
    name = "dare"
    title = "Dare"
    summary = "kabufuda, 2-4 players: lay three sets matching the field's ones digit"
    deck = KABUFUDA_39
    Rules = DareRules
    events = (Deal, Lay, Show, Pay, Result, End, Undo)
    public_chance = (Show,)  # the showdown: shown to the table
    min_players = 2
    max_players = 4
    default_players = 3

    def new_state(self, rules: DareRules, seats: int, physical: bool) -> DareState:
        return DareState(rules, seats, physical)

    # -- what the state waits for ----------------------------------------------------------
    def pending(self, s: DareState) -> Pending:
        p = s.pend  # None once an event changed the state
        if p is not None:
            return p
        # the key: what _describe reads
        phase = s.phase
        if phase == "turns":
            key: tuple[Any, ...] = (phase, s.order[s.turn], s.ref)
        elif phase == "deal":
            key = (phase, s.round, s.dealer)
        elif phase == "show":
            key = (phase, self._next_show(s))
        else:
            key = (phase,)  # an automatic phase, or the end: one answer each
        p = _PENDINGS.get(key)  # a dict's get: the fastest lookup, compiled or not
        if p is None:
            p = _PENDINGS[key]  # made now
        s.pend = p
        return p

    @staticmethod
    def _next_show(s: DareState) -> int:
        shown = s.shown
        for q in s.qualified:  # a loop, not next(generator): asked for every Show
            if shown[q] is None:
                return q
        raise StopIteration  # nobody left to show (never in phase "show")

    def not_now(self, s: DareState, ev: Event) -> str | None:
        """A show typed while a seat is to lay: that there is no showdown now, as when the
        deal is awaited (not the show quoted with the seat the parser guessed, 'p2 shows
        2-3-5', which nobody typed, while p3 lays)."""
        return self._check_show(s, ev) if type(ev) is _SHOW else None

    # -- checks ------------------------------------------------------------------------------
    def check(self, s: DareState, ev: Event) -> str | None:
        if type(ev) is _LAY:
            return self._check_lay(s, ev)
        if type(ev) is _DEAL:
            return self._check_deal(s, ev)
        if type(ev) is _SHOW:
            return self._check_show(s, ev)
        return f"{type(ev).__name__} is not a Dare event"

    def _check_deal(self, s: DareState, ev: Deal) -> str | None:
        if s.phase != "deal":
            return f"round {s.round} is already dealt (waiting for {self.pending(s).what})"
        if ev.round != s.round or ev.dealer != s.dealer:
            return (f"this is the deal of round {s.round} by p{s.dealer}, "
                    f"not of round {ev.round} by p{ev.dealer}")
        if len(ev.field) != FIELD:
            # (a seeded deal is the seed's, checked before: this is a real table's)
            return (f"the field has {FIELD} cards, not {len(ev.field)}: type the {FIELD} turned "
                    "up (e.g. 'deal 1-7-5')")
        if UNKNOWN in ev.field:
            return "the field cards are face up: each must be named"
        cards = list(ev.field)
        if ev.hands is not None:
            if len(ev.hands) != s.n or any(len(h) != HAND for h in ev.hands):
                return f"each of the {s.n} players is dealt {HAND} cards"
            cards += [c for h in ev.hands for c in h]
        return self.deck.check_available(Counter(), cards)

    def _check_lay(self, s: DareState, ev: Lay) -> str | None:
        # an action: the engine checked that it is ev.seat's turn to lay (phase "turns")
        if len(ev.sets) > 3:
            from kabucli.games.dare import text  # (its words import this module)

            return text.too_many_sets(s, len(ev.sets))
        for st in ev.sets:
            if len(st) != 3:
                return f"a set is three cards, not {len(st)} ({self._set(st)})"
            if UNKNOWN in st:
                return "laid cards are face up: each must be named"
            if sum(st) % 10 != s.ref:
                from kabucli.games.dare import text  # (its words import this module)

                return text.wrong_sum(s, st)
        got = take(s.hands[ev.seat], [c for st in ev.sets for c in st])
        if got is None:
            return (f"p{ev.seat}'s hand {self._set(s.hands[ev.seat])} does not hold "
                    f"{self._sets(ev.sets)}")
        why = self.deck.check_available(s.seen, got[1]) if got[1] else None
        if why is None or not s.physical:
            return why
        from kabucli.games.dare import text  # (its words import this module)

        return (f"{why}: type sets of cards the deck still holds "
                f"(e.g. '{text.example_sets(s, 1)}'), or 'pass'")

    def _check_show(self, s: DareState, ev: Show) -> str | None:
        if s.phase != "show":
            return f"there is no showdown now (waiting for {self.pending(s).what})"
        want = self._next_show(s)
        if ev.seat != want:
            from kabucli.games.dare import text  # (its words import this module)

            return f"p{want} shows next, not p{ev.seat}: {text.hint(s, want)}"
        if len(ev.cards) != 3 or UNKNOWN in ev.cards:
            return "a showdown hand is three named cards"
        got = take(s.hands[ev.seat], list(ev.cards))
        if got is None:
            why: str | None = (f"p{ev.seat} has {self._set(s.hands[ev.seat])} left, "
                               f"not {self._set(ev.cards)}")
        else:
            why = self.deck.check_available(s.seen, got[1]) if got[1] else None
        if why is None or not s.physical:
            return why
        from kabucli.games.dare import text  # (its words import this module)

        return (f"{why}: type the three cards p{ev.seat} shows "
                f"(e.g. '{text.example_show(s, ev.seat)}')")

    # -- changes -----------------------------------------------------------------------------
    def apply(self, s: DareState, ev: Event) -> None:
        s.pend = None
        # one module function per event, the commonest first (a payment written out: it is
        # four in ten of Dare's events, and the call costs the pure-Python build 2%)
        if type(ev) is _PAY:
            s.ledger.apply(ev)
            todo = s.todo
            todo.pop(0)
            if not todo:
                if s.phase == "ante":
                    s.phase = "turns"
                else:
                    _next_round(s)
        elif type(ev) is _LAY:
            _apply_lay(s, ev)
        elif type(ev) is _DEAL:
            _apply_deal(s, ev)
        elif type(ev) is _SHOW:
            _apply_show(s, ev)
        elif type(ev) is _RESULT:
            _apply_result(s, ev)
        elif type(ev) is _END:
            s.phase = "over"
        else:
            raise TypeError(f"{type(ev).__name__} is not a Dare event")

    # -- what the engine derives -------------------------------------------------------------
    def auto(self, s: DareState) -> Event:
        if s.todo:  # the antes, or the payouts
            ev: Event = s.todo[0][1]
            return ev
        if s.phase == "result":
            return self._result(s)
        if s.phase == "end":
            return End("rounds", s.ledger.balances[1:], s.ledger.pot)
        raise AssertionError(f"no automatic event in phase {s.phase}")

    def _result(self, s: DareState) -> Result:
        dare = [p for p in s.order if len(s.laid[p] or ()) == 3]
        if dare:
            return Result(s.round, "dare", [dare[0]], dare[0])
        if not s.qualified:
            return Result(s.round, "nobody", [], s.dealer)
        yaku = s.rules.yaku
        keys = {q: strength(s.shown[q] or [], yaku) for q in s.qualified}
        best = max(keys.values())
        tied = [q for q in s.qualified if keys[q] == best]  # in turn order
        if len(tied) == 1:
            return Result(s.round, "showdown", tied, tied[0])
        tie = s.rules.tie
        if tie == "carry":
            return Result(s.round, "tie", [], s.dealer)
        if tie == "split":
            return Result(s.round, "split", tied, tied[0])
        return Result(s.round, "order", [tied[0]], tied[0])

    def chance(self, s: DareState, rng: Rng) -> Event:
        if s.phase == "deal":
            deck = rng.shuffled(_CARDS)
            hands = [sorted(deck[i * HAND:(i + 1) * HAND]) for i in range(s.n)]
            field = deck[s.n * HAND:s.n * HAND + FIELD]
            return Deal(s.round, s.dealer, field, hands)
        seat = self._next_show(s)
        return Show(seat, sorted(s.hands[seat]))

    def legal(self, s: DareState, seat: int) -> list[Event]:
        if s.phase != "turns" or seat != s.actor or UNKNOWN in s.hands[seat]:
            return []
        moves = legal_lays(tuple(s.hands[seat]), s.ref)
        return [Lay(seat, [list(st) for st in m]) for m in moves]

    def move_words(self, s: DareState) -> list[str]:
        if s.phase == "turns":  # (sets, or a pass; 'sets' may be typed 'lay')
            return [f"p{s.actor} sets", f"p{s.actor} lay", f"p{s.actor} pass"]
        if s.phase == "show":
            return [f"p{self._next_show(s)} shows"]
        return ["deal"] if s.phase == "deal" else []

    # -- notation ------------------------------------------------------------------------------
    def _set(self, cards: list[int] | tuple[int, ...]) -> str:
        return card_list(self.deck, cards)

    def _sets(self, sets: list[list[int]]) -> str:
        return " ".join(self._set(st) for st in sets)

    def notate(self, ev: Event) -> str:
        if type(ev) is _LAY:
            return f"p{ev.seat} sets {self._sets(ev.sets)}" if ev.sets else f"p{ev.seat} pass"
        if type(ev) is _SHOW:
            return f"p{ev.seat} shows {self._set(ev.cards)}"
        if type(ev) is _DEAL:
            text = f"deal {self._set(ev.field)}"
            if ev.hands is not None:
                text += "".join(f" | p{i} {self._set(h)}" for i, h in enumerate(ev.hands, 1))
            return text
        if type(ev) is _RESULT:
            return (f"result round {ev.round} {ev.reason} {seat_list(ev.winners, ',')} "
                    f"deals p{ev.dealer}")
        return notate_shared(ev) or repr(ev)

    def _cards(self, text: str) -> list[int]:
        return cards_in(self.deck, text)

    def _parse_sets(self, words: list[str]) -> list[list[int]]:
        sets = []
        for w in words:
            cards = self._cards(w)
            if len(cards) != 3:
                raise ParseError(f"{quoted(w)} is not a set of three cards joined by '-' "
                                 "(e.g. 1-3-9)")
            sets.append(sorted(cards))
        return sorted(sets)

    def parse(self, s: DareState, text: str) -> Event:
        return self.verbs.parse(s, text, s.n)

    def __init__(self) -> None:
        show, lay, pass_ = self._parse_show, self._parse_lay, self._parse_pass
        self.verbs = Verbs[DareState](
            {"deal": self._parse_deal, "field": self._parse_deal, "result": self._parse_result,
             "show": show, "shows": show, "pass": pass_, "none": pass_, "-": pass_,
             "sets": lay, "set": lay, "lay": lay, "lays": lay},
            self._parse_bare_sets, self._empty, seatless=("deal", "field", "result"))

    @staticmethod
    def _empty(s: DareState) -> str:
        """A line with no move: what is typed now (the deal, the sets, a showdown hand)."""
        from kabucli.games.dare import text  # (the words' module imports this one)

        return f"empty move: {text.hint(s, 0) or text.EMPTY}"

    @staticmethod
    def _layer(s: DareState, seat: int | None) -> int:
        """Who lays: the seat typed, else the one whose turn it is."""
        return seat or (s.actor if s.phase == "turns" else s.order[0])

    def _parse_show(self, s: DareState, m: Typed) -> Event:
        who = m.seat or (self._next_show(s) if s.phase == "show" else s.order[0])
        cards = self._cards(" ".join(m.args)) if m.args else []
        # (the rule says 'three named cards'; typed, what was wrong and what to type)
        from kabucli.games.dare import text  # (its words import this module)

        what = f"type the three cards p{who} shows, e.g. '{text.example_show(s, who)}'"
        if len(cards) != 3:
            raise ParseError(f"a showdown hand is three cards, not {len(cards)}: {what}")
        if UNKNOWN in cards:
            raise ParseError(f"a showdown hand is shown face up: {what}")
        return Show(who, sorted(cards))

    def _parse_pass(self, s: DareState, m: Typed) -> Event:
        m.none_after("pass")
        return Lay(self._layer(s, m.seat), [])

    def _parse_lay(self, s: DareState, m: Typed) -> Event:
        if not m.args:
            raise ParseError(f"{quoted(m.words[0])} needs sets after it, like '1-3-9 3-5-5' "
                             "(type 'pass' to lay none)")
        return Lay(self._layer(s, m.seat), self._parse_sets(m.args))

    def _parse_bare_sets(self, s: DareState, m: Typed) -> Event:
        if not any(ch.isdigit() for ch in m.verb):
            # (show and deal are the referee's, at a real table: not offered where cards are
            # dealt from a seed)
            also = ", 'pass', 'show 2-3-4' or 'deal 1-7-5'" if s.physical else " or 'pass'"
            raise ParseError(f"{quoted(m.words[0])} is not a Dare move: use sets like "
                             f"'1-3-9'{also}")
        return Lay(self._layer(s, m.seat), self._parse_sets(m.words))

    def _parse_deal(self, s: DareState, m: Typed) -> Event:
        parts = " ".join(m.args).split("|")
        field = self._cards(parts[0])
        hands: list[list[int]] | None = None
        if len(parts) > 1:
            hands = []
            for i, part in enumerate(parts[1:], start=1):
                cards = in_seat_order(part, i, s.n, "hand", "the deal")[1]
                hands.append(sorted(self._cards(cards)) if cards.strip() else [])
            # (the rule says 'each of the 3 players is dealt 9 cards'; typed, which hand
            # is missing or short, and what to type)
            what = (f"list each player's hand in seat order, p1 to p{s.n}, {HAND} cards each "
                    "('??' for a card nobody saw), or none")
            listed = sum(1 for hand in parts[1:] if hand.strip())
            if len(hands) != s.n or listed != s.n:
                raise ParseError(f"the deal lists {listed} hand"
                                 f"{'' if listed == 1 else 's'}, not {s.n}: {what}")
            for i, hand in enumerate(hands, start=1):
                if len(hand) != HAND:
                    raise ParseError(f"p{i}'s hand in the deal has {len(hand)} card"
                                     f"{'' if len(hand) == 1 else 's'}, not {HAND}: {what}")
        return Deal(s.round, s.dealer, field, hands)

    def _parse_result(self, s: DareState, m: Typed) -> Event:
        args, low = m.args, m.low
        shape = "a result reads 'result round N REASON WINNERS deals pN', e.g. " \
                "'result round 3 showdown p2 deals p2'"
        if len(args) != 6 or low[0] != "round" or low[4] != "deals" or not args[1].isdigit():
            raise ParseError(shape)
        reasons = ("dare", "showdown", "tie", "split", "order", "nobody")
        if low[2] not in reasons:
            raise ParseError(f"{quoted(args[2])} is not a way a round ends ({', '.join(reasons)})")
        winners = [] if args[3] == "-" else [party(w, s.n) for w in args[3].split(",")]
        if POT in winners or party(args[5], s.n) == POT:
            raise ParseError(shape)
        reason: Any = low[2]
        return Result(number(args[1], 0, LOG_INT, "a round"), reason, winners,
                      party(args[5], s.n))

    # -- views ---------------------------------------------------------------------------------
    def view(self, s: DareState, seat: int | None = None) -> dict[str, Any]:
        tok = self.deck.token

        def hand(p: int) -> list[str] | int:
            if seat is None or seat == p or s.shown[p] is not None:
                return [tok(c) for c in s.hands[p]]
            return len(s.hands[p])

        return {
            "game": self.name,
            "round": s.round,
            "rounds": s.rules.rounds,
            "dealer": s.dealer,
            "phase": s.phase,
            "field": [tok(c) for c in s.field],
            "reference": s.ref if s.field else None,
            "turn": s.actor if s.phase == "turns" else None,
            "pot": s.ledger.pot,
            "chips": s.ledger.by_seat(),
            "hands": {f"p{p}": hand(p) for p in range(1, s.n + 1)},
            "laid": {f"p{p}": [[tok(c) for c in st] for st in (s.laid[p] or [])]
                     for p in range(1, s.n + 1) if s.laid[p] is not None},
            "shown": {f"p{p}": [tok(c) for c in s.shown[p] or []]
                      for p in range(1, s.n + 1) if s.shown[p] is not None},
        }

    def outcome(self, s: DareState) -> dict[str, Any] | None:
        if s.phase != "over":
            return None
        return {
            **s.ledger.standings(),
            "rounds": [{"round": r.round, "reason": r.reason,
                        "winners": [f"p{w}" for w in r.winners]} for r in s.history],
        }


# -- changes, one function per event type ------------------------------------------------

def _apply_lay(s: DareState, ev: Lay) -> None:
    s.laid[ev.seat] = [list(st) for st in ev.sets]
    got = take(s.hands[ev.seat], [c for st in ev.sets for c in st])
    assert got is not None
    s.hands[ev.seat] = got[0]
    if got[1]:
        s.seen.update(got[1])
    if len(ev.sets) == 3:
        s.phase = "result"
        return
    s.turn += 1
    if s.turn == s.n:
        s.qualified = [p for p in s.order if len(s.laid[p] or ()) == 2]
        s.phase = "show" if s.qualified else "result"


def _apply_deal(s: DareState, ev: Deal) -> None:
    s.field = list(ev.field)
    s.ref = sum(ev.field) % 10
    seen = list(ev.field)  # then each hand's known cards, in order (counted lazily)
    for seat in range(1, s.n + 1):
        hand = sorted(ev.hands[seat - 1]) if ev.hands is not None else [UNKNOWN] * HAND
        s.hands[seat] = hand
        seen += [c for c in hand if c != UNKNOWN] if UNKNOWN in hand else hand
    s.dealt = seen
    s._seen = None
    ante = s.rules.ante
    s.todo = [(READY, Pay(p, POT, ante, "ante")) for p in s.order] if ante > 0 else []
    s.phase = "ante" if s.todo else "turns"


def _apply_show(s: DareState, ev: Show) -> None:
    if UNKNOWN in s.hands[ev.seat]:  # a known hand reveals nothing
        got = take(s.hands[ev.seat], list(ev.cards))
        assert got is not None
        s.seen.update(got[1])
    s.hands[ev.seat] = sorted(ev.cards)
    s.shown[ev.seat] = sorted(ev.cards)
    if all(s.shown[q] is not None for q in s.qualified):
        s.phase = "result"


def _apply_result(s: DareState, ev: Result) -> None:
    s.history.append(ev)
    s.todo = _payouts(s, ev)
    s.dealer = ev.dealer
    if s.todo:
        s.phase = "payout"
    else:
        _next_round(s)


def _next_round(s: DareState) -> None:
    if s.round == s.rules.rounds:
        s.phase = "end"
        return
    s.round += 1
    s._reset_round()
    s.phase = "deal"


def _payouts(s: DareState, ev: Result) -> list[Step]:
    """The pot to the winners: floor(pot / winners) each; odd chips and 0-chip payments
    stay unrecorded in the pot. As steps of the todo queue."""
    if not ev.winners:
        return []
    share = s.ledger.pot // len(ev.winners)
    if share == 0:
        return []
    why = "split" if len(ev.winners) > 1 else "win"
    return [(READY, Pay(POT, w, share, why)) for w in ev.winners]


_AUTO_WHAT = {
    "ante": "the antes",
    "result": "the result of the round",
    "payout": "the payout of the pot",
    "end": "the end of the match",
}


def _describe(key: tuple[Any, ...]) -> Pending:
    """What a Dare state waits for, from its key (see :meth:`Dare.pending`)."""
    phase = key[0]
    if phase == "turns":
        return Pending("action", f"p{key[1]} to lay sets matching {key[2]}", (key[1],))
    if phase == "deal":
        return Pending("chance", f"the deal of round {key[1]} by p{key[2]}")
    if phase == "show":
        return Pending("chance", f"p{key[1]} to show the three cards left")
    if phase == "over":
        return Pending("over", "nothing: the match is over")
    return Pending("auto", _AUTO_WHAT[phase])


_PENDINGS: Final = Pendings(_describe)
_CARDS = tuple(KABUFUDA_39.cards())  # the deck in its canonical order, as every deal starts

GAME = Dare()
