"""`kabucli sim` at scale: a pool of workers that changes nothing in the results or the logs,
a bad bot that costs one match (never the run), --max-failures, and Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest
from matchtools import killer_bot
from typer.testing import CliRunner

from kabucli import games, sim
from kabucli.cli import app
from kabucli.engine import walk
from kabucli.errors import KabuError
from kabucli.events import Forfeit, Undo
from kabucli.log import read_log, write_log
from kabucli.ratings import Sprt
from kabucli.rules import as_dict, build
from kabucli.sim import simulate

DARE = games.get("dare")
runner = CliRunner()
STARTED = "2026-01-02T03:04:05+00:00"


def logs_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize(("game", "kinds", "rules"), [
    ("dare", ["best", "random", "random"], ["rounds=2"]),
    ("yatchaba", ["smart", "random"], ["games=2"]),
])
def test_two_workers_give_the_same_report_and_the_same_log_bytes_as_one(
        tmp_path: Path, game: str, kinds: list[str], rules: list[str]) -> None:
    g = games.get(game)
    r = build(g.Rules, rules)
    one = simulate(g, r, kinds, 13, seed=7, log_dir=tmp_path / "one", workers=1,
                   started=STARTED)
    two = simulate(g, r, kinds, 13, seed=7, log_dir=tmp_path / "two", workers=2,
                   started=STARTED)
    assert one.matches == two.matches == 13 and two.workers == 2
    assert one.as_dict() == two.as_dict()
    a, b = logs_of(tmp_path / "one"), logs_of(tmp_path / "two")
    assert len(a) == 13 and a == b
    # and the same per-match results as before the pool: a match alone from its seed
    for name, data in a.items():
        assert data.startswith(b"KBCLOG2\n"), name


def _plan(log_dir: Path, rounds: int = 2) -> sim.Plan:
    """The plan ``simulate`` makes of a run of Dare between best and random from seed 7."""
    return sim.Plan("dare", {"rounds": rounds}, ("best", "random"), 7, True, str(log_dir),
                    STARTED)


def test_a_runs_logs_written_a_chunk_at_a_time_are_those_of_matches_written_one_by_one(
        tmp_path: Path) -> None:
    # a run writes the logs of short matches together (play_match's ``later``): the same
    # bytes as each match's log written as it ends
    r = build(DARE.Rules, ["rounds=2"])
    report = simulate(DARE, r, ["best", "random"], 70, seed=7, log_dir=tmp_path / "run",
                      workers=1, started=STARTED)
    assert report.matches == 70
    (tmp_path / "alone").mkdir()
    plan = _plan(tmp_path / "alone")
    for i in range(70):
        sim.play_match(plan, i)
    run, alone = logs_of(tmp_path / "run"), logs_of(tmp_path / "alone")
    assert len(run) == 70 and run == alone


def test_a_short_matchs_log_waits_for_its_chunk_and_a_long_ones_is_written_as_it_ends(
        tmp_path: Path) -> None:
    later: list[sim.Later] = []
    short = sim.play_match(_plan(tmp_path), 0, later)
    path = tmp_path / "dare-00001.kbl"
    assert [k.idx for k in later] == [0] and not path.exists()
    sim.write_later(later)
    assert later == [] and read_log(path, games.event_types).events
    assert len(read_log(path, games.event_types).events) == short.logged
    # a match whose log holds more inputs than a log waits with is written at its end
    long_plan = _plan(tmp_path, rounds=600)  # (about 1,200 inputs)
    out = sim.play_match(long_plan, 1, later)
    assert later == [] and (tmp_path / "dare-00002.kbl").exists()
    assert len(read_log(tmp_path / "dare-00002.kbl", games.event_types).events) == out.logged


def test_every_log_left_to_write_is_written_when_one_cannot_be(tmp_path: Path) -> None:
    later: list[sim.Later] = []
    plan = _plan(tmp_path)
    for i in range(4):
        sim.play_match(plan, i, later)
    (tmp_path / "dare-00002.kbl").write_text("not a log of this run\n")
    (tmp_path / "dare-00003.kbl").write_text("nor this\n")
    # the first failure is raised, after every log that can be written is
    with pytest.raises(KabuError, match=r"dare-00002\.kbl"):
        sim.write_later(later)
    assert later == []
    assert (tmp_path / "dare-00002.kbl").read_text() == "not a log of this run\n"
    assert (tmp_path / "dare-00003.kbl").read_text() == "nor this\n"
    for name in ("dare-00001.kbl", "dare-00004.kbl"):
        assert read_log(tmp_path / name, games.event_types).events


def test_a_pool_sends_one_match_at_first_then_chunks_of_about_their_target_time() -> None:
    # Chunks: one match at first, then as many as take about ``target`` seconds, at least
    # one and never more than MAX_CHUNK
    chunks = sim.Chunks(0.05)
    assert chunks.size() == 1
    chunks.took(1, 0.005)
    assert chunks.size() == 10
    chunks.took(10, 0.5)  # (slower: fewer)
    assert chunks.size() < 10
    slow = sim.Chunks(0.05)
    slow.took(1, 3.0)
    assert slow.size() == 1
    fast = sim.Chunks(0.05)
    fast.took(1000, 0.0)
    assert fast.size() == sim.MAX_CHUNK == 256


def test_outcomes_are_counted_in_match_order_with_at_most_window_chunks_under_way() -> None:
    # in_order: chunks that finish last first still give the outcomes in the order of the
    # matches, and no more than ``window`` chunks are ever under way
    running: dict[int, list[int]] = {}
    most = 0

    def submit(batch: list[int]) -> int:
        nonlocal most
        most = max(most, len(running) + 1)
        return batch[0]

    def wait_any(handles: list[int]) -> list[int]:
        return [max(handles)]  # the chunk sent last is done first

    def result(handle: int, batch: list[int]) -> tuple[list[sim.Outcome], float]:
        return [sim.Outcome(i, [(i, 1.0)], 1, 0) for i in batch], 0.001

    chunks = sim.Chunks(0.05)
    outs = list(sim.in_order(iter(range(500)), 3, chunks, running, submit, wait_any, result))
    assert [o.idx for o in outs] == list(range(500))
    assert most == 3 and running == {}


def test_a_failures_reason_is_one_line_of_at_most_max_reason_characters_its_end_kept() -> None:
    # kept_reason: the reason the report and the forfeit record keep; cut only when longer
    # than MAX_REASON (500), keeping its start and its end
    assert sim.kept_reason("bot  crashed:\n exit 3 ") == "bot crashed: exit 3"
    whole = "a" * 300 + "b" * 200
    assert sim.kept_reason(whole) == whole
    long = "c" * 300 + "d" * 201
    cut = sim.kept_reason(long)
    assert len(cut) == sim.MAX_REASON == 500
    assert cut == "c" * 249 + "…" + "c" * 49 + "d" * 201


def test_a_log_holding_exactly_later_records_inputs_waits_for_its_chunk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # play_match: a log is kept to write later while it holds at most LATER_RECORDS inputs
    later: list[sim.Later] = []
    (tmp_path / "count").mkdir()
    sim.play_match(_plan(tmp_path / "count"), 0, later)
    inputs = later[0].writer.unwritten
    sim.write_later(later)
    monkeypatch.setattr(sim, "LATER_RECORDS", inputs)
    sim.play_match(_plan(tmp_path), 0, later)
    assert [k.idx for k in later] == [0] and not (tmp_path / "dare-00001.kbl").exists()
    sim.write_later(later)
    monkeypatch.setattr(sim, "LATER_RECORDS", inputs - 1)
    sim.play_match(_plan(tmp_path), 1, later)
    assert later == [] and (tmp_path / "dare-00002.kbl").exists()


def test_a_log_that_wrote_a_block_while_its_match_went_on_is_written_as_it_ends(
        tmp_path: Path) -> None:
    # about 4,200 inputs: a block of BLOCK_RECORDS (4096) went into the log while the match
    # was played, and fewer than LATER_RECORDS wait; its log is no short match's, written
    # at its end (play_match keeps only a log nothing was written of yet)
    later: list[sim.Later] = []
    out = sim.play_match(_plan(tmp_path, rounds=2100), 0, later)
    path = tmp_path / "dare-00001.kbl"
    assert later == [] and path.exists()
    assert len(read_log(path, games.event_types).events) == out.logged


def test_a_forfeited_matchs_log_is_written_as_it_ends(tmp_path: Path) -> None:
    # play_match keeps to write later only the log of a match that ended as it should
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nsys.stdin.readline()\nsys.exit(3)\n")
    plan = sim.Plan("dare", {"rounds": 2}, (f"cmd:{sys.executable} {bot}", "random"), 7,
                    True, str(tmp_path / "logs"), STARTED)
    (tmp_path / "logs").mkdir()
    later: list[sim.Later] = []
    out = sim.play_match(plan, 0, later)
    assert out.results is None and out.failed == 1
    path = tmp_path / "logs" / "dare-00001.kbl"
    assert later == [] and path.exists()
    assert isinstance(read_log(path, games.event_types).events[-1], Forfeit)


def test_a_run_in_one_process_writes_a_log_that_waited_later_seconds(tmp_path: Path) -> None:
    # the logs left to write are written once the first of them has waited LATER_SECONDS,
    # however few they are: here match 1's, before match 2 is counted
    seen: list[bool] = []

    def counted(report: sim.SimReport) -> None:
        seen.append((tmp_path / "dare-00001.kbl").exists())
        if report.matches == 1:
            time.sleep(0.3)  # (LATER_SECONDS is 0.1)

    r = build(DARE.Rules, ["rounds=1"])
    simulate(DARE, r, ["random", "random"], 3, seed=2, log_dir=tmp_path, workers=1,
             on_match=counted)
    assert seen[1], seen


def test_a_log_file_that_comes_back_while_the_run_writes_it_is_left_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # _write_log replaces this match's own log once; a file that is there again right after
    # (another program writing it) stops the run with one line saying to remove it, and is
    # still there to remove
    plan = sim.Plan("dare", as_dict(build(DARE.Rules, ["rounds=2"])), ("best", "random"), 7,
                    True, str(tmp_path), STARTED)
    sim.play_match(plan, 0)
    path = tmp_path / "dare-00001.kbl"
    data = path.read_bytes()
    real = os.unlink
    removed: list[str] = []

    def unlink(where: str | os.PathLike[str]) -> None:
        real(where)
        removed.append(str(where))
        if len(removed) == 1:
            Path(where).write_bytes(data)  # it comes back

    monkeypatch.setattr(os, "unlink", unlink)
    with pytest.raises(KabuError, match="keeps coming back while the run writes it"):
        sim._write_log(plan, 0, data)
    monkeypatch.undo()
    assert path.read_bytes() == data and removed == [str(path)]


def test_a_run_in_one_process_writes_the_logs_it_holds_once_they_are_later_matches(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # with a clock that stands still (LATER_SECONDS never passes), the logs left to write
    # are written once LATER_MATCHES (64) are held, and not before
    seen: list[int] = []

    class Still:
        @staticmethod
        def monotonic() -> float:
            return 0.0

    monkeypatch.setattr(sim, "time", Still)

    def counted(report: sim.SimReport) -> None:
        seen.append(len(list(tmp_path.iterdir())))

    r = build(DARE.Rules, ["rounds=1"])
    simulate(DARE, r, ["random", "random"], 70, seed=2, log_dir=tmp_path, workers=1,
             on_match=counted)
    assert seen[:64] == [0] * 64 and seen[64:] == [64] * 6, seen
    assert len(list(tmp_path.iterdir())) == 70


def test_a_run_in_one_process_writes_its_logs_as_it_goes(tmp_path: Path) -> None:
    # the logs left to write wait for at most LATER_MATCHES matches, not the run's end
    seen: list[tuple[int, int]] = []

    def counted(report: sim.SimReport) -> None:
        seen.append((report.matches, len(list(tmp_path.iterdir()))))

    r = build(DARE.Rules, ["rounds=1"])
    simulate(DARE, r, ["random", "random"], 3 * sim.LATER_MATCHES, seed=2, log_dir=tmp_path,
             workers=1, on_match=counted)
    assert all(matches - files <= sim.LATER_MATCHES for matches, files in seen)
    assert seen[-1][1] >= 2 * sim.LATER_MATCHES  # (the last 64 at most: at the end)
    assert len(list(tmp_path.iterdir())) == 3 * sim.LATER_MATCHES


@pytest.mark.parametrize("where", ["counting", "playing"])
def test_a_run_in_one_process_stopped_by_ctrl_c_has_the_log_of_every_match_it_counted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    # Ctrl-C while the run counts a match, or while it plays one: the logs left to write are
    # written as it stops, and a run resumed over them reuses every match counted
    calls = []
    play = sim.play_match

    def playing(plan: sim.Plan, i: int, later: list[sim.Later] | None = None) -> sim.Outcome:
        calls.append(i)
        if where == "playing" and len(calls) == 6:
            raise KeyboardInterrupt
        return play(plan, i, later)

    def counted(report: sim.SimReport) -> None:
        if where == "counting" and report.matches == 5:
            raise KeyboardInterrupt

    monkeypatch.setattr(sim, "play_match", playing)
    r = build(DARE.Rules, ["rounds=1"])
    report = simulate(DARE, r, ["best", "random"], 20, seed=4, log_dir=tmp_path, workers=1,
                      on_match=counted)
    assert report.stopped == "interrupted (Ctrl-C)" and report.matches == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"dare-{i:05d}.kbl"
                                                          for i in range(1, 6)]
    monkeypatch.undo()
    # and a run its SPRT stops (it decides after 4 matches here)
    decided = simulate(DARE, r, ["best", "random"], 500, seed=4, log_dir=tmp_path / "sprt",
                       workers=1, sprt=Sprt(0, 400, 0.2, 0.2))
    assert decided.stopped == "SPRT: H1 accepted" and decided.matches == 4
    assert len(list((tmp_path / "sprt").iterdir())) == 4
    again = simulate(DARE, r, ["best", "random"], 5, seed=4, log_dir=tmp_path, workers=1)
    assert again.reused == 5 and again.as_dict()["bots"] == report.as_dict()["bots"]


def test_a_pooled_run_resumes_from_the_logs_of_a_single_one(tmp_path: Path) -> None:
    r = build(DARE.Rules, ["rounds=2"])
    simulate(DARE, r, ["best", "random"], 4, seed=3, log_dir=tmp_path, workers=1)
    again = simulate(DARE, r, ["best", "random"], 9, seed=3, log_dir=tmp_path, workers=2)
    fresh = simulate(DARE, r, ["best", "random"], 9, seed=3, workers=2)
    assert again.reused == 4 and again.matches == 9
    assert again.as_dict()["bots"] == fresh.as_dict()["bots"]


def test_sim_command_takes_workers_and_reports_head_to_head() -> None:
    out = []
    for workers in ("1", "2"):
        res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", "12",
                                  "--seed", "2", "--rule", "rounds=2", "--workers", workers,
                                  "--json"])
        assert res.exit_code == 0, res.output
        out.append(json.loads(res.output))
    assert out[0] == out[1]
    h = out[0]["head_to_head"]
    assert h["wins"] + h["draws"] + h["losses"] == 12 and h["los"] > 0.9


def test_the_title_counts_the_workers_a_run_can_use() -> None:
    # one match is played by one worker, whatever -j asked for: the title said "(2 workers)"
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", "1",
                              "--seed", "2", "--rule", "rounds=1", "-j", "2"])
    assert res.exit_code == 0, res.output
    assert "Dare: 1 match from seed 2" in res.output and "workers)" not in res.output
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", "3",
                              "--seed", "2", "--rule", "rounds=1", "-j", "2"])
    assert res.exit_code == 0 and "(2 workers)" in res.output


# -- bad bots ------------------------------------------------------------------------------

BAD = {
    "crashes": ("import sys\nsys.stdin.readline()\nsys.exit(3)\n", "exited (code 3)"),
    "hangs": ("import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n",
              "did not answer within 0.5 s"),
    "garbage": ("import sys\nfor line in sys.stdin:\n    print('hello there', flush=True)\n",
                "answered 'hello there'"),
    "illegal": ("import sys\nfor line in sys.stdin:\n    print('1-1-1', flush=True)\n",
                "played 'p"),
    "floods": ("import sys\nsys.stdin.readline()\nsys.stdout.write('x' * 10**6)\n"
               "sys.stdout.flush()\nimport time; time.sleep(30)\n", "longer than 64 KiB"),
}
LEAVES_A_CHILD = (  # exits at once, but a process it started holds its output open
    "import subprocess, sys, time\n"
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
    "sys.exit(0)\n")


def test_a_bot_that_exits_leaving_a_child_on_its_output_forfeits_at_once(
        tmp_path: Path) -> None:
    # its output never closes while the child runs: the wait for its answer notices that the
    # bot itself is gone, instead of waiting out the time limit (20 s here) and blaming it
    bot = tmp_path / "bot.py"
    bot.write_text(LEAVES_A_CHILD)
    began = time.monotonic()
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), [f"cmd:{sys.executable} {bot}",
                                                              "random"],
                      2, seed=4, workers=1, timeout=20)
    assert time.monotonic() - began < 10
    assert report.failures == 2
    assert all("exited (code 0) without answering" in f["reason"] for f in report.failed)


PY_BAD = """
import time

