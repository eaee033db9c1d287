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
    with os.fdopen(fd, "rb") as fh:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file but a pipe, device or socket, "
                                        "which may never end")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {size_text(limit)}, the most kabucli reads "
                                   "from such a file")
    return data


def size_text(n: int) -> str:
    return f"{n // MiB} MiB" if n >= MiB and n % MiB == 0 else f"{n} bytes"
