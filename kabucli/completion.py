"""Shell completion for bash, zsh and fish: the scripts, and the program's side of them.

A script runs ``kabucli`` with ``_KABUCLI_COMPLETE=complete_SHELL`` and the command line up to
the cursor in ``_KABUCLI_COMPLETE_ARGS``; the program prints one candidate a line (with a tab
and a description for zsh and fish) and exits. Where a file or folder name goes (a log, a
rules file, ``--html``: the parameters given :func:`complete_path`), it prints the one line
``:files`` (FILES), and the shell completes the names, as only it knows how; where nothing
is printed, nothing is offered (``--seed``, ``--at``, ``--as`` take no file name).
The candidates for values come from the callbacks below, which import the games only when
called, so that ``kabucli --help`` stays fast.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from typing import Any

from typer._click.core import Command
from typer._click.shell_completion import CompletionItem, ShellComplete, split_arg_string

PROG = "kabucli"
FILES = ":files"  # what the program prints where the shell is to complete a file name
COMPLETE_VAR = "_KABUCLI_COMPLETE"
ARGS_VAR = "_KABUCLI_COMPLETE_ARGS"
SHELLS = ("bash", "zsh", "fish")

# The line goes up to the cursor, not past it. Bash splits words at COMP_WORDBREAKS ("=" and
# ":" among them) and replaces only the text after the last one, so the program, passed those
# characters, cuts that much off each candidate. A lone candidate ending in "=" or ":" wants
# more after it, so gets no space.
_BASH = r"""_kabucli_completion() {
    mapfile -t COMPREPLY < <(env _KABUCLI_COMPLETE=complete_bash \
        _KABUCLI_COMPLETE_ARGS="${COMP_LINE:0:COMP_POINT}" \
        COMP_WORDBREAKS="$COMP_WORDBREAKS" kabucli 2>/dev/null)
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == :files ]]; then
        COMPREPLY=()
        compopt -o default
    elif [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[=:] ]]; then
        compopt -o nospace
    fi
    return 0
}

complete -F _kabucli_completion kabucli
"""

_ZSH = r"""#compdef kabucli

