"""`kabucli sim` / `kabucli tournament` --plot and --html: the charts of a run (kabucli/plot.py).

matplotlib is part of the test extras (CI installs it): these tests are never skipped. The
charts are read back (the SVG as XML, the PNG's header and size, the page's tables) and their
figures compared with the report's own (--json of the same run)."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.plot import CAPACITY, Recorder, series
from kabucli.ratings import head_to_head
from kabucli.rules import build
from kabucli.sim import BotStats, SimReport, simulate

ROOT = Path(__file__).resolve().parent.parent
DARE = games.get("dare")
SVG = "{http://www.w3.org/2000/svg}"
runner = CliRunner()
BOT = ("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
       "    if m['type'] == 'turn':\n        print(m['legal'][-1], flush=True)\n")


def run(*args: str) -> tuple[int, str]:
    res = runner.invoke(app, list(args))
    assert "Traceback" not in res.output
    return res.exit_code, res.output


def sim_json(*args: str, rounds: int = 2) -> dict:
    code, out = run("sim", "dare", "--rule", f"rounds={rounds}", "--seed", "5", "-j", "1",
                    "--json", *args)
    assert code == 0, out
    return json.loads(out)


def svg_tree(path: Path) -> ET.Element:
    return ET.parse(path).getroot()


def by_id(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("id", ""): e for e in root.iter() if e.get("id")}


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def legend(data: dict, i: int) -> str:
    """Bot ``i``'s legend entry, from the report's figures, as the report prints them."""
    b = data["bots"][i]
    return f"#{i + 1} {b['bot']}: {b['mean_chips']:+.2f} ± {b['ci95']:.2f}"


def test_the_svg_has_a_curve_and_a_band_per_bot_labelled_with_the_reports_figures(
        tmp_path: Path) -> None:
    out = tmp_path / "run.svg"
    data = sim_json("-b", "best", "-b", "random", "-b", "random", "-m", "40",
                    "--plot", str(out))
    root = svg_tree(out)
    ids = by_id(root)
    for k in (1, 2, 3):
        line = ids[f"means-line-{k}"]
        assert line.find(f"{SVG}path") is not None  # the curve itself
        band = ids[f"means-band-{k}"]
        assert band.find(f".//{SVG}path") is not None
    assert "means-line-4" not in ids and "ratings-line-1" not in ids  # 3 bots: no Elo
    words = texts(root)
    assert "matches played" in words and "mean chips per match so far" in words
    assert "Dare: 40 matches from seed 5, bots change seats" in words
    for i in range(3):
        assert legend(data, i) in words


def test_the_series_ends_at_the_reports_mean_interval_and_elo() -> None:
    rules = build(DARE.Rules, ["rounds=2"])
    rec = Recorder()
    report = simulate(DARE, rules, ["best", "random"], 60, 11, on_match=rec.watch(None))
    rec.finish(report)
    data = series(rec, ["#1 best", "#2 random"], report.measure, "h2h")
    assert data.x == list(range(1, 61))
    for line, b in zip(data.means, report.bots, strict=True):
        assert line.value[-1] == b.mean
        assert line.low[-1] == b.mean - b.ci95 and line.high[-1] == b.mean + b.ci95
        # and every point is the running mean of the matches so far
        assert len(line.value) == 60
    h = head_to_head(*report.wdl)
    (elo,) = data.ratings
    assert h["elo"] is not None and elo.value[-1] == h["elo"]
    assert elo.low[-1] == (h["elo_low"] if h["elo_low"] is not None else elo.low[-1])
    assert elo.high[-1] == (h["elo_high"] if h["elo_high"] is not None else elo.high[-1])


def test_every_point_is_the_report_of_the_matches_so_far() -> None:
    """A point after m matches is what a run of m matches reports."""
    rules = build(DARE.Rules, ["rounds=1"])
    rec = Recorder()
    simulate(DARE, rules, ["best", "random", "random"], 30, 3, on_match=rec.watch(None))
    data = series(rec, ["a", "b", "c"], "chips")
    for m in (1, 2, 17, 30):
        short = simulate(DARE, rules, ["best", "random", "random"], m, 3)
        for line, b in zip(data.means, short.bots, strict=True):
            assert line.value[m - 1] == b.mean
            if b.played >= 2:
                assert line.high[m - 1] == b.mean + b.ci95


def test_two_bots_get_the_elo_panel_labelled_as_the_report(tmp_path: Path) -> None:
    out = tmp_path / "two.svg"
    data = sim_json("-b", "best", "-b", "random", "-m", "30", "--plot", str(out))
    root = svg_tree(out)
    ids = by_id(root)
    assert {"means-line-1", "means-line-2", "ratings-line-1", "ratings-band-1"} <= set(ids)
    words = texts(root)
    assert "Elo difference" in words
    h = data["head_to_head"]
    label = next(w for w in words if w.startswith("#1 best over #2 random: "))
    assert f"{h['elo']:+.1f}" in label if h["elo"] is not None else "inf" in label


def test_the_chart_is_the_same_bytes_for_any_number_of_workers(tmp_path: Path) -> None:
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.svg"
        code, text = run("sim", "dare", "-b", "best", "-b", "random", "-m", "120", "--seed",
                         "9", "--rule", "rounds=1", "-j", workers, "--plot", str(out))
        assert code == 0, text
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert b'id="means-line-1"' in outs[0]
    # and the series themselves, with the workers' results reaching the parent in any order
    rules = build(DARE.Rules, ["rounds=1"])
    points = []
    for workers in (1, 2):
        rec = Recorder()
        simulate(DARE, rules, ["best", "random"], 120, 9, on_match=rec.watch(None),
                 workers=workers)
        points.append(rec.points)
    assert points[0] == points[1] and len(points[0]) == 120


def test_pdf_and_svg_are_the_same_bytes_run_again(tmp_path: Path) -> None:
    for suffix in ("svg", "pdf"):
        made = []
        for n in (1, 2):
            out = tmp_path / f"{n}.{suffix}"
            code, text = run("sim", "dare", "-b", "best", "-b", "random", "-m", "5",
                             "--seed", "1", "-j", "1", "--plot", str(out))
            assert code == 0, text
            made.append(out.read_bytes())
        assert made[0] == made[1]
    assert made[0].startswith(b"%PDF-")


def test_png_is_a_real_png_of_the_figures_size(tmp_path: Path) -> None:
    out = tmp_path / "run.png"
    code, text = run("sim", "dare", "-b", "best", "-b", "random", "-m", "8", "--seed", "1",
                     "-j", "1", "--plot", str(out))
    assert code == 0, text
    raw = out.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and raw[12:16] == b"IHDR"
    width, height = int.from_bytes(raw[16:20], "big"), int.from_bytes(raw[20:24], "big")
    assert (width, height) == (990, 1012)  # 9 x 9.2 inches at 110 dpi: two panels
    import matplotlib.image

    pixels = matplotlib.image.imread(out)
    assert pixels.shape[:2] == (height, width)
    assert pixels.min() < 0.5  # something is drawn on the white


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[str] = []
        self.cells: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(v or "" for _, v in attrs)
        if tag == "td":
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def test_the_html_page_holds_the_svg_and_the_reports_table_with_names_escaped(
        tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(BOT)
    hostile = "</td><script>alert(1)</script>&amp;<img src=https://x.test/a.png>"
    kind = f"cmd:{sys.executable} {tmp_path / 'bot.py'} '{hostile}'"
    page = tmp_path / "run.html"
    data = sim_json("-b", "best", "-b", kind, "-m", "6", "--html", str(page))
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert text.count("<svg") == 1 and "</svg>" in text
    assert "<script" not in text and "<img" not in text
    assert "&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;" in text
    parsed = _Page()
    parsed.feed(text)
    assert "script" not in parsed.tags and "img" not in parsed.tags
    # no address anywhere but in the (escaped) name: nothing is fetched from a network
    assert not re.search(r"https?:", text.replace("src=https://x.test/a.png", ""))
    assert not any(re.search(r"https?:|url\((?!#)|href=(?!#)", v) for v in parsed.attrs)
    assert "@import" not in text
    assert "svg" in parsed.tags and "table" in parsed.tags
    cells = parsed.cells
    for i, b in enumerate(data["bots"]):
        row = cells[cells.index(f"#{i + 1} {b['bot']}"):][:7]
        assert row == [f"#{i + 1} {b['bot']}", str(b["matches"]), f"{b['wins']:g}",
                       f"{b['win_rate']:.1%}", f"{b['mean_chips']:+.2f}", f"±{b['ci95']:.2f}",
                       str(b["forfeits"])]
    h = data["head_to_head"]
    assert f"{h['wins']} W / {h['draws']} D / {h['losses']} L" in text  # the report's line
    assert legend(data, 0) in text  # the chart's legend, inlined


@contextlib.contextmanager
def shown(page: Path, width: int, height: int) -> Iterator[Any]:
    """``page`` opened in Chromium (headless) in a window of ``width`` x ``height``."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium",
                                     args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            view = browser.new_page(viewport={"width": width, "height": height})
            view.goto(page.as_uri())
            yield view
        finally:
            browser.close()