class Broken:
    def __init__(self, rng): pass
    def choose(self, game, state, seat): return 1 / 0

class Slow:
    def __init__(self, rng): pass
    def choose(self, game, state, seat):
        while True:
            pass
"""


@pytest.mark.parametrize("how", sorted(BAD))
def test_a_bad_program_bot_forfeits_each_match_and_the_run_goes_on(tmp_path: Path,
                                                                   how: str) -> None:
    script, why = BAD[how]
    bot = tmp_path / "bot.py"
    bot.write_text(script)
    kind = f"cmd:{sys.executable} {bot}"
    logs = tmp_path / "logs"
    report = simulate(DARE, build(DARE.Rules, ["rounds=2"]), [kind, "random"], 3, seed=4,
                      log_dir=logs, workers=2, timeout=0.5)
    assert report.matches == 3 and report.failures == 3 and not report.stopped
    bad, good = report.bots
    assert bad.forfeits == 3 and bad.wins == 0 and good.wins == 3
    assert all(why in f["reason"] for f in report.failed), report.failed
    # each match's log keeps what was played, and ends with the forfeit and its reason; it
    # audits valid, and nothing may follow the forfeit
    for i in range(1, 4):
        log = logs / f"dare-{i:05d}.kbl"
        data = read_log(log, games.event_types)
        last = data.events[-1]
        assert isinstance(last, Forfeit) and why in last.reason and last.seat in (1, 2)
        match, violation = walk(DARE, data.header, data.events)
        assert violation is None and match.over and match.forfeit == last
        assert walk(DARE, data.header, [*data.events, Undo()])[1] is not None
        res = runner.invoke(app, ["audit", str(log)])
        assert res.exit_code == 0, res.output
        res = runner.invoke(app, ["replay", str(log)])
        assert res.exit_code == 0 and f"forfeit p{last.seat}" in res.output, res.output
    # a resumed run reuses the forfeited matches as they were
    again = simulate(DARE, build(DARE.Rules, ["rounds=2"]), [kind, "random"], 3, seed=4,
                     log_dir=logs, workers=1, timeout=0.5)
    assert again.reused == 3 and again.failures == 3


@pytest.mark.parametrize(("cls", "why"), [("Broken", "ZeroDivisionError"),
                                          ("Slow", "did not answer within 0.5 s")])
def test_a_bad_python_bot_forfeits_the_match_within_its_time_limit(tmp_path: Path, cls: str,
                                                                   why: str) -> None:
    path = tmp_path / "bad.py"
    path.write_text(PY_BAD)
    began = time.monotonic()
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), [f"py:{path}:{cls}", "best"], 2,
                      seed=1, workers=1, timeout=0.5)
    assert report.failures == 2 and report.bots[0].forfeits == 2
    assert why in report.failed[0]["reason"]
    assert time.monotonic() - began < 20


def test_max_failures_stops_the_run_with_the_report_so_far(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BAD["garbage"][0])
    res = runner.invoke(app, ["sim", "dare", "-b", f"cmd:{sys.executable} {bot}", "-b",
                              "random", "-m", "10", "--seed", "1", "--rule", "rounds=1",
                              "--max-failures", "2", "--workers", "1", "--json"])
    assert res.exit_code == 1, res.output
    data = json.loads(res.output[res.output.index("{"):])
    assert data["matches"] == 2 and data["failures"] == 2
    assert data["stopped"].startswith("bot #1") and "--max-failures 2" in data["stopped"]
    assert "failed 2 matches (--max-failures 2)" in data["stopped"]  # not 'match(es)'
    assert "hello there" in data["failed"][0]["reason"]
    # exit code 1 with --json said nothing on stderr, where every word beside the document
    # goes: a script's user saw a failed run and no reason (the document alone had it)
    assert json.loads(res.stdout) == data
    assert res.stderr.strip() == f"stopped: {data['stopped']} after 2 of 10 matches"


def test_the_report_names_the_forfeits_in_words(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BAD["crashes"][0])
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b",
                              f"cmd:{sys.executable} {bot}", "-m", "2", "--seed", "1",
                              "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "2 matches forfeited by a failing bot" in res.output
    assert "exited (code 3)" in res.output


def _ctrl_c_as_from_a_terminal() -> None:
    """(A child's preexec_fn) Ctrl-C's default action, so that the program takes it as when
    started from a terminal: pytest started with it ignored (nohup ... &, a script's
    background job) passes that on, and kabucli rightly keeps ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_cleanly_with_the_report_so_far_and_resumable_logs(
        tmp_path: Path, workers: str) -> None:
    # (in one process, the logs a run left to write are written as it stops: every match
    # counted has its log)
    logs = tmp_path / "logs"
    slow = tmp_path / "slow.py"  # a bot that takes its time, so that the run is under way
    slow.write_text("import json, sys, time\nfor line in sys.stdin:\n"
                    "    m = json.loads(line)\n    if m['type'] == 'turn':\n"
                    "        time.sleep(0.02)\n        print(m['legal'][0], flush=True)\n")
    argv = [sys.executable, "-m", "kabucli", "sim", "dare", "-b", "random", "-b",
            f"cmd:{sys.executable} {slow}", "-m", "400", "--seed", "5", "--rule", "rounds=1",
            "--workers", workers, "--logs", str(logs), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, env={**os.environ, "NO_COLOR": "1"},
                            preexec_fn=_ctrl_c_as_from_a_terminal)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(logs.glob("*.kbl"))) < 6:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    data = json.loads(out)
    assert data["stopped"] == "interrupted (Ctrl-C)" and 0 < data["matches"] < 400
    # the logs so far are reusable: the same run again picks them up
    res = runner.invoke(app, ["sim", "dare", "-b", "random", "-b", f"cmd:{sys.executable} "
                              f"{slow}", "-m", str(data["matches"]), "--seed", "5", "--rule",
                              "rounds=1", "--workers", "1", "--logs", str(logs), "--json"])
    assert res.exit_code == 0, res.output
    again = json.loads(res.output)
    assert again["reused_logs"] == data["matches"]
    assert again["bots"] == data["bots"]


