"""Events: the records a log is made of, shared by every game.

Every event is a small frozen msgspec struct (subclasses repeat
``frozen=True`` so that type checkers see it) tagged by the field ``e``. Its class variable
``KIND`` says where it comes from:

* ``chance``: the table (a deal, a reveal). Seeded games compute these from the seed; at a real
  table the referee types them in.
* ``action``: a player's decision, checked for legality.
* ``auto``: what the engine derives by itself (payments, round and match results). A log
  records them so it can be read without the engine, and an audit recomputes them.
* ``meta``: a correction (``undo``), which takes back the last player action, and a bot's
  forfeit (``forfeit``), which ends a match that bot could not go on playing.

Event classes are final: the games tell events apart with ``type(ev) is Flip`` rather than
``isinstance`` (which, on a msgspec class, goes through its metaclass whenever the answer is
no: three times slower, and games ask it many times per event).
"""

from __future__ import annotations

from typing import ClassVar

import msgspec


class Event(msgspec.Struct, tag_field="e", omit_defaults=True, frozen=True,
            forbid_unknown_fields=True, gc=False):
    """Base of all events. Events are not tracked by the garbage collector (``gc=False``):
    they hold only numbers, text and lists of them, never a cycle, and a long match holds
    hundreds of thousands of them, which the collector would walk again and again."""

    KIND: ClassVar[str] = "action"
    # Whether, in a seeded game, the event shows someone cards the seed dealt face down that
    # no chance event shows: a card drawn (Uno Dare), a card flipped (Kazu-Tori). A move taken
    # back after one is marked by the audit as after cards were shown, as after a chance event.
    SHOWS: ClassVar[bool] = False


class Pay(Event, tag="pay", frozen=True):
    """Chips move from ``src`` to ``dst`` (party 0 is the pot, 1..N the seats)."""

    KIND: ClassVar[str] = "auto"
    src: int
    dst: int
    amount: int
    why: str = ""


class Undo(Event, tag="undo", frozen=True):
    """A correction: the last input (a player action, or at a real table a chance event the
    referee entered) and everything after it are taken back. The log keeps all of it."""

    KIND: ClassVar[str] = "meta"


class End(Event, tag="end", frozen=True):
    """The match is over; final balances by seat (index 0 is seat 1) and the pot left."""

    KIND: ClassVar[str] = "auto"
    reason: str
    balances: list[int]
    pot: int = 0


class Forfeit(Event, tag="forfeit", frozen=True):
    """A bot failed (crashed, was late, answered garbage or an illegal move) and the match
    ends here: that seat forfeits it (``kabucli sim`` counts it a loss for that bot). Nothing
    may follow it. Every game's logs may hold it (``games.event_types`` adds it)."""

    KIND: ClassVar[str] = "meta"
    seat: int
    reason: str
