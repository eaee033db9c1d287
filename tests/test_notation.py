"""The shared events (pay, end, undo) read and print the same way in every game; the seat
reader, list printers and verb table every game's notation is made of."""

from __future__ import annotations

import re

import pytest

from kabucli import games
from kabucli.errors import ParseError
from kabucli.events import End, Event, Pay, Undo
from kabucli.log import SeatInfo
from kabucli.notation import (
    Typed,
    Verbs,
    card_list,
    cards_in,
    notate_shared,
    parse_seat,
    parse_seats,
    parse_shared,
    party,
    seat_list,
    seat_of,
    split_seat,
    whole,
)
from kabucli.rules import build
from kabucli.session import start

SHARED = [Pay(1, 0, 1, "ante"), Pay(0, 2, 15, "win"), Pay(3, 1, 9, "cards left"),
          End("rounds", [52, 47, 50], 1), End("flips", [40, 60, 50], 0), Undo()]


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("ev", SHARED, ids=lambda e: notate_shared(e))
def test_every_game_prints_and_reads_shared_events_alike(name: str, ev: object) -> None:
    game = games.get(name)
    n = 3 if game.min_players <= 3 <= game.max_players else game.min_players
    seats = [SeatInfo(f"p{i}", "human") for i in range(1, n + 1)]
    sess = start(game, build(game.Rules, []), seats, 1, None, None)
    assert isinstance(ev, Pay | End | Undo)
    if isinstance(ev, End) and len(ev.balances) != n:
        ev = End(ev.reason, ev.balances[:n] + [50] * (n - len(ev.balances)), ev.pot)
    text = game.notate(ev)
    assert text == notate_shared(ev)
    assert game.parse(sess.match.state, text) == ev


def test_the_pot_is_party_zero_and_seats_are_checked() -> None:
    assert party("pot", 3) == 0 and party("P2", 3) == 2
    with pytest.raises(ParseError, match="'p4' is neither 'pot' nor a seat p1-p3"):
        party("p4", 3)


@pytest.mark.parametrize(("verb", "args", "message"), [
    ("pay", ["p1", "pot"], "a payment reads 'pay FROM TO CHIPS"),
    ("pay", ["p1", "pot", "x"], "a payment reads"),
    ("end", ["rounds", "p1=3"], "the end reads 'end REASON p1=CHIPS p2=CHIPS pot=CHIPS'"),
    ("end", ["rounds", "p1=3", "p2=x", "pot=0"], "the end reads"),
    ("end", ["rounds", "p2=3", "p1=4", "pot=0"], "the end reads"),
    # a word too many is refused as the shape, not left to the reader of the balances
    ("end", ["rounds", "p1=3", "p2=4", "pot=0", "p3=1"], "the end reads"),
    ("undo", ["now"], "'undo' takes nothing after it, got 'now'"),
])
def test_malformed_shared_events_say_how_they_read(verb: str, args: list[str],
                                                   message: str) -> None:
    with pytest.raises(ParseError, match=message.replace("(", r"\(").replace("'", "'")):
        parse_shared(verb, args, 2)


# -- the seat reader, the list printers and the verb table every game's parse is made of ----

def test_a_seat_word_is_range_checked_and_zero_is_only_read_when_asked_for() -> None:
    assert parse_seat("P3", 3) == 3 and parse_seat("-", 3, "-") == 0
    assert seat_of("pass", 3) is None and seat_of("p", 3) is None
    with pytest.raises(ParseError, match=r"^there is no seat p4 \(seats are p1-p3\)$"):
        parse_seat("p4", 3)
    with pytest.raises(ParseError, match=r"^there is no seat p0 "):
        parse_seat("p0", 3)
    with pytest.raises(ParseError, match=r"^'-' is not a seat p1-p3$"):
        parse_seat("-", 3)
    with pytest.raises(ParseError, match=r"^'x' is not a seat p1-p3 or 'removed'$"):
        parse_seat("x", 3, "removed")
    with pytest.raises(ParseError, match="there is no seat p9999"):
        parse_seats(["p1", "p" + "9" * 4000], 3)  # refused without converting the digits
    assert split_seat("  p2 claim ", 3) == (2, "claim")
    assert split_seat("claim", 3) == (None, "claim")


def test_lists_print_with_their_separator_and_a_word_for_none() -> None:
    deck = games.get("dare").deck
    assert card_list(deck, [1, 3, 9]) == "1-3-9" and card_list(deck, [2, 5], " ") == "2 5"
    assert card_list(deck, [], "-", "-") == "-" and card_list(deck, []) == ""
    assert seat_list([1, 3], ",") == "p1,p3" and seat_list([]) == "-"
    assert seat_list([], " ", "nobody") == "nobody"


def _table() -> Verbs[list[str]]:
    def flip(state: list[str], m: Typed) -> Event:
        m.none_after()
        state.append(f"flip by {m.seat}")
        return Undo()

    def other(state: list[str], m: Typed) -> Event:
        raise ParseError(f"'{m.rest}' is no move")

    return Verbs({"flip": flip, "f": flip, "score": flip}, other, "empty move",
                 seatless=("score",))


