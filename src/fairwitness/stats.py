"""Statistics for comparing evaluation runs: intervals, exact binomial tails, Holm, Cohen's kappa.

Pure Python on the standard library only, so that fairwitness needs no numeric package at run time.
Every function checks its arguments: a count that is not an integer raises ``TypeError``, any other
bad argument raises ``ValueError`` naming the argument and the value it was given. Functions that
draw random numbers take an explicit ``seed``.

Methods, with the references each function's docstring cites:

- binomial probabilities by Loader's saddle-point expansion (Loader 2000), which keeps full relative
  precision for any ``n`` where the textbook ``lgamma`` formula loses digits to cancellation;
- the regularized incomplete beta function by its continued fraction, evaluated with the modified
  Lentz method (Lentz 1976; Thompson & Barnett 1986; Press et al., Numerical Recipes, 3rd ed., 6.4),
  with the prefactor computed in log space;
- its inverse by Halley/Newton steps safeguarded by bisection on a bracket that always holds the root;
- Wilson (1927) and Clopper & Pearson (1934) intervals for a proportion;
- McNemar's (1947) test for paired pass/fail outcomes, exact and mid-p (Fagerland, Lydersen & Laake
  2013);
- Holm's (1979) step-down adjustment for multiple tests;
- the percentile bootstrap (Efron & Tibshirani 1993);
- Cohen's (1960) kappa with the large-sample standard error of Fleiss, Cohen & Everitt (1969).
"""

from __future__ import annotations

import math
import operator
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "HolmResult",
    "Kappa",
    "betainc",
    "betaincinv",
    "binom_pmf",
    "binom_tail",
    "bootstrap_ci",
    "clopper_pearson",
    "cohen_kappa",
    "holm",
    "mcnemar",
    "normal_quantile",
    "wilson",
]

_STANDARD_NORMAL = statistics.NormalDist()
_LN_2PI = math.log(2.0 * math.pi)
_LN_SQRT_2PI = 0.5 * _LN_2PI
_MAX_EXP = 709.782712893384  # math.exp overflows above this
_TINY = 1e-300  # the modified Lentz method's stand-in for zero
_CF_EPS = 3e-16  # continued fraction converged: the last factor is 1 within about one ulp
_EXACT_SUM_MAX_N = 60  # binom_tail sums the probabilities up to this n, else uses the beta function


# -- argument checks ----------------------------------------------------------------------------


def _count(name: str, value: object) -> int:
    """``value`` as an ``int`` if it is an integer (not a bool), else ``TypeError``."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None


def _nonnegative_count(name: str, value: object) -> int:
    number = _count(name, value)
    if number < 0:
        raise ValueError(f"{name} must be >= 0, got {number}")
    return number


def _confidence(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:  # also refuses NaN
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return float(confidence)


def _probability(name: str, value: float) -> float:
    if not 0.0 <= value <= 1.0:  # also refuses NaN
        raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
    return float(value)


def _positive(name: str, value: float) -> float:
    if not 0.0 < value < math.inf:  # also refuses NaN
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")
    return float(value)


def _two_sided_z(confidence: float) -> float:
    """z = Φ⁻¹(1 - (1 - confidence)/2), computed from the small tail (no rounding of 1 - tail)."""
    return -_STANDARD_NORMAL.inv_cdf((1.0 - confidence) / 2.0)


def _exp(x: float) -> float:
    """``math.exp`` that returns ``inf`` instead of raising ``OverflowError``."""
    return math.inf if x > _MAX_EXP else math.exp(x)


# -- normal and binomial distributions ----------------------------------------------------------


def normal_quantile(p: float) -> float:
    """The standard normal quantile Φ⁻¹(p), for 0 < p < 1.

    Exact to double precision: ``statistics.NormalDist.inv_cdf`` implements Wichura's algorithm
    AS 241 (Applied Statistics 37, 1988), accurate to about 1e-16 relative.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, got {p!r}")
    return _STANDARD_NORMAL.inv_cdf(p)


