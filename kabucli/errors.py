"""The error classes: each becomes one clear line at the command line, never a traceback."""

from __future__ import annotations


class KabuError(Exception):
    """Base of every error kabucli reports to a person."""


class ParseError(KabuError):
    """Typed input that does not parse (a mistyped move, card, seed or option)."""


class IllegalMove(KabuError):
    """Input that parses but is not legal in the current state."""


class RuleError(KabuError):
    """An unknown house rule or a value it cannot take."""


class RulesFileError(RuleError):
    """A rules file that cannot be read, or is not TOML (unreadable, where a bad rule in it
    is refused)."""


class LogError(KabuError):
    """A log that cannot be read: missing, truncated, corrupted or of an unknown format."""

    def __init__(self, message: str, index: int | None = None, good: int | None = None,
                 path: object = None, torn: bool = False) -> None:
        """``index``: the record at fault (0 = the header), ``good``: the events read whole
        before it, ``path``: the file; each says where, before ``message``. ``torn``: the
        record is a torn tail, the last one cut short as a crash while writing leaves it
        (``kabucli resume`` sets it aside and goes on), not damage."""
        self.index = index
        self.good = good
        self.torn = torn
        where = f"event {index}: " if index is not None and index > 0 else ""
        where = "header: " if index == 0 else where
        file = f"{path}: " if path is not None else ""
        super().__init__(f"{file}{where}{message}")


class NeedInputs(Exception):
    """An undo came to a :class:`kabucli.engine.Deriver` that keeps neither events nor inputs
    (the streamed audit then reads the log again, keeping them). Not an error a person sees."""


class BrokenLogError(LogError):
    """A log read whole that breaks a rule where that stops the work asked of it (converting
    it into the binary encoding, which holds only the inputs): the log's fault, as an
    audit's verdict is, not a file that cannot be read."""


class LogWriteError(LogError):
    """The log of a game being played cannot be written (a full disk, a file grown past the
    size allowed, an I/O error, the log deleted or replaced by another file): the game stops
    there, its log whole up to the input before, for ``kabucli resume``. Not a refusal of the
    move: nothing typed is at fault. ``saved``: where the log's records were saved when its
    name no longer held them (else None: the log is where it was)."""

    saved: object = None


class LogFullError(LogWriteError):
    """A log holds the most kabucli reads back (log.MAX_INPUTS inputs, log.MAX_LOG_BYTES):
    the game stops before the record that would take it past, its log whole and readable. No
    resume can add to it. ``limit``: "inputs" or "bytes", the one reached."""

    limit: str = ""


class WriteError(KabuError):
    """A file kabucli writes beside a command's report (a run's chart or page) could not be
    written: exit code 2, as for a file that cannot be read."""


# said after a BotError's withheld line, in place of what the bot wrote
NOT_SHOWN = ("(what it wrote is not shown: it may name cards the people at the table do not "
             "see)")


class BotError(KabuError):
    """A bot that crashed, timed out or answered with something that is not a legal move.
    The message quotes the bot, so it is made safe to show (see :mod:`kabucli.safetext`)."""

    def __init__(self, message: str, withheld: str | None = None) -> None:
        from kabucli.safetext import safe_text

        super().__init__(safe_text(message))
        # the message without what the bot itself wrote (its answer, its error's words, a
        # line of its stderr), which may name its cards: what people at a seeded table who do
        # not see them are told instead (Session.run_bots); None when it quotes nothing of it
        self.withheld = None if withheld is None else safe_text(withheld)


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, a machine shutting down), as ``kabucli sim``,
    ``tournament``, ``play``, ``resume`` and ``replay --step`` raise it: a run stops as for
    Ctrl-C, with its report so far (``stopped`` says which); a game stops in one line, its log
    closed whole. ``signal_name`` and ``exit_code`` (128 + the signal's number) are how the
    stop is said."""

    signal_name = "SIGTERM"
    exit_code = 143


class HungUp(Terminated):
    """SIGHUP (the terminal closed, an ssh connection lost), as ``play``, ``resume`` and
    ``bot check`` raise it: the game stops as for SIGTERM, its log closed whole; exit 129."""

    signal_name = "SIGHUP"
    exit_code = 129
