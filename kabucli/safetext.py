"""Text from outside (a log, a bot, a typed line) made safe to show on a terminal.

Control characters (C0, C1, so also ESC and every escape sequence it starts), format
characters (bidi overrides such as U+202E, zero-width characters), line separators,
surrogates and unassigned code points are shown as Python escapes (``\\x1b``, ``\\u202e``)
rather than sent to the terminal, so what was there still shows. Spaces of every kind and all
other printable text (Japanese included) pass unchanged.
"""

from __future__ import annotations

import unicodedata


def safe_text(text: str, limit: int | None = None) -> str:
    """``text`` with every character a terminal could act on shown as an escape; with
    ``limit``, cut to that many characters and ended with how long ``text`` was."""
    # only what can be shown is looked at (a name in a log may be megabytes long)
    head = text if limit is None else text[:limit + 1]
    shown = head if head.isprintable() else "".join(
        ch if ch.isprintable() or unicodedata.category(ch) == "Zs" else repr(ch)[1:-1]
        for ch in head)
    if limit is not None and len(shown) > limit:
        return f"{shown[:limit]}… ({len(text)} characters)"
    return shown


QUOTED = 40  # the most characters of a typed word or line that a message quotes


def short_number(number: int) -> str:
    """A whole number typed on the command line as a message shows it: whole up to 20
    digits, else its first 20 and how many it has (``--players`` with 4,000 nines made a
    refusal of 4,000 characters)."""
    digits = str(abs(number))
    if len(digits) <= 20:
        return str(number)
    return f"{'-' if number < 0 else ''}{digits[:20]}… ({len(digits)} digits)"


def quoted(text: str, limit: int = QUOTED) -> str:
    """``text`` (typed at the prompt, sent by a bot, read from a log) as a message quotes it:
    in single quotes, safe to show (:func:`safe_text`) and cut to ``limit`` characters, so a
    refusal of a long line stays one short line."""
    return f"'{safe_text(text, limit)}'"


NAME_SHOWN = 200  # the most characters of a seat's name shown (a log may hold any length)


def shown_name(name: str) -> str:
    """A seat's name (from a log, typed, or a bot's kind) as output shows it: safe to show
    and cut to :data:`NAME_SHOWN` characters, so that a log whose name is megabytes long
    cannot make each line, table and page that names the seat megabytes long."""
    return safe_text(name, NAME_SHOWN)


def shell_path(path: str) -> str:
    """A file's path as a command we suggest names it, to be typed or pasted into a shell:
    quoted for the shell, and a relative one that starts with '-' (a log named '-half.kbl')
    as './-half.kbl', which the command would read as options otherwise."""
    import shlex

    return shlex.quote(f"./{path}" if path.startswith("-") else path)
