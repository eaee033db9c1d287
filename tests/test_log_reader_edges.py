"""Edges of the log reader pinned by mutation testing (probe BF): the frame sizes at the end
of a binary log, the search for whole frames past a bad length (how far it goes and where it
gives up), what ``LogWriter.reopen`` refuses to cut, and JSON Lines blank lines. Each test
was seen to fail on a small change of kabucli/log.py that the other tests let through."""

from __future__ import annotations

import zlib
from pathlib import Path

import msgspec
import pytest
from logbytes import frames

from kabucli import games
from kabucli.compact import DICTIONARY
from kabucli.errors import LogError
from kabucli.log import (
    MAGIC,
    MAX_TIME,
    LogWriter,
    audit_log,
    convert_log,
    frame,
    read_log,
    repair_log,
)

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
# a timed real-table log: one input a block, so twenty frames after its header
TIMED = REPLAYS / "kazu-tori" / "4p-physical-timed-dispute.kbl"


def read_damaged(path: Path) -> tuple[str, bool]:
    """The message of a log's first bad record, read tolerantly, and whether it is torn."""
    log = read_log(path, games.event_types, strict=False)
    assert log.error is not None
    return str(log.error), log.torn


def no_reopen(path: Path) -> None:
    """LogWriter.reopen refuses to cut what follows the good records, and leaves the file."""
    before = path.read_bytes()
    log = read_log(path, games.event_types, strict=False)
    with pytest.raises(LogError, match=f"what follows byte {log.good_bytes} is not a torn "):
        LogWriter.reopen(path, log.good_bytes, len(log.events), log=log)
    assert path.read_bytes() == before
    assert list(path.parent.glob("*.torn-*")) == []


# -- the last frame: how much of it is there --------------------------------------------------

def _last_cut(data: bytes, keep: int) -> bytes:
    """``data`` with its last frame's payload cut to ``keep`` bytes."""
    start, _ = frames(data)[-1]
    return data[:start + 8 + keep]


@pytest.mark.parametrize(("tail", "why", "torn"), [
    # a file grown by exactly one frame head of zeros (length 0, CRC-32 0): damage, not a tear
    (lambda d: d + bytes(8), "corrupted: an empty frame", False),
    # a frame head that is all there, none of its payload
    (lambda d: d + (40).to_bytes(4, "big") + bytes(4), "truncated: 0 of 40 bytes present", True),
    # five of the 8 frame bytes
    (lambda d: d + bytes(5), "truncated: the record's frame is cut short", True),
    # the last frame with 3 of its payload bytes
    (lambda d: _last_cut(d, 3), "truncated: 3 of 8 bytes present", True),
], ids=["zeroed-head", "head-alone", "part-of-a-head", "part-of-a-payload"])
def test_the_last_frame_cut_at_each_length_says_how_much_is_there(
        tmp_path: Path, tail: object, why: str, torn: bool) -> None:
    data = TIMED.read_bytes()
    start, end = frames(data)[-1]
    assert end - start - 8 == 8  # (the last payload's size, as the message gives it)
    log = tmp_path / "g.kbl"
    log.write_bytes(tail(data))  # type: ignore[operator]
    message, is_torn = read_damaged(log)
    assert message.endswith(f": {why}"), message
    assert is_torn is torn
    if not torn:
        no_reopen(log)


# -- the search for whole frames past a frame whose length runs past the end ------------------

def _after_bad_length(junk: bytes) -> tuple[bytes, int]:
    """The timed log with, before its fifth frame, a frame head whose length runs past the
    end of the file and then ``junk``; and where that head starts."""
    data = TIMED.read_bytes()
    at = frames(data)[4][0]
    rest = len(junk) + len(data) - at
    head = (rest + 100).to_bytes(4, "big") + bytes(4)
    return data[:at] + head + junk + data[at:], at


