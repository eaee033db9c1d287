"""Record the Kazu-Tori games of replays/kazu-tori/ with the real command line.

Each game is named for what it shows. Seeded games take the first seed from 1 up whose game
shows the situation within a size bound; the search plays the game in the library exactly as
``kabucli play`` does (the same session code: header, bot streams, races), with a person's seat
played by a fixed policy whose typed lines become the ``--script``. The situation is read from
the events, walked through the engine to learn which card each flip turned and what was said.
The game is then recorded by running ``kabucli play kazu-tori ... --log FILE`` and the recorded
log is checked again. The physical game is played from the referee script written out below.

    python replays/make_kazutori.py            # record the games whose file is missing
    python replays/make_kazutori.py --force    # record every game again (new start times)
    python replays/make_kazutori.py --list     # say which seed and command each game uses

Recording again changes the ``started`` time in each header, so the replay snapshots must be
refreshed afterwards: ``pytest tests/test_replays.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import recording

from kabucli.cards import JIZO, ONI
from kabucli.engine import Match, walk
from kabucli.events import Event, Pay, Undo
from kabucli.games.kazu_tori.rules import (
    GAME,
    Claim,
    Handout,
    Pass,
    Penalty,
    Race,
    Return,
    Score,
)
from kabucli.log import Header, LogData
from kabucli.session import Session, start
from kabucli.shuffle import Rng

HERE = Path(__file__).resolve().parent / "kazu-tori"
MAX_SEED = 5000


# -- what a game shows, read from its events ------------------------------------------------

def may_take(card: int, said: int) -> bool:
    """The rule: the Oni always, the Jizo never, else the ones digits agree."""
    return card == ONI or (card != JIZO and card % 10 == said % 10)


@dataclass(frozen=True)
class Step:
    """One event with what the table showed right after it."""

    index: int  # 1-based, as the log numbers it
    ev: Event
    top: int | None  # the card open to claims (None: no claim window is open)
    said: int  # the number said with that card
    table: int  # cards face up on the table
    sizes: tuple[int, ...]  # pile sizes, p1 first
    turned: tuple[int, int, int] | None  # (seat, card, said) of a card turned by this event


@dataclass(frozen=True)
class Facts:
    """A game as its header and its steps tell it."""

    header: Header
    steps: list[Step]

    @property
    def score(self) -> Score:
        for st in self.steps:
            if isinstance(st.ev, Score):
                return st.ev
        raise ValueError("the game has no score")

    def before(self, i: int) -> Step | None:
        """The step before ``steps[i]`` (None for the first)."""
        return self.steps[i - 1] if i > 0 else None


def facts(header: Header, events: list[Event]) -> Facts:
    steps: list[Step] = []
    seen = [0]

    def on_step(index: int, ev: Event, match: Match) -> None:
        s: Any = match.state
        window = s.phase == "window"
        turned = None
        if len(s.turned) > seen[0]:
            seat, card, said, _ = s.turned[-1]
            turned = (seat, card, said)
            seen[0] = len(s.turned)
        steps.append(Step(index, ev, s.table[-1] if window else None, s.said if window else 0,
                          len(s.table), tuple(len(p) for p in s.piles[1:]), turned))

    _, violation = walk(GAME, header, events, on_step)
    if violation is not None:
        raise SystemExit(violation.line("the game"))
    return Facts(header, steps)


Check = Callable[[Facts], bool]


def penalty_receivers(sizes: tuple[int, ...], seat: int) -> list[int]:
    """One card to each other seat still in, from the claimer's next seat on, while the
    claimer's cards last."""
    n = len(sizes)
    others = [(seat + k - 1) % n + 1 for k in range(1, n)]
    return [p for p in others if sizes[p - 1]][:sizes[seat - 1]]


def wrong_claim_penalised(f: Facts) -> bool:
    """A claim on a card that may not be taken, and its penalty: a card to each of two or more
    other players, from the claimer's next seat on."""
    for i, st in enumerate(f.steps[:-1]):
        prev, nxt = f.before(i), f.steps[i + 1]
        if (isinstance(st.ev, Claim) and prev is not None and prev.top is not None
                and not may_take(prev.top, prev.said) and isinstance(nxt.ev, Penalty)
                and nxt.ev.seat == st.ev.seat and len(nxt.ev.to) >= 2
                and nxt.ev.to == penalty_receivers(prev.sizes, st.ev.seat)):
            return True
    return False


def returned_at_limit(f: Facts) -> bool:
    """The count reached the limit untaken: the table goes back, each as many as they turned."""
    limit = int(f.header.rules["limit"])
    for i, st in enumerate(f.steps):
        if isinstance(st.ev, Return):
            window = next(x for x in reversed(f.steps[:i]) if x.top is not None)
            if window.said == limit and sum(st.ev.counts) == window.table > 1:
                return True
    return False


