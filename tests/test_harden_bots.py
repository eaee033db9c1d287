"""Bots that misbehave: answers too long or not UTF-8, floods, silence, Python bots that loop
forever, exit or print; and `kabucli sim --logs` never overwriting a log of another match.

Every bot here gets a short time limit (KABUCLI_BOT_TIMEOUT), so that each test is quick."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
from matchtools import alive
from typer.testing import CliRunner

from kabucli import bots, games
from kabucli.bots.external import LINE_LIMIT, Channel, PythonBot, Stalled, bot_timeout
from kabucli.cli import app
from kabucli.engine import walk
from kabucli.errors import BotError, KabuError
from kabucli.events import Event
from kabucli.log import SeatInfo, read_log
from kabucli.rules import build
from kabucli.session import start
from kabucli.sim import simulate

DARE = games.get("dare")
runner = CliRunner()
LIMIT = 0.5  # seconds: the time limit of the bots of these tests


@pytest.fixture(autouse=True)
def short_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KABUCLI_BOT_TIMEOUT", str(LIMIT))


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def play(*args: str, game: str = "dare") -> tuple[int, str, float]:
    """Exit code, output and seconds taken of a 2-player game with the given bots."""
    began = time.monotonic()
    res = runner.invoke(app, ["play", game, "--seed", "3", "--players", "2",
                              *(["--rule", "rounds=2"] if game == "dare" else []), *args])
    assert "Traceback" not in res.output and "internal error" not in res.output
    return res.exit_code, res.output, time.monotonic() - began


def error_line(out: str) -> str:
    """The one error line of a failed command."""
    lines = [line for line in out.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, out
    return lines[0]




# -- programs over stdin/stdout -----------------------------------------------------------

ENDLESS_LINE = "import sys\nwhile True:\n    sys.stdout.write('x' * 65536); sys.stdout.flush()\n"
LONG_LINE = "import sys\nsys.stdout.write('p1 ' + 'x' * 2**20 + '\\n'); sys.stdout.flush()\n"
NOT_UTF8 = "import sys\nsys.stdin.readline()\nsys.stdout.buffer.write(b'\\xff\\xfe pass\\n')\n" \
           "sys.stdout.flush()\nsys.stdin.read()\n"
SILENT = "import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n"


@pytest.mark.parametrize(("script", "expected"), [
    (ENDLESS_LINE, "answered a line longer than 64 KiB"),
    (LONG_LINE, "answered a line longer than 64 KiB"),
    (NOT_UTF8, r"answered b'\xff\xfe pass', which is not UTF-8 text"),
    (SILENT, f"did not answer within {LIMIT:g} s"),
], ids=["endless-line", "1-MiB-line", "not-utf8", "silent"])
def test_a_bot_program_that_breaks_the_line_protocol_is_one_line_and_quick(
        tmp_path: Path, script: str, expected: str) -> None:
    bot = write(tmp_path, "bot.py", script)
    log = tmp_path / "g.kbl"
    code, out, took = play("--bot", f"1=cmd:{sys.executable} {bot}", "--bot", "2=best",
                           "--log", str(log))
    assert code == 1
    assert f"bot p1 ('{sys.executable} {bot}') {expected}" in error_line(out)
    assert took < LIMIT + 4  # the bot is killed at once, not waited for
    data = read_log(log, games.event_types)  # what was recorded is whole and valid
    assert walk(DARE, data.header, data.events)[1] is None


def test_a_flood_of_output_is_not_read_past_the_line_limit() -> None:
    # `yes` writes forever: kabucli holds at most the line limit and one chunk of it
    chan = Channel(["yes", "x" * 1000], 2.0)
    try:
        deadline = chan.deadline()
        for _ in range(100):
            assert chan.line(deadline) == b"x" * 1000
        assert len(chan._buf) <= LINE_LIMIT + 65536
    finally:
        chan.kill()
    assert chan.proc.returncode is not None


def test_a_bot_that_does_not_read_its_input_cannot_block_kabucli() -> None:
    chan = Channel(["sleep", "30"], LIMIT)
    began = time.monotonic()
    try:
        with pytest.raises(Stalled, match=f"did not read its input within {LIMIT:g} s"):
            chan.send(b"x" * 10**7, chan.deadline())
    finally:
        chan.kill()
    assert time.monotonic() - began < LIMIT + 2


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_failed_bot_is_killed_with_the_children_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    code, out, _ = play("--bot", f"1=cmd:sh -c 'sleep 60 & echo $! > {pid_file}; wait'",
                        "--bot", "2=best", "--no-log")
    assert code == 1 and "did not answer within" in error_line(out)
    pid = int(pid_file.read_text())
    for _ in range(50):  # the group was sent SIGKILL; give the kernel a moment
        if not alive(pid):
            break
        time.sleep(0.05)
    assert not alive(pid)


def test_play_takes_the_time_limit_as_timeout_before_the_setting(tmp_path: Path) -> None:
    """play had no --timeout (sim, tournament and bot check have): only the setting."""
    silent = write(tmp_path, "silent.py", SILENT)
    code, out, took = play("--bot", f"1=cmd:{sys.executable} {silent}", "--bot", "2=best",
                           "--no-log", "--timeout", "0.1")
    assert code == 1 and "did not answer within 0.1 s" in error_line(out), out
    assert took < LIMIT + 3


def test_a_bad_time_limit_setting_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KABUCLI_BOT_TIMEOUT", "soon")
    with pytest.raises(BotError, match="KABUCLI_BOT_TIMEOUT='soon'"):
        bot_timeout()
    code, out, _ = play("--bot", "1=cmd:true", "--bot", "2=best", "--no-log")
    assert code == 1 and "KABUCLI_BOT_TIMEOUT='soon'" in error_line(out)
    monkeypatch.setenv("KABUCLI_BOT_TIMEOUT", "2.5")
    assert bot_timeout() == 2.5


# -- Python bots ----------------------------------------------------------------------------

PY_BOTS = """
import os, sys, threading

class Base:
    def __init__(self, rng):
        self.rng = rng

class Spin(Base):
    def choose(self, game, state, seat):
        while True:
            pass

class SpinInC(Base):  # one long call in C: a thread in kabucli's process could not stop it
    def choose(self, game, state, seat):
        return sum(range(10**15))

class Exits(Base):
    def choose(self, game, state, seat):
        sys.exit(0)

class Interrupted(Base):
    def choose(self, game, state, seat):
        raise KeyboardInterrupt

class GenExit(Base):
    def choose(self, game, state, seat):
        raise GeneratorExit("done")

class Dies(Base):
    def choose(self, game, state, seat):
        os._exit(0)

class DiesInAThread(Base):
    def choose(self, game, state, seat):
        threading.Thread(target=os._exit, args=(5,)).start()
        threading.Event().wait()

class Chatty(Base):
    def choose(self, game, state, seat):
        print("thinking...")
        os.write(1, b"raw thinking\\n")
        print("to stderr", file=sys.stderr)
        return game.legal(state, seat)[-1]

class ExitsOnLoad:
    def __init__(self, rng):
        raise SystemExit(4)
