"""``kabucli replay LOG --html OUT``: a recorded game as one self-contained web page.

The log is walked once per point of view (everyone, as the referee knows it, and each seat,
or only the seat of ``--as``). At every event (0: before the first) each game's render module
turns the state into a *scene* (its ``scene(game, match, viewer)``: plain data: a title, the
pot, cards in the middle, each seat's chips, status and rows of card tokens, lines of text);
identical scenes are stored once. The page holds the scenes as JSON, the deck's cards as SVG
symbols (:mod:`kabucli.render.svgcards`), and a small script that draws any scene with
``<use href="#card-...">``. Nothing is fetched: no network, fonts or images from outside.

Text from the log (names, reasons) goes into the JSON only: the script shows it with
``textContent``, never as markup, and ``<`` is written ``\\u003c`` so that no string can end
the script element.

Hooks for tests and tools: ``#event-index`` (the position shown), ``#pot``, ``#status``,
``data-seat`` on each seat and ``data-turn`` on the seat whose move it is, ``data-card`` (the
token, ``??`` face down) on each card drawn, ``data-index`` on each entry of the event list,
``#outcome`` (the result 90 columns wide) and ``#outcome-narrow`` (44, shown on a phone).
A card's image is named in words where its deck has words for it (``Deck.named``).
"""

from __future__ import annotations

import io
import json
import re
from html import escape
from typing import Any

from kabucli import games
from kabucli.engine import Game, Match, Violation, seen_header, walk
from kabucli.events import Event
from kabucli.render import (
    Takebacks,
    broken_rule,
    clock_text,
    event_actor,
    event_words,
    outcome_panel,
    rules_line,
    seat_label,
    seats_named,
    seen_violation,
    time_of,
    unfinished_line,
    unreadable_shown,
)
from kabucli.render.svgcards import symbols
from kabucli.safetext import safe_text, shown_name


def _scene(game: Game, match: Match, viewer: int | None) -> dict[str, Any]:
    scene: dict[str, Any] = games.part(game.name, "render").scene(game, match, viewer)
    pending = match.pending
    turn = list(pending.seats) if pending.kind == "action" and len(pending.seats) == 1 else []
    for seat in scene["seats"]:
        seat["name"] = shown_name(match.seat_name(seat["seat"]))
    scene["turn"] = turn
    # the whole line: "waiting for p2 Bob to bet 1", or at the end "the match is over"
    scene["waiting"] = safe_text(
        pending.what.removeprefix("nothing: ") if pending.kind == "over"
        else "waiting for " + seats_named(match, pending.what))
    return scene


# The result's columns: 90 on a wide screen; 44 on a phone, whose 390 px hold about 49
# columns of the page's 12 px monospace (the 90-column tables scrolled sideways there)
OUTCOME_WIDTH = 90
OUTCOME_NARROW = 44


def _outcome_text(game: Game, match: Match, width: int = OUTCOME_WIDTH) -> str | None:
    from rich.console import Console

    if not match.over and match.forfeit is None:
        return None
    buf = io.StringIO()
    Console(file=buf, width=width, color_system=None, highlight=False).print(
        outcome_panel(game, match))
    return buf.getvalue().rstrip()


def _entry(game: Game, index: int, ev: Event, match: Match, viewer: int | None,
           at: int | None, taken: list[tuple[int, Event]] | None = None) -> dict[str, Any]:
    words = event_words(game, ev, match, viewer, taken)
    seat = game.actor(ev)
    if seat.startswith("p") and seat[1:].isdigit():  # by a seat: named once, by its label
        who = safe_text(event_actor(game, ev, match))
        words = (who + words[len(seat):] if words.startswith((seat + " ", seat + ":"))
                 else f"{who}: {words}")
    line = words if at is None else f"{clock_text(at)} {words}"
    hidden = viewer is not None and game.hidden_from(ev, viewer)
    return {"n": index, "kind": ev.KIND, "line": line,
            "notation": "hidden" if hidden else safe_text(game.notate(ev))}


def _seed_text(game: Game, header: Any, viewer: int | None) -> str | None:
    """What a view's heading says of the seed: the seed itself in the referee's view, that
    it is hidden in a seat's (:meth:`Game.header_hidden_from`: it gives away every card),
    None at a real table. A page written with ``--as`` holds that seat's view only, so it
    holds no seed; a page of every view holds the referee's view, seed and every card."""
    shown, hidden = seen_header(game, header, viewer)
    if "seed" in hidden:
        return f"seed hidden from p{viewer}"
    return None if shown.seed is None else safe_text(f"seed {shown.seed}")


