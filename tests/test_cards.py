"""The four decks and the card tokens people type and the program prints."""

from __future__ import annotations

from collections import Counter

import pytest

from kabucli.cards import (
    DAINI_40,
    DECKS,
    HANAFUDA_48,
    HANAFUDA_MONTHS,
    JIZO,
    KABUFUDA_39,
    MONTH_WORDS,
    ONI,
    UNKNOWN,
    UNO_COLOR_NAMES,
    UNO_DARE_108,
    Deck,
    month_of,
    uno_color,
)
from kabucli.errors import ParseError


def by_token(deck: Deck) -> Counter[str]:
    """The deck as a multiset of printed tokens."""
    return Counter(deck.token(c) for c in deck.cards())


# -- sizes and contents -----------------------------------------------------------------------

@pytest.mark.parametrize(("deck", "size"), [
    (KABUFUDA_39, 39), (DAINI_40, 40), (HANAFUDA_48, 48), (UNO_DARE_108, 108),
])
def test_each_deck_has_its_size(deck: Deck, size: int) -> None:
    assert deck.size == size
    assert len(deck.cards()) == size
    assert DECKS[deck.name] is deck


def test_every_deck_is_registered() -> None:
    assert sorted(DECKS) == ["daini-40", "hanafuda-48", "hanafuda-months", "kabufuda-39",
                            "uno-dare-108"]


def test_dare_deck_has_four_of_each_value_but_three_1s() -> None:
    expected = Counter({str(v): 4 for v in range(2, 11)} | {"1": 3})
    assert by_token(KABUFUDA_39) == expected
    assert all(KABUFUDA_39.value(c) == int(KABUFUDA_39.token(c)) for c in KABUFUDA_39.counts)


def test_daini_deck_replaces_a_1_by_the_oni_and_a_4_by_the_jizo() -> None:
    expected = Counter({str(v): 4 for v in range(1, 11)})
    expected.update({"1": -1, "4": -1, "Oni": 1, "Jizo": 1})
    assert by_token(DAINI_40) == expected
    assert DAINI_40.token(ONI) == "Oni" and DAINI_40.token(JIZO) == "Jizo"
    assert [DAINI_40.value(c) for c in range(1, 11)] == list(range(1, 11))


# Month by month, the four cards of a hanafuda month: b bright, a animal, r ribbon, c chaff.
HANAFUDA_TABLE = {
    1: "b r c1 c2",    # pine: crane, poetry ribbon
    2: "a r c1 c2",    # plum: bush warbler, poetry ribbon
    3: "b r c1 c2",    # cherry: curtain, poetry ribbon
    4: "a r c1 c2",    # wisteria: cuckoo
    5: "a r c1 c2",    # iris: bridge
    6: "a r c1 c2",    # peony: butterflies, blue ribbon
    7: "a r c1 c2",    # bush clover: boar
    8: "b a c1 c2",    # pampas: moon, geese
    9: "a r c1 c2",    # chrysanthemum: sake cup, blue ribbon
    10: "a r c1 c2",   # maple: deer, blue ribbon
    11: "b a r c",     # willow: rain man, swallow, ribbon, lightning
    12: "b c1 c2 c3",  # paulownia: phoenix
}


def test_hanafuda_deck_has_four_cards_of_each_month() -> None:
    months = Counter(month_of(c) for c in HANAFUDA_48.cards())
    assert months == Counter(dict.fromkeys(range(1, 13), 4))
    assert all(HANAFUDA_48.value(c) == month_of(c) for c in HANAFUDA_48.cards())


def test_hanafuda_cards_follow_the_month_and_kind_table() -> None:
    expected = Counter(f"{m}{kind}" for m, kinds in HANAFUDA_TABLE.items()
                       for kind in kinds.split())
    assert by_token(HANAFUDA_48) == expected
    for code in HANAFUDA_48.cards():
        assert HANAFUDA_48.token(code).startswith(str(month_of(code)))


def test_hanafuda_has_5_brights_9_animals_10_ribbons_and_24_chaff() -> None:
    kinds = Counter(HANAFUDA_48.token(c).lstrip("0123456789")[0] for c in HANAFUDA_48.cards())
    assert kinds == Counter({"b": 5, "a": 9, "r": 10, "c": 24})


UNO_COLORS = {"R": 0, "Y": 1, "G": 2, "B": 3}


def test_uno_dare_has_one_0_and_two_of_1_to_9_per_color() -> None:
    tokens = by_token(UNO_DARE_108)
    for color in UNO_COLORS:
        assert tokens[f"{color}0"] == 1
        assert all(tokens[f"{color}{n}"] == 2 for n in range(1, 10))


