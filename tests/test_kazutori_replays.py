"""The recorded Kazu-Tori games (replays/kazu-tori/): each shows what its name says, read from
its events, and tampered copies made at test time are rejected by ``kabucli audit`` with exit 1
at the first event that breaks a rule, and why. (Every file is also audited, replayed and
snapshotted by tests/test_replays.py.)

The events are walked through the engine only to learn what a reader of the table sees: the
card each flip turned, the number said, the cards face up and the pile sizes. What each rule
requires is worked out here from those facts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar

import msgspec
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

from kabucli.cards import JIZO, ONI
from kabucli.engine import Match, walk
from kabucli.events import End, Event, Pay, Undo
from kabucli.games import event_types
from kabucli.games.kazu_tori.rules import (
    GAME,
    Claim,
    Deal,
    Flip,
    Handout,
    Pass,
    Penalty,
    Race,
    Return,
    Score,
    Shuffle,
)
from kabucli.log import Header, LogData, read_log

E = TypeVar("E", bound=Event)

KAZUTORI = Path(__file__).resolve().parent.parent / "replays" / "kazu-tori"

WRONG = "3p-wrong-claim-penalty-and-return-at-limit.kbl"
JIZO_LOG = "4p-jizo-handed-out-then-removed.kbl"
LAST_CALL = "4p-last-call-next-take-ends-game.kbl"
ONI_LOG = "4p-oni-last-card-ends-game.kbl"
LIMIT_20 = "2p-limit-20-ten-taken-at-twenty.kbl"
TIE = "5p-three-way-tie-split-odd-chip-kept.kbl"
PERSON = "3p-person-vs-bots-race.jsonl"
PHYSICAL = "4p-physical-last-call.kbl"
TIMED = "4p-physical-timed-dispute.kbl"


def load(name: str) -> LogData:
    return read_log(KAZUTORI / name, event_types)


def recorded() -> list[Path]:
    return sorted(p for p in KAZUTORI.iterdir() if p.suffix in (".kbl", ".jsonl"))


# -- what a log shows, read from its events ----------------------------------------------

def may_take(card: int, said: int) -> bool:
    """The Oni always, the Jizo never, else when the ones digits of card and number agree."""
    return card == ONI or (card != JIZO and card % 10 == said % 10)


@dataclass(frozen=True)
class Step:
    """One event and the table right after it."""

    ev: Event
    top: int | None  # the card open to claims (None: no window open)
    said: int  # the number said with it
    table: tuple[tuple[int, int], ...]  # (flipper, card) face up, oldest first
    sizes: tuple[int, ...]  # pile sizes, p1 first
    piles: tuple[tuple[int, ...], ...]  # the piles, top card first (at a real table unknown)
    turned: tuple[int, int, int] | None  # (seat, card, said) when a card was turned


def steps_of(data: LogData) -> list[Step]:
    out: list[Step] = []
    turned_before = [0]

    def on_step(_: int, ev: Event, match: Match) -> None:
        s: Any = match.state
        window = s.phase == "window"
        turned = None
        if len(s.turned) > turned_before[0]:
            turned_before[0] = len(s.turned)
            turned = s.turned[-1][:3]
        out.append(Step(ev, s.table[-1] if window else None, s.said if window else 0,
                        tuple(zip(s.table_by, s.table, strict=True)),
                        tuple(len(p) for p in s.piles[1:]), tuple(map(tuple, s.piles[1:])),
                        turned))

    _, violation = walk(GAME, data.header, data.events, on_step)
    assert violation is None, violation
    return out


def nseats(data: LogData) -> int:
    return len(data.header.seats)


def going_round(seat: int, n: int, sizes: tuple[int, ...]) -> list[int]:
    """The seats after ``seat`` still in (holding cards), round the table, ``seat`` last."""
    order = [(seat + k - 1) % n + 1 for k in range(1, n + 1)]
    return [p for p in order if sizes[p - 1]]


def claims(steps: list[Step]) -> list[tuple[int, bool]]:
    """Positions of the claims, each with whether the card claimed may be taken."""
    out = []
    for i, st in enumerate(steps[1:], 1):
        before = steps[i - 1]
        if isinstance(st.ev, Claim) and before.top is not None:
            out.append((i, may_take(before.top, before.said)))
    return out


def takes(steps: list[Step]) -> list[int]:
    return [i for i, ok in claims(steps) if ok]


def wrong_claims(steps: list[Step]) -> list[int]:
    return [i for i, ok in claims(steps) if not ok]


def events_of(steps: list[Step], kind: type[E]) -> list[E]:
    return [st.ev for st in steps if isinstance(st.ev, kind)]


def gifts_shuffled_in(step: Step, before: Step, gifts: list[tuple[int, int]]) -> None:
    """In a seeded game the ``Shuffle`` of ``step`` holds each receiver's pile as it was
    ``before`` with the (seat, card) ``gifts`` added, in a new order."""
    sh = step.ev
    assert isinstance(sh, Shuffle)
    assert sh.seats == sorted({seat for seat, _ in gifts})
    for seat, pile in zip(sh.seats, sh.piles, strict=True):
        got = Counter(card for to, card in gifts if to == seat)
        assert Counter(pile) == Counter(before.piles[seat - 1]) + got


def score_of(data: LogData) -> Score:
    return next(e for e in data.events if isinstance(e, Score))


# -- the recorded set covers each situation -------------------------------------------------

@pytest.mark.parametrize("path", recorded(), ids=lambda p: p.name)
def test_every_wrong_claim_pays_one_card_to_each_other_player_from_the_next_seat(
        path: Path) -> None:
    data = read_log(path, event_types)
    steps = steps_of(data)
    n = nseats(data)
    wrong = wrong_claims(steps)
    penalties = [i for i, st in enumerate(steps) if isinstance(st.ev, Penalty)]
    assert [i + 1 for i in wrong] == penalties  # a penalty follows each wrong claim, only those
    for i in wrong:
        claim, pen, before = steps[i].ev, steps[i + 1].ev, steps[i - 1]
        assert isinstance(claim, Claim) and isinstance(pen, Penalty)
        others = going_round(claim.seat, n, before.sizes)[:-1]
        assert pen.seat == claim.seat
        assert pen.to == others[:before.sizes[claim.seat - 1]]
        # each receiver one card, the claimer one card less per receiver
        after = steps[i + 1].sizes
        assert after[claim.seat - 1] == before.sizes[claim.seat - 1] - len(pen.to)
        assert all(after[p - 1] == before.sizes[p - 1] + 1 for p in pen.to)
        assert steps[i + 1].top == before.top  # the card stays, open to claims
        if data.header.mode == "seeded":  # the top cards of the claimer's pile, in seat order
            top = steps[i].piles[claim.seat - 1]
            gifts_shuffled_in(steps[i + 2], steps[i], list(zip(pen.to, top, strict=False)))


def test_wrong_claim_file_has_a_penalty_to_two_other_players() -> None:
    steps = steps_of(load(WRONG))
    assert any(len(p.to) >= 2 for p in events_of(steps, Penalty))


def test_count_reaching_the_limit_untaken_returns_the_table_to_those_who_turned_it() -> None:
    data = load(WRONG)
    limit = data.header.rules["limit"]
    steps = steps_of(data)
    returns = [i for i, st in enumerate(steps) if isinstance(st.ev, Return)]
    assert returns
    for i in returns:
        ret = steps[i].ev
        assert isinstance(ret, Return)
        # the last moment of the window: the limit was said, the card was still there
        window = next(st for st in reversed(steps[:i]) if st.top is not None)
        assert window.said == limit
        assert isinstance(steps[i - 1].ev, Flip)  # the next flip closed the window
        flippers = Counter(seat for seat, _ in window.table)
        assert ret.counts == [flippers[p] for p in range(1, nseats(data) + 1)]
        # the table goes back into the piles, and the card turned next says "one" alone
        nxt = next(st for st in steps[i:] if st.turned is not None)
        assert nxt.turned is not None and nxt.turned[2] == 1
        assert nxt.table == (nxt.turned[:2],)
        assert sum(nxt.sizes) + 1 == sum(window.sizes) + len(window.table)
        # the cards back are the table's: together they hold what they held, and the table
        sh = steps[i + 1].ev
        assert isinstance(sh, Shuffle) and sh.seats == sorted(flippers)
        assert sum(map(Counter, sh.piles), Counter()) == sum(
            (Counter(window.piles[p - 1]) for p in sh.seats),
            Counter(card for _, card in window.table))


def handouts(steps: list[Step]) -> list[int]:
    return [i for i, st in enumerate(steps) if isinstance(st.ev, Handout)]


@pytest.mark.parametrize("name", [JIZO_LOG, PHYSICAL])
def test_jizo_goes_to_the_next_seat_and_the_cards_one_each_most_recent_first(name: str) -> None:
    data = load(name)
    n = nseats(data)
    steps = steps_of(data)
    done = handouts(steps)
    assert len(done) == 3
    for use, i in enumerate(done, 1):
        ho = steps[i].ev
        assert isinstance(ho, Handout)
        before = steps[i - 1]
        flipper, card = before.table[-1]
        assert card == JIZO and ho.seat == flipper
        rnd = going_round(flipper, n, before.sizes)
        others = len(before.table) - 1
        if use < 3:  # the Jizo to the seat after its flipper, the cards from the seat after
            assert ho.jizo == rnd[0]
            assert ho.to == [rnd[(1 + k) % len(rnd)] for k in range(others)]
        else:  # it leaves the game; the cards start where it would have gone
            assert ho.jizo == 0
            assert ho.to == [rnd[k % len(rnd)] for k in range(others)]
        if data.header.mode == "seeded":  # the Jizo, then the cards most recent first
            recent = [card for _, card in reversed(before.table[:-1])]
            gifts = list(zip(ho.to, recent, strict=True))
            gifts_shuffled_in(steps[i + 1], before, [(ho.jizo, JIZO), *gifts] if ho.jizo
                              else gifts)
    assert any(len(ho.to) >= 2 for ho in events_of(steps, Handout)[:2])


@pytest.mark.parametrize("name", [JIZO_LOG, PHYSICAL])
def test_jizo_leaves_the_game_after_its_third_use(name: str) -> None:
    steps = steps_of(load(name))
    first, second, third = events_of(steps, Handout)
    assert first.jizo and second.jizo
    assert third.jizo == 0 and third.to
    gone = handouts(steps)[2]
    # from then on 39 cards are in play and the Jizo is never turned again
    after = steps[gone + 1:]
    assert all(sum(st.sizes) + len(st.table) == 39 for st in after if not
               isinstance(st.ev, Score | Pay | End))
    assert all(st.turned is None or st.turned[1] != JIZO for st in after)
    assert any(st.turned is not None for st in after)


@pytest.mark.parametrize("name", [LAST_CALL, PHYSICAL])
def test_once_a_player_is_out_the_next_valid_take_ends_the_game(name: str) -> None:
    data = load(name)
    steps = steps_of(data)
    out = next(i for i, st in enumerate(steps[1:], 1) if 0 in st.sizes)
    later = [i for i in takes(steps) if i > out]
    score = score_of(data)
    assert score.reason == "take"
    assert len(later) == 1  # the first take after someone went out...
    last = later[0]
    assert steps[last].ev == Claim(score.seat)
    assert steps[last + 1].ev == score  # ...ends the game, the taker taking the table first
    before = steps[last - 1]
    assert score.cards[score.seat - 1] == before.sizes[score.seat - 1] + len(before.table)


def test_last_call_take_need_not_win() -> None:
    score = score_of(load(LAST_CALL))
    assert score.seat not in score.winners


def test_last_call_keeps_the_cards_on_the_table_at_the_limit() -> None:
    data = load(PHYSICAL)
    limit = data.header.rules["limit"]
    steps = steps_of(data)
    out = next(i for i, st in enumerate(steps[1:], 1) if 0 in st.sizes)
    assert not any(isinstance(st.ev, Return) for st in steps[out:])
    # a count past the limit in Last Call: "one" is said with the cards still on the table
    turned = [(st, st.turned[2]) for st in steps[out:] if st.turned is not None]
    restarts = [st for (_, a), (st, b) in pairwise(turned) if a == limit and b == 1]
    assert restarts
    assert all(len(st.table) > 1 for st in restarts)


def test_oni_turned_as_the_last_card_ends_the_game_at_once() -> None:
    data = load(ONI_LOG)
    steps = steps_of(data)
    score = score_of(data)
    assert score.reason == "oni"
    pos = next(i for i, st in enumerate(steps) if st.ev == score)
    flip = steps[pos - 1]
    assert isinstance(flip.ev, Flip) and flip.turned is not None
    seat, card, _ = flip.turned
    assert (seat, card) == (score.seat, ONI)
    assert steps[pos - 2].sizes[seat - 1] == 1  # it was the last card of the pile
    assert score.cards[seat - 1] == 1  # the flipper takes the Oni back...
    assert flip.top is None  # ...with no window to claim it
    pays = [e for e in data.events if isinstance(e, Pay) and e.src == seat]
    assert [(p.dst, p.amount) for p in pays] == [(w, 1) for w in score.winners]


def test_limit_twenty_a_ten_said_twenty_may_be_taken() -> None:
    data = load(LIMIT_20)
    assert data.header.rules["limit"] == 20
    steps = steps_of(data)
    said = [st.turned[2] for st in steps if st.turned is not None]
    assert max(said) == 20 and 11 in said
    tens = [i for i in takes(steps) if steps[i - 1].said == 20 and steps[i - 1].top == 10]
    assert tens
    # the taker turns the next card and counts "one" again
    taker = steps[tens[0]].ev
    nxt = next(st for st in steps[tens[0]:] if st.turned is not None)
    assert isinstance(taker, Claim) and nxt.turned is not None
    assert (nxt.turned[0], nxt.turned[2]) == (taker.seat, 1)


def test_tied_winners_share_each_payment_and_odd_chips_stay_with_the_payer() -> None:
    data = load(TIE)
    assert data.header.rules["tie"] == "split"
    score = score_of(data)
    top = max(score.cards)
    assert score.winners == [p for p, k in enumerate(score.cards, 1) if k == top]
    w = len(score.winners)
    assert w == 3
    pays = [e for e in data.events if isinstance(e, Pay)]
    want = [(p, win, k // w) for p, k in enumerate(score.cards, 1)
            if p not in score.winners and k // w for win in score.winners]
    assert [(e.src, e.dst, e.amount) for e in pays] == want
    assert any(k % w for p, k in enumerate(score.cards, 1) if p not in score.winners)
    end = data.events[-1]
    assert isinstance(end, End)
    chips = data.header.rules["chips"]
    assert sum(end.balances) == chips * nseats(data)


def test_physical_game_learns_each_card_as_it_is_turned() -> None:
    data = load(PHYSICAL)
    assert data.header.mode == "physical" and data.header.seed is None
    events = data.events
    deal = events[0]
    assert isinstance(deal, Deal) and deal.piles is None
    flips = [e for e in events if isinstance(e, Flip)]
    assert flips and all(f.card is not None for f in flips)
    assert not any(isinstance(e, Shuffle | Race | Pass) for e in events)
    assert any(e.card == ONI for e in flips)
    assert score_of(data).reason == "take"
    # the Oni stayed on the table untaken while the next card was turned
    steps = steps_of(data)
    oni = next(i for i, st in enumerate(steps) if st.turned and st.turned[1] == ONI)
    turned = steps[oni].turned
    assert turned is not None
    flipper = turned[0]
    assert isinstance(steps[oni + 1].ev, Flip) and steps[oni + 1].turned is not None
    assert (flipper, ONI) in steps[oni + 1].table


def test_person_lets_a_card_go_and_the_bots_race_for_it() -> None:
    data = load(PERSON)
    assert data.fmt == "jsonl"
    people = [i for i, s in enumerate(data.header.seats, 1) if s.control == "human"]
    assert people == [1]
    bots = [i for i, s in enumerate(data.header.seats, 1) if s.control.startswith("bot:")]
    assert len(bots) >= 2
    steps = steps_of(data)
    raced = [i for i in range(len(steps) - 2)
             if steps[i].ev == Pass(1) and isinstance(steps[i + 1].ev, Race)
             and steps[i + 2].ev in [Claim(b) for b in bots]]
    assert raced
    assert any(steps[i].ev == Claim(1) for i in takes(steps))  # the person's typed take
    assert any(steps[i].ev == Claim(1) for i in wrong_claims(steps))  # and a slip
    assert any(isinstance(st.ev, Flip) and st.ev.seat == 1 for st in steps)


def test_a_timed_table_records_when_each_input_was_entered_and_the_disputed_claim() -> None:
    """The real table typed at the prompt with a referee's pauses: every event carries a time
    (an input when it was entered, a derived event the time of the input before it), times
    never go back, and the pauses show (seconds apart, not a script's milliseconds). The
    claim given to p2 is taken back and p3's follows: what a dispute at the table left."""
    data = load(TIMED)
    assert data.header.mode == "physical" and data.header.clock is not None
    times = data.times
    assert times is not None and len(times) == len(data.events)
    assert all(a <= b for a, b in pairwise(times))
    assert times[-1] - times[0] > 10_000  # twenty inputs, about a second apart
    evs = data.events
    at = next(i for i, ev in enumerate(evs) if isinstance(ev, Undo))
    assert evs[at - 1] == Claim(2) and evs[at + 1] == Claim(3)
    assert times[at + 1] > times[at] > times[at - 1]  # typed one after another
    assert score_of(data).reason == "agreement"  # the players stopped early


@pytest.mark.parametrize("path", recorded(), ids=lambda p: p.name)
def test_file_name_says_the_players_and_who_plays(path: Path) -> None:
    """'3p-...': three seats; '-physical-': a real table; '-person-': a person typing among
    bots; every other file: bots alone."""
    data = read_log(path, event_types)
    assert path.name.startswith(f"{nseats(data)}p-")
    controls = [s.control for s in data.header.seats]
    if "-physical-" in path.name:
        assert data.header.mode == "physical" and set(controls) == {"human"}
    elif "-person-" in path.name:
        assert data.header.mode == "seeded" and "human" in controls
        assert any(c.startswith("bot:") for c in controls)
    else:
        assert data.header.mode == "seeded"
        assert all(c.startswith("bot:") for c in controls)
    assert path.suffix == (".jsonl" if data.fmt == "jsonl" else ".kbl")


def test_recorded_set_has_two_to_five_players_a_json_lines_log_and_a_real_table() -> None:
    logs = [read_log(p, event_types) for p in recorded()]
    assert {nseats(d) for d in logs} == {2, 3, 4, 5}
    assert "jsonl" in {d.fmt for d in logs}
    assert {d.header.mode for d in logs} == {"seeded", "physical"}
    assert {score_of(d).reason for d in logs} >= {"take", "oni"}


# -- tampered copies --------------------------------------------------------------------------

# A tampering: the header and events of a log -> what it changed (see
# ``tampering.Tampered``).
Tamper = Callable[[Header, list[Event]], Tampered]


def wrong_claim_recorded_as_a_take(header: Header,
                                   events: list[Event]) -> tuple[list[Event], int, str]:
    """A claim on a card that may not be taken, logged as a take: no penalty, the table
    shuffled into the claimer's pile (seeded) and the claimer flipping next."""
    pos = first(events, lambda e: isinstance(e, Penalty))
    claim = events[pos - 1]
    assert isinstance(claim, Claim)
    s = state_before(GAME, header, events, pos)
    assert not may_take(s.table[-1], s.said)
    rest = events[pos + 1:]
    if isinstance(rest[0], Shuffle):  # the penalty's own shuffle goes too
        rest = rest[1:]
    took: list[Event] = []
    if header.mode == "seeded":
        took.append(Shuffle([claim.seat], [s.piles[claim.seat] + s.table]))
    took.append(Flip(claim.seat, None if header.mode == "seeded" else 7))
    return ([*events[:pos], *took, *rest], pos + 1, "waiting for the wrong claim's penalty")


def penalty_in_the_wrong_order(header: Header,
                               events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Penalty) and len(e.to) >= 2)
    pen = events[pos]
    assert isinstance(pen, Penalty)
    ev = Penalty(pen.seat, pen.to[::-1])
    return replaced(events, pos, ev), pos + 1, f"the engine computes {GAME.notate(pen)!r}"


