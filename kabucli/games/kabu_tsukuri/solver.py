"""The Kabu-Tsukuri solver: the arrangement of a hand with the most expected chips.

Model (docs/rules/kabu-tsukuri.md): each other player's row in each round is three cards
drawn at random, in a random laid order, from the cards this player has not seen (the deck
less their own hand), independently of every other row. Under it a row of strength ``s`` wins
its round with probability ``w[s]`` and the round ties (the pot carries) with probability
``t[s]``, whoever ties; with ``Q`` = the pot of row 1 (the bets and what was carried in) and
``B`` = the bets of one round, the chips a hand brings back are

    w1*Q + w2*(B + t1*Q) + w3*(B + t2*(B + t1*Q))

and the expectation per hand is that less the three bets. A tie on row 3 carries the pot out
of the hand: it counts nothing here.

Method: the rows' strengths are read from a table of every laid row (12**3 of them) made once
per ranking. An arrangement is a card set aside (ten cards), three sets of three for the rows
and a laid order in each; orders that give a row the same strength give the arrangement the
same value, so each set of three is tried with one order per strength it can reach (one,
except three consecutive months: rising, falling, any other). The value above is
``Q*(w1 + t1*V2) + B*(V2 + V3)`` with ``V3 = w3`` and ``V2 = w2 + t2*V3``: it only grows with
``w3``, so row 3 is laid in its strongest order, and a bound on it for each row 1
(:func:`best_plans`) leaves out only rows 1 that cannot beat what was found. So every set
aside, split into rows, order of the rows and reachable strength is accounted for.

The search runs over positions in the sorted hand, not over months: which sets of positions
make row 1, which position is set aside and how the six left split into rows 2 and 3 are
tables made once at import for hands of 9 and of 10 cards (:data:`_SHAPES`), so a hand only
looks its months up. The module is written for mypyc (flat lists of numbers, no tuples or
dictionaries in the loops) and is part of the compiled core.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, permutations
from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from kabucli.hands import FIXED, KUDARI, NOBORI, PLAIN, fixed_rank

MONTHS: Final = 12
COPIES: Final = 4
LEVELS: Final = 110  # strengths are rank * 10 + digit, rank 0-10
RANKINGS: Final = ("extended", "kabu")

Triple = tuple[int, int, int]


def _index(a: int, b: int, c: int) -> int:
    return (a * 13 + b) * 13 + c


class _ListVec:
    """``vec[T](items, capacity=n)`` made a plain list, and ``append`` on it."""

    def __class_getitem__(cls, item: object) -> type[_ListVec]:
        return cls

    def __new__(cls, items: Iterable[object] = (), *,  # type: ignore[misc]
                capacity: int = 0) -> list[object]:
        return list(items)


def _list_append(v: list[object], o: object) -> list[object]:
    v.append(o)
    return v


# Compiled, librt's vec is an array of machine numbers that the loops below read without
# boxing. Interpreted it is slower than a list (each append makes a new vec, each index
# converts), so the pure-Python build runs the same code on lists. (A compiled function is a
# builtin, an interpreted one a plain Python function.)
if type(_index).__name__ == "function":
    globals().update(vec=_ListVec, append=_list_append)


def row_strength(a: int, b: int, c: int, ranking: str) -> int:
    """The strength of a row laid in the order a, b, c (months 1-12); higher wins, equal
    strengths tie. ``kabu``: the ones digit of the sum. ``extended``: a named hand first
    (rank * 10; Nobori and Kudari also add their ones digit), else the ones digit."""
    digit = (a + b + c) % 10
    if ranking == "kabu":
        return digit
    x, y, z = sorted((a, b, c))
    rank = fixed_rank(x, y, z)
    if rank != PLAIN:
        return rank * 10
    if b == a + 1 and c == b + 1:
        return NOBORI * 10 + digit
    if b == a - 1 and c == b - 1:
        return KUDARI * 10 + digit
    return digit


def _tables() -> tuple[dict[str, list[int]], list[Triple],
                       dict[str, dict[Triple, list[tuple[int, Triple]]]],
                       dict[str, dict[Triple, list[tuple[int, int]]]]]:
    strength: dict[str, list[int]] = {}
    keys = [(a, b, c) for a in range(1, 13) for b in range(a, 13) for c in range(b, 13)]
    options: dict[str, dict[Triple, list[tuple[int, Triple]]]] = {}
    counts: dict[str, dict[Triple, list[tuple[int, int]]]] = {}
    for ranking in RANKINGS:
        table = [0] * (13 ** 3)
        for a in range(1, 13):
            for b in range(1, 13):
                for c in range(1, 13):
                    table[_index(a, b, c)] = row_strength(a, b, c, ranking)
        strength[ranking] = table
        opts: dict[Triple, list[tuple[int, Triple]]] = {}
        cnts: dict[Triple, list[tuple[int, int]]] = {}
        for key in keys:
            by_level: dict[int, Triple] = {}
            n_level: dict[int, int] = {}
            for a, b, c in sorted(set(permutations(key))):
                order = (a, b, c)
                level = table[_index(a, b, c)]
                by_level.setdefault(level, order)
                n_level[level] = n_level.get(level, 0) + 1
            opts[key] = sorted(by_level.items(), reverse=True)
            cnts[key] = sorted(n_level.items())
        options[ranking] = opts
        counts[ranking] = cnts
    return strength, keys, options, counts


# STRENGTH[ranking][_index(a, b, c)]; OPTIONS[ranking][sorted triple]: (strength, a laid order
# reaching it), strongest first; ORDERS[ranking][sorted triple]: (strength, how many of its
# distinct laid orders reach it).
STRENGTH, KEYS, OPTIONS, ORDERS = _tables()
assert all(k in OPTIONS["extended"] for k in FIXED)


class _Flat:
    """One ranking's tables as flat native arrays, for the loops.

    ``opt_first[_index(a, b, c)]`` / ``opt_count``: where the row options of the sorted
    triple a <= b <= c start in ``opt_level`` / ``opt_order`` (strongest first; an order is
    ``_index`` of its laid months). ``draw_start[i]`` .. ``draw_start[i + 1]``: the
    (strength, orders) pairs of the i-th of :data:`KEYS` in ``draw_level`` / ``draw_n``."""

    def __init__(self, ranking: str) -> None:
        first = [0] * (13 ** 3)
        count = [0] * (13 ** 3)
        level: list[int] = []
        order: list[int] = []
        for key, opts in OPTIONS[ranking].items():
            i = _index(key[0], key[1], key[2])
            first[i] = len(level)
            count[i] = len(opts)
            for lv, o in opts:
                level.append(lv)
                order.append(_index(o[0], o[1], o[2]))
        start = [0]
        draw_level: list[int] = []
        draw_n: list[int] = []
        for key in KEYS:
            for lv, n in ORDERS[ranking][key]:
                draw_level.append(lv)
                draw_n.append(n)
            start.append(len(draw_level))
        self.opt_first = vec[i64](first)
        self.opt_count = vec[i64](count)
        self.opt_level = vec[i64](level)
        self.opt_order = vec[i64](order)
        self.draw_start = vec[i64](start)
        self.draw_level = vec[i64](draw_level)
        self.draw_n = vec[i64](draw_n)


_FLAT: Final = {ranking: _Flat(ranking) for ranking in RANKINGS}


def unseen(hand: list[int] | tuple[int, ...]) -> list[int]:
    """Cards of each month (index 1-12) a player holding ``hand`` has not seen."""
    left = [0] + [COPIES] * MONTHS
    for m in hand:
        left[m] -= 1
    return left


def _levels(left: vec[i64], flat: _Flat) -> vec[float]:
    """:func:`opponent_levels` on native arrays."""
    start = flat.draw_start
    levels = flat.draw_level
    norders = flat.draw_n
    counts = vec[i64]([0] * LEVELS)
    k: i64 = 0  # the number of (a, b, c) among KEYS, which run in this order
    for a in range(1, MONTHS + 1):
        la = left[a]
        for b in range(a, MONTHS + 1):
            lab = la * (left[b] - 1 if b == a else left[b])
            for c in range(b, MONTHS + 1):
                lc = left[c]
                if c == b:
                    lc -= 1
                    if c == a:
                        lc -= 1
                ways = lab * lc
                if ways > 0:
                    for j in range(start[k], start[k + 1]):
                        counts[levels[j]] += ways * norders[j]
                k += 1
    cards: i64 = 0
    for m in range(1, MONTHS + 1):
        cards += left[m]
    total = cards * (cards - 1) * (cards - 2)  # every laid order of three distinct cards
    dist = vec[float](capacity=LEVELS)
    for i in range(LEVELS):
        dist = append(dist, float(counts[i]) / float(total) if total > 0 else 0.0)
    return dist


def opponent_levels(left: list[int], ranking: str) -> list[float]:
    """The chance of each strength for a row of three cards drawn from ``left`` in a random
    laid order."""
    return list(_levels(vec[i64](left), _FLAT[ranking]))


def _power(x: float, k: i64) -> float:
    """``x ** k`` for a small whole ``k >= 0``, by multiplying (compiled, a call of ** is
    slower)."""
    out = 1.0
    for _ in range(k):
        out *= x
    return out


def _odds(dist: vec[float], k: i64) -> tuple[vec[float], vec[float]]:
    """:func:`odds` on native arrays."""
    below = vec[float](capacity=LEVELS + 1)  # below[s]: one other row is weaker than s
    lower = vec[float](capacity=LEVELS + 1)  # every other row is weaker
    g = 0.0
    for i in range(LEVELS + 1):
        below = append(below, g)
        lower = append(lower, _power(g, k))
        if i < LEVELS:
            g += dist[i]
    # shared[v]: the strongest of the others' rows is v and two or more have it
    shared = vec[float]([0.0] * (LEVELS + 1))
    for v in range(LEVELS - 1, -1, -1):
        e = dist[v]
        here = 0.0
        if e > 0:
            here = lower[v + 1] - lower[v] - float(k) * e * _power(below[v], k - 1)
        shared[v] = shared[v + 1] + max(here, 0.0)
    win = vec[float](capacity=LEVELS)
    tie = vec[float](capacity=LEVELS)
    for s in range(LEVELS):
        win = append(win, lower[s])
        tie = append(tie, lower[s + 1] - lower[s] + shared[s + 1])
    return win, tie


def odds(dist: list[float], others: int) -> tuple[list[float], list[float]]:
    """For each strength ``s`` of our row against ``others`` rows of strength distribution
    ``dist``: the chance ours is the one strongest (``w[s]``), and the chance the strongest
    row is shared, ours among them or not (``t[s]``, the pot carries)."""
    win, tie = _odds(vec[float](dist), others)
    return list(win), list(tie)


class Plan:
    """One arrangement and its expected chips per hand: the cards set aside, the rows in
    laid order (row 1 first) and each row's strength."""

    def __init__(self, ev: float, aside: tuple[int, ...], rows: tuple[Triple, Triple, Triple],
                 levels: tuple[int, int, int]) -> None:
        self.ev = ev
        self.aside = aside
        self.rows = rows
        self.levels = levels