def test_uno_dare_has_two_skips_and_two_reverses_per_color() -> None:
    tokens = by_token(UNO_DARE_108)
    for color in UNO_COLORS:
        assert tokens[f"{color}S"] == 2
        assert tokens[f"{color}R"] == 2


def test_uno_dare_numbers_1_to_16_each_once_colored_1_to_8_wild_9_to_16() -> None:
    dares = {tok: n for tok, n in by_token(UNO_DARE_108).items() if "D" in tok}
    assert all(n == 1 for n in dares.values())
    numbers = sorted(int(tok.split("D")[1]) for tok in dares)
    assert numbers == list(range(1, 17))
    colored = {tok for tok in dares if not tok.startswith("W")}
    assert colored == {"RD1", "RD2", "YD3", "YD4", "GD5", "GD6", "BD7", "BD8"}
    assert {tok for tok in dares if tok.startswith("WD")} == {f"WD{n}" for n in range(9, 17)}


def test_uno_dare_has_two_dares_per_color_and_eight_wild_dares() -> None:
    colors = Counter(uno_color(c) for c in UNO_DARE_108.cards()
                     if "D" in UNO_DARE_108.token(c))
    assert colors == Counter({0: 2, 1: 2, 2: 2, 3: 2, None: 8})


def test_uno_dare_color_of_every_card_matches_its_token() -> None:
    for code in UNO_DARE_108.counts:
        tok = UNO_DARE_108.token(code)
        assert uno_color(code) == UNO_COLORS.get(tok[0]), tok


def test_uno_dare_card_points_are_face_value_20_for_actions_50_for_wild_dares() -> None:
    for code in UNO_DARE_108.counts:
        tok = UNO_DARE_108.token(code)
        if tok.startswith("WD"):
            want = 50
        elif tok[1:].isdigit():
            want = int(tok[1:])
        else:
            want = 20
        assert UNO_DARE_108.value(code) == want, tok


def test_canonical_order_is_codes_ascending_with_copies_together() -> None:
    # The seeded shuffle (docs/shuffle.md) starts from this order.
    for deck in DECKS.values():
        cards = deck.cards()
        assert cards == sorted(cards)
        assert Counter(cards) == Counter(deck.counts)
    assert KABUFUDA_39.cards()[:7] == [1, 1, 1, 2, 2, 2, 2]


# -- tokens -----------------------------------------------------------------------------------

@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_every_token_parses_back_to_its_card_in_any_case(deck: Deck) -> None:
    for code in deck.counts:
        tok = deck.token(code)
        for typed in (tok, tok.lower(), tok.upper(), tok.swapcase(), f"  {tok} "):
            assert deck.parse(typed) == code, typed


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_tokens_are_distinct_ignoring_case(deck: Deck) -> None:
    tokens = [deck.token(c).lower() for c in deck.counts]
    assert len(set(tokens)) == len(tokens)


def test_oni_and_jizo_may_be_typed_by_their_initials() -> None:
    assert DAINI_40.parse_many(["O", "j", "oni", "JIZO"]) == [ONI, JIZO, ONI, JIZO]


@pytest.mark.parametrize("deck", list(DECKS.values()), ids=list(DECKS))
def test_unknown_card_prints_and_parses_as_question_marks(deck: Deck) -> None:
    assert deck.parse("??") == UNKNOWN
    assert deck.token(UNKNOWN) == "??"


@pytest.mark.parametrize(("deck", "typed"), [
    (KABUFUDA_39, "11"), (KABUFUDA_39, "0"), (KABUFUDA_39, "Oni"), (KABUFUDA_39, "seven"),
    (DAINI_40, "Onii"), (DAINI_40, "12"), (HANAFUDA_48, "13b"), (HANAFUDA_48, "1"),
    (HANAFUDA_48, "12r"), (HANAFUDA_48, "11c1"), (UNO_DARE_108, "RD3"), (UNO_DARE_108, "WD8"),
    (UNO_DARE_108, "R10"), (UNO_DARE_108, "P1"), (UNO_DARE_108, "?"),
])
def test_a_token_that_is_no_card_of_the_deck_is_refused_naming_it(deck: Deck, typed: str) -> None:
    with pytest.raises(ParseError) as err:
        deck.parse(typed)
    assert f"'{typed}'" in str(err.value)
    assert deck.title in str(err.value)


@pytest.mark.parametrize(("deck", "cards"), [
    (KABUFUDA_39, "1-10"), (DAINI_40, "1-10, Oni, Jizo"), (HANAFUDA_MONTHS, "1-12"),
])
def test_a_refused_token_is_answered_with_the_cards_a_short_deck_has(deck: Deck,
                                                                     cards: str) -> None:
    """'11' in a kabufuda deck was refused naming the deck only: a new player was left to
    guess that its cards run 1 to 10."""
    with pytest.raises(ParseError) as err:
        deck.parse("11" if deck is KABUFUDA_39 else "13")
    assert str(err.value).endswith(f" deck (its cards: {cards})")


