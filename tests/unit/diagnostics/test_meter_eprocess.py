"""The sequential meter's e-processes: the uneven split of alpha, the weight on q = 0, exact
supermartingale steps, and the exact and simulated wrong-call rate where both nulls hold."""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import pytest

from fairwitness.diagnostics import meter
from fairwitness.diagnostics.meter import (
    SequentialMeter,
    extra_pairs_for_deterministic,
    run_sequential,
)

ALPHA = 0.05


def flip_free_pairs_to_decide(epsilon: float, alpha: float = ALPHA) -> int:
    sequential = SequentialMeter(epsilon=epsilon, alpha=alpha, max_pairs=10**6)
    while sequential.update("a", False) is None:
        pass
    return sequential.pairs


def exact_calls(
    sequential: SequentialMeter, rate: float, horizon: int
) -> tuple[float, float, float, float]:
    """(P(stochastic call), P(deterministic call), E[pairs], tail) for pairs that flip
    independently with probability ``rate``, summed over every path of up to ``horizon`` pairs.

    The meter's call depends on the counts alone (``_crossing``), so the paths are summed by the
    number of flips. ``tail`` is E[e_stochastic / threshold + e_deterministic / threshold] over
    the paths still undecided at ``horizon``: by Ville's inequality, applied from there on, it
    bounds the chance of any later call when both e-processes are martingales (rate == epsilon).
    """
    alive = {0: 1.0}
    stochastic = deterministic = mean_pairs = 0.0
    for pairs in range(1, horizon + 1):
        mean_pairs += math.fsum(alive.values())
        step: dict[int, float] = {}
        for flips, mass in alive.items():
            for now, chance, flipped in ((flips + 1, rate, True), (flips, 1 - rate, False)):
                if chance == 0.0:
                    continue
                call = sequential._crossing(now, pairs - now, flipped)
                if call == "verdict-stochastic":
                    stochastic += mass * chance
                elif call == "verdict-deterministic":
                    deterministic += mass * chance
                else:
                    step[now] = step.get(now, 0.0) + mass * chance
        alive = step
    tail = math.fsum(
        mass
        * (
            math.exp(
                meter._log_mixture(sequential._stochastic, flips, horizon - flips)
                - sequential._log_stochastic_threshold
            )
            + math.exp(
                meter._log_mixture(sequential._deterministic, flips, horizon - flips)
                - sequential._log_deterministic_threshold
            )
        )
        for flips, mass in alive.items()
    )
    return stochastic, deterministic, mean_pairs, tail


# -- the split and the weights ------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.2, 0.9])
def test_the_two_levels_add_up_to_alpha(alpha: float) -> None:
    log_stochastic, log_deterministic = meter._log_levels(alpha)
    assert math.exp(-log_stochastic) == pytest.approx(0.14 * alpha, rel=1e-12)
    assert math.exp(-log_deterministic) == pytest.approx(0.86 * alpha, rel=1e-12)
    assert math.exp(-log_stochastic) + math.exp(-log_deterministic) == pytest.approx(alpha)
    assert log_stochastic > 0 and log_deterministic > 0  # both thresholds exceed 1


def test_weights_sum_to_one_and_the_deterministic_side_bets_on_q_zero() -> None:
    for weights in (meter._stochastic_weights(), meter._deterministic_weights()):
        assert len(weights) == meter.GRID_SIZE
        assert math.fsum(weights) == pytest.approx(1.0, abs=1e-15)
    assert meter._deterministic_weights()[0] == meter.ZERO_WEIGHT == 0.95
    assert meter._deterministic_alternatives(0.05)[0] == 0.0
    with pytest.raises(ValueError, match="one weight per alternative"):
        meter._coefficients([0.1, 0.2], 0.05, [0.5, 0.6])
    with pytest.raises(ValueError, match="one weight per alternative"):
        meter._coefficients([0.1, 0.2], 0.05, [1.0])


