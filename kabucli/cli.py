"""The command line: thin Typer commands over the library.

Each command tidies its arguments, calls the library, and draws the result. Library errors
become one line on stderr and a non-zero exit code, never a traceback. Heavy imports happen
inside the commands so that ``kabucli --help`` starts fast.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, ParamSpec, TypeVar

import typer
from typer.core import TyperArgument, TyperOption

from kabucli.completion import (
    COMPLETE_VAR,
    SHELLS,
    complete_backend,
    complete_bot_kind,
    complete_builtin_bot,
    complete_encoding,
    complete_format,
    complete_game,
    complete_path,
    complete_players,
    complete_program_bot,
    complete_rule,
    complete_seat_bot,
    complete_shell,
    complete_solver_game,
    script,
)
from kabucli.figures import counted, elo_pm, shares, signed
from kabucli.registry import GAMES

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console
    from rich.text import Text

    from kabucli.engine import Game, Match, Violation
    from kabucli.events import Event
    from kabucli.log import SeatInfo
    from kabucli.session import Session

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
MAX_SCRIPT_BYTES = 16 * 2**20  # the largest move script read (about a million moves)


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
    from rich.console import Console

    # Messages on stderr are single lines that must not be folded at the terminal width.
    # NO_COLOR (no-color.org) means no escapes at all: rich alone would still send bold/dim.
    plain = bool(os.environ.get("NO_COLOR"))
    return Console(stderr=stderr, highlight=False, soft_wrap=stderr,
                   color_system=None if plain else "auto")


def fail(message: str, code: int = 1) -> NoReturn:
    """Print one error line on stderr and exit with ``code``."""
    _FAILED[:] = [message]
    _console(stderr=True).print(f"[bold red]error:[/] {_escape(message)}")
    raise typer.Exit(code)


QUIT_WORDS = ("quit", "q", "exit")  # leave the game, at every prompt of play

_FAILED: list[str] = []  # the message of the last fail()
_SAID_JSON = [False]  # whether a command printed JSON (by _dumps)


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


def _said(out: Console, text: str, head: str = "", style: str = "") -> None:
    """A line the prompt answers with (a refusal: ``head`` 'refused: ' in ``style``): for a
    person at a terminal, broken between words at its width, the lines after the first under
    the words after ``head``; elsewhere (piped, TERM=dumb, or on stderr, as beside --json's
    document, where a program may read it) one line, as every message, whatever its length.
    The terminal broke such a line at its last column, mid-word ('type the c|ard')."""
    if out.is_terminal and not out.is_dumb_terminal and not out.stderr:
        from kabucli.render import Hanging
        from kabucli.safetext import safe_text

        line = Hanging(len(head))
        line.append(head, style=style)
        line.append(safe_text(text))
        out.print(line)
    else:
        lead = f"[{style}]{_escape(head)}[/]" if head and style else _escape(head)
        out.print(lead + _escape(text), soft_wrap=True)


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


# -- rules -------------------------------------------------------------------------------

@app.command()
@_json_on_failure
def rules(
    game: Annotated[str | None, typer.Argument(metavar="GAME",
                                               help="A game to explain; all games if left "
                                                     "out.", autocompletion=complete_game)] = None,
    as_json: JsonOpt = False,
) -> None:
    """List the games, or explain one: its rules, move notation and house rules."""
    from rich.table import Table

    from kabucli import bots, games
    from kabucli.render import rule_value
    from kabucli.render.fit import fit
    from kabucli.rules import describe

    out = _console()
    if game is None:
        if as_json:
            data = [{"name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
                     "deck": g.deck.name, "summary": g.summary}
                    for g in (games.get(n) for n in games.names())]
            print(_dumps(data, indent=2))
            return
        t = Table(title="kabucli games", title_justify="left")
        for col in ("game", "players", "deck", "what it is"):
            t.add_column(col)
        for name in games.names():
            g = games.get(name)
            t.add_row(g.name, f"{g.min_players}-{g.max_players}", g.deck.title, g.summary)
        out.print(fit(t))
        out.print("Explain one with [bold]kabucli rules GAME[/].")
        return
    g = _game(game)
    infos = describe(g.Rules)
    kinds = {**bots.about(g.name), **bots.EXTERNAL_ABOUT}
    if as_json:
        print(_dumps({
            "name": g.name, "title": g.title, "players": [g.min_players, g.max_players],
            "rules": games.page(g.name), "notation": games.notation(g.name),
            "house_rules": [{"name": i.name, "type": i.kind, "default": i.default,
                             "help": i.help} for i in infos],
            "bots": [{"kind": k, "about": a} for k, a in kinds.items()]}, indent=2))
        return
    _markdown(out, games.page(g.name))
    out.print()
    t = Table(title="House rules (--rule NAME=VALUE)", title_justify="left")
    t.add_column("name", style="bold")
    t.add_column("values")
    t.add_column("default")
    t.add_column("what it does")
    for i in infos:
        t.add_row(i.name, i.kind, rule_value(i.default), i.help)
    out.print(fit(t))
    t = Table(title="Bots (play --bot SEAT=KIND, sim --bot KIND)", title_justify="left")
    t.add_column("kind", style="bold")
    t.add_column("what it does")
    for kind, what in kinds.items():
        t.add_row(_escape(kind), _escape(what))
    out.print(fit(t))


# -- deal --------------------------------------------------------------------------------

@app.command()
@_json_on_failure
def deal(
    game: GameArg,
    seed: SeedOpt = None,
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the first deal of a seeded game."""
    from kabucli import render
    from kabucli.errors import KabuError
    from kabucli.session import build_seats, random_seed, start

    g = _game(game)
    r = _rules(g, rule or [], rules_file)
    s = _seed(seed)
    try:
        seats = build_seats(g, players, [], [])
        sess = start(g, r, seats, s if s is not None else random_seed(), None, None)
        sess.match.advance()
    except KabuError as exc:
        fail(str(exc))
    m = sess.match
    if as_json:
        print(_dumps({"seed": m.seed, "state": g.view(m.state)}, indent=2))
        return
    out = _console()
    out.print(f"[dim]seed {m.seed}[/]")
    out.print(render.table(g, m))


# -- play --------------------------------------------------------------------------------

@app.command()
@_json_on_failure
def play(
    game: GameArg,
    seed: SeedOpt = None,
    players: PlayersOpt = None,
    player: Annotated[list[str] | None, typer.Option(
        "--player", "-p", metavar="[SEAT=]NAME",
        help="Name a seat, e.g. 3=Bob; a NAME alone names the lowest seat not named yet "
             "(repeatable). The name may be typed in place of pN.")] = None,
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", metavar="SEAT=KIND",
        help="Make a seat a bot, e.g. 2=random, or all=best for every seat (repeatable). "
             "Without --players, the highest seat --player or --bot names is the last "
             "(too few for the game: its usual number).",
        autocompletion=complete_seat_bot)] = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    log: Annotated[Path | None, typer.Option(
        "--log", "-l", metavar="FILE", path_type=str, autocompletion=complete_path,
        help="Write the event log here (.jsonl, .ndjson or .json for JSON Lines, else "
             "msgpack). Default: GAME-DATE-TIME.kbl in the current folder.")] = None,
    no_log: Annotated[bool, typer.Option("--no-log", help="Write no log.")] = False,
    script: Annotated[str | None, typer.Option(
        "--script", metavar="FILE", autocompletion=complete_path,
        help="Read the moves from FILE ('-' for standard "
                                         "input) instead of asking.")] = None,
    physical: Annotated[bool, typer.Option(
        "--physical", help="Referee a real table: deal nothing, learn cards as they are "
                           "shown.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Show only the result.")] = False,
    commit: Annotated[bool, typer.Option(
        "--commit", help="Print the seed's commitment before any card is dealt, to write "
                         "down; kabucli audit later checks the seed in the log against "
                         "it. (With a person at a seat the seed is never shown before the "
                         "match ends; then it is, checked against the commitment.)")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Play a game: interactive by default, or from a script; bots fill any seats."""
    from kabucli.errors import KabuError
    from kabucli.log import format_for
    from kabucli.session import build_seats, default_log_path, random_seed, start

    g = _game(game)
    r = _rules(g, rule or [], rules_file)
    s = _seed(seed)
    if physical and s is not None:
        fail("--physical deals nothing, so it takes no --seed")
    if physical and bot:
        fail("bots need cards the program dealt: --bot cannot be used with --physical")
    if physical and commit:
        fail("--physical deals nothing, so it has no seed to commit to (--commit)")
    if no_log and log is not None:
        fail(f"--no-log writes no log, yet --log names one ({log}): give one "
             "of the two")
    moves = _read_script(script)
    typed = s  # (the seed the person gave, if any)
    try:
        seats = build_seats(g, players, player or [], bot or [])
        if not physical and s is None:
            s = random_seed()
        path = None if no_log else (_file_opt(log, "--log") or default_log_path(g, "msgpack"))
        humans = any(x.control == "human" for x in seats)
        sess = start(g, r, seats, None if physical else s, path,
                     format_for(path) if path else None, durable=humans or physical,
                     commit=commit)
    except KabuError as exc:
        fail(str(exc))
    if typed is not None and sess.seed_secret() and not (quiet or as_json):
        # the seed deals every card: whoever typed it can work out the hidden cards from it
        _console().print(
            "[dim]note: the seed you gave deals every card, so the hidden cards can be worked "
            "out from it; leave --seed out for a deal nobody knows in advance[/]",
            soft_wrap=True)
    if commit:  # before anything is dealt: the first event comes in _drive
        line = f"seed commitment: {sess.match.header.commit}"
        if as_json:
            _console(stderr=True).print(line, soft_wrap=True)
        else:
            when = ("the seed is shown when the match ends, checked against it; "
                    if sess.seed_secret() else "")
            _console().print(f"[bold]{line}[/] (write it down: {when}kabucli audit LOG "
                             "--commit HEX checks the seed the log reveals against it)",
                             soft_wrap=True)
    _drive(sess, moves, quiet, as_json)


@app.command()
@_json_on_failure
def resume(
    log: Annotated[Path, typer.Argument(metavar="LOG", help="The log of an unfinished game.",
                                        path_type=str, autocompletion=complete_path)],
    bot: Annotated[list[str] | None, typer.Option(
        "--bot", "-b", metavar="SEAT=KIND", autocompletion=complete_program_bot,
        help="The program or Python class of a seat the log says is a bot of your own, "
             "e.g. 2=cmd:COMMAND (the log's own is never started).")] = None,
    script: Annotated[str | None, typer.Option("--script", metavar="FILE",
                                               autocompletion=complete_path,
                                               help="Read the moves from FILE or '-'.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Show only the result.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Go on with a game from its log (after a crash or a quit); appends to the same log."""
    from kabucli.errors import KabuError, LogError
    from kabucli.safetext import safe_text
    from kabucli.session import resume as do_resume

    log = _log_named(log)
    moves = _read_script(script)
    try:
        with _long_work(f"resuming {safe_text(str(log))}") as progress:
            sess, torn = do_resume(log, bot or [], progress=progress)
    except LogError as exc:
        fail(str(exc), EXIT_UNREADABLE)
    except KabuError as exc:
        msg = str(exc)
        fail(msg if msg.startswith(str(log)) else f"{log}: {msg}")
    err = _console(stderr=True)
    writer = sess.match.writer
    if torn is not None and writer is not None:
        err.print(f"[yellow]warning:[/] {_escape(str(torn))}; this torn last record was moved "
                  f"to {_escape(str(writer.torn_file))} and play goes on after event "
                  f"{sess.match.logged}")
    if sess.match.over:
        fail(f"{log}: the game in this log is already over")
    _drive(sess, moves, quiet, as_json)


def _read_script(script: str | None) -> tuple[str, Iterator[tuple[int, str]]] | None:
    """The name and numbered lines of a move script (None: ask at the prompt). Read before
    the game starts, so an unreadable script stops everything and leaves no log behind."""
    from kabucli.files import read_bytes, size_text
    from kabucli.session import script_lines

    if script is None:
        return None
    try:
        if script == "-":  # standard input may never end either: read as much as a file
            text = sys.stdin.read(MAX_SCRIPT_BYTES + 1)
            if len(text) > MAX_SCRIPT_BYTES:
                fail(f"cannot read script -: larger than {size_text(MAX_SCRIPT_BYTES)}, the "
                     "most kabucli reads from such a file", EXIT_UNREADABLE)
        else:
            text = read_bytes(script, MAX_SCRIPT_BYTES).decode()
    except OSError as exc:
        fail(f"cannot read script {script}: {exc.strerror}", EXIT_UNREADABLE)
    except UnicodeDecodeError:
        fail(f"script {script} is not text", EXIT_UNREADABLE)
    return ("standard input" if script == "-" else script), script_lines(text)


def _drive(sess: Session, moves: tuple[str, Iterator[tuple[int, str]]] | None, quiet: bool,
           as_json: bool) -> None:
    """Run a session to the end: bots move, people type, every step is drawn and logged.
    A log that cannot be written (a full disk) stops the game in one line, the log kept
    whole before the input that could not be written, for ``kabucli resume``."""
    from kabucli.errors import LogFullError, LogWriteError, Terminated

    try:
        with _sigterm_stops():
            try:
                _drive_on(sess, moves, quiet, as_json)
            except Terminated as exc:  # SIGTERM where the game's loop does not take it: as
                # it starts (before the first prompt or bot), or once it is over, as its log
                # is closed or its result printed (a result cut short: no second JSON one)
                why, code = _interrupted(exc)
                _stop(sess, why, code, as_json and not _SAID_JSON[0], reread=True)
    except LogWriteError as exc:
        saved = exc.saved if isinstance(exc.saved, Path) else None
        _stop(sess, str(exc), EXIT_UNREADABLE, as_json, saved,
              resumable=not isinstance(exc, LogFullError))


@contextlib.contextmanager
def _sigterm_stops() -> Iterator[None]:
    """While a game runs, SIGTERM (``kill``, a machine shutting down) raises Terminated, which
    the game stops on as on Ctrl-C (see _interrupted): its log closed whole, a game between
    bots keeping the inputs it had not yet written, and one line naming the log. Any SIGTERM
    after the first is dropped (it would cut the stop short), and so is a Ctrl-C after it
    until the game has stopped. A SIGTERM the program was started ignoring stays ignored;
    off the main thread (which alone takes signals) nothing changes."""
    import signal
    import threading

    from kabucli.entry import dropped as _dropped
    from kabucli.errors import Terminated

    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGTERM) is signal.SIG_IGN):
        yield
        return

    held: list[Any] = []  # Ctrl-C's handler, while a Ctrl-C is dropped

    def stop(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, _dropped)
        # a Ctrl-C as the game stops would cut short the closing of its log and the line
        # that names it (it said only 'aborted'): dropped too, as kabucli sim drops it
        if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
            held.append(signal.signal(signal.SIGINT, _dropped))
        raise Terminated

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if before is None else before)
        if held and signal.getsignal(signal.SIGINT) is _dropped:
            signal.signal(signal.SIGINT, signal.SIG_DFL if held[0] is None else held[0])


