"""The words a referee reads at a real Uno Dare or Kabu-Tsukuri table, and in the replay of its
log: house rules written as they are typed, the dare being judged, a lone color at the wrong
moment, who won the match and why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from kabucli.cli import app

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env=ENV)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def flat(text: str) -> str:
    """Text with the table's borders and line breaks taken out: words only."""
    return " ".join(text.replace("│", " ").split())


def test_replay_header_writes_house_rules_as_they_are_typed(tmp_path: Path) -> None:
    """The rules line of a replay shows yes-or-no rules as 'true'/'false', the spelling
    --rule takes (it refuses 'True'), and an empty list as 'none', not Python's '[]'."""
    res = run("replay", str(REPLAYS / "uno-dare" / "3p-scoring-lowest.jsonl"), "--at", "0")
    assert res.exit_code == 0, res.output
    rules = flat(res.stdout)
    assert "dare_skips=false" in rules and "house_dares=none" in rules, rules
    assert "False" not in rules and "[]" not in rules
    # and what the header says can be typed back
    log = tmp_path / "t.kbl"
    res = run("play", "uno-dare", "--physical", "--players", "3", "--rule", "dare_skips=false",
              "--log", str(log), "--script", "-", input="deal R5\n")
    assert res.exit_code == 0, res.output


def test_rules_page_lists_defaults_as_they_are_typed() -> None:
    res = run("rules", "uno-dare")
    rows = {line.split("│")[1].strip(): line.split("│")[3].strip()
            for line in res.stdout.splitlines() if line.count("│") >= 4
            and line.split("│")[1].strip()}
    assert rows["dare_skips"] == "true" and rows["dare_on_wild"] == "false", rows
    assert rows["house_dares"] == "none", rows


def test_html_page_writes_house_rules_as_they_are_typed(tmp_path: Path) -> None:
    out = tmp_path / "u.html"
    res = run("replay", str(REPLAYS / "uno-dare" / "3p-physical-round.kbl"), "--html", str(out))
    assert res.exit_code == 0, res.output
    data = out.read_text()
    start = data.index('"rules":')
    rules = json.loads(data[start + len('"rules":'):].split(',"scenes"')[0].strip())
    assert "dare_skips=true" in rules and "house_dares=none" in rules, rules


def _table_log(tmp_path: Path, moves: str) -> Path:
    """A refereed Uno Dare table of three, its moves typed from a script."""
    log = tmp_path / "table.kbl"
    res = run("play", "uno-dare", "--physical", "--players", "3", "--log", str(log),
              "--script", "-", input=moves)
    assert res.exit_code == 0, res.output
    return log


def test_a_dare_being_judged_asks_the_table_not_the_player(tmp_path: Path) -> None:
    """Once p1 tries the dare, the table and the page stop telling p1 to 'try it, or decline'
    (p1 has chosen): they say p1 tries it and the table judges it done or failed."""
    log = _table_log(tmp_path, "deal R5\nG5\nGD5\ntry\n")
    hit = flat(run("replay", str(log), "--at", "3").stdout)
    assert "p1 is hit by dare #5" in hit and "try it, or decline and draw 2" in hit, hit
    judged = flat(run("replay", str(log), "--at", "4").stdout)
    assert "try it, or decline" not in judged, judged
    assert "p1 tries dare #5" in judged and "the table judges it done, or failed" in judged
    assert "trying dare #5" in judged
    page = tmp_path / "t.html"
    assert run("replay", str(log), "--html", str(page)).exit_code == 0
    html = page.read_text()
    assert "the table judges it done, or failed" in html
    assert "(try it, or decline and draw 2)" not in html


def test_the_page_spells_color_as_everywhere_else(tmp_path: Path) -> None:
    log = _table_log(tmp_path, "deal R5\n")
    page = tmp_path / "t.html"
    assert run("replay", str(log), "--html", str(page)).exit_code == 0
    html = page.read_text()
    assert "discards · color red" in html and "colour" not in html


