"""At a narrow terminal (50 columns) nothing a person reads is cut: tables keep every word of
every cell (a seat, its chips, a hand, a rule's name, a figure of sim's report) and the table
panel keeps its whole title. Rich alone cut them with '…' or shrank columns to nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.render.fit import markdown

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 50
ENV = {"NO_COLOR": "1", "COLUMNS": str(WIDTH), "TERM": "dumb"}
runner = CliRunner()

# one log of each game, at an event where every seat's row is full
LOGS = {
    "dare": ("replays/dare/3p-showdown-outright.kbl", "pot "),
    "kazu-tori": ("replays/kazu-tori/2p-limit-20-ten-taken-at-twenty.kbl", "Jizo used"),
    "yatchaba": ("replays/yatchaba/3p-book-amounts.kbl", "pot "),
    "uno-dare": ("replays/uno-dare/3p-missed-uno-too-late.kbl", "dares: "),
    "kabu-tsukuri": ("replays/kabu-tsukuri/3p-dealer-winner.kbl", "pot "),
}


def kabucli(*args: str) -> Any:
    res = runner.invoke(app, list(args), env=ENV)
    assert res.exit_code == 0, res.output
    return res


@pytest.mark.parametrize("game", sorted(LOGS))
def test_replay_table_at_50_columns_cuts_no_word(game: str) -> None:
    log, title_word = LOGS[game]
    path = str(ROOT / log)
    steps = len(json.loads(kabucli("replay", path, "--json").stdout)["steps"])
    for at in (steps // 3, steps // 2, steps - 1):
        out = kabucli("replay", path, "--at", str(at)).stdout
        table = out[out.index(f"state after event {at}"):]
        assert "…" not in table, table
        assert max(len(line) for line in table.splitlines()) <= WIDTH
        assert title_word in table, table
        # every seat of the log shows with its chips or score: no column shrank to nothing
        seats = json.loads(kabucli("replay", path, "--json").stdout)["header"]["seats"]
        for i in range(1, len(seats) + 1):
            assert re.search(rf"(^|[│ ])p{i}\b", table, re.M), (i, table)


def test_rules_list_at_50_columns_keeps_every_game_name() -> None:
    out = kabucli("rules").stdout
    assert "…" not in out
    for name in games.names():
        assert re.search(rf"(^|[│ ]){re.escape(name)}([│ ]|$)", out, re.M), (name, out)


@pytest.mark.parametrize("game", games.names())
def test_rules_of_a_game_at_50_columns_keep_every_rule_name_and_value(game: str) -> None:
    out = kabucli("rules", game).stdout
    tables = out[out.index("House rules (--rule"):]
    assert "…" not in tables, tables
    for rule in json.loads(kabucli("rules", game, "--json").stdout)["house_rules"]:
        assert rule["name"] in tables, (rule["name"], tables)


@pytest.mark.parametrize("game", games.names())
def test_rules_page_tables_at_a_50_column_terminal_keep_every_word(game: str) -> None:
    """The rules page is drawn as Markdown at a terminal; its tables cut rule names."""
    console = Console(width=WIDTH, color_system=None, force_terminal=True, record=True)
    console.print(markdown(games.page(game)))
    text = console.export_text()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= WIDTH


def test_sim_report_at_50_columns_keeps_every_figure() -> None:
    args = ("sim", "dare", "-b", "best", "-b", "random", "-m", "30", "-s", "1", "-j", "1")
    out = kabucli(*args).stdout
    assert "…" not in out, out
    data = json.loads(kabucli(*args, "--json").stdout)
    for bot in data["bots"]:
        assert f"{bot['wins']:g}" in out, (bot, out)


def words_of(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("width", [80, 50])
def test_play_help_wraps_each_command_under_its_own_column(width: int) -> None:
    # printed as one long string, 'undo' wrapped its last word to the left edge at 80
    # columns and cut words in two at 50
    from kabucli.session import COMMANDS

    res = runner.invoke(app, ["play", "dare", "-s", "7", "-b", "2=best", "--no-log"],
                        input="help\nquit\n", env={**ENV, "COLUMNS": str(width)})
    assert res.exit_code == 0, res.output
    out = res.stdout
    start = out.rindex("\n", 0, out.index("list the legal moves")) + 1
    block = out[start:]
    lines = [line for line in block.splitlines() if line.strip()]
    lines = lines[:lines.index(next(x for x in lines if x.lstrip().startswith("a name")))]
    assert all(line.startswith("  ") for line in lines), lines
    assert max(len(line.rstrip()) for line in lines) <= width
    assert words_of(" ".join(lines)) == words_of(" ".join(f"{k} {v}" for k, v in
                                                          COMMANDS.items()))


def test_replay_step_help_wraps_each_key_under_its_own_column() -> None:
    from kabucli.render.pager import HELP_INTRO, HELP_KEYS

    log = str(ROOT / "replays" / "dare" / "3p-showdown-outright.kbl")
    res = runner.invoke(app, ["replay", log, "--step"], input="h\nq\n", env=ENV)
    assert res.exit_code == 0, res.output
    out = res.stdout
    block = out[out.index("keys (at a terminal"):]
    lines = block.splitlines()
    keys = [line for line in lines[1:] if line.startswith("  ")]
    assert all(len(line.rstrip()) <= WIDTH for line in lines)
    assert words_of(" ".join(keys)) == words_of(" ".join(f"{k} {v}" for k, v in HELP_KEYS))
    assert words_of(" ".join(lines[:len(block[:block.index("  n,")].splitlines())])) == \
        words_of(HELP_INTRO)


def test_solve_at_50_columns_keeps_every_arrangement_and_its_chips() -> None:
    # the '#', 'aside' and 'chips' columns shrank to nothing and the row names were cut
    args = ("solve", "kabu-tsukuri", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10")
    out = kabucli(*args).stdout
    assert "…" not in out, out
    assert max(len(line) for line in out.splitlines()) <= WIDTH
    for plan in json.loads(kabucli(*args, "--json").stdout)["arrangements"]:
        assert f"{plan['expected']:+.3f}" in out, (plan, out)
        for name in plan["names"]:
            assert name in out, (name, out)


def test_a_narrow_report_listed_shows_a_bot_named_with_brackets_as_it_is() -> None:
    """Too narrow for its table, sim's report lists each bot over its figures; a bot's name
    is escaped for the table's markup, and the list showed the escape ('cmd:false \\[x]')."""
    out = kabucli("sim", "dare", "--bot", "cmd:false [x]", "--bot", "random", "--matches",
                  "2", "--seed", "1", "-r", "rounds=1").stdout
    assert "#1 cmd:false [x]" in out.splitlines(), out
    assert "\\[" not in out


