"""OpenTelemetry GenAI spans from the real SDK's in-memory exporter become traces."""

from __future__ import annotations

from typing import Any

import opentelemetry.sdk.trace  # noqa: F401  (a dev dependency)
import pytest

from fairwitness.errors import ReportError
from fairwitness.trace.importers import SpanMapping, import_sdk_spans, traces_from_spans
from fairwitness.trace.importers._spans import Span
from otel_spans import Agent, Tool, exporter_and_tracer, run_agent


def spans_of(*agents: Agent) -> list[Any]:
    exporter, tracer = exporter_and_tracer()
    for agent in agents:
        run_agent(tracer, agent)
    return list(exporter.get_finished_spans())


def test_tool_order_outcomes_tokens_and_model() -> None:
    agent = Agent(
        "route-001",
        repeat=2,
        tools=[
            Tool("search_jobs", {"city": "Pune"}, error="timeout"),
            Tool("search_jobs", {"city": "Pune"}),
            Tool("salary", {"role": "dev"}, empty=True),
            Tool("geo", {"q": 1}, error="SomeSDKError"),
        ],
        verdict="search",
    )
    result = import_sdk_spans(spans_of(agent))
    assert result.summary() == "1 imported, 0 skipped"
    (trace,) = result.traces
    assert (trace.case_id, trace.repeat, trace.variant, trace.suite) == (
        "route-001",
        2,
        "base",
        "imported",
    )
    assert [(c.name, c.status, c.kind) for c in trace.tool_calls] == [
        ("search_jobs", "error", "timeout"),
        ("search_jobs", "ok", None),
        ("salary", "empty", None),
        ("geo", "error", "unknown"),
    ]
    assert trace.tool_calls[0].arguments == {"city": "Pune"}
    assert all(c.latency_ms >= 0 for c in trace.tool_calls)
    assert (trace.usage.input_tokens, trace.usage.output_tokens) == (17, 8)
    assert trace.usage.cost_usd is None and trace.usage.cost_unknown_reason
    assert trace.models == ["gpt-test-1-2025", "gpt-test-1"]
    assert (trace.status, trace.answer, trace.verdict, trace.error) == (
        "ok",
        "Found 2 jobs.",
        "search",
        None,
    )
    assert trace.input.model_dump() == {  # type: ignore[union-attr]
        "messages": [{"role": "user", "content": "jobs in Pune"}]
    }


def test_failed_agent_span_is_a_crash_not_an_empty_answer() -> None:
    (trace,) = import_sdk_spans(spans_of(Agent("c1", fails=True))).traces
    assert trace.status == "crashed"
    assert trace.answer is None
    assert trace.error is not None
    assert (trace.error.type, trace.error.message) == ("RuntimeError", "model overloaded")


def test_agent_without_answer_is_a_crash_with_the_reason() -> None:
    (trace,) = import_sdk_spans(spans_of(Agent("c1", answer=None))).traces
    assert trace.status == "crashed"
    assert trace.error is not None and trace.error.type == "InvalidReturn"
    assert "gen_ai.output.messages" in trace.error.message


def test_each_trace_id_is_one_trial_and_other_traces_are_skipped() -> None:
    exporter, tracer = exporter_and_tracer()
    run_agent(tracer, Agent("a"))
    with tracer.start_as_current_span("GET /health"):
        pass
    run_agent(tracer, Agent("b", repeat=None))
    result = import_sdk_spans(exporter.get_finished_spans())
    assert [(t.case_id, t.repeat) for t in result.traces] == [("a", 0), ("b", 0)]
    assert result.skipped == {"trace without an invoke_agent span": 1}
    assert result.summary() == ("2 imported, 1 skipped (trace without an invoke_agent span: 1)")


def test_agent_without_the_pairing_attribute_is_refused() -> None:
    with pytest.raises(ReportError, match=r"no 'fairwitness\.case_id' attribute") as info:
        import_sdk_spans(spans_of(Agent("a"), Agent(None)))
    assert "invoke_agent jobs" in str(info.value)


def test_pairing_attribute_is_configurable() -> None:
    spans = spans_of(Agent("ignored"))
    mapping = SpanMapping(pair_attribute="gen_ai.agent.name", suite="jobs")
    (trace,) = import_sdk_spans(spans, mapping=mapping).traces
    assert (trace.case_id, trace.suite) == ("jobs", "jobs")


def test_answer_attributes_are_tried_in_order() -> None:
    span = Span(
        trace_id="t",
        span_id="s",
        parent_id=None,
        name="invoke_agent",
        attributes={
            "gen_ai.operation.name": "invoke_agent",
            "fairwitness.case_id": "c",
            "gen_ai.completion": "legacy text",
            "fairwitness.answer": "explicit",
        },
        error=False,
        error_message=None,
        start_ns=0,
        end_ns=2_000_000,
    )
    (trace,) = traces_from_spans([span], source="x").traces
    assert trace.answer == "explicit"
    assert trace.latency_ms == 2.0
    mapping = SpanMapping(answer_attributes=("gen_ai.completion",))
    (trace,) = traces_from_spans([span], source="x", mapping=mapping).traces
    assert trace.answer == "legacy text"


def test_bad_repeat_attribute_is_refused_with_its_name() -> None:
    exporter, tracer = exporter_and_tracer()
    with tracer.start_as_current_span("invoke_agent") as root:
        root.set_attribute("gen_ai.operation.name", "invoke_agent")
        root.set_attribute("fairwitness.case_id", "c")
        root.set_attribute("fairwitness.repeat", "first")
    with pytest.raises(ReportError, match=r"fairwitness\.repeat must be an integer"):
        import_sdk_spans(exporter.get_finished_spans())
