"""The play loop shared by every game: what a typed line means for a person among bots."""

from __future__ import annotations

from pathlib import Path

import pytest

from kabucli import games
from kabucli.errors import ParseError
from kabucli.log import SeatInfo
from kabucli.rules import build
from kabucli.session import Session, start

KT = games.get("kazu-tori")
DARE = games.get("dare")


def kazutori_with_one_person(seed: int = 3) -> Session:
    seats = [SeatInfo("me", "human")] + [SeatInfo(k, f"bot:{k}") for k in
                                          ("sharp", "random", "sharp")]
    sess = start(KT, build(KT.Rules, []), seats, seed, None, None)
    sess.run_bots()
    return sess


def test_a_blank_line_flips_when_nothing_may_be_claimed_and_lets_a_card_go_otherwise() -> None:
    sess = kazutori_with_one_person()
    assert KT.notate(sess.parse_line("")) == "p1 flip"
    sess.submit_line("")
    assert KT.notate(sess.parse_line("")) == "p1 pass"


def test_a_move_without_a_seat_is_the_one_persons_move() -> None:
    sess = kazutori_with_one_person()
    sess.submit_line("")  # p1 flips; now a claim window is open for everyone
    assert KT.notate(sess.parse_line("claim")) == "p1 claim"
    assert KT.notate(sess.parse_line("p3 claim")) == "p3 claim"


def test_a_line_that_parses_nowhere_keeps_its_own_error() -> None:
    sess = kazutori_with_one_person()
    with pytest.raises(ParseError, match="blah"):
        sess.parse_line("blah")


def test_bots_that_let_a_card_go_are_recorded_and_not_asked_again() -> None:
    sess = kazutori_with_one_person()
    m = sess.match
    for _ in range(40):
        if m.over:
            break
        sess.submit_line("")
        sess.run_bots()
        s = m.state
        if s.phase == "window" and 1 in s.passed:
            # the person let the card go and flips next: every bot's pass is in the log
            assert s.passed | s.claimed >= set(s.ins)
    assert "pass" in {type(e).__struct_config__.tag for e in m.events}


def test_every_event_is_told_to_the_listener_with_its_log_index_in_order() -> None:
    seats = [SeatInfo(k, f"bot:{k}") for k in ("best", "random", "best")]
    sess = start(DARE, build(DARE.Rules, ["rounds=2"]), seats, 5, None, None)
    seen: list[tuple[int, str]] = []
    sess.match.on_event = lambda i, ev: seen.append((i, DARE.notate(ev)))
    sess.run_bots()
    assert sess.match.over
    assert [i for i, _ in seen] == list(range(1, sess.match.logged + 1))
    assert [t for _, t in seen] == [DARE.notate(e) for e in sess.match.events]


def test_the_prompt_names_only_the_people_who_may_act() -> None:
    sess = kazutori_with_one_person()
    sess.submit_line("")
    assert sess.prompt_seats() == "p1"


def test_run_bots_returns_the_new_events_with_their_log_indices() -> None:
    # what the bots played since the last call, each with its index in the log (the first
    # record is 1), as Match.on_event numbers them
    seats = [SeatInfo("me", "human")] + [SeatInfo(k, f"bot:{k}") for k in ("best", "random")]
    sess = start(DARE, build(DARE.Rules, ["rounds=1"]), seats, 5, None, None)
    m = sess.match
    told: list[tuple[int, str]] = []
    m.on_event = lambda i, ev: told.append((i, DARE.notate(ev)))
    first = sess.run_bots()
    assert first and [i for i, _ in first] == list(range(1, m.logged + 1))
    assert [(i, DARE.notate(ev)) for i, ev in first] == told
    sess.submit_line(sess.legal_texts(people_only=True)[0])  # the person's move
    mine = m.logged
    told.clear()
    after = sess.run_bots()
    assert after, "the bots reply to the person's move"
    assert [i for i, _ in after] == list(range(mine + 1, m.logged + 1))
    assert [(i, DARE.notate(ev)) for i, ev in after] == told


def test_a_new_log_is_written_in_the_format_asked_for_whatever_its_name(tmp_path: Path) -> None:
    # start's fmt is the log's format; only without one does the file's name choose it
    from kabucli.log import MAGIC, read_log

    seats = [SeatInfo(k, f"bot:{k}") for k in ("best", "random")]
    for name, fmt, jsonl in (("a.kbl", "jsonl", True), ("b.jsonl", "msgpack", False),
                             ("c.jsonl", None, True), ("d.kbl", None, False)):
        path = tmp_path / name
        sess = start(DARE, build(DARE.Rules, ["rounds=1"]), seats, 5, path, fmt)
        sess.run_bots()
        sess.close()
        data = path.read_bytes()
        assert data.startswith(b"{") == jsonl and data.startswith(MAGIC) != jsonl, name
        assert read_log(path, games.event_types).header.seed == 5
