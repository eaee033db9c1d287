"""What a referee at a real Uno Dare, Kabu-Tsukuri or Yatchaba table is told back when a line
is typed as a tired person types it: a move before the deal, a card spelt with its color's
word, a word the game does not know, a bet of one chip."""

from __future__ import annotations

import pytest
from test_referee_words import flat, run  # the same runner (plain, 100 columns) and reader

from kabucli import games
from kabucli.prompt import MoveCompleter
from kabucli.rules import build
from kabucli.session import build_seats, start

NAMES = ("--player", "Ann", "--player", "Bob", "--player", "Cat")


def refusals(stdout: str) -> list[str]:
    """The refusals of a session, one per line, words only."""
    return [flat(part.split("\n")[0]) for part in flat_lines(stdout).split("refused: ")[1:]]


def flat_lines(stdout: str) -> str:
    """The session's text with each refusal joined back onto one line (a long one wraps)."""
    out: list[str] = []
    for line in stdout.splitlines():
        if out and out[-1].startswith("refused: ") and line[:1] == " ":
            out[-1] += line
        else:
            out.append(line)
    return "\n".join(out)


def test_an_uno_dare_move_before_the_first_deal_names_a_seat_of_the_table() -> None:
    """'R5', 'draw' or 'uno' typed before the card is turned up were refused quoting 'p0 play
    R5', 'p0 draw', 'p0 uno': there is no seat p0. They name p2, who plays first once the
    dealer p1 turns a card up (as Kazu-Tori names p1 before its deal)."""
    res = run("play", "uno-dare", "--physical", *NAMES, "--no-log",
              input="R5\ndraw\nuno\nquit\n")
    assert res.exit_code == 0, res.output
    said = refusals(res.stdout)
    assert len(said) == 3, said
    assert "p0" not in " ".join(said), said
    for quoted, why in zip(("'p2 play R5'", "'p2 draw'", "'p2 uno'"), said, strict=True):
        assert why.startswith(f"waiting for the deal of round 1 by p1 Ann, not for {quoted}; "
                              "type the card turned up"), why


def test_an_uno_dare_line_that_starts_with_a_color_word_is_told_what_a_color_word_does() -> None:
    """'red pass' and 'red 5' were refused as "'red' is not an Uno Dare move" (it is one: it
    names the color of a Wild Dare turned up first), 'red pass' adding that 'red' is nobody's
    name. The refusal says what a color word does, that nothing follows it, and for 'red 5'
    (a card spelt with its color's word) the one word to type."""
    res = run("play", "uno-dare", "--physical", *NAMES, "--no-log",
              input="deal R5\nred pass\nred 5\nBlue skip\ng 7\nquit\n")
    assert res.exit_code == 0, res.output
    said = refusals(res.stdout)
    assert len(said) == 4, said
    for why in said:
        assert "is not an Uno Dare move" not in why and "nor is" not in why, why
    assert said[0] == ("a color word typed alone names the color of a Wild Dare turned up "
                       "first; nothing follows it (not 'pass')"), said[0]
    assert said[1] == "a card is typed as one word: 'R5' for 'red 5'", said[1]
    assert said[2] == "a card is typed as one word: 'BS' for 'Blue skip'", said[2]
    assert said[3] == "a card is typed as one word: 'G7' for 'g 7'", said[3]
    # with a Wild Dare turned up, a color word alone still names its color
    res = run("play", "uno-dare", "--physical", *NAMES, "--no-log",
              input="deal WD9\nred pass\nred\nquit\n")
    assert refusals(res.stdout) == ["a color word typed alone names the color of a Wild Dare "
                                    "turned up first; nothing follows it (not 'pass')"]
    assert "2 p2 Bob p2 names red" in flat(res.stdout), flat(res.stdout)


