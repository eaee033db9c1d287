"""Playing a game: seats, bots, the log file, and what a typed line does.

The command layer (kabucli.cli) reads lines and draws; everything that decides something lives here,
so scripted play, interactive play, resume and tests share one path.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

import msgspec

from kabucli import bots as botreg, games
from kabucli.compact import new_salt, seed_commitment
from kabucli.engine import Game, Match, commitment_unbound, make_header, walk
from kabucli.errors import NOT_SHOWN, BotError, IllegalMove, KabuError, LogError, ParseError
from kabucli.events import Event, Undo
from kabucli.log import EXTERNAL, Fmt, LogWriter, SeatInfo, check_times, format_for, read_log
from kabucli.notation import MAX_LINE, seat_of, split_seat, typed_form, whole
from kabucli.safetext import NAME_SHOWN, quoted, safe_text, short_number
from kabucli.shuffle import Rng

COMMANDS = {
    "?": "list the legal moves (or what may be typed now)",
    "undo": "take back the last move (bots' replies too); the log records the correction",
    "table": "draw the table again",
    "help": "show the move notation and these commands",
    "quit": "leave the game; the log keeps everything so far",
}
# At a hot seat (see Session.hot_seat), where several people may act at once and every hand
# is hidden (PUBLIC): one of them sees their own hand alone, then the screen is shared again.
LOOK: Final = "look"
LOOK_COMMAND = {
    LOOK: "look p2 (or a name): while several people may act and every hand is hidden, "
          "pass the screen to p2 to see their own hand, then hide it again",
}


# A seat in --bot and --player: N or pN.
_SPEC_SEAT = re.compile(r"p?([0-9]{1,6})", re.IGNORECASE)
# The notation separates words by spaces, ',' (lists), '|' (hands of a deal) and '='
# (pN=VALUE); '#' starts a note. A word a player's name may stand for holds none of them.
_SEPARATORS = r"\s,|="
_NAME = rf"[^{_SEPARATORS}#]+"
_WORD = re.compile(_NAME)
# A name where it stands for a seat: a whole word between those separators. The prompt and a
# script cut a '#' note off before a line is read; a line given to Session.parse_line with
# one left in ('p1 Ann#x pass') quoted 'p1#x' in its refusal, a word nobody typed: 'Ann#x' is
# one word, no name.
_NAMED = re.compile(rf"(?<![^{_SEPARATORS}]){_NAME}(?![^{_SEPARATORS}])")


def _option(text: str) -> str:
    """An option's text quoted in a message: shown safely and cut when long."""
    return f"'{safe_text(text, 60)}'"


def _spec_seat(text: str) -> int | None:
    """The seat of ``N`` or ``pN`` in a --bot or --player spec; None when it is neither."""
    found = _SPEC_SEAT.fullmatch(text.strip())
    return int(found.group(1)) or None if found else None


def _reads_as_seat(word: str) -> bool:
    """Whether a word reads as a seat of the notation, like ``p2``."""
    return word[:1] in ("p", "P") and word[1:].isascii() and word[1:].isdigit()


def _check_name(name: str, seat: int) -> None:
    """Refuse a --player name that could not be typed in place of its seat: read as a typed
    line is (:func:`~kabucli.notation.typed_form`: full-width 'ｐ２' is 'p2', the ideographic
    space a space, '＝' '=')."""
    why = ""
    typed = typed_form(name)
    if not typed.strip() or not typed.isprintable():
        why = "a name must be printable text, not empty"
    elif _WORD.fullmatch(typed) is None:
        why = "a name is one word without spaces, ',', '|', '=' or '#'"
    elif _reads_as_seat(typed):
        why = "a name like p2 would read as a seat"
    if why:
        raise ParseError(f"--player {_option(name)} (seat {seat}): {why}")


def parse_player_specs(specs: Iterable[str]) -> dict[int, tuple[str, str]]:
    """``NAME`` or ``SEAT=NAME`` options as seat -> (name, the option as given).
    ``SEAT=NAME`` names that seat; each plain ``NAME`` takes the lowest seat not named yet."""
    named: dict[int, tuple[str, str]] = {}
    plain: list[str] = []
    for spec in specs:
        seat_text, sep, name = spec.partition("=")
        if not sep:
            plain.append(spec)
            continue
        seat = _spec_seat(seat_text)
        if seat is None:
            raise ParseError(f"--player {_option(spec)}: {_option(seat_text)} is not a seat: "
                             "use NAME or SEAT=NAME, e.g. 3=Bob")
        if seat in named:
            raise ParseError(f"--player {_option(spec)}: seat {seat} is named "
                             f"{named[seat][0]!r} already")
        _check_name(name, seat)
        named[seat] = (name, spec)
    seat = 1
    for name in plain:
        while seat in named:
            seat += 1
        _check_name(name, seat)
        named[seat] = (name, name)
    return named


