"""Yatchaba (やっちゃば): guess the months of three face-down hanafuda cards.

The rules as kabucli plays them, with the gaps we settled, are its rules page (rules.md). A
match is ``games`` games; each game is a series of rounds. In a round the *guesser* lays three
cards face down and names any three months (repeats allowed). Then come betting laps, from the
guesser round to the seat before the guesser: each player bets the next amount of the rising
sequence, or passes (1 chip, and no more betting this round). After each lap the last player of
the lap still betting says ``continue`` or ``stop`` (after ``max_laps`` laps the round stops by
itself, so that every round ends). At the stop the cards are turned over. A
right guess wins the pot (the dealer's first-round guess all of it; a later guesser all but the
dealer's 20%) and ends the game. A wrong guess leaves the cards face up and the next seat that
may still guess lays three more. When nobody was right the dealer takes 20% and the rest of the
pot carries into the next game.

Chips: a Bet or Pass action puts its chips in the pot itself (the amount is in the event, and
a pass is always 1 chip); what leaves the pot is a :class:`~kabucli.events.Pay` event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from math import comb
from typing import Any, ClassVar, Final

from kabucli.cards import HANAFUDA_48, MONTH_NAMES, MONTH_WORDS, UNKNOWN, month_of
from kabucli.engine import READY, Game, Pending, Pendings, Step
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
from kabucli.notation import (
    LOG_INT,
    Typed,
    Verbs,
    card_list,
    notate_shared,
    number,
    parse_seat,
    whole,
)
from kabucli.safetext import quoted
from kabucli.shuffle import Rng

# The event classes the hot paths tell events apart by, as static names: compiled,
# an imported name is looked up in the module's dict at every use, a Final one is
# read directly.
_BET: Final = Bet
_CONTINUE: Final = Continue
_DEAL: Final = Deal
_END: Final = End
_GAME_END: Final = GameEnd
_GUESS: Final = Guess
_PASS: Final = Pass
_PAY: Final = Pay
_RESULT: Final = Result
_REVEAL: Final = Reveal
_STOP: Final = Stop

LAID: Final = 3
COPIES: Final = 4  # cards of each month
MONTHS: Final = 12
PASS_COST: Final = 1
BOOK: Final = (3, 7, 11, 12, 16, 22, 26, 30, 31, 35, 41, 45, 50)
DEALER_SHARE_DIVISOR: Final = 5  # the dealer's share is floor(pot / 5), i.e. 20% rounded down


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
PAIR_WAYS: Final = (0, 0, 1, 3, 6)  # C(r, 2): ways to pick two of r cards
TRIPLE_WAYS: Final = (0, 0, 0, 1, 4)  # C(r, 3)


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


_MONTH_WORDS = tuple(w.lower() for w in MONTH_WORDS)


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
                 "passes", "pend", "phase", "physical", "round", "rules", "step", "table",
                 "todo", "turn", "unseen", "winner")

    def __init__(self, rules: YatchabaRules, n: int, physical: bool) -> None:
        self.rules = rules
        self.n = n
        self.physical = physical
        self.games = rules.games or n
        self.ledger = Ledger(n, rules.chips)
        self.history: list[dict[str, Any]] = []
        self.pend: Pending | None = None
        self.todo: list[Step] = []  # the payouts of a game (see engine.READY)
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


# -- the game -------------------------------------------------------------------------------

class Yatchaba(Game[YatchabaState, YatchabaRules]):
    name = "yatchaba"
    title = "Yatchaba"
    summary = "hanafuda, 2-8 players: guess the months of three face-down cards"
    deck = HANAFUDA_48
    Rules = YatchabaRules
    events = (Deal, Guess, Bet, Pass, Continue, Stop, Reveal, Result, Pay, GameEnd, End)
    public_chance = (Reveal,)  # the three cards turned over for everyone
    # logs from before the cap (their header has no max_laps) are read with the most it may
    # be: no round of theirs comes near it (a new game may not go without one: a bot that
    # always continues would never end its round)
    rules_added: ClassVar[Mapping[str, Any]] = {"max_laps": 10_000}
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
        # the key: what _describe reads
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
        p = _PENDINGS.get(key)  # a dict's get: the fastest lookup, compiled or not
        if p is None:
            p = _PENDINGS[key]  # made now
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
        if type(ev) is _BET:
            return self._wrong_phase(s, ev, "bet") or self._check_bet(s, ev)
        if type(ev) is _PASS:
            return self._wrong_phase(s, ev, "bet") or self._check_pass(s, ev)
        if type(ev) is _CONTINUE or type(ev) is _STOP:
            return self._wrong_phase(s, ev, "decide")  # the engine checked who decides
        if type(ev) is _GUESS:
            return self._wrong_phase(s, ev, "guess") or self._check_guess(s, ev)
        if type(ev) is _DEAL:
            return self._wrong_phase(s, ev, "deal") or self._check_deal(s, ev)
        if type(ev) is _REVEAL:
            return self._wrong_phase(s, ev, "reveal") or self._check_reveal(s, ev)
        return f"{type(ev).__name__} is not a Yatchaba event"

    def _wrong_phase(self, s: YatchabaState, ev: Event, phase: str) -> str | None:
        if phase != s.phase:
            return f"waiting for {self.pending(s).what}, not for {quoted(self.notate(ev))}"
        return None

    def _check_bet(self, s: YatchabaState, ev: Bet) -> str | None:
        if ev.amount != s.due:
            from kabucli.games.yatchaba import text  # (its words import this module)

            return text.wrong_amount(s.due, ev.amount, s.physical)
        return None

    def _check_pass(self, s: YatchabaState, ev: Pass) -> str | None:
        if ev.seat == s.guesser:
            from kabucli.games.yatchaba import text  # (its words import this module)

            return text.guesser_cannot_pass(ev.seat, s.due, s.physical)
        return None

    def _check_guess(self, s: YatchabaState, ev: Guess) -> str | None:
        months = ev.months
        if len(months) != LAID:
            return f"a guess names {LAID} months, not {len(months)}"
        a, b, c = months
        if not (1 <= a <= MONTHS and 1 <= b <= MONTHS and 1 <= c <= MONTHS):
            return "months are 1-12"
        if not a <= b <= c:
            return "the months of a guess are listed in ascending order"
        # Any three months are a guess (RULINGS), even one the cards face up make hopeless:
        # it is recorded as said, after a question at the prompt (see confirm).
        return None

    @staticmethod
    def hopeless(s: YatchabaState, months: list[int]) -> str | None:
        """Why the guess ``months`` can never be right given the cards face up, or None."""
        if ways(s.left, months):
            return None
        up = ", ".join(f"{COPIES - s.left[m]} {month_name(m)}" for m in sorted(set(months)))
        return (f"guess {Yatchaba._months(months)} can never be right: not enough cards of "
                f"those months are left face down or in the deck ({up} face up)")

    def confirm(self, s: YatchabaState, ev: Event) -> str | None:
        if type(ev) is _GUESS and len(ev.months) == LAID and all(
                1 <= m <= MONTHS for m in ev.months):
            why = self.hopeless(s, sorted(ev.months))
            if why is not None:
                return why[0].upper() + why[1:] + ". Record it anyway?"
        return None

    def _check_deal(self, s: YatchabaState, ev: Deal) -> str | None:
        if (ev.game, ev.round, ev.guesser) != (s.game, s.round, s.guesser):
            return (f"this is round {s.round} of game {s.game}, laid by p{s.guesser}, not "
                    f"round {ev.round} of game {ev.game} laid by p{ev.guesser}")
        if ev.cards is None:
            return None
        from kabucli.games.yatchaba import text  # (its words import this module)

        if len(ev.cards) != LAID:
            return text.laid_not(len(ev.cards))
        if UNKNOWN in ev.cards:
            return "name all three laid cards, or none ('deal' alone)"
        if list(ev.cards) != sorted(ev.cards):
            return "the laid cards are listed in ascending order"
        # the cards exist and none is face up by name; then no month runs over its four
        why = self._check_cards(s, ev.cards) or self._check_months(
            s, [month_of(c) for c in ev.cards])
        return None if why is None else f"{why}: {text.DEAL_ALONE}"

    @staticmethod
    def _check_months(s: YatchabaState, months: list[int]) -> str | None:
        """Why three cards of these months cannot be face down (more of a month than are not
        yet face up: no fifth January), or None. Cards shown by month only count too."""
        for m, k in sorted(Counter(months).items()):
            if k > s.left[m]:
                from kabucli.games.yatchaba import text  # (its words import this module)

                return text.not_face_down(k, m, COPIES, COPIES - s.left[m])
        return None

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
        why = self._check_months(s, list(months))
        if why is not None:
            return why
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
                from kabucli.games.yatchaba import text  # (its words import this module)

                return text.revealed_by_month(why, months)
        if s.laid is not None:
            laid = sorted(s.laid)
            if ev.cards != laid:
                shown = " ".join(self.deck.token(c) for c in laid)
                return f"the cards laid face down were {shown}"
        return None

    # -- changes -----------------------------------------------------------------------------
    def apply(self, s: YatchabaState, ev: Event) -> None:
        s.pend = None
        # one module function per event, the commonest first (a chain of tests calls the
        # compiled functions directly)
        if type(ev) is _BET:
            _apply_bet(s, ev)
        elif type(ev) is _PASS:
            _apply_pass(s, ev)
        elif type(ev) is _DEAL:
            _apply_deal(s, ev)
        elif type(ev) is _GUESS:
            _apply_guess(s, ev)
        elif type(ev) is _REVEAL:
            _apply_reveal(s, ev)
        elif type(ev) is _RESULT:
            _apply_result(s, ev)
        elif type(ev) is _CONTINUE:
            _apply_continue(s, ev)
        elif type(ev) is _STOP:
            _apply_stop(s, ev)
        elif type(ev) is _PAY:
            _apply_pay(s, ev)
        elif type(ev) is _GAME_END:
            _apply_game_end(s, ev)
        elif type(ev) is _END:
            _apply_end(s, ev)
        else:
            raise TypeError(f"{type(ev).__name__} is not a Yatchaba event")

    # -- what the engine derives -------------------------------------------------------------
    def auto(self, s: YatchabaState) -> Event:
        phase = s.phase
        if phase == "result":
            right = sorted([m for m, _ in s.table[-LAID:]]) == s.guess
            nxt = 0 if right else s.next_guesser()
            return Result(s.game, s.round, s.guesser, right, nxt)
        if phase == "payout":
            ev: Event = s.todo[0][1]
            return ev
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
            return [Guess(seat, list(g)) for g in GUESSES]  # any three months (RULINGS)
        return []

    def move_words(self, s: YatchabaState) -> list[str]:
        return ["deal"] if s.phase == "deal" else ["reveal"] if s.phase == "reveal" else []

    # -- odds ----------------------------------------------------------------------------------
    def odds(self, s: YatchabaState, months: list[int] | tuple[int, ...] | None = None
             ) -> Fraction:
        """The exact chance that the current guess (or ``months``) is right, given only the
        cards face up: 3 cards drawn from the 48 not yet face up in this game."""
        guess = sorted(months) if months is not None else s.guess
        if len(guess) != LAID:
            raise ValueError("odds need a guess of three months")
        return probability(s.left, guess)

    # -- notation ------------------------------------------------------------------------------
    @staticmethod
    def _months(months: list[int]) -> str:
        return " ".join(str(m) for m in months)

    def _cards(self, cards: list[int]) -> str:
        return card_list(self.deck, cards, " ")

    def notate(self, ev: Event) -> str:
        if type(ev) is _BET:
            return f"p{ev.seat} bet {ev.amount}"
        if type(ev) is _PASS:
            return f"p{ev.seat} pass"
        if type(ev) is _GUESS:
            return f"p{ev.seat} guess {self._months(ev.months)}"
        if type(ev) is _CONTINUE:
            return f"p{ev.seat} continue"
        if type(ev) is _STOP:
            return f"p{ev.seat} stop"
        if type(ev) is _DEAL:
            return "deal" if ev.cards is None else f"deal {self._cards(ev.cards)}"
        if type(ev) is _REVEAL:
            cards = ev.cards if ev.cards is not None else [UNKNOWN] * len(ev.months)
            toks = [str(m) if c == UNKNOWN else self.deck.token(c)
                    for m, c in zip(ev.months, cards, strict=False)]
            return "reveal " + " ".join(toks)
        if type(ev) is _RESULT:
            verdict = "right" if ev.right else "wrong"
            return (f"result game {ev.game} round {ev.round} p{ev.guesser} {verdict} "
                    f"next {_seat_or_dash(ev.next)}")
        if type(ev) is _GAME_END:
            return (f"gameend {ev.game} winner {_seat_or_dash(ev.winner)} carry {ev.carry} "
                    f"deals {_seat_or_dash(ev.dealer)}")
        return notate_shared(ev) or repr(ev)

    def _parse_months(self, words: list[str]) -> list[int]:
        months = []
        for w in words:
            m = parse_month(w)
            if m is None:
                raise ParseError(f"{quoted(w)} is not a month: type 1-12 or a name like jan")
            months.append(m)
        if len(months) != LAID:
            raise ParseError(f"a guess names {LAID} months, e.g. 'guess 1 1 8' or "
                             f"'guess jan jan aug', not {len(months)}")
        return sorted(months)

    def _parse_reveal(self, s: YatchabaState, typed: Typed) -> Event:
        pairs: list[tuple[int, int]] = []
        for w in typed.args:
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
        return self.verbs.parse(s, text, s.n)

    def __init__(self) -> None:
        deal, reveal, guess = self._parse_deal, self._parse_reveal, self._parse_guess
        bet, decide, pass_ = self._parse_bet, self._parse_decision, self._parse_pass
        self.verbs = Verbs[YatchabaState](
            {"result": self._parse_result, "gameend": self._parse_game_end,
             "deal": deal, "lay": deal, "reveal": reveal, "turn": reveal, "show": reveal,
             "guess": guess, "guesses": guess, "g": guess, "bet": bet, "bets": bet, "b": bet,
             "continue": decide, "cont": decide, "c": decide, "more": decide, "stop": decide,
             "s": decide, "pass": pass_, "passes": pass_, "p": pass_},
            self._parse_bare_guess, self._empty,
            seatless=("result", "gameend"), split=_words)

    @staticmethod
    def _empty(s: YatchabaState) -> str:
        """A line with no move: what is typed now, by whom the game waits for."""
        from kabucli.games.yatchaba import text  # (its words import this module)

        return text.empty(s)

    def _parse_deal(self, s: YatchabaState, m: Typed) -> Event:
        args = m.args
        if not args or all(a == "??" for a in args):
            return Deal(s.game, s.round, s.guesser)
        return Deal(s.game, s.round, s.guesser, sorted(self.deck.parse_many(args)))

    def _parse_guess(self, s: YatchabaState, m: Typed) -> Event:
        return Guess(m.seat or s.guesser, self._parse_months(m.args))

    def _parse_bare_guess(self, s: YatchabaState, m: Typed) -> Event:
        """Three months alone: the guesser's guess."""
        if parse_month(m.verb) is not None and s.phase == "guess":
            return Guess(m.seat or s.guesser, self._parse_months(m.words))
        from kabucli.games.yatchaba import text  # (its words import this module)

        raise ParseError(text.not_a_move(m.words[0], s))

    def _parse_bet(self, s: YatchabaState, m: Typed) -> Event:
        args = m.args
        who = self._mover(s, m.seat, "bet", "bet")
        if not args:
            return Bet(who, s.next_amount())
        if len(args) > 1 or not args[0].isdigit():
            raise ParseError(f"'bet' takes the amount alone (or nothing), not "
                             f"{quoted(' '.join(args))}")
        return Bet(who, number(args[0], 0, LOG_INT, "a bet"))

    def _parse_decision(self, s: YatchabaState, m: Typed) -> Event:
        m.none_after()
        stop = m.verb in ("stop", "s")
        who = self._mover(s, m.seat, "decide", "stop" if stop else "continue")
        return Stop(who) if stop else Continue(who)

    def _parse_pass(self, s: YatchabaState, m: Typed) -> Event:
        m.none_after("pass")
        return Pass(self._mover(s, m.seat, "bet", "pass"))

    def _mover(self, s: YatchabaState, seat: int | None, phase: str, verb: str) -> int:
        """Whose move ``verb`` is: the seat typed, else the one whose turn it is in ``phase``;
        typed without a seat outside ``phase`` it is nobody's move."""
        if seat is not None:
            return seat
        if s.phase != phase:
            raise ParseError(f"nobody may {verb} now: waiting for {self.pending(s).what}")
        return s.bettor if phase == "bet" else s.decider

    # The engine's own events parse back too, so that every line of a replay can be typed.
    def _parse_result(self, s: YatchabaState, m: Typed) -> Event:
        args, low = m.args, m.low
        shape = ("a result reads 'result game G round R pN right|wrong next pM|-', e.g. "
                 "'result game 1 round 2 p2 wrong next p3'")
        if (len(args) != 8 or low[0] != "game" or low[2] != "round" or low[6] != "next"
                or not args[1].isdigit() or not args[3].isdigit()
                or low[5] not in ("right", "wrong")):
            raise ParseError(shape)
        return Result(number(args[1], 0, LOG_INT, "a game"), number(args[3], 0, LOG_INT, "a round"),
                      parse_seat(args[4], s.n), low[5] == "right",
                      parse_seat(args[7], s.n, "-"))

    def _parse_game_end(self, s: YatchabaState, m: Typed) -> Event:
        args, low = m.args, m.low
        shape = ("the end of a game reads 'gameend G winner pN|- carry CHIPS deals pM|-', "
                 "e.g. 'gameend 1 winner - carry 14 deals p2'")
        if (len(args) != 7 or low[1] != "winner" or low[3] != "carry" or low[5] != "deals"
                or not args[0].isdigit() or not args[4].isdigit()):
            raise ParseError(shape)
        return GameEnd(number(args[0], 0, LOG_INT, "a game"), parse_seat(args[2], s.n, "-"),
                       number(args[4], 0, LOG_INT, "the carry"), parse_seat(args[6], s.n, "-"))

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
            "odds": str(self._guess_odds(s)) if guess else None,
            "face_up": [tok(c) if c != UNKNOWN else str(m) for m, c in s.table],
            "next_amount": s.next_amount() if s.phase == "bet" else None,
            "turn": s.bettor if s.phase == "bet" else None,
            "decider": s.decider if s.phase == "decide" else None,
            "lap": s.lap,
            "pot": s.ledger.pot,
            "chips": s.ledger.by_seat(),
            "bets": {f"p{p}": s.bets[p] for p in range(1, s.n + 1)},
            "passed": [f"p{p}" for p in range(1, s.n + 1) if s.out[p]],
            "passes": {f"p{p}": s.passes[p] for p in range(1, s.n + 1)},
            "may_guess": [f"p{p}" for p in range(1, s.n + 1) if s.may_guess(p)],
        }

    @staticmethod
    def _guess_odds(s: YatchabaState) -> Fraction:
        """The chance the current guess had when it was made: once the cards are turned over
        (phase ``result``) they are counted back among the cards not face up, so the view
        keeps the odds of the guess instead of those of a fresh draw without them."""
        left = s.left
        if s.phase == "result":
            left = list(left)
            for m, _ in s.table[-LAID:]:
                left[m] += 1
        return probability(left, s.guess)

    def outcome(self, s: YatchabaState) -> dict[str, Any] | None:
        if s.phase != "over":
            return None
        return {
            **s.ledger.standings(),
            "games": [{"game": h["game"], "dealer": f"p{h['dealer']}", "rounds": h["rounds"],
                       "winner": f"p{h['winner']}" if h["winner"] else None,
                       "carry": h["carry"]} for h in s.history],
        }


