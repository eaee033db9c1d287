"""Reading the files people name (logs, rules files, move scripts): whole, but bounded.

A name can point at something that never ends (``/dev/zero``, a FIFO no one writes to) or at
a huge file. :func:`read_bytes` reads only regular files, and at most a given size, so such a
name is refused at once instead of hanging or filling the memory.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MiB = 2**20


def read_bytes(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file ``path`` if it holds at most ``limit`` bytes.

    Raises OSError (``strerror`` says why) as for a missing file, also for a FIFO, a device
    or a socket, and for a larger file. The file is opened without blocking and checked
    before reading, so a FIFO is refused at once rather than waited on.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        mode = info.st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file but a pipe, device or socket, "
                                        "which may never end")
        # its size and a byte more (a file still growing reads to the limit and a byte)
        data = b"" if info.st_size > limit else _read_upto(fd, info.st_size + 1, limit + 1)
    finally:
        os.close(fd)
    if info.st_size > limit or len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {size_text(limit)}, the most kabucli reads "
                                   "from such a file")
    return data


def _read_upto(fd: int, first: int, most: int) -> bytes:
    """What the file ``fd`` holds, read ``first`` bytes at a time (its size as it was seen,
    and a byte more), to ``most`` bytes at most: a read never asks for more than the file
    holds, so no buffer of the limit's size is made for a small file. (Bare os.read: an
    audit reads thousands of small logs, and a file object costs more than the read.)"""
    parts = []
    got = 0
    while got < most:
        want = min(first, most - got)
        chunk = os.read(fd, want)
        parts.append(chunk)
        got += len(chunk)
        if len(chunk) < want:  # a regular file's end (a pipe is never read here)
            break
    return parts[0] if len(parts) == 1 else b"".join(parts)


def size_text(n: int) -> str:
    return f"{n // MiB} MiB" if n >= MiB and n % MiB == 0 else f"{n} bytes"
