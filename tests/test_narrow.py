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
