"""fairwitness.stats for repeated trials: pass^k and pass@k, the interval for a mean of per-case
rates, the paired sign-flip test and its detectable drop, against brute force, scipy, statsmodels,
McNemar's test, the gate's power statement, and simulation."""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from fractions import Fraction

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.proportion import proportion_confint

from fairwitness.gate import detectable_drop
from fairwitness.stats import (
    SignFlip,
    case_mean_interval,
    cases_needed,
    mcnemar,
    pass_at_k,
    pass_hat_k,
    rate_detectable_drop,
    sign_flip,
    wilson,
)

# -- pass^k and pass@k --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("c", "n", "k", "hat", "at"),
    [
        (2, 4, 2, Fraction(1, 6), Fraction(5, 6)),
        (3, 5, 2, Fraction(3, 10), Fraction(9, 10)),
        (4, 10, 3, Fraction(4, 120), Fraction(120 - 20, 120)),
        (7, 7, 3, Fraction(1), Fraction(1)),
        (0, 7, 3, Fraction(0), Fraction(0)),
        (5, 5, 5, Fraction(1), Fraction(1)),
        (4, 5, 5, Fraction(0), Fraction(1)),
        (0, 5, 5, Fraction(0), Fraction(0)),
        (3, 8, 1, Fraction(3, 8), Fraction(3, 8)),
    ],
)
def test_pass_k_hand_computed(c: int, n: int, k: int, hat: Fraction, at: Fraction) -> None:
    assert pass_hat_k(c, n, k) == float(hat)
    assert pass_at_k(c, n, k) == float(at)


def test_pass_k_is_correctly_rounded_at_large_n() -> None:
    for c, n, k in [(600, 1000, 300), (999, 1000, 500), (1, 1000, 1), (9_000, 10_000, 50)]:
        total = math.comb(n, k)
        assert pass_hat_k(c, n, k) == float(Fraction(math.comb(c, k), total))
        assert pass_at_k(c, n, k) == float(1 - Fraction(math.comb(n - c, k), total))


def test_pass_at_k_matches_the_papers_numpy_estimator() -> None:
    # Chen et al. (2021), figure 3: 1 - prod(1 - k / arange(n - c + 1, n + 1)).
    def reference(n: int, c: int, k: int) -> float:
        if n - c < k:
            return 1.0
        return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))

    for n in (1, 2, 5, 10, 50, 200):
        for c in range(n + 1):
            for k in sorted({1, 2, n // 2, n} & set(range(1, n + 1))):
                assert pass_at_k(c, n, k) == pytest.approx(reference(n, c, k), rel=1e-12, abs=1e-15)


def test_case_means_equal_the_average_over_all_k_subsets_of_the_repeats() -> None:
    rng = random.Random(3)
    for n in (1, 2, 3, 5, 8):
        cases = [[rng.random() < rng.random() for _ in range(n)] for _ in range(40)]
        for k in range(1, n + 1):
            hat, at = [], []
            for repeats in cases:
                subsets = list(itertools.combinations(repeats, k))
                all_pass = Fraction(sum(all(s) for s in subsets), len(subsets))
                any_pass = Fraction(sum(any(s) for s in subsets), len(subsets))
                assert pass_hat_k(sum(repeats), n, k) == float(all_pass)
                assert pass_at_k(sum(repeats), n, k) == float(any_pass)
                hat.append(all_pass)
                at.append(any_pass)
            mean_hat = statistics.fmean(pass_hat_k(sum(r), n, k) for r in cases)
            mean_at = statistics.fmean(pass_at_k(sum(r), n, k) for r in cases)
            assert math.isclose(mean_hat, float(sum(hat) / len(hat)), rel_tol=1e-12)
            assert math.isclose(mean_at, float(sum(at) / len(at)), rel_tol=1e-12)


@pytest.mark.parametrize("estimate", [pass_hat_k, pass_at_k])
def test_pass_k_refusals(estimate) -> None:
    with pytest.raises(ValueError, match=r"k must be between 1 and trials \(4\), got 0"):
        estimate(2, 4, 0)
    with pytest.raises(ValueError, match=r"k must be between 1 and trials \(4\), got 5"):
        estimate(2, 4, 5)
    with pytest.raises(ValueError, match=r"successes must be <= trials \(4\), got 5"):
        estimate(5, 4, 2)
    with pytest.raises(ValueError, match=r"successes must be >= 0, got -1"):
        estimate(-1, 4, 2)
    with pytest.raises(ValueError, match=r"trials is 0"):
        estimate(0, 0, 1)
    with pytest.raises(TypeError, match=r"trials must be an integer, got 4\.0"):
        estimate(2, 4.0, 2)
    with pytest.raises(TypeError, match=r"k must be an integer, got True"):
        estimate(2, 4, True)


# -- the interval for a mean of per-case values -------------------------------------------------


def test_case_mean_interval_is_wilson_over_the_cases_at_zero_one_values() -> None:
    rng = random.Random(5)
    for n in [1, 2, 3, 7, 10, 31, 50, 99, 200, 1000]:
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n} & set(range(n + 1))):
            values = [1.0] * k + [0.0] * (n - k)
            rng.shuffle(values)
            for confidence in (0.5, 0.9, 0.95, 0.99, 0.999):
                expected = wilson(k, n, confidence)
                assert case_mean_interval(values, n, confidence) == expected
                assert case_mean_interval(values, 5 * n, confidence) == expected
    assert case_mean_interval([True, False, True], 9) == wilson(2, 3)


