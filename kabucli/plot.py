"""Charts of a run of matches (``kabucli sim`` and ``kabucli tournament`` with ``--plot`` or
``--html``): how each bot's mean result, and the ratings, moved as the matches were played.

matplotlib draws them; it is an optional extra (``pip install "kabucli[plot]"``), imported only
when a chart is asked for, so that kabucli starts as fast without it.

What is kept while the run goes on (:class:`Recorder`): the run's running sums (per bot its
matches played to their end, the sum of its results and of their squares; bot 1's wins, draws
and losses against bot 2; a tournament's ratings) at checkpoints, counted in the parent in the
order of the matches, so the chart is the same for any number of workers. The checkpoints are
evenly spaced and bounded: every match at first, and whenever ``capacity`` (2,000) are kept
every other one is dropped and the spacing doubles; the run's last match is always a point.
A run of a million matches thus keeps between 1,000 and 2,000 points (a few hundred kilobytes)
and a run without a chart keeps none. A point's mean and 95% interval are computed from its
sums exactly as the report computes them (:class:`kabucli.sim.BotStats`), and a two-bot run's
Elo difference as :func:`kabucli.ratings.head_to_head`: the last point is the report's figures.

The files are the same bytes for the same run: the non-interactive backends (Agg, svg, pdf),
no date in the metadata, and a fixed salt for the SVG's ids (``svg.hashsalt``).
"""

from __future__ import annotations

import html
import io
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kabucli.errors import KabuError, WriteError
from kabucli.figures import elo_pm, signed
from kabucli.ratings import elo_text, head_to_head
from kabucli.safetext import safe_text
from kabucli.sim import BotStats, SimReport

CAPACITY = 2000  # checkpoints kept at most (sim); see the module
TOURNAMENT_CAPACITY = 200  # a tournament's: each rates the whole field again
FORMATS = (".svg", ".png", ".pdf")
INSTALL = 'pip install "kabucli[plot]"'
SALT = "kabucli"

# (value, half-width of its 95% interval or None) per bot: a tournament's ratings now
Ratings = list[tuple[float, float | None]]


def require() -> None:
    """KabuError in one line when matplotlib cannot be imported (before a run is played)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise KabuError(f"--plot and --html draw with matplotlib, which is not installed: "
                        f"{INSTALL}") from None


def check_paths(plot: Path | None, page: Path | None) -> None:
    """KabuError when a chart could not be written there (checked before a run is played)."""
    if plot is not None and plot.suffix.lower() not in FORMATS:
        raise KabuError(f"--plot {plot}: name a .svg, .png or .pdf file (the format is its "
                        "suffix)")
    if plot is not None and page is not None and (os.path.realpath(plot)
                                                  == os.path.realpath(page)):
        raise KabuError(f"--plot and --html name one file, {page}: the page would be written "
                        "over the chart; name two files")
    for opt, path in (("--plot", plot), ("--html", page)):
        if path is None:
            continue
        if len(os.fsencode(path.name)) > 255:
            raise KabuError(f"{opt} {str(path)[:60]}...: a file name is at most 255 bytes")
        if path.is_dir():
            raise KabuError(f"{opt} {path} is a folder: name a file")
        from kabucli.log import holds_log

        if holds_log(path):
            raise KabuError(f"{opt} {path} holds a kabucli log, which a chart never "
                            "replaces: name another file")
        parent = path.parent
        if not parent.is_dir():
            raise KabuError(f"{opt} {path}: the folder {parent} is not there")


@dataclass(frozen=True)
class Point:
    """The run's running sums after ``matches`` matches."""

    matches: int
    # per bot: played, total, squares, and in a tournament the sums over deals its
    # interval is computed from (BotStats: deals, deal_tt, deal_tn, deal_nn)
    bots: tuple[tuple[int, int, int, int, int, int, int], ...]
    wdl: tuple[int, int, int]
    ratings: tuple[tuple[float, float | None], ...] = ()


