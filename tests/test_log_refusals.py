"""Refusals of the log reader pinned by mutation testing (probe AX): each test builds a log a
stranger could hand over and checks kabucli's answer, one clear line and a non-zero exit for
what it refuses (never a traceback), and a clean read for what it must accept."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from logbytes import bodies, frames, rebuilt
from typer.testing import CliRunner, Result

from kabucli.cli import app
from kabucli.log import MAGIC, MAX_TIME, _pack, frame

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
runner = CliRunner()


def run(*args: str) -> Result:
    res = runner.invoke(app, list(args), env=ENV)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def refused(res: Result, code: int = 2) -> str:
    """The one line on stderr of a command that refused its log with ``code``."""
    assert res.exit_code == code, (res.exit_code, res.stdout[-500:], res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert "Traceback" not in res.output and "internal error" not in res.output
    return lines[0]


TIMED = REPLAYS / "kazu-tori" / "4p-physical-timed-dispute.kbl"


def _timed_with_dt(tmp_path: Path, dt: int) -> Path:
    """The timed real-table replay, its second input entered ``dt`` ms after the first."""
    parts = bodies(TIMED.read_bytes())
    records = msgspec.msgpack.decode(parts[2])
    assert records[0][1] > 0  # [code, dt, fields...]
    records[0][1] = dt
    path = tmp_path / f"dt{dt}.kbl"
    path.write_bytes(rebuilt([parts[0], parts[1], msgspec.msgpack.encode(records), *parts[3:]]))
    return path


def test_a_time_step_of_zero_ms_is_read_and_a_negative_one_is_refused(tmp_path: Path) -> None:
    # two inputs entered in the same millisecond are a time step of 0: the log is sound
    same_ms = _timed_with_dt(tmp_path, 0)
    assert run("audit", str(same_ms)).exit_code == 0
    assert run("replay", str(same_ms)).exit_code == 0
    # a step back in time (a negative dt) is no time kabucli writes
    back = _timed_with_dt(tmp_path, -1)
    for args in (["audit", str(back)], ["replay", str(back)]):
        line = refused(run(*args))
        assert f"{back}: event " in line and "invalid record: Expected `int` >= 0" in line, line


def _timed_at(tmp_path: Path, clock: int, last_dt: int) -> Path:
    """The timed real-table replay started at ``clock``, every input entered at once, and the
    last one ``last_dt`` ms later."""
    parts = bodies(TIMED.read_bytes())
    header = msgspec.msgpack.decode(parts[0])
    header["clock"] = clock
    blocks = [msgspec.msgpack.decode(b) for b in parts[1:]]
    for block in blocks:
        for rec in block:
            rec[1] = 0
    blocks[-1][-1][1] = last_dt
    path = tmp_path / f"clock{clock}-{last_dt}.kbl"
    path.write_bytes(rebuilt([msgspec.msgpack.encode(header),
                              *(msgspec.msgpack.encode(b) for b in blocks)]))
    return path


def test_a_clock_at_the_last_ms_of_9999_is_read_and_one_ms_later_is_refused(
        tmp_path: Path) -> None:
    last = _timed_at(tmp_path, MAX_TIME, 0)
    assert run("audit", str(last)).exit_code == 0
    res = run("replay", str(last))
    assert res.exit_code == 0, res.output
    assert "  1 23:59:59.999 table" in res.stdout, res.stdout[:2000]
    late = _timed_at(tmp_path, MAX_TIME + 1, 0)
    for args in (["audit", str(late)], ["replay", str(late)]):
        line = refused(run(*args))
        assert f"{late}: header: invalid record: clock {MAX_TIME + 1} is out of range" in line
    # an input entered after the last ms of 9999
    after = _timed_at(tmp_path, MAX_TIME, 1)
    for args in (["audit", str(after)], ["replay", str(after)]):
        line = refused(run(*args))
        assert "invalid record: a time after the end of 9999" in line, line


def test_a_time_after_2100_is_shown_to_the_millisecond() -> None:
    # ms / 1000 as a float lost the last millisecond of times after about 2100: a log started
    # at the last ms of 9999 showed its events at 23:59:59.998
    from kabucli.render import clock_text

    for ms, text in ((MAX_TIME, "23:59:59.999"), (18_984_960_313_911, "08:05:13.911"),
                     (226_928_658_041_849, "02:20:41.849"), (0, "00:00:00.000"),
                     (1_795_696_388_465, "12:33:08.465")):
        assert clock_text(ms) == text, ms


def test_a_cut_frame_before_megabytes_of_frames_that_fail_their_checksum_gives_up_the_search(
        tmp_path: Path) -> None:
    """A frame whose length runs past the end is a torn tail only if no whole frame follows
    its start, so the reader searches on. Every 9 bytes here start a frame of nearly 1 MiB
    that fails its checksum: checking them all is 300,000 checksums of 1 MiB (hours); the
    search gives up once its work passes a few times the bytes searched."""
    import subprocess
    import sys
    import time
    import zlib

    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    header = bodies(src.read_bytes())[0]
    bait = (b"\x00\x0f\xff\xff" + b"\x00\x00\x00\x00" + b"\x80") * (3 * 2**20 // 9)
    assert zlib.crc32(bait[8:8 + 0x0FFFFF]) != 0
    cut = (len(bait) + 100).to_bytes(4, "big") + b"\x00\x00\x00\x00"
    crafted = tmp_path / "bait.kbl"
    crafted.write_bytes(MAGIC + frame(_pack(header)) + cut + bait)
    began = time.monotonic()
    res = subprocess.run([sys.executable, "-m", "kabucli", "audit", str(crafted)],
                         capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, **ENV})
    assert time.monotonic() - began < 60
    assert res.returncode == 2, res
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr, res.stderr
    assert lines[0].startswith(f"unreadable: {crafted}: event "), lines[0]
    assert lines[0].endswith(": corrupted: its length runs past the end of the file, and what "
                             "follows is too long to search"), lines[0]


def test_repair_drops_one_stray_byte_before_a_record_and_keeps_that_record(
        tmp_path: Path) -> None:
    """A byte slipped in before a record: what starts there is no frame that checks, and the
    next one starts one byte on. Repair drops that byte alone and keeps every event."""
    from v1logs import write_v1

    from kabucli import games
    from kabucli.log import read_log

    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    original = read_log(src, games.event_types).events
    data = write_v1(src, tmp_path / "v1.kbl").read_bytes()
    at = frames(data)[3][0]
    log = tmp_path / "stray.kbl"
    log.write_bytes(data[:at] + b"\x00" + data[at:])
    line = refused(run("audit", str(log)))
    assert line.startswith(f"unreadable: {log}: event 3: corrupted"), line
    out = tmp_path / "out.kbl"
    res = run("log", "repair", str(log), str(out))
    assert res.exit_code == 0, res.output
    assert res.stderr.strip().splitlines() == [
        f"dropped: {log}: event 3 (bytes {at}-{at}): corrupted: an empty frame"], res.stderr
    assert f"wrote {out} ({len(original)} events kept, 1 record dropped)" in res.stdout
    assert read_log(out, games.event_types).events == original


def test_a_time_written_with_leading_zeros_is_not_json_and_is_refused(tmp_path: Path) -> None:
    """`"t":0001795696390119` is no JSON number (JSON readers refuse the line); the reader
    took the time out of the line with a pattern before decoding it and read the log valid,
    under the clean log's digest."""
    import re

    log = tmp_path / "t.jsonl"
    assert run("log", "convert", str(TIMED), str(log)).exit_code == 0
    lines = log.read_text().splitlines()
    timed = [i for i, line in enumerate(lines) if re.search(r',"t":\d+}$', line)]
    for i, zeros in ((timed[1], "0"), (timed[-1], "000")):
        edited = list(lines)
        edited[i] = re.sub(r',"t":(\d+)}$', rf',"t":{zeros}\1}}', edited[i])
        bad = tmp_path / "zeros.jsonl"
        bad.write_text("\n".join(edited) + "\n")
        for args in (["audit", str(bad)], ["replay", str(bad)]):
            line = refused(run(*args))
            assert f"{bad}: event {i}: invalid record: " in line, line


