"""Benchmark of the event log (format 2, docs/log-format.md): size, writing, reading, long
matches and memory.

    python bench/bench_log.py                 # everything (about 2 minutes)
    python bench/bench_log.py --quick         # fewer, shorter runs
    python bench/bench_log.py --json          # the figures as JSON on stdout
    python bench/bench_log.py --only size,write

Figures (medians of runs; the process pins itself to one CPU, as bench.py does):

* **size**: bytes a log takes per event, header included, over seeded bot matches of every
  game (bench.py's entries, 20 matches each) and over the files of replays/ by encoding; the
  same matches in format 1 (msgpack and JSON Lines) beside them.
* **write**: Dare, 3 players, random bots, every move checked as a person's move is
  (``Match.check_trusted``, "validation on"), one log file per match written as ``kabucli
  sim --logs`` writes it, against the same matches with no log: games (rounds) per second,
  for matches of 10 rounds (a file every 10 games) and of 1,000; and what creating a file
  alone costs in the folder the logs go to (``--dir``; the system's temporary folder).
* **read**: per game, reading a log from disk and auditing it (``kabucli audit``'s work:
  ``kabucli.log.audit_log``) in events per second, against playing the same matches between
  the same bots with no log: as ``kabucli sim`` plays them (bench.py's play loop keeping no
  event, a built-in bot's move recorded unchecked: the goal's measure), as ``kabucli play``
  plays bots (every event kept), and, like for like, with every move checked as the audit
  checks every input (``Match.check_trusted``); the four interleaved run by run.
* **split**: per game, where read + audit's time goes beyond the engine's own work: the
  engine fed the inputs as events made in advance, then what turning decoded records into
  events, decoding the blocks, and the file and its header add; and play's headroom (play
  less the engine's part: the most reading may cost for the read figure to be met).
* **long**: per game (Uno Dare, 2 random bots; Dare, 3; Kabu-Tsukuri, 4), a match of about
  10,000 events and a long one (Uno Dare about 300,000; Dare and Kabu-Tsukuri as long as their
  rules allow, about 95,000 and 140,000), played as ``kabucli sim`` plays it (its log written,
  no event kept), then audited: microseconds per event of each, and their ratio.
* **memory**: the peak memory (max RSS) of ``kabucli audit`` on a log of about a million
  events (Uno Dare, ``target`` 230,000), in a fresh process, against ``python -c "import
  kabucli.cli"``.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench

ROOT = Path(__file__).resolve().parent.parent
SEED = 7_000_000


def _game(name: str, players: int, rules: dict[str, Any] | None = None) -> tuple[Any, ...]:
    return bench._setup(bench.Entry(name, ("random",), players, rules=rules or {}))


def play(game: Any, rules: Any, seats: Any, seed: int, log: Path | None,
         checked: bool = False) -> Any:
    """One match between the bots, as ``kabucli sim`` plays it: its log written to ``log``."""
    from kabucli.session import start

    sess = start(game, rules, seats, seed, log, None, durable=False)
    with contextlib.suppress(AttributeError):  # (sim keeps no events; an old kabucli did)
        sess.match.keep = False
    if checked:
        sess.match.check_trusted = []
    sess.run_bots()
    sess.close()
    return sess.match


def bench_size(quick: bool) -> dict[str, Any]:
    from kabucli.games import event_types
    from kabucli.log import encode_record, read_log, write_log

    out: dict[str, Any] = {"bots": [], "replays": {}}
    n = 5 if quick else 20
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.kbl"
        for entry in bench.ENTRIES:
            game, rules, seats = bench._setup(entry)
            b2 = b1 = bj = events = 0
            for i in range(n):
                m = bench.play_match(game, rules, seats, SEED + i)
                path.unlink(missing_ok=True)
                write_log(path, m.header, m.events, "msgpack", types=event_types(game.name))
                b2 += path.stat().st_size
                v1 = bench_v1_header(m.header)
                b1 += len(b"KBCLOG1\n") + sum(len(encode_record(r, "msgpack"))
                                              for r in [v1, *m.events])
                bj += sum(len(encode_record(r, "jsonl")) for r in [m.header, *m.events])
                events += len(m.events)
            out["bots"].append({"game": entry.game, "players": entry.players,
                                "bots": list(entry.bots), "events": events,
                                "v2": b2 / events, "v1_msgpack": b1 / events,
                                "jsonl": bj / events})
    for suffix in (".kbl", ".jsonl"):
        files = sorted((ROOT / "replays").glob(f"*/*{suffix}"))
        events = sum(len(read_log(p, event_types).events) for p in files)
        size = sum(p.stat().st_size for p in files)
        out["replays"][suffix] = {"files": len(files), "events": events, "bytes": size,
                                  "per_event": size / events}
    return out


def bench_v1_header(header: Any) -> Any:
    import msgspec

    return msgspec.structs.replace(header, format=1, clock=None, commit=None, salt=None)


WHERE: str | None = None  # --dir: the folder the logs of "write" are written in


def bench_write(quick: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"folder": WHERE or tempfile.gettempdir()}
    # Every file stays until the end: deleting thousands of files slowed the creation of the
    # next ones 2-10x for seconds on this machine's disk (ext4 mounted with discard), which
    # would time the disk getting over the benchmark's own clean-up.
    with tempfile.TemporaryDirectory(dir=WHERE) as tmp:
        out["file_us_before"] = bench.file_cost(Path(tmp) / "before")
        for rounds in (10, 1000):
            out[f"rounds_{rounds}"] = _write(quick, rounds, Path(tmp) / f"rounds-{rounds}")
        out["file_us_after"] = bench.file_cost(Path(tmp) / "after")
    return out


def _write(quick: bool, rounds: int, folder: Path) -> dict[str, Any]:
    """Dare matches of ``rounds`` rounds played by ``kabucli sim``'s own code (its run in one
    process, ``sim._local``, which writes the logs of short matches a few dozen at a time)
    with every move checked, each with its own log file, or none."""
    from kabucli import sim

    game, rules, seats = _game("dare", 3, {"rounds": rounds, "chips": 10**6})
    runs, count = (3, 3000 // rounds) if quick else (7, 15000 // rounds)
    first = bench.play_match(game, rules, seats, SEED)  # every match plays all its rounds
    assert sum(1 for ev in first.events if bench._tag(ev) == "result") == rounds
    folder.mkdir()
    kinds = ("random", "random", "random")
    rule = {"rounds": rounds, "chips": 10**6}
    logged_plan = sim.Plan("dare", rule, kinds, SEED, log_dir=str(folder), checked=True)
    bare_plan = sim.Plan("dare", rule, kinds, SEED, checked=True)
    made = itertools.count(step=count)

    def rate(plan: Any, first: int) -> float:
        t0 = time.perf_counter()
        for _ in sim._local(plan, iter(range(first, first + count)), 1):
            pass
        return count * rounds / (time.perf_counter() - t0)

    # interleaved, so load on a shared machine hits both alike; every logged run its own
    # matches (a new file each match, as kabucli sim --logs)
    logged, bare = [], []
    for r in range(runs):
        logged.append(rate(logged_plan, next(made)))
        bare.append(rate(bare_plan, (r + 1) * 100_000))
    a, b = statistics.median(logged), statistics.median(bare)
    written = len(list(folder.iterdir()))
    assert written == runs * count, f"{written} logs written, not {runs * count}"
    return {"rounds_per_match": rounds, "games_per_s_with_log": a, "games_per_s_without": b,
            "ratio": a / b}


def _logs(game: Any, rules: Any, seats: Any, folder: Path, count: int) -> tuple[list[Path], int]:
    """The logs of ``count`` seeded matches between the bots, written to ``folder`` (made
    now) in format 2's binary encoding; and how many events they hold."""
    from kabucli import games
    from kabucli.log import write_log

    types = games.event_types(game.name)
    folder.mkdir()
    paths: list[Path] = []
    events = 0
    for i in range(count):
        m = bench.play_match(game, rules, seats, SEED + i)
        p = folder / f"{i}.kbl"
        write_log(p, m.header, m.events, "msgpack", types=types)
        paths.append(p)
        events += len(m.events)
    return paths, events