def lines_in(view: Any, cells: str) -> list[int]:
    """How many lines the text of each of the ``cells`` (a CSS selector) takes."""
    return list(view.evaluate(f"Array.from(document.querySelectorAll('{cells}')).map(td => {{"
                              "const r = document.createRange(); r.selectNodeContents(td);"
                              "return r.getClientRects().length; })"))


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists() and not os.environ.get("CI"),
                    reason="/usr/bin/chromium is missing (CI installs it)")
def test_a_long_bot_command_wraps_inside_the_html_page(tmp_path: Path) -> None:
    # one unbroken word longer than the window: the page stays as wide as the window, and the
    # figures keep to one line each
    (tmp_path / "bot.py").write_text(BOT)
    kind = f"cmd:{sys.executable} {tmp_path / 'bot.py'} {'X' * 400}"
    page = tmp_path / "run.html"
    sim_json("-b", "best", "-b", kind, "-m", "2", "--html", str(page))
    with shown(page, 1280, 900) as view:
        width = view.evaluate("document.documentElement.scrollWidth")
        figures = lines_in(view, "td.n")
    assert width <= 1280, width
    assert figures and set(figures) == {1}, figures  # each on one line


def test_the_html_table_is_the_text_reports(tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    args = ["sim", "dare", "-b", "best", "-b", "random", "-b", "random", "-m", "12",
            "--seed", "4", "-j", "1"]
    code, text = run(*args)
    assert code == 0, text
    code, _ = run(*args, "--html", str(page))
    assert code == 0
    parsed = _Page()
    parsed.feed(page.read_text(encoding="utf-8"))
    rows = [parsed.cells[k:k + 7] for k in range(0, 21, 7)]
    for row in rows:  # each row of the page is a row of the text report
        assert re.search(r"\s+".join(re.escape(c) + r"\s*[│|]" for c in row[1:]), text), row


@pytest.mark.parametrize(("opt", "name", "said"), [
    ("--plot", "nowhere/run.svg", "the folder nowhere is not there"),
    ("--plot", "run.txt", "name a .svg, .png or .pdf file"),
    ("--plot", "made.svg", "is a folder"),
    ("--html", "nowhere/run.html", "the folder nowhere is not there"),
    ("--html", "made.html", "is a folder"),
    # one file for both: the page was written over the chart, exit 0, the chart lost
    ("--html", "run.svg", "--plot and --html name one file"),
    ("--html", "./sub/../run.svg", "--plot and --html name one file"),
])
def test_a_bad_output_path_is_one_line_before_any_match(tmp_path: Path, opt: str, name: str,
                                                         said: str) -> None:
    logs = tmp_path / "logs"
    (tmp_path / "made.svg").mkdir()
    (tmp_path / "made.html").mkdir()
    (tmp_path / "sub").mkdir()
    both = ["--plot", "run.svg"] if opt == "--html" and name.endswith(".svg") else []
    res = subprocess.run([sys.executable, "-m", "kabucli", "sim", "dare", "-b", "best", "-b",
                          "random", "-m", "3", "--logs", str(logs), *both, opt, name],
                         cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)})
    assert res.returncode == 1
    assert res.stdout == "" and res.stderr.count("\n") == 1
    assert res.stderr.startswith("error: ") and said in res.stderr
    assert not logs.exists()  # nothing was played


