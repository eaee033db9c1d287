"""docs/bots.md's tables of what a bot program is sent hold what kabucli really sends.

Seeded matches of every registered game are played with `kabucli sim` by bot programs
(`cmd:`) that write down every message they read; every key of every `state` and `outcome`
they were sent, and every kind of move they were offered, is then checked against the
game's tables in docs/bots.md, both ways for the keys: a key sent must be in the table, and
a key in the table must have been sent.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kabucli import games

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "bots.md"

# A bot that writes down every line it is sent and answers a move of its `legal` at random
# (seeded; Kazu-Tori's stop, which would end the game at once, is not among them: only people
# stop it). A Kabu-Tsukuri bot, whose legal list is empty while it lays its rows, lays its own
# cards in a random order.
LOGGING_BOT = """
import json, os, random, sys
out = open(os.environ["BOT_DOCS_LOG"], "a")
rng = random.Random(int(os.environ["BOT_DOCS_SEED"]))  # (not the process id: reproducible)
for line in sys.stdin:
    out.write(line if line.endswith("\\n") else line + "\\n")
    out.flush()
    m = json.loads(line)
    if m["type"] != "turn":
        continue
    legal = m["legal"]
    if legal:
        print(rng.choice(legal), flush=True)
        continue
    cards = list(m["state"]["cards"]["p%d" % m["seat"]])
    rng.shuffle(cards)
    rows = " ".join("-".join(cards[i:i + 3]) for i in (0, 3, 6))
    print(rows + (" aside " + "-".join(cards[9:]) if len(cards) > 9 else ""), flush=True)
"""

# Short matches, each long enough for every phase a bot is asked in to come round.
RULES = {
    "dare": ["rounds=4"],
    "kazu-tori": [],
    "yatchaba": ["games=2"],
    "kabu-tsukuri": ["hands=3"],
    "uno-dare": ["target=150"],
}

HEADING = re.compile(r"^#### .*\(`([a-z-]+)`\)\s*$")


def doc_tables(text: str) -> dict[str, dict[str, list[str]]]:
    """game -> table kind (``state key``, ``outcome key``, ``move``) -> the names in its
    first column, from each game's section (a ``#### Title (`name`)`` heading) of the doc:
    the tables whose header reads ``| GAME state key |``, ``| GAME outcome key |`` or
    ``| GAME move |``."""
    found: dict[str, dict[str, list[str]]] = {}
    game = None
    kind = None
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            game, kind = m.group(1), None
            found.setdefault(game, {})
            continue
        if line.startswith("#"):
            game = kind = None
            continue
        if game is None:
            continue
        if not line.startswith("|"):
            kind = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        head = cells[0]
        for k in ("state key", "outcome key", "move"):
            if head == f"{game} {k}":
                kind = k
                found[game].setdefault(k, [])
                break
        else:
            if kind is None or set(head) <= set("-: "):
                continue
            name = re.fullmatch(r"`([^`]+)`", head)
            assert name, f"docs/bots.md, {game} {kind} table: {head!r} is not a `name`"
            found[game][kind].append(name.group(1))
    return found


@cache
def sent(game: str, players: int = 3) -> tuple[dict[str, object], ...]:
    """Every message the bot programs of two seeded matches of ``game`` read (3 players)."""
    with tempfile.TemporaryDirectory() as tmp:
        bot = Path(tmp, "bot.py")
        bot.write_text(LOGGING_BOT)
        log = Path(tmp, "messages.jsonl")
        cmd = [sys.executable, "-m", "kabucli", "sim", game, "--matches", "2", "--seed", "7",
               "--workers", "1", "--json"]
        for _ in range(players):
            cmd += ["--bot", f"cmd:{sys.executable} {bot}"]
        for rule in RULES.get(game, []):
            cmd += ["--rule", rule]
        env = {**os.environ, "BOT_DOCS_LOG": str(log), "BOT_DOCS_SEED": "7",
               "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600,
                              cwd=tmp)
        assert done.returncode == 0, done.stdout + done.stderr
        report = json.loads(done.stdout)
        assert [b["forfeits"] for b in report["bots"]] == [0] * players, report["failures"]
        return tuple(json.loads(line) for line in log.read_text().splitlines())


def keys_sent(game: str) -> tuple[set[str], set[str], set[str]]:
    """The state keys, outcome keys and move words ``game``'s bots were sent."""
    state: set[str] = set()
    outcome: set[str] = set()
    moves: set[str] = set()
    turns = ends = 0
    for m in sent(game):
        if m["type"] == "turn":
            turns += 1
            assert isinstance(m["state"], dict) and isinstance(m["legal"], list)
            state |= m["state"].keys()
            moves |= {str(move).split()[1] for move in m["legal"]}
        elif m["type"] == "end":
            ends += 1
            assert isinstance(m["outcome"], dict), m
            outcome |= m["outcome"].keys()
    assert turns > 0 and ends > 0, (game, turns, ends)  # a bot never asked is never started
    return state, outcome, moves


def test_the_doc_has_a_section_for_every_game() -> None:
    tables = doc_tables(DOC.read_text())
    assert sorted(tables) == sorted(games.names())
    for game, kinds in tables.items():
        assert sorted(kinds) == ["move", "outcome key", "state key"], game
        for names in kinds.values():
            assert names and len(names) == len(set(names)), (game, names)


