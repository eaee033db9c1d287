"""Checks of `kabucli sim` and `kabucli tournament` reports recomputed independently, from the
logs of the matches (probe AL)."""

from __future__ import annotations

from kabucli import games
from kabucli.rules import build
from kabucli.sim import simulate

DARE = games.get("dare")


def test_a_bot_that_exits_at_once_forfeits_every_match_with_the_same_reason() -> None:
    # `false` exits before reading its first question: whether writing that question found the
    # pipe closed (it said "is not running (exit code 1)") or reading the answer found the
    # output closed ("exited (code 1) without answering") was a race, so the same run gave
    # another report (and other logs) every time it ran
    report = simulate(DARE, build(DARE.Rules, ["rounds=1"]), ["best", "cmd:false"], 16, seed=2)
    assert report.failures == 16
    reasons = {f["reason"].split(") ", 1)[1] for f in report.failed}
    assert reasons == {"exited (code 1) without answering"}, reasons


def test_a_bot_program_gone_before_its_first_question_exited_without_answering() -> None:
    # the other side of the race above, made certain: the program has exited before the
    # question is written (the write finds the pipe closed)
    import time

    from kabucli.bots.external import Channel, Stalled

    chan = Channel(["false"], 5.0)
    try:
        chan.proc.wait(5)
        deadline = time.monotonic() + 5
        try:
            chan.send(b'{"type": "turn"}\n', deadline)
            chan.line(deadline)
        except Stalled as exc:
            said = str(exc)
        assert said == "exited (code 1) without answering"
    finally:
        chan.kill()
