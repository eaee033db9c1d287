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

import functools
import os
import re
import struct
import typing
import zlib
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal, NamedTuple

import msgspec

from kabucli.errors import KabuError, LogError
from kabucli.events import Event, Undo
from kabucli.files import MiB, read_bytes

FORMAT_VERSION = 1
MAGIC = b"KBCLOG1\n"
_FRAME = struct.Struct(">II")
# The largest log read (about a million events): a bigger file is refused, not loaded.
MAX_LOG_BYTES = 64 * MiB

Fmt = Literal["msgpack", "jsonl"]


class SeatInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat: the name shown, and who controls it: ``human``, or ``bot:KIND`` where KIND
    is a built-in bot or a user's own (``cmd:COMMAND``, ``py:FILE.py:CLASS``)."""

    name: str
    control: str = "human"


EXTERNAL = ("cmd:", "py:")  # bot kinds that are a user's program or Python class


def external_bot(control: str) -> str | None:
    """The kind of a seat's bot when it is a user's own (``cmd:...``, ``py:...``), else None."""
    kind = control.removeprefix("bot:")
    return kind if kind != control and kind.startswith(EXTERNAL) else None


def _control_problem(control: str) -> str | None:
    """Why a seat's ``control`` is not ``human`` or ``bot:KIND``; None when it is."""
    if control == "human":
        return None
    kind = control.removeprefix("bot:")
    what = kind.partition(":")[2] if kind.startswith(EXTERNAL) else kind
    if kind == control or not what.strip() or not kind.isprintable():
        return f"control {control!r} is not human or bot:KIND"
    return None


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a log needs to be read without outside settings."""

    format: int
    game: str
    rules: dict[str, Any]
    seats: list[SeatInfo]
    mode: Literal["seeded", "physical"]
    kabucli: str
    started: str
    seed: int | None = None
    shuffle: str | None = None

    def __post_init__(self) -> None:
        # msgspec bounds stop at int64; a reader refuses the record with this message
        if self.seed is not None and not 0 <= self.seed < 2**64:
            raise ValueError(f"seed {self.seed} is out of range (0 to 2**64 - 1) - at `$.seed`")


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def format_for(path: Path | str) -> Fmt:
    """The encoding a path's name asks for: ``.jsonl``/``.json`` is JSON Lines, else msgpack."""
    return "jsonl" if str(path).endswith((".jsonl", ".json", ".ndjson")) else "msgpack"


_enc_mp = msgspec.msgpack.Encoder()
_enc_js = msgspec.json.Encoder()


def encode_record(obj: msgspec.Struct, fmt: Fmt) -> bytes:
    if fmt == "jsonl":
        return _enc_js.encode(obj) + b"\n"
    payload = _enc_mp.encode(obj)
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


class LogWriter:
    """Appends records to a log file, flushing (and syncing) after each one."""

    def __init__(self, fh: IO[bytes], fmt: Fmt, durable: bool = True) -> None:
        self._fh = fh
        self.fmt = fmt
        self.durable = durable
        self.count = 0  # events written so far (the header is not counted)
        self.torn_file: Path | None = None  # where reopen kept a torn tail it cut off

    @classmethod
    def create(cls, path: Path, header: Header, fmt: Fmt | None = None,
               durable: bool = True, overwrite: bool = False) -> LogWriter:
        fmt = fmt or format_for(path)
        try:
            fh = open(path, "wb" if overwrite else "xb")  # noqa: SIM115 - held open for appends
        except FileExistsError:
            raise LogError(f"{path} already exists; choose another --log name") from None
        except OSError as exc:
            raise LogError(f"cannot create {path}: {exc.strerror}") from None
        writer = cls(fh, fmt, durable)
        if fmt == "msgpack":
            fh.write(MAGIC)
        writer._write(encode_record(header, fmt))
        return writer

    @classmethod
    def reopen(cls, path: Path, good_bytes: int, events: int, durable: bool = True) -> LogWriter:
        """Open a log to append after its last good record (``good_bytes``, from read_log).

        Bytes after that may only be a torn tail (see :func:`_is_torn`): they are first moved
        to a new side file, named by ``torn_file``, and only then cut off. Anything else after
        the good records is damage: LogError, and the file is left as it is."""
        try:
            fh = open(path, "r+b")  # noqa: SIM115 - held open for appends
        except OSError as exc:
            raise LogError(f"{path}: cannot open to append ({exc.strerror})") from None
        try:
            data = fh.read()
            fmt: Fmt = "msgpack" if data.startswith(MAGIC) else "jsonl"
            aside = None
            if len(data) > good_bytes:
                if not _is_torn(data, fmt, good_bytes):
                    raise LogError(f"{path}: what follows byte {good_bytes} is not a torn last "
                                   "record; the log is left as it is")
                aside = _set_aside(path, data[good_bytes:])
                fh.truncate(good_bytes)
            fh.seek(good_bytes)
        except BaseException:
            fh.close()
            raise
        writer = cls(fh, fmt, durable)
        writer.count = events
        writer.torn_file = aside
        return writer

    def _write(self, data: bytes) -> None:
        self._fh.write(data)
        self._fh.flush()
        if self.durable:
            os.fsync(self._fh.fileno())

    def append(self, event: Event) -> None:
        self._write(encode_record(event, self.fmt))
        self.count += 1

    def close(self) -> None:
        self._fh.close()


