"""What is drawn for a seat holds no card its own view of the game hides from it.

The games' rules decide what each seat may see (``game.view(state, seat)``, checked in
tests/test_conformance.py); these tests hold the drawing code to it: at every event of every
recorded game and of a few seeded bot matches, the table drawn for seat k (the text table of
``replay --as``, ``--step`` and the hot seat, and the scene of ``replay --html --as``) draws no
card that seat k's view lacks, an event hidden from seat k is not told to it by its
notation, and the page for seat k holds one view, seat k's, with no seed."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from test_conformance import ENV, NAMES, card_tokens, notation_hides, recorded, runner, shown

from kabucli import games, render
from kabucli.cards import UNKNOWN
from kabucli.cli import app
from kabucli.engine import Game, Match, walk
from kabucli.events import Event
from kabucli.log import read_log
from kabucli.render.html import page_data

SEEDS = (918273645546372, 20261128)

@pytest.fixture(scope="module")
def bot_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Seeded bot matches of each game, their seeds written in their headers."""
    folder = tmp_path_factory.mktemp("seated")
    out: dict[str, list[Path]] = {}
    for name in NAMES:
        for seed in SEEDS:
            log = folder / f"{name}-{len(out.get(name, []))}.kbl"
            res = runner.invoke(app, ["play", name, "-s", str(seed), "-b", "all=random",
                                      "--log", str(log), "-q"], env=ENV)
            assert res.exit_code == 0, res.stdout + res.stderr
            out.setdefault(name, []).append(log)
    return out


def logs_of(name: str, bot_logs: dict[str, list[Path]]) -> list[Path]:
    return [*recorded(name), *bot_logs[name]]


def each_state(game: Game, data: Any, check: Callable[[int, Event | None, Match], None]) -> None:
    """``check`` the match before the first event (index 0, no event), then after each
    event of the log (as ``replay`` walks it)."""
    check(0, None, Match(game, data.header))
    walk(game, data.header, data.events, check)


def each_state_of(game: Game, paths: list[Path],
                  check: Callable[[Path, int, int, Event | None, Match], None]) -> None:
    """:func:`each_state` over each log of ``paths``: ``check(path, seats, index, event,
    match)``."""
    for path in paths:
        data = read_log(path, games.event_types)
        n = len(data.header.seats)
        each_state(game, data, lambda i, ev, m, path=path, n=n: check(path, n, i, ev, m))


class Drawn:
    """The card tokens the game's render module draws while a table is drawn, caught where
    it draws them (cards_inline and cards_box of kabucli.render, card_list, and Uno Dare's
    card_text): '??' and a card nobody knows are not counted."""

    def __init__(self, game: Game, mp: pytest.MonkeyPatch) -> None:
        self.tokens: Counter[str] = Counter()
        self.known = card_tokens(game)
        module = games.part(game.name, "render")
        for fn in ("cards_inline", "cards_box"):
            if hasattr(module, fn):
                mp.setattr(module, fn, self._spy_tokens(getattr(module, fn)))
        if hasattr(module, "card_list"):
            real_list = module.card_list

            def card_list(deck: Any, cards: Any, *a: Any, **k: Any) -> str:
                cards = list(cards)
                self.add(deck.token(c) for c in cards if c != UNKNOWN)
                return real_list(deck, cards, *a, **k)  # type: ignore[no-any-return]
            mp.setattr(module, "card_list", card_list)
        if hasattr(module, "card_text"):
            real_text = module.card_text

            def card_text(game: Game, card: int) -> Any:
                if card != UNKNOWN:
                    self.add([game.deck.token(card)])
                return real_text(game, card)
            mp.setattr(module, "card_text", card_text)

    def add(self, tokens: Any) -> None:
        self.tokens.update(t for t in tokens if t in self.known)

    def _spy_tokens(self, real: Any) -> Any:
        def spy(tokens: list[str], *a: Any, **k: Any) -> Any:
            self.add(tokens)
            return real(tokens, *a, **k)
        return spy


def scene_tokens(scene: Any, tokens: frozenset[str]) -> Counter[str]:
    return shown(scene, tokens)


