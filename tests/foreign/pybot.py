"""A Python class bot written from docs/bots.md alone: the last legal move (Yatchaba)."""


class LastLegal:
    def __init__(self, rng):
        self.rng = rng

    def choose(self, game, state, seat):
        return game.legal(state, seat)[-1]


class Raises(LastLegal):
    def choose(self, game, state, seat):
        raise RuntimeError("on purpose")


class Notation(LastLegal):
    def choose(self, game, state, seat):
        return f"p{seat} pass"


class Guesser:
    """Yatchaba as tests/foreign/strategy.mjs plays it, reading the state a program is sent
    through ``game.view(state, seat)`` and the moves through ``game.notate`` (docs/bots.md):
    the same decisions, so the same matches, as the program's."""

    def __init__(self, rng):
        self.rng = rng

    def choose(self, game, state, seat):
        import re
        from itertools import combinations_with_replacement
        from math import comb

        st = game.view(state, seat)
        legal = [game.notate(e) for e in game.legal(state, seat)]
        me = f"p{seat}"
        if st["phase"] == "guess":
            left = dict.fromkeys(range(1, 13), 4)
            for card in st["face_up"]:
                left[int(re.match(r"\d+", card).group())] -= 1  # "12c3": month 12

            def ways(g):
                out = 1
                for m in set(g):
                    out *= comb(left[m], g.count(m))
                return out
            best = max(combinations_with_replacement(range(1, 13), 3), key=ways)
            return "guess " + " ".join(map(str, best))
        if st["phase"] == "bet":
            assert f"{me} bet {st['next_amount']}" in legal, legal
            if st["guesser"] == seat:
                return "bet"
            keeps_turn = me in st["may_guess"] and st["passes"][me] >= 2
            return "bet" if keeps_turn and st["next_amount"] <= 3 else "pass"
        return "stop"
