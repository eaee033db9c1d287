"""Fuzzing typed input: seeded random lines, made of each game's notation, huge numbers, digits
that are not ASCII, control characters, other scripts and very long lines, are each accepted or
refused cleanly: by the library (a KabuError, nothing else) and at the command line (one clean
line on stderr, exit 0 or 1, no internal error, no escape sequence). The same lines answered by
a program bot are a move of its own seat or a BotError.

The run is seeded and bounded (a few seconds). ``pytest -s`` prints cases tried / accepted /
clean refusals / crashes; ``python tests/test_fuzz_typed.py [CASES] [SEED]`` runs more cases
and prints the same report.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

import pytest
from fuzztools import NUMBERS, WEIRD, Stats
from typer.testing import CliRunner

from kabucli import bots, games
from kabucli.bots.external import parse_answer
from kabucli.cli import app
from kabucli.errors import BotError, KabuError
from kabucli.log import SeatInfo
from kabucli.notation import MAX_LINE, typed_form
from kabucli.session import COMMANDS, Session, start
from kabucli.shuffle import Rng

runner = CliRunner()
GAMES = games.names()
SEED = 20261124
SESSION_CASES = 1500  # lines typed into sessions, per game
CLI_CASES = 25  # `kabucli play` runs, per game (each one a script line or interactive lines)

# Aliases the parsers accept that a bot game's notation may not show.
VERBS = ["deal", "field", "result", "show", "shows", "pass", "none", "-", "sets", "set", "lay",
         "shuffle", "race", "penalty", "handout", "return", "score", "claim", "take", "slap",
         "go", "stop", "agree", "flip", "gives", "jizo", "cards", "removed", "nobody", "wins",
         "reveal", "turn", "guess", "g", "bet", "b", "continue", "cont", "c", "more", "s", "p",
         "winner", "carry", "deals", "next", "right", "wrong", "game", "round", "pay", "end",
         "undo", "pot", "|", "??", "jan", "aug", "december", "=", "/", ","]
def vocabulary(game: str) -> list[str]:
    """Every word of the notation a whole bot game of ``game`` shows, with the verbs, cards,
    seats and table commands a person may type."""
    g = games.get(game)
    kind = next(iter(bots.kinds(game)))
    seats = [SeatInfo(f"b{i}", f"bot:{kind}") for i in range(1, g.max_players + 1)]
    sess = start(g, g.Rules(), seats, SEED, None, None)
    sess.run_bots()
    words = {w for ev in sess.match.events for w in g.notate(ev).split()}
    words |= set(g.deck.tokens.values()) | set(COMMANDS) | set(games.commands(game, False))
    words |= {f"p{i}" for i in range(7)} | {"?", "t", "h", "q", "legal", "moves", "exit"}
    return sorted(words) + VERBS


def notation_lines(game: str) -> list[str]:
    """Real lines: the notation of every event of a bot game and some legal moves."""
    g = games.get(game)
    kind = next(iter(bots.kinds(game)))
    seats = [SeatInfo(f"b{i}", f"bot:{kind}") for i in range(1, g.default_players + 1)]
    sess = start(g, g.Rules(), seats, SEED + 1, None, None)
    sess.run_bots()
    return [g.notate(ev) for ev in sess.match.events]


def fuzz_line(rnd: random.Random, words: list[str], real: list[str]) -> str:
    """One random line: a real line mutated, a run of words, or a very long line."""
    kind = rnd.random()
    if kind < 0.45:
        toks = rnd.choice(real).split()
        for _ in range(rnd.randint(1, 3)):
            pool = rnd.choice((words, NUMBERS, WEIRD))
            at = rnd.randrange(len(toks) + 1)
            op = rnd.random()
            if op < 0.4 and toks:
                toks[min(at, len(toks) - 1)] = rnd.choice(pool)
            elif op < 0.7:
                toks.insert(at, rnd.choice(pool))
            elif op < 0.85 and toks:
                del toks[min(at, len(toks) - 1)]
            elif toks:  # a word glued to another (p2claim, 1-3-9², pN=...)
                i = min(at, len(toks) - 1)
                toks[i] = toks[i] + rnd.choice(("", "-", "=", "/", ",")) + rnd.choice(pool)
        return " ".join(toks)
    if kind < 0.9:
        pools = (words, words, NUMBERS, WEIRD)
        return " ".join(rnd.choice(rnd.choice(pools)) for _ in range(rnd.randint(1, 8)))
    word = rnd.choice(words + NUMBERS)
    return " ".join([rnd.choice(words)] + [word] * rnd.randint(200, 20_000))


def fresh(game: str, rnd: random.Random) -> Session:
    """A game with a person in p1 and bots elsewhere: seeded, or at a real table (all people,
    where every chance event is typed too)."""
    g = games.get(game)
    if rnd.random() < 0.3:
        seats = [SeatInfo(f"p{i}") for i in range(1, g.default_players + 1)]
        sess = start(g, g.Rules(), seats, None, None, None)
    else:
        kind = rnd.choice(list(bots.kinds(game)))
        seats = [SeatInfo("Ann")] + [SeatInfo(f"b{i}", f"bot:{kind}")
                                     for i in range(2, g.default_players + 1)]
        sess = start(g, g.Rules(), seats, rnd.randrange(2**64), None, None)
    sess.run_bots()
    return sess


def type_line(sess: Session, line: str) -> None:
    """What the play loop does with a typed line: a game's own command first, then the move,
    then the bots' turns."""
    if len(line) <= MAX_LINE:  # (folded as the play loop folds it)
        line = typed_form(line)
    if games.command(sess.game.name, sess.match.state, line) is None:
        sess.submit_line(line)
        sess.run_bots()


