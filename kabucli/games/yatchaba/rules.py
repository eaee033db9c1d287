"""Yatchaba (やっちゃば): guess the months of three face-down hanafuda cards.

The rules as kabucli plays them, with the gaps we settled, are in docs/rules/yatchaba.md. A
match is ``games`` games; each game is a series of rounds. In a round the *guesser* lays three
cards face down and names three months (repeats allowed). Then come betting laps, from the
guesser round to the seat before the guesser: each player bets the next amount of the rising
sequence, or passes (1 chip, and no more betting this round). After each lap the last player of
the lap still betting says ``continue`` or ``stop``. At the stop the cards are turned over. A
right guess wins the pot (the dealer's first-round guess all of it; a later guesser all but the
dealer's 20%) and ends the game. A wrong guess leaves the cards face up and the next seat that
may still guess lays three more. When nobody was right the dealer takes 20% and the rest of the
pot carries into the next game.

Chips: a Bet or Pass action puts its chips in the pot itself (the amount is in the event, and
a pass is always 1 chip); what leaves the pot is a :class:`~kabucli.events.Pay` event.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb
from typing import Any, ClassVar

from kabucli.cards import HANAFUDA_48, MONTH_NAMES, UNKNOWN, month_of
from kabucli.engine import Game, Pending, parse_seat_prefix
from kabucli.errors import ParseError
from kabucli.events import End, Event, Pay
from kabucli.games.yatchaba.events import (  # re-exported: the game's module names them all
    Bet as Bet,
    Continue as Continue,
    Deal as Deal,
    GameEnd as GameEnd,
    Guess as Guess,
    Pass as Pass,
    Result as Result,
    Reveal as Reveal,
    Stop as Stop,
    YatchabaRules as YatchabaRules,
)
from kabucli.ledger import POT, Ledger
from kabucli.notation import LOG_INT, SHARED_VERBS, notate_shared, number, parse_shared, whole
from kabucli.shuffle import Rng

LAID = 3
COPIES = 4  # cards of each month
MONTHS = 12
PASS_COST = 1
BOOK = (3, 7, 11, 12, 16, 22, 26, 30, 31, 35, 41, 45, 50)
DEALER_SHARE_DIVISOR = 5  # the dealer's share is floor(pot / 5), i.e. 20% rounded down


def amount(schedule: str, step: int) -> int:
    """The amount of the ``step``-th real bet of a round (0-based) under a schedule."""
    if schedule == "count":
        return step + 1
    return BOOK[step] if step < len(BOOK) else BOOK[-1]


# -- odds ----------------------------------------------------------------------------------

# All 364 guesses: ascending triples of months, repeats allowed.
GUESSES: tuple[tuple[int, int, int], ...] = tuple(
    (a, b, c) for a in range(1, MONTHS + 1) for b in range(a, MONTHS + 1)
    for c in range(b, MONTHS + 1))
PAIR_WAYS = (0, 0, 1, 3, 6)  # C(r, 2): ways to pick two of r cards
TRIPLE_WAYS = (0, 0, 0, 1, 4)  # C(r, 3)


def ways(left: list[int], months: tuple[int, ...] | list[int]) -> int:
    """In how many ways 3 cards drawn from the unseen ones have exactly these months.

    ``left[m]`` is the number of unseen cards of month ``m`` (index 0 unused); ``months`` is
    ascending. The count is the product over months of C(unseen, times guessed).
    """
    a, b, c = months
    if a == c:
        return TRIPLE_WAYS[left[a]]
    if a == b:
        return PAIR_WAYS[left[a]] * left[c]
    if b == c:
        return left[a] * PAIR_WAYS[left[b]]
    return left[a] * left[b] * left[c]


def draws(left: list[int]) -> int:
    """How many sets of 3 cards can be drawn from the unseen cards."""
    return comb(sum(left), LAID)


def probability(left: list[int], months: tuple[int, ...] | list[int]) -> Fraction:
    """The exact chance that 3 cards drawn from the unseen ones have these months."""
    total = draws(left)
    return Fraction(ways(left, months), total) if total else Fraction(0)


def best_guesses(left: list[int]) -> tuple[int, list[tuple[int, int, int]]]:
    """The highest number of ways and every guess that reaches it (ascending order)."""
    best = max(ways(left, g) for g in GUESSES)
    return best, [g for g in GUESSES if ways(left, g) == best]


def month_name(m: int) -> str:
    return MONTH_NAMES[m - 1]


_MONTH_WORDS = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")


def parse_month(word: str) -> int | None:
    """A month typed as 1-12 or as its English name (three letters at least); else None."""
    w = word.strip().lower()
    if w.isdigit():
        return whole(w, 1, MONTHS)
    if len(w) >= 3:
        for i, full in enumerate(_MONTH_WORDS, start=1):
            if full.startswith(w):
                return i
    return None


# -- state ----------------------------------------------------------------------------------

class YatchabaState:
    """Everything about a Yatchaba match at one moment. Lists are indexed by seat (1..n).

    ``left[m]`` counts the cards of month ``m`` not yet face up in this game; ``table`` holds
    the face-up cards as (month, card) pairs, card UNKNOWN when only the month was given;
    ``unseen`` lists the codes of the named cards not face up (all of them in a seeded game).
    """

    __slots__ = ("bets", "dealer", "decider", "due", "game", "games", "guess", "guessed",
                 "guesser", "history", "laid", "lap", "ledger", "left", "n", "order", "out",
                 "passes", "payouts", "pend", "phase", "physical", "round", "rules", "step",
                 "table", "turn", "unseen", "winner")

    def __init__(self, rules: YatchabaRules, n: int, physical: bool) -> None:
        self.rules = rules
        self.n = n
        self.physical = physical
        self.games = rules.games or n
        self.ledger = Ledger(n, rules.chips)
        self.history: list[dict[str, Any]] = []
        self.pend: Pending | None = None
        self.payouts: list[Pay] = []
        self.game = 1
        self.dealer = 1
        self._reset_game()

    def _reset_game(self) -> None:
        n = self.n
        self.round = 1
        self.guesser = self.dealer
        self.guessed = [self.dealer]
        self.passes = [0] * (n + 1)
        self.left = [0] + [COPIES] * MONTHS
        self.table: list[tuple[int, int]] = []
        self.unseen = list(range(COPIES * MONTHS))  # card codes not face up, ascending
        self.winner = 0
        self._reset_round()

    def _reset_round(self) -> None:
        n = self.n
        g = self.guesser
        self.order = [(g + i - 1) % n + 1 for i in range(n)]
        self.laid: list[int] | None = None
        self.guess: list[int] = []
        self.out = [False] * (n + 1)
        self.bets = [0] * (n + 1)
        self.step = 0  # real bets so far this round
        self.due = amount(self.rules.amounts, 0)
        self.lap = 1
        self.turn = 0
        self.decider = 0
        self.phase = "deal"

    @property
    def bettor(self) -> int:
        return self.order[self.turn]

    def may_guess(self, seat: int) -> bool:
        """Whether ``seat`` has kept the right to be a guesser in this game."""
        return self.passes[seat] <= self.rules.pass_limit

    def next_guesser(self) -> int:
        """The next seat after the guesser, before coming back to the dealer, that may still
        guess in this game; 0 when there is none."""
        n = self.n
        done = (self.guesser - self.dealer) % n
        for k in range(done + 1, n):
            seat = (self.dealer + k - 1) % n + 1
            if self.may_guess(seat):
                return seat
        return 0

    def next_amount(self) -> int:
        """The amount the next bet of this round must be."""
        return self.due


# Pending answers are immutable and few: they are made once per distinct situation.
_PENDING: dict[tuple[Any, ...], Pending] = {}


# -- the game -------------------------------------------------------------------------------

class Yatchaba(Game):
    name = "yatchaba"
    title = "Yatchaba"
    summary = "hanafuda, 2-8 players: guess the months of three face-down cards"
    deck = HANAFUDA_48
    Rules = YatchabaRules
    events = (Deal, Guess, Bet, Pass, Continue, Stop, Reveal, Result, Pay, GameEnd, End)
    min_players = 2
    max_players = 8
    default_players = 4

    def new_state(self, rules: YatchabaRules, seats: int, physical: bool) -> YatchabaState:
        return YatchabaState(rules, seats, physical)

    # -- what the state waits for ----------------------------------------------------------
    def pending(self, s: YatchabaState) -> Pending:
        p = s.pend  # None once an event changed the state
        if p is not None:
            return p
        phase = s.phase
        if phase == "bet":
            b = s.order[s.turn]
            key: tuple[Any, ...] = (phase, b, s.due, b == s.guesser)
        elif phase == "guess" or phase == "deal":
            key = (phase, s.guesser)
        elif phase == "decide":
            key = (phase, s.decider)
        else:
            key = (phase,)
        p = _PENDING.get(key)
        if p is None:
            if len(_PENDING) > 4096:
                _PENDING.clear()
            p = _PENDING[key] = self._describe(key)
        s.pend = p
        return p

    @staticmethod
    def _describe(key: tuple[Any, ...]) -> Pending:
        phase = key[0]
        if phase == "bet":
            _, b, amt, guesser = key
            what = f"p{b} to bet {amt}"
            return Pending("action", what if guesser else what + " or pass", (b,))
        if phase == "guess":
            return Pending("action", f"p{key[1]} to name three months", (key[1],))
        if phase == "decide":
            return Pending("action", f"p{key[1]} to continue or stop", (key[1],))
        if phase == "deal":
            return Pending("chance", f"p{key[1]} to lay three cards face down")
        if phase == "reveal":
            return Pending("chance", "the three cards to be turned over")
        if phase == "over":
            return Pending("over", "nothing: the match is over")
        return Pending("auto", phase)

    # -- checks ------------------------------------------------------------------------------
    def check(self, s: YatchabaState, ev: Event) -> str | None:
        # each kind of event in the one phase that takes it (the engine checks whose turn it
        # is), then its own rules
        if type(ev) is Bet:
            return self._wrong_phase(s, ev, "bet") or self._check_bet(s, ev)
        if type(ev) is Pass:
            return self._wrong_phase(s, ev, "bet") or self._check_pass(s, ev)
        if type(ev) is Continue or type(ev) is Stop:
            return self._wrong_phase(s, ev, "decide") or self._check_decision(s, ev)
        if type(ev) is Guess:
            return self._wrong_phase(s, ev, "guess") or self._check_guess(s, ev)
        if type(ev) is Deal:
            return self._wrong_phase(s, ev, "deal") or self._check_deal(s, ev)
        if type(ev) is Reveal:
            return self._wrong_phase(s, ev, "reveal") or self._check_reveal(s, ev)
        return f"{type(ev).__name__} is not a Yatchaba event"

    def _wrong_phase(self, s: YatchabaState, ev: Event, phase: str) -> str | None:
        if phase != s.phase:
            return f"waiting for {self.pending(s).what}, not for {self.notate(ev)!r}"
        return None

    def _check_bet(self, s: YatchabaState, ev: Bet) -> str | None:
        if ev.amount != s.due:
            return f"the next amount of the sequence is {s.due}, not {ev.amount}"
        return None

    def _check_pass(self, s: YatchabaState, ev: Pass) -> str | None:
        if ev.seat == s.guesser:
            return f"p{ev.seat} is the guesser, and the guesser cannot pass"
        return None

    def _check_decision(self, s: YatchabaState, ev: Event) -> str | None:
        return None  # the engine checked that the seat is the one who decides

    def _check_guess(self, s: YatchabaState, ev: Guess) -> str | None:
        months = ev.months
        if len(months) != LAID:
            return f"a guess names {LAID} months, not {len(months)}"
        a, b, c = months
        if not (1 <= a <= MONTHS and 1 <= b <= MONTHS and 1 <= c <= MONTHS):
            return "months are 1-12"
        if not a <= b <= c:
            return "the months of a guess are listed in ascending order"
        if ways(s.left, months) == 0:
            up = ", ".join(f"{COPIES - s.left[m]} {month_name(m)}" for m in sorted(set(months)))
            return (f"guess {self._months(months)} can never be right: not enough cards of "
                    f"those months are left face down or in the deck ({up} face up)")
        return None

    def _check_deal(self, s: YatchabaState, ev: Deal) -> str | None:
        if (ev.game, ev.round, ev.guesser) != (s.game, s.round, s.guesser):
            return (f"this is round {s.round} of game {s.game}, laid by p{s.guesser}, not "
                    f"round {ev.round} of game {ev.game} laid by p{ev.guesser}")
        if ev.cards is None:
            return None
        if len(ev.cards) != LAID:
            return f"the guesser lays {LAID} cards, not {len(ev.cards)}"
        if UNKNOWN in ev.cards:
            return "name all three laid cards, or none ('deal' alone)"
        if list(ev.cards) != sorted(ev.cards):
            return "the laid cards are listed in ascending order"
        return self._check_cards(s, ev.cards)

    def _check_cards(self, s: YatchabaState, cards: list[int]) -> str | None:
        """Why these named cards cannot be among those not yet face up, or None."""
        seen = Counter(c for _, c in s.table if c != UNKNOWN)
        return self.deck.check_available(seen, cards)

    def _check_reveal(self, s: YatchabaState, ev: Reveal) -> str | None:
        months = ev.months
        if len(months) != LAID:
            return f"{LAID} cards are turned over, not {len(months)}"
        if any(not 1 <= m <= MONTHS for m in months):
            return "months are 1-12"
        if list(months) != sorted(months):
            return "the revealed cards are listed in ascending order of month"
        need = Counter(months)
        for m, k in sorted(need.items()):
            if k > s.left[m]:
                up = COPIES - s.left[m]
                return (f"{k} {month_name(m)} card(s) cannot be face down: the deck has "
                        f"{COPIES} and {up} already face up")
        if ev.cards is not None:
            if len(ev.cards) != LAID:
                return f"{LAID} cards are turned over, not {len(ev.cards)}"
            pairs = list(zip(months, ev.cards, strict=True))
            if pairs != sorted(pairs):
                return "the revealed cards are listed in ascending order"
            for m, c in pairs:
                if c == UNKNOWN:
                    continue
                if c not in self.deck.counts:
                    return f"card code {c} is not in the {self.deck.title} deck"
                if month_of(c) != m:
                    return f"card {self.deck.token(c)} is not a {month_name(m)} card"
            why = self._check_cards(s, ev.cards)
            if why is not None:
                return why
        if s.laid is not None:
            laid = sorted(s.laid)
            if ev.cards != laid:
                shown = " ".join(self.deck.token(c) for c in laid)
                return f"the cards laid face down were {shown}"
        return None

    # -- changes -----------------------------------------------------------------------------
    def apply(self, s: YatchabaState, ev: Event) -> None:
        s.pend = None
        # the commonest events first (a chain of tests calls the compiled functions directly)
        if type(ev) is Bet:
            _bet(s, ev)
        elif type(ev) is Pass:
            _pass(s, ev)
        elif type(ev) is Deal:
            _deal(s, ev)
        elif type(ev) is Guess:
            _guess(s, ev)
        elif type(ev) is Reveal:
            _reveal(s, ev)
        elif type(ev) is Result:
            self._apply_result(s, ev)
        elif type(ev) is Continue:
            _continue(s, ev)
        elif type(ev) is Stop:
            _stop(s, ev)
        elif type(ev) is Pay:
            _pay(s, ev)
        elif type(ev) is GameEnd:
            _game_end(s, ev)
        elif type(ev) is End:
            _end(s, ev)
        else:
            raise TypeError(f"{type(ev).__name__} is not a Yatchaba event")

    @staticmethod
    def _apply_result(s: YatchabaState, ev: Result) -> None:
        if ev.next:
            s.guesser = ev.next
            s.guessed.append(ev.next)
            s.round += 1
            s._reset_round()
            return
        pot = s.ledger.pot
        share = pot // DEALER_SHARE_DIVISOR
        pays: list[Pay] = []
        if ev.right:
            s.winner = ev.guesser
            if ev.guesser == s.dealer:
                pays.append(Pay(POT, ev.guesser, pot, "win"))
            else:
                pays.append(Pay(POT, ev.guesser, pot - share, "win"))
                pays.append(Pay(POT, s.dealer, share, "dealer"))
        else:
            pays.append(Pay(POT, s.dealer, share, "dealer"))
        s.payouts = [p for p in pays if p.amount > 0]
        s.phase = "payout" if s.payouts else "gameend"

    # -- what the engine derives -------------------------------------------------------------
    def auto(self, s: YatchabaState) -> Event:
        phase = s.phase
        if phase == "result":
            right = sorted([m for m, _ in s.table[-LAID:]]) == s.guess
            nxt = 0 if right else s.next_guesser()
            return Result(s.game, s.round, s.guesser, right, nxt)
        if phase == "payout":
            return s.payouts[0]
        if phase == "gameend":
            dealer = s.dealer % s.n + 1 if s.game < s.games else 0
            return GameEnd(s.game, s.winner, s.ledger.pot, dealer)
        if phase == "end":
            return End("games", s.ledger.balances[1:], s.ledger.pot)
        raise AssertionError(f"no automatic event in phase {phase}")

    def chance(self, s: YatchabaState, rng: Rng) -> Event:
        if s.phase == "deal":
            # The guesser shuffles the cards not face up and lays the top three: three uniform
            # draws without replacement from those cards in ascending order are the same.
            # Draw k is a position among the cards the earlier draws left; it is mapped to
            # its position in ``unseen`` instead of removing cards from a copy.
            rest = s.unseen
            n = len(rest)
            assert n >= LAID, "at most 8 rounds of 3 cards: the deck cannot run short"
            i = rng.below(n)
            j = rng.below(n - 1)
            k = rng.below(n - 2)
            if j >= i:
                j += 1
            lo, hi = (i, j) if i < j else (j, i)
            if k >= lo:
                k += 1
            if k >= hi:
                k += 1
            return Deal(s.game, s.round, s.guesser, sorted((rest[i], rest[j], rest[k])))
        assert s.phase == "reveal" and s.laid is not None
        laid = sorted(s.laid)
        return Reveal([month_of(c) for c in laid], laid)

    def legal(self, s: YatchabaState, seat: int) -> list[Event]:
        phase = s.phase
        if phase == "bet" and seat == s.bettor:
            bet: list[Event] = [Bet(seat, s.next_amount())]
            return bet if seat == s.guesser else [*bet, Pass(seat)]
        if phase == "decide" and seat == s.decider:
            return [Continue(seat), Stop(seat)]
        if phase == "guess" and seat == s.guesser:
            left = s.left
            return [Guess(seat, list(g)) for g in GUESSES if ways(left, g)]
        return []

    # -- odds ----------------------------------------------------------------------------------
    def odds(self, s: YatchabaState, months: list[int] | tuple[int, ...] | None = None
             ) -> Fraction:
        """The exact chance that the current guess (or ``months``) is right, given only the
        cards face up: 3 cards drawn from the 48 not yet face up in this game."""
        guess = sorted(months) if months is not None else s.guess
        if len(guess) != LAID:
            raise ValueError("odds need a guess of three months")
        return probability(s.left, guess)

    def odds_text(self, s: YatchabaState, months: list[int] | None = None) -> str:
        """The odds of the current guess (or ``months``) in words, and the best guess."""
        best, tops = best_guesses(s.left)
        total = draws(s.left)
        best_text = f"best guess {self._months(list(tops[0]))}: {ratio(best, total)}"
        if len(tops) > 1:
            best_text += f" and {len(tops) - 1} more as good"
        guess = sorted(months) if months is not None else s.guess
        if not guess:
            return best_text
        return f"guess {self._months(guess)}: {self.chance_text(s, guess)}; {best_text}"

    # Table commands of this game, for the prompt of ``kabucli play`` (see :meth:`command`).
    commands: ClassVar[dict[str, str]] = {
        "odds": "the exact chance that the current guess is right given the cards face up, "
                "and the best guess; 'odds 1 1 8' for any three months",
    }

    def command(self, s: YatchabaState, line: str) -> str | None:
        """The answer to a table command typed at the prompt (``odds`` or ``odds 1 1 8``),
        or None when ``line`` is not one of this game's commands. Changes nothing."""
        words = line.split()
        if not words or words[0].lower() not in self.commands:
            return None
        if len(words) == 1:
            return self.odds_text(s)
        try:
            months = self._parse_months(words[1:])
        except ParseError as exc:
            return str(exc)
        return self.odds_text(s, months)

    @staticmethod
    def chance_text(s: YatchabaState, months: list[int]) -> str:
        """The chance that ``months`` is right, e.g. ``3/2162 (0.139%, 1 in 721)``."""
        return ratio(ways(s.left, months), draws(s.left))

    # -- notation ------------------------------------------------------------------------------
    @staticmethod
    def _months(months: list[int]) -> str:
        return " ".join(str(m) for m in months)

    def _cards(self, cards: list[int]) -> str:
        return " ".join(self.deck.token(c) for c in cards)

    def notate(self, ev: Event) -> str:
        if type(ev) is Bet:
            return f"p{ev.seat} bet {ev.amount}"
        if type(ev) is Pass:
            return f"p{ev.seat} pass"
        if type(ev) is Guess:
            return f"p{ev.seat} guess {self._months(ev.months)}"
        if type(ev) is Continue:
            return f"p{ev.seat} continue"
        if type(ev) is Stop:
            return f"p{ev.seat} stop"
        if type(ev) is Deal:
            return "deal" if ev.cards is None else f"deal {self._cards(ev.cards)}"
        if type(ev) is Reveal:
            cards = ev.cards if ev.cards is not None else [UNKNOWN] * len(ev.months)
            toks = [str(m) if c == UNKNOWN else self.deck.token(c)
                    for m, c in zip(ev.months, cards, strict=False)]
            return "reveal " + " ".join(toks)
        if type(ev) is Result:
            verdict = "right" if ev.right else "wrong"
            return (f"result game {ev.game} round {ev.round} p{ev.guesser} {verdict} "
                    f"next {_seat_or_dash(ev.next)}")
        if type(ev) is GameEnd:
            return (f"gameend {ev.game} winner {_seat_or_dash(ev.winner)} carry {ev.carry} "
                    f"deals {_seat_or_dash(ev.dealer)}")
        return notate_shared(ev) or repr(ev)

    def public_notation(self, ev: Event) -> str:
        """The notation as the players at the table may see it: face-down cards as ``??``."""
        if type(ev) is Deal and ev.cards is not None:
            return "deal " + " ".join("??" for _ in ev.cards)
        return self.notate(ev)

    def _parse_months(self, words: list[str]) -> list[int]:
        months = []
        for w in words:
            m = parse_month(w)
            if m is None:
                raise ParseError(f"'{w}' is not a month: type 1-12 or a name like jan")
            months.append(m)
        if len(months) != LAID:
            raise ParseError(f"a guess names {LAID} months, e.g. 'guess 1 1 8' or "
                             f"'guess jan jan aug', not {len(months)}")
        return sorted(months)

    def _parse_reveal(self, words: list[str]) -> Reveal:
        pairs: list[tuple[int, int]] = []
        for w in words:
            m = parse_month(w)
            if m is not None:
                pairs.append((m, UNKNOWN))
                continue
            code = self.deck.parse(w)
            if code == UNKNOWN:
                raise ParseError("a revealed card is face up: give its month or its name")
            pairs.append((month_of(code), code))
        if len(pairs) != LAID:
            raise ParseError(f"three cards are turned over: type their months or names, e.g. "
                             f"'reveal 1 1 8' or 'reveal 1b 1r 8a', not {len(pairs)}")
        pairs.sort()
        cards = [c for _, c in pairs]
        return Reveal([m for m, _ in pairs],
                      None if all(c == UNKNOWN for c in cards) else cards)

    def parse(self, s: YatchabaState, text: str) -> Event:
        seat, rest = parse_seat_prefix(text, s.n)
        words = rest.replace(",", " ").split()
        if not words:
            raise ParseError("empty move: type 'guess 1 1 8', 'bet', 'pass', 'continue' or "
                             "'stop'")
        verb = words[0].lower()
        args = words[1:]
        engine = {"result": self._parse_result, "gameend": self._parse_game_end}
        if verb in engine or verb in SHARED_VERBS:
            if seat is not None:
                raise ParseError(f"'{words[0]}' is not typed after a seat: type '{rest}'")
            if verb in SHARED_VERBS:
                return parse_shared(verb, args, s.n)
            return engine[verb](s, args)
        if verb in ("deal", "lay"):
            if not args or all(a == "??" for a in args):
                return Deal(s.game, s.round, s.guesser)
            return Deal(s.game, s.round, s.guesser, sorted(self.deck.parse_many(args)))
        if verb in ("reveal", "turn", "show"):
            return self._parse_reveal(args)
        if verb in ("guess", "guesses", "g"):
            return Guess(seat or s.guesser, self._parse_months(args))
        if verb in ("bet", "bets", "b"):
            who = self._mover(s, seat, "bet", "bet")
            if not args:
                return Bet(who, s.next_amount())
            if len(args) > 1 or not args[0].isdigit():
                raise ParseError(f"'bet' takes the amount alone (or nothing), not "
                                 f"'{' '.join(args)}'")
            return Bet(who, number(args[0], 0, LOG_INT, "a bet"))
        if verb in ("continue", "cont", "c", "more", "stop", "s"):
            if args:
                raise ParseError(f"'{verb}' takes nothing after it, got '{' '.join(args)}'")
            stop = verb in ("stop", "s")
            who = self._mover(s, seat, "decide", "stop" if stop else "continue")
            return Stop(who) if stop else Continue(who)
        if verb in ("pass", "passes", "p"):
            if args:
                raise ParseError(f"'pass' takes nothing after it, got '{' '.join(args)}'")
            return Pass(self._mover(s, seat, "bet", "pass"))
        if parse_month(verb) is not None and s.phase == "guess":
            return Guess(seat or s.guesser, self._parse_months(words))
        raise ParseError(f"'{words[0]}' is not a Yatchaba move: use 'guess 1 1 8', 'bet', "
                         "'pass', 'continue', 'stop', 'deal' or 'reveal 1 1 8'")

    def _mover(self, s: YatchabaState, seat: int | None, phase: str, verb: str) -> int:
        """Whose move ``verb`` is: the seat typed, else the one whose turn it is in ``phase``;
        typed without a seat outside ``phase`` it is nobody's move."""
        if seat is not None:
            return seat
        if s.phase != phase:
            raise ParseError(f"nobody may {verb} now: waiting for {self.pending(s).what}")
        return s.bettor if phase == "bet" else s.decider

    # The engine's own events parse back too, so that every line of a replay can be typed.
    @staticmethod
    def _seat(s: YatchabaState, word: str, dash: bool = False) -> int:
        low = word.lower()
        if dash and low == "-":
            return 0
        seat = whole(low[1:], 1, s.n) if low[:1] == "p" else None
        if seat is not None:
            return seat
        raise ParseError(f"'{word}' is not a seat p1-p{s.n}" + (" or '-'" if dash else ""))

    def _parse_result(self, s: YatchabaState, args: list[str]) -> Event:
        shape = ("a result reads 'result game G round R pN right|wrong next pM|-', e.g. "
                 "'result game 1 round 2 p2 wrong next p3'")
        if (len(args) != 8 or args[0] != "game" or args[2] != "round" or args[6] != "next"
                or not args[1].isdigit() or not args[3].isdigit()
                or args[5] not in ("right", "wrong")):
            raise ParseError(shape)
        return Result(number(args[1], 0, LOG_INT, "a game"), number(args[3], 0, LOG_INT, "a round"),
                      self._seat(s, args[4]), args[5] == "right", self._seat(s, args[7], dash=True))

    def _parse_game_end(self, s: YatchabaState, args: list[str]) -> Event:
        shape = ("the end of a game reads 'gameend G winner pN|- carry CHIPS deals pM|-', "
                 "e.g. 'gameend 1 winner - carry 14 deals p2'")
        if (len(args) != 7 or args[1] != "winner" or args[3] != "carry" or args[5] != "deals"
                or not args[0].isdigit() or not args[4].isdigit()):
            raise ParseError(shape)
        return GameEnd(number(args[0], 0, LOG_INT, "a game"), self._seat(s, args[2], dash=True),
                       number(args[4], 0, LOG_INT, "the carry"), self._seat(s, args[6], dash=True))

    # -- views ---------------------------------------------------------------------------------
    def view(self, s: YatchabaState, seat: int | None = None) -> dict[str, Any]:
        tok = self.deck.token
        laid: list[str] = []
        if s.phase in ("guess", "bet", "decide", "reveal"):
            laid = ([tok(c) for c in sorted(s.laid)] if seat is None and s.laid is not None
                    else ["??"] * LAID)
        guess = s.guess if s.phase in ("bet", "decide", "reveal", "result") else []
        return {
            "game": self.name,
            "match_game": s.game,
            "games": s.games,
            "round": s.round,
            "dealer": s.dealer,
            "guesser": s.guesser,
            "phase": s.phase,
            "laid": laid,
            "guess": guess,
            "odds": str(probability(s.left, guess)) if guess else None,
            "face_up": [tok(c) if c != UNKNOWN else str(m) for m, c in s.table],
            "next_amount": s.next_amount() if s.phase == "bet" else None,
            "turn": s.bettor if s.phase == "bet" else None,
            "decider": s.decider if s.phase == "decide" else None,
            "lap": s.lap,
            "pot": s.ledger.pot,
            "chips": {f"p{p}": s.ledger.seat(p) for p in range(1, s.n + 1)},
            "bets": {f"p{p}": s.bets[p] for p in range(1, s.n + 1)},
            "passed": [f"p{p}" for p in range(1, s.n + 1) if s.out[p]],
            "passes": {f"p{p}": s.passes[p] for p in range(1, s.n + 1)},
            "may_guess": [f"p{p}" for p in range(1, s.n + 1) if s.may_guess(p)],
        }

    def outcome(self, s: YatchabaState) -> dict[str, Any] | None:
        if s.phase != "over":
            return None
        bal = {p: s.ledger.seat(p) for p in range(1, s.n + 1)}
        top = max(bal.values())
        return {
            "balances": {f"p{p}": b for p, b in bal.items()},
            "pot": s.ledger.pot,
            "leaders": [f"p{p}" for p, b in bal.items() if b == top],
            "games": [{"game": h["game"], "dealer": f"p{h['dealer']}", "rounds": h["rounds"],
                       "winner": f"p{h['winner']}" if h["winner"] else None,
                       "carry": h["carry"]} for h in s.history],
        }

    def hint(self, s: YatchabaState, seat: int) -> str:
        phase = s.phase
        if phase == "guess":
            return ("name three months, repeats allowed (e.g. 'guess 1 1 8' or "
                    "'guess jan jan aug'); " + self.odds_text(s))
        if phase == "bet":
            amt = s.next_amount()
            if seat == s.guesser:
                return f"'bet' puts {amt} chips in the pot (the guesser cannot pass)"
            text = f"'bet' puts {amt} chips in the pot; 'pass' puts in 1 and ends your betting"
            used = s.passes[seat]
            limit = s.rules.pass_limit
            if used >= limit and seat not in s.guessed and s.may_guess(seat):
                text += (f" (you have passed {used} time(s) of {limit} this game: "
                         "another pass loses your turn as guesser)")
            else:
                text += f" ({used} of {limit} passes used this game)"
            return text
        if phase == "decide":
            return (f"'continue' for another lap (next amount {s.next_amount()}) or 'stop' to "
                    "turn the cards over")
        if phase == "deal":
            return f"type 'deal' once p{s.guesser} has laid three cards face down"
        if phase == "reveal":
            return ("type the three cards as they are turned over: months ('reveal 1 1 8') "
                    "or names ('reveal 1b 1r 8a')")
        return ""

    rules_doc = """\
Yatchaba is played with the 48 hanafuda cards: twelve months, four cards each. A match is a
number of games (house rule `games`); seat 1 deals the first game and the deal passes to the
next seat for each game after.

**A game** is a series of rounds. The dealer is the first *guesser*. In each round the
guesser shuffles the cards that are not face up, lays three of them face down and names
three months. Repeats are allowed: `1 1 8` is right only if two of the cards are January
and one is August; the order does not matter.

**Betting.** Starting with the guesser and going round to the seat before the guesser, each
player either *bets* the next amount of the sequence or *passes*. Under `amounts=count` the
sequence is 1, 2, 3, ...; under `amounts=book` it is 3, 7, 11, 12, 16, 22, 26, 30, 31, 35,
41, 45, 50 and then 50 every time. The sequence starts afresh each round and only real bets
move it on. A pass costs 1 chip and the player bets no more this round; the guesser cannot
pass. Each player may pass `pass_limit` times per game (default 2); a further pass is
allowed but the player loses the right to be a guesser in that game.

**Continue or stop.** After each lap, the last player of the lap who has not passed says
`continue` (another lap, the amounts keep rising) or `stop`. If everyone but the guesser has
passed, the betting stops by itself.

**The reveal.** At the stop the three cards are turned over and stay face up until the game
ends, as information for the later guessers. A right guess ends the game: the dealer's own
guess (the first round) takes the whole pot; a later guesser takes the pot less the dealer's
share, which is 20% of the pot rounded down. After a wrong guess the next seat that may still
guess becomes the guesser; seats that passed too often are skipped.

**End of a game.** The game ends at a right guess, or when everyone who may guess has
guessed. If nobody was right, the dealer takes 20% of the pot (rounded down) and the rest
carries into the next game. Chips may go negative: the balances are a score sheet.

The table shows the exact chance that the current guess is right given the cards face up
(every set of three cards not yet face up is equally likely), and the best guess.
"""

    notation_doc = """\
Months are typed as 1-12 or by name (jan, feb, ... dec). Cards are typed as
month then kind: 1b (January bright), 1r (ribbon), 8a (August animal), 12c1.

  guess 1 1 8       the guesser names Jan, Jan, Aug (the order does not matter)
  guess jan jan aug the same; '1 1 8' alone works too
  p2 guess 3 5 9    naming the seat (on anyone's turn the seat is optional)
  bet               put the next amount in the pot (the prompt says how much)
  bet 5             the same, checked: refused unless the next amount is 5
  pass              put 1 chip in and bet no more this round
  continue          the last player of the lap still betting: another lap
  stop              the same player: stop, the cards are turned over
  deal              referee: the guesser has laid three cards face down
  reveal 1 1 8      referee: the months of the three cards turned over
  reveal 1b 1r 8a   the same, naming the cards (names and months may mix)
"""