HIDE = ("import sys; sys.modules['matplotlib'] = None\n"
        "from kabucli.cli import main\n"
        "sys.argv = ['kabucli', *sys.argv[1:]]\n"
        "main()\n")


def test_without_matplotlib_plot_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
    for opt, name in (("--plot", "run.svg"), ("--html", "run.html")):
        logs = tmp_path / f"logs{opt}"
        res = subprocess.run([sys.executable, "-c", HIDE, "sim", "dare", "-b", "best", "-b",
                              "random", "-m", "3", "--logs", str(logs), opt, name],
                             cwd=tmp_path, capture_output=True, text=True, env=env)
        assert res.returncode == 1, res.stderr
        assert res.stderr.count("\n") == 1 and 'pip install "kabucli[plot]"' in res.stderr
        assert not logs.exists() and not (tmp_path / name).exists()
    # a tournament too, and a run without a chart does not need matplotlib at all
    res = subprocess.run([sys.executable, "-c", HIDE, "tournament", "dare", "-b", "best", "-b",
                          "random", "-b", "random", "--deals", "1", "--plot", "t.svg"],
                         cwd=tmp_path, capture_output=True, text=True, env=env)
    assert res.returncode == 1 and 'pip install "kabucli[plot]"' in res.stderr
    res = subprocess.run([sys.executable, "-c", HIDE, "sim", "dare", "-b", "best", "-b",
                          "random", "-m", "3", "-j", "1"],
                         cwd=tmp_path, capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr


def test_kabucli_starts_and_sims_without_importing_matplotlib() -> None:
    code = ("import sys\nfrom kabucli.cli import main\n"
            "for argv in (['--help'], ['sim', 'dare', '-b', 'best', '-b', 'random', '-m', '2',"
            " '-j', '1']):\n"
            "    sys.argv = ['kabucli', *argv]\n"
            "    try:\n        main()\n    except SystemExit:\n        pass\n"
            "print('LOADED', sorted(m for m in sys.modules if m.startswith('matplotlib')"
            " or m == 'kabucli.plot'))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)})
    assert res.returncode == 0, res.stderr
    assert "LOADED []" in res.stdout


def test_the_recorder_keeps_at_most_its_capacity_evenly_spaced() -> None:
    report = SimReport("dare", 1, True, bots=[BotStats("a"), BotStats("b")])
    rec = Recorder()
    total = 1_000_003
    for m in range(1, total + 1):
        report.matches = m
        report.bots[0].add(m % 7 - 3, 0.5)
        report.bots[1].add(3 - m % 7, 0.5)
        rec.add(report)
        assert len(rec.points) <= CAPACITY
    rec.finish(report)
    xs = [p.matches for p in rec.points]
    assert CAPACITY // 2 <= len(xs) <= CAPACITY + 1
    assert xs[-1] == total  # the last match is always a point
    gaps = {b - a for a, b in pairwise(xs[:-1])}
    assert gaps == {rec.step} and xs[0] == rec.step and rec.step == 512
    data = series(rec, ["a", "b"], "chips")
    assert data.means[0].value[-1] == report.bots[0].mean
    assert data.means[1].high[-1] == report.bots[1].mean + report.bots[1].ci95


def as_report(rating: dict[str, Any]) -> str:
    """A bot's Elo as the tournament's table shows it: whole, signed but for a zero, and the
    half-width of its 95% interval."""
    elo = f"{rating['elo']:+.0f}"
    elo = elo[1:] if elo[1:] == "0" else elo
    return elo + ("" if rating["ci95"] is None else f" ± {rating['ci95']:.0f}")


def test_tournament_plot_rates_each_bot_over_the_matches(tmp_path: Path) -> None:
    out, page = tmp_path / "t.svg", tmp_path / "t.html"
    code, text = run("tournament", "dare", "-b", "best", "-b", "random", "-b", "random",
                     "--deals", "3", "--seed", "2", "--rule", "rounds=2", "-j", "1",
                     "--json", "--plot", str(out), "--html", str(page))
    assert code == 0, text
    data = json.loads(text)
    root = svg_tree(out)
    ids = by_id(root)
    assert {f"ratings-line-{k}" for k in (1, 2, 3)} <= set(ids)
    words = texts(root)
    assert "Elo" in words
    for r in data["ratings"]:
        assert f"{r['bot']}: {as_report(r)}" in words
    html_text = page.read_text(encoding="utf-8")
    assert "<svg" in html_text and "Pairs" in html_text and not re.search(r"https?:", html_text)
    # more seats: Elo too, from every pair of seats of each match
    code, text = run("tournament", "dare", "-b", "best", "-b", "random", "-b", "best", "-b",
                     "random", "--seats", "3", "--deals", "1", "--seed", "2", "--rule",
                     "rounds=1", "-j", "1", "--json", "--plot", str(out))
    assert code == 0, text
    data = json.loads(text)
    words = texts(svg_tree(out))
    assert "Elo" in words
    for r in data["ratings"]:
        assert f"{r['bot']}: {as_report(r)}" in words


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_a_chart_that_cannot_be_written_is_one_line_after_the_report() -> None:
    # (exit 2, as README's exit codes give a file that cannot be written, and replay --html's
    # page; it was 1, a refusal's)
    res = subprocess.run([sys.executable, "-m", "kabucli", "sim", "dare", "-b", "best", "-b",
                          "random", "-m", "3", "--seed", "1", "-j", "1", "--html", "/dev/full"],
                         capture_output=True, text=True,
                         env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)})
    assert res.returncode == 2
    assert "#1 best" in res.stdout and "mean chips" in res.stdout  # the report is there
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("error: --html /dev/full: "
                                                                  "cannot write it")


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists() and not os.environ.get("CI"),
                    reason="/usr/bin/chromium is missing (CI installs it)")