def test_case_mean_interval_clamps_the_effective_size() -> None:
    # Every value equal: se is 0, so n_eff is n.
    assert case_mean_interval([0.5] * 10, 30) == wilson(5, 10)
    assert case_mean_interval([0.0] * 8, 24) == wilson(0, 8)
    assert case_mean_interval([1.0] * 8, 24) == wilson(8, 8)
    # Little spread between cases: n_eff = 0.25 / (0.01 / 100) = 2500, clamped to trials.
    spread_little = [0.6, 0.4] * 50
    assert case_mean_interval(spread_little, 300) == pytest.approx(wilson(150, 300), rel=1e-15)
    assert case_mean_interval(spread_little, 100) == pytest.approx(wilson(50, 100), rel=1e-15)


def reference_interval(values: list[float], trials: int, confidence: float) -> tuple[float, float]:
    """The method written out with numpy, Wilson's bounds from statsmodels."""
    data = np.asarray(values, dtype=float)
    n = data.size
    p = float(data.mean())
    se2 = float(np.sum((data - p) ** 2)) / n**2
    n_eff = float(n) if p in (0.0, 1.0) or se2 == 0.0 else p * (1 - p) / se2
    n_eff = min(max(n_eff, n), trials)
    low, high = proportion_confint(p * n_eff, n_eff, alpha=1 - confidence, method="wilson")
    return float(low), float(high)


def test_case_mean_interval_matches_statsmodels_wilson_at_the_effective_size() -> None:
    rng = np.random.default_rng(17)
    for n, k in [(5, 3), (20, 5), (50, 3), (200, 10), (1000, 4)]:
        for concentration in (0.5, 3.0, 30.0):
            p = rng.beta(0.7 * concentration, 0.3 * concentration, n)
            values = (rng.binomial(k, p) / k).tolist()
            for confidence in (0.8, 0.95, 0.99):
                got = case_mean_interval(values, n * k, confidence)
                expected = reference_interval(values, n * k, confidence)
                assert got == pytest.approx(expected, rel=1e-9, abs=1e-12), (n, k, concentration)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(0.0, 1.0), st.sampled_from([0.0, 1.0, 0.5, 1 / 3, 2 / 3])),
        min_size=1,
        max_size=60,
    ),
    st.integers(1, 20),
    st.floats(0.01, 0.9999),
)
def test_case_mean_interval_lies_in_the_unit_interval_and_holds_the_mean(
    values: list[float], repeats: int, confidence: float
) -> None:
    low, high = case_mean_interval(values, repeats * len(values), confidence)
    mean = statistics.fmean(values)
    assert 0.0 <= low <= high <= 1.0
    assert low <= mean + 1e-12 and mean - 1e-12 <= high


