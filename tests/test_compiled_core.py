"""The compiled core (setup.py: the engine, shuffle, rules and bots built by mypyc) and the
pure-Python modules it is built from are one program: the same seeded matches write the same
log bytes under both, and every one of those logs audits clean."""

from __future__ import annotations

import importlib
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kabucli

ROOT = Path(__file__).resolve().parent.parent
SAME_LOGS = ROOT / "bench" / "same_logs.py"
CORE: list[str] = runpy.run_path(str(ROOT / "setup.py"), run_name="setup")["CORE"]


def pure_copy(dest: Path) -> Path:
    """The package's Python sources alone (no compiled module) under ``dest``."""
    shutil.copytree(Path(kabucli.__file__).parent, dest / "kabucli",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    return dest


# Runs a script with ``sys.argv[1]`` (a folder of sources, or "") first on the import path.
# An editable install's import hook would find this checkout's compiled modules before any
# path entry, so for a folder of sources it is taken off.
BOOT = """
import runpy, sys
first = sys.argv.pop(1)
if first:
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path.insert(0, first)
if sys.argv[1] == "-c":
    exec(sys.argv[2])
else:
    sys.argv.pop(0)
    runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run_with(first: Path | None, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run([sys.executable, "-c", BOOT, str(first or ""), *args], env=env,
                         capture_output=True, text=True, check=False, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    return res.stdout


def same_logs(out: Path, first: Path | None, seeds: int) -> list[str]:
    run_with(first, str(SAME_LOGS), str(out), "--seeds", str(seeds))
    return out.read_text().splitlines()


def compiled_in(first: Path | None) -> bool:
    return run_with(first, "-c", "import kabucli; print(kabucli.compiled())").strip() == "True"


def test_core_list_names_real_modules() -> None:
    assert len(CORE) >= 10
    for path in CORE:
        assert (ROOT / path).is_file(), path


def test_the_core_holds_every_registered_games_rules_and_bots() -> None:
    from kabucli import games

    for name in games.names():
        package = f"kabucli/games/{name.replace('-', '_')}"
        assert {f"{package}/rules.py", f"{package}/bots.py"} <= set(CORE), name


@pytest.mark.skipif(not kabucli.compiled(), reason="this installation runs pure Python")
def test_compiled_and_pure_python_write_the_same_logs(tmp_path: Path) -> None:
    pure = pure_copy(tmp_path / "pure")
    assert compiled_in(pure) is False
    assert compiled_in(None) is True
    compiled_lines = same_logs(tmp_path / "compiled.txt", None, 40)
    pure_lines = same_logs(tmp_path / "pure.txt", pure, 40)
    from kabucli import games

    # 40 matches of each game, each audited clean
    assert len(compiled_lines) == len(games.names()) * 40
    assert compiled_lines == pure_lines


def under_both_builds(tmp_path: Path, script: str) -> tuple[list[str], list[str]]:
    """The lines ``script`` writes (argv: a work folder, its output file, replays/) run by the
    compiled build and by a pure copy of its sources, in the same work folder (its name is
    in the refusals they print)."""
    pure = pure_copy(tmp_path / "pure")
    work = tmp_path / "work"
    work.mkdir()
    for first, out in ((None, "compiled.txt"), (pure, "pure.txt")):
        run_with(first, "-c", script, str(work), str(tmp_path / out), str(ROOT / "replays"))
    return ((tmp_path / "compiled.txt").read_text().splitlines(),
            (tmp_path / "pure.txt").read_text().splitlines())


# What a reader made of a log, as one line: ``shown(result)``, or the refusal's words.
SAID = """
from kabucli.errors import KabuError

def said(shown, read, *args, **kwargs):
    try:
        return shown(read(*args, **kwargs))
    except KabuError as exc:
        return "LogError " + str(exc)
"""


# Reads every recorded game whole and damaged (cut at six places, a byte changed at five),
# as audit and replay read them, and prints one line a case: what the reader made of it.
READ_ALL = SAID + """
import sys
from pathlib import Path
from kabucli import games, log

work, out, replays = (Path(a) for a in sys.argv[3:6])
lines = []
for src in sorted(replays.glob("*/*")):
    data = src.read_bytes()
    cases = [("whole", data)]
    cases += [(f"cut {k}/7", data[:len(data) * k // 7]) for k in range(1, 7)]
    cases += [(f"byte {k}/5", data[:i] + bytes((data[i] ^ 0x55,)) + data[i + 1:])
              for k in range(5) for i in [min(len(data) - 1, 8 + len(data) * k // 5)]]
    for what, blob in cases:
        p = work / ("case" + src.suffix)
        p.write_bytes(blob)
        audited = said(lambda a: f"{a.events} {a.violation} {a.digest} {a.undone}",
                       log.audit_log, p, games.event_types)
        read = said(lambda r: f"{len(r.events)} {r.good_bytes} {r.torn} {r.error} {r.digest}",
                    log.read_log, p, games.event_types, strict=False)
        lines.append(f"{src.parent.name}/{src.name} {what} | {audited} | {read}")
out.write_text("\\n".join(lines))
"""


@pytest.mark.skipif(not kabucli.compiled(), reason="this installation runs pure Python")
def test_compiled_and_pure_python_read_logs_whole_and_damaged_the_same(tmp_path: Path) -> None:
    """log.py, the reader of logs anyone may send, is compiled too: both builds must make
    the same of every recorded game and of each of them damaged (the events, the violation,
    the digest, or the same refusal word for word)."""
    compiled, pure_lines = under_both_builds(tmp_path, READ_ALL)
    assert len(compiled) == 12 * len(list((ROOT / "replays").glob("*/*")))
    assert sum(" | LogError " in line for line in compiled) > 100  # damage was refused
    assert sum(" whole | " in line and " None " in line for line in compiled) > 40  # valid
    assert compiled == pure_lines


# Reads headers whose house rule ``zz`` nests DEPTH lists deep, DEPTH from 850 to 1000 (where
# msgspec's recursion limit falls, by the caller's stack), in JSON Lines (as kabucli writes a
# line, and spaced: read a second time by json) and in format 2's binary encoding.
READ_NESTED = SAID + """
import json, sys
from pathlib import Path
import msgspec
from kabucli import games, log

work, out, replays = (Path(a) for a in sys.argv[3:6])
lines = []
for name in ("dare/3p-tie-order.jsonl", "dare/3p-showdown-outright.kbl"):
    src = replays / name
    head = msgspec.to_builtins(log.read_header(src, games.event_types))
    head["rules"]["zz"] = "@@"
    rest = src.read_bytes()
    rest = (rest[rest.index(b"\\n") + 1:] if src.suffix == ".jsonl"
            else rest[16 + int.from_bytes(rest[8:12], "big"):])
    for depth in range(850, 1001):
        for spaced in (False, True) if src.suffix == ".jsonl" else (False,):
            if src.suffix == ".jsonl":
                line = json.dumps(head, separators=(", ", ": ") if spaced else (",", ":"))
                blob = line.replace('"@@"', "[" * depth + "1" + "]" * depth).encode()
                blob += b"\\n" + rest
            else:
                raw = msgspec.msgpack.encode(head).replace(msgspec.msgpack.encode("@@"),
                                                           b"\\x91" * depth + b"\\x01")
                blob = log.MAGIC + log.frame(log._pack(raw)) + rest
            p = work / ("case" + src.suffix)
            p.write_bytes(blob)
            for reader in ("read_header", "audit_log"):
                what = said(lambda _: "read", getattr(log, reader), p, games.event_types)
                lines.append(f"{name} {depth} {spaced} {reader} | {what}")
out.write_text("\\n".join(lines))
"""


@pytest.mark.skipif(not kabucli.compiled(), reason="this installation runs pure Python")
def test_compiled_and_pure_python_refuse_the_same_deeply_nested_headers(tmp_path: Path) -> None:
    """A house rule's value (any type) nested about 985 deep was read by the compiled log.py
    and refused as nested too deeply by the pure-Python one (msgspec stops at Python's
    recursion limit, counted from the caller's stack, and compiled calls add no frames)."""
    compiled, pure_lines = under_both_builds(tmp_path, READ_NESTED)
    assert len(compiled) == 151 * 3 * 2
    assert compiled == pure_lines
    assert all(line.endswith("header: invalid record: values nested too deeply")
               for line in compiled)


@pytest.mark.skipif(not kabucli.compiled(), reason="this installation runs pure Python")
def test_every_core_module_is_compiled_and_no_older_than_its_source() -> None:
    """A stale compiled module would shadow an edited .py file: rebuild with
    ``pip install -e .`` (or ``KABUCLI_PURE=1 pip install -e .`` for pure Python)."""
    for path in CORE:
        name = path.removesuffix(".py").replace("/", ".")
        mod = importlib.import_module(name)
        built = Path(mod.__file__ or "")
        assert built.suffix in (".so", ".pyd"), f"{name} is not compiled: {built}"
        if Path(kabucli.__file__).parent.parent == ROOT:  # an editable install of this tree
            assert built.stat().st_mtime >= (ROOT / path).stat().st_mtime, (
                f"{built.name} is older than {path}: rebuild with pip install -e .")


def test_no_module_outside_the_core_is_compiled() -> None:
    """A compiled module left from a build whose core was larger would shadow its source."""
    pkg = Path(kabucli.__file__).parent
    core = {path.removesuffix(".py") for path in CORE}
    for f in pkg.rglob("*"):
        if f.suffix in (".so", ".pyd"):
            name = f.relative_to(pkg.parent).as_posix().split(".")[0]
            assert name in core, f"{f} is compiled but not in setup.py's CORE: delete it"


@pytest.mark.skipif(os.environ.get("CI", "") != "true", reason="checked in CI only")
def test_ci_runs_the_compiled_core() -> None:
    """CI's machine has a C compiler, so the Quick start's install must build the core there;
    a silent fall-back to pure Python would hide a broken build."""
    assert kabucli.compiled()