class Model:
    """Win and tie chances of each row strength for one player's hand, the table, the bet
    and what carried into the hand."""

    def __init__(self, hand: list[int] | tuple[int, ...], players: int, ranking: str,
                 bet: int = 1, carried: int = 0) -> None:
        self.flat = _FLAT[ranking]
        self.wv, self.tv = _odds(_levels(vec[i64](unseen(hand)), self.flat), players - 1)
        self.ranking = ranking
        self.bet = bet
        self.round = float(players * bet)  # the bets of one round
        self.first = float(players * bet + carried)  # the pot of row 1

    @property
    def win(self) -> list[float]:
        """The chance a row of each strength wins its round."""
        return list(self.wv)

    @property
    def tie(self) -> list[float]:
        """The chance the round of a row of each strength ties (the pot carries)."""
        return list(self.tv)

    def value(self, levels: tuple[int, int, int] | list[int]) -> float:
        """Expected chips per hand of rows of these strengths (row 1 first)."""
        w, t = self.wv, self.tv
        s1, s2, s3 = levels
        q, b = self.first, self.round
        return (w[s1] * q + w[s2] * (b + t[s1] * q) + w[s3] * (b + t[s2] * (b + t[s1] * q))
                - 3 * self.bet)


def arrangement_value(model: Model, rows: list[list[int]] | tuple[Triple, ...]) -> float:
    """Expected chips per hand of rows in laid order (the way any arrangement is valued)."""
    table = STRENGTH[model.ranking]
    return model.value([table[_index(r[0], r[1], r[2])] for r in rows])


