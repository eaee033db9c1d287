"""What the commands share: the Typer apps, the options several commands take, and how a
command fails (one line on stderr, or one JSON document with --json, and an exit code), prints
JSON, names files and shows long work."""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from typer.core import TyperArgument, TyperOption

from kabucli.completion import (
    complete_game,
    complete_path,
    complete_players,
    complete_rule,
)
from kabucli.entry import to_null
from kabucli.figures import counted
from kabucli.registry import GAMES

if TYPE_CHECKING:
    from rich.console import Console

    from kabucli.engine import Game


app = typer.Typer(
    name="kabucli",
    help="Referee, play, replay and audit traditional Japanese card games.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
log_app = typer.Typer(help="Work with event log files.", no_args_is_help=True)
app.add_typer(log_app, name="log")
bot_app = typer.Typer(help="Check your own bots.", no_args_is_help=True)
app.add_typer(bot_app, name="bot")

_option_type = TyperOption.display_type_rich


def _flag_type(self: TyperOption, ctx: Any) -> str | None:
    """No value type for a flag in --help: it takes no value (Typer's rich help would show
    ``<bool>``; its plain help already leaves it out)."""
    return None if self.is_flag or self.count else _option_type(self, ctx)


setattr(TyperOption, "display_type_rich", _flag_type)  # noqa: B010 (mypy: method-assign)


def _no_argument_type(self: TyperArgument, ctx: Any) -> str | None:
    """No value type beside an argument in --help: its name already says what it is (GAME,
    LOG, SRC), where Typer's rich help would add a Python type (``<str>``, ``<list[Path]>``)."""
    return None


setattr(TyperArgument, "display_type_rich", _no_argument_type)  # noqa: B010 (as above)


def _show_version(ctx: typer.Context, value: bool) -> None:
    if not value or ctx.resilient_parsing:  # resilient: a completion request, not a run
        return
    import platform

    from kabucli import __version__, build

    print(f"kabucli {__version__} ({build()}), Python {platform.python_version()}")
    raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True,
        help="Show the version, whether the compiled core is installed, and exit.")] = False,
) -> None:
    """Referee, play, replay and audit traditional Japanese card games."""

EXIT_RULE = 1
EXIT_UNREADABLE = 2


def _dumps(obj: Any, **kw: Any) -> str:
    """``json.dumps``, but never ``Infinity`` or ``NaN``, which are not JSON (strict parsers
    refuse them): a number that is not finite is written as null. (Every JSON a command
    prints is made here: :func:`_json_errors` knows by it that some was printed.)"""
    _SAID_JSON[0] = True
    try:
        return json.dumps(obj, allow_nan=False, **kw)
    except ValueError:
        return json.dumps(_finite(obj), allow_nan=False, **kw)


def _finite(obj: Any) -> Any:
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def _console(stderr: bool = False) -> Console:
    # Messages on stderr are single lines that must not be folded at the terminal width.
    # NO_COLOR (no-color.org) means no escapes at all: rich alone would still send bold/dim.
    plain = bool(os.environ.get("NO_COLOR"))
    return _out_class()(stderr=stderr, highlight=False, soft_wrap=stderr,
                        color_system=None if plain else "auto")


def _out_class() -> type[Console]:
    """rich's Console, but a reader that has gone (``| head -1``) ends the command with
    :data:`PIPE_GONE`, not 1 (a refusal here); made once, when first asked for (rich is
    imported by the commands that draw)."""
    if not _OUT:
        from rich.console import Console

        class Out(Console):
            def on_broken_pipe(self) -> None:
                self.quiet = True  # (rich's own way: the rest sent nowhere)
                to_null(self.file.fileno())
                raise SystemExit(PIPE_GONE)

        _OUT.append(Out)
    return _OUT[0]


_OUT: list[type[Console]] = []