@pytest.mark.parametrize("name", NAMES)
def test_the_table_drawn_for_a_seat_draws_no_card_its_view_hides(
        name: str, bot_logs: dict[str, list[Path]], monkeypatch: pytest.MonkeyPatch) -> None:
    """``render.table(game, match, k)`` (the text table of ``replay --as pK``, ``--step`` and
    the hot seat) draws, at every event, only cards that seat k's view of the game shows; and
    the whole table (no viewer) does draw more than some seat's, where a seat's view hides
    anything."""
    game = games.get(name)
    tokens = card_tokens(game)
    drawn = Drawn(game, monkeypatch)
    hid = hides = 0
    for path in logs_of(name, bot_logs):
        data = read_log(path, games.event_types)
        n = len(data.header.seats)

        def check(index: int, ev: Event | None, m: Match, path: Path = path,
                  n: int = n) -> None:
            nonlocal hid, hides
            drawn.tokens.clear()
            render.table(game, m, None)
            whole_drawn = drawn.tokens.copy()
            whole = shown(game.view(m.state), tokens)
            extras = []
            for k in range(1, n + 1):
                drawn.tokens.clear()
                render.table(game, m, k)
                view = shown(game.view(m.state, k), tokens)
                extra = drawn.tokens - view
                # a card the whole view holds and seat k's lacks: hidden from seat k
                leak = extra & (whole - view)
                assert not leak, (f"{path.name}: the table drawn for p{k} after event "
                                  f"{index} shows {sorted(leak.elements())}, hidden from it")
                extras.append(extra)
                # and the whole table's cards but those hidden from seat k are drawn for it
                # too (multisets: a token may be hidden in one place and seen in another)
                lost = (whole_drawn - (whole - view)) - drawn.tokens
                assert not lost, (f"{path.name}: the table drawn for p{k} after event "
                                  f"{index} hides {sorted(lost.elements())}, which its view "
                                  "holds")
                if view != whole:
                    hides += 1
                    hid += drawn.tokens != whole_drawn
            # a card in no view (the rows of the hand just played, drawn between hands) is
            # drawn for every seat alike, or for none
            public = extras[0].copy()
            for extra in extras[1:]:
                public &= extra
            for k, extra in enumerate(extras, 1):
                assert not extra - public, (
                    f"{path.name}: the table drawn for p{k} after event {index} shows "
                    f"{sorted((extra - public).elements())}, which its view lacks")
        each_state(game, data, check)
    assert hides == 0 or hid > 0, f"{name}: a seat's table never drew less than the whole"


@pytest.mark.parametrize("name", NAMES)
def test_the_html_page_of_a_seat_holds_its_view_only_and_no_seed(
        name: str, bot_logs: dict[str, list[Path]]) -> None:
    """``replay --html --as pK``'s data (:func:`page_data`): one view, seat k's; at every
    event its scene holds only cards that seat k's view shows, an event hidden from seat k
    has the notation "hidden" and its line does not hold the notation; and the seed is in
    none of the page's data (it gives away every card)."""
    game = games.get(name)
    tokens = card_tokens(game)
    module = games.part(name, "render")
    for path in logs_of(name, bot_logs):
        data = read_log(path, games.event_types)
        n = len(data.header.seats)
        seed = data.header.seed
        for k in range(1, n + 1):
            info = page_data(game, data, path.name, k)
            text = json.dumps(info)
            if seed is not None and seed in SEEDS:  # (a recorded game's seed may be 7)
                held = str(seed) in text
                assert not held, f"{path.name}: the page of p{k} holds the seed"
            [view] = info["views"]
            assert view["key"] == f"p{k}"
            steps = view["at"]
            events = {e["n"]: e for e in view["events"]}

            def check(index: int, ev: Event | None, m: Match, k: int = k,
                      steps: Any = steps, events: Any = events, info: Any = info,
                      path: Path = path) -> None:
                scene = dict(info["scenes"][steps[index]])
                scene["seats"] = [info["seats_seen"][i] for i in scene["seats"]]
                drawn = scene_tokens(scene, tokens)
                view = shown(game.view(m.state, k), tokens)
                extra = drawn - view
                assert not extra, (f"{path.name}: the page of p{k} after event {index} "
                                   f"draws {sorted(extra.elements())}, hidden from it")
                # and the whole scene's cards but those hidden from seat k are drawn for it
                whole = scene_tokens(module.scene(game, m), tokens)
                lost = (whole - (shown(game.view(m.state), tokens) - view)) - drawn
                assert not lost, (f"{path.name}: the page of p{k} after event {index} "
                                  f"hides {sorted(lost.elements())}, which its view holds")
                if ev is not None and game.hidden_from(ev, k) and index in events:
                    entry = events[index]
                    assert entry["notation"] == "hidden", (path.name, k, index)
                    if notation_hides(game, ev):
                        assert game.notate(ev) not in entry["line"], (path.name, k, index)
            each_state(game, data, check)


@pytest.mark.parametrize("name", NAMES)
def test_an_event_hidden_from_a_seat_is_not_told_to_it_in_words(
        name: str, bot_logs: dict[str, list[Path]]) -> None:
    """The event line of ``replay --as pK`` for an event hidden from seat k (a deal, another
    seat's secret move): its words hold neither its notation nor a card it carries that
    seat k's view lacks right after it."""
    from test_conformance import carried

    game = games.get(name)
    tokens = card_tokens(game)
    for path in logs_of(name, bot_logs):
        data = read_log(path, games.event_types)
        n = len(data.header.seats)

        def check(index: int, ev: Event | None, m: Match, path: Path = path,
                  n: int = n) -> None:
            if ev is None:
                return
            for k in range(1, n + 1):
                if not game.hidden_from(ev, k):
                    continue
                words = render.event_words(game, ev, m, k)
                if notation_hides(game, ev):
                    assert game.notate(ev) not in words, (path.name, k, index, words)
                view = shown(game.view(m.state, k), tokens)
                # (multisets: a deck may hold two cards of one token)
                secret = set((carried(game, ev) - view)
                             & (shown(game.view(m.state), tokens) - view))
                said = set(words.replace("-", " ").replace(",", " ").replace(":", " ").split())
                # (a token the seat sees elsewhere, or a number, may be said for that)
                told = {t for t in secret & said if not t.isdigit() and not view[t]}
                assert not told, (path.name, k, index, words, sorted(told))
        each_state(game, data, check)


