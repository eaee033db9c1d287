"""Hostile bots, a further round (see test_harden_bots.py for the earlier ones): bad bot
settings and Python bots that fail to load stop before a log is made; a Python bot that
changes folder does not change the next match's bot; a Python bot that spoils its copy of the
match fails under its own seat's name.

Every bot here gets a short time limit (KABUCLI_BOT_TIMEOUT), so that each test is quick."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIMIT = "0.5"  # seconds: the time limit of the bots of these tests


def kabucli(*args: str, cwd: Path, env: dict[str, str] | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``python -m kabucli ARGS`` in ``cwd`` as a user would (plain output)."""
    full = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "100",
            "KABUCLI_BOT_TIMEOUT": LIMIT, **(env or {})}
    res = subprocess.run([sys.executable, "-m", "kabucli", *args], cwd=cwd, env=full,
                         capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in res.stderr + res.stdout, res.stderr
    assert "internal error" not in res.stderr + res.stdout, res.stderr
    return res


def error_lines(res: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in res.stderr.splitlines() if line.startswith("error:")]


@pytest.mark.parametrize(("env", "bot", "expected"), [
    ({"KABUCLI_BOT_TIMEOUT": "soon"}, "cmd:python3 mybot.py", "KABUCLI_BOT_TIMEOUT='soon'"),
    ({"KABUCLI_BOT_MEMORY": "lots"}, "cmd:python3 mybot.py", "KABUCLI_BOT_MEMORY='lots'"),
    # a digit to str.isdigit, not to int(): once 'invalid literal for int()', as the bot's
    # failure to start
    ({"KABUCLI_BOT_MEMORY": "\u00b2"}, "cmd:python3 mybot.py", "KABUCLI_BOT_MEMORY='\u00b2'"),
    ({}, "py:quits.py:Bot", "cannot load python bot 'quits.py:Bot': SystemExit: 3"),
    ({}, "py:absent.py:Bot", "python bot file absent.py not found"),
], ids=["timeout", "memory", "memory-superscript", "py-exits-on-import", "py-absent"])
def test_a_bot_that_cannot_be_made_stops_play_before_a_log_is_made(
        tmp_path: Path, env: dict[str, str], bot: str, expected: str) -> None:
    # before: the log was made first, then the bot: a log of a game never played was left
    # behind (and with a bad KABUCLI_BOT_MEMORY, the game was played up to the bot's turn)
    (tmp_path / "quits.py").write_text("import sys\nsys.exit(3)\n")
    res = kabucli("play", "dare", "--players", "2", "--seed", "1", "--bot", f"1={bot}",
                  "--bot", "2=best", cwd=tmp_path, env=env)
    assert res.returncode == 1
    assert len(error_lines(res)) == 1 and expected in error_lines(res)[0], res.stderr
    assert "log kept" not in res.stderr
    assert res.stdout == ""  # no table drawn: nothing was dealt
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quits.py"]  # and no log made


CHDIR_BOT = """
import os

class Bot:  # goes into a folder of its own, which holds another bot of the same name
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "sub"))
        return game.legal(state, seat)[0]
"""


def test_a_python_bot_that_changes_folder_does_not_change_the_next_matchs_bot(
        tmp_path: Path) -> None:
    # the process that runs a Python bot plays the next match too; it went on from the
    # folder the bot had gone to, so 'py:mine.py:Bot' was then sub/mine.py (or not found)
    (tmp_path / "mine.py").write_text(CHDIR_BOT)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mine.py").write_text(
        "class Bot:\n    def __init__(self, rng):\n        raise RuntimeError('impostor')\n")
    res = kabucli("sim", "dare", "-b", "py:mine.py:Bot", "-b", "best", "-m", "3",
                  "--workers", "1", "--seed", "1", "--rule", "rounds=1", "--json",
                  cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["failures"] == 0 and report["failed"] == [], report["failed"]
    assert report["bots"][0]["forfeits"] == 0
    assert report["matches"] == 3


MUTATING_BOT = """
class Bot:  # spoils the table it is handed (its process's copy of the match)
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        for name in dir(state):
            if not name.startswith("_"):
                try:
                    setattr(state, name, None)
                except Exception:
                    pass
        return "pass"
"""


def test_a_python_bot_that_spoils_its_copy_of_the_match_is_named_by_seat(
        tmp_path: Path) -> None:
    # its process then fails to bring the copy up to date, or to read the bot's move: once
    # 'python bot 'spoil.py:Bot': TypeError: ...', not saying which of two such seats failed
    (tmp_path / "spoil.py").write_text(MUTATING_BOT)
    res = kabucli("play", "dare", "--players", "2", "--seed", "1", "--rule", "rounds=2",
                  "--bot", "1=py:spoil.py:Bot", "--bot", "2=py:spoil.py:Bot", "--log", "g.kbl",
                  cwd=tmp_path)
    assert res.returncode == 1
    (line,) = error_lines(res)
    # (which error, and when, differs between the compiled core and pure Python: the spoiled
    # copy fails where it is first used)
    assert re.match(r"error: bot p[12] \('spoil\.py:Bot'\) failed: [A-Za-z]+Error: ", line), line
    assert re.search(r"log kept: g\.kbl \(\d+ events\)", line), line
    audit = kabucli("audit", "g.kbl", cwd=tmp_path)
    assert audit.returncode == 0, audit.stdout + audit.stderr


STALLER = '''
class Stall:  # never plays a card: draws and keeps, lets calls go, declines dares
    def __init__(self, rng):
        pass

    def choose(self, game, state, seat):
        legal = [game.notate(e) for e in game.bot_legal(state, seat)]
        for word in ("keep", "draw", "pass", "decline"):
            for move in legal:
                if word in move:
                    return move
        return legal[0]
'''


def test_uno_dare_bots_that_never_play_a_card_still_end_their_match(tmp_path: Path) -> None:
    # before: every round ran out of turns (max_turns) and scored nothing, and a match
    # between such bots went on for ever: the run never ended, its log grew without end
    (tmp_path / "stall.py").write_text(STALLER)
    res = kabucli("sim", "uno-dare", "--bot", "py:stall.py:Stall", "--bot", "py:stall.py:Stall",
                  "--matches", "2", "--seed", "3", "--rule", "max_turns=50", "--logs", "logs",
                  "--json", cwd=tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["matches"] == 2 and all(b["forfeits"] == 0 for b in report["bots"])
    for log in sorted((tmp_path / "logs").iterdir()):
        audit = kabucli("audit", str(log), "--json", cwd=tmp_path)
        assert audit.returncode == 0, audit.stdout
        shown = kabucli("replay", str(log), cwd=tmp_path)
        assert "3 rounds in a row scored nothing" in shown.stdout, shown.stdout[-600:]