# -- forfeits and undos in a log: Match.why_not's refusals ------------------------------------

FORFEIT = '{"e":"forfeit","seat":2,"reason":"crashed"}'


def _dare_log(tmp_path: Path, name: str, p2: str, lines: slice, tail: list[str]) -> Path:
    """A Dare replay as JSON Lines with p2 played by ``p2``, its events ``lines`` (1 is the
    first), then the lines ``tail``."""
    import json

    whole = tmp_path / "whole.jsonl"
    if not whole.exists():
        src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
        assert run("log", "convert", str(src), str(whole)).exit_code == 0
    head, *events = whole.read_text().splitlines()
    header = json.loads(head)
    header["seats"][1]["control"] = p2
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join([json.dumps(header, separators=(",", ":")),
                               *events[lines], *tail]) + "\n")
    return path


@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_bot_of_the_users_own_may_forfeit_and_nothing_follows(
        tmp_path: Path, seat: int) -> None:
    import json

    log = _dare_log(tmp_path, "forfeit", "bot:cmd:./mybot", slice(0, 5),
                    [FORFEIT.replace('"seat":2', f'"seat":{seat}')])
    head, *rest = log.read_text().splitlines()
    header = json.loads(head)  # the seat that forfeits is the user's bot
    for i, s in enumerate(header["seats"], 1):
        s["control"] = "bot:cmd:./mybot" if i == seat else "bot:best"
    log.write_text("\n".join([json.dumps(header), *rest]) + "\n")
    res = run("audit", str(log))
    assert res.exit_code == 0 and "(6 events, finished;" in res.stdout, res.output


