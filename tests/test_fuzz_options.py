"""Fuzzing the command line and rules files: seeded random option values (``--seed``,
``--players``, ``--player``, ``--bot``, ``--rule``, ``--timeout``, ``--sprt``, ``--top``,
``--log``, cards to solve, ``--at``, ``--as``, ``--html``, ``--digest``, ``--commit``,
``--to``, files to write) and random rules files (TOML mutated, cut, re-encoded, nested,
huge) given to ``play``, ``deal``, ``sim``, ``tournament``, ``solve`` and ``rules``, and to
``replay``, ``audit``, ``resume``, ``log convert`` and ``log repair`` of a copy of a recorded
game: each run ends with exit 0, or with one clean line on stderr and exit 1 or 2; never an
internal error, a traceback, an escape sequence or a hang; and the recorded game is never
changed (a resume may only add to it).

The fuzzer never writes ``cmd:`` or ``py:`` into a bot's kind: it would run programs.

The run is seeded and bounded (a few seconds a game). ``pytest -s`` prints cases tried /
accepted / clean refusals / crashes; ``python tests/test_fuzz_options.py [CASES] [SEED]``
runs more cases and prints the same report.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

import pytest
from fuzztools import NUMBERS, WEIRD, Stats
from typer.testing import CliRunner

from kabucli import bots, cli, games
from kabucli.rules import describe

runner = CliRunner()
GAMES = games.names()
SEED = 20261128
CASES = 40  # command lines per game
SLOW = 30.0  # seconds: a run taking longer is counted as a hang

# A command line holds no NUL (the kernel ends each argument at one); bytes that are not
# UTF-8 reach Python as lone surrogates (surrogateescape), as a file name in Latin-1 would.
NOT_UTF8 = ["\udcff", "\udce9t\udce9", "1\udcff", "\udc82\udca0"]  # (Latin-1 é, Shift-JIS あ)
TEXT = [w for w in WEIRD if "\x00" not in w and "\ud800" not in w] + NOT_UTF8
MORE_NUMBERS = [*NUMBERS, "", " ", "3 ", "３", "１０", "nan", "inf", "-inf", "1e-9", "0.0001",
                "86400", "86401", "0.001", "2**64", "0b11", "1,000", "1 000"]


def pick(rnd: random.Random, *pools: list[str]) -> str:
    return rnd.choice(rnd.choice(pools))


BAD = 0.25  # how often a value is drawn from the odd ones rather than the good


def value(rnd: random.Random, good: list[str], *odd: list[str]) -> str:
    """A good value mostly (so that a run gets past its options now and then), else an odd
    one (bytes that are not UTF-8 as often as any other kind)."""
    return pick(rnd, *odd, NOT_UTF8) if rnd.random() < BAD else rnd.choice(good)


def rule_values(rnd: random.Random, kind: str, choices: tuple[object, ...]) -> str:
    """A value for a rule of ``kind``: a valid one that keeps a match short, or one out of
    bounds, of another type or weird. (Never a valid upper bound: 10,000 rounds take long.)"""
    if kind.startswith("integer"):
        low, high = (int(x) for x in kind.split()[1].split("-"))
        return value(rnd, [str(low), str(low), str(low + 1), str(min(low + 2, high))],
                     [str(x) for x in (low - 1, high + 1, 2**63, -(2**63) - 1)], MORE_NUMBERS,
                     TEXT)
    odd = ["true", "false", "True", "yes", "[]", "a,b", *(str(c).upper() for c in choices)]
    if kind == "true | false":
        return value(rnd, ["true", "false"], odd, MORE_NUMBERS, TEXT)
    if choices:
        return value(rnd, [str(c) for c in choices], odd, MORE_NUMBERS, TEXT)
    return pick(rnd, odd, MORE_NUMBERS, TEXT)


def rule_pair(rnd: random.Random, game: str) -> str:
    infos = describe(games.get(game).Rules)
    info = rnd.choice(infos)
    if rnd.random() < BAD / 2:  # a name that is no rule, or no pair at all
        return pick(rnd, TEXT, ["rounds", "=", "==", "a=b=c", "rounds=", "=3", "ANTE=1"])
    return f"{info.name}={rule_values(rnd, info.kind, info.choices)}"


def toml_value(rnd: random.Random, depth: int = 0) -> str:
    """One TOML value (or something near one)."""
    forms = [lambda: pick(rnd, MORE_NUMBERS[:20]),
             lambda: '"' + pick(rnd, TEXT, MORE_NUMBERS).replace("\\", "\\\\").replace('"', '\\"')
             + '"',
             lambda: rnd.choice(["true", "false", "1979-05-27", "07:32:00", "1979-05-27T07:32:00Z",
                                 "inf", "nan", "-0.0", "1e400", "0x7f", "0o17", "'lit'",
                                 '"""multi\nline"""', str(2**70), "-" + str(2**64)])]
    if depth < 3:
        forms.append(lambda: "[" + ", ".join(toml_value(rnd, depth + 1)
                                             for _ in range(rnd.randint(0, 3))) + "]")
        forms.append(lambda: "{" + ", ".join(f"k{i} = {toml_value(rnd, depth + 1)}"
                                             for i in range(rnd.randint(0, 2))) + "}")
    return rnd.choice(forms)()


def rules_file(rnd: random.Random, game: str) -> bytes:
    """A rules file: TOML of the game's rules mutated, then perhaps damaged as bytes."""
    lines: list[str] = []
    for _ in range(rnd.choice([0, 1, 1, 2, 3, 6])):
        r = rnd.random()
        if r < 0.15:
            table = rnd.choice([*GAMES, game, game, "", "a.b", '"dare"', "dare.x", "[x]",
                                *TEXT])
            lines.append(f"[{table}]" if rnd.random() < 0.8 else f"[[{table}]]")
        elif r < 0.6:
            name, _, given = rule_pair(rnd, game).partition("=")
            if rnd.random() < 0.5 and given.lstrip("-").isdigit():
                lines.append(f"{name} = {given}")  # an integer, as TOML writes one
            else:
                quoted = given.replace("\\", "\\\\").replace('"', '\\"')
                lines.append(f'{name} = "{quoted}"' if name.isascii() else f'"{name}" = 1')
        elif r < 0.9:
            info = rnd.choice(describe(games.get(game).Rules))
            lines.append(f"{info.name} = {toml_value(rnd)}")
        else:
            lines.append(pick(rnd, TEXT, ["=", "a =", "= 1", "a = 1 = 2", "# comment", "[",
                                          "a.b.c = 1", "rounds.x = 1"]))
    text = "\n".join(lines) + rnd.choice(["\n", "", "\r\n"])
    data = text.encode("utf-8", "surrogateescape")
    r = rnd.random()
    if r < 0.08:
        data = ("a = " + "[" * 5000 + "]" * 5000 + "\n").encode()
    elif r < 0.14:
        data = text.encode("utf-16", "surrogatepass")
    elif r < 0.2:
        data = b"\xef\xbb\xbf" + data
    elif r < 0.3 and data:
        data = bytearray(data)
        for _ in range(rnd.randint(1, 4)):
            data[rnd.randrange(len(data))] = rnd.randrange(256)
        data = bytes(data)
    elif r < 0.36 and data:
        data = data[:rnd.randrange(len(data))]
    elif r < 0.4:
        data = b"rounds = 1\n" + b"# " + b"x" * rnd.choice([70_000, 2_000_000]) + b"\n"
    return data


