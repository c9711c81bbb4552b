"""The noise comparison's arithmetic: the one-sided Fisher's exact test that
:func:`~fairwitness.diagnostics.relations.compare_with_noise` runs, and the check of its counts."""

from __future__ import annotations

from fairwitness.stats import binom_pmf

_NEGLIGIBLE = 2.0**-60  # a term this small relative to the running sum cannot change it


def _hypergeom_pmf(x: int, total: int, successes: int, draws: int, p: float) -> float:
    """P(X = x) for X hypergeometric (``draws`` from ``total`` holding ``successes``), as
    C(s, x)·C(t - s, d - x) / C(t, d) = b(x; s, p)·b(d - x; t - s, p) / b(d; t, p) for any
    0 < p < 1, with each binomial probability b from Loader's method."""
    return (
        binom_pmf(x, successes, p)
        * binom_pmf(draws - x, total - successes, p)
        / binom_pmf(draws, total, p)
    )


def _fisher_greater(a: int, b: int, c: int, d: int) -> float:
    """One-sided (``greater``) p-value of Fisher's exact test on the table [[a, b], [c, d]]."""
    total = a + b + c + d
    successes = a + c  # first column
    draws = a + b  # first row
    low = max(0, draws - (total - successes))
    high = min(successes, draws)
    if a <= low:
        return 1.0
    # 0 < draws < total here: a > low rules out draws == 0 and draws == total.
    p = draws / total
    mode = (draws + 1) * (successes + 1) // (total + 2)
    tail = 0.0
    if a > mode:
        # The upper tail directly: its terms shrink from x = a upward.
        for x in range(a, high + 1):
            term = _hypergeom_pmf(x, total, successes, draws, p)
            tail += term
            if term <= tail * _NEGLIGIBLE:
                break
        return min(1.0, tail)
    # a at or below the mode: the p-value is large, so 1 - P(X <= a - 1) loses nothing; those
    # terms shrink from x = a - 1 downward.
    for x in range(a - 1, low - 1, -1):
        term = _hypergeom_pmf(x, total, successes, draws, p)
        tail += term
        if term <= tail * _NEGLIGIBLE:
            break
    return min(1.0, max(0.0, 1.0 - tail))


def _count(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return value