def damaged(tmp_path: Path, data: bytes) -> tuple[Path, str]:
    """A log of ``data`` and the message of its first bad record, which is damage, not a
    torn tail."""
    log = tmp_path / "g.kbl"
    log.write_bytes(data)
    message, torn = read_damaged(log)
    assert not torn, message
    return log, message


def _bait(count: int, size: int) -> bytes:
    """``count`` would-be frame heads 9 bytes apart, each a length of ``size`` (that fits,
    over the filler after them) and a map's first byte, whose checksums fail; then the
    filler (0xff: no frame starts in it)."""
    one = size.to_bytes(4, "big") + bytes(4) + b"\x80"
    bait = one * count + b"\xff" * (size + 64)
    assert zlib.crc32(bait[8:8 + size]) != 0
    return bait


def test_whole_frames_past_a_short_stretch_of_false_frames_are_found_and_repaired(
        tmp_path: Path) -> None:
    """The search for whole frames may do more work than a few times the bytes it searches
    when they are few: 12 false frames of 64 KiB in 70 KB cost more than four times the
    bytes, well within the fixed allowance, and the records after them are found (damage,
    not a torn tail) and kept by repair."""
    junk = _bait(12, 0x10000)
    data, at = _after_bad_length(junk)
    assert 4 * (len(data) - at) < 12 * (0x10000 + 72)  # (beyond the part that grows)
    log, message = damaged(tmp_path, data)
    assert message.endswith(": corrupted: its length runs past the end of the file, yet "
                            "whole records follow"), message
    no_reopen(log)
    fixed = tmp_path / "fixed.kbl"
    kept, dropped, left = repair_log(log, fixed, games.event_types)
    whole = read_log(TIMED, games.event_types)
    assert (kept, left) == (len(whole.events), 0)
    assert len(dropped) == 1 and f"(bytes {at}-{at + 8 + len(junk) - 1})" in dropped[0], dropped


def test_the_search_gives_up_on_long_false_frames_in_a_small_file(tmp_path: Path) -> None:
    """Each false frame costs its checksum over its whole length: 2,000 false frames of
    256 KiB in 280 KB would be 500 MiB of checksums; the search gives up (damage, as the
    format says), though there are few would-be frames and a whole frame follows them."""
    size = 0x40000
    junk = _bait(2000, size)
    data, at = _after_bad_length(junk)
    assert 2000 * size > 4 * (len(data) - at) + (1 << 20)
    _, message = damaged(tmp_path, data)
    assert message.endswith(": corrupted: its length runs past the end of the file, and "
                            "what follows is too long to search"), message


def test_a_stray_byte_before_the_last_frame_is_damage_not_a_tear(tmp_path: Path) -> None:
    """One byte slipped in before the last record: the length read there runs past the end,
    and a whole frame starts one byte on, so it is damage; resume must not cut that record."""
    data = TIMED.read_bytes()
    at = frames(data)[-1][0]
    log = tmp_path / "g.kbl"
    log.write_bytes(data[:at] + b"\x07" + data[at:])
    message, torn = read_damaged(log)
    assert message.endswith(": corrupted: its length runs past the end of the file, yet "
                            "whole records follow"), message
    assert not torn
    no_reopen(log)


# -- what LogWriter.reopen refuses to cut -----------------------------------------------------

def test_reopen_refuses_a_bad_length_followed_by_whole_frames(tmp_path: Path) -> None:
    """reopen checks for itself (not only resume) that what it cuts is a torn tail: a frame
    whose length runs past the end with whole frames after it is damage."""
    data = TIMED.read_bytes()
    start, _ = frames(data)[5]
    crafted = bytearray(data)
    crafted[start:start + 4] = (len(data)).to_bytes(4, "big")
    log = tmp_path / "g.kbl"
    log.write_bytes(bytes(crafted))
    log_read = read_log(log, games.event_types, strict=False)
    assert log_read.good_bytes == start
    with pytest.raises(LogError, match=f"what follows byte {start} is not a torn last record"):
        LogWriter.reopen(log, start, len(log_read.events), log=log_read)
    assert log.read_bytes() == bytes(crafted)
    assert list(tmp_path.glob("*.torn-*")) == []


