"""Kazu-Tori at the command line: rules, deal, play (bots, a person with bots, a refereed
table from a script), replay and audit, the same commands as Dare."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from matchtools import inputs_and_after, page_example
from typer.testing import CliRunner

from kabucli import games
from kabucli.cli import app
from kabucli.games.kazu_tori.rules import GAME, Flip, Race, Score, Shuffle
from kabucli.log import read_log, write_log

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "120", "TERM": "dumb"}

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rules" / "kazu-tori.md"
# The refereed table of docs/rules/kazu-tori.md, read from the page.
SCRIPT = page_example(PAGE, "Example of a table refereed by hand")


def run(*args: str, input: str | None = None) -> Any:
    res = runner.invoke(app, list(args), input=input, env=ENV)
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    return res


@pytest.fixture(scope="module")
def bot_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("kazutori") / "bots.kbl"
    res = run("play", "kazu-tori", "--seed", "5", "--bot", "1=sharp", "--bot", "2=random",
              "--bot", "3=sharp", "--bot", "4=random", "--log", str(path), "--quiet")
    assert res.exit_code == 0, res.stderr
    return path


def test_rules_kazu_tori_documents_the_notation_with_examples_and_the_house_rules() -> None:
    res = run("rules", "kazu-tori")
    assert res.exit_code == 0
    for text in ("p3 flip 7", "p2 claim", "p2 pass", "stop", "handout p1 jizo p2",
                 "limit", "max_flips", "10 | 15 | 20", "split | each | none"):
        assert text in res.stdout, text
    data = json.loads(run("rules", "kazutori", "--json").stdout)
    assert data["name"] == "kazu-tori" and data["players"] == [2, 5]
    assert {r["name"]: r["default"] for r in data["house_rules"]} == {
        "limit": 10, "tie": "split", "max_flips": 2000, "chips": 50}


def test_deal_shows_the_seeded_piles() -> None:
    data = json.loads(run("deal", "kazu-tori", "--seed", "5", "--json").stdout)
    piles = data["state"]["piles"]
    assert [len(p) for p in piles.values()] == [10, 10, 10, 10]
    assert sorted(c for p in piles.values() for c in p).count("Oni") == 1
    text = run("deal", "kazu-tori", "--seed", "5", "--players", "3").stdout
    assert "seed 5" in text and "14" in text


def test_a_bot_game_plays_to_the_end_and_its_log_audits_clean(bot_log: Path) -> None:
    res = run("audit", str(bot_log))
    assert res.exit_code == 0, res.stdout
    assert res.stdout.startswith(f"valid: {bot_log}") and "finished" in res.stdout


def test_replay_reads_each_flip_race_and_ending_in_words(bot_log: Path) -> None:
    res = run("replay", str(bot_log))
    assert res.exit_code == 0
    events = read_log(bot_log, games.event_types).events
    assert "turns" in res.stdout and "says one" in res.stdout
    if any(isinstance(e, Race) for e in events):
        assert "reach for the card" in res.stdout and " ms" in res.stdout
    assert "game over" in res.stdout and "final chips" in res.stdout
    steps = json.loads(run("replay", str(bot_log), "--json").stdout)["steps"]
    assert [s["notation"] for s in steps] == [GAME.notate(e) for e in events]


def test_a_refereed_table_from_a_script_plays_audits_and_scores(tmp_path: Path) -> None:
    script = tmp_path / "table.txt"
    script.write_text(SCRIPT)
    log = tmp_path / "table.jsonl"
    res = run("play", "kazu-tori", "--physical", "--script", str(script), "--log", str(log))
    assert res.exit_code == 0, res.stderr
    out = " ".join(res.stdout.split())  # lines are folded to the terminal's width
    assert "p4 flips: first the cards on the table are given out" in out
    assert "the Jizo goes to p4; the other cards, most recent first: 1 to p1, 1 to p2; then p4 " \
           "turns 4, says four: may be taken!" in out
    assert "p2 claims first and takes the table" in out
    assert "the players agreed to stop (proposed by p2)" in out
    events = read_log(log, games.event_types).events
    assert [GAME.notate(e) for e in events][:8] == [
        "deal 10/10/10/10", "p1 flip 7", "p2 flip 3", "p3 flip Jizo", "p1 claim",
        "penalty p1 gives p2 p3 p4", "p4 flip 4", "handout p3 jizo p4 cards p1 p2"]
    score = next(e for e in events if isinstance(e, Score))
    # p1 10-1-3, p2 10-1+1+1 (the 7)+1 (the 4), p3 10-1+1, p4 10+1+1 (the Jizo)-1
    assert score.cards == [7, 12, 10, 11] and score.winners == [2]
    assert run("audit", str(log)).exit_code == 0


def _seats(text: str) -> list[int]:
    """'p2, p3 and p4' as [2, 3, 4]."""
    return [int(n) for n in re.findall(r"\bp(\d+)\b", text)]


def test_the_rules_page_s_refereed_table_does_what_its_comments_say(tmp_path: Path) -> None:
    """docs/rules/kazu-tori.md's table refereed by hand, its lines read from the page and played
    as a script at a real table of as many players as the page says: what each line's comment
    says happens is what kabucli records and prints for that line (the input the line is, and
    the events derived after it). A comment of a form this test does not read fails it."""
    intro = next(line for line in PAGE.read_text(encoding="utf-8").splitlines()
                 if line.startswith("Example of a table refereed by hand"))
    players = re.search(r"\((\d+) players\)", intro)
    assert players, "the page no longer says how many players the example has"
    script = tmp_path / "table.txt"
    script.write_text(SCRIPT)
    log = tmp_path / "table.jsonl"
    res = run("play", "kazu-tori", "--physical", "--players", players[1], "--script",
              str(script), "--log", str(log))
    assert res.exit_code == 0, res.stderr
    out = " ".join(res.stdout.split())
    lines = [line.partition("#") for line in SCRIPT.splitlines()]
    played = inputs_and_after(log)
    assert len(played) == len(lines), "one input a line of the page"
    table: list[int] = []  # the cards turned since the table was last cleared, oldest first
    checked = 0
    for (move, _, comment), (event, after) in zip(lines, played, strict=True):
        comment = comment.strip()
        where = f"page line {move.strip()!r} # {comment}"
        seat = event.get("seat")
        said = re.fullmatch(r'"(\w+)"(?:: (may not be taken|never taken))?', comment)
        penalty = re.fullmatch(r"wrong: p(\d+) gives (.+) a card each", comment)
        handout = re.fullmatch(r'p(\d+) turns a (\d+), "(\w+)"; first the Jizo goes to '
                               r"p(\d+), (.+)", comment)
        take = re.fullmatch(r'the (\d+) said (\w+): p(\d+) takes the table and says "(\w+)" '
                            r"next", comment)
        if not comment:
            assert event["e"] == "deal", where
        elif said:
            assert event["e"] == "flip", where
            name = move.split()[-1]
            assert f"p{seat} turns {name}, says {said[1]}" in out, where
            if said[2]:  # "may not be taken" as the table says it, the Jizo's "never" too
                assert f"{name} said {said[1]} by p{seat}: may not be taken" in out, where
        elif penalty:
            assert event == {**event, "e": "claim", "seat": int(penalty[1])}, where
            assert [e for e in after if e["e"] == "penalty"] == [
                {"e": "penalty", "seat": int(penalty[1]), "to": _seats(penalty[2])}], where
        elif handout:
            assert event == {**event, "e": "flip", "seat": int(handout[1]),
                             "card": int(handout[2])}, where
            given = re.findall(r"the (\d+) to p(\d+)", handout[5])
            assert ", ".join(f"the {c} to p{s}" for c, s in given) == handout[5], where
            jizo = [e for e in after if e["e"] == "handout"]
            assert jizo == [{"e": "handout", "seat": jizo[0]["seat"], "jizo": int(handout[4]),
                             "to": [int(s) for _, s in given]}], where
            # the other cards, most recent first, are the cards the comment names, in order
            assert [c for c in reversed(table) if c != 12] == [int(c) for c, _ in given], where
            assert f"p{handout[1]} turns {handout[2]}, says {handout[3]}" in out, where
            table = []
        elif take:
            assert event == {**event, "e": "claim", "seat": int(take[3])}, where
            assert not [e for e in after if e["e"] == "penalty"], where  # a right claim
            assert table[-1] == int(take[1]), where
            assert f"p{take[3]} claims first and takes the table" in out, where
            rest = out[out.index(f"p{take[3]} claims first and takes the table"):]
            assert re.search(rf"p{take[3]}\W+\d+\W+\d+\W+flips next, says {take[4]}\b", rest), \
                where
            table = []
        elif comment == "the players agree to stop: scored as it stands":
            assert event["e"] == "stop", where
            assert [e["reason"] for e in after if e["e"] == "score"] == ["agreement"], where
        else:
            raise AssertionError(f"{where}: a comment this test does not read: update it")
        checked += bool(comment)
        if event["e"] == "flip":
            table.append(event["card"])
    assert checked == len(lines) - 1


def test_a_referee_typing_an_impossible_card_is_told_why(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("deal\n7\n7\n7\n7\n7\n")
    res = run("play", "kazu-tori", "--physical", "--script", str(script), "--no-log")
    assert res.exit_code == 1
    assert "only 4 copies of 7" in res.stderr


def test_a_person_with_bots_claims_or_passes_at_the_prompt(tmp_path: Path) -> None:
    log = tmp_path / "person.kbl"
    res = run("play", "kazu-tori", "--seed", "3", "--bot", "2=sharp", "--bot", "3=sharp",
              "--bot", "4=sharp", "--log", str(log),
              input="flip\np1 pass\np1 pass\np1 pass\np1 claim\nquit\n")
    assert res.exit_code == 0, res.stderr
    events = read_log(log, games.event_types).events
    assert [GAME.notate(e) for e in events if e.KIND == "action"][:8] == [
        "p1 flip", "p1 pass", "p2 flip", "p1 pass", "p3 flip", "p1 pass", "p4 flip", "p1 claim"]
    assert run("audit", str(log)).stdout.splitlines()[0].endswith("unfinished)")


def test_the_prompt_offers_no_claim_to_a_person_who_claimed_the_card() -> None:
    """After p1's own (wrong) claim on the 2, the bots let it go and p1 is asked again: the
    prompt went on offering 'claim the 2', which is refused (a seat claims a card once); it
    now says the flip that is due, as a turn's prompt says it (probe BP)."""
    res = run("play", "kazu-tori", "--seed", "3", "--bot", "2=sharp", "--bot", "3=sharp",
              "--bot", "4=sharp", "--no-log",
              input="flip\np1 pass\np1 pass\np1 pass\np1 claim\nquit\n")
    assert res.exit_code == 0, res.stderr
    prompts = [line.split(" > ")[0] + " >" for line in res.stdout.splitlines()
               if line.startswith("p1 (")]
    assert prompts[-2:] == ["p1 (claim the 2 (four: may not be taken), or p1 flips five) >",
                            "p1 (to flip saying five) >"], prompts
    assert "p1 claims: a card that may not be taken" in res.stdout


