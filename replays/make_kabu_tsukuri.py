"""Record the Kabu-Tsukuri games of replays/kabu-tsukuri/ with the real command line.

Each game is named for what it shows. Seeded games between bots take the first seed from 1 up
whose match shows the situation; the search plays the match in the library exactly as
``kabucli play`` does (same header, same bot streams) and reads the situation from the events
(deals, rows turned over, results). The game is then recorded by running ``kabucli play
kabu-tsukuri ... --log FILE`` and the recorded log is checked again. The physical game is
played from the referee script written out below.

    python replays/make_kabu_tsukuri.py            # record the games whose file is missing
    python replays/make_kabu_tsukuri.py --force    # record every game again (new start times)
    python replays/make_kabu_tsukuri.py --list     # say which seed and command each game uses

Recording again changes the ``started`` time in each header, so the replay snapshots must be
refreshed afterwards: ``pytest tests/test_replays.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path

import recording

from kabucli.events import Event, Undo
from kabucli.games.kabu_tsukuri.rules import GAME, Deal, Result, Show, Turn, strength
from kabucli.log import LogData

HERE = Path(__file__).resolve().parent / "kabu-tsukuri"
MAX_SEED = 5000

Check = Callable[[Sequence[Event], dict[str, str]], bool]


# -- what a match shows, read from its events -------------------------------------------

def results(events: Sequence[Event]) -> list[Result]:
    return [e for e in events if isinstance(e, Result)]


def deals(events: Sequence[Event]) -> list[Deal]:
    return [e for e in events if isinstance(e, Deal)]


def nine_cards_each(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """Every hand deals nine cards to each of five players."""
    return all(d.hands is not None and len(d.hands) == 5 and all(len(h) == 9 for h in d.hands)
               for d in deals(events))


def carried_then_taken(row: int) -> Check:
    """Row ``row`` ties, and the next row's winner takes the carried pot with it (after row 3:
    row 1 of the next hand)."""
    def check(events: Sequence[Event], rules: dict[str, str]) -> bool:
        rs = results(events)
        for a, b in pairwise(rs):
            if a.row == row and len(a.best) > 1 and len(b.best) == 1 and b.amount > a.amount:
                return True
        return False
    return check


def won_by(ranking: str, other: str) -> Check:
    """A row won under ``ranking`` by a row that would not win under ``other``."""
    def check(events: Sequence[Event], rules: dict[str, str]) -> bool:
        for turn, res in zip([e for e in events if isinstance(e, Turn)], results(events),
                             strict=True):
            if len(res.best) != 1:
                continue
            win = turn.rows[res.best[0] - 1]
            if any(strength(r, other) > strength(win, other) for r in turn.rows):
                return True
        return False
    return check


def winner_deals(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """The winner of a row 3 deals the next hand and is not the next seat, and a row 3 tie
    keeps the dealer."""
    ds = deals(events)
    threes = [r for r in results(events) if r.row == 3]
    moved = kept = False
    for prev, r, nxt in zip(ds, threes, ds[1:], strict=False):
        if len(r.best) == 1:
            moved = moved or (nxt.dealer == r.best[0] and nxt.dealer != prev.dealer % 3 + 1)
        else:
            kept = kept or nxt.dealer == prev.dealer
    return moved and kept


def all_of(*checks: Check) -> Check:
    return lambda events, rules: all(c(events, rules) for c in checks)


def physical(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """Rows learnt one by one, a tie carried, an undo, and the match finished."""
    return (any(isinstance(e, Show) for e in events) and any(isinstance(e, Undo) for e in events)
            and carried_then_taken(2)(events, rules))


# -- the games ------------------------------------------------------------------------------

PHYSICAL_SCRIPT = """\
# A real table of three, refereed with --physical: no hand is ever typed, each row is learnt
# when it is turned over. p1 deals hand 1; the dealer's next seat (p2) bets and shows first.
deal
bet                      # p2
bet                      # p3
bet                      # p1: the pot is 3
show 5-6-7               # p2: Nobori, Oicho (8)
show 1-10-10             # p3: Doshippin
show 4-4-4               # p1: Arashi; p3's Doshippin takes the pot
p2 bets
p3 bets
p1 bets
show 2-2-2               # p2: Arashi
show 9-9-9               # p3: Arashi
show 1-2-6               # p1: Kabu (9); two Arashi tie, the pot of 3 carries to row 3
bet
bet
bet
show 3-5-7               # p2: Nana-Go-San takes 6
show 8-8-9               # p3: Goke (5)
show 3-3-12              # p1: Oicho (8)
deal                     # hand 2, dealt by p2: p3 first
bet
bet
bet
show 1-2-7               # p3: Buta (0)
show 12-12-11            # a slip of the referee's pen...
undo                     # ...taken back: the log keeps both lines and the correction
show 12-12-12            # p1: Arashi
show 4-7-9               # p2: Raijin; p1's Arashi takes the pot
bet
bet
bet
show 10-11-12            # p3: Nobori, Santa (3)
show 11-10-9             # p1: Kudari, Buta (0)
show 6-6-7               # p2: Kabu (9): the Nobori takes the pot
bet
bet
bet
show 3-4-5               # p3: Nobori, Nizou (2)
show 2-3-4               # p1: Nobori, Kabu (9): the higher digit wins
show 1-1-8               # p2: Buta (0)
"""

Recorded = recording.Recorded[Check]

GAMES: list[Recorded] = [
    Recorded("5p-nine-cards-each.kbl", ("random", "best", "random", "best", "random"),
             {"hands": "2"}, nine_cards_each,
             "5 players: nine cards each, no card set aside"),
    Recorded("3p-tie-carried-to-the-next-row.kbl", ("random", "random", "best"),
             {"hands": "2"}, carried_then_taken(1),
             "3 players: row 1 ties, its pot carries and row 2's winner takes both"),
    Recorded("4p-row-3-tie-carried-into-the-next-hand.kbl", ("best", "best", "best", "best"),
             {"hands": "3"}, carried_then_taken(3),
             "4 players: row 3 ties, the pot carries into the next hand and a row 1 winner "
             "takes it"),
    Recorded("4p-extended-named-row-beats-a-higher-digit.kbl",
             ("best", "random", "best", "random"), {"hands": "2"},
             won_by("extended", "kabu"),
             "4 players, ranking=extended (default): a named row wins over a higher ones digit"),
    Recorded("3p-ranking-kabu.jsonl", ("best", "random", "best"),
             {"hands": "2", "ranking": "kabu"}, won_by("kabu", "extended"),
             "3 players, ranking=kabu, JSON Lines: a row wins on its ones digit over a named "
             "row"),
    Recorded("3p-dealer-winner.kbl", ("best", "best", "random"),
             {"hands": "4", "dealer": "winner"}, winner_deals,
             "3 players, dealer=winner: row 3's winner deals the next hand, a row 3 tie "
             "keeps the dealer"),
    Recorded("3p-physical-match.kbl", ("human", "human", "human"), {"hands": "2"},
             physical,
             "3 players at a real table (--physical): bets and rows typed one by one, a tie "
             "carried, an undo; hands stay unknown",
             physical_script=PHYSICAL_SCRIPT, names=("Aki", "Ben", "Chie")),
]


# -- searching seeds --------------------------------------------------------------------------

def simulate(game: Recorded, seed: int) -> list[Event]:
    """The match ``kabucli play`` would record for ``game`` and ``seed``."""
    match, players = recording.bot_match(GAME, game, seed)
    while (pending := match.advance()).kind != "over":
        seat = pending.seats[0]
        match.submit(players[seat].choose(GAME, match.state, seat))
    return match.events


def fits(game: Recorded, seed: int) -> str | None:
    """None unless the seed's match shows the situation ("": nothing is typed)."""
    return "" if game.check(simulate(game, seed), game.rules) else None


def shows(game: Recorded, data: LogData) -> bool:
    return game.check(data.events, game.rules)


RECORDER = recording.Recorder("kabu-tsukuri", HERE, GAMES, MAX_SEED, fits, shows)


if __name__ == "__main__":
    RECORDER.main(__doc__ or "")
