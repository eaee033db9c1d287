"""Uno Dare: UNO's shedding game with Dare and Wild Dare cards that hit the next player with a
dare (do it, or draw 2).

The 108-card deck has per color one 0, two each of 1-9, two Skips, two Reverses and two Dares,
plus 8 Wild Dares; each of the 16 dare cards carries its own dare number. Players match the top
discard by color, number or symbol; the first to shed their hand wins the round and scores the
cards left in the other hands; rounds go on until a score reaches the target.

Seeded games record the deal with every hand and the draw pile (top card last), so draws come
from the top of the pile; at a real table (``physical``) hands and pile are known only by size
and each card is learnt as it is played or shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from kabucli.cards import UNKNOWN, UNO_DARE, UNO_DARE_108, UNO_REVERSE, UNO_SKIP, uno_color
from kabucli.engine import READY, Game, Pending, Pendings, Step
from kabucli.errors import ParseError
from kabucli.events import End, Event, Undo
from kabucli.figures import counted
from kabucli.games.uno_dare import text
from kabucli.games.uno_dare.events import (  # re-exported: the game's module names them all
    Answer as Answer,
    Catch as Catch,
    Deal as Deal,
    Draw as Draw,
    Keep as Keep,
    Name as Name,
    Pass as Pass,
    Penalty as Penalty,
    Play as Play,
    Race as Race,
    Reshuffle as Reshuffle,
    Score as Score,
    Show as Show,
    Uno as Uno,
    UnoDareRules as UnoDareRules,
)
from kabucli.notation import (
    LOG_INT,
    Typed,
    Verbs,
    card_list,
    cards_in,
    in_seat_order,
    no_player,
    notate_shared,
    number,
    seat_of,
    whole,
)
from kabucli.safetext import quoted
from kabucli.shuffle import Rng

# The event classes the hot paths tell events apart by, as static names: compiled,
# an imported name is looked up in the module's dict at every use, a Final one is
# read directly.
_ANSWER: Final = Answer
_CATCH: Final = Catch
_DEAL: Final = Deal
_DRAW: Final = Draw
_END: Final = End
_KEEP: Final = Keep
_NAME: Final = Name
_PASS: Final = Pass
_PENALTY: Final = Penalty
_PLAY: Final = Play
_RACE: Final = Race
_RESHUFFLE: Final = Reshuffle
_SCORE: Final = Score
_SHOW: Final = Show
_UNO: Final = Uno

if TYPE_CHECKING:
    from kabucli.engine import Match

HAND: Final = 7
DECK_SIZE: Final = 108
WILD: Final = -1  # the color of a Wild Dare in COLOR
SKIP: Final = 10  # symbols of the action cards in SYMBOL
REVERSE: Final = 11
DARE: Final = 12
WILD_DARE: Final = 13
RACE_DRAWS: Final = 1000  # a race draw is a per-mille quantile of each bot's reaction time
DEFAULT_REACTION: Final = (250, 500)  # ms, for a bot without a profile of its own
# in 16: the chance that a dare tried by a bot without a profile of its own (a program) is
# judged done, as the built-in random bot judges its own
DEFAULT_DARING: Final = 8
COLORS: Final = 4


def _symbol(code: int) -> int:
    if code < UNO_SKIP:
        return code % 10
    if code < UNO_REVERSE:
        return SKIP
    if code < UNO_DARE:
        return REVERSE
    return DARE if code < UNO_DARE + 8 else WILD_DARE


CARDS: Final = tuple(UNO_DARE_108.cards())  # the deck in its canonical order, as a deal starts
CODES: Final = range(UNO_DARE + 16)  # every card code
COLOR: Final = tuple(WILD if uno_color(c) is None else int(uno_color(c) or 0) for c in CODES)
SYMBOL: Final = tuple(_symbol(c) for c in CODES)
POINTS: Final = tuple(UNO_DARE_108.value(c) for c in CODES)


def dare_number(card: int) -> int:
    """The dare number (1-16) of a Dare or Wild Dare, 0 for any other card."""
    return card - UNO_DARE + 1 if card >= UNO_DARE else 0


def _matches(card: int, top: int, color: int, dare_on_wild: bool) -> bool:
    c = COLOR[card]
    if c in (WILD, color):
        return True
    sym = SYMBOL[card]
    if dare_on_wild and sym == DARE and SYMBOL[top] == WILD_DARE:  # (the house rule)
        return True
    return sym == SYMBOL[top] and sym != WILD_DARE


# MATCHES[top * 4 + color][card]: the answer of playable(), worked out once (bots ask it for
# every card of their hand on every turn); DARE_ON_WILD_MATCHES with the house rule
# dare_on_wild (a colored Dare also matches a Wild Dare on the pile). A state keeps the one
# its rules play by (UnoState.matches).
MATCHES: Final = tuple(tuple(_matches(card, top, color, False) for card in CODES)
                       for top in CODES for color in range(4))
DARE_ON_WILD_MATCHES: Final = tuple(tuple(_matches(card, top, color, True) for card in CODES)
                                    for top in CODES for color in range(4))


def playable(card: int, top: int, color: int, dare_on_wild: bool = False) -> bool:
    """Whether ``card`` may be played on ``top`` while ``color`` is the color in play: a
    Wild Dare always; another card on its color, or on the same number or symbol (a Wild Dare
    on the pile is matched by its named color only, or, with the house rule
    ``dare_on_wild``, by a colored Dare too)."""
    return (DARE_ON_WILD_MATCHES if dare_on_wild else MATCHES)[top * 4 + color][card]


# The steps of the todo queue (see engine.READY), with their arguments: a penalty draw
# (seat, count, why), the show of the hands left at a real table (None), the score of the
# round (its winner, 0 for none); the end of the match is queued ready.
T_PENALTY: Final = 1
T_SHOW: Final = 2
T_SCORE: Final = 3


# the phase in which each event of the player to move is typed (an answer: see _check_turn)
_TURN_PHASE: Final[dict[type[Event], str]] = {Draw: "turn", Keep: "drawn", Name: "name"}


# -- state ----------------------------------------------------------------------------------

class UnoState:
    """Everything about an Uno Dare match at one moment. Seats are 1..n; lists are indexed by
    seat. Hands are in the order cards came; at a real table their cards are ``UNKNOWN``
    until shown. The draw pile's top card is its last."""

    __slots__ = (
        "color",
        "dealer",
        "direction",
        "discards",
        "drawn",
        "drawn_since",
        "drew",
        "hands",
        "history",
        "hit",
        "hit_number",
        "matches",
        "missed",
        "n",
        "passed",
        "pend",
        "phase",
        "physical",
        "pile",
        "pool",
        "race",
        "round",
        "rules",
        "todo",
        "totals",
        "turn",
        "turns",
        "window",
    )  # fmt: skip

    def __init__(self, rules: UnoDareRules, n: int, physical: bool) -> None:
        self.rules = rules
        # what matches what (see MATCHES), by the house rule dare_on_wild
        self.matches = DARE_ON_WILD_MATCHES if rules.dare_on_wild else MATCHES
        self.n = n
        self.physical = physical
        self.round = 1
        self.dealer = 1
        self.totals = [0] * (n + 1)  # the score sheet, by seat
        self.history: list[Score] = []
        self.todo: list[Step] = []  # the penalty draws, the show, the score, the end
        self.pend: Pending | None = None  # see UnoDare.pending
        self.reset()

    def reset(self) -> None:
        """A fresh round waiting for its deal."""
        n = self.n
        self.phase = "deal"  # deal | turn | drawn | name | hit | verdict | round | over
        self.hands: list[list[int]] = [[] for _ in range(n + 1)]
        self.pile: list[int] = []
        self.discards: list[int] = []
        self.color = 0
        self.direction = 1
        self.turn = 0  # whose move it is (the hit player while a dare waits)
        self.turns = 0  # turns taken this round
        self.hit = 0  # the player hit by a dare, until it is settled
        self.hit_number = 0
        self.drawn = UNKNOWN  # the card just drawn (phase drawn)
        self.window = 0  # the seat down to one card without calling UNO, while catchable
        # seats that let that missing call go; emptied whenever the window ends (a catch, a
        # late "uno", the next move, the end of the round), so each window asks everybody
        self.passed: frozenset[int] = frozenset()
        # the seats down to one card without having called UNO whose missing call was not
        # caught in time (a catch of them is too late); a seat leaves it when its hand changes
        self.missed: frozenset[int] = frozenset()
        self.race: list[int] | None = None
        # At a real table: the cards of the last reshuffle (known as a whole) and how many
        # cards were drawn since; the pile certainly holds pool[c] - drawn_since copies of c.
        self.pool: Counter[int] = Counter()
        self.drawn_since = 0
        # and how many of them each seat drew (a penalty's too): a seat that drew none since
        # holds only cards it held at the reshuffle, so none of a card all of whose copies
        # went into the pile or lay on top then (see at_most)
        self.drew = [0] * (n + 1)

    def step(self, seat: int, k: int) -> int:
        """The seat ``k`` places after ``seat`` in the direction of play."""
        return (seat - 1 + k * self.direction) % self.n + 1

    @property
    def top(self) -> int:
        return self.discards[-1]

    def accounted(self) -> int:
        """Cards in hands, the pile and the discards: always the 108 of the deck once dealt."""
        return sum(len(h) for h in self.hands) + len(self.pile) + len(self.discards)

    def certain(self) -> Counter[int]:
        """Cards known to be out of every hidden hand: the discards, the hands known, and at a
        real table what the pile certainly holds of its last reshuffle."""
        seen = Counter(self.discards)
        for hand in self.hands:
            seen.update(c for c in hand if c != UNKNOWN)
        left = self.drawn_since
        for card, k in self.pool.items():
            if k > left:
                seen[card] += k - left
        return seen

    def at_most(self, seat: int, card: int, copies: int) -> int | None:
        """At a real table after a reshuffle, how many copies of ``card`` (``copies`` in the
        deck) ``seat`` can hold at most when none was in any hand at the reshuffle (all went
        into the pile or lay on top): those it drew since, one a card; else None (no more
        than :meth:`certain` tells)."""
        pool = self.pool
        if not pool or copies - pool[card] - (self.discards[0] == card) > 0:
            return None
        return self.drew[seat]


