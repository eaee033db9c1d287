"""Checks of `kabucli sim` and `kabucli tournament` reports recomputed independently, from the
logs of the matches (probe AL)."""

from __future__ import annotations

from pathlib import Path

from kabucli import games
from kabucli.rules import build
from kabucli.sim import simulate

DARE = games.get("dare")


def test_a_bot_that_exits_at_once_forfeits_every_match_with_the_same_reason() -> None:
    # `false` exits before reading its first question: whether writing that question found the
    # pipe closed (it said "is not running (exit code 1)") or reading the answer found the
    # output closed ("exited (code 1) without answering") was a race, so the same run gave
    # another report (and other logs) every time it ran
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), ["best", "cmd:false"], 16, seed=2)
    assert report.failures == 16
    reasons = {f["reason"].split(") ", 1)[1] for f in report.failed}
    assert reasons == {"exited (code 1) without answering"}, reasons


def test_a_bot_program_gone_before_its_first_question_exited_without_answering() -> None:
    # the other side of the race above, made certain: the program has exited before the
    # question is written (the write finds the pipe closed)
    import time

    from kabucli.bots.external import Channel, Stalled

    chan = Channel(["false"], 5.0)
    try:
        chan.proc.wait(5)
        deadline = time.monotonic() + 5
        try:
            chan.send(b'{"type": "turn"}\n', deadline)
            chan.line(deadline)
        except Stalled as exc:
            said = str(exc)
        assert said == "exited (code 1) without answering"
    finally:
        chan.kill()


def test_the_interval_of_large_figures_is_that_of_their_spread() -> None:
    # the variance was sum(x^2) - n mean^2 in floats: with chips near the house rules' limit
    # (chips=1000000000) the two terms agree to every digit a float has, and the interval
    # was what their rounding left, not the spread: 7 matches of 123456789 each gave +-1.51
    # (documented: 0 when every match gave the same figure), and 1e9 + 1..8 gave +-0.0
    # (Student's t: 2.05)
    import statistics

    from kabucli.ratings import t95
    from kabucli.sim import BotStats

    same = BotStats("x")
    for _ in range(7):
        same.add(123456789, 1.0)
    assert same.ci95 == 0 and same.mean == 123456789
    spread = BotStats("x")
    figures = [10**9 + d for d in range(1, 9)]
    for x in figures:
        spread.add(x, 0.0)
    expected = t95(7) * statistics.stdev(figures) / 8 ** 0.5
    assert abs(spread.ci95 - expected) < 1e-9 * expected, (spread.ci95, expected)
    assert spread.mean == 10**9 + 4.5


def test_a_tournament_s_interval_of_a_mean_counts_each_deal_once(tmp_path: Path) -> None:
    # a tournament deals the same cards in every seating of every group: those matches are
    # not independent (in Yatchaba the chips a deal leaves in the pot are lost by every seat),
    # and Student's t over the matches covered a random bot's true mean 87 times in 100 in
    # 300 runs of 48 matches; over the deals (each deal's mean one sample) 94 times in 100.
    # Here: the report's interval is Student's t over the deals, recomputed from the logs.
    import statistics
    from collections import defaultdict

    from kabucli.log import read_log
    from kabucli.ratings import t95
    from kabucli.tournament import tournament

    game = games.get("yatchaba")
    kinds = ["smart", "random", "random"]
    rep = tournament(game, build(game.Rules, []), kinds, 3, "round-robin", 5, 7,
                     log_dir=tmp_path).as_dict()
    by_deal: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(tmp_path.glob("*.kbl")):
        data = read_log(path, games.event_types)
        end = data.events[-1]
        for seat, info in enumerate(data.header.seats):
            bot = int(info.name.rsplit("#", 1)[1]) - 1
            by_deal[bot][data.header.seed].append(end.balances[seat] - 100)
    for bot, entry in enumerate(rep["bots"]):
        means = [statistics.fmean(v) for _, v in sorted(by_deal[bot].items())]
        assert len(means) == 5
        expected = t95(4) * statistics.stdev(means) / 5 ** 0.5
        assert entry["ci95"] == round(expected, 4), (entry, expected)
    one = tournament(game, build(game.Rules, []), kinds, 3, "round-robin", 1, 7).as_dict()
    assert [b["ci95"] for b in one["bots"]] == [None, None, None]  # one deal: no spread


def test_a_rating_of_zero_is_not_minus_zero() -> None:
    # the fit put the middle bot of a symmetric field at -3e-14: rounded, -0.0 in the JSON
    # document and "-0" in the table
    import json
    import math

    from typer.testing import CliRunner

    from kabucli.cli import app

    args = ["tournament", "dare", "-b", "best", "-b", "random", "-b", "cmd:false", "--deals",
            "3", "--seed", "1", "-j", "1"]
    doc = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    middle = doc["ratings"][1]["elo"]
    assert middle == 0 and math.copysign(1, middle) == 1, doc["ratings"]
    table = CliRunner().invoke(app, args, env={"NO_COLOR": "1", "COLUMNS": "120"}).output
    assert "-0 ±" not in table and "-0.0" not in table, table