def seat_spec(rnd: random.Random, game: str, bot: bool) -> str:
    """A --bot SEAT=KIND or --player [SEAT=]NAME value."""
    seat = value(rnd, ["1", "2", "3", "p2", "P3", "all", "ｐ２", "２", "2 "],
                 ["0", "-1", "99", "p", "all all"], MORE_NUMBERS, TEXT)
    if bot:
        what = value(rnd, list(bots.kinds(game)), [k for g in GAMES for k in bots.kinds(g)],
                     TEXT, ["", "RANDOM", "random ", "bot:random", "cmd", "py", "human"])
    else:
        what = value(rnd, ["Ann", "Bob", "山田", "ジョー", "ann", "Ａｎｎ", "ﾀﾛｳ"],
                     ["a" * 300, "p2", "all", "bot", "2=x"], TEXT)
    form = rnd.random()
    if form < 0.7:
        return f"{seat}={what}"
    if form < 0.95:
        return what
    return f"{seat}={what}={pick(rnd, TEXT)}"


def cards(rnd: random.Random, game: str) -> list[str]:
    """Cards to solve: the deck's own words mostly."""
    tokens = sorted(set(games.get(game).deck.tokens.values()))
    return [value(rnd, tokens, MORE_NUMBERS, TEXT)
            for _ in range(rnd.choice([0, 1, 3, 4, 4, 4, 5, 40]))]


