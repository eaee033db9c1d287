"""The commands over recorded games: ``replay`` (as text, a pager, JSON or a web page),
``audit`` (each log checked against the rules, and its digest), ``log convert`` and ``log
repair``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from kabucli.cli.common import (
    EXIT_RULE,
    EXIT_UNREADABLE,
    JsonOpt,
    _Batch,
    _console,
    _dumps,
    _escape,
    _events,
    _file_named,
    _interrupted,
    _json_errors,
    _JsonStream,
    _log_named,
    _long_work,
    _sigterm_stops,
    fail,
)
from kabucli.completion import (
    complete_encoding,
    complete_path,
)
from kabucli.figures import counted

if TYPE_CHECKING:

    from kabucli.engine import Game, Match, Violation
    from kabucli.events import Event
    from kabucli.log import SeatInfo


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
    from kabucli.engine import Match, commitment_unbound, walk
    from kabucli.errors import LogError
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
        data = _read(log, strict=False)  # (its header checked against its game: log._scan)
        g = games.get(data.header.game)
        if data.error is None:  # shown whole, and then said unreadable, as audit says
            try:
                check_times(data)
            except LogError as exc:
                data.error = exc
        events: list[Event] = data.events
        viewer = None if as_seat is None else _viewer(as_seat, data.header.seats)
        if at is not None:
            if not 0 <= at <= len(events):
                from kabucli.safetext import short_number

                fail(f"--at {short_number(at)} is out of range: the log has events "
                     f"1-{len(events)} "
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
        from kabucli.errors import Terminated
        from kabucli.pager import Pager, page

        with _long_work("going through the match") as progress:  # (the first walk)
            pager = Pager(g, data, out, viewer, progress=progress)
        try:
            with _sigterm_stops():  # (the terminal put back, then one line: see Stoppable)
                violation = page(pager)
        except Terminated as exc:
            why, code = _interrupted(exc)
            _console(stderr=True).print(why)
            raise typer.Exit(code) from None
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


def _event_types_or_fail(name: str) -> Any:
    from kabucli import games
    from kabucli.errors import LogError, ParseError

    try:
        return games.event_types(name)
    except ParseError as exc:
        raise LogError(str(exc)) from None  # read_log names the header itself


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
    from kabucli.session import name_key, typed_names

    def number(word: str) -> int:  # a seat's number, p2 or 2; 0 when it is none
        word = name_key(word).strip().removeprefix("p")
        return int(word) if word.isascii() and word.isdigit() and len(word) < 4 else 0

    names = typed_names(seats)  # (keyed by name_key, as a typed line reads a name)
    key = name_key(text).strip()
    seat = number(text) or names.get(key, 0)
    if not 1 <= seat <= len(seats):
        # the people's names --as takes for their seats (a name that reads as a number is
        # that seat's number here); fail() makes the text safe to show
        also = "".join(f", {shown_name(seats[i - 1].name)} for p{i}"
                       for i in sorted(names.values())
                       if seats[i - 1].control == "human" and not number(seats[i - 1].name))
        shared = [i for i, s in enumerate(seats, 1) if name_key(s.name) == key]
        why = ("there is no such seat" if seat or len(shared) < 2 else
               f"{', '.join(f'p{i}' for i in shared[:-1])} and p{shared[-1]} share that name: "
               "name the seat")
        fail(f"--as {safe_text(text, 24)}: {why} (seats are p1-p{len(seats)}{also})")
    return seat


def _digest(data: Any) -> str | None:
    """A log's digest, as audit prints it (:func:`kabucli.log.log_digest`); None where audit
    finds no digest (a time on an event the engine derives, which audit refuses)."""
    from kabucli.errors import LogError
    from kabucli.log import log_digest

    try:
        return log_digest(data)
    except LogError:
        return None


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
                "error": None if data.error is None else str(data.error),
                # the log's digest, as audit prints it: only for a log whole and valid
                "digest": _digest(data) if violation is None and data.error is None else None}

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
    opened = lead

    def on_step(index: int, ev: Event, m: Match) -> None:
        nonlocal lead
        track(index, ev, m)
        stream.write(lead + _dumps({**step(index, ev), "state": g.view(m.state, viewer)}))
        lead = ",\n    "

    def close(end: dict[str, Any]) -> None:
        """The list of steps closed (opened here if it has none), then the members ``end``."""
        stream.write((opened.rstrip() if lead == opened else "") + "\n  ],\n" + members(end)
                     + "\n}\n", last=True)

    stream = _JsonStream()  # (a Ctrl-C: the document is closed, its steps so far in it)
    try:
        match, violation = walk(g, data.header, events, on_step)
        close(ending(match, violation))
    except KeyboardInterrupt as exc:  # (exit 130 all the same; SIGTERM 143, SIGHUP 129)
        if not stream.ended:  # (the keys that end a document there, null: not known)
            close({"outcome": None, "waiting": None, "violation": None, "error": None,
                   "digest": None, "interrupted": True})
        _terminated(exc)
        raise
    finally:
        stream.close()
    return violation


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
    from kabucli import render
    from kabucli.engine import Violation, commitment_unbound
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
            stream.write(("[\n  " if not items else ",\n  ") + body)
        items += 1

    # the lines of valid logs, printed together (rich's cost is per print: 77 us for a log's
    # two lines alone, 25 in a batch), and always before a line on stderr
    valid = _Batch(out, soft_wrap=True, highlight=False)
    counts = {"valid": 0, "invalid": 0, "unreadable": 0}

    progress = None
    if len(logs) > 20 and out.is_terminal and not as_json:
        from rich.progress import track

        progress = track(logs, description="auditing", console=err, transient=True)
    stream = _JsonStream(as_json)  # (a Ctrl-C: the array is closed, see below)

    def close() -> None:
        """The JSON array closed, once."""
        if as_json and not stream.ended:
            stream.write("\n]\n" if items else "[]\n", last=True)

    try:  # (lines waiting are shown however the loop ends: Ctrl-C too)
        for name, path in progress or logs:
            res: dict[str, Any] = {"log": str(path)}
            try:  # a format 2 binary log is streamed: checked as it is read, its events counted
                if not name:  # Path("") would be the current folder
                    res["log"] = ""
                    raise KabuError("the name is empty, not a log file")
                with (contextlib.nullcontext(None) if progress is not None or as_json
                      else _long_work(f"auditing {safe_text(str(path))}")) as tell:
                    # (the header checked against its game as it is read: log._scan)
                    data = audit_log(path, _event_types_or_fail, tell)
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
            if violation is None and value is not None and head.commit is None:
                # nothing to check the seed against: say so, not that the seed differs
                why = ("a real table has no seed" if head.seed is None
                       else "it was not played with --commit")
                violation = Violation(0, "log", "--commit", "it records no seed commitment "
                                      f"({why}), so nothing in it binds a seed to {value}...")
            if violation is None and value is not None and not (head.commit or "").startswith(
                    value):
                violation = Violation(0, "log", "--commit", "its seed commitment is "
                                      f"{head.commit}, not {value}...: its seed is "
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
                if data.unread:  # (cut short too: no 'kabucli resume' said, which refuses it)
                    res["error"] = f"{path}: {data.unread}"
                if not as_json:
                    line = (violation.line(str(path)) if violation.index
                            else f"{path}: {violation.reason}")
                    if data.unread:
                        line += f" (and it cannot be read to its end: {data.unread})"
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
        close()
    except KeyboardInterrupt as exc:  # (exit 130; SIGTERM 143, SIGHUP 129) the array of the
        close()                        # logs audited so far
        _terminated(exc)
        raise
    finally:
        stream.close()
        valid.flush()
    if not as_json and len(logs) > 1:  # (the lines of a few hundred logs: how many of each)
        out.print(_audit_counts(counts), highlight=False)
    raise typer.Exit(worst)


def _terminated(exc: KeyboardInterrupt) -> None:
    """A document closed after SIGTERM or SIGHUP (:class:`~kabucli.errors.Terminated`, raised
    by ``_JsonStream``) ends the command with the signal's own exit code, 143 or 129."""
    from kabucli.errors import Terminated

    if isinstance(exc, Terminated):
        raise typer.Exit(exc.exit_code) from None


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
    from kabucli.engine import commitment_unbound
    from kabucli.games import event_types
    from kabucli.log import convert_log, read_header, same_file

    if to not in (None, "msgpack", "jsonl"):
        fail(f"--to {to}: choose msgpack or jsonl")
    src = _log_named(src)
    dst = _file_named(dst, "DST")
    if same_file(src, dst):  # (before "exists; add --force", which would be refused next)
        fail(f"{dst}: cannot convert a log onto itself")  # (repair's code: nothing unreadable)
    if dst.exists() and not force:
        fail(f"{dst} already exists; add --force to overwrite it")
    with _log_failures():
        # a seed its commitment does not bind, said as audit and replay say it (it was said as
        # the first deal that seed does not give, as the new log's failure to be written)
        unbound = commitment_unbound(read_header(src, event_types))
        if unbound is not None:
            fail(f"{src}: {unbound.reason} (nothing written)")
        n = convert_log(src, dst, event_types, to, overwrite=force)  # type: ignore[arg-type]
    _console().print(f"wrote {_escape(str(dst))} ({_events(n)})", soft_wrap=True)


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
        # (a binary log holds the inputs: the events the engine derives after the last one
        # kept are there again, beyond what was counted kept: said, not left to puzzle over)
        again = audited.events - kept
        derived = (f"; the {counted(again, 'event', 'events')} after the {kept} kept derived "
                   "again by the engine" if again > 0 and v is None else "")
        verdict = (f"valid ({_events(audited.events)}, "
                   f"{'finished' if audited.match.over else 'unfinished'}{derived})" if v is None
                   else v.reason if not v.index  # (audit's words for the header's commitment)
                   else f"event {v.index} breaks a rule: {v.actor} {v.action!r}: {v.reason}")
    out.print(f"audit of {_escape(str(dst))}: {_escape(verdict)}", soft_wrap=True)
