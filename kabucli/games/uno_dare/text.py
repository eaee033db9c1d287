"""Uno Dare's words: the rules and notation that ``kabucli rules uno-dare`` prints, the three
dare lists shipped with kabucli, color names, and the hint shown at the prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kabucli.safetext import safe_text

if TYPE_CHECKING:
    from kabucli.games.uno_dare.events import UnoDareRules
    from kabucli.games.uno_dare.rules import UnoDare, UnoState

COLOR_NAMES = ("red", "yellow", "green", "blue")
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


def hint(game: UnoDare, s: UnoState, seat: int) -> str:
    """What ``seat`` may do now, in one line (the prompt's hint)."""
    p = s.pend
    if s.phase == "deal" and p.kind == "chance":
        return "type the card turned up as the first discard, e.g. 'deal R5'"
    if p.kind == "chance" and "reshuffle" in p.what:
        return "the draw pile is empty: type 'reshuffle' once the discards are shuffled"
    if p.kind == "chance":
        return "type the cards the player shows, e.g. 'p2 shows R5-G7-WD12'"
    if p.kind != "action":
        return ""
    parts = []
    if seat == s.turn:
        tok = game.deck.token
        top = f"{tok(s.discards[-1])}, color {COLOR_NAMES[s.color]}"
        if s.phase == "turn":
            parts.append(f"play a card on {top} (e.g. 'R5', 'WD12 red', add 'uno' with your "
                         "next-to-last card), or 'draw'")
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


RULES_DOC = """\
Uno Dare is UNO with dares, for 2-10 players. The 108-card deck has, in each of four colors
(red, yellow, green, blue), one 0, two each of 1-9, two Skips, two Reverses and two Dares;
and 8 Wild Dares. There are no Draw Two or Wild Draw Four cards. Every dare card carries its
own dare number: the Dares 1-8 (red 1-2, yellow 3-4, green 5-6, blue 7-8), the Wild Dares
9-16. The number points to a dare on the list chosen for the game (house rule `dares`):
`family`, `daredevil` and `show-off` ship with kabucli; `house-rules` plays your own 16 dares.

**Deal.** The dealer (p1 in the first round) deals 7 cards to each player and turns the next
card up as the first discard; the rest is the draw pile. The player after the dealer plays
first and play goes round in seat order. The first discard acts as if the dealer played it:
a Skip skips the first player; a Reverse turns play round and the dealer plays first; a Dare
hits the first player; a Wild Dare is named a color by the first player, who is then hit.

**A turn.** Play one card that matches the top discard by color, number or symbol (Skip on
Skip, Reverse on Reverse, Dare on Dare), or a Wild Dare, which is always playable and names
the color to play next. A Wild Dare on the pile is matched by the color named (or another
Wild Dare). Instead of playing, a player may always draw one card; if it can be played they
may play it at once, else (or if they keep it) the turn passes. When the draw pile runs out,
the discards under the top card are shuffled into a new draw pile; with nothing left to
draw, a draw simply passes the turn.

**Action cards.** Skip: the next player misses their turn. Reverse: play turns round (with
two players it acts as a Skip). Dare and Wild Dare: the next player is hit and either
*declines* (draws 2) or *tries* the dare; the table judges it *done* (nothing happens) or
*failed* (draws 2). With `dare_skips` (default) the player hit loses their turn either way;
without it they play their turn after the dare. A dare card played as one's last card hits
nobody with a dare: the next player simply draws 2, and those cards count in the score.

**UNO.** A player who plays their next-to-last card must call "uno" (type the card with
`uno`, or `uno` right after). Until the next move is made anybody may catch a player who
holds one card without having called: the player caught draws 2. A catch after the next
move is too late. When bots catch together the fastest wins the race (a recorded draw).

**Scoring.** The first player to play their last card wins the round. Cards left in hands
score their face value (0-9), 20 for Skip, Reverse and Dare, 50 for a Wild Dare. House rule
`scoring`: `winner` (default) gives the round winner the points of every other hand, and the
first to reach `target` (500) wins the match; `lowest` adds each player's own hand to their
score, and when anyone reaches the target the lowest score wins. The deal passes to the next
seat after each round. A round still going after `max_turns` turns ends without a winner and
scores nothing (so that every simulated game ends).

**At a real table** (`--physical`) the program knows every hand only by its size and learns
each card as it is played. It checks whose turn it is, that a card matches the top card and
color, that no more copies of a card show than the deck holds (counting the discards and what
a reshuffled pile must still hold), and the UNO window. At the end of a round each player
shows the cards left, and the program scores them.
"""

RULES_DOC += "\n**The dare lists shipped with kabucli** (house rule `dares`):\n" + "".join(
    f"\n*{name}*\n\n" + "".join(f"{i}. {dare}\n" for i, dare in enumerate(texts, 1))
    for name, texts in DARE_LISTS.items())

NOTATION_DOC = """\
Cards: R0-R9, Y0-Y9, G0-G9, B0-B9 (number cards), RS/YS/GS/BS (Skip), RR/YR/GR/BR (Reverse),
RD1 RD2 YD3 YD4 GD5 GD6 BD7 BD8 (Dares with their dare number), WD9-WD16 (Wild Dares).
Colors: red, yellow, green, blue (or R, Y, G, B). Case does not matter; a move may start with
the seat ('p2 R5'), and without one it is the move of the player whose turn it is.

  R5              play the red 5 (also 'play R5', 'p2 play R5')
  WD12 green      play Wild Dare #12 and name green
  B3 uno          play the blue 3 as the next-to-last card and call UNO
  draw            draw one card instead of playing (also 'd')
  GS              right after drawing: play the card just drawn (if it matches)
  keep            right after drawing: keep the card and end the turn
  red             name the color of a Wild Dare turned up as the first discard
  decline         hit by a dare: draw 2 instead
  try             hit by a dare: try it; then the table's verdict:
  done | failed   the dare was done (nothing more) or failed (draw 2)
  uno             call UNO late, before anybody catches you
  catch p3        catch p3 holding one card without a call ('p1 catch p3' names who caught)
  pass            let a missing UNO call go (a person among bots, so they may react)
  deal R5         at a real table: the card turned up as the first discard
  reshuffle       at a real table: the discards were shuffled into a new draw pile
  p2 shows R5-G7  at a real table, at the end of a round: the cards p2 has left
  undo            take back the last input

What the program records by itself:
  deal round 1 dealer p1 up R5 | p1 R1-G7-... | p2 ... | pile ...   seeded deal (pile top last)
  reshuffle B2-WD9-...          the new draw pile of a seeded game (size alone at a table)
  penalty p2 draws 2 declined   a penalty draw (declined, failed, uno, last)
  race p1=412 p3=87             reaction draws of bots catching together
  score round 2 winner p3 hands p1=12 p2=30 p3=0   points left in each hand
  end target p1=230 p2=512 p3=40 pot=0             the final scores
"""
