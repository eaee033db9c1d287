"""The event log: a header and events, written as they happen and read back strictly.

Two encodings of the same records (docs/log-format.md):

* **msgpack** (default, compact): the 8 bytes ``KBCLOG1\\n``, then one frame per record:
  payload length (4 bytes, big-endian), CRC-32 of the payload (4 bytes, big-endian), payload
  (one msgpack map).
* **JSON Lines** (readable, ``.jsonl``): one JSON object per line, each line ending in ``\\n``.

Record 0 is the header; records 1, 2, ... are the events, and an event's number is its index.
Each record is written with one ``write`` call, flushed and (by default) synced to disk, so a
killed process leaves a log that is whole up to its last event. The reader names the first bad
record (truncated, failed checksum, not decodable) and how many were good before it.
"""

from __future__ import annotations

import os
import re
import struct
import typing
import zlib
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

import msgspec

from kabucli.errors import KabuError, LogError
from kabucli.events import Event, Undo

FORMAT_VERSION = 1
MAGIC = b"KBCLOG1\n"
_FRAME = struct.Struct(">II")

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
        """Open an existing log to append, cutting off anything after its last good record."""
        fh = open(path, "r+b")  # noqa: SIM115
        fh.truncate(good_bytes)
        fh.seek(good_bytes)
        writer = cls(fh, format_for_bytes(path), durable)
        writer.count = events
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


def format_for_bytes(path: Path) -> Fmt:
    with open(path, "rb") as fh:
        head = fh.read(len(MAGIC))
    return "msgpack" if head == MAGIC else "jsonl"


class LogData(msgspec.Struct):
    """A log as read: its header, its events, and where reading stopped if it stopped early."""

    path: str
    header: Header
    events: list[Event]
    fmt: Fmt
    good_bytes: int
    error: LogError | None = None


EventTypes = Callable[[str], Sequence[type[Event]]]


def _raw_records(data: bytes, fmt: Fmt) -> Iterator[tuple[int, bytes | None, int, str]]:
    """Yield (index, payload, end offset, "") for each whole record; after the first bad one,
    yield (index, None, its start offset, why) and stop."""
    index = 0
    if fmt == "msgpack":
        pos = len(MAGIC)
        while pos < len(data):
            if len(data) - pos < _FRAME.size:
                yield index, None, pos, "truncated: the record's frame is cut short"
                return
            size, crc = _FRAME.unpack_from(data, pos)
            start = pos + _FRAME.size
            payload = data[start:start + size]
            if len(payload) < size:
                yield index, None, pos, f"truncated: {len(payload)} of {size} bytes present"
                return
            if zlib.crc32(payload) != crc:
                yield index, None, pos, "corrupted: checksum does not match"
                return
            pos = start + size
            yield index, payload, pos, ""
            index += 1
    else:
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            if nl < 0:
                yield index, None, pos, "truncated: the last line has no end"
                return
            line = data[pos:nl]
            end = nl + 1
            if line.strip():
                yield index, line, end, ""
                index += 1
            pos = end


def _log_error(path: Path, index: int, why: str, good: int) -> LogError:
    """A LogError for record ``index`` (0 = header) that says where, with ``good`` events
    read whole before it."""
    where = "header" if index == 0 else f"event {index}"
    err = LogError(f"{path}: {where}: {why}")
    err.index = index
    err.good = good
    return err


def read_log(path: Path | str, event_types: EventTypes, strict: bool = True) -> LogData:
    """Read a whole log. With ``strict`` a bad record raises LogError; otherwise the events
    before it are returned with ``error`` set (for replaying or resuming a damaged log).
    A bad or unsupported header always raises: nothing after it can be trusted."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise LogError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise LogError(f"{path}: is a directory, not a log") from None
    except OSError as exc:
        raise LogError(f"{path}: cannot read ({exc.strerror})") from None
    if data.startswith(MAGIC):
        fmt: Fmt = "msgpack"
    elif data[:1] == b"{":
        fmt = "jsonl"
    elif not data:
        raise LogError(f"{path}: empty file, not a kabucli log")
    else:
        raise LogError(f"{path}: not a kabucli log (unknown format)")

    header: Header | None = None
    events: list[Event] = []
    good = len(MAGIC) if fmt == "msgpack" else 0
    error: LogError | None = None
    ev_decoder: Any = None
    for index, payload, end, why in _raw_records(data, fmt):
        if payload is not None:
            try:
                if index == 0:
                    header = _decode_header(payload, fmt)
                    ev_decoder = _event_decoder(header.game, event_types, fmt)
                else:
                    events.append(ev_decoder.decode(payload))
            except LogError as exc:
                why = str(exc)
            except msgspec.DecodeError as exc:  # ValidationError is a DecodeError
                why = f"invalid record: {_field_path(str(exc))}"
        if why:
            error = _log_error(path, index, why, len(events))
            if index == 0:
                raise error
            break
        good = end
    if header is None:
        raise _log_error(path, 0, "missing: the log holds no records", 0)
    if error is not None and strict:
        raise error
    return LogData(str(path), header, events, fmt, good, error)


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
    union = typing.Union[types] if len(types) > 1 else types[0]  # noqa: UP007
    return msgspec.msgpack.Decoder(union) if fmt == "msgpack" else msgspec.json.Decoder(union)


def convert_log(src: Path, dst: Path, fmt: Fmt | None = None, overwrite: bool = False) -> int:
    """Copy the log ``src`` to ``dst`` in encoding ``fmt`` (by default the one ``dst``'s name
    asks for, as for any new log); return the number of events. ``src`` is read strictly, so
    a damaged log is refused, and ``dst`` is not overwritten unless ``overwrite``."""
    from kabucli.games import event_types  # here: kabucli.games imports this module

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
