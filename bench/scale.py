"""Benchmark of `kabucli sim` at scale: workers, logs, the parent's memory, Ray.

    python bench/scale.py              # everything (a few minutes on two cores)
    python bench/scale.py --quick      # fewer matches, one run each
    python bench/scale.py --json       # the figures as JSON
    python bench/scale.py --only workers,memory --runs 5

Each figure is measured in a fresh Python process (``--one``), which runs
``kabucli.sim.simulate`` the way ``kabucli sim`` does and reports its wall time and its peak
resident memory (``ru_maxrss`` of that process alone: the parent of the pool, not its
workers); the median of ``--runs`` runs. See bench/README.md ("Scale") for what each is.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import bench  # noqa: E402 - bench/ is not a package: its modules are found here

DARE3 = ["best", "random", "random"]


def one(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one simulate() as ``spec`` says; its time and this process's peak memory."""
    from kabucli import games
    from kabucli.rules import build
    from kabucli.sim import simulate

    g = games.get(spec["game"])
    rules = build(g.Rules, spec.get("rules", []))
    if spec.get("ray_started"):
        import ray

        ray.init(address="local", num_cpus=spec["workers"], include_dashboard=False,
                 log_to_driver=False, logging_level="ERROR")
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    logs = Path(spec["logs"]) if spec.get("logs") else None
    if logs is not None:
        logs.mkdir()
    began = time.perf_counter()
    report = simulate(g, rules, spec["bots"], spec["matches"], 1, workers=spec["workers"],
                      backend=spec.get("backend", "local"), log_dir=logs)
    took = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": took, "matches": report.matches, "rate": report.matches / took,
            "rss_mib": peak / 1024, "rss_before_mib": base / 1024}


ONE = (f"import json, sys; sys.path.insert(0, {str(HERE)!r}); import scale; "
       "print(json.dumps(scale.one(json.loads(sys.argv[1]))))")


