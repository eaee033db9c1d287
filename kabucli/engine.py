"""What every game provides, and the one loop that drives them: check, apply, derive, record.

A game (``kabucli.games.*``) is a :class:`Game` object: it makes a fresh state, says what the
state is waiting for (:class:`Pending`), checks an event with a reason, applies it, derives its
automatic events, deals seeded chance events, and renders actions as notation and back.

:class:`Match` wraps one state with its log. It is shared by play, replay, audit and resume,
so the question "is this event legal here?" has one answer everywhere (:meth:`Match.why_not`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Literal

import msgspec
from msgspec.structs import astuple
from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from kabucli import __version__
from kabucli.cards import Deck
from kabucli.compact import DERIVED, DRAW, INPUT, seed_commitment
from kabucli.errors import IllegalMove, KabuError, LogError, NeedInputs, RuleError
from kabucli.events import Event, Forfeit, Undo
from kabucli.log import (
    FORMAT_VERSION,
    Header,
    SeatInfo,
    external_bot,
    now_iso,
    now_ms,
    started_problem,
)
from kabucli.notation import Verbs
from kabucli.rules import as_dict, validate
from kabucli.safetext import quoted
from kabucli.shuffle import ALGORITHM, Rng, chance_rng

# The classes the engine tells events apart by, and the function feed_records calls once a
# record, as static names: compiled, a module's own name is looked up in its dict at every
# use, a Final one is read directly.
_UNDO: Final = Undo
_FORFEIT: Final = Forfeit
_ASTUPLE: Final = astuple

PendingKind = Literal["chance", "action", "auto", "over"]


@dataclass(frozen=True, slots=True)
class Pending:
    """What a state waits for: a chance event, an action by one of ``seats``, an automatic
    event, or nothing (the match is over). ``what`` says it in words. ``draws``: while this
    action is awaited a seeded game may also record a chance event (a race between bots,
    see :meth:`Game.bot_event`), the one :meth:`Match.draw` records."""

    kind: PendingKind
    what: str
    seats: tuple[int, ...] = ()
    draws: bool = False


FORFEITED: Final = Pending("over", "nothing: a bot forfeited the match")


@mypyc_attr(native_class=False)  # a dict: its lookups stay as fast as a dict's, compiled or not
class Pendings(dict[tuple[Any, ...], Pending]):
    """What states wait for, made once per situation and shared: a game's one cache of
    :class:`Pending` answers (they are immutable) by key, so the hot path of a bot game
    builds no text. A key missing is built by ``build`` from the key alone, which must
    therefore hold everything the answer says (the cache starts afresh when full).

    A game's ``pending`` keeps the answer on its state until an event changes it::

        def pending(self, s):
            p = s.pend  # None once apply changed the state
            if p is None:
                key = (s.phase, ...)  # computed inline
                p = _PENDINGS.get(key)  # a dict's get: the fastest lookup, compiled or not
                if p is None:
                    p = _PENDINGS[key]  # made now
                s.pend = p
            return p

    and its ``apply`` starts with ``s.pend = None``.
    """

    def __init__(self, build: Callable[[tuple[Any, ...]], Pending], limit: int = 4096) -> None:
        super().__init__()
        self.build = build
        self.limit = limit

    def __missing__(self, key: tuple[Any, ...]) -> Pending:
        if len(self) >= self.limit:
            self.clear()
        p = self[key] = self.build(key)
        return p


# What a state has lined up for the engine to record next, its ``todo``: one list of
# (code, argument) steps, first first, in every game. Code READY: the argument is the event
# itself, known in advance (the antes of a deal, the payouts of a result). Any other code
# is a step of the game's own, which its ``auto`` (or ``chance``) turns into an event when
# the step comes up, because the event depends on the steps before it (Kazu-Tori's penalty
# reads the piles its shuffle left). ``apply`` of the step's event pops it.
READY: Final = 0
Step = tuple[int, Any]


def ready(events: Iterable[Event]) -> list[Step]:
    """Events known in advance, as steps of a ``todo``."""
    return [(READY, e) for e in events]


S = TypeVar("S", default=Any)  # a game's state
R = TypeVar("R", bound=msgspec.Struct, default=Any)  # a game's house rules


class Game(ABC, Generic[S, R]):
    """The interface every game module implements (one instance per game, no state).

    A game subclasses ``Game[ItsState, ItsRules]``, so that mypy checks each of its methods
    against this contract; elsewhere a bare ``Game`` is a game of any kind.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    deck: ClassVar[Deck]
    Rules: ClassVar[type[msgspec.Struct]]
    events: ClassVar[tuple[type[Event], ...]]
    # chance events that show everyone what they carry (a showdown, a reveal, a race's
    # draws): a seat's replay shows them whole (:meth:`hidden_from`)
    public_chance: ClassVar[tuple[type[Event], ...]] = ()
    # house rules added after logs were first recorded, each with the value a log recorded
    # before (whose header lacks it) played by: an old log reads and audits as it did
    # (:func:`check_header`); a new game records every rule in its header
    rules_added: ClassVar[Mapping[str, Any]] = {}
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]

    # -- the state machine -------------------------------------------------------------
    @abstractmethod
    def new_state(self, rules: R, seats: int, physical: bool) -> S: ...

    @abstractmethod
    def pending(self, state: S) -> Pending:
        """What the state waits for (asked several times per event: see :class:`Pendings`)."""

    @abstractmethod
    def check(self, state: S, event: Event) -> str | None:
        """Why ``event`` (an action, or a chance event typed by a referee) breaks a rule here,
        or None when it is allowed. Never changes the state.

        The engine (:meth:`Match.why_not`) asks only about an action or a chance event at a
        real table, and only once it has verified that the state waits for an event of that
        kind (the pending kind) and, for an action, that its ``seat`` is one of the pending
        ``seats`` (so a seat in range, whose turn it is). ``check`` need not test these
        again; it tests the rest: the phase within that kind, and the event's own rules.
        Automatic events and the chance events of a seeded game never reach ``check``: the
        engine compares them with the ones it computes."""

    @abstractmethod
    def apply(self, state: S, event: Event) -> None:
        """Apply an event already known to be allowed: a chain of ``type(event) is X`` tests,
        the commonest first, each calling the game's module function for that event (a
        game may write out a very common event's few lines instead)."""

    @abstractmethod
    def auto(self, state: S) -> Event:
        """The automatic event the state waits for (when pending kind is ``auto``): the first
        step of its ``todo`` (see :data:`READY`), or what its phase derives (a result)."""

    @abstractmethod
    def chance(self, state: S, rng: Rng) -> Event:
        """The chance event of a seeded game (when pending kind is ``chance``)."""

    @abstractmethod
    def legal(self, state: S, seat: int) -> list[Event]:
        """Every legal action of ``seat`` now (empty when unknown cards make it unlistable)."""

    def move_words(self, state: S) -> list[str]:
        """How each kind of move that may be typed now begins, as its notation writes it,
        without the cards (``deal``, ``p2 sets``, ``p2 pass``, ``p3 shows``): what Tab offers
        at the play prompt where :meth:`legal` lists no move, as at a real table, whose
        unknown cards leave a deal, a showdown or a turn with unknown hands unlistable.
        The prompt offers each also with a player's name for its seat, and without its seat
        when the state waits for one seat or for the referee. Asked only by the prompt
        (never in play between bots). The default: none, so Tab offers the prompt's
        commands alone there."""
        return []

    # -- what people see and type -------------------------------------------------------
    # the game's parser, made by its ``__init__``: every verb (each spelling) and the
    # function that reads it; ``parse`` hands it each line, and a table asks it which first
    # words are moves (``verbs.reads``), not a name in a seat's place
    verbs: Verbs[S]

    @abstractmethod
    def parse(self, state: S, text: str) -> Event:
        """An event from notation typed at this state; raises ParseError. A game reads
        its moves with its :attr:`verbs`."""

    @abstractmethod
    def notate(self, event: Event) -> str:
        """The notation of an event (what people type, what replays print)."""

    @abstractmethod
    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """The state as plain data, as ``seat`` may see it (None: everything the log knows)."""

    @abstractmethod
    def outcome(self, state: S) -> dict[str, Any] | None:
        """The match result once it is over, else None."""

    # Words for people (the rules page, hints, the prompt's questions such as Yatchaba's odds)
    # are not here: they are in the game's package, rules.md and text.py (kabucli.games).

    def out_of_turn(self, state: S, event: Event) -> str | None:
        """Why an action of a seat that may not act now is refused, when the game can say
        more than whose turn it is (e.g. Uno Dare: a catch of a player who called UNO), or
        None: the engine then says whose turn it is."""
        return None

    def people_only(self, event: Event) -> str | None:
        """Why ``event`` is a move only people make (Kazu-Tori's stop: the players'
        agreement), refused from a seat the header gives a bot, as it plays or in a log; None
        for any move a bot may make (see also :meth:`bot_legal`)."""
        return None

    def not_now(self, state: S, event: Event) -> str | None:
        """Why an event of a kind the state does not wait for (a chance event while a seat
        is to act, say) is refused, when the game can say more than what it waits for (e.g.
        Uno Dare: a reshuffle typed while the draw pile still holds cards), or None: the
        engine then says what it waits for."""
        return None

    def blank_move(self, state: S) -> str | None:
        """What a blank line at the play prompt means now (e.g. Kazu-Tori: let the card go,
        or flip), or None when a blank line means nothing."""
        return None

    def confirm(self, state: S, event: Event) -> str | None:
        """A yes/no question to ask a person at the play prompt before ``event`` is played
        (a move easy to type by mistake that ends much at once, e.g. Kazu-Tori's stop), or
        None to play it without asking. Scripts are not asked: their moves are deliberate."""
        return None

    def bot_legal(self, state: S, seat: int) -> list[Event]:
        """The legal actions a bot of ``seat`` may choose among now (a bot program is sent
        them as ``legal``): :meth:`legal`, less the moves only people make, which a game
        leaves out here (Kazu-Tori's stop, an agreement between the players: a game between
        bots ends by its rules)."""
        return self.legal(state, seat)

    def bot_move(self, match: Match, bots: dict[int, Any],
                 pending: Pending | None = None) -> tuple[Event, bool] | None:
        """The event bot seats produce now and whether it is *trusted*; None when a person
        (or the table) must act. ``pending``: what the match waits for, when the caller has
        just asked (:meth:`Match.advance` returns it).

        A trusted move may be recorded without checking it again (:meth:`Match.accept_trusted`):
        it is one of the legal moves the engine itself computed. A bot says so with a class
        attribute ``trusted = True``, which only built-in bots that pick among
        :meth:`legal` (or the same list computed another way) may set; the moves of every
        other bot (external programs, users' classes) are checked like a person's. An audit
        (:func:`walk`) checks every event of the log all the same.

        The default asks the one seat the state waits for, if that seat is a bot. A game
        with races (several seats may act at once) overrides this to decide who acts first.
        """
        p = match.pending if pending is None else pending
        seats = p.seats
        if p.kind != "action" or len(seats) != 1 or seats[0] not in bots:
            return None
        seat = seats[0]
        bot = bots[seat]
        ev: Event = bot.choose(self, match.state, seat)
        return ev, getattr(bot, "trusted", False) is True

    def bot_event(self, match: Match, bots: dict[int, Any]) -> Event | None:
        """The event bot seats produce now (:meth:`bot_move` without whether it is trusted),
        or None when a person (or the table) must act."""
        move = self.bot_move(match, bots)
        return None if move is None else move[0]

    def hidden_from(self, event: Event, viewer: int) -> bool:
        """Whether ``event`` is secret to the player in seat ``viewer``: a replay as that seat
        (``replay --as``: text, ``--json``, ``--html``) shows it only as hidden, never its
        fields nor its notation. The default hides chance events (a deal carries every
        hand) but those the game lists in ``public_chance``, which carry only what every seat
        sees (test_conformance.py checks it against each seat's view); a game with a secret
        action (Kabu-Tsukuri's arrangement) overrides this."""
        return event.KIND == "chance" and type(event) not in self.public_chance

    def header_hidden_from(self, header: Header, viewer: int) -> tuple[str, ...]:
        """The fields of a log's header secret to the player in seat ``viewer`` (those the
        header has): a replay as that seat (``replay --as``: text, ``--json``, ``--html``)
        leaves them out. The seed, because the shuffle is public and fixed (docs/shuffle.md):
        with it, ``kabucli deal`` or any copy of the shuffle gives every card of the game,
        and the bots' choices too. The salt of the seed's commitment, because the salt and
        the commitment together let anyone try seeds until one matches (a seed kabucli
        draws has 48 bits, one typed often far fewer). The commitment alone stays: it is
        what was written down before the deal, and tells nothing without the salt."""
        return tuple(name for name in ("seed", "salt") if getattr(header, name) is not None)

    def actor(self, event: Event) -> str:
        """Who an event belongs to: ``pN`` for a seat, ``table`` or ``engine`` otherwise."""
        seat = getattr(event, "seat", None)
        if event.KIND == "action" and isinstance(seat, int):
            return f"p{seat}"
        return {"chance": "table", "auto": "engine", "meta": "referee"}.get(event.KIND, "?")