# The most steps (events times views: everyone's and each seat's, or the one asked for) a
# page holds: a scene each, built in memory and written out, about 4.5 KiB of memory (6 with
# ten seats) and 350 bytes of page a step (a Dare match of 1,000 rounds, about 9,600 events in
# 4 views: 170 MiB to build, a 13 MiB page). A log of a million events would take gigabytes.
MAX_PAGE_STEPS = 50_000


def page_steps(data: Any, viewer: int | None) -> tuple[int, int]:
    """The views a page of ``data`` (a log as read) holds and its steps (see
    :data:`MAX_PAGE_STEPS`)."""
    views = 1 if viewer is not None else len(data.header.seats) + 1
    return views, views * len(data.events)


def page_data(game: Game, data: Any, log_name: str, viewer: int | None) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data (see the module's doc)."""
    return _walked(game, data, log_name, viewer)[0]


def _walked(game: Game, data: Any, log_name: str,
            viewer: int | None) -> tuple[dict[str, Any], Violation | None]:
    """:func:`page_data`, and the log's first event that breaks a rule (None: none)."""
    header = data.header
    events: list[Event] = data.events
    times = data.times
    scenes: list[dict[str, Any]] = []
    seats_seen: list[dict[str, Any]] = []  # a seat's part of a scene, often the same
    known: dict[str, int] = {}
    known_seats: dict[str, int] = {}

    def once(item: dict[str, Any], pool: list[dict[str, Any]], index: dict[str, int]) -> int:
        key = json.dumps(item, sort_keys=True, separators=(",", ":"))
        found = index.get(key)
        if found is None:
            found = index[key] = len(pool)
            pool.append(item)
        return found

    def store(scene: dict[str, Any]) -> int:
        scene["seats"] = [once(s, seats_seen, known_seats) for s in scene["seats"]]
        return once(scene, scenes, known)

    names = [shown_name(s.name) for s in header.seats]
    # every view (everyone's, then each seat's; or the one asked for) built in one walk
    seen = [None, *range(1, len(header.seats) + 1)] if viewer is None else [viewer]
    start = Match(game, header)
    ats = [[store(_scene(game, start, seat))] for seat in seen]
    entries: list[list[dict[str, Any]]] = [[] for _ in seen]

    takebacks = Takebacks()

    def on_step(index: int, ev: Event, m: Match) -> None:
        when = time_of(times, index)
        taken = takebacks.step(index, ev, m)
        for seat, at, said in zip(seen, ats, entries, strict=True):
            said.append(_entry(game, index, ev, m, seat, when, taken))
            at.append(store(_scene(game, m, seat)))

    match, violation = walk(game, header, events, on_step)
    violation_data: dict[str, Any] | None = None
    if violation is not None:
        for seat, at, said in zip(seen, ats, entries, strict=True):
            told = seen_violation(game, violation, events, seat)
            assert told is not None
            line = broken_rule(told)  # (the event named once: "p3 sets 1-3-8 ...")
            if not told.action.startswith(f"{told.actor} "):
                line = f"{safe_text(told.actor)}: {line}"
            t = time_of(times, told.index)  # when it was entered, as the lines before it
            if t is not None:
                line = f"{clock_text(t)} {line}"
            said.append({"n": told.index, "kind": "violation", "line": line,
                         "notation": safe_text(told.action)})
            at.append(at[-1])
        told = seen_violation(game, violation, events, viewer)
        assert told is not None
        violation_data = {"index": told.index,
                          "text": safe_text(f"event {told.index} breaks a rule: "
                                            f"{told.actor} {told.action!r}: "
                                            f"{told.reason}")}
    views = [{"key": "all" if seat is None else f"p{seat}",
              "label": "everyone (referee)" if seat is None else seat_label(match, seat),
              "seed": _seed_text(game, header, seat), "events": said, "at": at}
             for seat, at, said in zip(seen, ats, entries, strict=True)]
    outcome = _outcome_text(game, match)
    h = header
    return {
        "game": game.title, "log": safe_text(log_name), "mode": h.mode,
        # the seed's commitment, printed before the deal: every view shows it (not the salt)
        "commit": None if h.commit is None else safe_text(h.commit),
        "seats": names,
        "rules": safe_text(rules_line(h.rules)),
        "scenes": scenes, "seats_seen": seats_seen, "views": views,
        "violation": violation_data,
        "error": None if data.error is None else safe_text(unreadable_shown(data, log_name)),
        "outcome": outcome,
        "outcome_narrow": _outcome_text(game, match, OUTCOME_NARROW),
        # a game quit or cut short (no rule broken, no damage: those say where it stops):
        # what it waits for and how to go on, as the plain replay ends
        "unfinished": None if match.over or violation is not None or data.error is not None
        else unfinished_line(game, match, log_name).plain,
    }, violation


def page(game: Game, data: Any, log_name: str, viewer: int | None = None,
         start: int = 0) -> tuple[str, Violation | None]:
    """The whole page (HTML, one file), opening at event ``start`` (a URL's ``#N`` wins),
    and the log's first event that breaks a rule, found on the way (None: none)."""
    info, violation = _walked(game, data, log_name, viewer)
    info["start"] = start
    svg, ids = symbols(game.deck)
    info["faces"] = ids
    # each card's name in words (its image's text alternative) where its deck has words for
    # it ("GR": "green reverse"); else a card is named by its token
    named = game.deck.named
    info["names"] = {tok: name for tok in ids if (name := named(tok)) != tok}
    blob = (json.dumps(info, separators=(",", ":"), ensure_ascii=False)
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    title = escape(f"{game.title} · {safe_text(log_name)} · kabucli replay")
    heading = escape(f"{game.title} · {safe_text(log_name)}")
    parts = {"@TITLE@": title, "@HEADING@": heading, "@NOJS@": _no_script(info),
             "@SVG@": svg, "@CSS@": _CSS, "@JS@": _JS, "@DATA@": blob}
    # one pass: a log's file name holding "@DATA@" stays a name
    return re.sub("|".join(parts), lambda m: parts[m.group(0)], _TEMPLATE), violation


def _no_script(info: dict[str, Any]) -> str:
    """What the page shows with JavaScript off (a ``<noscript>``): that stepping needs it,
    the first view's events as text and how the log ends (result, broken rule, damage or
    an unfinished game), the result drawn twice as the script's is (as wide as a screen, as
    narrow as a phone: CSS shows one). The script draws the rest; without it the page showed
    dead buttons."""
    view = info["views"][0]
    lines = ["0 before the first event"] + [f"{e['n']} {e['line']}" for e in view["events"]]
    ends = [t for t in (info["violation"] and info["violation"]["text"], info["error"],
                        info["unfinished"]) if t]
    return ("<noscript><section id=\"nojs\"><p>Stepping through the game "
            "needs JavaScript, which is off: here are the events (seen by "
            f"{escape(view['label'])}) and how the log ends.</p>"
            f"<pre>{escape(chr(10).join(lines))}</pre>"
            + "".join(f"<p class=\"end\">{escape(t)}</p>" for t in ends)
            # the result as wide as a screen and as narrow as a phone: CSS shows one
            + (f"<pre class=\"wide\">{escape(info['outcome'])}</pre>"
               f"<pre class=\"narrow\">{escape(info['outcome_narrow'])}</pre>"
               if info["outcome"] else "")
            + "</section></noscript>")


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>@TITLE@</title>
<style>@CSS@</style>
<noscript><style>#controls,#table,aside{display:none}</style></noscript></head>
<body>
<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0" style="position:absolute" \
aria-hidden="true" focusable="false">\
<defs>@SVG@</defs></svg>
<header>
  <h1 id="title">@HEADING@</h1>
  <div id="meta"></div>
  <div id="controls">
    <button id="first" title="first (Home)"><span aria-hidden="true">&#xAB; </span>first\
</button>
    <button id="back" title="back (Left arrow)"><span aria-hidden="true">&#x25C0; </span>back\
</button>
    <button id="forward" title="forward (Right arrow)">forward\
<span aria-hidden="true"> &#x25B6;</span></button>
    <button id="last" title="last (End)">last<span aria-hidden="true"> &#xBB;</span></button>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="event">
    <span id="event-index"></span>
    <label>seen by <select id="viewer"></select></label>
    <span id="keys">keys: &#x2190; &#x2192; step, Home first, End last</span>
  </div>
</header>
<main>
  @NOJS@
  <div id="announce" class="sr-only" aria-live="polite" aria-atomic="true"></div>
  <section id="table">
    <div id="scene-title"></div>
    <div id="summary"><span id="pot-box">pot <b id="pot"></b></span>
      <span id="waiting"></span></div>
    <div id="status"></div>
    <div id="centre"></div>
    <div id="seats"></div>
    <pre id="outcome" class="outcome"></pre>
    <pre id="outcome-narrow" class="outcome"></pre>
  </section>
  <aside><h2>events</h2><ol id="events"></ol></aside>
</main>
<script type="application/json" id="data">@DATA@</script>
<script>@JS@</script>
</body></html>
"""

_CSS = """
*{box-sizing:border-box}
body{margin:0;font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;background:#0f3d2a;
color:#f3f1e8;overflow-wrap:anywhere}
header{padding:10px 16px;background:#0a2a1d;border-bottom:2px solid #06180f}
h1{font-size:20px;margin:0 0 4px}
#meta{font-size:12px;color:#b8c9bd;margin-bottom:8px}
#controls{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
button{background:#e9e4d4;border:1px solid #666;border-radius:5px;padding:5px 10px;
font-size:14px;cursor:pointer}
button:disabled{opacity:.45;cursor:default}
:focus-visible{outline:3px solid #ffd54f;outline-offset:2px}
#slider{flex:1;min-width:160px}
#event-index{font-variant-numeric:tabular-nums;min-width:110px}
select{font-size:14px;padding:3px;max-width:22em}
#keys{font-size:12px;color:#b8c9bd}
main{display:flex;gap:14px;padding:14px;align-items:flex-start}
#table{flex:1;min-width:0}
aside{position:relative;width:340px;flex:none;background:#0a2a1d;border-radius:8px;padding:8px;
max-height:calc(100vh - 140px);overflow:auto}
aside h2{font-size:14px;margin:2px 4px 6px;color:#b8c9bd}
#events{list-style:none;margin:0;padding:0;font-size:12.5px}
#events li{padding:3px 6px;border-radius:4px;cursor:pointer;display:flex;gap:6px}
#events li:hover{background:#164a34}
#events li.current{background:#f0c74a;color:#1a1a1a}
#events li.violation{color:#ff8a80}
#events li.current.violation{background:#ff8a80;color:#1a1a1a}
#events .n{opacity:.7;min-width:max(28px,var(--digits,0ch));text-align:right;flex:none;
white-space:nowrap;font-variant-numeric:tabular-nums}
#events .nt{font-family:'DejaVu Sans Mono',monospace;opacity:.75;margin-left:auto;
padding-left:6px;white-space:nowrap;max-width:110px;overflow:hidden;text-overflow:ellipsis}
#scene-title{font-size:17px;font-weight:bold;margin-bottom:6px}
#summary{display:flex;gap:18px;font-size:14px;margin-bottom:4px;color:#d7e3da}
#pot-box b{font-size:16px;color:#ffd54f}
#status{font-size:14px;margin:4px 0 10px;min-height:18px}
#status div{margin:2px 0}
#status .bad{color:#ff8a80;font-weight:bold}
#status .unfinished{color:#ffd54f}
#centre{display:flex;flex-wrap:wrap;gap:18px;background:#13553a;border-radius:12px;
padding:12px 14px;margin-bottom:14px;min-height:40px}
#centre:empty{display:none}
.pile-label,.row-label{font-size:12px;color:#cfe0d4;margin-bottom:4px}
#seats{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(340px,100%),1fr));
gap:12px}
.seat{background:#184a35;border:2px solid #0b2b1e;border-radius:10px;padding:8px 10px}
.seat[data-turn]{border-color:#f0c74a;box-shadow:0 0 0 2px #f0c74a inset}
.seat-head{display:flex;gap:10px;align-items:baseline;margin-bottom:6px}
.seat-name{font-weight:bold;font-size:15px}
.seat-turn{font-size:12px;font-weight:bold;background:#f0c74a;color:#1a1a1a;border-radius:4px;
padding:0 5px;white-space:nowrap}
.seat-chips{margin-left:auto;font-size:13px;color:#ffd54f;white-space:nowrap}
.seat-status{font-size:12.5px;color:#9fe3b5;min-height:16px;margin-bottom:4px}
.seat-info{font-size:12px;color:#cfe0d4}
.rows{display:flex;flex-wrap:wrap;gap:2px 12px}
.row{margin:2px 0 4px}
.cards{display:flex;gap:3px;align-items:center;margin-bottom:3px}
:root{--card:62px}
#centre{--card:78px}
.card{width:var(--card);height:calc(var(--card) * 1.5);flex:none;
filter:drop-shadow(1px 2px 2px rgba(0,0,0,.45))}
.row.down .card{opacity:.8}
.count{font-size:13px;margin-left:6px;color:#ffd54f}
.outcome{font-size:12px;background:#0a2a1d;border-radius:8px;padding:8px;white-space:pre;
overflow:auto}
.outcome:empty,#outcome-narrow{display:none}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);
white-space:nowrap}
#nojs{flex:1;min-width:0}
#nojs pre{font-size:12.5px;background:#0a2a1d;border-radius:8px;padding:8px;overflow:auto}
#nojs p{font-size:15px;color:#ffd54f}
#nojs p.end{color:#ff8a80;font-weight:bold}
#nojs pre.narrow{display:none}
@media (max-width:760px){main{flex-direction:column;align-items:stretch;padding:10px}
aside{width:auto;max-height:45vh}#centre{--card:62px}
#outcome{display:none}#outcome-narrow:not(:empty){display:block}
#nojs pre.wide{display:none}#nojs pre.narrow{display:block}}
"""

_JS = r"""
"use strict";
(function () {
  const D = JSON.parse(document.getElementById("data").textContent);
  // (a Map: a word such as "constructor" in a player's name is no key of an object's own)
  const NAMES = new Map(Object.entries(D.names));
  const SVGNS = "http://www.w3.org/2000/svg";
  const $ = (id) => document.getElementById(id);
  let view = D.views[0];
  let pos = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function card(token) {
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "card");
    svg.setAttribute("viewBox", "0 0 100 150");
    svg.setAttribute("data-card", token);
    const title = document.createElementNS(SVGNS, "title");
    title.textContent = token === "??" ? "face down" : (NAMES.get(token) || token);
    svg.appendChild(title);
    const use = document.createElementNS(SVGNS, "use");
    const id = token === "??" ? "card-back" : (D.faces[token] || "card-blank");
    use.setAttribute("href", "#" + id);
    svg.appendChild(use);
    if (!D.faces[token] && token !== "??") {
      const t = document.createElementNS(SVGNS, "text");
      t.setAttribute("x", "50"); t.setAttribute("y", "80");
      t.setAttribute("text-anchor", "middle"); t.setAttribute("font-size", "20");
      t.textContent = token;
      svg.appendChild(t);
    }
    return svg;
  }
  // a line as a listener hears it: each card token outside a quotation (a dare's words)
  // named in words where its deck names it ("plays GD6" -> "plays green dare 6"), cards
  // next to one another (joined by '-' or apart by a space) said as a list, with commas
  function spoken(text) {
    return text.split('"').map((part, i) => i % 2 ? part : part
      .replace(/[0-9A-Za-z]+/g, (w) => NAMES.has(w) ? "\u0001" + NAMES.get(w) + "\u0002" : w)
      .replace(/\u0002[- ]\u0001/g, ", ").replace(/[\u0001\u0002]/g, "")).join('"');
  }
  // a card's width in a box (--card: the middle's cards are larger, but on a phone)
  function cardWidth(box) {
    return parseFloat(getComputedStyle(box).getPropertyValue("--card")) || 62;
  }
  function cards(list, count, room, w) {
    // cards overlap, as a fan in the hand, so that a row fits its room; a card shows at
    // least MIN pixels (its corner), and a row too long for that goes on over more lines
    const MIN = 14, GAP = 3;
    const shown = count !== undefined && count !== null &&
      (count !== list.length || count === 0);
    const fit = Math.max(62, room - (shown ? 60 : 0));  // the count beside the last line
    const per = Math.max(1, 1 + Math.floor((fit - w) / MIN));
    const nLines = Math.max(1, Math.ceil(list.length / per));
    const size = Math.ceil(list.length / nLines);
    const box = el("div", "fan");
    let line = null;
    list.forEach((t, i) => {
      const k = i % size;
      if (k === 0) {
        line = el("div", "cards");
        box.appendChild(line);
      }
      const n = Math.min(size, list.length - i + k);
      const step = n > 1 ? Math.min(w + GAP, (fit - w) / (n - 1)) : w + GAP;
      const c = card(t);
      if (k && step < w + GAP) c.style.marginLeft = step - w - GAP + "px";
      line.appendChild(c);
    });
    if (!line) {
      line = el("div", "cards");
      box.appendChild(line);
    }
    if (shown) line.appendChild(el("span", "count", count === 0 ? "empty" : "\u00d7 " + count));
    return box;
  }
  function row(r, cls, labelCls, room, w) {
    const box = el("div", cls + (r.down ? " down" : ""));
    box.appendChild(el("div", labelCls, r.label));
    box.appendChild(cards(r.cards, r.count, room, w));
    return box;
  }

  function draw() {
    const scene = D.scenes[view.at[pos]];
    const last = view.at.length - 1;
    $("scene-title").textContent = scene.title;
    $("pot").textContent = scene.pot === null ? "-" : scene.pot;
    $("pot-box").style.display = scene.pot === null ? "none" : "";
    $("waiting").textContent = scene.waiting || "";
    const status = $("status");
    status.replaceChildren();
    for (const line of scene.lines) status.appendChild(el("div", "", line));
    if (pos === last) {
      if (D.violation) status.appendChild(el("div", "bad", D.violation.text));
      if (D.error) status.appendChild(el("div", "bad", D.error));
      if (D.unfinished) status.appendChild(el("div", "unfinished", D.unfinished));
    }
    const centre = $("centre");
    centre.replaceChildren();
    // (the room inside the padding; the middle shown for its size: not display:none)
    centre.style.display = scene.centre.length ? "flex" : "";
    const middle = centre.clientWidth - 28, big = cardWidth(centre);
    for (const p of scene.centre) centre.appendChild(row(p, "pile", "pile-label", middle, big));
    centre.style.display = "";
    const seats = $("seats");
    seats.replaceChildren();
    for (const s of scene.seats.map((i) => D.seats_seen[i])) {
      const box = el("div", "seat");
      box.setAttribute("data-seat", "p" + s.seat);
      if (scene.turn.includes(s.seat)) box.setAttribute("data-turn", "");
      const head = el("div", "seat-head");
      const label = s.name === "p" + s.seat ? "p" + s.seat : "p" + s.seat + " " + s.name;
      // a group named by its label: a screen reader moves seat by seat
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", label);
      head.appendChild(el("span", "seat-name", label));
      // whose move it is, in words as well as by the gold border (not by its color alone)
      if (scene.turn.includes(s.seat)) head.appendChild(el("span", "seat-turn", "to move"));
      head.appendChild(el("span", "seat-chips", (s.chips_label || "chips") + " " + s.chips));
      box.appendChild(head);
      box.appendChild(el("div", "seat-status", s.status));
      if (s.info) box.appendChild(el("div", "seat-info", s.info.join(" \u00b7 ")));
      const rows = el("div", "rows");
      box.appendChild(rows);
      seats.appendChild(box);
      const room = box.clientWidth - 20, w = cardWidth(box);
      for (const r of s.rows) rows.appendChild(row(r, "row", "row-label", room, w));
    }
    // the result drawn twice, as wide as a screen and as narrow as a phone: CSS shows one
    $("outcome").textContent = pos === last && D.outcome ? D.outcome : "";
    $("outcome-narrow").textContent = pos === last && D.outcome_narrow ? D.outcome_narrow : "";
    $("event-index").textContent = "event " + pos + " of " + last;
    // what a screen reader says on each step (a polite live region): the position, the
    // event, the pot and whose move it is
    const ev = pos ? view.events[pos - 1] : null;
    $("announce").textContent = "event " + pos + " of " + last + ": " +
      (ev ? spoken(ev.line) : "before the first event") +
      (scene.pot === null ? "" : ". pot " + scene.pot) +
      (scene.waiting ? ". " + spoken(scene.waiting) : "");
    $("slider").max = String(last);
    $("slider").value = String(pos);
    $("first").disabled = $("back").disabled = pos === 0;
    $("last").disabled = $("forward").disabled = pos === last;
    // the current event: marked for a screen reader too, and the list's one tab stop;
    // focus in the list follows it as the arrows step
    const ol = $("events"), inList = document.activeElement?.parentElement === ol;
    for (const li of ol.children) {
      const on = Number(li.dataset.index) === pos;
      li.classList.toggle("current", on);
      li.tabIndex = on ? 0 : -1;
      if (on) li.setAttribute("aria-current", "step");
      else li.removeAttribute("aria-current");
      if (on) {
        follow(li);
        if (inList && document.activeElement !== li) li.focus({preventScroll: true});
      }
    }
  }
  // the list scrolls to its current line inside itself; on a phone, where the list is
  // under the table, the window stays where it is (scrollIntoView took it down to the list)
  const stacked = window.matchMedia("(max-width:760px)");
  function follow(li) {
    const box = li.parentElement.closest("aside");
    const top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (bottom > box.scrollTop + box.clientHeight) {
      box.scrollTop = bottom - box.clientHeight;
    }
    if (!stacked.matches) li.scrollIntoView({block: "nearest"});
  }
  function go(p) {
    pos = Math.max(0, Math.min(view.at.length - 1, p));
    draw();
  }
  function listEvents() {
    const ol = $("events");
    ol.replaceChildren();
    // the numbers' column as wide as the longest number: a number of 4 or more digits beside
    // an event of two lines was squeezed and broken over them ("598" over "2")
    const last = view.events.length ? view.events[view.events.length - 1].n : 0;
    ol.style.setProperty("--digits", String(last).length + "ch");
    const start = el("li", "", null);
    start.dataset.index = "0";
    start.appendChild(el("span", "n", "0"));
    start.appendChild(el("span", "", "before the first event"));
    ol.appendChild(start);
    view.events.forEach((e, i) => {
      const li = el("li", e.kind === "violation" ? "violation" : "");
      li.dataset.index = String(i + 1);
      li.appendChild(el("span", "n", e.n));
      li.appendChild(el("span", "t", e.line));
      // the notation's tooltip on the notation (cut short with an ellipsis): on the item, a
      // title became the item's name, and a screen reader read the notation twice
      const nt = el("span", "nt", e.notation);
      nt.title = e.notation;
      li.appendChild(nt);
      ol.appendChild(li);
    });
  }
  function seatLabel(name, i) {  // a seat named as its label (a real table's "p1") once
    const p = "p" + (i + 1);
    return name === p ? p : p + " " + name;
  }
  function showMeta() {  // the seed is the referee's: a seat's view says it is hidden
    $("meta").textContent = D.mode + (view.seed !== null ? " (" + view.seed + ")" : "") +
      (D.commit !== null ? " \u00b7 commitment " + D.commit : "") +
      " \u00b7 seats: " + D.seats.map(seatLabel).join(", ") +
      " \u00b7 rules: " + D.rules;
  }
  function setView(key) {
    view = D.views.find((v) => v.key === key) || D.views[0];
    showMeta();
    listEvents();
    go(Math.min(pos, view.at.length - 1));
  }

  document.title = D.game + " \u00b7 " + D.log + " \u00b7 kabucli replay";
  $("title").textContent = D.game + " \u00b7 " + D.log;
  const sel = $("viewer");
  for (const v of D.views) {
    const o = el("option", "", v.label);
    o.value = v.key;
    sel.appendChild(o);
  }
  sel.disabled = D.views.length < 2;
  sel.addEventListener("change", () => setView(sel.value));
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(pos - 1));
  $("forward").addEventListener("click", () => go(pos + 1));
  $("last").addEventListener("click", () => go(view.at.length - 1));
  $("slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("events").addEventListener("click", (e) => {
    const li = e.target.closest("li");
    if (li) go(Number(li.dataset.index));
  });
  document.addEventListener("keydown", (e) => {
    if (e.target === sel || e.target === $("slider")) return;
    if (e.key === "ArrowRight") { go(pos + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(pos - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(view.at.length - 1); e.preventDefault(); }
  });
  const wanted = Number((location.hash.match(/^#(\d+)$/) || [])[1]);
  showMeta();
  listEvents();
  go(Number.isFinite(wanted) ? wanted : D.start);
})();
"""
