"""Uno Dare at the command line: rules, play (bots, a person with bots, a refereed table from
a script, house dares from a rules file), replay (whole, as one seat, JSON), audit, resume,
log convert, sim and an external bot that sees only its own hand."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from matchtools import inputs_and_after, page_example
from typer.testing import CliRunner

from kabucli.cards import UNO_COLOR_NAMES, UNO_COLORS, UNO_DARE_108
from kabucli.cli import app
from kabucli.games import event_types
from kabucli.games.uno_dare.rules import Deal
from kabucli.games.uno_dare.text import DARE_LISTS
from kabucli.log import read_log, write_log

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "120", "TERM": "dumb"}
REPLAYS = Path(__file__).resolve().parent.parent / "replays" / "uno-dare"

PAGE = REPLAYS.parent.parent / "docs" / "rules" / "uno-dare.md"
# The refereed table of docs/rules/uno-dare.md, read from the page.
SCRIPT = page_example(PAGE, "Example of a table of three refereed by hand")


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env=ENV)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


@pytest.fixture(scope="module")
def bot_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("uno") / "bots.kbl"
    res = run("play", "uno-dare", "--seed", "5", "--bot", "1=strong", "--bot", "2=random",
              "--bot", "3=strong", "--rule", "target=100", "--log", str(path), "--quiet")
    assert res.exit_code == 0, res.stderr
    return path


def test_rules_uno_dare_documents_the_notation_the_dare_lists_and_the_house_rules() -> None:
    res = run("rules", "uno-dare")
    assert res.exit_code == 0
    for words in ("WD12 green", "catch p3", "decline", "dare_skips", "scoring", "target",
                  DARE_LISTS["show-off"][15], "strong", "random"):
        assert words in " ".join(res.stdout.split()), words


@pytest.mark.parametrize("n", [1, 11])
def test_players_2_to_10_a_count_outside_is_refused_in_one_line(n: int) -> None:
    res = run("play", "uno-dare", "--seed", "1", "-n", str(n), "--bot", "all=random",
              "--no-log")
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert line == f"error: Uno Dare takes 2-10 players, not {n}"


def test_a_bot_match_plays_to_the_target_and_audits_valid(bot_log: Path) -> None:
    res = run("audit", str(bot_log), "--json")
    report = json.loads(res.stdout)
    assert res.exit_code == 0 and report[0]["status"] == "valid"


def play_the_page(log: Path) -> Any:
    """docs/rules/uno-dare.md's table of three refereed by hand, played from a script at a
    real table of three into ``log``."""
    script = log.parent / "moves.txt"
    script.write_text(SCRIPT)
    res = run("play", "uno-dare", "--physical", "--players", "3", "--script", str(script),
              "--log", str(log))
    assert res.exit_code == 0, res.stderr
    return res


def test_the_refereed_table_of_the_rules_page_plays_from_a_script(tmp_path: Path) -> None:
    log = tmp_path / "table.kbl"
    res = play_the_page(log)
    assert "the script" in res.stderr and "ended" in res.stderr
    data = read_log(log, event_types)
    assert data.header.mode == "physical" and len(data.events) == 10
    assert "p1 declines the dare (draws 2)" in res.stdout
    assert "p1 is hit by dare #12" in " ".join(res.stdout.split())


def test_the_rules_page_s_refereed_table_does_what_its_comments_say(tmp_path: Path) -> None:
    """docs/rules/uno-dare.md's table of three refereed by hand, its lines read from the page
    and played as a script at a real table of three: what each line's comment says happens is
    what kabucli records for that line (the input it is, the events derived after it, and who
    is asked next). A comment of a form this test does not read fails it."""
    assert any(line.startswith("Example of a table of three refereed by hand")
               for line in PAGE.read_text(encoding="utf-8").splitlines())
    log = tmp_path / "table.jsonl"
    res = play_the_page(log)
    rules = json.loads(log.read_text().splitlines()[0])["rules"]
    out = " ".join(res.stdout.split())
    lines = [line.partition("#") for line in SCRIPT.splitlines()]
    played = inputs_and_after(log)
    assert len(played) == len(lines), "one input a line of the page"

    def card(color: str, rest: str) -> int:
        """'green', '5' (or 'D5') as the card's code, through the deck's own notation."""
        return UNO_DARE_108.parse(UNO_COLORS[UNO_COLOR_NAMES.index(color)] + rest)

    for i, ((move, _, comment), (event, after)) in enumerate(zip(lines, played, strict=True)):
        comment = comment.strip()
        where = f"page line {move.strip()!r} # {comment}"
        later = played[i + 1][0] if i + 1 < len(played) else None
        if m := re.fullmatch(r"p(\d+) deals, (\w+) is turned up: p(\d+) plays first", comment):
            assert event == {**event, "e": "deal", "dealer": int(m[1]),
                             "up": UNO_DARE_108.parse(m[2])}, where
            assert later and later["e"] == "play" and later["seat"] == int(m[3]), where
        elif m := re.fullmatch(r"p(\d+) plays the (\w+) (\d+)", comment):
            assert event == {**event, "e": "play", "seat": int(m[1]),
                             "card": card(m[2], m[3])}, where
        elif m := re.fullmatch(r"p(\d+) plays (\w+) Dare #(\d+): p(\d+) is hit", comment):
            assert event == {**event, "e": "play", "seat": int(m[1]),
                             "card": card(m[2], f"D{m[3]}")}, where
            assert later and later["e"] == "answer" and later["seat"] == int(m[4]), where
            assert f"p{m[4]} is hit by dare #{m[3]}" in out, where
        elif m := re.fullmatch(r"p(\d+) tries it\.\.\.", comment):
            assert event == {**event, "e": "answer", "seat": int(m[1]), "answer": "try"}, where
        elif m := re.fullmatch(r"\.\.\.and the table says it was done: p(\d+) loses the turn "
                               r"\((\w+)\)", comment):
            assert event == {**event, "e": "answer", "seat": int(m[1]), "answer": "done"}, where
            assert rules[m[2]] is True, where  # the house rule that makes a dare skip
            assert later and later["seat"] != int(m[1]), where  # the turn goes on past p1
        elif m := re.fullmatch(r"p(\d+) draws a card", comment):
            assert event == {**event, "e": "draw", "seat": int(m[1])}, where
            assert later and later["seat"] == int(m[1]), where  # "and keeps it": the same seat
        elif comment == "and keeps it":
            assert event["e"] == "keep" and event["seat"] == played[i - 1][0]["seat"], where
        elif m := re.fullmatch(r"p(\d+) plays Wild Dare #(\d+) and names (\w+): p(\d+) is hit "
                               r"again", comment):
            assert event == {**event, "e": "play", "seat": int(m[1]),
                             "card": UNO_DARE_108.parse(f"WD{m[2]}"),
                             "color": UNO_COLOR_NAMES.index(m[3])}, where
            assert later and later["e"] == "answer" and later["seat"] == int(m[4]), where
            assert f"p{m[4]} is hit by dare #{m[2]}" in out, where
        elif m := re.fullmatch(r"p(\d+) draws (\d+)", comment):
            assert event == {**event, "e": "answer", "seat": int(m[1]),
                             "answer": "decline"}, where
            assert [e for e in after if e["e"] == "penalty"] == [
                {"e": "penalty", "seat": int(m[1]), "count": int(m[2]), "why": "declined"}], where
        else:
            raise AssertionError(f"{where}: a comment this test does not read: update it")


def test_the_refereed_table_of_the_rules_page_typed_at_the_prompt(tmp_path: Path) -> None:
    """The rules page's lines typed as written, '# ...' and all, are the same moves as from a
    script (each was refused: 'after the card only a color ... not '# p2 plays ...'', and
    'try  # ...' read as 'try' with words after it). A line that is only a comment is no move
    (a blank line would be the game's blank move) and is not refused either."""
    script = tmp_path / "moves.txt"
    script.write_text(SCRIPT)
    logs = tmp_path / "script.kbl", tmp_path / "typed.kbl"
    run("play", "uno-dare", "--physical", "-n", "3", "--script", str(script), "--log",
        str(logs[0]))
    res = run("play", "uno-dare", "--physical", "-n", "3", "--log", str(logs[1]),
              input="# the table of the rules page\n" + SCRIPT + "   # a note\nquit\n")
    assert "refused" not in res.stdout, res.stdout
    assert res.stdout.count("referee (p2 to play on WD12 (blue) or draw) > ") == 2
    typed, scripted = (read_log(log, event_types).events for log in reversed(logs))
    assert len(typed) == 10 and typed == scripted


def test_a_person_plays_with_bots_from_a_script(tmp_path: Path) -> None:
    log = tmp_path / "person.kbl"
    script = tmp_path / "moves.txt"
    script.write_text("draw\n" * 3)
    res = run("play", "uno-dare", "--seed", "11", "--players", "2", "--bot", "2=strong",
              "--script", str(script), "--log", str(log))
    assert "Traceback" not in res.output
    events = read_log(log, event_types).events
    assert any(getattr(e, "seat", 0) == 1 for e in events[1:])


def test_replay_as_a_seat_hides_the_other_hands(bot_log: Path) -> None:
    res = run("replay", str(bot_log), "--as", "p2", "--at", "1")
    assert res.exit_code == 0, res.stderr
    assert "seed     hidden from p2" in res.stdout  # the seed would give every card away
    assert res.stdout.count("hidden") == 3  # and the two other hands
    doc = json.loads(run("replay", str(bot_log), "--as", "2", "--json").stdout)
    first = doc["steps"][0]
    assert first["notation"] == "hidden" and first["event"] is None
    hands = first["state"]["hands"]
    assert isinstance(hands["p2"], list) and hands["p1"] == 7 and hands["p3"] == 7
    assert all(s["event"] is not None for s in doc["steps"] if s["kind"] != "chance")
    full = json.loads(run("replay", str(bot_log), "--json").stdout)
    assert isinstance(full["steps"][0]["state"]["hands"]["p1"], list)


def test_replay_as_a_seat_that_is_not_there_is_one_line() -> None:
    res = run("replay", str(REPLAYS / "3p-first-card-dare.kbl"), "--as", "p7")
    assert res.exit_code == 1
    assert res.stderr.strip().splitlines() == [
        "error: --as p7: there is no such seat (seats are p1-p3)"]


def test_resume_goes_on_from_a_log_cut_short(bot_log: Path, tmp_path: Path) -> None:
    data = read_log(bot_log, event_types)
    cut = tmp_path / "cut.kbl"
    write_log(cut, data.header, data.events[:40], data.fmt)
    res = run("resume", str(cut), "--quiet")
    assert res.exit_code == 0, res.stderr
    events = read_log(cut, event_types).events
    assert events[:40] == data.events[:40] and len(events) > 40
    assert run("audit", str(cut)).stdout.startswith(f"valid: {cut} ({len(events)} events, "
                                                    "finished)")


def test_log_convert_round_trips(bot_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "bots.jsonl"
    assert run("log", "convert", str(bot_log), str(out)).exit_code == 0
    back = tmp_path / "back.kbl"
    assert run("log", "convert", str(out), str(back)).exit_code == 0
    assert read_log(back, event_types).events == read_log(bot_log, event_types).events


def test_sim_reports_scores_and_wins_per_bot() -> None:
    res = run("sim", "uno-dare", "-m", "12", "-b", "strong", "-b", "random", "--seed", "3",
              "--json")
    assert res.exit_code == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["measure"] == "score" and report["matches"] == 12
    strong, rand = report["bots"]
    assert strong["wins"] + rand["wins"] == 12 and strong["wins"] > rand["wins"]


HOUSE = [f"House dare {i}: clap {i} times." for i in range(1, 17)]


def test_house_dares_from_a_rules_file_reach_the_header_and_the_replay(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('[uno-dare]\ndares = "house-rules"\nhouse_dares = [\n'
                     + ",\n".join(f'  "{d}"' for d in HOUSE) + "\n]\n")
    log = tmp_path / "house.jsonl"
    res = run("play", "uno-dare", "--physical", "--players", "2", "--rules-file", str(rules),
              "--log", str(log), "--script", "-", input="deal WD10\nred\n")
    assert res.exit_code == 0, res.stderr
    data = read_log(log, event_types)
    assert data.header.rules["house_dares"] == HOUSE and type(data.events[0]) is Deal
    shown = run("replay", str(log), "--at", "2")
    assert "dare #10" in shown.stdout and HOUSE[9] in " ".join(shown.stdout.split())


def test_a_house_rules_file_with_too_few_dares_is_refused_in_one_line(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('dares = "house-rules"\nhouse_dares = ["one", "two"]\n')
    res = run("play", "uno-dare", "--seed", "1", "--bot", "all=random", "--rules-file",
              str(rules), "--no-log")
    assert res.exit_code == 1
    line, = res.stderr.strip().splitlines()
    assert "16 dares, not 2" in line


BOT = """\
import json, sys
seen = open(sys.argv[1], "w")
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "turn":
        break
    seen.write(json.dumps(msg["state"]["hands"]) + "\\n")
    seen.flush()
    print(msg["legal"][-1] if msg["state"]["phase"] != "turn" else "draw", flush=True)
"""


def test_an_external_bot_sees_only_its_own_hand(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    seen = tmp_path / "seen.txt"
    res = run("play", "uno-dare", "--seed", "2", "--players", "3",
              "--bot", f"1=cmd:{sys.executable} {bot} {seen}", "--bot", "2=strong",
              "--bot", "3=strong", "--rule", "target=30", "--no-log", "--quiet")
    assert res.exit_code == 0, res.stderr
    views = [json.loads(line) for line in seen.read_text().splitlines()]
    assert views
    assert all(isinstance(v["p1"], list) and isinstance(v["p2"], int)
               and isinstance(v["p3"], int) for v in views)


@pytest.mark.parametrize("source", ["big", "/dev/zero"])
def test_a_rules_file_is_read_with_a_bound(tmp_path: Path, source: str) -> None:
    rules = Path(source) if source.startswith("/") else tmp_path / "big.toml"
    if not source.startswith("/"):
        rules.write_text('house_dares = ["' + "x" * 1_100_000 + '"]\n')
    res = run("play", "uno-dare", "--seed", "1", "--bot", "all=random", "--rules-file",
              str(rules), "--no-log")
    assert res.exit_code == 2
    line, = res.stderr.strip().splitlines()
    assert "larger than 1 MiB" in line or "not a regular file" in line


def test_at_a_real_table_the_move_that_used_the_rounds_last_turn_says_so(
        tmp_path: Path) -> None:
    """max_turns ends a round with nobody out; at a real table its score comes only once the
    hands are shown, so the line of the move that used the last turn says that the round
    ends, before the referee is asked for the hands (it read 'p1 keeps the card drawn')."""
    moves = ["deal R5"] + [f"p{p} {verb}" for _ in range(5) for p in (2, 1)
                           for verb in ("draw", "keep")]
    script = tmp_path / "moves.txt"
    script.write_text("\n".join(moves) + "\n")
    res = run("play", "uno-dare", "--physical", "--players", "2", "--rule", "max_turns=10",
              "--script", str(script), "--no-log")
    lines = [line for line in res.output.splitlines() if line[:4].strip().isdigit()]
    assert lines[-1].endswith("p1 keeps the card drawn; that was the round's last turn "
                              "(max_turns 10): it ends with nobody out"), lines[-1]
    assert not any("last turn" in line for line in lines[:-1])
    assert "waits for p1 to show the cards left" in res.output


@pytest.mark.parametrize(("typed", "why"), [
    ("draw 2", "'draw' takes nothing after it (not '2')"),
    ("p2 keep it", "'keep' takes nothing after it (not 'it')"),
    ("try it now", "'try' takes nothing after it (not 'it now')"),
    ("uno now", "'uno' takes nothing after it (not 'now')"),
    ("color", "'color' names one color, e.g. 'color red'"),
    ("color red blue", "'color' names one color, e.g. 'color red'")])
def test_a_move_word_with_words_after_it_is_refused_for_that(typed: str, why: str) -> None:
    """'draw 2' was refused as ''draw' is not an Uno Dare move: type ... 'draw' ...'."""
    res = run("play", "uno-dare", "--physical", "-n", "3", "--no-log",
              input=f"deal R5\n{typed}\nquit\n")
    refusals = [line for line in res.stdout.splitlines() if "refused:" in line]
    assert len(refusals) == 1 and refusals[0].endswith(f"refused: {why}"), refusals


def test_a_bot_that_tries_a_dare_is_shown_trying_its_words() -> None:
    """A seat that tries a dare is shown with the dare's words. The table shows them only to
    the person hit (the line under the table); a bot hit was shown as `p2 tries the dare`,
    and the people at the table never learnt what it did."""
    from kabucli.games.uno_dare.events import UnoDareRules
    from kabucli.games.uno_dare.text import dare_text

    log = Path(__file__).resolve().parent.parent / "replays/uno-dare/3p-first-card-dare.kbl"
    res = run("replay", str(log), "--json")
    steps = json.loads(res.stdout)["steps"]
    tried = [s for s in steps if s["event"].get("e") == "answer"
             and s["event"].get("answer") == "try"]
    assert tried
    out = " ".join(run("replay", str(log)).stdout.split())
    rules = UnoDareRules(**json.loads(res.stdout)["header"]["rules"])
    numbers = re.findall(r"tries dare #(\d+)", out)
    assert len(numbers) == len(tried)
    for number in numbers:
        words = dare_text(rules, int(number))
        assert f"tries dare #{number}: \"{words}\"" in out, words
