"""The contract every registered game keeps, tested over each game in ``kabucli.games``: a game
gets these tests by being registered (as OpenSpiel's api and playthrough tests do).

- its package has the files of the shape (events, rules with ``GAME``, bots with ``BOTS``,
  each kind with an ``about``, render with ``table``);
- over many seeded bot matches at the fewest, a middle and the most seats, with the house
  rules that are choices cycled: every legal move passes :meth:`Match.why_not`; neither legal
  nor crafted events (other seats' moves, events of earlier turns, events with one field
  changed) change the state when checked, or make the check fail with an exception; every
  event's notation parses back to it; every log walks clean;
- every built-in bot kind plays whole matches alone at the fewest and the most seats;
- a seat's view never shows another seat's hidden cards;
- every recorded game (``replays/GAME/``) resumes from its middle with ``kabucli resume`` and
  every event of it parses back from its notation (test_replays.py audits and replays them,
  and requires six per registered game).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest
from matchtools import bot_match
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.engine import Game, Match, Pending, walk
from kabucli.events import Event
from kabucli.log import read_log, to_builtins, write_log
from kabucli.notation import split_seat, typed_form
from kabucli.prompt import MoveCompleter
from kabucli.session import Session
from kabucli.shuffle import Rng

NAMES = games.names()
REPLAYS = Path(__file__).resolve().parent.parent / "replays"
SHAPE = ("events", "rules", "bots", "render")
MATCHES_PER_SEATS = 4  # seeded bot matches per seat count, besides one per bot kind
CRAFTED_PER_STEP = 6  # changed copies of legal events checked at each step
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
runner = CliRunner()


# -- the shape of a game's package -----------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_the_package_has_the_files_of_the_shape(name: str) -> None:
    parts = {part: games.part(name, part) for part in SHAPE}
    game = parts["rules"].GAME
    assert isinstance(game, Game) and game.name == name
    assert games.get(name) is game
    assert 1 <= game.min_players <= game.default_players <= game.max_players
    bots = parts["bots"].BOTS
    assert bots, f"{name} has no built-in bot"
    for kind, factory in bots.items():
        about = getattr(factory, "about", "")
        assert isinstance(about, str) and about.strip(), f"bot {kind} of {name} has no about"
    assert callable(parts["render"].table)
    # the events module holds the house rules and the game's own events
    events: ModuleType = parts["events"]
    assert game.Rules.__module__ == events.__name__
    tags = [type_tag(t) for t in game.events]
    assert len(set(tags)) == len(tags), f"{name}: two events share a tag"
    for t in game.events:
        assert t.__module__ in (events.__name__, "kabucli.events"), t
        assert t.KIND in ("chance", "action", "auto", "meta"), t


def type_tag(t: type[Event]) -> str:
    return str(t.__struct_config__.tag)


# -- a deep snapshot of a state: to see that checking an event changes nothing -----------------

PLAIN = {type(None), bool, int, float, str, bytes}


def snapshot(value: Any, depth: int = 0) -> Any:
    """``value`` as nested tuples of plain values. Objects are read through their attributes
    (``__slots__`` or ``__dict__``); attributes whose names start with ``_`` are caches a
    game may fill at any time and are left out."""
    assert depth < 30, "a state nested too deep (a cycle?)"
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if isinstance(value, (msgspec.Struct, Pending)):
        return value  # frozen: compared by value
    if isinstance(value, (list, tuple)):
        if set(map(type, value)) <= PLAIN:  # (a pile of hundreds of cards: taken whole)
            return (type(value).__name__, *value)
        return (type(value).__name__, *(snapshot(v, depth + 1) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(value))
    if isinstance(value, dict):
        return ("dict", *((k, snapshot(v, depth + 1)) for k, v in value.items()))
    names = attribute_names(value)
    return (type(value).__name__,
            *((n, snapshot(getattr(value, n, None), depth + 1)) for n in names))


def attribute_names(obj: Any) -> list[str]:
    """The attributes of ``obj``: its ``__slots__`` and ``__dict__``, or those mypyc lists in
    ``__mypyc_attrs__`` for a compiled class (properties are not read)."""
    names: list[str] = list(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
        names += cls.__dict__.get("__mypyc_attrs__", ())
    assert names, f"no attributes found on {obj!r}"
    return sorted({n for n in names if not n.startswith("_")})


class _Box:
    __slots__ = ("_cache", "cards", "hands")

    def __init__(self) -> None:
        self.cards: list[int] = [3, 1, 4, 1, 5]
        self.hands: list[list[int | str]] = [[9, 2], [6, "5"]]
        self._cache: list[int] = []


def test_the_snapshot_sees_a_change_anywhere_in_a_state_but_in_a_cache() -> None:
    """What the check that checking changes nothing rests on. A list of plain values is taken
    whole (a pile of hundreds of cards, one call per card made Uno Dare's checked matches
    take 23 s): a change in one is seen all the same."""
    box = _Box()
    before = snapshot(box)
    box.cards[3] = 2
    assert snapshot(box) != before
    box.cards[3] = 1
    box.hands[1][1] = 5
    assert snapshot(box) != before
    box.hands[1][1] = "5"
    box.hands[0].append(0)
    assert snapshot(box) != before
    box.hands[0].pop()
    box._cache.append(1)
    assert snapshot(box) == before


# -- crafted events ------------------------------------------------------------------------------

def changed(ev: Event) -> Iterator[Event]:
    """Copies of ``ev`` with one field changed: numbers off by one, zero or negative, lists
    reordered, shortened, lengthened or left out."""
    for name in ev.__struct_fields__:
        value = getattr(ev, name)
        for new in variants(value):
            if new != value:
                crafted = msgspec.structs.replace(ev, **{name: new})
                # only events a log could hold: of the types the event declares
                with suppress(msgspec.ValidationError):
                    yield msgspec.json.decode(msgspec.json.encode(crafted), type=type(ev))


def variants(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1, 0, -1, 99]
    if isinstance(value, list):
        out: list[Any] = [value[::-1], value[:-1], [*value, *value[:1]], None]
        if value and isinstance(value[0], (int, list)):
            out += [[*value[:-1], new] for new in variants(value[-1])[:2]]
        return out
    if value is None:
        return [[], [1, 2, 3]]
    return []


# -- many seeded bot matches, each step checked --------------------------------------------------

@dataclass
class Findings:
    """What the checked bot matches of one game showed; each list holds what went wrong."""

    matches: list[Match] = field(default_factory=list)
    legal_checked: int = 0
    # bot moves checked (match.submit) at a turn whose moves the game does not list: a
    # Kabu-Tsukuri arrangement is one of millions, so `legal` lists none
    unlisted_checked: int = 0
    crafted_checked: int = 0
    crafted_refused: int = 0
    refused_legal: list[str] = field(default_factory=list)
    changed_by_check: list[str] = field(default_factory=list)
    check_raised: list[str] = field(default_factory=list)
    kinds_alone: set[tuple[str, int]] = field(default_factory=set)


def choices(game: Game) -> dict[str, tuple[Any, ...]]:
    """The house rules that are a choice among named values, and their values."""
    info = msgspec.inspect.type_info(game.Rules)
    assert isinstance(info, msgspec.inspect.StructType)
    out = {}
    for f in info.fields:
        t = f.type
        if isinstance(t, msgspec.inspect.Metadata):
            t = t.type
        if isinstance(t, msgspec.inspect.LiteralType):
            out[f.name] = tuple(t.values)
    return out


def chosen(game: Game, picks: dict[str, Any]) -> msgspec.Struct:
    """House rules with these choices; a choice that is not valid on its own (Uno Dare's
    house-rules dares need the dares too) is left at its default."""

    def valid(name: str, value: Any) -> bool:
        try:
            game.Rules(**{name: value})
        except (ValueError, TypeError):
            return False
        return True

    return game.Rules(**{k: v for k, v in picks.items() if valid(k, v)})


def plans(game: Game) -> list[tuple[int, dict[int, str], msgspec.Struct, str]]:
    """(seed, bot kind by seat, house rules, label) of the matches to play: at the fewest, a
    middle and the most seats, mixed bots; and each bot kind alone at the fewest and most."""
    kinds = sorted(games.part(game.name, "bots").BOTS)
    rule_choices = choices(game)
    lo, hi = game.min_players, game.max_players
    out = []
    seed = 0
    for n in sorted({lo, (lo + hi) // 2, hi}):
        for _ in range(MATCHES_PER_SEATS):
            seed += 1
            rules = chosen(game, {k: v[seed % len(v)] for k, v in rule_choices.items()})
            seats = {p: kinds[(p + seed) % len(kinds)] for p in range(1, n + 1)}
            out.append((seed, seats, rules, "mixed"))
    for kind in kinds:
        for n in (lo, hi):
            seed += 1
            out.append((seed, dict.fromkeys(range(1, n + 1), kind), game.Rules(), kind))
    return out


def check_quietly(match: Match, ev: Event, where: str, found: Findings) -> str | None:
    try:
        return match.why_not(ev)
    except Exception as exc:  # a check must answer, never raise
        found.check_raised.append(f"{where}: {match.game.notate(ev)}: {exc!r}")
        return "raised"


def check_step(match: Match, p: Pending, recent: list[Event], rng: Rng, where: str,
               found: Findings) -> None:
    """Check every legal move of the seats the match waits for, and crafted events, and see
    that checking changed nothing."""
    game = match.game
    before = snapshot(match.state)
    # a bot seat's legal moves are those a bot may make (Game.bot_legal: Kazu-Tori's stop is
    # the people's alone, refused from a bot seat)
    legal = [ev for seat in p.seats for ev in (
        game.bot_legal if seat in match.bot_seats else game.legal)(match.state, seat)]
    for ev in legal:
        found.legal_checked += 1
        reason = check_quietly(match, ev, where, found)
        if reason is not None:
            found.refused_legal.append(f"{where}: {game.notate(ev)}: {reason}")
    crafted = [c for ev in legal for c in changed(ev)]
    crafted = [crafted[rng.below(len(crafted))] for _ in range(CRAFTED_PER_STEP)] \
        if crafted else []
    crafted += recent  # events of earlier turns, mostly out of place now
    for ev in crafted:
        found.crafted_checked += 1
        if check_quietly(match, ev, where, found) is not None:
            found.crafted_refused += 1
    if snapshot(match.state) != before:
        found.changed_by_check.append(f"{where}: the state changed while events were checked")


def play_checked(game: Game, seed: int, seats: dict[int, str], rules: msgspec.Struct,
                 found: Findings) -> Match:
    match, bots = bot_match(game, rules, seats, seed)
    rng = Rng(seed, "test/crafted")
    for step in range(200_000):
        p = match.advance()
        if p.kind == "over":
            break
        where = f"{game.name} seed {seed} {len(seats)} seats, event {match.logged + 1}"
        match.pending  # noqa: B018  (a game may fill its cache of what it waits for first)
        if step % 3 == 0 or len(match.events) < 40:
            recent = [e for e in match.events[-12:] if e.KIND == "action"][-3:]
            check_step(match, p, recent, rng, where, found)
        ev = game.bot_event(match, bots)
        assert ev is not None, f"{where}: the bots do not move at {p.what}"
        if p.kind == "action" and not game.legal(match.state, getattr(ev, "seat", 0)):
            found.unlisted_checked += 1
        match.submit(ev)
    assert match.over, f"{game.name} seed {seed}: the match did not end"
    return match


FINDINGS: dict[str, Findings] = {}


def findings(name: str) -> Findings:
    """The checked bot matches of ``name`` (played once per test session)."""
    if name not in FINDINGS:
        game = games.get(name)
        found = Findings()
        for seed, seats, rules, label in plans(game):
            found.matches.append(play_checked(game, seed, seats, rules, found))
            if label != "mixed":
                found.kinds_alone.add((label, len(seats)))
        FINDINGS[name] = found
    return FINDINGS[name]


@pytest.mark.parametrize("name", NAMES)
def test_every_legal_move_passes_the_check(name: str) -> None:
    found = findings(name)
    assert found.refused_legal == []
    assert found.legal_checked >= 100 or found.unlisted_checked >= 100


@pytest.mark.parametrize("name", NAMES)
def test_checking_an_event_never_changes_the_state_nor_raises(name: str) -> None:
    found = findings(name)
    assert found.check_raised == []
    assert found.changed_by_check == []
    # crafted events were checked, and most of them refused (a changed event may be legal)
    assert found.crafted_checked >= 200
    assert found.crafted_refused >= found.crafted_checked // 2


@pytest.mark.parametrize("name", NAMES)
def test_every_bot_kind_plays_whole_matches_alone_at_the_fewest_and_most_seats(
        name: str) -> None:
    game = games.get(name)
    kinds = games.part(name, "bots").BOTS
    want = {(k, n) for k in kinds for n in (game.min_players, game.max_players)}
    assert findings(name).kinds_alone == want


@pytest.mark.parametrize("name", NAMES)
def test_every_bot_match_walks_clean_and_every_event_parses_back_from_its_notation(
        name: str) -> None:
    game = games.get(name)
    tags: set[str] = set()
    for match in findings(name).matches:
        replay, violation = walk(game, match.header, match.events)
        assert violation is None
        assert game.view(replay.state) == game.view(match.state)
        assert_notation_round_trips(game, match.header, match.events)
        tags |= {type_tag(type(e)) for e in match.events}
    # bot matches show every kind of event but those a referee types at a real table
    assert len(tags) >= len(game.events) // 2


def assert_notation_round_trips(game: Game, header: Any, events: list[Event]) -> None:
    """``parse(notate(e)) == e`` for each event, parsed at the state it was recorded in."""
    match = Match(game, header)
    for i, ev in enumerate(events, 1):
        text = game.notate(ev)
        assert game.parse(match.state, text) == ev, f"event {i}: {text!r}"
        match.submit(ev)


@pytest.mark.parametrize("name", NAMES)
def test_a_chance_events_cards_read_the_same_apart_by_spaces_as_joined_by_dashes(
        name: str) -> None:
    """A list of cards in a deal, a shuffle or a turn is printed joined by '-' ('p1 R1-G7');
    typed by hand with spaces between the cards it was refused in three games ('9 10 8' is
    not a card) while Kabu-Tsukuri's solve took spaces: every game reads them alike. (A game
    that prints its cards apart already, as Yatchaba does, has nothing to try.)"""
    game = games.get(name)
    tokens = {game.deck.token(c).lower() for c in game.deck.cards()} | {"??"}

    def spaced(text: str) -> str:  # each word of cards joined by '-' written apart
        return " ".join(" ".join(w.split("-")) if len(w.split("-")) > 1 and all(
            t.lower() in tokens for t in w.split("-")) else w for w in text.split(" "))

    for match in findings(name).matches:
        replay = Match(game, match.header)
        for ev in match.events:
            text = game.notate(ev)
            if ev.KIND == "chance" and spaced(text) != text:
                assert game.parse(replay.state, spaced(text)) == ev, spaced(text)
            replay.submit(ev)



@pytest.mark.parametrize("name", NAMES)
def test_a_real_tables_chance_events_read_the_same_apart_by_spaces_too(name: str) -> None:
    """The test above retypes the chance events of bot matches, which are seeded: what only
    a real table types (Kabu-Tsukuri's 'p2 shows 1-1-8', a row turned over) was left out,
    and 'p2 shows 1 1 8' was refused ("a row turned over reads 'show 3-4-5'") where the
    same cards in a turn were read. The recorded logs' chance events, retyped so."""
    game = games.get(name)
    tokens = {game.deck.token(c).lower() for c in game.deck.cards()} | {"??"}

    def spaced(text: str) -> str:
        return " ".join(" ".join(w.split("-")) if len(w.split("-")) > 1 and all(
            t.lower() in tokens for t in w.split("-")) else w for w in text.split(" "))

    retyped = 0
    for log in sorted((REPLAYS / name).iterdir()):
        if log.suffix not in (".kbl", ".jsonl"):
            continue
        data = read_log(log, games.event_types)
        replay = Match(game, data.header)
        for ev in data.events:
            text = game.notate(ev)
            if ev.KIND == "chance" and spaced(text) != text:
                assert game.parse(replay.state, spaced(text)) == ev, (log.name, spaced(text))
                retyped += 1
            replay.submit(ev)
    assert retyped > 0 or name == "yatchaba"  # (Yatchaba prints its cards apart already)

# -- what each seat sees -------------------------------------------------------------------------

def card_tokens(game: Game) -> frozenset[str]:
    return frozenset(game.deck.token(c) for c in game.deck.cards())


def shown(view: Any, tokens: frozenset[str], own: str | None = None,
          mine: bool = False) -> Counter[str]:
    """The card tokens anywhere in ``view``; with ``own`` (a seat ``pN``) only those under a
    key ``own`` (``mine``: already under one)."""
    out: Counter[str] = Counter()

    def count(view: Any, mine: bool) -> None:  # (into one counter: a view has thousands)
        if isinstance(view, str):
            if mine and view in tokens:
                out[view] += 1
        elif isinstance(view, dict):
            for k, v in view.items():
                count(v, mine or own is None or k == own)
        elif isinstance(view, (list, tuple)):
            for v in view:
                count(v, mine)

    count(view, mine)
    return out


def views_of(game: Game, match: Match) -> tuple[Any, list[Any]]:
    return game.view(match.state), [game.view(match.state, s)
                                     for s in range(1, match.nseats + 1)]


@pytest.mark.parametrize("name", NAMES)
def test_a_seat_sees_no_card_of_another_seat_that_the_others_do_not_all_see(
        name: str) -> None:
    """A card a seat's view shows is either its own (under its ``pN``) or shown to every
    seat; and when the game has hidden cards (a real table's log shows '??', or some seat's
    view shows less than the whole view), the seats' views do hide something."""
    game = games.get(name)
    tokens = card_tokens(game)
    hides = False
    for match in findings(name).matches[::3]:
        replay = Match(game, match.header)
        for ev in match.events:
            replay.submit(ev)
            whole, seats = views_of(game, replay)
            seen = [shown(v, tokens) for v in seats]
            public = seen[0].copy()
            for c in seen[1:]:
                public &= c
            for s, (view, c) in enumerate(zip(seats, seen, strict=True), 1):
                private = c - public
                own = shown(view, tokens, f"p{s}")
                assert not private - own, (
                    f"{name}: p{s} sees {sorted((private - own).elements())} that are neither "
                    f"its own nor shown to all, after {game.notate(ev)}")
                assert not c - shown(whole, tokens), "a seat sees a card the whole view lacks"
                hides = hides or view != whole
    if physical_logs_hide_cards(game):
        assert hides, f"{name} hides cards at a real table, yet every seat sees everything"


NOT_CARDS = {"seat", "row", "months", "draws"}  # fields of a public chance event that hold no card


def carried(game: Game, ev: Event) -> Counter[str]:
    """The card tokens an event's fields carry (numbers in fields that hold cards; an unknown
    card, as a real table may type, is none)."""
    cards = {c: game.deck.token(c) for c in game.deck.cards()}

    def walk_value(value: Any) -> Iterator[str]:
        if isinstance(value, int) and not isinstance(value, bool) and value in cards:
            yield cards[value]
        elif isinstance(value, list):
            for v in value:
                yield from walk_value(v)

    return Counter(t for name in ev.__struct_fields__ if name not in NOT_CARDS
                   for t in walk_value(getattr(ev, name)))


@pytest.mark.parametrize("name", NAMES)
def test_a_chance_event_shown_to_every_seat_carries_no_card_a_seat_does_not_see(
        name: str) -> None:
    """A game's ``public_chance`` events (a showdown, a reveal, a race's draws) are shown whole
    in every seat's replay (:meth:`Game.hidden_from`), so each card they carry must be one
    that every seat's view shows right after them; over the bot matches and the recorded
    games (real tables type a Show)."""
    game = games.get(name)
    tokens = card_tokens(game)
    logs = [(m.header, m.events) for m in findings(name).matches]
    logs += [(d.header, d.events) for d in (read_log(p, games.event_types)
                                            for p in recorded(name))]
    seen = 0
    for header, events in logs:
        replay = Match(game, header)
        for ev in events:
            replay.submit(ev)
            if ev.KIND != "chance" or any(game.hidden_from(ev, s)
                                          for s in range(1, replay.nseats + 1)):
                continue
            seen += 1
            cards = carried(game, ev)
            for s in range(1, replay.nseats + 1):
                missing = cards - shown(game.view(replay.state, s), tokens)
                assert not missing, (f"{name}: {game.notate(ev)} is shown to p{s}, whose view "
                                     f"lacks {sorted(missing.elements())}")
    assert seen or not game.public_chance, f"{name}: no public chance event was played"


PUBLIC = [name for name in NAMES if games.get(name).public_chance]


@pytest.mark.parametrize("name", PUBLIC)
def test_a_showdown_reveal_turn_or_race_is_shown_whole_in_a_seat_replay(name: str) -> None:
    """Chance events that show everyone what they carry (the game's ``public_chance``: Dare's
    showdown, Yatchaba's reveal, Kabu-Tsukuri's rows turned over, a race's reaction draws)
    are not hidden from a seat: ``replay --as p1 --json`` of a recorded game gives them whole,
    as the text replay words them; deals, shuffles and reshuffles stay hidden. Every
    registered game with such events is taken, and one of its recorded games must hold one."""
    game = games.get(name)
    public = game.public_chance
    for path in recorded(name):
        data = read_log(path, games.event_types)
        if any(type(e) in public for e in data.events):
            break
    else:
        tags = ", ".join(type_tag(t) for t in public)
        pytest.fail(f"no recorded {name} game has a {tags} event")
    res = runner.invoke(app, ["replay", str(path), "--as", "p1", "--json"], env=ENV)
    assert res.exit_code == 0, res.stdout + res.stderr
    steps = json.loads(res.stdout)["steps"]
    for step, ev in zip(steps, data.events, strict=True):
        if type(ev) in public:
            assert step["event"] == to_builtins(ev) and step["notation"] == game.notate(ev)
        elif type_tag(type(ev)) in ("deal", "shuffle", "reshuffle"):
            assert (step["notation"], step["event"]) == ("hidden", None)


def physical_logs_hide_cards(game: Game) -> bool:
    """Whether a recorded game at a real table shows a card as '??' (unknown to the log)."""
    for path in recorded(game.name):
        data = read_log(path, games.event_types)
        if data.header.mode != "physical":
            continue
        match = Match(game, data.header)
        for ev in data.events:
            match.submit(ev)
            if "??" in json.dumps(game.view(match.state)):
                return True
    return False


# -- recorded games ------------------------------------------------------------------------------

def recorded(name: str) -> list[Path]:
    folder = REPLAYS / name
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.suffix in (".kbl", ".jsonl"))


