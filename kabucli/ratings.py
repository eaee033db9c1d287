"""Ratings and match statistics: Elo with error bars, likelihood of superiority, SPRT.

Head to head (two bots, match by match: a win, a draw (a shared lead) or a loss), as the chess
match runners report it (fastchess, cutechess-cli):

* the score ``s = (W + D/2) / N`` and its variance per match from the trinomial
  ``var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N``, which is ``s (1-s) - d/4`` for a draw
  share ``d = D/N``;
* the 95% interval of the score: the scores ``p`` that the test ``(s - p)^2 <= 1.96^2
  var(p) / N`` does not reject, ``var(p) = p (1-p) - d'/4`` being the trinomial's spread at a
  score of ``p`` (:func:`_score_interval`). This is Wilson's score interval where no game was
  drawn, and over many games the normal interval ``s ± 1.96 sqrt(var/N)`` that fastchess
  and cutechess-cli print; the normal interval itself is too narrow near a score of 0 or 1
  (8 wins and a draw of 9 gave a lower end of +290 Elo, above the +127 of 8 wins of 8, so a
  draw or a loss raised it). ``d'``, the draw share, is taken at the lower end of its own
  Wilson interval: what is not known of it widens the interval (all games drawn have one
  with width, not a point), and a win made a draw or a draw made a loss never raises the
  interval's lower end;
* the Elo difference ``-400 log10(1/s - 1)`` and the Elo of the interval's ends;
* the likelihood of superiority ``LOS = (1 + erf((s - 1/2) / sqrt(2 var/N))) / 2``.

SPRT (:class:`Sprt`) is fastchess's generalized SPRT on the trinomial (win, draw, loss) of
each match, in its ``normalized`` model (the default; elo0/elo1 are normalized Elo) or its
``logistic`` model (plain Elo): the log-likelihood ratio of the two hypotheses at their
maximum-likelihood distributions (M. Van den Bergh's approximations, as fastchess computes
them; where its normalized model's iteration gives NaN, the maximum found directly), against
the bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.
kabucli's matches are not played in pairs of one deal with the seats swapped, so the
pentanomial model of paired games does not apply.

Tournaments: Elo ratings from every pair's results (:func:`elo_ratings`: the Bradley-Terry
model's fit, a draw half a win each way, with one drawn game more between every two players
that met (``PRIOR_DRAWS``, a weak prior, as BayesElo's virtual draws) and 95% error bars from
the Fisher information); for games of more than two seats the same fit over every pair of
seats of each match, with error bars that count each match once (:class:`RankedElo`). Both
depend only on the results, never on the order the matches were counted in.

The prior draw is what gives every field a rating: without it a bot that won every game, or
some bots that won every game against the others, have no maximum of the likelihood (their
ratings grow without end as the fit goes on, and the numbers shown would be where it
stopped). With it the fit has one maximum, found to the last digit, the ratings are finite
and their error bars too, and a field's results reversed give its ratings negated; next to
hundreds of real games it moves a rating by well under its error bar.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from kabucli.errors import KabuError
from kabucli.figures import signed

Z95 = 1.959963984540054
# the drawn games added between every two players that met (a weak prior: see the module)
PRIOR_DRAWS = 1.0
NELO = 800.0 / math.log(10)  # normalized Elo per unit of (score - 1/2) / sd


# Student's t distribution's 97.5% point for 1-29 degrees of freedom (to 9 decimals)
_T975 = (12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851,
         2.364624252, 2.306004135, 2.262157163, 2.228138852, 2.200985160, 2.178812830,
         2.160368656, 2.144786688, 2.131449546, 2.119905299, 2.109815578, 2.100922040,
         2.093024054, 2.085963447, 2.079613845, 2.073873068, 2.068657610, 2.063898562,
         2.059538553, 2.055529439, 2.051830516, 2.048407142, 2.045229642)


def t95(df: int) -> float:
    """The half-width, in standard errors, of a 95% confidence interval of a mean estimated
    with ``df`` degrees of freedom (a sample of ``df + 1``): Student's t distribution's 97.5%
    point. From 30 on, the Cornish-Fisher expansion in 1/df around the normal's point (within
    1e-7 of it); inf for none."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    g = ((z ** 3 + z) / 4, (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
         (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
         (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160)
    return z + sum(c / float(df) ** (k + 1) for k, c in enumerate(g))


def score_to_elo(score: float) -> float:
    """The Elo difference that gives ``score`` (0..1); +-inf at the ends."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: an even score is 0, not -0


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + float(10.0 ** (-elo / 400.0)))


def _finite(x: float) -> float | None:
    return round(x, 2) if math.isfinite(x) else None


def head_to_head(wins: int, draws: int, losses: int) -> dict[str, Any]:
    """Win/draw/loss of the first bot against the second: score, Elo difference with its 95%
    interval, and likelihood of superiority (see the module)."""
    n = wins + draws + losses
    out: dict[str, Any] = {"wins": wins, "draws": draws, "losses": losses}
    if n == 0:
        return out | {"score": None, "elo": None, "elo_low": None, "elo_high": None,
                      "los": None}
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    if var > 0:
        los = (1 + math.erf((s - 0.5) / math.sqrt(2 * var / n))) / 2
    else:  # every game alike (all won, all lost, all drawn)
        los = 1.0 if s > 0.5 else 0.0 if s < 0.5 else 0.5
    low, high = _score_interval(s, draws / n, n)
    return out | {"score": round(s, 4), "elo": _finite(score_to_elo(s)),
                  "elo_low": _finite(score_to_elo(low)),
                  "elo_high": _finite(score_to_elo(high)), "los": round(los, 4)}


def _score_interval(s: float, d: float, n: int) -> tuple[float, float]:
    """The 95% interval of a score ``s`` over ``n`` games of which a share ``d`` were drawn
    (see the module): the roots of ``(N + z^2) p^2 - (2 N s + z^2) p + N s^2 + z^2 d'/4``,
    where ``(s - p)^2 = z^2 (p (1-p) - d'/4) / N``, with ``d'`` the lower end of the draw
    share's Wilson interval. Inside 0-1; at a score of 0 or 1 that end is 0 or 1 exactly."""
    z2 = Z95 * Z95
    d = _wilson(d, n)[0]
    a = n + z2
    b = 2 * n * s + z2
    root = math.sqrt(max(b * b - 4 * a * (n * s * s + z2 * d / 4), 0.0))
    low = 0.0 if s <= 0 else max(0.0, (b - root) / (2 * a))
    high = 1.0 if s >= 1 else min(1.0, (b + root) / (2 * a))
    return low, high


def _wilson(s: float, n: int) -> tuple[float, float]:
    """Wilson's 95% score interval of a score ``s`` (a share 0-1) over ``n`` games."""
    z2 = Z95 * Z95
    centre = (s + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # at a score of 0 or 1 that end is 0 or 1 exactly (in floats centre - half came to
    # 5.6e-17 for some n, an Elo of -6502 where -inf is meant)
    low = 0.0 if s <= 0 else max(0.0, centre - half)
    high = 1.0 if s >= 1 else min(1.0, centre + half)
    return low, high


def elo_text(h: dict[str, Any], key: str, spec: str) -> str:
    """An Elo figure of :func:`head_to_head` (``key``: elo, elo_low or elo_high) as text;
    None is an infinite one (a score of 0 or 1 at that end)."""
    v = h[key]
    if v is not None:
        return signed(v, int(spec.strip(".f")))
    if key == "elo":
        return "+inf" if h["score"] >= 0.5 else "-inf"
    if key == "elo_low":
        return "+inf" if h["score"] >= 1 else "-inf"
    return "-inf" if h["score"] <= 0 else "+inf"


# -- SPRT -----------------------------------------------------------------------------------

def _itp(f: Callable[[float], float], a: float, b: float, f_a: float, f_b: float,
         k_1: float, k_2: float, n_0: float, eps: float) -> float:
    """A root of ``f`` between ``a`` and ``b`` (signs of f differ) by the ITP method
    (Oliveira and Takahashi 2020), as fastchess finds it."""
    if f_a > 0:
        a, b, f_a, f_b = b, a, f_b, f_a
    n_half = math.ceil(math.log2(abs(b - a) / (2.0 * eps)))
    n_max = n_half + n_0
    i = 0
    while abs(b - a) > 2.0 * eps:
        x_half = (a + b) / 2.0
        r = eps * 2.0 ** (n_max - i) - (b - a) / 2.0
        delta = k_1 * abs(b - a) ** k_2
        finite = math.isfinite(f_a) and math.isfinite(f_b)
        x_f = (f_b * a - f_a * b) / (f_b - f_a) if finite else x_half  # regula falsi
        sigma = math.copysign(1.0, x_half - x_f) if x_half != x_f else 0.0
        x_t = x_f + sigma * delta if delta <= abs(x_half - x_f) else x_half
        x_itp = x_t if abs(x_t - x_half) <= r else x_half - sigma * r
        f_itp = f(x_itp)
        if f_itp == 0:
            a = b = x_itp
        elif f_itp < 0:
            a, f_a = x_itp, f_itp
        else:
            b, f_b = x_itp, f_itp
        i += 1
    return (a + b) / 2.0


def _mean(x: Sequence[float], p: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(x, p, strict=True))


def _llr_logistic(total: float, scores: Sequence[float], probs: Sequence[float],
                  s0: float, s1: float) -> float:
    def mle(s: float) -> list[float]:
        lo, hi = -1.0 / (scores[-1] - s), -1.0 / (scores[0] - s)
        theta = _itp(lambda x: sum(p * (a - s) / (1.0 + x * (a - s))
                                   for a, p in zip(scores, probs, strict=True)),
                     lo, hi, math.inf, -math.inf, 0.1, 2.0, 0.99, 1e-3)
        return [p / (1 + theta * (a - s)) for a, p in zip(scores, probs, strict=True)]

    p0, p1 = mle(s0), mle(s1)
    return total * _mean([math.log(b) - math.log(a) for a, b in zip(p0, p1, strict=True)],
                         probs)


def _llr_normalized(total: float, scores: Sequence[float], probs: Sequence[float],
                    t0: float, t1: float) -> float:
    n = len(scores)

    def mle(mu_ref: float, t_star: float) -> list[float]:
        p = [1.0 / n] * n
        for _ in range(10):
            mu = _mean(scores, p)
            sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p, strict=True)))
            phi = [a - mu_ref - 0.5 * t_star * sigma * (1.0 + ((a - mu) / sigma) ** 2)
                   for a in scores]
            lo, hi = -1.0 / max(phi), -1.0 / min(phi)
            theta = _itp(lambda x, phi=phi: sum(q * f / (1.0 + x * f)  # type: ignore[misc]
                                                for q, f in zip(probs, phi, strict=True)),
                         lo, hi, math.inf, -math.inf, 0.1, 2.0, 0.99, 1e-7)
            new = [q / (1.0 + theta * f) for q, f in zip(probs, phi, strict=True)]
            diff = max(abs(a - b) for a, b in zip(new, p, strict=True))
            p = new
            if diff < 1e-4:
                break
        return p

    p0, p1 = mle(0.5, t0), mle(0.5, t1)
    return total * _mean([math.log(b) - math.log(a) for a, b in zip(p0, p1, strict=True)],
                         probs)


