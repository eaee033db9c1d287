"""bench/bench.py reports what it measured (the figures themselves are not tested: speed is
the benchmark's to measure, not the suite's)."""

from __future__ import annotations

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
