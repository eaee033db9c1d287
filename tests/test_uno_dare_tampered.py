"""Tampered Uno Dare logs are rejected at the right event: copies of the recorded games in
replays/uno-dare/, each changed in one place, must fail ``kabucli audit`` at the changed event
(or the first one it breaks), with the reason, in text and in ``--json``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tampering import (
    Tampered,
    audit_rejects_copy,
    first,
    removed,
    replaced,
    sources,
    state_before,
    untampered_copies_audit_valid,
)

from kabucli.cards import UNO_DARE_108
from kabucli.events import Event
from kabucli.games import event_types
from kabucli.games.uno_dare.rules import (
    GAME,
    Answer,
    Catch,
    Deal,
    Draw,
    Penalty,
    Play,
    Race,
    Reshuffle,
    Score,
    Show,
    UnoState,
    playable,
)
from kabucli.log import LogData, read_log

FOLDER = Path(__file__).resolve().parent.parent / "replays" / "uno-dare"
DECK = UNO_DARE_108


def changed_deal(data: LogData) -> Tampered:
    ev = data.events[0]
    assert type(ev) is Deal and ev.hands is not None
    hands = [list(h) for h in ev.hands]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    return replaced(data.events, 0, Deal(ev.round, ev.dealer, ev.up, hands, ev.pile)), 1, \
        "the seed deals"


def card_not_held(data: LogData) -> Tampered:
    pos = first(data.events, lambda e: type(e) is Play)
    ev = data.events[pos]
    s: UnoState = state_before(GAME, data.header, data.events, pos)
    other = next(c for c in DECK.counts if c not in s.hands[ev.seat]
                 and playable(c, s.discards[-1], s.color) and c < 40)
    return replaced(data.events, pos, Play(ev.seat, other)), pos + 1, "does not hold"


def card_not_matching(data: LogData) -> Tampered:
    events = data.events

    def wrong(pos: int) -> Play | None:
        ev = events[pos]
        if type(ev) is not Play:
            return None
        s: UnoState = state_before(GAME, data.header, events, pos)
        if s.phase != "turn":
            return None
        bad = [c for c in s.hands[ev.seat] if not playable(c, s.discards[-1], s.color)]
        return Play(ev.seat, bad[0]) if bad else None

    pos = first(events, lambda e: wrong(events.index(e)) is not None)
    play = wrong(pos)
    assert play is not None
    return replaced(events, pos, play), pos + 1, "does not match"


def penalty_left_out(data: LogData) -> Tampered:
    pos = first(data.events, lambda e: type(e) is Penalty)
    return removed(data.events, pos), pos + 1, "penalty draw"


def score_changed(data: LogData) -> Tampered:
    pos = first(data.events, lambda e: type(e) is Score)
    ev = data.events[pos]
    assert type(ev) is Score
    hands = [h + 1 for h in ev.hands]
    return replaced(data.events, pos, Score(ev.round, ev.winner, hands)), pos + 1, \
        "the engine computes 'score"


def race_changed(data: LogData) -> Tampered:
    pos = first(data.events, lambda e: type(e) is Race)
    ev = data.events[pos]
    assert type(ev) is Race
    draws = [d if d < 0 else (d + 1) % 1000 for d in ev.draws]
    return replaced(data.events, pos, Race(draws)), pos + 1, "the seed deals"


def reshuffle_changed(data: LogData) -> Tampered:
    pos = first(data.events, lambda e: type(e) is Reshuffle)
    ev = data.events[pos]
    assert type(ev) is Reshuffle and ev.pile is not None
    return replaced(data.events, pos, Reshuffle(ev.size, ev.pile[::-1])), pos + 1, \
        "the seed deals"


def late_catch(data: LogData) -> Tampered:
    """A catch of a missing UNO call typed after the next move was made."""
    events = data.events
    for pos in range(1, len(events)):
        s: UnoState = state_before(GAME, data.header, events, pos)
        if s.missed and GAME.pending(s).kind == "action":
            missed = min(s.missed)
            catcher = s.turn if s.turn != missed else s.step(s.turn, 1)
            return [*events[:pos], Catch(catcher, missed), *events[pos:]], pos + 1, \
                "too late"
    raise AssertionError("no missing call that was not caught")


def answer_out_of_phase(data: LogData) -> Tampered:
    pos = first(data.events, lambda e: type(e) is Answer and e.answer == "decline")
    ev = data.events[pos]
    assert type(ev) is Answer
    return replaced(data.events, pos, Answer(ev.seat, "done")), pos + 1, "not now"


def out_of_turn(data: LogData) -> Tampered:
    pos = first(data.events, lambda e: type(e) is Draw)
    ev = data.events[pos]
    assert type(ev) is Draw
    n = len(data.header.seats)
    return replaced(data.events, pos, Draw(ev.seat % n + 1)), pos + 1, "not p"


def shown_card_all_seen(data: LogData) -> Tampered:
    pos = first(data.events, lambda e: type(e) is Show)
    ev = data.events[pos]
    assert type(ev) is Show
    cards = [DECK.parse("G0"), *ev.cards[1:]]  # the one G0 was played in this game
    return replaced(data.events, pos, Show(ev.seat, cards)), pos + 1, "has only 1 copy of G0"


CASES: list[tuple[str, Callable[[LogData], Tampered]]] = [
    ("3p-first-card-dare.kbl", changed_deal),
    ("3p-first-card-dare.kbl", card_not_held),
    ("2p-reverse-acts-as-skip.kbl", card_not_matching),
    ("4p-declined-and-failed-dares.kbl", penalty_left_out),
    ("4p-declined-and-failed-dares.kbl", answer_out_of_phase),
    ("3p-scoring-lowest.jsonl", score_changed),
    ("4p-missed-uno-caught-in-a-race.kbl", race_changed),
    ("2p-reshuffle-of-discards.kbl", reshuffle_changed),
    ("3p-missed-uno-too-late.kbl", late_catch),
    ("3p-physical-round.kbl", out_of_turn),
    ("3p-physical-round.kbl", shown_card_all_seen),
]
PARAMS = [pytest.param(name, make, id=f"{name}-{make.__name__}") for name, make in CASES]


@pytest.mark.parametrize(("name", "make"), PARAMS)
def test_a_tampered_copy_is_rejected_at_the_changed_event(
        name: str, make: Callable[[LogData], Tampered], tmp_path: Path) -> None:
    data = read_log(FOLDER / name, event_types)
    audit_rejects_copy(data, name, make(data), tmp_path)


def test_the_untampered_copies_audit_valid(tmp_path: Path) -> None:
    untampered_copies_audit_valid(FOLDER, sources(PARAMS), tmp_path)


def test_the_events_each_case_needs_are_there() -> None:
    for name, make in CASES:
        data = read_log(FOLDER / name, event_types)
        events, index, _ = make(data)
        assert 1 <= index <= len(events), name
        assert isinstance(events[index - 1], Event)
