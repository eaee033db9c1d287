"""Tab at a real table (``play --physical``): where the program cannot list the moves (a deal,
a showdown, a turn with unknown hands), Tab completes the words the moves typed now begin
with (``deal``, ``p2 sets``, ``p3 shows``); it offered the prompt's commands alone there, so
``de<Tab>`` completed nothing. (tests/test_conformance.py checks every game's recorded real
tables.)"""

from __future__ import annotations

import pytest

from kabucli import games
from kabucli.prompt import MoveCompleter
from kabucli.rules import build
from kabucli.session import Session, build_seats, start

COMMANDS = {"?", "undo", "table", "help", "quit"}


def real(name: str, names: tuple[str, ...] = ("Ann", "Bob", "Cat")) -> Session:
    """A real table of people named ``names``, the deal not typed yet."""
    g = games.get(name)
    return start(g, build(g.Rules, []), build_seats(g, None, list(names), []), None, None,
                 None)


def typed(sess: Session, *lines: str) -> Session:
    for line in lines:
        sess.submit_line(line)
        sess.run_bots()  # (the engine's own events: antes, results)
    return sess


def words(sess: Session, before: str) -> list[str]:
    return [w for w, _ in MoveCompleter(sess).words(before)]


# the deal as Tab completes it: with a space where cards follow (Dare's field, Uno Dare's card
# turned up), alone where 'deal' is the whole move
@pytest.mark.parametrize(("name", "deal"), [("dare", "deal "), ("kazu-tori", "deal"),
                                            ("yatchaba", "deal"), ("uno-dare", "deal "),
                                            ("kabu-tsukuri", "deal")])
def test_tab_at_a_real_table_s_deal_completes_deal(name: str, deal: str) -> None:
    sess = real(name)
    assert sess.legal_texts() == []  # (nothing the program can list: the cards are unknown)
    assert words(sess, "de") == [deal]
    assert set(words(sess, "")) == {deal} | COMMANDS | set(sess.commands())
    assert words(sess, "deal ") == []  # the cards are the referee's to type


def test_dare_at_a_real_table_a_turn_and_the_showdown_complete_their_move_words() -> None:
    sess = typed(real("dare"), "deal 1-7-5")  # reference 3: p2 (Bob) lays first
    assert sess.legal_texts() == []  # the hands are unknown
    assert words(sess, "p2 s") == ["sets "]  # (the sets follow)
    assert words(sess, "Bob ") == ["sets ", "lay ", "pass"]
    assert words(sess, "pa") == ["pass"]
    assert {"p2", "Bob", "sets ", "lay ", "pass"} <= set(words(sess, ""))
    assert not {"p1", "p3", "Ann", "Cat", "deal", "shows"} & set(words(sess, ""))
    # each word leads to the move it begins
    assert sess.game.notate(sess.parse_line("Bob lay 1-3-9")) == "p2 sets 1-3-9"
    # p2 and p3 qualify (two sets each), p1 passes: the showdown, p2 first
    typed(sess, "p2 sets 1-3-9 3-5-5", "p3 sets 2-2-9 4-4-5", "pass")
    assert sess.match.pending.kind == "chance"
    assert words(sess, "p2 s") == ["shows "]
    assert words(sess, "s") == ["shows "]
    assert words(sess, "Bob sh") == ["shows "]
    assert not {"p1", "p3", "Ann", "Cat", "sets", "pass"} & set(words(sess, ""))
    assert sess.game.notate(sess.parse_line("shows 2-3-4")) == "p2 shows 2-3-4"
    typed(sess, "show 2-3-4")
    assert words(sess, "Cat ") == ["shows "]
    assert words(sess, "p2 ") == []  # p2 has shown


def test_a_dare_turn_whose_hand_is_known_completes_the_moves_listed() -> None:
    # the deal listed every hand: the program lists p2's lays and completes those, as
    # notated ('sets', not 'lay')
    sess = typed(real("dare"), "deal 1-7-5 | p1 2-4-6-6-7-8-9-9-10 | p2 1-2-3-3-3-4-5-5-9 "
                               "| p3 2-2-4-4-6-8-8-10-10")
    assert sess.legal_texts()
    assert words(sess, "1-") == ["1-3-9"]
    assert words(sess, "p2 ") == ["pass", "sets", "1-3-9", "3-5-5"]


def test_a_word_before_others_completes_without_the_space_the_cards_take() -> None:
    """Only the last word of a move's beginning that the cards follow ('sets ') ends with a
    space: the seat before it does not (it was offered twice, 'p2 ' and 'p2')."""
    sess = typed(real("dare"), "deal 1-7-5")
    assert words(sess, "p") == ["p2", "pass"]
    assert words(sess, "B") == ["Bob"]
    assert words(sess, "Bob ") == ["sets ", "lay ", "pass"]


def test_kazu_tori_at_a_real_table_completes_its_deal_then_the_flip() -> None:
    sess = typed(real("kazu-tori"), "deal")
    assert "flip" in words(sess, "p1 f")
    assert "deal" not in words(sess, "")


def test_yatchaba_at_a_real_table_completes_its_deal_the_turns_and_the_reveal() -> None:
    sess = typed(real("yatchaba"), "deal", "1 1 8")
    assert words(sess, "b") == ["bet"]
    typed(sess, "bet", "pass", "pass")  # p1 bets, p2 and p3 pass: the cards are turned
    assert sess.match.pending.kind == "chance"
    assert words(sess, "re") == ["reveal "]


def test_uno_dare_at_a_real_table_completes_its_deal_a_turn_and_a_reshuffle() -> None:
    sess = typed(real("uno-dare", ("Ann", "Bob")), "deal R5")
    assert words(sess, "p2 d") == ["draw"]
    assert "deal" not in words(sess, "")
    # plays and draws until the draw pile is empty: the referee types the reshuffle
    for _ in range(1000):
        s = sess.match.state
        if sess.match.pending.kind == "chance":
            break
        # (a numbered card's play, p2 play R7: no Wild Dare, no Dare, no call)
        plays = [t for t in sess.legal_texts()
                 if t.split()[1:2] == ["play"] and t.split()[2][1:].isdigit() and "uno" not in t]
        if s.phase == "drawn":
            typed(sess, "keep")
        elif len(s.hands[s.turn]) > 3 and plays:
            typed(sess, plays[0])
        else:
            typed(sess, "draw")
    assert "reshuffle" in sess.match.pending.what
    assert words(sess, "re") == ["reshuffle"]  # (a whole move: the pile is not typed)
    assert set(words(sess, "")) == {"reshuffle"} | COMMANDS


def test_kabu_tsukuri_at_a_real_table_completes_its_deal_the_bets_and_a_row_shown() -> None:
    sess = typed(real("kabu-tsukuri"), "deal")
    assert words(sess, "p2 b") == ["bets"]
    typed(sess, "bet", "bet", "bet")
    assert sess.match.pending.kind == "chance"  # p2 turns row 1 over
    assert words(sess, "p2 s") == ["shows "]
    assert words(sess, "Bob ") == ["shows "]
    assert words(sess, "sh") == ["shows "]
    assert sess.game.notate(sess.parse_line("Bob shows 1-2-3")) == "p2 shows 1-2-3"
