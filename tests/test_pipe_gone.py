"""A command whose reader stops reading (``kabucli replay LOG | head -1``) ends without a
word and with exit code 141, what a shell says of any Unix tool stopped so (128 + SIGPIPE):
it ended with exit code 1, which kabucli gives a refusal (a script with ``set -o pipefail``
took the replay for a broken log). A game stopped so keeps its log, for ``kabucli resume``."""

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
    assert audited.returncode == 0 and b"unfinished" in audited.stdout, audited.stdout
    resumed = kabucli("resume", str(log), "--quiet", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert b"finished" in kabucli("audit", str(log), cwd=tmp_path).stdout


def test_a_refusal_still_exits_1(tmp_path: Path) -> None:
    # (the exit 1 turned into 141 is only the closed pipe's)
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"not": "a log"}\n')
    assert kabucli("audit", str(broken), cwd=tmp_path).returncode in (1, 2)
    refused = kabucli("play", "nosuchgame", cwd=tmp_path)
    assert refused.returncode == 1, refused.stderr
