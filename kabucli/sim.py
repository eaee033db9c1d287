"""Many seeded matches between bots, on every core, with statistics one can trust.

The unit is the match, played to its end under the house rules: a Dare match is
``rounds`` rounds, a Yatchaba match ``games`` games, a Kazu-Tori match one game. Match ``i`` of
a run with seed ``S`` is dealt from seed ``S + i`` (mod 2**64), so any match of a run can be
replayed alone. With ``rotate`` the bots change seats every match, through every order of
them around the table in turn (:func:`seating_at`: every ``N`` matches in a row put each bot
once in each seat), so that no bot profits from a seat or from whom it sits after. Results
are per bot: the mean change in chips over a match with a 95% confidence interval, and match
wins (a shared lead counts as a fraction). With a log folder every match's log is written
there (a short match's with those of a few dozen others: :func:`play_match`; every match
counted has its log there, also when the run is stopped), and a run started again over the
same folder reuses the finished matches already there (so a long run can be resumed); a file
there that is not this run's is never overwritten.

Matches are played by a pool of worker processes (``workers``; or Ray tasks, ``backend="ray"``),
each match by itself from its own seed. Their results are counted in the order of the matches,
whatever order they finish in, so a run's report and its logs are the same for any number of
workers (every log of a run records the run's start time, not its own).

A bot that fails (an external or Python bot that crashes, hangs, answers garbage or an illegal
move) forfeits that match only: it counts as a loss for that bot and a shared win for the
others, is left out of the means, and its reason is kept in the report and as the last record
of the match's log (a ``forfeit`` event, see :class:`kabucli.events.Forfeit`), which a resumed
run reuses. ``max_failures`` stops a run once one bot has failed that many matches.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import re
import secrets
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from io import BytesIO
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from kabucli import bots as botreg, games
from kabucli.engine import Game, Match, make_header, walk
from kabucli.entry import dropped as _dropped
from kabucli.errors import KabuError, LogFullError, Terminated
from kabucli.events import Forfeit as ForfeitEvent
from kabucli.log import (
    EXTERNAL,
    MAGIC,
    Header,
    LogWriter,
    SeatInfo,
    now_iso,
    read_header,
    read_log,
)
from kabucli.ratings import t95
from kabucli.rules import as_dict, describe, validate
from kabucli.session import Session
from kabucli.shuffle import SEED_LIMIT, Rng

MAX_REASON = 500  # characters of a failure's reason that a log's forfeit record keeps
KEEP_FAILURES = 20  # the failures a report lists (it counts them all)


@dataclass
class BotStats:
    """Running totals for one bot over a run."""

    kind: str
    matches: int = 0
    wins: float = 0.0
    # the sum of the figures (chips changes or scores: integers) and of their squares, kept
    # as exact integers: in floats, sum(x^2) - n mean^2 lost every digit of the spread of
    # figures near a billion (chips=1000000000) to rounding
    total: int = 0
    squares: int = 0
    played: int = 0  # matches played to their end (the mean's count); the rest were forfeited
    forfeits: int = 0  # matches this bot lost by failing
    # A tournament plays each deal in every seating of every group: the matches of one deal
    # are not independent samples (in Yatchaba the chips a deal leaves in the pot are lost by
    # every seat), so its interval counts each deal once (:attr:`ci95`). For that, over the
    # deals d with the sum T_d and the count n_d of the bot's figures: how many deals, the sum
    # of T_d^2, of T_d n_d and of n_d^2 (exact integers), and each deal's (T_d, n_d).
    deals: int = 0
    deal_tt: int = 0
    deal_tn: int = 0
    deal_nn: int = 0
    by_deal: dict[int, tuple[int, int]] = field(default_factory=dict)

    def add(self, delta: int, win_share: float, deal: int | None = None) -> None:
        """A match played to its end; ``deal``: in a tournament, the deal it was dealt."""
        self.matches += 1
        self.played += 1
        self.total += delta
        self.squares += delta * delta
        self.wins += win_share
        if deal is not None:
            t, n = self.by_deal.get(deal, (0, 0))
            self.deals += not n
            self.deal_tt += (t + delta) ** 2 - t * t
            self.deal_tn += (t + delta) * (n + 1) - t * n
            self.deal_nn += 2 * n + 1
            self.by_deal[deal] = (t + delta, n + 1)

    def add_forfeited(self, win_share: float, failed: bool) -> None:
        """A match some bot forfeited: a win share, no chips counted."""
        self.matches += 1
        self.wins += win_share
        self.forfeits += failed

    @property
    def mean(self) -> float:
        return self.total / self.played if self.played else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean: Student's t interval (the
        sample's standard deviation, ``n - 1`` degrees of freedom), which holds its 95% from
        a few matches on, where the normal's 1.96 covered the mean about 86 times in 100 at
        5 matches.

        In a tournament (deals counted) the samples are the deals, not the matches: the
        cluster-robust interval of the mean, ``t * sqrt(G / (G - 1) * sum((T_d - n_d mean)^2))
        / N`` over the G deals with ``G - 1`` degrees of freedom, which is Student's t over the
        deals' means when every deal has as many matches (none forfeited), and the interval
        above when each deal is one match."""
        n = self.played
        if self.deals:
            g = self.deals
            if g < 2:
                return math.inf
            # N^2 sum((T_d - n_d mean)^2), exactly (integers), then divided once
            spread = (n * n * self.deal_tt - 2 * n * self.total * self.deal_tn
                      + self.total * self.total * self.deal_nn)
            var = g * spread / ((g - 1) * n ** 4)
            return t95(g - 1) * math.sqrt(max(var, 0.0))
        if n < 2:
            return math.inf
        # n (n - 1) times the sample's variance, exactly (integers), then divided once
        var = (n * self.squares - self.total * self.total) / (n * (n - 1))
        return t95(n - 1) * math.sqrt(max(var, 0.0) / n)

    def as_dict(self) -> dict[str, Any]:
        """The bot's entry of a report's ``bots`` (see docs/reports.md). ``mean`` is the mean
        of the run's measure, chips or score; ``mean_chips`` the same figure under its first
        name, kept for the programs that read it (in Uno Dare it is a score, not chips)."""
        mean = round(self.mean, 4) if self.played else None
        return {"bot": self.kind, "matches": self.matches, "wins": round(self.wins, 4),
                "win_rate": round(self.wins / self.matches, 4) if self.matches else None,
                "mean": mean, "mean_chips": mean,
                "ci95": None if math.isinf(self.ci95) else round(self.ci95, 4),
                "forfeits": self.forfeits}