def test_the_flip_the_limit_stops_is_said_as_stopped_not_as_the_game_ended_by_a_player() -> None:
    """The flip past max_flips turns no card: its line read 'p1 sharp  the game stops at
    max_flips=12', as if p1 had ended the game (probe BQ)."""
    res = run("play", "kazu-tori", "--seed", "2", "--bot", "all=sharp", "-r", "max_flips=12",
              "--no-log")
    assert res.exit_code == 0, res.stderr
    line = next(x for x in res.stdout.splitlines() if "max_flips=12" in x)
    assert line.split(maxsplit=3)[1:] == [
        "p1", "sharp", "p1 would flip, but the game stops at max_flips=12: no card is turned"]


def test_a_tampered_copy_is_rejected_at_the_changed_event(bot_log: Path, tmp_path: Path) -> None:
    data = read_log(bot_log, games.event_types)
    events = list(data.events)
    pos = next(i for i, e in enumerate(events) if isinstance(e, Shuffle) and
               len(e.piles[0]) > 2)
    sh = events[pos]
    assert isinstance(sh, Shuffle)
    events[pos] = Shuffle(sh.seats, [sh.piles[0][::-1], *sh.piles[1:]])
    bad = tmp_path / "bad.jsonl"  # JSON Lines holds the derived events too
    write_log(bad, data.header, events, "jsonl")
    res = run("audit", str(bad))
    assert res.exit_code == 1
    assert f"event {pos + 1}: table 'shuffle" in res.stdout + res.stderr
    assert "the seed deals" in res.stdout + res.stderr
    pos, flip = [(i, e) for i, e in enumerate(data.events) if isinstance(e, Flip)][3]
    events = list(data.events)
    events[pos] = Flip(flip.seat % 4 + 1)
    write_log(bad, data.header, events, "jsonl", overwrite=True)
    res = run("audit", str(bad))
    assert res.exit_code == 1
    assert f"event {pos + 1}: p{flip.seat % 4 + 1} 'p{flip.seat % 4 + 1} flip'" in res.stdout + \
        res.stderr


