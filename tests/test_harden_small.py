"""The smaller things found by hand (issue 8, item 11): --help, prompts, messages, JSON, docs."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
import typer
from matchtools import refused
from typer.testing import CliRunner
from v1logs import as_v1, write_v1

from kabucli import bots, games
from kabucli.cli import app
from kabucli.engine import Match, make_header, walk
from kabucli.errors import IllegalMove, ParseError
from kabucli.events import Event
from kabucli.games.dare.rules import Lay, strength
from kabucli.games.dare.text import hand_name
from kabucli.games.kazu_tori.rules import GAME as KAZUTORI
from kabucli.games.yatchaba.rules import GAME as YATCHABA, Guess
from kabucli.log import LogWriter, SeatInfo, read_log, to_builtins, write_log
from kabucli.session import start

runner = CliRunner()


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def command_paths() -> list[tuple[str, ...]]:
    """Every command and group of the app, as the words that reach it."""
    paths: list[tuple[str, ...]] = []

    def visit(cmd: Any, path: tuple[str, ...]) -> None:
        paths.append(path)
        for name, sub in getattr(cmd, "commands", {}).items():
            visit(sub, (*path, name))

    visit(typer.main.get_command(app), ())
    return paths


# -- --help shows no <bool> on plain flags ----------------------------------------------------

@pytest.mark.parametrize("path", command_paths(), ids=lambda p: " ".join(p) or "kabucli")
def test_help_shows_no_value_type_for_a_flag(path: tuple[str, ...]) -> None:
    res = run(*path, "--help")
    assert res.exit_code == 0
    assert "--help" in res.stdout
    assert "<bool>" not in res.stdout


def test_help_still_shows_the_value_an_option_takes() -> None:
    at = next(line for line in run("replay", "--help").stdout.splitlines() if "--at" in line)
    assert " N " in at, at  # --at N (its metavar, where typer printed <int>)


@pytest.mark.parametrize("path", [("play",), ("log", "convert"), ("log", "repair")])
def test_help_names_every_suffix_that_makes_a_json_lines_log(path: tuple[str, ...]) -> None:
    # the help said ".jsonl: JSON Lines, else msgpack", yet a .json or .ndjson name gets JSON
    # Lines too
    from kabucli.log import format_for

    text = " ".join(run(*path, "--help").stdout.replace("│", " ").split())
    for suffix in (".jsonl", ".ndjson", ".json"):
        assert format_for(f"x{suffix}") == "jsonl"
        assert re.search(re.escape(suffix) + r"\b", text), (path, suffix, text)


# -- leaving a game names the command that goes on ----------------------------------------------

def resume_command(stderr: str) -> list[str]:
    """The words of the ``kabucli resume ...`` command a stopped game printed last."""
    line = stderr.strip().splitlines()[-1]
    assert "go on with: kabucli resume " in line, line
    words = shlex.split(line.rpartition("go on with: ")[2])
    assert words[:2] == ["kabucli", "resume"]
    return words[1:]


@pytest.mark.parametrize(("how", "script", "input"), [
    ("quit at the prompt", None, "quit\n"),
    ("input ends", None, ""),
    ("the script ends", "pass\n", None),
])
def test_leaving_an_unfinished_game_prints_the_exact_resume_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str, script: str | None,
        input: str | None) -> None:
    monkeypatch.chdir(tmp_path)
    log = tmp_path / "my game's log.jsonl"  # a space and a quote: the path must be quoted
    args = ["play", "dare", "-s", "3", "-b", "2=best", "-b", "3=best", "--log", str(log), "-q"]
    if script is not None:
        (tmp_path / "moves.txt").write_text(script)
        args += ["--script", "moves.txt"]
    res = run(*args, input=input)
    assert res.exit_code == 0, res.stderr
    words = resume_command(res.stderr)
    assert words == ["resume", str(log)]
    again = run(*words, "--script", "-", input="quit\n")  # the command works as printed
    assert again.exit_code == 0, again.stderr
    assert resume_command(again.stderr) == words


def test_the_resume_command_names_again_a_bot_of_your_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Resume never starts a program a log names, so the command printed on leaving gives the
    seat's own bot again, quoted, and works as printed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my bot.py").write_text(
        "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
        "    if m['type'] == 'turn':\n        print(m['legal'][-1], flush=True)\n")
    kind = f"cmd:{sys.executable} 'my bot.py'"
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "-s", "1", "--players", "2", "-b", f"2={kind}", "--log",
              str(log), "-q", input="quit\n")
    assert res.exit_code == 0, res.stderr
    words = resume_command(res.stderr)
    assert words == ["resume", str(log), "--bot", f"2={kind}"]
    again = run(*words, "-q", input="quit\n")
    assert again.exit_code == 0, again.stderr
    assert resume_command(again.stderr) == words


# -- Yatchaba refusals name no seat p0 ----------------------------------------------------------

def yatchaba(n: int = 2, seed: int | None = None) -> Match:
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, n + 1)]
    return Match(YATCHABA, make_header(YATCHABA, YATCHABA.Rules(), seats, seed))


@pytest.mark.parametrize("move", ["bet", "pass", "stop", "continue"])
def test_a_yatchaba_move_typed_out_of_its_phase_is_nobodys_move(move: str) -> None:
    m = yatchaba(seed=1)
    m.advance()  # the cards are laid: p1 names three months
    with pytest.raises(ParseError) as info:
        YATCHABA.parse(m.state, move)
    assert str(info.value) == f"nobody may {move} now: waiting for p1 to name three months"


@pytest.mark.parametrize("move", ["bet", "pass", "stop", "continue"])
def test_yatchaba_refusals_at_the_prompt_say_whose_move_it_is(move: str) -> None:
    res = run("play", "yatchaba", "-n", "2", "-s", "1", "--no-log", "-q", input=f"{move}\n")
    refusal = next(line for line in res.stdout.splitlines() if "refused:" in line)
    assert "p0" not in refusal
    assert "waiting for p1 to name three months" in refusal


def test_an_action_by_a_seat_the_table_does_not_have_says_so() -> None:
    m = yatchaba(seed=1)
    m.advance()
    for seat in (0, 3):
        assert refused(m, Guess(seat, [1, 1, 8])) == f"there is no seat p{seat} (seats are p1-p2)"
    assert refused(m, Guess(2, [1, 1, 8])).startswith("it is not p2's turn (waiting for p1")


# -- kabucli rules GAME lists the bots ----------------------------------------------------------

@pytest.mark.parametrize("game", games.names())
def test_rules_lists_every_bot_kind_and_what_it_does(game: str) -> None:
    built_in = bots.about(game)
    assert set(built_in) == set(bots.kinds(game)) and len(built_in) >= 2
    assert all(len(what) > 20 and "\n" not in what for what in built_in.values())
    res = run("rules", game)
    assert res.exit_code == 0
    text = " ".join(res.stdout.split())  # the table folds long cells
    shown = {**built_in, "cmd:COMMAND": "", "py:FILE.py:CLASS": ""}
    for kind, what in shown.items():
        assert re.search(rf"[│|] {re.escape(kind)} [│|]", text), kind
        assert " ".join(what.split()[:4]) in text, kind


@pytest.mark.parametrize("game", games.names())
def test_rules_json_lists_the_bots(game: str) -> None:
    res = run("rules", game, "--json")
    assert res.exit_code == 0
    listed = {b["kind"]: b["about"] for b in json.loads(res.stdout)["bots"]}
    assert listed == {**bots.about(game), **bots.EXTERNAL_ABOUT}
    assert all(listed.values())


# -- replay --json prints one JSON document ----------------------------------------------------

REPLAYS = Path(__file__).parent.parent / "replays"


def a_log(game: str) -> Path:
    return min(p for p in (REPLAYS / game).iterdir() if p.suffix in (".kbl", ".jsonl"))


def replay_json(path: Path, *more: str, code: int = 0) -> dict[str, Any]:
    res = run("replay", str(path), "--json", *more)
    assert res.exit_code == code, res.stderr
    doc: dict[str, Any] = json.loads(res.stdout)  # the whole output is one document
    assert doc["log"] == str(path)
    return doc


@pytest.mark.parametrize("game", games.names())
def test_replay_json_is_one_document_with_every_step(game: str) -> None:
    path = a_log(game)
    data = read_log(path, games.event_types)
    g = games.get(game)
    doc = replay_json(path)
    assert doc["header"] == to_builtins(data.header) and doc["events"] == len(data.events)
    assert [s["index"] for s in doc["steps"]] == list(range(1, len(data.events) + 1))
    assert [s["notation"] for s in doc["steps"]] == [g.notate(e) for e in data.events]
    match, _ = walk(g, data.header, data.events)
    assert doc["steps"][-1]["state"] == g.view(match.state)
    assert doc["outcome"] == match.outcome() and doc["outcome"] is not None
    assert doc["violation"] is None and doc["error"] is None


@pytest.mark.parametrize("game", games.names())
def test_replay_at_n_json_is_one_document_with_the_state_after_event_n(game: str) -> None:
    path = a_log(game)
    data = read_log(path, games.event_types)
    g = games.get(game)
    for at in (0, 1, len(data.events) // 2, len(data.events)):
        doc = replay_json(path, "--at", str(at))
        match, _ = walk(g, data.header, data.events[:at])
        assert doc["at"] == at and doc["events"] == len(data.events)
        assert doc["state"] == g.view(match.state)
        if at == 0:
            assert doc["step"] is None
        else:
            assert doc["step"]["index"] == at
            assert doc["step"]["notation"] == g.notate(data.events[at - 1])


def test_replay_json_of_a_log_that_breaks_a_rule_is_still_one_document(tmp_path: Path) -> None:
    data = read_log(a_log("dare"), games.event_types)
    lay = next(i for i, e in enumerate(data.events) if e.KIND == "action")
    wrong = Lay(data.events[lay].seat % len(data.header.seats) + 1, [])  # out of turn
    events = [*data.events[:lay], wrong, *data.events[lay + 1:]]
    path = tmp_path / "tampered.jsonl"
    write_log(path, data.header, events, "jsonl")
    doc = replay_json(path, code=1)
    assert doc["violation"]["index"] == lay + 1
    assert [s["index"] for s in doc["steps"]] == list(range(1, lay + 1))
    empty = tmp_path / "empty.jsonl"
    write_log(empty, data.header, [], "jsonl")
    assert replay_json(empty)["steps"] == []
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(path.read_bytes()[:-5])  # the last line loses its end
    doc = replay_json(cut, code=1)  # the rule break comes first, the damage is reported too
    assert doc["violation"]["index"] == lay + 1 and "truncated" in doc["error"]


# -- Kazu-Tori stop: asked at the prompt, and undone --------------------------------------------

def kazutori(tmp_path: Path, *more: str, input: str) -> tuple[Any, list[Event], Match]:
    """A seeded two-person Kazu-Tori game at the prompt (or from ``more``'s script): the
    result, the log's events, and the match they replay to."""
    log = tmp_path / "kt.jsonl"
    res = run("play", "kazu-tori", "-s", "1", "-n", "2", "--log", str(log), *more, input=input)
    assert res.exit_code == 0, res.stderr
    data = read_log(log, games.event_types)
    match, violation = walk(KAZUTORI, data.header, data.events)
    assert violation is None
    return res, data.events, match


def kinds_of(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


QUESTION = "End the game now and score the piles as they stand? [y/N]"


@pytest.mark.parametrize("answer", ["n", "", "whatever"])
def test_stop_at_the_prompt_is_played_only_when_confirmed(tmp_path: Path, answer: str) -> None:
    res, events, match = kazutori(tmp_path, input=f"flip\nstop\n{answer}\nquit\n")
    assert QUESTION in res.stdout and "not played" in res.stdout
    assert "Stop" not in kinds_of(events) and not match.over


@pytest.mark.parametrize("answer", ["y", "yes", " YES ", "Y"])
def test_stop_is_played_on_y_or_yes_in_any_case(tmp_path: Path, answer: str) -> None:
    """The question takes y and yes, whatever their case and spaces (probe EK: a mutant of
    table.py's _yes taking y alone survived)."""
    res, events, match = kazutori(tmp_path, input=f"flip\nstop\n{answer}\n\n")
    assert QUESTION in res.stdout and "not played" not in res.stdout
    assert "Stop" in kinds_of(events) and match.over


def test_the_questions_read_their_answers_typed_in_full_width(tmp_path: Path) -> None:
    """A person typing in a Japanese input method's full-width mode answers 'ｙ' to the stop
    question and 'ｕｎｄｏ' at the game-over prompt, as the move 'ｓｔｏｐ' itself is read
    (typed_form): the stop was 'not played' and 'ｕｎｄｏ' was answered 'type undo ...'."""
    res, events, match = kazutori(tmp_path, input="flip\nｓｔｏｐ\nｙ\nｕｎｄｏ\nｑｕｉｔ\n")
    assert QUESTION in res.stdout and "not played" not in res.stdout
    kinds = kinds_of(events)
    assert kinds.index("Stop") < kinds.index("End") < kinds.index("Undo")
    assert not match.over


def test_a_confirmed_stop_ends_the_game_and_undo_takes_it_back(tmp_path: Path) -> None:
    res, events, match = kazutori(tmp_path, input="flip\nstop\ny\nundo\nquit\n")
    kinds = kinds_of(events)
    assert kinds.index("Stop") < kinds.index("End") < kinds.index("Undo")  # over, then undone
    assert "took back 1 move: " in res.stdout
    assert not match.over and "Stop" not in kinds_of(match.events)
    assert resume_command(res.stderr) == ["resume", str(tmp_path / "kt.jsonl")]


def test_a_game_over_at_the_prompt_finishes_on_enter(tmp_path: Path) -> None:
    res, events, match = kazutori(tmp_path, input="flip\nstop\ny\n\n")
    assert match.over and kinds_of(events)[-1] == "End"
    # the prompt names table, which draws the final table there (it named undo and Enter only)
    assert ("game over (undo: take back your last move; table; Enter: finish)"
            in res.stdout)


def test_quit_at_the_game_over_prompt_finishes(tmp_path: Path) -> None:
    # quit is a command at every prompt: at game over it was refused as a move typed out
    # of habit, and asked again
    res, events, match = kazutori(tmp_path, input="flip\nstop\ny\nquit\n")
    assert match.over and kinds_of(events)[-1] == "End"
    assert "the game is over: type undo" not in res.stdout


def test_t_at_the_game_over_prompt_draws_the_table_as_at_the_move_prompt(
        tmp_path: Path) -> None:
    """t is table's short form at the move prompt, and at the game-over prompt too (probe EK:
    a mutant taking only 'table' there survived; t was refused as a move)."""
    res, _, match = kazutori(tmp_path, input="flip\nstop\ny\nt\n\n")
    prompt = "game over (undo: take back your last move; table; Enter: finish) > "
    after = res.stdout.split(prompt)
    assert match.over and len(after) == 3, res.stdout  # asked again after t, then Enter
    assert "the game is over: type undo" not in res.stdout
    assert "Kazu-Tori · limit 10" in after[1]


@pytest.mark.parametrize("physical", [False, True])
def test_the_game_over_prompt_draws_the_table_and_says_what_it_takes(physical: bool,
                                                                   tmp_path: Path) -> None:
    """At the game-over prompt 'table', '?' and 'help' were refused ("the game is over: type
    undo ... (not 'table')"), though the prompt's commands include table: a referee at the
    end wants the final table (probe CA). table draws it; ? and help say what the prompt
    takes; undo still takes the last move back after them."""
    if physical:
        log = tmp_path / "kt.jsonl"
        res = run("play", "kazu-tori", "--physical", "-n", "2", "--log", str(log),
                  input="deal\np1 flip 7\nstop\ny\ntable\n?\nhelp\nundo\nquit\n")
        assert res.exit_code == 0, res.stderr
        data = read_log(log, games.event_types)
        match, _ = walk(KAZUTORI, data.header, data.events)
    else:
        res, _, match = kazutori(tmp_path,
                                 input="flip\nstop\ny\ntable\n?\nhelp\nundo\nquit\n")
    prompt = "game over (undo: take back your last move; table; Enter: finish) > "
    after = res.stdout.split(prompt)
    assert len(after) == 5, res.stdout  # asked again after table, ? and help, then undone
    assert "the game is over: type undo" not in res.stdout
    assert "Kazu-Tori · limit 10" in after[1] and "p1" in after[1], after[1]  # the table
    for said in after[2:4]:  # ? and help
        lines = said.splitlines()
        assert lines[0] == "the game is over; what may be typed here:", said
        assert [line.split()[0] for line in lines[1:]] == ["undo", "table", "Enter"], said
    assert "took back 1 move: " in after[4] and not match.over


def test_stop_in_a_script_is_deliberate_and_not_asked(tmp_path: Path) -> None:
    (tmp_path / "moves.txt").write_text("flip\nstop\n")
    res, events, match = kazutori(tmp_path, "--script", str(tmp_path / "moves.txt"), input="")
    assert QUESTION not in res.stdout and "game over (undo" not in res.stdout
    assert match.over and "Stop" in kinds_of(events)


def test_stop_typed_by_a_person_among_bots_is_the_persons(tmp_path: Path) -> None:
    seats = [SeatInfo("me", "human"), SeatInfo("sharp", "bot:sharp")]
    sess = start(KAZUTORI, KAZUTORI.Rules(), seats, 1, None, None)
    sess.run_bots()
    sess.submit_line("flip")  # p1 flips: the bot p2 flips next
    sess.run_bots()
    assert KAZUTORI.notate(sess.parse_line("stop")) == "p1 stop"
    assert sess.submit_line("stop", confirm=lambda question: False) is None
    assert not sess.match.over
    sess.submit_line("stop")
    assert sess.match.advance().kind == "over"


def test_a_stop_refused_anyway_is_refused_without_asking() -> None:
    """A move the game asks about (Kazu-Tori's stop) that is illegal now ('p2 stop' on p1's
    turn) is refused with its reason, never asked about: answering no said 'not played'
    instead of why (probe EN: a mutant that asked first survived)."""
    seats = [SeatInfo(f"s{i}", "human") for i in (1, 2, 3)]
    sess = start(KAZUTORI, KAZUTORI.Rules(), seats, 1, None, None)
    sess.run_bots()
    asked: list[str] = []
    before = sess.match.logged
    with pytest.raises(IllegalMove, match="it is not p2's turn"):
        sess.submit_line("p2 stop", confirm=lambda question: asked.append(question) or False)
    assert asked == [] and sess.match.logged == before


# -- docs stand alone ---------------------------------------------------------------------------

ROOT = Path(__file__).parent.parent
MD_FILE = re.compile(r"(?<![\w/.:-])([\w./-]*[\w-]\.md)(?![\w-]|\.\w)")


def texts() -> list[Path]:
    """The repository's Markdown and Python files (this file names the pointers it forbids)."""
    found = [ROOT / "README.md"]
    for folder in ("kabucli", "docs", "tests", "replays", "bench"):
        found += sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in (".md", ".py"))
    return [p for p in found if p != Path(__file__)]


def test_docs_and_docstrings_point_only_at_files_in_the_repository() -> None:
    missing = []
    for path in texts():
        text = path.read_text()
        for name in MD_FILE.findall(text):
            here = (ROOT / name).exists() or (path.parent / name).exists()
            if not here and ("/" in name or not any(ROOT.rglob(name))):  # a bare name: anywhere
                missing.append(f"{path.relative_to(ROOT)}: {name}")
        missing += [f"{path.relative_to(ROOT)}: {m}" for m in re.findall(r"\bseeds/\d+", text)]
    assert missing == []


def test_the_md_file_pattern_finds_references() -> None:  # the check above can fail
    assert MD_FILE.findall("see `docs/rules/dare.md` and ../x/RULES.md, not a.md.bak") == [
        "docs/rules/dare.md", "../x/RULES.md"]


HAND_ROW = re.compile(r"^\s*\| (\d+) +\| ([^|]+?) +\| ([^|]+?) +\|$", re.MULTILINE)
# A hand for each row whose cards are described in words.
EXAMPLE = {"Arashi": [2, 2, 2], "Nobori": [4, 5, 6], "(no name)": [1, 9, 9]}


@pytest.mark.parametrize("where", ["docs/rules/dare.md", "kabucli rules dare"])
def test_the_extended_hand_table_is_written_out_and_ranks_as_the_engine_does(where: str) -> None:
    text = (ROOT / where).read_text() if where.endswith(".md") else run("rules", "dare").stdout
    rows = HAND_ROW.findall(text)
    assert [int(rank) for rank, _, _ in rows] == list(range(1, 10))
    keys = []
    for _, name, cards in rows:
        hand = EXAMPLE.get(name) or [int(c) for c in cards.split(", ")]
        if name == "(no name)":
            assert strength(hand, "extended")[0] == 0
        else:
            assert hand_name(hand, "extended").startswith(name), (name, hand)
        keys.append(strength(hand, "extended"))
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    names = [name for _, name, _ in rows]
    assert names[:8] == ["Doshippin", "Arashi-kabu", "Arashi", "Nana-Go-San", "Ichi-Ni-San",
                         "Raijin", "Fujin", "Nobori"]


def test_the_docs_table_and_kabucli_rules_dare_say_the_same() -> None:
    shown = run("rules", "dare").stdout
    assert HAND_ROW.findall((ROOT / "docs/rules/dare.md").read_text()) == HAND_ROW.findall(shown)
    shown = " ".join(shown.split())
    assert "| 1 | Doshippin | 1, 10, 10" in shown and "| 8 | Nobori | any other three" in shown


# -- found by a hostile pass over sim and tournament (2026-11-25) ----------------------------

def test_sprt_bounds_stay_finite_for_an_alpha_near_the_smallest_float() -> None:
    res = run("sim", "dare", "-b", "best", "-b", "random", "-m", "4", "--seed", "1",
              "--rule", "rounds=1", "--json", "--sprt", "elo0=0 elo1=5 alpha=5e-324 beta=0.5")
    assert res.exit_code == 0, res.output
    assert "Infinity" not in res.output and "NaN" not in res.output
    sprt = json.loads(res.output)["sprt"]
    assert sprt["upper"] == pytest.approx(743.7469, abs=1e-3)  # log(0.5) - log(5e-324)
    assert sprt["lower"] == pytest.approx(-0.6931, abs=1e-3)


def test_json_never_holds_infinity_or_nan() -> None:
    from kabucli.cli.common import _dumps

    out = _dumps({"a": [1.5, float("inf"), {"b": float("nan")}], "c": -float("inf")})
    assert json.loads(out) == {"a": [1.5, None, {"b": None}], "c": None}


def test_json_never_holds_infinity_or_nan_inside_a_tuple_either() -> None:
    from kabucli.cli.common import _dumps

    out = _dumps({"interval": (float("-inf"), 0.25), "pairs": [(1, float("nan"))]})
    assert json.loads(out) == {"interval": [None, 0.25], "pairs": [[1, None]]}


def test_a_bot_with_no_match_counted_has_no_mean_in_json(tmp_path: Path) -> None:
    crash = tmp_path / "crash.py"
    crash.write_text("raise SystemExit(3)\n")
    res = run("sim", "dare", "-b", f"cmd:{sys.executable} {crash}", "-b", "random", "-m", "3",
              "--seed", "1", "--json")
    bots_ = json.loads(res.output)["bots"]
    assert [b["forfeits"] for b in bots_] == [3, 0]
    assert all(b["mean_chips"] is None and b["ci95"] is None for b in bots_)  # no mean of 0


def test_sprt_refusal_shows_the_value_it_refused() -> None:
    res = run("sim", "dare", "-b", "best", "-b", "random", "--sprt", "elo0=0 elo1=1000.0000001")
    assert res.exit_code == 1
    assert "must be between -1000 and 1000, not 1000.0000001" in res.output


@pytest.mark.parametrize("option", ["--logs", "--rules-file"])
@pytest.mark.parametrize("command", [["sim", "dare", "-b", "best", "-b", "random", "-m", "2"],
                                     ["tournament", "dare", "-b", "best", "-b", "random",
                                      "-b", "random"]])
def test_an_empty_file_or_folder_name_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str],
        option: str) -> None:
    monkeypatch.chdir(tmp_path)  # --logs "" wrote the run's logs into the current folder
    res = run(*command, option, "")
    assert res.exit_code == 1, res.output
    assert f"error: {option}: the name is empty" in res.output
    assert list(tmp_path.iterdir()) == []


