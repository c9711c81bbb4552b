"""Repeated trials of a case: pass^k and pass@k, and an interval for a mean of per-case rates."""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from fairwitness.stats._checks import (
    _confidence,
    _count,
    _nonnegative_count,
    _probability,
    _two_sided_z,
)


def _repeat_args(successes: int, trials: int, k: int) -> tuple[int, int, int]:
    successes = _nonnegative_count("successes", successes)
    trials = _nonnegative_count("trials", trials)
    k = _count("k", k)
    if trials == 0:
        raise ValueError("trials is 0: the case was never run, so there is nothing to estimate")
    if successes > trials:
        raise ValueError(f"successes must be <= trials ({trials}), got {successes}")
    if not 1 <= k <= trials:
        raise ValueError(f"k must be between 1 and trials ({trials}), got {k}")
    return successes, trials, k


def pass_hat_k(successes: int, trials: int, k: int) -> float:
    """The probability that k independent repeats of a case all succeed, estimated without bias
    from ``successes`` of ``trials`` repeats: C(c, k) / C(n, k).

    This is tau-bench's pass^k (Yao, Shinn, Razavi & Narasimhan, "τ-bench", arXiv:2406.12045,
    2024): the share of the k-subsets of the n repeats in which every repeat succeeded, an unbiased
    estimate of p^k for a case that succeeds with probability p. The ratio of the two exact integer
    binomial coefficients is rounded once, so the result is correctly rounded for any n.
    """
    c, n, k = _repeat_args(successes, trials, k)
    return math.comb(c, k) / math.comb(n, k)


def pass_at_k(successes: int, trials: int, k: int) -> float:
    """The probability that at least one of k independent repeats of a case succeeds, estimated
    without bias from ``successes`` of ``trials`` repeats: 1 - C(n - c, k) / C(n, k).

    The unbiased pass@k estimator of Chen et al. ("Evaluating Large Language Models Trained on
    Code", arXiv:2107.03374, 2021): the share of the k-subsets of the n repeats that hold a success.
    Computed as (C(n, k) - C(n - c, k)) / C(n, k) in exact integers and rounded once.
    """
    c, n, k = _repeat_args(successes, trials, k)
    total = math.comb(n, k)
    return (total - math.comb(n - c, k)) / total


# -- an interval for a mean of per-case rates ---------------------------------------------------


def _unit_value(name: str, value: object) -> float:
    if not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    return _probability(name, float(value))


def _unit_values(values: Sequence[float]) -> Counter[float]:
    """The values with their multiplicities, each checked to lie in [0, 1]."""
    try:
        counts: Counter[float] = Counter()
        for value, count in Counter(values).items():
            counts[_unit_value("values", value)] += count
    except (TypeError, ValueError):
        for index, value in enumerate(values):  # name the first bad one
            _unit_value(f"values[{index}]", value)
        raise
    return counts


def _wilson_bounds(k: float, rest: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's bounds for k successes and ``rest`` = n - k failures at a real size n, k <= n/2.

    The same expressions as :func:`fairwitness.stats.wilson`, so at integer k and n the two agree
    to the last bit.
    """
    z2 = z * z
    root = z * math.sqrt(z2 + 4.0 * k * rest / n)
    lower = 2.0 * k * k / (n * (2.0 * k + z2 + root))
    upper = (2.0 * k + z2 + root) / (2.0 * (n + z2))
    return lower, upper


def case_mean_interval(
    values: Sequence[float], trials: int, confidence: float = 0.95
) -> tuple[float, float]:
    """A two-sided interval at ``confidence`` for the mean of per-case values in [0, 1], with the
    case as the sampling unit.

    ``values`` holds one number per case: its share of successful repeats, or its pass^k or pass@k
    estimate; ``trials`` is the number of measured trials behind them (at least one per case). With
    p the mean of the n values and se² = Σ(v - p)² / n² their cluster-robust variance of the mean
    (cases as clusters, no small-sample factor; Liang & Zeger, Biometrika 73, 1986), the interval is
    Wilson's score interval (E. B. Wilson, JASA 22, 1927) evaluated at the effective sample size
    n_eff = p(1 - p) / se² (Kish, Survey Sampling, 1965: the size divided by the design effect),
    clamped to [n, trials]: n cases of several repeats carry the evidence of between n and
    ``trials`` independent trials. When p is 0 or 1, or every value is the same, n_eff = n, the
    conservative end. At the real size n_eff Wilson's bounds, with k = p·n_eff, are
    (2k + z² ∓ z·√(z² + 4k(n_eff - k)/n_eff)) / (2(n_eff + z²)), z = Φ⁻¹(1 - (1 - confidence)/2).

    The sums are exact: each value is taken as the exact rational its float holds, so that
    n_eff = n·S₁(n - S₁) / (n·S₂ - S₁²), with S₁ = Σv and S₂ = Σv², is decided and clamped without
    rounding. When every value is 0 or 1 (one repeat per case, or repeats that always agree)
    n_eff = n exactly and the interval is the one :func:`fairwitness.stats.wilson` gives for the
    n cases, to the last bit.
    """
    counts = _unit_values(values)
    n = sum(counts.values())
    if n == 0:
        raise ValueError("values is empty: no case was measured, so there is no mean to bound")
    trials = _nonnegative_count("trials", trials)
    if trials < n:
        raise ValueError(f"trials must be >= the number of values ({n}), got {trials}")
    confidence = _confidence(confidence)
    # Every value as an integer multiple of 2^-scale, so that S1 and S2 are exact integers.
    ratios = [(float(value).as_integer_ratio(), count) for value, count in counts.items()]
    scale = max(denominator.bit_length() - 1 for (_, denominator), _ in ratios)
    s1 = s2 = 0
    for (numerator, denominator), count in ratios:
        units = numerator << (scale - denominator.bit_length() + 1)
        s1 += count * units
        s2 += count * units * units
    whole = n << scale  # n in the same units as s1
    spread = n * s2 - s1 * s1  # n³·se² in units of 2^-2·scale
    size = Fraction(n)
    if 0 < s1 < whole and spread > 0:
        size = Fraction(n * s1 * (whole - s1), spread)
        size = min(max(size, Fraction(n)), Fraction(trials))
    k = size * s1 / whole
    n_eff, successes, failures = float(size), float(k), float(size - k)
    z = _two_sided_z(confidence)
    if 2 * s1 <= whole:
        lower, upper = _wilson_bounds(successes, failures, n_eff, z)
    else:
        mirror_lower, mirror_upper = _wilson_bounds(failures, successes, n_eff, z)
        lower, upper = 1.0 - mirror_upper, 1.0 - mirror_lower
    return max(0.0, min(1.0, lower)), max(0.0, min(1.0, upper))


# -- the paired sign-flip test ------------------------------------------------------------------
