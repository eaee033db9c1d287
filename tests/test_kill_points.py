"""A referee's program stopped at chosen points (Ctrl-C while a move is written, or while
it is played): what the log holds after, and what the program says."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli.cli import app
from kabucli.games import event_types
from kabucli.games.dare.rules import GAME
from kabucli.log import audit_log, read_log
from kabucli.session import Session

runner = CliRunner()
TABLE = ["play", "dare", "--physical", "--players", "3"]
MOVES = "deal 1-7-5\np2 pass\np3 pass\n"


def typed(log: Path) -> list[str]:
    return [GAME.notate(e) for e in read_log(log, event_types).events if e.KIND != "auto"]


def ctrl_c_in_p2_s_fsync(monkeypatch: pytest.MonkeyPatch, log: Path) -> Any:
    """Referee TABLE with MOVES, a Ctrl-C raised from the fsync of p2's input once its bytes
    are written: the CLI's result."""
    real_sync, real_submit = os.fsync, Session.submit_line
    typing: list[str] = []
    interrupted: list[int] = []

    def submit(self: Session, line: str, confirm: Any = None) -> Any:
        typing.append(line)
        return real_submit(self, line, confirm)

    def fsync(fd: int) -> None:
        real_sync(fd)
        if typing[-1:] == ["p2 pass"] and not interrupted:  # its input, once written
            interrupted.append(fd)
            raise KeyboardInterrupt

    monkeypatch.setattr(Session, "submit_line", submit)
    monkeypatch.setattr(os, "fsync", fsync)
    res: Any = runner.invoke(app, [*TABLE, "--log", str(log)], input=MOVES)
    assert "Traceback" not in res.output
    assert interrupted
    return res


@pytest.mark.parametrize("name", ["table.kbl", "table.jsonl"])
def test_ctrl_c_while_an_input_is_synced_writes_it_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str) -> None:
    """The input's bytes are written, then Ctrl-C comes during its fsync: the log holds it
    once. (The binary writer kept the block it had just written as still to write, and the
    close that follows a Ctrl-C wrote it again: 'p2 pass' twice, a log that breaks a rule
    and that resume refuses.)"""
    log = tmp_path / name
    ctrl_c_in_p2_s_fsync(monkeypatch, log)
    assert typed(log) == ["deal 1-7-5", "p2 pass"]
    assert audit_log(log, event_types).violation is None


