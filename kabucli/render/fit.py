"""Tables that stay readable in a narrow terminal.

Rich fits a table that is too wide by shrinking its widest columns until it fits, whatever
they hold: a seat's name, a rule's name, a number or a hand of cards ends in ``…`` or shrinks
to nothing (a 50-column terminal lost the chips, the hands and the figures of sim's table).
:func:`fit` wraps a table so that it is drawn as a table while every word of every cell still
fits on a line of its column (the columns get their widest words and share the rest), and
else as a list: each row a heading (its first cell) over its other cells, each named by its
column's header, so nothing is cut.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.measure import Measurement
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from collections.abc import Iterable

    from rich.console import Console, ConsoleOptions, RenderResult


_FIRST_WORD = re.compile(r"[ ]+\S+")  # (only where it starts with spaces)


class Fit:
    """A table drawn whole where its words fit, else as a list of its rows (see above)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def _ranges(self, console: Console, options: ConsoleOptions) -> list[Measurement]:
        t = self.table
        out = []
        for c in t.columns:
            r = t._measure_column(console, options, c)
            # a cell that must not wrap (no_wrap on the column or the Text) needs its width
            cells = [c.header, *c.cells] if t.show_header else list(c.cells)
            whole = [Measurement.get(console, options, cell).maximum for cell in cells
                     if c.no_wrap or (isinstance(cell, Text) and cell.no_wrap)]
            # a cell's first word with the spaces before it, which rich keeps on its first line
            # (an Uno Dare card's face, ' WD4 ', was cut to ' WD…' in a column of 4)
            whole += [cell_len(m.group()) for cell in cells if isinstance(cell, Text)
                      and (m := _FIRST_WORD.match(cell.plain)) is not None]
            if whole:
                pad = t._get_padding_width(c._index)
                r = Measurement(max(r.minimum, max(whole) + pad), max(r.maximum,
                                                                       max(whole) + pad))
            out.append(r)
        return out

    def _span(self, ranges: list[Measurement]) -> tuple[int, int]:
        """The least and the most width the table takes, its columns measured (``_ranges``)."""
        extra = self.table._extra_width
        return (sum(r.minimum for r in ranges) + extra, sum(r.maximum for r in ranges) + extra)

    def _sized(self, options: ConsoleOptions, ranges: list[Measurement]) -> Table:
        """The table with its widest columns narrowed first, as rich does, but none below its
        widest word (rich alone would cut words)."""
        t = self.table
        widths = [r.maximum for r in ranges]
        excess = sum(widths) + t._extra_width - options.max_width
        while excess > 0:
            i = max((i for i, r in enumerate(ranges) if widths[i] > r.minimum),
                    key=lambda i: widths[i])
            widths[i] -= 1
            excess -= 1
        sized = copy.copy(t)
        sized.columns = []
        for col, width in zip(t.columns, widths, strict=True):
            c = copy.copy(col)
            c.width = max(1, width - t._get_padding_width(col._index))
            sized.columns.append(c)
        return sized

    def _listed(self) -> Group:
        """Each row as its first cell, in bold, over ``header  cell`` lines."""
        t = self.table
        parts: list[RenderableType] = []
        if t.title:
            title = t.title.copy() if isinstance(t.title, Text) else Text.from_markup(t.title)
            title.stylize("italic")
            parts.append(title)
        cells = [list(c.cells) for c in t.columns]
        for r, row in enumerate(t.rows):
            head = cells[0][r] if cells and r < len(cells[0]) else ""
            heading = _text(head)
            if heading.plain.strip().isdigit():  # a rank or a number: say which
                heading = Text.assemble(f"{t.columns[0].header} ", heading)
            heading.stylize("bold")
            if row.style:
                heading.stylize(row.style)
            grid = Table.grid(padding=(0, 1))
            grid.add_column(no_wrap=True)
            grid.add_column(style="dim")
            grid.add_column()
            for col, column in zip(cells[1:], t.columns[1:], strict=True):
                cell = col[r] if r < len(col) else ""
                if isinstance(cell, str) and not cell.strip():
                    continue
                if isinstance(cell, Text) and not cell.plain.strip():
                    continue
                name = column.header
                label = _text(name)
                grid.add_row(" ", label, cell)
            parts.append(heading)
            parts.append(grid)
        return Group(*parts)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        ranges = self._ranges(console, options)
        low, high = self._span(ranges)
        if high <= options.max_width:
            yield self.table
        elif low <= options.max_width:
            yield self._sized(options, ranges)
        else:
            yield self._listed()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        low, high = self._span(self._ranges(console, options))
        if low <= options.max_width:
            return Measurement(low, high).clamp(max_width=options.max_width)
        return Measurement.get(console, options, self._listed())


