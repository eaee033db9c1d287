"""``kabucli replay LOG --step``: the pager back and forward (kabucli/pager.py).

Scripted sessions type commands one a line on stdin and check that every table shown is the
table ``replay --at K`` draws for the same event K, in all five games; a real terminal (a pty)
moves with the arrow keys alone; a long log steps back in bounded work.
"""

from __future__ import annotations

import fcntl
import io
import json
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
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st
from rich.console import Console
from typer.testing import CliRunner

from kabucli import games, render
from kabucli.cli import app
from kabucli.engine import Match, walk
from kabucli.log import read_log
from kabucli.pager import Pager, Positions
from kabucli.render.pager import HELP, KEYS

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
ENV = {"NO_COLOR": "1", "COLUMNS": "120"}
STATUS = re.compile(r"^event (\d+) of (\d+)", re.M)
runner = CliRunner()

# One log of each game, seeded or physical, with more than one round.
LOGS = ["dare/4p-tie-carry-same-dealer.kbl", "kazu-tori/4p-jizo-handed-out-then-removed.kbl",
        "yatchaba/4p-physical-game.kbl", "kabu-tsukuri/3p-dealer-winner.kbl",
        "uno-dare/3p-first-card-wild-dare.kbl", "dare/2p-human-undo.jsonl",
        "kabu-tsukuri/3p-physical-match.kbl"]


def run(*args: str, input: str | bytes | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env=ENV)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def panel_after(lines: list[str], start: int) -> str:
    """The first panel (a ``╭`` line to the next ``╰`` line at the margin) from ``start``."""
    top = next(i for i in range(start, len(lines)) if lines[i].startswith("╭"))
    end = next(i for i in range(top + 1, len(lines)) if lines[i].startswith("╰"))
    return "\n".join(lines[top:end + 1])


def frames(stdout: str) -> list[tuple[int, str]]:
    """Each frame the pager drew: (the event it shows, the text of its table)."""
    lines = stdout.splitlines()
    out = []
    start = 0
    for i, line in enumerate(lines):
        m = STATUS.match(line)
        if m:
            # the table is the last panel before the status line that follows an event line
            first = next(j for j in range(i - 1, start - 1, -1)
                         if re.match(r"^ {0,3}\d+ ", lines[j]))
            out.append((int(m.group(1)), panel_after(lines, first)))
            start = i + 1
    return out


def table_at(log: Path, k: int, *args: str) -> str:
    res = run("replay", str(log), "--at", str(k), *args)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("state after event"))
    return panel_after(lines, at)


def shown_lines(log: Path, viewer: int | None = None) -> tuple[list[str], list[int]]:
    """Every event's line as the replay shows it, and the events that start a round."""
    data = read_log(log, games.event_types, strict=False)
    g = games.get(data.header.game)
    lines: list[str] = []
    rounds: list[int] = []

    def on(i: int, ev: Any, m: Match) -> None:
        lines.append(render.event_line(g, i, ev, m, viewer).plain)
        if render.is_round_start(g, ev, m):
            rounds.append(i)
    walk(g, data.header, data.events, on)
    return lines, rounds


def expected(script: list[str], lines: list[str], rounds: list[int]) -> list[int]:
    """The events a pager shows for ``script``, by the meaning of each command (a command
    that cannot move draws nothing)."""
    n = len(lines)
    pos = 0
    shown = [0]
    search = ""
    for cmd in script:
        to: int | None = None
        if cmd in ("", "n", "\x1b[C"):
            to = pos + 1 if pos < n else None
        elif cmd in ("b", "back"):
            to = pos - 1 if pos > 0 else None
        elif cmd.startswith("g "):
            to = int(cmd[2:])
        elif cmd == "]":
            to = next((r for r in rounds if r > pos), None)
        elif cmd == "[":
            to = next((r for r in reversed(rounds) if r < pos), None)
        elif cmd.startswith("/"):
            search = cmd[1:] or search
            to = next((i for i in range(pos + 1, n + 1)
                       if search.lower() in lines[i - 1].lower()), None)
        elif cmd.startswith("?"):
            search = cmd[1:] or search
            to = next((i for i in range(pos - 1, 0, -1)
                       if search.lower() in lines[i - 1].lower()), None)
        if to is not None:
            pos = to
            shown.append(pos)
    return shown


@pytest.mark.parametrize("name", LOGS)
def test_a_scripted_session_shows_the_state_replay_at_shows(name: str) -> None:
    log = REPLAYS / name
    lines, rounds = shown_lines(log)
    n = len(lines)
    assert len(rounds) >= 2, "a log with more than one round"
    word = lines[rounds[1] + 1].split()[-1].upper()  # a word of an event after round 2 starts
    script = ["", "n", "\x1b[C", "b", f"g {n - 3}", "", "", "", "g 2", "]", "]", "[", "[",
              "g 0", f"/{word}", "/", "back", "]", f"?{word}", f"g {n}", "b"]
    res = run("replay", str(log), "--step", input="\n".join(script) + "\n")
    assert res.exit_code == 0, res.output
    got = frames(res.stdout)
    assert [k for k, _ in got] == expected(script, lines, rounds)
    assert all(m.group(2) == str(n) for m in STATUS.finditer(res.stdout))
    for k, table in dict(got).items():
        assert table == table_at(log, k), f"event {k}"


def test_rounds_are_where_each_game_says_they_start() -> None:
    """Dare, Yatchaba, Kabu-Tsukuri and Uno Dare start a round with a deal; Kazu-Tori starts
    a count from "one" at the deal and wherever the table was emptied and the count starts
    over."""
    for name in LOGS:
        _, rounds = shown_lines(REPLAYS / name)
        data = read_log(REPLAYS / name, games.event_types, strict=False)
        tags = [type(e).__struct_config__.tag for e in data.events]
        if not name.startswith("kazu-tori"):
            assert rounds == [i for i, t in enumerate(tags, 1) if t == "deal"], name
        else:
            assert rounds[0] == 1 and len(rounds) > 3
            assert all(tags[i - 1] in ("deal", "claim", "handout", "return") for i in rounds)
            g = games.get(data.header.game)
            for r in rounds:
                m, _ = walk(g, data.header, data.events[:r])
                assert m.state.table == [] and m.state.count == 1
            handouts = [i for i, t in enumerate(tags, 1) if t == "handout"]
            assert handouts and not set(handouts) & set(rounds)  # the count goes on


