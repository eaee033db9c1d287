"""Text from a log, a bot or a script never reaches the terminal raw: control characters,
escape sequences and bidi overrides show as escapes, with or without colour."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.errors import BotError
from kabucli.safetext import safe_text

runner = CliRunner()
ESC = "\x1b"
CLEAR = "\x1b[2J"  # clears the screen
TITLE = "\x1b]0;title\x07"  # sets the window title
RLO = "\u202e"  # right-to-left override: text after it reads backwards
EVIL = f"Ann{CLEAR}{TITLE}{RLO}evil"
TERMINAL: dict[str, str | None] = {"FORCE_COLOR": "1", "TERM": "xterm-256color", "NO_COLOR": None}
PLAIN: dict[str, str | None] = {**TERMINAL, "NO_COLOR": "1"}


def run(*args: str, env: dict[str, str | None], input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), env=env, input=input)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output and "internal error" not in res.output
    return res


def assert_clean(output: str, env: dict[str, str | None]) -> None:
    """No escape sequence from the untrusted text; with NO_COLOR, no ESC at all."""
    assert CLEAR not in output and "\x1b]" not in output and RLO not in output
    assert "\x07" not in output
    if env.get("NO_COLOR"):
        assert ESC not in output


# -- the helper ---------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "shown"), [
    (CLEAR, "\\x1b[2J"),
    (TITLE, "\\x1b]0;title\\x07"),
    ("a\x9b31mb", "a\\x9b31mb"),  # C1 control sequence introducer
    ("a\nb\tc\rd\x00", "a\\nb\\tc\\rd\\x00"),
    (f"{RLO}abc\u2066x\u2069", "\\u202eabc\\u2066x\\u2069"),  # bidi overrides and isolates
    ("a\u200bb\ufeff", "a\\u200bb\\ufeff"),  # zero-width space, byte order mark
    ("a\u2028b", "a\\u2028b"),  # line separator
    ("\ud800", "\\ud800"),  # a lone surrogate (could not even be encoded)
])
def test_safe_text_shows_controls_as_escapes(raw: str, shown: str) -> None:
    assert safe_text(raw) == shown
    assert safe_text(shown) == shown  # already safe: unchanged


@pytest.mark.parametrize("text", ["Ann", "山田\u3000太郎", "p1 [bold]x[/]", "Zoë 🎴", "", "a  b"])
def test_safe_text_leaves_printable_text_alone(text: str) -> None:
    assert safe_text(text) == text


def test_safe_text_cuts_long_text_and_says_how_long_it_was() -> None:
    assert safe_text("9" * 5000, 10) == "9999999999… (5000 characters)"
    assert safe_text("short", 10) == "short"


# -- names and notation from a log ----------------------------------------------------------

@pytest.fixture
def evil_log(tmp_path: Path) -> Path:
    """A finished Dare log (JSON Lines) whose seat names hold escape sequences."""
    path = tmp_path / "evil.jsonl"
    res = run("play", "dare", "--seed", "4", "--bot", "all=random", "-r", "rounds=2",
              "--log", str(path), "-q", env=PLAIN)
    assert res.exit_code == 0, res.output
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["seats"][0]["name"] = EVIL
    header["seats"][1]["name"] = f"[/]{CLEAR}"  # markup too: never read as markup
    lines[0] = json.dumps(header)
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("command", ["replay", "audit", "resume"])
def test_a_seat_control_with_escapes_is_refused_and_quoted_safely(evil_log: Path,
                                                                  command: str) -> None:
    lines = evil_log.read_text().splitlines()
    header = json.loads(lines[0])
    header["seats"][2]["control"] = f"bot:{TITLE}"
    evil_log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    res = run(command, str(evil_log), env=PLAIN)
    assert res.exit_code == 2, res.output
    assert "control 'bot:\\x1b]0;title\\x07' is not human or bot:KIND" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert_clean(res.output, PLAIN)


@pytest.mark.parametrize("env", [PLAIN, TERMINAL], ids=["NO_COLOR", "colour"])
@pytest.mark.parametrize("command", [("replay",), ("replay", "--at", "5"), ("audit",)])
def test_a_log_with_escapes_in_names_draws_them_as_text(evil_log: Path, env: dict[str, Any],
                                                        command: tuple[str, ...]) -> None:
    res = run(*command, str(evil_log), env=env)
    assert res.exit_code == 0, res.output
    assert_clean(res.output, env)
    if command[0] == "replay":
        assert "Ann\\x1b[2J\\x1b]0;title\\x07\\u202eevil" in res.output  # shown, not dropped
    if env is TERMINAL:
        assert ESC in res.output  # the colour is still there: the check above can fail


def test_an_event_with_escapes_is_quoted_safely_when_refused(evil_log: Path) -> None:
    lines = evil_log.read_text().splitlines()
    pay = next(i for i, line in enumerate(lines) if '"e":"pay"' in line.replace(" ", ""))
    event = json.loads(lines[pay])
    event["why"] = f"ante{CLEAR}"
    lines[pay] = json.dumps(event)
    evil_log.write_text("\n".join(lines) + "\n")
    for command in ("audit", "replay"):
        res = run(command, str(evil_log), env=PLAIN)
        assert res.exit_code == 1, res.output
        assert "ante\\x1b[2J" in res.stderr and len(res.stderr.strip().splitlines()) == 1
        assert_clean(res.output, PLAIN)


def test_resuming_a_log_with_an_escape_in_a_name_draws_it_safely(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    res = run("play", "dare", "--seed", "7", "--bot", "2=random", "--bot", "3=random",
              "-r", "rounds=1", "--log", str(path), "--script", "-", env=PLAIN, input="")
    assert res.exit_code == 0, res.output
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["seats"][0]["name"] = EVIL
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    res = run("resume", str(path), "--script", "-", env=TERMINAL, input="pass\n")
    assert_clean(res.output, TERMINAL)
    assert "p1 Ann\\x1b[2J" in res.output


@pytest.mark.parametrize("game", games.names())
def test_names_that_look_like_markup_are_drawn_as_typed(game: str) -> None:
    res = run("play", game, "--seed", "2", "--no-log", "-p", "[/]", "-p", "[bold]x", "-p", "c",
              "--bot", "all=random", env=PLAIN)
    assert res.exit_code == 0, res.output
    assert "p1 [/]" in res.output and "p2 [bold]x" in res.output


# -- typed lines and bots -----------------------------------------------------------------

@pytest.mark.parametrize("env", [PLAIN, TERMINAL], ids=["NO_COLOR", "colour"])
def test_a_script_line_with_escapes_is_quoted_safely(env: dict[str, Any]) -> None:
    res = run("play", "dare", "--seed", "7", "--bot", "2=random", "--bot", "3=random",
              "--no-log", "--script", "-", env=env, input=f"sets {CLEAR}{RLO}\n")
    assert res.exit_code == 1
    assert_clean(res.output, env)
    assert "\\x1b[2J\\u202e" in res.stderr


def test_a_game_command_quoting_typed_text_is_drawn_safely() -> None:
    res = run("play", "yatchaba", "--seed", "1", "--bot", "2=random", "--bot", "3=random",
              "--no-log", "--script", "-", env=PLAIN, input=f"odds 1 1 {CLEAR}\n")
    assert_clean(res.output, PLAIN)
    assert "'\\x1b[2J' is not a month" in res.output


ESCAPING_BOT = f"""
import sys
for line in sys.stdin:
    print({f"{CLEAR}{TITLE}{RLO}1-1-1"!r}, flush=True)
