"""The speed-ups of the bot hot path answer exactly what the plain code answers: Dare's packed
``legal_lays`` against enumerating card positions, Dare's cached ``pending`` against a fresh
one, the engine's cached house rules against validating them again, and the moves of trusted
bots (recorded without a second check) against the full check of every move."""

from __future__ import annotations

import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import msgspec
import pytest
from matchtools import bot_match as seeded_bot_match

from kabucli import games
from kabucli.bots import make
from kabucli.bots.external import GuardedBot, ProcessBot, load_python_bot
from kabucli.engine import Match, Pending, _header_rules, make_header, walk
from kabucli.errors import IllegalMove, KabuError
from kabucli.events import Event
from kabucli.games.dare.rules import (
    _PENDINGS,
    GAME,
    DareRules,
    Lay,
    _legal_lays_any,
    legal_lays,
)
from kabucli.log import SeatInfo
from kabucli.session import Session
from kabucli.shuffle import Rng

DECK = GAME.deck.cards()


def brute_force_lays(hand: tuple[int, ...], ref: int) -> set[tuple[tuple[int, ...], ...]]:
    """Every choice of 0-3 disjoint position triples matching ``ref``, as sorted value sets."""
    triples = [t for t in combinations(range(len(hand)), 3)
               if sum(hand[i] for i in t) % 10 == ref]
    out: set[tuple[tuple[int, ...], ...]] = {()}
    for k in (1, 2, 3):
        for choice in combinations(triples, k):
            used = [i for t in choice for i in t]
            if len(set(used)) == len(used):
                out.add(tuple(sorted(tuple(hand[i] for i in t) for t in choice)))
    return out


def test_legal_lays_lists_every_distinct_choice_of_sets_once_in_order() -> None:
    rng = Rng(7, "test/legal-lays")
    for _ in range(300):
        hand = tuple(sorted(rng.shuffled(DECK)[:9]))
        ref = rng.below(10)
        moves = legal_lays(hand, ref)
        assert moves == _legal_lays_any(hand, ref)
        assert set(moves) == brute_force_lays(hand, ref)
        assert list(moves) == sorted(moves, key=lambda m: (len(m), m))


@pytest.mark.parametrize("hand", [
    (),
    (5, 5, 5, 5, 5, 5, 5, 5, 5),  # more copies than a deck holds: the general path
    (9, 1, 3, 5, 5, 7, 2, 2, 6),  # not sorted: the general path keeps the hand's order
    (-1, -1, -1, 2, 3, 5, 5, 7, 8),  # unknown cards
    tuple(range(1, 11)) * 2,  # more cards than any hand
])
def test_legal_lays_of_odd_hands_is_the_general_enumeration(hand: tuple[int, ...]) -> None:
    for ref in (*range(10), 10, -1):
        assert legal_lays(hand, ref) == _legal_lays_any(hand, ref)


def fresh_pending(state: Any) -> Pending:
    """What a Dare state waits for, made afresh: neither kept on the state nor cached."""
    kept, state.pend = state.pend, None
    saved = dict(_PENDINGS)
    _PENDINGS.clear()
    try:
        return GAME.pending(state)
    finally:
        _PENDINGS.update(saved)
        state.pend = kept


def test_cached_pending_equals_a_fresh_pending_at_every_step() -> None:
    steps = 0
    for seed in range(40):
        n = 2 + seed % 3
        rules = DareRules(rounds=3, tie=("carry", "split", "order")[seed % 3])
        kinds = dict.fromkeys(range(1, n + 1), "random")
        match, bots = seeded_bot_match(GAME, rules, kinds, seed)
        while True:
            assert GAME.pending(match.state) == fresh_pending(match.state)
            steps += 1
            if match.advance().kind == "over":
                break
            assert GAME.pending(match.state) == fresh_pending(match.state)
            ev = GAME.bot_event(match, bots)
            assert ev is not None
            match.submit(ev)
        assert walk(GAME, match.header, match.events)[1] is None
    assert steps > 40


def test_cached_house_rules_tell_true_from_one_and_still_refuse_bad_values() -> None:
    assert _header_rules(GAME, {"rounds": 3}) == DareRules(rounds=3)
    assert _header_rules(GAME, {"rounds": 3}) is _header_rules(GAME, {"rounds": 3})
    with pytest.raises(KabuError, match="rounds"):
        _header_rules(GAME, {"rounds": True})  # equal to 1 and hashed alike, yet not an int
    with pytest.raises(KabuError, match="rounds"):
        _header_rules(GAME, {"rounds": 0})
    with pytest.raises(KabuError, match="rounds"):
        _header_rules(GAME, {"rounds": 0})  # refused again: errors are not cached
    with pytest.raises(KabuError):
        _header_rules(GAME, {"rounds": [3]})  # cannot be hashed: validated, and refused
    assert msgspec.structs.asdict(_header_rules(GAME, {}))["rounds"] == 10


