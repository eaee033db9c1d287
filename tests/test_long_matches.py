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


class _CountedReads(list):  # type: ignore[type-arg]
    """The events of a match, counting how many of them are read (one by one or sliced)."""

    reads = 0

    def __getitem__(self, key: Any) -> Any:
        got = super().__getitem__(key)
        _CountedReads.reads += len(got) if isinstance(key, slice) else 1
        return got

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]


def test_yatchaba_guess_and_pass_lines_read_their_own_game_not_the_whole_match(
        tmp_path: Path) -> None:
    """A guess's chance and a pass's count are worked out from the game they are in: walked
    from the match's first event, each such line cost the whole match, and a replay of many
    games grew as the square of its length."""
    from kabucli import games, render
    from kabucli.engine import walk
    from kabucli.games.yatchaba.rules import GameEnd, Guess, Pass
    from kabucli.log import read_log

    log = tmp_path / "y.kbl"
    assert run("play", "yatchaba", "-n", "4", "-b", "all=random", "--seed", "1", "-q",
               "-r", "games=30", "--log", str(log)).exit_code == 0
    data = read_log(log, games.event_types)
    g = games.get("yatchaba")
    ends = [i for i, e in enumerate(data.events) if isinstance(e, GameEnd)]
    # the last guess or pass of the match, with the match as it was just after it
    at = max(i for i, e in enumerate(data.events) if isinstance(e, (Guess, Pass)))
    match, violation = walk(g, data.header, data.events[:at + 1])
    assert violation is None
    words = render.event_words(g, data.events[at], match, None)
    assert ", chance " in words or " in this game" in words, words  # its game was read
    game_length = at - max(i for i in ends if i < at)
    assert len(ends) == 30 and game_length < len(data.events) // 10
    match.events = _CountedReads(match.events)
    _CountedReads.reads = 0
    assert render.event_words(g, data.events[at], match, None) == words  # the same words
    assert 0 < _CountedReads.reads <= 3 * game_length


def test_a_match_one_row_past_the_cut_shows_every_row() -> None:
    """41 rounds were cut to 40 and a row '1 more rounds': one row hidden behind a row as
    tall as it. The cut starts where it leaves out at least two."""
    args = ["play", "dare", "-n", "3", "-b", "all=random", "--seed", "5", "--no-log", "-q"]
    each = RESULT_ROWS_SHOWN
    res = run(*args, "-r", f"rounds={2 * each + 1}")
    assert _numbers(res.stdout) == list(range(1, 2 * each + 2))
    assert "more rounds" not in res.stdout
    res = run(*args, "-r", f"rounds={2 * each + 2}")
    assert _numbers(res.stdout) == [*range(1, each + 1), *range(each + 3, 2 * each + 3)]
    assert "2 more rounds (--json has all)" in res.stdout