def test_reopen_refuses_a_whole_last_frame_that_fails_its_checksum(tmp_path: Path) -> None:
    """The last record whole but failing its checksum is damage, even though nothing follows
    it (each record is written whole after its length): reopen does not cut it."""
    data = bytearray(TIMED.read_bytes())
    data[-1] ^= 0x01
    log = tmp_path / "g.kbl"
    log.write_bytes(bytes(data))
    message, torn = read_damaged(log)
    assert message.endswith(": corrupted: checksum does not match") and not torn, message
    no_reopen(log)


# -- JSON Lines: blank lines are no records ---------------------------------------------------

def test_a_blank_line_does_not_shift_the_numbers_of_the_events_after_it(
        tmp_path: Path) -> None:
    """Blank lines are skipped, not counted: the bad event after one is named by its own
    number, as in the log without it."""
    src = tmp_path / "g.jsonl"
    convert_log(TIMED, src, games.event_types)
    lines = src.read_bytes().splitlines(keepends=True)
    bad = [*lines[:5], lines[5].replace(b"{", b"[", 1), *lines[6:]]
    plain, blank = tmp_path / "plain.jsonl", tmp_path / "blank.jsonl"
    plain.write_bytes(b"".join(bad))
    blank.write_bytes(b"".join([*bad[:2], b"\n", b"  \n", *bad[2:]]))
    for log in (plain, blank):
        with pytest.raises(LogError) as err:
            read_log(log, games.event_types)
        assert (err.value.index, err.value.good) == (5, 4), (log, str(err.value))
        assert str(err.value).startswith(f"{log}: event 5: invalid record: ")


# -- a block's compressed data ----------------------------------------------------------------

@pytest.mark.parametrize("change", ["cut short", "followed by more"])
def test_a_block_whose_deflate_stream_is_cut_short_or_followed_by_more_is_refused(
        tmp_path: Path, change: str) -> None:
    """A block's deflated body must be one whole stream and nothing after it (its frame's
    checksum right: another writer's mistake, or a crafted file)."""
    data = TIMED.read_bytes()
    spans = frames(data)
    header = data[spans[0][0]:spans[0][1]]
    # the inputs of every block as one array, deflated as kabucli does
    items = [msgspec.msgpack.decode(data[s + 9:e]) for s, e in spans[1:]]
    assert all(data[s + 8] == 0 for s, _ in spans[1:])  # each stored raw (small)
    whole = msgspec.msgpack.encode([r for block in items for r in block])
    deflate = zlib.compressobj(3, zlib.DEFLATED, -13, zdict=DICTIONARY)
    stream = deflate.compress(whole) + deflate.flush()
    good = tmp_path / "good.kbl"
    good.write_bytes(MAGIC + header + frame(b"\x01" + stream))
    assert len(read_log(good, games.event_types).events) == \
        len(read_log(TIMED, games.event_types).events)
    bad = stream[:-2] if change == "cut short" else stream + b"\x00"
    log = tmp_path / "bad.kbl"
    log.write_bytes(MAGIC + header + frame(b"\x01" + bad))
    with pytest.raises(LogError) as err:
        read_log(log, games.event_types)
    assert str(err.value).endswith(": corrupted: the record's compressed data is cut short or "
                                   "followed by more"), str(err.value)


@pytest.mark.parametrize("tail", [b"\n", b"\n  \n", b"\n{\"type\":\"pa", b"\r\n\n{\"ty"],
                         ids=["blank-line", "blank-lines", "blank-then-torn", "blanks-then-torn"])
