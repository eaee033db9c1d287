"""Refusals a referee at a real table meets that said why a move is wrong but not what to type
instead (probes CC and CA): each now says it, as the others do ('...: type 'deal' alone')."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_referee_words import run
from test_referee_words_typed import refusals

NAMES = ("--player", "Ann", "--player", "Bob", "--player", "Cat")

# a real Uno Dare table where p2 plays down to one card without calling UNO (p1 holds two)
P2_WITHOUT_UNO = ("deal R5\n" + "\n".join(f"R{k}" for k in (1, 1, 2, 2, 3, 3, 4, 4, 6, 6, 7, 7,
                                                             8, 8)) + "\nY8\np2 Y9")

# (game, the lines typed at a real table of Ann, Bob and Cat, the refusal of the last one)
CASES = [
    pytest.param("yatchaba", "deal\nguess 1 2 3\npass",
                 "p1 Ann is the guesser, and the guesser cannot pass: type 'bet' (1 chip)",
                 id="yatchaba-guesser-passes"),
    pytest.param("yatchaba", "deal\nguess 1 2 3\nbet 3",
                 "the next amount of the sequence is 1, not 3: type 'bet'",
                 id="yatchaba-bet-of-another-amount"),
    pytest.param("yatchaba", "deal 1b",
                 "the guesser lays 3 cards, not 1: type 'deal' alone, or name all three",
                 id="yatchaba-deal-of-one-card"),
    pytest.param("yatchaba", "deal\nguess 1 2 3\nbet\nbet\nbet\nstop\nreveal 1b 1r 8a\n"
                 "deal 1b 4a 5a",
                 "the hanafuda (48) deck has only 1 copy of 1b, and 1 already showed: type "
                 "'deal' alone, or name three cards not face up",
                 id="yatchaba-deal-of-a-card-face-up"),
    pytest.param("yatchaba", "deal\nguess 1 2 3\nbet\nbet\nbet\nstop\nreveal 1b 1r 8a\n"
                 "deal\nguess 4 5 6\nbet\nbet\nbet\nstop\nreveal 1b 4a 5a",
                 "the hanafuda (48) deck has only 1 copy of 1b, and 1 already showed: type "
                 "their months if a name is unsure ('reveal 1 4 5')",
                 id="yatchaba-reveal-of-a-card-face-up"),
    pytest.param("kabu-tsukuri", "deal 1 2 3",
                 "at a real table the cards are dealt face down: type 'deal' alone",
                 id="kabu-tsukuri-deal-with-cards"),
    pytest.param("kabu-tsukuri", "deal\nbet\nbet\nbet\np3 show 1-2-3",
                 "p2 Bob turns row 1 over next, not p3 Cat: type the row p2 Bob turns over, in "
                 "laid order (e.g. 'show 3-4-5')",
                 id="kabu-tsukuri-row-by-the-wrong-seat"),
    pytest.param("dare", "deal 1-7-5\n1-3-9\n4-9-10 6-8-9\npass\np2 show 2-3-4",
                 "p3 Cat shows next, not p2 Bob: type the three cards p3 Cat shows (e.g. "
                 "'show 2-3-4')",
                 id="dare-show-by-the-wrong-seat"),
    pytest.param("dare", "deal 1-7-5\npass\nshow 2-3-5",
                 "there is no showdown now (waiting for p3 Cat to lay sets matching 3); lay 0-3 "
                 "sets of three cards whose ones digit is 3 (e.g. '1-3-9 3-5-5'), or 'pass'",
                 id="dare-show-while-a-seat-lays"),
    # the hint's example sets add up to the reference of this deal (2), not always to 3
    pytest.param("dare", "deal 1-7-4\nshow 2-3-5",
                 "there is no showdown now (waiting for p2 Bob to lay sets matching 2); lay 0-3 "
                 "sets of three cards whose ones digit is 2 (e.g. '1-2-9 3-4-5'), or 'pass'",
                 id="dare-show-while-a-seat-lays-to-another-reference"),
    pytest.param("dare", "deal 1-7-5\n1-2-9",
                 "set 1-2-9 adds up to 12, ones digit 2, not the reference 3: type sets whose "
                 "ones digit is 3 (e.g. '1-3-9'), or 'pass'",
                 id="dare-set-of-another-sum"),
    # the example holds cards the deck may still hold: the field took every 1
    pytest.param("dare", "deal 1-1-1\n1-2-9",
                 "set 1-2-9 adds up to 12, ones digit 2, not the reference 3: type sets whose "
                 "ones digit is 3 (e.g. '3-5-5'), or 'pass'",
                 id="dare-set-of-another-sum-once-the-1s-are-out"),
    pytest.param("dare", "deal 1-7-5\n1-3-9 3-5-5 4-9-10 6-8-9",
                 "a hand of 9 cards holds at most 3 sets, not 4: type at most 3 (e.g. '1-3-9 "
                 "3-5-5 1-2-10'), or 'pass'",
                 id="dare-four-sets"),
    pytest.param("kazu-tori", "deal\nflip 3\np2 flip 4\np1 flip 5",
                 "p3 Cat flips next, not p1 Ann: type 'p3 flip CARD' with the card seen",
                 id="kazu-tori-flip-by-the-wrong-seat"),
    pytest.param("kazu-tori", "deal\nflip 3\ndeal 1-1-2",
                 "the cards were dealt already (waiting for claims on the 3 (said one: may not "
                 "be taken), or p2 Bob's flip saying two); the 3 (said one) may NOT be taken: "
                 "'pN claim' for the first hand on it; else p2 Bob flips saying two: 'p2 flip "
                 "CARD' with the card seen",
                 id="kazu-tori-deal-after-the-deal"),
    pytest.param("kazu-tori", "deal\np2 claim",
                 "there is no card to claim (p1 Ann flips next): type 'p1 flip CARD' with the "
                 "card seen",
                 id="kazu-tori-claim-before-a-flip"),
    pytest.param("kazu-tori", "deal\nflip 3\np2 claim\np2 claim",
                 "p2 Bob already claimed this 3, and a claim counts once: nothing more to type "
                 "for p2 Bob (waiting for claims on the 3 (said one: may not be taken), or p2 "
                 "Bob's flip saying two); the 3 (said one) may NOT be taken: 'pN claim' for the "
                 "first hand on it; else p2 Bob flips saying two: 'p2 flip CARD' with the card "
                 "seen",
                 id="kazu-tori-second-claim-on-a-card"),
    pytest.param("kazu-tori", "deal\nflip 3\np2 pass\np2 pass",
                 "p2 Bob already let this card go: nothing more to type for p2 Bob (waiting for "
                 "claims on the 3 (said one: may not be taken), or p2 Bob's flip saying two); "
                 "the 3 (said one) may NOT be taken: 'pN claim' for the first hand on it; else "
                 "p2 Bob flips saying two: 'p2 flip CARD' with the card seen",
                 id="kazu-tori-second-pass-on-a-card"),
    # a card that may be taken may still be claimed by a seat that let it go
    pytest.param("kazu-tori", "deal\nflip 1\np2 pass\np2 pass",
                 "p2 Bob already let this card go (waiting for claims on the 1 (said one: may be "
                 "taken), or p2 Bob's flip saying two); p2 Bob may still claim it: 'p2 claim'; "
                 "the 1 (said one) may be taken: 'pN claim' for the first hand on it; else p2 "
                 "Bob flips saying two: 'p2 flip CARD' with the card seen",
                 id="kazu-tori-second-pass-on-a-card-that-may-be-taken"),
    pytest.param("uno-dare", "deal R5\nR3\np3 catch p1",
                 "p1 Ann holds 7 cards, not one: nobody may be caught now",
                 id="uno-dare-catch-with-nobody-to-catch"),
    pytest.param("uno-dare", P2_WITHOUT_UNO + "\np3 catch p1",
                 "p1 Ann holds 2 cards, not one: p2 Bob is the one to catch ('catch p2')",
                 id="uno-dare-catch-of-the-wrong-seat"),
    pytest.param("uno-dare", P2_WITHOUT_UNO + "\np2 uno\np3 draw\np3 keep\np1 Y1\np2 Y2\n"
                 "p3 shows R1-R2",
                 "p1 Ann shows next, not p3 Cat: type the 1 card p1 Ann shows (e.g. 'p1 shows "
                 "R0')",
                 id="uno-dare-show-by-the-wrong-seat"),
    pytest.param("uno-dare", P2_WITHOUT_UNO + "\np2 uno\np3 draw\np3 keep\np1 Y1\np2 Y2\n"
                 "p1 shows R1-R2",
                 "p1 Ann holds 1 card, not 2: type the 1 card p1 Ann shows (e.g. 'p1 shows R0')",
                 id="uno-dare-show-of-the-wrong-count"),
    pytest.param("uno-dare", "deal R5\nR3 uno",
                 "UNO is called with the next-to-last card; p2 Bob holds 7: type 'p2 R3' "
                 "without 'uno'",
                 id="uno-dare-uno-with-another-card"),
    pytest.param("uno-dare", "deal R5\nWD12 red uno",
                 "UNO is called with the next-to-last card; p2 Bob holds 7: type 'p2 WD12 red' "
                 "without 'uno'",
                 id="uno-dare-uno-with-a-wild-dare"),
    pytest.param("uno-dare", "deal R5\np3 uno",
                 "there is no missing UNO call now (waiting for p2 Bob to play on R5 (red) or "
                 "draw); play a card on R5, color red (e.g. 'R0', 'WD9 red', add 'uno' with "
                 "your next-to-last card), or 'draw'",
                 id="uno-dare-uno-with-no-call-missing"),
    pytest.param("uno-dare", P2_WITHOUT_UNO + "\np2 uno\np3 pass",
                 "there is no missing UNO call now (waiting for p3 Cat to play on Y9 (yellow) or "
                 "draw); play a card on Y9, color yellow (e.g. 'Y0', 'WD9 yellow', add 'uno' with "
                 "your next-to-last card), or 'draw'",
                 id="uno-dare-pass-with-no-call-missing"),
    # while p2's missing UNO call may be caught anyone may act, so the rules, not the engine,
    # refuse a card played or a draw by a seat whose turn it is not
    pytest.param("uno-dare", P2_WITHOUT_UNO + "\np1 Y4",
                 "it is p3 Cat's turn, not p1 Ann's (round 1, turn 17): type the card p3 Cat "
                 "plays (e.g. 'p3 Y0') or 'p3 draw'",
                 id="uno-dare-card-by-the-wrong-seat"),
    pytest.param("uno-dare", P2_WITHOUT_UNO + "\np1 draw",
                 "it is p3 Cat's move, not p1 Ann's (round 1, turn 17): type the card p3 Cat "
                 "plays (e.g. 'p3 Y0') or 'p3 draw'",
                 id="uno-dare-draw-by-the-wrong-seat"),
]


@pytest.mark.parametrize(("game", "lines", "refusal"), CASES)
def test_a_refusal_at_a_real_table_says_what_to_type(game: str, lines: str,
                                                     refusal: str) -> None:
    res = run("play", game, "--physical", *NAMES, "--no-log", input=lines + "\nquit\n")
    assert res.exit_code == 0, res.output
    assert refusals(res.stdout) == [refusal], res.stdout[-1500:]


def test_a_claim_with_no_card_to_claim_past_max_flips_says_to_stop() -> None:
    """At a real table that reached max_flips no card is turned: a claim with none on the
    table is told to stop, not to type the next seat's flip (which is refused too)."""
    res = run("play", "kazu-tori", "--physical", *NAMES, "--rule", "max_flips=1", "--no-log",
              input="deal\nflip 1\np2 claim\np1 claim\nquit\n")
    assert res.exit_code == 0, res.output
    assert refusals(res.stdout) == ["there is no card to claim, and the game has reached "
                                    "max_flips=1: end it with 'stop'"], res.stdout[-1500:]


def test_a_scripts_refused_move_says_what_to_type_as_the_prompt_does(tmp_path: Path) -> None:
    """A move for later in a script ('keep' before any card was drawn) stopped the game
    saying only what the table waits for; the prompt's refusal adds what to type now, and so
    does the script's (probe DI)."""
    script = tmp_path / "moves.txt"
    script.write_text("deal R5\nkeep\n")
    res = run("play", "uno-dare", "--physical", *NAMES, "--no-log", "--script", str(script))
    assert res.exit_code == 1, res.output
    assert res.stderr.splitlines()[-1] == (
        f"error: {script}:2: 'keep': not now: waiting for p2 Bob to play on R5 (red) or draw; "
        "play a card on R5, color red (e.g. 'R0', 'WD9 red', add 'uno' with your next-to-last "
        "card), or 'draw'")