# -- trusted bots ----------------------------------------------------------------------------

# Per game: its built-in bot kinds and short house rules, so that many matches stay quick.
TRUSTED_PLAN: dict[str, tuple[tuple[str, str], dict[str, Any]]] = {
    "dare": (("random", "best"), {"rounds": 3}),
    "kazu-tori": (("random", "sharp"), {}),
    "yatchaba": (("random", "smart"), {"games": 2}),
}
TRUSTED_SEEDS = range(30)


def bot_match(name: str, seed: int, wrap_seat: int = 0) -> tuple[Match, dict[int, Any]]:
    """A fresh seeded match of built-in bots (kinds and player count drawn from the seed) and
    its bots; the bot of ``wrap_seat`` is wrapped as a user's Python bot is."""
    game = games.get(name)
    kinds, rules = TRUSTED_PLAN[name]
    n = game.min_players + seed % (game.max_players - game.min_players + 1)
    match, bots = seeded_bot_match(
        game, game.Rules(**rules), {s: kinds[(s + seed) % 2] for s in range(1, n + 1)}, seed)
    if wrap_seat:
        bots[wrap_seat] = GuardedBot(bots[wrap_seat], "test")
    return match, bots


def spy_on_trusted(match: Match) -> list[Event]:
    """Make ``match`` check each move it is told is trusted (the full check a person's move
    gets) before recording it; the list fills with those moves."""
    trusted: list[Event] = []
    match.check_trusted = trusted
    return trusted


@pytest.mark.parametrize("name", sorted(TRUSTED_PLAN))
def test_every_move_of_a_trusted_bot_passes_the_full_check_and_logs_audit_clean(
        name: str) -> None:
    game = games.get(name)
    moves = 0
    for seed in TRUSTED_SEEDS:
        match, bots = bot_match(name, seed)
        trusted = spy_on_trusted(match)
        Session(match, bots).run_bots()
        assert match.over, (name, seed)
        assert walk(game, match.header, match.events)[1] is None, (name, seed)
        actions = [e for e in match.events if e.KIND == "action"]
        assert trusted == actions  # every bot move came through the trusted path
        moves += len(trusted)
    assert moves > 100


@pytest.mark.parametrize("name", sorted(TRUSTED_PLAN))
def test_run_bots_records_the_events_of_checking_every_bot_move(name: str) -> None:
    game = games.get(name)
    for seed in TRUSTED_SEEDS:
        fast, bots = bot_match(name, seed)
        Session(fast, bots).run_bots()
        slow, bots = bot_match(name, seed)
        while slow.advance().kind != "over":
            ev = game.bot_event(slow, bots)
            assert ev is not None
            slow.submit(ev)  # checked by why_not, as every move was before trusted bots
        assert fast.events == slow.events, (name, seed)
        assert fast.logged == slow.logged


@pytest.mark.parametrize("name", sorted(TRUSTED_PLAN))
def test_moves_of_a_wrapped_user_bot_are_checked_in_full_never_trusted(name: str) -> None:
    seen_wrapped = 0
    for seed in TRUSTED_SEEDS[:10]:
        match, bots = bot_match(name, seed, wrap_seat=1)
        trusted = spy_on_trusted(match)
        Session(match, bots).run_bots()
        assert match.over
        assert all(getattr(e, "seat", None) != 1 for e in trusted), (name, seed)
        seen_wrapped += sum(1 for e in match.events
                            if e.KIND == "action" and getattr(e, "seat", None) == 1)
    assert seen_wrapped > 10


def test_a_user_bot_class_that_calls_itself_trusted_is_still_checked(tmp_path: Path) -> None:
    path = tmp_path / "liar.py"
    path.write_text("""
from kabucli.games.dare.rules import Lay

class Liar:
    trusted = True  # a user's class cannot skip the check by saying so
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        return Lay(seat, [[1, 1, 1]])
""")
    assert ProcessBot("true").trusted is False
    seats = [SeatInfo("liar", f"bot:py:{path}:Liar"), SeatInfo("p2", "bot:random")]
    match = Match(GAME, make_header(GAME, DareRules(rounds=1), seats, 5))
    bots = {1: load_python_bot(f"{path}:Liar", Rng(5, "bot/1")),
            2: make("dare", "random", Rng(5, "bot/2"))}
    with pytest.raises(KabuError, match="which is not legal"):
        Session(match, bots).run_bots()


def test_check_trusted_refuses_an_illegal_move_a_bot_called_trusted() -> None:
    match, _ = bot_match("dare", 3)
    match.advance()  # the deal
    seen = spy_on_trusted(match)
    bad = Lay(1, [[1, 1, 1]])  # three aces: the Dare deck holds none of them three times over
    assert match.why_not(bad) is not None
    with pytest.raises(IllegalMove, match=r"a trusted bot.s move .* is not legal"):
        match.accept_trusted(bad)
    assert seen == [] and bad not in match.events