def _text(cell: RenderableType) -> Text:
    """A cell or header as the table draws it: a string is markup there (an escaped '[' is
    a '['), so it is here too."""
    return cell.copy() if isinstance(cell, Text) else Text.from_markup(str(cell))


def indented_pairs(rows: Iterable[tuple[RenderableType, RenderableType]],
                   key_style: str = "") -> RenderableType:
    """Rows of a key and its words, indented two spaces: the key never wraps, and in a narrow
    terminal the words wrap under their own column (a help's lines, printed as one string,
    were cut mid-word at the edge)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style=key_style, no_wrap=True)
    grid.add_column()
    for key, words in rows:
        grid.add_row(key, words)
    return Padding(grid, (0, 0, 0, 2), expand=False)


class Parts:
    """A line of parts joined by ``sep`` that, too long for the width, breaks between parts:
    rich breaks at any space, which parted a label from its figure (Uno Dare's ``pile`` at
    the end of one line and ``92`` on the next) and began a line with the separator. A part
    wider than the whole width wraps as words do."""

    breaks_between = True  # (see _unwrapped)

    def __init__(self, parts: list[Text], sep: str = "  ·  ") -> None:
        self.parts = parts
        self.sep = sep

    def lines(self, width: int) -> list[Text]:
        """The parts in lines of at most ``width`` cells (but a part wider than that, alone
        on its line), as many to a line as fit."""
        lines: list[Text] = []
        for part in self.parts:
            if lines and lines[-1].cell_len + cell_len(self.sep) + part.cell_len <= width:
                lines[-1].append(self.sep)
                lines[-1].append_text(part)
            else:
                lines.append(part.copy())
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.lines(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        whole = sum(p.cell_len for p in self.parts) + cell_len(self.sep) * (len(self.parts) - 1)
        widest = max((p.cell_len for p in self.parts), default=0)
        return Measurement(widest, whole).clamp(max_width=options.max_width)


class Either:
    """The first of some tables drawn as a table at the width (every word whole, see
    :class:`Fit`); when none is, the first listed. For a table that is best read one way when
    there is room and another way, still as a table, at a narrower terminal."""

    def __init__(self, first: Table, *others: Table) -> None:
        self.fits = [Fit(first), *(Fit(t) for t in others)]

    def _pick(self, console: Console, options: ConsoleOptions) -> Fit:
        for f in self.fits:
            if f._span(f._ranges(console, options))[0] <= options.max_width:
                return f
        return self.fits[0]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self._pick(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._pick(console, options))


def fit(table: Table) -> Fit:
    """``table``, drawn so that no word in it is cut at any width (see the module)."""
    return Fit(table)


def markdown(text: str) -> RenderableType:
    """``text`` as rich Markdown whose tables are drawn as :func:`fit` draws them (a rules
    page's table of house rules cut its rule names at 50 columns)."""
    from rich.markdown import CodeBlock, Markdown, MarkdownElement, TableElement

    class _FitTable(TableElement):
        def __rich_console__(self, console: Console,
                             options: ConsoleOptions) -> RenderResult:
            for part in super().__rich_console__(console, options):
                yield fit(part) if isinstance(part, Table) else part

    class _HangingCode(CodeBlock):
        # A line too long for the width goes on under where its comment began (under its
        # second word if it has none): at the first column, the last words of an example's
        # comment ('first', 'loses the turn') read as moves of their own.
        def __rich_console__(self, console: Console,
                             options: ConsoleOptions) -> RenderResult:
            code = str(self.text).rstrip()
            width = options.max_width - 2  # (a column of padding each side, as rich's)
            if all(len(line) <= width for line in code.splitlines()):
                yield from super().__rich_console__(console, options)
                return
            yield code_lines(code)

    class _Markdown(Markdown):
        elements: ClassVar[dict[str, type[MarkdownElement]]] = {
            **Markdown.elements, "table_open": _FitTable, "fence": _HangingCode,
            "code_block": _HangingCode}

    return _Markdown(text)


def code_lines(code: str) -> RenderableType:
    """The lines of a code block, each wrapped with a hanging indent (see ``markdown``)."""
    from kabucli.render import Hanging, after_first_word

    lines: list[Text] = []
    for raw in code.splitlines():
        comment = raw.find("  #")
        if comment >= 0:
            hang = len(raw[:comment + 3]) + len(raw[comment + 3:]) - len(
                raw[comment + 3:].lstrip())
        else:
            hang = after_first_word(raw)
        line = Hanging(hang)
        line.append(raw)
        lines.append(line)
    return Padding(Group(*lines), (0, 1), style="markdown.code_block", expand=False)


TITLE_SEP = " · "
# A table's panel is this many columns wide (the terminal's width where that is narrower;
# wider only for a table that needs it), whatever it holds: drawn at every event, a panel
# sized to its contents changed width from one event to the next (62, 67, 62, 65 columns in
# one Dare replay), and the pager's box jumped.
PANEL_WIDTH = 80


def steady(panel: Panel, console: Console, options: ConsoleOptions,
           wraps: bool = False) -> Panel:
    """``panel`` (made with ``expand=False``) drawn :data:`PANEL_WIDTH` wide (see there).
    Wider only for what needs it: a table as wide as it is drawn on one line a row; with
    ``wraps`` (words that go on on the next line), its longest word."""
    inner = options.update_width(options.max_width - 4)  # (less the borders and padding)
    if wraps:  # (a panel measures as its widest line: its words', unwrapped)
        need = Measurement.get(console, inner, panel.renderable).minimum + 4
    else:
        need = _unwrapped(console, inner, panel.renderable) + 4
    out = copy.copy(panel)
    out.expand = True
    out.width = min(options.max_width, max(PANEL_WIDTH, need))
    return out


def _unwrapped(console: Console, options: ConsoleOptions, body: RenderableType) -> int:
    """The width ``body`` needs for its tables to be drawn a line a row, its lines of words
    wrapped: a line of words (a Text, :class:`Parts`) or of cards that goes on in rows
    (``breaks_between``: :class:`kabucli.render.CardBoxes`) needs its longest word or card, a
    table its widest row. Measured whole, a panel took the width of its longest line of words (Uno
    Dare's dare, 100 columns), and changed width at each event of a wide terminal."""
    if isinstance(body, Group):
        return max((_unwrapped(console, options, r) for r in body.renderables), default=0)
    measured = Measurement.get(console, options, body)
    wraps = isinstance(body, Text) or getattr(body, "breaks_between", False)
    return measured.minimum if wraps else measured.maximum


class Steady:
    """A panel of words drawn :data:`PANEL_WIDTH` wide, as the tables' panels are."""

    def __init__(self, panel: Panel) -> None:
        self.panel = panel

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield steady(self.panel, console, options, wraps=True)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options,
                               steady(self.panel, console, options, wraps=True))