@dataclass
class Recorder:
    """The run's running sums at evenly spaced checkpoints (see the module)."""

    capacity: int = CAPACITY
    rate: Callable[[], Ratings] | None = None  # a tournament's ratings now
    step: int = 1
    points: list[Point] = field(default_factory=list)

    def watch(self, on_match: Callable[[SimReport], None] | None
              ) -> Callable[[SimReport], None]:
        """An ``on_match`` for :func:`kabucli.sim.simulate` that records, then tells
        ``on_match``."""
        def both(report: SimReport) -> None:
            self.add(report)
            if on_match is not None:
                on_match(report)
        return both

    def expect(self, total: int) -> None:
        """Told before the first match that the run plays ``total``: the spacing starts at
        the one the run would end with, so the points kept are the same and none is made to
        be dropped. A tournament rates its whole field at each point: 141 bots' 19,740
        matches made about 900 points to keep 200 (576 matches played in 300 s)."""
        if not self.points:
            while total // self.step > self.capacity:
                self.step *= 2

    def add(self, report: SimReport) -> None:
        """Told of the report after each match is counted, in the order of the matches."""
        m = report.matches
        if m % self.step:
            return
        if len(self.points) >= self.capacity:
            self.step *= 2
            self.points = [p for p in self.points if p.matches % self.step == 0]
            if m % self.step:
                return
        self.points.append(self._point(report))

    def finish(self, report: SimReport) -> None:
        """The run's last match is a point (a run stopped early too)."""
        if report.matches and (not self.points or self.points[-1].matches != report.matches):
            self.points.append(self._point(report))

    def _point(self, report: SimReport) -> Point:
        w, d, l_ = report.wdl
        return Point(report.matches, tuple((b.played, b.total, b.squares, b.deals, b.deal_tt,
                                            b.deal_tn, b.deal_nn) for b in report.bots),
                     (w, d, l_), tuple(self.rate()) if self.rate is not None else ())


@dataclass
class Line:
    """One curve: its label, and per point its value with the ends of its 95% interval
    (NaN where there is none yet)."""

    label: str
    value: list[float]
    low: list[float]
    high: list[float]
    legend: str = ""  # the label with the last point's figures


@dataclass
class Series:
    """What a chart draws: the matches of each point, per bot the mean result, and the
    ratings (none, one Elo difference, or one rating per bot)."""

    x: list[int]
    measure: str
    means: list[Line]
    rating_name: str = ""  # the y axis of the ratings panel (its bands: 95% intervals)
    # a rating whose interval has no end (a score of 0 or 1 so far) has its band reach the
    # panel's edge; a tournament's rating has none missing but a bot's that has not played yet
    # (kabucli.ratings: the prior's drawn game bounds every other)
    open_ends: bool = True
    ratings: list[Line] = field(default_factory=list)


NAME_LIMIT = 40  # characters of a bot's name a chart shows (the page's table shows it all)
# bots a panel's legend names at the most: a tournament's field of 141 had a legend taller
# than its chart (matplotlib warned on stderr that it could not lay the figure out); a larger
# field's legend names the bots highest at the end, and says of how many
LEGEND_MOST = 12


def _short(name: str) -> str:
    return name if len(name) <= NAME_LIMIT else name[:NAME_LIMIT - 1] + "…"


def _num(v: float | None) -> float:
    return math.nan if v is None or not math.isfinite(v) else float(v)


