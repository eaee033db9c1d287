"""The event log in format 1 (docs/log-format.md; still read, and appended to when such a log
is resumed): both encodings round-trip a real Dare match, the reader names the first bad record
of a cut, corrupted or invalid log, and convert_log is lossless. Format 2: test_log_v2.py."""

from __future__ import annotations

import json
import os
import re
import struct
import zlib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from kabucli.engine import Match, walk
from kabucli.errors import LogError
from kabucli.events import Undo
from kabucli.games import event_types
from kabucli.games.dare.rules import GAME, Lay
from kabucli.log import (
    MAGIC1 as MAGIC,
    Fmt,
    Header,
    LogWriter,
    convert_log,
    encode_record,
    read_log,
    write_log,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"
FMTS: list[Fmt] = ["msgpack", "jsonl"]
NAMES = {"msgpack": "game.kbl", "jsonl": "game.jsonl"}


def as_v1(header: Header) -> Header:
    return msgspec.structs.replace(header, format=1, clock=None, commit=None, salt=None)


@pytest.fixture
def dare_match(dare_match: Match) -> Match:
    """The conftest's match under a format 1 header: what this file tests."""
    match, violation = walk(GAME, as_v1(dare_match.header), dare_match.events)
    assert violation is None
    return match


def write_match(path: Path, match: Match, fmt: Fmt | None = None) -> Path:
    """The match's log as LogWriter writes it while a game is played."""
    writer = LogWriter.create(path, match.header, fmt)
    for ev in match.events:
        writer.append(ev)
    writer.close()
    return path


def record_bounds(data: bytes, fmt: Fmt) -> list[tuple[int, int]]:
    """(start, end) byte offsets of every record, header first, read from the framing alone."""
    out = []
    if fmt == "msgpack":
        assert data[:8] == b"KBCLOG1\n"
        pos = 8
        while pos < len(data):
            (size,) = struct.unpack_from(">I", data, pos)
            out.append((pos, pos + 8 + size))
            pos += 8 + size
    else:
        pos = 0
        for line in data.splitlines(keepends=True):
            out.append((pos, pos + len(line)))
            pos += len(line)
    assert pos == len(data)
    return out


def read_error(path: Path) -> LogError:
    with pytest.raises(LogError) as err:
        read_log(path, event_types)
    assert "\n" not in str(err.value)
    return err.value


def msgpack_log(header: dict[str, Any], events: list[dict[str, Any]]) -> bytes:
    """A msgpack log of raw records with correct frames (to test what the decoder refuses)."""
    out = MAGIC
    for rec in [header, *events]:
        payload = msgspec.msgpack.encode(rec)
        out += struct.pack(">II", len(payload), zlib.crc32(payload)) + payload
    return out


# -- round trips ------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FMTS)
def test_a_real_dare_match_reads_back_the_same(tmp_path: Path, dare_match: Match,
                                               fmt: Fmt) -> None:
    path = write_match(tmp_path / NAMES[fmt], dare_match)
    log = read_log(path, event_types)
    assert log.fmt == fmt
    assert log.header == dare_match.header
    assert log.events == dare_match.events
    assert len(log.events) == 105
    assert log.error is None and log.good_bytes == path.stat().st_size
    replayed, violation = walk(GAME, log.header, log.events)
    assert violation is None and replayed.over


@pytest.mark.parametrize("fmt", FMTS)
def test_the_encoding_is_found_from_the_content_not_the_name(tmp_path: Path, dare_match: Match,
                                                             fmt: Fmt) -> None:
    path = write_match(tmp_path / "game.log", dare_match, fmt)
    assert read_log(path, event_types).fmt == fmt


def test_msgpack_frames_are_length_then_crc32_then_payload(tmp_path: Path,
                                                           dare_match: Match) -> None:
    data = write_match(tmp_path / "game.kbl", dare_match).read_bytes()
    assert data.startswith(b"KBCLOG1\n")
    size, crc = struct.unpack_from(">II", data, 8)
    payload = data[16:16 + size]
    assert zlib.crc32(payload) == crc
    v1 = {k: v for k, v in msgspec.to_builtins(dare_match.header).items()
          if k not in ("clock", "commit", "salt")}  # fields format 2 added
    assert msgspec.msgpack.decode(payload) == v1
    assert len(record_bounds(data, "msgpack")) == 1 + len(dare_match.events)


def test_the_frame_shown_in_log_format_md_is_what_kabucli_writes() -> None:
    text = (DOCS / "log-format.md").read_text(encoding="utf-8")
    shown = re.search(r"is this 42-byte frame:\n\n```text\n(.*?)```", text, re.S)
    assert shown is not None
    pay = msgspec.json.decode(b'{"e":"pay","src":2,"dst":0,"amount":1,"why":"ante"}',
                              type=GAME.events[3])
    assert bytes.fromhex(shown[1]) == encode_record(pay, "msgpack")


def test_a_physical_header_records_null_seed_and_shuffle(tmp_path: Path,
                                                         dare_match: Match) -> None:
    header = msgspec.structs.replace(dare_match.header, mode="physical", seed=None, shuffle=None)
    path = tmp_path / "table.jsonl"
    write_log(path, header, [], "jsonl")
    line = json.loads(path.read_bytes().splitlines()[0])
    assert line["seed"] is None and line["shuffle"] is None
    assert read_log(path, event_types).header == header


def test_an_undo_is_kept_in_the_log_and_replays(tmp_path: Path, dare_match: Match) -> None:
    path = tmp_path / "undo.jsonl"
    match = Match(GAME, dare_match.header, LogWriter.create(path, dare_match.header))
    seat = match.advance().seats[0]
    match.submit(Lay(seat, []))
    match.advance()
    match.submit(Undo())
    match.advance()
    match.submit(GAME.legal(match.state, seat)[-1])
    match.advance()
    assert match.writer is not None
    match.writer.close()
    log = read_log(path, event_types)
    assert Undo() in log.events and Lay(seat, []) in log.events
    assert len(log.events) == match.logged
    replayed, violation = walk(GAME, log.header, log.events)
    assert violation is None
    assert replayed.events == match.events


def test_each_record_is_one_write_then_flush_then_fsync(monkeypatch: pytest.MonkeyPatch,
                                                        dare_match: Match) -> None:
    calls: list[str] = []

    class File:
        def write(self, data: bytes) -> int:
            calls.append("write")
            return len(data)

        def flush(self) -> None:
            calls.append("flush")

        def fileno(self) -> int:
            return 99

    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(f"fsync {fd}"))
    writer = LogWriter(File(), "msgpack")  # type: ignore[arg-type]
    for ev in dare_match.events[:3]:
        writer.append(ev)
    assert calls == ["write", "flush", "fsync 99"] * 3
    assert writer.count == 3


