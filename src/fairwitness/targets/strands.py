"""Strands Agents as targets, and fairwitness tools as Strands tools.

:func:`from_strands` turns a Strands ``Agent`` (or a function that builds one) into a target. Each
trial sends the case's input text as the prompt and reports:

- the answer: the text blocks of the agent's final message (or the structured output as JSON when
  the final message has no text); with ``answer_from``, the str field it names of the structured
  output (``answer_from="answer"``), or what it returns when called with the agent result (like a
  ``verdict_from`` callable), so that scorers reading the answer (``misreport_as_empty``) read the
  text a user sees rather than the JSON of the whole structured output;
- the verdict: from ``verdict_from`` (a callable on the agent result, or the name of a field of the
  structured output); by default the ``verdict`` or ``route`` field of the structured output when
  the agent produced one, else none;
- the tools: the names of the agent's ``toolUse`` blocks in call order, with every tool use, its
  input and its ``toolResult`` status (``success`` or ``error``) kept in ``Observation.raw``;
- the model's ``model_id`` from its configuration, and the tokens of that invocation from the result
  metrics, when present (a model that reports none leaves them unknown, never zero);
- the state, with ``state_from``: what it returns (a JSON object) when called with the agent once
  the invocation has ended (``state_from=lambda agent: agent.state.get()`` reports the agent's
  key-value state, which tools write through their ``ToolContext``), or with no argument.

Faults reach tools made with :func:`as_strands_tool`: Strands runs the fairwitness tool inside its
own tool execution, so an injected timeout is what the model reads in the ``toolResult``
(``status: "error"``, with the do-not-claim-absence note), and the fairwitness tool records the call.
Every other tool the agent calls (a plain Strands ``@tool`` function, a tool of an MCP client) is
recorded by a hook on the agent's ``BeforeToolCallEvent`` / ``AfterToolCallEvent``, in the order the
calls start, with its input as the arguments: a ``toolResult`` with ``status: "error"`` is an error
whose kind comes from the exception the tool raised, else from the result text when it names a
cause (a timeout, a rate limit, "not found", ...), else ``unknown``. A call retried by a hook is
recorded once per attempt. Pass ``trace_tools=False`` to record only the fairwitness tools.

A shared agent instance keeps a conversation: trials on it run one at a time, each starting from the
conversation the agent had when it was wrapped. Pass a function that builds a fresh agent to let
trials run concurrently.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import inspect
import json
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from fairwitness.errors import TargetLoadError
from fairwitness.targets._sdk import (
    StateFrom,
    answer_of,
    check_answer_from,
    check_state_from,
    read_state,
)
from fairwitness.targets.base import Observation
from fairwitness.targets.mcp import classify_error_text
from fairwitness.tools.decorator import classify
from fairwitness.tools.results import Empty, Err, Ok, to_jsonable
from fairwitness.trace.context import TrialContext, active, current
from fairwitness.trace.model import ErrKind, ToolCall

if TYPE_CHECKING:
    from fairwitness.dataset import Case

INSTALL_HINT = "pip install 'fairwitness[strands]'"

VerdictFrom = Callable[[Any], str | None] | str | None
"""How to read a verdict: a callable on the ``AgentResult``, a structured-output field, or default."""

AnswerFrom = Callable[[Any], str] | str | None
"""How to read the answer: the final message's text (``None``), a str structured-output field, or a
callable on the ``AgentResult``."""


def require_strands() -> None:
    """Check that Strands Agents is importable; raise :class:`TargetLoadError` with the fix if not."""
    try:
        import strands  # noqa: F401
    except ImportError as exc:
        raise TargetLoadError(
            f"the Strands adapter needs the 'strands-agents' package, which is not installed: "
            f"{INSTALL_HINT}"
        ) from exc


# -- fairwitness tools inside Strands ----------------------------------------------------------


def strands_tool_result(result: Ok | Empty | Err) -> dict[str, Any]:
    """A Strands tool result for a typed result: ``Err`` is ``status: "error"``, the rest success."""
    return {
        "status": "error" if isinstance(result, Err) else "success",
        "content": [{"text": result.to_model()}],
    }


def _checked(value: Any, name: str) -> Ok | Empty | Err:
    if isinstance(value, (Ok, Empty, Err)):
        return value
    raise TypeError(f"tool {name!r} returned {type(value).__name__}, not Ok | Empty | Err")


def as_strands_tool(fn: Callable[..., Any], *, description: str | None = None) -> Any:
    """Make a ``@fairwitness.tool`` function usable as a Strands tool of the same name.

    The Strands tool's parameters and description come from the function's signature and
    docstring. Each call goes through the fairwitness tool, so it is recorded in the trial's trace
    and declared faults fire; the model reads the typed result as the tool result's text.
    """
    require_strands()
    from strands import tool as strands_tool

    spec = getattr(fn, "__fairwitness_tool__", None)
    if spec is None:
        raise TypeError(
            f"{getattr(fn, '__name__', fn)!r} is not a fairwitness tool: "
            "wrap it with @fairwitness.tool() first"
        )
    name: str = spec.name
    run: Callable[..., Any]
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def run_async(*args: Any, **kwargs: Any) -> dict[str, Any]:
            return strands_tool_result(_checked(await fn(*args, **kwargs), name))

        run = run_async
    else:

        @functools.wraps(fn)
        def run_sync(*args: Any, **kwargs: Any) -> dict[str, Any]:
            return strands_tool_result(_checked(fn(*args, **kwargs), name))

        run = run_sync
    run.__annotations__ = {k: v for k, v in run.__annotations__.items() if k != "return"}
    made: Any = strands_tool(name=name, description=description)(run)
    made.__fairwitness_tool__ = spec
    return made


# -- any other Strands tool, through the agent's hooks ------------------------------------------

_LAST = 100
"""Hook order that runs after the other hooks: the recorder sees the tool and result they settled."""


def result_text(result: Any) -> str:
    """The text blocks of a Strands ``toolResult``, joined by newlines."""
    content = result.get("content") if isinstance(result, Mapping) else None
    return "\n".join(
        str(block["text"])
        for block in content or ()
        if isinstance(block, Mapping) and block.get("text") is not None
    )


def error_kind(text: str, exception: BaseException | None = None) -> ErrKind:
    """The kind of a failed Strands tool call: from its exception, else from a cause its text names."""
    if exception is not None:
        kind = classify(exception)
        if kind != "unknown":
            return kind
    kind = classify_error_text(text)
    return "unknown" if kind == "upstream" else kind  # "upstream" is what names no cause


class _Started:
    __slots__ = ("arguments", "name", "seq", "started")

    def __init__(self, seq: int, name: str, arguments: dict[str, Any]) -> None:
        self.seq, self.name, self.arguments = seq, name, arguments
        self.started = time.perf_counter()


def _use_id(tool_use: Any) -> str:
    return str(tool_use.get("toolUseId", "")) if isinstance(tool_use, Mapping) else ""


class ToolCallRecorder:
    """Records the calls of a Strands agent's tools into the trial in progress.

    Register it with :meth:`attach`. Tools made with :func:`as_strands_tool` are skipped (their
    fairwitness tool records them), and so is every call made outside a trial.
    """

    def __init__(self) -> None:
        self._open: weakref.WeakKeyDictionary[TrialContext, dict[str, _Started]] = (
            weakref.WeakKeyDictionary()
        )

    def attach(self, agent: Any) -> None:
        """Register the recorder's callbacks on ``agent``'s hook registry."""
        from strands.hooks import AfterToolCallEvent, BeforeToolCallEvent

        registry = agent.hooks
        for event, callback in (
            (BeforeToolCallEvent, self.before_tool_call),
            (AfterToolCallEvent, self.after_tool_call),
        ):
            try:
                registry.add_callback(event, callback, order=_LAST)
            except TypeError:  # a Strands release without ordered hooks
                registry.add_callback(event, callback)

    @staticmethod
    def _start(ctx: TrialContext, tool_use: Any) -> _Started:
        use = tool_use if isinstance(tool_use, Mapping) else {}
        given = use.get("input")
        arguments = to_jsonable(given) if isinstance(given, Mapping) else {"input": given}
        return _Started(ctx.start_tool_call(), str(use.get("name") or "unnamed_tool"), arguments)

    def before_tool_call(self, event: Any) -> None:
        """Reserve the call's position when it starts, unless a fairwitness tool runs it or it is
        the agent's structured-output tool (its answer, not a tool it used)."""
        ctx = active()
        if ctx is None or _not_traced(event.selected_tool):
            return
        self._open.setdefault(ctx, {})[_use_id(event.tool_use)] = self._start(ctx, event.tool_use)

    def after_tool_call(self, event: Any) -> None:
        """Record the finished call with the outcome the model reads."""
        ctx = active()
        if ctx is None:
            return
        call = self._open.get(ctx, {}).pop(_use_id(event.tool_use), None)
        if call is None:
            if getattr(event, "cancel_message", None) is None or _is_answer(event.selected_tool):
                return  # a fairwitness tool, which recorded itself, or the structured answer
            call = self._start(ctx, event.tool_use)  # cancelled by a hook before it could run
        result = event.result
        failed = isinstance(result, Mapping) and result.get("status") == "error"
        ctx.record_tool_call(
            call.seq,
            ToolCall(
                name=call.name,
                arguments=call.arguments,
                status="error" if failed else "ok",
                kind=error_kind(result_text(result), event.exception) if failed else None,
                latency_ms=round((time.perf_counter() - call.started) * 1000, 3),
            ),
        )