def _text(drawing: Any) -> str:
    console = Console(width=200, no_color=True, record=True, file=io.StringIO())
    console.print(drawing)
    return console.export_text()


def test_the_card_an_uno_dare_player_just_drew_is_told_to_that_player_only(
        bot_logs: dict[str, list[Path]]) -> None:
    """After a draw in a seeded Uno Dare match (the card drawn may be played at once), the
    table drawn for the player who drew (``replay --as``, ``--step``, the hot seat) and the
    page's scene say "pN drew X: play it now or keep it"; drawn for any other seat, neither
    says it nor names the card more often than that seat's view holds it. (Probe ES's
    mutant U1, the line shown to every viewer, survived: plain words, no card drawn.)"""
    from kabucli.games.uno_dare import render as uno_render

    game = games.get("uno-dare")
    tokens = card_tokens(game)
    seen = 0

    def check(path: Path, n: int, index: int, ev: Event | None, m: Match) -> None:
        nonlocal seen
        s = m.state
        if s.phase != "drawn" or s.physical:
            return
        seen += 1
        card = game.deck.token(s.drawn)
        told = f"p{s.turn} drew {card}: play it now or keep it"
        for k in range(1, n + 1):
            text = _text(render.table(game, m, k))
            lines = uno_render.scene(game, m, k)["lines"]
            where = f"{path.name}: after event {index}, drawn for p{k}"
            if k == s.turn:
                assert told in text and told in lines, where
                continue
            assert not re.search(r"\bdrew \S+:", text), (where, text)
            assert not any("drew" in line for line in lines), (where, lines)
            times = len(re.findall(rf"(?<![\w#]){re.escape(card)}(?!\w)", text))
            held = shown(game.view(s, k), tokens)[card]
            assert times <= held, (where, card, times, held, text)
    each_state_of(game, bot_logs["uno-dare"], check)
    assert seen, "no seeded draw to look at"


def test_a_dare_hand_shown_at_the_showdown_is_drawn_for_every_seat(
        bot_logs: dict[str, list[Path]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a Dare hand is shown at the showdown (a public event: every seat's view holds
    it), the table drawn for every seat and every seat's page scene draw its cards face up,
    not only its owner's. (Probe ES's mutant D2, a shown hand drawn face down for the
    others, hid too much and survived every test.)"""
    from kabucli.games.dare import render as dare_render

    game = games.get("dare")
    drawn = Drawn(game, monkeypatch)
    seen = 0

    def check(path: Path, n: int, index: int, ev: Event | None, m: Match) -> None:
        nonlocal seen
        s = m.state
        for p in range(1, n + 1):
            if s.shown[p] is None or not s.hands[p]:
                continue
            seen += 1
            hand = Counter(game.deck.token(c) for c in s.hands[p])
            for k in range(1, n + 1):
                where = f"{path.name}: after event {index}, p{p}'s hand drawn for p{k}"
                assert not hand - shown(game.view(s, k), card_tokens(game)), where
                drawn.tokens.clear()
                render.table(game, m, k)
                assert not hand - drawn.tokens, (where, sorted(drawn.tokens.elements()))
                [seat] = [x for x in dare_render.scene(game, m, k)["seats"]
                          if x["seat"] == p]
                assert Counter(seat["rows"][0]["cards"]) == hand, (where, seat)
    each_state_of(game, logs_of("dare", bot_logs), check)
    assert seen, "no showdown with a hand shown to look at"


@pytest.mark.parametrize("log", sorted(Path("replays/kazu-tori").glob("*physical*")),
                         ids=lambda p: p.name)
def test_at_a_real_kazu_tori_table_a_pile_is_drawn_as_its_size_for_everyone(log: Path) -> None:
    """At a real table nobody knows a pile's cards (the deal is typed 'deal' alone, the piles
    taken go face down again): the whole table (``replay`` with no seat) draws each pile as
    its size, never a row of ??, and the page's scene as one ?? with its count, as for any
    seat. (Probe ES's mutants K2 and K4, the whole table's piles drawn card by card at a real
    table, survived every test: they leak nothing, every card being unknown.)"""
    from kabucli.games.kazu_tori import render as kazu_render

    game = games.get("kazu-tori")
    data = read_log(log, games.event_types)
    piles = 0

    def check(index: int, ev: Event | None, m: Match) -> None:
        nonlocal piles
        assert m.state.physical
        text = _text(render.table(game, m))
        assert "??" not in text, (log.name, index, text)
        for seat in kazu_render.scene(game, m)["seats"]:
            [row] = seat["rows"]
            size = len(m.state.piles[seat["seat"]])
            piles += size > 0
            assert (row["cards"], row["count"]) == (["??"] if size else [], size), (
                log.name, index, seat)
    each_state(game, data, check)
    assert piles, "no pile to look at"
