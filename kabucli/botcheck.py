"""``kabucli bot check GAME COMMAND``: does a bot program keep the protocol of docs/bots.md?

Like fastchess's compliance check: the program plays a few seeded matches against a built-in
bot, once in every seat, and each check says whether it held in all of them:

* **starts**: the program can be started and does not exit before its first answer;
* **answers every turn in time**: no answer later than the time limit, no exit mid-game;
* **answers legally**: every answer is one UTF-8 line that parses as a legal move;
* **handles the end message**: ``{"type": "end", ...}`` does not make it fail (it keeps
  running, or exits with code 0);
* **exits cleanly**: once its input is closed it exits by itself, with code 0, within
  ``CLOSE_WAIT`` seconds.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec

from kabucli import bots as botreg
from kabucli.bots.external import CLOSE_WAIT, ProcessBot, bot_memory
from kabucli.engine import Game, Match, make_header
from kabucli.errors import KabuError
from kabucli.log import SeatInfo
from kabucli.safetext import safe_text
from kabucli.session import Session
from kabucli.shuffle import Rng

CHECKS = ("starts", "answers every turn in time", "answers legally",
          "handles the end message", "exits cleanly")
END_GRACE = 0.2  # seconds the program is watched after the end message, before its input closes


@dataclass
class Check:
    name: str
    failures: list[str] = field(default_factory=list)
    detail: str = ""

    @property
    def ok(self) -> bool:
        return not self.failures

    def as_dict(self) -> dict[str, Any]:
        return {"check": self.name, "ok": self.ok, "detail": self.detail,
                "failures": self.failures[:5]}


class _Timed(ProcessBot):
    """A ProcessBot that notes how many answers it gave and the slowest."""

    answers = 0
    slowest = 0.0

    def choose(self, game: Game, state: Any, seat: int) -> Any:
        began = time.monotonic()
        try:
            ev = super().choose(game, state, seat)
        except KabuError as exc:
            # it answered in time, with something that is no move (garbage, a line too long,
            # not UTF-8, an illegal move): an answer all the same, judged by "answers legally"
            if not _stalled(str(exc), self.command):
                self._answered(began)
            raise
        self._answered(began)
        return ev

    def _answered(self, began: float) -> None:
        self.slowest = max(self.slowest, time.monotonic() - began)
        self.answers += 1


def check_bot(game: Game, rules: msgspec.Struct, command: str, seed: int = 1, games: int = 1,
              against: str | None = None, players: int | None = None,
              timeout: float | None = None) -> list[Check]:
    """Play ``games`` matches with the program in each seat; one :class:`Check` per check."""
    kinds = botreg.kinds(game.name)
    other = against or next(iter(kinds))
    # (one program is checked at a time, among bots whose moves are known to be right: a
    # program there would be a second unknown)
    if other.removeprefix("bot:").startswith(botreg.EXTERNAL):
        raise KabuError(f"--against takes one of {game.title}'s built-in bots "
                        f"({', '.join(kinds)}), not '{safe_text(other, 40)}'")
    botreg.check_kind(game.name, other)
    botreg.check_kind(game.name, f"cmd:{command}")  # (one it cannot start: before any check)
    bot_memory()  # a bad KABUCLI_BOT_MEMORY is one error, not the program's failure to start
    n = players or game.min_players
    checks = {name: Check(name) for name in CHECKS}
    answers = 0
    slowest = 0.0
    limit = 0.0
    played = finished = 0
    for seat in range(1, n + 1):
        for k in range(games):
            where = f"p{seat}, seed {seed + k}"
            seats = [SeatInfo(f"bot#{s}" if s == seat else f"{other}#{s}",
                              f"bot:cmd:{command}" if s == seat else f"bot:{other}")
                     for s in range(1, n + 1)]
            match = Match(game, make_header(game, rules, seats, seed + k))
            bot = _Timed(command, timeout)
            limit = bot.timeout
            bots: dict[int, Any] = {s: botreg.make(game.name, other, Rng(seed + k, f"bot/{s}"))
                                    for s in range(1, n + 1) if s != seat}
            bots[seat] = bot
            sess = Session(match, bots, None, set())
            failed = ""
            try:
                bot._channel()
            except KabuError as exc:
                checks["starts"].failures.append(f"{where}: {exc}")
                continue
            try:
                sess.run_bots()
            except KabuError as exc:
                failed = str(exc)
            played += 1
            answers += bot.answers
            slowest = max(slowest, bot.slowest)
            if failed:
                name = _failed_check(failed, bot.answers, command)
                checks[name].failures.append(f"{where}: {failed}")
                with contextlib.suppress(Exception):
                    bot._kill()
                for b in bots.values():
                    with contextlib.suppress(Exception):
                        b.close(None)
                continue
            finished += 1
            _finish(bot, match, where, checks)
    for name in ("handles the end message", "exits cleanly"):
        checks[name].detail = f"{finished} matches to their end"
        if not finished:
            checks[name].failures.append("not seen: no match reached its end")
    checks["starts"].detail = f"{played} of {n * games} matches, seats p1-p{n} against {other}"
    checks["answers every turn in time"].detail = (
        f"{answers} answers, the slowest {slowest * 1000:.0f} ms (limit {limit:g} s)"
        if answers else f"no answer (limit {limit:g} s)")
    checks["answers legally"].detail = f"{answers} answers"
    if not answers:  # nothing to judge: these checks did not pass either (unless failed)
        for name in ("answers every turn in time", "answers legally"):
            if not checks[name].failures:
                checks[name].failures.append("not seen: no answer was given")
    return list(checks.values())


STALLS = ("did not answer", "did not read", "exited", "was killed", "closed its output",
          "closed its input", "is not running")


def _stalled(message: str, command: str) -> str:
    """How the program broke the line protocol (``did not answer ...``, ``exited ...``: see
    :class:`kabucli.bots.external.Stalled`), read from the failure ``message`` where it
    follows the bot's seat and command; '' when it answered (with garbage or an illegal
    move). Only there: the message quotes the answer too, and a command may be any text."""
    head = re.match(r"bot p[0-9]+ ", message)
    said = f"('{safe_text(command)}') "
    if head is None or not message.startswith(said, head.end()):
        return ""
    how = message[head.end() + len(said):]
    return how if how.startswith(STALLS) else ""


def _failed_check(message: str, answered: int, command: str) -> str:
    """Which check a failure in the middle of a match breaks."""
    how = _stalled(message, command)
    if how:
        return "starts" if answered == 0 and not how.startswith("did not") else \
            "answers every turn in time"
    return "answers legally"


def _finish(bot: ProcessBot, match: Match, where: str, checks: dict[str, Check]) -> None:
    """Send the end message, watch the program, close its input, and see how it exits."""
    chan = bot._chan
    bot._chan = None
    if chan is None:
        return
    proc: subprocess.Popen[bytes] = chan.proc
    try:
        end = json.dumps({"type": "end", "outcome": match.outcome()}).encode() + b"\n"
        try:
            chan.send(end, time.monotonic() + 1.0)
        except Exception as exc:
            checks["handles the end message"].failures.append(
                f"{where}: the end message could not be sent ({exc})")
            return
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=END_GRACE)
        code = proc.poll()
        if code not in (None, 0):
            checks["handles the end message"].failures.append(
                f"{where}: exited with code {code} on the end message")
            checks["exits cleanly"].failures.append(f"{where}: exit code {code}")
            return
        with contextlib.suppress(OSError):
            chan._stdin.close()
        try:
            code = proc.wait(timeout=CLOSE_WAIT)
        except subprocess.TimeoutExpired:
            checks["exits cleanly"].failures.append(
                f"{where}: still running {CLOSE_WAIT:g} s after its input closed "
                "(exit when reading the input finds its end)")
            return
        if code != 0:
            checks["exits cleanly"].failures.append(f"{where}: exit code {code}")
    finally:
        chan.kill()
