"""kabucli/figures.py: the numbers every report table shows, as a person reads them (a sign
on a change but none on a zero, counts that may be fractional to one precision, an Elo with
its error)."""

from __future__ import annotations

import pytest

from kabucli.figures import counted, elo_pm, plain, shares, signed


@pytest.mark.parametrize(("n", "text"), [(0, "0 chips"), (1, "1 chip"), (2, "2 chips"),
                                         (-1, "-1 chips")])
def test_a_count_says_one_thing_only_for_one(n: int, text: str) -> None:
    assert counted(n, "chip", "chips") == text


@pytest.mark.parametrize(("value", "decimals", "text"), [
    (3, 0, "+3"), (-2.5, 2, "-2.50"), (0, 0, "0"), (0.0, 2, "0.00"), (-0.0, 1, "0.0"),
    (0.004, 2, "0.00"), (-0.004, 2, "0.00"), (0.005001, 2, "+0.01"), (-0.4, 0, "0"),
    (1492.1666, 1, "+1492.2")])
def test_a_change_has_its_sign_but_a_zero_as_shown_has_none(value: float, decimals: int,
                                                             text: str) -> None:
    assert signed(value, decimals) == text


@pytest.mark.parametrize(("value", "decimals", "text"), [
    (-2.5, 2, "-2.50"), (2.5, 2, "2.50"), (-0.004, 2, "0.00"), (-0.0, 0, "0"), (7, 0, "7")])
def test_a_plain_figure_has_a_minus_only_where_it_shows(value: float, decimals: int,
                                                        text: str) -> None:
    assert plain(value, decimals) == text


def test_counts_are_whole_when_all_are_else_each_to_one_place() -> None:
    assert shares([3, 0, 2.0]) == ["3", "0", "2"]
    assert shares([3, 0.5, 2]) == ["3.0", "0.5", "2.0"]  # one shared win: all to one place
    assert shares([52.1667, 1]) == ["52.2", "1.0"]
    assert shares([]) == []


@pytest.mark.parametrize(("elo", "error", "text"), [
    (164.4, 158.6, "+164 ± 159"), (-243.0, 104.2, "-243 ± 104"), (0.3, 20.0, "0 ± 20"),
    (-0.4, None, "0"), (388.1, None, "+388")])
def test_an_elo_is_whole_signed_but_for_zero_with_its_error(elo: float, error: float | None,
                                                            text: str) -> None:
    assert elo_pm(elo, error) == text
