"""fairwitness.stats against scipy and statsmodels, exact rational arithmetic, and its own promises."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import numpy as np
import pytest
import scipy.special
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.inter_rater import cohens_kappa as sm_cohens_kappa
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from fairwitness import stats
from fairwitness.stats import (
    HolmResult,
    Kappa,
    betainc,
    betaincinv,
    binom_pmf,
    binom_tail,
    bootstrap_ci,
    clopper_pearson,
    cohen_kappa,
    holm,
    mcnemar,
    normal_quantile,
    wilson,
)

REL = 1e-9  # agreement with the references, relative
CONFIDENCES = [0.5, 0.8, 0.9, 0.95, 0.99, 0.999]
BIG_N = 10**6


def mismatches(rows: list[tuple[object, float, float]], rel: float = REL, abs_: float = 0.0):
    """The rows (label, actual, expected) whose values differ beyond the tolerance."""
    return [
        (label, actual, expected)
        for label, actual, expected in rows
        if actual != pytest.approx(expected, rel=rel, abs=abs_)
    ]


def exact_tail(k: int, n: int, p: float) -> float:
    """P(X >= k), X ~ Binomial(n, p), in exact rational arithmetic, rounded once to a float."""
    if k <= 0:
        return 1.0
    big_p = Fraction(p)
    big_q = 1 - big_p
    return float(sum(math.comb(n, j) * big_p**j * big_q ** (n - j) for j in range(k, n + 1)))


def tail_ks(n: int) -> list[int]:
    """Values of k around the interesting places of Binomial(n, .): ends, middle, a few sd out."""
    sd = max(1, math.isqrt(n) // 2)
    ks = {0, 1, 2, n // 4, n // 2 - 1, n // 2, n // 2 + 1, n // 2 + 3 * sd, n // 2 + 10 * sd}
    ks |= {n - 2, n - 1, n, n + 1}
    return sorted(k for k in ks if -1 <= k <= n + 1)


# -- the module ---------------------------------------------------------------------------------


def test_all_is_sorted_and_resolves() -> None:
    assert stats.__all__ == sorted(stats.__all__)
    for name in stats.__all__:
        assert getattr(stats, name) is not None


def test_runtime_imports_are_standard_library_only() -> None:
    import ast
    import sys
    from pathlib import Path

    package = Path(stats.__file__).parent
    assert package.name == "stats", package
    files = sorted(package.rglob("*.py"))
    assert files, package
    imported: set[str] = set()
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                if node.level == 0 and node.module.startswith("fairwitness.stats."):
                    continue  # the package's own modules, themselves checked here
                imported.add(node.module.split(".")[0])
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


# -- normal quantile ----------------------------------------------------------------------------


def test_normal_quantile_matches_scipy() -> None:
    ps = [1e-300, 1e-50, 1e-10, 1e-4, 0.01, 0.025, 0.2, 0.5, 0.7, 0.975, 0.999, 1 - 1e-12]
    rows = [(p, normal_quantile(p), float(scipy.stats.norm.ppf(p))) for p in ps]
    assert not mismatches(rows, rel=1e-12, abs_=1e-300)
    assert normal_quantile(0.5) == 0.0


@pytest.mark.parametrize("p", [0.0, 1.0, -0.1, 1.5, math.nan])
def test_normal_quantile_refuses_p_outside_the_open_interval(p: float) -> None:
    with pytest.raises(ValueError, match=r"p must be strictly between 0 and 1"):
        normal_quantile(p)


# -- binomial pmf and tail ----------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 5, 60, 61, 1000, 20000, BIG_N])
def test_binom_pmf_matches_scipy(n: int) -> None:
    rows = []
    for p in [1e-9, 0.001, 0.05, 0.3, 0.5, 0.7, 0.999]:
        for k in tail_ks(n):
            expected = float(scipy.stats.binom.pmf(k, n, p))
            if expected > 1e-280 or (expected == 0.0 and not 0 <= k <= n):
                rows.append(((k, n, p), binom_pmf(k, n, p), expected))
    assert rows
    assert not mismatches(rows)


def test_binom_pmf_edges() -> None:
    assert binom_pmf(0, 0, 0.3) == 1.0
    assert binom_pmf(-1, 5, 0.3) == 0.0
    assert binom_pmf(6, 5, 0.3) == 0.0
    assert binom_pmf(0, 5, 0.0) == 1.0
    assert binom_pmf(1, 5, 0.0) == 0.0
    assert binom_pmf(5, 5, 1.0) == 1.0
    assert binom_pmf(4, 5, 1.0) == 0.0
    assert binom_pmf(2, 4, 0.5) == pytest.approx(6 / 16, rel=1e-14)


@pytest.mark.parametrize(
    "n", [0, 1, 2, 5, 10, 30, 59, 60, 61, 62, 100, 500, 1000, 20000, 10**5, BIG_N]
)
def test_binom_tail_matches_scipy(n: int) -> None:
    rows = []
    for p in [1e-9, 0.001, 0.05, 0.3, 0.5, 0.7, 0.95, 0.999]:
        for k in tail_ks(n):
            expected = float(scipy.stats.binom.sf(k - 1, n, p))
            if expected > 1e-280 or (expected == 0.0 and k > n):
                rows.append(((k, n, p), binom_tail(k, n, p), expected))
    assert rows
    assert not mismatches(rows)


@pytest.mark.parametrize("n", [1, 7, 20, 59, 60, 61, 80])
def test_binom_tail_matches_exact_rational_arithmetic(n: int) -> None:
    # Both branches: the exact sum (n <= 60) and the incomplete beta function (n > 60).
    rows = [
        ((k, n, p), binom_tail(k, n, p), exact_tail(k, n, p))
        for p in [1e-6, 0.01, 0.3, 0.5, 0.77, 0.999]
        for k in range(n + 1)
    ]
    assert not mismatches([r for r in rows if r[2] > 1e-280], rel=1e-12)


def test_binom_tail_edges() -> None:
    assert binom_tail(0, 10, 0.3) == 1.0
    assert binom_tail(-5, 10, 0.3) == 1.0
    assert binom_tail(11, 10, 0.3) == 0.0
    assert binom_tail(0, 0, 0.3) == 1.0
    assert binom_tail(1, 0, 0.3) == 0.0
    assert binom_tail(1, 10, 0.0) == 0.0
    assert binom_tail(10, 10, 1.0) == 1.0
    assert binom_tail(10, 10) == 0.5**10
    assert binom_tail(10141, 20000) == pytest.approx(
        float(scipy.stats.binom.sf(10140, 20000, 0.5)), rel=REL
    )


def test_binom_tail_at_a_million_neither_overflows_nor_underflows_to_garbage() -> None:
    values = []
    for k in [1, 10, 499_000, 499_999, 500_000, 500_001, 501_000, 502_000, 510_000, BIG_N - 1]:
        value = binom_tail(k, BIG_N)
        assert 0.0 <= value <= 1.0 and math.isfinite(value)
        values.append(value)
        expected = float(scipy.stats.binom.sf(k - 1, BIG_N, 0.5))
        assert value == pytest.approx(expected, rel=REL, abs=1e-300)
    assert values == sorted(values, reverse=True)
    assert binom_tail(BIG_N, BIG_N) == 0.0  # 2**-1e6: below the smallest double, a true zero
    assert binom_tail(BIG_N // 2 + 4000, BIG_N, 0.5) > 0.0  # about 1e-15, not flushed to zero
    assert binom_tail(3, BIG_N, 1e-6) == pytest.approx(
        float(scipy.stats.binom.sf(2, BIG_N, 1e-6)), rel=REL
    )


# -- the incomplete beta function ---------------------------------------------------------------

SHAPES = [0.01, 0.5, 1.0, 3.5, 40.0, 1e3, 1e5]


@pytest.mark.parametrize("a", SHAPES)
def test_betainc_matches_scipy(a: float) -> None:
    rows = []
    for b in SHAPES:
        for x in [1e-10, 1e-3, 0.05, 0.3, 0.5, 0.7, 0.95, 0.999, 1 - 1e-9]:
            expected = float(scipy.special.betainc(a, b, x))
            if expected > 1e-280:
                rows.append(((a, b, x), betainc(a, b, x), expected))
    assert rows
    assert not mismatches(rows)


def test_betainc_at_large_shapes_and_edges() -> None:
    for a, b, x in [(5e5, 5e5, 0.5), (5e5, 5e5, 0.5005), (1e6, 3.0, 1 - 2e-6), (3.0, 1e6, 2e-6)]:
        assert betainc(a, b, x) == pytest.approx(float(scipy.special.betainc(a, b, x)), rel=REL)
    assert betainc(2.0, 3.0, 0.0) == 0.0
    assert betainc(2.0, 3.0, 1.0) == 1.0
    assert betainc(1.0, 1.0, 0.25) == pytest.approx(0.25, rel=1e-15)


@pytest.mark.parametrize("a", SHAPES)
def test_betaincinv_matches_scipy(a: float) -> None:
    rows = []
    for b in SHAPES:
        for y in [1e-12, 1e-6, 0.025, 0.3, 0.5, 0.7, 0.975, 1 - 1e-6, 1 - 1e-12]:
            expected = float(scipy.special.betaincinv(a, b, y))
            if expected > 1e-280:
                rows.append(((a, b, y), betaincinv(a, b, y), expected))
    assert rows
    assert not mismatches(rows)


def test_betaincinv_edges_and_round_trip() -> None:
    assert betaincinv(2.0, 3.0, 0.0) == 0.0
    assert betaincinv(2.0, 3.0, 1.0) == 1.0
    for a, b, y in [(1e4, 10.0, 1e-300), (100.0, 10.0, 1e-300), (0.5, 0.5, 0.5), (1e6, 1e6, 0.3)]:
        x = betaincinv(a, b, y)
        assert 0.0 < x < 1.0
        assert betainc(a, b, x) == pytest.approx(y, rel=1e-9)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: betainc(0.0, 1.0, 0.5), r"a must be a positive finite number, got 0\.0"),
        (lambda: betainc(1.0, -2.0, 0.5), r"b must be a positive finite number, got -2\.0"),
        (lambda: betainc(1.0, math.inf, 0.5), r"b must be a positive finite number, got inf"),
        (lambda: betainc(1.0, 1.0, 1.5), r"x must be between 0 and 1, got 1\.5"),
        (lambda: betainc(1.0, 1.0, math.nan), r"x must be between 0 and 1, got nan"),
        (lambda: betaincinv(1.0, 1.0, -0.1), r"y must be between 0 and 1, got -0\.1"),
        (lambda: betaincinv(math.nan, 1.0, 0.5), r"a must be a positive finite number, got nan"),
    ],
)
def test_beta_functions_refuse_bad_arguments(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# -- intervals for a proportion -----------------------------------------------------------------

INTERVAL_NS = [1, 2, 3, 10, 37, 100, 1000, BIG_N]


def interval_ks(n: int) -> list[int]:
    return sorted({0, 1, n // 3, n // 2, n - 1, n} & set(range(n + 1)))


@pytest.mark.parametrize("n", INTERVAL_NS)
def test_wilson_matches_statsmodels(n: int) -> None:
    rows = []
    for confidence in CONFIDENCES:
        for k in interval_ks(n):
            low, high = wilson(k, n, confidence)
            sm_low, sm_high = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
            rows += [((k, n, confidence, "low"), low, sm_low)]
            rows += [((k, n, confidence, "high"), high, sm_high)]
    # statsmodels subtracts center - half, so its lower bound keeps ~1e-16 absolute noise at k = 0.
    assert not mismatches(rows, abs_=1e-15)


def test_wilson_uses_the_exact_normal_quantile() -> None:
    z = float(scipy.stats.norm.ppf(0.975))
    k, n = 7, 20
    center = (k + z * z / 2) / (n + z * z)
    half = z * math.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    low, high = wilson(k, n)
    assert low == pytest.approx(center - half, rel=1e-13)
    assert high == pytest.approx(center + half, rel=1e-13)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == 1.0
    assert wilson(3, 10) == pytest.approx(tuple(1 - b for b in reversed(wilson(7, 10))), rel=1e-15)


@pytest.mark.parametrize("n", INTERVAL_NS)
def test_clopper_pearson_matches_statsmodels(n: int) -> None:
    rows = []
    for confidence in CONFIDENCES:
        for k in interval_ks(n):
            low, high = clopper_pearson(k, n, confidence)
            sm_low, sm_high = proportion_confint(k, n, alpha=1 - confidence, method="beta")
            rows += [((k, n, confidence, "low"), low, sm_low)]
            rows += [((k, n, confidence, "high"), high, sm_high)]
    assert not mismatches(rows)


def test_clopper_pearson_endpoints_are_exact_at_the_extremes() -> None:
    assert clopper_pearson(0, 10)[0] == 0.0
    assert clopper_pearson(10, 10)[1] == 1.0
    # k = 0: the upper bound solves (1 - u)^n = alpha/2.
    assert clopper_pearson(0, 10)[1] == pytest.approx(1 - 0.025 ** (1 / 10), rel=1e-12)
    assert clopper_pearson(10, 10)[0] == pytest.approx(0.025 ** (1 / 10), rel=1e-12)


@pytest.mark.parametrize("interval", [wilson, clopper_pearson])
def test_interval_errors(interval) -> None:
    with pytest.raises(ValueError, match=r"n is 0: nothing was measured"):
        interval(0, 0)
    with pytest.raises(ValueError, match=r"successes must be <= n \(5\), got 6"):
        interval(6, 5)
    with pytest.raises(ValueError, match=r"successes must be >= 0, got -1"):
        interval(-1, 5)
    with pytest.raises(ValueError, match=r"n must be >= 0, got -5"):
        interval(1, -5)
    for confidence in [0.0, 1.0, -0.5, 1.5, math.nan]:
        with pytest.raises(ValueError, match=r"confidence must be strictly between 0 and 1"):
            interval(1, 5, confidence)
    with pytest.raises(TypeError, match=r"successes must be an integer, got 1\.5"):
        interval(1.5, 5)
    with pytest.raises(TypeError, match=r"n must be an integer, got True"):
        interval(1, True)


# -- McNemar ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("regressions", "improvements", "exact", "midp"),
    [
        (4, 0, 0.0625, 0.03125),
        (9, 2, 0.032715, 0.019287),
        (25, 10, 0.008337, 0.005665),
        (5200, 5000, 0.024394, 0.023838),
    ],
)
def test_mcnemar_reference_values(
    regressions: int, improvements: int, exact: float, midp: float
) -> None:
    # The reference values are given to 6 decimal places.
    assert round(mcnemar(regressions, improvements, "exact"), 6) == exact
    assert round(mcnemar(regressions, improvements, "midp"), 6) == midp
    assert mcnemar(regressions, improvements) == mcnemar(regressions, improvements, "midp")


@pytest.mark.parametrize("d", [1, 2, 11, 35, 60, 61, 200])
def test_mcnemar_matches_exact_rational_arithmetic(d: int) -> None:
    rows = []
    for regressions in range(d + 1):
        above = Fraction(sum(math.comb(d, j) for j in range(regressions + 1, d + 1)), 2**d)
        at = Fraction(math.comb(d, regressions), 2**d)
        improvements = d - regressions
        rows.append((regressions, mcnemar(regressions, improvements, "exact"), float(above + at)))
        rows.append((regressions, mcnemar(regressions, improvements), float(above + at / 2)))
    assert not mismatches([r for r in rows if r[2] > 1e-280], rel=1e-12)


def test_mcnemar_matches_scipy_binomtest() -> None:
    rows = []
    for regressions in [0, 1, 2, 5, 9, 25, 30, 31, 60, 100, 5200, 50_000]:
        for improvements in [0, 1, 2, 10, 31, 100, 5000, 49_000]:
            d = regressions + improvements
            if d == 0:
                continue
            exact = scipy.stats.binomtest(regressions, d, 0.5, alternative="greater").pvalue
            midp = exact - 0.5 * float(scipy.stats.binom.pmf(regressions, d, 0.5))
            label = (regressions, improvements)
            rows.append(((*label, "exact"), mcnemar(regressions, improvements, "exact"), exact))
            rows.append(((*label, "midp"), mcnemar(regressions, improvements, "midp"), midp))
    assert not mismatches([r for r in rows if r[2] > 1e-280])


def test_mcnemar_edges_and_errors() -> None:
    assert mcnemar(0, 0) == 1.0
    assert mcnemar(0, 0, "exact") == 1.0
    assert mcnemar(0, 7, "exact") == 1.0
    assert mcnemar(0, 7) == pytest.approx(1 - 0.5**8, rel=1e-15)
    assert mcnemar(BIG_N, 0) == 0.0  # 2**-1e6 is below the smallest double
    with pytest.raises(ValueError, match=r"method must be 'midp' or 'exact', got 'two-sided'"):
        mcnemar(3, 1, "two-sided")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"regressions must be >= 0, got -1"):
        mcnemar(-1, 1)
    with pytest.raises(TypeError, match=r"improvements must be an integer, got 2\.0"):
        mcnemar(1, 2.0)  # type: ignore[arg-type]


# -- Holm ---------------------------------------------------------------------------------------


def holm_inputs() -> list[list[float]]:
    rng = np.random.default_rng(7)
    fixed = [
        [0.5],
        [0.01, 0.04, 0.03, 0.2],
        [0.01, 0.01, 0.02, 0.9],
        [0.0, 1.0, 0.3, 0.0],
        [0.9, 0.8, 0.7, 0.6, 0.5],
        [1e-12, 0.004, 0.011, 0.012, 0.3, 0.7],
    ]
    drawn = [list(rng.uniform(0, 0.1, size)) for size in (2, 5, 17, 50)]
    drawn += [list(rng.beta(0.3, 2.0, size)) for size in (3, 10, 40)]
    return fixed + [[float(v) for v in values] for values in drawn]


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.1])
def test_holm_matches_statsmodels(alpha: float) -> None:
    for pvalues in holm_inputs():
        results = holm(pvalues, alpha)
        reject, adjusted, _, _ = multipletests(pvalues, alpha=alpha, method="holm")
        assert [r.p for r in results] == pvalues
        assert [r.p_adjusted for r in results] == pytest.approx(list(adjusted), rel=1e-12)
        assert [r.rejected for r in results] == [bool(x) for x in reject], pvalues


def test_holm_edges_and_errors() -> None:
    assert holm([]) == []
    assert holm([0.03]) == [HolmResult(0.03, 0.03, True)]
    assert holm([0.4, 0.6]) == [HolmResult(0.4, 0.8, False), HolmResult(0.6, 0.8, False)]
    assert holm([0.9, 0.95])[0].p_adjusted == 1.0  # capped
    with pytest.raises(ValueError, match=r"pvalues\[1\] must be between 0 and 1, got 1\.2"):
        holm([0.1, 1.2])
    with pytest.raises(ValueError, match=r"pvalues\[0\] must be between 0 and 1, got nan"):
        holm([math.nan])
    with pytest.raises(ValueError, match=r"alpha must be strictly between 0 and 1, got 0"):
        holm([0.1], alpha=0)


# -- the bootstrap ------------------------------------------------------------------------------


def test_bootstrap_reproduces_a_plain_percentile_bootstrap() -> None:
    values = [0.1, 0.5, 0.2, 0.9, 0.4, 0.4, 0.8, 0.05, 0.6, 0.3]
    rng = random.Random(11)
    means = [statistics.fmean(rng.choices(values, k=len(values))) for _ in range(500)]
    expected = np.percentile(means, [5.0, 95.0])  # numpy's default: linear interpolation
    low, high = bootstrap_ci(values, n_resamples=500, seed=11, confidence=0.9)
    assert (low, high) == pytest.approx(tuple(float(v) for v in expected), rel=1e-12)


def test_bootstrap_with_another_statistic_and_degenerate_data() -> None:
    assert bootstrap_ci([3.0] * 5) == (3.0, 3.0)
    low, high = bootstrap_ci([1.0, 2.0, 3.0, 4.0, 100.0], stat=statistics.median, seed=3)
    assert 1.0 <= low <= 3.0 <= high <= 100.0
    assert bootstrap_ci([1.0, 2.0], n_resamples=1) == bootstrap_ci([1.0, 2.0], n_resamples=1)


def test_bootstrap_seed_matters() -> None:
    values = [float(i % 7) for i in range(40)]
    assert bootstrap_ci(values, seed=0) == bootstrap_ci(values, seed=0)
    assert bootstrap_ci(values, seed=0) != bootstrap_ci(values, seed=1)


def test_bootstrap_errors() -> None:
    with pytest.raises(ValueError, match=r"values is empty: nothing was measured"):
        bootstrap_ci([])
    with pytest.raises(ValueError, match=r"n_resamples must be >= 1, got 0"):
        bootstrap_ci([1.0], n_resamples=0)
    with pytest.raises(ValueError, match=r"confidence must be strictly between 0 and 1, got 1"):
        bootstrap_ci([1.0], confidence=1)


# -- Cohen's kappa ------------------------------------------------------------------------------

KAPPA_TABLES = [
    [[20, 5], [10, 15]],
    [[45, 15], [25, 15]],
    [[88, 14], [10, 40]],
    [[1, 2], [3, 4]],
    [[10, 0], [0, 10]],
    [[0, 10], [10, 0]],
    [[5, 1], [0, 0]],
    [[22, 2, 2], [3, 18, 4], [1, 5, 30]],
    [[0, 0, 0], [0, 12, 3], [0, 4, 9]],
    [[11, 3, 0, 1], [2, 17, 4, 0], [0, 6, 21, 2], [1, 0, 3, 14]],
    [[400, 12, 3], [9, 150, 20], [1, 25, 900]],
]


@pytest.mark.parametrize("table", KAPPA_TABLES)
def test_cohen_kappa_matches_statsmodels(table: list[list[int]]) -> None:
    result = cohen_kappa(table)
    with np.errstate(divide="ignore", invalid="ignore"):  # its z statistic when SE0 is 0
        reference = sm_cohens_kappa(np.array(table))
    z = float(scipy.stats.norm.ppf(0.975))
    assert result.n == sum(map(sum, table))
    assert result.undefined_reason is None
    assert result.value == pytest.approx(float(reference.kappa), rel=1e-12, abs=1e-15)
    low, high = result.ci_low, result.ci_high
    assert low is not None and high is not None
    assert low == pytest.approx(max(-1.0, float(reference.kappa_low)), rel=REL, abs=1e-15)
    assert high == pytest.approx(min(1.0, float(reference.kappa_upp)), rel=REL, abs=1e-15)
    if low > -1.0 and high < 1.0:  # the standard error, where the interval is not clamped
        assert (high - low) / (2 * z) == pytest.approx(float(reference.std_kappa), rel=REL)


def test_cohen_kappa_interval_follows_the_confidence_and_is_clamped() -> None:
    table = [[20, 5], [10, 15]]
    reference = sm_cohens_kappa(np.array(table))
    result = cohen_kappa(table, confidence=0.8)
    half = float(scipy.stats.norm.ppf(0.9)) * float(reference.std_kappa)
    assert result.ci_low == pytest.approx(float(reference.kappa) - half, rel=REL)
    assert result.ci_high == pytest.approx(float(reference.kappa) + half, rel=REL)
    small = cohen_kappa([[2, 0], [1, 1]])  # n = 4: kappa + 1.96·SE is above 1
    assert small.value == pytest.approx(0.5)
    assert small.ci_high == 1.0
    assert cohen_kappa([[0, 10], [10, 0]]).value == -1.0
    assert cohen_kappa([[0, 10], [10, 0]]).ci_low == -1.0


def test_cohen_kappa_undefined_when_both_raters_used_one_category() -> None:
    result = cohen_kappa([[7, 0], [0, 0]])
    assert result == Kappa(
        None, None, None, 7, "expected agreement is 1: both raters used a single category"
    )
    assert str(result) == (
        "undefined (expected agreement is 1: both raters used a single category)"
    )
    assert cohen_kappa([[0, 0, 0], [0, 0, 0], [0, 0, 3]]).value is None
    assert cohen_kappa([[1]]).value is None


def test_kappa_renders_value_and_interval() -> None:
    assert str(Kappa(0.62, 0.48, 0.76, 50, None)) == "0.62 [0.48, 0.76]"
    assert str(cohen_kappa([[20, 5], [10, 15]])) == "0.40 [0.15, 0.65]"


@pytest.mark.parametrize(
    ("matrix", "error", "message"),
    [
        ([[0, 0], [0, 0]], ValueError, r"matrix holds no counts: nothing was rated"),
        ([], ValueError, r"matrix is empty"),
        ([[1, 2], [3]], ValueError, r"matrix must be square: it has 2 rows but row 1 has 1"),
        ([[1, 2, 3], [4, 5, 6]], ValueError, r"matrix must be square"),
        ([[1, -2], [3, 4]], ValueError, r"matrix\[0\]\[1\] must be >= 0, got -2"),
        ([[1, 2.5], [3, 4]], TypeError, r"matrix\[0\]\[1\] must be an integer, got 2\.5"),
    ],
)
def test_cohen_kappa_errors(matrix, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        cohen_kappa(matrix)


def test_cohen_kappa_refuses_a_bad_confidence() -> None:
    with pytest.raises(ValueError, match=r"confidence must be strictly between 0 and 1, got 2"):
        cohen_kappa([[1, 2], [3, 4]], confidence=2)


# -- properties ---------------------------------------------------------------------------------


@st.composite
def counts(draw: st.DrawFn, max_n: int = BIG_N) -> tuple[int, int]:
    n = draw(st.integers(1, max_n))
    k = draw(st.integers(0, n))
    return k, n


confidences = st.floats(0.01, 0.9999)


@settings(max_examples=200, deadline=None)
@given(counts(), confidences)
def test_intervals_lie_in_the_unit_interval_and_hold_the_estimate(
    kn: tuple[int, int], confidence: float
) -> None:
    k, n = kn
    for low, high in (wilson(k, n, confidence), clopper_pearson(k, n, confidence)):
        assert 0.0 <= low <= k / n <= high <= 1.0


@settings(max_examples=200, deadline=None)
@given(counts(), confidences)
def test_wilson_is_monotone_in_k_and_symmetric(kn: tuple[int, int], confidence: float) -> None:
    k, n = kn
    low, high = wilson(k, n, confidence)
    if k < n:
        next_low, next_high = wilson(k + 1, n, confidence)
        assert low <= next_low and high <= next_high
    mirror_low, mirror_high = wilson(n - k, n, confidence)
    assert low == pytest.approx(1.0 - mirror_high, rel=1e-12, abs=1e-15)
    assert high == pytest.approx(1.0 - mirror_low, rel=1e-12, abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(counts(max_n=5000), st.floats(0.0, 1.0))
def test_binom_tail_is_a_probability_and_monotone_in_k(kn: tuple[int, int], p: float) -> None:
    k, n = kn
    here = binom_tail(k, n, p)
    after = binom_tail(k + 1, n, p)
    assert 0.0 <= after <= here <= 1.0


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 20_000), st.integers(0, 20_000))
def test_midp_is_never_above_exact(regressions: int, improvements: int) -> None:
    midp = mcnemar(regressions, improvements, "midp")
    exact = mcnemar(regressions, improvements, "exact")
    assert 0.0 <= midp <= exact <= 1.0


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), max_size=40), st.floats(0.001, 0.5))
def test_holm_adjusted_values_are_monotone_and_never_below_raw(
    pvalues: list[float], alpha: float
) -> None:
    results = holm(pvalues, alpha)
    assert [r.p for r in results] == pvalues
    for r in results:
        assert r.p <= r.p_adjusted <= 1.0
        assert r.rejected == (r.p_adjusted <= alpha)
    ordered = sorted(results, key=lambda r: r.p)
    adjusted = [r.p_adjusted for r in ordered]
    assert adjusted == sorted(adjusted)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=30),
    st.integers(0, 2**32),
    st.integers(1, 300),
)
def test_bootstrap_is_deterministic_for_a_seed(
    values: list[float], seed: int, n_resamples: int
) -> None:
    first = bootstrap_ci(values, n_resamples=n_resamples, seed=seed)
    assert first == bootstrap_ci(values, n_resamples=n_resamples, seed=seed)
    assert min(values) - 1e-6 <= first[0] <= first[1] <= max(values) + 1e-6


@settings(max_examples=100, deadline=None)
@given(counts(max_n=100_000), st.sampled_from([0.5, 0.1, 0.9, 0.37]))
def test_binom_tail_agrees_with_scipy_anywhere(kn: tuple[int, int], p: float) -> None:
    k, n = kn
    expected = float(scipy.stats.binom.sf(k - 1, n, p))
    if expected > 1e-280:
        assert binom_tail(k, n, p) == pytest.approx(expected, rel=REL)