CASES = {  # name: (p2's control, events kept, inputs kept, lines after, event refused, why)
    "forfeit-of-a-person": ("human", 5, 1, [FORFEIT], 6,
                            "referee 'forfeit p2 crashed': p2 is not a bot of the user's own "
                            "(cmd: or py:), the only seats that forfeit"),
    "forfeit-of-a-built-in-bot": ("bot:best", 5, 1, [FORFEIT], 6,
                                  "p2 is not a bot of the user's own (cmd: or py:), the only "
                                  "seats that forfeit"),
    "forfeit-of-no-seat": ("bot:cmd:./mybot", 5, 1, [FORFEIT.replace('"seat":2', '"seat":9')],
                           6, "referee 'forfeit p9 crashed': there is no seat p9 (seats are "
                           "p1-p3)"),
    "a-move-after-a-forfeit": ("bot:cmd:./mybot", 5, 1, [FORFEIT, "next"], 7,
                               "p3 'p3 sets 2-3-8 3-5-5': the match ended when p2 forfeited "
                               "it"),
    "forfeit-of-seat-0": ("bot:cmd:./mybot", 5, 1, [FORFEIT.replace('"seat":2', '"seat":0')],
                          6, "referee 'forfeit p0 crashed': there is no seat p0 (seats are "
                          "p1-p3)"),
    "forfeit-after-the-end": ("bot:cmd:./mybot", 24, 6, [FORFEIT], 25,
                              "referee 'forfeit p2 crashed': the match is already over"),
    "undo-of-nothing": ("human", 4, 0, ['{"e":"undo"}'], 5,
                        "referee 'undo': there is nothing to take back"),
    # the match is over once a bot forfeits it: the streamed reader took the undo back as
    # any other, playing the inputs before it again into a match with no forfeit (probe EL:
    # a mutant dropping its forfeit check survived)
    "an-undo-after-a-forfeit": ("bot:cmd:./mybot", 5, 1, [FORFEIT, '{"e":"undo"}'], 7,
                                "referee 'undo': the match ended when p2 forfeited it"),
}