def parse_bot_specs(specs: Iterable[str]) -> list[tuple[int | None, str, str]]:
    """``SEAT=KIND`` options (SEAT is N, pN or ``all``) as (seat or None for all, kind, the
    option as given), in order: a later one overrides an earlier one for the same seat."""
    out: list[tuple[int | None, str, str]] = []
    for spec in specs:
        seat_text, sep, kind = spec.partition("=")
        if not sep or not kind.strip():
            raise ParseError(f"--bot {_option(spec)} should look like SEAT=KIND, e.g. 2=random")
        seat = _spec_seat(seat_text)
        if seat_text.strip().lower() in ("all", "*"):
            out.append((None, kind.strip(), spec))
        elif seat is None:
            raise ParseError(f"--bot {_option(spec)}: {_option(seat_text)} is not a seat "
                             "(a number, pN or all)")
        else:
            out.append((seat, kind.strip(), spec))
    return out


def seat_kinds(specs: Iterable[str], nseats: int) -> dict[int, str]:
    """``--bot SEAT=KIND`` options for a match of ``nseats`` seats as seat -> kind."""
    out: dict[int, str] = {}
    for seat, kind, spec in parse_bot_specs(specs):
        if seat is not None and seat > nseats:
            raise ParseError(f"--bot {_option(spec)}: there is no seat {seat} (seats 1-{nseats})")
        for s in range(1, nseats + 1) if seat is None else (seat,):
            out[s] = kind
    return out


def build_seats(game: Game, players: int | None, player_specs: list[str],
                bot_specs: list[str]) -> list[SeatInfo]:
    """The seats of a new match from --players, --player and --bot.

    Without --players there are as many seats as the highest seat --player or --bot names,
    or the game's usual number when that is fewer than the game needs."""
    names = parse_player_specs(player_specs)
    bots = parse_bot_specs(bot_specs)
    given = [(seat, f"--player {_option(spec)}") for seat, (_, spec) in names.items()]
    given += [(seat, f"--bot {_option(spec)}") for seat, _, spec in bots if seat is not None]
    lo, hi = game.min_players, game.max_players
    if players is not None and not lo <= players <= hi:
        raise ParseError(f"{game.title} takes {lo}-{hi} players, not {short_number(players)}")
    n = players if players is not None else max((seat for seat, _ in given), default=0)
    if n < lo:  # named seats fewer than the game needs: its usual number
        n = game.default_players
    for seat, option in sorted(given):
        if seat > min(n, hi):
            limit = (f"--players {n}" if players is not None
                     else f"{game.title} takes {lo}-{hi} players")
            raise ParseError(f"{option}: there is no seat {seat} ({limit})")
    kinds: dict[int, str] = {}
    for bot_seat, kind, spec in bots:
        try:
            botreg.check_kind(game.name, kind)
        except ParseError as exc:
            raise ParseError(f"--bot {_option(spec)}: {exc}") from None
        for s in range(1, n + 1) if bot_seat is None else (bot_seat,):
            kinds[s] = kind
    seats = []
    for i in range(1, n + 1):
        bot = kinds.get(i)
        name = names[i][0] if i in names else (bot or f"p{i}")
        seats.append(SeatInfo(name, f"bot:{bot}" if bot else "human"))
    for j, (name, spec) in names.items():
        typed = name_key(name)  # as the name is read typed ('Ａｎｎ' is 'Ann')
        for i, other in enumerate(seats, start=1):
            if i != j and name_key(other.name) == typed:
                raise ParseError(f"--player {_option(spec)} (seat {j}): seat {i} is called "
                                 f"{other.name!r} too; give each seat its own name")
    return seats


def name_key(name: str) -> str:
    """A seat's name (or a word typed for one) as names are told apart: folded as a typed
    line is (:func:`~kabucli.notation.typed_form`: 'Ａｎｎ' is 'Ann'), in lower case. Two
    names with one key are one name to whoever types it."""
    return typed_form(name).lower()


def typed_names(seats: Iterable[SeatInfo]) -> dict[str, int]:
    """The seat each name stands for in a typed line, by its :func:`name_key`: every name
    that is one word, does not read as a seat (``p2``) and no other seat shares."""
    out: dict[str, int] = {}
    shared: set[str] = set()
    for i, seat in enumerate(seats, start=1):
        key = name_key(seat.name)
        if key in out:
            shared.add(key)
        elif _WORD.fullmatch(key) and not _reads_as_seat(key):
            out[key] = i
    return {k: v for k, v in out.items() if k not in shared}


# a seat and the word after it: its own name, as the table writes it ("p3 Cid"), is dropped
# (the seat in any case, as the notation reads it: "P3 Cid")
_SEAT_NAMED = re.compile(rf"\bp([1-9][0-9]*) +({_NAME})(?![^{_SEPARATORS}])", re.IGNORECASE)


def name_seats(text: str, names: dict[str, int]) -> str:
    """``text`` with each word that is a player's name (see :func:`typed_names`) written as
    that player's seat ``pN``; a seat typed with its own name after it, as the table labels
    it (``p3 Cid flip 7``), is that seat once."""
    def seat_word(found: re.Match[str]) -> str:
        seat = names.get(name_key(found.group()))
        return found.group() if seat is None else f"p{seat}"

    def own_name(found: re.Match[str]) -> str:
        same = names.get(name_key(found.group(2))) == int(found.group(1))
        return f"p{found.group(1)}" if same else found.group()

    if not names:
        return text
    return _NAMED.sub(seat_word, _SEAT_NAMED.sub(own_name, text))


