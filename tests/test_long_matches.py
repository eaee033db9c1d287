"""Long but ordinary matches (many rounds, hands or games): what a person is shown stays
readable and bounded, where --json keeps everything."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli.cli import app

runner = CliRunner()
RESULT_ROWS_SHOWN = 20  # the rows a result table shows at each end (kabucli.render's)


def run(*args: str) -> Any:
    res = runner.invoke(app, list(args))
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def _numbers(out: str) -> list[int]:
    """The first column of every row of the first table drawn (round, hand or game)."""
    return [int(m.group(1)) for m in re.finditer(r"^│ +(\d+) │", out, re.M)]


# (game, house rules, the key of --json's per-round list, what the left-out rows are called,
# how many rows the match has)
LONG = [
    ("dare", ["rounds=60"], "rounds", "rounds", 60),
    ("kabu-tsukuri", ["hands=20"], "rows", "rows", 60),
    ("yatchaba", ["games=50"], "games", "games", 50),
]


@pytest.mark.parametrize(("game", "rules", "key", "what", "total"), LONG,
                         ids=[g for g, *_ in LONG])
def test_quiet_result_of_a_long_match_shows_both_ends_and_says_what_it_left_out(
        game: str, rules: list[str], key: str, what: str, total: int) -> None:
    args = ["play", game, "-n", "4", "-b", "all=random", "--seed", "5", "--no-log"]
    for r in rules:
        args += ["-r", r]
    res = run(*args, "-q")
    assert res.exit_code == 0, res.stderr
    shown = _numbers(res.stdout)
    each = RESULT_ROWS_SHOWN
    full = json.loads(run(*args, "--json").stdout)["outcome"][key]
    assert len(full) == total  # --json: every one
    firsts = [r["hand" if key == "rows" else key[:-1]] for r in full]
    assert shown == firsts[:each] + firsts[-each:]  # the table: both ends only
    left = total - 2 * each
    assert f"{left} more {what} (--json has all)" in res.stdout
    assert "final chips" in res.stdout  # the standings after it, as ever


def test_uno_dare_result_of_many_rounds_is_cut_too() -> None:
    args = ["play", "uno-dare", "-n", "2", "-b", "all=random", "--seed", "3", "--no-log",
            "-r", "target=6000"]
    full = json.loads(run(*args, "--json").stdout)["outcome"]["rounds"]
    assert len(full) > 2 * RESULT_ROWS_SHOWN
    res = run(*args, "-q")
    assert res.exit_code == 0, res.stderr
    rounds = [r["round"] for r in full]
    each = RESULT_ROWS_SHOWN
    assert _numbers(res.stdout) == rounds[:each] + rounds[-each:]
    assert f"{len(full) - 2 * each} more rounds (--json has all)" in res.stdout
    assert "winner:" in res.stdout


def test_a_short_match_shows_every_round() -> None:
    from kabucli import render

    assert render.RESULT_ROWS_SHOWN == RESULT_ROWS_SHOWN
    res = run("play", "dare", "-n", "3", "-b", "all=random", "--seed", "5", "--no-log", "-q",
              "-r", f"rounds={2 * RESULT_ROWS_SHOWN}")
    assert _numbers(res.stdout) == list(range(1, 2 * RESULT_ROWS_SHOWN + 1))
    assert "more rounds" not in res.stdout


def test_replay_of_a_long_match_ends_with_the_cut_table(tmp_path: Path) -> None:
    log = tmp_path / "long.kbl"
    assert run("play", "dare", "-n", "3", "-b", "all=random", "--seed", "2", "-q",
               "-r", "rounds=45", "--log", str(log)).exit_code == 0
    res = run("replay", str(log))
    assert res.exit_code == 0, res.stderr
    title = [m.start() for m in re.finditer(r"^rounds *$", res.stdout, re.M)]
    tail = res.stdout[title[-1]:]  # the result at the end, after every event line
    assert "5 more rounds (--json has all)" in tail
    assert _numbers(tail) == [*range(1, 21), *range(26, 46)]