def test_an_uno_dare_color_letter_typed_as_a_seat_is_told_it_is_no_seat() -> None:
    """'B draw' (a seat named B, as a table of A, B, C might call it) was answered only that a
    color word names a Wild Dare's color: the refusal now says that B is blue's letter, not a
    seat, and how seats are named."""
    res = run("play", "uno-dare", "--physical", *NAMES, "--no-log",
              input="deal R5\nB draw\ny keep\nquit\n")
    assert refusals(res.stdout) == [
        "'B' is blue's letter, not a seat (seats are p1 Ann to p3 Cat, or the players' names); "
        "typed "
        "alone it names the color of a Wild Dare turned up first, with nothing after it (not "
        "'draw')",
        "'y' is yellow's letter, not a seat (seats are p1 Ann to p3 Cat, or the players' "
        "names); typed "
        "alone it names the color of a Wild Dare turned up first, with nothing after it (not "
        "'keep')"]


def test_a_yatchaba_bet_of_one_chip_is_said_in_the_singular() -> None:
    """The guesser's first bet was explained as "'bet' puts 1 chips in the pot"."""
    res = run("play", "yatchaba", "--physical", *NAMES, "--no-log",
              input="deal\n1 2 3\nguess 4 5 6\nbet\nBob guess 4 5 6\nquit\n")
    assert res.exit_code == 0, res.output
    said = refusals(res.stdout)
    assert len(said) == 2, said
    assert said[0] == ("waiting for p1 Ann to bet 1, not for 'p1 guess 4 5 6'; 'bet' puts 1 "
                       "chip in the pot (the guesser cannot pass)"), said
    assert said[1] == ("waiting for p2 Bob to bet 2 or pass, not for 'p2 guess 4 5 6'; 'bet' "
                       "puts 2 chips in the pot; 'pass' puts in 1 and ends your betting (0 of "
                       "2 passes used this game)"), said


def test_a_word_kabu_tsukuri_does_not_know_is_answered_with_what_a_real_table_types() -> None:
    """At a real table a mistyped word ('bte', 'Cta bets') was answered 'lay rows like
    '1-2-3 4-5-6 7-8-9 aside 12', or 'bet', 'show 3-4-5', 'best'': nobody lays rows there and
    'best' answers only in a seeded game. It names the referee's moves. A seeded game's
    refusal named 'bet' and 'show 3-4-5' too, which only a real table types (the program bets
    and turns the rows over there: 'bet' is refused); it names the rows a player lays, as
    that hand's size has them, and 'best'."""
    res = run("play", "kabu-tsukuri", "--physical", *NAMES, "--no-log",
              input="deal\nbte\nCta bets\nquit\n")
    assert res.exit_code == 0, res.output
    said = refusals(res.stdout)
    assert said == ["'bte' is not a Kabu-Tsukuri move: at a real table type 'deal', 'bet' or "
                    "'show 3-4-5'",
                    "'Cta' is not a Kabu-Tsukuri move: at a real table type 'deal', 'bet' or "
                    "'show 3-4-5' (nor is 'Cta' a seat or a player's name: the players are p1 "
                    "Ann, p2 Bob, p3 Cat)"], said
    res = run("play", "kabu-tsukuri", "--seed", "1", "--player", "Ann", "--bot", "2=best",
              "--no-log", input="bte\nquit\n")
    assert refusals(res.stdout) == ["'bte' is not a Kabu-Tsukuri move: lay your rows like "
                                    "'1-2-3 4-5-6 7-8-9 aside 12' (at the play prompt, 'best' "
                                    "asks the solver)"]
    res = run("play", "kabu-tsukuri", "--seed", "1", "--players", "5", "--player", "Ann",
              *(f"--bot={i}=best" for i in range(2, 6)), "--no-log", input="bte\nquit\n")
    assert refusals(res.stdout) == ["'bte' is not a Kabu-Tsukuri move: lay your rows like "
                                    "'1-2-3 4-5-6 7-8-9' (at the play prompt, 'best' asks the "
                                    "solver)"], res.output[-800:]


def test_an_uno_dare_reshuffle_of_one_card_is_said_in_the_singular() -> None:
    """At a real table whose draw pile ran out with one card under the top one, the prompt
    waited for 'the reshuffle of 1 discards into a new draw pile'."""
    lines = "deal R5\n" + "draw\nkeep\n" * 93 + "draw\nR6\n"  # the pile empty, then one card
    res = run("play", "uno-dare", "--physical", "--players", "2", "--no-log",
              input=lines + "quit\n")
    assert res.exit_code == 0, res.output
    assert "referee (the reshuffle of 1 discard into a new draw pile) >" in res.stdout, \
        res.stdout[-600:]


