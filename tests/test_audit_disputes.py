"""An auditor's view of logs recorded by others: a real table's log converted both ways, and
what audit's verdicts say (probe AM)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPLAYS = Path(__file__).resolve().parent.parent / "replays"
TIMED = REPLAYS / "kazu-tori" / "4p-physical-timed-dispute.kbl"


def kabucli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kabucli", *args], capture_output=True,
                          text=True, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin",
                                          "PYTHONPATH": str(REPLAYS.parent)}, check=False)


def broken_timed(tmp_path: Path) -> Path:
    """The timed dispute as JSON Lines, its claim given to Ben rather than Chie: Chie's flip
    that follows (event 7) is out of turn."""
    js = tmp_path / "t.jsonl"
    assert kabucli("log", "convert", str(TIMED), str(js)).returncode == 0
    lines = js.read_text().splitlines()
    assert lines[6].startswith('{"e":"claim","seat":3,')
    lines[6] = lines[6].replace('"seat":3', '"seat":2')
    js.write_text("\n".join(lines) + "\n")
    return js


def committed_and_forged(tmp_path: Path, field: str, value: Any,
                         rounds: int) -> tuple[Path, Path]:
    """A Dare match between bots played with --commit (seed 42), and a copy of its log whose
    header's ``field`` (its seed or salt) is changed to ``value`` afterwards."""
    import json

    log = tmp_path / "g.jsonl"
    res = kabucli("play", "dare", "--bot", "all=best", "--players", "3", "--log", str(log),
                  "--commit", "--seed", "42", "--rule", f"rounds={rounds}")
    assert res.returncode == 0, res.stderr
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head[field] = value
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join([json.dumps(head, separators=(",", ":")), *lines[1:]]) + "\n")
    return log, forged


def test_a_timed_real_table_log_converted_to_json_lines_and_back_is_byte_for_byte(
        tmp_path: Path) -> None:
    """Its referee wrote each input as its own block; the copy back does too (it was one
    block of every input, a different file of the same digest)."""
    js, back = tmp_path / "t.jsonl", tmp_path / "t.kbl"
    assert kabucli("log", "convert", str(TIMED), str(js)).returncode == 0
    assert kabucli("log", "convert", str(js), str(back)).returncode == 0
    assert back.read_bytes() == TIMED.read_bytes()


def test_audit_of_a_real_table_says_what_it_could_not_check() -> None:
    """A valid real table's log: the hidden cards are unknown, the cards typed are the
    referee's word, and a time is when an input was typed; a seeded log has no such line."""
    res = kabucli("audit", str(TIMED))
    assert res.returncode == 0
    lines = res.stdout.splitlines()
    assert lines[-1] == ("  not checked (a real table): the cards nobody showed are not known, "
                         "and the cards typed in are checked against the rules, not against a "
                         "deal; each time is when the referee typed the input, not when it "
                         "happened")
    untimed = kabucli("audit", str(REPLAYS / "dare" / "3p-physical-match.kbl")).stdout
    assert untimed.splitlines()[-1].endswith("not against a deal")
    seeded = kabucli("audit", str(REPLAYS / "dare" / "3p-showdown-outright.kbl")).stdout
    assert "not checked" not in seeded and len(seeded.splitlines()) == 2


def test_audit_json_says_what_it_could_not_check_at_a_real_table() -> None:
    """The text says what a real table's audit cannot check; --json said nothing of it, so a
    program reading it took a valid real table's log for as checked as a seeded one's."""
    import json

    def keys(log: Path) -> Any:
        res = kabucli("audit", "--json", str(log))
        assert res.returncode == 0, res.stderr
        return json.loads(res.stdout)[0].get("not_checked")

    assert keys(TIMED) == ["unshown_cards", "cards_against_a_deal", "when_it_happened"]
    assert keys(REPLAYS / "dare" / "3p-physical-match.kbl") == ["unshown_cards",
                                                                "cards_against_a_deal"]
    assert keys(REPLAYS / "dare" / "3p-showdown-outright.kbl") is None


