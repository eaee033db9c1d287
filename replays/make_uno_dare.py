"""Record the Uno Dare games of replays/uno-dare/ with the real command line.

Each game is named for what it shows. Seeded games between bots take the first seed from 1 up
whose match shows the situation within a size bound; the search plays the match in the
library exactly as ``kabucli play`` does (the same session code: header, bot streams, races).
The game is then recorded by running ``kabucli play uno-dare ... --log FILE`` and the recorded
log is checked again. The physical game is played from the referee script written out below.

    python replays/make_uno_dare.py            # record the games whose file is missing
    python replays/make_uno_dare.py --force    # record every game again (new start times)
    python replays/make_uno_dare.py --list     # say which seed and command each game uses

Recording again changes the ``started`` time in each header, so the replay snapshots must be
refreshed afterwards: ``pytest tests/test_replays.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import recording

from kabucli.engine import walk
from kabucli.events import End, Event
from kabucli.games.uno_dare.rules import (
    DARE,
    GAME,
    REVERSE,
    SYMBOL,
    WILD_DARE,
    Answer,
    Catch,
    Deal,
    Draw,
    Name,
    Play,
    Race,
    Reshuffle,
    Show,
)
from kabucli.log import Header, LogData
from kabucli.session import start

HERE = Path(__file__).resolve().parent / "uno-dare"
MAX_SEED = 3000

Check = Callable[[Header, Sequence[Event]], bool]


# -- what a match shows, read from its events -------------------------------------------

def has(kind: type[Event], test: Callable[[Event], bool] = lambda ev: True) -> Check:
    return lambda header, events: any(type(e) is kind and test(e) for e in events)


def reverse_replays_the_player(header: Header, events: Sequence[Event]) -> bool:
    """With two players a Reverse (not the first discard) lets its player move again."""
    moves = [e for e in events if type(e) in (Play, Draw)]
    return len(header.seats) == 2 and any(
        type(a) is Play and SYMBOL[a.card] == REVERSE and a.seat == b.seat  # type: ignore[attr-defined]
        for a, b in pairwise(moves))


def first_card(symbol: int) -> Check:
    return has(Deal, lambda ev: SYMBOL[ev.up] == symbol)  # type: ignore[attr-defined]


def answer(word: str) -> Check:
    return has(Answer, lambda ev: ev.answer == word)  # type: ignore[attr-defined]


def missed_uno_not_caught(header: Header, events: Sequence[Event]) -> bool:
    """A player down to one card without a call, and the next move made before any catch."""
    found = []

    def step(index: int, ev: Event, match: object) -> None:
        if getattr(match, "state").missed:  # noqa: B009 (the engine's state is untyped here)
            found.append(index)

    walk(GAME, header, events, step)
    return bool(found)


def all_of(*checks: Check) -> Check:
    return lambda header, events: all(c(header, events) for c in checks)


# -- the games ------------------------------------------------------------------------------

@dataclass
class Recorded(recording.Recorded[Check]):
    """One recorded game (see ``recording.Recorded``), at most ``max_events`` events long."""

    max_events: int = 900


PHYSICAL_SCRIPT = """\
# A real table of three, refereed with --physical: hands are never typed, each card is
# learnt as it is shown. p1 deals; the player after the dealer (p2) starts.
deal R5            # the red 5 is turned up
p2 R7
p3 R3
p1 draw            # p1 draws an unknown card...
R1                 # ...and plays it at once: it was the red 1
p2 RS              # a Skip: p3 misses the turn
p1 R9
p2 RD2             # red Dare #2 hits p3
decline            # p3 draws 2 instead; dare_skips: p1 plays next
p1 R4
p2 Y4
p3 Y8
p1 Y2
p2 WD9 green       # Wild Dare #9 names green and hits p3
try
failed             # the table says p3 did not do it: p3 draws 2
p1 G2
p2 G6 uno          # p2's next-to-last card, with the UNO call
p3 GR              # a Reverse: play turns round, p2 is next
p2 G0              # p2's last card wins the round
p1 shows B1-B2-YS  # the others show what they hold, and the program scores it
p3 shows B7-B8-Y9-GS-WD10-R0-BR-YD3
"""

GAMES: list[Recorded] = [
    Recorded("2p-reverse-acts-as-skip.kbl", ("strong", "random"), {"target": "60"},
             reverse_replays_the_player,
             "2 players: a Reverse acts as a Skip, its player moves again", max_events=500),
    Recorded("3p-first-card-dare.kbl", ("random", "strong", "strong"), {"target": "60"},
             first_card(DARE), "3 players: a Dare turned up first hits the first player",
             max_events=500),
    Recorded("3p-first-card-wild-dare.kbl", ("strong", "random", "strong"), {"target": "60"},
             all_of(first_card(WILD_DARE), has(Name)),
             "3 players: a Wild Dare turned up first: the first player names the color and "
             "is hit", max_events=500),
    Recorded("4p-declined-and-failed-dares.kbl", ("random", "strong", "random", "strong"),
             {"target": "60", "dares": "daredevil"}, all_of(answer("decline"), answer("failed")),
             "4 players, dares=daredevil: a dare declined (draw 2) and a dare tried and "
             "failed (draw 2)", max_events=500),
    Recorded("4p-missed-uno-caught-in-a-race.kbl", ("random", "strong", "random", "strong"),
             {"target": "60"}, all_of(has(Catch), has(Race)),
             "4 players: a missing UNO call caught before the next move; several bots catch "
             "at once and a recorded race decides who", max_events=600),
    Recorded("3p-missed-uno-too-late.kbl", ("random", "random", "random"), {"target": "60"},
             missed_uno_not_caught,
             "3 players: a missing UNO call nobody catches before the next move: too late, "
             "the player keeps their card", max_events=500),
    Recorded("2p-reshuffle-of-discards.kbl", ("random", "random"), {"target": "60"},
             has(Reshuffle), "2 players: the draw pile runs out and the discards under the "
             "top card are shuffled into a new one", max_events=700),
    Recorded("3p-scoring-lowest.jsonl", ("strong", "random", "strong"),
             {"target": "100", "scoring": "lowest", "dare_skips": "false"}, has(End),
             "3 players, scoring=lowest, dare_skips=false, JSON Lines: each player scores "
             "their own hand; when one reaches 100 the lowest score wins", max_events=900),
    Recorded("3p-physical-round.kbl", ("human", "human", "human"), {"target": "1"},
             all_of(has(Show), answer("decline"), answer("failed")),
             "3 players at a real table (--physical): hands known only by size, a card "
             "drawn and played at once, a Skip, a dare declined, a Wild Dare tried and "
             "failed, UNO called with the card, a Reverse; the hands shown and scored",
             physical_script=PHYSICAL_SCRIPT, names=("Aki", "Ben", "Chie")),
]


# -- searching seeds --------------------------------------------------------------------------

def fits(game: Recorded, seed: int) -> str | None:
    """None unless the seed's match ends within the bound and shows the situation."""
    rules = recording.house_rules(GAME, game.rules)
    sess = start(GAME, rules, recording.seat_infos(game.seats), seed, None, None)
    sess.run_bots()
    m = sess.match
    if m.over and len(m.events) <= game.max_events and game.check(m.header, m.events):
        return ""
    return None


# -- recording ----------------------------------------------------------------------------------

def shows(game: Recorded, data: LogData) -> bool:
    return game.check(data.header, data.events)


RECORDER = recording.Recorder("uno-dare", HERE, GAMES, MAX_SEED, fits, shows)


if __name__ == "__main__":
    RECORDER.main(__doc__ or "")