def test_kabu_tsukuri_help_at_a_real_table_shows_what_the_referee_types() -> None:
    """'help' at a real table listed the rows a player lays ('1-2-3 4-5-6 7-8-9 aside 12',
    'p2 rows ...') and 'best', which a real table never types ('best' there only says it
    answers in a seeded game). It shows the referee's moves; a seeded game's help still shows
    the whole notation page and 'best'."""
    res = run("play", "kabu-tsukuri", "--physical", *NAMES, "--no-log",
              input="help\nquit\n")
    assert res.exit_code == 0, res.output
    shown = res.stdout
    for word in ("| `deal`", "| `bet`, `p3 bets`", "| `show 5-6-7`", "| `undo`"):
        assert word in shown, shown
    assert "aside" not in shown and "rows 1-2-3" not in shown, shown
    assert "best" not in shown.replace("'best'", ""), shown  # neither the row nor the command
    # the program's own events follow, the seeded game's deal, stakes and turned rows said to
    # be a seeded game's (they were listed as "A seeded game's own events", result and end too)
    flat_shown = " ".join(shown.split())
    assert ("The program's own events print, and parse back, as (the first three in a seeded "
            "game only: at a real table the referee types the deal, each bet and each row):"
            ) in flat_shown, flat_shown
    page = games.notation("kabu-tsukuri")
    res = run("play", "kabu-tsukuri", "--seed", "1", "--player", "Ann", "--bot", "2=best",
              "--no-log", input="help\nquit\n")
    assert res.exit_code == 0, res.output
    assert page in res.stdout  # unchanged: the whole page, then the commands with 'best'
    assert "  best  the solver's three best arrangements" in res.stdout, res.stdout


def test_tab_at_a_real_kabu_tsukuri_table_does_not_offer_best() -> None:
    g = games.get("kabu-tsukuri")
    real = start(g, build(g.Rules, []), build_seats(g, None, ["Ann", "Bob"], []), None,
                 None, None)
    assert "best" not in [w for w, _ in MoveCompleter(real).words("")]
    seeded = start(g, build(g.Rules, []), build_seats(g, None, ["Ann", "Bob"], []), 1,
                   None, None)
    assert "best" in [w for w, _ in MoveCompleter(seeded).words("b")]


def test_a_yatchaba_empty_line_is_answered_with_what_the_phase_waits_for() -> None:
    """An empty line was answered "type 'guess 1 1 8', 'bet', 'pass', 'continue' or 'stop'"
    whatever the table waited for (a deal, a bet). It says what is typed now, as
    Kabu-Tsukuri's does."""
    res = run("play", "yatchaba", "--physical", *NAMES, "--no-log",
              input="\ndeal\n\n1 2 3\n\nbet\n\nbet\npass\n\nquit\n")
    assert res.exit_code == 0, res.output
    said = refusals(res.stdout)
    assert said == [
        "empty move: type 'deal' once p1 Ann has laid three cards face down",
        "empty move: name three months, repeats allowed (e.g. 'guess 1 1 8' or 'guess jan jan "
        "aug'); best guess Jan Feb Mar: 4/1081 (0.370%, 1 in 270) and 219 more as good",
        "empty move: 'bet' puts 1 chip in the pot (the guesser cannot pass)",
        "empty move: 'bet' puts 2 chips in the pot; 'pass' puts in 1 and ends your betting (0 "
        "of 2 passes used this game)",
        "empty move: 'continue' for another lap (next amount 3) or 'stop' to turn the cards "
        "over"], said


