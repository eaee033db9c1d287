"""The shared engine (kabucli.engine): Match, walk and check_header, exercised with Dare."""

from __future__ import annotations

import hashlib
import io
from typing import Any, Union

import msgspec
import pytest

from kabucli.bots import make
from kabucli.compact import seed_commitment
from kabucli.engine import (
    MAX_REPLAYED,
    READY,
    Match,
    Pending,
    Pendings,
    Violation,
    _replayed,
    check_header,
    commitment_unbound,
    make_header,
    ready,
    walk,
)
from kabucli.errors import IllegalMove, KabuError, LogError
from kabucli.events import Event, Forfeit, Pay, Undo
from kabucli.games.dare.rules import GAME, DareRules, Deal, Lay, Show
from kabucli.log import Header, LogWriter, SeatInfo
from kabucli.shuffle import ALGORITHM, Rng

SEATS = [SeatInfo("Ann"), SeatInfo("Ben"), SeatInfo("Cy")]


def header(seed: int | None = 7, **rules: Any) -> Header:
    return make_header(GAME, DareRules(**rules), SEATS, seed)


def snapshot(m: Match) -> tuple[Any, ...]:
    return (GAME.view(m.state), list(m.events), m.logged, m.pending, m.expected())


def bot_match(seed: int = 7, writer: LogWriter | None = None, **rules: Any) -> Match:
    m = Match(GAME, header(seed, **rules), writer)
    bots = {p: make("dare", "best" if p == 1 else "random", Rng(seed, f"bot/{p}"))
            for p in (1, 2, 3)}
    while m.advance().kind != "over":
        ev = GAME.bot_event(m, bots)
        assert ev is not None
        m.submit(ev)
    return m


def candidates(m: Match) -> list[Event]:
    """Events to ask about at any moment: some legal, most not."""
    out: list[Event] = [Undo(), Lay(1, []), Lay(2, []), Lay(3, [[1, 3, 9]]), Show(2, [2, 3, 4]),
                        Deal(m.state.round, m.state.dealer, [1, 7, 5]),
                        Pay(1, 0, 1, "ante"), Pay(0, 2, 3, "win")]
    p = m.pending
    if p.kind == "action":
        out += GAME.legal(m.state, p.seats[0])
    expected = m.expected()
    if expected is not None:
        out.append(expected)
    return out


# -- why_not and submit ------------------------------------------------------------------------

def test_why_not_never_changes_anything() -> None:
    m = Match(GAME, header(seed=12, rounds=3))
    bots = {p: make("dare", "random", Rng(12, f"bot/{p}")) for p in (1, 2, 3)}
    steps = 0
    while not m.over:
        before = snapshot(m)
        for ev in candidates(m):
            m.why_not(ev)
            assert snapshot(m) == before
        ev = m.expected() or GAME.bot_event(m, bots)
        assert ev is not None
        m.submit(ev)
        steps += 1
    assert steps > 20


def test_submit_refuses_with_illegal_move_leaving_state_and_writer_untouched() -> None:
    buf = io.BytesIO()
    writer = LogWriter(buf, "jsonl", durable=False)
    m = Match(GAME, header(), writer)
    m.advance()
    written, count = buf.getvalue(), writer.count
    assert count == 4  # the deal and three antes
    before = snapshot(m)
    for bad in (Lay(3, []), Lay(2, [[10, 10, 10, 10]]), Pay(2, 0, 1, "ante"),
                Deal(1, 1, [1, 7, 5])):
        with pytest.raises(IllegalMove) as info:
            m.submit(bad)
        assert str(info.value) == m.why_not(bad)
        assert snapshot(m) == before
        assert buf.getvalue() == written and writer.count == count


def test_submit_records_every_event_in_the_writer() -> None:
    buf = io.BytesIO()
    writer = LogWriter(buf, "jsonl", durable=False)
    m = bot_match(writer=writer, rounds=2)
    lines = buf.getvalue().splitlines()
    assert len(lines) == writer.count == m.logged == len(m.events)
    decoder = msgspec.json.Decoder(Union[GAME.events])  # type: ignore[valid-type]  # noqa: UP007
    assert [decoder.decode(line) for line in lines] == m.events


