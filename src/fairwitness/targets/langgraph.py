"""LangGraph and LangChain: a compiled graph as a target, traced tools, and a tool-call recorder.

- :func:`from_langgraph` turns a compiled LangGraph graph into a fairwitness target. The case input
  becomes the graph's input messages (a string becomes one ``HumanMessage``), the graph runs with
  ``ainvoke``, and the text of the last AI message is the answer. The verdict is read from the final
  state when ``verdict_from`` says where; the model identity and token usage are read from the AI
  messages the run added (``response_metadata`` and ``usage_metadata``). An agent made with a
  ``response_format`` (LangChain's ``create_agent``, the prebuilt ReAct agent) keeps its answer in
  the state's ``structured_response``: when the last AI message has no text, that is the answer (as
  JSON), and the schema's tool call that produced it is not counted as a tool the agent used. Read
  the verdict from it with ``verdict_from="structured_response"`` (its ``verdict`` or ``route``),
  and the answer with ``answer_from``: the name of its str field holding the text the user reads
  (``answer_from="answer"``), or a callable of the final state returning that text, like a
  ``verdict_from`` callable. Scorers that read the answer (``misreport_as_empty``) then read that
  text rather than the JSON of the whole response. ``state_from`` reports the state of the world
  after the run, for ``expect.state``: a callable of the final state (``lambda s: {"booking":
  s["booking"]}``) or of nothing, returning a JSON object.
- :func:`as_langchain_tool` turns a ``@tool``-wrapped function into a LangChain ``StructuredTool``
  that the graph's tool node can call: declared faults are injected and every call is traced. The
  model reads ``result.to_model()``; a failed call reaches it as a ``ToolMessage`` with
  ``status="error"``.
- ``FairwitnessCallbackHandler`` records the calls of any other LangChain tool into the trial's
  trace: a tool that raises, or that answers with a ``ToolMessage`` whose status is ``"error"``, is
  recorded as an error. :func:`from_langgraph` attaches one to every run unless ``trace_tools=False``.

LangGraph and LangChain are imported only when one of these is used; without them a
:class:`~fairwitness.errors.TargetLoadError` names the extra to install.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import json
import time
import uuid
from collections.abc import Callable, Coroutine, Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

from fairwitness.errors import TargetLoadError
from fairwitness.targets._sdk import (
    StateFrom,
    answer_of,
    check_answer_from,
    check_state_from,
    read_state,
)
from fairwitness.targets.base import InvalidReturn, Observation
from fairwitness.tools.decorator import ToolSpec, classify
from fairwitness.tools.results import Err, to_jsonable
from fairwitness.trace.context import TrialContext, active
from fairwitness.trace.model import Conversation, ErrKind, ToolCall

if TYPE_CHECKING:
    from fairwitness.dataset import Case

INSTALL_HINT = "pip install 'fairwitness[langgraph]'"

VerdictFrom = str | Callable[[Mapping[str, Any]], Any] | None
"""Where the verdict is: a key of the final state, or a callable of the final state."""

AnswerFrom = str | Callable[[Mapping[str, Any]], str] | None
"""Where the answer text is: the last AI message (``None``), a str field of the structured
response, or a callable of the final state."""

ConfigFrom = Mapping[str, Any] | Callable[["Case"], Mapping[str, Any]] | None
"""The ``RunnableConfig`` of each run, or a callable building it from the case."""

STRUCTURED_KEY = "structured_response"
"""State key where an agent made with a ``response_format`` keeps its structured response."""

FAIRWITNESS_TOOL_KEY = "fairwitness_tool"
"""Metadata key marking a LangChain tool made by :func:`as_langchain_tool` (already traced)."""

_ROLES = {
    "user": "HumanMessage",
    "human": "HumanMessage",
    "assistant": "AIMessage",
    "ai": "AIMessage",
    "system": "SystemMessage",
}
_MODEL_KEYS = ("model_name", "model", "model_id")
_NOT_FAILURES = ("GraphBubbleUp", "CancelledError")
"""Exceptions that stop a tool without it failing (graph interrupts, cancellation)."""


def _require(module: str, what: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise TargetLoadError(
            f"{what} needs the '{module}' package, which is not installed: {INSTALL_HINT}"
        ) from None


# -- the target ----------------------------------------------------------------------------------


def from_langgraph(
    graph: Any,
    *,
    input_key: str = "messages",
    verdict_from: VerdictFrom = None,
    answer_from: AnswerFrom = None,
    config: ConfigFrom = None,
    trace_tools: bool = True,
    state_from: StateFrom = None,
) -> Callable[[Case], Coroutine[Any, Any, Observation]]:
    """Make a target of a compiled LangGraph graph (anything with ``ainvoke``).

    ``input_key`` is the state key the input messages go to. ``verdict_from`` names a key of the
    final state holding the verdict (a str, or structured output with a ``verdict`` or ``route``
    field), or is a callable of the final state returning it. ``answer_from`` says where the
    answer text is: by default the text of the last AI message (the ``structured_response`` as JSON
    when that has none); the name of a str field of the ``structured_response`` (a pydantic model,
    dataclass or dict); or a callable of the final state returning a str, as ``verdict_from``'s
    callable receives it. A missing field or a value that is not a str fails the trial with an
    error naming them. ``config`` is passed to ``ainvoke`` (a callable receives the case, e.g. to
    give each trial its own ``thread_id``). With ``trace_tools`` a
    :func:`FairwitnessCallbackHandler` records calls of tools that are not ``@tool``-wrapped.
    ``state_from`` reads the state of the world after the run for ``expect.state``: a callable
    (sync or async) of the graph's final state, or of no argument, returning a JSON object; what
    it returns is the trial's ``state``.
    """
    _require("langgraph", "from_langgraph")
    messages_module = _require("langchain_core.messages", "from_langgraph")
    if not callable(getattr(graph, "ainvoke", None)):
        raise TypeError(f"from_langgraph needs a compiled graph with ainvoke, got {graph!r}")
    if not isinstance(input_key, str) or not input_key:
        raise TypeError("input_key must be a non-empty str")
    if not (verdict_from is None or callable(verdict_from) or _is_key(verdict_from)):
        raise TypeError("verdict_from must be a state key name or a callable of the state")
    check_answer_from(answer_from)
    check_state_from(state_from)
    handler_class = _handler_class() if trace_tools else None

    async def target(case: Case) -> Observation:
        inputs = _input_messages(messages_module, case)
        run_config = dict(config(case) if callable(config) else (config or {}))
        if handler_class is not None:
            _attach(run_config, handler_class())
        state = await graph.ainvoke({input_key: inputs}, config=run_config)
        if not isinstance(state, Mapping):
            raise InvalidReturn(f"the graph returned {type(state).__name__}, not a state mapping")
        added = _added_messages(state.get(input_key), inputs[-1].id)
        observed = _observe(messages_module, state, added, verdict_from, answer_from)
        if state_from is None:
            return observed
        return dataclasses.replace(observed, state=await read_state(state_from, state))

    name = getattr(graph, "name", None) or type(graph).__name__
    target.__qualname__ = target.__name__ = f"from_langgraph({name})"
    return target


def _is_key(value: object) -> bool:
    return isinstance(value, str) and bool(value)


def _input_messages(messages_module: Any, case: Case) -> list[Any]:
    """The case input as LangChain messages; the last one carries an id to find it again."""
    marker = f"fairwitness-{uuid.uuid4().hex}"
    if not isinstance(case.input, Conversation):
        return [messages_module.HumanMessage(content=case.input, id=marker)]
    built: list[Any] = []
    for i, message in enumerate(case.input.messages):
        kind = _ROLES.get(message.role.lower())
        if kind is None:
            raise ValueError(f"case {case.id}: cannot give a {message.role!r} message to a graph")
        last = i == len(case.input.messages) - 1
        built.append(
            getattr(messages_module, kind)(content=message.content, id=marker if last else None)
        )
    return built


def _attach(run_config: dict[str, Any], handler: Any) -> None:
    """Add ``handler`` to the run's callbacks, unless the caller already gave one of its kind."""
    callbacks = run_config.get("callbacks")
    if isinstance(callbacks, Sequence):
        present = list(callbacks)
    else:  # only inheritable handlers reach the tools nested in the graph
        present = list(getattr(callbacks, "inheritable_handlers", None) or [])
    if any(isinstance(item, type(handler)) for item in present):
        return
    if callbacks is None:
        run_config["callbacks"] = [handler]
    elif isinstance(callbacks, Sequence):
        run_config["callbacks"] = [*callbacks, handler]
    else:  # a callback manager
        manager = callbacks.copy()
        manager.add_handler(handler, inherit=True)
        run_config["callbacks"] = manager


