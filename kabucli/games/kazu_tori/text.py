"""Kazu-Tori's words: the hints of the play prompt and what happens to an untaken card.

The rules page is ``rules.md`` beside this module (see :mod:`kabucli.games`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kabucli.games.kazu_tori.rules import GAME, WORDS, KazuToriState

# why a bot's 'stop' is refused (kabucli.games.kazu_tori.bots)
BOT_STOP = ("a game is ended by agreement ('stop') only by the people at the table; between "
            "bots it ends by its rules, or after max_flips flips (a bot's moves are its "
            "'legal', game.bot_legal(state, seat) in a py: class)")
EMPTY = "type 'flip', 'p2 claim', 'p2 pass' or 'stop'"  # (when no hint applies)


def hint(s: KazuToriState, seat: int) -> str:
    """What may be typed now, in one line."""
    if s.phase == "deal":
        return "type 'deal' once each player has a face-down pile"
    if GAME.pending(s).kind != "action":
        return ""
    nxt = s.next_flipper()
    card = " CARD' with the card seen" if s.physical else "'"
    say = WORDS[GAME.next_count(s)]
    # a real table that reached max_flips turns no more cards: the players stop
    then = (f"the game has reached max_flips={s.rules.max_flips}: 'stop' ends it"
            if s.flips_spent()
            else f"p{nxt} flips saying {say}: 'p{nxt} flip{card}")
    if s.phase == "turn":
        return then
    top = GAME.deck.token(s.table[-1])
    may = "may be taken" if s.takeable() else "may NOT be taken"
    text = (f"the {top} (said {WORDS[s.said]}) {may}: 'pN claim' for the first hand on "
            f"it; else {then}")
    closing = GAME.on_close(s)
    if closing is not None:
        text += f" (first: {closing_text(closing)})"
    return text + ("" if s.physical else "; 'pN pass' lets it go")


def no_card_to_claim(s: KazuToriState) -> str:
    """Why a claim or a pass is refused while no card may be claimed (a seat flips next); at
    a real table, what the referee types (bots and a seeded log's replay meet it too)."""
    why = "there is no card to claim"
    if not s.physical:
        return f"{why}: p{s.flipper} flips next"
    if s.flips_spent():  # (no flip is taken: the players stop)
        return f"{why}, and the game has reached max_flips={s.rules.max_flips}: end it with 'stop'"
    return f"{why} (p{s.flipper} flips next): type 'p{s.flipper} flip CARD' with the card seen"


def claimed_already(s: KazuToriState, seat: int) -> str:
    """Why a second claim of ``seat`` on the card just turned is refused; at a real table,
    that it needs nothing more, and what the table waits for (the prompt adds its hint)."""
    why = f"p{seat} already claimed this {GAME.deck.token(s.table[-1])}"
    if not s.physical:
        return why
    return (f"{why}, and a claim counts once: nothing more to type for p{seat} (waiting for "
            f"{GAME.pending(s).what})")


def let_go_already(s: KazuToriState, seat: int) -> str:
    """Why a second pass of ``seat`` on the card just turned is refused; at a real table,
    that it needs nothing more (a claim until the next flip, on a card that may be taken),
    and what the table waits for (the prompt adds its hint)."""
    why = f"p{seat} already let this card go"
    if not s.physical:
        return why
    waiting = f"(waiting for {GAME.pending(s).what})"
    if s.takeable() and seat not in s.claimed:  # (until the next flip it may still claim)
        return f"{why} {waiting}; p{seat} may still claim it: 'p{seat} claim'"
    return f"{why}: nothing more to type for p{seat} {waiting}"


def prompt_hint(s: KazuToriState, seat: int) -> str:
    """What a person at the play prompt may type now: :func:`hint`, the line a bot program is
    sent (moves only: a bot's blank line is refused), and in a seeded game's window that a
    blank line lets the card go there too, so that the bots react."""
    text = hint(s, seat)
    if text.endswith("; 'pN pass' lets it go"):
        text = text.removesuffix(" lets it go") + " (or a blank line) lets the bots react"
    return text


def prompt_what(s: KazuToriState, seats: Sequence[int] = ()) -> str | None:
    """The prompt's words while a card's window is open, short enough for an 80-column line
    with the names of four players: ``claim the 7 (one: may not be taken), or p2 flips
    two``; to ``seats`` (the people asked) that all claimed it already, the flip alone, as
    a turn's prompt says it (``p2 to flip saying two``): a claim is theirs once a card. None
    elsewhere (the prompt says what the game waits for)."""
    if s.phase != "window" or not s.table:
        return None
    flipper = s.next_flipper()
    count = WORDS[GAME.next_count(s)]
    limit = s.flips_spent()  # a real table: no flip, a stop
    flips = f"stop (max_flips={s.rules.max_flips} reached)" if limit \
        else f"p{flipper} flips {count}"
    if seats and all(seat in s.claimed for seat in seats):
        return flips if limit else f"p{flipper} to flip saying {count}"
    top = GAME.deck.token(s.table[-1])
    may = "may be taken" if s.takeable() else "may not be taken"
    return f"claim the {top} ({WORDS[s.said]}: {may}), or {flips}"


def closing_text(closing: dict[str, Any]) -> str:
    """``KazuTori.on_close`` in words: who gets how many cards when the window closes
    untaken."""
    def counts(d: dict[str, int]) -> str:  # "1 to p1, 2 to p2"
        return ", ".join(f"{k} to {p}" for p, k in d.items())

    if "jizo" in closing:
        jizo = closing["jizo"]
        head = "the Jizo leaves the game" if jizo == "removed" else f"the Jizo goes to {jizo}"
        cards = closing["cards"]
        return f"{head}; the other cards: {counts(cards)}" if cards else f"{head}; no other cards"
    if "return" in closing:
        return f"the table is shuffled and returned: {counts(closing['return'])}"
    return "Last Call: the cards stay and the count restarts at one"

