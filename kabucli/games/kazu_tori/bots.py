"""Kazu-Tori bots: ``sharp`` claims exactly the cards that may be taken; ``random`` claims at
random and sometimes wrongly (to exercise the penalties).

Each bot has a ``reaction`` profile (fastest, slowest in ms): when several bots claim the same
card, :func:`bot_move` records a seeded race draw per seat and the fastest claims first (the
engine asks it through ``KazuTori.bot_move``: races are the bots' business, not the rules').
``claims`` answers whether the bot claims the card just flipped; ``choose`` gives the bot's
move as an event. A bot sees only what is face up: the card just flipped and the number said.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr  # compiled, the bot classes stay subclassable

from kabucli.engine import Game, Match, Pending
from kabucli.errors import BotError
from kabucli.events import Event
from kabucli.games.kazu_tori.rules import (
    RACE_DRAWS,
    Claim,
    Flip,
    KazuToriState,
    Pass,
    Race,
    Stop,
)
from kabucli.shuffle import Rng

# The event classes the hot paths tell events apart by, as static names: compiled,
# an imported name is looked up in the module's dict at every use, a Final one is
# read directly.
_RACE: Final = Race
_CLAIM: Final = Claim
_STOP: Final = Stop


@mypyc_attr(allow_interpreted_subclasses=True)
class _KazuToriBot:
    """What both bots share: ``choose`` from ``claims``.

    Trusted (see ``Game.bot_move``): the engine asks ``choose`` only of the seat that must
    flip when no card waits for a claim, and the answer is then ``Flip(seat)`` with no card,
    the one move ``KazuTori.legal`` lists for that seat in a seeded game besides ``stop``
    (``bot_move`` asks bots nothing at a real table). In a claim window the engine asks only
    ``claims`` and builds the event itself."""

    # class-level, so the renderer can read a kind's profile from the class itself
    reaction: ClassVar[tuple[int, int]]
    about: ClassVar[str]  # what the kind does, in one line for people (kabucli rules)
    trusted: ClassVar[bool] = True
    # never claims a card that may not be taken, so it is not asked about those (and the
    # engine reads this on every flip: a missing attribute would cost a raised AttributeError)
    careful: ClassVar[bool] = False

    def __init__(self, rng: Rng) -> None:
        self.rng = rng

    def claims(self, s: KazuToriState, seat: int) -> bool:
        raise NotImplementedError

    def choose(self, game: Game, state: Any, seat: int) -> Event:
        s: KazuToriState = state
        if s.phase == "window" and seat not in s.claimed and self.claims(s, seat):
            return Claim(seat)
        return Flip(seat) if seat == s.next_flipper() else Pass(seat)


@mypyc_attr(allow_interpreted_subclasses=True)
class SharpBot(_KazuToriBot):
    """Claims every card that may be taken, and never any other."""

    about = "claims every card that may be taken and never another, and reaches for it fast"
    reaction = (180, 340)
    careful = True

    def claims(self, s: KazuToriState, seat: int) -> bool:
        return s.takeable()


@mypyc_attr(allow_interpreted_subclasses=True)
class RandomBot(_KazuToriBot):
    """Claims a card that may be taken half the time, and any other card one time in 16."""

    about = ("claims a card that may be taken half the time and any other card one time in "
             "16, and reaches for it slower")
    reaction = (220, 600)
    ODDS_RIGHT = 2
    ODDS_WRONG = 16

    def claims(self, s: KazuToriState, seat: int) -> bool:
        odds = self.ODDS_RIGHT if s.phase == "window" and s.ok else self.ODDS_WRONG  # takeable
        k = _POWER_OF_TWO.get(odds)  # below(2**k) is bits(k): no draw is ever refused
        return (self.rng.bits(k) if k is not None else self.rng.below(odds)) == 0


_POWER_OF_TWO = {1 << k: k for k in range(1, 31)}

DEFAULT_REACTION: Final = (250, 500)  # ms, for a bot without a profile of its own


def bot_move(game: Game, match: Match, bots: dict[int, Any],
             pending: Pending | None = None) -> tuple[Event, bool] | None:
    """Kazu-Tori's :meth:`Game.bot_move` (``KazuTori.bot_move`` calls it): the event bot seats
    produce now and whether it is trusted, or None when a person must act.

    In a claim window every seat still in may claim. Seats that are people are asked first
    (a claim typed at the prompt beats any bot); once each has claimed or passed, every bot
    says whether it claims (its ``claims(state, seat)``, else whether ``choose`` claims; a
    bot marked ``careful`` is not asked about a card that may not be taken).
    One claimer claims; several race: :meth:`Match.draw` records a ``Race`` of reaction
    draws from the seed, and the fastest by each bot's ``reaction`` profile (min, max ms)
    claims first (equal times: the first seat after the flipper). Nobody claims: the next
    flipper flips, if it is a bot (an answer of ``choose`` other than a claim is "no
    claim"). A bot never stops the game, in a window or on its turn: ``stop`` is the
    players' agreement, which ``KazuTori.bot_legal`` leaves out of a bot's moves, and a bot
    that answers it is refused (BotError). Races need a seed: at a real table bots are not
    asked.

    In a window the event is built here from the state, each legal by construction (a
    claim by a seat still in that has not claimed, the flip of the next flipper, a pass
    by a seat that has not passed); it is trusted when the bot of its seat is, so the
    seats of external bots are checked in full.
    """
    s: KazuToriState = match.state
    if s.todo or match.physical:
        return None
    phase = s.phase
    if phase == "turn":
        bot = bots.get(s.flipper)
        if bot is None:
            return None
        ev: Event = bot.choose(game, s, s.flipper)
        if type(ev) is _STOP:
            _stop_refused(s.flipper)
        return ev, getattr(bot, "trusted", False) is True
    if phase != "window":
        return None
    claimed = s.claimed
    passed = s.passed
    seats = s.ins
    for seat in seats:
        if seat not in bots and seat not in claimed and seat not in passed:
            return None
    racers = []
    ok = s.ok
    for seat in seats:
        bot = bots.get(seat)
        if bot is None or seat in claimed:
            continue
        if not ok and getattr(bot, "careful", False):
            continue  # it never claims a card that may not be taken
        claims = getattr(bot, "claims", None)
        if claims is not None:
            if claims(s, seat):
                racers.append(seat)
            continue
        said = bot.choose(game, s, seat)
        if type(said) is _CLAIM:
            racers.append(seat)
        elif type(said) is _STOP:
            _stop_refused(seat)
    if not racers:
        nxt = s.after[s.last]
        bot = bots.get(nxt)
        if bot is not None:
            return Flip(nxt), getattr(bot, "trusted", False) is True
        # A person flips next: the bots' decision to let this card go is recorded, so
        # that they are not asked again (and cannot change their minds) while the person
        # is at the prompt.
        for seat in seats:
            if seat in bots and seat not in claimed and seat not in passed:
                return Pass(seat), getattr(bots[seat], "trusted", False) is True
        return None
    if len(racers) > 1:
        race = match.draw()
        assert type(race) is _RACE
        n = s.n
        last = s.last
        racers.sort(key=lambda seat: (reaction_ms(bots[seat], race.draws[seat - 1]),
                                      (seat - last - 1) % n))
    winner = racers[0]
    return Claim(winner), getattr(bots[winner], "trusted", False) is True


def _stop_refused(seat: int) -> None:
    """A bot answered ``stop``, which only people agree to (``KazuTori.bot_legal``): refused
    as an illegal move of that seat."""
    from kabucli.games.kazu_tori import text  # (the words' module imports the rules)

    raise BotError(f"bot p{seat} played 'p{seat} stop', which is not legal: {text.BOT_STOP}")


def reaction_ms(bot: Any, draw: int) -> int:
    """The reaction time (ms) a race ``draw`` gives ``bot`` by its profile."""
    lo, hi = getattr(bot, "reaction", DEFAULT_REACTION)
    return int(lo + (hi - lo) * draw // (RACE_DRAWS - 1))


BOTS = {"sharp": SharpBot, "random": RandomBot}
