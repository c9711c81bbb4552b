"""Gating a continuous metric: its per-case means over repeats, paired and tested by the sign-flip
test like a pass/fail metric's per-case rates, in Holm's family, with a power statement; and a
seeded simulation of the test's level and power at several noise levels."""

from __future__ import annotations

import asyncio
import random
import zlib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest

from builders import edit
from fairwitness import Case, Dataset, Report, Runner, current
from fairwitness.errors import EXIT_INCONCLUSIVE, EXIT_INVALID, EXIT_OK, EXIT_REGRESSION
from fairwitness.gate import GateSettings, decide, rate_test
from fairwitness.gate._rates import pair_means
from fairwitness.render import render_comment
from fairwitness.render._gate import gate_text
from fairwitness.report import build_report
from fairwitness.scoring import BUILTIN_SCORERS, ScoreBoard
from fairwitness.stats import holm, sign_flip

FACTS = ["alpha", "beta", "gamma", "delta"]
FACTS_SCORER = next(s for s in BUILTIN_SCORERS if s.name == "facts")


class _Sink:
    def write(self, trace: Any) -> int:
        return 1


def facts_report(plan: Mapping[str, Sequence[int]], *, route: Sequence[str] = ()) -> Report:
    """A report whose case ``c`` states ``plan[c][r]`` of the four facts in repeat ``r`` (a
    facts share of 0, 1/4, ... 1), run through the real pipeline; cases in ``route`` answer
    with the wrong route."""
    repeats = len(next(iter(plan.values())))
    data = Dataset(
        [Case(id=cid, input=cid, expect={"route": "yes", "facts": FACTS}) for cid in plan]
    )

    async def target(case: Case) -> dict[str, str]:
        ctx = current()
        stated = " ".join(FACTS[: plan[case.id][ctx.repeat]])
        return {"text": f"done {stated}", "verdict": "no" if case.id in route else "yes"}

    board = ScoreBoard(BUILTIN_SCORERS)
    runner = Runner(target, suite="s", repeats=repeats, concurrency=1, scoring=board)
    result = asyncio.run(runner.run(data, _Sink()))
    return build_report(
        result,
        data,
        board=ScoreBoard(BUILTIN_SCORERS),
        target="fake:target",
        seed=0,
        repeats=repeats,
        concurrency=1,
        timeout_s=None,
        mode="live",
    )


def metric(decision: Any, name: str) -> Any:
    return next(m for m in decision.metrics if m.name == name)


# 24 cases x 3 repeats: the baseline states all four facts; the candidate drops one or two facts
# in most cases, in some repeats only
BASE = facts_report({f"c{i}": [4, 4, 4] for i in range(24)})
WORSE = facts_report({f"c{i}": [3, 4, 2] if i % 3 else [4, 4, 4] for i in range(24)})


def test_a_continuous_metric_is_tested_on_its_per_case_means_when_named() -> None:
    decision = decide(BASE, WORSE, GateSettings(gated=["facts"]))
    facts = metric(decision, "facts")
    assert decision.exit_code == EXIT_REGRESSION
    assert facts.gated and facts.rejected and facts.test == "sign-flip"
    # per-case drops: 16 cases lose (1/4 + 0 + 2/4) / 3 = 1/4 of the facts on average, 8 none
    drops = [Fraction(1, 4)] * 16 + [Fraction(0)] * 8
    assert facts.p == sign_flip(drops, seed=zlib.crc32(b"facts")).p
    assert facts.p == rate_test(pair_means(FACTS_SCORER, _values(BASE, WORSE)), "facts").p
    assert (facts.rate_n, facts.rate_baseline) == (24, 1.0)
    assert facts.rate_candidate == pytest.approx(1 - 16 / 24 / 4)
    assert facts.mean_square == pytest.approx(16 / 24 / 16)
    assert facts.mcnemar_p is None and (facts.regressions, facts.improvements) == (0, 0)
    assert decision.reasons[0] == (
        f"'facts' regressed: per-case mean 1.000 -> 0.833 over 24 paired cases; one-sided "
        f"sign-flip test p = {facts.p:.3g}, Holm-adjusted {facts.p_adjusted:.3g} <= alpha 0.05"
    )