"""
RAISING_BOT = f"""
class Loud:
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        raise ValueError({CLEAR!r})
"""


@pytest.mark.parametrize("env", [PLAIN, TERMINAL], ids=["NO_COLOR", "colour"])
@pytest.mark.parametrize("kind", ["cmd", "py"])
def test_a_bot_answer_with_escapes_is_one_safe_line(tmp_path: Path, kind: str,
                                                    env: dict[str, Any]) -> None:
    if kind == "cmd":
        (tmp_path / "bot.py").write_text(ESCAPING_BOT)
        spec = f"cmd:{sys.executable} {tmp_path / 'bot.py'}"
    else:
        (tmp_path / "loud.py").write_text(RAISING_BOT)
        spec = f"py:{tmp_path / 'loud.py'}:Loud"
    res = run("play", "dare", "--seed", "3", "-n", "2", "--bot", f"1={spec}", "--bot", "2=best",
              "--no-log", env=env)
    assert res.exit_code == 1
    assert_clean(res.output, env)
    line, = res.stderr.strip().splitlines()
    assert "\\x1b[2J" in line


def test_bot_errors_are_safe_to_print_from_the_library() -> None:
    assert str(BotError(f"bot p1 answered {CLEAR}")) == "bot p1 answered \\x1b[2J"


def test_input_that_is_not_utf8_at_the_prompt_is_one_line() -> None:
    # the prompt reads with the locale's errors: 'strict' under a UTF-8 locale, as here
    res = runner.invoke(app, ["play", "dare", "--seed", "7", "--bot", "2=random", "--bot",
                              "3=random", "--no-log"], input=b"pass \xed\xa0\x80\n",
                        env=PLAIN)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 2
    assert res.stderr.strip() == "error: standard input is not text (UTF-8)"


def test_a_log_folder_named_like_markup_is_printed_as_typed(tmp_path: Path) -> None:
    folder = tmp_path / "x[/]"
    args = ("sim", "dare", "-b", "random", "-b", "random", "-m", "1", "--seed", "1",
            "--logs", str(folder))
    env: dict[str, str | None] = {"NO_COLOR": "1", "COLUMNS": "1000"}
    run(*args, env=env)
    res = run(*args, env=env)  # the second run reuses the match and says where from
    assert res.exit_code == 0 and f"1 match reused from {folder}" in res.output


# -- a name megabytes long ------------------------------------------------------------------

def _long_named(tmp_path: Path, length: int) -> Path:
    """A recorded Uno Dare log whose seat 1 is named ``length`` As:
    a log may hold a name of any length, up to the 64 MiB a log may be."""
    from kabucli.games import event_types
    from kabucli.log import read_log, write_log

    data = read_log(Path("replays/uno-dare/4p-declined-and-failed-dares.kbl"), event_types)
    seats = [data.header.seats[0].__class__("A" * length, "bot:random"),
             *data.header.seats[1:]]
    path = tmp_path / "long.kbl"
    write_log(path, msgspec_replace(data.header, seats=seats), data.events, "msgpack",
              types=event_types("uno-dare"))
    return path


def msgspec_replace(struct: Any, **changes: Any) -> Any:
    import msgspec

    return msgspec.structs.replace(struct, **changes)


@pytest.mark.parametrize("command", [("replay",), ("replay", "--at", "40"), ("replay", "--json"),
                                     ("replay", "--step"), ("audit",)])
def test_a_seat_name_megabytes_long_is_shown_cut_and_quickly(tmp_path: Path,
                                                             command: tuple[str, ...]) -> None:
    """Each table and event line names the seat: a name of 2,000,000 characters was printed
    whole at each one (tens of megabytes, a minute and more for a log of 3 MB; the page of
    --html hundreds of megabytes). It is shown cut, as the header's other long texts are."""
    import time

    path = _long_named(tmp_path, 2_000_000)
    start = time.monotonic()
    res = run(*command, str(path), env=PLAIN, input="q\n")
    assert res.exit_code == 0, res.output[-2000:]
    if "--json" in command:  # the header as it is, once: the data, not a display
        assert len(res.output) < 4_000_000
    else:  # the name is never printed whole, not even once
        assert len(res.output) < 2_000_000
    if command[0] == "replay" and "--json" not in command:
        assert "AAAAAAAAAA…" in res.output and "(2000000" in res.output
    assert time.monotonic() - start < 30