def test_the_status_line_says_the_round() -> None:
    log = REPLAYS / "yatchaba/4p-physical-game.kbl"
    _, rounds = shown_lines(log)
    res = run("replay", str(log), "--step", input="]\n]\n")
    assert re.findall(r"^event \d+ of \d+ · (game \d+/\d+ · round \d+) ·", res.stdout, re.M) == [
        "game 1/1 · round 1", "game 1/1 · round 1", "game 1/1 · round 2"]
    assert [k for k, _ in frames(res.stdout)] == [0, rounds[0], rounds[1]]


def test_as_a_seat_every_table_is_that_seats_view() -> None:
    log = REPLAYS / "dare/4p-tie-carry-same-dealer.kbl"
    res = run("replay", str(log), "--step", "--as", "p2", input="\n" * 3 + "g 20\nb\n")
    assert res.exit_code == 0
    got = frames(res.stdout)
    assert [k for k, _ in got] == [0, 1, 2, 3, 20, 19]
    for k, table in got:
        assert table == table_at(log, k, "--as", "p2")
    whole = dict(frames(run("replay", str(log), "--step", input="g 20\n").stdout))[20]
    assert "??" in dict(got)[20] and "??" not in whole


def test_bad_commands_say_one_line_and_the_pager_goes_on() -> None:
    log = REPLAYS / "dare/2p-dare-three-sets.kbl"
    bad = ["g x", "g 99999", "g", "g -1", "x" * 100_000, "\x1b[31mzz\x07", "/", "[", "b",
           "g 99999999999999999999999", "\udcff", "q!"]
    typed = "\n".join(bad).encode("utf-8", "surrogateescape") + b"\nn\n"  # \udcff: byte ff
    res = run("replay", str(log), "--step", input=typed)
    assert res.exit_code == 0
    out = res.stdout
    assert [k for k, _ in frames(out)] == [0, 1]
    said = out[out.index("event 0 of"):].splitlines()[1:]
    said = said[:said.index(next(s for s in said if s.startswith("   1 ")))]
    assert said == [
        "g takes an event number, e.g. 'g 12', not 'x'",
        "no event 99999: the log has events 0-24 (0 is before the first)",
        "g takes an event number, e.g. 'g 12'",  # (g alone: not "not ''", probe BR)
        "g takes an event number, e.g. 'g 12', not '-1'",
        "a command is at most 1000 characters: that line was ignored",
        "unknown command '\\\\x1b[31mzz\\\\x07': type h for help",
        "nothing to search for yet: type /text",
        "no round starts before this event",
        "already before the first event",
        "no event 1000000000000: the log has events 0-24 (0 is before the first)",
        "unknown command '\ufffd': type h for help",  # not UTF-8: read as a stand-in
        "unknown command 'q!': type h for help"]
    assert "\x1b" not in out and "\x07" not in out


def test_help_lists_the_keys() -> None:
    res = run("replay", str(REPLAYS / "dare/2p-dare-three-sets.kbl"), "--step", input="h\n")
    for key in ("Right", "Left", "g N", "/text", "]  [", "q, Ctrl-D"):
        assert key in res.stdout
    # N searched backward again, unlisted (probe BR)
    assert re.search(r"^  N +search again, backward *$", res.stdout, re.M), res.stdout


def test_n_capital_searches_again_backward() -> None:
    """/engine finds its first event, / the next, N the first again: N was read as n (any
    case), the next event, so it never searched (its help line was missing too)."""
    res = run("replay", str(REPLAYS / "dare/2p-dare-three-sets.kbl"), "--step",
              input="/engine\n/\nN\n")
    assert res.exit_code == 0
    shown = [k for k, _ in frames(res.stdout)]
    assert len(shown) == 4 and shown[0] == 0 and shown[1] < shown[2], shown
    assert shown[3] == shown[1], shown


def test_commands_and_searches_typed_in_full_width_are_read_as_typed_moves_are() -> None:
    """'ｇ　５' goes to event 5, '／ｅｎｇｉｎｅ' finds what '/engine' finds and 'Ｎ' searches
    back, as a Japanese input method's full-width mode types them (folded as typed moves
    are, typed_form): each was answered as an unknown command."""
    log = str(REPLAYS / "dare/2p-dare-three-sets.kbl")
    ascii_ = run("replay", log, "--step", input="g 5\n/engine\n/\nN\n")
    wide = run("replay", log, "--step", input="ｇ　５\n／ｅｎｇｉｎｅ\n／\nＮ\n")
    assert ascii_.exit_code == wide.exit_code == 0
    shown = [k for k, _ in frames(ascii_.stdout)]
    assert len(shown) == 5 and shown[1] == 5, shown
    assert [k for k, _ in frames(wide.stdout)] == shown


def test_a_search_finds_a_half_width_name_typed_in_full_width(tmp_path: Path) -> None:
    """A search and the lines it looks in are folded alike: '/タロウ' finds the first line
    that names the player ﾀﾛｳ (written half-width at the table), as '/ﾀﾛｳ' does."""
    log = tmp_path / "g.jsonl"
    res = run("play", "dare", "--seed", "3", "-n", "2", "-p", "1=ﾀﾛｳ", "--bot", "2=random",
              "--script", "-", "--log", str(log), input="p1 sets 4-6-8\nquit\n")
    assert res.exit_code == 0, res.output
    half = run("replay", str(log), "--step", input="/ﾀﾛｳ\n")
    full = run("replay", str(log), "--step", input="/タロウ\n")
    shown = [k for k, _ in frames(half.stdout)]
    assert len(shown) == 2 and shown[1] > 0, shown
    assert [k for k, _ in frames(full.stdout)] == shown


def broken(tmp_path: Path) -> tuple[Path, int]:
    """replays/dare/3p-tie-order.jsonl with its first lay made one that breaks a rule."""
    lines = (REPLAYS / "dare/3p-tie-order.jsonl").read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"e":"lay"' in line)
    rec = json.loads(lines[at])
    rec["sets"] = [[1, 2, 3]]
    lines[at] = json.dumps(rec, separators=(",", ":"))
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, at  # line 0 is the header: event ``at`` is the broken one


