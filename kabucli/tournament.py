"""Tournaments: more bots than seats, every group of them meeting in every seating.

A round-robin meets every group of ``seats`` bots of the field; a gauntlet meets the first bot
with every group of ``seats - 1`` of the others. Each group plays ``deals`` deals, each deal in
every seating of its bots (``seats!`` of them, :func:`kabucli.sim.seating_at`: every seat and
every order around the table), so no bot profits from a seat, from whom it sits after, or
from a deal; deal ``k`` of every group is dealt from seed ``S + k``, the same cards for every
group. The matches are those of :func:`kabucli.sim.simulate` (workers, Ray, logs,
forfeits), counted in order, so the results do not depend on how they were played.

Ratings: Elo with 95% error bars, for two seats from every pair's results
(:func:`kabucli.ratings.elo_ratings`), for more from every pair of seats of each match (each
match a ranking of its seats by their result, a failing bot last:
:class:`kabucli.ratings.RankedElo`). Like the results, they do not depend on the order the
matches are counted in, so two copies of one bot with the same results are rated alike.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from kabucli.engine import Game
from kabucli.errors import KabuError
from kabucli.ratings import RankedElo, elo_ratings, head_to_head
from kabucli.sim import Outcome, SimReport, bot_entries, bot_name, simulate

if TYPE_CHECKING:
    from kabucli.plot import Recorder

FORMATS = ("round-robin", "gauntlet")
MAX_GROUPS = 10_000
# the field's ratings take memory that grows as the square of the bots and work as the cube
# (kabucli.ratings: the information matrix and its inverse): a gauntlet of two seats allowed
# 10,001 bots, whose 20,000 matches then led to ratings of hours and about 16 GB
MAX_BOTS = 200


def schedule(bots: int, seats: int, fmt: str) -> tuple[tuple[int, ...], ...]:
    """The groups (bot indices) that meet: at most MAX_GROUPS, counted before any is made
    (120 bots at 8 seats are 8e11 groups: making them first took all memory), of a field of
    at most MAX_BOTS bots."""
    if fmt not in FORMATS:
        raise KabuError(f"unknown tournament format '{fmt}' (formats: {', '.join(FORMATS)})")
    if bots > MAX_BOTS:
        raise KabuError(f"a tournament of {bots} bots: at most {MAX_BOTS} (its ratings' work "
                        "grows as the cube of the field)")
    if not 2 <= seats <= bots:
        raise KabuError(f"a tournament of {bots} bots needs 2 to {bots} seats, not {seats}")
    count = (math.comb(bots - 1, seats - 1) if fmt == "gauntlet"
             else math.comb(bots, seats))
    if count > MAX_GROUPS:
        raise KabuError(f"{count} groups would meet: at most {MAX_GROUPS} (fewer bots, or a "
                        "gauntlet)")
    if fmt == "gauntlet":
        return tuple((0, *c) for c in combinations(range(1, bots), seats - 1))
    return tuple(combinations(range(bots), seats))


@dataclass
class Group:
    """One group's results: per bot (in the group's order) its wins, chips and forfeits."""

    bots: tuple[int, ...]
    matches: int = 0
    wins: list[float] = field(default_factory=list)
    total: list[float] = field(default_factory=list)
    forfeits: list[int] = field(default_factory=list)
    wdl: list[int] = field(default_factory=lambda: [0, 0, 0])  # two seats: bots[0]'s
    played: int = 0  # matches played to their end (the means' count): none forfeited

    def __post_init__(self) -> None:
        n = len(self.bots)
        self.wins = self.wins or [0.0] * n
        self.total = self.total or [0.0] * n
        self.forfeits = self.forfeits or [0] * n

    def as_dict(self, kinds: list[str]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "bots": [bot_name(b + 1, kinds[b]) for b in self.bots], "matches": self.matches,
            "wins": [round(w, 4) for w in self.wins],
            "mean": [round(t / self.played, 4) if self.played else None for t in self.total],
            "forfeits": self.forfeits}
        if len(self.bots) == 2:
            out["head_to_head"] = head_to_head(*self.wdl)
        return out


@dataclass
class TournamentReport:
    sim: SimReport
    kinds: list[str]
    seats: int
    fmt: str
    deals: int
    groups: list[Group]
    ratings: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.sim.game, "seed": self.sim.seed, "format": self.fmt,
                "seats": self.seats, "deals": self.deals, "matches": self.sim.matches,
                "planned": self.sim.planned, "stopped": self.sim.stopped or None,
                "reused_logs": self.sim.reused, "events": self.sim.events,
                "pot_left": self.sim.pot_left,
                "failures": self.sim.failures, "failed": self.sim.failed,
                "measure": self.sim.measure, "ratings": self.ratings,
                "bots": bot_entries(self.sim.bots),
                "groups": [g.as_dict(self.kinds) for g in self.groups]}


def tournament(game: Game, rules: msgspec.Struct, kinds: list[str], seats: int, fmt: str,
               deals: int, seed: int, log_dir: Path | None = None, workers: int = 1,
               max_failures: int | None = None, timeout: float | None = None,
               backend: str = "local", address: str | None = None,
               on_match: Callable[[SimReport], None] | None = None,
               started: str | None = None, recorder: Recorder | None = None
               ) -> TournamentReport:
    """Play the tournament and rate the bots (see the module). A ``recorder``
    (:class:`kabucli.plot.Recorder`) keeps the ratings as the matches are counted."""
    if not game.min_players <= seats <= game.max_players:
        raise KabuError(f"{game.title} takes {game.min_players}-{game.max_players} players, "
                        f"not {seats} seats")
    groups = schedule(len(kinds), seats, fmt)
    per = math.factorial(seats) * deals  # a group's matches
    stats = [Group(g) for g in groups]
    rater = RankedElo(len(kinds)) if seats > 2 else None

    def on_outcome(out: Outcome, order: list[int]) -> None:
        g = stats[out.idx // per]
        g.matches += 1
        if out.results is None:
            shares = [0.0 if s == out.failed else 1.0 / (seats - 1) for s in range(1, seats + 1)]
            results = [-1.0 if s == out.failed else 0.0 for s in range(1, seats + 1)]
            for s, b in enumerate(order, 1):
                g.forfeits[g.bots.index(b)] += s == out.failed
        else:
            shares = [share for _, share in out.results]
            # the match's winners first (a game's own winners, such as Kazu-Tori's, may
            # have no more chips than the others), the rest by their chips
            top = max(delta for delta, _ in out.results) + 1.0
            results = [top if share else float(delta) for delta, share in out.results]
            g.played += 1
            for (delta, _), b in zip(out.results, order, strict=True):
                g.total[g.bots.index(b)] += delta
        for share, b in zip(shares, order, strict=True):
            g.wins[g.bots.index(b)] += share
        if seats == 2:
            first = shares[order.index(g.bots[0])]
            g.wdl[0 if first > 0.75 else 1 if first > 0.25 else 2] += 1
        elif rater is not None:
            rater.add(list(zip(order, results, strict=True)))

    n = len(kinds)

    def ratings() -> list[tuple[float, float | None]]:
        """Each bot's rating now, and the half-width of its 95% interval (2 sigma)."""
        if seats == 2:
            pairs = {(g.bots[0], g.bots[1]): (g.wdl[0] + 0.5 * g.wdl[1], g.matches)
                     for g in stats if g.matches}
            return elo_ratings(n, pairs)
        assert rater is not None
        return rater.results()

    if recorder is not None:
        recorder.rate = ratings
        recorder.expect(len(groups) * per)
        on_match = recorder.watch(on_match)
    report = simulate(game, rules, kinds, 0, seed, True, log_dir, on_match, workers=workers,
                      max_failures=max_failures, timeout=timeout, backend=backend,
                      address=address, groups=groups, deals=deals, on_outcome=on_outcome,
                      started=started)
    out = TournamentReport(report, kinds, seats, fmt, deals, stats)
    for i, (elo, err) in enumerate(ratings()):
        # "bot" is the name here, the kind in ``bots``: kept so, for the programs that read
        # it; "name" is the key that is the same in both
        name = bot_name(i + 1, kinds[i])
        played = report.bots[i].matches > 0  # (else its 0 is the others' mean, no rating)
        out.ratings.append({"name": name, "bot": name, "method": "elo",
                            # (+ 0.0: a rating of -3e-14 is 0, not -0)
                            "elo": round(elo, 1) + 0.0 if played else None,
                            "ci95": None if err is None or not played else round(err, 1)})
    return out