def _binary(tmp_path: Path, name: str, p2: str, inputs: int, tail: list[str]) -> Path:
    """The same log in format 2's binary encoding: the replay's first ``inputs`` inputs, then
    those of ``tail`` (kabucli writes no such log: these records are encoded here)."""
    import json

    from kabucli.compact import codec
    from kabucli.games import event_types
    from kabucli.log import _with_undo

    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    head, block = bodies(src.read_bytes())
    header = msgspec.msgpack.decode(head)
    header["seats"][1]["control"] = p2
    records = msgspec.msgpack.decode(block)
    rec = codec(_with_undo(event_types("dare")), False)
    types = {t.__struct_config__.tag: t for t in _with_undo(event_types("dare"))}
    extra = []
    for line in tail:
        if line == "next":
            extra.append(records[inputs])
            continue
        fields = json.loads(line)
        ev = types[fields.pop("e")](**fields)
        extra.append(msgspec.msgpack.decode(msgspec.msgpack.encode(rec.record(ev, 0))))
    path = tmp_path / f"{name}.kbl"
    path.write_bytes(rebuilt([msgspec.msgpack.encode(header),
                              msgspec.msgpack.encode(records[:inputs] + extra)]))
    return path


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("encoding", ["jsonl", "kbl"])
def test_forfeits_and_undos_a_log_cannot_hold_are_refused(
        tmp_path: Path, case: str, encoding: str) -> None:
    p2, events, inputs, tail, index, why = CASES[case]
    if encoding == "kbl":
        log = _binary(tmp_path, case, p2, inputs, tail)
    else:
        if "next" in tail:  # the move made next in the replay
            moves = _dare_log(tmp_path, "moves", p2, slice(0, None), []).read_text()
            tail = [t if t != "next" else moves.splitlines()[events + 1] for t in tail]
        log = _dare_log(tmp_path, case, p2, slice(0, events), tail)
    for args in (["audit", str(log)], ["replay", str(log)]):
        line = refused(run(*args), 1)
        assert f"{log}: event {index}: " in line and line.endswith(why), (args, line)


def test_a_race_after_a_forfeit_is_refused_by_the_streamed_audit_too(tmp_path: Path) -> None:
    """Once a bot forfeits, the match is over: a race mark after the forfeit (Kazu-Tori's
    bots racing for the card p1 flipped) breaks a rule. Replay said so; the streamed audit
    of the same binary log drew the race from the seed after the forfeit and called the log
    valid and finished, and log convert wrote it out as JSON Lines that audit then refused
    (probe EL)."""
    from kabucli.compact import codec
    from kabucli.games import event_types
    from kabucli.log import _with_undo

    played = tmp_path / "flip.kbl"
    res = runner.invoke(app, ["play", "kazu-tori", "--seed", "1", "--players", "3",
                              "--bot=2=random", "--bot=3=random", "--script", "-", "--log",
                              str(played), "-q"], input="flip\nundo\n", env=ENV)
    assert "took back" in res.output, res.output
    head, *blocks = bodies(played.read_bytes())
    header = msgspec.msgpack.decode(head)
    header["seats"][1]["control"] = "bot:cmd:./mybot"
    flip = msgspec.msgpack.decode(blocks[0])[0]  # p1's flip (then the undo, left out)
    types = _with_undo(event_types("kazu-tori"))
    rec = codec(types, True)
    forfeit = next(t for t in types if t.__struct_config__.tag == "forfeit")
    records = [flip, *(msgspec.msgpack.decode(msgspec.msgpack.encode(rec.record(ev, 0)))
                       for ev in (forfeit(seat=2, reason="crashed"), None))]  # None: a race
    log = tmp_path / "race-after-forfeit.kbl"
    log.write_bytes(rebuilt([msgspec.msgpack.encode(header), msgspec.msgpack.encode(records)]))
    for args in (["audit", str(log)], ["replay", str(log)]):
        line = refused(run(*args), 1)
        assert f"{log}: event 4: table 'race p1=" in line, (args, line)
        assert line.endswith("the match ended when p2 forfeited it"), (args, line)


