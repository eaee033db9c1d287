"""The recorded Yatchaba games (replays/yatchaba/): each shows what its name says, read from
its events, and tampered copies made at test time are rejected by ``kabucli audit`` with exit 1
at the first event that breaks a rule, and why. (Every file is also audited, replayed and
snapshotted by tests/test_replays.py.)"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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
    state_before,
    untampered_copies_audit_valid,
)

from kabucli.events import End, Event, Pay
from kabucli.games import event_types
from kabucli.games.yatchaba.rules import (
    BOOK,
    GAME,
    MONTHS,
    PASS_COST,
    Bet,
    Continue,
    Deal,
    GameEnd,
    Guess,
    Pass,
    Result,
    Reveal,
    Stop,
)
from kabucli.ledger import POT
from kabucli.log import LogData, read_log

YATCHABA = Path(__file__).resolve().parent.parent / "replays" / "yatchaba"

FIRST_ROUND = "4p-dealer-right-first-round-takes-all.kbl"
SPLIT = "6p-later-guesser-right-80-20-odd-pot.kbl"
CARRY_2P = "2p-nobody-right-dealer-share-pot-carries.jsonl"
CARRY_WON = "3p-nobody-right-carried-pot-won-next-game.kbl"
PASS_LIMIT = "5p-third-pass-loses-turn-to-guess.kbl"
BOOK_LOG = "3p-book-amounts.kbl"
PHYSICAL = "4p-physical-game.kbl"


def load(name: str) -> LogData:
    return read_log(YATCHABA / name, event_types)


# -- what a log shows, read from its events ----------------------------------------------

@dataclass
class Played:
    """One game of a match as its events tell it; the pot is followed from the bets, the
    passes and the payments out of it, independently of the engine."""

    dealer: int
    start_pot: int
    rounds: list[list[Event]] = field(default_factory=list)  # each from its deal
    results: list[Result] = field(default_factory=list)
    pot_at_end: int = 0  # the pot when the game's last result came
    pays: list[Pay] = field(default_factory=list)
    passes: dict[int, int] = field(default_factory=dict)  # seat -> passes in this game
    end: GameEnd | None = None


def games_of(events: list[Event]) -> list[Played]:
    out: list[Played] = []
    pot = 0
    for ev in events:
        if isinstance(ev, Deal):
            if ev.round == 1:
                out.append(Played(ev.guesser, pot))
            out[-1].rounds.append([])
        if out and out[-1].rounds:
            out[-1].rounds[-1].append(ev)
        if isinstance(ev, Bet):
            pot += ev.amount
        elif isinstance(ev, Pass):
            pot += PASS_COST
            out[-1].passes[ev.seat] = out[-1].passes.get(ev.seat, 0) + 1
        elif isinstance(ev, Pay) and ev.src == POT:
            pot -= ev.amount
            out[-1].pays.append(ev)
        elif isinstance(ev, Result):
            out[-1].results.append(ev)
            out[-1].pot_at_end = pot
        elif isinstance(ev, GameEnd):
            out[-1].end = ev
    return out


def paid(g: Played) -> list[tuple[int, int, str]]:
    return [(p.dst, p.amount, p.why) for p in g.pays]


def nseats(data: LogData) -> int:
    return len(data.header.seats)


# -- the recorded set covers each situation -------------------------------------------------

def test_dealer_right_in_the_first_round_takes_the_whole_pot() -> None:
    data = load(FIRST_ROUND)
    g = games_of(data.events)[0]
    right = g.results[-1]
    assert right.right and right.round == 1 and right.guesser == g.dealer
    assert g.pot_at_end > 0
    assert paid(g) == [(g.dealer, g.pot_at_end, "win")]  # all of it, no dealer's share
    assert g.end is not None and g.end.winner == g.dealer and g.end.carry == 0


def test_later_guesser_right_takes_the_pot_less_the_dealers_20_percent_rounded_down() -> None:
    data = load(SPLIT)
    won = [g for g in games_of(data.events) if g.results[-1].right]
    assert won, f"nobody guesses right in {SPLIT}"
    g = won[0]
    right = g.results[-1]
    pot = g.pot_at_end
    assert right.round > 1 and right.guesser != g.dealer
    assert pot % 2 == 1 and pot % 5 != 0, f"pot {pot}: 20% of it is not a whole number"
    assert paid(g) == [(right.guesser, pot - pot // 5, "win"), (g.dealer, pot // 5, "dealer")]
    assert g.end is not None and g.end.winner == right.guesser and g.end.carry == 0


@pytest.mark.parametrize("name", [CARRY_2P, CARRY_WON])
def test_game_nobody_wins_pays_the_dealer_20_percent_and_carries_the_rest(name: str) -> None:
    data = load(name)
    games = games_of(data.events)
    g, after = games[0], games[1]
    assert not any(r.right for r in g.results)
    assert g.end is not None and g.end.winner == 0
    share = g.pot_at_end // 5
    assert share > 0
    assert paid(g) == [(g.dealer, share, "dealer")]
    assert g.end.carry == g.pot_at_end - share > 0
    # The deal passes to the next seat, and the next game starts with the carried pot.
    assert g.end.dealer == after.dealer == g.dealer % nseats(data) + 1
    assert after.start_pot == g.end.carry


def test_carried_pot_goes_to_a_later_winner() -> None:
    games = games_of(load(CARRY_WON).events)
    wins = [g for g in games if g.end is not None and g.end.winner]
    assert wins, f"no game of {CARRY_WON} is won"
    won = wins[0]
    assert won.start_pot > 0  # it began with pots carried from the games before
    assert sum(amount for _, amount, _ in paid(won)) == won.pot_at_end


def test_pass_beyond_the_limit_loses_the_right_to_guess() -> None:
    data = load(PASS_LIMIT)
    limit = data.header.rules["pass_limit"]
    n = nseats(data)
    g = games_of(data.events)[0]
    guessers = [r.guesser for r in g.results]
    lost = [seat for seat, k in g.passes.items() if k > limit and seat not in guessers]
    assert lost, f"nobody who had still to guess passed more than {limit} times"
    seat = lost[0]
    # Its turn came (a later seat guessed) and it was skipped, after it had passed too often.
    skips = [r for r in g.results
             if r.next and 0 < (seat - r.guesser) % n < (r.next - r.guesser) % n]
    assert skips, f"p{seat} is never skipped for a later seat"
    before = sum(isinstance(e, Pass) and e.seat == seat
                 for rnd in g.rounds[:skips[0].round] for e in rnd)
    assert before > limit


def test_book_schedule_sets_every_bet_amount() -> None:
    data = load(BOOK_LOG)
    assert data.header.rules["amounts"] == "book"
    longest = 0
    for g in games_of(data.events):
        for rnd in g.rounds:
            bets = [e.amount for e in rnd if isinstance(e, Bet)]
            assert bets == list(BOOK[:len(bets)])
            if any(isinstance(e, Continue) for e in rnd):
                longest = max(longest, len(bets))
    assert longest >= 5, "no continued round bets past 12"


def test_other_logs_bet_one_two_three() -> None:
    for path in sorted(YATCHABA.iterdir()):
        if path.suffix not in (".kbl", ".jsonl") or path.name == BOOK_LOG:
            continue
        data = read_log(path, event_types)
        assert data.header.rules["amounts"] == "count"
        for g in games_of(data.events):
            for rnd in g.rounds:
                bets = [e.amount for e in rnd if isinstance(e, Bet)]
                assert bets == list(range(1, len(bets) + 1)), path.name


def test_recorded_set_has_two_players_and_six_or_more() -> None:
    sizes = {nseats(read_log(p, event_types)) for p in YATCHABA.iterdir()
             if p.suffix in (".kbl", ".jsonl")}
    assert 2 in sizes
    assert max(sizes) >= 6


def test_recorded_set_has_a_json_lines_log() -> None:
    assert load(CARRY_2P).fmt == "jsonl"


def test_physical_game_is_whole_with_passes_decisions_and_reveals() -> None:
    data = load(PHYSICAL)
    assert data.header.mode == "physical" and data.header.seed is None
    events = data.events
    assert all(e.cards is None for e in events if isinstance(e, Deal))  # nothing dealt
    for kind in (Pass, Continue, Stop, Reveal, GameEnd):
        assert any(isinstance(e, kind) for e in events), kind.__name__
    g = games_of(events)[0]
    assert g.end is not None and g.results[-1].next == 0  # the game was played out


# -- tampered copies --------------------------------------------------------------------------

# A tampering: the events of a log -> what it changed (see ``tampering.Tampered``).
Tamper = Callable[[list[Event]], Tampered]


def seats_in(events: list[Event]) -> int:
    end = events[-1]
    assert isinstance(end, End)
    return len(end.balances)


def bet_wrong_book_amount(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Bet) and e.amount == BOOK[1])
    bet = events[pos]
    assert isinstance(bet, Bet)
    ev = msgspec.structs.replace(bet, amount=BOOK[1] + 1)
    return (replaced(events, pos, ev), pos + 1,
            f"the next amount of the sequence is {BOOK[1]}, not {BOOK[1] + 1}")


def bet_that_does_not_rise(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Bet) and e.amount == 3)
    bet = events[pos]
    assert isinstance(bet, Bet)
    ev = msgspec.structs.replace(bet, amount=2)
    return replaced(events, pos, ev), pos + 1, "the next amount of the sequence is 3, not 2"


def guesser_passes(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Guess)) + 1
    bet = events[pos]
    assert isinstance(bet, Bet)
    return (replaced(events, pos, Pass(bet.seat)), pos + 1,
            f"p{bet.seat} is the guesser, and the guesser cannot pass")


def pass_by_the_wrong_seat(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Pass))
    pas = events[pos]
    assert isinstance(pas, Pass)
    other = pas.seat % seats_in(events) + 1
    return (replaced(events, pos, Pass(other)), pos + 1, f"it is not p{other}'s turn")


def second_pass_in_a_round(events: list[Event]) -> tuple[list[Event], int, str]:
    """A seat that passed in a lap of this round passes again in the next lap."""
    pos = first(events, lambda e: isinstance(e, Continue)) + 1
    start = max(i for i in range(pos) if isinstance(events[i], Deal))
    out = next(e for e in events[start:pos] if isinstance(e, Pass))
    assert isinstance(out, Pass)
    return ([*events[:pos], Pass(out.seat), *events[pos:]], pos + 1,
            f"it is not p{out.seat}'s turn")


def _lost_and_skipped(events: list[Event]) -> tuple[int, int]:
    """The seat that passed beyond the limit and the position of the result skipping it."""
    n = seats_in(events)
    for pos, ev in enumerate(events):
        if isinstance(ev, Result) and ev.next:
            s = state_before(GAME, load(PASS_LIMIT).header, events, pos)
            skipped = [(ev.guesser + k - 1) % n + 1 for k in range(1, (ev.next - ev.guesser) % n)]
            lost = [seat for seat in skipped if not s.may_guess(seat)]
            if lost:
                return lost[0], pos
    raise AssertionError(f"{PASS_LIMIT} skips nobody who lost the right to guess")


def guess_by_a_seat_that_lost_the_right(events: list[Event]) -> tuple[list[Event], int, str]:
    seat, at = _lost_and_skipped(events)
    pos = first(events[at:], lambda e: isinstance(e, Guess)) + at
    guess = events[pos]
    assert isinstance(guess, Guess) and guess.seat != seat
    ev = msgspec.structs.replace(guess, seat=seat)
    return replaced(events, pos, ev), pos + 1, f"it is not p{seat}'s turn"


def result_hands_the_guess_to_a_seat_that_lost_it(
        events: list[Event]) -> tuple[list[Event], int, str]:
    seat, pos = _lost_and_skipped(events)
    res = events[pos]
    assert isinstance(res, Result)
    ev = msgspec.structs.replace(res, next=seat)
    return replaced(events, pos, ev), pos + 1, f"the engine computes {GAME.notate(res)!r}"


def stop_by_the_wrong_seat(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, Stop))
    stop = events[pos]
    assert isinstance(stop, Stop)
    other = stop.seat % seats_in(events) + 1
    return replaced(events, pos, Stop(other)), pos + 1, f"it is not p{other}'s turn"


def seeded_reveal_made_to_match_the_guess(events: list[Event]) -> tuple[list[Event], int, str]:
    """The cards of a wrong guess 'turned over' as the months that were guessed."""
    pos = first(events, lambda e: isinstance(e, Result) and not e.right) - 1
    reveal = events[pos]
    guess = next(e for e in reversed(events[:pos]) if isinstance(e, Guess))
    assert isinstance(reveal, Reveal) and reveal.months != guess.months
    return (replaced(events, pos, Reveal(list(guess.months))), pos + 1,
            f"the seed deals {GAME.notate(reveal)!r}")


def fifth_card_of_a_month(events: list[Event]) -> tuple[list[Event], int, str]:
    """At a real table, a card turned over after all four of its month are face up."""
    for pos, ev in enumerate(events):
        if isinstance(ev, Reveal):
            left = state_before(GAME, load(PHYSICAL).header, events, pos).left
            gone = [m for m in range(1, MONTHS + 1) if left[m] == 0 and m not in ev.months]
            if gone:
                months = sorted([gone[0], *ev.months[1:]])
                return (replaced(events, pos, Reveal(months)), pos + 1,
                        "cannot be face down: the deck has 4 and 4 already face up")
    raise AssertionError(f"{PHYSICAL} turns nothing over after a month is all face up")


def split_rounded_up(events: list[Event]) -> tuple[list[Event], int, str]:
    """The 80/20 split with the dealer's 20% rounded up instead of down."""
    pos = first(events, lambda e: isinstance(e, Pay) and e.why == "win")
    win, share = events[pos], events[pos + 1]
    assert isinstance(win, Pay) and isinstance(share, Pay) and share.why == "dealer"
    pot = win.amount + share.amount
    assert pot % 5 != 0
    up = -(-pot // 5)
    changed = [*events[:pos], msgspec.structs.replace(win, amount=pot - up),
               msgspec.structs.replace(share, amount=up), *events[pos + 2:]]
    return changed, pos + 1, f"the engine computes {GAME.notate(win)!r}"


def dealer_share_rounded_up(events: list[Event]) -> tuple[list[Event], int, str]:
    """Nobody right: the dealer's 20% rounded up, the carry one chip less."""
    pos = first(events, lambda e: isinstance(e, Pay) and e.why == "dealer")
    share, end = events[pos], events[pos + 1]
    assert isinstance(share, Pay) and isinstance(end, GameEnd)
    pot = share.amount + end.carry
    assert pot % 5 != 0
    up = -(-pot // 5)
    changed = [*events[:pos], msgspec.structs.replace(share, amount=up),
               msgspec.structs.replace(end, carry=pot - up), *events[pos + 2:]]
    return changed, pos + 1, f"the engine computes {GAME.notate(share)!r}"


def carry_changed(events: list[Event]) -> tuple[list[Event], int, str]:
    pos = first(events, lambda e: isinstance(e, GameEnd) and e.carry > 0)
    end = events[pos]
    assert isinstance(end, GameEnd)
    ev = msgspec.structs.replace(end, carry=end.carry + 1)
    return replaced(events, pos, ev), pos + 1, f"the engine computes {GAME.notate(end)!r}"


def event_removed(events: list[Event]) -> tuple[list[Event], int, str]:
    # The middle one of the bets that another bet follows: without it, the next seat bets
    # out of turn.
    bets = [i for i in range(len(events) - 1)
            if isinstance(events[i], Bet) and isinstance(events[i + 1], Bet)]
    pos = bets[len(bets) // 2]
    follower = events[pos + 1]
    assert isinstance(follower, Bet)
    return removed(events, pos), pos + 1, f"it is not p{follower.seat}'s turn"


TAMPERED: list[Any] = [
    pytest.param(BOOK_LOG, bet_wrong_book_amount, id="book-bet-of-the-wrong-amount"),
    pytest.param(SPLIT, bet_that_does_not_rise, id="count-bet-that-does-not-rise"),
    pytest.param(SPLIT, guesser_passes, id="pass-by-the-guesser"),
    pytest.param(CARRY_WON, pass_by_the_wrong_seat, id="pass-by-the-wrong-seat"),
    pytest.param(SPLIT, second_pass_in_a_round, id="second-pass-by-a-seat-out-of-the-round"),
    pytest.param(PASS_LIMIT, guess_by_a_seat_that_lost_the_right,
                 id="guess-by-a-seat-that-lost-the-right"),
    pytest.param(PASS_LIMIT, result_hands_the_guess_to_a_seat_that_lost_it,
                 id="result-names-a-seat-that-lost-the-right-as-next-guesser"),
    pytest.param(SPLIT, stop_by_the_wrong_seat, id="stop-by-the-wrong-seat"),
    pytest.param(PHYSICAL, stop_by_the_wrong_seat, id="physical-stop-by-the-wrong-seat"),
    pytest.param(CARRY_2P, seeded_reveal_made_to_match_the_guess,
                 id="seeded-reveal-changed-to-the-guess"),
    pytest.param(PHYSICAL, fifth_card_of_a_month, id="physical-fifth-card-of-a-month"),
    pytest.param(SPLIT, split_rounded_up, id="80-20-split-rounded-up"),
    pytest.param(PHYSICAL, split_rounded_up, id="physical-80-20-split-rounded-up"),
    pytest.param(CARRY_WON, dealer_share_rounded_up, id="nobody-right-dealer-share-rounded-up"),
    pytest.param(CARRY_2P, carry_changed, id="carried-pot-changed"),
    pytest.param(BOOK_LOG, event_removed, id="event-removed-from-the-middle"),
]


@pytest.mark.parametrize(("source", "tamper"), TAMPERED)
def test_audit_rejects_tampered_yatchaba_log_at_the_breaking_event(
        source: str, tamper: Tamper, tmp_path: Path) -> None:
    data = load(source)
    audit_rejects_copy(data, source, tamper(list(data.events)), tmp_path)


def test_untampered_yatchaba_copies_audit_valid(tmp_path: Path) -> None:
    """The copies above are written the same way as these, which stay valid."""
    untampered_copies_audit_valid(YATCHABA, sources(TAMPERED), tmp_path)