def _interrupted(exc: KeyboardInterrupt) -> tuple[str, int]:
    """How a game stopped by Ctrl-C or SIGTERM (Terminated) says so, and its exit code: 0 for
    a person's Ctrl-C (they left the game), 143 for SIGTERM (as the signal's own)."""
    from kabucli.errors import Terminated

    return ("stopped (SIGTERM)", 143) if isinstance(exc, Terminated) else ("stopped (Ctrl-C)", 0)


def _drive_on(sess: Session, moves: tuple[str, Iterator[tuple[int, str]]] | None, quiet: bool,
              as_json: bool) -> None:
    from kabucli import render
    from kabucli.errors import KabuError, LogWriteError
    from kabucli.notation import MAX_LINE
    from kabucli.session import PUBLIC, without_note

    g = sess.game
    m = sess.match
    # With --json, stdout holds only the JSON; prompts and replies go to stderr.
    out = _console(stderr=as_json)
    show = not (quiet or as_json)
    if not sess.humans and not show:  # (as kabucli sim plays; drawn, an event's line is
        sess.drop_events()  # worked out from the events before it: render.event_line)
    source, lines = moves if moves is not None else ("stdin", None)
    # A person at a seat of a seeded game is not shown the seed until the match ends: with it
    # (the shuffle is public and fixed) every hidden card can be worked out. Bots alone, or a
    # real table (no seed), are shown it at once.
    secret = sess.seed_secret()
    if show:
        where = f"log: {sess.log_path}" if sess.log_path else "no log"
        seed = ("seed shown at the end · " if secret else f"seed {m.seed} · "
                if m.seed is not None else "referee mode · ")
        out.print(f"[dim]{g.title} · {seed}{_escape(where)}[/]", soft_wrap=True)
    last_table = -1
    # Several people at one screen (a hot seat) with cards the program holds: before the
    # table is drawn for another person, the screen is cleared and passed on (see
    # _pass_screen). The event lines drawn since a person last had the screen are drawn again
    # for them once it is cleared.
    hot = lines is None and sess.hot_seat()
    screen: int | None = None  # the person the screen was last shown to
    told: list[Text] = []  # (hot seat) every event line drawn
    seen: dict[int, int] = {}  # (hot seat) how many of them each person had on the screen
    if hot and sess.past:  # resumed: the log's events are drawn again as missed (below)
        told, seen = _told_before(sess)
    elif show and sess.past:  # resumed: where the log left off, as the game drew it then
        out.print(f"[dim]resumed after event {len(sess.past)}:[/]")
        out.print(_resumed_line(sess))

    def on_event(index: int, ev: Event) -> None:
        # Each event is drawn as it is recorded, against the state right after it.
        line = render.event_line(g, index, ev, m)
        out.print(line)
        if hot:
            told.append(line)
        if not sess.humans and render.is_milestone(g, ev) and not m.over:
            out.print(render.table(g, m))

    if show:
        m.on_event = on_event
    # At the prompt a move the game asks about is confirmed first, and a game that is over
    # may still be taken back; a script's moves are deliberate.
    interactive = lines is None and bool(sess.humans)
    ask = _asker(sess, out)
    try:
        while True:
            try:
                sess.run_bots()
            except LogWriteError:
                raise
            except KabuError as exc:
                _stop(sess, str(exc), 1, as_json)
            if m.over:
                if interactive and _undo_at_end(sess, out):
                    continue
                break
            if hot:
                if screen is not None:
                    seen[screen] = len(told)
                to = sess.pass_screen(screen)
                if to is not None:
                    if _pass_screen(sess, out, to, as_json):  # cleared: what they missed
                        # (everyone's screen: the table says what is awaited, and each
                        # person is shown what they missed once the screen is theirs)
                        start = len(told) if to == PUBLIC else seen.get(to, 0)
                        for told_line in told[start:]:
                            out.print(told_line)
                    last_table = -1
                now = sess.viewer()
                screen = screen if now is None else now
            if show and (lines is None or m.physical) and last_table != m.logged:
                out.print(render.table(g, m, sess.viewer()))
                if hot and sess.viewer() == PUBLIC:
                    out.print(_look_hint(sess))  # (wrapped between words)
                last_table = m.logged
            p = m.pending
            if lines is None:  # the seats named as the table names them (p1 Ann)
                who = render.seats_named(m, sess.prompt_seats())
                what = render.seats_named(m, render.prompt_what(g, m, sess.people_asked()))
                # 'p1 Ann (to lay ...)', said once; also where the game's words go on after
                # a comma ('p2, hit by dare #4, to try it ...')
                for after in (" ", ", "):
                    if who and what.startswith(who + after):
                        what = what[len(who) + len(after):]
                        break
                typed = _typed(sess, out, as_json, partial(ask, who, what))
                # '# ...' to the end of the line is a note, as in a script (the rules pages'
                # examples are written so); a line that is only a note is no move at all
                line = without_note(typed)
                if not line and "#" in typed:
                    continue
                number = 0
            else:
                try:
                    number, line = next(lines)
                except StopIteration:
                    script = "on standard input" if source == "standard input" else source
                    waits = render.seats_named(m, p.what)  # (p1 Ann, as the table names it)
                    _stop(sess, f"the script {script} ended; the game waits for {waits}", 0,
                          as_json)
            reply = (_command(sess, line, out, told if hot else None) if len(line) <= MAX_LINE
                     else None)
            if reply == "quit":
                _stop(sess, "left the game", 0, as_json)
            if reply is not None:
                continue
            try:
                looked = sess.look_seat(line, lines is None)  # (no move: nothing recorded)
                if looked is not None:
                    if _look(sess, out, looked, as_json, told[seen.get(looked, 0):]):
                        seen[looked] = len(told)
                    last_table = -1  # (the shared table again)
                    continue
                if sess.submit_line(line, partial(_yes, out) if interactive else None) is None:
                    out.print("not played")
            except LogWriteError:
                raise
            except KabuError as exc:
                why = render.refusal_named(m, str(exc), line)  # p1 Ann, as the table says
                if lines is None:
                    # a move for later ('waiting for the deal, not for ...'): and what now
                    why += render.what_now(g, m, str(exc))
                    _said(out, why, "refused: ", "red")
                    continue
                _stop(sess, f"{source}:{number}: {_line_shown(line)}: {why}", 1, as_json)
    except KeyboardInterrupt as exc:  # Ctrl-C (or SIGTERM) while a move is played or bots
        # play (at the prompt: _typed), said as there: else typer makes it a silent exit 130,
        # the log unnamed (the log counted as read back: a Ctrl-C during an input's fsync
        # leaves it written, though the match never took it in)
        why, code = _interrupted(exc)
        _stop(sess, why, code, as_json, reread=True)
    finally:
        sess.close()
    unplayed = _unplayed(source, lines)
    if as_json:
        print(_dumps(_play_doc(sess), indent=2))
    else:
        out.print(render.outcome_panel(g, m))
        if secret and m.over:  # now it gives nothing away: the game can be dealt again
            out.print(_seed_revealed(m), soft_wrap=True)
        if sess.log_path is not None:
            out.print(f"[dim]log: {_escape(str(sess.log_path))} ({_events(m.logged)})[/]",
                      soft_wrap=True)
    if unplayed is not None:  # (on stderr, as every word beside --json's document)
        _console(stderr=True).print(f"[yellow]note:[/] {_escape(unplayed)}", soft_wrap=True)


def _resumed_line(sess: Session) -> Text:
    """The line of the last event of a resumed game's log, as the game drew it; an undo as
    replay draws it, with what it took back (the move last recorded before it), hidden from
    the person playing as at the prompt: 'undo' alone said nothing of where the game was."""
    from kabucli import render
    from kabucli.engine import walk
    from kabucli.events import Undo

    g, m, last = sess.game, sess.match, sess.past[-1]
    taken: list[tuple[int, Event]] | None = None
    if type(last) is Undo:  # (what it took back: the log walked again, as replay does)
        takebacks = render.Takebacks()
        steps: list[list[tuple[int, Event]] | None] = []
        walk(g, m.header, sess.past,
             lambda index, ev, after: steps.append(takebacks.step(index, ev, after)))
        taken = steps[-1]
    return render.event_line(g, len(sess.past), last, m, sess.viewer(), taken=taken)


def _told_before(sess: Session) -> tuple[list[Text], dict[int, int]]:
    """A resumed hot seat: the lines of the events its log held (as the game drew them) and,
    for each person, how many of them they are taken to have seen: those up to their own last
    move (after it the screen may have gone on to another person; who had it when the game
    was left is not in the log). So a person given the screen after the resume is shown what
    happened since their last move, as they would have been had the game not been left."""
    from kabucli import render
    from kabucli.engine import walk

    g = sess.game
    told: list[Text] = []
    walk(g, sess.match.header, sess.past,
         lambda index, ev, m: told.append(render.event_line(g, index, ev, m)))
    seats = {f"p{s}": s for s in sess.humans}
    seen: dict[int, int] = {}
    for index, ev in enumerate(sess.past, start=1):
        seat = seats.get(g.actor(ev))
        if seat is not None:
            seen[seat] = index
    return told, seen


def _unplayed(source: str, lines: Iterator[tuple[int, str]] | None) -> str | None:
    """What a script holds after the match ended, not played (None: nothing): its first such
    move and how many follow it. A note, not an error: a script of more passes than a game
    needs is a way to play one through; but a script meant for another seed, or a line
    typed twice, is seen so. A quit ends what is not played (what follows it would never
    be: a script may end with one to be sure it stops)."""
    if lines is None:
        return None
    rest: list[tuple[int, str]] = []
    for number, line in lines:
        if line.strip().lower() in QUIT_WORDS:  # (as the prompt reads it: _command)
            break
        rest.append((number, line))
    if not rest:
        return None
    number, line = rest[0]
    more = len(rest) - 1
    after = f" and the {counted(more, 'move', 'moves')} after it were" if more else " was"
    return (f"{source}:{number}: {_line_shown(line)}: the match is over: this move{after} "
            "not played")


def _line_shown(line: str) -> str:
    """A script's line as a message about it quotes it: its first 100 characters (a long
    line, cut: '…' says so)."""
    return repr(line[:100]) + ("…" if len(line) > 100 else "")