def _added_messages(messages: Any, marker: str | None) -> list[Any]:
    """The messages after the input (all of them when the input is no longer in the state)."""
    if not isinstance(messages, Sequence) or isinstance(messages, str):
        return []
    found = [i for i, message in enumerate(messages) if getattr(message, "id", None) == marker]
    return list(messages[found[-1] + 1 :]) if found else list(messages)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content if isinstance(content, list) else []:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, Mapping) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def _observe(
    messages_module: Any,
    state: Mapping[str, Any],
    added: list[Any],
    verdict_from: VerdictFrom,
    answer_from: AnswerFrom = None,
) -> Observation:
    ai_messages = [m for m in added if isinstance(m, messages_module.AIMessage)]
    if not ai_messages:
        raise InvalidReturn("the graph added no AI message to the state: there is no answer")
    ctx = active()
    text = _text(ai_messages[-1].content)
    structured = state.get(STRUCTURED_KEY)
    # an agent given a response_format answers with its schema as a tool call that no tool runs:
    # the structured response is the answer, and that call is not a tool the agent used
    answered_by_schema = structured is not None and not text.strip()
    if answer_from is not None:
        text = answer_of(answer_from, state, structured, f"state[{STRUCTURED_KEY!r}]")
    elif answered_by_schema:
        text = json.dumps(to_jsonable(structured), ensure_ascii=False)
    tools: list[str] = []
    for position, message in enumerate(ai_messages, start=1):
        if not (answered_by_schema and position == len(ai_messages)):
            calls = getattr(message, "tool_calls", None) or []
            tools.extend(str(call.get("name")) for call in calls)
        if ctx is None:
            continue
        metadata = getattr(message, "response_metadata", None) or {}
        model = next((metadata[k] for k in _MODEL_KEYS if isinstance(metadata.get(k), str)), None)
        if model:
            ctx.record_model(model)
        usage = getattr(message, "usage_metadata", None)
        if isinstance(usage, Mapping):
            ctx.record_usage(
                input_tokens=_count(usage.get("input_tokens")),
                output_tokens=_count(usage.get("output_tokens")),
            )
    return Observation(
        text=text,
        verdict=_verdict(state, verdict_from),
        tools=tuple(tools),
        raw=state,
    )


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _verdict(state: Mapping[str, Any], verdict_from: VerdictFrom) -> str | None:
    if verdict_from is None:
        return None
    if callable(verdict_from):
        value, source = verdict_from(state), "verdict_from"
    else:
        value, source = state.get(verdict_from), f"state[{verdict_from!r}]"
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Enum) and isinstance(value.value, str):
        return value.value
    for field in ("verdict", "route"):
        inner = value.get(field) if isinstance(value, Mapping) else getattr(value, field, None)
        if isinstance(inner, str):
            return inner
        if isinstance(inner, Enum) and isinstance(inner.value, str):
            return inner.value
    raise InvalidReturn(f"{source} is {value!r}: not a str, nor an object with a str verdict")


