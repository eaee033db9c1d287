"""Several people at one screen (a hot seat): before a hand is drawn for another person than
the one who last had the screen, the screen is cleared and passed on. Only in a seeded game
(the program holds the cards) with more than one person, and only where one person may see
what another may not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.log import SeatInfo
from kabucli.rules import build
from kabucli.session import Session, start

runner = CliRunner()
CLEAR = "\x1b[H\x1b[2J\x1b[3J"
# Dare, seed 5, two people: p2 plays first, then p1 (round 1, reference 8).
TWO_PEOPLE = ("play", "dare", "--seed", "5", "--players", "2", "--no-log")
P1_HAND = "4 5 6 7 8 8 9 9 10"
P2_HAND = "1 1 2 2 3 4 9 10 10"
PASS_TO = "pass the screen to"


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env=env)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


def session(name: str, controls: list[str], seed: int | None = 3) -> Session:
    g = games.get(name)
    seats = [SeatInfo(f"s{i}", c) for i, c in enumerate(controls, start=1)]
    sess = start(g, build(g.Rules, []), seats, seed, None, None)
    sess.run_bots()
    return sess


def test_the_screen_is_passed_before_another_persons_hand_is_drawn() -> None:
    res = run(*TWO_PEOPLE, input="\npass\n\nquit\n")
    assert res.exit_code == 0, res.output
    out = res.stdout
    # nobody is known to have the screen at the start: p2, who plays first, is asked for
    first = out.index(f"{PASS_TO} p2, then press Enter")
    assert first < out.index(P2_HAND)
    # after p2's move, the screen is passed to p1 before p1's hand is drawn
    after = out.index("p2 lays no set")
    second = out.index(f"{PASS_TO} p1, then press Enter")
    assert after < second < out.index(P1_HAND)
    assert P1_HAND not in out[:second] and P2_HAND not in out[second:]
    assert out.count(PASS_TO) == 2


def test_at_a_terminal_the_last_hand_is_cleared_and_what_was_missed_drawn_again() -> None:
    env = {"TTY_COMPATIBLE": "1", "TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "100"}
    res = run(*TWO_PEOPLE, input="\npass\n\nquit\n", env=env)
    assert res.exit_code == 0, res.output
    screens = res.stdout.split(CLEAR)
    assert len(screens) == 3  # before the first hand-off, p2's screen, p1's screen
    assert P1_HAND not in screens[0] and P2_HAND not in screens[0]
    assert P2_HAND in screens[1] and P1_HAND not in screens[1]
    assert P1_HAND in screens[2] and P2_HAND not in screens[2]
    # p1 never had the screen: every event so far is drawn again for them, then the table
    p1_screen = screens[2]
    assert p1_screen.index("round 1, dealer p1") < p1_screen.index("p2 lays no set") \
        < p1_screen.index(P1_HAND)


def test_only_enter_passes_the_screen_and_quit_leaves(tmp_path: Path) -> None:
    log = tmp_path / "g.kbl"
    res = run(*TWO_PEOPLE[:-1], "--log", str(log), input="pass\n\nquit\n")
    assert res.exit_code == 0, res.output
    assert "press Enter once p2 has the screen, or type quit (not 'pass')" in res.stdout
    assert P2_HAND in res.stdout  # then Enter passed it, and p2 quit at the prompt
    res = run(*TWO_PEOPLE, input="quit\n")
    assert res.exit_code == 0 and P2_HAND not in res.stdout
    assert "left the game" in res.output
    res = run(*TWO_PEOPLE, input="")  # input ends at the hand-off
    assert res.exit_code == 0 and "input ended" in res.output


def resumed_screens(tmp_path: Path, typed: str) -> list[str]:
    """Two people play Dare hot seat, typing ``typed`` (quit at the last hand-off), and the
    game is resumed at a terminal where the next person quits at once: the resumed run's
    screens, split where the screen is cleared."""
    log = tmp_path / "g.kbl"
    res = run(*TWO_PEOPLE[:-1], "--log", str(log), input=typed)
    assert res.exit_code == 0 and "left the game" in res.output, res.output
    env = {"TTY_COMPATIBLE": "1", "TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "100"}
    res = run("resume", str(log), input="\nquit\n", env=env)
    assert res.exit_code == 0, res.output
    return res.stdout.split(CLEAR)


def test_a_resumed_hot_seat_draws_again_what_the_person_given_the_screen_missed(
        tmp_path: Path) -> None:
    # p2 passes, the screen goes to p1, who quits at the hand-off: p1 never saw p2's move.
    # On resume, once p1 has the screen, that move is drawn for p1, as it would have been
    # had the game gone on (test above), before p1's hand.
    screens = resumed_screens(tmp_path, "\npass\nquit\n")
    assert len(screens) == 2 and P1_HAND not in screens[0]
    p1_screen = screens[1]
    assert f"{PASS_TO} p1" in p1_screen
    assert p1_screen.index(f"{PASS_TO} p1") < p1_screen.index("round 1, dealer p1") \
        < p1_screen.index("p2 lays no set") < p1_screen.index(P1_HAND)
    assert P2_HAND not in p1_screen


def test_a_resumed_hot_seat_draws_for_a_person_only_what_followed_their_own_last_move(
        tmp_path: Path) -> None:
    # p2 passes, p1 passes, round 2 is dealt, and the game is left as the screen goes to p2.
    # On resume p2 is shown what followed p2's move (p1's pass, the new round), not p2's
    # own move again (probe EK: a mutant counting the log's events from 0 survived).
    p2_screen = resumed_screens(tmp_path, "\npass\n\npass\nquit\n")[-1]
    assert p2_screen.startswith(f"{PASS_TO} p2")
    assert "p2 lays no set" not in p2_screen
    assert p2_screen.index("p1 lays no set") < p2_screen.index("round 2, dealer p1") \
        < p2_screen.index("p1 pays 1 to pot")


def test_undo_passes_the_screen_back_to_the_person_whose_move_it_takes_back() -> None:
    res = run(*TWO_PEOPLE, input="\npass\n\nundo\n\nquit\n")
    assert res.exit_code == 0, res.output
    out = res.stdout
    took = out.index("took back 1 move: ")
    back = out.index(f"{PASS_TO} p2", took)
    assert back < out.index(P2_HAND, took)
    assert P2_HAND not in out[out.index(f"{PASS_TO} p1"):back]


def test_the_person_whose_move_was_taken_back_is_told_who_took_it_back() -> None:
    """p1's undo takes back p2's pass; the screen goes back to p2, who was shown no word of
    it: the 'took back' line went to p1's screen, then cleared (an undo is no event line).
    p2's screen now says who took back whose move, without the move (probe BQ)."""
    env = {"TTY_COMPATIBLE": "1", "TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "100"}
    res = run(*TWO_PEOPLE, input="\npass\n\nundo\n\nquit\n", env=env)
    assert res.exit_code == 0, res.output
    screens = res.stdout.split(CLEAR)
    assert len(screens) == 4, screens  # before the first hand-off, p2's, p1's, p2's again
    assert "took back 1 move: p2 pass" in screens[2]
    told = "p1 typed undo: took back 1 move (p2's)"
    assert told in screens[3] and told not in screens[2]
    assert screens[3].index(told) < screens[3].index(P2_HAND)


def test_a_script_plays_a_hot_seat_game_as_before(tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("pass\n" * 4)
    res = run(*TWO_PEOPLE, "--rule", "rounds=2", "--script", str(script))
    assert res.exit_code == 0, res.output
    assert PASS_TO not in res.output and "seed 5" in res.stdout  # played to the end


@pytest.mark.parametrize("controls", [["human", "bot:best", "bot:random"],
                                      ["bot:best", "human"]])
def test_one_person_among_bots_is_never_asked_to_pass_the_screen(controls: list[str]) -> None:
    sess = session("dare", controls)
    assert not sess.hot_seat() and sess.pass_screen(None) is None
    res = run("play", "dare", "--seed", "5", "--player", "Ann", "--bot", "2=best",
              "--no-log", input="quit\n")
    assert res.exit_code == 0 and PASS_TO not in res.output and "p1 Ann" in res.stdout


def test_the_table_is_drawn_for_the_one_person_among_bots_whatever_their_seat() -> None:
    # one person at seat 2, a bot at seat 1: the hand drawn is p2's, never the bot's
    assert session("dare", ["bot:best", "human"]).viewer() == 2
    assert session("dare", ["bot:best", "bot:random", "human"]).viewer() == 3
    assert session("dare", ["bot:best", "bot:random"]).viewer() is None  # bots alone: all
    res = run("play", "dare", "--seed", "5", "--players", "2", "--bot", "1=best", "--no-log",
              input="quit\n")
    assert res.exit_code == 0, res.output
    assert P2_HAND in res.stdout and P1_HAND not in res.stdout


def test_the_one_person_among_bots_keeps_the_screen_once_the_game_is_over() -> None:
    """Nobody acts once the game is over: a hot seat's screen is everyone's then (PUBLIC),
    but one person among bots is still the one it is drawn for (probe EN: a mutant that
    drew it as a hot seat's, for nobody, survived)."""
    g = games.get("dare")
    seats = [SeatInfo("Ann", "human"), SeatInfo("b", "bot:best"), SeatInfo("c", "bot:random")]
    sess = start(g, build(g.Rules, ["rounds=1"]), seats, 3, None, None)
    sess.run_bots()
    while not sess.match.over:
        sess.submit_line(sess.legal_texts(people_only=True)[0])
        sess.run_bots()
    assert sess.viewer() == 1


def test_a_real_table_is_drawn_for_everyone() -> None:
    """At a real table (--physical) the referee types every seat's moves: the table is
    everyone's, whoever acts, never one person's nor the hot seat's shared screen (probe
    EN: a mutant that drew it for the people to act survived)."""
    sess = session("dare", ["human", "human", "human"], seed=None)
    assert sess.viewer() is None  # the referee deals
    sess.submit_line("deal 1-7-5")
    sess.run_bots()
    assert sess.match.pending.kind == "action" and sess.viewer() is None
    assert session("dare", ["human", "human"], seed=None).viewer() is None


def test_a_real_table_is_never_asked_to_pass_the_screen() -> None:
    sess = session("dare", ["human", "human", "human"], seed=None)
    assert sess.match.physical and not sess.hot_seat() and sess.pass_screen(None) is None
    res = run("play", "dare", "--physical", "--players", "2", "--no-log", input="quit\n")
    assert res.exit_code == 0 and PASS_TO not in res.output


@pytest.mark.parametrize(("name", "secret"), [("dare", True), ("uno-dare", True),
                                              ("kabu-tsukuri", True), ("kazu-tori", False),
                                              ("yatchaba", False)])
def test_the_screen_is_passed_only_where_one_person_sees_what_another_does_not(
        name: str, secret: bool) -> None:
    # Kazu-Tori's and Yatchaba's cards are face up to all or to none: nothing to hide
    sess = session(name, ["human"] * games.get(name).default_players)
    assert sess.hot_seat()
    seat = sess.viewer()
    assert seat is not None
    assert sess.pass_screen(None) == (seat if secret else None)
    assert sess.pass_screen(seat) is None  # the person who has the screen already
    other = min(sess.humans - {seat})
    assert sess.pass_screen(other) == (seat if secret else None)


def test_at_a_terminal_up_recalls_only_the_lines_of_the_person_who_has_the_screen(
        tmp_path: Path) -> None:
    """The line editor's history was the game's (kept in a file across sessions): once the
    screen was passed, Up at the next person's prompt recalled the rows the last person laid
    face down, their whole hand with the card set aside. In a hot seat each person's lines are
    their own, kept in memory."""
    import os
    import signal

    from test_firstuse_prompt import PROMPT, Terminal

    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm",
           "PROMPT_TOOLKIT_NO_CPR": "1", "NO_COLOR": "1"}
    rows = "1-3-5 1-8-10 9-10-11 aside 6"  # p2's hand, seed 1, laid first
    t = Terminal(["play", "kabu-tsukuri", "--seed", "1", "--players", "2", "--no-log"], env,
                 tmp_path)
    try:
        t.wait_for(f"{PASS_TO} p2")
        t.type("\r", PROMPT)
        t.type(f"{rows}\r", "p2 lays three rows face down")
        t.wait_for(f"{PASS_TO} p1")
        t.type("\r", PROMPT)
        t.type("help\r", PROMPT)  # p1's own line
        t.seen = b""
        # Up twice: p1's own line, then nothing older of p1's (a shared history's next line
        # back is p2's rows); then a key whose echo shows the line as both Ups left it
        os.write(t.fd, b"\x1b[A\x1b[A")
        t.type("Q", "Q")
        assert rows.encode() not in t.seen
        assert b"help" in t.seen  # Up recalled p1's own line: the line was drawn after it
        t.type("\x15quit\r", "left the game")  # Ctrl-U empties the line
        assert t.close() == 0
    finally:
        if t.proc.poll() is None:
            os.killpg(t.proc.pid, signal.SIGKILL)
    assert not (tmp_path / "state" / "kabucli" / "history-kabu-tsukuri").exists()


def _moves_to_a_missed_uno(seed: int) -> list[str]:
    """Moves of three people in a seeded Uno Dare game, none calling UNO or trying a dare
    by choice, up to the first catch window (several people may act at once)."""
    import random

    from kabucli.engine import Match, make_header

    g = games.get("uno-dare")
    seats = [SeatInfo(f"s{i}", "human") for i in range(1, 4)]
    m = Match(g, make_header(g, build(g.Rules, []), seats, seed))
    rnd = random.Random(seed)
    moves: list[str] = []
    for _ in range(400):
        p = m.advance()
        assert p.kind == "action"
        if len(p.seats) > 1:
            return moves
        legal = g.legal(m.state, p.seats[0])
        ev = rnd.choice([e for e in legal if not getattr(e, "uno", False)] or legal)
        moves.append(g.notate(ev))
        m.submit(ev)
    raise AssertionError("no catch window")


def test_a_window_where_several_people_may_act_draws_no_hand() -> None:
    """Uno Dare's catch window waits for the player to move, the one who did not call UNO and
    those who may catch: the table was drawn for the lowest of them (p1's hand, the prompt
    asking p1, p2 and p3), so the others at the screen saw it (probe BT). The screen is now
    cleared of the last hand and the table drawn with none: every hand 'hidden'."""
    moves = _moves_to_a_missed_uno(1)
    env = {"TTY_COMPATIBLE": "1", "TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "100"}
    typed = "".join(f"\n{move}\n" for move in moves) + "quit\n"  # (Enter: a screen passed)
    res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--no-log", input=typed,
              env=env)
    assert res.exit_code == 0, res.output
    screens = res.stdout.split(CLEAR)
    window = screens[-1]
    assert "p1, p2, p3 (p3 to play on" in window and "did not call UNO) >" in window, window
    assert window.count("│ hidden ") == 3, window
    assert PASS_TO not in window  # (a race: nobody to pass the screen to)


def test_at_the_public_screen_no_list_refusal_or_completion_shows_a_hand() -> None:
    """At Uno Dare's catch window (every hand hidden, PUBLIC) the player to move's cards were
    shown all the same: '?' listed 'p3 play Y8', a refused play quoted 'p3's hand R9 B6 ...
    does not hold R1' (or said 'B6 does not match', which tells B6 is held), and Tab
    completed the cards (probe BU). Now those moves are left out, said so, and such a refusal
    does not say why; a move that names no card is listed and refused as ever."""
    from kabucli.prompt import MoveCompleter
    from kabucli.session import PUBLIC

    moves = _moves_to_a_missed_uno(1)
    sess = session("uno-dare", ["human"] * 3, seed=1)
    for move in moves:
        sess.submit_line(move)
        sess.run_bots()
    assert sess.viewer() == PUBLIC
    g, s = sess.game, sess.match.state
    turn = s.turn
    hand = [g.deck.token(c) for c in s.hands[turn]]
    words = set(hand)
    absent = next(t for t in ("R1", "G2", "B3", "Y4", "R5") if t not in words)
    typed = (f"p{turn} play {absent}\np{turn} play {hand[0]}\np{turn} play {hand[-1]} red\n"
             f"play {absent}\n?\np{turn} pass\np{turn} pass\nquit\n")
    env = {"TTY_COMPATIBLE": "1", "TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "100"}
    res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--no-log",
              input="".join(f"\n{move}\n" for move in moves) + typed, env=env)
    assert res.exit_code == 0, res.output
    window = res.stdout.split(CLEAR)[-1]
    said = [line for line in window.splitlines() if " > " not in line]  # (not as typed)
    shown = {w.strip("'(),:;") for line in said for w in line.split()}
    assert not words & shown, (words & shown, window)
    assert "does not hold" not in window and "does not match" not in window
    assert window.count("why is not shown") >= 3, window
    assert f"p{turn} draw" in window and "p1 catch p" in window  # (no card named)
    assert "legal moves naming no card" in window and "is not listed" in window
    assert f"p{turn} already let" in window  # (a refusal naming no card: said in full)
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    completer = MoveCompleter(sess)
    offered = {c.text for c in completer.get_completions(Document(f"p{turn} "), CompleteEvent())}
    assert "draw" in offered and not words & offered, offered


def test_a_blank_line_where_several_people_may_act_is_nobodys_move() -> None:
    """At the catch window's screen a blank line was taken as the player to move's pass
    ('p3 lets the missing UNO call go'), whoever pressed Enter (probe BU): it is refused,
    and the move typed with its seat is played."""
    moves = _moves_to_a_missed_uno(1)
    env = {"TTY_COMPATIBLE": "1", "TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "100"}
    typed = "".join(f"\n{move}\n" for move in moves) + "\n\np1 pass\nquit\n"
    res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--no-log", input=typed,
              env=env)
    assert res.exit_code == 0, res.output
    window = res.stdout.split(CLEAR)[-1]
    # (at a terminal a refusal longer than it is broken between words: its words, in order)
    assert ("several people may act now, so a blank line is nobody's move: type whose it is, "
            "e.g. 'p1 pass'") in " ".join(window.split()), window
    assert "p3 lets the missing UNO call go" not in window
    assert "p1 lets the missing UNO call go" in window


TERMINAL = {"TTY_COMPATIBLE": "1", "TERM": "xterm-256color", "NO_COLOR": "1", "COLUMNS": "100"}


def _at_the_window(controls: list[str], seed: int) -> Session:
    """A seeded Uno Dare session of ``controls`` played (its people's moves picked at random,
    none calling UNO) up to a catch window where several people may act: the PUBLIC screen."""
    import random

    from kabucli.session import PUBLIC

    sess = session("uno-dare", controls, seed=seed)
    g, m = sess.game, sess.match
    rnd = random.Random(seed)
    for _ in range(400):
        if sess.viewer() == PUBLIC:
            return sess
        seat = next(s for s in m.pending.seats if s not in sess.bots)
        legal = g.legal(m.state, seat)
        m.submit(rnd.choice([e for e in legal if not getattr(e, "uno", False)] or legal))
        sess.run_bots()
    raise AssertionError("no catch window")


def test_look_shows_one_person_their_own_hand_at_the_shared_screen_and_hides_it_again(
        tmp_path: Path) -> None:
    """At Uno Dare's catch window every hand is hidden (PUBLIC), so the player to move had to
    play from memory (probe BY). 'look p3' passes the screen to p3 as between turns, draws the table
    with p3's hand, and Enter clears it and draws the shared table again: the window still
    open, nothing recorded in the log."""
    from kabucli.log import read_log

    moves = _moves_to_a_missed_uno(1)
    sess = session("uno-dare", ["human"] * 3, seed=1)
    for move in moves:
        sess.submit_line(move)
        sess.run_bots()  # (the events the engine derives)
    g, s = sess.game, sess.match.state
    turn = s.turn
    hand = {g.deck.token(c) for c in s.hands[turn]}
    before = "".join(f"\n{move}\n" for move in moves)
    logs = []
    for looks in ("", f"look p{turn}\n\n\n"):
        log = tmp_path / f"g{len(logs)}.kbl"
        res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--log", str(log),
                  input=before + looks + "quit\n", env=TERMINAL)
        assert res.exit_code == 0, res.output
        logs.append(read_log(log, games.event_types).events)
    screens = res.stdout.split(CLEAR)
    window, passed, back = screens[-3:]

    def table_words(screen: str) -> set[str]:  # (the words of the table's rows)
        return {w for line in screen.splitlines() if line.startswith("│") for w in line.split()}

    assert window.count("│ hidden ") == 3 and not hand & table_words(window)
    assert "to see your own alone, type look and your seat, e.g. 'look p1'" in window
    assert passed.count("│ hidden ") == 2 and hand <= table_words(passed)  # p3's own hand
    assert passed.index(f"{PASS_TO} p{turn}, then press Enter") < passed.index("╭─ Uno Dare")
    assert f"p{turn}: press Enter to hide your hand" in passed
    # what p3 missed since last having the screen (the play that opened the window) is drawn
    # for them before their table (probe EK: a mutant leaving it out survived)
    assert "(one card left, no UNO call!)" in passed.split("╭─ Uno Dare")[0]
    assert back.count("│ hidden ") == 3 and not hand & table_words(back)
    assert "p1, p2, p3 (p3 to play on" in back  # the window still open, the same question
    assert len(logs[0]) > len(moves) and logs[0] == logs[1]  # look records nothing


