"""Uno Dare's bots do what ``kabucli rules uno-dare`` says they do: ``strong`` keeps its Wild
Dares, names the color it holds most of, hits a player close to going out, never forgets UNO
and catches; ``random`` plays any legal move, forgets UNO sometimes; strong beats random."""

from __future__ import annotations

from collections import Counter

import pytest
from matchtools import bot_match

from kabucli.cards import UNKNOWN, UNO_DARE_108
from kabucli.engine import Match, make_header
from kabucli.errors import BotError
from kabucli.games.uno_dare.bots import RandomBot, StrongBot, most_held
from kabucli.games.uno_dare.rules import (
    GAME,
    Answer,
    Deal,
    Draw,
    Keep,
    Name,
    Play,
    UnoDareRules,
    UnoState,
)
from kabucli.log import SeatInfo
from kabucli.shuffle import Rng

DECK = UNO_DARE_108


def cards(text: str) -> list[int]:
    return DECK.parse_many(text.split())


def state(hands: list[str], up: str, pile: str = "Y1 Y2 Y3 Y4") -> UnoState:
    """A seeded state right after a deal of these hands (p2 plays first)."""
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, len(hands) + 1)]
    m = Match(GAME, make_header(GAME, UnoDareRules(), seats, 1))
    m._commit(Deal(1, 1, DECK.parse(up), [cards(h) for h in hands], cards(pile)))
    s: UnoState = m.state
    return s


def test_most_held_is_the_color_with_the_most_cards() -> None:
    assert most_held(cards("R1 G2 G3 B4 WD9")) == 2
    assert most_held(cards("WD9 WD10")) == 0


def test_strong_keeps_its_wild_dare_while_another_card_matches_and_nobody_is_close() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "G1 WD9 B2 B3 B4", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G5")
    ev = StrongBot(Rng(1)).choose(GAME, s, 2)
    assert ev == Play(2, DECK.parse("G1"))


def test_strong_plays_a_dare_on_a_next_player_close_to_going_out() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "G1 GD5 B2 B3 B4", "Y1 Y2"], "G5")
    ev = StrongBot(Rng(1)).choose(GAME, s, 2)
    assert ev == Play(2, DECK.parse("GD5"))


def test_strong_plays_a_dare_on_a_next_player_holding_two_cards_before_its_own_color() -> None:
    """A next player with two cards is close to going out: the dare goes on it even when a
    card of the color the bot holds most of matches; with three cards it does not."""
    s = state(["R1 R2 R3 R4 R6 R7 R8", "GD5 B5 B2 B3 B4", "Y1 Y2"], "G5")
    assert StrongBot(Rng(1)).choose(GAME, s, 2) == Play(2, DECK.parse("GD5"))
    s = state(["R1 R2 R3 R4 R6 R7 R8", "GD5 B5 B2 B3 B4", "Y1 Y2 Y3"], "G5")
    assert StrongBot(Rng(1)).choose(GAME, s, 2) == Play(2, DECK.parse("B5"))


