"""`kabucli log repair IN OUT`: copies every record of a damaged log that still checks into a
new log, reads on past damage in the middle of a msgpack log, reports each record it leaves
out, and never changes the original. Tried on format 1 copies of the recorded games in
replays/ (a record an event); format 2 (a block of inputs a record): test_log_v2.py."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from logbytes import frames
from typer.testing import CliRunner
from v1logs import write_v1

from kabucli import games
from kabucli.cli import app
from kabucli.log import read_log

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
KBL = sorted(REPLAYS.glob("*/*.kbl"))
JSONL = sorted(REPLAYS.glob("*/*.jsonl"))
runner = CliRunner()


def run(*args: str) -> Any:
    res = runner.invoke(app, list(args))
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def v1_bytes(src: Path, tmp_path: Path) -> bytes:
    return write_v1(src, tmp_path / f"v1{src.suffix}").read_bytes()


def damaged_copy(src: Path, tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / src.name
    path.write_bytes(data)
    return path


def repaired(log: Path, out: Path, kept: int, dropped: list[str]) -> list[Any]:
    """Repair ``log`` into ``out``, check what it says, and return the events of ``out``."""
    before = log.read_bytes()
    res = run("log", "repair", str(log), str(out))
    assert res.exit_code == 0, res.stderr
    assert res.stderr.strip().splitlines() == [f"dropped: {log}: {d}" for d in dropped]
    wrote, verdict = res.stdout.strip().splitlines()
    records = "1 record" if len(dropped) == 1 else f"{len(dropped)} records"
    assert wrote == f"wrote {out} ({kept} events kept, {records} dropped)"
    # then what kabucli audit finds the new log to be, as audit itself says it
    audit = run("audit", str(out))
    found = read_log(out, games.event_types, strict=False)
    if audit.exit_code == 0:
        state = "finished" if "finished)" in audit.stdout else "unfinished"
        assert verdict == f"audit of {out}: valid ({len(found.events)} events, {state})"
    else:  # audit's own words: 'invalid: OUT: event N: ACTOR 'ACTION': REASON'
        said = audit.stderr.strip().removeprefix(f"invalid: {out}: ")
        index, rest = said.split(": ", 1)
        assert verdict == f"audit of {out}: {index} breaks a rule: {rest}"
    assert log.read_bytes() == before
    events = read_log(out, games.event_types).events
    assert len(events) == kept
    return events


@pytest.mark.parametrize("src", KBL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_flipped_bit_costs_one_event(src: Path, tmp_path: Path) -> None:
    original = read_log(src, games.event_types).events
    data = v1_bytes(src, tmp_path)
    bounds = frames(data)
    k = len(bounds) // 2
    start, end = bounds[k]
    bad = bytearray(data)
    bad[end - 1] ^= 0x04
    log = damaged_copy(src, tmp_path, bytes(bad))
    events = repaired(log, tmp_path / "out.kbl", len(original) - 1,
                      [f"event {k} (bytes {start}-{end - 1}): corrupted: checksum does not match"])
    assert events == original[:k - 1] + original[k:]


@pytest.mark.parametrize("src", KBL[:3], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_damaged_length_is_read_past(src: Path, tmp_path: Path) -> None:
    original = read_log(src, games.event_types).events
    data = v1_bytes(src, tmp_path)
    start, end = frames(data)[3]
    log = damaged_copy(src, tmp_path, data[:start] + b"\x7f" + data[start + 1:])
    events = repaired(log, tmp_path / "out.jsonl", len(original) - 1, [
        f"event 3 (bytes {start}-{end - 1}): corrupted: its length runs past the end of the "
        "file, yet whole records follow"])
    assert events == original[:2] + original[3:]


def test_a_wiped_stretch_over_two_records_is_one_gap(tmp_path: Path) -> None:
    src = KBL[0]
    original = read_log(src, games.event_types).events
    data = v1_bytes(src, tmp_path)
    bounds = frames(data)
    start, _ = bounds[4]
    _, end = bounds[5]
    wipe_from, wipe_to = start + 3, end - 3
    log = damaged_copy(src, tmp_path, data[:wipe_from] + bytes(wipe_to - wipe_from)
                       + data[wipe_to:])
    events = repaired(log, tmp_path / "out.kbl", len(original) - 2, [
        f"event 4 (bytes {start}-{end - 1}): corrupted: an empty frame"])
    assert events == original[:3] + original[5:]


@pytest.mark.parametrize("src", JSONL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bad_lines_and_a_torn_last_line_are_left_out(src: Path, tmp_path: Path) -> None:
    original = read_log(src, games.event_types).events
    lines = v1_bytes(src, tmp_path).splitlines(keepends=True)
    k = len(lines) // 2
    start = sum(len(line) for line in lines[:k])
    lines[k] = lines[k].replace(b"{", b"[", 1)
    torn_at = sum(len(line) for line in lines[:-1])
    log = damaged_copy(src, tmp_path, b"".join(lines)[:-2])
    n = len(original)
    dropped = repaired(log, tmp_path / "out.jsonl", n - 2, [
        f"event {k} (bytes {start}-{start + len(lines[k]) - 1}): invalid record: "
        "Expected `object`, got `array`",
        f"event {n} (bytes {torn_at}-{len(log.read_bytes()) - 1}): truncated: the last line "
        "has no end"])
    assert dropped == original[:k - 1] + original[k:n - 1]


def test_a_whole_log_is_copied_as_it_is_and_audits(tmp_path: Path) -> None:
    for src in (KBL[0], JSONL[0]):
        out = tmp_path / f"out{src.suffix}"
        repaired(src, out, len(read_log(src, games.event_types).events), [])
        assert out.read_bytes() == src.read_bytes()
        v1 = damaged_copy(src, tmp_path, v1_bytes(src, tmp_path))  # undamaged
        out = tmp_path / f"out1{src.suffix}"
        repaired(v1, out, len(read_log(src, games.event_types).events), [])
        assert out.read_bytes() == v1.read_bytes()
        assert run("audit", str(out)).exit_code == 0


def test_a_repaired_log_missing_an_event_does_not_audit(tmp_path: Path) -> None:
    src = KBL[0]
    data = bytearray(v1_bytes(src, tmp_path))
    data[frames(bytes(data))[6][1] - 1] ^= 0x01
    log = damaged_copy(src, tmp_path, bytes(data))
    out = tmp_path / "out.kbl"
    assert run("log", "repair", str(log), str(out)).exit_code == 0
    assert run("audit", str(out)).exit_code == 1


def test_the_audit_line_of_a_repaired_log_is_audits_verdict_on_the_seed_commitment(
        tmp_path: Path) -> None:
    """A header whose seed commitment does not bind its seed: kabucli audit finds the log
    invalid, and so must the line log repair prints after it (it said 'valid')."""
    import json

    lines = JSONL[0].read_text(encoding="utf-8").split("\n")
    head = json.loads(lines[0])
    assert head.get("seed") is not None and head.get("commit") is None
    head |= {"commit": "00" * 32, "salt": "00" * 16}
    log = damaged_copy(JSONL[0], tmp_path, "\n".join([json.dumps(head), *lines[1:]]).encode())
    for out in (tmp_path / "out.jsonl", tmp_path / "out.kbl"):
        res = run("log", "repair", str(log), str(out))
        assert res.exit_code == 0, res.stderr
        audit = run("audit", str(out))
        assert audit.exit_code == 1
        assert audit.stderr.strip() == (f"invalid: {out}: the seed is not the one the "
                                        "header's commitment binds")
        assert res.stdout.strip().splitlines()[-1] == (
            f"audit of {out}: the seed is not the one the header's commitment binds")


def test_a_seed_changed_after_the_deal_is_named_by_repair_as_audit_names_it(
        tmp_path: Path) -> None:
    """A played game's seed changed in its header after the deal: audit names the seed its
    commitment does not bind, before the first move the new seed's deal makes impossible;
    the audit line log repair prints after its copy said that move instead."""
    import json

    log = tmp_path / "played.jsonl"
    res = runner.invoke(app, ["play", "dare", "-n", "2", "--bot", "p2=random", "--seed", "5",
                              "--commit", "--log", str(log), "--rule", "rounds=1"],
                        input="quit\n")
    assert res.exit_code == 0, res.output
    lines = log.read_text(encoding="utf-8").split("\n")
    head = json.loads(lines[0])
    head["seed"] = 6
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join([json.dumps(head), *lines[1:]]), encoding="utf-8")
    words = "the seed is not the one the header's commitment binds"
    audit = run("audit", str(changed))
    assert audit.exit_code == 1 and audit.stderr.strip() == f"invalid: {changed}: {words}"
    out = tmp_path / "out.jsonl"
    res = run("log", "repair", str(changed), str(out))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == f"audit of {out}: {words}"


def test_repair_refuses_to_write_over_its_input_or_another_file(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    shutil.copy(KBL[0], log)
    before = log.read_bytes()
    (tmp_path / "link.kbl").symlink_to(log)
    for dst in (log, tmp_path / "link.kbl"):
        res = run("log", "repair", str(log), str(dst), "--force")
        assert res.exit_code == 1
        assert res.stderr.strip() == (f"error: {dst}: cannot repair a log onto itself (the "
                                      "original stays as it is)")
    other = tmp_path / "other.kbl"
    other.write_bytes(b"keep me")
    res = run("log", "repair", str(log), str(other))
    assert res.exit_code == 1
    assert res.stderr.strip() == f"error: {other} already exists; add --force to overwrite it"
    assert other.read_bytes() == b"keep me"
    assert run("log", "repair", str(log), str(other), "--force").exit_code == 0
    assert other.read_bytes() == before == log.read_bytes()


def test_a_damaged_header_cannot_be_repaired(tmp_path: Path) -> None:
    data = bytearray(v1_bytes(KBL[0], tmp_path))
    data[20] ^= 0x01
    log = damaged_copy(KBL[0], tmp_path, bytes(data))
    out = tmp_path / "out.kbl"
    res = run("log", "repair", str(log), str(out))
    assert res.exit_code == 2
    assert res.stderr.strip() == f"error: {log}: header: corrupted: checksum does not match"
    assert not out.exists()


def test_kept_events_that_break_a_rule_are_refused_into_msgpack_with_exit_1(
        tmp_path: Path) -> None:
    """A JSON Lines log whose kept events break a rule where a line went missing is refused
    into the binary encoding (which holds only inputs), as log convert refuses it: exit 1, a
    log that breaks a rule (README), not 2; it exited 2 while log convert of the same events
    exited 1."""
    src = REPLAYS / "dare" / "2p-human-undo.jsonl"
    lines = src.read_text().splitlines(keepends=True)
    log = tmp_path / "damaged.jsonl"
    log.write_text("".join(lines[:5]) + "{garbage\n" + "".join(lines[6:]))
    out = tmp_path / "out.kbl"
    res = run("log", "repair", str(log), str(out))
    assert "cannot write the log" in res.stderr and "breaks" not in res.stdout
    assert res.exit_code == 1, res.output
    assert not out.exists()
    whole = tmp_path / "out.jsonl"
    assert run("log", "repair", str(log), str(whole)).exit_code == 0
    res = run("log", "convert", str(whole), str(out))
    assert res.exit_code == 1 and "cannot write the log" in res.stderr


@pytest.mark.parametrize("number", [10**20, -2**63 - 1])
def test_a_format_1_line_with_a_number_msgpack_cannot_hold_is_one_line_into_msgpack(
        tmp_path: Path, number: int) -> None:
    """A format 1 JSON Lines log repaired into the binary encoding is written as format 1
    msgpack, which holds integers from -2**63 to 2**64 - 1 only: a bet of 10**20 was an
    internal error (OverflowError). It is refused in one line, nothing is written, and JSON
    Lines still takes it."""
    src = write_v1(REPLAYS / "yatchaba" / "3p-book-amounts.kbl", tmp_path / "v1.jsonl")
    lines = src.read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith('{"e":"bet"'))
    lines[at] = re.sub(r'"amount":\d+', f'"amount":{number}', lines[at])
    assert str(number) in lines[at]
    src.write_text("".join(lines))
    out = tmp_path / "out.kbl"
    res = run("log", "repair", str(src), str(out))
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and f"event {at}:" in res.stderr, res.stderr
    assert "msgpack" in res.stderr and not out.exists()
    assert run("log", "repair", str(src), str(tmp_path / "out.jsonl")).exit_code == 0


def test_the_repair_example_of_log_format_md_is_what_repair_prints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/log-format.md's example, made as it shows it: the recorded 3p-tie-order.jsonl with
    its first showdown's `"show"` typed `"show#,"`; every line the doc shows is printed."""
    doc = (REPLAYS.parent / "docs" / "log-format.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n(kabucli log repair game\.jsonl fixed\.jsonl\n.*?)```", doc, re.S)
    assert block is not None
    shown = block[1].splitlines()
    lines = (REPLAYS / "dare" / "3p-tie-order.jsonl").read_text(encoding="utf-8").split("\n")
    assert lines[8].startswith('{"e":"show",')
    lines[8] = lines[8].replace('"show"', '"show#,"')
    monkeypatch.chdir(tmp_path)
    Path("game.jsonl").write_text("\n".join(lines), encoding="utf-8")
    res = run(*shown[0].split()[1:])
    assert res.exit_code == 0
    assert sorted(res.output.splitlines()) == sorted(shown[1:])


def test_a_cut_json_lines_log_repaired_into_binary_says_the_events_derived_again(
        tmp_path: Path) -> None:
    # ('wrote ... (20 events kept, 1 record dropped)' then 'valid (24 events, finished)': the
    # binary log holds inputs, and the engine derives the end of the round again; probe DL)
    src = REPLAYS / "dare" / "3p-tie-order.jsonl"
    lines = src.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(lines[:21]) + lines[21][:30])  # the header, 20 events, a torn one
    out = tmp_path / "fixed.kbl"
    res = run("log", "repair", str(cut), str(out))
    assert res.exit_code == 0, res.stderr
    total = len(read_log(out, games.event_types).events)
    assert total > 20
    assert res.stdout.strip().splitlines() == [
        f"wrote {out} (20 events kept, 1 record dropped)",
        f"audit of {out}: valid ({total} events, finished; the {total - 20} events after the "
        "20 kept derived again by the engine)"]
