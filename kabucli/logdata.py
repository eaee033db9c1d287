"""The structs of the event log (:mod:`kabucli.log`): a log's header and its seats, and a log
as read. They live apart from :mod:`kabucli.log` because that module is compiled by mypyc
(setup.py), and msgspec builds a struct's decoder from its annotations at run time, which a
compiled module's class does not keep as written."""

from __future__ import annotations

import re
from typing import Any, Literal

import msgspec

from kabucli.errors import LogError
from kabucli.events import Event

# The latest time a log may hold: 9999-12-31T23:59:59.999Z, in ms after 1970 (a time shown
# as a date must be one).
MAX_TIME = 253_402_300_799_999


Fmt = Literal["msgpack", "jsonl"]


class SeatInfo(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One seat: the name shown, and who controls it: ``human``, or ``bot:KIND`` where KIND
    is a built-in bot or a user's own (``cmd:COMMAND``, ``py:FILE.py:CLASS``)."""

    name: str
    control: str = "human"


EXTERNAL = ("cmd:", "py:")  # bot kinds that are a user's program or Python class


def external_bot(control: str) -> str | None:
    """The kind of a seat's bot when it is a user's own (``cmd:...``, ``py:...``), else None."""
    kind = control.removeprefix("bot:")
    return kind if kind != control and kind.startswith(EXTERNAL) else None


def control_problem(control: str) -> str | None:
    """Why a seat's ``control`` is not ``human`` or ``bot:KIND``; None when it is."""
    if control == "human":
        return None
    kind = control.removeprefix("bot:")
    what = kind.partition(":")[2] if kind.startswith(EXTERNAL) else kind
    if kind == control or not what.strip() or not kind.isprintable():
        return f"control {control!r} is not human or bot:KIND"
    return None


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a log needs to be read without outside settings."""

    format: int
    game: str
    rules: dict[str, Any]
    seats: list[SeatInfo]
    mode: Literal["seeded", "physical"]
    kabucli: str
    started: str
    seed: int | None = None
    shuffle: str | None = None
    # format 2: when the log was started, in ms since 1970 (UTC), in a log whose inputs carry
    # the time they were entered (a game with a person or at a real table); else None
    clock: int | None = None
    # format 2: the seed's commitment, BLAKE2b-256 of the salt and the seed (kabucli play
    # --commit), in hex, and the salt, in hex; else None
    commit: str | None = None
    salt: str | None = None

    def __post_init__(self) -> None:
        # msgspec bounds stop at int64; a reader refuses the record with this message
        if self.seed is not None and not 0 <= self.seed < 2**64:
            raise ValueError(f"seed {self.seed} is out of range (0 to 2**64 - 1) - at `$.seed`")
        if self.clock is not None and not 0 <= self.clock <= MAX_TIME:
            raise ValueError(f"clock {self.clock} is out of range (0 to {MAX_TIME}, the end "
                             "of 9999) - at `$.clock`")
        for name in ("commit", "salt"):
            value = getattr(self, name)
            if value is not None and not (_HEX.fullmatch(value) and len(value) % 2 == 0):
                raise ValueError(f"{name} is not an even number of hex digits, 16 to 64 - "
                                 f"at `$.{name}`")
        if self.salt is not None and self.commit is None:
            raise ValueError("a salt without a commitment - at `$.salt`")

    @property
    def timed(self) -> bool:
        return self.clock is not None

    @property
    def people(self) -> bool:
        """Whether a person sat at the table: a real table (the referee types) or a seat
        played by a human. Only a person undoes a move."""
        return self.mode == "physical" or any(s.control == "human" for s in self.seats)


_HEX = re.compile(r"[0-9a-f]{16,64}")


class LogData(msgspec.Struct):
    """A log as read: its header, its events, and where reading stopped if it stopped early.

    ``times``: when each event was entered, in ms since 1970 (a timed log; events the engine
    derived carry the time of the input before them), else None. A format 2 binary log is
    read by playing its inputs through the engine, which checks each as it goes: ``walked``
    is then that walk's (match, violation), so an audit need not walk it again."""

    path: str
    header: Header
    events: list[Event]
    fmt: Fmt
    good_bytes: int
    error: LogError | None = None
    torn: bool = False  # the error is a torn tail (the last record cut short), not damage
    times: list[int] | None = None
    inputs: int = 0  # records stored (format 2's binary encoding)
    hasher: Any = None  # the running digest after the last good record (format 2 binary)
    last_time: int = 0  # the time of the last stored input (a timed format 2 log)
    walked: Any = None
    types: Any = ()  # the game's event types, as the reader was given them (with the game)
    stamped: list[int] = msgspec.field(default_factory=list)  # JSON Lines: events with a t

    @property
    def version(self) -> int:
        return self.header.format

    @property
    def digest(self) -> str | None:
        """The digest of what was read whole (format 2 binary; see :func:`log_digest`)."""
        return None if self.hasher is None else str(self.hasher.copy().hexdigest())