def test_the_page_of_a_seat_name_megabytes_long_is_small(tmp_path: Path) -> None:
    path = _long_named(tmp_path, 2_000_000)
    page = tmp_path / "page.html"
    res = run("replay", str(path), "--html", str(page), env=PLAIN)
    assert res.exit_code == 0, res.output[-2000:]
    html = page.read_text()
    assert "AAAAAAAAAA… (2000000 characters)" in html
    assert len(html) < 2_000_000


@pytest.mark.parametrize("command", [("audit",), ("replay",), ("log", "convert")])
def test_an_event_of_a_hundred_thousand_cards_is_quoted_in_part(tmp_path: Path,
                                                               command: tuple[str, ...]) -> None:
    # the line of the event that breaks a rule quoted the whole event: a set of 25 million
    # cards in a 50 MB log made audit's "one line" 50 MB long (and replay's last line too)
    root = Path(__file__).resolve().parent.parent
    header = (root / "replays" / "dare" / "3p-tie-order.jsonl").read_bytes().split(b"\n")[0]
    log = tmp_path / "huge.jsonl"
    cards = ",".join(["1"] * 100_000)
    log.write_bytes(header + b'\n{"e":"lay","seat":1,"sets":[[' + cards.encode() + b"]]}\n")
    args = [*command, str(log)] + ([str(tmp_path / "out.kbl")] if command[0] == "log" else [])
    res = runner.invoke(app, args, env={"NO_COLOR": "1", "COLUMNS": "100"})
    assert res.exit_code == 1, res.output
    assert "breaks a rule" in res.output or "waiting for" in res.output, res.output[-500:]
    assert len(res.output) < 5_000, len(res.output)
    assert "… (200007 characters)" in " ".join(res.output.split())  # (replay wraps it)