REPLAYS = Path(__file__).resolve().parent.parent / "replays"
DIGITS = ["0" * 16, "f" * 64, "F" * 64, "0" * 15, "0" * 65, "g" * 16, "00 11", "0x" + "0" * 16,
          "０" * 16, "0" * 100_000]


def log_command(rnd: random.Random, game: str, log: str, tmp: Path) -> list[str]:
    """A command that reads the recorded game ``log`` (a copy): replay, audit, resume, log
    convert or log repair."""
    what = rnd.choice(["replay", "replay", "audit", "resume", "convert", "repair"])
    if what == "replay":
        opts = [log]
        if rnd.random() < 0.5:
            opts += ["--at", value(rnd, ["0", "1", "5", "-1", "999999"], MORE_NUMBERS, TEXT)]
        if rnd.random() < 0.4:
            opts += ["--as", value(rnd, ["p1", "p2", "P3", "ｐ２", "2", "all"], TEXT)]
        if rnd.random() < 0.2:
            opts += ["--html", str(tmp / rnd.choice(["page.html", "no/dir/page.html", ""]))]
        if rnd.random() < 0.3:
            opts += ["--json"]
        return ["replay", *opts]
    if what == "audit":
        opts = [log] + ([log] if rnd.random() < 0.2 else [])
        for option in ("--digest", "--commit"):
            if rnd.random() < 0.4:
                opts += [option, value(rnd, DIGITS, TEXT, MORE_NUMBERS)]
        return ["audit", *opts, *(["--json"] if rnd.random() < 0.3 else [])]
    if what == "resume":
        opts = [log, "--script", "-"]
        for _ in range(rnd.choice([0, 1, 2])):
            opts += ["--bot", seat_spec(rnd, game, True)]
        if rnd.random() < 0.2:
            opts += ["--timeout", value(rnd, ["1"], MORE_NUMBERS, TEXT)]
        return ["resume", *opts, *(["--json"] if rnd.random() < 0.3 else ["--quiet"])]
    out = rnd.choice(["out.kbl", "out.jsonl", log, "no/dir/out.kbl", "", "/dev/full"])
    dst = str(tmp / out) if out and not out.startswith("/") else out
    if what == "convert":
        opts = [log, dst]
        if rnd.random() < 0.4:
            opts += ["--to", value(rnd, ["msgpack", "jsonl"], TEXT)]
        if rnd.random() < 0.3:
            opts += ["--force"]
        return ["log", "convert", *opts]
    return ["log", "repair", log, dst]