def test_a_log_that_breaks_a_rule_stops_before_the_break_and_exits_1(tmp_path: Path) -> None:
    path, index = broken(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "kabucli", "replay", str(path), "--step"],
                          input="g 40\n" + "n\n" * 40 + f"g {index}\nb\n", text=True,
                          capture_output=True, env={**os.environ, **ENV,
                                                   "PYTHONPATH": str(ROOT)}, timeout=60)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    got = [k for k, _ in frames(proc.stdout)]
    assert got == [*range(index), index - 2]  # never event `index` itself
    # the note under the last event says which event comes next, what it is and why
    assert re.search(rf"next, event {index}: p\d sets 1-2-3 breaks a rule: ", proc.stdout)
    assert f"event {index} cannot be shown: event {index} breaks a rule" in proc.stdout
    assert proc.stdout.count(
        f"event {index - 1} is the last that can be shown (event {index} breaks a rule)") > 30
    assert proc.stderr.startswith(f"error: {path}: event {index}: p")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_an_unfinished_log_pages_to_its_last_event(tmp_path: Path) -> None:
    lines = (REPLAYS / "kabu-tsukuri/3p-ranking-kabu.jsonl").read_text().splitlines()
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(lines[:20]) + "\n")  # the header and 19 events
    res = run("replay", str(path), "--step", input="g 19\nn\nb\n")
    assert res.exit_code == 0
    assert [k for k, _ in frames(res.stdout)] == [0, 19, 18]
    assert "event 19 is the last event" in res.stdout
    assert dict(frames(res.stdout))[19] == table_at(path, 19)
    # its last event says, as the plain replay ends saying, that the game is not over, what
    # the table waits for and how to go on (it said only "the end of the log")
    plain = run("replay", str(path))
    assert plain.exit_code == 0
    said = " ".join(plain.stdout[plain.stdout.index("the log ends here"):].split())
    assert said.startswith("the log ends here, before the game does (waiting for ")
    assert said.endswith(f"go on with: kabucli resume {path}")
    assert said in " ".join(res.stdout.split())
    assert "the end of the log" not in res.stdout
    # only at the last event: the frames before it say nothing of the end
    early = run("replay", str(path), "--step", input="g 18\n")
    assert "the log ends here" not in early.stdout


@pytest.mark.parametrize("name", sorted(p.relative_to(REPLAYS).as_posix()
                                        for p in REPLAYS.glob("*/*")))
def test_every_position_reached_any_way_is_the_walked_state(name: str) -> None:
    """Checkpoints every 3 events: going to each event forward, at random and backward gives
    the state walking the log gives (copies of a state share nothing that changes)."""
    import random

    data = read_log(REPLAYS / name, games.event_types, strict=False)
    g = games.get(data.header.game)
    views = [g.view(Match(g, data.header).state)]
    walk(g, data.header, data.events, lambda i, ev, m: views.append(g.view(m.state)))
    at = Positions(g, data.header, data.events, every=3)
    assert at.copies and at.last == len(data.events) and at.violation is None
    order = list(range(at.last + 1))
    order += random.Random(name).sample(order, len(order)) + order[::-1]
    for k in order:
        at.goto(k)
        assert at.pos == at.match.logged == k
        assert g.view(at.match.state) == views[k], k
    # the checkpoints themselves were never changed by the walks from them
    for cp in at.checkpoints[1:]:
        assert g.view(cp.state) == views[cp.pos]


