"""Kabu-Tsukuri through the command line: rules, solve, play with bots, people typing and
an external program, a physical table, replay, audit, resume, log convert, completion."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.completion import complete_game
from kabucli.games.kabu_tsukuri.rules import GAME, Arrange
from kabucli.log import read_log, to_builtins
from kabucli.render.html import page_data

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
HAND = ["1", "1", "3", "4", "5", "7", "9", "10", "10", "12"]


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env=ENV)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def test_rules_kabu_tsukuri_documents_the_notation_and_every_house_rule() -> None:
    res = run("rules", "kabu-tsukuri")
    assert res.exit_code == 0
    for text in ("1-2-3 4-5-6 7-8-9 aside 12", "p3 shows 5-6-7", "p3 bets", "best",
                 "ranking", "extended | kabu", "dealer", "rotate | winner", "bet", "chips",
                 "hands", "Doshippin", "Kudari", "10-11-12", "random", "best"):
        assert text in res.stdout, text
    data = json.loads(run("rules", "kabu-tsukuri", "--json").stdout)
    assert {r["name"] for r in data["house_rules"]} == {"ranking", "dealer", "bet", "chips",
                                                        "hands"}
    assert {b["kind"] for b in data["bots"]} >= {"random", "best"}


def test_solve_prints_the_best_arrangements_in_a_table() -> None:
    res = run("solve", "kabu-tsukuri", *HAND, "--top", "3")
    assert res.exit_code == 0, res.stderr
    assert "best arrangements · 4 players · ranking extended" in res.stdout
    assert "Doshippin" in res.stdout and "Raijin" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines()) <= 100


def test_solve_at_80_columns_puts_each_row_of_an_arrangement_on_a_line() -> None:
    """An 80-column terminal drew each arrangement listed, a row's label 'row 1: win · tie'
    beside its cards ('row 1: win · tie 8-9-10', which reads as a tie), its name and chances
    on lines of their own. It is a table there: a row a line, its cards, name and chances."""
    res = runner.invoke(app, ["solve", "kabu-tsukuri", *HAND, "--top", "2", "--json"],
                        env=ENV)
    plans = json.loads(res.stdout)["arrangements"]
    res = runner.invoke(app, ["solve", "kabu-tsukuri", *HAND, "--top", "2"],
                        env={**ENV, "COLUMNS": "80"})
    assert res.exit_code == 0, res.stderr
    lines = res.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "tie" in lines[3] and "win" in lines[3], lines[:5]  # (the table's header)
    for i, plan in enumerate(plans, start=1):
        for r, (row, name, w, tie) in enumerate(zip(plan["rows"], plan["names"], plan["win"],
                                                   plan["tie"], strict=True), start=1):
            cells = [str(i)] if r == 1 else []
            cells += [str(r), "-".join(row), name, f"{w:.0%}", f"{tie:.0%}"]
            if r == 1:
                cells += ["-".join(plan["aside"]) or "", f"{plan['expected']:+.3f}"]
            want = [c for c in cells if c]
            assert any([c.strip() for c in line.split("│") if c.strip()] == want
                       for line in lines), (want, res.stdout)


@pytest.mark.parametrize("columns", [20, 22, 24, 25])
def test_solve_in_a_very_narrow_terminal_keeps_every_share_whole(columns: int) -> None:
    """Too narrow for either table (20-25 columns), solve lists each arrangement, a row's
    cards, name and shares under it: the shares' line ('win 96% · tie 1%') did not wrap with
    the cards it was joined to, and was cut, 'win 96% · t…', losing the tie share."""
    plans = json.loads(run("solve", "kabu-tsukuri", *HAND, "--top", "2", "--json").stdout)
    res = runner.invoke(app, ["solve", "kabu-tsukuri", *HAND, "--top", "2"],
                        env={**ENV, "COLUMNS": str(columns)})
    assert res.exit_code == 0, res.stderr
    assert "…" not in res.stdout, res.stdout
    assert max(len(line) for line in res.stdout.splitlines()) <= columns
    words = " ".join(res.stdout.split())
    for plan in plans["arrangements"]:
        for w, tie in zip(plan["win"], plan["tie"], strict=True):
            assert f"win {w:.0%} · tie {tie:.0%}" in words, (w, tie, res.stdout)


def test_solve_json_gives_rows_names_chances_and_expected_chips() -> None:
    res = run("solve", "kabu-tsukuri", *HAND, "--json", "--top", "2", "-n", "3",
              "--rule", "ranking=kabu")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["players"] == 3 and data["ranking"] == "kabu"
    best, second = data["arrangements"]
    assert best["expected"] >= second["expected"]
    laid = sorted(int(c) for r in best["rows"] for c in r) + [int(c) for c in best["aside"]]
    assert sorted(laid) == sorted(int(c) for c in HAND)
    assert len(best["names"]) == len(best["win"]) == len(best["tie"]) == 3


def test_solve_lists_five_arrangements_unless_top_says_and_refuses_more_than_50() -> None:
    """`solve --help`: --top N, [default: 5], 1 to 50."""
    assert "[default: 5]" in run("solve", "--help").stdout
    data = json.loads(run("solve", "kabu-tsukuri", *HAND, "--json").stdout)
    assert len(data["arrangements"]) == 5
    assert len(json.loads(run("solve", "kabu-tsukuri", *HAND, "--json", "--top", "50")
                          .stdout)["arrangements"]) == 50
    for top in ("0", "51"):
        res = run("solve", "kabu-tsukuri", *HAND, "--top", top)
        assert res.exit_code == 2 and "--top" in res.stderr


def test_solve_json_of_a_game_without_a_solver_is_an_error_document() -> None:
    """docs/reports.md: "only Kabu-Tsukuri has a solver; another game is an error document"."""
    res = run("solve", "dare", "1", "2", "3", "--json")
    assert res.exit_code == 1
    assert json.loads(res.stdout) == {"error": "Dare has no solver (kabu-tsukuri has one)"}


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script_in_completions_byte_for_byte(shell: str) -> None:
    """`completion SHELL`: "the files in completions/ are these" (no newline added)."""
    root = Path(__file__).resolve().parent.parent
    res = run("completion", shell)
    assert res.exit_code == 0
    assert res.stdout == (root / "completions" / f"kabucli.{shell}").read_text(encoding="utf-8")


def test_solve_reads_nine_cards_as_five_players() -> None:
    res = run("solve", "kabu-tsukuri", *HAND[:9], "--json", "--top", "1")
    data = json.loads(res.stdout)
    assert data["players"] == 5 and data["arrangements"][0]["aside"] == []


def test_solve_refuses_a_hand_that_cannot_be_dealt_in_one_line() -> None:
    for args, words in [
        (HAND[:8], "a hand is 10 cards, not 8"),
        (["1"] * 5 + HAND[:5], "only 4 copies of 1"),
        ([*HAND[:9], "13"], "'13' is not a card"),
        ([*HAND[:9], "??"], "every card of the hand named"),
        (["1b", *HAND[1:]], "counts cards by month only, so a card is typed as its month "
                            "('1' for 1b)"),
        ([*HAND, "-n", "6"], "takes 2-5 players"),
        ([*HAND, "-n", "5"], "with 5 players a hand is 9 cards"),
    ]:
        res = run("solve", "kabu-tsukuri", *args)
        assert res.exit_code == 1, args
        assert words in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr


def test_solve_reads_a_hand_typed_as_one_quoted_word() -> None:
    """`kabucli solve kabu-tsukuri "1 1 3 ..."`: the hand quoted whole is the same hand (it
    was one card '1 1 3 4 5 7 9 10 10 12', not in the deck)."""
    res = run("solve", "kabu-tsukuri", " ".join(HAND), "--json", "--top", "1")
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["hand"] == HAND


@pytest.mark.parametrize("word", ["-12", "12-", "10--12", "--top"])
def test_solve_refuses_a_card_with_a_stray_dash(word: str) -> None:
    """'-12' (after --, as a negative number) was read as 12, and '--top' after -- was
    'top' is not a card: the word as typed is named, with how cards are joined."""
    res = run("solve", "kabu-tsukuri", "--", *HAND[:9], word)
    assert res.exit_code == 1
    assert f"'{word}'" in res.stderr and "joined by '-'" in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_solve_says_which_game_has_a_solver() -> None:
    res = run("solve", "dare", "1", "2", "3")
    assert res.exit_code == 1 and "has no solver" in res.stderr


def test_a_bot_match_is_logged_audited_replayed_converted(tmp_path: Path) -> None:
    log = tmp_path / "k.kbl"
    res = run("play", "kabu-tsukuri", "--seed", "9", "--bot", "all=best", "--bot", "2=random",
              "--rule", "hands=2", "--log", str(log), "--quiet")
    assert res.exit_code == 0, res.stderr
    n = len(read_log(log, games.event_types).events)
    res = run("audit", str(log))
    assert res.exit_code == 0 and f"({n} events, finished)" in res.stdout
    res = run("replay", str(log))
    assert res.exit_code == 0
    assert "lays three rows face down" in res.stdout and "match over" in res.stdout
    steps = json.loads(run("replay", str(log), "--json").stdout)["steps"]
    assert len(steps) == n
    out = tmp_path / "k.jsonl"
    assert run("log", "convert", str(log), str(out)).exit_code == 0
    assert run("audit", str(out)).exit_code == 0


def arranged(tmp_path: Path) -> tuple[Path, dict[int, Any]]:
    """A seeded 3-seat hand between bots, logged; and each seat's arrangement (as logged)."""
    log = tmp_path / "g.kbl"
    res = run("play", "kabu-tsukuri", "-n", "3", "--seed", "11", "--bot", "all=best",
              "--rule", "hands=1", "--log", str(log), "--quiet")
    assert res.exit_code == 0, res.stderr
    events = read_log(log, games.event_types).events
    rows = {e.seat: e for e in events if isinstance(e, Arrange)}
    assert sorted(rows) == [1, 2, 3] and all(e.aside for e in rows.values())
    return log, rows