def bench_read(quick: bool) -> list[dict[str, Any]]:
    """Per game: reading + auditing logs (kabucli.log.audit_log) against playing the same
    matches with no log (bench.py's play loop), interleaved run by run."""
    from kabucli import games
    from kabucli.log import audit_log

    out = []
    runs, count = (3, 30) if quick else (7, 150)
    entries = [e for e in bench.ENTRIES if e.bots == ("random",)]
    with tempfile.TemporaryDirectory() as tmp:
        for entry in entries:
            game, rules, seats = bench._setup(entry)
            paths, events = _logs(game, rules, seats, Path(tmp) / f"{entry.game}-{entry.players}",
                                  count)

            def audit_all(paths: list[Path] = paths) -> None:
                for p in paths:
                    violation = audit_log(p, games.event_types).violation
                    if violation is not None:
                        raise RuntimeError(f"{p}: {violation}")

            def play_all(game: Any = game, rules: Any = rules, seats: Any = seats) -> None:
                for i in range(count):  # as kabucli sim plays: no event kept
                    bench.play_match(game, rules, seats, SEED + i, keep=False)

            def play_kept(game: Any = game, rules: Any = rules, seats: Any = seats) -> None:
                for i in range(count):  # as kabucli play plays bots: every event kept
                    bench.play_match(game, rules, seats, SEED + i)

            def play_checked(game: Any = game, rules: Any = rules,
                             seats: Any = seats) -> None:
                for i in range(count):
                    play(game, rules, seats, SEED + i, None, True)

            reads, plays, kept, checks = [], [], [], []
            for _ in range(runs):
                for fn, into in ((audit_all, reads), (play_all, plays), (play_kept, kept),
                                 (play_checked, checks)):
                    t0 = time.perf_counter()
                    fn()
                    into.append(time.perf_counter() - t0)
            read = events / statistics.median(reads)
            played = events / statistics.median(plays)
            played_kept = events / statistics.median(kept)
            checked = events / statistics.median(checks)
            out.append({"game": entry.game, "players": entry.players, "events": events,
                        "play_events_per_s": played, "read_audit_events_per_s": read,
                        "ratio": read / played, "play_kept_events_per_s": played_kept,
                        "ratio_kept": read / played_kept, "play_checked_events_per_s": checked,
                        "ratio_checked": read / checked})
    return out


