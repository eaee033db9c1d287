"""Recorded games are golden tests: every log in replays/GAME/ audits as valid, replays to the
text pinned in a snapshot, and numbers its events 1..N in ``replay --json``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.log import read_log

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
LOG_SUFFIXES = (".kbl", ".jsonl")
MIN_GAMES = 6
# Plain text at a fixed width, whatever terminal the tests run in.
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
ANSI = re.compile(r"\x1b[\[\]()]")

runner = CliRunner()


def game_folders() -> list[Path]:
    return sorted(p for p in REPLAYS.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def recorded(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in LOG_SUFFIXES)


def all_logs() -> list[Any]:
    """Every recorded log as a test parameter; folders of games not registered yet skip."""
    params = []
    for folder in game_folders():
        registered = folder.name in games.names()
        for path in recorded(folder):
            marks = () if registered else (pytest.mark.skip(
                reason=f"game '{folder.name}' is not registered yet"),)
            params.append(pytest.param(path, id=f"{folder.name}/{path.name}", marks=marks))
    return params


LOGS = all_logs()


def kabucli(*args: str) -> Any:
    return runner.invoke(app, list(args), env=ENV)


def event_count(path: Path) -> int:
    return len(read_log(path, games.event_types).events)


@pytest.mark.parametrize("path", LOGS)
def test_recorded_game_audits_valid(path: Path) -> None:
    res = kabucli("audit", str(path))
    assert res.exit_code == 0, res.stderr
    assert res.stdout.startswith("valid: ")
    assert f"{path} ({event_count(path)} events, finished)" in res.stdout


@pytest.mark.parametrize("path", LOGS)
def test_replay_text_matches_snapshot(path: Path, snapshot: Any) -> None:
    res = kabucli("replay", str(path))
    assert res.exit_code == 0, res.stderr
    assert not ANSI.search(res.stdout), "replay output holds terminal escapes"
    assert max(len(line) for line in res.stdout.splitlines()) <= int(ENV["COLUMNS"])
    assert res.stdout == snapshot


@pytest.mark.parametrize("path", LOGS)
def test_replay_at_middle_event_matches_snapshot(path: Path, snapshot: Any) -> None:
    middle = event_count(path) // 2
    res = kabucli("replay", str(path), "--at", str(middle))
    assert res.exit_code == 0, res.stderr
    assert not ANSI.search(res.stdout), "replay output holds terminal escapes"
    assert f"state after event {middle} of {event_count(path)}:" in res.stdout
    assert res.stdout == snapshot


@pytest.mark.parametrize("path", LOGS)
def test_replay_json_gives_one_step_per_event_numbered_from_one(path: Path) -> None:
    res = kabucli("replay", str(path), "--json")
    assert res.exit_code == 0, res.stderr
    steps = json.loads(res.stdout)["steps"]
    assert [s["index"] for s in steps] == list(range(1, event_count(path) + 1))
    assert all(s["notation"] and s["event"]["e"] for s in steps)


@pytest.mark.parametrize("path", LOGS)
def test_replay_json_gives_the_digest_audit_prints(path: Path) -> None:
    """A program matching a replay to the digest written down at the table had to run audit
    as well: replay --json gave no digest. It gives audit's, in every view."""
    found = json.loads(kabucli("audit", str(path), "--json").stdout)[0]["digest"]
    assert isinstance(found, str) and len(found) == 64
    for view in ((), ("--as", "p2"), ("--at", "2")):
        res = kabucli("replay", str(path), "--json", *view)
        assert res.exit_code == 0, res.stderr
        assert json.loads(res.stdout)["digest"] == found, view


def test_replay_json_of_a_log_that_breaks_a_rule_has_no_digest(tmp_path: Path) -> None:
    """As audit prints none for it (its inputs after the break cannot be told apart)."""
    lines = (REPLAYS / "dare" / "2p-human-undo.jsonl").read_text().splitlines()
    assert '"field":[2,8,8]' in lines[1], lines[1]
    lines[1] = lines[1].replace('"field":[2,8,8]', '"field":[2,8,9]')  # not the seed's deal
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    audit = json.loads(kabucli("audit", str(bad), "--json").stdout)[0]
    assert audit["status"] == "invalid" and audit.get("digest") is None, audit
    doc = json.loads(kabucli("replay", str(bad), "--json").stdout)
    assert doc["violation"] is not None and doc["digest"] is None