def test_a_seed_changed_after_its_commitment_is_named_before_the_moves_it_breaks(
        tmp_path: Path) -> None:
    """The deal was rigged: the header's seed is changed (its moves left as they were, so
    they no longer fit the deal), then also its commitment computed again. The verdict names
    the seed, not the first move the new deal makes impossible."""
    import json

    from kabucli.compact import seed_commitment

    log = tmp_path / "g.jsonl"
    res = kabucli("play", "dare", "--bot", "all=best", "--players", "3", "--log", str(log),
                  "--commit", "--seed", "42")
    assert res.returncode == 0, res.stderr
    written_down = res.stdout.split()[2]
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["seed"] = 43
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join([json.dumps(head, separators=(",", ":")), *lines[1:]]) + "\n")
    res = kabucli("audit", str(forged))
    assert (res.returncode, res.stderr) == (1, f"invalid: {forged}: the seed is not the one "
                                               "the header's commitment binds\n")
    head["commit"] = seed_commitment(43, head["salt"])
    forged.write_text("\n".join([json.dumps(head, separators=(",", ":")), *lines[1:]]) + "\n")
    res = kabucli("audit", str(forged), "--commit", written_down)
    assert (res.returncode, res.stderr) == (
        1, f"invalid: {forged}: its seed commitment is {head['commit']}, not {written_down}...: "
           "its seed is not the one committed to before the deal\n")


def test_audit_commit_as_play_printed_it_or_its_first_16_digits_in_any_case_proves_the_seed(
        tmp_path: Path) -> None:
    """The commitment kabucli play --commit printed, written down whole, as its first 16 hex
    digits, or in upper case: audit finds the log's seed is the one committed to (exit 0)."""
    # the commitment hides a random salt: its first 16 digits are all 0-9 once in about
    # 1,850 games, where upper case could not tell and the test failed; such a game is
    # played again
    for attempt in range(10):
        log = tmp_path / f"g{attempt}.kbl"
        res = kabucli("play", "dare", "--bot", "all=best", "--players", "3", "--log",
                      str(log), "--commit", "--seed", "42", "--rule", "rounds=1")
        assert res.returncode == 0, res.stderr
        commit = res.stdout.split()[2]
        assert re.fullmatch("[0-9a-f]{64}", commit), res.stdout
        if any(c in "abcdef" for c in commit[:16]):
            break
    else:
        raise AssertionError("10 commitments whose first 16 digits were all 0-9")
    for value in (commit, commit[:16], commit[:16].upper(), commit.upper()):
        res = kabucli("audit", str(log), "--commit", value)
        assert res.returncode == 0, (value, res.stderr)
        assert "; seed commitment checked" in res.stdout, value


def test_replay_and_resume_check_the_seed_commitment_as_audit_does(tmp_path: Path) -> None:
    """A committed game's salt changed afterwards: audit finds the commitment no longer
    binds the seed, but replay showed the game and exited 0, and resume went on with it."""
    log, forged = committed_and_forged(tmp_path, "salt", "00" * 16, rounds=3)
    why = f"{forged}: the seed is not the one the header's commitment binds"
    assert kabucli("audit", str(forged)).stderr == f"invalid: {why}\n"
    page = str(tmp_path / "page.html")
    for args in (["replay"], ["replay", "--json"], ["replay", "--at", "3"],
                 ["replay", "--html", page], ["resume"]):
        res = kabucli(*args, str(forged))
        assert res.returncode == 1, (args, res.stderr)
        assert res.stderr.splitlines()[-1].startswith(f"error: {why}"), (args, res.stderr)
    assert kabucli("replay", str(log)).returncode == 0