def handouts(f: Facts) -> list[Handout]:
    return [st.ev for st in f.steps if isinstance(st.ev, Handout)]


def jizo_handed_out(f: Facts) -> bool:
    """A Jizo hand-out with other cards on the table."""
    return any(h.jizo and len(h.to) >= 2 for h in handouts(f))


def jizo_removed(f: Facts) -> bool:
    """The third hand-out removes the Jizo from the game, and cards are still handed out."""
    hs = handouts(f)
    return len(hs) >= 3 and all(h.jizo for h in hs[:2]) and hs[2].jizo == 0 and len(hs[2].to) >= 1


def valid_takes(f: Facts) -> list[int]:
    """Positions (in ``f.steps``) of the claims that took the table."""
    out = []
    for i, st in enumerate(f.steps):
        prev = f.before(i)
        if (isinstance(st.ev, Claim) and prev is not None and prev.top is not None
                and may_take(prev.top, prev.said)):
            out.append(i)
    return out


def first_out(f: Facts) -> int | None:
    """The position of the first event after the deal that left a pile empty."""
    return next((i for i, st in enumerate(f.steps[1:], 1) if 0 in st.sizes), None)


def last_call_take(f: Facts) -> bool:
    """A player goes out, and the next valid take ends the game (the taker takes first)."""
    out = first_out(f)
    takes = [i for i in valid_takes(f) if out is not None and i > out]
    score = f.score
    return (out is not None and score.reason == "take" and len(takes) == 1
            and f.steps[takes[0]].ev == Claim(score.seat)
            and isinstance(f.steps[takes[0] + 1].ev, Score))


def oni_last_card(f: Facts) -> bool:
    """A player turns the Oni as the last card of their pile: the game ends at once, the Oni
    goes back to them."""
    score = f.score
    turned = [st.turned for st in f.steps if st.turned is not None]
    return (score.reason == "oni" and turned[-1][:2] == (score.seat, ONI)
            and score.cards[score.seat - 1] == 1)


def ten_taken_at_twenty(f: Facts) -> bool:
    """With ``limit=20`` a 10 said twenty is taken (its ones digit is twenty's)."""
    if int(f.header.rules["limit"]) != 20:
        return False
    for i in valid_takes(f):
        prev = f.before(i)
        if prev is not None and prev.said == 20 and prev.top == 10:
            return True
    return False