def test_a_bad_time_limit_setting_stops_the_run_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BAD["garbage"][0])
    monkeypatch.setenv("KABUCLI_BOT_TIMEOUT", "soon")
    res = runner.invoke(app, ["sim", "dare", "-b", f"cmd:{sys.executable} {bot}", "-b",
                              "random", "-m", "2", "--seed", "1", "--workers", "1"])
    assert res.exit_code == 1 and "KABUCLI_BOT_TIMEOUT='soon'" in res.output
    assert "forfeit" not in res.output


@pytest.mark.parametrize("command", ["sim", "tournament", "bot check"])
def test_a_bad_memory_setting_stops_the_run_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    """A bad KABUCLI_BOT_MEMORY is the user's setting, as a bad KABUCLI_BOT_TIMEOUT is: one
    error before any match. It was found by each bot process as it started, so sim and
    tournament counted every match as the program's forfeit and exited 0, and bot check
    said the program failed to start."""
    bot = tmp_path / "bot.py"
    bot.write_text(BAD["garbage"][0])
    monkeypatch.setenv("KABUCLI_BOT_MEMORY", "lots")
    prog = f"{sys.executable} {bot}"
    args = {"sim": ["sim", "dare", "-b", f"cmd:{prog}", "-b", "random", "-m", "2", "--seed",
                    "1", "--workers", "1"],
            "tournament": ["tournament", "dare", "-b", f"cmd:{prog}", "-b", "random",
                           "--deals", "1", "--seed", "1", "--workers", "1"],
            "bot check": ["bot", "check", "dare", prog]}[command]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 1, res.output
    assert json.loads(res.stdout)["error"].startswith("KABUCLI_BOT_MEMORY='lots'")
    assert "forfeit" not in res.output