def test_a_json_lines_log_ending_in_blank_lines_resumes_as_it_reads(
        tmp_path: Path, tail: bytes) -> None:
    """Blank lines after the last event are no records: audit reads such a log whole (or with
    a torn last line after them), so resume goes on after them, setting aside only a torn
    line, rather than calling them "not a torn last record" and refusing."""
    from typer.testing import CliRunner

    from kabucli.cli import app

    log = tmp_path / "g.jsonl"
    runner = CliRunner()
    game = ("play", "dare", "--seed", "7", "--bot", "2=best", "--bot", "3=random",
            "-r", "rounds=2", "--log", str(log))
    assert runner.invoke(app, list(game), input="quit\n").exit_code == 0
    whole = log.read_bytes()
    events = len(read_log(log, games.event_types).events)
    log.write_bytes(whole + tail)
    torn = tail.rstrip(b"\r\n ") != b""
    read = read_log(log, games.event_types, strict=False)
    assert (len(read.events), read.error is not None, read.torn) == (events, torn, torn)
    res = runner.invoke(app, ["resume", str(log)], input="quit\n")
    assert res.exit_code == 0, res.stderr
    assert "not a torn last record" not in res.output
    sides = list(tmp_path.glob("*.torn-*"))
    if torn:
        assert [p.read_bytes() for p in sides] == [tail[tail.rindex(b"\n") + 1:]]
        assert f"moved to {sides[0]}" in res.stderr
    else:
        assert sides == []
    assert log.read_bytes().startswith(whole + tail[:tail.rindex(b"\n") + 1])
    assert len(read_log(log, games.event_types).events) >= events


def test_a_block_stored_in_an_unknown_way_is_refused(tmp_path: Path) -> None:
    """A block's first byte says how it is stored: RAW (0) or DEFLATE (1); any other is
    refused, not read as raw."""
    data = TIMED.read_bytes()
    start, end = frames(data)[1]
    assert data[start + 8] == 0
    log = tmp_path / "g.kbl"
    log.write_bytes(data[:start] + frame(b"\x02" + data[start + 9:end]) + data[end:])
    with pytest.raises(LogError) as err:
        read_log(log, games.event_types)
    assert str(err.value).endswith(": event 1: invalid record: stored in an unknown way (2)"), \
        str(err.value)


@pytest.mark.parametrize(("last", "ok"), [(MAX_TIME, True), (MAX_TIME + 1, False)])
def test_a_json_lines_time_at_the_last_ms_of_9999_is_read_and_one_later_is_refused(
        tmp_path: Path, last: int, ok: bool) -> None:
    src = tmp_path / "src.jsonl"
    convert_log(TIMED, src, games.event_types)
    lines = src.read_bytes().splitlines(keepends=True)
    at = max(i for i, line in enumerate(lines) if b',"t":' in line)
    head, _, _ = lines[at].rpartition(b',"t":')
    lines[at] = head + b',"t":%d}\n' % last
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(lines))
    if ok:
        assert read_log(log, games.event_types).times[-1] == MAX_TIME  # type: ignore[index]
    else:
        with pytest.raises(LogError, match=r"invalid record: a time after the end of 9999 "
                                           rf"\({last} ms after 1970\) - at `\$\.t`"):
            read_log(log, games.event_types)


@pytest.mark.parametrize(("back", "ok"), [(0, True), (1, False)])
def test_a_json_lines_time_equal_to_the_one_before_is_read_and_one_ms_earlier_is_refused(
        tmp_path: Path, back: int, ok: bool) -> None:
    """A format 2 log's times never go back (docs/log-format.md), by as little as 1 ms; the
    same time twice is no going back."""
    src = tmp_path / "src.jsonl"
    convert_log(TIMED, src, games.event_types)
    lines = src.read_bytes().splitlines(keepends=True)
    timed = [i for i, line in enumerate(lines) if b',"t":' in line]
    before = int(lines[timed[0]].rpartition(b',"t":')[2].rstrip(b"}\n"))
    head, _, _ = lines[timed[1]].rpartition(b',"t":')
    lines[timed[1]] = head + b',"t":%d}\n' % (before - back)
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(lines))
    if ok:
        assert read_log(log, games.event_types).times[timed[1] - 1] == before  # type: ignore[index]
    else:
        with pytest.raises(LogError, match=rf"invalid record: time {before - 1} is earlier than "
                                           rf"the one before it \({before}\)"):
            read_log(log, games.event_types)