"""
LOOPS_ON_IMPORT = "while True:\n    pass\n"


@pytest.mark.parametrize("cls", ["Spin", "SpinInC"])
def test_a_python_bot_gets_the_same_time_limit_and_kabucli_exits_at_once(
        tmp_path: Path, cls: str) -> None:
    path = write(tmp_path, "pybots.py", PY_BOTS)
    log = tmp_path / "g.kbl"
    code, out, took = play("--bot", f"1=py:{path}:{cls}", "--bot", "2=best", "--log", str(log))
    assert code == 1
    assert error_line(out).startswith(
        f"error: bot p1 ('{path}:{cls}') did not answer within {LIMIT:g} s; log kept")
    assert took < LIMIT + 4
    assert read_log(log, games.event_types).events  # the deal is kept


def test_the_python_bot_time_limit_holds_in_a_separate_kabucli_process(tmp_path: Path) -> None:
    # the whole program, interpreter exit included, ends within about the limit
    path = write(tmp_path, "pybots.py", PY_BOTS)
    began = time.monotonic()
    res = subprocess.run([sys.executable, "-m", "kabucli", "play", "dare", "--seed", "3",
                          "--players", "2", "--bot", f"1=py:{path}:SpinInC", "--bot", "2=best",
                          "--no-log", "--quiet"], capture_output=True, text=True,
                         timeout=30, env={**os.environ, "KABUCLI_BOT_TIMEOUT": str(LIMIT)},
                         check=False)
    assert res.returncode == 1
    assert res.stderr.count("\n") == 1 and "did not answer within" in res.stderr
    assert time.monotonic() - began < LIMIT + 5


HUNGRY = ("import sys\nsys.stdin.readline()\ntry:\n    x = bytearray(512 * 2**20)\n"
          "except MemoryError:\n    print('p1 limited', flush=True)\nelse:\n"
          "    print('p1 pass', flush=True)\nsys.stdin.read()\n")
HUNGRY_PY = """
class Hungry:
    def __init__(self, rng):
        self.hoard = []

    def choose(self, game, state, seat):
        while True:
            self.hoard.append(bytearray(64 * 2**20))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_DATA set by prlimit")
def test_a_bot_process_may_take_only_so_much_memory_and_goes_first_when_memory_runs_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot may come from anyone: one that takes all the memory there is would bring the
    machine to a crawl before its time limit ends it. It may allocate KABUCLI_BOT_MEMORY MiB
    (4 GiB, or half the machine's memory, by default), and the kernel ends it first."""
    monkeypatch.setenv("KABUCLI_BOT_MEMORY", "128")
    chan = Channel([sys.executable, "-c", "import time; time.sleep(30)"], LIMIT)
    try:
        limits = Path(f"/proc/{chan.proc.pid}/limits").read_text()
        line = next(x for x in limits.splitlines() if x.startswith("Max data size"))
        assert line.split()[3:5] == [str(128 * 2**20)] * 2, line
        assert Path(f"/proc/{chan.proc.pid}/oom_score_adj").read_text().strip() == "1000"
    finally:
        chan.kill()
    bot = write(tmp_path, "hungry.py", HUNGRY)
    code, out, _ = play("--bot", f"1=cmd:{sys.executable} {bot}", "--bot", "2=best", "--no-log")
    assert code == 1 and "answered 'p1 limited'" in error_line(out)  # its allocation failed
    path = write(tmp_path, "hungrybots.py", HUNGRY_PY)
    code, out, took = play("--bot", f"1=py:{path}:Hungry", "--bot", "2=best", "--no-log")
    assert code == 1 and "MemoryError" in error_line(out)
    assert took < LIMIT + 4  # not its time limit: the allocation failed at once
    monkeypatch.setenv("KABUCLI_BOT_MEMORY", "0")  # no limit
    chan = Channel([sys.executable, "-c", "import time; time.sleep(30)"], LIMIT)
    try:
        limits = Path(f"/proc/{chan.proc.pid}/limits").read_text()
        line = next(x for x in limits.splitlines() if x.startswith("Max data size"))
        import resource

        own = ["unlimited" if v == resource.RLIM_INFINITY else str(v)
               for v in resource.getrlimit(resource.RLIMIT_DATA)]
        assert line.split()[3:5] == own, line  # as kabucli's own
    finally:
        chan.kill()
    monkeypatch.setenv("KABUCLI_BOT_MEMORY", "lots")
    code, out, _ = play("--bot", f"1=cmd:{sys.executable} {bot}", "--bot", "2=best", "--no-log")
    assert code == 1 and "KABUCLI_BOT_MEMORY='lots'" in error_line(out)


@pytest.mark.parametrize(("cls", "expected"), [
    ("Exits", "failed: SystemExit: 0"),
    ("Interrupted", "failed: KeyboardInterrupt"),
    ("GenExit", "failed: GeneratorExit: done"),
    ("Dies", "exited (code 0) without answering"),
    ("DiesInAThread", "exited (code 5) without answering"),
])
def test_a_python_bot_that_exits_is_the_bots_failure_not_kabucli_exit(
        tmp_path: Path, cls: str, expected: str) -> None:
    path = write(tmp_path, "pybots.py", PY_BOTS)
    code, out, _ = play("--bot", f"1=py:{path}:{cls}", "--bot", "2=best", "--no-log")
    assert code == 1  # not 0 (SystemExit) nor 130 (KeyboardInterrupt)
    assert f"bot p1 ('{path}:{cls}') {expected}" in error_line(out)


def test_a_python_bot_that_fails_to_load_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "pybots.py", PY_BOTS)
    code, out, _ = play("--bot", f"1=py:{path}:ExitsOnLoad", "--bot", "2=best", "--no-log")
    assert code == 1
    assert f"cannot load python bot '{path}:ExitsOnLoad': SystemExit: 4" in error_line(out)
    loops = write(tmp_path, "loops.py", LOOPS_ON_IMPORT)
    code, out, took = play("--bot", f"1=py:{loops}:Bot", "--bot", "2=best", "--no-log")
    assert code == 1
    assert f"cannot load python bot '{loops}:Bot': it did not answer within" in error_line(out)
    assert took < LIMIT + 4


def test_a_python_bots_time_limit_starts_once_its_process_has_started(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # starting Python and importing kabucli in the bot's process is kabucli's work, not the
    # bot's: on a busy machine it took longer than a short time limit, and a bot that had not
    # run yet failed to load ('it did not answer within 0.5 s'), so a run of 4 matches had 3
    # bot processes. A Python slow to start stands for the busy machine here.
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "sitecustomize.py").write_text(f"import time\ntime.sleep({2 * LIMIT})\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(slow),
                                                      os.environ.get("PYTHONPATH", "")]))
    code, out, _ = play("--bot", "1=py:kabucli.games.dare.bots:BestBot", "--bot", "2=best",
                        "--no-log")
    assert code == 0, out


