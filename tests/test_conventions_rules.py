"""RULINGS, "Conventions for all five games", clause by clause where no game's own rules
tests already check it: the seeded header and the chance events that carry their cards.
(The seats, card values, unknown cards and chips of each game are checked in its
tests/test_<game>_rules.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from kabucli import games
from kabucli.engine import Match, make_header
from kabucli.events import Event
from kabucli.log import SeatInfo, read_log, write_log

SEED = 20240601


def seeded(name: str, **rules: object) -> Match:
    game = games.get(name)
    seats = [SeatInfo(f"P{i}") for i in range(1, game.default_players + 1)]
    return Match(game, make_header(game, game.Rules(**rules), seats, SEED))


def play_out(m: Match, limit: int = 400) -> None:
    """Each seat to act plays one of its legal moves, in turn, never proposing to stop (a race
    is drawn when one is due), until the match is over or ``limit`` moves were made."""
    for _ in range(limit):
        p = m.advance()
        if p.kind != "action":
            return
        m.draw()
        p = m.advance()
        if p.kind != "action":
            return
        moves = [ev for seat in p.seats for ev in m.game.legal(m.state, seat)
                 if type(ev).__name__ != "Stop"]
        m.submit(moves[len(m.events) % len(moves)])


@pytest.mark.parametrize("name", games.names())
def test_a_seeded_game_records_its_seed_and_the_shuffle_algorithms_name_in_its_log(
        name: str, tmp_path: Path) -> None:
    """Conventions, Chance: "A seeded game also records its seed and the name of the shuffle
    algorithm" (docs/shuffle.md names it blake2b-fy-v1)."""
    m = seeded(name)
    path = tmp_path / "game.jsonl"
    write_log(path, m.header, [], "jsonl")
    line = json.loads(path.read_bytes().splitlines()[0])
    assert (line["mode"], line["seed"], line["shuffle"]) == ("seeded", SEED, "blake2b-fy-v1")


@pytest.mark.parametrize(("name", "rules"), [("dare", {"rounds": 3}),
                                             ("kazu-tori", {"max_flips": 120})])
def test_chance_events_carry_their_cards_so_a_replay_of_the_log_needs_no_random_generator(
        name: str, rules: dict[str, object], tmp_path: Path) -> None:
    """Conventions, Chance: "recorded in the log as events that carry the resulting cards, so
    a replay needs no random generator". A seeded game's JSON Lines log, read back and
    rebuilt under another seed, gives the same table: its cards come from the events."""
    m = seeded(name, **rules)
    play_out(m)
    assert m.over
    assert sum(ev.KIND == "chance" for ev in m.events) >= 3
    path = tmp_path / "game.jsonl"
    write_log(path, m.header, m.events, "jsonl")
    data = read_log(path, games.event_types)
    events: list[Event] = list(data.events)
    assert events == m.events
    # Rebuilt under another seed: a rebuild that drew the deals again would deal other
    # cards. (Patching the engine's chance_rng would not do: compiled, the engine calls the
    # function it was built with, and such a test could not fail in the compiled build.)
    again = Match(m.game, msgspec.structs.replace(data.header, seed=SEED + 1))
    again.rebuild(events)
    assert again.events == m.events
    assert m.game.view(again.state) == m.game.view(m.state)
    assert again.outcome() == m.outcome()


def test_a_seeded_binary_log_converted_to_json_lines_carries_every_card_dealt(
        tmp_path: Path) -> None:
    """docs/log-format.md's decision: the binary form deals a seeded game's cards again from
    its seed; `kabucli log convert` to JSON Lines writes the chance events with their cards,
    for a reader without the shuffle: each line of a deal holds the hands and the field."""
    from kabucli.log import convert_log

    m = seeded("dare", rounds=2)
    play_out(m)
    assert m.over
    kbl, jsonl = tmp_path / "game.kbl", tmp_path / "game.jsonl"
    write_log(kbl, m.header, m.events, "msgpack")
    convert_log(kbl, jsonl, games.event_types, "jsonl")
    deals = [json.loads(line) for line in jsonl.read_bytes().splitlines()[1:]
             if json.loads(line)["e"] == "deal"]
    dealt = [ev for ev in m.events if type(ev).__name__ == "Deal"]
    assert len(deals) == len(dealt) == 2
    for line, ev in zip(deals, dealt, strict=True):
        assert (line["field"], line["hands"]) == (ev.field, ev.hands)  # type: ignore[attr-defined]
        assert len(line["field"]) == 3 and all(len(h) == 9 for h in line["hands"])
