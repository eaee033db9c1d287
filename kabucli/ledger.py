"""Chips: balances, the pot and payments, shared by the games with stakes."""

from __future__ import annotations

from typing import Any, Final

from kabucli.events import Pay

POT: Final = 0


def party_name(party: int) -> str:
    return "pot" if party == POT else f"p{party}"


class Ledger:
    """Balances of the pot (party 0) and seats 1..N. Payments move chips; the total never
    changes."""

    __slots__ = ("balances",)

    def __init__(self, seats: int, chips: int) -> None:
        self.balances = [0] + [chips] * seats

    @property
    def pot(self) -> int:
        return self.balances[POT]

    def seat(self, seat: int) -> int:
        return self.balances[seat]

    def apply(self, pay: Pay) -> None:
        self.balances[pay.src] -= pay.amount
        self.balances[pay.dst] += pay.amount

    def total(self) -> int:
        return sum(self.balances)

    def by_seat(self) -> dict[str, int]:
        """Each seat's balance by its name ``pN``."""
        return {f"p{p}": b for p, b in enumerate(self.balances[1:], 1)}

    def standings(self) -> dict[str, Any]:
        """The ledger's part of a match outcome: balances by seat, the pot, and the seats
        with the highest balance (``leaders``)."""
        bal = self.by_seat()
        top = max(bal.values())
        return {"balances": bal, "pot": self.pot,
                "leaders": [p for p, b in bal.items() if b == top]}