def test_an_undo_at_the_shared_screen_is_told_as_someones() -> None:
    """An undo typed where several people may act (the shared screen, nobody's) is told to the
    person the screen passes to as someone's, not a seat's (probe EK: a mutant telling it
    as 'p0 typed undo' survived)."""
    moves = _moves_to_a_missed_uno(1)
    before = "".join(f"\n{move}\n" for move in moves)
    res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--no-log",
              input=before + "undo\n\nquit\n", env=TERMINAL)
    assert res.exit_code == 0, res.output
    shown = res.stdout.split(CLEAR)[-1]
    assert shown.startswith(f"{PASS_TO} p2")
    assert "someone typed undo: took back 1 move (p2's)" in shown and "p0" not in shown


def test_look_by_name_and_quit_or_input_ending_while_the_hand_is_shown() -> None:
    moves = _moves_to_a_missed_uno(1)
    before = "".join(f"\n{move}\n" for move in moves)
    args = ("play", "uno-dare", "--seed", "1", "--player", "Ann", "--player", "Bob",
            "--player", "Cid", "--no-log")
    res = run(*args, input=before + "look Cid\n\nplay\nquit\n", env=TERMINAL)
    assert res.exit_code == 0, res.output
    shown = res.stdout.split(CLEAR)[-1]
    assert f"{PASS_TO} p3 Cid" in shown and "p3 Cid: press Enter to hide your hand" in shown
    # (at this 100-column terminal the answer is broken between words: its words are read)
    assert ("press Enter to hide p3 Cid's hand (moves are typed at the shared screen after), "
            "or type quit (not 'play')") in " ".join(shown.split())
    assert "left the game" in res.output
    res = run(*args, input=before + "look p3 Cid\n\n", env=TERMINAL)  # (as the table names it)
    assert res.exit_code == 0 and "input ended" in res.output, res.output
    assert "p3 Cid: press Enter to hide your hand" in res.stdout.split(CLEAR)[-1]


