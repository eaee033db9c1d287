"""The one place chance comes from: a seeded generator that is the same on every platform.

Algorithm ``blake2b-fy-v1`` (documented in docs/shuffle.md and pinned by test vectors):

* **Bit stream.** A generator is named by a seed (an integer 0 <= seed < 2**64) and a stream
  label (text, e.g. ``"chance/3"``). Block ``i`` (i = 0, 1, 2, ...) is the 64-byte BLAKE2b
  digest of ``b"kabucli\\x00" + seed (8 bytes, big-endian) + label (UTF-8) + b"\\x00" +
  i (8 bytes, big-endian)``. The stream is the blocks' bits in order, most significant first.
* **Uniform integer below n.** Take ``k = (n - 1).bit_length()`` bits as an unsigned integer;
  if it is below ``n`` return it, otherwise discard it and take ``k`` more bits.
* **Shuffle of n items.** Draw ``r`` uniform below ``n!``; then for ``i = n-1`` down to 1,
  ``r, j = divmod(r, i + 1)`` and swap items ``i`` and ``j`` (Fisher-Yates with the mixed-radix
  digits of ``r``, which are independent and uniform).

Only hashlib's BLAKE2b and integer arithmetic are used, so results do not depend on the
Python version, the platform or the ``random`` module.
"""

from __future__ import annotations

from collections.abc import Sequence
from hashlib import blake2b
from math import factorial
from typing import Final, TypeVar

from kabucli.errors import ParseError
from kabucli.safetext import quoted, safe_text

ALGORITHM: Final = "blake2b-fy-v1"
SEED_LIMIT: Final = 2**64
_PREFIX = b"kabucli\x00"
_FACTORIALS = [factorial(n) for n in range(128)]

T = TypeVar("T")


def parse_seed(text: str | int) -> int:
    """A seed from what a person typed: a whole number 0 <= seed < 2**64, in decimal (leading
    zeros allowed) or with a ``0x``/``0o``/``0b`` prefix, digits optionally grouped by ``_``.
    The digits are ASCII ones, as every other number kabucli reads (Python's ``int`` would
    also take other scripts' digits, such as '٣' for 3)."""
    t = str(text).strip()
    if not t.isascii():
        raise ParseError(f"seed {quoted(t)} is not a whole number: use the digits 0-9")
    if len(t) > 200:  # longer than any seed, even in binary with '_' between the digits
        raise ParseError(f"seed '{safe_text(t, 24)}' is out of range: use 0 to 2**64 - 1")
    try:
        seed = int(t, 0)
    except ValueError:
        try:
            seed = int(t, 10)  # base 0 refuses leading zeros such as "007"
        except ValueError:
            raise ParseError(f"seed {quoted(t)} is not a whole number") from None
    if not 0 <= seed < SEED_LIMIT:
        raise ParseError(f"seed {quoted(t)} is out of range: use 0 to 2**64 - 1")
    return seed


# Shuffles take the digits of their draw in chunks: the product of a chunk's radices stays
# below 2**62, so the digits come from a small integer (a machine word in the compiled core)
# and the draw itself is divided once per chunk, not once per card. The digits are the same
# as dividing by one radix at a time. _CHUNKS[n] lists, for each chunk of the steps
# i = n - 1, ..., 1 in order, the product of its radices (i + 1) and the step it stops before.
_SMALL = 1 << 62


def _chunks(n: int) -> list[tuple[int, int]]:
    out = []
    i = n - 1
    while i > 0:
        m, lo = 1, i
        while lo > 0 and m * (lo + 1) < _SMALL:
            m *= lo + 1
            lo -= 1
        out.append((m, lo))
        i = lo
    return out


_CHUNKS = [_chunks(n) for n in range(128)]


class Rng:
    """A seeded stream of uniform integers (see the module docstring for the algorithm)."""

    __slots__ = ("_buf", "_counter", "_data", "_i", "_nbits", "_prefix")

    def __init__(self, seed: int, stream: str = "") -> None:
        if not 0 <= seed < SEED_LIMIT:
            raise ValueError(f"seed {seed} out of range")
        self._prefix = _PREFIX + seed.to_bytes(8, "big") + stream.encode("utf-8") + b"\x00"
        self._counter = 0
        self._data = b""  # the current block
        self._i = 0  # its next byte not yet in _buf
        self._buf = 0  # the next _nbits bits of the stream, a small integer (< 2**56)
        self._nbits = 0

    def _block(self) -> bytes:
        self._data = blake2b(self._prefix + self._counter.to_bytes(8, "big")).digest()
        self._counter += 1
        self._i = 0
        return self._data

    def bits(self, k: int) -> int:
        """The next ``k`` bits of the stream as an unsigned integer."""
        nbits = self._nbits
        if k > nbits:
            if k > 48:
                return self._wide(k)
            buf, data, i = self._buf, self._data, self._i
            while nbits < k:  # whole bytes into the buffer: it stays below 2**56
                if i == len(data):
                    data = self._block()
                    i = 0
                buf = (buf << 8) | data[i]
                i += 1
                nbits += 8
            self._buf = buf
            self._i = i
        nbits -= k
        self._nbits = nbits
        out = self._buf >> nbits
        self._buf &= (1 << nbits) - 1
        return out

    def _wide(self, k: int) -> int:
        """:meth:`bits` for more than 48 bits (a shuffle's draw): the buffer, then whole bytes."""
        need = (k - self._nbits + 7) >> 3
        parts = []
        while need:
            if self._i == len(self._data):
                self._block()
            take = min(need, len(self._data) - self._i)
            parts.append(self._data[self._i:self._i + take])
            self._i += take
            need -= take
        chunk = b"".join(parts)
        v = (self._buf << (len(chunk) << 3)) | int.from_bytes(chunk, "big")
        self._nbits += (len(chunk) << 3) - k
        self._buf = v & ((1 << self._nbits) - 1)
        return v >> self._nbits

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``."""
        if n <= 1:
            if n == 1:
                return 0
            raise ValueError("below() needs n >= 1")
        k = (n - 1).bit_length()
        while True:
            r = self.bits(k)
            if r < n:
                return r

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list holding ``items`` in a uniformly random order."""
        a = list(items)
        n = len(a)
        if n < 2:
            return a
        small_n = n < len(_CHUNKS)
        r = self.below(_FACTORIALS[n] if small_n else factorial(n))
        i = n - 1
        for m, lo in _CHUNKS[n] if small_n else _chunks(n):
            if lo:
                r, small = divmod(r, m)
            else:
                small = r
            while i > lo:
                j = small % (i + 1)
                small //= i + 1
                a[i], a[j] = a[j], a[i]
                i -= 1
        return a


def chance_rng(seed: int, index: int) -> Rng:
    """The generator for the ``index``-th chance event (0-based) of a seeded game.

    Each chance event has its own stream, so taking a move back and playing on gives the
    same cards, and an auditor can recompute any deal without replaying the generator.
    """
    return Rng(seed, f"chance/{index}")
