"""Playing a game: seats, bots, the log file, and what a typed line does.

The command layer (cli.py) reads lines and draws; everything that decides something lives here,
so scripted play, interactive play, resume and tests share one path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from kabucli import bots as botreg, games
from kabucli.engine import Game, Match, check_header, make_header, walk
from kabucli.errors import IllegalMove, KabuError, LogError, ParseError
from kabucli.events import Event, Undo
from kabucli.log import EXTERNAL, Fmt, LogWriter, SeatInfo, format_for, read_log
from kabucli.notation import MAX_LINE, whole
from kabucli.shuffle import Rng

COMMANDS = {
    "?": "list the legal moves (or what may be typed now)",
    "undo": "take back the last move (bots' replies too); the log records the correction",
    "table": "draw the table again",
    "help": "show the move notation and these commands",
    "quit": "leave the game; the log keeps everything so far",
}


def parse_bot_specs(specs: Iterable[str], nseats: int) -> dict[int, str]:
    """``SEAT=KIND`` pairs (SEAT is N, pN or ``all``) as a seat -> kind mapping."""
    out: dict[int, str] = {}
    for spec in specs:
        seat_text, sep, kind = spec.partition("=")
        if not sep or not kind.strip():
            raise ParseError(f"--bot '{spec}' should look like SEAT=KIND, e.g. 2=random")
        s = seat_text.strip().lower().removeprefix("p")
        if s in ("all", "*"):
            for seat in range(1, nseats + 1):
                out[seat] = kind.strip()
            continue
        number = whole(s, 1, nseats)
        if number is None:
            raise ParseError(f"--bot '{spec}': there is no seat '{seat_text}' (seats 1-{nseats})")
        out[number] = kind.strip()
    return out


def build_seats(game: Game, players: int | None, names: list[str],
                bot_specs: list[str]) -> list[SeatInfo]:
    if names and players is not None and players != len(names):
        raise ParseError(f"--players {players} but {len(names)} --player names were given")
    for i, name in enumerate(names, start=1):
        if not name.strip() or not name.isprintable():
            raise ParseError(f"--player {name!r} (seat {i}): a name must be printable text, "
                             "not empty")
    n = len(names) if names else (players if players is not None else game.default_players)
    if not game.min_players <= n <= game.max_players:
        raise ParseError(f"{game.title} takes {game.min_players}-{game.max_players} players, "
                         f"not {n}")
    kinds = parse_bot_specs(bot_specs, n)
    for seat, kind in kinds.items():
        try:
            botreg.check_kind(game.name, kind)
        except ParseError as exc:
            raise ParseError(f"--bot {seat}={kind}: {exc}") from None
    seats = []
    for i in range(1, n + 1):
        bot = kinds.get(i)
        name = names[i - 1] if names else (bot or f"p{i}")
        seats.append(SeatInfo(name, f"bot:{bot}" if bot else "human"))
    return seats


def make_bots(match: Match, kinds: dict[int, str]) -> dict[int, Any]:
    """The bot of each seat in ``kinds`` (seat -> bot kind), each with its own seeded
    generator."""
    seed = match.seed if match.seed is not None else 0
    return {i: botreg.make(match.game.name, kind, Rng(seed, f"bot/{i}"), match, i)
            for i, kind in sorted(kinds.items())}


def recorded_bots(seats: list[SeatInfo]) -> dict[int, str]:
    """Seat -> bot kind, for the seats whose control is ``bot:KIND``."""
    return {i: s.control[4:] for i, s in enumerate(seats, start=1)
            if s.control.startswith("bot:")}


def resume_bots(game: Game, seats: list[SeatInfo], specs: list[str]) -> dict[int, str]:
    """The bots to play a resumed log's bot seats. A built-in bot is the one the log names.
    A user's own bot (``cmd:``, ``py:``) is never started because a log names it: the person
    resuming names it again (``specs``: ``--bot SEAT=KIND``), or resume is refused."""
    given = parse_bot_specs(specs, len(seats))
    kinds = recorded_bots(seats)
    for seat, kind in given.items():
        recorded = kinds.get(seat)
        if recorded is None or not recorded.startswith(EXTERNAL):
            was = "a person's" if recorded is None else f"the built-in bot {recorded!r}'s"
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
        named = ", ".join(f"p{i} {kinds[i]!r}" for i in missing)
        again = " ".join(f"--bot {i}=" + ("cmd:COMMAND" if kinds[i].startswith("cmd:")
                                          else "py:FILE.py:CLASS") for i in missing)
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


@dataclass
class Session:
    """A match being played: the match, its bots, which seats are people, and the log path."""

    match: Match
    bots: dict[int, Any]
    log_path: Path | None = None
    humans: set[int] = field(default_factory=set)

    @property
    def game(self) -> Game:
        return self.match.game

    def run_bots(self) -> list[tuple[int, Event]]:
        """Let the engine and the bots play until a person must act or the match ends.
        Returns the new events with their log indices.

        A trusted move (a built-in bot's pick among the legal moves, see
        :meth:`Game.bot_move`) is recorded as it is; any other bot's move is checked first."""
        m = self.match
        game = m.game
        bots = self.bots
        start = m.logged
        before = len(m.events)
        advance = m.advance
        bot_move = game.bot_move
        while True:
            p = advance()
            if p.kind == "over":
                break
            move = bot_move(m, bots, p)
            if move is None:
                break
            ev, trusted = move
            if trusted:
                m.accept_trusted(ev)
                continue
            try:
                m.submit(ev)
            except IllegalMove as exc:
                who = game.actor(ev)
                raise KabuError(f"bot {who} played {game.notate(ev)!r}, which is not "
                                f"legal: {exc}") from None
        # No undo happens here, so every new event in effect is also a new log record.
        return list(enumerate(m.events[before:], start + 1))

    def close(self) -> None:
        """Close the log and tell external bots the game is over."""
        if self.match.writer is not None:
            self.match.writer.close()
        outcome = self.match.outcome()
        for bot in self.bots.values():
            closer = getattr(bot, "close", None)
            if closer is not None:
                closer(outcome)

    def viewer(self) -> int | None:
        """Whose eyes the table is drawn for: the one person playing, the person to act when
        several share the screen, or everyone when only bots play or at a real table."""
        if self.match.physical or not self.humans:
            return None
        if len(self.humans) == 1:
            return next(iter(self.humans))
        p = self.match.pending
        acting = [s for s in p.seats if s in self.humans]
        return acting[0] if acting else None

    def prompt_seats(self) -> str:
        """Who the prompt is for: the people among the seats that may act, or the referee."""
        m = self.match
        p = m.pending
        if m.physical or p.kind != "action":
            return "referee" if m.physical or p.kind == "chance" else ""
        people = [s for s in p.seats if s not in self.bots]
        return ", ".join(f"p{s}" for s in people)

    def parse_line(self, line: str) -> Event:
        """Parse a typed move. A blank line is the game's ``blank_move``; a move that names
        no seat and only makes sense with one, or that the game gives to a bot's seat, is
        taken as the move of the one person among the seats that may act (so a person
        playing with bots can type just ``claim``, or ``stop`` when a bot flips next)."""
        m = self.match
        text = line.strip() or (self.game.blank_move(m.state) or "")
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
        question = None if confirm is None else self.game.confirm(m.state, ev)
        if confirm is not None and question is not None:
            reason = m.why_not(ev)  # a move that is refused anyway is not asked about
            if reason is not None:
                raise IllegalMove(reason)
            if not confirm(question):
                return None
        m.submit(ev)
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

    def legal_texts(self) -> list[str]:
        m = self.match
        p = m.pending
        out: list[str] = []
        if p.kind == "action":
            for seat in p.seats:
                out += [self.game.notate(e) for e in self.game.legal(m.state, seat)]
        return out