@dataclass
class SimReport:
    game: str
    seed: int
    rotate: bool
    matches: int = 0
    reused: int = 0
    events: int = 0
    pot_left: int = 0  # chips still in pots at the ends of matches (carried, never won)
    bots: list[BotStats] = field(default_factory=list)
    # what a bot's mean counts: its change in chips, or in a game scored on a score sheet
    # (Uno Dare) its final score, negated where the lowest score wins
    measure: str = "chips"
    planned: int = 0  # the matches asked for
    workers: int = 1  # those asked for, at most one a match
    backend: str = "local"
    # two bots: bot 1's wins, draws (a shared lead) and losses against bot 2, match by match
    wdl: list[int] = field(default_factory=lambda: [0, 0, 0])
    failures: int = 0
    failed: list[dict[str, Any]] = field(default_factory=list)  # the first KEEP_FAILURES
    stopped: str = ""  # why the run stopped before its planned matches, if it did
    sprt: dict[str, Any] | None = None  # the SPRT's state, when the run has one

    def as_dict(self) -> dict[str, Any]:
        out = {"game": self.game, "seed": self.seed, "rotate": self.rotate,
               "matches": self.matches, "reused_logs": self.reused, "events": self.events,
               "pot_left": self.pot_left, "measure": self.measure,
               "bots": bot_entries(self.bots),
               "planned": self.planned, "failures": self.failures, "failed": self.failed,
               "stopped": self.stopped or None}
        if len(self.bots) == 2:
            from kabucli.ratings import head_to_head

            out["head_to_head"] = head_to_head(*self.wdl)
        if self.sprt is not None:
            out["sprt"] = self.sprt
        return out


def bot_name(number: int, kind: str) -> str:
    """A bot's name in a report: its number in the order of ``--bot`` and its kind, as
    ``#2 random`` (two bots of one kind are two players)."""
    return f"#{number} {kind}"


def bot_entries(bots: list[BotStats]) -> list[dict[str, Any]]:
    """A report's ``bots``: each bot's figures with its ``name`` (:func:`bot_name`), the name
    its ``ratings`` entry and its groups give it in a tournament."""
    return [{"name": bot_name(i, b.kind), **b.as_dict()} for i, b in enumerate(bots, 1)]


def seating(kinds: list[str] | tuple[str, ...], index: int, rotate: bool) -> list[int]:
    """For match ``index``: which bot (index into ``kinds``) sits in each seat: with
    ``rotate``, the seatings of :func:`seating_at` in turn."""
    n = len(kinds)
    return seating_at(n, index % math.factorial(n)) if rotate else list(range(n))


def seating_at(n: int, k: int) -> list[int]:
    """Seating ``k`` (0 to n! - 1) of ``n`` bots: which bot sits in each seat. Every order of
    the bots around the table comes once: the orders with bot 0 in seat 1, the rest in
    lexicographic order, each in its ``n`` rotations in turn (from one to the next every bot
    moves one seat on, the last seat's to seat 1). So every ``n`` seatings in a row
    put each bot once in each seat, and all ``n!`` put each bot once after each other one
    (who sits after whom matters as much as the seat: the seat after a weak player is worth
    more), as two bots that play alike must be rated alike."""
    order, shift = divmod(k, n)
    rest = list(range(1, n))
    table = [0]
    for left in range(n - 2, -1, -1):  # the order-th permutation of rest, by factorials
        pick, order = divmod(order, math.factorial(left))
        table.append(rest.pop(pick))
    return [table[(seat - shift) % n] for seat in range(n)]


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Plan:
    """What every match of a run needs to be played anywhere (a worker, a Ray task): all of
    it plain data, so that it travels to another process as it is."""

    game: str
    rules: dict[str, Any]
    kinds: tuple[str, ...]
    seed: int
    rotate: bool = True
    log_dir: str | None = None
    started: str = ""
    timeout: float | None = None  # seconds per answer of external bots (None: the default)
    # a tournament: the bots (indices into kinds) of each group that meets, each group
    # playing ``deals`` deals in every seating (:func:`seating_at`); empty: every bot in
    # every match
    groups: tuple[tuple[int, ...], ...] = ()
    deals: int = 1
    # the log folder held files when the run began: a match whose finished log is there is
    # counted from it, not played (see :func:`play_match`)
    resume: bool = False
    # every move of a built-in bot checked as a person's is (``Match.check_trusted``; for
    # bench/bench_log.py, which times writing logs with every move checked)
    checked: bool = False

    def job(self, i: int) -> tuple[list[int], int]:
        """Match ``i``: the bot (index into ``kinds``) of each seat, and the match's seed."""
        if not self.groups:
            return seating(self.kinds, i, self.rotate), (self.seed + i) % SEED_LIMIT
        n = len(self.groups[0])
        every = math.factorial(n)
        group = self.groups[i // (every * self.deals)]
        deal, k = divmod(i % (every * self.deals), every)
        return [group[b] for b in seating_at(n, k)], (self.seed + deal) % SEED_LIMIT

    def deal(self, i: int) -> int | None:
        """In a tournament, the deal (0 to ``deals - 1``) match ``i`` plays; None in a run of
        :func:`simulate` alone, where every match has a deal of its own."""
        if not self.groups:
            return None
        every = math.factorial(len(self.groups[0]))
        return (i % (every * self.deals)) // every

    def stream(self, seat: int, bot: int) -> str:
        """The stream of the match's seed that seeds the generator of the bot ``bot`` (index
        into ``kinds``) at ``seat``: ``bot/SEAT``, as in any seeded game; in a tournament
        ``bot/SEAT/#N``, N the bot's number in the field, so that two copies of one bot are
        two players (each group is dealt the same deals: with the seat's stream alone, a
        copy would play the very games the other copy played against the same opponents)."""
        return f"bot/{seat}/#{bot + 1}" if self.groups else f"bot/{seat}"

    def total(self, count: int) -> int:
        """How many matches the run has: ``count``, or a tournament's whole schedule."""
        if not self.groups:
            return count
        return len(self.groups) * math.factorial(len(self.groups[0])) * self.deals

    def seats(self, order: list[int]) -> list[SeatInfo]:
        return [SeatInfo(f"{self.kinds[b]}#{b + 1}", f"bot:{self.kinds[b]}") for b in order]

    def path(self, i: int) -> Path | None:
        name = self.file(i)
        return None if name is None else Path(name)

    def file(self, i: int) -> str | None:
        """The name of match ``i``'s log file (None: no logs), as a string: a match between
        bots plays in about 250 us, of which making a Path would take about 4."""
        if self.log_dir is None:
            return None
        return os.path.join(self.log_dir, f"{self.game}-{i + 1:05d}.kbl")


class Outcome(NamedTuple):
    """What a run keeps of one match: (chips change, share of the win) per seat (None when a
    bot forfeited it), the number of log records, the chips left in the pot, and the seat
    that failed (0: none) with its reason."""

    idx: int
    results: list[tuple[int, float]] | None
    logged: int
    pot: int
    failed: int = 0
    reason: str = ""
    reused: bool = False


class Forfeit(KabuError):
    """A bot's failure in a match: that bot forfeits the match."""

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.reason = reason


class _Answerable:
    """A user's bot (program or Python class) whose failure names its seat."""

    def __init__(self, bot: Any, seat: int) -> None:
        self.bot = bot
        self.seat = seat

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bot, name)

    def choose(self, game: Game, state: Any, seat: int) -> Any:
        try:
            return self.bot.choose(game, state, seat)
        except KabuError as exc:
            raise Forfeit(self.seat, str(exc)) from None

    def close(self, outcome: dict[str, Any] | None = None) -> None:
        with contextlib.suppress(Exception):  # a bot failing at the end costs nothing
            self.bot.close(outcome)


