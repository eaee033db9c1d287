"""``play`` and ``resume``: a match at the keyboard, or from a script. The loop here reads
what the person types (or the script's lines), hands it to the session
(:mod:`kabucli.session`, which decides everything) and draws what happened; it stops the
match cleanly on quit, Ctrl-C, SIGTERM or a bad line, the log kept."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from kabucli.cli.common import (
    _SAID_JSON,
    EXIT_UNREADABLE,
    GameArg,
    JsonOpt,
    PlayersOpt,
    RuleOpt,
    RulesFileOpt,
    SeedOpt,
    TimeoutOpt,
    _console,
    _dumps,
    _escape,
    _events,
    _file_opt,
    _game,
    _interrupted,
    _json_on_failure,
    _log_named,
    _long_work,
    _markdown,
    _output_failed,
    _rules,
    _seed,
    _sigterm_stops,
    fail,
    said_ctrl_c,
)
from kabucli.completion import (
    complete_path,
    complete_program_bot,
    complete_seat_bot,
)
from kabucli.entry import to_null
from kabucli.figures import counted

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from kabucli.engine import Match
    from kabucli.events import Event
    from kabucli.session import Session


MAX_SCRIPT_BYTES = 16 * 2**20  # the largest move script read (about a million moves)


QUIT_WORDS = ("quit", "q", "exit")  # leave the game, at every prompt of play


# -- play --------------------------------------------------------------------------------

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
    timeout: TimeoutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play a game: interactive by default, or from a script; bots fill any seats."""
    from kabucli.errors import KabuError, WriteError
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
                     commit=commit, timeout=timeout)
    except WriteError as exc:  # the log cannot be made (a folder missing, not writable)
        fail(str(exc), EXIT_UNREADABLE)
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
    timeout: TimeoutOpt = None,
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
            sess, torn = do_resume(log, bot or [], progress=progress, timeout=timeout)
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


# the characters standard input keeps a byte that is not UTF-8 as (surrogateescape)
_ESCAPED = re.compile("[\udc80-\udcff]")


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


def _read_script(script: str | None) -> tuple[str, Iterator[tuple[int, str]]] | None:
    """The name and numbered lines of a move script (None: ask at the prompt). Read before
    the game starts, so an unreadable script stops everything and leaves no log behind."""
    from kabucli.files import not_utf8, read_bytes, size_text
    from kabucli.session import script_lines

    if script is None:
        return None
    try:
        if script == "-":  # standard input may never end either: read as much as a file
            text = sys.stdin.read(MAX_SCRIPT_BYTES + 1)
            if len(text) > MAX_SCRIPT_BYTES:
                fail(f"cannot read script -: larger than {size_text(MAX_SCRIPT_BYTES)}, the "
                     "most kabucli reads from such a file", EXIT_UNREADABLE)
            if not text.isascii():  # bytes that are not UTF-8 are read escaped (UTF-16,
                # Shift-JIS): refused as in a file, not read as moves
                text.encode("utf-8", "surrogateescape").decode()
        else:
            text = read_bytes(script, MAX_SCRIPT_BYTES, pipes=True).decode()
    except OSError as exc:
        fail(f"cannot read script {script}: {exc.strerror}", EXIT_UNREADABLE)
    except UnicodeDecodeError as exc:  # (standard input's counts from a piece of it)
        fail(f"script {script} {not_utf8(exc, script != '-')}", EXIT_UNREADABLE)
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
                why, code = _interrupted(exc, left=True)
                _stop(sess, why, code, as_json and not _SAID_JSON[0], reread=True)
    except LogWriteError as exc:
        saved = exc.saved if isinstance(exc.saved, Path) else None
        _stop(sess, str(exc), EXIT_UNREADABLE, as_json, saved,
              resumable=not isinstance(exc, LogFullError))
    except OSError as exc:  # the screen cannot be written: a full disk, a terminal gone
        # (EIO), a standard output closed. Said as any command's output that cannot be
        # written (kabucli.cli.main), but with the log kept and how to go on, as the game's
        # other stops say (the rest of the output sent nowhere; no JSON document either)
        if not _output_failed(exc):
            raise
        with contextlib.suppress(OSError, ValueError):
            to_null(sys.stdout.fileno())
        _stop(sess, f"cannot write the output: {exc.strerror}", EXIT_UNREADABLE, reread=True)


