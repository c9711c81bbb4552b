"""Tag slices in the gate: the paired test restricted to a tag's cases (McNemar's at k = 1,
checked against scipy), the top tags only, never a change of exit code; the audit of stored
per-tag figures; and the refusal to compare runs of different tag selections."""

from __future__ import annotations

from typing import Any

import pytest
from scipy.stats import binom, binomtest

from builders import FAIL, PASS, build, edit
from fairwitness.errors import EXIT_INVALID
from fairwitness.gate import SLICE_MIN_CASES, GateSettings, decide

N = 40
# Baseline: every case passes except c11. Candidate: c0-c4 and c12-c14 fail, c11 now passes.
BASE_PLAN = {f"c{i}": [FAIL if i == 11 else PASS] for i in range(N)}
CAND_PLAN = {f"c{i}": [FAIL if i in (0, 1, 2, 3, 4, 12, 13, 14) else PASS] for i in range(N)}
TAGS: dict[str, list[str]] = {f"c{i}": ["x"] for i in range(12)}  # 5 regressions, 1 improvement
TAGS.update({f"c{i}": ["y", "z"] for i in range(12, 30)})  # 3 regressions in 18 cases
TAGS.update({f"c{i}": [*TAGS.get(f"c{i}", []), "few"] for i in range(4)})  # 4 cases: too few
TAGS.update({f"c{i}": ["w"] for i in range(30, N)})  # 10 cases, no change
BASE = build(BASE_PLAN, tags=TAGS)
CAND = build(CAND_PLAN, tags=TAGS)


def mcnemar_reference(regressions: int, improvements: int, test: str) -> float:
    n = regressions + improvements
    exact = binomtest(regressions, n, 0.5, alternative="greater").pvalue
    return exact - 0.5 * binom.pmf(regressions, n, 0.5) if test == "midp" else exact


@pytest.mark.parametrize("test", ["midp", "exact"])
def test_a_tags_p_value_is_mcnemars_on_its_own_cases_at_one_repeat(test: str) -> None:
    decision = decide(BASE, CAND, GateSettings(test=test))  # type: ignore[arg-type]
    slices = {(s.metric, s.tag): s for s in decision.slices}
    x = slices["route", "x"]
    assert (x.n, x.test, x.exact) == (12, "mcnemar", True)
    assert (x.baseline, x.candidate) == pytest.approx((11 / 12, 7 / 12))
    assert x.drop == pytest.approx(4 / 12)
    assert x.p == pytest.approx(mcnemar_reference(5, 1, test), rel=1e-12)
    y = slices["route", "y"]
    assert (y.n, y.p) == (18, pytest.approx(mcnemar_reference(3, 0, test), rel=1e-12))


def test_only_tags_with_enough_cases_that_dropped_are_shown_worst_first_at_most_three() -> None:
    decision = decide(BASE, CAND)
    route = [s for s in decision.slices if s.metric == "route"]
    assert [s.tag for s in route] == ["x", "y", "z"]  # 'few' has 4 cases; 'w' did not drop
    assert SLICE_MIN_CASES == 10
    assert all(s.n >= SLICE_MIN_CASES and s.drop > 0 for s in decision.slices)
    assert len(route) <= 3


def test_slices_never_change_the_exit_code_or_the_reasons() -> None:
    tagged = decide(BASE, CAND)
    untagged = decide(build(BASE_PLAN), build(CAND_PLAN))
    assert tagged.slices and not untagged.slices
    assert (tagged.exit_code, tagged.reasons) == (untagged.exit_code, untagged.reasons)
    assert "slices" not in untagged.json_data()  # left out of gate --json when there are none


def test_the_sign_flip_test_on_a_tags_cases_at_several_repeats() -> None:
    base = build(
        {f"c{i}": [PASS, PASS, PASS] for i in range(12)}, tags={f"c{i}": ["t"] for i in range(12)}
    )
    cand = build(
        {f"c{i}": [PASS, FAIL, FAIL] if i < 6 else [PASS] * 3 for i in range(12)},
        tags={f"c{i}": ["t"] for i in range(12)},
    )
    (one,) = [s for s in decide(base, cand).slices if s.metric == "route"]
    assert (one.test, one.n) == ("sign-flip", 12)
    # six cases dropped by 2/3, six did not move: the exact one-sided sign-flip p is 2^-6,
    # mid-p halves the observed point's mass
    assert one.p == pytest.approx(0.5 / 64)


def _forge(path: str, value: Any) -> Any:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        *parents, last = path.split(".")
        for key in parents:
            target = target[key]
        if value is None:
            del target[last]
        else:
            target[last] = value

    return change


@pytest.mark.parametrize(
    ("path", "value", "expected"),
    [
        ("metrics.route.by_tag.x.value", 0.99, "field 'metrics.route'.by_tag.x: stored value 0.99"),
        ("metrics.route.by_tag.x.ci_low", 0.0, "field 'metrics.route'.by_tag.x: stored value"),
        ("metrics.route.by_tag.y", None, "field 'metrics.route'.by_tag: stored for tags"),
    ],
)
def test_stored_per_tag_figures_that_disagree_with_the_cases_are_refused(
    path: str, value: Any, expected: str
) -> None:
    forged = edit(CAND, _forge(path, value))
    decision = decide(BASE, forged)
    assert decision.exit_code == EXIT_INVALID
    assert any(expected in reason for reason in decision.reasons), decision.reasons


def test_a_report_without_per_tag_figures_is_still_gated() -> None:
    def strip(data: dict[str, Any]) -> None:
        for figures in data["metrics"].values():
            figures.pop("by_tag", None)

    decision = decide(edit(BASE, strip), CAND)
    assert decision.exit_code == decide(BASE, CAND).exit_code


def _selected(tags: list[str], exclude: list[str] = []) -> Any:  # noqa: B006
    def change(data: dict[str, Any]) -> None:
        data["selection"] = {
            "tags": tags,
            "exclude_tags": exclude,
            "cases": len(data["cases"]),
            "dataset_cases": 99,
        }

    return change


@pytest.mark.parametrize(
    ("baseline", "candidate", "words"),
    [
        (None, ["x"], "'every case', candidate has 'tagged x'"),
        (["x"], None, "'tagged x', candidate has 'every case'"),
        (["x"], ["y"], "'tagged x', candidate has 'tagged y'"),
        (["x"], ["x", "!"], "'tagged x', candidate has 'tagged x or !, not tagged q'"),
    ],
)
def test_runs_of_different_selections_are_refused_in_one_line(
    baseline: list[str] | None, candidate: list[str] | None, words: str
) -> None:
    base = BASE if baseline is None else edit(BASE, _selected(baseline))
    exclude = ["q"] if candidate and "!" in candidate else []
    cand = CAND if candidate is None else edit(CAND, _selected(candidate, exclude))
    decision = decide(base, cand)
    assert decision.exit_code == EXIT_INVALID
    lines = [r for r in decision.reasons if "selection" in r]
    assert len(lines) == 1
    assert f"field 'selection' differs: baseline has {words}" in lines[0]
    assert not [r for r in decision.reasons if "split_hash" in r]


def test_two_runs_of_one_selection_compare() -> None:
    decision = decide(edit(BASE, _selected(["x"])), edit(CAND, _selected(["x"])))
    assert decision.exit_code != EXIT_INVALID
