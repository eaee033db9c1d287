"""Log format 2 (docs/log-format.md): inputs only, in compact records and deflated blocks; the
events between them derived again by the engine; a digest that chains the records; timed
inputs; the seed's commitment; streamed audits. Format 1's own tests: test_log.py."""

from __future__ import annotations

import contextlib
import hashlib
import io
import itertools
import json
import os
import re
import stat
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import msgspec
import pytest
from logbytes import bodies, frames, rebuilt
from typer.testing import CliRunner, Result

from kabucli import games
from kabucli.cli import app
from kabucli.compact import (
    DICTIONARY,
    DICTIONARY_WORDS,
    INPUT,
    codec,
    seed_commitment,
)
from kabucli.engine import Match, classify
from kabucli.errors import LogError
from kabucli.events import Undo
from kabucli.games import event_types
from kabucli.games.dare.rules import GAME, Lay
from kabucli.log import (
    MAGIC,
    MAX_BLOCK_BYTES,
    LogWriter,
    SeatInfo,
    _pack,
    _with_undo,
    audit_log,
    convert_log,
    frame,
    read_log,
    write_log,
)
from kabucli.session import start

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "log-format.md"
REPLAYS = ROOT / "replays"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
runner = CliRunner()


def run(*args: str, input: str | None = None) -> Result:
    res = runner.invoke(app, list(args), input=input, env=ENV)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def bot_match(name: str, seed: int, players: int | None = None) -> Match:
    game = games.get(name)
    seats = [SeatInfo("b", "bot:random")] * (players or game.default_players)
    sess = start(game, game.Rules(), seats, seed, None, None)
    sess.run_bots()
    assert sess.match.over
    return sess.match


# -- what is stored --------------------------------------------------------------------------

@pytest.mark.parametrize("name", games.names())
def test_a_bot_match_reads_back_the_same_from_its_inputs(name: str, tmp_path: Path) -> None:
    match = bot_match(name, 11)
    path = tmp_path / "m.kbl"
    write_log(path, match.header, match.events, "msgpack", types=event_types(name))
    log = read_log(path, event_types)
    assert log.header == match.header and log.events == match.events
    assert log.walked[1] is None and log.walked[0].over
    hows, _ = classify(match.game, match.header, match.events)
    assert log.inputs == sum(1 for h in hows if h != 0) < len(match.events)
    assert log.times is None  # bots only: not timed


@pytest.mark.parametrize("records", [0, 3, 5000])
def test_a_log_made_later_holds_the_bytes_of_one_written_as_it_goes(records: int) -> None:
    # kabucli sim's writer of a short match between bots makes and writes nothing before its
    # first block (``later``): with no record, a few, or more than a block (its header then
    # written with the first), the same file, and the same digest, as a writer that starts
    # at once
    match = bot_match("dare", 3)
    events = list(itertools.islice(itertools.cycle(match.events), records))
    out = []
    for later in (False, True):
        buf = Kept()
        writer = LogWriter.start(buf, match.header, "msgpack", durable=False,
                                 types=event_types("dare"), later=later)
        assert buf.getvalue().startswith(MAGIC) != later
        for ev in events:
            writer.append(ev)
        if later:  # nothing written before its first block was full
            assert (buf.getvalue() == b"") == (records < 4096)
            writer.hold()  # (its block's body made now, written as it closes)
            assert writer.unwritten == records % 4096 and buf.getvalue()[:1] in (b"", b"K")
        writer.close()
        out.append((buf.kept, writer.digest))
    assert out[0] == out[1] and out[0][0].startswith(MAGIC)


def test_a_bot_games_writer_is_freed_without_the_cycle_collector(dare_match: Match) -> None:
    # a writer makes no reference cycle (an earlier one appended through a bound method put
    # in its own place of append: writer -> method -> writer), so it is freed as soon as it
    # is let go; kabucli sim closes thousands a second, and the cycle collector freeing them
    # cost it about 10 us a match
    import gc

    def one() -> None:
        writer = LogWriter.start(Kept(), dare_match.header, "msgpack", durable=False,
                                 types=GAME.events)
        for ev in dare_match.events[:5]:
            writer.append(ev)
        writer.close()

    one()  # (what the first makes once, and keeps: a codec, its types)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(3):
            one()
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


class Kept(io.BytesIO):
    """A buffer that keeps what it held when it is closed."""

    kept = b""

    def close(self) -> None:
        self.kept = self.getvalue()
        super().close()


@pytest.mark.parametrize("name", games.names())
def test_bot_matches_take_at_most_five_bytes_an_event(name: str, tmp_path: Path) -> None:
    size = events = 0
    for seed in range(5):
        match = bot_match(name, 100 + seed)
        path = tmp_path / f"{seed}.kbl"
        write_log(path, match.header, match.events, "msgpack", types=event_types(name))
        size += path.stat().st_size
        events += len(match.events)
    assert size / events <= 5, (name, size / events)