def test_replay_as_a_seat_in_json_shows_no_other_seats_rows_nor_card_set_aside(
        tmp_path: Path) -> None:
    """The rows are secret until turned over, the card set aside always: a replay as p2 holds
    p2's own arrangement and no other seat's, in the events, their notation and the states."""
    log, rows = arranged(tmp_path)
    res = run("replay", str(log), "--as", "p2", "--json")
    assert res.exit_code == 0, res.stderr
    steps = json.loads(res.stdout)["steps"]
    shown = [s["event"] for s in steps if s["event"] and s["event"]["e"] == "arrange"]
    assert shown == [to_builtins(rows[2])]
    for seat in (1, 3):
        assert GAME.notate(rows[seat]) not in res.stdout
        step = next(s for s in steps if s["actor"] == f"p{seat}" and s["kind"] == "action")
        assert (step["notation"], step["event"]) == ("hidden", None)
    assert GAME.notate(rows[2]) in res.stdout
    before = steps[2]["state"]  # p3 has laid its rows; none is turned over yet
    assert before["rows"]["p3"] == "face down" and set(before["aside"]) == {"p2"}
    at = json.loads(run("replay", str(log), "--as", "p2", "--json", "--at", "3").stdout)
    assert at["step"]["actor"] == "p3" and at["step"]["event"] is None
    assert "p3 rows" not in json.dumps(at)


