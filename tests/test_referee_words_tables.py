"""The words a referee reads at a real Dare, Kazu-Tori or Yatchaba table with named players
(Ann, Bob, Cid, Dee), and in the replay and the page of its log: examples that can be typed
back, a seat typed as the table labels it, a prompt that fits 80 columns, what to type after a
move that is not due yet, who ends a match with the most chips."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from test_referee_words import flat, run  # the same runner (plain, 100 columns) and reader

NAMES = ("--player", "Ann", "--player", "Bob", "--player", "Cid", "--player", "Dee")


def kazu_tori(*more: str, input: str, log: Path | None = None) -> Any:
    where = ("--log", str(log)) if log is not None else ("--no-log",)
    return run("play", "kazu-tori", "--physical", *NAMES, *where, *more, input=input)


def test_a_refusal_quotes_its_examples_as_they_are_typed() -> None:
    """'Zizo' (a typo for Jizo) is refused with examples of moves; with named players they
    were rewritten as the table names seats ('p3 Cid flip 7'), which the prompt refuses."""
    res = kazu_tori("--script", "-", input="deal\n7\nZizo\n")
    assert res.exit_code == 1
    why = flat(res.stderr)
    assert "use 'flip', 'p3 flip 7', 'p2 claim', 'p2 pass' or 'stop'" in why, why
    assert "Cid flip" not in why and "Bob claim" not in why, why


def test_a_seat_may_be_typed_as_the_table_labels_it(tmp_path: Path) -> None:
    """The table labels seats 'p3 Cid': typed so ('p3 Cid claim') it is p3's move, as 'p3
    claim' and 'Cid claim' are; a seat with another player's name is still refused."""
    log = tmp_path / "k.kbl"
    res = kazu_tori("--script", "-", log=log, input="deal\np1 Ann flip 7\np2 Bob flip 3\n"
                    "p3 Cid claim\n")
    assert res.exit_code == 0, res.output
    lines = run("replay", str(log)).stdout
    assert "p1 turns 7, says one" in lines and "p3 claims: a card that may not be taken" in lines
    res = kazu_tori("--script", "-", input="deal\np1 Bob flip 7\n")
    assert res.exit_code == 1
    assert ("a move names one seat, not two (p1 Ann and p2 Bob): type 'p1 flip 7' or "
            "'p2 flip 7'") in res.stderr, res.stderr


def _prompts(stdout: str) -> list[str]:
    return [f"referee ({what}) > " for what in re.findall(r"referee \((.*?)\) > ", stdout)]


def test_the_kazu_tori_prompt_fits_80_columns() -> None:
    """With four named players every prompt of a deal, a turn and an open window fits an
    80-column line (a window's said 'claims on the Jizo (said three: may not be taken), or p4
    Dee's flip saying four', 86 with its frame), and the deal's reads as words, not 'p1 Ann
    10 p2 Bob 10 ...'."""
    res = kazu_tori(input="deal\n7\n3\nJizo\nAnn claim\n4\nquit\n")
    assert res.exit_code == 0, res.output
    prompts = _prompts(res.stdout)
    assert len(prompts) == 7, prompts
    assert all(len(p) <= 80 for p in prompts), [p for p in prompts if len(p) > 80]
    assert prompts[0] == "referee (the deal: 10 cards face down to each player) > ", prompts
    assert prompts[4] == ("referee (claim the Jizo (three: may not be taken), or p4 Dee flips "
                          "four) > "), prompts
    res = run("play", "kazu-tori", "--physical", "--players", "3", "--no-log", input="quit\n")
    assert "(the deal: 14 cards face down to p1, 13 to each other player)" in res.stdout


def test_a_move_not_due_yet_is_refused_with_what_to_type_now() -> None:
    """A flip typed before the piles are dealt, a guess before the cards are laid: the
    refusal says what is awaited and, as '?' would, what to type now."""
    out = flat(kazu_tori(input="flip 7\nquit\n").stdout)
    assert ("refused: waiting for the deal: 10 cards face down to each player, not for "
            "'p1 flip 7'; type 'deal' once each player has a face-down pile") in out, out
    res = run("play", "yatchaba", "--physical", *NAMES[:6], "--no-log",
              input="guess 1 1 8\nquit\n")
    out = flat(res.stdout)
    assert ("refused: waiting for p1 Ann to lay three cards face down, not for "
            "'p1 guess 1 1 8'; type 'deal' once p1 Ann has laid three cards face down") in out, out


def test_the_script_that_ends_says_where_it_was_read_and_whose_turn() -> None:
    res = run("play", "dare", "--physical", *NAMES[:4], "--no-log", "--script", "-",
              input="deal 2-2-2\n")
    assert res.exit_code == 0
    assert res.stderr.startswith("the script on standard input ended; the game waits for p2 "
                                 "Bob to lay sets matching 6"), res.stderr