def test_case_mean_interval_refusals() -> None:
    with pytest.raises(ValueError, match=r"values is empty"):
        case_mean_interval([], 3)
    with pytest.raises(ValueError, match=r"values\[2\] must be between 0 and 1, got 1\.5"):
        case_mean_interval([0.5, 1.0, 1.5, 0.5], 10)
    with pytest.raises(ValueError, match=r"values\[1\] must be between 0 and 1, got nan"):
        case_mean_interval([0.5, math.nan], 10)
    with pytest.raises(TypeError, match=r"values\[0\] must be a number, got '0\.5'"):
        case_mean_interval(["0.5"], 10)  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"trials must be >= the number of values \(3\), got 2"):
        case_mean_interval([0.5, 0.5, 0.5], 2)
    with pytest.raises(TypeError, match=r"trials must be an integer, got 3\.0"):
        case_mean_interval([0.5], 3.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"confidence must be strictly between 0 and 1, got 1\.0"):
        case_mean_interval([0.5], 3, 1.0)


MEAN = 0.85
POPULATIONS: list[object] = ["0/1", 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, "mix"]


def draw_cases(rng: np.random.Generator, population: object, n: int, reps: int) -> np.ndarray:
    """Per-case success probabilities, mean MEAN, for ``reps`` suites of ``n`` cases."""
    if population == "0/1":  # each case always passes or always fails
        return (rng.random((reps, n)) < MEAN).astype(float)
    if population == "mix":  # half such cases, half from a Beta of concentration 10
        beta = rng.beta(MEAN * 10.0, (1 - MEAN) * 10.0, (reps, n))
        fixed = (rng.random((reps, n)) < MEAN).astype(float)
        return np.where(rng.random((reps, n)) < 0.5, fixed, beta)
    assert isinstance(population, float)
    return rng.beta(MEAN * population, (1 - MEAN) * population, (reps, n))


def test_case_mean_interval_covers_the_mean_rate_in_simulation() -> None:
    # Beta-binomial suites: per-case p from a Beta with mean 0.85 and concentration from 0.3 (cases
    # nearly always or never pass) to 100 (all cases alike), or from a 0/1 mix; k repeats a case.
    # With one repeat every population is Bernoulli(0.85), so k = 1 is one cell per n.
    reps = 2000
    cells = [("any", n, 1) for n in (50, 200)]
    cells += [(pop, n, k) for pop in POPULATIONS for n in (50, 200) for k in (3, 5)]
    coverage = {}
    for seed, (population, n, k) in enumerate(cells):
        rng = np.random.default_rng(1000 + seed)
        p = draw_cases(rng, 0.3 if population == "any" else population, n, reps)
        values = (rng.binomial(k, p) / k).tolist()
        covered = 0
        for row in values:
            low, high = case_mean_interval(row, n * k)
            covered += low <= MEAN <= high
        coverage[(population, n, k)] = covered / reps
    worst = sorted(coverage.items(), key=lambda item: item[1])[:3]
    assert worst[0][1] >= 0.93, f"worst cells (population, n, k): coverage {worst}"


# -- the sign-flip test -------------------------------------------------------------------------


