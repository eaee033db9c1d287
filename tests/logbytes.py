"""The frames of a binary log (docs/log-format.md), found from their lengths alone, for the
tests that cut, change or rebuild a log's bytes."""

from __future__ import annotations

from kabucli.log import MAGIC, _pack, _unpack, frame


def frames(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each frame of a binary log, the header's first; a frame whose length
    runs past the end of ``data`` ends past it."""
    out, pos = [], len(MAGIC)  # (format 1's magic is as long)
    while pos < len(data):
        end = pos + 8 + int.from_bytes(data[pos:pos + 4], "big")
        out.append((pos, end))
        pos = end
    return out


def bodies(data: bytes) -> list[bytes]:
    """Each frame's body of a format 2 binary log, inflated (the header's first)."""
    out = []
    for begin, end in frames(data):
        body = _unpack(data[begin + 8:end])
        assert isinstance(body, bytes)
        out.append(body)
    return out


def rebuilt(parts: list[bytes]) -> bytes:
    """A format 2 binary log of these bodies (the header's first), every checksum right."""
    return MAGIC + b"".join(frame(_pack(b)) for b in parts)
