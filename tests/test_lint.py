"""Style and types are part of the test suite: ruff over the project, mypy --strict on kabucli/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_ruff_finds_nothing() -> None:
    res = run("ruff", "check", "kabucli", "tests", "bench", "replays", "setup.py")
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_strict_finds_nothing() -> None:
    res = run("mypy", "kabucli")
    assert res.returncode == 0, res.stdout + res.stderr