def test_kazu_tori_takes_2_to_5_players_and_refuses_1_or_6_in_one_line() -> None:
    for n in ("1", "6"):
        res = run("play", "kazu-tori", "-n", n, "--seed", "1", "--bot", "all=sharp",
                  "--no-log", "--quiet")
        assert res.exit_code == 1
        assert res.stderr.strip() == f"error: Kazu-Tori takes 2-5 players, not {n}"
    for n in ("2", "5"):
        res = run("play", "kazu-tori", "-n", n, "--seed", "1", "--bot", "all=sharp",
                  "--no-log", "--quiet")
        assert res.exit_code == 0, res.stderr


def test_the_legal_moves_listed_at_the_prompt_are_the_persons_not_the_bots() -> None:
    """In a claim window every seat may act, bots too; `?` lists only what the person may
    type (a bot seat's move typed is refused: a probe, H8)."""
    res = run("play", "kazu-tori", "-s", "3", "-b", "2=random", "-b", "3=random", "-b",
              "4=random", "--no-log", input="flip\n?\nquit\n")
    assert res.exit_code == 0
    listed = res.stdout.split("legal moves:", 1)[1].split("p1 (", 1)[0].split()
    assert listed and all(not word.startswith(("p2", "p3", "p4")) for word in listed), listed
    assert "p1" in listed


