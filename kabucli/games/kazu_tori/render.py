"""How a Kazu-Tori table looks: the cards face up with the number said and whether the top one
may be taken, who flips next saying what, what happens if nobody claims, and each seat's pile
and chips. Piles are face down: only their sizes are drawn, except in the log's own view of a
seeded game (no viewer), which knows every card."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kabucli.cards import ONI
from kabucli.engine import Game, Match
from kabucli.events import End, Event, Pay
from kabucli.figures import counted
from kabucli.games.kazu_tori.bots import reaction_ms
from kabucli.games.kazu_tori.rules import (
    GAME,
    JIZO_USES,
    T_HANDOUT,
    T_RETURN,
    T_SHUFFLE,
    WORDS,
    Claim,
    Deal,
    Flip,
    Handout,
    KazuToriState,
    Pass,
    Penalty,
    Race,
    Return,
    Score,
    Shuffle,
    Stop,
    matches,
)
from kabucli.games.kazu_tori.text import closing_text
from kabucli.ledger import party_name
from kabucli.render import (
    balances_table,
    cards_box,
    cards_inline,
    race_time,
    seat_cell,
    seat_label,
)
from kabucli.render.fit import fit, titled

MILESTONES = {"deal"}

# Where a round starts, for ``replay --step``'s ``]`` and ``[``. Kazu-Tori has one deal, so a
# "round" here is one count from "one": it starts at the deal and again wherever the table
# was emptied and the count starts over (a card taken, the table returned at the limit; the
# Jizo's cards given out leave the count where it was).
ROUND_START = {"deal", "claim", "handout", "return"}


def round_start(event: Event, match: Match) -> bool:
    """Whether ``event`` (``match``: the state after it) starts a count from "one": the deal,
    or one of the other ``ROUND_START`` events that left the table empty and the next flip
    saying "one" (a wrong claim leaves the table as it was)."""
    s: KazuToriState = match.state
    return isinstance(event, Deal) or (not s.table and s.count == 1)


def round_label(match: Match) -> str:
    """Where the match is, for the status line of ``replay --step``."""
    s: KazuToriState = match.state
    return f"flip {s.flips}"


def ending(reason: str, seat: int, match: Match) -> str:
    """How a game ended, in words. A stop is the players' agreement; with bots at the table
    (who never stop and agree to nothing) it is the person's call."""
    if reason == "agreement":
        if match.bot_seats:
            return f"p{seat} stopped the game"
        return f"the players agreed to stop (proposed by p{seat})"
    return {
        "take": f"p{seat} took the table in Last Call",
        "oni": f"p{seat} turned the Oni as their last card",
        "out": "every pile is empty",
        "max_flips": "the flip limit was reached",
    }[reason]


def _status(s: KazuToriState, p: int, nxt: int) -> Text:
    if s.phase == "end" and s.result is not None and s.result.winners and p in s.result.winners:
        return Text("wins", style="bold green")
    if not s.piles[p] and s.phase != "deal":
        return Text("out", style="red")
    claimed = s.phase == "window" and p in s.claimed
    if p == nxt:  # (the next flipper may have claimed the card in the window too)
        out = Text("claimed, ", style="magenta") if claimed else Text()
        out.append(f"flips next, says {WORDS[GAME.next_count(s)]}", style="bold yellow")
        return out
    if claimed:
        return Text("claimed", style="magenta")
    return Text("")


def _title(s: KazuToriState) -> str:
    """The table's heading: the limit, the flips so far, last call, the Jizo's uses."""
    return (f"Kazu-Tori · limit {s.rules.limit} · flip {s.flips}"
            + (" · LAST CALL" if s.lastcall else "") + f" · Jizo used {s.jizo_uses}/{JIZO_USES}")


def _window(game: Game, s: KazuToriState) -> tuple[str, bool, str] | None:
    """While the card just flipped may be claimed: what it said, whether it may be taken,
    and what happens if nobody takes it ("" when nothing); None at any other time."""
    if s.phase != "window" or s.todo:
        return None
    closing = GAME.on_close(s)
    return (f"{game.deck.token(s.table[-1])} said {WORDS[s.said]} by p{s.last}: ",
            s.takeable(), "" if closing is None else "if nobody takes it: "
            + closing_text(closing))


def _next(s: KazuToriState) -> int:
    """The seat to flip next (0 when no flip is awaited: nor at a real table that reached
    max_flips, where every flip is refused)."""
    if s.flips_spent():
        return 0
    return s.next_flipper() if s.phase in ("turn", "window") and not s.todo else 0