def seen_header(game: Game, header: Header,
                viewer: int | None) -> tuple[Header, tuple[str, ...]]:
    """``header`` as the player in seat ``viewer`` may see it (None: everyone, as the log
    holds it), and the names of the fields left out (set to None;
    :meth:`Game.header_hidden_from`)."""
    if viewer is None:
        return header, ()
    hidden = game.header_hidden_from(header, viewer)
    if not hidden:
        return header, ()
    return msgspec.structs.replace(header, **dict.fromkeys(hidden)), hidden


def make_header(game: Game, rules: msgspec.Struct, seats: Sequence[SeatInfo],
                seed: int | None, timed: bool = False, commit: str | None = None,
                salt: str | None = None, started: str | None = None) -> Header:
    """The header of a new log; ``timed``: its inputs carry when they were entered (a game
    with a person, or at a real table); ``commit``, ``salt``: the seed's commitment;
    ``started`` (ISO time) is now unless given (a run of many matches gives all of them its
    own start, so that their logs do not depend on timing): ValueError when it is not one
    as kabucli writes it, which a reader would refuse."""
    if started is not None and (problem := started_problem(started)) is not None:
        raise ValueError(problem)
    return Header(
        format=FORMAT_VERSION,
        game=game.name,
        rules=as_dict(rules),
        seats=list(seats),
        mode="physical" if seed is None else "seeded",
        kabucli=__version__,
        started=now_iso() if started is None else started,
        seed=seed,
        shuffle=ALGORITHM if seed is not None else None,
        clock=now_ms() if timed else None,
        commit=commit,
        salt=salt,
    )


