"""The command line: thin Typer commands over the library.

Each command tidies its arguments, calls the library, and draws the result. Library errors
become one line on stderr and a non-zero exit code, never a traceback. Heavy imports happen
inside the commands so that ``kabucli --help`` starts fast.

The commands live by what they work on (:mod:`.about`, :mod:`.table`, :mod:`.records`,
:mod:`.runs`; what they share in :mod:`.common`) and are registered here, in one place, in
the order ``kabucli --help`` lists them. ``main`` runs the program.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from kabucli.cli import about, records, runs, table
from kabucli.cli.common import (
    CTRL_C,
    PIPE_GONE,
    _console,
    _dumps,
    _escape,
    _output_failed,
    app,
    bot_app,
    log_app,
)
from kabucli.completion import COMPLETE_VAR

# The commands, in the order --help lists them (the groups, log and bot, after them).
app.command()(about.rules)
app.command()(about.deal)
app.command()(table.play)
app.command()(table.resume)
app.command()(records.replay)
app.command()(records.audit)
app.command()(runs.sim)
app.command()(runs.tournament)
bot_app.command("check")(runs.bot_check)
log_app.command("convert")(records.log_convert)
log_app.command("repair")(records.log_repair)
app.command()(about.solve)
app.command()(about.completion)


def main() -> None:
    """Entry point: run the app; an unexpected error is one line, not a traceback."""
    if os.environ.get("NO_COLOR"):
        # Typer draws --help with rich: with NO_COLOR it would still send bold and dim escapes
        import typer.rich_utils

        typer.rich_utils.COLOR_SYSTEM = None
    noted = _note_ctrl_c()
    try:
        try:
            _main()
        except SystemExit:
            _flush_output()
            raise
    except OSError as exc:  # (one raised as an error was said: see _main)
        if not _output_failed(exc):
            raise
        _cannot_write(exc)
    finally:  # (a program that runs main in-process goes on with its own Ctrl-C)
        if noted is not None:
            _ctrl_c_back(noted)


def _flush_output() -> None:
    """Standard output flushed before the command exits, so that output Python still holds
    (all of it, when it is short and goes to a file) and cannot be written ends as any that
    cannot (:func:`_cannot_write`), or as a reader gone (:data:`PIPE_GONE`): Python's own
    last flush, at its exit, printed "Exception ignored" and a traceback and exited 120
    (``kabucli audit LOG --json >&-``, a short answer to a full disk)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _reader_gone()
    except OSError as exc:
        if not _output_failed(exc):
            raise
        _cannot_write(exc)


def _reader_gone() -> NoReturn:
    """The end of a command whose reader has gone (``| head``): the rest of its output sent
    nowhere, exit :data:`PIPE_GONE` without a word."""
    from kabucli.entry import to_null

    with contextlib.suppress(OSError, ValueError):
        to_null(sys.stdout.fileno())
    sys.exit(PIPE_GONE)


def _main() -> None:
    """:func:`main` with Ctrl-C noted."""
    null_before = _stdout_is_null()
    try:
        if os.environ.get(COMPLETE_VAR):  # a completion script asks for candidates
            from typer.main import get_command

            from kabucli.completion import respond

            try:
                answered = respond(get_command(app), os.environ[COMPLETE_VAR])
            except BrokenPipeError:  # the script reading the candidates has gone
                _reader_gone()
            sys.exit(answered)
        code = app(standalone_mode=False)
        if code == 130 and CTRL_C:  # typer's word for a Ctrl-C that no command handled
            _aborted()
    except SystemExit as exc:
        if exc.code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper":
            # click's end of a print() to a pipe whose reader has gone (kabucli replay LOG
            # --json | head -1): its exit 1 says a refusal here (rich's end: see _console)
            sys.exit(PIPE_GONE)
        if exc.code == 1 and not null_before and _stdout_is_null():
            # rich's own console at a reader gone (typer's help: kabucli --help | head -1)
            # sends the rest to /dev/null and exits 1, a refusal here (kabucli's: _console)
            sys.exit(PIPE_GONE)
        raise
    except KeyboardInterrupt:  # Ctrl-C where no command handles it (typer still starting)
        _aborted()
    except Exception as exc:
        kinds = {c.__name__ for c in type(exc).__mro__}
        # click's Abort (Ctrl-C, or no more input, at a prompt), or a Ctrl-C that Python
        # wrapped in a RuntimeError (one in a class being made)
        if "Abort" in kinds or _from_ctrl_c(exc):
            _aborted()
        if "ClickException" in kinds:
            _usage_error(exc, kinds)
        if _output_failed(exc):
            _cannot_write(exc)
        if os.environ.get("KABUCLI_DEBUG"):
            raise
        # An internal error: one line unless debugging.
        _console(stderr=True).print(f"[bold red]internal error:[/] {type(exc).__name__}: "
                                    f"{_escape(str(exc))} (set KABUCLI_DEBUG=1 for details)")
        sys.exit(3)
    sys.exit(code if isinstance(code, int) else 0)


