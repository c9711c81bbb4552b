"""What the SDK adapters share: lazy SDK import, tool schemas, tool dispatch, verdicts, answers and
the final state (``state_from``).

A tool handed to an adapter must be wrapped with ``@tool()``: the adapter calls the wrapper, so a
declared fault is injected and every call lands in the trial's trace exactly as when the agent calls
the tool itself. The JSON schema of a tool's parameters is built from its signature and type hints.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import inspect
import json
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Union

from fairwitness.errors import TargetLoadError
from fairwitness.targets.base import InvalidReturn, json_state
from fairwitness.tools.results import Empty, Err, Ok

ToolOutcome = Ok | Empty | Err
VerdictFrom = Callable[[str], "str | None"] | str | None
AnswerFrom = Callable[[Any], str] | str | None
"""Where an adapter reads the answer text: ``None`` for its default (the final message's text, the
structured response as JSON when that has none), the name of a str field of the structured
response, or a callable returning the text (of what the adapter's ``verdict_from`` callable gets)."""

StateFrom = Callable[..., Any] | None
"""How an adapter reads the state of the world after the agent acted: ``None`` for none, or a
callable (sync or async) returning a JSON object. A callable that takes a positional parameter
receives what the adapter documents (the conversation, the graph's final state, the agent, the
MCP session); one that takes none is called with no argument (the state lives in your own tools'
store)."""


class MaxTurnsExceeded(RuntimeError):
    """The model still asked for tools after the adapter's last allowed turn."""


def require_sdk(module: str, extra: str, what: str) -> Any:
    """Import the SDK ``module``, or raise :class:`TargetLoadError` naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise TargetLoadError(
            f"{what} needs the '{module}' package, which is not installed: "
            f"pip install 'fairwitness[{extra}]'"
        ) from None


# -- schemas -------------------------------------------------------------------------------------

_SCALARS: Mapping[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    type(None): "null",
}


def type_schema(annotation: Any, where: str) -> dict[str, Any]:
    """The JSON schema of one parameter annotation (``where`` names it in error messages)."""
    if annotation is inspect.Parameter.empty or annotation is Any:
        return {}
    if annotation in _SCALARS:
        return {"type": _SCALARS[annotation]}
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Union or origin is types.UnionType:
        options = [type_schema(arg, where) for arg in args]
        simple = [o.get("type") for o in options if set(o) == {"type"}]
        if len(simple) == len(options) and all(isinstance(t, str) for t in simple):
            return {"type": simple}
        return {"anyOf": options}
    if origin is Literal:
        return {"enum": list(args)}
    if annotation in (list, tuple, set, frozenset) or origin in (list, set, frozenset, Sequence):
        items = type_schema(args[0], where) if args else {}
        return {"type": "array", "items": items} if items else {"type": "array"}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": type_schema(args[0], where)}
        raise TargetLoadError(f"{where}: fixed-length tuple parameters are not supported")
    if annotation is dict or origin in (dict, Mapping):
        if args and args[0] is not str:
            raise TargetLoadError(f"{where}: dict keys must be str for a JSON object")
        values = type_schema(args[1], where) if args else {}
        schema: dict[str, Any] = {"type": "object"}
        if values:
            schema["additionalProperties"] = values
        return schema
    raise TargetLoadError(
        f"{where}: cannot describe type {annotation!r} to a model; use str, int, float, bool, "
        "Literal, Optional, list or dict"
    )


def _description(fn: Callable[..., Any]) -> str:
    doc = inspect.getdoc(fn) or ""
    return doc.split("\n\n", 1)[0].strip()


@dataclass(frozen=True)
class AdapterTool:
    """A ``@tool``-wrapped function with the name, description and parameter schema models see."""

    name: str
    description: str
    parameters: dict[str, Any]
    fn: Callable[..., Any]

    async def call(self, arguments: Mapping[str, Any]) -> ToolOutcome:
        """Run the wrapped tool with keyword ``arguments`` (sync tools run in a worker thread)."""
        if inspect.iscoroutinefunction(self.fn):
            result = await self.fn(**arguments)
        else:
            result = await asyncio.to_thread(self.fn, **arguments)
        if not isinstance(result, (Ok, Empty, Err)):
            raise TypeError(f"tool {self.name!r} returned {type(result).__name__}, not a result")
        return result


def describe_tool(fn: Callable[..., Any]) -> AdapterTool:
    """Build the model-facing description of a ``@tool``-wrapped function."""
    spec = getattr(fn, "__fairwitness_tool__", None)
    if spec is None:
        name = getattr(fn, "__name__", repr(fn))
        raise TargetLoadError(
            f"tool {name!r} is not wrapped with @tool(): wrap it so calls are traced"
        )
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # unresolvable forward references: fall back to the raw annotations
        hints = {}
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in inspect.signature(fn).parameters.values():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        where = f"tool {spec.name!r}, parameter {param.name!r}"
        properties[param.name] = type_schema(hints.get(param.name, param.annotation), where)
        if param.default is inspect.Parameter.empty:
            required.append(param.name)
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    return AdapterTool(spec.name, _description(fn), parameters, fn)


def describe_tools(fns: Sequence[Callable[..., Any]]) -> dict[str, AdapterTool]:
    """Describe every tool, by name; two tools with one name are refused."""
    described: dict[str, AdapterTool] = {}
    for fn in fns:
        item = describe_tool(fn)
        if item.name in described:
            raise TargetLoadError(f"two tools are named {item.name!r}")
        described[item.name] = item
    return described


async def dispatch(
    tools: Mapping[str, AdapterTool], name: str, arguments: str | Mapping[str, Any] | None
) -> ToolOutcome:
    """Run the tool a model asked for; a bad name or bad JSON arguments become an ``Err``."""
    item = tools.get(name)
    if item is None:
        return Err("invalid_args", f"there is no tool named {name!r}")
    if isinstance(arguments, str):
        try:
            parsed = json.loads(arguments) if arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return Err("invalid_args", f"arguments are not valid JSON: {exc}")
    else:
        parsed = dict(arguments or {})
    if not isinstance(parsed, dict):
        return Err("invalid_args", "arguments must be a JSON object")
    return await item.call(parsed)


# -- verdicts ------------------------------------------------------------------------------------


def check_verdict_from(verdict_from: VerdictFrom) -> None:
    """Refuse a ``verdict_from`` that is neither a callable, a key name nor ``None``."""
    if verdict_from is None or callable(verdict_from):
        return
    if not isinstance(verdict_from, str) or not verdict_from:
        raise TypeError("verdict_from must be a callable of the answer text or a key name")


def verdict_of(text: str, verdict_from: VerdictFrom) -> str | None:
    """The verdict of a final answer: ``verdict_from(text)``, or the value at key ``verdict_from``
    of the answer read as a JSON object (structured output); ``None`` when there is none."""
    if verdict_from is None:
        return None
    if callable(verdict_from):
        verdict = verdict_from(text)
        if verdict is not None and not isinstance(verdict, str):
            raise TypeError(f"verdict_from returned {verdict!r}, not a str or None")
        return verdict
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    value = data.get(verdict_from) if isinstance(data, dict) else None
    return value if isinstance(value, str) and value else None


# -- answers from structured output --------------------------------------------------------------


def check_answer_from(answer_from: object) -> None:
    """Refuse an ``answer_from`` that is neither a callable, a field name nor ``None``."""
    if answer_from is None or callable(answer_from):
        return
    if not isinstance(answer_from, str) or not answer_from:
        raise TypeError(
            "answer_from must be a field name of the structured response or a callable returning "
            f"the answer text, got {answer_from!r}"
        )


def _declared_fields(structured: Any) -> list[str] | None:
    """The fields of a mapping, a pydantic model or a dataclass; ``None`` for any other object."""
    if isinstance(structured, Mapping):
        return [str(key) for key in structured]
    model_fields = getattr(type(structured), "model_fields", None)
    if isinstance(model_fields, Mapping):
        extra = getattr(structured, "model_extra", None)
        return [*model_fields, *(extra if isinstance(extra, Mapping) else ())]
    if dataclasses.is_dataclass(structured) and not isinstance(structured, type):
        return [field.name for field in dataclasses.fields(structured)]
    return None


def structured_field(structured: Any, name: str, holder: str) -> str:
    """The str value of field ``name`` of a structured response (a mapping, a pydantic model, a
    dataclass or any object with that attribute), found in ``holder`` (named in errors).

    Raises :class:`InvalidReturn` when there is no structured response, when it has no such field
    (naming the fields it has), or when the value is not a str (naming its type).
    """
    where = f"answer_from={name!r}"
    if structured is None:
        raise InvalidReturn(f"{where} reads a structured response, but {holder} is None")
    declared = _declared_fields(structured)
    present = name in declared if declared is not None else hasattr(structured, name)
    if not present:
        names = declared
        if names is None:
            names = [n for n in dir(structured) if not n.startswith("_")]
        listed = ", ".join(repr(n) for n in names) or "none"
        raise InvalidReturn(
            f"{where}: {holder} ({type(structured).__name__}) has no field {name!r}; "
            f"its fields: {listed}"
        )
    value = structured[name] if isinstance(structured, Mapping) else getattr(structured, name)
    if not isinstance(value, str):
        raise InvalidReturn(
            f"{where}: field {name!r} of {holder} is {type(value).__name__}, not str: {value!r}"
        )
    return value


def answer_of(
    answer_from: str | Callable[[Any], object], source: Any, structured: Any, holder: str
) -> str:
    """The answer text ``answer_from`` gives: ``answer_from(source)``, or the str field it names of
    the ``structured`` response (see :func:`structured_field`). A callable must return a str."""
    if callable(answer_from):
        text = answer_from(source)
        if not isinstance(text, str):
            raise InvalidReturn(f"answer_from returned {type(text).__name__}, not str: {text!r}")
        return text
    return structured_field(structured, answer_from, holder)


async def call_sdk(method: Callable[..., Any], **kwargs: Any) -> Any:
    """Call an SDK method of an async client, or of a sync client in a worker thread."""
    if inspect.iscoroutinefunction(method):
        return await method(**kwargs)
    result = await asyncio.to_thread(method, **kwargs)
    return await result if inspect.isawaitable(result) else result


def count(value: Any) -> int | None:
    """A token count from a usage object field, or ``None`` when it is missing."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def text_answer(text: str, answer_from: AnswerFrom) -> str:
    """The answer of an SDK loop whose final message is ``text``: the text itself, or
    ``answer_from(text)``, or the str field ``answer_from`` names of the text read as a JSON object
    (a structured answer). Raises :class:`InvalidReturn` when the text is not such an object."""
    if answer_from is None:
        return text
    if callable(answer_from):
        return answer_of(answer_from, text, None, "the final message")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        shown = text if len(text) <= 80 else text[:77] + "..."
        raise InvalidReturn(
            f"answer_from={answer_from!r} reads a JSON answer, but the final message is not JSON: "
            f"{shown!r}"
        ) from None
    if not isinstance(data, dict):
        raise InvalidReturn(
            f"answer_from={answer_from!r} reads a JSON object, but the final message holds "
            f"{type(data).__name__}"
        )
    return structured_field(data, answer_from, "the final message's JSON")


# -- the final state -----------------------------------------------------------------------------


def check_state_from(state_from: object) -> None:
    """Refuse a ``state_from`` that is neither a callable nor ``None``."""
    if state_from is not None and not callable(state_from):
        raise TypeError(
            "state_from must be a callable returning the final state as a JSON object, "
            f"got {state_from!r}"
        )


def _takes_argument(fn: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: give it the argument
        return True
    return any(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters
    )


async def read_state(state_from: StateFrom, source: Any) -> dict[str, Any] | None:
    """The final state ``state_from`` gives: ``state_from(source)``, or ``state_from()`` when it
    takes no positional parameter, awaited when it returns an awaitable; ``None`` without a
    ``state_from``. Anything but a JSON object (``None`` included) raises :class:`InvalidReturn`."""
    if state_from is None:
        return None
    value = state_from(source) if _takes_argument(state_from) else state_from()
    if inspect.isawaitable(value):
        value = await value
    if value is None:
        raise InvalidReturn("state_from returned None, not the final state as a JSON object")
    return json_state(value, "the state state_from returned")
