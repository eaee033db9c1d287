"""Kabu-Tsukuri's words: the rules and notation pages, hints, and the names of rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kabucli.figures import counted, signed
from kabucli.games.kabu_tsukuri.events import Result
from kabucli.hands import BY_DIGIT, RANK_NAMES, digit_name
from kabucli.safetext import quoted

if TYPE_CHECKING:
    from kabucli.games.kabu_tsukuri.rules import KabuState
    from kabucli.games.kabu_tsukuri.solver import Plan

MODEL = "every other row: three cards the player has not seen, at random, in random order"

EMPTY = "type three rows like '1-2-3 4-5-6 7-8-9 aside 12'"  # (when no hint applies)


def not_a_move(word: str, s: KabuState) -> str:
    """Why a word that is no move is refused, with the moves typed at this table: at a real
    table the referee's (nobody lays rows there, and 'best' answers only in a seeded game); in
    a seeded game a player's, who lays rows and, at the play prompt, may ask 'best' (the
    program deals, bets and turns the rows over: 'bet' and 'show' are refused there). A bot
    program is refused in the same words: 'best' is named as the prompt's."""
    if s.physical:
        return (f"{quoted(word)} is not a Kabu-Tsukuri move: at a real table type 'deal', "
                "'bet' or 'show 3-4-5'")
    return (f"{quoted(word)} is not a Kabu-Tsukuri move: lay your rows like "
            f"{quoted(_rows_example(s.size))} (at the play prompt, 'best' asks the solver)")


# why a deal naming cards is refused at a real table (a deal with the hands is a seeded log's)
DEAL_FACE_DOWN = "at a real table the cards are dealt face down: type 'deal' alone"


def not_their_row(s: KabuState, seat: int) -> str:
    """Why ``seat`` turning a row over is refused while another seat turns over the next."""
    return f"p{s.actor} turns row {s.row} over next, not p{seat}: {hint(s, s.actor)}"


def bet_takes_nothing(word: str, bet: int) -> str:
    """Why 'bet 2' is refused: the bet is the house rules' (``bet``)."""
    return (f"{quoted(word)} takes nothing after it: the bet is {counted(bet, 'chip', 'chips')} "
            "by the house rules")


def not_three_rows(words: int) -> str:
    """Why an arrangement of ``words`` rows (not three) is refused."""
    return (f"an arrangement is 3 rows like '1-2-3 4-5-6 7-8-9', got "
            f"{counted(words, 'word', 'words')}")


def _rows_example(size: int) -> str:
    """Three rows as typed, with the card set aside when a hand has one to spare."""
    return "1-2-3 4-5-6 7-8-9" + (" aside 12" if size == 10 else "")


COMMANDS = {
    "best": "the solver's three best arrangements for the seat laying its rows, with the "
            "chips each is expected to bring per hand",
}

# What a real table never types (nobody lays rows there: the referee types the bets and the
# rows turned over, and 'best' answers only in a seeded game): its help leaves them out.
SEEDED_ONLY = ("1-2-3 4-5-6 7-8-9 aside 12", "p2 rows 1-2-3 4-5-6 7-8-9 aside 12", "best")


def row_name(level: int, ranking: str) -> str:
    """The name of a row of strength ``level``: ``Kabu (9)``, ``Nobori, Roppou (6)``,
    ``Arashi``."""
    rank, digit = divmod(level, 10)
    if ranking == "kabu" or rank == 0:
        return digit_name(digit)
    if rank in BY_DIGIT:
        return f"{RANK_NAMES[rank]}, {digit_name(digit)}"
    return RANK_NAMES[rank]


def result_line(r: Result) -> str:
    """How a row ended: ``hand 1 row 2: p3 takes the pot of 8``, or a tie that carries."""
    head = f"hand {r.hand} row {r.row}"
    if len(r.best) == 1:
        return f"{head}: p{r.best[0]} takes the pot of {r.amount}"
    where = "the next row" if r.row < 3 else "the next hand"
    tied = ", ".join(f"p{p}" for p in r.best)
    return f"{head}: tie ({tied}), {r.amount} carries to {where}"


def hint(s: KabuState, seat: int) -> str:
    """The moves the seat (or the referee) may make now: what a bot program is told with its
    turn, which can send moves only (the prompt adds its question: :func:`prompt_hint`)."""
    phase, size, row, actor = s.phase, s.size, s.row, s.actor
    if phase == "arrange":
        return (f"lay your {size} cards in three rows of three in the order you lay them, row "
                f"1 first (e.g. {quoted(_rows_example(size))})")
    if phase == "bets":
        return f"type 'bet' when p{actor} has put the bet of row {row} in the pot"
    if phase == "show":
        return f"type the row p{actor} turns over, in laid order (e.g. 'show 3-4-5')"
    if phase == "deal":
        return "type 'deal' once the cards are dealt"
    return ""


def prompt_hint(s: KabuState, seat: int) -> str:
    """What a person at the play prompt may type now: the moves (:func:`hint`) and, while a
    seat lays its rows, the question ``best``, which the prompt answers (never sent)."""
    moves = hint(s, seat)
    return f"{moves}; 'best' asks the solver" if s.phase == "arrange" else moves


def best_text(seat: int, plans: Sequence[Plan], ranking: str,
              token: Callable[[int], str]) -> str:
    """The solver's answer at the prompt: one line per arrangement, best first."""
    lines = [f"best arrangements for p{seat} (expected chips per hand, other rows at random):"]
    for i, plan in enumerate(plans, start=1):
        rows = " ".join("-".join(token(c) for c in r) for r in plan.rows)
        aside = plan.aside
        aside_text = f" aside {'-'.join(token(c) for c in aside)}" if aside else ""
        names = "; ".join(row_name(v, ranking) for v in plan.levels)  # a name may hold ", "
        lines.append(f"  {i}. {rows}{aside_text}   {signed(plan.ev, 3)}   ({names})")
    return "\n".join(lines)


def command(s: KabuState, line: str) -> str | None:
    """``best``: the solver's best arrangements for the seat to lay rows now."""
    from kabucli.games.kabu_tsukuri.rules import GAME
    from kabucli.games.kabu_tsukuri.solver import solve

    words = line.split()
    if not words or words[0].lower() not in COMMANDS:
        return None
    if s.phase != "arrange" or not s.cards[s.actor]:
        return "'best' answers while a seat lays its rows in a seeded game"
    seat = s.actor
    plans = solve(s.cards[seat], s.n, s.rules.ranking, s.rules.bet, s.ledger.pot, top=3)
    return best_text(seat, plans, s.rules.ranking, GAME.deck.token)
