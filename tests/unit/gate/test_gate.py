"""The gate's decision on reports built by the real pipeline (Runner, ScoreBoard, build_report)
with deterministic in-process targets; invalid cases are JSON edits of such reports."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from builders import CLAIM, CRASH, FAIL, PASS, SLIP, SLIPS, build, edit, plan_of
from fairwitness import Report
from fairwitness.errors import EXIT_INCONCLUSIVE, EXIT_INVALID, EXIT_MUST_PASS, EXIT_REGRESSION
from fairwitness.gate import (
    Decision,
    GateSettings,
    audit_report,
    decide,
    detectable_drop,
    paired_tests,
)
from fairwitness.scoring import BUILTIN_SCORERS
from fairwitness.stats import holm, mcnemar

ALL_PASS = plan_of(40, lambda i: [PASS])
BASE = build(ALL_PASS)


def flipped(k: int, n: int = 40, to: str = FAIL) -> Report:
    return build(plan_of(n, lambda i: [to if i < k else PASS]))


def metric(decision: Decision, name: str) -> Any:
    return next(m for m in decision.metrics if m.name == name)


def has(decision: Decision, text: str) -> bool:
    return any(text in reason for reason in decision.reasons)


# -- pass, and what "pass" says -----------------------------------------------------------------


def test_identical_reports_pass_and_state_what_could_have_been_detected() -> None:
    decision = decide(BASE, build(ALL_PASS))
    assert (decision.exit_code, decision.verdict) == (0, "pass")
    assert [m.name for m in decision.metrics] == ["route"]
    route = metric(decision, "route")
    assert (route.n, route.regressions, route.improvements, route.p) == (40, 0, 0, 1.0)
    assert route.detectable_drop is not None and 0 < route.detectable_drop < 1
    assert "80% power" in route.power_note and "40 paired cases" in route.power_note
    (reason,) = decision.reasons
    assert reason.startswith("no regression detected in 1 gated metric(s)")
    assert "smallest change detectable with 80% power: route 0.147" in reason
    for text in (*decision.reasons, json.dumps(decision.json_data())):
        assert text.replace("no regression detected", "").find("no regression") == -1


def test_an_improvement_never_fails() -> None:
    worse = flipped(12)
    decision = decide(worse, BASE)
    assert decision.exit_code == 0
    route = metric(decision, "route")
    assert (route.regressions, route.improvements, route.rejected) == (0, 12, False)
    assert route.p == pytest.approx(1.0 - 0.5**13)
    assert route.delta == pytest.approx(0.3)


# -- regression ---------------------------------------------------------------------------------


def test_twelve_flips_are_a_regression() -> None:
    decision = decide(BASE, flipped(12))
    assert (decision.exit_code, decision.verdict) == (EXIT_REGRESSION, "regression")
    route = metric(decision, "route")
    assert (route.baseline, route.candidate) == (1.0, pytest.approx(0.7))
    assert (route.n, route.regressions, route.improvements) == (40, 12, 0)
    assert route.p == pytest.approx(0.5**13)  # mid-p: P(X = 12)/2 for X ~ Bin(12, 1/2)
    assert route.rejected and route.p_adjusted == route.p
    assert decision.reasons[0].startswith("'route' regressed: 12 of 40 paired cases")


def test_mid_p_rejects_four_flips_where_the_exact_test_does_not() -> None:
    cand = flipped(4)
    mid = decide(BASE, cand, GateSettings(test="midp"))
    exact = decide(BASE, cand, GateSettings(test="exact"))
    assert metric(mid, "route").p == pytest.approx(0.03125)
    assert metric(exact, "route").p == pytest.approx(0.0625)
    assert (mid.exit_code, exact.exit_code) == (EXIT_REGRESSION, 0)
    assert (mid.test, exact.test) == ("midp", "exact")


def test_holm_adjusts_across_the_gated_metrics() -> None:
    base = build(ALL_PASS, claims=True)
    cand = build(plan_of(40, lambda i: [FAIL if i < 4 else PASS]), claims=True)
    both = decide(base, cand)
    assert [m.name for m in both.metrics] == ["route", "forbidden_claims"]
    route = metric(both, "route")
    assert route.p == pytest.approx(0.03125) and route.p_adjusted == pytest.approx(0.0625)
    assert both.exit_code == 0 and both.power_alpha == pytest.approx(0.025)
    alone = decide(base, cand, GateSettings(gated=["route"]))
    assert alone.exit_code == EXIT_REGRESSION and metric(alone, "route").p_adjusted == 0.03125


def test_a_safety_metric_regresses_when_its_bad_outcome_appears() -> None:
    base = build(ALL_PASS, claims=True)
    cand = build(plan_of(40, lambda i: [CLAIM if i < 10 else PASS]), claims=True)
    decision = decide(base, cand)
    claims = metric(decision, "forbidden_claims")
    assert (claims.regressions, claims.rejected) == (10, True)
    assert metric(decision, "route").regressions == 0
    assert decision.exit_code == EXIT_REGRESSION


def test_a_lower_is_better_metric_counts_a_new_hit_as_a_regression() -> None:
    scorers = (*BUILTIN_SCORERS, SLIPS)
    base = build(ALL_PASS, scorers=scorers)
    cand = build(plan_of(40, lambda i: [SLIP if i < 10 else PASS]), scorers=scorers)
    slips = metric(decide(base, cand), "slips")
    assert (slips.higher_is_better, slips.baseline, slips.candidate) == (False, 0.0, 0.25)
    assert (slips.regressions, slips.improvements, slips.rejected) == (10, 0, True)
    assert "a rise of" in slips.power_note
    back = metric(decide(cand, base), "slips")
    assert (back.regressions, back.improvements, back.rejected) == (0, 10, False)


def test_floors_compare_the_candidates_recomputed_value() -> None:
    scorers = (*BUILTIN_SCORERS, SLIPS)
    base = build(ALL_PASS, scorers=scorers)
    cand = build(
        plan_of(40, lambda i: [SLIP if i == 0 else FAIL if i < 3 else PASS]), scorers=scorers
    )
    held = decide(base, cand, GateSettings(floors={"route": 0.95, "slips_max": 0.05}))
    assert held.exit_code == 0
    assert "floors held: route 0.95 >= 0.95, slips 0.025 <= 0.05" in held.reasons[0]
    broken = decide(base, cand, GateSettings(floors={"route": 0.96, "slips_max": 0.02}))
    assert broken.exit_code == EXIT_REGRESSION
    assert has(broken, "floor breached: 'route' is 0.95 in candidate (k = 38 of n = 40)")
    assert has(broken, "floor breached: 'slips' is 0.025 in candidate (k = 1 of n = 40)")
    assert metric(broken, "slips").floor_kind == "max" and metric(broken, "slips").floor_breached


def test_a_floor_on_a_metric_that_is_not_gated_is_reported_too() -> None:
    base = build(ALL_PASS, expect={"route": "yes", "facts": ["done"]})
    decision = decide(base, base, GateSettings(floors={"facts": 0.5}))
    facts = metric(decision, "facts")
    assert (facts.gated, facts.candidate, facts.floor, facts.p) == (False, 1.0, 0.5, None)
    assert decision.exit_code == 0


def test_floors_alone_can_pass_when_no_pass_fail_metric_is_measured() -> None:
    facts = build(ALL_PASS, expect={"facts": ["done"]})
    decision = decide(facts, facts, GateSettings(floors={"facts": 0.9}))
    assert decision.exit_code == 0 and decision.power_alpha is None
    assert decision.reasons == [
        "no pass/fail metric is measured in both reports, so no paired test was run; "
        "floors held: facts 1 >= 0.9"
    ]


def test_too_few_paired_cases_give_no_detectable_drop() -> None:
    two = build(plan_of(2, lambda i: [PASS]))
    decision = decide(two, two)
    route = metric(decision, "route")
    assert route.detectable_drop is None and "too few" in route.power_note
    assert decision.reasons[0].endswith("route none (too few paired cases)")


# -- must-pass and inconclusive ------------------------------------------------------------------


def test_a_failed_must_pass_case_is_exit_2_and_named() -> None:
    base = build(ALL_PASS, must_pass=["c3"])
    cand = build(plan_of(40, lambda i: [FAIL if i == 3 else PASS]), must_pass=["c3"])
    decision = decide(base, cand)
    assert (decision.exit_code, decision.verdict) == (EXIT_MUST_PASS, "must-pass failed")
    assert decision.reasons == ["1 must-pass case(s) failed in candidate: c3 (route)"]
    assert decide(base, build(ALL_PASS, must_pass=["c3"])).exit_code == 0


def test_a_must_pass_case_whose_every_repeat_crashed_fails_without_a_score() -> None:
    plan = plan_of(10, lambda i: [CRASH, CRASH] if i == 0 else [PASS, PASS])
    base = build(plan_of(10, lambda i: [PASS, PASS]), must_pass=["c0"], bare=["c0"])
    cand = build(plan, must_pass=["c0"], bare=["c0"])
    assert cand.complete and cand.cases["c0"].scores == {}
    decision = decide(base, cand)
    assert decision.exit_code == EXIT_MUST_PASS
    assert decision.reasons == [
        "1 must-pass case(s) failed in candidate: c0 (all 2 repeats crashed or timed out)"
    ]
    gone = edit(cand, lambda d: d["cases"].pop("c0"))
    assert has(decide(base, gone, GateSettings(max_unpaired=1)), "c0 (not in the candidate)")


def test_instability_is_shown_and_decided_by_the_rate_test_not_refused() -> None:
    shaky = build(plan_of(40, lambda i: [PASS, FAIL, PASS] if i < 5 else [PASS] * 3))
    base = build(plan_of(40, lambda i: [PASS] * 3))
    assert shaky.stability.unstable_share == pytest.approx(0.125)
    decision = decide(base, shaky)
    route = metric(decision, "route")
    # the majority of three still passes everywhere: McNemar on collapsed outcomes sees nothing
    assert (route.regressions, route.improvements, route.mcnemar_p) == (0, 0, 1.0)
    # five cases lost a third of their passes, none gained: sign flips, mid-p 2**-5 / 2
    assert route.test == "sign-flip"
    assert route.rate_baseline == 1.0 and route.rate_candidate == pytest.approx(1 - 5 / 120)
    assert route.p == pytest.approx(2.0**-6)
    assert (decision.exit_code, decision.verdict) == (EXIT_REGRESSION, "regression")
    assert decision.reasons[0].startswith(
        "'route' regressed: per-trial rate 1.000 -> 0.958 over 40 paired cases (0 went from "
        "good to bad, 0 from bad to good); one-sided sign-flip test p = 0.0156"
    )


def test_a_configured_instability_limit_is_inconclusive() -> None:
    shaky = build(plan_of(40, lambda i: [PASS, FAIL, PASS] if i < 5 else [PASS] * 3))
    base = build(plan_of(40, lambda i: [PASS] * 3))
    decision = decide(base, shaky, GateSettings(max_unstable_rate=0.1))
    assert (decision.exit_code, decision.verdict) == (EXIT_INCONCLUSIVE, "inconclusive")
    assert "12.5% of the cases of candidate are unstable (5 of 40" in decision.reasons[0]
    assert decision.reasons[0].endswith("above the max_unstable_rate 10.0% set for this gate")
    assert decide(base, shaky, GateSettings(max_unstable_rate=0.2)).exit_code == EXIT_REGRESSION


def test_a_blind_probe_set_is_inconclusive_only_when_asked() -> None:
    cand = build(ALL_PASS)
    assert cand.diagnostics["blindness"]["blind"] is True
    assert decide(BASE, cand).exit_code == 0
    decision = decide(BASE, cand, GateSettings(fail_on_vacuous=True))
    assert decision.exit_code == EXIT_INCONCLUSIVE
    assert has(decision, "the probe set is blind")


def test_precedence_invalid_then_must_pass_then_inconclusive_then_regression() -> None:
    base = build(plan_of(40, lambda i: [PASS] * 3), must_pass=["c0"])
    cand = build(
        plan_of(
            40, lambda i: [FAIL] * 3 if i < 12 else [PASS, FAIL, PASS] if i < 20 else [PASS] * 3
        ),
        must_pass=["c0"],
        model="model-b",
    )
    decision = decide(base, cand, GateSettings(max_unstable_rate=0.1))
    assert decision.exit_code == EXIT_INVALID
    assert [r.split(" ")[0] for r in decision.reasons[:3]] == ["field", "1", "20.0%"]
    assert has(decision, "'route' regressed")
    relaxed = decide(base, cand, GateSettings(allow_model_change=True, max_unstable_rate=0.1))
    assert relaxed.exit_code == EXIT_MUST_PASS and len(relaxed.reasons) == 3
    assert relaxed.notes == [
        "field 'run.models' differs: baseline has ['model-a'], candidate has ['model-b']; "
        "compared anyway (allow_model_change)"
    ]


# -- invalid ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("suite",), "other", "suite"),
        (("suite_version",), "2", "suite_version"),
        (("split_hash",), "sha256:00", "split_hash"),
        (("scoring", "patterns_version"), "fw-labeller/0", "scoring.patterns_version"),
    ],
)
def test_reports_of_different_things_are_invalid(
    path: tuple[str, ...], value: str, field: str
) -> None:
    def change(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    decision = decide(BASE, edit(BASE, change))
    assert (decision.exit_code, decision.verdict) == (EXIT_INVALID, "invalid")
    assert decision.reasons[0].startswith(f"field '{field}' differs: baseline has ")
    assert f"candidate has {value!r}" in decision.reasons[0]


def test_a_different_suite_built_by_the_pipeline_is_invalid() -> None:
    decision = decide(BASE, build(ALL_PASS, suite="other"))
    assert decision.exit_code == EXIT_INVALID and has(decision, "field 'suite' differs")


def test_a_model_change_is_invalid_unless_allowed() -> None:
    cand = build(ALL_PASS, model="model-b")
    decision = decide(BASE, cand, baseline_name="b.json", candidate_name="c.json")
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons[0] == (
        "field 'run.models' differs: baseline b.json has ['model-a'], candidate c.json has "
        "['model-b']; allow a model change (--allow-model-change) to compare them"
    )
    assert decide(BASE, cand, GateSettings(allow_model_change=True)).exit_code == 0
    shuffled = edit(BASE, lambda d: d["run"].update(models=["model-a", "model-a"]))
    assert decide(BASE, shuffled).exit_code == 0  # compared as sets


def test_an_incomplete_run_is_invalid_and_says_which_and_why() -> None:
    cut = build(ALL_PASS, max_calls=30)
    assert not cut.complete
    decision = decide(BASE, cut, candidate_name="cand.json")
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons[0] == (
        "candidate cand.json is incomplete (field 'complete' is false): budget: max_calls=30 "
        "reached; the gate compares only complete runs"
    )
    assert decide(cut, BASE).reasons[0].startswith("baseline is incomplete")


def test_a_misspelled_floor_never_passes_silently() -> None:
    decision = decide(BASE, BASE, GateSettings(floors={"rout": 0.5}))
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons == [
        "unknown metric 'rout' in the floors (--floor); did you mean 'route'?"
    ]
    typo = decide(BASE, BASE, GateSettings(floors={"misreport_as_empty_mx": 0.1}))
    assert typo.reasons[0].endswith("did you mean 'misreport_as_empty_max'?")
    far = decide(BASE, BASE, GateSettings(floors={"zzz": 0.1}))
    assert "known: args, facts, failure_handling, false_alarm_max," in far.reasons[0]


def test_a_misspelled_gated_metric_is_invalid_with_a_suggestion() -> None:
    decision = decide(BASE, BASE, GateSettings(gated=["roote"]))
    assert decision.exit_code == EXIT_INVALID
    assert has(decision, "unknown metric 'roote' in the gated metrics (--metric); did you mean")


def test_floor_bounds_must_match_the_metrics_direction_and_range() -> None:
    wrong = decide(BASE, BASE, GateSettings(floors={"misreport_as_empty": 0.1, "route_max": 0.5}))
    assert wrong.reasons == [
        "floor 'misreport_as_empty': 'misreport_as_empty' is lower-is-better, so its bound is a "
        "maximum: write it as 'misreport_as_empty_max'",
        "floor 'route_max': 'route' is higher-is-better, so its bound is a minimum: write it as "
        "'route'",
    ]
    percent = decide(BASE, BASE, GateSettings(floors={"route": 95}))
    assert percent.reasons == ["floor 'route' = 95 is not a proportion between 0 and 1"]


def test_a_floor_on_an_unmeasured_metric_is_invalid() -> None:
    decision = decide(BASE, BASE, GateSettings(floors={"false_alarm_max": 0.02}))
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons == [
        "floor 'false_alarm_max': 'false_alarm' was not measured in candidate (n = 0); "
        "nothing measured cannot pass a floor"
    ]


def test_a_gated_metric_must_be_in_both_scorer_lists_and_measured() -> None:
    unlisted = edit(
        BASE,
        lambda d: (d["scoring"]["metrics"].remove("verdict"), d["metrics"].pop("verdict")),
    )
    decision = decide(BASE, unlisted, GateSettings(gated=["route", "verdict"]))
    assert decision.reasons == [
        "gated metric 'verdict' is not among the scorers of candidate (field 'scoring.metrics')"
    ]
    empty = decide(BASE, BASE, GateSettings(gated=["verdict"]))
    assert empty.reasons[0] == (
        "gated metric 'verdict' has no case measured in both reports: nothing to compare"
    )
    facts = build(ALL_PASS, expect={"route": "yes", "facts": ["done"]})
    continuous = decide(facts, facts, GateSettings(gated=["facts"]))
    assert continuous.exit_code == 0  # tested on its per-case means (test_gate_continuous.py)
    assert [m.name for m in continuous.metrics if m.gated] == ["facts"]


def test_nothing_to_gate_is_invalid() -> None:
    bare = build(ALL_PASS, expect={})
    decision = decide(bare, bare)
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons == [
        "nothing to gate: no pass/fail metric is measured in both reports and no floor is set"
    ]


def test_missing_cases_above_max_unpaired_are_invalid() -> None:
    fewer = build(plan_of(38, lambda i: [PASS]))
    fewer = fewer.model_copy(update={"split_hash": BASE.split_hash})
    decision = decide(BASE, fewer)
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons == [
        "2 case(s) of baseline are missing from candidate (max_unpaired 0): c38, c39"
    ]
    assert decision.unpaired == {"missing_from_candidate": ["c38", "c39"], "new_in_candidate": []}
    allowed = decide(BASE, fewer, GateSettings(max_unpaired=2))
    assert allowed.exit_code == 0 and metric(allowed, "route").n == 38
    assert allowed.notes[0].startswith("2 case(s) of baseline are missing from candidate")


def test_cases_only_in_the_candidate_are_reported_not_invalid() -> None:
    more = build(plan_of(42, lambda i: [PASS]))
    more = more.model_copy(update={"split_hash": BASE.split_hash})
    decision = decide(BASE, more)
    assert decision.exit_code == 0
    assert decision.unpaired["new_in_candidate"] == ["c40", "c41"]
    assert decision.notes == ["2 case(s) only in candidate, not compared: c40, c41"]
    assert metric(decision, "route").n == 40


def test_an_edited_stored_metric_is_refused() -> None:
    forged = edit(BASE, lambda d: d["metrics"]["route"].update(k=39.0, value=39 / 40))
    decision = decide(forged, BASE, baseline_name="base.json")
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons == [
        "baseline base.json: field 'metrics.route': stored k=39, n=40 (per-trial rate 0.975) "
        "but the per-case scores give k=40, n=40 (per-trial rate 1.0)"
    ]
    wrong_n = edit(BASE, lambda d: d["metrics"]["route"].update(n=41))
    assert has(decide(BASE, wrong_n), "candidate: field 'metrics.route': stored k=40, n=41")


def test_an_edited_per_case_value_is_refused_even_when_the_metric_agrees() -> None:
    def change(data: dict[str, Any]) -> None:
        data["cases"]["c0"]["scores"]["route"] = 0.0
        data["metrics"]["route"].update(k=39.0, value=39 / 40)

    forged = edit(BASE, change)
    assert audit_report(forged, "x").totals["route"] == (39.0, 40)
    decision = decide(BASE, forged)
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons[0] == (
        "candidate: field 'cases.*.scores.route': the stored per-case value disagrees with the "
        "case's repeats (majority) in 1 case(s): c0 (case 'c0' stores 0.0, its repeats collapse "
        "to 1.0)"
    )
    assert metric(decision, "route").regressions == 1  # the forged value is still compared


def test_a_candidate_with_its_cases_in_another_order_pairs_them_by_id() -> None:
    cand = flipped(12)
    shuffled = edit(cand, lambda d: d.update(cases=dict(reversed(d["cases"].items()))))
    assert list(shuffled.cases) != list(cand.cases)
    assert decide(BASE, shuffled).json_data() == decide(BASE, cand).json_data()
    regressed = metric(decide(BASE, shuffled), "route").regressed_ids
    assert regressed == tuple(f"c{i}" for i in range(12))  # in the baseline's order


def test_fractional_per_case_values_are_summed_in_dataset_order() -> None:
    """Whole-number values are counted; any other value is added case by case, in order, so the
    total is the one a plain loop over the cases gives (floating-point addition is not
    associative)."""
    values = [0.1, 0.7, 1.0, 0.2, 0.3, 1.0, 0.0, 0.6] * 5

    def change(data: dict[str, Any]) -> None:
        for case, value in zip(data["cases"].values(), values, strict=True):
            case["scores"]["route"] = value

    forged = edit(BASE, change)
    total = 0.0
    for value in values:
        total += value
    assert audit_report(forged, "x").totals["route"] == (total, 40)
    assert audit_report(BASE, "x").totals["route"] == (40.0, 40)  # counted


def test_a_builtin_metric_with_a_forged_direction_is_refused() -> None:
    forged = edit(BASE, lambda d: d["metrics"]["route"].update(higher_is_better=False))
    assert has(decide(BASE, forged), "disagree with the built-in metric ('majority', True)")


def test_a_custom_metric_is_audited_by_its_stored_collapse_rule() -> None:
    scorers = (*BUILTIN_SCORERS, SLIPS)
    report = build(plan_of(10, lambda i: [SLIP, PASS] if i < 3 else [PASS, PASS]), scorers=scorers)
    audit = audit_report(report, "x")
    assert audit.problems == [] and audit.totals["slips"] == (3.0, 10)  # any-hit
    unknown = edit(report, lambda d: d["metrics"]["slips"].update(collapse="mean"))
    assert audit_report(unknown, "x").problems == [
        "x: field 'metrics.slips': cannot tell how custom metric 'slips' collapses its repeats "
        "(no stored metric with a known collapse)"
    ]
    flipped_kind = edit(report, lambda d: d["metrics"]["slips"].update(collapse="majority"))
    assert has(decide(report, flipped_kind), "metric 'slips' is safety")


def test_audit_of_pipeline_reports_finds_nothing() -> None:
    shaky = build(plan_of(20, lambda i: [PASS, FAIL, CLAIM] if i % 3 else [CRASH, PASS, PASS]))
    assert audit_report(shaky, "x").problems == []


# -- settings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [
        {"alpha": 0.0},
        {"alpha": 0.5},
        {"test": "chi2"},
        {"gated": []},
        {"gated": [" "]},
        {"floors": {"route": math.nan}},
        {"floors": {"route": math.inf}},
        {"max_unstable_rate": 1.5},
        {"max_unpaired": -1},
        {"max_unpaired": 1.5},
        {"surprise": True},
    ],
)
def test_bad_settings_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        GateSettings(**bad)


def test_settings_defaults_and_duplicate_gated_names() -> None:
    s = GateSettings()
    assert (s.alpha, s.test, s.gated, s.floors) == (0.05, "midp", None, {})
    assert (s.max_unstable_rate, s.max_unpaired, s.fail_on_vacuous) == (None, 0, False)
    assert s.must_detect is None
    assert GateSettings(gated=["route", "route"]).gated == ["route"]


# -- the decision as data -----------------------------------------------------------------------


def test_json_data_is_json_safe_and_has_the_promised_keys() -> None:
    decision = decide(BASE, flipped(12), GateSettings(floors={"route": 0.9}))
    data = json.loads(json.dumps(decision.json_data()))
    assert data["exit_code"] == 1 and data["verdict"] == "regression"
    assert len(data["reasons"]) == 2 and data["alpha"] == 0.05 and data["test"] == "midp"
    (route,) = data["metrics"]
    for key in (
        "name",
        "baseline",
        "candidate",
        "delta",
        "n",
        "regressions",
        "improvements",
        "p",
        "p_adjusted",
        "rejected",
        "detectable_drop",
        "power_note",
    ):
        assert key in route
    assert route["floor"] == 0.9 and route["floor_breached"] is True
    assert data["unpaired"] == {"missing_from_candidate": [], "new_in_candidate": []}
    assert data["power"]["alpha"] == 0.05 and data["power"]["level"] == 0.8


def test_paired_tests_are_mcnemar_then_holm() -> None:
    counts = [(12, 0), (4, 0), (3, 5)]
    for test in ("midp", "exact"):
        expected = holm([mcnemar(r, i, method=test) for r, i in counts], 0.05)
        assert paired_tests(counts, alpha=0.05, test=test) == expected


# -- the power statement ------------------------------------------------------------------------


def test_no_pairs_give_no_detectable_drop_with_a_reason() -> None:
    found = detectable_drop(0, 0, alpha=0.05)
    assert found.drop is None and found.reason is not None and "measured" in found.reason
    few = detectable_drop(2, 0, alpha=0.05)
    assert few.drop is None and few.reason is not None and "too few" in few.reason
    with pytest.raises(ValueError, match="discordant"):
        detectable_drop(5, 6, alpha=0.05)
    with pytest.raises(ValueError, match="alpha"):
        detectable_drop(5, 1, alpha=0.5)


@pytest.mark.parametrize(
    ("n", "discordant", "alpha"), [(100, 20, 0.05), (40, 0, 0.05), (500, 7, 0.01)]
)
def test_detectable_drop_solves_connors_equation(n: int, discordant: int, alpha: float) -> None:
    from scipy.stats import norm
    from statsmodels.stats.power import normal_power_het, normal_sample_size_one_tail

    delta = detectable_drop(n, discordant, alpha=alpha).drop
    assert delta is not None
    psi = min(1.0, discordant / n + delta)  # the discordance with the drop present
    null, alternative = math.sqrt(psi), math.sqrt(psi - delta**2)
    # Connor (1987): n = (z_a sqrt(psi) + z_b sqrt(psi - delta^2))^2 / delta^2
    connor_n = ((norm.ppf(1 - alpha) * null + norm.ppf(0.8) * alternative) / delta) ** 2
    assert connor_n == pytest.approx(n, rel=1e-8)
    power = normal_power_het(delta, n, alpha, null, alternative, alternative="larger")
    assert power == pytest.approx(0.8, abs=1e-8)
    assert normal_sample_size_one_tail(delta, 0.8, alpha, null, alternative) == pytest.approx(n)


@pytest.mark.parametrize(("n", "discordant", "alpha"), [(100, 20, 0.05), (150, 30, 0.01)])
def test_detectable_drop_has_about_80_percent_power_in_a_brute_force_simulation(
    n: int, discordant: int, alpha: float
) -> None:
    delta = detectable_drop(n, discordant, alpha=alpha).drop
    assert delta is not None
    psi = min(1.0, discordant / n + delta)  # the discordance with the drop present
    worse, better = (psi + delta) / 2, (psi - delta) / 2
    rng = random.Random(20240601 + n)
    reps = 3000
    hits = {"midp": 0, "exact": 0}
    for _ in range(reps):
        regressions = improvements = 0
        for _ in range(n):
            u = rng.random()
            if u < worse:
                regressions += 1
            elif u < worse + better:
                improvements += 1
        for test in hits:
            hits[test] += mcnemar(regressions, improvements, method=test) <= alpha
    midp, exact = hits["midp"] / reps, hits["exact"] / reps
    assert 0.75 <= midp <= 0.88  # the normal approximation is close for the mid-p test
    assert exact < midp  # and somewhat optimistic for the conservative exact test


@settings(max_examples=200, deadline=None)
@given(
    base_n=st.integers(1, 150),
    share=st.floats(0.0, 1.0),
    small=st.integers(1, 20),
    extra=st.integers(1, 20),
    alpha=st.sampled_from([0.05, 0.01, 0.025, 0.01 / 3]),
)
def test_detectable_drop_shrinks_as_cases_are_added(
    base_n: int, share: float, small: int, extra: int, alpha: float
) -> None:
    discordant = round(share * base_n)
    big = small + extra
    # the same discordance rate at more cases
    a = detectable_drop(small * base_n, small * discordant, alpha=alpha).drop
    b = detectable_drop(big * base_n, big * discordant, alpha=alpha).drop
    if a is not None:
        assert b is not None and b <= a + 1e-9
    # the same discordant pairs among more cases
    c = detectable_drop(big * base_n, small * discordant, alpha=alpha).drop
    if a is not None:
        assert c is not None and c <= a + 1e-9


def test_reports_scored_with_different_settings_are_not_compared() -> None:
    base = build({f"c{i}": [PASS] for i in range(3)})
    data = base.model_dump(mode="json", by_alias=True)
    data["scoring"]["settings"]["tools_mode"] = "ordered"
    other = Report.model_validate(data)
    decision = decide(base, other, GateSettings())
    assert decision.exit_code == 4
    assert any("scoring.settings" in reason for reason in decision.reasons)
