"""A Strands agent on a scripted model provider, run through the real runner and report."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

import pytest
from strands import Agent
from strands.models import Model

from fairwitness import Case, Dataset, Report, Runner, tool
from fairwitness.errors import FairwitnessError
from fairwitness.scoring import BUILTIN_SCORERS, ScoreBoard
from fairwitness.targets.strands import (
    INSTALL_HINT,
    as_strands_tool,
    final_text,
    from_strands,
    read_verdict,
    tool_uses,
)
from fairwitness.trace.model import Fault, Trace

ROWS = {"Lyon": [{"title": "backend developer", "city": "Lyon"}]}
SALARIES = {"developer": 52000}


@tool(name="search_jobs")
async def search_jobs(city: str) -> list[dict[str, str]]:
    """Open jobs in a city.

    Args:
        city: The city to search.
    """
    return ROWS.get(city, [])


@tool(name="get_salary")
def get_salary(role: str) -> int:
    """Typical salary of a role.

    Args:
        role: The role.
    """
    return SALARIES[role]


class ScriptedModel(Model):
    """Calls search_jobs, then get_salary, then answers from what the search returned.

    The answer has a planted bug: a failed search is reported as "no open jobs".
    """

    def __init__(self) -> None:
        self.config: dict[str, Any] = {"model_id": "scripted-model-1"}
        self.seen: list[tuple[str, str, str]] = []

    def update_config(self, **model_config: Any) -> None:
        self.config.update(model_config)

    def get_config(self) -> dict[str, Any]:
        return self.config

    async def structured_output(
        self, output_model: Any, prompt: Any, system_prompt: str | None = None, **kwargs: Any
    ) -> AsyncGenerator[dict[str, Any], None]:
        raise NotImplementedError
        yield {}  # pragma: no cover

    async def stream(
        self,
        messages: Any,
        tool_specs: Any = None,
        system_prompt: str | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        prompt = messages[0]["content"][0]["text"]
        match = re.match(r"jobs for a (\w+) in (\w+)\?", prompt)
        assert match is not None
        role, city = match.groups()
        names = {
            b["toolUse"]["toolUseId"]: b["toolUse"]["name"]
            for m in messages
            for b in m["content"]
            if "toolUse" in b
        }
        results = {
            names[b["toolResult"]["toolUseId"]]: b["toolResult"]
            for m in messages
            for b in m["content"]
            if "toolResult" in b
        }
        yield {"messageStart": {"role": "assistant"}}
        if "search_jobs" not in results:
            for event in tool_use_events("search_jobs", {"city": city}):
                yield event
        elif "get_salary" not in results:
            for event in tool_use_events("get_salary", {"role": role}):
                yield event
        else:
            search = results["search_jobs"]
            payload = json.loads(search["content"][0]["text"])
            self.seen.append((city, search["status"], payload["status"]))
            if search["status"] == "success" and payload.get("data"):
                text = f"I found {len(payload['data'])} open job(s) in {city}."
            else:
                text = f"There are no open jobs in {city}."
            salary = results["get_salary"]
            if salary["status"] == "success":
                value = json.loads(salary["content"][0]["text"])["data"]
                text += f" A {role} typically earns {value}."
            yield {"contentBlockDelta": {"delta": {"text": text}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
        yield {
            "metadata": {
                "usage": {"inputTokens": 10, "outputTokens": 4, "totalTokens": 14},
                "metrics": {"latencyMs": 1},
            }
        }


def tool_use_events(name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """The stream events of one tool call."""
    return [
        {"contentBlockStart": {"start": {"toolUse": {"name": name, "toolUseId": f"u-{name}"}}}},
        {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(arguments)}}}},
        {"contentBlockStop": {}},
        {"messageStop": {"stopReason": "tool_use"}},
    ]


class ListSink:
    def __init__(self) -> None:
        self.traces: list[Trace] = []

    def write(self, trace: Trace) -> int:
        self.traces.append(trace)
        return len(self.traces)


CASES = {
    "jobs": ("Lyon", "developer"),
    "no_jobs": ("Atlantis", "developer"),
    "search_down": ("Lyon", "developer"),
    "bad_role": ("Lyon", "astronaut"),
}


def dataset() -> Dataset:
    return Dataset(
        [
            Case(
                id=case_id,
                input=f"jobs for a {role} in {city}?",
                faults=(
                    [Fault(tool="search_jobs", kind="timeout")] if case_id == "search_down" else []
                ),
            )
            for case_id, (city, role) in CASES.items()
        ]
    )


def run(target: Any, data: Dataset) -> tuple[Any, dict[str, Trace]]:
    sink = ListSink()
    runner = Runner(target, suite="strands", concurrency=2, scoring=ScoreBoard(BUILTIN_SCORERS))
    result = asyncio.run(runner.run(data, sink))
    return result, {t.case_id: t for t in sink.traces}


def make_agent(model: ScriptedModel) -> Agent:
    return Agent(
        model=model,
        tools=[as_strands_tool(search_jobs), as_strands_tool(get_salary)],
        callback_handler=None,
    )


@pytest.mark.parametrize("shared", [True, False], ids=["shared-agent", "agent-per-trial"])
def test_a_strands_agent_is_traced_faulted_and_scored(shared: bool) -> None:
    model = ScriptedModel()
    agent_or_factory: Any = make_agent(model) if shared else (lambda: make_agent(model))
    target = from_strands(agent_or_factory, verdict_from=lambda result: "jobs")
    data = dataset()
    result, traces = run(target, data)
    assert result.complete
    assert set(traces) == set(CASES)

    for trace in traces.values():
        assert trace.status == "ok"
        assert [c.name for c in trace.tool_calls] == ["search_jobs", "get_salary"]
        assert trace.reported_tools == ["search_jobs", "get_salary"]
        assert trace.verdict == "jobs"
        assert trace.models == ["scripted-model-1"]
        # three model calls of 10 + 4 tokens, for this trial only
        assert (trace.usage.input_tokens, trace.usage.output_tokens) == (30, 12)

    jobs = traces["jobs"]
    assert [(c.status, c.kind) for c in jobs.tool_calls] == [("ok", None), ("ok", None)]
    assert jobs.tool_calls[0].arguments == {"city": "Lyon"}
    assert jobs.answer == "I found 1 open job(s) in Lyon. A developer typically earns 52000."
    assert [c.status for c in traces["no_jobs"].tool_calls] == ["ok", "ok"]

    # the timeout fired inside Strands' tool execution: the model read an error tool result
    down = traces["search_down"]
    assert [(f.tool, f.kind) for f in down.faults_fired] == [("search_jobs", "timeout")]
    first, second = down.tool_calls
    assert (first.status, first.kind, first.fault_injected) == ("error", "timeout", True)
    assert (second.status, second.fault_injected) == ("ok", False)
    assert ("Lyon", "error", "error") in model.seen
    assert down.answer == "There are no open jobs in Lyon. A developer typically earns 52000."

    bad = traces["bad_role"].tool_calls[1]
    assert (bad.status, bad.kind, bad.fault_injected) == ("error", "unknown", False)

    report = Report.from_run(
        result,
        data,
        board=ScoreBoard(BUILTIN_SCORERS),
        target="tests:strands_agent",
        seed=0,
        repeats=1,
        concurrency=2,
        timeout_s=None,
        mode="live",
    )
    assert report.cases["search_down"].scores["misreport_as_empty"] == 1.0
    assert report.cases["search_down"].repeats[0].labels["misreport_as_empty"] == "misreport"
    metric = report.metrics["misreport_as_empty"]
    assert (metric.k, metric.n) == (1.0, 1)
    assert report.run.models == ["scripted-model-1"]
    assert (report.usage.input_tokens, report.usage.output_tokens) == (120, 48)

    if shared:
        # every trial started from the agent's own conversation, which is left as it was
        assert target._shared.messages == []


def test_as_strands_tool_keeps_the_name_signature_and_typed_text() -> None:
    strands_search = as_strands_tool(search_jobs)
    assert strands_search.tool_name == "search_jobs"
    spec = strands_search.tool_spec
    assert spec["inputSchema"]["json"]["required"] == ["city"]
    assert "Open jobs in a city." in spec["description"]
    with pytest.raises(TypeError, match="not a fairwitness tool"):
        as_strands_tool(lambda city: city)


class _Result:
    def __init__(self, message: dict[str, Any], structured: Any = None) -> None:
        self.message = message
        self.structured_output = structured


class _Routed:
    route = "search"


def test_reading_results() -> None:
    messages = [
        {
            "role": "assistant",
            "content": [{"toolUse": {"toolUseId": "a", "name": "x", "input": {}}}],
        },
        {"role": "user", "content": [{"toolResult": {"toolUseId": "a", "status": "error"}}]},
        {
            "role": "assistant",
            "content": [{"toolUse": {"toolUseId": "b", "name": "y", "input": 1}}],
        },
    ]
    assert tool_uses(messages) == [
        {"name": "x", "input": {}, "status": "error"},
        {"name": "y", "input": 1, "status": None},
    ]
    plain = _Result({"content": [{"text": "a"}, {"text": "b"}]})
    assert final_text(plain) == "a\nb"
    assert read_verdict(plain, None) is None
    routed = _Result({"content": []}, _Routed())
    assert read_verdict(routed, None) == "search"
    assert read_verdict(routed, "route") == "search"
    assert read_verdict(routed, "verdict") is None
    with pytest.raises(TypeError):
        read_verdict(plain, lambda r: 3)


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "strands", None)
    with pytest.raises(FairwitnessError) as info:
        from_strands(object())
    assert INSTALL_HINT in str(info.value)