def test_look_is_refused_where_it_would_show_a_hand_it_should_not() -> None:
    moves = _moves_to_a_missed_uno(1)
    before = "".join(f"\n{move}\n" for move in moves)
    typed = before + "look\nlook p9\nlook Zed\nquit\n"
    res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--no-log", input=typed,
              env=TERMINAL)
    assert res.exit_code == 0, res.output
    window = res.stdout.split(CLEAR)[-1]
    assert PASS_TO not in window
    assert "refused: 'look' at whose hand? type your own seat, e.g. 'look p1'" in window
    assert "refused: there is no seat 9 (seats 1-3)" in window
    assert "refused: 'Zed' is not a seat or a player's name" in window
    assert window.count("refused: ") == 3
    # at a screen drawn for one person, another's hand is not shown: the table is theirs
    res = run(*TWO_PEOPLE, input="\nlook p1\nquit\n")
    assert res.exit_code == 0 and P1_HAND not in res.stdout, res.output
    assert ("refused: 'look' is for when several people may act at once and every hand is "
            "hidden; the table is drawn for p2 now") in res.stdout
    res = run("play", "dare", "--seed", "5", "--player", "Ann", "--bot", "2=best", "--no-log",
              input="look p1\nquit\n")
    assert res.exit_code == 0 and "refused: 'look' is for several people at one screen" \
        in res.stdout, res.output


