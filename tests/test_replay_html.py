"""``kabucli replay LOG --html OUT`` in a real browser: Debian's Chromium, headless, driven by
playwright. A recorded game of each game is written as a page, opened from a file:// URL and
stepped through with the buttons, the arrow keys, the slider and the event list; what the page
shows at chosen events (the pot, whose turn, the cards' faces) is checked against the engine,
walking the log in Python, and the page must log no error. The seat selector, physical,
unfinished and rule-breaking logs, and a hostile player name are tested too.

One browser serves the whole module. Without /usr/bin/chromium the tests are skipped, except
under CI (the CI variable set), where they fail: .ci/run installs Chromium.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games, render
from kabucli.cli import app
from kabucli.engine import Match, walk
from kabucli.log import read_log
from kabucli.safetext import NAME_SHOWN

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists() and not os.environ.get("CI"):
    pytest.skip(f"{CHROMIUM} is missing (CI installs it)", allow_module_level=True)

runner = CliRunner()


def recorded(game: str) -> Path:
    """A recorded (seeded, finished) game of ``game``: its first non-physical .kbl."""
    return sorted(p for p in (ROOT / "replays" / game).glob("*.kbl")
                  if "physical" not in p.name)[0]


def write_page(log: Path, out: Path, *extra: str, code: int = 0) -> str:
    res = runner.invoke(app, ["replay", str(log), "--html", str(out), *extra],
                        env={"NO_COLOR": "1"})
    assert res.exit_code == code, res.output
    assert out.exists()
    return res.output


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: CI must install chromium"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; at the end of the test, no console error and no page error."""
    p = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("request", lambda r: errors.append(f"request {r.url}")
         if not r.url.startswith("file:") else None)
    yield p
    p.close()
    assert errors == []


def position(p: Any) -> int:
    text = p.locator("#event-index").inner_text()
    assert text.startswith("event "), text
    return int(text.split()[1])


def tokens_in(value: Any) -> set[str]:
    """The card tokens in a view's lists of strings, face-down cards left out."""
    if isinstance(value, str):
        return set() if value == "??" else {value}
    if isinstance(value, list):
        return set().union(*(tokens_in(v) for v in value)) if value else set()
    if isinstance(value, dict):
        return set().union(*(tokens_in(v) for v in value.values())) if value else set()
    return set()


CARD_KEYS = ("field", "hands", "laid", "cards", "rows", "aside", "table", "top", "face_up",
             "piles")


def engine_at(log: Path, k: int, viewer: int | None = None) -> tuple[Match, dict[str, Any]]:
    data = read_log(log, games.event_types, strict=False)
    g = games.get(data.header.game)
    match, violation = walk(g, data.header, data.events[:k])
    assert violation is None
    return match, g.view(match.state, viewer)


