"""The recorded Kabu-Tsukuri games (replays/kabu-tsukuri/): each shows what its name says,
read from its events, and tampered copies made at test time are rejected by ``kabucli audit``
with exit 1 at the first event that breaks a rule, and why. (Every file is also audited,
replayed and snapshotted by tests/test_replays.py.)"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from tampering import (
    Tampered,
    audit_rejects_copy,
    first,
    removed,
    replaced,
    sources,
    untampered_copies_audit_valid,
)

from kabucli.events import End, Event, Undo
from kabucli.games import event_types
from kabucli.games.kabu_tsukuri.rules import (
    Arrange,
    Bet,
    Deal,
    Result,
    Show,
    Stakes,
    Turn,
    strength,
)
from kabucli.log import LogData, read_log

FOLDER = Path(__file__).resolve().parent.parent / "replays" / "kabu-tsukuri"
FIVE = "5p-nine-cards-each.kbl"
ROW_TIE = "3p-tie-carried-to-the-next-row.kbl"
HAND_TIE = "4p-row-3-tie-carried-into-the-next-hand.kbl"
EXTENDED = "4p-extended-named-row-beats-a-higher-digit.kbl"
KABU = "3p-ranking-kabu.jsonl"
WINNER = "3p-dealer-winner.kbl"
PHYSICAL = "3p-physical-match.kbl"


def load(name: str) -> LogData:
    return read_log(FOLDER / name, event_types)


def results(data: LogData) -> list[Result]:
    return [e for e in data.events if isinstance(e, Result)]


# -- each recorded game shows what its name says --------------------------------------------

def test_five_players_are_dealt_nine_cards_and_set_none_aside() -> None:
    data = load(FIVE)
    assert len(data.header.seats) == 5
    for ev in data.events:
        if isinstance(ev, Deal):
            assert ev.hands is not None and [len(h) for h in ev.hands] == [9] * 5
        if isinstance(ev, Arrange):
            assert ev.aside == []


def test_a_row_tie_carries_the_pot_to_the_next_row() -> None:
    rs = results(load(ROW_TIE))
    i = next(i for i, r in enumerate(rs) if len(r.best) > 1 and r.row < 3)
    assert rs[i + 1].row == rs[i].row + 1 and rs[i + 1].amount == rs[i].amount + 3


def test_a_row_3_tie_carries_the_pot_into_the_next_hand() -> None:
    rs = results(load(HAND_TIE))
    i = next(i for i, r in enumerate(rs) if len(r.best) > 1 and r.row == 3)
    nxt = rs[i + 1]
    assert (nxt.hand, nxt.row) == (rs[i].hand + 1, 1)
    assert nxt.amount >= rs[i].amount + 4


@pytest.mark.parametrize(("name", "ranking", "other"), [(EXTENDED, "extended", "kabu"),
                                                         (KABU, "kabu", "extended")])
def test_each_ranking_decides_a_row_the_other_would_not(name: str, ranking: str,
                                                        other: str) -> None:
    data = load(name)
    assert data.header.rules["ranking"] == ranking
    turns = [e for e in data.events if isinstance(e, Turn)]
    found = False
    for turn, res in zip(turns, results(data), strict=True):
        if len(res.best) == 1:
            win = turn.rows[res.best[0] - 1]
            found = found or any(strength(r, other) > strength(win, other) for r in turn.rows)
    assert found


def test_dealer_winner_gives_the_deal_to_row_3s_winner_and_keeps_it_on_a_tie() -> None:
    data = load(WINNER)
    deals = [e for e in data.events if isinstance(e, Deal)]
    threes = [r for r in results(data) if r.row == 3]
    for prev, r, nxt in zip(deals, threes, deals[1:], strict=False):
        assert nxt.dealer == (r.best[0] if len(r.best) == 1 else prev.dealer)


def test_the_other_recorded_games_rotate_the_deal() -> None:
    for name in (FIVE, ROW_TIE, HAND_TIE, EXTENDED, KABU):
        data = load(name)
        n = len(data.header.seats)
        dealers = [e.dealer for e in data.events if isinstance(e, Deal)]
        assert dealers == [(i % n) + 1 for i in range(len(dealers))]


def test_the_physical_game_learns_rows_one_by_one_with_bets_and_an_undo() -> None:
    data = load(PHYSICAL)
    assert data.header.mode == "physical"
    kinds = {type(e) for e in data.events}
    assert {Bet, Show, Undo, Result, End} <= kinds
    assert not kinds & {Arrange, Turn, Stakes}
    assert all(isinstance(e, Deal) and e.hands is None for e in data.events
               if isinstance(e, Deal))


def test_the_recorded_set_has_both_encodings_and_two_to_five_players() -> None:
    names = sorted(p.name for p in FOLDER.iterdir() if p.suffix in (".kbl", ".jsonl"))
    assert any(n.endswith(".jsonl") for n in names) and len(names) >= 6
    assert {len(load(n).header.seats) for n in names} >= {3, 4, 5}


# -- tampered copies --------------------------------------------------------------------------

Tamper = Callable[[list[Event]], Tampered]


def deal_swapped(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Deal))
    deal = events[pos]
    assert isinstance(deal, Deal) and deal.hands is not None
    hands = [deal.hands[1], deal.hands[0], *deal.hands[2:]]
    return replaced(events, pos, msgspec.structs.replace(deal, hands=hands)), pos + 1, \
        "the seed deals"


def arrangement_with_a_card_not_held(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Arrange))
    ev = events[pos]
    assert isinstance(ev, Arrange)
    row = [ev.rows[0][0] % 12 + 1, *ev.rows[0][1:]]
    changed = msgspec.structs.replace(ev, rows=[row, *ev.rows[1:]])
    return replaced(events, pos, changed), pos + 1, f"p{ev.seat}'s hand is"


def arrangements_out_of_turn(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Arrange))
    a, b = events[pos], events[pos + 1]
    assert isinstance(a, Arrange) and isinstance(b, Arrange)
    swapped = [*events[:pos], b, a, *events[pos + 2:]]
    return swapped, pos + 1, f"it is not p{b.seat}'s turn"


def turn_not_as_laid(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Turn))
    ev = events[pos]
    assert isinstance(ev, Turn)
    rows = [list(reversed(ev.rows[0])), *ev.rows[1:]]
    if rows == ev.rows:  # a row that reads the same both ways: swap two seats' rows
        rows = [ev.rows[1], ev.rows[0], *ev.rows[2:]]
    return replaced(events, pos, Turn(ev.row, rows)), pos + 1, "the seed deals"


def result_to_a_loser(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Result) and len(e.best) == 1)
    ev = events[pos]
    assert isinstance(ev, Result)
    other = ev.best[0] % 3 + 1
    return replaced(events, pos, msgspec.structs.replace(ev, best=[other])), pos + 1, \
        "the engine computes"


def tie_claimed_as_a_win(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Result) and len(e.best) > 1)
    ev = events[pos]
    assert isinstance(ev, Result)
    return replaced(events, pos, msgspec.structs.replace(ev, best=ev.best[:1])), pos + 1, \
        "the engine computes"


def stakes_changed(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Stakes))
    ev = events[pos]
    assert isinstance(ev, Stakes)
    return replaced(events, pos, Stakes(ev.row, ev.amount + 1)), pos + 1, "the engine computes"


def end_balances_changed(events: list[Event]) -> Tampered:
    pos = len(events) - 1
    ev = events[pos]
    assert isinstance(ev, End)
    bal = [ev.balances[0] + 1, *ev.balances[1:]]
    return replaced(events, pos, End(ev.reason, bal, ev.pot - 1)), pos + 1, "the engine computes"


def fifth_card_of_a_month(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Show) and 12 in e.cards and e.cards.count(12) == 3)
    ev = events[pos]
    assert isinstance(ev, Show)
    later = first(events, lambda e: isinstance(e, Show), pos + 1)
    show = events[later]
    assert isinstance(show, Show)
    changed = Show(show.seat, [12, 12, show.cards[2]])  # a fourth and a fifth 12
    return replaced(events, later, changed), later + 1, "only 4 copies of 12"


def card_not_in_the_deck(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Show))
    ev = events[pos]
    assert isinstance(ev, Show)
    return replaced(events, pos, Show(ev.seat, [99, *ev.cards[1:]])), pos + 1, \
        "card code 99 is not in the hanafuda (48, by month) deck"


def arrangement_with_a_card_not_in_the_deck(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Arrange))
    ev = events[pos]
    assert isinstance(ev, Arrange)
    changed = Arrange(ev.seat, [[99, *ev.rows[0][1:]], *ev.rows[1:]], ev.aside)
    return replaced(events, pos, changed), pos + 1, "#99"


def bet_out_of_turn(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Bet))
    ev = events[pos + 1]
    assert isinstance(ev, Bet)
    return removed(events, pos), pos + 1, f"it is not p{ev.seat}'s turn"


def show_before_the_bets(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Bet))
    show = events[first(events, lambda e: isinstance(e, Show))]
    return [*events[:pos], show, *events[pos:]], pos + 1, "waiting for"


def event_removed(events: list[Event]) -> Tampered:
    pos = first(events, lambda e: isinstance(e, Turn))
    return removed(events, pos), pos + 1, "waiting for"


TAMPERED: list[Any] = [
    pytest.param(ROW_TIE, deal_swapped, id="deal-not-the-seeds"),
    pytest.param(FIVE, arrangement_with_a_card_not_held, id="arrangement-with-a-card-not-held"),
    pytest.param(EXTENDED, arrangements_out_of_turn, id="arrangements-out-of-turn"),
    pytest.param(KABU, turn_not_as_laid, id="row-turned-over-not-as-laid"),
    pytest.param(EXTENDED, result_to_a_loser, id="pot-to-a-seat-that-lost"),
    pytest.param(HAND_TIE, tie_claimed_as_a_win, id="tie-claimed-as-a-win"),
    pytest.param(WINNER, stakes_changed, id="bets-of-the-wrong-amount"),
    pytest.param(ROW_TIE, end_balances_changed, id="end-balances-changed"),
    pytest.param(PHYSICAL, fifth_card_of_a_month, id="physical-fifth-card-of-a-month"),
    pytest.param(PHYSICAL, card_not_in_the_deck, id="physical-card-not-in-the-deck"),
    pytest.param(KABU, arrangement_with_a_card_not_in_the_deck,
                 id="arrangement-with-a-card-not-in-the-deck"),
    pytest.param(PHYSICAL, bet_out_of_turn, id="physical-bet-out-of-turn"),
    pytest.param(PHYSICAL, show_before_the_bets, id="physical-row-shown-before-the-bets"),
    pytest.param(PHYSICAL, end_balances_changed, id="physical-end-balances-changed"),
    pytest.param(FIVE, event_removed, id="event-removed-from-the-middle"),
]


@pytest.mark.parametrize(("source", "tamper"), TAMPERED)
def test_audit_rejects_tampered_kabu_tsukuri_log_at_the_breaking_event(
        source: str, tamper: Tamper, tmp_path: Path) -> None:
    data = load(source)
    audit_rejects_copy(data, source, tamper(list(data.events)), tmp_path)


def test_untampered_kabu_tsukuri_copies_audit_valid(tmp_path: Path) -> None:
    """The copies above are written the same way as these, which stay valid."""
    untampered_copies_audit_valid(FOLDER, sources(TAMPERED), tmp_path)


def test_a_real_tables_unseen_cards_count_down_as_rows_are_turned_over() -> None:
    # at a real table each player's ten cards are face down until a row is turned over; the
    # table (text and the replay page) counts what is still unseen, not what was dealt
    from rich.console import Console

    from kabucli import games, render
    from kabucli.engine import walk

    log = read_log(FOLDER / "3p-physical-match.kbl", event_types)
    game = games.get(log.header.game)
    match, violation = walk(game, log.header, log.events[:12])  # p1 and p3 one row, p2 two
    assert violation is None
    assert [len(match.state.shown[p]) for p in (1, 2, 3)] == [1, 2, 1]
    console = Console(width=120, color_system=None, record=True)
    console.print(render.table(game, match, None))
    text = console.export_text()
    assert "7 face down" in text and "4 face down" in text and "10 face down" not in text
    scene = games.part(game.name, "render").scene(game, match, None)
    labels = {s["seat"]: s["rows"][0]["label"] for s in scene["seats"]}
    assert labels == {1: "7 face down", 2: "4 face down", 3: "7 face down"}
