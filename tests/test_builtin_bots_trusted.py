"""Every built-in bot of every game, played as ``kabucli sim`` plays it (``Game.bot_move``, a
trusted move recorded by ``Match.accept_trusted``): each trusted move is legal, the same seed
gives the same events (in this process and in another one), and a bot's choice depends only on
what its seat may see (the other seats' hidden cards shuffled among them change nothing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from matchtools import bot_match

from kabucli import games
from kabucli.engine import Match

NAMES = games.names()
ROOT = Path(__file__).resolve().parent.parent
LIMIT = 2500  # events of each match played (a whole match when it ends sooner)


def kinds_of(name: str) -> list[str]:
    return sorted(games.part(name, "bots").BOTS)


def seatings(name: str) -> list[tuple[int, dict[int, str]]]:
    """(seed, bot kind by seat): each kind alone at the fewest and the most seats, and mixed."""
    game = games.get(name)
    kinds = kinds_of(name)
    lo, hi = game.min_players, game.max_players
    out = []
    seed = 700
    for kind in kinds:
        for n in (lo, hi):
            seed += 1
            out.append((seed, dict.fromkeys(range(1, n + 1), kind)))
    for n in sorted({lo, (lo + hi) // 2, hi}):
        for _ in range(3):
            seed += 1
            out.append((seed, {p: kinds[(p + seed) % len(kinds)] for p in range(1, n + 1)}))
    return out


def play(name: str, seed: int, seats: dict[int, str],
         before: Callable[[Match], Callable[[], None] | None] | None = None) -> Match:
    """A seeded match of built-in bots, played as Session.run_bots plays it, every trusted
    move checked in full (``check_trusted``). ``before``: called before each bot move, may
    change the state and return how to put it back (after the bot has chosen)."""
    game = games.get(name)
    match, bots = bot_match(game, game.Rules(), seats, seed)
    match.check_trusted = []
    while match.logged < LIMIT:
        p = match.advance()
        if p.kind == "over":
            break
        undo = before(match) if before is not None else None
        try:
            move = game.bot_move(match, bots, p)
        finally:
            if undo is not None:
                undo()
        assert move is not None, f"{name} seed {seed}: no bot moves at {p.what}"
        ev, trusted = move
        assert trusted, f"{name} seed {seed}: a built-in bot's move is not trusted"
        match.accept_trusted(ev)  # raises IllegalMove if the move is not legal
    return match


def notations(match: Match) -> list[str]:
    return [match.game.notate(e) for e in match.events]


@pytest.mark.parametrize("name", NAMES)
def test_every_trusted_move_of_every_built_in_bot_is_legal(name: str) -> None:
    checked = 0
    seen_kinds: set[str] = set()
    for seed, seats in seatings(name):
        match = play(name, seed, seats)
        checked += len(match.check_trusted or [])
        seen_kinds |= set(seats.values())
    assert seen_kinds == set(kinds_of(name))
    assert checked >= 200


@pytest.mark.parametrize("name", NAMES)
def test_the_same_seed_gives_the_same_bot_match(name: str) -> None:
    for seed, seats in seatings(name)[::3]:
        assert notations(play(name, seed, seats)) == notations(play(name, seed, seats))


PROGRAM = """
import json, sys
sys.path.insert(0, sys.argv[1])
from test_builtin_bots_trusted import NAMES, notations, play, seatings
print(json.dumps({n: [notations(play(n, s, k)) for s, k in seatings(n)[::4]] for n in NAMES}))
"""


def test_bot_matches_are_the_same_in_another_process_with_another_hash_seed() -> None:
    here = {n: [notations(play(n, s, k)) for s, k in seatings(n)[::4]] for n in NAMES}
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", PROGRAM, str(ROOT / "tests")], env=env,
                         capture_output=True, text=True, check=True, timeout=600).stdout
    assert json.loads(out) == here


def _redeal(hands: list[list[int]], seats: list[int], extra: list[list[int]],
            keep_sorted: bool) -> Callable[[], None]:
    """Shuffle the cards of ``hands[q]`` (q in ``seats``) and of the ``extra`` lists among
    them, each keeping its size; return how to put them back."""
    lists = [hands[q] for q in seats] + extra
    pool = [c for lst in lists for c in lst]
    pool = pool[len(pool) // 2:][::-1] + pool[:len(pool) // 2]  # a fixed, thorough mixing
    saved = [list(lst) for lst in lists]
    i = 0
    for lst in lists:
        k = len(lst)
        lst[:] = sorted(pool[i:i + k]) if keep_sorted else pool[i:i + k]
        i += k

    def undo() -> None:
        for lst, old in zip(lists, saved, strict=True):
            lst[:] = old
    return undo


def _hidden(name: str) -> Callable[[Match], Callable[[], None] | None]:
    """For ``name``, a ``before`` that shuffles the cards the seat to move may not see."""
    def before(match: Match) -> Callable[[], None] | None:
        s: Any = match.state
        p = match.pending
        if p.kind != "action" or len(p.seats) != 1:
            return None
        seat = p.seats[0]
        others = [q for q in range(1, s.n + 1) if q != seat]
        if name == "dare":
            return _redeal(s.hands, others, [], keep_sorted=True)
        if name == "uno-dare":
            if s.window:
                return None
            return _redeal(s.hands, others, [s.pile], keep_sorted=False)
        if name == "kabu-tsukuri":
            if s.phase != "arrange":
                return None
            return _redeal(s.cards, [q for q in others if s.cards[q]], [], keep_sorted=True)
        return None
    return before


@pytest.mark.parametrize("name", ["dare", "uno-dare", "kabu-tsukuri"])
def test_a_bots_choices_do_not_depend_on_cards_its_seat_may_not_see(name: str) -> None:
    assert name in NAMES
    for seed, seats in seatings(name):
        fair = play(name, seed, seats)
        shuffled = play(name, seed, seats, _hidden(name))
        assert notations(shuffled) == notations(fair), (name, seed, seats)
