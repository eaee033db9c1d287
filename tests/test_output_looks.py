"""How output looks to a person reading it at a terminal: what a probe of every game's
output at 80, 100 and 140 columns found wrong (lines that wrapped badly, ``+0``, figures of
one column printed to different precisions, a result left over from an earlier hand)."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli.cli import app

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
runner = CliRunner()
BOX = tuple("╭│╰┏┃┡└━─")
EVENT = re.compile(r"^ *\d+ ")


def kabucli(*args: str, columns: int = 80) -> Any:
    return runner.invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": str(columns),
                                               "TERM": "dumb"})


WORDS_AT = len("   1 ") + len("table        ")  # where an event's words begin


@pytest.mark.parametrize("columns", [80, 100])
def test_a_long_event_line_wraps_under_its_words(columns: int) -> None:
    """An event's words that do not fit on one line go on under where they began, as a
    hanging indent: they wrapped to the first column, under the event numbers."""
    continued = 0
    for log in sorted(REPLAYS.glob("*/*.kbl")):
        res = kabucli("replay", str(log), columns=columns)
        assert res.exit_code == 0, res.output
        lines = res.output.splitlines()
        last = max(i for i, line in enumerate(lines) if EVENT.match(line))
        lines = lines[:last]  # the outcome's tables follow the last event
        for before, line in itertools.pairwise(lines):
            if EVENT.match(before) and not EVENT.match(line) and not line.lstrip().startswith(
                    BOX):
                continued += 1
                assert line.startswith(" " * WORDS_AT), f"{log.name}: {before!r} / {line!r}"
    assert continued > 0  # some event lines are long enough to wrap


@pytest.mark.parametrize("name", ["Ann", "太郎花子"])
def test_a_wrapped_event_line_of_a_wide_name_stays_within_the_width(name: str) -> None:
    """The hanging indent is measured in cells: a seat named in wide characters (two cells
    a letter) is wider than its count of characters, and its continued lines went past the
    terminal's width."""
    from rich.cells import cell_len
    from rich.console import Console

    from kabucli.render import Hanging

    console = Console(width=60, color_system=None, legacy_windows=False)
    line = Hanging()
    line.append("   7 ")
    line.append(f"{'p1 ' + name:<12} ")
    line.hang = len(line)
    line.append("p1 flip 6 breaks a rule: it is not p1's turn (waiting for p2: p2 to flip "
                "saying one, or a claim on the 3)")
    with console.capture() as out:
        console.print(line)
    lines = out.get().splitlines()
    head = cell_len(f"   7 {'p1 ' + name:<12} ")
    assert len(lines) > 1 and all(cell_len(x.rstrip()) <= 60 for x in lines), lines
    assert all(x.startswith(" " * head) and x[head] != " " for x in lines[1:]), lines


def test_event_words_begin_in_one_column_whatever_the_names_are_written_in(
        tmp_path: Path) -> None:
    """The seat's column is padded in cells: a name in wide characters (two cells a letter)
    or with combining marks (none) pushed the event's words right or left of the others',
    and of where their own continued lines hang."""
    from rich.cells import cell_len

    log = tmp_path / "names.kbl"
    res = kabucli("play", "kazu-tori", "--seed", "5", "--bot", "all=random",
                  "-p", "1=e\u0301e\u0301",
                  "-p", "2=漢字", "-p", "3=Ｂｏ", "--log", str(log), "-q")
    assert res.exit_code == 0, res.output
    res = kabucli("replay", str(log), columns=60)
    assert res.exit_code == 0, res.output
    starts = set()
    for line in res.output.splitlines():
        m = re.match(r"^ *\d+ (p\d \S+|table|engine) +", line)
        if m:
            starts.add(cell_len(m.group(0)))
    assert starts == {WORDS_AT}, starts


SIGNED_ZERO = re.compile(r"(?<![\w.])[+-]0(\.0+)?(?![\w.])")


