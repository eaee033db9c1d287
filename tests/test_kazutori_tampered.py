"""Tampered Kazu-Tori logs are rejected at the right event: copies of a seeded bot game and of
a refereed game, each changed in one place, are walked by the engine (what ``audit`` does)
and must stop at the changed event (or the first one it breaks), with the reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kabucli.bots import make
from kabucli.cards import JIZO
from kabucli.engine import Match, make_header, walk
from kabucli.events import End, Event, Pay
from kabucli.games.kazu_tori.rules import (
    GAME,
    Claim,
    Deal,
    Flip,
    Handout,
    KazuToriRules,
    Penalty,
    Race,
    Return,
    Score,
    Shuffle,
)
from kabucli.log import Header, SeatInfo
from kabucli.shuffle import Rng

KINDS = ("sharp", "random", "sharp", "random")


def seeded_game() -> tuple[Header, list[Event]]:
    """A seeded bot game holding every kind of event (the first seed that does)."""
    want = {Deal, Shuffle, Flip, Claim, Race, Penalty, Handout, Return, Score, Pay, End}
    for seed in range(200):
        seats = [SeatInfo(f"P{i}", f"bot:{k}") for i, k in enumerate(KINDS, 1)]
        m = Match(GAME, make_header(GAME, KazuToriRules(), seats, seed))
        bots: dict[int, Any] = {i: make("kazu-tori", k, Rng(seed, f"bot/{i}"))
                                for i, k in enumerate(KINDS, 1)}
        while m.advance().kind != "over":
            ev = GAME.bot_event(m, bots)
            assert ev is not None
            m.submit(ev)
        if want <= {type(e) for e in m.events}:
            return m.header, list(m.events)
    raise AssertionError("no seeded game with every kind of event")


@pytest.fixture(scope="module")
def game() -> tuple[Header, list[Event]]:
    return seeded_game()


def first(events: list[Event], want: Callable[[Event], bool]) -> int:
    return next(i for i, e in enumerate(events) if want(e))


def replaced(events: list[Event], pos: int, ev: Event) -> list[Event]:
    return [*events[:pos], ev, *events[pos + 1:]]


def rejected(header: Header, events: list[Event], pos: int, words: str) -> None:
    """The walk stops at ``pos`` (0-based; the log numbers it pos + 1) naming ``words``."""
    _, violation = walk(GAME, header, events)
    assert violation is not None, "the tampered log walked clean"
    assert violation.index == pos + 1, violation
    assert words in violation.reason, violation


def test_the_untouched_game_walks_clean(game: tuple[Header, list[Event]]) -> None:
    header, events = game
    assert walk(GAME, header, events)[1] is None


def test_a_changed_deal_is_not_what_the_seed_deals(game: tuple[Header, list[Event]]) -> None:
    header, events = game
    deal = events[0]
    assert isinstance(deal, Deal) and deal.piles is not None
    swapped = [deal.piles[1], deal.piles[0], *deal.piles[2:]]
    rejected(header, replaced(events, 0, Deal(deal.sizes, swapped)), 0, "the seed deals")


def test_a_reordered_shuffle_is_not_what_the_seed_deals(game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Shuffle) and len(e.piles[0]) > 2)
    sh = events[pos]
    assert isinstance(sh, Shuffle)
    piles = [list(reversed(sh.piles[0])), *sh.piles[1:]]
    rejected(header, replaced(events, pos, Shuffle(sh.seats, piles)), pos, "the seed deals")


def test_changed_race_draws_are_not_what_the_seed_deals(game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Race))
    race = events[pos]
    assert isinstance(race, Race)
    draws = [d if d < 0 else 999 - d for d in race.draws]
    rejected(header, replaced(events, pos, Race(draws)), pos, "the seed deals")


def test_a_flip_by_the_wrong_seat_is_refused(game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Flip) and e.seat == 2)
    rejected(header, replaced(events, pos, Flip(3)), pos, "p2 flips next, not p3")


def test_a_seeded_flip_naming_a_card_is_refused(game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Flip))
    flip = events[pos]
    assert isinstance(flip, Flip)
    rejected(header, replaced(events, pos, Flip(flip.seat, 7)), pos, "top of the pile")


def test_a_second_claim_by_the_same_seat_is_refused(game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Penalty))
    claim = events[pos - 1]
    assert isinstance(claim, Claim)
    assert isinstance(events[pos + 1], Shuffle)  # the penalty's shuffle, then the claim again
    tampered = [*events[:pos + 2], claim, *events[pos + 2:]]
    rejected(header, tampered, pos + 2, "already claimed")


def test_a_removed_claim_breaks_the_log_at_the_next_event(
        game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Claim) and not isinstance(events[events.index(e)
                                                                                 - 1], Race))
    rejected(header, [*events[:pos], *events[pos + 1:]], pos, "waiting for")


def test_a_changed_penalty_is_not_what_the_engine_computes(
        game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Penalty) and len(e.to) > 1)
    pen = events[pos]
    assert isinstance(pen, Penalty)
    rejected(header, replaced(events, pos, Penalty(pen.seat, pen.to[:-1])), pos,
             "the engine computes")


def test_a_changed_hand_out_is_not_what_the_engine_computes(
        game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Handout))
    ho = events[pos]
    assert isinstance(ho, Handout)
    other = ho.jizo % 4 + 1 if ho.jizo else 1
    rejected(header, replaced(events, pos, Handout(ho.seat, other, ho.to)), pos,
             "the engine computes")


def test_changed_return_counts_are_not_what_the_engine_computes(
        game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Return))
    ret = events[pos]
    assert isinstance(ret, Return)
    counts = [*ret.counts[1:], ret.counts[0]]
    if counts == ret.counts:
        counts = [ret.counts[0] + 1, *ret.counts[1:]]
    rejected(header, replaced(events, pos, Return(counts)), pos, "the engine computes")


def test_a_changed_winner_or_payment_or_balance_is_refused(
        game: tuple[Header, list[Event]]) -> None:
    header, events = game
    pos = first(events, lambda e: isinstance(e, Score))
    sc = events[pos]
    assert isinstance(sc, Score)
    loser = next(p for p in range(1, 5) if p not in sc.winners)
    rejected(header, replaced(events, pos, Score(sc.reason, sc.seat, sc.cards, [loser])), pos,
             "the engine computes")
    pos = first(events, lambda e: isinstance(e, Pay))
    pay = events[pos]
    assert isinstance(pay, Pay)
    rejected(header, replaced(events, pos, Pay(pay.src, pay.dst, pay.amount + 1, pay.why)), pos,
             "the engine computes")
    pos = len(events) - 1
    end = events[pos]
    assert isinstance(end, End)
    rejected(header, replaced(events, pos, End(end.reason, [50] * 4)), pos, "the engine computes")


def test_an_event_after_the_end_is_refused(game: tuple[Header, list[Event]]) -> None:
    header, events = game
    rejected(header, [*events, Flip(1)], len(events), "already over")


# -- a refereed game ------------------------------------------------------------------------------

def refereed() -> tuple[Header, list[Event]]:
    seats = [SeatInfo(f"P{i}") for i in range(1, 5)]
    m = Match(GAME, make_header(GAME, KazuToriRules(), seats, None))
    for move in ("deal", "p1 flip 7", "p2 flip 7", "p3 flip 2", "p4 flip 7", "p1 flip 7",
                 "p2 flip 3", "p3 flip Jizo", "p2 claim", "p4 flip 5"):
        m.advance()
        m.submit(GAME.parse(m.state, move))
    m.advance()
    return m.header, list(m.events)


def test_a_refereed_fifth_seven_is_refused() -> None:
    header, events = refereed()
    assert walk(GAME, header, events)[1] is None
    pos = first(events, lambda e: isinstance(e, Flip) and e.card == 3)
    # four 7s are on the table: p2's 3 changed into a 7 would be a fifth
    rejected(header, replaced(events, pos, Flip(2, 7)), pos, "only 4 copies of 7")


def test_a_refereed_jizo_claim_needs_its_penalty_and_hand_out() -> None:
    header, events = refereed()
    pos = first(events, lambda e: isinstance(e, Penalty))
    rejected(header, [*events[:pos], *events[pos + 1:]], pos,
             "waiting for the wrong claim's penalty")
    pos = first(events, lambda e: isinstance(e, Handout))
    ho = events[pos]
    assert isinstance(ho, Handout) and JIZO not in ho.to
    rejected(header, replaced(events, pos, Handout(ho.seat, ho.jizo, [*ho.to[::-1], 1])), pos,
             "the engine computes")
