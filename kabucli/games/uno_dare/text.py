"""Uno Dare's words: the three dare lists shipped with kabucli, color names, and the hint
shown at the prompt (the rules page is rules.md)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from kabucli.cards import UNKNOWN, UNO_COLOR_NAMES
from kabucli.figures import counted
from kabucli.safetext import quoted, safe_text

if TYPE_CHECKING:
    from kabucli.games.uno_dare.events import UnoDareRules
    from kabucli.games.uno_dare.rules import UnoState

COLOR_NAMES = UNO_COLOR_NAMES  # (the deck's own: its cards' words use them too)
COLOR_WORDS = {**{name: i for i, name in enumerate(COLOR_NAMES)},
               **{name[0]: i for i, name in enumerate(COLOR_NAMES)}}

# The dare lists, each numbered 1-16 by the dare numbers printed on the cards.
DARE_LISTS: dict[str, tuple[str, ...]] = {
    "family": (
        "Tell a joke that makes someone at the table smile.",
        "Sing the first line of a nursery rhyme.",
        "Do your best impression of a farm animal.",
        "Name five fruits in ten seconds.",
        "Hop on one foot five times.",
        "Say the alphabet backwards from G to A.",
        "Pay the player on your left a compliment.",
        "Pull your silliest face for five seconds.",
        "Talk like a robot until your next turn.",
        "Touch your toes and count to ten.",
        "Describe your breakfast in three words.",
        "Clap a rhythm that the others must copy.",
        "Stand still as a statue until someone laughs.",
        "Say 'Uno Dare' five times, fast.",
        "Name an animal for each color of the deck.",
        "Do a little victory dance.",
    ),
    "daredevil": (
        "Hold a plank for twenty seconds.",
        "Do ten jumping jacks.",
        "Keep your eyes shut until your next turn.",
        "Speak only in questions until your next turn.",
        "Stand on one leg until your next turn.",
        "Let the player on your right style your hair.",
        "Say a tongue twister three times without a slip.",
        "Do five push-ups (against a wall is fine).",
        "The table picks a word you may not say this round.",
        "Wear a sock on one hand until the round ends.",
        "Hum a song the table names until someone guesses it.",
        "Sit against a wall, knees bent, for fifteen seconds.",
        "Keep a straight face while the table tries to make you laugh.",
        "Spin around five times, then walk in a straight line.",
        "Balance a card on your head until your next turn.",
        "Whisper everything you say until your next turn.",
    ),
    "show-off": (
        "Strike a model's pose and hold it for five seconds.",
        "Sing a chorus of your choice like a rock star.",
        "Give a thirty-second speech on why you will win.",
        "Replay your last move in dramatic slow motion.",
        "Show the table your best dance move.",
        "Announce your next card like a sports commentator.",
        "Take a bow and soak up the imaginary applause.",
        "Do your best impression of someone famous.",
        "Perform a magic trick, real or pretend.",
        "Recite a short poem with great feeling.",
        "Moonwalk across the room.",
        "Play a ten-second air-guitar solo.",
        "Tell the story of your best day in one dramatic sentence.",
        "Strike three superhero poses in a row.",
        "Rap a verse about the top card of the discard pile.",
        "Walk around the table like a runway model.",
    ),
}


def dare_text(rules: UnoDareRules, number: int) -> str:
    """The text of dare ``number`` (1-16) on the list the rules play, safe to show."""
    texts = rules.house_dares if rules.dares == "house-rules" else DARE_LISTS[rules.dares]
    if not 1 <= number <= len(texts):
        return "?"
    return safe_text(texts[number - 1], 100)


def words_after(verb: str, rest: list[str]) -> str:
    """Why a move word typed with words after it is refused (``draw 2``, ``color``)."""
    if verb in ("color", "colour", "name"):
        return f"{quoted(verb)} names one color, e.g. '{verb} red'"
    return f"{quoted(verb)} takes nothing after it (not {quoted(' '.join(rest))})"


def catch_example(n: int) -> str:
    """A catch as typed at a table of ``n`` players, of a seat there is: ``catch p3`` (at a
    table of two ``catch p2``)."""
    return f"catch p{min(3, n)}"


def empty_move(n: int) -> str:
    """Why an empty line is refused, at a table of ``n`` players."""
    return ("empty move: type a card like 'R5', 'draw', 'decline', 'uno' or "
            f"{quoted(catch_example(n))}")


def not_caught(target: int, cards: int, window: int) -> str:
    """Why a catch of ``target``, who holds ``cards`` cards, is refused, and the catch to
    type instead: of ``window``, who holds one card without having called UNO (0: nobody)."""
    why = f"p{target} holds {cards} cards, not one"
    if window:
        return f"{why}: p{window} is the one to catch ('catch p{window}')"
    return f"{why}: nobody may be caught now"


def not_their_show(s: UnoState, want: int, seat: int) -> str:
    """Why ``seat`` showing its cards is refused while ``want`` shows next."""
    cards = counted(len(s.hands[want]), "card", "cards")
    return (f"p{want} shows next, not p{seat}: type the {cards} p{want} shows"
            f"{_shown_example(s, want)}")


def _shown_example(s: UnoState, want: int) -> str:
    """A show by ``want`` of the cards it holds, as typed, that the table would take (" (e.g.
    'p2 shows R5-G7')"): the cards known to be in that hand, then cards with a copy not yet
    seen, one of each; "" when none would be taken (a fixed list named cards already played,
    or a seat other than the one to show)."""
    from kabucli.games.uno_dare.events import Show
    from kabucli.games.uno_dare.rules import GAME as game

    held = len(s.hands[want])
    cards = [c for c in s.hands[want] if c != UNKNOWN]
    known = set(cards)
    cards += [c for c in _free(s) if c not in known][:held - len(cards)]
    if len(cards) != held or game.check(s, Show(want, cards)) is not None:
        return ""
    tokens = [game.deck.token(c) for c in cards]
    shown = "-".join(tokens) if held <= 7 else "-".join(tokens[:2]) + "-..."
    return f" (e.g. 'p{want} shows {shown}')"


def show_count(s: UnoState, want: int, shown: int) -> str:
    """Why a show of ``shown`` cards by ``want`` is refused (it holds another number)."""
    cards = counted(len(s.hands[want]), "card", "cards")
    return (f"p{want} holds {cards}, not {shown}: type the {cards} p{want} shows"
            f"{_shown_example(s, want)}")


def not_their_turn(s: UnoState, seat: int, word: str) -> str:
    """Why a move of ``seat`` is refused while another seat is to move (``word``: 'turn' for
    a card played, else 'move'); at a real table, with what the seat to move may type."""
    turn = s.turn
    why = f"it is p{turn}'s {word}, not p{seat}'s (round {s.round}, turn {s.turns + 1})"
    if not s.physical:  # (bots and a seeded log's replay meet it too: nobody types there)
        return why
    plain = _plays(s)[0]
    example = f" (e.g. 'p{turn} {plain}')" if plain else ""
    what = {"turn": f"the card p{turn} plays{example} or 'p{turn} draw'",
            "drawn": f"the card p{turn} plays, if it matches, or 'p{turn} keep'",
            "name": f"the color p{turn} names (e.g. 'p{turn} red')",
            "hit": f"'p{turn} try' or 'p{turn} decline'",
            "verdict": f"'p{turn} done' or 'p{turn} failed'"}.get(s.phase)
    return f"{why}: type {what}" if what else why


def uno_count(s: UnoState, seat: int, card: str) -> str:
    """Why ``card`` (as typed: ``R3``, ``WD12 red``) played by ``seat`` with 'uno' is refused
    when it is not their next-to-last card; at a real table, what to type instead (bots and a
    seeded log's replay meet it too)."""
    why = f"UNO is called with the next-to-last card; p{seat} holds {len(s.hands[seat])}"
    return f"{why}: type {quoted(f'p{seat} {card}')} without 'uno'" if s.physical else why


def no_missing_call(s: UnoState) -> str:
    """Why an 'uno' or a pass typed while nobody may be caught is refused; at a real table,
    with what the table waits for (the prompt adds its hint, which says that 'uno' goes with
    the next-to-last card as it is played)."""
    from kabucli.games.uno_dare.rules import GAME as game  # rules.py reads this module's data

    why = "there is no missing UNO call now"
    return f"{why} (waiting for {game.pending(s).what})" if s.physical else why


def catch_names_one(n: int) -> str:
    """Why a catch that names nobody, or several, is refused."""
    catch = catch_example(n)
    return f"a catch names who is caught: {quoted(catch)} (or {quoted('p1 ' + catch)})"


def not_a_move(word: str, n: int) -> str:
    """Why a word that is neither a move nor a card is refused."""
    return (f"{quoted(word)} is not an Uno Dare move: type a card like 'R5', 'WD12 red', "
            f"'draw', 'keep', 'decline', 'try', 'uno' or {quoted(catch_example(n))}")


# The symbols' words a card may be spelt with after its color's word ('red skip' for RS).
SYMBOL_WORDS = {"skip": "S", "reverse": "R", "dare": "D"}


def color_first(words: list[str], card: str | None, n: int) -> str:
    """Why a line that starts with a color word and goes on is refused: ``card``, the card
    its words spell ('red 5' is R5), is typed as one word; else a color word names a color
    alone (a color's letter is no seat either, at a table of ``n``)."""
    if card is not None:
        return f"a card is typed as one word: {quoted(card)} for {quoted(' '.join(words))}"
    rest = quoted(" ".join(words[1:]))
    if len(words[0]) == 1:  # ('B draw': a seat named by a letter, as at a table of A, B, C)
        color = COLOR_NAMES[COLOR_WORDS[words[0].lower()]]
        seats = "p1 and p2" if n == 2 else f"p1 to p{n}"
        return (f"{quoted(words[0])} is {color}'s letter, not a seat (seats are {seats}, or "
                f"the players' names); typed alone it names the color of a Wild Dare turned up "
                f"first, with nothing after it (not {rest})")
    return ("a color word typed alone names the color of a Wild Dare turned up first; "
            f"nothing follows it (not {rest})")


# Why a color typed alone is refused when no color is to be named (as after a Wild Dare
# played without one, which was refused: the color goes with the card).
LONE_COLOR = ("a color typed alone names the color of a Wild Dare turned up as the first "
              "discard; a Wild Dare played names its color with the card, e.g. 'WD12 red'")


def _free(s: UnoState) -> list[int]:
    """The cards with a copy not yet seen, in the deck's order: at a real table what it knows
    is out of every hand; in a seeded game only the discards, so that an example drawn from
    them tells nothing of another hand."""
    from kabucli.games.uno_dare.rules import GAME as game

    seen = s.certain() if s.physical else Counter(s.discards)
    counts = game.deck.counts
    return [c for c in sorted(counts) if seen[c] < counts[c]]


def _plays(s: UnoState) -> tuple[str, str]:
    """Two plays the table would take on the top card, whoever holds them, as typed: a card
    of the color in play (not the top card's twin, if another is left) and a Wild Dare naming
    it, each with a copy not yet seen (:func:`_free`); "" for one none is left of."""
    from kabucli.games.uno_dare.rules import COLOR, GAME as game, WILD

    free = _free(s)
    same = [c for c in free if COLOR[c] == s.color]
    plain = [c for c in same if c not in s.discards[-1:]] or same
    wild = [c for c in free if COLOR[c] == WILD]
    return (game.deck.token(plain[0]) if plain else "",
            f"{game.deck.token(wild[0])} {COLOR_NAMES[s.color]}" if wild else "")


def _examples(s: UnoState) -> str:
    """The plays of :func:`_plays` as a hint gives them: "e.g. 'B5', 'WD9 blue', " ("" when
    neither is left)."""
    words = [f"'{play}'" for play in _plays(s) if play]
    return f"e.g. {', '.join(words)}, " if words else ""


def hint(s: UnoState, seat: int) -> str:
    """What ``seat`` may do now, in one line (the prompt's hint)."""
    from kabucli.games.uno_dare.rules import GAME as game  # rules.py reads this module's data

    p = game.pending(s)
    if s.phase == "deal" and p.kind == "chance":
        return "type the card turned up as the first discard, e.g. 'deal R5'"
    if p.kind == "chance" and "reshuffle" in p.what:
        return "the draw pile is empty: type 'reshuffle' once the discards are shuffled"
    if p.kind == "chance":
        want = game._next_show(s)
        if not want:
            return "type the cards the player shows"
        return f"type the cards p{want} shows{_shown_example(s, want)}"
    if p.kind != "action":
        return ""
    parts = []
    if seat == s.turn:
        tok = game.deck.token
        top = f"{tok(s.discards[-1])}, color {COLOR_NAMES[s.color]}"
        if s.phase == "turn":
            dry = ("" if s.pile or len(s.discards) > 1 else " (nothing is left to draw: every "
                   "other card is in a hand, and a draw only passes the turn)")
            parts.append(f"play a card on {top} ({_examples(s)}add 'uno' with your "
                         f"next-to-last card), or 'draw'{dry}")
        elif s.phase == "drawn":
            drawn = "the card drawn, if it matches," if s.physical else f"'{tok(s.drawn)}'"
            parts.append(f"play {drawn} now, or 'keep' it")
        elif s.phase == "name":
            parts.append("name the color of the Wild Dare turned up: 'red', 'yellow', 'green' "
                         "or 'blue'")
        elif s.phase in ("hit", "verdict"):
            dare = f"dare #{s.hit_number}: \"{dare_text(s.rules, s.hit_number)}\""
            if s.phase == "hit":
                parts.append(f"hit by {dare} - 'try' it or 'decline' (draw 2)")
            else:
                parts.append(f"{dare} - the table judges: 'done' or 'failed' (draw 2)")
    if s.window and seat != s.window:
        parts.append(f"p{s.window} did not call UNO: 'catch p{s.window}' (or 'pass')")
    elif s.window == seat:
        parts.append("you hold one card: call 'uno' before you are caught")
    return "; ".join(parts)
