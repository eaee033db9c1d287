"""The standard streams as a hostile user or a misbehaving terminal leaves them: a standard
input with no end to its line (``< /dev/zero``), and standard streams the program was
started without (``<&-``, ``2>&-``). Each is one clear line and an exit code README gives,
never a traceback, an "internal error" or all the memory there is; a game's log is kept."""

from __future__ import annotations

import io
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _memory_bounded() -> None:
    # (the old prompt kept the endless line whole: bounded here, it fails fast, not the
    # machine)
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


def test_a_piped_line_with_no_end_stops_the_game_in_one_line_its_log_kept(
        tmp_path: Path) -> None:
    log = tmp_path / "zero.kbl"
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run(
            [sys.executable, "-m", "kabucli", "play", "dare", "--seed", "1", "--players", "2",
             "--bot", "2=random", "--log", str(log)],
            stdin=zero, capture_output=True, text=True, env=ENV, cwd=tmp_path, timeout=120,
            preexec_fn=_memory_bounded)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        "error: cannot read standard input: a line longer than 16 MiB, the most kabucli "
        f"reads; log kept: {log} (4 events); go on with: kabucli resume {log}"]
    audit = subprocess.run([sys.executable, "-m", "kabucli", "audit", str(log)],
                           capture_output=True, text=True, env=ENV, timeout=120)
    assert audit.returncode == 0 and "4 events, unfinished" in audit.stdout