_ILLEGAL = re.compile(r"^bot p([0-9]+) played ")
_CONTEXT: dict[str, Any] = {}  # this process's game and rules of the plan it plays


def _game_rules(plan: Plan) -> tuple[Game, msgspec.Struct]:
    key = (plan.game, repr(sorted(plan.rules.items())))
    if _CONTEXT.get("key") != key:
        game = games.get(plan.game)
        _CONTEXT.update(key=key, game=game, rules=validate(game.Rules, dict(plan.rules),
                                                           game.name))
    return _CONTEXT["game"], _CONTEXT["rules"]


def play_match(plan: Plan, i: int, later: list[Later] | None = None) -> Outcome:
    """Play match ``i`` of ``plan`` (in this process) and count it. A bot's failure forfeits
    the match (see the module); any other failure is the run's KabuError.

    ``later``: a short match that ends as it should (no forfeit, no failure) leaves its log
    unwritten, kept there for :func:`write_later` to write with the others of its chunk.
    Making and writing one log after another, the work (encoding, compressing, making the
    file) runs warm in the processor's caches, and the play between them too (see
    bench/README.md). A log is kept so only while it holds at most LATER_RECORDS inputs; a
    longer match's log is written as it ends."""
    game, rules = _game_rules(plan)
    if plan.resume:  # read (and checked against the rules) where the match would be played
        reused = _existing(game, plan, i)
        if reused is not None:
            return reused
    order, seed = plan.job(i)
    seats = plan.seats(order)
    path = plan.file(i)
    header = make_header(game, rules, seats, seed, started=plan.started or None)
    writer = (LogWriter.start(_LogFile(plan, i, path), header, "msgpack", durable=False,
                              types=games.event_types(game.name), later=later is not None)
              if path else None)
    match = Match(game, header, writer)
    if plan.checked:
        match.check_trusted = []
    sess = Session(match, {}, None, set())
    failed, reason = 0, ""
    ended = False  # the match played on to where it stops, with no bot's failure
    try:
        for seat, b in enumerate(order, 1):
            kind = plan.kinds[b]
            try:
                stream = plan.stream(seat, b)
                bot = botreg.make(game.name, kind, Rng(seed, stream), match, seat,
                                  plan.timeout, stream)
            except KabuError as exc:
                raise Forfeit(seat, str(exc)) from None
            sess.bots[seat] = _Answerable(bot, seat) if kind.startswith(EXTERNAL) else bot
        sess.drop_events()  # (the log is written as the match is played)
        try:
            sess.run_bots()
        except Forfeit:
            raise
        except LogFullError as exc:  # (the log is written whole as the session closes)
            raise _log_full(i, seed, path, exc) from None
        except KabuError as exc:
            found = _ILLEGAL.match(str(exc))
            seat = int(found.group(1)) if found is not None else 0
            if not 1 <= seat <= len(order) or not plan.kinds[order[seat - 1]].startswith(
                    EXTERNAL):  # a built-in bot's illegal move is kabucli's fault: it stops
                raise
            raise Forfeit(seat, str(exc)) from None
        ended = True
    except Forfeit as exc:
        failed, reason = exc.seat, kept_reason(exc.reason)
        if not match.over:  # the log records who forfeited and why, as its last record
            try:
                match.submit(ForfeitEvent(failed, reason))
            except LogFullError as full:  # (no room left for that record)
                raise _log_full(i, seed, path, f"{reason}; its forfeit cannot be recorded: "
                                f"{full}") from None
    finally:
        if (ended and later is not None and writer is not None and writer.size == 0
                and writer.unwritten <= LATER_RECORDS):
            writer.hold()
            match.writer = None  # (so that closing the session leaves it open)
            later.append(Later(writer, i, seed, path or "", time.monotonic()))
        try:
            sess.close()
        except LogFullError as exc:  # (the last block, past the bytes kabucli reads back)
            raise _log_full(i, seed, path, exc) from None
    if failed:
        return Outcome(i, None, match.logged, 0, failed, reason)
    if not match.over:
        raise KabuError(f"match {i + 1} (seed {seed}) stopped before its end: "
                        f"waiting for {match.pending.what}")
    return _outcome(i, match)


