"""The harness the tampering tests of every game share (test_tampered.py for Dare,
test_kazutori_replays.py, test_yatchaba_replays.py): change a recorded log's events, write the
copy in the log's own format, and check that ``kabucli audit`` rejects it (exit 1) at the
right event and for the right reason, in its text and in its ``--json`` report."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from kabucli.cli import app
from kabucli.engine import Game, walk
from kabucli.events import Event
from kabucli.games import event_types
from kabucli.log import Header, LogData, read_log, write_log

ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
runner = CliRunner()

# What a tampering gives: the changed events, the index (1-based) audit must name, and words
# its reason must contain.
Tampered = tuple[list[Event], int, str]


def audit(path: Path, *more: str) -> Result:
    return runner.invoke(app, ["audit", str(path), *more], env=ENV)


def first(events: list[Event], want: Callable[[Event], bool], start: int = 0) -> int:
    """The 0-based position of the first event from ``start`` that ``want`` accepts."""
    return next(i for i in range(start, len(events)) if want(events[i]))


def replaced(events: list[Event], pos: int, ev: Event) -> list[Event]:
    """The events with the one at ``pos`` replaced by ``ev``."""
    return [*events[:pos], ev, *events[pos + 1:]]


def removed(events: list[Event], pos: int) -> list[Event]:
    """The events without the one at ``pos``."""
    return [*events[:pos], *events[pos + 1:]]


def state_before(game: Game, header: Header, events: list[Event], pos: int) -> Any:
    """The state after the events before ``pos`` (which must all be legal)."""
    match, violation = walk(game, header, events[:pos])
    assert violation is None
    return match.state


def sources(params: Iterable[Any]) -> list[str]:
    """The recorded files a list of ``pytest.param(source, ...)`` starts from."""
    return sorted({p.values[0] for p in params})


def audit_rejects_copy(data: LogData, source: str, tampered: Tampered, tmp_path: Path) -> None:
    """Writes the tampered events of ``data`` (read from ``source``) under its header, in its
    format, and checks that audit rejects the copy at the named event, for the named reason."""
    events, index, reason = tampered
    assert events != data.events
    # JSON Lines holds every event as it is given, the derived ones too (format 2's binary
    # encoding keeps only the inputs and cannot hold a broken log: test_log_v2.py tampers it)
    path = tmp_path / "tampered.jsonl"
    write_log(path, data.header, events, "jsonl", types=event_types(data.header.game))

    res = audit(path)
    assert res.exit_code == 1, res.stdout + res.stderr
    assert res.stderr.startswith(f"invalid: {path}: event {index}: ")
    assert reason in res.stderr

    report = json.loads(audit(path, "--json").stdout)
    assert report[0]["status"] == "invalid"
    assert report[0]["index"] == index
    assert reason in report[0]["reason"]


def untampered_copies_audit_valid(folder: Path, names: Iterable[str], tmp_path: Path) -> None:
    """The logs ``names`` of ``folder``, copied the way the tampered ones are written, audit
    as valid: what audit rejects in a copy is the tampering, not the copying."""
    for name in names:
        data = read_log(folder / name, event_types)
        path = tmp_path / name
        write_log(path, data.header, data.events, data.fmt, times=data.times,
                  types=event_types(data.header.game))
        res = audit(path)
        assert res.exit_code == 0, res.stderr
