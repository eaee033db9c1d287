"""The smaller things found by hand (issue 8, item 11): --help, prompts, messages, JSON, docs."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from kabucli.cli import app

runner = CliRunner()


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def command_paths() -> list[tuple[str, ...]]:
    """Every command and group of the app, as the words that reach it."""
    paths: list[tuple[str, ...]] = []

    def visit(cmd: Any, path: tuple[str, ...]) -> None:
        paths.append(path)
        for name, sub in getattr(cmd, "commands", {}).items():
            visit(sub, (*path, name))

    visit(typer.main.get_command(app), ())
    return paths


# -- --help shows no <bool> on plain flags ----------------------------------------------------

@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "kabucli")
def test_help_shows_no_value_type_for_a_flag(path: tuple[str, ...]) -> None:
    res = run(*path, "--help")
    assert res.exit_code == 0
    assert "--help" in res.stdout
    assert "<bool>" not in res.stdout


def test_help_still_shows_the_type_of_an_option_that_takes_a_value() -> None:
    assert "<int>" in run("replay", "--help").stdout  # --at N