def two_seats(named: str, nseats: int) -> None:
    """A ParseError when a typed line (``named``: with its names written as seats) starts
    with two seats ('p2 p3 claim', 'Bob Ann claim'): a move is one seat's. (The game's
    parser took the first as the seat and refused the rest, 'p3 claim', as no move.)"""
    words = named.split()
    if len(words) < 3:
        return
    first, second = seat_of(words[0], nseats), seat_of(words[1], nseats)
    if first is None or second is None:
        return
    rest = " ".join(words[2:])
    if first == second:
        raise ParseError(f"a move names its seat once, not p{first} twice: type "
                         f"{quoted(f'p{first} {rest}')}")
    raise ParseError(f"a move names one seat, not two (p{first} and p{second}): type "
                     f"{quoted(f'p{first} {rest}')} or {quoted(f'p{second} {rest}')}")


def close_bots(bots: dict[int, Any], outcome: dict[str, Any] | None) -> None:
    """Tell the bots that have a ``close`` (external programs, Python classes' processes)
    that the game is over, with its outcome (None: unfinished)."""
    for bot in bots.values():
        closer = getattr(bot, "close", None)
        if closer is not None:
            closer(outcome)


def make_bots(match: Match, kinds: dict[int, str],
              timeout: float | None = None) -> dict[int, Any]:
    """The bot of each seat in ``kinds`` (seat -> bot kind), each with its own seeded
    generator (``timeout``: the seconds a program or Python bot has for each answer; None:
    ``KABUCLI_BOT_TIMEOUT``'s, else the default)."""
    seed = match.seed if match.seed is not None else 0
    return {i: botreg.make(match.game.name, kind, Rng(seed, f"bot/{i}"), match, i, timeout)
            for i, kind in sorted(kinds.items())}


class _Otherwise(Exception):
    """The bots would have played otherwise than a log did (see :func:`caught_up_bots`)."""


def caught_up_bots(game: Game, header: Any, events: list[Event], kinds: dict[int, str],
                   progress: Callable[[int, int], None] | None = None
                   ) -> tuple[dict[int, Any], Event | None]:
    """The built-in bots of ``kinds`` (seat -> kind) as they stood after ``events`` (a
    log's, each already found valid): made afresh, then asked again at each of their turns
    the log holds, so that their generators are where they were and a resumed match goes on
    as the unbroken one would have. And the move due first, when the log ends with a race
    the bots drew: the winner's move, chosen then (None: none). As soon as the log went
    otherwise than they would have (a person took a move back; a bot of another version
    picked another move) they are made afresh instead: they play on, as well, from the start
    of their generators. A user's own bot is not asked here (its seat is a person's to them):
    a race it took part in is not drawn again, and the bots' generators may then stand
    elsewhere than in the unbroken match, unnoticed. ``progress`` is told (events gone
    through, all events) every 4,096 events or so."""
    kinds = {s: k for s, k in kinds.items() if not k.startswith(EXTERNAL)}
    m = Match(game, header)
    bots = make_bots(m, kinds)
    if not kinds or any(type(e) is Undo for e in events):
        return bots, None
    n = len(events)

    def same(i: int, ev: Event) -> None:  # each event the engine or the bots record
        if i <= n and events[i - 1] != ev:
            raise _Otherwise
        if i & 4095 == 0 and progress is not None:
            progress(i, n)

    m.keep = False  # (compared as they come instead: a long log is not held twice)
    m.on_event = same
    try:
        while True:
            p = m.advance()  # (the events the engine derives)
            if m.logged >= n or p.kind == "over":
                return bots, None
            move = game.bot_move(m, bots, p)  # (a race among bots is drawn and recorded)
            if m.logged > n:
                break
            if m.logged == n:  # the log ends with that race: its winner moves first
                return bots, None if move is None else move[0]
            ev = events[m.logged]
            if move is not None and move[0] != ev:
                break
            m.submit(ev)
    except (_Otherwise, KabuError):  # (the log was walked already: none of it is refused)
        pass
    close_bots(bots, None)
    return make_bots(Match(game, header), kinds), None


def recorded_bots(seats: list[SeatInfo]) -> dict[int, str]:
    """Seat -> bot kind, for the seats whose control is ``bot:KIND``."""
    return {i: s.control[4:] for i, s in enumerate(seats, start=1)
            if s.control.startswith("bot:")}


def own_bots_again(kinds: dict[int, str]) -> str:
    """The ``--bot`` options a resume needs for the bots of the user's own among ``kinds``
    (seat -> bot kind, as :func:`recorded_bots`), never the programs a log names (see
    :func:`resume_bots`) but placeholders to fill in: ``--bot 2=cmd:COMMAND --bot
    3=py:FILE.py:CLASS``; '' when there are none."""
    return " ".join(f"--bot {i}=" + ("cmd:COMMAND" if kind.startswith("cmd:")
                                     else "py:FILE.py:CLASS")
                    for i, kind in sorted(kinds.items()) if kind.startswith(EXTERNAL))