def test_a_ray_address_that_does_not_answer_is_one_line_at_once() -> None:
    began = time.monotonic()
    for address, why in (("127.0.0.1:1", "cannot reach the Ray cluster at 127.0.0.1:1"),
                         ("nonsense", "give the head of a Ray cluster as HOST:PORT")):
        res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", "2",
                                  "--backend", "ray", "--address", address])
        assert res.exit_code == 1 and why in res.output, res.output
    assert time.monotonic() - began < 30


def test_a_match_whose_worker_process_dies_is_played_again(tmp_path: Path) -> None:
    # the bot kills the worker process playing its match, the first time only: the pool is
    # made again and the chunk played again (as Ray runs a task again), the report unchanged
    bot, marker = killer_bot(tmp_path)
    kinds = [f"cmd:{sys.executable} {bot}", "random"]
    rules = build(DARE.Rules, ["rounds=1"])
    pooled = simulate(DARE, rules, kinds, 6, seed=2, workers=2, log_dir=tmp_path / "a",
                      started=STARTED)
    assert marker.exists()
    single = simulate(DARE, rules, kinds, 6, seed=2, workers=1, log_dir=tmp_path / "b",
                      started=STARTED)
    assert pooled.failures == 0 and pooled.as_dict() == single.as_dict()
    assert logs_of(tmp_path / "a") == logs_of(tmp_path / "b")


