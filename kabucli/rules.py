"""House rules as data: each game's rules are one frozen msgspec struct with defaults and help.

A field's help text and choices come from its type annotation (``Literal`` for choices,
``msgspec.Meta`` for bounds and the description), so listing, parsing and validating the
rules all read the same definition.
"""

from __future__ import annotations

import re
import sys
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from kabucli.errors import RuleError, RulesFileError
from kabucli.files import MiB, not_utf8, read_bytes
from kabucli.safetext import safe_text

R = TypeVar("R", bound=msgspec.Struct)
MAX_RULES_BYTES = MiB  # a rules file is a few lines: a bigger one is refused, not loaded
BOM = b"\xef\xbb\xbf"  # UTF-8's byte order mark


@dataclass(frozen=True)
class RuleInfo:
    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()


def describe(rules_type: type[msgspec.Struct]) -> list[RuleInfo]:
    """Name, type, default, help and choices of every house rule of a game."""
    info = msgspec.inspect.type_info(rules_type)
    assert isinstance(info, msgspec.inspect.StructType)
    declared = _literal_choices(rules_type)
    out = []
    for f in info.fields:
        t = f.type
        help_text = ""
        if isinstance(t, msgspec.inspect.Metadata):
            help_text = (t.extra_json_schema or {}).get("description", "") or ""
            t = t.type
        choices: tuple[Any, ...] = ()
        if isinstance(t, msgspec.inspect.LiteralType):
            choices = declared.get(f.name) or tuple(t.values)
            kind = " | ".join(str(v) for v in choices)
        elif isinstance(t, msgspec.inspect.IntType):
            kind = "integer"
            lo, hi = t.ge, t.le
            if lo is not None and hi is not None:
                kind = f"integer {lo}-{hi}"
            elif lo is not None:
                kind = f"integer >= {lo}"
            elif hi is not None:
                kind = f"integer <= {hi}"
        elif isinstance(t, msgspec.inspect.BoolType):
            kind = "true | false"
        elif isinstance(t, (msgspec.inspect.VarTupleType, msgspec.inspect.ListType)):
            kind = "a list, in a rules file"
        else:
            kind = type(t).__name__.removesuffix("Type").lower()
        out.append(RuleInfo(f.name, kind, f.default, help_text, choices))
    return out


def _literal_choices(rules_type: type[msgspec.Struct]) -> dict[str, tuple[Any, ...]]:
    """The choices of each ``Literal`` rule in the order written (msgspec sorts them)."""
    try:
        hints = typing.get_type_hints(rules_type, include_extras=True)
    except (NameError, TypeError):
        return {}
    out = {}
    for name, hint in hints.items():
        if typing.get_origin(hint) is typing.Annotated:
            hint = typing.get_args(hint)[0]
        if typing.get_origin(hint) is typing.Literal:
            out[name] = typing.get_args(hint)
    return out


_INTEGER = re.compile(r"-?[0-9]+")  # a whole number on the command line: ASCII digits only


def _blank_trimmed(text: str) -> str:
    """``text`` without the spaces and tabs around it (``--rule "tie = split"``); other
    blanks, such as a no-break space, are kept, and so refused where they stand."""
    return text.strip(" \t")


def _coerce(info: RuleInfo | None, text: str) -> Any:
    """A rule's value typed on the command line, as its rule's type takes it: an integer as
    an optional '-' then the ASCII digits 0-9 (not '+1', '1_000' or another script's digits,
    which ``int`` would take); a boolean as ``true`` or ``false``, as a TOML file writes it
    and ``kabucli rules`` lists it. Anything else stays text, which the rule's type then
    refuses, saying what it expects."""
    value = _blank_trimmed(text)
    if info is None:
        return value  # an unknown rule: refused by name
    if info.kind == "true | false":
        return {"true": True, "false": False}.get(value, value)
    numeric = info.kind.startswith("integer") or (
        bool(info.choices) and all(type(c) is int for c in info.choices))
    if numeric and _INTEGER.fullmatch(value):
        try:
            return int(value)
        except ValueError:  # more digits than int converts: refused as text
            return value
    return value


def build(rules_type: type[R], pairs: Iterable[str] = (), file: Path | None = None,
          game: str = "", games: Sequence[str] = (),
          rules_of: Callable[[str], type[msgspec.Struct]] | None = None) -> R:
    """Rules from defaults, then a TOML file, then ``NAME=VALUE`` pairs; RuleError if bad.

    In the file, top-level keys are rules; a table named after the game (``[dare]``) adds to
    and overrides them, so one file can hold the house rules of several games. A table named
    after another of the ``games`` (every game's name) is checked as that game would read
    the file (the top level, then the table), with its house rules from ``rules_of``, so a
    mistake there is found now rather than when that game is played; a table named after no
    game (``[yatcha]``) is refused. A pair overrides the file; two pairs for one rule are
    refused (which one was meant?).
    """
    values: dict[str, Any] = {}
    if file is not None:
        values.update(_from_file(file, rules_type, game, games, rules_of))
    known = _known(rules_type)
    given: dict[str, str] = {}  # each rule's pair, to refuse a second one for it
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = _blank_trimmed(name)
        if not sep or not name:
            raise RuleError(f"house rule '{pair}' should look like NAME=VALUE")
        if name in given:
            raise RuleError(f"house rule '{safe_text(name, 40)}' is set twice "
                            f"('{safe_text(given[name], 40)}', then '{safe_text(pair, 40)}'): "
                            "set it once")
        given[name] = pair
        values[name] = _coerce(known.get(name), value)
    return validate(rules_type, values, game)


