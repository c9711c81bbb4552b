"""Per-case success rates through the real pipeline: the report's per-trial figures and pass^k,
their audit, and the gate's rate test, floors on pass^k, must_detect and old reports."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path
from typing import Any

import pytest

from builders import CLAIM, FAIL, PASS, build, edit, plan_of
from fairwitness import Report
from fairwitness.errors import EXIT_INCONCLUSIVE, EXIT_INVALID, EXIT_OK, EXIT_REGRESSION
from fairwitness.gate import GateSettings, audit_report, decide, rate_test
from fairwitness.gate._compare import ReportComparison
from fairwitness.stats import mcnemar, rate_detectable_drop, sign_flip

# five cases pass three of four repeats, five pass all four
MIXED = build(plan_of(10, lambda i: [PASS, FAIL, PASS, PASS] if i < 5 else [PASS] * 4))


def metric(decision: Any, name: str) -> Any:
    return next(m for m in decision.metrics if m.name == name)


def old_format(report: Report) -> Report:
    """``report`` as a version without per-trial rates wrote it: collapsed headlines only."""

    def strip(data: dict[str, Any]) -> None:
        for figures in data["metrics"].values():
            collapsed = figures.get("collapsed")
            if collapsed is not None:
                figures.update(
                    value=collapsed["value"],
                    k=collapsed["k"],
                    ci_low=collapsed["ci_low"],
                    ci_high=collapsed["ci_high"],
                )
            for key in ("headline", "trials", "successes", "per_trial", "collapsed", "pass_k"):
                figures.pop(key, None)

    return edit(report, strip)


# -- the report -----------------------------------------------------------------------------------


def test_a_capability_metric_headlines_its_per_trial_rate_and_keeps_the_majority() -> None:
    route = MIXED.metrics["route"]
    assert route.headline == "per_trial"
    assert (route.value, route.k, route.n) == (pytest.approx(0.875), pytest.approx(8.75), 10)
    assert (route.successes, route.trials) == (35, 40)
    assert route.per_trial is not None and route.per_trial.value == route.value
    assert route.collapsed is not None
    assert (route.collapsed.value, route.collapsed.k, route.collapsed.n) == (1.0, 10.0, 10)
    assert (route.ci_low, route.ci_high) == (route.per_trial.ci_low, route.per_trial.ci_high)
    assert route.ci_low is not None and route.ci_low < 0.875 < (route.ci_high or 0)


def test_pass_hat_k_and_pass_at_k_are_the_unbiased_estimators_averaged_over_cases() -> None:
    figures = {one.k: one for one in MIXED.metrics["route"].pass_k}
    assert sorted(figures) == [1, 2, 3, 4]
    for k, one in figures.items():
        hat = (5 * comb(3, k) / comb(4, k) + 5 * 1.0) / 10
        at = (5 * (1 - comb(1, k) / comb(4, k)) + 5 * 1.0) / 10
        assert one.cases == 10
        assert one.pass_hat == pytest.approx(hat) and one.pass_at == pytest.approx(at)
    # by hand: pass^2 = (5 x 3/6 + 5) / 10, pass^4 = 5 / 10, pass@2 = 1
    assert (figures[2].pass_hat, figures[4].pass_hat) == (pytest.approx(0.75), 0.5)
    assert figures[2].pass_at == 1.0
    assert figures[1].pass_hat == pytest.approx(MIXED.metrics["route"].value)


def test_a_safety_metric_keeps_any_hit_as_its_headline_and_shows_its_per_trial_rate() -> None:
    report = build(plan_of(12, lambda i: [CLAIM, PASS, PASS] if i < 3 else [PASS] * 3), claims=True)
    claims = report.metrics["forbidden_claims"]
    assert claims.headline == "collapsed" and claims.pass_k == []
    assert claims.value == pytest.approx(9 / 12)  # three cases said it once: three findings
    assert claims.per_trial is not None
    assert claims.per_trial.value == pytest.approx((3 * 2 / 3 + 9) / 12)
    assert (claims.successes, claims.trials) == (33, 36)


def test_one_repeat_per_case_makes_the_per_trial_rate_the_plain_count() -> None:
    report = build(plan_of(20, lambda i: [FAIL] if i < 4 else [PASS]))
    route = report.metrics["route"]
    assert route.collapsed is not None
    assert (route.value, route.k, route.trials) == (0.8, 16.0, 20)
    assert (route.ci_low, route.ci_high) == (route.collapsed.ci_low, route.collapsed.ci_high)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda m: m["route"]["per_trial"].update(value=0.9),
            "field 'metrics.route'.per_trial: stored value 0.9",
        ),
        (lambda m: m["route"].update(successes=36), "field 'metrics.route'.per_trial"),
        (
            lambda m: m["route"]["pass_k"][1].update(pass_hat=0.8),
            "field 'metrics.route'.pass_k (k = 2): stored pass^k 0.8",
        ),
        (
            lambda m: m["route"]["collapsed"].update(k=9.0),
            "field 'metrics.route'.collapsed: stored k=9",
        ),
        (
            lambda m: m["false_alarm"].update(headline="per_trial"),
            "field 'headline' is 'per_trial', but 'false_alarm' is a safety metric",
        ),
    ],
)
def test_a_forged_per_trial_figure_is_refused(change: Any, expected: str) -> None:
    forged = edit(MIXED, lambda d: change(d["metrics"]))
    problems = audit_report(forged, "candidate").problems
    assert any(expected in p for p in problems), problems
    assert decide(MIXED, forged).exit_code == EXIT_INVALID


# -- the rate test --------------------------------------------------------------------------------


def test_the_rate_test_is_the_sign_flip_test_on_per_case_drops() -> None:
    base = build(plan_of(30, lambda i: [PASS] * 3))
    cand = build(
        plan_of(
            30,
            lambda i: [FAIL, FAIL, PASS] if i < 4 else [PASS, PASS, FAIL] if i < 9 else [PASS] * 3,
        )
    )
    decision = decide(base, cand)
    route = metric(decision, "route")
    assert decision.power_alpha is not None
    drops = [2 / 3] * 4 + [1 / 3] * 5
    assert route.p == sign_flip(drops).p
    assert route.test == "sign-flip" and route.rate_n == 30 and route.exact
    assert route.rate_drop == pytest.approx(sum(drops) / 30)
    # the majority collapse sees only the four cases that lost two of three repeats
    assert (route.regressions, route.improvements) == (4, 0)
    assert route.mcnemar_p == mcnemar(4, 0)
    assert route.p < route.mcnemar_p
    assert route.mean_square == pytest.approx(sum(d * d for d in drops) / 30)
    assert route.detectable_drop == rate_detectable_drop(
        30, route.mean_square, alpha=decision.power_alpha
    )


def test_with_one_repeat_the_rate_test_is_mcnemar_and_says_so() -> None:
    base = build(plan_of(40, lambda i: [PASS]))
    cand = build(plan_of(40, lambda i: [FAIL] if i < 7 else [PASS]))
    route = metric(decide(base, cand), "route")
    assert route.test == "mcnemar" and route.p == mcnemar(7, 0) == route.mcnemar_p


def test_the_gate_and_rate_test_agree_and_a_report_against_itself_passes() -> None:
    gate = ReportComparison(MIXED, MIXED, GateSettings(), ("baseline", "candidate"))
    pairs = gate.rate_pairs("route")
    assert pairs.n == 10 and pairs.drops == [(0, 10)]
    assert rate_test(pairs, "route").p == 1.0
    decision = decide(MIXED, MIXED)
    assert decision.exit_code == EXIT_OK
    assert "sign-flip tests on per-case rates" in decision.reasons[0]


def test_a_report_written_before_per_trial_rates_gates_as_the_new_one_does() -> None:
    base = build(plan_of(30, lambda i: [PASS, PASS, FAIL] if i % 3 == 0 else [PASS] * 3))
    cand = build(plan_of(30, lambda i: [PASS, FAIL, FAIL] if i % 3 == 0 else [PASS] * 3))
    old = old_format(base)
    assert old.metrics["route"].headline == "collapsed" and old.metrics["route"].per_trial is None
    assert "headline" not in json.loads(old.to_json())["metrics"]["route"]
    assert audit_report(old, "baseline").problems == []
    new, mixed = decide(base, cand).json_data(), decide(old, cand).json_data()
    assert mixed == new
    assert metric(decide(old, cand), "route").baseline == pytest.approx((10 * 2 / 3 + 20) / 30)


# -- floors on pass^k and must_detect -------------------------------------------------------------


def test_a_floor_on_pass_hat_k_is_checked_against_the_candidate() -> None:
    floors = {"route.pass^4": 0.6, "route.pass@2": 0.9}
    decision = decide(MIXED, MIXED, GateSettings(floors=floors))
    assert decision.exit_code == EXIT_REGRESSION
    assert decision.reasons == [
        "floor breached: 'route.pass^4' is 0.5 in candidate (over 10 cases with 4 or more "
        "measured repeats), below the minimum 0.6"
    ]
    (hat, at) = metric(decision, "route").pass_floors
    assert (hat.which, hat.k, hat.value, hat.breached) == ("pass^k", 4, 0.5, True)
    assert (at.which, at.k, at.value, at.breached) == ("pass@k", 2, 1.0, False)
    assert decide(MIXED, MIXED, GateSettings(floors={"route.pass^3": 0.6})).exit_code == EXIT_OK


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("route.pass^5", "no case of candidate has 5 or more measured repeats"),
        ("false_alarm.pass^2", "pass^k and pass@k are defined for capability metrics"),
        ("rout.pass^2", "unknown metric 'rout.pass^2'"),
    ],
)
def test_a_pass_k_floor_that_cannot_be_checked_is_invalid(key: str, expected: str) -> None:
    decision = decide(MIXED, MIXED, GateSettings(floors={key: 0.5}))
    assert decision.exit_code == EXIT_INVALID
    assert any(expected in reason for reason in decision.reasons), decision.reasons


def test_must_detect_is_inconclusive_with_the_cases_or_repeats_that_would_do() -> None:
    # half the cases pass one of two repeats; in the candidate a quarter pass both, a quarter
    # neither: no drop on average, per-case noise of 0.125 in squared drops
    base = build(plan_of(60, lambda i: [PASS, FAIL] if i % 2 else [PASS, PASS]))
    cand = build(
        plan_of(
            60,
            lambda i: [PASS, PASS] if i % 4 == 1 else [FAIL, FAIL] if i % 4 == 3 else [PASS, PASS],
        )
    )
    assert decide(base, cand).exit_code == EXIT_OK
    decision = decide(base, cand, GateSettings(must_detect=0.1))
    assert decision.exit_code == EXIT_INCONCLUSIVE
    route = metric(decision, "route")
    assert route.detectable_drop is not None and route.detectable_drop > 0.1
    assert route.cases_needed is not None and route.cases_needed > 60
    alpha = decision.power_alpha
    assert alpha is not None
    assert rate_detectable_drop(route.cases_needed, route.mean_square, alpha=alpha) <= 0.1
    assert rate_detectable_drop(route.cases_needed - 1, route.mean_square, alpha=alpha) > 0.1
    reason = next(r for r in decision.reasons if r.startswith("'route'"))
    assert reason.startswith(
        "'route': this run cannot detect the drop it must (must_detect 0.1) with 80% power"
    )
    assert f"about {route.cases_needed} paired cases at these repeats" in reason
    # a 10-point drop needs more cases: repeats shrink the noise, not the cases that break
    assert route.repeats_needed is None and "more repeats alone would not, up to 20" in reason
    # a 15-point drop is in reach of 4 repeats on both sides: squared drops fall to 0.25 / 4
    wider = metric(decide(base, cand, GateSettings(must_detect=0.15)), "route")
    assert wider.repeats_needed == 4
    assert rate_detectable_drop(60, 0.25 / 4, alpha=alpha) <= 0.15
    assert rate_detectable_drop(60, 0.25 / 3, alpha=alpha) > 0.15
    assert decide(base, cand, GateSettings(must_detect=0.6)).exit_code == EXIT_OK


def test_the_decision_json_names_its_schema_and_validates_against_the_committed_one() -> None:
    import jsonschema

    root = Path(__file__).resolve().parents[3]
    schema = json.loads((root / "schemas" / "decision.schema.json").read_text(encoding="utf-8"))
    decision = decide(MIXED, MIXED, GateSettings(floors={"route.pass^4": 0.6}))
    data = json.loads(json.dumps(decision.json_data()))
    assert data["schema"] == "fairwitness.decision/1"
    assert list(data)[:3] == ["schema", "exit_code", "verdict"]
    assert data["summary"].startswith("regression: floor breached")
    assert data["power"]["alpha"] == decision.power_alpha and "power_alpha" not in data
    assert data["metrics"][0]["pass_floors"][0]["which"] == "pass^k"
    jsonschema.validate(data, schema)
    broken = {**data, "exit_code": "one"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
