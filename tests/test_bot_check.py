"""`kabucli bot check GAME COMMAND`: one line per check, exit 0 only when all pass."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kabucli.cli import app

runner = CliRunner()

GOOD = """
import json, sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        print(message["legal"][-1], flush=True)
"""
BAD = {
    # (program, the check that fails, words of its line)
    "no-such-program": (None, "starts", "cannot start bot"),
    "dies-at-once": ("import sys\nsys.exit(2)\n", "starts", "exited (code 2)"),
    "slow": ("import json, sys, time\nfor line in sys.stdin:\n    m = json.loads(line)\n"
             "    if m['type'] == 'turn':\n        time.sleep(2)\n"
             "        print(m['legal'][0], flush=True)\n",
             "answers every turn in time", "did not answer within 0.5 s"),
    "garbage": ("import sys\nfor line in sys.stdin:\n    print('hello', flush=True)\n",
                "answers legally", "answered 'hello'"),
    "crashes-at-end": ("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                       "    if m['type'] == 'end':\n        sys.exit(5)\n"
                       "    print(m['legal'][-1], flush=True)\n",
                       "handles the end message", "exited with code 5 on the end message"),
    "never-exits": ("import json, sys, time\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                    "    if m['type'] == 'turn':\n        print(m['legal'][-1], flush=True)\n"
                    "time.sleep(30)\n",
                    "exits cleanly",
                    "still running 2 s after its input closed (exit when reading the input finds "
                    "its end)"),
    "exit-code": ("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                  "    if m['type'] == 'turn':\n        print(m['legal'][-1], flush=True)\n"
                  "sys.exit(1)\n", "exits cleanly", "exit code 1"),
}


def check(tmp_path: Path, script: str | None, *args: str) -> tuple[int, str]:
    if script is None:
        command = "/no/such/bot-program"
    else:
        (tmp_path / "bot.py").write_text(script)
        command = f"{sys.executable} {tmp_path / 'bot.py'}"
    res = runner.invoke(app, ["bot", "check", "dare", command, "--rule", "rounds=1",
                              "--timeout", "0.5", *args])
    assert "Traceback" not in res.output and "internal error" not in res.output
    return res.exit_code, res.output


def test_a_good_bot_passes_every_check_one_line_each(tmp_path: Path) -> None:
    code, out = check(tmp_path, GOOD)
    assert code == 0, out
    lines = out.splitlines()
    assert len(lines) == 5 and all(line.startswith("ok") for line in lines)
    assert "2 of 2 matches, seats p1-p2 against random" in lines[0]
    code, out = check(tmp_path, GOOD, "--json", "--players", "3", "--games", "2")
    data = json.loads(out)
    assert code == 0 and data["ok"] and len(data["checks"]) == 5
    assert "6 of 6 matches" in data["checks"][0]["detail"]


@pytest.mark.parametrize("how", sorted(BAD))
def test_a_bad_bot_fails_the_check_it_breaks(tmp_path: Path, how: str) -> None:
    script, name, words = BAD[how]
    code, out = check(tmp_path, script, "--json")
    assert code == 1, out
    data = json.loads(out)
    failed = {c["check"]: c for c in data["checks"] if not c["ok"]}
    assert name in failed, data
    assert any(words in f for f in failed[name]["failures"]), failed[name]


@pytest.mark.parametrize("how", ["no-such-program", "dies-at-once"])
def test_a_bot_that_never_answers_passes_no_check_about_its_answers(tmp_path: Path,
                                                                    how: str) -> None:
    # with no answer at all there is nothing to call in time or legal: those checks say so
    # and fail, rather than read "ok" over zero answers
    code, out = check(tmp_path, BAD[how][0])
    assert code == 1
    lines = {line[5:].split("  ")[0].strip(): line for line in out.splitlines()}
    for name in ("answers every turn in time", "answers legally"):
        assert lines[name].startswith("FAIL") and "not seen: no answer was given" in lines[name]


def test_a_bot_that_never_answers_is_failed_for_that_alone_not_with_a_filler(
        tmp_path: Path) -> None:
    """A bot that reads and never answers: "answers every turn in time" listed its two
    timeouts and then "not seen: no answer was given" as a third failure ("(and 2 more)" of
    two matches), and its detail read "0 answers, the slowest 0 ms"."""
    silent = "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n"
    code, out = check(tmp_path, silent, "--json")
    assert code == 1, out
    timely = {c["check"]: c for c in json.loads(out)["checks"]}["answers every turn in time"]
    assert len(timely["failures"]) == 2, timely
    assert all("did not answer within 0.5 s" in f for f in timely["failures"]), timely
    assert "slowest" not in timely["detail"], timely
    code, out = check(tmp_path, silent)
    line = next(x for x in out.splitlines() if "answers every turn in time" in x)
    assert line.startswith("FAIL") and line.endswith("(and 1 more)"), line


def test_a_bot_answering_garbage_at_once_answered_in_time(tmp_path: Path) -> None:
    # "answers every turn in time" said "no answer was given" while "answers legally" quoted
    # the answer
    code, out = check(tmp_path, BAD["garbage"][0], "--json")
    checks = {c["check"]: c for c in json.loads(out)["checks"]}
    assert code == 1
    assert checks["answers every turn in time"]["ok"], checks["answers every turn in time"]
    assert checks["answers every turn in time"]["detail"].startswith("2 answers")
    assert not checks["answers legally"]["ok"]


def test_a_bot_that_exits_with_an_error_code_at_the_end_does_not_exit_cleanly(
        tmp_path: Path) -> None:
    code, out = check(tmp_path, BAD["crashes-at-end"][0], "--json")
    checks = {c["check"]: c for c in json.loads(out)["checks"]}
    assert code == 1
    assert not checks["exits cleanly"]["ok"]  # said ok: it exits with code 5, not 0
    assert any("exit code 5" in f for f in checks["exits cleanly"]["failures"])


@pytest.mark.parametrize(("folder", "script"), [
    ("bots", "import sys\nfor line in sys.stdin:\n"
             "    print('did not answer within 0.5 s', flush=True)\n"),
    ("exited bots", "import sys\nsys.stdin.readline()\nsys.stdout.write('x' * 100000)\n"
                    "sys.stdout.flush()\nsys.stdin.read()\n"),
], ids=["answer-quoting-a-stall", "command-naming-a-stall"])
def test_an_illegal_answer_fails_answers_legally_whatever_its_words_or_command(
        tmp_path: Path, folder: str, script: str) -> None:
    # the failure was filed by words found anywhere in its message, which quotes the answer
    # and the command: an answer saying "did not answer", or a program in a folder named
    # "exited", failed "answers every turn in time" and passed "answers legally"
    where = tmp_path / folder
    where.mkdir()
    (where / "bot.py").write_text(script)
    res = runner.invoke(app, ["bot", "check", "dare", f"{sys.executable} '{where / 'bot.py'}'",
                              "--rule", "rounds=1", "--timeout", "0.5", "--json"])
    assert "Traceback" not in res.output and "internal error" not in res.output
    checks = {c["check"]: c for c in json.loads(res.output)["checks"]}
    assert res.exit_code == 1
    assert not checks["answers legally"]["ok"], checks["answers legally"]
    assert checks["answers every turn in time"]["ok"], checks["answers every turn in time"]


def test_a_bot_named_as_a_seat_names_it_is_checked_as_the_program(tmp_path: Path) -> None:
    """`--bot 2=cmd:python3 bot.py` names the program `python3 bot.py`: bot check takes the
    same spelling (with or without bot:)."""
    (tmp_path / "bot.py").write_text(GOOD)
    for prefix in ("cmd:", "bot:cmd:"):
        res = runner.invoke(app, ["bot", "check", "dare", f"{prefix}{sys.executable} "
                                  f"{tmp_path / 'bot.py'}", "--rule", "rounds=1"])
        assert res.exit_code == 0, res.output
        assert res.output.count("ok ") == 5


def test_a_python_class_bot_is_refused_in_one_line_that_says_how_to_try_it() -> None:
    res = runner.invoke(app, ["bot", "check", "dare", "py:mybot.py:Mine"],
                        env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 1
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.output
    assert lines[0].startswith("error: bot check tests a program that talks over stdin and "
                               "stdout")
    assert lines[0].endswith("kabucli sim dare --bot py:mybot.py:Mine --bot random "
                             "--matches 20")


@pytest.mark.parametrize("against", ["py:foo.py:Bar", "cmd:python3 other.py", "bot:cmd:x"])
def test_against_a_program_is_refused_naming_the_built_in_bots(against: str) -> None:
    """--against takes a built-in bot: a program there was refused with words that did not
    say why ('bot 'py:foo.py:Bar' runs only in a match (make it with one)'), or, a command,
    started as the other seats."""
    res = runner.invoke(app, ["bot", "check", "dare", "python3 nosuch.py", "--against", against])
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line.startswith("error: --against takes one of Dare's built-in bots (random, best), "
                           "not '"), line


@pytest.mark.parametrize(("command", "why"), [
    ("'unclosed", "the ' at character 1 of the command is never closed"),
    ('python3 "my bot.py', 'the " at character 9 of the command is never closed'),
    ("python3 bot.py \\", "it ends in a lone backslash")])
def test_a_command_that_cannot_be_split_into_words_is_refused_before_any_check(
        command: str, why: str) -> None:
    """"'unclosed" was started, and failed the 'starts' check with shlex's words ("cannot
    start bot ''unclosed': No closing quotation") and every check after it as not seen: the
    command cannot be run at all, which is one line before any check, saying which quote."""
    res = runner.invoke(app, ["bot", "check", "dare", command],
                        env={"NO_COLOR": "1", "COLUMNS": "300"})
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line == (f"error: bot 'cmd:{command}': the command cannot be split into words: "
                    f"{why} (quote as in a shell)"), line
    assert res.stdout == ""


@pytest.mark.parametrize("wait", [0.0, 0.5])
def test_a_greeting_on_stdout_is_told_to_go_to_stderr_as_a_match_tells_it(
        tmp_path: Path, wait: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/bots.md ("Debugging on stdout"): a greeting before the first turn is taken as the
    first answer, with the hint to write it to stderr, and `bot check` finds such mistakes.
    It did not say so: it starts the program before the match (to tell a program that cannot
    start), so the first turn was not the first any more, and a greeting was 'answers legally
    ... answered 'bot ready'' without the hint, or, once on the pipe before the turn was sent
    (a loaded machine: ``wait``), 'answered before it was asked'."""
    import time

    from kabucli.bots import external

    made = external.Channel.__init__

    def slow_start(self: external.Channel, argv: list[str], timeout: float) -> None:
        made(self, argv, timeout)
        time.sleep(wait)

    monkeypatch.setattr(external.Channel, "__init__", slow_start)
    greeting = "print('bot ready', flush=True)\n" + GOOD
    code, out = check(tmp_path, greeting, "--json")
    assert code == 1, out
    failed = {c["check"]: c for c in json.loads(out)["checks"] if not c["ok"]}
    assert list(failed)[:1] == ["answers legally"], failed
    for f in failed["answers legally"]["failures"]:
        assert "answered 'bot ready'" in f and "write it to stderr, not stdout" in f, f