def _play_doc(sess: Session, stopped: str | None = None) -> dict[str, Any]:
    """``play --json``'s document: the seed (not while it is kept from the people at the
    table: an unfinished match), the log, the events and the outcome (none before the end);
    ``stopped``: why a match left unfinished stopped."""
    m = sess.match
    doc = {"seed": None if sess.seed_secret() and not m.over else m.seed,
           "log": str(sess.log_path) if sess.log_path else None,
           "events": m.logged, "outcome": m.outcome() if m.over else None}
    if stopped is not None:
        doc["stopped"] = stopped
    return doc


def _seed_revealed(m: Match) -> str:
    """The line that shows a seed kept from the people at the table until the match ended;
    with a commitment, that it is the one committed to."""
    from kabucli.compact import seed_commitment

    h = m.header
    line = f"seed {m.seed}"
    if h.commit is not None and h.salt is not None and m.seed is not None:
        ok = seed_commitment(m.seed, h.salt) == h.commit
        line += (f" (salt {h.salt}): it matches the commitment {h.commit[:16]}… printed "
                 "before the deal" if ok else " does NOT match the commitment printed before "
                 "the deal")
    return line


def _pass_screen(sess: Session, out: Console, seat: int, as_json: bool) -> bool:
    """Hot seat: clear the screen, hiding the hand the last person saw, and wait until the
    person in ``seat`` has it and presses Enter (``quit`` leaves the game, as at the prompt);
    whether the screen was cleared (a terminal: elsewhere nothing is on a screen to clear).
    A terminal that cannot clear (TERM=dumb) has its lines pushed up out of sight. ``seat``
    PUBLIC (several people may act at once): cleared, passed to nobody."""
    from kabucli.render import seat_label
    from kabucli.session import PUBLIC

    cleared = out.is_terminal
    if cleared and not out.is_dumb_terminal:  # the screen and the lines scrolled off it
        out.file.write("\x1b[H\x1b[2J\x1b[3J")
        out.file.flush()
    elif cleared:
        out.print("\n" * out.height, end="")
    if seat == PUBLIC:  # several may act at once (a race): nobody to wait for
        return cleared
    who = seat_label(sess.match, seat)
    _enter(sess, out, as_json, f"[bold]pass the screen to {_escape(who)}[/], then press Enter > ",
           f"press Enter once {who} has the screen")
    return cleared


def _look_hint(sess: Session) -> str:
    """The line that tells the people at a hot seat's PUBLIC screen how one of them sees their
    own hand (markup)."""
    from kabucli.session import LOOK, typed_names

    asked = sess.people_asked()
    seat = asked[0] if asked else 1
    names = [n for n, s in typed_names(sess.match.header.seats).items() if s == seat]
    name = f" or '{LOOK} {sess.match.seat_name(seat)}'" if names else ""
    return (f"[dim]every hand is hidden: to see your own alone, type {LOOK} and your seat, "
            f"e.g. '{LOOK} p{seat}'{_escape(name)}[/]")


def _enter(sess: Session, out: Console, as_json: bool, prompt: str, what: str) -> None:
    """Wait at ``prompt`` (markup) until Enter is pressed: ``quit`` leaves the game, as at the
    move prompt, and any other line is answered with ``what`` (plain text: what Enter does
    there; broken between words at a terminal, as a refusal, _said) and asked again; input
    that ends, Ctrl-C and SIGTERM stop the game (_typed)."""
    from kabucli.safetext import quoted

    while True:
        line = _typed(sess, out, as_json, lambda: out.input(prompt))
        word = line.strip().lower()
        if not word:
            return
        if word in QUIT_WORDS:
            _stop(sess, "left the game", 0, as_json)
        _said(out, f"{what}, or type quit (not {quoted(line.strip(), 40)})")


def _look(sess: Session, out: Console, seat: int, as_json: bool, missed: list[Text]) -> bool:
    """Hot seat, at the PUBLIC screen (every hand hidden while several people may act): the
    person in ``seat`` sees their own hand alone and hands the screen back. The screen is
    passed to them as between turns (_pass_screen), then ``missed`` (the event lines they
    have not had on the screen) and the table drawn for them; Enter clears it again, for the
    caller to draw the shared table. Nothing is played or recorded. Whether the screen was
    cleared (``missed`` is drawn only then: elsewhere it is still there)."""
    from kabucli import render
    from kabucli.session import PUBLIC

    cleared = _pass_screen(sess, out, seat, as_json)
    if cleared:
        for line in missed:
            out.print(line)
    out.print(render.table(sess.game, sess.match, seat))
    who = render.seat_label(sess.match, seat)
    _enter(sess, out, as_json, f"[bold]{_escape(who)}: press Enter to hide your hand[/] > ",
           f"press Enter to hide {who}'s hand (moves are typed at the shared screen after)")
    _pass_screen(sess, out, PUBLIC, as_json)
    return cleared


def _typed(sess: Session, out: Console, as_json: bool, read: Callable[[], str]) -> str:
    """A line typed at a prompt (``read`` asks for it); input that ends (end of file, Ctrl-C)
    or is not text stops the game."""
    try:
        return read()
    except EOFError:
        out.print()
        _stop(sess, "input ended", 0, as_json)
    except KeyboardInterrupt as exc:  # a person's Ctrl-C (or SIGTERM): said as such, not as
        out.print()  # input that ran out
        why, code = _interrupted(exc)
        _stop(sess, why, code, as_json)
    except UnicodeDecodeError:  # where the locale does not let Python escape it
        out.print()
        _stop(sess, "standard input is not text (UTF-8)", EXIT_UNREADABLE, as_json)


def _answered(out: Console, prompt: str) -> str | None:
    """The line typed at a question of the game's (``prompt``); None when input ends or for
    Ctrl-C, which the questions take as no. SIGTERM (Terminated) stops the game: raised, once
    the question's line is ended (see _sigterm_stops)."""
    from kabucli.errors import Terminated

    try:
        return out.input(prompt)
    except Terminated:  # (its line not after the question)
        out.print()
        raise
    except (EOFError, KeyboardInterrupt):
        out.print()
        return None


def _yes(out: Console, question: str) -> bool:
    """Ask a yes/no question at the prompt; anything but yes is no."""
    line = _answered(out, f"{_escape(question)} [dim]\\[y/N][/] ")
    return line is not None and line.strip().lower() in ("y", "yes")


# What the game-over prompt takes (its ? and help say so)
GAME_OVER_COMMANDS = {"undo": "take back your last move: the game goes on",
                      "table": "draw the table as the game ended",
                      "Enter": "finish (quit too)"}


def _undo_at_end(sess: Session, out: Console) -> bool:
    """Offer to take back the move that ended the game; True when something was taken back.
    An empty line or ``quit`` finishes; ``table`` draws the final table and ``?`` or
    ``help`` say what the prompt takes (GAME_OVER_COMMANDS), as at the move prompt; anything
    else but ``undo`` is answered and asked again (a move typed out of habit does not end
    the game unseen)."""
    from rich.text import Text

    from kabucli.render.fit import indented_pairs
    from kabucli.safetext import quoted

    while True:
        line = _answered(out, "[bold]game over[/] [dim](undo: take back your last move; "
                              "table; Enter: finish)[/] > ")
        if line is None:
            return False
        word = line.strip().lower()
        if not word or word in QUIT_WORDS:  # (a command, as at the move prompt)
            return False
        if word == "undo":
            return _command(sess, "undo", out) == "undone"
        if word in ("table", "t"):  # (at a hot seat, for the screen everyone shares then)
            _command(sess, "table", out)
            continue
        if word in ("?", "moves", "legal", "help", "h"):
            out.print("the game is over; what may be typed here:")
            out.print(indented_pairs(((Text(name), Text(what))
                                      for name, what in GAME_OVER_COMMANDS.items()), "bold"))
            continue
        _said(out, "type undo to take back your last move, table to see the final table, or "
                   f"press Enter to finish (not {quoted(line.strip(), 40)})", "the game is over: ")


def _asker(sess: Session, out: Console) -> Callable[[str, str], str]:
    """How the prompt reads a line: with a line editor (history, Tab completion) when a
    person is at a terminal, else as plain input, so scripts and pipes work as before. A
    terminal that takes no escape sequences (TERM=dumb: an editor's shell window) reads it
    plainly too: the editor moved the cursor, drew bold and dim, and hid and showed the
    cursor, with escape sequences such a terminal prints as text."""
    stream = sys.stderr if out.stderr else sys.stdout
    if sys.stdin.isatty() and stream.isatty() and not out.is_dumb_terminal:
        from kabucli.prompt import LineEditor

        plain = bool(os.environ.get("NO_COLOR"))
        if not sess.hot_seat():
            return LineEditor(sess, stream, plain).ask
        # Several people at one screen: Up recalls only the lines of the person the table is
        # drawn for, kept in memory (the game's history file would give one person's rows
        # or sets, typed before the screen was passed, to the next, or to a later game)
        from prompt_toolkit.history import InMemoryHistory

        editors: dict[int | None, LineEditor] = {}

        def ask_person(who: str, what: str) -> str:
            seat = sess.viewer()
            if seat not in editors:
                editors[seat] = LineEditor(sess, stream, plain, InMemoryHistory())
            return editors[seat].ask(who, what)

        return ask_person

    def ask(who: str, what: str) -> str:
        return out.input(f"[bold]{_escape(who)}[/] [dim]({_escape(what)})[/] > ")

    return ask


def _hidden_move(event: Event) -> str:
    """A move taken back that the person at the screen may not see, by whose it is."""
    seat = getattr(event, "seat", None)
    return f"p{seat}'s hidden move" if isinstance(seat, int) else "a hidden move"


def _command(sess: Session, line: str, out: Console, told: list[Text] | None = None) -> str | None:
    """Handle the table commands (?, undo, table, help, quit); None when ``line`` is a move.
    ``told`` (a hot seat's event lines): an undo adds the line the others are shown, who
    took back whose moves, none of them shown (they may be secret from the next person)."""
    from rich.text import Text

    from kabucli import games, render
    from kabucli.safetext import safe_text, shown_name
    from kabucli.session import typed_names

    word = line.strip().lower()
    g = sess.game
    m = sess.match
    if word in QUIT_WORDS:
        return "quit"
    if word in ("?", "moves", "legal"):
        texts = sess.legal_texts(people_only=True)  # (a bot seat's move is refused if typed)
        listed = sess.shown(texts)  # (at the PUBLIC screen: none that names a hand's card)
        if len(listed) < len(texts):
            out.print(f"{counted(len(listed), 'legal move', 'legal moves')} naming no card "
                      "(every hand is hidden while several people may act, and a play from "
                      "one is not listed):", soft_wrap=True)
            for t in listed:
                out.print(f"  {_escape(t)}")
            out.print(_look_hint(sess))  # (wrapped between words)
        elif texts:
            out.print(f"{counted(len(texts), 'legal move', 'legal moves')}:")
            shown = texts if len(texts) <= 40 else texts[:30]
            for t in shown:
                out.print(f"  {_escape(t)}")
            if len(shown) < len(texts):
                out.print(f"  ... and {len(texts) - len(shown)} more, not listed")
                out.print(f"to type: {_escape(render.hint_now(g, m))}")
        else:
            out.print(f"{_escape(render.seats_named(m, m.pending.what))}: "
                      f"{_escape(render.hint_now(g, m))}")
        return "handled"
    if word == "undo":
        from kabucli.errors import KabuError, LogWriteError

        inputs = [e for e in m.events if m.is_input(e)]
        viewer = sess.viewer()  # the person at the screen (at a hot seat, before the undo)
        try:
            n = sess.undo()
        except LogWriteError:
            raise
        except KabuError as exc:  # past the undos a game may have (engine.MAX_REPLAYED)
            _said(out, str(exc), "refused: ", "red")
            return "handled"
        if n == 0:
            out.print("nothing to take back")
            return "handled"
        # which moves, in notation; a move secret from the person at the screen (a bot's rows,
        # another person's at a hot seat) only as hidden
        taken = ", ".join(_hidden_move(e) if viewer is not None and g.hidden_from(e, viewer)
                          else g.notate(e) for e in inputs[-n:])
        out.print(Text(safe_text(f"took back {counted(n, 'move', 'moves')}: {taken}")))
        if told is not None:  # (an undo is no event line: the screen passed on, it was lost)
            whose = ", ".join(dict.fromkeys(f"p{getattr(e, 'seat', '?')}'s"
                                            for e in inputs[-n:]))
            who = f"p{viewer}" if viewer else "someone"  # (PUBLIC: one of several)
            told.append(Text(safe_text(render.seats_named(
                m, f"{who} typed undo: took back {counted(n, 'move', 'moves')} ({whose})"))))
        return "undone"
    if word in ("table", "t"):
        out.print(render.table(g, m, sess.viewer()))
        return "handled"
    if word in ("help", "h"):
        from rich.padding import Padding

        from kabucli.render.fit import indented_pairs

        # (at a real table, what the referee types there: see games.notation)
        _markdown(out, games.notation(g.name, m.physical))
        asked = sess.commands()  # (at a hot seat, look too)
        out.print(indented_pairs(((Text(safe_text(name)), Text(safe_text(what)))
                                  for name, what in asked.items()), "bold"))
        named = sorted(typed_names(m.header.seats).values())
        if named:
            seats = ", ".join(f"{shown_name(m.seat_name(s))} for p{s}" for s in named)
            out.print(Padding(Text(safe_text(f"a name may be typed in place of its seat: "
                                             f"{seats}")), (0, 0, 0, 2), expand=False))
        return "handled"
    # A game may answer questions of its own at the prompt (e.g. Yatchaba's odds).
    answer = games.command(g.name, m.state, line)
    if answer is not None:  # one or more lines, each shown as text; an indented line (a
        # list's: '  1. 3-7-10 ...') that does not fit goes on under its words, not at the
        # first column (Kabu-Tsukuri's best at 60 columns)
        from kabucli.render import Hanging, after_first_word

        for part in answer.split("\n"):
            text = safe_text(part)
            said = Hanging(after_first_word(text) if text != text.lstrip() else 0)
            said.append(text)
            out.print(said)
        return "handled"
    return None