def test_strong_plays_its_highest_scoring_card_of_the_color_it_holds_most_of() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "G1 G9 G3 B4 B6", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G5")
    assert StrongBot(Rng(1)).choose(GAME, s, 2) == Play(2, DECK.parse("G9"))
    s = state(["R1 R2 R3 R4 R6 R7 R8", "G1 B9 B3 B4 B6", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G9")
    assert StrongBot(Rng(1)).choose(GAME, s, 2) == Play(2, DECK.parse("B9"))


def test_strong_names_the_color_it_holds_most_of() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "WD9 B2 B3 G4", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "R5")
    ev = StrongBot(Rng(1)).choose(GAME, s, 2)
    assert ev == Play(2, DECK.parse("WD9"), 3)
    s = state(["R1 R2 R3 R4 R6 R7 R8", "Y2 B2 B3 G4 R9 RS R0", "Y1 Y3 Y4 Y5 Y6 Y7 Y8"],
              "WD12")
    assert StrongBot(Rng(1)).choose(GAME, s, 2) == Name(2, 0)


def test_strong_never_forgets_uno_and_always_catches() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "G1 B2", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G5")
    bot = StrongBot(Rng(1))
    assert bot.choose(GAME, s, 2) == Play(2, DECK.parse("G1"), None, True)
    assert all(bot.catches(s, 1) for _ in range(64))  # every time, not by chance


def test_strong_tries_every_dare_and_draws_when_nothing_matches() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "B1 B2", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "GD5")
    bot = StrongBot(Rng(1))
    assert bot.choose(GAME, s, 2) == Answer(2, "try")
    s = state(["R1 R2 R3 R4 R6 R7 R8", "B1 B2", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G5")
    assert bot.choose(GAME, s, 2) == Draw(2)


def test_random_forgets_uno_sometimes_and_catches_sometimes() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G5")
    bot = RandomBot(Rng(3))
    calls = [bot.choose(GAME, s, 2) for _ in range(200)]
    plays = [e for e in calls if type(e) is Play]
    assert {e.uno for e in plays} == {True, False}
    assert any(type(e) is Draw for e in calls)
    assert {bot.catches(s, 1) for _ in range(50)} == {True, False}


def test_random_forgets_uno_one_time_in_four_and_catches_half_the_time() -> None:
    """The rates ``kabucli rules uno-dare`` gives for ``random`` (forgets UNO one time in
    four, catches a missing call half the time), not just "sometimes"."""
    s = state(["R1 R2 R3 R4 R6 R7 R8", "G1 G2", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G5")
    bot = RandomBot(Rng(11))
    plays = [e for e in (bot.choose(GAME, s, 2) for _ in range(1600)) if type(e) is Play]
    forgot = sum(not e.uno for e in plays)
    assert 0.19 * len(plays) <= forgot <= 0.31 * len(plays), (forgot, len(plays))
    caught = sum(bot.catches(s, 1) for _ in range(800))
    assert 340 <= caught <= 460, caught


def test_a_bots_dare_is_judged_done_by_its_daring_8_in_16_for_random_12_for_strong() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "G1 G2 B3", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G5")
    s.phase = "verdict"  # the bot's dare tried: its verdict is a draw by its daring
    for bot, want in ((RandomBot(Rng(12)), 0.5), (StrongBot(Rng(13)), 0.75)):
        done = sum(bot.choose(GAME, s, 2) == Answer(2, "done") for _ in range(3200))
        assert abs(done - want * 3200) <= 100, (type(bot).__name__, done)


def test_random_names_any_of_the_four_colors_for_a_wild_dare_it_plays() -> None:
    s = state(["R1 R2 R3 R4 R6 R7 R8", "WD9 B2 B3 B4", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "R5")
    bot = RandomBot(Rng(14))
    plays = [e for e in (bot.choose(GAME, s, 2) for _ in range(400)) if type(e) is Play]
    assert {e.card for e in plays} == {DECK.parse("WD9")}
    named = Counter(e.color for e in plays)
    assert set(named) == {0, 1, 2, 3} and min(named.values()) >= len(plays) // 8, named


def test_random_plays_the_card_drawn_but_keeps_it_one_time_in_8() -> None:
    """What the rules page says of ``random`` after a draw (it said "plays or keeps the card
    at random", as if half and half)."""
    s = state(["R1 R2 R3 R4 R6 R7 R8", "B1 B2 B3 B4 B6 B7 B8", "Y1 Y2 Y3 Y4 Y6 Y7 Y8"], "G5",
              "G9")
    GAME.apply(s, Draw(2))
    assert s.phase == "drawn" and s.drawn == DECK.parse("G9")
    bot = RandomBot(Rng(5))
    moves = [bot.choose(GAME, s, 2) for _ in range(800)]
    keeps = sum(type(e) is Keep for e in moves)
    assert all(e == Play(2, DECK.parse("G9")) for e in moves if type(e) is not Keep)
    assert 60 <= keeps <= 140  # one in 8 of 800 is 100


def test_every_move_a_bot_chooses_is_legal() -> None:
    for kind in ("random", "strong"):
        for seed in range(5):
            m, bots = bot_match(GAME, UnoDareRules(target=60), {1: kind, 2: kind, 3: kind}, seed)
            while m.advance().kind != "over":
                move = GAME.bot_move(m, bots)
                assert move is not None
                assert m.why_not(move[0]) is None, GAME.notate(move[0])
                m.submit(move[0])


def test_a_bot_cannot_play_a_hand_nobody_has_seen() -> None:
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, 4)]
    m = Match(GAME, make_header(GAME, UnoDareRules(), seats, None))
    m.submit(Deal(1, 1, DECK.parse("R5")))
    assert m.state.hands[2] == [UNKNOWN] * 7
    with pytest.raises(BotError, match="face down"):
        StrongBot(Rng(1)).choose(GAME, m.state, 2)


def test_strong_beats_random() -> None:
    wins = 0
    for seed in range(30):
        m, bots = bot_match(GAME, UnoDareRules(target=100), {1: "strong", 2: "random"}, seed)
        while m.advance().kind != "over":
            move = GAME.bot_move(m, bots)
            assert move is not None
            m.accept_trusted(move[0])
        out = GAME.outcome(m.state)
        assert out is not None
        wins += out["winners"] == ["p1"]
    assert wins >= 24


class _SaysDone:
    """A bot of the user's (untrusted, as a program or a py: class is): at any verdict it
    would say its dare was done; else the last legal move."""

    def __init__(self, daring: int | None = None) -> None:
        self.asked: list[str] = []
        if daring is not None:
            self.daring = daring

    def choose(self, game: object, s: UnoState, seat: int) -> object:
        self.asked.append(s.phase)
        if s.phase == "verdict":
            return Answer(seat, "done")
        if s.phase == "hit":
            return Answer(seat, "try")  # it tries every dare
        return GAME.legal(s, seat)[-1]


def _verdicts(seed: int, bot: _SaysDone) -> list[str]:
    """The verdicts on p1's dares in a seeded match of ``bot`` (p1) against StrongBot."""
    seats = [SeatInfo("p1", "bot:cmd:mine"), SeatInfo("p2", "bot:strong")]
    m = Match(GAME, make_header(GAME, UnoDareRules(target=150), seats, seed))
    bots = {1: bot, 2: StrongBot(Rng(seed, "bot/2"))}
    while m.advance().kind != "over":
        ev = GAME.bot_event(m, bots)
        assert ev is not None
        m.submit(ev)
    return [e.answer for e in m.events
            if type(e) is Answer and e.seat == 1 and e.answer in ("done", "failed")]


def test_the_table_judges_a_user_bots_dare_not_the_bot() -> None:
    # a program said 'done' at every verdict and kabucli took its word, a free edge over the
    # built-in bots, whose dares fail by chance (probe AB); the rules have the table judge
    bots = [_SaysDone() for _ in range(8)]
    said = [_verdicts(seed, bot) for seed, bot in enumerate(bots, 1)]
    assert all("hit" in b.asked and "verdict" not in b.asked for b in bots)  # never its judge
    got = [v for vs in said for v in vs]
    assert got.count("done") and got.count("failed")  # by chance: 8 in 16 for a program
    assert said == [_verdicts(seed, _SaysDone()) for seed in range(1, 9)]  # from the seed
    # a py: class's own profile is its chance in 16
    assert set(v for seed in range(1, 5) for v in _verdicts(seed, _SaysDone(16))) == {"done"}
    assert set(v for seed in range(1, 5) for v in _verdicts(seed, _SaysDone(0))) == {"failed"}
