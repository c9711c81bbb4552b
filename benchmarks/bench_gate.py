"""Gate: how often does it cry "regression" when nothing changed?

Under the null, per replication: 200 paired cases and five gated pass/fail metrics (three
capability, one higher-is-better safety, one lower-is-better safety metric). For every case and
metric the baseline and the candidate outcome are drawn independently with the same pass rate,
0.9 (for the lower-is-better metric: a hit rate of 0.1). The gate counts regressions and
improvements per metric, runs the one-sided McNemar test and Holm's adjustment over the five
metrics at alpha 0.05 (:func:`fairwitness.gate.paired_tests`, the step :func:`~fairwitness.gate.decide`
applies), and cries "regression" when any metric is rejected.

a. The family-wise false-alarm rate with the mid-p test, in percent; target alpha (5%).
b. The same with the exact test; target 5%.
c. Informational: the rate at which any metric's unadjusted mid-p test rejects at 0.05, the false
   alarms a gate without Holm would raise.
d. Informational: the exact family-wise rates of (a) and (b), computed by summing over every
   possible (regressions, improvements) count instead of simulating (the simulation's reference).
e. A check that the simulation measures the real gate: for the first replications, and for a few
   extra ones where the candidate's first metric really drops (pass rate 0.75, so that alarms are
   checked too), both reports are also built through the pipeline (Runner, ScoreBoard,
   build_report) from the same draws and decided by ``decide()`` with each test; the row counts
   disagreements in exit code or per-metric counts (target 0).

Stochastic agents, whose repeats of one case disagree (:mod:`_stochastic` describes the model of
latent per-case success probabilities at four noise levels, n = 50, 210 and 1000 cases and k = 1,
3 and 5 repeats per side; :mod:`_stochastic_rows` the rows):

f. Type-I error of the rate test (the one-sided sign-flip test on per-case drops in success rate
   the gate runs) per noise level, n and k, mid-p and exact; exact for the model at k = 1, where
   it is McNemar's test.
g. Family-wise false-alarm rate over five gated metrics, Holm at 0.05.
h. Power for 3- and 5-point per-trial drops beside McNemar's test on majority-collapsed outcomes,
   on the same draws, and whether the rate test is at least as powerful in every cell.
i. Checks of the simulation: against exact rates, against case-by-case draws, and against
   ``fairwitness.gate.rate_test`` itself.
j. The real gate end to end (:mod:`_endtoend`): the self-comparison of a stochastic agent passes,
   and a 20-point drop is caught, through reports built by the pipeline and ``decide()``.

Seeded (``random.Random``), so a run reproduces its figures exactly. Run with
``benchmarks/run --only gate`` (``--quick`` for fewer replications).
"""

from __future__ import annotations

import asyncio
import math
import random
import sys
from typing import Any

import _endtoend
import _stochastic_rows
from _rows import row

COMMAND = "benchmarks/run --only gate"

ALPHA = 0.05
CASES = 200
PASS_RATE = 0.9
METRICS = (  # name, kind, higher_is_better
    ("m1", "capability", True),
    ("m2", "capability", True),
    ("m3", "capability", True),
    ("m4", "safety", True),
    ("m5", "safety", False),
)
REPLICATIONS = 10_000
QUICK_REPLICATIONS = 1_000
CHECKED = 20  # null replications also decided through the pipeline and decide()
QUICK_CHECKED = 4
SHIFTED = 5  # extra replications with a real drop, decided both ways
DROPPED_RATE = 0.75
SEED = 20240601
TESTS = ("midp", "exact")

Draw = list[list[bool]]  # per metric, per case: the good outcome?


def _log(message: str) -> None:
    print(f"  gate: {message}", file=sys.stderr, flush=True)


def _draw(rng: random.Random, first_rate: float = PASS_RATE) -> Draw:
    """Outcomes of one report; the first metric's pass rate may differ (for the check)."""
    rates = [first_rate] + [PASS_RATE] * (len(METRICS) - 1)
    return [[rng.random() < rate for _ in range(CASES)] for rate in rates]


def _counts(baseline: Draw, candidate: Draw) -> list[tuple[int, int]]:
    counts = []
    for before, after in zip(baseline, candidate, strict=True):
        regressions = sum(1 for b, c in zip(before, after, strict=True) if b and not c)
        improvements = sum(1 for b, c in zip(before, after, strict=True) if c and not b)
        counts.append((regressions, improvements))
    return counts


# -- the real pipeline, for the check ------------------------------------------------------------


def _scorers() -> tuple[Any, ...]:
    from fairwitness.scoring import Scorer, TrialScore

    def make(index: int, name: str, kind: Any, higher: bool) -> Scorer:
        def score(trace: Any, case: Any, settings: Any) -> TrialScore:
            good = (trace.answer or "")[index] == "1"
            return TrialScore(1.0 if good == higher else 0.0)

        return Scorer(name, kind, higher, f"simulated metric {name}", score)

    return tuple(make(i, *spec) for i, spec in enumerate(METRICS))


