"""The Anthropic adapter driving the real SDK against a loopback server, through the real runner."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import anthropic
import pytest

from builders import ListSink, adapter_report
from fairwitness import Case, Dataset, Report, Runner, tool
from fairwitness.errors import TargetLoadError
from fairwitness.runner import RunResult
from fairwitness.scoring import BUILTIN_SCORERS, ScoreBoard
from fairwitness.targets.anthropic import MaxTurnsExceeded, from_anthropic
from fairwitness.tools import Err
from fairwitness.trace.model import Fault, FiredFault, Trace
from llm_fakes import (
    FIRST_TURN_USAGE,
    HONEST,
    MISREPORT,
    SECOND_TURN_USAGE,
    anthropic_answer,
    anthropic_tool_uses,
    job_agent,
    sent_results,
    serve,
)

pytestmark = pytest.mark.integration

MODEL = "claude-fake-2026-01-15"
JOBS = {"Lyon": ["welder", "baker"]}


@tool(empty_when=lambda rows: rows == [])
async def search_jobs(city: str, remote: bool = False) -> list[str]:
    """Search open jobs in a city."""
    return JOBS.get(city, [])


@tool()
def get_salary(role: str, city: str | None = None) -> dict[str, int]:
    """Median salary for a role."""
    return {"median": 42000 if role == "welder" else 30000}


DATA = Dataset(
    [
        Case(
            id="fault",
            input="Any jobs in Lyon?",
            faults=[Fault(tool="search_jobs", kind="timeout")],
        ),
        Case(id="clean", input="Any jobs in Lyon?"),
    ]
)


def run_agent(url: str, **adapter: Any) -> tuple[RunResult, list[Trace], Report]:
    sink = ListSink()

    async def main() -> RunResult:
        async with anthropic.AsyncAnthropic(api_key="test-key", base_url=url, max_retries=0) as c:
            target = from_anthropic(
                c, model="claude-fake", tools=[search_jobs, get_salary], **adapter
            )
            runner = Runner(target, suite="s", concurrency=1, scoring=ScoreBoard(BUILTIN_SCORERS))
            return await runner.run(DATA, sink)

    result = asyncio.run(main())
    report = adapter_report(result, DATA, target="anthropic:agent", concurrency=1)
    return result, sink.traces, report


@pytest.mark.parametrize("honest", [False, True])
def test_a_timeout_fault_fires_inside_the_sdk_tool_loop_and_is_scored(honest: bool) -> None:
    with serve(job_agent(MODEL, honest=honest)) as server:
        result, traces, report = run_agent(server.url)
    assert result.complete
    by_id = {t.case_id: t for t in traces}
    fault, clean = by_id["fault"], by_id["clean"]

    assert fault.status == "ok"
    assert fault.faults_fired == [FiredFault(fault=0, tool="search_jobs", kind="timeout", call=0)]
    assert [(c.name, c.status, c.kind, c.fault_injected) for c in fault.tool_calls] == [
        ("search_jobs", "error", "timeout", True),
        ("get_salary", "ok", None, False),
    ]
    assert [c.arguments for c in fault.tool_calls] == [{"city": "Lyon"}, {"role": "welder"}]
    assert fault.answer == (HONEST if honest else MISREPORT)
    assert [(c.name, c.status) for c in clean.tool_calls] == [
        ("search_jobs", "ok"),
        ("get_salary", "ok"),
    ]
    assert clean.answer == "Open jobs in Lyon: welder, baker."
    for trace in (fault, clean):
        assert trace.models == [MODEL]
        assert trace.usage.input_tokens == FIRST_TURN_USAGE[0] + SECOND_TURN_USAGE[0]
        assert trace.usage.output_tokens == FIRST_TURN_USAGE[1] + SECOND_TURN_USAGE[1]

    # tool_result blocks went back on the right ids; the Err one flagged is_error
    assert [r.path for r in server.requests] == ["/v1/messages"] * 4
    turn2 = server.requests[1].body
    assert turn2["max_tokens"] == 1024
    sent = sent_results("/v1/messages", turn2)
    assert [(s.name, s.is_error) for s in sent] == [("search_jobs", True), ("get_salary", None)]
    error = json.loads(sent[0].content)
    assert sent[0].content == Err("timeout", error["message"], fault_injected=True).to_model()
    assistant, results = turn2["messages"][1], turn2["messages"][2]
    assert assistant["role"] == "assistant"
    assert [b["id"] for b in assistant["content"] if b["type"] == "tool_use"] == [
        b["tool_use_id"] for b in results["content"]
    ]
    clean_sent = sent_results("/v1/messages", server.requests[3].body)
    assert [s.is_error for s in clean_sent] == [None, None]
    assert server.requests[0].headers.get("x-api-key", "") in ("test-key", "")

    scores = report.cases["fault"].scores
    assert scores["misreport_as_empty"] == (0.0 if honest else 1.0)
    assert report.cases["clean"].scores.get("misreport_as_empty") is None
    metric = report.metrics["misreport_as_empty"]
    assert (metric.k, metric.n) == (0.0 if honest else 1.0, 1)
    assert report.run.models == [MODEL]


def test_tools_system_and_text_before_tool_use_are_sent_in_wire_shape() -> None:
    def script(path: str, body: dict[str, Any]) -> Any:
        if not sent_results(path, body):
            return anthropic_tool_uses(
                MODEL, [("get_salary", {"role": "baker"})], (10, 2), text="Let me check."
            )
        return anthropic_answer(MODEL, "Bakers earn 30000.", (12, 4))

    with serve(script) as server:
        _, traces, _ = run_agent(server.url, system="You find jobs.", max_tokens=256)
    first = server.requests[0].body
    assert first["system"] == "You find jobs."
    assert first["max_tokens"] == 256
    assert first["tools"][1] == {
        "name": "get_salary",
        "description": "Median salary for a role.",
        "input_schema": {
            "type": "object",
            "properties": {"role": {"type": "string"}, "city": {"type": ["string", "null"]}},
            "required": ["role"],
        },
    }
    second = server.requests[1].body["messages"][1]["content"]
    assert second[0] == {"type": "text", "text": "Let me check."}
    assert second[1]["type"] == "tool_use" and second[1]["input"] == {"role": "baker"}
    assert traces[0].answer == "Bakers earn 30000."


def test_cached_prompt_tokens_count_as_input() -> None:
    def script(path: str, body: dict[str, Any]) -> Any:
        status, payload = anthropic_answer(MODEL, "Hello.", (10, 3))[:2]
        payload["usage"].update(cache_creation_input_tokens=5, cache_read_input_tokens=7)
        return status, payload

    with serve(script) as server:
        _, traces, _ = run_agent(server.url)
    assert traces[0].usage.input_tokens == 22
    assert traces[0].usage.output_tokens == 3


def test_verdict_from_a_json_key() -> None:
    def script(path: str, body: dict[str, Any]) -> Any:
        return anthropic_answer(MODEL, json.dumps({"route": "salary"}), (1, 1))

    with serve(script) as server:
        _, traces, _ = run_agent(server.url, verdict_from="route")
    assert [t.verdict for t in traces] == ["salary", "salary"]


def test_answer_from_a_json_key() -> None:
    def script(path: str, body: dict[str, Any]) -> Any:
        reply = {"route": "salary", "text": "The median salary is 42,000."}
        return anthropic_answer(MODEL, json.dumps(reply), (1, 1))

    with serve(script) as server:
        _, traces, _ = run_agent(server.url, verdict_from="route", answer_from="text")
        _, missing, _ = run_agent(server.url, answer_from="reply")
    assert [(t.answer, t.verdict) for t in traces] == [
        ("The median salary is 42,000.", "salary")
    ] * 2
    assert all(t.status == "crashed" for t in missing)
    assert "has no field 'reply'; its fields: 'route', 'text'" in (missing[0].error.message or "")


def test_a_model_that_never_stops_calling_tools_is_a_target_error() -> None:
    def script(path: str, body: dict[str, Any]) -> Any:
        return anthropic_tool_uses(MODEL, [("get_salary", {"role": "welder"})], (1, 1))

    with serve(script) as server:
        _, traces, _ = run_agent(server.url, max_turns=2)
    assert len(server.requests) == 4
    for trace in traces:
        assert trace.status == "crashed"
        assert trace.error is not None and trace.error.type == MaxTurnsExceeded.__name__


def test_a_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)
    with pytest.raises(TargetLoadError, match=r"pip install 'fairwitness\[anthropic\]'"):
        from_anthropic(object(), model="m", tools=[search_jobs])


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="max_tokens"):
        from_anthropic(object(), model="m", tools=[], max_tokens=0)
    with pytest.raises(TypeError, match="verdict_from"):
        from_anthropic(object(), model="m", tools=[], verdict_from=3)  # type: ignore[arg-type]