@pytest.mark.parametrize("end", [b"\r", b" ", b"\t "])
def test_a_timed_json_lines_log_whose_lines_end_in_whitespace_reads_as_without_it(
        tmp_path: Path, end: bytes) -> None:
    """JSON allows whitespace after a line's object (a \\r\\n line end included), and an
    untimed line with it is read: so is a timed input line, its `t` still its last key
    (docs/log-format.md), rather than refused as an unknown field `t`."""
    src = tmp_path / "src.jsonl"
    convert_log(TIMED, src, games.event_types)
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(line + end + b"\n" for line in src.read_bytes().splitlines()))
    read, clean = read_log(log, games.event_types), read_log(src, games.event_types)
    assert (read.events, read.times) == (clean.events, clean.times)
    assert audit_log(log, games.event_types).digest == audit_log(src, games.event_types).digest


def test_a_timed_json_lines_line_ending_in_a_form_feed_is_refused_as_an_untimed_one_is(
        tmp_path: Path) -> None:
    """A form feed is no JSON whitespace: after a line's object it is malformed JSON, in a
    timed input line as in any other (not taken away with the line's `t` and read)."""
    src = tmp_path / "src.jsonl"
    convert_log(TIMED, src, games.event_types)
    lines = src.read_bytes().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if b',"t":' in line)
    lines[at] = lines[at].rstrip(b"\n") + b"\x0c\n"
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(lines))
    with pytest.raises(LogError, match=rf": event {at}: invalid record: "):
        read_log(log, games.event_types)


@pytest.mark.parametrize("spaced", [b', "t": %d}', b',"t":%d }', b',"t":%d,"n":1}'])
def test_a_time_written_otherwise_than_kabucli_writes_it_is_refused_saying_how_it_is_read(
        tmp_path: Path, spaced: bytes) -> None:
    """A time with spaces in it, or not the line's last key, is left in the line, which its
    event refuses as an unknown field `t`: in a timed log the refusal says how a time is read
    (the line's last key, written ,"t":N} with no spaces), where it said the field alone."""
    src = tmp_path / "src.jsonl"
    convert_log(TIMED, src, games.event_types)
    lines = src.read_bytes().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if b',"t":' in line)
    head, _, tail = lines[at].rpartition(b',"t":')
    lines[at] = head + spaced % int(tail.rstrip(b"}\n")) + b"\n"
    log = tmp_path / "g.jsonl"
    log.write_bytes(b"".join(lines))
    with pytest.raises(LogError) as info:
        read_log(log, games.event_types)
    assert str(info.value).endswith(
        f": event {at}: invalid record: unknown field - at `$.t` (a time is read as the "
        """line's last key, written as kabucli writes it: ,"t":N} with no spaces)""")


# -- a block's count against the limits -------------------------------------------------------

SHOWDOWN = REPLAYS / "dare" / "3p-showdown-outright.kbl"  # one block of 6 inputs


def _showdown_in_blocks(tmp_path: Path, sizes: list[int]) -> Path:
    """The showdown replay with its 6 inputs in blocks of these sizes."""
    data = SHOWDOWN.read_bytes()
    (h0, h1), (b0, b1) = frames(data)
    body = zlib.decompressobj(-15, zdict=DICTIONARY).decompress(data[b0 + 9:b1]) \
        if data[b0 + 8] == 1 else data[b0 + 9:b1]
    records = msgspec.msgpack.decode(body)
    assert len(records) == sum(sizes) == 6
    blocks, at = [], 0
    for n in sizes:
        blocks.append(frame(b"\x00" + msgspec.msgpack.encode(records[at:at + n])))
        at += n
    log = tmp_path / f"{'-'.join(map(str, sizes))}.kbl"
    log.write_bytes(MAGIC + data[h0:h1] + b"".join(blocks))
    return log