def enumerated_p(drops: list[Fraction]) -> tuple[Fraction, Fraction]:
    """P(D* > D) and P(D* = D) over all 2^n sign vectors, exactly."""
    unit = math.lcm(*(d.denominator for d in drops))
    whole = [int(d * unit) for d in drops]  # exact: D* and D in integers
    flipped = [0]  # Σ s_i·|d_i| for every choice of the signs so far
    for d in whole:
        flipped = [total + abs(d) for total in flipped] + [total - abs(d) for total in flipped]
    observed = sum(whole)
    above = sum(total > observed for total in flipped)
    equal = sum(total == observed for total in flipped)
    return Fraction(above, len(flipped)), Fraction(equal, len(flipped))


def random_rational_drops(rng: random.Random, n: int) -> list[Fraction]:
    drops = []
    for _ in range(n):
        denominator = rng.randint(1, 5)
        drops.append(Fraction(rng.randint(-denominator, denominator), denominator))
    return drops


def test_sign_flip_matches_enumeration_of_all_sign_vectors() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(250):
        drops = random_rational_drops(rng, rng.randint(1, 12))
        drops += [Fraction(0)] * rng.randint(0, 2)
        if not any(drops):
            continue  # no nonzero drop: p is 1 by definition (tested below)
        above, equal = enumerated_p(drops)
        for method, expected in (("midp", above + equal / 2), ("exact", above + equal)):
            result = sign_flip(drops, method=method)
            assert result.exact and result.draws == 0 and result.mc_error == 0.0
            assert math.isclose(result.p, float(expected), rel_tol=1e-12), (drops, method)
            floats = [float(d) for d in drops]  # read back as the same fractions
            assert sign_flip(floats, method=method).p == result.p
            checked += 1
    assert checked > 400


def test_sign_flip_is_mcnemar_at_zero_and_one_drops() -> None:
    rng = random.Random(2)
    for regressions in range(61):
        for improvements in range(61):
            drops = [1] * regressions + [-1] * improvements + [0] * rng.randint(0, 3)
            rng.shuffle(drops)
            for method in ("midp", "exact"):
                expected = mcnemar(regressions, improvements, method)
                assert sign_flip(drops, method=method).p == expected, (regressions, improvements)
    # Equal magnitudes in any unit are the same test.
    halves = [Fraction(1, 2)] * 9 + [Fraction(-1, 2)] * 2 + [Fraction(0)] * 4
    assert sign_flip(halves).p == mcnemar(9, 2)


def test_sign_flip_on_a_hundred_thousand_single_repeat_pairs_is_one_binomial_tail() -> None:
    drops = [1.0] * 25_300 + [-1.0] * 24_700 + [0.0] * 50_000
    start = time.perf_counter()
    result = sign_flip(drops)
    elapsed = time.perf_counter() - start
    assert result == SignFlip(mcnemar(25_300, 24_700), "midp", True, 0, 0.0, 100_000, 50_000, 0.006)
    assert elapsed < 1.0, elapsed


def test_sign_flip_with_a_large_last_group_adds_scipys_binomial_tails() -> None:
    # 6100 drops of ±1 and 6 of ±1/2: in units of 1/2, U = 2·B1 + B2, and the group of 6100 is
    # added with binomial tails rather than in integers.
    regressions, improvements, halves_up, halves_down = 3100, 3000, 4, 2
    drops = [1] * regressions + [-1] * improvements + [0.5] * halves_up + [-0.5] * halves_down
    big, small = regressions + improvements, halves_up + halves_down
    observed = 2 * regressions + halves_up  # R in units of 1/2
    for method, tie in (("midp", 0.5), ("exact", 1.0)):
        expected = 0.0
        for b in range(small + 1):
            need, odd = divmod(observed - b, 2)  # 2·B1 > R - b, or = R - b when it is even
            above = scipy.stats.binom.sf(need, big, 0.5)
            at = 0.0 if odd else scipy.stats.binom.pmf(need, big, 0.5)
            expected += scipy.stats.binom.pmf(b, small, 0.5) * (above + tie * at)
        result = sign_flip(drops, method=method)
        assert result.exact
        assert math.isclose(result.p, expected, rel_tol=1e-10), method