BAD_BOT = """
from collections import Counter

class Bad:  # plays cards its hand does not hold
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        if game.name == "uno-dare":
            return f"p{seat} play R1"
        held = Counter(state.hands[seat])  # Dare: a set of the reference its hand lacks
        for a in range(1, 11):
            for b in range(a, 11):
                c = (state.ref - a - b) % 10 or 10
                if any(n > held[v] for v, n in Counter([a, b, c]).items()):
                    return f"p{seat} {a}-{b}-{c}"
"""


@pytest.mark.parametrize(("game", "bot"), [("dare", 2), ("uno-dare", 1)])
def test_a_user_bots_illegal_move_does_not_show_its_hand_to_the_people_at_the_table(
        tmp_path: Path, game: str, bot: int) -> None:
    """The refusal of cards not held quotes the hand ('p1's hand GR R5 ... does not hold
    R1', Uno Dare's since e939e8a, Dare's before): the game's last line, said to the person at
    a seeded table whose bot made the move, gave them that bot's hidden hand. Bots alone
    (kabucli sim's report, the log's forfeit) keep the reason. (``bot``: the seat that
    plays first.)"""
    path = tmp_path / "bad.py"
    path.write_text(BAD_BOT)
    g = games.get(game)
    person = 3 - bot
    said = []
    for humans in (set(), {person}):
        seats = [SeatInfo("bad", f"bot:py:{path}:Bad")]
        seats.insert(person - 1, SeatInfo("Ann", "human" if humans else "bot:random"))
        match = Match(g, make_header(g, g.Rules(), seats, 3))
        bots: dict[int, Any] = {bot: load_python_bot(f"{path}:Bad", Rng(3, f"bot/{bot}"))}
        if not humans:
            bots[person] = make(game, "random", Rng(3, f"bot/{person}"))
        with pytest.raises(KabuError) as err:
            Session(match, bots, None, humans).run_bots()
        said.append(str(err.value))
    alone, at_table = said
    assert alone.startswith(f"bot p{bot} played '") and f"p{bot}'s hand " in alone, alone
    assert at_table.startswith(f"bot p{bot} played '"), at_table
    assert at_table.endswith(f"', which is not legal (why is not shown: it may name p{bot}'s "
                             "cards, which the people at the table do not see)"), at_table


SECRET_ROWS_BOT = """
class Bad:  # lays rows of cards its hand does not hold (ten 1s: the deck has four)
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        return f"p{seat} rows 1-1-1 1-1-1 1-1-1 aside 1"
"""


def kabu_bot_failing(spec: str) -> tuple[str, str, Match]:
    """A seeded Kabu-Tsukuri game (seed 3) of a user's Python bot ``spec`` at p2 that fails
    at its first move: the game's last line between bots alone (a random bot at p1) and with
    a person at p1 (Ann), and the match with the person."""
    g = games.get("kabu-tsukuri")
    said = []
    for humans in (set(), {1}):
        seats = [SeatInfo("Ann", "human" if humans else "bot:random"),
                 SeatInfo("bad", f"bot:py:{spec}")]
        match = Match(g, make_header(g, g.Rules(), seats, 3))
        bots: dict[int, Any] = {2: load_python_bot(spec, Rng(3, "bot/2"))}
        if not humans:
            bots[1] = make("kabu-tsukuri", "random", Rng(3, "bot/1"))
        with pytest.raises(KabuError) as err:
            Session(match, bots, None, humans).run_bots()
        said.append(str(err.value))
    return said[0], said[1], match


def test_a_bots_illegal_secret_move_is_not_quoted_to_the_people_at_the_table(
        tmp_path: Path) -> None:
    """Kabu-Tsukuri's arrangement is secret to every seat but its own: a user bot's illegal
    one, refused at a seeded table with a person, is not quoted to them (they would read the
    rows it laid); bots alone (kabucli sim) keep the move quoted. (Probe EN: a mutant that
    quoted the hidden move survived.)"""
    path = tmp_path / "bad.py"
    path.write_text(SECRET_ROWS_BOT)
    alone, at_table, _ = kabu_bot_failing(f"{path}:Bad")
    assert alone.startswith("bot p2 played 'p2 rows 1-1-1 1-1-1"), alone
    assert at_table.startswith("bot p2 played a move hidden from the people at the table, "
                               "which is not legal"), at_table
    assert "1-1-1" not in at_table, at_table