def check_shown(p: Any, log: Path, k: int) -> None:
    """What the page shows at event ``k`` is what the engine says after event ``k``."""
    assert position(p) == k
    match, view = engine_at(log, k)
    ledger = getattr(match.state, "ledger", None)
    if match.game.name == "kazu-tori":  # no pot: each loser pays the winner; none is shown
        ledger = None
    assert p.locator("#pot").inner_text() == ("-" if ledger is None else str(ledger.pot))
    pending = match.pending
    turn = [f"p{s}" for s in pending.seats] if (
        pending.kind == "action" and len(pending.seats) == 1) else []
    assert p.eval_on_selector_all("[data-turn]", "els => els.map(e => e.dataset.seat)") == turn
    shown = set(p.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    wanted = set().union(*(tokens_in(view.get(key)) for key in CARD_KEYS))
    assert wanted <= shown, (k, wanted - shown)
    check_places(p, view)
    if k:
        current = p.locator("#events li.current")
        assert current.get_attribute("data-index") == str(k)


ROWS_JS = """els => els.map(e => [e.querySelector('.row-label, .pile-label').textContent,
    Array.from(e.querySelectorAll('[data-card]')).map(c => c.dataset.card)])"""


def places(p: Any, selector: str) -> list[tuple[str, list[str]]]:
    """The labelled rows of cards in ``selector`` (the middle, or a seat), in order."""
    return [(label, cards) for label, cards in p.eval_on_selector_all(selector, ROWS_JS)]


def check_places(p: Any, view: dict[str, Any]) -> None:
    """Each game's cards in their places: the middle of the table and each seat's rows, as
    the log's own view (the engine's ``view``) has them."""
    centre = places(p, "#centre .pile")
    game = view["game"]

    def seat_rows(key: str) -> list[tuple[str, list[str]]]:
        return places(p, f'[data-seat="{key}"] .row')

    if game == "dare":
        assert [c for _, c in centre] == ([view["field"]] if view["field"] else [])
        for key, hand in view["hands"].items():
            rows = seat_rows(key)
            assert rows[0][0] == "hand" and sorted(rows[0][1]) == sorted(hand)
            assert [c for _, c in rows[1:]] == view["laid"].get(key, [])
    elif game == "kazu-tori":
        assert centre == [("table (oldest first)", view["table"])]
        for key, pile in view["piles"].items():
            assert seat_rows(key)[0][1] == pile
    elif game == "yatchaba":
        assert centre[0] == ("face up", view["face_up"])
    elif game == "uno-dare":
        if view["top"] is not None:
            assert centre[1][1] == [view["top"]]
        for key, hand in view["hands"].items():
            assert seat_rows(key)[0][1] == hand
    elif game == "kabu-tsukuri":
        for key, cards in view["cards"].items():
            rows = seat_rows(key)
            laid = view["rows"].get(key)
            if isinstance(laid, list):
                drawn = [c for label, cs in rows if label.startswith("row") for c in cs]
                assert sorted(drawn, key=int) == sorted((c for row in laid for c in row), key=int)
            elif cards:
                assert rows[0] == ("hand", cards)
    else:
        raise AssertionError(f"no check for {game}")


@pytest.mark.parametrize("game", games.GAMES)
def test_each_game_steps_with_buttons_keys_slider_and_list(page: Any, game: str,
                                                           tmp_path: Path) -> None:
    log = recorded(game)
    out = tmp_path / "page.html"
    said = write_page(log, out)
    assert f"wrote {out}" in said
    data = read_log(log, games.event_types, strict=False)
    n = len(data.events)
    page.goto(out.as_uri())
    assert page.locator("#event-index").inner_text() == f"event 0 of {n}"
    check_shown(page, log, 0)
    for _ in range(3):
        page.click("#forward")
    check_shown(page, log, 3)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    check_shown(page, log, 4)
    page.click("#back")
    assert position(page) == 3
    mid = n // 2
    page.locator("#slider").fill(str(mid))
    check_shown(page, log, mid)
    pick = (2 * n) // 3
    page.click(f'#events li[data-index="{pick}"]')
    check_shown(page, log, pick)
    page.click("#last")
    check_shown(page, log, n)
    assert page.locator("#forward").is_disabled()
    assert page.locator("#outcome").inner_text().strip()  # a finished game: its result
    page.keyboard.press("ArrowRight")  # nothing past the last
    assert position(page) == n
    page.click("#first")
    check_shown(page, log, 0)
    assert page.locator("#back").is_disabled()
    # every card drawn has a face (or the back): the page holds a symbol for each
    missing = page.eval_on_selector_all(
        "svg.card use", "els => els.filter(u => !document.querySelector("
                        "u.getAttribute('href'))).length")
    assert missing == 0


def test_a_card_face_is_the_card_the_engine_dealt(page: Any, tmp_path: Path) -> None:
    """One card checked by position: the first card of p1's Uno Dare hand after the deal."""
    log = recorded("uno-dare")
    out = tmp_path / "uno.html"
    write_page(log, out)
    _, view = engine_at(log, 1)
    page.goto(out.as_uri())
    page.click("#forward")
    first = page.locator('[data-seat="p1"] .row').first.locator("[data-card]").first
    assert first.get_attribute("data-card") == view["hands"]["p1"][0]
    assert first.locator("use").get_attribute("href") != "#card-back"


def test_seat_selector_hides_other_seats_cards(page: Any, tmp_path: Path) -> None:
    log = recorded("dare")
    out = tmp_path / "dare.html"
    write_page(log, out)
    page.goto(out.as_uri())
    options = page.eval_on_selector_all("#viewer option", "os => os.map(o => o.value)")
    assert options == ["all", "p1", "p2", "p3"][:len(options)] and len(options) >= 3
    page.click('#events li[data-index="4"]')  # dealt, nothing laid yet
    assert "??" not in page.eval_on_selector_all("[data-card]", "e => e.map(x => x.dataset.card)")
    page.select_option("#viewer", "p2")
    assert position(page) == 4
    _, view = engine_at(log, 4, viewer=2)
    for seat in range(1, len(options)):
        cards = page.eval_on_selector_all(
            f'[data-seat="p{seat}"] .row:first-child [data-card]',
            "e => e.map(x => x.dataset.card)")
        if seat == 2:
            assert sorted(cards) == sorted(view["hands"]["p2"]) and "??" not in cards
        else:
            assert cards == ["??"] * view["hands"][f"p{seat}"]
    page.keyboard.press("ArrowRight")
    assert position(page) == 5  # the arrows still step in a seat's view
    seed = read_log(log, games.event_types).header.seed
    meta = page.text_content("#meta") or ""
    assert "(seed hidden from p2)" in meta and f"seed {seed}" not in meta  # it gives all away
    page.select_option("#viewer", "all")
    assert "??" not in page.eval_on_selector_all("[data-card]", "e => e.map(x => x.dataset.card)")
    assert f"(seed {seed})" in (page.text_content("#meta") or "")


def test_as_seat_writes_only_that_view(page: Any, tmp_path: Path) -> None:
    log = recorded("kabu-tsukuri")
    out = tmp_path / "kabu.html"
    write_page(log, out, "--as", "p3")
    page.goto(out.as_uri())
    assert page.eval_on_selector_all("#viewer option", "os => os.map(o => o.value)") == ["p3"]
    page.click("#last")
    page.click("#first")
    page.click('#events li[data-index="1"]')  # the deal
    _, view = engine_at(log, 1, viewer=3)
    mine = page.eval_on_selector_all('[data-seat="p3"] [data-card]',
                                     "e => e.map(x => x.dataset.card)")
    assert sorted(mine, key=int) == sorted(view["cards"]["p3"], key=int)
    others = page.eval_on_selector_all('[data-seat]:not([data-seat="p3"]) [data-card]',
                                       "e => e.map(x => x.dataset.card)")
    assert others and set(others) == {"??"}


def test_at_opens_the_page_at_that_event(page: Any, tmp_path: Path) -> None:
    log = recorded("kazu-tori")
    out = tmp_path / "kazu.html"
    write_page(log, out, "--at", "12")
    page.goto(out.as_uri())
    check_shown(page, log, 12)


def test_physical_log_draws_unknown_cards_face_down(page: Any, tmp_path: Path) -> None:
    log = ROOT / "replays" / "dare" / "3p-physical-match.kbl"
    out = tmp_path / "physical.html"
    write_page(log, out)
    page.goto(out.as_uri())
    page.locator("#slider").fill("8")
    check_shown(page, log, 8)
    backs = page.locator('[data-card="??"] use')
    assert backs.count() > 0
    assert {backs.nth(i).get_attribute("href") for i in range(backs.count())} == {"#card-back"}
    assert page.locator('[data-seat="p1"] [data-card="??"]').count() == 9


def test_unfinished_log_ends_where_it_stops(page: Any, tmp_path: Path) -> None:
    src = (ROOT / "replays" / "dare" / "3p-tie-order.jsonl").read_text().splitlines()
    log = tmp_path / "unfinished.jsonl"
    log.write_text("\n".join(src[:8]) + "\n")  # the header and 7 events: mid-round
    out = tmp_path / "unfinished.html"
    write_page(log, out, "--as", "p1")
    page.goto(out.as_uri())
    page.keyboard.press("End")
    assert page.locator("#event-index").inner_text() == "event 7 of 7"
    assert page.locator("#outcome").inner_text() == ""
    assert page.locator('[data-seat="p3"] [data-card="??"]').count() > 0
    assert "waiting for" in page.locator("#waiting").inner_text()
    # its last event says, as the plain replay ends saying, that the log ends before the game
    # does and how to go on (the page named the log by its file name only, as it shows it)
    data = read_log(log, games.event_types)
    g = games.get(data.header.game)
    said = render.unfinished_line(g, walk(g, data.header, data.events)[0], log.name).plain
    assert said == ("the log ends here, before the game does (waiting for p2 to show the "
                    "three cards left); go on with: kabucli resume unfinished.jsonl")
    note = page.locator("#status .unfinished")
    assert note.inner_text() == said
    assert "the log ends here" in page.locator("#status").inner_text()
    page.keyboard.press("ArrowLeft")  # not before the last event
    assert page.locator("#event-index").inner_text() == "event 6 of 7"
    assert "the log ends here" not in page.locator("#status").inner_text()
    assert note.count() == 0


def test_a_torn_tail_says_on_the_page_how_to_go_on(page: Any, tmp_path: Path) -> None:
    """The page of a log whose last record was cut short as it was written (a torn tail)
    said the reader's error alone; it says, as the replay's error line does, that resume sets
    the record aside and goes on (the log named by its file name, as the page names it)."""
    whole = (ROOT / "replays" / "kazu-tori" / "4p-physical-timed-dispute.kbl").read_bytes()
    log = tmp_path / "torn.kbl"
    log.write_bytes(whole[:-3])
    out = tmp_path / "torn.html"
    res = runner.invoke(app, ["replay", str(log), "--html", str(out)])
    assert res.exit_code == 2, res.output
    page.goto(out.as_uri())
    page.keyboard.press("End")
    status = " ".join(page.locator("#status").inner_text().split())
    assert ": truncated: " in status and "(shown up to event " in status, status
    assert status.endswith("; its last record is cut short, as a crash while writing leaves "
                           "it: kabucli resume torn.kbl sets that record aside and goes on"), status


def test_rule_breaking_log_shows_up_to_the_breaking_event_and_why(page: Any,
                                                                  tmp_path: Path) -> None:
    lines = (ROOT / "replays" / "dare" / "3p-tie-order.jsonl").read_text().splitlines()
    lay = json.loads(lines[5])
    assert lay["e"] == "lay" and lay["seat"] == 2
    lay["seat"] = 3  # p3 lays before p2: not p3's turn
    lines[5] = json.dumps(lay)
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "broken.html"
    said = write_page(log, out, code=1)
    assert "event 5" in said
    page.goto(out.as_uri())
    page.click("#last")
    assert page.locator("#event-index").inner_text() == "event 5 of 5"
    status = page.locator("#status").inner_text()
    assert "event 5 breaks a rule" in status
    assert page.locator("#events li.violation").get_attribute("data-index") == "5"
    check_pot = engine_at(log, 4)[0].state.ledger.pot
    assert page.locator("#pot").inner_text() == str(check_pot)  # the state before it


def test_hostile_names_are_text_not_markup(page: Any, tmp_path: Path) -> None:
    lines = (ROOT / "replays" / "dare" / "3p-tie-order.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    evil = "<script>window.pwned=1</script><img src=x onerror=window.pwned=2>"
    header["seats"][0]["name"] = evil
    header["seats"][1]["name"] = "</script><script>window.pwned=3</script>"
    lines[0] = json.dumps(header)
    log = tmp_path / "evil.jsonl"
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "evil.html"
    write_page(log, out)
    html = out.read_text()
    assert "<script>window" not in html and "</script><script>" not in html
    page.goto(out.as_uri())
    page.click("#forward")
    assert page.evaluate("window.pwned") is None
    assert page.locator("img").count() == 0
    assert evil in page.locator('[data-seat="p1"] .seat-name').inner_text()
    page.select_option("#viewer", "p1")
    assert evil in page.locator("#viewer option:checked").inner_text()


def test_a_very_long_name_wraps_inside_the_page(page: Any, tmp_path: Path) -> None:
    # a name of one unbroken word longer than the window: the page stays as wide as the
    # window (no sideways scrolling), the seat selector included
    lines = (ROOT / "replays" / "dare" / "3p-tie-order.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["seats"][2]["name"] = "W" * 3000
    lines[0] = json.dumps(header)
    log = tmp_path / "long.jsonl"
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "long.html"
    write_page(log, out)
    page.goto(out.as_uri())
    page.click("#forward")
    # (shown cut, to safetext.NAME_SHOWN characters and its length: a log's name may be
    # megabytes long, and each event line and scene names the seat)
    shown = page.locator('[data-seat="p3"] .seat-name').inner_text()
    assert "W" * NAME_SHOWN + "… (3000 characters)" in shown
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.evaluate("window.innerWidth"), width
    box = page.locator("#viewer").bounding_box()
    assert box["x"] + box["width"] <= page.evaluate("window.innerWidth"), box


def test_the_seeds_commitment_is_in_the_heading_of_every_view(page: Any, tmp_path: Path) -> None:
    # docs/log-format.md: a seat's view shows the commitment, neither the seed nor the salt
    log = tmp_path / "c.kbl"
    res = runner.invoke(app, ["play", "dare", "--seed", "918273645546372", "--bot",
                              "all=random", "--commit", "--log", str(log), "-q"])
    assert res.exit_code == 0, res.output
    header = read_log(log, games.event_types).header
    assert header.commit is not None and header.salt is not None
    for extra in ([], ["--as", "p2"]):
        out = tmp_path / f"c{len(extra)}.html"
        write_page(log, out, *extra)
        page.goto(out.as_uri())
        meta = page.locator("#meta").inner_text()
        assert f"commitment {header.commit}" in meta, meta
        assert header.salt not in out.read_text()
        if extra:
            assert "918273645546372" not in out.read_text()


def test_write_failure_is_one_clean_line(tmp_path: Path) -> None:
    res = runner.invoke(app, ["replay", str(recorded("dare")), "--html",
                              str(tmp_path / "no" / "such" / "dir" / "x.html")],
                        env={"NO_COLOR": "1"})
    assert res.exit_code == 2
    assert res.output.strip().startswith("error: cannot write")
    assert len(res.output.strip().splitlines()) == 1
    assert "Traceback" not in res.output


def test_pages_of_recorded_games_stay_small(tmp_path: Path) -> None:
    """The longest recorded game of each game makes a page under 1 MB."""
    for game in games.GAMES:
        log = max((p for p in (ROOT / "replays" / game).iterdir()
                   if p.suffix in (".kbl", ".jsonl")), key=lambda p: p.stat().st_size)
        out = tmp_path / f"{game}.html"
        write_page(log, out)
        assert out.stat().st_size < 1_000_000, (log, out.stat().st_size)


def test_event_list_names_a_seat_once_by_its_label_and_keeps_times(tmp_path: Path) -> None:
    # "p2 best lays ...", not "p2 best p2 lays ..."; a timed (physical) log's entries lead
    # with when they were entered
    from kabucli.render.html import page_data

    log = read_log(recorded("dare"), games.event_types)
    data = page_data(games.get("dare"), log, "x", None)
    lines = [e["line"] for e in data["views"][0]["events"]]
    lays = [line for line in lines if " lays " in line]
    assert lays and all(line.split(" ")[1] in ("best", "random") for line in lays), lays
    assert not any(" p2 lays" in line or " p3 lays" in line or " p1 lays" in line
                   for line in lines)
    table = tmp_path / "table.kbl"  # a real table's log: every input timed
    res = runner.invoke(app, ["play", "dare", "--physical", "--players", "3", "--log",
                              str(table)], input="deal 9-2-2\np2 sets 1-2-10\nquit\n")
    assert res.exit_code == 0, res.output
    timed = read_log(table, games.event_types)
    assert timed.times is not None
    events = page_data(games.get("dare"), timed, "x", None)["views"][0]["events"]
    sets = [e["line"] for e in events if " sets " in e["line"] or " lays " in e["line"]]
    assert sets and sets[0][2] == ":" and sets[0][8] == "." and sets[0][13:].startswith("p2 ")


@pytest.mark.parametrize("width", [390, 320])
def test_a_phone_sees_the_table_across_the_screen_and_stepping_keeps_it_in_view(
        browser: Any, tmp_path: Path, width: int) -> None:
    # At a phone's width the event list kept its 340 pixels beside the table, which was
    # squeezed to a letter a line; and each step scrolled the window to the list's current
    # line, away from the table.
    out = tmp_path / "phone.html"
    write_page(ROOT / "replays" / "uno-dare" / "3p-missed-uno-too-late.kbl", out)
    p = browser.new_page(viewport={"width": width, "height": 740})
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        p.goto(out.as_uri())
        for _ in range(30):
            p.keyboard.press("ArrowRight")
        assert position(p) == 30
        assert p.evaluate("window.scrollY") == 0, "stepping scrolled the page"
        table = p.locator("#table").bounding_box()
        assert table["width"] >= width - 40, table
        assert p.evaluate("document.documentElement.scrollWidth") <= width
        for box in (p.locator(f"#seats .seat >> nth={i}").bounding_box() for i in range(3)):
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        title = p.locator("#scene-title").bounding_box()
        assert title["height"] < 80, title  # one or two lines, not a letter a line
        # the list still follows the step, scrolled inside itself
        current = p.locator("#events li.current").bounding_box()
        aside = p.locator("aside").bounding_box()
        assert aside["y"] <= current["y"] and current["y"] + current["height"] <= \
            aside["y"] + aside["height"] + 1, (current, aside)
    finally:
        p.close()
    assert errors == []


def test_on_a_desktop_the_current_event_stays_in_the_window(page: Any, tmp_path: Path) -> None:
    # a heading made tall by long house rules pushes the list's foot below the window: the
    # window follows the current event there (the list's own scrolling alone left it unseen)
    log = tmp_path / "tall.jsonl"
    assert run_convert(ROOT / "replays" / "uno-dare" / "3p-missed-uno-too-late.kbl", log)
    text = log.read_text().splitlines()
    header = json.loads(text[0])
    header["rules"]["dares"] = "house-rules"
    header["rules"]["house_dares"] = [f"dare number {i} " + "and so on " * 6 for i in range(16)]
    text[0] = json.dumps(header)
    log.write_text("\n".join(text) + "\n")
    out = tmp_path / "tall.html"
    write_page(log, out)
    page.goto(out.as_uri())
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    box = page.locator("#events li.current").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 900, box


def run_convert(src: Path, dst: Path) -> bool:
    res = runner.invoke(app, ["log", "convert", str(src), str(dst)], env={"NO_COLOR": "1"})
    return res.exit_code == 0


def test_a_log_too_long_for_a_page_is_refused_in_one_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A page holds a scene for every event in every view: a long log (a valid Dare match
    of 10,000 rounds, 87 KB, took 846 MB to make into an 81 MB page) is refused, saying how
    to see it; one view of it (--as) may fit."""
    from kabucli.render import html

    log = ROOT / "replays" / "dare" / "3p-showdown-outright.kbl"
    n = len(read_log(log, games.event_types).events)
    monkeypatch.setattr(html, "MAX_PAGE_STEPS", 2 * n)  # the log's 4 views do not fit
    out = tmp_path / "page.html"
    res = runner.invoke(app, ["replay", str(log), "--html", str(out)],
                        env={"NO_COLOR": "1", "COLUMNS": "400"})
    assert res.exit_code == 2 and not out.exists()
    lines = res.stderr.strip().splitlines()
    assert lines == [f"error: --html: a page holds at most {2 * n:,} steps (events times "
                     f"views), and this log's {n} events in 4 views make {4 * n}: give --as "
                     f"SEAT for one view, or page through it with kabucli replay {log} --step"]
    res = runner.invoke(app, ["replay", str(log), "--html", str(out), "--as", "p2"])
    assert res.exit_code == 0 and out.stat().st_size > 0


def test_a_page_of_exactly_the_most_steps_is_written_and_one_step_more_refused(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """MAX_PAGE_STEPS is the most a page holds: a log whose events times views make exactly
    that many is written; with the limit one lower the same log is refused (exit 2)."""
    from kabucli.render import html

    log = ROOT / "replays" / "dare" / "3p-showdown-outright.kbl"
    n = len(read_log(log, games.event_types).events)
    out = tmp_path / "page.html"
    monkeypatch.setattr(html, "MAX_PAGE_STEPS", 4 * n - 1)
    res = runner.invoke(app, ["replay", str(log), "--html", str(out)],
                        env={"NO_COLOR": "1", "COLUMNS": "400"})
    assert res.exit_code == 2 and not out.exists()
    assert f"a page holds at most {4 * n - 1:,} steps" in res.stderr
    monkeypatch.setattr(html, "MAX_PAGE_STEPS", 4 * n)
    res = runner.invoke(app, ["replay", str(log), "--html", str(out)],
                        env={"NO_COLOR": "1", "COLUMNS": "400"})
    assert res.exit_code == 0 and out.stat().st_size > 0, res.output


def test_the_heading_names_a_seat_once_when_its_name_is_its_label(page: Any,
                                                                   tmp_path: Path) -> None:
    """A real table's seats are named p1, p2, ... unless named: the heading says 'p1', not
    'p1 p1' (as the text replay's header does); a named seat keeps both ('p2 Ben')."""
    log = tmp_path / "table.kbl"
    res = runner.invoke(app, ["play", "uno-dare", "--physical", "--players", "3", "--log",
                              str(log), "--script", "-"], input="deal R5\n",
                        env={"NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    out = tmp_path / "physical.html"
    write_page(log, out)
    page.goto(out.as_uri())
    meta = page.locator("#meta").inner_text()
    assert "seats: p1, p2, p3 \u00b7" in meta, meta
    out = tmp_path / "named.html"
    write_page(ROOT / "replays" / "uno-dare" / "3p-physical-round.kbl", out)
    page.goto(out.as_uri())
    meta = page.locator("#meta").inner_text()
    assert "seats: p1 Aki, p2 Ben, p3 Chie \u00b7" in meta, meta


def test_numbers_of_a_long_log_stay_on_one_line_in_the_event_list(page: Any,
                                                                  tmp_path: Path) -> None:
    """Events numbered 1000 and on, beside an event whose words take two lines: the number
    was squeezed by the words and broken over the two lines ('598' over '2')."""
    log = tmp_path / "long.kbl"
    res = runner.invoke(app, ["play", "uno-dare", "-n", "4", "-b", "all=random", "--seed", "1",
                              "-r", "target=1000", "-q", "--log", str(log)])
    assert res.exit_code == 0, res.output
    out = tmp_path / "long.html"
    write_page(log, out, "--as", "p1")
    page.goto(out.as_uri())
    lines = """e => { const r = document.createRange(); r.selectNodeContents(e);
                      return r.getClientRects().length; }"""
    rows = page.eval_on_selector_all(
        "#events li", f"els => els.map(li => [li.querySelector('.n').textContent, "
        f"({lines})(li.querySelector('.n')), ({lines})(li.lastElementChild)])")
    assert len(rows) > 1000
    assert any(words > 1 for _, _, words in rows[1000:])  # events of two lines there are
    broken = [n for n, number, _ in rows if number != 1]
    assert broken == []
    widths = page.eval_on_selector_all(
        "#events .n", "els => [...new Set(els.map(e => e.getBoundingClientRect().width))]")
    assert max(widths) - min(widths) < 1, widths  # one column: 7 as wide as 1234


INSIDE_JS = """els => els.map(c => {
    const box = c.closest('.seat, #centre').getBoundingClientRect();
    const r = c.getBoundingClientRect();
    return [c.dataset.card, r.left >= box.left - 0.5 && r.right <= box.right + 0.5, r.left,
            r.top];
})"""


@pytest.mark.parametrize(("log", "width"), [
    ("kazu-tori/2p-limit-20-ten-taken-at-twenty.kbl", 1280),
    ("kazu-tori/2p-limit-20-ten-taken-at-twenty.kbl", 390),
    ("yatchaba/3p-book-amounts.kbl", 390),
])
def test_many_cards_stay_inside_their_box_and_apart(browser: Any, tmp_path: Path, log: str,
                                                    width: int) -> None:
    """A Kazu-Tori pile of 40 cards ran out of its seat's box into the next seat's (the fan
    squeezed no card closer than 14 pixels, whatever the room), and on a phone the nine
    face-up Yatchaba cards ran off the screen (the middle's fan took at least 400 pixels, the
    seats' 300): a fan too long for its room goes on over more lines, each card's corner seen."""
    out = tmp_path / "many.html"
    write_page(ROOT / "replays" / log, out)
    p = browser.new_page(viewport={"width": width, "height": 844})
    try:
        p.goto(out.as_uri())
        p.keyboard.press("End")
        cards = p.eval_on_selector_all("[data-card]", INSIDE_JS)
        assert len(cards) >= 9
        assert [c for c in cards if not c[1]] == []
        lines: dict[int, list[float]] = {}  # the cards' left edges, by the line they are on
        for _, _, left, top in cards:
            lines.setdefault(round(top), []).append(left)
        for lefts in lines.values():  # in a line, each card shows its corner at least
            gaps = [b - a for a, b in itertools.pairwise(lefts)]
            assert all(g >= 13.5 for g in gaps), gaps
        assert p.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        p.close()


def test_without_javascript_the_page_says_so_and_shows_the_game_as_text(
        browser: Any, tmp_path: Path) -> None:
    """With JavaScript off the page was a bar of buttons that did nothing, an empty title and
    a lone 'pot': it now says that stepping needs JavaScript, and shows the events of the
    log as text and how the game ended (here: the rule broken)."""
    from kabucli.render.html import page_data

    lines = (ROOT / "replays" / "dare" / "3p-tie-order.jsonl").read_text().splitlines()
    lay = json.loads(lines[5])
    lay["seat"] = 3  # p3 lays before p2: not p3's turn
    lines[5] = json.dumps(lay)
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join(lines) + "\n")
    out = tmp_path / "broken.html"
    write_page(log, out, code=1)
    ctx = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 800})
    try:
        p = ctx.new_page()
        p.goto(out.as_uri())
        assert p.locator("h1").inner_text() == "Dare \u00b7 broken.jsonl"
        text = p.locator("body").inner_text()
        assert "JavaScript" in text
        assert "event 5 breaks a rule" in text and "not p3's turn" in text
        said = page_data(games.get("dare"), read_log(log, games.event_types, strict=False),
                         log.name, None)["views"][0]["events"]
        assert said and all(e["line"] in text for e in said)  # the list's lines, each
        assert not p.locator("#controls").is_visible()
        assert not p.locator("#pot-box").is_visible()
    finally:
        ctx.close()
    # with JavaScript the text is not shown twice
    p = browser.new_page()
    try:
        p.goto(out.as_uri())
        assert not p.locator("#nojs").is_visible()
        assert p.locator("h1").inner_text() == "Dare \u00b7 broken.jsonl"
    finally:
        p.close()


# -- read by a screen reader, used from the keyboard ------------------------------------------

def test_the_card_sprite_is_hidden_and_each_card_named_face_down_cards_unnamed(
        page: Any, tmp_path: Path) -> None:
    """The accessibility tree (what a screen reader reads) holds one image per card drawn,
    named by its token, a face-down card 'face down'. The deck's sprite (the hidden
    ``<svg>`` of symbols at the top) was read as one image named '1 1 1 2 2 2 3 ...': every
    numeral of the deck."""
    log = recorded("dare")
    out = tmp_path / "dare-p2.html"
    write_page(log, out, "--as", "p2")
    page.goto(out.as_uri())
    page.click('#events li[data-index="4"]')
    tree = page.locator("body").aria_snapshot()
    images = [line.strip() for line in tree.splitlines() if line.strip().startswith("- img")]
    drawn = page.eval_on_selector_all("svg.card", "e => e.map(x => x.dataset.card)")
    assert len(images) == len(drawn), images[:3]
    assert images == [f'- img "{"face down" if t == "??" else t}"' for t in drawn]
    # p1's hand, hidden from p2: only 'face down', no card named
    _, view = engine_at(log, 4, viewer=2)
    hidden = page.locator('[data-seat="p1"] .row').first.aria_snapshot()
    named = [ln for ln in hidden.splitlines() if "img" in ln]
    assert named and all(ln.strip() == '- img "face down"' for ln in named)
    hand = view["hands"]["p1"]
    assert len(named) == (hand if isinstance(hand, int) else len(hand))


def test_stepping_is_announced_in_a_live_region(page: Any, tmp_path: Path) -> None:
    """A screen reader heard nothing when the arrows or buttons stepped: the page changed in
    silence. A polite live region now says the position, the event and the pot."""
    from kabucli.render.html import page_data

    log = recorded("dare")
    out = tmp_path / "dare.html"
    write_page(log, out)
    data = read_log(log, games.event_types, strict=False)
    events = page_data(games.get("dare"), data, log.name, None)["views"][0]["events"]
    page.goto(out.as_uri())
    live = page.locator('[aria-live="polite"]')
    assert live.count() == 1
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    said = live.inner_text()
    match, _ = engine_at(log, 2)
    assert f"event 2 of {len(data.events)}" in said, said
    assert events[1]["line"] in said, said
    assert f"pot {match.state.ledger.pot}" in said, said
    page.click("#last")
    assert events[-1]["line"] in live.inner_text()


def test_a_step_is_announced_with_its_cards_named_in_words(page: Any, tmp_path: Path) -> None:
    """The live region said the event's line as printed, 'p3 plays YD4', read aloud as 'Y D
    4': a card token is said as the card's name ('yellow dare 4'), as the card images are
    named; a dare's own words, in quotation marks, are left as they are, and so is a word
    that is no card (a seat, a number)."""
    log = ROOT / "replays" / "uno-dare" / "3p-first-card-wild-dare.kbl"
    out = tmp_path / "uno.html"
    write_page(log, out)
    page.goto(out.as_uri())
    live = page.locator('[aria-live="polite"]')
    said = {}
    for _ in range(9):
        page.keyboard.press("ArrowRight")
        said[int(page.locator("#event-index").inner_text().split()[1])] = live.inner_text()
    assert "p3 strong plays yellow dare 4: p1 is hit by dare #4" in said[2], said[2]
    assert "YD4" not in said[2]
    assert "p1 strong plays green reverse" in said[6], said[6]
    # a dare's words are quoted as they are: 'G to A' is no card
    assert '"Say the alphabet backwards from G to A."' in said[8], said[8]
    assert "yellow skip turned up" in said[1], said[1]
    # a list of cards is said as one, with commas
    table = tmp_path / "table.html"
    write_page(ROOT / "replays" / "uno-dare" / "3p-physical-round.kbl", table)
    page.goto(table.as_uri())
    page.click('#events li[data-index="23"]')
    assert "p1 shows blue 1, blue 2, yellow skip" in live.inner_text(), live.inner_text()


def test_the_keys_are_said_on_the_page(page: Any, tmp_path: Path) -> None:
    """The keys (arrows, Home, End) were said only in the buttons' tooltips, which a keyboard
    or touch user never sees: the bar of controls says them."""
    out = tmp_path / "dare.html"
    write_page(recorded("dare"), out)
    page.goto(out.as_uri())
    shown = page.locator("#controls").inner_text()
    for key in ("Home", "End", "\u2190", "\u2192"):
        assert key in shown, shown


def test_the_seat_to_move_is_said_in_words_not_only_by_its_gold_border(
        page: Any, tmp_path: Path) -> None:
    """Whose move it was showed in a seat only as a gold border (Kabu-Tsukuri's seat says
    nothing else): the seat says 'to move' in text, which the accessibility tree reads."""
    log = recorded("kabu-tsukuri")
    out = tmp_path / "kabu.html"
    write_page(log, out)
    page.goto(out.as_uri())
    data = read_log(log, games.event_types, strict=False)
    k = next(k for k in range(1, len(data.events))
             if engine_at(log, k)[0].pending.kind == "action"
             and len(engine_at(log, k)[0].pending.seats) == 1)
    page.click(f'#events li[data-index="{k}"]')
    turn = page.locator("[data-turn]")
    assert turn.count() == 1
    assert "to move" in turn.inner_text()
    assert "to move" in turn.aria_snapshot()
    others = page.locator(".seat:not([data-turn])")
    assert others.count() >= 2
    assert all("to move" not in others.nth(i).inner_text() for i in range(others.count()))


def test_the_event_list_is_reached_with_tab_and_marks_the_current_event(
        page: Any, tmp_path: Path) -> None:
    """The event list answered only clicks: Tab went from the seat selector back to the
    start and the current event was marked only by colour. The current event is now a tab
    stop (one for the list) marked aria-current; the arrows step from it and focus follows."""
    out = tmp_path / "dare.html"
    write_page(recorded("dare"), out)
    page.goto(out.as_uri())
    page.click('#events li[data-index="3"]')
    page.focus("#viewer")
    page.keyboard.press("Tab")
    focused = page.evaluate("() => [document.activeElement.tagName,"
                            " document.activeElement.dataset.index]")
    assert focused == ["LI", "3"]
    assert page.locator('#events li[aria-current="step"]').get_attribute("data-index") == "3"
    assert page.locator("#events li[aria-current]").count() == 1
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("ArrowRight")
    assert position(page) == 4
    assert page.evaluate("() => document.activeElement.dataset.index") == "4"
    assert page.locator('#events li[aria-current="step"]').get_attribute("data-index") == "4"


def images_named(p: Any, selector: str = "body") -> list[str]:
    """The names of the images a screen reader meets in ``selector``, in order."""
    tree = p.locator(selector).aria_snapshot()
    return [ln.strip().removeprefix('- img "').removesuffix('"')
            for ln in tree.splitlines() if ln.strip().startswith('- img "')]


@pytest.mark.parametrize(("game", "token", "name"), [
    ("uno-dare", "GR", "green reverse"), ("uno-dare", "R1", "red 1"),
    ("uno-dare", "WD11", "wild dare 11"), ("uno-dare", "BS", "blue skip"),
    ("uno-dare", "YD3", "yellow dare 3"), ("uno-dare", "Y0", "yellow 0"),
    ("yatchaba", "1b", "January bright"), ("yatchaba", "6a", "June animal"),
    ("yatchaba", "9r", "September ribbon"), ("yatchaba", "12c3", "December chaff 3"),
    ("yatchaba", "11c", "November chaff"), ("yatchaba", "8b", "August bright"),
    ("uno-dare", "gr", "green reverse"), ("uno-dare", "??", "??"), ("uno-dare", "X9", "X9"),
    ("dare", "7", "7"), ("kazu-tori", "Oni", "Oni"), ("kabu-tsukuri", "3", "3"),
])
def test_a_card_token_has_a_name_in_words(game: str, token: str, name: str) -> None:
    """A card's token in words, as a listener hears it: its deck names it (where the token
    is a code; a number, Oni or Jizo is its own name, and so is what is not a card)."""
    assert games.get(game).deck.named(token) == name


def test_a_card_is_named_in_words_not_by_its_token(page: Any, tmp_path: Path) -> None:
    """Each card was named by its bare token, read as 'G R' or 'W D 11' in Uno Dare: each
    card is named in words ('green reverse'), a face-down card 'face down'; a seat's page
    names no other seat's hidden card."""
    log = ROOT / "replays" / "uno-dare" / "3p-first-card-wild-dare.kbl"
    out = tmp_path / "uno.html"
    write_page(log, out)
    page.goto(out.as_uri())
    page.click('#events li[data-index="5"]')
    drawn = page.eval_on_selector_all("svg.card", "e => e.map(x => x.dataset.card)")
    name = games.get("uno-dare").deck.named
    assert "GR" in drawn  # p1 holds the green reverse here
    assert images_named(page) == ["face down" if t == "??" else name(t) for t in drawn]
    assert "green reverse" in images_named(page, '[data-seat="p1"]')
    mine = tmp_path / "uno-p2.html"
    write_page(log, mine, "--as", "p2")
    page.goto(mine.as_uri())
    page.click('#events li[data-index="5"]')
    others = images_named(page, '[data-seat="p1"]') + images_named(page, '[data-seat="p3"]')
    assert others and set(others) == {"face down"}
    own = page.eval_on_selector_all('[data-seat="p2"] svg.card',
                                    "e => e.map(x => x.dataset.card)")
    assert images_named(page, '[data-seat="p2"]') == [name(t) for t in own]


def test_the_buttons_are_named_by_their_words_not_their_glyphs(page: Any,
                                                               tmp_path: Path) -> None:
    """The buttons' names held their glyphs ('« first', '◀ back'), which some screen readers
    read as 'black left-pointing triangle': the names are the words alone."""
    out = tmp_path / "dare.html"
    write_page(recorded("dare"), out)
    page.goto(out.as_uri())
    tree = page.locator("#controls").aria_snapshot()
    buttons = [ln.strip() for ln in tree.splitlines() if ln.strip().startswith("- button")]
    assert buttons == ['- button "first" [disabled]', '- button "back" [disabled]',
                       '- button "forward"', '- button "last"'], buttons
    assert "\u25c0" in page.locator("#back").inner_text()  # the glyph is still seen


def test_an_event_is_read_once_and_its_notation_kept_as_a_tooltip(page: Any,
                                                                 tmp_path: Path) -> None:
    """Each event's item had a title holding its notation, which Chromium made the item's
    name: a screen reader read the notation twice ('hidden hidden' in a seat's view). The
    item has no name of its own; the tooltip is on the notation itself."""
    log = recorded("dare")
    out = tmp_path / "dare-p2.html"
    write_page(log, out, "--as", "p2")
    page.goto(out.as_uri())
    items = page.locator("#events li")
    for i in (1, 2):
        li = items.nth(i)
        tree = li.aria_snapshot()
        assert tree.startswith("- listitem:"), tree  # no name: its text is read, once
        notation = li.locator(".nt").inner_text()
        assert tree.count(notation) == 1, tree
        assert li.locator(".nt").get_attribute("title") == notation
    assert any(items.nth(i).locator(".nt").inner_text() == "hidden"
               for i in range(1, items.count()))


def luminance(colour: str) -> float:
    """The relative luminance (WCAG 2) of an ``rgb(r, g, b)`` or ``#rrggbb`` colour."""
    if colour.startswith("#"):
        rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    else:
        rgb = [int(float(x)) for x in colour[colour.index("(") + 1:-1].split(",")[:3]]
    lin = [(c / 255) / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
           for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_every_control_has_a_focus_outline_that_stands_out(page: Any, tmp_path: Path) -> None:
    """The page had no focus style of its own (the browser's thin ring, dark on the green):
    each control reached by Tab shows a solid outline of at least 2 px whose contrast with
    the background around it (the page's and the box's it sits in) is at least 3:1."""
    out = tmp_path / "dare.html"
    write_page(recorded("dare"), out)
    page.goto(out.as_uri())
    page.click('#events li[data-index="3"]')
    page.focus("#viewer")
    page.keyboard.press("Tab")  # to the event list, then back through every control by key
    seen: dict[str, tuple[str, str, str, list[str]]] = {}
    for _ in range(10):
        got = page.evaluate("""() => {
          const e = document.activeElement, s = getComputedStyle(e);
          const backs = [getComputedStyle(document.body).backgroundColor];
          for (let a = e.parentElement; a; a = a.parentElement) {
            const b = getComputedStyle(a).backgroundColor;
            if (b !== "rgba(0, 0, 0, 0)") { backs.push(b); break; }
          }
          return [e.id || e.tagName, s.outlineStyle, s.outlineWidth, s.outlineColor, backs];
        }""")
        if got[0] == "BODY":  # past the last control
            break
        seen[got[0]] = (got[1], got[2], got[3], got[4])
        page.keyboard.press("Shift+Tab")
    assert {"first", "back", "forward", "last", "slider", "viewer", "LI"} <= set(seen), seen
    for what, (style, width, colour, backs) in seen.items():
        assert style == "solid", (what, style)
        assert float(width.removesuffix("px")) >= 2, (what, width)
        for back in backs:
            assert contrast(colour, back) >= 3, (what, colour, back)


def test_each_seat_is_a_group_named_by_its_label(page: Any, tmp_path: Path) -> None:
    """The seats were loose text and images: a screen-reader user could not move seat by
    seat. Each seat is a group named by its label."""
    log = recorded("uno-dare")
    out = tmp_path / "uno.html"
    write_page(log, out)
    page.goto(out.as_uri())
    page.click('#events li[data-index="3"]')
    data = read_log(log, games.event_types, strict=False)
    match, _ = engine_at(log, 3)
    for seat in range(1, len(data.header.seats) + 1):
        label = render.seat_label(match, seat)
        group = page.get_by_role("group", name=label, exact=True)
        assert group.count() == 1, label
        assert group.get_attribute("data-seat") == f"p{seat}"


@pytest.mark.parametrize("log", ["uno-dare/3p-first-card-wild-dare.kbl",
                                 "yatchaba/6p-later-guesser-right-80-20-odd-pot.kbl",
                                 "kazu-tori/5p-three-way-tie-split-odd-chip-kept.kbl"])
def test_on_a_phone_the_result_is_read_without_scrolling_sideways(
        browser: Any, tmp_path: Path, log: str) -> None:
    """On a phone (390 px) the result (rich tables drawn 90 columns wide) was wider than the
    screen and scrolled sideways inside its box: a narrower drawing of it fits."""
    out = tmp_path / "page.html"
    write_page(ROOT / "replays" / log, out)
    p = browser.new_page(viewport={"width": 390, "height": 800})
    try:
        p.goto(out.as_uri())
        p.click("#last")
        shown = p.locator("#outcome:visible, #outcome-narrow:visible")
        assert shown.count() == 1
        box = shown.first
        text = box.inner_text()
        assert "p1 " in text and "─" in text, text  # the result's tables
        width = box.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert width[0] <= width[1], width
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
    finally:
        p.close()


@pytest.mark.parametrize("log", ["uno-dare/3p-first-card-wild-dare.kbl",
                                 "kazu-tori/5p-three-way-tie-split-odd-chip-kept.kbl"])
def test_with_javascript_off_a_phone_reads_the_result_without_scrolling_sideways(
        browser: Any, tmp_path: Path, log: str) -> None:
    """The page without JavaScript (its <noscript> text) held the result only as drawn 90
    columns wide: on a phone it scrolled sideways in its box, as the scripted page's did
    before it drew a narrower one. The narrow drawing is there too, and CSS shows one."""
    out = tmp_path / "page.html"
    write_page(ROOT / "replays" / log, out)
    for width, drawn in ((390, "narrow"), (1280, "wide")):
        ctx = browser.new_context(java_script_enabled=False,
                                  viewport={"width": width, "height": 800})
        try:
            p = ctx.new_page()
            p.goto(out.as_uri())
            shown = p.locator("#nojs pre.wide:visible, #nojs pre.narrow:visible")
            assert shown.count() == 1, width
            assert shown.first.get_attribute("class") == drawn
            text = shown.first.inner_text()
            assert "p1 " in text and "─" in text, text  # the result's tables
            sizes = shown.first.evaluate("e => [e.scrollWidth, e.clientWidth]")
            assert sizes[0] <= sizes[1], (width, sizes)
        finally:
            ctx.close()