def _stop(sess: Session, why: str, code: int, as_json: bool = False,
          saved: Path | None = None, resumable: bool = True, reread: bool = False) -> NoReturn:
    """End an unfinished session: say why, where the log is and the command that goes on
    (with ``as_json``, stdout has its JSON document too, the match unfinished: no outcome, and
    no seed while it is kept from the people at the table). ``saved``: where the log's
    records were saved when its name lost them (see LogWriter._check_place). Not
    ``resumable``: a log that holds the most kabucli reads back, which no resume goes on.
    ``reread``: the events the log holds are counted by reading it back (a write cut short
    by Ctrl-C may hold one the match does not)."""
    import shlex

    from kabucli.errors import LogWriteError
    from kabucli.log import EXTERNAL, LogWriter
    from kabucli.safetext import shell_path

    m = sess.match
    try:
        sess.close()
    except LogWriteError as exc:  # (the inputs a game between bots kept to write at the end)
        why, code = f"{why}; {exc}", EXIT_UNREADABLE
        if isinstance(exc.saved, Path):
            saved = exc.saved
    where = saved or sess.log_path
    if where is not None and code == EXIT_UNREADABLE and not where.exists():
        # (the log's name lost it and its records could not be saved: its folder moved or
        # deleted; the file it was may be elsewhere, but no log is kept at that name)
        why, where = f"{why}; no log is kept at {where}", None
    held = m.logged
    if where is not None and isinstance(m.writer, LogWriter) and (m.writer.unwritten or reread):
        # (a game between bots played on past what its log holds: count what it holds)
        held = _events_held(where, held)
    if as_json:  # (its log: where the records are, as the line below says)
        doc = _play_doc(sess, why)
        doc["log"] = None if where is None else str(where)
        if held != m.logged:  # (the match played on to its end past what its log holds)
            doc["events"], doc["outcome"] = held, None
        print(_dumps(doc, indent=2))
    kept = ""
    if where is not None:
        kept = f"; log kept: {where} ({_events(held)})"
        if not m.over and resumable:
            # the user's bots as this session runs them (resumed: those named again, never
            # a program the log names, which resume refuses to start)
            again = "".join(f" --bot {i}={shlex.quote(kind)}"
                            for i, kind in sorted(sess.kinds.items())
                            if kind.startswith(EXTERNAL))
            kept += f"; go on with: kabucli resume {shell_path(str(where))}{again}"
    if code and code != 143:
        fail(f"{why}{kept}", code)
    # (a person's choice, or SIGTERM's, said as such: no error, though SIGTERM's exit is its
    # own, as kabucli sim's)
    _console(stderr=True).print(f"{_escape(why)}{_escape(kept)}")
    raise typer.Exit(code)


def _events_held(path: Path, played: int) -> int:
    """The events the log at ``path`` holds, read back (``played``, the match's, if it
    cannot be read)."""
    from kabucli import games
    from kabucli.errors import KabuError
    from kabucli.log import read_log

    try:
        return len(read_log(path, games.event_types, strict=False).events)
    except (KabuError, OSError):
        return played


# -- replay and audit --------------------------------------------------------------------

def _read(path: Path, strict: bool = True) -> Any:
    from kabucli import games
    from kabucli.errors import KabuError, LogError
    from kabucli.log import read_log
    from kabucli.safetext import safe_text

    try:
        with _long_work(f"reading {safe_text(str(path))}") as progress:
            data = read_log(path, _event_types_or_fail, strict=strict, progress=progress)
        games.get(data.header.game)
        return data
    except LogError as exc:
        fail(str(exc), EXIT_UNREADABLE)
    except KabuError as exc:
        fail(f"{path}: {exc}", EXIT_UNREADABLE)


def _event_types_or_fail(name: str) -> Any:
    from kabucli import games
    from kabucli.errors import LogError, ParseError

    try:
        return games.event_types(name)
    except ParseError as exc:
        raise LogError(str(exc)) from None  # read_log names the header itself


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(metavar="LOG", help="A log file (msgpack or JSON Lines).",
                                        path_type=str, autocompletion=complete_path)],
    at: Annotated[int | None, typer.Option("--at", metavar="N", help="Show the state after event N "
                                                        "(0: before the first).")] = None,
    step: Annotated[bool, typer.Option(
        "--step", help="Page through the game back and forward, one event at a time: n, "
                       "Enter or Right: next; b or Left: back; g N: go to event N; ] and [: "
                       "next and previous round; /text: search (/ again); h: help; q: "
                       "quit.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON document: the log's header, every step (event, notation, "
                       "state) and the outcome; with --at N, the state after event N.")] = False,
    as_seat: Annotated[str | None, typer.Option(
        "--as", metavar="SEAT", help="Show the game as the player in SEAT (e.g. p2, or their "
                                     "name) saw it: other hands and other seats' secret moves (a "
                                     "Kabu-Tsukuri arrangement) hidden, chance events by "
                                     "what they show everyone; the seed, which gives every "
                                     "card away, hidden too.")] = None,
    html: Annotated[Path | None, typer.Option(
        "--html", metavar="OUT", path_type=str, autocompletion=complete_path,
        help="Write the game as one web page to OUT: the table "
                                      "drawn at every event, with buttons, arrow keys and "
                                      "a seat selector (the page holds the referee's view "
                                      "and the seed: with --as, that seat's view only, "
                                      "without the seed; with --at N, opening at event "
                                      "N).")] = None,
) -> None:
    """Show a recorded game step by step, as a person would read it."""
    from kabucli import games, render
    from kabucli.engine import Match, check_header, commitment_unbound, walk
    from kabucli.errors import KabuError, LogError
    from kabucli.log import check_times

    with _json_errors(as_json, log=str(log)):
        log = _log_named(log)
        if html is not None and (as_json or step):
            other = "--json" if as_json else "--step"
            fail(f"--html writes the game as a page: it takes no {other} (give that to "
                 "another replay)")
        if step and as_json:
            fail("--step pages through the game for a person: it takes no --json (--json "
                 "alone gives every step)")
        if step and at is not None:
            fail("--step pages through the whole game: it takes no --at (in the pager, g N "
                 "goes to event N)")
        data = _read(log, strict=False)
        g = games.get(data.header.game)
        try:
            check_header(g, data.header)
        except KabuError as exc:
            fail(f"{log}: {exc}", EXIT_UNREADABLE)
        if data.error is None:  # shown whole, and then said unreadable, as audit says
            try:
                check_times(data)
            except LogError as exc:
                data.error = exc
        events: list[Event] = data.events
        viewer = None if as_seat is None else _viewer(as_seat, data.header.seats)
        if at is not None:
            if not 0 <= at <= len(events):
                fail(f"--at {at} is out of range: the log has events 1-{len(events)} "
                     "(0 is the state before the first)")
            events = events[:at]
    out = _console()

    if html is not None:
        _replay_html(log, g, data, _file_named(html, "--html"), viewer, at)

    times = data.times
    takebacks = render.Takebacks()
    drawn = [False]  # whether the table was drawn after the last event shown
    lines = _Batch(out)

    def on_text(index: int, ev: Event, m: Match) -> None:
        taken = takebacks.step(index, ev, m)
        lines.add(render.event_line(g, index, ev, m, viewer, render.time_of(times, index),
                                    taken))
        # the table after a round's milestones, and after an undo: the one it went back to
        drawn[0] = (render.is_milestone(g, ev) or taken is not None) and not m.over
        if drawn[0]:
            lines.add(render.table(g, m, viewer))

    if as_json:
        violation = _replay_json(log, g, data, events, at, viewer)
    elif at is not None:
        match, violation = walk(g, data.header, events)
        out.print(render.header_panel(g, match, viewer))
        out.print(render.state_heading(at if violation is None else violation.index - 1,
                                       len(data.events),
                                       None if violation is None else violation.index))
        out.print(render.table(g, match, viewer))
    elif step:  # a pager, back and forward (kabucli/pager.py)
        from kabucli.pager import Pager, page

        with _long_work("going through the match") as progress:  # (the first walk)
            pager = Pager(g, data, out, viewer, progress=progress)
        violation = page(pager)
    else:
        out.print(render.header_panel(g, Match(g, data.header), viewer))
        try:
            match, violation = walk(g, data.header, events, on_text)
        finally:  # (the lines shown however the walk ends: Ctrl-C too)
            lines.flush()
        if violation is not None:  # the table the bad event came to, then that event
            if not drawn[0]:
                out.print(render.table(g, match, viewer))
            told = render.seen_violation(g, violation, events, viewer)
            assert told is not None
            out.print(render.violation_line(g, told, match, render.time_of(times, told.index)))
        elif match.over:
            out.print(render.outcome_panel(g, match))
        else:  # a game quit or cut short: where it stands, and what it waits for
            if not drawn[0]:
                out.print(render.table(g, match, viewer))
            if data.error is None:  # (a damaged log says where it stops, below)
                out.print(render.unfinished_line(g, match, str(log)))
    unbound = commitment_unbound(data.header)  # (as audit says it, before any event)
    if unbound is not None:
        fail(f"{log}: {unbound.reason}", EXIT_RULE)
    if violation is None and at is not None:  # the state asked for comes before a break
        violation = _log_violation(g, data)
    violation = render.seen_violation(g, violation, data.events, viewer)
    if violation is not None:
        fail(violation.line(str(log)), EXIT_RULE)
    if data.error is not None:
        fail(render.unreadable_shown(data, str(log)), EXIT_UNREADABLE)


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


def _log_violation(g: Game, data: Any) -> Violation | None:
    """The first event of the whole log that breaks a rule (a format 2 binary log was
    walked as it was read), for a replay that showed an earlier state (``--at``): its exit
    and last line say the log is not valid, as the whole replay's do."""
    from kabucli.engine import walk

    return (data.walked or walk(g, data.header, data.events))[1]


def _replay_html(log: Path, g: Game, data: Any, out: Path, viewer: int | None,
                 at: int | None) -> NoReturn:
    """``replay --html OUT``: the page written (kabucli/render/html.py), opening at event
    ``at``; then, like a replay in text, the log's first broken rule or damage as the error
    line and exit code."""
    from kabucli.engine import commitment_unbound
    from kabucli.files import write_whole
    from kabucli.log import holds_log
    from kabucli.render import seen_violation, unreadable_shown
    from kabucli.render.html import MAX_PAGE_STEPS, page, page_steps
    from kabucli.safetext import shell_path

    views, steps = page_steps(data, viewer)
    if steps > MAX_PAGE_STEPS:
        one = len(data.events) <= MAX_PAGE_STEPS and viewer is None
        fail(f"--html: a page holds at most {MAX_PAGE_STEPS:,} steps (events times views), and "
             f"this log's {len(data.events):,} events in {views} "
             f"view{'s' if views > 1 else ''} make {steps:,}: "
             + ("give --as SEAT for one view, or " if one else "")
             + f"page through it with kabucli replay {shell_path(str(log))} --step",
             EXIT_UNREADABLE)
    text, violation = page(g, data, log.name, viewer, at or 0)
    violation = seen_violation(g, violation, data.events, viewer)
    if holds_log(out):
        fail(f"--html {out} holds a kabucli log, which a page never replaces: name another "
             "file", EXIT_UNREADABLE)
    try:  # a page written before is replaced (whole, or not at all); the log never
        write_whole(out, lambda fh: fh.write(text.encode("utf-8")), True, [log])
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_UNREADABLE)
    total = len(data.events)  # (the page stops before an event that breaks a rule)
    shown = total if violation is None else violation.index - 1
    _console().print(f"wrote {_escape(str(out))} ({_events(shown)}"
                     + (f" of the log's {total}" if shown < total else "")
                     + f", {len(text) // 1024} KiB)", soft_wrap=True)
    unbound = commitment_unbound(data.header)  # (as audit says it, before any event)
    if unbound is not None:
        fail(f"{log}: {unbound.reason}", EXIT_RULE)
    if violation is not None:
        fail(violation.line(str(log)), EXIT_RULE)
    if data.error is not None:
        fail(unreadable_shown(data, str(log)), EXIT_UNREADABLE)
    raise typer.Exit(0)


