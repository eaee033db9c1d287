"""A JSON document that a command prints as it goes (audit --json's array, replay --json's
steps) stays one JSON document when a Ctrl-C (SIGINT) or SIGTERM stops the command: it lacked
its closing brackets. Exit codes 130 and 143, as the signals' own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "replays" / "dare" / "3p-showdown-outright.kbl"


def _signals_default() -> None:
    """(a signal the test runs ignoring, SIGHUP under nohup, is the command's to take)"""
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def interrupted(args: list[str], cwd: Path,
                sig: int = signal.SIGINT) -> tuple[int, bytes, bytes]:
    """Exit code, stdout and stderr of kabucli ``args``, sent ``sig`` once its stdout began."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "kabucli", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                            preexec_fn=_signals_default)
    assert proc.stdout is not None
    first = proc.stdout.read(1)  # (its stdout is a pipe: this comes once a buffer is full)
    assert first, proc.communicate()
    time.sleep(0.2)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, first + out, err


STOPS = pytest.mark.parametrize(("sig", "exit_code"), [(signal.SIGINT, 130),
                                                       (signal.SIGTERM, 143),
                                                       (signal.SIGHUP, 129)],
                                ids=["ctrl-c", "sigterm", "sighup"])


@STOPS
def test_audit_json_stopped_by_a_signal_is_one_array(tmp_path: Path, sig: int,
                                                   exit_code: int) -> None:
    rest = [str(LOG)] * 20_000  # (far more than it audits before the signal)
    code, out, err = interrupted(["audit", "--json", *rest], tmp_path, sig)
    assert code == exit_code, err
    items = json.loads(out)
    assert 0 < len(items) < 20_000
    assert all(item["status"] == "valid" for item in items)


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("long") / "long.jsonl"
    made = subprocess.run([sys.executable, "-m", "kabucli", "play", "dare", "--seed", "1",
                           "--bot", "all=random", "--players", "4", "--rule", "rounds=400",
                           "--quiet", "--log", str(log)],
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          timeout=300)
    assert made.returncode == 0, made.stderr
    return log


@STOPS
def test_replay_json_stopped_by_a_signal_is_one_document(tmp_path: Path, long_log: Path,
                                                       sig: int, exit_code: int) -> None:
    code, out, err = interrupted(["replay", str(long_log), "--json"], tmp_path, sig)
    assert code == exit_code, err
    doc = json.loads(out)
    assert doc["interrupted"] is True
    assert 0 < len(doc["steps"]) < doc["events"]
    # the keys that end a document are there, null (they were missing: doc["outcome"] failed)
    ending = ("outcome", "waiting", "violation", "error", "digest")
    assert {key: doc[key] for key in ending} == dict.fromkeys(ending), doc.keys()


@pytest.mark.parametrize("args", [["audit", "--json"], ["replay", "--json"]])
def test_the_json_of_a_command_not_stopped_says_nothing_of_it(args: list[str]) -> None:
    from typer.testing import CliRunner

    from kabucli.cli import app

    res = CliRunner().invoke(app, [args[0], str(LOG), *args[1:]])
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert "interrupted" not in (doc[0] if isinstance(doc, list) else doc)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_that_comes_while_a_part_is_written_waits_for_the_parts_end(
        monkeypatch: pytest.MonkeyPatch, sig: int) -> None:
    from kabucli.cli.common import _JsonStream
    from kabucli.errors import Terminated

    if not callable(signal.getsignal(signal.SIGINT)):
        pytest.skip("the tests run with Ctrl-C ignored")
    written: list[str] = []

    class Out:
        def write(self, text: str) -> int:
            if text:
                os.kill(os.getpid(), sig)  # (its handler runs at once, here, mid-write)
                for _ in range(1000):
                    pass
            written.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    for s in before:
        signal.signal(s, signal.SIG_DFL)
    stream = _JsonStream()
    monkeypatch.setattr(sys, "stdout", Out())
    try:
        with pytest.raises((KeyboardInterrupt, Terminated)):
            stream.write('[\n  {"a": 1}', last=True)
    finally:
        stream.close()
        for s, handler in before.items():
            signal.signal(s, handler)
    assert "".join(written) == '[\n  {"a": 1}' and stream.ended


def test_closing_a_json_stream_puts_back_only_the_handlers_it_still_holds() -> None:
    from kabucli.cli.common import _JsonStream

    if not callable(signal.getsignal(signal.SIGINT)):
        pytest.skip("the tests run with Ctrl-C ignored")
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)

    def own(signum: int, frame: object) -> None:
        pass

    try:
        stream = _JsonStream()
        signal.signal(signal.SIGINT, own)  # a command's own, put in place since
        stream.close()
        assert signal.getsignal(signal.SIGINT) is own
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # (put back)
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
