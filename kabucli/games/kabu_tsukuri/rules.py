"""Kabu-Tsukuri (かぶ作り): lay nine cards in three face-down rows; each row is a showdown.

The rules as kabucli plays them are in docs/rules/kabu-tsukuri.md. Each hand deals 10 cards
to each of 2-4 players (9 to each of 5) from the 48-card hanafuda deck counted by month. Each
player sets one card aside (with ten) and lays the other nine face down in three rows of three,
in an order of their choosing (:class:`Arrange`, secret until each row is turned over). Then
three rounds: everyone bets ``bet`` chips, everyone turns the round's row over, and the
strongest row takes the pot; a tie for strongest carries the pot to the next row, and after
row 3 into the next hand. A match is ``hands`` hands.

A seeded game records one :class:`Stakes` (every seat's bet) and one :class:`Turn` (every
seat's row) per round. At a real table (physical mode) nothing is dealt by the program: the
referee records each bet (:class:`Bet`) and each row as it is turned over (:class:`Show`).
"""

from __future__ import annotations

from typing import Any, Final

from kabucli.cards import HANAFUDA_48, HANAFUDA_MONTHS, UNKNOWN, month_of
from kabucli.engine import Game, Pending, Pendings
from kabucli.errors import ParseError
from kabucli.events import End, Event, Undo
from kabucli.games.kabu_tsukuri import text
from kabucli.games.kabu_tsukuri.events import (  # re-exported: the game's module names them all
    Arrange as Arrange,
    Bet as Bet,
    Deal as Deal,
    KabuRules as KabuRules,
    Result as Result,
    Show as Show,
    Stakes as Stakes,
    Turn as Turn,
)
from kabucli.games.kabu_tsukuri.solver import STRENGTH, Model, best_plans
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
    parse_seat,
    seat_list,
)
from kabucli.safetext import quoted, short_number
from kabucli.shuffle import Rng

# The event classes the hot paths tell events apart by, as static names: compiled,
# an imported name is looked up in the module's dict at every use, a Final one is
# read directly.
_ARRANGE: Final = Arrange
_BET: Final = Bet
_DEAL: Final = Deal
_END: Final = End
_RESULT: Final = Result
_SHOW: Final = Show
_STAKES: Final = Stakes
_TURN: Final = Turn

# The named hanafuda cards (1b, 3r, 12c3), lower case, with their months: refused with a word
# on what to type instead. Kabu-Tsukuri counts months, and its log keeps months only, so it
# could not tell one named card shown twice (an impossible showing) from two of its month.
_NAMED: Final = {tok.lower(): month_of(code) for code, tok in HANAFUDA_48.tokens.items()}

ROWS: Final = 3
ROW: Final = 3  # cards in a row
MONTHS: Final = 12


def hand_size(players: int) -> int:
    """Cards dealt to each player: 10 to each of 2-4 players, 9 to each of 5."""
    return 9 if players == 5 else 10


def strength(row: list[int] | tuple[int, ...], ranking: str) -> int:
    """The strength of a row in laid order (see solver.row_strength); higher wins."""
    return STRENGTH[ranking][(row[0] * 13 + row[1]) * 13 + row[2]]


# -- state ----------------------------------------------------------------------------------

