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
from typing import TypeVar

from kabucli.errors import ParseError

ALGORITHM = "blake2b-fy-v1"
SEED_LIMIT = 2**64
_PREFIX = b"kabucli\x00"
_BLOCK_BITS = 512
_FACTORIALS = [factorial(n) for n in range(128)]

T = TypeVar("T")


def parse_seed(text: str | int) -> int:
    """A seed from what a person typed: a whole number 0 <= seed < 2**64, in decimal (leading
    zeros allowed) or with a ``0x``/``0o``/``0b`` prefix, digits optionally grouped by ``_``."""
    t = str(text).strip()
    try:
        seed = int(t, 0)
    except ValueError:
        try:
            seed = int(t, 10)  # base 0 refuses leading zeros such as "007"
        except ValueError:
            raise ParseError(f"seed '{text}' is not a whole number") from None
    if not 0 <= seed < SEED_LIMIT:
        raise ParseError(f"seed '{text}' is out of range: use 0 to 2**64 - 1")
    return seed


class Rng:
    """A seeded stream of uniform integers (see the module docstring for the algorithm)."""

    __slots__ = ("_buf", "_counter", "_nbits", "_prefix")

    def __init__(self, seed: int, stream: str = "") -> None:
        if not 0 <= seed < SEED_LIMIT:
            raise ValueError(f"seed {seed} out of range")
        self._prefix = _PREFIX + seed.to_bytes(8, "big") + stream.encode("utf-8") + b"\x00"
        self._counter = 0
        self._buf = 0
        self._nbits = 0

    def bits(self, k: int) -> int:
        """The next ``k`` bits of the stream as an unsigned integer."""
        while self._nbits < k:
            digest = blake2b(self._prefix + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buf = (self._buf << _BLOCK_BITS) | int.from_bytes(digest, "big")
            self._nbits += _BLOCK_BITS
        self._nbits -= k
        out = self._buf >> self._nbits
        self._buf &= (1 << self._nbits) - 1
        return out

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
        r = self.below(_FACTORIALS[n] if n < len(_FACTORIALS) else factorial(n))
        for i in range(n - 1, 0, -1):
            r, j = divmod(r, i + 1)
            a[i], a[j] = a[j], a[i]
        return a


def chance_rng(seed: int, index: int) -> Rng:
    """The generator for the ``index``-th chance event (0-based) of a seeded game.

    Each chance event has its own stream, so taking a move back and playing on gives the
    same cards, and an auditor can recompute any deal without replaying the generator.
    """
    return Rng(seed, f"chance/{index}")
