"""The play prompt at a terminal: a line editor (prompt_toolkit) with arrow keys, a history
kept per game across sessions, and Tab completion of the moves that are legal now.

Only an interactive terminal gets it; scripts, pipes and tests read lines as before.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import suppress
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import ColorDepth, Output, create_output
from prompt_toolkit.utils import get_cwidth

from kabucli.errors import KabuError
from kabucli.notation import split_seat, typed_form
from kabucli.session import Session, typed_names

HISTORY_KEPT = 1000  # the newest lines of a history file that Up can recall
# A history file grew by every line ever typed and was read whole at each start; past this
# size it is written again with the lines Up can recall (the newest HISTORY_KEPT) when read.
HISTORY_TRIM_BYTES = 256 * 1024


def history_path(game: str) -> Path:
    """Where the lines typed in ``game`` are kept: ``$XDG_STATE_HOME/kabucli/history-GAME``
    (``~/.local/state/kabucli/...`` when XDG_STATE_HOME is not set)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "kabucli" / f"history-{game}"


class KeptHistory(FileHistory):
    """A history file that cannot be read or written does not stop play: the lines of this
    session are still recalled, they are just not kept."""

    def load_history_strings(self) -> Iterable[str]:
        path = Path(os.fsdecode(self.filename))
        try:
            before = _identity(path)  # (None: no file, or one that cannot be looked at)
            kept = list(islice(super().load_history_strings(), HISTORY_KEPT))
        except (OSError, UnicodeError):
            return []
        if before is not None and before[1] > HISTORY_TRIM_BYTES:
            _trim(path, kept, before)
        return kept

    def store_string(self, string: str) -> None:
        # a line typed with bytes that are not UTF-8 holds surrogates, which UTF-8 cannot
        # hold: kept with those as "?" (it printed a traceback from the event loop)
        kept = string.encode("utf-8", "replace").decode("utf-8")
        try:
            Path(os.fsdecode(self.filename)).parent.mkdir(parents=True, exist_ok=True)
            super().store_string(kept)
        except OSError:
            pass