@pytest.mark.parametrize(("command", "said"), [
    # (python3 cannot open the file: it starts, writes why on stderr and exits)
    ("{python} /nonexistent/bot.py", "exited (code 2) without answering; its last line on "
                                      "stderr: '{python}: can't open file"),
    ("sh -c 'exit 0'", "exited (code 0) without answering"),
    ("sh -c 'echo starting >&2; echo no model found >&2; exit 1'",
     "exited (code 1) without answering; its last line on stderr: 'no model found'"),
    ("sh -c 'echo bye >&2; kill -9 $$'",
     "was killed by signal 9 (SIGKILL) without answering; its last line on stderr: 'bye'"),
])
@pytest.mark.parametrize("timeout", ["0.001", "0.5"])
def test_a_program_that_exits_before_answering_is_said_to_have_exited(
        command: str, said: str, timeout: str) -> None:
    """With a limit shorter than the program took to exit, it 'did not answer within 0.001 s
    (flush the output ...)', passing 'starts', where it had ended: its exit is said, with
    its status and the last line it wrote on stderr."""
    command = command.format(python=sys.executable)
    res = runner.invoke(app, ["bot", "check", "dare", command, "--rule", "rounds=1",
                              "--timeout", timeout, "--json"])
    assert res.exit_code == 1, res.output
    checks = {c["check"]: c for c in json.loads(res.stdout)["checks"]}
    failures = checks["starts"]["failures"]
    assert len(failures) == 2, checks  # (in each seat)
    for seat, failure in enumerate(failures, 1):
        assert failure.startswith(f"p{seat}, seed 1: bot p{seat} ('{command}') "
                                  + said.format(python=sys.executable)), failure
        assert "flush" not in failure and "\n" not in failure
    assert checks["answers every turn in time"]["failures"] == ["not seen: no answer was given"]


