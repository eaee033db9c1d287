"""Log format 2's records: the inputs of a game as short msgpack arrays, and the log's digest.

A format 2 log stores only what the engine cannot compute (docs/log-format.md): the players'
actions, the referee's undos, the chance events typed in at a real table, and, in a seeded
game, a mark where bots raced (the race's draws come from the seed). The antes, results,
payments and seeded deals in between are derived again by the reader, and an audit checks
each stored input as it places it.

Each stored record is a msgpack array ``[code, fields...]`` (``[code, dt, fields...]`` in a
timed log, ``dt`` the milliseconds since the previous stored record, the first since the
header's ``clock``): code 0 is a race mark, 1 an undo, and 2, 3, ... the game's own event
types in the order of its ``events`` tuple. The fields are the event's in declaration order,
every one written (msgspec writes an array-like struct whole, ``omit_defaults`` or not; a
record whose trailing fields are left out is read with their defaults). The log's **digest**
is BLAKE2b-256 over ``b"kabucli log 2\\n"``, the header (as format 2's msgpack map) and every
stored record's bytes, in order: it is the same whichever encoding holds a game kabucli wrote
(another writer's records in another msgpack form give their own digest: docs/log-format.md).
"""

from __future__ import annotations

import functools
import hashlib
import typing
from types import GenericAlias
from typing import Any, Final

import msgspec
from msgspec.structs import astuple

from kabucli.events import Event, Undo

# How an event reaches the log (the engine says, see Match._commit): derived events are not
# stored in format 2; an input is stored whole; a race drawn while an action was awaited is
# stored as a mark.
DERIVED: Final = 0
INPUT: Final = 1
DRAW: Final = 2

# The preset dictionary of format 2's deflated payloads (zlib's ``zdict``): these words, each
# as a msgpack string (one byte 0xa0 + its length, then its ASCII bytes), one after another.
# It holds what every header says, so a short game's log is not mostly its header. Part of
# the format: it never changes (tests/test_log_v2.py pins its hash).
DICTIONARY_WORDS = (
    "format", "game", "rules", "seats", "name", "control", "human", "bot:random", "bot:best",
    "bot:cmd:", "bot:py:", "mode", "seeded", "physical", "kabucli", "0.1.0", "started", "2026-",
    "T00:00:00+00:00", "seed", "shuffle", "blake2b-fy-v1", "clock", "commit", "salt", "dare",
    "kazu-tori", "yatchaba", "uno-dare", "kabu-tsukuri", "ante", "yaku", "none", "tie", "carry",
    "rounds", "chips", "limit", "jizo", "ranking", "extended", "dealer", "rotate", "winner",
    "bet", "hands", "games", "points",
)
DICTIONARY = b"".join(bytes((0xA0 | len(w),)) + w.encode() for w in DICTIONARY_WORDS)

DRAW_CODE: Final = 0
UNDO_CODE: Final = 1
DIGEST_PREFIX: Final = b"kabucli log 2\n"


