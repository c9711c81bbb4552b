"""The mathematics of the sequential meter's e-processes: the grids of alternatives and the
likelihood-ratio mixtures over them, in log space."""

from __future__ import annotations

import math
from collections.abc import Sequence

GRID_SIZE = 12  # alternatives per side of the sequential meter


def _geometric(low: float, high: float, count: int) -> list[float]:
    ratio = math.log(high / low) / (count - 1)
    return [low * math.exp(ratio * j) for j in range(count)]


def _stochastic_alternatives(epsilon: float) -> list[float]:
    """The alternatives q > epsilon of the "stochastic" e-process: 12 values spaced geometrically
    from epsilon + min(epsilon/2, (1 - epsilon)/4) (1.5 epsilon for epsilon <= 1/3) to
    (1 + epsilon)/2, the midpoint between epsilon and 1 (about 0.5 for small epsilon)."""
    low = epsilon + min(0.5 * epsilon, 0.25 * (1.0 - epsilon))
    return _geometric(low, 0.5 * (1.0 + epsilon), GRID_SIZE)


def _deterministic_alternatives(epsilon: float) -> list[float]:
    """The alternatives q < epsilon of the "deterministic" e-process: q = 0 (a target that never
    flips, the common deterministic case) and 11 values spaced geometrically from epsilon/20 to
    epsilon/1.5."""
    return [0.0, *_geometric(epsilon / 20.0, epsilon / 1.5, GRID_SIZE - 1)]


def _coefficients(alternatives: Sequence[float], epsilon: float) -> list[tuple[float, float]]:
    """Per alternative q, the log likelihood ratio of a flip, log(q/epsilon) (-inf for q = 0), and
    of a flip-free pair, log((1 - q)/(1 - epsilon))."""
    log_eps, log_not_eps = math.log(epsilon), math.log1p(-epsilon)
    return [
        (math.log(q) - log_eps if q > 0.0 else -math.inf, math.log1p(-q) - log_not_eps)
        for q in alternatives
    ]


def _log_mixture(coefficients: Sequence[tuple[float, float]], flips: int, steady: int) -> float:
    """log of the mean over the grid of prod over pairs of the likelihood ratios, for ``flips``
    flipped and ``steady`` flip-free pairs, by log-sum-exp (no overflow or underflow for any
    count). A q = 0 alternative contributes 0 once a pair has flipped."""
    terms = [
        steady * on_steady + (flips * on_flip if flips else 0.0)
        for on_flip, on_steady in coefficients
        if not (flips and on_flip == -math.inf)
    ]
    top = max(terms)  # never empty: every grid has alternatives with q > 0
    total = math.fsum(math.exp(term - top) for term in terms)
    return top + math.log(total) - math.log(len(coefficients))