def test_a_bot_that_kills_every_worker_stops_the_run_in_one_line(tmp_path: Path) -> None:
    bot = tmp_path / "killer.py"
    bot.write_text("import os, signal, sys\nsys.stdin.readline()\n"
                   "os.kill(os.getppid(), signal.SIGKILL)\n")
    res = runner.invoke(app, ["sim", "dare", "-b", f"cmd:{sys.executable} {bot}", "-b",
                              "random", "-m", "3", "--seed", "1", "--workers", "2"])
    assert res.exit_code == 1
    assert "a worker process died 4 times while playing matches" in res.output
    assert "Traceback" not in res.output


def test_the_forfeit_record_is_checked_and_converts_like_any_other(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BAD["garbage"][0])
    logs = tmp_path / "logs"
    simulate(DARE, build(DARE.Rules, ["rounds=1"]), [f"cmd:{sys.executable} {bot}", "best"], 1,
             seed=3, log_dir=logs, workers=1)
    log = logs / "dare-00001.kbl"
    data = read_log(log, games.event_types)
    *before, last = data.events
    assert isinstance(last, Forfeit) and last.seat == 1
    # a forfeit names a seat of the match, and comes while the match is on
    bad_seat = walk(DARE, data.header, [*before, Forfeit(3, "why")])[1]
    assert bad_seat is not None and "there is no seat p3" in bad_seat.reason
    assert walk(DARE, data.header, [*data.events, Forfeit(2, "again")])[1] is not None
    # JSON Lines and back, byte for byte
    res = runner.invoke(app, ["log", "convert", str(log), str(tmp_path / "g.jsonl")])
    assert res.exit_code == 0, res.output
    assert '"e":"forfeit"' in (tmp_path / "g.jsonl").read_text()
    res = runner.invoke(app, ["log", "convert", str(tmp_path / "g.jsonl"), str(tmp_path / "h.kbl")])
    assert res.exit_code == 0 and (tmp_path / "h.kbl").read_bytes() == log.read_bytes()