def _loglik_normalized(probs: Sequence[float], t: float) -> float:
    """The largest mean log-likelihood of ``probs`` (loss, draw, win) over the trinomials with
    (mean - 1/2) / sd = ``t``, found directly, where fastchess's iteration finds no root (it
    starts from a uniform trinomial, whose phi values all have one sign for a ``t`` beyond about
    0.98, some 340 normalized Elo). Such a trinomial with s = p_loss + p_win and
    d = p_win - p_loss has mean 1/2 + d/2 and sd sqrt(s - d**2) / 2, so d = k * sqrt(s) with
    k = t / sqrt(1 + t**2), s between k**2 and 1; the log-likelihood is concave in s (each
    log is of a concave function of s), so a golden-section search finds its top."""
    k = t / math.sqrt(1.0 + t * t)
    pl, pd, pw = probs

    def f(s: float) -> float:
        d = k * math.sqrt(s)
        lo, win, draw = (s - d) / 2.0, (s + d) / 2.0, 1.0 - s
        if min(lo, win, draw) <= 0.0:
            return -math.inf
        return pl * math.log(lo) + pd * math.log(draw) + pw * math.log(win)

    a, b = k * k, 1.0
    g = (math.sqrt(5.0) - 1.0) / 2.0
    c, e = b - g * (b - a), a + g * (b - a)
    fc, fe = f(c), f(e)
    for _ in range(200):
        if fc >= fe:
            b, e, fe = e, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, e, fe
            e = a + g * (b - a)
            fe = f(e)
    return max(fc, fe)


