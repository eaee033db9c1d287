"""How a Yatchaba table looks: the cards face up, the three face down, the guess and its odds,
each seat's chips, bets and passes, and the pot."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kabucli.cards import UNKNOWN
from kabucli.engine import Game, Match
from kabucli.events import End, Event, Pay
from kabucli.games.yatchaba.rules import (
    Bet,
    Continue,
    Deal,
    GameEnd,
    Guess,
    Pass,
    Result,
    Reveal,
    Stop,
    YatchabaState,
    draws,
    ways,
)
from kabucli.games.yatchaba.text import named_months, odds_text, pass_logged, passes_cell, ratio
from kabucli.ledger import party_name
from kabucli.render import (
    cards_box,
    final_standings,
    result_rows,
    round_of,
    seat_cell,
    seat_label,
)
from kabucli.render.fit import fit, titled

MILESTONES = {"deal", "result", "gameend"}


def _round(s: YatchabaState) -> tuple[int, int, bool]:
    """The game and round the table belongs to, and whether that round is over: once a
    round's result (or a game's end) is in, the state waits for the next round's (or game's)
    deal, yet the event just recorded is the round just played."""
    r, over = round_of(s.phase, s.round)
    if over:
        return s.game, r, True
    if s.phase == "deal" and s.game > 1 and s.history:
        return s.game - 1, int(s.history[-1]["rounds"]), True
    if s.history and s.history[-1]["game"] == s.game:  # the match's last game ended
        return s.game, int(s.history[-1]["rounds"]), True
    return s.game, s.round, False


def _where(s: YatchabaState) -> str:
    """The title's start: the game, round, dealer and guesser; once the round is over, who
    guesses next (or, the game over too, who deals the next)."""
    g, r, over = _round(s)
    head = f"Yatchaba · game {g}/{s.games} · round {r}"
    if not over:
        return f"{head} · dealer p{s.dealer} · guesser p{s.guesser}"
    if g < s.game:
        return f"{head} over · next dealer p{s.dealer}"
    if s.history and s.history[-1]["game"] == g:
        return f"{head} over · match over"
    return f"{head} over · dealer p{s.dealer} · next guesser p{s.guesser}"


def round_label(match: Match) -> str:
    """Where the match is, for the status line of ``replay --step``: the game and round of
    the event just recorded."""
    s: YatchabaState = match.state
    g, r, _ = _round(s)
    return f"game {g}/{s.games} · round {r}"


def _status(s: YatchabaState, p: int) -> Text:
    phase = s.phase
    if phase == "bet" and s.bettor == p:
        return Text(f"to bet {s.next_amount()}" + ("" if p == s.guesser else " or pass"),
                    style="bold yellow")
    if phase == "decide" and s.decider == p:
        return Text("continue or stop?", style="bold yellow")
    if p == s.guesser:
        return Text("guesser", style="bold cyan")
    if s.out[p]:
        return Text("passed", style="red")
    return Text("")


def _guessing(s: YatchabaState, p: int) -> str:
    if p in s.guessed and p != s.guesser:
        return "guessed"
    if p == s.guesser:
        return "guessing"
    return "may guess" if s.may_guess(p) else "lost the turn"


def table(game: Game, match: Match, viewer: int | None = None) -> RenderableType:
    s: YatchabaState = match.state
    tok = game.deck.token
    title = f"{_where(s)} · pot {s.ledger.pot}"
    up = [tok(c) if c != UNKNOWN else str(m) for m, c in s.table]
    parts: list[RenderableType] = [Text("face up", style="dim"), cards_box(up)]
    if s.phase in ("guess", "bet", "decide", "reveal"):
        show = viewer is None and s.laid is not None
        down = [tok(c) for c in sorted(s.laid or [])] if show else ["??"] * 3
        parts += [Text("face down" + (" (seen by the log only)" if show else ""),
                       style="dim"), cards_box(down)]
    if s.guess and s.phase in ("bet", "decide", "reveal"):
        parts.append(Text(f"p{s.guesser} guesses {named_months(s.guess)}", style="bold"))
    if s.phase in ("guess", "bet", "decide", "reveal"):
        parts.append(Text(odds_text(s), style="cyan"))
    seats = Table(show_edge=False, pad_edge=False, expand=True)
    for col in ("seat", "chips", "in this round", "passes", "guessing", "status"):
        seats.add_column(col, justify="right" if col in ("chips", "in this round") else "left")
    limit = s.rules.pass_limit
    for p in s.order:
        seats.add_row(seat_cell(match, p), str(s.ledger.seat(p)), str(s.bets[p]),
                      passes_cell(s.passes[p], limit), _guessing(s, p), _status(s, p))
    return titled(Group(*parts, Text(""), fit(seats)), title)


def outcome(game: Game, match: Match, out: dict[str, Any]) -> RenderableType:
    games = Table(title="games", title_justify="left")
    for col in ("game", "dealer", "rounds", "result"):
        games.add_column(col, justify="right" if col in ("game", "rounds") else "left")

    def add(table: Table, g: dict[str, Any]) -> None:
        winner = g["winner"]
        result = (f"{seat_label(match, int(winner[1:]))} guessed right" if winner
                  else f"nobody right, {g['carry']} carried")
        table.add_row(str(g["game"]), seat_cell(match, int(g["dealer"][1:])),
                      str(g["rounds"]), Text(result))

    result_rows(games, out["games"], add, "games")
    return Group(games, *final_standings(match, out))


def _before(match: Match, ev: Event) -> tuple[list[int], list[int], set[int]] | None:
    """Unseen cards per month, passes per seat and the seats that have guessed (the dealer
    first) in the game of ``ev``, just before it.

    Worked out from the events in effect, because the match may already be further on (a
    batch of bot moves is drawn after it is played); None if ``ev`` is not among them."""
    events = match.events
    at = next((i for i in range(len(events) - 1, -1, -1) if events[i] is ev), None)
    if at is None:
        return None
    # from the end of the game before it (everything before counts for nothing): walking the
    # match from its first event made each guess and pass line cost the whole match, and a
    # replay or a table of many games slow as the square of its length
    start = at
    while start > 0 and not isinstance(events[start - 1], GameEnd):
        start -= 1
    left = [0] + [4] * 12
    passes = [0] * (match.nseats + 1)
    guessed: set[int] = set()
    for i in range(start, at):
        e = events[i]
        if isinstance(e, Deal):
            guessed.add(e.guesser)
        elif isinstance(e, Reveal):
            for m in e.months:
                left[m] -= 1
        elif isinstance(e, Pass):
            passes[e.seat] += 1
    return left, passes, guessed


def describe(game: Game, ev: Event, match: Match) -> str | None:
    """A reader's wording of a Yatchaba event. The cards laid face down are never named here
    (they are named when they are turned over)."""
    tok = game.deck.token
    if isinstance(ev, Deal):
        return f"game {ev.game}, round {ev.round}: p{ev.guesser} lays three cards face down"
    if isinstance(ev, Guess):
        text = f"p{ev.seat} guesses {named_months(ev.months)}"
        context = _before(match, ev)
        if context is not None:
            left = context[0]
            num, den = ways(left, ev.months), draws(left)
            text += (f", chance {ratio(num, den)}" if num  # (as the odds line writes it)
                     else ", chance 0: it can never be right")
        return text
    if isinstance(ev, Bet):
        return f"p{ev.seat} bets {ev.amount}"
    if isinstance(ev, Pass):
        text = f"p{ev.seat} passes (1 chip)"
        context = _before(match, ev)
        if context is not None:
            used, limit = context[1][ev.seat] + 1, match.state.rules.pass_limit
            text += f", {pass_logged(used, limit)}"
            if used == limit + 1 and ev.seat not in context[2]:
                # a seat that has guessed (or dealt) has no turn to lose
                text += ": no longer a guesser in this game"
        return text
    if isinstance(ev, Continue):
        return f"p{ev.seat}: continue, another lap"
    if isinstance(ev, Stop):
        return f"p{ev.seat}: stop, the cards are turned over"
    if isinstance(ev, Reveal):
        cards = ev.cards if ev.cards is not None else [UNKNOWN] * len(ev.months)
        named = " ".join(tok(c) if c != UNKNOWN else str(m)
                         for m, c in zip(ev.months, cards, strict=False))
        return f"the cards are {named} ({named_months(ev.months)})"
    if isinstance(ev, Result):
        if ev.right:
            return f"p{ev.guesser} guessed right!"
        nxt = f"p{ev.next} guesses next" if ev.next else "nobody is left to guess"
        return f"p{ev.guesser} guessed wrong; {nxt}"
    if isinstance(ev, Pay):
        return f"{party_name(ev.src)} pays {ev.amount} to {party_name(ev.dst)} ({ev.why})"
    if isinstance(ev, GameEnd):
        who = f"p{ev.winner} won" if ev.winner else "nobody guessed right"
        text = f"game {ev.game} over: {who}"
        if ev.carry:
            text += f"; {ev.carry} chips stay in the pot"
        if ev.dealer:
            text += f"; p{ev.dealer} deals game {ev.game + 1}"
        return text
    if isinstance(ev, End):
        chips = ", ".join(f"p{i} {b}" for i, b in enumerate(ev.balances, 1))
        return f"match over: {chips}" + (f"; pot left {ev.pot}" if ev.pot else "")
    return None


def scene(game: Game, match: Match, viewer: int | None = None) -> dict[str, Any]:
    """The table as plain data for the replay page (see kabucli/render/html.py): the cards
    face up (a card known by its month only drawn as that month), the three face down (their
    faces only in the log's own view), the guess and its odds, and each seat's bets."""
    s: YatchabaState = match.state
    tok = game.deck.token
    centre: list[dict[str, Any]] = [
        {"label": "face up", "cards": [tok(c) if c != UNKNOWN else str(m) for m, c in s.table]}]
    lines: list[str] = []
    if s.phase in ("guess", "bet", "decide", "reveal"):
        show = viewer is None and s.laid is not None
        centre.append({"label": "face down" + (" (seen by the log only)" if show else ""),
                       "cards": [tok(c) for c in sorted(s.laid or [])] if show
                       else ["??"] * 3})
        if s.guess and s.phase in ("bet", "decide", "reveal"):
            lines.append(f"p{s.guesser} guesses {named_months(s.guess)}")
        lines.append(odds_text(s))
    limit = s.rules.pass_limit
    seats = [{"seat": p, "chips": s.ledger.seat(p), "status": _status(s, p).plain,
              "info": [f"in this round {s.bets[p]}", f"passes {passes_cell(s.passes[p], limit)}",
                       _guessing(s, p)], "rows": []} for p in s.order]
    return {"title": _where(s),
            "pot": s.ledger.pot, "centre": centre, "seats": seats, "lines": lines}