def _viewer(text: str, seats: list[SeatInfo]) -> int:
    """The seat ``--as`` names (``p2``, ``2``, or the player's name, as a typed line may name
    a seat); a clean failure when there is none."""
    from kabucli.safetext import safe_text, shown_name
    from kabucli.session import typed_names

    def number(word: str) -> int:  # a seat's number, p2 or 2; 0 when it is none
        word = word.strip().lower().removeprefix("p")
        return int(word) if word.isascii() and word.isdigit() and len(word) < 4 else 0

    names = typed_names(seats)
    key = text.strip().lower()
    seat = number(text) or names.get(key, 0)
    if not 1 <= seat <= len(seats):
        # the people's names --as takes for their seats (a name that reads as a number is
        # that seat's number here); fail() makes the text safe to show
        also = "".join(f", {shown_name(seats[i - 1].name)} for p{i}"
                       for i in sorted(names.values())
                       if seats[i - 1].control == "human" and not number(seats[i - 1].name))
        shared = [i for i, s in enumerate(seats, 1) if s.name.lower() == key]
        why = ("there is no such seat" if seat or len(shared) < 2 else
               f"{', '.join(f'p{i}' for i in shared[:-1])} and p{shared[-1]} share that name: "
               "name the seat")
        fail(f"--as {safe_text(text, 24)}: {why} (seats are p1-p{len(seats)}{also})")
    return seat


def _replay_json(log: Path, g: Game, data: Any, events: list[Event], at: int | None,
                 viewer: int | None = None) -> Violation | None:
    """``replay --json``: one JSON document, the log's header first. Without ``at`` it lists
    every step, one a line, written as it is walked (a long log takes no more memory than its
    events); with ``at``, event ``at`` and the state after it. With ``viewer``, states are
    that seat's view and the events hidden from it (:meth:`Game.hidden_from`: chance events
    but the game's ``public_chance``, another seat's secret move) are left out (their
    notation says "hidden"), and so are the header's seed and salt
    (:meth:`Game.header_hidden_from`: null, named in ``hidden``)."""
    from kabucli.engine import commitment_unbound, seen_header, walk
    from kabucli.log import to_builtins
    from kabucli.render import Takebacks, seen_violation, time_of, waiting_for

    times = data.times
    takebacks = Takebacks()
    # an undo's step also lists the numbers of the events it took back: the input, then
    # those that followed it (see render.Takebacks)
    taken: dict[int, list[int]] = {}

    def track(index: int, ev: Event, m: Match) -> None:
        took = takebacks.step(index, ev, m)
        if took is not None:
            taken[index] = [n for n, _ in took]

    def step(index: int, ev: Event) -> dict[str, Any]:
        t = time_of(times, index)
        at: dict[str, Any] = {} if t is None else {"t": t}
        if index in taken:
            at["takes_back"] = taken.pop(index)
        if viewer is not None and g.hidden_from(ev, viewer):
            return {"index": index, "actor": g.actor(ev), "kind": ev.KIND,
                    "notation": "hidden", "event": None, **at}
        return {"index": index, "actor": g.actor(ev), "kind": ev.KIND,
                "notation": g.notate(ev), "event": to_builtins(ev), **at}

    def ending(match: Match, violation: Violation | None) -> dict[str, Any]:
        # the header's seed and commitment first, as audit and the exit line say them
        violation = commitment_unbound(data.header) or seen_violation(g, violation,
                                                                       data.events, viewer)
        return {"outcome": match.outcome(),
                "waiting": waiting_for(g, match),  # (as the text replay's last line says)
                "violation": None if violation is None else {
                    "index": violation.index, "actor": violation.actor,
                    "action": violation.action, "reason": violation.reason},
                "error": None if data.error is None else str(data.error)}

    header, hidden = seen_header(g, data.header, viewer)
    head = {"log": str(log), "header": to_builtins(header), "events": len(data.events)}
    if viewer is not None:  # whose view, and the header's fields left out of it
        head |= {"viewer": f"p{viewer}", "hidden": list(hidden)}
    if at is not None:
        match, violation = walk(g, data.header, events, track)
        shown = at if violation is None else violation.index - 1
        if violation is None:  # the log's own, after the state shown (or none)
            violation = _log_violation(g, data)
        print(_dumps({**head, "at": at,
                          "step": step(shown, events[shown - 1]) if shown else None,
                          "state": g.view(match.state, viewer), **ending(match, violation)},
                         indent=2))
        return violation

    def members(values: dict[str, Any]) -> str:
        """Members of the document, laid out as ``json.dumps(indent=2)`` lays them out."""
        return ",\n".join(f"  {_dumps(k)}: " + _dumps(v, indent=2).replace("\n", "\n  ")
                           for k, v in values.items())

    lead = "{\n" + members(head) + ',\n  "steps": [\n    '

    def on_step(index: int, ev: Event, m: Match) -> None:
        nonlocal lead
        track(index, ev, m)
        print(lead + _dumps({**step(index, ev), "state": g.view(m.state, viewer)}), end="")
        lead = ",\n    "

    match, violation = walk(g, data.header, events, on_step)
    if match.logged == 0:  # no step: the list opens and closes here
        print(lead.rstrip(), end="")
    print("\n  ],\n" + members(ending(match, violation)) + "\n}")
    return violation


@app.command()
def audit(
    # path_type=str: typer 0.29 gives each value as typed (it builds a pydantic TypeAdapter
    # for each value to make a Path, about 75 us apiece: 1.5 s for the 20,000 logs of a
    # large sim run); made Paths below
    log_names: Annotated[list[Path], typer.Argument(
        metavar="LOG", show_default=False, path_type=str, autocompletion=complete_path,
        help="Log files to check.")],
    digest: Annotated[str | None, typer.Option(
        "--digest", metavar="HEX", help="The digest written down at the table (at least "
                                        "its first 16 hex digits): the log must be the one "
                                        "that had it.")] = None,
    commitment: Annotated[str | None, typer.Option(
        "--commit", metavar="HEX", help="The seed commitment kabucli play --commit printed "
                                        "(at least its first 16 hex digits): the log's seed "
                                        "must be the one committed to.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Check logs against the rules; print each valid log's digest.

    Exit 0 if all are valid, 1 if one breaks a rule or is not the one
    --digest or --commit names, 2 if one cannot be read (or what --digest
    or --commit gives is not 16 to 64 hex digits)."""
    from kabucli import games, render
    from kabucli.engine import Violation, check_header, commitment_unbound
    from kabucli.errors import KabuError
    from kabucli.log import audit_log, external_bot
    from kabucli.safetext import NAME_SHOWN, quoted, safe_text

    with _json_errors(as_json):
        want = {name: _hex_option(name, value) for name, value in
                (("--digest", digest), ("--commit", commitment)) if value is not None}
    logs = [(str(name), Path(name)) for name in log_names]  # ("" and "." are one Path)
    out = _console()
    err = _console(stderr=True)
    worst = 0
    # --json: one array, its items printed as the logs are checked (as json.dumps(items,
    # indent=2) would print them), so that memory does not grow with the number of logs
    items = 0

    def result(res: dict[str, Any]) -> None:
        nonlocal items
        counts[res["status"]] += 1
        if as_json:
            body = _dumps(res, indent=2).replace("\n", "\n  ")
            print(("[\n  " if not items else ",\n  ") + body, end="")
        items += 1

    # the lines of valid logs, printed together (rich's cost is per print: 77 us for a log's
    # two lines alone, 25 in a batch), and always before a line on stderr
    valid = _Batch(out, soft_wrap=True, highlight=False)
    counts = {"valid": 0, "invalid": 0, "unreadable": 0}

    progress = None
    if len(logs) > 20 and out.is_terminal and not as_json:
        from rich.progress import track

        progress = track(logs, description="auditing", console=err, transient=True)
    try:  # (lines waiting are shown however the loop ends: Ctrl-C too)
        for name, path in progress or logs:
            res: dict[str, Any] = {"log": str(path)}
            try:  # a format 2 binary log is streamed: checked as it is read, its events counted
                if not name:  # Path("") would be the current folder
                    res["log"] = ""
                    raise KabuError("the name is empty, not a log file")
                with (contextlib.nullcontext(None) if progress is not None or as_json
                      else _long_work(f"auditing {safe_text(str(path))}")) as tell:
                    data = audit_log(path, _event_types_or_fail, tell)
                g = games.get(data.header.game)
                check_header(g, data.header)
            except KabuError as exc:
                where = str(path) if name else "''"
                msg = str(exc) if str(exc).startswith(where) else f"{where}: {exc}"
                if getattr(exc, "torn", False):  # (a crash's torn tail: how to go on)
                    msg += f"; {render.torn_words(str(path))}"
                res.update(status="unreadable", error=msg)
                worst = max(worst, EXIT_UNREADABLE)
                result(res)
                if not as_json:
                    valid.flush()
                    err.print(f"[bold red]unreadable:[/] {_escape(msg)}")
                continue
            match = data.match
            head = data.header
            # the header's seed and its commitment first: a seed changed after the deal is
            # the finding, rather than the first move its new deal makes impossible
            violation = commitment_unbound(head)
            value = want.get("--commit")
            if violation is None and value is not None and not (head.commit or "").startswith(
                    value):
                violation = Violation(0, "log", "--commit", "its seed commitment is "
                                      f"{head.commit or 'none'}, not {value}...: its seed is "
                                      "not the one committed to before the deal")
            if violation is None:
                violation = data.violation
            found = data.digest if violation is None else None
            value = want.get("--digest")
            if violation is None and value is not None and not (found or "").startswith(value):
                violation = Violation(0, "log", "--digest", f"its digest is {found or 'none'}, "
                                      f"not {value}...: it is not the log that had that digest "
                                      "(its header or a record was changed, added or dropped "
                                      "since; a digest cannot tell which)")
            if violation is not None:
                worst = max(worst, EXIT_RULE)
                res.update(status="invalid", index=violation.index, actor=violation.actor,
                           action=violation.action, reason=violation.reason)
                if not as_json:
                    line = (violation.line(str(path)) if violation.index
                            else f"{path}: {violation.reason}")
                    valid.flush()
                    err.print(f"[bold red]invalid:[/] {_escape(line)}")
            else:
                state = "finished" if match.over else "unfinished"
                res.update(status="valid", events=data.events, finished=match.over,
                           digest=found, format=head.format)
                if head.commit is not None:
                    res["commit"] = head.commit
                p = match.pending
                if not match.over and (p.kind == "auto" or (p.kind == "chance" and
                                                            head.seed is not None)):
                    # (JSON Lines, format 1: the events the inputs lead to were not written, a crash
                    # between the two or an edit; the digest, of the inputs, is the same)
                    res["derived_missing"] = True
                    state += ("; it ends before the events its last input leads to, which "
                              "the engine derives (kabucli resume writes them)")
                unchecked = _unchecked_keys(head)
                if unchecked:
                    res["not_checked"] = unchecked
                taken = data.undone  # (a takeback in a seeded game may follow what the
                # person saw: the reader is told, as the log tells it, and which ones came
                # after the seed dealt or showed cards; at a real table an undo is the
                # referee's correction of what was typed)
                after = data.after_shown if head.seed is not None else []
                if taken:
                    res["taken_back"] = taken
                    if head.seed is not None:
                        res["taken_back_after_cards_shown"] = after
                # A user's own bot is recorded, never run (audit runs no bot); resume needs
                # it named.
                own = {i: k for i, s in enumerate(data.header.seats, 1)
                       if (k := external_bot(s.control)) is not None}
                if own:
                    res["user_bots"] = list(own)
                    # (a control is any length in a log: quoted cut, as one line)
                    state += "; user's bot, not run: " + ", ".join(
                        f"p{i} {quoted(k, NAME_SHOWN)}" for i, k in own.items())
                if not as_json:
                    valid.add(f"[green]valid:[/] {_escape(str(path))} ({_events(data.events)}, "
                              f"{_escape(state)})\n  digest {found}"
                              + ("; seed commitment checked" if head.commit is not None
                                 else "") + _taken_back(taken, after)
                              + _unchecked(head))
            result(res)
    finally:
        valid.flush()
    if as_json:
        print("\n]" if items else "[]")
    elif len(logs) > 1:  # (the lines of a few hundred logs: how many of each, at the end)
        out.print(_audit_counts(counts), highlight=False)
    raise typer.Exit(worst)


def _audit_counts(counts: dict[str, int]) -> str:
    """audit's last line for several logs: how many were valid, broke a rule (or were not the
    one --digest or --commit named) and could not be read."""
    parts = [f"{n:,} {what}" for what, n in counts.items() if n or what == "valid"]
    return f"{sum(counts.values()):,} logs: " + ", ".join(parts)


# what audit cannot check in a valid log of a real table (--json's "not_checked"), and its
# words: no seed dealt the cards, so the ones never shown are unknown and each card seen is the
# referee's word; a time is when an input was typed, not when it happened at the table
_UNCHECKED = {
    "unshown_cards": "the cards nobody showed are not known",
    "cards_against_a_deal": "the cards typed in are checked against the rules, not against a "
                            "deal",
    "when_it_happened": "each time is when the referee typed the input, not when it happened",
}


def _unchecked_keys(head: Any) -> list[str]:
    """What audit could not check in a valid log (``_UNCHECKED``'s keys): nothing but at a
    real table, where the times are among them when the log is timed."""
    if head.mode != "physical":
        return []
    return [k for k in _UNCHECKED if k != "when_it_happened" or head.clock is not None]


def _unchecked(head: Any) -> str:
    """audit's line for what it could not check in a valid log (:func:`_unchecked_keys`)."""
    keys = _unchecked_keys(head)
    if not keys:
        return ""
    words = [_UNCHECKED[k] for k in keys]
    return ("\n  not checked (a real table): " + ", and ".join(words[:2])
            + "".join(f"; {w}" for w in words[2:]))


def _numbers(found: list[int]) -> str:
    n = len(found)
    return ", ".join(map(str, found[:10])) + (f" and {n - 10} more" if n > 10 else "")


def _taken_back(undone: list[int], shown: list[int]) -> str:
    """audit's line for the undos of a valid log: how many moves were taken back, and where,
    and which of them came after the seed had dealt or shown cards since the move (a person
    who takes a move back in a seeded game may have seen what followed it)."""
    if not undone:
        return ""
    n = len(undone)
    line = (f"\n  taken back: {n} move{'s' if n > 1 else ''} (undo at event"
            f"{'s' if n > 1 else ''} {_numbers(undone)})")
    if shown:
        line += (f"; after cards were dealt or shown since the move: event"
                 f"{'s' if len(shown) > 1 else ''} {_numbers(shown)}")
    return line


def _hex_option(name: str, value: str) -> str:
    """A digest or commitment typed by a person: 16 to 64 hex digits, spaces allowed."""
    text = "".join(value.split()).lower()
    if not 16 <= len(text) <= 64 or any(c not in "0123456789abcdef" for c in text):
        # exit 2, as a usage error: 1 says a log is not the one the digest names
        printed = "kabucli play --commit" if name == "--commit" else "audit"
        fail(f"{name} {value[:80]}: give 16 to 64 hex digits (of the 64 {printed} "
             "prints)", EXIT_UNREADABLE)
    return text


# -- sim ---------------------------------------------------------------------------------

WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", "-j", metavar="N", min=1, max=1024,
    help="Matches played at once, each in a process of its own (default: the cores this "
         "process may use). Results and logs are the same for any number.")]
BackendOpt = Annotated[str, typer.Option(
    "--backend", metavar="local|ray", autocompletion=complete_backend,
    help="local: a pool of processes on this machine; ray: Ray tasks (pip install "
         "'kabucli\\[ray]'), on a Ray kabucli starts or the cluster at --address.")]
AddressOpt = Annotated[str | None, typer.Option(
    "--address", metavar="HOST:PORT",
    help="With --backend ray: the head of a running Ray cluster (ray start --head).")]
MaxFailuresOpt = Annotated[int | None, typer.Option(
    "--max-failures", min=1, metavar="K",
    help="Stop the run once one bot has failed K matches (a failing bot forfeits each "
         "match it fails and the run goes on).")]
PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", metavar="FILE", path_type=str, autocompletion=complete_path,
    help="Draw how each bot's mean result (and the ratings) moved over the matches, with "
         "95% intervals, into FILE (.svg, .png or .pdf; pip install 'kabucli\\[plot]').")]