def test_the_stderr_line_of_a_program_that_exited_is_shown_safe_and_cut() -> None:
    command = ("sh -c 'printf \"\\033[31m%s\\n\" $(head -c 5000 /dev/zero | tr \"\\\\0\" x) >&2; "
               "exit 3'")
    res = runner.invoke(app, ["bot", "check", "dare", command, "--rule", "rounds=1",
                              "--timeout", "0.5", "--json"])
    failure = {c["check"]: c for c in json.loads(res.stdout)["checks"]}["starts"]["failures"][0]
    assert "exited (code 3) without answering; its last line on stderr: '" in failure
    assert "\033" not in failure and len(failure) < 400, failure



def test_each_of_the_games_in_a_seat_is_played_with_the_next_seed(tmp_path: Path) -> None:
    """--games 2 plays seeds 1 and 2 in each seat (its failures are said of 'seed 2'): the
    program sees another deal in the second match, not the first match again."""
    seen = tmp_path / "seen.txt"
    # each process notes its seat and what it was shown at its first turn
    recorder = ("import json, sys\nfirst = True\nfor line in sys.stdin:\n"
                "    m = json.loads(line)\n"
                "    if m['type'] == 'turn':\n"
                "        if first:\n"
                f"            open({str(seen)!r}, 'a').write(json.dumps([m['seat'], m['state']],"
                " sort_keys=True) + '\\n')\n"
                "            first = False\n"
                "        print(m['legal'][-1], flush=True)\n")
    code, out = check(tmp_path, recorder, "--games", "2")
    assert code == 0, out
    firsts = [json.loads(line) for line in seen.read_text().splitlines()]
    assert sorted(seat for seat, _ in firsts) == [1, 1, 2, 2], firsts
    for seat in (1, 2):
        one, two = (json.dumps(state, sort_keys=True) for s, state in firsts if s == seat)
        assert one != two, (seat, one)


