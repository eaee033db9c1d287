"""setup.py's build of the compiled core: one C file per module, compiled side by side on
every CPU, and no mypyc run for the metadata pip asks for first."""

from __future__ import annotations

import importlib.util
import shutil
import sysconfig
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_setup() -> ModuleType:
    """setup.py as a module (it calls setup() only when run as a script)."""
    spec = importlib.util.spec_from_file_location("kabucli_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SETUP = load_setup()


class Overlap:
    """Counts the calls running at once (each lasts at least ``hold`` seconds)."""

    def __init__(self, hold: float) -> None:
        self.hold = hold
        self.lock = threading.Lock()
        self.now = self.most = 0

    def __enter__(self) -> None:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(self.hold)

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.now -= 1


def test_compile_side_by_side_runs_jobs_at_a_time_largest_first(tmp_path: Path) -> None:
    sizes = {"a.c": 10, "b.c": 400, "c.c": 30, "d.c": 200, "e.c": 20}
    for name, size in sizes.items():
        (tmp_path / name).write_text("x" * size)
    sources = [str(tmp_path / name) for name in sizes]
    started: list[str] = []
    overlap = Overlap(0.2)

    def compile(files: list[str], output_dir: str | None = None) -> list[str]:
        started.append(Path(files[0]).name)
        with overlap:
            return [f"{output_dir}/{Path(f).stem}.o" for f in files]

    objects = SETUP.compile_side_by_side(compile, 2)(sources, output_dir="out")
    assert objects == ["out/a.o", "out/b.o", "out/c.o", "out/d.o", "out/e.o"]
    assert overlap.most == 2
    assert started[:2] == ["b.c", "d.c"] and sorted(started) == sorted(sizes)

    calls: list[list[str]] = []
    one_by_one = SETUP.compile_side_by_side(lambda files: calls.append(files) or files, 1)
    assert one_by_one(sources) == sources and calls == [sources]


@pytest.mark.skipif(shutil.which(str(sysconfig.get_config_var("CC") or "cc").split()[0])
                    is None, reason="no C compiler")
def test_build_core_compiles_an_extensions_c_files_side_by_side(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real build (the platform's compiler, setuptools' build_ext) of a three-file extension:
    its three compiler processes run at once, and the module works."""
    for name, value in (("one", 1), ("two", 2)):
        (tmp_path / f"{name}.c").write_text(f"int {name}(void) {{ return {value}; }}\n")
    (tmp_path / "probe.c").write_text("""
#include <Python.h>
int one(void);
int two(void);
static PyObject *three(PyObject *self, PyObject *args) { return PyLong_FromLong(one() + two()); }
static PyMethodDef methods[] = {{"three", three, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "kabucli_probe", NULL, -1, methods};
PyMODINIT_FUNC PyInit_kabucli_probe(void) { return PyModule_Create(&mod); }
""")
    overlap = Overlap(0.5)

    class Probe(SETUP.build_core):
        def jobs(self) -> int:
            return 3

        def build_extensions(self) -> None:
            spawn = self.compiler.spawn

            def timed_spawn(cmd: list[str], **kwargs: Any) -> None:
                if "-c" not in cmd:  # the link
                    return spawn(cmd, **kwargs)
                with overlap:
                    return spawn(cmd, **kwargs)

            self.compiler.spawn = timed_spawn
            super().build_extensions()

    from setuptools import Extension, setup

    monkeypatch.chdir(tmp_path)
    setup(name="kabucli-probe", script_name="setup.py",
          script_args=["-q", "build_ext", "--inplace", "--build-temp", "tmp"],
          ext_modules=[Extension("kabucli_probe", ["probe.c", "one.c", "two.c"])],
          cmdclass={"build_ext": Probe})
    assert overlap.most == 3
    monkeypatch.syspath_prepend(str(tmp_path))
    assert importlib.import_module("kabucli_probe").three() == 3


def test_only_building_runs_mypyc() -> None:
    assert SETUP.metadata_only(["setup.py", "egg_info"])
    assert SETUP.metadata_only(["setup.py", "-q", "dist_info", "--output-dir", "/tmp/m"])
    assert not SETUP.metadata_only(["setup.py", "bdist_wheel", "--dist-dir", "/tmp/w"])
    assert not SETUP.metadata_only(["setup.py", "editable_wheel", "--dist-dir", "/tmp/w"])
    assert not SETUP.metadata_only(["setup.py", "build_ext", "--inplace"])


@pytest.mark.skipif(importlib.util.find_spec("mypyc") is None, reason="no mypyc")
def test_the_core_is_one_library_of_one_c_file_per_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What build_core compiles side by side: mypyc's C for the core, one file per module
    (one file for all of them took half of the install's time), in one shared library."""
    shutil.copytree(ROOT / "kabucli", tmp_path / "kabucli",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KABUCLI_PURE", raising=False)
    extensions = SETUP.core_extensions()
    (library,) = [ext for ext in extensions if ext.name.endswith("__mypyc")]
    modules = {Path(src).name for src in library.sources if "__native_kabucli" in src}
    assert modules == {"__native_" + path.removesuffix(".py").replace("/", "___") + ".c"
                       for path in SETUP.CORE}
    assert len(extensions) == 1 + len(SETUP.CORE)  # the library and a stub per module
    assert all(ext.optional for ext in extensions)