class Later(NamedTuple):
    """A match's log :func:`play_match` left to write (see there): its writer, with all it
    holds, and what an error names it by."""

    writer: LogWriter
    idx: int
    seed: int
    path: str
    since: float  # time.monotonic() when it was kept


# A log is left to write later while it holds at most this many inputs (so that a chunk's
# logs kept in memory stay small), and a run in one process writes those it holds once it
# holds LATER_MATCHES of them or the first has waited LATER_SECONDS.
LATER_RECORDS = 1024
LATER_MATCHES = 64
LATER_SECONDS = 0.1


def write_later(later: list[Later]) -> None:
    """Write the logs :func:`play_match` left in ``later``, and empty it: every one, also
    when one fails (a log grown full, a file that cannot be made); the first failure is
    raised after."""
    held = later[:]
    later.clear()
    error: KabuError | None = None
    for writer, i, seed, path, _ in held:
        try:
            writer.close()
        except LogFullError as exc:
            error = error or _log_full(i, seed, path, exc)
        except KabuError as exc:
            error = error or exc
    if error is not None:
        raise error


def _log_full(i: int, seed: int, path: str | None, why: object) -> KabuError:
    """The run's error when match ``i``'s log is full (LogFullError, ``why``): which match,
    and where its log is kept."""
    return KabuError(f"match {i + 1} (seed {seed}): {why}; its log is kept: {path}")


def kept_reason(reason: str) -> str:
    """A failure's reason as the report and the log's forfeit record both keep it (so that a
    resumed run, which reads it from the log, reports what the first run did): one line, at
    most MAX_REASON characters, its end kept when it is cut (the why comes after the bot's
    command, which may be long)."""
    line = " ".join(reason.split())
    if len(line) <= MAX_REASON:
        return line
    return f"{line[:MAX_REASON // 2 - 1]}…{line[-(MAX_REASON // 2):]}"


def _outcome(i: int, match: Match, reused: bool = False) -> Outcome:
    if getattr(match.state, "ledger", None) is None:
        return Outcome(i, _scored(match), match.logged, 0, reused=reused)
    start_chips = [rules_chips(match)] * match.nseats
    return Outcome(i, _result(match, start_chips), match.logged, match.state.ledger.pot,
                   reused=reused)


def _result(match: Match, start_chips: list[int]) -> list[tuple[int, float]]:
    """(chips change, share of the win) per seat of a finished match: the win is the
    game's, when its outcome names ``winners`` (Kazu-Tori: the most cards, who may be paid
    nothing when the others hold no cards), else the lead in chips."""
    ledger = getattr(match.state, "ledger", None)
    if ledger is None:
        raise KabuError(f"{match.game.title} keeps no chips; nothing to count")
    deltas = [ledger.seat(s) - start_chips[s - 1] for s in range(1, match.nseats + 1)]
    named = (match.outcome() or {}).get("winners")
    if isinstance(named, list) and named:
        return list(zip(deltas, _shares(named, match.nseats), strict=True))
    top = max(deltas)
    leaders = deltas.count(top)
    return [(d, 1.0 / leaders if d == top else 0.0) for d in deltas]


def _scored(match: Match) -> list[tuple[int, float]]:
    """(final score, share of the win) per seat of a finished match of a game that keeps a
    score sheet instead of chips: its outcome's ``scores`` and ``winners`` (a score counts
    negated when the outcome says the lowest wins)."""
    out = match.outcome() or {}
    scores, winners = out.get("scores"), out.get("winners")
    if not isinstance(scores, dict) or not isinstance(winners, list) or not winners:
        raise KabuError(f"{match.game.title} keeps no chips and no scores; nothing to count")
    sign = -1 if out.get("scoring") == "lowest" else 1
    return [(sign * int(scores[f"p{s}"]), share)
            for s, share in enumerate(_shares(winners, match.nseats), 1)]


def _shares(winners: list[str], nseats: int) -> list[float]:
    """Each seat's share of the win when the outcome names its ``winners`` ("p2", ...)."""
    return [1.0 / len(winners) if f"p{s}" in winners else 0.0 for s in range(1, nseats + 1)]


def measure(game: Game) -> str:
    """What a run's means count for ``game`` (see ``SimReport.measure``)."""
    return "chips" if any(r.name == "chips" for r in describe(game.Rules)) else "score"


# -- running the matches -------------------------------------------------------------------

class _LogFile(BytesIO):
    """The log of match ``i`` of ``plan``, kept in memory while the match is played and
    written to its file in one go when it is closed: a match between bots needs no record on
    disk before its end (a run stopped halfway plays a match with no finished log again),
    and one ``open`` and one ``write`` a match cost less than a write a block."""

    def __init__(self, plan: Plan, i: int, path: str) -> None:
        super().__init__()
        self.plan = plan
        self.i = i
        self.path = path

    def close(self) -> None:
        if not self.closed:
            data = self.getvalue()
            super().close()
            _write_log(self.plan, self.i, data, self.path)


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)


def _write_log(plan: Plan, i: int, data: bytes, path: str | None = None) -> None:
    """Write the log of match ``i`` of ``plan`` to its file (``path``, if the caller has it).
    A file there already is replaced only when it is a log of this very match (cut short by
    a run stopped in it, or written by a worker that died before its chunk was counted); any
    other file stops the run (KabuError from :func:`_existing`): kabucli sim never
    overwrites it. (os.open and os.write rather than open(): a file object would add about
    3 us to a match that takes about 250.)"""
    path = path or plan.file(i)
    assert path is not None
    for attempt in range(2):
        try:
            fd = os.open(path, _NEW_FILE, 0o666)
        except FileExistsError:
            if attempt:
                break
            _existing(games.get(plan.game), plan, i)  # raises unless it is this match's log
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            continue
        except OSError as exc:
            raise KabuError(f"cannot create {path}: {exc.strerror}") from None
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
        except BaseException as exc:
            # the file is the one just made here (O_EXCL), holding part of a log at most (a
            # full disk, Ctrl-C): it goes, so that the same run started again plays the match
            with contextlib.suppress(OSError):
                os.unlink(path)
            if isinstance(exc, OSError):
                raise KabuError(f"cannot write {path}: {exc.strerror}") from None
            raise
        return
    raise KabuError(f"{path} keeps coming back while the run writes it; kabucli sim never "
                    "overwrites it: remove it or choose another log folder")


