"""The ``kabucli`` command (and ``python -m kabucli``): Ctrl-C while the program is still
loading ends it quietly, as it would any Unix tool, instead of with a Python traceback from
whatever module was being imported; once loaded, the commands handle Ctrl-C themselves."""

from __future__ import annotations

import signal


def dropped(signum: int, frame: object) -> None:
    """A signal's handler that drops it (not SIG_IGN: a signal already on its way when that
    is set is then printed as "ignored due to race condition"). Here, where a command that
    handles signals finds it without loading more (kabucli play: see
    kabucli.cli.common._sigterm_stops)."""
    return None


def main() -> None:
    # (a Ctrl-C that the shell has the program ignore, as a background job's, stays ignored)
    loading = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if loading:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    from kabucli.cli import main as run

    if loading:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    run()