def a_bots_move(sess: Session, rnd: random.Random) -> list[str]:
    """A built-in bot's move for the seat the match waits for, typed: the legal move the
    fuzzer plays where the game lists none (Kabu-Tsukuri's rows: too many to list), so that
    play moves on there too."""
    pending = sess.match.pending
    if pending.kind != "action" or not pending.seats or sess.match.over:
        return []
    game = sess.game
    bot = bots.make(game.name, next(iter(bots.kinds(game.name))), Rng(rnd.randrange(2**64)))
    try:
        return [game.notate(bot.choose(game, sess.match.state, pending.seats[0]))]
    except KabuError:  # (a real table's state: hands the bot cannot see yet)
        return []


def fuzz_session(game: str, cases: int, seed: int = SEED,
                 step: Callable[[Session, str], None] = type_line) -> Stats:
    """Type ``cases`` random lines into sessions of ``game`` as the play loop does (a game's
    own command first, then the move), starting a new game whenever one ends and every 100
    lines. One line in five is a legal move as it is, so that play moves on."""
    rnd = random.Random(f"{seed}/{game}")
    words, real = vocabulary(game), notation_lines(game)
    stats = Stats()
    sess = fresh(game, rnd)
    for i in range(cases):
        if sess.match.over or i % 100 == 99:
            sess = fresh(game, rnd)
        legal = sess.legal_texts() or a_bots_move(sess, rnd)
        if legal and rnd.random() < 0.2:
            line = rnd.choice(legal)
        else:
            line = fuzz_line(rnd, words, real + legal)
        stats.tried += 1
        try:
            step(sess, line)
            stats.accepted += 1
        except KabuError:
            stats.refused += 1
        except Exception as exc:  # anything else is a crash: an internal error at the prompt
            stats.crashes.append((line, f"{type(exc).__name__}: {exc}"[:300]))
    return stats


def run_cli(game: str, lines: list[str], script: bool, seed: int) -> tuple[str | None, bool]:
    """Play ``lines`` (a script, or typed at the prompt); the reason the output is not clean
    (None if it is) and whether the run refused a line."""
    args = ["play", game, "--seed", str(seed), "--bot", "2=random", "--bot", "3=random",
            "--no-log"] + (["--script", "-"] if script else [])
    # a lone surrogate goes in as the bytes it would be: not UTF-8, as a broken file may hold
    text = "".join(f"{line}\n" for line in lines).encode("utf-8", "surrogatepass")
    res = runner.invoke(app, args, input=text, env={"NO_COLOR": "1", "COLUMNS": "100"})
    out = res.output
    errors = res.stderr.strip().splitlines()
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        return f"{type(res.exception).__name__}: {res.exception}", False
    if "internal error" in out or "Traceback" in out:
        return next(x for x in errors if "internal error" in x or "Traceback" in x), False
    if "\x1b" in out:
        return "an escape sequence reached the output", False
    if res.exit_code not in (0, 1, 2):  # 2: input that is not text
        return f"exit code {res.exit_code}", False
    if len(errors) != 1:  # the one line that ends the run: an error, or why play stopped
        return f"{len(errors)} lines on stderr", False
    if len(errors[0]) > 12_000:  # it quotes at most MAX_LINE characters, each as an escape
        return f"an error line of {len(errors[0])} characters", False
    return None, res.exit_code == 1 or "refused:" in out


