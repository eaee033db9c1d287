"""Yatchaba through the command line: rules, deal, play with bots, a typed script and a
physical table, replay, audit; and a tampered log is named at the right event."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.engine import check_header
from kabucli.games.yatchaba.rules import GAME, Bet, YatchabaRules
from kabucli.log import read_log, write_log

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}


def run(*args: str) -> Any:
    res = runner.invoke(app, list(args), env=ENV)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def test_rules_yatchaba_documents_the_notation_and_house_rules() -> None:
    res = run("rules", "yatchaba")
    assert res.exit_code == 0
    for text in ("guess jan jan aug", "reveal 1b 1r 8a", "pass_limit", "amounts",
                 "count | book"):
        assert text in res.stdout


def test_deal_shows_the_first_lay_of_a_seed() -> None:
    res = run("deal", "yatchaba", "--seed", "5", "--json")
    assert res.exit_code == 0
    state = json.loads(res.stdout)["state"]
    assert state["phase"] == "guess" and len(state["laid"]) == 3


def test_a_bot_match_is_logged_audited_and_replayed(tmp_path: Path) -> None:
    log = tmp_path / "y.kbl"
    res = run("play", "yatchaba", "--seed", "9", "--bot", "all=smart", "--bot", "2=random",
              "--log", str(log), "--quiet")
    assert res.exit_code == 0, res.stderr
    n = len(read_log(log, games.event_types).events)
    res = run("audit", str(log))
    assert res.exit_code == 0 and f"({n} events, finished)" in res.stdout
    res = run("replay", str(log))
    assert res.exit_code == 0
    assert "lays three cards face down" in res.stdout and "match over" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines()) <= 100


def test_a_tampered_log_is_named_at_the_changed_event(tmp_path: Path) -> None:
    log = tmp_path / "y.jsonl"
    assert run("play", "yatchaba", "--seed", "4", "--bot", "all=random", "--log", str(log),
               "--quiet").exit_code == 0
    data = read_log(log, games.event_types)
    events = list(data.events)
    i = next(i for i, e in enumerate(events) if isinstance(e, Bet) and e.amount > 1)
    events[i] = msgspec.structs.replace(events[i], amount=events[i].amount + 1)
    bad = tmp_path / "bad.jsonl"
    write_log(bad, data.header, events, "jsonl")
    res = run("audit", str(bad))
    assert res.exit_code == 1
    assert f"event {i + 1}: " in res.stderr and "next amount of the sequence" in res.stderr


def test_a_script_plays_a_human_seat_against_bots(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("guess jan feb mar  # the first guess\nbet\n")
    log = tmp_path / "h.kbl"
    res = run("play", "yatchaba", "--seed", "11", "--bot", "2=smart", "--bot", "3=smart",
              "--bot", "4=smart", "--rule", "games=1", "--script", str(script),
              "--log", str(log))
    assert res.exit_code == 0, res.stderr  # the script ends: the game waits, the log is kept
    assert "p1 guesses Jan Feb Mar" in res.stdout
    assert "the game waits for" in res.stderr


def test_a_physical_table_is_refereed_from_typed_cards(tmp_path: Path) -> None:
    script = tmp_path / "table.txt"
    script.write_text("\n".join([
        "deal", "guess 1 1 8", "bet", "bet", "pass", "bet 3", "stop", "reveal 1b 8a 12",
        "deal", "guess jan aug nov", "bet", "bet", "bet", "bet", "stop", "reveal 1 8 11",
    ]) + "\n")
    log = tmp_path / "p.kbl"
    res = run("play", "yatchaba", "--physical", "--players", "4", "--rule", "games=1",
              "--script", str(script), "--log", str(log), "--json")
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)["outcome"]
    # pot 7 + 10 = 17: p2 is right in round 2, takes 14; the dealer p1 takes 3
    assert out["balances"] == {"p1": 98, "p2": 111, "p3": 97, "p4": 94}
    assert out["games"][0]["winner"] == "p2"
    assert run("audit", str(log)).exit_code == 0


def test_a_physical_table_refuses_a_fifth_card_of_a_month(tmp_path: Path) -> None:
    script = tmp_path / "table.txt"
    script.write_text("\n".join([
        "deal", "guess 2 3 4", "bet", "bet", "stop", "reveal 1 1 1",
        "deal", "guess 2 3 4", "bet", "bet", "stop", "reveal 1 1 5",
    ]) + "\n")
    res = run("play", "yatchaba", "--physical", "--players", "2", "--script", str(script),
              "--no-log")
    assert res.exit_code == 1
    assert "table.txt:12" in res.stderr and "3 already face up" in res.stderr


ALWAYS_CONTINUE = """\
from kabucli.games.yatchaba.rules import Continue