class _Shape:
    """The ways to arrange a sorted hand of ``size`` cards, by position.

    ``tri``: every set of three positions (ascending), three numbers a set. A *combo* is a
    row 1 and a position set aside (none with nine cards): ``combo_aside[c]`` (-1: none) and
    ``combo_prev[c]``, the position before the one set aside among those row 1 leaves (-1:
    none; the same month there means the same combo was tried already). Combo ``c`` splits
    the six positions left into two sets of three in 10 ways, ``split_low[10*c + j]`` (the
    set holding the lowest of the six) and ``split_high[10*c + j]``, each a set of ``tri``;
    either may be row 2. The combos of row 1 ``t`` are ``row1_first[t]`` ..
    ``row1_first[t + 1]``; the sets that share no position with set ``t`` are ``apart[i]``
    for i in ``apart_first[t]`` .. ``apart_first[t + 1]``."""

    def __init__(self, size: int) -> None:
        sets = list(combinations(range(size), 3))
        number = {st: i for i, st in enumerate(sets)}
        masks = [(1 << x) | (1 << y) | (1 << z) for x, y, z in sets]
        combo_aside: list[int] = []
        combo_prev: list[int] = []
        split_low: list[int] = []
        split_high: list[int] = []
        row1_first: list[int] = []
        apart_first: list[int] = []
        apart: list[int] = []
        spare = size == 10
        for t, row1 in enumerate(sets):
            row1_first.append(len(combo_aside))
            apart_first.append(len(apart))
            apart += [i for i, mask in enumerate(masks) if not mask & masks[t]]
            rest = [p for p in range(size) if p not in row1]
            for a in range(len(rest)) if spare else [-1]:
                six = [p for i, p in enumerate(rest) if i != a] if spare else rest
                combo_aside.append(rest[a] if spare else -1)
                combo_prev.append(rest[a - 1] if spare and a > 0 else -1)
                for one in combinations(six[1:], 2):  # the set holding six[0], and the rest
                    low = (six[0], one[0], one[1])
                    high = [p for p in six if p not in low]
                    split_low.append(number[low])
                    split_high.append(number[(high[0], high[1], high[2])])
        row1_first.append(len(combo_aside))
        apart_first.append(len(apart))
        self.size = size
        self.tri = vec[i64]([p for st in sets for p in st])
        self.combo_aside = vec[i64](combo_aside)
        self.combo_prev = vec[i64](combo_prev)
        self.split_low = vec[i64](split_low)
        self.split_high = vec[i64](split_high)
        self.row1_first = vec[i64](row1_first)
        self.apart_first = vec[i64](apart_first)
        self.apart = vec[i64](apart)