def test_advance_records_auto_and_seeded_chance_events_until_a_player_must_act() -> None:
    m = Match(GAME, header())
    assert m.pending.kind == "chance"
    p = m.advance()
    assert p.kind == "action" and p.seats == (2,)
    assert [type(e).__name__ for e in m.events] == ["Deal", "Pay", "Pay", "Pay"]
    assert m.advance() == p and len(m.events) == 4  # nothing more to record


def test_advance_at_a_real_table_waits_for_the_referee_to_deal() -> None:
    m = Match(GAME, header(seed=None))
    assert m.advance().kind == "chance"
    assert m.events == [] and m.expected() is None


# -- undo and rebuild --------------------------------------------------------------------------

def test_undo_with_nothing_to_take_back_is_refused() -> None:
    m = Match(GAME, header())
    m.advance()
    reason = m.why_not(Undo())
    assert reason is not None and "take back" in reason


def test_undo_takes_back_the_last_action_and_what_followed_but_the_log_keeps_it() -> None:
    buf = io.BytesIO()
    m = Match(GAME, header(), LogWriter(buf, "jsonl", durable=False))
    m.advance()
    before = snapshot(m)
    move = GAME.legal(m.state, 2)[0]
    m.submit(move)
    m.advance()
    m.submit(Undo())
    assert snapshot(m)[:2] == before[:2]
    assert m.logged == 6  # deal, 3 antes, the move, the undo
    assert len(buf.getvalue().splitlines()) == 6



def test_undo_takes_back_only_the_last_input_not_the_ones_before_it() -> None:
    m = Match(GAME, header())
    m.advance()
    m.submit(GAME.legal(m.state, 2)[0])
    m.advance()
    kept = list(m.events)
    m.submit(GAME.legal(m.state, 3)[0])
    m.advance()
    m.submit(Undo())
    assert m.events == kept
    assert m.pending.seats == (3,)


def test_an_undo_leaves_the_cards_the_seed_deals_after_it_as_they_were() -> None:
    """The seed deals each chance event by its place among the chance events in effect: an
    undo and the same move again give the later rounds the same deals as without them."""
    m = bot_match(rounds=3)
    inputs = [e for e in m.events if m.is_input(e)]
    again = Match(GAME, m.header)
    again.advance()
    for i, ev in enumerate(inputs):
        again.submit(ev)
        if i == 0:
            again.submit(Undo())
            again.submit(ev)
        again.advance()
    assert again.events == m.events
    assert sum(isinstance(e, Deal) for e in again.events) == 3


def test_rebuild_from_the_events_gives_the_same_state() -> None:
    m = bot_match(rounds=3)
    again = Match(GAME, m.header)
    again.rebuild(m.events)
    assert GAME.view(again.state) == GAME.view(m.state)
    assert again.outcome() == m.outcome()
    half = len(m.events) // 2
    again.rebuild(m.events[:half])
    assert again.events == m.events[:half]
    assert GAME.view(again.state) != GAME.view(m.state)


# -- walk --------------------------------------------------------------------------------------

def test_walk_of_a_whole_log_finds_no_violation() -> None:
    m = bot_match(rounds=4)
    seen: list[int] = []
    replay, violation = walk(GAME, m.header, m.events, lambda i, ev, mm: seen.append(i))
    assert violation is None
    assert seen == list(range(1, len(m.events) + 1))
    assert replay.outcome() == m.outcome()
    assert replay.state.ledger.total() == 150


def first(events: list[Event], kind: type[Event]) -> int:
    return next(i for i, e in enumerate(events) if isinstance(e, kind))