@pytest.mark.parametrize("name", ["kabu-tsukuri", "uno-dare"])
def test_a_long_log_keeps_at_most_max_checkpoints_copies_further_apart(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_CHECKPOINTS copies the checkpoints spread out (a state grows with its match:
    a copy every 256 events of a million-event log cost seconds and hundreds of MB), and
    every position is still the walked state. (MAX_CHECKPOINTS made 4 here.)"""
    import random

    from kabucli import pager

    monkeypatch.setattr(pager, "MAX_CHECKPOINTS", 4)
    path = sorted((REPLAYS / name).glob("*"))[0]
    data = read_log(path, games.event_types, strict=False)
    g = games.get(data.header.game)
    n = len(data.events)
    assert n > 4 * 3
    views = [g.view(Match(g, data.header).state)]
    walk(g, data.header, data.events, lambda i, ev, m: views.append(g.view(m.state)))
    at = Positions(g, data.header, data.events, every=3)
    assert at.every == -(-n // 4) and len(at.checkpoints) <= 5
    assert [cp.pos for cp in at.checkpoints] == list(range(0, n + 1, at.every))
    for k in random.Random(name).sample(range(n + 1), n + 1) + list(range(n, -1, -1)):
        at.goto(k)
        assert at.pos == k and g.view(at.match.state) == views[k], k


def _counting(at: Positions) -> list[int]:
    """``at.forward`` counted: the one-item list holds how many events it applied."""
    applied = [0]
    forward = at.forward

    def counted() -> None:
        applied[0] += 1
        forward()
    at.forward = counted  # type: ignore[method-assign]
    return applied


def test_a_jump_forward_applies_at_most_one_checkpoints_worth() -> None:
    """A jump far ahead starts from the checkpoint at or before it, not from where the pager
    is: from the start to the last event, to a far event from a near one."""
    data = read_log(REPLAYS / LOGS[0], games.event_types, strict=False)
    g = games.get(data.header.game)
    at = Positions(g, data.header, data.events, every=3)
    n = at.last
    assert n > 12
    applied = _counting(at)
    at.goto(n)
    assert at.pos == n and applied[0] <= 3
    at.goto(1)
    applied[0] = 0
    at.goto(n - 1)
    assert at.pos == n - 1 and applied[0] <= 3


def test_a_step_forward_applies_at_most_the_one_event() -> None:
    """A step on from where the pager is applies that one event (or none, onto a checkpoint's
    copy), every step of the log: not the walk from the checkpoint before it."""
    data = read_log(REPLAYS / LOGS[0], games.event_types, strict=False)
    g = games.get(data.header.game)
    at = Positions(g, data.header, data.events, every=3)
    applied = _counting(at)
    for k in range(1, at.last + 1):
        applied[0] = 0
        at.goto(k)
        assert at.pos == k and applied[0] <= 1, k


@pytest.mark.parametrize("name", [n for n in LOGS if "physical" not in n])
def test_a_match_restored_from_a_checkpoint_draws_the_seeds_next_card(name: str) -> None:
    """The match at any event of a seeded log, however it was reached, expects the chance
    event the log has next (the count of chance events drawn is part of what a checkpoint
    keeps)."""
    import random

    data = read_log(REPLAYS / name, games.event_types, strict=False)
    g = games.get(data.header.game)
    at = Positions(g, data.header, data.events, every=3)
    n = at.last
    chances = [k for k in range(n) if data.events[k].KIND == "chance"]
    assert len(chances) > 3
    checked = 0
    for k in random.Random(name).sample(chances, len(chances)):
        at.goto(k)
        if at.match.pending.kind == "chance":  # (not one drawn while a move is awaited)
            assert at.match.expected() == data.events[k], k
            checked += 1
    assert checked


def test_a_match_that_ended_in_a_forfeit_is_over_however_it_is_reached() -> None:
    """A log ending in a bot's forfeit: the match at its last event is over, by that forfeit,
    when restored from the checkpoint there as when walked to."""
    import msgspec

    from kabucli.events import Forfeit

    data = read_log(REPLAYS / LOGS[0], games.event_types, strict=False)
    g = games.get(data.header.game)
    seats = list(data.header.seats)  # (only a user's own bot forfeits)
    seats[0] = msgspec.structs.replace(seats[0], control="bot:cmd:./mybot")
    header = msgspec.structs.replace(data.header, seats=seats)
    forfeit = Forfeit(1, "crashed")
    events = [*data.events[:11], forfeit]
    for every in (12, 5):  # a checkpoint at the forfeit, and none
        at = Positions(g, header, events, every=every)
        assert at.last == 12 and at.violation is None
        for k in (12, 0, 12, 11, 12):
            at.goto(k)
            assert at.match.over == (k == 12) and at.match.forfeit == (
                forfeit if k == 12 else None), (every, k)
            assert at.match.events == events[:min(k, 11)]  # (a forfeit is none of them)


@pytest.fixture(scope="module")
def long_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Kabu-Tsukuri match of 2000 hands between bots (about 30,000 events)."""
    path = tmp_path_factory.mktemp("long") / "long.kbl"
    res = run("play", "kabu-tsukuri", "--seed", "7", "--bot", "all=random", "--players", "5",
              "--rule", "hands=2000", "--quiet", "--log", str(path))
    assert res.exit_code == 0, res.output
    return path


def test_a_step_back_in_a_long_log_applies_at_most_one_checkpoints_worth(
        long_log: Path) -> None:
    data = read_log(long_log, games.event_types)
    g = games.get(data.header.game)
    n = len(data.events)
    assert n > 25_000
    pager = Pager(g, data, Console(file=io.StringIO(), width=100))
    at = pager.at
    every = at.every
    assert len(at.checkpoints) == n // every + 1
    applied = 0
    forward = at.forward

    def counted() -> None:
        nonlocal applied
        applied += 1
        forward()
    at.forward = counted  # type: ignore[method-assign]
    assert pager.command(f"g {n}") == (True, None)
    views = {}
    walk(g, data.header, data.events[:n - 40],
         lambda i, ev, m: views.update({i: g.view(m.state)}) if i > n - 80 else None)
    worst = 0.0
    for k in range(n - 1, n - 41, -1):
        applied = 0
        start = time.perf_counter()
        assert pager.command("b") == (True, None)
        pager.frame()
        worst = max(worst, time.perf_counter() - start)
        assert applied <= every and at.pos == k
        if k in views:
            assert g.view(at.match.state) == views[k]
    assert worst < 0.5, f"a step back took {worst:.3f} s"
    applied = 0
    assert pager.command("[") == (True, None)  # the previous hand's deal
    assert applied <= every
    assert type(data.events[at.pos - 1]).__struct_config__.tag == "deal"


def test_a_long_read_shows_a_bar_at_a_terminal_and_none_in_a_pipe(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a big log, and the pager's first walk of it, take seconds: at a terminal a
    bar on stderr says how far they are (once they have taken BAR_AFTER seconds; made 0
    here), and is gone when they end. Piped, stderr stays empty."""
    from kabucli.cli import common

    monkeypatch.setattr(common, "BAR_AFTER", 0)
    monkeypatch.chdir(REPLAYS)  # (a name short enough to be shown whole: see the next test)
    log = LOGS[0]
    terminal = {"COLUMNS": "100", "FORCE_COLOR": "1"}
    res = runner.invoke(app, ["replay", log, "--step"], input="q\n", env=terminal)
    assert res.exit_code == 0
    assert f"reading {log}" in res.stderr and "going through the match" in res.stderr
    assert "100%" in res.stderr and "event 0 of" in res.stdout
    res = runner.invoke(app, ["audit", log], env=terminal)
    assert res.exit_code == 0 and f"auditing {log}" in res.stderr
    for args in (["replay", log, "--step"], ["audit", log]):
        res = runner.invoke(app, args, input="q\n", env=ENV)
        assert res.exit_code == 0 and res.stderr == ""


@pytest.mark.parametrize("club", ["logs-of-the-club-", "将棋部の記録-logs-of-the-club-"])
def test_the_bar_of_a_log_with_a_long_name_still_shows_how_far(
        club: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The name of the log is cut to leave room for the bar: a path as long as a folder of
    logs often gives (here 90 characters, at 80 columns) took the whole line, the bar went
    and the percentage showed as '…'. (A CJK character takes two columns.)"""
    from rich.cells import cell_len

    from kabucli.cli import common

    monkeypatch.setattr(common, "BAR_AFTER", 0)
    folder = tmp_path / (club * 3)
    folder.mkdir()
    log = folder / "uno-dare-20260101-120000.kbl"
    log.write_bytes((REPLAYS / LOGS[0]).read_bytes())
    monkeypatch.chdir(tmp_path)
    name = str(log.relative_to(tmp_path))
    assert len(name) > 70
    res = runner.invoke(app, ["replay", name, "--step"], input="q\n",
                        env={"COLUMNS": "80", "FORCE_COLOR": "1"})
    assert res.exit_code == 0
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", res.stderr)
    bars = [line for line in re.split(r"[\r\n]", shown) if line.startswith("reading ")]
    assert bars and all(cell_len(line) <= 80 for line in bars), bars
    assert bars[-1].endswith("━" * 40 + " 100%"), bars[-1]  # (the whole bar)
    assert bars[-1].startswith(f"reading {club[:10]}")  # (the start of the name, cut)


def test_a_seat_that_is_not_there_is_refused() -> None:
    res = run("replay", str(REPLAYS / "dare/2p-dare-three-sets.kbl"), "--step", "--as", "p9")
    assert res.exit_code == 1 and "no such seat" in res.output


# -- a real terminal ---------------------------------------------------------------------

ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[@-Z\\-_])")


class Terminal:
    """``kabucli replay LOG --step`` in a pseudo-terminal: keys go in, the screen comes out."""

    def __init__(self, log: Path, columns: int = 120, term: str = "xterm") -> None:
        self.master, slave = pty.openpty()
        # the terminal's size, as a window of that size gives it (prompt_toolkit asks the
        # terminal; rich takes COLUMNS)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 60, columns, 0, 0))
        env = {**os.environ, "NO_COLOR": "1", "TERM": term, "COLUMNS": str(columns),
               "LINES": "60", "PYTHONPATH": str(ROOT), "PROMPT_TOOLKIT_NO_CPR": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "kabucli", "replay", str(log),
                                      "--step"], stdin=slave, stdout=slave, stderr=slave,
                                     env=env, close_fds=True)
        os.close(slave)
        self.seen = ""
        self.raw = ""  # all the output read, escapes and all

    def wait_for(self, pattern: str, timeout: float = 20) -> str:
        """Read until ``pattern`` shows in the output since the last wait (escapes taken out);
        return that output."""
        end = time.monotonic() + timeout
        raw = ""
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    raw += os.read(self.master, 65536).decode("utf-8", "replace")
                except OSError:
                    break
                self.raw = raw
                text = ESCAPES.sub("", raw)
                if re.search(pattern, text):
                    return text
        raise AssertionError(f"no {pattern!r} in {ESCAPES.sub('', raw)[-2000:]!r}")

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