_kabucli_completion() {
  local -a spaced unspaced
  local line value entry
  for line in "${(@f)$(env _KABUCLI_COMPLETE=complete_zsh \
      _KABUCLI_COMPLETE_ARGS="${words[1,CURRENT]}" kabucli 2>/dev/null)}"; do
    [[ -n $line ]] || continue
    if [[ $line == :files ]]; then
      compset -P '*[=:]'  # the file name after '--log=', 'cmd:', as bash's word breaks
      _files
      return
    fi
    value=${line%%$'\t'*}
    entry=${value//:/\\:}
    [[ $line == *$'\t'* ]] && entry+=":${line#*$'\t'}"
    if [[ $value == *[=:] ]]; then unspaced+=("$entry"); else spaced+=("$entry"); fi
  done
  local ret=1
  (( $#spaced )) && _describe -t values kabucli spaced && ret=0
  (( $#unspaced )) && _describe -t values kabucli unspaced -S '' && ret=0
  return ret
}

# Autoloaded from $fpath (as the file _kabucli), this runs at the first TAB: complete now.
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  _kabucli_completion "$@"
else
  compdef _kabucli_completion kabucli
fi
"""

_FISH = r"""function __kabucli_complete
    set -l found (env _KABUCLI_COMPLETE=complete_fish \
        _KABUCLI_COMPLETE_ARGS=(commandline -cp | string collect) kabucli 2>/dev/null)
    if test "$found" = :files  # the file name after '--log=', 'cmd:', as bash's word breaks
        set -l word (commandline -ct | string unescape)  # as typed: 'my g, my\ g
        set -l head (string match -r -- '^.*[=:]' $word)
        for path in (__fish_complete_path (string replace -r -- '^.*[=:]' '' $word))
            printf '%s%s\n' "$head" $path
        end
    else if set -q found[1]
        printf '%s\n' $found
    end
end

complete --command kabucli --no-files --arguments '(__kabucli_complete)'
"""

_SCRIPTS = {"bash": _BASH, "zsh": _ZSH, "fish": _FISH}


def script(shell: str) -> str:
    """The completion script for ``shell`` (one of SHELLS)."""
    return _SCRIPTS[shell]


# -- the program's side ------------------------------------------------------------------

class _Complete(ShellComplete):
    """Reads the line the scripts send; prints plain candidates, or FILES where a file or
    folder name goes (the shell knows how to complete them)."""

    name = ""
    source_template = ""  # the scripts are above, not click's
    word = ""  # the word at the cursor, its quotes taken off
    line = ""  # the line up to the cursor, as typed

    def source_vars(self) -> dict[str, Any]:
        return {}

    def get_completion_args(self) -> tuple[list[str], str]:
        line = self.line = os.environ.get(ARGS_VAR, "")
        words = split_arg_string(line)
        # A word that goes on up to the cursor is the incomplete one; after a space (one not
        # escaped or quoted) a new, empty word starts.
        ends_word = split_arg_string(line + "x")[-1:] != ["x"]
        incomplete = words.pop() if words and ends_word else ""
        self.word = incomplete
        return words[1:], incomplete

    def complete(self) -> str:
        args, incomplete = self.get_completion_args()
        if re.match(r"-[^-]=", self.word):
            # a short option's value takes the '=' as its own first character (-n=3 is
            # '=3', refused): click's completion split it as --players=3, and offered those
            return ""
        items = self.get_completions(args, incomplete)
        if any(i.type in ("file", "dir") or i.help == _A_FILE for i in items):
            return FILES
        return "\n".join(self.format_completion(i) for i in items if i.type == "plain")

    def full(self, item: CompletionItem) -> str:
        """The whole word a candidate makes: with ``--opt=`` in one word, click completes
        only the value after it."""
        word = self.word
        head = word[:word.index("=") + 1] if word.startswith("-") and "=" in word else ""
        return head + str(item.value)

    def described(self, item: CompletionItem) -> str:
        text = self.full(item)
        if item.help:
            text += "\t" + re.sub(r"\s+", " ", item.help).strip()
        return text


class _Bash(_Complete):
    name = "bash"

    def format_completion(self, item: CompletionItem) -> str:
        breaks = os.environ.get("COMP_WORDBREAKS", " \t\n\"'><=;|&(:")
        replaced = "".join(split_arg_string(_readline_word(self.line, breaks)))
        return self.full(item)[max(len(self.word) - len(replaced), 0):]


def _readline_word(line: str, breaks: str) -> str:
    """The end of ``line`` whose text bash replaces with a candidate, as typed: from a quote
    not closed yet (``--bot '2=r``: all of ``2=r``), else after the last word-break character
    not quoted (``--bot 2=r``: ``r``)."""
    quote, start, escaped = "", 0, False
    for i, c in enumerate(line):
        if escaped:
            escaped = False
        elif c == "\\" and quote != "'":
            escaped = True
        elif quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote, start = c, i
        elif c in breaks:
            start = i + 1
    return line[start:]


class _Zsh(_Complete):
    name = "zsh"
    format_completion = _Complete.described


class _Fish(_Complete):
    name = "fish"
    format_completion = _Complete.described


def respond(cli: Command, request: str) -> int:
    """Answer a script's ``complete_SHELL`` request: print the candidates; the exit code."""
    shells: dict[str, type[_Complete]] = {c.name: c for c in (_Bash, _Zsh, _Fish)}
    kind, _, shell = request.partition("_")
    if kind != "complete" or shell not in shells:
        print(f"error: {COMPLETE_VAR}={request} is not a completion request "
              "(complete_bash, complete_zsh or complete_fish)", file=sys.stderr)
        return 1
    found = shells[shell](cli, {}, PROG, COMPLETE_VAR).complete()
    print(found, end="\n" if found else "")
    return 0


# -- candidates for values ---------------------------------------------------------------
# Typer keeps the candidates that start with the word typed so far; a (value, help) pair
# shows the help beside the value in zsh and fish.

def _game_of(ctx: Any) -> str | None:
    """The game named on the line so far, if it is one. (Before an option still waiting for
    its value, click stops parsing and leaves the words it did not take in ``ctx.args``.)"""
    from kabucli import games
    from kabucli.errors import ParseError

    for word in (ctx.params.get("game"), *ctx.args):
        if word:
            with contextlib.suppress(ParseError):  # (the name as every command reads it)
                return games.canonical(word)
    return None


# A candidate whose help is this stands for a file or folder name. (Typer's callbacks give
# only words, or a word and its help, and keeps those that start with the word typed.)
_A_FILE = "\0a file or folder name"


def complete_path(incomplete: str) -> list[tuple[str, str]]:
    """A file or folder name goes here: the shell completes it."""
    return [(incomplete, _A_FILE)]


def complete_players(ctx: Any) -> list[str]:
    """``--players N``: the numbers of players the game takes (none before it is known)."""
    from kabucli import games

    game = _game_of(ctx)
    if game is None:
        return []
    g = games.get(game)
    return [str(n) for n in range(g.min_players, g.max_players + 1)]


def _program(incomplete: str) -> bool:
    """Whether a bot's kind typed so far names a program (``cmd:``, ``py:``), whose file the
    shell completes."""
    from kabucli import bots

    kind = incomplete.partition("=")[2] if "=" in incomplete else incomplete
    return any(kind.startswith(prefix) for prefix in bots.EXTERNAL)


def complete_game() -> list[str]:
    from kabucli import games

    return games.names()


def complete_solver_game() -> list[str]:
    """``solve GAME``: the games with a solver (solve refuses the others)."""
    from kabucli import games

    return [n for n in games.names() if getattr(games.get(n), "solve", None) is not None]


def complete_shell() -> list[str]:
    return list(SHELLS)


def complete_backend() -> list[str]:
    return ["local", "ray"]


def complete_format() -> list[str]:
    return ["round-robin", "gauntlet"]


def complete_encoding() -> list[str]:
    return ["msgpack", "jsonl"]


def complete_bot_kind(ctx: Any, incomplete: str = "") -> list[str] | list[tuple[str, str]]:
    """``sim -b KIND``: the game's bots (every game's before the game is known) and a
    program's kinds; after ``cmd:`` or ``py:``, the program's file."""
    from kabucli import bots

    if _program(incomplete):
        return complete_path(incomplete)
    return [*complete_builtin_bot(ctx), *bots.EXTERNAL]


def complete_builtin_bot(ctx: Any) -> list[str]:
    """``bot check --against KIND``: the game's built-in bots (every game's before the game
    is known); a program is refused there."""
    from kabucli import bots, games

    game = _game_of(ctx)
    return [*dict.fromkeys(k for g in ([game] if game else games.names())
                           for k in bots.kinds(g))]


def complete_seat_bot(ctx: Any, incomplete: str) -> list[str] | list[tuple[str, str]]:
    """``play --bot SEAT=KIND``: the seats, then the game's bots for the seat."""
    from kabucli import games

    if _program(incomplete):
        return complete_path(incomplete)
    if "=" in incomplete:
        seat = incomplete.partition("=")[0]
        return [f"{seat}={k}" for k in complete_bot_kind(ctx)]
    game = _game_of(ctx)
    most = games.get(game).max_players if game else 0
    seats = min(ctx.params.get("players") or most, most)
    return [f"{n}=" for n in (*range(1, seats + 1), "all")]


def complete_program_bot(incomplete: str) -> list[str] | list[tuple[str, str]]:
    """``resume --bot SEAT=KIND``: a program or Python class of your own, its file after
    ``cmd:`` or ``py:``."""
    from kabucli import bots

    if _program(incomplete):
        return complete_path(incomplete)
    seat, eq, _ = incomplete.partition("=")
    return [f"{seat}={kind}" for kind in bots.EXTERNAL] if eq else []


def complete_rule(ctx: Any, incomplete: str) -> list[str | tuple[str, str]]:
    """``--rule NAME=VALUE``: the game's house rules, then the values of one with choices."""
    from kabucli import games
    from kabucli.rules import describe

    game = _game_of(ctx)
    if game is None:
        return []
    infos = describe(games.get(game).Rules)
    name, eq, _ = incomplete.partition("=")
    if not eq:
        return [(f"{i.name}=", f"{i.kind}; {i.help}") for i in infos]
    for i in infos:
        if i.name == name:
            choices = ["true", "false"] if i.kind == "true | false" else i.choices
            return [f"{name}={c}" for c in choices]
    return []
