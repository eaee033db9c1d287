"""`kabucli sim` statistics and seat rotation, and bots written by users (programs and classes)."""

from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.engine import walk
from kabucli.errors import BotError, KabuError
from kabucli.log import read_log, write_log
from kabucli.rules import build
from kabucli.sim import BotStats, seating, simulate

DARE = games.get("dare")
runner = CliRunner()

GOOD_BOT = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        assert msg["game"] == "dare" and msg["legal"]
        print(msg["legal"][-1], flush=True)
"""
GARBAGE_BOT = "import sys\nfor line in sys.stdin:\n    print('hello there', flush=True)\n"
CRASH_BOT = "import sys\nsys.stdin.readline()\nsys.exit(3)\n"
ILLEGAL_BOT = "import sys\nfor line in sys.stdin:\n    print('1-1-1', flush=True)\n"
PY_BOTS = """
class First:
    def __init__(self, rng):
        self.rng = rng
    def choose(self, game, state, seat):
        return game.legal(state, seat)[0]

class Broken:
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        return 1 / 0
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def play(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, ["play", "dare", "--seed", "3", "--players", "2",
                              "--rule", "rounds=2", *args])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def test_stdin_stdout_bot_plays_a_whole_game_that_audits_clean(tmp_path: Path) -> None:
    bot = write(tmp_path, "good.py", GOOD_BOT)
    log = tmp_path / "g.kbl"
    code, out = play("--bot", f"1=cmd:{sys.executable} {bot}", "--bot", "2=best",
                     "--log", str(log), "--json")
    assert code == 0, out
    assert json.loads(out)["outcome"] is not None
    data = read_log(log, games.event_types)
    assert data.header.seats[0].control == f"bot:cmd:{sys.executable} {bot}"
    assert walk(DARE, data.header, data.events)[1] is None


@pytest.mark.parametrize(("script", "expected"), [
    (GARBAGE_BOT, "bot p1 answered 'hello there'"),
    (CRASH_BOT, "exited (code 3) without answering"),
    (ILLEGAL_BOT, "bot p1 played 'p1 sets 1-1-1'"),
], ids=["prints-garbage", "crashes", "plays-illegal-move"])
def test_misbehaving_bot_stops_the_game_with_one_line_and_keeps_the_log(
        tmp_path: Path, script: str, expected: str) -> None:
    bot = write(tmp_path, "bot.py", script)
    log = tmp_path / "g.kbl"
    code, out = play("--bot", f"1=cmd:{sys.executable} {bot}", "--bot", "2=best",
                     "--log", str(log))
    assert code == 1
    assert expected in out
    data = read_log(log, games.event_types)  # the record so far is whole and valid
    assert data.events and walk(DARE, data.header, data.events)[1] is None


def test_bot_command_that_cannot_start_is_one_line() -> None:
    code, out = play("--bot", "1=cmd:/no/such/bot-program", "--bot", "2=best", "--no-log")
    assert code == 1
    assert "cannot start bot '/no/such/bot-program'" in out


def test_python_bot_class_plays_and_a_failing_one_is_reported(tmp_path: Path) -> None:
    path = write(tmp_path, "pybots.py", PY_BOTS)
    code, out = play("--bot", f"1=py:{path}:First", "--bot", "2=random", "--no-log")
    assert code == 0, out
    code, out = play("--bot", f"1=py:{path}:Broken", "--bot", "2=random", "--no-log")
    assert code == 1
    assert "ZeroDivisionError" in out and "bot p1" in out


MALFORMED_BOTS = """
from kabucli.games.dare.rules import Lay

class StrSeat:
    def __init__(self, rng): pass
    def choose(self, game, state, seat): return Lay(str(seat), [])

class StrCards:
    def __init__(self, rng): pass
    def choose(self, game, state, seat): return Lay(seat, [["a", "b", "c"]])

class NoSets:
    def __init__(self, rng): pass
    def choose(self, game, state, seat): return Lay(seat, None)
"""