def penalty_to_a_player_who_is_out(header: Header,
                                   events: list[Event]) -> tuple[list[Event], int, str]:
    n = len(header.seats)
    for pos, ev in enumerate(events):
        if isinstance(ev, Penalty):
            s = state_before(GAME, header, events, pos)
            out = [p for p in range(1, n + 1) if not s.piles[p]]
            if out:
                bad = Penalty(ev.seat, sorted([*ev.to, out[0]]))
                return (replaced(events, pos, bad), pos + 1,
                        f"the engine computes {GAME.notate(ev)!r}")
    raise AssertionError("no penalty after a player is out")


def penalty_to_the_claimer_too(header: Header,
                               events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Penalty))
    pen = events[pos]
    assert isinstance(pen, Penalty)
    bad = Penalty(pen.seat, [*pen.to, pen.seat])
    return replaced(events, pos, bad), pos + 1, f"the engine computes {GAME.notate(pen)!r}"


def handout_in_the_wrong_order(header: Header,
                               events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Handout) and e.to != e.to[::-1])
    ho = events[pos]
    assert isinstance(ho, Handout)
    bad = Handout(ho.seat, ho.jizo, ho.to[::-1])
    return replaced(events, pos, bad), pos + 1, f"the engine computes {GAME.notate(ho)!r}"


