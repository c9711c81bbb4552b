"""Verdict-stochasticity meter: wrong-call rates and agent calls of its designs, and what the
deterministic call costs.

A simulated target answers "pass" or "fail" independently on every call, "fail" with probability r
chosen so that two calls differ with probability p = 2r(1 - r), the true flip rate. 20 inputs,
alpha 0.05, two settings:

A. epsilon 0.01 (``diagnose``'s default), p in 0, 0.005, 0.01, 0.02 and 0.1: the fixed design
   draws 400 pairs (20 per input, 800 calls) and calls ``fixed_meter``; the sequential design
   calls ``run_sequential`` (round-robin over the inputs, cap 400 pairs).
B. epsilon 0.05, p in 0, 0.01, 0.025, 0.05, 0.075 and 0.15, cap 500 pairs (``diagnose``'s
   ``max_pairs``): the sequential design and, side by side as the reference, the previous
   sequential design (alpha split evenly, each side calling at 2/alpha, uniform weights over the
   same two grids), which is kept here only.

Per setting, design and rate:

a. the wrong-call rate, in percent: "verdict-stochastic" when p <= epsilon, or
   "verdict-deterministic" when p >= epsilon (at p == epsilon both calls are wrong); target alpha
   (5%). The figure is exact for the model: a call depends on the counts of flipped and flip-free
   pairs only, so the chance of every call is summed over every path of up to the cap. The seeded
   simulation is shown beside it with its Monte Carlo standard error, and a check row compares the
   two. A simulated rate alone would decide the target by its noise: at p == epsilon the
   sequential design spends about 4.6 of its 5 points.
b. the correct-call rate, in percent (informational: "undecided" is neither right nor wrong);
c. the mean number of agent calls (2 per pair; informational), exact, the simulation beside it.

Headline rows:

- A: the sequential design's mean calls at p = 0.1 as a share of the fixed design's 800, target
  below 0.10 (the previous design's share in the text).
- B, a deterministic agent: the calls ``fairwitness diagnose`` makes before it says
  "verdict-deterministic" on 20 inputs, target 124 (within 5% of the fixed design's floor of 118:
  59 flip-free pairs, the fewest with 0.95^n < alpha), with its ratios to that floor and to the
  previous design, both measured in the same run and given as rows of their own.
- B, an agent flipping 15% of pairs: the mean calls until the call, target 24, with the ratio to the
  previous design; and two bounds no valid meter beats (Wald's inequality: for the event "calls
  verdict-stochastic", E[pairs] KL(0.15 || epsilon) >= d(its chance at 0.15 || its chance at
  epsilon), d the binary relative entropy): spending all of alpha on that side for a 95% chance of
  the call, and keeping the deterministic call at 62 flip-free pairs, which leaves at most
  alpha - 0.95^62 for the stochastic one.

Seeded (``random.Random``), so a run reproduces its figures exactly. Run with
``benchmarks/run --only meter`` (``--quick`` for fewer replications; the exact figures are the
same).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from _rows import row

COMMAND = "benchmarks/run --only meter"

ALPHA = 0.05
INPUTS = 20
REPLICATIONS = 2000
QUICK_REPLICATIONS = 250
SEED = 20240601

EPSILON = 0.01  # setting A
CAP = 400
RATES = (0.0, 0.005, 0.01, 0.02, 0.1)
HEADLINE_RATE = 0.1
HEADLINE_TARGET = 0.10

WIDE_EPSILON = 0.05  # setting B
WIDE_CAP = 500
WIDE_RATES = (0.0, 0.01, 0.025, 0.05, 0.075, 0.15)
NOISY_RATE = 0.15
DETERMINISTIC_TARGET = 124  # calls: within 5% of the fixed design's floor of 118
NOISY_TARGET = 24  # calls
CHECK_TARGET = 4.0  # largest |z| of simulated against exact


class _Target:
    """A target whose answer to any input is "fail" with probability r, independently per call."""

    def __init__(self, flip_rate: float, rng: random.Random) -> None:
        # 2r(1 - r) = p, the smaller root
        self.fail = (1.0 - (1.0 - 2.0 * flip_rate) ** 0.5) / 2.0
        self.rng = rng

    def __call__(self, input_id: str) -> str:
        return "fail" if self.rng.random() < self.fail else "pass"


class _Previous:
    """The previous sequential design, for comparison only: both sides call at 2/alpha (alpha/2
    each) and weigh the 12 alternatives of their grids alike (1/12 on q = 0)."""

    def __init__(self, epsilon: float, alpha: float, max_pairs: int) -> None:
        from fairwitness.diagnostics import _eprocess as e

        self._stochastic = e._coefficients(e._stochastic_alternatives(epsilon), epsilon)
        self._deterministic = e._coefficients(e._deterministic_alternatives(epsilon), epsilon)
        self._log_threshold = math.log(2.0 / alpha)
        self._max_pairs = max_pairs
        self.flips = self.pairs = 0
        self.call: str | None = None

    def _crossing(self, flips: int, steady: int, flipped: bool) -> str | None:
        from fairwitness.diagnostics._eprocess import _log_mixture

        if flipped:
            if _log_mixture(self._stochastic, flips, steady) >= self._log_threshold:
                return "verdict-stochastic"
        elif _log_mixture(self._deterministic, flips, steady) >= self._log_threshold:
            return "verdict-deterministic"
        return None

    @property
    def stopped(self) -> bool:
        return self.call is not None or self.pairs >= self._max_pairs

    def update(self, flipped: bool) -> None:
        self.pairs += 1
        self.flips += flipped
        self.call = self._crossing(self.flips, self.pairs - self.flips, flipped)


def _previous_run(
    target: Callable[[str], str], ids: list[str], epsilon: float, cap: int
) -> tuple[str, int]:
    """The previous design, round-robin two draws per pair exactly as ``run_sequential``."""
    meter = _Previous(epsilon, ALPHA, cap)
    while not meter.stopped:
        for input_id in ids:
            meter.update(target(input_id) != target(input_id))
            if meter.stopped:
                break
    return meter.call or "undecided", 2 * meter.pairs


def _wrong(call: str, rate: float, epsilon: float) -> bool:
    return (call == "verdict-stochastic" and rate <= epsilon) or (
        call == "verdict-deterministic" and rate >= epsilon
    )


def _correct(call: str, rate: float, epsilon: float) -> bool:
    return (call == "verdict-stochastic" and rate > epsilon) or (
        call == "verdict-deterministic" and rate < epsilon
    )


# -- exact rates --------------------------------------------------------------------------------


def _exact_sequential(
    crossing: Callable[[int, int, bool], str | None], rate: float, cap: int
) -> tuple[float, float, float]:
    """(P(stochastic call), P(deterministic call), E[agent calls]) of a sequential design whose
    call after each pair is ``crossing(flips, steady, flipped)``, summed over every path."""
    alive = {0: 1.0}
    calls = {"verdict-stochastic": 0.0, "verdict-deterministic": 0.0}
    pairs = 0.0
    for n in range(1, cap + 1):
        pairs += math.fsum(alive.values())
        step: dict[int, float] = {}
        for flips, mass in alive.items():
            for now, chance, flipped in ((flips + 1, rate, True), (flips, 1.0 - rate, False)):
                if chance > 0.0:
                    call = crossing(now, n - now, flipped)
                    if call is None:
                        step[now] = step.get(now, 0.0) + mass * chance
                    else:
                        calls[call] += mass * chance
        alive = step
    return calls["verdict-stochastic"], calls["verdict-deterministic"], 2.0 * pairs


def _exact_fixed(rate: float, pairs: int, epsilon: float) -> tuple[float, float, float]:
    from fairwitness.diagnostics.meter import fixed_meter
    from fairwitness.stats import binom_pmf

    chances = {"verdict-stochastic": 0.0, "verdict-deterministic": 0.0, "undecided": 0.0}
    for k in range(pairs + 1):
        call = fixed_meter({"x": [True] * k + [False] * (pairs - k)}, epsilon=epsilon).call
        chances[call] += binom_pmf(k, pairs, rate)
    return chances["verdict-stochastic"], chances["verdict-deterministic"], 2.0 * pairs


@dataclass
class _Cell:
    """One (setting, design, rate): the exact chances and the simulated counts."""

    rate: float
    epsilon: float
    replications: int
    exact_stochastic: float
    exact_deterministic: float
    exact_calls: float
    wrong: int
    correct: int
    calls: list[int]

    def exact_wrong(self) -> float:
        return (self.exact_stochastic if self.rate <= self.epsilon else 0.0) + (
            self.exact_deterministic if self.rate >= self.epsilon else 0.0
        )

    def exact_correct(self) -> float:
        return (self.exact_stochastic if self.rate > self.epsilon else 0.0) + (
            self.exact_deterministic if self.rate < self.epsilon else 0.0
        )

    def z(self) -> float:
        """The larger |simulated - exact| / s.e. of the wrong-call rate and the mean calls."""
        zs = []
        exact = self.exact_wrong()
        spread = math.sqrt(exact * (1.0 - exact) / self.replications)
        if spread > 0:
            zs.append(abs(self.wrong / self.replications - exact) / spread)
        if len(self.calls) > 1 and statistics.pstdev(self.calls) > 0:
            se = statistics.stdev(self.calls) / math.sqrt(len(self.calls))
            zs.append(abs(statistics.fmean(self.calls) - self.exact_calls) / se)
        return max(zs, default=0.0)

    def simulated(self, what: str) -> str:
        n = self.replications
        if what == "calls":
            se = statistics.stdev(self.calls) / math.sqrt(n) if n > 1 else 0.0
            return f"simulated {statistics.fmean(self.calls):.1f} ± {se:.1f} calls"
        share = (self.wrong if what == "wrong" else self.correct) / n
        return f"simulated {100 * share:.2f}% ± {100 * math.sqrt(share * (1 - share) / n):.2f} pts"


def _cell(
    design: str, epsilon: float, cap: int, rate: float, replications: int, seed: int
) -> _Cell:
    from fairwitness.diagnostics.meter import (
        SequentialMeter,
        fixed_meter,
        pair_outcomes,
        run_sequential,
    )

    if design == "fixed":
        exact = _exact_fixed(rate, cap, epsilon)
    else:
        meter: Any = (
            SequentialMeter(epsilon=epsilon, alpha=ALPHA)
            if design == "sequential"
            else _Previous(epsilon, ALPHA, cap)
        )
        exact = _exact_sequential(meter._crossing, rate, cap)
    target = _Target(rate, random.Random(seed))
    ids = [f"input-{i:02d}" for i in range(INPUTS)]
    wrong = correct = 0
    calls: list[int] = []
    call: str
    for _ in range(replications):
        if design == "fixed":
            pairs: dict[str, list[bool]] = {}
            for input_id in ids:
                flips, _ = pair_outcomes([target(input_id) for _ in range(2 * (cap // INPUTS))])
                pairs[input_id] = flips
            result = fixed_meter(pairs, epsilon=epsilon, alpha=ALPHA)
            call, spent = result.call, result.calls
        elif design == "sequential":
            result = run_sequential(target, ids, epsilon=epsilon, alpha=ALPHA, max_pairs=cap)
            call, spent = result.call, result.calls
        else:
            call, spent = _previous_run(target, ids, epsilon, cap)
        wrong += _wrong(call, rate, epsilon)
        correct += _correct(call, rate, epsilon)
        calls.append(spent)
    return _Cell(rate, epsilon, replications, *exact, wrong, correct, calls)


# -- bounds and references ----------------------------------------------------------------------


def _kl(p: float, q: float) -> float:
    """Binary relative entropy d(p || q), in nats."""
    total = 0.0
    if p > 0:
        total += p * math.log(p / q)
    if p < 1:
        total += (1 - p) * math.log((1 - p) / (1 - q))
    return total


def _wald_calls(rate: float, epsilon: float, chance: float, level: float) -> float:
    """The fewest mean agent calls (2 per pair) of any test making a call with probability
    ``chance`` at flip rate ``rate`` and at most ``level`` at ``epsilon``."""
    return 2.0 * _kl(chance, level) / _kl(rate, epsilon)


def _diagnose_calls(epsilon: float) -> tuple[str, int]:
    """What ``fairwitness diagnose`` does with an agent that never changes its verdict."""
    from fairwitness import DiagnoseConfig, Observation, diagnose

    def steady(text: str) -> Observation:
        return Observation(text="ok", verdict="allow")

    config = DiagnoseConfig(epsilon=epsilon, alpha=ALPHA, relations=())
    diagnosis = diagnose(steady, [f"probe {i}" for i in range(INPUTS)], config)
    assert diagnosis.meter is not None
    return diagnosis.meter.call, diagnosis.calls_made


def _previous_flip_free_calls(epsilon: float) -> int:
    meter = _Previous(epsilon, ALPHA, 10**6)
    while meter.call is None:
        meter.update(False)
    return 2 * meter.pairs


# -- rows ---------------------------------------------------------------------------------------


def _rate_rows(
    cells: dict[tuple[str, float], _Cell],
    names: dict[str, str],
    rates: tuple[float, ...],
    text: str,
    command: str,
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for what in ("wrong", "correct", "calls"):
        for design, name in names.items():
            for rate in rates:
                cell = cells[design, rate]
                figure = f"at true flip rate {rate:g} ({text}; exact for the model, "
                if what == "calls":
                    value, unit, target = cell.exact_calls, "calls", None
                    figure = f"{name}: mean agent calls {figure}"
                else:
                    value = cell.exact_wrong() if what == "wrong" else cell.exact_correct()
                    value, unit = 100.0 * value, "%"
                    target = 100.0 * ALPHA if what == "wrong" else None
                    figure = f"{name}: {what}-call rate {figure}"
                informational = "" if target is not None else "; informational"
                rows.append(
                    row(
                        f"{figure}{cell.simulated(what)}{informational})",
                        value,
                        unit,
                        target,
                        None if target is None else value <= target,
                        command,
                    )
                )
    return rows


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    """Both settings, every design and rate; one row per figure."""
    command = COMMAND + (" --quick" if quick else "")
    replications = QUICK_REPLICATIONS if quick else REPLICATIONS

    def measure(
        designs: tuple[str, ...], epsilon: float, cap: int, rates: tuple[float, ...], offset: int
    ) -> dict[tuple[str, float], _Cell]:
        return {
            (design, rate): _cell(
                design, epsilon, cap, rate, replications, SEED + offset + 100 * d + r
            )
            for d, design in enumerate(designs)
            for r, rate in enumerate(rates)
        }

    narrow = measure(("fixed", "sequential"), EPSILON, CAP, RATES, 0)
    narrow[("previous", HEADLINE_RATE)] = _cell(
        "previous", EPSILON, CAP, HEADLINE_RATE, replications, SEED + 300
    )
    wide = measure(("sequential", "previous"), WIDE_EPSILON, WIDE_CAP, WIDE_RATES, 1000)

    base = f"alpha {ALPHA:g}, {INPUTS} inputs, {replications} replications"
    rows = _rate_rows(
        narrow,
        {
            "fixed": f"fixed design ({CAP} pairs)",
            "sequential": f"sequential design (cap {CAP} pairs)",
        },
        RATES,
        f"epsilon {EPSILON:g}, {base}",
        command,
    )
    fixed_calls = 2.0 * CAP
    share = narrow["sequential", HEADLINE_RATE].exact_calls / fixed_calls
    previous_share = narrow["previous", HEADLINE_RATE].exact_calls / fixed_calls
    rows.append(
        row(
            f"headline: sequential mean agent calls / fixed design's {fixed_calls:.0f} calls at "
            f"true flip rate {HEADLINE_RATE:g} (epsilon {EPSILON:g}, {base}; exact; the previous "
            f"design (even split) in this run: {previous_share:.3f})",
            share,
            "",
            HEADLINE_TARGET,
            share < HEADLINE_TARGET,
            command,
        )
    )

    rows += _rate_rows(
        wide,
        {
            "sequential": f"sequential design (cap {WIDE_CAP} pairs)",
            "previous": f"reference: previous sequential design (even split, cap {WIDE_CAP} pairs)",
        },
        WIDE_RATES,
        f"epsilon {WIDE_EPSILON:g}, {base}",
        command,
    )
    rows += _deterministic_rows(command)
    rows += _noisy_rows(wide, command, base)
    cells = [*narrow.values(), *wide.values()]
    largest = max(cell.z() for cell in cells)
    rows.append(
        row(
            f"check: largest |simulated - exact| / s.e. over the wrong-call rates and mean calls of "
            f"the {len(cells)} (setting, design, rate) cells above",
            largest,
            "z",
            CHECK_TARGET,
            largest <= CHECK_TARGET,
            command,
        )
    )
    return rows


def _deterministic_rows(command: str) -> list[dict[str, Any]]:
    from fairwitness.diagnostics.meter import extra_pairs_for_deterministic

    eps = WIDE_EPSILON
    call, calls = _diagnose_calls(eps)
    floor_pairs = extra_pairs_for_deterministic(0, 0, epsilon=eps, alpha=ALPHA)
    floor = 2 * floor_pairs
    previous = _previous_flip_free_calls(eps)
    return [
        row(
            f"deterministic agent: calls until `fairwitness diagnose` says {call} ({INPUTS} inputs, "
            f"epsilon {eps:g}, alpha {ALPHA:g}; {calls / floor:.3f}x the fixed design's floor of "
            f"{floor} and {calls / previous:.3f}x the previous design's {previous}, both in this "
            "run)",
            calls,
            "calls",
            DETERMINISTIC_TARGET,
            call == "verdict-deterministic" and calls <= DETERMINISTIC_TARGET,
            command,
        ),
        row(
            f"reference: the fixed design's floor at epsilon {eps:g}: 2 x {floor_pairs} flip-free "
            f"pairs, the fewest n with {1 - eps:g}^n < alpha ({(1 - eps) ** floor_pairs:.4f}; "
            "informational)",
            floor,
            "calls",
            None,
            None,
            command,
        ),
        row(
            f"reference: the previous sequential design (even split, uniform grids): calls until "
            f"verdict-deterministic for the same agent (epsilon {eps:g}; informational)",
            previous,
            "calls",
            None,
            None,
            command,
        ),
    ]


def _noisy_rows(
    wide: dict[tuple[str, float], _Cell], command: str, base: str
) -> list[dict[str, Any]]:
    eps, rate = WIDE_EPSILON, NOISY_RATE
    new, old = wide["sequential", rate], wide["previous", rate]
    flip_free = DETERMINISTIC_TARGET // 2
    left = ALPHA - (1 - eps) ** flip_free
    kept = _wald_calls(rate, eps, new.exact_stochastic, left)
    any_meter = _wald_calls(rate, eps, 0.95, ALPHA)
    return [
        row(
            f"agent flipping {rate:.0%} of pairs: mean calls until the call (epsilon {eps:g}, "
            f"{base}; exact, {new.simulated('calls')}; {new.exact_calls / old.exact_calls:.3f}x the "
            f"previous design's {old.exact_calls:.1f} in this run, {new.exact_calls / kept:.3f}x "
            "the bound below that keeps the deterministic call at 62 pairs)",
            new.exact_calls,
            "calls",
            NOISY_TARGET,
            new.exact_calls <= NOISY_TARGET,
            command,
        ),
        row(
            f"bound: fewest mean calls of any valid meter on disjoint pairs that calls "
            f"verdict-stochastic on that agent with probability 95%, all of alpha on that side "
            f"(Wald: 2 d(0.95 || {ALPHA:g}) "
            f"/ KL({rate:g} || {eps:g}); informational)",
            any_meter,
            "calls",
            None,
            None,
            command,
        ),
        row(
            f"bound: the same for a meter that also calls verdict-deterministic after {flip_free} "
            f"flip-free pairs, which leaves alpha - {1 - eps:g}^{flip_free} = {left:.4f} for the "
            f"stochastic call, made with this design's chance ({new.exact_stochastic:.6f}; "
            "informational)",
            kept,
            "calls",
            None,
            None,
            command,
        ),
    ]