class Codec:
    """The compact records of one game's events (timed or not): to and from msgpack."""

    def __init__(self, types: tuple[type[Event], ...], timed: bool) -> None:
        own = [t for t in types if t is not Undo]
        self.timed = timed
        self.twin: dict[type[Event], type[msgspec.Struct]] = {}
        self.real: dict[type[msgspec.Struct], type[Event]] = {}
        lead: list[Any] = [("dt", typing.Annotated[int, msgspec.Meta(ge=0)])] if timed else []
        # forbid_unknown_fields: a record with more fields than its event has is refused
        # (an array-like struct would skip them, and one game would have many digests)
        self.draw_type = msgspec.defstruct("Race", list(lead), array_like=True, tag=DRAW_CODE,
                                           frozen=True, omit_defaults=True,
                                           forbid_unknown_fields=True)
        pairs: list[tuple[int, type[Event]]] = [(UNDO_CODE, Undo)]
        pairs += [(code, t) for code, t in enumerate(own, start=UNDO_CODE + 1)]
        self.codes = {t: code for code, t in pairs}
        members: list[Any] = [self.draw_type]
        for code, cls in pairs:
            fields: list[Any] = list(lead)
            for f in msgspec.structs.fields(cls):
                typ = f.type
                if f.default is msgspec.NODEFAULT and f.default_factory is msgspec.NODEFAULT:
                    fields.append((f.name, typ))
                elif f.default_factory is not msgspec.NODEFAULT:
                    fields.append((f.name, typ, msgspec.field(default_factory=f.default_factory)))
                else:
                    fields.append((f.name, typ, f.default))
            twin = msgspec.defstruct(cls.__name__, fields, array_like=True, tag=code,
                                     frozen=True, omit_defaults=True, gc=False,
                                     forbid_unknown_fields=True)
            self.twin[cls] = twin
            self.real[twin] = cls
            members.append(twin)
        union: Any = typing.Union[tuple(members)]  # noqa: UP007
        self.decoder = msgspec.msgpack.Decoder(GenericAlias(list, (union,)))

    def record(self, event: Event | None, dt: int) -> msgspec.Struct:
        """The compact record of an input (None: a race mark), ``dt`` ms after the last."""
        if event is None:
            return self.draw_type(dt) if self.timed else self.draw_type()
        twin = self.twin[type(event)]
        if self.timed:
            return twin(dt, *astuple(event))
        return twin(*astuple(event))

    def event(self, rec: msgspec.Struct) -> tuple[int, Event | None]:
        """(dt, the event) of a decoded record; the event is None for a race mark."""
        values = astuple(rec)
        dt = values[0] if self.timed else 0
        if self.timed:
            values = values[1:]
        cls = self.real.get(type(rec))
        return dt, (None if cls is None else cls(*values))


@functools.cache
def codec(types: tuple[type[Event], ...], timed: bool) -> Codec:
    """A codec made once per game and timing (making one costs as much as a short log)."""
    return Codec(types, timed)


_enc = msgspec.msgpack.Encoder()


def array_body(records: list[msgspec.Struct]) -> tuple[bytes, int]:
    """The msgpack array of ``records`` and where the records' own bytes start in it."""
    body = _enc.encode(records)
    return body, array_head(body)


def array_count(body: bytes) -> int:
    """How many items the msgpack array that starts ``body`` says it holds (0 if none), read
    from its header alone: before anything is decoded."""
    first = body[0] if body else 0
    if 0x90 <= first <= 0x9F:
        return first & 0x0F
    if first == 0xDC and len(body) >= 3:
        return int.from_bytes(body[1:3], "big")
    if first == 0xDD and len(body) >= 5:
        return int.from_bytes(body[1:5], "big")
    return 0


def array_head(body: bytes) -> int:
    """The length of the msgpack array header that starts ``body`` (0 if it is none)."""
    first = body[0] if body else 0
    if 0x90 <= first <= 0x9F:
        return 1
    if first == 0xDC:
        return 3
    if first == 0xDD:
        return 5
    return 0


def new_digest(header_bytes: bytes) -> Any:
    """The running hash of a log, over its header's format 2 msgpack bytes."""
    h = hashlib.blake2b(digest_size=32)
    h.update(DIGEST_PREFIX)
    h.update(header_bytes)
    return h


def seed_commitment(seed: int, salt: str) -> str:
    """The commitment to a seed (hex): BLAKE2b-256 of the salt's bytes and the seed as 8
    bytes, big-endian. Printed before any card is dealt, it binds the deal to come without
    telling it; the log reveals the seed and the salt, so anyone can check it."""
    h = hashlib.blake2b(digest_size=32)
    h.update(bytes.fromhex(salt))
    h.update(seed.to_bytes(8, "big"))
    return h.hexdigest()


def new_salt() -> str:
    import secrets

    return secrets.token_hex(16)