def jizo_to_the_wrong_seat(header: Header,
                           events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Handout) and e.jizo != 0)
    ho = events[pos]
    assert isinstance(ho, Handout)
    bad = Handout(ho.seat, ho.seat, ho.to)  # kept by its flipper
    return replaced(events, pos, bad), pos + 1, f"the engine computes {GAME.notate(ho)!r}"


def jizo_kept_after_its_third_use(header: Header,
                                  events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Handout) and e.jizo == 0)
    ho = events[pos]
    assert isinstance(ho, Handout)
    bad = Handout(ho.seat, ho.to[0], ho.to[1:])
    return replaced(events, pos, bad), pos + 1, f"the engine computes {GAME.notate(ho)!r}"


def race_draw_changed(header: Header, events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Race))
    race = events[pos]
    assert isinstance(race, Race)
    draws = [d if d < 0 else 999 - d for d in race.draws]
    return (replaced(events, pos, Race(draws)), pos + 1,
            f"the seed deals {GAME.notate(race)!r}")


def race_winner_swapped(header: Header, events: list[Event]) -> tuple[list[Event], int, str]:
    """The claim after a race credited to another seat. The draws do not say which bots
    raced, so the claim itself passes; the take's shuffle then is not what the seed deals."""
    pos = next(i for i in range(len(events) - 1) if isinstance(events[i], Race)
               and isinstance(events[i + 1], Claim))
    claim = events[pos + 1]
    assert isinstance(claim, Claim) and isinstance(events[pos + 2], Shuffle)
    other = next(p for p, s in enumerate(header.seats, 1)
                 if s.control.startswith("bot:") and p != claim.seat)
    return (replaced(events, pos + 1, Claim(other)), pos + 3,
            f"the seed deals 'shuffle p{other} ")