def test_the_html_page_on_a_phone_keeps_names_whole_and_the_table_in_its_own_scroll(
        tmp_path: Path) -> None:
    # At 390 pixels the table ran off the page's right edge and the bot names broke inside
    # words ('#1 bes' / 't'); the page had no viewport line, so a phone drew it zoomed out.
    page = tmp_path / "run.html"
    sim_json("-b", "best", "-b", "random", "-m", "4", "--html", str(page))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in \
        page.read_text(encoding="utf-8")
    with shown(page, 390, 800) as view:
        width = view.evaluate("document.documentElement.scrollWidth")
        names = lines_in(view, "td:not(.n)")
        # the table scrolls inside its own box, which starts inside the page
        box = view.evaluate("(() => { const t = document.querySelector('table');"
                            "const b = t.parentElement.getBoundingClientRect();"
                            "return [getComputedStyle(t.parentElement).overflowX, b.left,"
                            " b.right]; })()")
    assert width <= 390, width
    assert names and set(names) == {1}, names  # '#1 best', '#2 random': one line each
    assert box[0] == "auto" and box[1] > 0 and box[2] <= 390, box


@pytest.mark.parametrize(("bots", "record", "end"), [
    (("best", "random"), (6, 0, 0), "elo_low"), (("random", "best"), (0, 0, 6), "elo_high")])
