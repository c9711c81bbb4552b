"""GenAI spans made with the real OpenTelemetry SDK, and their OTLP JSON encoding, for importer tests.

The SDK is a test-only dependency; tests that need it skip when it is not installed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Tool:
    name: str
    args: dict[str, Any]
    error: str | None = None
    """``error.type`` of a failed call; None for a successful call."""
    empty: bool = False


@dataclass
class Agent:
    case_id: str | None
    repeat: int | None = 0
    answer: str | None = "Found 2 jobs."
    tools: list[Tool] = field(default_factory=list)
    model: str = "gpt-test-1"
    tokens: Sequence[tuple[int, int]] = ((10, 5), (7, 3))
    fails: bool = False
    verdict: str | None = None


def exporter_and_tracer() -> tuple[Any, Any]:
    """A tracer whose finished spans land in an in-memory exporter (a private provider)."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter, provider.get_tracer("fairwitness-tests")


def run_agent(tracer: Any, agent: Agent) -> None:
    """Emit the spans a GenAI-instrumented agent would: invoke_agent > chat, execute_tool, chat."""
    from opentelemetry.trace import Status, StatusCode

    with tracer.start_as_current_span("invoke_agent jobs") as root:
        root.set_attribute("gen_ai.operation.name", "invoke_agent")
        root.set_attribute("gen_ai.agent.name", "jobs")
        if agent.case_id is not None:
            root.set_attribute("fairwitness.case_id", agent.case_id)
        if agent.repeat is not None:
            root.set_attribute("fairwitness.repeat", agent.repeat)
        if agent.verdict is not None:
            root.set_attribute("fairwitness.verdict", agent.verdict)
        root.set_attribute(
            "gen_ai.input.messages",
            json.dumps([{"role": "user", "parts": [{"type": "text", "content": "jobs in Pune"}]}]),
        )
        tokens = list(agent.tokens)
        with tracer.start_as_current_span(f"chat {agent.model}") as chat:
            chat.set_attribute("gen_ai.operation.name", "chat")
            chat.set_attribute("gen_ai.request.model", agent.model)
            chat.set_attribute("gen_ai.response.model", agent.model + "-2025")
            chat.set_attribute("gen_ai.usage.input_tokens", tokens[0][0])
            chat.set_attribute("gen_ai.usage.output_tokens", tokens[0][1])
        for tool in agent.tools:
            with tracer.start_as_current_span(f"execute_tool {tool.name}") as span:
                span.set_attribute("gen_ai.operation.name", "execute_tool")
                span.set_attribute("gen_ai.tool.name", tool.name)
                span.set_attribute("gen_ai.tool.call.arguments", json.dumps(tool.args))
                if tool.empty:
                    span.set_attribute("fairwitness.tool.status", "empty")
                if tool.error is not None:
                    span.set_attribute("error.type", tool.error)
                    span.set_status(Status(StatusCode.ERROR, f"{tool.name} failed"))
        for inp, out in tokens[1:]:
            with tracer.start_as_current_span(f"chat {agent.model}") as chat:
                chat.set_attribute("gen_ai.operation.name", "chat")
                chat.set_attribute("gen_ai.request.model", agent.model)
                chat.set_attribute("gen_ai.usage.input_tokens", inp)
                chat.set_attribute("gen_ai.usage.output_tokens", out)
        if agent.fails:
            root.set_attribute("error.type", "RuntimeError")
            root.set_status(Status(StatusCode.ERROR, "model overloaded"))
        elif agent.answer is not None:
            root.set_attribute(
                "gen_ai.output.messages",
                json.dumps(
                    [
                        {
                            "role": "assistant",
                            "parts": [{"type": "text", "content": agent.answer}],
                            "finish_reason": "stop",
                        }
                    ]
                ),
            )


def _value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}  # OTLP JSON writes 64-bit integers as strings
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list | tuple):
        return {"arrayValue": {"values": [_value(v) for v in value]}}
    return {"stringValue": str(value)}


def otlp_json(spans: Sequence[Any]) -> dict[str, Any]:
    """An OTLP JSON export document (``resourceSpans``) holding SDK spans."""
    encoded = []
    for span in spans:
        item: dict[str, Any] = {
            "traceId": format(span.context.trace_id, "032x"),
            "spanId": format(span.context.span_id, "016x"),
            "name": span.name,
            "kind": 1,
            "startTimeUnixNano": str(span.start_time),
            "endTimeUnixNano": str(span.end_time),
            "attributes": [{"key": k, "value": _value(v)} for k, v in span.attributes.items()],
            "status": {},
        }
        if span.parent is not None:
            item["parentSpanId"] = format(span.parent.span_id, "016x")
        if span.status.status_code.name == "ERROR":
            item["status"] = {"code": "STATUS_CODE_ERROR", "message": span.status.description}
        encoded.append(item)
    return {
        "resourceSpans": [
            {
                "resource": {
                    "attributes": [{"key": "service.name", "value": {"stringValue": "jobs"}}]
                },
                "scopeSpans": [{"scope": {"name": "fairwitness-tests"}, "spans": encoded}],
            }
        ]
    }
