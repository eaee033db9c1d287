"""The frames of a binary log (docs/log-format.md), found from their lengths alone, for the
tests that cut, change or rebuild a log's bytes."""

from __future__ import annotations

from kabucli.log import MAGIC


def frames(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each frame of a binary log, the header's first; a frame whose length
    runs past the end of ``data`` ends past it."""
    out, pos = [], len(MAGIC)  # (format 1's magic is as long)
    while pos < len(data):
        end = pos + 8 + int.from_bytes(data[pos:pos + 4], "big")
        out.append((pos, end))
        pos = end
    return out