def _from_file(file: Path, rules_type: type[msgspec.Struct], game: str, games: Sequence[str],
               rules_of: Callable[[str], type[msgspec.Struct]] | None) -> dict[str, Any]:
    try:
        # (a byte order mark at the start, as some editors save UTF-8, is no part of it)
        data = read_bytes(file, MAX_RULES_BYTES, pipes=True)  # (<(cmd) too)
        loaded = msgspec.toml.decode(data.removeprefix(BOM))
    except OSError as exc:
        raise RulesFileError(f"cannot read rules file {file}: {exc.strerror}") from None
    except msgspec.DecodeError as exc:
        raise RulesFileError(f"rules file {file} is not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise RulesFileError(f"rules file {file} is not valid TOML: it {not_utf8(exc)}") from None
    except RecursionError:
        raise RulesFileError(f"rules file {file} is not valid TOML: values nested too "
                             "deeply") from None
    except ValueError:  # (the one the TOML reader lets out: Python's int() of > 4300 digits)
        raise RulesFileError(f"rules file {file}: a number in it has more than "
                             f"{sys.get_int_max_str_digits()} digits, more than any house "
                             "rule takes") from None
    top = {k: v for k, v in loaded.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in loaded.items() if isinstance(v, dict)}
    for table in tables:
        if table != game and table not in games:
            raise RuleError(f"rules file {file}: [{table}] is not a game "
                            f"(games: {', '.join(games or [game])})")
    values = {**top, **tables.get(game, {})}
    _checked(rules_type, values, game, f"rules file {file}")
    for table, inner in tables.items():
        if table == game or rules_of is None:
            continue
        other = rules_of(table)
        known = _known(other)
        stray = next((name for name in top if name not in known), None)
        if stray is not None:  # (named as such: it is not in the table the error would name)
            raise RuleError(f"rules file {file}: top-level rule '{safe_text(stray, 40)}' is "
                            f"not a house rule of {table}, which reads the top level with "
                            f"[{table}] (known: {', '.join(known)})")
        _checked(other, {**top, **inner}, table, f"rules file {file}, [{table}]")
    return values


def _checked(rules_type: type[msgspec.Struct], values: dict[str, Any], game: str,
             where: str) -> None:
    """:func:`validate`, its refusal saying ``where`` the rules were read."""
    try:
        validate(rules_type, values, game)
    except RuleError as exc:
        raise RuleError(f"{where}: {exc}") from None


@cache
def _known(rules_type: type[msgspec.Struct]) -> dict[str, RuleInfo]:
    """The house rules of a game by name, worked out once (every match validates its rules,
    and inspecting the struct costs more than a whole short game)."""
    return {r.name: r for r in describe(rules_type)}


def validate(rules_type: type[R], values: dict[str, Any], game: str = "") -> R:
    known = _known(rules_type)
    for name in values:
        if name not in known:
            raise RuleError(f"unknown house rule '{safe_text(name, 40)}' for {game or 'this game'} "
                            f"(known: {', '.join(known)})")
    for name, value in values.items():
        if isinstance(value, str) and not _is_utf8(value):
            # a command line's bytes that are not UTF-8 (Python holds them as surrogates,
            # which msgspec cannot encode): no rule takes them
            raise _not_allowed(name, value, known[name])
    try:
        return msgspec.convert(values, rules_type)
    except msgspec.ValidationError as exc:
        msg = str(exc)
        field = msg.rsplit("$.", 1)[-1].rstrip("`") if "$." in msg else ""
        info = known.get(field)
        if info is not None:
            raise _not_allowed(field, values.get(field), info) from None
        raise RuleError(f"bad house rules: {msg}") from None


def _is_utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _not_allowed(field: str, value: Any, info: RuleInfo) -> RuleError:
    """The refusal of rule ``field``'s ``value``, saying what the rule expects."""
    if isinstance(value, str):  # cut inside its quotes, and its own length told
        shown = safe_text(repr(value[:40]))
        if len(value) > 40:
            shown = f"{shown[:-1]}… ({len(value)} characters){shown[-1]}"
    else:
        shown = safe_text(_as_written(value), 40)
    digits = (" written in the digits 0-9" if info.kind.startswith("integer")
              and isinstance(value, str) and not _INTEGER.fullmatch(value) else "")
    return RuleError(f"house rule {field}={shown} is not allowed: expected {info.kind}{digits}")


def _as_written(value: Any) -> str:
    """A rule's value as it was written: a word quoted (``tie='maybe'``, ``max_laps='100'``
    for a string where a number belongs), anything else as JSON and TOML write it (``null``,
    ``true``, ``1.5``), not as Python would (``None``, ``True``)."""
    if isinstance(value, str):
        return repr(value)
    try:
        return msgspec.json.encode(value).decode()
    except (TypeError, msgspec.EncodeError):
        return repr(value)


def as_dict(rules: msgspec.Struct) -> dict[str, Any]:
    """The rules as a log's header holds them (a list-valued rule as a list, as read back)."""
    values = typing.cast(dict[str, Any], msgspec.to_builtins(rules))
    return {k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}