def _values(a: Report, b: Report) -> Any:
    for cid in a.cases:
        yield (
            [o.scores.get("facts") for o in a.cases[cid].repeats],
            [o.scores.get("facts") for o in b.cases[cid].repeats],
        )


def test_by_default_only_pass_fail_metrics_are_gated() -> None:
    decision = decide(BASE, WORSE)
    assert decision.exit_code == EXIT_OK
    assert [m.name for m in decision.metrics if m.gated] == ["route"]
    assert "facts" not in {m.name for m in decision.metrics}


def test_a_continuous_metric_joins_holms_family_and_gets_a_power_statement() -> None:
    worse = facts_report(
        {f"c{i}": [3, 4, 2] if i % 3 else [4, 4, 4] for i in range(24)}, route=["c0", "c3"]
    )
    decision = decide(BASE, worse, GateSettings(gated=["route", "facts"]))
    route, facts = metric(decision, "route"), metric(decision, "facts")
    adjusted = holm([route.p, facts.p], 0.05)
    assert (route.p_adjusted, facts.p_adjusted) == (adjusted[0].p_adjusted, adjusted[1].p_adjusted)
    assert decision.power_alpha == 0.025
    assert facts.detectable_drop is not None and 0 < facts.detectable_drop < 1
    assert facts.power_note.startswith("facts: with 24 paired cases (mean squared per-case diff")
    assert f"a drop of {facts.detectable_drop:.3f} or more in the per-case mean" in facts.power_note
    assert "(alpha/m, m = 2)" in facts.power_note


def test_a_continuous_metric_against_itself_passes_and_says_what_it_could_detect() -> None:
    noisy = facts_report({f"c{i}": [i % 5, (i + 2) % 5, 4] for i in range(30)})
    decision = decide(noisy, noisy, GateSettings(gated=["facts"]))
    facts = metric(decision, "facts")
    assert decision.exit_code == EXIT_OK and facts.p == 1.0 and not facts.rejected
    assert decision.reasons[0].startswith(
        "no regression detected in 1 gated metric(s) (one-sided sign-flip tests on per-case "
        "rates and means, midp, Holm at alpha 0.05)"
    )
    # the same cases, every repeat a new draw: the noise is in the per-case means themselves
    other = facts_report({f"c{i}": [(i + 1) % 5, (i + 3) % 5, 4] for i in range(30)})
    inconclusive = decide(noisy, other, GateSettings(gated=["facts"], must_detect=0.01))
    assert inconclusive.exit_code == EXIT_INCONCLUSIVE
    assert "it detects only a drop of" in inconclusive.reasons[0]
    assert "in the per-case mean;" in inconclusive.reasons[0]


def test_the_tables_show_no_flip_counts_for_a_continuous_metric() -> None:
    decision = decide(BASE, WORSE, GateSettings(gated=["route", "facts"]))
    lines = gate_text(decision).splitlines()
    assert lines[2].split()[8:11] == ["regr", "impr", "mcnemar"]
    route = next(line for line in lines if line.startswith("route ")).split()
    facts = next(line for line in lines if line.startswith("facts ")).split()
    assert route[6] == facts[6] == "sign-flip"
    assert route[8:11] == ["0", "0", "1"]
    assert facts[8:11] == ["-", "-", "-"]  # a per-case mean does not flip, nor has McNemar
    comment = render_comment(WORSE, BASE, decision)
    facts_row = next(line for line in comment.splitlines() if line.startswith("| facts |"))
    assert "(sign-flip)" in facts_row and "| 0 / 0 |" not in facts_row
    assert "sign-flip test on per-case success rates and means" in comment
    assert "'facts' regressed: per-case mean 1.000 -&gt; 0.833" in comment