class KabuState:
    """Everything about a Kabu-Tsukuri match at one moment. Lists are indexed by seat (1..n).

    ``cards`` are the dealt hands (sorted; empty at a real table), ``rows`` and ``aside`` each
    seat's secret arrangement once laid, ``shown`` the rows turned over so far this hand,
    ``seen`` the cards turned over this hand (checked against the deck at a real table),
    ``carried`` the pot the last tie carried on, ``last_shown`` the rows of the hand before,
    all turned over, until the next hand is dealt (what the table shows between hands).
    """

    __slots__ = ("aside", "cards", "carried", "dealer", "hand", "history", "last_shown",
                 "ledger", "n", "order", "pend", "phase", "physical", "rest", "row", "rows",
                 "rules", "seen", "shown", "size", "table", "turn")

    def __init__(self, rules: KabuRules, n: int, physical: bool) -> None:
        self.rules = rules
        self.n = n
        self.physical = physical
        self.size = hand_size(n)
        self.table = STRENGTH[rules.ranking]
        self.ledger = Ledger(n, rules.chips)
        self.history: list[Result] = []
        self.hand = 1
        self.dealer = 1
        self.carried = 0  # the pot a tie carried into the coming row
        self.pend: Pending | None = None  # see KabuTsukuri.pending
        self.last_shown: list[list[list[int]]] = []
        self._reset_hand()

    def _reset_hand(self) -> None:
        n = self.n
        self.order = [(self.dealer + i - 1) % n + 1 for i in range(1, n + 1)]
        self.cards: list[list[int]] = [[] for _ in range(n + 1)]
        self.rest: list[int] = []
        self.rows: list[list[list[int]] | None] = [None] * (n + 1)
        self.aside: list[list[int]] = [[] for _ in range(n + 1)]
        self.shown: list[list[list[int]]] = [[] for _ in range(n + 1)]
        self.seen: dict[int, int] = {}  # card: copies turned over (a real table's Show)
        self.row = 1
        self.turn = 0
        self.phase = "deal"

    @property
    def actor(self) -> int:
        return self.order[self.turn]

    def level(self, row: list[int]) -> int:
        return self.table[(row[0] * 13 + row[1]) * 13 + row[2]]

    def levels(self) -> dict[int, int]:
        """The strength of each row turned over in this round, by seat."""
        r = self.row - 1
        return {p: self.level(self.shown[p][r]) for p in self.order if len(self.shown[p]) > r}


# -- the game -------------------------------------------------------------------------------

