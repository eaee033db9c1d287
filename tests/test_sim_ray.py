"""`kabucli sim --backend ray`: a real local Ray with two worker processes, started once for
this module, gives the same report and the same log bytes as one local worker; a task whose
worker dies is run again. Ray is part of the test extras (CI installs it): never skipped."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from matchtools import killer_bot
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.errors import KabuError
from kabucli.rules import build
from kabucli.sim import simulate

DARE = games.get("dare")
STARTED = "2026-01-02T03:04:05+00:00"
runner = CliRunner()


@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    import os

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray as ray_

    ray_.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
              logging_level="ERROR")
    yield ray_
    ray_.shutdown()


def logs_of(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_ray_gives_the_report_and_logs_of_one_local_worker(ray: Any, tmp_path: Path) -> None:
    assert ray.cluster_resources()["CPU"] == 2
    rules = build(DARE.Rules, ["rounds=2"])
    kinds = ["best", "random", "random"]
    local = simulate(DARE, rules, kinds, 11, seed=21, log_dir=tmp_path / "local", workers=1,
                     started=STARTED)
    remote = simulate(DARE, rules, kinds, 11, seed=21, log_dir=tmp_path / "ray",
                      backend="ray", started=STARTED)
    assert remote.matches == 11 and remote.as_dict() == local.as_dict()
    assert logs_of(tmp_path / "ray") == logs_of(tmp_path / "local")


def test_a_relative_log_folder_is_where_ray_workers_write_the_logs(
        ray: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the workers of a cluster run in their own folder (where `ray start` was run), not in
    # kabucli's: `--logs DIR` with a relative DIR stopped the run at its first match with
    # "cannot create DIR/dare-00001.kbl: No such file or directory" (DIR made by kabucli in
    # its own folder, the workers looking for it in theirs). Here this process moves to
    # another folder after its Ray started, as kabucli's folder differs from the nodes'
    monkeypatch.chdir(tmp_path)
    rules = build(DARE.Rules, ["rounds=1"])
    kinds = ["best", "random"]
    remote = simulate(DARE, rules, kinds, 4, seed=3, log_dir=Path("relative-ray-logs"),
                      backend="ray", started=STARTED)
    local = simulate(DARE, rules, kinds, 4, seed=3, log_dir=tmp_path / "local", workers=1,
                     started=STARTED)
    assert remote.as_dict() == local.as_dict()
    assert logs_of(tmp_path / "relative-ray-logs") == logs_of(tmp_path / "local")


def test_a_match_whose_ray_worker_dies_is_played_again(ray: Any, tmp_path: Path) -> None:
    # the bot kills the process playing its match (the Ray worker) the first time only
    bot, marker = killer_bot(tmp_path)
    kinds = [f"cmd:{sys.executable} {bot}", "random"]
    rules = build(DARE.Rules, ["rounds=1"])
    remote = simulate(DARE, rules, kinds, 3, seed=2, backend="ray")
    assert marker.exists()
    marker.unlink()
    marker.touch()  # the same bot, not killing anything now
    local = simulate(DARE, rules, kinds, 3, seed=2, workers=1)
    assert remote.failures == 0 and remote.as_dict() == local.as_dict()


def test_a_dead_ray_worker_leaves_the_json_report_whole_and_no_escapes(tmp_path: Path) -> None:
    # Ray's driver printed the error of the worker that died ("(raylet) A worker died ...",
    # coloured, over several lines) on kabucli's stdout, before the --json document
    import os
    import subprocess

    bot, marker = killer_bot(tmp_path)
    argv = [sys.executable, "-m", "kabucli", "sim", "dare", "-b", f"cmd:{sys.executable} {bot}",
            "-b", "random", "-m", "3", "--seed", "2", "--rule", "rounds=1", "--backend", "ray",
            "--workers", "2", "--json"]
    env = {k: v for k, v in os.environ.items() if k != "KABUCLI_DEBUG"}
    res = subprocess.run(argv, capture_output=True, text=True, timeout=240,
                         env={**env, "RAY_USAGE_STATS_ENABLED": "0"})
    assert marker.exists()
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads(res.stdout)["matches"] == 3, res.stdout[:2000]
    assert "\x1b" not in res.stdout + res.stderr and "raylet" not in res.stdout + res.stderr


def test_a_run_error_on_ray_is_one_line(ray: Any, tmp_path: Path) -> None:
    (tmp_path / "dare-00002.kbl").write_text("not a log\n")
    with pytest.raises(KabuError, match="never overwrites it"):
        simulate(DARE, build(DARE.Rules, ["rounds=1"]), ["best", "random"], 3, seed=1,
                 log_dir=tmp_path, backend="ray")


def test_sim_command_with_ray_backend(ray: Any) -> None:
    args = ["sim", "dare", "-b", "best", "-b", "random", "-m", "20", "--seed", "4",
            "--rule", "rounds=1", "--json"]
    res = runner.invoke(app, [*args, "--backend", "ray"])
    assert res.exit_code == 0, res.output
    local = runner.invoke(app, [*args, "--workers", "1"])
    assert json.loads(res.output) == json.loads(local.output)
    res = runner.invoke(app, [*args, "--address", "localhost:1"])
    assert res.exit_code == 1 and "--address is for --backend ray" in res.output


@contextlib.contextmanager
def ray_head(tmp_path: Path) -> Iterator[tuple[int, dict[str, str]]]:
    """`ray start --head` (its own Ray, in a process group of its own, stopped as Ctrl-C
    stops it) with token authentication, in a home of its own holding a token in ~/.ray as a
    home does once Ray has run there (ray.init() of a local Ray writes one): its port, and
    the environment of that home."""
    import os
    import secrets
    import signal
    import socket
    import subprocess
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text(secrets.token_hex(32))
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "HOME": str(tmp_path)}
    env.pop("RAY_AUTH_MODE", None)
    env.pop("RAY_AUTH_TOKEN", None)
    env.pop("RAY_AUTH_TOKEN_PATH", None)
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--port", str(port),
         "--num-cpus", "2", "--include-dashboard", "false", "--disable-usage-stats",
         "--block"], start_new_session=True, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "ray start --head did not come up"
                time.sleep(0.2)
        yield port, env
    finally:
        head.send_signal(signal.SIGINT)  # ray start --block stops its cluster on Ctrl-C
        try:
            head.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
        # ray start leaves the address of the cluster it started for later ray.init() calls
        current = Path("/tmp/ray/ray_current_cluster")
        if current.is_file() and current.read_text().strip().endswith(f":{port}"):
            current.unlink()


def test_a_cluster_started_by_ray_start_head_is_joined_at_its_address(tmp_path: Path) -> None:
    """What docs/bots.md says to do on a cluster: `ray start --head`, then `--address
    HOST:PORT`. Its cluster has token authentication, as docs/bots.md says, and kabucli must
    send that token; without a token there the cluster had none, and sending it was never
    tested (kabucli set RAY_AUTH_MODE after importing Ray, which reads it once, so it sent
    none: 20 s of "Failed to connect to Ray cluster")."""
    import subprocess

    with ray_head(tmp_path) as (port, env):
        args = ["sim", "dare", "-b", "best", "-b", "random", "-m", "30", "--seed", "6",
                "--rule", "rounds=1", "--json"]
        out = subprocess.run([sys.executable, "-m", "kabucli", *args, "--backend", "ray",
                              "--address", f"127.0.0.1:{port}"], env=env, capture_output=True,
                             text=True, timeout=180, check=False)
        assert out.returncode == 0, out.stderr[-2000:]
        local = runner.invoke(app, [*args, "--workers", "1"])
        assert json.loads(out.stdout) == json.loads(local.output)


def test_a_cluster_refusing_the_token_is_one_line_at_once(tmp_path: Path) -> None:
    """A wrong RAY_AUTH_TOKEN, or none at all: Ray's joining asked 20 times, a second apart,
    printing 20 lines "gcs_client.cc:210: Failed to get cluster ID from GCS server:
    Unauthenticated ..." on stderr before kabucli's line, 21 s in all."""
    import subprocess
    import time

    with ray_head(tmp_path) as (port, env):
        argv = [sys.executable, "-m", "kabucli", "sim", "dare", "-b", "best", "-b", "random",
                "-m", "3", "--seed", "1", "--backend", "ray", "--address", f"127.0.0.1:{port}"]
        wrong = {**env, "RAY_AUTH_TOKEN": "0123456789abcdef" * 4}
        (tmp_path / "elsewhere").mkdir()
        none = {**env, "HOME": str(tmp_path / "elsewhere")}
        for environ, said in ((wrong, "it refused the token kabucli sent"),
                              (none, "it wants a token and kabucli has none to send")):
            begun = time.monotonic()
            out = subprocess.run(argv, env=environ, capture_output=True, text=True,
                                 timeout=120, check=False)
            took = time.monotonic() - begun
            assert out.returncode == 1 and out.stdout == ""
            assert out.stderr == (f"error: cannot join the Ray cluster at 127.0.0.1:{port}: "
                                  f"{said} (its token: see docs/bots.md)\n"), out.stderr[-2000:]
            assert took < 10, took