def bench_split(quick: bool) -> list[dict[str, Any]]:
    """Per game: where read + audit's time goes beyond the engine's own work (µs a match,
    the matches of ``read``): ``events`` is the engine fed each match's inputs as events made
    in advance (checking each and deriving the rest, as the audit does); ``convert`` what
    turning the decoded records into events adds; ``decode`` what decoding the blocks adds;
    ``file_header`` the rest of ``audit_log`` (the file, its frames, inflating, the header,
    the digest, the reader itself). ``headroom`` is play (as sim plays) less ``events``: the
    most reading may cost for the audit to be as fast as play."""
    from kabucli import games, log as L
    from kabucli.engine import Deriver
    from kabucli.log import audit_log

    out = []
    runs, count = (3, 30) if quick else (11, 150)
    entries = [e for e in bench.ENTRIES if e.bots == ("random",)]
    with tempfile.TemporaryDirectory() as tmp:
        for entry in entries:
            game, rules, seats = bench._setup(entry)
            paths, _ = _logs(game, rules, seats, Path(tmp) / f"{entry.game}-{entry.players}",
                             count)
            given: list[tuple[Any, Any, Any, list[bytes]]] = []
            for p in paths:  # each log's header, inputs as events, codec and block bodies
                recs = L._scan(p, games.event_types, "collect")[0]
                data, fmt = L._read_bytes(p)
                bodies = [L._unpack(r.payload) for r in L._raw_records(data, fmt)][1:]
                given.append((recs.header, recs.inputs, recs._codec, bodies))
            decoded = [[c.decoder.decode(b) for b in bs] for _, _, c, bs in given]
            inputs = sum(len(g[1]) for g in given) / count

            def events(given: Any = given, game: Any = game) -> None:
                for header, ins, _, _ in given:
                    d = Deriver(game, header, False, False)
                    d.feed_all(ins)
                    d.finish()

            def records(given: Any = given, decoded: Any = decoded, game: Any = game) -> None:
                for (header, _, c, _), recs in zip(given, decoded, strict=True):
                    d = Deriver(game, header, False, False)
                    for r in recs:
                        d.feed_records(r, c.real, 0)
                    d.finish()

            def bodies(given: Any = given, game: Any = game) -> None:
                for header, _, c, bs in given:
                    d = Deriver(game, header, False, False)
                    for b in bs:
                        d.feed_records(c.decoder.decode(b), c.real, 0)
                    d.finish()

            def audit(paths: list[Path] = paths) -> None:
                for p in paths:
                    audit_log(p, games.event_types)

            def play_all(game: Any = game, rules: Any = rules, seats: Any = seats) -> None:
                for i in range(count):
                    bench.play_match(game, rules, seats, SEED + i, keep=False)

            fns = {"play": play_all, "audit": audit, "events": events, "records": records,
                   "bodies": bodies}
            times: dict[str, list[float]] = {k: [] for k in fns}
            for _ in range(runs):
                for k, fn in fns.items():
                    t0 = time.perf_counter()
                    fn()
                    times[k].append((time.perf_counter() - t0) / count * 1e6)
            us = {k: statistics.median(v) for k, v in times.items()}
            out.append({"game": entry.game, "players": entry.players, "inputs": inputs,
                        "play_us": us["play"], "audit_us": us["audit"],
                        "events_us": us["events"],
                        "convert_us": us["records"] - us["events"],
                        "decode_us": us["bodies"] - us["records"],
                        "file_header_us": us["audit"] - us["bodies"],
                        "headroom_us": us["play"] - us["events"],
                        "ratio": us["play"] / us["audit"]})
    return out


