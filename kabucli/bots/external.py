"""Bots written by users: a program in any language over stdin/stdout, or a Python class.

Protocol (one JSON object per line, UTF-8; documented in docs/bots.md):

* kabucli -> bot, when the bot must act:
  ``{"type": "turn", "game": "dare", "seat": 2, "state": {...}, "legal": ["p2 pass", ...],
  "hint": "..."}``. ``state`` is what that seat may see; ``legal`` lists every move a bot may
  make (``Game.bot_legal``) in notation when the engine can list them.
* bot -> kabucli: one line holding a move in the game's notation (``p2 sets 1-3-9 3-5-5``,
  or without the seat, ``1-3-9 3-5-5``).
* kabucli -> bot at the end: ``{"type": "end", "outcome": {...}}``; then stdin closes.

A bot that exits, does not answer within the time limit, answers a line longer than
``LINE_LIMIT`` or not UTF-8, or answers something that does not parse or is not legal stops
the game with one line naming the seat, the answer and the reason. The log keeps everything
recorded before.

Python bots: ``py:PATH.py:Class`` or ``py:module:Class``; the class is built with the seat's
seeded generator and must have ``choose(game, state, seat) -> Event``, like built-in bots. It
runs in a Python process of its own (:class:`PythonBot`, :func:`host`), which keeps a copy of
the match from the events kabucli sends it: so the time limit holds whatever the bot does
(an endless loop in C included), and its ``sys.exit``, ``os._exit`` or ``print`` cannot stop
kabucli or mix with its output.

Every bot process is the leader of a process group of its own, which is killed when the bot
fails or its game ends (``sh -c`` children included). Reading and writing never block past
the time limit, and no more than ``LINE_LIMIT`` bytes of an answer are held. On Linux a bot
process may allocate at most :func:`bot_memory` bytes (``RLIMIT_DATA``, which the processes
it starts inherit), and is the first the kernel ends when memory runs out.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import importlib.util
import json
import os
import secrets
import selectors
import signal
import subprocess
import sys
import threading
import time
import typing
from pathlib import Path
from typing import Any

import msgspec

from kabucli import games
from kabucli.bots import command_words
from kabucli.engine import Game, Match
from kabucli.errors import BotError, KabuError, ParseError
from kabucli.events import Event
from kabucli.log import Header
from kabucli.notation import MAX_LINE
from kabucli.safetext import quoted
from kabucli.shuffle import Rng

TIMEOUT = 10.0  # seconds a bot has for each answer (KABUCLI_BOT_TIMEOUT overrides it)
LINE_LIMIT = 64 * 1024  # bytes of one answer line
BOM = b"\xef\xbb\xbf"  # UTF-8's byte order mark, which a bot's output may start with
CLOSE_WAIT = 2.0  # seconds a bot has to exit once its game is over
# how often a bot that has not answered yet is looked at to see whether it is still running:
# its output stays open after it exits when a process it started holds it
EXIT_CHECK = 0.2
# seconds a bot whose input pipe is found closed has to finish exiting (see Channel.send)
EXITING = 0.1
EXIT_POLL = 0.01  # how often a bot whose game is over is looked at, while its stderr is read
# seconds from its start within which a bot that has not answered in time, nor written a
# byte, may be seen exiting (a limit shorter than a program took to fail: its exit is what to
# say, not its lateness)
LATE_EXIT = 0.5
LATE_LIMIT = 1.0  # ... when its time limit is shorter than this
ERR_TAIL = 4096  # the last bytes of a bot's stderr kept, to say why it exited
IDLE_HOSTS = 8  # Python bot processes kept for the next match of a run
HOST_START = 30.0  # seconds a Python bot's process has to start, before its time limit
READY = b'{"ready":true}'  # what that process says once it has started
MEMORY = 4096  # MiB a bot process may allocate (KABUCLI_BOT_MEMORY overrides it)


def seconds(text: str) -> float | None:
    """``text`` as a time limit: a number of seconds from 0.001 to 86400 (None: it is not
    one), in the digits 0-9 as every number kabucli reads (``float`` alone also took '1_0',
    full-width '３' and other scripts' digits). ``--timeout`` and ``KABUCLI_BOT_TIMEOUT`` both
    read it so (a range check alone let 'nan' through)."""
    if not text.isascii() or "_" in text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0.001 <= value <= 86400 else None  # (False for nan too)


def bot_timeout() -> float:
    """The time limit of every bot's answer: ``KABUCLI_BOT_TIMEOUT`` seconds, else TIMEOUT."""
    text = os.environ.get("KABUCLI_BOT_TIMEOUT", "")
    if not text.strip():
        return TIMEOUT
    value = seconds(text)
    if value is None:  # (quoted: cut, as a setting may be 100 KB long)
        raise BotError(f"KABUCLI_BOT_TIMEOUT={quoted(text)}: not a number of seconds from "
                       "0.001 to 86400")
    return value


def bot_memory() -> int | None:
    """The bytes of memory a bot process may allocate (its data: what ``malloc`` and private
    ``mmap`` give it): ``KABUCLI_BOT_MEMORY`` MiB, 0 for no limit, else MEMORY MiB or half
    of this machine's memory, the smaller; None: no limit."""
    text = os.environ.get("KABUCLI_BOT_MEMORY", "").strip()
    if text:
        if not (text.isascii() and text.isdigit()) or int(text) > 2**30:  # (not '²')
            raise BotError(f"KABUCLI_BOT_MEMORY={text!r}: give the MiB of memory a bot may "
                           "take, a whole number (0 for no limit, at most 1073741824)")
        mib = int(text)
        return mib * 2**20 if mib else None
    limit = MEMORY * 2**20
    with contextlib.suppress(ValueError, OSError, AttributeError):
        limit = min(limit, os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2)
    return limit


def _confine(pid: int, memory: int | None) -> None:
    """Limit the bot process ``pid`` (just started) to ``memory`` bytes of data, and make it
    the one the kernel ends first when the machine runs out of memory (Linux; elsewhere
    nothing). The limit is set right after the program starts: what it allocates at its
    very first instructions, or a process it starts then, may escape it."""
    try:
        import resource
    except ImportError:  # not a Unix
        return
    if memory is not None and hasattr(resource, "prlimit"):
        hard = resource.getrlimit(resource.RLIMIT_DATA)[1]
        if hard != resource.RLIM_INFINITY:
            memory = min(memory, hard)  # (a limit this process has already binds the bot)
        with contextlib.suppress(OSError, ValueError):  # (the process gone already)
            resource.prlimit(pid, resource.RLIMIT_DATA, (memory, memory))
    with contextlib.suppress(OSError):
        Path(f"/proc/{pid}/oom_score_adj").write_text("1000")


class Stalled(Exception):
    """A bot process that broke the line protocol; the message says how (``did not ...``)."""


# where a Stalled message goes on to quote what the bot wrote (cut off by _unquoted)
STDERR_LINE = "; its last line on stderr: "
WROTE = ": it wrote "


def _unquoted(why: str) -> str:
    """A Stalled message without the bot's own words it quotes."""
    for quoting in (STDERR_LINE, WROTE):
        why = why.split(quoting, 1)[0]
    return why


class Channel:
    """A child process in a process group of its own, spoken to in lines over pipes.

    The pipes are non-blocking and every wait has a deadline; an answer is read in chunks
    only while no whole line is held, so a bot that floods its output holds at most
    ``LINE_LIMIT`` plus one chunk of it here."""

    def __init__(self, argv: list[str], timeout: float) -> None:
        debug = bool(os.environ.get("KABUCLI_DEBUG"))
        memory = bot_memory()  # (a bad setting refused before anything starts)
        # a mark in its environment, which the processes it starts inherit: those that
        # leave its process group (setsid, a daemon) are found by it and ended with it
        self.mark = secrets.token_hex(8)
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=None if debug else subprocess.PIPE,
                                     start_new_session=True,
                                     env={**os.environ, MARK: self.mark})
        _live[self.mark] = self
        _confine(self.proc.pid, memory)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.timeout = timeout
        self._stdin = self.proc.stdin
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._writable = selectors.DefaultSelector()
        self._writable.register(self._in, selectors.EVENT_WRITE)
        self._readable = selectors.DefaultSelector()
        self._readable.register(self._out, selectors.EVENT_READ)
        self._buf = bytearray()
        self._eof = False
        self._killed = False
        self._lines = 0  # lines it answered
        self._started = time.monotonic()
        # its stderr (unless KABUCLI_DEBUG shows it): read whenever the bot is waited for, so
        # that it never blocks on a full pipe, and only its tail kept, to say why it exited
        self._tail = bytearray()
        self._err = -1
        self._err_open = self.proc.stderr is not None
        self._err_cut = False  # whether the tail kept lacks what the bot wrote first
        if self.proc.stderr is not None:
            self._err = self.proc.stderr.fileno()
            os.set_blocking(self._err, False)
            self._readable.register(self._err, selectors.EVENT_READ)
            self._writable.register(self._err, selectors.EVENT_READ)

    def deadline(self) -> float:
        return time.monotonic() + self.timeout

    def _wait(self, sel: selectors.BaseSelector, deadline: float) -> bool:
        """Whether the pipe of ``sel`` (stdin or stdout; not stderr) is ready before
        ``deadline``; stderr is read meanwhile."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self._ready(sel, left):
                return True

    def _ready(self, sel: selectors.BaseSelector, wait: float) -> bool:
        """Whether the pipe of ``sel`` that is not stderr is ready within ``wait`` seconds
        (0: now); stderr, when it is ready first, is read instead (then False)."""
        events = sel.select(wait)
        if any(key.fd != self._err for key, _ in events):
            return True
        if events:
            self._read_err()
        return False

    def _read_err(self) -> None:
        """What the bot wrote on stderr, read as far as it is there now: the last ERR_TAIL
        bytes kept (see :meth:`_exited`)."""
        for _ in range(16):  # (a bot that floods stderr does not hold the reading here)
            try:
                chunk = os.read(self._err, 65536)
            except (BlockingIOError, OSError):
                return
            if not chunk:  # closed: never ready again
                self._err_open = False
                for sel in (self._readable, self._writable):
                    with contextlib.suppress(KeyError, ValueError):
                        sel.unregister(self._err)
                return
            self._tail += chunk
            self._err_cut = self._err_cut or len(self._tail) > ERR_TAIL
            del self._tail[:-ERR_TAIL]

    def forget_err(self) -> None:
        """Drop what the bot wrote on stderr so far (a process kept for another match: what
        it wrote in the last one is not what to say of this one)."""
        if self._err_open:
            self._read_err()
        self._tail.clear()
        self._err_cut = False

    def _exited(self, code: int) -> str:
        """How the bot ended, exit status ``code``, before answering: its exit code or the
        signal that killed it, and the last line it wrote on stderr (safe to show, cut)."""
        if self._err >= 0 and not self._killed:
            self._read_err()
        if code >= 0:
            how = f"exited (code {code})"
        else:
            try:
                name = f" ({signal.Signals(-code).name})"
            except ValueError:
                name = ""
            how = f"was killed by signal {-code}{name}"
        lines = bytes(self._tail).decode("utf-8", "replace").splitlines()
        at, last = next(((i, line.strip()) for i, line in reversed(list(enumerate(lines)))
                         if line.strip()), (0, ""))
        if not last:
            return f"{how} without answering"
        from kabucli.safetext import safe_text

        if at == 0 and self._err_cut:  # begun before what is kept: its end is said
            end = safe_text(last[-120:])[-120:]
            return (f"{how} without answering{STDERR_LINE}'…{end}' (its "
                    f"end: a line longer than the {ERR_TAIL} bytes kept)")
        return f"{how} without answering{STDERR_LINE}{quoted(last, 120)}"

    def _wait_answer(self, deadline: float) -> bool:
        """Whether the bot's output has something to read before ``deadline``. Stalled as
        soon as the bot has exited with nothing left to read, though its output is still
        open (a process it started, still running, holds it): it will never answer."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self._ready(self._readable, min(left, EXIT_CHECK)):
                return True
            code = self.proc.poll()
            if code is not None and not self._ready(self._readable, 0):
                raise Stalled(self._exited(code))

    def send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._in, view):]
            except BlockingIOError:
                if not self._wait(self._writable, deadline):
                    raise Stalled(f"did not read its input within {self.timeout:g} s") from None
            except OSError:  # a closed pipe: the bot is gone, or closed its input
                # said as reading the answer says it ("exited (code N) without answering"):
                # which of the two finds a program that exits at once gone is a race, and the
                # same run's report and logs must not change with it. An exiting process
                # closes its pipes a moment before it can be waited for: given that moment.
                code = self.proc.poll()
                if code is None:
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        code = self.proc.wait(timeout=EXITING)
                raise Stalled("closed its input" if code is None
                              else self._exited(code)) from None

    def line(self, deadline: float) -> bytes:
        """The next line the child writes (without its newline)."""
        buf = self._buf
        while True:
            end = buf.find(b"\n")
            if end > LINE_LIMIT or (end < 0 and len(buf) > LINE_LIMIT):
                raise Stalled(f"answered a line longer than {LINE_LIMIT // 1024} KiB")
            if end >= 0 or (self._eof and buf):
                end = len(buf) if end < 0 else end
                out = bytes(buf[:end])
                del buf[:end + 1]
                self._lines += 1
                return out
            if self._eof:
                try:  # (at least LATE_EXIT: past its limit, it may be exiting just then)
                    code = self.proc.wait(timeout=min(1.0, max(deadline - time.monotonic(),
                                                               LATE_EXIT)))
                except subprocess.TimeoutExpired:
                    raise Stalled("closed its output without answering") from None
                raise Stalled(self._exited(code))
            if not self._wait_answer(deadline):
                if not buf:  # it may have exited just then (a limit shorter than it took)
                    ended = self.proc.poll()
                    # (waited for only before its first line, under a limit shorter than a
                    # program may take to fail at its start, and until LATE_EXIT after it
                    # started: a bot hung later, or under a longer limit, or past that, is
                    # not kept longer)
                    grace = self._started + LATE_EXIT - time.monotonic()
                    if (ended is None and not self._lines and self.timeout < LATE_LIMIT
                            and grace > 0):
                        with contextlib.suppress(subprocess.TimeoutExpired):
                            ended = self.proc.wait(timeout=grace)
                    if ended is not None and not self._wrote_more():
                        raise Stalled(self._exited(ended))
                late = f"did not answer within {self.timeout:g} s"
                if buf:  # a line begun and never ended: said, for that is what to fix
                    shown = bytes(buf[:80]).decode("utf-8", "backslashreplace")
                    raise Stalled(f"{late}{WROTE}{shown!r} with no newline after it "
                                  "(end each answer with a newline)")
                raise Stalled(late)
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                continue
            if chunk:
                buf += chunk
            else:
                self._eof = True

    def _wrote_more(self) -> bool:
        """Whether the bot's output holds more now (not its end: a bot that exited closed
        it)."""
        if not self._ready(self._readable, 0):
            return False
        try:
            return bool(os.read(self._out, 65536))  # (a late answer: dropped, as the bot is)
        except BlockingIOError:
            return False

    def unasked(self) -> bytes:
        """What the child wrote that no answer took (held here, or on the pipe now, not
        waited for): before a question, a line it wrote before it was asked."""
        if not self._buf and not self._eof and self._ready(self._readable, 0):
            with contextlib.suppress(BlockingIOError):
                chunk = os.read(self._out, 65536)
                if chunk:
                    self._buf += chunk
                else:
                    self._eof = True
        return bytes(self._buf)

    def finish(self, farewell: bytes) -> None:
        """Send the last message, close the child's input, let it exit for a moment, kill it."""
        with contextlib.suppress(Stalled):
            self.send(farewell, time.monotonic() + 1.0)
        with contextlib.suppress(OSError):
            self._stdin.close()
        self._await_exit(CLOSE_WAIT)
        self.kill()

    def _await_exit(self, wait: float) -> None:
        """Wait up to ``wait`` seconds for the child to exit, reading its stderr meanwhile: a
        bot that writes more than a pipe holds as it ends would block on it, never exiting."""
        end = time.monotonic() + wait
        with selectors.DefaultSelector() as sel:
            if self._err_open:
                sel.register(self._err, selectors.EVENT_READ)
            # until stderr is closed (most often as the bot exits); then, or when a process
            # the bot started holds it open, the exit is waited for (looked at every EXIT_POLL)
            while self._err_open and self.proc.poll() is None:
                left = end - time.monotonic()
                if left <= 0:
                    return
                if sel.select(min(left, EXIT_POLL)):
                    self._read_err()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=max(end - time.monotonic(), 0))

    def kill(self) -> None:
        """Kill the child and everything else in its process group, and close the pipes."""
        if self._killed:
            return
        self._killed = True
        with contextlib.suppress(OSError):  # gone already, or never ours to kill
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()
        kill_marked(self.mark)
        _live.pop(self.mark, None)
        self._writable.close()
        self._readable.close()
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()