def test_the_docs_command_joining_a_node_to_a_cluster_with_a_token_joins_it(
        tmp_path: Path) -> None:
    """docs/bots.md's command for the other machines of a cluster, run as written (HEAD the
    test head's address; --block, so the test can stop it as it stops the head): with the
    head's token in ~/.ray, `ray start --address HEAD:6379` was refused by the head ("RPC
    error: InvalidAuthToken ... RAY_AUTH_MODE is currently 'disabled' (not 'token')")."""
    import os
    import re
    import shlex
    import signal
    import subprocess
    import time

    docs = (Path(__file__).parent.parent / "docs" / "bots.md").read_text()
    joins = re.findall(r"`([^`]*ray start --address HEAD:6379[^`]*)`", docs)
    assert len(joins) == 1, joins
    with ray_head(tmp_path) as (port, env):
        words = shlex.split(joins[0].replace("HEAD:6379", f"127.0.0.1:{port}"))
        sets = {}
        while "=" in words[0]:
            name, _, value = words.pop(0).partition("=")
            sets[name] = value
        assert words[:2] == ["ray", "start"]
        node = subprocess.Popen(
            [sys.executable, "-m", "ray.scripts.scripts", *words[1:], "--num-cpus", "1",
             "--disable-usage-stats", "--block"], start_new_session=True,
            env={**env, **sets}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            status = [sys.executable, "-m", "ray.scripts.scripts", "status", "--address",
                      f"127.0.0.1:{port}"]
            deadline = time.monotonic() + 60
            while True:
                assert node.poll() is None, node.communicate()[1][-2000:]
                out = subprocess.run(status, env={**env, "RAY_AUTH_MODE": "token"},
                                     capture_output=True, text=True, timeout=60, check=False)
                if out.stdout.count(" node_") == 2:
                    break
                assert time.monotonic() < deadline, out.stdout[-2000:] + out.stderr[-2000:]
                time.sleep(1)
        finally:
            node.send_signal(signal.SIGINT)
            try:
                node.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(node.pid, signal.SIGKILL)
                node.communicate()


def test_sigterm_stops_a_ray_run_with_its_report(tmp_path: Path) -> None:
    # Ray puts its own SIGTERM handler in place as it starts (it ended the run at once, with
    # Ray's stack dump and no report); the run's own is put back after it
    import os
    import signal
    import subprocess
    import time

    logs = tmp_path / "logs"
    argv = [sys.executable, "-m", "kabucli", "sim", "dare", "-b", "best", "-b", "random",
            "-m", "200000", "--seed", "5", "--backend", "ray", "--workers", "2", "--logs",
            str(logs), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1", "RAY_USAGE_STATS_ENABLED": "0"})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(list(logs.glob("*.kbl"))) < 20:
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err[-2000:]
    data = json.loads(out)
    assert data["stopped"] == "terminated (SIGTERM)" and data["matches"] > 0


def test_sigterm_while_the_run_waits_for_its_ray_tasks_says_sigterm(tmp_path: Path) -> None:
    # Ray, waiting for tasks, turned the run's Terminated into a KeyboardInterrupt of its own:
    # a SIGTERM stopped the run as "interrupted (Ctrl-C)", exit code 130
    import os
    import signal
    import subprocess
    import time

    bot = tmp_path / "slow.py"
    bot.write_text("import json, sys, time\n"
                   "for line in sys.stdin:\n"
                   "    m = json.loads(line)\n"
                   "    if m['type'] == 'turn':\n"
                   "        time.sleep(0.3)\n"
                   "        print(m['legal'][-1], flush=True)\n")
    logs = tmp_path / "logs"
    argv = [sys.executable, "-m", "kabucli", "sim", "dare", "-b", f"cmd:{sys.executable} {bot}",
            "-b", "random", "-m", "50", "--seed", "5", "--backend", "ray", "--workers", "2",
            "--logs", str(logs), "--json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1", "RAY_USAGE_STATS_ENABLED": "0"})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not list(logs.glob("*.kbl")):
        time.sleep(0.2)
    time.sleep(0.5)  # the run is waiting on its tasks: every match takes seconds
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err[-2000:]
    assert json.loads(out)["stopped"] == "terminated (SIGTERM)"


def test_a_cluster_that_answers_and_refuses_is_not_joined_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A cluster that answers but refuses the driver (most often: it wants its head's token)
    is one line that says the cluster was not joined, and where its token is explained; it
    said 'cannot start the Ray cluster at ...', as if kabucli had tried to start one."""
    from kabucli import sim_ray

    class Refusing:
        @staticmethod
        def is_initialized() -> bool:
            return False

        @staticmethod
        def init(**_: Any) -> None:
            raise ConnectionError("Failed to connect to Ray cluster\n  at 10.0.0.5:6379")

    monkeypatch.setattr(sim_ray, "_ray", lambda: Refusing)
    monkeypatch.setattr(sim_ray, "_reachable", lambda address: None)
    monkeypatch.setattr(sim_ray, "_token", lambda: False)
    monkeypatch.setitem(sys.modules, "ray", Refusing)
    with pytest.raises(KabuError) as caught:
        next(sim_ray.ray_outcomes(None, iter([]), "10.0.0.5:6379"))  # type: ignore[arg-type]
    assert str(caught.value) == ("cannot join the Ray cluster at 10.0.0.5:6379 (its token: see "
                                 "docs/bots.md): Failed to connect to Ray cluster at "
                                 "10.0.0.5:6379")


def test_an_address_that_answers_as_no_ray_head_is_one_line_not_a_hang(tmp_path: Path) -> None:
    """A port that takes connections and says nothing a Ray head says (another server, a
    proxy): Ray's joining waited there for minutes (kabucli's own question for ever)."""
    import socket
    import subprocess
    import time

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(64)
        port = server.getsockname()[1]
        begun = time.monotonic()
        out = subprocess.run(
            [sys.executable, "-m", "kabucli", "sim", "dare", "-b", "best", "-b", "random", "-m",
             "3", "--backend", "ray", "--address", f"127.0.0.1:{port}"],
            capture_output=True, text=True, timeout=60, check=False)
        assert time.monotonic() - begun < 30
    assert out.returncode == 1
    assert (f"error: cannot join the Ray cluster at 127.0.0.1:{port}: it does not answer as "
            "the head of a Ray cluster does") in out.stderr, out.stderr[-2000:]
