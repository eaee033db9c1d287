"""The progress bar on stderr for long reads (kabucli.cli.common._long_work): at a terminal only,
once the work has taken half a second, its name cut to leave the bar its room."""

from __future__ import annotations

import pytest

from kabucli.cli import common


def test_a_progress_bar_shows_only_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setattr(common, "BAR_AFTER", 0.0)
    with common._long_work("reading big.jsonl") as tell:
        assert tell is None


def test_a_progress_bar_shows_at_a_terminal_once_the_work_has_taken_half_a_second(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    now = [1000.0]
    monkeypatch.setattr(common.time, "monotonic", lambda: now[0])
    with common._long_work("reading big.jsonl") as tell:
        assert tell is not None
        tell(1, 10)
        now[0] = 1000.49
        tell(2, 10)
        assert capsys.readouterr().err == ""  # a short read shows no bar
        now[0] = 1000.5
        tell(5, 10)
    assert "reading big.jsonl" in capsys.readouterr().err


def test_a_long_name_beside_a_progress_bar_is_cut_to_leave_the_bar_its_room(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(common, "BAR_AFTER", 0.0)
    name = "reading " + "x" * 100 + ".jsonl"
    with common._long_work(name) as tell:
        assert tell is not None
        tell(5, 10)
    err = capsys.readouterr().err
    assert "reading " + "x" * 25 + "…" in err  # 34 cells: 80 columns less 46
    assert "x" * 26 not in err
    assert "50%" in err