def _is_answer(selected: Any) -> bool:
    """Whether ``selected`` is Strands' structured-output tool: the agent answering, not a tool."""
    return getattr(selected, "tool_type", None) == "structured_output"


def _not_traced(selected: Any) -> bool:
    return getattr(selected, "__fairwitness_tool__", None) is not None or _is_answer(selected)


_RECORDED: weakref.WeakSet[Any] = weakref.WeakSet()
"""Agents that already carry a recorder (an agent built once and returned by a factory)."""


def _record_tools(agent: Any) -> None:
    if not callable(getattr(getattr(agent, "hooks", None), "add_callback", None)):
        return
    try:
        if agent in _RECORDED:
            return
        _RECORDED.add(agent)
    except TypeError:  # not weakly referenceable: hook it anyway
        pass
    ToolCallRecorder().attach(agent)


# -- reading an agent result -------------------------------------------------------------------


def _blocks(message: Any) -> list[Mapping[str, Any]]:
    content = message.get("content") if isinstance(message, Mapping) else None
    return [b for b in content or () if isinstance(b, Mapping)]


def tool_uses(messages: Sequence[Any]) -> list[dict[str, Any]]:
    """Each ``toolUse`` in ``messages``, in order, with its result's status (None if none came)."""
    uses: list[dict[str, Any]] = []
    by_id: dict[str, dict[str, Any]] = {}
    for message in messages:
        for block in _blocks(message):
            use = block.get("toolUse")
            if isinstance(use, Mapping):
                entry = {
                    "name": str(use.get("name", "")),
                    "input": to_jsonable(use.get("input")),
                    "status": None,
                }
                uses.append(entry)
                by_id[str(use.get("toolUseId", ""))] = entry
            result = block.get("toolResult")
            if isinstance(result, Mapping):
                found = by_id.get(str(result.get("toolUseId", "")))
                if found is not None:
                    found["status"] = result.get("status")
    return uses