def command(rnd: random.Random, game: str, tmp: Path, i: int) -> list[str]:
    """One random command line for ``game``; files it names are made in ``tmp``."""
    what = rnd.choices(["play", "deal", "sim", "solve", "rules", "tournament", "log"],
                       [8, 3, 2, 1, 1, 1, 6])[0]
    if what == "log":
        recorded = rnd.choice(sorted((REPLAYS / game).glob("*.*")))
        copy = tmp / f"{i}-{recorded.name}"
        copy.write_bytes(recorded.read_bytes())
        return log_command(rnd, game, str(copy), tmp)
    args = [what, game if rnd.random() < 0.97 else pick(rnd, TEXT, ["DARE", "uno", ""])]
    opts: list[str] = []

    def maybe(p: float, *option: str) -> None:
        if rnd.random() < p:
            opts.extend(option)

    if what in ("play", "deal", "sim", "tournament"):
        maybe(0.5, "--seed", value(rnd, ["0", "1", "7", "007", str(2**64 - 1), "１２"],
                                   MORE_NUMBERS, TEXT))
    if what in ("play", "deal", "solve"):
        g = games.get(game)
        maybe(0.3, "--players", value(rnd, [str(n) for n in range(g.min_players,
                                                                  g.max_players + 1)],
                                      MORE_NUMBERS, TEXT))
    if what in ("play", "deal", "sim", "solve", "tournament"):
        for _ in range(rnd.choice([0, 0, 1, 2])):
            opts += ["--rule", rule_pair(rnd, game)]
        if rnd.random() < 0.5:
            path = tmp / f"rules-{i}.toml"
            path.write_bytes(rules_file(rnd, game))
            opts += ["--rules-file", str(path)]
    if what == "play":
        for _ in range(rnd.choice([0, 1, 2])):
            opts += ["--player", seat_spec(rnd, game, False)]
        for _ in range(rnd.choice([0, 1, 1, 2])):
            opts += ["--bot", seat_spec(rnd, game, True)]
        opts += ["--bot", "all=random"]  # no seat is left waiting for a person
        maybe(0.2, "--timeout", value(rnd, ["1", "0.5", "10", "86400"], MORE_NUMBERS, TEXT))
        maybe(0.2, "--commit")
        log = rnd.choice([None, None, "x.kbl", "x.jsonl", "no/such/dir/x.kbl", ".", "",
                          "/dev/full", "/dev/null", "\udcff.kbl", "山田.kbl"])
        opts += ["--no-log"] if log is None else ["--log", str(tmp / log) if log else log]
        maybe(0.8, "--quiet")
    if what in ("sim", "tournament"):
        kinds = list(bots.kinds(game))
        for _ in range(rnd.choice([1, 2, 2, 3])):
            opts += ["--bot", value(rnd, kinds, TEXT, ["cmd", "random ", "all=random"])]
        opts += ["--workers", "1"]
        opts += (["--matches", value(rnd, ["1", "2"], ["0", "-1", "３", "1e3"])] if what == "sim"
                 else ["--deals", value(rnd, ["1"], ["0", "x"])])
        maybe(0.3, "--timeout", value(rnd, ["1", "0.5"], MORE_NUMBERS, TEXT))
        if what == "sim":
            maybe(0.3, "--sprt", pick(rnd, ["elo0=0 elo1=5", "elo0=0 elo1=5 alpha=0.05 beta=0.05",
                                            "elo0=5 elo1=0", "elo0=nan elo1=inf", "elo1=5",
                                            "elo0=0 elo1=5 alpha=1", "elo0=0 elo1=5 x=1",
                                            "elo0==0", "elo0=0,elo1=5"], TEXT, MORE_NUMBERS))
    if what == "solve":
        args += cards(rnd, game)
        maybe(0.3, "--top", value(rnd, ["1", "25", "50"], MORE_NUMBERS, TEXT))
    maybe(0.3, "--json")
    return args + opts


def invoke(args: list[str]) -> tuple[BaseException | None, object, str, str]:
    """Run ``kabucli ARGS`` as the installed command runs (its usage errors made one line):
    what escaped it, its exit code, its stdout and its stderr."""
    saved = sys.argv
    sys.argv = ["kabucli", *args]
    escaped: BaseException | None = None
    code: object = 0
    try:
        with runner.isolation(env={"NO_COLOR": "1", "COLUMNS": "100"}) as (out, err, _):
            try:
                cli.main()
            except SystemExit as exc:
                code = exc.code
            except BaseException as exc:  # (what escapes is the finding)
                escaped = exc
            return (escaped, code, out.getvalue().decode("utf-8", "replace"),
                    err.getvalue().decode("utf-8", "replace"))
    finally:
        sys.argv = saved