def test_a_program_that_cannot_start_fails_starts_in_every_match_of_every_seat(
        tmp_path: Path) -> None:
    code, out = check(tmp_path, None, "--games", "2", "--json")
    assert code == 1, out
    starts = {c["check"]: c for c in json.loads(out)["checks"]}["starts"]
    assert [f.split(":")[0] for f in starts["failures"]] == [
        "p1, seed 1", "p1, seed 2", "p2, seed 1", "p2, seed 2"], starts
    assert starts["detail"].startswith("0 of 4 matches"), starts


def test_a_bot_whose_every_match_stopped_early_passes_neither_check_of_the_end(
        tmp_path: Path) -> None:
    """No match reached its end: 'handles the end message' and 'exits cleanly' were never
    seen, which fails them, rather than reading "ok" over no end at all."""
    code, out = check(tmp_path, BAD["garbage"][0], "--json")
    assert code == 1, out
    checks = {c["check"]: c for c in json.loads(out)["checks"]}
    for name in ("handles the end message", "exits cleanly"):
        assert checks[name]["failures"] == ["not seen: no match reached its end"], checks[name]
        assert checks[name]["detail"] == "0 matches to their end", checks[name]


def test_a_bot_that_exits_after_answering_fails_answering_every_turn_not_starting(
        tmp_path: Path) -> None:
    """A program that answered its first turn and exited at its second did start: its exit
    fails 'answers every turn in time', and 'starts' holds."""
    once = ("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
            "    print(m['legal'][-1], flush=True)\n    sys.exit(3)\n")
    (tmp_path / "bot.py").write_text(once)
    res = runner.invoke(app, ["bot", "check", "dare", f"{sys.executable} {tmp_path / 'bot.py'}",
                              "--rule", "rounds=2", "--timeout", "5", "--json"])
    assert res.exit_code == 1, res.output
    checks = {c["check"]: c for c in json.loads(res.stdout)["checks"]}
    assert checks["starts"]["ok"], checks["starts"]
    timely = checks["answers every turn in time"]["failures"]
    assert len(timely) == 2 and all("exited (code 3) without answering" in f for f in timely), \
        timely


def test_a_bot_that_exits_with_code_0_on_the_end_message_passes_every_check(
        tmp_path: Path) -> None:
    """docs/bots.md: on the end message a program may keep reading, or exit with code 0."""
    leaves = ("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
              "    if m['type'] == 'end':\n        sys.exit(0)\n"
              "    print(m['legal'][-1], flush=True)\n")
    code, out = check(tmp_path, leaves)
    assert code == 0, out
    assert [line[:3] for line in out.splitlines()] == ["ok "] * 5, out


