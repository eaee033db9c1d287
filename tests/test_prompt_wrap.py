"""What the prompt says back, at a terminal of a known width and piped: a refusal longer than
the terminal is broken between words (the terminal broke it at its last column, mid-word:
'type the c|ard turned up'), and stays one line where a program may read it."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from fcntl import ioctl
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kabucli.cli import app

UNO = ("play", "uno-dare", "--physical", "--player", "Ann", "--player", "Bob", "--player",
       "Cat", "--no-log")
ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def at_terminal(args: tuple[str, ...], typed: list[str], tmp_path: Path, columns: int = 80,
                *, moves: tuple[tuple[str, bytes], ...] = (), first: bytes = b") >",
                answer: bytes = b"refused: ", prompt: bytes = b") >", **extra: str) -> str:
    """What ``kabucli ARGS`` writes to a terminal ``columns`` wide (a pseudo-terminal) when
    ``typed`` (lines that are refused: ``answer``, then ``prompt`` again) is typed, a line at
    a time once the prompt asks (``first``), after ``moves`` (each line typed, then what is
    written before the next); the escape sequences taken out, lines ended by '\\n'."""
    fd, child = pty.openpty()
    ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm",
           "PROMPT_TOOLKIT_NO_CPR": "1", "NO_COLOR": "1", **extra}
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    proc = subprocess.Popen([sys.executable, "-m", "kabucli", *args], stdin=child,
                            stdout=child, stderr=child, cwd=tmp_path, env=env,
                            start_new_session=True)
    os.close(child)
    seen = b""

    def wait_for(*texts: bytes) -> None:
        """Until ``texts`` were written, one after the other."""
        nonlocal seen
        start = len(seen)
        end = time.monotonic() + 30
        while True:
            at = start
            for text in texts:
                at = seen.find(text, at)
                if at < 0:
                    break
                at += len(text)
            if at >= 0:
                return
            assert time.monotonic() < end, f"no {texts!r}: {seen[-2000:]!r}"
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    seen += os.read(fd, 65536)
                except OSError:  # the program ended
                    return

    try:
        wait_for(first)  # (the line editor moves the cursor after a prompt)
        for line, then in moves:
            os.write(fd, line.encode() + b"\r")
            wait_for(then)
        for line in typed:  # each refused
            os.write(fd, line.encode() + b"\r")
            wait_for(answer, prompt)
        os.write(fd, b"quit\r")
        end = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < end:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
        assert proc.wait(timeout=30) == 0, seen[-2000:]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        os.close(fd)
    return ESCAPE.sub(b"", seen).decode().replace("\r\n", "\n").replace("\r", "")


def refusal_lines(screen: str) -> list[str]:
    """The lines of the first refusal on ``screen``: its 'refused: ' line and those that go on
    under it (indented), up to the next prompt."""
    start = screen.index("refused: ")
    lines = screen[start:].split("\n")
    out = [lines[0]]
    for line in lines[1:]:
        if not line.startswith(" "):
            break
        out.append(line)
    return out


def piped(*args: str, input: str, columns: int = 40) -> list[str]:
    """The refusals of ``kabucli ARGS`` piped (``input`` its standard input), each from its
    'refused: ' (after the prompt, whose typed line a pipe does not echo) to its line's end."""
    res = CliRunner().invoke(app, list(args), input=input,
                             env={"NO_COLOR": "1", "COLUMNS": str(columns)})
    assert res.exit_code == 0, res.output
    return [line[line.index("refused: "):] for line in res.stdout.splitlines()
            if "refused: " in line]


