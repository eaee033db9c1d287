"""First use: the seats follow from --player and --bot, and a player's name may be typed
wherever a seat is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.errors import ParseError
from kabucli.log import SeatInfo, read_log
from kabucli.rules import build
from kabucli.session import Session, build_seats, start, typed_names

runner = CliRunner()
DARE = games.get("dare")
KT = games.get("kazu-tori")
YB = games.get("yatchaba")


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def seats_of(game: str, *args: str, players: int | None = None) -> list[tuple[str, str]]:
    """The (name, control) of each seat that ``--player``/``--bot`` options give."""
    names = [a.removeprefix("--player ") for a in args if a.startswith("--player ")]
    bots = [a.removeprefix("--bot ") for a in args if a.startswith("--bot ")]
    return [(s.name, s.control) for s in build_seats(games.get(game), players, names, bots)]


# -- how many seats, and who sits where --------------------------------------------------

def test_the_readme_example_seats_ann_and_two_bots(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "--player", "Ann", "--bot", "2=best", "--bot", "3=random",
              "--log", str(log), input="pass\n")
    assert res.exit_code == 0, res.stderr
    assert "p1 Ann" in res.stdout
    seats = read_log(log, games.event_types).header.seats
    assert [(s.name, s.control) for s in seats] == [
        ("Ann", "human"), ("best", "bot:best"), ("random", "bot:random")]


@pytest.mark.parametrize(("game", "args", "expected"), [
    # nothing names a seat, or fewer than the game needs: the game's usual number
    ("dare", ("--bot all=best",), [("best", "bot:best")] * 3),
    ("dare", ("--player Ann",), [("Ann", "human"), ("p2", "human"), ("p3", "human")]),
    ("yatchaba", ("--bot 1=smart",), [("smart", "bot:smart")] + [
        (f"p{i}", "human") for i in (2, 3, 4)]),
    # otherwise the highest seat named is the last
    ("dare", ("--player Ann", "--bot 2=best"), [("Ann", "human"), ("best", "bot:best")]),
    ("dare", ("--player 3=Bob",), [("p1", "human"), ("p2", "human"), ("Bob", "human")]),
    ("dare", ("--player 2=Bob", "--player Ann"), [("Ann", "human"), ("Bob", "human")]),
    ("kazu-tori", ("--bot 2=sharp", "--bot p5=random"), [
        ("p1", "human"), ("sharp", "bot:sharp"), ("p3", "human"), ("p4", "human"),
        ("random", "bot:random")]),
    ("yatchaba", ("--player Ann", "--bot 6=smart"), [("Ann", "human")] + [
        (f"p{i}", "human") for i in range(2, 6)] + [("smart", "bot:smart")]),
    # a name for a bot's seat names the bot; 'all' is every seat, a later --bot overrides
    ("dare", ("--player Ann", "--player Bob", "--bot all=random", "--bot 2=best"),
     [("Ann", "bot:random"), ("Bob", "bot:best")]),
])
def test_the_seats_follow_from_player_and_bot(game: str, args: tuple[str, ...],
                                              expected: list[tuple[str, str]]) -> None:
    assert seats_of(game, *args) == expected


def test_players_says_how_many_and_names_may_be_given_for_some_seats_only() -> None:
    assert seats_of("dare", "--player Ann", "--bot 3=best", players=4) == [
        ("Ann", "human"), ("p2", "human"), ("best", "bot:best"), ("p4", "human")]


@pytest.mark.parametrize(("args", "message"), [
    (("-n", "2", "--bot", "3=best"), "--bot '3=best': there is no seat 3 (--players 2)"),
    (("-n", "2", "-p", "Ann", "-p", "Bob", "-p", "Cy"),
     "--player 'Cy': there is no seat 3 (--players 2)"),
    (("--bot", "5=random"), "--bot '5=random': there is no seat 5 (Dare takes 2-4 players)"),
    (("-p", "x=Ann"), "--player 'x=Ann': 'x' is not a seat: use NAME or SEAT=NAME, e.g. 3=Bob"),
    (("-p", "1=Ann", "-p", "1=Bob"), "--player '1=Bob': seat 1 is named 'Ann' already"),
    (("-p", "Ann Lee"), "--player 'Ann Lee' (seat 1): a name is one word without spaces"),
    (("-p", "Ann", "-p", "a,b"), "--player 'a,b' (seat 2): a name is one word without"),
    # '#' starts a script's comment: a name with it could not be typed in a script
    (("-p", "Ann#1"), "--player 'Ann#1' (seat 1): a name is one word without spaces, ',', '|', "
                      "'=' or '#'"),
    (("-p", "P2"), "--player 'P2' (seat 1): a name like p2 would read as a seat"),
    # a name is read as typed lines are, full-width forms folded (typed_form): one that
    # folds into a seat, a space, '=' or '#' could not be typed as the name (all were taken)
    (("-p", "ｐ２"), "--player 'ｐ２' (seat 1): a name like p2 would read as a seat"),
    (("-p", "2＝山田"), "--player '2＝山田' (seat 1): a name is one word without spaces, ',', "
                       "'|', '=' or '#'"),
    (("-p", "山田＃1"), "--player '山田＃1' (seat 1): a name is one word without spaces"),
    # (the ideographic space was 'a name must be printable text, not empty')
    (("-p", "山田　太郎"), "--player '山田　太郎' (seat 1): a name is one word without spaces"),
    (("-p", "Ann", "-p", "ANN"), "--player 'Ann' (seat 1): seat 2 is called 'ANN' too; "
                                 "give each seat its own name"),
    (("-p", "best", "--bot", "2=best"), "--player 'best' (seat 1): seat 2 is called 'best' "
                                        "too"),
    # names typed alike once folded (full width, half-width katakana) were both taken, and
    # neither could then be typed for its seat (typed_names leaves a shared name out)
    (("-p", "Ann", "-p", "Ａｎｎ"), "--player 'Ann' (seat 1): seat 2 is called 'Ａｎｎ' too; "
                                  "give each seat its own name"),
    (("-p", "ﾀﾛｳ", "-p", "3=タロウ"), "--player '3=タロウ' (seat 3): seat 1 is called 'ﾀﾛｳ' too"),
    # seat numbers that are digits but not ASCII, or too long for a seat
    (("--bot", "²=best"), "--bot '²=best': '²' is not a seat (a number, pN or all)"),
    (("--bot", "9" * 5000 + "=best"), "is not a seat (a number, pN or all)"),
])
def test_seats_that_cannot_be_are_one_error_line(tmp_path: Path, monkeypatch: Any,
                                                 args: tuple[str, ...], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    res = run("play", "dare", *args, input="")
    assert res.exit_code == 1, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert message in lines[0]
    assert list(tmp_path.iterdir()) == []  # no log started


# -- a player's name typed in place of the seat ------------------------------------------

def session(game: Any, names: list[str], bots: list[str], seed: int | None = 3) -> Session:
    seats = build_seats(game, None, names, bots)
    sess = start(game, build(game.Rules, []), seats, seed, None, None)
    sess.run_bots()
    return sess


def test_a_name_stands_for_its_seat_in_any_case() -> None:
    sess = session(DARE, ["Ann", "Bob"], ["3=best"], seed=7)
    for line in ("Ann pass", "ann pass", "ANN   pass", "p1 pass"):
        assert DARE.notate(sess.parse_line(line)) == "p1 pass"
    assert DARE.notate(sess.parse_line("bob sets 1-3-9")) == "p2 sets 1-3-9"
    assert DARE.notate(sess.parse_line("pay Ann pot 1 ante")) == "pay p1 pot 1 ante"
    assert DARE.notate(sess.parse_line("result round 1 showdown ann,bob deals Bob")) == \
        "result round 1 showdown p1,p2 deals p2"


def test_a_name_stands_for_its_seat_as_written_or_folded() -> None:
    """A half-width name (ﾀﾛｳ) stands for its seat typed as written or in full width (タロウ),
    alone or after its seat, through Session.parse_line itself (the play loop folds a line
    before, a program driving a Session may not): the names are keyed folded, the words
    looked up folded too."""
    sess = session(DARE, ["ﾀﾛｳ", "ジョー"], ["3=best"], seed=7)
    for line in ("ﾀﾛｳ pass", "タロウ pass", "p1 ﾀﾛｳ pass", "p1 タロウ pass"):
        assert DARE.notate(sess.parse_line(line)) == "p1 pass", line
    assert DARE.notate(sess.parse_line("ジョー sets 1-3-9")) == "p2 sets 1-3-9"


def test_a_seat_labelled_with_its_own_name_in_any_case_is_that_seat_once() -> None:
    """'p1 ANN pass' (the seat and its name, as the table labels it, in another case) is p1's
    move; 'p2 Ann pass' names two seats and is refused saying so."""
    sess = session(DARE, ["Ann", "Bob"], ["3=best"], seed=7)
    for line in ("p1 Ann pass", "p1 ANN pass", "P1 ann pass"):
        assert DARE.notate(sess.parse_line(line)) == "p1 pass", line
    with pytest.raises(ParseError) as info:
        sess.parse_line("p2 Ann pass")
    assert str(info.value) == ("a move names one seat, not two (p2 and p1): type 'p2 pass' or "
                               "'p1 pass'")
    with pytest.raises(ParseError) as info:
        sess.parse_line("Ann ann pass")
    assert str(info.value) == "a move names its seat once, not p1 twice: type 'p1 pass'"


def test_a_name_joined_to_other_characters_is_not_read_as_its_seat() -> None:
    """A line given to Session.parse_line with a '#' left in it (the prompt and a script cut
    a '#' note off first): 'Ann#x' is one word, which is no name, and the refusal quotes it
    as typed. Its 'Ann' was read as p1 and the refusal quoted 'p1#x', a word nobody typed
    (probe EB's mutant N14)."""
    sess = session(DARE, ["Ann", "Bob"], ["3=best"], seed=7)
    for line in ("p1 Ann#x pass", "Ann#x pass"):
        with pytest.raises(ParseError) as info:
            sess.parse_line(line)
        assert "'Ann#x'" in str(info.value) and "p1#x" not in str(info.value), line
    assert DARE.notate(sess.parse_line("Ann pass")) == "p1 pass"


def test_a_name_of_more_than_one_word_stands_for_no_seat() -> None:
    """A seat named with a space (a bot program's kind with its arguments, a log's name)
    cannot be typed as one word: no name of it stands for the seat, not even its first word."""
    seats = [SeatInfo("Ann Lee"), SeatInfo("cmd:./bot --fast", "bot:cmd:./bot --fast"),
             SeatInfo("Bob")]
    assert typed_names(seats) == {"bob": 3}


def test_kazutori_claims_by_name_before_or_after_the_verb() -> None:
    sess = session(KT, ["Ann"], ["2=sharp", "3=random", "4=sharp"])
    sess.submit_line("Ann flip")
    for line in ("Ann claim", "claim Ann", "claim ann", "p1 claim", "claim"):
        assert KT.notate(sess.parse_line(line)) == "p1 claim"
    assert KT.notate(sess.parse_line("race ann=4 p3=2")) == "race p1=4 p3=2"


def test_a_word_of_the_notation_spelt_like_a_name_keeps_its_meaning() -> None:
    sess = session(YB, ["Ann", "Jan"], [], seed=None)  # Jan is seat 2 and a month
    guesser = sess.match.state.guesser
    assert YB.notate(sess.parse_line("guess jan jan aug")) == f"p{guesser} guess 1 1 8"
    assert YB.notate(sess.parse_line("Jan guess 3 5 9")) == "p2 guess 3 5 9"


def test_a_line_starting_with_a_name_is_refused_for_what_follows_it() -> None:
    sess = session(DARE, ["Ann"], ["2=best", "3=random"], seed=7)
    with pytest.raises(ParseError, match="'1-3' is not a set of three cards"):
        sess.parse_line("Ann sets 1-3")
    with pytest.raises(ParseError, match="'Cy' is not a Dare move"):
        sess.parse_line("Cy pass")


def test_only_names_one_seat_has_stand_for_a_seat() -> None:
    # two bots of one kind share a name, and p2 is the name of seat 2 already
    sess = session(KT, ["Ann"], ["3=sharp", "4=sharp"])
    sess.submit_line("flip")
    with pytest.raises(ParseError, match="'sharp' is not a seat"):
        sess.parse_line("claim sharp")
    assert KT.notate(sess.parse_line("claim p2")) == "p2 claim"


def test_a_script_may_name_the_players(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("ann pass  # Ann lays nothing\n" * 3)
    log = tmp_path / "g.kbl"
    res = run("play", "dare", "--seed", "7", "-p", "Ann", "-b", "2=best", "-b", "3=random",
              "--script", str(script), "--log", str(log))
    assert res.exit_code == 0, res.stderr
    lays = [e for e in read_log(log, games.event_types).events
            if DARE.notate(e) == "p1 pass"]
    assert len(lays) == 3


def test_help_at_the_prompt_says_which_names_may_be_typed() -> None:
    # (two people at one screen: Enter first passes it to the one who plays first)
    res = run("play", "dare", "--seed", "7", "-p", "Ann", "-p", "3=Cy", "-b", "2=best",
              "--no-log", input="\nhelp\n")
    assert res.exit_code == 0, res.stderr
    assert "a name may be typed in place of its seat: Ann for p1, best for p2, Cy for p3" \
        in res.stdout


# -- the seat of a --bot or --player option (probe EN: mutants of the option reading) ----

@pytest.mark.parametrize(("players", "names", "bots", "message"), [
    # seat 0 is no seat: 'p0' and '0' are refused, not taken as a seat nobody sits in
    (None, [], ["0=best"], "--bot '0=best': '0' is not a seat (a number, pN or all)"),
    (None, [], ["p0=best"], "--bot 'p0=best': 'p0' is not a seat (a number, pN or all)"),
    (None, ["0=Ann"], [], "--player '0=Ann': '0' is not a seat: use NAME or SEAT=NAME"),
    # a --bot without a kind says what the option looks like
    (None, [], ["2="], "--bot '2=' should look like SEAT=KIND, e.g. 2=random"),
    (None, [], ["2=  "], "--bot '2=  ' should look like SEAT=KIND, e.g. 2=random"),
    # --players outside the game's range, above as below
    (5, [], [], "Dare takes 2-4 players, not 5"),
    (1, [], [], "Dare takes 2-4 players, not 1"),
])
def test_a_seat_option_that_names_no_seat_is_refused(players: int | None, names: list[str],
                                                     bots: list[str], message: str) -> None:
    with pytest.raises(ParseError) as got:
        build_seats(DARE, players, names, bots)
    assert message in str(got.value)


def test_star_is_every_seat_as_all_is() -> None:
    assert seats_of("dare", "--bot *=random") == [("random", "bot:random")] * 3
    assert seats_of("kazu-tori", "--bot *=random", "--bot p2=sharp", players=4) == [
        ("random", "bot:random"), ("sharp", "bot:sharp"), ("random", "bot:random"),
        ("random", "bot:random")]