@pytest.mark.parametrize("game", ["kazu-tori", "uno-dare"])
def test_a_rules_example_wrapped_at_60_columns_goes_on_under_its_comment(game: str) -> None:
    """A line of a code block (the example of a table refereed by hand) that does not fit goes
    on under where its comment began: at the first column, its last words ('first', 'each',
    'loses the turn (dare_skips)') read as moves of their own."""
    console = Console(width=60, color_system=None, force_terminal=True, record=True)
    console.print(markdown(games.page(game)))
    text = console.export_text()
    page = games.page(game)
    example = page[page.index("refereed by hand"):]
    code = example[example.index("```") + 3:]
    code = code[code.index("\n") + 1:code.index("```")]
    commented = [line for line in code.splitlines() if "#" in line]
    assert any(len(line) > 58 for line in commented)  # some do not fit in 60 columns
    drawn = text[text.index("refereed by hand"):].splitlines()
    for line in commented:
        first = next(i for i, d in enumerate(drawn) if d.strip().startswith(line[:20]))
        hash_at = drawn[first].index("#")
        words = line.split("#", 1)[1].split()
        got: list[str] = drawn[first][hash_at + 1:].split()
        for cont in drawn[first + 1:]:
            if len(got) >= len(words):
                break
            assert cont[:hash_at + 2].strip() == "", (line, cont)  # under the comment
            got += cont.split()
        assert got == words, (line, got)
        assert max(len(d) for d in drawn[first:first + 3]) <= 60