def test_arrow_keys_move_at_once_in_a_terminal() -> None:
    term = Terminal(REPLAYS / "dare/2p-dare-three-sets.kbl")
    try:
        term.wait_for(r"event 0 of 24")
        term.send("\x1b[C")  # Right: no Enter
        term.wait_for(r"event 1 of 24")
        term.send("\x1b[C")
        shown = term.wait_for(r"event 2 of 24")
        assert "p2 pays 1 to pot (ante)" in shown
        term.send("\x1b[D")  # Left
        term.wait_for(r"event 1 of 24")
        term.send("]")
        term.wait_for(r"event 9 of 24 · round 2/3")
        term.send("g 5\r")  # a command with an argument ends with Enter
        term.wait_for(r"event 5 of 24")
        term.send("q")
        assert term.proc.wait(20) == 0
    finally:
        term.close()


def test_sigterm_while_paging_puts_the_terminal_back_and_says_so() -> None:
    """SIGTERM (kill, a machine shutting down) ended the pager outright, leaving the shell's
    terminal in the pager's raw mode: no echo, no line editing, bracketed paste on. Now the
    pager's prompt ends first (the terminal put back), one line says so, exit 143, as play's
    prompt does."""
    term = Terminal(REPLAYS / "dare/2p-dare-three-sets.kbl")
    try:
        term.wait_for(r"event 0 of 24")
        paging = termios.tcgetattr(term.master)[3]
        assert not paging & termios.ECHO and not paging & termios.ICANON  # (raw, as it was)
        term.proc.send_signal(signal.SIGTERM)
        assert term.proc.wait(20) == 143
        term.wait_for(r"stopped \(SIGTERM\)")
        back = termios.tcgetattr(term.master)[3]
        assert back & termios.ECHO and back & termios.ICANON
        assert term.raw.rfind("\x1b[?2004l") > term.raw.rfind("\x1b[?2004h")  # (paste off)
    finally:
        term.close()


def test_a_terminal_that_takes_no_escapes_reads_a_command_a_line() -> None:
    """TERM=dumb (an editor's shell window): the key reader's escape sequences, which showed
    there as text, are not sent; commands are read a line at a time, as from a pipe."""
    term = Terminal(REPLAYS / "dare/2p-dare-three-sets.kbl", term="dumb")
    try:
        term.wait_for(r"event 0 of 24")
        assert "\x1b" not in term.raw
        term.send("n\r")
        term.wait_for(r"event 1 of 24")
        assert "\x1b" not in term.raw
        term.send("q\r")
        assert term.proc.wait(20) == 0
    finally:
        term.close()


def test_the_status_line_breaks_between_its_parts_in_a_narrow_terminal() -> None:
    # At 60 columns (80 for Yatchaba's longer label) the terminal wrapped the status line
    # wherever it reached the edge: "] [ r" on one row, "ound · /text · h · q >" on the next.
    term = Terminal(REPLAYS / "kazu-tori/5p-three-way-tie-split-odd-chip-kept.kbl", columns=60)
    try:
        term.wait_for(r"event 0 of 25")
        term.send("g 25\r")
        shown = term.wait_for(r"event 25 of 25[^╯]* q >\s*$")
        status = shown[shown.rindex("event 25 of 25"):].rstrip()
        rows = status.replace("\r", "").split("\n")
        assert len(rows) > 1 and all(len(row) <= 60 for row in rows), rows
        assert " · ".join(row.strip() for row in rows) == (
            "event 25 of 25 · flip 5 · " + KEYS + " >"), rows
        term.send("q")
        assert term.proc.wait(20) == 0
    finally:
        term.close()


