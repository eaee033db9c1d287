"""Many seeded games between bots, with statistics one can trust.

Game ``i`` of a run with seed ``S`` is dealt from seed ``S + i`` (mod 2**64), so any game of a
run can be replayed alone. With ``rotate`` the bots change seats every game (bot ``j`` sits in
seat ``(j + i) mod N + 1``), so that no bot profits from a seat. Results are per bot: the mean
change in chips with a 95% confidence interval, and match wins (a shared lead counts as a
fraction). With a log folder every game's log is written as the game ends, and a run started
again over the same folder reuses the games already there (so a long run can be resumed).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from kabucli import games
from kabucli.engine import Game, Match, walk
from kabucli.errors import KabuError
from kabucli.log import SeatInfo, read_log
from kabucli.rules import as_dict
from kabucli.session import start
from kabucli.shuffle import SEED_LIMIT


@dataclass
class BotStats:
    """Running totals for one bot over a run."""

    kind: str
    games: int = 0
    wins: float = 0.0
    total: float = 0.0
    squares: float = 0.0

    def add(self, delta: int, win_share: float) -> None:
        self.games += 1
        self.total += delta
        self.squares += delta * delta
        self.wins += win_share

    @property
    def mean(self) -> float:
        return self.total / self.games if self.games else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean (normal approximation)."""
        if self.games < 2:
            return math.inf
        var = (self.squares - self.games * self.mean ** 2) / (self.games - 1)
        return 1.96 * math.sqrt(max(var, 0.0) / self.games)

    def as_dict(self) -> dict[str, Any]:
        return {"bot": self.kind, "games": self.games, "wins": round(self.wins, 4),
                "win_rate": round(self.wins / self.games, 4) if self.games else None,
                "mean_chips": round(self.mean, 4),
                "ci95": None if math.isinf(self.ci95) else round(self.ci95, 4)}


@dataclass
class SimReport:
    game: str
    seed: int
    rotate: bool
    games: int = 0
    reused: int = 0
    events: int = 0
    pot_left: int = 0  # chips still in pots at the ends of games (carried, never won)
    bots: list[BotStats] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "rotate": self.rotate,
                "games": self.games, "reused_logs": self.reused, "events": self.events,
                "pot_left": self.pot_left,
                "bots": [b.as_dict() for b in self.bots]}


def seating(kinds: list[str], index: int, rotate: bool) -> list[int]:
    """For game ``index``: which bot (index into ``kinds``) sits in each seat."""
    n = len(kinds)
    shift = index % n if rotate else 0
    return [(seat - shift) % n for seat in range(n)]


def _result(match: Match, start_chips: list[int]) -> list[tuple[int, float]]:
    """(chips change, share of the win) per seat of a finished match."""
    ledger = getattr(match.state, "ledger", None)
    if ledger is None:
        raise KabuError(f"{match.game.title} keeps no chips; nothing to count")
    deltas = [ledger.seat(s) - start_chips[s - 1] for s in range(1, match.nseats + 1)]
    top = max(deltas)
    leaders = deltas.count(top)
    return [(d, 1.0 / leaders if d == top else 0.0) for d in deltas]


def simulate(game: Game, rules: msgspec.Struct, kinds: list[str], count: int, seed: int,
             rotate: bool = True, log_dir: Path | None = None,
             on_game: Callable[[int], None] | None = None) -> SimReport:
    """Play ``count`` seeded games between the bots ``kinds`` (one per seat)."""
    report = SimReport(game.name, seed, rotate, bots=[BotStats(k) for k in kinds])
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        order = seating(kinds, i, rotate)
        seats = [SeatInfo(f"{kinds[b]}#{b + 1}", f"bot:{kinds[b]}") for b in order]
        game_seed = (seed + i) % SEED_LIMIT
        match = None
        path = log_dir / f"{game.name}-{i + 1:05d}.kbl" if log_dir is not None else None
        if path is not None and path.exists():
            match = _reuse(game, path, seats, game_seed, as_dict(rules))
            if match is not None:
                report.reused += 1
            else:
                path.unlink()
        if match is None:
            sess = start(game, rules, seats, game_seed, path, "msgpack", durable=False)
            try:
                sess.run_bots()
            finally:
                sess.close()
            match = sess.match
            if not match.over:
                raise KabuError(f"game {i + 1} (seed {game_seed}) stopped before its end: "
                                f"waiting for {match.pending.what}")
        start_chips = [rules_chips(match)] * match.nseats
        for seat, (delta, share) in enumerate(_result(match, start_chips)):
            report.bots[order[seat]].add(delta, share)
        report.games += 1
        report.events += match.logged
        report.pot_left += match.state.ledger.pot
        if on_game is not None:
            on_game(i + 1)
    return report


def rules_chips(match: Match) -> int:
    chips = match.header.rules.get("chips")
    if not isinstance(chips, int):
        raise KabuError(f"{match.game.title} has no 'chips' house rule to count from")
    return chips


def _reuse(game: Game, path: Path, seats: list[SeatInfo], seed: int,
           rules: dict[str, Any]) -> Match | None:
    """The finished match in an existing log, if it is the game this run would play."""
    try:
        data = read_log(path, games.event_types)
    except KabuError:
        return None
    h = data.header
    if h.game != game.name or h.seed != seed or h.seats != seats or h.rules != rules:
        return None
    match, violation = walk(game, data.header, data.events)
    return match if violation is None and match.over else None
