"""Every kabucli command shown in a code block of README.md or docs/**/*.md runs and succeeds.

Each command line is run as written by bash, in a fresh folder of its own (HOME too), where
``kabucli``, ``python`` and ``python3`` are this interpreter. Files the examples read are there
beforehand: ``table.kbl`` (an unfinished game at a real table), ``game.kbl``/``game.jsonl`` (a
finished game), ``bad.kbl`` (that game with one bit flipped), ``moves.txt`` (a script of passes),
``mybot.py`` (the bot of docs/bots.md), ``mine.kbl`` (an unfinished game against it) and
``replays/`` (the recorded games); a file a command writes (``--log``, ``log convert``'s
destination, a ``>`` redirection) is not, and a redirection's folder is made. A command waiting
for a person gets its input piped: ``?`` and ``help`` typed at the prompt, then the end of
input. The install and test commands that share a line with one (``pip install``,
``pytest``) are what CI itself runs, and ``mkdir -p`` of a redirection's folder is done by the
test, so these are only recognised here, not run.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUNS_KABUCLI = re.compile(r"^(python3? -m )?kabucli(\s|$)")
# Steps that share a line with a kabucli command: installing and testing (what CI runs) and
# making the folder a completion script goes into (made here for any redirection).
SETUP = re.compile(r"^(python3? -m (pip install|pytest)|mkdir -p \S+)(\s|$)")
TYPED = "?\nhelp\n"  # what a person types at the prompt before leaving
TIMEOUT = 300


@dataclass(frozen=True)
class Command:
    where: str  # file:line
    line: str  # the kabucli part of the line, as written

    def words(self) -> list[str]:
        return shlex.split(self.line, comments=True)


def doc_commands() -> list[Command]:
    """The kabucli commands of every code block, in document order."""
    out = []
    for path in DOCS:
        fenced = False
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if text.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                continue
            parts = [p.strip() for p in text.strip().removeprefix("$ ").split("&&")]
            if not any(RUNS_KABUCLI.match(p) for p in parts):
                continue
            for part in parts:
                if RUNS_KABUCLI.match(part):
                    out.append(Command(f"{path.relative_to(ROOT)}:{number}", part))
                else:
                    assert SETUP.match(part), (f"{path.relative_to(ROOT)}:{number}: '{part}' "
                                               "is neither kabucli nor an install/test step")
    return out


COMMANDS = doc_commands()


def written(cmd: Command) -> set[str]:
    """The files a command writes (they must not be there before it)."""
    words = cmd.words()
    args = words[words.index("kabucli") + 1:]
    out = {w for k, w in pairwise(words) if k in ("--log", "-l", ">")}
    if args[:2] in (["log", "convert"], ["log", "repair"]) and "--force" not in args:
        out.add([w for w in args[2:] if not w.startswith("-")][1])
    return out


@pytest.fixture(scope="module")
def seed_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files the examples read, and shims that run this interpreter."""
    base = tmp_path_factory.mktemp("docs-seed")
    bin_dir = base / "bin"
    bin_dir.mkdir()
    for name, run in (("kabucli", "-m kabucli"), ("python", ""), ("python3", "")):
        shim = bin_dir / name
        shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {run} "$@"\n')
        shim.chmod(0o755)
    files = base / "files"
    files.mkdir()
    (files / "moves.txt").write_text("pass\n" * 30)
    (files / "mybot.py").write_text(
        "import json, sys\n\nfor line in sys.stdin:\n    message = json.loads(line)\n"
        "    if message['type'] == 'turn':\n        print(message['legal'][-1], flush=True)\n")
    shutil.copy(ROOT / "replays/dare/3p-showdown-outright.kbl", files / "game.kbl")
    damaged = bytearray((files / "game.kbl").read_bytes())
    damaged[-3] ^= 0x01  # one flipped bit in its block of moves: for log repair
    (files / "bad.kbl").write_bytes(bytes(damaged))
    kabucli = [sys.executable, "-m", "kabucli"]
    subprocess.run([*kabucli, "log", "convert", "game.kbl", "game.jsonl"], cwd=files,
                   check=True, capture_output=True)
    subprocess.run([*kabucli, "play", "dare", "--physical", "--players", "3", "--log",
                    "table.kbl"], cwd=files, input="deal 1-7-5\n", text=True, check=True,
                   capture_output=True)
    subprocess.run([*kabucli, "play", "dare", "--players", "2", "--bot",
                    "2=cmd:python3 mybot.py", "--seed", "1", "--log", "mine.kbl"], cwd=files,
                   input="quit\n", text=True, check=True, capture_output=True,
                   env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    return base


def run_command(cmd: Command, seed: Path, folder: Path) -> subprocess.CompletedProcess[str]:
    shutil.copytree(seed / "files", folder)
    (folder / "replays").symlink_to(ROOT / "replays")
    for name in written(cmd):
        target = folder / name.removeprefix("~/")  # HOME is the folder
        if target.is_file():
            target.unlink()
        target.parent.mkdir(parents=True, exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "KABUCLI_DEBUG")}
    env.update(HOME=str(folder), XDG_STATE_HOME=str(folder / ".state"),
               PATH=f"{seed / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    try:
        return subprocess.run(["bash", "-c", cmd.line], cwd=folder, env=env, input=TYPED,
                              text=True, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        return subprocess.CompletedProcess(exc.cmd, -1, str(exc.stdout),
                                           f"timed out after {TIMEOUT} s")


@pytest.fixture(scope="module")
def results(seed_files: Path, tmp_path_factory: pytest.TempPathFactory
            ) -> dict[Command, subprocess.CompletedProcess[str]]:
    """Every command's run, side by side (some wait on bots' processes), sims first as they
    take longest."""
    runs = tmp_path_factory.mktemp("docs-runs")
    order = sorted(enumerate(COMMANDS), key=lambda ic: " sim " not in f" {ic[1].line} ")
    with ThreadPoolExecutor(4) as pool:
        futures = {cmd: pool.submit(run_command, cmd, seed_files, runs / str(i))
                   for i, cmd in order}
        return {cmd: f.result() for cmd, f in futures.items()}


def test_the_docs_show_commands() -> None:
    where = {c.where.split(":")[0] for c in COMMANDS}
    assert {"README.md", "docs/bots.md", "docs/log-format.md"} <= where
    assert any("--player Ann" in c.line for c in COMMANDS)


@pytest.mark.parametrize("cmd", COMMANDS, ids=[c.where for c in COMMANDS])
def test_a_documented_command_succeeds(
        cmd: Command, results: dict[Command, subprocess.CompletedProcess[str]]) -> None:
    res = results[cmd]
    said = f"{cmd.where}: {cmd.line}\n--- stdout\n{res.stdout[-3000:]}\n--- stderr\n{res.stderr}"
    assert res.returncode == 0, said
    for bad in ("error:", "refused:", "Traceback", "internal error"):
        assert bad not in res.stderr and bad not in res.stdout, said


PLAY = [c for c in COMMANDS if c.words()[c.words().index("kabucli") + 1:][:1] == ["play"]]


@pytest.mark.parametrize("cmd", PLAY, ids=[c.where for c in PLAY])
def test_a_documented_player_sits_at_the_table(cmd: Command) -> None:
    """A person an example names with --player plays: no --bot of the same line takes the
    seat (``--bot all=KIND`` would make the named seat a bot too)."""
    from kabucli import games
    from kabucli.session import build_seats

    words = cmd.words()
    args = words[words.index("play") + 1:]
    opts: dict[str, list[str]] = {"--player": [], "--bot": []}
    players = None
    for key, value in pairwise(args):
        if key in ("--player", "-p", "--bot", "-b"):
            opts["--player" if key in ("--player", "-p") else "--bot"].append(value)
        elif key in ("--players", "-n"):
            players = int(value)
    names = {spec.partition("=")[2] if "=" in spec else spec for spec in opts["--player"]}
    seats = build_seats(games.get(args[0]), players, opts["--player"], opts["--bot"])
    for seat in seats:
        if seat.name in names:
            assert seat.control == "human", f"{cmd.where}: {seat.name} is {seat.control}"
