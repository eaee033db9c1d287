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
"""

from __future__ import annotations

from itertools import combinations, permutations

from kabucli.hands import FIXED, KUDARI, NOBORI, PLAIN, fixed_rank

MONTHS = 12
COPIES = 4
LEVELS = 110  # strengths are rank * 10 + digit, rank 0-10
RANKINGS = ("extended", "kabu")

Triple = tuple[int, int, int]


def _index(a: int, b: int, c: int) -> int:
    return (a * 13 + b) * 13 + c


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


# Per ranking, each set of three months a, b, c (ascending) with how many of b and c are
# already taken by the months before them, and its (strength, orders) list.
_DRAWS = {ranking: tuple((a, b, c, int(b == a), int(c == a) + int(c == b),
                          tuple(ORDERS[ranking][(a, b, c)])) for a, b, c in KEYS)
          for ranking in RANKINGS}


def unseen(hand: list[int] | tuple[int, ...]) -> list[int]:
    """Cards of each month (index 1-12) a player holding ``hand`` has not seen."""
    left = [0] + [COPIES] * MONTHS
    for m in hand:
        left[m] -= 1
    return left


def opponent_levels(left: list[int], ranking: str) -> list[float]:
    """The chance of each strength for a row of three cards drawn from ``left`` in a random
    laid order."""
    dist = [0.0] * LEVELS
    total = 0
    for a, b, c, same_b, same_c, orders in _DRAWS[ranking]:
        ways = left[a] * (left[b] - same_b) * (left[c] - same_c)
        if ways <= 0:
            continue
        for level, n in orders:
            dist[level] += ways * n
            total += ways * n
    if total:
        for i in range(LEVELS):
            dist[i] /= total
    return dist


def odds(dist: list[float], others: int) -> tuple[list[float], list[float]]:
    """For each strength ``s`` of our row against ``others`` rows of strength distribution
    ``dist``: the chance ours is the one strongest (``w[s]``), and the chance the strongest
    row is shared, ours among them or not (``t[s]``, the pot carries)."""
    k = others
    below = [0.0] * (LEVELS + 1)
    for i in range(LEVELS):
        below[i + 1] = below[i] + dist[i]
    # shared[v]: the strongest of the others' rows is v and two or more have it
    shared = [0.0] * (LEVELS + 1)
    for v in range(LEVELS - 1, -1, -1):
        g, e = below[v], dist[v]
        here = (g + e) ** k - g ** k - k * e * g ** (k - 1) if e > 0 else 0.0
        shared[v] = shared[v + 1] + max(here, 0.0)
    win = [0.0] * LEVELS
    tie = [0.0] * LEVELS
    for s in range(LEVELS):
        g, e = below[s], dist[s]
        win[s] = g ** k
        tie[s] = (g + e) ** k - g ** k + shared[s + 1]
    return win, tie


class Plan:
    """One arrangement and its expected chips per hand: the cards set aside, the rows in
    laid order (row 1 first) and each row's strength."""

    __slots__ = ("aside", "ev", "levels", "rows")

    def __init__(self, ev: float, aside: tuple[int, ...], rows: tuple[Triple, Triple, Triple],
                 levels: tuple[int, int, int]) -> None:
        self.ev = ev
        self.aside = aside
        self.rows = rows
        self.levels = levels


class Model:
    """Win and tie chances of each row strength for one player's hand, the table, the bet
    and what carried into the hand."""

    __slots__ = ("bet", "first", "ranking", "round", "tie", "win")

    def __init__(self, hand: list[int] | tuple[int, ...], players: int, ranking: str,
                 bet: int = 1, carried: int = 0) -> None:
        self.win, self.tie = odds(opponent_levels(unseen(hand), ranking), players - 1)
        self.ranking = ranking
        self.bet = bet
        self.round = float(players * bet)  # the bets of one round
        self.first = float(players * bet + carried)  # the pot of row 1

    def value(self, levels: tuple[int, int, int] | list[int]) -> float:
        """Expected chips per hand of rows of these strengths (row 1 first)."""
        w, t = self.win, self.tie
        s1, s2, s3 = levels
        q, b = self.first, self.round
        return (w[s1] * q + w[s2] * (b + t[s1] * q) + w[s3] * (b + t[s2] * (b + t[s1] * q))
                - 3 * self.bet)


def arrangement_value(model: Model, rows: list[list[int]] | tuple[Triple, ...]) -> float:
    """Expected chips per hand of rows in laid order (the way any arrangement is valued)."""
    table = STRENGTH[model.ranking]
    return model.value([table[_index(r[0], r[1], r[2])] for r in rows])


# Index triples of 6 sorted positions, each with the positions left, in the order
# combinations gives them: the cards at ascending positions of sorted cards come out sorted.
_SIX = tuple((i, j, k, *(x for x in range(6) if x not in (i, j, k)))
             for i, j, k in combinations(range(6), 3))

Option = tuple[float, float, int, Triple]  # a row's w, t, strength and laid order