@pytest.mark.parametrize("field", ["salt", "seed"])
def test_log_convert_checks_the_seed_commitment_as_audit_does(tmp_path: Path,
                                                               field: str) -> None:
    # (a changed seed was said as the first deal it does not give, as the new log's failure
    # to be written: 'error: OUT: cannot write the log: event 1: table 'deal ...''; probe DL)
    log, forged = committed_and_forged(tmp_path, field, "00" * 16 if field == "salt" else 43,
                                       rounds=2)
    out = tmp_path / "copy.kbl"
    res = kabucli("log", "convert", str(forged), str(out))
    assert res.returncode == 1, res.stderr
    assert res.stderr == (f"error: {forged}: the seed is not the one the header's commitment "
                          "binds (nothing written)\n")
    assert not out.exists()
    assert kabucli("log", "convert", str(log), str(out)).returncode == 0


@pytest.mark.parametrize("field", ["salt", "seed"])
def test_replay_json_s_violation_is_audit_s_when_the_commitment_does_not_bind(
        tmp_path: Path, field: str) -> None:
    """replay --json of a committed log whose salt or seed was changed: its document said
    "violation": null (the salt: every deal still the seed's) or named event 1's deal (the
    seed), while its exit line and audit --json name the header's seed at index 0."""
    import json

    _, forged = committed_and_forged(tmp_path, field, "00" * 16 if field == "salt" else 43,
                                     rounds=2)
    found = json.loads(kabucli("audit", "--json", str(forged)).stdout)[0]
    want = {k: found[k] for k in ("index", "actor", "action", "reason")}
    assert want["index"] == 0
    for args in (["--json"], ["--json", "--at", "2"], ["--json", "--as", "p1"]):
        res = kabucli("replay", *args, str(forged))
        assert res.returncode == 1, (args, res.stderr)
        assert json.loads(res.stdout)["violation"] == want, args


def test_replay_json_gives_no_digest_for_a_log_whose_seed_its_commitment_does_not_bind(
        tmp_path: Path) -> None:
    """A committed log whose salt was changed afterwards: every event still follows the rules,
    but the log is invalid (audit --json gives it no digest), and so replay --json's document
    names no digest either, whole, at an event or in a seat's view: a digest is only for a
    log whole and valid."""
    import json

    log, forged = committed_and_forged(tmp_path, "salt", "00" * 16, rounds=2)
    assert "digest" not in json.loads(kabucli("audit", "--json", str(forged)).stdout)[0]
    for args in (["--json"], ["--json", "--at", "2"], ["--json", "--as", "p1"]):
        res = kabucli("replay", *args, str(forged))
        assert res.returncode == 1, (args, res.stderr)
        assert json.loads(res.stdout)["digest"] is None, args
        assert json.loads(kabucli("replay", *args, str(log)).stdout)["digest"] is not None


def test_repair_says_the_inputs_it_keeps_past_a_rule_it_cannot_derive(tmp_path: Path) -> None:
    """A real table's log with one block damaged: the repair keeps the 19 other inputs, of
    which 9 come after the one that now breaks a rule. It said "10 events kept" alone, and
    into JSON Lines counted the 9 inputs left out as 1 more record dropped."""
    data = bytearray(TIMED.read_bytes())
    data[300] ^= 0xFF  # inside block 10: checksum does not match
    bad = tmp_path / "bad.kbl"
    bad.write_bytes(bytes(data))
    res = kabucli("log", "repair", str(bad), str(tmp_path / "fixed.kbl"))
    assert res.returncode == 0, res.stderr
    assert res.stdout.splitlines()[0] == (
        f"wrote {tmp_path / 'fixed.kbl'} (10 events kept, 1 record dropped, and the 9 inputs "
        "after event 10, which breaks a rule, kept)")
    res = kabucli("log", "repair", str(bad), str(tmp_path / "fixed.jsonl"))
    assert res.stdout.splitlines()[0] == (
        f"wrote {tmp_path / 'fixed.jsonl'} (10 events kept, 1 record dropped, and the 9 inputs "
        "after event 10, which breaks a rule, left out)")
    # the repaired binary log keeps the timed log's blocks: one input each
    fixed = (tmp_path / "fixed.kbl").read_bytes()
    assert fixed == bytes(data[:293]) + bytes(data[309:])