# -- truncation and corruption ----------------------------------------------------------------

@pytest.mark.parametrize("fmt", FMTS)
def test_a_log_cut_inside_one_of_its_last_two_records_names_that_record(
        tmp_path: Path, dare_match: Match, fmt: Fmt) -> None:
    data = write_match(tmp_path / NAMES[fmt], dare_match).read_bytes()
    bounds = record_bounds(data, fmt)
    n = len(dare_match.events)
    cut_path = tmp_path / f"cut-{NAMES[fmt]}"
    tried = 0
    for index in (n - 1, n):
        start, end = bounds[index]
        cut_path.write_bytes(data[:start])  # cut between records: a whole, shorter log
        whole = read_log(cut_path, event_types)
        assert whole.error is None and whole.events == dare_match.events[:index - 1]
        for cut in range(start + 1, end):
            cut_path.write_bytes(data[:cut])
            err = read_error(cut_path)
            assert (err.index, err.good) == (index, index - 1), cut
            assert str(err).startswith(f"{cut_path}: event {index}: truncated: ")
            log = read_log(cut_path, event_types, strict=False)
            assert log.events == dare_match.events[:index - 1]
            assert log.error is not None and log.error.index == index
            assert log.good_bytes == start
            tried += 1
    assert tried == bounds[n][1] - bounds[n - 1][0] - 2


def test_a_flipped_byte_in_a_payload_is_reported_as_corrupted(tmp_path: Path,
                                                              dare_match: Match) -> None:
    data = write_match(tmp_path / "game.kbl", dare_match).read_bytes()
    bounds = record_bounds(data, "msgpack")
    bad = tmp_path / "bad.kbl"
    for index in (1, 2, 50, len(bounds) - 1):
        start, end = bounds[index]
        for pos in range(start + 8, end):
            flipped = bytearray(data)
            flipped[pos] ^= 0x5A
            bad.write_bytes(bytes(flipped))
            err = read_error(bad)
            assert (err.index, err.good) == (index, index - 1)
            assert "corrupted: checksum does not match" in str(err)