def series(rec: Recorder, names: Sequence[str], measure: str, rating: str = "") -> Series:
    """The curves of the points ``rec`` kept. ``rating``: "" (none), "h2h" (a two-bot sim:
    the Elo difference of bot 1 over bot 2) or "elo" (a tournament's ratings)."""
    pts = rec.points
    names = [_short(safe_text(n)) for n in names]
    means = []
    for i, name in enumerate(names):
        value, low, high = [], [], []
        last = BotStats(name)
        for p in pts:
            played, total, squares, deals, tt, tn, nn = p.bots[i]
            last = BotStats(name, played=played, total=total, squares=squares, deals=deals,
                            deal_tt=tt, deal_tn=tn, deal_nn=nn)
            m = last.mean if played else math.nan
            ci = last.ci95
            value.append(m)
            low.append(m - ci if math.isfinite(ci) else math.nan)
            high.append(m + ci if math.isfinite(ci) else math.nan)
        d = last.as_dict()
        ci_text = "" if d["ci95"] is None else f" ± {d['ci95']:.2f}"
        legend = (f"{name}: {signed(last.mean, 2)}{ci_text}" if last.played  # as the report:
                  else f"{name}: no match played to its end")  # no mean ("-"), not 0.00
        means.append(Line(name, value, low, high, legend if pts else name))
    out = Series([p.matches for p in pts], measure, means)
    if rating == "h2h":
        hs = [head_to_head(*p.wdl) for p in pts]
        line = Line(f"{names[0]} over {names[1]}", [_num(h["elo"]) for h in hs],
                    [_num(h["elo_low"]) for h in hs], [_num(h["elo_high"]) for h in hs])
        if hs and hs[-1]["score"] is not None:
            h = hs[-1]
            mid, lo, hi = (elo_text(h, k, ".1f") for k in ("elo", "elo_low", "elo_high"))
            line.legend = f"{line.label}: {mid} (95%: {lo} to {hi})"  # as the report
        out.rating_name, out.ratings = "Elo difference", [line]
    elif rating == "elo":
        out.rating_name = "Elo"
        out.open_ends = False
        for i, name in enumerate(names):
            # a bot's rating once it has played (before, it is the others' mean: 0)
            vals = [p.ratings[i] if p.bots[i][0] else (math.nan, None) for p in pts]
            line = Line(name, [v for v, _ in vals],
                        [math.nan if e is None else v - e for v, e in vals],
                        [math.nan if e is None else v + e for v, e in vals])
            if pts:  # as the report shows it
                v, e = pts[-1].ratings[i]
                line.legend = (f"{name}: {elo_pm(v, e)}" if pts[-1].bots[i][0]
                               else f"{name}: no match played")
            out.ratings.append(line)
    return out


def _limits(x: Sequence[int], lines: Sequence[Line], skip: float = 0.05
            ) -> tuple[float, float] | None:
    """A y range that shows the curves once they settle (after the first ``skip`` of the
    matches): the first matches' intervals are as wide as the results go, and would flatten
    the rest."""
    if not x:
        return None
    start = x[-1] * skip
    vals = [v for line in lines for k, xi in enumerate(x) if xi >= start
            for v in (line.value[k], line.low[k], line.high[k]) if math.isfinite(v)]
    if not vals:
        return None
    lo, hi = min(vals), max(vals)
    pad = (hi - lo) * 0.08 or max(abs(hi), 1.0) * 0.1
    return lo - pad, hi + pad


