"""The event log: a header and events, written as they happen and read back strictly.

Two encodings of the same records (docs/log-format.md):

* **msgpack** (default, compact): the 8 bytes ``KBCLOG1\\n``, then one frame per record:
  payload length (4 bytes, big-endian), CRC-32 of the payload (4 bytes, big-endian), payload
  (one msgpack map).
* **JSON Lines** (readable, ``.jsonl``): one JSON object per line, each line ending in ``\\n``.

Record 0 is the header; records 1, 2, ... are the events, and an event's number is its index.
Each record is written with one ``write`` call, flushed and (by default) synced to disk, so a
killed process leaves a log that is whole up to its last event, plus at most a *torn tail*: the
last record cut short. The reader names the first bad record (truncated, failed checksum, not
decodable) and how many were good before it, and tells a torn tail from damage: only a torn
tail may be set aside to resume a game (:meth:`LogWriter.reopen`); :func:`repair_log` copies
what still checks out of a damaged log.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import itertools
import os
import re
import struct
import time
import typing
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Final, NamedTuple, NoReturn

import msgspec
from msgspec.structs import astuple

from kabucli.compact import (
    DERIVED,
    DICTIONARY,
    DRAW,
    INPUT,
    array_body,
    array_count,
    array_head,
    codec,
    new_digest,
)
from kabucli.errors import (
    BrokenLogError,
    KabuError,
    LogError,
    LogFullError,
    LogWriteError,
    NeedInputs,
    WriteError,
)
from kabucli.events import Event, Forfeit, Undo
from kabucli.files import MiB, open_regular, read_bytes, size_text, sync_folder, write_whole

# (the structs live apart, uncompiled: mypyc compiles this module, and msgspec reads a struct's
# annotations at run time; re-exported for the modules that take them from here)
from kabucli.logdata import (
    EXTERNAL as EXTERNAL,
    MAX_TIME as MAX_TIME,
    Fmt as Fmt,
    Header as Header,
    LogData as LogData,
    SeatInfo as SeatInfo,
    control_problem as _control_problem,
    external_bot as external_bot,
)

FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)
MAGIC = b"KBCLOG2\n"  # format 2's binary encoding
MAGIC1 = b"KBCLOG1\n"  # format 1's, still read (and appended to by resume)
_FRAME = struct.Struct(">II")
# The largest log read (about a million events): a bigger file is refused, not loaded.
MAX_LOG_BYTES = 64 * MiB


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


# a header's ``started`` as :func:`now_iso` writes it: ISO 8601, in UTC, to the second
_STARTED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\+00:00")


def started_problem(started: str) -> str | None:
    """Why a header's ``started`` is not a date and time as kabucli writes it (a format 2
    header must hold one: see :func:`now_iso`), or None when it is."""
    if _STARTED.fullmatch(started):
        try:
            datetime.fromisoformat(started)
            return None
        except ValueError:  # a day or an hour that does not exist: 2026-02-30, 25:00
            pass
    return (f"started {started[:40]!r} is not a date and time as kabucli writes it (ISO "
            "8601 in UTC, to the second: 2026-11-22T02:16:05+00:00)")


def format_for(path: Path | str) -> Fmt:
    """The encoding a path's name asks for: ``.jsonl``, ``.ndjson`` or ``.json`` is JSON Lines,
    else msgpack."""
    return "jsonl" if str(path).endswith((".jsonl", ".json", ".ndjson")) else "msgpack"


_enc_mp = msgspec.msgpack.Encoder()
_enc_js = msgspec.json.Encoder()
# Format 2 keeps a bot game's inputs in memory until this many are waiting (or the log
# closes), then writes them as one compressed block.
BLOCK_RECORDS = 4096
# The most a block may hold once inflated, and the most inputs a log may hold: a crafted
# file must not fill the memory.
MAX_BLOCK_BYTES = 16 * MiB
MAX_INPUTS = 4_000_000
MAX_BLOCK_RECORDS = 16 * BLOCK_RECORDS  # a block read holds at most this many records
LEVEL = 3
# an 8 KiB window: as small as the records compress well in, since setting up zlib's default
# 32 KiB costs about ten times as long (55 against 5 us) and a game between bots writes its
# header and its block with one each (a reader inflates it with any window, up to 32 KiB)
WINDOW_BITS = 13
RAW, DEFLATE = 0, 1  # a block's first byte: how its records are stored
# zlib's level: 3 costs a game between bots about a tenth of what 9 does (0.05 against 0.4 us
# an event, bench/bench_log.py) for about a tenth more bytes


def encode_record(obj: msgspec.Struct, fmt: Fmt) -> bytes:
    """One record as format 1 writes it (a msgpack map in a frame, or a JSON line)."""
    if fmt == "jsonl":
        return _enc_js.encode(obj) + b"\n"
    return frame(_enc_mp.encode(obj))


def _v1_header(header: Header, fmt: Fmt) -> bytes:
    """A format 1 header record: without the fields format 2 added."""
    fields = {k: v for k, v in msgspec.to_builtins(header).items()
              if k not in ("clock", "commit", "salt")}
    if fmt == "jsonl":
        return _enc_js.encode(fields) + b"\n"
    return frame(_enc_mp.encode(fields))


def frame(payload: bytes) -> bytes:
    """A binary record: its length and CRC-32, then the payload."""
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def now_ms() -> int:
    return time.time_ns() // 1_000_000


# How a game is found by name, for a format 2 log: set by kabucli.games when it is imported
# (this module sits below the games, so it is told rather than importing them).
find_game: Callable[[str], Any] | None = None


def _header_digest(header: Header, game: Any, encoded: bytes = b"") -> Any:
    """A running digest (:func:`kabucli.compact.new_digest`) begun with a format 2 header,
    as the writer, the reader and :func:`log_digest` all take it: its msgpack bytes with the
    house rules in the order ``game`` lists them (the order kabucli writes), so that one game
    gives one digest whatever order another writer put them in (a map has none); a rule the
    game does not know keeps its place after them. ``encoded``: the header's bytes as
    kabucli writes them, when the caller has them (used when the rules are in order)."""
    if game is not None:
        rules = header.rules
        order = _rule_order(game.Rules)
        keys = list(rules)
        want = [k for k in order if k in rules] + [k for k in keys if k not in order]
        if keys != want:
            header = msgspec.structs.replace(header, rules={k: rules[k] for k in want})
            encoded = b""
    return new_digest(encoded or _enc_mp.encode(header))


@functools.cache
def _rule_order(rules: type[msgspec.Struct]) -> tuple[str, ...]:
    return tuple(f.encode_name for f in msgspec.structs.fields(rules))


def game_of(types: Sequence[type[Event]], name: str = "") -> Any:
    """The game an event types tuple carries (``kabucli.games.event_types``), else the one
    named ``name`` once kabucli.games is loaded, else None."""
    game = getattr(types, "game", None)
    if game is None and name and find_game is not None:
        try:
            game = find_game(name)
        except KabuError:
            return None
    return game


class LogWriter:
    """Appends a game's events to its log as they happen (docs/log-format.md).

    Format 2's binary encoding stores only the inputs (:data:`kabucli.compact.INPUT`: the
    engine says which events it derives); with ``durable`` (a person at the table) each input
    is written and synced before the game goes on, else they are written in blocks of
    :data:`BLOCK_RECORDS` and when the log closes. JSON Lines holds every event, one a line.
    A format 1 log (resumed) gets format 1 records."""

    def __init__(self, fh: IO[bytes], fmt: Fmt, durable: bool = True,
                 header: Header | None = None, types: Sequence[type[Event]] = (),
                 later: bool = False) -> None:
        self._fh = fh
        self.fmt = fmt
        self.durable = durable
        # without a header: a format 1 log (resumed), whose records are written whole
        self.version = 1 if header is None else header.format
        self.count = 0  # records appended so far (format 2 binary: its inputs; no header)
        # What the file holds, against what kabucli reads back (MAX_LOG_BYTES, MAX_INPUTS):
        # its bytes written, and format 2 binary's stored records (inputs, races, undos).
        # A record that would take it past either stops the game first (LogFullError).
        self.size = 0
        self.stored = 0
        self.torn_file: Path | None = None  # where reopen kept a torn tail it cut off
        self.path: Path | None = None  # the file, for a message (create and reopen set it)
        self.failed = False  # a write failed: nothing more is written (see _write)
        # JSON Lines, a person at the table: derived lines written since the last sync, to
        # be synced before the next prompt (see settle)
        self._unsynced = False
        self.header = header
        self.timed = header is not None and header.timed
        # whether the engine tells it of the events it derives (format 2's binary encoding
        # stores only inputs; it counts the others from the engine: see ``count``)
        self.every = fmt == "jsonl" or self.version < 2
        self._codec: Any = None
        if header is not None and self.version >= 2:
            if not types:
                raise ValueError("a format 2 log is written with its game's event types")
            self._codec = codec(_with_undo(types), header.timed)
        self._last = (header.clock or 0) if header is not None else 0
        self._records: list[msgspec.Struct] = []
        self._held: tuple[bytes, int, int] | None = None  # (see hold)
        self._digest: Any = None
        # a game between bots: an input is turned into its record and kept, no more
        self._bots = (self._codec is not None and fmt == "msgpack" and not durable
                      and not self.timed)
        self._header_bytes = b""  # the header's msgpack bytes, a format 2 binary log's only
        self._types = types
        # a format 2 binary log's header to write with its first block (``later``: see start)
        self._head_due = False
        if header is not None and self.version >= 2 and fmt == "msgpack":
            if later:
                self._head_due = True
            else:
                self._begin()

    def _begin(self) -> None:
        """A format 2 binary log's header encoded, and its digest begun with it."""
        header = self.header
        assert header is not None
        self._header_bytes = _enc_mp.encode(header)
        self._digest = _header_digest(header, game_of(self._types, header.game),
                                      self._header_bytes)

    def _write_head(self) -> None:
        """Write a format 2 binary log's magic and header, packed as a block is."""
        if not self._header_bytes:
            self._begin()
        self._head_due = False
        self._write(MAGIC + frame(_pack(self._header_bytes)))

    @classmethod
    def create(cls, path: Path, header: Header, fmt: Fmt | None = None,
               durable: bool = True, overwrite: bool = False,
               types: Sequence[type[Event]] = ()) -> LogWriter:
        fmt = fmt or format_for(path)
        try:
            # (read too: what it holds is saved if its name is taken from it, _check_place)
            fh = open(path, "w+b" if overwrite else "x+b")  # noqa: SIM115 - held open for appends
        except FileExistsError:
            raise LogError(f"{path} already exists; choose another --log name") from None
        except OSError as exc:  # a file that cannot be written: exit code 2, not a refusal
            raise WriteError(f"cannot create {path}: {exc.strerror}") from None
        try:
            _lock(fh, path)
            writer = cls.start(fh, header, fmt, durable, types)
            if durable:  # the log's name, as its header is: on disk before the first prompt
                sync_folder(path.parent)
            writer.path = path
            return writer
        except OSError as exc:  # a full disk: the file made here holds nothing; it goes
            with contextlib.suppress(OSError):
                fh.close()  # (which writes what is left: it fails again)
            with contextlib.suppress(OSError):
                os.unlink(path)
            raise LogError(f"cannot write {path}: {exc.strerror or exc}") from None
        except BaseException:
            fh.close()
            raise

    @classmethod
    def start(cls, fh: IO[bytes], header: Header, fmt: Fmt, durable: bool = True,
              types: Sequence[type[Event]] = (), later: bool = False) -> LogWriter:
        """A writer of a new log on ``fh`` (a file just opened, or a buffer): its magic and
        header are written first. ``later`` (a format 2 binary log of a game between bots,
        not durable): nothing is made or written until its first block is, at the latest when
        it closes (``kabucli sim`` closes the logs of a chunk of short matches together,
        where every step runs warm in the processor's caches: see
        :func:`kabucli.sim.play_match`)."""
        later = later and not durable
        writer = cls(fh, fmt, durable, header, types, later)
        if fmt == "jsonl" or header.format < 2:
            if fmt == "msgpack":
                fh.write(MAGIC1)
                writer.size = len(MAGIC1)
            writer._write(encode_record(header, fmt) if header.format >= 2
                          else _v1_header(header, fmt))
        elif not later:
            writer._write_head()
        return writer

    @classmethod
    def reopen(cls, path: Path, good_bytes: int, events: int, durable: bool = True,
               log: LogData | None = None) -> LogWriter:
        """Open a log to append after its last good record (``good_bytes``, from read_log;
        ``log``: what read_log read, which a format 2 log needs to go on).

        Bytes after that may only be a torn tail (see :func:`_is_torn`): they are first moved
        to a new side file, named by ``torn_file``, and only then cut off. Anything else after
        the good records is damage: LogError, and the file is left as it is."""
        try:
            fh = open(path, "r+b")  # noqa: SIM115 - held open for appends
        except OSError as exc:
            raise LogError(f"{path}: cannot open to append ({exc.strerror})") from None
        try:
            _lock(fh, path)
            data = fh.read()
            fmt: Fmt = "msgpack" if data.startswith((MAGIC, MAGIC1)) else "jsonl"
            if fmt == "jsonl":  # blank lines are no records (the reader skips them): those
                # after the last record stay, and only what follows them can be a torn tail
                while (nl := data.find(b"\n", good_bytes)) >= 0 and \
                        not data[good_bytes:nl].strip():
                    good_bytes = nl + 1
            aside = None
            if len(data) > good_bytes:
                if not _is_torn(data, fmt, good_bytes):
                    raise LogError(f"{path}: what follows byte {good_bytes} is not a torn last "
                                   "record; the log is left as it is")
                aside = _set_aside(path, data[good_bytes:])
                fh.truncate(good_bytes)
            fh.seek(good_bytes)
            writer = (cls(fh, fmt, durable) if log is None
                      else cls(fh, fmt, durable, log.header, log.types))
        except BaseException:
            fh.close()
            raise
        if log is not None and writer.version >= 2:
            writer._digest = log.hasher
            writer._last = log.last_time
            writer.stored = log.inputs
        writer.count = events
        writer.size = good_bytes
        writer.torn_file = aside
        writer.path = path
        return writer

    def _write(self, data: bytes) -> None:
        if self.failed:
            raise LogWriteError("cannot write the log: a write to it failed before",
                                path=self.path)
        fh = self._fh
        _room_for(self, len(data))
        if self.durable and self.path is not None:
            self._check_place()
        try:
            self.size += len(data)  # (a write that fails stops the log: see _give_up)
            fh.write(data)
            fh.flush()
            if self.durable:
                os.fsync(fh.fileno())
                self._unsynced = False
        except OSError as exc:
            self._give_up(exc)

    def settle(self) -> None:
        """Write and sync the derived events a JSON Lines log of a game with a person holds
        back since its last input (the antes after a deal, a round's result): called when
        the game waits for a person or ends, so that every event shown before a prompt is
        on disk, as its input is, and a process killed there leaves them in the log."""
        if not self._unsynced or self.failed:
            return
        self._unsynced = False
        try:
            self._fh.flush()
            os.fsync(self._fh.fileno())
        except OSError as exc:
            self._give_up(exc)

    def _check_place(self) -> None:
        """A game's log must still be the file its name gives: deleted, or replaced by another
        file (a copy put back, another game's log), what the game writes would go to a file
        nobody can open, and the log would end up without it or with another game's records.
        Then what the log holds is saved, at its name if that is free, else in a new file
        ``PATH.saved-N``, and LogWriteError stops the game (its ``saved``: that file)."""
        path = self.path
        assert path is not None
        fh = self._fh
        try:
            fh.flush()  # (a JSON Lines log's derived lines still buffered)
            here = os.fstat(fh.fileno())
        except OSError as exc:
            self._give_up(exc)
        try:
            there = os.stat(path)
        except FileNotFoundError:
            what = "deleted or moved"
        except OSError:
            return  # (the name cannot be looked at now: nothing to say it is not the log)
        else:
            if (there.st_dev, there.st_ino) == (here.st_dev, here.st_ino):
                return
            what = "replaced by another file"
        try:
            data = _read_all(fh, here.st_size)
            saved: Path | None = _save_new(path, data)
            why = ("what it held is written again at its name" if saved == path
                   else f"what it held is saved in {saved}")
        except OSError as exc:
            saved = None
            why = f"what it held cannot be saved ({exc.strerror or exc})"
        self._abandon()
        error = LogWriteError(f"the log was {what} during the game; {why}", path=path)
        error.saved = saved
        raise error

    def _full(self, limit: str) -> NoReturn:
        """Stop before a record that would take the log past what kabucli reads back
        (``limit``: "bytes" or "inputs"): what it holds stays whole and readable."""
        held = (f"its next record would take it past {size_text(MAX_LOG_BYTES)}"
                if limit == "bytes" else f"it holds {MAX_INPUTS:,} inputs")
        error = LogFullError(f"the log is full: {held}, the most kabucli reads back; the match "
                             "stops here unfinished, and no resume can add to it")
        error.limit = limit
        raise error

    def _give_up(self, exc: OSError) -> NoReturn:
        """After a failed write: nothing more is written (:meth:`_abandon`), and LogWriteError
        says why; the OSError itself is raised again where the writer was given no file's
        name (a log written whole, by convert or repair: its writer says why). A torn tail is
        what a failed write may leave, as a crash does; ``kabucli resume`` sets it aside."""
        if self.path is None:
            self.failed = True
            self._records = []
            self._held = None
            raise exc
        self._abandon()
        raise LogWriteError(f"cannot write the log ({exc.strerror or exc})",
                            path=self.path) from exc

    def _abandon(self) -> None:
        """Write nothing more: drop the records kept to write, and close the file without
        writing the bytes still buffered, which would otherwise go out when it is closed
        (later, once there is room again, or into a file that is no longer the log) and land
        after a record cut short: damage where a torn tail was."""
        self.failed = True
        self._records = []
        self._held = None
        raw = getattr(self._fh, "raw", None)
        with contextlib.suppress(OSError, ValueError):
            (raw if raw is not None else self._fh).close()

    def append(self, event: Event, how: int = INPUT, at: int | None = None) -> None:
        """Record one event; ``how``: whether the engine derived it, it is an input, or a
        race drawn from the seed (:mod:`kabucli.compact`); ``at``: when it was entered (ms
        since 1970) if not now (a log being converted). LogFullError, before anything
        changes, when the log holds what kabucli reads back."""
        if self._bots:
            self._append_input(event, how)
            return
        if self.version < 2:
            self._write(encode_record(event, self.fmt))
            self.count += 1
            return
        if how == DERIVED:
            if self.fmt == "jsonl":
                line = _enc_js.encode(event) + b"\n"
                _room_for(self, len(line))
                try:  # (buffered: written and synced by settle, or with the next input)
                    self._fh.write(line)
                    self.size += len(line)
                except OSError as exc:
                    self._give_up(exc)
                self._unsynced = self.durable
            self.count += 1
            return
        binary = self.fmt != "jsonl"
        dt = 0
        last = self._last
        if self.timed:
            now = now_ms() if at is None else at
            dt = max(0, now - last)
            last += dt
        if not binary:  # (its digest is computed when it is read: log_digest)
            line = _enc_js.encode(event)
            if self.timed:
                line = line[:-1] + b',"t":%d}' % last
            self._write(line + b"\n")
        else:
            _store_one(self)
            self._records.append(self._codec.record(None if how == DRAW else event, dt))
        self._last = last
        self.count += 1
        if binary and (self.durable or len(self._records) >= BLOCK_RECORDS):
            self.flush()

    def _append_input(self, event: Event, how: int) -> None:
        """:meth:`append` of an untimed binary log not synced record by record (the engine
        gives it only inputs and races; a whole log written at once gives it all)."""
        if how == DERIVED:
            return
        _store_one(self)
        self.count += 1
        records = self._records
        if how == INPUT:
            records.append(self._codec.twin[type(event)](*astuple(event)))
        else:
            records.append(self._codec.draw_type())
        if len(records) >= BLOCK_RECORDS:
            self.flush()

    def append_input(self, event: Event | None, at: int) -> None:
        """Store one input as read from a format 2 log (None: a race mark), entered at ``at``."""
        if event is None:
            _store_one(self)
            self.count += 1
            dt = max(0, at - self._last) if self.timed else 0
            self._last += dt
            self._records.append(self._codec.record(None, dt))
        else:
            self.append(event, INPUT, at)

    def hold(self) -> None:
        """Encode the inputs waiting as their block's body, to be written by the next
        :meth:`flush` (a log left to write later: :func:`kabucli.sim.play_match`). What the
        writer keeps until then is bytes, not the records and the lists of the events in
        them: kept by the thousand, those made Python's cycle collector run every dozen
        matches, going through them again each time."""
        if self._records and self._held is None:
            body, head = array_body(self._records)
            self._held = (body, head, len(self._records))
            self._records = []

    def flush(self) -> None:
        """Write the inputs waiting as one block (format 2's binary encoding)."""
        held = self._held
        if held is not None:  # (see hold; LogFullError leaves it to write)
            self._write_body(held[0], held[1])
            self._held = None
        records = self._records
        if not records:
            return
        # taken before they are written: a Ctrl-C during the write (its fsync) ends the
        # game, whose close flushes again, which must not write them a second time
        self._records = []
        try:
            self._write_block(records)
        except LogFullError:  # (nothing written, nothing counted)
            self._records = records
            if len(records) == 1:
                raise
            self._flush_part()
            rest = self._records
            self._write_block(rest)  # (LogFullError unless the rest fits, kept)
            self._records = []

    def _write_block(self, records: list[msgspec.Struct]) -> None:
        """Write ``records`` as one block, and take them into the digest once written."""
        body, head = array_body(records)
        self._write_body(body, head)

    def _write_body(self, body: bytes, head: int) -> None:
        """Write a block of ``body`` (the msgpack array of its records, whose own bytes start
        at ``head``), and take them into the digest once written."""
        if self._head_due:
            self._write_head()
        self._write(frame(_pack(body)))
        self._digest.update(memoryview(body)[head:])

    def _flush_part(self) -> None:
        """Of a block that would take the log past MAX_LOG_BYTES (a game between bots keeps
        up to BLOCK_RECORDS inputs), write the most of its first records that fit as a block
        of their own, so that the log stops before the record that does not fit, as a log
        written record by record does; the others stay waiting."""
        records = self._records
        fits, over = 0, len(records)  # (a block of ``fits`` records fits; of ``over``, not)
        while over - fits > 1:
            mid = (fits + over) // 2
            body, _ = array_body(records[:mid])
            if self.size + len(frame(_pack(body))) <= MAX_LOG_BYTES:
                fits = mid
            else:
                over = mid
        if fits:
            self._write_block(records[:fits])
            self._records = records[fits:]

    @property
    def unwritten(self) -> int:
        """Inputs kept to write in a block that are not in the file (after LogFullError: a
        game between bots played on past what its log holds)."""
        return len(self._records) + (0 if self._held is None else self._held[2])

    @property
    def digest(self) -> str | None:
        """The log's digest so far, in hex (format 2), or None (format 1)."""
        if self._digest is None:
            return None
        return str(self._digest.copy().hexdigest())

    def close(self) -> None:
        if self._fh.closed or self.failed:
            return
        try:
            if self._head_due:  # (a log made ``later`` that holds no record)
                self._write_head()
            self.flush()
            # (JSON Lines: the events derived since the last prompt, as when a bot's failure
            # stops a person's game before the next one)
            self.settle()
            if self.durable and self.path is not None:
                self._check_place()  # (deleted or replaced since its last input)
        finally:
            self._fh.close()


