"""``kabucli sim --backend ray``: the matches of a run as Ray tasks (``pip install
"kabucli[ray]"``).

Without an address kabucli starts a Ray of its own on this machine (as many workers as
``--workers``) and stops it at the end; with ``--address HOST:PORT`` it joins the cluster there
(``ray start --head`` on one machine, ``ray start --address HOST:PORT`` on the others, each with
this kabucli installed). A Ray that this process already started (``ray.init()``, as the tests
do once per session) is used as it is. Each match is one task (:func:`kabucli.sim.play_match`
with the run's plan), retried on another worker when its worker dies; outcomes are counted in
match order, as the local pool counts them, so the report is the same. Logs (``--logs``) are
written by the machine that plays the match: on a cluster, give a folder every machine shares.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from typing import Any

from kabucli.errors import KabuError, Terminated
from kabucli.sim import Chunks, Outcome, Plan, in_order, play_chunk

RETRIES = 3  # times a match is run again when the worker playing it dies
CONNECT_WAIT = 5.0  # seconds to reach a cluster's head


def _ray() -> Any:
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # never asks, never reports
    try:
        import ray
    except ImportError:
        raise KabuError("--backend ray needs Ray: pip install 'kabucli[ray]'") from None
    return ray


def ray_outcomes(plan: Plan, todo: Iterator[int], address: str | None,
                 workers: int | None = None) -> Iterator[Outcome]:
    """The outcomes of the matches ``todo`` (in that order), played as Ray tasks of a chunk of
    matches each (about 0.2 s of play); two per CPU of the cluster under way."""
    loaded = sys.modules.get("ray")
    ours = loaded is None or not loaded.is_initialized()
    if ours and address is not None:
        _reachable(address)
        if "RAY_AUTH_MODE" not in os.environ and _token():
            # Ray (2.59 on) starts a cluster with token authentication, and a driver joining
            # it sends the token only in token mode (a cluster without it accepts that too).
            # Ray reads the mode once, as it is imported: set it before, and should Ray be
            # imported already, have it read again (as Ray's own switch to token mode does)
            os.environ["RAY_AUTH_MODE"] = "token"
            if loaded is not None:
                _reread_ray_config(loaded)
    ray = _ray()
    if ours and address is not None:
        _admitted(ray, address)
    printer = None  # Ray's printer of its cluster's errors, while this run keeps them quiet
    terminated: list[int] = []  # the SIGTERM the run's handler was given, once it is
    if ours:
        term = signal.getsignal(signal.SIGTERM)
        try:
            # "local": a Ray of its own, never a cluster this machine happens to run
            ray.init(address=address or "local", num_cpus=None if address else workers,
                     include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR, configure_logging=True)
        except Exception as exc:  # ConnectionError, ValueError, RuntimeError: Ray's own words
            # (a cluster is joined: one that answers and refuses is often one that wants the
            # token of its head, which docs/bots.md says how to bring)
            where = (f"join the Ray cluster at {address} (its token: see docs/bots.md)"
                     if address else "start a local Ray")
            raise KabuError(f"cannot {where}: {' '.join(str(exc).split())[:300]}") from None
        except SystemExit:
            # Ray's own SIGTERM handler, in place while it starts, exits (code 15, or 1): a
            # run with a handler of its own stops as that would, with its report
            if not callable(term):
                raise
            with contextlib.suppress(Exception):
                ray.shutdown()
            raise Terminated from None
        # Ray puts its own SIGTERM handler in place (which ends the process at once): the
        # run's own (kabucli sim's: stop with the report so far) is put back, noting the
        # signal: Ray, while it waits for tasks, turns the exception a handler raises into a
        # KeyboardInterrupt of its own, which would say Ctrl-C
        if callable(term) and threading.current_thread() is threading.main_thread():
            def noted(signum: int, frame: Any) -> None:
                terminated.append(signum)
                term(signum, frame)

            signal.signal(signal.SIGTERM, noted)
        printer = _quiet_cluster_errors(ray)
    if plan.log_dir is not None:
        # the workers do not run in this process's folder (on a cluster, in the one where
        # `ray start` was run): a relative log folder is named from here
        plan = dataclasses.replace(plan, log_dir=os.path.abspath(plan.log_dir))
    task = ray.remote(max_retries=RETRIES, num_cpus=1)(play_chunk)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    plan_ref = ray.put(plan)
    running: dict[Any, list[int]] = {}

    def wait_any(refs: list[Any]) -> list[Any]:
        ready: list[Any] = ray.wait(refs, num_returns=1)[0]
        return ready

    try:
        yield from in_order(todo, 2 * cpus, Chunks(0.2), running,
                            lambda batch: task.remote(plan_ref, batch), wait_any,
                            lambda ref, batch: _get(ray, ref, batch[0]))
    except KeyboardInterrupt as exc:
        if terminated and not isinstance(exc, Terminated):
            raise Terminated from None
        raise
    finally:
        if ours:  # its shutdown stops every task (cancelling them first, as they finish,
            ray.shutdown()  # could fail a check in Ray's core, which then aborts the run)
            if printer is not None:
                ray._private.worker.print_to_stdstream = printer
        else:  # a cluster this run did not start: the tasks it sent are its to stop
            for ref in running:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)


def _quiet_cluster_errors(ray: Any) -> Any:
    """Keep the errors Ray's cluster reports off this process's output; Ray's own printer of
    them, to put back (None when Ray has none where it had). A Ray driver prints them on
    stdout, coloured and over several lines: a worker that died (killed by a bot, or by the
    system) spoiled ``--json`` and put escape sequences on the terminal, while kabucli says
    in one line what failed for good (a match's task is run again first). With
    KABUCLI_DEBUG they go to stderr, as text made safe to show."""
    worker = getattr(getattr(ray, "_private", None), "worker", None)
    printer = getattr(worker, "print_to_stdstream", None)
    if worker is None or printer is None:
        return None

    def to_stderr(data: Any, ignore_prefix: bool = False) -> None:
        if os.environ.get("KABUCLI_DEBUG") and isinstance(data, dict):
            from kabucli.safetext import safe_text

            for line in data.get("lines") or []:
                print(f"ray: {safe_text(str(line))}", file=sys.stderr)

    worker.print_to_stdstream = to_stderr
    return printer


def _reread_ray_config(ray: Any) -> None:
    """Have an imported Ray read its settings (RAY_AUTH_MODE) from the environment again."""
    config = getattr(getattr(ray, "_raylet", None), "Config", None)
    if config is not None and hasattr(config, "initialize"):
        config.initialize("")


def _token() -> bool:
    """Whether a Ray authentication token is there to send: RAY_AUTH_TOKEN, the file of
    RAY_AUTH_TOKEN_PATH, or ~/.ray/auth_token (where ray start --head writes it)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or os.path.expanduser("~/.ray/auth_token")
    return os.path.isfile(path)


def _reachable(address: str) -> None:
    """KabuError in one line unless ``HOST:PORT`` (or ``ray://HOST:PORT``) answers: Ray itself
    would try to connect for minutes, printing warnings."""
    where = address.removeprefix("ray://")
    host, sep, port = where.rpartition(":")
    if address == "auto":
        return
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise KabuError(f"--address {address!r}: give the head of a Ray cluster as HOST:PORT "
                        "(ray start --head prints it), e.g. 10.0.0.5:6379")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_WAIT).close()
    except OSError as exc:
        raise KabuError(f"cannot reach the Ray cluster at {address}: "
                        f"{exc.strerror or type(exc).__name__} (is 'ray start --head' "
                        "running there?)") from None