# -- a real table's header claims no seed ------------------------------------------------------

REAL_TABLE = REPLAYS / "dare" / "3p-physical-match.kbl"
SALT = "00" * 16


@pytest.mark.parametrize(("claims", "field"), [
    ({"seed": 5}, "seed"),
    ({"seed": 5, "shuffle": "blake2b-fy-v1"}, "seed"),
    ({"shuffle": "blake2b-fy-v1"}, "shuffle"),
    # audit said "valid ... seed commitment checked" of a game whose cards were typed in
    ({"seed": 5, "shuffle": "blake2b-fy-v1", "salt": SALT, "commit": "commit"}, "seed"),
    # a commitment alone, with no seed to bind (probe DY: a reader that checked only the
    # seed and the shuffle read it)
    ({"salt": SALT, "commit": "commit"}, "commit"),
], ids=["seed", "seed-shuffle", "shuffle", "committed-seed", "commitment-alone"])
@pytest.mark.parametrize("encoding", ["jsonl", "kbl"])
def test_a_real_tables_log_that_claims_a_seed_is_refused(
        tmp_path: Path, claims: dict[str, object], field: str, encoding: str) -> None:
    """At a real table the referee types the cards in and no seed deals them (play --commit
    is refused there): a header that says a seed, a shuffle or a commitment says nothing
    true, and a committed seed would read as a proven deal."""
    from kabucli.compact import seed_commitment

    head, *blocks = bodies(REAL_TABLE.read_bytes())
    header = msgspec.msgpack.decode(head)
    assert header["mode"] == "physical" and header["seed"] is None
    header.update(claims)
    if "commit" in claims:
        header["commit"] = seed_commitment(5, SALT)
    log = tmp_path / "claims.kbl"
    log.write_bytes(rebuilt([msgspec.msgpack.encode(header), *blocks]))
    if encoding == "jsonl":  # (the same header as a JSON Lines line, the events after it)
        clean = tmp_path / "clean.jsonl"
        assert run("log", "convert", str(REAL_TABLE), str(clean)).exit_code == 0
        import json

        events = clean.read_text().splitlines()[1:]
        log = tmp_path / "claims.jsonl"
        log.write_text("\n".join([json.dumps(header, separators=(",", ":")), *events]) + "\n")
    for args in (["audit", str(log)], ["replay", str(log)]):
        line = refused(run(*args))
        assert line.endswith(f"{log}: header: invalid record: a real table's log has no "
                             f"{field} (the referee types the cards in) - at `$.{field}`"), line


# -- what an audit reports of undos: the same whichever encoding holds the log ----------------

UNDONE = {  # replay: (the undos, those after cards were dealt or shown since their move)
    "dare/2p-human-undo.jsonl": ([11, 12], [12]),
    "dare/3p-physical-match.kbl": ([7], None),
    "kabu-tsukuri/3p-physical-match.kbl": ([29], None),
    "kazu-tori/4p-physical-timed-dispute.kbl": ([5], None),
}


@pytest.mark.parametrize("name", list(UNDONE))
def test_the_undos_an_audit_reports_are_the_same_in_either_encoding(
        tmp_path: Path, name: str) -> None:
    """A binary log's undos are found by the engine as it streams the inputs, a JSON Lines
    log's from the events it keeps (log._takebacks): both name the same events."""
    import json

    src = REPLAYS / name
    other = tmp_path / ("other.kbl" if src.suffix == ".jsonl" else "other.jsonl")
    assert run("log", "convert", str(src), str(other)).exit_code == 0
    for path in (src, other):
        res = run("audit", "--json", str(path))
        assert res.exit_code == 0, res.output
        found = json.loads(res.stdout)[0]
        assert (found["taken_back"], found.get("taken_back_after_cards_shown")) == \
            UNDONE[name], path