@pytest.mark.parametrize("command", ["sim", "tournament"])
@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_before_any_match_is_counted_gives_an_empty_report(
        monkeypatch: pytest.MonkeyPatch, command: str, as_json: bool) -> None:
    # stopped before a match ended, a run has no win rate or mean to show: its report says
    # so ("-"), with the exit code of Ctrl-C, where it failed with an internal error
    def interrupted(plan: object, i: int, later: object = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("kabucli.sim.play_match", interrupted)
    bots = ["-b", "best", "-b", "random"] + (["-b", "random"] if command == "tournament"
                                             else [])
    res = runner.invoke(app, [command, "dare", *bots, "--seed", "5", "--workers", "1",
                              *(["--json"] if as_json else [])])
    assert res.exit_code == 130, res.output
    assert "internal error" not in res.output and "Traceback" not in res.output
    if as_json:  # the document on stdout, the line saying why beside it on stderr
        data = json.loads(res.stdout)
        assert data["matches"] == 0 and data["stopped"] == "interrupted (Ctrl-C)"
        assert res.stderr.startswith("stopped: interrupted (Ctrl-C) after 0 of ")
    else:
        assert "interrupted" in res.output


def test_the_pools_fork_server_starts_with_ctrl_c_ignored(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    # a Ctrl-C from the terminal reaches every process of the group: the fork server (and
    # the workers it forks) ignore it from their very start, so that one pressed while they
    # still import kabucli prints no traceback from them; this process still gets it
    from multiprocessing import forkserver

    from kabucli.sim import _start_fork_server

    server = forkserver._forkserver  # type: ignore[attr-defined]
    probe = tmp_path / "ctrl_c_probe.py"  # imported by the fork server as it starts
    seen = tmp_path / "seen.txt"
    # written beside, then renamed: the name is there only once the file is whole (it was
    # read empty once, between the fork server's open and its write)
    probe.write_text("import os, signal\n"
                     f"open({str(seen)!r} + '.tmp', 'w').write("
                     "repr(signal.getsignal(signal.SIGINT)))\n"
                     f"os.replace({str(seen)!r} + '.tmp', {str(seen)!r})\n")
    monkeypatch.chdir(tmp_path)  # found there: the fork server's path starts with its folder
    server._stop()  # a fork server of an earlier test: this one starts its own
    preload = server._preload_modules
    # this process has Python's Ctrl-C handler, as when started from a terminal: pytest
    # started with Ctrl-C ignored (nohup ... &, a background job of a script) had the fork
    # server ignore it whatever kabucli did, and failed the check below
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        server.set_forkserver_preload(["ctrl_c_probe"])
        _start_fork_server()
        deadline = time.monotonic() + 30
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen.exists(), "the fork server did not import the probe within 30 s"
        assert seen.read_text() == repr(signal.SIG_IGN)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    finally:
        signal.signal(signal.SIGINT, before)
        server._stop()
        server.set_forkserver_preload(preload)
    # and a pool started afterwards plays as ever
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), ["best", "random"], 4, seed=1,
                      workers=2)
    assert report.matches == 4