HtmlOpt = Annotated[Path | None, typer.Option(
    "--html", metavar="FILE", path_type=str, autocompletion=complete_path,
    help="One self-contained page: the --plot chart and the report's table (pip install "
         "'kabucli\\[plot]').")]


def _seconds(value: str | float) -> float:
    """--timeout: a number of seconds 0.001-86400 (a range check alone let 'nan' through to
    a message saying it was more than 86400), refused quoting what was typed: the number
    parsed said 'inf' for 1e400 and '0' for 1e-400."""
    if isinstance(value, float):  # (already a number)
        return value
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not 0.001 <= seconds <= 86400:  # (False for nan too)
        raise typer.BadParameter(f"'{value}' is not a number of seconds from 0.001 to 86400")
    return seconds


TimeoutOpt = Annotated[float | None, typer.Option(
    "--timeout", metavar="SECONDS", parser=_seconds,
    help="Seconds (0.001-86400) a cmd: or py: bot has for each answer (default: "
         "KABUCLI_BOT_TIMEOUT, else 10).")]


def _workers(workers: int | None, backend: str, address: str | None) -> int:
    from kabucli.sim import default_workers

    if backend not in ("local", "ray"):
        fail(f"--backend {backend}: choose local or ray")
    if address is not None and backend != "ray":
        fail("--address is for --backend ray")
    return workers if workers is not None else default_workers()


def _live_run(err: Console, title: str, total: int, names: list[str],
              run: Callable[[Callable[[Any], None] | None], Any], show: bool = True) -> Any:
    """Run ``run(on_match)`` with a live progress bar and standings on stderr when it is a
    terminal (and ``show``); the report it returns. SIGTERM stops the run as Ctrl-C does,
    with the report so far (see kabucli.sim.Terminated). A signal the program was started
    ignoring (Ctrl-C for a script's background job, or under nohup ... &) stays ignored, as
    it does in every other command (see kabucli.entry): it stopped the run."""
    import signal
    import threading

    from kabucli.entry import dropped as _dropped
    from kabucli.errors import Terminated

    if threading.current_thread() is not threading.main_thread():  # (signals go to main)
        return _live_run_shown(err, title, total, names, run, show)
    taken = [sig for sig in (signal.SIGINT, signal.SIGTERM)
             if signal.getsignal(sig) is not signal.SIG_IGN]

    def stop(signum: int, frame: Any) -> None:
        # the first Ctrl-C or SIGTERM stops the run; any after it is dropped: it would cut
        # the stopping, the report or the exit code short (the command ends once the report
        # is printed)
        for sig in taken:
            signal.signal(sig, _dropped)
        raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt

    before = [(sig, signal.signal(sig, stop)) for sig in taken]
    report = None
    try:
        report = _live_run_shown(err, title, total, names, run, show)
        return report
    finally:
        stopped = getattr(getattr(report, "sim", report), "stopped", "") or ""
        _SIGNALS_BEFORE[:] = before
        if not stopped.startswith(("interrupted", "terminated")):
            _signals_back()  # (else once the report is out: see _end_run)


def _stop_code(stopped: str) -> int:
    """The exit code of a run that stopped so: Ctrl-C 130, SIGTERM 143 (as the signals' own),
    a bot that failed too often 1, else 0."""
    return (130 if stopped.startswith("interrupted") else
            143 if stopped.startswith("terminated") else 1 if stopped.startswith("bot ") else 0)


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


def _live_run_shown(err: Console, title: str, total: int, names: list[str],
                    run: Callable[[Callable[[Any], None] | None], Any], show: bool) -> Any:
    if not show or not err.is_terminal:
        return run(None)
    from rich.console import Group
    from rich.live import Live
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                        TimeRemainingColumn(), console=err)
    task = progress.add_task(title, total=total, rate="")
    began = time.monotonic()
    shown = [0.0]
    with Live(Group(progress), console=err, transient=True, refresh_per_second=4) as live:
        def on_match(report: Any) -> None:
            took = time.monotonic() - began
            rate = f"{report.matches / took:,.1f} matches/s" if took > 0 else ""
            progress.update(task, completed=report.matches, rate=rate)
            now = time.monotonic()
            if now - shown[0] >= 0.25 or report.matches >= total:  # (the last: its counts)
                shown[0] = now
                live.update(Group(progress, _standings(report, names)))

        return run(on_match)