# -- the game -------------------------------------------------------------------------------

def hand_seen(s: UnoState, p: int, viewer: int | None) -> bool:
    """Whether the player in seat ``viewer`` (None: the referee, who sees all) sees seat p's
    hand: their own, or at a real table's round end a hand shown (each player shows the cards
    left: a Show is a public chance event), until the round's score is taken. The view and
    the drawings (render.py) both ask this."""
    if viewer is None or viewer == p:
        return True
    showing = s.physical and bool(s.todo) and s.todo[0][0] in (T_SHOW, T_SCORE)
    return showing and UNKNOWN not in s.hands[p]


class UnoDare(Game[UnoState, UnoDareRules]):
    name = "uno-dare"
    title = "Uno Dare"
    summary = "UNO deck with Dare and Wild Dare cards, 2-10 players: shed your hand"
    deck = UNO_DARE_108
    Rules = UnoDareRules
    events = (Deal, Play, Draw, Keep, Name, Answer, Uno, Catch, Pass, Race, Reshuffle, Penalty,
              Show, Score, End, Undo)
    # reaction draws (no card, and who wins the race is seen); the hands shown at a real
    # table's round end (every player shows the cards left: docs/rules/uno-dare.md)
    public_chance = (Race, Show)
    # logs from before stuck_rounds (their header has none) are read with the most it may
    # be: they played on through rounds that scored nothing, and none comes near 1000 in a row
    rules_added: ClassVar[Mapping[str, Any]] = {"stuck_rounds": 1000}
    min_players = 2
    max_players = 10
    default_players = 4

    def new_state(self, rules: UnoDareRules, seats: int, physical: bool) -> UnoState:
        return UnoState(rules, seats, physical)

    # -- what the state waits for ----------------------------------------------------------
    def pending(self, s: UnoState) -> Pending:
        p = s.pend  # None once an event changed the state
        if p is not None:
            return p
        # the key: what _describe reads
        todo = s.todo
        if not s.pile and len(s.discards) > 1 and self.needs_reshuffle(s):
            key: tuple[Any, ...] = ("reshuffle", len(s.discards))
        elif todo:
            code, arg = todo[0]
            if code == T_PENALTY:
                key = ("todo", code, arg[0], 0)
            else:
                key = ("todo", code, 0, self._next_show(s) if code == T_SHOW else 0)
        elif s.phase in ("deal", "over"):
            key = (s.phase, s.round, s.dealer)
        else:
            key = (s.phase, s.turn, s.window, s.discards[-1], s.color, s.hit_number, s.n,
                   s.physical)
        p = _PENDINGS.get(key)  # a dict's get: the fastest lookup, compiled or not
        if p is None:
            p = _PENDINGS[key]  # made now
        s.pend = p
        return p

    def blank_move(self, s: UnoState) -> str | None:
        """A blank line lets a missing UNO call go (so that the bots may react)."""
        return "pass" if s.window else None

    @staticmethod
    def needs_reshuffle(s: UnoState) -> bool:
        """Whether the empty draw pile waits to be refilled from the discards now."""
        if s.pile or len(s.discards) < 2 or s.phase in ("deal", "over"):
            return False
        return s.phase != "round" or (bool(s.todo) and s.todo[0][0] == T_PENALTY)

    def _settle(self, s: UnoState) -> None:
        """Do the steps that are no events (a show nobody owes, a round out of turns); what
        the state waits for is worked out again when asked."""
        s.pend = None
        todo = s.todo
        if todo:
            if todo[0][0] == T_SHOW and self._next_show(s) == 0:
                todo.pop(0)
        elif s.phase == "turn" and s.turns >= s.rules.max_turns:
            self._end_round(s, 0)

    @staticmethod
    def _next_show(s: UnoState) -> int:
        """The first seat whose hand is still unknown at the end of a round (0: none)."""
        for p in range(1, s.n + 1):
            if UNKNOWN in s.hands[p]:
                return p
        return 0

    # -- checks ------------------------------------------------------------------------------
    def check(self, s: UnoState, ev: Event) -> str | None:
        t = type(ev)
        if t is _PLAY:
            return self._check_play(s, ev)  # type: ignore[arg-type]
        if t is _CATCH or t is _UNO or t is _PASS:
            return self._check_window(s, ev)
        if t is _DRAW or t is _KEEP or t is _NAME or t is _ANSWER:
            return self._check_turn(s, ev)
        if t is _DEAL:
            return self._check_deal(s, ev)  # type: ignore[arg-type]
        if t is _RESHUFFLE:
            assert isinstance(ev, Reshuffle)
            if not self.needs_reshuffle(s):
                return "the draw pile is not empty (or there are no discards to reshuffle)"
            if ev.pile is not None:
                return "at a real table the new pile is face down: type 'reshuffle' alone"
            if ev.size != len(s.discards) - 1:
                return f"the discards under the top card are {len(s.discards) - 1}, not {ev.size}"
            return None
        if t is _SHOW:
            return self._check_show(s, ev)  # type: ignore[arg-type]
        if t is _RACE:
            return "races are drawn only in seeded games (at a real table type who caught first)"
        return f"{t.__name__} is not an Uno Dare event typed by a person"

    def out_of_turn(self, s: UnoState, ev: Event) -> str | None:
        """A catch, a late UNO or a pass by any seat while no call is missing: why (the one
        caught called in time, holds several cards, was caught too late; there is no missing
        call), rather than whose turn it is."""
        t = type(ev)
        if t is _CATCH or t is _UNO or t is _PASS:
            return self._check_window(s, ev)
        return None

    def not_now(self, s: UnoState, ev: Event) -> str | None:
        """A reshuffle while the draw pile still holds cards: why, rather than what the
        table waits for."""
        if type(ev) is not _RESHUFFLE or s.phase in ("deal", "over"):
            return None
        if s.pile:
            n = len(s.pile)
            return (f"the draw pile still holds {n} card{'s' if n > 1 else ''}: the discards "
                    "become the new pile only when it runs out")
        if len(s.discards) < 2:
            return "there are no discards under the top card to make a new pile of"
        return None

    def _check_turn(self, s: UnoState, ev: Event) -> str | None:
        seat: int = ev.seat  # type: ignore[attr-defined]
        t = type(ev)
        want = _TURN_PHASE.get(t)
        if t is _ANSWER:
            assert isinstance(ev, Answer)
            want = "hit" if ev.answer in ("decline", "try") else "verdict"
        if s.phase != want or s.todo:
            return f"not now: waiting for {self.pending(s).what}"
        if seat != s.turn:
            return text.not_their_turn(s, seat, "move")
        if t is _NAME:
            assert isinstance(ev, Name)
            if not 0 <= ev.color < COLORS:
                return f"color {ev.color} is not one of the four"
        return None

    def _check_play(self, s: UnoState, ev: Play) -> str | None:
        if s.phase not in ("turn", "drawn") or s.todo:
            return f"nobody plays a card now: waiting for {self.pending(s).what}"
        seat = ev.seat
        if seat != s.turn:
            return text.not_their_turn(s, seat, "turn")
        card = ev.card
        if not 0 <= card < len(CODES):
            return f"card code {card} is not in the {self.deck.title} deck"
        hand = s.hands[seat]
        if s.phase == "drawn" and not s.physical and card != s.drawn:
            return (f"only the card just drawn ({self.deck.token(s.drawn)}) may be played now, "
                    "or 'keep' it")
        if card not in hand:
            if UNKNOWN not in hand:  # (the hand as the table shows it: what may be played)
                held = " ".join(self.deck.token(c) for c in hand)
                return f"p{seat}'s hand {held} does not hold {self.deck.token(card)}"
            seen = s.certain()
            copies = self.deck.counts[card]
            if seen[card] >= copies:
                return (f"the deck has {copies} {self.deck.token(card)}: "
                        f"{'it is' if copies == 1 else 'all are'} accounted for; type the card "
                        f"p{seat} shows, or 'draw'")
            if s.at_most(seat, card, copies) == 0:
                return self._not_held(seat, card)
        if COLOR[card] == WILD:
            # as the last card it wins the round: no play follows, so no color is needed
            color = ev.color
            if len(hand) != 1 if color is None else not 0 <= color < COLORS:
                return (f"a Wild Dare names a color: '{self.deck.token(card)} red' (or yellow, "
                        "green, blue); only as the last card may it name none")
        elif ev.color is not None:
            return f"only a Wild Dare names a color, not {self.deck.token(card)}"
        if not s.matches[s.discards[-1] * 4 + s.color][card]:
            return (f"{self.deck.token(card)} does not match {self.deck.token(s.discards[-1])} "
                    f"({text.COLOR_NAMES[s.color]}): same color, number or symbol, or a "
                    "Wild Dare")
        if ev.uno and len(hand) != 2:
            played = self.deck.token(card) + ("" if ev.color is None
                                              else f" {text.COLOR_NAMES[ev.color]}")
            return text.uno_count(s, seat, played)
        return None

    def _check_window(self, s: UnoState, ev: Event) -> str | None:
        seat: int = ev.seat  # type: ignore[attr-defined]
        w = s.window
        t = type(ev)
        if t is _CATCH:
            assert isinstance(ev, Catch)
            target = ev.target
            if not 1 <= target <= s.n:
                return f"there is no seat p{target}"
            if target == seat:
                return "nobody catches themselves: type 'uno' to call it"
            if target != w:
                if target in s.missed:
                    return (f"too late: p{target} did not call UNO, but the next move was made "
                            "before the catch")
                k = len(s.hands[target])
                if k == 1:
                    return f"p{target} called UNO in time"
                return text.not_caught(target, k, w)
            return None
        if not w:
            return text.no_missing_call(s)
        if t is _UNO:
            if seat != w:
                return f"p{seat} does not hold one card without having called UNO"
            return None
        if seat in s.passed:
            return f"p{seat} already let p{w}'s missing call go"
        if seat == w:
            return f"p{w} calls UNO ('uno') or waits to be caught, but does not pass"
        return None

    def _check_deal(self, s: UnoState, ev: Deal) -> str | None:
        if s.phase != "deal":
            return f"round {s.round} is already dealt (waiting for {self.pending(s).what})"
        if ev.round != s.round or ev.dealer != s.dealer:
            return (f"this is the deal of round {s.round} by p{s.dealer}, "
                    f"not of round {ev.round} by p{ev.dealer}")
        if ev.hands is not None or ev.pile is not None:
            return "at a real table the hands and the pile are face down: type 'deal CARD'"
        if not 0 <= ev.up < len(CODES):
            return "the card turned up is face up: name it"
        return None

    def _check_show(self, s: UnoState, ev: Show) -> str | None:
        want = self._next_show(s)
        if not s.todo or s.todo[0][0] != T_SHOW or want == 0:
            return f"nobody shows cards now (waiting for {self.pending(s).what})"
        if ev.seat != want:
            return text.not_their_show(s, want, ev.seat)
        hand = s.hands[want]
        if len(ev.cards) != len(hand):
            return text.show_count(s, want, len(ev.cards))
        if UNKNOWN in ev.cards or not all(0 <= c < len(CODES) for c in ev.cards):
            return "shown cards are face up: name each"
        known = Counter(c for c in hand if c != UNKNOWN)
        if known - Counter(ev.cards):
            return f"p{want}'s hand holds {self._cards(sorted(known.elements()))}, all shown"
        revealed = Counter(ev.cards) - known
        for card, k in sorted(revealed.items()):
            most = s.at_most(want, card, self.deck.counts[card])
            if most is not None and k > most:
                return self._not_held(want, card, most)
        why = self.deck.check_available(s.certain(), list(revealed.elements()))
        return None if why is None else (
            f"{why}: type the {counted(len(hand), 'card', 'cards')} p{want} shows again")

    def _not_held(self, seat: int, card: int, drew: int = 0) -> str:
        """Why ``seat`` cannot hold (more of) ``card``: every copy went into the draw pile at
        the last reshuffle, or lay on top, and the seat drew only ``drew`` cards since."""
        tok = self.deck.token(card)
        since = ("nothing since" if not drew else
                 f"only {counted(drew, 'card', 'cards')} since")
        return (f"p{seat} cannot hold {'more ' if drew else ''}{tok}: at the last reshuffle "
                f"every {tok} went into the draw pile or lay face up, and p{seat} has drawn "
                f"{since}")

    # -- changes -----------------------------------------------------------------------------
    def apply(self, s: UnoState, ev: Event) -> None:
        s.pend = None  # worked out again when asked (see pending)
        t = type(ev)
        if t is _PLAY:
            self._apply_play(s, ev)  # type: ignore[arg-type]
        elif t is _DRAW:
            self._apply_draw(s, ev.seat)  # type: ignore[attr-defined]
        elif t is _PENALTY:
            self._apply_penalty(s, ev)  # type: ignore[arg-type]
        elif t is _KEEP:
            self._close_window(s)
            s.phase = "turn"
            s.turn = s.step(s.turn, 1)
        elif t is _ANSWER:
            self._apply_answer(s, ev)  # type: ignore[arg-type]
        elif t is _CATCH:
            s.window = 0
            s.passed = frozenset()  # the next missing call asks everybody again
            s.todo.insert(0, (T_PENALTY, (ev.target, 2, "uno")))  # type: ignore[attr-defined]
        elif t is _UNO:
            s.window = 0
            s.passed = frozenset()
        elif t is _PASS:
            s.passed = s.passed | {ev.seat}  # type: ignore[attr-defined]
        elif t is _RACE:
            s.race = list(ev.draws)  # type: ignore[attr-defined]
        elif t is _RESHUFFLE:
            self._apply_reshuffle(s, ev)  # type: ignore[arg-type]
        elif t is _NAME:
            self._close_window(s)
            s.color = ev.color  # type: ignore[attr-defined]
            s.phase = "hit"
        elif t is _DEAL:
            self._apply_deal(s, ev)  # type: ignore[arg-type]
        elif t is _SHOW:
            s.hands[ev.seat] = list(ev.cards)  # type: ignore[attr-defined]
        elif t is _SCORE:
            self._apply_score(s, ev)  # type: ignore[arg-type]
        elif t is _END:
            s.todo.pop(0)
            s.phase = "over"
        if s.todo or s.turns >= s.rules.max_turns:  # (the call costs most events 2%)
            self._settle(s)

    @staticmethod
    def _close_window(s: UnoState) -> None:
        """The next move was made: a missing UNO call can no longer be caught."""
        if s.window:
            s.missed = s.missed | {s.window}
            s.window = 0
            s.passed = frozenset()

    def _apply_deal(self, s: UnoState, ev: Deal) -> None:
        n = s.n
        if ev.hands is not None and ev.pile is not None:
            for seat in range(1, n + 1):
                s.hands[seat] = list(ev.hands[seat - 1])
            s.pile = list(ev.pile)
        else:
            for seat in range(1, n + 1):
                s.hands[seat] = [UNKNOWN] * HAND
            s.pile = [UNKNOWN] * (DECK_SIZE - HAND * n - 1)
        up = ev.up
        s.discards = [up]
        first = s.step(s.dealer, 1)
        s.turn = first
        s.phase = "turn"
        sym = SYMBOL[up]
        s.color = COLOR[up]
        if sym == SKIP:
            s.turn = s.step(first, 1)
        elif sym == REVERSE:
            s.direction = -1
            s.turn = s.dealer
        elif sym == DARE:
            self._hit(s, first, up)
        elif sym == WILD_DARE:
            s.color = 0  # until the first player names it
            self._hit(s, first, up)
            s.phase = "name"

    @staticmethod
    def _hit(s: UnoState, seat: int, card: int) -> None:
        s.phase = "hit"
        s.hit = s.turn = seat
        s.hit_number = dare_number(card)

    def _apply_play(self, s: UnoState, ev: Play) -> None:
        seat = ev.seat
        card = ev.card
        hand = s.hands[seat]
        if s.physical and card not in hand:
            hand.remove(UNKNOWN)
        else:
            hand.remove(card)
        if s.window:
            self._close_window(s)
        s.discards.append(card)
        s.turns += 1
        c = COLOR[card]
        if c != WILD:
            s.color = c
        elif ev.color is not None:  # (None: a Wild Dare as the last card, no color named)
            s.color = ev.color
        s.phase = "turn"
        sym = SYMBOL[card]
        if not hand:  # the round is won
            if sym >= DARE:  # a dare as a last card: the next player draws 2, no dare
                s.todo.append((T_PENALTY, (s.step(seat, 1), 2, "last")))
            self._end_round(s, seat)
            return
        if len(hand) == 1 and not ev.uno:
            s.window = seat
        if sym == SKIP:
            s.turn = s.step(seat, 2)
        elif sym == REVERSE:
            s.direction = -s.direction
            s.turn = seat if s.n == 2 else s.step(seat, 1)
        elif sym >= DARE:
            self._hit(s, s.step(seat, 1), card)
        else:
            s.turn = s.step(seat, 1)

    def _apply_draw(self, s: UnoState, seat: int) -> None:
        if s.window:
            self._close_window(s)
        s.turns += 1
        if not s.pile:  # nothing left to draw anywhere: the turn passes (the hand as it was)
            s.turn = s.step(seat, 1)
            return
        if seat in s.missed:  # two cards again
            s.missed = s.missed - {seat}
        card = s.pile.pop()
        s.hands[seat].append(card)
        if s.physical:
            s.drawn_since += 1
            s.drew[seat] += 1
        if s.physical or s.matches[s.discards[-1] * 4 + s.color][card]:
            s.phase = "drawn"
            s.drawn = card
        else:
            s.turn = s.step(seat, 1)

    def _apply_answer(self, s: UnoState, ev: Answer) -> None:
        self._close_window(s)
        answer = ev.answer
        if answer == "try":
            s.phase = "verdict"
            return
        seat = s.hit
        if answer != "done":
            s.todo.append((T_PENALTY, (seat, 2, "declined" if answer == "decline"
                                       else "failed")))
        s.hit = 0
        s.hit_number = 0
        s.phase = "turn"
        s.turn = s.step(seat, 1) if s.rules.dare_skips else seat

    def _apply_penalty(self, s: UnoState, ev: Penalty) -> None:
        step: tuple[int, int, str] = s.todo.pop(0)[1]
        seat, count, why = step
        hand = s.hands[ev.seat]
        if ev.count and ev.seat in s.missed:
            s.missed = s.missed - {ev.seat}
        pile = s.pile
        for _ in range(ev.count):
            hand.append(pile.pop())
        if s.physical:
            s.drawn_since += ev.count
            s.drew[ev.seat] += ev.count
        left = count - ev.count
        if left > 0 and len(s.discards) > 1:  # the rest after the reshuffle
            s.todo.insert(0, (T_PENALTY, (seat, left, why)))

    def _apply_reshuffle(self, s: UnoState, ev: Reshuffle) -> None:
        under = s.discards[:-1]
        s.discards = s.discards[-1:]
        if ev.pile is not None:
            s.pile = list(ev.pile)
        else:
            s.pile = [UNKNOWN] * ev.size
            s.pool = Counter(under)
            s.drawn_since = 0
            s.drew = [0] * (s.n + 1)

    def _end_round(self, s: UnoState, winner: int) -> None:
        s.phase = "round"
        s.window = 0
        s.passed = frozenset()
        s.missed = frozenset()
        s.hit = s.hit_number = 0
        if s.physical:
            s.todo.append((T_SHOW, None))
        s.todo.append((T_SCORE, winner))

    def _apply_score(self, s: UnoState, ev: Score) -> None:
        s.todo.pop(0)
        s.history.append(ev)
        totals = s.totals
        if ev.winner:
            if s.rules.scoring == "winner":
                totals[ev.winner] += sum(ev.hands)
            else:
                for p in range(1, s.n + 1):
                    totals[p] += ev.hands[p - 1]
        if max(totals) >= s.rules.target:
            s.todo.append((READY, End("target", totals[1:], 0)))
            return
        if stuck(s):
            s.todo.append((READY, End("stuck", totals[1:], 0)))
            return
        s.round += 1
        s.dealer = s.dealer % s.n + 1
        s.reset()

    # -- what the engine derives -------------------------------------------------------------
    def auto(self, s: UnoState) -> Event:
        code, arg = s.todo[0]
        if code == T_PENALTY:
            seat, count, why = arg
            return Penalty(seat, min(count, len(s.pile)), why)
        if code == T_SCORE:
            hands = [sum(POINTS[c] for c in s.hands[p]) for p in range(1, s.n + 1)]
            return Score(s.round, arg, hands)
        if code == READY:  # the end of the match
            ev: Event = arg
            return ev
        raise AssertionError(f"no automatic event waits (todo {s.todo[:1]})")

    def chance(self, s: UnoState, rng: Rng) -> Event:
        if s.phase == "deal":
            cards = rng.shuffled(CARDS)
            n = s.n
            hands = [cards[i * HAND:(i + 1) * HAND] for i in range(n)]
            return Deal(s.round, s.dealer, cards[n * HAND], hands, cards[n * HAND + 1:])
        if self.needs_reshuffle(s):
            return Reshuffle(len(s.discards) - 1, rng.shuffled(s.discards[:-1]))
        if s.todo:  # a seeded game knows every hand: nobody owes a show
            raise AssertionError("a seeded game never waits for a show")
        return Race([rng.below(RACE_DRAWS) if p != s.window else -1 for p in range(1, s.n + 1)])

    def legal(self, s: UnoState, seat: int) -> list[Event]:
        p = self.pending(s)
        if s.todo or seat not in p.seats or p.kind != "action":
            return []
        out: list[Event] = []
        if seat == s.turn:
            phase = s.phase
            if phase == "turn" or phase == "drawn":
                hand = s.hands[seat]
                if phase == "drawn" and not s.physical:
                    cards = [s.drawn]
                elif UNKNOWN in hand:
                    seen = s.certain()
                    counts = self.deck.counts
                    cards = [c for c in CODES if seen[c] < counts[c]
                             and s.at_most(seat, c, counts[c]) != 0]
                else:
                    cards = sorted(set(hand))
                top = s.discards[-1]
                calls = (True, False) if len(hand) == 2 else (False,)
                wild: tuple[int | None, ...] = tuple(range(COLORS))
                if len(hand) == 1:  # a Wild Dare as the last card may name none (see check)
                    wild += (None,)
                for c in cards:
                    if s.matches[top * 4 + s.color][c]:
                        colors: tuple[int | None, ...] = wild if COLOR[c] == WILD else (None,)
                        out += [Play(seat, c, k, u) for k in colors for u in calls]
                out.append(Draw(seat) if phase == "turn" else Keep(seat))
            elif phase == "name":
                out += [Name(seat, c) for c in range(COLORS)]
            elif phase == "hit":
                out += [Answer(seat, "try"), Answer(seat, "decline")]
            elif phase == "verdict":
                out += [Answer(seat, "done"), Answer(seat, "failed")]
        w = s.window
        if w:
            if seat == w:
                out.append(Uno(seat))
            else:
                out.append(Catch(seat, w))
                if seat not in s.passed:
                    out.append(Pass(seat))
        return out

    def move_words(self, s: UnoState) -> list[str]:
        # (the referee's events, as pending tells them apart: a reshuffle, a hand shown at
        # the end of a round, a deal; the moves of a seat are listed by legal)
        if self.pending(s).kind != "chance":
            return []
        if not s.pile and len(s.discards) > 1 and self.needs_reshuffle(s):
            return ["reshuffle"]
        return [f"p{self._next_show(s)} shows"] if s.todo else ["deal"]

    # -- races between bots --------------------------------------------------------------------
    def bot_move(self, match: Match, bots: dict[int, Any],
                 pending: Pending | None = None) -> tuple[Event, bool] | None:
        """The event bot seats produce now and whether it is trusted (see
        :meth:`Game.bot_move`), or None when a person must act.

        While a player holds one card without having called UNO, every other seat may catch
        them until the next move. People are asked first: bots wait until each person has
        caught or let it go (``pass``). Then every bot says whether it catches (its
        ``catches(state, seat)``); one catcher catches, several race: :meth:`Match.draw`
        records a ``Race`` of reaction draws and the fastest by each bot's ``reaction``
        profile catches first (equal times: the first seat after the player caught); a bot
        without ``catches`` (a program of the user's) catches when its move is a catch. Nobody
        catches: the player to move moves, if a bot; a person moves next: the bots' choice
        to let it go is recorded as a ``pass``. At a real table bots are not asked."""
        s: UnoState = match.state
        if match.physical:
            return None
        p = self.pending(s) if pending is None else pending
        if p.kind != "action":
            return None
        w = s.window
        if w:
            passed = s.passed
            for seat in range(1, s.n + 1):
                if seat != w and seat not in bots and seat not in passed:
                    return None
            racers = []
            for seat in range(1, s.n + 1):
                bot = bots.get(seat)
                if seat == w or bot is None or seat in passed:
                    continue
                catches = getattr(bot, "catches", None)  # else (a bot of the user's) ask it
                if catches(s, seat) if catches is not None else \
                        type(bot.choose(self, s, seat)) is Catch:
                    racers.append(seat)
            if racers:
                if len(racers) > 1:
                    race = match.draw()
                    assert type(race) is _RACE
                    n = s.n
                    racers.sort(key=lambda seat: (
                        self.reaction_ms(bots[seat], race.draws[seat - 1]), (seat - w - 1) % n))
                winner = racers[0]
                return Catch(winner, w), getattr(bots[winner], "trusted", False) is True
            if s.turn not in bots:
                for seat in range(1, s.n + 1):
                    if seat in bots and seat != w and seat not in passed:
                        return Pass(seat), getattr(bots[seat], "trusted", False) is True
                return None
        bot = bots.get(s.turn)
        if bot is None:
            return None
        trusted = getattr(bot, "trusted", False) is True
        if s.phase == "verdict" and not trusted and match.seed is not None:
            return self._verdict(match, bot, s.turn), True
        ev: Event = bot.choose(self, s, s.turn)
        return ev, trusted

    @staticmethod
    def _verdict(match: Match, bot: Any, seat: int) -> Answer:
        """The table's verdict on a dare a bot of the user's tried (a program, a py: class):
        nobody watches a bot do a dare and a bot does not judge its own (one that always said
        'done' would gain a free edge), so the table judges it by the bot's ``daring`` (in
        16; a program's is :data:`DEFAULT_DARING`), drawn from the seed at this point of the
        match: the built-in bots' own verdicts are such draws, by their profiles."""
        daring = getattr(bot, "daring", DEFAULT_DARING)
        done = Rng(match.seed or 0, f"verdict/{match.logged}").bits(4) < daring
        return Answer(seat, "done" if done else "failed")

    @staticmethod
    def reaction_ms(bot: Any, draw: int) -> int:
        """The reaction time (ms) a race ``draw`` gives ``bot`` by its profile."""
        lo, hi = getattr(bot, "reaction", DEFAULT_REACTION)
        return int(lo + (hi - lo) * draw // (RACE_DRAWS - 1))

    # -- notation ------------------------------------------------------------------------------
    def _cards(self, cards: list[int]) -> str:
        return card_list(self.deck, cards, "-", "-")

    @staticmethod
    def _color_name(color: int) -> str:
        return text.COLOR_NAMES[color] if 0 <= color < COLORS else f"#{color}"

    def notate(self, ev: Event) -> str:
        t = type(ev)
        tok = self.deck.token
        if t is _PLAY:
            assert isinstance(ev, Play)
            color = "" if ev.color is None else " " + self._color_name(ev.color)
            return f"p{ev.seat} play {tok(ev.card)}{color}{' uno' if ev.uno else ''}"
        if t is _DRAW or t is _KEEP or t is _UNO or t is _PASS:
            return f"p{ev.seat} {ev.__struct_config__.tag}"  # type: ignore[attr-defined]
        if t is _ANSWER:
            assert isinstance(ev, Answer)
            return f"p{ev.seat} {ev.answer}"
        if t is _CATCH:
            assert isinstance(ev, Catch)
            return f"p{ev.seat} catch p{ev.target}"
        if t is _NAME:
            assert isinstance(ev, Name)
            return f"p{ev.seat} color {self._color_name(ev.color)}"
        if t is _PENALTY:
            assert isinstance(ev, Penalty)
            return f"penalty p{ev.seat} draws {ev.count} {ev.why}"
        if t is _RACE:
            assert isinstance(ev, Race)
            return "race " + " ".join(f"p{i}={d}" for i, d in enumerate(ev.draws, 1) if d >= 0)
        if t is _RESHUFFLE:
            assert isinstance(ev, Reshuffle)
            if ev.pile is None:
                return f"reshuffle {ev.size}"
            return f"reshuffle {self._cards(ev.pile)}"
        if t is _SHOW:
            assert isinstance(ev, Show)
            return f"p{ev.seat} shows {self._cards(ev.cards)}"
        if t is _SCORE:
            assert isinstance(ev, Score)
            hands = " ".join(f"p{i}={k}" for i, k in enumerate(ev.hands, 1))
            winner = f"p{ev.winner}" if ev.winner else "-"
            return f"score round {ev.round} winner {winner} hands {hands}"
        if t is _DEAL:
            assert isinstance(ev, Deal)
            head = f"deal round {ev.round} dealer p{ev.dealer} up {tok(ev.up)}"
            if ev.hands is None or ev.pile is None:
                return head
            hands = "".join(f" | p{i} {self._cards(h)}" for i, h in enumerate(ev.hands, 1))
            return f"{head}{hands} | pile {self._cards(ev.pile)}"
        return notate_shared(ev) or repr(ev)

    def parse(self, s: UnoState, line: str) -> Event:
        return self.verbs.parse(s, line, s.n)

    def __init__(self) -> None:
        show, pass_, answer = self._parse_show, self._parse_pass, self._parse_answer
        draw, color = self._parse_draw, self._parse_name
        self.verbs = Verbs[UnoState](
            {"deal": self._parse_deal, "reshuffle": self._parse_reshuffle,
             "penalty": self._parse_penalty, "race": self._parse_race,
             "score": self._parse_score,
             "show": show, "shows": show, "catch": self._parse_catch, "uno": self._parse_uno,
             "pass": pass_, "go": pass_, "draw": draw, "d": draw, "keep": self._parse_keep,
             "decline": answer, "try": answer, "done": answer, "failed": answer,
             "color": color, "colour": color, "name": color, "play": self._parse_play_verb,
             # a line that starts with a color word is a move ('red'), not a name
             **dict.fromkeys(text.COLOR_WORDS, self._parse_other)},
            self._parse_other,
            lambda s: text.empty_move(s.n),
            seatless=("deal", "reshuffle", "penalty", "race", "score"))

    @staticmethod
    def _who(s: UnoState, m: Typed) -> int:
        """Who moves: the seat typed, else the one whose move it is; while a deal is awaited,
        the player after the dealer, who plays first once a card is turned up (there is no
        turn yet: before the first deal it is seat 0, which a refusal must not quote)."""
        if m.seat is not None:
            return m.seat
        return s.dealer % s.n + 1 if s.phase == "deal" else s.turn

    def _parse_show(self, s: UnoState, m: Typed) -> Event:
        return Show(m.seat or self._next_show(s) or 1, self._parse_cards(" ".join(m.args)))

    def _parse_catch(self, s: UnoState, m: Typed) -> Event:
        args = m.args
        if len(args) != 1:
            raise ParseError(text.catch_names_one(s.n))
        target = seat_of(args[0], s.n)
        if target is None:
            raise ParseError(no_player(args[0], s.n, text.catch_example(s.n)))
        # untyped: the first player after the one caught, in the direction of play
        return Catch(s.step(target, 1) if m.seat is None else m.seat, target)

    def _parse_uno(self, s: UnoState, m: Typed) -> Event:
        if m.args:
            return self._parse_other(s, m)
        return Uno(m.seat if m.seat is not None else (s.window or self._who(s, m)))

    def _parse_pass(self, s: UnoState, m: Typed) -> Event:
        if m.args:
            return self._parse_other(s, m)
        who = self._who(s, m)
        if s.phase == "drawn" and who == s.turn and (m.seat is not None or not s.window):
            return Keep(who)
        return Pass(who)

    def _parse_draw(self, s: UnoState, m: Typed) -> Event:
        return self._parse_other(s, m) if m.args else Draw(self._who(s, m))

    def _parse_keep(self, s: UnoState, m: Typed) -> Event:
        return self._parse_other(s, m) if m.args else Keep(self._who(s, m))

    def _parse_answer(self, s: UnoState, m: Typed) -> Event:
        if m.args:
            return self._parse_other(s, m)
        return Answer(self._who(s, m), m.verb)  # type: ignore[arg-type]

    def _parse_name(self, s: UnoState, m: Typed) -> Event:
        if len(m.args) != 1:
            return self._parse_other(s, m)
        return Name(self._who(s, m), self._color(m.args[0]))

    def _parse_play_verb(self, s: UnoState, m: Typed) -> Event:
        if not m.args:
            raise ParseError("'play' needs a card after it, e.g. 'play R5'")
        return self._parse_play(self._who(s, m), m.args[0], m.args[1:], s.n)

    def _parse_other(self, s: UnoState, m: Typed) -> Event:
        """A card played (``R5``), or a color named alone while one is to be named."""
        verb = m.verb
        if s.phase == "name" and len(m.words) == 1 and verb in text.COLOR_WORDS:
            return Name(self._who(s, m), self._color(verb))
        if len(m.words) == 1 and verb in text.COLOR_WORDS:  # not now: no color to name
            raise ParseError(text.LONE_COLOR)
        if verb in text.COLOR_WORDS:  # 'red 5', 'blue skip', 'red pass'
            raise ParseError(text.color_first(m.words, self._spelt(m.words), s.n))
        if verb in self.verbs.handlers and verb != "play":  # 'draw 2', 'color'
            raise ParseError(text.words_after(verb, m.args))
        return self._parse_play(self._who(s, m), m.words[0], m.args, s.n)  # as typed

    def _spelt(self, words: list[str]) -> str | None:
        """The card that a color word and the words after it spell ('red 5' R5, 'blue skip'
        BS, 'green dare 5' GD5), as it is typed; None when they spell none."""
        letter = text.COLOR_NAMES[text.COLOR_WORDS[words[0].lower()]][0].upper()
        token = letter + "".join(text.SYMBOL_WORDS.get(w.lower(), w.upper()) for w in words[1:])
        try:
            card = self.deck.parse(token)
        except ParseError:
            return None
        return self.deck.token(card)

    def _parse_play(self, seat: int, word: str, args: list[str], n: int) -> Play:
        """``word`` played by ``seat`` (``args``: a color, 'uno'); ``n``: the players."""
        try:
            card = self.deck.parse(word)
        except ParseError:
            raise ParseError(text.not_a_move(word, n)) from None
        if card < 0:
            raise ParseError("a played card is face up: name it")
        low = [a.lower() for a in args]
        uno = "uno" in low  # after the card or after its color: 'WD12 red uno', 'WD12 uno red'
        if uno:
            args = args[:low.index("uno")] + args[low.index("uno") + 1:]
        color = None
        if len(args) == 1:
            color = self._color(args[0])
        elif args:
            raise ParseError(f"after the card only a color (for a Wild Dare) and 'uno' may "
                             f"follow, not {quoted(' '.join(args))}")
        return Play(seat, card, color, uno)

    @staticmethod
    def _color(word: str) -> int:
        color = text.COLOR_WORDS.get(word.lower())
        if color is None:
            raise ParseError(f"{quoted(word)} is not a color (red, yellow, green, blue or R, "
                             "Y, G, B)")
        return color

    def _parse_cards(self, body: str) -> list[int]:
        return cards_in(self.deck, body)

    def _parse_deal(self, s: UnoState, m: Typed) -> Event:
        parts = " ".join(m.args).split("|")
        head = parts[0].split()
        low = [w.lower() for w in head]
        rnd, dealer = s.round, s.dealer
        if len(head) == 6 and low[0] == "round" and low[2] == "dealer" and low[4] == "up":
            rnd = number(head[1], 1, LOG_INT, "a round")
            seat = seat_of(head[3], s.n)
            if seat is None:
                raise ParseError(f"{quoted(head[3])} is not a seat like p2")
            dealer = seat
            head = head[5:]
        elif low[:1] == ["up"]:
            head = head[1:]
        if len(head) != 1:
            raise ParseError("a deal reads 'deal R5' (the card turned up) at a real table")
        up = self.deck.parse(head[0])
        if len(parts) == 1:
            return Deal(rnd, dealer, up)
        hands: list[list[int]] = []
        pile: list[int] | None = None
        for k, part in enumerate(parts[1:], start=2):
            words = part.split(None, 1)  # (the cards apart by '-', spaces or commas)
            if len(words) != 2:
                raise ParseError("each part of a deal reads 'pN CARDS' or 'pile CARDS'")
            cards = [] if words[1].strip() == "-" else self._parse_cards(words[1])
            if words[0].lower() == "pile":
                if k != len(parts):  # (one pile, after the hands: a second one was kept
                    # over the first, which was dropped without a word)
                    raise ParseError("the pile is the last part of a deal, given once: "
                                     "'deal R5 | p1 CARDS | ... | pile CARDS'")
                pile = cards
                continue
            if in_seat_order(part, len(hands) + 1, s.n, "hand", "the deal")[0] is None:
                raise ParseError("each part of a deal reads 'pN CARDS' or 'pile CARDS'")
            hands.append(cards)
        return Deal(rnd, dealer, up, hands, pile)

    def _parse_reshuffle(self, s: UnoState, m: Typed) -> Event:
        args = m.args
        if not args:
            return Reshuffle(max(len(s.discards) - 1, 0))
        if len(args) == 1 and args[0].isdigit():
            return Reshuffle(number(args[0], 0, DECK_SIZE, "a reshuffle"))
        pile = self._parse_cards(" ".join(args))
        return Reshuffle(len(pile), pile)

    def _parse_penalty(self, s: UnoState, m: Typed) -> Event:
        args, low = m.args, m.low
        shape = "a penalty reads 'penalty p2 draws 2 declined' (declined, failed, uno, last)"
        if len(args) != 4 or low[1] != "draws" or low[3] not in ("declined", "failed",
                                                                 "uno", "last"):
            raise ParseError(shape)
        seat = seat_of(args[0], s.n)
        if seat is None:
            raise ParseError(shape)
        return Penalty(seat, number(args[2], 0, DECK_SIZE, "a penalty"),
                       low[3])  # type: ignore[arg-type]

    def _parse_race(self, s: UnoState, m: Typed) -> Event:
        draws = [-1] * s.n
        for word in m.args:
            key, sep, val = word.partition("=")
            seat = seat_of(key, s.n)
            value = whole(val, 0, RACE_DRAWS - 1)
            if seat is None or not sep or value is None:
                raise ParseError(f"{quoted(word)} should read pN=DRAW (DRAW 0-{RACE_DRAWS - 1})")
            draws[seat - 1] = value
        return Race(draws)

    def _parse_score(self, s: UnoState, m: Typed) -> Event:
        args, low = m.args, m.low
        shape = "a score reads 'score round N winner pN hands p1=POINTS ...'"
        if len(args) != 5 + s.n or low[0] != "round" or low[2] != "winner" \
                or low[4] != "hands":
            raise ParseError(shape)
        winner = 0
        if args[3] != "-":
            seat = seat_of(args[3], s.n)
            if seat is None:
                raise ParseError(shape)
            winner = seat
        hands = []
        for i, word in enumerate(args[5:], 1):
            key, sep, val = word.partition("=")
            value = whole(val, 0, LOG_INT)
            if key.lower() != f"p{i}" or not sep or value is None:
                raise ParseError(shape)
            hands.append(value)
        return Score(number(args[1], 1, LOG_INT, "a round"), winner, hands)

    # -- views ---------------------------------------------------------------------------------
    def view(self, s: UnoState, seat: int | None = None) -> dict[str, Any]:
        tok = self.deck.token

        def hand(p: int) -> list[str] | int:
            if hand_seen(s, p, seat):
                return [tok(c) for c in s.hands[p]]
            return len(s.hands[p])

        dealt = s.phase != "deal"
        dare = s.hit_number
        return {
            "game": self.name,
            "round": s.round,
            "dealer": s.dealer,
            "phase": s.phase,
            "top": tok(s.discards[-1]) if dealt and s.discards else None,
            "color": text.COLOR_NAMES[s.color] if dealt and s.phase != "name" else None,
            "direction": "clockwise" if s.direction > 0 else "counter-clockwise",
            "turn": f"p{s.turn}" if s.turn and self.pending(s).kind == "action" else None,
            "hit": f"p{s.hit}" if s.hit else None,
            "dare": {"number": dare, "text": text.dare_text(s.rules, dare)} if dare else None,
            # the card just drawn, under its holder's seat (only that seat sees it)
            "drawn": ({f"p{s.turn}": tok(s.drawn)} if s.phase == "drawn" and seat in (None, s.turn)
                      else None),
            "uno_missing": f"p{s.window}" if s.window else None,
            "pile": len(s.pile),
            "discards": len(s.discards),
            "hands": {f"p{p}": hand(p) for p in range(1, s.n + 1)},
            "cards": {f"p{p}": len(s.hands[p]) for p in range(1, s.n + 1)},
            "scores": {f"p{p}": s.totals[p] for p in range(1, s.n + 1)},
            "target": s.rules.target,
        }

    def outcome(self, s: UnoState) -> dict[str, Any] | None:
        if s.phase != "over":
            return None
        totals = s.totals[1:]
        best = min(totals) if s.rules.scoring == "lowest" else max(totals)
        return {
            "scoring": s.rules.scoring,
            "scores": {f"p{p}": s.totals[p] for p in range(1, s.n + 1)},
            "winners": [f"p{p}" for p in range(1, s.n + 1) if s.totals[p] == best],
            "rounds": [{"round": r.round, "winner": f"p{r.winner}" if r.winner else None,
                        "hands": {f"p{p}": k for p, k in enumerate(r.hands, 1)}}
                       for r in s.history],
        }


def stuck(s: UnoState) -> bool:
    """Whether the last ``stuck_rounds`` rounds (house rule) all scored nothing, under either
    scoring: each ran out of turns with nobody out, or was won with only zeros left in the
    hands. The match then ends, the scores as they stand deciding it, as at the target: bots
    that never play a card, or go out against hands of zeros, would otherwise play for ever."""
    k = s.rules.stuck_rounds
    last = s.history[-k:]
    return len(last) == k and all(not r.winner or not sum(r.hands) for r in last)


def _describe(key: tuple[Any, ...]) -> Pending:
    """What an Uno Dare state waits for, from its key (see :meth:`UnoDare.pending`)."""
    phase = key[0]
    if phase == "reshuffle":
        under = key[1] - 1  # the discards under the top card
        return Pending("chance", f"the reshuffle of {counted(under, 'discard', 'discards')} "
                       "into a new draw pile")
    if phase == "todo":
        code, seat = key[1], key[2]
        if code == T_PENALTY:
            return Pending("auto", f"p{seat}'s penalty draw")
        if code == T_SHOW:
            return Pending("chance", f"p{key[3]} to show the cards left")
        return Pending("auto", "the score of the round" if code == T_SCORE
                       else "the end of the match")
    if phase == "deal":
        return Pending("chance", f"the deal of round {key[1]} by p{key[2]}")
    if phase == "over":
        return Pending("over", "nothing: the match is over")
    _, seat, window, top_card, color, hit_number, n, physical = key
    tok = UNO_DARE_108.token
    if phase == "turn":
        what = f"p{seat} to play on {tok(top_card)} ({text.COLOR_NAMES[color]}) or draw"
    elif phase == "drawn":
        what = f"p{seat} to play the card just drawn or keep it"
    elif phase == "name":
        what = f"p{seat} to name the color of the {tok(top_card)}"
    elif phase == "hit":
        what = f"p{seat}, hit by dare #{hit_number}, to try it or decline (draw 2)"
    else:
        what = f"the table's verdict on p{seat}'s dare #{hit_number}: done or failed"
    if not window:
        return Pending("action", what, (seat,))
    return Pending("action", f"{what}; p{window} has one card and did not call UNO",
                   tuple(range(1, n + 1)), not physical)


_PENDINGS: Final = Pendings(_describe, 50_000)

GAME = UnoDare()
