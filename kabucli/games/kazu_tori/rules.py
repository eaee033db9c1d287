"""Kazu-Tori (数取り, "number taking"): count aloud while flipping, and slap the card that
matches the number said.

The rules as kabucli plays them, with the choices made where tradition is silent, are its
rules page (rules.md). The 40-card Daini deck is dealt into face-down piles. In turn, starting
with the dealer (p1), each player turns the top card of their pile onto the table and says the
next number, "one" up to the `limit`. When the card's ones digit matches the number said (or the
card is the Oni), the first player to claim it takes the whole table into their pile and counts
"one" again. A wrong claim costs one card to each other player. The Jizo hands the table out; a
count that reaches the limit gives the cards back. A player whose pile runs out is out, and from
then on (Last Call) the next take ends the game. The most cards wins.

Seeded games derive each flipped card from the top of the pile (piles are recorded by the Deal
and Shuffle chance events); at a real table (`physical`) piles are known only by size and each
flip carries the card the referee saw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from kabucli.cards import DAINI_40, JIZO, ONI, UNKNOWN
from kabucli.engine import READY, Game, Pending, Pendings, Step, ready
from kabucli.errors import ParseError
from kabucli.events import End, Event, Pay, Undo
from kabucli.games.kazu_tori.events import (  # re-exported: the game's module names them all
    Claim as Claim,
    Deal as Deal,
    Flip as Flip,
    Handout as Handout,
    KazuToriRules as KazuToriRules,
    Pass as Pass,
    Penalty as Penalty,
    Race as Race,
    Return as Return,
    Score as Score,
    Shuffle as Shuffle,
    Stop as Stop,
)
from kabucli.ledger import Ledger
from kabucli.notation import (
    Typed,
    Verbs,
    card_list,
    cards_in,
    in_seat_order,
    no_player,
    notate_shared,
    parse_seat,
    parse_seats,
    seat_list,
    seat_of,
    whole,
)
from kabucli.safetext import quoted
from kabucli.shuffle import Rng

# The event classes the hot paths tell events apart by, as static names: compiled,
# an imported name is looked up in the module's dict at every use, a Final one is
# read directly.
_CLAIM: Final = Claim
_DEAL: Final = Deal
_END: Final = End
_FLIP: Final = Flip
_HANDOUT: Final = Handout
_PASS: Final = Pass
_PAY: Final = Pay
_PENALTY: Final = Penalty
_RACE: Final = Race
_RETURN: Final = Return
_SCORE: Final = Score
_SHUFFLE: Final = Shuffle
_STOP: Final = Stop

DECK_SIZE: Final = 40
JIZO_USES: Final = 3  # the Jizo leaves the game after its third hand-out
RACE_DRAWS: Final = 1000  # a race draw is a per-mille quantile of each bot's reaction time

WORDS: Final = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                "seventeen", "eighteen", "nineteen", "twenty")


# -- pure helpers -------------------------------------------------------------------------------

def matches(card: int, said: int) -> bool:
    """Whether ``card`` may be taken when ``said`` was the number: the Oni always, the Jizo
    never, any other card when its ones digit is the number's (10 matches ten and twenty)."""
    if card == ONI:
        return True
    if card == JIZO:
        return False
    return card % 10 == said % 10


