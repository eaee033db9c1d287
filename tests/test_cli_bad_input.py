"""Bad input of every kind: one clear error line on stderr that says where and why, a non-zero
exit code, no traceback, and nothing left behind that was not there before."""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.engine import walk
from kabucli.errors import ParseError
from kabucli.log import read_log

runner = CliRunner()
REPLAYS = Path(__file__).resolve().parent.parent / "replays"
HUMAN_GAME = ("play", "dare", "--seed", "7", "--bot", "2=best", "--bot", "3=random")


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def error(res: Any, code: int = 1, prefix: str = "error: ") -> str:
    """The one error line of a failed command (its text after ``prefix``)."""
    assert res.exit_code == code, (res.exit_code, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith(prefix), lines[0]
    return str(lines[0][len(prefix):])


def events_in(path: Path) -> int:
    return len(read_log(path, games.event_types).events)


def audits_clean(path: Path) -> None:
    res = run("audit", str(path))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.startswith(f"valid: {path} ({events_in(path)} events, ")


# -- options -----------------------------------------------------------------------------

OPTION_CASES = [
    (("play", "poker"), "unknown game 'poker' (games: dare"),
    (("deal", "Poker", "--seed", "1"), "unknown game 'Poker'"),
    (("rules", "poker"), "unknown game 'poker'"),
    (("deal", "dare", "--seed", "seven"), "seed 'seven' is not a whole number"),
    (("deal", "dare", "--seed", "1.5"), "seed '1.5' is not a whole number"),
    (("play", "dare", "--seed", "-3"), "seed '-3' is out of range: use 0 to 2**64 - 1"),
    (("play", "dare", "--seed", str(2**64)), f"seed '{2**64}' is out of range"),
    (("play", "dare", "--players", "5"), "Dare takes 2-4 players, not 5"),
    (("deal", "dare", "--players", "1"), "Dare takes 2-4 players, not 1"),
    (("play", "dare", "-n", "2", "-p", "Ann", "-p", "Bob", "-p", "Cy"),
     "--player 'Cy': there is no seat 3 (--players 2)"),
    (("play", "dare", "-p", "Ann", "-p", " "), "--player ' ' (seat 2): a name must be"),
    (("play", "dare", "-p", "Ann", "-p", "B\nob"), "--player 'B\\nob' (seat 2)"),
    (("play", "dare", "-p", "5=Ann"), "--player '5=Ann': there is no seat 5 (Dare takes 2-4 "
                                      "players)"),
    (("play", "dare", "--rule", "jokers=1"),
     "unknown house rule 'jokers' for dare (known: ante, yaku, tie, rounds, chips)"),
    (("deal", "dare", "--rule", "tie=coin"),
     "house rule tie='coin' is not allowed: expected carry | split | order"),
    (("play", "dare", "--rule", "rounds=0"),
     "house rule rounds=0 is not allowed: expected integer 1-10000"),
    (("play", "dare", "--rule", "ante=lots"), "house rule ante='lots' is not allowed"),
    (("play", "dare", "--rule", "ante"), "house rule 'ante' should look like NAME=VALUE"),
    (("play", "dare", "--rule", "ante=\u0661"),
     "house rule ante='\u0661' is not allowed: expected integer 0-1000000 written in the "
     "digits 0-9"),
    (("deal", "dare", "--rule", "ante=+1"), "house rule ante='+1' is not allowed"),
    (("sim", "dare", "-b", "best", "-m", "1", "--rule", "chips=1_000"),
     "house rule chips='1_000' is not allowed"),
    (("tournament", "dare", "-b", "best", "-b", "random", "--rule", "rounds=\u0663"),
     "house rule rounds='\u0663' is not allowed"),
    (("bot", "check", "dare", "true", "--rule", "chips=+5"),
     "house rule chips='+5' is not allowed"),
    (("solve", "kabu-tsukuri", "1", "--rule", "bet=+5"), "house rule bet='+5' is not allowed"),
    (("play", "dare", "--rule", "ante=1", "-r", "ante=2"),
     "house rule 'ante' is set twice ('ante=1', then 'ante=2'): set it once"),
    (("sim", "dare", "-b", "best", "-m", "1", "-r", "ante=1", "--rule=ante=1"),
     "house rule 'ante' is set twice ('ante=1', then 'ante=1'): set it once"),
    # a long value is cut inside its quotes and its own length told (it was its repr cut:
    # no closing quote, and the length of the repr, each backslash counted twice)
    (("play", "dare", "--rule", "ante=" + "\\" * 60),
     "house rule ante='" + "\\\\" * 40 + "… (60 characters)' is not allowed: expected "
     "integer 0-1000000 written in the digits 0-9"),
    (("deal", "uno-dare", "--rule", "dare_skips=yes"),
     "house rule dare_skips='yes' is not allowed: expected true | false"),
    (("play", "dare", "--rule", "=2"), "house rule '=2' should look like NAME=VALUE"),
    (("play", "dare", "--bot", "2=genius"), "--bot '2=genius': unknown bot 'genius' for dare"),
    (("play", "dare", "--bot", "5=best"), "--bot '5=best': there is no seat 5 (Dare takes 2-4 "
                                          "players)"),
    (("play", "dare", "-n", "2", "--bot", "p3=best"), "--bot 'p3=best': there is no seat 3 "
                                                      "(--players 2)"),
    (("play", "dare", "--bot", "best"), "--bot 'best' should look like SEAT=KIND"),
    (("play", "dare", "--physical", "--seed", "3"), "--physical deals nothing, so it takes "
                                                    "no --seed"),
    (("play", "dare", "--physical", "--bot", "2=best"), "--bot cannot be used with --physical"),
    (("log", "convert", "a.kbl", "b.kbl", "--to", "xml"), "--to xml: choose msgpack or jsonl"),
    # options that ask for opposite things are refused, never one of them dropped silently
    (("play", "dare", "--bot", "all=best", "--no-log", "--log", "t.kbl"),
     "--no-log writes no log, yet --log names one (t.kbl): give one of the two"),
    (("play", "dare", "--bot", "all=best", "--log", ""), "--log: the name is empty; name a "
                                                          "file"),
]


@pytest.mark.parametrize(("args", "why"), OPTION_CASES, ids=lambda x: " ".join(x)
                         if isinstance(x, tuple) else "")
def test_bad_option_is_one_error_line_and_leaves_no_log(
        args: tuple[str, ...], why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = run(*args)
    assert why in error(res)
    assert res.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_bad_rules_file_names_the_file_and_the_problem(tmp_path: Path) -> None:
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_text("rounds = [\n")
    assert error(run("play", "dare", "--rules-file", str(bad_toml), "--no-log"), 2).startswith(
        f"rules file {bad_toml} is not valid TOML")
    other = tmp_path / "other.toml"
    other.write_text("[poker]\nante = 1\n")
    assert error(run("play", "dare", "--rules-file", str(other), "--no-log")) == (
        f"rules file {other}: [poker] is not a game (games: {', '.join(games.names())})")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text("[dare]\nyaku = 3\n")
    assert "house rule yaku=3 is not allowed" in error(
        run("deal", "dare", "--rules-file", str(wrong)))
    other_game = tmp_path / "other-game.toml"
    other_game.write_text("[dare]\nante = 2\n[yatchaba]\nbogus = 1\n")
    assert error(run("deal", "dare", "--rules-file", str(other_game))) == (
        f"rules file {other_game}, [yatchaba]: unknown house rule 'bogus' for yatchaba "
        "(known: amounts, pass_limit, games, chips, max_laps)")


def test_command_line_syntax_errors_exit_2_without_traceback() -> None:
    for args in (["play", "dare", "--players", "many"], ["play", "dare", "--bogus"],
                 ["replay"], ["frobnicate"], ["replay", "x.kbl", "--at", "five"]):
        res = run(*args)
        assert res.exit_code == 2, args
        assert res.stdout == ""
        assert "Usage: kabucli" in res.stderr


# -- the log file ------------------------------------------------------------------------

def test_log_that_already_exists_is_refused_and_left_untouched(tmp_path: Path) -> None:
    log = tmp_path / "taken.kbl"
    log.write_bytes(b"precious")
    res = run("play", "dare", "-s", "1", "-b", "all=best", "--log", str(log))
    assert error(res) == f"{log} already exists; choose another --log name"
    assert log.read_bytes() == b"precious"


def test_log_in_a_missing_folder_is_refused_as_a_file_that_cannot_be_written(
        tmp_path: Path) -> None:
    """Exit code 2, as README says of a file that cannot be written (and as 'log convert' to
    the same place): it was 1, a refusal of what was given."""
    log = tmp_path / "nowhere" / "g.kbl"
    res = run("play", "dare", "-s", "1", "-b", "all=best", "--log", str(log))
    assert error(res, 2) == f"cannot create {log}: No such file or directory"
    assert not log.parent.exists()


# -- scripts -----------------------------------------------------------------------------

def scripted(tmp_path: Path, text: str) -> tuple[Any, Path, Path]:
    script = tmp_path / "moves.txt"
    script.write_text(text)
    log = tmp_path / "g.kbl"
    return run(*HUMAN_GAME, "--script", str(script), "--log", str(log)), script, log


def assert_stops_at(tmp_path: Path, text: str, number: int, why: str) -> None:
    """The script stops at line ``number`` saying ``why``; the log keeps the good events."""
    res, script, log = scripted(tmp_path, text)
    line = error(res)
    bad = text.splitlines()[number - 1].split("#")[0].strip()
    assert line.startswith(f"{script}:{number}: {bad!r}: {why}"), line
    assert line.endswith(f"; log kept: {log} ({events_in(log)} events); "
                         f"go on with: kabucli resume {shlex.quote(str(log))}")
    audits_clean(log)
    data = read_log(log, games.event_types)
    match, _ = walk(games.get("dare"), data.header, data.events)
    assert match.pending.seats == (1,)  # the good moves before it were played


def test_script_typo_stops_at_its_line(tmp_path: Path) -> None:
    assert_stops_at(tmp_path, "# round 1\npass\n\n1-7-9 5-6-six\n", 4,
                    "'six' is not a card")


def test_script_unknown_word_stops_at_its_line(tmp_path: Path) -> None:
    assert_stops_at(tmp_path, "pass\nlay down everything\n", 2,
                    "'down' is not a card")


def test_script_illegal_move_stops_at_its_line(tmp_path: Path) -> None:
    assert_stops_at(tmp_path, "pass\n2-3-4  # wrong sum\n", 2,
                    "set 2-3-4 adds up to 9, ones digit 9, not the reference 7")


def test_script_move_not_in_hand_stops_at_its_line(tmp_path: Path) -> None:
    assert_stops_at(tmp_path, "10-10-7\n", 1, "p1's hand 1-1-2-5-6-6-7-8-9 does not hold "
                                              "7-10-10")


def test_script_move_for_a_bot_seat_stops_at_its_line(tmp_path: Path) -> None:
    assert_stops_at(tmp_path, "pass\np3 pass\n", 2, "p3 random is a bot seat; it plays by itself")


@pytest.mark.parametrize("kind", ["missing", "folder", "binary", "utf-16"])
def test_unreadable_script_is_refused_before_a_log_is_made(tmp_path: Path, kind: str) -> None:
    """A script that cannot be read says why (a byte that is not UTF-8, counted from 1;
    UTF-16, as Windows Notepad's "Unicode" saves a file, said so: both were 'is not text')."""
    script = tmp_path / "moves.txt"
    if kind == "folder":
        script.mkdir()
    elif kind == "binary":
        script.write_bytes(b"pass\n\x00pass\x80\n")
    elif kind == "utf-16":
        script.write_bytes("pass\npass\n".encode("utf-16"))
    log = tmp_path / "g.kbl"
    why = {"missing": f"cannot read script {script}: No such file or directory",
           "folder": f"cannot read script {script}: Is a directory",
           "binary": f"script {script} is not UTF-8 text (byte 11)",
           "utf-16": f"script {script} starts with UTF-16's byte order mark (as some Windows "
                     "editors save text): save it as UTF-8"}[kind]
    assert error(run(*HUMAN_GAME, "--script", str(script), "--log", str(log)), 2) == why
    assert not log.exists()


def test_a_utf16_script_on_standard_input_is_refused_saying_so(tmp_path: Path) -> None:
    """Piped in a kabucli process of its own (standard input's bytes that are not UTF-8 are
    kept as such, then read as moves nobody typed: '\\udcff\\udcfep\\x00...' is not a card)."""
    import subprocess
    import sys

    log = tmp_path / "g.kbl"
    res = subprocess.run([sys.executable, "-m", "kabucli", *HUMAN_GAME, "--script", "-",
                          "--log", str(log)], input="pass\npass\n".encode("utf-16"),
                         capture_output=True, timeout=120)
    assert res.returncode == 2, res.stderr
    assert res.stderr.decode().strip() == ("error: script - starts with UTF-16's byte order "
                                           "mark (as some Windows editors save text): save it "
                                           "as UTF-8")
    assert not log.exists()


def test_a_shift_jis_script_on_standard_input_is_refused_as_a_file_is(tmp_path: Path) -> None:
    """A script saved in Shift-JIS (CP932, as Japanese Windows saves text) piped in is not
    UTF-8, said so as for the same file by its name; it was read as moves with its bytes
    escaped: "'\\udc8eR\\udc93c' is not a Dare move" at its line."""
    import subprocess
    import sys

    log = tmp_path / "g.kbl"
    res = subprocess.run([sys.executable, "-m", "kabucli", *HUMAN_GAME, "--script", "-",
                          "--log", str(log)], input="# 山田\r\n山田 pass\r\n".encode("cp932"),
                         capture_output=True, timeout=120)
    assert res.returncode == 2, res.stderr
    assert res.stderr.decode().strip() == "error: script - is not UTF-8 text"
    assert not log.exists()


# -- logs given to replay, audit, resume and log convert ---------------------------------

@pytest.fixture(scope="module")
def good_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An unfinished seeded game (p1 quit at the first prompt) as JSON Lines."""
    path = tmp_path_factory.mktemp("bad") / "good.jsonl"
    res = run(*HUMAN_GAME, "--log", str(path), input="quit\n")
    assert res.exit_code == 0
    return path


def edited(good: Path, dst: Path, old: str, new: str) -> Path:
    text = good.read_text()
    assert old in text
    dst.write_text(text.replace(old, new, 1))
    return dst


def test_truncated_log_replay_shows_the_good_part_then_exits_2(good_log: Path,
                                                               tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(good_log.read_bytes()[:-2])
    n = events_in(good_log)
    res = run("replay", str(cut))
    assert error(res, 2) == (f"{cut}: event {n}: truncated: the last line has no end "
                             f"(shown up to event {n - 1}); its last record is cut short, as "
                             f"a crash while writing leaves it: kabucli resume {cut} sets that "
                             "record aside and goes on")
    assert f"{n - 1:>4} " in res.stdout


def test_truncated_log_audit_exits_2(good_log: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.kbl"
    assert run("log", "convert", str(good_log), str(cut)).exit_code == 0
    whole = cut.read_bytes()
    cut.write_bytes(whole[:-3])
    # format 2: the last record is a block of inputs (a timed log's last input alone); the
    # error names the first event it holds, one after those the engine derives from the
    # records before it
    last = 8
    while last + 8 + int.from_bytes(whole[last:last + 4], "big") < len(whole):
        last += 8 + int.from_bytes(whole[last:last + 4], "big")
    before = tmp_path / "before.kbl"
    before.write_bytes(whole[:last])
    n = events_in(before) + 1
    said = error(run("audit", str(cut)), 2, "unreadable: ")
    assert said.startswith(f"{cut}: event {n}: truncated: ")
    # a torn tail, as a crash while writing leaves it: said so, with how to go on
    assert said.endswith(f"; its last record is cut short, as a crash while writing leaves "
                         f"it: kabucli resume {cut} sets that record aside and goes on"), said
    assert error(run("log", "convert", str(cut), str(tmp_path / "x.jsonl")), 2).startswith(
        f"{cut}: event {n}: truncated: ")
    damaged = bytearray(whole)
    damaged[-5] ^= 0xFF  # damage, not a tear (the last record whole, its checksum wrong)
    cut.write_bytes(damaged)
    said = error(run("audit", str(cut)), 2, "unreadable: ")
    assert "corrupted" in said and "kabucli resume" not in said, said


@pytest.mark.parametrize("command", ["replay", "audit", "resume", "convert"])
def test_log_of_an_unknown_game_is_unreadable(good_log: Path, tmp_path: Path,
                                              command: str) -> None:
    log = edited(good_log, tmp_path / "poker.jsonl", '"game":"dare"', '"game":"poker"')
    before = log.read_bytes()
    line = error(*by_command(command, log, tmp_path))
    assert line == f"{log}: header: unknown game 'poker' (games: {', '.join(games.names())})"
    assert log.read_bytes() == before


@pytest.mark.parametrize("command", ["replay", "audit", "resume"])
def test_log_with_an_unknown_house_rule_is_refused(good_log: Path, tmp_path: Path,
                                                   command: str) -> None:
    log = edited(good_log, tmp_path / "hr.jsonl", '"rules":{', '"rules":{"jokers":2,')
    before = log.read_bytes()
    line = error(*by_command(command, log, tmp_path))
    assert line == (f"{log}: header: unknown house rule 'jokers' for dare "
                    "(known: ante, yaku, tie, rounds, chips)")
    assert log.read_bytes() == before


@pytest.mark.parametrize("command", ["replay", "audit", "resume", "convert"])
@pytest.mark.parametrize(("kind", "why"), [
    ("empty", "empty file, not a kabucli log"),
    ("folder", "is a directory, not a log"),
    ("missing", "no such file"),
    ("text", "not a kabucli log (unknown format)"),
])
def test_unreadable_log_is_one_line_exit_2(tmp_path: Path, command: str, kind: str,
                                           why: str) -> None:
    log = tmp_path / "g.kbl"
    if kind == "empty":
        log.write_bytes(b"")
    elif kind == "folder":
        log.mkdir()
    elif kind == "text":
        log.write_text("hello\n")
    assert error(*by_command(command, log, tmp_path)) == f"{log}: {why}"
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("command", ["replay", "audit", "resume", "convert"])
@pytest.mark.parametrize(("packer", "why"), [
    ("bom", "it starts with a UTF-8 byte-order mark, which kabucli never writes (an editor "
            "may have added it); a JSON Lines log starts with '{'"),
    ("gzip", "it is gzip-compressed (gunzip); unpack it first"),
    ("bz2", "it is bzip2-compressed (bunzip2); unpack it first"),
    ("lzma", "it is xz-compressed (unxz); unpack it first"),
    ("zip", "it is a zip archive (unzip); unpack it first"),
    ("zstd", "it is zstd-compressed (unzstd); unpack it first"),
])
def test_a_log_an_editor_marked_or_an_archiver_packed_is_refused_saying_so(
        good_log: Path, tmp_path: Path, command: str, packer: str, why: str) -> None:
    """A JSON Lines log saved by an editor that puts a byte-order mark first, or a log
    compressed for sending, is refused with what it is and what to do, not as a file of
    unknown format; the file is left as it was."""
    import bz2
    import gzip
    import io
    import lzma
    import zipfile

    data = good_log.read_bytes()
    if packer == "bom":
        packed = b"\xef\xbb\xbf" + data
    elif packer == "zstd":  # (no zstd in Python 3.11's library: its frame's magic number)
        packed = b"\x28\xb5\x2f\xfd" + data
    elif packer == "zip":
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr("good.jsonl", data)
        packed = buf.getvalue()
    else:
        packed = {"gzip": gzip, "bz2": bz2, "lzma": lzma}[packer].compress(data)
    log = tmp_path / "g.jsonl"
    log.write_bytes(packed)
    line = error(*by_command(command, log, tmp_path))
    assert line == f"{log}: not a kabucli log as it stands: {why}"
    assert log.read_bytes() == packed
    assert not (tmp_path / "out.jsonl").exists()


def by_command(command: str, log: Path, tmp_path: Path) -> tuple[Any, int, str]:
    """Run ``command`` on ``log``: its result, the exit code and prefix an unreadable log gets."""
    if command == "audit":
        return run("audit", str(log)), 2, "unreadable: "
    if command == "convert":
        return run("log", "convert", str(log), str(tmp_path / "out.jsonl")), 2, "error: "
    return run(command, str(log)), 2, "error: "


def test_rule_breaking_log_cannot_be_resumed(good_log: Path, tmp_path: Path) -> None:
    log = edited(good_log, tmp_path / "bad.jsonl", '{"e":"lay","seat":3,',
                 '{"e":"lay","seat":1,')
    before = log.read_bytes()
    line = error(run("resume", str(log)))
    assert line.startswith(f"{log}: event 6: p1 'p1 ")
    assert line.endswith("(cannot resume a log that breaks a rule)")
    assert "it is not p1's turn" in line
    assert log.read_bytes() == before
    replay = run("replay", str(log))
    assert error(replay).startswith(f"{log}: event 6: p1 ")


@pytest.mark.parametrize(("args", "why"), [
    (("--step", "--json"), "--step pages through the game for a person: it takes no --json"),
    (("--step", "--at", "3"), "--step pages through the whole game: it takes no --at"),
    (("--html", "p.html", "--json"), "--html writes the game as a page: it takes no --json"),
    (("--html", "p.html", "--step"), "--html writes the game as a page: it takes no --step"),
])
def test_replay_options_that_ask_for_two_outputs_are_one_error_line(
        args: tuple[str, ...], why: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # each was obeyed in part before: --html won over --json (a "wrote" line on stdout, not
    # JSON), --json over --step, --at over --step, without a word
    log = Path(__file__).resolve().parent.parent / "replays" / "dare" / "3p-tie-order.jsonl"
    monkeypatch.chdir(tmp_path)
    res = run("replay", str(log), *args)
    assert res.exit_code == 1
    assert why in error(res)
    assert list(tmp_path.iterdir()) == []  # no page written
    if "--json" in args:
        assert json.loads(res.stdout)["error"].startswith(why)


@pytest.mark.parametrize("args", [
    ("rules", "nogame"),
    ("deal", "dare", "--players", "9"),
    ("play", "dare", "--seed", "x", "--bot", "all=best"),
    ("resume", "none.kbl"),
    ("sim", "dare", "-b", "best"),
    ("tournament", "dare", "-b", "best"),
    ("solve", "kabu-tsukuri", "1", "2"),
    ("bot", "check", "dare", ""),
], ids=lambda a: " ".join(a[:2]))
def test_json_gets_one_json_document_when_a_command_fails_at_once(
        args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # as replay and audit do: stdout was empty before, which no JSON reader takes
    monkeypatch.chdir(tmp_path)
    res = run(*args, "--json")
    assert res.exit_code in (1, 2)
    line = error(res, res.exit_code)
    assert json.loads(res.stdout) == {"error": line}


@pytest.mark.parametrize("args", [
    ("sim", "dare", "-b", "best", "-m", "0", "--json"),
    ("replay", "g.kbl", "--bogus", "--json"),
    ("tournament", "dare", "--json", "--seats", "many"),
], ids=["bad value", "unknown option", "not a number"])
def test_json_gets_one_json_document_for_a_mistyped_option_too(args: tuple[str, ...]) -> None:
    """A command-line syntax error (click's own: a value out of range, an option the command
    has not) printed its line on stderr and nothing on stdout, where --json promises one JSON
    document (probe L). It is read by kabucli's own entry point, so a process is run."""
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "kabucli", *args], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    assert res.returncode == 2
    line = res.stderr.strip().splitlines()[-1]
    assert line.startswith("error: ")
    assert json.loads(res.stdout) == {"error": line.removeprefix("error: ")}
    plain = subprocess.run([sys.executable, "-m", "kabucli", *(a for a in args if a != "--json")],
                           capture_output=True, text=True, timeout=60)
    assert plain.returncode == 2 and plain.stdout == ""  # without --json: no JSON


@pytest.mark.parametrize("args", [("log", "convert", "g.kbl", "out"),
                                  ("log", "convert", "g.kbl", "out", "--force"),
                                  ("log", "repair", "g.kbl", "out"),
                                  ("replay", "g.kbl", "--html", "out"),
                                  ("play", "dare", "--bot", "all=best", "--log", "out")])
def test_a_folder_where_a_file_is_to_be_written_is_named_so(
        args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # convert and repair said "out already exists; add --force to overwrite it", and with
    # --force "cannot write out: it is a folder"; play --log "out already exists"
    monkeypatch.chdir(tmp_path)
    log = Path(__file__).resolve().parent.parent / "replays" / "dare" / "3p-showdown-outright.kbl"
    (tmp_path / "g.kbl").write_bytes(log.read_bytes())
    (tmp_path / "out").mkdir()
    assert error(run(*args)) == "out is a folder: name a file"
    assert list((tmp_path / "out").iterdir()) == []


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1", "86401", "1e400", "-0", "1e-400",
                                   "-inf", "'inf'", "five", "", "0.0001"])