RECORDED = [pytest.param(name, path, id=f"{name}/{path.name}")
            for name in NAMES for path in recorded(name)]


VIEWED = [pytest.param(name, path, seat, id=f"{name}/{path.name}/p{seat}")
          for name in NAMES for path in recorded(name)
          for seat in range(1, len(read_log(path, games.event_types).header.seats) + 1)]


@pytest.mark.parametrize(("name", "path", "seat"), VIEWED)
def test_a_replay_as_a_seat_holds_no_event_the_game_hides_from_it(
        name: str, path: Path, seat: int) -> None:
    """``replay --as pN --json`` of each recorded game: every event the game says is hidden
    from the seat (:meth:`Game.hidden_from`: chance events, another seat's secret move) is
    left out, its notation "hidden"; every other event is shown whole."""
    game = games.get(name)
    data = read_log(path, games.event_types)
    res = runner.invoke(app, ["replay", str(path), "--as", f"p{seat}", "--json"], env=ENV)
    assert res.exit_code == 0, res.stdout + res.stderr
    steps = json.loads(res.stdout)["steps"]
    assert len(steps) == len(data.events)
    for step, ev in zip(steps, data.events, strict=True):
        if game.hidden_from(ev, seat):
            assert (step["notation"], step["event"]) == ("hidden", None), step["index"]
            assert game.notate(ev) not in res.stdout or not notation_hides(game, ev)
        else:
            assert step["notation"] == game.notate(ev), step["index"]
            assert step["event"] == to_builtins(ev), step["index"]


