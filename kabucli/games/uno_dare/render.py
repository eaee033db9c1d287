"""How an Uno Dare table looks: the top card and the color in play, the direction, whose move
it is, each hand (its size only, for hands the viewer may not see), the score sheet, and the
dare a player was just hit by with its text."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from kabucli.cards import UNKNOWN
from kabucli.engine import Game, Match
from kabucli.events import End, Event
from kabucli.figures import counted
from kabucli.games.uno_dare.rules import (
    COLOR,
    HAND,
    T_PENALTY,
    T_SCORE,
    T_SHOW,
    WILD,
    Answer,
    Catch,
    Deal,
    Draw,
    Keep,
    Name,
    Pass,
    Penalty,
    Play,
    Race,
    Reshuffle,
    Score,
    Show,
    Uno,
    UnoState,
    dare_number,
    hand_seen,
)
from kabucli.games.uno_dare.text import COLOR_NAMES, dare_text
from kabucli.notation import card_list
from kabucli.render import race_time, result_rows, round_of, seat_cell, seat_label
from kabucli.render.fit import Parts, fit, titled

MILESTONES = {"deal", "score"}
STYLES = ("bold white on red", "bold black on yellow", "bold white on green",
          "bold white on blue")
WILD_STYLE = "bold white on magenta"


def card_text(game: Game, card: int) -> Text:
    """One card drawn as a small face in its color."""
    if card == UNKNOWN:
        return Text("??", style="dim")
    c = COLOR[card]
    return Text(f" {game.deck.token(card)} ", style=WILD_STYLE if c == WILD else STYLES[c])


def cards_line(game: Game, cards: list[int]) -> Text:
    return Text(" ").join(card_text(game, c) for c in cards) if cards else Text("-", style="dim")


def hand_line(game: Game, hand: list[int]) -> Text:
    """A hand in the seats' table: its cards, those nobody has seen (a real table's) counted
    as ``N face down`` rather than drawn one by one (seven ?? told nothing the count does not,
    and at 40 columns took a line each)."""
    known = [c for c in hand if c != UNKNOWN]
    if len(known) == len(hand):
        return cards_line(game, hand)
    face_down = Text(f"{len(hand) - len(known)} face down", style="dim")
    return Text(" ").join([*(card_text(game, c) for c in known), face_down])


def _status(s: UnoState, p: int) -> Text:
    if s.phase == "over":
        return Text("")
    if not s.hands[p] and any(code == T_SHOW for code, _ in s.todo):  # (a real table)
        return Text("went out", style="bold green")  # the round is won; its score comes later
    if s.hit == p:
        doing = "trying" if s.phase == "verdict" else "hit by"
        return Text(f"{doing} dare #{s.hit_number}", style="bold magenta")
    if s.window == p:
        return Text("one card, no UNO!", style="bold red")
    if (T_PENALTY, (p, 2, "uno")) in s.todo:  # caught: the draw of 2 is the next event
        return Text("caught, draws 2", style="bold red")
    if s.phase in ("turn", "drawn", "name") and s.turn == p and not s.todo:
        return Text("to play" if s.phase != "drawn" else "drew a card", style="bold yellow")
    if len(s.hands[p]) == 1 and s.phase != "deal":
        return Text("UNO", style="cyan")
    return Text("")


def _where(s: UnoState) -> str:
    """The title's start: the round and its dealer, or once it is over the next dealer (none
    when the round ends the match: its score is in, and no deal waits)."""
    r, over = round_of(s.phase, s.round)
    if over:
        return f"Uno Dare · round {r} over · next dealer p{s.dealer}"
    if s.history and s.history[-1].round == r:
        return f"Uno Dare · round {r} over · match over"
    return f"Uno Dare · round {r} · dealer p{s.dealer}"


def round_label(match: Match) -> str:
    """Where the match is, for the status line of ``replay --step``: the round of the event
    just recorded."""
    s: UnoState = match.state
    return f"round {round_of(s.phase, s.round)[0]}"


def _hit(s: UnoState) -> str:
    """Who the dare in play hits, and its words."""
    return f"p{s.hit} is hit by dare #{s.hit_number}: \"{dare_text(s.rules, s.hit_number)}\""


def _dare_line(s: UnoState) -> str:
    """The dare in play and what is asked next: the player hit tries it or declines; once they
    try, the table judges it (not the player hit, who has chosen already)."""
    dare = f"dare #{s.hit_number}: \"{dare_text(s.rules, s.hit_number)}\""
    if s.phase == "verdict":
        return f"p{s.hit} tries {dare} - the table judges it done, or failed (draw 2)"
    if s.phase == "name":  # a Wild Dare turned up first: its color comes before the dare
        return (f"{_hit(s)} - first p{s.turn} names the color, then tries it, or declines "
                "and draws 2")
    return f"{_hit(s)} - try it, or decline and draw 2"


def _drawn(game: Game, s: UnoState, viewer: int | None) -> str:
    """The card the player to move has just drawn, for whoever may see it ("" if none)."""
    if s.phase != "drawn" or (viewer is not None and viewer != s.turn) or s.physical:
        return ""
    return f"p{s.turn} drew {game.deck.token(s.drawn)}: play it now or keep it"


def table(game: Game, match: Match, viewer: int | None = None) -> RenderableType:
    s: UnoState = match.state
    arrow = "→ p1, p2, ..." if s.direction > 0 else "← ..., p2, p1"
    title = (f"{_where(s)} · target {s.rules.target} ({s.rules.scoring}) · dares: {s.rules.dares}")
    head: RenderableType
    if s.discards:
        top = Text("top ")
        top.append_text(card_text(game, s.discards[-1]))
        color = "to be named" if s.phase == "name" else COLOR_NAMES[s.color]
        top.append(f"  color {color}")
        head = Parts([top, Text(f"play {arrow}"), Text(f"pile {len(s.pile)}"),
                      Text(f"discards {len(s.discards)}")])
    else:
        head = Text("waiting for the deal", style="dim")
    seats = Table(show_edge=False, pad_edge=False, expand=True)
    seats.add_column("seat")
    seats.add_column("score", justify="right")
    seats.add_column("cards", justify="right")
    seats.add_column("hand")
    seats.add_column("")
    for p in range(1, s.n + 1):
        hand = s.hands[p]
        shown = hand_seen(s, p, viewer)
        seats.add_row(seat_cell(match, p), str(s.totals[p]), str(len(hand)),
                      hand_line(game, hand) if shown else Text("hidden", style="dim"),
                      _status(s, p))
    parts: list[RenderableType] = [head, Text(""), fit(seats)]
    if s.hit_number:
        parts += [Text(""), Text(_dare_line(s), style="magenta")]
    if drawn := _drawn(game, s, viewer):
        parts.append(Text(drawn))
    return titled(Group(*parts), title)


def outcome(game: Game, match: Match, out: dict[str, Any]) -> RenderableType:
    # (the seats' columns are what each hand held when the round ended: not scores)
    rounds = Table(title="rounds (points left in hand)", title_justify="left")
    rounds.add_column("round", justify="right")
    rounds.add_column("went out")
    for p in range(1, match.nseats + 1):
        rounds.add_column(f"p{p}", justify="right")

    def add(table: Table, r: dict[str, Any]) -> None:
        winner = r["winner"]
        who = seat_label(match, int(winner[1:])) if winner else "nobody (max_turns)"
        table.add_row(str(r["round"]), Text(who), *(str(v) for v in r["hands"].values()))

    result_rows(rounds, out["rounds"], add, "rounds", column=1)
    sheet = Table(title=f"scores ({out['scoring']})", title_justify="left")
    sheet.add_column("seat")
    sheet.add_column("score", justify="right")
    for key, score in out["scores"].items():
        style = "bold green" if key in out["winners"] else ""
        sheet.add_row(seat_cell(match, int(key[1:])), str(score), style=style)
    return Group(rounds, sheet, Text(won_why(match, out), style="bold green"))


def _points(n: int) -> str:
    return counted(n, "point", "points")


def won_why(match: Match, out: dict[str, Any]) -> str:
    """Who won the match and why: the first to reach the target (``winner`` scoring), or the
    lowest score when a score reached it (``lowest``, where a tie shares the win); or, when
    the match ended with rounds that scored nothing (``stuck_rounds`` in a row), the best
    score then."""
    s: UnoState = match.state
    target = s.rules.target
    scores: dict[str, int] = out["scores"]
    names = [seat_label(match, int(w[1:])) for w in out["winners"]]
    head = (f"winner: {names[0]}" if len(names) == 1
            else f"winners: {', '.join(names)} (a tie shares the win)")
    best = scores[out["winners"][0]]
    if max(scores.values()) < target:
        which = "lowest" if out["scoring"] == "lowest" else "highest"
        return (f"{head}, with the {which} score ({_points(best)}) when "
                f"{counted(s.rules.stuck_rounds, 'round', 'rounds')} in a row scored nothing")
    if out["scoring"] != "lowest":
        return f"{head}, the first to reach the target of {target} ({_points(best)})"
    reached = ", ".join(seat_label(match, int(k[1:])) for k, v in scores.items() if v >= target)
    return (f"{head}, with the lowest score ({_points(best)}) when {reached} reached the "
            f"target of {target}")


def describe(game: Game, ev: Event, match: Match) -> str | None:
    """A reader's wording of an Uno Dare event; ``match`` is the state after it. A move that
    used the round's last turn (``max_turns``) says so: at a real table the round's score
    comes only after the hands are shown, and the referee is asked for them next."""
    text = _describe(game, ev, match)
    s: UnoState = match.state
    if (text is not None and ev.KIND == "action" and s.phase == "round"
            and (T_SCORE, 0) in s.todo):
        text += f"; that was the round's last turn (max_turns {s.rules.max_turns}): it ends " \
                "with nobody out"
    return text


def _drew_nothing(match: Match, ev: Event) -> bool:
    """Whether the draw ``ev`` found the pile empty, with nothing to reshuffle (it passed the
    turn, no card taken): the pile is counted from the round's deal or the last reshuffle
    up to it, in the events in effect (False when ``ev`` is not among them)."""
    events = match.events
    at = next((i for i in range(len(events) - 1, -1, -1) if events[i] is ev), None)
    if at is None:
        return False
    start = at
    while start > 0 and type(events[start]) not in (Deal, Reshuffle):
        start -= 1
    first = events[start]
    if isinstance(first, Reshuffle):
        pile = first.size
    elif isinstance(first, Deal):
        pile = (len(first.pile) if first.pile is not None
                else match.game.deck.size - HAND * match.nseats - 1)
    else:
        return False
    for e in events[start + 1:at]:
        if type(e) is Draw:
            pile = max(pile - 1, 0)
        elif isinstance(e, Penalty):
            pile -= e.count
    return pile == 0


def _describe(game: Game, ev: Event, match: Match) -> str | None:
    s: UnoState = match.state
    tok = game.deck.token
    t = type(ev)
    if t is Play:
        assert isinstance(ev, Play)
        text = f"p{ev.seat} plays {tok(ev.card)}"
        if COLOR[ev.card] == WILD and ev.color is not None:
            text += f" and names {COLOR_NAMES[ev.color]}"
        number = dare_number(ev.card)
        if ev.uno:
            text += ", calling UNO"
        if number and s.hit:
            text += f": p{s.hit} is hit by dare #{number}"
        if s.window == ev.seat:
            text += " (one card left, no UNO call!)"
        return text
    if t is Draw:
        if s.phase == "drawn" and s.turn == ev.seat:  # type: ignore[attr-defined]
            return f"p{ev.seat} draws a card, and may play it"  # type: ignore[attr-defined]
        if not s.pile and len(s.discards) == 1 and _drew_nothing(match, ev):
            return (f"p{ev.seat} draws nothing: every card but the top discard is in a "  # type: ignore[attr-defined]
                    "hand; the turn passes")
        return f"p{ev.seat} draws a card"  # type: ignore[attr-defined]
    if t is Keep:
        return f"p{ev.seat} keeps the card drawn"  # type: ignore[attr-defined]
    if t is Name:
        assert isinstance(ev, Name)
        return f"p{ev.seat} names {COLOR_NAMES[ev.color]}"
    if t is Answer:
        assert isinstance(ev, Answer)
        if ev.answer == "try" and s.hit_number:  # (what the seat tries: a bot's too, which
            # the table sees only in this line; a person hit sees it on the table)
            return f"p{ev.seat} tries dare #{s.hit_number}: \"{dare_text(s.rules, s.hit_number)}\""
        return {"decline": f"p{ev.seat} declines the dare (draws 2)",
                "try": f"p{ev.seat} tries the dare",
                "done": f"p{ev.seat} did the dare",
                "failed": f"p{ev.seat} failed the dare (draws 2)"}[ev.answer]
    if t is Uno:
        return f"p{ev.seat} calls UNO"  # type: ignore[attr-defined]
    if t is Catch:
        assert isinstance(ev, Catch)
        return f"p{ev.seat} catches p{ev.target} without an UNO call"
    if t is Pass:
        return f"p{ev.seat} lets the missing UNO call go"  # type: ignore[attr-defined]
    if t is Penalty:
        assert isinstance(ev, Penalty)
        why = {"declined": "declined dare", "failed": "failed dare", "uno": "caught without UNO",
               "last": "a dare as the last card"}[ev.why]
        return f"p{ev.seat} draws {ev.count} ({why})"
    if t is Reshuffle:
        assert isinstance(ev, Reshuffle)
        under = counted(ev.size, "discard", "discards")
        return (f"the {under} under the top card {'is' if ev.size == 1 else 'are'} shuffled "
                "into a new draw pile")
    if t is Race:  # (who is caught: the window is open until the catch that follows)
        assert isinstance(ev, Race)
        # every seat but the one caught has a draw, also those who let the call go before
        # the bots were asked (every person among them): not in the race
        times = ", ".join(race_time(match, p, d, game.reaction_ms)  # type: ignore[attr-defined]
                          for p, d in enumerate(ev.draws, 1) if d >= 0 and p not in s.passed)
        return f"reaction times for a race to catch p{s.window}: {times}"
    if t is Deal:
        assert isinstance(ev, Deal)
        return f"round {ev.round}, dealer p{ev.dealer}: {tok(ev.up)} turned up"
    if t is Show:
        assert isinstance(ev, Show)
        return f"p{ev.seat} shows {card_list(game.deck, ev.cards, '-', 'nothing')}"
    if t is Score:
        assert isinstance(ev, Score)
        hands = ", ".join(f"p{i} {k}" for i, k in enumerate(ev.hands, 1))
        head = (f"round {ev.round}: p{ev.winner} goes out" if ev.winner
                else f"round {ev.round} reached max_turns: nobody scores")
        return f"{head}; points in hand: {hands}"
    if t is End:
        assert isinstance(ev, End)
        scores = ", ".join(f"p{i} {b}" for i, b in enumerate(ev.balances, 1))
        if ev.reason == "stuck":
            k = match.state.rules.stuck_rounds
            return (f"match over: {counted(k, 'round', 'rounds')} in a row scored nothing; "
                    f"scores {scores}")
        return "match over: " + scores
    return None


def scene(game: Game, match: Match, viewer: int | None = None) -> dict[str, Any]:
    """The table as plain data for the replay page (see kabucli/render/html.py): the draw
    pile and the top card in the middle, each hand (face down unless ``viewer`` may see it),
    the score sheet and the dare in play."""
    s: UnoState = match.state
    tok = game.deck.token
    centre: list[dict[str, Any]] = []
    lines: list[str] = []
    if s.discards:
        color = "to be named" if s.phase == "name" else COLOR_NAMES[s.color]
        centre = [{"label": "draw pile", "cards": ["??"] if s.pile else [],
                   "count": len(s.pile)},
                  {"label": f"discards · color {color}", "cards": [tok(s.discards[-1])],
                   "count": len(s.discards)}]
        lines.append("play goes " + ("p1 → p2 → ..." if s.direction > 0
                                     else "... → p2 → p1"))
    if s.hit_number:
        lines.append(_dare_line(s))
    if drawn := _drawn(game, s, viewer):
        lines.append(drawn)
    seats = []
    for p in range(1, s.n + 1):
        hand = s.hands[p]
        shown = hand_seen(s, p, viewer)
        seats.append({"seat": p, "chips": s.totals[p], "chips_label": "score",
                      "status": _status(s, p).plain,
                      "rows": [{"label": f"hand · {len(hand)}",
                                "cards": [tok(c) for c in hand] if shown
                                else ["??"] * len(hand)}]})
    return {"title": f"{_where(s)} · target {s.rules.target} ({s.rules.scoring})",
            "pot": None, "centre": centre, "seats": seats, "lines": lines}
