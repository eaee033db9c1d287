"""Edges of the bot protocol (kabucli/bots/external.py) that mutation testing found no test
holding: how a bot that exited is described, the line limit, the late-exit wait, the end of
a bot's processes, the byte order mark, the memory limit, the time limit's reading and the
Python bot host's copy of the match."""

from __future__ import annotations

import os
import sys

import pytest

from kabucli.bots.external import ERR_TAIL, Channel, Stalled


def failed_turn(script: str, limit: float = 5.0) -> str:
    """How a Python ``script`` sent one turn fails to answer it (the Stalled's words)."""
    chan = Channel([sys.executable, "-c", script], limit)
    try:
        chan.send(b"{}\n", chan.deadline())
        with pytest.raises(Stalled) as caught:
            chan.line(chan.deadline())
        return str(caught.value)
    finally:
        chan.kill()


# -- how a bot that exited is described ----------------------------------------------------

def test_blank_stderr_lines_after_the_last_words_are_passed_over() -> None:
    """A bot whose stderr ends in blank lines (or spaces) is said by its last line that
    holds something, not as one that wrote nothing."""
    script = ("import sys\nsys.stdin.readline()\n"
              "sys.stderr.write('no model found\\n\\n   \\n\\n'); sys.exit(2)\n")
    why = failed_turn(script)
    assert why == "exited (code 2) without answering; its last line on stderr: " \
                  "'no model found'", why


def test_a_short_last_stderr_line_after_a_cut_long_one_is_quoted_whole() -> None:
    """Only the last ERR_TAIL bytes of stderr are kept, so the first line kept is cut; a
    short last line after it is whole: quoted as it is, not as the end of a long line."""
    script = ("import sys\nsys.stdin.readline()\n"
              f"sys.stderr.write('x' * {2 * ERR_TAIL} + '\\nthe real reason\\n'); sys.exit(1)\n")
    why = failed_turn(script)
    assert why == "exited (code 1) without answering; its last line on stderr: " \
                  "'the real reason'", why


def test_the_end_of_a_cut_stderr_line_of_control_characters_stays_short() -> None:
    """The end of a cut stderr line is shown safe (control characters as escapes, each
    several characters long) and still cut to 120 characters."""
    script = ("import sys\nsys.stdin.readline()\n"
              f"sys.stderr.write('\\x01' * {3 * ERR_TAIL}); sys.exit(1)\n")
    why = failed_turn(script)
    head = "exited (code 1) without answering; its last line on stderr: '…"
    assert why.startswith(head), why
    end = why[len(head):why.index("' (its end")]
    assert end == "\\x01" * 30, end


def test_a_killed_channel_does_not_read_the_descriptor_its_stderr_had() -> None:
    """Once a bot is killed its pipes are closed, and their descriptor numbers may be given
    to another file (another bot's pipe): describing its exit then must not read from that
    number, which would take what was written there."""
    chan = Channel([sys.executable, "-c", "import sys; sys.stderr.write('gone'); sys.exit(3)"],
                   5.0)
    chan.proc.wait()
    err = chan._err
    chan.kill()
    r, w = os.pipe()
    try:
        if r != err:  # the number taken again, as the next file opened would
            os.dup2(r, err)
        os.set_blocking(err, False)
        os.write(w, b"another bot's answer\n")
        assert chan._exited(3) == "exited (code 3) without answering"
        assert os.read(err, 100) == b"another bot's answer\n"
    finally:
        for fd in {r, w, err}:
            os.close(fd)
