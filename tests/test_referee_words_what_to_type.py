"""Refusals a referee at a real table meets that said why a move is wrong but not what to type
instead (probes CC and CA): each now says it, as the others do ('...: type 'deal' alone')."""

from __future__ import annotations

import pytest
from test_referee_words import run
from test_referee_words_typed import refusals

NAMES = ("--player", "Ann", "--player", "Bob", "--player", "Cat")

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
]


@pytest.mark.parametrize(("game", "lines", "refusal"), CASES)
def test_a_refusal_at_a_real_table_says_what_to_type(game: str, lines: str,
                                                     refusal: str) -> None:
    res = run("play", game, "--physical", *NAMES, "--no-log", input=lines + "\nquit\n")
    assert res.exit_code == 0, res.output
    assert refusals(res.stdout) == [refusal], res.stdout[-1500:]