def _set_aside(path: Path, tail: bytes) -> Path:
    """Keep ``tail`` in a new file ``PATH.torn-N`` (the first N not taken), synced to disk."""
    n = 1
    while True:
        side = path.with_name(f"{path.name}.torn-{n}")
        try:
            with open(side, "xb") as fh:
                fh.write(tail)
                fh.flush()
                os.fsync(fh.fileno())
            if hasattr(os, "O_DIRECTORY"):  # and its name, before the log is cut
                folder = os.open(side.parent, os.O_RDONLY | os.O_DIRECTORY)
                try:
                    os.fsync(folder)
                finally:
                    os.close(folder)
        except FileExistsError:
            n += 1
            continue
        except OSError as exc:
            side.unlink(missing_ok=True)
            raise LogError(f"{path}: cannot keep its torn last record in {side} "
                           f"({exc.strerror}); the log is left as it is") from None
        return side


class LogData(msgspec.Struct):
    """A log as read: its header, its events, and where reading stopped if it stopped early."""

    path: str
    header: Header
    events: list[Event]
    fmt: Fmt
    good_bytes: int
    error: LogError | None = None
    torn: bool = False  # the error is a torn tail (the last record cut short), not damage


EventTypes = Callable[[str], Sequence[type[Event]]]


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
_FRAME_START = re.compile(rb"(?=\x00[\x00-\x0f].{6}[\x80-\x8f\xde\xdf])", re.DOTALL)


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
        pos = len(MAGIC)
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


def _log_error(path: Path, index: int, why: str, good: int) -> LogError:
    """A LogError for record ``index`` (0 = header) that says where, with ``good`` events
    read whole before it."""
    return LogError(why, index, good, path)


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
    if data.startswith(MAGIC):
        return data, "msgpack"
    if data[:1] == b"{":
        return data, "jsonl"
    if not data:
        raise LogError(f"{path}: empty file, not a kabucli log")
    raise LogError(f"{path}: not a kabucli log (unknown format)")


class _Decoder:
    """Decodes a log's records in order: the header, then events of its game."""

    def __init__(self, event_types: EventTypes, fmt: Fmt) -> None:
        self.event_types = event_types
        self.fmt = fmt
        self.header: Header | None = None
        self.events: list[Event] = []
        self._events: Any = None

    def decode(self, index: int, payload: bytes) -> str:
        """Take one whole record (0: the header); "" when it decodes, else why not."""
        try:
            if index == 0:
                self.header = _decode_header(payload, self.fmt)
                self._events = _event_decoder(self.header.game, self.event_types, self.fmt)
            else:
                self.events.append(self._events.decode(payload))
        except LogError as exc:
            return str(exc)
        except msgspec.DecodeError as exc:  # ValidationError is a DecodeError
            return f"invalid record: {_field_path(str(exc))}"
        except UnicodeDecodeError:
            return "invalid record: a string in it is not valid UTF-8"
        except RecursionError:
            return "invalid record: values nested too deeply"
        return ""


def read_log(path: Path | str, event_types: EventTypes, strict: bool = True) -> LogData:
    """Read a whole log. With ``strict`` a bad record raises LogError; otherwise the events
    before it are returned with ``error`` set (for replaying or resuming a damaged log), and
    ``torn`` when it is a torn tail. A bad or unsupported header always raises: nothing after
    it can be trusted."""
    path = Path(path)
    data, fmt = _read_bytes(path)
    records = _Decoder(event_types, fmt)
    good = len(MAGIC) if fmt == "msgpack" else 0
    error: LogError | None = None
    torn = False
    for raw in _raw_records(data, fmt):
        why = raw.why if raw.payload is None else records.decode(raw.number, raw.payload)
        if why:
            error = _log_error(path, raw.number, why, len(records.events))
            if raw.number == 0:
                raise error
            torn = raw.torn
            break
        good = raw.end
    if records.header is None:
        raise _log_error(path, 0, "missing: the log holds no records", 0)
    if error is not None and strict:
        raise error
    return LogData(str(path), records.header, records.events, fmt, good, error, torn)


