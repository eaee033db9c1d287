"""Output that cannot be written. A command whose reader stops reading (``kabucli replay LOG |
head -1``) ends without a word and with exit code 141, what a shell says of any Unix tool
stopped so (128 + SIGPIPE): it ended with exit code 1, which kabucli gives a refusal (a script
with ``set -o pipefail`` took the replay for a broken log). Output to a full disk (``>
/dev/full``) is one line and exit code 2, as for a file that cannot be written: it was an
"internal error", and a mistyped option's with --json a traceback. A game stopped either way
keeps its log, for ``kabucli resume``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "replays" / "dare" / "3p-showdown-outright.kbl"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def kabucli(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "kabucli", *args], cwd=cwd, env=ENV,
                          capture_output=True, timeout=300)


def reader_gone(args: list[str], cwd: Path) -> tuple[int, bytes]:
    """Exit code and stderr of kabucli ``args`` whose stdout's reader reads a line and goes
    (far more is printed than a pipe holds, so the command writes after it has gone)."""
    proc = subprocess.Popen([sys.executable, "-m", "kabucli", *args], cwd=cwd, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    return proc.wait(timeout=300), err


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("long") / "long.kbl"
    made = kabucli("play", "dare", "--seed", "1", "--bot", "all=random", "--players", "4",
                   "--rule", "rounds=100", "--quiet", "--log", str(log), cwd=log.parent)
    assert made.returncode == 0, made.stderr
    return log


@pytest.mark.parametrize("shown", ["rich", "json"])
def test_replay_whose_reader_has_gone_exits_141_without_a_word(
        shown: str, long_log: Path, tmp_path: Path) -> None:
    # (rich's console and print() meet the closed pipe each its own way)
    args = ["replay", str(long_log), *(["--json"] if shown == "json" else [])]
    code, err = reader_gone(args, tmp_path)
    assert (code, err) == (141, b"")


def test_audit_whose_reader_has_gone_exits_141_without_a_word(tmp_path: Path) -> None:
    code, err = reader_gone(["audit", *[str(LOG)] * 5_000], tmp_path)
    assert (code, err) == (141, b"")


def test_a_game_whose_reader_has_gone_keeps_its_log_to_resume(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    code, err = reader_gone(["play", "dare", "--seed", "3", "--bot", "all=random",
                             "--players", "4", "--rule", "rounds=100", "--log", str(log)],
                            tmp_path)
    assert (code, err) == (141, b"")
    audited = kabucli("audit", str(log), cwd=tmp_path)
    assert audited.returncode == 0 and b" events, unfinished)" in audited.stdout, audited.stdout
    resumed = kabucli("resume", str(log), "--quiet", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert b" events, finished)" in kabucli("audit", str(log), cwd=tmp_path).stdout


def test_a_refusal_still_exits_1(tmp_path: Path) -> None:
    # (the exit 1 turned into 141 is only the closed pipe's)
    for args in (["play", "nosuchgame"], ["play", "dare", "--rule", "ante=+1", "--no-log"]):
        refused = kabucli(*args, cwd=tmp_path)
        assert refused.returncode == 1, refused.stderr
        assert refused.stderr.startswith(b"error: "), refused.stderr



def test_a_refusal_whose_output_was_dev_null_from_the_start_still_exits_1(
        tmp_path: Path) -> None:
    # (rich sends a reader gone's output to /dev/null, and the exit 1 it ends with is turned
    # into 141: output that was /dev/null from the start is no reader gone)
    refused = subprocess.run([sys.executable, "-m", "kabucli"], cwd=tmp_path,
                             env={**ENV, "_KABUCLI_COMPLETE": "bogus"},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
    assert refused.returncode == 1, refused.stderr
    assert b"is not a completion request" in refused.stderr

FULL_DISK_COMMANDS = {
    "replay": ["replay", str(LOG)],
    "replay --json": ["replay", str(LOG), "--json"],
    "audit": ["audit", str(LOG)],
    "audit --json": ["audit", str(LOG), "--json"],
    "rules": ["rules", "dare"],
    "deal": ["deal", "dare", "--seed", "1"],
    "completion": ["completion", "bash"],
    "sim": ["sim", "dare", "--bot", "random", "--bot", "random", "--matches", "3", "--json"],
}


@pytest.mark.parametrize("args", FULL_DISK_COMMANDS.values(), ids=FULL_DISK_COMMANDS.keys())
def test_output_to_a_full_disk_is_one_line_and_exit_2(args: list[str], tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:  # (Linux: every write fails with ENOSPC)
        res = subprocess.run([sys.executable, "-m", "kabucli", *args], cwd=tmp_path, env=ENV,
                             stdout=full, stderr=subprocess.PIPE, timeout=300)
    assert res.returncode == 2, res.stderr
    assert res.stderr == b"error: cannot write the output: No space left on device\n"


def test_a_mistyped_option_with_json_to_a_full_disk_still_says_what_was_mistyped(
        tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        res = subprocess.run([sys.executable, "-m", "kabucli", "sim", "dare", "--json"],
                             cwd=tmp_path, env=ENV, stdout=full, stderr=subprocess.PIPE,
                             timeout=300)
    assert res.returncode == 2
    lines = res.stderr.decode().splitlines()
    assert lines[0].startswith("error: Missing option '--bot'"), lines
    assert lines[1:] == ["error: cannot write the output: No space left on device"]


def test_a_game_whose_output_cannot_be_written_keeps_its_log_to_resume(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    with open("/dev/full", "w") as full:
        res = subprocess.run([sys.executable, "-m", "kabucli", "play", "dare", "--seed", "3",
                              "--bot", "all=random", "--log", str(log)], cwd=tmp_path,
                             env=ENV, stdout=full, stderr=subprocess.PIPE, timeout=300)
    assert res.returncode == 2, res.stderr
    # (the line named no log: 'error: cannot write the output: No space left on device')
    assert res.stderr.decode().splitlines() == [
        f"error: cannot write the output: No space left on device; log kept: {log} (4 "
        f"events); go on with: kabucli resume {log}"]
    assert b" events, unfinished)" in kabucli("audit", str(log), cwd=tmp_path).stdout
    assert kabucli("resume", str(log), "--quiet", cwd=tmp_path).returncode == 0
    assert b" events, finished)" in kabucli("audit", str(log), cwd=tmp_path).stdout


def test_output_and_stderr_both_on_a_full_disk_still_exit_2(tmp_path: Path) -> None:
    # (the line that says so cannot be written either: the exit code is all there is; it
    # was 1, from the traceback of the second write)
    with open("/dev/full", "w") as full:
        res = subprocess.run([sys.executable, "-m", "kabucli", "rules", "dare"], cwd=tmp_path,
                             env=ENV, stdout=full, stderr=full, timeout=300)
    assert res.returncode == 2


@pytest.mark.parametrize("args", [["--help"], ["play", "--help"], ["log"]])
def test_help_whose_reader_has_gone_exits_141_without_a_word(args: list[str],
                                                            tmp_path: Path) -> None:
    """Typer draws help (asked for, or a group given no command) with a console of rich's own,
    whose end at a closed pipe is exit code 1: ``kabucli --help | head -c 10`` said a
    refusal. Here the reader has gone before a word is written."""
    r, w = os.pipe()
    os.close(r)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "kabucli", *args], cwd=tmp_path,
                                env=ENV, stdout=w, stderr=subprocess.PIPE)
    finally:
        os.close(w)
    _, err = proc.communicate(timeout=300)
    assert (proc.returncode, err) == (141, b"")