def test_a_block_of_exactly_the_most_records_and_inputs_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The limits are the most a block and a log may hold, not one less."""
    import kabucli.log

    log = _showdown_in_blocks(tmp_path, [6])
    whole = len(read_log(log, games.event_types).events)
    monkeypatch.setattr(kabucli.log, "MAX_BLOCK_RECORDS", 6)
    monkeypatch.setattr(kabucli.log, "MAX_INPUTS", 6)
    assert len(read_log(log, games.event_types).events) == whole
    assert audit_log(log, games.event_types).events == whole


def test_the_inputs_limit_counts_every_block_of_the_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log may hold at most MAX_INPUTS inputs in all, however few each block holds."""
    import kabucli.log

    log = _showdown_in_blocks(tmp_path, [3, 3])
    monkeypatch.setattr(kabucli.log, "MAX_INPUTS", 5)
    for read in (read_log, audit_log):
        with pytest.raises(LogError, match=r"invalid record: more than 5 inputs, the most "
                                           r"kabucli reads$"):
            read(log, games.event_types)


def test_a_block_that_holds_an_empty_list_is_refused(tmp_path: Path) -> None:
    data = SHOWDOWN.read_bytes()
    (h0, h1), _ = frames(data)
    log = tmp_path / "empty.kbl"
    log.write_bytes(MAGIC + data[h0:h1] + frame(b"\x00\x90"))
    with pytest.raises(LogError) as err:
        read_log(log, games.event_types)
    # (event 5: the first after the 4 the engine derives before the first input)
    assert str(err.value).endswith(": event 5: invalid record: a block that does not hold a "
                                   "list of records"), str(err.value)


def test_the_limits_the_format_gives_are_the_readers() -> None:
    """docs/log-format.md states the reader's limits: they are the ones it checks."""
    from kabucli.files import size_text
    from kabucli.log import MAX_BLOCK_BYTES, MAX_BLOCK_RECORDS, MAX_INPUTS

    text = " ".join((REPLAYS.parent / "docs" / "log-format.md").read_text().split())
    assert (f"A body may inflate to at most {size_text(MAX_BLOCK_BYTES)}, a block may hold at "
            f"most {MAX_BLOCK_RECORDS:,} records (kabucli writes at most 4,096), and a log may "
            f"hold at most {MAX_INPUTS:,} inputs;") in text


# -- the header ---------------------------------------------------------------------------------

def _header_map() -> dict[str, object]:
    data = TIMED.read_bytes()
    (h0, h1), *_ = frames(data)
    body = data[h0 + 9:h1] if data[h0 + 8] == 0 else \
        zlib.decompressobj(-15, zdict=DICTIONARY).decompress(data[h0 + 9:h1])
    header = msgspec.msgpack.decode(body)
    assert isinstance(header, dict) and header["format"] == 2
    return header


@pytest.mark.parametrize("depth", [32, 33])
def test_a_house_rule_nested_deep_in_a_map_key_is_refused_as_in_a_value(
        tmp_path: Path, depth: int) -> None:
    """A msgpack map's key may be a list (read as a tuple): a rule's map whose key nests
    more than 32 deep is refused as a value that does is."""
    from kabucli.log import _pack, read_header

    header = _header_map()
    marker = "@@nested@@"
    header["rules"] = {"zz": marker}
    key = b"\x91" * (depth - 1) + b"\x01"  # (depth - 1 lists in the map, itself 1 deep)
    body = msgspec.msgpack.encode(header).replace(msgspec.msgpack.encode(marker),
                                                  b"\x81" + key + b"\x01")
    log = tmp_path / "deep.kbl"
    log.write_bytes(MAGIC + frame(_pack(body)))
    if depth <= 32:
        assert "zz" in read_header(log, games.event_types).rules
        return
    with pytest.raises(LogError) as err:
        read_header(log, games.event_types)
    assert str(err.value) == f"{log}: header: invalid record: values nested too deeply"