# Validated rules by (rules type, the header's rules with each value's type): validating
# reads the type's annotations, which costs more than a whole bot round of Dare. Rules are
# frozen, so matches with the same house rules share one object. Errors are not cached.
_RULES_CACHE: dict[tuple[Any, ...], msgspec.Struct] = {}


def _header_rules(game: Game, values: dict[str, Any]) -> msgspec.Struct:
    key = (game.Rules, game.name, *((k, type(v), v) for k, v in values.items()))
    try:
        rules = _RULES_CACHE.get(key)
    except TypeError:  # a value that cannot be hashed (a list): validate every time
        key, rules = (), None
    if rules is None:
        try:
            rules = validate(game.Rules, dict(values), game.name)
        except RuleError as exc:
            raise KabuError(f"header: {exc}") from None
        if key:
            if len(_RULES_CACHE) >= 256:
                _RULES_CACHE.clear()
            _RULES_CACHE[key] = rules
    return rules


def commitment_unbound(header: Header) -> Violation | None:
    """The finding on a header whose seed commitment does not bind its seed (a violation
    at event 0: the seed was changed after the commitment was written down, or the salt),
    or None. audit, log repair, replay and resume check it before any event."""
    if header.commit is not None and (header.seed is None or header.salt is None or
                                      seed_commitment(header.seed, header.salt)
                                      != header.commit):
        return Violation(0, "table", "seed", "the seed is not the one the header's "
                         "commitment binds")
    return None


