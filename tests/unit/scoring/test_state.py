"""The ``state`` metric: a target's reported final state matched against ``expect.state`` with the
``args`` options, and what a target may report as state."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from fairwitness import Case
from fairwitness.dataset import Dataset
from fairwitness.errors import DatasetError
from fairwitness.scoring import BUILTIN_SCORERS, ScoringSettings
from fairwitness.scoring.scorers import object_matches, value_matches
from fairwitness.targets.base import InvalidReturn, Observation, to_observation
from fairwitness.trace.model import Trace

STATE = next(s for s in BUILTIN_SCORERS if s.name == "state")
BOOKING: dict[str, Any] = {
    "booking": {
        "hotel": "Lotus Inn",
        "city": "Pune",
        "nights": 3,
        "total": 149.5,
        "guests": [{"name": "Asha", "age": 31}, {"name": "Ravi", "age": 33}],
        "confirmed": True,
        "notes": None,
    },
    "rows_written": 1,
}


def trace(state: dict[str, Any] | None, status: str = "ok") -> Trace:
    return Trace.model_validate(
        {
            "suite": "s",
            "case_id": "c",
            "repeat": 0,
            "input": "book",
            "status": status,
            "answer": "Booked." if status == "ok" else None,
            "latency_ms": 1.0,
            "state": state,
        }
    )


def score(expected: dict[str, Any] | None, t: Trace, **settings: Any) -> float | None:
    case = Case(id="c", input="book", expect={"state": expected} if expected is not None else {})
    return STATE.fn(t, case, ScoringSettings(**settings)).value


def test_a_nested_subset_matches_by_default() -> None:
    assert score({"booking": {"city": "Pune"}}, trace(BOOKING)) == 1.0
    assert (
        score({"booking": {"guests": [{"name": "Asha"}, {"name": "Ravi"}]}}, trace(BOOKING)) == 1.0
    )
    assert score({"rows_written": 1, "booking": {"confirmed": True}}, trace(BOOKING)) == 1.0
    assert score({"booking": {"notes": None}}, trace(BOOKING)) == 1.0


def test_a_wrong_or_missing_value_fails() -> None:
    assert score({"booking": {"city": "Mumbai"}}, trace(BOOKING)) == 0.0
    assert score({"booking": {"room": "101"}}, trace(BOOKING)) == 0.0  # key absent
    assert score({"cancelled": False}, trace(BOOKING)) == 0.0
    assert score({"booking": {"notes": ""}}, trace(BOOKING)) == 0.0  # "" is a value, not None


def test_lists_match_element_by_element_with_the_same_length() -> None:
    guests = {"booking": {"guests": [{"name": "Asha"}]}}
    assert score(guests, trace(BOOKING)) == 0.0
    reordered = {"booking": {"guests": [{"name": "Ravi"}, {"name": "Asha"}]}}
    assert score(reordered, trace(BOOKING)) == 0.0
    assert value_matches([1, [2, "x"]], [1, [2, "x"]], ScoringSettings())
    assert not value_matches([1, [2, "x"]], [1, [2, "x", 3]], ScoringSettings())


def test_exact_mode_refuses_extra_keys_at_every_depth() -> None:
    exact = {"args_mode": "exact"}
    assert score({"booking": {"city": "Pune"}, "rows_written": 1}, trace(BOOKING), **exact) == 0.0
    assert score(BOOKING, trace(BOOKING), **exact) == 1.0
    top_only = {"booking": BOOKING["booking"]}
    assert score(top_only, trace(BOOKING), **exact) == 0.0
    guest = {"booking": {**BOOKING["booking"], "guests": [{"name": "Asha"}, {"name": "Ravi"}]}}
    assert score({**guest, "rows_written": 1}, trace(BOOKING), **exact) == 0.0


def test_numbers_match_within_the_tolerance_and_bools_are_not_numbers() -> None:
    near = {"booking": {"total": 149.9, "nights": 3.0}}
    assert score(near, trace(BOOKING)) == 0.0
    assert score(near, trace(BOOKING), args_numeric_tolerance=0.5) == 1.0
    assert score(near, trace(BOOKING), args_numeric_tolerance=0.3) == 0.0
    assert score({"booking": {"nights": 3.0}}, trace(BOOKING)) == 1.0  # 3 == 3.0
    assert score({"booking": {"confirmed": 1}}, trace(BOOKING)) == 0.0
    assert score({"rows_written": True}, trace(BOOKING)) == 0.0
    assert score({"rows_written": True}, trace(BOOKING), args_numeric_tolerance=5.0) == 0.0


def test_strings_match_exactly_or_ignoring_case_and_surrounding_space() -> None:
    casing = {"booking": {"hotel": "  lotus INN ", "guests": [{"name": "asha"}, {"name": "RAVI"}]}}
    assert score(casing, trace(BOOKING)) == 0.0
    assert score(casing, trace(BOOKING), args_case_insensitive=True) == 1.0
    assert score({"booking": {"hotel": "Lotus"}}, trace(BOOKING), args_case_insensitive=True) == 0.0


def test_the_matcher_is_the_one_args_uses() -> None:
    settings = ScoringSettings(args_mode="subset")
    assert object_matches({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}, "d": 3}, settings)
    assert not object_matches({"a": {"b": 1}}, {"a": 1}, settings)
    assert not object_matches({"a": [1]}, {"a": {"0": 1}}, settings)


def test_no_state_reported_fails_and_no_expectation_is_not_applicable() -> None:
    assert score({"booking": {"city": "Pune"}}, trace(None)) == 0.0
    assert score({"booking": {"city": "Pune"}}, trace(None, status="crashed")) == 0.0
    assert score({}, trace(None)) == 0.0  # even {} needs a reported state
    assert score({}, trace({"anything": 1})) == 1.0
    result = STATE.fn(trace(BOOKING), Case(id="c", input="x"), ScoringSettings())
    assert (result.value, result.reason) == (None, "not_applicable")


def test_a_target_returns_state_in_a_dict_or_an_observation() -> None:
    observed = to_observation({"text": "Booked.", "state": {"booking": {"id": 7}}})
    assert observed.state == {"booking": {"id": 7}}
    assert to_observation({"text": "Booked."}).state is None
    assert Observation("ok", state={"t": (1, 2)}).state == {"t": [1, 2]}  # a JSON copy


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ([1, 2], "must be a JSON object (a dict), got list"),
        ("booked", "must be a JSON object (a dict), got str"),
        ({"when": object()}, "is not JSON-serialisable"),
        ({"total": math.nan}, "is not JSON-serialisable"),
        ({1: "a"}, "has a key that is not a str: 1"),
    ],
)
def test_a_state_that_is_not_a_json_object_is_an_invalid_return(state: Any, message: str) -> None:
    with pytest.raises(InvalidReturn, match=r"the target's 'state'") as caught:
        to_observation({"text": "ok", "state": state})
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    with pytest.raises(InvalidReturn, match=r"Observation\.state"):
        Observation("ok", state=state)


def test_a_trace_without_state_does_not_write_the_field() -> None:
    assert "state" not in trace(None).model_dump(by_alias=True)
    written = trace(BOOKING).model_dump_json(by_alias=True)
    assert Trace.model_validate_json(written).state == BOOKING


def test_expect_state_that_is_not_an_object_is_refused_at_load(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(
        '{"id": "a", "input": "x", "expect": {"state": {"booking": {"city": "Pune"}}}}\n'
        '{"id": "b", "input": "x", "expect": {"state": ["booking"]}}\n'
        '{"id": "c", "input": "x", "expect": {"state": "booked"}}\n',
        encoding="utf-8",
    )
    with pytest.raises(DatasetError) as caught:
        Dataset.load(path)
    assert str(caught.value) == (
        f"{path}:2: field 'expect.state': Value error, must be a JSON object (what the "
        "target's reported state should contain), got an array"
    )
    lines = [str(p) for p in caught.value.problems]
    assert lines[1].startswith(f"{path}:3: field 'expect.state':")
    assert lines[1].endswith("got a string")
