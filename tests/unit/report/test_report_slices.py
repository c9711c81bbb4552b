"""Per-tag figures (``Metric.by_tag``): each metric's headline over a tag's cases, computed as the
headline is, against values worked out by hand; absent from reports whose cases have no tags."""

from __future__ import annotations

import json
import math

import pytest

from builders import CLAIM, FAIL, PASS, build
from fairwitness.report.slices import tag_figures
from fairwitness.scoring import CaseScore, Scorer
from fairwitness.stats import bootstrap_ci, case_mean_interval, wilson

PLAN = {
    "c0": [PASS, FAIL, PASS, PASS],  # route 3/4
    "c1": [PASS] * 4,  # route 4/4
    "c2": [FAIL] * 4,  # route 0/4
    "c3": [PASS, CLAIM, FAIL, FAIL],  # route 2/4 (a claim routes right), one forbidden claim
    "c4": [PASS] * 4,
}
TAGS = {"c0": ["a"], "c1": ["a", "b", "a"], "c2": ["a"], "c3": ["b"]}
REPORT = build(PLAN, claims=True, tags=TAGS)


def test_a_capability_metric_gets_its_per_trial_rate_per_tag() -> None:
    by_tag = REPORT.metrics["route"].by_tag
    assert list(by_tag) == ["a", "b"]  # c1 lists 'a' twice: it counts once
    a, b = by_tag["a"], by_tag["b"]
    assert (a.n, a.k, a.value) == (3, pytest.approx(1.75), pytest.approx(1.75 / 3))
    assert (a.ci_low, a.ci_high) == pytest.approx(case_mean_interval([0.0, 0.75, 1.0], 12))
    assert (b.n, b.k, b.value) == (2, pytest.approx(1.5), pytest.approx(0.75))
    assert (b.ci_low, b.ci_high) == pytest.approx(case_mean_interval([0.5, 1.0], 8))


def test_a_safety_metric_gets_its_collapsed_count_with_a_wilson_interval_per_tag() -> None:
    by_tag = REPORT.metrics["forbidden_claims"].by_tag
    a, b = by_tag["a"], by_tag["b"]
    assert (a.k, a.n, a.value) == (3.0, 3, 1.0)
    assert (a.ci_low, a.ci_high) == pytest.approx(wilson(3, 3))
    assert (b.k, b.n, b.value) == (1.0, 2, 0.5)  # c3's one claim in four repeats is a finding
    assert (b.ci_low, b.ci_high) == pytest.approx(wilson(1, 2))


def test_a_tag_whose_cases_are_not_measured_says_so_with_n_0() -> None:
    figure = REPORT.metrics["facts"].by_tag["a"]  # no case expects facts
    assert (figure.n, figure.value, figure.ci_low) == (0, None, None)


def test_a_continuous_metric_gets_its_mean_with_the_seeded_bootstrap_interval() -> None:
    scorer = Scorer("share", "continuous", True, "", lambda *_: None)  # type: ignore[arg-type,return-value]
    cases = [(("t",), CaseScore(v, None, False), 1) for v in (0.9, 0.2, 0.4)]
    cases.append((("t", "u"), CaseScore(None, "no_answer", False), 2))
    figure = tag_figures(scorer, cases, seed=7)
    assert list(figure) == ["t", "u"]
    t = figure["t"]
    assert (t.n, t.value) == (3, pytest.approx(0.5))
    assert (t.ci_low, t.ci_high) == bootstrap_ci([0.2, 0.4, 0.9], n_resamples=2000, seed=7)
    assert (figure["u"].n, figure["u"].value) == (0, None)


def test_reports_without_tags_keep_their_bytes_and_a_tagged_one_writes_by_tag() -> None:
    plain = build(PLAN, claims=True)
    assert all(not m.by_tag for m in plain.metrics.values())
    assert '"by_tag"' not in plain.to_json()
    saved = json.loads(REPORT.to_json())
    assert saved["metrics"]["route"]["by_tag"]["b"]["n"] == 2
    assert math.isclose(saved["metrics"]["route"]["by_tag"]["a"]["k"], 1.75)
    assert '"selection"' not in REPORT.to_json()
