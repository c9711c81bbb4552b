"""Binomial probabilities (Loader 2000), the regularized incomplete beta function and its
inverse, and the binomial tail computed from them."""

from __future__ import annotations

import math

from fairwitness.stats._checks import (
    _MAX_EXP,
    _STANDARD_NORMAL,
    _count,
    _exp,
    _nonnegative_count,
    _positive,
    _probability,
)

_LN_2PI = math.log(2.0 * math.pi)
_LN_SQRT_2PI = 0.5 * _LN_2PI
_TINY = 1e-300  # the modified Lentz method's stand-in for zero
_CF_EPS = 3e-16  # continued fraction converged: the last factor is 1 within about one ulp
_EXACT_SUM_MAX_N = 60  # binom_tail sums the probabilities up to this n, else uses the beta function


# -- the binomial distribution ------------------------------------------------------------------


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


def _beta_cf(a: float, b: float, x: float, y: float, lam: float) -> float:
    """r such that I_x(a, b) = r · x^a y^b / B(a, b), by a continued fraction.

    For x < (a + 1)/(a + b + 2), where lam = a - (a + b)x > -1 and the fraction converges fast.

    The continued fraction of I_x(a, b) (Abramowitz & Stegun 26.5.8) in the contracted form of
    DiDonato & Morris (ACM TOMS 18, 1992, algorithm 708, routine BFRAC), whose coefficients use
    lam = a - (a + b)x computed without cancellation by the caller; evaluated with the modified Lentz
    method (W. J. Lentz, Applied Optics 15, 1976; Thompson & Barnett, J. Comput. Phys. 64, 1986).
    Near the bound on x it takes O(√max(a, b)) iterations. The plain even/odd form (Numerical
    Recipes 6.4) loses up to 5 digits when x is near 1 with a >> b: its partial denominators nearly
    cancel there.
    """
    c = lam + 1.0
    c0 = b / a
    c1 = 1.0 / a + 1.0
    yp1 = y + 1.0
    p = 1.0
    s = a + 1.0
    f = c / c1
    if abs(f) < _TINY:
        f = _TINY
    big_c = f
    big_d = 0.0
    max_iter = 1000 + int(20.0 * math.sqrt(max(a, b)))
    for n in range(1, max_iter + 1):
        t = n / a
        w = n * (b - n) * x
        e = a / s
        alpha = p * (p + c0) * e * e * (w * x)
        e = (t + 1.0) / (c1 + t + t)
        beta = n + w / s + e * (c + n * yp1)
        p = t + 1.0
        s += 2.0
        big_d = beta + alpha * big_d
        if abs(big_d) < _TINY:
            big_d = _TINY
        big_c = beta + alpha / big_c
        if abs(big_c) < _TINY:
            big_c = _TINY
        big_d = 1.0 / big_d
        delta = big_c * big_d
        f *= delta
        if abs(delta - 1.0) < _CF_EPS:
            return 1.0 / f
    raise ArithmeticError(
        f"the continued fraction of the incomplete beta function did not converge "
        f"for a={a!r}, b={b!r}, x={x!r} in {max_iter} iterations"
    )


def _ibeta(a: float, b: float, x: float, y: float) -> tuple[float, float]:
    """(I_x(a, b), 1 - I_x(a, b)) for a, b > 0 and y = 1 - x; the smaller one is computed directly.

    The continued fraction is used below (a + 1)/(a + b + 2), close to the mean, where it converges
    fast, with the symmetry I_x(a, b) = 1 - I_{1-x}(b, a) above.
    """
    if x <= 0.0:
        return 0.0, 1.0
    if y <= 0.0:
        return 1.0, 0.0
    # lam = a - (a + b)x, from whichever of x and y carries more digits (TOMS 708's choice).
    lam = (a + b) * y - b if a > b else a - (a + b) * x
    if x * (a + b + 2.0) < a + 1.0:
        t = math.exp(_log_beta_front(a, b, x, y)) * a * _beta_cf(a, b, x, y, lam)
        t = min(1.0, t)
        return t, 1.0 - t
    t = math.exp(_log_beta_front(b, a, y, x)) * b * _beta_cf(b, a, y, x, -lam)
    t = min(1.0, t)
    return 1.0 - t, t


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.

    The continued fraction (Abramowitz & Stegun 26.5.8), in the contracted form of DiDonato &
    Morris (ACM TOMS 18, 1992, algorithm 708), evaluated with the modified Lentz method
    (W. J. Lentz, Applied Optics 15, 1976; I. J. Thompson & A. R. Barnett, J. Comput. Phys. 64,
    1986); the prefactor x^a (1 - x)^b / B(a, b) is computed in log space with Loader's expansion,
    so neither overflows nor loses precision for large a and b. Relative error within about
    1e-12 in random checks against 35-digit arithmetic for a and b between 0.01 and 10^6.
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
    the bracket, or that is not at most half the previous step, is replaced by bisection
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


# -- binomial tails -----------------------------------------------------------------------------


def binom_tail(k: int, n: int, p: float = 0.5) -> float:
    """The upper tail P(X >= k) for X ~ Binomial(n, p).

    For n <= 60, the exact sum of the probabilities (each computed in log space, summed with
    ``math.fsum``); above, the identity P(X >= k) = I_p(k, n - k + 1) with the regularized
    incomplete beta function (see :func:`betainc`), which neither overflows nor underflows to
    anything but a true 0.0 for any n, and keeps about 1e-12 relative precision up to n = 10^6
    (a tail above about 1/2 is 1 minus the lower tail, so it is exact to about 1e-16 absolute).
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
