"""Blindness: verdicts (and expected labels) so concentrated that relation results say little."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairwitness.diagnostics import blindness
from fairwitness.diagnostics.blindness import BlindnessResult, detect_blindness, label_skew


def test_all_is_sorted_and_resolves() -> None:
    assert blindness.__all__ == sorted(blindness.__all__)
    for name in blindness.__all__:
        assert hasattr(blindness, name)


def test_a_single_verdict_is_blind() -> None:
    result = detect_blindness(["route_a"] * 20)
    assert result.blind is True
    assert result.skew == 1.0
    assert result.distinct == 1
    assert result.top == "route_a"
    assert result.n == 20
    assert result.missing == 0
    assert result.source == "verdicts"
    assert "vacuous" in result.note
    assert "does not prove the agent wrong" in result.note


def test_one_input_with_one_verdict_is_blind() -> None:
    result = detect_blindness(["escalate"])
    assert result.blind is True
    assert result.skew == 1.0


def test_96_percent_one_verdict_is_blind() -> None:
    result = detect_blindness(["search"] * 48 + ["escalate"] * 2)
    assert result.blind is True
    assert result.skew == pytest.approx(0.96)
    assert result.top == "search"
    assert result.distinct == 2
    assert "48 of 50 verdicts (96%)" in result.note
    assert "rarely makes the agent change its decision" in result.note


def test_balanced_verdicts_are_not_blind() -> None:
    result = detect_blindness(["a", "b", "c"] * 10)
    assert result.blind is False
    assert result.skew == pytest.approx(1 / 3)
    assert result.distinct == 3
    assert "vacuous" not in result.note
    assert "30 verdicts" in result.note and "3 distinct" in result.note


def test_ties_are_broken_by_sorted_order() -> None:
    assert detect_blindness(["b", "a", "b", "a"]).top == "a"
    assert detect_blindness(["zeta", "alpha", "zeta"]).top == "zeta"


def test_threshold_is_inclusive() -> None:
    verdicts = ["a"] * 9 + ["b"]
    assert detect_blindness(verdicts, threshold=0.9).blind is True
    assert detect_blindness(verdicts, threshold=0.91).blind is False
    assert detect_blindness(verdicts, threshold=1.0).blind is False
    assert detect_blindness(["a"] * 3, threshold=1.0).blind is True


def test_missing_verdicts_are_counted_never_a_verdict() -> None:
    result = detect_blindness(["a", None, "a", None, "b", None])
    assert result.n == 3
    assert result.missing == 3
    assert result.distinct == 2
    assert result.top == "a"
    assert result.skew == pytest.approx(2 / 3)
    assert "3 inputs had no verdict" in result.note


def test_missing_do_not_dilute_the_skew() -> None:
    # 19 of 20 verdicts agree; 80 draws had no verdict. Those are not a second verdict.
    result = detect_blindness(["a"] * 19 + ["b"] + [None] * 80)
    assert result.blind is True
    assert result.skew == pytest.approx(0.95)
    assert result.missing == 80


def test_no_verdict_at_all_is_not_blind_and_not_measured() -> None:
    result = detect_blindness([None, None])
    assert result.blind is False
    assert result.skew is None
    assert result.top is None
    assert result.n == 0
    assert result.missing == 2
    assert result.distinct == 0
    assert "could not be measured" in result.note
    empty = detect_blindness([])
    assert empty.blind is False
    assert empty.skew is None
    assert "could not be measured" in empty.note


def test_label_skew_flags_a_suite_that_expects_one_class() -> None:
    result = label_skew(["refund"] * 95 + ["escalate"] * 5)
    assert result.source == "labels"
    assert result.blind is True
    assert result.skew == pytest.approx(0.95)
    assert result.top == "refund"
    assert "expected labels" in result.note
    assert "does not prove the agent wrong" in result.note
    balanced = label_skew(["refund", "escalate", None])
    assert balanced.blind is False
    assert balanced.missing == 1
    assert balanced.source == "labels"


@pytest.mark.parametrize("threshold", [0.0, -0.1, 1.01, float("nan"), float("inf")])
def test_threshold_outside_the_unit_interval_is_refused(threshold: float) -> None:
    with pytest.raises(ValueError, match="threshold"):
        detect_blindness(["a"], threshold=threshold)
    with pytest.raises(ValueError, match="threshold"):
        label_skew(["a"], threshold=threshold)


def test_bad_arguments_raise_type_error() -> None:
    with pytest.raises(TypeError, match="threshold"):
        detect_blindness(["a"], threshold=True)
    with pytest.raises(TypeError, match="threshold"):
        detect_blindness(["a"], threshold="0.9")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        detect_blindness(["a", 1])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        detect_blindness("aaaa")


def test_json_data_is_json_ready_and_complete() -> None:
    result = detect_blindness(["a", "a", None])
    data = result.json_data()
    assert set(data) == {
        "blind",
        "skew",
        "distinct",
        "top",
        "n",
        "missing",
        "threshold",
        "source",
        "note",
    }
    assert json.loads(json.dumps(data)) == data
    assert BlindnessResult(**data) == result  # type: ignore[arg-type]


def test_result_is_frozen() -> None:
    result = detect_blindness(["a"])
    with pytest.raises(AttributeError):
        result.blind = False  # type: ignore[misc]


@given(
    st.lists(st.one_of(st.none(), st.sampled_from(["a", "b", "c", "d"])), max_size=60),
    st.floats(min_value=0.01, max_value=1.0),
)
def test_properties(verdicts: list[str | None], threshold: float) -> None:
    result = detect_blindness(verdicts, threshold=threshold)
    present = [v for v in verdicts if v is not None]
    assert result.n == len(present)
    assert result.missing == len(verdicts) - len(present)
    assert result.distinct == len(set(present))
    if present:
        assert result.skew is not None
        assert result.top is not None
        assert result.skew == present.count(result.top) / len(present)
        assert all(present.count(v) <= present.count(result.top) for v in present)
        assert result.blind == (result.skew >= threshold)
        assert result.skew >= 1 / result.distinct
    else:
        assert result.skew is None
        assert result.blind is False
