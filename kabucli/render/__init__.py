"""Rich renderables for states, steps and outcomes. Functions here return, they never print.

Cards are drawn as small boxes. Each game's package has a ``render.py`` with a
``table(game, match, viewer)`` function that draws its table; it may also have ``describe``
(an event in words), ``MILESTONES`` (event tags after which the whole table is drawn) and
``outcome`` (the result drawn), and for ``replay --step`` ``ROUND_START`` (event tags that
start a round), ``round_start(event, match)`` (a finer test of those) and ``round_label(match)``
(where the match is, e.g. ``round 2/3``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from rich.cells import cell_len
from rich.console import (
    Console,
    ConsoleOptions,
    Group,
    JustifyMethod,
    OverflowMethod,
    RenderableType,
    RenderResult,
)
from rich.containers import Lines
from rich.measure import Measurement
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from kabucli import games
from kabucli.engine import ACTION_SHOWN, Game, Match, Violation, seen_header
from kabucli.events import Event, Forfeit, Undo
from kabucli.figures import signed
from kabucli.render.fit import Steady
from kabucli.safetext import NAME_SHOWN, safe_text, shown_name


def _module(game: Game) -> ModuleType:
    """The game's render module (its package's ``render.py``)."""
    return games.part(game.name, "render")


KIND_STYLE = {"chance": "cyan", "action": "bold", "auto": "green", "meta": "magenta"}


def card_style(token: str) -> str:
    if token == "??":
        return "dim"
    return "bold black on white"


def cards_inline(tokens: list[str], style: str | None = None, sep: str = " ") -> Text:
    """Cards in a line, each token drawn as a small card face."""
    out = Text(no_wrap=True)
    for i, tok in enumerate(tokens):
        if i:
            out.append(sep)
        out.append(tok, style=style or card_style(tok))
    return out


class CardBoxes:
    """Cards drawn as three-line boxes side by side, as many to a row as the width holds: a
    Text of the boxes wrapped where the width ended, mid-box (Kazu-Tori's table of 14 cards
    at 80 columns, a box's top on one line and its end on the next)."""

    breaks_between = True  # (a panel wraps it rather than widen: see render.fit._unwrapped)

    def __init__(self, tokens: list[str], style: str | None = None) -> None:
        self.tokens = tokens
        self.style = style
        self.width = max(2, *(len(t) for t in tokens)) if tokens else 2

    def rows(self, per_row: int, ascii_only: bool = False) -> Text:
        """The boxes, ``per_row`` to a row (at least one); ``ascii_only``: framed in ASCII
        ('+--+', '|'), for an output that cannot write box drawing, as rich's own tables."""
        per_row = max(1, per_row)
        top_edge, bottom_edge, side, line = ("++", "++", "|", "-") if ascii_only else (
            "╭╮", "╰╯", "│", "─")
        out: list[Text] = []
        for start in range(0, len(self.tokens), per_row):
            top, mid, bot = Text(), Text(), Text()
            for tok in self.tokens[start:start + per_row]:
                edge = "dim" if tok == "??" else ""
                top.append(top_edge[0] + line * self.width + top_edge[1], style=edge)
                mid.append(side, style=edge)
                mid.append(f"{tok:>{self.width}}",
                           style=self.style or ("dim" if tok == "??" else "bold"))
                mid.append(side, style=edge)
                bot.append(bottom_edge[0] + line * self.width + bottom_edge[1], style=edge)
            out += [top, mid, bot]
        return Text("\n").join(out)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.rows(options.max_width // (self.width + 2),
                        not options.encoding.lower().startswith("utf"))

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        box = self.width + 2
        return Measurement(box, box * len(self.tokens)).clamp(max_width=options.max_width)


def cards_box(tokens: list[str], style: str | None = None) -> RenderableType:
    """Cards drawn as three-line boxes side by side, in rows that fit (:class:`CardBoxes`)."""
    if not tokens:
        return Text("(none)", style="dim")
    return CardBoxes(tokens, style)


def race_time(match: Match, seat: int, draw: int, ms: Callable[[Any, int], int]) -> str:
    """A seat's part of a race's line: the reaction time its ``draw`` gives its bot by the
    bot's profile (``ms(profile, draw)``; a program's, ``cmd:``, the default one), or the draw
    itself for a person or a ``py:`` class, whose profile the log does not hold."""
    from kabucli.bots import kinds

    control = match.header.seats[seat - 1].control
    factory = kinds(match.game.name).get(control[4:]) if control.startswith("bot:") else None
    if factory is None and not control.startswith("bot:cmd:"):
        return f"p{seat} draw {draw}"
    return f"p{seat} {ms(factory, draw)} ms"


def seat_label(match: Match, seat: int) -> str:
    """``pN NAME`` as plain text (names are never read as markup, and control characters in
    a name from a log show as escapes)."""
    name = shown_name(match.seat_name(seat))
    return f"p{seat}" if name == f"p{seat}" else f"p{seat} {name}"


def rule_value(value: Any) -> str:
    """A house rule's value as it is typed after ``--rule`` and written in the rules pages:
    ``true``/``false`` (not Python's ``True``), a list by how many entries it holds, an empty
    one as ``none``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return f"{len(value)} entries" if value else "none"
    return str(value)


def rules_line(rules: dict[str, Any]) -> str:
    """A log's house rules in one line, ``name=value, ...`` (see :func:`rule_value`)."""
    return ", ".join(f"{k}={rule_value(v)}" for k, v in rules.items())


def round_of(phase: str, number: int) -> tuple[int, bool]:
    """The round (or hand) a table belongs to, and whether it is over, from the state's phase
    and the number of its round: once a round's last event (its result, payout or score) is
    in, the state waits for the next round's deal (``phase`` "deal", ``number`` the next
    round's), yet the event just recorded, and what is on the table, are the round just
    played."""
    if phase == "deal" and number > 1:
        return number - 1, True
    return number, False


_SEAT = re.compile(r"\bp([1-9][0-9]*)\b")
_SEAT_RANGE = re.compile(r"\bp[1-9][0-9]*-p[1-9][0-9]*\b")
# a quoted piece of notation ('p3 flip 7'): a quote after no letter or digit, to the next quote
# before none (so the apostrophe of "p1's turn" starts no quote)
_QUOTED = re.compile(r"(?<![\w'])'[^'\n]*'(?![\w])")


def seats_named(match: Match, text: str) -> str:
    """``text`` (a prompt's words: ``p1 to lay sets matching 8``) with each seat it names
    written as the table writes it (``p1 Ann``), as plain text."""
    n = len(match.header.seats)
    return _SEAT.sub(lambda m: seat_label(match, int(m[1])) if int(m[1]) <= n else m[0], text)


def refusal_named(match: Match, text: str, typed: str) -> str:
    """A refusal of the line ``typed`` with each seat it names written as the table writes it
    (``it is not p1 Ann's turn``), as plain text; what it quotes of the line stays as typed,
    and so does a range of seats (``p1-p3``) and whatever it quotes as notation to type
    (``use 'p3 flip 7'``: ``'p3 Ann flip 7'`` could not be typed back)."""
    from kabucli.safetext import quoted

    kept = sorted({quoted(typed), *(quoted(w) for w in typed.split()),
                   *_SEAT_RANGE.findall(text), *_QUOTED.findall(text)},
                  key=len, reverse=True)  # (seats p1-p3)
    held: list[str] = []
    for part in kept:
        if part in text:
            text = text.replace(part, f"\x00{len(held)}\x00")
            held.append(part)
    text = seats_named(match, text)
    for i, part in enumerate(held):
        text = text.replace(f"\x00{i}\x00", part)
    return text


def prompt_what(game: Game, match: Match, seats: Sequence[int] = ()) -> str:
    """What the play prompt says the game waits for: the pending's words, or where they are
    too long for the prompt's line, or say less to the people asked (``seats``: a move they
    may no longer make), the game's own (its text module's ``prompt_what``)."""
    pending = match.pending
    short = getattr(games.text(game.name), "prompt_what", None)
    if short is not None and pending.kind == "action":
        words = short(match.state, seats)
        if words:
            return str(words)
    return pending.what


def hint_now(game: Game, match: Match) -> str:
    """What a person at the play prompt may type now (the game's prompt hint for the seat to
    act, or the table's), with the seats it names written as the table writes them, but for
    the notation it quotes to type (``p2 Bob flips: 'p2 flip CARD'``); "" when over."""
    if match.pending.kind == "over":
        return ""
    seat = match.pending.seats[0] if match.pending.seats else 0
    return refusal_named(match, games.prompt_hint(game.name, match.state, seat), "")


def what_now(game: Game, match: Match, refusal: str) -> str:
    """After a refusal of a move that is not due now (``waiting for X, not for 'Y'``, and the
    refusals that say so in their own words: ``it is not p3's turn (waiting for p2: ...)``,
    ``nobody may bet now: waiting for ...``), what may be typed now, as the prompt's ``?``
    says it (``: type 'deal' once ...``); else nothing."""
    if "waiting for " not in refusal:
        return ""
    hint = hint_now(game, match)
    return f"; {hint}" if hint else ""


def seat_cell(match: Match, seat: int) -> Text:
    """The seat label as a table cell (a Text, so a name like ``[/]`` prints as typed)."""
    return Text(seat_label(match, seat))


def table(game: Game, match: Match, viewer: int | None = None) -> RenderableType:
    """The table as a person wants to see it now; with ``viewer`` set, only what that seat
    may see (other players' hidden cards are drawn face down)."""
    rendered: RenderableType = _module(game).table(game, match, viewer)
    return rendered


def time_of(times: list[int] | None, index: int) -> int | None:
    """When event ``index`` (1 for the first) was entered, in a timed log's ``times`` (ms
    since 1970); None in a log that records no time, and for an index it holds none of."""
    return times[index - 1] if times is not None and 0 < index <= len(times) else None


def clock_text(ms: int) -> str:
    """A time of a timed log (ms since 1970) as UTC ``HH:MM:SS.mmm``. Counted in whole
    milliseconds: ``ms / 1000`` as a float loses the last one for times after about 2100
    (a log may hold any up to the end of 9999)."""
    from datetime import UTC, datetime, timedelta

    at = datetime(1970, 1, 1, tzinfo=UTC) + timedelta(milliseconds=ms)
    return at.strftime("%H:%M:%S.%f")[:-3]


class Takebacks:
    """What each undo of a log took back, fed the log's events as a walk applies them
    (:func:`kabucli.engine.walk`'s ``on_step``): an undo cuts the events in effect at the last
    input (:meth:`Match._undo_point`), so it takes back that input and the events that
    followed it still in effect, each named by its number in the log."""

    def __init__(self) -> None:
        self.effect: list[tuple[int, Event]] = []  # the events in effect: (number, event)

    def step(self, index: int, event: Event, match: Match) -> list[tuple[int, Event]] | None:
        """Event ``index`` was applied (``match``: the match after it); for an undo, the
        events it took back (the input first), else None."""
        if type(event) is Undo:
            keep = len(match.events)
            taken = self.effect[keep:]
            del self.effect[keep:]
            return taken
        if type(event) is not Forfeit:
            self.effect.append((index, event))
        return None


def _spans(numbers: list[int]) -> str:
    """Event numbers in order as runs: ``6-9, 12``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] + 1 == n:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)


def takeback_words(game: Game, taken: list[tuple[int, Event]],
                   viewer: int | None = None) -> str:
    """An undo in words, with what it took back (see :class:`Takebacks`): the input by its
    event number and notation (hidden from a ``viewer`` it may not see), and the numbers of
    the events that followed it."""
    if not taken:
        return "undo"
    first, ev = taken[0]
    what = (f", hidden from p{viewer}" if viewer is not None and game.hidden_from(ev, viewer)
            else f": {game.notate(ev)}")
    text = f"undo (takes back event {first}{what}"
    rest = [n for n, _ in taken[1:]]
    if rest:
        text += f"; and event{'s' if len(rest) > 1 else ''} {_spans(rest)} after it"
    return text + ")"


def _padded(text: str, cells: int) -> str:
    """``text`` padded with spaces to ``cells`` terminal cells, as ``:<N`` pads characters: a
    name in wide characters (two cells a letter) or with combining marks (none) lines up."""
    return text + " " * (cells - cell_len(text))


def after_first_word(line: str) -> int:
    """Where a :class:`Hanging` line goes on when it is one of words: past its indent, its
    first word and the space after it; 0 (no hang) for a line of one word."""
    words = line.lstrip()
    space = words.find(" ")
    return len(line) - len(words) + space + 1 if space > 0 else 0


class Hanging(Text):
    """A numbered line whose words, when they do not fit on one line, go on under where they
    began (a hanging indent) rather than under the number: an event line (:func:`event_line`)
    wrapped at 80 columns broke its words, ``p4 31`` or ``ms``, to the first column."""

    __slots__ = ("hang",)

    def __init__(self, hang: int = 0, style: str = "") -> None:
        super().__init__(style=style)
        self.hang = hang  # how many characters come before the words

    def wrap(self, console: Console, width: int, *, justify: JustifyMethod | None = None,
             overflow: OverflowMethod | None = None, tab_size: int = 8,
             no_wrap: bool | None = None) -> Lines:
        lines = super().wrap(console, width, justify=justify, overflow=overflow,
                             tab_size=tab_size, no_wrap=no_wrap)
        hang = self.hang
        if len(lines) <= 1 or no_wrap or not 0 < hang < len(self):
            return lines
        head, words = self.divide([hang])
        cells = head.cell_len  # (a seat's name in wide characters takes two cells a letter)
        if cells > width // 2:
            return lines
        body = words.wrap(console, width - cells, justify=justify, overflow=overflow,
                          tab_size=tab_size)
        pad = Text(" " * cells)
        return Lines([head + body[0], *(pad + rest for rest in body[1:])])

    def __rich__(self) -> _HangingLines:
        # A Text given to Console.print is joined with the ones next to it into a new Text,
        # which would wrap as any text does: drawn through this, it keeps its indent.
        return _HangingLines(self)


class _HangingLines:
    """A :class:`Hanging` line as it is drawn (see its ``__rich__``)."""

    def __init__(self, line: Hanging) -> None:
        self.line = line

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = self.line
        lines = line.wrap(console, options.max_width, justify=line.justify or options.justify,
                          overflow=line.overflow or options.overflow,
                          tab_size=line.tab_size or console.tab_size,
                          no_wrap=line.no_wrap or options.no_wrap)
        yield from Text("\n").join(lines).render(console, end=line.end)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, Text.assemble(self.line))


def event_line(game: Game, index: int, event: Event, match: Match | None = None,
               viewer: int | None = None, at: int | None = None,
               taken: list[tuple[int, Event]] | None = None) -> Text:
    """One numbered line for an event: index, actor, and what happened in words (an undo
    with ``taken``, what it took back: see :class:`Takebacks`).

    A game's render module may define ``describe(game, event, match) -> str`` for a reader's
    wording of an event (the match is the state *after* the event); the notation is the
    fallback, except for an event hidden from a ``viewer`` (:meth:`Game.hidden_from`: a
    chance event, which may carry hidden cards, but the game's ``public_chance``, or another
    seat's secret move)."""
    line = Hanging()
    line.append(f"{index:>4} ", style="dim")
    if at is not None:  # when it was entered (a timed log), UTC to the millisecond
        line.append(clock_text(at) + " ", style="dim")
    style = KIND_STYLE.get(event.KIND, "")
    line.append(f"{_padded(event_actor(game, event, match), 12)} ", style=style)
    line.hang = len(line)
    line.append(event_words(game, event, match, viewer, taken), style=style)
    return line


def event_actor(game: Game, event: Event, match: Match | None = None) -> str:
    """Who an event is by: a seat's label (``p2 Ann``), ``table`` or ``engine``."""
    actor = game.actor(event)
    return actor if match is None else actor_label(match, actor)


def actor_label(match: Match, actor: str) -> str:
    """An actor as the table names it: ``pN``, a seat of ``match``, by its label (``p2
    Ann``); anything else (``table``, ``engine``, a seat the match lacks) as it is."""
    if actor.startswith("p") and actor[1:].isdigit() and 0 < int(actor[1:]) <= match.nseats:
        return seat_label(match, int(actor[1:]))
    return actor


def event_words(game: Game, event: Event, match: Match | None = None,
                viewer: int | None = None,
                taken: list[tuple[int, Event]] | None = None) -> str:
    """What an event did, in words (see :func:`event_line`), safe to show."""
    text = None
    if taken is not None and type(event) is Undo:
        return safe_text(takeback_words(game, taken, viewer))
    if match is not None:
        describe = getattr(_module(game), "describe", None)
        if describe is not None:
            text = describe(game, event, match)
    if text is None and viewer is not None and game.hidden_from(event, viewer):
        text = (f"(a chance event, hidden from p{viewer})" if event.KIND == "chance"
                else f"(a move of {game.actor(event)}, hidden from p{viewer})")
    # a log's events may carry text of their own (a payment's reason)
    return safe_text(text or game.notate(event))


def is_milestone(game: Game, event: Event) -> bool:
    """Whether a reader wants the whole table drawn after this event (a game's render
    module may say with ``MILESTONES``, a set of event tags; default: deals and results)."""
    tags = getattr(_module(game), "MILESTONES", None)
    tag = type(event).__struct_config__.tag
    return tag in (tags if tags is not None else {"deal", "result"})


def header_panel(game: Game, match: Match, viewer: int | None = None) -> RenderableType:
    """The log's header; as the player in seat ``viewer`` may see it (None: all of it), the
    seed left out (:meth:`Game.header_hidden_from`: it gives away every card)."""
    h, hidden = seen_header(game, match.header, viewer)
    t = Table.grid(padding=(0, 2))
    t.add_column(style="dim")
    t.add_column()
    # Every field but the game comes from the log as written: shown as text, never as markup.
    t.add_row("game", Text(f"{game.title} ({h.mode})"))
    if "seed" in hidden:
        t.add_row("seed", Text(f"hidden from p{viewer} (it gives away every card)"))
    elif h.seed is not None:
        t.add_row("seed", Text(safe_text(f"{h.seed} ({h.shuffle})")))
    if h.commit is not None:  # the seed's commitment, printed before the deal: every view
        t.add_row("commit", Text(safe_text(h.commit)))
    # a seat named as its label (a real table's seats: "p1") is not named twice
    seats = ", ".join(f"p{i}{'' if s.name == f'p{i}' else ' ' + shown_name(s.name)} "
                      f"({safe_text(s.control, NAME_SHOWN)})" for i, s in enumerate(h.seats, 1))
    t.add_row("seats", Text(seats))
    t.add_row("rules", Text(safe_text(rules_line(h.rules))))
    t.add_row("started", Text(safe_text(f"{h.started} (kabucli {h.kabucli})")))
    return Steady(Panel(t, title="kabucli log", expand=False))


def outcome_panel(game: Game, match: Match) -> RenderableType:
    out = match.outcome()
    if out is None and match.forfeit is not None:
        return Text(f"p{match.forfeit.seat} forfeited the match: "
                    f"{safe_text(match.forfeit.reason)}", style="yellow")
    if out is None:
        return Text("The match is not over.", style="yellow")
    outcome = getattr(_module(game), "outcome", None)
    if outcome is not None:
        rendered: RenderableType = outcome(game, match, out)
        return rendered
    return Panel(Pretty(out), title="result")


def balances_table(match: Match, balances: dict[str, Any], title: str = "chips") -> Table:
    t = Table(title=title, title_justify="left")
    t.add_column("seat")
    t.add_column("chips", justify="right")
    start = match.header.rules.get("chips")
    if isinstance(start, int):
        t.add_column("+/-", justify="right")
    top = max(balances.values()) if balances else 0
    for key, bal in balances.items():
        seat = int(key[1:])
        style = "bold green" if bal == top else ""
        row: list[str | Text] = [seat_cell(match, seat), str(bal)]
        if isinstance(start, int):
            diff = bal - start
            row.append(Text(signed(diff), style="green" if diff > 0 else "red" if diff < 0 else ""))
        t.add_row(*row, style=style)
    return t


def most_chips(match: Match, out: dict[str, Any]) -> Text:
    """Who ends a match with the most chips, in words (``most chips: p2 Bob (53)``; a tie
    ``tied for the most chips (51 each): p2 Bob, p3 Cid``): the final table marks them only
    in color, which plain output (a pipe, NO_COLOR) does not show."""
    leaders: list[str] = out.get("leaders") or []
    if not leaders:
        return Text("")
    names = [seat_label(match, int(w[1:])) for w in leaders]
    top = out["balances"][leaders[0]]
    if len(names) == 1:
        return Text(f"most chips: {names[0]} ({top})", style="bold green")
    return Text(f"tied for the most chips ({top} each): {', '.join(names)}", style="bold green")


# The rows a match's result table (a row per round, hand row or game) shows at each end: a
# long match (Dare rounds=10000, Kabu-Tsukuri hands=10000: 30,000 rows) printed every one at
# its end, after play --quiet and replay, in each frame of the pager's last event and in the
# web page, where nobody reads them and rich took seconds to lay them out. --json keeps all.
RESULT_ROWS_SHOWN = 20


def result_rows(table: Table, items: list[Any], add: Callable[[Table, Any], None], what: str,
                column: int = -1) -> Table:
    """Add ``items`` to ``table`` by ``add(table, item)``: every one when there are at most
    twice :data:`RESULT_ROWS_SHOWN` and one (a single row left out would be one row swapped
    for another as tall, and "1 more rounds"), else that many at each end and one dim row
    between that says, in ``column``, how many ``what`` (``rounds``, ``rows``) are left out,
    two or more."""
    each = RESULT_ROWS_SHOWN
    if len(items) <= 2 * each + 1:
        for item in items:
            add(table, item)
        return table
    for item in items[:each]:
        add(table, item)
    left = len(items) - 2 * each
    cells = ["…"] * len(table.columns)
    cells[column] = f"{left:,} more {what} (--json has all)"
    table.add_row(*cells, style="dim")
    for item in items[-each:]:
        add(table, item)
    return table


def final_standings(match: Match, out: dict[str, Any]) -> list[RenderableType]:
    """The end of a match with chips (Dare, Yatchaba, Kabu-Tsukuri): the final chips, who has
    the most, and the chips left in the pot when some are."""
    parts: list[RenderableType] = [balances_table(match, out["balances"], title="final chips"),
                                   most_chips(match, out)]
    if out["pot"]:
        parts.append(Text(f"pot left: {out['pot']}", style="dim"))
    return parts


def group(*items: RenderableType) -> Group:
    return Group(*items)


def round_tags(game: Game) -> frozenset[str]:
    """The event tags that may start a round (a deal, a hand) for ``replay --step``'s ``]``
    and ``[``: a game's render module says with ``ROUND_START``; default: deals."""
    return frozenset(getattr(_module(game), "ROUND_START", None) or {"deal"})


def is_round_start(game: Game, event: Event, match: Match,
                   tags: frozenset[str] | None = None) -> bool:
    """Whether ``event`` starts a round (``match``: the state after it): its tag is in
    :func:`round_tags` (``tags``: them, found once for many events) and, when the game's
    render module has ``round_start(event, match)``, that says so too."""
    if type(event).__struct_config__.tag not in (round_tags(game) if tags is None else tags):
        return False
    check = getattr(_module(game), "round_start", None)
    return True if check is None else bool(check(event, match))


def round_label(game: Game, match: Match) -> str | None:
    """Where the match is in words (``round 2/3``), when the game's render module says with
    ``round_label(match)``."""
    label = getattr(_module(game), "round_label", None)
    return None if label is None else str(label(match))


def seen_violation(game: Game, violation: Violation | None, events: list[Event],
                   viewer: int | None) -> Violation | None:
    """The broken rule as the seat ``viewer`` may read it. The reason may name cards hidden
    from that seat (another seat's hand that does not hold the set laid, what the seed deals
    here), so only the seat's own moves keep theirs; and when the event itself is hidden
    from the seat (:meth:`Game.hidden_from`: a deal, another seat's arrangement), its
    notation goes too. The whole replay says everything."""
    if viewer is None or violation is None or violation.actor == f"p{viewer}":
        return violation
    hidden = (0 < violation.index <= len(events)
              and game.hidden_from(events[violation.index - 1], viewer))
    return Violation(violation.index, violation.actor,
                     "hidden" if hidden else violation.action,
                     f"{_HIDDEN_WHY}what it holds is hidden from p{viewer})" if hidden
                     else f"{_HIDDEN_WHY}why is hidden from p{viewer}: it may name cards "
                     f"p{viewer} does not see)")


# how seen_violation starts the reason it gives a seat in place of one hidden from it;
# broken_rule reads the words in its parentheses back
_HIDDEN_WHY = "it breaks a rule ("


def broken_rule(violation: Violation) -> str:
    """The event that breaks a rule and why, as a replay's last words (the violation as
    :func:`seen_violation` gives it: its action may be ``hidden``, its reason the hidden
    one's), safe to show."""
    what, reason = violation.action, violation.reason
    if what == "hidden":
        what = "an event hidden from this seat"
    what = safe_text(what, ACTION_SHOWN)  # a log's event may be megabytes long: in part
    if reason.startswith(_HIDDEN_WHY) and reason.endswith(")"):  # (see seen_violation)
        return safe_text(f"{what} breaks a rule ({reason[len(_HIDDEN_WHY):]}")
    return safe_text(f"{what} breaks a rule: {reason}")


def violation_line(game: Game, violation: Violation, match: Match,
                   at: int | None = None) -> Text:
    """The numbered line of the event that breaks a rule (``match``: the match before it),
    as :func:`event_line` draws an event: its number, when it was entered (``at``, a timed
    log's), who, what and why, in red."""
    line = Hanging(style="bold red")
    line.append(f"{violation.index:>4} ")
    if at is not None:
        line.append(clock_text(at) + " ")
    line.append(f"{_padded(actor_label(match, violation.actor), 12)} ")
    line.hang = len(line)
    line.append(broken_rule(violation))
    return line


def waiting_for(game: Game, match: Match) -> str | None:
    """What the table waits for after the match's last event (``p3 to lay sets matching
    3``); None once the match is over."""
    return None if match.over else game.pending(match.state).what


def torn_words(log: str) -> str:
    """What ``audit`` and ``replay`` add to the error of a log whose last record is cut short
    (a torn tail, as a crash while writing leaves it, not damage): how to go on with it."""
    from kabucli.safetext import shell_path

    return ("its last record is cut short, as a crash while writing leaves it: kabucli resume "
            f"{safe_text(shell_path(log))} sets that record aside and goes on")


def torn_tail(data: Any, log: str) -> str:
    """What follows the error of a log read in part (``data``, a kabucli.log.LogData) where
    it is a torn tail: how to go on (:func:`torn_words`, after '; '); else ''."""
    return f"; {torn_words(log)}" if data.torn else ""


def unreadable_shown(data: Any, log: str) -> str:
    """The error a replay of a log it could read only in part ends with, in text and on the
    page: where it stopped, and for a torn tail how to go on."""
    return f"{data.error} (shown up to event {len(data.events)}){torn_tail(data, log)}"


def unfinished_line(game: Game, match: Match, log: str) -> Text:
    """The last line of a replay whose log ends before its game does (a game quit, or a
    laptop that went down, to be resumed): what the table waits for, and how to go on (the
    bots of the user's own it names given again, as resume asks)."""
    from kabucli.safetext import shell_path
    from kabucli.session import own_bots_again, recorded_bots

    what = waiting_for(game, match)
    again = own_bots_again(recorded_bots(match.header.seats))  # (resume asks them again)
    return Text(f"the log ends here, before the game does (waiting for {what}); go on with: "
                f"kabucli resume {safe_text(shell_path(log))}{' ' * bool(again)}{again}",
                style="yellow")


def state_heading(shown: int, total: int, broken: int | None = None) -> str:
    """``replay --at``'s words over the table: the event it is drawn after, and when an
    earlier event (``broken``) breaks a rule, that the replay stopped before it."""
    if broken is None:
        return f"state after event {shown} of {total}:"
    return (f"state after event {shown} of {total} (event {broken} breaks a rule: nothing "
            "after it is shown):")

