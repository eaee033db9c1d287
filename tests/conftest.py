"""Shared fixtures: a real seeded Dare match between built-in bots."""

from __future__ import annotations

import pytest

from kabucli.bots import make
from kabucli.engine import Match, make_header
from kabucli.games.dare.rules import GAME
from kabucli.log import SeatInfo
from kabucli.shuffle import Rng

DARE_SEED = 1
DARE_BOTS = ("random", "best", "random")


def _play_dare(seed: int, kinds: tuple[str, ...]) -> Match:
    """A whole seeded Dare match (default house rules) between the built-in bots ``kinds``,
    seat 1 first, each bot drawing from its own stream ``bot/SEAT``, each seat named after
    its bot as ``kabucli play`` names it."""
    seats = [SeatInfo(k, f"bot:{k}") for k in kinds]
    match = Match(GAME, make_header(GAME, GAME.Rules(), seats, seed))
    bots = {i: make("dare", k, Rng(seed, f"bot/{i}")) for i, k in enumerate(kinds, start=1)}
    while (pending := match.advance()).kind != "over":
        seat = pending.seats[0]
        match.submit(bots[seat].choose(GAME, match.state, seat))
    return match


@pytest.fixture(scope="session")
def dare_match() -> Match:
    """The match of docs/log-format.md: seed 1, bots random/best/random, played to the end."""
    return _play_dare(DARE_SEED, DARE_BOTS)