def test_a_python_bot_printing_cannot_spoil_json_output(tmp_path: Path) -> None:
    path = write(tmp_path, "pybots.py", PY_BOTS)
    res = subprocess.run([sys.executable, "-m", "kabucli", "play", "dare", "--seed", "3",
                          "--players", "2", "--rule", "rounds=2", "--bot",
                          f"1=py:{path}:Chatty", "--bot", "2=best", "--no-log", "--json"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["outcome"] is not None
    assert "thinking" not in res.stdout + res.stderr and "to stderr" not in res.stderr


KAZUTORI_BOTS = """
from kabucli.games.kazu_tori.bots import SharpBot

class Quick(SharpBot):
    reaction = (0, 1)
"""


def test_a_python_bot_keeps_its_own_reaction_profile(tmp_path: Path) -> None:
    # Quick claims what SharpBot claims but always reacts first (SharpBot: 180-340 ms)
    path = write(tmp_path, "kbots.py", KAZUTORI_BOTS)
    log = tmp_path / "k.kbl"
    code, out, _ = play("--bot", f"1=py:{path}:Quick", "--bot", "2=sharp", "--log", str(log),
                        game="kazu-tori")
    assert code == 0, out
    events = read_log(log, games.event_types).events
    races = [i for i, e in enumerate(events) if type(e).__name__ == "Race"]
    assert len(races) > 3
    assert [getattr(events[i + 1], "seat", None) for i in races] == [1] * len(races)


def test_a_python_bot_plays_the_same_game_as_in_process(tmp_path: Path) -> None:
    # the bot's process keeps a copy of the match from the events; it sees the same states
    path = write(tmp_path, "mybest.py", "from kabucli.games.dare.bots import BestBot as Mine\n")
    for kind, log in ((f"py:{path}:Mine", "py.kbl"), ("best", "builtin.kbl")):
        code, out, _ = play("--bot", f"1={kind}", "--bot", "2=random", "--log",
                            str(tmp_path / log))
        assert code == 0, out
    a = read_log(tmp_path / "py.kbl", games.event_types).events
    b = read_log(tmp_path / "builtin.kbl", games.event_types).events
    assert a == b


STATE_BOT = """
import zlib

class Hashy:  # its move depends on the whole table it is shown
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        legal = game.legal(state, seat)
        return legal[zlib.crc32(repr(game.view(state)).encode()) % len(legal)]
"""


def test_a_python_bot_follows_an_undo(tmp_path: Path) -> None:
    # p1 lays, the bot plays on; p1 takes that back and lays otherwise. The bot's process is
    # sent the match again: the game goes on as if p1 had laid so at first.
    bot = write(tmp_path, "hashy.py", STATE_BOT)
    seats = [SeatInfo("me", "human"), SeatInfo("hashy", f"bot:py:{bot}:Hashy")]

    def game(undo: bool) -> list[Event]:
        sess = start(DARE, build(DARE.Rules, ["rounds=4"]), seats, 3, None, None)
        try:
            m = sess.match
            sess.run_bots()
            sess.submit_line("p1 pass")
            sess.run_bots()
            if undo:  # a move, the bot's moves after it, p1 passes: all taken back
                sess.submit_line(DARE.notate(DARE.legal(m.state, 1)[1]))
                sess.run_bots()
                sess.submit_line("p1 pass")
                sess.run_bots()
                assert sess.undo() + sess.undo() >= 3
            sess.submit_line(DARE.notate(DARE.legal(m.state, 1)[-1]))
            while not m.over:
                sess.run_bots()
                if not m.over:
                    sess.submit_line("p1 pass")
            return m.events
        finally:
            sess.close()

    assert game(undo=True) == game(undo=False)


PID_BOTS = """
import os, threading

class Tell:  # notes the process it is built in
    def __init__(self, rng):
        with open(os.environ["PID_FILE"], "a") as f:
            f.write(f"{os.getpid()}\\n")
    def choose(self, game, state, seat):
        return game.legal(state, seat)[-1]

class LeavesAThread(Tell):
    def __init__(self, rng):
        super().__init__(rng)
        threading.Thread(target=threading.Event().wait, daemon=True).start()
"""


@pytest.mark.parametrize(("cls", "processes"), [("Tell", 1), ("LeavesAThread", 4)])
def test_a_run_keeps_a_python_bots_process_unless_the_bot_left_threads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cls: str, processes: int) -> None:
    from kabucli.bots import external

    external._stop_idle()  # hosts other tests of this process left idle would fill the pool
    path = write(tmp_path, "pidbots.py", PID_BOTS)
    monkeypatch.setenv("PID_FILE", str(tmp_path / "pids"))
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), [f"py:{path}:{cls}", "random"], 4,
                      seed=1)
    assert report.matches == 4
    pids = (tmp_path / "pids").read_text().split()
    assert len(pids) == 4 and len(set(pids)) == processes


# -- kabucli sim --logs ----------------------------------------------------------------------

def sim(logs: Path, *args: str, matches: str = "3") -> tuple[int, str]:
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", matches,
                              "--seed", "3", "--rule", "rounds=2", "--logs", str(logs),
                              "--json", *args])
    assert "Traceback" not in res.output and "internal error" not in res.output
    return res.exit_code, res.output


def test_sim_logs_target_that_is_a_file_is_one_line(tmp_path: Path) -> None:
    target = tmp_path / "runs"
    target.write_text("my notes\n")
    code, out = sim(target)
    assert code == 1 and f"log folder {target} is a file, not a folder" in error_line(out)
    code, out = sim(target / "sub")
    assert code == 1 and f"cannot make the log folder {target / 'sub'}" in error_line(out)
    assert target.read_text() == "my notes\n"


@pytest.mark.parametrize(("args", "why"), [
    (["--seed", "4"], "different seed"),
    (["--rule", "ante=2"], "different house rules"),  # (rounds=2 is set: once only)
    (["--fixed-seats", "-b", "random"], "different bots"),
])
def test_sim_never_overwrites_the_log_of_another_match(tmp_path: Path, args: list[str],
                                                       why: str) -> None:
    assert sim(tmp_path, matches="2")[0] == 0
    (tmp_path / "dare-00001.kbl").unlink()
    second = tmp_path / "dare-00002.kbl"
    before = second.read_bytes()
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", "3",
                              "--seed", "3", "--rule", "rounds=2", "--logs", str(tmp_path),
                              *args])
    assert res.exit_code == 1
    assert f"{second} holds another match ({why}); kabucli sim never overwrites it" \
        in error_line(res.output)
    assert second.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dare-00002.kbl"]  # nothing played