def _there(path: Path | None) -> bool:
    """Whether anything is at ``path`` (a broken link too)."""
    return path is not None and (path.exists() or path.is_symlink())


WATCH_EVERY = 0.5  # seconds between a pool worker's looks at whether its run still runs


def _worker_start(plan: Plan, run_pid: int = 0, run_mark: str = "") -> None:
    """A pool worker: Ctrl-C is for the parent (which stops the run), the plan is kept.
    With ``run_pid`` (the process of the run), it exits once that process is gone: a run
    killed outright (``kill``, ``timeout``, the OOM killer) cannot stop its workers, which
    would otherwise wait for work forever (and keep the fork server alive with them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a worker forked from the run has the run's SIGTERM handler (which would stop it with a
    # traceback) and the signals the run held while starting it: a pool stops its workers
    # with SIGTERM, which must end them at once
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    if run_mark:  # every bot program started here carries it: see _end_run_bots
        os.environ[RUN_MARK] = run_mark
    external = sys.modules.get("kabucli.bots.external")
    if external is not None:  # forked from a run that played with bots: those are its own
        external._idle.clear()
        external._live.clear()
    _CONTEXT["plan"] = plan
    if run_pid:
        import threading

        threading.Thread(target=_exit_with, args=(run_pid, os.getppid()), name="kabucli-watch",
                         daemon=True).start()


# The environment variable that marks every bot program a run's pool workers start (and what
# those start): a worker is stopped by SIGTERM, which skips the exit handlers that would end
# its bots, so the run ends what carries its mark once its workers are gone. (A handler of
# SIGTERM in the worker could not: taken by its watch thread, it never woke the main thread
# blocked on the pool's queue, and the worker lived on, holding the pool's shutdown.)
RUN_MARK = "KABUCLI_RUN_MARK"


def _end_run_bots(plan: Plan, mark: str) -> None:
    if any(k.startswith(EXTERNAL) for k in plan.kinds):  # (only those start programs)
        from kabucli.bots.external import kill_marked

        with contextlib.suppress(Exception):
            kill_marked(mark, RUN_MARK)


def _end_bots() -> None:
    if "kabucli.bots.external" in sys.modules:
        with contextlib.suppress(Exception):
            sys.modules["kabucli.bots.external"].stop_all()


def _exit_with(pid: int, parent: int) -> None:
    """Exit this process as soon as process ``pid`` has ended, or this process's parent
    (``parent``: the run, or the fork server) has: a run killed but not yet reaped is still
    there to ``kill(pid, 0)`` (a zombie), while its workers, and its children's pipes, must
    go now (a caller waits on those pipes before it reaps the run)."""
    while True:
        time.sleep(WATCH_EVERY)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        except OSError:  # there, but not ours to signal: still running
            pass
        if os.getppid() != parent:
            break
    _end_bots()
    os._exit(1)


def play_chunk(plan: Plan, indices: list[int]) -> tuple[list[Outcome], float]:
    """Play the matches ``indices`` of ``plan`` one after the other: their outcomes, and the
    seconds they took (what a pool sizes its next chunks by)."""
    began = time.perf_counter()
    later: list[Later] = []
    try:
        outs = [play_match(plan, i, later) for i in indices]
    finally:  # (also the logs of the matches played when one failed or a signal came)
        write_later(later)
    return outs, time.perf_counter() - began


def _worker_chunk(indices: list[int]) -> tuple[list[Outcome], float]:
    plan: Plan = _CONTEXT["plan"]
    return play_chunk(plan, indices)


MAX_CHUNK = 256


class Chunks:
    """How many matches to send a worker at a time: one at first, then as many as take about
    ``target`` seconds (a match of built-in bots takes a millisecond or less, while sending a
    task costs about as much), never more than MAX_CHUNK."""

    def __init__(self, target: float) -> None:
        self.target = target
        self.per_match: float | None = None

    def size(self) -> int:
        if self.per_match is None:
            return 1
        return max(1, min(MAX_CHUNK, int(self.target / max(self.per_match, 1e-6))))

    def took(self, matches: int, seconds: float) -> None:
        per = seconds / max(matches, 1)
        self.per_match = per if self.per_match is None else 0.7 * self.per_match + 0.3 * per


def in_order(todo: Iterator[int], window: int, chunks: Chunks, running: dict[Any, list[int]],
             submit: Callable[[list[int]], Any],
             wait_any: Callable[[list[Any]], Iterable[Any]],
             result: Callable[[Any, list[int]], tuple[list[Outcome], float]]
             ) -> Iterator[Outcome]:
    """The outcomes of ``todo`` in its order, from chunks of matches played elsewhere:
    ``submit`` sends a chunk (a handle back, kept in ``running`` until it is done, so that the
    caller can cancel what is left), ``wait_any`` waits until some are done, ``result`` reads
    one. At most ``window`` chunks are under way, so the parent's memory stays flat."""
    done: dict[int, Outcome] = {}
    order: deque[int] = deque()
    exhausted = False
    while True:
        while not exhausted and len(running) < window:
            batch = list(islice(todo, chunks.size()))
            if not batch:
                exhausted = True
                break
            running[submit(batch)] = batch
            order.extend(batch)
        if not order:
            return
        while order[0] not in done:
            for handle in list(wait_any(list(running))):
                batch = running.pop(handle)
                outs, seconds = result(handle, batch)
                chunks.took(len(batch), seconds)
                for out in outs:
                    done[out.idx] = out
        yield done.pop(order.popleft())


