"""Resume is safe with untrusted logs: it never starts a bot program or class that a log names
(the person resuming names it again), and it never destroys intact records: only a torn last
record is taken off, and kept in a side file."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from logbytes import frames
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.errors import LogError
from kabucli.log import LogWriter, SeatInfo, read_log, write_log
from kabucli.session import seat_kinds

runner = CliRunner()
# Seed 7, p1 a person, p2 and p3 bots; p1 quits at the first prompt: an unfinished game.
HUMAN_GAME = ("play", "dare", "--seed", "7", "--bot", "2=best", "--bot", "3=random",
              "-r", "rounds=2")
# A program and a Python class that leave a marker file when they are run, then play.
CMD_BOT = """
import json, sys
open(sys.argv[1], "w").close()
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        print(msg["legal"][-1], flush=True)
"""
PY_BOT = """
open({marker!r}, "w").close()

class Bot:
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        return game.legal(state, seat)[0]
"""


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def one_line(res: Any, code: int) -> str:
    assert res.exit_code == code, (res.exit_code, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    return str(lines[0])


def quit_game(path: Path) -> Path:
    assert run(*HUMAN_GAME, "--log", str(path), input="quit\n").exit_code == 0
    return path


def torn_log(tmp_path: Path) -> tuple[Path, int, bytes, Any]:
    """A quit game's binary log whose last record is torn five bytes into its frame: the log,
    where that record starts, the torn bytes, and the log as read (not strict)."""
    log = quit_game(tmp_path / "g.kbl")
    data = log.read_bytes()
    start, _ = frames(data)[-1]
    torn = data[:start + 5]
    log.write_bytes(torn)
    return log, start, torn, read_log(log, games.event_types, strict=False)


def with_control(log: Path, seat: int, control: str) -> Path:
    """``log`` written again with seat ``seat``'s control replaced (as a forged log would)."""
    data = read_log(log, games.event_types)
    seats = list(data.header.seats)
    seats[seat - 1] = SeatInfo(seats[seat - 1].name, control)
    header = msgspec.structs.replace(data.header, seats=seats)
    log.unlink()
    write_log(log, header, data.events, data.fmt)
    return log