# The exit code of a command whose reader closed the pipe it printed to (kabucli replay LOG |
# head -1): what a shell says of any Unix tool stopped so, 128 + SIGPIPE.
PIPE_GONE = 141


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one error line on stderr and exit with ``code``."""
    _FAILED[:] = [message]
    _console(stderr=True).print(f"[bold red]error:[/] {_escape(message)}")
    raise typer.Exit(code)

_FAILED: list[str] = []  # the message of the last fail()
_SAID_JSON = [False]  # whether a command printed JSON (by _dumps)

# Whether a Ctrl-C came that no command has said anything of (kabucli.cli._note_ctrl_c): main
# says "aborted" for it. A command that stops on it with its own words clears it (said_ctrl_c).
CTRL_C: list[bool] = []


def said_ctrl_c() -> None:
    """The command has said why it stops after a Ctrl-C (play's 'stopped (Ctrl-C); log kept:
    ...'): main's word for a Ctrl-C no command handled is not added."""
    CTRL_C.clear()


@contextlib.contextmanager
def _json_errors(on: bool, **about: Any) -> Iterator[None]:
    """With --json (``on``), a fail() before any JSON was printed prints one JSON document
    too, ``about`` and its ``error``: a program reading stdout gets JSON either way."""
    _FAILED.clear()
    _SAID_JSON[0] = False
    try:
        yield
    except typer.Exit as exc:
        if on and exc.exit_code and _FAILED and not _SAID_JSON[0]:
            print(_dumps({**about, "error": _FAILED[0]}, indent=2))
        raise


class _JsonStream:
    """Writes the parts of a JSON document a command prints as it goes (``on``; off: plain
    prints). A Ctrl-C (SIGINT), SIGTERM or SIGHUP that comes while a part is written waits for
    its end, then raises KeyboardInterrupt as ever (SIGTERM, SIGHUP:
    :class:`~kabucli.errors.Terminated`, one), so that what is written is whole and the
    command can close the document (``ended``: its last part was begun). :meth:`close` puts
    the signals' handlers back. A signal the program was started ignoring stays ignored."""

    def __init__(self, on: bool = True) -> None:
        import signal
        import threading

        self.ended = False
        self._writing = False
        self._held: int | None = None  # the signal that came while a part was written
        self._before: dict[int, Any] = {}
        if on and threading.current_thread() is threading.main_thread():
            if callable(signal.getsignal(signal.SIGINT)):
                self._before[signal.SIGINT] = signal.signal(signal.SIGINT, self._signal)
            for stop in (signal.SIGTERM, signal.SIGHUP):
                if signal.getsignal(stop) is signal.SIG_DFL:
                    self._before[stop] = signal.signal(stop, self._signal)

    def _signal(self, signum: int, frame: Any) -> None:
        if self._writing:
            self._held = signum
        else:
            self._stop(signum, frame)

    def _stop(self, signum: int, frame: Any) -> None:
        import signal

        if signum != signal.SIGINT:
            _stopped_by(signum)
            return  # (a prompt that was up ends with the stop)
        self._before[signum](signum, frame)

    def write(self, text: str, last: bool = False) -> None:
        self._writing = True
        try:
            self.ended = self.ended or last
            print(text, end="")
        finally:
            self._writing = False
        if self._held is not None:
            held, self._held = self._held, None
            self._stop(held, None)

    def close(self) -> None:
        import signal

        for signum, before in self._before.items():
            if signal.getsignal(signum) == self._signal:
                signal.signal(signum, before)
        self._before = {}


def _output_failed(exc: BaseException) -> bool:
    """Whether ``exc`` is what writing the output raises when it cannot be written: a full
    disk, a device that takes nothing (``> /dev/full``), an I/O error, a standard output the
    program was started without (``>&-``, see kabucli.entry). No file is named: a
    file kabucli opens is named in its own refusal, where it is written (a log, a page)."""
    import errno

    return (isinstance(exc, OSError) and exc.filename is None
            and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF))


def _stopped_by(signum: int) -> None:
    """Raise what SIGTERM (Terminated) or SIGHUP (HungUp, the terminal that was the standard
    streams made /dev/null first: see :func:`_terminal_gone`) stops a command with; at the
    play prompt, end the prompt with it instead (:func:`kabucli.prompt.stop_prompt`)."""
    import signal

    from kabucli.errors import HungUp, Terminated

    stop = HungUp() if signum == signal.SIGHUP else Terminated()
    if signum == signal.SIGHUP:
        _terminal_gone()
    asking = sys.modules.get("kabucli.prompt")  # (a line editor only once it was imported)
    if asking is not None and asking.stop_prompt(stop):
        return  # the prompt that was up ends with it
    raise stop


def _interrupted(exc: KeyboardInterrupt, left: bool = False) -> tuple[str, int]:
    """How a command stopped by Ctrl-C, SIGTERM or SIGHUP (Terminated) says so, and its exit
    code: the signal's own (130; 143, 129), but 0 for a person's Ctrl-C at a game (``left``:
    they left the game, as by quit): a game between bots, or whose moves a script gives,
    stopped by Ctrl-C exited 0 as if it had ended as asked."""
    from kabucli.errors import Terminated

    if isinstance(exc, Terminated):
        return f"stopped ({exc.signal_name})", exc.exit_code
    return "stopped (Ctrl-C)", 0 if left else 130


def _terminal_gone() -> None:
    """After SIGHUP, the standard streams that were the terminal (which is gone) are /dev/null:
    writing to them failed (EIO), and the prompt's own tidying up as the game stopped printed
    tracebacks (into a stderr sent to a file). Streams that are files or pipes are kept. (A
    terminal that hung up is no longer a terminal to isatty: any character device is taken.)"""
    import stat

    for fd in (0, 1, 2):
        with contextlib.suppress(OSError):
            if stat.S_ISCHR(os.fstat(fd).st_mode):
                to_null(fd)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _json_on_failure(command: Callable[_P, _R]) -> Callable[_P, _R]:
    """A command whose ``--json`` (``as_json``) gets one JSON document even when it fails
    before it printed any (see :func:`_json_errors`)."""
    @wraps(command)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with _json_errors(bool(kwargs.get("as_json"))):
            return command(*args, **kwargs)
    return run


