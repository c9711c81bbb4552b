"""What the SDK adapters tell a model about tools, how they dispatch calls, and how verdicts are read."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Optional, Union

import pytest

from fairwitness import tool
from fairwitness.errors import TargetLoadError
from fairwitness.targets._sdk import (
    describe_tool,
    describe_tools,
    dispatch,
    type_schema,
    verdict_of,
)
from fairwitness.tools import Err, Ok


@pytest.mark.parametrize(
    ("annotation", "schema"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (Any, {}),
        (Optional[int], {"type": ["integer", "null"]}),  # noqa: UP045 - the spelling under test
        (str | None, {"type": ["string", "null"]}),
        (Union[int, str], {"type": ["integer", "string"]}),  # noqa: UP007 - the spelling under test
        (list[str], {"type": "array", "items": {"type": "string"}}),
        (list, {"type": "array"}),
        (Sequence[float], {"type": "array", "items": {"type": "number"}}),
        (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
        (dict, {"type": "object"}),
        (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
        (Mapping[str, Any], {"type": "object"}),
        (Literal["a", "b"], {"enum": ["a", "b"]}),
        (
            list[dict[str, bool]] | None,
            {
                "anyOf": [
                    {
                        "type": "array",
                        "items": {"type": "object", "additionalProperties": {"type": "boolean"}},
                    },
                    {"type": "null"},
                ]
            },
        ),
    ],
)
def test_type_schemas(annotation: Any, schema: dict[str, Any]) -> None:
    assert type_schema(annotation, "here") == schema


@pytest.mark.parametrize("annotation", [complex, dict[int, str], tuple[int, str], set[bytes]])
def test_types_a_model_cannot_be_given_are_refused(annotation: Any) -> None:
    with pytest.raises(TargetLoadError, match=r"^here: "):
        type_schema(annotation, "here")


@tool(name="adapter_tools_lookup")
def lookup(query: str, limit: int = 5, *args: Any, tags: list[str] | None = None, **kw: Any) -> str:
    """Look things up.

    Details the model does not need.
    """
    return query


def test_a_tool_is_described_from_its_signature_and_first_doc_paragraph() -> None:
    described = describe_tool(lookup)
    assert described.name == "adapter_tools_lookup"
    assert described.description == "Look things up."
    assert described.parameters == {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer"},
            "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        },
        "required": ["query"],
    }


def test_two_tools_with_one_name_are_refused() -> None:
    with pytest.raises(TargetLoadError, match="two tools are named"):
        describe_tools([lookup, lookup])


def test_dispatch_runs_the_tool_or_returns_an_err() -> None:
    tools = describe_tools([lookup])
    ok = asyncio.run(dispatch(tools, "adapter_tools_lookup", json.dumps({"query": "x"})))
    assert ok == Ok("x")
    assert asyncio.run(dispatch(tools, "adapter_tools_lookup", {"query": "y"})) == Ok("y")
    missing = asyncio.run(dispatch(tools, "nope", "{}"))
    assert isinstance(missing, Err) and missing.kind == "invalid_args"
    for bad in ("{x", "[1]"):
        result = asyncio.run(dispatch(tools, "adapter_tools_lookup", bad))
        assert isinstance(result, Err) and result.kind == "invalid_args"
    unbound = asyncio.run(dispatch(tools, "adapter_tools_lookup", ""))
    assert isinstance(unbound, Err) and "query" in unbound.message


def test_verdicts() -> None:
    assert verdict_of("anything", None) is None
    assert verdict_of("ok", lambda text: text.upper()) == "OK"
    assert verdict_of('{"route": "search"}', "route") == "search"
    assert verdict_of('{"route": ""}', "route") is None
    assert verdict_of('{"route": 3}', "route") is None
    assert verdict_of("not json", "route") is None
    assert verdict_of("[1]", "route") is None
    with pytest.raises(TypeError, match="verdict_from returned"):
        verdict_of("x", lambda text: 3)  # type: ignore[arg-type, return-value]
