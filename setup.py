"""Build kabucli: the pure-Python package, with its hot path compiled by mypyc when it can be.

Everything about the project is in pyproject.toml; this file only adds the compiled core.
The modules in ``CORE`` (the engine, the shuffle and every game package's ``rules.py`` and
``bots.py``: what every event of a bot game runs through; and the log's reader and writer)
are compiled to C extension
modules by mypyc, from the same typed source, when the build has a C compiler. A compiled
module sits beside its ``.py`` file and Python imports it first; both behave the same (the
tests compare the logs they write).

- No C compiler, or a compile error: the extensions are optional, so the build warns and the
  package installs as pure Python, whose bot play is about 2.5 times slower.
- ``KABUCLI_PURE=1`` skips the compiled core on purpose (and an editable install takes out of
  the source tree the modules an earlier one compiled there).

``kabucli --version`` and ``kabucli.compiled()`` say which one an installation runs.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
CORE = [
    "kabucli/cards.py",
    "kabucli/shuffle.py",
    "kabucli/ledger.py",
    "kabucli/notation.py",
    "kabucli/engine.py",
    "kabucli/session.py",
    # the log's reader and writer: what reading a log costs beyond the engine's walk (an audit
    # of a short match, file and header, takes about half as long compiled)
    "kabucli/log.py",
    # every game's rules and bots (kabucli/games/<name>/), found here rather than listed, and a
    # game's solver when it has one (Kabu-Tsukuri's: what its best bot runs every hand)
    *sorted(str(p.relative_to(HERE)) for part in ("rules", "bots", "solver")
            for p in HERE.glob(f"kabucli/games/*/{part}.py")),
]


def remove_inplace_core() -> None:
    """An editable install compiles into the source tree, where a compiled module would go on
    shadowing its .py file: a pure build takes those out."""
    stale = [f for path in CORE for f in (HERE / path).parent.glob(Path(path).stem + ".*")
             if f.suffix in (".so", ".pyd")]
    stale += [f for f in HERE.glob("*__mypyc.*") if f.suffix in (".so", ".pyd")]
    for f in stale:
        print(f"kabucli: removing the compiled {f.relative_to(HERE)}", file=sys.stderr)
        f.unlink()


def core_extensions() -> list:
    if os.environ.get("KABUCLI_PURE", "") not in ("", "0"):
        print("kabucli: KABUCLI_PURE is set, building pure Python", file=sys.stderr)
        if "editable_wheel" in sys.argv:  # only an editable install uses the tree's modules
            remove_inplace_core()
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("kabucli: mypyc is not available, building pure Python", file=sys.stderr)
        return []
    try:
        # multi_file: one C file per module (not one C file for all of them), for build_core
        # to compile side by side; still one shared library, so calls between modules stay
        # direct C calls.
        extensions = mypycify(CORE, opt_level="3", debug_level="0", multi_file=True)
    except (Exception, SystemExit) as exc:  # mypyc stops with SystemExit on a type error
        print(f"kabucli: mypyc could not translate the core ({exc!r}), building pure Python",
              file=sys.stderr)
        if "editable_wheel" in sys.argv:  # else an earlier build's modules shadow the sources
            remove_inplace_core()
        return []
    for ext in extensions:
        ext.optional = True  # no compiler, or a failed compile: install the pure-Python modules
    return extensions


def metadata_only(argv: list[str]) -> bool:
    """pip runs this file three times: for the build requirements (``egg_info``), for the
    metadata (``dist_info``) and to build the wheel; only the last needs the compiled core."""
    commands = [arg for arg in argv[1:] if not arg.startswith("-")]
    return bool(commands) and commands[0] in ("egg_info", "dist_info")


def compile_side_by_side(compile: Callable[..., list[str]], jobs: int) -> Callable[..., list[str]]:
    """A compiler's ``compile``, which compiles its C files one after another, compiling them
    ``jobs`` at a time instead, the largest first so that no long one starts last."""
    def run(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
        if jobs < 2 or len(sources) < 2:
            return compile(sources, *args, **kwargs)
        largest_first = sorted(sources, key=lambda s: Path(s).stat().st_size, reverse=True)
        with ThreadPoolExecutor(jobs) as pool:
            built = dict(zip(largest_first, pool.map(
                lambda source: compile([source], *args, **kwargs), largest_first), strict=True))
        return [obj for source in sources for obj in built[source]]
    return run


class build_core(build_ext):
    """build_ext compiling the C files of an extension side by side, one per CPU."""

    def jobs(self) -> int:
        """The CPUs this build may use."""
        if hasattr(os, "sched_getaffinity"):
            return len(os.sched_getaffinity(0))
        return os.cpu_count() or 1

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix":  # gcc or clang: one process per C file
            self.compiler.compile = compile_side_by_side(self.compiler.compile, self.jobs())
        super().build_extensions()


if __name__ == "__main__":  # as pip (setuptools.build_meta) runs it; tests import it
    setup(ext_modules=[] if metadata_only(sys.argv) else core_extensions(),
          cmdclass={"build_ext": build_core})
