"""House rules as data (kabucli/rules.py): listing them, and setting them from NAME=VALUE pairs
and TOML files, with refusals that name the rule and what it allows."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import msgspec
import pytest
from msgspec import Meta

from kabucli import games
from kabucli.errors import RuleError
from kabucli.games.dare.rules import DareRules
from kabucli.games.kazu_tori.rules import KazuToriRules
from kabucli.games.yatchaba.rules import YatchabaRules
from kabucli.rules import as_dict, build, describe, validate


class ToyRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Rules of every shape a game may use, to test what Dare's rules do not cover."""

    level: Annotated[int, Meta(le=9, description="how hard")] = 3
    fast: Annotated[bool, Meta(description="play fast")] = False
    limit: Annotated[Literal[10, 15, 20], Meta(description="count up to")] = 10
    bounded: Annotated[int, Meta(ge=2, le=5, description="between")] = 2


# -- listing ----------------------------------------------------------------------------------

def test_describe_lists_dare_rules_with_types_defaults_and_help() -> None:
    info = {r.name: r for r in describe(DareRules)}
    assert list(info) == ["ante", "yaku", "tie", "rounds", "chips"]
    assert (info["ante"].kind, info["ante"].default) == ("integer 0-1000000", 1)
    assert (info["rounds"].kind, info["rounds"].default) == ("integer 1-10000", 10)
    assert (info["chips"].kind, info["chips"].default) == ("integer 0-1000000000", 50)
    assert info["yaku"].choices == ("none", "arashi", "extended")
    assert info["yaku"].kind == "none | arashi | extended"
    assert info["yaku"].default == "none"
    assert info["tie"].choices == ("carry", "split", "order")
    assert info["tie"].default == "carry"
    assert all(r.help for r in info.values())
    assert "pot" in info["ante"].help and "arashi" in info["yaku"].help


def test_describe_names_bounds_booleans_and_numeric_choices() -> None:
    info = {r.name: r for r in describe(ToyRules)}
    assert info["level"].kind == "integer <= 9"
    assert info["fast"].kind == "true | false"
    assert info["limit"].kind == "10 | 15 | 20"
    assert info["bounded"].kind == "integer 2-5"
    assert info["level"].help == "how hard"


def test_defaults_match_the_rulings() -> None:
    assert build(DareRules) == DareRules(ante=1, yaku="none", tie="carry", rounds=10, chips=50)


def test_kazu_tori_defaults_match_the_rulings() -> None:
    # RULINGS: count to ten, tied winners share each payment, 2000 flips in a simulated game
    assert build(KazuToriRules) == KazuToriRules(limit=10, tie="split", max_flips=2000, chips=50)


def test_yatchaba_defaults_match_the_rulings() -> None:
    # RULINGS: bets 1, 2, 3, ...; two passes per game keep the right to guess
    assert build(YatchabaRules) == YatchabaRules(amounts="count", pass_limit=2, games=0,
                                                 chips=100, max_laps=100)


# -- NAME=VALUE pairs -------------------------------------------------------------------------

def test_pairs_set_integers_and_choices() -> None:
    rules = build(DareRules, ["ante=2", "yaku=arashi", " tie = split ", "rounds=3", "chips=0"],
                  game="dare")
    assert rules == DareRules(ante=2, yaku="arashi", tie="split", rounds=3, chips=0)


def test_pairs_read_booleans_and_numeric_choices() -> None:
    assert build(ToyRules, ["fast=true", "limit=15"]) == ToyRules(fast=True, limit=15)
    assert build(ToyRules, ["fast=false"]).fast is False


def test_an_integer_is_an_optional_minus_then_ascii_digits() -> None:
    assert build(ToyRules, ["level=-0012", "bounded=05"]) == ToyRules(level=-12, bounded=5)


@pytest.mark.parametrize("value", ["\u0661", "\uff11", "+1", "1_000", "1e3", "0x10", "1.0",
                                   "\u00a01", "1\u2003", "--1", "- 1"])
def test_an_integer_written_otherwise_is_refused_saying_what_is_expected(value: str) -> None:
    """``int`` reads '+1', '1_000' and other scripts' digits ('\u0661' is an Arabic-Indic
    one); the move prompt does not, nor does a rule any more (a probe, Q)."""
    with pytest.raises(RuleError) as err:
        build(DareRules, [f"ante={value}"], game="dare")
    assert str(err.value) == (f"house rule ante={value!r} is not allowed: expected integer "
                              "0-1000000 written in the digits 0-9")