# The long matches: (game, players, rules, the rule that sets the length, its values for about
# 10,000 events, for a long match and for a long one with --quick). Uno Dare between 2 random
# bots makes about 4.4 events a point of the target (68,000: about 300,000 events); Dare about
# 9.5 a round and Kabu-Tsukuri, 4 players, 14 a hand, whose longest matches (10,000 rounds or
# hands, the most their rules allow) are about 95,000 and 140,000 events. Dare's and
# Kabu-Tsukuri's events hold lists of cards (hands, rows).
LONG = [("uno-dare", 2, {}, "target", (2_300, 68_000, 20_000)),
        ("dare", 3, {"chips": 10**9}, "rounds", (1_050, 10_000, 3_000)),
        ("kabu-tsukuri", 4, {"chips": 10**9}, "hands", (710, 10_000, 3_000))]


def bench_long(quick: bool) -> dict[str, Any]:
    from kabucli import games
    from kabucli.log import audit_log

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, players, rules_, rule, (short, long_, quick_long) in LONG:
            got: dict[str, Any] = {}
            for size, length in (("10k", short), ("long", quick_long if quick else long_)):
                game, rules, seats = _game(name, players, {**rules_, rule: length})
                p = Path(tmp) / f"{name}-{size}.kbl"
                t0 = time.perf_counter()
                m = play(game, rules, seats, SEED, p)
                t_play = time.perf_counter() - t0
                n = m.logged
                del m
                t0 = time.perf_counter()
                audited = audit_log(p, games.event_types)
                t_read = time.perf_counter() - t0
                assert audited.violation is None and audited.events == n
                got[size] = {"events": n, "play_us_per_event": t_play / n * 1e6,
                             "read_audit_us_per_event": t_read / n * 1e6,
                             "bytes": p.stat().st_size}
            small, big = got["10k"], got["long"]
            got["play_ratio"] = big["play_us_per_event"] / small["play_us_per_event"]
            got["read_ratio"] = big["read_audit_us_per_event"] / small["read_audit_us_per_event"]
            out[name] = got
    return out