# -- the flip-free call against the fixed design's floor ----------------------------------------


def test_a_deterministic_target_is_called_after_62_pairs_at_epsilon_0_05() -> None:
    sequential = SequentialMeter(epsilon=0.05)
    assert sequential.result().extra_pairs_needed == 62
    for _ in range(61):
        assert sequential.update("a", False) is None
    assert sequential.update("a", False) == "verdict-deterministic"
    result = run_sequential(lambda _: "allow", [f"input-{i}" for i in range(20)], epsilon=0.05)
    assert (result.call, result.pairs, result.calls) == ("verdict-deterministic", 62, 124)
    # the fixed design's floor: 0.95^59 < 0.05 <= 0.95^58
    assert extra_pairs_for_deterministic(0, 0, epsilon=0.05) == 59
    assert 0.95**59 < ALPHA <= 0.95**58
    # what an even split would need at the least: 0.95^72 < 0.025 <= 0.95^71
    assert 0.95**72 < ALPHA / 2 <= 0.95**71


@pytest.mark.parametrize("epsilon", [0.001, 0.01, 0.02, 0.05, 0.1, 0.2])
def test_the_flip_free_call_is_within_7_percent_of_the_fixed_floor(epsilon: float) -> None:
    sequential = flip_free_pairs_to_decide(epsilon)
    floor = extra_pairs_for_deterministic(0, 0, epsilon=epsilon)
    # no valid meter can do better than the deterministic side's level allows: with n flip-free
    # pairs, P(a deterministic call | p = epsilon) >= (1 - epsilon)^n
    assert (1 - epsilon) ** sequential <= 0.86 * ALPHA
    assert floor <= sequential <= 1.075 * floor
    assert flip_free_pairs_to_decide(0.01) == 316


# -- supermartingales, exactly ------------------------------------------------------------------


def exact_mixture(
    alternatives: list[float], weights: list[float], epsilon: float, flips: int, steady: int
) -> Fraction:
    eps = Fraction(epsilon)
    return sum(
        (
            Fraction(w) * (Fraction(q) / eps) ** flips * ((1 - Fraction(q)) / (1 - eps)) ** steady
            for q, w in zip(alternatives, weights, strict=True)
        ),
        Fraction(0),
    )


@pytest.mark.parametrize("epsilon", [0.01, 0.05, 0.3])
def test_the_expected_one_step_multiplier_is_at_most_1_under_the_null_exactly(
    epsilon: float,
) -> None:
    """In rational arithmetic (the floats of the grid taken exactly): each component's factor has
    mean exactly 1 at p = epsilon and below 1 inside its null, and so has the mixture's, from
    every state checked; the float log-space mixture agrees with the exact one."""
    eps = Fraction(epsilon)
    sides = [
        (
            meter._stochastic_alternatives(epsilon),
            meter._stochastic_weights(),
            [Fraction(0), eps / 2, eps * 9 / 10],
        ),
        (
            meter._deterministic_alternatives(epsilon),
            meter._deterministic_weights(),
            [eps * 11 / 10, (1 + eps) / 2, Fraction(1)],
        ),
    ]
    for alternatives, weights, inside in sides:
        coefficients = meter._coefficients(alternatives, epsilon, weights)
        for q in alternatives:
            flip, steady = Fraction(q) / eps, (1 - Fraction(q)) / (1 - eps)
            assert eps * flip + (1 - eps) * steady == 1
            for p in inside:
                assert p * flip + (1 - p) * steady < 1
        for flips, steady in [(0, 0), (0, 25), (1, 10), (3, 7), (6, 40)]:
            now = exact_mixture(alternatives, weights, epsilon, flips, steady)
            after_flip = exact_mixture(alternatives, weights, epsilon, flips + 1, steady)
            after_steady = exact_mixture(alternatives, weights, epsilon, flips, steady + 1)
            assert eps * after_flip + (1 - eps) * after_steady == now
            for p in inside:
                assert p * after_flip + (1 - p) * after_steady <= now
            logged = meter._log_mixture(coefficients, flips, steady)
            assert math.exp(logged) == pytest.approx(float(now), rel=1e-12)
        assert exact_mixture(alternatives, weights, epsilon, 0, 0) == sum(map(Fraction, weights))


