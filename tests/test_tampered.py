"""An audit catches tampering: copies of the recorded Dare games, changed at test time, are
rejected with exit 1 at the first event that breaks a rule (and why); damaged files are
rejected with exit 2 naming the first record that cannot be read."""

from __future__ import annotations

import struct
from collections.abc import Callable
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import msgspec
import pytest
from tampering import (
    Tampered,
    audit,
    audit_rejects_copy,
    first,
    removed,
    replaced,
    sources,
    state_before,
    untampered_copies_audit_valid,
)

from kabucli import games
from kabucli.compact import DERIVED
from kabucli.engine import classify
from kabucli.events import End, Event, Pay
from kabucli.games import event_types
from kabucli.games.dare.rules import GAME, Deal, Lay, Result, Show, take
from kabucli.log import MAGIC, LogData, read_log

DARE = Path(__file__).resolve().parent.parent / "replays" / "dare"

# Which recorded game each tampering starts from.
SEEDED = "3p-showdown-outright.kbl"
SEEDED_4P = "4p-tie-carry-same-dealer.kbl"
PHYSICAL = "3p-physical-match.kbl"
JSONL = "3p-tie-order.jsonl"

# A tampering: the events of a log -> what it changed (see ``tampering.Tampered``).
Tamper = Callable[[list[Event]], Tampered]


def load(name: str) -> LogData:
    return read_log(DARE / name, event_types)


def seats(events: list[Event]) -> int:
    deal = events[first(events, lambda e: isinstance(e, Deal))]
    assert isinstance(deal, Deal) and deal.hands is not None
    return len(deal.hands)


def deal_before(events: list[Event], pos: int) -> Deal:
    return next(e for e in reversed(events[:pos]) if isinstance(e, Deal))


# -- the tamperings -------------------------------------------------------------------------

def set_off_reference(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Lay) and bool(e.sets))
    lay = events[pos]
    assert isinstance(lay, Lay)
    a, b, c = lay.sets[0]
    bad = sorted([a, b, c + 1 if c < 10 else c - 1])
    ev = msgspec.structs.replace(lay, sets=[bad, *lay.sets[1:]])
    return replaced(events, pos, ev), pos + 1, "not the reference"


def cards_not_in_hand(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Lay) and bool(e.sets))
    lay = events[pos]
    assert isinstance(lay, Lay)
    deal = deal_before(events, pos)
    assert deal.hands is not None
    hand = deal.hands[lay.seat - 1]
    ref = sum(deal.field) % 10
    # A set with the right ones digit that this hand cannot make.
    foreign = next(list(t) for t in combinations_with_replacement(range(1, 11), 3)
                   if sum(t) % 10 == ref and take(hand, list(t)) is None)
    ev = msgspec.structs.replace(lay, sets=[foreign, *lay.sets[1:]])
    return replaced(events, pos, ev), pos + 1, "does not hold"


def wrong_seat(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Lay))
    lay = events[pos]
    assert isinstance(lay, Lay)
    other = lay.seat % seats(events) + 1
    ev = msgspec.structs.replace(lay, seat=other)
    return replaced(events, pos, ev), pos + 1, f"it is not p{other}'s turn"


def payment_changed(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Pay) and e.why == "win")
    pay = events[pos]
    assert isinstance(pay, Pay)
    ev = msgspec.structs.replace(pay, amount=pay.amount + 1)
    return replaced(events, pos, ev), pos + 1, f"the engine computes {GAME.notate(pay)!r}"


def wrong_winner(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Result) and e.reason == "showdown")
    res = events[pos]
    assert isinstance(res, Result)
    other = res.winners[0] % seats(events) + 1
    ev = msgspec.structs.replace(res, winners=[other], dealer=other)
    return replaced(events, pos, ev), pos + 1, f"the engine computes {GAME.notate(res)!r}"


def deal_swapped(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Deal) and e.round == 2)
    deal = events[pos]
    assert isinstance(deal, Deal) and deal.hands is not None
    one, two = list(deal.hands[0]), list(deal.hands[1])
    i, j = next((i, j) for i in range(len(one)) for j in range(len(two)) if one[i] != two[j])
    one[i], two[j] = two[j], one[i]
    ev = msgspec.structs.replace(deal, hands=[sorted(one), sorted(two), *deal.hands[2:]])
    return replaced(events, pos, ev), pos + 1, "the seed deals"