def fuzz_cli(game: str, cases: int, seed: int = SEED) -> Stats:
    """Run ``kabucli play`` ``cases`` times: a one-line script, or three lines typed at the
    prompt."""
    rnd = random.Random(f"{seed}/cli/{game}")
    words, real = vocabulary(game), notation_lines(game)
    stats = Stats()
    for i in range(cases):
        script = i % 3 != 2
        lines = [fuzz_line(rnd, words, real) for _ in range(1 if script else 3)]
        why, refused = run_cli(game, lines, script, rnd.randrange(1000))
        stats.count(" / ".join(lines), why, refused)
    return stats


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_typed_lines_are_accepted_or_refused_cleanly(game: str) -> None:
    stats = fuzz_session(game, SESSION_CASES)
    print(stats.line(f"{game} session"))
    assert stats.tried == SESSION_CASES and stats.refused > stats.tried // 2
    assert not stats.crashes, stats.report()


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_play_input_gives_one_clean_line(game: str) -> None:
    stats = fuzz_cli(game, CLI_CASES)
    print(stats.line(f"{game} kabucli play"))
    assert stats.tried == CLI_CASES and stats.refused > 0
    assert not stats.crashes, stats.report()


def answering_as_a_bot(parsed: list[str]) -> Callable[[Session, str], None]:
    """A fuzzer's step: the line read as a program bot's answer for a seat the match waits
    for (or p1), as kabucli reads one (stripped; kabucli.bots.external.parse_answer): a move
    of that seat (added to ``parsed``) or a BotError, nothing else; then typed as a
    person's line, so that play moves on."""

    def step(sess: Session, line: str) -> None:
        pending = sess.match.pending
        seats = list(pending.seats) if pending.kind == "action" and pending.seats else [1]
        seat = seats[len(line) % len(seats)]
        try:
            ev = parse_answer(sess.game, sess.match.state, seat, line.strip())
        except BotError:
            pass
        else:
            if ev.KIND != "action" or getattr(ev, "seat", None) != seat:
                raise AssertionError(f"answered for p{seat}, read as {sess.game.notate(ev)!r}")
            parsed.append(line)
        type_line(sess, line)

    return step


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_bot_answers_are_a_move_of_the_seat_or_refused(game: str) -> None:
    parsed: list[str] = []
    stats = fuzz_session(game, SESSION_CASES // 3, step=answering_as_a_bot(parsed))
    print(stats.line(f"{game} bot answers"), f"({len(parsed)} read as moves)")
    assert stats.tried == SESSION_CASES // 3 and 0 < len(parsed) < stats.tried
    assert not stats.crashes, stats.report()


# The longest refusal of a typed line: its own words, and what was typed quoted in a few
# short pieces (kabucli.safetext.quoted), never the whole line again. (302 seen since the
# fuzzer types full-width words too: Uno Dare's refusal of a long first word, quoted as the
# move and again as no name, with its hint and four players' seats.)
REFUSAL_CHARS = 320


@pytest.mark.parametrize("game", GAMES)
def test_a_refusal_of_a_long_line_quotes_only_a_short_part_of_it(game: str) -> None:
    rnd = random.Random(f"{SEED}/long/{game}")
    refusals: list[str] = []

    def longer(sess: Session, line: str) -> None:
        """The fuzzer's line with one word made 300 characters longer, or 80 words more."""
        words = line.split() or ["x"]
        if rnd.random() < 0.5:
            i = rnd.randrange(len(words))
            words[i] += (words[i][-1:] or "x") * 300
        else:
            words += [rnd.choice(words) for _ in range(80)]
        try:
            type_line(sess, " ".join(words))
        except KabuError as exc:
            refusals.append(str(exc))
            raise

    stats = fuzz_session(game, 600, step=longer)
    assert not stats.crashes, stats.report()
    assert len(refusals) > 500
    longest = max(refusals, key=len)
    assert len(longest) <= REFUSAL_CHARS, longest


def test_the_fuzzer_reports_a_crash() -> None:
    """The check above can fail: a line whose handling raises something other than a
    KabuError is counted as a crash. (The fault is put in the fuzzer's step, not into the
    game: a compiled core calls its own methods directly, past any patch of an attribute.)"""

    typed: list[str] = []

    def broken(sess: Session, line: str) -> None:
        typed.append(line)
        if len(typed) % 7 == 0:
            raise ValueError("boom")
        type_line(sess, line)

    stats = fuzz_session("dare", 200, step=broken)
    assert stats.tried == 200 and stats.refused
    assert [line for line, _ in stats.crashes] == typed[6::7]
    assert {why for _, why in stats.crashes} == {"ValueError: boom"}


def main(argv: list[str]) -> int:
    """Run a larger fuzz and print the report: ``CASES`` lines per game (a third as many
    bot answers, a hundredth as many command-line runs) from ``SEED``."""
    cases = int(argv[0]) if argv else 10_000
    seed = int(argv[1]) if len(argv) > 1 else SEED
    crashed = False
    for game in GAMES:
        answers = fuzz_session(game, cases // 3, seed, step=answering_as_a_bot([]))
        for stats, what in ((fuzz_session(game, cases, seed), "session"),
                            (answers, "bot answers"),
                            (fuzz_cli(game, max(1, cases // 100), seed), "kabucli play")):
            print(stats.line(f"{game} {what}"))
            if stats.crashes:
                crashed = True
                print(stats.report())
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