class KabuTsukuri(Game[KabuState, KabuRules]):
    name = "kabu-tsukuri"
    title = "Kabu-Tsukuri"
    summary = "hanafuda, 2-5 players: lay three face-down rows; each row is a showdown"
    deck = HANAFUDA_MONTHS
    Rules = KabuRules
    events = (Deal, Arrange, Bet, Stakes, Turn, Show, Result, End, Undo)
    public_chance = (Turn, Show)  # a row turned over at every seat, or at one
    min_players = 2
    max_players = 5
    default_players = 4

    def new_state(self, rules: KabuRules, seats: int, physical: bool) -> KabuState:
        return KabuState(rules, seats, physical)

    # -- what the state waits for ----------------------------------------------------------
    def pending(self, s: KabuState) -> Pending:
        p = s.pend  # None once an event changed the state
        if p is not None:
            return p
        # the key: what _describe reads
        phase = s.phase
        if phase == "arrange" or (s.physical and phase in ("bets", "show")):
            key: tuple[Any, ...] = (phase, s.row, s.order[s.turn], s.physical)
        elif phase == "deal":
            key = (phase, s.hand, s.dealer)
        else:
            key = (phase, s.row, s.physical)
        p = _PENDINGS.get(key)  # a dict's get: the fastest lookup, compiled or not
        if p is None:
            p = _PENDINGS[key]  # made now
        s.pend = p
        return p

    # -- checks ------------------------------------------------------------------------------
    def check(self, s: KabuState, ev: Event) -> str | None:
        # An action is awaited in phase "arrange" (seeded) or "bets" (a real table), from
        # the seat whose turn it is (the engine checked that); a chance event reaches here
        # only at a real table.
        if type(ev) is _ARRANGE:
            return self._check_arrange(s, ev)
        if type(ev) is _BET:
            if s.phase != "bets":
                return f"no bet is due now (waiting for {self.pending(s).what})"
            return None
        if type(ev) is _SHOW:
            return self._check_show(s, ev)
        if type(ev) is _DEAL:
            return self._check_deal(s, ev)
        if type(ev) is _TURN:
            return "at a real table each row is shown seat by seat (e.g. 'show 3-4-5')"
        return f"{type(ev).__name__} is not a Kabu-Tsukuri event"

    def _check_deal(self, s: KabuState, ev: Deal) -> str | None:
        # a real table: a seeded game's deal is the seed's
        if s.phase != "deal":
            return f"hand {s.hand} is already dealt (waiting for {self.pending(s).what})"
        if ev.hand != s.hand or ev.dealer != s.dealer:
            return (f"this is the deal of hand {s.hand} by p{s.dealer}, "
                    f"not of hand {ev.hand} by p{ev.dealer}")
        if ev.hands is not None or ev.rest is not None:
            return text.DEAL_FACE_DOWN
        return None

    def _check_arrange(self, s: KabuState, ev: Arrange) -> str | None:
        if s.phase != "arrange":  # a real table
            return "at a real table rows are learnt as they are turned over: " \
                   f"waiting for {self.pending(s).what}"
        # (each field read once: a field of an event is a Python attribute, compiled or not,
        # and this check runs for every arrangement an audit reads)
        rows = ev.rows
        aside = ev.aside
        if len(rows) != ROWS:
            return f"an arrangement is {ROWS} rows of {ROW} cards, not {self._rows(rows)}"
        first, second, third = rows
        if len(first) != ROW or len(second) != ROW or len(third) != ROW:
            return f"an arrangement is {ROWS} rows of {ROW} cards, not {self._rows(rows)}"
        spare = s.size - ROWS * ROW
        if len(aside) != spare:
            return (f"with {s.size} cards one is set aside (add 'aside CARD')" if spare
                    else f"with {s.size} cards none is set aside")
        laid = first + second + third + aside
        laid.sort()
        hand = s.cards[ev.seat]
        if laid != hand:  # the hand is sorted
            return f"p{ev.seat}'s hand is {self._set(hand)}, not {self._set(laid)}"
        return None

    def _check_show(self, s: KabuState, ev: Show) -> str | None:
        # a real table: in a seeded game every row is turned over at once (a Turn)
        if s.phase != "show":
            return f"no row is turned over now (waiting for {self.pending(s).what})"
        if ev.seat != s.actor:
            return text.not_their_row(s, ev.seat)
        if len(ev.cards) != ROW or UNKNOWN in ev.cards:
            return f"a row is {ROW} named cards, not {self._set(ev.cards)}"
        why = self.deck.check_available(s.seen, ev.cards)
        return None if why is None else (
            f"{why}: type the row p{ev.seat} turns over again, as its cards show")

    # -- changes -----------------------------------------------------------------------------
    def apply(self, s: KabuState, ev: Event) -> None:
        s.pend = None
        # one module function per event, the commonest first (a turn and the stakes written
        # out: with the result they are most of a seeded match's events)
        if type(ev) is _TURN:
            for p, row in enumerate(ev.rows, start=1):
                s.shown[p].append(list(row))
            s.phase = "result"
        elif type(ev) is _STAKES:
            bal = s.ledger.balances
            for p in range(1, s.n + 1):
                bal[p] -= ev.amount
            bal[POT] += ev.amount * s.n
            s.phase = "show"
        elif type(ev) is _RESULT:
            _apply_result(s, ev)
        elif type(ev) is _ARRANGE:
            _apply_arrange(s, ev)
        elif type(ev) is _DEAL:
            _apply_deal(s, ev)
        elif type(ev) is _BET:
            _apply_bet(s)
        elif type(ev) is _SHOW:
            _apply_show(s, ev)
        elif type(ev) is _END:
            s.phase = "over"
        else:
            raise TypeError(f"{type(ev).__name__} is not a Kabu-Tsukuri event")

    # -- what the engine derives -------------------------------------------------------------
    def auto(self, s: KabuState) -> Event:
        if s.phase == "bets":
            return Stakes(s.row, s.rules.bet)
        if s.phase == "result":
            return _result(s)
        if s.phase == "end":
            return End("hands", s.ledger.balances[1:], s.ledger.pot)
        raise AssertionError(f"no automatic event in phase {s.phase}")

    def chance(self, s: KabuState, rng: Rng) -> Event:
        if s.phase == "deal":
            deck = rng.shuffled(_CARDS)
            k = s.size
            hands = [sorted(deck[i * k:(i + 1) * k]) for i in range(s.n)]
            return Deal(s.hand, s.dealer, hands, sorted(deck[s.n * k:]))
        r = s.row - 1
        rows = []
        for p in range(1, s.n + 1):
            laid = s.rows[p]
            assert laid is not None
            rows.append(laid[r])
        return Turn(s.row, rows)

    def legal(self, s: KabuState, seat: int) -> list[Event]:
        """Bets are listed; arrangements are not (up to 3,628,800 of them, see the hint)."""
        if s.phase == "bets" and s.physical and seat == s.actor:
            return [Bet(seat)]
        return []

    def move_words(self, s: KabuState) -> list[str]:
        if s.phase == "show" and s.physical:
            return [f"p{s.actor} shows"]
        return ["deal"] if s.phase == "deal" else []

    # -- notation ------------------------------------------------------------------------------
    def hidden_from(self, ev: Event, viewer: int) -> bool:
        """An arrangement (rows and the card set aside) is secret to every seat but its own;
        the rows are seen as they are turned over (Turn, Show). Other events as for every
        game (:meth:`Game.hidden_from`)."""
        if type(ev) is _ARRANGE:
            return ev.seat != viewer
        return super().hidden_from(ev, viewer)

    def _set(self, cards: list[int] | tuple[int, ...]) -> str:
        return card_list(self.deck, cards)

    def _rows(self, rows: list[list[int]]) -> str:
        return " ".join(self._set(r) for r in rows)

    def notate(self, ev: Event) -> str:
        if type(ev) is _ARRANGE:
            aside = f" aside {self._set(ev.aside)}" if ev.aside else ""
            return f"p{ev.seat} rows {self._rows(ev.rows)}{aside}"
        if type(ev) is _TURN:
            rows = "".join(f" | p{p} {self._set(r)}" for p, r in enumerate(ev.rows, 1))
            return f"turn row {ev.row}{rows}"
        if type(ev) is _STAKES:
            return f"stakes row {ev.row} {ev.amount} each"
        if type(ev) is _RESULT:
            head = f"result hand {ev.hand} row {ev.row}"
            if len(ev.best) == 1:
                return f"{head} p{ev.best[0]} takes {ev.amount}"
            return f"{head} tie {seat_list(ev.best, ',')} carries {ev.amount}"
        if type(ev) is _BET:
            return f"p{ev.seat} bets"
        if type(ev) is _SHOW:
            return f"p{ev.seat} shows {self._set(ev.cards)}"
        if type(ev) is _DEAL:
            if ev.hands is None:
                return "deal"
            hands = "".join(f" | p{p} {self._set(h)}" for p, h in enumerate(ev.hands, 1))
            return f"deal{hands} | rest {self._set(ev.rest or [])}"
        return notate_shared(ev) or repr(ev)

    def _cards(self, text: str) -> list[int]:
        """Cards joined by '-', or apart by spaces or commas ('1-1-3', '1 1 3', '1, 1, 3'),
        as every game reads a list (:func:`cards_in`); a hanafuda card named by its kind
        (3b) is refused with its month."""
        for t in text.replace(",", " ").replace("-", " ").split():
            month = _NAMED.get(t.lower())
            if month is not None:
                raise ParseError(f"{quoted(t)}: Kabu-Tsukuri counts cards by month only, so a card "
                                 f"is typed as its month ('{month}' for {t})")
        return cards_in(self.deck, text, "months 1-12")

    def _row(self, word: str) -> list[int]:
        cards = self._cards(word)
        if len(cards) != ROW:
            raise ParseError(f"{quoted(word)} is not a row of three cards joined by '-' "
                             "(e.g. 3-4-5)")
        return cards

    def _row_shown(self, text: str) -> list[int]:
        """A row turned over (a show, a turn): its three cards joined by '-', or apart by
        spaces or commas."""
        cards = self._cards(text)
        if len(cards) != ROW:
            raise ParseError(f"{quoted(text.strip())} is not a row of three cards (e.g. 3-4-5)")
        return cards

    def parse(self, s: KabuState, text: str) -> Event:
        return self.verbs.parse(s, text, s.n)

    def __init__(self) -> None:
        bet, show, lay = self._parse_bet, self._parse_show, self._parse_lay
        self.verbs = Verbs[KabuState](
            {"deal": self._parse_deal, "turn": self._parse_turn, "stakes": self._parse_stakes,
             "result": self._parse_result, "bet": bet, "bets": bet, "show": show,
             "shows": show, "rows": lay, "row": lay, "lay": lay, "lays": lay, "arrange": lay,
             "arranges": lay},
            self._parse_bare_rows, self._empty,
            seatless=("deal", "turn", "stakes", "result"))

    @staticmethod
    def _empty(s: KabuState) -> str:
        """A line with no move: what is typed now (a referee turns rows over, a seat of a
        seeded game lays them)."""
        return f"empty move: {text.hint(s, s.actor) or text.EMPTY}"

    @staticmethod
    def _mover(s: KabuState, seat: int | None) -> int:
        """Who moves: the seat typed, else the one whose turn it is."""
        return seat or (s.actor if s.phase in ("arrange", "bets", "show") else s.order[0])

    def _parse_bet(self, s: KabuState, m: Typed) -> Event:
        if m.args:
            raise ParseError(text.bet_takes_nothing(m.words[0], s.rules.bet))
        return Bet(self._mover(s, m.seat))

    def _parse_show(self, s: KabuState, m: Typed) -> Event:
        if not m.args:
            raise ParseError("a row turned over reads 'show 3-4-5' (in laid order)")
        return Show(self._mover(s, m.seat), self._row_shown(" ".join(m.args)))

    def _parse_lay(self, s: KabuState, m: Typed) -> Event:
        return self._parse_arrange(self._mover(s, m.seat), m.args)

    def _parse_bare_rows(self, s: KabuState, m: Typed) -> Event:
        if not any(ch.isdigit() for ch in m.verb):
            raise ParseError(text.not_a_move(m.words[0], s))
        return self._parse_arrange(self._mover(s, m.seat), m.words)

    def _parse_arrange(self, seat: int, words: list[str]) -> Arrange:
        aside: list[int] = []
        low = [w.lower() for w in words]
        if "aside" in low:
            at = low.index("aside")
            aside = [c for w in words[at + 1:] for c in self._cards(w)]
            if not aside:
                raise ParseError("'aside' needs the card set aside after it, e.g. 'aside 12'")
            words = words[:at]
        if len(words) != ROWS:
            raise ParseError(text.not_three_rows(len(words)))
        return Arrange(seat, [self._row(w) for w in words], aside)

    def _parse_deal(self, s: KabuState, m: Typed) -> Event:
        args = m.args
        joined = " ".join(args).strip()
        if not joined:
            return Deal(s.hand, s.dealer)
        parts = [p.strip() for p in joined.split("|")]
        if parts[0]:
            raise ParseError(text.DEAL_FACE_DOWN if s.physical
                             else "a deal reads 'deal' or 'deal | p1 CARDS | ... | rest CARDS'")
        hands: list[list[int]] = []
        rest: list[int] | None = None
        for i, part in enumerate(parts[1:], start=1):
            if part.lower().startswith("rest"):
                rest = sorted(self._cards(part[4:]))
                continue
            cards = in_seat_order(part, i, s.n, "hand", "the deal")[1]
            hands.append(sorted(self._cards(cards)))
        return Deal(s.hand, s.dealer, hands, rest if rest is not None else [])

    def _parse_turn(self, s: KabuState, m: Typed) -> Event:
        args = m.args
        parts = [p.strip() for p in " ".join(args).split("|")]
        head = parts[0].split()
        if len(head) != 2 or head[0].lower() != "row":
            raise ParseError("a turn reads 'turn row N | p1 A-B-C | p2 ...'")
        rows = []
        for i, part in enumerate(parts[1:], start=1):
            cards = in_seat_order(part, i, s.n, "row", "the turn")[1]
            rows.append(self._row_shown(cards))
        return Turn(number(head[1], 1, ROWS, "a row"), rows)

    def _parse_stakes(self, s: KabuState, m: Typed) -> Event:
        args, low = m.args, m.low
        if len(args) not in (3, 4) or low[0] != "row" or low[3:4] not in ([], ["each"]):
            raise ParseError("the bets read 'stakes row N CHIPS each'")
        return Stakes(number(args[1], 1, ROWS, "a row"),
                      number(args[2], 0, LOG_INT, "a bet"))

    def _parse_result(self, s: KabuState, m: Typed) -> Event:
        args, low = m.args, m.low
        shape = ("a result reads 'result hand H row R pN takes CHIPS' or "
                 "'result hand H row R tie pA,pB carries CHIPS'")
        if len(args) < 6 or low[0] != "hand" or low[2] != "row":
            raise ParseError(shape)
        hand = number(args[1], 1, LOG_INT, "a hand")
        row = number(args[3], 1, ROWS, "a row")
        rest, words = args[4:], low[4:]
        if len(rest) == 3 and words[1] == "takes":
            best = [parse_seat(rest[0], s.n)]
        elif len(rest) == 4 and words[0] == "tie" and words[2] == "carries":
            best = [parse_seat(w, s.n) for w in rest[1].split(",")]
        else:
            raise ParseError(shape)
        return Result(hand, row, best, number(rest[-1], 0, LOG_INT, "a pot"))

    # -- views ---------------------------------------------------------------------------------
    def view(self, s: KabuState, seat: int | None = None) -> dict[str, Any]:
        tok = self.deck.token

        def cards(cs: list[int]) -> list[str]:
            return [tok(c) for c in cs]

        def mine(p: int) -> bool:
            return seat is None or seat == p

        seats = range(1, s.n + 1)
        ranking = s.rules.ranking
        return {
            "game": self.name,
            "hand": s.hand,
            "hands": s.rules.hands,
            "dealer": s.dealer,
            "phase": s.phase,
            "row": s.row,
            "turn": s.actor if self.pending(s).kind == "action" else None,
            "pot": s.ledger.pot,
            "chips": s.ledger.by_seat(),
            "cards": {f"p{p}": cards(s.cards[p]) if mine(p) else len(s.cards[p])
                      for p in seats},
            "rows": {f"p{p}": ([cards(r) for r in s.rows[p] or []] if mine(p)
                               else "face down")
                     for p in seats if s.rows[p] is not None},
            "aside": {f"p{p}": cards(s.aside[p]) for p in seats
                      if s.aside[p] and mine(p)},
            "shown": {f"p{p}": [cards(r) for r in s.shown[p]] for p in seats if s.shown[p]},
            "names": {f"p{p}": [text.row_name(s.level(r), ranking) for r in s.shown[p]]
                      for p in seats if s.shown[p]},
        }

    def outcome(self, s: KabuState) -> dict[str, Any] | None:
        if s.phase != "over":
            return None
        return {
            **s.ledger.standings(),
            "rows": [{"hand": r.hand, "row": r.row, "best": [f"p{p}" for p in r.best],
                      "amount": r.amount} for r in s.history],
        }

    def solve(self, rules: KabuRules, words: list[str], players: int | None,
              top: int) -> dict[str, Any]:
        """``kabucli solve``: the ``top`` best arrangements of the hand typed as ``words``
        (9 or 10 months) at a table of ``players``, as plain data; ParseError for a hand
        that cannot be dealt."""
        # (split at spaces too: a hand typed as one quoted word, "1 1 3 4 ...")
        hand = [c for word in words for c in self._cards(word)]
        if players is None:
            players = 5 if len(hand) == 9 else self.default_players
        if not self.min_players <= players <= self.max_players:
            raise ParseError(f"{self.title} takes {self.min_players}-{self.max_players} "
                             f"players, not {short_number(players)}")
        size = hand_size(players)
        if len(hand) != size:
            raise ParseError(f"with {players} players a hand is {size} cards, not {len(hand)}")
        if UNKNOWN in hand:
            raise ParseError("the solver needs every card of the hand named")
        why = self.deck.check_available({}, hand)
        if why is not None:
            raise ParseError(why)
        model = Model(hand, players, rules.ranking, rules.bet)
        tok = self.deck.token
        return {
            "game": self.name, "hand": [tok(c) for c in sorted(hand)], "players": players,
            "ranking": rules.ranking, "bet": rules.bet,
            "model": text.MODEL,
            "arrangements": [{
                "rows": [[tok(c) for c in r] for r in plan.rows],
                "aside": [tok(c) for c in plan.aside],
                "names": [text.row_name(v, rules.ranking) for v in plan.levels],
                "win": [round(model.win[v], 4) for v in plan.levels],
                "tie": [round(model.tie[v], 4) for v in plan.levels],
                "expected": round(plan.ev, 4),
            } for plan in best_plans(model, hand, top)],
        }