DARE = "deal 1-7-5\np2 sets 1-3-9 3-5-5\np3 sets 4-4-5 7-7-9\npass\nshow 2-3-4\nshow 6-6-6\n" \
       "deal 2-2-2\np3 sets 1-6-9 3-4-9 7-9-10\n"


def test_the_end_of_a_match_says_who_has_the_most_chips(tmp_path: Path) -> None:
    """The final chips marked the leaders in color only: piped or with NO_COLOR nothing said
    who ended ahead. A tie names both."""
    log = tmp_path / "d.kbl"
    res = run("play", "dare", "--physical", *NAMES[:6], "--rule", "rounds=2", "--log",
              str(log), "--script", "-", input=DARE)
    assert res.exit_code == 0, res.output
    assert "tied for the most chips (51 each): p2 Bob, p3 Cid" in res.stdout, res.stdout
    assert "tied for the most chips (51 each): p2 Bob, p3 Cid" in run("replay", str(log)).stdout
    log = tmp_path / "y.kbl"
    res = run("play", "yatchaba", "--physical", *NAMES[:6], "--rule", "games=1", "--log",
              str(log), "--script", "-",
              input="deal\nguess 1 1 8\nbet\npass\npass\nreveal 1 1 8\n")
    assert res.exit_code == 0, res.output
    assert "most chips: p1 Ann (102)" in res.stdout, res.stdout
    # and Kabu-Tsukuri's, a seeded match replayed
    res = run("replay", str(Path(__file__).resolve().parent.parent / "replays" / "kabu-tsukuri"
                            / "3p-dealer-winner.kbl"))
    assert "most chips: p1 best (62)" in res.stdout.splitlines()[-3:], res.stdout[-300:]


def _page(tmp_path: Path, log: Path) -> dict[str, Any]:
    out = tmp_path / "page.html"
    res = run("replay", str(log), "--html", str(out))
    assert res.exit_code == 0, res.output
    return {"text": out.read_text()}


def test_the_page_names_a_seat_once_and_says_when_the_match_is_over(tmp_path: Path) -> None:
    """Yatchaba's 'p3: continue, another lap' was listed as 'p3 Cid: p3: continue'; the line
    above the table said 'waiting for nothing: the match is over' at the end, and 'waiting for
    p2 to bet 1' where the table names 'p2 Bob'."""
    log = tmp_path / "y.kbl"
    res = run("play", "yatchaba", "--physical", *NAMES[:6], "--rule", "games=1", "--log",
              str(log), "--script", "-",
              input="deal\nguess 1 1 8\nbet\nbet\nbet\ncontinue\nbet\npass\npass\nreveal 1 2 3\n"
                    "deal\nguess 2 2 2\nbet\npass\npass\nreveal 4 5 6\ndeal\nguess 3 3 3\n"
                    "bet\npass\npass\nreveal 7 8 9\n")
    assert res.exit_code == 0, res.output
    text = _page(tmp_path, log)["text"]
    assert "p3 Cid: continue, another lap" in text and "p3 Cid: p3:" not in text
    assert '"waiting":"the match is over"' in text and "waiting for nothing" not in text
    assert '"waiting":"waiting for p2 Bob to bet 2 or pass"' in text, re.findall(
        r'"waiting":"[^"]*"', text)


def test_the_kazu_tori_page_shows_no_pot(tmp_path: Path) -> None:
    """Kazu-Tori has no pot (each loser pays the winner), yet its page said 'pot 0'."""
    log = tmp_path / "k.kbl"
    res = kazu_tori("--script", "-", log=log, input="deal\n7\n3\nstop\n")
    assert res.exit_code == 0, res.output
    text = _page(tmp_path, log)["text"]
    pots = set(re.findall(r'"pot":(null|\d+)', text))
    assert pots == {"null"}, pots


def test_who_gets_the_table_cards_reads_as_counts_to_seats(tmp_path: Path) -> None:
    """What the Jizo's hand-out gives: 'cards to p1 1, p2 1' (the table) and 'to p1 1, p2 1'
    (the event) read as counts to seats ('1 to p1, 1 to p2'); a Jizo alone on the table said
    'cards to no other cards'."""
    log = tmp_path / "k.kbl"
    res = kazu_tori("--script", "-", log=log, input="deal\n7\n3\nJizo\n4\n")
    assert res.exit_code == 0, res.output
    table = flat(run("replay", str(log), "--at", "4").stdout)
    assert "if nobody takes it: the Jizo goes to p4; the other cards: 1 to p1, 1 to p2" in table
    lines = flat(run("replay", str(log)).stdout)
    assert ("the Jizo goes to p4; the other cards, most recent first: 1 to p1, 1 to p2; then "
            "p4 turns 4") in lines, lines
    log = tmp_path / "alone.kbl"
    res = kazu_tori("--script", "-", log=log, input="deal\nJizo\n")
    assert res.exit_code == 0, res.output
    table = flat(run("replay", str(log), "--at", "2").stdout)
    assert "if nobody takes it: the Jizo goes to p2; no other cards" in table, table


