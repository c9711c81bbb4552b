"""An agent over the OpenAI SDK as a fairwitness target: ``from_openai(client, model=..., tools=...)``.

The adapter runs the tool-call loop itself, over Chat Completions (``api="chat"``) or the Responses
API (``api="responses"``): it calls the model, runs every tool call it asks for through the
``@tool``-wrapped function, one at a time in the order the model listed them (so faults are
injected, calls are traced and the trace order is reproducible), sends back each result's
:meth:`~fairwitness.tools.Ok.to_model` text, and stops when the model answers without tool calls.
Each model response's ``model`` and token usage are recorded in the trial. With ``state_from`` the
trial also reports the state of the world after the agent finished (see :func:`from_openai`). The
SDK is imported only when an adapter is built: ``pip install 'fairwitness[openai]'``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

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
from fairwitness.trace.context import current

OpenAIApi = Literal["chat", "responses"]


def _record(response: Any, input_field: str, output_field: str) -> None:
    ctx = current()
    model = getattr(response, "model", None)
    if isinstance(model, str) and model:
        ctx.record_model(model)
    usage = getattr(response, "usage", None)
    if usage is not None:
        ctx.record_usage(
            input_tokens=count(getattr(usage, input_field, None)),
            output_tokens=count(getattr(usage, output_field, None)),
        )


def _chat_tools(tools: dict[str, AdapterTool]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in tools.values()
    ]


def _responses_tools(tools: dict[str, AdapterTool]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "name": t.name,
            "description": t.description,
            "parameters": t.parameters,
            "strict": False,
        }
        for t in tools.values()
    ]


async def _chat_loop(
    client: Any,
    model: str,
    tools: dict[str, AdapterTool],
    system: str | None,
    text: str,
    turns: int,
) -> tuple[str, list[Any]]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": text})
    extra: dict[str, Any] = {"tools": _chat_tools(tools)} if tools else {}
    for _ in range(turns):
        response = await call_sdk(
            client.chat.completions.create, model=model, messages=messages, **extra
        )
        _record(response, "prompt_tokens", "completion_tokens")
        message = response.choices[0].message
        calls = list(message.tool_calls or [])
        if not calls:
            answer = str(message.content or "")
            messages.append({"role": "assistant", "content": answer})
            return answer, messages
        messages.append(
            {
                "role": "assistant",
                "content": message.content,
                "tool_calls": [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {
                            "name": call.function.name,
                            "arguments": call.function.arguments,
                        },
                    }
                    for call in calls
                ],
            }
        )
        for call in calls:
            result = await dispatch(tools, call.function.name, call.function.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result.to_model()})
    raise MaxTurnsExceeded(f"the model still asked for tools after {turns} turns")


def _output_text(response: Any) -> str:
    parts: list[str] = []
    for item in response.output:
        if getattr(item, "type", None) == "message":
            for block in item.content:
                if getattr(block, "type", None) == "output_text":
                    parts.append(block.text)
    return "".join(parts)


async def _responses_loop(
    client: Any,
    model: str,
    tools: dict[str, AdapterTool],
    system: str | None,
    text: str,
    turns: int,
) -> tuple[str, list[Any]]:
    items: list[Any] = [{"role": "user", "content": text}]
    extra: dict[str, Any] = {"tools": _responses_tools(tools)} if tools else {}
    if system:
        extra["instructions"] = system
    for _ in range(turns):
        response = await call_sdk(client.responses.create, model=model, input=items, **extra)
        _record(response, "input_tokens", "output_tokens")
        calls = [item for item in response.output if getattr(item, "type", None) == "function_call"]
        items.extend(item.model_dump(mode="json", exclude_none=True) for item in response.output)
        if not calls:
            return _output_text(response), items
        for call in calls:
            result = await dispatch(tools, call.name, call.arguments)
            items.append(
                {
                    "type": "function_call_output",
                    "call_id": call.call_id,
                    "output": result.to_model(),
                }
            )
    raise MaxTurnsExceeded(f"the model still asked for tools after {turns} turns")


def from_openai(
    client: Any,
    *,
    model: str,
    tools: Sequence[Callable[..., Any]],
    system: str | None = None,
    max_turns: int = 8,
    api: OpenAIApi = "chat",
    verdict_from: VerdictFrom = None,
    answer_from: AnswerFrom = None,
    state_from: StateFrom = None,
) -> Callable[[str], Awaitable[Observation]]:
    """An async target of the input text running ``model`` through ``client`` with ``tools``.

    ``client`` is an ``openai.AsyncOpenAI`` (or ``OpenAI``, called in a worker thread). ``tools``
    are ``@tool``-wrapped functions; their parameter schemas come from their type hints. The loop
    allows ``max_turns`` model calls; a model still asking for tools after that raises
    :class:`MaxTurnsExceeded`, which the runner records as a target error. ``verdict_from`` is a
    callable of the final text, or the key holding the verdict in a JSON answer; without it the
    verdict is ``None``. ``answer_from`` is, likewise, the key holding the reply a user reads in a
    JSON answer (or a callable of the final text); without it the answer is the final text.
    ``state_from`` reads the state of the world once the loop has ended, for ``expect.state``: a
    callable of no argument (reading your tools' own store), or of the conversation (the list of
    messages sent, with the final answer as the last assistant message; for ``api="responses"``,
    the input items with every output item), sync or async, returning a JSON object.
    Raises :class:`~fairwitness.errors.TargetLoadError` when the SDK is missing or a tool cannot
    be described.
    """
    require_sdk("openai", "openai", "from_openai")
    if api not in ("chat", "responses"):
        raise ValueError(f"api must be 'chat' or 'responses', got {api!r}")
    if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
        raise ValueError(f"max_turns must be an integer >= 1, got {max_turns!r}")
    check_verdict_from(verdict_from)
    check_answer_from(answer_from)
    check_state_from(state_from)
    described = describe_tools(tools)
    loop = _chat_loop if api == "chat" else _responses_loop

    async def target(text: str) -> Observation:
        answer, conversation = await loop(client, model, described, system, text, max_turns)
        return Observation(
            text=text_answer(answer, answer_from),
            verdict=verdict_of(answer, verdict_from),
            state=await read_state(state_from, conversation),
        )

    target.__qualname__ = f"from_openai[{model}]"
    return target


__all__ = ["MaxTurnsExceeded", "OpenAIApi", "from_openai"]
