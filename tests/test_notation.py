"""The shared events (pay, end, undo) read and print the same way in every game."""

from __future__ import annotations

import pytest

from kabucli import games
from kabucli.errors import ParseError
from kabucli.events import End, Pay, Undo
from kabucli.log import SeatInfo
from kabucli.notation import notate_shared, parse_shared, party
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
    ("undo", ["now"], "'undo' takes nothing after it, got 'now'"),
])
def test_malformed_shared_events_say_how_they_read(verb: str, args: list[str],
                                                   message: str) -> None:
    with pytest.raises(ParseError, match=message.replace("(", r"\(").replace("'", "'")):
        parse_shared(verb, args, 2)