def test_a_piped_line_too_long_for_a_move_is_refused_with_its_length_and_play_goes_on(
        tmp_path: Path) -> None:
    typed = "x" * 300_000 + "\npass\n"
    proc = subprocess.run(
        [sys.executable, "-m", "kabucli", "play", "dare", "--seed", "3", "--players", "2",
         "--bot", "2=random", "--no-log"],
        input=typed, capture_output=True, text=True, env=ENV, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "refused: a move is at most 1000 characters, not 300000" in proc.stdout
    assert "p1 lays no set" in proc.stdout


def _closing(fd: int) -> None:
    os.close(fd)  # (in the child, after its streams are set: started without that one)


def test_a_game_started_with_standard_input_closed_ends_as_input_that_ended(
        tmp_path: Path) -> None:
    log = tmp_path / "closed.kbl"
    proc = subprocess.run(
        [sys.executable, "-m", "kabucli", "play", "dare", "--seed", "1", "--players", "2",
         "--bot", "2=random", "--log", str(log)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=ENV, cwd=tmp_path,
        timeout=120, preexec_fn=lambda: _closing(0))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        f"input ended; log kept: {log} (4 events); go on with: kabucli resume {log}")
    assert "internal error" not in proc.stderr


BOT = """\
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    sys.stderr.write("thinking\\n")
    sys.stderr.flush()
    if message["type"] == "turn":
        print(message["legal"][0], flush=True)
"""


def test_stderr_closed_gives_a_bot_shown_under_debug_a_stderr_to_write_to(
        tmp_path: Path) -> None:
    # (the log took the closed number 2, not to be inherited: the bot's own stderr was
    # closed, and its first word to it failed it)
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    log = tmp_path / "debug.kbl"
    proc = subprocess.run(
        [sys.executable, "-m", "kabucli", "play", "dare", "--seed", "1", "--bot", "1=random",
         "--bot", f"2=cmd:{sys.executable} {bot}", "--log", str(log)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**ENV, "KABUCLI_DEBUG": "1"}, timeout=120, preexec_fn=lambda: _closing(2))
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[-1].startswith(f"log: {log} (")
    audit = subprocess.run([sys.executable, "-m", "kabucli", "audit", str(log)],
                           capture_output=True, text=True, env=ENV, timeout=120)
    assert audit.returncode == 0 and " events, finished" in audit.stdout, audit.stdout


def test_the_pager_given_a_line_with_no_end_takes_it_as_the_input_ending(
        tmp_path: Path) -> None:
    # (it read and dropped the line for ever, at full speed)
    log = ROOT / "replays" / "dare" / "3p-showdown-outright.kbl"
    with open("/dev/zero", "rb") as zero:
        proc = subprocess.run([sys.executable, "-m", "kabucli", "replay", str(log), "--step"],
                              stdin=zero, capture_output=True, text=True, env=ENV,
                              cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.splitlines()[-1].startswith("event 0 of 24 ")


LOG = ROOT / "replays" / "dare" / "2p-dare-three-sets.kbl"


def test_an_answer_to_a_standard_output_started_closed_is_output_that_cannot_be_written(
        ) -> None:
    # (it went nowhere: a short answer left in Python's buffer made its last flush print
    # "Exception ignored" and exit 120; a long one, or a plain one, exited 0 having printed
    # nothing, the answer lost)
    for argv in (["audit", str(LOG), "--json"], ["audit", str(LOG)], ["rules", "dare"]):
        proc = subprocess.run([sys.executable, "-m", "kabucli", *argv], stdin=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, env=ENV, timeout=120,
                              preexec_fn=lambda: _closing(1))
        assert proc.returncode == 2, (argv, proc.returncode, proc.stderr)
        assert proc.stderr.splitlines() == [
            "error: cannot write the output: Bad file descriptor"], argv



# -- read_line, the bounded reader of a piped line (probe EO's mutants of kabucli/files.py) --


@pytest.mark.parametrize("kind", ["bytes", "text"])
def test_a_line_is_read_whole_up_to_its_bound_and_a_longer_one_counted_and_dropped(
        kind: str) -> None:
    """A line of exactly ``most`` characters (with or without its newline) is a line, its
    newline taken off and not counted; a line longer is given as "" with its length (its
    newline not counted), read to its end and no further: the next line is the next one."""
    from kabucli.files import read_line

    typed = "abcde\nabcdef\nabcdefg\nab\nabcde"
    stream: Any = io.BytesIO(typed.encode()) if kind == "bytes" else io.StringIO(typed)
    got = [read_line(stream, 5, 100) for _ in range(6)]
    assert got == [("abcde", 5), ("", 6), ("", 7), ("ab", 2), ("abcde", 5), (None, 0)]


@pytest.mark.parametrize("kind", ["bytes", "text"])
def test_a_last_line_one_past_the_bound_with_no_newline_is_counted_not_given(kind: str) -> None:
    from kabucli.files import read_line

    stream: Any = io.BytesIO(b"abcdef") if kind == "bytes" else io.StringIO("abcdef")
    assert [read_line(stream, 5, 100) for _ in range(2)] == [("", 6), (None, 0)]


@pytest.mark.parametrize("kind", ["bytes", "text"])
def test_a_line_of_exactly_the_endless_bound_is_counted_and_one_past_it_is_endless(
        kind: str) -> None:
    from kabucli.files import EndlessLine, read_line

    def stream(typed: str) -> Any:
        return io.BytesIO(typed.encode()) if kind == "bytes" else io.StringIO(typed)

    at = stream("x" * 10 + "\nok\n")
    assert [read_line(at, 3, 10) for _ in range(2)] == [("", 10), ("ok", 2)]
    with pytest.raises(EndlessLine):
        read_line(stream("x" * 11 + "\n"), 3, 10)


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_an_output_that_cannot_encode_every_character_plays_with_them_escaped(
        tmp_path: Path, encoding: str) -> None:
    """An output whose encoding is not UTF-8 (PYTHONIOENCODING=ascii, an ASCII terminal)
    was an "internal error" (UnicodeEncodeError, exit 3) at the first '·' of the table's
    title, before any card: the match is played, what cannot be written escaped (a
    player's name 山田 as '\\u5c71\\u7530'), and its log is whole."""
    log = tmp_path / "g.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "kabucli", "play", "dare", "--seed", "1", "-p", "山田",
         "--bot", "all=best", "--log", str(log)],
        capture_output=True, env={**ENV, "PYTHONIOENCODING": encoding}, cwd=tmp_path,
        timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode(encoding)
    assert "most chips: p1 \\u5c71\\u7530 (52)" in out
    assert "internal error" not in proc.stderr.decode(encoding)
    audit = subprocess.run([sys.executable, "-m", "kabucli", "audit", str(log)],
                           capture_output=True, text=True, env=ENV, timeout=120)
    assert audit.returncode == 0 and "finished" in audit.stdout


def test_an_ascii_output_draws_the_cards_in_ascii() -> None:
    """At an output that cannot write box drawing (PYTHONIOENCODING=ascii) the cards' frames
    are drawn as '+--+' and '|', as rich draws its tables and panels there, not as escapes
    ('\\u256d\\u2500\\u2500\\u256e' for each card, the row beyond its panel's edge)."""
    proc = subprocess.run(
        [sys.executable, "-m", "kabucli", "deal", "dare", "--seed", "1"],
        capture_output=True, env={**ENV, "PYTHONIOENCODING": "ascii"}, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode("ascii")
    assert "\\u256d" not in out and "\\u2502" not in out
    assert "| +--++--++--+" in out and "| | 9|| 2|| 2|" in out


def test_a_typed_line_that_is_not_utf8_is_refused_saying_so_and_play_goes_on(
        tmp_path: Path) -> None:
    """A line typed in Shift-JIS (a terminal set to it, or a pipe from a CP932 file): its bytes
    were kept escaped and read as a move, "refused: '\\udc8eR\\udc93c' is not a Dare move";
    it is refused as text that is not UTF-8 now, and the game asks again."""
    typed = "山田 pass\n".encode("cp932") + b"pass\n"
    proc = subprocess.run(
        [sys.executable, "-m", "kabucli", "play", "dare", "--seed", "3", "-p", "山田",
         "--bot", "2=random", "--no-log"],
        input=typed, capture_output=True, env=ENV, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert ("refused: the line is not UTF-8 text (is the terminal or the file in another "
            "encoding, such as Shift-JIS?)") in out
    assert "udc8e" not in out
    assert "p1 lays no set" in out
