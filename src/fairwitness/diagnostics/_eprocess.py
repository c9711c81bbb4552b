"""The mathematics of the sequential meter's e-processes: the grids of alternatives, their weights,
how alpha is split between the two sides, and the likelihood-ratio mixtures, in log space.

Each side is a weighted mixture of likelihood ratios against the boundary epsilon of its null: for
an alternative q, a flip multiplies the ratio by q/epsilon and a flip-free pair by
(1 - q)/(1 - epsilon). With weights summing to 1 every mixture starts at 1, and as each factor has
expectation at most 1 under every rate of its null, it is a nonnegative supermartingale there.

**The split of alpha.** The side that says "verdict-deterministic" is tested at level
``DETERMINISTIC_SHARE * alpha`` (threshold 1 / (0.86 alpha)), the side that says
"verdict-stochastic" at the rest, ``(1 - DETERMINISTIC_SHARE) * alpha`` (threshold
1 / (0.14 alpha)). By Ville's inequality each crosses its threshold under its null with probability
at most its level, at any stopping time; when p != epsilon only one of the two calls is wrong, and at
p == epsilon, where both nulls hold, the two levels add up to alpha.

**Why so asymmetric.** A meter that calls "verdict-deterministic" after n flip-free pairs makes
that call at p == epsilon at least as often as n flip-free pairs occur there: (1 - epsilon)^n.
At epsilon 0.05 and alpha 0.05 the fixed design's floor is n = 59 (0.95^59 = 0.0485 < 0.05,
118 calls), which leaves no room for the other side; an even split (alpha/2 each) needs
0.95^n <= 0.025, n >= 72 (144 calls; 86 pairs with the uniform weights the meter used before).
The deterministic call within 5% of the floor, 62 pairs (124 calls), spends 0.95^62 = 0.0416 of
alpha on that side alone, so *any* valid meter doing it leaves at most 0.0084 for the stochastic
call at p == epsilon. That costs noisy targets calls: by Wald's inequality no meter on disjoint
pairs that then makes the stochastic call at a flip rate of 0.15 with near certainty averages fewer
than 136 calls there, and this mixture, which does not know the rate, takes about 171 (an even
split takes 132, with uniform weights as before or with these, which bring its deterministic call
down to 73 pairs). Every valid design trades one side against the other; this one takes the
deterministic side's floor (62 pairs at epsilon 0.05, 316 at 0.01 where the fixed design needs
299: within 5-7% of the floor at every epsilon from 0.001 to 0.2). ``benchmarks/bench_meter.py``
measures both sides, the previous design and the bounds.

**The deterministic mixture** puts ``ZERO_WEIGHT`` (95%) of its weight on q = 0, the largest bet
the null allows (a flip-free pair multiplies it by 1/(1 - epsilon), a flip sets it to 0 for good),
so with no flip the e-process grows almost as fast as the fixed design's bound; the remaining 5%,
spread over q in [epsilon/20, epsilon/1.5], still lets a target that flips now and then, well
below epsilon, be called deterministic (more slowly than the former uniform weights did).
The stochastic mixture is uniform over its grid, from 1.5 epsilon to (1 + epsilon)/2.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

GRID_SIZE = 12  # alternatives per side of the sequential meter
DETERMINISTIC_SHARE = 0.86  # the share of alpha the "verdict-deterministic" side is tested at
ZERO_WEIGHT = 0.95  # the deterministic mixture's weight on q = 0

Coefficient = tuple[float, float, float]  # log weight, log ratio of a flip, of a flip-free pair


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


def _stochastic_weights() -> list[float]:
    """Uniform: 1/12 on each alternative."""
    return [1.0 / GRID_SIZE] * GRID_SIZE


def _deterministic_weights() -> list[float]:
    """``ZERO_WEIGHT`` on q = 0, the rest shared equally by the other 11 alternatives."""
    rest = (1.0 - ZERO_WEIGHT) / (GRID_SIZE - 1)
    return [ZERO_WEIGHT, *([rest] * (GRID_SIZE - 1))]


def _log_levels(alpha: float) -> tuple[float, float]:
    """log(1/level) of the stochastic and of the deterministic side: the log thresholds their
    e-processes must reach. The two levels add up to ``alpha``."""
    return -math.log((1.0 - DETERMINISTIC_SHARE) * alpha), -math.log(DETERMINISTIC_SHARE * alpha)


def _coefficients(
    alternatives: Sequence[float], epsilon: float, weights: Sequence[float] | None = None
) -> list[Coefficient]:
    """Per alternative q: the log of its weight (uniform when ``weights`` is None), the log
    likelihood ratio of a flip, log(q/epsilon) (-inf for q = 0), and of a flip-free pair,
    log((1 - q)/(1 - epsilon))."""
    if weights is None:
        weights = [1.0 / len(alternatives)] * len(alternatives)
    if len(weights) != len(alternatives) or not math.isclose(math.fsum(weights), 1.0):
        raise ValueError("a mixture needs one weight per alternative, summing to 1")
    log_eps, log_not_eps = math.log(epsilon), math.log1p(-epsilon)
    return [
        (
            math.log(w),
            math.log(q) - log_eps if q > 0.0 else -math.inf,
            math.log1p(-q) - log_not_eps,
        )
        for q, w in zip(alternatives, weights, strict=True)
    ]


def _log_mixture(coefficients: Sequence[Coefficient], flips: int, steady: int) -> float:
    """log of the weighted sum over the grid of prod over pairs of the likelihood ratios, for
    ``flips`` flipped and ``steady`` flip-free pairs, by log-sum-exp (no overflow or underflow for
    any count). A q = 0 alternative contributes 0 once a pair has flipped."""
    terms = [
        log_w + steady * on_steady + (flips * on_flip if flips else 0.0)
        for log_w, on_flip, on_steady in coefficients
        if not (flips and on_flip == -math.inf)
    ]
    top = max(terms)  # never empty: every grid has alternatives with q > 0
    return top + math.log(math.fsum(math.exp(term - top) for term in terms))