def test_a_replay_gives_a_programs_reaction_time_as_the_race_used_it(tmp_path: Path) -> None:
    # a program (cmd:) races with the default profile, 250-500 ms: the replay says its time,
    # not its raw draw, so the fastest time written is the seat that claims first
    import re
    import sys

    bot = tmp_path / "claims.py"
    bot.write_text("import json, sys\nfor line in sys.stdin:\n    m = json.loads(line)\n"
                   "    if m['type'] != 'turn':\n        continue\n    s = m['state']\n"
                   "    print('claim' if s['takeable'] else 'pass' if s['phase'] == 'window' "
                   "else 'flip', flush=True)\n")
    res = run("sim", "kazu-tori", "-b", f"cmd:{sys.executable} {bot}", "-b", "sharp", "-m",
              "2", "--seed", "1", "--workers", "1", "--fixed-seats", "--logs",
              str(tmp_path / "logs"))
    assert res.exit_code == 0, res.output
    races = 0
    for log in sorted((tmp_path / "logs").iterdir()):
        lines = run("replay", str(log)).output.splitlines()
        for i, line in enumerate(lines):
            if "reach for the card" not in line:
                continue
            times = {int(p): int(ms) for p, ms in re.findall(r"p(\d) (\d+) ms", line)}
            assert sorted(times) == [1, 2] and "draw" not in line, line
            assert 250 <= times[1] <= 500 and 180 <= times[2] <= 340, line  # program, sharp
            # (the lines after it as one: a long program name wraps the claim's line)
            after = " ".join(" ".join(lines[i + 1:i + 4]).split())
            first = re.search(r"p(\d) claims first", after)
            assert first and times[int(first.group(1))] == min(times.values()), lines[i:i + 2]
            races += 1
    assert races > 0


def test_a_game_over_after_one_flip_says_flip() -> None:
    # (it said "after 1 flips")
    res = run("play", "kazu-tori", "-b", "2=sharp", "--seed", "3", "--no-log",
              input="flip\nstop\ny\n")
    assert res.exit_code == 0, res.output
    assert "Game over after 1 flip: p1 stopped the game." in " ".join(res.output.split())


def test_a_stop_with_bots_at_the_table_is_the_persons_not_an_agreement() -> None:
    """The bots never stop and agree to nothing: the words said the players agreed. A table of
    people (above, refereed) still reads as their agreement."""
    res = run("play", "kazu-tori", "-b", "2=sharp", "--seed", "3", "--no-log",
              input="flip\nstop\ny\n")
    out = " ".join(res.output.split())
    assert "p1 stopped the game" in out and "agreed" not in out