def test_replay_of_a_timed_log_gives_the_time_of_the_event_that_breaks_a_rule(
        tmp_path: Path) -> None:
    """Who slapped first: the claim given back to Ben after the undo makes Chie's next flip
    out of turn. The line of that flip had no time, where every line before it has one."""
    js = broken_timed(tmp_path)
    res = kabucli("replay", str(js))
    assert res.returncode == 1
    out = [line for line in res.stdout.splitlines() if line.startswith("   7 ")]
    assert len(out) == 1 and out[0].startswith(
        "   7 12:33:13.837 p3 Chie      p3 flip 6 breaks a rule: it is not p3's turn")


def test_the_pager_gives_the_time_of_the_event_that_breaks_a_rule(tmp_path: Path) -> None:
    """`replay --step` stops before the flip out of turn with a note naming it; every line of
    a timed log gives when it was entered, and the note did not."""
    js = broken_timed(tmp_path)
    res = subprocess.run([sys.executable, "-m", "kabucli", "replay", "--step", str(js)],
                         input="g 6\nq\n", capture_output=True, text=True, timeout=60,
                         env={"NO_COLOR": "1", "COLUMNS": "200", "PATH": "/usr/bin:/bin",
                              "PYTHONPATH": str(REPLAYS.parent)})
    note = [line for line in res.stdout.splitlines() if line.startswith("next, event 7")]
    assert note == ["next, event 7, entered 12:33:13.837: p3 flip 6 breaks a rule: it is not "
                    "p3's turn (waiting for p2: p2 to flip saying one) (the replay stops "
                    "here)"], res.stdout


def test_the_web_page_of_a_log_that_breaks_a_rule_counts_the_events_it_shows(
        tmp_path: Path) -> None:
    """The page stops before the flip out of turn (event 7 of 26): its line said it held
    all 26 events."""
    js = broken_timed(tmp_path)
    page = tmp_path / "t.html"
    res = kabucli("replay", str(js), "--html", str(page))
    assert res.returncode == 1
    assert res.stdout.startswith(f"wrote {page} (6 events of the log's 26, "), res.stdout
    res = kabucli("replay", str(TIMED), "--html", str(page))
    assert res.returncode == 0 and res.stdout.startswith(f"wrote {page} (26 events, ")


def test_the_web_page_gives_the_time_of_the_event_that_breaks_a_rule_as_replay_does(
        tmp_path: Path) -> None:
    """The page's list of events had the broken flip's line without its time, where replay's
    line of it gives it (and every entry of the page before it has one)."""
    from kabucli import games
    from kabucli.log import read_log
    from kabucli.render.html import page_data

    js = broken_timed(tmp_path)
    replayed = [line for line in kabucli("replay", str(js)).stdout.splitlines()
                if line.startswith("   7 ")]
    when = replayed[0].split()[1]
    data = read_log(js, games.event_types)
    page = page_data(games.get("kazu-tori"), data, "t", None)
    for view in page["views"]:
        last = view["events"][-1]
        assert last["kind"] == "violation" and last["n"] == 7
        assert last["line"].startswith(f"{when} p3 flip 6 breaks a rule"), last["line"]


