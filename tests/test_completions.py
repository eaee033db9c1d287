"""The completion scripts in completions/ are the ones the app generates now."""

from __future__ import annotations

from pathlib import Path

import pytest

from kabucli.cli import SHELLS, completion_script

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("shell", SHELLS)
def test_completion_script_is_current(shell: str) -> None:
    path = ROOT / "completions" / f"kabucli.{shell}"
    assert path.exists(), f"missing {path}; run: kabucli completion {shell} > {path}"
    assert path.read_text() == completion_script(shell), (
        f"{path} is out of date; run: kabucli completion {shell} > {path}")


@pytest.mark.parametrize("shell", SHELLS)
def test_completion_script_names_the_program(shell: str) -> None:
    assert "_KABUCLI_COMPLETE" in completion_script(shell)
