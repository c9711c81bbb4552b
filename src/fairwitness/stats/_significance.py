"""Significance tests: McNemar's test for paired outcomes and Holm's adjustment for multiple
tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from fairwitness.stats._beta import binom_pmf, binom_tail
from fairwitness.stats._checks import _nonnegative_count, _probability

# -- McNemar's test -----------------------------------------------------------------------------


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