def measure(spec: dict[str, Any], runs: int) -> dict[str, Any]:
    results = []
    for _ in range(runs):
        # run by -c, not as this script: a pool's workers would each load the process's
        # main script again (multiprocessing does, for a script), and this one loads the
        # benchmarks' modules, 17 ms a worker that `kabucli sim` does not pay (its script
        # is three lines)
        out = subprocess.run([sys.executable, "-c", ONE, json.dumps(spec)],
                             capture_output=True, text=True, check=False,
                             env={**os.environ, "RAY_USAGE_STATS_ENABLED": "0"})
        if out.returncode != 0:
            raise SystemExit(f"bench run failed: {spec}\n{out.stderr[-2000:]}")
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    med = {k: statistics.median(r[k] for r in results) for k in results[0]}
    return med | {"spec": spec, "runs": runs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--runs", type=int)
    ap.add_argument("--only", default="workers,logs,memory,ray")
    ap.add_argument("--logs-in", metavar="DIR",
                    help="where the logs figure writes its logs (default: the temp folder)")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one(json.loads(args.one))))
        return
    import kabucli

    runs = args.runs or (1 if args.quick else 3)
    n = 1000 if args.quick else 4000
    only = set(args.only.split(","))
    figures: dict[str, Any] = {"kabucli": str(Path(kabucli.__file__).parent),
                               "compiled": kabucli.compiled(),
                               "cores": len(os.sched_getaffinity(0)),
                               "load": os.getloadavg()}
    dare = {"game": "dare", "bots": DARE3, "rules": [], "matches": n}
    if "workers" in only:
        # long enough (a few seconds) that starting the pool (about 0.2 s) does not count
        many = dare | {"matches": 2000 if args.quick else 16000}
        w1s, w2s = [], []
        for _ in range(runs):  # interleaved, so that load from elsewhere hits both alike
            w1s.append(measure(many | {"workers": 1}, 1)["rate"])
            w2s.append(measure(many | {"workers": 2}, 1)["rate"])
        w1, w2 = statistics.median(w1s), statistics.median(w2s)
        figures["workers"] = {"w1_rate": w1, "w2_rate": w2, "speedup": w2 / w1,
                              "matches": many["matches"]}
    if "logs" in only:
        # Each logged run writes into a folder of its own, and all of them are deleted only
        # after the last run: deleting thousands of files just before a run slowed the next
        # run's file creation 1.5-2x on this machine's disk (mounted with ``discard``), which
        # measures the disk getting over the benchmark's own clean-up, not kabucli.
        base = Path(tempfile.mkdtemp(prefix="kabucli-bench-", dir=args.logs_in))
        plains, loggeds = [], []
        try:
            file_before = bench.file_cost(base / "files-before")
            for r in range(runs):  # interleaved, so that load from elsewhere hits both alike
                plains.append(measure(dare | {"workers": 1}, 1)["rate"])
                loggeds.append(measure(dare | {"workers": 1, "logs": str(base / f"run{r}")},
                                       1)["rate"])
            file_after = bench.file_cost(base / "files-after")
        finally:
            shutil.rmtree(base)
        plain, logged = statistics.median(plains), statistics.median(loggeds)
        figures["logs"] = {"rate": plain, "logs_rate": logged, "ratio": logged / plain,
                           "ratios": [b / a for a, b in zip(plains, loggeds, strict=True)],
                           "matches": n, "folder": str(base.parent),
                           "file_us_before": file_before, "file_us_after": file_after}
    if "memory" in only:
        fast = {"game": "dare", "bots": DARE3, "rules": ["rounds=1"], "workers": 2}
        small, large = (5_000, 50_000) if args.quick else (20_000, 200_000)
        a = measure(fast | {"matches": small}, 1)
        b = measure(fast | {"matches": large}, 1)
        figures["memory"] = {"small": small, "small_rss_mib": a["rss_mib"],
                             "large": large, "large_rss_mib": b["rss_mib"],
                             "growth_mib": b["rss_mib"] - a["rss_mib"],
                             "after_import_mib": a["rss_before_mib"]}
    if "ray" in only:
        local = measure(dare | {"workers": 2}, runs)
        cold = measure(dare | {"workers": 2, "backend": "ray"}, runs)
        warm = measure(dare | {"workers": 2, "backend": "ray", "ray_started": True}, runs)
        figures["ray"] = {"local_s": local["seconds"], "ray_s": cold["seconds"],
                          "ray_started_s": warm["seconds"],
                          "ratio": cold["seconds"] / local["seconds"],
                          "ratio_started": warm["seconds"] / local["seconds"], "matches": n}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    build = "compiled core" if figures["compiled"] else "pure Python"
    print(f"kabucli at {figures['kabucli']} ({build}), {figures['cores']} cores, "
          f"load {figures['load'][0]:.2f}")
    if "workers" in figures:
        f = figures["workers"]
        print(f"workers: {f['w1_rate']:,.0f} matches/s with 1, {f['w2_rate']:,.0f} with 2: "
              f"{f['speedup']:.2f}x (goal 1.8x with two idle cores); Dare, 3 bots, 10 rounds, "
              f"{f['matches']} matches")
    if "logs" in figures:
        f = figures["logs"]
        print(f"logs: {f['logs_rate']:,.0f} matches/s with --logs, {f['rate']:,.0f} without: "
              f"{f['ratio']:.2f}x (goal 0.7x; runs {', '.join(f'{x:.2f}' for x in f['ratios'])};"
              f" logs in {f['folder']}, where creating a file cost {f['file_us_before']:.0f} µs"
              f" before and {f['file_us_after']:.0f} µs after)")
    if "memory" in figures:
        f = figures["memory"]
        print(f"memory (parent, peak): {f['small_rss_mib']:.1f} MiB after {f['small']:,} "
              f"matches, {f['large_rss_mib']:.1f} MiB after {f['large']:,} "
              f"({f['growth_mib']:+.1f} MiB; goal: under 100 MiB for a million)")
    if "ray" in figures:
        f = figures["ray"]
        print(f"ray: {f['ray_s']:.2f} s with Ray started by the run, {f['ray_started_s']:.2f} s "
              f"on a Ray already running, {f['local_s']:.2f} s with --workers 2: "
              f"{f['ratio']:.2f}x / {f['ratio_started']:.2f}x (goal within 1.5x)")


if __name__ == "__main__":
    main()