def _room_for(writer: LogWriter, size: int) -> None:
    """LogFullError, before anything is written, when ``size`` more bytes would take the log
    past MAX_LOG_BYTES. (A module function, not a method: compiled, a call to it is direct,
    and it runs for every record written.)"""
    if writer.size + size > MAX_LOG_BYTES:
        writer._full("bytes")


def _store_one(writer: LogWriter) -> None:
    """Count one more record stored in a binary log (an input, a race, an undo);
    LogFullError, before anything changes, when it holds MAX_INPUTS already. (A module
    function for the reason :func:`_room_for` is.)"""
    if writer.stored >= MAX_INPUTS:
        writer._full("inputs")
    writer.stored += 1


def _taken(fd: int) -> bool:
    """Take the log's lock on ``fd`` (an advisory lock, let go when the file is closed);
    False when another process holds it. (Where there is no flock, as on Windows, or the
    file system has no locks, nothing is locked: True.)"""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return True


def _held(path: Path) -> bool:
    """Whether another process holds the lock of the log at ``path`` (see :func:`_lock`)."""
    try:
        fd, _ = open_regular(path)
    except OSError:
        return False
    try:
        return not _taken(fd)
    finally:
        os.close(fd)  # (which lets go of the lock taken here)


def _lock(fh: IO[bytes], path: Path) -> None:
    """Hold the log open for writing by this process alone: two kabucli writing one log at
    once (two ``resume``, or a resume while the game still runs) would write over each
    other's records. LogError if another holds it."""
    if not _taken(fh.fileno()):
        raise LogError(f"{path} is being written by another kabucli (a game or a resume of "
                       "it still running): only one may write a log at a time")


