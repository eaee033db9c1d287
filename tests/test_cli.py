"""Every command of the command line works: rules, deal, play, replay, audit, log convert and
completion, with text and --json output, and no ANSI escapes when piped or with NO_COLOR."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.completion import SHELLS
from kabucli.games.dare.rules import GAME
from kabucli.log import read_log
from kabucli.rules import describe

runner = CliRunner()
# An event line; piped input is not echoed, so in --step the prompt may come first.
EVENT_LINE = re.compile(r"(?:^|q: quit -- )\s*(\d+) (table|engine|p\d)", re.M)
ANSI = "\x1b["


def run(*args: str, input: str | None = None, env: dict[str, str | None] | None = None) -> Any:
    """Invoke the app as the shell would; no command may end in an unexpected exception."""
    res = runner.invoke(app, list(args), input=input, env=env)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def events_in(path: Path) -> int:
    return len(read_log(path, games.event_types).events)


def audit_ok(path: Path, finished: bool = True) -> None:
    res = run("audit", str(path))
    assert res.exit_code == 0, res.stderr
    state = "finished" if finished else "unfinished"
    first, digest = res.stdout.strip().splitlines()
    assert first == f"valid: {path} ({events_in(path)} events, {state})"
    assert re.fullmatch(r"  digest [0-9a-f]{64}", digest)


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole seeded 3-round Dare game between bots, logged as msgpack."""
    path = tmp_path_factory.mktemp("cli") / "game.kbl"
    res = run("play", "dare", "--seed", "7", "--bot", "all=best", "--rule", "rounds=3",
              "--log", str(path), "--quiet")
    assert res.exit_code == 0, res.stderr
    return path


# -- rules -------------------------------------------------------------------------------

def test_rules_lists_every_game() -> None:
    res = run("rules")
    assert res.exit_code == 0
    for name in games.names():
        assert name in res.stdout
    assert "kabucli rules GAME" in res.stdout