def _result(s: KabuState) -> Result:
    """The result of the round: the seats whose row turned over is strongest (in turn order)
    take the pot, or carry it on (s.levels() and its maximum, written out: one per round)."""
    r = s.row - 1
    table = s.table
    shown = s.shown
    top = -1  # every strength is at least 0
    best: list[int] = []
    for p in s.order:
        rows = shown[p]
        if len(rows) > r:
            row = rows[r]
            level = table[(row[0] * 13 + row[1]) * 13 + row[2]]
            if level > top:
                top = level
                best = [p]
            elif level == top:
                best.append(p)
    return Result(s.hand, s.row, best, s.ledger.pot)


# -- changes, one function per event type ------------------------------------------------

def _apply_arrange(s: KabuState, ev: Arrange) -> None:
    s.rows[ev.seat] = [list(r) for r in ev.rows]
    s.aside[ev.seat] = list(ev.aside)
    s.turn += 1
    if s.turn == s.n:
        s.turn = 0
        s.phase = "bets"


def _apply_deal(s: KabuState, ev: Deal) -> None:
    s.last_shown = []
    if ev.hands is not None:
        for p, h in enumerate(ev.hands, start=1):
            s.cards[p] = sorted(h)
        s.rest = sorted(ev.rest or [])
        s.phase = "arrange"
    else:  # a real table: the cards are dealt face down
        s.phase = "bets"