def test_a_tournament_keeping_another_runs_log_names_tournament_and_the_seating(
        tmp_path: Path) -> None:
    # A tournament stopped on a sim's log said 'kabucli sim never overwrites it', naming a
    # command nobody ran; a sim run again with --fixed-seats over logs of the same two bots
    # in other seats said 'different bots', the same bots.
    assert runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", "2",
                               "--seed", "1", "--rule", "rounds=1", "-j", "1",
                               "--logs", str(tmp_path)]).exit_code == 0
    before = sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir())
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", "2",
                              "--seed", "1", "--rule", "rounds=1", "-j", "1", "--fixed-seats",
                              "--logs", str(tmp_path)])
    assert res.exit_code == 1
    assert error_line(res.output) == (
        f"error: {tmp_path / 'dare-00002.kbl'} holds another match (different seats of the "
        "bots); kabucli sim never overwrites it: remove it or choose another log folder")
    res = runner.invoke(app, ["tournament", "dare", "-b", "best", "-b", "random", "-b",
                              "random", "-d", "1", "--seed", "2", "--rule", "rounds=1", "-j",
                              "1", "--logs", str(tmp_path)])
    assert res.exit_code == 1
    assert error_line(res.output) == (
        f"error: {tmp_path / 'dare-00001.kbl'} holds another match (different seed); kabucli "
        "tournament never overwrites it: remove it or choose another log folder")
    assert sorted((p.name, p.read_bytes()) for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("junk", ["not a log", "a folder"])
def test_sim_never_overwrites_a_file_that_is_not_a_log(tmp_path: Path, junk: str) -> None:
    path = tmp_path / "dare-00002.kbl"
    if junk == "a folder":
        path.mkdir()
    else:
        path.write_text("shopping list\n")
    code, out = sim(tmp_path)
    assert code == 1 and str(path) in error_line(out)
    assert "never overwrites it" in error_line(out)
    assert path.is_dir() if junk == "a folder" else path.read_text() == "shopping list\n"


def test_sim_plays_again_over_the_log_of_the_same_match_cut_short(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = sim(tmp_path)
    assert code == 0, out
    first = json.loads(out)
    path = tmp_path / "dare-00002.kbl"
    whole = path.read_bytes()
    # as a run stopped in the middle leaves it: the header whole (written first), the block
    # of inputs written at the end cut short
    header_end = 16 + int.from_bytes(whole[8:12], "big")
    path.write_bytes(whole[: (header_end + len(whole)) // 2])
    monkeypatch.setattr("kabucli.sim.now_iso", lambda: "2031-01-01T00:00:00+00:00")
    code, out = sim(tmp_path)  # started again later: its logs say when
    assert code == 0, out
    again = json.loads(out)
    assert again["reused_logs"] == 2 and again["bots"] == first["bots"]
    # the same match, played to its end again: the same events and header, but for the
    # time the run started (the second run's own, in a later second when the clock moved on)
    now = read_log(path, games.event_types)
    path.with_name("whole.kbl").write_bytes(whole)
    then = read_log(path.with_name("whole.kbl"), games.event_types)
    assert now.events == then.events and now.error is None
    assert now.header.started.startswith("2031") and then.header.started != now.header.started
    assert msgspec.structs.replace(now.header, started=then.header.started) == then.header


def test_a_stuck_python_bot_ends_by_itself_when_kabucli_cannot_kill_it(tmp_path: Path) -> None:
    # as if kabucli were killed while the bot loops: nobody reads or kills the bot's process
    path = write(tmp_path, "pybots.py", PY_BOTS)
    sess = start(DARE, build(DARE.Rules, []), [SeatInfo("a"), SeatInfo("b")], 3, None, None)
    bot = PythonBot(f"{path}:SpinInC", sess.match, 1, timeout=0.2)
    chan = bot._chan
    assert chan is not None
    chan.send(b'{"type": "turn", "seat": 1, "keep": 0, "events": []}\n', chan.deadline())
    began = time.monotonic()
    assert chan.proc.wait(timeout=10) == -signal.SIGALRM
    assert time.monotonic() - began < 2 * 0.2 + 1 + 3  # (its alarm; 3 s of slack for a busy CI)
    chan.kill()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_a_python_bot_that_ignores_its_alarm_ends_with_kabucli_killed_outright(
        tmp_path: Path) -> None:
    # a bot that turns off the host's own alarm and loops: kabucli killed with SIGKILL cannot
    # kill it, so the kernel does (the host asked to die with its parent)
    path = write(tmp_path, "deaf.py", PY_BOTS + """
import signal

class Deaf(Base):
    def choose(self, game, state, seat):
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        while True:
            pass
""")
    script = write(tmp_path, "run.py", f"""
import sys, time
from kabucli.bots.external import PythonBot
from kabucli.games import get
from kabucli.log import SeatInfo
from kabucli.rules import build
from kabucli.session import start

dare = get("dare")
sess = start(dare, build(dare.Rules, []), [SeatInfo("a"), SeatInfo("b")], 3, None, None)
chan = PythonBot({str(path) + ":Deaf"!r}, sess.match, 1, timeout=0.5)._chan
chan.send(b'{{"type": "turn", "seat": 1, "keep": 0, "events": []}}\\n', chan.deadline())
print(chan.proc.pid, flush=True)
time.sleep(60)
""")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    pid = int(proc.stdout.readline())
    try:
        time.sleep(2 * 0.5 + 1.5)  # past the alarm, which the bot ignored
        assert alive(pid)
        proc.kill()
        proc.wait()
        ends = time.monotonic() + 5
        while alive(pid) and time.monotonic() < ends:
            time.sleep(0.05)
        assert not alive(pid), "the bot outlived kabucli"
    finally:
        proc.kill()
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def test_sim_never_overwrites_a_file_that_appears_while_it_runs(tmp_path: Path) -> None:
    # the folder was empty when the run began, so nothing there was checked; a file that
    # turns up where a match's log goes is kept, and the run stops saying why; a log of that
    # very match (a worker that died after writing it, its chunk played again) is replaced
    from kabucli.rules import as_dict
    from kabucli.sim import Plan, _write_log

    plan = Plan("dare", as_dict(build(DARE.Rules, ["rounds=2"])), ("best", "random"), 3,
                log_dir=str(tmp_path))
    path = plan.path(6)  # match 7's log
    assert path is not None
    path.write_text("shopping list\n")
    with pytest.raises(KabuError, match=r"not a kabucli log.*never overwrites it"):
        _write_log(plan, 6, b"KBCLOG2\n")
    assert path.read_text() == "shopping list\n"
    code, out = sim(tmp_path, matches="7")  # the folder holds a file: stops before playing
    assert code == 1 and "never overwrites it" in error_line(out)
    path.unlink()
    code, out = sim(tmp_path, matches="7")
    assert code == 0, out
    whole = path.read_bytes()
    sixth = plan.path(5)
    assert sixth is not None
    path.write_bytes(sixth.read_bytes())  # match 6's log where match 7's goes
    with pytest.raises(KabuError,
                       match=r"holds another match \(different seed, seats of the bots\)"):
        _write_log(plan, 6, whole)
    assert path.read_bytes() == sixth.read_bytes()
    path.write_bytes(whole[:-5])  # its own log, cut short (a worker died writing it)
    _write_log(plan, 6, whole)
    assert path.read_bytes() == whole


def test_sim_log_that_cannot_be_written_whole_is_not_left_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a disk that fills while a log is written: the run stops with one line, and the part
    # written goes with it (it is this run's own new file), so the same run started again
    # once there is room plays that match instead of refusing a file it does not know
    import errno
    import os

    from kabucli import sim as simmod
    from kabucli.rules import as_dict
    from kabucli.sim import Plan, _write_log

    plan = Plan("dare", as_dict(build(DARE.Rules, ["rounds=2"])), ("best", "random"), 3,
                log_dir=str(tmp_path))
    path = plan.path(2)
    assert path is not None
    real_write = os.write
    calls = []

    def full(fd: int, data: bytes) -> int:
        calls.append(len(data))
        if len(calls) == 1:
            return real_write(fd, bytes(data)[:5])  # a short write first, then no room
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(simmod.os, "write", full)
    with pytest.raises(KabuError, match=r"cannot write .*dare-00003\.kbl: No space left"):
        _write_log(plan, 2, b"KBCLOG2\n" + bytes(40))
    assert calls == [48, 43] and not path.exists()
    monkeypatch.setattr(simmod.os, "write", real_write)
    code, out = sim(tmp_path, matches="3")
    assert code == 0, out
    assert path.exists()


def test_sim_stops_at_a_log_of_the_same_match_that_breaks_a_rule_and_keeps_it(
        tmp_path: Path) -> None:
    # the log of the very match (its header is right) whose events break a rule: the match
    # is not counted from it, the run stops with one line naming the event, and the file
    # stays as it is (here the JSON Lines form, which a .kbl file may hold)
    assert sim(tmp_path)[0] == 0
    path = tmp_path / "dare-00002.kbl"
    readable = tmp_path.parent / "second.jsonl"
    assert runner.invoke(app, ["log", "convert", str(path), str(readable)]).exit_code == 0
    lines = readable.read_text().splitlines()
    lay = next(i for i, line in enumerate(lines) if line.startswith('{"e":"lay","seat":2,'))
    lines[lay] = lines[lay].replace('"seat":2', '"seat":1', 1)  # p1 lays out of turn
    path.write_text("\n".join(lines) + "\n")
    before = path.read_bytes()
    code, out = sim(tmp_path)
    line = error_line(out)
    assert code == 1
    assert line.startswith(f"error: {path}: event {lay}: p1 ")
    assert "it is not p1's turn" in line
    assert line.endswith("kabucli sim never overwrites it: remove it or choose another log "
                         "folder")
    assert path.read_bytes() == before


def test_sim_resumed_reads_each_finished_log_once_on_the_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # resuming reads a log's header alone before anything is played, and the whole log once,
    # where the match would have been played (a worker): not twice in this process as it did
    # (the parent's check and its count), which made resuming a run slower than playing it
    from kabucli import sim as simmod

    assert sim(tmp_path, matches="4")[0] == 0
    headers: list[str] = []
    wholes: list[str] = []
    real_header, real_log = simmod.read_header, simmod.read_log

    def header(path: Any, types: Any) -> Any:
        headers.append(Path(path).name)
        return real_header(path, types)

    def whole(path: Any, types: Any, strict: bool = True) -> Any:
        wholes.append(Path(path).name)
        return real_log(path, types, strict)

    monkeypatch.setattr(simmod, "read_header", header)
    monkeypatch.setattr(simmod, "read_log", whole)
    first = simmod.simulate(DARE, build(DARE.Rules, ["rounds=2"]), ["best", "random"], 5, 3,
                            log_dir=tmp_path, workers=1)
    names = [f"dare-0000{k}.kbl" for k in range(1, 5)]
    assert headers == names and wholes == names  # match 5 is played: no log to read
    assert first.reused == 4 and first.matches == 5
    # on two workers the parent reads headers only; the logs are read by the workers
    headers.clear()
    wholes.clear()
    again = simmod.simulate(DARE, build(DARE.Rules, ["rounds=2"]), ["best", "random"], 5, 3,
                            log_dir=tmp_path, workers=2)
    assert headers == [*names, "dare-00005.kbl"] and wholes == []
    assert again.reused == 5 and again.as_dict() | {"workers": 1} == first.as_dict() | {
        "workers": 1, "reused_logs": 5}


@pytest.mark.parametrize("left", [b"", b"KBC", b"KBCLOG2", b"KBCLOG2\n"])
def test_sim_plays_again_over_a_log_file_made_but_never_written(tmp_path: Path,
                                                                left: bytes) -> None:
    # what a worker stopped by Ctrl-C (or a machine that crashed) between making a log's
    # file and writing it leaves: an empty file, or the first bytes of a log at most. It
    # records nothing, so the same run started again plays that match over it; refusing it
    # (as a file that is not a log) left a stopped run that could not be resumed
    code, out = sim(tmp_path, matches="3")
    assert code == 0, out
    first = json.loads(out)
    path = tmp_path / "dare-00002.kbl"
    events = read_log(path, games.event_types).events
    path.write_bytes(left)
    code, out = sim(tmp_path, matches="3")
    assert code == 0, out
    again = json.loads(out)
    assert again["reused_logs"] == 2 and again["bots"] == first["bots"]
    assert read_log(path, games.event_types).events == events


def test_sim_still_refuses_a_short_file_that_is_not_the_start_of_a_log(tmp_path: Path) -> None:
    assert sim(tmp_path, matches="3")[0] == 0
    path = tmp_path / "dare-00002.kbl"
    path.write_bytes(b"abc")
    code, out = sim(tmp_path, matches="3")
    assert code == 1 and "never overwrites it" in error_line(out)
    assert path.read_bytes() == b"abc"


def test_sim_log_interrupted_while_written_is_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C between making a log's file and writing it (workers=1 plays in this process):
    # the file made goes, and the interruption goes on to stop the run
    from kabucli import sim as simmod
    from kabucli.rules import as_dict
    from kabucli.sim import Plan, _write_log

    plan = Plan("dare", as_dict(build(DARE.Rules, ["rounds=2"])), ("best", "random"), 3,
                log_dir=str(tmp_path))

    def interrupted(fd: int, data: bytes) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(simmod.os, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _write_log(plan, 0, b"KBCLOG2\n" + bytes(40))
    assert list(tmp_path.iterdir()) == []


# -- a move for another seat (probe of 2026-11-25) -------------------------------------------

OTHER_SEAT = """import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "turn":
        me = "p%d" % m["seat"]
        other = "p2" if me == "p1" else "p1"
        move = m["legal"][-1]
        print(move.replace(me, other, 1) if move.startswith(me) else other + " " + move,
              flush=True)
"""
TABLE_MOVE = """import json, sys
for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        print("deal 1-7-5", flush=True)
"""


@pytest.mark.parametrize(("script", "why"), [
    (OTHER_SEAT, r"a move of p(\d); a bot moves only for its own seat, p(\d)"),
    (TABLE_MOVE, r"'deal' is not typed after a seat"),
], ids=["another-seat", "the-tables-move"])
def test_a_bot_answering_a_move_not_of_its_seat_forfeits_that_match_only(
        tmp_path: Path, script: str, why: str) -> None:
    # a move named for the other seat used to stop the whole run with no report, pinned on
    # the seat it named
    import re

    bot = f"cmd:{sys.executable} {write(tmp_path, 'bot.py', script)}"
    rules = build(DARE.Rules, ["rounds=1"])
    report = simulate(DARE, rules, [bot, "random"], 4, seed=1)
    assert report.matches == 4 and report.failures == 4
    for failure in report.failed:
        assert failure["bot"] == bot
        found = re.search(why, failure["reason"])
        assert found is not None, failure
        if found.groups():  # the seat it named is the other; the one it plays is its own
            assert int(found[2]) == failure["seat"] != int(found[1])


def test_a_python_bot_returning_a_move_of_another_seat_forfeits(tmp_path: Path) -> None:
    code = ("class Bot:\n"
            "    def __init__(self, rng):\n        pass\n"
            "    def choose(self, game, state, seat):\n"
            "        import msgspec\n"
            "        ev = game.legal(state, seat)[-1]\n"
            "        return msgspec.structs.replace(ev, seat=3 - seat)\n")
    bot = f"py:{write(tmp_path, 'pybot.py', code)}:Bot"
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), [bot, "random"], 2, seed=1)
    assert report.failures == 2
    assert all("a bot moves only for its own seat" in f["reason"] for f in report.failed)


def test_a_bot_program_that_closes_its_input_is_not_said_to_be_gone(tmp_path: Path) -> None:
    # it was "is not running (exit code None)" while it ran on
    script = ("import json, os, sys, time\n"
              "m = json.loads(sys.stdin.readline())\n"
              "os.close(0)\n"
              "print(m['legal'][-1], flush=True)\n"
              "time.sleep(30)\n")
    bot = f"cmd:{sys.executable} {write(tmp_path, 'bot.py', script)}"
    report = simulate(DARE, build(DARE.Rules, ["rounds=3"]), [bot, "random"], 1, seed=1)
    assert report.failures == 1
    assert report.failed[0]["reason"].endswith("') closed its input"), report.failed


def test_a_bot_program_writing_a_line_it_was_not_asked_for_forfeits(tmp_path: Path) -> None:
    # two lines to one turn: each answer after was the one to the turn before, out of step
    # with the game; kabucli took them when they happened to be legal (every Kazu-Tori match
    # of such a bot went on, and bot check passed it)
    script = ("import json, sys\n"
              "for line in sys.stdin:\n"
              "    m = json.loads(line)\n"
              "    if m['type'] == 'turn':\n"
              "        sys.stdout.write(m['legal'][0] + '\\n' + m['legal'][-1] + '\\n')\n"
              "        sys.stdout.flush()\n")
    bot = f"cmd:{sys.executable} {write(tmp_path, 'bot.py', script)}"
    game = games.get("kazu-tori")
    report = simulate(game, build(game.Rules, []), [bot, "random"], 2, seed=1)
    assert report.failures == 2
    # the line as text, quoted as the other answers are, not a Python bytes literal (it was
    # "answered before it was asked: b'p1 pass\\n'")
    for f in report.failed:
        assert "answered before it was asked: 'p" in f["reason"], f["reason"]
        assert "b'" not in f["reason"] and "\\n" not in f["reason"], f["reason"]


def test_a_resumed_run_reports_a_long_forfeit_reason_as_the_first_run_did(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the report kept the reason whole while the log's forfeit record kept it on one line
    # and cut to its first 500 characters: a resumed run (reading it from the log) reported
    # another reason, and a long command left no why in the log at all
    monkeypatch.setenv("KABUCLI_BOT_TIMEOUT", "10")  # (its Python starting is not the point:
    # under load it took more than the file's 0.5 s, and the bot failed on time instead)
    exits = write(tmp_path, "bot.py", "import sys\nsys.stdin.readline()\n")
    bot = f"cmd:{sys.executable}  {exits}   {'x' * 600}"
    rules = build(DARE.Rules, ["rounds=1"])
    first = simulate(DARE, rules, [bot, "random"], 2, seed=1, log_dir=tmp_path / "logs")
    again = simulate(DARE, rules, [bot, "random"], 2, seed=1, log_dir=tmp_path / "logs")
    assert again.reused == 2 and first.failures == again.failures == 2
    assert first.failed == again.failed
    for failure in first.failed:
        assert failure["reason"].endswith("exited (code 0) without answering")
        assert len(failure["reason"]) <= 500
    data = read_log(tmp_path / "logs" / "dare-00001.kbl", games.event_types)
    assert data.events[-1].reason == first.failed[0]["reason"]


def test_a_python_bots_reply_nested_too_deep_for_json_forfeits_the_match(tmp_path: Path) -> None:
    # the bot runs in its host process and can replace what the host replies with: a line
    # nested deeper than json.loads reads raised RecursionError, and the whole run stopped
    # with "internal error"
    code = ("class Bot:\n"
            "    def __init__(self, rng):\n        pass\n"
            "    def choose(self, game, state, seat):\n"
            "        import msgspec\n"
            "        msgspec.json.encode = lambda obj: b'[' * 60000\n"
            "        return game.legal(state, seat)[-1]\n")
    bot = f"py:{write(tmp_path, 'pybot.py', code)}:Bot"
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), [bot, "random"], 2, seed=1)
    assert report.matches == 2 and report.failures == 2
    assert all("not a reply of kabucli's bot host" in f["reason"] for f in report.failed)


# -- processes that leave the bot's process group (probe of 2026-11-25) ----------------------

def _running_with(token: str) -> list[int]:
    """The processes whose command line holds ``token``."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if token.encode() in Path(f"/proc/{name}/cmdline").read_bytes() and alive(
                        int(name)):
                    found.append(int(name))
            except OSError:
                continue
    return found


def _gone(token: str) -> bool:
    end = time.monotonic() + 10
    while _running_with(token) and time.monotonic() < end:
        time.sleep(0.1)
    return not _running_with(token)


def test_the_mark_scan_finds_what_a_marked_process_starts_while_it_scans() -> None:
    # a marked process forking all the while: one scan of /proc killed it and what was
    # there when /proc was listed, and missed the children it started meanwhile (as a bot's
    # child caught between fork and exec slipped past the end of a run, once in a full suite)
    from kabucli.bots.external import MARK, kill_marked

    token = f"kabucli-test-{os.getpid()}-spawner"
    code = ("import os, time\n"
            "while True:\n"
            "    if os.fork() == 0:\n"
            "        time.sleep(60)\n"
            "        os._exit(0)\n"
            "    time.sleep(0.0005)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, token],
                            env={**os.environ, MARK: token})
    try:
        # forking already (a fixed 0.3 s was not always enough for Python to start, under load)
        end = time.monotonic() + 30
        while len(_running_with(token)) < 3 and time.monotonic() < end:
            time.sleep(0.05)
        assert kill_marked(token) > 1
        proc.wait(timeout=10)
        assert _gone(token)
    finally:
        for pid in _running_with(token):
            os.kill(pid, signal.SIGKILL)
        proc.kill()
        proc.wait()


def test_the_mark_scan_finds_a_process_caught_becoming_another_program(tmp_path: Path) -> None:
    # while a process execs, /proc shows it with no environment for an instant (its new
    # memory holds none yet): a scan that read it then missed it, and having killed nothing
    # it made no second scan (a py: bot's setsid child caught so outlived the end of a run).
    # This process execs without end, so that a scan often catches it so: about 1 call in 100
    # missed it
    from kabucli.bots.external import MARK, kill_marked

    again = write(tmp_path, "again.sh", 'exec /bin/sh "$0"\n')
    missed = 0
    for i in range(300):
        proc = subprocess.Popen(["/bin/sh", again],
                                env={**os.environ, MARK: f"kabucli-test-{os.getpid()}-exec-{i}"})
        try:
            time.sleep(0.002)
            missed += kill_marked(f"kabucli-test-{os.getpid()}-exec-{i}") != 1
        finally:
            proc.kill()
            proc.wait()
    assert missed == 0


def _proc_as(monkeypatch: pytest.MonkeyPatch, shown: list[tuple[bytes, int, int, int]]) -> None:
    """Make kabucli.bots.external read a process's /proc files as ``shown`` tells, one entry
    a read of ``environ`` and its ``stat`` (environ, start_code, env_start, env_end); the last
    entry stays. Its sleeps take no time."""
    from kabucli.bots import external

    reads = {"environ": 0, "stat": 0}

    def fake_open(path: str, mode: str = "r") -> Any:
        import io
        name = path.rsplit("/", 1)[1]
        environ, start_code, env_start, env_end = shown[min(reads[name], len(shown) - 1)]
        reads[name] += 1
        if name == "environ":
            return io.BytesIO(environ)
        fields = ["0"] * 50
        fields[0], fields[6] = "R", str(0x400000)
        fields[23], fields[47], fields[48] = str(start_code), str(env_start), str(env_end)
        return io.BytesIO(f"4242 (sh) {' '.join(fields)}".encode())

    monkeypatch.setattr(external, "open", fake_open, raising=False)
    monkeypatch.setattr(external.time, "sleep", lambda _s: None)


def test_a_process_caught_writing_down_its_new_environment_is_read_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # while execve lays out the new program's environment, the kernel has set its start and
    # end to the same address and not yet the program's code: stat then looks like a program
    # started with an empty environment. Read so twice (a process held there a millisecond,
    # under load: once in CI, test above) it was believed empty and the bot's child missed
    from kabucli.bots.external import _environ

    midway = (b"", 0, 0x7FFD1000, 0x7FFD1000)
    _proc_as(monkeypatch, [midway] * 5 + [(b"A=1\0KABUCLI_BOT=x\0", 0x5555000, 1, 2)])
    assert _environ(4242) == b"A=1\0KABUCLI_BOT=x\0"


def test_a_program_started_with_an_empty_environment_is_read_as_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kabucli.bots.external import _environ

    _proc_as(monkeypatch, [(b"", 0x5555000, 0x7FFD1000, 0x7FFD1000)])
    assert _environ(4242) == b""


def test_a_bot_programs_child_in_a_session_of_its_own_ends_with_the_bot(tmp_path: Path) -> None:
    # a child started with setsid left the bot's process group and outlived the run
    token = f"kabucli-test-{os.getpid()}-setsid"
    bot = write(tmp_path, "bot.py", (
        "import json, subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)', '{token}'],"
        " start_new_session=True)\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'turn':\n"
        "        print(m['legal'][-1], flush=True)\n"))
    rules = build(DARE.Rules, ["rounds=1"])
    try:
        report = simulate(DARE, rules, [f"cmd:{sys.executable} {bot}", "random"], 2, seed=1)
        assert report.matches == 2 and report.failures == 0
        assert _gone(token)
    finally:
        for pid in _running_with(token):
            os.kill(pid, signal.SIGKILL)


def test_a_python_bots_forked_child_ends_with_the_run_on_workers(tmp_path: Path) -> None:
    token = f"kabucli-test-{os.getpid()}-fork"
    code = ("import os, sys, time\n"
            "from kabucli.games.dare.bots import BestBot\n"
            "class Forker(BestBot):\n"
            "    def choose(self, game, state, seat):\n"
            "        if os.fork() == 0:\n"
            "            os.setsid()\n"
            f"            os.execv(sys.executable, [sys.executable, '-c', "
            f"'import time; time.sleep(300)', '{token}'])\n"
            "        return super().choose(game, state, seat)\n")
    bot = f"py:{write(tmp_path, 'forker.py', code)}:Forker"
    script = ("import sys\n"
              "from kabucli import games\n"
              "from kabucli.rules import build\n"
              "from kabucli.sim import simulate\n"
              "if __name__ == '__main__':\n"
              "    g = games.get('dare')\n"
              f"    r = simulate(g, build(g.Rules, ['rounds=1']), [{bot!r}, 'random'], 4, 1,"
              " workers=2)\n"
              "    sys.exit(0 if r.matches == 4 else 1)\n")
    runner_py = write(tmp_path, "run.py", script)
    try:
        res = subprocess.run([sys.executable, runner_py], capture_output=True, text=True,
                             timeout=120)
        assert res.returncode == 0, res.stderr
        assert _gone(token)
    finally:
        for pid in _running_with(token):
            os.kill(pid, signal.SIGKILL)


SEAT_LEFT_OUT = """import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "turn":
        moves = [x.split() for x in m["legal"]]
        words = next((w for w in moves if len(w) > 1 and w[1][:1] == "p"), moves[0])
        print(" ".join(words[1:] if words[0] == "p%d" % m["seat"] else words), flush=True)
"""


@pytest.mark.parametrize("game", ["kazu-tori", "uno-dare"])
def test_a_bot_may_leave_its_seat_out_of_a_move_whose_verb_starts_with_p(
        tmp_path: Path, game: str) -> None:
    # 'pass' and 'play R5' were taken for moves naming their seat, as 'p2 pass' does, because
    # they start with a 'p': Kazu-Tori's 'pass' was refused ("say who lets the card go")
    g = games.get(game)
    bot = f"cmd:{sys.executable} {write(tmp_path, 'bot.py', SEAT_LEFT_OUT)}"
    report = simulate(g, g.Rules(), [bot, next(iter(bots.kinds(game)))], 2, seed=3)
    assert report.matches == 2
    assert report.failures == 0, report.failed


@pytest.mark.parametrize(("timeout", "answered", "started"),
                         [(0.2, True, 0.0), (1.0, False, 0.0), (0.5, False, 60.0)])
def test_a_hung_bot_is_given_no_time_past_its_limit_but_at_its_start_under_a_short_limit(
        timeout: float, answered: bool, started: float,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A program past its limit with nothing written is waited for until LATE_EXIT after
    its start, to say that it exited rather than that it was late (a limit shorter than it
    took to fail at its start). A bot that hangs after answering, under a limit of a second
    or more, or started longer ago than that (bot check starts it before its first turn), is
    not exiting: it was kept LATE_EXIT past every limit all the same (0.5 s more a forfeit,
    in every match of a sim; 2 s more in bot check's test of a bot that never answers)."""
    from kabucli.bots import external

    monkeypatch.setattr(external, "LATE_EXIT", 30.0)  # (any wait for it would be seen)
    script = ("import sys, time\n"
              + ("print('hello', flush=True)\n" if answered else "")
              + "time.sleep(60)\n")
    chan = Channel([sys.executable, "-c", script], timeout)
    chan._started -= started  # (as if started that long ago)
    try:
        if answered:
            assert chan.line(chan.deadline() + 10) == b"hello"
        t0 = time.monotonic()
        with pytest.raises(Stalled, match="did not answer within"):
            chan.line(chan.deadline())
        assert time.monotonic() - t0 < timeout + 10, time.monotonic() - t0
    finally:
        chan.kill()


def test_a_bot_writing_much_on_stderr_at_the_end_exits_as_it_would_have() -> None:
    """A bot's stderr is a pipe kabucli reads while it waits on the bot: once its game is
    over too. A bot that wrote more than a pipe holds as it ended (its statistics, say) was
    left blocked on a full pipe, killed CLOSE_WAIT (2 s) later, before the work it did after
    (each match of a sim 2 s longer)."""
    from kabucli.bots.external import CLOSE_WAIT

    script = ("import sys\n"
              "sys.stdin.readline()\n"
              "sys.stderr.write('stats ' * 50000 + '\\n'); sys.stderr.flush()\n"
              "sys.exit(3)\n")
    chan = Channel([sys.executable, "-c", script], 5.0)
    t0 = time.monotonic()
    chan.finish(b'{"type": "end"}\n')
    took = time.monotonic() - t0
    assert chan.proc.returncode == 3, chan.proc.returncode  # (not killed: -9)
    assert took < CLOSE_WAIT, took  # (a bot blocked on its full pipe is killed at CLOSE_WAIT)


STALE_BOTS = """
import os, signal, sys

class NotesThenDies:  # its first match: a note on stderr; its next: killed without a word
    def __init__(self, rng):
        self.match = int(os.environ.get("STALE_MATCH", "0")) + 1
        os.environ["STALE_MATCH"] = str(self.match)  # (its process's, kept for the next)
    def choose(self, game, state, seat):
        if self.match > 1:
            os.kill(os.getpid(), signal.SIGKILL)
        print("a note of match one", file=sys.stderr, flush=True)
        return game.legal(state, seat)[-1]
"""


def failed_in_its_next_match(tmp_path: Path, source: str, cls: str) -> str:
    """Why the Python bot ``cls`` of ``source``, at p1 in a sim of two Dare matches, its
    process kept from the first for the second, failed one match (it must fail one)."""
    from kabucli.bots import external

    external._stop_idle()  # (a host other tests left idle would be taken instead)
    path = write(tmp_path, "kept.py", source)
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), [f"py:{path}:{cls}", "random"],
                      2, seed=1, rotate=False)
    assert report.failures == 1, report.failed
    return str(report.failed[0]["reason"])