def test_a_corrupted_header_is_an_error_even_when_reading_tolerantly(tmp_path: Path,
                                                                     dare_match: Match) -> None:
    data = bytearray(write_match(tmp_path / "game.kbl", dare_match).read_bytes())
    data[20] ^= 0x01
    bad = tmp_path / "bad.kbl"
    bad.write_bytes(bytes(data))
    with pytest.raises(LogError) as err:
        read_log(bad, event_types, strict=False)
    assert (err.value.index, err.value.good) == (0, 0)
    assert str(err.value) == f"{bad}: header: corrupted: checksum does not match"


def test_a_resumed_log_is_cut_at_its_last_good_record_and_goes_on(tmp_path: Path,
                                                                  dare_match: Match) -> None:
    path = write_match(tmp_path / "game.kbl", dare_match)
    data = path.read_bytes()
    path.write_bytes(data[:-5])
    log = read_log(path, event_types, strict=False)
    writer = LogWriter.reopen(path, log.good_bytes, len(log.events), log=log)
    assert writer.version == 1  # a format 1 log goes on in format 1
    for ev in dare_match.events[len(log.events):]:
        writer.append(ev)
    writer.close()
    assert path.read_bytes() == data
    assert read_log(path, event_types).events == dare_match.events


# -- files that are not logs ------------------------------------------------------------------

def test_bad_magic_is_not_a_kabucli_log(tmp_path: Path, dare_match: Match) -> None:
    path = write_match(tmp_path / "game.kbl", dare_match)
    path.write_bytes(b"KBCLOG9\n" + path.read_bytes()[8:])
    assert str(read_error(path)) == f"{path}: not a kabucli log (unknown format)"


@pytest.mark.parametrize("magic", [b"KBCLOG2\r", b"KBCLOG1 "])
def test_a_magic_right_but_for_its_newline_is_not_a_kabucli_log(
        tmp_path: Path, dare_match: Match, magic: bytes) -> None:
    """The magic is all eight bytes, its newline too (docs/log-format.md): a file that
    starts as one but for the last byte is no log of either format."""
    path = write_match(tmp_path / "game.kbl", dare_match)
    path.write_bytes(magic + path.read_bytes()[8:])
    assert str(read_error(path)) == f"{path}: not a kabucli log (unknown format)"


@pytest.mark.parametrize("text", [b'[{"format":2,"game":"dare"}]\n', b' {"format":2}\n'])
def test_a_file_that_does_not_start_with_a_json_object_is_not_a_kabucli_log(
        tmp_path: Path, text: bytes) -> None:
    """Without a magic, a log is JSON Lines only when it starts with its header's `{`
    (docs/log-format.md): a JSON array, or a space first, is no kabucli log."""
    path = tmp_path / "game.jsonl"
    path.write_bytes(text)
    assert str(read_error(path)) == f"{path}: not a kabucli log (unknown format)"


def test_an_empty_file_is_not_a_log(tmp_path: Path) -> None:
    path = tmp_path / "empty.kbl"
    path.write_bytes(b"")
    assert str(read_error(path)) == f"{path}: empty file, not a kabucli log"


def test_a_directory_is_not_a_log(tmp_path: Path) -> None:
    assert str(read_error(tmp_path)) == f"{tmp_path}: is a directory, not a log"


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "nope.kbl"
    assert str(read_error(path)) == f"{path}: no such file"


def test_magic_alone_has_no_header(tmp_path: Path) -> None:
    path = tmp_path / "magic.kbl"
    path.write_bytes(MAGIC)
    err = read_error(path)
    assert err.index == 0 and "header" in str(err)


# -- JSON Lines specifics, and invalid records ------------------------------------------------

def jsonl_lines(tmp_path: Path, match: Match) -> list[bytes]:
    return write_match(tmp_path / "game.jsonl", match).read_bytes().splitlines(keepends=True)


