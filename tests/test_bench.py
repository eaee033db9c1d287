"""bench/bench.py reports what it measured (the figures themselves are not tested: speed is
the benchmark's to measure, not the suite's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_anchors_part_prints_a_table_for_each_table_size() -> None:
    """The Uno Dare anchors (RLCard's UNO, OpenSpiel's crazy_eights) were measured and then
    never printed: the rows were added to a table nobody drew. An anchor that is not
    installed is a row that says so."""
    res = subprocess.run([sys.executable, str(ROOT / "bench" / "bench.py"), "--quick",
                          "--only", "anchors", "--runs", "1"], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "NO_COLOR": "1", "COLUMNS": "120"})
    assert res.returncode == 0, res.stderr
    out = res.stdout
    for players in (2, 4):
        assert f"Anchors, {players} players" in out, out
    rows = [line.split("│")[1].strip() for line in out.splitlines() if line.startswith("│")]
    for engine in ("kabucli uno-dare (checked)", "kabucli uno-dare", "rlcard uno",
                   "open_spiel crazy_eights"):  # an anchor: its figures, or "not installed"
        assert rows.count(engine) == 2, out


def test_the_log_benchmark_prints_tables_with_each_goal_and_json_when_asked() -> None:
    """bench_log.py printed each part as raw JSON on stderr, with no word on its goal."""
    script = str(ROOT / "bench" / "bench_log.py")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120"}
    res = subprocess.run([sys.executable, script, "--quick", "--only", "size"],
                         capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 0, res.stderr
    lines = [line.rstrip() for line in res.stdout.splitlines()]
    assert "Size: bytes an event, header included" in lines, res.stdout
    rows = [line.split("│")[1].strip() for line in lines if line.startswith("│")]
    assert "dare (3), random" in rows, rows
    assert any(row.startswith("replays/ .kbl (") for row in rows), rows
    assert any(line.startswith("goal: at most 5 in format 2 (worst above ")
               and line.endswith(("): met", "): not met")) for line in lines), lines
    res = subprocess.run([sys.executable, script, "--quick", "--only", "size", "--json"],
                         capture_output=True, text=True, timeout=300, env=env)
    figures = json.loads(res.stdout)["size"]
    assert {r["game"] for r in figures["bots"]} >= {"dare", "uno-dare", "kabu-tsukuri"}
    res = subprocess.run([sys.executable, script, "--only", "sise"], capture_output=True,
                         text=True, timeout=60, env=env)
    assert res.returncode == 2 and res.stderr.splitlines()[-1].endswith(
        "--only sise: the parts are size, write, read, split, long, memory"), res.stderr