def test_resume_names_a_users_bot_of_a_control_megabytes_long_cut_as_audit_does(
        tmp_path: Path) -> None:
    """resume refuses a log naming a user's bot not named again, and names that bot: a
    control of 300,000 characters was printed whole in that one line (audit's line cuts it
    at NAME_SHOWN)."""
    from kabucli.safetext import NAME_SHOWN, quoted

    log = tmp_path / "own.jsonl"
    res = run("play", "dare", "--players", "2", "--bot", "p2=cmd:false", "--seed", "1",
              "--log", str(log), env=PLAIN, input="quit\n")
    assert log.exists(), res.output
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    control = "cmd:" + "x" * 300_000
    head["seats"][1]["control"] = "bot:" + control
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    shown = f"p2 {quoted(control, NAME_SHOWN)}"
    audit = run("audit", str(log), env=PLAIN)
    assert shown in audit.output
    res = run("resume", str(log), env=PLAIN)
    assert res.exit_code == 1
    assert len(res.output) < 1000 and shown in res.output, res.output[:500]


def test_resume_names_an_unknown_built_in_bot_megabytes_long_cut(tmp_path: Path) -> None:
    """A log whose bot seat names an unknown built-in bot of 300,000 characters: resume's
    refusal (and its refusal of --bot for that seat) printed the name whole."""
    log = tmp_path / "unknown.jsonl"
    run("play", "dare", "--players", "2", "--bot", "p2=random", "--seed", "1", "--log",
        str(log), env=PLAIN, input="quit\n")
    lines = log.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["seats"][1]["control"] = "bot:" + "y" * 300_000
    log.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n", encoding="utf-8")
    for more in ((), ("--bot", "p2=random")):
        res = run("resume", str(log), *more, env=PLAIN)
        assert res.exit_code == 1
        assert len(res.output) < 1000 and "yyyy… (300000 characters)" in res.output, (
            res.output[:300])
