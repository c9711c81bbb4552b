"""Ok / Empty / Err: the typed tool results and the text the model reads from them."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, TypeAdapter, ValidationError

from fairwitness.tools import Empty, Err, Ok, ToolResult
from fairwitness.tools.results import (
    EMPTY_NOTE,
    ERR_NOTE,
    RETRYABLE_KINDS,
    TRUNCATED_NOTE,
    to_jsonable,
)
from fairwitness.trace.model import ErrKind

ALL_KINDS: tuple[str, ...] = get_args(ErrKind)
ADAPTER: TypeAdapter[Any] = TypeAdapter(ToolResult)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=20,
)


def _loads(text: str) -> dict[str, Any]:
    assert isinstance(text, str)
    payload = json.loads(text)
    assert isinstance(payload, dict)
    return payload


# -- tagged union ---------------------------------------------------------------------------------


def test_status_tags() -> None:
    assert Ok(1).status == "ok"
    assert Empty().status == "empty"
    assert Err("unknown").status == "error"


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        (Ok([1, 2]), {"status": "ok", "value": [1, 2], "truncated": False}),
        (Ok("x", truncated=True), {"status": "ok", "value": "x", "truncated": True}),
        (Empty(), {"status": "empty", "note": EMPTY_NOTE}),
        (Empty("no jobs in Pune"), {"status": "empty", "note": "no jobs in Pune"}),
        (
            Err("rate_limit", "slow down"),
            {
                "status": "error",
                "kind": "rate_limit",
                "message": "slow down",
                "retryable": True,
                "fault_injected": False,
            },
        ),
    ],
)
def test_dump_through_type_adapter_carries_the_status_tag(
    result: BaseModel, expected: dict[str, Any]
) -> None:
    assert ADAPTER.dump_python(result, mode="json") == expected
    assert json.loads(ADAPTER.dump_json(result)) == expected


def test_type_adapter_is_discriminated_on_status() -> None:
    schema = ADAPTER.json_schema()
    assert schema["discriminator"]["propertyName"] == "status"
    assert set(schema["discriminator"]["mapping"]) == {"ok", "empty", "error"}


@pytest.mark.parametrize(
    "payload",
    [
        {"status": "bogus", "value": 1},
        {"value": 1},
        {"status": "OK", "value": 1},
    ],
)
def test_type_adapter_refuses_unknown_or_missing_status(payload: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        ADAPTER.validate_python(payload)


def test_type_adapter_accepts_instances_unchanged() -> None:
    for result in (Ok(0), Empty(), Err("auth", "no key")):
        assert ADAPTER.validate_python(result) == result


ROUND_TRIP_CASES = [
    Ok([1, 2, 3]),
    Ok({"a": [1, None]}, truncated=True),
    Ok(0),
    Empty(),
    Empty("nothing for that query"),
    Err("timeout", "slow"),
    Err("auth", "bad key", fault_injected=True),
    Err("upstream", retryable=False),
]
ROUND_TRIP_IDS = [
    "ok-list",
    "ok-truncated",
    "ok-zero",
    "empty",
    "empty-note",
    "err",
    "err-injected",
    "err-flag",
]


@pytest.mark.parametrize("result", ROUND_TRIP_CASES, ids=ROUND_TRIP_IDS)
def test_round_trip_python(result: BaseModel) -> None:
    back = ADAPTER.validate_python(ADAPTER.dump_python(result))
    assert type(back) is type(result)
    assert back == result


@pytest.mark.parametrize("result", ROUND_TRIP_CASES, ids=ROUND_TRIP_IDS)
def test_round_trip_json(result: BaseModel) -> None:
    back = ADAPTER.validate_json(ADAPTER.dump_json(result))
    assert type(back) is type(result)
    assert back == result


@pytest.mark.parametrize(
    ("cls", "payload"),
    [
        (Ok, {"status": "ok", "value": 5}),
        (Empty, {"status": "empty", "note": "n"}),
        (Err, {"status": "error", "kind": "auth"}),
    ],
)
def test_model_validate_on_each_class(cls: type[BaseModel], payload: dict[str, Any]) -> None:
    result = cls.model_validate(payload)
    assert type(result) is cls
    assert result.status == payload["status"]


def test_validated_err_gets_the_default_retryable() -> None:
    assert ADAPTER.validate_python({"status": "error", "kind": "timeout"}).retryable is True
    assert ADAPTER.validate_python({"status": "error", "kind": "auth"}).retryable is False
    explicit = ADAPTER.validate_python({"status": "error", "kind": "timeout", "retryable": False})
    assert explicit.retryable is False


def test_validated_results_come_from_the_tag() -> None:
    assert ADAPTER.validate_python({"status": "empty"}) == Empty()
    assert ADAPTER.validate_json('{"status": "ok", "value": 0}') == Ok(0)
    assert ADAPTER.validate_json('{"status": "ok", "value": null}') == Ok(None)


def test_keyword_construction_matches_positional() -> None:
    assert Ok(value=[1], truncated=True) == Ok([1], truncated=True) == Ok([1], True)
    assert Empty(note="n") == Empty("n")
    assert Err(kind="timeout", message="m") == Err("timeout", "m")
    assert Err(kind="timeout").retryable is True
    assert Err("auth", "m", None).retryable is False


@pytest.mark.parametrize(
    "make",
    [
        lambda: Ok(1, value=2),
        lambda: Ok(1, False, "extra"),
        lambda: Empty("a", note="b"),
        lambda: Err("auth", kind="timeout"),
        lambda: Err("auth", "m", False, False, "extra"),
    ],
    ids=["ok-twice", "ok-too-many", "empty-twice", "err-twice", "err-too-many"],
)
def test_conflicting_or_surplus_arguments_raise_type_error(make: Any) -> None:
    with pytest.raises(TypeError):
        make()


def test_ok_without_value_is_refused() -> None:
    with pytest.raises(ValidationError):
        Ok()  # type: ignore[call-arg]
    with pytest.raises(ValidationError):
        Err()  # type: ignore[call-arg]


def test_results_of_different_status_are_never_equal() -> None:
    assert Ok([]) != Empty()
    assert Empty() != Err("not_found")
    assert Ok(None) != Err("unknown")


# -- Ok -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 0.0, False, "", [], {}, None])
def test_falsy_values_stay_ok(value: Any) -> None:
    result = Ok(value)
    assert isinstance(result, Ok)
    assert result.status == "ok"
    assert result.value == value
    assert type(result.value) is type(value)
    payload = _loads(result.to_model())
    assert payload["status"] == "ok"
    assert payload["data"] == value
    assert type(payload["data"]) is type(value)


def test_ok_to_model_is_a_json_string_with_status_data_truncated() -> None:
    text = Ok({"jobs": [{"title": "Engineer", "city": "Pune"}]}).to_model()
    assert isinstance(text, str)
    assert json.loads(text) == {
        "status": "ok",
        "data": {"jobs": [{"title": "Engineer", "city": "Pune"}]},
        "truncated": False,
    }


def test_ok_truncated_carries_a_note_that_more_data_exists() -> None:
    payload = _loads(Ok([1, 2], truncated=True).to_model())
    assert payload["truncated"] is True
    assert payload["data"] == [1, 2]
    assert payload["note"] == TRUNCATED_NOTE
    assert "more data exists" in payload["note"]


def test_ok_not_truncated_has_no_note() -> None:
    assert "note" not in _loads(Ok("x").to_model())


def test_ok_to_model_keeps_non_ascii_text() -> None:
    text = Ok("Zürich, 東京").to_model()
    assert "Zürich, 東京" in text
    assert _loads(text)["data"] == "Zürich, 東京"


@dataclasses.dataclass
class _Job:
    title: str
    tags: tuple[str, ...]


class _Salary(BaseModel):
    amount: int
    currency: str


def test_ok_to_model_renders_rich_values_as_json() -> None:
    value = {
        "job": _Job("dev", ("remote", "senior")),
        "salary": _Salary(amount=10, currency="EUR"),
        "ids": {3, 1, 2},
        "raw": b"bytes",
        "pair": (1, 2),
        7: "int key",
    }
    data = _loads(Ok(value).to_model())["data"]
    assert data == {
        "job": {"title": "dev", "tags": ["remote", "senior"]},
        "salary": {"amount": 10, "currency": "EUR"},
        "ids": [1, 2, 3],
        "raw": "bytes",
        "pair": [1, 2],
        "7": "int key",
    }


def test_ok_to_model_renders_unknown_objects_with_repr() -> None:
    class Thing:
        def __repr__(self) -> str:
            return "<thing>"

    assert _loads(Ok([Thing()]).to_model())["data"] == ["<thing>"]


def test_to_jsonable_leaves_plain_json_alone() -> None:
    value = {"a": [1, 2.5, None, True, "s"]}
    assert to_jsonable(value) == value


@given(json_values)
def test_ok_to_model_round_trips_any_json_value(value: Any) -> None:
    payload = _loads(Ok(value).to_model())
    assert payload["data"] == value
    assert payload["truncated"] is False


def test_ok_value_is_positional_and_truncated_defaults_false() -> None:
    result = Ok([1])
    assert result.value == [1]
    assert result.truncated is False


# -- Empty ----------------------------------------------------------------------------------------


def test_empty_to_model_carries_the_default_note() -> None:
    text = Empty().to_model()
    assert isinstance(text, str)
    assert json.loads(text) == {"status": "empty", "note": EMPTY_NOTE}
    assert "succeeded" in EMPTY_NOTE
    assert "no records" in EMPTY_NOTE


def test_empty_to_model_carries_a_custom_note() -> None:
    assert _loads(Empty("No openings in Pune this week.").to_model()) == {
        "status": "empty",
        "note": "No openings in Pune this week.",
    }


def test_empty_has_no_data_field() -> None:
    payload = _loads(Empty().to_model())
    assert "data" not in payload
    assert "kind" not in payload


# -- Err ------------------------------------------------------------------------------------------


def test_err_note_says_the_call_failed_and_absence_is_unknown() -> None:
    note = ERR_NOTE.lower()
    assert "failed" in note
    assert "nothing is known" in note
    assert "whether matching data exists" in note
    assert "do not tell the user" in note
    assert "no results" in note
    assert "nothing exists" in note


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_err_to_model_always_carries_the_note(kind: str) -> None:
    text = Err(kind, "boom").to_model()  # type: ignore[arg-type]
    assert isinstance(text, str)
    payload = _loads(text)
    assert payload["status"] == "error"
    assert payload["kind"] == kind
    assert payload["message"] == "boom"
    assert payload["retryable"] is (kind in RETRYABLE_KINDS)
    assert payload["note"] == ERR_NOTE
    assert "data" not in payload


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_err_note_present_without_message_and_when_injected(kind: str) -> None:
    for err in (Err(kind), Err(kind, fault_injected=True), Err(kind, retryable=True)):  # type: ignore[arg-type]
        payload = _loads(err.to_model())
        assert payload["note"] == ERR_NOTE
        assert payload["message"] == ""


def test_err_note_is_not_the_empty_note() -> None:
    assert _loads(Err("not_found").to_model())["note"] != _loads(Empty().to_model())["note"]


@pytest.mark.parametrize(
    ("kind", "retryable"),
    [
        ("timeout", True),
        ("rate_limit", True),
        ("upstream", True),
        ("auth", False),
        ("invalid_args", False),
        ("not_found", False),
        ("unknown", False),
    ],
)
def test_retryable_defaults(kind: str, retryable: bool) -> None:
    assert Err(kind).retryable is retryable  # type: ignore[arg-type]


def test_retryable_defaults_cover_every_kind() -> None:
    assert set(ALL_KINDS) == {
        "timeout",
        "rate_limit",
        "upstream",
        "auth",
        "invalid_args",
        "not_found",
        "unknown",
    }
    assert frozenset({"timeout", "rate_limit", "upstream"}) == RETRYABLE_KINDS


def test_retryable_can_be_overridden() -> None:
    assert Err("timeout", retryable=False).retryable is False
    assert Err("auth", retryable=True).retryable is True


def test_err_fields() -> None:
    err = Err("auth", "401 from upstream", fault_injected=True)
    assert err.kind == "auth"
    assert err.message == "401 from upstream"
    assert err.fault_injected is True
    assert Err("auth").fault_injected is False
    assert Err("auth").message == ""


@pytest.mark.parametrize("kind", ["", "TIMEOUT", "crashed", "empty"])
def test_err_refuses_unknown_kinds(kind: str) -> None:
    with pytest.raises(ValidationError):
        Err(kind)  # type: ignore[arg-type]


# -- immutability ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("result", "field", "value"),
    [
        (Ok([1]), "value", [2]),
        (Ok([1]), "truncated", True),
        (Ok([1]), "status", "error"),
        (Empty(), "note", "changed"),
        (Err("auth"), "kind", "timeout"),
        (Err("auth"), "retryable", True),
        (Err("auth"), "fault_injected", True),
    ],
)
def test_results_are_frozen(result: BaseModel, field: str, value: Any) -> None:
    before = result.model_dump()
    with pytest.raises(ValidationError):
        setattr(result, field, value)
    assert result.model_dump() == before


@pytest.mark.parametrize(
    "make",
    [
        lambda: Ok(1, extra_field=2),
        lambda: Empty("n", extra_field=2),
        lambda: Err("auth", "m", extra_field=2),
    ],
)
def test_results_refuse_extra_fields(make: Any) -> None:
    with pytest.raises(ValidationError):
        make()


def test_results_are_hashable_when_values_are() -> None:
    assert hash(Empty()) == hash(Empty())
    assert hash(Err("auth", "x")) == hash(Err("auth", "x"))
    assert hash(Ok(1)) == hash(Ok(1))
