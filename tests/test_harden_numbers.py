"""Numbers from outside: every number typed (seat, bet, amount, count) is range-checked, so a
5,000-digit number or a digit that is not ASCII is a clean refusal, never an internal error."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.errors import BotError, ParseError, RuleError
from kabucli.log import SeatInfo
from kabucli.notation import LOG_INT, MAX_LINE, number, whole
from kabucli.rules import RuleInfo, build, describe
from kabucli.session import Session, seat_kinds, start

runner = CliRunner()
BIG = "9" * 5000  # more digits than int() converts (4300): ValueError before it was checked


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env={"NO_COLOR": "1"})
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output and "internal error" not in res.output
    return res


# -- the helper ---------------------------------------------------------------------------

@pytest.mark.parametrize(("word", "lo", "hi", "value"), [
    ("7", 1, 9, 7), ("007", 1, 9, 7), ("0", 0, 9, 0), ("-1", -1, 999, -1),
    ("10", 1, 9, None), ("0", 1, 9, None), ("-1", 0, 9, None), ("-0", -5, 5, 0),
    ("", 0, 9, None), ("-", -1, 9, None), ("+5", 0, 9, None), (" 5", 0, 9, None),
    ("1_0", 0, 99, None), ("²", 0, 9, None), ("١", 0, 9, None), ("5x", 0, 9, None),
    (str(LOG_INT), 0, LOG_INT, LOG_INT), (str(LOG_INT + 1), 0, LOG_INT, None),
    # int() raises ValueError beyond 4300 digits: these are never converted whole
    (BIG, 0, LOG_INT, None), ("0" * 5000 + "3", 0, 9, 3), ("-" + BIG, -LOG_INT, LOG_INT, None),
])
def test_whole_reads_ascii_digits_within_bounds(word: str, lo: int, hi: int,
                                                value: int | None) -> None:
    assert whole(word, lo, hi) == value


def test_number_says_what_was_expected_and_quotes_the_word_short() -> None:
    assert number("12", 0, 20, "a bet") == 12
    with pytest.raises(ParseError) as err:
        number(BIG, 0, LOG_INT, "a bet")
    assert str(err.value) == (f"a bet is a whole number 0-{LOG_INT}, not "
                              f"'{'9' * 24}… (5000 characters)'")


# -- typed moves --------------------------------------------------------------------------

def session(game: str) -> Session:
    """A seeded game waiting for p1 (a person) to act; the other seats are bots."""
    g = games.get(game)
    kinds = {"dare": "random", "kazu-tori": "random", "yatchaba": "random"}
    seats = [SeatInfo("Ann")] + [SeatInfo(f"b{i}", f"bot:{kinds[game]}") for i in (2, 3)]
    sess = start(g, g.Rules(), seats, 11, None, None)
    sess.run_bots()
    return sess


TYPED = {
    "dare": ["p² pass", f"p{BIG} pass", f"pay p1 pot {BIG}", "pay p¹ pot 1", "pay p1 pot ³",
             f"pay p1 pot {LOG_INT + 1}", f"end rounds p1={BIG} p2=1 p3=1 pot=1",
             "end rounds p1=² p2=1 p3=1 pot=1", f"result round {BIG} dare p1 deals p1",
             "result round ² dare p1 deals p1", f"result round 1 dare p{BIG} deals p1"],
    "yatchaba": [f"bet {BIG}", "bet ²", "p² bet", f"guess 1 1 {BIG}", "guess 1 1 ⁸",
                 f"result game {BIG} round 1 p1 right next -",
                 "result game 1 round ² p1 right next -",
                 f"gameend 1 winner - carry {BIG} deals p2", "gameend ¹ winner - carry 1 deals p2",
                 f"pay p{BIG} pot 1"],
    "kazu-tori": [f"race p1={BIG}", "race p1=²", f"deal 10/10/{BIG}/10", "deal 10/²/10/10",
                  f"return p1={BIG}", f"score take p1 p1={BIG} wins p1", f"claim p{BIG}",
                  "claim p²", "p² claim", f"p{BIG} flip", "flip ²", "race p1=1000",
                  "return p1=41"],
}


@pytest.mark.parametrize(("game", "line"), [(g, line) for g, lines in TYPED.items()
                                            for line in lines],
                         ids=lambda x: x[:40] if isinstance(x, str) else x)
def test_a_typed_number_out_of_range_is_refused_cleanly(game: str, line: str) -> None:
    sess = session(game)
    before = sess.match.logged
    with pytest.raises(ParseError) as err:
        sess.submit_line(line)
    assert len(str(err.value)) < 200 and BIG not in str(err.value)
    assert sess.match.logged == before


def test_a_game_command_with_a_huge_number_answers_without_failing() -> None:
    sess = session("yatchaba")
    answer = games.command("yatchaba", sess.match.state, f"odds 1 1 {BIG}")
    assert answer is not None and "is not a month" in answer


@pytest.mark.parametrize("spec", ["²=random", f"{BIG}=random", f"p{BIG}=random", "0=random"])
def test_a_bot_seat_out_of_range_is_refused(spec: str) -> None:
    with pytest.raises(ParseError, match=r"there is no seat|is not a seat") as got:
        seat_kinds([spec], 3)
    assert len(str(got.value)) < 300  # a huge option is quoted cut short


def test_a_line_longer_than_any_move_is_refused_as_such() -> None:
    sess = session("dare")
    with pytest.raises(ParseError, match=f"a move is at most {MAX_LINE} characters, not 5005"):
        sess.submit_line("pass " + "x" * 5000)
    # one past the bound is refused for its length; the bound itself is read as a move
    with pytest.raises(ParseError, match=f"at most {MAX_LINE} characters, not {MAX_LINE + 1}"):
        sess.submit_line("pass" + " " * (MAX_LINE - 3))
    assert sess.submit_line("pass" + " " * (MAX_LINE - 4)) is not None


def test_a_bot_answer_longer_than_any_move_is_a_short_bot_error(tmp_path: Path) -> None:
    bot = tmp_path / "long.py"
    bot.write_text("import sys\nfor line in sys.stdin:\n    print('1-' * 25000, flush=True)\n")
    res = run("play", "dare", "--seed", "3", "-n", "2", "--bot",
              f"1=cmd:{sys.executable} {bot}", "--bot", "2=best", "--no-log")
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert "50000 characters; a move is at most 1000" in line and len(line) < 300
    with pytest.raises(BotError):
        from kabucli.bots.external import parse_answer

        parse_answer(games.get("dare"), session("dare").match.state, 1, "x" * (MAX_LINE + 1))


@pytest.mark.parametrize("line", [f"pay p1 pot {BIG}", f"p{BIG} pass", "p² pass",
                                  "sets " + "1-3-9 " * 20000])
def test_a_script_line_with_a_huge_number_is_one_short_error_line(line: str) -> None:
    res = run("play", "dare", "--seed", "7", "--bot", "2=random", "--bot", "3=random",
              "--no-log", "--script", "-", input=line + "\n")
    assert res.exit_code == 1, res.output
    error, = res.stderr.strip().splitlines()
    assert error.startswith("error: standard input:1: ") and len(error) < 400


# -- house rules ----------------------------------------------------------------------------

def numeric_rules() -> list[tuple[str, RuleInfo]]:
    return [(name, info) for name in games.names()
            for info in describe(games.get(name).Rules) if info.kind.startswith("integer")]


def test_every_numeric_house_rule_has_documented_bounds() -> None:
    rules = numeric_rules()
    assert {name for name, _ in rules} == set(games.names())
    for game, info in rules:
        assert re.fullmatch(r"integer \d+-\d+", info.kind), (game, info)
        _, hi = map(int, info.kind.split()[1].split("-"))
        assert hi <= 1_000_000_000  # chips times seats, and every pot, stay far below LOG_INT
        doc = (Path(__file__).parent.parent / "docs" / "rules" / f"{game}.md").read_text()
        row = re.search(rf"^\| `{info.name}` +\| ([^|]+?) +\|", doc, re.M)
        assert row is not None and row.group(1) == info.kind, (game, info.name)


@pytest.mark.parametrize(("game", "pair"), [
    ("dare", f"rounds={2**64}"), ("dare", f"ante={10**23}"), ("dare", f"chips={2**63}"),
    ("dare", "rounds=10001"), ("dare", f"chips={BIG}"), ("dare", "ante=-1"),
    ("kazu-tori", f"max_flips={10**6}"), ("kazu-tori", f"chips={2**63}"),
    ("yatchaba", f"games={10**9}"), ("yatchaba", "pass_limit=101"), ("yatchaba", f"chips={2**64}"),
])
def test_a_house_rule_beyond_its_bounds_is_refused_when_read(game: str, pair: str) -> None:
    g = games.get(game)
    name = pair.split("=")[0]
    info = {i.name: i for i in describe(g.Rules)}[name]
    with pytest.raises(RuleError) as err:
        build(g.Rules, [pair], game=game)
    assert str(err.value).endswith(f"is not allowed: expected {info.kind}")
    assert len(str(err.value)) < 140
    res = run("deal", game, "--seed", "1", "--rule", pair)
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line == f"error: {err.value}"


def test_the_largest_values_are_still_allowed() -> None:
    dare = games.get("dare")
    assert build(dare.Rules, ["ante=1000000", "rounds=10000", "chips=1000000000"]) == \
        dare.Rules(ante=1_000_000, rounds=10_000, chips=1_000_000_000)


def test_a_rules_file_beyond_the_bounds_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "rules.toml"
    file.write_text(f"[dare]\nante = {10**23}\n")
    with pytest.raises(RuleError, match=f"ante={10**23} is not allowed: expected integer 0-"):
        build(games.get("dare").Rules, file=file, game="dare")



@pytest.mark.parametrize("command", [["deal", "dare", "--seed", "1"], ["play", "dare", "--no-log",
                                                                       "--bot", "all=random"]])
def test_a_rules_file_number_longer_than_python_reads_is_one_line(tmp_path: Path,
                                                                 command: list[str]) -> None:
    """TOML reads any integer; Python's int() refuses one of more than 4300 digits with a
    ValueError, which the TOML reader lets out: it was an internal error."""
    file = tmp_path / "rules.toml"
    file.write_text(f"ante = {'9' * 5000}\n")
    res = run(*command, "--rules-file", str(file))
    assert res.exit_code == 2, res.output
    line, = res.stderr.strip().splitlines()
    assert line == (f"error: rules file {file}: a number in it has more than 4300 digits, "
                    "more than any house rule takes")

@pytest.mark.parametrize("value", [2**64, 10**30])
def test_a_log_header_beyond_the_bounds_is_unreadable(tmp_path: Path, value: int) -> None:
    path = tmp_path / "game.jsonl"
    res = run("play", "dare", "--seed", "4", "--bot", "all=random", "-r", "rounds=1",
              "--log", str(path), "-q")
    assert res.exit_code == 0, res.output
    header, *events = path.read_text().splitlines()
    header = header.replace('"rounds":1', f'"rounds":{value}')
    path.write_text("\n".join([header, *events]) + "\n")
    for command in ("audit", "replay", "resume"):
        res = run(command, str(path))
        assert res.exit_code == 2, (command, res.output)
        line, = res.stderr.strip().splitlines()
        assert f"header: house rule rounds={value} is not allowed: expected integer 1-10000" \
            in line, command


def test_a_huge_seed_is_one_short_line() -> None:
    res = run("deal", "dare", "--seed", BIG)
    assert res.exit_code == 1
    assert res.stderr.strip() == ("error: seed '999999999999999999999999… (5000 characters)' is "
                                  "out of range: use 0 to 2**64 - 1")
    binary = "0b" + "_".join("1" * 64)  # the longest way to write a seed still works
    assert run("deal", "dare", "--seed", binary).exit_code == 0


REPLAY = str(Path(__file__).resolve().parent.parent / "replays" / "dare" / "3p-tie-order.jsonl")
NINES = "9" * 4000  # (fewer digits than int() refuses: read, then refused as out of range)


@pytest.mark.parametrize("args", [
    ("deal", "dare", "--players", NINES),
    ("play", "dare", "--players", f"-{NINES}", "--bot", "all=random", "--no-log"),
    ("solve", "kabu-tsukuri", "1", "2", "3", "4", "--players", NINES),
    ("tournament", "dare", "-b", "random", "-b", "best", "-b", "random", "--seats", NINES),
    ("bot", "check", "dare", "x", "--players", NINES),
    ("replay", REPLAY, "--at", NINES), ("replay", REPLAY, "--at", f"-{NINES}")])
def test_a_count_of_4000_digits_is_refused_in_one_short_line(args: tuple[str, ...]) -> None:
    """A number of players, seats or an event out of range was quoted whole: a refusal of
    4,000 characters."""
    res = run(*args)
    assert res.exit_code == 1, res.output
    line, = res.stderr.strip().splitlines()
    assert len(line) < 160 and line.endswith(("… (4000 digits)", "(0 is the state before the "
                                              "first)")), line
    assert "99999999999999999999… (4000 digits)" in line


@pytest.mark.parametrize(("args", "typed"), [
    (("deal", "dare", "--players", "３"), "３"),
    (("sim", "dare", "-b", "random", "-m", "x"), "x"),
    (("replay", REPLAY, "--at", "1.5"), "1.5"),
    (("solve", "kabu-tsukuri", "1", "--top", "٣"), "٣")])
def test_a_whole_number_option_not_in_the_digits_0_9_says_to_use_them(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        args: tuple[str, ...], typed: str) -> None:
    """Typer's own words ('Input should be a valid integer, unable to parse string as an
    integer') read, for a full-width ３ a Japanese input method types, as if 3 were wrong;
    kabucli says what a seed's or a rule's refusal says."""
    import kabucli.cli as cli

    monkeypatch.setattr(sys, "argv", ["kabucli", *args])
    monkeypatch.setenv("NO_COLOR", "1")
    with pytest.raises(SystemExit) as stop:
        cli.main()
    assert stop.value.code == 2
    line, = capsys.readouterr().err.strip().splitlines()
    assert re.fullmatch(rf"error: Invalid value for '--\w+'( / '-\w')?: '{typed}' is not a whole "
                        rf"number: use the digits 0-9 \(see '.*kabucli \w+ --help'\)", line), line


@pytest.mark.parametrize("value", ["１０", "1_0", "\u0661", "2\u00a0"])
def test_a_time_limit_not_in_the_digits_0_9_is_refused(value: str) -> None:
    """float() took full-width and Arabic-Indic digits and '1_0' as a number of seconds."""
    res = runner.invoke(app, ["play", "dare", "--seed", "1", "--bot", "all=random", "--no-log",
                              "-q", "--timeout", value], env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 2, res.output
    assert "is not a number of seconds from 0.001 to 86400" in res.stderr  # (typer's box)