def event_removed(events: list[Event]) -> tuple[list[Event], int, str]:
    # The middle one of the lays that another lay follows: without it, the next seat plays
    # out of turn.
    lays = [i for i in range(len(events) - 1)
            if isinstance(events[i], Lay) and isinstance(events[i + 1], Lay)]
    pos = lays[len(lays) // 2]
    follower = events[pos + 1]
    assert isinstance(follower, Lay)
    return removed(events, pos), pos + 1, f"it is not p{follower.seat}'s turn"


def fifth_seven(events: list[Event]) -> tuple[list[Event], int, str]:
    """At a real table, a card shown after all four 7s are out is turned into a 7."""
    for pos, ev in enumerate(events):
        if (isinstance(ev, Show) and 7 not in ev.cards
                and state_before(GAME, load(PHYSICAL).header, events, pos).seen[7] == 4):
            bad = msgspec.structs.replace(ev, cards=sorted([7, *ev.cards[1:]]))
            return (replaced(events, pos, bad), pos + 1,
                    "has only 4 copies of 7, and 4 already showed")
    raise AssertionError(f"{PHYSICAL} shows no card after all four 7s are out")


def end_balances(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = len(events) - 1
    end = events[pos]
    assert isinstance(end, End)
    b = list(end.balances)
    b[0], b[1] = b[0] + 1, b[1] - 1  # the total stays right; who holds what does not
    ev = msgspec.structs.replace(end, balances=b)
    return replaced(events, pos, ev), pos + 1, f"the engine computes {GAME.notate(end)!r}"


TAMPERED: list[Any] = [
    pytest.param(SEEDED, set_off_reference, id="laid-set-off-the-reference"),
    pytest.param(SEEDED, cards_not_in_hand, id="laid-cards-not-in-hand"),
    pytest.param(SEEDED, wrong_seat, id="move-by-the-wrong-seat"),
    pytest.param(SEEDED, payment_changed, id="payment-amount-changed"),
    pytest.param(SEEDED, wrong_winner, id="result-names-the-wrong-winner"),
    pytest.param(SEEDED_4P, deal_swapped, id="seeded-deal-cards-swapped-between-hands"),
    pytest.param(SEEDED_4P, event_removed, id="event-removed-from-the-middle"),
    pytest.param(PHYSICAL, fifth_seven, id="physical-fifth-seven"),
    pytest.param(JSONL, end_balances, id="end-with-wrong-balances"),
]


@pytest.mark.parametrize(("source", "tamper"), TAMPERED)
def test_audit_rejects_tampered_log_at_the_breaking_event(
        source: str, tamper: Tamper, tmp_path: Path) -> None:
    data = load(source)
    audit_rejects_copy(data, source, tamper(list(data.events)), tmp_path)


def test_untampered_copy_audits_valid(tmp_path: Path) -> None:
    """The copies above are written the same way as these, which stay valid."""
    untampered_copies_audit_valid(DARE, sources(TAMPERED), tmp_path)


# -- damaged files ---------------------------------------------------------------------------

def frames(blob: bytes) -> list[tuple[int, int]]:
    """(start of payload, payload size) of each msgpack record; record 0 is the header."""
    out = []
    pos = len(MAGIC)
    while pos < len(blob):
        size, _ = struct.unpack_from(">II", blob, pos)
        out.append((pos + 8, size))
        pos += 8 + size
    return out


def cut_inside_event(blob: bytes) -> tuple[bytes, int, str]:
    recs = frames(blob)
    k = len(recs) // 2
    start, size = recs[k]
    return blob[:start + size // 2], k, "truncated"


def flip_a_byte(blob: bytes) -> tuple[bytes, int, str]:
    recs = frames(blob)
    k = len(recs) // 2
    start, size = recs[k]
    at = start + size // 2
    return blob[:at] + bytes([blob[at] ^ 0x20]) + blob[at + 1:], k, "checksum does not match"


def cut_jsonl_line(blob: bytes) -> tuple[bytes, int, str]:
    lines = blob.splitlines(keepends=True)
    k = len(lines) // 2
    return b"".join(lines[:k]) + lines[k][:len(lines[k]) // 2], k, "truncated"


def break_jsonl_line(blob: bytes) -> tuple[bytes, int, str]:
    lines = blob.splitlines(keepends=True)
    k = len(lines) // 2
    lines[k] = lines[k][:len(lines[k]) // 2] + b"\n"
    return b"".join(lines), k, "invalid record"


DAMAGED: list[Any] = [
    pytest.param(SEEDED, cut_inside_event, id="msgpack-truncated-inside-an-event"),
    pytest.param(SEEDED, flip_a_byte, id="msgpack-flipped-byte"),
    pytest.param(JSONL, cut_jsonl_line, id="jsonl-truncated-inside-a-line"),
    pytest.param(JSONL, break_jsonl_line, id="jsonl-broken-line"),
]


@pytest.mark.parametrize(("source", "damage"), DAMAGED)
def test_audit_rejects_damaged_log_naming_the_first_bad_record(
        source: str, damage: Callable[[bytes], tuple[bytes, int, str]], tmp_path: Path) -> None:
    blob, index, why = damage((DARE / source).read_bytes())
    assert index > 0
    if blob.startswith(MAGIC):  # format 2: frame k is a block of inputs; the error names
        # the first event it holds, the first input after the blocks before it
        data = read_log(DARE / source, event_types)
        hows, _ = classify(games.get("dare"), data.header, data.events)
        inputs = [i for i, how in enumerate(hows, start=1) if how != DERIVED]
        assert index == 1 and len(frames(blob)) >= 2  # one block: the cut is in it
        index = inputs[0]
    path = tmp_path / f"damaged{Path(source).suffix}"
    path.write_bytes(blob)

    res = audit(path)
    assert res.exit_code == 2, res.stdout + res.stderr
    assert res.stderr.startswith(f"unreadable: {path}: event {index}: ")
    assert why in res.stderr


@pytest.mark.parametrize(("content", "why"), [
    pytest.param(b"round 1: p2 wins\n", "not a kabucli log", id="text-file"),
    pytest.param(b"", "empty file", id="empty-file"),
    pytest.param(b'{"game": "dare"}\n', "header: invalid record", id="json-that-is-not-a-log"),
    pytest.param(b"\x89PNG\r\n\x1a\n\x00\x00", "not a kabucli log", id="binary-file"),
])
def test_audit_rejects_a_file_that_is_not_a_log(content: bytes, why: str,
                                                tmp_path: Path) -> None:
    path = tmp_path / "notalog.kbl"
    path.write_bytes(content)
    res = audit(path)
    assert res.exit_code == 2, res.stdout + res.stderr
    assert res.stderr.startswith(f"unreadable: {path}: ")
    assert why in res.stderr


def test_the_audit_of_a_tampered_real_table_log_gives_the_rule_broken_without_typing_advice(
        tmp_path: Path) -> None:
    # (it quoted the prompt's advice to the referee: "...: type sets whose ones digit is 7
    # (e.g. '1-7-9'), or 'pass'", words for someone at the table, not for the log's reader)
    import subprocess
    import sys

    src = Path(__file__).resolve().parent.parent / "replays" / "dare" / "3p-physical-match.kbl"
    js = tmp_path / "t.jsonl"
    run = [sys.executable, "-m", "kabucli"]
    assert subprocess.run([*run, "log", "convert", str(src), str(js)]).returncode == 0
    lines = js.read_text().splitlines()
    lay = '{"e":"lay","seat":1,"sets":[[7,10,10],[8,9,10]]}'
    assert lay in lines
    lines[lines.index(lay)] = '{"e":"lay","seat":1,"sets":[[7,7,9],[8,9,10]]}'
    js.write_text("\n".join(lines) + "\n")
    res = subprocess.run([*run, "audit", str(js)], capture_output=True, text=True)
    assert res.returncode == 1
    assert res.stderr == (f"invalid: {js}: event 9: p1 'p1 sets 7-7-9 8-9-10': set 7-7-9 adds "
                          "up to 23, ones digit 3, not the reference 7\n")
    replay = subprocess.run([*run, "replay", str(js)], capture_output=True, text=True)
    assert "type sets" not in replay.stdout + replay.stderr
    assert "not the reference 7" in replay.stdout + replay.stderr