@pytest.mark.parametrize(("pair", "expected"), [
    ("level=\udcff", "integer <= 9 written in the digits 0-9"),
    ("limit=1\udcff", "10 | 15 | 20"), ("fast=\udce9t\udce9", "true | false")])
def test_a_value_of_bytes_that_are_not_utf8_is_refused_naming_the_rule(
        pair: str, expected: str) -> None:
    """A command line's bytes that are not UTF-8 (`-r level=$'\\xff'`) reach Python as lone
    surrogates, which the rules' converter cannot encode: an internal error (the options
    fuzzer, tests/test_fuzz_options.py)."""
    name, _, value = pair.partition("=")
    with pytest.raises(RuleError) as err:
        build(ToyRules, [pair])
    assert str(err.value) == f"house rule {name}={value!r} is not allowed: expected {expected}"


@pytest.mark.parametrize("value", ["\u0661\u0665", "+15", "1_5"])
def test_a_numeric_choice_written_otherwise_is_refused(value: str) -> None:
    with pytest.raises(RuleError, match=r"limit=.* is not allowed: expected 10 \| 15 \| 20$"):
        build(ToyRules, [f"limit={value}"])


@pytest.mark.parametrize("value", ["yes", "on", "1", "TRUE", "True", "no", "off", "False"])
def test_a_boolean_is_true_or_false_as_the_rules_list_and_a_toml_file_write_it(
        value: str) -> None:
    with pytest.raises(RuleError) as err:
        build(ToyRules, [f"fast={value}"])
    assert str(err.value) == f"house rule fast={value!r} is not allowed: expected true | false"


@pytest.mark.parametrize("pairs", [["ante=2", "ante=5"], ["ante=2", "tie=split", " ante =2"]])
def test_a_rule_set_twice_is_refused_naming_it(pairs: list[str]) -> None:
    """It took the last without a word (a probe, Q): which one was meant is not known."""
    with pytest.raises(RuleError) as err:
        build(DareRules, pairs, game="dare")
    assert str(err.value) == (f"house rule 'ante' is set twice ('{pairs[0]}', then "
                              f"'{pairs[-1]}'): set it once")


def test_an_unknown_rule_is_named_with_the_known_ones() -> None:
    with pytest.raises(RuleError) as err:
        build(DareRules, ["colour=red"], game="dare")
    msg = str(err.value)
    assert "'colour'" in msg and "dare" in msg
    assert "ante, yaku, tie, rounds, chips" in msg


def test_a_choice_outside_the_list_names_the_rule_and_its_choices() -> None:
    with pytest.raises(RuleError) as err:
        build(DareRules, ["yaku=kabu"], game="dare")
    msg = str(err.value)
    assert "yaku='kabu'" in msg
    assert "none | arashi | extended" in msg


def test_a_negative_ante_is_refused_naming_the_bound() -> None:
    with pytest.raises(RuleError) as err:
        build(DareRules, ["ante=-1"], game="dare")
    assert "ante=-1" in str(err.value) and "integer 0-1000000" in str(err.value)


def test_zero_rounds_and_a_word_for_a_number_are_refused() -> None:
    with pytest.raises(RuleError, match=r"rounds=0 .*integer 1-10000"):
        build(DareRules, ["rounds=0"])
    with pytest.raises(RuleError, match=r"chips='many' .*integer 0-1000000000"):
        build(DareRules, ["chips=many"])


def test_a_value_above_an_upper_bound_is_refused() -> None:
    with pytest.raises(RuleError, match=r"level=10 .*integer <= 9"):
        build(ToyRules, ["level=10"])
    with pytest.raises(RuleError, match=r"limit=12 .*10 \| 15 \| 20"):
        build(ToyRules, ["limit=12"])


@pytest.mark.parametrize("pair", ["ante", "ante:2", "=2", " "])
def test_a_pair_without_a_name_and_equals_sign_is_refused(pair: str) -> None:
    with pytest.raises(RuleError) as err:
        build(DareRules, [pair])
    assert f"'{pair}'" in str(err.value) and "NAME=VALUE" in str(err.value)


# -- TOML files -------------------------------------------------------------------------------

def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return path


def from_file(file: Path) -> DareRules:
    """Dare's rules from a file, knowing every game's name and rules as the command line
    does."""
    return build(DareRules, file=file, game="dare", games=games.names(),
                 rules_of=lambda name: games.get(name).Rules)


