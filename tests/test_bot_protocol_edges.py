"""Edges of the bot protocol (kabucli/bots/external.py) that mutation testing found no test
holding: how a bot that exited is described, the line limit, the late-exit wait, the end of
a bot's processes, the byte order mark, the memory limit, the time limit's reading and the
Python bot host's copy of the match."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from matchtools import alive
from typer.testing import CliRunner, Result

from kabucli import games
from kabucli.bots.external import ERR_TAIL, LINE_LIMIT, Channel, PythonBot, Stalled
from kabucli.cli import app
from kabucli.rules import build
from kabucli.sim import simulate

DARE = games.get("dare")


def failed_turn(script: str, limit: float = 5.0) -> str:
    """How a Python ``script`` sent one turn fails to answer it (the Stalled's words)."""
    return failed_answer([sys.executable, "-c", script], limit)


def failed_answer(argv: list[str], limit: float) -> str:
    """How the program ``argv`` sent one turn fails to answer it (the Stalled's words)."""
    chan = Channel(argv, limit)
    try:
        chan.send(b"{}\n", chan.deadline())
        with pytest.raises(Stalled) as caught:
            chan.line(chan.deadline())
        return str(caught.value)
    finally:
        chan.kill()


# -- how a bot that exited is described ----------------------------------------------------

def test_blank_stderr_lines_after_the_last_words_are_passed_over() -> None:
    """A bot whose stderr ends in blank lines (or spaces) is said by its last line that
    holds something, not as one that wrote nothing."""
    script = ("import sys\nsys.stdin.readline()\n"
              "sys.stderr.write('no model found\\n\\n   \\n\\n'); sys.exit(2)\n")
    why = failed_turn(script)
    assert why == "exited (code 2) without answering; its last line on stderr: " \
                  "'no model found'", why


def test_a_short_last_stderr_line_after_a_cut_long_one_is_quoted_whole() -> None:
    """Only the last ERR_TAIL bytes of stderr are kept, so the first line kept is cut; a
    short last line after it is whole: quoted as it is, not as the end of a long line."""
    script = ("import sys\nsys.stdin.readline()\n"
              f"sys.stderr.write('x' * {2 * ERR_TAIL} + '\\nthe real reason\\n'); sys.exit(1)\n")
    why = failed_turn(script)
    assert why == "exited (code 1) without answering; its last line on stderr: " \
                  "'the real reason'", why


def test_the_end_of_a_cut_stderr_line_of_control_characters_stays_short() -> None:
    """The end of a cut stderr line is shown safe (control characters as escapes, each
    several characters long) and still cut to 120 characters."""
    script = ("import sys\nsys.stdin.readline()\n"
              f"sys.stderr.write('\\x01' * {3 * ERR_TAIL}); sys.exit(1)\n")
    why = failed_turn(script)
    head = "exited (code 1) without answering; its last line on stderr: '…"
    assert why.startswith(head), why
    end = why[len(head):why.index("' (its end")]
    assert end == "\\x01" * 30, end


def test_a_killed_channel_does_not_read_the_descriptor_its_stderr_had() -> None:
    """Once a bot is killed its pipes are closed, and their descriptor numbers may be given
    to another file (another bot's pipe): describing its exit then must not read from that
    number, which would take what was written there."""
    chan = Channel([sys.executable, "-c", "import sys; sys.stderr.write('gone'); sys.exit(3)"],
                   5.0)
    chan.proc.wait()
    err = chan._err
    chan.kill()
    r, w = os.pipe()
    try:
        if r != err:  # the number taken again, as the next file opened would
            os.dup2(r, err)
        os.set_blocking(err, False)
        os.write(w, b"another bot's answer\n")
        assert chan._exited(3) == "exited (code 3) without answering"
        assert os.read(err, 100) == b"another bot's answer\n"
    finally:
        for fd in {r, w, err}:
            os.close(fd)


def test_a_bot_that_exits_a_moment_after_closing_its_input_is_said_to_have_exited() -> None:
    """A bot that closes its input and exits a moment later (as an exiting process closes
    its pipes a moment before it can be waited for) is said by its exit, not as one that
    closed its input, when sending it a turn finds the pipe closed."""
    chan = Channel(["sh", "-c", "exec 0<&-; sleep 0.02; exit 3"], 5.0)
    try:
        began = time.monotonic()
        while os.path.exists(f"/proc/{chan.proc.pid}/fd/0") and time.monotonic() < began + 5:
            time.sleep(0.001)
        with pytest.raises(Stalled) as caught:
            chan.send(b"{}\n", chan.deadline())
        assert str(caught.value) == "exited (code 3) without answering"
    finally:
        chan.kill()


# -- the line limit ------------------------------------------------------------------------

def test_an_answer_of_just_the_line_limit_is_read_one_byte_more_is_not() -> None:
    """An answer line of LINE_LIMIT bytes (its newline not counted) is read whole, though it
    came before its newline; one of a byte more is refused as too long."""
    script = ("import sys, time\n"
              "n = int(sys.argv[1])\n"
              "for _ in range(2):\n"
              "    sys.stdin.readline()\n"
              "    sys.stdout.write('x' * n); sys.stdout.flush()\n"
              "    time.sleep(0.2)\n"
              "    sys.stdout.write('\\n'); sys.stdout.flush()\n")
    chan = Channel([sys.executable, "-c", script, str(LINE_LIMIT)], 5.0)
    try:
        chan.send(b"{}\n", chan.deadline())
        assert chan.line(chan.deadline()) == b"x" * LINE_LIMIT
    finally:
        chan.kill()
    assert "answered a line longer than 64 KiB" in failed_answer(
        [sys.executable, "-c", script, str(LINE_LIMIT + 1)], 5.0)


# -- the waits for a bot that exits -------------------------------------------------------

def test_a_late_answer_from_a_bot_that_then_exits_is_said_late_not_an_exit() -> None:
    """Under a short limit a bot that has not answered is waited for until LATE_EXIT after
    its start, in case it is exiting; one that answered in that wait and then exited was
    late, not a bot that exited without answering."""
    assert (failed_answer(["sh", "-c", "read x; sleep 0.2; echo pass"], 0.1)
            == "did not answer within 0.1 s")


def test_a_bot_that_closed_its_output_is_given_a_moment_to_exit_past_its_limit() -> None:
    """A bot that closed its output is waited for at least LATE_EXIT to exit, even when its
    limit ends sooner: its exit code is what to say."""
    chan = Channel(["sh", "-c", "exec 1>&-; sleep 0.25; exit 4"], 0.1)
    try:
        with pytest.raises(Stalled) as caught:
            chan.line(chan.deadline())
        assert str(caught.value) == "exited (code 4) without answering"
    finally:
        chan.kill()


def test_a_bot_that_closed_its_output_and_runs_on_is_not_waited_for_past_a_second() -> None:
    """A bot that closed its output but runs on is waited for a second at most, whatever
    its limit: it can no longer answer."""
    chan = Channel(["sh", "-c", "exec 1>&-; exec sleep 30"], 10.0)
    try:
        began = time.monotonic()
        with pytest.raises(Stalled, match=r"^closed its output without answering$"):
            chan.line(chan.deadline())
        assert time.monotonic() - began < 3.0
    finally:
        chan.kill()


def test_a_bot_that_exits_while_a_child_holds_its_output_is_seen_at_once() -> None:
    """A bot that exits while a process it started holds its output open is seen to have
    exited within a moment (EXIT_CHECK), not at the end of its limit."""
    chan = Channel(["sh", "-c", "read x; sleep 30 & exit 3"], 10.0)
    try:
        chan.send(b"{}\n", chan.deadline())
        began = time.monotonic()
        with pytest.raises(Stalled) as caught:
            chan.line(chan.deadline())
        assert str(caught.value) == "exited (code 3) without answering"
        assert time.monotonic() - began < 3.0
    finally:
        chan.kill()


def test_an_answer_written_just_before_the_bot_exits_is_read() -> None:
    """A bot that answers and exits at once may be seen exited by the look made when nothing
    was there to read a moment before: what it wrote meanwhile is read, its answer."""
    chan = Channel(["sh", "-c", "read x; echo pass"], 5.0)
    looks = []
    real = chan._ready

    def late(sel: Any, wait: float) -> bool:  # the answer comes just after a look timed out
        if wait > 0 and not looks:
            looks.append(wait)
            chan.proc.wait()
            return False
        return real(sel, wait)

    chan._ready = late  # type: ignore[method-assign]
    try:
        chan.send(b"{}\n", chan.deadline())
        assert chan.line(chan.deadline()) == b"pass"
        assert looks
    finally:
        chan.kill()


def test_a_line_begun_before_an_exit_in_the_late_wait_is_said_as_the_line_begun() -> None:
    """A bot that wrote part of a line and did not end it in time is told so ('with no
    newline after it'), even when it exits within the late-exit wait of a short limit."""
    assert failed_answer(["sh", "-c", "read x; printf pa; sleep 0.25; exit 5"], 0.1) == (
        "did not answer within 0.1 s: it wrote 'pa' with no newline after it (end each answer "
        "with a newline)")


# -- the end of a bot's processes ---------------------------------------------------------

def test_a_child_that_cleared_its_environment_ends_with_the_bots_process_group(
        tmp_path: Path) -> None:
    """A process the bot started that cleared its environment (so bears no mark) but stayed
    in the bot's process group is killed with the bot."""
    pid_file = tmp_path / "pid"
    chan = Channel(["sh", "-c", f"env -i sleep 30 & echo $! > {pid_file}; read x"], 5.0)
    try:
        began = time.monotonic()
        while not (pid_file.exists() and pid_file.read_text().strip()):
            assert time.monotonic() < began + 5
            time.sleep(0.01)
        pid = int(pid_file.read_text())
    finally:
        chan.kill()
    began = time.monotonic()
    while alive(pid) and time.monotonic() < began + 2:
        time.sleep(0.01)
    assert not alive(pid)




# -- the byte order mark -------------------------------------------------------------------

BOM_EACH_ANSWER = r"""
import json, sys
out = sys.stdout.buffer
first = True
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    # each answer starts with a byte order mark, its first byte written after the last answer
    out.write((b"" if first else b"\xbb\xbf") + msg["legal"][-1].encode() + b"\n\xef")
    out.flush()
    first = False
"""


def _against_best(bot: Path, source: str) -> Result:
    """A seeded two-round game of Dare between the program ``source`` (written to ``bot``) as
    p1 and the best bot."""
    bot.write_text(source)
    return CliRunner().invoke(app, ["play", "dare", "--seed", "3", "--players", "2", "--rule",
                                    "rounds=2", "--bot", f"1=cmd:{sys.executable} {bot}",
                                    "--bot", "2=best", "--no-log"])


def test_a_byte_order_mark_begun_after_an_answer_is_not_an_answer_before_the_turn(
        tmp_path: Path) -> None:
    """What a bot wrote before it was asked is an answer out of step, unless it is (the
    start of) a byte order mark, which its next answer then begins with."""
    res = _against_best(tmp_path / "bom.py", BOM_EACH_ANSWER)
    assert res.exit_code == 0, res.output


# -- the Python bot host's copy of the match -----------------------------------------------

SAME_STATE = """
class SameState:  # fails when the match it is shown is a new copy, rebuilt from the events
    def __init__(self, rng):
        self.state = None
    def choose(self, game, state, seat):
        if self.state is not None and state is not self.state:
            raise RuntimeError("the match was rebuilt")
        self.state = state
        legal = game.legal(state, seat)
        return legal[len(legal) // 2]
"""


def test_a_python_bots_host_follows_the_match_without_rebuilding_it(tmp_path: Path) -> None:
    """The host of a Python bot is sent, each turn, the events since its last turn and
    applies them to its copy of the match: it does not build the match again from its
    start each turn (which made each turn of a long match slower than the last)."""
    bot = tmp_path / "same.py"
    bot.write_text(SAME_STATE)
    report = simulate(DARE, build(DARE.Rules, ["rounds=2"]), [f"py:{bot}:SameState", "random"],
                      2, seed=1)
    assert report.failures == 0, report.failed


def test_a_python_bot_is_sent_each_event_once_in_a_match_without_undo(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each turn a Python bot's host is sent the events it has not had: it keeps all it
    had (``keep``), and no event is sent twice."""
    bot = tmp_path / "same.py"
    bot.write_text(SAME_STATE)
    sent: list[tuple[int, int]] = []
    real = PythonBot._ask

    def ask(self: PythonBot, message: dict[str, Any], who: str) -> dict[str, Any]:
        if message["type"] == "turn":
            sent.append((message["keep"], len(message["events"])))
        return real(self, message, who)

    monkeypatch.setattr(PythonBot, "_ask", ask)
    report = simulate(DARE, build(DARE.Rules, ["rounds=4"]), [f"py:{bot}:SameState", "random"],
                      1, seed=1)
    assert report.failures == 0, report.failed
    assert len(sent) > 3, sent
    had = 0
    for keep, new in sent:
        assert keep == had, sent
        had = keep + new


def test_a_long_last_stderr_line_is_quoted_cut_to_120_characters() -> None:
    """A last stderr line that is whole but long is quoted by its first 120 characters and
    its length, so that the failure stays one short line."""
    script = ("import sys\nsys.stdin.readline()\n"
              "sys.stderr.write('w' * 300 + '\\n'); sys.exit(1)\n")
    why = failed_turn(script)
    assert why == ("exited (code 1) without answering; its last line on stderr: "
                   f"'{'w' * 120}… (300 characters)'"), why


def test_the_docs_say_how_much_of_a_bots_stderr_is_kept() -> None:
    """docs/bots.md says how much of a bot's stderr kabucli keeps: ERR_TAIL."""
    docs = (Path(__file__).parent.parent / "docs" / "bots.md").read_text()
    assert f"kabucli keeps only its last {ERR_TAIL // 1024} KiB" in docs


def test_an_answer_a_byte_over_the_line_limit_sent_with_its_newline_is_refused() -> None:
    """A line of LINE_LIMIT + 1 bytes written at once with its newline is too long."""
    script = ("import sys\nsys.stdin.readline()\n"
              f"sys.stdout.write('x' * {LINE_LIMIT + 1} + '\\n'); sys.stdout.flush()\n"
              "sys.stdin.readline()\n")
    assert "answered a line longer than 64 KiB" in failed_turn(script)


def test_a_program_failing_at_its_start_under_a_limit_under_a_second_is_said_to_exit() -> None:
    """Under a limit shorter than LATE_LIMIT (here 0.2 s) a program that fails as it starts,
    a little after its limit, is said by its exit and its last stderr line: waited for
    until LATE_EXIT after its start."""
    assert failed_answer(["sh", "-c", "sleep 0.3; echo no model found >&2; exit 2"], 0.2) == (
        "exited (code 2) without answering; its last line on stderr: 'no model found'")


def test_a_channel_killed_twice_signals_nothing_the_second_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a bot is killed and waited for, its process id may be another process's: a
    second kill (a bot ended by its failure, then by the game's end) sends no signal."""
    chan = Channel(["sleep", "30"], 5.0)
    chan.kill()
    sent: list[int] = []
    monkeypatch.setattr(os, "killpg", lambda pid, sig: sent.append(pid))
    monkeypatch.setattr(os, "kill", lambda pid, sig: sent.append(pid))
    chan.kill()
    assert sent == []


def test_stop_all_ends_every_bot_process_not_yet_ended() -> None:
    """stop_all (at exit, or in a pool worker whose run died) kills every bot process this
    process started and has not ended."""
    from kabucli.bots import external

    chan = Channel(["sleep", "30"], 5.0)
    try:
        external.stop_all()
        assert chan.proc.poll() is not None
    finally:
        chan.kill()


def test_a_killed_channel_is_no_longer_among_the_live_ones() -> None:
    """A bot's channel, once killed, is dropped from those stop_all would end: a run of many
    matches would hold every finished bot's process and pipes otherwise."""
    from kabucli.bots import external

    chan = Channel(["sleep", "30"], 5.0)
    assert external._live.get(chan.mark) is chan
    chan.kill()
    assert chan.mark not in external._live


# -- the memory limit and the time limit as set ------------------------------------------

@pytest.mark.parametrize(("text", "mib"), [("1073741824", 2**30), (" 64 ", 64), ("1", 1)])
def test_kabucli_bot_memory_takes_whole_mib_up_to_its_maximum(
        monkeypatch: pytest.MonkeyPatch, text: str, mib: int) -> None:
    """KABUCLI_BOT_MEMORY is MiB, a whole number up to 1073741824 (spaces around it are
    not part of it)."""
    from kabucli.bots.external import bot_memory

    monkeypatch.setenv("KABUCLI_BOT_MEMORY", text)
    assert bot_memory() == mib * 2**20


def test_kabucli_bot_memory_refuses_one_past_its_maximum(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from kabucli.bots.external import bot_memory
    from kabucli.errors import BotError

    monkeypatch.setenv("KABUCLI_BOT_MEMORY", str(2**30 + 1))
    with pytest.raises(BotError, match="at most 1073741824"):
        bot_memory()



def test_the_default_memory_limit_is_memory_mib_or_half_the_machine_the_smaller(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without KABUCLI_BOT_MEMORY a bot may take MEMORY MiB, or half of this machine's
    memory where that is less: never more than either."""
    from kabucli.bots.external import MEMORY, bot_memory

    monkeypatch.delenv("KABUCLI_BOT_MEMORY", raising=False)
    half = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
    assert bot_memory() == min(MEMORY * 2**20, half)

@pytest.mark.parametrize(("text", "value"), [
    ("0.001", 0.001), ("86400", 86400.0), ("1e-3", 0.001), (" 2.5 ", 2.5),
    ("0.0009", None), ("86400.01", None), ("0", None), ("-1", None), ("inf", None),
    ("nan", None), ("1e9", None), ("ten", None), ("", None), ("１０", None), ("1_0", None),
    ("\u0661", None), ("2\u00a0", None)])
def test_a_time_limit_is_a_number_of_seconds_from_a_millisecond_to_a_day(
        text: str, value: float | None) -> None:
    """``--timeout`` and KABUCLI_BOT_TIMEOUT: 0.001 to 86400 seconds, both included, in the
    digits 0-9 (full width '１０', '1_0' and an Arabic-Indic one were taken)."""
    from kabucli.bots.external import seconds

    assert seconds(text) == value


SECOND_ANSWER_BAD = r"""
import json, sys
turns = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        continue
    turns += 1
    print(msg["legal"][-1] if turns == 1 else "nonsense", flush=True)
"""


def test_a_bad_answer_after_the_first_is_not_taken_for_a_greeting(tmp_path: Path) -> None:
    """Only the first line a bot writes may be a greeting meant for stderr: a bad answer
    later is refused without that hint."""
    res = _against_best(tmp_path / "second.py", SECOND_ANSWER_BAD)
    assert res.exit_code == 1, res.output
    line = next(x for x in res.output.splitlines() if x.startswith("error:"))
    assert "answered 'nonsense'" in line, line
    assert "the first line the bot wrote" not in line, line