@pytest.mark.parametrize("command", ["play", "deal", "sim", "tournament"])
def test_a_commands_help_names_every_registered_game(command: str) -> None:
    """The help of a command that takes a game said "The game: dare, ..." and named no
    other."""
    res = runner.invoke(app, [command, "--help"], env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert res.exit_code == 0
    assert f"The game: {', '.join(games.names())}." in " ".join(res.stdout.split())
    # the values named as the help's words name them, not as Python types (<str>, <path>)
    seed = next(line for line in res.stdout.splitlines() if "--seed" in line)
    assert " N " in seed and "<str>" not in seed, seed


def _commands(group: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command of the CLI, as the words that name it (``("log", "convert")``)."""
    import typer.main

    click_group = typer.main.get_command(group) if prefix == () else group
    found: list[tuple[str, ...]] = []
    for name, cmd in click_group.commands.items():  # type: ignore[attr-defined]
        if hasattr(cmd, "commands"):
            found += _commands(cmd, (*prefix, name))
        else:
            found.append((*prefix, name))
    return found


def test_no_help_names_a_value_by_its_python_type() -> None:
    """An argument's help showed Typer's Python type beside its name (``LOG <list[Path]>``,
    ``GAME <str>``, ``src <path>``): every value is named in words, arguments in capitals as
    the usage line writes them."""
    commands = _commands(app)
    assert ("log", "convert") in commands and ("audit",) in commands
    for words in commands:
        res = runner.invoke(app, [*words, "--help"], env={"NO_COLOR": "1", "COLUMNS": "200"})
        assert res.exit_code == 0, words
        assert not re.search(r"<(str|int|path|float|list|bool)\b", res.stdout), \
            (words, res.stdout)
        panel = res.stdout.split("Arguments")[1].split("╰")[0] if "Arguments" in res.stdout \
            else ""
        for name in re.findall(r"│ [* ] +(\S+)", panel):
            assert name.isupper(), (words, name)


def test_rules_json_lists_every_game_with_its_player_range() -> None:
    res = run("rules", "--json")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert [d["name"] for d in data] == games.names()
    dare = next(d for d in data if d["name"] == "dare")
    assert dare["players"] == [2, 4]


def test_rules_dare_explains_rules_notation_and_every_house_rule() -> None:
    res = run("rules", "dare")
    assert res.exit_code == 0
    assert "Move notation" in res.stdout
    assert "reference" in res.stdout
    for info in describe(GAME.Rules):
        assert info.name in res.stdout


def test_rules_dare_json_gives_house_rules_with_defaults() -> None:
    res = run("rules", "dare", "--json")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["name"] == "dare"
    rules = {r["name"]: r["default"] for r in data["house_rules"]}
    assert rules == {"ante": 1, "yaku": "none", "tie": "carry", "rounds": 10, "chips": 50}
    assert "sets" in data["notation"]



@pytest.mark.parametrize("game", ["dare", "kabu-tsukuri"])
def test_rules_of_a_game_lists_every_bot_that_can_play_it_its_own_and_your_programs(
        game: str) -> None:
    """docs/reports.md, `rules GAME --json` `bots`: "Every kind of bot that can play it": the
    game's own bots and the external kinds (cmd:COMMAND, py:FILE.py:CLASS), in the table too."""
    from kabucli import bots

    data = json.loads(run("rules", game, "--json").stdout)
    kinds = [b["kind"] for b in data["bots"]]
    assert kinds == [*bots.about(game), *bots.EXTERNAL_ABOUT]
    res = runner.invoke(app, ["rules", game], env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert res.exit_code == 0
    assert "cmd:COMMAND" in res.stdout and "py:FILE.py:CLASS" in res.stdout


def test_rules_table_shows_defaults_as_they_are_typed_after_rule() -> None:
    """`rules uno-dare`: a yes/no default as true/false, an empty list as none (as typed after
    --rule and in the rules pages), never Python's True, False or ()."""
    res = runner.invoke(app, ["rules", "uno-dare"], env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert res.exit_code == 0
    table = res.stdout.split("House rules (--rule NAME=VALUE)")[1].split("Bots (")[0]
    assert re.search(r"dare_skips\b.*\btrue\b", table)
    assert re.search(r"dare_on_wild\b.*\bfalse\b", table)
    assert re.search(r"house_dares\b.*\bnone\b", table)
    assert "True" not in table and "False" not in table and "()" not in table

# -- deal --------------------------------------------------------------------------------

def test_deal_json_shows_every_hand_and_the_field() -> None:
    res = run("deal", "dare", "--seed", "3", "--players", "4", "--json")
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["seed"] == 3
    state = data["state"]
    assert len(state["field"]) == 3
    assert sorted(state["hands"]) == ["p1", "p2", "p3", "p4"]
    assert all(len(h) == 9 for h in state["hands"].values())
    assert state["reference"] == sum(int(c) for c in state["field"]) % 10


def test_deal_with_seed_0_deals_seed_0_not_a_random_seed() -> None:
    """--seed 0 is a seed like any other: shown as 0, the same cards every time."""
    first = json.loads(run("deal", "dare", "--seed", "0", "--json").stdout)
    again = json.loads(run("deal", "dare", "--seed", "0", "--json").stdout)
    assert first["seed"] == 0 and first == again


def test_deal_same_seed_deals_the_same_cards() -> None:
    first = json.loads(run("deal", "dare", "--seed", "3", "--json").stdout)
    again = json.loads(run("deal", "dare", "--seed", "3", "--json").stdout)
    other = json.loads(run("deal", "dare", "--seed", "4", "--json").stdout)
    assert first == again
    assert first["state"]["hands"] != other["state"]["hands"]


def test_deal_text_shows_the_seed_and_the_hands() -> None:
    data = json.loads(run("deal", "dare", "--seed", "3", "--players", "4", "--json").stdout)
    res = run("deal", "dare", "--seed", "3", "--players", "4")
    assert res.exit_code == 0
    assert "seed 3" in res.stdout
    for hand in data["state"]["hands"].values():
        assert " ".join(hand) in res.stdout


def test_deal_without_seed_prints_the_seed_it_chose() -> None:
    res = run("deal", "dare", "--json")
    seed = json.loads(res.stdout)["seed"]
    again = json.loads(run("deal", "dare", "--seed", str(seed), "--json").stdout)
    assert again == json.loads(res.stdout)


# -- play --------------------------------------------------------------------------------

def test_play_all_bots_to_the_end_shows_outcome_and_a_log_that_audits(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "--seed", "7", "--bot", "all=best", "--log", str(log))
    assert res.exit_code == 0, res.stderr
    assert "match over" in res.stdout
    assert "final chips" in res.stdout
    n = events_in(log)
    assert f"log: {log} ({n} events)" in res.stdout
    assert [int(i) for i, _ in EVENT_LINE.findall(res.stdout)] == list(range(1, n + 1))
    audit_ok(log)


def test_play_json_gives_the_outcome(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    res = run("play", "dare", "--seed", "7", "--bot", "all=random", "-r", "rounds=2",
              "--log", str(log), "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["seed"] == 7
    assert data["log"] == str(log)
    assert data["events"] == events_in(log)
    out = data["outcome"]
    assert len(out["rounds"]) == 2
    assert sum(out["balances"].values()) + out["pot"] == 3 * 50


def test_play_quiet_shows_only_the_result() -> None:
    res = run("play", "dare", "--seed", "7", "--bot", "all=best", "--no-log", "--quiet")
    assert res.exit_code == 0
    assert EVENT_LINE.search(res.stdout) is None
    assert "final chips" in res.stdout


def test_play_player_names_go_to_the_table_and_the_log(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "-s", "2", "-p", "Ann", "-p", "Bob", "-b", "all=random",
              "-r", "rounds=1", "--log", str(log))
    assert res.exit_code == 0, res.stderr
    assert "p1 Ann" in res.stdout and "p2 Bob" in res.stdout
    seats = read_log(log, games.event_types).header.seats
    assert [(s.name, s.control) for s in seats] == [("Ann", "bot:random"), ("Bob", "bot:random")]


def test_play_rule_and_rules_file_reach_the_log_header(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    # (the top level is read by Yatchaba too, which has a table here: rules both games have)
    rules.write_text('chips = 40\n[dare]\nchips = 30\nante = 3\nrounds = 2\ntie = "order"\n'
                     '[yatchaba]\npass_limit = 3\n')
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "-s", "5", "-b", "all=best", "--rules-file", str(rules),
              "--rule", "ante=2", "--log", str(log), "--json")
    assert res.exit_code == 0, res.stderr
    header = read_log(log, games.event_types).header
    assert header.rules == {"ante": 2, "yaku": "none", "tie": "order", "rounds": 2,
                            "chips": 30}
    assert len(json.loads(res.stdout)["outcome"]["rounds"]) == 2


def test_a_rules_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    # Windows Notepad saves UTF-8 with a mark at the start: the file was "not valid TOML"
    rules = tmp_path / "house.toml"
    rules.write_bytes(b"\xef\xbb\xbfrounds = 2\n")
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "-s", "5", "-b", "all=best", "--rules-file", str(rules),
              "--log", str(log))
    assert res.exit_code == 0, res.stderr
    assert read_log(log, games.event_types).header.rules["rounds"] == 2


def test_play_without_log_option_writes_a_dated_log_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = run("play", "dare", "--seed", "7", "--bot", "all=best", "-r", "rounds=1", "-q")
    assert res.exit_code == 0, res.stderr
    logs = list(tmp_path.iterdir())
    assert len(logs) == 1
    assert re.fullmatch(r"dare-\d{8}-\d{6}\.kbl", logs[0].name)
    assert f"log: {logs[0].name}" in res.stdout
    audit_ok(logs[0])


def test_play_no_log_writes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = run("play", "dare", "--seed", "7", "--bot", "all=best", "-r", "rounds=1", "--no-log")
    assert res.exit_code == 0
    assert "no log" in res.stdout
    assert list(tmp_path.iterdir()) == []


def test_play_same_seed_same_bots_same_game(tmp_path: Path) -> None:
    a = run("play", "dare", "-s", "9", "-b", "1=best", "-b", "2=random", "-b", "3=random",
            "--no-log", "--json")
    b = run("play", "dare", "-s", "9", "-b", "1=best", "-b", "2=random", "-b", "3=random",
            "--no-log", "--json")
    assert json.loads(a.stdout) == json.loads(b.stdout)


# -- replay ------------------------------------------------------------------------------

def test_replay_shows_every_event_and_the_outcome(game_log: Path) -> None:
    res = run("replay", str(game_log))
    assert res.exit_code == 0, res.stderr
    n = events_in(game_log)
    assert [int(i) for i, _ in EVENT_LINE.findall(res.stdout)] == list(range(1, n + 1))
    assert "kabucli log" in res.stdout and "final chips" in res.stdout


def test_replay_at_shows_the_state_after_event_n(game_log: Path) -> None:
    n = events_in(game_log)
    res = run("replay", str(game_log), "--at", "5")
    assert res.exit_code == 0
    assert f"state after event 5 of {n}:" in res.stdout
    assert EVENT_LINE.search(res.stdout) is None
    start = run("replay", str(game_log), "--at", "0")
    assert start.exit_code == 0 and f"state after event 0 of {n}:" in start.stdout
    end = run("replay", str(game_log), "--at", str(n))
    assert end.exit_code == 0


@pytest.mark.parametrize("at", ["-1", "100000"])
def test_replay_at_out_of_range_is_one_error_line(game_log: Path, at: str) -> None:
    res = run("replay", str(game_log), "--at", at)
    assert res.exit_code == 1
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"--at {at} is out of range" in lines[0]
    assert f"1-{events_in(game_log)}" in lines[0]


def test_replay_at_one_past_the_last_event_is_out_of_range(game_log: Path) -> None:
    """--at takes 0 to the log's number of events: one more is refused in one line, not shown
    as the last state under a heading naming an event the log does not have."""
    n = events_in(game_log)
    res = run("replay", str(game_log), "--at", str(n + 1))
    assert res.exit_code == 1
    assert res.stderr.strip().splitlines() == [
        f"error: --at {n + 1} is out of range: the log has events 1-{n} (0 is the state "
        "before the first)"]
    assert run("replay", str(game_log), "--at", str(n), "--json").exit_code == 0


def test_replay_json_has_one_step_per_event(game_log: Path) -> None:
    res = run("replay", str(game_log), "--json")
    assert res.exit_code == 0
    steps = json.loads(res.stdout)["steps"]
    events = read_log(game_log, games.event_types).events
    assert [s["index"] for s in steps] == list(range(1, len(events) + 1))
    assert [s["notation"] for s in steps] == [GAME.notate(e) for e in events]
    assert steps[0]["kind"] == "chance" and steps[0]["event"]["e"] == "deal"
    assert steps[-1]["state"]["phase"] == "over"


def test_replay_step_enter_shows_the_next_event_and_q_stops(game_log: Path) -> None:
    res = run("replay", str(game_log), "--step", input="\n\nq\n")
    assert res.exit_code == 0
    assert [int(i) for i, _ in EVENT_LINE.findall(res.stdout)] == [1, 2]
    assert re.findall(r"^event (\d+) of", res.stdout, re.M) == ["0", "1", "2"]


def test_replay_step_stops_when_input_ends(game_log: Path) -> None:
    res = run("replay", str(game_log), "--step", input="\n")
    assert res.exit_code == 0
    assert [int(i) for i, _ in EVENT_LINE.findall(res.stdout)] == [1]


# -- audit -------------------------------------------------------------------------------

def broken_copy(src: Path, dst: Path) -> Path:
    """``src`` as JSON Lines with p2's first lay (event 5 of seed 7) replaced by 1-2-3."""
    assert run("log", "convert", str(src), str(dst)).exit_code == 0
    lines = dst.read_text().splitlines()
    assert lines[5] == '{"e":"lay","seat":2,"sets":[[1,2,4],[3,5,9]]}'
    lines[5] = '{"e":"lay","seat":2,"sets":[[1,2,3]]}'
    dst.write_text("\n".join(lines) + "\n")
    return dst


def test_audit_valid_log_exits_0(game_log: Path) -> None:
    audit_ok(game_log)


def test_audit_rule_breaking_log_names_log_index_actor_action_reason(
        game_log: Path, tmp_path: Path) -> None:
    bad = broken_copy(game_log, tmp_path / "bad.jsonl")
    res = run("audit", str(bad))
    assert res.exit_code == 1
    assert res.stderr.strip() == (
        f"invalid: {bad}: event 5: p2 'p2 sets 1-2-3': set 1-2-3 adds up to 6, ones digit 6, "
        "not the reference 7")


def test_audit_unreadable_log_exits_2(tmp_path: Path) -> None:
    res = run("audit", str(tmp_path / "missing.kbl"))
    assert res.exit_code == 2
    assert res.stderr.strip() == f"unreadable: {tmp_path / 'missing.kbl'}: no such file"


def test_audit_several_logs_worst_code_wins(game_log: Path, tmp_path: Path) -> None:
    bad = broken_copy(game_log, tmp_path / "bad.jsonl")
    missing = tmp_path / "missing.kbl"
    assert run("audit", str(game_log), str(game_log)).exit_code == 0
    assert run("audit", str(game_log), str(bad)).exit_code == 1
    res = run("audit", str(missing), str(bad), str(game_log))
    assert res.exit_code == 2
    assert len(res.stderr.strip().splitlines()) == 2  # one line per bad log
    assert f"valid: {game_log}" in res.stdout


def test_audit_lines_come_in_the_order_of_the_logs(game_log: Path, tmp_path: Path) -> None:
    # valid logs' lines are printed in batches (on stdout), and always before the line of a
    # bad log (on stderr): on one terminal, or one file as here, they read in the logs' order
    bad = broken_copy(game_log, tmp_path / "bad.jsonl")
    missing = tmp_path / "missing.kbl"
    order = [game_log, game_log, bad, game_log, missing, game_log, game_log]
    res = subprocess.run([sys.executable, "-m", "kabucli", "audit", *map(str, order)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         timeout=120, env={**os.environ, "NO_COLOR": "1"})
    assert res.returncode == 2
    said = [line.split(":")[0] for line in res.stdout.splitlines()
            if not line.startswith("  digest ")]
    assert said == ["valid", "valid", "invalid", "valid", "unreadable", "valid", "valid",
                    "7 logs"]
    assert res.stdout.count("  digest ") == 5
    # the last line counts them, for a person who would else scroll through the lines
    assert res.stdout.splitlines()[-1] == "7 logs: 5 valid, 1 invalid, 1 unreadable"


def test_audit_counts_say_none_valid_when_no_log_is(game_log: Path, tmp_path: Path) -> None:
    """The last line always says how many logs were valid, 0 too (it read '2 logs: 1 invalid,
    1 unreadable' in a mutant), and leaves out a kind of bad log none was."""
    bad = broken_copy(game_log, tmp_path / "bad.jsonl")
    res = run("audit", str(bad), str(tmp_path / "missing.kbl"))
    assert res.exit_code == 2
    assert res.stdout.splitlines()[-1] == "2 logs: 0 valid, 1 invalid, 1 unreadable"
    res = run("audit", str(bad), str(bad))
    assert res.exit_code == 1
    assert res.stdout.splitlines()[-1] == "2 logs: 0 valid, 2 invalid"


def test_audit_counts_the_logs_only_when_it_checks_several(game_log: Path) -> None:
    one = run("audit", str(game_log))
    assert one.exit_code == 0 and "logs:" not in one.stdout
    two = run("audit", str(game_log), str(game_log))
    assert two.exit_code == 0 and two.stdout.splitlines()[-1] == "2 logs: 2 valid"
    as_json = run("audit", str(game_log), str(game_log), "--json")
    assert len(json.loads(as_json.stdout)) == 2


def test_audit_json_reports_each_log(game_log: Path, tmp_path: Path) -> None:
    bad = broken_copy(game_log, tmp_path / "bad.jsonl")
    empty = tmp_path / "empty.kbl"
    empty.write_bytes(b"")
    res = run("audit", str(game_log), str(bad), str(empty), "--json")
    assert res.exit_code == 2
    assert res.stderr == ""
    # printed item by item as the logs are checked, the same bytes as the whole list dumped
    assert res.stdout == json.dumps(json.loads(res.stdout), indent=2) + "\n"
    valid, invalid, unreadable = json.loads(res.stdout)
    assert re.fullmatch(r"[0-9a-f]{64}", valid.pop("digest"))
    assert valid == {"log": str(game_log), "status": "valid", "format": 2,
                     "events": events_in(game_log), "finished": True}
    assert invalid["status"] == "invalid"
    assert (invalid["index"], invalid["actor"], invalid["action"]) == (5, "p2", "p2 sets 1-2-3")
    assert "reference 7" in invalid["reason"]
    assert unreadable["status"] == "unreadable" and "empty file" in unreadable["error"]


# -- log convert -------------------------------------------------------------------------

def test_log_convert_both_ways_is_lossless(game_log: Path, tmp_path: Path) -> None:
    js = tmp_path / "g.jsonl"
    back = tmp_path / "back.kbl"
    n = events_in(game_log)
    res = run("log", "convert", str(game_log), str(js))
    assert res.exit_code == 0 and f"wrote {js} ({n} events)" in res.stdout
    assert js.read_text().startswith('{"format":2,"game":"dare"')
    assert run("log", "convert", str(js), str(back)).exit_code == 0
    assert back.read_bytes() == game_log.read_bytes()  # format 2 both ways, byte for byte
    audit_ok(js)


def test_log_convert_refuses_to_overwrite_without_force(game_log: Path, tmp_path: Path) -> None:
    dst = tmp_path / "taken.jsonl"
    dst.write_text("keep me\n")
    res = run("log", "convert", str(game_log), str(dst))
    assert res.exit_code == 1
    assert res.stderr.strip() == f"error: {dst} already exists; add --force to overwrite it"
    assert dst.read_text() == "keep me\n"
    res = run("log", "convert", str(game_log), str(dst), "--force")
    assert res.exit_code == 0
    assert events_in(dst) == events_in(game_log)


def test_log_convert_to_option_chooses_the_encoding(game_log: Path, tmp_path: Path) -> None:
    dst = tmp_path / "g.log"
    assert run("log", "convert", str(game_log), str(dst), "--to", "jsonl").exit_code == 0
    assert dst.read_bytes()[:1] == b"{"


def test_log_convert_of_a_log_that_breaks_a_rule_exits_1_as_audit(game_log: Path,
                                                                 tmp_path: Path) -> None:
    # README: a file kabucli cannot use exits 2 when it cannot be read, 1 when it breaks a
    # rule; a rule-breaking log refused by the binary encoding is the second (it was 2)
    js = tmp_path / "g.jsonl"
    assert run("log", "convert", str(game_log), str(js)).exit_code == 0
    lines = js.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"e":"lay"' in line)
    lay = json.loads(lines[at])
    lay["seat"] = lay["seat"] % 3 + 1  # another seat's lay: not its turn
    lines[at] = json.dumps(lay, separators=(",", ":"))
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    assert run("audit", str(broken)).exit_code == 1
    dst = tmp_path / "broken.kbl"
    res = run("log", "convert", str(broken), str(dst))
    assert res.exit_code == 1, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and "not p" in res.stderr
    assert not dst.exists()
    missing = run("log", "convert", str(tmp_path / "none.jsonl"), str(tmp_path / "x.kbl"))
    assert missing.exit_code == 2  # unreadable stays 2


# -- completion --------------------------------------------------------------------------

@pytest.mark.parametrize("shell", SHELLS)
def test_completion_prints_the_script_of_each_shell(shell: str) -> None:
    res = run("completion", shell)
    assert res.exit_code == 0
    assert "_KABUCLI_COMPLETE" in res.stdout
    assert res.stdout.count("complete_" + shell) >= 1


def test_completion_takes_a_shells_name_in_capitals_as_rules_takes_a_games() -> None:
    """`kabucli rules DARE` explains Dare; `kabucli completion BASH` was refused."""
    assert run("completion", "BASH").stdout == run("completion", "bash").stdout != ""
    assert run("completion", "Fish").exit_code == 0


def test_completion_unknown_shell_is_one_error_line() -> None:
    res = run("completion", "tcsh")
    assert res.exit_code == 1
    assert res.stdout == ""
    assert res.stderr.strip() == "error: no completion for shell 'tcsh' (shells: bash, zsh, fish)"


# -- colour and machine-readable output --------------------------------------------------

COLOUR_CASES = [
    ("rules",),
    ("rules", "dare"),
    ("deal", "dare", "--seed", "3"),
    ("play", "dare", "--seed", "7", "--bot", "all=best", "-r", "rounds=2", "--no-log"),
    ("play", "nogame"),
    ("completion", "tcsh"),
]


@pytest.mark.parametrize("args", COLOUR_CASES, ids=lambda a: " ".join(a[:2]))
def test_no_color_means_no_escapes_even_on_a_terminal(args: tuple[str, ...]) -> None:
    terminal = {"FORCE_COLOR": "1", "TERM": "xterm-256color", "NO_COLOR": None}
    coloured = run(*args, env=terminal)
    assert ANSI in coloured.output  # the check below can fail: colour is on without NO_COLOR
    plain = run(*args, env={**terminal, "NO_COLOR": "1"})
    assert plain.exit_code == coloured.exit_code
    assert ANSI not in plain.output


def test_piped_output_has_no_escapes(game_log: Path) -> None:
    env: dict[str, str | None] = {"FORCE_COLOR": None, "NO_COLOR": None, "TTY_COMPATIBLE": None}
    for args in [*COLOUR_CASES, ("replay", str(game_log)), ("audit", str(game_log))]:
        res = run(*args, env=env)
        assert ANSI not in res.output, args


# -- the real entry point ----------------------------------------------------------------

def kabucli(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "KABUCLI_DEBUG")}
    return subprocess.run([sys.executable, "-m", "kabucli", *args], cwd=cwd, env=env,
                          input=stdin, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args", [("--help",), ("sim", "--help")])
def test_help_from_the_entry_point_has_no_escapes_with_no_color(args: tuple[str, ...]) -> None:
    # Typer draws --help itself, with its own rich console
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "KABUCLI_DEBUG")}
    env.update(FORCE_COLOR="1", TERM="xterm-256color")
    coloured = subprocess.run([sys.executable, "-m", "kabucli", *args], env=env,
                              capture_output=True, text=True, timeout=60)
    assert coloured.returncode == 0 and ANSI in coloured.stdout  # this check can fail
    plain = subprocess.run([sys.executable, "-m", "kabucli", *args], env={**env, "NO_COLOR": "1"},
                           capture_output=True, text=True, timeout=60)
    assert plain.returncode == 0 and "Usage" in plain.stdout
    assert ANSI not in plain.stdout


def _commands(group: Any = app, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [(*prefix, c.name or c.callback.__name__) for c in group.registered_commands]
    for sub in group.registered_groups:
        found += _commands(sub.typer_instance, (*prefix, sub.name))
    return found


def test_each_command_is_summed_up_on_one_line_of_the_command_list() -> None:
    # the list in `kabucli --help` shows the first paragraph of each command's help with its
    # line breaks as written (audit's broke mid-sentence there)
    def text(*args: str) -> str:
        res = run(*args, "--help", env={"COLUMNS": "200"})
        assert res.exit_code == 0, args
        return "\n".join(line.rstrip() for line in res.output.splitlines())

    rows = text().splitlines()
    commands = _commands()
    assert len(commands) >= 13
    for path in commands:
        # the paragraphs after "Usage: ...": the first is the command's summary (typer
        # joins its lines here, at 200 columns)
        summary = text(*path).split("Usage:", 1)[1].split("\n\n")[1].strip()
        assert summary and "\n" not in summary, (path, summary)
        if len(path) == 1:
            row = next(line for line in rows if re.match(rf"\W*{path[0]}\s", line))
            assert summary in row, (path, row)


def test_version_names_the_version_and_the_build(tmp_path: Path) -> None:
    import kabucli as pkg

    res = kabucli("--version", cwd=tmp_path)
    assert pkg.build() == ("compiled core" if pkg.compiled() else "pure Python")
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(f"kabucli {pkg.__version__} ({pkg.build()}), Python 3.")


def test_entry_point_plays_a_game_and_audits_it(tmp_path: Path) -> None:
    play = kabucli("play", "dare", "-s", "7", "-b", "all=best", "-r", "rounds=2",
                   "--log", "g.jsonl", "--json", cwd=tmp_path)
    assert play.returncode == 0, play.stderr
    assert json.loads(play.stdout)["log"] == "g.jsonl"
    audit = kabucli("audit", "g.jsonl", cwd=tmp_path)
    n = events_in(tmp_path / "g.jsonl")
    assert (audit.returncode, audit.stdout.splitlines()[0]) == (
        0, f"valid: g.jsonl ({n} events, finished)")
    assert ANSI not in play.stdout + audit.stdout


@pytest.mark.parametrize("args", [
    ("play", "poker"),
    ("deal", "dare", "--seed", "-1"),
    ("replay", "."),
    ("audit", "missing.kbl"),
    ("play", "dare", "--script", "missing.txt", "--no-log"),
])
def test_entry_point_bad_input_is_one_line_without_traceback(tmp_path: Path,
                                                             args: tuple[str, ...]) -> None:
    res = kabucli(*args, cwd=tmp_path)
    assert res.returncode in (1, 2)
    assert "Traceback" not in res.stderr + res.stdout
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(("error:", "unreadable:")), res.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("args", "said"), [
    (("deal", "dare", "--seed", "3"), b"seed 3"),
    # a game between bots made the prompt's line editor, whose output showed the cursor
    # (ESC[?12l ESC[?25h) though nobody was asked anything
    (("play", "dare", "--seed", "3", "--bot", "all=random", "--no-log", "-q"), b"final chips"),
])
def test_entry_point_with_no_color_on_a_terminal_sends_no_escapes(
        tmp_path: Path, args: tuple[str, ...], said: bytes) -> None:
    env = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    env.update(NO_COLOR="1", TERM="xterm-256color")
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "kabucli", *args],
                            stdin=child, stdout=child, stderr=child, env=env, cwd=tmp_path)
    os.close(child)
    out = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    assert proc.wait(timeout=60) == 0
    assert said in out
    assert ANSI.encode() not in out


# (each child first takes Python's Ctrl-C handler, as when started from a terminal: pytest
# started with Ctrl-C ignored, under nohup ... & or as a script's background job, had its
# children inherit that, and kabucli rightly kept ignoring it, failing these tests)
AS_FROM_A_TERMINAL = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n"

CTRL_C_WHILE_LOADING = AS_FROM_A_TERMINAL + """
import importlib.abc, os, signal, sys

class CtrlC(importlib.abc.MetaPathFinder):  # Ctrl-C while kabucli.cli is being imported
    def find_spec(self, name, path, target=None):
        if name == "kabucli.cli":
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv = ["kabucli", "--help"]
from kabucli.entry import main
main()
"""


def test_ctrl_c_while_the_program_loads_ends_it_without_a_traceback(tmp_path: Path) -> None:
    # as any Unix tool: ended by the signal, nothing printed (it was a traceback from
    # whichever module was being imported)
    res = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_LOADING], cwd=tmp_path,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == -signal.SIGINT and res.stderr == "" and res.stdout == ""


@pytest.mark.parametrize(("started", "then"), [
    (AS_FROM_A_TERMINAL, "signal.default_int_handler"),
    ("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n", "signal.SIG_IGN")],
    ids=["from-a-terminal", "ignored-from-the-start"])
def test_once_loaded_ctrl_c_is_the_commands_to_handle_unless_ignored(started: str,
                                                                     then: str) -> None:
    # the entry point gives Python's Ctrl-C back (a KeyboardInterrupt) before the command
    # runs; a background job of a script (or nohup ... &) starts with Ctrl-C ignored: the
    # entry point leaves it so, before and after loading the commands
    code = (started + "import signal, kabucli.cli\n"
            f"kabucli.cli.main = lambda: print(signal.getsignal(signal.SIGINT) is {then})\n"
            "from kabucli.entry import main\nmain()\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0 and res.stdout.strip() == "True", res.stderr


def _ctrl_c() -> None:
    raise KeyboardInterrupt


def _ctrl_c_in_a_class_being_made() -> None:
    # what Python 3.11 makes of a Ctrl-C in a descriptor's __set_name__ (a dataclass field
    # as a module that defines one is imported): a RuntimeError caused by it
    class Field:
        def __set_name__(self, owner: type, name: str) -> None:
            raise KeyboardInterrupt

    type("Made", (), {"field": Field()})


def _error_while_a_ctrl_c_was_handled() -> None:
    # an error raised as code tidies up after a Ctrl-C: the Ctrl-C is its context, no cause
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        raise RuntimeError("tidying up failed")  # noqa: B904 (as such code does)


@pytest.mark.parametrize("how", [_ctrl_c, _ctrl_c_in_a_class_being_made,
                                 _error_while_a_ctrl_c_was_handled])
def test_ctrl_c_that_no_command_handles_is_one_word_and_exit_130(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        how: Any) -> None:
    # e.g. while typer still builds the command line, or a command imports what it needs:
    # no traceback, no "internal error"
    import kabucli.cli as cli

    monkeypatch.setattr(cli, "app", lambda **kwargs: how())
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 130
    assert capsys.readouterr().err.strip() == "aborted"


def test_an_unexpected_error_is_one_internal_error_line_and_exit_3(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import kabucli.cli as cli

    def broken(**kwargs: Any) -> None:
        raise RuntimeError("boom [red]x[/]")

    monkeypatch.delenv("KABUCLI_DEBUG", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setattr(cli, "app", broken)
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 3
    err = capsys.readouterr().err
    assert err == ("internal error: RuntimeError: boom [red]x[/] (set KABUCLI_DEBUG=1 for "
                   "details)\n")
    monkeypatch.setenv("KABUCLI_DEBUG", "1")
    with pytest.raises(RuntimeError):
        cli.main()


def test_main_run_off_the_main_thread_leaves_signals_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # (a program that runs kabucli in a thread of its own: signals are the main thread's)
    import threading

    import kabucli.cli as cli

    monkeypatch.setattr(cli, "app", lambda **kwargs: 0)
    ended: list[BaseException] = []

    def run() -> None:
        try:
            cli.main()
        except BaseException as exc:  # (what ended it is the test's to see)
            ended.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert len(ended) == 1 and isinstance(ended[0], SystemExit) and ended[0].code == 0


def test_main_leaves_a_ctrl_c_handler_a_command_put_in_place(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    import kabucli.cli as cli

    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("the tests run with another Ctrl-C handler")

    def own(signum: int, frame: Any) -> None:
        pass

    def command(**kwargs: Any) -> int:
        signal.signal(signal.SIGINT, own)
        return 0

    monkeypatch.setattr(cli, "app", command)
    try:
        with pytest.raises(SystemExit):
            cli.main()
        assert signal.getsignal(signal.SIGINT) is own
        monkeypatch.setattr(cli, "app", lambda **kwargs: 0)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        with pytest.raises(SystemExit):
            cli.main()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # (put back)
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def test_an_error_of_a_named_file_that_escapes_is_not_taken_for_unwritable_output(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # (a file kabucli opens is named in its own refusal: one that escaped is a bug)
    import errno

    import kabucli.cli as cli

    def full(**kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "game.kbl")

    monkeypatch.delenv("KABUCLI_DEBUG", raising=False)
    monkeypatch.setattr(cli, "app", full)
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 3
    assert "internal error" in capsys.readouterr().err


def test_a_count_of_one_event_is_said_in_the_singular(tmp_path: Path) -> None:
    """A log that holds one event is '1 event' wherever a command counts its events (probe V:
    `log repair` said '1 events kept' and `audit` 'valid: ... (1 events, unfinished)')."""
    src = Path(__file__).resolve().parent.parent / "replays" / "uno-dare" / "3p-first-card-dare.kbl"
    data = src.read_bytes()
    end = 8 + 8 + int.from_bytes(data[8:12], "big")  # the magic and the header's frame
    one = tmp_path / "one.kbl"
    one.write_bytes(data[:end])  # a seeded log with no input: the first deal, derived
    assert len(read_log(one, games.event_types).events) == 1
    res = run("audit", str(one))
    assert res.exit_code == 0 and f"valid: {one} (1 event, unfinished)" in res.stdout
    res = run("log", "convert", str(one), str(tmp_path / "one.jsonl"))
    assert res.exit_code == 0 and res.stdout.strip() == f"wrote {tmp_path / 'one.jsonl'} (1 event)"
    res = run("replay", str(one), "--html", str(tmp_path / "one.html"))
    assert res.exit_code == 0 and f"wrote {tmp_path / 'one.html'} (1 event, " in res.stdout
    torn = tmp_path / "torn.kbl"
    torn.write_bytes(data[:end + 5])  # a block cut short after the header
    res = run("log", "repair", str(torn), str(tmp_path / "fixed.kbl"))
    assert res.exit_code == 0
    assert f"wrote {tmp_path / 'fixed.kbl'} (1 event kept, 1 record dropped" in res.stdout
    res = run("audit", str(src))  # any other count keeps its plural
    assert res.exit_code == 0 and f"valid: {src} (139 events, finished)" in res.stdout


def test_an_option_quoted_in_an_error_is_shown_once_not_escaped_twice() -> None:
    """fail() makes its message safe to show; an option escaped before it was shown with a
    stray backslash ('--digest \\[zz]', '--log names one (\\[a].kbl)')."""
    log = Path(__file__).resolve().parent.parent / "replays" / "dare" / "3p-tie-order.jsonl"
    res = run("audit", "--digest", "[zz]", str(log))
    assert res.exit_code == 2
    assert res.stderr.strip() == ("error: --digest [zz]: give 16 to 64 hex digits (of the 64 "
                                  "audit prints)")
    res = run("play", "dare", "--no-log", "--log", "[a].kbl")
    assert res.exit_code == 1
    assert res.stderr.strip() == ("error: --no-log writes no log, yet --log names one "
                                  "([a].kbl): give one of the two")


CTRL_C_IN_AUDIT = """
import os, signal, sys
import kabucli.log as L

def audit_log(*args, **kwargs):  # Ctrl-C in the middle of the audit, as a person presses it
    os.kill(os.getpid(), signal.SIGINT)
    raise AssertionError("the Ctrl-C did not interrupt")

L.audit_log = audit_log
sys.argv = ["kabucli", "audit", sys.argv[1]]
from kabucli.entry import main
main()
"""


def test_ctrl_c_in_the_middle_of_an_audit_is_one_word_and_exit_130() -> None:
    """A real Ctrl-C (SIGINT) that comes while a command works and no command handles: typer
    makes it a silent exit 130 of its own, and kabucli says 'aborted' (no traceback, no
    silence)."""
    root = Path(__file__).resolve().parent.parent
    log = sorted((root / "replays" / "dare").glob("*.kbl"))[0]
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", CTRL_C_IN_AUDIT, str(log)], env=env,
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == "aborted"
    assert done.stdout == ""


def test_main_run_twice_in_one_process_leaves_ctrl_c_as_it_found_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """cli.main notes a Ctrl-C (to tell typer's silent exit 130 from a command's own): it
    gives Python's handler back when it returns, and a Ctrl-C noted in one run is not taken
    for one in the next, where a command that handled its own (kabucli sim, having said
    'stopped: interrupted') exits 130: no 'aborted' after it. (The note outlived the run:
    the handler stayed kabucli's, and the second run said 'aborted' too.)"""
    import kabucli.cli as cli

    def ctrl_c(**kwargs: Any) -> int:  # a real Ctrl-C, which no command handles
        os.kill(os.getpid(), signal.SIGINT)
        raise AssertionError("the Ctrl-C did not interrupt")

    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # (as from a terminal)
    try:
        monkeypatch.setattr(cli, "app", ctrl_c)
        with pytest.raises(SystemExit) as stop:
            cli.main()
        assert stop.value.code == 130 and capsys.readouterr().err.strip() == "aborted"
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        monkeypatch.setattr(cli, "app", lambda **kwargs: 130)  # a command's own exit 130
        with pytest.raises(SystemExit) as stop:
            cli.main()
        assert stop.value.code == 130 and capsys.readouterr().err == ""
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)


PLAY_AND_SAY_WHAT_LOADED = """
import sys
sys.argv = ["kabucli", "play", "dare", "--seed", "1", "--bot", "all=random", "--quiet",
            "--no-log"]
from kabucli.entry import main
try:
    main()
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m in ("kabucli.sim", "multiprocessing")))
"""


def test_playing_a_game_loads_no_part_of_sim() -> None:
    """``kabucli play`` takes SIGTERM while a game runs with a handler that drops a second one;
    that handler is found where loading it costs nothing more (kabucli.entry), not in
    kabucli.sim, whose imports cost a game's start about 10 ms."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", PLAY_AND_SAY_WHAT_LOADED], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout[-500:]


def test_a_replays_lines_are_printed_together_in_order_and_every_one() -> None:
    """A text replay printed each event line with a print of its own, and rich's cost is per
    print (a long log spent a third of its time there): cli.common._Batch prints them
    together, up to ``most`` at a time or when ``every`` seconds went by, the rest at flush,
    none lost or reordered. (The replays' snapshots hold the output itself.)"""
    from rich.console import Console

    from kabucli.cli.common import _Batch

    printed: list[list[str]] = []

    class Out:
        def print(self, group: Any) -> None:
            printed.append([str(r) for r in group.renderables])

    batch = _Batch(cast(Console, Out()), most=3, every=1e9)
    for i in range(7):
        batch.add(str(i))
    assert printed == [["0", "1", "2"], ["3", "4", "5"]]
    batch.flush()
    batch.flush()  # (nothing left: no empty print)
    assert printed[2:] == [["6"]]
    printed.clear()
    batch = _Batch(cast(Console, Out()), most=1000, every=0.0)  # a slow log: shown at once
    time.sleep(0.001)
    batch.add("a")
    time.sleep(0.001)
    batch.add("b")
    assert printed == [["a"], ["b"]]


def test_a_digest_is_16_to_64_hex_digits_and_a_prefix_names_the_log() -> None:
    """--digest takes 16 to 64 hex digits (spaces and case as written at the table): the first
    16 of the digest audit prints prove the log as the whole 64 do; 15 or 65 are refused as
    a usage error (exit 2). Mutants accepting 15 or 65 survived the tests probe EF ran."""
    log = Path(__file__).resolve().parent.parent / "replays" / "dare" / "3p-physical-match.kbl"
    res = run("audit", "--json", str(log))
    assert res.exit_code == 0
    digest = json.loads(res.stdout)[0]["digest"]
    assert len(digest) == 64
    for typed in (digest[:16], digest, " ".join([digest[:8].upper(), digest[8:16]])):
        res = run("audit", "--digest", typed, str(log))
        assert res.exit_code == 0, (typed, res.output)
    for typed in (digest[:15], digest + "0"):
        res = run("audit", "--digest", typed, str(log))
        assert res.exit_code == 2, (typed, res.output)
        assert "give 16 to 64 hex digits" in res.stderr
    wrong = ("0" if digest[0] != "0" else "1") + digest[1:16]
    assert run("audit", "--digest", wrong, str(log)).exit_code == 1