@pytest.mark.parametrize(("cls", "where"), [
    ("StrSeat", "$.seat"), ("StrCards", "$.sets[0][0]"), ("NoSets", "$.sets"),
])
def test_a_python_bot_returning_a_malformed_event_is_one_line(tmp_path: Path, cls: str,
                                                             where: str) -> None:
    path = write(tmp_path, "malformed.py", MALFORMED_BOTS)
    code, out = play("--bot", f"1=py:{path}:{cls}", "--bot", "2=best", "--no-log")
    assert code == 1
    assert f"bot p1 ('{path}:{cls}') returned a malformed Lay" in out and where in out
    assert "internal error" not in out


SUBCLASS_BOTS = """
from kabucli.games.dare.bots import BestBot
from kabucli.games.kazu_tori.bots import SharpBot
from kabucli.games.yatchaba.bots import SmartBot

CALLS = []

class MyBest(BestBot):
    def choose(self, game, state, seat):
        CALLS.append(seat)
        return super().choose(game, state, seat)

class Slow(SharpBot):
    reaction = (900, 999)

class MySmart(SmartBot):
    pass
"""


@pytest.mark.parametrize(("game", "cls", "other"), [
    ("dare", "MyBest", "random"), ("kazu-tori", "Slow", "sharp"), ("yatchaba", "MySmart", "random"),
])
def test_a_python_bot_may_subclass_a_built_in_bot(tmp_path: Path, game: str, cls: str,
                                                 other: str) -> None:
    # the built-in bots are compiled in the compiled core: they stay subclassable
    path = write(tmp_path, "subbots.py", SUBCLASS_BOTS)
    res = runner.invoke(app, ["play", game, "--seed", "4", "--players", "2",
                              "--bot", f"1=py:{path}:{cls}", "--bot", f"2={other}",
                              "--log", str(tmp_path / "g.kbl")])
    assert res.exit_code == 0, res.output
    data = read_log(tmp_path / "g.kbl", games.event_types)
    match, violation = walk(games.get(game), data.header, data.events)
    assert violation is None and match.over
    assert any(getattr(e, "seat", None) == 1 and e.KIND == "action" for e in data.events)


def test_unknown_bot_kind_lists_the_kinds() -> None:
    code, out = play("--bot", "1=genius", "--no-log")
    assert code == 1
    assert "unknown bot 'genius'" in out and "best" in out and "cmd:COMMAND" in out


@pytest.mark.parametrize("command", ["bot.py \x1b]0;title\x07", "bot.py\targ", "bot.py\n",
                                     "bot.py \u202e"], ids=["escape", "tab", "newline", "bidi"])
def test_a_bot_command_that_is_not_printable_is_refused_before_any_log(
        tmp_path: Path, command: str) -> None:
    # sim wrote such a bot into every log's header, which kabucli's own reader refuses
    # (audit: "unreadable ... is not human or bot:KIND"), so a resumed run stopped at them
    logs = tmp_path / "logs"
    res = runner.invoke(app, ["sim", "dare", "-b", f"cmd:{sys.executable} {command}", "-b",
                              "random", "-m", "2", "--seed", "1", "--logs", str(logs)])
    assert res.exit_code == 1
    assert "is not printable text" in res.output and "\x1b" not in res.output
    assert not logs.exists() or not list(logs.iterdir())


def test_python_bot_spec_without_class_is_refused() -> None:
    with pytest.raises(BotError, match="should look like"):
        from kabucli.bots.external import load_python_bot
        from kabucli.shuffle import Rng

        load_python_bot("justafile.py", Rng(0))


def test_seating_rotates_bots_through_every_seat() -> None:
    kinds = ["a", "b", "c"]
    seen = {tuple(seating(kinds, i, rotate=True)) for i in range(3)}
    assert len(seen) == 3
    for seat in range(3):
        assert {order[seat] for order in seen} == {0, 1, 2}
    assert seating(kinds, 5, rotate=False) == [0, 1, 2]