def test_a_log_folder_that_is_a_broken_link_says_so(tmp_path: Path) -> None:
    link = tmp_path / "logs"
    link.symlink_to(tmp_path / "gone" / "x")
    res = run("sim", "dare", "-b", "best", "-b", "random", "-m", "2", "--logs", str(link))
    assert res.exit_code == 1
    assert f"is a link to {tmp_path / 'gone' / 'x'}, which does not exist" in res.output


def test_a_log_of_another_run_is_refused_in_words_said_once(tmp_path: Path) -> None:
    run("sim", "dare", "-b", "best", "-b", "random", "-m", "1", "--seed", "2",
        "--logs", str(tmp_path))
    res = run("sim", "dare", "-b", "best", "-b", "random", "-m", "1", "--seed", "1",
              "--logs", str(tmp_path))
    assert res.exit_code == 1
    assert "holds another match (different seed)" in res.output
    assert res.output.count("never overwrites it") == 1


# -- --json is JSON on stdout even when the command fails (hostile pass, 2026-11-25) ----------

@pytest.mark.parametrize("args", [["replay", "--json", "/no/such/log.kbl"],
                                  ["replay", "--json", "LOG", "--at", "500"],
                                  ["audit", "--json", "--digest", "zz", "LOG"]])
def test_json_output_is_json_when_the_command_fails_at_once(tmp_path: Path,
                                                            args: list[str]) -> None:
    log = tmp_path / "g.kbl"
    assert run("play", "dare", "--seed", "7", "--bot", "all=best", "--rule", "rounds=1",
               "--log", str(log)).exit_code == 0
    res = runner.invoke(app, [str(log) if a == "LOG" else a for a in args],
                        env={"NO_COLOR": "1", "COLUMNS": "200"})
    assert res.exit_code in (1, 2)
    assert json.loads(res.stdout)["error"] in res.stderr