def start(game: Game, rules: msgspec.Struct, seats: list[SeatInfo], seed: int | None,
          log_path: Path | None, fmt: Fmt | None, durable: bool = True) -> Session:
    header = make_header(game, rules, seats, seed)
    writer = None
    if log_path is not None:
        writer = LogWriter.create(log_path, header, fmt or format_for(log_path), durable)
    match = Match(game, header, writer)
    humans = {i for i, s in enumerate(seats, 1) if s.control == "human"}
    return Session(match, make_bots(match, recorded_bots(seats)), log_path, humans)


def resume(path: Path, bot_specs: list[str] | None = None,
           durable: bool = True) -> tuple[Session, LogError | None]:
    """Reopen a log to play on: replay it and append from its last good record.

    Only a torn tail (its last record cut short) is taken off, into a side file
    (``session.match.writer.torn_file``); it is returned as the error. Any other damage, a
    broken rule, a finished game or a user's bot not named again (see :func:`resume_bots`)
    refuses, and then the file is left as it is."""
    data = read_log(path, games.event_types, strict=False)
    if data.error is not None and not data.torn:
        raise LogError(f"{data.error}; resume leaves a damaged log as it is (kabucli log "
                       f"repair {path} NEW copies what still checks)")
    game = games.get(data.header.game)
    try:
        check_header(game, data.header)
    except KabuError as exc:  # a header this kabucli cannot play: unreadable, as in audit
        raise LogError(f"{path}: {exc}") from None
    match, violation = walk(game, data.header, data.events)
    if violation is not None:
        raise KabuError(violation.line(str(path)) + " (cannot resume a log that breaks a rule)")
    if match.over:  # checked before reopening, which would set a torn tail aside
        raise KabuError(f"{path}: the game in this log is already over")
    bots = make_bots(match, resume_bots(game, data.header.seats, bot_specs or []))
    match.writer = LogWriter.reopen(path, data.good_bytes, len(data.events), durable)
    humans = {i for i, s in enumerate(data.header.seats, 1) if s.control == "human"}
    return Session(match, bots, path, humans), data.error


def script_lines(text: str) -> Iterator[tuple[int, str]]:
    """Numbered lines of a move script without comments (``#`` to end of line) and blanks."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield number, line
