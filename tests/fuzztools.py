"""What the fuzzers of typed lines, bot answers, options and rules files draw from, and how
they count what they tried."""

from __future__ import annotations

from dataclasses import dataclass, field

# Numbers as people and programs write them: in and out of every bound, huge, signed, in
# other scripts' digits, as words of other notations.
NUMBERS = ["0", "1", "3", "12", "13", "40", "999", "1000", "-1", "-0", "007", "+5", "1_0",
           str(2**63 - 1), str(2**63), str(2**64), "9" * 30, "9" * 5000, "1" + "0" * 4400,
           "²", "¹", "١٢", "߁", "Ⅻ", "1.5", "1e9", "0x10", "∞"]
# Text that has broken programs: escapes, controls, bidirectional marks, other scripts, markup.
WEIRD = ["\x1b[2J", "\x1b]0;title\x07", "\x00", "\x07", "\x08", "\t", "\r", "\x85", "\x9b31m",
         "\u202e", "\u2066", "\u200b", "\ufeff", "\u2028", "\ud800", "\U0010ffff", "山田",
         "\u3000", "🎴", "ß", "Ǳ", "İ", "[/]", "[bold]", "'", '"', "\\", "#", "%s", "{}", "",
         # what folding a typed line changes (typed_form): full width, dashes, expansions
         "ｐ１", "ｃｌａｉｍ", "４ー６ー８", "ー", "－", "ｰ", "\u2212", "①", "ﬁ", "㍻", "\ufdfa",
         "\ufdfa" * 60]


@dataclass
class Stats:
    """What a fuzz run did: cases tried, lines accepted, clean refusals, and every crash."""

    tried: int = 0
    accepted: int = 0
    refused: int = 0
    crashes: list[tuple[str, str]] = field(default_factory=list)

    def count(self, case: str, why: str | None, refused: bool) -> None:
        """One case tried: a crash (``why`` it is one), else a clean refusal or accepted."""
        self.tried += 1
        if why is not None:
            self.crashes.append((case, why[:300]))
        elif refused:
            self.refused += 1
        else:
            self.accepted += 1

    def report(self, width: int = 120) -> str:
        """The first ten crashes, each case cut to ``width`` characters."""
        return "\n".join(f"  {case[:width]!r}: {why}" for case, why in self.crashes[:10])

    def line(self, what: str) -> str:
        return (f"{what}: {self.tried} cases, {self.accepted} accepted, {self.refused} clean "
                f"errors, {len(self.crashes)} crashes")
