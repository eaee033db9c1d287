"""Reading the files people name (logs, rules files, move scripts): whole, but bounded; and
writing a file whole (a converted or repaired log, a page, a chart).

A name can point at something that never ends (``/dev/zero``, a FIFO no one writes to) or at
a huge file. :func:`read_bytes` reads only regular files, and at most a given size, so such a
name is refused at once instead of hanging or filling the memory. :func:`write_whole` writes
only regular files, into a new file that takes the name's place when it is whole and synced
to disk (its folder synced after), so that a write that fails (a full disk, SIGTERM, a crash
of the machine) leaves what was there as it was and nothing beside it; the new file keeps the
replaced one's permissions, and a link keeps naming its file. :func:`read_line` reads a line
of input (a pipe, ``< /dev/zero``) in bounded pieces.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import stat
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, BinaryIO, TextIO, TypeVar

T = TypeVar("T")

MiB = 2**20


ENDLESS = 16 * MiB  # past this many characters of one line, its end is no longer waited for


class EndlessLine(Exception):
    """A line read past its bound with no end in sight (``< /dev/zero``): see read_line."""


def read_line(stream: BinaryIO | TextIO, most: int,
              endless: int = ENDLESS) -> tuple[str | None, int]:
    """One line of ``stream`` (a byte stream's decoded as UTF-8), its newline taken off, and
    its length; None at the end of the input. ``readline()`` kept a line whole, however long:
    a line with no end took all the memory there was. Here at most ``most`` + 1 characters
    are read at once: a line longer than ``most`` is read and dropped in pieces and given as
    "" with its length (the caller refuses it), and one longer than ``endless`` raises
    EndlessLine."""
    raw: bytes | str = stream.readline(most + 1)
    if not raw:
        return None, 0
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if text.endswith("\n"):
        return text[:-1], len(raw) - 1
    if len(raw) <= most:  # (the last line, with no newline after it)
        return text, len(raw)
    length = len(raw)
    while True:  # the rest of it, counted and dropped
        more = stream.readline(65536)
        if not more:
            break
        ends = more.endswith(b"\n" if isinstance(more, bytes) else "\n")  # type: ignore[arg-type]
        length += len(more) - ends
        if length > endless:
            raise EndlessLine
        if ends:
            break
    return "", length


def read_bytes(path: Path | str, limit: int, pipes: bool = False) -> bytes:
    """The bytes of the regular file ``path`` if it holds at most ``limit`` bytes; with
    ``pipes``, also of a pipe the shell made for a command's output (``--script <(cmd)``:
    ``/dev/fd/63``), read to its end as standard input is.

    Raises OSError (``strerror`` says why) as for a missing file, also for a FIFO, a device
    or a socket, and for a larger file. The file is opened without blocking and checked
    before reading, so a FIFO is refused at once rather than waited on (a named one may have
    nobody writing to it, ever; a shell's pipe has its command writing).
    """
    shells = pipes and _shells_pipe(path)
    fd, info = open_regular(path, shells)
    try:
        if stat.S_ISFIFO(info.st_mode):
            os.set_blocking(fd, True)
            data = _read_to_end(fd, limit + 1)
        else:  # its size and a byte more (a file still growing reads to the limit and a byte)
            data = b"" if info.st_size > limit else _read_upto(fd, info.st_size + 1, limit + 1)
    finally:
        os.close(fd)
    if info.st_size > limit or len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {size_text(limit)}, the most kabucli reads "
                                   "from such a file")
    return data


def _shells_pipe(path: Path | str) -> bool:
    """Whether ``path`` names a pipe the shell made for a command's output (process
    substitution, ``<(cmd)``: ``/dev/fd/63``, a link to ``pipe:[...]``; ``/dev/stdin`` of
    ``cmd | kabucli``, a link to such a link), not a named FIFO."""
    target = os.fspath(path)
    for _ in range(8):  # (links to links: /dev/stdin, /proc/self/fd/0, pipe:[...])
        try:
            link = os.readlink(target)
        except (OSError, ValueError):
            return False
        if link.startswith("pipe:["):
            return True
        target = os.path.join(os.path.dirname(target), link)
    return False


def _read_to_end(fd: int, most: int) -> bytes:
    """What the pipe ``fd`` gives until its end, to ``most`` bytes at most."""
    parts = []
    got = 0
    while got < most:
        chunk = os.read(fd, min(1 << 16, most - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
    return b"".join(parts)


def open_regular(path: Path | str, pipe: bool = False) -> tuple[int, os.stat_result]:
    """A descriptor of the regular file ``path``, opened to read without blocking and checked
    before anything is read (a FIFO is refused at once, never waited on), and its stat.
    OSError (``strerror`` says why) for a folder, a pipe, a device or a socket too; with
    ``pipe``, a pipe is taken."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(info.st_mode) and not (pipe and stat.S_ISFIFO(info.st_mode)):
            raise OSError(errno.EINVAL, "not a regular file but a pipe, device or socket, "
                                        "which may never end")
    except BaseException:
        os.close(fd)
        raise
    return fd, info


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


def sync_folder(path: Path | str, must: bool = False) -> None:
    """Sync the folder ``path`` to disk: a name just made or changed in it (a new log, a file
    that took another's place) is kept across a crash only once its folder is synced. A
    folder that cannot be synced (some network file systems) is left as it is, unless
    ``must``: then OSError. (Nothing to do where there is no O_DIRECTORY: Windows.)"""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        if must:
            raise


