"""Helpers the rule tests of every game share: play typed moves, and check refusals."""

from __future__ import annotations

import pytest

from kabucli.engine import Match
from kabucli.errors import IllegalMove
from kabucli.events import Event


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


def since(m: Match, start: int) -> list[str]:
    """The notation of the events in effect from index ``start`` on."""
    return [m.game.notate(e) for e in m.events[start:]]