def resume_bots(game: Game, seats: list[SeatInfo], specs: list[str]) -> dict[int, str]:
    """The bots to play a resumed log's bot seats. A built-in bot is the one the log names.
    A user's own bot (``cmd:``, ``py:``) is never started because a log names it: the person
    resuming names it again (``specs``: ``--bot SEAT=KIND``), or resume is refused."""
    given = seat_kinds(specs, len(seats))
    kinds = recorded_bots(seats)
    for seat, kind in given.items():
        recorded = kinds.get(seat)
        if recorded is None or not recorded.startswith(EXTERNAL):
            was = ("a person's" if recorded is None
                   else f"the built-in bot {quoted(recorded, NAME_SHOWN)}'s")
            raise ParseError(f"--bot {seat}={kind}: seat {seat} is {was} in this log; "
                             "resume gives --bot only to seats of a bot of your own")
        if not kind.startswith(EXTERNAL):
            raise ParseError(f"--bot {seat}={kind}: seat {seat} is a bot of your own in this "
                             "log: give cmd:COMMAND or py:FILE.py:CLASS")
    missing = []
    for seat, kind in kinds.items():
        try:
            botreg.check_kind(game.name, given.get(seat, kind))
        except ParseError as exc:
            raise ParseError(f"seat {seat}: {exc}") from None
        if kind.startswith(EXTERNAL) and seat not in given:
            missing.append(seat)
    if missing:
        # (a control is any length in a log: quoted cut, as audit's line names it)
        named = ", ".join(f"p{i} {quoted(kinds[i], NAME_SHOWN)}" for i in missing)
        again = own_bots_again({i: kinds[i] for i in missing})
        raise KabuError(f"the log names bots of your own ({named}); resume never starts a "
                        f"program a log names: to go on, name each again, e.g. {again}")
    return kinds | given


def random_seed() -> int:
    return int.from_bytes(os.urandom(8), "big") >> 16  # short enough to type back


def default_log_path(game: Game, fmt: Fmt) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    suffix = ".jsonl" if fmt == "jsonl" else ".kbl"
    path = Path(f"{game.name}-{stamp}{suffix}")
    n = 1
    while path.exists():
        n += 1
        path = Path(f"{game.name}-{stamp}-{n}{suffix}")
    return path


# A hot seat's viewer when several people may act at once and see differently (Uno Dare's
# catch window: the player to move, the one who did not call UNO, those who may catch): the
# table as every seat sees it, no hand drawn, since any of them may be at the screen.
PUBLIC: Final = 0