def _pack(body: bytes) -> bytes:
    """A format 2 frame's payload: ``body`` deflated (raw deflate) when that is shorter,
    after one byte that says which (DEFLATE or RAW)."""
    packed = body
    if len(body) > 24:
        deflate = zlib.compressobj(LEVEL, zlib.DEFLATED, -WINDOW_BITS, zdict=DICTIONARY)
        packed = deflate.compress(body) + deflate.flush()
    if len(packed) < len(body):
        return bytes((DEFLATE,)) + packed
    return bytes((RAW,)) + body


def _unpack(payload: bytes) -> bytes | str:
    """The body of a format 2 frame's payload, or why it cannot be had (a str)."""
    how, body = payload[0], payload[1:]
    if how == DEFLATE:
        inflate = zlib.decompressobj(-15, zdict=DICTIONARY)
        try:
            body = inflate.decompress(body, MAX_BLOCK_BYTES)
        except zlib.error as exc:
            return f"corrupted: the record does not inflate ({exc})"
        if inflate.unconsumed_tail or (len(body) >= MAX_BLOCK_BYTES and not inflate.eof):
            return f"invalid record: it inflates to more than {size_text(MAX_BLOCK_BYTES)}"
        if not inflate.eof or inflate.unused_data:
            return "corrupted: the record's compressed data is cut short or followed by more"
    elif how != RAW:
        return f"invalid record: stored in an unknown way ({how})"
    return body


def _read_all(fh: IO[bytes], size: int) -> bytes:
    """The first ``size`` bytes of the open file ``fh`` (its name may be gone)."""
    if not hasattr(os, "pread"):  # (Windows: the file is closed right after anyway)
        fh.seek(0)
        return fh.read(size)
    fd = fh.fileno()
    parts = []
    at = 0
    while at < size:
        part = os.pread(fd, size - at, at)
        if not part:
            break
        parts.append(part)
        at += len(part)
    return b"".join(parts)