MARK = "KABUCLI_BOT_MARK"  # the environment variable that marks a bot's processes
_live: dict[str, Channel] = {}  # the channels not yet killed, by mark


def stop_all() -> None:
    """Kill every bot process this process started and has not ended, and what they
    started: at exit, and in a pool worker whose run died. (A worker the pool stops, by
    SIGTERM, runs no exit handler: the run ends its bots, see kabucli.sim.RUN_MARK.)"""
    for chan in list(_live.values()):
        with contextlib.suppress(Exception):
            chan.kill()
    _idle.clear()


def kill_marked(mark: str, var: str = MARK) -> int:
    """Kill every process of this user whose environment carries ``var=mark`` (the bot mark:
    a bot's process that left its process group); how many. Only where /proc tells (Linux).
    (What a process's environment held when it started: a later change is not seen.) While a
    scan finds some, it is made again: a process one of them started while the scan ran
    (after /proc was listed), or one that was just then becoming another program (its
    environment unreadable for that instant), is found by the next."""
    needle = f"{var}={mark}".encode() + b"\0"
    killed: set[int] = set()
    for _ in range(MARK_SCANS):
        if not _kill_marked_once(needle, killed):
            break
    return len(killed)


MARK_SCANS = 10  # kill_marked's scans at most


def _kill_marked_once(needle: bytes, killed: set[int]) -> bool:
    """One scan of /proc for kill_marked; whether it killed a process not in ``killed``
    (which it adds to)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return False
    me = os.getpid()
    more = False
    for name in entries:
        if not name.isdigit() or int(name) == me or int(name) in killed:
            continue
        env = _environ(int(name))
        if env is not None and needle in env:
            with contextlib.suppress(OSError):
                os.kill(int(name), signal.SIGKILL)
                killed.add(int(name))
                more = True
    return more


SETTLE = 1.0  # seconds _environ waits for a process caught becoming another program
_PF_EXITING = 0x4  # /proc/PID/stat flags: the process is exiting
_PF_KTHREAD = 0x200000  # a kernel thread


def _environ(pid: int) -> bytes | None:
    """The environment process ``pid`` started with, as /proc tells; None when it is gone,
    exiting, a kernel thread or not ours to read.

    A process caught becoming another program (``execve``) shows an empty environment for
    an instant: its new memory is in place, the environment not yet copied into it (or the
    old memory, opened just before, is gone by the read; or the kernel is that moment writing
    down where it is). Its ``stat`` tells it apart: no environment at all there, or, while
    the kernel lays the new one out, one of no length and no program code yet (the code's
    addresses are set after it); a program started with an empty environment has one of no
    length and its code, which is believed once read twice a moment apart. It is read again,
    for up to SETTLE seconds, until it shows one."""
    deadline = time.monotonic() + SETTLE
    seen_empty = False
    while True:
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                data = fh.read()
        except OSError:  # gone, or not ours to read
            return None
        if data:
            return data
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
            state, flags, start_code = fields[0], int(fields[6]), int(fields[23])
            env_start, env_end = int(fields[47]), int(fields[48])  # (Linux 3.5 and later)
        except (OSError, IndexError, ValueError):
            return None
        if state in (b"Z", b"X") or flags & (_PF_EXITING | _PF_KTHREAD):
            return None
        if env_end and env_start == env_end and start_code:  # started with an empty one?
            if seen_empty:
                return data
            seen_empty = True
        if time.monotonic() > deadline:
            return None
        if env_start == env_end:  # (else it has just become the other program: read it now)
            time.sleep(0.001)


def parse_answer(game: Game, state: Any, seat: int, answer: str) -> Event:
    """The move a bot answered in notation (its seat may be left out); BotError if none."""
    unread = f"bot p{seat} answered a line that is not a move of its turn"
    if len(answer) > MAX_LINE:
        raise BotError(f"bot p{seat} answered {answer[:80]!r}… ({len(answer)} characters; "
                       f"a move is at most {MAX_LINE})", unread)
    first = answer.split(maxsplit=1)[0] if answer.strip() else ""
    # a seat named first, like 'p2 pass'; 'pass' or 'play R5' alone is the bot's own seat's
    named = first[:1] in ("p", "P") and first[1:].isascii() and first[1:].isdigit()
    try:
        ev = game.parse(state, answer if named else f"p{seat} {answer}")
    except KabuError as exc:
        words = answer.lower().split()[1 if named else 0:]
        if words and words[0] in games.commands(game.name, False):  # Kabu-Tsukuri's 'best'
            raise BotError(f"bot p{seat} answered {answer[:80]!r}: {quoted(words[0])} is a "
                           "question the play prompt answers for people, not a move: a bot "
                           "sends a move of its turn's 'legal' (or, where 'legal' is empty, "
                           "as its 'hint' says)", unread) from None
        raise BotError(f"bot p{seat} answered {answer[:80]!r}: {exc}", unread) from None
    return own_move(game, ev, seat, f"bot p{seat} answered {answer[:80]!r}",
                    f"bot p{seat} answered")


def own_move(game: Game, ev: Event, seat: int, said: str, bare: str) -> Event:
    """``ev`` when it is a move of ``seat`` (the seat the bot was asked to move for), else
    BotError: a bot moves for its own seat only, so that its failure is its own (a move
    named for another seat, or the table's, would be refused as that seat's). ``said``: the
    bot and what it answered; ``bare``: the bot alone (what people at a seeded table are
    told, see BotError)."""
    other = getattr(ev, "seat", None)
    if ev.KIND != "action" or other != seat:
        whose = (f"a move of p{other}" if ev.KIND == "action" and isinstance(other, int)
                 else f"{game.notate(ev)!r}, which is not a seat's move")
        raise BotError(f"{said}: {whose}; a bot moves only for its own seat, p{seat}",
                       f"{bare} a move that is not its own seat's; a bot moves only "
                       f"for its own seat, p{seat}")
    return ev


class ProcessBot:
    """A bot program talking JSON lines on its stdin and moves on its stdout."""

    trusted = False  # every move is checked like a person's (see Game.bot_move)

    def __init__(self, command: str, timeout: float | None = None) -> None:
        self.command = command
        self.timeout = bot_timeout() if timeout is None else timeout
        bot_memory()  # a bad setting refused when the bot is made, before the game starts
        self._chan: Channel | None = None
        # whether this program was sent a turn yet: it may be started before its first turn
        # (`bot check` starts it first, to tell a program that cannot start)
        self._asked = False

    def _channel(self) -> Channel:
        if self._chan is None:
            try:
                self._chan = Channel(command_words(self.command), self.timeout)
                self._asked = False
            except (OSError, ValueError, ParseError) as exc:
                raise BotError(f"cannot start bot '{self.command}': {exc}") from None
        return self._chan

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        legal = [game.notate(e) for e in game.bot_legal(state, seat)]
        message = {"type": "turn", "game": game.name, "seat": seat,
                   "state": game.view(state, seat), "legal": legal,
                   "hint": games.text(game.name).hint(state, seat)}
        chan = self._channel()
        first = not self._asked
        self._asked = True
        # before the first turn nothing was asked: a line the program wrote as it started (a
        # greeting) is read as the first answer, however soon it came (checked here, whether
        # it came before this line ran decided between two failures, by the machine's load)
        early = b"" if first else chan.unasked()
        if early and not BOM.startswith(early):  # (a byte order mark alone is no answer)
            # a second line to the last turn: each answer would be the one to the turn
            self._kill()  # before, out of step with the game
            # its first line only (several lines of it would be shown as one, '\n' and all)
            line = early.split(b"\n")[0][:80].decode("utf-8", "backslashreplace").rstrip("\r")
            raise BotError(f"bot p{seat} ('{self.command}') answered before it was asked: "
                           f"{line!r} (one line to each turn, written once the turn's whole "
                           "line is read; debugging goes to stderr)",
                           f"bot p{seat} ('{self.command}') answered before it was asked (one "
                           "line to each turn, written once the turn's whole line is read; "
                           "debugging goes to stderr)")
        deadline = chan.deadline()
        try:
            chan.send(json.dumps(message).encode() + b"\n", deadline)
            raw = chan.line(deadline)
        except Stalled as exc:
            self._kill()
            why = str(exc)
            # nothing came at all: most often an answer left in the program's buffer
            if why.startswith("did not answer") and why.endswith(" s"):
                why += (" (flush the output after each answer, and answer each line as it is "
                        "read: see 'Buffering' in docs/bots.md)")
            raise BotError(f"bot p{seat} ('{self.command}') {why}",
                           f"bot p{seat} ('{self.command}') {_unquoted(why)}") from None
        try:
            # lenient in what it takes: a byte order mark (some Windows tools start their
            # output with one) and the spaces and CR around a move are not part of it
            answer = raw.decode("utf-8-sig").strip()
        except UnicodeDecodeError:
            self._kill()
            raise BotError(f"bot p{seat} ('{self.command}') answered {raw[:80]!r}, which is "
                           "not UTF-8 text", f"bot p{seat} ('{self.command}') answered a line "
                           "that is not UTF-8 text") from None
        try:
            return parse_answer(game, state, seat, answer)
        except BotError as exc:
            if not first:
                raise
            # the first line a program writes: often a greeting or debugging, not a move
            hint = ("(the first line the bot wrote: if it is not meant as a move, write it "
                    "to stderr, not stdout)")
            raise BotError(f"{exc} {hint}", exc.withheld and f"{exc.withheld} {hint}") from None

    def _kill(self) -> None:
        if self._chan is not None:
            self._chan.kill()
            self._chan = None

    def close(self, outcome: dict[str, Any] | None = None) -> None:
        if self._chan is not None:
            self._chan.finish(json.dumps({"type": "end", "outcome": outcome}).encode() + b"\n")
            self._chan = None


# -- Python bots -------------------------------------------------------------------------

# Idle host processes by bot spec: a run of many matches (kabucli sim) starts one per seat,
# not one per match. A host takes a new match only after it said it is clean (see host).
_idle: dict[str, list[Channel]] = {}


@atexit.register
def _stop_idle() -> None:
    for chans in _idle.values():
        for chan in chans:
            chan.kill()
    _idle.clear()
    stop_all()


def _split_spec(spec: str) -> tuple[str, str]:
    where, sep, cls_name = spec.rpartition(":")
    if not sep or not where or not cls_name:
        raise BotError(f"python bot '{spec}' should look like path/to/file.py:Class "
                       "or module:Class")
    return where, cls_name


def _one_line(text: str, limit: int = 300) -> str:
    """Text a bot's process sent, as one line of at most ``limit`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit] + "..."


