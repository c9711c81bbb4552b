"""The verdict-stochasticity meter: pairing, the fixed and sequential designs, and their error rates."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import statistics
from collections.abc import Hashable

import pytest
import scipy.special
import scipy.stats

from fairwitness.diagnostics import meter
from fairwitness.diagnostics.meter import (
    MeterResult,
    SequentialMeter,
    extra_pairs_for_deterministic,
    fixed_meter,
    pair_outcomes,
    run_sequential,
)
from fairwitness.stats import wilson

EPSILON = 0.01
ALPHA = 0.05
SEQUENTIAL_RATES = [0.0, 0.005, 0.01, 0.02, 0.1]


def flip_free(n: int) -> list[bool]:
    return [False] * n


def wrong(call: str, rate: float, epsilon: float) -> bool:
    return (call == "verdict-stochastic" and rate <= epsilon) or (
        call == "verdict-deterministic" and rate >= epsilon
    )


# -- the module ---------------------------------------------------------------------------------


def test_all_is_sorted_and_resolves() -> None:
    assert meter.__all__ == sorted(meter.__all__)
    for name in meter.__all__:
        assert getattr(meter, name) is not None


# -- pairing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("draws", "flips", "unpaired"),
    [
        ([], [], 0),
        (["a"], [], 1),
        (["a", "a"], [False], 0),
        (["a", "b"], [True], 0),
        (["a", "a", "b"], [False], 1),
        # disjoint pairs 1-2, 3-4: all combinations would count the a-b differences as flips
        (["a", "a", "b", "b"], [False, False], 0),
        (["a", "b", "b", "a"], [True, True], 0),
        (["a", "b", "b", "b", "c"], [True, False], 1),
        ([1, 1, 2, 3, 4, 4, 5], [False, True, False], 1),
        ([(1, "x"), (1, "x"), None, None], [False, False], 0),
    ],
)
def test_pair_outcomes_uses_disjoint_consecutive_pairs(
    draws: list[Hashable], flips: list[bool], unpaired: int
) -> None:
    assert pair_outcomes(draws) == (flips, unpaired)


def test_pair_outcomes_returns_plain_bools() -> None:
    flips, unpaired = pair_outcomes(["x", "y", "x", "x"])
    assert all(type(flip) is bool for flip in flips)
    assert type(unpaired) is int


# -- the fixed design ---------------------------------------------------------------------------


def test_fixed_flip_free_300_pairs_is_deterministic() -> None:
    result = fixed_meter({"a": flip_free(150), "b": flip_free(150)})
    assert result.call == "verdict-deterministic"
    assert result.design == "fixed"
    assert (result.pairs, result.flips, result.flip_rate) == (300, 0, 0.0)
    assert result.calls == 600
    assert result.extra_pairs_needed is None
    assert result.e_stochastic is None
    assert result.e_deterministic is None
    assert "frozen-baseline diffing is the stronger oracle" in result.advice
    assert result.unstable_inputs == []


def test_fixed_flip_free_100_pairs_is_undecided_with_199_more_needed() -> None:
    result = fixed_meter({"a": flip_free(100)})
    assert result.call == "undecided"
    assert result.extra_pairs_needed == 199
    assert "199 more pairs" in result.advice
    assert "299 pairs in all" in result.advice
    # adding exactly those pairs decides, one fewer does not
    assert fixed_meter({"a": flip_free(299)}).call == "verdict-deterministic"
    assert fixed_meter({"a": flip_free(298)}).call == "undecided"


def test_fixed_20_flips_in_100_pairs_is_stochastic() -> None:
    result = fixed_meter({"a": [True] * 20 + flip_free(80)}, layer="tool-calls")
    assert result.call == "verdict-stochastic"
    assert result.flip_rate == pytest.approx(0.2)
    assert result.extra_pairs_needed is None
    assert (
        "use noise-robust relations and compare their violations with the measured flip rate"
        in result.advice
    )
    assert "tool-calls" in result.advice
    assert "0.2" in result.advice


def test_fixed_calls_match_one_sided_clopper_pearson_from_scipy() -> None:
    for pairs in [1, 5, 30, 100, 400, 1000]:
        for flips in sorted({0, 1, 2, 3, 5, 8, 9, 10, pairs // 10, pairs // 2, pairs} - {-1}):
            if flips > pairs:
                continue
            lower = scipy.stats.beta.ppf(ALPHA, flips, pairs - flips + 1) if flips else 0.0
            upper = (
                scipy.stats.beta.ppf(1 - ALPHA, flips + 1, pairs - flips) if flips < pairs else 1.0
            )
            expected = (
                "verdict-stochastic"
                if lower > EPSILON
                else "verdict-deterministic"
                if upper < EPSILON
                else "undecided"
            )
            outcomes = [True] * flips + flip_free(pairs - flips)
            assert fixed_meter({"x": outcomes}).call == expected, (pairs, flips)


def test_fixed_without_pairs_is_undecided_and_reports_no_rate() -> None:
    result = fixed_meter({}, unpaired=1)
    assert result.call == "undecided"
    assert result.pairs == 0
    assert result.flip_rate is None
    assert result.ci_low is None
    assert result.ci_high is None
    assert result.calls == 1
    assert result.unpaired == 1
    assert result.extra_pairs_needed == 299
    assert fixed_meter({"a": [], "b": []}).pairs == 0


def test_fixed_counts_unpaired_draws_as_calls() -> None:
    flips, unpaired = pair_outcomes(["p"] * 7)
    result = fixed_meter({"a": flips}, unpaired=unpaired)
    assert (result.pairs, result.unpaired, result.calls) == (3, 1, 7)


def test_fixed_interval_is_the_two_sided_wilson_interval() -> None:
    result = fixed_meter({"a": [True] * 3 + flip_free(47)}, alpha=0.1)
    assert (result.ci_low, result.ci_high) == wilson(3, 50, 0.9)


def test_fixed_unstable_inputs_are_ordered_by_flips_then_share_then_id() -> None:
    result = fixed_meter(
        {
            "a": [True, True, *flip_free(8)],  # 2 of 10
            "c": [True, True, *flip_free(2)],  # 2 of 4
            "b": [True, True, *flip_free(2)],  # 2 of 4
            "d": [True] * 3 + flip_free(97),  # 3 of 100
            "e": flip_free(50),  # stable: not listed
            "f": [True, *flip_free(1)],  # 1 of 2
        }
    )
    assert result.unstable_inputs == [
        ("d", 3, 100),
        ("b", 2, 4),
        ("c", 2, 4),
        ("a", 2, 10),
        ("f", 1, 2),
    ]


# -- extra pairs --------------------------------------------------------------------------------


@pytest.mark.parametrize("epsilon", [0.3, 0.05, 0.01, 0.001, 1e-6])
@pytest.mark.parametrize("alpha", [0.2, 0.05, 0.01, 0.001])
def test_extra_pairs_without_flips_match_the_closed_form(epsilon: float, alpha: float) -> None:
    # 1 - alpha^(1/N) < epsilon  <=>  N > log(alpha) / log(1 - epsilon)
    bound = math.log(alpha) / math.log1p(-epsilon)
    needed = math.floor(bound) + 1
    assert extra_pairs_for_deterministic(0, 0, epsilon=epsilon, alpha=alpha) == needed
    assert extra_pairs_for_deterministic(needed - 1, 0, epsilon=epsilon, alpha=alpha) == 1
    assert extra_pairs_for_deterministic(needed, 0, epsilon=epsilon, alpha=alpha) == 0
    assert extra_pairs_for_deterministic(needed + 7, 0, epsilon=epsilon, alpha=alpha) == 0


def test_extra_pairs_at_the_default_setting() -> None:
    assert extra_pairs_for_deterministic(0, 0) == 299
    assert extra_pairs_for_deterministic(100, 0, epsilon=0.01, alpha=0.05) == 199


@pytest.mark.parametrize(("pairs", "flips"), [(1, 1), (10, 1), (100, 2), (50, 5), (400, 9)])
def test_extra_pairs_with_flips_match_the_exact_binomial_test(pairs: int, flips: int) -> None:
    # the upper bound is below epsilon exactly when P(X <= flips; N, epsilon) < alpha
    total = pairs + extra_pairs_for_deterministic(pairs, flips, epsilon=EPSILON, alpha=ALPHA)
    assert scipy.stats.binom.cdf(flips, total, EPSILON) < ALPHA
    assert scipy.stats.binom.cdf(flips, total - 1, EPSILON) >= ALPHA
    outcomes = [True] * flips + flip_free(total - flips)
    assert fixed_meter({"x": outcomes}).call == "verdict-deterministic"
    assert fixed_meter({"x": outcomes[:-1]}).call != "verdict-deterministic"


def test_extra_pairs_are_finite_for_many_flips() -> None:
    extra = extra_pairs_for_deterministic(1000, 900, epsilon=EPSILON, alpha=ALPHA)
    assert 90_000 < extra < 110_000
    assert extra_pairs_for_deterministic(10**6, 0, epsilon=1e-9, alpha=ALPHA) > 10**9


# -- Wilson's lower bound is not a valid test; Clopper-Pearson's is ----------------------------


def test_wilson_lower_bound_calls_stochastic_too_often_at_p_equal_epsilon() -> None:
    """Simulated at p == epsilon = 0.05 (where "stochastic" is a wrong call), 20,000 runs each."""
    epsilon, runs = 0.05, 20_000
    rng = random.Random(7)
    for pairs in (35, 60):
        cp_calls: dict[int, str] = {}
        cp_wrong = wilson_wrong = 0
        for _ in range(runs):
            flips = sum(rng.random() < epsilon for _ in range(pairs))
            if flips not in cp_calls:
                outcomes = [True] * flips + flip_free(pairs - flips)
                cp_calls[flips] = fixed_meter({"x": outcomes}, epsilon=epsilon).call
            cp_wrong += cp_calls[flips] == "verdict-stochastic"
            # Wilson's one-sided lower bound at level alpha: the two-sided 1 - 2 alpha interval
            wilson_wrong += wilson(flips, pairs, 1 - 2 * ALPHA)[0] > epsilon
        assert cp_wrong / runs <= ALPHA, (pairs, cp_wrong / runs)
        assert wilson_wrong / runs > 1.4 * ALPHA, (pairs, wilson_wrong / runs)


def test_clopper_pearson_false_stochastic_rate_is_at_most_alpha_exactly() -> None:
    """The same, exactly from the binomial distribution, at every n from 30 to 100."""
    epsilon = 0.05
    wilson_rates = []
    for pairs in range(30, 101):
        # both lower bounds rise with k, so each calls "stochastic" from some k on
        cp_from = next(
            k
            for k in range(pairs + 1)
            if fixed_meter({"x": [True] * k + flip_free(pairs - k)}, epsilon=epsilon).call
            == "verdict-stochastic"
        )
        wilson_from = next(
            k for k in range(pairs + 1) if wilson(k, pairs, 1 - 2 * ALPHA)[0] > epsilon
        )
        assert scipy.stats.binom.sf(cp_from - 1, pairs, epsilon) <= ALPHA, pairs
        wilson_rates.append(scipy.stats.binom.sf(wilson_from - 1, pairs, epsilon))
    assert max(wilson_rates) > 1.8 * ALPHA
    assert sum(rate > ALPHA for rate in wilson_rates) > 30


# -- the sequential design ----------------------------------------------------------------------


def test_grids_lie_on_the_alternative_side_of_epsilon() -> None:
    for epsilon in [1e-6, 0.01, 0.2, 1 / 3, 0.5, 0.9, 0.999]:
        above = meter._stochastic_alternatives(epsilon)
        below = meter._deterministic_alternatives(epsilon)
        assert len(above) == len(below) == meter.GRID_SIZE
        assert all(epsilon < q < 1 for q in above)
        assert below[0] == 0.0
        assert all(0 < q < epsilon for q in below[1:])
        assert above == sorted(above)
        assert below == sorted(below)
    assert meter._stochastic_alternatives(0.01)[0] == pytest.approx(0.015)
    assert meter._stochastic_alternatives(0.01)[-1] == pytest.approx(0.505)
    assert meter._deterministic_alternatives(0.01)[1] == pytest.approx(0.0005)
    assert meter._deterministic_alternatives(0.01)[-1] == pytest.approx(0.01 / 1.5)


@pytest.mark.parametrize("epsilon", [0.001, 0.01, 0.3, 0.9])
def test_every_component_is_a_supermartingale_under_its_null(epsilon: float) -> None:
    """Each pair multiplies a component by a factor whose mean is <= 1 under the null."""
    sides = [
        (meter._stochastic_alternatives(epsilon), [0.0, epsilon / 2, epsilon]),
        (meter._deterministic_alternatives(epsilon), [epsilon, (1 + epsilon) / 2, 1.0]),
    ]
    for alternatives, null_rates in sides:
        for _, on_flip, on_steady in meter._coefficients(alternatives, epsilon):
            for p in null_rates:
                mean = p * math.exp(on_flip) + (1 - p) * math.exp(on_steady)
                assert mean <= 1 + 1e-12


def test_mixture_matches_a_direct_product() -> None:
    epsilon = 0.02
    for alternatives, weights in [
        (meter._stochastic_alternatives(epsilon), meter._stochastic_weights()),
        (meter._deterministic_alternatives(epsilon), meter._deterministic_weights()),
    ]:
        coefficients = meter._coefficients(alternatives, epsilon, weights)
        for flips, steady in [(0, 0), (0, 30), (1, 30), (4, 17), (9, 3)]:
            direct = math.fsum(
                w * (q / epsilon) ** flips * ((1 - q) / (1 - epsilon)) ** steady
                for q, w in zip(alternatives, weights, strict=True)
            )
            logged = meter._log_mixture(coefficients, flips, steady)
            assert math.exp(logged) == pytest.approx(direct, rel=1e-12)


def test_sequential_all_flips_decides_stochastic_early() -> None:
    sequential = SequentialMeter()
    calls = [sequential.update("a", True) for _ in range(2)]
    # two flips: the q = 0.505 term alone is 50.5^2 / 12 = 212, above 1 / (0.14 alpha) = 143
    assert calls == [None, "verdict-stochastic"]
    assert sequential.decided
    assert sequential.stopped
    result = sequential.result()
    assert result.call == "verdict-stochastic"
    assert result.design == "sequential"
    assert result.e_stochastic is not None
    assert result.e_stochastic >= 1 / (0.14 * ALPHA)
    assert result.e_deterministic is not None
    assert result.e_deterministic < 1.0
    assert result.extra_pairs_needed is None
    assert (result.pairs, result.flips, result.calls, result.unpaired) == (2, 2, 4, 0)
    with pytest.raises(RuntimeError, match="stopped"):
        sequential.update("a", True)


def test_sequential_flip_free_decides_deterministic_at_316_pairs() -> None:
    sequential = SequentialMeter(max_pairs=1000)
    assert sequential.result().extra_pairs_needed == 316
    for _ in range(315):
        assert sequential.update("a", False) is None
    assert sequential.update("a", False) == "verdict-deterministic"
    result = sequential.result()
    assert result.e_deterministic is not None
    assert result.e_deterministic >= 1 / (0.86 * ALPHA)
    assert "frozen-baseline diffing is the stronger oracle" in result.advice


def test_sequential_cap_without_decision_reports_undecided_with_an_estimate() -> None:
    sequential = SequentialMeter(max_pairs=300)
    while not sequential.stopped:
        sequential.update("a", False)
    assert not sequential.decided
    result = sequential.result()
    assert result.call == "undecided"
    assert result.pairs == 300
    assert result.extra_pairs_needed == 16
    assert "max_pairs of at least 316" in result.advice
    assert result.e_deterministic is not None
    assert 1 < result.e_deterministic < 1 / (0.86 * ALPHA)
    with pytest.raises(RuntimeError, match="max_pairs reached"):
        sequential.update("a", False)


def test_sequential_estimate_is_exact_for_flip_free_continuation() -> None:
    sequential = SequentialMeter(max_pairs=100)
    for i in range(100):
        sequential.update("a", i in (10, 50))  # two flips
    extra = sequential.result().extra_pairs_needed
    assert extra is not None
    longer = SequentialMeter(max_pairs=100 + extra)
    for i in range(100 + extra):
        call = longer.update("a", i in (10, 50))
        assert call == (None if i < 99 + extra else "verdict-deterministic")


def _wrong_calls(rate: float, replications: int, seed: int) -> tuple[int, list[int]]:
    rng = random.Random(seed)
    wrong_calls = 0
    lengths = []
    for _ in range(replications):
        sequential = SequentialMeter(epsilon=EPSILON, alpha=ALPHA, max_pairs=400)
        while not sequential.stopped:
            sequential.update("x", rng.random() < rate)
        wrong_calls += wrong(sequential.result().call, rate, EPSILON)
        lengths.append(sequential.pairs)
    return wrong_calls, lengths


@pytest.mark.parametrize("rate", SEQUENTIAL_RATES)
def test_sequential_wrong_call_rate_is_at_most_alpha(rate: float) -> None:
    """Seeded, 400 replications per rate; Ville's inequality bounds the rate by alpha at
    p == epsilon, and when only one of the two calls is wrong by that side's share of alpha:
    0.14 alpha below epsilon, 0.86 alpha above (test_meter_eprocess.py sums the exact rates)."""
    replications = 400
    wrong_calls, _ = _wrong_calls(rate, replications, seed=int(rate * 10_000) + 11)
    share = 1.0 if rate == EPSILON else (0.14 if rate < EPSILON else 0.86)
    assert wrong_calls / replications <= share * ALPHA


def test_sequential_stops_early_when_the_flip_rate_is_high() -> None:
    _, lengths = _wrong_calls(0.1, 400, seed=3)
    assert statistics.median(lengths) < 50
    assert statistics.fmean(lengths) < 60


def test_sequential_is_stable_in_log_space_over_a_hundred_thousand_pairs() -> None:
    epsilon = 2e-5  # small enough that 10^5 flip-free pairs do not yet decide
    sequential = SequentialMeter(epsilon=epsilon, max_pairs=100_000)
    for _ in range(100_000):
        assert sequential.update("a", False) is None
    result = sequential.result()
    assert result.call == "undecided"
    assert result.e_stochastic is not None
    assert result.e_deterministic is not None
    # the reference: log-sum-exp by scipy over the same grid
    for alternatives, weights, value in [
        (meter._stochastic_alternatives(epsilon), meter._stochastic_weights(), result.e_stochastic),
        (
            meter._deterministic_alternatives(epsilon),
            meter._deterministic_weights(),
            result.e_deterministic,
        ),
    ]:
        logs = [100_000 * (math.log1p(-q) - math.log1p(-epsilon)) for q in alternatives]
        expected = scipy.special.logsumexp(logs, b=weights)
        assert math.isfinite(value)
        assert value == pytest.approx(math.exp(expected), rel=1e-9, abs=1e-300)
    assert 0.0 < result.e_stochastic < 1.0
    assert 1.0 < result.e_deterministic < 1 / (0.86 * ALPHA)
    assert result.extra_pairs_needed is not None
    assert 0 < result.extra_pairs_needed < 100_000
    json.dumps(result.json_data(), allow_nan=False)


def test_log_mixture_neither_overflows_nor_underflows() -> None:
    coefficients = meter._coefficients(
        meter._deterministic_alternatives(0.01), 0.01, meter._deterministic_weights()
    )
    huge = meter._log_mixture(coefficients, 0, 10**7)  # (1/0.99)^(10^7): far beyond a float
    assert huge == pytest.approx(10**7 * -math.log1p(-0.01) + math.log(0.95), rel=1e-9)
    assert meter._e_value(huge) == meter.sys.float_info.max
    tiny = meter._log_mixture(
        meter._coefficients(meter._stochastic_alternatives(0.01), 0.01), 0, 10**7
    )
    assert math.isfinite(tiny)
    assert tiny < -1e4
    assert meter._e_value(tiny) == 0.0
    many_flips = meter._log_mixture(coefficients, 10**6, 10**7)
    assert math.isfinite(many_flips)


# -- run_sequential -----------------------------------------------------------------------------


def test_run_sequential_draws_round_robin_two_per_pair() -> None:
    order: list[str] = []

    def draw(input_id: str) -> str:
        order.append(input_id)
        return "same"

    result = run_sequential(draw, ["a", "b", "c"], max_pairs=7)
    assert order == ["a", "a", "b", "b", "c", "c"] * 2 + ["a", "a"]
    assert result.call == "undecided"
    assert (result.pairs, result.calls, result.flips) == (7, 14, 0)


def test_run_sequential_stops_right_after_the_deciding_pair() -> None:
    order: list[str] = []

    def draw(input_id: str) -> int:
        order.append(input_id)
        return len(order)  # every pair differs

    result = run_sequential(draw, ["a", "b"], max_pairs=400)
    assert result.call == "verdict-stochastic"
    assert result.pairs == 2
    assert result.calls == len(order) == 4
    assert order == ["a", "a", "b", "b"]
    assert result.unstable_inputs == [("a", 1, 1), ("b", 1, 1)]


def test_run_sequential_tracks_unstable_inputs() -> None:
    rng = random.Random(5)
    flaky = {"steady": 0.0, "rare": 0.05, "often": 0.5}

    def draw(input_id: str) -> bool:
        return rng.random() < flaky[input_id]

    result = run_sequential(draw, list(flaky), max_pairs=300)
    assert result.call == "verdict-stochastic"
    ids = [row[0] for row in result.unstable_inputs]
    assert "steady" not in ids
    assert ids[0] == "often"
    assert sum(row[1] for row in result.unstable_inputs) == result.flips


# -- the result ---------------------------------------------------------------------------------


def test_json_data_has_the_field_names_and_is_json_safe() -> None:
    names = list(MeterResult.model_fields)
    for result in [
        fixed_meter({"a": [True, False], "b": [False]}, unpaired=1),
        fixed_meter({}),
        run_sequential(lambda _: "x", ["a"], max_pairs=5),
    ]:
        data = result.json_data()
        assert list(data) == names
        assert json.loads(json.dumps(data, allow_nan=False)) == data
    data = fixed_meter({"a": [True, False], "b": [False]}).json_data()
    assert data["unstable_inputs"] == [["a", 1, 2]]
    assert data["call"] == "verdict-stochastic"  # one flip in 3 pairs: p > 0.01 at alpha 0.05


def test_result_is_frozen() -> None:
    result = fixed_meter({"a": [False]})
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.call = "verdict-stochastic"  # type: ignore[misc]


# -- argument checks ----------------------------------------------------------------------------

BAD_UNIT = [0, 1, 0.0, 1.0, -0.1, 1.5, math.nan, math.inf]


@pytest.mark.parametrize("value", BAD_UNIT)
def test_epsilon_and_alpha_must_lie_strictly_between_0_and_1(value: float) -> None:
    for name in ("epsilon", "alpha"):
        with pytest.raises(ValueError, match=name):
            fixed_meter({}, **{name: value})
        with pytest.raises(ValueError, match=name):
            SequentialMeter(**{name: value})
        with pytest.raises(ValueError, match=name):
            run_sequential(lambda _: 0, ["a"], **{name: value})
        with pytest.raises(ValueError, match=name):
            extra_pairs_for_deterministic(0, 0, **{name: value})


@pytest.mark.parametrize("value", [True, "0.01", None])
def test_epsilon_and_alpha_must_be_numbers(value: object) -> None:
    for name in ("epsilon", "alpha"):
        with pytest.raises(TypeError, match=name):
            fixed_meter({}, **{name: value})  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=name):
            SequentialMeter(**{name: value})  # type: ignore[arg-type]


def test_max_pairs_must_be_a_positive_integer() -> None:
    assert SequentialMeter(max_pairs=1).result().pairs == 0
    with pytest.raises(ValueError, match="max_pairs"):
        SequentialMeter(max_pairs=0)
    with pytest.raises(ValueError, match="max_pairs"):
        run_sequential(lambda _: 0, ["a"], max_pairs=-3)
    for value in (1.5, True, "10", None):
        with pytest.raises(TypeError, match="max_pairs"):
            SequentialMeter(max_pairs=value)  # type: ignore[arg-type]


def test_other_arguments_are_checked() -> None:
    with pytest.raises(TypeError, match="bools"):
        fixed_meter({"a": [0, 1]})  # type: ignore[list-item]
    with pytest.raises(TypeError, match="input ids"):
        fixed_meter({1: [True]})  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="unpaired"):
        fixed_meter({}, unpaired=-1)
    with pytest.raises(ValueError, match="layer"):
        fixed_meter({}, layer="")
    with pytest.raises(TypeError, match="flipped"):
        SequentialMeter().update("a", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="input ids"):
        SequentialMeter().update(3, True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty"):
        run_sequential(lambda _: 0, [])
    with pytest.raises(ValueError, match="duplicates"):
        run_sequential(lambda _: 0, ["a", "a"])
    with pytest.raises(TypeError, match="single string"):
        run_sequential(lambda _: 0, "abc")
    with pytest.raises(ValueError, match="flips"):
        extra_pairs_for_deterministic(3, 4)
    with pytest.raises(TypeError, match="pairs"):
        extra_pairs_for_deterministic(2.0, 0)  # type: ignore[arg-type]