def test_a_verb_table_hands_each_verb_to_its_handler_with_the_seat_typed() -> None:
    table, seen = _table(), []
    assert table.parse(seen, "p2 FLIP", 3) == Undo()
    assert table.parse(seen, "f", 3) == Undo()
    assert seen == ["flip by 2", "flip by None"]
    assert table.parse(seen, "pay p1 pot 2 ante", 3) == Pay(1, 0, 2, "ante")  # shared verbs
    with pytest.raises(ParseError, match=r"^'flip' takes nothing after it, got 'x y'$"):
        table.parse(seen, "flip x y", 3)
    with pytest.raises(ParseError, match=r"^empty move$"):
        table.parse(seen, "p1  ", 3)
    with pytest.raises(ParseError, match=r"^'jump p1' is no move$"):
        table.parse(seen, "p2 jump p1", 3)
    for line in ("p1 score", "p1 undo"):
        with pytest.raises(ParseError, match=r"is not typed after a seat: type '(score|undo)'"):
            table.parse(seen, line, 3)
    with pytest.raises(ParseError, match="there is no seat p7"):
        table.parse(seen, "p7 flip", 3)
    assert len(seen) == 2  # nothing refused reached a handler


@pytest.mark.parametrize("name", games.names())
def test_every_game_reads_a_list_of_cards_joined_by_dashes_or_apart_by_spaces_or_commas(
        name: str) -> None:
    """One reader of a list of cards for every game (notation.cards_in): four games read
    lists four ways (Dare and Uno Dare dropped a stray '-', Kazu-Tori took no spaces in a
    shuffle, Kabu-Tsukuri refused a stray '-'). A card missing between two '-' is refused
    in each, naming the word as typed."""
    deck = games.get(name).deck
    codes = sorted(deck.counts)[:3]
    a, b, c = (deck.token(code) for code in codes)
    for typed in (f"{a}-{b}-{c}", f"{a} {b} {c}", f"{a}, {b}, {c}", f"{a},{b} {c}",
                  f"{a}-{b}, {c},"):
        assert cards_in(deck, typed) == codes, typed
    for bad in (f"-{a}-{b}", f"{a}--{b}", f"{a}-{b}-", f"{a},,{b}", f"{a},-{b}"):
        with pytest.raises(ParseError, match=re.escape(f"'{bad}': cards are")):
            cards_in(deck, f"{c} {bad}")


# -- what the shared reading holds, each check pinned (mutation probe EA) --------------------

def test_a_number_is_ascii_digits_only_other_digits_are_refused_not_converted() -> None:
    """'²' and '١' are digits to str.isdigit: the reader refuses them (one clear line) rather
    than handing them to int, which reads '١' as 1 and stops at '²' with a ValueError."""
    assert whole("\u0661", 0, 9) is None and whole("\u00b2", 0, 9) is None
    with pytest.raises(ParseError, match=r"^a payment is a whole number 0-"):
        parse_shared("pay", ["p1", "pot", "\u00b2", "ante"], 2)
    with pytest.raises(ParseError, match="there is no seat"):
        parse_seat("p\u0661", 3)


def test_a_minus_sign_is_read_only_where_the_number_may_be_negative() -> None:
    assert whole("-0", 0, 9) is None and whole("-00", 0, 9) is None
    assert whole("-0", -9, 9) == 0 and whole("-3", -9, 9) == -3


def test_leading_zeros_do_not_count_against_the_digits_a_number_may_have() -> None:
    assert whole("0012", 1, 12) == 12 and whole("000", 0, 5) == 0
    assert whole("0" * 40 + "7", 0, 9) == 7
    assert parse_seat("p007", 9) == 7


def test_pot_and_the_seat_words_of_a_line_read_in_any_case() -> None:
    assert party("POT", 3) == 0 and party("Pot", 3) == 0
    assert parse_shared("pay", ["P1", "POT", "2", "ante"], 2) == Pay(1, 0, 2, "ante")
    assert parse_shared("end", ["rounds", "P1=3", "P2=4", "POT=1"], 2) == End(
        "rounds", [3, 4], 1)
    assert parse_seat("Removed", 3, "removed") == 0


def test_a_payment_of_no_chips_reads() -> None:
    """A payment's chips are 0 or more (the log holds what the ledger moves)."""
    assert parse_shared("pay", ["p1", "pot", "0"], 2) == Pay(1, 0, 0, "")


def test_an_end_with_a_negative_balance_reads_back_as_it_prints() -> None:
    ev = End("rounds", [-3, 103], 0)
    text = notate_shared(ev)
    assert text == "end rounds p1=-3 p2=103 pot=0"
    assert parse_shared("end", text.split()[1:], 2) == ev


def test_a_verb_that_takes_nothing_refuses_a_single_word_after_it() -> None:
    table, seen = _table(), []
    with pytest.raises(ParseError, match=r"^'flip' takes nothing after it, got 'x'$"):
        table.parse(seen, "flip x", 3)
    assert seen == []


def test_a_verb_table_reads_the_shared_verbs_and_the_engine_verbs_as_its_own() -> None:
    """Verbs.reads is what the session asks before it takes a line's first word for a
    player's name: 'pay', 'end', 'undo' and the game's engine words are move words."""
    table = _table()
    for word in ("flip", "f", "score", "pay", "end", "undo"):
        assert table.reads(word), word
    assert not table.reads("jump")


def test_spaces_between_the_seat_and_the_move_are_not_part_of_the_move() -> None:
    table, seen = _table(), []
    assert split_seat("p2   claim", 3) == (2, "claim")
    with pytest.raises(ParseError, match=r"is not typed after a seat: type 'undo'$"):
        table.parse(seen, "p1   undo", 3)


def test_a_tab_after_the_seat_parts_it_from_the_move_as_a_space_does() -> None:
    """A move script or a bot's answer may part words by a tab: 'p2<TAB>flip' is p2's flip,
    not a move 'p2' (the seat was split off at a space only)."""
    table, seen = _table(), []
    assert split_seat("p2\tclaim", 3) == (2, "claim")
    assert table.parse(seen, "p2\tflip", 3) == Undo() and seen == ["flip by 2"]