def flip_by_the_wrong_seat(header: Header, events: list[Event]) -> tuple[list[Event], int, str]:
    """A flip closing a window (every seat still in may act) by a seat whose turn it is not."""
    pos = first(events, lambda e: isinstance(e, Flip), 2)
    while not isinstance(events[pos - 1], Flip):
        pos = first(events, lambda e: isinstance(e, Flip), pos + 1)
    flip = events[pos]
    assert isinstance(flip, Flip)
    s = state_before(GAME, header, events, pos)
    wrong = [p for p in s.ins if p != flip.seat][-1]
    return (replaced(events, pos, Flip(wrong, flip.card)), pos + 1,
            f"p{flip.seat} flips next, not p{wrong}")


def second_oni_at_a_real_table(header: Header,
                               events: list[Event]) -> tuple[list[Event], int, str]:
    """A card turned while the Oni lies face up, typed as the Oni."""
    oni = first(events, lambda e: isinstance(e, Flip) and e.card == ONI)
    pos = first(events, lambda e: isinstance(e, Flip), oni + 1)
    assert not any(isinstance(e, Claim) for e in events[oni:pos])
    flip = events[pos]
    assert isinstance(flip, Flip) and flip.card != ONI
    return (replaced(events, pos, Flip(flip.seat, ONI)), pos + 1,
            "only 1 copy of Oni, and 1 already showed")