def sprt_llr(wins: int, draws: int, losses: int, elo0: float, elo1: float,
             model: str = "normalized") -> float:
    """fastchess's log-likelihood ratio of a trinomial (win, draw, loss) result. Where its
    normalized model's iteration fails (NaN, hypotheses beyond about 340 Elo), the same ratio of
    likelihoods maximized directly (:func:`_loglik_normalized`)."""
    reg = [float(v) if v else 1e-3 for v in (losses, draws, wins)]
    total = sum(reg)
    probs = [v / total for v in reg]
    scores = [0.0, 0.5, 1.0]
    try:
        if model == "normalized":
            llr = _llr_normalized(total, scores, probs, elo0 / NELO, elo1 / NELO)
        else:
            llr = _llr_logistic(total, scores, probs, elo_to_score(elo0), elo_to_score(elo1))
    except (ArithmeticError, ValueError):  # a result so one-sided the model's numbers fail
        llr = math.nan
    if not math.isfinite(llr) and model == "normalized":
        llr = total * (_loglik_normalized(probs, elo1 / NELO)
                       - _loglik_normalized(probs, elo0 / NELO))
    if math.isfinite(llr):
        return llr
    # such a result is far past both bounds: on the side its score is of the two hypotheses'
    score = _mean(scores, probs)
    return math.copysign(LLR_FAR, score - (elo_to_score(elo0) + elo_to_score(elo1)) / 2)