def test_a_broken_last_line_is_reported_with_its_number(tmp_path: Path,
                                                         dare_match: Match) -> None:
    lines = jsonl_lines(tmp_path, dare_match)
    n = len(lines) - 1
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b"".join(lines[:-1]) + b'{"e":"end","reason":"rou\n')
    err = read_error(path)
    assert (err.index, err.good) == (n, n - 1)
    assert f"event {n}: invalid record" in str(err)
    log = read_log(path, event_types, strict=False)
    assert log.events == dare_match.events[:-1]


def test_a_last_line_without_its_newline_is_cut_short(tmp_path: Path, dare_match: Match) -> None:
    lines = jsonl_lines(tmp_path, dare_match)
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(lines)[:-1])
    err = read_error(path)
    assert err.index == len(lines) - 1
    assert "truncated: the last line has no end" in str(err)


def test_blank_lines_are_not_records(tmp_path: Path, dare_match: Match) -> None:
    lines = jsonl_lines(tmp_path, dare_match)
    path = tmp_path / "blank.jsonl"
    path.write_bytes(b"\n".join(lines[:5]) + b"  \n" + b"".join(lines[5:]))
    assert read_log(path, event_types).events == dare_match.events


@pytest.mark.parametrize(("change", "where"), [
    ({"colour": "red"}, "unknown field - at `$.colour`"),
    ({"amount": "one"}, "Expected `int`, got `str` - at `$.amount`"),
    ({"e": "bet"}, "Invalid value 'bet' - at `$.e`"),
])
def test_an_invalid_event_names_the_field_by_its_path(tmp_path: Path, dare_match: Match,
                                                      change: dict[str, Any], where: str) -> None:
    lines = jsonl_lines(tmp_path, dare_match)
    event = json.loads(lines[2])
    assert event["e"] == "pay"
    lines[2] = json.dumps(event | change).encode() + b"\n"
    path = tmp_path / "invalid.jsonl"
    path.write_bytes(b"".join(lines))
    err = read_error(path)
    assert (err.index, err.good) == (2, 1)
    assert str(err) == f"{path}: event 2: invalid record: {where}"


def test_an_invalid_event_in_msgpack_names_the_field_too(tmp_path: Path,
                                                         dare_match: Match) -> None:
    header = msgspec.to_builtins(dare_match.header)
    first = msgspec.to_builtins(dare_match.events[0])
    lay = {"e": "lay", "seat": 2, "sets": [[1, 2, "3"]]}
    path = tmp_path / "invalid.kbl"
    path.write_bytes(msgpack_log(header, [first, lay]))
    err = read_error(path)
    assert (err.index, err.good) == (2, 1)
    assert str(err) == (f"{path}: event 2: invalid record: "
                        "Expected `int`, got `str` - at `$.sets[0][2]`")


@pytest.mark.parametrize("fmt", FMTS)
def test_a_header_of_format_3_is_refused(tmp_path: Path, dare_match: Match, fmt: Fmt) -> None:
    header = msgspec.structs.replace(dare_match.header, format=3)
    path = tmp_path / NAMES[fmt]
    write_log(path, header, dare_match.events[:3], fmt)
    with pytest.raises(LogError) as err:
        read_log(path, event_types, strict=False)
    assert err.value.index == 0
    assert "log format version 3 is not supported" in str(err.value)


def test_a_header_with_an_unknown_field_or_game_is_refused(tmp_path: Path,
                                                           dare_match: Match) -> None:
    header = msgspec.to_builtins(dare_match.header)
    path = tmp_path / "h.kbl"
    path.write_bytes(msgpack_log(header | {"owner": "me"}, []))
    assert "header: invalid record: unknown field - at `$.owner`" in str(read_error(path))
    path.write_bytes(msgpack_log(header | {"game": "poker"}, []))
    err = read_error(path)
    assert err.index == 0 and "unknown game 'poker'" in str(err)


# -- writing ----------------------------------------------------------------------------------

def test_create_refuses_to_overwrite_an_existing_file(tmp_path: Path, dare_match: Match) -> None:
    path = tmp_path / "game.kbl"
    path.write_bytes(b"precious")
    with pytest.raises(LogError, match="already exists"):
        LogWriter.create(path, dare_match.header)
    assert path.read_bytes() == b"precious"
    LogWriter.create(path, dare_match.header, overwrite=True).close()
    assert read_log(path, event_types).events == []