def _peak_rss(argv: list[str]) -> float:
    """MiB of peak memory of a fresh process running ``argv`` (its ru_maxrss, read by a
    parent process that runs nothing else)."""
    res = subprocess.run([sys.executable, "-c",
                          "import resource, subprocess, sys;"
                          "p = subprocess.run(sys.argv[1:], capture_output=True);"
                          "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN)"
                          ".ru_maxrss)", *argv], capture_output=True, text=True, check=True)
    code_s, kib = res.stdout.split()
    if code_s != "0":
        raise RuntimeError(f"{argv} failed")
    return int(kib) / 1024


def bench_memory(quick: bool) -> dict[str, Any]:
    game, rules, seats = _game("uno-dare", 2, {"target": 23_000 if quick else 230_000})
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "big.kbl"
        m = play(game, rules, seats, SEED, p)
        n = m.logged
        del m
        audit = _peak_rss([sys.executable, "-m", "kabucli", "audit", str(p)])
        base = _peak_rss([sys.executable, "-c", "import kabucli.cli"])
        size = p.stat().st_size
    return {"events": n, "bytes": size, "audit_peak_mib": audit, "import_peak_mib": base}


PARTS = {"size": bench_size, "write": bench_write, "read": bench_read, "split": bench_split,
         "long": bench_long, "memory": bench_memory}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", default=",".join(PARTS))
    ap.add_argument("--dir", help="the folder to write the logs of 'write' in (default: the "
                                  "system's temporary folder)")
    args = ap.parse_args(argv)
    global WHERE
    WHERE = args.dir
    where = bench.pin_one_core()
    import kabucli
    from kabucli import engine

    build = "compiled core" if engine.__file__.endswith((".so", ".pyd")) else "pure Python"
    result: dict[str, Any] = {"kabucli": str(Path(kabucli.__file__).parent), "build": build,
                              "cpu": where}
    parts = args.only.split(",")
    bad = [p for p in parts if p not in PARTS]
    if bad:
        ap.error(f"--only {','.join(bad)}: the parts are {', '.join(PARTS)}")
    for part in parts:
        if not args.json:
            print(f"measuring {part} ...", file=sys.stderr, flush=True)
        result[part] = PARTS[part](args.quick)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        show(result, args.quick)
    return 0


# -- the figures as tables, each goal of issue 13 with whether it is met --------------------

def _met(ok: bool) -> str:
    return "[green]met[/]" if ok else "[red]not met[/]"