# -- changes, one function per event type ------------------------------------------------

def _next_bettor(s: YatchabaState) -> None:
    n = s.n
    t = s.turn + 1
    while t < n and s.out[s.order[t]]:
        t += 1
    if t < n:
        s.turn = t
        return
    # The lap is over: the last player of the lap still betting decides, unless only the
    # guesser is left betting or this was the last lap max_laps allows; then the round stops.
    last = next(p for p in reversed(s.order) if not s.out[p])
    if last == s.guesser or s.lap >= s.rules.max_laps:
        s.phase = "reveal"
    else:
        s.decider = last
        s.phase = "decide"


def _apply_bet(s: YatchabaState, ev: Bet) -> None:
    bal = s.ledger.balances
    bal[ev.seat] -= ev.amount
    bal[POT] += ev.amount
    s.bets[ev.seat] += ev.amount
    s.step += 1
    s.due = amount(s.rules.amounts, s.step)
    _next_bettor(s)


def _apply_pass(s: YatchabaState, ev: Pass) -> None:
    bal = s.ledger.balances
    bal[ev.seat] -= PASS_COST
    bal[POT] += PASS_COST
    s.bets[ev.seat] += PASS_COST
    s.passes[ev.seat] += 1
    s.out[ev.seat] = True
    _next_bettor(s)