def figure(data: Series, title: str) -> Any:
    """The chart as a matplotlib Figure (no pyplot, no window)."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    panels = 2 if data.ratings else 1
    fig = Figure(figsize=(9, 4.2 * panels + 0.8), layout="constrained")
    axes = fig.subplots(panels, 1, sharex=True, squeeze=False)[:, 0]
    if title:  # (a page heads the chart itself)
        fig.suptitle(safe_text(title), fontsize=13, fontweight="bold")
    what = "chips" if data.measure == "chips" else data.measure
    todo = [("means", axes[0], data.means, f"mean {what} per match so far",
             f"Mean {what} per match, with its 95% interval", True, 0.05)]
    if data.ratings:
        # a tournament's groups meet one after the other: its ratings settle later
        todo.append(("ratings", axes[1], data.ratings, data.rating_name,
                     f"{data.rating_name}, with its 95% interval", data.open_ends,
                     0.05 if data.open_ends else 0.25))
    for panel, ax, lines, ylabel, heading, open_ends, skip in todo:
        ax.set_gid(panel)
        ax.set_title(heading, fontsize=11, loc="left")
        ax.axhline(0.0, color="0.55", linewidth=0.8, linestyle="--", zorder=1)
        lim = _limits(data.x, lines, skip)
        named = _legend_lines(lines)
        drawn = []
        for k, line in enumerate(lines, 1):
            color = f"C{(k - 1) % 10}"
            low, high = line.low, line.high
            if lim is not None and open_ends:  # an interval with no end yet (too few
                # matches, a score of 0 or 1) reaches the edge of the panel, also where its
                # value has none either (every match won: the lower end is all there is)
                low = [lim[0] if math.isnan(lo) and (math.isfinite(v) or math.isfinite(hi))
                       else lo for lo, v, hi in zip(low, line.value, line.high, strict=True)]
                high = [lim[1] if math.isnan(hi) and (math.isfinite(v) or math.isfinite(lo))
                        else hi for hi, v, lo in zip(high, line.value, line.low, strict=True)]
            ax.fill_between(data.x, low, high, color=color, alpha=0.18,
                            linewidth=0, gid=f"{panel}-band-{k}", zorder=2)
            drawn += ax.plot(data.x, line.value, color=color, linewidth=1.8,
                             label=line.legend or line.label, gid=f"{panel}-line-{k}",
                             zorder=3)
        ax.set_ylabel(ylabel)
        ax.grid(True, color="0.9", linewidth=0.8)
        ax.set_axisbelow(True)
        ax.legend(handles=[drawn[k] for k in named], loc="best", fontsize=9, framealpha=0.9,
                  title=(None if len(named) == len(lines)
                         else f"the {len(named)} highest of {len(lines)}"),
                  title_fontsize=9)
        if lim is not None:
            ax.set_ylim(*lim)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes[-1].set_xlabel("matches played")
    if data.x:
        axes[-1].set_xlim(0, max(data.x[-1], 1))
    return fig


def _legend_lines(lines: Sequence[Line]) -> list[int]:
    """The lines a legend names, as indices: all of them in the order drawn, or, of more than
    LEGEND_MOST, the LEGEND_MOST highest at their last value, highest first (a line with no
    value yet last; equal ones in the order drawn)."""
    if len(lines) <= LEGEND_MOST:
        return list(range(len(lines)))

    def last(k: int) -> float:
        value = lines[k].value[-1] if lines[k].value else math.nan
        return -math.inf if math.isnan(value) else value

    return sorted(range(len(lines)), key=lambda k: (-last(k), k))[:LEGEND_MOST]


def _metadata(fmt: str) -> dict[str, Any]:
    if fmt == "svg":
        return {"Date": None}
    if fmt == "pdf":
        return {"CreationDate": None, "ModDate": None}
    return {}


def render(data: Series, title: str, fmt: str) -> bytes:
    """The chart's file in ``fmt`` (svg, png, pdf)."""
    import matplotlib

    # text as <text> (searchable, read by the viewer's fonts), ids salted the same, and
    # bots' names as they are: "$" starts no formula
    with matplotlib.rc_context({"svg.hashsalt": SALT, "svg.fonttype": "none",
                                "font.size": 10, "text.parse_math": False}):
        fig = figure(data, title)
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, metadata=_metadata(fmt), dpi=110)
    return buf.getvalue()


def _write(path: Path, data: bytes, opt: str) -> None:
    """A chart or page written whole (one written before is replaced), never over a log."""
    from kabucli.files import write_whole
    from kabucli.log import holds_log

    if holds_log(path):
        raise KabuError(f"{opt} {path} holds a kabucli log, which a chart never replaces: "
                        "name another file")
    try:
        write_whole(path, lambda fh: fh.write(data), True)
    except OSError as exc:
        raise WriteError(f"{opt} {path}: cannot write it: {exc.strerror or exc}") from None


def write_plot(path: Path, data: Series, title: str) -> None:
    _write(path, render(data, title, path.suffix.lower().lstrip(".")), "--plot")


_SVG_START = re.compile(r"<svg\b", re.S)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
_XMLNS = re.compile(r'\s+xmlns(:\w+)?="[^"]*"')


