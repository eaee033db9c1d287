"""How a Kabu-Tsukuri table looks: each seat's hand and rows (face down until turned over,
with their names once shown), chips, the pot, what a tie carried, and who leads the row."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kabucli.engine import Game, Match
from kabucli.events import End, Event
from kabucli.figures import signed
from kabucli.games.kabu_tsukuri.rules import (
    ROWS,
    Arrange,
    Bet,
    Deal,
    KabuState,
    Result,
    Show,
    Stakes,
    Turn,
)
from kabucli.games.kabu_tsukuri.text import result_line, row_name
from kabucli.notation import card_list
from kabucli.render import (
    cards_inline,
    final_standings,
    result_rows,
    round_of,
    seat_cell,
    seat_label,
)
from kabucli.render.fit import Either, fit, titled

MILESTONES = {"deal", "result"}


def _where(s: KabuState) -> str:
    """The title's start: the hand, its dealer and its row (the row just decided until a bet
    on the next one), or once it is over the next dealer (none after the match's last hand,
    whose last row's result already set ``s.dealer``)."""
    h, over = round_of(s.phase, s.hand)
    last = s.history[-1] if s.history else None
    if not over and last is not None and last.hand == h and last.row == ROWS:
        over = True
    if not over:
        head = f"Kabu-Tsukuri · hand {h}/{s.rules.hands} · dealer p{s.dealer}"
        if (last is not None and last.hand == h and last.row == s.row - 1
                and s.phase == "bets" and s.turn == 0):  # a row's result, no bet on the next
            return f"{head} · row {last.row} over"
        return f"{head} · row {s.row}"
    nxt = f" · next dealer p{s.dealer}" if h < s.rules.hands else ""
    return f"Kabu-Tsukuri · hand {h}/{s.rules.hands} over{nxt}"


def round_label(match: Match) -> str:
    """Where the match is, for the status line of ``replay --step``: the hand of the event
    just recorded."""
    s: KabuState = match.state
    return f"hand {round_of(s.phase, s.hand)[0]}/{s.rules.hands}"


def _row_cell(s: KabuState, game: Game, p: int, r: int, hidden: bool) -> Text:
    tok = game.deck.token
    # between hands, the rows of the hand just played, every one turned over
    shown = s.last_shown[p] if s.last_shown and s.phase == "deal" else s.shown[p]
    if r < len(shown):
        cards = cards_inline([tok(c) for c in shown[r]], sep="-")
        return cards + Text(f"\n{row_name(s.level(shown[r]), s.rules.ranking)}", style="cyan")
    laid = s.rows[p]
    if laid is None:
        return Text("")
    if hidden:
        return cards_inline(["??"] * 3, sep="-")
    return cards_inline([tok(c) for c in laid[r]], style="dim", sep="-")


def _leader(s: KabuState) -> Text:
    """Who takes the pot of this round, as far as its rows are shown."""
    levels = s.levels()
    if not levels:
        return _last(s)
    done = len(levels) == s.n
    last = s.history[-1] if s.history else None
    if done and last is not None and (last.hand, last.row) == (s.hand, s.row):
        return _last(s)  # decided and paid (the pot is empty now): what it paid
    top = max(levels.values())
    best = [p for p in s.order if levels.get(p) == top]
    name = row_name(top, s.rules.ranking)
    if len(best) == 1:
        verb = "takes" if done else "leads for"
        return Text(f"row {s.row}: p{best[0]} {verb} the pot of {s.ledger.pot} with {name}",
                    style="bold green")
    # the seats apart from the row's name, which may hold a comma itself (Nobori, Santa (3))
    tied = ", ".join(f"p{p}" for p in best)
    what = "tie" if done else "tied so far"
    carries = ": the pot carries" if done else ""
    return Text(f"row {s.row}: {tied} {what} with {name}{carries}", style="bold yellow")


def _last(s: KabuState) -> Text:
    """What the last row decided, until the next row is turned over or, the hand's last row,
    until the next hand is dealt (its table said how the hand before ended)."""
    if not s.history:
        return Text("")
    r = s.history[-1]
    if r.hand != s.hand and s.phase != "deal":
        return Text("")
    return Text(result_line(r), style="green" if len(r.best) == 1 else "yellow")


def _bets_due(s: KabuState) -> str:
    """At a real table while the bets are made: whose bets on this row are still due."""
    if not (s.physical and s.phase == "bets"):
        return ""
    return f"bets due on row {s.row}: " + ", ".join(f"p{p}" for p in s.order[s.turn:])


def _unshown(s: KabuState, p: int) -> int:
    """How many of seat ``p``'s cards a real table has not seen yet (its rows turned over so
    far are on the table)."""
    return s.size - sum(len(row) for row in s.shown[p])


def table(game: Game, match: Match, viewer: int | None = None) -> RenderableType:
    s: KabuState = match.state
    tok = game.deck.token
    title = f"{_where(s)} · pot {s.ledger.pot}"
    if s.carried:
        title += f" (carried {s.carried})"
    seats = Table(show_edge=False, pad_edge=False, expand=True)
    for col in ("seat", "chips", "cards", *(f"row {r}" for r in range(1, ROWS + 1))):
        seats.add_column(col, justify="right" if col == "chips" else "left", no_wrap=True)
    actor = s.actor if match.pending.kind != "over" else 0
    for p in s.order:
        hidden = viewer is not None and viewer != p
        if s.rows[p] is not None:
            hand = Text("" if hidden or not s.aside[p] else
                        "aside " + card_list(game.deck, s.aside[p]), style="dim")
        elif s.cards[p]:
            hand = cards_inline(["??"] * len(s.cards[p]) if hidden
                                else [tok(c) for c in s.cards[p]])
        else:
            hand = (Text(f"{_unshown(s, p)} face down", style="dim") if s.phase != "deal"
                    else Text(""))
        label = seat_cell(match, p)
        if match.pending.seats == (p,) and p == actor:
            label.append(" ◀", style="bold yellow")
        seats.add_row(label, str(s.ledger.seat(p)), hand,
                      *(_row_cell(s, game, p, r, hidden) for r in range(ROWS)))
    parts: list[RenderableType] = [fit(seats)]
    lead = _leader(s)
    if lead.plain:
        parts.append(lead)
    if due := _bets_due(s):
        parts.append(Text(due, style="yellow"))
    return titled(Group(*parts), title)


def outcome(game: Game, match: Match, out: dict[str, Any]) -> RenderableType:
    rows = Table(title="rows", title_justify="left")
    rows.add_column("hand", justify="right")
    rows.add_column("row", justify="right")
    rows.add_column("result")

    def add(table: Table, r: dict[str, Any]) -> None:
        best = [seat_label(match, int(w[1:])) for w in r["best"]]
        what = (f"{best[0]} takes {r['amount']}" if len(best) == 1
                else f"tie ({', '.join(best)}): {r['amount']} carries")
        table.add_row(str(r["hand"]), str(r["row"]), Text(what))

    result_rows(rows, out["rows"], add, "rows")
    return Group(rows, *final_standings(match, out))


def describe(game: Game, ev: Event, match: Match) -> str | None:
    """A reader's wording of a Kabu-Tsukuri event; ``match`` is the state after it."""
    s: KabuState = match.state
    ranking = s.rules.ranking
    if isinstance(ev, Deal):
        return f"hand {ev.hand}, dealer p{ev.dealer}: {s.size} cards each"
    if isinstance(ev, Arrange):
        return f"p{ev.seat} lays three rows face down"
    if isinstance(ev, Stakes):
        return f"everyone bets {ev.amount} on row {ev.row}"
    if isinstance(ev, Bet):
        return f"p{ev.seat} bets {s.rules.bet}"
    if isinstance(ev, Turn):
        shown = ", ".join(f"p{p} {card_list(game.deck, r)} {row_name(s.level(r), ranking)}"
                          for p, r in enumerate(ev.rows, 1))
        return f"row {ev.row} turned over: {shown}"
    if isinstance(ev, Show):
        return (f"p{ev.seat} turns over {card_list(game.deck, ev.cards)}: "
                f"{row_name(s.level(ev.cards), ranking)}")
    if isinstance(ev, Result):
        return result_line(ev)
    if isinstance(ev, End):
        chips = ", ".join(f"p{i} {b}" for i, b in enumerate(ev.balances, 1))
        return f"match over: {chips}" + (f"; pot left {ev.pot}" if ev.pot else "")
    return None


def solution(answer: dict[str, Any]) -> RenderableType:
    """``kabucli solve``'s answer: the best arrangements, each row with its name and chances.
    Drawn an arrangement a line, its rows side by side, where the terminal is wide enough
    (about 95 columns); else a row a line (an 80-column terminal), and in a terminal too
    narrow for that, each arrangement listed."""
    hand = cards_inline(answer["hand"])
    title = (f"best arrangements · {answer['players']} players · ranking "
             f"{answer['ranking']} · bet {answer['bet']}")
    wide = Table(title=title, title_justify="left")
    wide.add_column("#", justify="right")
    for r in range(1, ROWS + 1):
        wide.add_column(f"row {r}", no_wrap=True)
    wide.add_column("aside")
    wide.add_column("chips", justify="right")
    long = Table(title=title, title_justify="left")
    for name in ("#", "row"):
        long.add_column(name, justify="right")
    long.add_column("cards", no_wrap=True)
    long.add_column("named")
    for name in ("win", "tie"):
        long.add_column(name, justify="right", style="cyan")
    long.add_column("aside")
    long.add_column("chips", justify="right")
    for i, plan in enumerate(answer["arrangements"], start=1):
        rows = list(zip(plan["rows"], plan["names"], plan["win"], plan["tie"], strict=True))
        aside = "-".join(plan["aside"])
        chips = signed(plan["expected"], 3)
        # (the column keeps a cell on its lines; the cell itself may wrap, as it is listed
        # in a terminal too narrow for either table: joined to the cards' no_wrap Text, its
        # shares were cut, 'win 96% · t…')
        wide.add_row(str(i), *(Text.assemble(cards_inline(row, sep="-"), Text(
            f"\n{name}\nwin {w:.0%} · tie {tie:.0%}", style="cyan"))
            for row, name, w, tie in rows), aside, chips)
        for r, (row, name, w, tie) in enumerate(rows, start=1):
            first = r == 1
            long.add_row(str(i) if first else "", str(r), cards_inline(row, sep="-"),
                         Text(name, style="cyan"), f"{w:.0%}", f"{tie:.0%}",
                         aside if first else "", chips if first else "",
                         end_section=r == len(rows))
    note = Text("expected chips per hand, bets included, when every other row is three "
                "unseen cards at random (docs/rules/kabu-tsukuri.md)", style="dim")
    return Group(Text("hand ") + hand, Either(wide, long), note)


def scene(game: Game, match: Match, viewer: int | None = None) -> dict[str, Any]:
    """The table as plain data for the replay page (see kabucli/render/html.py): each seat's
    hand and three rows (face down until turned over, with their names once shown; another
    seat's hidden cards drawn face down for a ``viewer``) and who leads the row."""
    s: KabuState = match.state
    tok = game.deck.token
    seats = []
    for p in s.order:
        hidden = viewer is not None and viewer != p
        rows: list[dict[str, Any]] = []
        if s.rows[p] is None and s.cards[p]:
            rows.append({"label": "hand", "cards": ["??"] * len(s.cards[p]) if hidden
                         else [tok(c) for c in s.cards[p]]})
        elif s.rows[p] is None and s.phase != "deal":
            rows.append({"label": f"{_unshown(s, p)} face down", "cards": ["??"],
                         "count": _unshown(s, p)})
        laid = s.rows[p]
        for r in range(ROWS):
            shown = s.shown[p]
            if r < len(shown):
                rows.append({"label": f"row {r + 1} · "
                                      f"{row_name(s.level(shown[r]), s.rules.ranking)}",
                             "cards": [tok(c) for c in shown[r]]})
            elif laid is not None:
                rows.append({"label": f"row {r + 1} · face down",
                             "cards": ["??"] * 3 if hidden else [tok(c) for c in laid[r]],
                             "down": True})
        if laid is not None and s.aside[p] and not hidden:
            rows.append({"label": "aside", "cards": [tok(c) for c in s.aside[p]]})
        seats.append({"seat": p, "chips": s.ledger.seat(p), "status": "", "rows": rows})
    lines = [_leader(s).plain, _bets_due(s)]
    title = (_where(s) + (f" · carried {s.carried}" if s.carried else ""))
    return {"title": title, "pot": s.ledger.pot, "centre": [], "seats": seats,
            "lines": [line for line in lines if line]}
