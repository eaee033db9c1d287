"""Record the Dare games of replays/dare/ with the real command line.

Each game is named for what it shows. Seeded games between bots (and the one with a person
typing from a script) take the first seed from 1 up whose match shows the situation; the
search replays the match in the library exactly as ``kabucli play`` does (same header, same
bot streams), then the game is recorded by running ``kabucli play dare ... --log FILE`` and
the recorded log is checked again for the situation. The physical game is played from a
hand-written referee script.

    python replays/make_dare.py            # record the games whose file is missing
    python replays/make_dare.py --force    # record every game again (new start times)
    python replays/make_dare.py --list     # say which seed and command each game uses

Recording again changes the ``started`` time in each header, so the replay snapshots must be
refreshed afterwards: ``pytest tests/test_replays.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import recording

from kabucli.events import Event, Pay
from kabucli.games.dare.rules import GAME, Deal, Lay, Result, Show, strength
from kabucli.ledger import POT
from kabucli.log import LogData

HERE = Path(__file__).resolve().parent / "dare"
MAX_SEED = 5000

Check = Callable[[Sequence[Event], dict[str, str]], bool]


# -- what a match shows, read from its events -------------------------------------------

def rounds_of(events: Sequence[Event]) -> list[list[Event]]:
    """The events grouped by round (each group starts with its deal)."""
    out: list[list[Event]] = []
    for ev in events:
        if isinstance(ev, Deal):
            out.append([])
        if out:
            out[-1].append(ev)
    return out


def results(events: Sequence[Event]) -> list[Result]:
    return [e for e in events if isinstance(e, Result)]


def has_reason(reason: str) -> Check:
    return lambda events, rules: any(r.reason == reason for r in results(events))


def carried_then_won(reason: str) -> Check:
    """A round ends with ``reason`` (the pot carries) before the last round, the same dealer
    deals the next round, and a later round has a winner who takes the carried pot."""
    def check(events: Sequence[Event], rules: dict[str, str]) -> bool:
        rs = results(events)
        deals = [e for e in events if isinstance(e, Deal)]
        for i, r in enumerate(rs[:-1]):
            if (r.reason == reason and deals[i + 1].dealer == r.dealer
                    and any(later.winners for later in rs[i + 1:])):
                return True
        return False
    return check


def split_with_odd_chip(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """A split pot that does not divide evenly, so a chip stays in the pot."""
    pot = 0
    for ev in events:
        if isinstance(ev, Result) and ev.reason == "split":
            return pot % len(ev.winners) != 0
        if isinstance(ev, Pay):
            pot += (ev.amount if ev.dst == POT else 0) - (ev.amount if ev.src == POT else 0)
    return False


def yaku_decides(events: Sequence[Event], rules: dict[str, str]) -> bool:
    """A showdown whose winner holds a named hand and would not win on the ones digit."""
    yaku = rules["yaku"]
    for rnd in rounds_of(events):
        shows = {e.seat: e.cards for e in rnd if isinstance(e, Show)}
        res = [e for e in rnd if isinstance(e, Result)]
        if len(shows) < 2 or not res or res[0].reason != "showdown":
            continue
        win = res[0].winners[0]
        plain = max(strength(c, "none") for c in shows.values())
        if strength(shows[win], yaku)[0] > 0 and strength(shows[win], "none") < plain:
            return True
    return False


def all_of(*checks: Check) -> Check:
    return lambda events, rules: all(c(events, rules) for c in checks)


# -- the games ------------------------------------------------------------------------------

@dataclass
class Recorded(recording.Recorded[Check]):
    """One recorded game (see ``recording.Recorded``); a ``human`` seat is a person typing
    from a generated script, and with ``undo`` that person passes first and takes it back."""

    undo: bool = False


PHYSICAL_SCRIPT = """\
# A real table of three, refereed with --physical: hands are never typed, cards are
# learned as they are laid and shown. p1 deals round 1; the dealer's right (p2) starts.
deal 7-7-3                # round 1: field sum 17, reference 7
p2 sets 1-7-9 2-5-10      # two sets: p2 qualifies
p3 sets 1-6-10            # a slip of the referee's pen...
undo                      # ...taken back: the log keeps both lines and the correction
p3 pass
p1 sets 7-10-10 8-9-10    # all four 7s and all four 10s are now out
p2 shows 2-3-4            # Kabu (9)
p1 shows 4-6-8            # Oicho (8): p2 takes the pot and deals round 2
deal 1-2-4                # round 2: reference 7, p3 starts
p3 sets 1-6-10 2-5-10 3-4-10   # three sets: Dare, p3 takes the pot at once
deal 5-5-9                # round 3, dealt by p3: reference 9, p1 starts
p1 sets 1-8-10 2-7-10
p2 pass
p3 sets 3-6-10 4-7-8
p1 shows 6-6-6            # Oicho (8)
p3 shows 3-3-3            # Kabu (9): p3 wins the showdown, and the match is over
"""

GAMES: list[Recorded] = [
    Recorded("2p-dare-three-sets.kbl", ("best", "random"), {"rounds": "3"},
             has_reason("dare"), "2 players; a round won by Dare (three sets)"),
    Recorded("3p-showdown-outright.kbl", ("random", "best", "best"), {"rounds": "2"},
             all_of(has_reason("showdown"),
                    lambda ev, r: all(x.reason == "showdown" for x in results(ev))),
             "3 players; every round won outright at the showdown"),
    Recorded("4p-tie-carry-same-dealer.kbl", ("best", "best", "best", "best"),
             {"rounds": "3"}, carried_then_won("tie"),
             "4 players, tie=carry (default): a tied showdown, the pot carries, the same "
             "dealer deals again and a later winner takes the carried pot"),
    Recorded("3p-tie-split-odd-chip.kbl", ("best", "random", "best"),
             {"rounds": "2", "tie": "split"}, split_with_odd_chip,
             "3 players, tie=split: a tied showdown shared, the odd chip stays in the pot"),
    Recorded("3p-tie-order.jsonl", ("best", "best", "random"),
             {"rounds": "2", "tie": "order"}, has_reason("order"),
             "3 players, tie=order, JSON Lines: the first tied player in turn order wins"),
    Recorded("4p-nobody-qualifies.kbl", ("random", "random", "random", "random"),
             {"rounds": "2"}, carried_then_won("nobody"),
             "4 players: a round nobody qualifies for, the pot carries to the next round"),
    Recorded("3p-yaku-extended-named-hand-wins.kbl", ("best", "best", "best"),
             {"rounds": "3", "yaku": "extended"}, yaku_decides,
             "3 players, yaku=extended: a named hand beats a higher ones digit"),
    Recorded("2p-yaku-arashi-three-of-a-kind-wins.kbl", ("best", "best"),
             {"rounds": "3", "yaku": "arashi"}, yaku_decides,
             "2 players, yaku=arashi: three of a kind beats a higher ones digit"),
    Recorded("2p-human-undo.jsonl", ("human", "best"), {"rounds": "2"},
             has_reason("showdown"),
             "2 players, p1 a person typing from a script, JSON Lines: p1 passes, types "
             "'undo' (which also takes back the bot's reply) and lays sets instead",
             undo=True),
    Recorded("3p-physical-match.kbl", ("human", "human", "human"), {"rounds": "3"},
             all_of(has_reason("showdown"), has_reason("dare")),
             "3 players at a real table (--physical): three rounds with an undo, "
             "showdowns and a Dare; hands stay unknown, cards are learned as shown",
             physical_script=PHYSICAL_SCRIPT, names=("Aki", "Ben", "Chie")),
]


# -- searching seeds --------------------------------------------------------------------------

def simulate(game: Recorded, seed: int, first_pass: bool = False
             ) -> tuple[list[Event], list[str]]:
    """The match ``kabucli play`` would record for ``game`` and ``seed`` (a person's seat is
    played by the ``best`` bot, or passes on its first turn with ``first_pass``), and the
    notation of that person's moves."""
    match, players = recording.bot_match(GAME, game, seed, stand_in="best")
    typed: list[str] = []
    while (pending := match.advance()).kind != "over":
        seat = pending.seats[0]
        ev = players[seat].choose(GAME, match.state, seat)
        if game.seats[seat - 1] == "human":
            if first_pass and not typed:
                ev = Lay(seat, [])
            typed.append(GAME.notate(ev))
        match.submit(ev)
    return match.events, typed