# -- changes, one function per event type ------------------------------------------------

def _next_bettor(s: YatchabaState) -> None:
    n = s.n
    t = s.turn + 1
    while t < n and s.out[s.order[t]]:
        t += 1
    if t < n:
        s.turn = t
        return
    # The lap is over: the last player of the lap still betting decides.
    last = next(p for p in reversed(s.order) if not s.out[p])
    if last == s.guesser:
        s.phase = "reveal"  # only the guesser is left betting: the round stops
    else:
        s.decider = last
        s.phase = "decide"


def _bet(s: YatchabaState, ev: Bet) -> None:
    bal = s.ledger.balances
    bal[ev.seat] -= ev.amount
    bal[POT] += ev.amount
    s.bets[ev.seat] += ev.amount
    s.step += 1
    s.due = amount(s.rules.amounts, s.step)
    _next_bettor(s)


def _pass(s: YatchabaState, ev: Pass) -> None:
    bal = s.ledger.balances
    bal[ev.seat] -= PASS_COST
    bal[POT] += PASS_COST
    s.bets[ev.seat] += PASS_COST
    s.passes[ev.seat] += 1
    s.out[ev.seat] = True
    _next_bettor(s)


def _pay(s: YatchabaState, ev: Pay) -> None:
    s.ledger.apply(ev)
    s.payouts.pop(0)
    if not s.payouts:
        s.phase = "gameend"