def test_a_name_nobody_has_is_said_with_the_players_names() -> None:
    """'Dan pass' at a table of Ann, Bob and Cid was refused as no Dare move, naming moves
    only: the referee who typed the wrong name is also told it is nobody's, and who plays."""
    res = run("play", "dare", "--physical", *NAMES[:6], "--no-log",
              input="deal 1-7-5\nDan pass\nquit\n")
    out = flat(res.stdout)
    assert ("'Dan' is not a Dare move: use sets like '1-3-9', 'pass', 'show 2-3-4' or 'deal "
            "1-7-5' (nor is 'Dan' a seat or a player's name: the players are p1 Ann, p2 Bob, "
            "p3 Cid)") in out, out
    res = kazu_tori("--script", "-", input="deal\n7\nZizo\n")  # not a name's place: as before
    assert "nor is" not in res.stderr, res.stderr


def test_a_match_with_no_pot_left_ends_on_who_has_the_most_chips() -> None:
    """The README's first command ends on its last line of words: an empty line stood for
    the pot left when none was (Dare, Yatchaba and Kabu-Tsukuri)."""
    res = run("play", "dare", "--seed", "7", "--bot", "all=best", "--no-log")
    assert res.stdout.endswith("\nmost chips: p3 best (58)\n"), res.stdout[-200:]


def test_a_move_word_or_command_in_a_names_place_is_not_called_a_name() -> None:
    """A line that starts with the game's own move word ('pass 1-2-3', Kazu-Tori's 'claim
    1') or a table command ('undo 1-2-3') was refused with its own error and also told that
    word is no seat or player's name, as if it had been typed for one."""
    res = run("play", "dare", "--physical", *NAMES[:6], "--no-log",
              input="deal 1-7-5\npass 1-2-3\nundo 1-2-3\nshow 1-2-3\nDan pass\nquit\n")
    out = flat(res.stdout)
    assert "'pass' takes nothing after it" in out, out
    for word in ("pass", "undo", "show"):
        assert f"nor is '{word}'" not in out, out
    assert "nor is 'Dan' a seat or a player's name" in out, out
    res = kazu_tori(input="deal\nclaim 1\nstop 1\nquit\n")
    out = flat(res.stdout)
    assert "'1' is not a seat" in out and "nor is" not in out, out


def test_a_move_that_names_two_seats_says_so_and_records_nothing(tmp_path: Path) -> None:
    """Two seats typed before one move ('p2 p3 claim', two hands on the card; 'Bob Ann claim';
    'p1 Bob flip 7') or one seat twice were refused as if the move after the first seat were
    no move at all: "'p3 claim' is not a Kazu-Tori move", of a move that is one. Each is
    refused saying it names two seats and what to type; nothing is recorded, and the claim
    typed next is the one that counts."""
    log = tmp_path / "k.kbl"
    res = kazu_tori("--script", "-", log=log, input="deal\n7\n")
    assert res.exit_code == 0, res.output
    for typed, seats, then in (
            ("p2 p3 claim", "p2 Bob and p3 Cid", "'p2 claim' or 'p3 claim'"),
            ("Bob Ann claim", "p2 Bob and p1 Ann", "'p2 claim' or 'p1 claim'"),
            ("p1 Bob flip 7", "p1 Ann and p2 Bob", "'p1 flip 7' or 'p2 flip 7'"),
            ("Bob p1 claim", "p2 Bob and p1 Ann", "'p2 claim' or 'p1 claim'")):
        res = run("resume", str(log), "--script", "-", input=f"{typed}\n")
        assert res.exit_code == 1, res.output
        why = flat(res.stderr)
        assert f"'{typed}': a move names one seat, not two ({seats}): type {then}" in why, why
        assert "is not a Kazu-Tori move" not in why, why
    res = run("resume", str(log), "--script", "-", input="p2 p2 claim\n")
    assert res.exit_code == 1, res.output
    assert ("'p2 p2 claim': a move names its seat once, not p2 Bob twice: type 'p2 claim'"
            in flat(res.stderr)), res.stderr
    res = run("resume", str(log), "--script", "-", input="p3 claim\n")
    assert res.exit_code == 0, res.output
    lines = run("replay", str(log)).stdout
    assert "p3 claims: a card that may not be taken" in lines, lines
    assert len(re.findall(r"p\d claims", lines)) == 1, lines  # (one claim recorded)