@dataclass
class Session:
    """A match being played: the match, its bots, which seats are people, and the log path."""

    match: Match
    bots: dict[int, Any]
    log_path: Path | None = None
    humans: set[int] = field(default_factory=set)
    # seat -> the kind of its bot as this session runs it: a resumed log's user's bots are
    # those named again (--bot), never the programs the log names (see resume_bots)
    kinds: dict[int, str] = field(default_factory=dict)
    # a resumed log that ends with a race the bots drew: the move its winner chose then,
    # played first (see caught_up_bots)
    due: Event | None = None
    # a resumed log's events, played before this session started (a hot seat draws them
    # again for a person given the screen who had not seen them: see kabucli.cli.table._drive_on)
    past: list[Event] = field(default_factory=list)

    @property
    def game(self) -> Game:
        return self.match.game

    def run_bots(self) -> list[tuple[int, Event]]:
        """Let the engine and the bots play until a person must act or the match ends.
        Returns the new events with their log indices (none when the match keeps no events,
        ``Match.keep`` false, as kabucli sim and play with bots alone and nothing drawn
        play it: count ``Match.logged`` then).

        A trusted move (a built-in bot's pick among the legal moves, see
        :meth:`Game.bot_move`) is recorded as it is; any other bot's move is checked first.
        A resumed match's move due first (:attr:`due`) is played first."""
        m = self.match
        game = m.game
        bots = self.bots
        start = m.logged
        before = len(m.events)
        due, self.due = self.due, None
        while True:  # methods called directly, not through local names: compiled, direct calls
            p = m.advance()
            if p.kind == "over":
                break
            if due is not None:  # (checked like a move of a bot not trusted)
                move: tuple[Event, bool] | None = (due, False)
                due = None
            else:
                try:
                    move = game.bot_move(m, bots, p)
                except BotError as exc:
                    raise self._bot_failed(exc) from None
            if move is None:
                break
            ev, trusted = move
            if trusted:
                m.accept_trusted(ev)
                continue
            try:
                m.submit(ev)
            except IllegalMove as exc:
                raise KabuError(self._bot_refused(ev, str(exc))) from None
        if m.writer is not None:  # what was shown is on disk before the prompt
            m.writer.settle()
        # No undo happens here, so every new event in effect is also a new log record.
        return list(enumerate(m.events[before:], start + 1))

    def _bot_refused(self, ev: Event, why: str) -> str:
        """The words that end a game whose bot made an illegal move ``ev`` (``why``: the
        refusal). With people at a seeded table, said to them: the refusal may name cards of
        the bot's hand they do not see ('p2's hand RD2 B3 ... does not hold R1'), so it is
        left out where the bot's view is not theirs, and a move hidden from them
        (:meth:`Game.hidden_from`) is not quoted. (kabucli sim, bots alone, says it all.)"""
        m = self.match
        game = m.game
        who = game.actor(ev)
        move = quoted(game.notate(ev))
        if m.physical or not self.humans:
            return f"bot {who} played {move}, which is not legal: {why}"
        seat = getattr(ev, "seat", None)
        people = sorted(self.humans)
        if any(game.hidden_from(ev, p) for p in people):
            move = "a move hidden from the people at the table"
        if isinstance(seat, int) and self._sees_apart(seat, people):
            return (f"bot {who} played {move}, which is not legal (why is not shown: it may "
                    f"name {who}'s cards, which the people at the table do not see)")
        return f"bot {who} played {move}, which is not legal: {why}"

    def _bot_failed(self, exc: BotError) -> BotError:
        """The words that end a game whose bot failed (``exc``): with people at a seeded
        table, as :meth:`_bot_refused`, what the bot itself wrote (an answer that is no move,
        its error, a line of its stderr) is left out where a bot's view is not theirs, for it
        may name cards of its hand ('p2 rows 1-4-4 5-6-7 ... extra'). (kabucli sim, bots
        alone, and a real table say it all.)"""
        m = self.match
        if exc.withheld is None or m.physical or not self.humans:
            return exc
        people = sorted(self.humans)
        if not any(self._sees_apart(seat, people) for seat in self.bots):
            return exc
        return BotError(f"{exc.withheld} {NOT_SHOWN}")

    def close(self) -> None:
        """Close the log and tell external bots the game is over (also when the log's last
        write fails: their processes end either way)."""
        try:
            if self.match.writer is not None:
                self.match.writer.close()
        finally:
            close_bots(self.bots, self.match.outcome())

    def seed_secret(self) -> bool:
        """Whether the seed is kept from the screen until the match ends: a seeded game with
        a person at a seat, who could work out every hidden card from it (the shuffle is
        public and fixed). Bots alone, and a real table, have nothing to hide from."""
        return self.match.seed is not None and bool(self.humans)

    def viewer(self) -> int | None:
        """Whose eyes the table is drawn for: the one person playing, the person to act when
        several share the screen (:data:`PUBLIC` when several people may act at once and one
        sees what another does not, and once nobody acts, as when the game is over: the
        screen is everyone's then, and an undo goes on with the game), or everyone when only
        bots play or at a real table."""
        if self.match.physical or not self.humans:
            return None
        if len(self.humans) == 1:
            return next(iter(self.humans))
        p = self.match.pending
        acting = [s for s in p.seats if s in self.humans]
        if not acting or (len(acting) > 1 and self._sees_apart(acting[0], acting[1:])):
            return PUBLIC
        return acting[0]

    def _sees_apart(self, seat: int, others: Iterable[int]) -> bool:
        """Whether one of ``others`` sees the game otherwise than ``seat`` (its
        :meth:`Game.view`): a hand, say, that only one of them may see."""
        game, state = self.game, self.match.state
        mine = game.view(state, seat)
        return any(game.view(state, o) != mine for o in others)

    def hidden_words(self) -> frozenset[str]:
        """At a hot seat's :data:`PUBLIC` screen (every hand hidden while several people may
        act at once), the words of what some seat sees and the screen does not (Uno Dare:
        each hand's cards): a list of moves, a completion or a refusal shown there holds none
        of them. Empty for any other screen (the person at it sees their own cards)."""
        if not self.hot_seat() or self.viewer() != PUBLIC:
            return frozenset()
        game, state = self.game, self.match.state
        public = game.view(state, PUBLIC)
        words: set[str] = set()
        for seat in range(1, self.match.nseats + 1):
            _seen_only(game.view(state, seat), public, words)
        return frozenset(words)

    def drop_events(self) -> None:
        """For bots alone (nobody takes a move back), when nothing is drawn: the match keeps
        no more events, but when a bot reads them (``reads_events``: a Python class bot's
        host is sent the events since its last turn). Kept, they grow with the match, and the
        garbage collector walking the lists they hold (hands, rows) made each event of a long
        match slower than the last. (Drawn, they are kept: an event's line is worked out from
        the events before it.)"""
        self.match.keep = any(getattr(b, "reads_events", False) is True
                              for b in self.bots.values())

    def hot_seat(self) -> bool:
        """Whether several people share one screen in a game whose cards the program holds:
        a seeded game with more than one person at a seat. (One person among bots has
        nobody to hide a hand from; at a real table the program holds no hidden card.)"""
        return not self.match.physical and len(self.humans) > 1

    def pass_screen(self, last: int | None) -> int | None:
        """The person the screen must be passed to before the table is drawn for the person
        to act now (:meth:`viewer`), or None when it need not be: not a hot seat, the same
        person as ``last`` (whom the screen was last shown to; None: nobody yet, as when
        the game starts), or a person whose view now is the view of ``last`` (at the start,
        of every other person): a game whose cards are face up to all, or hidden from all."""
        if not self.hot_seat():
            return None
        seat = self.viewer()
        if seat is None or seat == last:
            return None  # (PUBLIC: cleared of the last person's hand, passed to nobody)
        others = self.humans - {seat} if last is None else {last}
        return seat if self._sees_apart(seat, others) else None

    def people_asked(self) -> list[int]:
        """The seats of the people the play prompt asks (none at a real table, where the
        referee types every seat's moves)."""
        m = self.match
        p = m.pending
        if m.physical or p.kind != "action":
            return []
        return [s for s in p.seats if s not in self.bots]

    def prompt_seats(self) -> str:
        """Who the prompt is for: the people among the seats that may act, or the referee."""
        m = self.match
        p = m.pending
        if m.physical or p.kind != "action":
            return "referee" if m.physical or p.kind == "chance" else ""
        return ", ".join(f"p{s}" for s in self.people_asked())

    def commands(self) -> dict[str, str]:
        """The table commands the prompt answers (its help lists them, Tab completes them):
        :data:`COMMANDS`, the game's questions, and :data:`LOOK`'s where it may be typed: at
        a hot seat's shared screen, while several people may act and every hand is hidden
        (offered at every turn of a hot seat, it was refused at each one but those: in a
        game of Dare, always)."""
        m = self.match
        out = {**COMMANDS, **games.commands(self.game.name, m.physical)}
        return out | LOOK_COMMAND if self.hot_seat() and self.viewer() == PUBLIC else out

    def look_seat(self, line: str, drawn: bool = True) -> int | None:
        """The seat whose hand ``look SEAT`` (:data:`LOOK`) asks to show, alone, to its
        person; None when ``line`` is no ``look``. Only at a hot seat's :data:`PUBLIC` screen
        (``drawn``: a table is drawn at all, not for a script), and only for a person's seat;
        else raises ParseError saying why. SEAT is
        ``pN``, a player's name or both, as the table writes it (``p2 Ann``)."""
        words = line.split()
        if not words or words[0].lower() != LOOK:
            return None
        m = self.match
        names = typed_names(m.header.seats)
        if LOOK in names and not _reads_as_seat(name_seats(" ".join(words[1:]), names)):
            return None  # a player called Look typed a move by name ('look pass')
        asked = self.people_asked()
        example = f"'{LOOK} p{asked[0]}'" if asked else f"'{LOOK} p1'"
        if m.physical:
            raise ParseError(f"'{LOOK}' shows a person their hand at a shared screen; at a "
                             "real table (--physical) the program holds no hand")
        if not drawn:
            raise ParseError(f"'{LOOK}' shows a person their hand at a shared screen; a "
                             "script draws no table")
        if not self.hot_seat():
            raise ParseError(f"'{LOOK}' is for several people at one screen; here the table "
                             "shows every hand it may already (type 'table' to draw it again)")
        viewer = self.viewer()
        if viewer != PUBLIC:
            raise ParseError(f"'{LOOK}' is for when several people may act at once and every "
                             f"hand is hidden; the table is drawn for p{viewer} now")
        rest = name_seats(" ".join(words[1:]), names)
        if not rest:
            raise ParseError(f"'{LOOK}' at whose hand? type your own seat, e.g. {example} "
                             f"(asked now: {self.prompt_seats()})")
        if not _reads_as_seat(rest):
            raise ParseError(f"{quoted(' '.join(words[1:]))} is not a seat or a player's name: "
                             f"type your own seat, e.g. {example}")
        seat = whole(rest[1:], 1, m.nseats)  # (thousands of digits would stop int)
        if seat is None:
            raise ParseError(f"there is no seat {safe_text(rest[1:], 24)} (seats 1-{m.nseats})")
        if seat in self.bots:
            raise ParseError(f"p{seat} is a bot's seat; '{LOOK}' shows a person their own hand")
        return seat  # (a person not asked now may look at their own hand too)

    def parse_line(self, line: str) -> Event:
        """Parse a typed move. A blank line is the game's ``blank_move`` (refused at a hot
        seat's :data:`PUBLIC` screen, where it would be nobody's). A player's name may
        stand for the seat ``pN`` (where a notation word is spelt like a name, the word
        wins). A move that names no seat and only makes sense with one, or that the game gives
        to a bot's seat, is taken as the move of the one person among the seats that may act
        (so a person playing with bots can type just ``claim``, or ``stop`` when a bot flips
        next)."""
        m = self.match
        blank = None if line.strip() else self.game.blank_move(m.state)
        if blank and self.viewer() == PUBLIC:
            # (several people may act at one screen: the move would be given to one of them,
            # whoever pressed Enter)
            raise ParseError(f"several people may act now, so a blank line is nobody's move: "
                             f"type whose it is, e.g. 'p{self.people_asked()[0]} {blank}'")
        text = line.strip() or (blank or "")
        names = typed_names(m.header.seats)
        named = name_seats(text, names)
        two_seats(named, len(m.header.seats))
        try:
            return self._parse(text)
        except ParseError as exc:
            if named == text:
                why = self._no_such_name(text, names)
                if why is not None:  # a misspelt move, or a name nobody has: both said
                    raise ParseError(f"{exc} ({why})") from exc
                raise
            first = exc
        try:
            return self._parse(named)
        except ParseError:
            if named.split()[0] != text.split()[0]:  # it starts with a name: its own error
                raise
        raise first

    def _no_such_name(self, text: str, names: dict[str, int]) -> str | None:
        """Why a line that starts with a word standing where a seat goes, yet no seat and no
        player's name (``Dan pass`` at a table of Ann, Bob and Cid), is refused: that word,
        and the seats (the prompt adds their names); None for any other line."""
        words = text.split()
        first = words[0].lower() if words else ""
        if len(words) < 2 or not first.isalpha() or first in names or self._move_word(first):
            return None
        try:
            self._parse(" ".join(["p1", *words[1:]]))
        except ParseError:
            return None
        except KabuError:
            pass  # (the rest reads as a move, of a seat that may not make it now)
        seats = ", ".join(f"p{i}" for i in range(1, len(self.match.header.seats) + 1))
        return f"nor is {quoted(words[0])} a seat or a player's name: the players are {seats}"

    def _move_word(self, word: str) -> bool:
        """Whether ``word`` (lower case) is one of the game's move words ('pass', Kazu-Tori's
        'claim', every spelling its parser reads) or a table command ('undo'): a line that
        starts with it was typed as a move, not with a name in a seat's place."""
        return word in COMMANDS or self.game.verbs.reads(word)  # (reads the shared verbs)

    def _parse(self, text: str) -> Event:
        """:meth:`parse_line` of a line whose names are already seats."""
        m = self.match
        people = [s for s in m.pending.seats if s not in self.bots]
        head = text.split()[0].lower() if text else ""
        named = head[:1] == "p" and head[1:].isdigit()
        person = people[0] if len(people) == 1 and not m.physical and not named else None
        try:
            ev = self.game.parse(m.state, text)
        except ParseError:
            if person is None:
                raise
            try:
                return self.game.parse(m.state, f"p{person} {text}")
            except ParseError:
                pass
            raise
        if person is not None and ev.KIND == "action" and getattr(ev, "seat", None) in self.bots:
            with suppress(ParseError):
                return self.game.parse(m.state, f"p{person} {text}")
        return ev

    def submit_line(self, line: str, confirm: Callable[[str], bool] | None = None
                    ) -> Event | None:
        """Parse and play one typed move; raises ParseError or IllegalMove, changing nothing.
        With ``confirm``, a legal move the game asks about (:meth:`Game.confirm`) is played
        only if ``confirm(question)`` says yes; None when it says no."""
        if len(line) > MAX_LINE:
            raise ParseError(f"a move is at most {MAX_LINE} characters, not {len(line)}")
        m = self.match
        ev = self.parse_line(line)
        p = m.pending
        if ev.KIND == "action":
            seat = getattr(ev, "seat", None)
            if seat in self.bots:
                raise IllegalMove(f"p{seat} is a bot seat; it plays by itself")
        if ev.KIND == "chance" and not m.physical and p.kind == "chance":
            raise IllegalMove("in a seeded game the program deals; this is typed only at a "
                              "real table (--physical)")
        try:
            question = None if confirm is None else self.game.confirm(m.state, ev)
            if confirm is not None and question is not None:
                reason = m.why_not(ev)  # a move that is refused anyway is not asked about
                if reason is not None:
                    raise IllegalMove(reason)
                if not confirm(question):
                    return None
            m.submit(ev)
        except IllegalMove as exc:  # (at the PUBLIC screen: one that names a hidden card)
            hidden = self.hidden_words()
            if hidden and names_any(str(exc), hidden):
                raise IllegalMove(
                    f"{quoted(line.strip())} is not played (why is not shown: it would name "
                    "cards of a hand, hidden while several people may act)") from None
            raise
        return ev

    def undo(self) -> int:
        """Take back the last move typed by a person, with the bot moves after it.
        Returns how many moves were taken back (0 when there is nothing to take back)."""
        m = self.match

        def by_bot(ev: Event) -> bool:
            return ev.KIND == "action" and getattr(ev, "seat", None) in self.bots

        inputs = [e for e in m.events if m.is_input(e)]
        if all(by_bot(e) for e in inputs):  # no person has moved: bots' moves stay
            return 0
        count = 0
        for ev in reversed(inputs):
            m.submit(Undo())
            count += 1
            if not by_bot(ev):
                break
        return count

    def legal_texts(self, people_only: bool = False, shown: bool = False) -> list[str]:
        """The legal moves now in notation (``people_only``: not those of bot seats;
        ``shown``: not those that would name a card hidden from the screen, see
        :meth:`hidden_words`)."""
        m = self.match
        p = m.pending
        out: list[str] = []
        if p.kind == "action":
            for seat in p.seats:
                if not (people_only and seat in self.bots):
                    out += [self.game.notate(e) for e in self.game.legal(m.state, seat)]
        return self.shown(out) if shown else out

    def move_words(self, people_only: bool = False) -> list[str]:
        """How each kind of move that may be typed now begins (``deal``, ``p2 pass``: the
        game's :meth:`Game.move_words`), for Tab where :meth:`legal_texts` lists none
        (``people_only``: not the moves of bot seats; the referee's events, a deal or a
        showdown, are the table's whatever seat they name)."""
        m = self.match
        p = m.pending
        if p.kind not in ("action", "chance"):
            return []
        words = self.game.move_words(m.state)
        if p.kind == "action" and people_only:
            words = [w for w in words if (split_seat(w, m.nseats)[0] or 0) not in self.bots]
        return words

    def shown(self, texts: list[str]) -> list[str]:
        """``texts`` (moves in notation) but those that would name a card hidden from the
        screen (see :meth:`hidden_words`)."""
        hidden = self.hidden_words()
        return [t for t in texts if not names_any(t, hidden)] if hidden else texts