def test_a_failure_after_json_was_printed_adds_no_second_document(
        capsys: pytest.CaptureFixture[str]) -> None:
    import typer

    from kabucli.cli.common import _dumps, _json_errors, fail

    with pytest.raises(typer.Exit) as stop, _json_errors(True, log="g.kbl"):
        print(_dumps({"report": 1}, indent=2))
        fail("the chart could not be written")
    assert stop.value.exit_code == 1
    assert json.loads(capsys.readouterr().out) == {"report": 1}
    with pytest.raises(typer.Exit), _json_errors(True, log="g.kbl"):  # (none printed yet)
        fail("no such log")
    assert json.loads(capsys.readouterr().out) == {"log": "g.kbl", "error": "no such log"}


def test_an_exit_without_a_failure_prints_no_error_of_an_earlier_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    # (a program that runs kabucli's commands in-process, one after another)
    import typer

    from kabucli.cli.common import _json_errors, fail

    with pytest.raises(typer.Exit), _json_errors(True):
        fail("no such log")
    capsys.readouterr()
    with pytest.raises(typer.Exit), _json_errors(True):
        raise typer.Exit(1)  # (a verdict: its JSON, if any, is the command's own)
    assert capsys.readouterr().out == ""


def test_a_malformed_digest_is_a_usage_error_not_a_verdict(tmp_path: Path) -> None:
    # exit 1 says "the log is not the one the digest names": a digest that is no digest is 2
    log = tmp_path / "g.kbl"
    run("play", "dare", "--seed", "7", "--bot", "all=best", "--rule", "rounds=1", "--log",
        str(log))
    assert run("audit", str(log), "--digest", "zz").exit_code == 2