@pytest.mark.parametrize("command", [("sim", "dare", "--bot", "random", "--bot", "random"),
                                     ("tournament", "dare", "--bot", "random", "--bot", "best"),
                                     ("bot", "check", "dare", "cat"),
                                     ("play", "dare", "--bot", "all=random", "--no-log"),
                                     ("resume", "g.kbl")])
def test_a_timeout_that_is_no_number_of_seconds_says_so(value: str,
                                                        command: tuple[str, ...]) -> None:
    """'nan' passed the range check and was said to be more than 86400; '1e400' was quoted
    as parsed ('inf is not a number of seconds'), '1e-400' as '0', 'five' as pydantic's
    'Input should be a valid number': the message quotes what was typed. (play and resume
    had no --timeout at all.)"""
    res = CliRunner().invoke(app, [*command, "--timeout", value],
                             env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 2
    assert (f"Invalid value for '--timeout': '{value}' is not a number of seconds from "
            "0.001 to 86400") in res.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1", "86401", "1e400", "-0", "1e-400",
                                   "-inf", "'inf'", "five", "0.0001", "0.0009"])
def test_a_bot_timeout_setting_refuses_what_timeout_refuses(value: str) -> None:
    """KABUCLI_BOT_TIMEOUT took any number above 0 (0.0001 too), which --timeout refuses: the
    two take the same numbers, and the setting's refusal names the variable."""
    res = CliRunner().invoke(app, ["play", "dare", "--bot", "all=cmd:cat", "--no-log"],
                             env={"NO_COLOR": "1", "COLUMNS": "300",
                                  "KABUCLI_BOT_TIMEOUT": value})
    assert res.exit_code == 1, res.output
    assert res.stderr.strip() == (f"error: KABUCLI_BOT_TIMEOUT='{value}': not a number of "
                                  "seconds from 0.001 to 86400"), res.stderr