@pytest.mark.parametrize("width", [40, 60, 80])
def test_every_status_line_of_the_recorded_games_breaks_only_between_its_parts(
        width: int) -> None:
    from kabucli.render.pager import fitted

    for log in sorted(REPLAYS.glob("*/*.kbl"))[::3]:
        data = read_log(log, games.event_types, strict=False)
        pager = Pager(games.get(data.header.game), data, Console(file=io.StringIO(), width=100))
        for k in range(0, len(data.events) + 1, 7):
            pager.at.goto(k)
            rows = fitted(pager.status(), width).split("\n")
            assert " · ".join(rows) == pager.status() + " > "
            assert all(len(row) <= width or " · " not in row for row in rows), rows


def test_an_escape_sequence_typed_in_a_terminal_is_no_traceback() -> None:
    # ESC[31m (pasted coloured text) read as a mouse report, whose handler failed with
    # "Unhandled exception in event loop" and "Press ENTER to continue..."
    term = Terminal(REPLAYS / "dare/2p-dare-three-sets.kbl")
    try:
        term.wait_for(r"event 0 of 24")
        term.send("/\x1b[31mpays\r")
        shown = term.wait_for(r"event 2 of 24")  # the escape sequence dropped, 'pays' found
        assert "Unhandled exception" not in shown and "Traceback" not in shown
        term.send("g 5\r")
        term.wait_for(r"event 5 of 24")
        term.send("q")
        assert term.proc.wait(20) == 0
    finally:
        term.close()


# -- typed commands from anyone ---------------------------------------------------------------

_PIECES = ["n", "b", "g", "g ", "go", "]", "[", "/", "?", "N", "q", "h", " ", "\x1b[C",
           "\x1b[D", "-1", "0", "9" * 30, "\x00", "\u202e", "\ud800", "p2", "deal", "ｇ", "١٢"]
_COMMAND = st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=12)),
                    max_size=4).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["dare/3p-showdown-outright.kbl", "kazu-tori/4p-physical-last-call.kbl",
                        "uno-dare/3p-first-card-dare.kbl"]),
       st.lists(_COMMAND, max_size=12))
def test_any_typed_commands_move_the_pager_or_say_why_in_words(log: str,
                                                              commands: list[str]) -> None:
    # whatever is typed: the pager moves, or answers in one printable message (help aside),
    # or quits; it always shows the state of an event of the log, as --at would
    data = read_log(REPLAYS / log, games.event_types)
    game = games.get(data.header.game)
    pager = Pager(game, data, Console(file=io.StringIO(), width=100, color_system=None))
    for line in commands:
        try:
            moved, message = pager.command(line)
        except EOFError:
            assert line.strip().lower() in ("q", "quit", "exit")
            break
        assert isinstance(moved, bool)
        if message is not None and message != HELP:
            assert "\n" not in message and message.isprintable(), message
        assert 0 <= pager.at.pos <= pager.at.last <= len(data.events)
    match, violation = walk(game, data.header, data.events[:pager.at.pos])
    assert violation is None
    assert game.view(match.state, None) == game.view(pager.at.match.state, None)


def test_as_takes_a_players_name_as_a_typed_line_does() -> None:
    """`--as Ben` is p2 where Ben sits (README: a name may be typed wherever a seat is); a
    name nobody has is refused, the message listing the names."""
    log = REPLAYS / "kazu-tori/4p-physical-last-call.kbl"
    by_name = run("replay", str(log), "--as", "ben", "--at", "5")
    assert by_name.exit_code == 0
    assert by_name.stdout == run("replay", str(log), "--as", "p2", "--at", "5").stdout
    res = run("replay", str(log), "--as", "Zed")
    assert res.exit_code == 1
    assert res.stderr.strip() == ("error: --as Zed: there is no such seat (seats are p1-p4, "
                                  "Aki for p1, Ben for p2, Chie for p3, Dai for p4)")


def test_as_takes_a_half_width_name_as_written_or_in_full_width_and_a_full_width_seat(
        tmp_path: Path) -> None:
    """Names are matched folded (typed_form), as typed lines are: `--as ﾀﾛｳ` (the name as
    written at the table, half-width), `--as タロウ` and `--as ｐ１` are all p1. Keying the
    names folded had made `--as ﾀﾛｳ` 'no such seat' before the key was folded too."""
    log = tmp_path / "g.jsonl"
    res = run("play", "dare", "--seed", "3", "-n", "2", "-p", "1=ﾀﾛｳ", "--bot", "2=random",
              "--script", "-", "--log", str(log), input="ﾀﾛｳ sets 4-6-8\nquit\n")
    assert res.exit_code == 0, res.output
    p1 = run("replay", str(log), "--as", "p1", "--at", "3").stdout
    for name in ("ﾀﾛｳ", "タロウ", "ｐ１"):
        shown = run("replay", str(log), "--as", name, "--at", "3")
        assert shown.exit_code == 0, (name, shown.stderr)
        assert shown.stdout == p1, name


def test_as_takes_every_seat_to_the_last_of_ten_and_a_name_in_any_case_and_no_seat_past_it(
        tmp_path: Path) -> None:
    """--as names each seat up to the table's last: p10 (or 10) at a table of ten, and a
    player's name whatever its case (BEN for Ben, as a typed line takes it); one past the
    last seat (p3 of two, p11 of ten) is no seat: one error line, exit 1."""
    two = str(REPLAYS / "dare/2p-dare-three-sets.kbl")
    res = run("replay", two, "--as", "p3")
    assert res.exit_code == 1
    assert res.stderr.strip() == "error: --as p3: there is no such seat (seats are p1-p2)"
    ten = tmp_path / "ten.kbl"
    res = run("play", "uno-dare", "--bot", "all=random", "--players", "10", "--seed", "3",
              "--log", str(ten), "-q")
    assert res.exit_code == 0, res.output
    for seat in ("p10", "P10", "10"):
        res = run("replay", str(ten), "--as", seat, "--at", "0")
        assert res.exit_code == 0, (seat, res.output)
        assert "hidden from p10" in res.stdout, seat
    res = run("replay", str(ten), "--as", "p11", "--at", "0")
    assert res.exit_code == 1
    assert res.stderr.strip() == "error: --as p11: there is no such seat (seats are p1-p10)"
    log = REPLAYS / "kazu-tori/4p-physical-last-call.kbl"
    by_seat = run("replay", str(log), "--as", "p2", "--at", "5")
    for name in ("Ben", "BEN", "bEn"):
        res = run("replay", str(log), "--as", name, "--at", "5")
        assert (res.exit_code, res.stdout) == (0, by_seat.stdout), name