def run(args: list[str]) -> tuple[str | None, bool]:
    """Run one command line; the reason its ending is not clean (None if it is) and whether
    it was refused."""
    began = time.monotonic()
    escaped, code, out, err = invoke(args)
    took = time.monotonic() - began
    errors = err.strip().splitlines()
    if escaped is not None:
        return f"{type(escaped).__name__}: {escaped}", False
    both = out + err
    if "internal error" in both or "Traceback" in both:
        return next((x for x in both.splitlines() if "internal error" in x or "Traceback" in x),
                    both[:200]), False
    if "\x1b" in both:
        return "an escape sequence reached the output", False
    if took > SLOW:
        return f"took {took:.0f} s", False
    if code in (0, None):
        return None, False
    if code not in (1, 2):
        return f"exit code {code!r}", False
    if args[0] == "audit" and code == 1:  # a line for each log found invalid, or JSON
        if "--json" in args and not errors:
            try:
                json.loads(out)
            except ValueError:
                return "audit --json: not one JSON document", False
            return None, True
        logs = [a for a in args if a.endswith((".kbl", ".jsonl"))]
        if errors and len(errors) <= len(logs) and all(
                e.startswith(("invalid: ", "error: ")) for e in errors):
            return None, True
    if len(errors) != 1:
        return f"exit {code} with {len(errors)} lines on stderr: {errors[:3]}", False
    if not errors[0].startswith("error: "):
        return f"exit {code} with {errors[0][:200]!r}", False
    return None, True


def fuzz(game: str, cases: int, seed: int = SEED) -> Stats:
    rnd = random.Random(f"{seed}/options/{game}")
    stats = Stats()
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(cases):
            args = command(rnd, game, Path(tmp), i)
            logs = {Path(a): Path(a).read_bytes() for a in args
                    if a.startswith(tmp) and Path(a).name.startswith(f"{i}-")}
            why, refused = run(args)
            for path, before in logs.items():  # a resume may add to a log, nothing more
                after = path.read_bytes() if path.exists() else b""
                if not after.startswith(before):
                    why = why or f"the log {path.name} was changed ({len(after)} bytes now)"
            stats.count(" ".join(a if len(a) < 60 else a[:40] + "…" for a in args), why, refused)
    return stats


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_command_lines_end_cleanly(game: str) -> None:
    stats = fuzz(game, CASES)
    print(stats.line(f"{game} options"))
    assert stats.tried == CASES and stats.refused > CASES // 4 and stats.accepted > 0
    assert not stats.crashes, stats.report(300)


def test_the_options_fuzzer_reports_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a run that ends with a traceback, an exit code other than
    0, 1 or 2, or more than one line on stderr is counted."""
    results = iter([(ValueError("boom"), 1, "", ""), (None, 3, "", "error: x\n"),
                    (None, 1, "", "error: a\nerror: b\n"), (None, 1, "", "nothing\n"),
                    (None, 0, "ok\n", ""), (None, 1, "", "error: refused\n")])
    monkeypatch.setattr(sys.modules[__name__], "invoke", lambda _args: next(results))
    stats = fuzz("dare", 6)
    assert (stats.accepted, stats.refused, len(stats.crashes)) == (1, 1, 4)


def test_the_options_fuzzer_reports_a_log_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A command that cuts the recorded game it was given is counted, however cleanly it
    ends; one that adds to it is not."""
    cut: list[str] = []

    def cutting(args: list[str]) -> tuple[None, int, str, str]:
        for a in args:
            if a.endswith((".kbl", ".jsonl")) and Path(a).exists():  # a recorded game's copy
                path = Path(a)
                if len(cut) % 2:
                    path.write_bytes(path.read_bytes() + b"more")
                else:
                    path.write_bytes(path.read_bytes()[:-1])
                cut.append(path.name)
                break
        return None, 0, "", ""

    monkeypatch.setattr(sys.modules[__name__], "invoke", cutting)
    stats = fuzz("dare", 40)
    assert len(cut) > 2
    changed = [why.split(" was changed")[0] for _, why in stats.crashes]
    assert changed == [f"the log {name}" for name in cut[::2]]


def main(argv: list[str]) -> int:
    """Run a larger fuzz and print the report: ``CASES`` command lines per game from
    ``SEED``."""
    cases = int(argv[0]) if argv else 400
    seed = int(argv[1]) if len(argv) > 1 else SEED
    crashed = False
    for game in GAMES:
        stats = fuzz(game, cases, seed)
        print(stats.line(f"{game} options"), flush=True)
        if stats.crashes:
            crashed = True
            print(stats.report(300))
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