def not_utf8(exc: UnicodeDecodeError, where: bool = True) -> str:
    """Why text read from a file is not UTF-8, as the end of a sentence about the file ("...
    is not UTF-8 text (byte 5)"): UTF-16's byte order mark first, as some Windows editors
    save text ("Unicode" in Notepad), said so with what to do; else the first byte that is
    not UTF-8, counted from 1 (``where``: the error counts from the file's start)."""
    if exc.start == 0 and exc.object[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return ("starts with UTF-16's byte order mark (as some Windows editors save text): "
                "save it as UTF-8")
    return f"is not UTF-8 text (byte {exc.start + 1})" if where else "is not UTF-8 text"


def size_text(n: int) -> str:
    return f"{n // MiB} MiB" if n >= MiB and n % MiB == 0 else f"{n} bytes"


def write_whole(path: Path | str, write: Callable[[IO[bytes]], T], overwrite: bool = False,
                keep: Sequence[Path | str] = ()) -> T:
    """Write the file ``path`` by ``write(fh)``: into a new file beside it, which takes the
    name when it is whole (in one step), so that a write that fails (a full disk, an error
    in ``write``) leaves what was at ``path`` as it was, and no part-written file.

    OSError (``strerror`` says why) before anything is written, when ``path`` is there and
    not ``overwrite`` (FileExistsError); is there but is not a regular file (a folder, a
    device, a FIFO: kabucli writes files only, never into those); or is, through any link,
    one of the files ``keep`` (the one being read)."""
    name = os.fspath(path)
    if os.path.islink(name) and os.path.exists(name):  # the file the link names is written,
        name = os.path.realpath(name)  # the link kept (as the shell's > does); what is
        # checked is that file, not the link followed again (which may change meanwhile)
    old = _check_target(name, overwrite, keep)
    folder = os.path.dirname(name)
    # (not named after the file: a name near the system's 255-byte limit leaves no room)
    part = os.path.join(folder, f".kabucli-{secrets.token_hex(8)}.part")
    with _term_unwinds():
        return _write_part(name, part, old, write, overwrite)


def _write_part(name: str, part: str, old: os.stat_result | None,
                write: Callable[[IO[bytes]], T], overwrite: bool) -> T:
    made = False
    try:  # (the open inside: a SIGTERM handled just after it returns, before ``made`` is set,
        # still removes the file, which, made with O_EXCL under a name of its own, is ours)
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                     0o666)
        made = True
        if old is not None:  # the file replaced keeps who may read it (a 0600 log stays so)
            _same_access(fd, old)
        synced = os.dup(fd)  # (``write`` may close the file: this stays open to sync it)
        try:
            with os.fdopen(fd, "wb") as fh:
                result = write(fh)
            # on disk before its name is, so that a crash leaves it whole or not there at all
            os.fsync(synced)
        finally:
            os.close(synced)
        if overwrite:
            os.replace(part, name)
        else:
            try:  # a link never replaces a file that appeared meanwhile
                os.link(part, name)
            except FileExistsError:
                raise
            except OSError:  # a file system without hard links
                if os.path.lexists(name):
                    raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), name) from None
                os.replace(part, name)
        with contextlib.suppress(OSError):
            os.unlink(part)  # after a link: the name keeps the file
        sync_folder(os.path.dirname(name) or ".")
    except BaseException as exc:
        if made or not isinstance(exc, OSError):  # (not when the open itself failed)
            with contextlib.suppress(OSError):
                os.unlink(part)
        raise
    return result


# the signals that end a program by default which a write is unwound from: SIGTERM, and
# where they exist SIGHUP (the terminal closed, an ssh session dropped) and SIGQUIT (Ctrl-\)
_ENDING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGQUIT")
                if hasattr(signal, name))


@contextlib.contextmanager
def _term_unwinds() -> Iterator[None]:
    """SIGTERM (or SIGHUP, SIGQUIT), while a file is written whole, ends the program as it
    would (exit 128 + the signal's number) but through Python's unwinding, so that the
    part-written file beside the target is removed rather than left behind. Only for the
    signals that have their default action, in the main thread (where Python runs handlers);
    a command that handles one itself keeps its handler."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    mine = [sig for sig in _ENDING if signal.getsignal(sig) is signal.SIG_DFL]

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    for sig in mine:
        signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig in mine:
            signal.signal(sig, signal.SIG_DFL)


def _same_access(fd: int, old: os.stat_result) -> None:
    """Give the new file ``fd`` the permissions of the file it replaces, and its owner and
    group when this process may (as root, or the owner for the group)."""
    if hasattr(os, "fchown"):
        with contextlib.suppress(OSError):
            os.fchown(fd, old.st_uid, old.st_gid)
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(old.st_mode) & 0o777)  # (not set-user-ID and the like)


def _check_target(name: str, overwrite: bool,
                  keep: Sequence[Path | str]) -> os.stat_result | None:
    """Check the file ``name`` may be written (see :func:`write_whole`): what is there now
    (followed through links), None when nothing is."""
    try:
        info = os.stat(name)
    except FileNotFoundError:
        if os.path.islink(name):  # a link to nothing: writing would follow it elsewhere
            raise OSError(errno.ENOENT, "it is a link to a file that is not there") from None
        return None
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder", name)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "it is not a regular file but a pipe, device or socket "
                                    "(kabucli writes files only)")
    for other in keep:
        try:
            same = os.path.samefile(name, other)
        except OSError:
            same = False
        if same:
            raise OSError(errno.EEXIST, "it is the file being read (through a link, if by "
                                        "another name)")
    if not overwrite:
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), name)
    return info