def check_header(game: Game, header: Header) -> msgspec.Struct:
    """The rules a header asks for; KabuError when the header itself cannot be played."""
    if header.game != game.name:
        from kabucli.registry import game_key
        from kabucli.safetext import quoted

        # (the game as a person may type it, 'kazutori', 'DARE': not what a log holds)
        typed = game_key(header.game) == game.name
        raise KabuError(f"header: the game is written {quoted(header.game)}; a log names it "
                        f"'{game.name}'" if typed else
                        f"header: the log is a {quoted(header.game)} game, not {game.name}")
    values = header.rules
    added = game.rules_added
    if added and not added.keys() <= values.keys():  # a log from before a rule was added
        values = {**{k: v for k, v in added.items() if k not in values}, **values}
    rules = _header_rules(game, values)
    n = len(header.seats)
    if not game.min_players <= n <= game.max_players:
        raise KabuError(f"header: {game.title} takes {game.min_players}-{game.max_players} "
                        f"players, the log has {n}")
    if header.mode == "seeded":
        if header.seed is None:
            raise KabuError("header: a seeded log must record its seed")
        if header.shuffle != ALGORITHM:
            raise KabuError(f"header: shuffle algorithm {header.shuffle!r} is unknown "
                            f"(this kabucli has {ALGORITHM})")
    return rules


# An undo plays the inputs still in effect again from the start: a log of many undos late in
# a long game (crafted: 4 KB of alternating inputs and undos) would take hours to read. The
# inputs undos play again add up to at most this many in a game (a real table's undos play
# back thousands).
MAX_REPLAYED = 2_000_000


def _replayed(before: int, more: int) -> int:
    """The inputs played again for undos, ``more`` added; LogError past MAX_REPLAYED."""
    total = before + more
    if total > MAX_REPLAYED:
        raise LogError(f"undos that play more than {MAX_REPLAYED:,} inputs again, the most "
                       "kabucli does in a game")
    return total