def _identity(path: Path) -> tuple[int, int, int] | None:
    """The file at ``path`` as it is now (inode, size, time of its last change)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _trim(path: Path, kept: list[str], read: tuple[int, int, int]) -> None:
    """The history file at ``path`` written again with ``kept`` (newest first) alone, in
    FileHistory's form: through a new file of its own name (two kabucli may start at once) put
    in its place with the file's permissions (a private history stays private); where
    ``path`` is a link, in the place of the file it points to (the link stays). Left as it is
    when it cannot be written, or when it changed since it was ``read`` (another kabucli
    appended a line: the next start trims it)."""
    try:
        real = path.resolve()
        mode = stat.S_IMODE(real.stat().st_mode)
        fd, name = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".new", dir=real.parent)
    except (OSError, RuntimeError):
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write("".join("\n# kept\n" + "".join(f"+{line}\n" for line in entry.split("\n"))
                            for entry in reversed(kept)).encode("utf-8", "replace"))
        os.chmod(name, mode)
        if _identity(real) != read:
            raise FileExistsError(real)  # (changed: not replaced)
        os.replace(name, real)
    except OSError:
        with suppress(OSError):
            os.unlink(name)


def open_history(game: str) -> History:
    try:
        return KeptHistory(history_path(game))
    except RuntimeError:  # no home folder to keep it in
        return InMemoryHistory()


class MoveCompleter(Completer):
    """Completes the word being typed into a legal move (as notated, without the seat where
    the line means the same without it, or with a player's name for the seat) or, as the
    first word, a table command."""

    def __init__(self, sess: Session) -> None:
        self.sess = sess

    def forms(self) -> list[str]:
        """Every way of typing a legal move now that means that move; where none is listed
        (unknown cards, at a real table), how each kind of move typed now begins
        (:meth:`starts`)."""
        sess = self.sess
        game = sess.game
        named = set(typed_names(sess.match.header.seats).values())
        out: dict[str, None] = {}
        texts = sess.legal_texts(people_only=True, shown=True)
        if not texts:
            return self.starts(named)
        for text in texts:
            out[text] = None
            words = text.split()
            # without the seat, without the verb, and the seat without the verb ('p2 R5')
            others = [" ".join(words[1:]), " ".join(words[2:]), " ".join(words[:1] + words[2:])]
            seat = int(words[0][1:]) if words[0][1:].isdigit() else 0
            if seat in named:
                others.append(" ".join([sess.match.seat_name(seat), *words[1:]]))
            for other in others:
                try:
                    if other and game.notate(sess.parse_line(other)) == text:
                        out[other] = None
                except KabuError:
                    pass
        return list(out)

    def starts(self, named: set[int]) -> list[str]:
        """How each kind of move typed now begins (``deal``, ``p2 sets``: the game's
        :meth:`~kabucli.engine.Game.move_words`), each also with the player's name for its
        seat, and without the seat while the state waits for one seat or the referee (a
        move typed without its seat is then that seat's). One that is no move allowed as it
        stands (the cards follow: ``deal 1-7-5``) ends with a space, which its last word
        completes with."""
        sess = self.sess
        m = sess.match
        alone = len(m.pending.seats) <= 1
        out: dict[str, None] = {}
        for text in sess.move_words(people_only=True):
            try:
                whole = m.why_not(sess.parse_line(text)) is None
            except KabuError:
                whole = False
            tail = "" if whole else " "
            out[text + tail] = None
            seat, rest = split_seat(text, m.nseats)
            if seat is None or not rest:
                continue
            if alone:
                out[rest + tail] = None
            if seat in named:
                out[f"{m.seat_name(seat)} {rest}{tail}"] = None
        return list(out)

    def words(self, before: str) -> list[tuple[str, str]]:
        """The words that may come where the cursor is after ``before``, each with what it
        leads to (the whole move when only one does). ``before`` is read folded, as the
        line will be (full-width 'ｐ１　ｓ' completes as 'p1 s': see typed_form)."""
        before = typed_form(before)
        done = before.split()
        current = "" if not before or before[-1].isspace() else done.pop()
        done_low = [w.lower() for w in done]
        low = current.lower()
        found: dict[str, list[str]] = {}
        for form in self.forms():
            ws = form.split()
            if (len(ws) > len(done) and [w.lower() for w in ws[:len(done)]] == done_low
                    and ws[len(done)].lower().startswith(low)):
                # (the last word of a move's beginning that the cards follow: with a space)
                last = len(ws) == len(done) + 1 and form.endswith(" ")
                found.setdefault(ws[len(done)] + " " * last, []).append(form.rstrip())
        out = [(w, forms[0] if len(forms) == 1 else f"{len(forms)} moves")
               for w, forms in found.items()]
        if not done:
            commands = self.sess.commands()
            out += [(c, what) for c, what in commands.items() if c.startswith(low)]
        return out

    def get_completions(self, document: Document,
                        complete_event: CompleteEvent) -> Iterator[Completion]:
        before = document.text_before_cursor
        current = "" if not before or before[-1].isspace() else before.split()[-1]
        for word, meta in self.words(before):
            yield Completion(word, -len(current), display_meta=meta)


def _no_mouse() -> KeyBindings:
    """The prompt takes no mouse: what the terminal reads as a mouse report is dropped. (An
    escape sequence typed in, ``ESC[31m``, reads as one, and prompt_toolkit's own handler
    failed on it with a traceback from the event loop.) The replay pager's keys take these
    bindings too."""
    bindings = KeyBindings()

    @bindings.add(Keys.Vt100MouseEvent, eager=True)
    def _(event: KeyPressEvent) -> None:
        return None

    return bindings


NO_MOUSE = _no_mouse()


class Stoppable:
    """A prompt_toolkit prompt (``prompt``, a PromptSession) that a signal stopping the
    program (SIGTERM, SIGHUP) ends from its event loop (:func:`stop_prompt`), so that the
    terminal is put back as it was (raw mode off, bracketed paste off) before the program
    stops: ended outright, ``replay --step`` left the shell's terminal echoing nothing."""

    prompt: PromptSession[str]
    _stopped: BaseException | None = None

    def _ask(self, message: Any) -> str:
        """The line typed at ``self.prompt`` showing ``message``; the stopping signal's
        exception when one ended it."""
        self._stopped = None
        _ASKING.append(self)
        try:
            line = self.prompt.prompt(message)
        except BaseException:
            if self._stopped is None:
                raise
            line = ""
        finally:
            _ASKING.remove(self)
        if self._stopped is not None:
            raise self._stopped
        return line

    def _stop(self, exc: BaseException) -> bool:
        """End the prompt with ``exc`` from its event loop (see :func:`stop_prompt`)."""
        app = self.prompt.app
        loop = app.loop
        if not app.is_running or loop is None or loop.is_closed():
            return False
        self._stopped = exc

        def end() -> None:
            running = app.future
            if app.is_running and running is not None and not running.done():
                app.exit(exception=exc)
            # (else the prompt is ending with a line of its own: ask raises exc after it)

        loop.call_soon_threadsafe(end)  # (wakes the loop where it waits for a key)
        return True


class Prompting(Stoppable):
    """A PromptSession of its own made stoppable (the replay pager's)."""

    def __init__(self, session: PromptSession[str]) -> None:
        self.prompt = session

    def ask(self, message: Any) -> str:
        return self._ask(message)


class LineEditor(Stoppable):
    """Reads the lines of a play session at a terminal."""

    def __init__(self, sess: Session, stream: TextIO, plain: bool,
                 history: History | None = None, input: Input | None = None,
                 output: Output | None = None) -> None:
        self.plain = plain
        self.prompt: PromptSession[str] = PromptSession(
            history=history if history is not None else open_history(sess.game.name),
            completer=MoveCompleter(sess), complete_while_typing=False,
            key_bindings=NO_MOUSE,
            # Ctrl-Z puts kabucli in the background, as it does any program at a shell (it
            # was typed into the line as ^Z); the log is on disk before every prompt, and
            # fg brings the prompt back as it was
            enable_suspend=True,
            input=input, output=output if output is not None else create_output(stream),
            color_depth=ColorDepth.MONOCHROME if plain else None)

    def ask(self, who: str, what: str) -> str:
        """One line; EOFError on Ctrl-D, KeyboardInterrupt on Ctrl-C. The prompt is broken
        between words at the terminal's width, as it is when it is drawn (a resize too). A
        signal that stops the game while the prompt is up (:func:`stop_prompt`) ends it with
        the signal's exception."""
        output = self.prompt.output
        return self._ask(lambda: prompt_message(who, what, output.get_size().columns,
                                                self.plain))


_ASKING: list[Stoppable] = []  # the prompt that is up (on the main thread)


def stop_prompt(exc: BaseException) -> bool:
    """From a signal's handler that stops the game (SIGTERM, SIGHUP): whether the prompt was
    up, and now ends with ``exc`` (raised by :meth:`LineEditor.ask`). Raised by the handler
    itself, it landed in whatever the prompt's event loop was running: in a task (its
    history's loading), prompt_toolkit caught it and printed a traceback, and a task of the
    loop was left pending."""
    return bool(_ASKING) and _ASKING[-1]._stop(exc)


PROMPT_ROOM = 24  # the fewest columns a prompt's lines after the first keep beside their indent


def prompt_message(who: str, what: str, width: int, plain: bool = False) -> FormattedText:
    """The prompt ``who (what) > `` (the seat in bold, what it may do dim, unless ``plain``),
    broken between words where it is longer than a terminal ``width`` columns wide, the
    lines after the first under the words after ``(`` (where that leaves them PROMPT_ROOM
    columns). The terminal broke it at its last column, mid-word ('or p2 sharp flip|s two'). A
    word longer than a line stays whole, for the terminal to break."""
    styles = ("", "", "") if plain else ("bold", "dim", "")
    parts = [(styles[0], who), (styles[2], " "), (styles[1], f"({what})"), (styles[2], " > ")]
    chars = [(style, ch) for style, text in parts for ch in text]
    end = len(chars) - 1  # the last space is where the cursor waits: it takes no column
    # measured in columns, not characters: a wide character (CJK, emoji) takes two
    columns = [0]  # columns[i]: the columns of the characters before the i-th
    for _, ch in chars:
        columns.append(columns[-1] + get_cwidth(ch))
    head = get_cwidth(who) + 2
    indent = head if width - head >= PROMPT_ROOM else 0
    breaks: list[int] = []  # the spaces that become line ends
    start, limit, last = 0, width - 1, -1
    for i in range(end):
        if chars[i][1] == " " and i != end - 2:  # (the '>' stays with the word before it)
            last = i
        if columns[i + 1] - columns[start] > limit and last > start:
            breaks.append(last)
            start, limit, last = last + 1, width - 1 - indent, -1
    for i in breaks:
        chars[i] = (chars[i][0], "\n" + " " * indent)
    out: list[tuple[str, str]] = []
    for style, text in chars:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + text)
        else:
            out.append((style, text))
    return FormattedText(out)