def test_sign_flip_reads_numpy_arrays() -> None:
    assert sign_flip(np.array([1, 1, -1, 1, 0])).p == mcnemar(3, 1)
    as_floats = sign_flip(np.array([0.5, 1 / 3, -1 / 3, 1.0]))
    assert as_floats.p == sign_flip([Fraction(1, 2), Fraction(1, 3), Fraction(-1, 3), 1]).p


def mixed_drops(seed: int, n: int) -> list[float]:
    """Drops between rates of five repeats: k/5 - j/5, as floats."""
    rng = random.Random(seed)
    return [rng.randint(0, 5) / 5 - rng.randint(0, 5) / 5 for _ in range(n)]


def test_sign_flip_on_a_thousand_mixed_pairs_is_exact_and_fast() -> None:
    drops = mixed_drops(3, 1000)
    start = time.perf_counter()
    result = sign_flip(drops)
    elapsed = time.perf_counter() - start
    assert result.exact
    assert result.n == 1000 and result.nonzero == sum(d != 0 for d in drops)
    assert result.drop == pytest.approx(statistics.fmean(drops), abs=1e-15)
    assert elapsed < 1.0, elapsed


def test_sign_flip_monte_carlo_agrees_with_the_exact_p_and_is_reproducible() -> None:
    datasets = [mixed_drops(seed, n) for seed, n in [(1, 40), (2, 200), (3, 1000)]]
    datasets.append([d + 0.2 if d < 0.8 else d for d in mixed_drops(4, 300)])  # a real drop
    datasets.append([1.0] * 30 + [-1.0] * 18)
    for drops in datasets:
        for method in ("midp", "exact"):
            exact = sign_flip(drops, method=method)
            drawn = sign_flip(drops, method=method, exact_budget=0, draws=20_000, seed=5)
            assert exact.exact and not drawn.exact and drawn.draws == 20_000
            assert drawn.mc_error == math.sqrt(drawn.p * (1 - drawn.p) / 20_000)
            assert abs(drawn.p - exact.p) <= 4 * drawn.mc_error + 1 / 20_001, (method, drawn, exact)
            again = sign_flip(drops, method=method, exact_budget=0, draws=20_000, seed=5)
            assert again == drawn
    other = sign_flip(datasets[1], exact_budget=0, draws=20_000, seed=6)
    assert other.p != sign_flip(datasets[1], exact_budget=0, draws=20_000, seed=5).p


def test_sign_flip_monte_carlo_on_unrelated_float_drops() -> None:
    # Floats that are no small fraction are taken as the binary fractions they hold: the exact
    # distribution is then out of reach and the draws compare sums of large integers.
    rng = random.Random(8)
    x, y, z = (rng.uniform(0.0, 1.0) for _ in range(3))
    for drops in (
        [rng.uniform(-0.7, 1.0) for _ in range(10)],
        [x, -x, y, z, -z, 0.5],  # flipping x and -x, or z and -z, ties D exactly
        [x] * 9 + [-x] * 3 + [y, -y, z],  # a group of 12 drawn by counting bits
    ):
        above, equal = enumerated_p([Fraction(d) for d in drops])
        for method, expected in (("midp", above + equal / 2), ("exact", above + equal)):
            result = sign_flip(drops, method=method, draws=20_000)
            assert not result.exact
            assert abs(result.p - float(expected)) <= 4 * result.mc_error + 1 / 20_001, drops
    start = time.perf_counter()
    assert not sign_flip([rng.uniform(-1.0, 1.0) for _ in range(1000)], draws=5000).exact
    assert time.perf_counter() - start < 2.0


