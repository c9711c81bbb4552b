"""OpenTelemetry GenAI spans to traces.

Spans are grouped by trace id. A group with an agent span (``gen_ai.operation.name`` =
``invoke_agent``) is one trial; other groups are skipped and counted. Within a trial:

- the case comes from the pairing attribute (default ``fairwitness.case_id``) and the repeat from
  ``fairwitness.repeat`` (default 0), read from the agent span, else from any span of the trace;
- tool calls are the ``execute_tool`` spans in start order: ``gen_ai.tool.name``,
  ``gen_ai.tool.call.arguments`` (a JSON object), an ERROR status makes an ``error`` outcome whose
  kind is ``error.type`` when it is one of fairwitness's error kinds (else ``unknown``);
  ``fairwitness.tool.status`` = ``empty`` marks an empty result explicitly;
- model spans (``chat``, ``text_completion``, ``generate_content``) give the models
  (``gen_ai.response.model``, else ``gen_ai.request.model``) and the token counts
  (``gen_ai.usage.input_tokens`` / ``output_tokens``, summed; the agent span's own counts are used
  only when there is no model span);
- the answer is the first of the answer attributes present on the agent span: an explicit
  ``fairwitness.answer``, the last assistant text of ``gen_ai.output.messages``, or
  ``gen_ai.completion``. An agent span with an ERROR status, or without an answer, is a crashed
  trial with the reason, never an empty answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, get_args

from fairwitness.errors import ReportError
from fairwitness.trace.importers._result import Imported, ImportResult
from fairwitness.trace.importers._spans import Span
from fairwitness.trace.model import (
    CaseInput,
    Conversation,
    ErrKind,
    Message,
    TargetFailure,
    ToolCall,
    Trace,
    Usage,
)

OPERATION = "gen_ai.operation.name"
AGENT_OPERATIONS = frozenset({"invoke_agent"})
MODEL_OPERATIONS = frozenset({"chat", "text_completion", "generate_content"})
TOOL_OPERATIONS = frozenset({"execute_tool"})
DEFAULT_ANSWER_ATTRIBUTES = ("fairwitness.answer", "gen_ai.output.messages", "gen_ai.completion")
_ERR_KINDS = frozenset(get_args(ErrKind))


@dataclass(frozen=True)
class SpanMapping:
    """Which span attributes carry what fairwitness needs to know about a trial."""

    pair_attribute: str = "fairwitness.case_id"
    """The attribute holding the case id."""
    repeat_attribute: str = "fairwitness.repeat"
    """The attribute holding the 0-based repeat index (0 when absent)."""
    answer_attributes: tuple[str, ...] = DEFAULT_ANSWER_ATTRIBUTES
    """Agent-span attributes tried in order for the final answer."""
    verdict_attribute: str = "fairwitness.verdict"
    """The attribute holding the route or verdict the agent reported."""
    input_attributes: tuple[str, ...] = ("fairwitness.input", "gen_ai.input.messages")
    """Agent-span attributes tried in order for the input."""
    suite: str = "imported"
    """Suite name given to traces whose spans carry no ``fairwitness.suite``."""


def _message_text(message: Any) -> str | None:
    """The text of one GenAI message (``parts`` of type ``text``, or a plain ``content``)."""
    if not isinstance(message, dict):
        return None
    parts = message.get("parts")
    if isinstance(parts, list):
        texts = [
            str(p.get("content"))
            for p in parts
            if isinstance(p, dict) and p.get("type") == "text" and p.get("content") is not None
        ]
        return "".join(texts) if texts else None
    content = message.get("content")
    return content if isinstance(content, str) else None


def _messages(value: Any) -> list[Any] | None:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return None
    return value if isinstance(value, list) else None


def _answer(span: Span, names: tuple[str, ...]) -> str | None:
    for name in names:
        value = span.attributes.get(name)
        if value is None:
            continue
        if name.endswith(".messages") or (isinstance(value, str) and value.startswith("[")):
            messages = _messages(value)
            if messages is not None:
                texts = [
                    t
                    for m in messages
                    if isinstance(m, dict) and m.get("role") in (None, "assistant")
                    for t in [_message_text(m)]
                    if t is not None
                ]
                if texts:
                    return texts[-1]
                continue
        if isinstance(value, str):
            return value
    return None


def _input(span: Span, names: tuple[str, ...]) -> CaseInput | None:
    for name in names:
        value = span.attributes.get(name)
        if isinstance(value, str) and not name.endswith(".messages"):
            return value
        messages = _messages(value)
        if messages:
            kept = [
                Message(role=str(m.get("role") or "user"), content=text)
                for m in messages
                if isinstance(m, dict)
                for text in [_message_text(m)]
                if text is not None
            ]
            if kept:
                return Conversation(messages=kept)
    return None


def _int(span: Span, name: str, default: int | None) -> int | None:
    value = span.attributes.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ReportError(span.problem(f"{name} must be an integer, got {value!r}", name))
    try:
        return int(value)
    except ValueError:
        raise ReportError(span.problem(f"{name} must be an integer, got {value!r}", name)) from None


def _tool_call(span: Span) -> ToolCall:
    attrs = span.attributes
    name = attrs.get("gen_ai.tool.name")
    if not isinstance(name, str) or not name:
        raise ReportError(span.problem("execute_tool span has no gen_ai.tool.name", "attributes"))
    raw_args = attrs.get("gen_ai.tool.call.arguments")
    arguments: dict[str, Any] = {}
    if isinstance(raw_args, str):
        try:
            parsed = json.loads(raw_args)
        except json.JSONDecodeError:
            parsed = raw_args
        arguments = parsed if isinstance(parsed, dict) else {"_raw": parsed}
    elif isinstance(raw_args, dict):
        arguments = raw_args
    explicit = attrs.get("fairwitness.tool.status")
    kind: ErrKind | None = None
    if span.error or explicit == "error":
        status = "error"
        reported = attrs.get("fairwitness.tool.kind", attrs.get("error.type"))
        kind = reported if reported in _ERR_KINDS else "unknown"
    elif explicit == "empty":
        status = "empty"
    else:
        status = "ok"
    attempts = _int(span, "fairwitness.tool.attempts", 1) or 1
    return ToolCall(
        name=name,
        arguments=arguments,
        status=status,
        kind=kind,
        latency_ms=span.duration_ms,
        attempts=max(attempts, 1),
        fault_injected=attrs.get("fairwitness.tool.fault_injected") is True,
        truncated=attrs.get("fairwitness.tool.truncated") is True,
    )


def _sum(values: Iterable[Any]) -> int | None:
    found = [int(v) for v in values if isinstance(v, int) and not isinstance(v, bool)]
    return sum(found) if found else None


def _trial(spans: list[Span], mapping: SpanMapping) -> tuple[Trace, Span] | None:
    spans = sorted(spans, key=lambda s: (s.start_ns, s.order))
    agents = [s for s in spans if s.attributes.get(OPERATION) in AGENT_OPERATIONS]
    if not agents:
        return None
    ids = {s.span_id for s in agents}
    agent = next((s for s in agents if s.parent_id not in ids), agents[0])
    holders = [agent, *(s for s in spans if s is not agent)]
    holder = next((s for s in holders if mapping.pair_attribute in s.attributes), None)
    if holder is None:
        raise ReportError(
            agent.problem(
                f"agent trace {agent.trace_id} has no '{mapping.pair_attribute}' attribute "
                "to pair it with a case"
            )
        )
    case_id = holder.attributes[mapping.pair_attribute]
    if not isinstance(case_id, str | int) or isinstance(case_id, bool) or str(case_id) == "":
        raise ReportError(
            holder.problem(
                f"'{mapping.pair_attribute}' must be a non-empty string, got {case_id!r}",
                mapping.pair_attribute,
            )
        )
    repeat = _int(holder, mapping.repeat_attribute, 0) or 0
    if repeat < 0:
        raise ReportError(holder.problem("repeat must be >= 0", mapping.repeat_attribute))
    models_spans = [s for s in spans if s.attributes.get(OPERATION) in MODEL_OPERATIONS]
    tools = [_tool_call(s) for s in spans if s.attributes.get(OPERATION) in TOOL_OPERATIONS]
    models: list[str] = []
    for s in [*models_spans, agent]:
        model = s.attributes.get("gen_ai.response.model") or s.attributes.get(
            "gen_ai.request.model"
        )
        if isinstance(model, str) and model and model not in models:
            models.append(model)
    counted = models_spans or [agent]
    usage = Usage(
        input_tokens=_sum(s.attributes.get("gen_ai.usage.input_tokens") for s in counted),
        output_tokens=_sum(s.attributes.get("gen_ai.usage.output_tokens") for s in counted),
    )
    answer = _answer(agent, mapping.answer_attributes)
    error: TargetFailure | None = None
    if agent.error:
        kind = agent.attributes.get("error.type")
        error = TargetFailure(
            type=str(kind) if kind else "Error",
            message=agent.error_message or "the agent span ended with an ERROR status",
        )
        answer = None
    elif answer is None:
        error = TargetFailure(
            type="InvalidReturn",
            message=f"no answer attribute ({', '.join(mapping.answer_attributes)}) on the agent span",
        )
    verdict = agent.attributes.get(mapping.verdict_attribute)
    suite = agent.attributes.get("fairwitness.suite")
    variant = agent.attributes.get("fairwitness.variant")
    trace = Trace(
        suite=suite if isinstance(suite, str) and suite else mapping.suite,
        case_id=str(case_id),
        repeat=repeat,
        variant=variant if isinstance(variant, str) and variant else "base",
        input=_input(agent, mapping.input_attributes) or "",
        status="ok" if error is None else "crashed",
        answer=answer,
        verdict=verdict if isinstance(verdict, str) else None,
        tool_calls=tools,
        usage=usage,
        models=models,
        latency_ms=agent.duration_ms,
        error=error,
    )
    return trace, agent


def traces_from_spans(
    spans: Iterable[Span], *, source: str, mapping: SpanMapping | None = None
) -> ImportResult:
    """One trace per agent trace id, in order of first appearance; other trace ids are skipped."""
    mapping = mapping or SpanMapping()
    groups: dict[str, list[Span]] = {}
    for span in spans:
        groups.setdefault(span.trace_id, []).append(span)
    result = ImportResult(source=source, format="otlp")
    for number, (trace_id, group) in enumerate(groups.items(), start=1):
        found = _trial(group, mapping)
        if found is None:
            result.skipped["trace without an invoke_agent span"] += 1
            continue
        trace, agent = found
        field = f"{agent.where} (trace {trace_id})"
        result.records.append(
            Imported(trace, number, file=agent.file, line=agent.line, field=field)
        )
    return result