def test_look_in_a_script_stops_it_and_a_bots_seat_is_no_ones_to_look_at(
        tmp_path: Path) -> None:
    script = tmp_path / "moves.txt"
    script.write_text("pass\nlook p1\n")
    res = run(*TWO_PEOPLE, "--script", str(script))
    assert res.exit_code == 1
    assert f"{script}:2: 'look p1': 'look' shows a person their hand at a shared screen; a " \
        "script draws no table" in res.output
    from kabucli.errors import ParseError

    sess = _at_the_window(["human", "human", "bot:random"], 2)
    assert sess.people_asked() == [1, 2] and 3 in sess.match.pending.seats
    with pytest.raises(ParseError, match="p3 is a bot's seat; 'look' shows a person their "
                                         "own hand"):
        sess.look_seat("look p3")
    assert sess.look_seat("look p2") == 2 and sess.look_seat("p2 pass") is None
    assert "look" in sess.commands()
    assert "look" not in session("uno-dare", ["human", "bot:random"]).commands()


def test_help_and_tab_at_a_hot_seat_offer_look_and_elsewhere_do_not() -> None:
    from kabucli.prompt import MoveCompleter

    moves = _moves_to_a_missed_uno(1)
    before = "".join(f"\n{move}\n" for move in moves)
    res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--no-log",
              input=before + "help\nquit\n", env=TERMINAL)
    assert res.exit_code == 0, res.output
    assert "look p2 (or a name): while several people may act" in res.stdout.split(CLEAR)[-1]
    res = run("play", "uno-dare", "--seed", "1", "--player", "Ann", "--bot", "2=random",
              "--no-log", input="help\nquit\n")
    assert res.exit_code == 0 and "look p2" not in res.stdout, res.output
    hot = MoveCompleter(_at_the_window(["human", "human", "bot:random"], 2))
    alone = MoveCompleter(session("uno-dare", ["human", "bot:random"]))
    assert [w for w, _ in hot.words("lo")] == ["look"] and alone.words("lo") == []
    # at a hot seat where one person acts, the table is theirs and 'look' is refused: not
    # offered (a game of Dare at a hot seat offered it at every turn, refusing it each time)
    for name in ("uno-dare", "dare"):
        turn = session(name, ["human", "human"])
        assert turn.hot_seat() and "look" not in turn.commands(), name
        assert MoveCompleter(turn).words("lo") == [], name