def _standings(report: Any, names: list[str]) -> Any:
    """The live standings under the progress bar: wins and win rate per bot, and the
    head-to-head and SPRT lines of a two-bot run."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    t = Table(box=None, pad_edge=False)
    for col in ("bot", "wins", "win rate", "forfeits"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    wins = shares(b.wins for b in report.bots)
    for name, b, won in zip(names, report.bots, wins, strict=True):
        t.add_row(_escape(name), won, f"{b.wins / b.matches:.1%}" if b.matches
                  else "-", str(b.forfeits))
    lines: list[Any] = [t]
    lines += [Text(line) for line in _summary_lines(report)]
    return Group(*lines)


def _pot_lines(report: Any, every_bot_plays: bool) -> list[str]:
    """A run whose matches ended with chips in the pot (a pot carried past a match's last
    round, a Yatchaba pot nobody won) says so: they are no bot's, so the means of chips do not
    add up to 0. ``every_bot_plays``: every bot sits in every match (``sim``), so the means
    add up to minus the pot left a match."""
    played = report.matches - report.failures
    if report.measure != "chips" or not report.pot_left or played <= 0:
        return []
    left = counted(report.pot_left, "chip was", "chips were")
    line = (f"{left} left in the pot at the {'end' if played == 1 else 'ends'} of the "
            f"{_matches(played)} played, won by no bot")
    if every_bot_plays:
        line += (f": the means of chips add up to -{report.pot_left / played:.2f} (the "
                 "chips left in the pot in a match, on average)")
    return [line]


def _summary_lines(report: Any) -> list[str]:
    """Head to head (two bots) and SPRT, in words."""
    out = []
    d = report.as_dict()
    h = d.get("head_to_head")
    if h and h["score"] is not None:
        from kabucli.ratings import elo_text

        elo, lo, hi = (elo_text(h, k, ".1f") for k in ("elo", "elo_low", "elo_high"))
        out.append(f"#1 vs #2: {h['wins']} W / {h['draws']} D / {h['losses']} L, score "
                   f"{h['score']:.3f}, Elo {elo} (95%: {lo} to {hi}), LOS {h['los']:.1%}")
    sp = d.get("sprt")
    if sp:
        out.append(f"SPRT [{sp['elo0']:g}, {sp['elo1']:g}] ({sp['model']}): LLR "
                   f"{sp['llr']:.2f} (bounds {sp['lower']:.2f}, {sp['upper']:.2f}): "
                   f"{sp['result']}")
    return out


@app.command()
@_json_on_failure
def sim(
    game: GameArg,
    bot: Annotated[list[str], typer.Option(
        "--bot", "-b", metavar="KIND",
        help="The bot of each seat in order (repeat once per seat), e.g. -b best -b random.",
        autocompletion=complete_bot_kind)],
    matches: Annotated[int, typer.Option(
        "--matches", "-m", metavar="N", min=1,
        help="How many matches, each played to its end under the house rules (Dare: "
             "'rounds' rounds; Yatchaba: 'games' games; Kazu-Tori: one game; Uno Dare: "
             "rounds to the 'target').")] = 100,
    seed: SeedOpt = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    fixed_seats: Annotated[bool, typer.Option(
        "--fixed-seats", help="Keep each bot in its seat (default: bots change seats every "
                              "match so no bot profits from a seat).")] = False,
    logs: Annotated[Path | None, typer.Option(
        "--logs", metavar="DIR", path_type=str, autocompletion=complete_path,
        help="Write each match's log into this folder (GAME-00001.kbl, ...). The same run "
             "started again (same game, bots, seed and house rules) reuses the finished "
             "matches there and plays an interrupted one again; any other file where a log "
             "would go stops the run: it is never overwritten.")] = None,
    workers: WorkersOpt = None,
    max_failures: MaxFailuresOpt = None,
    timeout: TimeoutOpt = None,
    sprt: Annotated[str | None, typer.Option(
        "--sprt", metavar="TEST",
        help="Two bots: stop as soon as a sequential probability ratio test decides whether "
             "bot 1 is elo0 or elo1 Elo stronger than bot 2, e.g. 'elo0=0 elo1=5 alpha=0.05 "
             "beta=0.05' (fastchess's trinomial GSPRT; model=normalized, the default, or "
             "model=logistic).")] = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    plot: PlotOpt = None,
    html: HtmlOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many seeded matches between bots and report statistics per bot."""

    from kabucli import bots as botreg
    from kabucli.errors import KabuError
    from kabucli.session import random_seed
    from kabucli.sim import bot_name, simulate

    g = _game(game)
    r = _rules(g, rule or [], rules_file)
    logs = _named(logs, "--logs", "a folder")
    s = _seed(seed)
    s = s if s is not None else random_seed()
    if not g.min_players <= len(bot) <= g.max_players:
        fail(f"{g.title} takes {g.min_players}-{g.max_players} players: give one --bot per "
             f"seat, not {len(bot)}")
    try:
        for kind in bot:
            botreg.check_kind(g.name, kind)
    except KabuError as exc:
        fail(str(exc))
    n = _workers(workers, backend, address)
    test = None
    if sprt is not None:
        from kabucli.ratings import Sprt

        if len(bot) != 2:
            fail("--sprt compares two bots: give two --bot")
        try:
            test = Sprt.parse(sprt)
        except KabuError as exc:
            fail(str(exc))
    plot, html = _file_opt(plot, "--plot"), _file_opt(html, "--html")
    rec = _recorder(plot, html)
    err = _console(stderr=True)
    names = [bot_name(i, k) for i, k in enumerate(bot, 1)]
    try:
        report = _live_run(
            err, f"{g.title} matches", matches, names, lambda on_match: simulate(
                g, r, bot, matches, s, not fixed_seats, logs,
                on_match if rec is None else rec.watch(on_match), workers=n,
                max_failures=max_failures, sprt=test, timeout=timeout, backend=backend,
                address=address), show=not as_json)
    except KabuError as exc:
        fail(str(exc))
    code = _stop_code(report.stopped)
    chart = (f"{g.title}: {_matches(report.matches)} from seed {s}"
             + (", bots change seats" if report.rotate else ", fixed seats"))
    title = chart + (f" ({report.workers} workers)" if report.workers > 1 else "")
    columns = ["bot", "matches", "wins", "win rate", f"mean {report.measure}", "95% CI",
               "forfeits"]
    rows = []
    wins = shares(b.wins for b in report.bots)
    for name, b, won in zip(names, report.bots, wins, strict=True):
        d = b.as_dict()
        rows.append([name, str(b.matches), won,
                     "-" if d["win_rate"] is None else f"{d['win_rate']:.1%}",
                     signed(b.mean, 2) if b.played else "-",
                     "-" if d["ci95"] is None else f"±{d['ci95']:.2f}", str(b.forfeits)])
    tables = [(title, columns, rows)]
    summary = _summary_lines(report) + _pot_lines(report, True)
    charts = partial(_charts, rec, report, names, chart, tables, summary, plot, html,
                     "h2h" if len(bot) == 2 else "")
    _end_run(report.as_dict() if as_json else None, tables, summary, report, logs, err,
             charts, code)


def _recorder(plot: Path | None, html: Path | None, tournament: bool = False) -> Any:
    """With --plot or --html: what keeps the run's points (kabucli.plot.Recorder), once
    matplotlib and the paths are found fit, before any match is played; else None."""
    if plot is None and html is None:
        return None
    from kabucli import plot as charts
    from kabucli.errors import KabuError

    try:
        charts.require()
        charts.check_paths(plot, html)
    except KabuError as exc:
        fail(str(exc))
    return charts.Recorder(charts.TOURNAMENT_CAPACITY if tournament else charts.CAPACITY)


def _charts(rec: Any | None, report: Any, names: list[str], title: str,
            tables: list[tuple[str, list[str], list[list[str]]]], lines: list[str],
            plot: Path | None, html: Path | None, rating: str) -> None:
    """Write the --plot chart and the --html page of a run (after its report: a chart that
    cannot be written is one line, the report is there), if asked for (``rec``)."""
    if rec is None:
        return
    from kabucli import plot as charts
    from kabucli.errors import KabuError

    try:
        charts.write(rec, report, names, title,
                     [charts.Table(t, c, rows, _text_columns(c)) for t, c, rows in tables],
                     lines, plot, html, rating)
    except KabuError as exc:
        fail(str(exc))


def _text_columns(columns: list[str]) -> set[int]:
    """The columns of a report's table that are words (left-aligned), not figures."""
    words = {"bot", "pair", "group"} | ({"wins"} if columns[0] == "group" else set())
    return {k for k, col in enumerate(columns) if col in words}


def _print_failures(out: Console, report: Any) -> None:
    if not report.failures:
        return
    out.print(f"[yellow]{_matches(report.failures)} forfeited by a failing bot:[/]")
    for f in report.failed:
        out.print(f"  match {f['match']}: p{f['seat']} ({_escape(f['bot'])}): "
                  f"{_escape(f['reason'])}", soft_wrap=True)
    if report.failures > len(report.failed):
        out.print(f"  ... and {report.failures - len(report.failed)} more")


# -- tournament --------------------------------------------------------------------------