def test_an_elo_band_is_drawn_when_every_match_was_won_or_lost(
        tmp_path: Path, bots: tuple[str, str], record: tuple[int, int, int], end: str) -> None:
    """Every match won: the Elo difference has no value and no upper end, but a lower end
    (ratings.head_to_head: Wilson's interval), and its band reaches from it to the panel's
    top; every match lost, the mirror: from its upper end to the bottom. The panel was empty
    (won); a band drawn only where the value was finite would leave it so (lost: probe EX's
    P30)."""
    out = tmp_path / "run.svg"
    data = sim_json("-b", bots[0], "-b", bots[1], "-m", "6", "--seed", "1", "--plot", str(out),
                    rounds=10)
    h = data["head_to_head"]
    assert (h["wins"], h["draws"], h["losses"]) == record and h[end] is not None
    band = by_id(svg_tree(out))["ratings-band-1"]
    paths = band.findall(f".//{SVG}path")
    assert paths and all(p.get("d") for p in paths)


def test_a_chart_file_named_in_capitals_is_drawn_in_its_format(tmp_path: Path) -> None:
    """--plot RUN.SVG is an SVG chart (the suffix read in any case: probe EX's P33)."""
    out = tmp_path / "RUN.SVG"
    sim_json("-b", "best", "-b", "random", "-m", "2", "--seed", "1", "--plot", str(out),
             rounds=2)
    assert "means-line-1" in by_id(svg_tree(out))


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_html_page_says_its_title_once_and_the_chart_file_keeps_it(
        tmp_path: Path, workers: str) -> None:
    # the page's heading is the run's title; the chart under it and the report's table do not
    # say it again (they did: heading, chart title and table caption); a --plot file alone
    # keeps its title
    page, chart = tmp_path / "run.html", tmp_path / "run.svg"
    code, out = run("sim", "dare", "--rule", "rounds=2", "--seed", "5", "-j", workers, "-b",
                    "best", "-b", "random", "-m", "4", "--html", str(page), "--plot", str(chart))
    assert code == 0, out
    title = "Dare: 4 matches from seed 5, bots change seats"
    text = page.read_text(encoding="utf-8")
    body = text.split("<body>", 1)[1]
    assert body.count(title) == 1 and f"<h1>{title}</h1>" in body
    caption = re.findall(r"<caption>(.*?)</caption>", body)
    assert caption == (["Results (2 workers)"] if workers == "2" else ["Results"])
    assert title in texts(svg_tree(chart))
    # a tournament: its standings are captioned so, its pairs as they were
    code, out = run("tournament", "dare", "-b", "best", "-b", "random", "-b", "random",
                    "--deals", "1", "--seed", "2", "--rule", "rounds=1", "-j", "1",
                    "--html", str(page))
    assert code == 0, out
    body = page.read_text(encoding="utf-8").split("<body>", 1)[1]
    assert re.findall(r"<caption>(.*?)</caption>", body) == ["Results", "Pairs"]
    assert body.count("Dare round-robin: 3 bots, 2 seats, 6 matches from seed 2") == 1