def test_a_lone_color_out_of_place_says_where_a_color_goes(tmp_path: Path) -> None:
    """A referee who typed a Wild Dare without its color (refused) and then the color alone
    is told that the color goes with the card, not that 'red' is no Uno Dare move (it is one,
    for a Wild Dare turned up first)."""
    res = run("play", "uno-dare", "--physical", "--players", "3", "--no-log", "--script", "-",
              input="deal R5\nred\n")
    assert res.exit_code == 1
    err = flat(res.stderr)
    assert "is not an Uno Dare move" not in err, err
    assert "a Wild Dare played names its color with the card, e.g. 'WD12 red'" in err, err
    # where a color is to be named, it still names it
    log = _table_log(tmp_path, "deal WD9\nred\n")
    assert "p2 names red" in flat(run("replay", str(log)).stdout)


def test_a_wild_dare_turned_up_first_asks_for_the_color_before_the_dare(tmp_path: Path) -> None:
    log = _table_log(tmp_path, "deal WD9\n")
    table = flat(run("replay", str(log), "--at", "1").stdout)
    assert "try it, or decline" not in table, table
    assert "first p2 names the color, then tries it, or declines and draws 2" in table, table


# p2 goes out while p1 holds only the four 0s: under 'lowest' scoring p1 and p2 share the win
# with 0 points each, as p3's Wild Dares take p3 past the target.
TIE = """\
deal R5
R6
R7
R8
R9
R1
R2
R3
R4
R6
R7
draw
keep
draw
R5
R8
draw
keep
draw
R1
R9 uno
draw
keep
draw
R2
R3
p1 shows R0-Y0-G0-B0
p3 shows WD9-WD10-WD11-WD12-WD13-WD14-WD15
"""


def test_the_end_of_the_match_says_who_won_and_why(tmp_path: Path) -> None:
    res = run("replay", str(REPLAYS / "uno-dare" / "3p-physical-round.kbl"))
    assert res.exit_code == 0
    last = flat(res.stdout.split("scores (")[-1])
    assert "the first to reach the target of " in last, last


def test_a_shared_win_names_every_winner_in_the_plural(tmp_path: Path) -> None:
    log = tmp_path / "tie.kbl"
    res = run("play", "uno-dare", "--physical", "--players", "3", "--rule", "scoring=lowest",
              "--rule", "target=100", "--log", str(log), "--script", "-", input=TIE)
    assert res.exit_code == 0, res.output
    for out in (res.stdout, run("replay", str(log)).stdout):
        end = flat(out.split("scores (lowest)")[-1])
        assert ("winners: p1, p2 (a tie shares the win), with the lowest score (0 points) "
                "when p3 reached the target of 100") in end, end
        assert "winner: p1, p2" not in end


def test_the_table_says_who_went_out_while_the_hands_are_shown(tmp_path: Path) -> None:
    """At a real table the round's score waits for the hands to be shown: meanwhile the table
    marks the player who went out, rather than nothing beside an empty hand."""
    log = tmp_path / "tie.kbl"
    res = run("play", "uno-dare", "--physical", "--players", "3", "--rule", "scoring=lowest",
              "--rule", "target=100", "--log", str(log), "--script", "-",
              input=TIE.split("p1 shows")[0])
    assert res.exit_code == 0, res.output
    rows = [line for line in run("replay", str(log), "--at", "26").stdout.splitlines()
            if line.startswith("│ p")]
    assert [flat(r) for r in rows if "went out" in r] == ["p2 0 0 - went out"], rows


def test_undo_at_the_prompt_says_which_move_it_took_back() -> None:
    res = run("play", "uno-dare", "--physical", "--players", "3", "--no-log",
              input="deal R5\nG5\nundo\nquit\n")
    assert res.exit_code == 0, res.output
    assert "took back 1 move: p2 play G5\n" in res.stdout, res.stdout


def _best(stdout: str) -> str:
    """The solver's first arrangement in the answer to 'best'."""
    for line in stdout.splitlines():
        if line.strip().startswith("1. "):
            return line.split("1. ", 1)[1].split("  ")[0].strip()
    raise AssertionError(stdout)


