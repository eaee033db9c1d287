"""kabucli benchmark: bot play, audit and start-up speed (see bench/README.md).

    python bench/bench.py            # full run, a rich table
    python bench/bench.py --quick    # fewer and shorter runs (a smoke test, about 15 s)
    python bench/bench.py --json     # the same figures as JSON on stdout

Every figure is the median of several runs on one core (the process pins itself to one CPU
where the OS allows it). Units:

* **match**: one whole match under the default house rules (Dare: 10 rounds).
* **game**: what players call one game. For Dare that is one *round*: one deal played to its
  result (a Dare, a showdown, a tie or nobody qualifying), so a default match is 10 games.
  For games without rounds a game is a match.
* **event**: one record of the log (deals, actions, payments, results...).

Play runs the real loop the CLI runs for bot seats (``Session.run_bots``: ``Match.advance``,
``Game.bot_move``, then a trusted built-in bot's move is recorded as it is and any other bot's
move is checked by ``Match.submit``) without a log file. Audit is ``engine.walk`` over logs
written beforehand, checking every event.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # a checkout without installing (an installed kabucli wins)
    sys.path.append(str(ROOT))

FIRST_SEED = 1  # seeds of play run r: FIRST_SEED + (r + 1) * 1_000_000 + i, i < matches
FALLBACK_COMMANDS = 7  # when kabucli.cli has no Typer app to count


# -- what is measured -------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One game to benchmark: bots play ``players`` seats (seat i gets ``bots[(i-1) % len]``).

    ``game_event`` is the tag of the event that closes one game as players count games (Dare's
    ``result`` closes a round); None when a match is one game.
    """

    game: str
    bots: tuple[str, ...]
    players: int
    game_event: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)


# Games not yet in kabucli.games.GAMES are skipped (and listed as skipped); a registered game
# without an entry here is measured by default_entry (its random bots at its usual table).
ENTRIES: tuple[Entry, ...] = (
    Entry("dare", ("random",), 3, game_event="result"),
    Entry("kazu-tori", ("random",), 4),
    Entry("yatchaba", ("random",), 5, game_event="gameend"),
    Entry("uno-dare", ("random",), 2, game_event="score"),
    Entry("uno-dare", ("random",), 4, game_event="score"),
    # Kabu-Tsukuri: a game is a hand (one deal); the best bots run the solver every hand
    Entry("kabu-tsukuri", ("random",), 4, game_event="deal"),
    Entry("kabu-tsukuri", ("best",), 4, game_event="deal"),
)


@dataclass
class Settings:
    runs: int  # runs per figure; the median is reported
    play_seconds: float  # a play run lasts about this long
    audit_logs: int  # logs written per game for the audit figure
    startup_runs: int


FULL = Settings(runs=7, play_seconds=0.6, audit_logs=200, startup_runs=11)
QUICK = Settings(runs=3, play_seconds=0.15, audit_logs=40, startup_runs=5)


# -- play ---------------------------------------------------------------------------------------

def _tag(ev: Any) -> str | None:
    tag: str | None = type(ev).__struct_config__.tag
    return tag


def _setup(entry: Entry) -> tuple[Any, Any, list[Any]]:
    """The game, its rules and the seats of an entry."""
    from kabucli import games
    from kabucli.log import SeatInfo
    from kabucli.rules import validate

    game = games.get(entry.game)
    rules = validate(game.Rules, dict(entry.rules), game.name)
    seats = []
    for i in range(1, entry.players + 1):
        kind = entry.bots[(i - 1) % len(entry.bots)]
        seats.append(SeatInfo(kind, f"bot:{kind}"))
    return game, rules, seats