def test_a_player_called_look_still_types_moves_by_name(tmp_path: Path) -> None:
    """A player may be called Look, and a move may start with a player's name: 'look pass'
    is Look's move, at the prompt and in a script. 'look' read every such line as a look at
    a hand and refused it ('look' is for several people at one screen), or stopped the
    script; a seat after it ('look p3') is still a look."""
    args = ("play", "dare", "--seed", "5", "--player", "Look", "--bot", "2=random", "--no-log")
    res = run(*args, input="look pass\nquit\n")
    assert res.exit_code == 0, res.output
    assert "refused" not in res.stdout and "p1 Look      p1 lays no set" in res.stdout
    script = tmp_path / "moves.txt"
    script.write_text("look pass\n")
    res = run(*args, "--script", str(script))
    assert res.exit_code == 0 and "p1 lays no set" in res.stdout, res.output
    assert "the script" in res.output and "ended" in res.output
    moves = _moves_to_a_missed_uno(1)
    before = "".join(f"\n{move}\n" for move in moves)
    res = run("play", "uno-dare", "--seed", "1", "--player", "Ann", "--player", "Look",
              "--player", "Cid", "--no-log", input=before + "look p3\n\nquit\n", env=TERMINAL)
    assert res.exit_code == 0, res.output
    assert "p3 Cid: press Enter to hide your hand" in res.stdout.split(CLEAR)[-1]


