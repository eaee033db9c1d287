"""``kabucli replay`` of a log that breaks a rule, in each of the five games: the events up to
the bad one, the table as it stood when the bad event came, then that event (its number,
who, its notation) and why, and exit 1 with the one error line. The replay used to end on the
last good event's line (or a table drawn several events before it), saying nothing of the bad
event on stdout; ``--at`` past the bad event said "state after event N" over the table of an
earlier event; the pager's note gave the reason without the event."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli.cli import app

ROOT = Path(__file__).resolve().parent.parent
ENV = {"NO_COLOR": "1", "COLUMNS": "200", "TERM": "dumb"}
runner = CliRunner()

# (log, the event edited, the fields put in it, the bad event's line as the replay shows it)
BROKEN = {
    "dare": ("dare/3p-showdown-outright.kbl", 6, {"sets": [[1, 3, 8], [3, 5, 5]]},
             "   6 p3 best      p3 sets 1-3-8 3-5-5 breaks a rule: set 1-3-8 adds up to 12, "
             "ones digit 2, not the reference 3"),
    "kazu-tori": ("kazu-tori/2p-limit-20-ten-taken-at-twenty.kbl", 3, {"seat": 1},
                  "   3 p1 sharp     p1 flip breaks a rule: p2 flips next, not p1"),
    "yatchaba": ("yatchaba/3p-book-amounts.kbl", 3, {"amount": 999},
                 "   3 p1 random    p1 bet 999 breaks a rule: the next amount of the sequence "
                 "is 3, not 999"),
    "kabu-tsukuri": ("kabu-tsukuri/3p-dealer-winner.kbl", 2,
                     {"rows": [[2, 7, 9], [6, 11, 12], [4, 7, 3]]},
                     "   2 p2 best      p2 rows 2-7-9 6-11-12 4-7-3 aside 1 breaks a rule: p2's "
                     "hand is 1-2-4-6-7-7-9-9-11-12, not 1-2-3-4-6-7-7-9-11-12"),
    "uno-dare": ("uno-dare/3p-first-card-dare.kbl", 2, {"card": 52},
                 "   2 p2 strong    p2 play GD5 breaks a rule: p2's hand WD13 RR R1 B7 Y0 GR G9 "
                 "does not hold GD5"),
}


def kabucli(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), env=ENV, input=input)
    assert "Traceback" not in res.output
    return res


def broken_log(tmp_path: Path, game: str) -> tuple[Path, int, str]:
    """The game's log as JSON Lines with one event edited (log convert, as a person would)."""
    log, index, fields, line = BROKEN[game]
    jsonl = tmp_path / "good.jsonl"
    assert kabucli("log", "convert", str(ROOT / "replays" / log), str(jsonl)).exit_code == 0
    lines = jsonl.read_text().splitlines()
    rec = json.loads(lines[index])  # line 0 is the header: line i is event i
    rec.update(fields)
    lines[index] = json.dumps(rec, separators=(",", ":"))
    bad = tmp_path / f"{game}-bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    return bad, index, line


@pytest.mark.parametrize("game", sorted(BROKEN))
def test_replay_shows_the_states_up_to_the_bad_event_then_it_and_why(
        tmp_path: Path, game: str) -> None:
    bad, index, line = broken_log(tmp_path, game)
    res = kabucli("replay", str(bad))
    assert res.exit_code == 1
    out = res.stdout.splitlines()
    # every event before the bad one, numbered in order
    numbered = [int(m[1]) for text in out if (m := re.match(r"^ {0,3}(\d+) ", text))]
    assert numbered == [*range(1, index), index]
    # then the table as it stood, then the bad event's line, last
    assert out[-1] == line
    assert out[-2].startswith("╰")
    table_top = max(i for i, text in enumerate(out) if text.startswith("╭─"))
    assert all(not re.match(r"^ {0,3}\d+ ", text) for text in out[table_top:-1])
    # the one error line, as before
    assert res.stderr.strip().splitlines() == [
        res.stderr.strip().splitlines()[0]] and f"event {index}: " in res.stderr


@pytest.mark.parametrize("game", sorted(BROKEN))
def test_replay_at_an_event_past_the_bad_one_says_which_state_it_shows(
        tmp_path: Path, game: str) -> None:
    bad, index, _ = broken_log(tmp_path, game)
    res = kabucli("replay", str(bad), "--at", str(index + 3))
    assert res.exit_code == 1
    assert f"state after event {index - 1} of " in res.stdout
    assert f"(event {index} breaks a rule: nothing after it is shown):" in res.stdout
    assert f"state after event {index + 3}" not in res.stdout
    before = kabucli("replay", str(bad), "--at", str(index - 1))
    assert f"state after event {index - 1} of {len(bad.read_text().splitlines()) - 1}:\n" \
        in before.stdout


