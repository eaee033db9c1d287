"""The prose of README.md and docs/ says what kabucli really does.

tests/test_docs_commands.py runs the commands the docs write; this module checks claims made
in words around them, each against the program run for real (or against the constant the
program itself uses, where the claim is a number): the house rules tables of the rules
pages, the refusal messages they quote, the size limits README gives, the bot limits of
docs/bots.md, the file that registers a game, and that every environment variable kabucli
reads is named somewhere a user looks.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from kabucli.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS_TEXT = "\n".join(p.read_text(encoding="utf-8")
                      for p in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))])


def _flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces (prose wraps anywhere)."""
    return re.sub(r"\s+", " ", text)


def _kabucli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """kabucli run for real, as a user runs it, its input ended at once."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    env.pop("KABUCLI_BOT_TIMEOUT", None)
    return subprocess.run([sys.executable, "-m", "kabucli", *args], cwd=cwd, env=env,
                          input="", capture_output=True, text=True, timeout=120)


def _page(game: str) -> str:
    return (ROOT / "kabucli" / "games" / game.replace("-", "_") / "rules.md").read_text(
        encoding="utf-8")


def _house_rules_table(page: str) -> list[list[str]]:
    """The rows of the table under a rules page's ``## House rules`` heading, cells stripped."""
    section = page.split("\n## House rules\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows[2:]]
    assert cells, "the page's house rules table has no rows"
    return cells


def _words(cell: str) -> list[str]:
    """A values cell as its words: '`none`, `arashi`' and 'none | arashi' alike."""
    return [w for w in re.split(r"[\s,|`]+", cell) if w]


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_pages_house_rules_table_is_the_programs(game: str) -> None:
    """Each row of the page's table names a rule the program has, in the program's order,
    with its values (bounds, or the names to choose from) and its default as
    ``kabucli rules GAME --json`` gives them."""
    res = _kabucli("rules", game, "--json")
    assert res.returncode == 0, res.stderr
    program = json.loads(res.stdout)["house_rules"]
    page = _house_rules_table(_page(game))
    assert [row[0].strip("`") for row in page] == [r["name"] for r in program]
    for row, rule in zip(page, program, strict=True):
        if rule["type"].startswith("a list"):  # Uno Dare's house_dares: texts in a file
            assert rule["default"] == [] and row[2] == "none", (row, rule)
            continue
        assert _words(row[1]) == _words(rule["type"]), (row, rule)
        default = rule["default"]
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        assert row[2].strip("`") == shown, (row, rule)


# (game, a script at a real table, what the page quotes kabucli as saying at its last line)
REFUSALS = [
    ("dare", "deal 1-7-5\n1-3\n", "'1-3' is not a set of three cards joined by '-' (e.g. 1-3-9)"),
    ("dare", "deal 1-7-5\n1-2-4\n", "set 1-2-4 adds up to 7, ones digit 7, not the reference 3: "
     "type sets whose ones digit is 3 (e.g. '1-3-9'), or 'pass'"),
    ("yatchaba", "deal\nguess 13 1 1\n", "'13' is not a month: type 1-12 or a name like jan"),
    ("yatchaba", "deal\n1 1 8\nbet\nbet\nbet 4\n",
     "the next amount of the sequence is 3, not 4: type 'bet'"),
    ("yatchaba", "deal\n1 1 8\np1 pass\n",
     "p1 is the guesser, and the guesser cannot pass: type 'bet' (1 chip)"),
]


@pytest.mark.parametrize(("game", "script", "message"), REFUSALS)
def test_a_refusal_a_rules_page_quotes_is_what_kabucli_says(
        tmp_path: Path, game: str, script: str, message: str) -> None:
    assert f"`{message}`" in _flat(_page(game)), "the page no longer quotes it: update REFUSALS"
    (tmp_path / "moves.txt").write_text(script)
    res = _kabucli("play", game, "--physical", "--players", "3", "--script", "moves.txt",
                   "--no-log", cwd=tmp_path)
    assert res.returncode == 1
    last = script.rstrip("\n").count("\n") + 1
    assert res.stderr.startswith(f"error: moves.txt:{last}: "), res.stderr
    assert res.stderr.rstrip("\n").endswith(f": {message}"), res.stderr


def test_the_size_limits_readme_gives_are_the_ones_kabucli_refuses_past(tmp_path: Path) -> None:
    """README: 'Logs, rules files and move scripts are read only from regular files of at
    most 64 MiB, 1 MiB and 16 MiB'. A sparse file one byte past each is refused (exit 2),
    its message giving that very limit."""
    match = re.search(r"read only from regular files of at most (\d+) MiB, (\d+) MiB and "
                      r"(\d+) MiB", _flat(README))
    assert match, "README no longer gives the limits this test reads"
    log_mib, rules_mib, script_mib = (int(g) for g in match.groups())
    for name, mib in (("big.kbl", log_mib), ("big.toml", rules_mib), ("big.txt", script_mib)):
        with open(tmp_path / name, "wb") as f:
            f.truncate(mib * 2**20 + 1)
    cases = [(("audit", "big.kbl"), log_mib),
             (("play", "dare", "--rules-file", "big.toml", "--no-log"), rules_mib),
             (("play", "dare", "--script", "big.txt", "--bot", "1=best", "--no-log"), script_mib)]
    for args, mib in cases:
        res = _kabucli(*args, cwd=tmp_path)
        assert res.returncode == 2, (args, res.stderr)
        assert f"larger than {mib} MiB" in res.stderr + res.stdout, (args, res.stderr)


def test_the_html_page_limit_readme_gives_is_the_code_s() -> None:
    from kabucli.render.html import MAX_PAGE_STEPS

    assert f"A page holds at most {MAX_PAGE_STEPS:,} steps" in _flat(README)


def test_the_bot_limits_docs_bots_gives_are_the_code_s() -> None:
    from kabucli.bots import external

    bots = _flat((ROOT / "docs" / "bots.md").read_text(encoding="utf-8"))
    assert f"within the time limit ({external.TIMEOUT:g} seconds)" in bots
    assert f"(`KABUCLI_BOT_TIMEOUT`, {external.TIMEOUT:g} s)" in bots
    assert f"a line longer than {external.LINE_LIMIT // 1024} KiB" in bots
    assert f"may allocate {external.MEMORY // 1024} GiB" in bots
    assert f"which it waits for up to {external.HOST_START:g} seconds" in bots


def test_bot_check_reports_the_time_limit_docs_bots_gives(tmp_path: Path) -> None:
    """The limit bot check prints is the one the docs give (10 s), with no setting."""
    (tmp_path / "mybot.py").write_text(
        "import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
        "    if m['type'] == 'turn':\n        print(m['legal'][-1], flush=True)\n")
    res = _kabucli("bot", "check", "dare", f"{sys.executable} mybot.py", "--games", "1",
                   cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "(limit 10 s)" in res.stdout
    assert "within the time limit (10 seconds)" in _flat(
        (ROOT / "docs" / "bots.md").read_text(encoding="utf-8"))


def test_readme_names_the_file_that_registers_a_game() -> None:
    match = re.search(r"registered by one line in (\S+\.py)", _flat(README))
    assert match, "README's layout no longer says where a game is registered"
    source = (ROOT / match.group(1)).read_text(encoding="utf-8")
    assert re.search(r"^GAMES\b.*=", source, re.M), f"{match.group(1)} does not define GAMES"
    adding = (ROOT / "docs" / "adding-a-game.md").read_text(encoding="utf-8")
    assert f"`GAMES` in `{match.group(1)}`" in _flat(adding)


ENV_READ = re.compile(r"""environ(?:\.get\(|\[)\s*["']([A-Z][A-Z0-9_]*)["']""")


def test_every_environment_variable_kabucli_reads_is_documented() -> None:
    """A variable read by the package or its build (os.environ.get / os.environ[...]) is named
    in README.md or docs/; bash's own COMP_* that the completion passes on aside (and the
    completion's plumbing, whose names start with '_', which the scan does not match)."""
    read = set()
    for path in [ROOT / "setup.py", *(ROOT / "kabucli").rglob("*.py")]:
        read |= set(ENV_READ.findall(path.read_text(encoding="utf-8")))
    read = {name for name in read if not name.startswith("COMP_")}
    assert {"NO_COLOR", "KABUCLI_BOT_TIMEOUT", "KABUCLI_DEBUG", "KABUCLI_PURE"} <= read
    missing = sorted(name for name in read if f"`{name}" not in DOCS_TEXT)
    assert not missing, f"read by kabucli, documented nowhere: {missing}"


def test_readme_exit_codes_hold_for_a_mistyped_option_and_a_refused_rule(tmp_path: Path) -> None:
    """README's exit codes, the two most often met: 2 for a mistyped option, 1 for a refused
    house rule value; and 0 for a game left at the prompt when input ends, its log kept."""
    flat = _flat(README)
    assert ("2 when a file cannot be read or written (the output too: `> /dev/full`, a full "
            "disk, a standard output closed with `>&-`; a game stopped so names its log kept "
            "for `kabucli resume`), or a command or option is mistyped") in flat
    assert _kabucli("play", "dare", "--bogus").returncode == 2
    assert _kabucli("play", "dare", "--rule", "ante=+1", "--no-log").returncode == 1
    res = _kabucli("play", "dare", "--player", "Ann", "--bot", "2=best", "--log", "g.kbl",
                   cwd=tmp_path)
    assert res.returncode == 0 and "input ended" in res.stdout + res.stderr
    assert (tmp_path / "g.kbl").is_file()


def test_readme_s_undo_line_at_the_prompt_is_what_play_says(tmp_path: Path) -> None:
    """README: undo at the prompt 'says which it took back: `took back 1 move: p1 pass`'."""
    match = re.search(r"it says which it took back: `([^`]+)`", _flat(README))
    assert match, "README no longer quotes the undo line"
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-m", "kabucli", "play", "dare", "--seed", "4",
                          "--player", "Ann", "--bot", "2=best", "--no-log"],
                         input="pass\nundo\n", capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)
    assert res.returncode == 0, res.stderr
    assert f"> {match.group(1)}\n" in res.stdout


