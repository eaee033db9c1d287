"""Fuzzing the log reader through the command line (bench/fuzz_logs.py, bounded): every cut
of a recorded log of each game in each format, and a fixed set of random bit flips, field
edits and cuts, each a clean outcome (exit 0, or exit 1 or 2 with one line on stderr).

``pytest tests/test_fuzz_logs.py -s`` prints the counts; ``python bench/fuzz_logs.py`` runs
the same cases and as many random ones as it is given time for."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kabucli import games

FUZZ = Path(__file__).resolve().parent.parent / "bench" / "fuzz_logs.py"
RANDOM_CASES = 400  # about 1.5 s; the seed is fixed, so every run tries the same ones


@pytest.fixture(scope="module")
def fuzz() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_logs", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_logs"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def runner(fuzz: ModuleType) -> Iterator[Any]:
    with fuzz.scratch() as folder:
        yield fuzz.Runner(folder)


def report(name: str, tally: Any) -> None:
    print(f"\n{name}: {tally.as_dict()}")


def test_every_cut_of_a_log_of_each_game_and_format_is_a_clean_error(
        fuzz: ModuleType, runner: Any) -> None:
    seeds = fuzz.seeds_for_truncation()
    assert sorted((c.name.split("/")[0], c.suffix) for c in seeds) == sorted(
        (g, s) for g in games.names() for s in (".jsonl", ".kbl"))
    crashes = fuzz.fuzz(runner, seed=0, count=0, as_json=True)
    t = runner.tally
    report("every cut", t)
    assert crashes == []
    assert t.tried == sum(len(c.data) for c in seeds)
    assert {g: c["tried"] for g, c in t.groups.items()} == {
        c.group: len(c.data) for c in seeds}  # counted per game and format
    # a cut log is unreadable, except where it falls between two records
    assert t.errors[2] > 0.9 * t.tried
    assert t.accepted > 0


def test_random_mutations_of_the_recorded_logs_are_clean(fuzz: ModuleType,
                                                        runner: Any) -> None:
    crashes = fuzz.fuzz(runner, seed=2026, count=RANDOM_CASES, truncate=False)
    t = runner.tally
    report("random mutations", t)
    assert crashes == []
    assert t.tried == RANDOM_CASES
    assert t.errors[1] > 0 and t.errors[2] > 0 and t.accepted > 0  # the mix is not lopsided


def test_the_fuzzer_tells_a_crash_from_a_clean_error(fuzz: ModuleType, runner: Any,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """What it counts as a crash: an exception out of the command, or a second line."""
    from kabucli import log

    case = fuzz.Case("a good log", (fuzz.REPLAYS / "dare" / "3p-tie-order.jsonl").read_bytes(),
                     ".jsonl")
    assert runner.run(case, ("audit", "{log}")) is None

    def boom(*_: object) -> None:
        raise KeyError(7)

    # (a helper the header's decoding calls through log's globals, as a compiled log.py does
    # too: its own functions it calls directly, where a patch does not reach)
    monkeypatch.setattr(log, "_control_problem", boom)
    problem = runner.run(case, ("audit", "{log}"))
    assert problem is not None and "KeyError at test_fuzz_logs.py" in problem
    assert runner.audit_all([case, case]) != []

    def two_lines(*_: object) -> None:
        raise log.LogError("first\nsecond")

    monkeypatch.setattr(log, "_control_problem", two_lines)
    monkeypatch.setattr("kabucli.cli.records._escape", lambda text: text)
    problem = runner.run(case, ("audit", "{log}"))
    assert problem is not None and "2 lines on stderr" in problem
    assert runner.tally.crashes == 4
