"""The error classes: each becomes one clear line at the command line, never a traceback."""

from __future__ import annotations


class KabuError(Exception):
    """Base of every error kabucli reports to a person."""


class ParseError(KabuError):
    """Typed input that does not parse (a mistyped move, card, seed or option)."""


class IllegalMove(KabuError):
    """Input that parses but is not legal in the current state."""


class RuleError(KabuError):
    """An unknown house rule or a value it cannot take."""


class LogError(KabuError):
    """A log that cannot be read: missing, truncated, corrupted or of an unknown format."""

    def __init__(self, message: str, index: int | None = None, good: int | None = None) -> None:
        self.index = index
        self.good = good
        where = f"event {index}: " if index is not None and index > 0 else ""
        where = "header: " if index == 0 else where
        super().__init__(f"{where}{message}")


class BotError(KabuError):
    """A bot that crashed, timed out or answered with something that is not a legal move.
    The message quotes the bot, so it is made safe to show (see :mod:`kabucli.safetext`)."""

    def __init__(self, message: str) -> None:
        from kabucli.safetext import safe_text

        super().__init__(safe_text(message))