NOT_STARTED = "is not a date and time as kabucli writes it (ISO 8601 in UTC, to the second"


@pytest.mark.parametrize(("field", "value", "why"), [
    ("salt", "00" * 16, "a salt without a commitment - at `$.salt`"),
    # a log from anyone could say it started at any text
    ("started", "garbage", f"invalid record: started 'garbage' {NOT_STARTED}"),
    ("started", "2026-02-30T02:16:05+00:00", f"'2026-02-30T02:16:05+00:00' {NOT_STARTED}"),
    ("started", "2026-11-22", f"started '2026-11-22' {NOT_STARTED}"),
    ("started", "2026-11-22T02:16:05", NOT_STARTED),  # no time zone
    ("started", "2026-11-22T03:16:05+01:00", NOT_STARTED),  # not UTC
    ("started", "2026-11-22T02:16:05.250+00:00", NOT_STARTED),  # not to the second
    ("started", "２０２６-11-22T02:16:05+00:00", NOT_STARTED),  # digits, but not 0-9
], ids=["salt", "started-text", "started-feb-30", "started-date", "started-no-zone",
        "started-not-utc", "started-ms", "started-wide-digits"])
def test_header_fields_that_say_nothing_true_are_refused(tmp_path: Path, field: str,
                                                         value: str, why: str) -> None:
    log = tmp_path / "g.jsonl"
    assert run("play", "dare", "--seed", "7", "--bot", "all=best", "--rule", "rounds=1",
               "--log", str(log)).exit_code == 0
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header[field] = value
    log.write_text("\n".join([json.dumps(header, separators=(",", ":")), *lines[1:]]) + "\n")
    res = run("audit", str(log))
    assert res.exit_code == 2 and why in res.output, res.output
    assert res.output.startswith(f"unreadable: {log}: header: invalid record: ")
    assert res.output.endswith(f" - at `$.{field}`\n")