def test_a_python_bots_process_kept_for_the_next_match_says_nothing_of_the_last_match(
        tmp_path: Path) -> None:
    """A Python bot's process is kept for the next match of a run (IDLE_HOSTS), and with it
    what it wrote on stderr: a bot killed in its second match without a word was said to
    have written, as its last line, the note of its first."""
    reason = failed_in_its_next_match(tmp_path, STALE_BOTS, "NotesThenDies")
    assert "killed by signal 9" in reason, reason
    assert "match one" not in reason, reason


def failed_turn(script: str) -> tuple[str, int]:
    """How a Python ``script`` sent one turn fails to answer it (the Stalled's words), and
    how many bytes of its stderr kabucli kept."""
    chan = Channel([sys.executable, "-c", script], 5.0)
    try:
        chan.send(b"{}\n", chan.deadline())
        with pytest.raises(Stalled) as caught:
            chan.line(chan.deadline())
        return str(caught.value), len(chan._tail)
    finally:
        chan.kill()


def test_a_bot_that_exits_after_a_stderr_line_longer_than_kept_is_said_with_its_end() -> None:
    """Only the last ERR_TAIL bytes of a bot's stderr are kept: a last line longer than that
    was quoted from the start of what was kept (its middle) and said to be ERR_TAIL
    characters long, where the bot wrote a million: its end is shown, as the end of a line
    longer than what is kept."""
    from kabucli.bots.external import ERR_TAIL

    script = ("import sys\nsys.stdin.readline()\n"
              "sys.stderr.write('y' * 1_000_000 + ' out of memory'); sys.exit(1)\n")
    why, _ = failed_turn(script)
    assert why.startswith("exited (code 1) without answering"), why
    assert "its last line on stderr: '…" in why and "y out of memory'" in why, why
    assert f"({ERR_TAIL} characters)" not in why and len(why) < 250, why


