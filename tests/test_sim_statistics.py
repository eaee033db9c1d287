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


def test_two_matches_are_enough_for_an_interval() -> None:
    # Student's t over n - 1 = 1 degree of freedom: two figures have a spread, and the report
    # gives its interval (only one match, or none, has none: None in the report)
    import statistics

    from kabucli.ratings import t95
    from kabucli.sim import BotStats

    two = BotStats("x")
    two.add(7, 1.0)
    two.add(-3, 0.0)
    expected = t95(1) * statistics.stdev([7, -3]) / 2 ** 0.5
    assert abs(two.ci95 - expected) < 1e-9 * expected, (two.ci95, expected)
    assert two.as_dict()["ci95"] == round(expected, 4)
    one = BotStats("x")
    one.add(7, 1.0)
    assert one.as_dict()["ci95"] is None


def test_a_tournament_s_interval_over_deals_of_unequal_counts() -> None:
    # the cluster-robust interval, recomputed from its definition: over the G deals with the
    # sum T_d and count n_d of the bot's figures, t(G - 1) * sqrt(G / (G - 1) *
    # sum((T_d - n_d mean)^2)) / N; two deals are enough for one (one deal has none)
    import math
    from fractions import Fraction

    from kabucli.ratings import t95
    from kabucli.sim import BotStats

    def expected(deals: dict[int, list[int]]) -> float:
        n = sum(len(v) for v in deals.values())
        mean = Fraction(sum(sum(v) for v in deals.values()), n)
        g = len(deals)
        spread = sum((sum(v) - len(v) * mean) ** 2 for v in deals.values())
        return t95(g - 1) * math.sqrt(Fraction(g, g - 1) * spread / n ** 2)

    for deals in ({0: [3, 5], 1: [-4]}, {0: [10], 1: [-2, 4, 1], 2: [0, 0]}):
        stats = BotStats("x")
        for deal, figures in deals.items():
            for x in figures:
                stats.add(x, 0.0, deal)
        want = expected(deals)
        assert math.isfinite(stats.ci95) and abs(stats.ci95 - want) < 1e-9 * want, (
            deals, stats.ci95, want)
        assert stats.mean == sum(sum(v) for v in deals.values()) / sum(map(len, deals.values()))
    lone = BotStats("x")
    lone.add(3, 0.0, 0)
    lone.add(5, 0.0, 0)
    assert math.isinf(lone.ci95)


def test_a_win_rate_is_the_wins_over_every_match_to_four_places() -> None:
    # forfeited matches count in the rate (a loss for the bot that failed), as in the report's
    # "matches"; the rate is given to 4 places, as the wins are
    from kabucli.sim import BotStats

    stats = BotStats("x")
    stats.add(5, 1.0)
    stats.add(-5, 0.0)
    stats.add_forfeited(0.0, True)
    entry = stats.as_dict()
    assert entry["matches"] == 3 and entry["forfeits"] == 1 and entry["wins"] == 1.0
    assert entry["win_rate"] == 0.3333 and entry["mean"] == 0.0
    shared = BotStats("x")
    for share in (0.5, 1 / 3, 0.0):
        shared.add(0, share)
    assert shared.as_dict()["wins"] == 0.8333 and shared.as_dict()["win_rate"] == 0.2778


def test_a_forfeited_match_is_shared_among_the_bots_that_did_not_fail() -> None:
    # every match hands out one win in all: the bot that failed gets none of a forfeited
    # match, each of the n - 1 others 1 / (n - 1) of it
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), ["best", "random", "cmd:false"],
                      6, seed=3)
    assert report.failures == 6 and report.matches == 6
    best, rand, failing = report.bots
    assert failing.wins == 0 and failing.forfeits == 6 and failing.matches == 6
    assert best.wins == rand.wins == 3.0 and best.forfeits == rand.forfeits == 0
    assert sum(b.wins for b in report.bots) == report.matches
    assert [e["win_rate"] for e in report.as_dict()["bots"]] == [0.5, 0.5, 0.0]
