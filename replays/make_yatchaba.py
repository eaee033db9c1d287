"""Record the Yatchaba games of replays/yatchaba/ with the real command line.

Each game is named for what it shows. Seeded games between bots take the first seed from 1 up
whose match shows the situation; the search plays the match in the library exactly as
``kabucli play`` does (same header, same bot streams) and reads the situation from the events
(results, payments, the ends of games, bets and passes). The game is then recorded by running
``kabucli play yatchaba ... --log FILE`` and the recorded log is checked again. The physical
game is played from the referee script written out below.

    python replays/make_yatchaba.py            # record the games whose file is missing
    python replays/make_yatchaba.py --force    # record every game again (new start times)
    python replays/make_yatchaba.py --list     # say which seed and command each game uses

Recording again changes the ``started`` time in each header, so the replay snapshots must be
refreshed afterwards: ``pytest tests/test_replays.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import recording

from kabucli.events import Event, Pay
from kabucli.games.yatchaba.rules import (
    BOOK,
    GAME,
    PASS_COST,
    Bet,
    Continue,
    Deal,
    GameEnd,
    Pass,
    Result,
    Reveal,
    Stop,
)
from kabucli.ledger import POT
from kabucli.log import LogData

HERE = Path(__file__).resolve().parent / "yatchaba"
MAX_SEED = 20000

Check = Callable[[Sequence[Event], dict[str, str]], bool]


# -- what a match shows, read from its events -------------------------------------------

@dataclass
class Played:
    """One game of a match as its events tell it."""

    dealer: int
    results: list[Result] = field(default_factory=list)
    pot: int = 0  # the pot when the game's last result came
    pays: list[Pay] = field(default_factory=list)
    end: GameEnd | None = None
    passes: list[tuple[Pass, int]] = field(default_factory=list)  # (pass, the seat's count)
    skipped: list[tuple[int, Result]] = field(default_factory=list)  # (seat, result)
    rounds: list[list[Event]] = field(default_factory=list)  # each from its deal


def played(events: Sequence[Event], seats: int) -> list[Played]:
    """The games of a match, with the pot followed from bets, passes and payments."""
    out: list[Played] = []
    pot = 0
    count: dict[int, int] = {}
    for ev in events:
        if isinstance(ev, Deal):
            if ev.round == 1:
                out.append(Played(ev.guesser))
                count = {}
            out[-1].rounds.append([])
        if out and out[-1].rounds:
            out[-1].rounds[-1].append(ev)
        if isinstance(ev, Bet):
            pot += ev.amount
        elif isinstance(ev, Pass):
            pot += PASS_COST
            count[ev.seat] = count.get(ev.seat, 0) + 1
            out[-1].passes.append((ev, count[ev.seat]))
        elif isinstance(ev, Pay) and ev.src == POT:
            pot -= ev.amount
            out[-1].pays.append(ev)
        elif isinstance(ev, Result):
            g = out[-1]
            g.results.append(ev)
            g.pot = pot
            if not ev.right:
                stop = ev.next or g.dealer
                seat = ev.guesser % seats + 1
                while seat != stop:
                    g.skipped.append((seat, ev))
                    seat = seat % seats + 1
        elif isinstance(ev, GameEnd):
            out[-1].end = ev
    return out


def seats_of(rules: dict[str, str]) -> int:
    return int(rules["players"])


def dealer_takes_all(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """The dealer guesses right in the first round and takes the whole pot."""
    for g in played(events, seats_of(rules)):
        r = g.results[-1]
        if r.right and r.round == 1 and len(g.pays) == 1 and g.pays[0].dst == g.dealer \
                and g.pays[0].amount == g.pot:
            return True
    return False


def split_80_20(odd: bool) -> Check:
    """A later guesser is right: the dealer gets pot // 5, the guesser the rest; with ``odd``
    the pot is odd and not a multiple of 5, so the 20% is rounded down."""
    def check(events: Sequence[Event], rules: dict[str, str]) -> bool:
        for g in played(events, seats_of(rules)):
            r = g.results[-1]
            share = g.pot // 5
            if (r.right and r.round > 1 and share > 0
                    and [(p.dst, p.amount) for p in g.pays]
                    == [(r.guesser, g.pot - share), (g.dealer, share)]
                    and (not odd or (g.pot % 2 == 1 and g.pot % 5 != 0))):
                return True
        return False
    return check


def nobody_right_carry(then_won: bool) -> Check:
    """A game nobody wins: the dealer takes pot // 5 (more than 0) and the rest carries into
    a next game; with ``then_won`` a later game of the match is won."""
    def check(events: Sequence[Event], rules: dict[str, str]) -> bool:
        games = played(events, seats_of(rules))
        for i, g in enumerate(games[:-1]):
            share = g.pot // 5
            if (g.end is not None and g.end.winner == 0 and share > 0
                    and [(p.dst, p.amount) for p in g.pays] == [(g.dealer, share)]
                    and g.end.carry == g.pot - share > 0 and g.end.dealer != 0
                    and (not then_won or any(x.end and x.end.winner for x in games[i + 1:]))):
                return True
        return False
    return check


def loses_right_to_guess(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """A seat passes more than ``pass_limit`` times in a game before its turn to guess comes,
    and is skipped when it comes; a later seat guesses instead."""
    limit = int(rules.get("pass_limit", "2"))
    for g in played(events, seats_of(rules)):
        over = {p.seat for p, k in g.passes if k > limit}
        if any(seat in over and r.next for seat, r in g.skipped):
            return True
    return False


def book_laps(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """``amounts=book``: a round whose bets go past 12 (the fourth amount) over a continued
    lap."""
    for g in played(events, seats_of(rules)):
        for rnd in g.rounds:
            bets = [e.amount for e in rnd if isinstance(e, Bet)]
            if (bets == list(BOOK[:len(bets)]) and len(bets) >= 5
                    and any(isinstance(e, Continue) for e in rnd)):
                return True
    return False


def all_of(*checks: Check) -> Check:
    return lambda events, rules: all(c(events, rules) for c in checks)


def physical_game(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """A whole game with passes, a continue, a stop and reveals."""
    kinds = {type(e) for e in events}
    return {Pass, Continue, Stop, Reveal, GameEnd} <= kinds


# -- the games ------------------------------------------------------------------------------

class Recorded(recording.Recorded[Check]):
    """One recorded game (see ``recording.Recorded``); ``human`` seats are at a real table."""


PHYSICAL_SCRIPT = """\
# A real table of four, refereed with --physical: the program never sees a card until it is
# turned over. One game, dealt by p1 (Aki), who guesses first.
deal                # round 1: Aki lays three cards face down
guess 3 3 8         # Aki names Mar, Mar, Aug
bet                 # Aki 1
bet                 # Ben 2
pass                # Chie passes (1 chip; her first pass of the game)
bet                 # Dai 3
continue            # Dai, the last of the lap still betting, asks for another lap
bet                 # Aki 4
bet                 # Ben 5
bet                 # Dai 6
stop                # Dai stops: the cards are turned over
reveal 3b 3r 11     # two Marches named by card, a November by month: wrong
deal                # round 2: Ben guesses
guess 2 5 9
bet                 # Ben 1
pass                # Chie (her second pass)
pass                # Dai
pass                # Aki: only the guesser is left betting, the round stops by itself
reveal 3 3 9        # the last two Marches: all four are face up now
deal                # round 3: Chie guesses
guess 1 1 8
bet                 # Chie 1
bet                 # Dai 2
bet                 # Aki 3
pass                # Ben: Aki is the last of the lap still betting and decides
stop
reveal 1 8 12       # wrong
deal                # round 4: Dai guesses
guess 4 6 7
bet                 # Dai 1
bet                 # Aki 2
bet                 # Ben 3
bet                 # Chie 4
stop                # Chie decides
reveal 4a 6 7r      # right: of the pot of 43 Aki (the dealer) gets 8 and Dai 35; the end
"""

GAMES: list[Recorded] = [
    Recorded("4p-dealer-right-first-round-takes-all.kbl", ("smart",) * 4, {"games": "1"},
             dealer_takes_all,
             "4 players: the dealer guesses right in round 1 and takes the whole pot"),
    Recorded("6p-later-guesser-right-80-20-odd-pot.kbl", ("random",) * 6, {"games": "1"},
             split_80_20(odd=True),
             "6 players: a later guesser is right; the pot is odd and not a multiple of 5, "
             "the dealer gets 20% rounded down and the guesser the rest"),
    Recorded("2p-nobody-right-dealer-share-pot-carries.jsonl", ("random", "smart"),
             {"games": "2"}, nobody_right_carry(then_won=False),
             "2 players, JSON Lines: nobody guesses right in game 1, the dealer takes 20% "
             "and the rest of the pot carries into game 2"),
    Recorded("3p-nobody-right-carried-pot-won-next-game.kbl", ("random",) * 3,
             {"games": "3"}, nobody_right_carry(then_won=True),
             "3 players: a game nobody wins carries its pot (less the dealer's 20%) into "
             "the next, and a later game is won"),
    Recorded("5p-third-pass-loses-turn-to-guess.kbl", ("random",) * 5, {"games": "1"},
             loses_right_to_guess,
             "5 players, pass_limit=2: a player passes a third time, loses the right to "
             "guess and is skipped; the next seat guesses instead"),
    Recorded("3p-book-amounts.kbl", ("random",) * 3, {"games": "1", "amounts": "book"},
             book_laps,
             "3 players, amounts=book: bets of 3, 7, 11, 12, 16 ... over a continued lap"),
    Recorded("4p-physical-game.kbl", ("human",) * 4, {"games": "1"},
             all_of(physical_game, split_80_20(odd=True)),
             "4 players at a real table (--physical), one whole game: passes, a continue, "
             "stops, a round that stops by itself, four reveals and a right guess in round 4",
             physical_script=PHYSICAL_SCRIPT, names=("Aki", "Ben", "Chie", "Dai")),
]


# -- searching seeds --------------------------------------------------------------------------

def simulate(game: Recorded, seed: int) -> list[Event]:
    """The match ``kabucli play`` would record for ``game`` and ``seed``."""
    match, players = recording.bot_match(GAME, game, seed)
    while (pending := match.advance()).kind != "over":
        seat = pending.seats[0]
        match.submit(players[seat].choose(GAME, match.state, seat))
    return match.events


def _facts(game: Recorded) -> dict[str, str]:
    """The house rules with the number of players, as the checks read them."""
    return {**game.rules, "players": str(len(game.seats))}


def fits(game: Recorded, seed: int) -> str | None:
    """None unless the seed's match shows the situation ("": nothing is typed)."""
    return "" if game.check(simulate(game, seed), _facts(game)) else None


# -- recording ----------------------------------------------------------------------------------

def shows(game: Recorded, data: LogData) -> bool:
    return game.check(data.events, _facts(game))


RECORDER = recording.Recorder("yatchaba", HERE, GAMES, MAX_SEED, fits, shows)


if __name__ == "__main__":
    RECORDER.main(__doc__ or "")