def test_look_at_a_seat_of_thousands_of_digits_is_refused_in_one_short_line() -> None:
    """'look p999...' (5,000 digits, as a paste may type) was an internal error: the digits
    were made an int, which Python refuses past 4,300 digits."""
    from kabucli.errors import ParseError

    sess = _at_the_window(["human", "human", "bot:random"], 2)
    with pytest.raises(ParseError) as caught:
        sess.look_seat("look p" + "9" * 5000)
    assert str(caught.value).startswith("there is no seat 999")
    assert str(caught.value).endswith("(seats 1-3)") and len(str(caught.value)) < 80
    with pytest.raises(ParseError, match=r"^there is no seat 4 \(seats 1-3\)$"):
        sess.look_seat("look p4")
    assert sess.look_seat("look p02") == 2


def test_the_look_hint_wraps_between_words_in_a_narrow_terminal() -> None:
    """The line that tells the people at the shared screen how to look at their own hand
    (about 85 characters) is wrapped between words at 60 columns; printed as one line, the
    terminal broke it mid-word."""
    moves = _moves_to_a_missed_uno(1)
    before = "".join(f"\n{move}\n" for move in moves)
    res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--no-log",
              input=before + "quit\n", env={**TERMINAL, "COLUMNS": "60"})
    assert res.exit_code == 0, res.output
    window = res.stdout.split(CLEAR)[-1]
    hint = window[window.index("every hand is hidden"):window.index("p1, p2, p3 (")]
    assert " ".join(hint.split()) == ("every hand is hidden: to see your own alone, type look "
                                      "and your seat, e.g. 'look p1'")
    assert all(len(line) <= 60 for line in hint.splitlines()), hint