@pytest.mark.parametrize("game", sorted(BROKEN))
def test_replay_step_says_which_event_breaks_the_rule(tmp_path: Path, game: str) -> None:
    bad, index, line = broken_log(tmp_path, game)
    res = kabucli("replay", str(bad), "--step", input=f"g {index - 1}\nq\n")
    assert res.exit_code == 1
    what = line[18:]  # the bad event's words, after its number and who
    assert f"next, event {index}: {what} (the replay stops here)" in res.stdout


def test_a_seat_sees_that_a_hidden_event_breaks_a_rule_and_nothing_it_holds(
        tmp_path: Path) -> None:
    """As p3, p2's arrangement is hidden: the replay's last line says that event breaks a
    rule, never its rows nor p2's hand; the page (--html) says it the same way, once."""
    bad, _, _ = broken_log(tmp_path, "kabu-tsukuri")
    res = kabucli("replay", str(bad), "--as", "p3")
    assert res.exit_code == 1
    assert res.stdout.splitlines()[-1] == (
        "   2 p2 best      an event hidden from this seat breaks a rule (what it holds is "
        "hidden from p3)")
    assert "4-7-3" not in res.stdout and "1-2-4-6-7-7-9-9-11-12" not in res.stdout
    from kabucli import games
    from kabucli.log import read_log
    from kabucli.render.html import page_data

    data = read_log(bad, games.event_types)
    info = page_data(games.get("kabu-tsukuri"), data, bad.name, None)
    lines = {v["key"]: v["events"][-1]["line"] for v in info["views"]}
    assert lines["all"] == BROKEN["kabu-tsukuri"][3][18:]
    assert lines["p3"] == ("p2: an event hidden from this seat breaks a rule (what it holds "
                           "is hidden from p3)")
    assert lines["p2"] == lines["all"]  # p2's own move: p2 may read why
    # the page written with --as p3 holds p3's view only: its violation too (the referee's
    # reason names p2's rows)
    page = tmp_path / "p3.html"
    res = kabucli("replay", str(bad), "--as", "p3", "--html", str(page))
    assert res.exit_code == 1
    html = page.read_text(encoding="utf-8")
    assert "what it holds is hidden from p3" in html
    assert "4-7-3" not in html and "1-2-4-6-7-7-9-9-11-12" not in html
    seat = page_data(games.get("kabu-tsukuri"), data, bad.name, 3)["violation"]
    assert "hidden from p3" in seat["text"] and "4-7-3" not in seat["text"]


@pytest.mark.parametrize("game", sorted(BROKEN))
def test_replay_at_an_event_before_the_bad_one_shows_it_then_says_the_log_breaks_a_rule(
        tmp_path: Path, game: str) -> None:
    """The state asked for is shown, as it is valid; but the log is not, and the replay says
    so as a whole replay does (it used to exit 0 without a word of the break)."""
    bad, index, _ = broken_log(tmp_path, game)
    res = kabucli("replay", str(bad), "--at", str(index - 1))
    assert f"state after event {index - 1} of " in res.stdout
    assert res.exit_code == 1
    assert f"{bad}: event {index}: " in res.stderr
    doc = json.loads(kabucli("replay", str(bad), "--json", "--at", str(index - 1)).stdout)
    assert doc["at"] == index - 1 and doc["violation"]["index"] == index
    assert kabucli("replay", str(bad), "--json", "--at", str(index - 1)).exit_code == 1


def test_replay_at_before_a_hidden_bad_event_keeps_it_hidden_from_the_seat(
        tmp_path: Path) -> None:
    """p2's arrangement is hidden from p3: a replay as p3 at the event before it says that
    event breaks a rule, and not what it holds."""
    bad, index, _ = broken_log(tmp_path, "kabu-tsukuri")
    res = kabucli("replay", str(bad), "--as", "p3", "--json", "--at", str(index - 1))
    violation = json.loads(res.stdout)["violation"]
    assert violation["index"] == index and violation["action"] == "hidden"
    assert "4-7-3" not in res.output and "1-2-4-6-7-7-9-9-11-12" not in res.output


@pytest.mark.parametrize("game", sorted(BROKEN))
def test_replay_json_at_past_the_bad_event_gives_the_last_good_step_and_the_whole_log_s_count(
        tmp_path: Path, game: str) -> None:
    """docs/reports.md: with --at, "step" is, where the log breaks a rule before the event
    asked for, the last event that kept the rules (not the bad one), and "events" is always
    the events the log holds, whatever --at cuts the replay to."""
    bad, index, _ = broken_log(tmp_path, game)
    held = len(bad.read_text().splitlines()) - 1
    for at in (index + 3, index - 1, 0):
        res = kabucli("replay", str(bad), "--json", "--at", str(at))
        assert res.exit_code == 1, (at, res.output)
        doc = json.loads(res.stdout)
        assert (doc["at"], doc["events"]) == (at, held), at
        assert doc["step"] is None if at == 0 else doc["step"]["index"] == min(at, index - 1)
        assert doc["violation"]["index"] == index
