"""Chips: balances, the pot and payments, shared by the games with stakes."""

from __future__ import annotations

from kabucli.events import Pay

POT = 0


def party_name(party: int) -> str:
    return "pot" if party == POT else f"p{party}"


class Ledger:
    """Balances of the pot (party 0) and seats 1..N. Payments move chips; the total never
    changes."""

    __slots__ = ("balances",)

    def __init__(self, seats: int, chips: int) -> None:
        self.balances = [0] + [chips] * seats

    def copy(self) -> Ledger:
        new = Ledger.__new__(Ledger)
        new.balances = list(self.balances)
        return new

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