class Match:
    """One game in progress: its state, the events in effect, and the log being written."""

    def __init__(self, game: Game, header: Header, writer: Any = None) -> None:
        self.game = game
        self.header = header
        self.rules = check_header(game, header)
        self.seed = header.seed if header.mode == "seeded" else None
        self.physical = header.mode == "physical"
        self.nseats = len(header.seats)
        # the log being written (a kabucli.log.LogWriter, or anything with its ``append``,
        # told of the events the engine derives only when its ``every`` is true)
        self.writer: Any = writer
        # Told of every event recorded from now on (log index, event), e.g. to draw it live.
        self.on_event: Callable[[int, Event], None] | None = None
        self.events: list[Event] = []  # in effect (undo removes from here, never from the log)
        self.logged = 0  # everything written or read, undos included
        # whether ``events`` keeps the events in effect (an undo needs them; a streamed
        # audit, :class:`Deriver`, keeps the inputs instead)
        self.keep = True
        self.state = game.new_state(self.rules, self.nseats, self.physical)
        self._chances = 0
        # With ``count_shown``: the chance events in effect plus the events that show cards
        # (``Event.SHOWS``), for marking a takeback after cards were shown (see Deriver)
        self.count_shown = False
        self._shown = 0
        # When a list: every move a bot calls trusted is checked in full first (as a person's
        # move is) and appended here. For tests; a bot game plays unchecked (see Game.bot_move).
        self.check_trusted: list[Event] | None = None
        self.forfeit: Forfeit | None = None  # the bot's forfeit that ended the match, if one did
        self.replayed = 0  # inputs played again for undos (see MAX_REPLAYED)
        # the seats the header gives a bot: a move only people make is refused from them
        self.bot_seats = frozenset(i for i, seat in enumerate(header.seats, 1)
                                   if seat.control != "human")

    # -- queries --------------------------------------------------------------------------
    @property
    def pending(self) -> Pending:
        return self.game.pending(self.state)

    @property
    def over(self) -> bool:
        """Whether the match has ended: by its rules, or by a bot's forfeit."""
        return self.forfeit is not None or self.pending.kind == "over"

    def seat_name(self, seat: int) -> str:
        return self.header.seats[seat - 1].name

    def expected(self) -> Event | None:
        """The event the engine itself would record next (auto, or seeded chance), if any."""
        return self._expected(self.game.pending(self.state))

    def _expected(self, p: Pending) -> Event | None:
        """:meth:`expected` when the pending ``p`` is already known."""
        kind = p.kind
        if kind == "auto":
            return self.game.auto(self.state)
        if kind == "chance" and self.seed is not None:
            return self._dealt()
        return None

    def _dealt(self) -> Event:
        """The next chance event of a seeded game: what the seed gives for this state."""
        assert self.seed is not None
        return self.game.chance(self.state, chance_rng(self.seed, self._chances))

    def draw(self) -> Event | None:
        """Record the chance event a seeded game may draw while an action is awaited
        (``Pending.draws``: a race between bots), as :meth:`advance` records the expected
        ones, and return it; None when there is none to draw."""
        ev = self._drawn()
        if ev is not None:
            self._commit(ev, DRAW)
        return ev

    def _drawn(self) -> Event | None:
        if self.seed is None or not self.pending.draws:
            return None
        return self._dealt()

    def why_not(self, event: Event, p: Pending | None = None) -> str | None:
        """Why ``event`` cannot come next, or None. Never changes anything. ``p``: what the
        match awaits, when the caller has it (what :meth:`advance` returned, the state
        unchanged since)."""
        if self.forfeit is not None:
            return f"the match ended when p{self.forfeit.seat} forfeited it"
        if type(event) is _FORFEIT:
            if self.game.pending(self.state).kind == "over":
                return "the match is already over"
            if not 1 <= event.seat <= self.nseats:
                return f"there is no seat p{event.seat} (seats are p1-p{self.nseats})"
            # only a user's own bot fails (kabucli sim and tournament write its forfeit): a
            # person's or a built-in bot's forfeit would end a match no table ever ended
            if external_bot(self.header.seats[event.seat - 1].control) is None:
                return (f"p{event.seat} is not a bot of the user's own (cmd: or py:), the "
                        "only seats that forfeit")
            return None
        if type(event) is _UNDO:
            if not any(self.is_input(e) for e in self.events):
                return "there is nothing to take back"
            return None
        game = self.game
        state = self.state
        if p is None:
            p = game.pending(state)
        pkind = p.kind
        if pkind == "over":
            return "the match is already over"
        kind = event.KIND
        if pkind != kind and not (p.draws and kind == "chance"):
            why = game.not_now(state, event)
            if why is not None:
                return why
            return f"waiting for {p.what}, not for {quoted(game.notate(event))}"
        if kind == "action":
            seat = getattr(event, "seat", None)
            if seat not in p.seats:
                if type(seat) is not int or not 1 <= seat <= self.nseats:
                    return f"there is no seat p{seat} (seats are p1-p{self.nseats})"
                why = game.out_of_turn(state, event)
                if why is not None:
                    return why
                who = ", ".join(f"p{s}" for s in p.seats)
                return f"it is not p{seat}'s turn (waiting for {who}: {p.what})"
            if self.bot_seats and seat in self.bot_seats:
                why = game.people_only(event)
                if why is not None:
                    return f"p{seat} is a bot: {why}"
            return game.check(state, event)
        if kind == "auto" or (kind == "chance" and self.seed is not None):
            # a chance event drawn while an action is awaited, or the one the state awaits
            expected = self._drawn() if pkind != kind else self._expected(p)
            if event != expected:
                source = "the engine computes" if kind == "auto" else "the seed deals"
                assert expected is not None
                return f"{source} {game.notate(expected)!r} here"
            return None
        return game.check(state, event)

    # -- changes --------------------------------------------------------------------------
    def submit(self, event: Event) -> None:
        """Record and apply one event, or raise IllegalMove leaving everything untouched."""
        reason = self.why_not(event)
        if reason is not None:
            raise IllegalMove(reason)
        self._accept(event)

    def _accept(self, event: Event) -> None:
        """Record and apply an event already checked by :meth:`why_not`."""
        if type(event) is _UNDO:
            last = self._undo_point()  # (LogError before anything changes)
            self._record(event)
            self.rebuild(self.events[:last])
        elif type(event) is _FORFEIT:  # the game's state stays as the failure left it
            self._record(event)
            self.forfeit = event
        else:
            self._commit(event)

    def _commit(self, event: Event, how: int = INPUT) -> None:
        """Record and apply one event, then tell the listener (``on_event``), if any.
        ``how`` tells the log whether the engine derived the event, it is an input, or a
        race drawn from the seed (:mod:`kabucli.compact`). (:meth:`_record` and
        :meth:`_apply` written out: this runs for every event of a match, and the two calls
        cost Yatchaba's bot play about 3%.)"""
        writer = self.writer
        if writer is not None and (how != DERIVED or writer.every):
            writer.append(event, how)
        self.logged += 1
        self.game.apply(self.state, event)
        if self.keep:
            self.events.append(event)
        if event.KIND == "chance":
            self._chances += 1
            self._shown += 1
        elif self.count_shown and event.SHOWS:
            self._shown += 1
        if self.on_event is not None:
            self.on_event(self.logged, event)

    def accept_trusted(self, event: Event) -> None:
        """Record and apply a bot's move that :meth:`Game.bot_move` says is trusted (one of the
        legal moves the engine computed) without checking it again (unless ``check_trusted``)."""
        if self.check_trusted is not None:
            reason = self.why_not(event)
            if reason is not None:
                raise IllegalMove(f"a trusted bot's move {self.game.notate(event)} is not "
                                  f"legal: {reason}")
            self.check_trusted.append(event)
        self._commit(event)

    def _record(self, event: Event) -> None:
        if self.writer is not None:
            self.writer.append(event)
        self.logged += 1

    def _apply(self, event: Event) -> None:
        self.game.apply(self.state, event)
        if self.keep:
            self.events.append(event)
        if event.KIND == "chance":
            self._chances += 1
            self._shown += 1
        elif self.count_shown and event.SHOWS:
            self._shown += 1

    def is_input(self, event: Event) -> bool:
        """Whether an event was typed by a person or chosen by a bot (what undo takes back):
        a player action, or at a real table a chance event the referee entered."""
        return event.KIND == "action" or (event.KIND == "chance" and self.physical)

    def _undo_point(self) -> int:
        """Where an undo now cuts the events in effect: at the last input. (The inputs
        before it are counted as played again, as :meth:`Deriver._undo` counts them.)"""
        places = [i for i, e in enumerate(self.events) if self.is_input(e)]
        self.replayed = _replayed(self.replayed, len(places) - 1)
        return places[-1]

    def rebuild(self, events: Sequence[Event]) -> None:
        """Reset the state to the start and apply ``events`` (already known to be valid)."""
        self.state = self.game.new_state(self.rules, self.nseats, self.physical)
        self.events = []
        self._chances = 0
        self._shown = 0
        for ev in events:
            self._apply(ev)

    def advance(self) -> Pending:
        """Record automatic and seeded chance events until a person (or bot) must act."""
        if self.forfeit is not None:
            return FORFEITED
        game = self.game
        while True:  # _expected written out for the commonest case, an automatic event
            # (methods called directly, not through a local name: compiled, a direct call)
            p = game.pending(self.state)
            kind = p.kind
            if kind == "auto":
                ev = game.auto(self.state)
            elif kind == "chance" and self.seed is not None:
                ev = self._dealt()
            else:
                return p
            self._commit(ev, DERIVED)

    def outcome(self) -> dict[str, Any] | None:
        return self.game.outcome(self.state)


