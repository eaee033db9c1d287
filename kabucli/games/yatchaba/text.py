"""Yatchaba's words: the hints of the play prompt and the odds in words (the ``odds`` question
the prompt answers).

The rules page is ``rules.md`` beside this module (see :mod:`kabucli.games`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from kabucli.errors import ParseError
from kabucli.figures import counted
from kabucli.games.yatchaba.rules import (
    GAME,
    YatchabaState,
    best_guesses,
    draws,
    month_name,
    ways,
)
from kabucli.safetext import quoted

# The questions Yatchaba answers at the prompt of ``kabucli play`` (see :func:`command`).
COMMANDS: dict[str, str] = {
    "odds": "the exact chance that the current guess is right given the cards face up, "
            "and the best guess; 'odds 1 1 8' for any three months",
}


def ratio(num: int, den: int) -> str:
    """A chance ``num/den`` as a fraction, a percentage and "1 in N"."""
    if den == 0 or num == 0:
        return "0 (impossible)"
    f = Fraction(num, den)
    return f"{f.numerator}/{f.denominator} ({100 * num / den:.3f}%, 1 in {den / num:.0f})"


def chance_text(s: YatchabaState, months: list[int]) -> str:
    """The chance that ``months`` is right, e.g. ``3/2162 (0.139%, 1 in 721)``."""
    return ratio(ways(s.left, months), draws(s.left))


def odds_text(s: YatchabaState, months: list[int] | None = None) -> str:
    """The odds of the current guess (or ``months``) in words, and the best guess."""
    best, tops = best_guesses(s.left)
    total = draws(s.left)
    best_text = f"best guess {named_months(list(tops[0]))}: {ratio(best, total)}"
    if len(tops) > 1:
        best_text += f" and {len(tops) - 1} more as good"
    guess = sorted(months) if months is not None else s.guess
    if not guess:
        return best_text
    return f"guess {named_months(guess)}: {chance_text(s, guess)}; {best_text}"


def named_months(months: list[int]) -> str:
    """Months by name, as the table, the replay and the odds line write them and as they
    may be typed (``guess jan jan aug``): the odds line wrote numbers beside lines of names."""
    return " ".join(month_name(m) for m in months)


def command(s: YatchabaState, line: str) -> str | None:
    """The answer to a question typed at the prompt (``odds`` or ``odds 1 1 8``), or None
    when ``line`` is not one of :data:`COMMANDS`. Changes nothing."""
    words = line.split()
    if not words or words[0].lower() not in COMMANDS:
        return None
    if len(words) == 1:
        return odds_text(s)
    try:
        months = GAME._parse_months(words[1:])
    except ParseError as exc:
        return str(exc)
    return odds_text(s, months)


def _pass_costs(s: YatchabaState, seat: int) -> bool:
    """Whether a pass by ``seat`` now costs it the right to guess in this game: it has used
    its passes, has not guessed and may still guess."""
    return s.passes[seat] >= s.rules.pass_limit and seat not in s.guessed and s.may_guess(seat)


def prompt_what(s: YatchabaState, seats: Sequence[int] = ()) -> str | None:
    """The prompt's words while a player other than the guesser bets: what it waits for, with
    the passes that player has used, or, when the next pass costs the right to guess, that it
    does. None elsewhere (the prompt says what the game waits for). (``seats``, the people
    asked: one bettor is asked at a time, whose words these are.)"""
    if s.phase != "bet" or s.bettor == s.guesser:
        return None
    seat = s.bettor
    what = f"p{seat} to bet {s.due} or pass"
    if _pass_costs(s, seat):
        return f"{what} (a pass now loses the turn as guesser)"
    return f"{what} ({passes_used(s.passes[seat], s.rules.pass_limit)})"


def passes_used(used: int, limit: int, when: str = "") -> str:
    """A seat's passes this game against ``pass_limit``: ``1 of 2 passes used``; past the
    limit, or with a limit of 0, ``3 passes used, the limit is 2`` (not ``3 of 2``). ``when``
    follows ``used`` (`` this game``)."""
    if limit > 0 and used <= limit:
        return f"{used} of {limit} passes used{when}"
    return f"{counted(used, 'pass', 'passes')} used{when}, the limit is {limit}"


def pass_logged(used: int, limit: int) -> str:
    """Which pass of the game a pass is, as its log line says: ``pass 1 of 2 in this game``;
    past the limit ``pass 3 in this game, beyond the limit of 2`` (not ``pass 1 of 0``)."""
    if used <= limit:
        return f"pass {used} of {limit} in this game"
    return f"pass {used} in this game, beyond the limit of {limit}"


def passes_cell(used: int, limit: int) -> str:
    """A seat's passes this game on the table: ``1/2`` (of the limit of 2); past the limit
    ``3 (limit 2)``, which ``3/2`` would read as a fraction (and ``1/0`` with no pass free)."""
    return f"{used}/{limit}" if used <= limit else f"{used} (limit {limit})"


def not_face_down(k: int, month: int, copies: int, up: int) -> str:
    """Why ``k`` cards of ``month`` cannot be face down: ``up`` of its ``copies`` are face
    up already."""
    cards = counted(k, f"{month_name(month)} card", f"{month_name(month)} cards")
    return f"{cards} cannot be face down: the deck has {copies} and {up} already face up"


def wrong_amount(due: int, amount: int, physical: bool) -> str:
    """Why a bet of ``amount`` is refused when ``due`` is the next amount; at a real table,
    what the referee types instead ('bet' alone bets it). (Not in a seeded game, whose bets a
    log's replay and a bot are refused too, neither of which types.)"""
    why = f"the next amount of the sequence is {due}, not {amount}"
    return f"{why}: type 'bet'" if physical else why


def guesser_cannot_pass(seat: int, due: int, physical: bool) -> str:
    """Why the guesser's pass is refused; at a real table, the bet typed instead."""
    why = f"p{seat} is the guesser, and the guesser cannot pass"
    return f"{why}: type 'bet' ({counted(due, 'chip', 'chips')})" if physical else why


# what a deal refused for its cards should be typed as: at a real table the laid cards are
# face down, and 'deal' alone records them so (a deal naming them is a seeded log's)
DEAL_ALONE = "type 'deal' alone, or name three cards not face up"


def laid_not(count: int) -> str:
    """Why a deal naming ``count`` cards (not three) is refused."""
    return f"the guesser lays 3 cards, not {count}: type 'deal' alone, or name all three"


def revealed_by_month(why: str, months: Sequence[int]) -> str:
    """Why named cards turned over are refused (a name already face up, say), and the same
    cards typed by month, which is all the round needs."""
    return f"{why}: type their months if a name is unsure ('reveal {' '.join(map(str, months))}')"


EMPTY = "type 'guess 1 1 8', 'bet', 'pass', 'continue' or 'stop'"  # (when no hint applies)


def _now(s: YatchabaState) -> str:
    """What the seat the game waits for may type now, as the phase has it (the hint); every
    move of the game when no hint applies."""
    return hint(s, s.bettor if s.phase == "bet" else s.guesser) or EMPTY


def empty(s: YatchabaState) -> str:
    """Why an empty line is refused: what is typed now."""
    return f"empty move: {_now(s)}"


def not_a_move(word: str, s: YatchabaState) -> str:
    """Why a word that is no move (nor months in a guess) is refused: what is typed now."""
    return f"{quoted(word)} is not a Yatchaba move: {_now(s)}"


def hint(s: YatchabaState, seat: int) -> str:
    """What ``seat`` may type now, in one line."""
    phase = s.phase
    if phase == "guess":
        return ("name three months, repeats allowed (e.g. 'guess 1 1 8' or "
                "'guess jan jan aug'); " + odds_text(s))
    if phase == "bet":
        amt = s.next_amount()
        chips = counted(amt, "chip", "chips")
        if seat == s.guesser:
            return f"'bet' puts {chips} in the pot (the guesser cannot pass)"
        text = f"'bet' puts {chips} in the pot; 'pass' puts in 1 and ends your betting"
        limit = s.rules.pass_limit
        if not _pass_costs(s, seat):
            text += f" ({passes_used(s.passes[seat], limit, ' this game')})"
        elif limit == 0:
            text += " (no pass is free this game: a pass loses your turn as guesser)"
        else:
            used = s.passes[seat]  # (= limit: a seat past it has no turn to lose)
            text += (f" (you have passed {counted(used, 'time', 'times')} of {limit} this "
                     "game: another pass loses your turn as guesser)")
        return text
    if phase == "decide":
        return (f"'continue' for another lap (next amount {s.next_amount()}) or 'stop' to "
                "turn the cards over")
    if phase == "deal":
        return f"type 'deal' once p{s.guesser} has laid three cards face down"
    if phase == "reveal":
        text = ("type the three cards as they are turned over: months ('reveal 1 1 8') "
                "or names ('reveal 1b 1r 8a')")
        if s.lap >= s.rules.max_laps and any(not s.out[p] for p in s.order[1:]):
            text = f"max_laps={s.rules.max_laps} laps are over, so the betting stopped; " + text
        return text
    return ""