def test_the_binary_replays_take_at_most_five_bytes_an_event() -> None:
    files = sorted(REPLAYS.glob("*/*.kbl"))
    events = sum(len(read_log(p, event_types).events) for p in files)
    assert all(p.read_bytes().startswith(MAGIC) for p in files)
    assert sum(p.stat().st_size for p in files) / events <= 5


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*/*")), ids=lambda p: p.name)
def test_every_replay_is_format_2_and_converts_both_ways_byte_for_byte(
        path: Path, tmp_path: Path) -> None:
    log = read_log(path, event_types)
    assert log.version == 2
    other = tmp_path / ("x.kbl" if path.suffix == ".jsonl" else "x.jsonl")
    back = tmp_path / f"back{path.suffix}"
    convert_log(path, other, event_types)
    convert_log(other, back, event_types)
    # (a timed log, as a referee's writer wrote it, is written one input a block again)
    assert back.read_bytes() == path.read_bytes()
    digests = {audit_log(p, event_types).digest for p in (path, other)}
    assert len(digests) == 1 and None not in digests


def test_the_docs_record_and_block_are_what_kabucli_writes() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rec = re.search(r"is the record\n`\[3, 2, \[\[2, 4, 7\], \[5, 9, 9\]\]\]`, 12 bytes: "
                    r"`([0-9a-f ]+)`", text)
    assert rec is not None
    dare = codec(_with_undo(GAME.events), False)
    lay = Lay(2, [[2, 4, 7], [5, 9, 9]])
    assert bytes.fromhex(rec[1]) == msgspec.msgpack.encode(dare.record(lay, 0))
    block = re.search(r"this 38-byte frame .*?:\n\n```text\n(.*?)```", text, re.S)
    assert block is not None
    lays = [lay, Lay(3, [[6, 8, 9]]), Lay(1, [[1, 4, 8]])]
    body = msgspec.msgpack.encode([dare.record(x, 0) for x in lays])
    assert bytes.fromhex(block[1]) == frame(_pack(body))
    timed = re.search(r"after the input before it is\n`([0-9a-f ]+)`", text)
    assert timed is not None
    assert bytes.fromhex(timed[1]) == msgspec.msgpack.encode(
        codec(_with_undo(GAME.events), True).record(lay, 4210))


def test_the_docs_table_of_codes_is_each_games_codes_the_forfeit_s_too() -> None:
    """docs/log-format.md's table of codes from 2 is what each registered game writes: every
    game has its row, and each event type its code there (the forfeit, which a bot match
    writes at its end, included), so another program reading the docs reads kabucli's
    records right."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("| game | codes from 2 |"):].split("\n\n")[0]
    rows = dict(re.findall(r"^\| ([^|`]+?) \| (2 `.*) \|$", table, re.M))
    by_title = {games.get(name).title: name for name in games.names()}
    assert sorted(rows) == sorted(by_title), "a row a game, headed by its title"
    table = {by_title[title]: dict(
        (tag, int(code)) for code, tag in re.findall(r"(\d+) `(\w+)`", row))
        for title, row in rows.items()}
    for name in games.names():
        own = codec(_with_undo(event_types(name)), False).codes
        codes = {t.__struct_config__.tag: c for t, c in own.items() if t is not Undo}
        assert table[name] == codes, name
    forfeit = next(t for t in _with_undo(GAME.events) if t.__name__ == "Forfeit")
    record = codec(_with_undo(GAME.events), False).record(forfeit(2, "crashed"), 0)
    assert msgspec.msgpack.encode(record) == bytes([0x93, 8, 2, 0xA7]) + b"crashed"


@pytest.mark.parametrize("name", ["kabu-tsukuri/3p-physical-match.kbl",
                                  "dare/2p-human-undo.jsonl"])
def test_reading_and_auditing_tell_their_progress_up_to_the_end(name: str) -> None:
    """read_log and audit_log tell a progress bar how far they have read, in bytes: each
    hundredth of the file at most, always further, and the end. (A real table's binary log
    is a block an input; a JSON Lines log a line an event.)"""
    path = REPLAYS / name
    size = path.stat().st_size
    for how in ("read", "audit"):
        told: list[tuple[int, int]] = []
        if how == "read":
            read_log(path, event_types, progress=lambda d, t: told.append((d, t)))  # noqa: B023
        else:
            audit_log(path, event_types, lambda d, t: told.append((d, t)))  # noqa: B023
        done = [d for d, _ in told]
        assert 2 <= len(told) <= 101, told
        assert {t for _, t in told} == {size} and done[-1] == size
        assert done == sorted(set(done))  # always further, and a hundredth on (but the end)
        assert all(b - a > size // 100 for a, b in itertools.pairwise(done[:-1])), done


def test_the_docs_block_is_the_first_of_the_docs_match(dare_match: Match, tmp_path: Path) -> None:
    """The docs' 38-byte block holds the match's first three inputs, and what the docs say
    kabucli writes for the whole match (one block of all its inputs, deflated) is what the
    log written holds."""
    path = tmp_path / "m.kbl"
    write_log(path, dare_match.header, dare_match.events, "msgpack", types=event_types("dare"))
    hows, _ = classify(GAME, dare_match.header, dare_match.events)
    inputs = [ev for ev, how in zip(dare_match.events, hows, strict=True) if how == INPUT]
    assert inputs[:3] == [Lay(2, [[2, 4, 7], [5, 9, 9]]), Lay(3, [[6, 8, 9]]), Lay(1, [[1, 4, 8]])]
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    said = re.search(r"this 38-byte frame \(its body of 29 bytes is stored as it is; kabucli, "
                     r"writing that match between bots, puts all (\d+) of its inputs in one "
                     r"block, deflated into a frame of (\d+) bytes\)", text)
    assert said is not None, "docs/log-format.md no longer says how the match is written"
    data = path.read_bytes()
    spans = frames(data)
    assert len(spans) == 2  # the header and one block
    begin, end = spans[1]
    assert data[begin + 8] == 1  # deflated
    assert len(msgspec.msgpack.decode(bodies(data)[1])) == len(inputs) == int(said[1])
    assert end - begin == int(said[2])


def test_the_example_in_log_format_md_is_what_kabucli_writes(dare_match: Match) -> None:
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)```", text, re.S)
    assert block is not None
    lines = block[1].splitlines()
    header = json.loads(lines[0])
    expected = msgspec.to_builtins(dare_match.header)
    for volatile in ("started", "kabucli"):
        header.pop(volatile)
        expected.pop(volatile)
    assert header == expected
    assert len(lines) == 13
    assert [line.encode() for line in lines[1:]] == [
        msgspec.json.encode(ev) for ev in dare_match.events[:12]]


def test_the_digest_example_in_log_format_md_is_what_audit_prints() -> None:
    """The page's audit of a recorded log, its digest, the --digest command that passes on
    it and the refusal of another digest are kabucli's (it gave a made-up digest)."""
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"```text\n(valid: (\S+) .*?)```", text, re.S)
    assert block is not None, "docs/log-format.md no longer shows an audit"
    log = ROOT / block[2]
    shown = run("audit", str(log))
    assert shown.exit_code == 0
    assert shown.stdout.replace(str(log), block[2]) == block[1]
    flat = " ".join(text.split())
    command = re.search(r"`kabucli audit (\S+) --digest ([0-9a-f]+)` \(at least the first 16",
                        flat)
    assert command is not None and command[1] == block[2] and len(command[2]) == 16
    assert run("audit", str(log), "--digest", command[2]).exit_code == 0
    refusal = re.search(r"\(exit 1: `invalid: LOG: (its digest is) \.\.\., (not [0-9a-f]{16})"
                        r"\.\.\.: (it is not the log that had that digest \()", flat)
    assert refusal is not None
    other = f"{int(command[2], 16) ^ 1:016x}"
    refused = run("audit", str(log), "--digest", other)
    assert refused.exit_code == 1
    said = " ".join(refused.output.split())
    assert all(part.replace(command[2], other) in said for part in refusal.groups())


def test_the_preset_dictionary_never_changes() -> None:
    """Part of format 2: a reader inflates with exactly these bytes."""
    pinned = "fcda6622f0d807af212c16c5a1cd45f1984c8eec00a5ee7856a83b60604e20c3"
    assert hashlib.blake2b(DICTIONARY, digest_size=32).hexdigest() == pinned
    text = " ".join(DOCS.read_text(encoding="utf-8").split())
    listed = re.search(r"these 48 words, .*?: `([^`]*)` \((\d+) bytes; its BLAKE2b-256 is "
                       r"`([0-9a-f]{64})`", text)
    assert listed is not None
    assert listed[1].split() == list(DICTIONARY_WORDS)
    assert int(listed[2]) == len(DICTIONARY) == 346
    assert listed[3] == pinned


# -- the digest ------------------------------------------------------------------------------

def audit_lines(*args: str) -> tuple[int, list[str]]:
    res = run("audit", *args)
    return res.exit_code, (res.stdout + res.stderr).splitlines()


def test_audit_prints_the_digest_and_checks_one_written_down(tmp_path: Path) -> None:
    log = REPLAYS / "dare" / "3p-physical-match.kbl"
    code, lines = audit_lines(str(log))
    assert code == 0 and lines[0].startswith(f"valid: {log} (")
    digest = lines[1].removeprefix("  digest ")
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    assert run("audit", str(log), "--digest", digest).exit_code == 0
    assert run("audit", str(log), "--digest", digest[:16].upper()).exit_code == 0
    code, lines = audit_lines(str(log), "--digest", "0" * 16)
    assert code == 1 and lines == [f"invalid: {log}: its digest is {digest}, not "
                                   f"{'0' * 16}...: it is not the log that had that digest (its "
                                   "header or a record was changed, added or dropped since; a "
                                   "digest cannot tell which)"]
    res = run("audit", str(log), "--digest", "xyz")  # a usage error (2), not a verdict (1)
    assert res.exit_code == 2 and res.stderr.startswith("error: --digest xyz: give 16 to 64")


def test_the_digest_is_blake2b_over_the_header_and_the_records(tmp_path: Path) -> None:
    log = REPLAYS / "kazu-tori" / "4p-physical-last-call.kbl"
    parts = bodies(log.read_bytes())
    h = hashlib.blake2b(digest_size=32)
    h.update(b"kabucli log 2\n" + parts[0])
    for body in parts[1:]:
        h.update(body[1 if body[0] <= 0x9F else 3 if body[0] == 0xDC else 5:])
    assert audit_log(log, event_types).digest == h.hexdigest()


def test_records_in_another_msgpack_form_read_the_same_with_a_digest_of_their_own(
        tmp_path: Path) -> None:
    """A reader takes a record whose last fields, at their default, are left out (kabucli
    writes every field): the same events. The digest covers the records' bytes as stored
    (docs/log-format.md: encoding every record again would cost an audit a tenth of its
    time), so that log has a digest of its own; its JSON Lines conversion, whose records are
    made as kabucli writes them, has the digest kabucli's own log of the game has."""
    src = REPLAYS / "dare" / "3p-physical-match.kbl"
    parts = bodies(src.read_bytes())
    records = msgspec.msgpack.decode(parts[1])
    deal = records[0]
    assert deal[0] == 2 and deal[-1] is None  # Dare's deal at a real table: no hands
    shortened = msgspec.msgpack.encode([deal[:-1], *records[1:]])
    assert shortened != parts[1]
    written_down = audit_log(src, event_types).digest
    assert written_down is not None
    other = tmp_path / "other.kbl"
    other.write_bytes(rebuilt([parts[0], shortened, *parts[2:]]))
    assert read_log(other, event_types).events == read_log(src, event_types).events
    own = audit_log(other, event_types).digest
    assert own is not None and own != written_down
    assert run("audit", str(other), "--digest", own).exit_code == 0
    copy = tmp_path / "other.jsonl"
    assert run("log", "convert", str(other), str(copy)).exit_code == 0
    assert audit_log(copy, event_types).digest == written_down
    # the array header of a block is not a record's: another form of it changes nothing
    head = 1 if parts[1][0] <= 0x9F else 3
    longer = b"\xdd" + len(records).to_bytes(4, "big") + parts[1][head:]  # as an array32
    same = tmp_path / "same.kbl"
    same.write_bytes(rebuilt([parts[0], longer, *parts[2:]]))
    assert audit_log(same, event_types).digest == written_down


def test_an_edited_log_with_its_checksums_made_right_fails_digest(tmp_path: Path) -> None:
    """The dispute at the table: when an input was entered is edited after the game, every
    CRC computed again. The log still audits valid (a time breaks no rule), but it is not the
    one whose digest was written down."""
    src = tmp_path / "table.kbl"
    assert run("play", "dare", "--physical", "--players", "3", "--log", str(src),
               input="deal 9-2-2\np2 sets 1-2-10\np3 pass\nquit\n").exit_code == 0
    written_down = audit_log(src, event_types).digest
    assert written_down is not None
    parts = bodies(src.read_bytes())
    header = msgspec.msgpack.decode(parts[0])
    assert header["clock"] is not None  # a real table: timed
    dare = codec(_with_undo(event_types("dare")), True)
    first = list(msgspec.structs.astuple(dare.decoder.decode(parts[1])[0]))
    first[0] += 1500  # the deal entered 1.5 s later
    twin = type(dare.decoder.decode(parts[1])[0])
    edited = tmp_path / "edited.kbl"
    edited.write_bytes(rebuilt([parts[0], msgspec.msgpack.encode([twin(*first)]), *parts[2:]]))
    assert read_log(edited, event_types).times != read_log(src, event_types).times
    assert run("audit", str(edited)).exit_code == 0  # checksums and rules: all fine
    assert run("audit", str(src), "--digest", written_down).exit_code == 0
    now = audit_log(edited, event_types).digest
    assert now is not None and now != written_down
    code, lines = audit_lines(str(edited), "--digest", written_down)
    assert code == 1 and lines == [f"invalid: {edited}: its digest is {now}, not "
                                   f"{written_down}...: it is not the log that had that digest "
                                   "(its header or a record was changed, added or dropped "
                                   "since; a digest cannot tell which)"]


def test_converting_keeps_the_digest_and_format_1_gets_its_conversions(tmp_path: Path) -> None:
    from v1logs import write_v1

    src = REPLAYS / "yatchaba" / "3p-book-amounts.kbl"
    v1 = write_v1(src, tmp_path / "old.kbl")
    assert read_log(v1, event_types).version == 1
    assert audit_log(v1, event_types).digest == audit_log(src, event_types).digest
    convert_log(v1, tmp_path / "new.kbl", event_types)
    assert (tmp_path / "new.kbl").read_bytes() == src.read_bytes()


# -- the seed's commitment -------------------------------------------------------------------

def test_play_commit_prints_the_commitment_before_the_deal_and_audit_checks_it(
        tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "--bot", "all=random", "--players", "3", "--log", str(log),
              "--commit")
    assert res.exit_code == 0, res.stderr
    first = res.stdout.splitlines()[0]
    m = re.match(r"seed commitment: ([0-9a-f]{64}) ", first)
    assert m is not None
    header = read_log(log, event_types).header
    assert header.commit == m[1] and header.salt is not None and header.seed is not None
    assert seed_commitment(header.seed, header.salt) == m[1]
    code, lines = audit_lines(str(log), "--commit", m[1][:20])
    assert code == 0 and lines[1].endswith("; seed commitment checked")
    code, lines = audit_lines(str(log), "--commit", "f" * 64)
    assert code == 1 and "its seed commitment is" in lines[0]


def test_a_seed_changed_after_its_commitment_is_invalid(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    assert run("play", "dare", "--bot", "all=random", "--players", "2", "--log", str(log),
               "--commit", "--seed", "42").exit_code == 0
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["seed"] == 42
    head["seed"] = 43  # another deal: the audit of its events fails, or the commitment does
    other = tmp_path / "other.jsonl"
    assert run("play", "dare", "--bot", "all=random", "--players", "2", "--log", str(other),
               "--seed", "43").exit_code == 0
    forged = [json.dumps(head, separators=(",", ":")), *other.read_text().splitlines()[1:]]
    (tmp_path / "forged.jsonl").write_text("\n".join(forged) + "\n")
    code, lines = audit_lines(str(tmp_path / "forged.jsonl"))
    assert code == 1 and lines == [f"invalid: {tmp_path / 'forged.jsonl'}: the seed is not "
                                   "the one the header's commitment binds"]


def test_the_docs_commitment_example_is_checked_by_a_32_byte_blake2b() -> None:
    """docs/log-format.md gives a seed, a salt and their commitment, so that a program of
    another language can check its BLAKE2b-256 against it; it warns that the first 32 bytes
    of BLAKE2b-512 (all that Node's node:crypto offers) are other bytes."""
    text = " ".join(DOCS.read_text().split())
    m = re.search(r"the seed `(\d+)` with the salt `([0-9a-f]{32})` gives the commitment "
                  r"`([0-9a-f]{64})`", text)
    assert m is not None, "docs/log-format.md gives no commitment to check"
    seed, salt, commit = int(m[1]), m[2], m[3]
    assert seed_commitment(seed, salt) == commit
    data = bytes.fromhex(salt) + seed.to_bytes(8, "big")
    assert hashlib.blake2b(data, digest_size=32).hexdigest() == commit
    assert hashlib.blake2b(data).hexdigest()[:64] != commit
    assert "digest_size=32" in text and "not the first 32 bytes" in text


def test_commit_is_refused_at_a_real_table() -> None:
    res = run("play", "dare", "--physical", "--commit")
    assert res.exit_code == 1 and "--physical deals nothing" in res.stderr


# -- time ------------------------------------------------------------------------------------

def test_a_referees_inputs_carry_when_they_were_entered(tmp_path: Path) -> None:
    log = tmp_path / "table.kbl"
    before = int(time.time() * 1000)
    res = run("play", "dare", "--physical", "--players", "3", "--log", str(log),
              input="deal 9-2-2\np2 sets 1-2-10\nquit\n")
    after = int(time.time() * 1000)
    assert res.exit_code == 0, res.stderr
    data = read_log(log, event_types)
    assert data.header.clock is not None and before <= data.header.clock <= after
    assert data.times is not None and len(data.times) == len(data.events)
    assert all(data.header.clock <= t <= after for t in data.times)
    assert data.times == sorted(data.times)
    shown = run("replay", str(log)).stdout
    assert re.search(r"^\s+1 \d\d:\d\d:\d\d\.\d\d\d ", shown, re.M), shown
    steps = json.loads(run("replay", str(log), "--json").stdout)["steps"]
    assert [s["t"] for s in steps] == data.times
    # JSON Lines keeps the same times, on the inputs' lines
    js = tmp_path / "table.jsonl"
    convert_log(log, js, event_types)
    assert read_log(js, event_types).times == data.times
    assert '"t":' in js.read_text()


def test_a_seeded_game_between_bots_records_no_time(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    assert run("play", "dare", "--bot", "all=random", "--players", "2", "--log",
               str(log)).exit_code == 0
    data = read_log(log, event_types)
    assert data.header.clock is None and data.times is None and '"t":' not in log.read_text()


# -- durability ------------------------------------------------------------------------------

class File(io.BytesIO):
    def __init__(self, calls: list[str]) -> None:
        super().__init__()
        self.calls = calls

    def write(self, data: Any) -> int:
        self.calls.append("write")
        return super().write(data)

    def flush(self) -> None:
        self.calls.append("flush")

    def fileno(self) -> int:
        return 99


def test_a_persons_input_is_written_and_synced_before_the_game_goes_on(
        monkeypatch: pytest.MonkeyPatch, dare_match: Match) -> None:
    calls: list[str] = []
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append(f"fsync {fd}"))
    header = msgspec.structs.replace(dare_match.header, clock=1)
    writer = LogWriter(File(calls), "msgpack", True, header, GAME.events)
    hows, _ = classify(GAME, dare_match.header, dare_match.events)
    for ev, how in list(zip(dare_match.events, hows, strict=True))[:8]:
        writer.append(ev, how)
    inputs = sum(1 for h in hows[:8] if h != 0)
    assert inputs == 3 and calls == ["write", "flush", "fsync 99"] * inputs


def synced(monkeypatch: pytest.MonkeyPatch, watch: Path) -> list[str]:
    """What os.fsync is called on from now: 'file', or 'folder' (then also whether ``watch``
    has a name in it by then: 'folder with NAME')."""
    calls: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            calls.append(f"folder with {watch.name}" if watch.exists() else "folder")
        else:
            calls.append("file")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return calls


def test_a_new_log_and_its_name_are_on_disk_before_the_first_move(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dare_match: Match) -> None:
    """A person's game: its header is synced, then the folder that holds its new name (a
    crash that keeps the file's bytes but not its name would lose the whole game)."""
    path = tmp_path / "table.kbl"
    calls = synced(monkeypatch, path)
    writer = LogWriter.create(path, dare_match.header, durable=True, types=GAME.events)
    assert calls == ["file", "folder with table.kbl"]
    writer.close()
    calls.clear()
    LogWriter.create(tmp_path / "bots.kbl", dare_match.header, durable=False,
                     types=GAME.events).close()
    assert calls == []  # a bot game syncs nothing


def test_a_log_written_whole_is_synced_before_it_takes_its_name(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dare_match: Match) -> None:
    """log convert and repair (kabucli.files.write_whole): the new file's bytes are on disk
    before its name appears, and the name after; else a crash just after could leave the
    converted log empty, with the original already deleted by a user who saw it succeed."""
    path = tmp_path / "copy.kbl"
    calls = synced(monkeypatch, path)
    write_log(path, dare_match.header, dare_match.events, "msgpack", types=GAME.events)
    assert calls == ["file", "folder with copy.kbl"]


def test_a_bot_game_writes_its_inputs_in_one_block_at_its_end(
        monkeypatch: pytest.MonkeyPatch, dare_match: Match) -> None:
    calls: list[str] = []
    monkeypatch.setattr(os, "fsync", lambda fd: calls.append("fsync"))
    writer = LogWriter(File(calls), "msgpack", False, dare_match.header, GAME.events)
    hows, _ = classify(GAME, dare_match.header, dare_match.events)
    for ev, how in zip(dare_match.events, hows, strict=True):
        writer.append(ev, how)
    assert calls == []
    writer.close()
    assert calls == ["write", "flush"]


def referee(log: Path) -> subprocess.Popen[bytes]:
    """A real process refereeing a Dare table of 3 into ``log``, typed to through a pipe."""
    return subprocess.Popen([sys.executable, "-m", "kabucli", "play", "dare", "--physical",
                             "--players", "3", "--log", str(log)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, **ENV})


def test_a_referee_killed_mid_game_loses_no_input_entered(tmp_path: Path) -> None:
    """A real process, killed (SIGKILL) at the prompt after each input was typed."""
    log = tmp_path / "table.kbl"
    proc = referee(log)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"deal 9-2-2\np2 sets 1-2-10\np3 pass\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the three inputs are on disk
        try:  # (the file may be there before its header: then it is not a log yet)
            inputs = sum(1 for e in read_log(log, event_types, strict=False).events
                         if e.KIND != "auto") if log.exists() else 0
        except LogError:
            inputs = 0
        if inputs >= 3:
            break
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    data = read_log(log, event_types)
    assert [GAME.notate(e) for e in data.events if e.KIND != "auto"][:3] == [
        "deal 9-2-2", "p2 sets 1-2-10", "p3 pass"]


# -- reading: streamed, tampered, crafted -------------------------------------------------

HUMAN_UNDO = REPLAYS / "dare" / "2p-human-undo.jsonl"


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("*/*.kbl")), ids=lambda p: p.name)
def test_a_streamed_audit_finds_what_reading_the_whole_log_finds(path: Path) -> None:
    whole = read_log(path, event_types)
    streamed = audit_log(path, event_types)
    assert streamed.events == len(whole.events) and streamed.violation is None
    assert streamed.match.over == whole.walked[0].over
    assert streamed.digest == whole.digest
    assert streamed.match.events == []  # counted, not kept


