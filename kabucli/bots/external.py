"""Bots written by users: a program in any language over stdin/stdout, or a Python class.

Protocol (one JSON object per line, UTF-8; documented in docs/bots.md):

* kabucli -> bot, when the bot must act:
  ``{"type": "turn", "game": "dare", "seat": 2, "state": {...}, "legal": ["p2 pass", ...],
  "hint": "..."}``. ``state`` is what that seat may see; ``legal`` lists every legal move in
  notation when the engine can list them.
* bot -> kabucli: one line holding a move in the game's notation (``p2 sets 1-3-9 3-5-5``,
  or without the seat, ``1-3-9 3-5-5``).
* kabucli -> bot at the end: ``{"type": "end", "outcome": {...}}``; then stdin closes.

A bot that exits, does not answer within the time limit, or answers something that does not
parse or is not legal stops the game with one line naming the seat, the answer and the reason.
The log keeps everything recorded before.

Python bots: ``py:PATH.py:Class`` or ``py:module:Class``; the class is built with the seat's
seeded generator and must have ``choose(game, state, seat) -> Event``, like built-in bots.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import queue
import shlex
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import msgspec

from kabucli.engine import Game
from kabucli.errors import BotError, KabuError
from kabucli.events import Event
from kabucli.notation import MAX_LINE
from kabucli.shuffle import Rng

TIMEOUT = 10.0


def parse_answer(game: Game, state: Any, seat: int, answer: str) -> Event:
    """The move a bot answered in notation (its seat may be left out); BotError if none."""
    if len(answer) > MAX_LINE:
        raise BotError(f"bot p{seat} answered {answer[:80]!r}… ({len(answer)} characters; "
                       f"a move is at most {MAX_LINE})")
    try:
        return game.parse(state, answer if answer.lower().startswith("p") else f"p{seat} {answer}")
    except KabuError as exc:
        raise BotError(f"bot p{seat} answered {answer[:80]!r}: {exc}") from None


class ProcessBot:
    """A bot program talking JSON lines on its stdin and moves on its stdout."""

    trusted = False  # every move is checked like a person's (see Game.bot_move)

    def __init__(self, command: str, timeout: float = TIMEOUT) -> None:
        self.command = command
        self.timeout = timeout
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None:
            try:
                argv = shlex.split(self.command)
                self._proc = subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL, text=True, bufsize=1)
            except (OSError, ValueError) as exc:
                raise BotError(f"cannot start bot '{self.command}': {exc}") from None
            assert self._proc.stdout is not None
            threading.Thread(target=self._reader, args=(self._proc.stdout,), daemon=True).start()
        return self._proc

    def _reader(self, stream: Any) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put(None)

    def _send(self, seat: int, message: dict[str, Any]) -> None:
        proc = self._start()
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotError(f"bot p{seat} ('{self.command}') is not running "
                           f"(exit code {proc.poll()})") from None

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        legal = [game.notate(e) for e in game.legal(state, seat)]
        self._send(seat, {"type": "turn", "game": game.name, "seat": seat,
                          "state": game.view(state, seat), "legal": legal,
                          "hint": game.hint(state, seat)})
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise BotError(f"bot p{seat} ('{self.command}') did not answer within "
                           f"{self.timeout:g} s") from None
        if line is None:
            code = self._proc.wait() if self._proc is not None else None
            raise BotError(f"bot p{seat} ('{self.command}') exited (code {code}) "
                           "without answering")
        return parse_answer(game, state, seat, line.strip())

    def close(self, outcome: dict[str, Any] | None = None) -> None:
        if self._proc is None:
            return
        try:
            if self._proc.stdin is not None:
                self._proc.stdin.write(json.dumps({"type": "end", "outcome": outcome}) + "\n")
                self._proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass
        try:
            self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._proc.kill()
        self._proc = None


def load_python_bot(spec: str, rng: Rng) -> Any:
    """Build a bot from ``PATH.py:Class`` or ``module:Class``."""
    where, sep, cls_name = spec.rpartition(":")
    if not sep or not where or not cls_name:
        raise BotError(f"python bot '{spec}' should look like path/to/file.py:Class "
                       "or module:Class")
    try:
        if where.endswith(".py"):
            path = Path(where)
            module_spec = importlib.util.spec_from_file_location(path.stem, path)
            if module_spec is None or module_spec.loader is None or not path.exists():
                raise BotError(f"python bot file {where} not found")
            module = importlib.util.module_from_spec(module_spec)
            sys.modules.setdefault(path.stem, module)
            module_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(where)
        cls = getattr(module, cls_name)
        bot = cls(rng)
    except BotError:
        raise
    except Exception as exc:
        raise BotError(f"cannot load python bot '{spec}': {type(exc).__name__}: {exc}") from None
    if not callable(getattr(bot, "choose", None)):
        raise BotError(f"python bot '{spec}' has no choose(game, state, seat) method")
    return GuardedBot(bot, spec)


class GuardedBot:
    """Wraps a user's Python bot so that an exception in it becomes one clear BotError."""

    trusted = False  # never the wrapped class's own claim: every move is checked

    def __init__(self, bot: Any, spec: str) -> None:
        self.bot = bot
        self.spec = spec

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        try:
            ev = self.bot.choose(game, state, seat)
        except Exception as exc:
            raise BotError(f"bot p{seat} ('{self.spec}') failed: {type(exc).__name__}: "
                           f"{exc}") from None
        if not isinstance(ev, Event):
            if isinstance(ev, str):
                return parse_answer(game, state, seat, ev)
            raise BotError(f"bot p{seat} ('{self.spec}') returned {type(ev).__name__}, "
                           "not a move")
        # msgspec builds a struct without checking its fields: check them as a log read would
        try:
            return msgspec.convert(msgspec.to_builtins(ev), type(ev))
        except (msgspec.ValidationError, TypeError) as exc:
            raise BotError(f"bot p{seat} ('{self.spec}') returned a malformed "
                           f"{type(ev).__name__}: {exc}") from None