def _report(draw: Draw) -> Any:
    from fairwitness import Case, Dataset, Runner
    from fairwitness.report import build_report
    from fairwitness.scoring import ScoreBoard

    data = Dataset([Case(id=f"c{i:03d}", input=str(i)) for i in range(CASES)])
    answers = {
        f"c{i:03d}": "".join("1" if draw[m][i] else "0" for m in range(len(METRICS)))
        for i in range(CASES)
    }

    async def target(case: Case) -> dict[str, str]:
        return {"text": answers[case.id], "verdict": "done"}

    class Sink:
        lines = 0

        def write(self, trace: Any) -> int:
            self.lines += 1
            return self.lines

    board = ScoreBoard(_scorers())
    result = asyncio.run(
        Runner(target, suite="null", concurrency=1, scoring=board).run(data, Sink())
    )
    return build_report(
        result,
        data,
        board=board,
        target="bench:target",
        seed=0,
        repeats=1,
        concurrency=1,
        timeout_s=None,
        mode="live",
    )


def _disagreements(baseline: Draw, candidate: Draw) -> tuple[int, int]:
    """(disagreements, alarms) of ``decide()`` on pipeline-built reports, over both tests."""
    from fairwitness.gate import GateSettings, decide, paired_tests

    counts = _counts(baseline, candidate)
    before, after = _report(baseline), _report(candidate)
    wrong = alarms = 0
    for test in TESTS:
        decision = decide(before, after, GateSettings(test=test))
        expected = 1 if any(r.rejected for r in paired_tests(counts, alpha=ALPHA, test=test)) else 0
        found = [(m.regressions, m.improvements) for m in decision.metrics]
        if decision.exit_code != expected or found != counts:
            wrong += 1
        alarms += decision.exit_code == 1
    return wrong, alarms


# -- exact rates ----------------------------------------------------------------------------------


def _exact_family_rate(test: str) -> float:
    """P(Holm rejects any of the five) = P(min p <= alpha/5): the metrics are independent."""
    from fairwitness.stats import binom_pmf, mcnemar

    discordance = 2 * PASS_RATE * (1 - PASS_RATE)
    level = ALPHA / len(METRICS)
    single = 0.0
    for d in range(CASES + 1):
        weight = binom_pmf(d, CASES, discordance)
        if weight < 1e-16:
            continue
        for r in range(d + 1):
            if mcnemar(r, d - r, method=test) <= level:
                single += weight * binom_pmf(r, d, 0.5)
    return 1.0 - (1.0 - single) ** len(METRICS)


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    """Simulate the gate under the null; one row per figure."""
    from fairwitness.gate import paired_tests
    from fairwitness.stats import mcnemar

    command = COMMAND + (" --quick" if quick else "")
    replications = QUICK_REPLICATIONS if quick else REPLICATIONS
    checked = QUICK_CHECKED if quick else CHECKED
    rng = random.Random(SEED)
    alarms = {"midp": 0, "exact": 0, "unadjusted": 0}
    disagreements = checked_alarms = 0
    for rep in range(replications):
        baseline, candidate = _draw(rng), _draw(rng)
        counts = _counts(baseline, candidate)
        for test in TESTS:
            results = paired_tests(counts, alpha=ALPHA, test=test)
            alarms[test] += any(result.rejected for result in results)
        alarms["unadjusted"] += any(mcnemar(r, i) <= ALPHA for r, i in counts)
        if rep < checked:
            wrong, alarmed = _disagreements(baseline, candidate)
            disagreements += wrong
            checked_alarms += alarmed
    shifted = random.Random(SEED + 1)
    for _ in range(SHIFTED):
        wrong, alarmed = _disagreements(_draw(shifted), _draw(shifted, DROPPED_RATE))
        disagreements += wrong
        checked_alarms += alarmed
    rates = {key: count / replications for key, count in alarms.items()}
    for key, rate in rates.items():
        _log(f"{key}: {rate:.2%} of {replications} replications raised an alarm")

    setting = (
        f"{len(METRICS)} gated metrics, {CASES} paired cases, pass rate {PASS_RATE:g} in both, "
        f"{replications:,} seeded replications"
    )

    def stderr(rate: float) -> str:
        return f"Monte Carlo s.e. {100 * math.sqrt(rate * (1 - rate) / replications):.2f} pts"

    rows = [
        row(
            f"null, no real change: family-wise false-alarm rate, Holm at alpha {ALPHA:g}, "
            f"one-sided McNemar {test} ({setting}; {stderr(rates[test])})",
            100.0 * rates[test],
            "%",
            100.0 * ALPHA,
            rates[test] <= ALPHA,
            command,
        )
        for test in TESTS
    ]
    rows.append(
        row(
            f"null: rate at which any metric's unadjusted mid-p test rejects at {ALPHA:g}, the "
            f"alarms a gate without Holm would raise ({setting}; informational)",
            100.0 * rates["unadjusted"],
            "%",
            None,
            None,
            command,
        )
    )
    for test in TESTS:
        rows.append(
            row(
                f"null: exact family-wise false-alarm rate, Holm, {test} (summed over every "
                f"count, not simulated: the reference for the rows above; informational)",
                100.0 * _exact_family_rate(test),
                "%",
                None,
                None,
                command,
            )
        )
    rows.append(
        row(
            f"disagreements between decide() on pipeline-built reports and the simulation, over "
            f"the first {checked} null replications and {SHIFTED} with a real drop in one metric, "
            f"x {len(TESTS)} tests ({checked_alarms} of them regressions)",
            float(disagreements),
            "decisions",
            0.0,
            disagreements == 0,
            command,
        )
    )
    rows += _stochastic_rows.collect(quick=quick, command=command)
    rows += _endtoend.collect(quick=quick, command=command)
    return rows