class _Titled:
    """A panel whose title is its border's where the title fits on it, else its first line
    (rich cuts a title longer than the panel: the pot, the target went at 50 columns). A
    title of parts (``Uno Dare · round 1 over · next dealer p2 · target 60 (winner) · dares:
    family``) keeps on the border the parts that fit there, and the rest, whole, is the
    panel's first line (at 80 columns the whole title as that line wrapped mid-part)."""

    def __init__(self, body: RenderableType, title: str) -> None:
        self.body = body
        self.title = title

    def _panel(self, console: Console, options: ConsoleOptions) -> Panel:
        from rich.cells import cell_len

        room = options.max_width - 6  # the corners and the spaces about the title
        if cell_len(self.title) <= room:
            return Panel(self.body, title=self.title, title_align="left", expand=False)
        parts = self.title.split(TITLE_SEP)
        on = 0  # the parts on the border
        while on < len(parts) and cell_len(TITLE_SEP.join(parts[:on + 1])) <= room:
            on += 1
        if on == 0:  # not even the first part fits: the whole title inside
            return Panel(Group(Text(self.title, style="bold"), self.body), expand=False)
        return Panel(Group(Text(TITLE_SEP.join(parts[on:]), style="bold"), self.body),
                     title=TITLE_SEP.join(parts[:on]), title_align="left", expand=False)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield steady(self._panel(console, options), console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options,
                               steady(self._panel(console, options), console, options))


def titled(body: RenderableType, title: str) -> RenderableType:
    """``body`` in a panel titled ``title`` that no width cuts (see :class:`_Titled`)."""
    return _Titled(body, title)