@pytest.mark.parametrize("magic", ["KBCLOG1", "KBCLOG2"])
def test_a_header_of_the_other_format_than_its_files_magic_is_refused(
        tmp_path: Path, magic: str) -> None:
    """The magic says the format: a format 2 header (a map, as format 1 stores it) after
    format 1's magic, or a format 1 header (packed as format 2 stores it) after format 2's,
    is refused, not read as the format its header claims."""
    from kabucli.log import MAGIC1, _pack

    header = _header_map()
    if magic == "KBCLOG1":  # format 2's header, stored as format 1 stores one
        data, claims = MAGIC1 + frame(msgspec.msgpack.encode(header)), 2
    else:  # format 1's header (without format 2's fields), stored as format 2 stores one
        header = {k: v for k, v in header.items() if k not in ("clock", "commit", "salt")}
        header["format"] = 1
        data, claims = MAGIC + frame(_pack(msgspec.msgpack.encode(header))), 1
    log = tmp_path / "other.kbl"
    log.write_bytes(data)
    with pytest.raises(LogError) as err:
        read_log(log, games.event_types)
    assert str(err.value) == (f"{log}: header: invalid record: format {claims} in a file that "
                              f"starts as format {3 - claims} - at `$.format`")


def test_audit_says_how_many_events_were_read_whole_before_a_bad_block(tmp_path: Path) -> None:
    """LogError's ``good``: the events read whole before the bad record, one less than its
    number (docs/log-format.md), from audit's stream as from read_log."""
    data = bytearray(TIMED.read_bytes())
    data[frames(bytes(data))[6][1] - 1] ^= 0x01
    log = tmp_path / "g.kbl"
    log.write_bytes(bytes(data))
    for read in (read_log, audit_log):
        with pytest.raises(LogError) as err:
            read(log, games.event_types)
        assert (err.value.index, err.value.good) == (6, 5), (read, str(err.value))
        assert str(err.value) == f"{log}: event 6: corrupted: checksum does not match"


@pytest.mark.parametrize("twice", [False, True])
def test_an_ext_value_in_a_header_is_stepped_over_whole_when_keys_are_checked(
        tmp_path: Path, twice: bool) -> None:
    """An ext8 value (its length, a type byte, its data) in a header not as kabucli writes
    it: the check for a key given twice steps over all of it, so a key after it given twice
    is found, and a header with none is read."""
    from kabucli.log import _pack, read_header

    header = _header_map()
    # (a dict cannot hold "zz" twice: the second is put in by its bytes)
    header["rules"] = {"zz": "@@ext@@", "z@" if twice else "yy": 1}
    ext8 = b"\xc7\x01\x05\xa2"  # ext8: length 1, type 5, one byte of data (0xa2)
    body = msgspec.msgpack.encode(header).replace(msgspec.msgpack.encode("@@ext@@"), ext8)
    if twice:
        body = body.replace(msgspec.msgpack.encode("z@"), msgspec.msgpack.encode("zz"))
    log = tmp_path / "ext.kbl"
    log.write_bytes(MAGIC + frame(_pack(body)))
    if not twice:
        assert set(read_header(log, games.event_types).rules) == {"zz", "yy"}
        return
    with pytest.raises(LogError) as err:
        read_header(log, games.event_types)
    assert str(err.value) == (f"{log}: header: invalid record: the key 'zz' is given twice in "
                              "one object (readers differ on which one counts)")


# -- what resume and repair leave alone -------------------------------------------------------