def test_sim_with_rotation_seats_its_bots_in_every_order_around_the_table() -> None:
    # kabucli/sim.py (seating_at) and docs/bots.md: every n matches in a row put each bot
    # once in each seat, and every n! in a row put each bot once after each other one (for
    # three bots, all 6 orders: rotations alone would always seat bot 2 after bot 1)
    rules = build(DARE.Rules, ["rounds=1"])
    orders: list[tuple[int, ...]] = []
    simulate(DARE, rules, ["random", "random", "random"], 12, seed=3,
             on_outcome=lambda out, order: orders.append(tuple(order)))
    assert len(orders) == 12
    for start in range(0, 12, 6):
        assert sorted(orders[start:start + 6]) == sorted(itertools.permutations(range(3)))
    for start in range(0, 12, 3):
        block = orders[start:start + 3]
        for seat in range(3):
            assert {order[seat] for order in block} == {0, 1, 2}
        # the n rotations in turn: from one match to the next every bot moves one seat on
        # (the bot in the last seat to the first)
        for before, after in itertools.pairwise(block):
            assert [after[(seat + 1) % 3] for seat in range(3)] == list(before)


def test_sim_counts_every_match_and_conserves_chips() -> None:
    rules = build(DARE.Rules, ["rounds=3"])
    report = simulate(DARE, rules, ["best", "random", "random"], 30, seed=11)
    assert report.matches == 30
    assert all(b.matches == 30 for b in report.bots)
    # every chip lost by one bot was won by another or is still in a carried pot
    assert sum(b.total for b in report.bots) + report.pot_left == 0
    assert sum(b.wins for b in report.bots) == pytest.approx(30)


def test_sim_best_beats_random_with_a_confidence_interval() -> None:
    rules = build(DARE.Rules, [])
    report = simulate(DARE, rules, ["best", "random"], 60, seed=5)
    best, rnd = report.bots
    assert best.mean - best.ci95 > rnd.mean + rnd.ci95


def test_sim_same_seed_same_statistics() -> None:
    rules = build(DARE.Rules, ["rounds=2"])
    a = simulate(DARE, rules, ["random", "random"], 15, seed=99).as_dict()
    b = simulate(DARE, rules, ["random", "random"], 15, seed=99).as_dict()
    assert a == b


def test_sim_log_folder_is_resumable(tmp_path: Path) -> None:
    rules = build(DARE.Rules, ["rounds=2"])
    first = simulate(DARE, rules, ["best", "random"], 5, seed=3, log_dir=tmp_path)
    assert len(list(tmp_path.glob("*.kbl"))) == 5
    again = simulate(DARE, rules, ["best", "random"], 8, seed=3, log_dir=tmp_path)
    assert again.reused == 5 and again.matches == 8
    fresh = simulate(DARE, rules, ["best", "random"], 8, seed=3)
    assert again.as_dict()["bots"] == fresh.as_dict()["bots"]
    assert first.as_dict()["bots"] != again.as_dict()["bots"]


def test_sim_does_not_reuse_a_log_made_with_other_rules(tmp_path: Path) -> None:
    simulate(DARE, build(DARE.Rules, ["rounds=2"]), ["best", "random"], 2, seed=3,
             log_dir=tmp_path)
    before = (tmp_path / "dare-00001.kbl").read_bytes()
    with pytest.raises(KabuError, match=r"holds another match \(different house rules\)"):
        simulate(DARE, build(DARE.Rules, ["rounds=3"]), ["best", "random"], 2, seed=3,
                 log_dir=tmp_path)
    assert (tmp_path / "dare-00001.kbl").read_bytes() == before  # neither reused nor lost