def test_sign_flip_exact_p_matches_scipy_permutation_test() -> None:
    rng = np.random.default_rng(23)

    def total_drop(x: np.ndarray, y: np.ndarray, axis: int) -> np.ndarray:
        return np.sum(x - y, axis=axis)

    for n, k in [(6, 1), (8, 3), (10, 3), (12, 5), (12, 2)]:
        p = rng.beta(2.0, 1.0, n)
        base = rng.binomial(k, p)
        candidate = rng.binomial(k, np.clip(p - 0.1, 0.0, 1.0))
        result = scipy.stats.permutation_test(
            (base / k, candidate / k),
            total_drop,
            permutation_type="samples",
            alternative="greater",
            n_resamples=10**6,  # more than 2^n: scipy enumerates every sign vector
        )
        drops = [Fraction(int(b) - int(c), k) for b, c in zip(base, candidate, strict=True)]
        if not any(drops):
            continue
        assert math.isclose(sign_flip(drops, method="exact").p, result.pvalue, rel_tol=1e-12)


def test_sign_flip_keeps_its_level_under_the_null() -> None:
    # Both runs repeat each case k = 3 times with the same per-case pass probability.
    reps, n, k = 4000, 50, 3
    limit = 0.05 + 2 * math.sqrt(0.05 * 0.95 / reps)
    rates = {}
    for seed, (a, b) in enumerate([(1.0, 1.0), (2.0, 0.5)]):
        rng = np.random.default_rng(500 + seed)
        p = rng.beta(a, b, (reps, n))
        differences = (rng.binomial(k, p) - rng.binomial(k, p)).tolist()
        rejected = {"midp": 0, "exact": 0}
        for row in differences:
            drops = [Fraction(d, k) for d in row]
            for method in rejected:
                rejected[method] += sign_flip(drops, method=method).p <= 0.05
        for method, count in rejected.items():
            rates[(a, b, method)] = count / reps
    assert max(rates.values()) <= limit, rates


@settings(max_examples=100, deadline=None)
@given(st.lists(st.fractions(-1, 1, max_denominator=6), max_size=40))
def test_sign_flip_midp_is_never_above_exact(drops: list[Fraction]) -> None:
    midp = sign_flip(drops, method="midp")
    exact = sign_flip(drops, method="exact")
    assert 0.0 < midp.p <= exact.p <= 1.0


def test_sign_flip_edges() -> None:
    assert sign_flip([]) == SignFlip(1.0, "midp", True, 0, 0.0, 0, 0, 0.0)
    assert sign_flip([0, 0.0, Fraction(0)], method="exact") == SignFlip(
        1.0, "exact", True, 0, 0.0, 3, 0, 0.0
    )
    # 2/3 - 1/3 in doubles is 0.33333333333333337, read as 1/3: the two drops cancel exactly.
    assert sign_flip([2 / 3 - 1 / 3, -1 / 3]).p == sign_flip([Fraction(1, 3), Fraction(-1, 3)]).p
    assert sign_flip([2 / 3 - 1 / 3, -1 / 3]).drop == 0.0
    # Three drops of 1: only the observed signs reach D, P(D* = D) = 1/8 and P(D* > D) = 0.
    assert sign_flip([1, 1, 1]).p == pytest.approx(1 / 16, rel=1e-15)
    assert sign_flip([1, 1, 1], method="exact").p == pytest.approx(1 / 8, rel=1e-15)


