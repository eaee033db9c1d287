"""The words of ``kabucli replay LOG --step`` (the pager of :mod:`kabucli.pager`): its status
line, its help and its messages. Functions here return text, they never print."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from kabucli.safetext import safe_text

KEYS = "n/→ next · b/← back · g N · ] [ round · /text · h · q"

HELP_INTRO = "keys (at a terminal they act at once; otherwise type one command a line):"
HELP_KEYS = (
    ("n, Enter, space, Right, Down", "next event"),
    ("b, Left, Up", "previous event"),
    ("g N", "go to event N (0: before the first event)"),
    ("]  [", "next / previous round (where a deal or hand starts)"),
    ("/text", "search forward for an event that says text"),
    ("/", "search again for the same text"),
    ("?text", "search backward"),
    ("N", "search again, backward"),
    ("h, ?", "this help"),
    ("q, Ctrl-D", "quit"),
)
HELP = "\n".join([HELP_INTRO, *(f"  {keys:<30} {what}" for keys, what in HELP_KEYS)])


def help_grid() -> RenderableType:
    """:data:`HELP` for a console to draw: each key's words wrap under their own column in a
    narrow terminal (printed as one string, they were cut mid-word at the edge)."""
    from kabucli.render.fit import indented_pairs

    return Group(Text(HELP_INTRO), indented_pairs(HELP_KEYS))


SHOWN_TEXT = 40  # the most characters of a typed line quoted back in a message


def quoted(text: str) -> str:
    """A typed line as a message shows it: escapes for control characters, cut when long."""
    return repr(safe_text(text, SHOWN_TEXT))


def before_first() -> str:
    return "   0 (before the first event)"


def status(pos: int, last: int, total: int, label: str | None) -> str:
    """The status line: where the pager is, where the match is, and the keys."""
    where = f"event {pos} of {total}" if last == total else (
        f"event {pos} of {total} (shown up to {last})")
    return " · ".join(part for part in (where, label, KEYS) if part)


def fitted(status: str, width: int, end: str = " > ") -> str:
    """The status line and ``end`` (the prompt's) in lines of at most ``width`` cells, broken
    between its parts: a terminal wraps a long line wherever it reaches the edge, so at 60
    columns "] [ r" ended one row and "ound · /text" began the next. A part wider than
    ``width`` keeps a line to itself."""
    from rich.text import Text

    from kabucli.render.fit import Parts

    parts = status.split(" · ")
    parts[-1] += end
    return "\n".join(line.plain for line in Parts([Text(p) for p in parts], " · ").lines(width))


def stop_note(index: int, what: str, when: str | None = None) -> str:
    """Under the last event that may be shown, when the next breaks a rule: ``what`` is
    that event and why (:func:`kabucli.render.broken_rule`), ``when`` when it was entered
    (a timed log's, as the replay's lines give it)."""
    entered = f", entered {when}" if when is not None else ""
    return f"next, event {index}{entered}: {what} (the replay stops here)"


def unfinished_note(error: str) -> str:
    """Under the last event of a log cut short (or otherwise unreadable after it)."""
    return f"the log ends here: {safe_text(error)}"


def at_end(last: int, total: int) -> str:
    if last < total:
        return f"event {last} is the last that can be shown (event {last + 1} breaks a rule)"
    return f"event {last} is the last event"


def at_start() -> str:
    return "already before the first event"


def out_of_range(n: int, last: int, total: int) -> str:
    if last < total and last < n <= total:
        return (f"event {n} cannot be shown: event {last + 1} breaks a rule "
                f"(events 0-{last} can)")
    return f"no event {n}: the log has events 0-{total} (0 is before the first)"


def not_a_number(text: str) -> str:
    if not text.strip():  # (g alone)
        return "g takes an event number, e.g. 'g 12'"
    return f"g takes an event number, e.g. 'g 12', not {quoted(text)}"


def no_round(forward: bool) -> str:
    return "no round starts after this event" if forward else (
        "no round starts before this event")


def no_search() -> str:
    return "nothing to search for yet: type /text"


def not_found(text: str, forward: bool) -> str:
    way = "after" if forward else "before"
    return f"no event {way} this one says {quoted(text)}"


def unknown(line: str) -> str:
    return f"unknown command {quoted(line)}: type h for help"


def too_long(limit: int) -> str:
    return f"a command is at most {limit} characters: that line was ignored"