class Cont:
    \"\"\"Never stops: continues whenever it decides, else its lowest legal move.\"\"\"

    def __init__(self, rng):
        pass

    def choose(self, game, state, seat):
        if state.phase == "decide":
            return Continue(seat)
        return game.legal(state, seat)[0]
"""


def test_every_round_ends_when_a_python_bot_always_continues(tmp_path: Path) -> None:
    # A real process under a timeout: before max_laps such a match never ended.
    bot = tmp_path / "cont.py"
    bot.write_text(ALWAYS_CONTINUE)
    kind = f"py:{bot}:Cont"
    log = tmp_path / "cont.kbl"
    commands = (
        ["play", "yatchaba", "-s", "1", "-n", "2", "-b", f"1={kind}", "-b", f"2={kind}",
         "-r", "games=1", "-l", str(log), "-q"],
        ["sim", "yatchaba", "-b", kind, "-b", kind, "-b", "random", "-m", "3", "-s", "1",
         "-r", "max_laps=5"],
    )
    for args in commands:
        res = subprocess.run([sys.executable, "-m", "kabucli", *args], capture_output=True,
                             text=True, timeout=120, env={"NO_COLOR": "1", "COLUMNS": "100",
                                                          "PATH": "/usr/bin:/bin"})
        assert res.returncode == 0, res.stderr
    audit = run("audit", str(log))
    assert audit.exit_code == 0 and "finished" in audit.stdout
    assert read_log(log, games.event_types).header.rules["max_laps"] == 100
    assert run("replay", str(log)).exit_code == 0


def test_a_log_recorded_before_max_laps_reads_with_the_most_it_may_be(tmp_path: Path) -> None:
    old = Path(__file__).resolve().parent.parent / "replays" / "yatchaba"
    for path in sorted(old.iterdir()):
        header = read_log(path, games.event_types).header
        assert "max_laps" not in header.rules, path
        rules = check_header(GAME, header)
        assert isinstance(rules, YatchabaRules) and rules.max_laps == 10_000
        res = run("audit", str(path))
        assert res.exit_code == 0 and "valid" in res.stdout, res.stdout


def test_a_round_longer_than_the_cap_recorded_before_it_still_audits_valid(
        tmp_path: Path) -> None:
    """A house rule added later must not make an old log break the rules: a 150-lap round
    recorded before max_laps existed (its header without the rule) audits valid in both
    encodings and converts whole; the same inputs under today's default cap of 100 are
    refused at the 100th continue."""
    from kabucli.engine import Match, make_header
    from kabucli.games.yatchaba.rules import Continue, Stop
    from kabucli.log import SeatInfo
    from kabucli.rules import validate

    rules = validate(YatchabaRules, {"max_laps": 10_000, "games": 1}, "yatchaba")
    seats = [SeatInfo("p1", "bot:random"), SeatInfo("p2", "bot:random")]
    m = Match(GAME, make_header(GAME, rules, seats, 3))
    while not m.over:
        ev = m.expected()
        if ev is None:
            seat = m.pending.seats[0]
            if m.state.phase == "decide":
                ev = Continue(seat) if m.state.lap < 150 else Stop(seat)
            else:
                ev = next(e for e in GAME.legal(m.state, seat) if type(e) is not Stop)
        m.submit(ev)
    assert max(1 + sum(1 for e in m.events[:i] if type(e) is Continue)
               for i in range(len(m.events))) > 150
    before = msgspec.structs.replace(
        m.header, rules={k: v for k, v in m.header.rules.items() if k != "max_laps"})
    now = msgspec.structs.replace(m.header, rules={**m.header.rules, "max_laps": 100})
    for name in ("old.jsonl", "old.kbl"):
        write_log(tmp_path / name, before, m.events, "jsonl" if name.endswith("l") else
                  "msgpack", types=GAME.events)
        assert run("audit", str(tmp_path / name)).exit_code == 0
    res = run("log", "convert", str(tmp_path / "old.kbl"), str(tmp_path / "back.jsonl"))
    assert res.exit_code == 0 and f"({len(m.events)} events)" in res.stdout
    write_log(tmp_path / "now.jsonl", now, m.events, "jsonl", types=GAME.events)
    res = run("audit", str(tmp_path / "now.jsonl"))
    assert res.exit_code == 1 and "'p2 continue': waiting for the three cards" in res.stderr


def test_a_guess_that_can_never_be_right_is_recorded_from_a_script(tmp_path: Path) -> None:
    # RULINGS lets the guesser name any three months: the referee records what was said
    script = tmp_path / "table.txt"
    script.write_text("\n".join([
        "deal", "guess 2 3 4", "bet", "bet", "bet", "stop", "reveal 1 1 9",
        "deal", "guess 1 1 1", "bet", "bet", "bet", "stop", "reveal 1 5 6",
    ]) + "\n")
    log = tmp_path / "table.jsonl"
    res = run("play", "yatchaba", "--physical", "-n", "3", "-r", "games=1", "--script",
              str(script), "--log", str(log))
    assert res.exit_code == 0, res.stderr
    assert run("audit", str(log)).exit_code == 0
    replay = run("replay", str(log))
    assert "p2 guesses Jan Jan Jan, chance 0: it can never be right" in replay.stdout
    assert "p2 guessed wrong" in replay.stdout


def test_yatchaba_takes_2_to_8_players() -> None:
    # RULINGS: Players 4-6 (2-8 allowed)
    for args, n in ((("play", "yatchaba", "-n", "9", "--no-log"), 9),
                    (("play", "yatchaba", "--physical", "-n", "1", "--no-log"), 1),
                    (("deal", "yatchaba", "-n", "9", "-s", "1"), 9)):
        res = run(*args)
        assert res.exit_code == 1 and f"Yatchaba takes 2-8 players, not {n}" in res.stderr
    for n in ("2", "8"):
        assert run("deal", "yatchaba", "-n", n, "-s", "1").exit_code == 0


def test_a_seat_never_sees_the_cards_laid_face_down_in_a_replay(tmp_path: Path) -> None:
    # Seed 424242 lays 6a 9a 12c1; the log stops after the guess, before the reveal, so in
    # p2's view the cards may appear nowhere (the page's card pictures aside).
    script = tmp_path / "g.txt"
    script.write_text("guess 1 2 3\n")
    log = tmp_path / "part.jsonl"
    run("play", "yatchaba", "-s", "424242", "-n", "3", "-b", "2=smart", "-b", "3=smart",
        "-r", "games=1", "--script", str(script), "--log", str(log))
    laid = ("6a", "9a", "12c1")
    full = run("replay", str(log), "--json")
    assert json.loads(full.stdout)["steps"][-1]["state"]["laid"] == list(laid)
    plain = run("replay", str(log), "--as", "p2")
    assert plain.exit_code == 0 and "??" in plain.stdout
    assert not any(card in plain.stdout for card in laid)
    seat = run("replay", str(log), "--as", "p2", "--json")
    assert not any(f'"{card}"' in seat.stdout for card in laid)
    assert all(step["state"]["laid"] in ([], ["??"] * 3)
               for step in json.loads(seat.stdout)["steps"])
    for who, shown in (((), True), (("--as", "p2"), False)):
        page = tmp_path / "page.html"
        assert run("replay", str(log), *who, "--html", str(page)).exit_code == 0
        html = page.read_text()
        assert ('"cards":["6a","9a","12c1"]' in html) is shown
        assert '"cards":["??","??","??"]' in html  # the seats' views (the page has them all)


def test_max_laps_is_a_house_rule_of_1_to_10000() -> None:
    assert "max_laps" in run("rules", "yatchaba").stdout
    for value in ("0", "10001"):  # (0 would be no limit: a round that may never end)
        res = run("deal", "yatchaba", "-s", "1", "-r", f"max_laps={value}")
        assert res.exit_code == 1
        assert f"house rule max_laps={value} is not allowed: expected integer 1-10000" in res.stderr
    for value in ("1", "10000"):
        assert run("deal", "yatchaba", "-s", "1", "-r", f"max_laps={value}").exit_code == 0


def test_the_table_shows_passes_past_the_limit_as_no_fraction() -> None:
    """The table's passes column showed '3/2' past a limit of 2 and '1/0' with pass_limit=0,
    which read as fractions; past the limit it shows the count and the limit apart."""
    from kabucli.games.yatchaba.text import passes_cell

    assert [passes_cell(used, 2) for used in (0, 2, 3)] == ["0/2", "2/2", "3 (limit 2)"]
    assert passes_cell(1, 0) == "1 (limit 0)"