# The splits of each set of six cards (they depend on the cards alone, so every hand shares
# them; bounded in size).
_SPLITS: dict[tuple[int, ...], tuple[tuple[Triple, Triple], ...]] = {}
_SPLITS_MAX = 200_000


def _splits(cards: tuple[int, ...]) -> tuple[tuple[Triple, Triple], ...]:
    """The distinct ways to split six sorted cards into two sets of three (the first set
    once each)."""
    got = _SPLITS.get(cards)
    if got is not None:
        return got
    out: list[tuple[Triple, Triple]] = []
    seen: set[Triple] = set()
    for i, j, k, a, b, c in _SIX:
        key = (cards[i], cards[j], cards[k])
        if key not in seen:
            seen.add(key)
            out.append((key, (cards[a], cards[b], cards[c])))
    if len(_SPLITS) >= _SPLITS_MAX:
        _SPLITS.clear()
    got = _SPLITS[cards] = tuple(out)
    return got


def _options(model: Model, cards: tuple[int, ...]) -> dict[Triple, list[Option]]:
    """Each set of three of ``cards``: its options as a row, strongest first."""
    opts = OPTIONS[model.ranking]
    w, t = model.win, model.tie
    rows: dict[Triple, list[Option]] = {}
    n = len(cards)
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                key = (cards[i], cards[j], cards[k])
                if key not in rows:
                    rows[key] = [(w[s], t[s], s, o) for s, o in opts[key]]
    return rows


def solve(hand: list[int] | tuple[int, ...], players: int, ranking: str = "extended",
          bet: int = 1, carried: int = 0, top: int = 1) -> list[Plan]:
    """The ``top`` arrangements of ``hand`` (9 or 10 months) with the most expected chips,
    best first (ties keep the first found). Every arrangement is covered (see the module)."""
    return best_plans(Model(hand, players, ranking, bet, carried), hand, top)


def _without(cards: tuple[int, ...], drop: tuple[int, ...]) -> tuple[int, ...]:
    """Sorted ``cards`` less the sorted cards ``drop`` (which they hold)."""
    out: list[int] = []
    j = 0
    n = len(drop)
    for c in cards:
        if j < n and c == drop[j]:
            j += 1
        else:
            out.append(c)
    return tuple(out)


def best_plans(model: Model, hand: list[int] | tuple[int, ...], top: int = 1) -> list[Plan]:
    """:func:`solve` under a model already made for ``hand``.

    Branch and bound over row 1: with ``W`` the best chance any set of the hand has as row 3
    and ``V`` the best ``w2 + t2*W`` of any set as row 2, no arrangement with row 1 ``R`` is
    worth more than ``Q*max(w1 + t1*V) + B*(V + W)`` over R's orders. Rows 1 are tried from
    the highest bound down, each with every card set aside and every split of the rest, until
    the bound falls to the value already found: what is left cannot beat it."""
    bet = model.bet
    q, b = model.first, model.round
    cards = tuple(sorted(hand))
    rows = _options(model, cards)
    w3best = max(opts[0][0] for opts in rows.values())
    v2best = max(w + t * w3best for opts in rows.values() for w, t, _, _ in opts)
    bound = b * (v2best + w3best) - 3.0 * bet
    firsts = sorted(((max(w + t * v2best for w, t, _, _ in opts), key)
                     for key, opts in rows.items()), key=_first, reverse=True)
    one = top == 1
    best: list[tuple[float, int, Plan]] = []
    found = 0
    floor = -1e300
    base = -3.0 * bet
    for g1, key1 in firsts:
        if q * g1 + bound <= floor:
            break
        seven = _without(cards, key1)
        options = rows[key1]
        spare = len(seven) == 7  # ten cards: one of the seven left is set aside
        for a in range(len(seven) if spare else 1):
            if a and seven[a] == seven[a - 1]:
                continue
            aside = (seven[a],) if spare else ()
            six = seven[:a] + seven[a + 1:] if spare else seven
            for key2, key3 in _splits(six):
                w3, _, s3, o3 = rows[key3][0]  # row 3: its strongest order is its best
                for w2, t2, s2, o2 in rows[key2]:
                    v2 = w2 + t2 * w3
                    rest = b * (v2 + w3) + base
                    for w1, t1, s1, o1 in options:
                        ev = q * (w1 + t1 * v2) + rest
                        if ev <= floor:
                            continue
                        found += 1
                        plan = Plan(ev, aside, (o1, o2, o3), (s1, s2, s3))
                        if one:
                            floor = ev
                            best = [(ev, -found, plan)]
                            continue
                        best.append((ev, -found, plan))
                        if len(best) > 4 * top + 32:
                            best.sort(reverse=True, key=_rank)
                            del best[top:]
                            floor = best[-1][0] if len(best) == top else floor
    best.sort(reverse=True, key=_rank)
    return [p for _, _, p in best[:top]]


def _first(item: tuple[float, Triple]) -> float:
    return item[0]


def _rank(item: tuple[float, int, Plan]) -> tuple[float, int]:
    return (item[0], item[1])