def test_undos_streamed_give_the_same_game(tmp_path: Path) -> None:
    """A person's undos: the streamed audit replays the inputs still in effect."""
    binary = tmp_path / "undo.kbl"
    convert_log(HUMAN_UNDO, binary, event_types)
    whole = read_log(binary, event_types)
    assert any(type(e) is Undo for e in whole.events)
    streamed = audit_log(binary, event_types)
    assert streamed.violation is None and streamed.events == len(whole.events)
    kept = whole.walked[0]
    assert GAME.view(streamed.match.state) == GAME.view(kept.state)


def test_an_undo_in_a_log_where_nobody_could_type_one_is_read_again_keeping_inputs(
        tmp_path: Path) -> None:
    """A bot-only log is streamed keeping nothing; a crafted undo in it still audits right."""
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())
    dare = codec(_with_undo(GAME.events), False)
    recs = list(dare.decoder.decode(parts[1]))
    undo = dare.record(Undo(), 0)
    crafted = tmp_path / "crafted.kbl"
    crafted.write_bytes(rebuilt([parts[0], msgspec.msgpack.encode([*recs[:2], undo])]))
    whole = read_log(crafted, event_types)
    streamed = audit_log(crafted, event_types)
    assert (streamed.events, streamed.violation) == (len(whole.events), whole.walked[1])
    assert GAME.view(streamed.match.state) == GAME.view(whole.walked[0].state)