def test_a_bot_with_no_match_played_to_its_end_has_no_mean_in_the_legend(
        tmp_path: Path) -> None:
    """A bot that forfeits every match (and so its opponent, every match won by forfeit) has
    no mean: the report says '-' (null in --json), but the chart's legend said '0.00' for both,
    a figure no match gave."""
    out = tmp_path / "run.svg"
    data = sim_json("-b", "best", "-b", "cmd:false", "-m", "3", "--plot", str(out))
    assert [b["mean"] for b in data["bots"]] == [None, None] and data["failures"] == 3
    words = texts(svg_tree(out))
    assert not any(w.startswith(("#1 best: 0", "#2 cmd:false: 0")) for w in words), words
    assert "#1 best: no match played to its end" in words, words
    assert "#2 cmd:false: no match played to its end" in words, words


def test_a_bot_that_played_no_match_has_no_rating_in_the_tournaments_legend(
        tmp_path: Path) -> None:
    """A tournament stopped after its first match: the two bots that never played had the
    legend '#3 random: 0' (the others' mean), a rating no match gave; null in --json."""
    out = tmp_path / "run.svg"
    code, text = run("tournament", "dare", "-b", "cmd:false", "-b", "random", "-b", "random",
                     "-b", "best", "--deals", "2", "--seed", "1", "--max-failures", "1",
                     "--plot", str(out))
    assert code == 1, text
    words = texts(svg_tree(out))
    assert "#3 random: no match played" in words and "#4 best: no match played" in words, words
    assert not any(w.startswith(("#3 random: 0", "#4 best: 0")) for w in words), words