def jizo_turned_after_it_left(header: Header,
                              events: list[Event]) -> tuple[list[Event], int, str]:
    gone = first(events, lambda e: isinstance(e, Handout) and e.jizo == 0)
    pos = first(events, lambda e: isinstance(e, Flip) and e.card != JIZO, gone + 1)
    flip = events[pos]
    assert isinstance(flip, Flip)
    return (replaced(events, pos, Flip(flip.seat, JIZO)), pos + 1,
            "the Jizo left the game after its third use")


def payment_changed(header: Header, events: list[Event]) -> tuple[list[Event], int, str]:
    """The last payment one chip more (a shared one: the odd chip paid after all)."""
    pos = max(i for i, e in enumerate(events) if isinstance(e, Pay))
    pay = events[pos]
    assert isinstance(pay, Pay)
    bad = msgspec.structs.replace(pay, amount=pay.amount + 1)
    return replaced(events, pos, bad), pos + 1, f"the engine computes {GAME.notate(pay)!r}"


def final_balances_changed(header: Header,
                           events: list[Event]) -> tuple[list[Event], int, str]:
    pos = len(events) - 1
    end = events[pos]
    assert isinstance(end, End)
    balances = [*end.balances[1:], end.balances[0]]
    assert balances != end.balances
    bad = msgspec.structs.replace(end, balances=balances)
    return replaced(events, pos, bad), pos + 1, f"the engine computes {GAME.notate(end)!r}"