def test_a_continuous_value_outside_zero_to_one_cannot_be_gated() -> None:
    def scale(data: dict[str, Any]) -> None:
        for case in data["cases"].values():
            for outcome in case["repeats"]:
                outcome["scores"]["facts"] = 4.0
            case["scores"]["facts"] = 4.0
        data["metrics"]["facts"].update(value=4.0, k=96.0, ci_low=4.0, ci_high=4.0)

    scaled = edit(BASE, scale)
    decision = decide(scaled, scaled, GateSettings(gated=["facts"]))
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons[0] == (
        "gated metric 'facts' is continuous with a per-trial value of 4, outside [0, 1]: the "
        "paired test on per-case means needs values between 0 and 1 (set a floor on it instead)"
    )


def test_pair_means_leaves_out_cases_unmeasured_on_either_side() -> None:
    found = pair_means(
        FACTS_SCORER,
        [([1.0, 0.5], [0.25, None]), ([None], [1.0]), ([0.5, None, 1.0], [0.75, 0.75, 0.75])],
    )
    assert found.n == 2 and not found.single and found.outside is None
    assert found.drops == [(Fraction(0), 1), (Fraction(1, 2), 1)]
    assert (found.trials_baseline, found.trials_candidate) == (4, 4)
    assert (found.baseline, found.candidate) == (0.75, 0.5)


# -- level and power, by seeded simulation -------------------------------------------------------

GRID = 20
"""Per-trial values are shares on a grid of 1/20 (a share of 20 facts, a rubric's 0-20 mark)."""
NOISE = ("none", "binomial", "beta c=2", "flaky fifth")
"""How a case's repeats vary around its latent mean mu (mu ~ Beta(8.5, 1.5), mean 0.85):
``none``: every repeat scores round(mu); ``binomial``: Binomial(20, mu) / 20; ``beta c=2``: a
Beta(2 mu, 2 (1 - mu)) draw (near 0 or 1, the noisiest), rounded to the grid; ``flaky fifth``:
a fifth of the cases draw Beta(1, 1) afresh on every repeat (any value), the rest are exact."""


def _trial(rng: random.Random, mu: float, noise: str, flaky: bool) -> float:
    if noise == "none" or (noise == "flaky fifth" and not flaky):
        return round(mu * GRID) / GRID
    if noise == "binomial":
        return sum(rng.random() < mu for _ in range(GRID)) / GRID
    if noise == "beta c=2":
        return round(rng.betavariate(max(2 * mu, 1e-9), max(2 * (1 - mu), 1e-9)) * GRID) / GRID
    return round(rng.random() * GRID) / GRID


def rejection_rate(
    noise: str, *, drop: float, cases: int = 40, repeats: int = 3, runs: int = 400, seed: int = 1
) -> float:
    """The share of ``runs`` seeded replications in which the gate's test on per-case means
    (``pair_means`` and ``rate_test``, as ``decide`` runs them) rejects at alpha 0.05, when every
    case's latent mean drops by ``drop`` times its own share of the overall mean 0.85."""
    rng = random.Random(zlib.crc32(f"{noise}/{drop}/{cases}/{repeats}/{seed}".encode()))
    rejected = 0
    for run in range(runs):
        pairs = []
        for _ in range(cases):
            mu = rng.betavariate(8.5, 1.5)
            flaky = rng.random() < 0.2
            after = mu * (1 - drop / 0.85)
            pairs.append(
                (
                    [_trial(rng, mu, noise, flaky) for _ in range(repeats)],
                    [_trial(rng, after, noise, flaky) for _ in range(repeats)],
                )
            )
        if rate_test(pair_means(FACTS_SCORER, pairs), f"sim{run}").p <= 0.05:
            rejected += 1
    return rejected / runs


@pytest.mark.parametrize("noise", NOISE)
def test_the_level_holds_at_every_noise_level(noise: str) -> None:
    # 1000 runs: Monte Carlo standard error sqrt(0.05 x 0.95 / 1000) = 0.0069; allow three
    assert rejection_rate(noise, drop=0.0, runs=1000) <= 0.05 + 3 * 0.0069


@pytest.mark.parametrize(("noise", "least"), [("none", 0.9), ("binomial", 0.7), ("beta c=2", 0.2)])
def test_a_real_drop_is_found(noise: str, least: float) -> None:
    assert rejection_rate(noise, drop=0.05, runs=300) >= least