def test_as_refusal_names_only_what_as_would_take_and_says_when_a_name_is_shared(
        tmp_path: Path) -> None:
    """`--as`'s refusal: the names it lists are ones `--as` takes for that seat (a player
    named '2' at p1 was listed as '2 for p1', yet `--as 2` is p2), a name two seats share is
    said to be shared (it was 'no such seat'), and what it quotes is shown once, not escaped
    twice ('--as \\[x]q', '\\[b]ob for p1')."""
    lines = (REPLAYS / "dare/3p-tie-order.jsonl").read_text(encoding="utf-8").split("\n")
    head = json.loads(lines[0])

    def log(*names: str) -> str:
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.jsonl"
        seats = [{"name": n, "control": "human"} for n in names]
        path.write_text("\n".join([json.dumps(head | {"seats": seats}), *lines[1:]]),
                        encoding="utf-8")
        return str(path)

    digit = log("2", "Ann", "Bo")
    assert "seed     hidden from p2" in run("replay", digit, "--as", "2", "--at", "1").stdout
    res = run("replay", digit, "--as", "Zed")
    assert res.exit_code == 1
    assert res.stderr.strip() == ("error: --as Zed: there is no such seat (seats are p1-p3, "
                                  "Ann for p2, Bo for p3)")
    res = run("replay", log("Ann", "ann", "Bo"), "--as", "ANN")
    assert res.exit_code == 1
    assert res.stderr.strip() == ("error: --as ANN: p1 and p2 share that name: name the seat "
                                  "(seats are p1-p3, Bo for p3)")
    res = run("replay", log("[b]ob", "Cy", "Di"), "--as", "[x]q")
    assert res.exit_code == 1
    assert res.stderr.strip() == ("error: --as [x]q: there is no such seat (seats are p1-p3, "
                                  "[b]ob for p1, Cy for p2, Di for p3)")


# One log of each game with rounds (Kazu-Tori counts flips: the flip event is that flip).
ROUND_LOGS = {"dare/3p-showdown-outright.kbl": r"round (\d+), dealer",
              "dare/4p-nobody-qualifies.kbl": r"round (\d+), dealer",
              "kabu-tsukuri/3p-dealer-winner.kbl": r"hand (\d+), dealer",
              "yatchaba/3p-nobody-right-carried-pot-won-next-game.kbl":
                  r"game (\d+), round (\d+):",
              "uno-dare/3p-first-card-dare.kbl": r"round (\d+), dealer"}


@pytest.mark.parametrize("name", sorted(ROUND_LOGS))
def test_an_event_is_labelled_with_the_round_it_belongs_to(name: str) -> None:
    """The event that ends a round (Dare's payout, a Kabu-Tsukuri hand's last result, a
    Yatchaba round's result or game's end, Uno Dare's score) belongs to that round, though the
    state after it waits for the next deal: the status line and the table's title say the
    round of the deal at or before the event, as the event lines name it."""
    log = REPLAYS / name
    lines, _ = shown_lines(log)
    data = read_log(log, games.event_types, strict=False)
    g = games.get(data.header.game)
    pager = Pager(g, data, Console(file=io.StringIO(), width=200, no_color=True))
    deal = re.compile(ROUND_LOGS[name])
    current: tuple[str, ...] = ("1", "1") if "yatchaba" in name else ("1",)
    for k in range(len(lines) + 1):
        if k:
            found = deal.search(lines[k - 1])
            if found and " deals next" not in lines[k - 1]:
                current = found.groups()
        pager.at.goto(k)
        label = pager.status().removesuffix(" · " + KEYS).split(" · ")[1:]
        with pager.out.capture() as cap:
            pager.out.print(render.table(g, pager.at.match))
        title = cap.get().splitlines()[0]
        if "yatchaba" in name:
            want = [f"game {current[0]}/3", f"round {current[1]}"]
            assert label == want, (k, lines[k - 1] if k else "")
            assert f"game {current[0]}/3 · round {current[1]}" in title, (k, title)
        else:
            word = "hand" if "kabu" in name else "round"
            total = "" if "uno" in name else f"/{data.header.rules[word + 's']}"
            assert label == [f"{word} {current[0]}{total}"], (k, lines[k - 1] if k else "")
            assert f"· {word} {current[0]}{total} " in title, (k, title)


@pytest.mark.parametrize("name", sorted(n for n in ROUND_LOGS if "yatchaba" not in n))
def test_a_table_names_the_dealer_of_its_round(name: str) -> None:
    """A table's title names the dealer of the round it shows: a Dare round won (its result
    in, the pot not yet paid out) or a match's last round or hand was titled with the seat
    that deals next ('round 1: p2 wins the showdown; p2 deals next', then 'round 1/2 · dealer
    p2', though p1 dealt it). Once the round is over the title says so, and who deals next
    if a round is left."""
    log = REPLAYS / name
    lines, _ = shown_lines(log)
    data = read_log(log, games.event_types, strict=False)
    g = games.get(data.header.game)
    pager = Pager(g, data, Console(file=io.StringIO(), width=200, no_color=True))
    deal = re.compile(r"(?:round|hand) \d+, dealer p(\d+)")
    dealer = "1"
    for k in range(len(lines) + 1):
        if k and (found := deal.search(lines[k - 1])):
            dealer = found[1]
        pager.at.goto(k)
        with pager.out.capture() as cap:
            pager.out.print(render.table(g, pager.at.match))
        title = cap.get().splitlines()[0]
        named = re.search(r"(?<!next )dealer p(\d+)", title)
        assert named is None or named[1] == dealer, (k, lines[k - 1] if k else "", title)
        if " over" in title and k == len(lines):  # the match is over: nobody deals next
            assert "next dealer" not in title, title