def _local(plan: Plan, todo: Iterator[int], workers: int) -> Iterator[Outcome]:
    """The outcomes of the matches ``todo`` (in that order), played by ``workers`` processes
    (in this one when ``workers`` is 1)."""
    if workers <= 1:
        later: list[Later] = []
        try:
            for i in todo:
                yield play_match(plan, i, later)
                if later and (len(later) >= LATER_MATCHES
                              or time.monotonic() - later[0].since > LATER_SECONDS):
                    write_later(later)
        finally:  # (the run's end or its stop: simulate closes this generator)
            write_later(later)
        return
    import multiprocessing

    _pool_method()  # first: a fork server starts a Python, which loads kabucli meanwhile
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    pools: list[ProcessPoolExecutor] = []  # the last is in use; a broken one is replaced
    made: dict[Any, int] = {}  # future -> the number of the pool it went to
    run_mark = secrets.token_hex(8)

    def new_pool() -> None:
        method = _pool_method()
        pools.append(ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                                         initializer=_worker_start,
                                         initargs=(plan, os.getpid(), run_mark)))

    def submit(batch: list[int]) -> Future[tuple[list[Outcome], float]]:
        with _ctrl_c_held():  # a worker it starts is one the pool knows, to be stopped
            fut = pools[-1].submit(_worker_chunk, batch)
        made[fut] = len(pools)
        return fut

    def wait_any(futures: list[Future[tuple[list[Outcome], float]]]) -> Iterable[Any]:
        return wait(futures, return_when=FIRST_COMPLETED)[0]

    def result(fut: Future[tuple[list[Outcome], float]], batch: list[int]
               ) -> tuple[list[Outcome], float]:
        """The chunk's outcomes; when a worker died (a bot that killed it, the system's
        OOM killer), the pool is made again and the chunk played again, up to RETRIES
        times, as Ray runs a task again."""
        for attempt in range(RETRIES + 1):
            try:
                out = fut.result()
                made.pop(fut, None)
                return out
            except BrokenProcessPool:
                if attempt == RETRIES:
                    break
                if made.pop(fut, 0) == len(pools):  # the pool in use broke: a new one
                    _stop_pool(pools[-1])
                    new_pool()
                fut = submit(batch)
        raise KabuError(
            f"a worker process died {RETRIES + 1} times while playing matches "
            f"{batch[0] + 1}-{batch[-1] + 1} (killed, or out of memory; a script that runs a "
            "pool needs if __name__ == '__main__'); the run stops")

    new_pool()
    running: dict[Any, list[int]] = {}
    try:
        yield from in_order(todo, 2 * workers, Chunks(0.05), running, submit, wait_any,
                            result)
    finally:
        # (the chunks still under way are not cancelled: see _stop_pool); a Ctrl-C that
        # stopped the run passes through here first: a second one must not cut this short
        with _signals_ignored():
            for pool in pools:
                _stop_pool(pool)
        _end_run_bots(plan, run_mark)  # the workers gone, what their bots left


RETRIES = 3  # times a chunk of matches is played again when its worker process dies


@contextlib.contextmanager
def _ctrl_c_held(ignored: bool = False) -> Iterator[None]:
    """Ctrl-C (and SIGTERM) held back (blocked, not lost: it stops the run as soon as this
    ends) while a pool starts processes: one it interrupted halfway would leave a worker the
    pool does not know, which, when the run stops, finds the pool's queues gone and prints a
    traceback.
    ``ignored``: what is started meanwhile ignores Ctrl-C from its start. (In the main
    thread, where Python takes Ctrl-C, and where signal masks exist.)"""
    import threading

    if (not hasattr(signal, "pthread_sigmask")
            or threading.current_thread() is not threading.main_thread()):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if ignored else None
    try:
        yield
    finally:
        if ignored and handler is not None:
            signal.signal(signal.SIGINT, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextlib.contextmanager
def _signals_ignored() -> Iterator[None]:
    """Ctrl-C and SIGTERM ignored (dropped: the run is stopping already): stopping a pool
    cut short by a second Ctrl-C left its workers or its thread half stopped, and the
    process hung at exit or printed a traceback. (In the main thread only, where handlers
    are set.)"""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = [(s, signal.signal(s, _dropped)) for s in (signal.SIGINT, signal.SIGTERM)]
    try:
        yield
    finally:
        for sig, handler in before:
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)


def _pool_context() -> str:
    """How a pool starts its workers: forked from this process when it runs no other thread
    (on Linux), which costs about 2 ms a worker; else by a fork server (a Python started
    once, which loads kabucli and forks the workers: about 0.08 s before the first), since a
    process forked while other threads run (a progress display's) may inherit a lock one of
    them held, and hang."""
    import threading

    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "forkserver"


def _pool_method() -> str:
    """:func:`_pool_context`, the fork server started (loading kabucli.sim) if it is that."""
    method = _pool_context()
    if method == "forkserver":
        import multiprocessing

        multiprocessing.get_context(method).set_forkserver_preload(["kabucli.sim"])
        _start_fork_server()
    return method


def _start_fork_server() -> None:
    """Start the pools' fork server, if it is not running, with Ctrl-C ignored: a program
    started so keeps ignoring it (Python installs its own Ctrl-C handler only where it is not
    ignored), and the workers it forks too, so that a Ctrl-C from the terminal while they are
    still starting (importing kabucli) prints no traceback from them."""
    from multiprocessing import forkserver

    with _ctrl_c_held(ignored=True):
        forkserver.ensure_running()