UNREAD_ROWS_BOT = """
class Bad:  # answers the rows of its own hand with a word too many
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        h = sorted(state.cards[seat])
        return (f"p{seat} rows {h[0]}-{h[1]}-{h[2]} {h[3]}-{h[4]}-{h[5]} "
                f"{h[6]}-{h[7]}-{h[8]} aside {h[9]} extra")

class Raising:  # fails with its hand in its error's words
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        raise ValueError(f"my hand {sorted(state.cards[seat])}")
"""


@pytest.mark.parametrize(("cls", "alone_says", "at_table_says"), [
    ("Bad", "answered 'p2 rows ", "bot p2 answered a line that is not a move of its turn"),
    ("Raising", "failed: ValueError: my hand [", "bot p2 ('BOT') failed: ValueError"),
])
def test_what_a_failing_user_bot_wrote_is_not_shown_to_the_people_at_the_table(
        tmp_path: Path, cls: str, alone_says: str, at_table_says: str) -> None:
    """A user bot's answer that is no move ('p2 rows 1-4-4 5-6-7 9-11-12 aside 12 extra': its
    whole hand), or its error's words, ended a seeded game with a person at the table by
    quoting them (probe EN): what the bot wrote is left out for the people there, as an
    illegal move's reason is; bots alone keep it."""
    path = tmp_path / "bad.py"
    path.write_text(UNREAD_ROWS_BOT)
    spec = f"{path}:{cls}"
    alone, at_table, match = kabu_bot_failing(spec)
    alone, at_table = alone.replace(spec, "BOT"), at_table.replace(spec, "BOT")
    hand = " ".join(str(c) for c in sorted(match.state.cards[2]))
    assert alone_says in alone, alone
    assert at_table == (f"{at_table_says} (what it wrote is not shown: it may name cards the "
                        "people at the table do not see)"), at_table
    assert hand not in at_table.replace(",", "")


def test_a_bot_programs_stderr_line_is_not_shown_to_the_people_at_the_table(
        tmp_path: Path) -> None:
    """A bot program that exits without answering is said with its last line on stderr, where
    debugging goes, and where a bot may write its hand: not to the people at a seeded table
    (the game's last line, 'exited (code 3) without answering'), as kabucli sim says it."""
    bot = tmp_path / "bot.py"
    bot.write_text("import sys\nsys.stdin.readline()\n"
                   "print('my hand: secret cards', file=sys.stderr)\nsys.exit(3)\n")
    command = f"{sys.executable} {bot}"
    g = games.get("dare")
    said = []
    for humans in (set(), {1}):  # (p2 plays first)
        seats = [SeatInfo("Ann", "human" if humans else "bot:random"),
                 SeatInfo("bad", f"bot:cmd:{command}")]
        match = Match(g, make_header(g, g.Rules(), seats, 3))
        bots: dict[int, Any] = {2: ProcessBot(command, 5.0)}
        if not humans:
            bots[1] = make("dare", "random", Rng(3, "bot/1"))
        with pytest.raises(KabuError) as err:
            Session(match, bots, None, humans).run_bots()
        bots[2].close()
        said.append(str(err.value))
    alone, at_table = said
    assert "exited (code 3) without answering; its last line on stderr: 'my hand" in alone
    assert at_table == (f"bot p2 ('{command}') exited (code 3) without answering (what it "
                        "wrote is not shown: it may name cards the people at the table do "
                        "not see)"), at_table


DYING_BOT = """
import os, sys
class Dies:  # writes its hand to stderr, as a bot's debugging may, and its process ends
    def __init__(self, rng):
        pass
    def choose(self, game, state, seat):
        print(f"my hand {sorted(state.cards[seat])}", file=sys.stderr, flush=True)
        os._exit(3)
"""


def test_a_python_bots_last_stderr_line_is_not_shown_to_the_people_at_the_table(
        tmp_path: Path) -> None:
    """A Python bot runs in a host process of kabucli's: the host's end, said with the bot's
    last line on stderr between bots (kabucli play, bots alone), is said without it to a
    person at the table (their game's last line)."""
    from typer.testing import CliRunner

    from kabucli.cli import app

    (tmp_path / "dies.py").write_text(DYING_BOT)
    spec = f"py:{tmp_path / 'dies.py'}:Dies"
    base = ["play", "kabu-tsukuri", "--bot", f"2={spec}", "--seed", "3", "--no-log"]
    alone = CliRunner().invoke(app, [*base, "--bot", "1=random"], env={"NO_COLOR": "1"})
    assert alone.exit_code == 1 and "its last line on stderr: 'my hand [" in alone.output
    person = CliRunner().invoke(app, base, input="quit\n", env={"NO_COLOR": "1"})
    last = person.output.strip().splitlines()[-1]
    assert person.exit_code == 1 and "my hand" not in person.output, person.output
    assert last.endswith("exited (code 3) without answering (what it wrote is not shown: it "
                         "may name cards the people at the table do not see)"), last