def test_a_torn_tail_says_at_its_last_event_how_to_go_on(tmp_path: Path) -> None:
    """A log whose last record was cut short as it was written (a torn tail, as a crash
    leaves it): the last event the pager shows said only the reader's error; it says, as the
    plain replay's error line does, that resume sets the record aside and goes on."""
    whole = (REPLAYS / "kazu-tori/4p-physical-timed-dispute.kbl").read_bytes()
    path = tmp_path / "torn.kbl"
    path.write_bytes(whole[:-3])  # (a timed log: its last input is a record of its own)
    res = run("replay", str(path), "--step", input="g 20\n")
    assert res.exit_code == 2
    last = max(k for k, _ in frames(res.stdout))
    assert last == 20  # (the events of the records before the torn one)
    said = " ".join(res.stdout.split())
    assert f"the log ends here: {path}: event {last + 1}: truncated: " in said
    assert (f"; its last record is cut short, as a crash while writing leaves it: kabucli "
            f"resume {path} sets that record aside and goes on") in said
    damaged = bytearray(whole)
    damaged[-5] ^= 0xFF  # damage, not a tear: no advice to resume
    path.write_bytes(bytes(damaged))
    res = run("replay", str(path), "--step", input="g 20\n")
    assert "the log ends here: " in res.stdout and "kabucli resume" not in res.stdout


def test_a_clone_shares_nothing_that_changes_and_keeps_what_is_shared_shared() -> None:
    """:func:`kabucli.pager.clone` of containers a state may hold: every list, dict, set,
    defaultdict and unfrozen struct inside is a new one (a change to the copy leaves the
    original alone), and one object held twice is one object held twice in the copy."""
    from collections import defaultdict

    import msgspec

    from kabucli.pager import clone

    class Pile(msgspec.Struct):
        cards: list[int]

    shared = [7]
    by_seat: defaultdict[int, list[int]] = defaultdict(list, {1: [1, 2]})
    obj = {"hands": {1: [3, 4], 2: [5]}, "rows": [[6], shared, shared], "by_seat": by_seat,
           "pile": Pile([8, 9]), "seen": {(1, 2)}, "piles": [Pile([10])]}
    new = clone(obj, {}, {})
    assert new == obj
    new["hands"][1].append(0)
    new["rows"][0].append(0)
    new["by_seat"][1].append(0)
    new["pile"].cards.append(0)
    new["seen"].add((3, 4))
    new["piles"][0].cards.append(0)  # (a list of unfrozen structs alone: not copied as one)
    assert obj == {"hands": {1: [3, 4], 2: [5]}, "rows": [[6], [7], [7]],
                   "by_seat": {1: [1, 2]}, "pile": Pile([8, 9]), "seen": {(1, 2)},
                   "piles": [Pile([10])]}
    assert type(new["by_seat"]) is defaultdict and new["by_seat"].default_factory is list
    assert new["rows"][1] is new["rows"][2] and new["rows"][1] is not shared


@pytest.mark.timeout(60)
def test_a_search_from_every_event_finds_the_nearest_or_stays() -> None:
    """?text from every event, checkpoints every 3 events, finds the nearest earlier event
    whose line holds it (or says none, where it was): from just past a checkpoint too,
    where the search looked at the block ending at that checkpoint for ever. Text no line
    holds, searched either way, leaves the pager at the event and state it was at."""
    data = read_log(REPLAYS / LOGS[0], games.event_types, strict=False)
    g = games.get(data.header.game)
    pager = Pager(g, data, Console(file=io.StringIO(), width=100), every=3)
    at = pager.at
    walked = _walked(g, data)
    lines = [""] + [pager.line(k, m).plain.lower() for k, m in walked]
    walked_at = dict(walked)
    for k in range(at.last + 1):
        at.goto(k)
        want = [j for j in range(1, k) if "deal" in lines[j]]
        moved, message = pager.find("deal", forward=False)
        assert at.pos == (want[-1] if want else k), k
        assert moved == bool(want) and (message is None) == bool(want), k
        for forward in (True, False):  # text no line holds: the pager stays where it was
            at.goto(k)
            moved, message = pager.find("no such words", forward=forward)
            assert not moved and message is not None and at.pos == k, (k, forward)
            if k:
                assert g.view(at.match.state) == g.view(walked_at[k].state), (k, forward)


def _walked(g: Any, data: Any) -> list[tuple[int, Match]]:
    """Each event's number with the match after it (its own copy)."""
    out: list[tuple[int, Match]] = []
    at = Positions(g, data.header, data.events, every=1)
    for k in range(1, at.last + 1):
        at.goto(k)
        out.append((k, at.match))
        at.match = Match(g, data.header)  # (a new match for the next: this one is kept)
        at.pos = 0
    return out


def test_a_command_one_character_too_long_is_refused_and_the_pager_stays() -> None:
    """A line of MAX_LINE characters is read as a command; one of a character more is
    refused whole, and is not read as Enter (a step on)."""
    from kabucli.pager import MAX_LINE

    log = str(REPLAYS / LOGS[0])
    res = run("replay", log, "--step", input="x" * (MAX_LINE + 1) + "\nq\n")
    assert res.exit_code == 0
    assert [k for k, _ in frames(res.stdout)] == [0]
    assert f"a command is at most {MAX_LINE} characters" in res.stdout
    res = run("replay", log, "--step", input="x" * MAX_LINE + "\nq\n")
    assert "unknown command" in res.stdout and "at most" not in res.stdout


def test_a_script_with_windows_line_ends_reads_its_commands_without_the_cr() -> None:
    res = run("replay", str(REPLAYS / LOGS[0]), "--step", input=b"g 3\r\nxyz\r\nq\r\n")
    assert res.exit_code == 0
    assert [k for k, _ in frames(res.stdout)] == [0, 3]
    assert "unknown command 'xyz': type h for help" in res.stdout, res.stdout[-300:]


def test_the_first_walk_tells_how_far_it_is_every_4096_events_and_at_its_end(
        long_log: Path) -> None:
    data = read_log(long_log, games.event_types)
    g = games.get(data.header.game)
    n = len(data.events)
    told: list[tuple[int, int]] = []
    Positions(g, data.header, data.events, progress=lambda k, total: told.append((k, total)))
    assert told == [(k, n) for k in range(4096, n + 1, 4096)] + [(n, n)]