SECRET_SEED = 918273645546372  # 15 digits: found in a replay's output only if it is shown


@pytest.fixture(scope="module")
def committed_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A finished log of each game, seeded with SECRET_SEED and committed (``--commit``):
    its header holds the seed, the commitment and the salt."""
    folder = tmp_path_factory.mktemp("committed")
    out = {}
    for name in NAMES:
        log = folder / f"{name}.kbl"
        res = runner.invoke(app, ["play", name, "-s", str(SECRET_SEED), "-b", "all=random",
                                  "--commit", "--log", str(log), "-q"], env=ENV)
        assert res.exit_code == 0, res.stdout + res.stderr
        out[name] = log
    return out


@pytest.mark.parametrize("name", NAMES)
def test_a_seat_view_never_shows_the_seed_nor_the_salt_that_gives_it_away(
        name: str, committed_logs: dict[str, Path], tmp_path: Path) -> None:
    """The shuffle is public and fixed, so a seed gives every card away (``kabucli deal``),
    and the salt with the commitment lets anyone search the seeds for it: ``replay --as
    pN`` (text, ``--step``, ``--json``, ``--html``) shows neither, and says the seed is
    hidden; the commitment stays. The whole replay still shows the seed (D3, U7)."""
    log = committed_logs[name]
    header = read_log(log, games.event_types).header
    assert header.seed == SECRET_SEED and header.salt is not None and header.commit is not None
    secrets = (str(SECRET_SEED), header.salt)
    for seat in range(1, len(header.seats) + 1):
        viewer = f"p{seat}"
        text = runner.invoke(app, ["replay", str(log), "--as", viewer], env=ENV)
        stepped = runner.invoke(app, ["replay", str(log), "--as", viewer, "--step"],
                                input="q\n", env=ENV)
        at = runner.invoke(app, ["replay", str(log), "--as", viewer, "--at", "1"], env=ENV)
        for res in (text, stepped, at):
            assert res.exit_code == 0, res.stdout + res.stderr
            assert f"hidden from {viewer}" in res.stdout
            assert header.commit in res.stdout  # docs/log-format.md: the commitment stays
            assert not [s for s in secrets if s in res.stdout], f"{name} {viewer}"
        for more in ([], ["--at", "1"]):
            res = runner.invoke(app, ["replay", str(log), "--as", viewer, "--json", *more],
                                env=ENV)
            assert res.exit_code == 0, res.stdout + res.stderr
            doc = json.loads(res.stdout)
            assert (doc["viewer"], doc["hidden"]) == (viewer, ["seed", "salt"])
            assert doc["header"] == {**to_builtins(header), "seed": None, "salt": None}
            assert not [s for s in secrets if s in res.stdout], f"{name} {viewer} {more}"
        page = tmp_path / f"{viewer}.html"
        res = runner.invoke(app, ["replay", str(log), "--as", viewer, "--html", str(page)],
                            env=ENV)
        assert res.exit_code == 0, res.stdout + res.stderr
        html = page.read_text(encoding="utf-8")
        assert f"seed hidden from {viewer}" in html
        assert header.commit in html
        assert not [s for s in secrets if s in html], f"{name} {viewer} --html"
    # the whole replay (the referee's, and an audit's) shows the seed as before
    whole = runner.invoke(app, ["replay", str(log)], env=ENV)
    assert f"seed     {SECRET_SEED} (blake2b-fy-v1)" in whole.stdout
    assert f"commit   {header.commit}" in whole.stdout
    doc = json.loads(runner.invoke(app, ["replay", str(log), "--json"], env=ENV).stdout)
    assert doc["header"] == to_builtins(header) and "hidden" not in doc


@pytest.mark.parametrize("name", NAMES)
def test_a_page_of_every_view_gives_the_seed_to_the_referee_view_only(
        name: str, committed_logs: dict[str, Path]) -> None:
    """``replay --html`` without ``--as``: the seed is in the referee's view ("everyone"),
    and each seat's view says it is hidden (the page holds the referee's view and every card
    all the same: it is not a page to give a player, README says; ``--as`` is)."""
    from kabucli.render.html import page_data

    game = games.get(name)
    data = read_log(committed_logs[name], games.event_types)
    info = page_data(game, data, "x", None)
    seeds = {v["key"]: v["seed"] for v in info["views"]}
    assert seeds == {"all": f"seed {SECRET_SEED}",
                     **{f"p{s}": f"seed hidden from p{s}"
                        for s in range(1, len(data.header.seats) + 1)}}
    assert "seed" not in info


def notation_hides(game: Game, ev: Event) -> bool:
    """Whether an event's notation says more than its kind (so that finding it elsewhere in
    the replay would show it): ``deal`` alone at a real table does not."""
    return game.notate(ev) != type_tag(type(ev))


@pytest.mark.parametrize(("name", "path"), RECORDED)
def test_every_event_of_a_recorded_game_parses_back_from_its_notation(
        name: str, path: Path) -> None:
    data = read_log(path, games.event_types)
    assert_notation_round_trips(games.get(name), data.header, data.events)


@pytest.mark.parametrize("name", NAMES)
def test_every_line_is_read_in_any_case(name: str) -> None:
    """A line's verb, seats and cards were read in any case but some of its own words were
    not: 'Result round 3 Showdown p2 deals p2' (Dare), 'penalty p2 DRAWS 2 declined' (Uno
    Dare), 'stakes row 1 1 EACH' (Kabu-Tsukuri), 'NOBODY' (Kazu-Tori) were refused, and 'PAY
    P2 POT 1 ANTE' and 'END ROUNDS ...' were read as a payment 'ANTE' and an end 'ROUNDS',
    which no engine makes. Every event of the game's recorded games and bot matches, its
    notation in upper case and in title case, reads as the same event."""
    game = games.get(name)
    logs = [(data.header, data.events)
            for data in (read_log(p, games.event_types) for p in recorded(name))]
    logs += [(m.header, m.events) for m in findings(name).matches]
    read = 0
    for header, events in logs:
        match = Match(game, header)
        for i, ev in enumerate(events, 1):
            text = game.notate(ev)
            for form in (text.upper(), text.title()):
                assert game.parse(match.state, form) == ev, f"event {i}: {form!r}"
                read += 1
            match.submit(ev)
    assert read > 200


def full_width(text: str) -> str:
    """``text`` as a Japanese input method in its full-width mode types it: every printable
    ASCII character as its full-width form (U+FF01-U+FF5E), a space as the ideographic
    space (U+3000)."""
    return "".join("\u3000" if c == " " else chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c
                   for c in text)


@pytest.mark.parametrize("name", NAMES)
def test_every_line_is_read_typed_in_full_width_or_with_a_long_vowel_mark_for_a_dash(
        name: str) -> None:
    """A Japanese input method types 'ｐ１　ｓｅｔｓ　４－６－８' for 'p1 sets 4-6-8', or the long
    vowel mark 'ー' where '-' was meant ('4ー6ー8'): each was refused ("'ｐ１' is not a
    card"). Every event of the game's recorded games and bot matches, its notation typed in
    full width and with 'ー' for each '-', reads as the same event once folded as the table
    folds a typed line (typed_form)."""
    game = games.get(name)
    logs = [(data.header, data.events)
            for data in (read_log(p, games.event_types) for p in recorded(name))]
    logs += [(m.header, m.events) for m in findings(name).matches]
    read = dashes = 0
    for header, events in logs:
        match = Match(game, header)
        for i, ev in enumerate(events, 1):
            text = game.notate(ev)
            forms = [full_width(text)]
            if re.search("[0-9A-Za-z]-[0-9A-Za-z]", text):
                forms.append(text.replace("-", "\u30fc"))
                dashes += 1
            for form in forms:
                assert form != text
                assert game.parse(match.state, typed_form(form)) == ev, f"event {i}: {form!r}"
                read += 1
            match.submit(ev)
    assert read > 200
    assert (dashes > 0) == (name != "yatchaba"), dashes  # (no Yatchaba move lists cards)


def cut_point(game: Game, data: Any) -> int:
    """Where to cut a recorded game to resume it: the middle input (an action, or at a real
    table a chance event the referee typed) that is not taken back by an undo later."""
    match = Match(game, data.header)
    inputs = [i for i, e in enumerate(data.events)
              if match.is_input(e) and i + 1 < len(data.events)
              and type_tag(type(data.events[i + 1])) != "undo"]
    return inputs[len(inputs) // 2]


def script_after(game: Game, data: Any, cut: int) -> str:
    """The lines typed at the prompt after ``cut``: every input of a seat that is a person
    (at a real table the referee's chance events too), and the undos."""
    humans = {i for i, s in enumerate(data.header.seats, 1) if s.control == "human"}
    match = Match(game, data.header)
    lines = [game.notate(ev) for ev in data.events[cut:]
             if type_tag(type(ev)) == "undo" or (match.is_input(ev)
             and (ev.KIND != "action" or getattr(ev, "seat", None) in humans))]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("name", "path"), RECORDED)
def test_a_recorded_game_cut_in_the_middle_resumes_to_its_end(
        name: str, path: Path, tmp_path: Path) -> None:
    """``kabucli resume`` goes on from the middle of each recorded game: the people's moves
    of the rest are typed from a script, the bots play on. With no bot at the table the
    game ends exactly as recorded; else it ends as its bots now play it, and audits clean."""
    game = games.get(name)
    data = read_log(path, games.event_types)
    cut = cut_point(game, data)
    copy = tmp_path / f"cut{path.suffix}"
    write_log(copy, data.header, data.events[:cut], data.fmt)
    script = tmp_path / "moves.txt"
    script.write_text(script_after(game, data, cut))
    res = runner.invoke(app, ["resume", str(copy), "--script", str(script), "--quiet"],
                        env=ENV)
    assert res.exit_code == 0, res.stdout + res.stderr
    resumed = read_log(copy, games.event_types)
    assert resumed.events[:cut] == data.events[:cut]
    if not any(s.control.startswith("bot:") for s in data.header.seats):
        assert resumed.events == data.events
    match, violation = walk(game, resumed.header, resumed.events)
    assert violation is None and match.over
    audit = runner.invoke(app, ["audit", str(copy)], env=ENV)
    assert audit.exit_code == 0 and re.match(r"valid: ", audit.stdout), audit.stderr



# -- a line typed at a real table --------------------------------------------------------

TABLE_NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")


@pytest.mark.parametrize("name", NAMES)
def test_a_line_that_starts_with_a_move_word_is_never_taken_for_a_name(name: str) -> None:
    """At a real table whose players have names, a line that starts with one of the game's
    move words (each spelling its parser, ``Game.verbs``, reads) or a table command is
    refused, when it is, for the move it is: never also told that its first word is no
    seat or player's name, as a word in a seat's place is."""
    from kabucli.errors import ParseError
    from kabucli.log import SeatInfo
    from kabucli.session import COMMANDS, start

    game = games.get(name)
    seats = [SeatInfo(who, "human") for who in TABLE_NAMES[:game.default_players]]
    sess = start(game, game.Rules(), seats, None, None, None)
    sess.match.advance()
    words = sorted({w for w in game.verbs.handlers if w.isalpha()} | game.verbs.seatless
                   | set(COMMANDS))
    tails = []  # what reads as p1's move after the seat: after a name nobody has, said so
    for word in sorted(game.verbs.handlers):
        with suppress(ParseError):
            game.parse(sess.match.state, f"p1 {word}")
            tails.append(word)
    assert tails, name
    with pytest.raises(ParseError, match="nor is 'Zed' a seat or a player's name"):
        sess.parse_line(f"Zed {tails[0]}")  # (the check this test relies on)
    for word in words:
        assert game.verbs.reads(word) or word in COMMANDS
        for tail in tails:
            try:
                sess.parse_line(f"{word} {tail}")
            except ParseError as exc:
                assert "player's name" not in str(exc), (word, tail, str(exc))

PHYSICAL = [param for param in RECORDED
            if read_log(param.values[1], games.event_types).header.mode == "physical"]


@pytest.mark.parametrize(("name", "path"), PHYSICAL)
def test_at_a_recorded_real_table_tab_offers_the_move_typed_where_none_is_listed(
        name: str, path: Path) -> None:
    """Wherever a recorded real table waited for a move the program could not list (a deal,
    a showdown, a turn with unknown hands), Tab offered how the move the referee typed
    begins (:meth:`Game.move_words`, ``deal``, ``p2 sets``), each beginning with one of the
    game's verbs; it offered the prompt's commands alone there."""
    game = games.get(name)
    data = read_log(path, games.event_types)
    sess = Session(Match(game, data.header), {}, None,
                   set(range(1, len(data.header.seats) + 1)))
    unlisted = 0
    for ev in data.events:
        if ev.KIND in ("action", "chance") and not sess.legal_texts(people_only=True):
            unlisted += 1
            forms = MoveCompleter(sess).forms()
            text = game.notate(ev)
            assert any(text == f or text.startswith(f.rstrip() + " ") for f in forms), (text, forms)
            for start in game.move_words(sess.match.state):
                _, verb = split_seat(start, len(data.header.seats))
                assert game.verbs.reads(verb.split()[0].lower()), start
        sess.match.submit(ev)
    assert unlisted  # (a real table's deal, at least)


def test_every_registered_game_has_recorded_games() -> None:
    """Counted in test_replays.py (six each); here: none is missed by this suite."""
    assert all(recorded(name) for name in NAMES)
    assert {p.values[0] for p in RECORDED} == set(NAMES)

