"""Build kabucli: the pure-Python package, with its hot path compiled by mypyc when it can be.

Everything about the project is in pyproject.toml; this file only adds the compiled core.
The modules in ``CORE`` (the engine, the shuffle and every game package's ``rules.py`` and
``bots.py``: what every event of a bot game runs through) are compiled to C extension
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
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
CORE = [
    "kabucli/cards.py",
    "kabucli/shuffle.py",
    "kabucli/ledger.py",
    "kabucli/notation.py",
    "kabucli/engine.py",
    "kabucli/session.py",
    # every game's rules and bots (kabucli/games/<name>/), found here rather than listed
    *sorted(str(p.relative_to(HERE)) for part in ("rules", "bots")
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
        extensions = mypycify(CORE, opt_level="3", debug_level="0")
    except (Exception, SystemExit) as exc:  # mypyc stops with SystemExit on a type error
        print(f"kabucli: mypyc could not translate the core ({exc!r}), building pure Python",
              file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True  # no compiler, or a failed compile: install the pure-Python modules
    return extensions


if __name__ == "__main__":  # as pip's build runs it; the tests import CORE from here
    setup(ext_modules=core_extensions())