def test_sim_does_not_reuse_a_log_dealt_from_another_seed(tmp_path: Path) -> None:
    # a log is reused only when it is the very match the run would play there: same game,
    # seed, seats and rules (match i of seed S is dealt from S + i)
    rules = build(DARE.Rules, ["rounds=2"])
    simulate(DARE, rules, ["best", "random"], 2, seed=3, log_dir=tmp_path)
    before = (tmp_path / "dare-00001.kbl").read_bytes()
    with pytest.raises(KabuError, match=r"dare-00001\.kbl holds another match \(different "
                       r"seed\)"):
        simulate(DARE, rules, ["best", "random"], 2, seed=4, log_dir=tmp_path)
    assert (tmp_path / "dare-00001.kbl").read_bytes() == before


def test_a_file_where_the_last_match_s_log_goes_stops_the_run_before_any_match(
        tmp_path: Path) -> None:
    # docs/bots.md: any other file where a log would go stops the run before a match is
    # played; the run's last match's place too
    (tmp_path / "dare-00003.kbl").write_text("my notes\n")
    with pytest.raises(KabuError, match=r"dare-00003\.kbl: .*never overwrites it"):
        simulate(DARE, build(DARE.Rules, ["rounds=2"]), ["best", "random"], 3, seed=3,
                 log_dir=tmp_path, workers=1)
    assert [p.name for p in tmp_path.iterdir()] == ["dare-00003.kbl"]
    assert (tmp_path / "dare-00003.kbl").read_text() == "my notes\n"


def test_sim_keeps_a_damaged_log_of_its_match_and_plays_a_torn_one_again(
        tmp_path: Path) -> None:
    # only a log cut short (a torn tail) is played again over; a record of this very match
    # that fails its checksum is damage, kept as it is, as kabucli resume keeps it
    rules = build(DARE.Rules, ["rounds=2"])
    fresh = simulate(DARE, rules, ["best", "random"], 2, seed=3, log_dir=tmp_path)
    log = tmp_path / "dare-00002.kbl"
    whole = log.read_bytes()
    log.write_bytes(whole[:-5])  # torn: played again, the report unchanged
    again = simulate(DARE, rules, ["best", "random"], 2, seed=3, log_dir=tmp_path)
    assert again.reused == 1 and again.as_dict()["bots"] == fresh.as_dict()["bots"]
    assert log.read_bytes() == whole
    damaged = bytearray(whole)
    damaged[-5] ^= 0x5A  # a flipped bit in the last record: its checksum fails
    log.write_bytes(bytes(damaged))
    with pytest.raises(KabuError, match=r"dare-00002\.kbl: event \d+: corrupted: checksum "
                       r"does not match; kabucli sim never overwrites it"):
        simulate(DARE, rules, ["best", "random"], 2, seed=3, log_dir=tmp_path)
    assert log.read_bytes() == bytes(damaged)


