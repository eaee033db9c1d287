"""The suite's own time limit (pyproject: pytest-timeout, 300 s a test, by thread): a test that
hangs, as an engine looping for ever on a broken rule would (mutation probe DT saw three such
hangs), fails and names itself instead of holding the run past CI's ten minutes."""

from __future__ import annotations

import subprocess
import sys
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_suite_sets_a_time_limit_a_loop_in_compiled_code_cannot_escape() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    settings = project["tool"]["pytest"]["ini_options"]
    assert 0 < int(settings["timeout"]) <= 300  # a hang fails well inside CI's ten minutes
    assert settings["timeout_method"] == "thread"  # (a signal waits for Python code to run)
    tests_need = project["project"]["optional-dependencies"]["test"]
    assert any(dep.startswith("pytest-timeout") for dep in tests_need)


def test_a_test_that_hangs_fails_naming_itself(tmp_path: Path) -> None:
    hangs = tmp_path / "test_hangs.py"
    hangs.write_text("def test_loops_for_ever():\n    while True:\n        pass\n")
    began = time.monotonic()
    # the project's settings (its pyproject), the limit cut to 2 s for the test's sake
    res = subprocess.run([sys.executable, "-m", "pytest", str(hangs), "-c",
                          str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), "-n", "0",
                          "-o", "timeout=2", "-p", "no:cacheprovider"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert res.returncode != 0, res.stdout
    assert time.monotonic() - began < 60
    assert "Timeout" in res.stdout + res.stderr
    assert "test_loops_for_ever" in res.stdout + res.stderr