def test_the_file_name_chooses_the_encoding_when_creating(tmp_path: Path,
                                                          dare_match: Match) -> None:
    for name, fmt in [("a.kbl", "msgpack"), ("a.jsonl", "jsonl"), ("a.ndjson", "jsonl"),
                      ("a.json", "jsonl"), ("a.log", "msgpack")]:
        LogWriter.create(tmp_path / name, dare_match.header).close()
        assert read_log(tmp_path / name, event_types).fmt == fmt, name


# -- converting -------------------------------------------------------------------------------

def test_convert_msgpack_to_jsonl_and_back_is_lossless(tmp_path: Path, dare_match: Match) -> None:
    """A format 1 log converts to format 2 with the same events, and format 2 converts to
    the other encoding and back byte for byte."""
    original = write_match(tmp_path / "game.kbl", dare_match)
    assert convert_log(original, tmp_path / "game.jsonl", event_types) == len(dare_match.events)
    as_json = read_log(tmp_path / "game.jsonl", event_types)
    assert as_json.fmt == "jsonl" and as_json.version == 2
    back = convert_log(tmp_path / "game.jsonl", tmp_path / "back.kbl", event_types)
    assert back == len(dare_match.events)
    back = read_log(tmp_path / "back.kbl", event_types)
    assert back.fmt == "msgpack" and back.version == 2
    assert back.header == as_json.header == msgspec.structs.replace(dare_match.header, format=2)
    assert back.events == as_json.events == dare_match.events
    convert_log(tmp_path / "back.kbl", tmp_path / "again.jsonl", event_types)
    assert (tmp_path / "again.jsonl").read_bytes() == (tmp_path / "game.jsonl").read_bytes()


def test_convert_writes_the_encoding_asked_for(tmp_path: Path, dare_match: Match) -> None:
    src = write_match(tmp_path / "game.jsonl", dare_match)
    convert_log(src, tmp_path / "out.jsonl", event_types, fmt="msgpack")
    assert read_log(tmp_path / "out.jsonl", event_types).fmt == "msgpack"
    convert_log(tmp_path / "out.jsonl", tmp_path / "out.kbl", event_types, fmt="jsonl")
    assert read_log(tmp_path / "out.kbl", event_types).fmt == "jsonl"
    assert read_log(tmp_path / "out.kbl", event_types).events == dare_match.events


def test_convert_by_default_writes_the_encoding_the_new_name_asks_for(
        tmp_path: Path, dare_match: Match) -> None:
    src = write_match(tmp_path / "game.jsonl", dare_match)
    for name, fmt in [("a.kbl", "msgpack"), ("a.log", "msgpack"), ("a.ndjson", "jsonl"),
                      ("copy.jsonl", "jsonl")]:
        convert_log(src, tmp_path / name, event_types)
        assert read_log(tmp_path / name, event_types).fmt == fmt, name
    assert read_log(tmp_path / "copy.jsonl", event_types).events == dare_match.events


def test_convert_refuses_to_overwrite_unless_asked(tmp_path: Path, dare_match: Match) -> None:
    src = write_match(tmp_path / "game.kbl", dare_match)
    dst = tmp_path / "game.jsonl"
    dst.write_bytes(b"keep me")
    with pytest.raises(LogError, match="already exists"):
        convert_log(src, dst, event_types)
    assert dst.read_bytes() == b"keep me"
    assert convert_log(src, dst, event_types, overwrite=True) == len(dare_match.events)
    assert read_log(dst, event_types).events == dare_match.events
    with pytest.raises(LogError, match="onto itself"):
        convert_log(src, src, event_types, overwrite=True)


def test_convert_refuses_a_damaged_log(tmp_path: Path, dare_match: Match) -> None:
    src = write_match(tmp_path / "game.kbl", dare_match)
    src.write_bytes(src.read_bytes()[:-1])
    with pytest.raises(LogError, match="truncated"):
        convert_log(src, tmp_path / "game.jsonl", event_types)
    assert not (tmp_path / "game.jsonl").exists()


def test_the_header_type_has_the_documented_fields() -> None:
    assert Header.__struct_fields__ == ("format", "game", "rules", "seats", "mode", "kabucli",
                                        "started", "seed", "shuffle", "clock", "commit", "salt")