def test_at_a_real_table_at_max_flips_the_prompt_and_table_offer_no_flip() -> None:
    """At a real table once max_flips cards were turned every flip is refused (the referee
    ends the game with 'stop'), but the prompt went on saying '... or p1 flips four' and
    the table 'flips next, says four' (probe CA): the prompt's words were kept for the
    window whatever the flips. They say the stop, and no seat flips next; with a flip to
    spare (max_flips=4) they still offer the flip."""
    names = ("--player", "Ann", "--player", "Bob", "--player", "Cat")
    flips = "deal\np1 flip 7\np2 flip 3\np3 flip 5\n"
    res = run("play", "kazu-tori", "--physical", *names, "--no-log", "-r", "max_flips=3",
              input=flips + "p1 flip 2\n?\nquit\n")
    assert res.exit_code == 0, res.output
    last = res.stdout.split("p3 turns 5, says three")[-1]  # the window of the third card
    prompts = [line for line in last.splitlines() if line.startswith("referee (")]
    assert len(prompts) == 3, last  # the third card's window: asked again after the refusal
    for prompt in prompts:
        assert "flips four" not in prompt and "flip saying" not in prompt, prompt
        assert "claim the 5 (three: may not be taken), or stop (max_flips=3 reached)" in prompt
    assert "flips next" not in last, last
    assert "max_flips=3" in last and "refused: " in last
    listed = [line.strip() for line in last.split("legal moves:")[1].splitlines()
              if line.startswith("  ")]  # ? at the limit: claims, passes and the stop
    assert listed and not [m for m in listed if "flip" in m] and "p1 stop" in listed, listed
    # the card at the limit taken: nobody flips; the prompt, and what a refused flip is
    # told to type, say the stop
    res = run("play", "kazu-tori", "--physical", *names, "--no-log", "-r", "max_flips=3",
              input="deal\np1 flip 7\np2 flip 5\np3 flip 3\np1 claim\np2 flip 4\nquit\n")
    last = res.stdout.split("p1 claims first and takes the table")[-1]
    prompts = [line for line in last.splitlines() if line.startswith("referee (")]
    assert prompts and all("referee (p1 Ann to stop: the game has reached max_flips=3) > "
                           in prompt for prompt in prompts), prompts
    refused = last.split("refused: ")[1].splitlines()[0]
    assert "flips saying" not in refused and "'stop' ends it" in refused, refused
    assert "flips next" not in last, last
    # a flip short of the limit: the prompt and the table offer it as before
    res = run("play", "kazu-tori", "--physical", *names, "--no-log", "-r", "max_flips=4",
              input=flips + "quit\n")
    last = res.stdout.split("p3 turns 5, says three")[-1]
    assert "or p1 Ann flips four" in last and "flips next, says four" in last, last


def test_the_next_flipper_who_claimed_the_card_shows_claimed_too() -> None:
    """A seat that claimed the card in the window and flips next says both: its status
    showed only 'flips next, says four' while every other claimant showed 'claimed' (probe
    DK)."""
    names = ("--player", "Ann", "--player", "Bob", "--player", "Cat")
    res = run("play", "kazu-tori", "--physical", *names, "--no-log",
              input="deal\np1 flip 7\np2 flip 3\np3 flip 5\np1 claim\np2 claim\nquit\n")
    assert res.exit_code == 0, res.output
    last = res.stdout.split("p2 claims")[-1]  # the table after both claims
    rows = {line.split()[1]: line for line in last.splitlines() if re.match(r"│ p\d ", line)}
    assert "claimed, flips next, says four" in rows["p1"], last
    assert "claimed" in rows["p2"] and "flips next" not in rows["p2"], last
    assert "claimed" not in rows["p3"], last


def test_at_a_real_table_a_claim_without_a_seat_is_asked_whose() -> None:
    """At a real table the referee types every seat's moves: 'claim' or 'pass' with no seat
    is asked whose, even where one seat acts (p1 to flip), never taken as that seat's and
    refused for it (probe EN: a mutant that gave it to the one seat to act survived)."""
    from kabucli.errors import ParseError
    from kabucli.log import SeatInfo
    from kabucli.rules import build
    from kabucli.session import start
    seats = [SeatInfo(f"s{i}", "human") for i in range(1, 5)]
    sess = start(GAME, build(GAME.Rules, []), seats, None, None, None)
    sess.run_bots()
    sess.submit_line("deal")
    sess.run_bots()
    assert list(sess.match.pending.seats) == [1]
    with pytest.raises(ParseError, match="say who claimed first"):
        sess.submit_line("claim")
    with pytest.raises(ParseError, match="say who lets the card go"):
        sess.submit_line("pass")