@app.command()
@_json_on_failure
def tournament(
    game: GameArg,
    bot: Annotated[list[str], typer.Option(
        "--bot", "-b", metavar="KIND", help="A bot of the field (repeat: more bots than seats "
        "is the point).", autocompletion=complete_bot_kind)],
    seats: Annotated[int, typer.Option("--seats", "-n", metavar="N", min=2,
                                       autocompletion=complete_players,
                                       help="Seats of each match.")] = 2,
    fmt: Annotated[str, typer.Option(
        "--format", metavar="round-robin|gauntlet", autocompletion=complete_format,
        help="round-robin: every group of SEATS bots meets; gauntlet: the first bot meets "
             "every group of the others.")] = "round-robin",
    deals: Annotated[int, typer.Option(
        "--deals", "-d", metavar="N", min=1, help="Deals each group plays, each in every "
        "seating of its bots (every seat, every order around the table: seats! matches a "
        "deal).")] = 10,
    seed: SeedOpt = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    logs: Annotated[Path | None, typer.Option(
        "--logs", metavar="DIR", path_type=str, autocompletion=complete_path,
        help="Write each match's log into this folder; the same "
        "tournament started again reuses them (as sim --logs).")] = None,
    workers: WorkersOpt = None,
    max_failures: MaxFailuresOpt = None,
    timeout: TimeoutOpt = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
    plot: PlotOpt = None,
    html: HtmlOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play a tournament of bots (more bots than seats) and rate them."""

    from kabucli import bots as botreg
    from kabucli.errors import KabuError
    from kabucli.session import random_seed
    from kabucli.sim import bot_name
    from kabucli.tournament import FORMATS, schedule, tournament as play_tournament

    g = _game(game)
    r = _rules(g, rule or [], rules_file)
    logs = _named(logs, "--logs", "a folder")
    s = _seed(seed)
    s = s if s is not None else random_seed()
    if fmt not in FORMATS:
        fail(f"--format {fmt}: choose {' or '.join(FORMATS)}")
    if not g.min_players <= seats <= g.max_players:
        fail(f"{g.title} takes {g.min_players}-{g.max_players} players, not --seats {seats}")
    if len(bot) < seats:
        fail(f"a tournament of {seats} seats needs at least {seats} bots, not {len(bot)}")
    try:
        for kind in bot:
            botreg.check_kind(g.name, kind)
        total = len(schedule(len(bot), seats, fmt)) * math.factorial(seats) * deals
    except KabuError as exc:
        fail(str(exc))
    n = _workers(workers, backend, address)
    plot, html = _file_opt(plot, "--plot"), _file_opt(html, "--html")
    rec = _recorder(plot, html, tournament=True)
    names = [bot_name(i, k) for i, k in enumerate(bot, 1)]
    err = _console(stderr=True)
    try:
        rep = _live_run(err, f"{g.title} tournament", total, names, lambda on_match:
                        play_tournament(g, r, bot, seats, fmt, deals, s, logs, n,
                                        max_failures, timeout, backend, address, on_match,
                                        recorder=rec),
                        show=not as_json)
    except KabuError as exc:
        fail(str(exc))
    report = rep.sim
    code = _stop_code(report.stopped)
    title = (f"{g.title} {fmt}: {len(bot)} bots, {seats} seats, {_matches(report.matches)} "
             f"from seed {s}")
    columns = ["rank", "bot", "matches", "wins", "win rate", f"mean {report.measure}",
               "forfeits", "Elo ±95%"]
    ranked = sorted(range(len(bot)), key=lambda i: -rep.ratings[i]["elo"])
    rows = []
    wins = shares(b.wins for b in report.bots)
    for rank, i in enumerate(ranked, 1):
        b, rt = report.bots[i], rep.ratings[i]
        rows.append([str(rank), names[i], str(b.matches), wins[i],
                     f"{b.wins / b.matches:.1%}" if b.matches else "-",
                     signed(b.mean, 2) if b.played else "-",
                     str(b.forfeits), elo_pm(rt["elo"], rt["ci95"])])
    gtitle = "Pairs" if seats == 2 else "Groups (wins per bot)"
    if seats == 2:
        gcolumns = ["pair", "W-D-L", "score", "Elo diff (95%)"]
        grows = [[f"{names[grp.bots[0]]} vs {names[grp.bots[1]]}",
                  "-".join(map(str, grp.wdl)), *head_to_head_line(grp.wdl)]
                 for grp in rep.groups]
    else:
        gcolumns = ["group", "matches", "wins"]
        grows = [[", ".join(names[b] for b in grp.bots), str(grp.matches),
                  " / ".join(f"{names[b].split()[0]} {w}"
                             for b, w in zip(grp.bots, shares(grp.wins), strict=True))]
                 for grp in rep.groups]
    tables = [(title, columns, rows), (gtitle, gcolumns, grows)]
    lines = _pot_lines(report, False)
    charts = partial(_charts, rec, report, names, title, tables, lines, plot, html, "elo")
    _end_run(rep.as_dict() if as_json else None, tables, lines, report, logs, err, charts,
             code)


def _matches(n: int) -> str:
    return counted(n, "match", "matches")


def _end_run(as_json: dict[str, Any] | None,
             tables: list[tuple[str, list[str], list[list[str]]]], lines: list[str],
             report: Any, logs: Path | None, err: Console, charts: Callable[[], None],
             code: int) -> NoReturn:
    """The end of ``sim`` and ``tournament``: the report (``as_json``: as that JSON; else its
    tables, words left and figures right as on the --html page, then ``lines``, the failures,
    the logs reused and why the run stopped), the charts, and the exit code."""
    if as_json is not None:
        print(_dumps(as_json, indent=2))
        if report.stopped:  # (on stderr, as every word beside --json's document: a run
            _say_stopped(err, report)  # that stopped early, exit 1 included, says why)
        charts()
        _signals_back()
        raise typer.Exit(code)
    from rich.table import Table
    from rich.text import Text

    from kabucli.render.fit import fit

    out = _console()
    for caption, cols, cells in tables:
        t = Table(title=caption, title_justify="left")
        words = _text_columns(cols)
        for k, col in enumerate(cols):
            t.add_column(col, justify="left" if k in words else "right")
        for row in cells:  # (a figure, and a short name, whole on its line, the headers wrapped
            # instead: '+231 ±' over '172' read as two figures, '#2' over 'random' as two
            # names; a long name, a program's command, wraps)
            t.add_row(*(Text(c, no_wrap=k not in words or len(c) <= _WHOLE_NAME)
                        for k, c in enumerate(row)))
        out.print(fit(t))
    for line in lines:
        out.print(_escape(line))
    _print_failures(out, report)
    if report.reused:
        out.print(f"[dim]{_matches(report.reused)} reused from {_escape(str(logs))}[/]")
    if report.stopped:
        _say_stopped(err, report)
    charts()
    _signals_back()
    raise typer.Exit(code)


_WHOLE_NAME = 24  # (sim's and tournament's tables: a name this long or shorter never wraps)


def _say_stopped(err: Console, report: Any) -> None:
    err.print(f"[yellow]stopped:[/] {_escape(report.stopped)} after {report.matches} of "
              f"{_matches(report.planned)}")


def _signals_back() -> None:
    """Ctrl-C and SIGTERM handled as before the run (see _live_run), if it changed them: at
    once after a run, or, after one a signal stopped, once its report is out (a program that
    runs the command in-process goes on)."""
    import signal

    for sig, handler in _SIGNALS_BEFORE:
        signal.signal(sig, signal.SIG_DFL if handler is None else handler)
    _SIGNALS_BEFORE.clear()


_SIGNALS_BEFORE: list[Any] = []  # (signal, its handler) before the run (see _live_run)


def head_to_head_line(wdl: list[int]) -> tuple[str, str]:
    """A pair's score and Elo difference with its 95% interval, as table cells."""
    from kabucli.ratings import elo_text, head_to_head

    h = head_to_head(*wdl)
    if h["score"] is None:
        return "-", "-"
    elo, lo, hi = (elo_text(h, k, ".0f") for k in ("elo", "elo_low", "elo_high"))
    return f"{h['score']:.3f}", f"{elo} ({lo} to {hi})"


# -- bot check ---------------------------------------------------------------------------

@bot_app.command("check")
@_json_on_failure
def bot_check(
    game: GameArg,
    command: Annotated[str, typer.Argument(metavar="COMMAND",
                                           help="The bot program, as cmd: would start it, "
                                                "e.g. \"python3 mybot.py\".",
                                           autocompletion=complete_path)],
    games_: Annotated[int, typer.Option("--games", "-g", metavar="N", min=1, max=100,
                                        help="Matches per seat.")] = 1,
    against: Annotated[str | None, typer.Option(
        "--against", metavar="KIND", help="The built-in bot of the other seats (default: the "
        "game's first).", autocompletion=complete_builtin_bot)] = None,
    players: PlayersOpt = None,
    seed: SeedOpt = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    timeout: TimeoutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check that a bot program keeps the protocol: one line per check, exit 0 if all pass."""
    import shlex

    from kabucli.botcheck import check_bot
    from kabucli.errors import KabuError, Terminated
    from kabucli.safetext import safe_text

    g = _game(game)
    r = _rules(g, rule or [], rules_file)
    s = _seed(seed)
    if players is not None and not g.min_players <= players <= g.max_players:
        fail(f"{g.title} takes {g.min_players}-{g.max_players} players, not {players}")
    # the seat's spelling, --bot 2=cmd:..., is the same program
    command = command.strip().removeprefix("bot:").removeprefix("cmd:")
    if not command.strip():
        fail("give the bot's command, e.g. \"python3 mybot.py\"")
    if command.startswith("py:"):
        fail(f"bot check tests a program that talks over stdin and stdout (a command, as after "
             f"cmd:); a Python class ({safe_text(command, 40)}) is run by kabucli's own host, "
             f"which keeps that protocol for it: try it in matches instead, e.g. kabucli sim "
             f"{g.name} --bot {safe_text(shlex.quote(command))} --bot random --matches 20")
    try:
        with _sigterm_stops():  # (the program checked is stopped with it)
            checks = check_bot(g, r, command, 1 if s is None else s, games_, against, players,
                               timeout)
    except KabuError as exc:
        fail(str(exc))
    except Terminated:
        _console(stderr=True).print("stopped (SIGTERM)")
        raise typer.Exit(143) from None
    code = 0 if all(c.ok for c in checks) else 1
    if as_json:
        print(_dumps({"command": command, "ok": code == 0,
                          "checks": [c.as_dict() for c in checks]}, indent=2))
        raise typer.Exit(code)
    out = _console()
    width = max(len(c.name) for c in checks)
    for c in checks:
        mark = "[green]ok  [/]" if c.ok else "[bold red]FAIL[/]"
        why = c.detail if c.ok else f"{c.failures[0]}" + (
            f" (and {len(c.failures) - 1} more)" if len(c.failures) > 1 else "")
        out.print(f"{mark} {c.name.ljust(width)}  {_escape(why)}", soft_wrap=True)
    raise typer.Exit(code)


# -- logs --------------------------------------------------------------------------------

@contextlib.contextmanager
def _log_failures() -> Iterator[None]:
    """``log convert`` and ``log repair``: a log read whole that breaks a rule where that
    stops the copy exits 1, as audit's verdict; one that cannot be read, or whose header its
    game refuses, exits 2."""
    from kabucli.errors import BrokenLogError, KabuError

    try:
        yield
    except BrokenLogError as exc:
        fail(str(exc), EXIT_RULE)
    except KabuError as exc:  # a LogError, or a header its game refuses
        fail(str(exc), EXIT_UNREADABLE)


@log_app.command("convert")
def log_convert(
    src: Annotated[Path, typer.Argument(metavar="SRC", help="The log to read.", path_type=str,
                                        autocompletion=complete_path)],
    dst: Annotated[Path, typer.Argument(metavar="DST", path_type=str,
                                        autocompletion=complete_path,
                                        help="Where to write (.jsonl, "
                                             ".ndjson, .json: JSON Lines, else msgpack, "
                                             "unless --to says).")],
    to: Annotated[str | None, typer.Option("--to", metavar="msgpack|jsonl",
                                           help="The encoding of DST, whatever its name.",
                                           autocompletion=complete_encoding)] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite DST.")] = False,
) -> None:
    """Convert a log between msgpack (compact) and JSON Lines (readable)."""
    from kabucli.games import event_types
    from kabucli.log import convert_log, same_file

    if to not in (None, "msgpack", "jsonl"):
        fail(f"--to {to}: choose msgpack or jsonl")
    src = _log_named(src)
    dst = _file_named(dst, "DST")
    if same_file(src, dst):  # (before "exists; add --force", which would be refused next)
        fail(f"{dst}: cannot convert a log onto itself")  # (repair's code: nothing unreadable)
    if dst.exists() and not force:
        fail(f"{dst} already exists; add --force to overwrite it")
    with _log_failures():
        n = convert_log(src, dst, event_types, to, overwrite=force)  # type: ignore[arg-type]
    _console().print(f"wrote {_escape(str(dst))} ({_events(n)})", soft_wrap=True)


@log_app.command("repair")
def log_repair(
    src: Annotated[Path, typer.Argument(metavar="SRC",
                                        help="The damaged log (only read, never changed).",
                                        path_type=str, autocompletion=complete_path)],
    dst: Annotated[Path, typer.Argument(metavar="DST", path_type=str,
                                        autocompletion=complete_path,
                                        help="The new log to write (.jsonl, "
                                             ".ndjson, .json: JSON Lines, else msgpack).")],
    force: Annotated[bool, typer.Option("--force", help="Overwrite DST.")] = False,
) -> None:
    """Copy every record of a damaged log that still checks into a new log."""
    from kabucli import games
    from kabucli.engine import commitment_unbound
    from kabucli.errors import KabuError
    from kabucli.log import audit_log, format_for, repair_log, same_file

    src = _log_named(src)
    dst = _file_named(dst, "DST")
    if same_file(src, dst):
        fail(f"{dst}: cannot repair a log onto itself (the original stays as it is)")
    if dst.exists() and not force:
        fail(f"{dst} already exists; add --force to overwrite it")
    with _log_failures():
        kept, dropped, after = repair_log(src, dst, games.event_types, overwrite=force)
    err = _console(stderr=True)
    for line in dropped:
        err.print(f"[yellow]dropped:[/] {_escape(line)}")
    out = _console()
    # the inputs after one that breaks a rule are no records lost: kept (binary), or left
    # out of JSON Lines, their own dropped line says so; either way they are said here
    binary = format_for(dst) == "msgpack"
    records = len(dropped) - (1 if after and not binary else 0)
    beyond = (f", and the {counted(after, 'input', 'inputs')} after event {kept}, which breaks "
              f"a rule, {'kept' if binary else 'left out'}" if after else "")
    out.print(f"wrote {_escape(str(dst))} ({_events(kept)} kept, "
              f"{counted(records, 'record', 'records')} dropped{beyond})", soft_wrap=True)
    # what the new log is now, as kabucli audit finds it (records left out may have taken a
    # move a later one needs; a finished game's last events are derived again)
    try:
        audited = audit_log(dst, games.event_types)
    except KabuError as exc:
        verdict = f"unreadable: {exc}"
    else:
        # as audit checks it: the header's seed and commitment first, then the events
        v = commitment_unbound(audited.header) or audited.violation
        verdict = (f"valid ({_events(audited.events)}, "
                   f"{'finished' if audited.match.over else 'unfinished'})" if v is None
                   else v.reason if not v.index  # (audit's words for the header's commitment)
                   else f"event {v.index} breaks a rule: {v.actor} {v.action!r}: {v.reason}")
    out.print(f"audit of {_escape(str(dst))}: {_escape(verdict)}", soft_wrap=True)


# -- solve -------------------------------------------------------------------------------

@app.command()
@_json_on_failure
def solve(
    game: Annotated[str, typer.Argument(metavar="GAME", help=f"The game: {', '.join(GAMES)}.",
                                        autocompletion=complete_solver_game)],
    cards: Annotated[list[str], typer.Argument(metavar="CARDS",
                                               help="The cards of the hand, e.g. 1 3 5 7 ...")],
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    top: Annotated[int, typer.Option("--top", metavar="N", min=1, max=50,
                                     help="How many arrangements to show.")] = 5,
    as_json: JsonOpt = False,
) -> None:
    """Find the best ways to play a hand (Kabu-Tsukuri: its three rows)."""
    from kabucli.errors import KabuError

    g = _game(game)
    solver = getattr(g, "solve", None)
    if solver is None:
        fail(f"{g.title} has no solver (kabu-tsukuri has one)")
    r = _rules(g, rule or [], rules_file)
    try:
        answer = solver(r, cards, players, top)
    except KabuError as exc:
        fail(str(exc))
    if as_json:
        print(_dumps(answer, indent=2))
        return
    from kabucli import games

    _console().print(games.part(g.name, "render").solution(answer))


# -- completion --------------------------------------------------------------------------

@app.command()
def completion(
    shell: Annotated[str, typer.Argument(metavar="SHELL", help="bash, zsh or fish.",
                                         autocompletion=complete_shell)],
) -> None:
    """Print the shell completion script (the files in completions/ are these)."""
    if shell.lower() not in SHELLS:  # (BASH as bash, as 'rules DARE' takes dare)
        fail(f"no completion for shell '{shell}' (shells: {', '.join(SHELLS)})")
    print(script(shell.lower()), end="")


def main() -> None:
    """Entry point: run the app; an unexpected error is one line, not a traceback."""
    if os.environ.get("NO_COLOR"):
        # Typer draws --help with rich: with NO_COLOR it would still send bold and dim escapes
        import typer.rich_utils

        typer.rich_utils.COLOR_SYSTEM = None
    noted = _note_ctrl_c()
    try:
        _main()
    finally:  # (a program that runs main in-process goes on with its own Ctrl-C)
        if noted is not None:
            _ctrl_c_back(noted)


def _main() -> None:
    """:func:`main` with Ctrl-C noted."""
    try:
        if os.environ.get(COMPLETE_VAR):  # a completion script asks for candidates
            from typer.main import get_command

            from kabucli.completion import respond

            sys.exit(respond(get_command(app), os.environ[COMPLETE_VAR]))
        code = app(standalone_mode=False)
        if code == 130 and _CTRL_C:  # typer's word for a Ctrl-C that no command handled
            _aborted()
    except SystemExit:
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
        if os.environ.get("KABUCLI_DEBUG"):
            raise
        # An internal error: one line unless debugging.
        _console(stderr=True).print(f"[bold red]internal error:[/] {type(exc).__name__}: "
                                    f"{_escape(str(exc))} (set KABUCLI_DEBUG=1 for details)")
        sys.exit(3)
    sys.exit(code if isinstance(code, int) else 0)


# Whether a Ctrl-C came (see _note_ctrl_c)
_CTRL_C: list[bool] = []


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

    _CTRL_C.clear()

    def noted(signum: int, frame: Any) -> None:
        _CTRL_C.append(True)
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
    message = exc.format_message()  # type: ignore[attr-defined]
    hint = f" (see '{ctx.command_path} --help')" if "UsageError" in kinds and ctx else ""
    args = sys.argv[1:]
    if "--json" in (args[:args.index("--")] if "--" in args else args):
        # --json asked for: one JSON document on stdout all the same, as a command's own
        # errors give (a program reading stdout gets JSON either way)
        print(_dumps({"error": f"{message}{hint}"}, indent=2))
    err.print(f"[bold red]error:[/] {_escape(message)}{_escape(hint)}")
    sys.exit(int(getattr(exc, "exit_code", 2)))
