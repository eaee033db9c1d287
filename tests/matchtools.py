"""Helpers the tests of every game share: play typed moves, check refusals, seat bots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from kabucli.bots import make
from kabucli.engine import Game, Match, make_header
from kabucli.errors import IllegalMove
from kabucli.events import Event
from kabucli.log import Header, SeatInfo
from kabucli.shuffle import Rng


def step(m: Match, move: str | Event) -> None:
    """Submit one typed (or built) event, then let the engine record what follows."""
    m.submit(m.game.parse(m.state, move) if isinstance(move, str) else move)
    m.advance()


def play(m: Match, *moves: str | Event) -> None:
    for move in moves:
        step(m, move)


def refused(m: Match, move: str | Event) -> str:
    """The reason ``move`` is refused; also checks that refusing changed nothing."""
    game = m.game
    ev = game.parse(m.state, move) if isinstance(move, str) else move
    before = (game.view(m.state), list(m.events), m.logged, m.pending)
    reason = m.why_not(ev)
    assert reason is not None, f"{move!r} was accepted"
    with pytest.raises(IllegalMove) as info:
        m.submit(ev)
    assert str(info.value) == reason
    assert (game.view(m.state), list(m.events), m.logged, m.pending) == before
    return reason


def typed_at_table(table: Match, ev: Event, seed: int) -> None:
    """``ev`` typed at a real table (a seeded game's event as its referee would type it):
    allowed (else the seed, the move and why), played, and what follows derived."""
    why = table.why_not(ev)
    assert why is None, (seed, table.game.notate(ev), why)
    table.submit(ev)
    table.advance()


def since(m: Match, start: int) -> list[str]:
    """The notation of the events in effect from index ``start`` on."""
    return [m.game.notate(e) for e in m.events[start:]]


def bot_header(game: Game, rules: msgspec.Struct, kinds: dict[int, str], seed: int) -> Header:
    """The header of a seeded match with the built-in bot ``kinds[p]`` in seat p."""
    seats = [SeatInfo(f"{kinds[p]}{p}", f"bot:{kinds[p]}") for p in sorted(kinds)]
    return make_header(game, rules, seats, seed)


def bot_match(game: Game, rules: msgspec.Struct, kinds: dict[int, str],
              seed: int) -> tuple[Match, dict[int, Any]]:
    """That match, and its bots seeded as the CLI seeds them (stream ``bot/SEAT``)."""
    match = Match(game, bot_header(game, rules, kinds, seed))
    bots = {p: make(game.name, kinds[p], Rng(seed, f"bot/{p}")) for p in kinds}
    return match, bots


def killer_bot(folder: Path) -> tuple[Path, Path]:
    """A bot program (a Python file in ``folder``) that kills the process playing its match,
    its parent, at its first turn while its marker file does not exist (and makes the
    marker), then plays the last legal move: (the program, the marker)."""
    marker = folder / "killed-once"
    bot = folder / "killer.py"
    bot.write_text(
        "import json, os, signal, sys\n"
        f"marker = {str(marker)!r}\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] != 'turn':\n"
        "        continue\n"
        "    if not os.path.exists(marker):\n"
        "        open(marker, 'w').close()\n"
        "        os.kill(os.getppid(), signal.SIGKILL)\n"
        "    print(m['legal'][-1], flush=True)\n")
    return bot, marker


def page_example(page: Path, intro: str) -> str:
    """The first fenced block of a docs page after the line that holds ``intro``, as the page
    gives it (so that a test reads the example from the page, not from a copy of it)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    start = next((i for i, line in enumerate(lines) if intro in line), None)
    assert start is not None, f"{page.name} no longer has '{intro}'"
    opens = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("```"))
    closes = next(i for i in range(opens + 1, len(lines)) if lines[i].startswith("```"))
    return "".join(f"{line}\n" for line in lines[opens + 1:closes])


def inputs_and_after(log: Path) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """A timed JSON Lines log's events, as (an input, the events derived after it): each input
    of a timed log carries its time ``t``, the events the engine derives do not."""
    out: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    for line in log.read_text(encoding="utf-8").splitlines()[1:]:
        event = msgspec.json.decode(line)
        if "t" in event:
            out.append((event, []))
        else:
            out[-1][1].append(event)
    return out


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its parent does not; Linux)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"