def flip_removed(header: Header, events: list[Event]) -> tuple[list[Event], int, str]:
    """A flip that a flip follows, left out: the one after it comes from the wrong seat."""
    flips = [i for i in range(1, len(events) - 1) if isinstance(events[i - 1], Flip)
             and isinstance(events[i], Flip) and isinstance(events[i + 1], Flip)]
    pos = flips[len(flips) // 2]
    gone, nxt = events[pos], events[pos + 1]
    assert isinstance(gone, Flip) and isinstance(nxt, Flip) and gone.seat != nxt.seat
    return removed(events, pos), pos + 1, f"p{gone.seat} flips next, not p{nxt.seat}"


def shuffle_removed(header: Header, events: list[Event]) -> tuple[list[Event], int, str]:
    """The shuffle after a take left out: the taker's flip comes while it is awaited."""
    pos = next(i for i in range(1, len(events)) if isinstance(events[i], Shuffle)
               and isinstance(events[i - 1], Claim))
    nxt = events[pos + 1]
    assert isinstance(nxt, Flip)
    return removed(events, pos), pos + 1, "waiting for the shuffle of"


def penalty_removed(header: Header, events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Penalty))
    return removed(events, pos), pos + 1, "waiting for the wrong claim's penalty"


TAMPERED: list[Any] = [
    pytest.param(WRONG, wrong_claim_recorded_as_a_take, id="wrong-claim-logged-as-a-take"),
    pytest.param(PHYSICAL, wrong_claim_recorded_as_a_take,
                 id="physical-wrong-claim-logged-as-a-take"),
    pytest.param(WRONG, penalty_in_the_wrong_order, id="penalty-gifts-in-the-wrong-order"),
    pytest.param(JIZO_LOG, penalty_to_a_player_who_is_out, id="penalty-gift-to-a-player-out"),
    pytest.param(PHYSICAL, penalty_to_the_claimer_too, id="physical-penalty-gift-to-the-claimer"),
    pytest.param(JIZO_LOG, handout_in_the_wrong_order, id="jizo-hand-out-in-the-wrong-order"),
    pytest.param(PHYSICAL, handout_in_the_wrong_order,
                 id="physical-jizo-hand-out-in-the-wrong-order"),
    pytest.param(JIZO_LOG, jizo_to_the_wrong_seat, id="jizo-kept-by-its-flipper"),
    pytest.param(JIZO_LOG, jizo_kept_after_its_third_use, id="jizo-handed-on-a-fourth-time"),
    pytest.param(PERSON, race_draw_changed, id="race-draws-changed"),
    pytest.param(LAST_CALL, race_draw_changed, id="race-draws-changed-in-last-call"),
    pytest.param(PERSON, race_winner_swapped, id="race-claim-credited-to-the-other-bot"),
    pytest.param(WRONG, flip_by_the_wrong_seat, id="flip-by-the-wrong-seat"),
    pytest.param(PHYSICAL, flip_by_the_wrong_seat, id="physical-flip-by-the-wrong-seat"),
    pytest.param(PHYSICAL, second_oni_at_a_real_table, id="physical-second-oni"),
    pytest.param(PHYSICAL, jizo_turned_after_it_left, id="physical-jizo-after-it-left"),
    pytest.param(TIE, payment_changed, id="tie-split-odd-chip-paid"),
    pytest.param(ONI_LOG, payment_changed, id="oni-holder-pays-more-than-one"),
    pytest.param(PHYSICAL, final_balances_changed, id="physical-final-balances-changed"),
    pytest.param(LIMIT_20, flip_removed, id="flip-removed"),
    pytest.param(WRONG, shuffle_removed, id="shuffle-after-a-take-removed"),
    pytest.param(PHYSICAL, penalty_removed, id="physical-penalty-removed"),
]


@pytest.mark.parametrize(("source", "tamper"), TAMPERED)
def test_audit_rejects_tampered_kazutori_log_at_the_breaking_event(
        source: str, tamper: Tamper, tmp_path: Path) -> None:
    data = load(source)
    audit_rejects_copy(data, source, tamper(data.header, list(data.events)), tmp_path)


def test_untampered_kazutori_copies_audit_valid(tmp_path: Path) -> None:
    """The copies above are written the same way as these, which stay valid."""
    untampered_copies_audit_valid(KAZUTORI, sources(TAMPERED), tmp_path)
