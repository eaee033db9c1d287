"""An undo in a replay says what it took back: the input, by its event number and notation,
and the events that followed it (in text, ``--step``, ``--html`` and ``--json``), as audit
counts the moves taken back. It used to read ``referee undo`` and nothing more."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.log import read_log
from kabucli.render.html import page_data

ROOT = Path(__file__).resolve().parent.parent
UNDO_LOG = ROOT / "replays" / "dare" / "2p-human-undo.jsonl"
PHYSICAL = ROOT / "replays" / "dare" / "3p-physical-match.kbl"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
runner = CliRunner()

# event 11 takes back the bot's lay (event 10); event 12 then takes back p1's pass of round
# 1 (event 5) and with it the result, the next deal and its antes (events 6-9)
LINE_11 = "  11 referee      undo (takes back event 10: p2 sets 5-5-7 7-10-10)"
LINE_12 = "  12 referee      undo (takes back event 5: p1 pass; and events 6-9 after it)"


def kabucli(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), env=ENV, input=input)
    assert "Traceback" not in res.output
    return res


def test_replay_says_what_each_undo_took_back() -> None:
    res = kabucli("replay", str(UNDO_LOG))
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert LINE_11 in lines and LINE_12 in lines
    res = kabucli("replay", str(PHYSICAL))
    assert "   7 referee      undo (takes back event 6: p3 sets 1-6-10)" in res.stdout.splitlines()


def test_replay_step_says_what_the_undo_took_back() -> None:
    res = kabucli("replay", str(UNDO_LOG), "--step", input="g 12\nb\nq\n")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines.index(LINE_12) < lines.index(LINE_11)  # g 12, then one back
    # a search finds an undo by what it took back
    res = kabucli("replay", str(UNDO_LOG), "--step", input="/takes back event 5\nq\n")
    assert LINE_12 in res.stdout.splitlines()


def test_replay_html_says_what_the_undo_took_back_in_every_view() -> None:
    g = games.get("dare")
    data = read_log(UNDO_LOG, games.event_types)
    info = page_data(g, data, UNDO_LOG.name, None)
    assert len(info["views"]) == 3  # the referee's and each seat's
    for view in info["views"]:
        said = {e["n"]: e["line"] for e in view["events"]}
        assert said[11] == "undo (takes back event 10: p2 sets 5-5-7 7-10-10)"
        assert said[12] == "undo (takes back event 5: p1 pass; and events 6-9 after it)"


def test_replay_json_lists_the_events_each_undo_took_back() -> None:
    res = kabucli("replay", str(UNDO_LOG), "--json")
    assert res.exit_code == 0, res.output
    steps = {s["index"]: s for s in json.loads(res.stdout)["steps"]}
    assert steps[11]["takes_back"] == [10]
    assert steps[12]["takes_back"] == [5, 6, 7, 8, 9]
    # the other fields mean what they meant: the undo's own notation and event
    assert (steps[12]["notation"], steps[12]["event"], steps[12]["kind"]) == (
        "undo", {"e": "undo"}, "meta")
    assert [i for i, s in steps.items() if "takes_back" in s] == [11, 12]
    doc = json.loads(kabucli("replay", str(UNDO_LOG), "--json", "--at", "12").stdout)
    assert doc["step"]["takes_back"] == [5, 6, 7, 8, 9]


def test_an_undo_seen_by_a_seat_hides_what_it_took_back_when_that_was_hidden(
        tmp_path: Path) -> None:
    """At a real table the referee enters the deal, then takes it back: as p2 the deal is
    hidden, and so is it in the undo's line (its notation could carry cards)."""
    jsonl = tmp_path / "p.jsonl"
    assert kabucli("log", "convert", str(PHYSICAL), str(jsonl)).exit_code == 0
    head, deal = jsonl.read_text().splitlines()[:2]
    log = tmp_path / "deal-undone.jsonl"
    log.write_text(f'{head}\n{deal}\n{{"e":"undo"}}\n')
    whole = kabucli("replay", str(log))
    assert "   2 referee      undo (takes back event 1: deal 7-7-3)" in whole.stdout
    seat = kabucli("replay", str(log), "--as", "p2")
    assert seat.exit_code == 0, seat.output
    assert "   2 referee      undo (takes back event 1, hidden from p2)" in seat.stdout
    doc = json.loads(kabucli("replay", str(log), "--as", "p2", "--json").stdout)
    assert doc["steps"][1]["takes_back"] == [1]
    # the page written with --as p2 says the same (its data holds p2's view only)
    page = tmp_path / "p2.html"
    assert kabucli("replay", str(log), "--as", "p2", "--html", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "undo (takes back event 1, hidden from p2)" in html
    assert "deal 7-7-3" not in html


def test_event_numbers_are_written_as_runs() -> None:
    from kabucli.render import _spans

    assert _spans([6]) == "6"
    assert _spans([6, 7, 8, 9]) == "6-9"
    assert _spans([6, 7, 9, 12, 13]) == "6-7, 9, 12-13"


def test_replay_draws_the_table_an_undo_went_back_to() -> None:
    """After an undo the table is not the one drawn last: the replay draws it again (it went
    on with the next event's line, the reader left to work out the table taken back to).
    Event 12 goes back into round 1: its table is round 1's, p1 to pass or lay again."""
    lines = kabucli("replay", str(UNDO_LOG)).stdout.splitlines()
    for line, title in ((LINE_11, "╭─ Dare · round 2/2 · dealer p1 · reference 7 · pot 4 "),
                        (LINE_12, "╭─ Dare · round 1/2 · dealer p1 · reference 8 · pot 2 ")):
        assert lines[lines.index(line) + 1].startswith(title), line


def test_audit_counts_one_move_taken_back_in_the_singular_and_lists_ten_undos_whole(
        tmp_path: Path) -> None:
    """audit's 'taken back' line of a real table's log where the referee entered the deal and
    took it back, n times over: one move is 'move' at 'event' 2; ten undos are all listed;
    from the eleventh on, the first ten are listed and the rest counted ('and 1 more'), so
    that no undo goes unsaid."""
    jsonl = tmp_path / "p.jsonl"
    assert kabucli("log", "convert", str(PHYSICAL), str(jsonl)).exit_code == 0
    head, deal = jsonl.read_text().splitlines()[:2]

    def taken_back(n: int) -> str:
        log = tmp_path / f"undone-{n}.jsonl"
        log.write_text(head + "\n" + f'{deal}\n{{"e":"undo"}}\n' * n)
        res = kabucli("audit", str(log))
        assert res.exit_code == 0, res.output
        return next(line for line in res.stdout.splitlines() if "taken back" in line)

    assert taken_back(1) == "  taken back: 1 move (undo at event 2)"
    ten = ", ".join(str(2 * i) for i in range(1, 11))
    assert taken_back(10) == f"  taken back: 10 moves (undo at events {ten})"
    assert taken_back(11) == f"  taken back: 11 moves (undo at events {ten} and 1 more)"


def _with_undos(g: Any, header: Any, events: list[Any], at: list[tuple[int, int]]) -> list[Any]:
    """``events`` with ``n`` undos in a row after the ``k``-th, for each (k, n) of ``at``
    (in order), the events taken back then typed again as they were."""
    from kabucli.engine import Match
    from kabucli.events import Undo

    out: list[Any] = []
    m = Match(g, header)
    i = 0
    for k, n in at:
        while i < k:
            assert m.why_not(events[i]) is None, (k, i)
            m._accept(events[i])
            out.append(events[i])
            i += 1
        for _ in range(n):
            assert m.why_not(Undo()) is None, k
            m._accept(Undo())
            out.append(Undo())
        i = len(m.events)  # the events in effect are the log's first ones: go on from there
    out += events[i:]
    return out


def test_the_pager_at_any_event_of_a_log_with_undos_is_the_walked_match() -> None:
    """A log with undos (one, two in a row, and one that takes back past a checkpoint),
    checkpoints every 1 to 4 events: the match the pager reaches at every event, forward, at
    random and backward, has the walked state and the walked events in effect (what the next
    undo takes back from)."""
    import random

    from kabucli.engine import Match, walk
    from kabucli.pager import Positions

    data = read_log(ROOT / "replays" / "yatchaba" / "4p-physical-game.kbl", games.event_types,
                    strict=False)
    g = games.get(data.header.game)
    assert not any(type(e).__name__ == "Undo" for e in data.events)
    events = _with_undos(g, data.header, list(data.events), [(6, 1), (12, 2), (20, 1),
                                                             (21, 3)])
    assert sum(type(e).__name__ == "Undo" for e in events) == 7
    views = [(g.view(Match(g, data.header).state), [])]
    walk(g, data.header, events,
         lambda i, ev, m: views.append((g.view(m.state), list(m.events))))
    for every in (1, 2, 3, 4):
        at = Positions(g, data.header, events, every=every)
        assert at.violation is None and at.last == len(events)
        order = list(range(at.last + 1))
        order += random.Random(every).sample(order, len(order)) + order[::-1]
        for k in order:
            at.goto(k)
            assert (g.view(at.match.state), at.match.events) == views[k], (every, k)