def _drive_on(sess: Session, moves: tuple[str, Iterator[tuple[int, str]]] | None, quiet: bool,
              as_json: bool) -> None:
    from kabucli import render
    from kabucli.errors import KabuError, LogWriteError
    from kabucli.notation import MAX_LINE, typed_form
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
                if not line.isascii() and _ESCAPED.search(line):  # (bytes not UTF-8, kept)
                    _said(out, "the line is not UTF-8 text (is the terminal or the file in "
                               "another encoding, such as Shift-JIS?)", "refused: ", "red")
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
            if len(line) <= MAX_LINE:  # (full-width forms folded: see typed_form)
                line = typed_form(line)
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
                # a move for later ('waiting for the deal, not for ...'): and what now, at the
                # prompt and in a script's refusal alike
                why += render.what_now(g, m, str(exc))
                if lines is None:
                    _said(out, why, "refused: ", "red")
                    continue
                _stop(sess, f"{source}:{number}: {_line_shown(line)}: {why}", 1, as_json)
    except KeyboardInterrupt as exc:  # Ctrl-C (or SIGTERM) while a move is played or bots
        # play (at the prompt: _typed), said as there: else typer makes it a silent exit 130,
        # the log unnamed (the log counted as read back: a Ctrl-C during an input's fsync
        # leaves it written, though the match never took it in)
        why, code = _interrupted(exc, lines is None and m.header.people)
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
    ``stopped``: why a match left unfinished stopped, null for one played to its end (every
    key always there, as in sim's report)."""
    m = sess.match
    return {"seed": None if sess.seed_secret() and not m.over else m.seed,
            "log": str(sess.log_path) if sess.log_path else None,
            "events": m.logged, "outcome": m.outcome() if m.over else None, "stopped": stopped}


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
        line = _typed(sess, out, as_json, lambda: _line(out, prompt, "an answer"))
        word = _word(line)
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
    from kabucli.files import EndlessLine, size_text

    try:
        return read()
    except EOFError:
        out.print()
        _stop(sess, "input ended", 0, as_json)
    except KeyboardInterrupt as exc:  # a person's Ctrl-C (or SIGTERM): said as such, not as
        out.print()  # input that ran out
        why, code = _interrupted(exc, left=True)
        _stop(sess, why, code, as_json)
    except UnicodeDecodeError:  # where the locale does not let Python escape it
        out.print()
        _stop(sess, "standard input is not text (UTF-8)", EXIT_UNREADABLE, as_json)
    except EndlessLine:
        out.print()
        _stop(sess, f"cannot read standard input: a line longer than "
                    f"{size_text(MAX_SCRIPT_BYTES)}, the most kabucli reads", EXIT_UNREADABLE,
              as_json)


def _line(out: Console, prompt: str, what: str = "a move") -> str:
    """The line typed at ``prompt`` (markup), as ``out.input`` reads it, but where standard
    input is no terminal (a pipe, a file, /dev/zero) read a bounded piece at a time
    (:func:`kabucli.files.read_line`: ``input()`` kept a line whole, however long, and a line
    with no end took 0.6 GB of memory a second). A line past MAX_LINE characters is refused in
    one line (``what`` it is: a move, an answer) and asked again; one past MAX_SCRIPT_BYTES
    raises EndlessLine; the end of the input raises EOFError."""
    from kabucli.files import read_line
    from kabucli.notation import MAX_LINE

    if sys.stdin.isatty():  # (a person types it: the terminal's own line is bounded)
        return out.input(prompt)
    while True:
        out.print(prompt, end="")
        got, length = read_line(sys.stdin, MAX_LINE, MAX_SCRIPT_BYTES)
        if got is None:
            raise EOFError
        if length <= MAX_LINE:
            return got
        _said(out, f"{what} is at most {MAX_LINE} characters, not {length}", "refused: ", "red")


def _word(answer: str) -> str:
    """An answer to a question of the game's as it is read: folded as a typed move is (a
    full-width ``ｙ`` is ``y``: see :func:`kabucli.notation.typed_form`), without the spaces
    around it, in lower case."""
    from kabucli.notation import typed_form

    return typed_form(answer).strip().lower()


def _answered(out: Console, prompt: str) -> str | None:
    """The line typed at a question of the game's (``prompt``); None when input ends or for
    Ctrl-C, which the questions take as no. SIGTERM (Terminated) stops the game: raised, once
    the question's line is ended (see _sigterm_stops)."""
    from kabucli.errors import Terminated
    from kabucli.files import EndlessLine

    try:
        return _line(out, prompt, "an answer")
    except Terminated:  # (its line not after the question)
        out.print()
        raise
    except (EOFError, KeyboardInterrupt, EndlessLine):
        out.print()
        return None


def _yes(out: Console, question: str) -> bool:
    """Ask a yes/no question at the prompt; anything but yes is no, but ``?`` or ``help``,
    which say what the answers are and ask again (a referee asking was told "not played")."""
    while True:
        line = _answered(out, f"{_escape(question)} [dim]\\[y/N][/] ")
        word = "" if line is None else _word(line)
        if word not in ("?", "help", "h"):
            return word in ("y", "yes")
        out.print("y or yes: yes, the move is played; n, no, Enter or anything else: no, it "
                  "is not")


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
        word = _word(line)
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
        from prompt_toolkit.history import InMemoryHistory

        from kabucli.prompt import LineEditor

        plain = bool(os.environ.get("NO_COLOR"))
        # Several people at one screen (a hot seat): Up recalls only the lines of the person
        # the table is drawn for, kept in memory (the game's history file would give one
        # person's rows or sets, typed before the screen was passed, to the next, or to a
        # later game); else one editor, with the game's history file. Each is made at its
        # first question: a game nobody types in makes none (prompt_toolkit's output showed
        # the cursor, writing escapes to a screen of bots' moves).
        hot = sess.hot_seat()
        editors: dict[int | None, LineEditor] = {}

        def ask_person(who: str, what: str) -> str:
            seat = sess.viewer() if hot else None
            editor = editors.get(seat)
            if editor is None:
                editor = editors[seat] = LineEditor(sess, stream, plain,
                                                    InMemoryHistory() if hot else None)
            return editor.ask(who, what)

        return ask_person

    def ask(who: str, what: str) -> str:
        return _line(out, f"[bold]{_escape(who)}[/] [dim]({_escape(what)})[/] > ")

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

    from kabucli.errors import HungUp, LogWriteError, Terminated
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
    if code and code not in (130, Terminated.exit_code, HungUp.exit_code):
        fail(f"{why}{kept}", code)
    # (a person's choice, or a signal's, said as such: no error, though a signal's exit is
    # its own, as kabucli sim's)
    _console(stderr=True).print(f"{_escape(why)}{_escape(kept)}")
    said_ctrl_c()
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