@dataclass(frozen=True)
class Violation:
    """The first event of a log that breaks a rule."""

    index: int
    actor: str
    action: str
    reason: str

    def line(self, path: str) -> str:
        # a log's event may be megabytes long (a set of millions of cards): quoted in part,
        # so that the line stays a line
        action = self.action
        shown = (repr(action) if len(action) <= ACTION_SHOWN
                 else f"{action[:ACTION_SHOWN]!r}… ({len(action)} characters)")
        return f"{path}: event {self.index}: {self.actor} {shown}: {self.reason}"


ACTION_SHOWN: Final = 200  # the most characters of an event a violation's line quotes


def as_found(reason: str) -> str:
    """Why an event of a log breaks a rule, as audit and replay find it: the refusal's reason
    without its advice on what to type instead (``: type ...``, ``; type ...``), which speaks
    to a referee at the prompt, not to the reader of a log someone else recorded."""
    cut = [at for at in (reason.find(": type "), reason.find("; type ")) if at > 0]
    return reason[:min(cut)] if cut else reason


StepHook = Callable[[int, Event, "Match"], None]


def walk(game: Game, header: Header, events: Sequence[Event],
         on_step: StepHook | None = None) -> tuple[Match, Violation | None]:
    """Replay ``events`` through a fresh match, checking each; stop at the first violation."""
    match = Match(game, header)
    for index, ev in enumerate(events, start=1):
        reason = match.why_not(ev)
        if reason is not None:
            return match, Violation(index, game.actor(ev), game.notate(ev), as_found(reason))
        # checked just above (submit would check it again); _accept without its test for
        # an undo, which is rare
        if type(ev) is _UNDO or type(ev) is _FORFEIT:
            try:
                match._accept(ev)
            except LogError as exc:  # an undo past MAX_REPLAYED, before anything changed
                return match, Violation(index, game.actor(ev), game.notate(ev), str(exc))
        else:
            match._commit(ev)
        if on_step is not None:
            on_step(index, ev, match)
    return match, None



class _Keep:
    """What :class:`Deriver` gives a match as its log: every event logged, each with the
    time of the input it follows (or, not ``keep``, only their count)."""

    def __init__(self, times: list[int] | None, now: int, keep: bool) -> None:
        self.events: list[Event] = []
        self.times = times
        self.now = now
        self.keep = keep
        self.count = 0
        self.every = True  # told of derived events too

    def append(self, event: Event, how: int = INPUT) -> None:
        self.count += 1
        if self.keep:
            self.events.append(event)
            if self.times is not None:
                self.times.append(self.now)