def test_reports_md_exit_codes_of_a_run_that_cannot_start(tmp_path: Path) -> None:
    """docs/reports.md, "When the command fails before its run": each case it names prints
    `{"error": ...}` with --json and the one line on stderr, with the exit code it gives: 1
    for an unknown bot and a log folder holding another run's match, 2 for a mistyped option
    or an option's value of the wrong form (README's exit codes)."""
    flat = _flat((ROOT / "docs" / "reports.md").read_text(encoding="utf-8"))
    assert ("(an unknown bot, a log folder holding another run's files) prints one line on "
            "standard error, exits with code 1") in flat
    mistyped = re.search(r"A mistyped option or an option's value of the wrong form "
                         r"\(([^)]*)\) is exit code 2", flat)
    assert mistyped, "docs/reports.md no longer gives the exit code of a mistyped option"
    examples = re.findall(r"`([^`]+)`", mistyped.group(1))
    assert examples
    logs = tmp_path / "runs"
    assert _kabucli("sim", "dare", "-b", "best", "-b", "random", "-m", "1", "--seed", "1",
                    "--logs", str(logs)).returncode == 0
    cases = [(["-b", "nosuch"], 1), (["--logs", str(logs), "-b", "best"], 1),
             *[(example.split(), 2) for example in examples]]
    for extra, code in cases:
        res = _kabucli("sim", "dare", "-b", "best", "-b", "random", "--seed", "1", *extra,
                       "--json")
        assert res.returncode == code, (extra, res.returncode, res.stderr)
        line = res.stderr.strip()
        assert line.startswith("error: ") and "\n" not in line, (extra, res.stderr)
        assert json.loads(res.stdout) == {"error": line.removeprefix("error: ")}, extra


