"""Verdict-stochasticity meter: wrong-call rates and agent calls of the fixed and sequential designs.

A simulated target answers "pass" or "fail" independently on every call, "fail" with probability r
chosen so that two calls differ with probability p = 2r(1 - r), the true flip rate. For p in
0, 0.005, 0.01, 0.02 and 0.1, at epsilon 0.01 and alpha 0.05, over 20 inputs:

- the fixed design draws 400 pairs (20 per input, 800 calls) and calls ``fixed_meter``;
- the sequential design calls ``run_sequential`` (round-robin over the inputs, cap 400 pairs).

Per design and rate:

a. the wrong-call rate, in percent: "verdict-stochastic" when p <= epsilon, or
   "verdict-deterministic" when p >= epsilon (at p == epsilon both calls are wrong); target alpha
   (5%);
b. the correct-call rate, in percent (informational: "undecided" is neither right nor wrong);
c. the mean number of agent calls (2 per pair; informational).

With no flip at all the sequential design needs 440 pairs to call "verdict-deterministic" at
epsilon 0.01 (the fixed design 299), so under the cap of 400 it leaves p = 0 undecided: its
correct-call rate there is 0 by construction, the price of being able to stop early.

Headline: the sequential design's mean calls at p = 0.1 as a share of the fixed design's 800,
target below 0.10.

Seeded (``random.Random``), so a run reproduces its figures exactly. Run with
``benchmarks/run --only meter`` (``--quick`` for fewer replications).
"""

from __future__ import annotations

import random
import statistics
from typing import Any

from _rows import row

COMMAND = "benchmarks/run --only meter"

EPSILON = 0.01
ALPHA = 0.05
CAP = 400  # pairs
RATES = (0.0, 0.005, 0.01, 0.02, 0.1)
INPUTS = 20
REPLICATIONS = 2000
QUICK_REPLICATIONS = 250
HEADLINE_RATE = 0.1
HEADLINE_TARGET = 0.10
SEED = 20240601


class _Target:
    """A target whose answer to any input is "fail" with probability r, independently per call."""

    def __init__(self, flip_rate: float, rng: random.Random) -> None:
        # 2r(1 - r) = p, the smaller root
        self.fail = (1.0 - (1.0 - 2.0 * flip_rate) ** 0.5) / 2.0
        self.rng = rng

    def __call__(self, input_id: str) -> str:
        return "fail" if self.rng.random() < self.fail else "pass"


def _wrong(call: str, rate: float) -> bool:
    return (call == "verdict-stochastic" and rate <= EPSILON) or (
        call == "verdict-deterministic" and rate >= EPSILON
    )


def _correct(call: str, rate: float) -> bool:
    return (call == "verdict-stochastic" and rate > EPSILON) or (
        call == "verdict-deterministic" and rate < EPSILON
    )


def _simulate(design: str, rate: float, replications: int, seed: int) -> tuple[float, float, float]:
    """(wrong-call rate, correct-call rate, mean agent calls) over ``replications`` runs."""
    from fairwitness.diagnostics.meter import fixed_meter, pair_outcomes, run_sequential

    target = _Target(rate, random.Random(seed))
    ids = [f"input-{i:02d}" for i in range(INPUTS)]
    per_input = CAP // INPUTS
    wrong = correct = 0
    calls: list[int] = []
    for _ in range(replications):
        if design == "fixed":
            pairs: dict[str, list[bool]] = {}
            unpaired = 0
            for input_id in ids:
                flips, left = pair_outcomes([target(input_id) for _ in range(2 * per_input)])
                pairs[input_id] = flips
                unpaired += left
            result = fixed_meter(pairs, epsilon=EPSILON, alpha=ALPHA, unpaired=unpaired)
        else:
            result = run_sequential(target, ids, epsilon=EPSILON, alpha=ALPHA, max_pairs=CAP)
        wrong += _wrong(result.call, rate)
        correct += _correct(result.call, rate)
        calls.append(result.calls)
    return wrong / replications, correct / replications, statistics.fmean(calls)


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    """Simulate both designs at every rate; one row per figure."""
    command = COMMAND + (" --quick" if quick else "")
    replications = QUICK_REPLICATIONS if quick else REPLICATIONS
    setting = f"epsilon {EPSILON:g}, alpha {ALPHA:g}, {replications} replications"
    designs = {
        "fixed": f"fixed design ({CAP} pairs)",
        "sequential": f"sequential design (cap {CAP} pairs)",
    }

    measured: dict[tuple[str, float], tuple[float, float, float]] = {}
    for d, design in enumerate(designs):
        for r, rate in enumerate(RATES):
            measured[design, rate] = _simulate(design, rate, replications, SEED + 100 * d + r)

    rows: list[dict[str, Any]] = []
    for design, name in designs.items():
        for rate in RATES:
            wrong, _, _ = measured[design, rate]
            rows.append(
                row(
                    f"{name}: wrong-call rate at true flip rate {rate:g} ({setting})",
                    100.0 * wrong,
                    "%",
                    100.0 * ALPHA,
                    wrong <= ALPHA,
                    command,
                )
            )
    for design, name in designs.items():
        for rate in RATES:
            _, correct, _ = measured[design, rate]
            rows.append(
                row(
                    f"{name}: correct-call rate at true flip rate {rate:g} "
                    f"({setting}; informational)",
                    100.0 * correct,
                    "%",
                    None,
                    None,
                    command,
                )
            )
    for design, name in designs.items():
        for rate in RATES:
            _, _, mean_calls = measured[design, rate]
            rows.append(
                row(
                    f"{name}: mean agent calls at true flip rate {rate:g} "
                    f"({setting}; informational)",
                    mean_calls,
                    "calls",
                    None,
                    None,
                    command,
                )
            )
    share = measured["sequential", HEADLINE_RATE][2] / measured["fixed", HEADLINE_RATE][2]
    rows.append(
        row(
            f"headline: sequential mean agent calls / fixed design's {2 * CAP} calls at true flip "
            f"rate {HEADLINE_RATE:g} ({setting})",
            share,
            "",
            HEADLINE_TARGET,
            share < HEADLINE_TARGET,
            command,
        )
    )
    return rows