def test_a_json_lines_log_cut_before_its_derived_events_is_said_so(tmp_path: Path) -> None:
    """The digest binds the inputs: a JSON Lines log without its last derived events (the
    round's payment and the match's end) has the whole log's digest. audit passed it as
    merely 'unfinished' (probe BR); it now says the log ends before the events its last input
    leads to, in words and as --json's derived_missing, and resume writes them."""
    import json

    whole = tmp_path / "d.jsonl"
    res = kabucli("play", "dare", "--seed", "3", "--bot", "all=random", "-r", "rounds=2",
                  "--log", str(whole), "--quiet")
    assert res.returncode == 0, res.stderr
    lines = whole.read_text().splitlines(keepends=True)
    assert lines[-1].startswith('{"e":"end"') and lines[-2].startswith('{"e":"pay"')
    cut = tmp_path / "c.jsonl"
    cut.write_text("".join(lines[:-2]))
    res = kabucli("audit", str(whole), str(cut))
    assert res.returncode == 0, res.stderr
    said = res.stdout.splitlines()
    assert said[0].endswith(f"({len(lines) - 1} events, finished)"), said
    assert said[2] == (f"valid: {cut} ({len(lines) - 3} events, unfinished; it ends before the "
                       "events its last input leads to, which the engine derives (kabucli "
                       "resume writes them))"), said
    assert said[1] == said[3], said  # (one digest: the inputs are the same)
    docs = json.loads(kabucli("audit", "--json", str(whole), str(cut)).stdout)
    assert "derived_missing" not in docs[0] and docs[1]["derived_missing"] is True, docs
    assert kabucli("resume", str(cut), "--quiet").returncode == 0
    assert cut.read_text() == whole.read_text()


def test_a_format_1_binary_log_cut_before_its_derived_events_is_said_so_as_the_docs_say(
        tmp_path: Path) -> None:
    """A format 1 binary log stores every event, derived ones included, so it can be cut
    before them as a JSON Lines log can, and audit gives it derived_missing; the docs said
    only a JSON Lines log (and 'a binary log does not store them', true of format 2 alone)."""
    import json
    import re

    import msgspec

    from kabucli import games
    from kabucli.log import LogWriter, read_log

    whole = tmp_path / "d.jsonl"
    res = kabucli("play", "dare", "--seed", "3", "--bot", "all=random", "-r", "rounds=2",
                  "--log", str(whole), "--quiet")
    assert res.returncode == 0, res.stderr
    data = read_log(whole, games.event_types)
    v1 = msgspec.structs.replace(data.header, format=1, clock=None, commit=None, salt=None)
    cut = tmp_path / "c.kbl"
    writer = LogWriter.create(cut, v1, "msgpack")
    for ev in data.events[:-2]:  # without the last round's payment and the match's end
        writer.append(ev)
    writer.close()
    doc = json.loads(kabucli("audit", "--json", str(cut)).stdout)[0]
    assert doc["format"] == 1 and doc["derived_missing"] is True, doc
    root = Path(__file__).resolve().parent.parent / "docs"
    row = next(line for line in (root / "reports.md").read_text().splitlines()
               if line.startswith("| `derived_missing` |"))
    assert "format 1 binary log" in row, row
    page = " ".join((root / "log-format.md").read_text().split())
    said = re.search(r"The digest binds the inputs, not the events the engine derives from "
                     r"them: (.*?) has the same digest without them", page)
    assert said is not None and "format 1 binary log" in said[1], said


def test_audit_commit_of_a_log_with_no_commitment_says_it_has_none() -> None:
    """audit LOG --commit HEX of a log that records no commitment (a seeded game played
    without --commit, a real table with no seed at all) said 'its seed commitment is none,
    ...: its seed is not the one committed to before the deal', a claim about a seed it
    cannot check (and that a real table does not have): it says the log holds none."""
    seeded = REPLAYS / "dare" / "3p-showdown-outright.kbl"
    table = REPLAYS / "dare" / "3p-physical-match.kbl"
    for log, why in ((seeded, "it was not played with --commit"),
                     (table, "a real table has no seed")):
        res = kabucli("audit", str(log), "--commit", "9c20625844986f60")
        assert (res.returncode, res.stderr) == (
            1, f"invalid: {log}: it records no seed commitment ({why}), so nothing in it "
               "binds a seed to 9c20625844986f60...\n")
        res = kabucli("audit", str(log), "--commit", "9c20625844986f60", "--json")
        assert "records no seed commitment" in res.stdout and res.returncode == 1


