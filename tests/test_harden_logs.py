"""Damaged and hostile logs, rules files and move scripts: each gets one line on stderr naming
the file, the record or line, and why, exit 2 when it cannot be read and 1 when it breaks a
rule; never a traceback, a hang or a blown memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner, Result
from v1logs import write_v1

from kabucli import games
from kabucli.cards import DAINI_40, KABUFUDA_39
from kabucli.cli import app
from kabucli.games.kazu_tori import rules as kazutori
from kabucli.log import _FRAME, MAGIC1 as MAGIC

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
ENV = {"NO_COLOR": "1", "COLUMNS": "100", "TERM": "dumb"}
runner = CliRunner()


def run(*args: str, input: str | None = None) -> Result:
    res = runner.invoke(app, list(args), input=input, env=ENV)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def one_line(res: Result, code: int) -> str:
    """The one line on stderr of a command that failed with ``code``."""
    assert res.exit_code == code, (res.exit_code, res.stdout[-500:], res.stderr)
    lines = res.stderr.splitlines()
    assert len(lines) == 1, res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr
    return lines[0]


# -- logs edited record by record, in their own format -----------------------------------

Record = dict[str, Any]


def records(path: Path) -> list[bytes]:
    """The records of ``path`` as format 1 writes them (a record an event: what these tests
    edit; format 2's binary blocks of inputs are tampered with in test_log_v2.py)."""
    if path.suffix != ".jsonl" or path.read_bytes().startswith(b'{"format":2'):
        with tempfile.TemporaryDirectory() as tmp:
            data = write_v1(path, Path(tmp) / f"v1{path.suffix}").read_bytes()
    else:
        data = path.read_bytes()
    if not data.startswith(MAGIC):
        return data.splitlines()
    out, pos = [], len(MAGIC)
    while pos < len(data):
        size, _ = _FRAME.unpack_from(data, pos)
        out.append(data[pos + _FRAME.size:pos + _FRAME.size + size])
        pos += _FRAME.size + size
    return out


def write_records(path: Path, recs: list[bytes]) -> Path:
    """The records as a log at ``path``, in the format its name says; checksums made right."""
    if path.suffix == ".jsonl":
        path.write_bytes(b"".join(r + b"\n" for r in recs))
    else:
        path.write_bytes(MAGIC + b"".join(_FRAME.pack(len(r), zlib.crc32(r)) + r
                                          for r in recs))
    return path


def edited(source: str, dst: Path, index: int, edit: Callable[[Record], Any],
           raw: Callable[[bytes], bytes] = lambda b: b) -> Path:
    """A copy of ``replays/source`` at ``dst`` (same format) whose record ``index`` (0: the
    header) is changed by ``edit`` and then, as bytes, by ``raw``."""
    src = REPLAYS / source
    assert src.suffix == dst.suffix
    recs = records(src)
    msgpack = src.suffix != ".jsonl"
    rec = msgspec.msgpack.decode(recs[index]) if msgpack else json.loads(recs[index])
    edit(rec)
    recs[index] = raw(msgspec.msgpack.encode(rec) if msgpack
                      else json.dumps(rec, separators=(",", ":")).encode())
    return write_records(dst, recs)


def index_of(source: str, e: str, where: tuple[Any, ...] = ()) -> int:
    """The record number of the first event ``e`` of a recorded log that holds ``where``."""
    msgpack = not source.endswith(".jsonl")
    for i, raw in enumerate(records(REPLAYS / source)[1:], start=1):
        inner = msgspec.msgpack.decode(raw) if msgpack else json.loads(raw)
        if inner["e"] != e:
            continue
        try:
            for key in where:
                inner = inner[key]
        except (IndexError, KeyError, TypeError):
            continue
        return i
    raise LookupError(f"no {e} event with {where} in {source}")


def setitem(*path: Any, value: Any) -> Callable[[Record], None]:
    def edit(rec: Record) -> None:
        inner: Any = rec
        for key in path[:-1]:
            inner = inner[key]
        inner[path[-1]] = value
    return edit


def first(key: str, value: Any) -> Callable[[Record], None]:
    """An edit that puts ``key: value`` before the record's other fields."""
    def edit(rec: Record) -> None:
        rest = dict(rec)
        rec.clear()
        rec.update({key: value, **rest})
    return edit


# -- cards outside the deck ---------------------------------------------------------------

# (recorded log, event, the edit, the field path and bound the reader names)
OUT_OF_DECK = [
    ("dare/2p-human-undo.jsonl", "lay", ("sets", 0, 2), 99, "<= 10 - at `$.sets[0][2]`"),
    ("dare/3p-showdown-outright.kbl", "deal", ("field", 1), -7, ">= -1 - at `$.field[1]`"),
    ("kazu-tori/4p-last-call-next-take-ends-game.kbl", "deal", ("piles", 2, 0), 13,
     "<= 12 - at `$.piles[2][0]`"),
    ("kazu-tori/4p-physical-last-call.kbl", "flip", ("card",), 40, "<= 12 - at `$.card`"),
    ("yatchaba/2p-nobody-right-dealer-share-pot-carries.jsonl", "deal", ("cards", 0), 48,
     "<= 47 - at `$.cards[0]`"),
    ("yatchaba/4p-physical-game.kbl", "reveal", ("months", 0), 13, "<= 12 - at `$.months[0]`"),
]


@pytest.mark.parametrize(("source", "e", "where", "value", "why"), OUT_OF_DECK,
                         ids=[c[0] for c in OUT_OF_DECK])
def test_a_card_outside_the_deck_is_an_invalid_record(tmp_path: Path, source: str, e: str,
                                                      where: tuple[Any, ...], value: int,
                                                      why: str) -> None:
    index = index_of(source, e, where)
    log = edited(source, tmp_path / f"bad{Path(source).suffix}", index,
                 setitem(*where, value=value))
    line = one_line(run("audit", str(log)), 2)
    assert line.startswith(f"unreadable: {log}: event {index}: invalid record: Expected `int` ")
    assert line.endswith(why)
    # replay shows the events before it, then says where it stopped
    assert one_line(run("replay", str(log)), 2).endswith(f"(shown up to event {index - 1})")
    # and so does one that shows an earlier state (it used to exit 0 without a word)
    assert one_line(run("replay", "--at", "0", str(log)), 2).endswith(
        f"(shown up to event {index - 1})")
    reason = line.removeprefix("unreadable: ")
    assert one_line(run("replay", "--json", str(log)), 2).startswith(f"error: {reason} (")
    assert one_line(run("log", "convert", str(log), str(tmp_path / "c.jsonl")), 2) == (
        f"error: {reason}")


def test_a_code_between_the_cards_of_a_deck_is_refused_by_the_rules(tmp_path: Path) -> None:
    """Dare's cards are 1-10 and -1 (unknown): a 0 passes the reader's bounds, and the rules
    refuse it at the event, which is printed (its card as #0) instead of crashing."""
    source = "dare/3p-physical-match.kbl"
    index = index_of(source, "lay", ("sets", 0, 0))  # p2 lays 1-7-9 2-5-10 on a 7
    log = edited(source, tmp_path / "zero.kbl", index, setitem("sets", 0, value=[0, 7, 10]))
    for args in (("audit",), ("replay",), ("replay", "--json"), ("resume",)):
        line = one_line(run(*args, str(log)), 1)
        assert (f"{log}: event {index}: p2 'p2 sets #0-7-10 2-5-10': card code 0 is not in "
                "the kabufuda (39) deck") in line, args


def test_tokens_of_codes_outside_the_deck_print_as_codes() -> None:
    assert KABUFUDA_39.token(0) == "#0"
    assert DAINI_40.token(99) == "#99"
    assert DAINI_40.token(-1) == "??"
    assert DAINI_40.token(11) == "Oni"


def test_a_shuffle_whose_lists_differ_in_length_is_printed_and_refused(tmp_path: Path) -> None:
    source = "kazu-tori/3p-person-vs-bots-race.jsonl"
    index = index_of(source, "shuffle")
    log = edited(source, tmp_path / "shuffle.jsonl", index, setitem("seats", value=[1, 2, 3]))
    line = one_line(run("audit", str(log)), 1)
    assert line.startswith(f"invalid: {log}: event {index}: table 'shuffle p1 ")
    assert "the seed deals" in line
    assert kazutori.GAME.notate(kazutori.Shuffle([1, 2], [[1]])) == "shuffle p1 1"


# -- strings that are not UTF-8, seeds out of range, deep nesting ------------------------

def test_invalid_utf8_in_a_jsonl_header_is_an_invalid_record(tmp_path: Path) -> None:
    log = edited("dare/2p-human-undo.jsonl", tmp_path / "utf8.jsonl", 0,
                 setitem("seats", 0, "name", value="p@1"),
                 lambda b: b.replace(b"p@1", b"p\xff1"))
    for args in (("audit",), ("replay",), ("resume",), ("log", "convert")):
        extra = (str(tmp_path / "out.kbl"),) if args[0] == "log" else ()
        line = one_line(run(*args, str(log), *extra), 2)
        assert line.endswith(f"{log}: header: invalid record: a string in it is not valid UTF-8")


def test_invalid_utf8_in_a_msgpack_event_with_a_good_checksum_is_an_invalid_record(
        tmp_path: Path) -> None:
    source = "yatchaba/3p-book-amounts.kbl"
    index = index_of(source, "pay")
    log = edited(source, tmp_path / "utf8.kbl", index, setitem("why", value="a@e"),
                 lambda b: b.replace(b"a@e", b"a\xc3e"))
    line = one_line(run("audit", str(log)), 2)
    assert line == (f"unreadable: {log}: event {index}: invalid record: a string in it is not "
                    "valid UTF-8")
    assert one_line(run("replay", str(log)), 2).endswith(f"(shown up to event {index - 1})")


@pytest.mark.parametrize(("source", "seed"), [
    ("dare/3p-tie-order.jsonl", -1),
    ("dare/3p-tie-order.jsonl", 2**64),
    ("kazu-tori/2p-limit-20-ten-taken-at-twenty.kbl", -5),
    ("yatchaba/3p-book-amounts.kbl", -2**63),
])
def test_a_header_seed_out_of_range_is_an_invalid_header(tmp_path: Path, source: str,
                                                         seed: int) -> None:
    log = edited(source, tmp_path / f"seed{Path(source).suffix}", 0, setitem("seed", value=seed))
    why = (f"{log}: header: invalid record: seed {seed} is out of range (0 to 2**64 - 1) - at "
           "`$.seed`")
    assert one_line(run("audit", str(log)), 2) == f"unreadable: {why}"
    for args in (("replay", "--json"), ("replay", "--at", "3"), ("resume",)):
        assert one_line(run(*args, str(log)), 2) == f"error: {why}", args


@pytest.mark.parametrize("source", ["dare/2p-human-undo.jsonl", "yatchaba/3p-book-amounts.kbl"])
@pytest.mark.parametrize("record", ["header", "event"])
def test_values_nested_too_deeply_are_an_invalid_record(tmp_path: Path, source: str,
                                                        record: str) -> None:
    depth = 100_000
    index = 0 if record == "header" else index_of(source, "pay")
    nested = (b"[" * depth + b"1" + b"]" * depth if source.endswith(".jsonl")
              else b"\x91" * depth + b"\x01")
    marker = "@@nested@@"
    # where a decoder goes down the nesting: a value of any type (a house rule), or a field
    # before an event's tag, skipped while the decoder looks for the tag
    edit = setitem("rules", "ante", value=marker) if record == "header" else first("x", marker)
    log = edited(source, tmp_path / f"deep{Path(source).suffix}", index, edit,
                 lambda b: b.replace(json.dumps(marker).encode(), nested)
                 .replace(msgspec.msgpack.encode(marker), nested))
    where = "header" if record == "header" else f"event {index}"
    assert one_line(run("audit", str(log)), 2) == (
        f"unreadable: {log}: {where}: invalid record: values nested too deeply")


@pytest.mark.parametrize("source", ["dare/2p-human-undo.jsonl", "yatchaba/3p-book-amounts.kbl"])
@pytest.mark.parametrize("depth", [32, 33, 500])
def test_a_house_rule_nested_deeper_than_32_is_refused_however_deep_the_stack_is(
        tmp_path: Path, source: str, depth: int) -> None:
    """A rule's value may be of any type, which msgspec decodes as deep as Python's recursion
    limit lets it from where it is called: a rule nested about 985 deep was read by the
    compiled log.py (whose calls add no Python frames) and refused by the pure-Python one,
    and one 500 deep was read by both. More than 32 deep is refused, from any stack."""
    from kabucli.errors import LogError
    from kabucli.log import read_header

    nested = (b"[" * depth + b"1" + b"]" * depth if source.endswith(".jsonl")
              else b"\x91" * depth + b"\x01")
    marker = "@@nested@@"
    log = edited(source, tmp_path / f"deep{Path(source).suffix}", 0,
                 setitem("rules", "zz", value=marker),
                 lambda b: b.replace(json.dumps(marker).encode(), nested)
                 .replace(msgspec.msgpack.encode(marker), nested))
    if depth <= 32:  # read (the game then refuses the rule it does not know)
        assert "zz" in read_header(log, games.event_types).rules
        return
    why = f"{log}: header: invalid record: values nested too deeply"
    with pytest.raises(LogError) as exc:
        read_header(log, games.event_types)
    assert str(exc.value) == why
    assert one_line(run("audit", str(log)), 2) == f"unreadable: {why}"


# -- what is printed: one line, whatever a log holds --------------------------------------

def test_control_characters_from_a_log_are_printed_escaped_on_one_line(tmp_path: Path) -> None:
    log = edited("dare/2p-human-undo.jsonl", tmp_path / "esc.jsonl", 0,
                 setitem("game", value="da\x1b[2J\nre\u2028"))
    line = one_line(run("audit", str(log)), 2)
    assert line == (f"unreadable: {log}: header: unknown game 'da\\x1b[2J\\nre\\u2028' "
                    f"(games: {', '.join(games.names())})")
    assert one_line(run("replay", str(log)), 2) == "error: " + line.removeprefix("unreadable: ")


# -- files that never end, and files too large -------------------------------------------

GUARD = """
import json, resource, sys
from typer.testing import CliRunner
from kabucli.cli import app
resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))
out = []
for args in json.loads(sys.argv[1]):
    res = CliRunner().invoke(app, args, env={"NO_COLOR": "1"})
    out.append([res.exit_code, res.stderr, repr(res.exception)])
print(json.dumps(out))
"""


def guarded(*commands: list[str]) -> list[tuple[int, str]]:
    """Run commands in a child process with 2 GiB of memory and 60 s at most (so that one
    reading forever fails this test instead of stopping the suite): exit code and stderr."""
    res = subprocess.run([sys.executable, "-c", GUARD, json.dumps(commands)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    return [(code, err) for code, err, _ in json.loads(res.stdout)]


@pytest.mark.skipif(not os.path.exists("/dev/zero") or not hasattr(os, "mkfifo"),
                    reason="needs /dev/zero and FIFOs")
def test_endless_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    out = tmp_path / "out.jsonl"
    for endless in ("/dev/zero", str(fifo)):
        commands = [["audit", endless], ["replay", endless], ["resume", endless],
                    ["log", "convert", endless, str(out)],
                    ["deal", "dare", "--seed", "1", "--rules-file", endless],
                    ["play", "dare", "--no-log", "--script", endless]]
        why = "not a regular file but a pipe, device or socket, which may never end"
        want = [f"unreadable: {endless}: cannot read ({why})",
                f"error: {endless}: cannot read ({why})",
                f"error: {endless}: cannot read ({why})",
                f"error: {endless}: cannot read ({why})",
                f"error: cannot read rules file {endless}: {why}",
                f"error: cannot read script {endless}: {why}"]
        for (code, err), line in zip(guarded(*commands), want, strict=True):
            assert (code, err) == (2, line + "\n")
    assert not out.exists()


def _bash(command: str) -> subprocess.CompletedProcess[str]:
    """``command`` run by bash, ``kabucli`` standing for this Python's kabucli."""
    return subprocess.run(["bash", "-c", command.replace("kabucli", f"{sys.executable} -m "
                                                          "kabucli")],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})


@pytest.mark.skipif(not os.path.exists("/dev/fd/0") or not os.path.exists("/bin/bash"),
                    reason="needs bash and /dev/fd")
def test_a_script_or_rules_file_from_a_shells_pipe_is_read_to_its_end() -> None:
    """``--script <(cmd)`` and ``--rules-file <(cmd)`` (bash's process substitution: a pipe,
    /dev/fd/63) were refused as 'a pipe, device or socket, which may never end'; a pipe the
    shell made has its command writing, and is read to its end as standard input is (a
    named FIFO is still refused: test above)."""
    res = _bash("kabucli deal dare --seed 1 --rules-file <(printf 'ante = 7\\n') --json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["state"]["pot"] == 21  # three antes of 7
    res = _bash("kabucli play dare --seed 1 --bot 2=random --bot 3=random --no-log -q "
                "--script <(printf 'p1 pass\\np1 bogus\\n')")
    assert res.returncode == 1
    assert res.stderr.strip().endswith(":2: 'p1 bogus': 'bogus' is not a Dare move: use sets "
                                       "like '1-3-9' or 'pass'"), res.stderr
    # a pipe into kabucli named as /dev/stdin (a link to a link to the pipe) reads the same
    res = _bash("printf 'p1 pass\\np1 bogus\\n' | kabucli play dare --seed 1 --bot 2=random "
                "--bot 3=random --no-log -q --script /dev/stdin")
    assert res.returncode == 1
    assert res.stderr.strip().startswith("error: /dev/stdin:2: 'p1 bogus'"), res.stderr
    # to its limit and no further, however much the command writes ('yes' never ends)
    res = _bash("kabucli deal dare --rules-file <(yes)")
    assert res.returncode == 2
    assert res.stderr.strip().endswith(": larger than 1 MiB, the most kabucli reads from such "
                                       "a file"), res.stderr


def test_files_larger_than_their_limit_are_refused(tmp_path: Path) -> None:
    big_log = tmp_path / "big.kbl"
    with big_log.open("wb") as fh:  # sparse: takes no room on the disk
        fh.write(MAGIC)
        fh.truncate(64 * 2**20 + 1)  # the documented limit, and one byte
    assert one_line(run("audit", str(big_log)), 2) == (
        f"unreadable: {big_log}: cannot read (larger than 64 MiB, the most kabucli reads from "
        "such a file)")
    rules = tmp_path / "rules.toml"
    rules.write_text("ante = 1\n" + "# a comment\n" * 100_000)
    assert one_line(run("deal", "dare", "--rules-file", str(rules)), 2) == (
        f"error: cannot read rules file {rules}: larger than 1 MiB, the most kabucli reads "
        "from such a file")
    script = tmp_path / "moves.txt"
    with script.open("wb") as fh:
        fh.truncate(16 * 2**20 + 1)
    assert one_line(run("play", "dare", "--no-log", "--script", str(script)), 2) == (
        f"error: cannot read script {script}: larger than 16 MiB, the most kabucli reads "
        "from such a file")


def test_a_file_of_exactly_the_limit_is_read_whole_an_empty_one_as_empty_a_byte_more_refused(
        tmp_path: Path) -> None:
    import errno

    from kabucli.files import read_bytes

    path = tmp_path / "ten.txt"
    path.write_bytes(b"0123456789")
    assert read_bytes(path, 10) == b"0123456789"
    with pytest.raises(OSError) as refused:
        read_bytes(path, 9)
    assert (refused.value.errno, refused.value.strerror) == (
        errno.EFBIG, "larger than 9 bytes, the most kabucli reads from such a file")
    path.write_bytes(b"")
    assert read_bytes(path, 10) == b""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_a_file_that_holds_more_than_its_size_said_is_refused_past_the_limit_not_cut() -> None:
    """A file may hold more than its size said when it was looked at (it grew meanwhile, or
    it is one of /proc's, whose size is 0): it is read to the limit and a byte, and refused
    when that byte is there, never given cut at the limit."""
    import errno

    from kabucli.files import read_bytes

    whole = read_bytes("/proc/self/status", 2**20)
    assert whole.startswith(b"Name:") and len(whole) > 100
    with pytest.raises(OSError) as refused:
        read_bytes("/proc/self/status", 100)
    assert refused.value.errno == errno.EFBIG


@pytest.mark.skipif(not os.path.exists("/proc/self/fd") or not hasattr(os, "mkfifo"),
                    reason="needs /proc and FIFOs")
def test_a_file_refused_as_no_regular_file_is_closed_again(tmp_path: Path) -> None:
    """Refusing a folder or a FIFO leaves no descriptor open (an audit of thousands of names
    would run out of them)."""
    from kabucli.files import open_regular

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    before = len(os.listdir("/proc/self/fd"))
    for name in [fifo, tmp_path] * 20:
        with pytest.raises(OSError):
            open_regular(name)
    assert len(os.listdir("/proc/self/fd")) == before
    with pytest.raises(IsADirectoryError):  # (said as a folder, not as a pipe or device)
        open_regular(tmp_path)
    res = run("play", "dare", "--no-log", "--script", "-", input="pass\n" * (4 * 2**20 + 1))
    assert one_line(res, 2) == ("error: cannot read script -: larger than 16 MiB, the most "
                                "kabucli reads from such a file")


# -- rules files ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "why"), [
    (b"ante = 2\nyaku = \"ar\xe4shi\"\n", "is not valid TOML: it is not UTF-8 text (byte 20)"),
    ("ante = 2\n".encode("utf-16"), "is not valid TOML: it starts with UTF-16's byte order "
                                    "mark (as some Windows editors save text): save it as UTF-8"),
    ("ante = 2\n".encode("utf-16-be").join((b"\xfe\xff", b"")), "is not valid TOML: it starts "
     "with UTF-16's byte order mark (as some Windows editors save text): save it as UTF-8"),
    (b"ante = " + b"[" * 50_000 + b"]" * 50_000, "is not valid TOML: values nested too deeply"),
    (b"x = " + b"{a = " * 50_000 + b"1" + b"}" * 50_000, "is not valid TOML: values nested "
                                                        "too deeply"),
])
def test_a_rules_file_that_cannot_be_read_as_toml_is_unreadable(tmp_path: Path, text: bytes,
                                                                why: str) -> None:
    file = tmp_path / "house.toml"
    file.write_bytes(text)
    for command in (("deal", "dare"), ("play", "dare", "--no-log"),
                    ("sim", "dare", "-b", "random", "-b", "random")):
        res = run(*command, "--rules-file", str(file))
        assert one_line(res, 2) == f"error: rules file {file} {why}"
        assert res.stdout == ""


def test_a_missing_rules_file_is_unreadable_and_a_bad_rule_in_one_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert one_line(run("play", "dare", "--rules-file", "missing.toml"), 2) == (
        "error: cannot read rules file missing.toml: No such file or directory")
    (tmp_path / "bad.toml").write_text("ante = -1\n")
    assert "house rule ante=-1 is not allowed" in one_line(
        run("play", "dare", "--rules-file", "bad.toml"), 1)
    assert list(tmp_path.iterdir()) == [tmp_path / "bad.toml"]  # no log was started


@pytest.mark.parametrize("where", ["header", "event", "nested"])
def test_a_json_lines_key_given_twice_is_refused(tmp_path: Path, where: str) -> None:
    """A key twice in one object: msgspec keeps the last, another JSON reader may keep the
    first, so one file would hold two different games and audit one of them. Refused, one
    line, at that record."""
    src = Path("replays/dare/3p-tie-order.jsonl")
    lines = src.read_bytes().splitlines(keepends=True)
    if where == "event":
        i = next(i for i, line in enumerate(lines) if line.startswith(b'{"e":"deal"'))
        lines[i] = lines[i].replace(b'"round":1,', b'"round":1,"round":1,', 1)
        where_said = f"event {i}: "
    else:
        old, new = ((b'"game":"dare",', b'"game":"dare","game":"dare",') if where == "header"
                    else (b'"ante":1,', b'"ante":1,"ante":5,'))  # (in the rules object)
        lines[0] = lines[0].replace(old, new, 1)
        where_said = "header: "
    bad = tmp_path / "twice.jsonl"
    bad.write_bytes(b"".join(lines))
    assert bad.read_bytes() != src.read_bytes()
    line = one_line(run("audit", str(bad)), 2)
    assert f"{where_said}invalid record: the key " in line and "given twice" in line, line


def test_json_lines_as_kabucli_writes_them_are_read_without_a_second_parse(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check of repeated keys costs a line written by kabucli one encode (the slow path,
    a second parse, is for lines written otherwise)."""
    import kabucli.log as log

    def second_parse(pairs: Any) -> Any:
        raise AssertionError("a kabucli-written line was parsed a second time")

    monkeypatch.setattr(log, "_pairs", second_parse)
    for path in sorted(Path("replays").glob("*/*.jsonl")):
        assert run("audit", str(path)).exit_code == 0, path


@pytest.mark.parametrize("how", ["cut-json", "lone-surrogate", "cut-msgpack"])
def test_a_whole_record_malformed_inside_is_called_malformed_not_truncated(
        tmp_path: Path, how: str) -> None:
    """msgspec says "Input data was truncated" for a value cut short inside a record and for
    a lone surrogate escape: the record itself (a whole line, a whole frame whose checksum
    holds) is malformed, not cut short, and the line says so."""
    source = "dare/3p-tie-order.jsonl" if how != "cut-msgpack" else "dare/2p-dare-three-sets.kbl"
    dst = tmp_path / f"bad{Path(source).suffix}"
    i = 1
    if how == "cut-json":
        edited(source, dst, i, lambda r: None, lambda b: b[:len(b) // 2])
    elif how == "lone-surrogate":
        i = index_of(source, "pay")  # its last field is a string: end it with the escape
        edited(source, dst, i, lambda r: None, lambda b: b[:-2] + b'\\ud800"}')
    else:
        edited(source, dst, i, lambda r: None, lambda b: b[:len(b) // 2])
    line = one_line(run("audit", str(dst)), 2)
    assert "truncated" not in line, line
    assert ("invalid record: malformed " + ("msgpack" if how == "cut-msgpack" else "JSON")
            ) in line, line


def test_a_format_1_msgpack_event_that_gives_a_key_twice_is_refused(tmp_path: Path) -> None:
    source = "dare/3p-showdown-outright.kbl"
    i = index_of(source, "pay")

    def twice(b: bytes) -> bytes:  # the map one entry longer: its "why" given again
        assert 0x80 <= b[0] <= 0x8E
        return bytes((b[0] + 1,)) + b[1:] + msgspec.msgpack.encode("why") + \
            msgspec.msgpack.encode("a reason nobody audited")

    bad = edited(source, tmp_path / "twice.kbl", i, lambda r: None, twice)
    line = one_line(run("audit", str(bad)), 2)
    assert f"event {i}: invalid record: the key 'why' is given twice" in line, line


@pytest.mark.parametrize("output", ["text", "--json", "--html"])
def test_a_seats_replay_never_reads_out_another_seats_hand_in_a_broken_rule(
        tmp_path: Path, output: str) -> None:
    """A public move that breaks a rule (a set its player does not hold) is refused with a
    reason that names that player's hand: the whole replay and that player's own view give
    it, another seat's view only says that the move breaks a rule (a probe, H1)."""
    source = "dare/3p-tie-order.jsonl"
    i = index_of(source, "lay", ("sets", 0))
    bad = edited(source, tmp_path / "bad.jsonl", i, lambda r: r.update(sets=[[7, 9, 9]]))
    actor = json.loads(bad.read_text().splitlines()[i])["seat"]
    other = 1 if actor != 1 else 2
    extra = {"text": [], "--json": ["--json"], "--html": ["--html", str(tmp_path / "p.html")]}
    whole = run("replay", str(bad), *extra[output])
    assert whole.exit_code == 1 and f"p{actor}'s hand" in whole.stderr
    own = run("replay", str(bad), "--as", f"p{actor}", *extra[output])
    assert own.exit_code == 1 and f"p{actor}'s hand" in own.stderr
    seen = run("replay", str(bad), "--as", f"p{other}", *extra[output])
    said = seen.stdout + seen.stderr + (
        (tmp_path / "p.html").read_text() if output == "--html" else "")
    assert seen.exit_code == 1
    assert f"event {i}: p{actor} 'p{actor} sets 7-9-9': it breaks a rule (why is hidden " \
           f"from p{other}: it may name cards p{other} does not see)" in seen.stderr, seen.stderr
    assert f"p{actor}'s hand" not in said


def test_a_limit_is_said_in_mib_only_when_it_is_a_whole_number_of_them() -> None:
    from kabucli.files import MiB, size_text

    assert [size_text(n) for n in (MiB, 64 * MiB, MiB + 1, MiB - 1, 500)] == [
        "1 MiB", "64 MiB", "1048577 bytes", "1048575 bytes", "500 bytes"]
