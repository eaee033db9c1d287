"""How output looks to a person reading it at a terminal: what a probe of every game's
output at 80, 100 and 140 columns found wrong (lines that wrapped badly, ``+0``, figures of
one column printed to different precisions, a result left over from an earlier hand)."""

from __future__ import annotations

import itertools
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
