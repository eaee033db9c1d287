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
