"""``kabucli replay LOG --step``: a pager over a recorded game that goes back and forward.

:class:`Positions` has the match at any event of a log at hand. It walks the log once at the
start (checking every event, so it knows where a log breaks a rule, and noting where each
round starts) and keeps a checkpoint every ``every`` events: a copy of the match's state.
Going to event ``k`` then starts from the checkpoint at or before ``k`` (or from the match
where it is, when that is nearer) and applies at most ``every`` events. A long log keeps at
most ``MAX_CHECKPOINTS`` copies, further apart: a state grows with its match, and a copy
every 256 events of a million-event log took 4 of its 6 seconds to open and 400 MB; a step
back then applies a few thousand events, a few milliseconds.

:class:`Pager` reads commands and draws: at a terminal each key acts at once (prompt_toolkit
key bindings; a command with an argument, ``g 12`` or ``/text``, is typed and ended with
Enter); otherwise (a pipe, a script, a test) one command a line. Its words are in
:mod:`kabucli.render.pager`.
"""

from __future__ import annotations

import copy
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any, BinaryIO, TextIO

import msgspec
from rich.console import Console, RenderableType
from rich.text import Text

from kabucli import render
from kabucli.engine import Game, Match, Pending, Violation
from kabucli.events import Event, Forfeit, Undo
from kabucli.ledger import Ledger
from kabucli.notation import typed_form
from kabucli.render import pager as words

CHECKPOINT_EVERY = 256  # events between two copies of the state
MAX_CHECKPOINTS = 512  # copies of the state a log keeps at most (then further apart)
MAX_LINE = 1000  # the longest command read; a longer line is ignored as a whole

_ATOMS = (type(None), bool, int, float, str, bytes, range, Pending)
# Whether a type's objects never change (so a copy shares them): the atoms above, and frozen
# structs (events, rules), filled in as types are met.
_FIXED: dict[type, bool] = dict.fromkeys(_ATOMS, True)


def _fixed(t: type) -> bool:
    fixed = _FIXED.get(t)
    if fixed is None:
        fixed = _FIXED[t] = bool(issubclass(t, msgspec.Struct) and t.__struct_config__.frozen)
    return fixed


def _all_fixed(items: Any) -> bool:
    """Whether every item of a list, tuple or set never changes (the types are gathered at C
    speed: a state's long lists of numbers or events are copied as one piece)."""
    return all(_fixed(t) for t in set(map(type, items)))


class Uncopyable(Exception):
    """A state holds an object :func:`clone` cannot copy (the pager then keeps no
    checkpoints: each step back walks the log from its start)."""


def clone(obj: Any, blank: dict[type, Callable[[], Any]], memo: dict[int, Any]) -> Any:
    """A deep copy of a game's state (or of a part of it) that shares only what never changes:
    numbers, text, events and rules (frozen structs), :class:`Pending` answers.

    ``copy.deepcopy`` cannot copy a class compiled by mypyc (it would call its ``__init__``
    without arguments), so an object of such a class is made by ``blank[its class]()`` and
    given every attribute the class lists in ``__mypyc_attrs__``; a plain class is made
    without ``__init__`` and given its slots and its ``__dict__``."""
    if isinstance(obj, _ATOMS):
        return obj
    key = id(obj)
    done = memo.get(key)
    if done is not None:
        return done
    t = type(obj)
    new: Any
    if t is list:
        if _all_fixed(obj):
            new = memo[key] = obj.copy()
        else:
            new = memo[key] = []
            new.extend(clone(x, blank, memo) for x in obj)
    elif t is dict:
        if _all_fixed(obj.keys()) and _all_fixed(obj.values()):
            new = memo[key] = obj.copy()
        else:
            new = memo[key] = {}
            for k, v in obj.items():
                new[clone(k, blank, memo)] = clone(v, blank, memo)
    elif t is tuple or t is frozenset:
        if _all_fixed(obj):
            return obj
        new = memo[key] = t(clone(x, blank, memo) for x in obj)
    elif t is set:
        new = memo[key] = obj.copy() if _all_fixed(obj) else {clone(x, blank, memo) for x in obj}
    elif isinstance(obj, msgspec.Struct):
        if t.__struct_config__.frozen:
            return obj
        new = memo[key] = msgspec.structs.replace(obj)
        for name in t.__struct_fields__:
            setattr(new, name, clone(getattr(obj, name), blank, memo))
    elif isinstance(obj, dict):  # a Counter, a defaultdict: copy.copy keeps what they are
        new = memo[key] = copy.copy(obj)
        for k in new:
            new[k] = clone(new[k], blank, memo)
    elif hasattr(t, "__mypyc_attrs__"):
        make = blank.get(t)
        if make is None:
            raise Uncopyable(t.__qualname__)
        new = memo[key] = make()
        for name in t.__mypyc_attrs__:
            try:
                value = getattr(obj, name)
            except AttributeError:  # not set yet: not set in the copy either
                try:
                    delattr(new, name)
                except AttributeError:
                    pass
                except Exception as exc:
                    raise Uncopyable(f"{t.__qualname__}.{name}") from exc
                continue
            setattr(new, name, clone(value, blank, memo))
    elif t.__module__.startswith("kabucli") and not isinstance(obj, type):
        new = memo[key] = object.__new__(t)
        for cls in t.__mro__:
            for name in getattr(cls, "__slots__", ()):
                if hasattr(obj, name):
                    setattr(new, name, clone(getattr(obj, name), blank, memo))
        for name, value in getattr(obj, "__dict__", {}).items():
            setattr(new, name, clone(value, blank, memo))
    else:
        raise Uncopyable(t.__qualname__)
    return new