def tampered_lay(tmp_path: Path) -> tuple[Path, Lay]:
    """A copy of a recorded binary Dare log whose first lay is one not from its hand (the
    checksums and the digest's bytes made right): the log and the lay it replaced."""
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())
    dare = codec(_with_undo(GAME.events), False)
    recs = list(dare.decoder.decode(parts[1]))
    first = dare.event(recs[0])[1]
    assert type(first) is Lay
    recs[0] = dare.record(Lay(first.seat, [[1, 1, 1]]), 0)  # not from its hand
    bad = tmp_path / "bad.kbl"
    bad.write_bytes(rebuilt([parts[0], msgspec.msgpack.encode(recs)]))
    return bad, first


def test_a_tampered_input_is_named_by_its_event_number(tmp_path: Path) -> None:
    data = read_log(REPLAYS / "dare" / "3p-showdown-outright.kbl", event_types)
    bad, first = tampered_lay(tmp_path)
    index = data.events.index(first) + 1
    res = run("audit", str(bad))
    assert res.exit_code == 1
    assert res.stderr.startswith(f"invalid: {bad}: event {index}: p{first.seat} ")


def test_a_race_mark_where_no_race_can_be_drawn_breaks_the_rules(tmp_path: Path) -> None:
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())
    dare = codec(_with_undo(GAME.events), False)
    recs = list(dare.decoder.decode(parts[1]))
    bad = tmp_path / "race.kbl"
    bad.write_bytes(rebuilt([parts[0], msgspec.msgpack.encode([recs[0], dare.record(None, 0),
                                                               *recs[1:]])]))
    res = run("audit", str(bad))
    assert res.exit_code == 1 and "a race is recorded where none can be drawn" in res.stderr


def test_a_block_that_inflates_too_far_is_refused_without_filling_the_memory(
        tmp_path: Path) -> None:
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, zdict=DICTIONARY)
    bomb = deflate.compress(b"\x90" * (MAX_BLOCK_BYTES + 1)) + deflate.flush()
    assert len(bomb) < 100_000
    crafted = tmp_path / "bomb.kbl"
    crafted.write_bytes(MAGIC + frame(_pack(parts[0])) + frame(b"\x01" + bomb))
    res = run("audit", str(crafted))
    assert res.exit_code == 2
    assert res.stderr.strip().endswith("invalid record: it inflates to more than 16 MiB")


def test_a_block_that_is_not_a_list_of_records_is_an_invalid_record(tmp_path: Path) -> None:
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())
    for body, why in [(b"\x81\xa1e\x01", "a block that does not hold a list of records"),
                      (b"\x91\x93\x63\x01\x02", "invalid record: "),
                      (b"\x91\x93\x03\xa1x\x90", "Expected `int`, got `str` - at `$[0][1]`")]:
        crafted = tmp_path / "crafted.kbl"
        crafted.write_bytes(rebuilt([parts[0], body]))
        res = run("audit", str(crafted))
        assert res.exit_code == 2 and why in res.stderr, res.stderr


def test_repair_of_a_binary_log_drops_the_bad_block_and_keeps_the_others(
        tmp_path: Path) -> None:
    log = tmp_path / "table.kbl"
    assert run("play", "dare", "--physical", "--players", "3", "--log", str(log),
               input="deal 9-2-2\np2 sets 1-2-10\np3 pass\nquit\n").exit_code == 0
    data = log.read_bytes()
    bounds = frames(data)
    assert len(bounds) == 4  # the header, then one block an input
    start, end = bounds[2]
    bad = bytearray(data)
    bad[end - 1] ^= 0x01
    (tmp_path / "bad.kbl").write_bytes(bytes(bad))
    res = run("log", "repair", str(tmp_path / "bad.kbl"), str(tmp_path / "fixed.kbl"))
    assert res.exit_code == 0
    assert res.stderr.strip() == (f"dropped: {tmp_path / 'bad.kbl'}: block 2 (bytes {start}-"
                                  f"{end - 1}): corrupted: checksum does not match")
    fixed = bodies((tmp_path / "fixed.kbl").read_bytes())
    kept = bodies(data)
    assert fixed[0] == kept[0]
    # (a timed log: one input a block, as the referee's log was written)
    assert fixed[1:] == [kept[1], kept[3]]


def test_repair_into_json_lines_says_which_intact_inputs_it_cannot_hold(
        tmp_path: Path) -> None:
    """A block repeated whole (its checksum good) breaks a rule; the inputs after it are
    intact, yet their events cannot be derived. Repaired into JSON Lines the log ended at
    the broken input and said "0 records dropped", its last inputs gone unseen."""
    log = tmp_path / "table.kbl"
    assert run("play", "dare", "--physical", "--players", "3", "--log", str(log),
               input="deal 9-2-2\np2 sets 1-2-10\np3 pass\np1 pass\nquit\n").exit_code == 0
    data = log.read_bytes()
    bounds = frames(data)
    assert len(bounds) == 5  # the header, then one block an input
    start, end = bounds[2]
    doubled = tmp_path / "doubled.kbl"
    doubled.write_bytes(data[:end] + data[start:end] + data[end:])
    res = run("log", "repair", str(doubled), str(tmp_path / "fixed.jsonl"))
    assert res.exit_code == 0
    assert res.stdout.splitlines()[0] == (
        f"wrote {tmp_path / 'fixed.jsonl'} (6 events kept, 0 records dropped, and the 2 "
        "inputs after event 6, which breaks a rule, left out)")
    assert res.stderr.strip() == (
        f"dropped: {doubled}: the 2 inputs after event 6, which breaks a rule: the events "
        "they lead to cannot be derived (repaired into the binary encoding, a .kbl name, "
        "every input is kept)")
    # into the binary encoding, every input is kept, the broken one and those after it
    assert run("log", "repair", str(doubled), str(tmp_path / "fixed.kbl")).exit_code == 0
    records = [r for body in bodies((tmp_path / "fixed.kbl").read_bytes())[1:]
               for r in msgspec.msgpack.decode(body)]
    # [code, dt, fields...]: the deal, p2's lay twice, p3's pass, p1's pass
    assert [[r[0], *r[2:]] for r in records][1:] == [[3, 2, [[1, 2, 10]]]] * 2 + [
        [3, 3, []], [3, 1, []]]