def test_the_tournament_defaults_docs_bots_gives_are_the_command_s() -> None:
    """docs/bots.md, "Tournaments": the defaults of `--seats` and `--deals` it gives are those
    of `kabucli tournament`'s options (a reader of README's `tournament` line, which gives
    neither, learns there how many seats its matches have)."""
    import typer.main

    from kabucli.cli import app

    flat = _flat((ROOT / "docs" / "bots.md").read_text(encoding="utf-8"))
    seats = re.search(r"\(`--seats` (\d+) when left out", flat)
    deals = re.search(r"`--deals` deals \((\d+) when left out\)", flat)
    assert seats and deals, "docs/bots.md no longer gives the tournament's defaults"
    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    command = group.commands["tournament"]
    defaults = {p.name: p.default for p in command.params}
    assert defaults["seats"] == int(seats.group(1))
    assert defaults["deals"] == int(deals.group(1))


def test_readme_s_long_match_shows_as_many_rows_as_it_says(tmp_path: Path) -> None:
    """README: a long match's result 'shows the first 20 and the last 20 rows and says how
    many it left out; `--json` gives every one', with two commands for it: the first prints
    those rounds' rows and the line '… N more rounds (--json has all)' for the rest, the second
    counts every round the command plays."""
    said = re.search(r"shows the first (\d+) and the last (\d+) rows and says how many it left\s+"
                     r"out;\s+`--json` gives every one:\n\n```sh\n(.*?)\n```", README, re.S)
    assert said, "README no longer says how a long match's result is cut"
    first, last = int(said[1]), int(said[2])
    shown, full = (shlex.split(line) for line in said[3].splitlines())
    assert shown[0] == full[0] == "kabucli" and "--json" in full and "--quiet" in shown
    rounds = int(next(w for w in shown if w.startswith("rounds=")).removeprefix("rounds="))
    res = _kabucli(*shown[1:], cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    rows = [int(n) for n in re.findall(r"^│\s+(\d+) │", res.stdout, re.M)]
    assert rows == [*range(1, first + 1), *range(rounds - last + 1, rounds + 1)], rows
    assert f"… │ {rounds - first - last} more rounds (--json has all)" in res.stdout
    res = _kabucli(*full[1:], cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    every = json.loads(res.stdout)["outcome"]["rounds"]
    assert [r["round"] for r in every] == list(range(1, rounds + 1))


def test_the_solver_s_page_and_readme_give_the_same_arrangements() -> None:
    """docs/rules/kabu-tsukuri.md: `kabucli solve kabu-tsukuri CARDS` uses '--players N,
    default 4 for a hand of 10 and 5 for a hand of 9': its hand printed without --players is
    README's line with `--players 4`, word for word, and the table says how many players it
    assumed; the same hand less a card (9) is solved for the other default."""
    page = _flat(_page("kabu-tsukuri"))
    cmd = re.search(r"`kabucli solve kabu-tsukuri ([\d ]+)` prints the best arrangements", page)
    defaults = re.search(r"`--players N`, default (\d+) for a hand of 10 and (\d+) for a hand "
                         r"of 9", page)
    readme = re.search(r"^kabucli solve kabu-tsukuri ([\d ]+?) --players (\d+)\s", README, re.M)
    assert cmd and defaults and readme, "the solver's page or README no longer says it"
    assert readme[1] == cmd[1] and readme[2] == defaults[1]
    ten = _kabucli("solve", "kabu-tsukuri", *cmd[1].split())
    assert ten.returncode == 0, ten.stderr
    assert f"best arrangements · {defaults[1]} players" in ten.stdout
    assert ten.stdout == _kabucli("solve", "kabu-tsukuri", *readme[1].split(), "--players",
                                  readme[2]).stdout
    nine = _kabucli("solve", "kabu-tsukuri", *cmd[1].split()[:9])
    assert nine.returncode == 0, nine.stderr
    assert f"best arrangements · {defaults[2]} players" in nine.stdout


def test_what_docs_bots_says_of_the_charts_bytes_for_any_number_of_workers_holds(
        tmp_path: Path) -> None:
    """docs/bots.md said of --plot and --html together "The same run gives the same bytes, for
    any number of workers", but the page's table caption names the workers (``Results (2
    workers)``, as the text report's title does): the chart is the same bytes, the page is not.
    The docs say which is which, and the page differs in that caption alone."""
    out = {}
    for workers in ("1", "2"):
        res = _kabucli("sim", "dare", "-b", "best", "-b", "random", "-m", "4", "--seed", "5",
                       "--rule", "rounds=2", "-j", workers,
                       "--plot", str(tmp_path / f"{workers}.svg"),
                       "--html", str(tmp_path / f"{workers}.html"))
        assert res.returncode == 0, res.stderr
        out[workers] = ((tmp_path / f"{workers}.svg").read_bytes(),
                        (tmp_path / f"{workers}.html").read_text(encoding="utf-8"))
    assert out["1"][0] == out["2"][0]  # the chart
    page1, page2 = out["1"][1], out["2"][1]
    assert page1 != page2
    assert page2.replace("<caption>Results (2 workers)</caption>",
                         "<caption>Results</caption>") == page1
    section = _flat((ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
                    .split("### A chart of the run", 1)[1].split("\n### ", 1)[0])
    assert "The same run gives the same bytes, for any number of workers." not in section
    assert "Results (2 workers)" in section, section


def test_sim_s_matches_help_says_how_long_a_match_of_every_game_is() -> None:
    """`kabucli sim --help`: `--matches` says, game by game, how long "a match played to its
    end" is. It named four games and left Kabu-Tsukuri out (a match of `hands` hands), so a
    reader of the help could not tell what one Kabu-Tsukuri match of a run is."""
    import typer.main

    from kabucli.cli import app

    group = typer.main.get_command(app)
    assert isinstance(group, typer.main.TyperGroup)
    helps = {p.name: getattr(p, "help", None) or "" for p in group.commands["sim"].params}
    titles = [(ROOT / "docs" / "rules" / f"{g}.md").read_text(encoding="utf-8")
              .splitlines()[0].removeprefix("# ").split(" (")[0] for g in GAMES]
    missing = [t for t in titles if f"{t}:" not in helps["matches"]]
    assert not missing, f"sim --matches help names no match length for {missing}"


@pytest.mark.parametrize("game", ["dare", "kabu-tsukuri"])
def test_a_rules_page_names_the_digit_names_its_showdowns_print(game: str) -> None:
    """A showdown line names a hand by its ones digit (`p2 shows 2-6-9: Shichiken (7)`): the
    rules page of each game that prints those names says what they are. Dare's page did not,
    so a newcomer met Shichiken, Yotsuya, Santa at their first showdown with nothing to read."""
    from kabucli.hands import DIGIT_NAMES

    page = _flat((ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))
    missing = [f"{name} ({d})" for d, name in enumerate(DIGIT_NAMES) if f"{name} ({d})" not in page]
    assert not missing, f"docs/rules/{game}.md never names {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_says_how_many_players_play_by_default(game: str) -> None:
    """`kabucli play GAME` without --players seats the game's default number of players; each
    rules page says how many. Dare's said only "2, 3 or 4 players", so a user could not tell
    that a plain `play dare` seats three."""
    from kabucli.games import get

    n = get(game).default_players
    page = _flat((ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))
    assert re.search(rf"\b{n}( players)? by default\b", page), (
        f"docs/rules/{game}.md never says {n} players play by default")


@pytest.mark.parametrize("game", ["dare", "kabu-tsukuri"])
def test_a_chips_rules_page_says_who_wins_the_match_as_play_does(game: str) -> None:
    """A match of chips ends with `most chips: p2 (53)`, or `tied for the most chips (...)`
    naming every leader (the pot left counts for nobody): the rules page says so. Dare's page
    ended the match "with the balances as they stand" and never said who wins it."""
    page = _flat((ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"))
    match = page.split("## The match", 1)[-1] if game == "dare" else page
    assert "the most chips" in match and "share the win" in match, (
        f"docs/rules/{game}.md never says the most chips win the match, ties sharing it")
    out = _kabucli("play", game, "--seed", "4", "--bot", "all=random", "--quiet", "--no-log")
    assert "the most chips" in out.stdout or "most chips:" in out.stdout
