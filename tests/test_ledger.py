"""The shared ledger (kabucli.ledger): balances, the pot, payments and the standings."""

from __future__ import annotations

from kabucli.events import Pay
from kabucli.ledger import POT, Ledger


def test_a_payment_moves_chips_from_the_payer_to_the_payee_and_the_total_never_changes(
) -> None:
    ledger = Ledger(3, 10)
    ledger.apply(Pay(2, POT, 4, "bet"))
    ledger.apply(Pay(POT, 3, 1, "win"))
    assert ledger.balances == [3, 10, 6, 11]
    assert ledger.pot == 3 and ledger.seat(2) == 6 and ledger.total() == 30


def test_the_leaders_are_the_seats_with_the_highest_balance_only() -> None:
    ledger = Ledger(4, 10)
    ledger.apply(Pay(2, 1, 1, "win"))
    ledger.apply(Pay(4, 3, 1, "win"))
    standings = ledger.standings()
    assert standings["balances"] == {"p1": 11, "p2": 9, "p3": 11, "p4": 9}
    assert standings["leaders"] == ["p1", "p3"]
    ledger.apply(Pay(3, 2, 1, "win"))  # p1 11, p2 10, p3 10: one chip behind is not a leader
    assert ledger.standings()["leaders"] == ["p1"]
