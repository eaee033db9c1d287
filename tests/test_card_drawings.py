"""The cards as the replay page draws them (``replay --html``): each card's SVG face must be
that card -- its value, its pips, its month and kind, its colour and symbol -- and not
another's. Read from the drawings themselves (:func:`kabucli.render.svgcards.faces`), no
browser needed."""

from __future__ import annotations

import re

import pytest

from kabucli.cards import (
    DAINI_40,
    HANAFUDA_48,
    KABUFUDA_39,
    MONTH_WORDS,
    UNO_DARE_108,
    Deck,
    month_of,
)
from kabucli.render.svgcards import faces


def texts(svg: str) -> list[str]:
    """The words written on a card, in order."""
    return re.findall(r"<text [^>]*>([^<]*)</text>", svg)


def fills(svg: str) -> set[str]:
    return set(re.findall(r'fill="(#[0-9a-fA-F]{3,6})"', svg))


DIAMOND = re.compile(r'<path d="M[\d.]+ [\d.]+L[\d.]+ [\d.]+L[\d.]+ [\d.]+L[\d.]+ [\d.]+Z"')


# -- kabufuda and Daini ---------------------------------------------------------------------

@pytest.mark.parametrize("deck", [KABUFUDA_39, DAINI_40], ids=lambda d: d.name)
@pytest.mark.parametrize("value", range(1, 11))
def test_a_numbered_card_shows_its_value_and_as_many_pips(deck: Deck, value: int) -> None:
    face = faces(deck)[0][str(value)]
    assert texts(face) == [str(value)] * 3  # the big numeral and the two corners
    assert len(DIAMOND.findall(face)) == value


def test_the_oni_and_the_jizo_are_drawn_as_themselves_not_as_each_other() -> None:
    drawn = faces(DAINI_40)[0]
    assert texts(drawn["Oni"]) == ["ONI"]
    assert texts(drawn["Jizo"]) == ["JIZO"]


# -- hanafuda -------------------------------------------------------------------------------

def test_a_hanafuda_card_is_labelled_with_its_token_its_month_and_its_kind() -> None:
    drawn = faces(HANAFUDA_48)[0]
    kinds = {"b": "bright", "a": "animal", "r": "ribbon", "c": "chaff"}
    for code, token in HANAFUDA_48.tokens.items():
        month = month_of(code)
        kind = token.removeprefix(str(month))
        assert texts(drawn[token]) == [token, f"{MONTH_WORDS[month - 1][:3]} · {kinds[kind[0]]}"]


def test_a_card_known_by_its_month_only_is_labelled_with_its_month() -> None:
    """A physical Yatchaba table may tell only a card's month: the hanafuda deck draws those
    too (1 to 12)."""
    drawn = faces(HANAFUDA_48)[0]
    for month in range(1, 13):
        assert texts(drawn[str(month)]) == [str(month), MONTH_WORDS[month - 1][:3]]


def test_every_month_is_drawn_in_a_colour_of_its_own() -> None:
    """The band under each card is its month's colour: twelve months, twelve colours."""
    drawn = faces(HANAFUDA_48)[0]
    band = {m: re.findall(r'<rect x="5" y="127" [^>]*fill="(#\w+)"', drawn[str(m)])
            for m in range(1, 13)}
    assert all(len(b) == 1 for b in band.values())
    assert len({b[0] for b in band.values()}) == 12


def ribbon(svg: str) -> tuple[str, bool] | None:
    """A drawn ribbon's colour and whether it bears a poem (written lines), or None."""
    found = re.search(r'<g transform="translate\(52 24\) rotate\(-14\)"><rect [^>]*fill="(#\w+)"'
                      r"[^>]*/>(.*?)</g>", svg)
    return None if found is None else (found.group(1), found.group(2) != "")


def test_ribbons_are_red_poem_ribbons_in_january_to_march_blue_in_june_september_october() -> None:
    """Hanafuda's ribbons: the poetry ribbons (Jan, Feb, Mar) are red with writing, the blue
    ribbons are June's, September's and October's, the others plain red; a card of another
    kind has no ribbon."""
    drawn = faces(HANAFUDA_48)[0]
    red, blue = "#c62828", "#1e4fa3"
    for month in range(1, 13):
        tokens = [t for t in HANAFUDA_48.tokens.values() if re.fullmatch(f"{month}[a-z]\\d?", t)]
        for token in tokens:
            if token[-1] != "r":
                assert ribbon(drawn[token]) is None, token
                continue
            colour = blue if month in (6, 9, 10) else red
            assert ribbon(drawn[token]) == (colour, month in (1, 2, 3)), token


def test_the_august_animal_the_geese_is_drawn_and_the_august_bright_is_the_moon() -> None:
    drawn = faces(HANAFUDA_48)[0]
    assert "#4e342e" in fills(drawn["8a"])  # the animal's mark
    assert "#4e342e" not in fills(drawn["8b"])
    assert "#fff8e1" in fills(drawn["8b"]) and "#fff8e1" not in fills(drawn["8a"])  # the moon


# -- Uno Dare -------------------------------------------------------------------------------

def test_the_four_uno_dare_colours_are_drawn_in_four_different_colours() -> None:
    drawn = faces(UNO_DARE_108)[0]
    card_colour = {c: re.findall(r'<rect x="7" y="7" [^>]*fill="(#\w+)"', drawn[f"{c}5"])
                   for c in "RYGB"}
    assert len({tuple(v) for v in card_colour.values()}) == 4


@pytest.mark.parametrize("colour", "RYGB")
def test_an_uno_dare_card_shows_its_number_its_action_or_its_dare_number(colour: str) -> None:
    drawn = faces(UNO_DARE_108)[0]
    for n in range(10):
        assert texts(drawn[f"{colour}{n}"]) == [str(n)] * 3
    skip, reverse = drawn[f"{colour}S"], drawn[f"{colour}R"]
    assert texts(skip) == ["S", "S"] and texts(reverse) == ["R", "R"]
    assert "<circle r=" in skip and "<circle r=" not in reverse  # the skip's barred circle
    first = "RYGB".index(colour) * 2 + 1
    for number in (first, first + 1):
        assert texts(drawn[f"{colour}D{number}"]) == ["DARE", str(number), f"D{number}",
                                                       f"D{number}"]


def test_a_wild_dare_shows_its_dare_number() -> None:
    drawn = faces(UNO_DARE_108)[0]
    for number in range(9, 17):
        assert texts(drawn[f"WD{number}"]) == [f"DARE {number}", "W", str(number)]