@pytest.mark.parametrize("encoding", ["jsonl", "kbl"])
def test_a_log_that_breaks_a_rule_and_is_cut_short_is_invalid_as_replay_says(
        tmp_path: Path, encoding: str) -> None:
    # audit called such a log unreadable (exit 2) and told to resume it, which resume
    # refuses; replay said the rule broken (exit 1): the rule broken is the finding, and the
    # cut is said beside it (probe DQ)
    import json

    import msgspec
    from logbytes import bodies, rebuilt

    from kabucli.log import _pack, frame

    whole = tmp_path / f"g.{encoding}"
    assert kabucli("play", "dare", "--seed", "3", "--bot", "all=random", "--quiet", "--log",
                   str(whole)).returncode == 0
    log = tmp_path / f"t.{encoding}"
    if encoding == "jsonl":  # the second ante raised to 7, the last line cut
        lines = whole.read_text().splitlines()
        assert lines[2].startswith('{"e":"pay","src":2,') and '"amount":1' in lines[2]
        lines[2] = lines[2].replace('"amount":1', '"amount":7')
        log.write_text("\n".join(lines[:9]) + "\n" + lines[9][:15])
        where, broken, cut = 2, "pay p2 pot 7 ante", "event 9: truncated"
    else:  # the first lay made of cards p2 does not hold, then a frame cut short
        parts = bodies(whole.read_bytes())
        records = msgspec.msgpack.decode(parts[1])
        lay = next(r for r in records if len(r) == 3 and isinstance(r[2], list))
        lay[2] = [[10, 10, 10]]
        log.write_bytes(rebuilt([parts[0], msgspec.msgpack.encode(records)])
                        + frame(_pack(b"\x91\x00" * 40))[:9])
        where, broken, cut = None, "p2 sets 10-10-10", "a record after it: truncated"
    res = kabucli("audit", str(log))
    assert res.returncode == 1, res.stderr
    line = res.stderr.strip()
    assert line.startswith(f"invalid: {log}: event ") and broken in line, line
    assert f"(and it cannot be read to its end: {cut}" in line and "resume" not in line
    doc = json.loads(kabucli("audit", str(log), "--json").stdout)[0]
    assert doc["status"] == "invalid" and broken == doc["action"]
    assert doc["error"].startswith(f"{log}: {cut}")
    replayed = kabucli("replay", str(log), "--json")
    assert replayed.returncode == 1
    violation = json.loads(replayed.stdout)["violation"]
    assert violation["index"] == doc["index"] and (where is None or where == doc["index"])


def test_a_real_table_log_waiting_for_the_deal_the_referee_types_lacks_no_derived_event(
        tmp_path: Path) -> None:
    """At a real table no seed deals: a log that ends where the referee is to type the deal
    (before the first, or after an undo took it back) waits for an input, and lacks no event
    the engine derives: audit says no 'derived_missing', in words or in --json (a seeded log
    ending there lacks the deal its seed gives)."""
    import json

    jsonl = tmp_path / "p.jsonl"
    assert kabucli("log", "convert", str(REPLAYS / "dare" / "3p-physical-match.kbl"),
                   str(jsonl)).returncode == 0
    head, deal = jsonl.read_text().splitlines()[:2]
    assert json.loads(head)["seed"] is None and json.loads(deal)["e"] == "deal"
    for name, text in (("none", head + "\n"), ("undone", f'{head}\n{deal}\n{{"e":"undo"}}\n')):
        log = tmp_path / f"{name}.jsonl"
        log.write_text(text)
        res = kabucli("audit", str(log))
        assert res.returncode == 0, res.stderr
        assert res.stdout.startswith(f"valid: {log} ") and "derives" not in res.stdout
        doc = json.loads(kabucli("audit", "--json", str(log)).stdout)[0]
        assert doc["status"] == "valid" and "derived_missing" not in doc, doc