def test_a_stderr_line_of_just_the_bytes_kept_is_quoted_from_its_start_not_said_cut() -> None:
    """A bot's last stderr line that fills the ERR_TAIL bytes kept, no more, is whole: it is
    quoted from its start, not shown as the end of a line longer than what is kept."""
    from kabucli.bots.external import ERR_TAIL

    line = "START" + "y" * (ERR_TAIL - 6) + "\n"  # (ERR_TAIL bytes, its newline included)
    script = (f"import sys\nsys.stdin.readline()\nsys.stderr.write({line!r})\n"
              "sys.stderr.flush(); sys.exit(1)\n")
    why, _ = failed_turn(script)
    assert why.startswith("exited (code 1) without answering; its last line on stderr: "
                          "'STARTyyy"), why
    assert "longer than" not in why, why


def test_a_long_last_stderr_line_after_a_short_one_is_said_by_its_end() -> None:
    """Only the last ERR_TAIL bytes of a bot's stderr are held: a long last line after a
    short first one is still said by its end (what is kept begins inside it)."""
    from kabucli.bots.external import ERR_TAIL

    script = ("import sys\nsys.stdin.readline()\n"
              "sys.stderr.write('first\\n' + 'z' * 20000 + ' the end'); sys.exit(1)\n")
    why, kept = failed_turn(script)
    assert kept <= ERR_TAIL, kept
    assert "its last line on stderr: '…" in why and "z the end'" in why, why
    assert f"a line longer than the {ERR_TAIL} bytes kept" in why, why