def test_the_table_at_the_game_over_prompt_of_a_hot_seat_shows_no_hidden_card() -> None:
    """At a hot seat the game-over prompt's 'table' drew the table for everyone (no person
    has the screen once the game is over): Kazu-Tori's every face-down pile, card by card.
    'undo' there takes the last move back and the game goes on, the piles seen. It draws
    the table as the screen where several people may act does: no hidden card."""
    res = run("play", "kazu-tori", "--seed", "1", "--players", "3", "--no-log",
              input="p1 flip\nstop\ny\ntable\nundo\nquit\n",
              env={"NO_COLOR": "1", "COLUMNS": "100"})
    assert res.exit_code == 0, res.output
    out = res.stdout
    at = out.index("game over (undo")
    assert "took back 1 move" in out[at:], out[at:]
    piles = [cells[3].strip() for line in out[at:].splitlines()
             if len(cells := line.split("│")) > 4 and cells[1].strip() in ("p1", "p2", "p3")]
    assert piles, out[at:]
    assert all(p.isdigit() for p in piles), piles  # a count, never the cards


def test_several_people_who_may_act_at_once_and_see_alike_keep_a_persons_screen() -> None:
    """Kazu-Tori's claims: p1, p2 and p3 may all act at once, but every card is face up to
    all or to none, so nothing is hidden: the table is drawn for the first of them, not as
    the shared screen where every hand is hidden, and 'look' is neither offered nor taken
    (probe EN: a mutant that made every such moment the shared screen survived)."""
    from kabucli.errors import ParseError
    from kabucli.session import LOOK, PUBLIC
    sess = session("kazu-tori", ["human"] * 3, seed=1)
    sess.submit_line("p1 flip")
    sess.run_bots()
    assert list(sess.match.pending.seats) == [1, 2, 3]
    assert sess.viewer() == 1 and sess.viewer() != PUBLIC
    assert LOOK not in sess.commands()
    with pytest.raises(ParseError, match="the table is drawn for p1 now"):
        sess.look_seat("look p2")