def _seen_only(mine: Any, public: Any, words: set[str]) -> None:
    """Add to ``words`` the words of the strings in a seat's view ``mine`` where it is not the
    :data:`PUBLIC` view ``public`` (a hand's cards where the screen has their number)."""
    if mine == public:
        return
    if isinstance(mine, dict) and isinstance(public, dict):
        for key, value in mine.items():
            _seen_only(value, public.get(key), words)
    elif isinstance(mine, str):
        words.update(mine.split())
    elif isinstance(mine, (list, tuple, dict)):
        for value in mine.values() if isinstance(mine, dict) else mine:
            _seen_only(value, None, words)


def names_any(text: str, words: frozenset[str]) -> bool:
    """Whether ``text`` holds one of ``words`` as a word of its own (``B6`` in 'play B6',
    not in 'B60')."""
    return any(w in words for w in re.findall(r"[^\s'\",;:()]+", text))


def start(game: Game, rules: msgspec.Struct, seats: list[SeatInfo], seed: int | None,
          log_path: Path | None, fmt: Fmt | None, durable: bool = True,
          commit: bool = False, started: str | None = None,
          timeout: float | None = None) -> Session:
    """A new game (``commit``: the header commits to the seed, see
    :func:`kabucli.compact.seed_commitment`; the caller shows ``header.commit``; ``started``:
    the header's start time, if not now; ``timeout``: the bots' time limit, see
    :func:`make_bots`)."""
    # a game with a person, or at a real table, records when each input was entered
    timed = seed is None or any(s.control == "human" for s in seats)
    salt = new_salt() if commit and seed is not None else None
    header = make_header(game, rules, seats, seed, timed=timed,
                         commit=None if salt is None or seed is None
                         else seed_commitment(seed, salt), salt=salt, started=started)
    match = Match(game, header)
    # the bots first (as resume does): a Python bot that cannot load, or a bad
    # KABUCLI_BOT_TIMEOUT or KABUCLI_BOT_MEMORY, stops before the log is made, leaving none
    kinds = recorded_bots(seats)
    bots = make_bots(match, kinds, timeout)
    if log_path is not None:
        try:
            match.writer = LogWriter.create(log_path, header, fmt or format_for(log_path),
                                            durable, types=games.event_types(game.name))
        except BaseException:
            close_bots(bots, None)  # (a Python bot's process, started already, ends)
            raise
    humans = {i for i, s in enumerate(seats, 1) if s.control == "human"}
    return Session(match, bots, log_path, humans, kinds)


