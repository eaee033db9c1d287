"""Playing with a person at the table: moves from a script or typed at the prompt, `?`, `undo`,
`quit`, resuming a quit or damaged log, refereeing a real table, and refused moves."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.engine import Match, walk
from kabucli.events import Undo
from kabucli.games.dare.rules import GAME, Lay
from kabucli.log import read_log

runner = CliRunner()
# Seed 7, p1 a person, p2 best and p3 random bots: p1 deals round 1 and plays third, with
# reference 7 and the hand 1 1 2 5 6 6 7 8 9.
HUMAN_GAME = ("play", "dare", "--seed", "7", "--bot", "2=best", "--bot", "3=random")
PROMPT = "p1 (to lay sets matching"  # (the seat said once: it was "p1 (p1 to lay ...")


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def replayed(path: Path) -> tuple[Match, list[Any]]:
    """The match a log leads to (checked event by event) and its events as recorded."""
    data = read_log(path, games.event_types)
    match, violation = walk(GAME, data.header, data.events)
    assert violation is None, violation
    return match, data.events


def audits_clean(path: Path, finished: bool) -> None:
    res = run("audit", str(path))
    assert res.exit_code == 0, res.stderr
    state = "finished" if finished else "unfinished"
    assert res.stdout.splitlines()[0] == (f"valid: {path} ({len(replayed(path)[1])} events, "
                                          f"{state})")


def human_lays(events: list[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, Lay) and e.seat == 1]


# -- moves from a script or from standard input -------------------------------------------

def test_script_plays_a_human_seat_to_the_end(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("# p1 never lays a set\n" + "pass  # nothing\n\n" * 10)
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "-r", "rounds=3", "--script", str(script), "--log", str(log))
    assert res.exit_code == 0, res.stderr
    assert "final chips" in res.stdout
    match, events = replayed(log)
    assert match.over
    assert human_lays(events) and all(e.sets == [] for e in human_lays(events))
    audits_clean(log, finished=True)


@pytest.mark.parametrize(("name", "typed"), [
    ("ジョー", "ｐ１　ｓｅｔｓ　４－６－８"),  # full width, as a Japanese input method types it
    ("ジョー", "p1 sets 4ー6ー8"),  # the long vowel mark for '-'
    ("ジョー", "ジョー sets 4-6-8"),  # the player's name, its own long vowel mark kept
    ("ﾀﾛｳ", "タロウ sets 4-6-8"),  # a half-width name typed in full width
])
def test_a_line_typed_in_full_width_is_read_as_its_ascii_form(tmp_path: Path, name: str,
                                                               typed: str) -> None:
    """Typed lines are folded as typed_form says: full-width letters, digits and spaces as
    ASCII, a dash-like mark between two cards as '-' (each line was refused: "'ｐ１' is not a
    card of the kabufuda (39) deck"); so are the table's commands ('ｑｕｉｔ'), and a name
    with a long vowel mark in it is still the player's. Seed 3, two players: p1 may lay
    4-6-8 first."""
    log = tmp_path / "g.jsonl"
    res = run("play", "dare", "--seed", "3", "-n", "2", "-p", f"1={name}", "--bot", "2=random",
              "--script", "-", "--log", str(log), input=f"{typed}\nｑｕｉｔ\n")
    assert res.exit_code == 0, res.stderr
    assert "left the game" in res.stderr + res.stdout
    lays = human_lays(replayed(log)[1])
    assert [[list(s) for s in e.sets] for e in lays] == [[[4, 6, 8]]]


def test_a_line_that_folding_would_lengthen_past_the_limit_is_refused_as_typed() -> None:
    """'ﷺ' folds into 18 characters: a line of 1000 of them (the most a move may be) was
    folded and refused as 'at most 1000 characters, not 18000', a length nobody typed. It
    is read as typed, and refused as no move, quoting what was typed."""
    res = run("play", "dare", "--seed", "3", "-n", "2", "--bot", "2=random", "--script", "-",
              "--no-log", input="\ufdfa" * 1000 + "\n")
    assert res.exit_code != 0
    line = res.stderr.strip().splitlines()[-1]
    assert "18000" not in line and "not a Dare move" in line and "\ufdfa" * 50 in line


def test_script_that_ends_early_leaves_a_resumable_log(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("1-7-9 5-6-6\n")
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "--script", str(script), "--log", str(log))
    assert res.exit_code == 0
    assert res.stderr.strip().startswith(f"the script {script} ended; the game waits for p1")
    _, events = replayed(log)
    assert human_lays(events)[0] == Lay(1, [[1, 7, 9], [5, 6, 6]])
    assert res.stderr.strip().endswith(f"log kept: {log} ({len(events)} events); "
                                           f"go on with: kabucli resume {shlex.quote(str(log))}")
    audits_clean(log, finished=False)


def test_script_from_standard_input(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    res = run(*HUMAN_GAME, "-r", "rounds=2", "--script", "-", "--log", str(log),
              input="pass\n" * 5)
    assert res.exit_code == 0, res.stderr
    assert replayed(log)[0].over


def test_piped_stdin_answers_the_prompt_to_the_end(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "-r", "rounds=2", "--log", str(log), input="pass\n" * 5)
    assert res.exit_code == 0, res.stderr
    assert PROMPT in res.stdout
    assert "final chips" in res.stdout
    audits_clean(log, finished=True)


def test_input_ending_at_the_prompt_keeps_the_log(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "--log", str(log), input="")
    assert res.exit_code == 0
    assert res.stderr.strip() == (f"input ended; log kept: {log} ({len(replayed(log)[1])} "
                                  f"events); go on with: kabucli resume {shlex.quote(str(log))}")
    audits_clean(log, finished=False)


def test_json_with_a_human_seat_keeps_stdout_pure_json(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "-r", "rounds=2", "--log", str(log), "--json",
              input="?\nfoo\n" + "pass\n" * 5)
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["events"] == len(replayed(log)[1])
    assert "legal move" in res.stderr and "refused:" in res.stderr


# -- table commands ----------------------------------------------------------------------

def test_question_mark_lists_exactly_the_legal_moves(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "--log", str(log), input="?\nquit\n")
    assert res.exit_code == 0
    match, _ = replayed(log)
    legal = [GAME.notate(e) for e in GAME.legal(match.state, 1)]
    assert "p1 pass" in legal and len(legal) > 1
    assert f"{len(legal)} legal moves:\n" + "".join(f"  {t}\n" for t in legal) in res.stdout


def test_undo_takes_back_the_move_and_the_bot_replies(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    res = run(*HUMAN_GAME, "--log", str(log), input="pass\nundo\nquit\n")
    assert res.exit_code == 0, res.stderr
    match, events = replayed(log)
    undos = sum(isinstance(e, Undo) for e in events)
    assert f"took back {undos} moves" in res.stdout
    assert undos >= 2  # p1's pass and p3's lay in round 2
    assert isinstance(events[-1], Undo)
    # back where p1 passed: round 1, p1 to play with the whole hand
    assert (match.state.round, match.state.phase, match.state.actor) == (1, "turns", 1)
    assert match.state.hands[1] == [1, 1, 2, 5, 6, 6, 7, 8, 9]
    audits_clean(log, finished=False)


def test_undo_then_a_new_move_is_what_counts(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "-r", "rounds=2", "--log", str(log),
              input="pass\nundo\n1-7-9 5-6-6\npass\n")
    assert res.exit_code == 0, res.stderr
    match, events = replayed(log)
    assert match.over
    laid = Lay(1, [[1, 7, 9], [5, 6, 6]])
    assert human_lays(match.events)[0] == laid  # in effect: the new move
    assert human_lays(events)[:2] == [Lay(1, []), laid]  # recorded: both, and the undos
    assert sum(isinstance(e, Undo) for e in events) == 2  # p1's pass, p3's reply
    audits_clean(log, finished=True)


def test_undo_before_any_move_of_a_person_takes_nothing_back(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "--log", str(log), input="undo\nquit\n")
    assert res.exit_code == 0
    assert "nothing to take back" in res.stdout
    _, events = replayed(log)
    assert not any(isinstance(e, Undo) for e in events)
    assert [e.seat for e in events if isinstance(e, Lay)] == [2, 3]  # the bots' moves stand


def test_quit_keeps_the_log_and_exits_0(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "--log", str(log), input="quit\n")
    assert res.exit_code == 0
    n = len(replayed(log)[1])
    assert res.stderr.strip() == (f"left the game; log kept: {log} ({n} events); "
                                  f"go on with: kabucli resume {shlex.quote(str(log))}")
    audits_clean(log, finished=False)


def test_help_and_table_commands_record_nothing(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    run(*HUMAN_GAME, "--log", str(log), input="quit\n")
    before = read_log(log, games.event_types)
    log.unlink()
    res = run(*HUMAN_GAME, "--log", str(log), input="help\ntable\nt\nquit\n")
    assert res.exit_code == 0
    assert "undo" in res.stdout and "Cards are their values 1 to 10" in res.stdout
    # the same records (their bytes hold when each input was entered, which differs)
    after = read_log(log, games.event_types)
    assert (after.events, after.inputs) == (before.events, before.inputs)


# -- refused moves at the prompt -----------------------------------------------------------

def test_mistyped_and_illegal_moves_are_refused_and_asked_again(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    run(*HUMAN_GAME, "--log", str(log), input="quit\n")
    n = len(replayed(log)[1])
    log.unlink()
    res = run(*HUMAN_GAME, "--log", str(log),
              input="foo\n1-2-3\n1-1-1\np2 pass\ndeal 1-2-3\nquit\n")
    assert res.exit_code == 0
    refusals = [line for line in res.stdout.splitlines() if "refused:" in line]
    assert len(refusals) == 5
    assert "'foo' is not a Dare move" in refusals[0]
    assert "set 1-2-3 adds up to 6, ones digit 6, not the reference 7" in refusals[1]
    assert "adds up to 3" in refusals[2]
    assert "p2 best is a bot seat" in refusals[3]
    assert "waiting for p1 to lay sets matching 7, not for 'deal 1-2-3'" in refusals[4]
    assert res.stdout.count(PROMPT) == 6  # asked again after every refusal
    assert len(replayed(log)[1]) == n  # nothing recorded
    audits_clean(log, finished=False)


# -- resume ------------------------------------------------------------------------------

def quit_game(tmp_path: Path, name: str = "g.kbl") -> Path:
    log = tmp_path / name
    res = run(*HUMAN_GAME, "-r", "rounds=3", "--log", str(log), input="pass\nquit\n")
    assert res.exit_code == 0
    return log


def test_resume_finishes_a_quit_game(tmp_path: Path) -> None:
    log = quit_game(tmp_path)
    n = len(replayed(log)[1])
    res = run("resume", str(log), input="pass\n" * 5)
    assert res.exit_code == 0, res.stderr
    assert "final chips" in res.stdout
    match, events = replayed(log)
    assert match.over and len(events) > n
    assert f"{n + 1:>4} " in res.stdout  # numbering goes on from the log
    audits_clean(log, finished=True)


def test_resume_with_a_script_and_json(tmp_path: Path) -> None:
    log = quit_game(tmp_path, "g.jsonl")
    res = run("resume", str(log), "--script", "-", "--json", input="pass\n" * 5)
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["outcome"] is not None
    audits_clean(log, finished=True)


def test_resume_cuts_a_truncated_last_record_and_plays_on(tmp_path: Path) -> None:
    for name in ("g.kbl", "g.jsonl"):
        log = quit_game(tmp_path, name)
        n = len(replayed(log)[1])
        torn = log.read_bytes()[:-3]
        log.write_bytes(torn)
        good = read_log(log, games.event_types, strict=False).good_bytes
        res = run("resume", str(log), input="pass\n" * 5)
        assert res.exit_code == 0, res.stderr
        warning = res.stderr.strip().splitlines()[0]
        assert warning.startswith(f"warning: {log}: event {n}: truncated")
        side = Path(f"{log}.torn-1")
        assert warning.endswith(f"this torn last record was moved to {side} and play goes on "
                                f"after event {n - 1}")
        assert side.read_bytes() == torn[good:]
        assert f"{n:>4} " in res.stdout  # the cut event's number is used again
        audits_clean(log, finished=True)


def test_resume_of_a_finished_game_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    assert run("play", "dare", "-s", "1", "-b", "all=best", "-r", "rounds=1",
               "--log", str(log), "-q").exit_code == 0
    for tail in (b"", b"\x00\x01\x02"):  # whole, or with a damaged tail that stays
        log.write_bytes(log.read_bytes() + tail)
        before = log.read_bytes()
        res = run("resume", str(log))
        assert res.exit_code == 1
        assert res.stderr.strip() == f"error: {log}: the game in this log is already over"
        assert log.read_bytes() == before


# -- a real table ------------------------------------------------------------------------

def test_physical_script_referees_a_round(tmp_path: Path) -> None:
    script = tmp_path / "table.txt"
    script.write_text("deal 1-7-5\n?\npass\np3 sets 1-3-9 3-5-5\npass\nshow 2-3-4\n")
    log = tmp_path / "table.kbl"
    res = run("play", "dare", "--physical", "-r", "rounds=1", "--script", str(script),
              "--log", str(log))
    assert res.exit_code == 0, res.stderr
    assert "referee mode" in res.stdout
    assert "p2 to lay sets matching 3: lay 0-3 sets" in res.stdout  # `?` at a real table
    match, _ = replayed(log)
    assert match.over
    assert match.outcome() == {
        "balances": {"p1": 49, "p2": 49, "p3": 52}, "pot": 0, "leaders": ["p3"],
        "rounds": [{"round": 1, "reason": "showdown", "winners": ["p3"]}]}
    audits_clean(log, finished=True)


def test_a_script_line_of_blanks_or_an_indented_note_is_no_move(tmp_path: Path) -> None:
    """A line of spaces or tabs, or a note indented ('   # p2 thinks'), is skipped as a blank
    line is: never a blank move (Dare's pass) played for the seat to act (probe EN: a
    mutant that kept the blanks before a note survived)."""
    script = tmp_path / "table.txt"
    script.write_text("deal 1-7-5\n   # p2 thinks\n \t \npass  # p2 lets it go\n"
                      "p3 sets 1-3-9 3-5-5\n\t# p1\npass\nshow 2-3-4\n")
    log = tmp_path / "table.kbl"
    res = run("play", "dare", "--physical", "-r", "rounds=1", "--script", str(script),
              "--log", str(log))
    assert res.exit_code == 0, res.stderr
    match, _ = replayed(log)
    assert match.over
    assert match.outcome()["balances"] == {"p1": 49, "p2": 49, "p3": 52}


def test_physical_script_saved_with_a_byte_order_mark_plays(tmp_path: Path) -> None:
    # an editor that saves UTF-8 with a BOM (Windows Notepad) and CRLF line ends: the mark
    # is no part of the first move, from a file or from standard input
    text = "\ufeffdeal 1-7-5\r\npass\r\np3 sets 1-3-9 3-5-5\r\npass\r\nshow 2-3-4\r\n"
    script = tmp_path / "table.txt"
    script.write_bytes(text.encode("utf-8"))
    for i, (source, stdin) in enumerate(((str(script), None), ("-", text))):
        log = tmp_path / f"table{i}.kbl"
        res = run("play", "dare", "--physical", "-r", "rounds=1", "--script", source,
                  "--log", str(log), input=stdin)
        assert res.exit_code == 0, res.stderr
        match, _ = replayed(log)
        assert match.over
        audits_clean(log, finished=True)


def test_physical_refuses_a_show_that_breaks_the_deck(tmp_path: Path) -> None:
    script = tmp_path / "table.txt"
    script.write_text("deal 1-1-1\npass\np3 sets 1-3-9 3-5-5\n")
    log = tmp_path / "table.kbl"
    res = run("play", "dare", "--physical", "--script", str(script), "--log", str(log))
    assert res.exit_code == 1
    line = res.stderr.strip()
    assert line.startswith(f"error: {script}:3: 'p3 sets 1-3-9 3-5-5': ")
    assert line.endswith(f"log kept: {log} ({len(replayed(log)[1])} events); "
                         f"go on with: kabucli resume {shlex.quote(str(log))}")


# -- the seed, kept from the people at the table until the match ends (D3) -------------------

SECRET_SEED = "918273645546372"  # 15 digits: in the output only if it is shown


def test_a_person_is_never_shown_the_seed_before_the_match_ends_in_any_game(
        tmp_path: Path) -> None:
    """The shuffle is public and fixed, so the seed gives every card away (``kabucli deal``):
    with a person at a seat of a seeded game, ``play`` (and ``resume``) show it only once the
    match is over, in every registered game, with ``--commit`` too."""
    empty = tmp_path / "none.txt"
    empty.write_text("# no move: the game stops at the person's first turn\n")
    for name in games.names():
        g = games.get(name)
        bots = [f"--bot={p}=random" for p in range(2, g.default_players + 1)]
        log = tmp_path / f"{name}.kbl"
        res = run("play", name, "--seed", SECRET_SEED, *bots, "--script", str(empty),
                  "--log", str(log), "--commit")
        assert res.exit_code == 0, res.output
        assert f"{g.title} · seed shown at the end · log: {log}" in res.stdout
        assert "the seed is shown when the match ends, checked against it" in res.stdout
        assert SECRET_SEED not in res.output, name
        again = run("resume", str(log), "--script", str(empty))
        assert again.exit_code == 0, again.output
        assert "seed shown at the end" in again.stdout and SECRET_SEED not in again.output


def test_the_seed_kept_from_a_person_is_shown_when_the_match_ends(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("pass\n")  # p1's one move of a one-round match
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "--seed", SECRET_SEED, "-b", "2=best", "-b", "3=best", "-r",
              "rounds=1", "--script", str(script), "--log", str(log), "--commit")
    assert res.exit_code == 0, res.output
    header = read_log(log, games.event_types).header
    assert header.seed == int(SECRET_SEED) and header.salt is not None  # the log records it
    lines = res.stdout.splitlines()
    shown = [i for i, line in enumerate(lines) if SECRET_SEED in line]
    assert len(shown) == 1 and lines[shown[0]] == (
        f"seed {SECRET_SEED} (salt {header.salt}): it matches the commitment "
        f"{header.commit[:16]}… printed before the deal")
    assert lines[shown[0] + 1].startswith("log: ")  # last, after the outcome
    assert any("match over" in line for line in lines[:shown[0]])


def test_with_json_the_seed_commitment_is_said_on_stderr_and_stdout_is_the_document(
        tmp_path: Path) -> None:
    """play --commit --json: the commitment to write down goes to stderr, beside the document,
    so stdout stays one JSON document (probe EK: a mutant printing it on stdout survived)."""
    script = tmp_path / "moves.txt"
    script.write_text("pass\n")
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "--seed", SECRET_SEED, "-b", "2=best", "-b", "3=best", "-r",
              "rounds=1", "--script", str(script), "--log", str(log), "--commit", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["seed"] == int(SECRET_SEED) and doc["stopped"] is None
    header = read_log(log, games.event_types).header
    assert f"seed commitment: {header.commit}" in res.stderr.splitlines()


def test_undo_at_the_prompt_works_with_quiet_and_json(tmp_path: Path) -> None:
    """A person playing --quiet or --json (nothing drawn) may still take a move back: the
    match keeps its events whenever a person plays (probe EK: a mutant dropping them when
    nothing is drawn survived, and undo said 'nothing to take back')."""
    for flag in ("--quiet", "--json"):
        log = tmp_path / f"g{flag}.kbl"
        res = run(*HUMAN_GAME, "--log", str(log), flag, input="pass\nundo\nquit\n")
        assert res.exit_code == 0, res.output
        assert "took back 2 moves: p1 pass, " in res.output and "nothing to take" not in res.output
        assert any(isinstance(e, Undo) for e in replayed(log)[1])


def test_a_person_among_bots_is_never_drawn_a_bots_hand() -> None:
    """With a person at the table, the table is drawn only for them (the bots' hands hidden):
    never the whole table drawn at a milestone (a round's deal) as for bots alone, which shows
    every hand (probe EK: a mutant drawing it with a person too survived)."""
    res = run(*HUMAN_GAME, "-r", "rounds=2", "--no-log", input="pass\n" * 20)
    assert res.exit_code == 0, res.output
    bot_rows = [line for line in res.stdout.splitlines()
                if line.startswith(("│ p2 best", "│ p3 random")) and line.count("│") == 6]
    assert bot_rows
    for line in bot_rows:
        hand = line.split("│")[3].split()  # (seat, chips, hand, sets laid, status)
        assert all(card == "??" for card in hand), line


def test_the_prompt_draws_the_table_again_only_when_asked_or_after_a_move() -> None:
    """'?' and a refused line leave the table where it is (drawn again only by 'table' or
    once something happened): probe EK, a mutant drawing it before every prompt survived."""
    res = run(*HUMAN_GAME, "--no-log", input="?\nzzz\ntable\nquit\n")
    assert res.exit_code == 0, res.output
    assert "refused: " in res.stdout and "legal move" in res.stdout
    assert res.stdout.count("╭─ Dare") == 2  # the first prompt's, and table's


def test_a_line_that_is_only_a_note_at_the_prompt_is_no_move() -> None:
    """'# ...' typed alone is a note, not a blank line: in Kazu-Tori a blank line flips, and
    the note flipped a card the person never chose; in Dare it was refused as an empty move
    (probe EK: a mutant taking the note's empty line as a move survived)."""
    res = run("play", "kazu-tori", "--seed", "3", "--bot", "2=sharp", "--bot", "3=sharp",
              "--no-log", input="# my note\nquit\n")
    assert res.exit_code == 0, res.output
    assert "p1 flips" not in res.stdout and "refused" not in res.output
    assert res.stdout.count("p1 (to flip saying one) > ") == 2  # asked again, nothing played
    dare = run(*HUMAN_GAME, "--no-log", input="# my note\nquit\n")
    assert dare.exit_code == 0 and "refused" not in dare.output


def test_a_command_of_the_longest_line_a_script_may_hold_is_still_a_command(
        tmp_path: Path) -> None:
    """A line of exactly MAX_LINE characters is read (one longer is refused): Kabu-Tsukuri's
    'best' with words after it, so long, is answered, not refused as a move (probe EK: a
    mutant taking commands only below MAX_LINE survived)."""
    from kabucli.notation import MAX_LINE

    script = tmp_path / "moves.txt"
    script.write_text("best " + "x" * (MAX_LINE - 5) + "\n")
    res = run("play", "kabu-tsukuri", "--seed", "3", "--bot", "2=best", "--bot", "3=best",
              "--no-log", "--script", str(script))
    assert res.exit_code == 0, res.output
    assert "1. " in res.stdout and "the game waits for p1 to lay three rows" in res.stderr


def test_a_typed_line_of_exactly_max_line_characters_is_read() -> None:
    """At the prompt (standard input no terminal), a line of MAX_LINE characters is taken and
    only a longer one refused (probe EK: a mutant refusing it at MAX_LINE survived)."""
    from kabucli.notation import MAX_LINE

    res = run(*HUMAN_GAME, "--no-log", input=" " * (MAX_LINE - 4) + "quit\n")
    assert res.exit_code == 0, res.output
    assert "left the game" in res.stderr and "at most" not in res.output
    longer = run(*HUMAN_GAME, "--no-log", input=" " * (MAX_LINE - 3) + "quit\nquit\n")
    assert longer.exit_code == 0
    assert f"refused: a move is at most {MAX_LINE} characters, not {MAX_LINE + 1}" in longer.stdout


def test_a_refused_script_line_of_100_characters_is_quoted_whole_and_a_longer_one_cut(
        tmp_path: Path) -> None:
    """A script's refused line is quoted up to 100 characters: one of 100 whole, with no '…'
    after the quote; one of 101 cut, the '…' saying so (probe EK: a mutant marking a line of
    exactly 100 as cut survived)."""
    for length, after in ((100, ": "), (101, "…: ")):
        line = "z" * length
        script = tmp_path / f"moves{length}.txt"
        script.write_text(line + "\n")
        res = run(*HUMAN_GAME, "--no-log", "--script", str(script))
        assert res.exit_code == 1
        assert res.stderr.startswith(f"error: {script}:1: {line[:100]!r}{after}"), res.stderr


def test_bots_alone_are_shown_the_seed_at_once() -> None:
    res = run("play", "dare", "--seed", "7", "--bot", "all=best", "-r", "rounds=1", "--no-log")
    assert res.exit_code == 0
    assert res.stdout.splitlines()[0] == "Dare · seed 7 · no log"
    assert "seed shown at the end" not in res.stdout


def test_a_person_who_gives_the_seed_is_told_it_deals_every_card(tmp_path: Path) -> None:
    """Hiding the seed does not hide it from the person who typed it: play says so, before
    the game, and says nothing when the seed was drawn or only bots play."""
    script = tmp_path / "moves.txt"
    script.write_text("pass\n")
    note = "note: the seed you gave deals every card"
    res = run("play", "dare", "--seed", SECRET_SEED, "-b", "2=best", "-b", "3=best", "-r",
              "rounds=1", "--script", str(script), "--no-log")
    assert res.exit_code == 0 and res.stdout.startswith(note) and note not in res.stderr
    drawn = run("play", "dare", "-b", "2=best", "-b", "3=best", "-r", "rounds=1",
                "--script", str(script), "--no-log")
    assert drawn.exit_code == 0 and note not in drawn.output
    bots = run("play", "dare", "--seed", "7", "--bot", "all=best", "-r", "rounds=1", "--no-log")
    assert bots.exit_code == 0 and note not in bots.output


def test_quiet_and_json_say_nothing_of_the_seed_the_person_gave(tmp_path: Path) -> None:
    """--quiet shows only the result, --json only its document: the note about a typed seed
    (play's first line without them) is left out of both (probe EK: a mutant showing it
    with --quiet survived)."""
    script = tmp_path / "moves.txt"
    script.write_text("pass\n")
    note = "the seed you gave deals every card"
    for flag in ("--quiet", "--json"):
        res = run("play", "dare", "--seed", SECRET_SEED, "-b", "2=best", "-b", "3=best", "-r",
                  "rounds=1", "--script", str(script), "--no-log", flag)
        assert res.exit_code == 0 and res.stdout.strip(), res.output
        assert note not in res.output


def test_json_of_a_game_left_unfinished_is_a_document_too(tmp_path: Path) -> None:
    """play --json and quit printed nothing on stdout (a probe, H9): a program reading it
    got no document. It gets one, unfinished, without the seed kept from the person."""
    log = tmp_path / "g.kbl"
    res = run(*HUMAN_GAME, "--log", str(log), "--json", input="quit\n")
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert doc == {"seed": None, "log": str(log), "events": doc["events"], "outcome": None,
                   "stopped": "left the game"}
    assert doc["events"] > 0 and "left the game; log kept" in res.stderr
    bots = run("play", "dare", "--seed", "7", "--bot", "all=best", "-r", "rounds=1",
               "--no-log", "--json")
    assert json.loads(bots.stdout)["seed"] == 7  # a finished game, bots alone: as before


def test_json_of_a_finished_game_has_the_same_keys_as_an_unfinished_one() -> None:
    """``stopped`` was left out of a finished game's document (a program reading
    ``doc["stopped"]`` to learn whether the game went to its end got a KeyError there): it is
    null, as sim's and tournament's ``stopped`` is when nothing stopped the run."""
    res = run("play", "dare", "--seed", "7", "--bot", "all=best", "-r", "rounds=1",
              "--no-log", "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert set(doc) == {"seed", "log", "events", "outcome", "stopped"}
    assert doc["stopped"] is None and doc["outcome"] is not None


def test_bots_alone_are_played_keeping_no_events_but_for_a_python_class_bot(
        tmp_path: Path) -> None:
    """What play runs for bots alone (cli.table._drive) keeps no events in memory, as kabucli
    sim does: nobody takes a move back, and kept they grew with the match (its memory, and the
    time per event of a long match). A Python class bot's host is sent the events since its
    last turn: then they are kept."""
    from kabucli.cli import table
    from kabucli.log import SeatInfo
    from kabucli.session import start

    (tmp_path / "mine.py").write_text("from kabucli.games.dare.bots import RandomBot as Mine\n")
    for first, kept in (("bot:random", False), (f"bot:py:{tmp_path / 'mine.py'}:Mine", True)):
        seats = [SeatInfo("b1", first), SeatInfo("b2", "bot:random"),
                 SeatInfo("b3", "bot:best")]
        log = tmp_path / f"{kept}.kbl"
        sess = start(GAME, GAME.Rules(rounds=3), seats, 5, log, None, durable=False)
        table._drive(sess, None, True, False)
        m = sess.match
        assert m.over and m.logged == len(read_log(log, games.event_types).events) > 30
        assert len(m.events) == (m.logged if kept else 0)


def test_bots_alone_drawn_keep_the_events_their_lines_are_worked_out_from() -> None:
    """play with bots alone, drawn (not --quiet, not --json): each event's line is worked
    out from the events before it (Kazu-Tori's flips say what they turned, Yatchaba's
    guesses their chance), so the match keeps its events; kept none, the lines were the bare
    notation ('p1 flip')."""
    flips = run("play", "kazu-tori", "--players", "2", "--bot", "1=random", "--bot",
                "2=random", "--seed", "5", "--no-log")
    assert flips.exit_code == 0, flips.output
    assert "p1 turns 8, says one" in flips.output
    assert not any(line.rstrip().endswith(" flip") for line in flips.output.splitlines())
    guesses = run("play", "yatchaba", "--players", "2", "--bot", "1=random", "--bot",
                  "2=random", "--seed", "5", "--no-log")
    assert guesses.exit_code == 0, guesses.output
    assert "p1 guesses Mar Jun Jul, chance 4/1081 (0.370%, 1 in 270)" in guesses.output
    assert "p1 passes (1 chip), pass 1 of 2 in this game" in guesses.output


def test_the_prompt_names_a_named_seat_as_the_table_does() -> None:
    """--player Ann: the table shows 'p1 Ann', so does the prompt (who is asked, and what the
    game waits for); at a real table the referee is asked for the seat's move by name too."""
    res = run(*HUMAN_GAME, "--player", "A[b]n", "--no-log", input="quit\n")
    assert "│ p1 A[b]n " in res.stdout
    # the seat to act said once ('p1 A[b]n (p1 A[b]n to lay ...' said it twice: probe AK)
    assert "p1 A[b]n (to lay sets matching 7) > " in res.stdout
    assert "(p1 A[b]n to lay" not in res.stdout
    res = run("play", "dare", "--physical", "-p", "Ann", "-p", "Bob", "-p", "Cy", "--no-log",
              input="deal 7-7-3\n?\nquit\n")
    assert "referee (p2 Bob to lay sets matching 7) > " in res.stdout
    assert "p2 Bob to lay sets matching 7: " in res.stdout  # `?` says it so too
    # the seat said once where the game's words go on with a comma (Uno Dare's hit seat:
    # 'p2 Me (p2 Me, hit by dare #4, ...)' said it twice: probe BP)
    res = run("play", "uno-dare", "--seed", "4", "--bot", "1=strong", "--player", "2=Me",
              "--no-log", input="quit\n")
    assert "p2 Me (hit by dare #4, to try it or decline (draw 2)) > " in res.stdout
    assert "(p2 Me, hit" not in res.stdout


def test_script_moves_left_when_the_match_ends_are_named_in_a_note(tmp_path: Path) -> None:
    """A script with more moves than the match takes plays the match to its end (exit 0, the
    log whole) and says, on stderr, which of its moves were not played: the first, by its line,
    and how many follow. One left is said in the singular; none, nothing."""
    script = tmp_path / "moves.txt"
    log = tmp_path / "g.kbl"
    script.write_text("pass\n" * 5 + "# a note\n\n1-2-3 4-5-6\n")
    res = run(*HUMAN_GAME, "-r", "rounds=1", "--script", str(script), "--log", str(log))
    assert res.exit_code == 0, res.stderr
    assert replayed(log)[0].over
    played = len(human_lays(replayed(log)[1]))
    assert played == 1  # rounds=1: p1 lays once
    assert res.stderr.strip() == (f"note: {script}:2: 'pass': the match is over: this move and "
                                  "the 4 moves after it were not played")
    script.write_text("pass\n1-2-3 4-5-6\n")
    res = run(*HUMAN_GAME, "-r", "rounds=1", "--script", str(script), "--log",
              str(tmp_path / "h.kbl"), "--json")
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["outcome"] is not None
    assert res.stderr.strip() == (f"note: {script}:2: '1-2-3 4-5-6': the match is over: this "
                                  "move was not played")
    script.write_text("pass\n# nothing more\n")
    res = run(*HUMAN_GAME, "-r", "rounds=1", "--script", str(script), "--log",
              str(tmp_path / "i.kbl"))
    assert res.exit_code == 0 and res.stderr == ""


def test_a_script_that_ends_with_quit_after_the_match_gets_no_note(tmp_path: Path) -> None:
    """'quit' left in a script when the match ends is no move left unplayed: a script may end
    with one to be sure it stops, and what follows a quit would never be played either. The
    note names only the moves before it. (It said "'quit': ... this move was not played".)"""
    script = tmp_path / "moves.txt"
    script.write_text("pass\nquit\n")
    res = run(*HUMAN_GAME, "-r", "rounds=1", "--script", str(script), "--no-log")
    assert res.exit_code == 0 and res.stderr == ""
    script.write_text("pass\npass\nexit\npass\n")
    res = run(*HUMAN_GAME, "-r", "rounds=1", "--script", str(script), "--no-log")
    assert res.exit_code == 0
    assert res.stderr.strip() == (f"note: {script}:2: 'pass': the match is over: this move "
                                  "was not played")


def test_the_replay_of_a_game_quit_halfway_ends_on_its_table_and_how_to_go_on(
        tmp_path: Path) -> None:
    """A replay of a log whose game is not over (quit, or cut short by a crash) ended on its
    last event's line: no table, nothing said of the game going on. It ends on the table as
    it stands, what it waits for, and the resume command; a damaged log does not say so."""
    log = tmp_path / "half way.kbl"
    res = run("play", "dare", "--physical", "-n", "3", "--log", str(log),
              input="deal 1-7-5\n1-3-9\nquit\n")
    assert res.exit_code == 0, res.output
    res = run("replay", str(log))
    assert res.exit_code == 0, res.output
    after = res.stdout.split("p2 lays 1-3-9")[1]  # the last event: the table, the line
    assert "Dare · round 1/10" in after and "to play" in after, after
    assert " ".join(after[after.index("the log ends here"):].split()) == (
        "the log ends here, before the game does (waiting for p3 to lay sets matching 3); go "
        f"on with: kabucli resume {shlex.quote(str(log))}")
    whole = log.read_bytes()
    log.write_bytes(whole[:-3])  # a torn tail: shown up to where it stops, said so
    res = run("replay", str(log))
    assert "the log ends here" not in res.stdout


def _resumed(tmp_path: Path, typed: str, events: int) -> list[str]:
    """The lines a real Dare table's resume starts with, from the one saying it resumes
    after ``events`` events, the game having been quit after ``typed``."""
    log = tmp_path / "table.kbl"
    res = run("play", "dare", "--physical", "-n", "3", "--log", str(log),
              input=f"{typed}quit\n")
    assert res.exit_code == 0, res.output
    res = run("resume", str(log), input="quit\n")
    assert res.exit_code == 0, res.output
    lines: list[str] = res.stdout.splitlines()
    return lines[lines.index(f"resumed after event {events}:"):]


def test_a_resumed_game_says_where_its_log_left_off(tmp_path: Path) -> None:
    """resume drew the table and the prompt, nothing of where the game had got to: a referee
    back after a crash had to work out from the table which move was recorded last."""
    lines = _resumed(tmp_path, "deal 1-7-5\n1-3-9\n", 5)
    assert lines[1].split() == ["5", "p2", "p2", "lays", "1-3-9:", "is", "out"], lines[:3]
    assert "╭─ Dare · round 1/10" in lines[2]  # then the table


def test_a_game_resumed_after_an_undo_says_what_the_undo_took_back(tmp_path: Path) -> None:
    """A log whose last event is an undo was resumed 'after event 6:' drawn as '6 referee
    undo' alone, which says nothing of the move last recorded (the one taken back); replay
    draws the same event 'undo (takes back event 5: p2 sets 1-3-9)'."""
    lines = _resumed(tmp_path, "deal 1-7-5\n1-3-9\nundo\n", 6)
    assert lines[1].split()[:3] == ["6", "referee", "undo"], lines[:3]
    assert "(takes back event 5: p2 sets 1-3-9)" in lines[1], lines[:3]


def test_the_resume_command_said_for_a_log_named_with_a_leading_dash_runs(
        tmp_path: Path, monkeypatch: Any) -> None:
    """A log named '-half.kbl' (play --log -half.kbl) was said to go on with 'kabucli resume
    -half.kbl', at the quit and at the end of its replay, which click reads as options ('No
    such option: -h'); the path is said as './-half.kbl', and each command said runs."""
    monkeypatch.chdir(tmp_path)
    res = run("play", "dare", "--physical", "-n", "3", "--log", "-half.kbl",
              input="deal 1-7-5\n1-3-9\nquit\n")
    assert res.exit_code == 0, res.output
    said = [res.stderr.split("go on with: ")[1]]
    res = run("replay", "./-half.kbl")
    assert res.exit_code == 0, res.output
    said.append(" ".join(res.stdout.split("go on with: ")[1].split()))
    for command in said:
        assert command.strip() == "kabucli resume ./-half.kbl", command
        args = shlex.split(command)[1:]
        res = run(*args, input="quit\n")
        assert res.exit_code == 0, res.output
        assert "resumed after event 5:" in res.stdout


def test_the_replay_of_an_unfinished_log_with_a_bot_of_your_own_says_to_name_it_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay of an unfinished log whose seat 2 is a bot of the user's own ended 'go on
    with: kabucli resume LOG', which resume refuses (it never starts a program a log names);
    the line names the seat again as resume asks, '--bot 2=cmd:COMMAND'."""
    monkeypatch.chdir(tmp_path)  # (a long tmp_path's name is folded across lines)
    log = Path("own.jsonl")
    res = run("play", "dare", "--physical", "-n", "3", "--log", str(log),
              input="deal 1-7-5\n1-3-9\nquit\n")
    assert res.exit_code == 0, res.output
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    header["seats"][1]["control"] = "bot:cmd:python mybot.py"
    log.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    res = run("replay", str(log))
    assert res.exit_code == 0, res.output
    said = " ".join(res.stdout.split("go on with: ")[1].split())
    assert said == f"kabucli resume {shlex.quote(str(log))} --bot 2=cmd:COMMAND", said


def test_the_json_replay_of_a_game_quit_halfway_says_what_the_table_waits_for(
        tmp_path: Path) -> None:
    """replay --json of a log whose game is not over gave a null outcome and nothing of what
    the table waits for, which the text replay ends saying: ``"waiting"`` holds it (the same
    words), null once the game is over. With --at, it is the state shown's."""
    log = tmp_path / "half.kbl"
    res = run("play", "dare", "--physical", "-n", "3", "--log", str(log),
              input="deal 1-7-5\n1-3-9\nquit\n")
    assert res.exit_code == 0, res.output
    doc = json.loads(run("replay", str(log), "--json").stdout)
    assert doc["outcome"] is None and doc["violation"] is None and doc["error"] is None
    assert doc["waiting"] == "p3 to lay sets matching 3"
    assert f"(waiting for {doc['waiting']})" in " ".join(run("replay", str(log)).stdout.split())
    assert json.loads(run("replay", str(log), "--json", "--at", "4").stdout)["waiting"] == (
        "p2 to lay sets matching 3")
    # where the log stops at a broken rule: what the table waited for after the last event
    # shown, beside the violation (README says so)
    text = tmp_path / "half.jsonl"
    assert run("log", "convert", str(log), str(text)).exit_code == 0
    lines = text.read_text().splitlines()
    assert '"sets":[[1,3,9]]' in lines[-1], lines[-1]
    text.write_text("\n".join([*lines[:-1], lines[-1].replace("[[1,3,9]]", "[[1,2,3]]")])
                    + "\n")
    doc = json.loads(run("replay", str(text), "--json").stdout)
    assert doc["violation"]["index"] == len(lines) - 1
    assert doc["waiting"] == "p2 to lay sets matching 3"
    whole = tmp_path / "whole.kbl"
    res = run("play", "dare", "--seed", "3", "--bot", "all=random", "-r", "rounds=1",
              "--log", str(whole), "--quiet")
    assert res.exit_code == 0, res.output
    doc = json.loads(run("replay", str(whole), "--json").stdout)
    assert doc["outcome"] is not None and doc["waiting"] is None