def test_ctrl_c_while_a_move_is_played_is_one_line_with_the_resume_command(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ctrl-C while the program works on a move (not waiting at the prompt) stops the game as
    a Ctrl-C at the prompt does: one line naming the log and its resume command. (typer turned
    it into a silent exit 130: nothing said, and no word of the log.)"""
    log = tmp_path / "table.kbl"
    real_submit = Session.submit_line

    def submit(self: Session, line: str, confirm: Any = None) -> Any:
        if line == "p2 pass":
            raise KeyboardInterrupt
        return real_submit(self, line, confirm)

    monkeypatch.setattr(Session, "submit_line", submit)
    res: Any = runner.invoke(app, [*TABLE, "--log", str(log)], input=MOVES)
    assert "Traceback" not in res.output
    assert res.exit_code == 0
    lines = res.stderr.strip().splitlines()
    assert lines == [f"stopped (Ctrl-C); log kept: {log} (4 events); go on with: kabucli "
                     f"resume {log}"]
    assert typed(log) == ["deal 1-7-5"]


@pytest.mark.parametrize("name", ["table.kbl", "table.jsonl"])
def test_ctrl_c_while_an_input_is_synced_counts_the_events_the_log_holds(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str) -> None:
    """The line that names the log after such a Ctrl-C counts what the log holds: the input
    was written (then the Ctrl-C came during its fsync) though the match never took it in.
    (It said '4 events' of a log of 5, and resume went on after the fifth.)"""
    log = tmp_path / name
    res = ctrl_c_in_p2_s_fsync(monkeypatch, log)
    assert res.exit_code == 0
    held = len(read_log(log, event_types).events)
    assert held == 5  # the deal, three antes, and p2's pass
    assert res.stderr.strip() == (f"stopped (Ctrl-C); log kept: {log} ({held} events); go on "
                                  f"with: kabucli resume {log}")


@pytest.mark.parametrize("name", ["table.kbl", "table.jsonl"])
@pytest.mark.parametrize("seats", ["referee", "a person and bots"])
def test_every_byte_written_is_synced_before_each_prompt(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str, seats: str) -> None:
    """When a line is typed at the prompt, everything the log was given so far (the
    inputs, and in JSON Lines the events derived from them, which the screen has shown) is
    on disk: the file's size at its last fsync is all the writer wrote. (A process killed at
    the prompt, or a power cut, keeps every event shown.)"""
    log = tmp_path / name
    real_sync, real_submit = os.fsync, Session.submit_line
    synced: list[int] = []
    checked: list[tuple[int, int]] = []

    def fsync(fd: int) -> None:
        real_sync(fd)
        found = os.fstat(fd)
        if stat.S_ISREG(found.st_mode):  # (not the folder, synced as the log is made)
            synced.append(found.st_size)

    def submit(self: Session, line: str, confirm: Any = None) -> Any:
        writer = self.match.writer
        assert writer is not None
        checked.append((synced[-1], writer.size))
        return real_submit(self, line, confirm)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(Session, "submit_line", submit)
    if seats == "referee":
        args, moves = TABLE, MOVES + "p1 pass\n"
    else:
        args = ["play", "dare", "--seed", "7", "--bot", "2=best", "--bot", "3=random", "-r",
                "rounds=2", "--script", "-"]
        moves = "pass\n" * 2
    res: Any = runner.invoke(app, [*args, "--log", str(log)], input=moves)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert len(checked) >= 2
    assert all(on_disk == given for on_disk, given in checked), checked
    assert log.stat().st_size == synced[-1]  # (and at the end)


@pytest.mark.parametrize("name", ["game.kbl", "game.jsonl"])
def test_a_game_a_bot_s_failure_stops_is_synced_whole(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, name: str) -> None:
    """A person's game stopped by a bot that fails (here a program that ends at once): the
    events written before the stop, the ones the engine derived after the person's last move
    among them (in JSON Lines), are all on disk once the program ends, as at a prompt."""
    log = tmp_path / name
    real_sync = os.fsync
    synced: list[int] = []

    def fsync(fd: int) -> None:
        real_sync(fd)
        found = os.fstat(fd)
        if stat.S_ISREG(found.st_mode):
            synced.append(found.st_size)

    monkeypatch.setattr(os, "fsync", fsync)
    res: Any = runner.invoke(app, ["play", "dare", "--seed", "7", "--bot", "2=cmd:true",
                                   "--bot", "3=random", "--script", "-", "--log", str(log)],
                             input="pass\n" * 3)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 1, res.stderr
    assert "p2" in res.stderr
    assert synced and log.stat().st_size == synced[-1], (synced, log.stat().st_size)


def _kabucli(*args: str) -> subprocess.Popen[str]:
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(root)}
    return subprocess.Popen([sys.executable, "-m", "kabucli", *args], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            preexec_fn=_signals_default)


def _signals_default() -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


# SIGTERM (kill, a machine shutting down) and SIGHUP (the terminal closed, an ssh connection
# lost: it ended the program outright, a game between bots losing the inputs not yet written)
STOPPING = pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143),
                                                     (signal.SIGHUP, 129)],
                                   ids=["SIGTERM", "SIGHUP"])


def _held(log: Path) -> int:
    """The events the log holds now (0 while it cannot be read)."""
    try:
        return len(read_log(log, event_types, strict=False).events)
    except Exception:  # (not made yet)
        return 0


def _until(done: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    for _ in range(600):  # 60 s at most
        if done() or proc.poll() is not None:
            return
        time.sleep(0.1)


@STOPPING
def test_sigterm_stops_a_game_between_bots_keeping_the_inputs_not_yet_written(
        tmp_path: Path, sig: signal.Signals, code: int) -> None:
    """SIGTERM (``kill``, a machine shutting down) in the middle of a long game between bots:
    the game stops in one line naming its log, exit 143 (the signal's own), and the log holds
    every event played, the inputs a game between bots writes in blocks included: it audits
    valid and unfinished with the events the line gives. (It was killed outright: no word,
    and the block in hand was lost.)"""
    log = tmp_path / "long.kbl"
    proc = _kabucli("play", "uno-dare", "--bot", "all=random", "--rule", "target=1000000",
                    "--quiet", "--log", str(log))
    _until(lambda: _held(log) > 10_000, proc)  # a first block written: well under way
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    audited = audit_log(log, event_types)
    assert audited.violation is None and not audited.match.over
    assert err.strip() == (f"stopped ({sig.name}); log kept: {log} ({audited.events} events); go "
                           f"on with: kabucli resume {log}")


@pytest.mark.parametrize("how", ["bots", "script"])
def test_ctrl_c_in_a_game_nobody_types_in_exits_130(tmp_path: Path, how: str) -> None:
    """Ctrl-C in a game between bots, or one whose moves a script gives: one line naming the
    log, exit 130 (Ctrl-C's own), as sim's. It exited 0, which README gives a game a person
    left at the prompt: a script could not tell the game stopped from one played out."""
    log = tmp_path / "long.kbl"
    if how == "bots":  # (Dare's longest match, 10,000 rounds, took 1.5 s between bots: under
        # load it could end before the Ctrl-C came, and the test failed now and then)
        game = ["uno-dare", "--bot", "all=random", "--rule", "target=1000000"]
    else:  # (p1's moves from a script that ends first: then from the prompt, none here)
        (tmp_path / "moves.txt").write_text("pass\n" * 5000)
        game = ["dare", "--player", "Ann", "--bot", "2=random", "--script",
                str(tmp_path / "moves.txt"), "--rule", "rounds=10000"]
    proc = _kabucli("play", *game, "--seed", "3", "--quiet", "--log", str(log))
    _until(lambda: _held(log) > 2_000, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    audited = audit_log(log, event_types)
    assert audited.violation is None and not audited.match.over
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"stopped (Ctrl-C); log kept: {log} ({audited.events} "
                               f"events)"), err
    assert len(lines) == 1, err  # (an 'aborted' followed it, from typer's exit 130)


@STOPPING
@pytest.mark.parametrize("name", ["table.kbl", "table.jsonl"])
def test_sigterm_at_a_referee_s_prompt_stops_in_one_line(tmp_path: Path, name: str,
                                                         sig: signal.Signals,
                                                         code: int) -> None:
    """SIGTERM while a real table's referee is at the prompt: one line, exit 143, the log
    whole and resumable."""
    log = tmp_path / name
    proc = _kabucli(*TABLE, "--log", str(log))
    assert proc.stdin is not None
    proc.stdin.write("deal 1-7-5\np2 pass\n")
    proc.stdin.flush()
    _until(lambda: _held(log) >= 5, proc)  # the deal, three antes and p2's pass
    time.sleep(0.2)  # (at p3's prompt)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert err.strip().endswith(f"stopped ({sig.name}); log kept: {log} (5 events); go on with: "
                                f"kabucli resume {log}")
    assert typed(log) == ["deal 1-7-5", "p2 pass"]
    assert audit_log(log, event_types).violation is None


def _sigterm_at(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> None:
    """A real SIGTERM sent to this process as ``owner.name`` is called (then it runs)."""
    real = getattr(owner, name)

    def sent(*args: Any, **kwargs: Any) -> Any:
        os.kill(os.getpid(), signal.SIGTERM)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, sent)


@pytest.mark.parametrize("as_json", [False, True])
def test_sigterm_as_a_game_starts_stops_it_in_one_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, as_json: bool) -> None:
    """SIGTERM once the game is under way but before its loop (here as the prompt's reader
    is chosen; in a real process, while the drawing code is still being imported): one line,
    exit 143, and a log resume goes on with. (It escaped the loop's handler: typer made it a
    silent exit 130, the log unnamed.)"""
    from kabucli.cli import table

    log = tmp_path / "bots.jsonl"
    _sigterm_at(monkeypatch, table, "_asker")
    res: Any = runner.invoke(app, ["play", "dare", "--seed", "3", "--bot", "all=random",
                                   "--log", str(log), *(["--json"] if as_json else [])])
    assert "Traceback" not in res.output
    assert res.exit_code == 143, (res.exit_code, res.stderr)
    assert res.stderr.strip() == (f"stopped (SIGTERM); log kept: {log} (0 events); go on with: "
                                  f"kabucli resume {log}")
    if as_json:
        doc = json.loads(res.stdout)
        assert doc["stopped"] == "stopped (SIGTERM)" and doc["outcome"] is None
    monkeypatch.undo()
    again: Any = runner.invoke(app, ["resume", str(log), "--quiet"])
    assert again.exit_code == 0, again.stderr
    assert audit_log(log, event_types).violation is None
    assert read_log(log, event_types).header.game == "dare"


def test_sigterm_as_a_finished_game_s_result_is_drawn_is_one_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """SIGTERM once the game is over, as its result is drawn: one line naming the log, exit
    143 (it was a silent exit 130)."""
    from kabucli import render

    log = tmp_path / "bots.kbl"
    _sigterm_at(monkeypatch, render, "outcome_panel")
    res: Any = runner.invoke(app, ["play", "dare", "--seed", "3", "--bot", "all=random",
                                   "-r", "rounds=1", "--log", str(log)])
    assert "Traceback" not in res.output
    assert res.exit_code == 143, (res.exit_code, res.stderr)
    held = len(read_log(log, event_types).events)
    assert res.stderr.strip() == f"stopped (SIGTERM); log kept: {log} ({held} events)"
    audited = audit_log(log, event_types)
    assert audited.violation is None and audited.match.over and audited.events == held


def test_a_ctrl_c_after_sigterm_does_not_cut_the_stop_short(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """SIGTERM, then a Ctrl-C while the game stops (its log being closed): the stop goes on
    to its line naming the log, exit 143, and the log closes whole. (The Ctrl-C cut the close
    short and the line was lost: only 'aborted', exit 130.)"""
    from kabucli.cli import table

    log = tmp_path / "bots.kbl"
    _sigterm_at(monkeypatch, table, "_asker")
    real_close = Session.close
    sent: list[int] = []

    def close(self: Session) -> None:
        if not sent:
            sent.append(signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
        real_close(self)

    monkeypatch.setattr(Session, "close", close)
    res: Any = runner.invoke(app, ["play", "dare", "--seed", "3", "--bot", "all=random",
                                   "--log", str(log)])
    assert sent and "Traceback" not in res.output
    assert res.exit_code == 143, (res.exit_code, res.stderr)
    audited = audit_log(log, event_types)
    assert res.stderr.strip() == (f"stopped (SIGTERM); log kept: {log} ({audited.events} "
                                  f"events); go on with: kabucli resume {log}")
    assert audited.violation is None and not audited.match.over
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # (given back)


@pytest.mark.parametrize("typed", ["stop\n", "stop\ny\n"])
def test_sigterm_at_a_question_starts_the_stop_line_on_a_line_of_its_own(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, typed: str) -> None:
    """SIGTERM while Kazu-Tori's stop is asked about, or at the game-over undo offer: the
    line naming the log starts a line of its own, as at the move prompt. (It followed the
    question on its line: '... [y/N] stopped (SIGTERM); log kept: ...'.)"""
    from kabucli.cli import table

    log = tmp_path / "kazu.jsonl"
    real_line = table._line  # (what reads each line typed at the prompt or a question)
    asked: list[int] = []

    def read(out: Any, *args: Any) -> str:  # the question (or offer) is out: SIGTERM as it
        if asked == [len(typed.splitlines())]:  # waits for the answer
            real_print = out.print

            def print_then_stop(*printed: Any, **how: Any) -> None:
                out.print = real_print
                real_print(*printed, **how)  # (the question)
                os.kill(os.getpid(), signal.SIGTERM)

            out.print = print_then_stop
        asked[:] = [asked[0] + 1] if asked else [1]
        return real_line(out, *args)

    monkeypatch.setattr(table, "_line", read)
    res: Any = runner.invoke(app, ["play", "kazu-tori", "--seed", "1", "--bot", "2=random",
                                   "--log", str(log)], input=typed)
    assert res.exit_code == 143, (res.exit_code, res.output)
    question = "[y/N] " if typed == "stop\n" else "Enter: finish) > "
    assert question in res.stdout
    assert res.stdout.endswith(question + "\n"), res.stdout[-80:]
    assert res.stderr.startswith("stopped (SIGTERM); log kept: ")


def _checking_a_stuck_bot(tmp_path: Path,
                          *more: str) -> tuple[subprocess.Popen[str], Path, str]:
    """``kabucli bot check`` of a program that never answers nor reads its input, once it
    thinks over its first turn: the process, the file the program wrote its pid to, and the
    program's command."""
    pid_file = tmp_path / "bot.pid"
    bot = tmp_path / "stuck.py"
    bot.write_text("import os, sys, time\n"
                   f"open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
                   "time.sleep(120)\n")
    command = f"{sys.executable} {bot}"
    proc = _kabucli("bot", "check", "dare", command, "--timeout", "60", *more)
    _until(lambda: pid_file.exists() and pid_file.read_text() != "", proc)
    time.sleep(0.3)  # (waiting for its first answer)
    return proc, pid_file, command


def test_sigterm_stops_bot_check_and_the_program_it_checks(tmp_path: Path) -> None:
    """SIGTERM to ``kabucli bot check`` while the program checked thinks (here one that never
    answers, nor reads its input): one line, exit 143, and the program is not left running."""
    proc, pid_file, _ = _checking_a_stuck_bot(tmp_path)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert err.strip() == "stopped (SIGTERM)"
    pid = int(pid_file.read_text())
    for _ in range(50):  # (its end may take a moment to be seen)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
        raise AssertionError(f"the bot (pid {pid}) outlived bot check")


@pytest.mark.parametrize(("sig", "code", "said"), [(signal.SIGINT, 130, "stopped (Ctrl-C)"),
                                                   (signal.SIGTERM, 143, "stopped (SIGTERM)")],
                         ids=["ctrl-c", "SIGTERM"])
def test_bot_check_json_stopped_by_a_signal_still_prints_its_document(
        tmp_path: Path, sig: signal.Signals, code: int, said: str) -> None:
    """``bot check --json`` stopped by Ctrl-C printed nothing on stdout (and 'aborted' on
    stderr), SIGTERM only its line: a program reading the document got none. It prints one,
    no checks and ``stopped`` saying why, as sim's report says it; and one line on stderr."""
    proc, _, command = _checking_a_stuck_bot(tmp_path, "--json")
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert json.loads(out) == {"command": command, "ok": False, "checks": [], "stopped": said}
    assert err.strip() == said


def test_after_sighup_a_stderr_that_was_the_terminal_is_written_no_more(tmp_path: Path) -> None:
    """SIGHUP (the terminal gone): the standard streams that were a terminal are /dev/null
    from then on (writing to a terminal gone fails, and the stop's tidying up printed
    tracebacks); one that is a pipe is kept. Here stderr is a terminal (a pty), stdout a pipe:
    the stop's line goes nowhere, and the log is kept whole."""
    import pty

    log = tmp_path / "long.kbl"
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
           "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "kabucli", "play", "uno-dare", "--bot",
                             "all=random", "--rule", "target=1000000", "--quiet", "--log",
                             str(log)], env=env, text=True, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=slave, preexec_fn=_signals_default)
    os.close(slave)
    try:
        _until(lambda: _held(log) > 10_000, proc)
        proc.send_signal(signal.SIGHUP)
        proc.communicate(timeout=60)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # (EIO: the pty's other end closed)
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 129
    assert b"stopped" not in seen, seen
    audited = audit_log(log, event_types)
    assert audited.violation is None and not audited.match.over