def _markdown(out: Console, text: str) -> None:
    """Markdown drawn for a person at a terminal, printed as it is otherwise (piped)."""
    if out.is_terminal:
        from kabucli.render.fit import markdown

        out.print(markdown(text))
    else:
        out.print(text, markup=False, highlight=False, emoji=False, soft_wrap=True,
                  end="" if text.endswith("\n") else "\n")


def _events(n: int) -> str:
    return counted(n, "event", "events")


def _escape(text: str) -> str:
    """Text for a rich markup string: no markup, and nothing a terminal would act on (names,
    moves and messages may quote a log, a bot or a script)."""
    from rich.markup import escape

    from kabucli.safetext import safe_text

    return escape(safe_text(text))


def _game(name: str) -> Game:
    from kabucli import games
    from kabucli.errors import KabuError

    try:
        return games.get(name)
    except KabuError as exc:
        fail(str(exc))


def _rules(game: Game, pairs: list[str], file: Path | None) -> Any:
    from kabucli import games
    from kabucli.errors import KabuError, RulesFileError
    from kabucli.rules import build

    try:
        return build(game.Rules, pairs, _named(file, "--rules-file", "a file"), game.name,
                     games.names(), lambda name: games.get(name).Rules)
    except RulesFileError as exc:
        fail(str(exc), EXIT_UNREADABLE)
    except KabuError as exc:
        fail(str(exc))


def _named(name: Path | str | None, option: str, what: str) -> Path | None:
    """A path option's value as a Path (None when not given); an empty name, which Path
    would take for the current folder, is refused."""
    if name is None:
        return None
    if not str(name):
        fail(f"{option}: the name is empty; name {what}")
    return Path(name)


def _log_named(name: Path | str) -> Path:
    """A log to read, as typed (``path_type=str``): an empty name, which Path would take for
    the current folder ('.: is a directory'), is refused in audit's words."""
    if not str(name):
        fail("'': the name is empty, not a log file", EXIT_UNREADABLE)
    return Path(name)


def _file_named(name: Path | str, option: str) -> Path:
    """A file to write, as typed (``path_type=str``), checked as :func:`_named` does; and a
    name that ends with a slash names a folder (Path would drop the slash and write a file
    of the folder's name)."""
    path = _named(name, option, "a file")
    assert path is not None
    text = str(name)
    if text.endswith(("/", os.sep)):
        fail(f"{text} names a folder: name a file")
    if len(os.fsencode(os.path.basename(text))) > 255:
        fail(f"{text[:60]}...: a file name is at most 255 bytes")
    if os.path.isdir(text):  # (before "exists; add --force", which cannot replace a folder)
        fail(f"{text} is a folder: name a file")
    return path


def _file_opt(name: Path | str | None, option: str) -> Path | None:
    """An option's file to write (``path_type=str``), checked as :func:`_file_named`."""
    return None if name is None else _file_named(name, option)


def _seed(text: str | None) -> int | None:
    from kabucli.errors import KabuError
    from kabucli.shuffle import parse_seed

    if text is None:
        return None
    try:
        return parse_seed(text)
    except KabuError as exc:
        fail(str(exc))


GameArg = Annotated[str, typer.Argument(metavar="GAME", help=f"The game: {', '.join(GAMES)}.",
                                        autocompletion=complete_game)]
SeedOpt = Annotated[str | None, typer.Option("--seed", "-s", metavar="N",
                                             help="Seed of the shuffle (0 to 2**64-1); random "
                                                  "when left out.")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-n", metavar="N",
                                                help="Number of players.",
                                                autocompletion=complete_players)]
RuleOpt = Annotated[list[str] | None, typer.Option("--rule", "-r", metavar="NAME=VALUE",
                                                   help="Set a house rule (repeatable).",
                                                   autocompletion=complete_rule)]