def test_undo_names_no_secret_move_of_a_bot(tmp_path: Path) -> None:
    """In Kabu-Tsukuri the bots lay their rows face down. In hand 2 (dealer p2) p3 lays, then
    Ann in p1, then p2: an undo at Ann's next prompt takes back p2's rows with hers, and says
    p2's hidden move was taken back, never p2's rows."""
    log = tmp_path / "k.kbl"
    game = ("--seed", "3", "--player", "Ann", "--bot", "2=best", "--bot", "3=best")
    res = run("play", "kabu-tsukuri", *game, "--log", str(log), input="best\nquit\n")
    res = run("resume", str(log), input=f"{_best(res.stdout)}\nbest\nquit\n")
    res = run("resume", str(log), input=f"{_best(res.stdout.split('hand 2')[-1])}\nundo\nquit\n")
    assert res.exit_code == 0, res.output
    took = [line[line.index("took back"):] for line in res.stdout.splitlines()
            if "took back" in line]
    assert len(took) == 1 and took[0].startswith("took back 2 moves: p1 rows "), took
    assert took[0].endswith(", p2's hidden move"), took


def test_a_refusal_names_the_seats_as_the_table_does() -> None:
    """The referee typed 'Ann bets' (names may be typed for seats): the refusal says whose
    turn it is as the table and the prompt do, 'p2 Bob', not a bare 'p2' to look up; what it
    quotes of the line, and a range of seats, stay as they were."""
    names = ("--player", "Ann", "--player", "Bob", "--player", "Cy")
    res = run("play", "kabu-tsukuri", "--physical", *names, "--no-log",
              input="deal\nAnn bets\np3 shows 1-2-3\np4 bets\nquit\n")
    out = flat(res.stdout)
    assert ("refused: it is not p1 Ann's turn (waiting for p2 Bob: p2 Bob's bet on row 1)"
            in out), out
    assert "refused: waiting for p2 Bob's bet on row 1, not for 'p3 shows 1-2-3'" in out, out
    assert "refused: there is no seat p4 (seats are p1-p3)" in out, out
    res = run("play", "uno-dare", "--physical", *names, "--no-log", "--script", "-",
              input="deal R5\nAnn R3\n")
    assert res.exit_code == 1
    assert "it is not p1 Ann's turn (waiting for p2 Bob: p2 Bob to play on R5" in flat(res.stderr)


def test_a_long_list_of_legal_moves_ends_with_how_many_are_left_then_what_to_type() -> None:
    """At a real Uno Dare table '?' lists 50 moves: the first 30, then the rest counted. The
    count was followed by the prompt's hint on the same line ('... and 20 more: play a card
    on R5 ...'), which read as if the hint described the 20 not listed."""
    res = run("play", "uno-dare", "--physical", "--players", "3", "--no-log",
              input="deal R5\n?\nq\n")
    lines = res.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "more, not listed" in line)
    assert lines[at].strip() == "... and 20 more, not listed"
    assert lines[at + 1].startswith("to type: play a card on R5, color red")
    assert sum(1 for line in lines[:at] if line.startswith("  p2 play ")) == 30


def test_a_word_that_is_no_card_is_quoted_as_it_was_typed() -> None:
    """'Y9X' was refused as "'y9x' is not an Uno Dare move": the referee's own word, changed
    (probe AH). The other games quote it as typed."""
    res = run("play", "uno-dare", "--physical", "--players", "3", "--no-log",
              input="deal R5\nY9X\nplay Y9X\nq\n")
    refusals = [line for line in res.stdout.splitlines() if "refused:" in line]
    assert len(refusals) == 2 and all("'Y9X' is not an Uno Dare move" in r for r in refusals)


def test_the_hint_names_the_seats_as_the_table_does_but_not_in_what_to_type() -> None:
    """What may be typed now (after a move typed before its time, and at '?') names the seats
    as the table does, 'p2 Bob flips', but the notation it quotes stays typeable ('p2 flip
    CARD', not 'p2 Bob flip CARD'); '?' named no seat at all ('the row p2 turns over')."""
    names = ("--player", "Ann", "--player", "Bob", "--player", "Cy")
    res = run("play", "kazu-tori", "--physical", *names, "--no-log",
              input="deal\np1 flip 3\ndeal\nquit\n")
    refusal = next(line for line in flat(res.stdout).split("> ")
                   if "the cards were dealt already" in line)
    assert "else p2 Bob flips saying two: 'p2 flip CARD' with the card seen" in refusal, refusal
    res = run("play", "kabu-tsukuri", "--physical", *names, "--no-log",
              input="deal\nbet\nbet\nbet\n?\nquit\n")
    assert ("p2 Bob to turn row 1 over: type the row p2 Bob turns over, in laid order (e.g. "
            "'show 3-4-5')") in flat(res.stdout), flat(res.stdout)