def show(result: dict[str, Any], quick: bool) -> None:
    """The figures as a person reads them: a table a part, its goal and whether it is met."""
    from rich.console import Console
    from rich.table import Table

    con = Console(width=None if sys.stdout.isatty() else 110)
    con.print(f"[bold]kabucli log benchmark[/] of {result['kabucli']} ({result['build']}), "
              f"{result['cpu']}" + ("  [yellow](quick)[/]" if quick else ""))

    def table(title: str, caption: str, columns: list[str], rows: list[list[str]]) -> None:
        t = Table(title=title, caption=caption, title_justify="left", caption_justify="left")
        for k, col in enumerate(columns):
            t.add_column(col, justify="left" if k == 0 else "right")
        for row in rows:
            t.add_row(*row)
        con.print(t)

    def who(r: dict[str, Any]) -> str:
        return f"{r['game']} ({r['players']})"

    if "size" in result:
        size = result["size"]
        rows = [[f"{who(r)}, {'+'.join(r['bots'])}", f"{r['events']:,}", f"{r['v2']:.2f}",
                 f"{r['v1_msgpack']:.1f}", f"{r['jsonl']:.1f}"] for r in size["bots"]]
        for ext, r in size["replays"].items():
            rows.append([f"replays/ {ext} ({r['files']} files)", f"{r['events']:,}",
                         f"{r['per_event']:.2f}" if ext == ".kbl" else "",
                         "", f"{r['per_event']:.1f}" if ext == ".jsonl" else ""])
        worst = max([r["v2"] for r in size["bots"]]
                    + [size["replays"].get(".kbl", {}).get("per_event", 0.0)])
        table("Size: bytes an event, header included",
              f"goal: at most 5 in format 2 (worst above {worst:.2f}): {_met(worst <= 5)}",
              ["logs", "events", "format 2", "format 1 msgpack", "JSON Lines"], rows)
    if "write" in result:
        w = result["write"]
        rows = [[f"{r['rounds_per_match']:,} rounds a match", f"{r['games_per_s_with_log']:,.0f}",
                 f"{r['games_per_s_without']:,.0f}", f"{r['ratio']:.2f}"]
                for r in (w["rounds_10"], w["rounds_1000"])]
        ten = w["rounds_10"]["games_per_s_with_log"]
        table(f"Write: Dare (3 random bots, every move checked), a log file a match in "
              f"{w['folder']}",
              f"creating a file there: {w['file_us_before']:.0f} µs before, "
              f"{w['file_us_after']:.0f} µs after; goal: at least 30,000 games/s with the "
              f"log: {_met(ten >= 30_000)}",
              ["matches", "games/s with log", "games/s without", "ratio"], rows)
    if "read" in result:
        rows = [[who(r), f"{r['events']:,}", f"{r['play_events_per_s']:,.0f}",
                 f"{r['read_audit_events_per_s']:,.0f}", f"{r['ratio']:.2f}",
                 f"{r['ratio_kept']:.2f}", f"{r['ratio_checked']:.2f}"]
                for r in result["read"]]
        ok = all(r["ratio"] >= 1 for r in result["read"])
        table("Read: reading a log and auditing it, against playing the same matches",
              "ratio = read + audit events/s over play's (as sim plays); kept: play keeping "
              "every event; checked: every move checked as the audit checks it. Goal: ratio "
              f"at least 1 for every game: {_met(ok)}",
              ["game", "events", "play events/s", "read+audit events/s", "ratio",
               "ratio kept", "ratio checked"], rows)
    if "split" in result:
        rows = [[who(r), f"{r['inputs']:.0f}", f"{r['play_us']:.1f}", f"{r['events_us']:.1f}",
                 f"{r['convert_us']:.1f}", f"{r['decode_us']:.1f}",
                 f"{r['file_header_us']:.1f}", f"{r['headroom_us']:.1f}", f"{r['ratio']:.2f}"]
                for r in result["split"]]
        table("Split: where read + audit's time goes (µs a match)",
              "engine: the audit's engine work on events made in advance; headroom: play less "
              "the engine, the most convert + decode + file may cost for a ratio of 1",
              ["game", "inputs", "play", "engine", "convert", "decode", "file + header",
               "headroom", "ratio"], rows)
    if "long" in result:
        rows = []
        ok = True
        for name, g in result["long"].items():
            rows.append([name, f"{g['10k']['events']:,}", f"{g['long']['events']:,}",
                         f"{g['10k']['play_us_per_event']:.2f}",
                         f"{g['long']['play_us_per_event']:.2f}", f"{g['play_ratio']:.2f}",
                         f"{g['10k']['read_audit_us_per_event']:.2f}",
                         f"{g['long']['read_audit_us_per_event']:.2f}",
                         f"{g['read_ratio']:.2f}"])
            ok = ok and g["play_ratio"] <= 1.2 and g["read_ratio"] <= 1.2
        table("Long matches: µs an event, about 10,000 events against a long match",
              f"goal: a long match within 1.2x of the short one, per event: {_met(ok)}",
              ["game", "events", "long", "play", "play long", "ratio", "read+audit",
               "read+audit long", "ratio"], rows)
    if "memory" in result:
        m = result["memory"]
        rows = [[f"{m['events']:,}", f"{m['bytes']:,}", f"{m['audit_peak_mib']:.1f}",
                 f"{m['import_peak_mib']:.1f}"]]
        verdict = (_met(m["audit_peak_mib"] < 100) if m["events"] >= 1_000_000
                   else "a million events only without --quick")
        table("Memory: kabucli audit of a long Uno Dare log (peak RSS, MiB)",
              f"goal: a million-event log audited in under 100 MiB: {verdict}",
              ["events", "bytes", "audit", "python with kabucli.cli imported"], rows)


if __name__ == "__main__":
    raise SystemExit(main())