def _deal(s: YatchabaState, ev: Deal) -> None:
    s.laid = None if ev.cards is None else list(ev.cards)
    s.phase = "guess"


def _guess(s: YatchabaState, ev: Guess) -> None:
    s.guess = list(ev.months)
    s.phase = "bet"


def _continue(s: YatchabaState, ev: Continue) -> None:
    s.lap += 1
    s.turn = 0
    s.phase = "bet"


def _stop(s: YatchabaState, ev: Stop) -> None:
    s.phase = "reveal"


def _reveal(s: YatchabaState, ev: Reveal) -> None:
    cards = ev.cards if ev.cards is not None else [UNKNOWN] * LAID
    for m, c in zip(ev.months, cards, strict=True):
        s.left[m] -= 1
        s.table.append((m, c))
        if c != UNKNOWN:
            s.unseen.remove(c)
    s.phase = "result"


def _game_end(s: YatchabaState, ev: GameEnd) -> None:
    s.history.append({"game": ev.game, "dealer": s.dealer, "winner": ev.winner,
                      "rounds": s.round, "carry": ev.carry})
    if ev.dealer == 0:
        s.phase = "end"
    else:
        s.game += 1
        s.dealer = ev.dealer
        s._reset_game()


def _end(s: YatchabaState, ev: End) -> None:
    s.phase = "over"


def _seat_or_dash(seat: int) -> str:
    return f"p{seat}" if seat else "-"


def ratio(num: int, den: int) -> str:
    """A chance ``num/den`` as a fraction, a percentage and "1 in N"."""
    if den == 0 or num == 0:
        return "0 (impossible)"
    f = Fraction(num, den)
    return f"{f.numerator}/{f.denominator} ({100 * num / den:.3f}%, 1 in {den / num:.0f})"


GAME = Yatchaba()