def table(game: Game, match: Match, viewer: int | None = None) -> RenderableType:
    s: KazuToriState = match.state
    tok = game.deck.token
    title = _title(s)
    parts: list[RenderableType] = [Text("table (oldest first)", style="dim"),
                                   cards_box([tok(c) for c in s.table])]
    window = _window(game, s)
    if window is not None:
        said, takeable, closing = window
        parts.append(Text.assemble(said, Text("may be taken", style="bold green") if takeable
                                   else Text("may not be taken", style="red")))
        if closing:
            parts.append(Text(closing, style="cyan"))
    nxt = _next(s)
    seats = Table(show_edge=False, pad_edge=False, expand=True)
    for col in ("seat", "chips", "pile", "status"):
        seats.add_column(col, justify="right" if col == "chips" else "left")
    for p in range(1, s.n + 1):
        pile = s.piles[p]
        if viewer is None and not s.physical and pile:
            shown: Text | str = Text.assemble(f"{len(pile):>2}  ",
                                              cards_inline([tok(c) for c in pile]))
        else:
            shown = f"{len(pile):>2}"
        seats.add_row(seat_cell(match, p), str(s.ledger.seat(p)), shown, _status(s, p, nxt))
    return titled(Group(*parts, Text(""), fit(seats)), title)


def outcome(game: Game, match: Match, out: dict[str, Any]) -> RenderableType:
    seat = int(out["seat"][1:]) if out["seat"] else 0
    winners = ", ".join(seat_label(match, int(w[1:])) for w in out["winners"]) or "nobody"
    cards = Table(title="cards held", title_justify="left")
    cards.add_column("seat")
    cards.add_column("cards", justify="right")
    for key, k in out["cards"].items():
        cards.add_row(seat_cell(match, int(key[1:])), str(k))
    flips = counted(out["flips"], "flip", "flips")
    head = Text(f"Game over after {flips}: {ending(out['reason'], seat, match)}. "
                f"Most cards: {winners}.", style="bold")
    return Group(head, cards, balances_table(match, out["balances"], title="final chips"))


def _position(match: Match, ev: Event) -> int | None:
    """Where ``ev`` stands in the events in effect (searched from the end: the events drawn
    are the latest ones), or None."""
    events = match.events
    for i in range(len(events) - 1, -1, -1):
        if events[i] is ev:
            return i
    return None


_EFFECTS = (Handout, Return, Shuffle)


def _turn_text(match: Match, ev: Flip, at: int) -> str:
    """What the flip at ``at`` turned, or that it turned nothing (the game stopped)."""
    s: KazuToriState = match.state
    number = s.flip_events - sum(isinstance(e, Flip) for e in match.events[at + 1:])
    turned = GAME.turned_by(s, number)
    if turned is None:
        # (the line is the flipper's: said as their flip, which the limit stops, so that it
        # does not read as the game ended by that player)
        return (f"p{ev.seat} would flip, but the game stops at max_flips="
                f"{s.rules.max_flips}: no card is turned")
    _, card, said, left = turned
    text = f"p{ev.seat} turns {GAME.deck.token(card)}, says {WORDS[said]}"
    if left == 0 and card == ONI:
        return text + ": the Oni as the last card ends the game"
    text += ": may be taken!" if matches(card, said) else ""
    if left == 0:
        text += f" (p{ev.seat}'s last card: p{ev.seat} is out)"
    return text


def _flip_text(match: Match, ev: Flip) -> str:
    at = _position(match, ev)
    if at is None:
        return GAME.notate(ev)
    events = match.events
    todo = match.state.todo
    if (at + 1 < len(events) and isinstance(events[at + 1], Handout | Return)) or (
            at + 1 == len(events) and todo and todo[0][0] in (T_HANDOUT, T_RETURN)):
        return f"p{ev.seat} flips: first the cards on the table are given out"
    return _turn_text(match, ev, at)


def _then(match: Match, ev: Event) -> str:
    """For the last of the events a flip set off (a hand-out or return and the shuffles
    after it): what the flip turned once they were done."""
    at = _position(match, ev)
    if at is None:
        return ""
    events = match.events
    if at + 1 < len(events) and isinstance(events[at + 1], _EFFECTS):
        return ""
    todo = match.state.todo
    if at + 1 == len(events) and todo and todo[0][0] == T_SHUFFLE:
        return ""  # drawn before the shuffle that comes next
    i = at
    while i > 0 and isinstance(events[i], _EFFECTS):
        i -= 1
    flip = events[i]
    if i == at or not isinstance(flip, Flip):
        return ""
    return "; then " + _turn_text(match, flip, i)