def tie_split(winners: int) -> Check:
    """``winners`` players hold the most cards; a loser's cards do not divide among them, so
    each winner gets the whole part and the odd chips stay with the payer."""
    def check(f: Facts) -> bool:
        score = f.score
        w = len(score.winners)
        if w != winners or f.header.rules["tie"] != "split":
            return False
        pays = [st.ev for st in f.steps if isinstance(st.ev, Pay)]
        odd = [p for p, k in enumerate(score.cards, 1)
               if p not in score.winners and k % w]
        return bool(odd) and all(
            sorted(x.dst for x in pays if x.src == p and x.amount == score.cards[p - 1] // w)
            == score.winners for p in odd)
    return check


def person_vs_bots(f: Facts) -> bool:
    """The person's seat lets a card go and two bots race for it; the person also takes the
    table by a typed claim."""
    people = {i for i, s in enumerate(f.header.seats, 1) if s.control == "human"}
    raced = False
    for i, st in enumerate(f.steps[:-2]):
        a, b = f.steps[i + 1].ev, f.steps[i + 2].ev
        if isinstance(st.ev, Pass) and st.ev.seat in people and isinstance(a, Race) \
                and isinstance(b, Claim) and b.seat not in people:
            raced = True
    took = any(f.steps[i].ev in [Claim(p) for p in people] for i in valid_takes(f))
    return raced and took


def physical_last_call(f: Facts) -> bool:
    """A real table: cards learnt as they are turned, wrong claims, a return, the Jizo handed
    out and removed, and the game ended by Last Call."""
    return (f.header.mode == "physical" and wrong_claim_penalised(f) and returned_at_limit(f)
            and jizo_handed_out(f) and jizo_removed(f) and last_call_take(f))


def timed_dispute(f: Facts) -> bool:
    """A real table typed at the prompt (timed): a claim given to one seat, taken back, and
    the table given to another, the game then ended by the players' agreement."""
    evs = [st.ev for st in f.steps]
    disputed = any(isinstance(a, Claim) and isinstance(b, Undo) and isinstance(c, Claim)
                   and a.seat != c.seat for a, b, c in zip(evs, evs[1:], evs[2:], strict=False))
    return (f.header.mode == "physical" and f.header.clock is not None and disputed
            and f.score.reason == "agreement")


def all_of(*checks: Check) -> Check:
    return lambda f: all(c(f) for c in checks)


# -- the games ------------------------------------------------------------------------------

@dataclass
class Recorded(recording.Recorded[Check]):
    """One recorded game (see ``recording.Recorded``; a seat is a bot kind, ``person`` for a
    seat typed from a script, or ``human`` at a real table), with a bound on its size
    (events) to keep the file small."""

    max_events: int = 400


# A real table of four, refereed with --physical: the program never sees a pile; each card is
# typed as it is turned, each claim as the seat whose hand was first on it.
PHYSICAL_SCRIPT = """\
deal                # ten cards face down to each of Aki (p1), Ben (p2), Chie (p3), Dai (p4)
p1 flip 4           # Aki says one
p2 flip 2           # two: a 2 said two may be taken
p3 claim            # Chie's hand is first: she takes both cards, and starts again
p3 flip 2           # one
p4 flip 7           # two
p1 flip 4           # three
p2 flip 6           # four
p3 flip 4           # five
p4 flip 5           # six
p1 flip 10          # seven
p2 flip 3           # eight
p3 flip 5           # nine
p1 claim            # wrong (a 5 said nine): Aki gives Ben, Chie and Dai a card each
p4 flip 1           # ten, and nobody claims it
p1 flip Jizo        # first the ten cards go back (Aki 2, Ben 2, Chie 3, Dai 3); Aki says one
p2 flip 5           # first the Jizo goes to Ben (the Jizo's first use); Ben says two
p3 flip 10          # three
p4 flip 7           # four
p1 flip 2           # five
p2 flip 10          # six
p3 claim            # wrong: Chie gives Dai, Aki and Ben a card each
p2 claim            # wrong too: Ben gives Chie, Dai and Aki a card each
p3 flip 9           # seven
p4 flip 8           # eight: may be taken
p2 claim            # Ben takes the table
p2 flip 2           # one
p3 flip 8           # two
p4 flip 5           # three
p1 flip 4           # four
p1 claim            # Aki takes her own 4 and the table
p1 flip 2           # one
p4 claim            # wrong: Dai gives Aki, Ben and Chie a card each
p2 flip 3           # two
p4 claim            # wrong again: three more cards from Dai
p3 flip Oni         # three: the Oni may always be taken, but nobody moves
p4 flip 6           # four: the Oni stays on the table
p1 flip 3           # five
p2 flip 10          # six
p4 claim            # wrong: Dai gives his last three cards and is out; Last Call
p3 flip 3           # seven (Dai is skipped from now on)
p1 flip 4           # eight
p2 flip 2           # nine
p3 claim            # wrong: Chie gives Aki and Ben a card each
p3 flip 1           # ten
p1 flip 4           # Last Call: the cards stay on the table and the count restarts, one
p2 flip 9           # two
p3 flip Jizo        # three
p1 flip 2           # first the hand-out: the Jizo to Aki, the other twelve cards one each
                    # from Ben on (the Jizo's second use); Aki says four
p2 flip 10          # five
p2 claim            # wrong: Ben gives Chie and Aki a card each
p3 flip 3           # six
p1 flip 3           # seven
p2 flip 4           # eight
p3 flip 3           # nine
p1 flip 1           # ten
p2 flip 7           # one
p3 flip 5           # two
p1 flip 1           # three
p2 flip 7           # four
p3 flip 8           # five
p1 flip Jizo        # six
p2 flip 7           # the Jizo's third use: it leaves the game, the other eleven cards go
                    # one each from Ben on; Ben says seven
p3 flip 7           # eight
p1 flip 3           # nine
p2 flip 3           # ten
p3 flip 10          # one
p1 flip 2           # two: may be taken
p2 claim            # Ben takes the table, and in Last Call that ends the game
"""

# A real table of four again, typed at the prompt line by line with a referee's pauses, so the
# log records when each input was entered: a claim is disputed, taken back and given to the
# player whose hand was first, and the players stop early.
DISPUTE_SCRIPT = """\
deal                # ten cards face down to each of Aki (p1), Ben (p2), Chie (p3), Dai (p4)
p1 flip 4           # Aki says one
p2 flip 2           # two: a 2 said two may be taken
p2 claim            # the referee gives it to Ben...
undo                # ...but Chie's hand was under Ben's: taken back
p3 claim            # Chie takes the table
p3 flip 6           # one
p4 flip 7           # two
p1 flip 3           # three: may be taken
p1 claim            # Aki takes the table
p1 flip 9           # one
p2 flip 5           # two
p3 flip 10          # three
p4 claim            # wrong: Dai gives Aki, Ben and Chie a card each
p4 flip 1           # four
p1 flip 4           # five
p2 flip 6           # six
p3 flip 7           # seven: may be taken
p3 claim            # Chie takes the table
stop                # time's up: the players agree to stop here (the prompt asks to confirm)
y
"""

GAMES: list[Recorded] = [
    Recorded("3p-wrong-claim-penalty-and-return-at-limit.kbl", ("sharp", "random", "random"),
             {}, all_of(wrong_claim_penalised, returned_at_limit),
             "3 players: a wrong claim costs the claimer a card to each other player, and a "
             "count that reaches ten untaken goes back to those who turned it", 90),
    Recorded("4p-jizo-handed-out-then-removed.kbl", ("sharp", "random", "sharp", "random"), {},
             all_of(jizo_handed_out, jizo_removed),
             "4 players: the Jizo is handed out with the table, and after its third use it "
             "leaves the game", 100),
    Recorded("4p-last-call-next-take-ends-game.kbl", ("sharp", "random", "sharp", "random"), {},
             last_call_take,
             "4 players: a player runs out of cards, and the next valid take ends the game",
             40),
    Recorded("4p-oni-last-card-ends-game.kbl", ("random",) * 4, {}, oni_last_card,
             "4 players: a player turns the Oni as their last card and the game ends at once",
             60),
    Recorded("2p-limit-20-ten-taken-at-twenty.kbl", ("sharp", "random"), {"limit": "20"},
             ten_taken_at_twenty, "2 players, limit=20: a 10 said twenty is taken", 60),
    Recorded("5p-three-way-tie-split-odd-chip-kept.kbl", ("random",) * 5, {}, tie_split(3),
             "5 players: three hold the most cards and share each payment; the chip that "
             "does not divide by three stays with the payer", 40),
    Recorded("3p-person-vs-bots-race.jsonl", ("person", "sharp", "sharp"), {},
             person_vs_bots,
             "3 players, p1 a person typing from a script, JSON Lines: the person lets cards "
             "go and the bots race for them, and takes the table by a typed claim", 140),
    Recorded("4p-physical-last-call.kbl", ("human",) * 4, {}, physical_last_call,
             "4 players at a real table (--physical): wrong claims, a return, the Oni left "
             "on the table, the Jizo handed out twice and removed, a player out, Last Call "
             "and the take that ends it", physical_script=PHYSICAL_SCRIPT,
             names=("Aki", "Ben", "Chie", "Dai")),
    Recorded("4p-physical-timed-dispute.kbl", ("human",) * 4, {}, timed_dispute,
             "4 players at a real table, typed at the prompt with a referee's pauses: every "
             "input carries when it was entered; a claim given to Ben is taken back and "
             "given to Chie, whose hand was first, and the players stop early",
             physical_script=DISPUTE_SCRIPT, names=("Aki", "Ben", "Chie", "Dai"), paced=1.2),
]


# -- searching seeds --------------------------------------------------------------------------

class Person:
    """A person at the keyboard (for the search): lets most cards go, takes some that may be
    taken, and now and then slaps a wrong one."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed, "person")

    def line(self, s: Any, seat: int) -> str:
        if s.phase == "window" and seat not in s.claimed and seat not in s.passed:
            if s.takeable():
                return "claim" if self.rng.below(3) == 0 else "pass"
            return "claim" if self.rng.below(20) == 0 else "pass"
        return "flip"


def simulate(game: Recorded, seed: int) -> tuple[Session, list[str]]:
    """The game ``kabucli play`` would record for ``game`` and ``seed``, and the lines the
    person typed (if a seat is a person)."""
    rules = recording.house_rules(GAME, game.rules)
    sess = start(GAME, rules, recording.seat_infos(game.seats), seed, None, None)
    person = Person(seed)
    typed: list[str] = []
    while True:
        sess.run_bots()
        if sess.match.over or len(sess.match.events) > game.max_events:
            return sess, typed
        seat = next(iter(sess.humans))
        line = person.line(sess.match.state, seat)
        sess.submit_line(line)
        typed.append(line)


def fits(game: Recorded, seed: int) -> str | None:
    """None unless the seed's game ends within the bound and shows the situation; else the
    lines the person typed ("" if no seat is a person)."""
    sess, typed = simulate(game, seed)
    m = sess.match
    if m.over and len(m.events) <= game.max_events \
            and game.check(facts(m.header, m.events)):
        return "\n".join(typed) + "\n" if typed else ""
    return None


# -- recording ----------------------------------------------------------------------------------

def shows(game: Recorded, data: LogData) -> bool:
    return game.check(facts(data.header, list(data.events)))


RECORDER = recording.Recorder("kazu-tori", HERE, GAMES, MAX_SEED, fits, shows)


if __name__ == "__main__":
    RECORDER.main(__doc__ or "")