def _stirlerr(n: float) -> float:
    """log(n!) - log(√(2πn) (n/e)^n), the error of Stirling's formula, for n > 0 (Loader 2000)."""
    if n <= 15.0:
        return math.lgamma(n + 1.0) - (n + 0.5) * math.log(n) + n - _LN_SQRT_2PI
    nn = n * n
    s0, s1, s2, s3, s4 = 1.0 / 12, 1.0 / 360, 1.0 / 1260, 1.0 / 1680, 1.0 / 1188
    if n > 500.0:
        return (s0 - s1 / nn) / n
    if n > 80.0:
        return (s0 - (s1 - s2 / nn) / nn) / n
    if n > 35.0:
        return (s0 - (s1 - (s2 - s3 / nn) / nn) / nn) / n
    return (s0 - (s1 - (s2 - (s3 - s4 / nn) / nn) / nn) / nn) / n


def _bd0(x: float, m: float) -> float:
    """The deviance term x·log(x/m) + m - x for x, m > 0, without cancellation (Loader 2000)."""
    if abs(x - m) < 0.1 * (x + m):
        v = (x - m) / (x + m)
        s = (x - m) * v
        if abs(s) < 2.2250738585072014e-308:
            return s
        ej = 2.0 * x * v
        v *= v
        j = 1
        while j < 1000:
            ej *= v
            s1 = s + ej / (2 * j + 1)
            if s1 == s:
                return s1
            s = s1
            j += 1
        return s
    ratio = x / m
    log_ratio = math.log(ratio) if 0.0 < ratio < math.inf else math.log(x) - math.log(m)
    return x * log_ratio + m - x


def _binom_log_pmf(k: int, n: int, p: float, q: float) -> float:
    """log P(X = k), X ~ Binomial(n, p), for 0 <= k <= n, 0 < p < 1 and q = 1 - p (Loader 2000)."""
    if k == 0:
        return n * math.log1p(-p)
    if k == n:
        return n * math.log(p)
    lc = _stirlerr(n) - _stirlerr(k) - _stirlerr(n - k) - _bd0(k, n * p) - _bd0(n - k, n * q)
    lf = _LN_2PI + math.log(k) + math.log1p(-k / n)
    return lc - 0.5 * lf


def binom_pmf(k: int, n: int, p: float) -> float:
    """P(X = k) for X ~ Binomial(n, p).

    Computed in log space with Loader's saddle-point expansion (C. Loader, "Fast and Accurate
    Computation of Binomial Probabilities", 2000; the method behind R's ``dbinom``): relative error
    near machine precision for any n, no overflow, and a plain 0.0 only where the probability is
    below the smallest double. ``k`` outside 0..n gives 0.0.
    """
    k = _count("k", k)
    n = _nonnegative_count("n", n)
    p = _probability("p", p)
    if k < 0 or k > n:
        return 0.0
    if p == 0.0:
        return 1.0 if k == 0 else 0.0
    if p == 1.0:
        return 1.0 if k == n else 0.0
    return math.exp(_binom_log_pmf(k, n, p, 1.0 - p))


# -- the regularized incomplete beta function ---------------------------------------------------


def _log_beta_front(a: float, b: float, x: float, y: float) -> float:
    """log of x^a·y^b / (a·B(a, b)), for a, b > 0, 0 < x < 1 and y = 1 - x.

    Loader's expansion of the beta-binomial density, so that large a and b keep full precision
    (the direct ``lgamma(a) + lgamma(b) - lgamma(a + b)`` loses about log10(a + b) digits).
    """
    total = a + b
    mx = total * x
    my = total * y
    if mx == 0.0 or my == 0.0:  # only for x or y below the smallest normal double
        lbeta = math.lgamma(a) + math.lgamma(b) - math.lgamma(total)
        return a * math.log(x) + b * math.log(y) - math.log(a) - lbeta
    lt = math.log(total)
    return (
        math.log(b)
        - lt
        + _stirlerr(total)
        - _stirlerr(a)
        - _stirlerr(b)
        - _bd0(a, mx)
        - _bd0(b, my)
        - 0.5 * (_LN_2PI + math.log(a) + math.log(b) - lt)
    )