def cells(output: str, title: str) -> list[list[str]]:
    """The rows of the table under ``title`` in a report, as lists of stripped cells."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("└"):
            break
        if line.startswith("│"):
            rows.append([c.strip() for c in line.strip("│").split("│")])
    return rows


def test_a_tournament_shows_no_signed_zero_and_its_elos_alike() -> None:
    """Two bots of one kind tie: their pair's Elo difference is 0, not ``+0``; a mean of no
    chips is 0.00, not ``+0.00``; every bot's Elo and its interval are whole numbers (they
    were ``+164.1 ± 159`` over ``-328.1 ± 233.6``)."""
    res = kabucli("tournament", "kazu-tori", "-b", "sharp", "-b", "sharp", "-b", "random",
                  "-s", "3", "-d", "4", columns=120)
    assert res.exit_code == 0, res.output
    assert not SIGNED_ZERO.search(res.output), res.output
    bots = cells(res.output, "Kazu-Tori round-robin")
    assert [row[-1] for row in bots] == ["+164 ± 159", "+164 ± 159", "-328 ± 234"]
    assert [row[5] for row in bots] == ["0.00"] * 3
    assert cells(res.output, "Pairs")[0][-1] == "0 (-225 to +225)"


def test_fractional_wins_are_shown_to_one_precision() -> None:
    """Dare's shared leads count as parts of a win: the wins column shows each bot's to one
    decimal place (``:g`` gave 6 significant digits, ``1492.17`` over ``52.1667``)."""
    res = kabucli("sim", "dare", "-b", "best", "-b", "random", "-b", "best", "-m", "60", "-s",
                  "1", "-j", "1", columns=120)
    assert res.exit_code == 0, res.output
    wins = [row[2] for row in cells(res.output, "Dare: 60 matches")]
    assert len(wins) == 3
    assert all(re.fullmatch(r"\d+\.\d", w) for w in wins), wins


def test_kabu_tsukuri_s_table_between_hands_shows_the_rows_of_the_hand_just_played() -> None:
    """The table after a hand's last row (waiting for the next deal) was empty: the state had
    cleared the rows, so the hand just decided could not be seen, only its result line."""
    log = REPLAYS / "kabu-tsukuri" / "3p-dealer-winner.kbl"
    lines = kabucli("replay", str(log), columns=100).output.splitlines()
    at = next(i for i, line in enumerate(lines) if "hand 1/4 over" in line)
    panel = lines[at:next(j for j in range(at, len(lines)) if lines[j].startswith("╰"))]
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[4:7]]
            for line in panel if re.match(r"│ p\d", line)}
    # the rows each seat laid, as the replay's turns showed them
    assert rows == {"p2 best": ["2-7-9", "6-11-12", "4-7-9"],
                    "p3 random": ["5-1-4", "11-8-1", "5-10-2"],
                    "p1 best": ["3-12-12", "6-6-7", "4-7-9"]}, "\n".join(panel)
    dealt = next(i for i, line in enumerate(lines) if "hand 2, dealer p1" in line)
    panel = lines[dealt + 1:next(j for j in range(dealt + 1, len(lines))
                                 if lines[j].startswith("╰"))]
    assert not any("2-7-9" in line for line in panel)  # a new hand: its own cards only


@pytest.mark.parametrize("log", sorted((REPLAYS / "kabu-tsukuri").glob("*.kbl")),
                         ids=lambda p: p.name)
def test_kabu_tsukuri_s_new_hand_shows_no_result_of_the_last(log: Path) -> None:
    """The table drawn at a hand's deal said how the last row of the hand before ended
    (``hand 1 row 3: p3 takes the pot of 4`` under hand 2's fresh cards)."""
    lines = kabucli("replay", str(log), columns=100).output.splitlines()
    deals = 0
    for i, line in enumerate(lines):
        dealt = re.search(r"\bhand (\d+), dealer p\d", line)
        if not dealt or int(dealt[1]) == 1:
            continue
        deals += 1
        panel = lines[i + 1:next(j for j in range(i + 1, len(lines))
                                 if lines[j].startswith("╰"))]
        assert not any(f"hand {int(dealt[1]) - 1} row" in row for row in panel), "\n".join(
            panel)
    if "nine-cards" not in log.name and "physical" not in log.name:
        assert deals > 0


@pytest.mark.parametrize("columns", [80, 140])
def test_a_table_fills_its_panel(columns: int) -> None:
    """A game's table spans its panel: where the panel's title was the wider, the line under
    the table's headings stopped short of the panel's edge, the last column open to the
    right (``━━━━━━━━           │``)."""
    rules = 0
    for log in sorted(REPLAYS.glob("*/*.kbl")):
        res = kabucli("replay", str(log), columns=columns)
        assert res.exit_code == 0, res.output
        for line in res.output.splitlines():
            if line.startswith("│ ━") and "╇" in line:
                rules += 1
                assert line.endswith("━ │"), f"{log.name}: {line!r}"
    assert rules > 0


@pytest.mark.parametrize(("log", "result"), [
    ("4p-tie-carry-same-dealer.kbl", "tie, pot carries"),
    ("4p-nobody-qualifies.kbl", "nobody qualified, pot carries"),
])
def test_dare_s_round_that_nobody_won_names_no_winner(log: str, result: str) -> None:
    """A Dare round whose pot carries has no winner to name: its row of the rounds table
    said ``tie, pot carries: -``."""
    res = kabucli("replay", str(REPLAYS / "dare" / log), columns=100)
    assert res.exit_code == 0, res.output
    assert ["1", result] in cells(res.output, "rounds")


@pytest.mark.parametrize("columns", [60, 100, 160])
def test_a_replay_s_panels_keep_one_width_from_event_to_event(columns: int) -> None:
    """Each table's panel was as wide as what it held that moment, so a replay's boxes (and
    the pager's, from one key to the next) changed width at every event: 62, 67, 62 and 65
    columns in one Dare replay. A panel is now 80 columns wide (the terminal's width where
    that is narrower), wider only for a table that needs it; the log's header panel wraps
    its words within the same width."""
    from rich.cells import cell_len

    from kabucli.render.fit import PANEL_WIDTH

    width = min(columns, PANEL_WIDTH)
    for log in sorted(REPLAYS.glob("*/*")):
        res = kabucli("replay", str(log), columns=columns)
        assert res.exit_code == 0, res.output
        tops = [cell_len(line) for line in res.output.splitlines() if line.startswith("╭")]
        assert len(tops) >= 2, log
        assert tops[0] == width, (log.name, tops)  # the header panel
        assert min(tops) == width and max(tops) <= columns, (log.name, tops)
        if log.parent.name in ("dare", "yatchaba") and "physical" not in log.name:
            assert set(tops) == {width}, (log.name, tops)  # nothing there needs more


def test_an_sprt_whose_llr_rounds_to_zero_shows_no_signed_zero() -> None:
    """A match won each way and two drawn leave fastchess's LLR a hair below zero (-0.0004 for
    seed 2's 1-2-1): it was shown ``LLR -0.00``, a minus that says nothing."""
    res = kabucli("sim", "dare", "-b", "random", "-b", "random", "-m", "4", "-s", "2", "-j",
                  "1", "--rule", "rounds=1", "--sprt", "elo0=0 elo1=5", columns=200)
    assert res.exit_code == 0, res.output
    data = json.loads(kabucli("sim", "dare", "-b", "random", "-b", "random", "-m", "4", "-s",
                              "2", "-j", "1", "--rule", "rounds=1", "--sprt", "elo0=0 elo1=5",
                              "--json").output)
    assert -0.005 < data["sprt"]["llr"] < 0, data["sprt"]
    line = next(line for line in res.output.splitlines() if line.startswith("SPRT"))
    assert "LLR 0.00 " in line and not SIGNED_ZERO.search(line), line


def test_sim_s_head_to_head_line_stays_one_line_when_piped() -> None:
    """Piped, rich drew sim's summary lines at its default 80 columns, so a head-to-head line
    of 81 characters was broken before its last figure ("..., LOS" then "100.0%" alone on
    the next line): a script reading the line lost the LOS. The lines are now printed whole,
    as every other one-line message is."""
    res = kabucli("sim", "dare", "-b", "best", "-b", "random", "-m", "3", "-s", "1", "-j", "1")
    assert res.exit_code == 0, res.output
    line = next(line for line in res.output.splitlines() if line.startswith("#1 vs #2:"))
    assert len(line) > 80 and line.endswith("LOS 100.0%"), line


@pytest.mark.parametrize(("no_color", "escapes"), [("", True), ("1", False), ("0", False)])
def test_no_color_set_to_any_text_but_the_empty_one_means_no_escapes(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], no_color: str,
        escapes: bool) -> None:
    from kabucli.cli.common import _console

    monkeypatch.setenv("FORCE_COLOR", "1")  # (no-color.org: an empty NO_COLOR is not set)
    monkeypatch.setenv("NO_COLOR", no_color)
    _console(stderr=True).print("[bold red]error:[/] x")
    assert ("\x1b[" in capsys.readouterr().err) == escapes