@pytest.mark.parametrize("bots", [12, 141])
def test_a_large_fields_legend_names_the_highest_bots_and_fits(bots: int) -> None:
    """A legend names at most 12 bots: those highest at the end, saying of how many. A
    tournament's field of 141 got a legend taller than the chart, and matplotlib's warning
    that it could not lay the figure out went to stderr (probe EG)."""
    import warnings

    from kabucli.plot import Line, Series, render

    x = [1, 2, 3]
    lines = [Line(f"bot-{k:03}", [0.0, 1.0, float((k * 37) % bots)], [math.nan] * 3,
                  [math.nan] * 3) for k in range(bots)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (matplotlib's layout warning fails the test)
        svg = render(Series(x, "chips", lines), "", "svg").decode()
    named = {k for k in range(bots) if f">bot-{k:03}<" in svg}
    top = sorted(range(bots), key=lambda k: -((k * 37) % bots))[:12]
    assert named == set(top)
    assert (f"the 12 highest of {bots}" in svg) == (bots > 12)


def test_a_tournament_rates_its_field_only_at_the_checkpoints_its_chart_keeps() -> None:
    """A tournament knows its matches before the first: its recorder starts at the spacing
    it would end with, so each rating of the whole field made is one the chart keeps. 141
    bots' 19,740 matches made about 900 points to keep 200 (576 matches in 300 s, probe EG).
    The points are those the doubling keeps, ratings included."""
    from kabucli.plot import Recorder
    from kabucli.tournament import tournament

    class Counting(Recorder):
        made = 0

        def _point(self, report: Any) -> Any:
            self.made += 1
            return super()._point(report)

    class Doubling(Counting):  # (the recorder as it was: no spacing told in advance)
        def expect(self, total: int) -> None:
            pass

    game = games.get("dare")
    rules = build(game.Rules, ["rounds=1"])
    recs = []
    for rec in (Counting(capacity=10), Doubling(capacity=10)):
        rep = tournament(game, rules, ["best", "random", "random", "best"], 2, "round-robin",
                         5, seed=3, workers=1, recorder=rec)
        assert rep.sim.matches == 60  # 6 groups, 5 deals, 2 seatings
        recs.append(rec)
    told, doubling = recs
    assert told.points == doubling.points
    assert [p.matches for p in told.points] == list(range(8, 60, 8))  # every 8th match
    assert told.made == len(told.points) < doubling.made


def test_each_point_is_the_mean_and_t_interval_of_the_results_so_far() -> None:
    """Per-match results chosen by hand, each point checked against sums done here: the mean
    of the results so far and Student's 95% interval (t over n - 1 degrees of freedom). A
    point with one result has no interval (no band end, not one at the mean); a bot whose
    matches so far were all forfeited has no mean (no point, not 0)."""
    import statistics

    t = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764}  # Student's t, 97.5%, from a table
    a = [3, -1, 2, 0, 5]
    b: list[int | None] = [None, None, -3, 1, -2]  # None: forfeited
    report = SimReport("dare", 1, True, bots=[BotStats("a"), BotStats("b")])
    rec = Recorder()
    for m, (ra, rb) in enumerate(zip(a, b, strict=True), 1):
        report.matches = m
        report.bots[0].add(ra, 0.5)
        if rb is None:
            report.bots[1].add_forfeited(0.5, True)
        else:
            report.bots[1].add(rb, 0.5)
        rec.add(report)
    rec.finish(report)
    data = series(rec, ["a", "b"], "chips")
    assert data.x == [1, 2, 3, 4, 5]
    for line, results in zip(data.means, (a, b), strict=True):
        for k in range(5):
            so_far = [r for r in results[:k + 1] if r is not None]
            if not so_far:
                assert math.isnan(line.value[k]), (line.label, k)
            else:
                assert line.value[k] == pytest.approx(statistics.mean(so_far))
            if len(so_far) < 2:
                assert math.isnan(line.low[k]) and math.isnan(line.high[k]), (line.label, k)
                continue
            half = t[len(so_far) - 1] * statistics.stdev(so_far) / len(so_far) ** 0.5
            assert line.low[k] == pytest.approx(statistics.mean(so_far) - half, abs=1e-3)
            assert line.high[k] == pytest.approx(statistics.mean(so_far) + half, abs=1e-3)
    # the legends, as the report prints them: a: 9/5 and t(4) * sqrt(22.8 / 4) / sqrt(5)
    # = 2.96; b: -4/3 and t(2) * 2.0817 / sqrt(3) = 5.17
    assert data.means[0].legend == "a: +1.80 ± 2.96"
    assert data.means[1].legend == "b: -1.33 ± 5.17"


def test_a_recorder_told_the_total_keeps_the_points_the_doubling_keeps() -> None:
    """Told the run's total in advance, the recorder starts at the spacing it would end with:
    the points it keeps are the doubling's own, for every total, including a total of
    exactly its capacity (every match kept, not every other)."""
    for total in range(1, 50):
        recs = [Recorder(capacity=10), Recorder(capacity=10)]
        recs[0].expect(total)
        report = SimReport("dare", 1, True, bots=[BotStats("a")])
        for m in range(1, total + 1):
            report.matches = m
            report.bots[0].add(m % 3, 1.0)
            for rec in recs:
                rec.add(report)
        for rec in recs:
            rec.finish(report)
        told, doubling = ([p.matches for p in rec.points] for rec in recs)
        assert told == doubling, total
        assert len(told) <= 11
    assert [p.matches for p in recs[0].points][:3] == [8, 16, 24]


def test_a_ratings_band_is_its_value_plus_and_minus_its_error_once_the_bot_has_played(
) -> None:
    """A tournament's rating per bot: the band from value - error to value + error; a bot
    that has not played yet has no point (its rating is the others' mean, no match gave it)."""
    report = SimReport("dare", 1, True, bots=[BotStats("a"), BotStats("b")])
    now: list[tuple[float, float | None]] = []
    rec = Recorder(rate=lambda: list(now))
    for m, (ratings, plays_b) in enumerate([([(12.0, 30.0), (0.0, None)], False),
                                            ([(20.0, 25.0), (-20.0, 25.0)], True)], 1):
        report.matches = m
        report.bots[0].add(1, 1.0)
        if plays_b:
            report.bots[1].add(-1, 0.0)
        else:
            report.bots[1].add_forfeited(0.0, False)
        now[:] = ratings
        rec.add(report)
    data = series(rec, ["a", "b"], "chips", "elo")
    a, b = data.ratings
    assert (a.value, a.low, a.high) == ([12.0, 20.0], [-18.0, -5.0], [42.0, 45.0])
    assert math.isnan(b.value[0]) and math.isnan(b.low[0]) and math.isnan(b.high[0])
    assert (b.value[1], b.low[1], b.high[1]) == (-20.0, -45.0, 5.0)
    assert (a.legend, b.legend) == ("a: +20 ± 25", "b: -20 ± 25")


def test_a_head_to_head_with_no_result_yet_has_no_figures_in_its_legend() -> None:
    report = SimReport("dare", 1, True, bots=[BotStats("a"), BotStats("b")])
    rec = Recorder()
    report.matches = 1
    for bot in report.bots:
        bot.add_forfeited(0.0, True)
    rec.add(report)
    (line,) = series(rec, ["a", "b"], "chips", "h2h").ratings
    assert line.label == "a over b" and line.legend == ""
    assert math.isnan(line.value[0]) and math.isnan(line.low[0]) and math.isnan(line.high[0])


def test_the_y_range_leaves_out_the_first_twentieth_of_the_matches_and_pads_a_flat_curve(
) -> None:
    from kabucli.plot import Line, _limits

    x = list(range(1, 101))
    wild = Line("a", [100.0] * 4 + [1.0] * 96, [math.nan] * 100, [math.nan] * 100)
    # matches 1-4 are before the first 5 (5% of 100): their 100s do not stretch the range
    assert _limits(x, [wild]) == (1.0 - 0.1, 1.0 + 0.1)  # flat: padded by a tenth of 1
    wild.value[4] = 3.0  # match 5 counts
    assert _limits(x, [wild]) == pytest.approx((1.0 - 0.16, 3.0 + 0.16))
    flat = Line("b", [-5.0] * 100, [math.nan] * 100, [math.nan] * 100)
    assert _limits(x, [flat]) == (-5.5, -4.5)  # a flat curve gets a range around it


@pytest.mark.parametrize("open_ends", [True, False])
def test_an_elo_panel_leaves_out_its_first_twentieth_a_tournaments_its_first_quarter(
        open_ends: bool) -> None:
    """A head-to-head's Elo (open_ends) is drawn from its fifth match in a hundred, as the
    means are; a tournament's ratings settle later, its groups meeting one after another:
    from its 25th (probe EX's P29: the Elo panel skipping a quarter too had no test)."""
    import matplotlib.pyplot as plt

    from kabucli.plot import Line, Series, figure

    x = list(range(1, 101))
    means = [Line("a", [0.0] * 100, [math.nan] * 100, [math.nan] * 100)]
    rating = Line("a", [-50.0] * 10 + [0.0] * 90, [math.nan] * 100, [math.nan] * 100)
    fig = figure(Series(x, "chips", means, "Elo", open_ends, [rating]), "")
    try:
        bottom = fig.axes[1].get_ylim()[0]
    finally:
        plt.close(fig)
    # matches 6-10 at -50 count after the first twentieth, not after the first quarter
    assert (bottom <= -50.0) == open_ends, bottom


def test_a_name_of_forty_characters_is_shown_whole_and_a_longer_one_cut() -> None:
    from kabucli.plot import _short

    assert _short("n" * 40) == "n" * 40
    assert _short("n" * 41) == "n" * 39 + "…"


def test_a_legend_of_twelve_or_fewer_names_them_as_drawn_and_more_the_highest_first() -> None:
    from kabucli.plot import Line, _legend_lines

    def lines(lasts: list[float]) -> list[Line]:
        return [Line(f"l{k}", [v], [math.nan], [math.nan]) for k, v in enumerate(lasts)]

    assert _legend_lines(lines([float(k) for k in range(12)])) == list(range(12))
    # 13: the 12 highest, highest first, equal ones as drawn, one with no value last
    lasts = [math.nan, 5.0, 1.0, 5.0, 2.0, 3.0, 4.0, 6.0, 7.0, 8.0, 9.0, 0.5, 0.0]
    assert _legend_lines(lines(lasts)) == [10, 9, 8, 7, 1, 3, 6, 5, 4, 2, 11, 12]
    lasts[12] = -1.0
    lasts[0] = -0.5
    assert _legend_lines(lines(lasts))[-1] == 0  # -1 is left out, the -0.5 named last


def test_a_page_shows_control_and_bidi_characters_of_a_name_as_escapes() -> None:
    from kabucli.plot import Table

    name = "evil\x1b[31m\u202ebot"
    text = Table("Results", ["bot", "mean"], [[name, "+1.00"]], {0}).html()
    assert "\x1b" not in text and "\u202e" not in text and "evil" in text


def test_a_legend_of_thirteen_says_it_names_the_twelve_highest_and_the_x_axis_starts_at_0(
) -> None:
    from kabucli.plot import Line, Series, figure, render

    lines = [Line(f"bot-{k:02}", [0.0, float(k)], [math.nan] * 2, [math.nan] * 2)
             for k in range(13)]
    assert "the 12 highest of 13" in render(Series([1, 2], "chips", lines), "", "svg").decode()
    fig = figure(Series([1, 2], "chips", lines), "")
    assert fig.axes[0].get_xlim() == (0.0, 2.0)
