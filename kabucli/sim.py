"""Many seeded matches between bots, with statistics one can trust.

The unit is the match, played to its end under the house rules: a Dare match is
``rounds`` rounds, a Yatchaba match ``games`` games, a Kazu-Tori match one game. Match ``i`` of
a run with seed ``S`` is dealt from seed ``S + i`` (mod 2**64), so any match of a run can be
replayed alone. With ``rotate`` the bots change seats every match (bot ``j`` sits in seat
``(j + i) mod N + 1``), so that no bot profits from a seat. Results are per bot: the mean
change in chips over a match with a 95% confidence interval, and match wins (a shared lead
counts as a fraction). With a log folder every match's log is written there as it is played,
and a run started again over the same folder reuses the finished matches already there (so a
long run can be resumed); a file there that is not this run's is never overwritten.
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
from kabucli.rules import as_dict, describe
from kabucli.session import start
from kabucli.shuffle import SEED_LIMIT


@dataclass
class BotStats:
    """Running totals for one bot over a run."""

    kind: str
    matches: int = 0
    wins: float = 0.0
    total: float = 0.0
    squares: float = 0.0

    def add(self, delta: int, win_share: float) -> None:
        self.matches += 1
        self.total += delta
        self.squares += delta * delta
        self.wins += win_share

    @property
    def mean(self) -> float:
        return self.total / self.matches if self.matches else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean (normal approximation)."""
        if self.matches < 2:
            return math.inf
        var = (self.squares - self.matches * self.mean ** 2) / (self.matches - 1)
        return 1.96 * math.sqrt(max(var, 0.0) / self.matches)

    def as_dict(self) -> dict[str, Any]:
        return {"bot": self.kind, "matches": self.matches, "wins": round(self.wins, 4),
                "win_rate": round(self.wins / self.matches, 4) if self.matches else None,
                "mean_chips": round(self.mean, 4),
                "ci95": None if math.isinf(self.ci95) else round(self.ci95, 4)}


@dataclass
class SimReport:
    game: str
    seed: int
    rotate: bool
    matches: int = 0
    reused: int = 0
    events: int = 0
    pot_left: int = 0  # chips still in pots at the ends of matches (carried, never won)
    bots: list[BotStats] = field(default_factory=list)
    # what a bot's mean counts: its change in chips, or in a game scored on a score sheet
    # (Uno Dare) its final score, negated where the lowest score wins
    measure: str = "chips"

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "rotate": self.rotate,
                "matches": self.matches, "reused_logs": self.reused, "events": self.events,
                "pot_left": self.pot_left, "measure": self.measure,
                "bots": [b.as_dict() for b in self.bots]}


def seating(kinds: list[str], index: int, rotate: bool) -> list[int]:
    """For match ``index``: which bot (index into ``kinds``) sits in each seat."""
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
             on_match: Callable[[int], None] | None = None) -> SimReport:
    """Play ``count`` seeded matches between the bots ``kinds`` (one per seat).

    With ``log_dir`` every log already there for this run is checked before anything is
    played: the finished log of the very match a run would play (same game, seed, seats and
    rules) is reused, the log of that match cut short is played again over it, and any other
    file stops the run (KabuError): it is never overwritten."""
    report = SimReport(game.name, seed, rotate, bots=[BotStats(k) for k in kinds],
                       measure=measure(game))
    rules_dict = as_dict(rules)

    def plan(i: int) -> tuple[list[int], list[SeatInfo], int, Path | None]:
        order = seating(kinds, i, rotate)
        seats = [SeatInfo(f"{kinds[b]}#{b + 1}", f"bot:{kinds[b]}") for b in order]
        path = log_dir / f"{game.name}-{i + 1:05d}.kbl" if log_dir is not None else None
        return order, seats, (seed + i) % SEED_LIMIT, path

    done: dict[int, Tally] = {}  # matches whose finished logs are reused
    again: set[int] = set()  # matches whose logs were cut short: played again over them
    if log_dir is not None:
        _log_folder(log_dir)
        for i in range(count):
            _, seats, match_seed, path = plan(i)
            if path is not None and (path.exists() or path.is_symlink()):
                match = _existing(game, path, seats, match_seed, rules_dict)
                if match is not None:
                    done[i] = _tally(match)
                else:
                    again.add(i)
    for i in range(count):
        order, seats, match_seed, path = plan(i)
        tally = done.get(i)
        if tally is not None:
            report.reused += 1
        else:
            if path is not None and i in again:
                path.unlink()
            sess = start(game, rules, seats, match_seed, path, "msgpack", durable=False)
            try:
                sess.run_bots()
            finally:
                sess.close()
            match = sess.match
            if not match.over:
                raise KabuError(f"match {i + 1} (seed {match_seed}) stopped before its end: "
                                f"waiting for {match.pending.what}")
            tally = _tally(match)
        results, logged, pot = tally
        for seat, (delta, share) in enumerate(results):
            report.bots[order[seat]].add(delta, share)
        report.matches += 1
        report.events += logged
        report.pot_left += pot
        if on_match is not None:
            on_match(i + 1)
    return report