def fits(game: Recorded, seed: int) -> str | None:
    """None unless the seed's match shows the situation; else the person's script."""
    events, typed = simulate(game, seed)
    if not game.check(events, game.rules):
        return None
    if not game.undo:
        return ""
    return undo_script(typed) if _undo_fits(game, seed, typed) else None


def _undo_fits(game: Recorded, seed: int, typed: list[str]) -> bool:
    """The person's first move lays sets (so 'pass' then 'undo' is a real correction), and
    after a first 'pass' a bot moves before the person's next turn (so undo takes it back
    too)."""
    if not typed or typed[0].endswith(" pass"):
        return False
    events, _ = simulate(game, seed, first_pass=True)
    lays = [e for e in events if isinstance(e, Lay)]
    first = next(i for i, e in enumerate(lays) if game.seats[e.seat - 1] == "human")
    return first + 1 < len(lays) and game.seats[lays[first + 1].seat - 1] != "human"


def undo_script(typed: list[str]) -> str:
    first = typed[0].split()[0]
    lines = [f"{first} pass    # a wrong move...",
             "undo       # ...taken back, with the bot's move after it",
             *typed]
    return "\n".join(lines) + "\n"


# -- recording ----------------------------------------------------------------------------------

def shows(game: Recorded, data: LogData) -> bool:
    return game.check(data.events, game.rules)


RECORDER = recording.Recorder("dare", HERE, GAMES, MAX_SEED, fits, shows, lists_typed=True)


if __name__ == "__main__":
    RECORDER.main(__doc__ or "")