def test_a_binary_log_whose_started_is_no_date_and_time_is_unreadable(tmp_path: Path) -> None:
    good = tmp_path / "g.kbl"
    assert run("play", "dare", "--seed", "7", "--bot", "all=best", "--rule", "rounds=1",
               "--log", str(good)).exit_code == 0
    data = read_log(good, games.event_types)
    bad = tmp_path / "bad.kbl"
    write_log(bad, msgspec.structs.replace(data.header, started="tomorrow"), data.events,
              "msgpack", types=games.event_types("dare"))
    for args in (("audit", str(bad)), ("replay", str(bad)), ("log", "convert", str(bad),
                                                              str(tmp_path / "c.jsonl"))):
        res = run(*args)
        assert res.exit_code == 2, (args, res.output)
        assert f"{bad}: header: invalid record: started 'tomorrow' {NOT_STARTED}" in res.output
    assert not (tmp_path / "c.jsonl").exists()
    # what kabucli writes reads, the logs recorded in replays/ included
    assert run("audit", str(good)).exit_code == 0
    every = sorted(str(p) for p in (Path(__file__).parent.parent / "replays").glob("*/*"))
    assert run("audit", *every).exit_code == 0


def test_a_format_1_log_reads_as_it_did_whatever_its_started_but_converts_only_with_one(
        tmp_path: Path) -> None:
    # format 1 never checked started, and its logs are read as they were; a format 2 copy
    # would be one that no kabucli reads, so it is not written
    good = tmp_path / "g.jsonl"
    assert run("play", "dare", "--seed", "7", "--bot", "all=best", "--rule", "rounds=1",
               "--log", str(good)).exit_code == 0
    data = read_log(good, games.event_types)
    v1 = tmp_path / "v1.kbl"
    writer = LogWriter.create(v1, as_v1(msgspec.structs.replace(data.header,
                                                                started="a Tuesday")),
                              "msgpack", durable=False)
    for ev in data.events:
        writer.append(ev)
    writer.close()
    assert read_log(v1, games.event_types).header.started == "a Tuesday"
    assert run("audit", str(v1)).exit_code == 0
    res = run("log", "convert", str(v1), str(tmp_path / "v2.kbl"))
    assert res.exit_code == 2, res.output
    assert (f"{v1}: header: started 'a Tuesday' {NOT_STARTED}" in res.output
            and "this format 1 log is not converted (nothing written)" in res.output)
    assert not (tmp_path / "v2.kbl").exists()
    assert run("log", "convert", str(write_v1(good, tmp_path / "v1good.kbl")),
               str(tmp_path / "v2.kbl")).exit_code == 0