def test_sim_plays_again_a_log_of_its_match_that_ends_before_the_match_does(
        tmp_path: Path) -> None:
    # a whole log of this very match that stops halfway (no damage, no torn tail) is a
    # match cut short: played again over it, never counted as it stands
    rules = build(DARE.Rules, ["rounds=2"])
    started = "2026-01-02T03:04:05+00:00"
    fresh = simulate(DARE, rules, ["best", "random"], 2, seed=3, log_dir=tmp_path,
                     started=started)
    log = tmp_path / "dare-00002.kbl"
    whole = log.read_bytes()
    data = read_log(log, games.event_types)
    half = data.events[:len(data.events) // 2]
    log.unlink()
    write_log(log, data.header, half, "msgpack", types=games.event_types("dare"))
    assert not walk(DARE, data.header, half)[0].over
    again = simulate(DARE, rules, ["best", "random"], 2, seed=3, log_dir=tmp_path,
                     started=started)
    assert again.reused == 1 and again.as_dict()["bots"] == fresh.as_dict()["bots"]
    assert log.read_bytes() == whole


def test_sim_unit_is_the_whole_match_of_the_house_rules(tmp_path: Path) -> None:
    # a Dare match is 'rounds' rounds; a Yatchaba match 'games' games: sim plays them whole
    simulate(DARE, build(DARE.Rules, ["rounds=4"]), ["best", "random"], 2, seed=8,
             log_dir=tmp_path / "dare")
    for path in sorted((tmp_path / "dare").glob("*.kbl")):
        events = read_log(path, games.event_types).events
        assert sum(1 for e in events if type(e).__name__ == "Result") >= 4
        assert type(events[-1]).__name__ == "End"
    yat = games.get("yatchaba")
    simulate(yat, build(yat.Rules, ["games=3"]), ["random", "smart"], 2, seed=8,
             log_dir=tmp_path / "yat")
    for path in sorted((tmp_path / "yat").glob("*.kbl")):
        events = read_log(path, games.event_types).events
        assert sum(1 for e in events if type(e).__name__ == "GameEnd") == 3


def test_bot_stats_confidence_interval_matches_formula() -> None:
    # Student's t with n - 1 degrees of freedom: 3.182 for 4 matches, where the normal's 1.96
    # made the interval too narrow (it covered the mean about 86 times in 100 at 5 matches)
    s = BotStats("x")
    for d in (1, 3, 5, 7):
        s.add(d, 0.0)
    assert s.mean == 4
    assert s.ci95 == pytest.approx(3.182446305 * (20 / 3) ** 0.5 / 2)


def test_the_mean_s_interval_covers_the_true_mean_95_times_in_100_from_few_matches() -> None:
    import random

    from kabucli.ratings import t95

    rng = random.Random(11)
    for n in (3, 5, 12):
        covered = 0
        for _ in range(4000):
            s = BotStats("x")
            for _ in range(n):
                s.add(round(rng.gauss(0, 10)), 0.0)
            covered += abs(s.mean) <= s.ci95
        assert 0.935 <= covered / 4000 <= 0.965, (n, covered)
    # the table and the expansion against known points of Student's t
    assert t95(1) == pytest.approx(12.7062047) and t95(29) == pytest.approx(2.0452296)
    assert t95(30) == pytest.approx(2.0422725, abs=1e-7)
    assert t95(120) == pytest.approx(1.9799304, abs=1e-7)
    assert t95(10**6) == pytest.approx(1.959966, abs=1e-6) and t95(0) == math.inf


def test_sim_command_reports_each_bot_and_json() -> None:
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-b", "random", "-m", "10",
                              "--seed", "2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["matches"] == 10 and [b["bot"] for b in data["bots"]] == ["best", "random"]
    assert all(b["matches"] == 10 for b in data["bots"])
    res = runner.invoke(app, ["sim", "dare", "-b", "best", "-m", "3"])
    assert res.exit_code == 1 and "give one --bot per seat" in res.output


def test_kazu_tori_match_wins_are_the_games_winners_not_a_chip_lead(tmp_path: Path) -> None:
    """In Kazu-Tori the most cards wins (the log's score event says who): a winner whose
    opponents hold no cards is paid nothing, so the chips stay level. The report counted
    such a match as a draw (2 seats, seed 1: 171 of 200 matches), whatever the log said."""
    game = games.get("kazu-tori")
    report = simulate(game, build(game.Rules, {}), ["random", "random"], 40, 1,
                      log_dir=tmp_path)
    wins = [0.0, 0.0]
    wdl = [0, 0, 0]
    for i in range(40):
        data = read_log(tmp_path / f"kazu-tori-{i + 1:05d}.kbl", games.event_types)
        match, _ = walk(game, data.header, data.events)
        out = match.outcome()
        assert out is not None
        bots = [int(s.name.rsplit("#", 1)[1]) - 1 for s in data.header.seats]
        named = [int(w[1:]) - 1 for w in out["winners"]] or list(range(2))
        for seat in named:
            wins[bots[seat]] += 1 / len(named)
        first = 1 / len(named) if bots.index(0) in named else 0.0
        wdl[0 if first > 0.75 else 1 if first > 0.25 else 2] += 1
    assert [b.wins for b in report.bots] == pytest.approx(wins)
    assert report.wdl == wdl
    assert wdl[1] < 10  # most matches have one winner: few are draws


def test_a_log_folder_s_other_files_are_checked_without_a_look_at_every_match_s_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # probe EG: `sim -m 100000000 --logs DIR` with any file in DIR (a notes.txt) looked at
    # the place of every one of the 1e8 logs before the first match (40 s and no match,
    # no output); a run of 1e12 would never start. The folder's own files are read
    # instead: the work grows with what the folder holds, not with the matches asked for
    import kabucli.sim as sim_module

    (tmp_path / "notes.txt").write_text("my notes\n")
    looked: list[object] = []
    there = sim_module._there

    def counted_there(path: Path | None) -> bool:
        looked.append(path)
        return there(path)

    monkeypatch.setattr(sim_module, "_there", counted_there)

    def stop(report: object) -> None:
        raise KeyboardInterrupt

    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), ["random", "random"], 200_000,
                      seed=3, log_dir=tmp_path, workers=1, on_match=stop)
    assert report.matches == 1 and report.stopped == "interrupted (Ctrl-C)"
    assert len(looked) <= 2, f"{len(looked)} places looked at before one match was played"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dare-00001.kbl", "notes.txt"]