# What a run keeps of a finished match: (chips change, share of the win) per seat, the
# number of log records, and the chips left in the pot.
Tally = tuple[list[tuple[int, float]], int, int]


def _tally(match: Match) -> Tally:
    if getattr(match.state, "ledger", None) is None:
        return _scored(match), match.logged, 0
    start_chips = [rules_chips(match)] * match.nseats
    return _result(match, start_chips), match.logged, match.state.ledger.pot


def _scored(match: Match) -> list[tuple[int, float]]:
    """(final score, share of the win) per seat of a finished match of a game that keeps a
    score sheet instead of chips: its outcome's ``scores`` and ``winners`` (a score counts
    negated when the outcome says the lowest wins)."""
    out = match.outcome() or {}
    scores, winners = out.get("scores"), out.get("winners")
    if not isinstance(scores, dict) or not isinstance(winners, list) or not winners:
        raise KabuError(f"{match.game.title} keeps no chips and no scores; nothing to count")
    sign = -1 if out.get("scoring") == "lowest" else 1
    return [(sign * int(scores[f"p{s}"]), 1.0 / len(winners) if f"p{s}" in winners else 0.0)
            for s in range(1, match.nseats + 1)]


def measure(game: Game) -> str:
    """What a run's means count for ``game`` (see ``SimReport.measure``)."""
    return "chips" if any(r.name == "chips" for r in describe(game.Rules)) else "score"


def _log_folder(log_dir: Path) -> None:
    """Make the log folder; KabuError in one line when it cannot be one."""
    if log_dir.exists() and not log_dir.is_dir():
        raise KabuError(f"log folder {log_dir} is a file, not a folder")
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise KabuError(f"cannot make the log folder {log_dir}: {exc.strerror}") from None


def rules_chips(match: Match) -> int:
    chips = match.header.rules.get("chips")
    if not isinstance(chips, int):
        raise KabuError(f"{match.game.title} has no 'chips' house rule to count from")
    return chips


def _existing(game: Game, path: Path, seats: list[SeatInfo], seed: int,
              rules: dict[str, Any]) -> Match | None:
    """The finished match in the log at ``path`` when it is the match this run plays there;
    None when it is that match cut short (a run stopped in it), to be played again; KabuError
    when the file is anything else."""
    keep = "kabucli sim never overwrites it: remove it or choose another log folder"
    if not path.is_file():
        raise KabuError(f"{path} is there and is not a log file; {keep}")
    try:
        data = read_log(path, games.event_types, strict=False)
    except KabuError as exc:
        msg = str(exc)
        raise KabuError(f"{msg if msg.startswith(str(path)) else f'{path}: {msg}'}; "
                        f"{keep}") from None
    h = data.header
    other = [what for what, same in (("game", h.game == game.name), ("seed", h.seed == seed),
                                     ("bots", h.seats == seats), ("house rules", h.rules == rules))
             if not same]
    if other:
        raise KabuError(f"{path} holds another match (different {', '.join(other)}); {keep}")
    try:
        match, violation = walk(game, h, data.events)
    except KabuError as exc:
        raise KabuError(f"{path}: {exc}; {keep}") from None
    if violation is not None:
        raise KabuError(f"{violation.line(str(path))}; {keep}")
    return match if match.over and data.error is None else None