@dataclass
class Derived:
    """A format 2 log's events, derived from its inputs: every event logged (undone ones and
    undos included), when each was entered (a timed log), and the walk that made them."""

    events: list[Event]
    times: list[int] | None
    walked: tuple[Match, Violation | None]


class Deriver:
    """Plays a format 2 log's inputs, fed as they are read, through a fresh match: the
    engine records what it derives between them and checks each input, as an audit does.

    With ``keep`` every event logged is kept (``events``, ``times``); without, only counted
    (``logged``), and the match keeps no events either, so a long log is audited in memory
    that does not grow with it: an undo then replays the inputs still in effect, which are
    kept as (time, event) pairs."""

    def __init__(self, game: Game, header: Header, keep: bool = True,
                 keep_inputs: bool = True) -> None:
        """``keep_inputs`` (without ``keep``): keep the inputs in effect for an undo; else an
        undo raises :class:`NeedInputs` (a log where nobody could undo, read in less
        memory, is read again with them)."""
        self.game = game
        self.header = header
        self.keep = keep
        self.keep_inputs = keep_inputs and not keep
        self.log = _Keep([] if header.timed and keep else None, header.clock or 0, keep)
        # not keeping events, the match has no log: its own count is the events' (plus
        # ``_base``, the events before the match an undo last replayed)
        self.match = Match(game, header, self.log if keep else None)
        self.match.keep = keep
        self._base = 0
        self.inputs: list[tuple[int, Event | None]] = []  # in effect, when not keep
        self.violation: Violation | None = None
        self.replayed = 0  # inputs played again for undos (see MAX_REPLAYED)
        self.undone: list[int] = []  # the events (numbers) that took a move back: undos
        self.after_shown: list[int] = []  # those of them after the seed dealt or showed cards
        # With a person at the table (only a person undoes): for each input in effect, whether
        # it is a race drawn from the seed, and the events that showed cards in effect before
        # it and once it was placed (Match._shown: chance events, and events that show cards
        # themselves, such as a card drawn; for a move, the count before it, as the cards it
        # shows itself were shown since it). An undo after more is one after cards were shown.
        # Also once an undo came where nobody sat (a streamed log is then read again keeping
        # its inputs): the marks do not depend on whether the seats say a person sat there,
        # as the audit of a log keeping every event (log._takebacks) marks them all alike.
        self._track = header.people or self.keep_inputs
        self.match.count_shown = self._track
        self._placed: list[tuple[bool, int, int]] = []

    @property
    def logged(self) -> int:
        return self.log.count if self.keep else self._base + self.match.logged

    def _count(self, ev: Event) -> None:
        """Log one event the match does not record itself (an input that broke a rule, an
        undo replayed as a fresh match)."""
        if self.keep:
            self.log.append(ev)
        else:
            self._base += 1

    def feed(self, t: int, ev: Event | None) -> bool:
        """Place one input (None: a race drawn from the seed); False once one broke a rule
        (``violation``: the first; it is the last event logged)."""
        if self.violation is not None:
            return False
        match = self.match
        log = self.log
        p = match.advance()
        log.now = t
        track = self._track
        before = match._shown if track else 0
        if ev is None:
            if match.forfeit is not None:  # over: refused as the race the seed would draw,
                drawn = match._drawn()  # as a reader keeping every event refuses it
                why = None if drawn is None else match.why_not(drawn)
                if drawn is not None and why is not None:
                    return self._refused(drawn, why)
            if match.draw() is None:
                self.violation = Violation(self.logged + 1, "table", "race",
                                           "a race is recorded where none can be drawn")
                return False
            if self.keep_inputs:
                self.inputs.append((t, None))
            if track:
                self._placed.append(placement(True, None, before, match._shown))
            return True
        if type(ev) is _UNDO and not self.keep and match.forfeit is None:
            if not self.keep_inputs:
                raise NeedInputs
            try:
                done = self._undo(t, ev)
            except LogError as exc:  # past MAX_REPLAYED: refused as that undo
                return self._refused(ev, str(exc))
            if done:
                self._took_back(before)
            return done
        reason = match.why_not(ev, p)  # against the pending advance returned
        if reason is not None:
            return self._refused(ev, reason)
        if type(ev) is _UNDO:
            try:
                match._accept(ev)
            except LogError as exc:  # past MAX_REPLAYED, before anything changed
                return self._refused(ev, str(exc))
            self._took_back(before)
        else:
            match._accept(ev)
            if track:
                self._placed.append(placement(False, ev, before, match._shown))
        if self.keep_inputs:
            self.inputs.append((t, ev))
        return True

    def _took_back(self, chances: int) -> None:
        """An undo was played (the last event logged), ``chances`` events that showed cards
        in effect before it (see :func:`take_back`)."""
        self.undone.append(self.logged)
        took = take_back(self._placed, chances)
        if took is not None and took[0]:
            self.after_shown.append(self.logged)

    def _refused(self, ev: Event, reason: str) -> bool:
        """``ev`` is the first input that cannot be played (``violation``, the last event
        logged): False."""
        self._count(ev)
        self.violation = Violation(self.logged, self.game.actor(ev), self.game.notate(ev),
                                   as_found(reason))
        return False

    def feed_records(self, records: list[Any], real: dict[type, Any], t: int) -> bool:
        """:meth:`feed` the events of an untimed log's records (kabucli.compact: ``real``
        maps each record's type to its event's; a race mark's is not in it), all entered at
        ``t``: the records turned into events in the same compiled loop."""
        for rec in records:
            cls = real.get(type(rec))
            if not self.feed(t, None if cls is None else cls(*_ASTUPLE(rec))):
                return False
        return True

    def feed_all(self, inputs: list[tuple[int, Event | None]]) -> bool:
        """:meth:`feed` each of ``inputs`` in turn (the loop compiled with the rest); False
        once one broke a rule."""
        return all(self.feed(t, ev) for t, ev in inputs)

    def _undo(self, t: int, ev: Event) -> bool:
        """An undo, when the match keeps no events: play the inputs still in effect but the
        last one taken back (and the races after it) into a fresh match."""
        inputs = self.inputs
        last = max((i for i, (_, e) in enumerate(inputs) if e is not None), default=-1)
        if last < 0:
            self._count(ev)
            self.violation = Violation(self.logged, self.game.actor(ev),
                                       self.game.notate(ev), "there is nothing to take back")
            return False
        # (LogError before it is counted; the inputs played again, races drawn from the
        # seed not among them, as Match._undo_point counts them)
        self.replayed = _replayed(self.replayed,
                                  sum(1 for _, e in inputs[:last] if e is not None))
        self._count(ev)
        logged = self.logged
        kept = inputs[:last]
        match = Match(self.game, self.header)
        match.keep = False
        match.count_shown = self._track
        for _, e in kept:
            match.advance()
            if e is None:
                match.draw()
            else:
                match._accept(e)
        match.advance()  # the events derived after it were logged before the undone input
        match.logged = 0
        self._base = logged
        self.match = match
        self.inputs = kept
        return True

    def finish(self) -> Derived:
        """Record what the engine derives after the last input; the events and the walk."""
        if self.violation is None:
            self.match.advance()
        return Derived(self.log.events, self.log.times, (self.match, self.violation))