def test_the_slowest_answer_is_of_every_match_not_only_the_last(tmp_path: Path) -> None:
    """The detail of 'answers every turn in time' names the slowest answer of all the
    matches: a program slow only in seat p1 (its first matches) is said to be so."""
    slow_in_p1 = ("import json, sys, time\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                  "    if m['type'] == 'turn':\n"
                  "        if m['seat'] == 1:\n            time.sleep(1.0)\n"
                  "        print(m['legal'][-1], flush=True)\n")
    (tmp_path / "bot.py").write_text(slow_in_p1)
    res = runner.invoke(app, ["bot", "check", "dare", f"{sys.executable} {tmp_path / 'bot.py'}",
                              "--rule", "rounds=1", "--timeout", "30", "--json"])
    assert res.exit_code == 0, res.output
    detail = {c["check"]: c for c in json.loads(res.stdout)["checks"]}[
        "answers every turn in time"]["detail"]
    slowest = int(detail.split("the slowest ")[1].split(" ms")[0])
    assert slowest >= 1000, detail


def test_an_illegal_answer_whose_words_fall_where_a_stall_would_be_is_still_an_answer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure is read as a stall only after the bot's seat and its command: an answer
    quoted in 'bot p1 answered ...' with 'did not answer' just as far in as the command would
    end is an illegal answer, not a late one."""
    import os

    monkeypatch.chdir(tmp_path)
    os.symlink(sys.executable, tmp_path / "py")  # (a short command: the answer is cut at 80)
    command = "./py b.py"
    # 'bot p1 ' then "answered '" and the answer: its words start where "('./py b.py') " ends
    pad = "x" * (len(f"('{command}') ") - len("answered '"))
    (tmp_path / "b.py").write_text("import sys\nfor line in sys.stdin:\n"
                                   f"    print({pad + 'did not answer within 0.5 s'!r}, "
                                   "flush=True)\n")
    res = runner.invoke(app, ["bot", "check", "dare", command, "--rule", "rounds=1",
                              "--timeout", "30", "--json"])  # (the words quoted, not the limit)
    checks = {c["check"]: c for c in json.loads(res.stdout)["checks"]}
    assert res.exit_code == 1, res.output
    assert "answered 'xxx" in checks["answers legally"]["failures"][0], checks
    assert checks["answers every turn in time"]["ok"], checks["answers every turn in time"]


def test_bot_check_json_says_ok_false_for_a_bot_that_fails_a_check(tmp_path: Path) -> None:
    code, out = check(tmp_path, BAD["garbage"][0], "--json")
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False and doc["stopped"] is None
    code, out = check(tmp_path, GOOD, "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_bot_check_plays_from_seed_1_when_left_out_and_from_the_seed_given(
        tmp_path: Path) -> None:
    """Its --seed said 'random when left out', as play's and sim's do, while a check always
    played seed 1 (so that it plays the same matches each time): its help says so now, and a
    failure names the seed it came from, 1 or the one given (a mutant of runs.py ignoring
    --seed survived, probe EM)."""
    for args, first in (((), 1), (("--seed", "5"), 5)):
        code, out = check(tmp_path, BAD["garbage"][0], "--json", *args)
        checks = {c["check"]: c for c in json.loads(out)["checks"]}
        failure = checks["answers legally"]["failures"][0]
        assert code == 1 and failure.startswith(f"p1, seed {first}: "), failure
    res = runner.invoke(app, ["bot", "check", "--help"], env={"COLUMNS": "200"})
    assert "1 when left out: a check plays the same matches each time" in res.output
    assert "random" not in res.output.split("--seed")[1].split("--rule")[0]


@pytest.mark.parametrize("command", ["", "   ", "cmd:", "bot:cmd: "])
def test_bot_check_of_no_command_says_to_give_one(command: str) -> None:
    res = runner.invoke(app, ["bot", "check", "dare", command])
    assert res.exit_code == 1
    assert res.output.strip() == 'error: give the bot\'s command, e.g. "python3 mybot.py"'


def test_bot_check_takes_the_game_s_fewest_and_most_players_and_no_more(
        tmp_path: Path) -> None:
    """--players from the game's fewest to its most (Dare: 2-4) sets up the matches; one
    more is refused in one line (probe EM: a mutant refusing the most survived)."""
    for players in ("2", "4"):
        code, out = check(tmp_path, GOOD, "--json", "--players", players)
        assert code == 0 and json.loads(out)["ok"] is True, out
    code, out = check(tmp_path, GOOD, "--players", "5")
    assert code == 1 and out.strip() == "error: Dare takes 2-4 players, not 5", out