def test_a_toml_file_with_top_level_rules(tmp_path: Path) -> None:
    file = write(tmp_path, 'ante = 2\ntie = "split"\n')
    assert from_file(file) == DareRules(ante=2, tie="split")


def test_a_toml_file_with_a_table_for_the_game(tmp_path: Path) -> None:
    file = write(tmp_path, '[dare]\nyaku = "extended"\nrounds = 4\n')
    assert from_file(file) == DareRules(yaku="extended", rounds=4)


def test_the_game_table_adds_to_and_overrides_top_level_rules(tmp_path: Path) -> None:
    file = write(tmp_path, 'ante = 2\nchips = 30\n[dare]\nante = 5\n')
    assert from_file(file) == DareRules(ante=5, chips=30)


def test_tables_for_other_games_are_checked_but_not_played(tmp_path: Path) -> None:
    file = write(tmp_path, '[kazu-tori]\nlimit = 15\n[dare]\ntie = "order"\n'
                           '[uno-dare]\ndare_skips = true\n[kabu-tsukuri]\nbet = 3\n'
                           '[yatchaba]\npass_limit = 2\n')
    assert from_file(file) == DareRules(tie="order")


@pytest.mark.parametrize(("text", "why"), [
    ("[yatchaba]\nbogus = 1\n",
     "[yatchaba]: unknown house rule 'bogus' for yatchaba (known: amounts, pass_limit, games, "
     "chips, max_laps)"),
    ("[kazu-tori]\nlimit = 12\n",
     "[kazu-tori]: house rule limit=12 is not allowed: expected 10 | 15 | 20"),
    ('[uno-dare]\ndares = "house-rules"\n',
     "[uno-dare]: bad house rules: dares=house-rules needs house_dares: 16 dares, not 0"),
    ("rounds = 3\n[kazu-tori]\nlimit = 15\n",
     ": top-level rule 'rounds' is not a house rule of kazu-tori, which reads the top level "
     "with [kazu-tori] (known: limit, tie, max_flips, chips)"),
])
def test_a_mistake_in_another_game_s_table_is_refused_saying_where(
        tmp_path: Path, text: str, why: str) -> None:
    """Only the played game's table was checked: a mistake in another's waited, unseen, until
    that game was played (a probe, Q)."""
    file = write(tmp_path, text)
    with pytest.raises(RuleError) as err:
        from_file(file)
    assert str(err.value) == f"rules file {file}{', ' if why[0] == '[' else ''}{why}"


def test_the_top_level_and_another_game_s_table_are_checked_together(tmp_path: Path) -> None:
    """As that game reads the file: the table completes what the top level starts."""
    dares = ", ".join(f'"dare {n}"' for n in range(16))
    file = write(tmp_path, f'dares = "house-rules"\n[uno-dare]\nhouse_dares = [{dares}]\n')
    from kabucli.games.uno_dare.events import UnoDareRules
    assert build(UnoDareRules, file=file, game="uno-dare", games=games.names(),
                 rules_of=lambda name: games.get(name).Rules).dares == "house-rules"
    with pytest.raises(RuleError, match="unknown house rule 'dares' for dare"):
        from_file(file)  # Dare reads the top level too


def test_a_table_that_names_no_game_is_refused(tmp_path: Path) -> None:
    file = write(tmp_path, "[dar]\nante = 2\n")
    with pytest.raises(RuleError, match=r"\[dar\] is not a game"):
        from_file(file)


def test_pairs_override_the_file(tmp_path: Path) -> None:
    file = write(tmp_path, "[dare]\nante = 2\nrounds = 3\n")
    assert build(DareRules, ["ante=7"], file, "dare") == DareRules(ante=7, rounds=3)
    file = write(tmp_path, "ante = 2\n[dare]\nante = 3\n")
    assert build(DareRules, ["ante=7"], file, "dare") == DareRules(ante=7)


def test_a_bad_value_in_a_file_names_the_rule(tmp_path: Path) -> None:
    file = write(tmp_path, '[dare]\nante = "two"\n')
    with pytest.raises(RuleError, match=r"ante='two' .*integer 0-1000000"):
        from_file(file)


def test_a_bad_value_in_a_file_is_refused_naming_the_file_though_a_pair_sets_the_rule(
        tmp_path: Path) -> None:
    file = write(tmp_path, "[dare]\nante = -1\n")
    with pytest.raises(RuleError) as err:
        build(DareRules, ["ante=2"], file, "dare")
    assert str(err.value) == (f"rules file {file}: house rule ante=-1 is not allowed: "
                              "expected integer 0-1000000")