@pytest.mark.parametrize("width", [60, 50, 45])
def test_uno_dare_status_line_breaks_between_its_parts(width: int) -> None:
    """The line under Uno Dare's title (top card, color, direction, pile, discards) breaks
    between its parts: rich alone put ``pile`` at the end of a 60-column line and its number
    on the next, and began that line with the separator."""
    log = str(ROOT / "replays/uno-dare/2p-reshuffle-of-discards.kbl")
    res = runner.invoke(app, ["replay", log, "--at", "5"],
                        env={**ENV, "COLUMNS": str(width)})
    assert res.exit_code == 0, res.output
    lines = [line.strip("│ ") for line in res.stdout.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("top "))
    status = lines[start:start + 4]
    assert any(re.search(r"\bpile \d+\b", line) for line in status), status
    assert any(re.search(r"\bdiscards \d+\b", line) for line in status), status
    assert not any(line.startswith("·") or line.endswith("·") for line in status), status
    assert not any(line.endswith(("pile", "discards", "play")) for line in status), status


def test_parts_put_as_many_parts_on_a_line_as_fit() -> None:
    from rich.text import Text

    from kabucli.render.fit import Parts

    console = Console(width=20, no_color=True, force_terminal=False)
    with console.capture() as cap:
        console.print(Parts([Text("aaaa"), Text("bbbb"), Text("cccc dddd eeee ffff gggg")]))
    lines = [line.rstrip() for line in cap.get().splitlines()]
    assert lines == ["aaaa  ·  bbbb", "cccc dddd eeee ffff", "gggg"]
    wide = Console(width=80, no_color=True)
    with wide.capture() as cap:
        wide.print(Parts([Text("aaaa"), Text("bbbb"), Text("cccc")]))
    assert cap.get() == "aaaa  ·  bbbb  ·  cccc\n"


@pytest.mark.parametrize(("log", "at"), [("replays/yatchaba/3p-book-amounts.kbl", 20),
                                         ("replays/uno-dare/3p-first-card-wild-dare.kbl", 109)])