@pytest.mark.parametrize("game", games.names())
def test_each_registered_game_has_at_least_six_recorded_games(game: str) -> None:
    folder = REPLAYS / game
    assert folder.is_dir(), f"replays/{game}/ is missing"
    logs = recorded(folder)
    assert len(logs) >= MIN_GAMES, (f"replays/{game}/ holds {len(logs)} recorded games, "
                                    f"at least {MIN_GAMES} are needed")


def test_dare_replays_cover_every_way_a_round_ends() -> None:
    """The Dare recordings show Dare, a showdown, each tie rule and a round nobody
    qualifies for, with 2, 3 and 4 players, a physical game and an undo."""
    reasons: set[str] = set()
    players: set[int] = set()
    modes: set[str] = set()
    undo = False
    for path in recorded(REPLAYS / "dare"):
        data = read_log(path, games.event_types)
        players.add(len(data.header.seats))
        modes.add(data.header.mode)
        for ev in data.events:
            tag = type(ev).__struct_config__.tag
            undo = undo or tag == "undo"
            if tag == "result":
                reasons.add(ev.reason)  # type: ignore[attr-defined]
    assert reasons == {"dare", "showdown", "tie", "split", "order", "nobody"}
    assert players == {2, 3, 4}
    assert modes == {"seeded", "physical"}
    assert undo


@pytest.mark.parametrize("encoding", ["jsonl", "kbl"])
def test_audit_says_where_moves_were_taken_back(tmp_path: Path, encoding: str) -> None:
    """A move taken back (undo) is legal and stays in the log; in a seeded game the person
    may have seen what followed it (the next deal, a bot's reply), so audit tells the reader
    where, in both encodings (the binary one is streamed) and in --json."""
    src = Path(__file__).resolve().parent.parent / "replays" / "dare" / "2p-human-undo.jsonl"
    path = src
    if encoding == "kbl":
        path = tmp_path / "undo.kbl"
        assert kabucli("log", "convert", str(src), str(path)).exit_code == 0
    res = kabucli("audit", str(path))
    assert res.exit_code == 0
    # event 11 takes back a bot's reply (nothing dealt since); event 12 p1's lay of round 1,
    # after round 2 was dealt: a takeback after the seed showed what followed the move
    assert res.stdout.splitlines()[-1] == ("  taken back: 2 moves (undo at events 11, 12); "
                                           "after cards were dealt or shown since the move: "
                                           "event 12")
    (doc,) = json.loads(kabucli("audit", str(path), "--json").stdout)
    assert (doc["taken_back"], doc["taken_back_after_cards_shown"]) == ([11, 12], [12])
    plain = Path(__file__).resolve().parent.parent / "replays" / "dare" / "3p-tie-order.jsonl"
    assert "taken back" not in kabucli("audit", str(plain)).stdout


@pytest.mark.parametrize(("game", "seed", "players", "moves", "undone", "marked"), [
    # p1 draws the pile's top card, sees it, and takes the draw back
    ("uno-dare", "1", "2", "draw\nundo\n", [4], [4]),
    # p1 declines a dare and draws 2 as the penalty; the undo takes back p2's draw (which
    # showed p2 a card) and then p1's answer, after p1 saw the two cards
    ("uno-dare", "5", "2", "decline\nundo\n", [6, 7], [6, 7]),
    # p1 flips the top card of the pile for everyone to see, and takes the flip back
    ("kazu-tori", "1", "3", "flip\nundo\n", [3], [3]),
])
@pytest.mark.parametrize("encoding", ["jsonl", "kbl"])
def test_audit_marks_a_move_taken_back_after_the_cards_it_showed(
        tmp_path: Path, encoding: str, game: str, seed: str, players: str, moves: str,
        undone: list[int], marked: list[int]) -> None:
    """A card a move shows itself in a seeded game (Uno Dare's draw and penalty, Kazu-Tori's
    flip) comes from the seed, not from a chance event; a takeback after it is one after
    cards were shown all the same (the audit used to list it as a plain takeback)."""
    log = tmp_path / f"t.{encoding}"
    bots = [f"--bot={seat}=random" for seat in range(2, int(players) + 1)]
    res = runner.invoke(app, ["play", game, "--seed", seed, "--players", players, *bots,
                              "--script", "-", "--log", str(log), "-q"], input=moves,
                        env={"NO_COLOR": "1", "COLUMNS": "100"})
    assert "took back" in res.output, res.output
    (doc,) = json.loads(kabucli("audit", str(log), "--json").stdout)
    assert (doc["taken_back"], doc["taken_back_after_cards_shown"]) == (undone, marked)