def test_replay_as_a_seat_in_html_shows_no_other_seats_rows_nor_card_set_aside(
        tmp_path: Path) -> None:
    log, rows = arranged(tmp_path)
    out = tmp_path / "p2.html"
    res = run("replay", str(log), "--as", "p2", "--html", str(out))
    assert res.exit_code == 0, res.stderr
    page = out.read_text()
    assert GAME.notate(rows[2]) in page
    for seat in (1, 3):
        assert GAME.notate(rows[seat]) not in page and f"p{seat} rows" not in page
    data = read_log(log, games.event_types)
    (view,) = page_data(GAME, data, log.name, 2)["views"]
    said = {e["n"]: e for e in view["events"]}
    for i, ev in enumerate(data.events, 1):
        if isinstance(ev, Arrange):
            assert said[i]["notation"] == ("hidden" if ev.seat != 2 else GAME.notate(ev))
            assert "lays three rows face down" in said[i]["line"]
    text = run("replay", str(log), "--as", "p2").stdout
    assert "p1 rows" not in text and "p3 rows" not in text


def test_a_person_asks_best_then_lays_rows_and_resumes_later(tmp_path: Path) -> None:
    log = tmp_path / "p.kbl"
    res = run("play", "kabu-tsukuri", "--seed", "2", "-n", "2", "--bot", "2=best",
              "--rule", "hands=1", "--log", str(log), input="best\n")
    assert "best arrangements for p1" in res.stdout
    line = next(x for x in res.stdout.splitlines() if x.strip().startswith("1. "))
    move = line.split("   ")[0].strip()[3:]  # '1-3-4 9-9-11 6-7-8 aside 1'
    # one name a row, told apart though a name holds a comma ('Nobori, Pin (1)')
    assert line.split("   ")[2].strip() == "(Oicho (8); Kabu (9); Nobori, Pin (1))", line
    res = run("resume", str(log), "--script", "-", "-q", input=f"{move}\n")
    assert res.exit_code == 0, res.stderr
    res = run("audit", str(log))
    assert res.exit_code == 0 and "finished" in res.stdout


