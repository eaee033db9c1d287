"""What the recorders of replays/GAME/ share (make_dare.py, make_kazutori.py, make_yatchaba.py,
make_kabu_tsukuri.py).

A recorder knows the games to record (``Recorded``: a file name, seats, house rules, the
situation the match must show), how to tell whether a seed's match shows it (the game's own
``fits``), and how to read it again from the recorded log (the game's own ``shows``). The rest
is the same for every game and lives here: the search for the first seed from 1 up that fits,
the ``kabucli play GAME ... --log FILE`` command, recording by running it (the log written
straight to its place, a script of typed lines in a temporary folder), checking the recorded
log again, and the command line ``--force``/``--list``/file names.

The scripts run as ``python replays/make_GAME.py``, which puts this folder first on
``sys.path``; so they import this module as ``recording``.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from kabucli.bots import Bot, make as make_bot
from kabucli.engine import Game, Match, make_header
from kabucli.games import event_types
from kabucli.log import LogData, SeatInfo, read_log
from kabucli.rules import build
from kabucli.shuffle import Rng

# Seat kinds typed by people, not played by a bot: ``human`` (at a real table, or, for Dare,
# a person typing from a script) and ``person`` (Kazu-Tori: a person typing from a script).
PEOPLE = ("human", "person")

C = TypeVar("C")  # what a game's check reads


@dataclass
class Recorded(Generic[C]):
    """One recorded game: a file name, the seats (a bot kind each, or one of ``PEOPLE``),
    house rules as typed after ``--rule``, the check its match must pass and the situation
    that check stands for, in words. A physical game is played from ``physical_script`` by the
    players ``names``. A game may add fields after ``shows`` (they come before the
    keyword-only ones)."""

    file: str
    seats: tuple[str, ...]
    rules: dict[str, str]
    check: C
    shows: str
    _: KW_ONLY
    physical_script: str = ""
    names: tuple[str, ...] = ()
    # seconds between a physical game's lines, on average: they are typed at the prompt one
    # by one with pauses, as a referee types them (not read with --script), so the log's
    # times (when each input was entered) show the game's pace; 0: read with --script
    paced: float = 0.0


G = TypeVar("G", bound=Recorded[Any])


def house_rules(game: Game, rules: dict[str, str]) -> Any:
    """The ``--rule K=V`` values as the game's rules struct, as ``kabucli play`` reads them."""
    return build(game.Rules, [f"{k}={v}" for k, v in rules.items()], game=game.name)


def seat_infos(seats: Sequence[str]) -> list[SeatInfo]:
    """The header's seats as ``kabucli play`` writes them: ``pN`` for a seat typed by a
    person, the kind for a bot."""
    return [SeatInfo(f"p{i}", "human") if k in PEOPLE else SeatInfo(k, f"bot:{k}")
            for i, k in enumerate(seats, start=1)]


def bot_match(game: Game, spec: Recorded[Any], seed: int,
              stand_in: str | None = None) -> tuple[Match, dict[int, Bot]]:
    """The match ``kabucli play`` starts for ``spec`` and ``seed``, and a bot for each seat
    drawing from the stream ``bot/SEAT`` as the command's bots do; a person's seat is played
    by a ``stand_in`` bot."""
    header = make_header(game, house_rules(game, spec.rules), seat_infos(spec.seats), seed)
    players: dict[int, Bot] = {}
    for i, kind in enumerate(spec.seats, start=1):
        bot = stand_in if kind in PEOPLE else kind
        if bot is None:
            raise ValueError(f"{spec.file}: p{i} is a person and no bot stands in for them")
        players[i] = make_bot(game.name, bot, Rng(seed, f"bot/{i}"))
    return Match(game, header), players


def typed_at_prompt(cmd: list[str], script: str, pace: float, name: str) -> tuple[int, str]:
    """Run ``cmd`` (a ``kabucli play`` without ``--script``) and type ``script``'s lines at
    its prompt one by one, each after a pause of 0.3 to 1.7 times ``pace`` seconds (drawn
    from a generator seeded with ``name``), as a referee types them; comment lines are not
    typed (a blank line means a move in some games). Its exit code and standard error."""
    lines = [line for line in script.splitlines() if line.split("#", 1)[0].strip()]
    pauses = random.Random(name)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=out, stderr=err)
        assert proc.stdin is not None
        try:
            for line in lines:
                time.sleep(pace * pauses.uniform(0.3, 1.7))
                proc.stdin.write(line.encode() + b"\n")
                proc.stdin.flush()
        except BrokenPipeError:  # it stopped early: its error says why
            pass
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        code = proc.wait(timeout=60)
        err.seek(0)
        return code, err.read().decode(errors="replace")