def test_reopening_a_whole_log_sets_nothing_aside(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    log.write_bytes(TIMED.read_bytes())
    read = read_log(log, games.event_types)
    writer = LogWriter.reopen(log, read.good_bytes, len(read.events), log=read)
    writer.close()
    assert writer.torn_file is None
    assert list(tmp_path.glob("*.torn-*")) == []
    assert log.read_bytes() == TIMED.read_bytes()


def test_repair_refuses_to_write_onto_its_own_log(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    data = bytearray(TIMED.read_bytes())
    data[-1] ^= 0x01
    log.write_bytes(bytes(data))
    with pytest.raises(LogError, match="cannot repair a log onto itself"):
        repair_log(log, log, games.event_types, overwrite=True)
    assert log.read_bytes() == bytes(data)


# -- holds_log: what a page or a chart is never written over ----------------------------------

@pytest.mark.parametrize(("first", "holds"), [
    (b'{"format": 2, "game": "dare"}', True),
    (b'{"format": 2}', False),
    (b'{"game": "dare"}', False),
    (b'{"format": 2, "game": "dare", "cut', True),  # not JSON, yet a header's start
    (b"{not json, no header", False),
    (b'{"format": 2, "not json', False),
    # a header with its format and game after a long first key: read whole, not its start
    (b'{"seats": [' + b'"' + b"x" * 200 + b'"], "format": 2, "game": "dare"}', True),
    # nested deeper than msgspec decodes (a RecursionError, not a DecodeError): probe DY
    pytest.param(b'{"format": 2, "game": "dare", "rules": ' + b"[" * 20_000 + b"]" * 20_000
                 + b"}", True, id="deep-header"),
    pytest.param(b'{"x": ' + b"[" * 20_000 + b"]" * 20_000 + b"}", False, id="deep-other"),
])
def test_holds_log_knows_a_json_lines_header_by_its_format_and_game(
        tmp_path: Path, first: bytes, holds: bool) -> None:
    from kabucli.log import holds_log

    path = tmp_path / "maybe.jsonl"
    path.write_bytes(first + b"\n{}\n")
    assert holds_log(path) is holds


# -- what is a torn tail (probe DY) -----------------------------------------------------------

def test_a_torn_tail_holding_a_cut_would_be_frame_is_still_a_torn_tail(tmp_path: Path) -> None:
    """A torn last record whose bytes look like the start of another frame, itself cut
    short, is still a torn tail: no WHOLE frame follows its start (docs/log-format.md). Read
    as torn, and reopen sets it aside rather than refusing the log."""
    data = TIMED.read_bytes()
    # a frame head claiming 100 bytes, 20 present; at its second byte a would-be frame head
    # (0x00 0x00, six bytes, then a map's first byte) whose length runs past the end too
    tail = (100).to_bytes(4, "big") + bytes(4) + b"\x01\x80" + bytes(18)
    log = tmp_path / "g.kbl"
    log.write_bytes(data + tail)
    message, torn = read_damaged(log)
    assert message.endswith(": truncated: 20 of 100 bytes present"), message
    assert torn
    read = read_log(log, games.event_types, strict=False)
    writer = LogWriter.reopen(log, read.good_bytes, len(read.events), log=read)
    writer.close()
    assert log.read_bytes() == data
    assert [p.read_bytes() for p in tmp_path.glob("*.torn-*")] == [tail]


def test_reopen_refuses_a_json_lines_log_with_a_bad_whole_line_before_its_end(
        tmp_path: Path) -> None:
    """In JSON Lines only a last line without its newline is a torn tail: a bad line that
    ends in one, with lines after it, is damage, and reopen leaves the log as it is."""
    src = tmp_path / "g.jsonl"
    convert_log(TIMED, src, games.event_types)
    lines = src.read_bytes().splitlines(keepends=True)
    lines[3] = b'{"type": "nonsense"}\n'
    src.write_bytes(b"".join(lines))
    message, torn = read_damaged(src)
    assert not torn, message
    no_reopen(src)