def test_sim_plays_on_the_workers_asked_for_and_its_title_says_how_many() -> None:
    """-j N is the number of processes (at most one a match): the table's title says '(N
    workers)' when there are several, and nothing with -j 1, whatever the cores here."""
    for workers, said in (("3", " (3 workers)"), ("1", "")):
        res = runner.invoke(app, ["sim", "dare", "-b", "random", "-b", "random", "-m", "3",
                                  "--seed", "1", "--rule", "rounds=1", "-j", workers])
        assert res.exit_code == 0, res.output
        title = "Dare: 3 matches from seed 1, bots change seats"
        line = next(ln for ln in res.stdout.splitlines() if title in ln)
        assert line.strip() == title + said, line


def test_sim_logs_writes_one_log_per_match_into_the_folder(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    res = runner.invoke(app, ["sim", "dare", "-b", "random", "-b", "random", "-m", "2",
                              "--seed", "1", "--rule", "rounds=1", "-j", "1", "--logs",
                              str(logs)])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in logs.iterdir()) == ["dare-00001.kbl", "dare-00002.kbl"]
    assert read_log(logs / "dare-00002.kbl", games.event_types).header.seed is not None


SLOW_BOT = "import sys, time\nfor line in sys.stdin:\n    time.sleep(30)\n"


@pytest.mark.parametrize("command", ["sim", "tournament"])
def test_sim_and_tournament_forfeit_a_bot_slower_than_timeout(tmp_path: Path,
                                                              command: str) -> None:
    """--timeout reaches the bots of the run: a program that does not answer within it
    forfeits its match (not the bot protocol's default of several seconds)."""
    bot = write(tmp_path, "slow.py", SLOW_BOT)
    count = ["-m", "1"] if command == "sim" else ["-d", "1", "--max-failures", "1"]
    res = runner.invoke(app, [command, "dare", "-b", f"cmd:{sys.executable} {bot}", "-b",
                              "random", *count, "--seed", "1", "--rule", "rounds=1", "-j",
                              "1", "--timeout", "0.3", "--json"])
    doc = json.loads(res.stdout)
    doc = doc.get("sim", doc) if command == "tournament" else doc
    assert doc["failures"] >= 1, res.output
    assert "did not answer within 0.3 s" in doc["failed"][0]["reason"]


def test_sim_fixed_seats_keeps_each_bot_in_its_seat_and_says_so() -> None:
    res = runner.invoke(app, ["sim", "dare", "-b", "random", "-b", "random", "-m", "2",
                              "--seed", "1", "--rule", "rounds=1", "-j", "1", "--fixed-seats"])
    assert res.exit_code == 0, res.output
    assert "Dare: 2 matches from seed 1, fixed seats" in res.stdout
    res = runner.invoke(app, ["sim", "dare", "-b", "random", "-b", "random", "-m", "2",
                              "--seed", "1", "--rule", "rounds=1", "-j", "1", "--fixed-seats",
                              "--json"])
    assert json.loads(res.stdout)["rotate"] is False