# -- a block's count, read from its array header before anything is decoded -------------------

def _array_head(form: str, n: int) -> bytes:
    """A msgpack array header for ``n`` items in ``form`` (any form may hold a short array)."""
    return {"fix": bytes((0x90 | n,)), "16": b"\xdc" + n.to_bytes(2, "big"),
            "32": b"\xdd" + n.to_bytes(4, "big")}[form]


@pytest.mark.parametrize("form", ["fix", "16", "32"])
@pytest.mark.parametrize(("limit", "why"), [
    ("MAX_INPUTS", "invalid record: more than 5 inputs, the most kabucli reads"),
    ("MAX_BLOCK_RECORDS", "invalid record: a block of 6 records (a block holds at most 5)"),
])
def test_a_block_past_a_limit_is_refused_by_its_count_in_every_array_form(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str, limit: str,
        why: str) -> None:
    """The limits are checked on the count the block's array header gives, before its records
    are decoded; msgpack gives a count in three forms, and another writer may use any."""
    import kabucli.log

    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    head, block = bodies(src.read_bytes())
    records = msgspec.msgpack.decode(block)
    assert len(records) == 6 and block[0] == 0x96
    log = tmp_path / f"{form}.kbl"
    log.write_bytes(rebuilt([head, _array_head(form, 6) + block[1:]]))
    assert run("audit", str(log)).exit_code == 0  # the same records: the log is sound
    monkeypatch.setattr(kabucli.log, limit, 5)
    for args in (["audit", str(log)], ["replay", str(log)]):
        line = refused(run(*args))
        assert f"{log}: event 5: {why}" in line, (args, line)  # (replay: "shown up to ...")