def _admitted(ray: Any, address: str) -> None:
    """KabuError in one line when the cluster at ``address`` refuses this process's token (or
    its want of one): Ray's own joining asks 20 times, a second apart, each time printing a
    warning of its core on stderr, before it fails. One question is asked here instead, its
    warning kept off stderr; any other failure is left to Ray's joining to report."""
    client = getattr(getattr(ray, "_raylet", None), "GcsClient", None)
    refused = getattr(getattr(ray, "exceptions", None), "AuthenticationError", None)
    if client is None or refused is None or address == "auto" or address.startswith("ray://"):
        return
    answer: list[BaseException | None] = []

    def ask() -> None:
        try:
            client(address=address, cluster_id=None)
            answer.append(None)
        except BaseException as exc:  # handed to the caller
            answer.append(exc)

    with _quiet_stderr():
        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        asking.join(2 * CONNECT_WAIT)
    if not answer:  # Ray's core waits for ever on a port that answers as no Ray head does
        raise KabuError(f"cannot join the Ray cluster at {address}: it does not answer as the "
                        "head of a Ray cluster does (is it the address 'ray start --head' "
                        "printed?)")
    try:
        if answer[0] is not None:
            raise answer[0]
    except refused:
        sent = ("refused the token kabucli sent" if _token() else
                "wants a token and kabucli has none to send")
        raise KabuError(f"cannot join the Ray cluster at {address}: it {sent} (its token: "
                        "see docs/bots.md)") from None
    except Exception:  # Ray's joining tells what else is wrong
        return


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """This process's stderr (file descriptor 2, which Ray's core writes to) to the null
    device for a while."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to keep quiet
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _get(ray: Any, ref: Any, i: int) -> tuple[list[Outcome], float]:
    """A task's outcomes; its KabuError as this process's, Ray's failures in one line."""
    try:
        out: tuple[list[Outcome], float] = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, KabuError):
            raise KabuError(str(cause)) from None
        raise KabuError(f"match {i + 1} failed on Ray: {' '.join(str(exc).split())[:300]}") \
            from None
    except ray.exceptions.RayError as exc:
        raise KabuError(f"match {i + 1} could not be played on Ray ({type(exc).__name__}; "
                        f"tried {RETRIES + 1} times)") from None
    return out