def test_a_line_of_words_wraps_in_the_table_panel_rather_than_widening_it(log: str,
                                                                          at: int) -> None:
    """At a wide terminal the table's panel keeps its width (80 columns) while its tables fit
    it a line a row: a line of words wraps. Yatchaba's odds line and Uno Dare's dare made the
    panel as wide as they were long (98-120 columns), so it changed width from event to
    event."""
    res = runner.invoke(app, ["replay", str(ROOT / log), "--at", str(at)],
                        env={**ENV, "COLUMNS": "120"})
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    top = lines[next(i for i, line in enumerate(lines) if line.startswith("state after")) + 1]
    assert len(top) == 80, top
    assert "dare #" in res.stdout or "best guess" in res.stdout


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("game", ["dare", "kazu-tori", "yatchaba"])
def test_cards_drawn_as_boxes_go_on_in_rows_of_whole_boxes(game: str, width: int) -> None:
    """Cards drawn as boxes (a table's cards, a field, a row face up) go on in rows of whole
    boxes at any width. They were one line of boxes that the terminal's width cut mid-box:
    Kazu-Tori's table of 16 cards at 80 columns put a box's top on one line and its end on
    the next."""
    most = 0
    for log in sorted((ROOT / "replays" / game).glob("*.kbl")):
        steps = len(json.loads(kabucli("replay", str(log), "--json").stdout)["steps"])
        for at in sorted({steps // 2, steps * 3 // 4, steps - 1}):
            res = runner.invoke(app, ["replay", str(log), "--at", str(at)],
                                env={**ENV, "COLUMNS": str(width)})
            assert res.exit_code == 0, res.output
            for line in res.stdout.splitlines():
                assert line.count("╭") == line.count("╮"), (log.name, at, line)
                assert line.count("╰") == line.count("╯"), (log.name, at, line)
                most = max(most, line.count("╭"))
    assert most >= 3  # (boxes were drawn)


def test_kazu_tori_pile_wraps_rather_than_squeezing_the_seats_and_status() -> None:
    """A long pile of cards wraps in its column at 80 columns. It was drawn on one line
    whatever its length, and the seat's name and status were squeezed into a word a line
    (`p2` over `random`, `flips` over `next,` over `says` over `eight`)."""
    log = str(ROOT / "replays/kazu-tori/4p-jizo-handed-out-then-removed.kbl")
    res = runner.invoke(app, ["replay", log, "--at", "80"], env={**ENV, "COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    out = res.stdout
    table = out[out.index("state after event 80"):]
    assert "p2 random" in table and "p4 random" in table, table
    assert "flips next, says eight" in table, table
    assert "Oni" in table and "10 6 4 5" in table, table  # (the pile is shown, wrapped)


def test_dare_hand_wraps_rather_than_squeezing_the_seat_names() -> None:
    """At 80 columns, with sets laid and hands of nine, Dare's hands go on under themselves
    and every seat keeps its name on one line; drawn on one line each, they squeezed the seat
    column to `p3` over `Chie`."""
    log = str(ROOT / "replays/dare/3p-physical-match.kbl")
    res = runner.invoke(app, ["replay", log, "--at", "19"], env={**ENV, "COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    table = res.stdout[res.stdout.index("state after event 19"):]
    for seat in ("p1 Aki", "p2 Ben", "p3 Chie"):
        assert seat in table, table
    assert "1-6-10  2-5-10  3-4-10" in table, table
    assert table.count("??") == 18, table  # (both hidden hands of nine, wrapped)


def test_tournament_standings_at_80_columns_keep_each_rating_and_bot_name_on_a_line() -> None:
    """At 80 columns the standings of four bots keep each Elo and its interval (`+231 ± 172`)
    and each bot's name (`#2 random`) on one line, their headers wrapped instead; they were
    broken over two lines (`+231 ±` over `172`, `#2` over `random`), read as two things."""
    args = ("tournament", "kazu-tori", "-b", "sharp", "-b", "random", "-b", "random", "-b",
            "sharp", "--deals", "1", "--seed", "1", "-j", "1")
    res = runner.invoke(app, list(args), env={**ENV, "COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    data = json.loads(kabucli(*args, "--json").stdout)
    standings = res.stdout[:res.stdout.index("Pairs")]
    for rating in data["ratings"]:
        name = rating["name"]
        line = next((line for line in standings.splitlines() if name in line), "")
        assert re.search(r"[+-]\d+ ± \d+ │$", line), (name, standings)
        assert f"{rating['elo']:+.0f} ± {rating['ci95']:.0f}" in line, (rating, line)
    assert len(data["ratings"]) == 4


def test_a_card_face_with_spaces_round_it_is_never_cut_in_a_narrow_column() -> None:
    """Uno Dare's card faces are drawn with a space each side (' WD4 '); in a hand column of 4
    at 40 columns the first one kept its leading space and lost its end ('WD…'). A cell's
    first word counts with the spaces before it, so the table is drawn as a list there."""
    log = str(ROOT / "replays/uno-dare/2p-reverse-acts-as-skip.kbl")
    res = runner.invoke(app, ["replay", log, "--at", "49"], env={**ENV, "COLUMNS": "40"})
    assert res.exit_code == 0, res.output
    table = res.stdout[res.stdout.index("state after event 49"):]
    assert "…" not in table, table
    assert "WD16" in table, table


def test_a_real_tables_uno_dare_hands_are_counted_face_down_not_drawn_one_by_one() -> None:
    """At a real table nobody has seen the hands: each was drawn as seven '??', which told
    nothing the cards column does not, and at 40 columns took a line a card. A hand nobody
    has seen says how many cards are face down; the cards shown at the end are drawn."""
    env = {**ENV, "COLUMNS": "40"}
    res = runner.invoke(app, ["play", "uno-dare", "-n", "3", "--physical", "--no-log"],
                        input="deal R5\nquit\n", env=env)
    table = res.stdout[res.stdout.index("R5"):]
    assert "??" not in table
    rows = [line for line in table.splitlines() if re.match(r"│ p\d ", line)]
    assert len(rows) == 3
    words = " ".join(line.split("│")[4].strip() for line in table.splitlines()
                     if line.count("│") >= 6)
    assert words.split().count("face") == 3 and words.split().count("down") == 3
    assert len([line for line in table.splitlines() if line.count("│") >= 6]) <= 3 * 3
    out = runner.invoke(app, ["replay", str(ROOT / "replays/uno-dare/3p-physical-round.kbl")],
                        env={**ENV, "COLUMNS": "100"}).stdout
    assert "│ 7 face down " in out and "??" not in out