class _Checkpoint(msgspec.Struct, frozen=True):
    """The match after ``pos`` events: its state (None at 0: a fresh match), the log's
    ranges of the events in effect (an undo takes some back), chance events so far, and the
    forfeit that ended it, if one did."""

    pos: int
    state: Any
    runs: tuple[tuple[int, int], ...]
    chances: int
    forfeit: Forfeit | None


class Positions:
    """The match at any event ``0..last`` of a log (``last``: the last event, or the one before
    the first that breaks a rule), with the events where rounds start."""

    def __init__(self, game: Game, header: Any, events: Sequence[Event],
                 every: int = CHECKPOINT_EVERY,
                 progress: Callable[[int, int], None] | None = None) -> None:
        """``progress`` is told (events walked, all events) as the first walk goes."""
        self.game = game
        self.header = header
        self.events = events
        self.every = max(1, every, -(-len(events) // MAX_CHECKPOINTS))
        self.rounds: list[int] = []  # the events that start a round, in order
        self.violation: Violation | None = None
        # what each undo took back (render.Takebacks), by the undo's number
        self.taken: dict[int, list[tuple[int, Event]]] = {}
        self.copies = True  # whether states can be copied (else no checkpoints but the first)
        fresh = Match(game, header)
        self._blank: dict[type, Callable[[], Any]] = {
            type(fresh.state): lambda: game.new_state(fresh.rules, fresh.nseats, fresh.physical),
            Ledger: lambda: Ledger(0, 0)}
        self.checkpoints: list[_Checkpoint] = [_Checkpoint(0, None, (), 0, None)]
        self._walk_all(progress)
        self.match = fresh  # the match at ``pos``
        self.pos = 0

    # -- the first walk -------------------------------------------------------------------
    def _walk_all(self, progress: Callable[[int, int], None] | None) -> None:
        game = self.game
        m = Match(self.game, self.header)
        runs: list[list[int]] = []
        tags = render.round_tags(game)
        takebacks = render.Takebacks()
        every = self.every
        for index, ev in enumerate(self.events, start=1):
            reason = m.why_not(ev)
            if reason is not None:
                self.violation = Violation(index, game.actor(ev), game.notate(ev), reason)
                break
            _feed(m, runs, index - 1, ev)
            taken = takebacks.step(index, ev, m)
            if taken is not None:
                self.taken[index] = taken
            if render.is_round_start(game, ev, m, tags):
                self.rounds.append(index)
            if index % every == 0 and self.copies:
                self._keep(m, runs)
            if index & 4095 == 0 and progress is not None:
                progress(index, len(self.events))
        if progress is not None:  # (done: at the end, or at the event that breaks a rule)
            progress(len(self.events), len(self.events))
        self.last = m.logged

    def _keep(self, m: Match, runs: list[list[int]]) -> None:
        try:
            state = self._copy(m.state)
        except Uncopyable:
            self.copies = False
            del self.checkpoints[1:]
            return
        self.checkpoints.append(_Checkpoint(m.logged, state,
                                            tuple((a, b) for a, b in runs),
                                            m._chances, m.forfeit))

    def _copy(self, state: Any) -> Any:
        return clone(state, self._blank, {})

    # -- moving ---------------------------------------------------------------------------
    def goto(self, k: int) -> None:
        """Make :attr:`match` the match after event ``k`` (``0 <= k <= last``)."""
        if not 0 <= k <= self.last:
            raise ValueError(f"event {k} is not in 0-{self.last}")
        cp = self.checkpoints[bisect_right(self.checkpoints, k, key=lambda c: c.pos) - 1]
        if k < self.pos or cp.pos > self.pos:
            self._restore(cp)
        while self.pos < k:
            self.forward()

    def forward(self) -> None:
        """One event on (the events up to ``last`` are known to be valid)."""
        self.match._accept(self.events[self.pos])
        self.pos += 1

    def _restore(self, cp: _Checkpoint) -> None:
        m = Match(self.game, self.header)
        if cp.state is not None:
            m.state = self._copy(cp.state)  # the checkpoint itself stays as it was
            m.logged = cp.pos
            m.events = list(chain.from_iterable(self.events[a:b] for a, b in cp.runs))
            m._chances = cp.chances
            m.forfeit = cp.forfeit
        self.match = m
        self.pos = cp.pos

    # -- reading --------------------------------------------------------------------------
    def next_round(self, forward: bool) -> int | None:
        """The event where the next (or previous) round starts, seen from :attr:`pos`."""
        if forward:
            i = bisect_right(self.rounds, self.pos)
            return self.rounds[i] if i < len(self.rounds) else None
        i = bisect_left(self.rounds, self.pos)
        return self.rounds[i - 1] if i > 0 else None


def _feed(m: Match, runs: list[list[int]], i: int, ev: Event) -> None:
    """Apply the log's event ``i`` (0-based, already checked) to ``m``, and keep ``runs``, the
    log's ranges of the events in effect, as ``m.events`` changes."""
    m._accept(ev)
    t = type(ev)
    if t is Undo:  # the events in effect are now a start of what they were
        keep = len(m.events)
        for j, run in enumerate(runs):
            size = run[1] - run[0]
            if keep <= size:
                run[1] = run[0] + keep
                del runs[j + 1:]
                if keep == 0:
                    del runs[j]
                break
            keep -= size
    elif t is not Forfeit:
        if runs and runs[-1][1] == i:
            runs[-1][1] = i + 1
        else:
            runs.append([i, i + 1])


class Pager:
    """Reads commands and shows the match at the event the reader asks for."""

    def __init__(self, game: Game, data: Any, out: Console, viewer: int | None = None,
                 every: int = CHECKPOINT_EVERY,
                 progress: Callable[[int, int], None] | None = None) -> None:
        self.game = game
        self.data = data
        self.out = out
        self.viewer = viewer
        self.times: list[int] | None = data.times
        self.at = Positions(game, data.header, data.events, every, progress)
        self.total = len(data.events)
        self.search: str | None = None

    # -- drawing --------------------------------------------------------------------------
    def line(self, index: int, m: Match) -> Text:
        """Event ``index``'s line (``m``: the match after it), as the replay shows it."""
        return render.event_line(self.game, index, self.at.events[index - 1], m, self.viewer,
                                 render.time_of(self.times, index), self.at.taken.get(index))

    def status(self) -> str:
        at = self.at
        return words.status(at.pos, at.last, self.total,
                            render.round_label(self.game, at.match))

    def frame(self) -> list[RenderableType]:
        """The event line, the table and any note for where the pager is."""
        at = self.at
        m = at.match
        parts: list[RenderableType] = [
            self.line(at.pos, m) if at.pos else Text(words.before_first()),
            render.table(self.game, m, self.viewer)]
        if at.pos == at.last:
            if m.over:
                parts.append(render.outcome_panel(self.game, m))
            told = render.seen_violation(self.game, at.violation, list(at.events),
                                         self.viewer)
            if told is not None:
                t = render.time_of(self.times, told.index)
                parts.append(Text(words.stop_note(told.index, render.broken_rule(told),
                                                  None if t is None else render.clock_text(t)),
                                  style="red"))
            elif self.data.error is not None:
                parts.append(Text(words.unfinished_note(str(self.data.error))
                                  + render.torn_tail(self.data, self.data.path),
                                  style="yellow"))
            elif not m.over:  # a game quit or cut short: what it waits for, how to go on
                parts.append(render.unfinished_line(self.game, m, self.data.path))
        return parts

    # -- commands -------------------------------------------------------------------------
    def command(self, line: str) -> tuple[bool, str | None]:
        """Act on one typed command: (whether the pager moved, a message or None). Raises
        EOFError for quit. A command is read folded as a typed move is (full-width 'ｇ　１２'
        is 'g 12': see typed_form)."""
        cmd = typed_form(line).strip()
        low = cmd.lower()
        at = self.at
        if cmd == "N":  # (before n, next: any case)
            return self.find("", forward=False)
        if low in ("", "n", "next", "\x1b[c", "\x1b[b", "\x1boc", "\x1bob"):
            return self.go(at.pos + 1)
        if low in ("b", "back", "\x1b[d", "\x1b[a", "\x1bod", "\x1boa"):
            if at.pos == 0:
                return False, words.at_start()
            return self.go(at.pos - 1)
        if low in ("q", "quit", "exit"):
            raise EOFError
        if low in ("h", "help", "?"):
            return False, words.HELP
        if low in ("]", "["):
            target = at.next_round(low == "]")
            if target is None:
                return False, words.no_round(low == "]")
            return self.go(target)
        if cmd[:1] in ("/", "?"):
            return self.find(cmd[1:], forward=cmd[0] == "/")
        first, *rest = cmd.split(maxsplit=1)
        if first.lower() in ("g", "go", "goto"):
            return self.jump(rest[0] if rest else "")
        if low[:1] == "g" and low[1:].isascii() and low[1:].isdigit():  # g12
            return self.jump(low[1:])
        if cmd.isascii() and cmd.isdigit():
            return self.jump(cmd)
        return False, words.unknown(line)

    def jump(self, arg: str) -> tuple[bool, str | None]:
        if not (arg.isascii() and arg.isdigit()):
            return False, words.not_a_number(arg)
        if len(arg) > 12 or not 0 <= int(arg) <= self.at.last:
            n = int(arg) if len(arg) <= 12 else 10**12
            return False, words.out_of_range(n, self.at.last, self.total)
        return self.go(int(arg))

    def go(self, k: int) -> tuple[bool, str | None]:
        at = self.at
        if k > at.last:
            return False, words.at_end(at.last, self.total)
        at.goto(k)
        return True, None

    def find(self, text: str, forward: bool) -> tuple[bool, str | None]:
        """Search for the next (or previous) event whose shown line holds ``text`` (any case,
        both folded as typed lines are, see typed_form; empty: the text searched for last)."""
        if not text:
            if self.search is None:
                return False, words.no_search()
            text = self.search
        self.search = text
        want = typed_form(text).lower()
        at = self.at
        start = at.pos
        if forward:
            while at.pos < at.last:
                at.forward()
                if want in typed_form(self.line(at.pos, at.match).plain).lower():
                    return True, None
            at.goto(start)
            return False, words.not_found(text, True)
        # backward: each block between two checkpoints, the nearest first
        end = start - 1  # the last event that may be found
        while end >= 1:
            cps = at.checkpoints
            cp = cps[bisect_right(cps, end - 1, key=lambda c: c.pos) - 1]
            at.goto(cp.pos)
            found = None
            while at.pos < end:
                at.forward()
                if want in typed_form(self.line(at.pos, at.match).plain).lower():
                    found = at.pos
            if found is not None:
                at.goto(found)
                return True, None
            end = cp.pos
        at.goto(start)
        return False, words.not_found(text, False)

    # -- the two ways of reading commands -------------------------------------------------
    def show(self, status: bool = True) -> None:
        for part in self.frame():
            self.out.print(part)
        if status:
            self.out.print(Text(self.status(), style="dim"), soft_wrap=True)

    def _act(self, line: str, too_long: bool, redraw: Callable[[], None]) -> bool:
        """Act on one command typed (``too_long``: a line past :data:`MAX_LINE`, refused):
        ``redraw`` when the pager moved, else say why not; False when the reader quits. (A
        command either moves the pager or answers with a message, never both.)"""
        if too_long:
            self.out.print(Text(words.too_long(MAX_LINE)), soft_wrap=True)
            return True
        try:
            moved, message = self.command(line)
        except EOFError:
            return False
        if moved:
            redraw()
        if message == words.HELP:
            self.out.print(words.help_grid())
        elif message is not None:
            self.out.print(Text(message), soft_wrap=True)
        return True

    def run_lines(self, stream: BinaryIO | TextIO) -> None:
        """One command a line from ``stream`` (a pipe, a script); EOF quits."""
        self.out.print(render.header_panel(self.game, Match(self.game, self.data.header),
                                           self.viewer))
        self.show()
        while True:
            line, too_long = _read_line(stream)
            if line is None:
                return
            if not self._act(line, too_long, self.show):
                return

    def run_keys(self) -> None:
        """At a terminal: keys act at once, a command with an argument ends with Enter."""
        from prompt_toolkit import PromptSession
        from prompt_toolkit.application.current import get_app
        from prompt_toolkit.filters import Condition
        from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings
        from prompt_toolkit.output import ColorDepth

        from kabucli.errors import Terminated
        from kabucli.prompt import NO_MOUSE, Prompting

        keys = KeyBindings()
        empty = Condition(lambda: not get_app().current_buffer.text)

        def bind(command: str, *names: str) -> None:
            def act(event: KeyPressEvent) -> None:
                event.app.exit(result=command)
            for name in names:
                keys.add(name, filter=empty)(act)

        bind("n", "right", "down", " ", "n")
        bind("b", "left", "up", "b")
        bind("]", "]")
        bind("[", "[")
        bind("h", "h")
        bind("q", "q")
        bind("N", "N")

        def redraw() -> None:
            self.out.clear()
            self.show(status=False)

        session: PromptSession[str] = PromptSession(
            # (an escape sequence typed in, ESC[31m from pasted coloured text, reads as a
            # mouse report: dropped, as at the play prompt)
            key_bindings=merge_key_bindings([keys, NO_MOUSE]),
            enable_suspend=True,  # (Ctrl-Z: to the shell's background, as at the play prompt)
            color_depth=ColorDepth.MONOCHROME if self.out.no_color else None)
        asking = Prompting(session)  # (SIGTERM, SIGHUP end it: the terminal put back)
        self.out.clear()
        self.show(status=False)
        while True:
            try:
                # (broken between its parts to the terminal's width, read at each prompt: a
                # window resized while the pager is open is measured again)
                line = asking.ask(words.fitted(self.status(), self.out.width))
            except Terminated:
                raise
            except (EOFError, KeyboardInterrupt):
                return
            if not self._act(line, len(line) > MAX_LINE, redraw):
                return


def _read_line(stream: BinaryIO | TextIO) -> tuple[str | None, bool]:
    """One line of at most :data:`MAX_LINE` characters (None at the end of the input), and
    whether it was longer (then the rest of it is read and dropped); a line of more than
    16 MiB (``< /dev/zero``, read for ever at full speed before) is the input's end."""
    from kabucli.files import EndlessLine, read_line

    try:
        line, length = read_line(stream, MAX_LINE)
    except EndlessLine:
        return None, False
    if line is None or length > MAX_LINE:
        return line, line is not None
    return line.rstrip("\r"), False


def page(pager: Pager, stdin: Any = None) -> Violation | None:
    """``replay --step``: page through a read log (``pager``'s) until the reader quits; the
    violation of the log, if it breaks a rule."""
    stdin = sys.stdin if stdin is None else stdin
    # (a terminal that takes no escape sequences, TERM=dumb, reads a command a line, as a
    # pipe does: the key reader sent it escape sequences, which it prints as text)
    if stdin.isatty() and sys.stdout.isatty() and not pager.out.is_dumb_terminal:
        pager.run_keys()
    else:
        pager.run_lines(getattr(stdin, "buffer", stdin))
    return pager.at.violation
