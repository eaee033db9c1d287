"""The ``kabucli`` command (and ``python -m kabucli``): Ctrl-C while the program is still
loading ends it quietly, as it would any Unix tool, instead of with a Python traceback from
whatever module was being imported; once loaded, the commands handle Ctrl-C themselves."""

from __future__ import annotations

import os
import signal


def dropped(signum: int, frame: object) -> None:
    """A signal's handler that drops it (not SIG_IGN: a signal already on its way when that
    is set is then printed as "ignored due to race condition"). Here, where a command that
    handles signals finds it without loading more (kabucli play: see
    kabucli.cli.common._sigterm_stops)."""
    return None


def to_null(fd: int, readable: bool | None = None) -> None:
    """The descriptor ``fd`` made /dev/null, inheritable as a standard stream is: what is
    written to it goes nowhere, a read finds the end (a closed standard stream, a terminal
    that hung up, a reader that has gone). Opened for reading (``readable``; by default
    standard input alone), a write to it fails with EBADF, as to a closed descriptor.
    OSError if /dev/null cannot be opened."""
    if readable is None:
        readable = fd == 0
    null = os.open(os.devnull, os.O_RDONLY if readable else os.O_WRONLY)
    if null != fd:
        os.dup2(null, fd)
        os.close(null)
    else:  # (``fd`` was closed: the lowest number free is its own)
        os.set_inheritable(fd, True)


def _standard_streams() -> None:
    """A standard stream the program was started without (``<&-``, ``>&-``, ``2>&-``: Python
    makes it None) is the null device: a closed standard input was an "internal error" at the
    prompt (AttributeError), and the first file kabucli opened (a log) took the closed number,
    where whatever writes to that stream (a bot's stderr, under KABUCLI_DEBUG) would write.
    So input ends at once, as from /dev/null, and what is written to a closed standard
    error goes nowhere. A closed standard output is /dev/null opened for reading only: the
    number stays taken, and writing the output fails as it would have (EBADF), which the
    command reports as output it cannot write (exit 2) rather than end 0 having printed
    nothing, its answer lost (``kabucli audit --json >&-``)."""
    import sys

    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
            continue  # (open after all: not ours to replace)
        except OSError:
            pass
        try:
            to_null(fd, readable=fd < 2)  # (standard output: writes fail, see above)
        except OSError:
            continue
        stream = open(fd, "r" if fd == 0 else "w", encoding="utf-8",  # noqa: SIM115 (kept)
                      errors="surrogateescape" if fd == 0 else "backslashreplace",
                      closefd=False)
        setattr(sys, name, stream)


def _output_escapes() -> None:
    """Standard output whose encoding cannot write every character (PYTHONIOENCODING=ascii,
    latin-1: an ASCII terminal) writes what it cannot as escapes (a name 山田 as
    ``\\u5c71\\u7530``), as standard error does, rather than stop the command at the first
    '·' or name with an "internal error" (UnicodeEncodeError)."""
    import contextlib
    import io
    import sys

    out = sys.stdout
    if isinstance(out, io.TextIOWrapper) and out.errors == "strict":
        with contextlib.suppress(OSError, ValueError):  # (not ours to change after all)
            out.reconfigure(errors="backslashreplace")


def main() -> None:
    _standard_streams()
    _output_escapes()
    # (a Ctrl-C that the shell has the program ignore, as a background job's, stays ignored)
    loading = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if loading:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    from kabucli.cli import main as run

    if loading:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    run()
