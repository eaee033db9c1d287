"""Kabu-Tsukuri's words: the rules and notation pages, hints, and the names of rows."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kabucli.games.kabu_tsukuri.events import Result
from kabucli.hands import BY_DIGIT, RANK_NAMES, digit_name

if TYPE_CHECKING:
    from kabucli.games.kabu_tsukuri.solver import Plan

MODEL = "every other row: three cards the player has not seen, at random, in random order"

COMMANDS = {
    "best": "the solver's three best arrangements for the seat laying its rows, with the "
            "chips each is expected to bring per hand",
}


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


def hint(phase: str, physical: bool, size: int, row: int, actor: int) -> str:
    """What the seat (or the referee) may type now."""
    if phase == "arrange":
        aside = " aside 12" if size == 10 else ""
        return (f"lay your {size} cards in three rows of three in the order you lay them, row "
                f"1 first (e.g. '1-2-3 4-5-6 7-8-9{aside}'); 'best' asks the solver")
    if phase == "bets":
        return f"type 'bet' when p{actor} has put the bet of row {row} in the pot"
    if phase == "show":
        return f"type the row p{actor} turns over, in laid order (e.g. 'show 3-4-5')"
    if phase == "deal":
        return "type 'deal' once the cards are dealt"
    return ""


def best_text(seat: int, plans: Sequence[Plan], ranking: str,
              token: Callable[[int], str]) -> str:
    """The solver's answer at the prompt: one line per arrangement, best first."""
    lines = [f"best arrangements for p{seat} (expected chips per hand, other rows at random):"]
    for i, plan in enumerate(plans, start=1):
        rows = " ".join("-".join(token(c) for c in r) for r in plan.rows)
        aside = plan.aside
        aside_text = f" aside {'-'.join(token(c) for c in aside)}" if aside else ""
        names = ", ".join(row_name(v, ranking) for v in plan.levels)
        lines.append(f"  {i}. {rows}{aside_text}   {plan.ev:+.3f}   ({names})")
    return "\n".join(lines)


RULES_DOC = """\
Kabu-Tsukuri ("making kabu") is played with the 48-card hanafuda deck, counted by month: the
four cards of January are 1, of February 2, ..., of December 12. Only the month of a card
matters. 2-5 players; p1 deals the first hand.

**The deal.** With 2-4 players each player gets 10 cards; with 5 players, 9. The other cards
are not used in this hand. With 10 cards a player sets one card aside face down (their
choice; it plays no part). Each player lays the other nine face down in **three rows of
three**, row 1 first, in an order of their choosing: the order of the cards within a row
counts (see Nobori and Kudari). Players lay their rows in turn from the dealer's next seat;
nobody sees another player's rows until they are turned over.

**Three rounds.** In each round every player bets `bet` chips into the pot, then everyone
turns the row of this round over (row 1, then 2, then 3). The strongest row takes the whole
pot. When two or more rows tie for strongest nobody takes it: the pot carries to the next
row, and from row 3 into row 1 of the next hand.

**Row strength**, house rule `ranking`. `extended` (default) ranks these named rows above
every other row, strongest first:

| rank | row          | cards                                                    |
|------|--------------|----------------------------------------------------------|
| 1    | Doshippin    | 1, 10, 10 in any order                                   |
| 2    | Arashi-kabu  | 3, 3, 3                                                  |
| 3    | Arashi       | any other three of a kind (11-11-11 and 12-12-12 too)    |
| 4    | Nana-Go-San  | 7, 5, 3 in any order                                     |
| 5    | Ichi-Ni-San  | 1, 2, 3 in any order                                     |
| 6    | Raijin       | 4, 7, 9 in any order                                     |
| 7    | Fujin        | 3, 7, 10 in any order                                    |
| 8    | Nobori       | three months rising by one as laid, e.g. 5-6-7 or 10-11-12 |
| 9    | Kudari       | three months falling by one as laid, e.g. 7-6-5          |
| 10   | (no name)    | every other row, by the ones digit of its sum            |

The months do not wrap: 11-12-1 and 12-1-2 are no Nobori. A row that is both a named hand
and a run (1-2-3 laid rising) counts as the stronger, the named hand. Two equal named rows
tie, except Nobori against Nobori and Kudari against Kudari, where the higher ones digit wins.
Every other row counts the ones digit of the sum of its months, at face value (11 and 12
count as themselves: 5-6-11 adds up to 22, digit 2): 9 (Kabu) is best, 0 (Buta) worst.
`kabu` uses the ones digit alone for every row.

**The next dealer**, house rule `dealer`: `rotate` (default) passes the deal to the next seat;
`winner` gives it to the winner of row 3 (the same dealer when row 3 ties).

A match is `hands` hands; every player starts with `chips` chips, and balances may go
negative (a score sheet). A pot still carried after the last hand is reported at the end.

**The solver.** `kabucli solve kabu-tsukuri CARDS...` (9 or 10 months), the `best` bot and
`best` at the prompt of a seeded game find the arrangement with the most expected chips per
hand when every other player's row is three cards drawn at random, in random order, from the
cards the player has not seen. See docs/rules/kabu-tsukuri.md for the model and the method.
"""

NOTATION_DOC = """\
Cards are months 1-12 (a hanafuda token such as 3b or 11r is read as its month). A row is
three cards joined by '-', in laid order.

  p2 rows 1-2-3 4-5-6 7-8-9 aside 12
                        p2 lays row 1 = 1-2-3, row 2 = 4-5-6, row 3 = 7-8-9 and sets 12
                        aside ('p2' and 'rows' are optional on p2's turn; no 'aside' with 9
                        cards, i.e. 5 players)
  best                  the solver's best arrangements for the seat to lay rows (seeded game)
  deal                  referee mode: the cards are dealt (face down)
  p3 bets               referee mode: p3 puts the bet of this row in the pot ('bet' on p3's turn)
  p3 shows 5-6-7        referee mode: p3 turns the row of this round over, in laid order
  undo                  take back the last input

A seeded game prints its deal as 'deal | p1 1-1-2-... | p2 ... | rest ...', the bets as
'stakes row 1 1 each', the turned rows as 'turn row 1 | p1 1-2-3 | p2 ...', and the engine's
results as 'result hand 1 row 2 p3 takes 8' or 'result hand 1 row 2 tie p1,p3 carries 8';
'end hands p1=52 p2=47 pot=1' ends the match. They parse back from the same text.
"""