def _save_new(path: Path, data: bytes) -> Path:
    """Write ``data`` to a new file, synced: ``path`` if no file has that name, else
    ``PATH.saved-N`` (the first N not taken); an existing file is never replaced."""
    return _keep_new(data, itertools.chain([path], _numbered(path, "saved")))


def _numbered(path: Path, what: str) -> Iterator[Path]:
    """``PATH.WHAT-1``, ``PATH.WHAT-2``, ... without end. (A generator function, not a
    generator expression: compiled by mypyc, an expression passed to a call may be made into
    a list first, which over a count without end runs out of memory.)"""
    for n in itertools.count(1):
        yield path.with_name(f"{path.name}.{what}-{n}")


def _set_aside(path: Path, tail: bytes) -> Path:
    """Keep ``tail`` in a new file ``PATH.torn-N`` (the first N not taken), synced to disk."""
    try:  # (and its name, before the log is cut)
        return _keep_new(tail, _numbered(path, "torn"), must_sync=True)
    except OSError as exc:
        raise LogError(f"{path}: cannot keep its torn last record in {exc.filename} "
                       f"({exc.strerror}); the log is left as it is") from None


def _keep_new(data: bytes, names: Iterable[Path], must_sync: bool = False) -> Path:
    """Write ``data`` to the first of ``names`` no file has (an existing file is never
    replaced), synced, then sync its folder so that the name is kept too (``must_sync``: or
    fail). OSError naming that file (``filename``) when it cannot, the file made removed."""
    for side in names:
        try:
            fh = open(side, "xb")  # noqa: SIM115 - closed below, before its folder is synced
        except FileExistsError:
            continue
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(side)) from exc
        try:
            with fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            sync_folder(side.parent, must=must_sync)
        except OSError as exc:
            side.unlink(missing_ok=True)
            raise OSError(exc.errno, exc.strerror, str(side)) from exc
        return side
    raise AssertionError("names ran out")  # (each caller's never end)


EventTypes = Callable[[str], Sequence[type[Event]]]
# Told how far reading a log has come: (bytes read, the file's bytes), about a hundred times
# in a long log (a progress bar's; see _scan)
Progress = Callable[[int, int], None]


class _Raw(NamedTuple):
    """One record's bytes: ``payload`` is None and ``why`` says why for a bad one."""

    number: int  # 0 is the header
    start: int
    end: int
    payload: bytes | None
    why: str = ""
    torn: bool = False


# Where a frame may start when reading on past damage: a length below 1 MiB (far more than
# any record needs) and a payload that opens a msgpack map, as every record does.
# (A format 2 block opens with its RAW or DEFLATE byte instead.)
_FRAME_START = re.compile(rb"(?=\x00[\x00-\x0f].{6}[\x00\x01\x80-\x8f\xde\xdf])", re.DOTALL)


def _frame_end(data: bytes, pos: int) -> tuple[int, str, bool]:
    """Where the msgpack frame at ``pos`` ends, "" if it is whole and checks (else why not),
    and whether it is cut: it runs past the end of ``data`` (and then ends there)."""
    left = len(data) - pos
    if left < _FRAME.size:
        return len(data), "truncated: the record's frame is cut short", True
    size, crc = _FRAME.unpack_from(data, pos)
    end = pos + _FRAME.size + size
    if end > len(data):
        return len(data), f"truncated: {left - _FRAME.size} of {size} bytes present", True
    if size == 0:  # no record is empty; zeroed bytes would pass (the CRC-32 of b"" is 0)
        return end, "corrupted: an empty frame", False
    if zlib.crc32(data[pos + _FRAME.size:end]) != crc:
        return end, "corrupted: checksum does not match", False
    return end, "", False


def _next_frame(data: bytes, pos: int) -> int | None:
    """The start of the first whole msgpack frame that checks at or after ``pos`` (see
    ``_FRAME_START``); ``len(data)`` if there is none, None if the search gave up: its work
    stays linear in the bytes searched, however they were made."""
    budget = 4 * (len(data) - pos) + (1 << 20)
    for m in _FRAME_START.finditer(data, pos):
        p = m.start()
        end, why, cut = _frame_end(data, p)
        budget -= 64 if cut else 64 + end - p
        if budget < 0:
            return None
        if not why:
            return p
    return len(data)


def _cut_frame_damage(data: bytes, pos: int) -> str:
    """For a msgpack frame at ``pos`` that runs past the end of ``data``: "" when it is a torn
    tail (no whole frame follows its start), else why it is damage (its length is wrong)."""
    nxt = _next_frame(data, pos + 1)
    if nxt == len(data):
        return ""
    follows = ("yet whole records follow" if nxt is not None
               else "and what follows is too long to search")
    return f"corrupted: its length runs past the end of the file, {follows}"


def _is_torn(data: bytes, fmt: Fmt, pos: int) -> bool:
    """Whether ``data[pos:]`` is a torn tail: one last record cut short, as a crash while
    writing it leaves it. In msgpack: its frame or payload runs past the end of the data
    and no whole frame follows its start; in JSON Lines: no newline follows. A whole record
    that fails its checksum, or a zeroed one, is damage, not a tear."""
    if fmt == "jsonl":
        return b"\n" not in data[pos:]
    return _frame_end(data, pos)[2] and not _cut_frame_damage(data, pos)


def _raw_records(data: bytes, fmt: Fmt, resync: bool = False) -> Iterator[_Raw]:
    """The records of a log's bytes, in order. Reading stops after the first bad one, unless
    ``resync``: then a bad stretch of msgpack counts as one record and reading goes on at the
    next frame that checks (a JSON Lines line is a record whatever it holds)."""
    index = 0
    if fmt == "msgpack":
        pos = len(MAGIC)  # format 1's magic is as long
        while pos < len(data):
            end, why, cut = _frame_end(data, pos)
            if not why:
                yield _Raw(index, pos, end, data[pos + _FRAME.size:end])
            else:
                damage = _cut_frame_damage(data, pos) if cut else why
                if resync:
                    nxt = _next_frame(data, pos + 1)
                    end = len(data) if nxt is None else nxt
                yield _Raw(index, pos, end, None, damage or why, not damage)
                if not resync:
                    return
            pos = end
            index += 1
    else:
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl < 0:
                yield _Raw(index, pos, len(data), None, "truncated: the last line has no end",
                           True)
                return
            if data[pos:nl].strip():
                yield _Raw(index, pos, nl + 1, data[pos:nl])
                index += 1
            pos = nl + 1


def _log_error(path: Path, index: int, why: str, good: int, torn: bool = False) -> LogError:
    """A LogError for record ``index`` (0 = header) that says where, with ``good`` events
    read whole before it (``torn``: the record is a torn tail)."""
    return LogError(why, index, good, path, torn)


def _read_bytes(path: Path) -> tuple[bytes, Fmt]:
    """A log file's bytes and, from its content, its encoding."""
    try:
        data = read_bytes(path, MAX_LOG_BYTES)
    except FileNotFoundError:
        raise LogError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise LogError(f"{path}: is a directory, not a log") from None
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror})") from None
    if data.startswith((MAGIC, MAGIC1)):
        return data, "msgpack"
    if data[:1] == b"{":
        return data, "jsonl"
    if not data:
        raise LogError(f"{path}: empty file, not a kabucli log")
    if data.startswith(b"\xef\xbb\xbf"):
        raise LogError(f"{path}: not a kabucli log as it stands: it starts with a UTF-8 "
                       "byte-order mark, which kabucli never writes (an editor may have added "
                       "it); a JSON Lines log starts with '{'")
    for magic, packer in _PACKED:
        if data.startswith(magic):
            raise LogError(f"{path}: not a kabucli log as it stands: it is {packer}; unpack "
                           "it first")
    raise LogError(f"{path}: not a kabucli log (unknown format)")


# What a log packed by a common archiver starts with (see _read_bytes).
_PACKED = ((b"\x1f\x8b", "gzip-compressed (gunzip)"),
           (b"\xfd7zXZ\x00", "xz-compressed (unxz)"),
           (b"\x28\xb5\x2f\xfd", "zstd-compressed (unzstd)"),
           (b"BZh", "bzip2-compressed (bunzip2)"),
           (b"PK\x03\x04", "a zip archive (unzip)"))


# (a JSON number: no leading zero, as JSON readers refuse "t":007; left in the line, such a
# time is then refused as the JSON it is not)
_TIME = re.compile(rb',"t":(0|[1-9][0-9]{0,15})}[ \t\r]*$')  # (JSON's whitespace after it)


def _time_problem(t: int, before: int, header: Header | None) -> str:
    """Why the JSON Lines time ``t`` cannot follow ``before``: after 9999, or, in format 2
    (whose writer never goes back), earlier than the time before it; "" when it can."""
    if t > MAX_TIME:
        return f"invalid record: a time after the end of 9999 ({t} ms after 1970) - at `$.t`"
    if t < before and header is not None and header.format >= 2:
        return (f"invalid record: time {t} is earlier than the one before it ({before}); a "
                "log's times never go back - at `$.t`")
    return ""