# -- @tool functions as LangChain tools ----------------------------------------------------------


def as_langchain_tool(fn: Callable[..., Any], *, description: str | None = None) -> Any:
    """A LangChain ``StructuredTool`` that runs the ``@tool``-wrapped ``fn``.

    The argument schema comes from ``fn``'s signature and the description from its docstring
    (or ``description``). Faults declared on the tool are injected and each call is traced by the
    wrapper. The model reads ``result.to_model()``; an ``Err`` reaches it as a ``ToolMessage``
    with ``status="error"``, and an ``Ok`` or ``Empty`` travels as the message's ``artifact``.
    """
    spec = getattr(fn, "__fairwitness_tool__", None)
    if not isinstance(spec, ToolSpec):
        name = getattr(fn, "__name__", repr(fn))
        raise TypeError(f"{name} is not wrapped with @tool(): wrap it so its calls are traced")
    tools = _require("langchain_core.tools", "as_langchain_tool")
    inner = inspect.unwrap(fn)
    text = description or inspect.getdoc(inner) or f"The {spec.name} tool."

    def content(result: Any) -> tuple[str, Any]:
        if isinstance(result, Err):
            raise tools.ToolException(result.to_model())
        return result.to_model(), result

    options: dict[str, Any] = {}
    if inspect.iscoroutinefunction(fn):

        async def run_async(**kwargs: Any) -> tuple[str, Any]:
            return content(await fn(**kwargs))

        options["coroutine"] = run_async
    else:

        def run_sync(**kwargs: Any) -> tuple[str, Any]:
            return content(fn(**kwargs))

        options["func"] = run_sync
    return tools.StructuredTool(
        name=spec.name,
        description=text,
        args_schema=tools.create_schema_from_function(spec.name, inner),
        response_format="content_and_artifact",
        handle_tool_error=True,
        metadata={FAIRWITNESS_TOOL_KEY: spec.name},
        **options,
    )