def test_a_pool_is_stopped_workers_first() -> None:
    # its workers go before its queues: a worker still starting when a run is stopped found
    # the queues gone and printed a traceback (a Ctrl-C just after a run began)
    from kabucli.sim import _stop_pool

    said: list[str] = []

    class Worker:
        def terminate(self) -> None:
            said.append("terminate")

        def join(self, timeout: float) -> None:
            said.append("join")

    class Pool:
        def __init__(self) -> None:
            self._processes = {1: Worker(), 2: Worker()}

        def shutdown(self, wait: bool, cancel_futures: bool) -> None:
            said.append("shutdown")

    _stop_pool(Pool())
    assert said == ["terminate", "terminate", "shutdown", "join", "join"]


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (from /proc)."""
    parent: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(stat.parent.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, up in parent.items():
            if up == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_a_run_killed_outright_leaves_no_process_behind() -> None:
    # kill -9 (or a timeout's TERM, the OOM killer): the run cannot stop its pool, whose
    # workers waited for work forever, keeping the fork server alive with them; they now
    # see the run gone and exit, and the fork server and its helper after them
    argv = [sys.executable, "-m", "kabucli", "sim", "dare", "-b", "best", "-b", "random",
            "-m", "200000", "--seed", "5", "--workers", "2", "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    below: set[int] = set()
    while time.monotonic() < deadline and len(below) < 2:  # 2 workers (forked by the run:
        time.sleep(0.1)                                    # it runs no other thread)
        below = _descendants(proc.pid)
    time.sleep(0.5)  # (both started)
    below = _descendants(proc.pid)
    assert len(below) >= 2, below
    proc.kill()
    proc.wait()
    def running(p: int) -> bool:  # (a zombie has ended: only its parent's wait is left)
        try:
            return Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and any(running(p) for p in below):
        time.sleep(0.1)
    left = [p for p in below if running(p)]
    for p in left:  # (not to leave them to the next test either)
        with contextlib.suppress(OSError):
            os.kill(p, signal.SIGKILL)
    assert not left, f"still running: {left}"


def test_a_run_started_with_ctrl_c_ignored_keeps_ignoring_it(tmp_path: Path) -> None:
    # a script's background job (or nohup ... &) starts with Ctrl-C ignored, so that the
    # terminal's Ctrl-C for the job in front does not stop it: as every other command, a
    # run keeps ignoring it (it took Ctrl-C over and stopped, exit 130); SIGTERM still stops
    # it. Both are sent at once: a Ctrl-C taken first would stop the run and drop the SIGTERM
    logs = tmp_path / "logs"
    argv = [sys.executable, "-m", "kabucli", "sim", "dare", "-b", "best", "-b", "random",
            "-m", "200000", "--seed", "5", "--workers", "2", "--logs", str(logs), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(logs.glob("*.kbl"))) < 20:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    proc.terminate()
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert json.loads(out)["stopped"] == "terminated (SIGTERM)"


def test_sigterm_stops_a_run_as_ctrl_c_does_with_its_report(tmp_path: Path) -> None:
    # kill PID, or `timeout`: the report so far, exit 143, the logs so far kept for a resume
    logs = tmp_path / "logs"
    argv = [sys.executable, "-m", "kabucli", "sim", "dare", "-b", "best", "-b", "random",
            "-m", "200000", "--seed", "5", "--workers", "2", "--logs", str(logs), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(logs.glob("*.kbl"))) < 20:
        time.sleep(0.1)
    proc.terminate()  # SIGTERM to the run's process alone
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert b"Traceback" not in err
    data = json.loads(out)
    assert data["stopped"] == "terminated (SIGTERM)" and 0 < data["matches"] < 200000
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m",
                              str(data["matches"]), "--seed", "5", "--workers", "1",
                              "--logs", str(logs), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["reused_logs"] == data["matches"]


def test_the_pool_starts_its_workers_by_fork_or_by_the_fork_server_to_the_same_results(
) -> None:
    # forked from the run (about 2 ms a worker) when it runs no other thread, else by the
    # fork server (a Python that loads kabucli first: about 0.08 s): the same matches
    import threading

    from kabucli.sim import _pool_context

    rules = build(DARE.Rules, ["rounds=2"])
    kinds = ["best", "random", "random"]
    one = simulate(DARE, rules, kinds, 30, seed=3, workers=1).as_dict()
    alone = threading.active_count() == 1
    forked = simulate(DARE, rules, kinds, 30, seed=3, workers=2).as_dict()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)  # as a progress display's
    other.start()
    try:
        assert _pool_context() == "forkserver"
        served = simulate(DARE, rules, kinds, 30, seed=3, workers=2).as_dict()
    finally:
        stop.set()
        other.join()
    if alone and sys.platform == "linux":
        assert _pool_context() == "fork"
    for report in (forked, served):
        report.pop("workers", None)
    one.pop("workers", None)
    assert forked == one == served


def test_workers_forked_after_a_run_with_python_bots_start_their_own_hosts(
        tmp_path: Path) -> None:
    # a worker forked from the run inherits the run's idle Python bot hosts, whose pipes are
    # the run's: it must start its own, and leave the run's alone (it took them for dead,
    # not being their parent, and killed them)
    phase, hosts = tmp_path / "phase.txt", tmp_path / "hosts.txt"
    bot = tmp_path / "mybot.py"
    bot.write_text("import os\n"
                   "from kabucli.games.dare.bots import BestBot\n"
                   "class Mine(BestBot):\n"
                   "    def choose(self, game, state, seat):\n"
                   f"        with open({str(hosts)!r}, 'a') as f:\n"
                   f"            f.write(open({str(phase)!r}).read()"
                   " + f' {os.getpid()} {os.getppid()}\\n')\n"
                   "        return super().choose(game, state, seat)\n")
    script = tmp_path / "run.py"
    script.write_text(
        "import json, os\n"
        "from kabucli import games\n"
        "from kabucli.rules import build\n"
        "from kabucli.sim import simulate\n"
        "if __name__ == '__main__':\n"
        "    g = games.get('dare'); r = build(g.Rules, ['rounds=1'])\n"
        f"    kinds = ['py:{bot}:Mine', 'random']\n"
        "    runs = []\n"
        "    for n, w in enumerate((1, 2, 1), start=1):\n"
        f"        open({str(phase)!r}, 'w').write(str(n))\n"
        "        runs.append(simulate(g, r, kinds, 12, 1, workers=w).as_dict())\n"
        "        runs[-1].pop('workers', None)\n"
        "    print(json.dumps([os.getpid(), runs]))\n")
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    run_pid, (first, forked, again) = json.loads(res.stdout)
    assert first == forked == again and first["failures"] == 0
    served = [line.split() for line in hosts.read_text().splitlines()]
    assert {parent for n, _, parent in served if n == "1"} == {str(run_pid)}
    # the forked workers' matches were played by hosts the workers started, not the run's
    assert str(run_pid) not in {parent for n, _, parent in served if n == "2"}
    # and the run's hosts lived on, to play its next run
    assert {host for n, host, _ in served if n == "3"} <= {host for n, host, _ in served
                                                           if n == "1"}


def test_at_a_terminal_the_progress_bar_and_standings_end_on_the_final_counts() -> None:
    """sim at a terminal draws a progress bar with live standings under it (on stderr). The
    standings are redrawn at most four times a second, so the last frame showed 2000/2000
    with the wins of a few hundred matches before; the last match now redraws them."""
    import io

    from rich.console import Console

    from kabucli.cli.runs import _live_run_shown

    out = io.StringIO()
    err = Console(file=out, force_terminal=True, color_system=None, width=100)
    rules = build(DARE.Rules, {})
    names = ["best", "random"]
    report = _live_run_shown(err, "Dare matches", 300, names, lambda on_match: simulate(
        DARE, rules, names, 300, seed=5, on_match=on_match), True)
    frames = out.getvalue()
    assert "300/300" in frames
    last = frames[frames.rindex("300/300"):]
    wins = [f"{b.wins:g}" for b in report.bots]
    table = [line.split() for line in last.splitlines() if line.split()[:1] in (["best"],
                                                                                 ["random"])]
    assert [row[1] for row in table[:2]] == wins, last


@pytest.mark.parametrize(("game", "rule"), [("dare", "rounds"), ("kabu-tsukuri", "hands")])
def test_a_simulated_match_keeps_no_events_in_memory(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str, rule: str) -> None:
    """kabucli sim keeps no event of a match in memory (its log is written as it plays), but
    for a Python class bot, whose host is sent the events since its last turn. Kept, they
    grew with the match (its memory, and the garbage collector's walks over the lists of
    cards they hold: each event of a long match took longer than the last)."""
    from kabucli import sim
    from kabucli.engine import Match

    made: list[Match] = []

    def recorded(*args: object) -> Match:
        made.append(Match(*args))  # type: ignore[arg-type]
        return made[-1]

    monkeypatch.setattr(sim, "Match", recorded)
    plan = sim.Plan(game, {rule: 40}, ("random", "random", "random"), 9, log_dir=str(tmp_path))
    outcome = sim.play_match(plan, 0)
    assert outcome.failed == 0 and outcome.logged > 200
    assert made[0].over and made[0].logged == outcome.logged and made[0].events == []
    assert len(read_log(plan.file(0), games.event_types).events) == outcome.logged

    bot = tmp_path / "mine.py"
    bot.write_text("from kabucli.games.dare.bots import RandomBot as Mine\n"
                   "from kabucli.games.kabu_tsukuri.bots import RandomBot as Kabu\n")
    kind = f"py:{bot}:{'Mine' if game == 'dare' else 'Kabu'}"
    plan = sim.Plan(game, {rule: 2}, (kind, "random", "random"), 9)
    outcome = sim.play_match(plan, 0)
    assert outcome.failed == 0 and len(made[1].events) == outcome.logged


@pytest.mark.parametrize("control", ["bot:best", "human", "bot:random"])
def test_only_a_users_own_bot_forfeits(tmp_path: Path, control: str) -> None:
    """kabucli writes a forfeit only for a user's bot (cmd:, py:) that failed in sim or a
    tournament. A log that has a built-in bot or a person forfeit, ending the match where
    its rules do not, was valid and finished; it breaks a rule at the forfeit."""
    logs = tmp_path / "logs"
    simulate(DARE, build(DARE.Rules, ["rounds=2"]), ["best", "random"], 1, seed=3,
             log_dir=logs, workers=1)
    data = read_log(logs / "dare-00001.kbl", games.event_types)
    seats = [msgspec.structs.replace(data.header.seats[0], control=control),
             *data.header.seats[1:]]
    header = msgspec.structs.replace(data.header, seats=seats)
    events = [*data.events[:10], Forfeit(1, "crashed")]
    violation = walk(DARE, header, events)[1]
    assert violation is not None and violation.index == 11
    assert "not a bot of the user's own" in violation.reason
    path = tmp_path / "forged.jsonl"
    write_log(path, header, events, "jsonl", types=games.event_types("dare"))
    res = runner.invoke(app, ["audit", str(path)])
    assert res.exit_code == 1 and "event 11" in res.output, res.output