def test_an_unknown_rule_in_a_file_is_refused(tmp_path: Path) -> None:
    file = write(tmp_path, "jokers = 2\n")
    with pytest.raises(RuleError, match="unknown house rule 'jokers'"):
        from_file(file)


def test_a_file_that_is_not_toml_or_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match="not valid TOML"):
        build(DareRules, file=write(tmp_path, "ante = = 2\n"), game="dare")
    with pytest.raises(RuleError, match="cannot read rules file"):
        build(DareRules, file=tmp_path / "missing.toml", game="dare")


# -- the rules in a log header ----------------------------------------------------------------

def test_rules_written_to_a_header_read_back_the_same() -> None:
    rules = DareRules(ante=3, yaku="arashi", tie="order", rounds=2, chips=9)
    written = as_dict(rules)
    assert written == {"ante": 3, "yaku": "arashi", "tie": "order", "rounds": 2, "chips": 9}
    assert validate(DareRules, written, "dare") == rules


def test_a_header_with_an_unknown_rule_is_refused() -> None:
    with pytest.raises(RuleError, match="unknown house rule 'wild'"):
        validate(DareRules, {**as_dict(DareRules()), "wild": True}, "dare")


def test_a_refused_rule_value_is_quoted_as_it_was_written_not_as_python_writes_it() -> None:
    """A header's JSON null or true, or a string where a number belongs, is named as the log
    writes it (a probe, H5: max_laps=None, max_laps=True)."""
    from kabucli.errors import RuleError
    from kabucli.games.yatchaba.rules import YatchabaRules

    for value, shown in ((None, "null"), (True, "true"), ("100", "'100'"), (1.5, "1.5"),
                         ([1], "[1]")):
        with pytest.raises(RuleError) as err:
            validate(YatchabaRules, {"max_laps": value}, "yatchaba")
        assert str(err.value) == (f"house rule max_laps={shown} is not allowed: expected "
                                  "integer 1-10000"), value


# -- found by mutation testing (probe EJ) -----------------------------------------------------

class FloorRules(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A lower bound alone and a list rule, two shapes ToyRules does not have."""

    floor: Annotated[int, Meta(ge=1, description="at least one")] = 1
    names: tuple[str, ...] = ()


def test_describe_names_a_lower_bound_alone_and_a_list_rule() -> None:
    info = {r.name: r for r in describe(FloorRules)}
    assert info["floor"].kind == "integer >= 1"
    assert info["names"].kind == "a list, in a rules file"


def test_a_refused_value_of_forty_characters_is_shown_whole_without_its_length() -> None:
    with pytest.raises(RuleError) as err:
        validate(YatchabaRules, {"max_laps": "x" * 40}, "yatchaba")
    assert str(err.value) == (f"house rule max_laps='{'x' * 40}' is not allowed: expected "
                              "integer 1-10000 written in the digits 0-9")


def test_a_rules_file_not_in_utf8_names_its_first_bad_byte_counting_from_one(
        tmp_path: Path) -> None:
    file = tmp_path / "house.toml"
    file.write_bytes(b"ante = 1\n\xff\n")  # the 10th byte
    with pytest.raises(RuleError, match=r"it is not UTF-8 text \(byte 10\)$"):
        build(DareRules, file=file, game="dare")


def test_a_list_rule_is_written_to_a_header_as_a_list() -> None:
    written = as_dict(FloorRules(names=("a", "b")))
    assert written == {"floor": 1, "names": ["a", "b"]}
    assert type(written["names"]) is list


def test_a_top_level_value_another_game_s_table_does_not_allow_is_refused(
        tmp_path: Path) -> None:
    """Dare's tie=carry at the top level is no tie of Kazu-Tori's, which reads the top level
    with its [kazu-tori] table: refused now, not when Kazu-Tori is played."""
    file = write(tmp_path, 'tie = "carry"\n[kazu-tori]\nlimit = 15\n')
    with pytest.raises(RuleError, match=r"\[kazu-tori\]: house rule tie='carry' is not allowed"):
        from_file(file)


def test_a_refused_long_list_value_is_cut_to_one_short_line() -> None:
    """A header's or a file's list where a number belongs is shown cut, not whole."""
    with pytest.raises(RuleError) as err:
        validate(YatchabaRules, {"max_laps": list(range(10_000))}, "yatchaba")
    assert str(err.value) == ("house rule max_laps=[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,1… "
                              "(48891 characters) is not allowed: expected integer 1-10000")
