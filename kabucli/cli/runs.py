"""The commands that play many matches between bots: ``sim``, ``tournament`` and ``bot
check``, with their live tables, progress bars, reports and charts."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from kabucli.cli.common import (
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
    _file_opt,
    _game,
    _interrupted,
    _json_on_failure,
    _named,
    _rules,
    _seed,
    _sigterm_stops,
    fail,
    said_ctrl_c,
)
from kabucli.completion import (
    complete_backend,
    complete_bot_kind,
    complete_builtin_bot,
    complete_format,
    complete_path,
    complete_players,
)
from kabucli.figures import counted, elo_pm, plain, shares, signed

if TYPE_CHECKING:
    from rich.console import Console


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
        # (a hair below zero, as fastchess's often is: no minus)
        out.append(f"SPRT [{sp['elo0']:g}, {sp['elo1']:g}] ({sp['model']}): LLR "
                   f"{plain(sp['llr'], 2)} (bounds {sp['lower']:.2f}, {sp['upper']:.2f}): "
                   f"{sp['result']}")
    return out


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
             "rounds to the 'target'; Kabu-Tsukuri: 'hands' hands).")] = 100,
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
    from kabucli.errors import KabuError, WriteError

    try:
        charts.write(rec, report, names, title,
                     [charts.Table(t, c, rows, _text_columns(c)) for t, c, rows in tables],
                     lines, plot, html, rating)
    except KabuError as exc:  # (a file that cannot be written: 2, as README's exit codes say)
        fail(str(exc), EXIT_UNREADABLE if isinstance(exc, WriteError) else 1)


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
        from kabucli.safetext import short_number

        fail(f"{g.title} takes {g.min_players}-{g.max_players} players, not --seats "
             f"{short_number(seats)}")
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
    # a bot that played no match (a run stopped early) has no rating: unranked, after the rest
    rated = sorted((i for i in range(len(bot)) if rep.ratings[i]["elo"] is not None),
                   key=lambda i: -rep.ratings[i]["elo"])
    ranked = rated + [i for i in range(len(bot)) if rep.ratings[i]["elo"] is None]
    rows = []
    wins = shares(b.wins for b in report.bots)
    for rank, i in enumerate(ranked, 1):
        b, rt = report.bots[i], rep.ratings[i]
        rows.append([str(rank) if rt["elo"] is not None else "-", names[i], str(b.matches),
                     wins[i], f"{b.wins / b.matches:.1%}" if b.matches else "-",
                     signed(b.mean, 2) if b.played else "-",
                     str(b.forfeits),
                     elo_pm(rt["elo"], rt["ci95"]) if rt["elo"] is not None else "-"])
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
    for line in lines:  # (whole, as every one-line message: piped, rich broke one at 80)
        out.print(_escape(line), soft_wrap=True)
    _print_failures(out, report)
    if report.reused:
        out.print(f"[dim]{_matches(report.reused)} reused from {_escape(str(logs))}[/]",
                  soft_wrap=True)
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
    seed: Annotated[str | None, typer.Option(
        "--seed", "-s", metavar="N", help="Seed of the first match, the next ones' from it "
        "upwards (0 to 2**64-1; 1 when left out: a check plays the same matches each time)."
    )] = None,
    rule: RuleOpt = None,
    rules_file: RulesFileOpt = None,
    timeout: TimeoutOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check that a bot program keeps the protocol: one line per check, exit 0 if all pass."""
    import shlex

    from kabucli.botcheck import check_bot
    from kabucli.errors import KabuError
    from kabucli.safetext import safe_text, short_number

    g = _game(game)
    r = _rules(g, rule or [], rules_file)
    s = _seed(seed)
    if players is not None and not g.min_players <= players <= g.max_players:
        fail(f"{g.title} takes {g.min_players}-{g.max_players} players, not "
             f"{short_number(players)}")
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
    except KeyboardInterrupt as exc:  # Ctrl-C; SIGTERM, SIGHUP (Terminated): the checks left
        why, stop = _interrupted(exc)
        if as_json:  # (a program reading stdout gets its document, as from sim)
            print(_dumps({"command": command, "ok": False, "checks": [], "stopped": why},
                         indent=2))
        _console(stderr=True).print(why)
        said_ctrl_c()
        raise typer.Exit(stop) from None
    code = 0 if all(c.ok for c in checks) else 1
    if as_json:
        print(_dumps({"command": command, "ok": code == 0,
                      "checks": [c.as_dict() for c in checks], "stopped": None}, indent=2))
        raise typer.Exit(code)
    out = _console()
    width = max(len(c.name) for c in checks)
    for c in checks:
        mark = "[green]ok  [/]" if c.ok else "[bold red]FAIL[/]"
        why = c.detail if c.ok else f"{c.failures[0]}" + (
            f" (and {len(c.failures) - 1} more)" if len(c.failures) > 1 else "")
        out.print(f"{mark} {c.name.ljust(width)}  {_escape(why)}", soft_wrap=True)
    raise typer.Exit(code)