@pytest.mark.parametrize("deck", [HANAFUDA_48, UNO_DARE_108], ids=["hanafuda", "uno-dare"])
def test_a_refused_token_of_a_long_deck_is_answered_with_how_its_cards_are_written(
        deck: Deck) -> None:
    """A deck of many tokens says how they are made, with examples, each a card of it."""
    with pytest.raises(ParseError) as err:
        deck.parse("xyz")
    said = str(err.value)
    assert said.endswith(f"(its cards: {deck.spelled})") and deck.spelled, said
    examples = deck.spelled.split("as in ", 1)[1].split(";")[0].split(", ")
    assert len(examples) >= 2, examples
    for word in examples:
        deck.parse(word)  # (raises if the example is no card)


def test_parse_many_names_the_bad_token_among_good_ones() -> None:
    with pytest.raises(ParseError, match="'12'"):
        KABUFUDA_39.parse_many(["1", "7", "12", "3"])


# -- what can still exist ---------------------------------------------------------------------

def test_a_fifth_7_cannot_exist() -> None:
    seen = Counter({7: 4})
    why = KABUFUDA_39.check_available(seen, [7])
    assert why is not None
    assert "only 4 copies of 7" in why and "4 already showed" in why


def test_five_7s_at_once_cannot_exist_either() -> None:
    why = KABUFUDA_39.check_available(Counter(), [7, 7, 7, 7, 7])
    assert why == "the kabufuda (39) deck has only 4 copies of 7, not 5"  # not "0 already showed"


def test_a_fourth_1_of_the_dare_deck_cannot_exist() -> None:
    why = KABUFUDA_39.check_available(Counter({1: 2}), [1, 1])
    assert why is not None and "only 3 copies of 1" in why


def test_a_card_of_which_the_deck_has_one_cannot_show_twice() -> None:
    why = DAINI_40.check_available(Counter({ONI: 1}), [ONI])
    assert why is not None and "only 1 copy of Oni" in why
    why = HANAFUDA_48.check_available(Counter(), [HANAFUDA_48.parse("8b")] * 2)
    assert why is not None and "only 1 copy of 8b" in why


def test_a_line_that_names_a_card_more_often_than_the_deck_holds_it_says_so() -> None:
    # the deck holds one 8b and none showed: the line itself names it twice
    eight = HANAFUDA_48.parse("8b")
    assert HANAFUDA_48.check_available(Counter(), [eight, eight]) == (
        "the hanafuda (48) deck has only 1 copy of 8b, not 2")
    assert DAINI_40.check_available(Counter(), [ONI, 3, ONI]) == (
        "the Daini (40) deck has only 1 copy of Oni, not 2")
    why = KABUFUDA_39.check_available(Counter({1: 1}), [1, 1, 1])
    assert why is not None and why.endswith(", and 1 already showed, so not 3 more")
    # named once, the card is simply one too many
    why = DAINI_40.check_available(Counter({ONI: 1}), [ONI])
    assert why is not None and why.endswith("and 1 already showed")


def test_cards_within_the_counts_and_unknown_cards_are_available() -> None:
    assert KABUFUDA_39.check_available(Counter({7: 3}), [7, 1, 1, 1]) is None
    assert KABUFUDA_39.check_available(Counter({7: 4}), [UNKNOWN] * 30) is None


def test_a_code_outside_the_deck_is_not_available() -> None:
    why = KABUFUDA_39.check_available(Counter(), [ONI])
    assert why is not None and "not in the kabufuda (39) deck" in why


@pytest.mark.parametrize("deck", [HANAFUDA_48, UNO_DARE_108], ids=lambda d: d.name)
def test_every_card_of_a_deck_of_codes_has_words_of_its_own(deck: Deck) -> None:
    """Where a token is a code (12c3, GR), the deck says each card in words, as the replay
    page names its images for a screen reader: every card has words, no two cards the
    same, and they say the token's month or color."""
    words = [deck.named(deck.token(code)) for code in deck.counts]
    assert all(w != deck.token(c) for w, c in zip(words, deck.counts, strict=True))
    assert len(set(words)) == len(words)
    for code, w in zip(deck.counts, words, strict=True):
        if deck is HANAFUDA_48:
            assert w.startswith(MONTH_WORDS[month_of(code) - 1] + " ")
        else:
            color = uno_color(code)
            assert w.startswith("wild " if color is None else UNO_COLOR_NAMES[color] + " ")
