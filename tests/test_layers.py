"""The modules below the games depend on nothing above them: no import circle through
``kabucli.games`` (engine -> log -> games -> engine), written at the top of a module or hidden
inside a function. What a lower module needs of the games (their event types, their names) is
passed in by its caller.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "kabucli"

# The layer every game builds on, and what sits above the games (which use them).
LOWER = ["cards", "compact", "engine", "errors", "events", "figures", "files", "hands", "ledger",
         "log", "logdata", "notation", "registry", "rules", "safetext", "shuffle"]
ABOVE = {"games", "bots", "render", "session", "sim", "sim_ray", "cli", "entry", "prompt",
         "completion", "ratings", "botcheck", "tournament", "plot", "pager"}


def kabucli_imports(path: Path) -> set[str]:
    """The kabucli modules ``path`` imports anywhere in it (``__init__`` for the package)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            parts = node.module.split(".")
            if parts[0] == "kabucli":
                if len(parts) == 1:  # from kabucli import X
                    found |= {a.name if (PKG / f"{a.name}.py").exists()
                              or (PKG / a.name).is_dir() else "__init__" for a in node.names}
                else:
                    found.add(parts[1])
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[1] for a in node.names
                      if a.name.startswith("kabucli.")}
    return found


def test_every_module_is_placed_in_a_layer() -> None:
    modules = {p.stem for p in PKG.glob("*.py")} | {p.name for p in PKG.iterdir() if p.is_dir()
                                                   and (p / "__init__.py").exists()}
    assert modules - {"__init__", "__main__"} == set(LOWER) | ABOVE


@pytest.mark.parametrize("module", LOWER)
def test_a_lower_module_imports_nothing_above_it(module: str) -> None:
    above = kabucli_imports(PKG / f"{module}.py") & ABOVE
    assert not above, f"kabucli/{module}.py imports {sorted(above)} from above it"


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from kabucli.games import names\n    import kabucli.cli\n")
    assert kabucli_imports(src) == {"games", "cli"}
