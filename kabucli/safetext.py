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
    shown = text if text.isprintable() else "".join(
        ch if ch.isprintable() or unicodedata.category(ch) == "Zs" else repr(ch)[1:-1]
        for ch in text)
    if limit is not None and len(shown) > limit:
        return f"{shown[:limit]}… ({len(text)} characters)"
    return shown


QUOTED = 40  # the most characters of a typed word or line that a message quotes


def quoted(text: str, limit: int = QUOTED) -> str:
    """``text`` (typed at the prompt, sent by a bot, read from a log) as a message quotes it:
    in single quotes, safe to show (:func:`safe_text`) and cut to ``limit`` characters, so a
    refusal of a long line stays one short line."""
    return f"'{safe_text(text, limit)}'"