@pytest.fixture
def short_path() -> Iterator[Path]:
    """A folder of a short name for the bots' files: a bot's kind holds its folder twice and
    kabucli shows a kind whole up to 200 characters (pytest's tmp_path, under xdist's workers
    longer still, made it longer)."""
    path = Path(tempfile.mkdtemp(prefix="kb"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def user_bots(tmp_path: Path) -> dict[str, tuple[str, Path]]:
    """kind -> (the bot's kind text, the marker file it creates when run)."""
    cmd_marker, py_marker = tmp_path / "cmd-ran", tmp_path / "py-ran"
    (tmp_path / "cmdbot.py").write_text(CMD_BOT)
    (tmp_path / "pybot.py").write_text(PY_BOT.format(marker=str(py_marker)))
    return {"cmd": (f"cmd:{sys.executable} {tmp_path / 'cmdbot.py'} {cmd_marker}", cmd_marker),
            "py": (f"py:{tmp_path / 'pybot.py'}:Bot", py_marker)}


# -- a log never makes kabucli run code ---------------------------------------------------

@pytest.mark.parametrize("name", ["g.kbl", "g.jsonl"])
@pytest.mark.parametrize("kind", ["cmd", "py"])
def test_resume_never_starts_a_bot_the_log_names(tmp_path: Path, short_path: Path, kind: str,
                                                 name: str) -> None:
    bot, marker = user_bots(short_path)[kind]
    log = with_control(quit_game(tmp_path / name), 2, f"bot:{bot}")
    before = log.read_bytes()
    line = one_line(run("resume", str(log), input="pass\n" * 9), 1)
    placeholder = "cmd:COMMAND" if kind == "cmd" else "py:FILE.py:CLASS"
    assert line.startswith(f"error: {log}: the log names bots of your own (p2 '{bot}'); ")
    assert line.endswith(f"name each again, e.g. --bot 2={placeholder}")
    assert not marker.exists()
    assert log.read_bytes() == before
    assert list(tmp_path.glob("*.torn-*")) == []


@pytest.mark.parametrize("kind", ["cmd", "py"])
def test_resume_runs_a_user_bot_named_again_and_keeps_the_header(tmp_path: Path,
                                                                 short_path: Path,
                                                                 kind: str) -> None:
    bot, marker = user_bots(short_path)[kind]
    log = with_control(quit_game(tmp_path / "g.kbl"), 2, f"bot:{bot}")
    header = read_log(log, games.event_types).header
    res = run("resume", str(log), "--bot", f"2={bot}", input="pass\n" * 9)
    assert res.exit_code == 0, res.stderr
    assert marker.exists()
    data = read_log(log, games.event_types)
    assert data.header == header
    audit = run("audit", str(log))
    assert audit.exit_code == 0, audit.stderr
    assert audit.stdout.splitlines()[0] == (f"valid: {log} ({len(data.events)} events, finished; "
                                    f"user's bot, not run: p2 '{bot}')")


def test_resume_takes_the_time_limit_of_the_bots_it_starts(tmp_path: Path) -> None:
    """resume starts the user's bots named again: --timeout is their time limit, as play's."""
    (tmp_path / "silent.py").write_text("import sys, time\nsys.stdin.readline()\n"
                                        "time.sleep(60)\n")
    bot = f"cmd:{sys.executable} {tmp_path / 'silent.py'}"
    log = with_control(quit_game(tmp_path / "g.kbl"), 2, f"bot:{bot}")
    res = run("resume", str(log), "--bot", f"2={bot}", "--timeout", "0.2", input="pass\n" * 9)
    assert res.exit_code == 1, res.stderr
    assert "did not answer within 0.2 s" in res.stderr, res.stderr


def test_audit_and_replay_run_no_bot_and_audit_names_the_user_bots(tmp_path: Path,
                                                                   short_path: Path) -> None:
    bots = user_bots(short_path)
    log = with_control(quit_game(tmp_path / "g.kbl"), 2, f"bot:{bots['cmd'][0]}")
    log = with_control(log, 3, f"bot:{bots['py'][0]}")
    audit = run("audit", str(log), "--json")
    assert audit.exit_code == 0, audit.stderr
    assert json.loads(audit.stdout)[0]["user_bots"] == [2, 3]
    assert run("replay", str(log)).exit_code == 0
    assert run("replay", str(log), "--json").exit_code == 0
    assert not bots["cmd"][1].exists() and not bots["py"][1].exists()


@pytest.mark.parametrize(("bot", "why"), [
    ("1=cmd:true", "--bot 1=cmd:true: seat 1 is a person's in this log"),
    ("3=cmd:true", "--bot 3=cmd:true: seat 3 is the built-in bot 'random''s in this log"),
    ("2=best", "--bot 2=best: seat 2 is a bot of your own in this log: give cmd:COMMAND or "
               "py:FILE.py:CLASS"),
    ("9=cmd:true", "--bot '9=cmd:true': there is no seat 9 (seats 1-3)"),
    ("4=cmd:true", "--bot '4=cmd:true': there is no seat 4 (seats 1-3)"),  # one past the last
])
def test_resume_refuses_a_bot_for_a_seat_that_is_not_a_user_bot(tmp_path: Path, short_path: Path,
                                                                 bot: str, why: str) -> None:
    cmd, marker = user_bots(short_path)["cmd"]
    log = with_control(quit_game(tmp_path / "g.kbl"), 2, f"bot:{cmd}")
    before = log.read_bytes()
    args = ["--bot", bot] + ([] if bot.startswith("2=") else ["--bot", f"2={cmd}"])
    line = one_line(run("resume", str(log), *args), 1)
    assert line.startswith(f"error: {log}: {why}")
    assert log.read_bytes() == before and not marker.exists()


@pytest.mark.parametrize("control", ["ext:python3 bot.py", "bot:", "bot:cmd:", "bot:py: ",
                                     "robot", "Human", "bot:best\x1b[2J"])
def test_a_seat_control_that_is_not_human_or_bot_kind_is_unreadable(tmp_path: Path,
                                                                     control: str) -> None:
    log = with_control(quit_game(tmp_path / "g.jsonl"), 2, control)
    for command in ("audit", "replay", "resume"):
        line = one_line(run(command, str(log)), 2)
        assert line.endswith(f"{log}: header: invalid record: control {control!r} is not "
                             "human or bot:KIND - at `$.seats[1].control`"), line


def test_a_built_in_bot_this_kabucli_lacks_is_named_on_resume(tmp_path: Path) -> None:
    log = with_control(quit_game(tmp_path / "g.kbl"), 3, "bot:genius")
    line = one_line(run("resume", str(log)), 1)
    assert line.startswith(f"error: {log}: seat 3: unknown bot 'genius' for dare")


# -- resume never destroys intact records -------------------------------------------------


def event_at(data: bytes, frame: int, tmp_path: Path) -> int:
    """The number of the first event frame ``frame`` (1 on: a block of a person's inputs, in
    format 2) holds: one more than the events read from the frames before it."""
    start = frames(data)[frame][0]
    prefix = tmp_path / "prefix.kbl"
    prefix.write_bytes(data[:start])
    return len(read_log(prefix, games.event_types).events) + 1


def flipped(data: bytes, pos: int, mask: int = 0x10) -> bytes:
    out = bytearray(data)
    out[pos] ^= mask
    return bytes(out)


@pytest.mark.parametrize(("where", "why"), [
    ("payload", "corrupted: checksum does not match"),
    ("length", "corrupted: its length runs past the end of the file, yet whole records follow"),
    ("last", "corrupted: checksum does not match"),
])
def test_a_damaged_msgpack_log_is_not_cut_by_resume(tmp_path: Path, where: str,
                                                    why: str) -> None:
    log = quit_game(tmp_path / "g.kbl")
    data = log.read_bytes()
    bounds = frames(data)
    index = len(bounds) - 1 if where == "last" else len(bounds) // 2
    start, end = bounds[index]
    log.write_bytes(flipped(data, start + 1 if where == "length" else end - 2))
    before = log.read_bytes()
    line = one_line(run("resume", str(log), input="pass\n" * 9), 2)
    index = event_at(data, index, tmp_path)
    assert line == (f"error: {log}: event {index}: {why}; resume leaves a damaged log as it "
                    f"is (kabucli log repair {log} NEW copies what still checks)")
    assert log.read_bytes() == before
    assert list(tmp_path.glob("*.torn-*")) == []


def test_a_damaged_jsonl_line_is_not_cut_by_resume(tmp_path: Path) -> None:
    log = quit_game(tmp_path / "g.jsonl")
    lines = log.read_bytes().splitlines(keepends=True)
    lines[5] = lines[5].replace(b'"e":', b'"e";')
    log.write_bytes(b"".join(lines))
    line = one_line(run("resume", str(log), input="pass\n" * 9), 2)
    assert line.startswith(f"error: {log}: event 5: invalid record: ")
    assert log.read_bytes() == b"".join(lines)


@pytest.mark.parametrize("cut_in", ["frame bytes", "payload"])
def test_a_torn_tail_goes_to_a_new_side_file_and_play_goes_on(tmp_path: Path,
                                                              cut_in: str) -> None:
    log = quit_game(tmp_path / "g.kbl")
    data = log.read_bytes()
    start, end = frames(data)[-1]
    torn = data[:start + 5] if cut_in == "frame bytes" else data[:end - 3]
    log.write_bytes(torn)
    taken = tmp_path / "g.kbl.torn-1"
    taken.write_bytes(b"an earlier one")
    res = run("resume", str(log), input="pass\n" * 9)
    assert res.exit_code == 0, res.stderr
    side = tmp_path / "g.kbl.torn-2"
    warning = res.stderr.strip().splitlines()[0]
    index = event_at(data, len(frames(data)) - 1, tmp_path)
    assert warning.startswith(f"warning: {log}: event {index}: truncated: ")
    assert f"this torn last record was moved to {side} and play goes on" in warning
    assert side.read_bytes() == torn[start:]
    assert taken.read_bytes() == b"an earlier one"
    assert log.read_bytes()[:start] == data[:start]
    assert run("audit", str(log)).exit_code == 0


def test_a_torn_tail_is_not_cut_while_its_side_files_name_cannot_be_synced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the tail is cut from the log only once its side file is on disk under its name: a
    # folder that cannot be synced (an I/O error) leaves the log as it is, no side file made
    log, start, torn, read = torn_log(tmp_path)
    assert read.good_bytes == start
    real_sync = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.EIO, "Input/output error")
        real_sync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(LogError, match=r"cannot keep its torn last record in .*g\.kbl\.torn-1 "
                       r"\(Input/output error\); the log is left as it is"):
        LogWriter.reopen(log, start, len(read.events), log=read).close()
    assert log.read_bytes() == torn
    assert list(tmp_path.glob("*.torn-*")) == []


def test_a_torn_tail_of_one_byte_goes_to_a_side_file_too(tmp_path: Path) -> None:
    # the shortest tear a crash leaves: the first byte of a frame
    log = quit_game(tmp_path / "g.kbl")
    data = log.read_bytes()
    start, _ = frames(data)[-1]
    log.write_bytes(data[:start + 1])
    res = run("resume", str(log), input="pass\n" * 9)
    assert res.exit_code == 0, res.stderr
    side = tmp_path / "g.kbl.torn-1"
    warning = res.stderr.strip().splitlines()[0]
    assert f"this torn last record was moved to {side} and play goes on" in warning, warning
    assert side.read_bytes() == data[start:start + 1]
    assert log.read_bytes()[:start] == data[:start]
    assert run("audit", str(log)).exit_code == 0


def test_reopen_itself_refuses_to_cut_anything_but_a_torn_tail(tmp_path: Path) -> None:
    log = quit_game(tmp_path / "g.kbl")
    data = log.read_bytes()
    start, end = frames(data)[1]  # the first block of inputs
    log.write_bytes(flipped(data, end - 1))
    with pytest.raises(LogError, match=f"what follows byte {start} is not a torn last record"):
        LogWriter.reopen(log, start, 2, log=read_log(log, games.event_types, strict=False))
    assert log.read_bytes() == flipped(data, end - 1)
    assert list(tmp_path.glob("*.torn-*")) == []


def test_a_zeroed_tail_is_damage_not_a_tear(tmp_path: Path) -> None:
    log = quit_game(tmp_path / "g.kbl")
    n = len(read_log(log, games.event_types).events) + 1
    log.write_bytes(log.read_bytes() + bytes(16))  # a crash may leave a file grown with zeros
    line = one_line(run("resume", str(log)), 2)
    assert line.startswith(f"error: {log}: event {n}: corrupted: an empty frame; ")


def test_the_search_for_whole_frames_after_a_bad_length_gives_up_in_time(tmp_path: Path) -> None:
    log = quit_game(tmp_path / "g.kbl")
    # a frame whose length runs past the end, then 1.5 MB of would-be frames (a length below
    # 1 MiB that fits, a map's first byte) with wrong checksums: each would cost a CRC-32 of
    # up to 1 MiB, some 100 GB in all, were the search not bounded
    size = 1_500_000
    fakes = bytearray()
    while len(fakes) < size:
        reach = min(max(size - len(fakes) - 8, 1), 0xFFFFF)
        fakes += reach.to_bytes(4, "big") + bytes(4) + b"\x81"
    log.write_bytes(log.read_bytes() + (10**8).to_bytes(4, "big") + bytes(4) + fakes[:size])
    line = one_line(run("resume", str(log)), 2)
    assert ("corrupted: its length runs past the end of the file, and what follows is too "
            "long to search; ") in line


def test_resume_refuses_a_time_on_an_event_the_engine_derives(tmp_path: Path) -> None:
    """A JSON Lines log with a time on a derived event is unreadable to audit (and refused by
    log convert): resume played on in it, appending moves to a log no audit would ever read
    again. It is refused as a damaged log is, the file left as it was; log repair mends it."""
    src = Path(__file__).resolve().parent.parent / "replays" / "dare" / "2p-human-undo.jsonl"
    lines = src.read_text().splitlines(keepends=True)
    assert '"t"' not in lines[1]  # the deal, derived
    header = json.loads(lines[0])
    header |= {"clock": 1795600000000}  # a timed log: its inputs carry when they were entered
    log = tmp_path / "stamped.jsonl"
    body = [line.replace("}\n", ',"t":1795600000001}\n') for line in lines[1:11]]
    log.write_text(json.dumps(header, separators=(",", ":")) + "\n" + "".join(body))
    res = runner.invoke(app, ["audit", str(log)])
    assert res.exit_code == 2 and "a time on an event the engine derives" in res.output
    before = log.read_bytes()
    script = tmp_path / "moves.txt"
    script.write_text("")
    res = runner.invoke(app, ["resume", str(log), "--script", str(script), "-q"])
    assert res.exit_code == 2, res.output
    assert "a time on an event the engine derives" in res.output
    assert "kabucli log repair" in res.output
    assert log.read_bytes() == before
    mended = tmp_path / "mended.jsonl"
    assert runner.invoke(app, ["log", "repair", str(log), str(mended)]).exit_code == 0
    assert runner.invoke(app, ["audit", str(mended)]).exit_code == 0
    res = runner.invoke(app, ["resume", str(mended), "--script", str(script), "-q"])
    assert res.exit_code == 0, res.output


def test_a_resumed_game_left_again_suggests_the_bot_named_now_not_the_logs(
        tmp_path: Path, short_path: Path) -> None:
    """resume never starts a program a log names: the person names it again. Yet a resumed
    game left at the prompt suggested going on with the program the log names ('--bot
    2=cmd:...' copied from the header), one copy and paste from running it."""
    bots = user_bots(short_path)
    forged, marker = bots["cmd"]
    log = with_control(quit_game(tmp_path / "g.kbl"), 2, f"bot:{forged}")
    mine = bots["py"][0]
    res = run("resume", str(log), "--bot", f"2={mine}", input="quit\n")
    assert res.exit_code == 0, res.stderr
    line = res.stderr.strip().splitlines()[-1]
    assert line.endswith(f"go on with: kabucli resume {log} --bot 2={mine}"), line
    assert forged not in res.output and not marker.exists()


def test_a_resume_that_cannot_reopen_its_log_tells_the_bots_it_made_the_game_is_over(
        tmp_path: Path, short_path: Path) -> None:
    """A Python bot's process starts when the bot is made, before the log is reopened. When
    reopening fails (another kabucli holds the log), the bot is told the game is over, as
    ``start`` tells it when it cannot make its log; before, its process ran on unasked until
    kabucli exited (in a program calling ``resume``, for good)."""
    import fcntl

    from kabucli.bots import external
    from kabucli.session import resume

    bot, marker = user_bots(short_path)["py"]
    log = with_control(quit_game(tmp_path / "g.kbl"), 2, f"bot:{bot}")
    before = set(external._live)
    with open(log, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # another referee's lock
        with pytest.raises(LogError, match="is being written by another kabucli"):
            resume(log, [f"2={bot}"])
    assert marker.exists()  # the bot's process was started
    told = {id(chan) for chans in external._idle.values() for chan in chans}
    left = [chan for mark, chan in external._live.items()
            if mark not in before and id(chan) not in told]
    assert left == []  # each is idle, told the game is over, or ended
    external.stop_all()


def test_a_resume_bot_option_for_all_seats_names_every_seat_once() -> None:
    """resume's --bot all=KIND (or *=KIND) is each seat's, the last one too; a later option
    for one seat overrides it (probe EN: a mutant that left the last seat out survived)."""
    assert seat_kinds(["all=cmd:x"], 3) == {1: "cmd:x", 2: "cmd:x", 3: "cmd:x"}
    assert seat_kinds(["*=cmd:x", "p2=py:b.py:B"], 2) == {1: "cmd:x", 2: "py:b.py:B"}


# -- reopen held exactly (probe EO's mutants of LogWriter.reopen) ----------------------------


@pytest.mark.parametrize("name", ["g.kbl", "g.jsonl"])
def test_a_whole_log_resumed_is_left_whole_with_no_side_file_and_no_warning(
        tmp_path: Path, name: str) -> None:
    log = quit_game(tmp_path / name)
    data = log.read_bytes()
    res = run("resume", str(log), input="")
    assert res.exit_code == 0, res.stderr
    assert "warning" not in res.stderr and "moved to" not in res.stderr, res.stderr
    assert log.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_blank_lines_after_a_json_lines_logs_last_record_stay_and_are_no_torn_tail(
        tmp_path: Path) -> None:
    log = quit_game(tmp_path / "g.jsonl")
    data = log.read_bytes() + b"\n  \n"
    log.write_bytes(data)
    res = run("resume", str(log), input="")
    assert res.exit_code == 0, res.stderr
    assert "warning" not in res.stderr and "moved to" not in res.stderr, res.stderr
    assert log.read_bytes() == data
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


def test_a_torn_tail_moved_aside_is_cut_from_the_log_even_when_nothing_is_played_after(
        tmp_path: Path) -> None:
    """The tail is moved to its side file and cut from the log at once: a resume that plays
    nothing leaves the log with its good records only (audited valid, no tail to find)."""
    log = quit_game(tmp_path / "g.kbl")
    data = log.read_bytes()
    start, end = frames(data)[-1]
    log.write_bytes(data[:end - 3])
    res = run("resume", str(log), input="")
    assert res.exit_code == 0, res.stderr
    assert f"this torn last record was moved to {log}.torn-1" in res.stderr, res.stderr
    assert log.read_bytes()[:start] == data[:start]
    assert (tmp_path / "g.kbl.torn-1").read_bytes() == data[start:end - 3]
    audit = run("audit", str(log))
    assert audit.exit_code == 0 and "warning" not in audit.output, audit.output


@pytest.mark.parametrize("name", ["g.kbl", "g.jsonl"])
def test_reopen_of_a_torn_log_cuts_the_tail_at_once_and_counts_only_the_good_records(
        tmp_path: Path, name: str) -> None:
    """LogWriter.reopen itself (as resume calls it): the tail is in its side file and gone
    from the log before anything is written, and the writer counts the good records' events
    and bytes, not the tail's."""
    log = quit_game(tmp_path / name)
    data = log.read_bytes()
    torn = data[:-3]
    log.write_bytes(torn)
    read = read_log(log, games.event_types, strict=False)
    assert 0 < read.good_bytes < len(torn)
    writer = LogWriter.reopen(log, read.good_bytes, len(read.events), log=read)
    try:
        assert log.read_bytes() == torn[:read.good_bytes]
        assert (writer.torn_file, writer.count, writer.size) == (
            tmp_path / f"{name}.torn-1", len(read.events), read.good_bytes)
    finally:
        writer.close()
    assert (tmp_path / f"{name}.torn-1").read_bytes() == torn[read.good_bytes:]
    assert log.read_bytes() == torn[:read.good_bytes]


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="needs /proc")
def test_reopen_refusing_a_damaged_log_closes_it_again(tmp_path: Path) -> None:
    log = quit_game(tmp_path / "g.kbl")
    data = log.read_bytes()
    start, end = frames(data)[1]
    log.write_bytes(flipped(data, end - 1))
    read = read_log(log, games.event_types, strict=False)
    import gc
    import warnings

    before = len(os.listdir("/proc/self/fd"))
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        for _ in range(5):
            with pytest.raises(LogError):
                LogWriter.reopen(log, start, 2, log=read)
        gc.collect()
    # (closed, not left for the garbage collector to close with a ResourceWarning)
    assert [w for w in warned if issubclass(w.category, ResourceWarning)] == []
    assert len(os.listdir("/proc/self/fd")) == before


def test_a_torn_tails_side_file_is_synced_and_its_folder_too_before_the_log_is_cut(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen from the fsync calls (os.fsync noting what it syncs, and how long the log is
    then): the side file's bytes, then its folder, are on disk while the log still holds
    the tail, so that a crash at any point keeps the tail in one of them."""
    log, start, torn, read = torn_log(tmp_path)
    side = tmp_path / "g.kbl.torn-1"
    real_sync = os.fsync
    synced = []

    def fsync(fd: int) -> None:
        ino = os.fstat(fd).st_ino
        what = {tmp_path.stat().st_ino: "folder",
                side.stat().st_ino if side.exists() else -1: "side file"}.get(ino, "other")
        synced.append((what, log.stat().st_size))
        real_sync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    LogWriter.reopen(log, start, len(read.events), log=read).close()
    assert synced[:2] == [("side file", len(torn)), ("folder", len(torn))]
    assert side.read_bytes() == torn[start:] and log.stat().st_size == start