def placement(race: bool, ev: Event | None, before: int, shown: int) -> tuple[bool, int, int]:
    """What :func:`take_back` keeps of an input placed (``ev``, None for a race mark): whether
    it is a race drawn from the seed, and the events that showed cards in effect before it and
    once it was placed (``shown``). For a move, the count before it: the cards it shows itself
    (a card drawn) were shown since it."""
    return race, before, before if ev is not None and ev.KIND == "action" else shown


def take_back(placed: list[tuple[bool, int, int]], chances: int) -> tuple[bool, int] | None:
    """What an undo does to ``placed``, for each input in effect: whether it is a race drawn
    from the seed, and the events that showed cards in effect before it and once it was placed
    (see :class:`Deriver`); ``chances`` are in effect before the undo. The input it takes back
    (the last but races) and the races after it leave ``placed``. Whether it came after cards
    were dealt or shown since that input (more such events in effect than once it was placed),
    and those in effect once it is taken back; None when no input is in effect. (The streamed
    audit, and the audit of a log that keeps every event, mark takebacks so.)"""
    k = len(placed) - 1
    while k >= 0 and placed[k][0]:
        k -= 1
    if k < 0:
        return None
    _, before, after = placed[k]
    del placed[k:]
    return chances > after, before


def derive(game: Game, header: Header,
           inputs: Sequence[tuple[int, Event | None]]) -> tuple[Derived, int]:
    """Play a log's inputs ((time, event), the event None for a race drawn from the seed)
    through a fresh match (see :class:`Deriver`); and how many of them were placed: all, or
    up to and with the first that breaks a rule (the events of those after it cannot be
    derived)."""
    deriver = Deriver(game, header)
    placed = 0
    for t, ev in inputs:
        placed += 1
        if not deriver.feed(t, ev):
            break
    return deriver.finish(), placed


def classify(game: Game, header: Header,
             events: Sequence[Event]) -> tuple[list[int], Violation | None]:
    """How each event of a log came about (:mod:`kabucli.compact`: derived by the engine, an
    input, or a race drawn from the seed), up to the first that breaks a rule."""
    match = Match(game, header)
    seeded = match.seed is not None
    hows: list[int] = []
    for index, ev in enumerate(events, start=1):
        p = game.pending(match.state)
        reason = match.why_not(ev)
        if reason is not None:
            return hows, Violation(index, game.actor(ev), game.notate(ev), as_found(reason))
        kind = p.kind
        if kind == "auto" or (kind == "chance" and seeded):
            hows.append(DERIVED)
        elif seeded and ev.KIND == "chance":
            hows.append(DRAW)
        else:
            hows.append(INPUT)
        match._accept(ev)
    return hows, None