@dataclass
class Recorder(Generic[G]):
    """How the files of one game's folder are made.

    ``fits(game, seed)`` plays a seeded game's match in the library and says None when it
    does not show the situation, else the script a person's seat types in it ("" when no
    seat is typed). ``shows(game, data)`` reads the situation again from a recorded log.
    With ``lists_typed``, ``--list`` prints that typed script too (else only a physical
    game's script)."""

    game: str  # the game's name on the command line
    folder: Path
    games: Sequence[G]
    max_seed: int
    fits: Callable[[G, int], str | None]
    shows: Callable[[G, LogData], bool]
    lists_typed: bool = False

    def find_seed(self, game: G) -> tuple[int, str]:
        """The first seed from 1 up whose match shows the situation, and the typed script."""
        for seed in range(1, self.max_seed + 1):
            typed = self.fits(game, seed)
            if typed is not None:
                return seed, typed
        raise SystemExit(f"{game.file}: no seed up to {self.max_seed} shows it")

    def command(self, game: G, seed: int | None, script: Path | None, log: Path) -> list[str]:
        cmd = [sys.executable, "-m", "kabucli", "play", self.game, "--quiet", "--log", str(log)]
        if game.physical_script:
            cmd += ["--physical"]
        else:
            cmd += ["--seed", str(seed)]
        for name in game.names:
            cmd += ["--player", name]
        if not game.names:
            cmd += ["--players", str(len(game.seats))]
        for i, kind in enumerate(game.seats, start=1):
            if kind not in PEOPLE:
                cmd += ["--bot", f"{i}={kind}"]
        for k, v in game.rules.items():
            cmd += ["--rule", f"{k}={v}"]
        if script is not None:
            cmd += ["--script", str(script)]
        return cmd

    def _short(self, arg: str, script: Path | None) -> str:
        """An argument as the README shows it: paths relative to the repository."""
        if script is not None and arg == str(script):
            return "moves.txt"
        if arg.startswith(str(self.folder)):
            return str(Path(arg).relative_to(self.folder.parent.parent))
        return arg

    def record(self, game: G, force: bool, dry: bool) -> None:
        path = self.folder / game.file
        if path.exists() and not force and not dry:
            print(f"kept      {game.file}")
            return
        seed: int | None = None
        script_text = listed = game.physical_script
        if not game.physical_script:
            seed, script_text = self.find_seed(game)
            if self.lists_typed:
                listed = script_text
        with tempfile.TemporaryDirectory() as tmp:
            script = None
            if script_text:
                script = Path(tmp) / "moves.txt"
                script.write_text(script_text)
            cmd = self.command(game, seed, None if game.paced else script, path)
            shown = " ".join(["kabucli", *(self._short(c, script) for c in cmd[3:])])
            if game.paced:
                shown += f" (the lines typed at its prompt, {game.paced:g} s apart on average)"
            if dry:
                print(f"{game.file}: {shown}" + (f"\n{listed}" if listed else ""))
                return
            path.unlink(missing_ok=True)
            if game.paced:
                code, err = typed_at_prompt(cmd, script_text, game.paced, game.file)
            else:
                done = subprocess.run(cmd, capture_output=True, text=True, check=False)
                code, err = done.returncode, done.stderr
            if code != 0:
                raise SystemExit(f"{game.file}: {shown} failed:\n{err}")
        data = read_log(path, event_types)
        if not self.shows(game, data):
            raise SystemExit(f"{game.file}: the recorded game does not show: {game.shows}")
        print(f"recorded  {game.file} ({len(data.events)} events; {shown})")

    def main(self, doc: str) -> None:
        """The scripts' command line; ``doc`` is the script's docstring."""
        ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
        ap.add_argument("--force", action="store_true", help="record every game again")
        ap.add_argument("--list", action="store_true", help="show seeds and commands only")
        ap.add_argument("only", nargs="*", help="record only these files")
        args = ap.parse_args()
        self.folder.mkdir(exist_ok=True)
        for game in self.games:
            if not args.only or game.file in args.only:
                self.record(game, args.force, args.list)