@pytest.mark.parametrize(("value", "seconds"), [("  5 ", 5.0), ("0.001", 0.001),
                                               ("86400", 86400.0), ("1e1", 10.0), ("", 10.0),
                                               ("  ", 10.0)])
def test_a_bot_timeout_setting_in_range_is_taken(value: str, seconds: float,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from kabucli.bots.external import bot_timeout

    monkeypatch.setenv("KABUCLI_BOT_TIMEOUT", value)  # ('' or blank: not set, the default)
    assert bot_timeout() == seconds


def test_a_very_long_bot_timeout_setting_is_refused_in_one_short_line() -> None:
    res = CliRunner().invoke(app, ["play", "dare", "--bot", "all=cmd:cat", "--no-log"],
                             env={"NO_COLOR": "1", "COLUMNS": "300",
                                  "KABUCLI_BOT_TIMEOUT": "9" * 100_000})
    assert res.exit_code == 1
    assert res.stderr.startswith("error: KABUCLI_BOT_TIMEOUT='9999")
    assert len(res.stderr) < 300, len(res.stderr)


def test_a_very_long_timeout_is_refused_in_one_short_line() -> None:
    """--timeout's refusal quoted the value whole: a word of 100,000 nines made a line of
    100,000 characters, where every other option's refusal stays short."""
    res = CliRunner().invoke(app, ["sim", "dare", "--bot", "random", "--bot", "random",
                                   "--timeout", "9" * 100_000],
                             env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 2
    assert "Invalid value for '--timeout': '9999" in res.stderr
    assert len(res.stderr) < 2_000, len(res.stderr)  # (typer's box: the program's is a line)


@pytest.mark.parametrize("value", ["  5 ", "0.001", "86400", "1e1"])
def test_a_timeout_in_range_is_taken_spaces_around_it_too(value: str) -> None:
    res = CliRunner().invoke(app, ["sim", "dare", "--bot", "random", "--bot", "random",
                                   "--matches", "1", "--timeout", value, "--json"],
                             env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 0, res.stderr


def test_a_commitment_not_in_hex_says_where_it_comes_from(tmp_path: Path) -> None:
    """The seed's commitment is printed by kabucli play --commit, not by audit."""
    log = Path(__file__).resolve().parent.parent / "replays" / "dare" / "3p-tie-order.jsonl"
    for option, printed in (("--commit", "kabucli play --commit"), ("--digest", "audit")):
        res = CliRunner().invoke(app, ["audit", str(log), option, "xyz"],
                                 env={"NO_COLOR": "1", "COLUMNS": "300"})
        assert res.exit_code == 2
        assert res.stderr.strip() == (f"error: {option} xyz: give 16 to 64 hex digits (of the "
                                      f"64 {printed} prints)")


@pytest.mark.parametrize("args", [
    ("play", "dare", "--bot", "p1=cmd:'unclosed", "--bot", "p2=random", "--no-log"),
    ("sim", "dare", "--bot", "cmd:'unclosed", "--bot", "random", "--matches", "1"),
    ("tournament", "dare", "--bot", "cmd:'unclosed", "--bot", "random", "--bot", "best")])
def test_a_bot_command_that_cannot_be_split_into_words_is_refused_at_the_start(
        args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """play dealt and played until the seat's turn, then stopped on "cannot start bot
    ''unclosed': No closing quotation"; sim counted each match forfeited by a failing bot:
    the command cannot be run at all, which is said before anything is played."""
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line.endswith("cmd:'unclosed': the command cannot be split into words: the ' at "
                         "character 1 of the command is never closed (quote as in a shell)"), line
    assert res.stdout == ""
    assert list(tmp_path.iterdir()) == []


GAME_COMMANDS = [("rules", "{}"), ("deal", "{}", "--seed", "1"),
                 ("play", "{}", "--bot", "all=random", "--no-log", "--seed", "1"),
                 ("sim", "{}", "--bot", "random", "--bot", "random", "--matches", "1"),
                 ("tournament", "{}", "--bot", "random", "--bot", "random", "--deals", "1")]


@pytest.mark.parametrize("command", GAME_COMMANDS)
@pytest.mark.parametrize(("typed", "game"), [
    ("dare ", "dare"), (" Dare", "dare"), ("kazu_tori", "kazu-tori"), ("Uno Dare", "uno-dare"),
    ("KABU_TSUKURI", "kabu-tsukuri"), ("kabutsukuri", "kabu-tsukuri"),
    ("unodare", "uno-dare")])
def test_a_game_name_with_a_stray_space_underscore_or_capital_is_taken_everywhere(
        command: tuple[str, ...], typed: str, game: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """'rules "dare "' and 'rules kazu_tori' were refused as unknown games, with no word of
    the game meant, while 'rules DARE' and 'rules kazutori' were taken: a game's name is
    read by one function (games.canonical) the same way in every command, and these are
    the game."""
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, [w.format(typed) for w in command],
                        env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 0, res.stderr
    assert "unknown game" not in res.output


def test_solve_takes_a_game_name_as_every_command_does() -> None:
    hand = ["1", "1", "3", "4", "5", "7", "9", "10", "10", "12"]
    for typed in ("kabu_tsukuri", "Kabu Tsukuri ", "KABU-TSUKURI"):
        res = runner.invoke(app, ["solve", typed, *hand, "--json"])
        assert res.exit_code == 0, res.stderr
        assert json.loads(res.stdout)["game"] == "kabu-tsukuri"


@pytest.mark.parametrize("command", [*GAME_COMMANDS, ("solve", "{}", "1", "2")])
@pytest.mark.parametrize(("typed", "meant"), [
    ("dar", "dare"), ("kazu_tor", "kazu-tori"), ("uno_dar ", "uno-dare"),
    ("yatcha", "yatchaba"), ("tsukuri", "kabu-tsukuri")])
def test_an_unknown_game_near_a_known_one_is_refused_with_a_suggestion_everywhere(
        command: tuple[str, ...], typed: str, meant: str) -> None:
    res = runner.invoke(app, [w.format(typed) for w in command],
                        env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line == (f"error: unknown game '{typed}': did you mean '{meant}'? (games: "
                    f"{', '.join(games.names())})"), line


@pytest.mark.parametrize("command", [*GAME_COMMANDS, ("solve", "{}", "1", "2"),
                                     ("bot", "check", "{}", "python3 bot.py")])
def test_a_very_long_or_unprintable_game_name_is_refused_in_one_short_line(
        command: tuple[str, ...]) -> None:
    """games.canonical quoted the name it refused whole: 'rules xxx...' with a name 128 KB
    long (as long as a shell passes one word) was refused in a line 128 KB long, and a log
    whose header named a game megabytes long in one megabytes long. The name is quoted as
    every refusal quotes a typed word (safetext.quoted: cut, made safe to show)."""
    typed = "kazu-tor" * 16_000 + "\x1b[2J"
    res = runner.invoke(app, [w.format(typed) for w in command],
                        env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line.startswith("error: unknown game 'kazu-torkazu-tor") and len(line) < 300, line
    assert "\x1b" not in line


def test_a_log_whose_header_names_a_very_long_game_is_refused_in_one_short_line(
        tmp_path: Path) -> None:
    lines = (REPLAYS / "dare" / "3p-tie-order.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["game"] = "x" * 2_000_000
    log = tmp_path / "long.jsonl"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    for command in ("replay", "audit"):
        res = runner.invoke(app, [command, str(log)], env={"NO_COLOR": "1", "COLUMNS": "300"})
        assert res.exit_code != 0
        assert "unknown game 'xxxx" in res.output and len(res.output) < 1_000, len(res.output)


@pytest.mark.parametrize("command", ['""', "''", '"" mybot.py'])
@pytest.mark.parametrize("args", [
    ("play", "dare", "--bot", "p1=cmd:{}", "--bot", "p2=random", "--no-log"),
    ("sim", "dare", "--bot", "cmd:{}", "--bot", "random", "--matches", "1"),
    ("tournament", "dare", "--bot", "cmd:{}", "--bot", "random", "--bot", "best")])
def test_a_bot_command_whose_program_is_an_empty_word_is_refused_at_the_start(
        args: tuple[str, ...], command: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """'cmd:""' splits into one empty word: it was started all the same, and each match
    forfeited with "cannot start bot '""': [Errno 13] Permission denied: ''". It names no
    program, which is said before anything is played, as a command that cannot be split."""
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, [a.format(command) for a in args],
                          env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line.endswith(f"cmd:{command}': the command names no program: its first word is "
                         "empty (quote as in a shell)"), line
    assert res.stdout == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("typed", ["dare\x1c", "uno\x1fdare", "kazu\x85tori", "dare\u3000",
                                   "\u212aabu-tsukuri", "yatchab\u0430"])
def test_a_game_name_with_an_unusual_space_or_a_look_alike_letter_is_refused(
        typed: str) -> None:
    """games.canonical split a name with str.split(), which takes the separators '\\x1c' to
    '\\x1f', '\\x85' and the ideographic space for spaces, and lowered it with str.lower(),
    which makes the Kelvin sign 'K' a 'k': 'dare\\x1c' was Dare, '\\u212aabu-tsukuri' was
    Kabu-Tsukuri. Only a space, a tab or '_' separates, and a name holding anything but ASCII
    names no game."""
    res = runner.invoke(app, ["rules", typed], env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line.startswith("error: unknown game '"), line
    with pytest.raises(ParseError):
        games.canonical(typed)


@pytest.mark.parametrize("command", ["sim", "tournament"])
def test_an_unknown_backend_is_refused_before_any_match(command: str, tmp_path: Path) -> None:
    """--backend takes local or ray: anything else is one line, exit 1, no match played (not
    a run on the local pool as if it were local)."""
    logs = tmp_path / "logs"
    res = run(command, "dare", "-b", "random", "-b", "random", "-m" if command == "sim" else "-d",
              "1", "--seed", "1", "--rule", "rounds=1", "-j", "1", "--backend", "locl",
              "--logs", str(logs))
    assert error(res) == "--backend locl: choose local or ray"
    assert not logs.exists() or not any(logs.iterdir())


def test_sim_refuses_one_bot_more_than_the_game_seats() -> None:
    most = games.get("dare").max_players
    res = run("sim", "dare", *["-b", "random"] * (most + 1), "-m", "1", "--seed", "1")
    assert error(res) == f"Dare takes 2-{most} players: give one --bot per seat, not {most + 1}"


def test_tournament_refuses_an_unknown_format_before_any_match() -> None:
    res = run("tournament", "dare", "-b", "random", "-b", "random", "-d", "1", "--seed", "1",
              "--format", "swiss")
    assert error(res) == "--format swiss: choose round-robin or gauntlet"


def test_tournament_refuses_an_unknown_bot_before_any_match(tmp_path: Path) -> None:
    """Without its own check, a tournament's unknown bot was found only as a match started:
    a log written, and 'p2 is not a bot of the user's own (cmd: or py:), the only seats that
    forfeit' (probe EM: a mutant dropping the check survived)."""
    logs = tmp_path / "logs"
    res = run("tournament", "dare", "-b", "random", "-b", "nosuch", "-d", "1", "--seed", "1",
              "-j", "1", "--logs", str(logs))
    assert error(res).startswith("unknown bot 'nosuch' for dare (bots: random, best, ")
    assert not logs.exists() or not any(logs.iterdir())


def test_a_mistyped_option_gives_json_only_for_a_json_option_before_the_double_dash(
        tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "NO_COLOR": "1"}
    for args, as_json in ((["--nosuch", "--json"], True), (["--nosuch", "--", "--json"], False)):
        res = subprocess.run([sys.executable, "-m", "kabucli", "audit", *args], cwd=tmp_path,
                             env=env, capture_output=True, text=True, timeout=120)
        assert res.returncode == 2
        assert res.stderr.startswith("error: No such option: --nosuch")
        if as_json:
            assert json.loads(res.stdout)["error"].startswith("No such option: --nosuch")
        else:  # (after --, '--json' is a log's name)
            assert res.stdout == ""


@pytest.mark.parametrize("args", [[], ["log"], ["bot"]])
def test_a_command_line_with_no_command_prints_the_help_and_exits_2(
        tmp_path: Path, args: list[str]) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "NO_COLOR": "1"}
    res = subprocess.run([sys.executable, "-m", "kabucli", *args], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2  # (a usage error: no command given)
    assert "Usage:" in res.stdout and res.stderr == ""