def test_a_new_header_never_holds_a_started_a_reader_refuses() -> None:
    g = games.get("dare")
    seats = [SeatInfo("a"), SeatInfo("b")]
    with pytest.raises(ValueError, match=f"started 'now' {re.escape(NOT_STARTED)}"):
        make_header(g, g.Rules(), seats, 1, started="now")
    assert make_header(g, g.Rules(), seats, 1, started="2026-01-02T03:04:05+00:00").started \
        == "2026-01-02T03:04:05+00:00"


def test_audit_of_an_empty_name_says_so() -> None:
    res = run("audit", "")  # was ".: is a directory, not a log"
    assert res.exit_code == 2
    assert "unreadable: '': the name is empty, not a log file" in res.output


def test_a_game_over_prompt_answers_anything_but_undo_or_enter_and_asks_again(
        tmp_path: Path) -> None:
    """A move typed out of habit at the game-over prompt ended the game without a word
    (a probe, H10): it is answered, and the prompt comes back for undo or Enter."""
    res, _, match = kazutori(tmp_path, input="flip\nstop\ny\nflip\nit's\nundo\nquit\n")
    assert "the game is over: type undo to take back your last move, table to see the final " \
           "table, or press Enter to finish (not 'flip')" in res.stdout
    # quoted as every refusal quotes what was typed (repr() put it in double quotes)
    assert "or press Enter to finish (not 'it's')" in res.stdout
    assert res.stdout.count("game over (undo: take back your last move; table; "
                            "Enter: finish)") == 3
    assert "took back 1 move: " in res.stdout and not match.over


@pytest.mark.parametrize("asked", ["?", "help"])
def test_a_question_mark_at_the_stop_question_says_the_answers_and_asks_again(
        tmp_path: Path, asked: str) -> None:
    # (it counted as no: "not played", the referee's question unanswered; probe DK)
    res, events, match = kazutori(tmp_path, input=f"flip\nstop\n{asked}\ny\n\n")
    assert res.stdout.count(QUESTION) == 2, res.stdout[-1500:]
    assert "y or yes: yes, the move is played" in res.stdout
    assert "not played" not in res.stdout and match.over and kinds_of(events)[-1] == "End"