def test_the_prompt_still_tells_a_person_laying_rows_that_best_asks_the_solver() -> None:
    res = run("play", "kabu-tsukuri", "--seed", "2", "-n", "2", "--bot", "2=best", "--no-log",
              input="?\n")
    assert "p1 to lay three rows: lay your 10 cards in three rows" in res.stdout
    assert "(e.g. '1-2-3 4-5-6 7-8-9 aside 12'); 'best' asks the solver" in res.stdout


def test_the_prompt_refuses_a_wrong_arrangement_with_a_reason() -> None:
    res = run("play", "kabu-tsukuri", "--seed", "2", "-n", "2", "--bot", "2=best", "--no-log",
              input="1-2-3 4-5-6\n1-2-3 4-5-6 7-8-9 aside 10\n")
    assert "got 2 words" in res.stdout  # (it said 'word(s)')
    assert "p1's hand is" in res.stdout


def test_a_physical_table_from_a_script(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    rows = ["1-2-6 4-4-5", "1-2-7 4-4-6", "3-5-11 2-8-9"]
    lines = ["deal"] + [x for r in rows for x in ("bet", "bet", *(f"show {c}"
                                                              for c in r.split()))]
    script.write_text("\n".join(lines) + "\n")
    log = tmp_path / "t.kbl"
    res = run("play", "kabu-tsukuri", "--physical", "-n", "2", "--rule", "hands=1",
              "--script", str(script), "--log", str(log))
    assert res.exit_code == 0, res.stderr
    assert "bets due on row 1: p2, p1" in res.stdout
    assert "hand 1 row 1: p2 takes the pot of 2" in res.stdout
    assert "row 3: p2 leads for the pot of 2 with Kabu (9)" in res.stdout
    assert "tie (p2, p1), 2 carries to the next hand" in res.stdout
    data = read_log(log, games.event_types)
    assert data.header.mode == "physical"
    assert run("audit", str(log)).exit_code == 0


def test_a_tie_so_far_names_the_seats_apart_from_the_row_name() -> None:
    # a row's name may hold a comma (Nobori, Santa (3)): the line read "tied so far (p2, p3,
    # Nobori, Santa (3))", as if Nobori and Santa (3) were seats too
    lines = ["deal", "bet", "bet", "bet", "show 10-11-12", "show 10-11-12"]
    res = run("play", "kabu-tsukuri", "--physical", "-n", "3", "--rule", "hands=1",
              "--script", "-", "--no-log", input="\n".join(lines) + "\n")
    assert "row 1: p2, p3 tied so far with Nobori, Santa (3)" in res.stdout


def test_an_external_program_answers_with_an_arrangement(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    seen = tmp_path / "seen.jsonl"
    bot.write_text(f"""\
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    with open({str(seen)!r}, "a") as f:
        f.write(line)
    if msg["type"] != "turn":
        break
    cards = msg["state"]["cards"]["p%d" % msg["seat"]]
    rows = " ".join("-".join(cards[i:i + 3]) for i in (0, 3, 6))
    print(rows + (" aside " + cards[9] if len(cards) == 10 else ""), flush=True)
""")
    res = run("play", "kabu-tsukuri", "--seed", "5", "-n", "3", "--bot", "1=best",
              "--bot", f"2=cmd:{sys.executable} {bot}", "--bot", "3=random",
              "--rule", "hands=2", "--no-log", "-q", "--json")
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["outcome"]["balances"]
    turns = [json.loads(x) for x in seen.read_text().splitlines()]
    first = turns[0]
    assert first["legal"] == [] and "aside" in first["hint"]
    assert isinstance(first["state"]["cards"]["p1"], int)  # another seat's hand: a count
    assert len(first["state"]["cards"]["p2"]) == 10
    # a bot program is told only what it may send: 'best' is a question of the play prompt,
    # which no program's answer can ask (the hint said "'best' asks the solver")
    hints = [turn["hint"] for turn in turns if turn["type"] == "turn"]
    assert hints and all("best" not in hint for hint in hints)


@pytest.mark.parametrize(("answer", "said"), [
    ("best", "'best' is a question the play prompt answers for people, not a move: a bot sends "
             "a move of its turn's 'legal' (or, where 'legal' is empty, as its 'hint' says)"),
    ("p2 BEST", "'best' is a question the play prompt answers for people, not a move"),
    ("huh", "'huh' is not a Kabu-Tsukuri move: lay your rows like '1-2-3 4-5-6 7-8-9 aside 12' "
            "(at the play prompt, 'best' asks the solver)"),
])
def test_a_bot_program_that_asks_best_is_told_it_is_the_prompts_question_not_a_move(
        tmp_path: Path, answer: str, said: str) -> None:
    """A program answering 'best' (which its hint never names) was refused with "'best' is
    not a Kabu-Tsukuri move: lay your rows like ..., or ask 'best'": the refusal offered the
    very word it refused. Any other word was told to "ask 'best'" as if a bot could."""
    bot = tmp_path / "bot.py"
    bot.write_text(f"""\
import json, sys
for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        print({answer!r}, flush=True)
""")
    res = run("play", "kabu-tsukuri", "--seed", "1", "--bot", f"2=cmd:{sys.executable} {bot}",
              "--bot", "1=random", "--no-log", "-q")
    assert res.exit_code == 1
    assert f"bot p2 answered {answer!r}: {said}" in res.stderr, res.stderr
    assert "or ask 'best'" not in res.stderr


def test_completion_offers_kabu_tsukuri() -> None:
    assert "kabu-tsukuri" in complete_game()


def test_a_seats_replay_of_a_log_broken_in_a_hidden_event_does_not_name_what_it_holds(
        tmp_path: Path) -> None:
    """An arrangement tampered with breaks a rule: the reason names its seat's hand. The
    whole replay says so; a replay as another seat (text, --step's end, --json, --html) says
    only that a hidden event breaks a rule, never the rows or the hand."""
    src = Path(__file__).resolve().parent.parent / "replays/kabu-tsukuri/3p-ranking-kabu.jsonl"
    lines = src.read_text().splitlines()
    assert lines[2] == '{"e":"arrange","seat":2,"rows":[[4,12,1],[6,11,1],[6,2,12]],"aside":[3]}'
    lines[2] = '{"e":"arrange","seat":2,"rows":[[4,12,1],[6,11,1],[6,2,12]],"aside":[9]}'
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    secret = ("1-1-2-3-4-6-6-11-12-12", "4-12-1", "aside 9")
    whole = run("replay", str(bad))
    assert whole.exit_code == 1 and "p2's hand is" in whole.stderr
    for as_seat in ("p1", "p3"):
        for extra in ([], ["--json"], ["--at", "3"], ["--html", str(tmp_path / "p.html")]):
            res = run("replay", str(bad), "--as", as_seat, *extra)
            said = res.stdout + res.stderr
            if extra[:1] == ["--html"]:
                said += (tmp_path / "p.html").read_text()
            assert res.exit_code == 1, (extra, res.stderr)
            assert "event 2: p2 'hidden': it breaks a rule (what it holds is hidden from " \
                   f"{as_seat})" in res.stderr, (extra, res.stderr)
            for word in (*secret, "p2's hand is", "breaks a rule: it breaks a rule"):
                assert word not in said, (as_seat, extra, word)
    own = run("replay", str(bad), "--as", "p2")
    assert own.exit_code == 1 and "p2's hand is" in own.stderr  # the seat's own move


def test_the_table_after_a_row_is_paid_shows_what_it_paid_not_the_empty_pot(
        tmp_path: Path) -> None:
    """After the last row of a hand the pot is paid out: the table said 'takes the pot of 0'
    where the event line said 6 (a probe, H4). Every pot a table says was taken is the one
    the result paid."""
    log = tmp_path / "g.kbl"
    assert run("play", "kabu-tsukuri", "-n", "2", "-s", "3", "-b", "all=random", "-r",
               "hands=2", "--log", str(log), "-q").exit_code == 0
    events = read_log(log, games.event_types).events
    for at, ev in enumerate(events, start=1):
        if type(ev).__name__ != "Result" or len(ev.best) != 1:
            continue
        table = run("replay", str(log), "--at", str(at)).stdout
        said = re.findall(r"row \d: p\d takes the pot of (\d+)", table)
        assert said and all(int(n) == ev.amount for n in said), (at, said, ev.amount)


def test_best_at_60_columns_goes_on_under_each_arrangement_not_at_the_first_column() -> None:
    # at 60 columns each arrangement's names went on at the first column: '(9); Nana-Go-San)'
    res = runner.invoke(app, ["play", "kabu-tsukuri", "--seed", "3", "--player", "Me",
                              "--bot", "2=best", "--bot", "3=best", "--no-log"],
                        input="best\nquit\n", env={**ENV, "COLUMNS": "60"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    first = next(i for i, x in enumerate(lines) if x.startswith("  1. "))
    answer = lines[first:lines.index(next(x for x in lines[first:] if x.startswith("p1 Me")))]
    assert len(answer) > 3, answer  # (the three arrangements do not fit on a line each)
    for line in answer:
        assert max(len(x) for x in answer) <= 60
        assert line.startswith(("  1. ", "  2. ", "  3. ", " " * 5)), answer
    words = " ".join(answer).split()
    assert "(Fujin; Kabu (9); Nana-Go-San)" in " ".join(words)


@pytest.mark.parametrize("words", [
    ["1,", "1,", "3,", "4,", "5,", "7,", "9,", "10,", "10,", "12"],  # as the rules page lists
    ["1, 1, 3, 4, 5, 7, 9, 10, 10, 12"],                             # cards: '1, 10, 10'
    ["1-1-3,", "4-5-7,", "9-10-10,", "12"],
])
def test_solve_reads_a_hand_typed_as_a_list_with_commas_after_its_words(words: list[str]) -> None:
    """A hand typed as a list ('1, 1, 3, ...', as the rules page writes cards: 'Doshippin 1,
    10, 10'), read before, was refused by the stray-dash check as "'1,': ... with a card
    between every two '-'" (a comma that ends a word is a list's, no card missing)."""
    res = run("solve", "kabu-tsukuri", *words, "--json", "--top", "1")
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["hand"] == HAND