def _apply_bet(s: KabuState) -> None:
    bal = s.ledger.balances
    bal[s.actor] -= s.rules.bet
    bal[POT] += s.rules.bet
    _next_turn(s, "show")


def _apply_show(s: KabuState, ev: Show) -> None:
    s.shown[ev.seat].append(list(ev.cards))
    seen = s.seen
    for c in ev.cards:
        seen[c] = seen.get(c, 0) + 1
    _next_turn(s, "result")


def _next_turn(s: KabuState, then: str) -> None:
    s.turn += 1
    if s.turn == s.n:
        s.turn = 0
        s.phase = then


def _apply_result(s: KabuState, ev: Result) -> None:
    s.history.append(ev)
    s.carried = 0 if len(ev.best) == 1 else ev.amount
    if len(ev.best) == 1:
        bal = s.ledger.balances
        bal[POT] -= ev.amount
        bal[ev.best[0]] += ev.amount
    if s.row < ROWS:
        s.row += 1
        s.phase = "bets"
        return
    if s.rules.dealer == "rotate":
        s.dealer = s.dealer % s.n + 1
    elif len(ev.best) == 1:
        s.dealer = ev.best[0]
    if s.hand == s.rules.hands:
        s.phase = "end"
        return
    s.hand += 1
    kept = s.shown
    s._reset_hand()
    s.last_shown = kept