# -- the wrong-call rate where both nulls hold --------------------------------------------------


@pytest.mark.parametrize(("epsilon", "horizon"), [(0.05, 500), (0.01, 600)])
def test_the_exact_wrong_call_rate_at_p_equal_epsilon_is_at_most_alpha(
    epsilon: float, horizon: int
) -> None:
    sequential = SequentialMeter(epsilon=epsilon, alpha=ALPHA)
    stochastic, deterministic, _, tail = exact_calls(sequential, epsilon, horizon)
    flip_free = flip_free_pairs_to_decide(epsilon)
    assert deterministic >= (1 - epsilon) ** flip_free  # the flip-free runs alone
    assert deterministic <= 0.86 * ALPHA
    assert stochastic <= 0.14 * ALPHA
    assert stochastic + deterministic <= ALPHA
    # every later call too, whenever the run stops: the bound is the initial capital, alpha
    assert stochastic + deterministic + tail <= ALPHA * (1 + 1e-9)


def test_the_simulated_wrong_call_rate_at_p_equal_epsilon_matches_the_exact_one() -> None:
    """Seeded: 3000 runs of the meter at epsilon 0.05 on pairs that flip with probability 0.05,
    capped at 80 pairs (the flip-free call comes at 62). Every call is wrong there."""
    epsilon, cap, replications = 0.05, 80, 3000
    rng = random.Random(20240605)
    wrong = 0
    for _ in range(replications):
        sequential = SequentialMeter(epsilon=epsilon, max_pairs=cap)
        while not sequential.stopped:
            sequential.update("x", rng.random() < epsilon)
        wrong += sequential.decided
    stochastic, deterministic, _, _ = exact_calls(SequentialMeter(epsilon=epsilon), epsilon, cap)
    exact = stochastic + deterministic
    assert 0.95**62 <= exact <= ALPHA
    rate = wrong / replications
    spread = math.sqrt(exact * (1 - exact) / replications)
    assert abs(rate - exact) <= 4 * spread
    assert rate <= ALPHA


# -- a noisy target still stops early -----------------------------------------------------------


def test_a_noisy_target_still_stops_early() -> None:
    sequential = SequentialMeter(epsilon=0.05, max_pairs=500)
    stochastic, deterministic, mean_pairs, _ = exact_calls(sequential, 0.15, 500)
    assert stochastic > 0.9999
    assert deterministic < 1e-4  # 0.85^62: its first 62 pairs happened not to flip
    assert 80 < mean_pairs < 90  # about 171 calls, against 1000 for the cap
    # every pair flipping: the stochastic call after 3 pairs (2 at epsilon 0.01)
    for epsilon, pairs in [(0.05, 3), (0.01, 2)]:
        flipping = SequentialMeter(epsilon=epsilon)
        calls = [flipping.update("a", True) for _ in range(pairs)]
        assert calls[-1] == "verdict-stochastic"
        assert calls[:-1] == [None] * (pairs - 1)
    # seeded: a target flipping 15% of pairs, drawn round-robin over 20 inputs
    rng = random.Random(7)
    fail = (1 - math.sqrt(1 - 2 * 0.15)) / 2  # 2 r (1 - r) = 0.15
    ids = [f"input-{i}" for i in range(20)]
    results = [
        run_sequential(lambda _: rng.random() < fail, ids, epsilon=0.05, max_pairs=500)
        for _ in range(200)
    ]
    assert all(r.call == "verdict-stochastic" for r in results)
    assert statistics.fmean(r.calls for r in results) < 200
