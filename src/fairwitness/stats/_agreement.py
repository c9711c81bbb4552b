"""Agreement between two raters: Cohen's kappa with its confidence interval."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from fairwitness.stats._checks import _confidence, _nonnegative_count, _two_sided_z

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