# path_type=str: the name as typed (typer makes "" the Path "."), made a Path by _named
RulesFileOpt = Annotated[Path | None, typer.Option("--rules-file", metavar="FILE", path_type=str,
                                                   autocompletion=complete_path,
                                                   help="House rules from a TOML file (top "
                                                        "level or a [GAME] table).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


def _seconds(value: str | float) -> float:
    """--timeout: a number of seconds 0.001-86400, read as KABUCLI_BOT_TIMEOUT is
    (:func:`kabucli.bots.external.seconds`), refused quoting what was typed: the number
    parsed said 'inf' for 1e400 and '0' for 1e-400."""
    if isinstance(value, float):  # (already a number)
        return value
    from kabucli.bots.external import seconds

    parsed = seconds(value)
    if parsed is None:
        from kabucli.safetext import quoted  # (cut: a word may be 100 KB long)

        raise typer.BadParameter(f"{quoted(value)} is not a number of seconds from 0.001 to "
                                 "86400")
    return parsed


TimeoutOpt = Annotated[float | None, typer.Option(
    "--timeout", metavar="SECONDS", parser=_seconds,
    help="Seconds (0.001-86400) a cmd: or py: bot has for each answer (default: "
         "KABUCLI_BOT_TIMEOUT, else 10).")]


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While a game runs, SIGTERM (``kill``, a machine shutting down) raises Terminated, which
    the game stops on as on Ctrl-C (see :func:`_interrupted`): its log closed whole, a game between
    bots keeping the inputs it had not yet written, and one line naming the log. SIGHUP (the
    terminal closed, an ssh connection lost: it ended the program outright, and a game between
    bots lost what it had not yet written) raises HungUp, one, alike. Any such signal after the
    first is dropped (it would cut the stop short), and so is a Ctrl-C after it until the game
    has stopped. A signal the program was started ignoring (SIGHUP under nohup) stays ignored;
    off the main thread (which alone takes signals) nothing changes."""
    import signal
    import threading

    from kabucli.entry import dropped as _dropped

    taken = [sig for sig in (signal.SIGTERM, signal.SIGHUP)
             if signal.getsignal(sig) is not signal.SIG_IGN]
    if threading.current_thread() is not threading.main_thread() or not taken:
        yield
        return

    held: list[Any] = []  # Ctrl-C's handler, while a Ctrl-C is dropped

    def stop(signum: int, frame: Any) -> None:
        for sig in taken:
            signal.signal(sig, _dropped)
        # a Ctrl-C as the game stops would cut short the closing of its log and the line
        # that names it (it said only 'aborted'): dropped too, as kabucli sim drops it
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            held.append(signal.signal(signal.SIGINT, _dropped))
        _stopped_by(signum)

    before = [(sig, signal.signal(sig, stop)) for sig in taken]
    try:
        yield
    finally:
        for sig, handler in before:
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        if held and signal.getsignal(signal.SIGINT) is _dropped:
            signal.signal(signal.SIGINT, signal.SIG_DFL if held[0] is None else held[0])


class _Batch:
    """Renderables printed together (a replay's event lines and tables, audit's lines of valid
    logs, markup strings): when there are ``most`` or ``every`` seconds went by since the last
    print, and at :meth:`flush`; ``how``: the print's options. rich's cost is per print: a long
    log's text replay spent a third of its time setting up prints of one line each (a
    21,000-event Uno Dare log, 3.4 s of printing against 2.2)."""

    def __init__(self, out: Console, most: int = 256, every: float = 0.2, **how: Any) -> None:
        self.out = out
        self.most = most
        self.every = every
        self.how = how
        self.items: list[Any] = []
        self.last = time.monotonic()

    def add(self, renderable: Any) -> None:
        self.items.append(renderable)
        if len(self.items) >= self.most or time.monotonic() - self.last > self.every:
            self.flush()

    def flush(self) -> None:
        if self.items:
            from rich.console import Group

            self.out.print(Group(*self.items), **self.how)
            self.items.clear()
        self.last = time.monotonic()


# A bar shows for a long read only: one that has taken this long (seconds) at a terminal
BAR_AFTER = 0.5


@contextlib.contextmanager
def _long_work(what: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr for reading or walking a big log: the callback to tell it
    (done, total) with, or None when stderr is no terminal. The bar shows once the work has
    taken BAR_AFTER seconds (a short log shows none) and is gone when it ends."""
    err = _console(stderr=True)
    if not err.is_terminal:
        yield None
        return
    from rich.cells import cell_len, set_cell_size
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

    began = time.monotonic()
    bar: list[Any] = []  # the Progress and its task, once shown
    # a long name (a log's path) is cut to leave the bar (40 columns) and the percentage
    # their room: else rich squeezes them out of the line, and the bar shows no progress
    room = max(10, err.width - 46)  # (in the terminal's cells: a CJK character takes two)
    if cell_len(what) > room:
        what = set_cell_size(what, room - 1) + "…"

    def tell(done: int, total: int) -> None:
        if not bar:
            if time.monotonic() - began < BAR_AFTER:
                return
            progress = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                                TaskProgressColumn(), console=err, transient=True)
            bar.extend((progress, progress.add_task(what, total=total, completed=done)))
            progress.start()
        bar[0].update(bar[1], completed=done, total=total)

    try:
        yield tell
    finally:
        if bar:
            bar[0].stop()
