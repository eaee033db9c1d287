"""A resumed match between built-in bots goes on as the unbroken one would have: resume asks
the bots again at each of their turns the log holds (session.caught_up_bots), so that each
bot's generator is where it was. Before, every bot started its generator afresh, and a
seeded match crashed and resumed went otherwise from the first move after the crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from kabucli import bots as botreg, games
from kabucli.events import Undo
from kabucli.log import SeatInfo, audit_log, read_log, write_log
from kabucli.session import build_seats, caught_up_bots, resume, start

SEED = 11


def _bot_match(name: str, folder: Path, players: int = 3) -> Path:
    """A seeded match between the game's built-in bots, every kind in turn, played whole
    and logged (format 2)."""
    g = games.get(name)
    kinds = list(botreg.kinds(name))
    specs = [f"{seat}={kinds[(seat - 1) % len(kinds)]}" for seat in range(1, players + 1)]
    seats = build_seats(g, players, [], specs)
    path = folder / f"{name}.kbl"
    s = start(g, g.Rules(), seats, SEED, path, None, durable=False)
    s.run_bots()
    s.close()
    return path


def _cut(full: Path, k: int, folder: Path) -> Path:
    """The log of ``full``'s first ``k`` events, as a crash after event ``k`` leaves it."""
    data = read_log(full, games.event_types)
    path = folder / f"cut-{k}.kbl"
    write_log(path, data.header, data.events[:k], "msgpack",
              types=games.event_types(data.header.game))
    return path


@pytest.mark.parametrize("name", games.names())
def test_a_bot_match_cut_anywhere_and_resumed_goes_on_as_the_unbroken_match(
        name: str, tmp_path: Path) -> None:
    full = _bot_match(name, tmp_path, players=4)
    events = read_log(full, games.event_types).events
    n = len(events)
    assert n > 40
    # and right after the first races the bots drew (Kazu-Tori's claims, Uno Dare's catches):
    # the log then ends before the winner's move, which the resumed match plays first
    races = [i + 1 for i, ev in enumerate(events) if type(ev).__name__ == "Race"][:3]
    assert races or name not in ("kazu-tori", "uno-dare")
    for k in sorted({1, 2, n // 7, n // 3, n // 2, 2 * n // 3, 9 * n // 10, *races}):
        cut = _cut(full, k, tmp_path)
        session, error = resume(cut, durable=False)
        assert error is None
        session.run_bots()
        session.close()
        assert read_log(cut, games.event_types).events == events, f"cut after event {k}"


def _next_draws(bots: dict[int, Any]) -> dict[int, list[int]]:
    """Each bot's generator's next 16 draws (every built-in bot keeps it as ``rng``)."""
    return {seat: [bot.rng.below(1 << 30) for _ in range(16)] for seat, bot in bots.items()}


def test_the_bots_generators_are_where_the_log_left_them(tmp_path: Path) -> None:
    full = _bot_match("dare", tmp_path)
    data = read_log(full, games.event_types)
    g = games.get("dare")
    kinds = {p: s.control[4:] for p, s in enumerate(data.header.seats, 1)}
    caught = _next_draws(caught_up_bots(g, data.header, data.events[:40], kinds)[0])
    fresh = _next_draws(caught_up_bots(g, data.header, [], kinds)[0])
    drew = [p for p in kinds if kinds[p] == "random"]  # (the best bot draws only on ties)
    assert drew and all(caught[p] != fresh[p] for p in drew)  # for its moves before 40


def test_a_log_the_bots_would_not_have_played_resumes_with_fresh_bots(tmp_path: Path) -> None:
    """A log whose seat 1 moved otherwise than its bot would have (here the header names
    another kind than played it) cannot be caught up: the bots start afresh, as before,
    and the match plays on to a valid end."""
    full = _bot_match("dare", tmp_path)
    data = read_log(full, games.event_types)
    seats = list(data.header.seats)
    other = "random" if seats[0].control == "bot:best" else "best"
    seats[0] = SeatInfo(seats[0].name, f"bot:{other}")
    header = msgspec.structs.replace(data.header, seats=seats)
    g = games.get("dare")
    kinds = {p: s.control[4:] for p, s in enumerate(seats, 1)}
    caught, _ = caught_up_bots(g, header, data.events[:40], kinds)
    assert _next_draws(caught) == _next_draws(caught_up_bots(g, header, [], kinds)[0])
    path = tmp_path / "other.kbl"
    write_log(path, header, data.events[:40], "msgpack", types=games.event_types("dare"))
    session, _ = resume(path, durable=False)
    session.run_bots()
    session.close()
    assert audit_log(path, games.event_types).violation is None


def test_a_log_with_an_undo_resumes_with_fresh_bots(tmp_path: Path) -> None:
    """A person took a move back: the bots' turns before it may have been asked more often
    than the log shows, so they start afresh."""
    full = _bot_match("dare", tmp_path)
    data = read_log(full, games.event_types)
    g = games.get("dare")
    kinds = {p: s.control[4:] for p, s in enumerate(data.header.seats, 1)}
    events = [*data.events[:40], Undo()]
    caught, _ = caught_up_bots(g, data.header, events, kinds)
    assert _next_draws(caught) == _next_draws(caught_up_bots(g, data.header, [], kinds)[0])


def test_resume_tells_its_progress_reading_then_catching_up(tmp_path: Path) -> None:
    """A long log takes seconds to resume: ``progress`` is told the reading's bytes as the
    first half and the bots' catching up as the second, always further, up to the end."""
    g = games.get("uno-dare")
    seats = build_seats(g, 2, [], ["all=random"])
    full = tmp_path / "long.kbl"
    s = start(g, g.Rules(target=3000), seats, SEED, full, None, durable=False)
    s.run_bots()
    s.close()
    events = read_log(full, games.event_types).events
    n = len(events)
    assert n - 10 >= 3 * 4096
    cut = _cut(full, n - 10, tmp_path)
    size = cut.stat().st_size
    told: list[tuple[int, int]] = []
    session, _ = resume(cut, durable=False, progress=lambda d, t: told.append((d, t)))
    session.close()
    fractions = [d / t for d, t in told]
    assert fractions == sorted(fractions) and len(told) >= 3
    assert (size, 2 * size) in told  # the reading done: half way
    caught = [d - (n - 10) for d, t in told if t == 2 * (n - 10) and d > n - 10]
    assert caught == [4096, 8192, 12288][:len(caught)] and len(caught) >= 3


def test_resume_at_a_terminal_shows_a_bar_and_piped_none(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``kabucli resume`` draws the bar of a long resume on stderr at a terminal (once it has
    taken common.BAR_AFTER seconds; made 0 here), as replay and audit do; piped, none."""
    from typer.testing import CliRunner

    from kabucli import cli
    from kabucli.cli import common

    monkeypatch.setattr(common, "BAR_AFTER", 0)
    monkeypatch.chdir(tmp_path)
    full = _bot_match("dare", tmp_path)
    n = len(read_log(full, games.event_types).events)
    for env, shown in (({"FORCE_COLOR": "1", "COLUMNS": "100"}, True),
                       ({"NO_COLOR": "1", "COLUMNS": "100"}, False)):
        cut = _cut(full, n // 2, tmp_path).rename(tmp_path / f"cut-{shown}.kbl")
        res = CliRunner().invoke(cli.app, ["resume", cut.name, "--quiet"], env=env)
        assert res.exit_code == 0, res.output
        assert (f"resuming {cut.name}" in res.stderr) == shown, res.stderr
