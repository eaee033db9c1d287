"""docs/reports.md against the real JSON of the other commands that take ``--json``: ``play``,
``resume``, ``replay`` (whole, ``--at N``, ``--as pN``, a log that breaks a rule, a log cut
short), ``deal``, ``solve``, ``rules`` and ``bot check``, as test_reports_json checks sim's:
every key sent is in the page's tables (with a type that admits its value), and every key
there is sent. A game's own parts (a state, an event, an outcome, a log's header) are tabled
in docs/bots.md and docs/log-format.md, and not walked into here. Each command's ``{"error":
...}`` is checked against the page's error table."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli.cli import app
from tests.test_reports_json import DOC, documented, matches_the_doc

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = sorted(p for p in (ROOT / "replays").glob("*/*") if p.suffix in (".kbl", ".jsonl"))
GAMES = ("dare", "kazu-tori", "yatchaba", "kabu-tsukuri", "uno-dare")
SHORT = {"dare": ["-r", "rounds=1"], "kazu-tori": [], "yatchaba": ["-r", "games=1"],
         "kabu-tsukuri": ["-r", "hands=1"], "uno-dare": ["-r", "target=50"]}
FIRST = ("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
         "    if m['type'] == 'turn':\n        print(m['legal'][0], flush=True)\n")
NONSENSE = "import sys\nfor line in sys.stdin:\n    print('nonsense', flush=True)\n"
runner = CliRunner()


def doc(*argv: str, code: int = 0) -> Any:
    res = runner.invoke(app, [*argv, "--json"])
    assert res.exit_code == code, (argv, res.output)
    return json.loads(res.stdout)


@pytest.fixture(scope="module")
def sent(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Any]]:
    tmp = tmp_path_factory.mktemp("commands")
    out: dict[str, list[Any]] = {k: [] for k in ("play", "resume", "replay", "deal", "solve",
                                                 "rules", "bot check", "error")}
    for game in GAMES:
        out["play"].append(doc("play", game, "--bot", "all=random", "--seed", "1",
                               *SHORT[game], "--log", str(tmp / f"{game}.jsonl")))
        out["deal"].append(doc("deal", game, "--seed", "2"))
        out["rules"].append(doc("rules", game))
    out["rules"].append(doc("rules"))
    out["play"].append(doc("play", "dare", "--bot", "all=random", "--seed", "1", "--no-log",
                           *SHORT["dare"]))
    # unfinished: a script that ends (seed given, then none: kept from the table), a refusal
    script = tmp / "none.txt"
    script.write_text("")
    part = tmp / "part.jsonl"
    out["play"].append(doc("play", "dare", "--players", "2", "--bot", "2=random", "--seed",
                           "1", "--script", str(script), "--log", str(part)))
    out["play"].append(doc("play", "dare", "--players", "2", "--bot", "2=random", "--script",
                           str(script), "--log", str(tmp / "secret.jsonl")))
    bad = tmp / "bad.txt"
    bad.write_text("nonsense move\n")
    out["play"].append(doc("play", "dare", "--players", "2", "--bot", "2=random", "--seed",
                           "1", "--script", str(bad), "--log", str(tmp / "bad.jsonl"), code=1))
    out["resume"].append(doc("resume", str(part), "--script", str(script)))
    out["resume"].append(doc("resume", str(part), "--script", str(bad), code=1))
    out["error"].append(doc("resume", str(tmp / "dare.jsonl"), code=1))  # (over)
    out["error"].append(doc("play", "nosuchgame", code=1))
    out["error"].append(doc("resume", str(tmp / "missing.kbl"), code=2))
    # replay: every recorded game, whole, at an event, as a seat; a broken log, a cut one
    for log in REPLAYS:
        whole = doc("replay", str(log))
        out["replay"].append(whole)
        for undo in (s["index"] for s in whole["steps"] if "takes_back" in s):
            out["replay"].append(doc("replay", str(log), "--at", str(undo)))
        out["replay"].append(doc("replay", str(log), "--at", "2"))
        out["replay"].append(doc("replay", str(log), "--as", "p2"))
    lines = (tmp / "dare.jsonl").read_text().splitlines(keepends=True)
    (tmp / "cut.jsonl").write_text("".join(lines[:-1]) + lines[-1][:10])
    tampered = [line.replace('"amount":1', '"amount":2', 1) for line in lines]
    assert tampered != lines
    (tmp / "tampered.jsonl").write_text("".join(tampered))
    for name, code in (("cut.jsonl", 2), ("tampered.jsonl", 1)):
        out["replay"].append(doc("replay", str(tmp / name), code=code))
        out["replay"].append(doc("replay", str(tmp / name), "--at", "1", code=code))
    out["replay"].append(doc("replay", str(part), "--as", "p1"))
    out["error"].append(doc("replay", str(tmp / "dare.jsonl"), "--at", "999", code=1))
    # solve: ten cards and nine (five players); a game without a solver
    out["solve"].append(doc("solve", "kabu-tsukuri", *map(str, range(1, 11))))
    out["solve"].append(doc("solve", "kabu-tsukuri", *map(str, range(1, 10)), "--top", "2"))
    out["error"].append(doc("solve", "dare", "1", code=1))
    out["error"].append(doc("deal", "dare", "--players", "9", code=1))
    out["error"].append(doc("rules", "nosuchgame", code=1))
    # bot check: a bot that keeps the protocol, one that does not
    good, nonsense = tmp / "first.py", tmp / "nonsense.py"
    good.write_text(FIRST)
    nonsense.write_text(NONSENSE)
    out["bot check"].append(doc("bot", "check", "dare", f"{sys.executable} {good}", "-r",
                                "rounds=1"))
    out["bot check"].append(doc("bot", "check", "dare", f"{sys.executable} {nonsense}", "-r",
                                "rounds=1", code=1))
    out["error"].append(doc("bot", "check", "dare", "py:x.py:X", code=1))
    # (sim's and tournament's, as test_reports_json makes them)
    out["error"].append(doc("sim", "dare", "-b", "best", "--seed", "1", code=1))
    out["error"].append(doc("tournament", "dare", "-b", "best", "-b", "zz", "--seed", "1",
                            code=1))
    return out


@pytest.mark.parametrize("command", ["play", "resume", "replay", "deal", "solve", "rules",
                                     "bot check", "error"])
def test_every_key_sent_is_documented_and_every_documented_key_is_sent(
        sent: dict[str, list[Any]], command: str) -> None:
    matches_the_doc(command, sent[command])


def test_the_runs_reached_the_optional_parts(sent: dict[str, list[Any]]) -> None:
    plays = sent["play"] + sent["resume"]
    assert {p["stopped"] is None for p in plays} == {True, False}
    assert {p["seed"] is None for p in sent["play"]} == {True, False}
    assert any(p["log"] is None for p in sent["play"])
    replays = sent["replay"]
    assert any(r["violation"] for r in replays) and any(r["error"] for r in replays)
    assert {r["digest"] is None for r in replays} == {True, False}
    assert any(s["event"] is None for r in replays if "viewer" in r for s in r["steps"])
    steps = [s for r in replays for s in r.get("steps", [])]
    # (the words of the page's kind and actor rows)
    assert {s["kind"] for s in steps} == {"action", "chance", "auto", "meta"}
    assert {s["actor"] for s in steps} - {f"p{n}" for n in range(1, 7)} == {
        "engine", "table", "referee"}
    assert [len(s["arrangements"][0]["aside"]) for s in sent["solve"]] == [1, 0]
    assert {c["ok"] for b in sent["bot check"] for c in b["checks"]} == {True, False}


def test_a_removed_row_of_a_command_is_found() -> None:
    text = DOC.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `waiting` |"))
    assert "waiting" in documented(text)["replay"]
    assert "waiting" not in documented(text.replace(row + "\n", ""))["replay"]