def _stdout_is_null() -> bool:
    """Whether descriptor 1 is /dev/null (where rich sends the output of a reader gone)."""
    try:
        out, null = os.fstat(1), os.stat(os.devnull)
    except OSError:
        return False
    return (out.st_dev, out.st_ino) == (null.st_dev, null.st_ino)


def _note_ctrl_c() -> Callable[[int, Any], None] | None:
    """Ctrl-C raises KeyboardInterrupt as ever, noting that it came. Typer turns one that no
    command handled (in the middle of an audit, say) into a silent exit 130, which a command
    may also return on purpose (kabucli sim stopped by Ctrl-C, having said so, with its own
    handler in place): the note tells the two apart, and the first gets a word. A Ctrl-C that
    the program was started ignoring (see kabucli.entry) stays ignored. Returns the handler
    put in place (None: none was), for :func:`_ctrl_c_back`; a note of an earlier run in
    this process is forgotten."""
    import signal
    import threading

    CTRL_C.clear()

    def noted(signum: int, frame: Any) -> None:
        CTRL_C.append(True)
        raise KeyboardInterrupt

    if (signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            or threading.current_thread() is not threading.main_thread()):  # (signals: main's)
        return None
    signal.signal(signal.SIGINT, noted)
    return noted


def _ctrl_c_back(noted: Callable[[int, Any], None]) -> None:
    """Python's own Ctrl-C handler again, where :func:`_note_ctrl_c` put ``noted`` (and a
    command has not put another in its place since)."""
    import signal
    import threading

    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is noted):
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _aborted() -> NoReturn:
    """The end of a run stopped by Ctrl-C that no command handled: one word, exit 130."""
    _console(stderr=True).print("aborted")
    sys.exit(130)


def _cannot_write(exc: BaseException) -> NoReturn:
    """The end of a command whose output could not be written: one line on stderr, exit 2
    (as for a file that cannot be written), the rest of the output sent nowhere (Python's own
    last flush of it would fail again, with a traceback)."""
    from kabucli.entry import to_null

    with contextlib.suppress(OSError, ValueError):
        to_null(sys.stdout.fileno())
    why = getattr(exc, "strerror", None) or str(exc)
    with contextlib.suppress(OSError):  # (stderr may be as full: the exit code says it)
        _console(stderr=True).print(f"[bold red]error:[/] cannot write the output: "
                                    f"{_escape(why)}")
    sys.exit(2)


def _from_ctrl_c(exc: BaseException) -> bool:
    """Whether ``exc`` came of a Ctrl-C: a KeyboardInterrupt is in its chain of causes."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


_NOT_AN_INTEGER = "Input should be a valid integer, unable to parse string as an integer"


def _in_our_words(exc: Exception, message: str) -> str:
    """Typer's refusal of a whole-number option's value (pydantic's words) as kabucli says it
    of a seed or a rule: what was typed, and to use the digits 0-9 (``--players ３``: full
    width, as a Japanese input method types it; the words alone read as if 3 were wrong)."""
    errors = getattr(exc.__cause__, "errors", None)
    if _NOT_AN_INTEGER not in message or not callable(errors):
        return message
    try:
        typed = errors()[0]["input"]
    except (LookupError, TypeError):
        return message
    if not isinstance(typed, str):
        return message
    from kabucli.safetext import quoted  # (cut: a word may be 100 KB long)

    return message.replace(_NOT_AN_INTEGER,
                           f"{quoted(typed)} is not a whole number: use the digits 0-9")


def _usage_error(exc: Exception, kinds: set[str]) -> NoReturn:
    """Report a command-line syntax error in one line.

    Typer vendors or imports click depending on its version, so its errors are known here by
    class name; Typer itself would draw a usage box.
    """
    err = _console(stderr=True)
    ctx = getattr(exc, "ctx", None)
    if "NoArgsIsHelpError" in kinds and ctx is not None:
        print(ctx.get_help())
        sys.exit(2)
    message = _in_our_words(exc, exc.format_message())  # type: ignore[attr-defined]
    hint = f" (see '{ctx.command_path} --help')" if "UsageError" in kinds and ctx else ""
    args = sys.argv[1:]
    err.print(f"[bold red]error:[/] {_escape(message)}{_escape(hint)}")
    if "--json" in (args[:args.index("--")] if "--" in args else args):
        # --json asked for: one JSON document on stdout all the same, as a command's own
        # errors give (a program reading stdout gets JSON either way)
        print(_dumps({"error": f"{message}{hint}"}, indent=2))
    sys.exit(int(getattr(exc, "exit_code", 2)))
