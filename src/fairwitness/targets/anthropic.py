"""An agent over the Anthropic SDK as a fairwitness target: ``from_anthropic(client, model=...)``.

The adapter runs the tool-use loop over the Messages API: each ``tool_use`` block is run through
its ``@tool``-wrapped function, one at a time in block order (so faults are injected, calls are
traced and the trace order is reproducible), and answered with a
``tool_result`` block holding the result's :meth:`~fairwitness.tools.Ok.to_model` text; an ``Err``
is sent with ``is_error: true``. The loop ends when the model stops asking for tools. Each
response's ``model`` and token usage are recorded in the trial. With ``state_from`` the trial also
reports the state of the world after the agent finished (see :func:`from_anthropic`). The SDK is
imported only when an adapter is built: ``pip install 'fairwitness[anthropic]'``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from fairwitness.targets._sdk import (
    AdapterTool,
    AnswerFrom,
    MaxTurnsExceeded,
    StateFrom,
    VerdictFrom,
    call_sdk,
    check_answer_from,
    check_state_from,
    check_verdict_from,
    count,
    describe_tools,
    dispatch,
    read_state,
    require_sdk,
    text_answer,
    verdict_of,
)
from fairwitness.targets.base import Observation
from fairwitness.tools.results import Err
from fairwitness.trace.context import current


def _record(response: Any) -> None:
    ctx = current()
    model = getattr(response, "model", None)
    if isinstance(model, str) and model:
        ctx.record_model(model)
    usage = getattr(response, "usage", None)
    if usage is None:
        return
    inputs = count(getattr(usage, "input_tokens", None))
    if inputs is not None:  # cached prompt tokens are billed input too, reported apart
        for name in ("cache_creation_input_tokens", "cache_read_input_tokens"):
            inputs += count(getattr(usage, name, None)) or 0
    ctx.record_usage(
        input_tokens=inputs, output_tokens=count(getattr(usage, "output_tokens", None))
    )


def _block(block: Any) -> dict[str, Any]:
    """An assistant content block as it is sent back in the next request."""
    kind = getattr(block, "type", None)
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    dumped: dict[str, Any] = block.model_dump(mode="json", exclude_none=True)
    return dumped


def _text(content: Sequence[Any]) -> str:
    return "".join(block.text for block in content if getattr(block, "type", None) == "text")


async def _loop(
    client: Any,
    model: str,
    tools: dict[str, AdapterTool],
    system: str | None,
    max_tokens: int,
    text: str,
    turns: int,
) -> tuple[str, list[dict[str, Any]]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": text}]
    extra: dict[str, Any] = {}
    if tools:
        extra["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.parameters}
            for t in tools.values()
        ]
    if system:
        extra["system"] = system
    for _ in range(turns):
        response = await call_sdk(
            client.messages.create, model=model, max_tokens=max_tokens, messages=messages, **extra
        )
        _record(response)
        content = list(response.content)
        uses = [block for block in content if getattr(block, "type", None) == "tool_use"]
        messages.append({"role": "assistant", "content": [_block(block) for block in content]})
        if not uses:
            return _text(content), messages
        results: list[dict[str, Any]] = []
        for use in uses:
            result = await dispatch(tools, use.name, use.input)
            block: dict[str, Any] = {
                "type": "tool_result",
                "tool_use_id": use.id,
                "content": result.to_model(),
            }
            if isinstance(result, Err):
                block["is_error"] = True
            results.append(block)
        messages.append({"role": "user", "content": results})
    raise MaxTurnsExceeded(f"the model still asked for tools after {turns} turns")


def from_anthropic(
    client: Any,
    *,
    model: str,
    tools: Sequence[Callable[..., Any]],
    system: str | None = None,
    max_tokens: int = 1024,
    max_turns: int = 8,
    verdict_from: VerdictFrom = None,
    answer_from: AnswerFrom = None,
    state_from: StateFrom = None,
) -> Callable[[str], Awaitable[Observation]]:
    """An async target of the input text running ``model`` through ``client`` with ``tools``.

    ``client`` is an ``anthropic.AsyncAnthropic`` (or ``Anthropic``, called in a worker thread).
    ``tools`` are ``@tool``-wrapped functions; their input schemas come from their type hints.
    ``max_tokens`` bounds each response; the loop allows ``max_turns`` model calls and raises
    :class:`MaxTurnsExceeded` when the model still asks for tools after that. ``verdict_from`` is a
    callable of the final text, or the key holding the verdict in a JSON answer; without it the
    verdict is ``None``. ``answer_from`` is, likewise, the key holding the reply a user reads in a
    JSON answer (or a callable of the final text); without it the answer is the final text.
    ``state_from`` reads the state of the world once the loop has ended, for ``expect.state``: a
    callable of no argument (reading your tools' own store), or of the conversation (the list of
    messages sent, the final assistant message last, its content as blocks), sync or async,
    returning a JSON object.
    Raises :class:`~fairwitness.errors.TargetLoadError` when the SDK is missing or a tool cannot
    be described.
    """
    require_sdk("anthropic", "anthropic", "from_anthropic")
    for name, value in (("max_turns", max_turns), ("max_tokens", max_tokens)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    check_verdict_from(verdict_from)
    check_answer_from(answer_from)
    check_state_from(state_from)
    described = describe_tools(tools)

    async def target(text: str) -> Observation:
        answer, conversation = await _loop(
            client, model, described, system, max_tokens, text, max_turns
        )
        return Observation(
            text=text_answer(answer, answer_from),
            verdict=verdict_of(answer, verdict_from),
            state=await read_state(state_from, conversation),
        )

    target.__qualname__ = f"from_anthropic[{model}]"
    return target


__all__ = ["MaxTurnsExceeded", "from_anthropic"]
