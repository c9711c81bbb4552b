"""Judge-derived numbers are shown and gated only when the judge is calibrated: the
``diagnostics.judge`` block, its rendering (both cases, every table, JSON, JUnit, README blocks,
hostile strings) and the gate (no test, no floor, a note; a floor or an explicit test on a
withheld metric is invalid)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from builders import CLAIM, PASS, SLIP, SLIPS, build, edit, plan_of
from fairwitness.errors import EXIT_INVALID, EXIT_OK, EXIT_REGRESSION
from fairwitness.gate import GateSettings, decide
from fairwitness.judge import (
    NO_LABELS,
    WITHHELD,
    CalibrationRecord,
    calibrate,
    judge_block,
    judge_summary,
    withheld_metrics,
)
from fairwitness.readme import Block, LoadedReport, render_block
from fairwitness.render import (
    render_comment,
    render_json,
    render_junit,
    render_summary,
    render_terminal,
)
from fairwitness.report import Report
from fairwitness.scoring import BUILTIN_SCORERS
from markdown_check import check

LOW_REASON = (
    "kappa 0.31 [0.10, 0.52] (95% interval, n=40): lower bound 0.10 is below 0.6: "
    "judge-derived numbers are withheld"
)
CALIBRATED: dict[str, Any] = {
    "measured": True,
    "labels": "judge-labels.jsonl",
    "n": 60,
    "kappa": 0.8429319371727748,
    "ci_low": 0.7223734755822556,
    "ci_high": 0.963490398763294,
    "threshold": 0.6,
    "publishable": True,
    "reason": "kappa 0.84 [0.72, 0.96] (95% interval, n=60): lower bound 0.72 reaches 0.6: "
    "judge-derived numbers may be published",
    "notes": [],
    "metrics": ["forbidden_claims"],
}
UNCALIBRATED: dict[str, Any] = {
    **CALIBRATED,
    "n": 40,
    "kappa": 0.31,
    "ci_low": 0.1,
    "ci_high": 0.52,
    "publishable": False,
    "reason": LOW_REASON,
}

BASE = build(plan_of(40, lambda i: [PASS, PASS]), claims=True)
# 12 of 40 cases start making a forbidden claim; the route stays right everywhere.
CLAIMS = build(plan_of(40, lambda i: [CLAIM, CLAIM] if i < 12 else [PASS, PASS]), claims=True)
CLAIMS_NUMBER = "28/40 = 70.0%"


def with_judge(report: Report, block: dict[str, Any]) -> Report:
    return edit(report, lambda d: d["diagnostics"].update(judge=block))


def rendered(cand: Report, base: Report | None = None) -> dict[str, str]:
    decision = decide(base, cand) if base is not None else None
    return {
        "comment": render_comment(cand, base, decision),
        "summary": render_summary(cand, base, decision),
        "terminal": render_terminal(cand, base, decision),
    }


def records(agree: int, n: int = 60) -> list[CalibrationRecord]:
    labels = ("acknowledged", "misreport", "unreadable")
    return [
        CalibrationRecord(
            f"r{i}", labels[i % 3], labels[i % 3] if i < agree else labels[(i + 1) % 3]
        )
        for i in range(n)
    ]


# -- the block ----------------------------------------------------------------------------------


def test_the_block_carries_the_calibration_and_its_decision() -> None:
    calibration = calibrate(records(agree=57))
    block = judge_block(calibration, labels="l.jsonl", threshold=0.6, metrics=["route"])
    decision = calibration.publishable(0.6)
    assert block["measured"] is True and block["publishable"] is True
    assert (block["n"], block["kappa"], block["ci_low"], block["ci_high"]) == (
        60,
        calibration.kappa.value,
        calibration.kappa.ci_low,
        calibration.kappa.ci_high,
    )
    assert (block["labels"], block["threshold"], block["metrics"]) == ("l.jsonl", 0.6, ["route"])
    assert block["reason"] == decision.reason
    assert json.loads(json.dumps(block, allow_nan=False)) == block
    assert withheld_metrics({"judge": block}) == {}


def test_a_weak_or_unestimated_judge_withholds_its_metrics() -> None:
    weak = judge_block(calibrate(records(agree=40)), labels="l", threshold=0.6, metrics=["route"])
    assert weak["publishable"] is False
    assert withheld_metrics({"judge": weak}) == {"route": weak["reason"]}
    few = judge_block(calibrate(records(agree=9, n=9)), labels="l", threshold=0.6, metrics=["x"])
    assert (few["kappa"], few["ci_low"], few["publishable"]) == (None, None, False)
    assert "not estimated" in withheld_metrics({"judge": few})["x"]


def test_without_labels_nothing_is_measured_and_everything_listed_is_withheld() -> None:
    block = judge_block(None, labels=None, threshold=0.6, metrics=["route", "args"])
    assert block["measured"] is False and block["publishable"] is False
    assert block["reason"] == NO_LABELS
    assert withheld_metrics({"judge": block}) == {"route": NO_LABELS, "args": NO_LABELS}
    assert judge_summary({"judge": block}) == f"withheld: {NO_LABELS}"


@pytest.mark.parametrize(
    "change",
    [
        {"publishable": "yes"},
        {"publishable": True, "ci_low": 0.5},
        {"publishable": True, "ci_low": None},
        {"publishable": True, "threshold": "0.6"},
    ],
)
def test_a_block_that_does_not_hold_together_withholds(change: dict[str, Any]) -> None:
    block = {**CALIBRATED, **change}
    assert list(withheld_metrics({"judge": block})) == ["forbidden_claims"]
    assert judge_summary({"judge": block}).startswith("withheld: ")  # type: ignore[union-attr]


def test_no_block_withholds_nothing_and_shows_no_row() -> None:
    assert withheld_metrics({}) == {}
    assert judge_summary({}) is None
    assert withheld_metrics({"judge": "nonsense"}) == {}
    assert "judge calibration" not in render_comment(BASE)
    assert "judge calibration" not in render_terminal(BASE)


# -- rendering -----------------------------------------------------------------------------------


def test_a_calibrated_judge_shows_its_numbers_and_says_why() -> None:
    base, cand = with_judge(BASE, CALIBRATED), with_judge(CLAIMS, CALIBRATED)
    texts = rendered(cand, base)
    row = (
        "| judge calibration | kappa 0.84 \\[0.72, 0.96\\], n = 60, lower bound reaches 0.6: "
        "judge-derived numbers shown |"
    )
    assert row in texts["comment"] and row in texts["summary"]
    assert (
        "judge calibration      kappa 0.84 [0.72, 0.96], n = 60, lower bound reaches 0.6: "
        "judge-derived numbers shown"
    ) in texts["terminal"]
    for text in texts.values():
        assert CLAIMS_NUMBER in text
        assert WITHHELD not in text
    assert "| forbidden\\_claims | 40/40 = 100.0%" in texts["comment"]


def test_an_uncalibrated_judge_withholds_its_metrics_in_every_table() -> None:
    base, cand = with_judge(BASE, UNCALIBRATED), with_judge(CLAIMS, UNCALIBRATED)
    for name, text in (*rendered(cand, base).items(), *rendered(cand).items()):
        assert CLAIMS_NUMBER not in text and "70.0%" not in text, name
        assert "28/40" not in text and "12 / 0" not in text, name
        assert WITHHELD in text, name
    texts = rendered(cand, base)
    comment = texts["comment"]
    escaped = LOW_REASON.replace("[", "\\[").replace("]", "\\]")
    assert f"| judge calibration | withheld: {escaped} |" in comment
    assert (
        f"| forbidden\\_claims | {WITHHELD} | {WITHHELD} | \u2014 |" in comment
    )  # other metrics (not gated): baseline, candidate, change
    assert "- forbidden\\_claims: withheld (judge not calibrated): kappa 0.31" in comment
    assert "Cases that flipped" not in comment
    assert (
        "| route | 100.0% [91.2%, 100.0%] per trial" in comment
    )  # what the judge does not score is shown as ever
    assert check(comment).problems == []
    assert f"forbidden_claims     {WITHHELD}" in texts["terminal"]
    assert "- forbidden_claims: withheld (judge not calibrated): kappa 0.31" in texts["terminal"]
    alone = render_comment(cand)
    assert f"| forbidden\\_claims | {WITHHELD} | higher is better |" in alone


def test_a_withheld_metric_is_not_published_as_json_or_junit() -> None:
    cand = with_judge(CLAIMS, UNCALIBRATED)
    data = json.loads(render_json(cand))
    assert data["metrics"]["forbidden_claims"] == {"withheld": WITHHELD, "reason": LOW_REASON}
    assert data["metrics"]["route"]["k"] == 40
    root = ET.fromstring(render_junit(cand))
    assert root.findall(".//failure") == []
    calibrated = ET.fromstring(render_junit(with_judge(CLAIMS, CALIBRATED)))
    assert len(calibrated.findall(".//failure")) == 12


def test_a_case_only_the_withheld_metric_scores_is_skipped_not_passed() -> None:
    report = build(
        {"judged": [SLIP], "plain": [PASS]},
        bare=["judged"],
        scorers=(*BUILTIN_SCORERS, SLIPS),
    )
    block = {**UNCALIBRATED, "metrics": ["slips"]}
    root = ET.fromstring(render_junit(with_judge(report, block)))
    (case,) = [tc for tc in root.iter("testcase") if tc.get("name") == "judged"]
    skipped = case.find("skipped")
    assert skipped is not None and skipped.get("message") == f"slips: {WITHHELD}"
    assert case.find("failure") is None


def test_a_hostile_reason_is_escaped_in_the_trust_table() -> None:
    hostile = "| @admin <img src=x> [link](http://evil) #1\n## heading"
    cand = with_judge(CLAIMS, {**UNCALIBRATED, "reason": hostile})
    comment = render_comment(cand)
    assert check(comment).problems == []
    (row,) = [line for line in comment.splitlines() if line.startswith("| judge calibration |")]
    assert "<img" not in row and "\\|" in row and "\u200b@\u200badmin" in row
    assert "\n## heading" not in comment


def test_no_metric_marked_judge_derived_is_said_in_the_row() -> None:
    cand = with_judge(CLAIMS, {**CALIBRATED, "metrics": []})
    text = render_terminal(cand)
    assert (
        "judge-derived numbers shown; no metric is marked judge-derived ([judge] metrics)" in text
    )
    assert CLAIMS_NUMBER in text


# -- the gate ------------------------------------------------------------------------------------


def test_a_withheld_metric_is_not_gated_and_the_decision_says_so() -> None:
    base, cand = with_judge(BASE, UNCALIBRATED), with_judge(CLAIMS, UNCALIBRATED)
    decision = decide(base, cand)
    assert decision.exit_code == EXIT_OK
    assert [m.name for m in decision.metrics] == ["route"]
    (note,) = decision.notes
    assert note.startswith(
        "judge-derived metric(s) 'forbidden_claims' not gated, no floor applied, not counted for "
        "must-pass cases: candidate's judge is not calibrated (field 'diagnostics.judge'): "
    )
    assert note.endswith(LOW_REASON)
    assert decision.json_data()["metrics"][0]["name"] == "route"


def test_a_calibrated_judge_is_gated_as_any_metric() -> None:
    base, cand = with_judge(BASE, CALIBRATED), with_judge(CLAIMS, CALIBRATED)
    decision = decide(base, cand)
    plain = decide(BASE, CLAIMS)
    assert decision.exit_code == plain.exit_code == EXIT_REGRESSION
    assert decision.reasons == plain.reasons and decision.notes == plain.notes == []


def test_only_the_candidates_calibration_counts() -> None:
    decision = decide(with_judge(BASE, UNCALIBRATED), with_judge(CLAIMS, CALIBRATED))
    assert decision.exit_code == EXIT_REGRESSION and decision.notes == []
    decision = decide(with_judge(BASE, CALIBRATED), with_judge(CLAIMS, UNCALIBRATED))
    assert decision.exit_code == EXIT_OK and len(decision.notes) == 1


def test_an_uncalibrated_judge_marking_no_metric_changes_nothing() -> None:
    block = {**UNCALIBRATED, "metrics": []}
    decision = decide(with_judge(BASE, block), with_judge(CLAIMS, block))
    plain = decide(BASE, CLAIMS)
    assert decision.json_data() == plain.json_data()


@pytest.mark.parametrize(
    ("key", "metric", "scorers"),
    [
        ("forbidden_claims", "forbidden_claims", BUILTIN_SCORERS),
        ("slips_max", "slips", (*BUILTIN_SCORERS, SLIPS)),
    ],
)
def test_a_floor_on_a_withheld_metric_is_invalid(key: str, metric: str, scorers: Any) -> None:
    plan = plan_of(40, lambda i: [PASS, PASS])
    block = {**UNCALIBRATED, "metrics": [metric]}
    base = with_judge(build(plan, claims=True, scorers=scorers), block)
    decision = decide(base, base, GateSettings(floors={key: 0.5}))
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons[0] == (
        f"floor '{key}': metric '{metric}' is judge-derived and its numbers are withheld in "
        f"candidate (field 'diagnostics.judge': {LOW_REASON}); a floor that cannot be checked "
        "must not pass: calibrate the judge or remove the floor"
    )
    assert all(m.name != metric for m in decision.metrics)
    calibrated = with_judge(
        build(plan, claims=True, scorers=scorers), {**CALIBRATED, "metrics": [metric]}
    )
    assert decide(calibrated, calibrated, GateSettings(floors={key: 0.5})).exit_code == EXIT_OK


def test_an_explicit_test_of_a_withheld_metric_is_invalid() -> None:
    base, cand = with_judge(BASE, UNCALIBRATED), with_judge(CLAIMS, UNCALIBRATED)
    decision = decide(base, cand, GateSettings(gated=["route", "forbidden_claims"]))
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons[0].startswith(
        "gated metric 'forbidden_claims' is judge-derived and its numbers are withheld in candidate"
    )
    assert decision.reasons[0].endswith(
        "a test that cannot be run must not pass: calibrate the judge or stop gating it"
    )


def test_a_must_pass_case_is_not_failed_by_a_withheld_metric() -> None:
    plan = plan_of(40, lambda i: [CLAIM, CLAIM] if i == 3 else [PASS, PASS])
    cand = build(plan, claims=True, must_pass=["c3"])
    base = build(plan_of(40, lambda i: [PASS, PASS]), claims=True, must_pass=["c3"])
    assert decide(base, cand).exit_code == 2
    withheld = decide(with_judge(base, UNCALIBRATED), with_judge(cand, UNCALIBRATED))
    assert withheld.exit_code == EXIT_OK
    assert "not counted for must-pass cases" in withheld.notes[0]


# -- README number blocks ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["s", "s:forbidden_claims"])
def test_a_readme_block_withholds_too(name: str, tmp_path: Path) -> None:
    block = Block(name, 0, 1, "\n")
    shown = "\n".join(
        render_block(
            block, LoadedReport(tmp_path / "r.json", with_judge(CLAIMS, CALIBRATED)), tmp_path
        )
    )
    assert "| forbidden_claims | 28/40 = 70.0% (indicative) | 40 |" in shown
    held = "\n".join(
        render_block(
            block, LoadedReport(tmp_path / "r.json", with_judge(CLAIMS, UNCALIBRATED)), tmp_path
        )
    )
    assert f"| forbidden_claims | {WITHHELD} | \u2014 | \u2014 |" in held
    assert "70.0%" not in held


def test_when_only_withheld_metrics_could_be_gated_nothing_is_gated_and_it_says_why() -> None:
    block = {**UNCALIBRATED, "metrics": ["route"]}
    base = with_judge(build(plan_of(40, lambda i: [PASS, PASS])), block)
    decision = decide(base, base)
    assert decision.exit_code == EXIT_INVALID
    assert decision.reasons == [
        "nothing to gate: no pass/fail metric is measured in both reports and no floor is set "
        "(judge-derived metrics are withheld: see the note)"
    ]
    assert decision.notes[0].startswith("judge-derived metric(s) 'route' not gated")