def test_a_deal_that_lists_some_hands_says_to_list_each_or_none() -> None:
    """A referee who lists the hand p1 showed ('deal 1-7-5 | p1 1-2-3-3-3-4-5-5-9') was told
    only 'each of the 3 players is dealt 9 cards'; it says now which hands are missing or
    short and what to type: each hand in seat order, '??' for a card nobody saw, or none. A
    deal typed so is played (nothing was recorded by the refusals)."""
    full = "p1 1-2-3-3-3-4-5-5-9 | p2 ??-??-??-??-??-??-??-??-?? | p3 ??-??-??-??-??-??-??-??-??"
    for typed, why in (
            ("deal 1-7-5 | p1 1-2-3-3-3-4-5-5-9",
             "the deal lists 1 hand, not 3: list each player's hand in seat order, p1 to p3, "
             "9 cards each ('??' for a card nobody saw), or none"),
            ("deal 1-7-5 | p1 1-2-3-3-3-4-5-5-9 | p2 ?? | p3 ??",
             "p2's hand in the deal has 1 card, not 9: list each player's hand in seat order, "
             "p1 to p3, 9 cards each ('??' for a card nobody saw), or none"),
            ("deal 1-7-5 |",
             "the deal lists 0 hands, not 3: list each player's hand in seat order, p1 to p3, "
             "9 cards each ('??' for a card nobody saw), or none")):
        res = run("play", "dare", "--physical", "--players", "3", "--no-log", "--script", "-",
                  input=f"{typed}\n")
        assert res.exit_code == 1, res.output
        assert f"'{typed}': {why}" in flat(res.stderr), res.stderr
    res = run("play", "dare", "--physical", "--players", "3", "--no-log",
              input=f"deal 1-7-5 | p1 1-2-3\ndeal 1-7-5 | {full}\n?\nquit\n")
    out = flat(res.stdout)
    assert "refused: the deal lists 1 hand, not 3" in out, out
    assert "round 1, dealer p1: field 1-7-5, reference 3" in out, out
    assert "p1 49 1 2 3 3 3 4 5 5 9 waiting" in out, out  # p1's hand, known, is drawn


def test_a_showdown_hand_mistyped_says_what_to_type() -> None:
    """'show 2-3' (a card left out), 'show' and 'show ??-??-??' were refused with 'a
    showdown hand is three named cards' only; now with how many were typed, or that the cards
    shown are face up, and an example to type. Nothing is recorded: the show typed next is
    the one played."""
    start = "deal 1-7-5\npass\np3 sets 1-3-9 3-5-5\npass\n"
    for typed, why in (
            ("show 2-3", "a showdown hand is three cards, not 2: type the three cards p3 "
                         "shows, e.g. 'show 2-3-4'"),
            ("show", "a showdown hand is three cards, not 0: type the three cards p3 shows, "
                     "e.g. 'show 2-3-4'"),
            ("show 2-3-4-5", "a showdown hand is three cards, not 4: type the three cards p3 "
                             "shows, e.g. 'show 2-3-4'"),
            ("show ??-??-??", "a showdown hand is shown face up: type the three cards p3 "
                              "shows, e.g. 'show 2-3-4'")):
        res = run("play", "dare", "--physical", "--players", "3", "--no-log", "--script", "-",
                  input=f"{start}{typed}\n")
        assert res.exit_code == 1, res.output
        assert f"'{typed}': {why}" in flat(res.stderr), res.stderr
    res = run("play", "dare", "--physical", "--players", "3", "--no-log", "-r", "rounds=1",
              "--script", "-", input=f"{start}show 2-3\nshow 2-3-4\n")
    assert res.exit_code == 1 and "'show 2-3': a showdown hand is three cards" in res.stderr
    res = run("play", "dare", "--physical", "--players", "3", "--no-log", "-r", "rounds=1",
              input=f"{start}show 2-3\nshow 2-3-4\n\n")
    out = flat(res.stdout)
    assert "refused: a showdown hand is three cards, not 2" in out, out
    assert "p3 shows 2-3-4: Kabu (9)" in out and "p3 wins the showdown" in out, out


def test_dare_the_last_round_s_result_names_no_next_dealer() -> None:
    """A Dare round's result says who deals next, but the last round's, after which nobody
    deals: it said 'p1 deals next' at the end of the match (probe CA)."""
    log = Path(__file__).resolve().parent.parent / "replays/dare/4p-nobody-qualifies.kbl"
    res = run("replay", str(log))
    assert res.exit_code == 0, res.output
    results = [line for line in res.stdout.splitlines() if re.search(r"\bround \d+: ", line)]
    assert len(results) >= 2, res.stdout
    assert all("deals next" in line for line in results[:-1]), results
    assert "deals next" not in results[-1], results