# -- recording any LangChain tool ----------------------------------------------------------------


def _outcome(output: Any) -> tuple[str, ErrKind | None]:
    """The status of a tool's output: a ``ToolMessage`` (or several) with ``status="error"`` failed."""
    outputs = output if isinstance(output, list) else [output]
    if any(getattr(item, "status", None) == "error" for item in outputs):
        return "error", "unknown"
    return "ok", None


def _is_failure(error: BaseException) -> bool:
    return not any(cls.__name__ in _NOT_FAILURES for cls in type(error).__mro__)


class _Open:
    __slots__ = ("arguments", "ctx", "name", "seq", "started")

    def __init__(self, ctx: TrialContext, seq: int, name: str, arguments: dict[str, Any]) -> None:
        self.ctx, self.seq, self.name, self.arguments = ctx, seq, name, arguments
        self.started = time.perf_counter()

    def finish(self, status: str, kind: ErrKind | None) -> None:
        self.ctx.record_tool_call(
            self.seq,
            ToolCall(
                name=self.name,
                arguments=self.arguments,
                status="error" if status == "error" else "ok",
                kind=kind,
                latency_ms=round((time.perf_counter() - self.started) * 1000, 3),
            ),
        )


@functools.cache
def _handler_class() -> type[Any]:
    callbacks = _require("langchain_core.callbacks", "FairwitnessCallbackHandler")

    class FairwitnessCallbackHandler(callbacks.BaseCallbackHandler):  # type: ignore[misc, name-defined]
        """Records every LangChain tool call into the trace of the trial in progress.

        A call is recorded when it ends: an exception is an error classified like a ``@tool``
        exception, a ``ToolMessage`` with ``status="error"`` is an error of kind ``unknown``, any
        other output is ``ok``. Tools made by :func:`as_langchain_tool` are skipped (their wrapper
        records them), and so is every call made outside a trial.
        """

        run_inline = True
        # tool events are dispatched under ignore_agent, so that one stays False
        ignore_llm = ignore_chain = ignore_retriever = ignore_chat_model = True
        ignore_retry = ignore_custom_event = True

        def __init__(self) -> None:
            super().__init__()
            self._open: dict[Any, _Open] = {}

        def on_tool_start(
            self,
            serialized: dict[str, Any],
            input_str: str,
            *,
            run_id: Any,
            metadata: dict[str, Any] | None = None,
            inputs: dict[str, Any] | None = None,
            **kwargs: Any,
        ) -> None:
            ctx = active()
            if ctx is None or FAIRWITNESS_TOOL_KEY in (metadata or {}):
                return
            name = (serialized or {}).get("name") or kwargs.get("name") or "unnamed_tool"
            arguments = to_jsonable(inputs) if isinstance(inputs, dict) else {"input": input_str}
            self._open[run_id] = _Open(ctx, ctx.start_tool_call(), str(name), arguments)

        def on_tool_end(self, output: Any, *, run_id: Any, **kwargs: Any) -> None:
            call = self._open.pop(run_id, None)
            if call is not None:
                call.finish(*_outcome(output))

        def on_tool_error(self, error: BaseException, *, run_id: Any, **kwargs: Any) -> None:
            call = self._open.pop(run_id, None)
            if call is not None and _is_failure(error):
                call.finish("error", classify(error))

    return FairwitnessCallbackHandler


def __getattr__(name: str) -> Any:
    if name == "FairwitnessCallbackHandler":
        return _handler_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "FAIRWITNESS_TOOL_KEY",
    "INSTALL_HINT",
    "STRUCTURED_KEY",
    "FairwitnessCallbackHandler",  # noqa: F822 - built on first access, with the SDK
    "as_langchain_tool",
    "from_langgraph",
]