_SHAPES: Final = {9: _Shape(9), 10: _Shape(10)}


def solve(hand: list[int] | tuple[int, ...], players: int, ranking: str = "extended",
          bet: int = 1, carried: int = 0, top: int = 1) -> list[Plan]:
    """The ``top`` arrangements of ``hand`` (9 or 10 months) with the most expected chips,
    best first (among equal values, the first found in the search's order). Every
    arrangement is covered (see the module)."""
    return best_plans(Model(hand, players, ranking, bet, carried), hand, top)


def _months(order: i64) -> Triple:
    """The laid months of an order numbered by ``_index``."""
    return (int(order // 169), int(order // 13 % 13), int(order % 13))


def best_plans(model: Model, hand: list[int] | tuple[int, ...], top: int = 1) -> list[Plan]:
    """:func:`solve` under a model already made for ``hand``.

    Branch and bound over row 1: with ``W`` the best chance any set of the hand has as row 3
    and ``V`` the best ``w2 + t2*W`` of any set as row 2, no arrangement with row 1 ``R`` is
    worth more than ``Q*max(w1 + t1*V) + B*(V + W)`` over R's orders; the same bound from
    only the sets that share no card with ``R`` is tighter. Each distinct row 1 (by months)
    is tried from the highest first bound down, with every card set aside and every split of
    the rest into rows 2 and 3, until the bound falls to the value already found: what is
    left cannot beat it."""
    size = len(hand)
    shape = _SHAPES.get(size)
    if shape is None:
        raise ValueError(f"the solver takes a hand of 9 or 10 cards, not {size}")
    cards = vec[i64](sorted(hand))
    flat = model.flat
    win = model.wv
    tie = model.tv
    q = model.first
    b = model.round
    base = -3.0 * model.bet
    tri = shape.tri
    ntri: i64 = len(tri) // 3
    opt_first = flat.opt_first
    opt_count = flat.opt_count
    opt_level = flat.opt_level
    # Each set of three positions: its options as a row (w, t and the option's index in the
    # ranking's tables), strongest first, at opt_s[t] .. opt_s[t + 1] of o_w, o_t, o_g; the
    # bound on it as row 1 (g1, -1 for a set of the same months as one before it).
    opt_s = vec[i64](capacity=ntri + 1)
    o_w = vec[float](capacity=4 * ntri)
    o_t = vec[float](capacity=4 * ntri)
    o_g = vec[i64](capacity=4 * ntri)
    canon = vec[bool](capacity=ntri)
    n: i64 = 0
    w3best = 0.0
    for t in range(ntri):
        x = tri[3 * t]
        y = tri[3 * t + 1]
        z = tri[3 * t + 2]
        i = (cards[x] * 13 + cards[y]) * 13 + cards[z]
        opt_s = append(opt_s, n)
        first = opt_first[i]
        for g in range(first, first + opt_count[i]):
            level = opt_level[g]
            o_w = append(o_w, win[level])
            o_t = append(o_t, tie[level])
            o_g = append(o_g, g)
            n += 1
        w = o_w[opt_s[t]]
        if w > w3best:
            w3best = w
        # the first of the sets of these months: each card's month, when the position
        # before holds the same month, has that position taken too
        canon = append(canon, not ((x > 0 and cards[x - 1] == cards[x])
                                   or (y - 1 != x and cards[y - 1] == cards[y])
                                   or (z - 1 != y and cards[z - 1] == cards[z])))
    opt_s = append(opt_s, n)
    v2best = 0.0
    for o in range(n):
        v = o_w[o] + o_t[o] * w3best
        if v > v2best:
            v2best = v
    g1s = vec[float](capacity=ntri)
    for t in range(ntri):
        g1 = -1.0
        if canon[t]:
            for o in range(opt_s[t], opt_s[t + 1]):
                v = o_w[o] + o_t[o] * v2best
                if v > g1:
                    g1 = v
        g1s = append(g1s, g1)
    bound = b * (v2best + w3best) + base
    one = top == 1
    floor = -1e300
    found: i64 = 0
    best1: i64 = -1  # with top == 1, the arrangement kept: its options and set-aside position
    best2: i64 = -1
    best3: i64 = -1
    best_aside: i64 = -1
    # with top > 1: the arrangements kept, (-value, order found, o1, o2, o3, aside position),
    # and their keys by months
    kept: list[tuple[float, int, int, int, int, int]] = []
    listed: set[int] = set()
    combo_aside = shape.combo_aside
    combo_prev = shape.combo_prev
    split_low = shape.split_low
    split_high = shape.split_high
    row1_first = shape.row1_first
    apart_first = shape.apart_first
    apart = shape.apart
    while True:
        t1: i64 = -1  # the next row 1: the highest bound left, the first of equals
        g1 = -1.0
        for t in range(ntri):
            if g1s[t] > g1:
                g1 = g1s[t]
                t1 = t
        if t1 < 0 or q * g1 + bound <= floor:
            break
        g1s[t1] = -1.0
        s1 = opt_s[t1]
        e1 = opt_s[t1 + 1]
        if found:
            # The same bound from the sets rows 2 and 3 can take beside this row 1 only.
            w3top = 0.0
            for i in range(apart_first[t1], apart_first[t1 + 1]):
                w = o_w[opt_s[apart[i]]]
                if w > w3top:
                    w3top = w
            v2top = 0.0
            for i in range(apart_first[t1], apart_first[t1 + 1]):
                d = apart[i]
                for o in range(opt_s[d], opt_s[d + 1]):
                    v = o_w[o] + o_t[o] * w3top
                    if v > v2top:
                        v2top = v
            g1 = -1.0
            for o in range(s1, e1):
                v = o_w[o] + o_t[o] * v2top
                if v > g1:
                    g1 = v
            if q * g1 + b * (v2top + w3top) + base <= floor:
                continue
        for c in range(row1_first[t1], row1_first[t1 + 1]):
            prev = combo_prev[c]
            aside = combo_aside[c]
            if prev >= 0 and cards[prev] == cards[aside]:
                continue  # the same month set aside as the combo before
            for j in range(10 * c, 10 * c + 10):
                for side in range(2):  # which of the two sets is row 2
                    if side == 0:
                        r2 = split_low[j]
                        r3 = split_high[j]
                    else:
                        r2 = split_high[j]
                        r3 = split_low[j]
                    o3 = opt_s[r3]  # row 3: its strongest order is its best
                    w3 = o_w[o3]
                    for o2 in range(opt_s[r2], opt_s[r2 + 1]):
                        v2 = o_w[o2] + o_t[o2] * w3
                        rest = b * (v2 + w3) + base
                        for o1 in range(s1, e1):
                            ev = q * (o_w[o1] + o_t[o1] * v2) + rest
                            if ev <= floor:
                                continue
                            found += 1
                            if one:
                                floor = ev
                                best1 = o1
                                best2 = o2
                                best3 = o3
                                best_aside = aside
                                continue
                            key = ((o_g[o1] * 4096 + o_g[o2]) * 4096 + o_g[o3]) * 16 + (
                                cards[aside] if aside >= 0 else 0)
                            if key in listed:  # the same months at other positions
                                continue
                            listed.add(key)
                            kept.append((-ev, found, o1, o2, o3, aside))
                            if len(kept) > 4 * top + 32:
                                kept.sort()
                                del kept[top:]
                                if len(kept) == top:
                                    floor = -kept[-1][0]
    if one and found:
        kept = [(-floor, 1, best1, best2, best3, best_aside)]
    kept.sort()
    plans: list[Plan] = []
    for neg_ev, _, o1, o2, o3, aside in kept[:top]:
        x1, x2, x3 = o_g[o1], o_g[o2], o_g[o3]
        plans.append(Plan(-neg_ev, (int(cards[aside]),) if aside >= 0 else (),
                          (_months(flat.opt_order[x1]), _months(flat.opt_order[x2]),
                           _months(flat.opt_order[x3])),
                          (int(opt_level[x1]), int(opt_level[x2]), int(opt_level[x3]))))
    return plans