def _stop_pool(pool: Any) -> None:
    """Stop a pool at once: matches under way are cut short (a resumed run plays them
    again). Its workers are stopped before the pool is shut down: a worker still starting
    then would find the pool's queues gone and print a traceback (as a Ctrl-C right after
    the start of a run did)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    # the pool's own thread, which closes its pipes: left running, it raced Python's exit,
    # which wakes it through one of them ("Bad file descriptor" printed at exit); shutdown
    # lets go of it, so it is taken first
    manager = getattr(pool, "_executor_manager_thread", None)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.terminate()
    # its chunks not cancelled: the pool's thread, seeing its workers gone, fails every chunk
    # left (BrokenProcessPool), and failing one already cancelled raised InvalidStateError in
    # that thread, printed as a traceback (Python 3.11)
    pool.shutdown(wait=False, cancel_futures=False)
    for proc in procs:
        with contextlib.suppress(Exception):
            proc.join(5)
    if manager is not None:
        with contextlib.suppress(Exception):
            manager.join(5)
        if not manager.is_alive():  # Python's exit would wake it through a pipe now closed
            from concurrent.futures import process

            with contextlib.suppress(Exception):
                process._threads_wakeups.pop(manager, None)


def simulate(game: Game, rules: msgspec.Struct, kinds: list[str], count: int, seed: int,
             rotate: bool = True, log_dir: Path | None = None,
             on_match: Callable[[SimReport], None] | None = None, workers: int = 1,
             max_failures: int | None = None, sprt: Any = None, timeout: float | None = None,
             backend: str = "local", address: str | None = None,
             groups: tuple[tuple[int, ...], ...] = (), deals: int = 1,
             on_outcome: Callable[[Outcome, list[int]], None] | None = None,
             started: str | None = None) -> SimReport:
    """Play ``count`` seeded matches between the bots ``kinds`` (one per seat), or with
    ``groups`` a tournament's schedule (see :class:`Plan`), on ``workers`` processes (or Ray).

    With ``log_dir`` every file already where this run's logs go is checked before anything
    is played: one that is not a log of the very match the run would play there (same game,
    seed, seats and rules; its header is read) stops the run (KabuError), and it is never
    overwritten. The finished log of a match is counted instead of playing the match, read
    and checked against the rules by the worker that would have played it (so that resuming
    a long run is spread over the workers too); the log of that match cut short is played
    again over it; one that breaks a rule stops the run when it is read.

    ``on_match`` is told of the report after each match is counted; ``on_outcome`` of each
    match's outcome and seating. ``sprt`` (a :class:`kabucli.ratings.Sprt`) stops the run as
    soon as it decides. Ctrl-C (KeyboardInterrupt) stops the run and returns the report so far
    (``stopped`` says so). ``started``: the time every log of the run records (default: now).

    Worker processes are forked from this process when it runs no other thread, else
    started by a fork server (:func:`_pool_context`): a script that calls this with
    ``workers > 1`` runs it under ``if __name__ == "__main__":``, as any multiprocessing
    pool needs."""
    if any(k.startswith(EXTERNAL) for k in kinds):
        from kabucli.bots.external import bot_memory, bot_timeout

        # a bad KABUCLI_BOT_TIMEOUT or KABUCLI_BOT_MEMORY stops the run, not each match (as
        # the bot's forfeit, which would count every match against it)
        bot_memory()
        if timeout is None:
            timeout = bot_timeout()
    plan = Plan(game.name, as_dict(rules), tuple(kinds), seed, rotate,
                None if log_dir is None else str(log_dir), started or now_iso(), timeout,
                groups, deals)
    total = plan.total(count)
    report = SimReport(game.name, seed, rotate, bots=[BotStats(k) for k in kinds],
                       measure=measure(game), planned=total,
                       workers=min(workers, max(total, 1)), backend=backend)
    played: Iterator[Outcome] | None = None
    try:
        if log_dir is not None and _log_folder(log_dir):
            plan = dataclasses.replace(plan, resume=True)
            for i in _placed(plan, total):
                _check_there(game, plan, i)
        todo = iter(range(total))
        if backend == "ray":
            from kabucli.sim_ray import ray_outcomes

            played = ray_outcomes(plan, todo, address, workers)
        else:
            played = _local(plan, todo, min(workers, max(total, 1)))
        for i in range(total):
            out = next(played)
            order = plan.job(i)[0]
            _count(report, out, order, plan.deal(i))
            if on_outcome is not None:
                on_outcome(out, order)
            if max_failures is not None and out.failed:
                bot = report.bots[order[out.failed - 1]]
                if bot.forfeits >= max_failures:
                    failed = "1 match" if bot.forfeits == 1 else f"{bot.forfeits} matches"
                    report.stopped = (f"bot #{order[out.failed - 1] + 1} ({bot.kind}) failed "
                                      f"{failed} (--max-failures {max_failures})")
            if sprt is not None:
                report.sprt = sprt.update(report.wdl)
                if sprt.decided:
                    report.stopped = f"SPRT: {report.sprt['result']}"
            if on_match is not None:
                on_match(report)
            if report.stopped:
                break
    except KeyboardInterrupt as exc:
        report.stopped = ("terminated (SIGTERM)" if isinstance(exc, Terminated)
                          else "interrupted (Ctrl-C)")
    finally:
        close = getattr(played, "close", None)
        if close is not None:
            with _signals_ignored():  # a second Ctrl-C must not cut the pool's stop short
                close()
    return report


def _count(report: SimReport, out: Outcome, order: list[int], deal: int | None = None
           ) -> None:
    """Add one match's outcome to the report (``deal``: a tournament's deal it played)."""
    n = len(order)
    if out.results is None:
        for seat, b in enumerate(order, 1):
            failed = seat == out.failed
            report.bots[b].add_forfeited(0.0 if failed else 1.0 / (n - 1), failed)
        report.failures += 1
        if len(report.failed) < KEEP_FAILURES:
            b = order[out.failed - 1]
            report.failed.append({"match": out.idx + 1, "seat": out.failed,
                                  "bot": report.bots[b].kind,
                                  "name": bot_name(b + 1, report.bots[b].kind),
                                  "reason": out.reason})
        shares = [0.0 if s == out.failed else 1.0 / (n - 1) for s in range(1, n + 1)]
    else:
        for seat, (delta, share) in enumerate(out.results):
            report.bots[order[seat]].add(delta, share, deal)
        shares = [share for _, share in out.results]
        report.pot_left += out.pot
    if len(report.bots) == 2 and n == 2:
        first = shares[order.index(0)]
        report.wdl[0 if first > 0.75 else 1 if first > 0.25 else 2] += 1
    report.matches += 1
    report.reused += out.reused
    report.events += out.logged


# -- log folders ---------------------------------------------------------------------------

def _log_folder(log_dir: Path) -> bool:
    """Make the log folder; whether it holds anything (logs of a run to go on with, or
    files to keep). KabuError in one line when it cannot be one."""
    if log_dir.exists() and not log_dir.is_dir():
        raise KabuError(f"log folder {log_dir} is a file, not a folder")
    if log_dir.is_symlink() and not log_dir.exists():
        raise KabuError(f"log folder {log_dir} is a link to {os.readlink(log_dir)}, which "
                        "does not exist")
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        with os.scandir(log_dir) as entries:
            return next(entries, None) is not None
    except OSError as exc:
        raise KabuError(f"cannot make the log folder {log_dir}: {exc.strerror}") from None


def rules_chips(match: Match) -> int:
    chips = match.header.rules.get("chips")
    if not isinstance(chips, int):
        raise KabuError(f"{match.game.title} has no 'chips' house rule to count from")
    return chips


def _keep(plan: Plan) -> str:
    """What an error about a file kept in the log folder ends with, naming the command run."""
    return (f"kabucli {'tournament' if plan.groups else 'sim'} never overwrites it: remove it "
            "or choose another log folder")


def _unwritten(path: Path) -> bool:
    """Whether the file at ``path`` holds no more than a log's first bytes, its format's
    magic or the start of it (an empty file too): what a worker stopped, or a machine that
    crashed, between making a log's file and writing it leaves. It records nothing; the
    match is played again over it."""
    try:
        if not path.is_file() or path.stat().st_size > len(MAGIC):
            return False
        return MAGIC.startswith(path.read_bytes())
    except OSError:
        return False


def _to_read(plan: Plan, i: int) -> Path | None:
    """Where match ``i``'s log is, when something is there to read (not when there is
    nothing, or a file made but never written)."""
    path = plan.path(i)
    return None if path is None or not _there(path) or _unwritten(path) else path


def _placed(plan: Plan, total: int) -> list[int]:
    """The matches (of the ``total``) whose log's place in the log folder holds something,
    in order: found among the folder's own entries, so the work grows with what the folder
    holds, not with the matches asked for (a run of 1e8 matches looked at 1e8 places before
    its first match). KabuError in one line when the folder cannot be read."""
    assert plan.log_dir is not None
    prefix = f"{plan.game}-"
    found = []
    try:
        with os.scandir(plan.log_dir) as entries:
            for entry in entries:
                name = entry.name
                number = name[len(prefix):-len(".kbl")]
                if (name.startswith(prefix) and name.endswith(".kbl") and number.isascii()
                        and number.isdigit() and 1 <= int(number) <= total
                        and os.path.basename(str(plan.file(int(number) - 1))) == name):
                    found.append(int(number) - 1)
    except OSError as exc:
        raise KabuError(f"cannot read the log folder {plan.log_dir}: {exc.strerror}") from None
    return sorted(found)


def _check_there(game: Game, plan: Plan, i: int) -> None:
    """KabuError when something is where match ``i``'s log goes that is not a log of that
    very match (its header read alone: what the rest holds is read when the match comes)."""
    path = _to_read(plan, i)
    if path is None:
        return
    _unreadable(path, _keep(plan), lambda: _this_match(game, plan, i, path,
                                          read_header(path, games.event_types)))


def _unreadable(path: Path, keep: str, read: Callable[[], Any]) -> Any:
    """``read()``, its KabuError (the file is no log, or a bad one) said as the file that sim
    keeps; a folder or other thing there that is not a file is one too."""
    if not path.is_file():
        raise KabuError(f"{path} is there and is not a log file; {keep}")
    try:
        return read()
    except KabuError as exc:
        msg = str(exc)
        msg = msg if msg.startswith(str(path)) else f"{path}: {msg}"
        raise KabuError(msg if msg.endswith(keep) else f"{msg}; {keep}") from None


def _this_match(game: Game, plan: Plan, i: int, path: Path, h: Header) -> None:
    """KabuError unless the header ``h`` (of the file at ``path``) is that of match ``i``."""
    order, seed = plan.job(i)
    seats = plan.seats(order)
    bots = ("seats of the bots" if sorted(map(repr, h.seats)) == sorted(map(repr, seats))
            else "bots")
    other = [what for what, same in (("game", h.game == game.name), ("seed", h.seed == seed),
                                     (bots, h.seats == seats),
                                     ("house rules", h.rules == plan.rules))
             if not same]
    if other:
        raise KabuError(f"{path} holds another match (different {', '.join(other)}); "
                        f"{_keep(plan)}")


def _existing(game: Game, plan: Plan, i: int) -> Outcome | None:
    """The outcome of match ``i`` when its log is there and finished (or forfeited); None
    when there is none or it is that match cut short (a run stopped in it), to be played
    again; KabuError when the file is anything else, is damaged (a record that fails its
    checksum, not a torn tail), or breaks a rule."""
    path = _to_read(plan, i)
    if path is None:
        return None
    data = _unreadable(path, _keep(plan),
                       lambda: read_log(path, games.event_types, strict=False))
    h = data.header
    _this_match(game, plan, i, path, h)
    try:
        # a format 2 binary log was played through the engine as it was read: that walk
        # checked every event already (a format 1 or JSON Lines one is walked here)
        match, violation = data.walked or walk(game, h, data.events)
    except KabuError as exc:
        raise KabuError(f"{path}: {exc}; {_keep(plan)}") from None
    if violation is not None:
        raise KabuError(f"{violation.line(str(path))}; {_keep(plan)}")
    if data.error is not None and not data.torn:  # damage, not a tail cut short: kept
        raise KabuError(f"{data.error}; {_keep(plan)}")
    if data.error is not None or not match.over:
        return None
    if match.forfeit is not None:
        return Outcome(i, None, match.logged, 0, match.forfeit.seat, match.forfeit.reason,
                       reused=True)
    return _outcome(i, match, reused=True)


def elapsed_rate(start: float, done: int) -> float:
    """Matches per second since ``start`` (time.monotonic())."""
    took = time.monotonic() - start
    return done / took if took > 0 else 0.0