def test_walk_returns_the_first_violation_of_an_auto_event() -> None:
    m = bot_match(rounds=2)
    events = list(m.events)
    i = first(events, Pay)
    bad = msgspec.structs.replace(events[i], amount=9)
    events[i] = bad
    events[i + 2] = msgspec.structs.replace(events[i + 2], amount=9)  # a second, later fault
    _, violation = walk(GAME, m.header, events)
    assert violation == Violation(i + 1, "engine", GAME.notate(bad),
                                  f"the engine computes {GAME.notate(m.events[i])!r} here")
    assert violation.line("x.log").startswith(f"x.log: event {i + 1}: engine 'pay p2 pot 9")


def test_walk_returns_the_first_violation_of_a_player_action() -> None:
    m = bot_match(rounds=2)
    events = list(m.events)
    i = first(events, Lay)
    lay = events[i]
    assert isinstance(lay, Lay)
    bad = Lay(lay.seat, [[10, 10, 10], [10, 10, 10]])
    events[i] = bad
    replay, violation = walk(GAME, m.header, events)
    assert violation is not None
    assert (violation.index, violation.actor, violation.action) == \
        (i + 1, f"p{lay.seat}", GAME.notate(bad))
    assert violation.reason == "set 10-10-10 adds up to 30, ones digit 0, not the reference " \
        f"{replay.state.ref}"
    assert replay.events == m.events[:i]  # stopped before the bad event


def test_walk_returns_the_first_violation_of_a_seeded_deal() -> None:
    m = bot_match(rounds=2)
    events = list(m.events)
    deal = events[0]
    assert isinstance(deal, Deal)
    bad = msgspec.structs.replace(deal, field=[10, 10, 10])
    events[0] = bad
    _, violation = walk(GAME, m.header, events)
    assert violation is not None
    assert (violation.index, violation.actor) == (1, "table")
    assert violation.reason == f"the seed deals {GAME.notate(deal)!r} here"


def test_walk_reports_an_undo_with_nothing_to_take_back() -> None:
    _, violation = walk(GAME, header(), [Undo()])
    assert violation is not None
    assert (violation.index, violation.actor, violation.action) == (1, "referee", "undo")


# -- check_header ------------------------------------------------------------------------------

def test_check_header_returns_the_rules() -> None:
    assert check_header(GAME, header(tie="split")) == DareRules(tie="split")


def test_check_header_rejects_another_game() -> None:
    bad = msgspec.structs.replace(header(), game="kazutori")
    with pytest.raises(KabuError, match="the log is a 'kazutori' game, not dare"):
        check_header(GAME, bad)


@pytest.mark.parametrize("written", ["DARE", "Dare", " dare"])
def test_check_header_says_a_game_written_as_typed_is_not_how_a_log_names_it(
        written: str) -> None:
    """A header naming its game as a person may type it (any case, an alias) is refused, as
    no log kabucli writes holds it: it said 'the log is a DARE game, not dare'."""
    bad = msgspec.structs.replace(header(), game=written)
    with pytest.raises(KabuError) as refused:
        check_header(GAME, bad)
    assert str(refused.value) == (f"header: the game is written '{written}'; a log names "
                                  "it 'dare'")


@pytest.mark.parametrize("rules", [{"tie": "coin"}, {"ante": -1}, {"jokers": 2}])
def test_check_header_rejects_a_bad_house_rule(rules: dict[str, Any]) -> None:
    bad = msgspec.structs.replace(header(), rules=rules)
    with pytest.raises(KabuError, match=r"^header: "):
        check_header(GAME, bad)


@pytest.mark.parametrize("n", [1, 5])
def test_check_header_rejects_a_bad_seat_count(n: int) -> None:
    bad = msgspec.structs.replace(header(), seats=[SeatInfo(f"P{i}") for i in range(n)])
    with pytest.raises(KabuError, match=f"takes 2-4 players, the log has {n}"):
        Match(GAME, bad)


def test_check_header_rejects_a_seeded_header_without_its_seed() -> None:
    bad = msgspec.structs.replace(header(), seed=None)
    assert bad.mode == "seeded"
    with pytest.raises(KabuError, match="a seeded log must record its seed"):
        check_header(GAME, bad)