class PythonBot:
    """A user's Python bot class, run in a Python process of its own (see :func:`host`).

    Each turn sends the process the events of the match it has not seen yet (all of them
    again after an undo), so that its copy of the match is this one; it answers with the
    bot's move, which is checked here like any other bot's."""

    trusted = False  # every move is checked like a person's (see Game.bot_move)
    reads_events = True  # its host is sent the match's events (see Session.drop_events)
    careful = False  # Kazu-Tori: the bot's own claim, read when it is loaded
    reaction: tuple[int, int]  # Kazu-Tori: set when the bot has a profile of its own
    daring: int  # Uno Dare: set when the bot has one of its own (its chance in 16)

    def __init__(self, spec: str, match: Match, seat: int, timeout: float | None = None,
                 stream: str | None = None) -> None:
        _split_spec(spec)
        self.spec = spec
        self.match = match
        self.timeout = bot_timeout() if timeout is None else timeout
        self._types = {cls.__name__: cls for cls in match.game.events}
        # what the process has of the match: how many events, and logged - len(events) then
        # (appending keeps that difference; an undo, the one way events go, raises it)
        self._synced = (0, match.logged - len(match.events))
        self._chan: Channel | None = _idle_host(spec)
        if self._chan is None:
            # -P and this process's sys.path: the host imports this kabucli, never one that
            # happens to sit in the current folder
            code = (f"import sys; sys.path[:] = {sys.path!r}; "
                    "from kabucli.bots.external import host; host()")
            try:
                self._chan = Channel([sys.executable, "-P", "-c", code], HOST_START)
            except (OSError, ValueError) as exc:
                raise BotError(f"cannot start python bot '{spec}': {exc}") from None
            # the bot's time limit starts once the process says it is ready: starting Python
            # and importing kabucli is kabucli's work, not the bot's (a tenth of a second on
            # an idle machine, more on a busy one, which failed bots of a short time limit)
            try:
                ready = self._chan.line(self._chan.deadline())
                why = "" if ready == READY else f"sent {ready[:80]!r}, not kabucli's ready"
            except Stalled as exc:
                why = str(exc)
            if why:
                self._kill()
                raise BotError(f"cannot start python bot '{spec}': its process {why}")
        self._chan.timeout = self.timeout
        seed = match.seed if match.seed is not None else 0  # as session.make_bots seeds bots
        reply = self._ask({"type": "init", "spec": spec, "header": match.header, "seed": seed,
                           "stream": stream or f"bot/{seat}", "timeout": self.timeout},
                          f"cannot load python bot '{spec}': it")
        if "error" in reply:
            self._kill()
            raise BotError(_one_line(str(reply["error"])))
        self.careful = reply.get("careful") is True
        daring = reply.get("daring")  # Uno Dare: its chance in 16 to do a dare it tries
        if type(daring) is int and 0 <= daring <= 16:
            self.daring = daring
        reaction = reply.get("reaction")
        if (isinstance(reaction, list) and len(reaction) == 2
                and all(type(v) is int and 0 <= v <= 10**6 for v in reaction)):
            self.reaction = (reaction[0], reaction[1])

    def _ask(self, message: dict[str, Any], who: str) -> dict[str, Any]:
        """Send one message to the bot's process and read its reply (a JSON object)."""
        chan = self._chan
        if chan is None:
            raise BotError(f"{who} is not running")
        deadline = chan.deadline()
        try:
            chan.send(msgspec.json.encode(message) + b"\n", deadline)
            raw = chan.line(deadline)
        except Stalled as exc:
            self._kill()
            raise BotError(f"{who} {exc}", f"{who} {_unquoted(str(exc))}") from None
        try:
            reply = json.loads(raw)
        except (ValueError, RecursionError):  # a line nested deeper than json can read
            reply = None
        if not isinstance(reply, dict):
            self._kill()
            raise BotError(f"{who} sent {raw[:80]!r}, not a reply of kabucli's bot host")
        return reply

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        m = self.match
        if state is not m.state:
            raise BotError(f"bot p{seat} ('{self.spec}') was asked about another match")
        events = m.events
        count, undone = self._synced
        keep = count if m.logged - len(events) == undone and count <= len(events) else 0
        reply = self._ask({"type": "turn", "seat": seat, "keep": keep, "events": events[keep:]},
                          f"bot p{seat} ('{self.spec}')")
        self._synced = (len(events), m.logged - len(events))
        if "error" in reply:
            withheld = reply.get("withheld")
            raise BotError(_one_line(str(reply["error"])),
                           _one_line(withheld) if isinstance(withheld, str) else None)
        name = reply.get("event")
        cls = self._types.get(name) if isinstance(name, str) else None
        if cls is None:
            raise BotError(f"bot p{seat} ('{self.spec}') returned "
                           f"{_one_line(str(name), 80)}, not a move of {game.title}")
        try:
            ev: Event = msgspec.convert(reply.get("fields"), cls)
        except (msgspec.ValidationError, TypeError) as exc:
            raise BotError(f"bot p{seat} ('{self.spec}') returned a malformed {name}: "
                           f"{_one_line(str(exc))}",
                           f"bot p{seat} ('{self.spec}') returned a malformed {name}") from None
        return own_move(game, ev, seat, f"bot p{seat} ('{self.spec}') returned a {name}",
                        f"bot p{seat} ('{self.spec}') returned")

    def _kill(self) -> None:
        if self._chan is not None:
            self._chan.kill()
            self._chan = None

    def close(self, outcome: dict[str, Any] | None = None) -> None:
        """Keep the process for the next match when it says it is clean, else end it."""
        chan = self._chan
        if chan is None:
            return
        self._chan = None
        try:
            chan.send(b'{"type": "end"}\n', time.monotonic() + 1.0)
            clean = chan.line(time.monotonic() + 1.0) == b'{"idle":true}'
        except Stalled:
            clean = False
        if clean and sum(len(v) for v in _idle.values()) < IDLE_HOSTS:
            _idle.setdefault(self.spec, []).append(chan)
        else:
            chan.kill()