def test_a_format_1_log_is_replayed_audited_resumed_in_format_1_and_converted(
        tmp_path: Path) -> None:
    from v1logs import write_v1

    game_log = tmp_path / "g.kbl"
    assert run("play", "dare", "--players", "2", "--seed", "3", "--bot", "2=random",
               "--log", str(game_log), input="pass\nquit\n").exit_code == 0
    old = write_v1(game_log, tmp_path / "old.kbl")
    assert old.read_bytes().startswith(b"KBCLOG1\n")
    assert run("replay", str(old)).exit_code == 0
    assert run("audit", str(old)).stdout.startswith(f"valid: {old} (")
    res = run("resume", str(old), "--quiet", input="pass\n" * 40)
    assert res.exit_code == 0, res.stderr
    resumed = read_log(old, event_types)
    assert resumed.version == 1 and old.read_bytes().startswith(b"KBCLOG1\n")
    assert resumed.walked is None and len(resumed.events) > len(read_log(game_log,
                                                                          event_types).events)
    assert run("audit", str(old)).exit_code == 0
    assert run("log", "convert", str(old), str(tmp_path / "new.kbl")).exit_code == 0
    new = read_log(tmp_path / "new.kbl", event_types)
    assert new.version == 2 and new.events == resumed.events


def test_the_docs_reader_without_kabucli_reads_every_binary_replay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The snippet of docs/log-format.md run as it is (its `msgpack` is msgspec's decoder
    here): the header and the inputs it reads are kabucli's."""
    read_kbl = docs_read_kbl(monkeypatch)
    for path in sorted(REPLAYS.glob("*/*.kbl")):
        assert_docs_reader_reads_as_kabucli(read_kbl, path)


