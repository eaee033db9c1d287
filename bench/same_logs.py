"""Do two versions of kabucli write the same logs? (A check for speed-only changes.)

Plays seeded matches between bots of every game through the loop the CLI runs for bot seats
(``Session.run_bots``) with a log writer (msgpack, a fixed start time in the header), audits
each log with ``engine.walk``, and writes one line per match: game, seed, players, events,
SHA-256 of the log bytes. Run it under each version and compare:

    PYTHONPATH=/path/to/old/checkout python bench/same_logs.py /tmp/old.txt
    python bench/same_logs.py /tmp/new.txt --against /tmp/old.txt

Per game the matches vary the players, the bots (each kind alone and mixed) and the house
rules, so every phase and every kind of event is written. Dare's lines are those of the first
version of this script (Dare only), with the game's name in front.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))


@dataclass(frozen=True)
class Plan:
    """The matches of one game: match i has ``min_players + i % spread`` players, bots
    ``kinds[i % len(kinds)]`` (seat s gets kind ``(s - 1) % len``), house rules
    ``rules[i % len(rules)]`` and seed ``i * 7919 + 13``."""

    min_players: int
    spread: int
    kinds: tuple[tuple[str, ...], ...]
    rules: tuple[dict[str, Any], ...]


# Games with a plan of their own (house rules worth varying); every other registered game is
# played by default_plan, so a new game is covered by being registered.
PLANS: dict[str, Plan] = {
    "dare": Plan(2, 3, (("random",), ("best",), ("random", "best")), (
        {}, {"tie": "split"}, {"tie": "order", "yaku": "arashi"},
        {"yaku": "extended", "rounds": 5}, {"ante": 0, "rounds": 3}, {"ante": 3, "chips": 5},
    )),
    "kazu-tori": Plan(2, 4, (("random",), ("sharp",), ("random", "sharp")), (
        {}, {"limit": 15}, {"limit": 20, "tie": "each"}, {"tie": "none", "max_flips": 40},
        {"max_flips": 150, "chips": 5}, {"limit": 15, "tie": "each", "chips": 0},
    )),
    "yatchaba": Plan(2, 7, (("random",), ("smart",), ("random", "smart")), (
        {}, {"amounts": "book"}, {"pass_limit": 0}, {"games": 2, "chips": 10},
        {"amounts": "book", "pass_limit": 1, "games": 1}, {"pass_limit": 3, "chips": 0},
    )),
    "uno-dare": Plan(2, 9, (("random",), ("strong",), ("random", "strong")), (
        {"target": 100}, {"scoring": "lowest", "target": 150}, {"dare_skips": False},
        {"dares": "show-off", "target": 60}, {"max_turns": 40, "target": 80},
        {"dares": "daredevil", "scoring": "lowest", "dare_skips": False, "target": 200},
    )),
}


def default_plan(name: str) -> Plan:
    """Every seat count of the game, each built-in bot alone and all of them mixed, the
    default house rules."""
    from kabucli import bots, games

    game = games.get(name)
    kinds = tuple(bots.kinds(name))
    return Plan(game.min_players, game.max_players - game.min_players + 1,
                (*((k,) for k in kinds), kinds), ({},))


def plan_of(name: str) -> Plan:
    return PLANS[name] if name in PLANS else default_plan(name)


def log_lines(name: str, count: int) -> list[str]:
    import msgspec

    from kabucli import bots, games
    from kabucli.engine import Match, make_header, walk
    from kabucli.log import LogWriter, SeatInfo
    from kabucli.session import Session
    from kabucli.shuffle import Rng

    game = games.get(name)
    plan = plan_of(name)
    out = []
    for i in range(count):
        seed, n = i * 7919 + 13, plan.min_players + i % plan.spread
        kinds = plan.kinds[i % len(plan.kinds)]
        rules = game.Rules(**plan.rules[i % len(plan.rules)])
        seats = [SeatInfo(f"p{s}", f"bot:{kinds[(s - 1) % len(kinds)]}") for s in range(1, n + 1)]
        header = msgspec.structs.replace(make_header(game, rules, seats, seed),
                                         started="2026-01-01T00:00:00+00:00")
        buf = io.BytesIO()
        writer = LogWriter.start(buf, header, "msgpack", durable=False,
                                 types=games.event_types(name))
        match = Match(game, header, writer)
        players = {s: bots.make(name, kinds[(s - 1) % len(kinds)], Rng(seed, f"bot/{s}"))
                   for s in range(1, n + 1)}
        Session(match, players).run_bots()
        writer.flush()  # the inputs of a game between bots wait for the end
        if not match.over:
            raise SystemExit(f"{name} seed {seed}: the bots stopped before the end")
        violation = walk(game, header, match.events)[1]
        if violation is not None:
            raise SystemExit(f"{name} seed {seed}: the audit of its log fails: {violation}")
        digest = hashlib.sha256(buf.getvalue()).hexdigest()
        out.append(f"{name} {seed} {n} {len(match.events)} {digest}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="file to write the per-match lines to")
    ap.add_argument("--seeds", type=int, default=500, help="matches per game (default 500)")
    ap.add_argument("--game", action="append", metavar="GAME",
                    help="only this game (repeatable; default: every game)")
    ap.add_argument("--against", type=Path, help="an earlier output to compare with")
    args = ap.parse_args()
    import kabucli
    from kabucli.games import names

    print(f"kabucli of {Path(kabucli.__file__).parent}")
    lines: list[str] = []
    for name in args.game or names():
        got = log_lines(name, args.seeds)
        events = sum(int(line.split()[3]) for line in got)
        print(f"{name}: {len(got)} matches, {events} events, every log audits clean")
        lines += got
    args.out.write_text("\n".join(lines) + "\n")
    if args.against is not None:
        games = set(args.game or names())  # the lines of the games played this time
        old = [line for line in args.against.read_text().splitlines()
               if line.split(" ", 1)[0] in games]
        diff = [(a, b) for a, b in zip(old, lines, strict=False) if a != b]
        if diff or len(old) != len(lines):
            first = diff[0] if diff else ("(lengths differ)", "")
            print(f"DIFFERENT: {len(diff)} of {len(lines)} logs differ; first: {first[0]} "
                  f"vs {first[1]}")
            return 1
        print(f"identical to {args.against}: all {len(lines)} logs byte for byte")
    return 0


if __name__ == "__main__":
    sys.exit(main())