def resume(path: Path, bot_specs: list[str] | None = None, durable: bool = True,
           progress: Callable[[int, int], None] | None = None,
           timeout: float | None = None) -> tuple[Session, LogError | None]:
    """Reopen a log to play on: replay it and append from its last good record.

    Only a torn tail (its last record cut short) is taken off, into a side file
    (``session.match.writer.torn_file``); it is returned as the error. Any other damage, a
    broken rule, a finished game or a user's bot not named again (see :func:`resume_bots`)
    refuses, and then the file is left as it is.

    ``progress`` is told how far it has come, (done, all), the first half by the log's bytes
    read, the second by the events the bots caught up with (a progress bar's). ``timeout``:
    the time limit of the user's bots named again (see :func:`make_bots`)."""
    data = read_log(path, games.event_types, strict=False,
                    progress=None if progress is None else lambda d, n: progress(d, 2 * n))
    if data.error is not None and not data.torn:
        raise _damaged(path, data.error)
    game = games.get(data.header.game)  # (its header checked against it: log._scan)
    try:  # a time on an event the engine derives: unreadable, as in audit
        check_times(data)
    except LogError as exc:
        raise _damaged(path, exc) from None
    violation = commitment_unbound(data.header)
    if violation is not None:
        raise KabuError(f"{path}: {violation.reason} (cannot resume a log that breaks a rule)")
    match, violation = walk(game, data.header, data.events)
    if violation is not None:
        raise KabuError(violation.line(str(path)) + " (cannot resume a log that breaks a rule)")
    if match.over:  # checked before reopening, which would set a torn tail aside
        raise KabuError(f"{path}: the game in this log is already over")
    kinds = resume_bots(game, data.header.seats, bot_specs or [])
    bots, due = caught_up_bots(game, data.header, data.events, kinds,
                               None if progress is None else lambda d, n: progress(n + d, 2 * n))
    bots |= make_bots(match, {s: k for s, k in kinds.items() if s not in bots}, timeout)
    try:
        match.writer = LogWriter.reopen(path, data.good_bytes, len(data.events), durable, data)
    except BaseException:  # (another kabucli holds the log, say): as start's failed log
        close_bots(bots, None)
        raise
    humans = {i for i, s in enumerate(data.header.seats, 1) if s.control == "human"}
    return Session(match, bots, path, humans, kinds, due, data.events), data.error


def _damaged(path: Path, error: LogError) -> LogError:
    """Why resume refuses the damaged log ``path``, and what mends it."""
    return LogError(f"{error}; resume leaves a damaged log as it is (kabucli log repair {path} "
                    "NEW copies what still checks)")


def without_note(line: str) -> str:
    """A typed or scripted line without its note (``#`` to its end) and the blanks about it."""
    return line.split("#", 1)[0].strip()


def script_lines(text: str) -> Iterator[tuple[int, str]]:
    """Numbered lines of a move script without notes (:func:`without_note`) and blanks.
    A byte order mark at the start (as some editors save UTF-8) is no part of the first line."""
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = without_note(raw)
        if line:
            yield number, line
