"""Shell completion in the real shells, calling the kabucli on PATH.

bash and zsh run interactively in a pseudo-terminal with the script loaded: the test types a
line and TAB, then a key bound to print the edited line, and reads the candidates the
completion function gave the shell. fish answers ``complete -C LINE`` itself. A missing shell
skips its tests, except under CI=true, where it fails them.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from typer.main import get_command

from kabucli import games
from kabucli.cli import app
from kabucli.completion import COMPLETE_VAR, FILES, SHELLS, respond, script

ROOT = Path(__file__).resolve().parent.parent
BIN = str(Path(sys.executable).parent)
PATH = BIN + os.pathsep + os.environ.get("PATH", "")


@pytest.mark.parametrize("shell", SHELLS)
def test_completion_script_is_current(shell: str) -> None:
    path = ROOT / "completions" / f"kabucli.{shell}"
    assert path.exists(), f"missing {path}; run: kabucli completion {shell} > {path}"
    assert path.read_text() == script(shell), (
        f"{path} is out of date; run: kabucli completion {shell} > {path}")


# Each case: the line typed before TAB, every candidate the shell is given (whole words), and
# the line after one TAB. More cases of the candidates alone are below.
COMMANDS = {"rules", "deal", "play", "resume", "replay", "audit", "sim", "tournament", "solve",
            "completion", "log", "bot"}
CASES = [
    ("kabucli ", COMMANDS, "kabucli "),
    ("kabucli play ", set(games.names()), "kabucli play "),  # every registered game
    ("kabucli replay --", {"--at", "--step", "--json", "--as", "--html", "--help"},
     "kabucli replay --"),
    ("kabucli re", {"replay", "resume"}, "kabucli re"),
    ("kabucli play dare --ph", {"--physical"}, "kabucli play dare --physical "),
    ("kabucli rules ya", {"yatchaba"}, "kabucli rules yatchaba "),
    ("kabucli play dare --bot 2=", {"2=random", "2=best", "2=cmd:", "2=py:"},
     "kabucli play dare --bot 2="),
    ("kabucli play dare --bot 2=r", {"2=random"}, "kabucli play dare --bot 2=random "),
    ("kabucli play dare --rule y", {"yaku="}, "kabucli play dare --rule yaku="),
    ("kabucli play dare --rule yaku=a", {"yaku=arashi"}, "kabucli play dare --rule yaku=arashi "),
    ("kabucli deal dare --rule=yaku=e", {"--rule=yaku=extended"},
     "kabucli deal dare --rule=yaku=extended "),
]
IDS = [line.removeprefix("kabucli ") for line, _, _ in CASES]


def missing(what: str) -> NoReturn:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is not installed (.ci/run installs it)")
    pytest.skip(f"{what} is not installed")


def need(shell: str) -> str:
    """The path of ``shell``, which is to run the kabucli of this Python."""
    if shutil.which("kabucli", path=BIN) is None:
        pytest.fail(f"no kabucli in {BIN}: install the project (pip install -e .)")
    return shutil.which(shell) or missing(shell)


def shell_env(home: Path) -> dict[str, str]:
    """A bare environment for a shell, but for PYTHONPATH: a tree run with it set (as a work
    tree of this project is) is the kabucli the shells must run, not the one installed."""
    env = {"PATH": PATH, "HOME": str(home), "TERM": "dumb", "LANG": "C.UTF-8", "NO_COLOR": "1"}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


def test_the_shells_run_this_tree_s_kabucli(tmp_path: Path) -> None:
    """The kabucli the shells below call imports the code under test (with a bare
    environment it imported the installed checkout's: a broken completion here passed)."""
    res = subprocess.run([str(Path(BIN) / "python"), "-c",
                          "import kabucli.completion as c; print(c.__file__)"],
                         env=shell_env(tmp_path), cwd=tmp_path, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    assert Path(res.stdout.strip()).resolve().is_relative_to(ROOT), res.stdout


class Terminal:
    """An interactive shell in a pseudo-terminal."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: become the shell
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd, self.out = pid, fd, ""

    def send(self, keys: str) -> int:
        """Type ``keys``; where the output they cause starts."""
        start = len(self.out)
        os.write(self.fd, keys.encode())
        return start

    def expect(self, pattern: str, start: int, timeout: float = 30) -> re.Match[str]:
        end = time.monotonic() + timeout
        while True:
            found = re.compile(pattern).search(self.out, start)
            if found:
                return found
            left = end - time.monotonic()
            assert left > 0, f"no {pattern!r} after {timeout}s; the terminal shows:\n" + \
                self.out[start:][-2000:]
            if select.select([self.fd], [], [], left)[0]:
                try:
                    self.out += os.read(self.fd, 65536).decode(errors="replace")
                except OSError:
                    raise AssertionError("the shell ended:\n" + self.out[-2000:]) from None

    def run(self, command: str) -> None:
        """Run a setup command and wait for it to finish."""
        start = self.send(command + "; echo 'done''-'$?\n")
        assert self.expect(r"done-(\d+)", start)[1] == "0", self.out[start:]

    def close(self) -> None:
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)


# The key ^T prints the line being edited between << >>.
SHOW = {
    "bash": ["bind 'set bell-style none'",
             "bind -x '\"\\C-t\": printf \"\\n<<%s>>\\n\" \"$READLINE_LINE\"'"],
    "zsh": ["_kabucli_show() { print -r -- $'\\n'\"<<$BUFFER>>\" }",
            "zle -N _kabucli_show && bindkey '^T' _kabucli_show"],
}
# The script is loaded, and its completion function wrapped to write the candidates it gives
# the shell to a file, one a line.
LOAD = {
    "bash": [
        "source {script}",
        'eval "$(declare -f _kabucli_completion | sed 1s/_kabucli_completion/_kabucli_real/)"',
        "_kabucli_completion() {{ _kabucli_real \"$@\"; "
        "printf '%s\\n' \"${{COMPREPLY[@]}}\" > {capture}; }}",
    ],
    "zsh": [
        "autoload -Uz compinit && compinit -u -D",
        "source {script}",
        "compadd() {{ local -a hits; builtin compadd -A hits \"$@\"; "
        "(( $#hits )) && print -rl -- $hits >> {capture}; builtin compadd \"$@\"; }}",
    ],
}


def start(shell: str, home: Path, *options: str) -> Terminal:
    """An interactive ``shell`` with the ^T key bound."""
    term = Terminal([need(shell), *options, "-i"], shell_env(home))
    for line in SHOW[shell]:
        term.run(line)
    return term


@pytest.fixture(scope="module", params=["bash", "zsh"])
def terminal(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Terminal, Path]]:
    shell = request.param
    home = tmp_path_factory.mktemp(f"{shell}-home")
    capture = home / "candidates"
    term = start(shell, home, *{"bash": ["--norc", "--noprofile"], "zsh": ["-f"]}[shell])
    try:
        for line in LOAD[shell]:
            term.run(line.format(script=ROOT / "completions" / f"kabucli.{shell}",
                                 capture=capture))
        yield shell, term, capture
    finally:
        term.close()


def press_tab(term: Terminal, line: str, capture: Path | None = None) -> tuple[set[str], str]:
    """Type ``line`` and TAB; the candidates given to the shell and the line after."""
    if capture:
        capture.unlink(missing_ok=True)
    start = term.send(line + "\t\x14")
    after = term.expect(r"<<(.*?)>>", start)[1]
    term.send("\x15")  # empty the line for the next case
    found = set(capture.read_text().splitlines()) if capture and capture.exists() else set()
    return found, after


def bash_part(word: str) -> str:
    """Bash replaces only the text after the word's last '=' or ':' (COMP_WORDBREAKS)."""
    return word[max(word.rfind("="), word.rfind(":")) + 1:]


@pytest.mark.parametrize(("line", "want", "after"), CASES, ids=IDS)
def test_tab_in_bash_and_zsh(terminal: tuple[str, Terminal, Path], line: str, want: set[str],
                             after: str) -> None:
    shell, term, capture = terminal
    found, line_after = press_tab(term, line, capture)
    if shell == "bash":
        cut = len(line.rpartition(" ")[2]) - len(bash_part(line.rpartition(" ")[2]))
        want = {w[cut:] for w in want}
    assert (found, line_after) == (want, after)


@pytest.mark.parametrize("command", ["replay", "audit"])  # audit: its logs typed as text
def test_tab_completes_file_names_where_no_candidates(
        terminal: tuple[str, Terminal, Path], tmp_path: Path, command: str) -> None:
    _, term, _ = terminal
    (tmp_path / "replays").mkdir()
    _, line_after = press_tab(term, f"kabucli {command} {tmp_path}/rep")
    assert line_after == f"kabucli {command} {tmp_path}/replays/"


# Options that take no file name: TAB offers no file names there (it did: the shell fell back
# to them whenever the program had no candidates), in a folder holding one file, which TAB
# would put on the line. The last cases take a file: there it still does.
NO_FILES = [
    "kabucli replay game.kbl --as ",
    "kabucli replay game.kbl --at ",
    "kabucli play dare --seed ",
    "kabucli deal dare -s ",
    "kabucli sim dare -b best --timeout ",
    "kabucli sim dare -b best -m ",
    "kabucli play dare --player ",
    "kabucli play --rule ",  # before the game: no rules to offer
    "kabucli play nogame --rule ",
    "kabucli play dare --rule ante=",
    "kabucli play --players ",  # before the game: no counts to offer
    "kabucli audit game.kbl --digest ",
    "kabucli replay game.kbl ",  # replay takes one log
    "kabucli nosuch",
]
TAKES_FILES = ["kabucli play dare --rules-file ", "kabucli play dare --script ",
               "kabucli replay ", "kabucli audit game.kbl "]
ONLY = "only.txt"  # the one file in the folder


def test_tab_offers_no_file_names_where_none_goes(
        terminal: tuple[str, Terminal, Path], tmp_path: Path) -> None:
    shell, term, capture = terminal
    (tmp_path / ONLY).write_text("")
    term.run(f"cd {tmp_path}")
    try:
        for line in NO_FILES:
            found, after = press_tab(term, line, capture)
            assert (found - {""}, after) == (set(), line), (shell, line)  # bash: one empty
        for line in TAKES_FILES:
            assert press_tab(term, line, capture)[1] == line + ONLY + " ", (shell, line)
    finally:
        term.run(f"cd {ROOT}")


def test_fish_offers_no_file_names_where_none_goes(tmp_path: Path) -> None:
    (tmp_path / ONLY).write_text("")
    found = fish_complete([*NO_FILES, *TAKES_FILES], tmp_path, cwd=tmp_path)
    assert found == [[]] * len(NO_FILES) + [
        [line.rpartition(" ")[2] + ONLY] for line in TAKES_FILES]



# A file name after a prefix the word holds (a bot's 'cmd:' or 'py:', '--rules-file='): the
# shell completes the text after the word's last '=' or ':', as bash does by itself (its
# COMP_WORDBREAKS). zsh and fish completed the whole word as a file name and found none.
PREFIXED = ["kabucli play dare --bot 2=cmd:./myb", "kabucli sim dare -b py:myb",
            "kabucli play dare --rules-file=myb", "kabucli resume game.kbl --bot 2=cmd:myb"]


def test_tab_completes_a_file_name_after_a_prefix(
        terminal: tuple[str, Terminal, Path], tmp_path: Path) -> None:
    shell, term, _ = terminal
    (tmp_path / "mybot.py").write_text("")
    term.run(f"cd {tmp_path}")
    try:
        for line in PREFIXED:
            assert press_tab(term, line)[1] == line + "ot.py ", (shell, line)
    finally:
        term.run(f"cd {ROOT}")


def test_fish_completes_a_file_name_after_a_prefix(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text("")
    found = fish_complete(PREFIXED, tmp_path, cwd=tmp_path)
    assert found == [[line.rpartition(" ")[2] + "ot.py"] for line in PREFIXED]

# The README's lines that install a script, each run on an account with nothing set up yet,
# which then opens its shell as it is (bash with the bash-completion package, zsh with only
# the ~/.zshrc lines the README gives, as written there: an account with no ~/.zshrc has no
# compinit, and without one zsh completes file names after `kabucli`) and presses TAB once.
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"


def readme_zshrc() -> str:
    """The lines README gives for ~/.zshrc: its comment lines indented under the zsh install
    line (``#   fpath=...``)."""
    lines = (ROOT / "README.md").read_text().splitlines()
    at = lines.index(readme_install_line("zsh"))
    given = []
    for line in lines[at + 1:]:
        if not line.startswith("#   "):
            break
        given.append(line.removeprefix("#   ") + "\n")
    assert given, "README gives no ~/.zshrc lines under its zsh install line"
    return "".join(given)


STARTUP = {
    "bash": (".bashrc", lambda: f". {BASH_COMPLETION}\n"),
    "zsh": (".zshrc", readme_zshrc),
}


def readme_install_line(shell: str) -> str:
    lines = [line for line in (ROOT / "README.md").read_text().splitlines()
             if line.startswith("mkdir -p ") and f" kabucli completion {shell} > " in line]
    assert len(lines) == 1, f"the README should have one install line for {shell}"
    return lines[0]


@pytest.mark.parametrize("shell", SHELLS)
def test_readme_install_line_works_on_a_fresh_account(shell: str, tmp_path: Path) -> None:
    need(shell)
    if shell == "bash" and not Path(BASH_COMPLETION).exists():
        missing("bash-completion")
    env = shell_env(tmp_path)
    res = subprocess.run(["sh", "-c", readme_install_line(shell)], env=env,
                         capture_output=True, text=True, timeout=60)
    assert (res.returncode, res.stderr) == (0, "")
    if shell == "fish":
        res = subprocess.run([need("fish"), "-c", "complete -C 'kabucli rules ya'"],
                             env=env, capture_output=True, text=True, timeout=60)
        assert res.stdout == "yatchaba\n"
        return
    rc, text = STARTUP[shell]
    (tmp_path / rc).write_text(text())
    term = start(shell, tmp_path)
    try:
        assert press_tab(term, "kabucli rules ya")[1] == "kabucli rules yatchaba "
    finally:
        term.close()


def fish_complete(lines: list[str], home: Path, cwd: Path | None = None) -> list[list[str]]:
    """What fish offers for each line (in folder ``cwd``), the candidates with their
    descriptions."""
    path = ROOT / "completions" / "kabucli.fish"
    asks = "".join(f"complete -C {line!r}; echo @@\n" for line in lines)
    res = subprocess.run([need("fish"), "--no-config", "-c", f"source {path}\n{asks}"],
                         capture_output=True, text=True, env=shell_env(home), timeout=120,
                         cwd=cwd)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    return [part.splitlines() for part in res.stdout.split("@@\n")[:-1]]


def test_fish(tmp_path: Path) -> None:
    (tmp_path / "replays").mkdir()
    files = [f"kabucli {command} {tmp_path}/rep" for command in ("replay", "audit")]
    found = fish_complete([line for line, _, _ in CASES] + [*files, "kabucli rep"], tmp_path)
    assert len(found) == len(CASES) + 3
    for (line, want, _), got in zip(CASES, found, strict=False):
        assert {g.partition("\t")[0] for g in got} == want, line
    assert found[-3] == found[-2] == [f"{tmp_path}/replays/"]
    assert found[-1] == ["replay\tShow a recorded game step by step, as a..."]


# -- the program's side, without a shell ------------------------------------------------

def ask(line: str, shell: str) -> tuple[int, list[str]]:
    """The exit code and the candidate lines the program prints for a script's request."""
    env = {**os.environ, "PATH": PATH, COMPLETE_VAR: f"complete_{shell}",
           "_KABUCLI_COMPLETE_ARGS": line}
    res = subprocess.run(["kabucli"], capture_output=True, text=True, env=env, timeout=60)
    assert "Traceback" not in res.stderr
    return res.returncode, res.stdout.splitlines()


def candidates(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               line: str) -> set[str]:
    """The candidates (without descriptions) for ``line``, asked of the program in-process."""
    monkeypatch.setenv("_KABUCLI_COMPLETE_ARGS", line)
    assert respond(get_command(app), "complete_fish") == 0
    return {out.partition("\t")[0] for out in capsys.readouterr().out.splitlines()}


@pytest.mark.parametrize(("line", "want"), [
    ("kabucli play dare -n 3 --bot ", {"1=", "2=", "3=", "all="}),
    ("kabucli play dare --bot a", {"all="}),
    ("kabucli play yatchaba --bot all=", {"all=random", "all=smart", "all=cmd:", "all=py:"}),
    ("kabucli sim kazu-tori -b ", {"sharp", "random", "cmd:", "py:"}),
    ("kabucli sim yatchaba -b r", {"random"}),
    ("kabucli deal kazu-tori -r limit=", {"limit=10", "limit=15", "limit=20"}),
    ("kabucli deal kazu-tori -r ", {"limit=", "tie=", "max_flips=", "chips="}),
    ("kabucli sim dare -b best -r tie=s", {"tie=split"}),
    ("kabucli play dare --rule ante=", set()),  # a number: nothing to offer
    ("kabucli play dare --rule nosuch=", set()),
    ("kabucli play nogame --rule ", set()),
    ("kabucli completion ", {"bash", "zsh", "fish"}),
    ("kabucli log c", {"convert"}),
    ("kabucli replay ", {":files"}),  # a file: the shell offers the file names
    ("kabucli deal kazu-tori -n ", {"2", "3", "4", "5"}),  # the counts the game takes
    ("kabucli tournament dare --seats ", {"2", "3", "4"}),
    ("kabucli play dare --players 3", {"3"}),
    ("kabucli resume game.kbl --bot 2=", {"2=cmd:", "2=py:"}),
    ("kabucli replay game.kbl --ht", {"--html"}),
    # options that take one of a few words offer them, not the file names
    ("kabucli tournament dare --format ", {"round-robin", "gauntlet"}),
    ("kabucli tournament dare --format g", {"gauntlet"}),
    ("kabucli sim dare --backend ", {"local", "ray"}),
    ("kabucli tournament dare --backend r", {"ray"}),
    ("kabucli log convert a.kbl b.kbl --to ", {"msgpack", "jsonl"}),
    # solve takes only a game with a solver: the others were offered, and refused
    ("kabucli solve ", {"kabu-tsukuri"}),
    ("kabucli solve d", set()),
    # '-n=3' gives -n the value '=3', which the command refuses: nothing is offered there
    ("kabucli deal dare -n=", set()),
    ("kabucli play dare -b=2=r", set()),
    ("kabucli deal dare --players=", {"--players=2", "--players=3", "--players=4"}),
    # bot check's --against takes a built-in bot only (a program there is refused)
    ("kabucli bot check dare 'python3 b.py' --against ", {"random", "best"}),
])
def test_candidates(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                    line: str, want: set[str]) -> None:
    assert candidates(monkeypatch, capsys, line) == want


def test_bash_is_given_the_text_after_the_word_breaks() -> None:
    assert ask("kabucli play dare --bot 2=cmd", "bash") == (0, ["cmd:"])
    assert ask("kabucli play dare --bot 2=c", "bash") == (0, ["cmd:"])


def test_no_candidates_print_nothing_and_a_file_name_prints_the_word_for_files() -> None:
    assert ask("kabucli replay game.kbl --as ", "bash") == (0, [])
    assert ask("kabucli replay ", "bash") == (0, [FILES])
    assert ask("kabucli sim dare -b cmd:./my", "zsh") == (0, [FILES])


def test_an_unknown_request_is_one_error_line() -> None:
    env = {**os.environ, "PATH": PATH, COMPLETE_VAR: "bash_complete"}
    res = subprocess.run(["kabucli"], capture_output=True, text=True, env=env, timeout=60)
    assert (res.returncode, res.stdout) == (1, "")
    assert res.stderr == ("error: _KABUCLI_COMPLETE=bash_complete is not a completion request "
                          "(complete_bash, complete_zsh or complete_fish)\n")


@pytest.mark.parametrize("players", ["", "-n 99 "])
def test_seats_offered_are_the_game_s(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str], players: str) -> None:
    from kabucli import games

    seats = range(1, games.get("dare").max_players + 1)
    assert candidates(monkeypatch, capsys, f"kabucli play dare {players}--bot ") == {
        *(f"{n}=" for n in seats), "all="}


def test_a_completion_request_runs_no_option_callback() -> None:
    code, found = ask("kabucli --version ", "bash")
    assert code == 0
    assert "play" in found
    assert not any(line.startswith("kabucli ") for line in found)  # no version line


# A word typed in quotes, as a file name with a space is: bash replaces the text after the
# open quote, '=' and all, so a candidate keeps its '2=' there (it lost it: "--bot 'random'",
# a bot spec the command refuses); zsh and fish complete such words by themselves.
QUOTED = [
    ("kabucli play dare --bot '2=r", {"bash": "kabucli play dare --bot '2=random' ",
                                      "zsh": "kabucli play dare --bot '2=random' "}),
    ('kabucli deal dare --rule="yaku=e', {"bash": 'kabucli deal dare --rule="yaku=extended" ',
                                         "zsh": "kabucli deal dare --rule=yaku=extended "}),
    ("kabucli rules 'ya", {"bash": "kabucli rules 'yatchaba' ",
                           "zsh": "kabucli rules 'yatchaba' "}),
]


def test_tab_completes_a_word_typed_in_quotes(terminal: tuple[str, Terminal, Path]) -> None:
    shell, term, _ = terminal
    for line, after in QUOTED:
        assert press_tab(term, line)[1] == after[shell], (shell, line)


# fish completed the file name of a word in quotes or with an escaped space as the text
# typed, quotes and backslash included, and found no file ('my g: none).
def test_fish_completes_a_file_name_typed_in_quotes(tmp_path: Path) -> None:
    (tmp_path / "my game.kbl").write_text("")
    lines = ["kabucli replay 'my g", 'kabucli replay "my g', "kabucli replay my\\ g",
             "kabucli play dare --log='my g", "kabucli sim dare -b 'cmd:my g"]
    assert fish_complete(lines, tmp_path, cwd=tmp_path) == [
        ["my game.kbl"], ["my game.kbl"], ["my game.kbl"], ["--log=my game.kbl"],
        ["cmd:my game.kbl"]]


@pytest.mark.parametrize("game", ["kazu-tori", "KAZU-TORI", "kazu_tori", "kazutori"])
def test_a_game_name_every_command_takes_gives_its_candidates(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str) -> None:
    """'play KAZU-TORI' plays Kazu-Tori, but 'play KAZU-TORI -n <TAB>' offered nothing:
    completion matched the game's name exactly, the commands through games.canonical."""
    assert candidates(monkeypatch, capsys, f"kabucli deal {game} -n ") == {"2", "3", "4", "5"}


def test_a_completion_request_whose_reader_has_gone_ends_as_any_command_does() -> None:
    """The candidates written to a pipe nobody reads any more (a shell's completion cut short,
    or `_KABUCLI_COMPLETE=complete_bash ... kabucli | head -1` by hand) end with exit 141 and no
    word, as README says of a reader that stops reading: print() raised BrokenPipeError, which
    came out as 'internal error: BrokenPipeError', exit 3."""
    read, write = os.pipe()
    os.close(read)
    env = {**os.environ, COMPLETE_VAR: "complete_bash",
           "_KABUCLI_COMPLETE_ARGS": "kabucli play dare --",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    try:
        res = subprocess.run([sys.executable, "-c", "from kabucli.entry import main; main()"],
                             stdout=write, stderr=subprocess.PIPE, text=True, env=env,
                             timeout=60)
    finally:
        os.close(write)
    assert (res.returncode, res.stderr) == (141, "")


# -- cases found by mutation testing completion.py ----------------------------------------

def lines_of(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str,
             shell: str = "fish") -> list[str]:
    """The lines the program prints for ``line``, asked in-process, as they come."""
    monkeypatch.setenv("_KABUCLI_COMPLETE_ARGS", line)
    assert respond(get_command(app), f"complete_{shell}") == 0
    return capsys.readouterr().out.splitlines()


def test_a_short_option_typed_whole_is_offered_as_itself(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """'-n' with no '=' is the option, not '-n=VALUE' (which is refused, so gets nothing)."""
    assert candidates(monkeypatch, capsys, "kabucli deal dare -n") == {"-n"}
    assert candidates(monkeypatch, capsys, "kabucli play dare -b") == {"-b"}


def test_a_file_name_with_dash_letter_equals_in_it_is_still_a_file_name(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Only a word that starts '-X=' is a short option's refused value."""
    assert candidates(monkeypatch, capsys, "kabucli replay ./run-1=") == {FILES}


def test_a_request_of_another_kind_for_a_known_shell_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert respond(get_command(app), "source_bash") == 1
    assert capsys.readouterr().out == ""


def test_every_game_s_bots_are_offered_once_before_the_game_is_known(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    found = lines_of(monkeypatch, capsys, "kabucli sim -b ")
    assert "random" in found
    assert len(found) == len(set(found)), found


def test_only_all_seats_are_offered_before_the_game_is_known(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert candidates(monkeypatch, capsys, "kabucli play nogame --bot ") == {"all="}


def test_resume_offers_no_bot_kind_before_a_seat_is_typed(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A kind with no seat ('=cmd:') is refused by resume."""
    assert candidates(monkeypatch, capsys, "kabucli resume game.kbl --bot ") == set()


@pytest.mark.parametrize("line", ["kabucli play dare --bot 2=cmd:./my",
                                  "kabucli play dare --bot all=py:my",
                                  "kabucli resume game.kbl --bot 2=cmd:./my",
                                  "kabucli sim dare -b py:./my",
                                  "kabucli play dare --bot 2=cmd:./a=b"])
def test_a_program_s_file_after_cmd_or_py_is_completed_by_the_shell(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str) -> None:
    assert lines_of(monkeypatch, capsys, line) == [FILES]


def test_a_true_or_false_house_rule_offers_true_and_false(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert candidates(monkeypatch, capsys, "kabucli play uno-dare --rule dare_skips=") == {
        "dare_skips=true", "dare_skips=false"}


def test_a_rule_value_after_rule_equals_keeps_the_option_once(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert candidates(monkeypatch, capsys, "kabucli deal dare --rule=yaku=e") == {
        "--rule=yaku=extended"}


def test_bash_is_given_the_text_after_a_quote_opened_after_the_word_break() -> None:
    """--bot 2='r: bash replaces the text after the quote, 'r, with the candidate."""
    assert ask("kabucli play dare --bot 2='r", "bash") == (0, ["random"])


# What bash replaces, found as readline does: a backslash escapes the next character (but not
# inside single quotes), a quote closes, and an escaped or quoted '=' breaks no word.
@pytest.mark.parametrize(("line", "want"), [
    ("kabucli play dare --bot 2\\=r", ["2=random"]),
    ("kabucli play dare --log my\\ game.kbl --bot 2=r", ["random"]),
    ("kabucli play dare --log 'my game.kbl' --bot 2=r", ["random"]),
    ("kabucli play dare --log 'logs\\' --bot 2=r", ["random"]),
    ('kabucli deal dare --rule "yaku=e', ["yaku=extended"]),
])
def test_bash_is_given_the_text_after_the_last_word_break_not_escaped_or_quoted(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], line: str,
        want: list[str]) -> None:
    monkeypatch.delenv("COMP_WORDBREAKS", raising=False)
    assert lines_of(monkeypatch, capsys, line, "bash") == want