def test_a_catch_or_claim_of_a_misspelt_name_names_the_players() -> None:
    """'catch Cta' (Uno Dare) and 'claim Cta' (Kazu-Tori) were refused as "'Cta' is not a
    seat: type 'catch p3'", though a player's name may be typed there too; the refusal names
    the players, as it does when such a word starts the line ('Cta pass')."""
    res = run("play", "uno-dare", "--physical", *NAMES, "--no-log",
              input="deal R5\ncatch Cta\nquit\n")
    assert res.exit_code == 0, res.output
    assert refusals(res.stdout) == ["'Cta' is not a seat: type 'catch p3' (the players are "
                                    "p1 Ann, p2 Bob, p3 Cat)"], res.stdout
    res = run("play", "kazu-tori", "--physical", *NAMES, "--no-log",
              input="deal\nclaim Cta\nquit\n")
    assert res.exit_code == 0, res.output
    assert refusals(res.stdout) == ["'Cta' is not a seat: type 'claim p2' (the players are "
                                    "p1 Ann, p2 Bob, p3 Cat)"], res.stdout


def test_the_catch_a_refusal_tells_to_type_names_a_seat_of_a_two_player_table() -> None:
    """With two players 'catch Cta' was told "type 'catch p3' (the players are p1 Ann, p2
    Bob)", and 'catch p3' is then refused: there is no seat p3."""
    res = run("play", "uno-dare", "--physical", "--player", "Ann", "--player", "Bob",
              "--no-log", input="deal R5\ncatch Cta\ncatch p2\nquit\n")
    assert res.exit_code == 0, res.output
    said = refusals(res.stdout)
    assert said[0] == ("'Cta' is not a seat: type 'catch p2' (the players are p1 Ann, "
                       "p2 Bob)"), res.stdout
    assert all("no seat" not in line for line in said), said  # (what it told to type)


def test_a_kabu_tsukuri_bet_with_an_amount_says_the_bet_in_the_singular_or_plural() -> None:
    """'bet 2' was refused as "the bet is 1 chip(s) by the house rules"."""
    said = []
    for bet in ("1", "2"):
        res = run("play", "kabu-tsukuri", "--physical", *NAMES, "--rule", f"bet={bet}",
                  "--no-log", input="deal\nbet 2\nquit\n")
        assert res.exit_code == 0, res.output
        said += refusals(res.stdout)
    assert said == ["'bet' takes nothing after it: the bet is 1 chip by the house rules",
                    "'bet' takes nothing after it: the bet is 2 chips by the house rules"], said


def test_yatchaba_passes_beyond_the_limit_are_said_as_such() -> None:
    """With pass_limit=0 a pass was logged as 'pass 1 of 0 in this game' (and a third one
    past a limit of 2 as 'pass 3 of 2'), the prompt waited for 'p2 to bet 2 or pass (1 of 0
    passes used)' and the hint told a seat 'you have passed 0 times of 0 this game: another
    pass loses your turn'. They say the pass is beyond the limit, with the same counts."""
    res = run("play", "yatchaba", "--physical", *NAMES, "--rule", "pass_limit=0", "--no-log",
              input="deal\n1 2 3\nbet\n\npass\nbet\nstop\nreveal 4 5 6\n"
                    "deal\n1 2 3\nbet\npass\n\nquit\n")
    assert res.exit_code == 0, res.output
    text = flat(res.stdout)
    assert "1 of 0" not in text and "0 of 0" not in text and "0 times" not in text, text
    assert ("p2 passes (1 chip), pass 1 in this game, beyond the limit of 0: no longer a "
            "guesser in this game") in text, text
    assert "p1 passes (1 chip), pass 1 in this game, beyond the limit of 0 " in text, text
    assert "p2 Bob to bet 2 or pass (1 pass used, the limit is 0)" in text, text
    assert refusals(res.stdout) == [
        "empty move: 'bet' puts 2 chips in the pot; 'pass' puts in 1 and ends your betting "
        "(no pass is free this game: a pass loses your turn as guesser)",
        "empty move: 'bet' puts 2 chips in the pot; 'pass' puts in 1 and ends your betting "
        "(1 pass used this game, the limit is 0)"], refusals(res.stdout)


def _refused_at_a_real_table(game: str, players: tuple[str, ...] | list[str],
                             lines: str) -> list[str]:
    """The refusals a real table of ``game`` answers ``lines`` with (quit at the end)."""
    res = run("play", game, "--physical", *players, "--no-log", input=lines + "quit\n")
    assert res.exit_code == 0, res.output
    return refusals(res.stdout)