def file_cost(folder: Path) -> float:
    """What creating a file of 300 bytes costs in ``folder`` (made here), as ``kabucli sim``
    makes a log's (os.open, os.write, os.close): microseconds, over 500 files. The logs
    figures of bench_log.py and scale.py print it beside theirs: on a shared disk it moves by
    10x from one minute to the next."""
    folder.mkdir()
    data = bytes(300)
    t0 = time.perf_counter()
    for i in range(500):
        fd = os.open(folder / f"{i}.kbl", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        os.write(fd, data)
        os.close(fd)
    return (time.perf_counter() - t0) / 500 * 1e6


def play_match(game: Any, rules: Any, seats: list[Any], seed: int, keep: bool = True) -> Any:
    """One seeded match between bots, exactly as the CLI plays bot seats
    (``Session.run_bots``); the Match. ``keep``: the match keeps its events, as ``kabucli
    play`` does; without, it keeps none, as ``kabucli sim`` plays a match (its log written as
    it goes; a kabucli older than that keeps them all the same)."""
    from kabucli import bots as botreg
    from kabucli.engine import Match, make_header
    from kabucli.shuffle import Rng

    match = Match(game, make_header(game, rules, seats, seed))
    if not keep:
        with contextlib.suppress(AttributeError):
            match.keep = False
    bots = {i: botreg.make(game.name, seat.control[4:], Rng(seed, f"bot/{i}"))
            for i, seat in enumerate(seats, start=1)}
    try:
        from kabucli.session import Session
    except ImportError:  # a kabucli older than its session module: the loop it ran
        Session = None
    if Session is not None:
        Session(match, bots).run_bots()
        if not match.over:
            raise RuntimeError(f"{game.name}: no bot acts at event {match.logged + 1}")
        return match
    bot_event = game.bot_event
    while True:
        if match.advance().kind == "over":
            return match
        ev = bot_event(match, bots)
        if ev is None:
            raise RuntimeError(f"{game.name}: no bot acts at event {match.logged + 1}")
        match.submit(ev)


def _count(match: Any, game_event: str | None) -> tuple[int, int]:
    """(games, events) played in ``match``."""
    if game_event is None:
        return 1, len(match.events)
    return sum(1 for ev in match.events if _tag(ev) == game_event), len(match.events)


def _play_run(game: Any, rules: Any, seats: list[Any], seeds: range,
              game_event: str | None) -> tuple[float, int, int]:
    """Seconds, games and events of playing one match per seed. Matches are dropped as they
    end (holding them all makes the garbage collector slow the run down)."""
    ngames = nevents = 0
    elapsed = 0.0
    for seed in seeds:
        t0 = time.perf_counter()
        match = play_match(game, rules, seats, seed)
        elapsed += time.perf_counter() - t0
        g, e = _count(match, game_event)
        ngames += g
        nevents += e
    return elapsed, ngames, nevents


def bench_play(entry: Entry, cfg: Settings) -> dict[str, Any]:
    game, rules, seats = _setup(entry)
    # Calibrate: how many matches make a run of about play_seconds.
    t0 = time.perf_counter()
    n = 0
    while n < 3 or time.perf_counter() - t0 < cfg.play_seconds / 4:
        play_match(game, rules, seats, FIRST_SEED + n)
        n += 1
    per_match = (time.perf_counter() - t0) / n
    count = max(3, round(cfg.play_seconds / per_match))

    # Each run plays other seeds (no cache of an earlier run helps it), the same in every
    # benchmark run; rates are per run, the median is reported.
    runs, rates = [], []
    for r in range(cfg.runs):
        first = FIRST_SEED + (r + 1) * 1_000_000
        t, ngames, nevents = _play_run(game, rules, seats, range(first, first + count),
                                       entry.game_event)
        runs.append(t)
        rates.append((count / t, ngames / t, nevents / t, ngames / count, nevents / count))
    med = [statistics.median(col) for col in zip(*rates, strict=True)]
    return {
        "game": entry.game,
        "players": entry.players,
        "bots": list(entry.bots),
        "rules": rules_dict(rules),
        "matches_per_run": count,
        "games_per_match": med[3],
        "events_per_match": med[4],
        "matches_per_s": med[0],
        "games_per_s": med[1],
        "events_per_s": med[2],
        "us_per_event": 1e6 / med[2],
        "run_seconds": runs,
    }


def rules_dict(rules: Any) -> dict[str, Any]:
    from kabucli.rules import as_dict

    return as_dict(rules)


# -- audit ---------------------------------------------------------------------------------------

def bench_audit(entry: Entry, cfg: Settings, tmp: Path) -> dict[str, Any]:
    """engine.walk over logs written beforehand: in memory, and read from disk + walk."""
    from kabucli import games
    from kabucli.engine import walk
    from kabucli.log import read_log, write_log

    try:
        from kabucli.log import audit_log
    except ImportError:
        audit_log = None

    game, rules, seats = _setup(entry)
    folder = tmp / f"logs-{entry.game}-{entry.players}"
    folder.mkdir()
    paths = []
    for i in range(cfg.audit_logs):
        seed = 10_000 + i
        match = play_match(game, rules, seats, seed)
        path = folder / f"{i:05d}.kbl"
        write_log(path, match.header, match.events, "msgpack", types=game.events)
        paths.append(path)
    logs = [read_log(p, games.event_types) for p in paths]
    nevents = sum(len(d.events) for d in logs)

    def walk_all() -> None:
        for d in logs:
            _, violation = walk(game, d.header, d.events)
            if violation is not None:
                raise RuntimeError(f"audit of a bot log failed: {violation}")

    def read_and_walk() -> None:
        for p in paths:
            if audit_log is not None:  # what kabucli audit runs: the log read and checked at once
                violation = audit_log(p, games.event_types).violation
            else:  # a kabucli from before log format 2: read, then walk
                d = read_log(p, games.event_types)
                _, violation = walk(game, d.header, d.events)
            if violation is not None:
                raise RuntimeError(f"audit of a bot log failed: {violation}")

    # The decoded logs stay alive during the walks: freeze them, so the garbage collector
    # does not scan them again and again (it would charge their number to the walk).
    gc.collect()
    gc.freeze()
    try:
        walk_t = _median_time(walk_all, cfg.runs)
    finally:
        gc.unfreeze()
    read_t = _median_time(read_and_walk, cfg.runs)
    return {
        "game": entry.game,
        "players": entry.players,
        "logs": len(paths),
        "events": nevents,
        "walk_events_per_s": nevents / walk_t,
        "read_walk_events_per_s": nevents / read_t,
        "walk_us_per_event": walk_t / nevents * 1e6,
    }


def _median_time(fn: Callable[[], None], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


# -- start-up ------------------------------------------------------------------------------------

_SHAPE_PROBE = """
import json, typer, typer.main
import kabucli.cli as cli
apps = [v for v in vars(cli).values() if isinstance(v, typer.Typer)]
app = getattr(cli, "app", None) if isinstance(getattr(cli, "app", None), typer.Typer) else None
if app is None and apps:
    app = apps[0]
if app is None:
    print("null")
else:
    group = typer.main.get_command(app)
    shape = {}
    for name, cmd in getattr(group, "commands", {}).items():
        sub = getattr(cmd, "commands", None)
        shape[name] = None if sub is None else len(sub)
    print(json.dumps(shape))
"""


def cli_shape() -> tuple[dict[str, int | None], str]:
    """kabucli's command tree as {top-level name: None for a command, N for a group of N}."""
    try:
        out = subprocess.run([sys.executable, "-c", _SHAPE_PROBE], cwd=ROOT, text=True,
                             capture_output=True, timeout=60, check=True).stdout.strip()
        shape = json.loads(out or "null")
    except (subprocess.SubprocessError, json.JSONDecodeError):
        shape = None
    if not shape:
        return {f"cmd{i}": None for i in range(1, FALLBACK_COMMANDS + 1)}, "fallback (no app)"
    return shape, "kabucli/cli"


def write_bare_app(folder: Path, shape: dict[str, int | None]) -> None:
    """A Typer app with kabucli's command tree, as a package (cli, __main__)."""

    def command(app: str, name: str, n: int) -> str:
        return textwrap.dedent(f'''
            @{app}.command("{name}")
            def _c{n}(
                name: Annotated[str, typer.Argument(help="a name")] = "x",
                count: Annotated[int, typer.Option(help="how many")] = 1,
                verbose: Annotated[bool, typer.Option(help="say more")] = False,
            ) -> None:
                """Command {name}: does nothing."""
                typer.echo(name * count)
            ''')

    lines = [
        "from __future__ import annotations",
        "from typing import Annotated",
        "import typer",
        "app = typer.Typer(name='bare', help='A bare Typer app.', add_completion=False,",
        "                  no_args_is_help=True, pretty_exceptions_enable=False)",
    ]
    n = 0
    for name, sub in shape.items():
        if sub is None:
            n += 1
            lines.append(command("app", name, n))
        else:
            var = f"g{n}"
            lines.append(f"{var} = typer.Typer(help='A group.', no_args_is_help=True)")
            lines.append(f"app.add_typer({var}, name='{name}')")
            for j in range(sub):
                n += 1
                lines.append(command(var, f"sub{j + 1}", n))
    lines.append("def main() -> None:\n    app()")
    pkg = folder / "bareapp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""A bare Typer app for the start-up benchmark."""\n')
    (pkg / "cli.py").write_text("\n".join(lines) + "\n")
    (pkg / "__main__.py").write_text("from bareapp.cli import main\n\nmain()\n")


def _wall(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    t = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {proc.stderr.decode()[-500:]}")
    return t


def bench_solve(cfg: Settings) -> dict[str, Any]:
    """The Kabu-Tsukuri solver's time per hand (what the ``best`` bot and ``kabucli solve``
    run): random hands of 10 cards at a table of 4 (and 9 at a table of 5), each solved once;
    the median run's median, mean and slowest hand."""
    from kabucli.games.kabu_tsukuri.solver import solve
    from kabucli.shuffle import Rng

    deck = [m for m in range(1, 13) for _ in range(4)]
    n = 200 if cfg.runs <= 3 else 1000
    out = {}
    for players, size in ((4, 10), (5, 9)):
        rng = Rng(FIRST_SEED, f"bench/solve/{players}")
        hands = [rng.shuffled(deck)[:size] for _ in range(n)]
        for hand in hands[:20]:  # warm up the shared tables of splits
            solve(hand, players)
        runs = []
        for _ in range(cfg.runs):
            times = []
            for hand in hands:
                start = time.perf_counter()
                solve(hand, players)
                times.append(time.perf_counter() - start)
            times.sort()
            runs.append((times[len(times) // 2], sum(times) / len(times), times[-1]))
        runs.sort()
        median, mean, worst = runs[len(runs) // 2]
        out[f"{players}p"] = {"hands": n, "median_ms": median * 1000, "mean_ms": mean * 1000,
                              "max_ms": worst * 1000, "hands_per_s": 1 / mean}
    return out


def bench_startup(cfg: Settings, tmp: Path) -> dict[str, Any]:
    shape, source = cli_shape()
    folder = tmp / "bare"
    folder.mkdir()
    write_bare_app(folder, shape)
    py = sys.executable
    targets: dict[str, tuple[list[str], Path]] = {
        "python -c pass": ([py, "-c", "pass"], ROOT),
        "bare typer app (python -m bareapp --help)": ([py, "-m", "bareapp", "--help"], folder),
        "python -m kabucli --help": ([py, "-m", "kabucli", "--help"], ROOT),
    }
    script = shutil.which("kabucli")
    if script is None:  # the console script next to this interpreter, e.g. a venv's bin/
        candidate = Path(py).parent / "kabucli"
        script = str(candidate) if candidate.exists() else None
    if script is not None:
        targets["kabucli --help (console script)"] = ([script, "--help"], ROOT)
    # Byte-code caches for every module (kabucli, typer, the bare app) in one fresh folder, as
    # an installed package has them: the same footing for all, and nothing written elsewhere.
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    for argv, cwd in targets.values():  # warm up: byte-code caches, page cache
        _wall(argv, cwd, env)
        _wall(argv, cwd, env)
    times: dict[str, list[float]] = {k: [] for k in targets}
    for _ in range(cfg.startup_runs):  # interleaved, so drift hits every target alike
        for key, (argv, cwd) in targets.items():
            times[key].append(_wall(argv, cwd, env))
    med = {k: statistics.median(v) for k, v in times.items()}
    bare = med["bare typer app (python -m bareapp --help)"]
    commands = sum(1 if v is None else v for v in shape.values())
    return {
        "commands": commands,
        "shape": shape,
        "shape_from": source,
        "script": script,
        "median_ms": {k: v * 1000 for k, v in med.items()},
        "ratio_to_bare": {k: v / bare for k, v in med.items() if "kabucli" in k},
        "runs": cfg.startup_runs,
    }


# -- anchors: other projects' engines of the same family, measured in the same run ------------

def _rlcard_uno(players: int) -> Callable[[], int] | None:
    """One RLCard UNO game (``env.run`` with random agents), or None without rlcard."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 1, "game_num_players": players})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def one() -> int:
        env.run(is_training=False)
        return 1
    return one


def _spiel_crazy_eights(players: int) -> Callable[[], int] | None:
    """One OpenSpiel crazy_eights game with uniform random actions (chance outcomes by their
    probabilities), or None without open_spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    import random

    game = pyspiel.load_game("crazy_eights", {"players": players})
    rng = random.Random(1)

    def one() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return 1
    return one


def _uno_dare(players: int, checked: bool) -> Callable[[], int]:
    """One Uno Dare match between random bots (its rounds are the games counted); with
    ``checked`` every bot move is checked in full as a person's move is (validation on)."""
    from kabucli import bots as botreg
    from kabucli.engine import Match, make_header
    from kabucli.session import Session
    from kabucli.shuffle import Rng

    game, rules, seats = _setup(Entry("uno-dare", ("random",), players))
    seeds = iter(range(FIRST_SEED + 9_000_000, FIRST_SEED + 10_000_000))

    def one() -> int:
        seed = next(seeds)
        match = Match(game, make_header(game, rules, seats, seed))
        if checked:
            match.check_trusted = []
        bots = {i: botreg.make(game.name, "random", Rng(seed, f"bot/{i}"))
                for i in range(1, players + 1)}
        Session(match, bots).run_bots()
        return sum(1 for ev in match.events if _tag(ev) == "score")
    return one


def _rate(one: Callable[[], int], seconds: float) -> float:
    """Games per second of calling ``one`` (which plays and counts games) for ``seconds``."""
    games = 0
    t0 = time.perf_counter()
    while True:
        games += one()
        t = time.perf_counter() - t0
        if t >= seconds:
            return games / t


def bench_anchors(cfg: Settings) -> list[dict[str, Any]]:
    """Uno Dare rounds per second between random bots, with every move checked, side by
    side with RLCard's UNO and OpenSpiel's crazy_eights when installed (the ``bench``
    extra). The runs interleave, so load on the machine hits every engine alike."""
    from kabucli import games

    if "uno-dare" not in games.GAMES:
        return []
    out = []
    for players in (2, 4):
        engines: dict[str, Callable[[], int] | None] = {
            "kabucli uno-dare (checked)": _uno_dare(players, True),
            "kabucli uno-dare": _uno_dare(players, False),
            "rlcard uno": _rlcard_uno(players),
            "open_spiel crazy_eights": _spiel_crazy_eights(players),
        }
        rates: dict[str, list[float]] = {k: [] for k, v in engines.items() if v is not None}
        for _ in range(cfg.runs):
            for name in rates:
                one = engines[name]
                assert one is not None
                rates[name].append(_rate(one, cfg.play_seconds))
        med = {k: statistics.median(v) for k, v in rates.items()}
        ours = med["kabucli uno-dare (checked)"]
        out.append({"players": players, "games_per_s": med,
                    "missing": [k for k, v in engines.items() if v is None],
                    "ratio": {k: ours / v for k, v in med.items() if not k.startswith("kab")}})
    return out


# -- driver ----------------------------------------------------------------------------------------

def pin_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[0]})
        return f"pinned to CPU {cpus[0]}"
    return "not pinned (no sched_setaffinity)"


def all_entries() -> tuple[Entry, ...]:
    """ENTRIES, and a default entry for every registered game that has none."""
    from kabucli import games

    named = {e.game for e in ENTRIES}
    extra = tuple(Entry(g, ("random",), games.get(g).default_players)
                  for g in games.names() if g not in named)
    return ENTRIES + extra


def run(cfg: Settings, parts: set[str], quick: bool,
        entries: tuple[Entry, ...] | None = None) -> dict[str, Any]:
    import kabucli
    from kabucli import bots as botreg, games

    entries = all_entries() if entries is None else entries
    result: dict[str, Any] = {
        "kabucli": str(Path(kabucli.__file__).parent),
        "python": platform.python_version(),
        "machine": f"{platform.system()} {platform.machine()} {platform.processor()}".strip(),
        "core": pin_one_core(),
        # the compiled core or the pure-Python modules (setup.py); older kabucli: pure
        "build": getattr(kabucli, "build", lambda: "pure Python")(),
        "quick": quick,
        "runs": cfg.runs,
        "play": [],
        "audit": [],
        "skipped": [],
    }
    active = []
    for entry in entries:
        if entry.game not in games.GAMES:
            result["skipped"].append(f"{entry.game}: not registered in kabucli.games.GAMES")
            continue
        unknown = [k for k in entry.bots if k not in botreg.kinds(entry.game)]
        if unknown:
            result["skipped"].append(f"{entry.game}: no bot kind {', '.join(unknown)}")
            continue
        active.append(entry)
    with tempfile.TemporaryDirectory(prefix="kabucli-bench-") as name:
        tmp = Path(name)
        if "play" in parts:
            result["play"] = [bench_play(e, cfg) for e in active]
        if "audit" in parts:
            # one audit per game and table size: the first entry's logs (a later entry of the
            # same size differs only by its bots, and their logs walk alike)
            audited = {(e.game, e.players): e for e in reversed(active)}
            result["audit"] = [bench_audit(e, cfg, tmp) for e in active
                               if audited[(e.game, e.players)] is e]
        if "startup" in parts:
            result["startup"] = bench_startup(cfg, tmp)
        if "anchors" in parts:
            result["anchors"] = bench_anchors(cfg)
        if "solve" in parts and "kabu-tsukuri" in games.GAMES:
            result["solve"] = bench_solve(cfg)
    return result


def show(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console(width=None if sys.stdout.isatty() else 110)
    con.print(f"[bold]kabucli benchmark[/] of {result['kabucli']} ({result['build']})")
    con.print(f"Python {result['python']}, {result['machine']}, "
              f"{result['core']}; medians of {result['runs']} runs"
              + ("  [yellow](quick)[/]" if result["quick"] else ""))
    if result["play"]:
        t = Table(title="Play: bots through Session.run_bots (the loop of kabucli play and sim)",
                  caption="game = what players call a game (Dare: one round, one deal "
                          "played out); match = a whole match under the default rules")
        for col in ("game", "players, bots", "games/match", "matches/s", "games/s",
                    "events/s", "µs/event"):
            t.add_column(col, justify="left" if col in ("game", "players, bots") else "right")
        for r in result["play"]:
            t.add_row(r["game"], f"{r['players']}, {'+'.join(r['bots'])}",
                      f"{r['games_per_match']:.2f}", f"{r['matches_per_s']:,.0f}",
                      f"{r['games_per_s']:,.0f}", f"{r['events_per_s']:,.0f}",
                      f"{r['us_per_event']:.1f}")
        con.print(t)
    if result["audit"]:
        play: dict[tuple[str, int], dict[str, Any]] = {}
        for r in result["play"]:  # the first entry of each game and size, as audited
            play.setdefault((r["game"], r["players"]), r)
        t = Table(title="Audit: engine.walk over logs written beforehand",
                  caption="audit/play = walk events/s over play events/s (goal: >= 1)")
        for col in ("game", "logs", "events", "walk events/s", "read+walk events/s",
                    "play events/s", "audit/play"):
            t.add_column(col, justify="left" if col == "game" else "right")
        for r in result["audit"]:
            p = play.get((r["game"], r.get("players")))
            t.add_row(f"{r['game']} ({r.get('players', '?')})", str(r["logs"]),
                      f"{r['events']:,}",
                      f"{r['walk_events_per_s']:,.0f}", f"{r['read_walk_events_per_s']:,.0f}",
                      f"{p['events_per_s']:,.0f}" if p else "-",
                      f"{r['walk_events_per_s'] / p['events_per_s']:.2f}" if p else "-")
        con.print(t)
    if "startup" in result:
        s = result["startup"]
        t = Table(title=f"Start-up: wall time of --help ({s['commands']} commands, from "
                        f"{s['shape_from']}), median of {s['runs']}",
                  caption="ratio = time / bare Typer app with the same commands (goal: <= 1.2)")
        t.add_column("command")
        t.add_column("ms", justify="right")
        t.add_column("ratio", justify="right")
        for k, ms in s["median_ms"].items():
            ratio = s["ratio_to_bare"].get(k)
            t.add_row(k, f"{ms:.1f}", f"{ratio:.2f}" if ratio is not None else "")
        con.print(t)
    for a in result.get("anchors", []):
        t = Table(title=f"Anchors, {a['players']} players: games (rounds) per second between "
                        "random players, interleaved runs",
                  caption="ratio = kabucli uno-dare (checked) / the anchor; goals: >= 5 for "
                          "RLCard, >= 1 for OpenSpiel")
        t.add_column("engine")
        t.add_column("games/s", justify="right")
        t.add_column("ratio", justify="right")
        for name, rate in a["games_per_s"].items():
            ratio = a["ratio"].get(name)
            t.add_row(name, f"{rate:,.0f}", f"{ratio:.2f}" if ratio is not None else "")
        for name in a["missing"]:
            t.add_row(name, "not installed", "")
        con.print(t)
    if "solve" in result:
        t = Table(title="Solve: the Kabu-Tsukuri solver, one random hand at a time",
                  caption="every arrangement of the hand accounted for (goal: < 50 ms a hand)")
        for col in ("table", "hands", "median ms", "mean ms", "max ms", "hands/s"):
            t.add_column(col, justify="left" if col == "table" else "right")
        for k, r in result["solve"].items():
            t.add_row(k, str(r["hands"]), f"{r['median_ms']:.2f}", f"{r['mean_ms']:.2f}",
                      f"{r['max_ms']:.2f}", f"{r['hands_per_s']:,.0f}")
        con.print(t)
    for note in result["skipped"]:
        con.print(f"[dim]skipped {note}[/]")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="kabucli benchmark (see bench/README.md)")
    ap.add_argument("--quick", action="store_true", help="fewer, shorter runs")
    ap.add_argument("--json", action="store_true", help="print JSON instead of tables")
    ap.add_argument("--runs", type=int, help="runs per figure (default 7, quick 3)")
    ap.add_argument("--only", default="play,audit,startup,anchors,solve",
                    help="comma-separated parts: play, audit, startup, anchors, solve")
    ap.add_argument("--game", action="append",
                    help="benchmark only this game (repeatable; default: every entry)")
    args = ap.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    if args.runs:
        cfg = Settings(args.runs, cfg.play_seconds, cfg.audit_logs, cfg.startup_runs)
    parts = {p.strip() for p in args.only.split(",") if p.strip()}
    bad = parts - {"play", "audit", "startup", "anchors", "solve"}
    if bad:
        ap.error(f"unknown part(s): {', '.join(sorted(bad))}")
    entries = all_entries()
    if args.game:
        wanted = {g.lower() for g in args.game}
        entries = tuple(e for e in entries if e.game in wanted)
    result = run(cfg, parts, args.quick, entries)
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        show(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
