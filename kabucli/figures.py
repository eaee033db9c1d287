"""Figures as a person reads them in a table: a change with its sign but a zero without one
(``+0``, ``+0.00`` or ``-0.0`` read as something happened), and a column of counts that may
be fractional (a shared win counts as a part of one) to one precision (``:g`` printed
``1492.17`` over ``52.1667``)."""

from __future__ import annotations

from collections.abc import Iterable


def counted(n: int, one: str, many: str) -> str:
    """``n`` things as a sentence says them: ``1 chip``, ``2 chips`` (never ``chip(s)``)."""
    return f"{n} {one if n == 1 else many}"


def signed(value: float, decimals: int = 0) -> str:
    """``value`` to ``decimals`` places with its sign, ``+3``, ``-2.50``; a value that shows
    as zero has none: ``0``, ``0.00``."""
    text = plain(value, decimals)
    return text if text.startswith("-") or float(text) == 0 else f"+{text}"


def plain(value: float, decimals: int = 0) -> str:
    """``value`` to ``decimals`` places, a minus only where it shows: ``-2.50``, ``2.50``; a
    value that shows as zero has no sign: ``0.00``, not ``-0.00``."""
    text = f"{value:.{decimals}f}"
    return text.lstrip("-") if float(text) == 0 else text


def shares(values: Iterable[float]) -> list[str]:
    """Counts that may be fractional, all shown alike: whole numbers as they are when every
    one is whole, else each to one decimal place."""
    values = list(values)
    if all(float(v).is_integer() for v in values):
        return [str(int(v)) for v in values]
    return [f"{v:.1f}" for v in values]


def elo_pm(elo: float, error: float | None) -> str:
    """A bot's Elo and the half-width of its 95% interval, ``+164 ± 159``, to the point (the
    pairs' Elo differences are whole too: ``+388.1 ± 138.3`` stood over ``-243 ± 104.2``)."""
    return signed(elo) + ("" if error is None else f" ± {error:.0f}")
