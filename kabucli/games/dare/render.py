"""How a Dare table looks: the field, each seat's hand, sets laid, chips and the pot."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kabucli.engine import Game, Match
from kabucli.events import End, Event, Pay
from kabucli.games.dare.rules import DareState, Deal, Lay, Result, Show
from kabucli.games.dare.text import hand_name
from kabucli.ledger import party_name
from kabucli.notation import card_list
from kabucli.render import (
    cards_box,
    cards_inline,
    final_standings,
    result_rows,
    round_of,
    seat_cell,
    seat_label,
)
from kabucli.render.fit import fit, titled


def _where(s: DareState) -> str:
    """The title's start: the round and its dealer; once its result is in (the pot paid out
    or not yet), the round over and, if one is left, who deals the next (``s.dealer`` is
    that seat from the result on)."""
    r, over = round_of(s.phase, s.round)
    if not over and s.history and s.history[-1].round == r:
        over = True
    if not over:
        return f"Dare · round {r}/{s.rules.rounds} · dealer p{s.dealer}"
    nxt = f" · next dealer p{s.dealer}" if r < s.rules.rounds else ""
    return f"Dare · round {r}/{s.rules.rounds} over{nxt}"


def round_label(match: Match) -> str:
    """Where the match is, for the status line of ``replay --step``: the round of the event
    just recorded."""
    s: DareState = match.state
    return f"round {round_of(s.phase, s.round)[0]}/{s.rules.rounds}"


def _status(s: DareState, p: int) -> Text:
    laid = s.laid[p]
    if s.phase == "turns" and s.actor == p:
        return Text("to play", style="bold yellow")
    if laid is None:
        return Text("waiting", style="dim")
    n = len(laid)
    if n == 3:
        return Text("DARE!", style="bold magenta")
    if n == 2:
        shown = s.shown[p]
        if shown is not None:
            return Text(f"shows {hand_name(shown, s.rules.yaku)}", style="cyan")
        return Text("qualified", style="cyan")
    return Text("out", style="red")


def table(game: Game, match: Match, viewer: int | None = None) -> RenderableType:
    s: DareState = match.state
    tok = game.deck.token
    title = (_where(s) + (f" · reference {s.ref}" if s.field else "") + f" · pot {s.ledger.pot}")
    field = Group(Text("field", style="dim"), cards_box([tok(c) for c in s.field]))
    seats = Table(show_edge=False, pad_edge=False, expand=True)
    seats.add_column("seat")
    seats.add_column("chips", justify="right")
    seats.add_column("hand")
    seats.add_column("sets laid")
    seats.add_column("status")
    for p in s.order:
        hidden = viewer is not None and viewer != p and s.shown[p] is None
        hand = cards_inline(["??"] * len(s.hands[p]) if hidden else [tok(c) for c in s.hands[p]])
        hand.no_wrap = False  # (a long hand goes on under itself, between cards, rather than
        # squeeze the seat's name to a word a line; so do the sets laid, between sets)
        sets = Text("  ").join(cards_inline([tok(c) for c in st], sep="-")
                               for st in (s.laid[p] or []))
        seats.add_row(seat_cell(match, p), str(s.ledger.seat(p)), hand, sets, _status(s, p))
    return titled(Group(field, Text(""), fit(seats)), title)


def outcome(game: Game, match: Match, out: dict[str, Any]) -> RenderableType:
    rounds = Table(title="rounds", title_justify="left")
    rounds.add_column("round", justify="right")
    rounds.add_column("result")
    labels = {"dare": "Dare!", "showdown": "showdown", "tie": "tie, pot carries",
              "split": "tie, pot split", "order": "tie, first in turn order",
              "nobody": "nobody qualified, pot carries"}

    def add(table: Table, r: dict[str, Any]) -> None:
        winners = ", ".join(seat_label(match, int(w[1:])) for w in r["winners"])
        label = labels.get(r["reason"], r["reason"])  # a pot that carries went to nobody
        table.add_row(str(r["round"]), Text(f"{label}: {winners}" if winners else label))

    result_rows(rounds, out["rounds"], add, "rounds")
    return Group(rounds, *final_standings(match, out))


_REASONS = {"dare": "is Dare and takes the pot", "showdown": "wins the showdown",
            "split": "share the pot (tie)", "order": "wins the tie (first in turn order)"}


def describe(game: Game, ev: Event, match: Match) -> str | None:
    """A reader's wording of a Dare event; ``match`` is the state after it."""
    s: DareState = match.state
    if isinstance(ev, Deal):
        field = card_list(game.deck, ev.field)
        return (f"round {ev.round}, dealer p{ev.dealer}: field {field}, reference "
                f"{sum(ev.field) % 10}")
    if isinstance(ev, Lay):
        if not ev.sets:
            return f"p{ev.seat} lays no set"
        sets = " ".join(card_list(game.deck, st) for st in ev.sets)
        what = {3: "DARE!", 2: "qualifies", 1: "is out"}[len(ev.sets)]
        return f"p{ev.seat} lays {sets}: {what}"
    if isinstance(ev, Show):
        return (f"p{ev.seat} shows {card_list(game.deck, ev.cards)}: "
                f"{hand_name(ev.cards, s.rules.yaku)}")
    if isinstance(ev, Pay):
        return f"{party_name(ev.src)} pays {ev.amount} to {party_name(ev.dst)} ({ev.why})"
    if isinstance(ev, Result):
        who = ", ".join(f"p{w}" for w in ev.winners)
        if ev.reason == "tie":
            text = "tie: nobody wins, the pot stays"
        elif ev.reason == "nobody":
            text = "nobody qualified: the pot stays"
        else:
            text = f"{who} {_REASONS[ev.reason]}"
        # (after the last round nobody deals: the match is over)
        nxt = f"; p{ev.dealer} deals next" if ev.round < s.rules.rounds else ""
        return f"round {ev.round}: {text}{nxt}"
    if isinstance(ev, End):
        chips = ", ".join(f"p{i} {b}" for i, b in enumerate(ev.balances, 1))
        return f"match over: {chips}" + (f"; pot left {ev.pot}" if ev.pot else "")
    return None


def scene(game: Game, match: Match, viewer: int | None = None) -> dict[str, Any]:
    """The table as plain data for the replay page (see kabucli/render/html.py): the field
    in the middle, each seat's hand (face down when ``viewer`` may not see it) and sets."""
    s: DareState = match.state
    tok = game.deck.token
    seats = []
    for p in s.order:
        hidden = viewer is not None and viewer != p and s.shown[p] is None
        rows = [{"label": "hand", "cards": ["??"] * len(s.hands[p]) if hidden
                 else [tok(c) for c in s.hands[p]]}]
        rows += [{"label": f"set {i}", "cards": [tok(c) for c in st]}
                 for i, st in enumerate(s.laid[p] or [], 1)]
        seats.append({"seat": p, "chips": s.ledger.seat(p), "status": _status(s, p).plain,
                      "rows": rows})
    centre = ([{"label": f"field · reference {s.ref}", "cards": [tok(c) for c in s.field]}]
              if s.field else [])
    return {"title": _where(s),
            "pot": s.ledger.pot, "centre": centre, "seats": seats, "lines": []}
