"""Fuzz kabucli's log reading: damaged copies of the recorded games through the real CLI.

    python bench/fuzz_logs.py                  # every mutation kind, 20 s of random ones
    python bench/fuzz_logs.py --seconds 120 --seed 7
    python bench/fuzz_logs.py --json           # the counts as JSON on stdout

Each case is a copy of a log in ``replays/`` with one mutation: cut at a byte, one bit
flipped (in a msgpack payload, also with its checksum made right again, so the damage reaches
the decoder), or one field of one record edited (wrong types, huge or negative integers,
cards outside the deck, control characters, invalid UTF-8, deep nesting, fields missing or
added) and the record encoded again, or whole frames with right checksums that hold the
wrong thing (dropped, repeated, swapped, a block claiming 2**32 - 1 records, a body that
inflates to 64 MiB, a 4 GiB length). It is given to ``audit``, ``replay`` (text, ``--json``,
``--at``, ``--html``, ``--step``, ``--as p2``), ``resume``, ``log convert`` or ``log repair``
through the typer app, as the command line would.
Some cases are a damaged rules file instead (of any game), given to ``deal GAME --rules-file``.

A case is **clean** when the command exits 0 (the log still reads and keeps the rules) or
exits 1 or 2 with exactly one line on stderr; anything else (a traceback, an exception out of
the command, another exit code, several lines, "internal error") is a **crash**. The report
counts cases tried, clean errors (exit 1 and 2), accepted and crashes, with an example of
each kind of crash. ``tests/test_fuzz_logs.py`` runs a bounded part of this in the suite.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import dataclasses
import json
import os
import random
import re
import shutil
import struct
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import msgspec
import typer.main
import typer.testing
from typer.testing import CliRunner

from kabucli.cli import app
from kabucli.log import MAGIC, MAGIC1, _pack, _unpack

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
FRAME = struct.Struct(">II")

# A stand-in for a string that becomes invalid UTF-8 once encoded: two bytes replaced by
# two bytes, so a msgpack string keeps its length.
BAD_UTF8_MARK = "\x01\x02"
BAD_UTF8 = b"\xff\xfe"

DEEP = 20_000  # nesting of the deeply nested values
VALUES: tuple[Any, ...] = (
    -1, 0, 1, 2, 7, 13, 48, 99, 1000, -2**31, 2**31, 2**63 - 1, 2**63, 2**64 - 1, -2**63,
    1.5, float("nan"), True, False, None, "", "x", "pot", "\x00\x1b[31m\r\n", "\u2603" * 3,
    "[bold]x[/]", BAD_UTF8_MARK, [], [0], [-1], [99], [1, 2, 3], [[1, 2, 3]], [[99, 99, 99]],
    [[-5]], [None], {}, {"e": "undo"}, {"x": 1}, list(range(200)), "A" * 5000,
)
JSON_ONLY: tuple[Any, ...] = (2**64, -2**63 - 1, 10**40, -10**40)  # msgpack cannot hold them


# -- the logs and their records ---------------------------------------------------------

@dataclass
class Case:
    """One damaged log: what was done to it, its bytes, its file's suffix, and the group it
    is counted in (the game and format of the log it came from, or a game's rules file)."""

    name: str
    data: bytes
    suffix: str
    group: str = ""


def group(path: Path) -> str:
    """The group a case made from this recorded log is counted in: its game and format
    (a format 1 copy is counted apart)."""
    return f"{path.parent.name} {path.suffix}" + (" v1" if V1 in path.parents else "")


# Format 1 copies of the recorded games (format 1 is still read): made once, in a folder
# of their own, one per game and encoding.
V1 = Path(tempfile.gettempdir()) / f"kabucli-fuzz-v1-{os.getpid()}"
atexit.register(shutil.rmtree, V1, ignore_errors=True)


def v1_copies() -> list[Path]:
    from kabucli.games import event_types
    from kabucli.log import LogWriter, format_for, read_log

    out = []
    for p in sorted(REPLAYS.glob("*/*")):
        if p.suffix not in (".kbl", ".jsonl"):
            continue
        dst = V1 / p.parent.name / p.name
        if not dst.exists():
            dst.parent.mkdir(parents=True, exist_ok=True)
            log = read_log(p, event_types)
            header = msgspec.structs.replace(log.header, format=1, clock=None, commit=None,
                                             salt=None)
            writer = LogWriter.create(dst, header, format_for(dst), durable=False)
            for ev in log.events:
                writer.append(ev)
            writer.close()
        out.append(dst)
    return out


def logs() -> list[Path]:
    """The recorded games (format 2) and their format 1 copies."""
    return sorted(p for p in REPLAYS.glob("*/*") if p.suffix in (".kbl", ".jsonl")) + \
        v1_copies()


def seeds_for_truncation() -> list[Case]:
    """The shortest log of each game in each format, whole. A game's shortest msgpack log
    converted to JSON Lines stands in for its JSON Lines logs when it is shorter."""
    from kabucli.games import event_types
    from kabucli.log import encode_record, read_log

    best: dict[tuple[str, str], Case] = {}

    def offer(case: Case, game: str) -> None:
        key = (game, case.suffix)
        if key not in best or len(case.data) < len(best[key].data):
            best[key] = case

    for p in logs():
        if V1 in p.parents:
            continue
        offer(Case(f"{p.parent.name}/{p.name}", p.read_bytes(), p.suffix, group(p)),
              p.parent.name)
    for (game, suffix), case in list(best.items()):
        if suffix == ".kbl":
            log = read_log(REPLAYS / case.name, event_types)
            data = b"".join(encode_record(r, "jsonl") for r in [log.header, *log.events])
            offer(Case(f"{case.name} as JSON Lines", data, ".jsonl", f"{game} .jsonl"), game)
    return [best[k] for k in sorted(best)]


def kind_of(data: bytes) -> str:
    """A log's encoding: ``v2`` (format 2's binary), ``v1`` (format 1's) or ``jsonl``."""
    return "v2" if data.startswith(MAGIC) else "v1" if data.startswith(MAGIC1) else "jsonl"


def records(data: bytes) -> list[bytes]:
    """The records of a whole log as msgpack (format 2: each frame's body, inflated: the
    header's map, then blocks, each an array of inputs) or its lines (JSON Lines)."""
    kind = kind_of(data)
    if kind == "jsonl":
        return [line for line in data.split(b"\n") if line.strip()]
    out, pos = [], len(MAGIC)
    while pos < len(data):
        size, _ = FRAME.unpack_from(data, pos)
        payload = data[pos + FRAME.size:pos + FRAME.size + size]
        body = _unpack(payload) if kind == "v2" else payload
        assert isinstance(body, bytes)
        out.append(body)
        pos += FRAME.size + size
    return out


def frame(payload: bytes) -> bytes:
    return FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def assemble(recs: list[bytes], kind: str) -> bytes:
    if kind == "v2":
        return MAGIC + b"".join(frame(_pack(r)) for r in recs)
    if kind == "v1":
        return MAGIC1 + b"".join(frame(r) for r in recs)
    return b"".join(r + b"\n" for r in recs)


def encode(obj: Any, msgpack: bool) -> bytes:
    """A record encoded again, with each BAD_UTF8_MARK made invalid UTF-8."""
    raw = (msgspec.msgpack.encode(obj) if msgpack
           else json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode())
    return raw.replace(BAD_UTF8_MARK.encode(), BAD_UTF8)


@dataclass(frozen=True)
class _Raw:
    """A value written as raw text (JSON) or bytes (msgpack) by :func:`encode_raw`."""

    depth: int
    leaf: Any


# -- mutations --------------------------------------------------------------------------

def cut(path: Path, rng: random.Random) -> Case:
    data = path.read_bytes()
    n = rng.randrange(len(data))
    return Case(f"{path.name} cut at {n}", data[:n], path.suffix, group(path))


def truncations(log: Case) -> Iterator[Case]:
    """The log cut after every byte (the whole file excluded)."""
    for n in range(len(log.data)):
        yield Case(f"{log.name} cut at {n}", log.data[:n], log.suffix, log.group)


def bit_flip(path: Path, rng: random.Random) -> Case:
    data = bytearray(path.read_bytes())
    pos, bit = rng.randrange(len(data)), rng.randrange(8)
    data[pos] ^= 1 << bit
    name = f"{path.name} bit {bit} of byte {pos} flipped"
    if kind_of(bytes(data)) != "jsonl" and rng.random() < 0.5:  # checksums made right again
        data = bytearray(_fix_crcs(bytes(data)))
        name += ", checksums fixed"
    return Case(name, bytes(data), path.suffix, group(path))


def _fix_crcs(data: bytes) -> bytes:
    out, pos = bytearray(data[:len(MAGIC)]), len(MAGIC)
    while pos + FRAME.size <= len(data):
        size, _ = FRAME.unpack_from(data, pos)
        payload = data[pos + FRAME.size:pos + FRAME.size + size]
        out += FRAME.pack(size, zlib.crc32(payload)) + payload
        pos += FRAME.size + size
    return bytes(out + data[pos:])


def _paths(obj: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside a decoded record."""
    if at:
        yield at
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*at, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*at, i))


def field_edit(path: Path, rng: random.Random) -> Case:
    """One value of one record replaced, removed or added to, and the record encoded again."""
    data = path.read_bytes()
    kind = kind_of(data)
    msgpack = kind != "jsonl"
    recs = records(data)
    index = 0 if rng.random() < 0.25 else rng.randrange(len(recs))
    obj = msgspec.msgpack.decode(recs[index]) if msgpack else json.loads(recs[index])
    spots = list(_paths(obj))
    where = rng.choice(spots)
    parent = obj
    for key in where[:-1]:
        parent = parent[key]
    last = where[-1]
    pool = VALUES if msgpack else VALUES + JSON_ONLY
    roll = rng.random()
    if roll < 0.1 and isinstance(parent, dict):
        del parent[last]
        what = "removed"
    elif roll < 0.2 and isinstance(parent, dict):
        parent["extra"] = rng.choice(pool)
        what = "extra field"
    elif roll < 0.3:
        parent[last] = _Raw(DEEP, 1)
        what = f"nested {DEEP} deep"
    else:
        value = rng.choice(pool)
        if isinstance(parent[last], int) and not isinstance(parent[last], bool) \
                and rng.random() < 0.5:
            value = parent[last] + rng.choice((-1, 1, 4, 48, -100))  # a near miss
        parent[last] = value
        what = f"= {value!r}"[:40]
    label = "/".join(str(k) for k in where)
    recs[index] = encode_raw(obj, msgpack)
    return Case(f"{path.name} record {index} {label} {what}", assemble(recs, kind),
                path.suffix, group(path))


def encode_raw(obj: Any, msgpack: bool) -> bytes:
    """:func:`encode`, with each :class:`_Raw` written out as nested arrays."""
    marks: list[_Raw] = []

    def swap(x: Any) -> Any:
        if isinstance(x, _Raw):
            marks.append(x)
            return f"\x03RAW{len(marks) - 1}\x03"
        if isinstance(x, dict):
            return {k: swap(v) for k, v in x.items()}
        if isinstance(x, list):
            return [swap(v) for v in x]
        return x

    raw = encode(swap(obj), msgpack)
    for i, r in enumerate(marks):
        token = f"\x03RAW{i}\x03"
        if msgpack:
            mark = msgspec.msgpack.encode(token)
            nested = b"\x91" * r.depth + msgspec.msgpack.encode(r.leaf)
        else:
            mark = json.dumps(token).encode()
            nested = b"[" * r.depth + json.dumps(r.leaf).encode() + b"]" * r.depth
        raw = raw.replace(mark, nested)
    return raw


# A rules file for every game (top-level rules, then a table per game), and what a value in
# it may be replaced with: TOML of other types, huge, nested, not UTF-8, control characters.
RULES_TOML = b"""[dare]
chips = 60
ante = 2
yaku = "arashi"
tie = "split"
rounds = 3
[kazu-tori]
chips = 60
limit = 15
tie = "each"
max_flips = 500
[yatchaba]
chips = 60
amounts = "book"
pass_limit = 1
games = 2
[uno-dare]
dares = "house-rules"
house_dares = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"]
target = 200
[kabu-tsukuri]
ranking = "extended"
bet = 2
hands = 3
"""
TOML_VALUES: tuple[bytes, ...] = (
    b"-1", b"0", b"99999999999999999999999", b"1.5", b"nan", b"true", b'""', b'"x"',
    b'"\\u001b[31m"', b'"a\\nb"', b"'\xff\xfe'", b'"\x1b[2J"', b"[]", b"[1, 2]", b"{}",
    b"{ a = 1 }", b"1979-05-27", b"[" * DEEP + b"]" * DEEP, b"{a=" * DEEP + b"1" + b"}" * DEEP,
    b'"' + b"A" * 5000 + b'"', b"\x00",
)


def rules_file(rng: random.Random) -> Case:
    """The rules file cut, with a bit flipped, a value replaced, or a line added."""
    data = bytearray(RULES_TOML)
    roll = rng.random()
    if roll < 0.2:
        n = rng.randrange(len(data))
        return Case(f"rules file cut at {n}", bytes(data[:n]), ".toml")
    if roll < 0.4:
        pos, bit = rng.randrange(len(data)), rng.randrange(8)
        data[pos] ^= 1 << bit
        return Case(f"rules file bit {bit} of byte {pos} flipped", bytes(data), ".toml")
    lines = bytes(data).split(b"\n")
    i = rng.randrange(len(lines))
    value = rng.choice(TOML_VALUES)
    if roll < 0.9 and b"=" in lines[i]:
        lines[i] = lines[i].split(b"=")[0] + b"= " + value
    else:
        lines.insert(i, rng.choice((b"extra", b"[poker]", b"[dare.x]", b"ante")) + b" = " + value)
    return Case(f"rules file line {i + 1} = {value[:30]!r}", b"\n".join(lines), ".toml")


def header_seed(path: Path, rng: random.Random) -> Case:
    """The header's seed out of range (negative, or 2**64 and more in JSON Lines)."""
    data = path.read_bytes()
    kind = kind_of(data)
    msgpack = kind != "jsonl"
    recs = records(data)
    head = msgspec.msgpack.decode(recs[0]) if msgpack else json.loads(recs[0])
    choices = [-1, -2**63] + ([] if msgpack else [2**64, 10**30])
    head["seed"] = rng.choice(choices)
    recs[0] = encode(head, msgpack)
    return Case(f"{path.name} seed {head['seed']}", assemble(recs, kind), path.suffix,
                group(path))


def _frames(data: bytes) -> list[bytes]:
    """The frames of a whole binary log (format 1 or 2), each with its 8 frame bytes."""
    out, pos = [], len(MAGIC)
    while pos + FRAME.size <= len(data):
        size, _ = FRAME.unpack_from(data, pos)
        out.append(data[pos:pos + FRAME.size + size])
        pos += FRAME.size + size
    return out


def _bomb(n: int) -> bytes:
    """A format 2 payload that inflates to ``n`` zero bytes (a few KiB stored)."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    return bytes((1,)) + deflate.compress(bytes(n)) + deflate.flush()


def frame_craft(path: Path, rng: random.Random) -> Case:
    """Whole frames, each with a right checksum, that hold the wrong thing: one dropped,
    repeated, swapped with another or moved to the end; a block whose array says it holds
    2**32 - 1 records; a body that inflates to 64 MiB of zeros; random bytes; a length of
    4 GiB, in the last frame or in one with whole frames after it. (A binary log only: a
    JSON Lines one gets a bit flip.)"""
    data = path.read_bytes()
    if kind_of(data) == "jsonl":
        return bit_flip(path, rng)
    v2 = kind_of(data) == "v2"
    frames = _frames(data)
    head, blocks = frames[:1], frames[1:]
    what = rng.choice(("drop", "repeat", "swap", "last", "count", "bomb", "random",
                       "long", "long last"))
    i = rng.randrange(len(blocks)) if blocks else 0
    if what == "drop" and blocks:
        del blocks[i]
    elif what == "repeat" and blocks:
        blocks.insert(i, blocks[i])
    elif what == "swap" and len(blocks) > 1:
        j = rng.randrange(len(blocks))
        blocks[i], blocks[j] = blocks[j], blocks[i]
    elif what == "last" and blocks:
        blocks.append(blocks.pop(i))
    elif what == "count":
        body = b"\xdd\xff\xff\xff\xff" + b"\x91\x02" * rng.randrange(4)
        blocks.insert(i, frame(_pack(body) if v2 else body))
    elif what == "bomb":
        blocks.insert(i, frame(_bomb(64 * 1024 * 1024) if v2 else bytes(4096)))
    elif what == "random":
        blocks.insert(i, frame(rng.randbytes(rng.randrange(1, 64))))
    elif what in ("long", "long last"):
        at = i if what == "long" else len(blocks)
        blocks.insert(at, FRAME.pack(0xFFFFFFF0, 0) + rng.randbytes(rng.randrange(0, 40)))
    return Case(f"{path.name} frame {i} {what}", data[:len(MAGIC)] + b"".join(head + blocks),
                path.suffix, group(path))


MUTATIONS: dict[str, Callable[[Path, random.Random], Case]] = {
    "cut": cut, "bit flip": bit_flip, "field edit": field_edit, "header seed": header_seed,
    "frame craft": frame_craft,
}
WEIGHTS = {"cut": 2, "bit flip": 4, "field edit": 8, "header seed": 1, "rules file": 3,
           "frame craft": 3}

# What each case is given to: the command line after the log's path is put in.
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("audit", "{log}"), ("audit", "--json", "{log}"), ("replay", "{log}"),
    ("replay", "--json", "{log}"), ("replay", "--at", "5", "{log}"),
    ("replay", "--html", "{out}", "{log}"), ("replay", "--html", "{out}", "--as", "p2", "{log}"),
    ("replay", "--step", "{log}"), ("replay", "--as", "p2", "--json", "{log}"),
    ("log", "convert", "{log}", "{out}", "--force"),
    ("resume", "{log}", "--script", "{empty}", "--quiet"),
    ("log", "repair", "{log}", "{out}", "--force"),
)


# -- running ----------------------------------------------------------------------------

@dataclass
class Tally:
    tried: int = 0
    accepted: int = 0  # exit 0
    errors: Counter[int] = field(default_factory=Counter)  # clean errors by exit code
    crashes: int = 0
    kinds: dict[str, str] = field(default_factory=dict)  # crash kind -> one example
    # group (game and format) -> tried, accepted, clean_errors, crashes
    groups: dict[str, Counter[str]] = field(default_factory=dict)

    @property
    def clean(self) -> int:
        return sum(self.errors.values())

    def as_dict(self) -> dict[str, Any]:
        return {"tried": self.tried, "accepted": self.accepted, "clean_errors": self.clean,
                "exit_1": self.errors[1], "exit_2": self.errors[2], "crashes": self.crashes,
                "crash_kinds": self.kinds,
                "by_group": {g: dict(c) for g, c in sorted(self.groups.items())}}


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    """A folder for the cases, in memory where the system has one (/dev/shm): every case is
    a file, and creating thousands of small files on a disk can take a millisecond each."""
    shm = Path("/dev/shm")
    where = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="kabucli-fuzz-", dir=where) as tmp:
        yield Path(tmp)


class Runner:
    """Runs cases through the typer app, the command built once (typer builds it anew on
    every call, which costs more than reading a small log)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.cli = CliRunner()
        self.command = typer.main.get_command(app)
        (folder / "empty.txt").write_text("")
        self.tally = Tally()

    def invoke(self, argv: list[str]) -> Any:
        with mock.patch.object(typer.testing, "_get_command", lambda _app: self.command):
            return self.cli.invoke(app, argv, env=ENV)

    def run(self, case: Case, args: tuple[str, ...]) -> str | None:
        """Run one case; None when it is clean, else what went wrong."""
        # New names for every case: cutting an existing file short is slow on some disks.
        log = self.folder / f"case{self.tally.tried}{case.suffix}"
        out = self.folder / f"out{self.tally.tried}.jsonl"
        log.write_bytes(case.data)
        res = self.invoke([a.format(log=log, out=out, empty=self.folder / "empty.txt")
                           for a in args])
        log.unlink()
        out.unlink(missing_ok=True)
        problem = verdict(res, args)
        self.count(case.group, res.exit_code if problem is None else None)
        if problem is None:
            return None
        kind = problem.split("\n", 1)[0][:120]
        self.tally.kinds.setdefault(kind, f"{case.name} | {' '.join(args)}\n{problem}")
        return f"{case.name} | {' '.join(args)}: {problem}"

    def count(self, group: str, code: int | None) -> None:
        """Count a case of ``group`` by its exit code (None: a crash)."""
        t = self.tally
        t.tried += 1
        counts = t.groups.setdefault(group, Counter(tried=0, accepted=0, clean_errors=0,
                                                     crashes=0))
        counts["tried"] += 1
        if code is None:
            t.crashes += 1
            counts["crashes"] += 1
        elif code == 0:
            t.accepted += 1
            counts["accepted"] += 1
        else:
            t.errors[code] += 1
            counts["clean_errors"] += 1

    def audit_all(self, cases: list[Case], as_json: bool = False) -> list[str]:
        """Audit many cases with one ``audit`` call (so a case costs little more than reading
        it). Each log gets exactly one line, ``valid:`` on stdout or ``invalid:`` or
        ``unreadable:`` on stderr (``--json``: one entry of the report, its error one line,
        and nothing on stderr), and the exit code is the worst. When that is not so, each
        case is run alone to find the ones at fault; returns their crashes."""
        paths = [self.folder / f"batch{i}{c.suffix}" for i, c in enumerate(cases)]
        for path, case in zip(paths, cases, strict=True):
            path.write_bytes(case.data)
        res = self.invoke(["audit", *(["--json"] if as_json else []), *map(str, paths)])
        for path in paths:
            path.unlink()
        names = [str(p) for p in paths]
        codes = _audit_report(res, names) if as_json else _audit_lines(res, names)
        if codes is None or max(codes, default=0) != res.exit_code:
            args = ("audit", "--json", "{log}") if as_json else ("audit", "{log}")
            return [p for case in cases if (p := self.run(case, args))]
        for case, code in zip(cases, codes, strict=True):
            self.count(case.group, code)
        return []


STATUS_CODES = {"valid": 0, "invalid": 1, "unreadable": 2}
_AUDIT_LINE = re.compile(r"(valid|invalid|unreadable): (\S+?)(?:: | \()")


def _audit_lines(res: Any, paths: list[str]) -> list[int] | None:
    """The exit code each log of a clean ``audit`` run earned, or None when the run is not
    clean (an exception, or a log without exactly one line on the right stream)."""
    if raised(res):
        return None
    found: dict[str, list[int]] = {p: [] for p in paths}
    for stream, want in ((res.stdout, ("valid",)), (res.stderr, ("invalid", "unreadable"))):
        for line in stream.splitlines():
            m = _AUDIT_LINE.match(line)
            if m is None or m[1] not in want or m[2] not in found:
                return None
            found[m[2]].append(STATUS_CODES[m[1]])
    if any(len(v) != 1 for v in found.values()):
        return None
    return [v[0] for v in found.values()]


def _audit_report(res: Any, paths: list[str]) -> list[int] | None:
    """:func:`_audit_lines` for ``audit --json``."""
    if raised(res) or res.stderr:
        return None
    report = json.loads(res.stdout)
    if [r["log"] for r in report] != paths:
        return None
    for r in report:
        text = r.get("error", "") + r.get("reason", "")
        if r["status"] not in STATUS_CODES or any(c in text for c in "\n\r"):
            return None
    return [STATUS_CODES[r["status"]] for r in report]


def raised(res: Any) -> bool:
    """Whether an exception came out of the command (the test runner catches it)."""
    return res.exception is not None and not isinstance(res.exception, SystemExit)


def verdict(res: Any, args: tuple[str, ...]) -> str | None:
    """None for a clean outcome of the command ``args``, else why it is not."""
    exc = res.exception
    if raised(res):
        import traceback

        where = traceback.extract_tb(exc.__traceback__)[-1]
        tb = "".join(traceback.format_exception(exc)).strip().splitlines()
        return (f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}\n"
                + "\n".join(tb[-6:]))
    err = res.stderr
    for bad in ("Traceback", "internal error"):
        if bad in err or bad in res.stdout:
            return f"{bad!r} in the output\n{err[:300]}"
    if res.exit_code not in (0, 1, 2):
        return f"exit {res.exit_code}\n{err[:300]}"
    lines = err.strip().splitlines()
    if args[:2] == ("audit", "--json"):  # the error is in the report, stderr stays empty
        report = json.loads(res.stdout)
        want = STATUS_CODES[report[0]["status"]]
        if lines or want != res.exit_code:
            return f"audit --json: exit {res.exit_code} for {report[0]}\n{err[:300]}"
    elif res.exit_code and len(lines) != 1:
        return f"exit {res.exit_code} with {len(lines)} lines on stderr\n{err[:300]!r}"
    return None


def random_cases(seed: int) -> Iterator[tuple[Case, tuple[str, ...]]]:
    """Endless random mutations of the recorded logs and of a rules file, each with the
    command to run it."""
    rng = random.Random(seed)
    by_group: dict[str, list[Path]] = {}
    for p in logs():  # each game and format as likely, though most recorded logs are msgpack
        by_group.setdefault(group(p), []).append(p)
    groups = sorted(by_group)
    kinds = list(WEIGHTS)
    weights = [WEIGHTS[k] for k in kinds]
    while True:
        kind = rng.choices(kinds, weights)[0]
        if kind == "rules file":
            game = rng.choice(("dare", "kazu-tori", "yatchaba", "uno-dare", "kabu-tsukuri"))
            case = dataclasses.replace(rules_file(rng), group=f"{game} rules file")
            yield case, ("deal", game, "--seed", "1", "--rules-file", "{log}")
        else:
            path = rng.choice(by_group[rng.choice(groups)])
            yield MUTATIONS[kind](path, rng), rng.choice(COMMANDS)


def fuzz(runner: Runner, seed: int, seconds: float | None = None, count: int | None = None,
         truncate: bool = True, as_json: bool = False) -> list[str]:
    """Every truncation of the shortest log of each game and format (``audit``, or
    ``audit --json``), then random mutations for ``seconds`` or ``count`` cases; returns
    the crashes."""
    crashes = []
    if truncate:
        for log in seeds_for_truncation():
            crashes += runner.audit_all(list(truncations(log)), as_json)
    end = time.monotonic() + seconds if seconds is not None else None
    for n, (case, args) in enumerate(random_cases(seed)):
        if (count is not None and n >= count) or (end is not None and time.monotonic() > end):
            break
        problem = runner.run(case, args)
        if problem:
            crashes.append(problem)
    return crashes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0,
                    help="how long to run random mutations (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the mutations (default 1)")
    ap.add_argument("--no-truncation", action="store_true",
                    help="skip the cut-at-every-byte cases")
    ap.add_argument("--json", action="store_true", help="the counts as JSON")
    args = ap.parse_args()
    with scratch() as folder:
        runner = Runner(folder)
        start = time.monotonic()
        fuzz(runner, args.seed, seconds=args.seconds, truncate=not args.no_truncation)
        took = time.monotonic() - start
    t = runner.tally
    if args.json:
        print(json.dumps({**t.as_dict(), "seconds": round(took, 1), "seed": args.seed},
                         indent=2))
    else:
        print(f"{t.tried} cases in {took:.1f} s: {t.clean} clean errors (exit 1: {t.errors[1]}, "
              f"exit 2: {t.errors[2]}), {t.accepted} accepted, {t.crashes} crashes")
        for name, c in sorted(t.groups.items()):
            print(f"  {name:<22} {c['tried']:>6} tried, {c['clean_errors']:>6} clean errors, "
                  f"{c['accepted']:>5} accepted, {c['crashes']} crashes")
        for kind, example in t.kinds.items():
            print(f"\ncrash: {kind}\n  {example}")
    return 1 if t.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