def describe(game: Game, ev: Event, match: Match) -> str | None:
    """A reader's wording of a Kazu-Tori event (worked out from the events, so a line reads
    the same whether it is drawn at once or after a batch of bot moves)."""
    if isinstance(ev, Deal):
        sizes = ", ".join(f"p{i} {k}" for i, k in enumerate(ev.sizes, 1))
        return f"the 40 cards are dealt face down: {sizes}"
    if isinstance(ev, Flip):
        return _flip_text(match, ev)
    if isinstance(ev, Claim):
        at = _position(match, ev)
        nxt = match.events[at + 1] if at is not None and at + 1 < len(match.events) else None
        if isinstance(nxt, Penalty) and nxt.seat == ev.seat:
            return f"p{ev.seat} claims: a card that may not be taken"
        if nxt is None and match.state.phase == "window":
            return f"p{ev.seat} claims: a card that may not be taken"
        return f"p{ev.seat} claims first and takes the table"
    if isinstance(ev, Pass):
        return f"p{ev.seat} lets the card go"
    if isinstance(ev, Stop):
        return f"p{ev.seat} proposes to stop here, and the players agree"
    if isinstance(ev, Race):
        times = ", ".join(race_time(match, p, d, reaction_ms) for p, d in enumerate(ev.draws, 1)
                          if d >= 0)
        return f"several bots reach for the card: {times}"
    if isinstance(ev, Shuffle):
        who = ", ".join(f"p{p}" for p in ev.seats)
        if len(ev.seats) == 1:
            return f"{who} shuffles the cards received into the pile" + _then(match, ev)
        return f"{who} shuffle the cards they received into their piles" + _then(match, ev)
    if isinstance(ev, Penalty):
        to = ", ".join(f"p{p}" for p in ev.to) or "nobody (nobody else is in)"
        return f"wrong claim: p{ev.seat} gives a card to each of {to}"
    if isinstance(ev, Handout):
        head = (f"the Jizo goes to p{ev.jizo}" if ev.jizo
                else "the Jizo, used a third time, leaves the game")
        if ev.to:
            counts: dict[int, int] = {}
            for p in ev.to:
                counts[p] = counts.get(p, 0) + 1
            head += "; the other cards, most recent first: " + ", ".join(
                f"{k} to p{p}" for p, k in counts.items())
        return head + _then(match, ev)
    if isinstance(ev, Return):
        back = ", ".join(f"p{p} {k}" for p, k in enumerate(ev.counts, 1) if k)
        return (f"nobody took a card up to the limit: the table goes back ({back})"
                + _then(match, ev))
    if isinstance(ev, Score):
        cards = ", ".join(f"p{p} {k}" for p, k in enumerate(ev.cards, 1))
        winners = ", ".join(f"p{w}" for w in ev.winners) or "nobody"
        return f"game over, {ending(ev.reason, ev.seat, match)}. Cards: {cards}; most: {winners}"
    if isinstance(ev, Pay):
        return f"{party_name(ev.src)} pays {ev.amount} to {party_name(ev.dst)} ({ev.why})"
    if isinstance(ev, End):
        chips = ", ".join(f"p{i} {b}" for i, b in enumerate(ev.balances, 1))
        return f"final chips: {chips}"
    return None


def scene(game: Game, match: Match, viewer: int | None = None) -> dict[str, Any]:
    """The table as plain data for the replay page (see kabucli/render/html.py): the cards
    face up, what the top one said, and each seat's pile (face down, except in the log's own
    view of a seeded game, which knows every card)."""
    s: KazuToriState = match.state
    tok = game.deck.token
    lines: list[str] = []
    window = _window(game, s)
    if window is not None:
        said, takeable, closing = window
        lines.append(said + ("may be taken" if takeable else "may not be taken"))
        lines += [closing] if closing else []
    nxt = _next(s)
    seats = []
    for p in range(1, s.n + 1):
        pile = s.piles[p]
        faces = viewer is None and not s.physical
        seats.append({"seat": p, "chips": s.ledger.seat(p), "status": _status(s, p, nxt).plain,
                      "rows": [{"label": f"pile · {len(pile)}",
                                "cards": [tok(c) for c in pile] if faces else
                                (["??"] if pile else []), "count": len(pile)}]})
    return {"title": _title(s), "pot": None,  # (no pot: each loser pays the winner)
            "centre": [{"label": "table (oldest first)", "cards": [tok(c) for c in s.table]}],
            "seats": seats, "lines": lines}