def repair_log(src: Path | str, dst: Path | str, event_types: EventTypes,
               overwrite: bool = False) -> tuple[int, list[str]]:
    """Write to ``dst`` the header and every event of ``src`` that still checks and decodes;
    return the number of events kept and one line per record left out. ``src`` is only read.
    Past a bad msgpack frame, reading goes on at the next frame that checks; a bad JSON Lines
    line is left out alone. A bad header is an error: nothing after it can be trusted."""
    src, dst = Path(src), Path(dst)
    data, fmt = _read_bytes(src)
    if same_file(src, dst):
        raise LogError(f"{dst}: cannot repair a log onto itself (the original stays as it is)")
    records = _Decoder(event_types, fmt)
    dropped = []
    for raw in _raw_records(data, fmt, resync=True):
        why = raw.why if raw.payload is None else records.decode(raw.number, raw.payload)
        if why and raw.number == 0:
            raise _log_error(src, 0, why, 0)
        if why:
            dropped.append(f"{src}: event {raw.number} (bytes {raw.start}-{raw.end - 1}): {why}")
    if records.header is None:
        raise _log_error(src, 0, "missing: the log holds no records", 0)
    try:
        write_log(dst, records.header, records.events, format_for(dst), overwrite=overwrite)
    except OSError as exc:
        dst.unlink(missing_ok=True)
        raise LogError(f"cannot write {dst}: {exc.strerror}") from None
    return len(records.events), dropped


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (a link included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


_FIELD_MSG = re.compile(r"Object (contains unknown|missing required) field `([^`]*)`"
                        r"(?: - at `(\$[^`]*)`)?$")


def _field_path(msg: str) -> str:
    """msgspec's message, with the field's own ``$.path`` even where msgspec names only its
    parent: ``unknown field - at `$.extra``` rather than ``unknown field `extra```."""
    m = _FIELD_MSG.match(msg)
    if m is None:
        return msg
    what = "unknown field" if m[1] == "contains unknown" else "missing required field"
    return f"{what} - at `{m[3] or '$'}.{m[2]}`"


def _decode_header(payload: bytes, fmt: Fmt) -> Header:
    header = (msgspec.msgpack.decode(payload, type=Header) if fmt == "msgpack"
              else msgspec.json.decode(payload, type=Header))
    if header.format != FORMAT_VERSION:
        raise LogError(f"log format version {header.format} is not supported (this kabucli "
                       f"reads version {FORMAT_VERSION})")
    for i, seat in enumerate(header.seats, start=1):
        problem = _control_problem(seat.control)
        if problem is not None:
            raise LogError(f"invalid record: {problem} - at `$.seats[{i - 1}].control`")
    return header


def _event_decoder(game: str, event_types: EventTypes, fmt: Fmt) -> Any:
    """A decoder for the events of ``game``, plus the shared ``undo``."""
    try:
        types = tuple(event_types(game))
    except KabuError as exc:
        raise LogError(str(exc)) from None
    if Undo not in types:  # the engine handles undo for every game
        types += (Undo,)
    return _decoder(types, fmt)


@functools.cache
def _decoder(types: tuple[type[Event], ...], fmt: Fmt) -> Any:
    """A decoder of these event types, made once (making one costs as much as reading a short
    log, and an audit reads many logs of the same game)."""
    union = typing.Union[types] if len(types) > 1 else types[0]  # noqa: UP007
    return msgspec.msgpack.Decoder(union) if fmt == "msgpack" else msgspec.json.Decoder(union)


def convert_log(src: Path, dst: Path, event_types: EventTypes, fmt: Fmt | None = None,
                overwrite: bool = False) -> int:
    """Copy the log ``src`` to ``dst`` in encoding ``fmt`` (by default the one ``dst``'s name
    asks for, as for any new log); return the number of events. ``src`` is read strictly (its
    game's events from ``event_types``), so a damaged log is refused, and ``dst`` is not
    overwritten unless ``overwrite``."""
    src, dst = Path(src), Path(dst)
    log = read_log(src, event_types, strict=True)
    if dst.exists() and dst.resolve() == src.resolve():
        raise LogError(f"{dst}: cannot convert a log onto itself")
    try:
        write_log(dst, log.header, log.events, fmt or format_for(dst), overwrite=overwrite)
    except OSError as exc:
        dst.unlink(missing_ok=True)
        raise LogError(f"cannot write {dst}: {exc.strerror}") from None
    return len(log.events)


def write_log(path: Path, header: Header, events: Sequence[Event], fmt: Fmt,
              overwrite: bool = False) -> None:
    writer = LogWriter.create(path, header, fmt, durable=False, overwrite=overwrite)
    try:
        for ev in events:
            writer.append(ev)
    finally:
        writer.close()


def to_builtins(obj: msgspec.Struct) -> Any:
    return msgspec.to_builtins(obj)