def pile_sizes(n: int) -> list[int]:
    """Pile sizes for ``n`` seats: the 40 cards dealt one at a time from the dealer (p1), so with
    3 players p1 holds 14."""
    return [DECK_SIZE // n + (1 if i < DECK_SIZE % n else 0) for i in range(n)]


# the steps of the todo queue (see engine.READY): effects waiting to be recorded (or done)
# after an event
T_SHUFFLE: Final = 1
T_PENALTY: Final = 2
T_HANDOUT: Final = 3
T_RETURN: Final = 4
T_FLIP: Final = 5
T_SCORE: Final = 6
T_END: Final = 7

_AUTO_WHAT = {
    T_PENALTY: "the wrong claim's penalty",
    T_HANDOUT: "the Jizo's hand-out",
    T_RETURN: "the return of the table cards",
    T_SCORE: "the score",
    READY: "the payments",
    T_END: "the end of the game",
}
_CARDS = tuple(DAINI_40.cards())  # the deck in its canonical order, as the deal starts
_NOBODY: frozenset[int] = frozenset()
Races = Callable[[Game, Any, dict[int, Any], Pending | None], tuple[Event, bool] | None]
_RACES: Races | None = None  # the bots' race scheduler, once KazuTori.bot_move imported it


def _import_races() -> Races:
    """The bots' race scheduler (:func:`kabucli.games.kazu_tori.bots.bot_move`), imported on
    first use: the bots module imports this one."""
    global _RACES
    from kabucli.games.kazu_tori.bots import bot_move

    _RACES = bot_move
    return bot_move


# -- state ----------------------------------------------------------------------------------

class KazuToriState:
    """Everything about a Kazu-Tori game at one moment. Seats are 1..n; lists are indexed by
    seat. Piles list the top card first; at a real table their cards are ``UNKNOWN``."""

    __slots__ = ("after", "claimed", "count", "flip_events", "flipper", "flips", "ins",
                 "jizo_uses", "last", "lastcall", "ledger", "may_hold", "n", "ok", "passed",
                 "pend", "phase", "physical", "piles", "race", "removed", "result", "rules",
                 "said", "table", "table_by", "todo", "turned")

    def __init__(self, rules: KazuToriRules, n: int, physical: bool) -> None:
        self.rules = rules
        self.n = n
        self.physical = physical
        self.ledger = Ledger(n, rules.chips)
        self.piles: list[list[int]] = [[] for _ in range(n + 1)]
        self.table: list[int] = []  # face up, oldest first
        self.table_by: list[int] = []  # who flipped each table card
        self.removed: list[int] = []  # the Jizo, once used up
        self.phase = "deal"  # deal | turn (flip, no card to claim) | window | end
        self.todo: list[Step] = []
        self.flipper = 1  # who flips next in phase "turn"
        self.count = 1  # the number the next flip says
        self.said = 0  # the number said with the card on top of the table
        self.ok = False  # whether that card may be taken (in its window)
        self.last = 0  # who flipped the card on top of the table
        self.lastcall = False
        self.jizo_uses = 0
        # At a real table: the seats whose pile may hold the Oni, and the Jizo, while it is
        # face down (each exists once and moves face up). Seeded games leave it empty: their
        # piles are known.
        self.may_hold: dict[int, frozenset[int]] = {}
        self.flips = 0  # cards turned
        self.flip_events = 0  # Flip events applied (the last may still wait, or not turn)
        # (seat, card, number said, cards left in the pile) of each card turned
        self.turned: list[tuple[int, int, int, int]] = []
        self.claimed = _NOBODY  # seats that claimed the card on top (this window)
        self.passed = _NOBODY  # seats that let it go
        self.race: list[int] | None = None  # the last race's draws in this window
        self.result: Score | None = None
        self.pend: Pending | None = None  # see KazuTori.pending
        self.ins: tuple[int, ...] = ()  # the seats still in (with cards); nobody comes back
        self.after = [0] * (n + 1)  # after[p]: the first seat still in after p
        self.seats_changed()

    def seats_changed(self) -> None:
        """Recompute ``ins`` and ``after`` once a pile was dealt or ran out."""
        n = self.n
        piles = self.piles
        ins = self.ins = tuple(p for p in range(1, n + 1) if piles[p])
        # Going round from ``seat``: the first seat still in above it, else the lowest one.
        after = self.after
        j = 0
        for seat in range(n + 1):
            while j < len(ins) and ins[j] <= seat:
                j += 1
            after[seat] = ins[j] if j < len(ins) else (ins[0] if ins else 0)

    def next_in(self, seat: int) -> int:
        """The first seat after ``seat`` (going round, ``seat`` itself last) that is still in;
        0 when nobody is."""
        return self.after[seat]

    def next_flipper(self) -> int:
        """Who flips next (0 if nobody can)."""
        if self.phase == "turn":
            return self.flipper
        return self.after[self.last]

    def takeable(self) -> bool:
        """Whether the card just flipped may be taken now."""
        return self.phase == "window" and self.ok

    def flips_spent(self) -> bool:
        """Whether a real table has turned the flips ``max_flips`` allows: every flip is then
        refused and the players stop (a seeded game ends at the flip past it instead)."""
        return self.physical and self.flips >= self.rules.max_flips

    def accounted(self) -> int:
        """Cards in piles, on the table and out of the game: always the 40 of the deck."""
        return sum(len(p) for p in self.piles) + len(self.table) + len(self.removed)


# -- the game -------------------------------------------------------------------------------

class KazuTori(Game[KazuToriState, KazuToriRules]):
    name = "kazu-tori"
    title = "Kazu-Tori"
    summary = "Daini deck, 2-5 players: count while flipping, slap the card that matches"
    deck = DAINI_40
    Rules = KazuToriRules
    events = (Deal, Shuffle, Flip, Claim, Pass, Stop, Race, Penalty, Handout, Return, Score,
              Pay, End, Undo)
    public_chance = (Race,)  # reaction draws: no card, and who wins the race is seen
    min_players = 2
    max_players = 5
    default_players = 4

    def new_state(self, rules: KazuToriRules, seats: int, physical: bool) -> KazuToriState:
        s = KazuToriState(rules, seats, physical)
        _settle(s)
        return s

    # -- what the state waits for ----------------------------------------------------------
    def pending(self, s: KazuToriState) -> Pending:
        p = s.pend  # None once an event changed the state
        if p is not None:
            return p
        # the key: what _describe reads
        todo = s.todo
        phase = s.phase
        if todo:
            code, arg = todo[0]
            key: tuple[Any, ...] = ("todo", code, arg if code == T_SHUFFLE else None)
        elif phase == "window":
            key = (phase, s.table[-1], s.said, s.rules.limit, s.ins, s.last, s.physical)
            if s.flips_spent():  # (a real table: no flip now)
                key = ("window-limit", s.table[-1], s.said, s.ins, s.rules.max_flips)
        elif phase == "turn":
            key = (phase, s.flipper, s.count)
            if s.flips_spent():
                key = ("turn-limit", s.flipper, s.rules.max_flips)
        else:
            key = (phase, s.n)
        p = _PENDINGS.get(key)  # a dict's get: the fastest lookup, compiled or not
        if p is None:
            p = _PENDINGS[key]  # made now
        s.pend = p
        return p

    def blank_move(self, s: KazuToriState) -> str | None:
        """A blank line lets the card on the table go (the bots may still race for it), or
        flips when there is nothing to claim or every seat still in already claimed it or let
        it go (a seat that did both counts once). At a real table it is no move: a flip names
        its card, and nobody need let a card go."""
        if s.physical:
            return None
        if s.phase == "window" and len(s.passed | s.claimed) < len(s.ins):
            return "pass"
        return "flip"

    def confirm(self, s: KazuToriState, ev: Event) -> str | None:
        if type(ev) is _STOP:
            return "End the game now and score the piles as they stand?"
        return None

    def out_of_turn(self, s: KazuToriState, ev: Event) -> str | None:
        """A move by a player who is out, or a claim or a pass while no card may be claimed:
        why, rather than whose turn it is (claims are no one's turn)."""
        seat: int = ev.seat  # type: ignore[attr-defined]
        if s.phase != "deal" and not s.piles[seat]:
            return f"p{seat} is out (their pile is empty) and no longer plays"
        if s.phase == "turn" and (type(ev) is _CLAIM or type(ev) is _PASS):
            from kabucli.games.kazu_tori import text  # (its words import this module)

            return text.no_card_to_claim(s)
        return None

    def not_now(self, s: KazuToriState, ev: Event) -> str | None:
        """A deal typed after the deal: that the cards were dealt, and what the table waits
        for (not the deal quoted as its notation, 'deal p1 1-1-2', which nobody typed)."""
        if type(ev) is _DEAL and s.phase != "deal":
            return f"the cards were dealt already (waiting for {self.pending(s).what})"
        return None

    # -- checks ------------------------------------------------------------------------------
    def check(self, s: KazuToriState, ev: Event) -> str | None:
        if type(ev) is _FLIP:
            return self._check_flip(s, ev)
        if type(ev) is _CLAIM or type(ev) is _PASS or type(ev) is _STOP:
            # the engine checked that ev.seat is one the state waits for: still in, in
            # phase "turn" (the flipper) or "window" (every seat still in), nothing queued
            seat = ev.seat
            if type(ev) is _STOP:
                return None
            if s.phase == "window" and (seat not in s.claimed if type(ev) is _CLAIM
                                        else seat not in s.passed):
                return None
            from kabucli.games.kazu_tori import text  # (its words import this module)

            if s.phase != "window":
                return text.no_card_to_claim(s)
            if type(ev) is _CLAIM:
                return text.claimed_already(s, seat)
            return text.let_go_already(s, seat)
        if type(ev) is _DEAL:
            return self._check_deal(s, ev)
        if type(ev) is _RACE:
            return "races are drawn only in seeded games (at a real table type who claimed first)"
        if type(ev) is _SHUFFLE:
            return "piles are face down at a real table: a shuffle is not recorded"
        return f"{type(ev).__name__} is not a Kazu-Tori event typed by a person"

    def _check_flip(self, s: KazuToriState, ev: Flip) -> str | None:
        # an action: the engine checked the phase ("turn" or "window", nothing queued)
        if s.flips_spent():  # (whoever flips, whatever card)
            # a claim is offered only on a card that may be taken (else it is a wrong claim)
            claim = (" (or claim the card on the table)"
                     if s.phase == "window" and s.takeable() else "")
            return f"the game has reached max_flips={s.rules.max_flips}: end it with 'stop'{claim}"
        want = s.next_flipper()
        if ev.seat != want:
            turn = f"p{want} flips next, not p{ev.seat}"
            # at a real table, what the referee types (a seeded game's is drawn: bots and a
            # log's replay meet this too)
            return f"{turn}: type 'p{want} flip CARD' with the card seen" if s.physical else turn
        if not s.physical:
            if ev.card is not None:
                return ("in a seeded game the flipped card comes from the top of the pile: "
                        "type 'flip' alone")
            return None
        if ev.card is None:
            return f"type the card p{ev.seat} turned, e.g. 'p{ev.seat} flip 7'"
        if ev.card == UNKNOWN:
            return "a flipped card is face up: name it"
        # what is in sight once the window this flip closes has handed out or returned its cards
        handout, returned = _closing(s)
        if ev.card == JIZO and s.jizo_uses + handout >= JIZO_USES:
            return "the Jizo left the game after its third use"
        shown = s.removed if handout or returned else s.table + s.removed
        why = self.deck.check_available(Counter(shown), [ev.card])
        if why is None and s.may_hold:
            why = self._check_whereabouts(s, ev.seat, ev.card, handout, returned)
        return why

    def _check_whereabouts(self, s: KazuToriState, seat: int, card: int, handout: bool,
                           returned: bool) -> str | None:
        """Whether ``seat`` may turn ``card`` given where the Oni and the Jizo went face up, as
        it stands once the closing window's hand-out or return happened (a real table): a
        special card comes only from a pile that may hold it, and no other card may leave a
        special card no pile to be in (the last card of the only pile that may hold the Oni
        is the Oni)."""
        may = dict(s.may_hold)
        size = [len(p) for p in s.piles]
        gone = list(s.removed)
        if handout:
            h = self._handout(s)
            gifts = _handout_gifts(s, h)
            _received(may, gifts)
            if not h.jizo:
                gone.append(JIZO)
        elif returned:
            gifts = list(zip(s.table_by, s.table, strict=True))
            _returned(may, s.table, s.table_by)
        else:
            gifts = []
            gone += s.table
        for to, _ in gifts:
            size[to] += 1
        tok = self.deck.token
        if card in may:
            if seat not in may[card]:
                return f"the {tok(card)} went into {_piles_of(may[card])}"
            return None
        size[seat] -= 1  # then each special card still face down needs a pile with cards
        hidden = [(c, frozenset(p for p in held if size[p])) for c, held in may.items()
                  if c not in gone]
        for c, held in hidden:
            if not held:
                return f"the {tok(c)} went into p{seat}'s pile: it is p{seat}'s last card"
        if len(hidden) == 2:
            both = hidden[0][1] | hidden[1][1]
            if len(both) == 1 and size[min(both)] < 2:
                if both == {seat}:
                    return (f"the Oni and the Jizo both went into p{seat}'s pile: they are "
                            f"p{seat}'s last two cards")
                return (f"after this flip the Oni and the Jizo could only be in "
                        f"p{min(both)}'s pile, which holds 1 card")
        return None

    def _check_deal(self, s: KazuToriState, ev: Deal) -> str | None:
        if s.phase != "deal":
            return "the cards were dealt already"
        if ev.piles is not None:
            return "at a real table the piles are face down: type 'deal' alone"
        want = pile_sizes(s.n)
        if ev.sizes != want:
            return (f"the piles are {'/'.join(map(str, want))} cards, not "
                    f"{'/'.join(map(str, ev.sizes))}")
        return None

    # -- changes -----------------------------------------------------------------------------
    def apply(self, s: KazuToriState, ev: Event) -> None:
        # one module function per event, the commonest first
        if type(ev) is _FLIP:
            _apply_flip(s, ev)
        elif type(ev) is _SHUFFLE:
            _apply_shuffle(s, ev)
        elif type(ev) is _CLAIM:
            _apply_claim(s, ev)
        elif type(ev) is _PAY:
            s.todo.pop(0)
            s.ledger.apply(ev)
        elif type(ev) is _PENALTY:
            _apply_penalty(s, ev)
        elif type(ev) is _HANDOUT:
            _apply_handout(s, ev)
        elif type(ev) is _RETURN:
            _apply_return(s, ev)
        elif type(ev) is _RACE:
            s.race = list(ev.draws)
        elif type(ev) is _PASS:
            s.passed = s.passed | {ev.seat}
        elif type(ev) is _STOP:
            s.phase = "end"
            s.todo.append((T_SCORE, ("agreement", ev.seat)))
        elif type(ev) is _DEAL:
            _apply_deal(s, ev)
        elif type(ev) is _SCORE:
            _apply_score(s, ev)
        elif type(ev) is _END:
            s.todo.pop(0)
        else:
            raise TypeError(f"{type(ev).__name__} is not a Kazu-Tori event")
        _settle(s)

    # -- what the engine derives -------------------------------------------------------------
    def auto(self, s: KazuToriState) -> Event:
        code, arg = s.todo[0]
        if code == READY:  # a payment
            pay: Pay = arg
            return pay
        if code == T_PENALTY:
            return self._penalty(s, arg)
        if code == T_HANDOUT:
            return self._handout(s)
        if code == T_RETURN:
            counts = [0] * s.n
            for seat in s.table_by:
                counts[seat - 1] += 1
            return Return(counts)
        if code == T_SCORE:
            reason, seat = arg
            cards = [len(s.piles[p]) for p in range(1, s.n + 1)]
            top = max(cards)
            winners = [p for p in range(1, s.n + 1) if top and cards[p - 1] == top]
            return Score(reason, seat, cards, winners)
        if code == T_END:
            return End(s.result.reason if s.result else "end", s.ledger.balances[1:],
                       s.ledger.pot)
        raise AssertionError(f"no automatic event waits (todo {s.todo[:1]})")

    @staticmethod
    def _penalty(s: KazuToriState, seat: int) -> Penalty:
        """One card to each other seat still in, starting with the next one, while they last."""
        others = [p for p in ((seat + k - 1) % s.n + 1 for k in range(1, s.n)) if s.piles[p]]
        return Penalty(seat, others[:len(s.piles[seat])])

    @staticmethod
    def _handout(s: KazuToriState) -> Handout:
        flipper = s.last
        first = s.next_in(flipper)
        jizo = first if s.jizo_uses + 1 < JIZO_USES else 0
        # the other cards start with the seat after the Jizo's receiver (with that receiver
        # when the Jizo leaves the game instead), and go round the seats still in
        to: list[int] = []
        seat = first if jizo else flipper
        for _ in range(len(s.table) - 1):
            seat = s.next_in(seat)
            to.append(seat)
        return Handout(flipper, jizo, to)

    def chance(self, s: KazuToriState, rng: Rng) -> Event:
        if s.phase == "deal":
            cards = rng.shuffled(_CARDS)
            n = s.n
            return Deal(pile_sizes(n), [cards[i::n] for i in range(n)])
        if s.todo:
            seats, counts = s.todo[0][1]
            got = {seat: s.piles[seat] for seat in seats}
            if counts is not None:  # a return: shuffle the table and deal it back first
                cards = rng.shuffled(s.table)
                for seat in seats:
                    k = counts[seat - 1]
                    got[seat] = got[seat] + cards[:k]
                    del cards[:k]
            return Shuffle(list(seats), [rng.shuffled(got[seat]) for seat in seats])
        piles = s.piles
        return Race([rng.below(RACE_DRAWS) if piles[p] else -1 for p in range(1, s.n + 1)])

    def people_only(self, ev: Event) -> str | None:
        """A stop: the players' agreement, which bots never make."""
        if type(ev) is _STOP:
            return ("a stop is the players' agreement, which bots do not make (a game "
                    "between bots ends by its rules, or at max_flips)")
        return None

    def bot_legal(self, s: KazuToriState, seat: int) -> list[Event]:
        """A bot's moves: every legal one but ``stop``, which ends the game by the players'
        agreement: bots make none (between bots a game ends by its rules, or at
        ``max_flips``); a bot that answers it anyway is refused (see ``bots.bot_move``)."""
        return [ev for ev in self.legal(s, seat) if type(ev) is not _STOP]

    def legal(self, s: KazuToriState, seat: int) -> list[Event]:
        if s.todo or s.phase not in ("turn", "window") or not 1 <= seat <= s.n \
                or not s.piles[seat]:
            return []
        out: list[Event] = []
        if seat == s.next_flipper():
            if s.physical:
                if s.flips < s.rules.max_flips:
                    out += [Flip(seat, c) for c in sorted(self.deck.counts)
                            if self._check_flip(s, Flip(seat, c)) is None]
            else:
                out.append(Flip(seat))
        if s.phase == "window":
            if seat not in s.claimed:
                out.append(Claim(seat))
            if seat not in s.passed:
                out.append(Pass(seat))
        if seat in self.pending(s).seats:
            out.append(Stop(seat))
        return out

    def move_words(self, s: KazuToriState) -> list[str]:
        return ["deal"] if s.phase == "deal" else []

    # -- races between bots --------------------------------------------------------------------
    def bot_move(self, match: Any, bots: dict[int, Any],
                 pending: Pending | None = None) -> tuple[Event, bool] | None:
        """Who of the bots acts first: the game's bots decide that (they race for a card, see
        :func:`kabucli.games.kazu_tori.bots.bot_move`); ``match`` is the engine's Match."""
        races = _RACES
        if races is None:
            races = _import_races()
        return races(self, match, bots, pending)

    # -- notation ------------------------------------------------------------------------------
    def _cards(self, cards: list[int]) -> str:
        return card_list(self.deck, cards, "-", "-")

    def notate(self, ev: Event) -> str:
        if type(ev) is _FLIP:
            tail = "" if ev.card is None else " " + self.deck.token(ev.card)
            return f"p{ev.seat} flip{tail}"
        if type(ev) is _CLAIM:
            return f"p{ev.seat} claim"
        if type(ev) is _PASS:
            return f"p{ev.seat} pass"
        if type(ev) is _STOP:
            return f"p{ev.seat} stop"
        if type(ev) is _SHUFFLE:
            return "shuffle " + " | ".join(
                f"p{seat} {self._cards(p)}" for seat, p in zip(ev.seats, ev.piles, strict=False))
        if type(ev) is _RACE:
            return "race " + " ".join(f"p{i}={d}" for i, d in enumerate(ev.draws, 1) if d >= 0)
        if type(ev) is _PENALTY:
            return f"penalty p{ev.seat} gives {seat_list(ev.to, ' ', 'nobody')}"
        if type(ev) is _HANDOUT:
            jizo = f"p{ev.jizo}" if ev.jizo else "removed"
            return f"handout p{ev.seat} jizo {jizo} cards {seat_list(ev.to)}"
        if type(ev) is _RETURN:
            return "return " + " ".join(f"p{i}={k}" for i, k in enumerate(ev.counts, 1) if k)
        if type(ev) is _SCORE:
            who = f" p{ev.seat}" if ev.seat else ""
            cards = " ".join(f"p{i}={k}" for i, k in enumerate(ev.cards, 1))
            return f"score {ev.reason}{who} {cards} wins {seat_list(ev.winners, ',')}"
        if type(ev) is _DEAL:
            if ev.piles is None:
                return "deal " + "/".join(map(str, ev.sizes))
            return "deal " + " | ".join(f"p{i} {self._cards(p)}" for i, p in enumerate(ev.piles, 1))
        return notate_shared(ev) or repr(ev)

    def parse(self, s: KazuToriState, text: str) -> Event:
        return self.verbs.parse(s, text, s.n)

    def __init__(self) -> None:
        claim, pass_, stop = self._parse_claim, self._parse_pass, self._parse_stop
        self.verbs = Verbs[KazuToriState](
            {"deal": self._parse_deal, "flip": self._parse_flip,
             "claim": claim, "take": claim, "slap": claim, "pass": pass_, "go": pass_,
             "stop": stop, "agree": stop,
             "shuffle": self._parse_shuffle, "race": self._parse_race,
             "penalty": self._parse_penalty, "handout": self._parse_handout,
             "return": self._parse_return, "score": self._parse_score},
            self._parse_card, self._empty,
            seatless=("shuffle", "race", "penalty", "handout", "return", "score"))

    @staticmethod
    def _parse_claim(s: KazuToriState, m: Typed) -> Event:
        seat = m.seat
        if seat is None and len(m.args) == 1:  # 'claim p2'
            seat = seat_of(m.args[0], s.n)
            if seat is None:
                raise ParseError(no_player(m.args[0], s.n, "claim p2"))
        else:
            m.none_after()
        if seat is None:
            raise ParseError("say who claimed first, e.g. 'p2 claim' or 'claim p2'")
        return Claim(seat)

    @staticmethod
    def _parse_pass(s: KazuToriState, m: Typed) -> Event:
        m.none_after()
        if m.seat is None:
            raise ParseError("say who lets the card go, e.g. 'p2 pass'")
        return Pass(m.seat)

    @staticmethod
    def _empty(s: KazuToriState) -> str:
        """A line with no move: what is typed now (the deal, a card turned, a claim)."""
        from kabucli.games.kazu_tori import text  # (the words' module imports this one)

        return f"empty move: {text.hint(s, 0) or text.EMPTY}"

    @staticmethod
    def _mover(s: KazuToriState, m: Typed) -> int:
        """The seat a flip or a stop is by: the one typed, else who flips next (before the
        deal, p1, who flips first once it is dealt)."""
        if m.seat is not None:
            return m.seat
        return s.flipper if s.phase == "deal" else s.next_flipper()

    def _parse_stop(self, s: KazuToriState, m: Typed) -> Event:
        m.none_after()
        return Stop(self._mover(s, m))

    def _parse_flip(self, s: KazuToriState, m: Typed) -> Event:
        args = m.args
        if len(args) > 1:
            raise ParseError(f"a flip turns one card, got {quoted(' '.join(args))}")
        return Flip(self._mover(s, m), self.deck.parse(args[0]) if args else None)

    def _parse_card(self, s: KazuToriState, m: Typed) -> Event:
        """A card alone: the next player flipped it (at a real table)."""
        if not m.args:
            try:
                return Flip(self._mover(s, m), self.deck.parse(m.verb))
            except ParseError:
                pass
        raise ParseError(f"{quoted(m.rest)} is not a Kazu-Tori move: use 'flip', 'p3 flip 7', "
                         "'p2 claim', 'p2 pass' or 'stop'")

    @staticmethod
    def _seats(s: KazuToriState, words: list[str], none: str) -> list[int]:
        return [] if [w.lower() for w in words] == [none] else parse_seats(words, s.n)

    @staticmethod
    def _per_seat(s: KazuToriState, words: list[str], what: str, missing: int,
                  hi: int) -> list[int]:
        """``pN=VALUE`` words as a list by seat, ``missing`` for seats not named; each value
        from ``missing`` to ``hi``."""
        out = [missing] * s.n
        for word in words:
            key, sep, val = word.partition("=")
            who = parse_seat(key, s.n)
            value = whole(val, missing, hi)
            if not sep or value is None:
                raise ParseError(f"{quoted(word)} should read pN={what} ({what} {missing}-{hi})")
            out[who - 1] = value
        return out

    def _parse_shuffle(self, s: KazuToriState, m: Typed) -> Event:
        seats, piles = [], []
        for part in " ".join(m.args).split("|"):
            words = part.split(None, 1)  # (a pile's cards joined by '-', or apart by spaces)
            if len(words) < 2:
                raise ParseError("a shuffle reads 'shuffle p2 3-7-Oni-... | p3 ...'")
            seats.append(parse_seat(words[0], s.n))
            piles.append(cards_in(self.deck, words[1]))
        return Shuffle(seats, piles)

    def _parse_race(self, s: KazuToriState, m: Typed) -> Event:
        return Race(self._per_seat(s, m.args, "DRAW", -1, RACE_DRAWS - 1))

    def _parse_penalty(self, s: KazuToriState, m: Typed) -> Event:
        args = m.args
        if len(args) < 3 or m.low[1] != "gives":
            raise ParseError("a penalty reads 'penalty p2 gives p3 p4 p1'")
        return Penalty(parse_seat(args[0], s.n), self._seats(s, args[2:], "nobody"))

    def _parse_handout(self, s: KazuToriState, m: Typed) -> Event:
        args, low = m.args, m.low
        if len(args) < 5 or low[1] != "jizo" or low[3] != "cards":
            raise ParseError("a hand-out reads 'handout p1 jizo p2 cards p3 p4' (jizo "
                             "'removed' after its third use, cards '-' for none)")
        return Handout(parse_seat(args[0], s.n), parse_seat(args[2], s.n, "removed"),
                       self._seats(s, args[4:], "-"))

    def _parse_return(self, s: KazuToriState, m: Typed) -> Event:
        return Return(self._per_seat(s, m.args, "CARDS", 0, self.deck.size))

    def _parse_score(self, s: KazuToriState, m: Typed) -> Event:
        args, low = m.args, m.low
        reasons = ("take", "oni", "out", "agreement", "max_flips")
        shape = "a score reads 'score REASON [pN] p1=CARDS ... wins pN[,pM]'"
        if len(args) < 3 or low[0] not in reasons or low[-2] != "wins":
            raise ParseError(shape)
        body = args[1:-2]
        who = 0
        if body and "=" not in body[0]:
            who = parse_seat(body[0], s.n)
            body = body[1:]
        winners = [] if args[-1] == "-" else parse_seats(args[-1].split(","), s.n)
        return Score(low[0], who,  # type: ignore[arg-type]
                     self._per_seat(s, body, "CARDS", 0, self.deck.size), winners)

    def _parse_deal(self, s: KazuToriState, m: Typed) -> Deal:
        text = " ".join(m.args)
        sizes = pile_sizes(s.n)
        if not text.strip():
            return Deal(sizes)
        parts = [p for p in text.split("|") if p.strip()]
        if len(parts) == 1 and "/" in parts[0]:
            typed = [whole(x.strip(), 0, self.deck.size) for x in parts[0].split("/")]
            if None in typed:
                raise ParseError(f"{quoted(parts[0])} is not pile sizes like 10/10/10/10")
            return Deal([x for x in typed if x is not None])
        piles = []
        for i, part in enumerate(parts, start=1):
            piles.append(cards_in(self.deck, in_seat_order(part, i, s.n, "pile", "the deal")[1]))
        return Deal([len(p) for p in piles], piles)

    # -- views ---------------------------------------------------------------------------------
    @staticmethod
    def turned_by(s: KazuToriState, flip_number: int) -> tuple[int, int, int, int] | None:
        """(seat, card, number said, cards left) of the card the ``flip_number``-th Flip event
        (1-based) turned, or None while it waits for the effects before it (or when it never turned:
        the game stopped at max_flips)."""
        return s.turned[flip_number - 1] if flip_number <= len(s.turned) else None

    @staticmethod
    def next_count(s: KazuToriState) -> int:
        """The number the next flip says."""
        return s.said % s.rules.limit + 1 if s.phase == "window" else s.count

    def on_close(self, s: KazuToriState) -> dict[str, Any] | None:
        """What happens when the open window closes without a take: the Jizo's hand-out or the
        return of the table (who gets how many cards), or None."""
        if s.phase != "window" or s.todo:
            return None
        if s.table[-1] == JIZO:
            h = self._handout(s)
            counts = Counter(h.to)
            return {"jizo": f"p{h.jizo}" if h.jizo else "removed",
                    "cards": {f"p{p}": counts[p] for p in sorted(counts)}}
        if s.said == s.rules.limit:
            if s.lastcall:
                return {"restart": True}
            counts = Counter(s.table_by)
            return {"return": {f"p{p}": counts[p] for p in sorted(counts)}}
        return None

    def view(self, s: KazuToriState, seat: int | None = None) -> dict[str, Any]:
        tok = self.deck.token
        nxt = s.next_flipper() if s.phase in ("turn", "window") else 0

        def pile(p: int) -> list[str] | int:
            if seat is None and not s.physical:
                return [tok(c) for c in s.piles[p]]
            return len(s.piles[p])

        return {
            "game": self.name,
            "phase": s.phase,
            "limit": s.rules.limit,
            "flips": s.flips,
            "last_call": s.lastcall,
            "table": [tok(c) for c in s.table],
            "table_by": [f"p{p}" for p in s.table_by],
            "top": tok(s.table[-1]) if s.phase == "window" else None,
            "said": s.said if s.phase == "window" else None,
            "takeable": s.takeable() if s.phase == "window" else None,
            "next": f"p{nxt}" if nxt else None,
            "count": self.next_count(s) if nxt else None,
            "on_close": self.on_close(s),
            "jizo_uses": s.jizo_uses,
            "removed": [tok(c) for c in s.removed],
            "piles": {f"p{p}": pile(p) for p in range(1, s.n + 1)},
            "out": [f"p{p}" for p in range(1, s.n + 1) if s.phase != "deal" and not s.piles[p]],
            "claimed": sorted(f"p{p}" for p in s.claimed) if s.phase == "window" else [],
            "chips": s.ledger.by_seat(),
        }

    def outcome(self, s: KazuToriState) -> dict[str, Any] | None:
        if s.phase != "end" or s.todo or s.result is None:
            return None
        r = s.result
        return {
            "reason": r.reason,
            "seat": f"p{r.seat}" if r.seat else None,
            "cards": {f"p{p}": k for p, k in enumerate(r.cards, 1)},
            "winners": [f"p{w}" for w in r.winners],
            "balances": s.ledger.by_seat(),
            "flips": s.flips,
        }


def _closing(s: KazuToriState) -> tuple[bool, bool]:
    """Whether the next flip, closing the open window, first has the Jizo hand the table out,
    and whether it first returns the table at the limit (the flip waits for either)."""
    if s.phase != "window":
        return False, False
    if s.table[-1] == JIZO:
        return True, False
    return False, s.said == s.rules.limit and not s.lastcall


def _piles_of(seats: frozenset[int]) -> str:
    """``p2's pile``, ``p1's or p3's pile``: the piles a special card may be in."""
    names = [f"p{p}'s" for p in sorted(seats)]
    if not names:
        return "no pile still in play"
    if len(names) == 1:
        return f"{names[0]} pile"
    return f"{', '.join(names[:-1])} or {names[-1]} pile"


def _handout_gifts(s: KazuToriState, h: Handout) -> list[tuple[int, int]]:
    """(receiver, card) of the Jizo's hand-out ``h`` of the table: the Jizo first (unless it
    leaves the game), then the other cards, most recent first."""
    table = s.table
    gifts = list(zip(h.to, reversed(table[:-1]), strict=True))
    if h.jizo:
        gifts.insert(0, (h.jizo, table[-1]))
    return gifts


def _received(may: dict[int, frozenset[int]], gifts: list[tuple[int, int]]) -> None:
    """A special card given face up to a seat (a take, a hand-out) is in that seat's pile."""
    for seat, card in gifts:
        if card in may:
            may[card] = frozenset((seat,))


def _returned(may: dict[int, frozenset[int]], table: list[int], by: list[int]) -> None:
    """A special card among the table cards shuffled and returned may be in any receiver's
    pile."""
    seats = frozenset(by)
    for card in table:
        if card in may:
            may[card] = seats


# -- changes, one function per event type ------------------------------------------------

def _settle(s: KazuToriState) -> None:
    """Do the queued steps that are no events (a flip that waited for the effects of the
    window it closed); what the state waits for is worked out again when asked."""
    todo = s.todo
    while todo and todo[0][0] == T_FLIP:
        _, (seat, card) = todo.pop(0)
        _turn_card(s, seat, card)
    s.pend = None


def _apply_deal(s: KazuToriState, ev: Deal) -> None:
    for seat, size in enumerate(ev.sizes, 1):
        s.piles[seat] = list(ev.piles[seat - 1]) if ev.piles is not None else [UNKNOWN] * size
    s.seats_changed()
    s.phase = "turn"
    s.flipper = 1
    s.count = 1
    if s.physical:  # any pile may hold the Oni and the Jizo
        everyone = frozenset(range(1, s.n + 1))
        s.may_hold = {ONI: everyone, JIZO: everyone}


def _apply_flip(s: KazuToriState, ev: Flip) -> None:
    todo = s.todo
    s.flip_events += 1
    if s.phase == "window":  # the flip closes the window of the card on top
        top = s.table[-1]
        if top == JIZO:
            todo.append((T_HANDOUT, None))
        elif s.said == s.rules.limit and not s.lastcall:
            todo.append((T_RETURN, None))
        s.count = s.said % s.rules.limit + 1
    s.phase = "turn"
    if s.flips >= s.rules.max_flips:
        s.phase = "end"
        todo.append((T_SCORE, ("max_flips", 0)))
    elif todo:  # the closing window's hand-out or return comes first
        s.flipper = ev.seat  # (whose card turns next, as the views say meanwhile)
        todo.append((T_FLIP, (ev.seat, ev.card)))
    else:
        _turn_card(s, ev.seat, ev.card)


def _turn_card(s: KazuToriState, seat: int, card: int | None) -> None:
    """A flip completes: the top card of ``seat``'s pile goes face up with the count."""
    pile = s.piles[seat]
    top = pile.pop(0)
    if card is None:
        card = top
    s.flips += 1
    s.table.append(card)
    s.table_by.append(seat)
    s.said = s.count
    s.turned.append((seat, card, s.said, len(pile)))
    s.ok = matches(card, s.said)
    s.last = seat
    s.claimed = _NOBODY
    s.passed = _NOBODY
    s.race = None
    s.phase = "window"
    if not pile:
        s.lastcall = True
        s.seats_changed()
        if s.may_hold:
            _emptied(s, seat)
        if card == ONI:  # the Oni as a last card ends the game at once
            s.table.pop()
            s.table_by.pop()
            pile.append(ONI)
            s.phase = "end"
            s.todo.append((T_SCORE, ("oni", seat)))
        elif not any(s.piles):
            s.phase = "end"
            s.todo.append((T_SCORE, ("out", 0)))


def _apply_claim(s: KazuToriState, ev: Claim) -> None:
    seat = ev.seat
    s.claimed = s.claimed | {seat}
    if not matches(s.table[-1], s.said):
        s.todo.append((T_PENALTY, seat))
        return
    pile = s.piles[seat]
    if s.may_hold:
        _received(s.may_hold, [(seat, card) for card in s.table])
    pile.extend(s.table)
    s.table = []
    s.table_by = []
    if s.lastcall:
        s.phase = "end"
        s.todo.append((T_SCORE, ("take", seat)))
        return
    s.phase = "turn"
    s.flipper = seat
    s.count = 1
    if s.physical:
        pile[:] = [UNKNOWN] * len(pile)
    else:
        s.todo.append((T_SHUFFLE, ((seat,), None)))


def _apply_handout(s: KazuToriState, ev: Handout) -> None:
    s.todo.pop(0)
    s.jizo_uses += 1
    gifts = _handout_gifts(s, ev)
    if not ev.jizo:
        s.removed.append(s.table[-1])
    s.table = []
    s.table_by = []
    _receive(s, gifts)


def _receive(s: KazuToriState, gifts: list[tuple[int, int]]) -> None:
    """Cards go to the bottom of the receivers' piles; then those piles are shuffled: in a
    seeded game one chance event (receivers in seat order) before anything else still
    queued; at a real table the piles just become unknown again."""
    piles = s.piles
    for seat, card in gifts:
        piles[seat].append(card)
    got = sorted({seat for seat, _ in gifts})
    if s.may_hold:
        _received(s.may_hold, gifts)
    if s.physical:
        for seat in got:
            piles[seat][:] = [UNKNOWN] * len(piles[seat])
    elif got:
        s.todo.insert(0, (T_SHUFFLE, (tuple(got), None)))


def _emptied(s: KazuToriState, seat: int) -> None:
    """``seat``'s pile ran out: it holds no special card."""
    may = s.may_hold
    for card, held in list(may.items()):
        if seat in held:
            may[card] = held - {seat}


def _payments(s: KazuToriState, ev: Score) -> list[Pay]:
    """Each loser pays the winner a chip per card held (ties by the ``tie`` house rule)."""
    winners = ev.winners
    if not winners:
        return []
    tie = s.rules.tie
    w = len(winners)
    if w > 1 and tie == "none":
        return []
    pays: list[Pay] = []
    for p in range(1, s.n + 1):
        k = ev.cards[p - 1]
        if p in winners or k == 0:
            continue
        amount = k // w if tie == "split" else k
        if amount:
            why = "cards" if w == 1 else f"cards, tie {tie}"
            pays.extend(Pay(p, win, amount, why) for win in winners)
    return pays


def _apply_shuffle(s: KazuToriState, ev: Shuffle) -> None:
    if s.todo.pop(0)[1][1] is not None:  # a return: the table was dealt back
        s.table = []
        s.table_by = []
    for seat, pile in zip(ev.seats, ev.piles, strict=True):
        s.piles[seat] = list(pile)


def _apply_penalty(s: KazuToriState, ev: Penalty) -> None:
    s.todo.pop(0)
    pile = s.piles[ev.seat]
    gifts = [(to, pile.pop(0)) for to in ev.to]
    if s.may_hold and gifts:  # face down: a special card it may hold may be in any gift
        may = s.may_hold
        for card, held in list(may.items()):
            if ev.seat in held:
                may[card] = held | frozenset(ev.to)
    if not pile:
        s.lastcall = True
        s.seats_changed()
        if s.may_hold:
            _emptied(s, ev.seat)
    _receive(s, gifts)


def _apply_return(s: KazuToriState, ev: Return) -> None:
    s.todo.pop(0)
    seats = tuple(seat for seat, k in enumerate(ev.counts, 1) if k)
    if s.physical:
        for seat in seats:
            s.piles[seat] += [UNKNOWN] * ev.counts[seat - 1]
        if s.may_hold:
            _returned(s.may_hold, s.table, s.table_by)
        s.table = []
        s.table_by = []
    else:  # the cards stay on the table until the shuffle deals them back
        s.todo.insert(0, (T_SHUFFLE, (seats, tuple(ev.counts))))


def _apply_score(s: KazuToriState, ev: Score) -> None:
    todo = s.todo
    todo.pop(0)
    s.result = ev
    todo.extend(ready(_payments(s, ev)))
    todo.append((T_END, None))


def _piles_words(sizes: list[int]) -> str:
    """The face-down piles of a deal in words: ``10 cards face down to each player``, or with
    3 players ``14 cards face down to p1, 13 to each other player``."""
    first = sizes[0]
    rest = set(sizes[1:])
    if rest == {first}:
        return f"{first} cards face down to each player"
    if len(rest) == 1:
        return f"{first} cards face down to p1, {sizes[1]} to each other player"
    return "face-down piles of " + ", ".join(
        f"{k} to p{i}" for i, k in enumerate(sizes, 1))


def _describe(key: tuple[Any, ...]) -> Pending:
    """What a Kazu-Tori state waits for, from its key (see :meth:`KazuTori.pending`)."""
    phase = key[0]
    if phase == "todo":
        code, arg = key[1], key[2]
        if code == T_SHUFFLE:
            seats, counts = arg
            who = ", ".join(f"p{p}" for p in seats)
            what = "the table dealt back to " if counts is not None else "the piles of "
            return Pending("chance", f"the shuffle of {what}{who}")
        return Pending("auto", _AUTO_WHAT[code])
    if phase == "window":
        _, top, said, limit, ins, last, physical = key
        nxt = next((p for p in ins if p > last), ins[0])
        may = "may be taken" if matches(top, said) else "may not be taken"
        return Pending(
            "action",
            f"claims on the {DAINI_40.token(top)} (said {WORDS[said]}: {may}), "
            f"or p{nxt}'s flip saying {WORDS[said % limit + 1]}",
            ins, not physical)
    if phase == "window-limit":  # a real table that reached max_flips: claims, or a stop
        _, top, said, ins, most = key
        may = "may be taken" if matches(top, said) else "may not be taken"
        return Pending("action", f"claims on the {DAINI_40.token(top)} (said {WORDS[said]}: "
                       f"{may}), or a stop: the game has reached max_flips={most}", ins)
    if phase == "turn":
        return Pending("action", f"p{key[1]} to flip saying {WORDS[key[2]]}", (key[1],))
    if phase == "turn-limit":
        return Pending("action", f"p{key[1]} to stop: the game has reached max_flips={key[2]}",
                       (key[1],))
    if phase == "deal":
        return Pending("chance", "the deal: " + _piles_words(pile_sizes(key[1])))
    return Pending("over", "nothing: the game is over")


_PENDINGS: Final = Pendings(_describe, 50_000)
GAME = KazuTori()