def test_the_parser_reads_a_section() -> None:
    text = ("#### Dare (`dare`)\n\n| dare state key | type | meaning |\n| --- | --- | --- |\n"
            "| `round` | integer | the round |\n| `pot` | integer | chips |\n\n"
            "| dare move | form | when |\n| --- | --- | --- |\n| `pass` | `pass` | no set |\n"
            "## Next\n| dare state key | x |\n| --- | --- |\n| `stray` | x |\n")
    assert doc_tables(text) == {"dare": {"state key": ["round", "pot"], "move": ["pass"]}}


@pytest.mark.parametrize("game", games.names())
def test_every_state_and_outcome_key_sent_is_documented_and_back(game: str) -> None:
    doc = doc_tables(DOC.read_text())[game]
    state, outcome, _ = keys_sent(game)
    assert state - set(doc["state key"]) == set(), f"{game}: state keys sent, not in the doc"
    assert set(doc["state key"]) - state == set(), f"{game}: state keys in the doc, never sent"
    assert outcome - set(doc["outcome key"]) == set(), f"{game}: outcome keys not in the doc"
    assert set(doc["outcome key"]) - outcome == set(), f"{game}: outcome keys never sent"


@pytest.mark.parametrize("game", games.names())
def test_every_kind_of_move_offered_is_documented(game: str) -> None:
    doc = doc_tables(DOC.read_text())[game]
    _, _, moves = keys_sent(game)
    assert moves - set(doc["move"]) == set(), f"{game}: moves offered, not in the doc"


def test_the_bots_answer_the_same_each_run() -> None:
    """The matches are seeded, the bots' answers too, so that a failure here can be run again
    as it was (each bot drew from a generator seeded with its process id)."""
    first = sent("yatchaba")
    sent.cache_clear()
    assert sent("yatchaba") == first


def doc_row(game: str, kind: str, name: str) -> str:
    """The whole row of ``name`` in ``game``'s ``kind`` table of docs/bots.md."""
    rows = [line for line in DOC.read_text().splitlines() if line.startswith(f"| `{name}` |")]
    assert name in doc_tables(DOC.read_text())[game][kind], (game, kind, name)
    found = [r for r in rows if r in section(game)]
    assert len(found) == 1, (game, kind, name, found)
    return found[0]


def section(game: str) -> str:
    """The text of ``game``'s section (its ``#### Title (`name`)`` heading to the next)."""
    out: list[str] = []
    inside = False
    for line in DOC.read_text().splitlines():
        m = HEADING.match(line)
        if m or line.startswith("#"):
            inside = m is not None and m.group(1) == game
            continue
        if inside:
            out.append(line)
    return "\n".join(out)


def test_a_bot_asked_while_its_own_uno_call_is_missing_is_told_so_as_the_doc_says() -> None:
    """A program that played its next-to-last card without `uno` and whose move comes next
    again (a Skip or a Reverse with two players) is asked with `uno_missing` its own seat
    and `pN uno` among its legal moves; the doc once said a bot was never asked then."""
    turns: list[Any] = [m for m in sent("uno-dare", 2) if m["type"] == "turn"]
    asked = [m for m in turns if m["state"]["uno_missing"] == f"p{m['seat']}"]
    assert asked, "no 2-player turn message with the bot's own missing call: pick another seed"
    for m in asked:
        me = f"p{m['seat']}"
        assert m["state"]["turn"] == me, m
        assert f"{me} uno" in m["legal"], m
    row = doc_row("uno-dare", "move", "uno")
    assert "never asked" not in row
    assert "`uno_missing` its own seat" in row and "`pN uno`" in row, row


def test_yatchaba_odds_are_a_fraction_in_lowest_terms_or_0_as_the_doc_says() -> None:
    """A guess that can never be right (here a January once all four are face up) is sent
    its odds as "0", not as a fraction; the doc's row said only "a fraction"."""
    from fractions import Fraction

    from kabucli.engine import Match, make_header
    from kabucli.games.yatchaba.rules import YatchabaRules
    from kabucli.log import SeatInfo

    game = games.get("yatchaba")
    seats = [SeatInfo(name) for name in ("a", "b", "c")]
    odds = []
    for guess in ("guess 1 2 3", "guess 2 3 4"):
        match = Match(game, make_header(game, YatchabaRules(), seats, None))  # a real table
        match.advance()
        for move in ("deal", "guess 9 10 11", "bet", "bet", "bet", "stop", "reveal 1 1 1",
                     "deal", "guess 2 3 4", "bet", "bet", "bet", "stop", "reveal 1 5 6",
                     "deal", guess):
            match.submit(game.parse(match.state, move))
            match.advance()
        odds.append(game.view(match.state, 1)["odds"])
    assert odds[0] == "0"
    assert re.fullmatch(r"[1-9][0-9]*/[1-9][0-9]*", odds[1]), odds
    assert str(Fraction(odds[1])) == odds[1], odds  # in lowest terms
    row = doc_row("yatchaba", "state key", "odds")
    assert '`"0"`' in row and "lowest terms" in row, row