LLR_FAR = 1e6  # the LLR of a result the model cannot weigh (far past any bound)


MAX_SPRT_ELO = 1000  # the largest Elo difference an SPRT may test (either sign)


def _shown(v: float) -> str:
    """A number as given: short when that is exact (1000, 0.05), else every digit it has (so
    that 1000.0000001 is not shown as the 1000 it was refused for exceeding)."""
    short = f"{v:g}"
    return short if float(short) == v else repr(v)


class Sprt:
    """A sequential probability ratio test between elo0 (H0) and elo1 (H1)."""

    MODELS = ("normalized", "logistic")

    def __init__(self, elo0: float = 0.0, elo1: float = 5.0, alpha: float = 0.05,
                 beta: float = 0.05, model: str = "normalized") -> None:
        for name, v in (("elo0", elo0), ("elo1", elo1)):
            if not -MAX_SPRT_ELO <= v <= MAX_SPRT_ELO:  # beyond, the model's numbers overflow
                raise KabuError(f"--sprt: {name} must be between -{MAX_SPRT_ELO} and "
                                f"{MAX_SPRT_ELO}, not {_shown(v)}")
        if not elo0 < elo1:
            raise KabuError(f"--sprt: elo0 ({_shown(elo0)}) must be less than elo1 "
                            f"({_shown(elo1)})")
        for name, v in (("alpha", alpha), ("beta", beta)):
            if not 0 < v < 1:
                raise KabuError(f"--sprt: {name} must be between 0 and 1, not {_shown(v)}")
        if alpha + beta >= 1:
            raise KabuError("--sprt: alpha + beta must be less than 1")
        if model not in self.MODELS:
            raise KabuError(f"--sprt: model {model!r} is unknown (models: "
                            f"{', '.join(self.MODELS)})")
        self.elo0, self.elo1, self.alpha, self.beta, self.model = elo0, elo1, alpha, beta, model
        # as differences of logarithms: (1 - beta) / alpha overflows for an alpha near the
        # smallest float, while each logarithm stays finite
        self.lower = math.log(beta) - math.log1p(-alpha)
        self.upper = math.log1p(-beta) - math.log(alpha)
        self.llr = 0.0
        self.result = "continue"

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized]`` (spaces or commas)."""
        values: dict[str, Any] = {}
        typed: dict[str, str] = {}
        for word in text.replace(",", " ").split():
            name, sep, value = word.partition("=")
            if not sep or name not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise KabuError(f"--sprt: {word!r} is not one of elo0=, elo1=, alpha=, beta=, "
                                "model=")
            if name in typed:
                raise KabuError(f"--sprt: {name} is given twice ({typed[name]}, {word})")
            typed[name] = word
            if name == "model":
                values[name] = value
                continue
            try:
                number = float(value)
            except ValueError:
                number = math.nan
            if not math.isfinite(number):
                raise KabuError(f"--sprt: {name}={value!r} is not a number")
            values[name] = number
        return cls(**values)

    @property
    def decided(self) -> bool:
        return self.result != "continue"

    def update(self, wdl: Sequence[int]) -> dict[str, Any]:
        """Take the first bot's (wins, draws, losses) so far; the test's state."""
        w, d, l_ = wdl
        self.llr = sprt_llr(w, d, l_, self.elo0, self.elo1, self.model) if w + d + l_ else 0.0
        if self.llr >= self.upper:
            self.result = "H1 accepted"
        elif self.llr <= self.lower:
            self.result = "H0 accepted"
        else:
            self.result = "continue"
        return self.state()

    def state(self) -> dict[str, Any]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "model": self.model, "llr": round(self.llr, 4), "lower": round(self.lower, 4),
                "upper": round(self.upper, 4), "result": self.result}


# -- tournaments ------------------------------------------------------------------------------

def elo_ratings(n: int, games: dict[tuple[int, int], tuple[float, int]]
                ) -> list[tuple[float, float | None]]:
    """Elo (mean 0) and its 95% error bar for each of ``n`` players, from ``games``:
    (i, j) -> (i's score against j, games), i < j. The Bradley-Terry fit with
    ``PRIOR_DRAWS`` drawn games added to every pair that met; error bars from the inverse of
    the Fisher information (None for a player who played no game).
    """
    score, pairs = _tally(n, games)
    r = _bradley_terry(n, score, pairs)
    try:
        var = _variances(n, r, pairs)
    except ZeroDivisionError:
        var = [0.0] * n
    return _elo(n, r, var, _idle(n, pairs))


def _covariance(n: int, r: list[float], pairs: dict[tuple[int, int], float]
                ) -> list[list[float]]:
    """The inverse of the Fisher information at ``r`` under the constraint that the ratings'
    mean is 0 (its pseudo-inverse), over the players who played, each group of players that
    met one another apart (a field whose groups never met has no rating of one group against
    another: each has its own mean 0). The rows of a player who played nothing are 0, so a bot
    yet to play leaves the others' error bars as they are. ZeroDivisionError when the results
    leave it singular."""
    info = _information(n, r, pairs)
    out = [[0.0] * n for _ in range(n)]
    for group in _met(pairs):
        # the inverse with the group's first player held at 0 (the information of the others
        # alone: well scaled however many games were played), then moved to mean 0
        k = len(group)
        low, means = _held(info, group)
        cols = _factor_inverse(low)
        # (L L^T)^-1 = L^-T L^-1: entry (a, b), a <= b, is the product of columns a and b of
        # L^-1 over the rows from b on, where both can be other than 0
        held = [[0.0] * k] + [[0.0] * k for _ in low]
        for a, col in enumerate(cols):
            for b in range(a, len(cols)):
                held[a + 1][b + 1] = held[b + 1][a + 1] = sum(
                    map(operator.mul, col[b - a:], cols[b]))
        mean = sum(means) / k
        for x, i in enumerate(group):
            for y, j in enumerate(group):
                out[i][j] = held[x][y] - means[x] - means[y] + mean
    return out


def _held(info: list[list[float]], group: list[int]) -> tuple[list[list[float]], list[float]]:
    """For a group of players who met: the Cholesky factor of its information with its first
    player held at 0 (the others' own, as :func:`_covariance` inverts it), and the row means
    of that inverse (the first player's row, all 0, included), which the constraint that the
    ratings' mean is 0 subtracts. ZeroDivisionError when the information is singular."""
    rest = group[1:]
    low = _cholesky([[info[i][j] for j in rest] for i in rest])
    k = len(group)
    return low, [0.0, *(v / k for v in _solve(low, [1.0] * len(rest)))]


def _newton_step(n: int, r: list[float], pairs: dict[tuple[int, int], float],
                 grad: list[float], groups: list[list[int]]) -> list[float]:
    """The covariance of :func:`_covariance` times ``grad`` (Newton's step of the fit),
    without making the covariance: the held information solved for ``grad`` and for the
    row means, by its Cholesky factor (a sixth of the work of inverting it, which a 50-bot
    tournament's chart spent 25 s on; 7.5 s now). ZeroDivisionError when it is singular."""
    info = _information(n, r, pairs)
    step = [0.0] * n
    for group in groups:  # (_met(pairs), the same at every step)
        low, means = _held(info, group)
        k = len(group)
        mean = sum(means) / k
        g = [grad[i] for i in group]
        hg = [0.0, *_solve(low, g[1:])]
        total = sum(g)
        cross = sum(m * v for m, v in zip(means, g, strict=True))
        # (sum over y of (H[x][y] - means[x] - means[y] + mean) g[y], as _covariance's rows)
        for x, i in enumerate(group):
            step[i] = hg[x] - means[x] * total - cross + mean * total
    return step


def _variances(n: int, r: list[float], pairs: dict[tuple[int, int], float]) -> list[float]:
    """The diagonal of :func:`_covariance`, from the held information's Cholesky factor
    (each diagonal entry of the inverse is the sum of squares of a column of the factor's
    inverse). ZeroDivisionError when it is singular."""
    info = _information(n, r, pairs)
    var = [0.0] * n
    for group in _met(pairs):
        low, means = _held(info, group)
        k = len(group)
        mean = sum(means) / k
        diag = [0.0, *(sum(map(operator.mul, z, z)) for z in _factor_inverse(low))]
        for x, i in enumerate(group):
            var[i] = diag[x] - 2.0 * means[x] + mean
    return var


def _factor_inverse(low: list[list[float]]) -> list[list[float]]:
    """The columns of the inverse of L (from :func:`_cholesky`), each from its own row on
    (above it they are 0): column c is the z with L z = e_c. Where a row of L is 0 from
    column c to its diagonal (its envelope starts after c), z is 0 there."""
    starts = [_start(row) for row in low]
    cols = []
    for c in range(len(low)):
        z = [1.0 / low[c][c]]
        for m in range(c + 1, len(low)):
            row, at = low[m], max(c, starts[m])
            z.append(0.0 if at == m else
                     -sum(map(operator.mul, row[at:m], z[at - c:])) / row[m])
        cols.append(z)
    return cols


def _cholesky(m: list[list[float]]) -> list[list[float]]:
    """The lower triangular L with L L^T = ``m`` (symmetric), each row only as long as its
    part below the diagonal and on it; ZeroDivisionError when a pivot is not above 1e-12 (not
    positive definite: singular). A row of L is 0 left of the first entry of its row of ``m``
    that is not (its envelope), and only the rest is worked out: a gauntlet's information,
    its first bot held, is diagonal."""
    low: list[list[float]] = []
    starts: list[int] = []
    for i, row in enumerate(m):
        li = [0.0] * (i + 1)
        first = _start(row[:i + 1])
        for j in range(first, i):
            lj = low[j]
            at = max(first, starts[j])
            li[j] = (row[j] - sum(map(operator.mul, li[at:j], lj[at:j]))) / lj[j]
        d = row[i] - sum(map(operator.mul, li, li))
        if not d > 1e-12:
            raise ZeroDivisionError("singular")
        li[i] = math.sqrt(d)
        low.append(li)
        starts.append(first)
    return low


def _start(row: list[float]) -> int:
    """Where a row of a lower triangular matrix (its last entry on the diagonal) has its
    first entry that is not 0 (the diagonal's place when none is before it)."""
    return next((j for j, v in enumerate(row[:-1]) if v), len(row) - 1)


def _solve(low: list[list[float]], b: list[float]) -> list[float]:
    """x with L L^T x = ``b``, L from :func:`_cholesky`."""
    y: list[float] = []
    for row, v in zip(low, b, strict=True):  # L y = b (the sum stops at y's length)
        y.append((v - sum(map(operator.mul, row, y))) / row[len(y)])
    x = [0.0] * len(b)
    for i in range(len(b) - 1, -1, -1):  # L^T x = y, row i of L taken off y once x[i] is known
        row = low[i]
        x[i] = xi = y[i] / row[i]
        y = [v - xi * w for v, w in zip(y, row, strict=True)]
        del y[-1]
    return x


def _met(pairs: dict[tuple[int, int], float]) -> list[list[int]]:
    """The groups of players connected by the games they played (each sorted)."""
    link: dict[int, set[int]] = {}
    for a, b in pairs:
        link.setdefault(a, set()).add(b)
        link.setdefault(b, set()).add(a)
    groups, seen = [], set()
    for start in sorted(link):
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for j in link[todo.pop()] - group:
                group.add(j)
                todo.append(j)
        seen |= group
        groups.append(sorted(group))
    return groups


def _tally(n: int, games: dict[tuple[int, int], tuple[float, int]]
           ) -> tuple[list[float], dict[tuple[int, int], float]]:
    """Each player's score, and the games of each pair (i < j), ``PRIOR_DRAWS`` drawn games
    added to every pair that met."""
    score = [0.0] * n
    pairs: dict[tuple[int, int], float] = {}
    for (i, j), (s, g) in games.items():
        if g <= 0:
            continue
        score[i] += s + PRIOR_DRAWS / 2
        score[j] += g - s + PRIOR_DRAWS / 2
        pairs[(i, j)] = pairs.get((i, j), 0) + g + PRIOR_DRAWS
    return score, pairs


def _bradley_terry(n: int, score: list[float], pairs: dict[tuple[int, int], float]
                   ) -> list[float]:
    """The Bradley-Terry log-strengths (mean 0) that fit ``score`` over ``pairs`` best: the
    maximum of the log-likelihood, which is concave, found by Newton's method until a step
    would move no rating by 1e-12 (every expected score is then its score). A step moves no
    rating by more than ``MAX_STEP`` and is halved while it would carry past the maximum
    along its line (the likelihood's slope there, not its value, which at millions of games
    no longer tells two close points apart). A player with no games keeps 0 before the mean
    is taken off."""
    played = sorted({i for pair in pairs for i in pair})
    if not played:
        return [0.0] * n
    r = [0.0] * n
    grad = _gradient(n, r, score, pairs)
    groups = _met(pairs)
    for _ in range(500):
        if not any(grad[i] for i in played):
            break
        try:
            step = _newton_step(n, r, pairs, grad, groups)
        except ZeroDivisionError:
            break
        big = max(abs(v) for v in step)
        if big < 1e-12:  # (the step that would move nothing: this is the maximum)
            break
        if big > MAX_STEP:
            step = [v * MAX_STEP / big for v in step]
        t = 1.0
        while True:
            trial = [v + t * d for v, d in zip(r, step, strict=True)]
            at = _gradient(n, trial, score, pairs)  # (the next step's, once taken)
            slope = sum(g * d for g, d in zip(at, step, strict=True))
            if slope >= 0 or t < 1e-9:
                break
            t /= 2
        r, grad = trial, at
    mean = sum(r) / n
    return [v - mean for v in r]


# the most a step of the fit moves a rating (in units of the natural log of strength)
MAX_STEP = 2.0


def _gradient(n: int, r: list[float], score: list[float],
              pairs: dict[tuple[int, int], float]) -> list[float]:
    """Each player's score less its expected score at log-strengths ``r``."""
    grad = list(score)
    for (a, b), g in pairs.items():
        # each chance from its own exponential: 1 - p loses its digits when p is near 1
        grad[a] -= g / (1.0 + math.exp(r[b] - r[a]))
        grad[b] -= g / (1.0 + math.exp(r[a] - r[b]))
    return grad


def _information(n: int, r: list[float], pairs: dict[tuple[int, int], float]
                 ) -> list[list[float]]:
    """The Fisher information of the logistic model at log-strengths ``r``."""
    info = [[0.0] * n for _ in range(n)]
    for (i, j), g in pairs.items():
        w = g / (1.0 + math.exp(r[j] - r[i])) / (1.0 + math.exp(r[i] - r[j]))  # g p (1 - p)
        info[i][i] += w
        info[j][j] += w
        info[i][j] -= w
        info[j][i] -= w
    return info


def _idle(n: int, pairs: dict[tuple[int, int], float]) -> set[int]:
    """The players who played no game: no result rates them."""
    return set(range(n)) - {i for pair in pairs for i in pair}


def _elo(n: int, r: list[float], var: list[float], idle: set[int]
         ) -> list[tuple[float, float | None]]:
    """Log-strengths as Elo (mean 0), each with the 95% half-width of variance ``var``."""
    scale = 400.0 / math.log(10)
    mean = sum(r) / n
    return [((x - mean) * scale,
             None if i in idle or v <= 0 else Z95 * scale * math.sqrt(v))
            for i, (x, v) in enumerate(zip(r, var, strict=True))]


class RankedElo:
    """Elo ratings of ``n`` players from matches of more than two seats, each match a list of
    (player, result), higher is better, ties allowed: every pair of a match counts as a game
    between them (the one with the better result wins, a tie is half a win each), and the
    Bradley-Terry fit of :func:`elo_ratings` rates them. Under the Plackett-Luce model of a
    ranking, the chance that one player finishes above another is Bradley-Terry's, so the fit
    estimates the same strengths; it depends only on what happened, not on the order the
    matches are counted in. A match's pairs are not independent games, so the error bars are
    the sandwich (cluster-robust) ones: the spread of each match's whole contribution to the
    fit, not the Fisher information of its pairs taken apart (which would make them too
    narrow), but never narrower than that (where every match tied, the sandwich has no
    width: no match moved the fit). Kept: each pair's games, each player's score, and how
    many matches ended in each order (at most a few hundred kinds per group of bots), not
    the matches."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.games: dict[tuple[int, int], tuple[float, int]] = {}
        self.orders: dict[tuple[tuple[int, int], ...], int] = {}

    def add(self, match: Sequence[tuple[int, float]]) -> None:
        # the order a match ended in: each player and how many finished above it
        order = tuple(sorted((p, sum(1 for _, o in match if o > r)) for p, r in match))
        self.orders[order] = self.orders.get(order, 0) + 1
        for (a, ra), (b, rb) in combinations(order, 2):  # a < b
            s, g = self.games.get((a, b), (0.0, 0))
            self.games[(a, b)] = (s + _above(ra, rb), g + 1)

    def results(self) -> list[tuple[float, float | None]]:
        """Each player's Elo (mean 0) and the 95% half-width of its error bar (None: none
        yet, as for :func:`elo_ratings`)."""
        n = self.n
        # (in a fixed order: the sums are then the same to the last bit, however the matches
        # came)
        score, pairs = _tally(n, dict(sorted(self.games.items())))
        r = _bradley_terry(n, score, pairs)
        spread = [[0.0] * n for _ in range(n)]  # the sum over matches of s s^T
        for order, count in sorted(self.orders.items()):
            s: dict[int, float] = {}  # (only the match's players have a part)
            for (a, ra), (b, rb) in combinations(order, 2):
                d = _above(ra, rb) - 1.0 / (1.0 + math.exp(r[b] - r[a]))
                s[a] = s.get(a, 0.0) + d
                s[b] = s.get(b, 0.0) - d
            for i, si in s.items():
                if si:
                    row = spread[i]
                    for j, sj in s.items():
                        row[j] += count * si * sj
        try:
            inv = _covariance(n, r, pairs)
            # never narrower than the pairs' own Fisher error: where every match tied, no
            # match moves the fit and the sandwich had no width at all (12 tied matches rated
            # three bots 0 exactly, with no error bar). (inv is symmetric: its row i is its
            # column i)
            var = [max(sum(v * sum(map(operator.mul, spread[k], inv[i]))
                           for k, v in enumerate(inv[i])), inv[i][i])
                   for i in range(n)]
        except ZeroDivisionError:
            var = [0.0] * n
        return _elo(n, r, var, _idle(n, pairs))


def _above(ra: int, rb: int) -> float:
    """The score of the game between two players of a match that finished with ``ra`` and
    ``rb`` players above each: 1 for the one above, a tie half each."""
    return 1.0 if ra < rb else 0.5 if ra == rb else 0.0