def test_uno_dare_s_fixed_examples_name_a_seat_of_a_two_player_table() -> None:
    """The empty line's answer, a catch of nobody and a word that is no move said 'catch p3'
    at a table of two, where there is no p3 (found by probe BC); they say 'catch p2' there,
    'catch p3' at three or more."""
    two = ["--player", "Ann", "--player", "Bob"]
    assert _refused_at_a_real_table("uno-dare", two, "deal R5\n\ncatch\nfrob\n") == [
        "empty move: type a card like 'R5', 'draw', 'decline', 'uno' or 'catch p2'",
        "a catch names who is caught: 'catch p2' (or 'p1 catch p2')",
        "'frob' is not an Uno Dare move: type a card like 'R5', 'WD12 red', 'draw', 'keep', "
        "'decline', 'try', 'uno' or 'catch p2'"]
    said = _refused_at_a_real_table("uno-dare", NAMES, "deal R5\n\ncatch\n")
    assert len(said) == 2 and all("'catch p3'" in line and "p2" not in line for line in said)


def test_a_word_yatchaba_does_not_know_is_answered_with_what_the_phase_waits_for() -> None:
    """A mistyped word listed every move of the game, 'deal' and 'reveal 1 1 8' among them,
    whatever the table waited for (left by probe BA); it now says what is typed now, as an
    empty line's answer does."""
    lines = "frob\ndeal\n1 2 3\nbte\nbet\nbet\nbte\n"
    assert _refused_at_a_real_table("yatchaba", NAMES, lines) == [
        "'frob' is not a Yatchaba move: type 'deal' once p1 Ann has laid three cards face down",
        "'bte' is not a Yatchaba move: 'bet' puts 1 chip in the pot (the guesser cannot pass)",
        "'bte' is not a Yatchaba move: 'bet' puts 3 chips in the pot; 'pass' puts in 1 and "
        "ends your betting (0 of 2 passes used this game)"]


@pytest.mark.parametrize(("game", "lines", "said"), [
    ("yatchaba", "bet\ndeal\n1 2 3\nCat bet\n", [
        "nobody may bet now: waiting for p1 Ann to lay three cards face down; type 'deal' once "
        "p1 Ann has laid three cards face down",
        "it is not p3 Cat's turn (waiting for p1 Ann: p1 Ann to bet 1); 'bet' puts 1 chip in "
        "the pot (the guesser cannot pass)"]),
    ("kabu-tsukuri", "show 1-2-3\ndeal\np3 bets\n", [
        "no row is turned over now (waiting for the deal of hand 1 by p1 Ann); type 'deal' "
        "once the cards are dealt",
        "it is not p3 Cat's turn (waiting for p2 Bob: p2 Bob's bet on row 1); type 'bet' when "
        "p2 Bob has put the bet of row 1 in the pot"]),
])
def test_a_refusal_that_says_what_the_table_waits_for_says_what_to_type_too(
        game: str, lines: str, said: list[str]) -> None:
    """A move typed before its time was refused with what to type only when the refusal read
    'waiting for X, not for Y'. In the other words that say the same ('it is not p3's turn
    (waiting for p2: ...)', 'nobody may bet now: waiting for ...', 'no row is turned over now
    (waiting for the deal ...)') the referee was told what the table waits for, not what to
    type for it (probe CC)."""
    res = run("play", game, "--physical", *NAMES, "--no-log", input=lines + "quit\n")
    assert refusals(res.stdout) == said, res.stdout


def test_uno_dare_refuses_a_card_while_a_dare_waits_saying_what_to_type() -> None:
    """The same in Uno Dare's words ('nobody plays a card now: waiting for p3, hit by dare
    ...'), which end with what the player hit types (probe CC)."""
    res = run("play", "uno-dare", "--physical", *NAMES, "--no-log",
              input="deal G5\nGD5\nR7\ndraw\nquit\n")
    said = refusals(res.stdout)
    assert len(said) == 2, said
    assert said[0].startswith("nobody plays a card now: waiting for p3 Cat, hit by dare #5, "
                              "to try it or decline (draw 2); hit by dare #5: "), said
    assert said[1].startswith("not now: waiting for p3 Cat, hit by dare #5, "), said
    assert all(s.endswith("- 'try' it or 'decline' (draw 2)") for s in said), said