def test_a_logs_inputs_in_blocks_of_any_size_read_the_same_with_the_same_digest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A block is any number of records (kabucli writes one per person's input, or one at a
    bot game's end): 15 records (the last fixarray), 16 (the first array16) and the rest read
    as one block of 35 does, under the same digest."""
    src = REPLAYS / "kazu-tori" / "4p-oni-last-card-ends-game.kbl"
    head, block = bodies(src.read_bytes())
    records = msgspec.msgpack.decode(block)
    assert len(records) == 35
    parts = [msgspec.msgpack.encode(records[a:b]) for a, b in ((0, 15), (15, 31), (31, 35))]
    assert (parts[0][0], parts[1][0]) == (0x9F, 0xDC)
    split = tmp_path / "split.kbl"
    split.write_bytes(rebuilt([head, *parts]))
    whole, res = run("audit", str(src)), run("audit", str(split))
    assert (whole.exit_code, res.exit_code) == (0, 0), res.output
    assert whole.stdout.split()[-1] == res.stdout.split()[-1]  # the digest
    assert res.stdout.splitlines()[0].removeprefix(f"valid: {split}") == \
        whole.stdout.splitlines()[0].removeprefix(f"valid: {src}")
    # and the fixarray of 15 is counted as 15 before it is decoded
    import kabucli.log

    monkeypatch.setattr(kabucli.log, "MAX_BLOCK_RECORDS", 14)
    line = refused(run("audit", str(split)))
    assert line.endswith(": invalid record: a block of 15 records (a block holds at most 14)")


# -- header fields ------------------------------------------------------------------------------

@pytest.mark.parametrize(("field", "value"), [
    ("clock", 1_795_696_388_465), ("commit", "ab" * 32)])
@pytest.mark.parametrize("suffix", [".jsonl", ".kbl"])
def test_a_format_1_header_with_a_field_of_format_2_is_refused(
        tmp_path: Path, field: str, value: object, suffix: str) -> None:
    """Format 1 had no clock, commitment or salt: a format 1 header that gives one is
    refused (a clock would make a format 1 log timed, which no format 1 writer made)."""
    import json
    import zlib

    from v1logs import write_v1

    from kabucli.log import _FRAME, MAGIC1

    v1 = write_v1(REPLAYS / "dare" / "3p-showdown-outright.kbl", tmp_path / f"v1{suffix}")
    if suffix == ".jsonl":
        head, rest = v1.read_bytes().split(b"\n", 1)
        header = json.loads(head)
        header[field] = value
        v1.write_bytes(json.dumps(header, separators=(",", ":")).encode() + b"\n" + rest)
    else:
        data = v1.read_bytes()
        size, _ = _FRAME.unpack_from(data, len(MAGIC1))
        start = len(MAGIC1) + _FRAME.size
        header = msgspec.msgpack.decode(data[start:start + size])
        header[field] = value
        body = msgspec.msgpack.encode(header)
        v1.write_bytes(MAGIC1 + _FRAME.pack(len(body), zlib.crc32(body)) + body +
                       data[start + size:])
    for args in (["audit", str(v1)], ["replay", str(v1)]):
        line = refused(run(*args))
        assert line.endswith(f"{v1}: header: invalid record: unknown field - at `$.{field}`"), \
            line


@pytest.mark.parametrize("suffix", [".jsonl", ".kbl"])
def test_convert_refuses_a_format_1_log_whose_started_is_not_a_date(
        tmp_path: Path, suffix: str) -> None:
    """A format 1 header is read as it was, whatever its `started` holds; a format 2 header
    with such a `started` is refused, so converting the format 1 log would write a log no
    reader takes: convert refuses it and writes nothing (probe DY: without the check it wrote
    one)."""
    import json

    from v1logs import write_v1

    v1 = write_v1(REPLAYS / "dare" / "3p-showdown-outright.kbl", tmp_path / "v1.jsonl")
    head, rest = v1.read_bytes().split(b"\n", 1)
    header = json.loads(head)
    header["started"] = "2026-02-30T10:00:00+00:00"
    v1.write_bytes(json.dumps(header, separators=(",", ":")).encode() + b"\n" + rest)
    assert run("replay", str(v1)).exit_code == 0  # (read as it was)
    dst = tmp_path / f"v2{suffix}"
    line = refused(run("log", "convert", str(v1), str(dst)))
    assert line.endswith("a format 2 log refuses such a header, so this format 1 log is not "
                         "converted (nothing written)"), line
    assert f"{v1}: header: " in line, line
    assert not dst.exists()


@pytest.mark.parametrize("seat", [0, 1, 2])  # (the first seat too: probe DY)
def test_a_seat_control_that_is_not_human_or_bot_kind_names_its_seat(
        tmp_path: Path, seat: int) -> None:
    head, *blocks = bodies((REPLAYS / "dare" / "3p-showdown-outright.kbl").read_bytes())
    header = msgspec.msgpack.decode(head)
    header["seats"][seat]["control"] = "robot"
    log = tmp_path / "robot.kbl"
    log.write_bytes(rebuilt([msgspec.msgpack.encode(header), *blocks]))
    line = refused(run("audit", str(log)))
    assert line.endswith("header: invalid record: control 'robot' is not human or bot:KIND - at "
                         f"`$.seats[{seat}].control`"), line


def _sixteen(value: object) -> bytes:
    """``value`` in msgpack with every map and array in its 16-bit form (map16, array16) and
    every string a str8: forms another writer may use for any size."""
    if isinstance(value, str):
        data = value.encode()
        return b"\xd9" + bytes((len(data),)) + data
    if isinstance(value, dict):
        return b"\xde" + len(value).to_bytes(2, "big") + b"".join(
            _sixteen(k) + _sixteen(v) for k, v in value.items())
    if isinstance(value, list):
        return b"\xdc" + len(value).to_bytes(2, "big") + b"".join(_sixteen(v) for v in value)
    return msgspec.msgpack.encode(value)


def test_a_header_in_16_bit_forms_reads_the_same_and_a_key_twice_in_it_is_refused(
        tmp_path: Path) -> None:
    """The walk that looks for a key given twice steps over map16 and array16 (a key twice
    in a seat inside the seats' array16, or at the top of the map16, is refused)."""
    src = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    head, *blocks = bodies(src.read_bytes())
    header = msgspec.msgpack.decode(head)
    body = _sixteen(header)
    same = tmp_path / "same.kbl"
    same.write_bytes(rebuilt([body, *blocks]))
    first, second = run("audit", str(src)), run("audit", str(same))
    assert (first.exit_code, second.exit_code) == (0, 0), second.output
    assert first.stdout.split()[-1] == second.stdout.split()[-1]  # the digest
    # the last seat's map16 with its "name" given again at its end
    seat = _sixteen(header["seats"][-1])
    twice_seat = (b"\xde\x00\x03" + seat[3:] + _sixteen("name") + _sixteen("x"))
    assert seat in body
    # the top map16 with "seed" given again at its end
    top = b"\xde" + (len(header) + 1).to_bytes(2, "big") + body[3:] + _sixteen("seed") + \
        msgspec.msgpack.encode(5)
    for name, crafted, key in (("seat", body.replace(seat, twice_seat, 1), "'name'"),
                               ("top", top, "'seed'")):
        log = tmp_path / f"{name}.kbl"
        log.write_bytes(rebuilt([crafted, *blocks]))
        line = refused(run("audit", str(log)))
        assert f"header: invalid record: the key {key} is given twice" in line, (name, line)


@pytest.mark.parametrize("name", ["3p-tie-order.jsonl", "3p-showdown-outright.kbl"])
def test_a_bad_header_is_named_the_header_by_read_header_as_by_read_log(
        tmp_path: Path, name: str) -> None:
    """``read_header`` (what ``kabucli sim`` reads a log's header with, to reuse a run's logs)
    names a bad header as ``read_log`` does: "header", not "event 1" (a mutant that named it
    so survived every test)."""
    from kabucli import games
    from kabucli.errors import LogError
    from kabucli.log import read_header, read_log

    src = REPLAYS / "dare" / name
    bad = tmp_path / name
    if name.endswith(".jsonl"):
        lines = src.read_text().splitlines()
        bad.write_text('{"v":2,"game":"dare"}\n' + "\n".join(lines[1:]) + "\n")
    else:
        parts = bodies(src.read_bytes())
        parts[0] = msgspec.msgpack.encode({"v": 2, "game": "dare"})
        bad.write_bytes(rebuilt(parts))
    said = []
    for read in (read_header, read_log):
        with pytest.raises(LogError) as exc:
            read(bad, games.event_types)
        said.append(str(exc.value))
    assert said[0] == said[1] and said[0].startswith(f"{bad}: header: "), said


def test_a_header_naming_another_game_than_its_events_is_refused_as_the_header_by_every_command(
        tmp_path: Path) -> None:
    # (audit, resume and log convert said the first event's record, unknown to that game,
    # while replay said the header: the header is checked against its game before any event)
    lines = (REPLAYS / "dare" / "2p-human-undo.jsonl").read_text().splitlines()
    header = msgspec.json.decode(lines[0])
    header["game"] = "kazu-tori"
    log = tmp_path / "other.jsonl"
    log.write_text("\n".join([msgspec.json.encode(header).decode(), *lines[1:]]) + "\n")
    said = ("header: unknown house rule 'ante' for kazu-tori (known: limit, tie, max_flips, "
            "chips)")
    assert refused(run("audit", str(log))) == f"unreadable: {log}: {said}"
    for args in (["replay", str(log)], ["resume", str(log)],
                 ["log", "convert", str(log), str(tmp_path / "copy.kbl")]):
        assert refused(run(*args)) == f"error: {log}: {said}", args
    assert not (tmp_path / "copy.kbl").exists()