def test_a_refusal_longer_than_the_terminal_is_broken_between_words(tmp_path: Path) -> None:
    """At 80 columns the refusal of 'R5' before Uno Dare's deal (over 120 characters) was
    printed as one line that the terminal broke at column 80, mid-word. Its lines now each
    fit, the words are those of the one line a pipe gets, none cut in two, and the lines
    after the first go on under the words after 'refused: '."""
    one = piped(*UNO, input="R5\nquit\n", columns=200)
    assert len(one) == 1 and len(one[0]) > 100, one
    screen = at_terminal(UNO, ["R5"], tmp_path, columns=80)
    lines = refusal_lines(screen)
    assert len(lines) >= 2, screen
    assert all(len(line) <= 80 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == " ".join(one[0].split()), (lines, one)
    assert all(line.startswith(" " * len("refused: ")) and line[len("refused: ")] != " "
               for line in lines[1:]), lines
    # no word cut: each line ends where a word of the one line ends
    words = one[0].split()
    cut = 0
    for line in lines[:-1]:
        cut += len(line.split())
        assert line.split()[-1] == words[cut - 1], (line, words[cut - 1])


@pytest.mark.parametrize("columns", [40, 80])
def test_piped_a_refusal_stays_one_line_whatever_its_length(columns: int) -> None:
    """A program reading the prompt's output (piped) gets each refusal as one line, at any
    COLUMNS: it is no terminal to break it for."""
    said = piped(*UNO, input="R5\nquit\n", columns=columns)
    assert len(said) == 1 and len(said[0]) > 100, said
    assert said[0].rstrip().endswith("'deal R5'"), said


@pytest.mark.parametrize("how", ["dumb", "json"])
def test_at_a_dumb_terminal_or_beside_json_a_refusal_stays_one_line(how: str,
                                                                   tmp_path: Path) -> None:
    """TERM=dumb (an editor's shell window, which may read the lines) and --json (the words
    on stderr, where a program may read them) keep a refusal one line."""
    args = (*UNO, "--json") if how == "json" else UNO
    extra = {"TERM": "dumb"} if how == "dumb" else {}
    screen = at_terminal(args, ["R5"], tmp_path, columns=80, **extra)
    lines = refusal_lines(screen)
    assert len(lines) == 1 and len(lines[0]) > 100, screen


def said_lines(screen: str, start: str, until: str) -> list[str]:
    """The lines of the first answer on ``screen`` that begins with ``start``, up to the line
    that holds ``until`` (the prompt asked again)."""
    lines = screen[screen.index(start):].split("\n")
    return lines[:next(i for i, line in enumerate(lines) if until in line)]


def test_the_hot_seats_answer_to_a_line_but_enter_is_broken_between_words(
        tmp_path: Path) -> None:
    """The hot seat's 'press Enter once ... has the screen, or type quit (not ...)' was one
    line the terminal broke at its last column (at 80, '...(not 'hello everyone'' and ')' on
    a line of its own; with other words, mid-word); it is broken between words at its width,
    as a refusal is."""
    args = ("play", "dare", "--seed", "5", "--player", "Bartholomew", "--player", "Cunegonde",
            "--no-log")
    screen = at_terminal(args, ["hello everyone"], tmp_path, first=b"then press Enter > ",
                         answer=b"press Enter once", prompt=b"then press Enter > ")
    lines = said_lines(screen, "press Enter once", "pass the screen to")
    one = ("press Enter once p2 Cunegonde has the screen, or type quit (not 'hello "
           "everyone')")
    assert len(one) > 80 and len(lines) >= 2, screen
    assert all(len(line) <= 80 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == one, lines  # (no word cut in two)


def test_the_game_over_answer_is_broken_between_words_under_its_words(tmp_path: Path) -> None:
    """At the game-over prompt a line but undo, table or Enter is answered with words longer
    than 80 columns; they are broken between words, the lines after the first under the
    words after 'the game is over: '."""
    args = ("play", "kazu-tori", "--seed", "1", "--bot", "2=random", "--no-log")
    over = b"Enter: finish) > "
    screen = at_terminal(args, ["flip"], tmp_path, moves=(("flip", b") >"),
                                                          ("stop", b"[y/N]"), ("y", over)),
                         answer=b"the game is over: ", prompt=over)
    head = "the game is over: "
    lines = said_lines(screen, head, "Enter: finish) >")
    one = (head + "type undo to take back your last move, table to see the final table, or "
           "press Enter to finish (not 'flip')")
    assert len(lines) >= 2 and all(len(line) <= 80 for line in lines), lines
    assert " ".join(" ".join(lines).split()) == one, lines
    assert all(line.startswith(" " * len(head)) and line[len(head)] != " "
               for line in lines[1:]), lines


def test_the_prompt_is_broken_between_words_at_a_narrow_terminal(tmp_path: Path) -> None:
    """The prompt itself (``referee (the deal of round 1 by p1 Ann) >``, 41 characters) was
    written as one line, which a terminal 30 columns wide broke at its last column, mid-word
    ('... round 1 b|y p1 Ann'). It is broken between words now; at 60 columns the lines after
    the first go on under the words after '('."""
    screen = at_terminal(UNO, [], tmp_path, columns=30)
    assert "referee (the deal of round 1\nby p1 Ann) >" in screen, screen[-600:]
    screen = at_terminal(UNO, ["R5"], tmp_path, columns=60)
    assert "referee (the deal of round 1 by p1 Ann) >" in screen, screen[-600:]  # (it fits)


# (28, 33: just PROMPT_ROOM columns beside the indent of p1, of referee)
@pytest.mark.parametrize("width", [12, 20, 28, 30, 33, 40, 60, 80, 200])
@pytest.mark.parametrize("who, what", [
    ("p1", "claim the 8 (one: may not be taken), or p2 random flips two"),
    ("referee", "p8 random to play on R4 (red) or draw; p9 random has one card and did not "
                "call UNO"),
    ("p2 Annabelle-Marguerite-Longname", "to lay sets matching 3"),
])
def test_the_prompts_lines_fit_and_keep_its_words_and_styles(width: int, who: str,
                                                             what: str) -> None:
    """prompt.prompt_message: each line fits the terminal (but one holding a word longer than
    a line), the words are the prompt's, none cut, the seat in bold and what it may do dim."""
    from kabucli.prompt import PROMPT_ROOM, prompt_message

    message = prompt_message(who, what, width)
    text = "".join(t for _, t in message)
    assert " ".join(text.split()) == f"{who} ({what}) >"
    lines = text.rstrip(" ").split("\n")
    words = f"{who} ({what}) >".split()
    longest = max(map(len, words))
    assert all(len(line) <= width - 1 or longest > width - 1 for line in lines), lines
    assert (len(lines) == 1) == (len(f"{who} ({what}) >") <= width - 1), lines
    assert all(line.strip() != ">" for line in lines), lines  # (with the word before it)
    indent = len(who) + 2 if width - len(who) - 2 >= PROMPT_ROOM else 0
    assert all(line.startswith(" " * indent) and line[indent] != " " for line in lines[1:])
    assert " ".join("".join(t for s, t in message if s == "bold").split()) == who
    assert " ".join("".join(t for s, t in message if s == "dim").split()) == f"({what})"
    plain = prompt_message(who, what, width, plain=True)
    assert {s for s, _ in plain} == {""} and "".join(t for _, t in plain) == text


@pytest.mark.parametrize("width", [20, 30, 44, 80])
@pytest.mark.parametrize("who, what", [
    ("referee", "the deal of round 1 by p1 山田太郎花"),
    ("p1 😀😀😀😀😀", "claim the 8 (one: may not be taken), or p2 random flips two"),
    ("p1 山田太郎", "to play on R4 (red) or draw; p2 田中花子 has one card and did not call UNO"),
])
def test_the_prompts_lines_fit_in_columns_not_characters(width: int, who: str,
                                                         what: str) -> None:
    """A wide character (CJK, emoji) takes two columns: the prompt was measured in characters,
    so 'referee (the deal of round 1 by p1 山田太郎花) >' (43 characters, 48 columns) was one
    line at 44 columns, which the terminal broke inside the name. Each line fits in columns,
    and the lines after the first are indented by the seat's width in columns."""
    from prompt_toolkit.utils import get_cwidth

    from kabucli.prompt import PROMPT_ROOM, prompt_message

    text = "".join(t for _, t in prompt_message(who, what, width))
    assert " ".join(text.split()) == f"{who} ({what}) >"
    lines = text.rstrip(" ").split("\n")
    assert all(get_cwidth(line) <= width - 1 for line in lines), (
        [(line, get_cwidth(line)) for line in lines])
    head = get_cwidth(who) + 2
    indent = head if width - head >= PROMPT_ROOM else 0
    assert all(line.startswith(" " * indent) and line[indent] != " " for line in lines[1:]), lines