@pytest.mark.parametrize("encoding", ["jsonl", "kbl"])
def test_an_undo_takes_back_the_move_before_the_races_drawn_after_it(
        tmp_path: Path, encoding: str) -> None:
    """A race drawn from the seed (Kazu-Tori's bots racing for a card) is no move: an undo
    after one takes back the move before it, and is marked after cards were shown when the
    cards came since that move (here p1's flip, which shows a card). Marked from the race's
    own placement instead, the takeback read as one after nothing was shown (probe EL: a
    mutant of take_back that did not skip the races survived)."""
    import msgspec

    from kabucli.engine import Match

    played = tmp_path / "flip.jsonl"
    res = runner.invoke(app, ["play", "kazu-tori", "--seed", "1", "--players", "3",
                              "--bot=2=random", "--bot=3=random", "--script", "-", "--log",
                              str(played), "-q"], input="flip\nundo\n", env=ENV)
    assert "took back" in res.output, res.output
    data = read_log(played, games.event_types)
    lines = played.read_text().splitlines()
    assert [json.loads(line)["e"] for line in lines[1:]] == ["deal", "flip", "undo"]
    match = Match(games.get("kazu-tori"), data.header)
    match.advance()
    match.submit(data.events[1])  # p1's flip: the claim window, where bots may race
    match.advance()
    race = match.draw()
    assert race is not None and type(race).__struct_config__.tag == "race"
    path = tmp_path / "race.jsonl"
    path.write_text("\n".join([*lines[:3], msgspec.json.encode(race).decode(), lines[3]]) + "\n")
    assert takebacks(path, encoding) == ([4], [4])


def takebacks(path: Path, encoding: str) -> tuple[list[int], list[int]]:
    """A JSON Lines log's takebacks as audit --json lists them (the events that took a move
    back, and those of them after cards were shown), read as it is or converted to the
    binary encoding first (``encoding`` "kbl")."""
    if encoding == "kbl":
        kbl = path.with_suffix(".kbl")
        assert kabucli("log", "convert", str(path), str(kbl)).exit_code == 0
        path = kbl
    res = kabucli("audit", str(path), "--json")
    assert res.exit_code == 0, res.output
    (doc,) = json.loads(res.stdout)
    return doc["taken_back"], doc["taken_back_after_cards_shown"]


@pytest.mark.parametrize("encoding", ["jsonl", "kbl"])
def test_a_takeback_where_no_seat_is_a_person_is_marked_in_both_encodings(
        tmp_path: Path, encoding: str) -> None:
    """A log from anyone may hold an undo though its seats all say bot. The audit of its JSON
    Lines marked the takeback after cards were shown; the streamed audit of the same game in
    the binary encoding (same digest) did not, as it tracked cards shown only with a person
    at the table: whoever wanted a takeback unmarked had only to call the seats bots."""
    src = Path(__file__).resolve().parent.parent / "replays" / "dare" / "2p-human-undo.jsonl"
    lines = src.read_text().splitlines(keepends=True)
    path = tmp_path / "nobody.jsonl"
    path.write_text(lines[0].replace('"control":"human"', '"control":"bot:random"')
                    + "".join(lines[1:]))
    assert '"human"' not in path.read_text()
    assert takebacks(path, encoding) == ([11, 12], [12])