def final_text(result: Any) -> str:
    """The text blocks of the final message; the structured output as JSON when there are none."""
    texts = [b["text"] for b in _blocks(getattr(result, "message", None)) if "text" in b]
    if texts:
        return "\n".join(str(t) for t in texts).strip()
    structured = getattr(result, "structured_output", None)
    if structured is not None:
        return json.dumps(to_jsonable(structured), ensure_ascii=False)
    return ""


def read_answer(result: Any, answer_from: AnswerFrom) -> str:
    """The answer of an agent result: :func:`final_text` without ``answer_from``; else the str field
    it names of the structured output, or what it returns when called with the result. A missing
    field or a value that is not a str raises :class:`~fairwitness.targets.base.InvalidReturn`."""
    if answer_from is None:
        return final_text(result)
    structured = getattr(result, "structured_output", None)
    return answer_of(answer_from, result, structured, "the result's structured_output")


def read_verdict(result: Any, verdict_from: VerdictFrom) -> str | None:
    """The verdict of an agent result (see the module documentation)."""
    if callable(verdict_from):
        verdict = verdict_from(result)
    else:
        structured = getattr(result, "structured_output", None)
        if structured is None:
            return None
        fields = (verdict_from,) if isinstance(verdict_from, str) else ("verdict", "route")
        verdict = next(
            (v for v in (getattr(structured, f, None) for f in fields) if v is not None), None
        )
    if verdict is not None and not isinstance(verdict, str):
        raise TypeError(f"the verdict read from the agent result is not a str: {verdict!r}")
    return verdict or None


def _model_id(agent: Any) -> str | None:
    model = getattr(agent, "model", None)
    get_config = getattr(model, "get_config", None)
    config = get_config() if callable(get_config) else None
    value = config.get("model_id") if isinstance(config, Mapping) else None
    return value if isinstance(value, str) and value else None


def _usage(result: Any) -> tuple[int | None, int | None]:
    invocations = getattr(getattr(result, "metrics", None), "agent_invocations", None)
    if not invocations:
        return None, None
    usage = getattr(invocations[-1], "usage", None)
    if not isinstance(usage, Mapping):
        return None, None
    tokens = (usage.get("inputTokens"), usage.get("outputTokens"))
    return tuple(t if isinstance(t, int) and t >= 0 else None for t in tokens)  # type: ignore[return-value]