def _idle_host(spec: str) -> Channel | None:
    """A host process a finished match of the same bot left, if one is still running."""
    idle = _idle.get(spec, [])
    while idle:
        chan = idle.pop()
        if chan.proc.poll() is None:
            chan.forget_err()
            return chan
        chan.kill()
    return None


def load_python_bot(spec: str, rng: Rng) -> GuardedBot:
    """Build a bot from ``PATH.py:Class`` or ``module:Class`` in this process (the host's)."""
    where, cls_name = _split_spec(spec)
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
    except BaseException as exc:  # SystemExit, KeyboardInterrupt too: the bot's failure
        raise BotError(f"cannot load python bot '{spec}': {_describe(exc)}") from None
    if not callable(getattr(bot, "choose", None)):
        raise BotError(f"python bot '{spec}' has no choose(game, state, seat) method")
    return GuardedBot(bot, spec)


def _describe(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:
        text = "?"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class GuardedBot:
    """Wraps a user's Python bot (in its host process) so that an exception in it, or an
    answer that is not a well-formed event, becomes one clear BotError."""

    trusted = False  # never the wrapped class's own claim: every move is checked

    def __init__(self, bot: Any, spec: str) -> None:
        self.bot = bot
        self.spec = spec

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        try:
            ev = self.bot.choose(game, state, seat)
        except BaseException as exc:  # SystemExit, KeyboardInterrupt too: the bot's failure
            raise BotError(f"bot p{seat} ('{self.spec}') failed: {_describe(exc)}",
                           f"bot p{seat} ('{self.spec}') failed: {type(exc).__name__}"
                           ) from None
        if not isinstance(ev, Event):
            if isinstance(ev, str):
                return parse_answer(game, state, seat, ev)
            raise BotError(f"bot p{seat} ('{self.spec}') returned {type(ev).__name__}, "
                           "not a move")
        # msgspec builds a struct without checking its fields: check them as a log read would
        try:
            ev = msgspec.convert(msgspec.to_builtins(ev), type(ev))
        except (msgspec.ValidationError, TypeError) as exc:
            raise BotError(f"bot p{seat} ('{self.spec}') returned a malformed "
                           f"{type(ev).__name__}: {exc}", f"bot p{seat} ('{self.spec}') "
                           f"returned a malformed {type(ev).__name__}") from None
        return own_move(game, ev, seat,
                        f"bot p{seat} ('{self.spec}') returned a {type(ev).__name__}",
                        f"bot p{seat} ('{self.spec}') returned")


def _end_with_parent() -> None:
    """Linux: have the kernel kill this process (SIGKILL) when the process that started it
    ends, however it ends (``prctl(PR_SET_PDEATHSIG)``: a process this one forks does not
    inherit it). A parent gone before it is set closed this process's input, which ends it
    at its first read."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


_PR_SET_PDEATHSIG = 1


def host() -> None:
    """The process a Python bot runs in: loads the bot for a match, keeps a copy of the match
    from the events kabucli sends, and answers each turn with the bot's move or failure.

    The bot's own stdin and stdout are the null device: its ``print`` cannot reach kabucli's
    output, nor its reads the messages. When a match ends the host goes back to the folder it
    started in (a bot may have changed it) and says it is clean (ready for the next match),
    unless the bot left threads running, in which case it exits.

    kabucli kills the host when the bot is late; should kabucli itself be killed first, the
    host ends with it (Linux: the kernel kills it as its parent dies), and elsewhere an alarm
    (SIGALRM, whose default action ends the process even in a loop in C) ends it at twice the
    time limit and a second, so that a bot stuck in a loop is never left behind (a bot that
    ignores the alarm would outlive a kabucli killed outright)."""
    from kabucli import games

    _end_with_parent()
    home = os.getcwd()  # each match starts here, whatever folder the last one's bot went to
    inp = os.fdopen(os.dup(0), "rb")
    out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    bot: GuardedBot | None = None
    match: Match | None = None
    events: Any = None  # the type of a list of the game's events
    spec = "?"
    limit = TIMEOUT
    out.write(READY + b"\n")  # (kabucli's imports done: the bot's time limit starts)
    out.flush()
    for line in inp:
        msg = json.loads(line)
        spec = msg.get("spec", spec)
        limit = float(msg.get("timeout", limit))
        signal.setitimer(signal.ITIMER_REAL, 2 * limit + 1.0)
        reply: dict[str, Any]
        try:
            if msg["type"] == "init":
                header = msgspec.convert(msg["header"], Header)
                match = Match(games.get(header.game), header)
                types = match.game.events
                one = typing.Union[types] if len(types) > 1 else types[0]  # noqa: UP007
                events = list[one]  # type: ignore[valid-type]
                bot = load_python_bot(msg["spec"], Rng(msg["seed"], msg["stream"]))
                reaction = getattr(bot.bot, "reaction", None)
                daring = getattr(bot.bot, "daring", None)
                reply = {"careful": getattr(bot.bot, "careful", False) is True,
                         "reaction": list(reaction) if isinstance(reaction, tuple | list)
                         else None, "daring": daring if type(daring) is int else None}
            elif msg["type"] == "turn":
                assert bot is not None and match is not None
                if msg["keep"] < len(match.events):
                    match.rebuild(match.events[:msg["keep"]])
                for ev in msgspec.convert(msg["events"], events):
                    match._apply(ev)  # checked by kabucli already, as walk() would replay them
                ev = bot.choose(match.game, match.state, msg["seat"])
                reply = {"event": type(ev).__name__, "fields": msgspec.to_builtins(ev)}
            else:  # the match is over
                bot = match = None
                if threading.active_count() > 1:
                    os._exit(0)
                try:  # a FILE.py path is found from here again, and the bot's own files
                    os.chdir(home)
                except OSError:  # (the folder gone): the next match starts a fresh process
                    os._exit(0)
                reply = {"idle": True}
        except BotError as exc:
            reply = {"error": str(exc), "withheld": exc.withheld}
        except BaseException as exc:  # the host's own failure, said in one line
            # in a turn, the bot's doing (it changed the match it was handed, say): its
            # seat is named, as two seats may run the same class
            seat = msg.get("seat") if msg.get("type") == "turn" else None
            who = f"bot p{seat} ('{spec}')" if type(seat) is int else f"python bot '{spec}'"
            reply = {"error": f"{who} failed: {_describe(exc)}",
                     "withheld": f"{who} failed: {type(exc).__name__}"}
        signal.setitimer(signal.ITIMER_REAL, 0)
        out.write(msgspec.json.encode(reply) + b"\n")
        out.flush()
    os._exit(0)
