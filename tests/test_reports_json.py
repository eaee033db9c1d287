"""docs/reports.md against the real `sim --json`, `tournament --json` and `audit --json`: every
key a run (or an audit) sends is documented (with a type that admits its value) and every
documented key is sent by some run, so the page cannot drift from the code. The runs cover
every game, two and three bots, two and three seats, both formats, --logs (and a run that
reuses them), --fixed-seats, --sprt (both models), a failing bot with and without
--max-failures, a run stopped by Ctrl-C, and a command that fails before its run. Also the
two names that confused a reader: a bot's ``mean`` beside ``mean_chips``, and the ``name``
that joins ``ratings`` with ``bots``."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli.cli import app

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "reports.md"
runner = CliRunner()

GAMES = {"dare": ("best", "random"), "kazu-tori": ("sharp", "random"),
         "yatchaba": ("smart", "random"), "kabu-tsukuri": ("best", "random"),
         "uno-dare": ("strong", "random")}
NONSENSE = "import sys\nfor line in sys.stdin:\n    print('nonsense', flush=True)\n"
SLOW = ("import json, sys, time\nfor line in sys.stdin:\n    m = json.loads(line)\n"
        "    if m['type'] == 'turn':\n        time.sleep(0.02)\n"
        "        print(m['legal'][0], flush=True)\n")

# a JSON value's type, as the doc's type column words it (an integer is a number as well)
WORDS = {bool: ("boolean",), int: ("integer", "number"), float: ("number",),
         str: ("string",), list: ("list",), dict: ("object",), type(None): ("null",)}


# the documents docs/reports.md tables: a table's first header cell begins with one of them
DOCS = ("sim", "tournament", "error", "audit", "play", "resume", "replay", "deal", "solve",
        "rules", "bot check")


def documented(text: str) -> dict[str, dict[str, str]]:
    """Each document ('sim', 'tournament', 'error', ...: DOCS) -> {key path: its type cell}. A
    table's first header cell names the objects it lists, "sim bots[] and tournament bots[]
    key"; a path is dotted, ``[]`` for the items of a list: ``groups[].head_to_head.score``
    (``rules[]``: the items of a document that is a list)."""
    docs: dict[str, dict[str, str]] = {d: {} for d in DOCS}
    where: list[tuple[str, str]] = []
    for line in text.splitlines():
        head = re.match(r"\| ([a-z][^|]*) key \| type \|", line)
        if head:
            where = []
            for part in head.group(1).split(" and "):
                part = part.strip()
                doc = max((d for d in DOCS if part == d or part.startswith((d + " ", d + "["))),
                          key=len, default=None)
                assert doc is not None, f"docs/reports.md: a table of {part!r}"
                where.append((doc, part[len(doc):].strip()))
            continue
        row = re.match(r"\| `([a-z_0-9]+)` \| ([^|]+) \|", line)
        if row and where:
            for doc, path in where:
                key = f"{path}.{row.group(1)}" if path else row.group(1)
                assert key not in docs[doc], f"docs/reports.md documents {doc} {key} twice"
                docs[doc][key] = row.group(2).strip()
        elif not line.startswith("|"):
            where = []
    return docs


def walk(value: Any, path: str, seen: dict[str, set[type]],
         own: frozenset[str] = frozenset()) -> None:
    """Every key path of a JSON value, with the types of the values met there; not inside the
    paths ``own`` (a game's state, an event: tabled in docs/bots.md and docs/log-format.md)."""
    if isinstance(value, dict):
        for k, v in value.items():
            here = f"{path}.{k}" if path else k
            seen.setdefault(here, set()).add(type(v))
            if here not in own:
                walk(v, here, seen, own)
    elif isinstance(value, list):
        for v in value:
            walk(v, path + "[]", seen, own)


def run(*argv: str, code: int = 0) -> dict[str, Any]:
    res = runner.invoke(app, [*argv, "--json", "--workers", "1"])
    assert res.exit_code == code, (argv, res.output)
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def _ctrl_c_as_from_a_terminal() -> None:
    """(A child's preexec_fn) Ctrl-C's default action, so that the program takes it as when
    started from a terminal: pytest started with it ignored (nohup ... &, a script's
    background job) passes that on, and kabucli rightly keeps ignoring it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stopped_by_ctrl_c(command: str, extra: list[str], tmp: Path) -> dict[str, Any]:
    """A run of ``command`` against a slow bot, sent SIGINT once it is under way."""
    slow = tmp / "slow.py"
    slow.write_text(SLOW)
    logs = tmp / f"stopped-{command}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "kabucli", command, "dare", "-b", "random", "-b",
         f"cmd:{sys.executable} {slow}", *extra, "--seed", "5", "--rule", "rounds=1",
         "--workers", "2", "--logs", str(logs), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)},
        preexec_fn=_ctrl_c_as_from_a_terminal)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list(logs.glob("*.kbl"))) < 4:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    """The documents of many small seeded runs: 'sim', 'tournament' and 'error'."""
    tmp = tmp_path_factory.mktemp("reports")
    bad = tmp / "nonsense.py"
    bad.write_text(NONSENSE)
    nonsense = f"cmd:{sys.executable} {bad}"
    sims, tours = [], []
    for game, (strong, weak) in GAMES.items():
        sims.append(run("sim", game, "-b", strong, "-b", weak, "-m", "3", "--seed", "1"))
        sims.append(run("sim", game, "-b", strong, "-b", weak, "-b", weak, "-m", "2",
                        "--seed", "1"))
        tours.append(run("tournament", game, "-b", strong, "-b", weak, "-b", weak, "-d", "1",
                         "--seed", "1"))
        tours.append(run("tournament", game, "-b", strong, "-b", weak, "-b", weak, "-b", weak,
                         "-n", "3", "-d", "1", "--seed", "1", "--format", "gauntlet"))
    dare = ["dare", "-b", "best", "-b", "random"]
    one = ["--rule", "rounds=1"]
    for _ in range(2):  # the second reuses the logs of the first
        sims.append(run("sim", *dare, "-m", "3", "--seed", "1", "--logs", str(tmp / "logs")))
        tours.append(run("tournament", *dare, "-b", "random", "-d", "1", "--seed", "1",
                         "--logs", str(tmp / "tlogs")))
    sims.append(run("sim", *dare, "-m", "2", "--seed", "1", "--fixed-seats"))
    sims.append(run("sim", *dare, "-m", "200", "--seed", "1", *one, "--sprt", "elo0=0 elo1=50"))
    sims.append(run("sim", *dare, "-m", "5", "--seed", "1", *one, "--sprt",
                    "elo0=0 elo1=50 model=logistic"))
    sims.append(run("sim", "dare", "-b", nonsense, "-b", "random", "-m", "3", "--seed", "1",
                    *one))
    sims.append(run("sim", "dare", "-b", nonsense, "-b", "random", "-m", "5", "--seed", "1",
                    *one, "--max-failures", "2", code=1))
    tours.append(run("tournament", "dare", "-b", nonsense, "-b", "random", "-b", "best", "-d",
                     "2", "--seed", "1", *one, "--max-failures", "2", code=1))
    sims.append(stopped_by_ctrl_c("sim", ["-m", "400"], tmp))
    tours.append(stopped_by_ctrl_c("tournament", ["-d", "100"], tmp))
    errors = [run("sim", "dare", "-b", "best", "--seed", "1", code=1),
              run("tournament", "dare", "-b", "best", "-b", "zz", "--seed", "1", code=1)]
    return {"sim": sims, "tournament": tours, "error": errors}


# (their error documents are checked with every other command's, in
# test_reports_json_commands.py, against the one error table)
@pytest.mark.parametrize("doc", ["sim", "tournament"])
def test_every_key_sent_is_documented_and_every_documented_key_is_sent(
        reports: dict[str, list[dict[str, Any]]], doc: str) -> None:
    matches_the_doc(doc, reports[doc])


def matches_the_doc(doc: str, sent: list[dict[str, Any]]) -> None:
    """Every key path of the documents ``sent`` is in docs/reports.md's tables of ``doc``,
    with a type that admits its values, and every key there is sent."""
    table = documented(DOC.read_text())[doc]
    # a part tabled elsewhere: its type cell says "... own" ("object, the game's own")
    own = frozenset(key for key, cell in table.items() if cell.endswith(" own"))
    seen: dict[str, set[type]] = {}
    for report in sent:
        walk(report, "", seen, own)
    assert sorted(set(seen) - set(table)) == [], f"sent but not in docs/reports.md ({doc})"
    assert sorted(set(table) - set(seen)) == [], f"in docs/reports.md but never sent ({doc})"
    for key, types in seen.items():
        for t in types:
            assert any(word in table[key] for word in WORDS[t]), \
                f"{doc} {key}: a {t.__name__} was sent, the doc says {table[key]!r}"


def test_the_runs_reached_the_optional_parts(reports: dict[str, list[dict[str, Any]]]) -> None:
    stopped = {r["stopped"] for r in reports["sim"] + reports["tournament"]}
    assert {"interrupted (Ctrl-C)", "SPRT: H1 accepted", None} <= stopped
    assert any(s and "--max-failures 2" in s for s in stopped)
    assert any(r["reused_logs"] for r in reports["sim"])
    # a tournament says so too (it took --logs, and said nothing of what it reused)
    assert any(r["reused_logs"] for r in reports["tournament"])
    assert all(r["events"] > 0 for r in reports["tournament"] if r["matches"])
    assert {r["measure"] for r in reports["sim"]} == {"chips", "score"}


def test_mean_is_mean_chips_under_a_neutral_name(
        reports: dict[str, list[dict[str, Any]]]) -> None:
    for report in reports["sim"] + reports["tournament"]:
        for b in report["bots"]:
            assert b["mean"] == b["mean_chips"]
    uno = next(r for r in reports["sim"] if r["game"] == "uno-dare")
    assert uno["measure"] == "score" and all(b["mean"] > 0 for b in uno["bots"])


def test_ratings_failures_and_groups_name_a_bot_as_bots_does(
        reports: dict[str, list[dict[str, Any]]]) -> None:
    for report in reports["tournament"]:
        names = [b["name"] for b in report["bots"]]
        assert names == [f"#{i} {b['bot']}" for i, b in enumerate(report["bots"], 1)]
        # in the order of --bot, each rating joined to its bot by name
        assert [r["name"] for r in report["ratings"]] == names
        assert [r["bot"] for r in report["ratings"]] == names  # kept as it was
        assert all(set(g["bots"]) <= set(names) for g in report["groups"])
    failing = [f for r in reports["sim"] + reports["tournament"] for f in r["failed"]]
    assert failing and all(f["name"] == f"#1 {f['bot']}" for f in failing)


def test_a_removed_row_is_found() -> None:
    # the check itself: a row taken out of the page is a key no longer documented
    text = DOC.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `mean_chips` |"))
    assert "bots[].mean_chips" in documented(text)["tournament"]
    assert "bots[].mean_chips" not in documented(text.replace(row + "\n", ""))["tournament"]


@pytest.fixture(scope="module")
def audits(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """audit --json over logs that reach each of its keys: recorded games (a real table's
    timed log, a seeded person's undos), a log played with --commit, a sim run's log with a
    program bot, a JSON Lines log cut before its derived events, a tampered copy, a wrong
    --digest, and a file that is no log."""
    tmp = tmp_path_factory.mktemp("audits")
    replays = ROOT / "replays"
    committed = tmp / "commit.kbl"
    res = runner.invoke(app, ["play", "dare", "--seed", "4", "--bot", "all=random", "--commit",
                              "--log", str(committed), "--quiet"])
    assert res.exit_code == 0, res.output
    bot = tmp / "first.py"
    bot.write_text("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                   "    if m['type'] == 'turn':\n        print(m['legal'][0], flush=True)\n")
    run("sim", "dare", "-b", f"cmd:{sys.executable} {bot}", "-b", "random", "-m", "1",
        "--seed", "1", "--logs", str(tmp / "logs"))
    whole = tmp / "whole.jsonl"
    res = runner.invoke(app, ["play", "dare", "--seed", "3", "--bot", "all=random", "-r",
                              "rounds=2", "--log", str(whole), "--quiet"])
    assert res.exit_code == 0, res.output
    lines = whole.read_text().splitlines(keepends=True)
    (tmp / "cut.jsonl").write_text("".join(lines[:-2]))
    tampered = [line.replace('"winners":[1]', '"winners":[2]') for line in lines]
    assert tampered != lines
    (tmp / "tampered.jsonl").write_text("".join(tampered))
    (tmp / "none.kbl").write_bytes(b"not a log")
    logs = [replays / "kazu-tori" / "4p-physical-timed-dispute.kbl",
            replays / "dare" / "2p-human-undo.jsonl", committed,
            *sorted((tmp / "logs").iterdir()), tmp / "cut.jsonl", tmp / "tampered.jsonl",
            tmp / "none.kbl"]
    items: list[dict[str, Any]] = []
    for argv, code in ((["audit", *map(str, logs)], 2),
                       (["audit", str(whole), "--digest", "0" * 16], 1)):
        res = runner.invoke(app, [*argv, "--json"])
        assert res.exit_code == code, res.output
        items += json.loads(res.stdout)
    return items


def test_every_audit_key_sent_is_documented_and_every_documented_key_is_sent(
        audits: list[dict[str, Any]]) -> None:
    """audit --json had no page (probe BR): its keys are in docs/reports.md now, checked as
    the reports' are."""
    matches_the_doc("audit", audits)
    assert {item["status"] for item in audits} == {"valid", "invalid", "unreadable"}
    assert [item["action"] for item in audits if item["status"] == "invalid"][-1] == "--digest"
