"""Intervals: the normal quantile, Wilson and Clopper-Pearson intervals for a proportion, and
the percentile bootstrap."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence

from fairwitness.stats._beta import _ibeta_inv
from fairwitness.stats._checks import (
    _STANDARD_NORMAL,
    _confidence,
    _count,
    _nonnegative_count,
    _two_sided_z,
)

# -- the normal distribution --------------------------------------------------------------------


def normal_quantile(p: float) -> float:
    """The standard normal quantile Φ⁻¹(p), for 0 < p < 1.

    Exact to double precision: ``statistics.NormalDist.inv_cdf`` implements Wichura's algorithm
    AS 241 (Applied Statistics 37, 1988), accurate to about 1e-16 relative.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, got {p!r}")
    return _STANDARD_NORMAL.inv_cdf(p)


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


def _wilson_lower_half(k: int, n: int, z: float) -> tuple[float, float]:
    """Wilson bounds for k <= n/2, each computed without cancellation."""
    z2 = z * z
    root = z * math.sqrt(z2 + 4.0 * k * (n - k) / n)
    lower = 2.0 * k * k / (n * (2.0 * k + z2 + root))
    upper = (2.0 * k + z2 + root) / (2.0 * (n + z2))
    return lower, upper


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (E. B. Wilson, JASA 22, 1927).

    With z = Φ⁻¹(1 - (1 - confidence)/2) (the exact quantile, not 1.96), the bounds are
    (2k + z² ∓ z·√(z² + 4k(n - k)/n)) / (2(n + z²)). For k <= n/2 the lower one is computed in the
    equivalent form 2k² / (n·(2k + z² + z·√(…))), which has no cancellation; for k > n/2 the bounds
    are 1 minus those of n - k, so the interval is exactly symmetric and reaches 0 at k = 0 and 1 at
    k = n. Clamped to [0, 1].
    """
    k, n, confidence = _proportion_args(successes, n, confidence)
    z = _two_sided_z(confidence)
    if 2 * k <= n:
        lower, upper = _wilson_lower_half(k, n, z)
    else:
        mirror_lower, mirror_upper = _wilson_lower_half(n - k, n, z)
        lower, upper = 1.0 - mirror_upper, 1.0 - mirror_lower
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
