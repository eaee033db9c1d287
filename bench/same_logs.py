"""Do two versions of kabucli write the same Dare logs? (A check for speed-only changes.)

Plays seeded Dare matches between bots through the real loop with a log writer (msgpack, a
fixed start time in the header), audits each log with ``engine.walk``, and writes one line per
match: seed, players, events, SHA-256 of the log bytes. Run it under each version and compare:

    PYTHONPATH=/path/to/old/checkout python bench/same_logs.py /tmp/old.txt
    python bench/same_logs.py /tmp/new.txt --against /tmp/old.txt

The matches vary players (2-4), bots (random, best, mixed) and house rules (tie, yaku, rounds,
ante, chips), so every phase and every kind of event is written.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

KINDS = (("random",), ("best",), ("random", "best"))
RULES: tuple[dict[str, Any], ...] = (
    {}, {"tie": "split"}, {"tie": "order", "yaku": "arashi"}, {"yaku": "extended", "rounds": 5},
    {"ante": 0, "rounds": 3}, {"ante": 3, "chips": 5},
)


def log_lines(count: int) -> list[str]:
    import msgspec

    from kabucli import bots, games
    from kabucli.engine import Match, make_header, walk
    from kabucli.log import MAGIC, LogWriter, SeatInfo, encode_record
    from kabucli.shuffle import Rng

    game = games.get("dare")
    out = []
    for i in range(count):
        seed, n, kinds = i * 7919 + 13, 2 + i % 3, KINDS[i % 3]
        rules = game.Rules(**RULES[i % len(RULES)])
        seats = [SeatInfo(f"p{s}", f"bot:{kinds[(s - 1) % len(kinds)]}") for s in range(1, n + 1)]
        header = msgspec.structs.replace(make_header(game, rules, seats, seed),
                                         started="2026-01-01T00:00:00+00:00")
        buf = io.BytesIO()
        buf.write(MAGIC)
        writer = LogWriter(buf, "msgpack", durable=False)
        writer._write(encode_record(header, "msgpack"))
        match = Match(game, header, writer)
        players = {s: bots.make("dare", kinds[(s - 1) % len(kinds)], Rng(seed, f"bot/{s}"))
                   for s in range(1, n + 1)}
        while match.advance().kind != "over":
            ev = game.bot_event(match, players)
            assert ev is not None
            match.submit(ev)
        violation = walk(game, header, match.events)[1]
        if violation is not None:
            raise SystemExit(f"seed {seed}: the audit of its log fails: {violation}")
        digest = hashlib.sha256(buf.getvalue()).hexdigest()
        out.append(f"{seed} {n} {len(match.events)} {digest}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="file to write the per-match lines to")
    ap.add_argument("--seeds", type=int, default=500, help="matches to play (default 500)")
    ap.add_argument("--against", type=Path, help="an earlier output to compare with")
    args = ap.parse_args()
    lines = log_lines(args.seeds)
    args.out.write_text("\n".join(lines) + "\n")
    events = sum(int(line.split()[2]) for line in lines)
    print(f"{len(lines)} matches, {events} events, every log audits clean")
    if args.against is not None:
        old = args.against.read_text().splitlines()
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