def _describe(key: tuple[Any, ...]) -> Pending:
    """What a Kabu-Tsukuri state waits for, from its key (see :meth:`KabuTsukuri.pending`):
    (phase, row, seat to act, physical), (phase, hand, dealer) or (phase, row, physical)."""
    phase = key[0]
    if phase == "arrange":
        return Pending("action", f"p{key[2]} to lay three rows", (key[2],))
    if phase == "deal":
        return Pending("chance", f"the deal of hand {key[1]} by p{key[2]}")
    if phase == "bets":
        if key[-1]:  # physical: the seat to bet is key[2]
            return Pending("action", f"p{key[2]}'s bet on row {key[1]}", (key[2],))
        return Pending("auto", f"the bets on row {key[1]}")
    if phase == "show":
        if key[-1]:
            return Pending("chance", f"p{key[2]} to turn row {key[1]} over")
        return Pending("chance", f"row {key[1]} turned over")
    if phase == "result":
        return Pending("auto", f"the result of row {key[1]}")
    if phase == "end":
        return Pending("auto", "the end of the match")
    return Pending("over", "nothing: the match is over")


_PENDINGS: Final = Pendings(_describe)
_CARDS = tuple(HANAFUDA_MONTHS.cards())  # the deck in its canonical order, as every deal starts

GAME = KabuTsukuri()