def test_a_hidden_card_is_matched_as_a_word_of_its_own_not_inside_another() -> None:
    """What the shared screen leaves out (a move, a refusal) is what names a hidden card as a
    word of its own: 'B6' hidden keeps 'p1 play B60' and 'xB6' shown (probe EN: a mutant
    matching inside words survived)."""
    from kabucli.session import names_any
    hidden = frozenset({"B6", "R1"})
    assert names_any("p1 play B6", hidden) and names_any("'p2 play R1': not held", hidden)
    assert not names_any("p1 play B60", hidden)
    assert not names_any("p1 play R10 xB6", hidden)


def test_a_move_without_a_seat_where_several_people_may_act_is_nobodys() -> None:
    """Kazu-Tori's claims, p1, p2 and p3 people who may all act: 'claim' with no seat is
    refused, never taken as the first person's (probe EN: a mutant that gave it to p1
    survived), and nothing is recorded."""
    from kabucli.errors import ParseError
    sess = session("kazu-tori", ["human"] * 3, seed=1)
    sess.submit_line("p1 flip")
    sess.run_bots()
    before = sess.match.logged
    for line in ("claim", "pass"):
        with pytest.raises(ParseError, match=r"e\.g\. 'p2 "):
            sess.submit_line(line)
    assert sess.match.logged == before


def test_one_person_among_bots_types_stop_when_a_bot_flips_next() -> None:
    """Kazu-Tori, p1 a person and p2, p3 bots: after p1's flip, 'stop' reads as the stop of
    p2 (who flips next), a bot's seat; it is the one person's stop (probe EN: a mutant that
    left it p2's, refused as a bot's move, survived)."""
    sess = session("kazu-tori", ["human", "bot:random", "bot:random"], seed=1)
    sess.submit_line("p1 flip")
    sess.run_bots()
    assert 1 in sess.match.pending.seats
    ev = sess.submit_line("stop")
    assert ev is not None and ev.KIND == "action" and getattr(ev, "seat", None) == 1


def test_what_a_look_drew_is_not_drawn_again_at_the_next_look() -> None:
    """'look' draws, before the person's table, the lines they missed since they last had the
    screen; those count as seen then: a second look with nothing new draws none of them again
    (probe EK: a mutant not counting them survived)."""
    moves = _moves_to_a_missed_uno(1)
    sess = session("uno-dare", ["human"] * 3, seed=1)
    for move in moves:
        sess.submit_line(move)
        sess.run_bots()
    turn = sess.match.state.turn
    before = "".join(f"\n{move}\n" for move in moves)
    res = run("play", "uno-dare", "--players", "3", "--seed", "1", "--no-log",
              input=before + f"look p{turn}\n\n\n" * 2 + "quit\n", env=TERMINAL)
    assert res.exit_code == 0, res.output
    looks = [screen.split("╭─ Uno Dare")[0] for screen in res.stdout.split(CLEAR)
             if f"{PASS_TO} p{turn}, then press Enter" in screen
             and f"p{turn}: press Enter to hide your hand" in screen]
    assert len(looks) == 2, res.stdout
    missed = "(one card left, no UNO call!)"
    assert missed in looks[0] and missed not in looks[1], looks