def inline_svg(svg: bytes) -> str:
    """An SVG file as an element of an HTML page: no XML prolog, no metadata, no namespace
    declarations (an HTML parser knows the svg element), so the page names no address."""
    text = svg.decode("utf-8")
    start = _SVG_START.search(text)
    if start is None:
        raise KabuError("matplotlib wrote no <svg> element")
    text = _METADATA.sub("", text[start.start():])
    head, sep, rest = text.partition(">")
    return _XMLNS.sub("", head) + sep + rest


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="kabucli">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222;
       padding: 0 1em; overflow-wrap: anywhere; }}
h1 {{ font-size: 1.3em; }}
figure {{ margin: 0; }}
figure svg {{ width: 100%; height: auto; }}
.scroll {{ overflow-x: auto; margin: 1em 0; }}
table {{ border-collapse: collapse; }}
caption {{ text-align: left; font-weight: bold; padding: 0.3em 0; }}
th, td {{ padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; }}
th {{ background: #f3f3f3; }}
td.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
th, td.n {{ white-space: nowrap; overflow-wrap: normal; }}
td:not(.n) {{ min-width: 9em; }}
p.line {{ font-family: monospace; white-space: pre-wrap; }}
</style>
</head>
<body>
<h1>{title}</h1>
<figure>
{svg}
</figure>
{tables}
{lines}
</body>
</html>
"""


@dataclass
class Table:
    """A table of the text report: its title, columns and rows of text, as printed."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    text: set[int] = field(default_factory=set)  # the columns of words; the rest are figures

    def html(self, page_title: str = "") -> str:
        """The table for a page headed ``page_title``: a table titled as the page (and what
        the title adds, such as the workers) is captioned "Results" (and that), so the page
        does not say its title three times (its heading, the chart's, the table's)."""
        caption = self.title
        if page_title and caption.startswith(page_title):
            caption = f"Results {caption[len(page_title):].strip()}".strip()
        head = "".join(f"<th>{_e(c)}</th>" for c in self.columns)
        body = "\n".join(
            "<tr>" + "".join(f"<td>{_e(v)}</td>" if k in self.text else
                             f'<td class="n">{_e(v)}</td>' for k, v in enumerate(row)) + "</tr>"
            for row in self.rows)
        # in a box of its own that scrolls sideways where the page is narrower (a phone)
        return (f'<div class="scroll"><table>\n<caption>{_e(caption)}</caption>\n'
                f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table></div>")


def _e(text: str) -> str:
    """Text for an HTML page: escaped, and nothing a reader would be misled by (control and
    bidi characters shown as escapes, as on a terminal)."""
    return html.escape(safe_text(text))


def page(data: Series, title: str, tables: Sequence[Table], lines: Sequence[str]) -> str:
    """One self-contained HTML page: the chart inlined as SVG, the report's tables and lines
    (every text escaped: bots' names come from users)."""
    svg = inline_svg(render(data, "", "svg"))  # the page's heading is the chart's title
    return PAGE.format(title=_e(title), svg=svg,
                       tables="\n".join(t.html(title) for t in tables),
                       lines="\n".join(f'<p class="line">{_e(x)}</p>' for x in lines))


def write_html(path: Path, data: Series, title: str, tables: Sequence[Table],
               lines: Sequence[str]) -> None:
    _write(path, page(data, title, tables, lines).encode("utf-8"), "--html")


def write(rec: Recorder, report: SimReport, names: Sequence[str], title: str,
          tables: Sequence[Table], lines: Sequence[str], plot: Path | None, page_path: Path | None,
          rating: str = "") -> Series:
    """After a run: its last point, then the chart at ``plot`` and the page at ``page_path``
    (either may be None). The series drawn."""
    rec.finish(report)
    data = series(rec, names, report.measure, rating)
    if plot is not None:
        write_plot(plot, data, title)
    if page_path is not None:
        write_html(page_path, data, title, tables, lines)
    return data