def test_sign_flip_refusals() -> None:
    with pytest.raises(ValueError, match=r"drops\[2\] must be a finite number, got nan"):
        sign_flip([0.5, 0.0, math.nan])
    with pytest.raises(ValueError, match=r"drops\[1\] must be a finite number, got inf"):
        sign_flip([0.5, math.inf])
    with pytest.raises(ValueError, match=r"drops\[3\] must be between -1 and 1, got 1\.5"):
        sign_flip([0.5, 0.5, 0.5, 1.5])
    with pytest.raises(ValueError, match=r"drops\[0\] must be between -1 and 1, got -2"):
        sign_flip([-2, 1])
    with pytest.raises(TypeError, match=r"drops\[1\] must be a number, got 'x'"):
        sign_flip([0.5, "x"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"drops\[0\] must be a number, got \[1\]"):
        sign_flip([[1]])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"method must be 'midp' or 'exact', got 'two-sided'"):
        sign_flip([1], method="two-sided")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"draws must be >= 1, got 0"):
        sign_flip([1], draws=0)
    with pytest.raises(TypeError, match=r"draws must be an integer, got 1\.5"):
        sign_flip([1], draws=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"exact_budget must be >= 0, got -1"):
        sign_flip([1], exact_budget=-1)
    with pytest.raises(TypeError, match=r"seed must be an integer, got 'a'"):
        sign_flip([1], seed="a")  # type: ignore[arg-type]


# -- the detectable drop ------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.1, 0.25])
@pytest.mark.parametrize("power", [0.5, 0.8, 0.9])
def test_rate_detectable_drop_is_the_gates_mcnemar_statement(alpha: float, power: float) -> None:
    for n in [0, 1, 2, 5, 10, 30, 100, 1000, 100_000]:
        for discordant in sorted({0, 1, n // 20, n // 4, n // 2, n} & set(range(n + 1))):
            gate = detectable_drop(n, discordant, alpha=alpha, power=power).drop
            ours = rate_detectable_drop(n, discordant / n if n else 0.0, alpha=alpha, power=power)
            if gate is None:
                assert ours is None, (n, discordant)
            else:
                assert ours is not None and math.isclose(ours, gate, abs_tol=1e-9)


def test_rate_detectable_drop_follows_the_mean_square() -> None:
    drops = [0.0, 0.2, -0.4, 0.6, 1.0, -0.2] * 50
    mean_square = statistics.fmean(d * d for d in drops)
    found = rate_detectable_drop(len(drops), mean_square, alpha=0.05)
    assert found is not None
    assert found < rate_detectable_drop(len(drops), 1.0, alpha=0.05)  # type: ignore[operator]
    assert rate_detectable_drop(2, 0.5, alpha=0.01) is None


@pytest.mark.parametrize("alpha", [0.01, 0.05])
def test_cases_needed_is_the_smallest_n_that_detects_the_drop(alpha: float) -> None:
    for delta in [0.005, 0.01, 0.03, 0.1, 0.3, 0.7, 1.0]:
        for mean_square in [0.0, 0.05, 0.2, 0.5, 1.0]:
            n = cases_needed(delta, mean_square, alpha=alpha)
            found = rate_detectable_drop(n, mean_square, alpha=alpha)
            assert found is not None and found <= delta
            before = rate_detectable_drop(n - 1, mean_square, alpha=alpha)
            assert before is None or before > delta


def test_power_refusals() -> None:
    with pytest.raises(ValueError, match=r"alpha must be strictly between 0 and 0\.5, got 0\.5"):
        rate_detectable_drop(10, 0.1, alpha=0.5)
    with pytest.raises(ValueError, match=r"power must be at least 0\.5 and below 1, got 1\.0"):
        rate_detectable_drop(10, 0.1, alpha=0.05, power=1.0)
    with pytest.raises(ValueError, match=r"mean_square must be between 0 and 1, got 1\.5"):
        rate_detectable_drop(10, 1.5, alpha=0.05)
    with pytest.raises(TypeError, match=r"n must be an integer, got 10\.0"):
        rate_detectable_drop(10.0, 0.1, alpha=0.05)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"n must be >= 0, got -1"):
        rate_detectable_drop(-1, 0.1, alpha=0.05)
    with pytest.raises(ValueError, match=r"delta must be above 0 and at most 1, got 0\.0"):
        cases_needed(0.0, 0.1, alpha=0.05)
    with pytest.raises(ValueError, match=r"delta must be above 0 and at most 1, got nan"):
        cases_needed(math.nan, 0.1, alpha=0.05)