class _Decoder:
    """Decodes a log's records in order: the header, then events of its game (format 2's
    binary encoding: blocks of inputs)."""

    def __init__(self, event_types: EventTypes, fmt: Fmt, data: bytes,
                 mode: str = "collect") -> None:
        """``mode``, for format 2's blocks: ``collect`` the inputs (``inputs``), or play them
        through the engine as they are read, which ``keep``s the events or only counts them
        (``stream``, ``inputs``: see :class:`kabucli.engine.Deriver`)."""
        self.event_types = event_types
        self.fmt = fmt
        self.mode = mode
        self.deriver: Any = None
        self.count = 0  # inputs read
        self.magic2 = data.startswith(MAGIC)
        self.header: Header | None = None
        self.events: list[Event] = []
        self.times: list[int] | None = None
        self.inputs: list[tuple[int, Event | None]] = []
        self.stamped: list[int] = []  # (JSON Lines) the events that carry a t, from 0
        self.hasher: Any = None
        self.last = 0
        self._events: Any = None
        self._codec: Any = None
        self.types: Any = ()

    @property
    def blocks(self) -> bool:
        """Whether the events come as format 2 blocks of inputs."""
        return self._codec is not None

    def decode(self, index: int, payload: bytes) -> str:
        """Take one whole record (0: the header); "" when it decodes, else why not."""
        try:
            if index == 0:
                if self.magic2:
                    unpacked = _unpack(payload)
                    if isinstance(unpacked, str):
                        return unpacked
                    payload = unpacked
                header, canonical = _decode_header(payload, self.fmt, self.magic2)
                self.header = header
                self._events = _event_decoder(header.game, self.event_types, self.fmt)
                self.types = self._events[2]
                if header.timed:
                    self.times = []
                    self.last = header.clock or 0
                if header.format >= 2 and self.fmt == "msgpack":
                    self._codec = codec(self._events[1], header.timed)
                    game = game_of(self.types, header.game)
                    self.hasher = _header_digest(header, game, canonical)
                    if self.mode != "collect":
                        # an undo comes only from a person: a log without one at the
                        # table is streamed keeping nothing (NeedInputs if one comes)
                        self.deriver = _deriver(game, header, self.mode == "keep",
                                                self.mode == "inputs" or header.people)
            elif self._codec is not None:
                return self._block(payload)
            else:
                t = None
                # (whitespace may follow the object, as a \r before the line's \n: JSON
                # allows it, and an untimed line with it is read too)
                if self.times is not None and (payload.endswith(b"}")
                                               or payload[-1:] in b" \t\r"):
                    m = _TIME.search(payload)
                    if m is not None:
                        t = int(m[1])
                        payload = payload[:m.start()] + b"}"
                        problem = _time_problem(t, self.last, self.header)
                        if problem:
                            return problem
                        self.stamped.append(len(self.events))
                event = self._events[0].decode(payload)
                if self.fmt == "jsonl":
                    _one_key_each(payload, event)
                else:  # format 1's msgpack maps
                    _one_key_each_mp(payload, event)
                self.events.append(event)
                if self.times is not None:
                    self.last = t if t is not None else self.last
                    self.times.append(self.last)
        except LogError as exc:
            return str(exc)
        except msgspec.DecodeError as exc:  # ValidationError is a DecodeError
            if str(exc) == "Input data was truncated":  # yet the record is whole (its line,
                return _CUT_INSIDE[self.fmt]  # or its frame, checked): malformed inside
            why = f"invalid record: {_field_path(str(exc))}"
            if self.times is not None and why.endswith("unknown field - at `$.t`"):
                # (a time written otherwise than kabucli writes it: said how it is read)
                why += (' (a time is read as the line\'s last key, written as kabucli '
                        'writes it: ,"t":N} with no spaces)')
            return why
        except UnicodeDecodeError:
            return "invalid record: a string in it is not valid UTF-8"
        except RecursionError:
            return "invalid record: values nested too deeply"
        except (ValueError, TypeError) as exc:  # an event's own check of its fields
            return f"invalid record: {exc}"
        return ""

    def _block(self, payload: bytes) -> str:
        body = _unpack(payload)
        if isinstance(body, str):
            return body
        head = array_head(body)
        if not head or len(body) == head:
            return "invalid record: a block that does not hold a list of records"
        # the counts checked from the array's header, before its records are made: a small
        # crafted block inflates to millions of one-byte records (hundreds of MiB as structs)
        count = array_count(body)
        if count > MAX_BLOCK_RECORDS:
            return (f"invalid record: a block of {count:,} records (a block holds at most "
                    f"{MAX_BLOCK_RECORDS:,})")
        if self.count + count > MAX_INPUTS:
            return f"invalid record: more than {MAX_INPUTS:,} inputs, the most kabucli reads"
        records = self._codec.decoder.decode(body)
        last = self.last
        # the digest takes the records' bytes as stored (docs/log-format.md: a writer that
        # puts them otherwise than kabucli gets a digest of its own). Encoding them again as
        # kabucli would write them costs Uno Dare's audit a tenth of its time.
        self.hasher.update(memoryview(body)[head:])
        self.count += len(records)
        if self.deriver is not None and not self._codec.timed:
            self.deriver.feed_records(records, self._codec.real, last)
            return ""
        out: list[tuple[int, Event | None]] = []
        if self._codec.timed:
            convert = self._codec.event
            for rec in records:
                dt, ev = convert(rec)
                last += dt
                out.append((last, ev))
            if last > MAX_TIME:  # (times only grow: the last is the latest)
                return (f"invalid record: a time after the end of 9999 ({last} ms after "
                        "1970)")
        else:  # (Codec.event written out: a record's fields become its event's)
            real = self._codec.real
            for rec in records:
                cls = real.get(type(rec))
                out.append((last, None if cls is None else cls(*astuple(rec))))
        self.last = last
        if self.deriver is None:
            self.inputs += out
        else:
            self.deriver.feed_all(out)
        return ""


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Python's cycle collector off while a log is read and walked, then as it was. What
    reading makes holds no cycle (events, the lists in them, a state's record of its rounds),
    and a collector that ran every few hundred new objects went through all those kept so
    far again, so that a long match read slower per event the longer it was: Kabu-Tsukuri
    (10,000 hands, 140,001 events) 1.45 µs an event against 1.25 for 710 hands; 1.29 and 1.20
    with it off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@_gc_paused()
def read_log(path: Path | str, event_types: EventTypes, strict: bool = True,
             progress: Progress | None = None) -> LogData:
    """Read a whole log. With ``strict`` a bad record raises LogError; otherwise the events
    before it are returned with ``error`` set (for replaying or resuming a damaged log), and
    ``torn`` when it is a torn tail. A bad or unsupported header always raises: nothing after
    it can be trusted.

    A format 2 binary log's inputs are played through the engine as they are read, which
    derives the events between them and checks each input (``LogData.walked``); an input that
    breaks a rule ends the events there (it is the last one), and an audit reports it as a
    format 1 log's. ``progress``: told how far reading has come (see :data:`Progress`)."""
    path = Path(path)
    return _log_data(path, *_scan(path, event_types, "keep", progress), strict)


def _log_data(path: Path, records: _Decoder, good: int, bad: _Raw | None, why: str,
              strict: bool) -> LogData:
    """The log :func:`_scan` read (see :func:`read_log`)."""
    header = records.header
    walked = None
    if records.deriver is not None:
        derived = records.deriver.finish()
        records.events, records.times, walked = derived.events, derived.times, derived.walked
    error = None
    if bad is not None:
        n = len(records.events)
        error = _log_error(path, n + 1 if records.blocks else bad.number, why, n, bad.torn)
        if strict:
            raise error
    assert header is not None
    return LogData(str(path), header, records.events, records.fmt, good, error,
                   bad is not None and bad.torn, records.times, records.count,
                   records.hasher, records.last, walked, records.types, records.stamped)


def read_header(path: Path | str, event_types: EventTypes) -> Header:
    """A log's header alone, checked as :func:`read_log` checks it but for its game's own
    check of its rules and seats (the records after it are not read); LogError when the file
    is not a kabucli log or its header is bad."""
    path = Path(path)
    data, fmt = _read_bytes(path)
    records = _Decoder(event_types, fmt, data)
    for raw in _raw_records(data, fmt):
        why = raw.why if raw.payload is None else records.decode(raw.number, raw.payload)
        if why:
            raise _log_error(path, 0, why, 0)
        break
    if records.header is None:
        raise _log_error(path, 0, "missing: the log holds no records", 0)
    return records.header


def _scan(path: Path, event_types: EventTypes, mode: str,
          progress: Progress | None = None) -> tuple[_Decoder, int, _Raw | None, str]:
    """Read a log's records up to the first bad one: the decoder (header and what it
    read), where the good records end, the bad record (None: none) and why it is bad.
    ``progress`` is told each hundredth of the file read, and its end."""
    data, fmt = _read_bytes(path)
    records = _Decoder(event_types, fmt, data, mode)
    good = len(MAGIC) if fmt == "msgpack" else 0
    step = len(data) // 100 + 1
    told = 0  # where progress was last told
    for raw in _raw_records(data, fmt):
        why = raw.why if raw.payload is None else records.decode(raw.number, raw.payload)
        if (raw.number == 0 and not why and records.deriver is None
                and records.header is not None):
            # the header checked against its game before any event is read (a deriver's
            # match checked it as it was made): a header naming another game than its events
            # was said as its first event's record, unknown to that game, by audit, resume
            # and convert, and as the header by replay
            why = _header_refused(records.types, records.header)
        if why:
            if raw.number == 0:
                raise _log_error(path, 0, why, 0)
            return records, good, raw, why
        good = raw.end
        if progress is not None and good - told >= step:
            progress(good, len(data))
            told = good
    if progress is not None and told != good:  # (where it ended, if not told yet)
        progress(good, len(data))
    if records.header is None:
        raise _log_error(path, 0, "missing: the log holds no records", 0)
    return records, good, None, ""


class Audited(NamedTuple):
    """What :func:`audit_log` found: the header, how many events the log holds, the match
    at its end (or at the first event that breaks a rule: ``violation``), and its digest."""

    header: Header
    events: int
    match: Any
    violation: Any
    digest: str | None
    types: Any
    undone: list[int]  # the events (numbers) that took a move back
    after_shown: list[int]  # those of them after the seed dealt or showed cards since the move
    # a log that breaks a rule and cannot be read to its end either: where and why a record
    # after the rule broken cannot be read ("" when it can); a log that breaks no rule before
    # such a record is not Audited: LogError
    unread: str = ""


@_gc_paused()
def audit_log(path: Path | str, event_types: EventTypes,
              progress: Progress | None = None) -> Audited:
    """Check a log against the rules, as ``kabucli audit`` does: a format 2 binary log is
    streamed, its inputs played as each block is read and its events counted, not kept, so
    memory does not grow with the log. A record that cannot be read raises LogError, unless
    an event before it breaks a rule: that is the finding (as replay reports it), and
    ``unread`` says where the reading stopped. ``progress``: told how far reading has come
    (see :data:`Progress`)."""
    path = path if isinstance(path, Path) else Path(path)
    try:
        records, good, bad, why = _scan(path, event_types, "stream", progress)
    except NeedInputs:  # an undo where nobody sat to type one: read it again, keeping inputs
        records, good, bad, why = _scan(path, event_types, "inputs", progress)
    if records.deriver is None:  # (format 1, JSON Lines: the scan kept every event)
        data = _log_data(path, records, good, bad, why, False)
        from kabucli.engine import walk

        game = game_of(data.types, data.header.game)
        if game is None:
            raise LogError(f"{path}: its game's engine was not given")
        match, violation = walk(game, data.header, data.events)
        if data.error is not None:
            if violation is None:
                raise data.error
            return Audited(data.header, len(data.events), match, violation, None,
                           data.types, [], [], _unread(path, data.error))
        undone, shown = ([], []) if violation is not None else _takebacks(game, data)
        return Audited(data.header, len(data.events), match, violation,
                       None if violation is not None else log_digest(data), data.types,
                       undone, shown)
    derived = records.deriver.finish()
    n = records.deriver.logged
    assert records.header is not None
    match, violation = derived.walked
    if bad is not None:
        if violation is None:
            raise _log_error(path, n + 1, why, n, bad.torn)
        # (the engine stopped at the rule broken: the record's event is not counted)
        return Audited(records.header, n, match, violation, None, records.types, [], [],
                       f"a record after it: {why}")
    return Audited(records.header, n, match, violation,
                   None if violation is not None else str(records.hasher.hexdigest()),
                   records.types, records.deriver.undone, records.deriver.after_shown)


def _unread(path: Path, error: LogError) -> str:
    """Where and why a log cannot be read to its end, without the log's name."""
    text = str(error)
    return text.removeprefix(f"{path}: ")


def _takebacks(game: Any, log: LogData) -> tuple[list[int], list[int]]:
    """The undos of a log that keeps every event (numbers), and those of them after cards
    were dealt or shown since the move they took back (chance events, and events that show
    cards, ``Event.SHOWS``: what :class:`kabucli.engine.Deriver` finds as it streams a binary
    log)."""
    if not any(type(ev) is Undo for ev in log.events):
        return [], []
    from kabucli.engine import classify, placement, take_back

    hows, _ = classify(game, log.header, log.events)
    placed: list[tuple[bool, int, int]] = []  # (a race, chance events before, after) an input
    chances = 0
    undone: list[int] = []
    shown: list[int] = []
    for i, (ev, how) in enumerate(zip(log.events, hows, strict=False), 1):
        if type(ev) is Undo:
            undone.append(i)
            took = take_back(placed, chances)
            if took is not None:
                if took[0]:
                    shown.append(i)
                chances = took[1]
            continue
        before = chances
        if ev.KIND == "chance" or ev.SHOWS:
            chances += 1
        if how != DERIVED:
            placed.append(placement(how == DRAW, ev, before, chances))
    return undone, shown


def check_times(log: LogData) -> None:
    """LogError when a JSON Lines log puts a time on an event the engine derives: the digest
    covers the inputs' times only, so such a time could be added unseen, and audit calls the
    log unreadable (convert, resume and replay say the same)."""
    if log.stamped:
        log_digest(log)


def log_digest(log: LogData) -> str | None:
    """The digest of a log as read (:mod:`kabucli.compact`): the same for a game whichever
    encoding or format holds it; None when the log breaks a rule before its end (then the
    inputs after that cannot be told from the events the engine would derive)."""
    if log.hasher is not None:
        return log.digest
    from kabucli.engine import classify

    game = game_of(log.types, log.header.game)
    if game is None:
        return None
    header = msgspec.structs.replace(log.header, format=FORMAT_VERSION)
    hows, violation = classify(game, header, log.events)
    if violation is not None:
        return None
    for i in log.stamped:  # a time added to what the engine derives: no digest hides it
        if i < len(hows) and hows[i] == DERIVED:
            raise LogError(f"{log.path}: event {i + 1}: invalid record: a time on an event the "
                           "engine derives (only inputs carry when they were entered) - at "
                           "`$.t`")
    rec = codec(_with_undo(log.types), header.timed)
    h = _header_digest(header, game)
    last = header.clock or 0
    times = log.times
    for i, (ev, how) in enumerate(zip(log.events, hows, strict=True)):
        if how == DERIVED:
            continue
        dt = 0
        if times is not None:
            dt = max(0, times[i] - last)
            last += dt
        h.update(_enc_mp.encode(rec.record(None if how == DRAW else ev, dt)))
    return str(h.hexdigest())


def _deriver(game: Any, header: Header, keep: bool, keep_inputs: bool = True) -> Any:
    """A :class:`kabucli.engine.Deriver` for a format 2 log's inputs, by its game's engine
    (``game``: see :func:`game_of`); LogError (for the header) when the game or the header
    cannot be played."""
    from kabucli.engine import Deriver

    if game is None:
        raise LogError("a format 2 log is read by its game's engine, which was not given")
    try:
        return Deriver(game, header, keep, keep_inputs)
    except KabuError as exc:
        raise LogError(str(exc).removeprefix("header: ")) from None


def _derive(types: Sequence[type[Event]], header: Header,
            inputs: Sequence[tuple[int, Event | None]]) -> tuple[Any, int]:
    """The events of a format 2 log, from its inputs, by its game's engine, and how many of
    the inputs were placed: all, or up to the first that breaks a rule (the events of those
    after it cannot be derived)."""
    from kabucli.engine import derive

    game = game_of(types, header.game)
    if game is None:
        raise LogError("a format 2 log is read by its game's engine, which was not given")
    return derive(game, header, inputs)


def repair_log(src: Path | str, dst: Path | str, event_types: EventTypes,
               overwrite: bool = False) -> tuple[int, list[str], int]:
    """Write to ``dst`` the header and every event of ``src`` that still checks and decodes;
    return the number of events kept and one line per record left out. ``src`` is only read.
    Past a bad binary frame, reading goes on at the next frame that checks; a bad JSON Lines
    line is left out alone. A bad header is an error: nothing after it can be trusted.

    Of a format 2 binary log, the inputs of every block that checks are kept; written in
    that encoding they are kept all, in JSON Lines the events they lead to up to the first
    that breaks a rule. Returned: the number of events kept (up to and with the one that
    breaks a rule), the lines, and how many inputs came after that one (kept in the binary
    encoding, its events not derived; left out of JSON Lines, with a line that says so)."""
    src, dst = Path(src), Path(dst)
    data, fmt = _read_bytes(src)
    if same_file(src, dst):
        raise LogError(f"{dst}: cannot repair a log onto itself (the original stays as it is)")
    records = _Decoder(event_types, fmt, data)
    dropped = []
    for raw in _raw_records(data, fmt, resync=True):
        why = raw.why if raw.payload is None else records.decode(raw.number, raw.payload)
        if why and raw.number == 0:
            raise _log_error(src, 0, why, 0)
        if why:
            what = "block" if records.blocks else "event"
            dropped.append(f"{src}: {what} {raw.number} (bytes {raw.start}-{raw.end - 1}): "
                           f"{why}")
    header = records.header
    if header is None:
        raise _log_error(src, 0, "missing: the log holds no records", 0)
    if records.blocks and format_for(dst) == "msgpack":
        def write(fh: IO[bytes]) -> None:
            writer = LogWriter.start(fh, header, "msgpack", False, records.types)
            try:
                for t, ev in records.inputs:
                    writer.append_input(ev, t)
                    if header.timed:  # one input a block, as its referee's log (write_log)
                        writer.flush()
            finally:
                writer.close()

        _write_new(dst, write, overwrite, [src])
        derived, placed = _derive(records.types, header, records.inputs)
        return len(derived.events), dropped, len(records.inputs) - placed
    events, times = records.events, records.times
    if records.blocks:
        derived, placed = _derive(records.types, header, records.inputs)
        events, times = derived.events, derived.times
        left = len(records.inputs) - placed
        if left:  # intact, yet JSON Lines cannot hold them: said, never left out unseen
            dropped.append(f"{src}: the {left:,} input{'s' if left > 1 else ''} after event "
                           f"{len(events)}, which breaks a rule: the events they lead to "
                           "cannot be derived (repaired into the binary encoding, a .kbl "
                           "name, every input is kept)")
    else:
        left = 0
    write_log(dst, header, events, format_for(dst), overwrite=overwrite, times=times,
              types=records.types, keep=[src])
    return len(events), dropped, left


def holds_log(path: Path | str) -> bool:
    """Whether the regular file at ``path`` starts as a kabucli log does, in either encoding
    (its binary magic, or a first line that is a JSON object with a format and a game, as a
    JSON Lines header is, however spaced or ordered): a page or a chart is never written
    over one. Opened without blocking and checked before reading (a FIFO is never waited
    on); what is not a regular file is no log here."""
    try:
        fd, _ = open_regular(path)
    except OSError:
        return False
    try:
        start = os.read(fd, HEADER_PEEK)
    except OSError:
        return False
    finally:
        os.close(fd)
    if start.startswith((MAGIC, MAGIC1)):
        return True
    first = start.split(b"\n", 1)[0].strip()
    try:
        head = msgspec.json.decode(first)
    except (msgspec.DecodeError, RecursionError):  # (not JSON, a first line longer than
        # the peek, or nested deeper than Python's recursion limit lets msgspec go)
        return first.startswith(b"{") and b'"format"' in first and b'"game"' in first
    return isinstance(head, dict) and "format" in head and "game" in head


HEADER_PEEK = 64 * 1024  # the bytes holds_log reads: a JSON Lines header is far shorter


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (a link included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


_FIELD_MSG = re.compile(r"Object (contains unknown|missing required) field `([^`]*)`"
                        r"(?: - at `(\$[^`]*)`)?$")


# What msgspec's "Input data was truncated" means for a record that is all there. (In JSON it
# is also what a lone high surrogate escape gets, e.g. "\ud800" with no low one after it.)
_CUT_INSIDE = {
    "jsonl": "invalid record: malformed JSON: the line ends inside a value, or a string holds "
             "a lone UTF-16 surrogate escape (\\ud800-\\udbff without its pair)",
    "msgpack": "invalid record: malformed msgpack: the record ends inside a value",
}


def _field_path(msg: str) -> str:
    """msgspec's message, with the field's own ``$.path`` even where msgspec names only its
    parent: ``unknown field - at `$.extra``` rather than ``unknown field `extra```."""
    m = _FIELD_MSG.match(msg)
    if m is None:
        return msg
    what = "unknown field" if m[1] == "contains unknown" else "missing required field"
    return f"{what} - at `{m[3] or '$'}.{m[2]}`"


# The deepest a house rule's value may nest lists and maps (no game's rule nests more than
# one list). A header's ``rules`` take values of any type, which msgspec decodes as deep as
# Python's recursion limit lets it from where it is called, so that how deep was refused (and
# read with a different message) hung on the caller's stack: a compiled log.py, whose calls
# add no Python frames, read a rule nested 985 deep that the pure-Python one refused.
MAX_RULE_NESTING = 32


def _nests_deeper(value: Any, limit: int) -> bool:
    """Whether ``value`` (a map, depth 0) holds lists, tuples or maps (its keys too) more than
    ``limit`` deep (a rule's list is 1 deep), walked without recursion."""
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            inner: Iterable[Any] = itertools.chain(item.keys(), item.values())
        elif isinstance(item, (list, tuple)):
            inner = item
        else:
            continue
        if depth > limit:
            return True
        for x in inner:  # (a loop: compiled, a generator passed to a call may become a list)
            todo.append((x, depth + 1))
    return False


def _header_refused(types: Sequence[type[Event]], header: Header) -> str:
    """Why the header's game refuses it (its rules, its seats, its seed), without the
    leading ``header: `` that the record's number says; "" when it does not."""
    game = game_of(types, header.game)
    if game is None:
        return ""
    from kabucli.engine import check_header

    try:
        check_header(game, header)
    except KabuError as exc:
        return str(exc).removeprefix("header: ")
    return ""


def _decode_header(payload: bytes, fmt: Fmt, magic2: bool) -> tuple[Header, bytes]:
    """The header of a log and, in msgpack, its bytes as kabucli writes it (what the digest
    is taken over; b"" in JSON Lines)."""
    canonical = b""
    header = (msgspec.msgpack.decode(payload, type=Header) if fmt == "msgpack"
              else msgspec.json.decode(payload, type=Header))
    # (before the key check walks the values, recursively: refused alike in every build, and
    # with the words msgspec's own RecursionError gets, further down)
    if _nests_deeper(header.rules, MAX_RULE_NESTING):
        raise LogError("invalid record: values nested too deeply")
    if fmt == "msgpack":
        canonical = _one_key_each_mp(payload, header)
    else:
        _one_key_each(payload, header)
    if header.format not in READ_VERSIONS:
        raise LogError(f"log format version {header.format} is not supported (this kabucli "
                       f"reads versions {READ_VERSIONS[0]}-{READ_VERSIONS[-1]})")
    if fmt == "msgpack" and (header.format >= 2) != magic2:
        raise LogError(f"invalid record: format {header.format} in a file that starts as "
                       f"format {2 if magic2 else 1} - at `$.format`")
    if header.format < 2:
        for name in ("clock", "commit", "salt"):
            if getattr(header, name) is not None:
                raise LogError(f"invalid record: unknown field - at `$.{name}`")
    else:  # (format 1 never checked it, and a format 1 log is read as it was)
        problem = started_problem(header.started)
        if problem is not None:
            raise LogError(f"invalid record: {problem} - at `$.started`")
        if header.mode == "physical":  # the referee types the cards in: no seed deals them
            for name in ("seed", "shuffle", "commit"):
                if getattr(header, name) is not None:
                    raise LogError(f"invalid record: a real table's log has no {name} (the "
                                   f"referee types the cards in) - at `$.{name}`")
    for i, seat in enumerate(header.seats, start=1):
        problem = _control_problem(seat.control)
        if problem is not None:
            raise LogError(f"invalid record: {problem} - at `$.seats[{i - 1}].control`")
    return header, canonical


class _TwiceError(ValueError):
    """An object (a JSON object, a msgpack map) gives the key ``name`` twice."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the key {name} is given twice in one object (readers differ on "
                         "which one counts)")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _TwiceError(repr(key))
        seen.add(key)
    return dict(pairs)


def _one_key_each(line: bytes, decoded: msgspec.Struct) -> None:
    """ValueError when the JSON Lines record ``line`` (decoded as ``decoded``) gives a key
    twice in one object. msgspec keeps the last one silently and another program might take
    the first: the same bytes would hold two different records, one of them unaudited. A
    line as kabucli writes it is ``decoded`` encoded again, byte for byte, and needs no more;
    any other is parsed again, keeping each object's keys in order."""
    if _enc_js.encode(decoded) == line.strip():
        return
    import json

    json.loads(line, object_pairs_hook=_pairs)


def _one_key_each_mp(record: bytes, decoded: msgspec.Struct) -> bytes:
    """:func:`_one_key_each` for a msgpack record (a header; format 1's events): one that
    kabucli wrote is ``decoded`` encoded again, byte for byte; any other is walked, each map's
    keys compared. (The record decoded already: it is well formed, and nested no deeper than
    msgspec reads.) ``decoded`` as kabucli writes it."""
    canonical = _enc_mp.encode(decoded)
    if canonical != record:
        _MsgpackKeys(record).value()
    return canonical


# msgpack's types by first byte: the size of the fixed-size ones (nil, false, true, floats,
# ints, fixext: its type byte and data), and of the length before the sized ones (bin, str:
# that many bytes; ext: a type byte and that many)
_MP_FIXED: Final = {0xC0: 0, 0xC2: 0, 0xC3: 0, 0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2, 0xCE: 4,
                    0xCF: 8, 0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8, 0xD4: 2, 0xD5: 3, 0xD6: 5,
                    0xD7: 9, 0xD8: 17}
_MP_SIZED: Final = {0xC4: 1, 0xC5: 2, 0xC6: 4, 0xD9: 1, 0xDA: 2, 0xDB: 4, 0xC7: 1, 0xC8: 2,
                    0xC9: 4}


class _MsgpackKeys:
    """Walks one msgpack value, raising :class:`_TwiceError` at a map that gives a key
    twice (keys compared as values, however each is encoded)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def _uint(self, size: int) -> int:
        n = int.from_bytes(self.data[self.pos:self.pos + size], "big")
        self.pos += size
        return n

    def value(self) -> None:
        b = self.data[self.pos]
        self.pos += 1
        if b <= 0x7F or b >= 0xE0:  # fixint
            return
        if 0x80 <= b <= 0x8F or b in (0xDE, 0xDF):  # a map
            n = b & 0x0F if b <= 0x8F else self._uint(2 if b == 0xDE else 4)
            seen: set[bytes] = set()
            for _ in range(n):
                start = self.pos
                self.value()
                raw = self.data[start:self.pos]
                # the key as a value, encoded as kabucli would: "seed" once as a fixstr and
                # once as a str8 is the same key given twice
                key = _enc_mp.encode(msgspec.msgpack.decode(raw))
                if key in seen:
                    raise _TwiceError(_key_text(key))
                seen.add(key)
                self.value()
        elif 0x90 <= b <= 0x9F or b in (0xDC, 0xDD):  # an array
            n = b & 0x0F if b <= 0x9F else self._uint(2 if b == 0xDC else 4)
            for _ in range(n):
                self.value()
        elif 0xA0 <= b <= 0xBF:  # fixstr
            self.pos += b & 0x1F
        elif b in _MP_FIXED:
            self.pos += _MP_FIXED[b]
        elif b in _MP_SIZED:
            n = self._uint(_MP_SIZED[b])  # (moves past the length first)
            self.pos += n + (1 if 0xC7 <= b <= 0xC9 else 0)


def _key_text(key: bytes) -> str:
    """A msgpack key as a reader would name it: its string, else its bytes."""
    try:
        return repr(msgspec.msgpack.decode(key))
    except (msgspec.DecodeError, UnicodeDecodeError):
        return repr(key)


def _event_decoder(game: str, event_types: EventTypes, fmt: Fmt) -> Any:
    """A decoder for the events of ``game``, plus the shared ``undo``."""
    try:
        given = event_types(game)
    except KabuError as exc:
        raise LogError(str(exc)) from None
    types = _with_undo(given)
    return _decoder(types, fmt), types, given


def _with_undo(types: Sequence[type[Event]]) -> tuple[type[Event], ...]:
    """A game's event types with the shared ``forfeit`` and ``undo`` (the engine handles them
    for every game): format 2's codes are their order (the forfeit's the last)."""
    out = tuple(types)
    if Forfeit not in out:
        out += (Forfeit,)
    return out if Undo in out else (*out, Undo)


@functools.cache
def _decoder(types: tuple[type[Event], ...], fmt: Fmt) -> Any:
    """A decoder of these event types, made once (making one costs as much as reading a short
    log, and an audit reads many logs of the same game)."""
    union = typing.Union[types] if len(types) > 1 else types[0]  # noqa: UP007
    return msgspec.msgpack.Decoder(union) if fmt == "msgpack" else msgspec.json.Decoder(union)


def convert_log(src: Path, dst: Path, event_types: EventTypes, fmt: Fmt | None = None,
                overwrite: bool = False) -> int:
    """Copy the log ``src`` to ``dst`` in encoding ``fmt`` (by default the one ``dst``'s name
    asks for, as for any new log), as format 2; return the number of events. ``src`` (format
    1 or 2) is read strictly (its game's events from ``event_types``), so a damaged log is
    refused, and ``dst`` is not overwritten unless ``overwrite``. Format 2's binary encoding
    keeps only the inputs: a log whose events are not what the engine derives from them (one
    that breaks a rule) is refused, in JSON Lines it is copied as it is. A format 2 binary
    log that breaks a rule is refused into either encoding (its events after that input
    cannot be derived: a copy would end there), and so is one with a time on an event the
    engine derives (:func:`log_digest` refuses it, as an audit does)."""
    src, dst = Path(src), Path(dst)
    log = read_log(src, event_types, strict=True)
    if same_file(src, dst):
        raise LogError(f"{dst}: cannot convert a log onto itself")
    # (a header its game refuses, the source's fault, not the copy's: refused as read, _scan)
    broken = log.walked[1] if log.walked is not None else None
    if broken is not None:  # its inputs were read only up to it: the rest cannot be derived
        raise BrokenLogError(f"cannot convert {broken.line(str(src))}: a binary log holds only "
                             "its inputs, from which the engine derives the rest, so the events "
                             f"after it cannot be told (nothing written; kabucli audit {src} "
                             "says the same)")
    check_times(log)  # a time on an event the engine derives: refused as audit refuses it
    problem = started_problem(log.header.started)
    if problem is not None:  # a format 1 log, read as it was: its copy would be unreadable
        raise LogError(f"{src}: header: {problem}; a format 2 log refuses such a header, so "
                       "this format 1 log is not converted (nothing written)")
    fmt = fmt or format_for(dst)
    header = msgspec.structs.replace(log.header, format=FORMAT_VERSION)
    write_log(dst, header, log.events, fmt, overwrite=overwrite, times=log.times,
              types=log.types, keep=[src])
    return len(log.events)


def write_log(path: Path, header: Header, events: Sequence[Event], fmt: Fmt,
              overwrite: bool = False, times: Sequence[int] | None = None,
              types: Sequence[type[Event]] = (), keep: Sequence[Path] = ()) -> None:
    """Write a whole log at once (not synced: it can be written again). A format 2 log needs
    its game's event types with the game (``kabucli.games.event_types(name)``): its binary
    encoding stores only the inputs, so it refuses events the engine would not derive from
    them (a log that breaks a rule): LogError, and nothing is written."""
    hows: Sequence[int] = [INPUT] * len(events)
    if header.format >= 2:
        from kabucli.engine import classify

        game = game_of(types, header.game)
        if game is None:
            raise LogError(f"{path}: a format 2 log is written with its game's engine")
        types = types or game.events
        try:
            found, violation = classify(game, header, events)
        except KabuError as exc:
            raise LogError(f"{path}: cannot write: {exc}") from None
        if violation is not None and fmt == "msgpack":
            raise BrokenLogError(f"{path}: cannot write {violation.line('the log')} (format "
                                 "2's binary encoding keeps only the inputs, from which the "
                                 "engine derives the rest; JSON Lines can hold it)")
        hows = found + [INPUT] * (len(events) - len(found))
    def write(fh: IO[bytes]) -> None:
        writer = LogWriter.start(fh, header, fmt, False, types)
        n = 0
        try:
            if times is None or not header.timed:
                for ev, how in zip(events, hows, strict=True):
                    n += 1
                    writer.append(ev, how)
            else:
                for ev, how, t in zip(events, hows, times, strict=True):
                    n += 1
                    writer.append(ev, how, t)
                    # a timed log is a person's or a real table's, whose writer stores each
                    # input as its own block when it is entered: so does its copy, and a
                    # log converted to JSON Lines and back is the original byte for byte
                    writer.flush()
            writer.close()  # (its last block: past a limit too, it is refused below)
        except LogFullError as exc:  # (nothing is written: the file was a temporary one)
            held = (f"be larger than {size_text(MAX_LOG_BYTES)}" if exc.limit == "bytes"
                    else f"hold more than {MAX_INPUTS:,} inputs")
            raise LogError(f"{path}: cannot write it: the log would {held}, the most kabucli "
                           "reads back") from None
        except OverflowError:  # (format 1's msgpack, written as it was: no rule checks it)
            raise LogError(f"{path}: cannot write event {n}: it holds a whole number msgpack "
                           "cannot store (-2**63 to 2**64 - 1); JSON Lines can hold it") from None
        finally:  # (closed above unless the write already failed, which is what is raised)
            with contextlib.suppress(LogError):
                writer.close()

    _write_new(path, write, overwrite, keep)


def _write_new(path: Path, write: Callable[[IO[bytes]], None], overwrite: bool,
               keep: Sequence[Path]) -> None:
    """A new log written whole at ``path`` (:func:`kabucli.files.write_whole`: a write that
    fails leaves what was there as it was); LogError when it cannot be, or when a kabucli
    game or resume is writing the log there (its lock is held): replaced under it, the game
    would go on writing into a file no longer there."""
    if _held(path):
        raise LogError(f"{path} is being written by another kabucli (a game or a resume of "
                       "it still running): it is not replaced")
    try:
        write_whole(path, write, overwrite, keep)
    except FileExistsError:
        raise LogError(f"{path} already exists; choose another name") from None
    except OSError as exc:
        raise LogError(f"cannot write {path}: {exc.strerror or exc}") from None


def to_builtins(obj: msgspec.Struct) -> Any:
    return msgspec.to_builtins(obj)
