"""A Strands agent on a scripted model provider, run through the real runner and report."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel
from strands import Agent
from strands import tool as strands_tool
from strands.hooks import BeforeToolCallEvent
from strands.models import Model

from builders import ListSink, adapter_report
from fairwitness import Case, Dataset, Runner, current, tool
from fairwitness.errors import FairwitnessError
from fairwitness.scoring import BUILTIN_SCORERS, ScoreBoard
from fairwitness.targets.base import InvalidReturn
from fairwitness.targets.strands import (
    INSTALL_HINT,
    as_strands_tool,
    error_kind,
    final_text,
    from_strands,
    read_answer,
    read_verdict,
    result_text,
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

    report = adapter_report(result, data, target="tests:strands_agent", concurrency=2)
    assert report.cases["search_down"].scores["misreport_as_empty"] == 1.0
    assert report.cases["search_down"].repeats[0].labels["misreport_as_empty"] == "misreport"
    metric = report.metrics["misreport_as_empty"]
    assert (metric.k, metric.n) == (1.0, 1)
    assert report.run.models == ["scripted-model-1"]
    assert (report.usage.input_tokens, report.usage.output_tokens) == (120, 48)

    if shared:
        # every trial started from the agent's own conversation, which is left as it was
        assert target._shared.messages == []


# -- structured output ---------------------------------------------------------------------------


class Answer(BaseModel):
    answer: str
    route: str


class StructuredModel(ScriptedModel):
    """``ScriptedModel`` under a structured output model: instead of its final text it calls the
    ``Answer`` tool Strands gives it, with the first sentence of that text as the answer (the same
    planted bug: a failed search is reported as "no open jobs")."""

    async def stream(
        self,
        messages: Any,
        tool_specs: Any = None,
        system_prompt: str | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        text = ""
        async for event in super().stream(messages, tool_specs, system_prompt, **kwargs):
            delta = event.get("contentBlockDelta", {}).get("delta", {})
            if "text" in delta:
                text = delta["text"]
            elif text and "contentBlockStop" in event:
                answer = {"answer": text.split(". ")[0].rstrip(".") + ".", "route": "jobs"}
                for call in tool_use_events("Answer", answer):
                    yield call
            elif not (text and "messageStop" in event):
                yield event


def structured_agent() -> Agent:
    return Agent(
        model=StructuredModel(),
        tools=[as_strands_tool(search_jobs), as_strands_tool(get_salary)],
        structured_output_model=Answer,
        callback_handler=None,
    )


STRUCTURED_CASES = Dataset(
    [
        Case(id="jobs", input="jobs for a developer in Lyon?"),
        Case(
            id="search_down",
            input="jobs for a developer in Lyon?",
            faults=[Fault(tool="search_jobs", kind="timeout")],
        ),
    ]
)


def test_answer_from_a_structured_output_field_lets_the_misreport_be_read() -> None:
    # without answer_from the answer is the JSON of the structured output: its quoted text is not
    # read, so the misreport is not measured
    result, traces = run(from_strands(structured_agent), STRUCTURED_CASES)
    down = traces["search_down"]
    assert down.status == "ok"
    assert json.loads(down.answer or "") == {
        "answer": "There are no open jobs in Lyon.",
        "route": "jobs",
    }
    report = adapter_report(result, STRUCTURED_CASES, target="tests:structured", concurrency=2)
    assert report.cases["search_down"].scores.get("misreport_as_empty") is None
    assert report.cases["search_down"].excluded["misreport_as_empty"] == "unreadable"
    metric = report.metrics["misreport_as_empty"]
    assert (metric.n, metric.excluded.get("unreadable")) == (0, 1)

    # with answer_from the answer is the text the user reads, and the misreport is scored
    for answer_from in ("answer", lambda result: result.structured_output.answer):
        target = from_strands(structured_agent, verdict_from="route", answer_from=answer_from)
        result, traces = run(target, STRUCTURED_CASES)
        down, jobs = traces["search_down"], traces["jobs"]
        assert down.answer == "There are no open jobs in Lyon."
        assert jobs.answer == "I found 1 open job(s) in Lyon."
        assert down.verdict == jobs.verdict == "jobs"
        assert [(f.tool, f.kind) for f in down.faults_fired] == [("search_jobs", "timeout")]
        # the structured-output call is the answer, not a tool the agent used
        for trace in (down, jobs):
            assert "Answer" not in [call.name for call in trace.tool_calls]
            assert "Answer" not in (trace.reported_tools or [])
            assert [call.name for call in trace.tool_calls][:1] == ["search_jobs"]
        report = adapter_report(result, STRUCTURED_CASES, target="tests:structured", concurrency=2)
        assert report.cases["search_down"].scores["misreport_as_empty"] == 1.0
        assert report.cases["search_down"].repeats[0].labels["misreport_as_empty"] == "misreport"
        assert report.cases["jobs"].scores.get("misreport_as_empty") is None
        assert (report.metrics["misreport_as_empty"].k, report.metrics["misreport_as_empty"].n) == (
            1,
            1,
        )


def test_answer_from_an_unknown_structured_output_field_fails_the_trial() -> None:
    _, traces = run(from_strands(structured_agent, answer_from="summary"), STRUCTURED_CASES)
    error = traces["jobs"].error
    assert traces["jobs"].status == "crashed" and error is not None
    assert (error.type, error.message) == (
        "InvalidReturn",
        "answer_from='summary': the result's structured_output (Answer) has no field 'summary'; "
        "its fields: 'answer', 'route'",
    )


@dataclass
class Reply:
    text: str
    openings: int


class _Reply:
    def __init__(self) -> None:
        self.text = "No openings in Lyon."
        self.openings = 0


class PydanticReply(BaseModel):
    text: str
    openings: int


@pytest.mark.parametrize(
    "structured",
    [
        PydanticReply(text="No openings in Lyon.", openings=0),
        Reply(text="No openings in Lyon.", openings=0),
        {"text": "No openings in Lyon.", "openings": 0},
        _Reply(),
    ],
    ids=["pydantic", "dataclass", "dict", "object"],
)
def test_reading_the_answer_from_structured_output(structured: Any) -> None:
    result = _Result({"content": [{"toolUse": {"toolUseId": "a", "name": "Reply"}}]}, structured)
    assert read_answer(result, "text") == "No openings in Lyon."
    assert read_answer(result, lambda r: f"{r.structured_output is structured}") == "True"
    if not isinstance(structured, _Reply):  # by default: the structured output as JSON
        assert json.loads(read_answer(result, None)) == {
            "text": "No openings in Lyon.",
            "openings": 0,
        }
    holder = f"the result's structured_output ({type(structured).__name__})"
    with pytest.raises(InvalidReturn) as info:
        read_answer(result, "summary")
    assert str(info.value) == (
        f"answer_from='summary': {holder} has no field 'summary'; its fields: 'text', 'openings'"
        if not isinstance(structured, _Reply)
        else f"answer_from='summary': {holder} has no field 'summary'; its fields: 'openings', 'text'"
    )
    with pytest.raises(InvalidReturn, match=r"field 'openings' of .* is int, not str: 0"):
        read_answer(result, "openings")
    with pytest.raises(InvalidReturn, match=r"answer_from returned NoneType, not str: None"):
        read_answer(result, lambda r: None)
    with pytest.raises(InvalidReturn, match=r"reads a structured response, but .* is None"):
        read_answer(_Result({"content": [{"text": "hi"}]}), "text")
    assert read_answer(_Result({"content": [{"text": "hi"}]}), None) == "hi"


def test_a_bad_answer_from_is_refused() -> None:
    for answer_from in (3, "", ["answer"]):
        with pytest.raises(TypeError, match="answer_from must be a field name"):
            from_strands(structured_agent, answer_from=answer_from)  # type: ignore[arg-type]


# -- plain Strands tools next to fairwitness tools -----------------------------------------------


@strands_tool
def commute_minutes(city: str) -> int:
    """Typical commute time in a city, in minutes.

    Args:
        city: The city.
    """
    raise TimeoutError("the transit service did not answer")


@strands_tool
def office_hours(city: str) -> dict[str, Any]:
    """Opening hours of the local office.

    Args:
        city: The city.
    """
    return {"status": "error", "content": [{"text": f"no office in {city}: not found"}]}


@strands_tool
def weather(city: str) -> str:
    """Today's weather.

    Args:
        city: The city.
    """
    return f"sunny in {city}"


PLAN: list[list[tuple[str, dict[str, Any]]]] = [
    [("search_jobs", {"city": "Lyon"})],
    [("commute_minutes", {"city": "Lyon"})],
    [("get_salary", {"role": "developer"})],
    [
        ("office_hours", {"city": "Lyon"}),
        ("search_jobs", {"city": "Paris"}),
        ("weather", {"city": "Lyon"}),
    ],
]
"""The model's tool calls, one list per turn (a turn's calls run concurrently): fairwitness and plain
Strands tools mixed."""


class PlanModel(ScriptedModel):
    """Follows ``PLAN``, then answers from the search result. Like ``ScriptedModel`` it reports a
    failed search as "no open jobs"."""

    async def stream(
        self,
        messages: Any,
        tool_specs: Any = None,
        system_prompt: str | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[Any]:
        results = {
            b["toolResult"]["toolUseId"]: b["toolResult"]
            for m in messages
            for b in m["content"]
            if "toolResult" in b
        }
        turn = sum(1 for m in messages if any("toolUse" in b for b in m["content"]))
        yield {"messageStart": {"role": "assistant"}}
        if turn < len(PLAN):
            for i, (name, arguments) in enumerate(PLAN[turn]):
                start = {"toolUse": {"name": name, "toolUseId": f"u{turn}-{i}"}}
                yield {"contentBlockStart": {"start": start}}
                yield {
                    "contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(arguments)}}}
                }
                yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "tool_use"}}
        else:
            search = results["u0-0"]
            payload = json.loads(search["content"][0]["text"])
            found = search["status"] == "success" and payload.get("data")
            text = "I found open jobs in Lyon." if found else "There are no open jobs in Lyon."
            self.seen.append(("Lyon", search["status"], results["u1-0"]["status"]))
            yield {"contentBlockDelta": {"delta": {"text": text}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
        yield {"metadata": {"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}}}


def mixed_agent(model: ScriptedModel) -> Agent:
    tools = [as_strands_tool(search_jobs), as_strands_tool(get_salary)]
    return Agent(
        model=model, tools=[*tools, commute_minutes, office_hours, weather], callback_handler=None
    )


MIXED_CASES = Dataset(
    [
        Case(id="healthy", input="jobs for a developer in Lyon?"),
        Case(
            id="search_down",
            input="jobs for a developer in Lyon?",
            faults=[Fault(tool="search_jobs", kind="timeout")],
        ),
    ]
)


@pytest.mark.parametrize("shared", [True, False], ids=["shared-agent", "agent-per-trial"])
def test_plain_strands_tools_are_traced_in_order_next_to_fairwitness_tools(shared: bool) -> None:
    model = PlanModel()
    agent_or_factory: Any = mixed_agent(model) if shared else (lambda: mixed_agent(model))
    result, traces = run(from_strands(agent_or_factory), MIXED_CASES)
    assert result.complete

    for trace in traces.values():
        # each call once, in call order, with its arguments and the outcome the model read
        assert [(c.name, c.arguments) for c in trace.tool_calls] == [
            (name, arguments) for turn in PLAN for name, arguments in turn
        ]
        assert trace.reported_tools == [c.name for c in trace.tool_calls]
        # the plain tools: a raised TimeoutError, an error result naming "not found", a success
        plain = [c for c in trace.tool_calls if c.name not in ("search_jobs", "get_salary")]
        assert [(c.status, c.kind, c.fault_injected) for c in plain] == [
            ("error", "timeout", False),
            ("error", "not_found", False),
            ("ok", None, False),
        ]
        assert trace.tool_calls[2].status == "ok"  # get_salary, recorded by its own wrapper
        assert all(c.latency_ms >= 0 and c.attempts == 1 for c in trace.tool_calls)
    assert ("Lyon", "success", "error") in model.seen

    healthy, down = traces["healthy"], traces["search_down"]
    assert healthy.answer == "I found open jobs in Lyon."
    searches = [(c.status, c.kind, c.fault_injected) for c in healthy.tool_calls[::4]]
    assert searches == [("ok", None, False), ("ok", None, False)]
    searches = [(c.status, c.kind, c.fault_injected) for c in down.tool_calls[::4]]
    assert searches == [("error", "timeout", True), ("error", "timeout", True)]
    assert [(f.tool, f.kind, f.call) for f in down.faults_fired] == [
        ("search_jobs", "timeout", 0),
        ("search_jobs", "timeout", 1),
    ]
    assert down.answer == "There are no open jobs in Lyon."

    report = adapter_report(result, MIXED_CASES, target="tests:mixed_strands_agent", concurrency=2)
    assert report.cases["search_down"].scores["misreport_as_empty"] == 1.0
    assert report.cases["healthy"].scores.get("misreport_as_empty") is None

    # without tracing, only the fairwitness tools record their calls
    _, untraced = run(
        from_strands(lambda: mixed_agent(PlanModel()), trace_tools=False), MIXED_CASES
    )
    assert [c.name for c in untraced["healthy"].tool_calls] == [
        "search_jobs",
        "get_salary",
        "search_jobs",
    ]


def test_an_agent_wrapped_twice_records_each_call_once_and_nothing_outside_a_run() -> None:
    agent = mixed_agent(PlanModel())
    from_strands(agent)
    _, traces = run(from_strands(agent), Dataset([Case(id="t", input="jobs?")]))
    assert len(traces["t"].tool_calls) == sum(len(turn) for turn in PLAN)
    asyncio.run(agent.invoke_async("jobs?"))
    assert agent.messages[-1]["content"][0]["text"] == "I found open jobs in Lyon."
    assert current().tool_calls == []


def test_a_tool_call_cancelled_by_a_hook_is_an_error() -> None:
    def cancel_salary(event: BeforeToolCallEvent) -> None:
        if event.tool_use["name"] == "get_salary":
            event.cancel_tool = "salaries are off limits"

    def build() -> Agent:
        agent = mixed_agent(PlanModel())
        agent.add_hook(cancel_salary, BeforeToolCallEvent)
        return agent

    _, traces = run(from_strands(build), Dataset([Case(id="c", input="jobs?")]))
    calls = {c.name: c for c in traces["c"].tool_calls}
    assert [c.name for c in traces["c"].tool_calls] == [n for turn in PLAN for n, _ in turn]
    assert (calls["get_salary"].status, calls["get_salary"].kind) == ("error", "unknown")
    assert calls["get_salary"].arguments == {"role": "developer"}


def test_error_kinds_of_strands_tool_results() -> None:
    result = {
        "status": "error",
        "content": [{"text": "Error: upstream"}, {"json": {}}, {"text": "x"}],
    }
    assert result_text(result) == "Error: upstream\nx"
    assert result_text(None) == ""
    assert error_kind("Error: TimeoutError - slow") == "timeout"
    assert error_kind("Unknown tool: lookup") == "not_found"
    assert error_kind("Error: too many requests") == "rate_limit"
    assert error_kind("Error: it broke") == "unknown"
    assert error_kind("Error: it broke", ConnectionError("refused")) == "upstream"
    assert error_kind("Error: rate limited", ValueError("x")) == "rate_limit"


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