def _apply_pay(s: YatchabaState, ev: Pay) -> None:
    s.ledger.apply(ev)
    s.todo.pop(0)
    if not s.todo:
        s.phase = "gameend"


def _apply_deal(s: YatchabaState, ev: Deal) -> None:
    s.laid = None if ev.cards is None else list(ev.cards)
    s.phase = "guess"


def _apply_guess(s: YatchabaState, ev: Guess) -> None:
    s.guess = list(ev.months)
    s.phase = "bet"


def _apply_continue(s: YatchabaState, ev: Continue) -> None:
    s.lap += 1
    s.turn = 0
    s.phase = "bet"


def _apply_stop(s: YatchabaState, ev: Stop) -> None:
    s.phase = "reveal"


def _apply_reveal(s: YatchabaState, ev: Reveal) -> None:
    cards = ev.cards if ev.cards is not None else [UNKNOWN] * LAID
    for m, c in zip(ev.months, cards, strict=True):
        s.left[m] -= 1
        s.table.append((m, c))
        if c != UNKNOWN:
            s.unseen.remove(c)
    s.phase = "result"


def _apply_game_end(s: YatchabaState, ev: GameEnd) -> None:
    s.history.append({"game": ev.game, "dealer": s.dealer, "winner": ev.winner,
                      "rounds": s.round, "carry": ev.carry})
    if ev.dealer == 0:
        s.phase = "end"
    else:
        s.game += 1
        s.dealer = ev.dealer
        s._reset_game()


def _apply_end(s: YatchabaState, ev: End) -> None:
    s.phase = "over"


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
    s.todo = [(READY, p) for p in pays if p.amount > 0]
    s.phase = "payout" if s.todo else "gameend"


def _words(text: str) -> list[str]:
    """A typed move's words: commas separate them too (``guess 1,1,8``)."""
    return text.replace(",", " ").split()


def _seat_or_dash(seat: int) -> str:
    return f"p{seat}" if seat else "-"


_PENDINGS: Final = Pendings(Yatchaba._describe)
GAME = Yatchaba()