def docs_read_kbl(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The ``read_kbl`` of docs/log-format.md, run as the page gives it (its `msgpack` is
    msgspec's decoder here)."""
    text = DOCS.read_text(encoding="utf-8")
    snippet = re.search(r"### Reading one without kabucli.*?```python\n(.*?)```", text, re.S)
    assert snippet is not None
    fake = type(sys)("msgpack")
    fake.unpackb = msgspec.msgpack.decode  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "msgpack", fake)
    scope: dict[str, Any] = {}
    exec(compile(snippet[1], "log-format.md", "exec"), scope)  # our own docs, run as shown
    return scope["read_kbl"]


def assert_docs_reader_reads_as_kabucli(read_kbl: Any, path: Path) -> list[list[Any]]:
    """The header and the records the page's reader reads from a binary log are those of the
    events kabucli reads from it. Returns the records, a timed log's without their times."""
    header, records = read_kbl(path.read_bytes())
    log = read_log(path, event_types)
    assert header == msgspec.to_builtins(log.header), path
    types = _with_undo(event_types(log.header.game))
    dare = codec(types, log.header.timed)
    hows, _ = classify(games.get(log.header.game), log.header, log.events)
    mine = [msgspec.to_builtins(dare.record(None if h == 2 else e, 0))
            for e, h in zip(log.events, hows, strict=True) if h]
    if log.header.timed:  # the times are the file's own: compare the rest
        records = [[r[0], *r[2:]] for r in records]
        mine = [[r[0], *r[2:]] for r in mine]
    assert records == mine, path
    return list(records)


def test_the_docs_reader_and_records_hold_for_logs_kabucli_writes_now(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The page's reader run on logs kabucli writes now (not only the recorded replays), made
    by the commands for the page's own examples: the docs' seeded Dare match (its header is the
    page's JSON header, its inputs as many as the page says, the first three those of the
    page's 38-byte frame); and the records the page gives in words, each found in a log made
    for it (a seeded Kazu-Tori flip of p2, a real table's Dare deal of 7-7-3, an Uno Dare
    number card played by p4). Each log starts with the magic the page gives in hex."""
    text = DOCS.read_text(encoding="utf-8")
    flat = " ".join(text.split())
    read_kbl = docs_read_kbl(monkeypatch)
    magic = re.search(r"the 8-byte magic `KBCLOG2\\n` \(`([0-9a-f ]+)`\)", flat)
    assert magic is not None, "the page no longer gives the magic in hex"

    def made(name: str, *args: str, script: str = "") -> list[list[Any]]:
        path = tmp_path / f"{name}.kbl"
        if script:
            (tmp_path / f"{name}.txt").write_text(script)
            args = (*args, "--script", str(tmp_path / f"{name}.txt"))
        res = run("play", *args, "--log", str(path), "--quiet")
        assert res.exit_code == 0, res.output
        assert path.read_bytes()[:8] == bytes.fromhex(magic[1]) == MAGIC
        return assert_docs_reader_reads_as_kabucli(read_kbl, path)

    # the docs' match: seed 1, random, best, random
    records = made("docs", "dare", "--seed", "1", "--bot", "1=random", "--bot", "2=best",
                   "--bot", "3=random")
    header, _ = read_kbl((tmp_path / "docs.kbl").read_bytes())
    shown = json.loads(re.search(r"```json\n(.*?)\n", text, re.S)[1])  # type: ignore[index]
    for volatile in ("started", "kabucli"):
        header.pop(volatile)
        shown.pop(volatile)
    assert header == shown
    said = re.search(r"puts all (\d+) of its inputs in one block", flat)
    assert said is not None and len(records) == int(said[1])
    block = re.search(r"this 38-byte frame .*?:\n\n```text\n(.*?)```", text, re.S)
    assert block is not None
    assert records[:3] == msgspec.msgpack.decode(bytes.fromhex(block[1])[9:])

    # the records the page gives in words, each as "<what> is `[...]`"
    def given(what: str) -> list[Any]:
        found = re.search(rf"{what} (?:is )?`(\[[^`]*\])`", flat)
        assert found is not None, f"the page no longer gives {what}'s record"
        return list(json.loads(found[1]))

    flip = given("a Kazu-Tori `flip` of a seeded game")
    assert flip in made("kazu", "kazu-tori", "--seed", "3", "--bot", "all=sharp")
    deal = given("a physical Dare `deal`")
    timed = made("table", "dare", "--physical", "--players", "3", script="deal 7-7-3\n")
    assert timed[0] == deal  # (the records of a timed log come without their times)
    play = given("Uno Dare's `play` of a number card")
    timed = made("uno", "uno-dare", "--physical", "--players", "4",
                 script="deal R5\nR3\nY3\nY5\n")  # p2, p3, then p4 plays the yellow 5
    assert timed[-1] == play


def test_a_record_with_more_fields_than_its_event_is_refused(tmp_path: Path) -> None:
    # an array-like record skipped extra trailing fields: the edited log audited valid, under
    # a digest of its own (one game, many digests)
    src = tmp_path / "game.kbl"
    assert run("play", "dare", "--seed", "7", "--bot", "all=best", "--rule", "rounds=1",
               "--log", str(src)).exit_code == 0
    parts = bodies(src.read_bytes())
    records = msgspec.msgpack.decode(parts[1])
    records[0] = [*records[0], 0, 0]
    edited = tmp_path / "edited.kbl"
    edited.write_bytes(rebuilt([parts[0], msgspec.msgpack.encode(records), *parts[2:]]))
    res = run("audit", str(edited))
    assert res.exit_code == 2
    assert "event " in res.output and "invalid record: Expected `array` of at most length" \
        in res.output


def test_a_block_of_more_records_than_a_block_holds_is_refused_before_decoding(
        tmp_path: Path) -> None:
    # 15 KB of deflate made 8 million records: 377 MB of memory before the count was checked
    src = tmp_path / "game.kbl"
    assert run("play", "dare", "--seed", "7", "--bot", "all=best", "--rule", "rounds=1",
               "--log", str(src)).exit_code == 0
    parts = bodies(src.read_bytes())
    first = msgspec.msgpack.decode(parts[1])[0]
    crafted = tmp_path / "crafted.kbl"
    crafted.write_bytes(rebuilt([parts[0], msgspec.msgpack.encode([first] * 70_000)]))
    res = run("audit", str(crafted))
    assert res.exit_code == 2
    assert "invalid record: a block of 70,000 records (a block holds at most 65,536)" in \
        res.output


# -- limits a crafted log meets (found by a hostile pass, 2026-11-25) --------------------------

UNDOS = "deal 9-2-2\n" + "p2 sets 1-2-10\nundo\n" * 12 + "quit\n"


@pytest.mark.parametrize("suffix", [".kbl", ".jsonl"])
def test_undos_past_the_limit_are_refused_at_the_same_event_by_every_reader(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    # 4 KB of inputs and undos took hours: each undo plays the game again from its start
    import kabucli.engine

    log = tmp_path / f"undos{suffix}"
    assert run("play", "dare", "--physical", "--players", "3", "--log", str(log),
               input=UNDOS).exit_code == 0
    assert run("audit", str(log)).exit_code == 0
    monkeypatch.setattr(kabucli.engine, "MAX_REPLAYED", 5)  # (a global: compiled or not)
    why = "undos that play more than 5 inputs again, the most kabucli does in a game"
    # refused as that undo, as an input that breaks a rule is: the same in either encoding
    audited = run("audit", str(log))
    assert audited.exit_code == 1, audited.output
    where = re.search(r"event (\d+): referee 'undo': (.*)$", audited.output.strip())
    assert where is not None and where[2] == why, audited.output
    for args in (["replay", str(log)], ["replay", str(log), "--json"]):
        res = run(*args)
        assert res.exit_code == 1, (args, res.output)
        assert f"event {where[1]}: referee 'undo': {why}" in res.output


@pytest.mark.parametrize("suffix", [".kbl", ".jsonl"])
def test_an_undo_plays_again_the_inputs_before_it_not_the_races(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str) -> None:
    """The inputs an undo plays again count toward MAX_REPLAYED; a race drawn from the seed
    among them is no input (the reader keeping every event does not count it). Kazu-Tori:
    p1 flips, the bots' race is drawn, p1 passes, and an undo plays p1's flip again: one
    input. (Probe EL: a mutant of the streamed reader counting the race too survived.)"""
    from logbytes import bodies, rebuilt

    import kabucli.engine
    from kabucli.compact import codec
    from kabucli.games import event_types
    from kabucli.log import _with_undo

    played = tmp_path / "flip.kbl"
    assert run("play", "kazu-tori", "--seed", "1", "--players", "3", "--bot=2=random",
               "--bot=3=random", "--script", "-", "--log", str(played), "-q",
               input="flip\nundo\n").exit_code == 0
    head, *blocks = bodies(played.read_bytes())
    flip = msgspec.msgpack.decode(blocks[0])[0]  # p1's flip (then the undo, left out)
    types = {t.__struct_config__.tag: t for t in _with_undo(event_types("kazu-tori"))}
    rec = codec(tuple(types.values()), True)
    records = [flip, *(msgspec.msgpack.decode(msgspec.msgpack.encode(rec.record(ev, 0)))
                       for ev in (None, types["pass"](seat=1), types["undo"]()))]
    log = tmp_path / "race.kbl"
    log.write_bytes(rebuilt([head, msgspec.msgpack.encode(records)]))
    if suffix == ".jsonl":
        other = tmp_path / "race.jsonl"
        assert run("log", "convert", str(log), str(other)).exit_code == 0
        assert '"e":"race"' in other.read_text()
        log = other
    monkeypatch.setattr(kabucli.engine, "MAX_REPLAYED", 1)  # (a global: compiled or not)
    res = run("audit", str(log))
    assert res.exit_code == 0 and "taken back: 1 move (undo at event 5)" in res.stdout, \
        res.output
    monkeypatch.setattr(kabucli.engine, "MAX_REPLAYED", 0)
    res = run("audit", str(log))
    assert res.exit_code == 1 and "event 5: referee 'undo': undos that play more than 0 " \
        "inputs again" in res.output, res.output


def test_times_past_9999_or_going_back_are_refused(tmp_path: Path) -> None:
    log = tmp_path / "table.jsonl"
    assert run("play", "dare", "--physical", "--players", "3", "--log", str(log),
               input="deal 9-2-2\np2 sets 1-2-10\np3 pass\nquit\n").exit_code == 0
    lines = log.read_text().splitlines()
    timed = [i for i, line in enumerate(lines) if re.search(r',"t":\d+}$', line)]
    assert len(timed) >= 2
    for t, why in ((1, "is earlier than the one before it"),
                   (9_999_999_999_999_999, "a time after the end of 9999")):
        edited = list(lines)
        edited[timed[1]] = re.sub(r',"t":\d+}$', f',"t":{t}}}', edited[timed[1]])
        bad = tmp_path / "edited.jsonl"
        bad.write_text("\n".join(edited) + "\n")
        for args in (["audit", str(bad)], ["replay", str(bad)]):
            res = run(*args)
            assert res.exit_code == 2 and why in res.output, (args, res.output)
            assert "internal error" not in res.output
    header = json.loads(lines[0])
    header["clock"] = 2**53 - 1  # allowed before: replay failed with a year out of range
    bad = tmp_path / "clock.jsonl"
    bad.write_text("\n".join([json.dumps(header, separators=(",", ":")), *lines[1:]]) + "\n")
    res = run("replay", str(bad))
    assert res.exit_code == 2 and "clock 9007199254740991 is out of range" in res.output


def test_a_salt_of_an_odd_number_of_hex_digits_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "committed.jsonl"
    assert run("play", "dare", "--seed", "9", "--bot", "all=best", "--rule", "rounds=1",
               "--commit", "--log", str(log)).exit_code == 0
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["salt"] = header["salt"][:17]
    log.write_text("\n".join([json.dumps(header, separators=(",", ":")), *lines[1:]]) + "\n")
    res = run("audit", str(log))
    assert res.exit_code == 2  # was internal error: ValueError from bytes.fromhex
    assert "salt is not an even number of hex digits" in res.output


def test_a_time_added_to_an_event_the_engine_derives_is_refused(tmp_path: Path) -> None:
    # the digest covers the inputs' times only: a t on a derived event (shown by replay)
    # audited valid under the original digest
    log = tmp_path / "table.jsonl"
    assert run("play", "dare", "--physical", "--players", "3", "--log", str(log),
               input="deal 9-2-2\np2 sets 1-2-10\np3 pass\nquit\n").exit_code == 0
    lines = log.read_text().splitlines()
    derived = next(i for i, line in enumerate(lines[1:], start=1)
                   if not re.search(r',"t":\d+}$', line))
    before = max(int(m[1]) for line in lines[1:derived]
                 if (m := re.search(r',"t":(\d+)}$', line)))
    lines[derived] = lines[derived][:-1] + f',"t":{before}}}'  # a time that does not go back
    log.write_text("\n".join(lines) + "\n")
    res = run("audit", str(log))
    assert res.exit_code == 2
    assert f"event {derived}: invalid record: a time on an event the engine derives" in \
        res.output
    # log convert refused it too: it used to drop that time and write a copy that audits valid
    for to in ("copy.kbl", "copy.jsonl"):
        res = run("log", "convert", str(log), str(tmp_path / to))
        assert res.exit_code == 2, res.output
        assert f"{log}: event {derived}: invalid record: a time on an event the engine " \
               "derives" in res.output
        assert not (tmp_path / to).exists()
    # replay shows it whole, then says it is unreadable, as audit does (it said nothing, exit 0)
    res = run("replay", str(log))
    assert res.exit_code == 2
    assert f"event {derived}: invalid record: a time on an event the engine derives" in \
        res.output
    assert "   6 " in res.output and "(shown up to event 6)" in res.output  # every event


@pytest.mark.parametrize("to", ["out.jsonl", "out.kbl"])
def test_convert_refuses_a_binary_log_that_breaks_a_rule_rather_than_cut_it(
        tmp_path: Path, to: str) -> None:
    """A binary log is read by playing its inputs, which stops at the first one that breaks a
    rule: what follows cannot be derived. Convert used to write the events up to there and
    say 'wrote' (exit 0), losing the rest; it now refuses, in one line, and writes nothing."""
    bad, _ = tampered_lay(tmp_path)
    res = run("log", "convert", str(bad), str(tmp_path / to))
    assert res.exit_code != 0 and "wrote" not in res.stdout
    (line,) = res.stderr.splitlines()
    assert f"cannot convert {bad}: event " in line and "nothing written" in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.kbl"]


def _header_map(body: bytes, edit: Any) -> bytes:
    """A binary log's header body decoded to a dict (keys in order), edited by ``edit``
    (which returns (key, value) pairs, a key possibly twice), and encoded as a msgpack map
    of exactly those pairs."""
    pairs = edit(list(msgspec.msgpack.decode(body).items()))
    n = len(pairs)
    head = bytes((0x80 | n,)) if n < 16 else b"\xde" + n.to_bytes(2, "big")
    return head + b"".join(msgspec.msgpack.encode(k) + msgspec.msgpack.encode(v)
                           for k, v in pairs)


@pytest.mark.parametrize("where", ["top", "nested"])
def test_a_binary_header_that_gives_a_key_twice_is_refused(tmp_path: Path, where: str) -> None:
    """As in JSON Lines: msgspec keeps the last, another msgpack reader may keep the first,
    and the digest (over the header as decoded) would not tell them apart."""
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())

    body = _header_map(parts[0], lambda pairs: [*pairs[:2], ("game", "dare"), *pairs[2:]])
    if where == "nested":  # the rules map with its first key given again at its end
        rules = msgspec.msgpack.encode(msgspec.msgpack.decode(parts[0])["rules"])
        first_key = rules[1:1 + 1 + (rules[1] & 0x1F)]
        n = rules[0] & 0x0F
        again = bytes((0x80 | (n + 1),)) + rules[1:] + first_key + msgspec.msgpack.encode(5)
        body = parts[0].replace(rules, again, 1)
        assert body != parts[0]
    bad = tmp_path / "twice.kbl"
    bad.write_bytes(rebuilt([body, *parts[1:]]))
    res = run("audit", str(bad))
    assert res.exit_code == 2, res.stdout
    assert "header: invalid record: the key " in res.stderr and "given twice" in res.stderr


def test_a_binary_header_not_as_kabucli_writes_it_is_read_when_each_key_is_once(
        tmp_path: Path) -> None:
    """Another program may write the header's keys in another order: that is not refused
    (the walk that checks the keys finds none twice) and the game, and its digest, are the
    same."""
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())
    body = _header_map(parts[0], lambda pairs: list(reversed(pairs)))
    assert body != parts[0]
    other = tmp_path / "reordered.kbl"
    other.write_bytes(rebuilt([body, *parts[1:]]))
    first, second = run("audit", str(src)), run("audit", str(other))
    assert (first.exit_code, second.exit_code) == (0, 0), second.stderr
    assert first.stdout.split()[-1] == second.stdout.split()[-1]  # the digest


@pytest.mark.parametrize("wide", [b"\xd9", b"\xda\x00", b"\xdb\x00\x00\x00"])
def test_a_key_given_twice_in_two_encodings_is_still_given_twice(
        tmp_path: Path, wide: bytes) -> None:
    """msgpack may write the string "seed" as a fixstr or as a str8/16/32: the same key. A
    header giving it once each way is refused as one giving it twice (a hostile probe, G3:
    compared as bytes, it audited valid with the clean log's digest)."""
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())
    pairs = list(msgspec.msgpack.decode(parts[0]).items())
    n = len(pairs) + 1
    head = bytes((0x80 | n,)) if n < 16 else b"\xde" + n.to_bytes(2, "big")
    body = head + b"".join(msgspec.msgpack.encode(k) + msgspec.msgpack.encode(v)
                           for k, v in pairs)
    body += wide + bytes((4,)) + b"seed" + msgspec.msgpack.encode(12345)
    bad = tmp_path / "wide.kbl"
    bad.write_bytes(rebuilt([body, *parts[1:]]))
    res = run("audit", str(bad))
    assert res.exit_code == 2, res.stdout
    assert "header: invalid record: the key 'seed' is given twice" in res.stderr, res.stderr


def _wide(value: Any, size: int) -> bytes:
    """``value`` in msgpack as another writer may encode it: every string as a str8/16/32
    (``size`` 1, 2 or 4 length bytes), every integer as an int64, every map and array with a
    32-bit count."""
    if isinstance(value, str):
        data = value.encode()
        return {1: b"\xd9", 2: b"\xda", 4: b"\xdb"}[size] + len(data).to_bytes(size, "big") + data
    if isinstance(value, bool) or value is None:
        return msgspec.msgpack.encode(value)
    if isinstance(value, int):
        return b"\xd3" + value.to_bytes(8, "big", signed=True)
    if isinstance(value, dict):
        return b"\xdf" + len(value).to_bytes(4, "big") + b"".join(
            _wide(k, size) + _wide(v, size) for k, v in value.items())
    if isinstance(value, list):
        return b"\xdd" + len(value).to_bytes(4, "big") + b"".join(_wide(v, size) for v in value)
    raise TypeError(value)


@pytest.mark.parametrize("size", [1, 2, 4])
def test_a_header_in_wide_encodings_reads_with_the_same_digest(tmp_path: Path, size: int) -> None:
    """The walk that looks for a key given twice must step over every encoding msgpack
    allows; a header written with wide strings, integers and counts is the same header."""
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    parts = bodies(src.read_bytes())
    body = _wide(msgspec.msgpack.decode(parts[0]), size)
    assert body != parts[0]
    other = tmp_path / "wide.kbl"
    other.write_bytes(rebuilt([body, *parts[1:]]))
    first, second = run("audit", str(src)), run("audit", str(other))
    assert (first.exit_code, second.exit_code) == (0, 0), second.stderr
    assert first.stdout.split()[-1] == second.stdout.split()[-1]


@pytest.mark.parametrize("encoding", ["kbl", "jsonl"])
def test_the_digest_does_not_depend_on_the_order_of_the_house_rules(
        tmp_path: Path, encoding: str) -> None:
    """A map has no order: a header whose house rules another writer put in another order
    (reversed; or every key sorted, as json.dumps(sort_keys=True) and jq -S write) is the
    same game with the same digest (a probe, H2: it was another digest)."""
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    want = run("audit", str(src)).stdout.split()[-1]
    if encoding == "kbl":
        parts = bodies(src.read_bytes())
        header = msgspec.msgpack.decode(parts[0])
        header["rules"] = dict(reversed(list(header["rules"].items())))
        assert next(iter(header["rules"])) == "chips"
        other = tmp_path / "rules.kbl"
        other.write_bytes(rebuilt([msgspec.msgpack.encode(header), *parts[1:]]))
        variants = [other]
    else:
        base = tmp_path / "base.jsonl"
        assert run("log", "convert", str(src), str(base)).exit_code == 0
        head, *rest = base.read_text().splitlines(keepends=True)
        header = json.loads(head)
        variants = []
        for name, text in (("reversed", json.dumps(
                {**header, "rules": dict(reversed(list(header["rules"].items())))},
                separators=(",", ":"))), ("sorted", json.dumps(header, sort_keys=True))):
            path = tmp_path / f"{name}.jsonl"
            path.write_text(text + "\n" + "".join(rest))
            variants.append(path)
    for path in variants:
        res = run("audit", str(path), "--digest", want)
        assert res.exit_code == 0, (path.name, res.stdout, res.stderr)


def test_convert_of_a_log_whose_header_its_game_refuses_names_the_log_not_the_copy(
        tmp_path: Path) -> None:
    src = tmp_path / "src.jsonl"
    assert run("log", "convert", str(REPLAYS / "dare" / "3p-showdown-outright.kbl"),
               str(src)).exit_code == 0
    head, *rest = src.read_text().splitlines(keepends=True)
    header = json.loads(head)
    header["rules"]["rounds"] = 0
    src.write_text(json.dumps(header, separators=(",", ":")) + "\n" + "".join(rest))
    res = run("log", "convert", str(src), str(tmp_path / "copy.kbl"))
    assert res.exit_code == 2
    assert res.stderr.strip() == (f"error: {src}: header: house rule rounds=0 is not allowed: "
                                  "expected integer 1-10000")
    assert not (tmp_path / "copy.kbl").exists()


@pytest.mark.parametrize("name", ["dare/2p-human-undo.jsonl", "uno-dare/3p-scoring-lowest.jsonl"])
def test_an_audit_reads_a_json_lines_log_once(monkeypatch: pytest.MonkeyPatch,
                                              name: str) -> None:
    """A JSON Lines (or format 1) log holds every event, and the audit's first read keeps
    them all: it walks those, instead of reading the file a second time (a third of the
    audit's time), and its progress bar is told of the one read."""
    from kabucli import log as L

    reads: list[Path] = []
    read_bytes = L.read_bytes

    def counted(path: Path, limit: int) -> bytes:
        reads.append(path)
        return read_bytes(path, limit)

    monkeypatch.setattr(L, "read_bytes", counted)
    audited = L.audit_log(REPLAYS / name, games.event_types)
    assert audited.violation is None and audited.events > 10
    assert reads == [REPLAYS / name]


def test_the_cycle_collector_is_off_while_a_log_is_read_and_on_again_after(
        tmp_path: Path) -> None:
    """Issue 13 wants the time an event takes flat in the match's length. Reading a long
    match slowed per event as it grew: Python's cycle collector went again and again through
    every list the match had kept (Kabu-Tsukuri's record of each row's result). It is off
    while audit_log and read_log read and walk a log, and as it was after, also when the
    log is refused. (Seen from the reader's progress callback, which it calls as it reads:
    log.py may be compiled, and a compiled module's own functions cannot be patched.)"""
    import gc

    from kabucli import log as L

    seen: list[bool] = []

    def watched(done: int, size: int) -> None:
        seen.append(gc.isenabled())

    replay = next(REPLAYS.glob("kabu-tsukuri/*.kbl"))
    bad = tmp_path / "bad.kbl"
    bad.write_bytes(replay.read_bytes()[:-3] + b"\xff\xff\xff")  # its last record broken
    assert gc.isenabled()
    for read in (L.audit_log, L.read_log):
        seen.clear()
        read(replay, games.event_types, progress=watched)
        assert seen and not any(seen) and gc.isenabled(), read
        with pytest.raises(LogError):
            read(bad, games.event_types, progress=watched)
        assert gc.isenabled()
    gc.disable()  # a caller's own choice is left as it was
    try:
        L.audit_log(replay, games.event_types)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_referee_killed_at_the_prompt_keeps_every_event_shown_json_lines(
        tmp_path: Path) -> None:
    """JSON Lines holds the derived events too: those shown after an input (the antes after a
    deal) are on disk before the next prompt, as the input is, not held back in the program
    until the next input (a SIGKILL at the prompt lost them: the log ended at the deal)."""
    log = tmp_path / "table.jsonl"
    proc = referee(log)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(b"deal 1-7-5\n")
    proc.stdin.flush()
    shown = b""
    deadline = time.monotonic() + 60
    while b"p2 to lay" not in shown and time.monotonic() < deadline:  # the next prompt
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        shown += chunk
    proc.kill()
    proc.wait()
    assert b"p2 to lay" in shown and b"p1 pays 1 to pot" in shown
    data = read_log(log, event_types)
    assert [GAME.notate(e) for e in data.events] == [
        "deal 1-7-5", "pay p2 pot 1 ante", "pay p3 pot 1 ante", "pay p1 pot 1 ante"]
    assert log.read_bytes().count(b"\n") == 5  # the header and the four events, each whole


@pytest.mark.parametrize("fmt", ["jsonl", "msgpack"])
def test_a_record_that_would_end_one_byte_past_the_limit_is_refused_whole(
        monkeypatch: pytest.MonkeyPatch, dare_match: Match, fmt: str) -> None:
    """MAX_LOG_BYTES is the most a log may hold: a record that ends exactly there is written,
    one that would end a byte past it is refused (LogFullError), nothing of it written."""
    import kabucli.log
    from kabucli.errors import LogFullError

    first = dare_match.events[0]

    def one(limit: int) -> tuple[int, int, bytes]:
        monkeypatch.setattr(kabucli.log, "MAX_LOG_BYTES", limit)
        buf = Kept()
        writer = LogWriter.start(buf, dare_match.header, fmt,  # type: ignore[arg-type]
                                 durable=False, types=GAME.events)
        before = writer.size
        try:
            writer.append(first)
            writer.flush()  # (a binary log's block: its one input)
        except LogFullError:
            pass
        return before, writer.size, buf.getvalue()

    before, after, _ = one(1 << 30)
    assert after > before
    _, size, data = one(after)  # ends exactly at the limit: written
    assert size == after == len(data)
    _, size, data = one(after - 1)  # one byte past it: refused, the log as it was
    assert size == before == len(data)


def test_a_bots_block_past_the_limit_writes_the_records_that_end_exactly_at_it(
        monkeypatch: pytest.MonkeyPatch, dare_match: Match) -> None:
    """A game between bots keeps its inputs for a block: when that block would take the log
    past MAX_LOG_BYTES, its first records are written as a block of their own, as many as
    fit, a block that ends exactly at the limit included; the rest stay unwritten, counted."""
    import kabucli.log
    from kabucli.errors import LogFullError

    events = dare_match.events[:12]

    def written(limit: int, n: int) -> tuple[bytes, int]:
        monkeypatch.setattr(kabucli.log, "MAX_LOG_BYTES", limit)
        buf = Kept()
        writer = LogWriter.start(buf, dare_match.header, "msgpack", durable=False,
                                 types=GAME.events)
        for ev in events[:n]:
            writer.append(ev)
        with contextlib.suppress(LogFullError):
            writer.flush()
        return buf.getvalue(), writer.unwritten

    fits, left = written(1 << 30, len(events) - 1)  # the first 11, as one block
    assert left == 0
    data, left = written(len(fits), len(events))  # all 12: the 11 that fit, the last kept
    assert (data, left) == (fits, 1)


def test_after_a_failed_write_the_writer_writes_nothing_more(dare_match: Match) -> None:
    """A write that fails may leave a record cut short: nothing may be written after it (it
    would land behind the cut record, damage where a torn tail was). The next record is
    refused (LogWriteError), the file as the failed write left it."""
    from kabucli.errors import LogWriteError

    class Failing(Kept):
        fail = False

        def write(self, data: Any) -> int:
            if self.fail:
                raise OSError(28, "No space left on device")
            return super().write(data)

    buf = Failing()
    writer = LogWriter.start(buf, dare_match.header, "jsonl", durable=False,
                             types=GAME.events)
    writer.append(dare_match.events[0])
    buf.fail = True
    with pytest.raises(OSError):
        writer.append(dare_match.events[0])
    buf.fail = False
    before = buf.getvalue()
    with pytest.raises(LogWriteError):
        writer.append(dare_match.events[0])
    assert buf.getvalue() == before


def test_a_derived_json_lines_event_past_the_byte_limit_is_refused(
        monkeypatch: pytest.MonkeyPatch, dare_match: Match) -> None:
    """JSON Lines holds the events the engine derives too: one that would take the log past
    MAX_LOG_BYTES stops it (LogFullError) as an input does, nothing of it written."""
    import kabucli.log
    from kabucli.compact import DERIVED
    from kabucli.errors import LogFullError

    buf = Kept()
    writer = LogWriter.start(buf, dare_match.header, "jsonl", durable=False,
                             types=GAME.events)
    monkeypatch.setattr(kabucli.log, "MAX_LOG_BYTES", writer.size + 5)
    with pytest.raises(LogFullError):
        writer.append(dare_match.events[1], DERIVED)
    writer.flush()
    assert writer.size == len(buf.getvalue())
    assert buf.getvalue().count(b"\n") == 1  # the header alone


def test_a_record_whose_write_failed_never_reaches_the_log_later(tmp_path: Path,
                                                                  dare_match: Match) -> None:
    """A game's log whose write fails (a full disk) is kept as it was before that input: its
    bytes, still in the file object's buffer, are dropped, never written again, even where
    the disk has room by then (here at once: the file fails one write), after what the
    failed write may have left."""
    import errno

    from kabucli.errors import LogWriteError

    class Flaky(io.FileIO):
        fail = False

        def write(self, data: Any) -> int:
            if self.fail:
                self.fail = False  # (room again after this one)
                raise OSError(errno.ENOSPC, "No space left on device")
            return super().write(data)

    path = tmp_path / "g.jsonl"
    raw = Flaky(path, "w")
    writer = LogWriter.start(io.BufferedWriter(raw), dare_match.header, "jsonl", types=GAME.events)
    writer.path = path  # (a game's log: a write that fails stops it)
    writer.append(dare_match.events[0])
    before = path.read_bytes()
    assert before.count(b"\n") == 2  # the header and the first input
    raw.fail = True
    with pytest.raises(LogWriteError, match="No space left on device"):
        writer.append(dare_match.events[0])
    writer.close()
    assert path.read_bytes() == before


# -- the record codec, found by mutation testing (probe EJ) -------------------------------------

def test_a_timed_race_mark_is_written_and_read_back_with_its_dt() -> None:
    rec = codec((Lay, Undo), True)
    data = msgspec.msgpack.encode([rec.record(None, 7)])
    assert data == bytes([0x91, 0x92, 0x00, 0x07])  # [[0, 7]]: code 0, dt 7
    assert [rec.event(r) for r in rec.decoder.decode(data)] == [(7, None)]


def test_a_record_with_a_negative_dt_or_a_race_mark_with_a_field_is_refused() -> None:
    timed = codec((Lay, Undo), True)
    with pytest.raises(msgspec.ValidationError):
        timed.decoder.decode(msgspec.msgpack.encode([[0, -1]]))
    with pytest.raises(msgspec.ValidationError):
        codec((Lay, Undo), False).decoder.decode(msgspec.msgpack.encode([[0, 5]]))


def test_a_record_without_a_trailing_list_field_reads_it_empty() -> None:
    from kabucli.games.kabu_tsukuri.events import Arrange

    rec = codec((Arrange, Undo), False)
    [r] = rec.decoder.decode(msgspec.msgpack.encode([[2, 1, [[1, 2, 3]]]]))
    assert rec.event(r) == (0, Arrange(seat=1, rows=[[1, 2, 3]], aside=[]))


@pytest.mark.parametrize(("body", "count", "head"), [
    (bytes([0x9F]), 15, 1), (bytes([0x98]), 8, 1), (b"", 0, 0), (bytes([0x80]), 0, 0),
    (b"\xdc\x01\x02", 258, 3), (b"\xdc\x01", 0, 3),
    (b"\xdd\x00\x01\x00\x00", 65536, 5), (b"\xdd\x00\x01\x00", 0, 5),
])
def test_an_array_header_is_read_for_its_count_and_length(body: bytes, count: int,
                                                          head: int) -> None:
    from kabucli.compact import array_count, array_head

    assert (array_count(body), array_head(body)) == (count, head)