def observe(
    agent: Any,
    result: Any,
    messages: Sequence[Any],
    verdict_from: VerdictFrom,
    answer_from: AnswerFrom = None,
) -> Observation:
    """Record the model and tokens in the trial, and build the observation of one invocation."""
    ctx = current()
    model_id = _model_id(agent)
    if model_id is not None:
        ctx.record_model(model_id)
    input_tokens, output_tokens = _usage(result)
    if input_tokens is not None or output_tokens is not None:
        ctx.record_usage(input_tokens=input_tokens, output_tokens=output_tokens)
    uses = tool_uses(messages)
    structured = getattr(result, "structured_output", None)
    # the structured-output tool is named after its model: that call is the answer, not a tool
    answer_tool = type(structured).__name__ if structured is not None else None
    return Observation(
        text=read_answer(result, answer_from),
        verdict=read_verdict(result, verdict_from),
        tools=tuple(u["name"] for u in uses if u["name"] != answer_tool),
        raw={
            "stop_reason": getattr(result, "stop_reason", None),
            "tool_uses": uses,
            "structured_output": to_jsonable(structured) if structured is not None else None,
        },
    )


# -- the target --------------------------------------------------------------------------------


class StrandsTarget:
    """A target running a Strands agent on each case's input text."""

    def __init__(
        self,
        agent: Any,
        verdict_from: VerdictFrom = None,
        *,
        answer_from: AnswerFrom = None,
        trace_tools: bool = True,
        state_from: StateFrom = None,
    ) -> None:
        check_answer_from(answer_from)
        check_state_from(state_from)
        self._answer_from = answer_from
        self._state_from = state_from
        self._shared = agent if hasattr(agent, "invoke_async") else None
        self._factory: Callable[[], Any] | None = None if self._shared is not None else agent
        self._verdict_from = verdict_from
        self._trace_tools = trace_tools
        if self._shared is not None and trace_tools:
            _record_tools(self._shared)
        self._initial = list(getattr(self._shared, "messages", None) or [])
        self._lock: asyncio.Lock | None = None
        named = agent if self._factory is not None else type(agent)
        self.__qualname__ = getattr(named, "__qualname__", type(agent).__qualname__)
        self.__module__ = getattr(named, "__module__", type(agent).__module__)

    async def __call__(self, case: Case) -> Observation:
        agent: Any
        if self._factory is not None:
            agent = self._factory()
            if self._trace_tools:
                _record_tools(agent)
            before = len(getattr(agent, "messages", None) or [])
            result = await agent.invoke_async(case.text)
            messages = list(agent.messages)[before:]
            observed = observe(agent, result, messages, self._verdict_from, self._answer_from)
            return await self._with_state(observed, agent)
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            agent = self._shared
            agent.messages = list(self._initial)
            try:
                result = await agent.invoke_async(case.text)
                messages = list(agent.messages)[len(self._initial) :]
                observed = observe(agent, result, messages, self._verdict_from, self._answer_from)
                return await self._with_state(observed, agent)
            finally:
                agent.messages = list(self._initial)

    async def _with_state(self, observed: Observation, agent: Any) -> Observation:
        if self._state_from is None:
            return observed
        return dataclasses.replace(observed, state=await read_state(self._state_from, agent))


def from_strands(
    agent: Any,
    *,
    verdict_from: VerdictFrom = None,
    answer_from: AnswerFrom = None,
    trace_tools: bool = True,
    state_from: StateFrom = None,
) -> StrandsTarget:
    """A target for a Strands ``Agent``, or for a function that builds a fresh one per trial.

    ``answer_from`` names the str field of the structured output that holds the answer text, or is
    a callable of the ``AgentResult`` returning it (see the module documentation); a value of
    another kind is a ``TypeError`` here. With ``trace_tools`` a hook on each agent records the calls
    of tools not made with :func:`as_strands_tool` (see the module documentation).
    ``state_from`` reads the state of the world after each invocation for ``expect.state``: a
    callable (sync or async) of the agent that ran, or of no argument, returning a JSON object.
    """
    require_strands()
    if not hasattr(agent, "invoke_async") and not callable(agent):
        raise TypeError(
            f"from_strands needs a Strands Agent or a function building one, "
            f"got {type(agent).__name__}"
        )
    return StrandsTarget(
        agent,
        verdict_from,
        answer_from=answer_from,
        trace_tools=trace_tools,
        state_from=state_from,
    )


__all__ = [
    "INSTALL_HINT",
    "AnswerFrom",
    "StrandsTarget",
    "ToolCallRecorder",
    "VerdictFrom",
    "as_strands_tool",
    "error_kind",
    "final_text",
    "from_strands",
    "read_answer",
    "read_verdict",
    "require_strands",
    "result_text",
    "strands_tool_result",
    "tool_uses",
]