def test_sim_max_failures_stops_the_run_and_a_bot_that_played_no_match_has_no_mean(
        tmp_path: Path) -> None:
    """--max-failures K reaches the run: a bot failing every match stops it after K, exit 1;
    and a bot with no match played (all forfeited) has '-' for its mean, not +0.00."""
    bot = write(tmp_path, "crash.py", CRASH_BOT)
    res = runner.invoke(app, ["sim", "dare", "-b", f"cmd:{sys.executable} {bot}", "-b",
                              "random", "-m", "4", "--seed", "1", "--rule", "rounds=1", "-j",
                              "1", "--max-failures", "1"], env={"COLUMNS": "40"})
    assert res.exit_code == 1, res.output
    assert "stopped:" in res.stderr and "after 1 of 4 matches" in res.stderr, res.stderr
    means = [ln.split()[-1] for ln in res.stdout.splitlines() if "mean chips" in ln]
    assert means == ["-", "-"], res.stdout  # (40 columns: a bot per block)


def test_sim_started_again_with_its_logs_says_how_many_matches_it_reused(
        tmp_path: Path) -> None:
    """The same run again with --logs reads the matches it finds there instead of playing
    them, and says so under its table (probe EM: a mutant dropping that line survived)."""
    logs = tmp_path / "logs"
    args = ["sim", "dare", "-b", "random", "-b", "random", "-m", "2", "--seed", "1",
            "--rule", "rounds=1", "-j", "1", "--logs", str(logs)]
    first = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert first.exit_code == 0 and "reused" not in first.stdout, first.output
    again = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert again.exit_code == 0, again.output
    assert f"2 matches reused from {logs}" in again.stdout


def test_sim_json_stopped_by_max_failures_says_why_on_stderr(tmp_path: Path) -> None:
    """--json's document is stdout alone; why the run stopped early goes to stderr beside
    it, as every word does (probe EM: a mutant leaving it out survived)."""
    bot = write(tmp_path, "crash.py", CRASH_BOT)
    res = runner.invoke(app, ["sim", "dare", "-b", f"cmd:{sys.executable} {bot}", "-b",
                              "random", "-m", "4", "--seed", "1", "--rule", "rounds=1", "-j",
                              "1", "--max-failures", "1", "--json"])
    assert res.exit_code == 1, res.output
    assert json.loads(res.stdout)["stopped"].startswith("bot ")
    assert "stopped:" in res.stderr and "after 1 of 4 matches" in res.stderr, res.stderr


def test_sim_lists_twenty_failures_and_counts_the_rest(tmp_path: Path) -> None:
    """A report lists the first 20 failed matches (KEEP_FAILURES) and says how many more
    there were, from one more on (probe EM: a mutant saying so only from two more survived)."""
    from kabucli.sim import KEEP_FAILURES

    bot = write(tmp_path, "crash.py", CRASH_BOT)
    for matches, more in ((KEEP_FAILURES, None), (KEEP_FAILURES + 1, 1)):
        res = runner.invoke(app, ["sim", "dare", "-b", f"cmd:{sys.executable} {bot}", "-b",
                                  "random", "-m", str(matches), "--seed", "1", "--rule",
                                  "rounds=1", "-j", "2"], env={"COLUMNS": "200"})
        assert res.exit_code == 0, res.output
        listed = [ln for ln in res.stdout.splitlines() if ln.startswith("  match ")]
        assert len(listed) == KEEP_FAILURES, res.stdout
        tail = [ln for ln in res.stdout.splitlines() if ln.startswith("  ... and ")]
        assert tail == ([] if more is None else [f"  ... and {more} more"]), res.stdout