def _beta_cf(a: float, b: float, x: float, y: float) -> float:
    """The continued fraction of I_x(a, b), by the modified Lentz method (Numerical Recipes 6.4).

    Converges quickly for x < (a + 1)/(a + b + 2), in O(√max(a, b)) iterations at worst. The
    first partial denominator 1 - (a + b)x/(a + 1) nearly cancels when x is close to that bound;
    for x > 1/2 it is computed from y = 1 - x instead, as ((1 - b) + (a + b)y)/(a + 1), so that the
    digits y carries beyond x are not lost.
    """
    qab = a + b
    qap = a + 1.0
    qam = a - 1.0
    c = 1.0
    d = (1.0 - b + qab * y) / qap if x > 0.5 else 1.0 - qab * x / qap
    if abs(d) < _TINY:
        d = _TINY
    d = 1.0 / d
    h = d
    max_iter = 300 + int(20.0 * math.sqrt(max(a, b)))
    for m in range(1, max_iter + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        if abs(d) < _TINY:
            d = _TINY
        c = 1.0 + aa / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        if abs(d) < _TINY:
            d = _TINY
        c = 1.0 + aa / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _CF_EPS:
            return h
    raise ArithmeticError(
        f"the continued fraction of the incomplete beta function did not converge "
        f"for a={a!r}, b={b!r}, x={x!r} in {max_iter} iterations"
    )


def _ibeta(a: float, b: float, x: float, y: float) -> tuple[float, float]:
    """(I_x(a, b), 1 - I_x(a, b)) for a, b > 0 and y = 1 - x; the smaller one is computed directly.

    The continued fraction is used on the side of the beta mode where it converges fast,
    with the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) on the other side.
    """
    if x <= 0.0:
        return 0.0, 1.0
    if y <= 0.0:
        return 1.0, 0.0
    if x * (a + b + 2.0) < a + 1.0:
        t = min(1.0, math.exp(_log_beta_front(a, b, x, y)) * _beta_cf(a, b, x, y))
        return t, 1.0 - t
    t = min(1.0, math.exp(_log_beta_front(b, a, y, x)) * _beta_cf(b, a, y, x))
    return 1.0 - t, t


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.

    Continued fraction evaluated with the modified Lentz method (W. J. Lentz, Applied Optics 15,
    1976; I. J. Thompson & A. R. Barnett, J. Comput. Phys. 64, 1986; Press et al., Numerical
    Recipes, 3rd ed., section 6.4); the prefactor x^a (1 - x)^b / (a B(a, b)) is computed in log
    space with Loader's expansion, so neither overflows nor loses precision for large a and b.
    """
    a = _positive("a", a)
    b = _positive("b", b)
    x = _probability("x", x)
    return _ibeta(a, b, x, 1.0 - x)[0]


def _log_beta_pdf(a: float, b: float, x: float) -> float:
    """log of the Beta(a, b) density at 0 < x < 1."""
    return _log_beta_front(a, b, x, 1.0 - x) + math.log(a) - math.log(x) - math.log1p(-x)


def _initial_guess(a: float, b: float, p: float, q: float) -> float:
    """A starting point for I_x(a, b) = p (Press et al., Numerical Recipes, 3rd ed., 6.14.1)."""
    if a >= 1.0 and b >= 1.0:
        z = -_STANDARD_NORMAL.inv_cdf(p) if p < 0.5 else _STANDARD_NORMAL.inv_cdf(q)
        al = (z * z - 3.0) / 6.0
        h = 2.0 / (1.0 / (2.0 * a - 1.0) + 1.0 / (2.0 * b - 1.0))
        w = z * math.sqrt(al + h) / h - (1.0 / (2.0 * b - 1.0) - 1.0 / (2.0 * a - 1.0)) * (
            al + 5.0 / 6.0 - 2.0 / (3.0 * h)
        )
        t = 2.0 * w + math.log(b / a)  # x = a / (a + b·e^{2w}) = 1 / (1 + e^t)
        if t > 0.0:
            e = math.exp(-t) if t < _MAX_EXP else 0.0
            return e / (1.0 + e)
        return 1.0 / (1.0 + math.exp(t))
    lna = math.log(a / (a + b))
    lnb = math.log(b / (a + b))
    t = math.exp(a * lna) / a
    u = math.exp(b * lnb) / b
    w = t + u
    if p < t / w:
        return _exp(math.log(a * w * p) / a)
    return -math.expm1(math.log(b * w * q) / b)


def _bisect(lo: float, hi: float) -> float:
    """A point strictly inside (lo, hi): geometric while the bracket spans orders of magnitude."""
    if hi > 4.0 * lo:
        floor = max(lo, 1e-300)
        if hi > 4.0 * floor:
            return math.exp(0.5 * (math.log(floor) + math.log(hi)))
    return 0.5 * (lo + hi)


def _ibeta_inv_low(a: float, b: float, p: float, q: float) -> float:
    """The x in [0, 1/2] with I_x(a, b) = p, where q = 1 - p and I_{1/2}(a, b) >= p.

    Halley steps (Newton's with a second-order correction) from Numerical Recipes' starting point,
    kept inside a bracket of the root as in Numerical Recipes' ``rtsafe``: a step that would leave
    the bracket, or that does not at least halve the step before last, is replaced by bisection
    (geometric while the bracket spans orders of magnitude, so tiny roots are found quickly).
    """
    lower_tail = p <= q  # compare on the smaller tail, which _ibeta computes directly
    lo, hi = 0.0, 0.5
    x = _initial_guess(a, b, p, q)
    if not lo < x < hi:
        x = _bisect(lo, hi)
    step_before = hi - lo
    for _ in range(400):
        i_x, ic_x = _ibeta(a, b, x, 1.0 - x)
        g = i_x - p if lower_tail else q - ic_x
        if g == 0.0:
            return x
        if g < 0.0:
            lo = x
        else:
            hi = x
        pdf = _exp(_log_beta_pdf(a, b, x))
        candidate = math.nan
        if 0.0 < pdf < math.inf:
            u = g / pdf
            curve = (a - 1.0) / x - (b - 1.0) / (1.0 - x)
            candidate = x - u / (1.0 - 0.5 * min(1.0, u * curve))
        newton = lo < candidate < hi and abs(candidate - x) <= 0.5 * step_before
        if not newton:
            candidate = _bisect(lo, hi)
            if not lo < candidate < hi:
                return x  # the bracket is as narrow as doubles allow
        step = abs(candidate - x)
        if step == 0.0:
            return x
        step_before = step
        x = candidate
        if newton and step <= 1e-12 * x:
            return x
    return x


def _ibeta_inv(a: float, b: float, p: float, q: float) -> float:
    """The x with I_x(a, b) = p, given p and q = 1 - p (each exact, neither rounded from the other)."""
    if p <= 0.0:
        return 0.0
    if q <= 0.0:
        return 1.0
    i_half, ic_half = _ibeta(a, b, 0.5, 0.5)
    if (p <= i_half) if p <= q else (q >= ic_half):
        return _ibeta_inv_low(a, b, p, q)
    # The root is above 1/2: solve I_{1-x}(b, a) = q for 1 - x, which is then fully precise.
    return 1.0 - _ibeta_inv_low(b, a, q, p)


def betaincinv(a: float, b: float, y: float) -> float:
    """The inverse of the regularized incomplete beta function: the x with I_x(a, b) = y.

    Halley/Newton iteration safeguarded by bisection on a bracket of the root, started from the
    approximation of Press et al. (Numerical Recipes, 3rd ed., 6.14.1); the root is always sought
    in [0, 1/2] (using I_x(a, b) = 1 - I_{1-x}(b, a)), so small roots keep full relative precision.
    """
    a = _positive("a", a)
    b = _positive("b", b)
    y = _probability("y", y)
    return _ibeta_inv(a, b, y, 1.0 - y)


# -- binomial tails and McNemar's test ----------------------------------------------------------


def binom_tail(k: int, n: int, p: float = 0.5) -> float:
    """The upper tail P(X >= k) for X ~ Binomial(n, p).

    For n <= 60, the exact sum of the probabilities (each computed in log space, summed with
    ``math.fsum``); above, the identity P(X >= k) = I_p(k, n - k + 1) with the regularized
    incomplete beta function (see :func:`betainc`), which neither overflows nor underflows to
    anything but a true 0.0 for any n, and keeps about 1e-12 relative precision in both tails.
    ``k <= 0`` gives 1.0 and ``k > n`` gives 0.0.
    """
    k = _count("k", k)
    n = _nonnegative_count("n", n)
    p = _probability("p", p)
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p == 0.0:
        return 0.0
    if p == 1.0:
        return 1.0
    q = 1.0 - p
    if n <= _EXACT_SUM_MAX_N:
        terms = [math.exp(_binom_log_pmf(j, n, p, q)) for j in range(k, n + 1)]
        return min(1.0, math.fsum(terms))
    return _ibeta(float(k), float(n - k + 1), p, q)[0]


def mcnemar(
    regressions: int, improvements: int, method: Literal["midp", "exact"] = "midp"
) -> float:
    """One-sided p-value of McNemar's test that the candidate is worse than the baseline.

    ``regressions`` counts the discordant pairs that passed on the baseline and failed on the
    candidate, ``improvements`` those that went from fail to pass. Under the null hypothesis each of
    the d = regressions + improvements discordant pairs is a regression with probability 1/2
    (McNemar 1947), so with X ~ Binomial(d, 1/2):

    - ``"exact"``: P(X >= regressions);
    - ``"midp"`` (default): P(X > regressions) + P(X = regressions)/2, the mid-p test that
      Fagerland, Lydersen & Laake (BMC Medical Research Methodology 13:91, 2013) recommend: its
      size stays close to the nominal level where the exact test is conservative.

    No discordant pair (d = 0) gives 1.0: nothing points either way.
    """
    regressions = _nonnegative_count("regressions", regressions)
    improvements = _nonnegative_count("improvements", improvements)
    if method not in ("midp", "exact"):
        raise ValueError(f"method must be 'midp' or 'exact', got {method!r}")
    d = regressions + improvements
    if d == 0:
        return 1.0
    above = binom_tail(regressions + 1, d, 0.5)
    at = binom_pmf(regressions, d, 0.5)
    # Both from the same two terms, so mid-p <= exact holds in floating point too.
    if method == "exact":
        return min(1.0, above + at)
    return min(1.0, above + 0.5 * at)


# -- intervals for a proportion -----------------------------------------------------------------


def _proportion_args(successes: int, n: int, confidence: float) -> tuple[int, int, float]:
    successes = _nonnegative_count("successes", successes)
    n = _nonnegative_count("n", n)
    confidence = _confidence(confidence)
    if n == 0:
        raise ValueError("n is 0: nothing was measured, so there is no proportion to bound")
    if successes > n:
        raise ValueError(f"successes must be <= n ({n}), got {successes}")
    return successes, n, confidence


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (E. B. Wilson, JASA 22, 1927).

    With z = Φ⁻¹(1 - (1 - confidence)/2) (the exact quantile, not 1.96), the bounds are
    (2k + z² ∓ z·√(z² + 4k(n - k)/n)) / (2(n + z²)); the lower one is computed in the equivalent
    form 2k² / (n·(2k + z² + z·√(…))), which has no cancellation. Clamped to [0, 1].
    """
    k, n, confidence = _proportion_args(successes, n, confidence)
    z = _two_sided_z(confidence)
    z2 = z * z
    root = z * math.sqrt(z2 + 4.0 * k * (n - k) / n)
    upper = (2.0 * k + z2 + root) / (2.0 * (n + z2))
    lower = 2.0 * k * k / (n * (2.0 * k + z2 + root))
    return max(0.0, min(1.0, lower)), max(0.0, min(1.0, upper))


def clopper_pearson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval for a proportion (Biometrika 26, 1934).

    Lower bound: the alpha/2 quantile of Beta(k, n - k + 1), 0 when k = 0; upper bound: the 1 - alpha/2
    quantile of Beta(k + 1, n - k), 1 when k = n; alpha = 1 - confidence. Quantiles by
    :func:`betaincinv`.
    """
    k, n, confidence = _proportion_args(successes, n, confidence)
    half = (1.0 - confidence) / 2.0
    lower = 0.0 if k == 0 else _ibeta_inv(float(k), float(n - k + 1), half, 1.0 - half)
    upper = 1.0 if k == n else _ibeta_inv(float(k + 1), float(n - k), 1.0 - half, half)
    return lower, upper


# -- multiple testing ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HolmResult:
    """One hypothesis after Holm's adjustment: its raw p-value, the adjusted one, the decision."""

    p: float
    p_adjusted: float
    rejected: bool


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> list[HolmResult]:
    """Holm's step-down adjustment for m tests (S. Holm, Scand. J. Statistics 6, 1979).

    In ascending order p_(1) <= … <= p_(m), the adjusted p-value is
    max over j <= i of min(1, (m - j + 1)·p_(j)): monotone in that order and never below the raw
    p-value. A hypothesis is rejected when its adjusted p-value is <= ``alpha``, which controls the
    family-wise error rate at ``alpha``. Results come back in input order; tied p-values get equal
    adjusted values. An empty input gives an empty list.
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be strictly between 0 and 1, got {alpha!r}")
    values = [_probability(f"pvalues[{i}]", p) for i, p in enumerate(pvalues)]
    m = len(values)
    order = sorted(range(m), key=values.__getitem__)
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * values[index]))
        adjusted[index] = running
    return [HolmResult(p, adj, adj <= alpha) for p, adj in zip(values, adjusted, strict=True)]


# -- the bootstrap ------------------------------------------------------------------------------


def _percentile(ordered: Sequence[float], q: float) -> float:
    """The q-quantile of sorted data, interpolating linearly between order statistics (Hyndman &
    Fan's definition 7, numpy's default)."""
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    fraction = position - below
    return ordered[below] + (ordered[above] - ordered[below]) * fraction


def bootstrap_ci(
    values: Sequence[float],
    stat: Callable[[Sequence[float]], float] = statistics.fmean,
    n_resamples: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> tuple[float, float]:
    """A percentile bootstrap interval for ``stat(values)`` (Efron & Tibshirani, An Introduction to
    the Bootstrap, 1993, chapter 13).

    Draws ``n_resamples`` samples of ``len(values)`` with replacement from ``random.Random(seed)``,
    applies ``stat`` to each, and returns the (1 - confidence)/2 and (1 + confidence)/2 quantiles of
    those statistics (linear interpolation between order statistics). The same inputs and seed give
    the same interval.
    """
    data = [float(v) for v in values]
    if not data:
        raise ValueError("values is empty: nothing was measured, so there is nothing to resample")
    n_resamples = _count("n_resamples", n_resamples)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    confidence = _confidence(confidence)
    rng = random.Random(seed)
    size = len(data)
    stats = sorted(float(stat(rng.choices(data, k=size))) for _ in range(n_resamples))
    tail = (1.0 - confidence) / 2.0
    return _percentile(stats, tail), _percentile(stats, 1.0 - tail)


# -- Cohen's kappa ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kappa:
    """Cohen's kappa with its confidence interval, or why it is undefined.

    ``value``, ``ci_low`` and ``ci_high`` are ``None`` (never NaN, never 0) when kappa is undefined,
    and ``undefined_reason`` then says why; ``n`` is the number of rated items.
    """

    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    undefined_reason: str | None = None

    def __str__(self) -> str:
        if self.value is None or self.ci_low is None or self.ci_high is None:
            return f"undefined ({self.undefined_reason})"
        return f"{self.value:.2f} [{self.ci_low:.2f}, {self.ci_high:.2f}]"


def _square_counts(matrix: Sequence[Sequence[int]]) -> list[list[int]]:
    rows = [list(row) for row in matrix]
    size = len(rows)
    if size == 0:
        raise ValueError("matrix is empty: it must be a square table of counts")
    for i, row in enumerate(rows):
        if len(row) != size:
            raise ValueError(
                f"matrix must be square: it has {size} rows but row {i} has {len(row)} entries"
            )
        for j, cell in enumerate(row):
            row[j] = _nonnegative_count(f"matrix[{i}][{j}]", cell)
    return rows


def cohen_kappa(matrix: Sequence[Sequence[int]], confidence: float = 0.95) -> Kappa:
    """Cohen's kappa for two raters (J. Cohen, Educ. Psychol. Measurement 20, 1960).

    ``matrix[i][j]`` counts the items rater A put in category i and rater B in category j. With
    observed agreement p_o and agreement expected by chance p_e (from the margins), kappa is
    (p_o - p_e)/(1 - p_e), computed from the integer counts exactly. The interval is
    kappa ± z·SE with the large-sample standard error of Fleiss, Cohen & Everitt (Psychological
    Bulletin 72, 1969), the ``std_kappa`` statsmodels reports, clamped to [-1, 1].

    When p_e = 1 (both raters put every item in the same single category) kappa is 0/0: the result
    then carries ``None`` and the reason instead of a number.
    """
    counts = _square_counts(matrix)
    confidence = _confidence(confidence)
    size = len(counts)
    n = sum(sum(row) for row in counts)
    if n == 0:
        raise ValueError("matrix holds no counts: nothing was rated, so there is no agreement")
    row_totals = [sum(row) for row in counts]
    col_totals = [sum(counts[i][j] for i in range(size)) for j in range(size)]
    agree = sum(counts[i][i] for i in range(size))
    chance = sum(r * c for r, c in zip(row_totals, col_totals, strict=True))  # n² · p_e
    if chance == n * n:
        return Kappa(
            None,
            None,
            None,
            n,
            "expected agreement is 1: both raters used a single category",
        )
    kappa = (n * agree - chance) / (n * n - chance)  # exact ints, one rounding
    # Fleiss, Cohen & Everitt (1969), equation 13.
    p_e = chance / (n * n)
    row = [r / n for r in row_totals]
    col = [c / n for c in col_totals]
    term_a = sum(
        counts[i][i] / n * (1.0 - (row[i] + col[i]) * (1.0 - kappa)) ** 2 for i in range(size)
    )
    term_b = (1.0 - kappa) ** 2 * sum(
        counts[i][j] / n * (col[i] + row[j]) ** 2
        for i in range(size)
        for j in range(size)
        if i != j
    )
    term_c = (kappa - p_e * (1.0 - kappa)) ** 2
    variance = max(0.0, (term_a + term_b - term_c) / ((1.0 - p_e) ** 2 * n))
    half = _two_sided_z(confidence) * math.sqrt(variance)
    return Kappa(kappa, max(-1.0, kappa - half), min(1.0, kappa + half), n, None)