def test_check_header_rejects_an_unknown_shuffle() -> None:
    bad = msgspec.structs.replace(header(), shuffle="mt19937")
    with pytest.raises(KabuError, match=f"'mt19937' is unknown .this kabucli has {ALGORITHM}"):
        check_header(GAME, bad)



# -- the seed's commitment ---------------------------------------------------------------------

def test_the_seed_commitment_is_blake2b_256_of_the_salt_then_the_seed_as_8_bytes_big_endian(
) -> None:
    # the example of docs/log-format.md (Seed commitment), which other programs check against
    salt = "e47592a43ba38d63d8831023d3e39f9a"
    assert seed_commitment(12345, salt) == \
        "a32f30042cc29a4a76926b86b7f68dafd8ad544d5f1eb77ef8bf920d1e5cd7c6"
    assert seed_commitment(12345, salt) == hashlib.blake2b(
        bytes.fromhex(salt) + (12345).to_bytes(8, "big"), digest_size=32).hexdigest()


def test_a_commitment_binds_the_seed_only_with_its_salt() -> None:
    salt = "e47592a43ba38d63d8831023d3e39f9a"
    good = make_header(GAME, DareRules(), SEATS, 12345, commit=seed_commitment(12345, salt),
                       salt=salt)
    assert commitment_unbound(good) is None
    for bad in (msgspec.structs.replace(good, seed=12346),
                msgspec.structs.replace(good, salt=None),
                msgspec.structs.replace(good, salt="00" * 16)):
        assert commitment_unbound(bad) == Violation(
            0, "table", "seed", "the seed is not the one the header's commitment binds")


# -- the end of a match, a forfeit, and the inputs undos play again ----------------------------

def test_a_move_after_the_match_is_over_is_refused_as_over() -> None:
    m = bot_match(rounds=2)
    assert m.over
    assert m.why_not(Lay(1, [])) == "the match is already over"


def test_a_forfeit_names_one_of_the_seats() -> None:
    m = Match(GAME, header())
    m.advance()
    for seat in (0, 4):
        assert m.why_not(Forfeit(seat, "crashed")) == \
            f"there is no seat p{seat} (seats are p1-p3)"



def test_a_move_by_a_seat_the_match_has_not_is_refused_as_no_seat() -> None:
    m = Match(GAME, header())
    assert m.advance().seats == (2,)
    assert m.why_not(Lay(3, [])).startswith("it is not p3's turn")
    for seat in (0, 4):
        assert m.why_not(Lay(seat, [])) == f"there is no seat p{seat} (seats are p1-p3)"

def test_undos_play_at_most_max_replayed_inputs_again() -> None:
    assert _replayed(0, MAX_REPLAYED) == MAX_REPLAYED
    assert _replayed(MAX_REPLAYED - 1, 1) == MAX_REPLAYED
    with pytest.raises(LogError, match="the most kabucli does in a game"):
        _replayed(MAX_REPLAYED, 1)

# -- the engine's shared mechanics: pendings by key, the todo queue -----------------------------

def test_pendings_are_built_once_per_key_and_the_cache_starts_afresh_when_full() -> None:
    built: list[tuple[Any, ...]] = []

    def build(key: tuple[Any, ...]) -> Pending:
        built.append(key)
        return Pending("action", f"p{key[0]} to act", (key[0],))

    cache = Pendings(build, limit=2)
    first = cache[(1,)]
    assert cache[(1,)] is first and built == [(1,)]
    assert cache[(2,)].seats == (2,)
    assert cache[(3,)].seats == (3,) and len(cache) == 1  # the full cache was emptied first
    assert cache[(1,)] is not first and cache[(1,)] == first
    assert built == [(1,), (2,), (3,), (1,)]


def test_events_known_in_advance_are_ready_steps_of_a_todo() -> None:
    pays = [Pay(1, 0, 1, "ante"), Pay(2, 0, 1, "ante")]
    assert ready(pays) == [(READY, pays[0]), (READY, pays[1])]
    assert ready(iter(())) == []