CUT_BOTS = """
import os, signal, sys

class LongThenShort:  # its first match: a long stderr line; its next: a short one, then killed
    def __init__(self, rng):
        self.match = int(os.environ.get("CUT_MATCH", "0")) + 1
        os.environ["CUT_MATCH"] = str(self.match)  # (its process's, kept for the next)
    def choose(self, game, state, seat):
        if self.match > 1:
            print("a short last word", file=sys.stderr, flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        print("y" * 10000, file=sys.stderr, flush=True)
        return game.legal(state, seat)[-1]
"""


def test_a_python_bots_process_kept_for_the_next_match_forgets_its_long_stderr_line(
        tmp_path: Path) -> None:
    """A process kept for the next match forgets what it wrote on stderr, and that what it
    wrote was cut: a short last line of its next match is quoted whole, not said to be the
    end of a line longer than what is kept."""
    reason = failed_in_its_next_match(tmp_path, CUT_BOTS, "LongThenShort")
    assert "its last line on stderr: 'a short last word'" in reason, reason
    assert "longer than" not in reason, reason


def test_an_idle_python_bot_process_found_dead_is_not_taken_for_the_next_match(
        tmp_path: Path) -> None:
    """A process kept for the next match that has died meanwhile (killed from outside) is
    dropped: the next match starts a fresh one and plays, rather than fail on the dead one."""
    import signal

    from kabucli.bots import external

    external._stop_idle()  # (a host other tests left idle would be taken instead)
    spec = f"py:{write(tmp_path, 'hashy.py', STATE_BOT)}:Hashy"
    rules = build(DARE.Rules, ["rounds=1"])
    assert simulate(DARE, rules, [spec, "random"], 1, seed=1).failures == 0
    idle = external._idle[spec.removeprefix("py:")]
    assert len(idle) == 1
    os.kill(idle[0].proc.pid, signal.SIGKILL)
    idle[0].proc.wait()
    report = simulate(DARE, rules, [spec, "random"], 1, seed=2)
    assert report.failures == 0, report.failed
