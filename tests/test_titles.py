"""A table's title at 80 and 100 columns, in every game: each of its parts (``round 1 over``,
``next dealer p2``, ``target 60 (winner)``) reads whole on one line, on the border where it
fits there, else on the panel's first line. At 80 columns Uno Dare's title after a round
(``Uno Dare · round 1 over · next dealer p2 · target 60 (winner) · dares: family``) was too
long for the border and wrapped inside the panel, ``dares:`` on one line and ``family`` on
the next."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kabucli import games, render
from kabucli.cli import app
from kabucli.engine import Match, walk
from kabucli.log import read_log

ROOT = Path(__file__).resolve().parent.parent
LOGS = sorted(p for p in (ROOT / "replays").glob("*/*") if p.suffix in (".kbl", ".jsonl"))
SEP = " · "
runner = CliRunner()


def drawn(table: Any, width: int) -> list[str]:
    console = Console(width=width, color_system=None, force_terminal=False)
    with console.capture() as cap:
        console.print(table)
    return cap.get().splitlines()


def check_title(title: str, lines: list[str], width: int) -> None:
    """Every part of ``title`` whole on the border (the first line) or on the next line, in
    order, the border holding at least the game's name and where the match is."""
    border, first = lines[0], lines[1]
    assert max(len(line) for line in lines) <= width
    parts = title.split(SEP)
    on_border = [p for p in parts if f" {p} " in border or f"{p}{SEP}" in border]
    assert on_border == parts[:len(on_border)] and len(on_border) >= 2, (title, border)
    rest = SEP.join(parts[len(on_border):])
    if rest:
        assert first.strip(" │").startswith(rest), (title, lines[:3])


@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_title_of_a_replay_reads_whole(path: Path, width: int) -> None:
    data = read_log(path, games.event_types)
    g = games.get(data.header.game)
    seen: set[str] = set()

    def check(m: Match) -> None:
        table = render.table(g, m, None)
        title = table.title
        if title not in seen:  # each title once (a table drawn is the costly part)
            seen.add(title)
            check_title(title, drawn(table, width), width)

    check(Match(g, data.header))
    walk(g, data.header, data.events, lambda i, ev, m: check(m))
    assert seen


def test_uno_dare_title_after_a_round_at_80_columns_in_replay_and_play() -> None:
    env = {"NO_COLOR": "1", "COLUMNS": "80", "TERM": "dumb"}
    log = ROOT / "replays" / "uno-dare" / "3p-first-card-dare.kbl"
    at = runner.invoke(app, ["replay", str(log), "--at", "33"], env=env)
    assert at.exit_code == 0, at.output
    lines = at.stdout.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("╭─ Uno Dare"))
    assert lines[top].startswith("╭─ Uno Dare · round 1 over · next dealer p2 · target 60 "
                                 "(winner) ─")
    assert lines[top + 1].strip(" │") == "dares: family"
    play = runner.invoke(app, ["play", "uno-dare", "--seed", "4", "--bot", "all=strong",
                               "--no-log"], env=env)
    assert play.exit_code == 0, play.output
    assert "dares:\n" not in play.stdout.replace(" ", "").replace("│", "")
    assert "│ dares: family" in play.stdout


def test_a_title_too_long_for_the_border_keeps_its_parts_whole() -> None:
    """Any game's title (Yatchaba's, six seats deep in a long match, is 76 characters): the
    parts that fit stay on the border, the rest is the first line; a title whose first part
    does not fit at all is the first line whole, as before."""
    from rich.text import Text

    from kabucli.render.fit import titled

    title = ("Yatchaba · game 10/10 · round 3 over · dealer p6 · next guesser p6 · pot 1200")
    lines = drawn(titled(Text("body"), title), 80)
    assert lines[0].startswith("╭─ Yatchaba · game 10/10 · round 3 over · dealer p6 · next "
                               "guesser p6 ─")
    assert lines[1].strip(" │") == "pot 1200"
    assert lines[2].strip(" │") == "body"
    lines = drawn(titled(Text("body"), title), 100)
    assert title in lines[0] and lines[1].strip(" │") == "body"
    lines = drawn(titled(Text("body"), "a-very-long-first-part · and more"), 20)
    assert lines[0].strip("╭─╮") == "" and "a-very-long-firs" in lines[1]


def titles_of(path: Path) -> list[tuple[str, str]]:
    """Each table title of a replay, beside the line of the event it follows."""
    data = read_log(path, games.event_types)
    g = games.get(data.header.game)
    out: list[tuple[str, str]] = []
    walk(g, data.header, data.events,
         lambda i, ev, m: out.append((g.notate(ev), str(render.table(g, m, None).title))))
    return out


@pytest.mark.parametrize(("log", "last"), [
    ("uno-dare/3p-first-card-dare.kbl", "Uno Dare · round 3 over · match over · target 60"),
    ("yatchaba/3p-book-amounts.kbl", "Yatchaba · game 1/1 · round 3 over · match over · pot 61"),
    ("yatchaba/3p-nobody-right-carried-pot-won-next-game.kbl",
     "Yatchaba · game 3/3 · round 2 over · match over · pot 0"),
    ("dare/3p-showdown-outright.kbl", "Dare · round 2/2 over · "),
    ("kabu-tsukuri/3p-dealer-winner.kbl", "Kabu-Tsukuri · hand 4/4 over · pot 0"),
])
def test_the_last_table_of_a_match_says_its_round_is_over(log: str, last: str) -> None:
    """Uno Dare's and Yatchaba's last table was titled as if its round still ran (``round 3
    · dealer p3``), with no next dealer or guesser since none comes."""
    titles = titles_of(ROOT / "replays" / log)
    assert titles[-1][1].startswith(last), titles[-1]
    assert "next " not in titles[-1][1]


def test_a_kabu_tsukuri_table_after_a_rows_result_names_that_row_until_the_next_bet() -> None:
    """The result of row 1 was titled ``row 2``, the row not yet bet on."""
    titles = titles_of(ROOT / "replays" / "kabu-tsukuri" / "3p-dealer-winner.kbl")
    after = [t for line, t in titles if line.startswith("result hand 1 row ")]
    assert [t.split(SEP)[3] for t in after[:2]] == ["row 1 over", "row 2 over"]
    bets = [t for line, t in titles if line.startswith("stakes row 2 ")]
    assert bets and bets[0].split(SEP)[3] == "row 2"
