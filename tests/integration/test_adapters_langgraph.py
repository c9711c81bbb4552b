"""The LangGraph adapter on real graphs: a hand-built StateGraph and the prebuilt ReAct agent, driven
by a scripted chat model, run through the real Runner, scorers and report."""

from __future__ import annotations

import asyncio
import json
import sys
import warnings
from dataclasses import dataclass
from typing import Any

import langgraph  # noqa: F401  (fairwitness[langgraph]: installed with the dev extra)
import pytest
from langchain_core.callbacks import CallbackManager
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import ToolException
from langchain_core.tools import tool as lc_tool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from pydantic import BaseModel

from builders import ListSink, adapter_report
from fairwitness import Case, Dataset, Observation, Report, Runner, current
from fairwitness.errors import FairwitnessError, TargetLoadError
from fairwitness.scoring import BUILTIN_SCORERS, ScoreBoard
from fairwitness.targets.langgraph import (
    FairwitnessCallbackHandler,
    as_langchain_tool,
    from_langgraph,
)
from fairwitness.tools import Empty, Ok, tool
from fairwitness.trace.context import TrialContext, bind, unbind
from fairwitness.trace.model import Fault, FiredFault, Trace

pytestmark = pytest.mark.integration

MODEL = "scripted-jobs-1"
COMPANY_TOOL = "lg_find_company"
JOBS_TOOL = "lg_search_jobs"
BODY_RUNS: dict[str, int] = {COMPANY_TOOL: 0, JOBS_TOOL: 0}
SEEN: list[list[BaseMessage]] = []
"""Every conversation the scripted model was given, in call order."""


@tool(name=COMPANY_TOOL)
def find_company(name: str) -> dict[str, str]:
    """Look up a company by name and return its id."""
    BODY_RUNS[COMPANY_TOOL] += 1
    return {"id": f"co-{name.lower()}", "name": name}


@tool(name=JOBS_TOOL, empty_when=lambda rows: rows == [])
async def search_jobs(company_id: str, limit: int = 10) -> list[str]:
    """List the open jobs of a company."""
    BODY_RUNS[JOBS_TOOL] += 1
    await asyncio.sleep(0)
    return ["Data engineer", "Site reliability engineer"][:limit]


# -- a scripted tool-calling chat model ----------------------------------------------------------


class ScriptedJobsModel(BaseChatModel):
    """A tool-calling chat model with a fixed plan: find the company, list its jobs, then answer
    from the job list it read. Like a careless agent, it reads a failed lookup as "no jobs"."""

    @property
    def _llm_type(self) -> str:
        return "scripted-jobs"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedJobsModel:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        SEEN.append(list(messages))
        results = [m for m in messages if isinstance(m, ToolMessage)]
        step = len(results)
        if step == 0:
            message = self._call(COMPANY_TOOL, {"name": "Acme"}, step)
        elif step == 1:
            company = json.loads(str(results[0].content))["data"]["id"]
            message = self._call(JOBS_TOOL, {"company_id": company}, step)
        else:
            data = json.loads(str(results[-1].content))
            if data["status"] == "ok" and data["data"]:
                text = f"Acme has {len(data['data'])} open jobs: {', '.join(data['data'])}."
            else:
                text = "There are no open jobs at Acme."
            message = self._answer(text)
        return ChatResult(generations=[ChatGeneration(message=message)])

    @staticmethod
    def _call(name: str, args: dict[str, Any], step: int) -> AIMessage:
        return AIMessage(
            content="",
            tool_calls=[{"name": name, "args": args, "id": f"call-{step}", "type": "tool_call"}],
            response_metadata={"model_name": MODEL},
            usage_metadata={"input_tokens": 10, "output_tokens": 3, "total_tokens": 13},
        )

    @staticmethod
    def _answer(text: str) -> AIMessage:
        return AIMessage(
            content=text,
            response_metadata={"model_name": MODEL},
            usage_metadata={"input_tokens": 20, "output_tokens": 8, "total_tokens": 28},
        )


class JobsState(MessagesState):
    verdict: str


def jobs_graph(tools: list[Any], model: BaseChatModel | None = None) -> Any:
    """agent -> tools -> agent ... -> END, the shape of a ReAct agent, built by hand."""
    bound = (model or ScriptedJobsModel()).bind_tools(tools)

    async def agent(state: JobsState) -> dict[str, Any]:
        reply = await bound.ainvoke(state["messages"])
        return {"messages": [reply], "verdict": "jobs"}

    graph = StateGraph(JobsState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "agent")
    return graph.compile()


def run_report(target: Any, data: Dataset) -> tuple[dict[str, Trace], Report]:
    board = ScoreBoard(BUILTIN_SCORERS)
    runner = Runner(target, suite="lg", repeats=1, concurrency=2, scoring=board)
    sink = ListSink()
    result = asyncio.run(runner.run(data, sink))
    report = adapter_report(result, data, target="langgraph:jobs", concurrency=2)
    return {t.case_id: t for t in sink.traces}, report


def jobs_cases() -> Dataset:
    return Dataset(
        [
            Case(id="healthy", input="Which jobs are open at Acme?", expect={"route": "jobs"}),
            Case(
                id="jobs-timeout",
                input="Which jobs are open at Acme?",
                expect={"route": "jobs"},
                faults=[Fault(tool=JOBS_TOOL, kind="timeout")],
            ),
        ]
    )


@pytest.fixture
def body_runs() -> dict[str, int]:
    BODY_RUNS.update({COMPANY_TOOL: 0, JOBS_TOOL: 0})
    SEEN.clear()
    return BODY_RUNS


# -- the adapter through the real runner ---------------------------------------------------------


def test_a_timeout_fault_fires_in_the_graphs_tool_node_and_the_misreport_is_scored(
    body_runs: dict[str, int],
) -> None:
    graph = jobs_graph([as_langchain_tool(find_company), as_langchain_tool(search_jobs)])
    traces, report = run_report(from_langgraph(graph, verdict_from="verdict"), jobs_cases())

    healthy, faulty = traces["healthy"], traces["jobs-timeout"]
    assert healthy.status == faulty.status == "ok"
    assert healthy.answer == "Acme has 2 open jobs: Data engineer, Site reliability engineer."
    assert faulty.answer == "There are no open jobs at Acme."

    # the fault fired inside the graph's own tool node; the tool's body never ran for that case
    assert faulty.faults_fired == [FiredFault(fault=0, tool=JOBS_TOOL, kind="timeout", call=0)]
    assert healthy.faults_fired == []
    assert body_runs == {COMPANY_TOOL: 2, JOBS_TOOL: 1}

    # tool calls in order, with their typed outcomes
    assert [(c.name, c.status, c.kind, c.fault_injected) for c in faulty.tool_calls] == [
        (COMPANY_TOOL, "ok", None, False),
        (JOBS_TOOL, "error", "timeout", True),
    ]
    assert faulty.tool_calls[0].arguments == {"name": "Acme"}
    # LangChain validates the arguments against the schema and fills in declared defaults
    assert faulty.tool_calls[1].arguments == {"company_id": "co-acme", "limit": 10}
    assert [(c.name, c.status) for c in healthy.tool_calls] == [
        (COMPANY_TOOL, "ok"),
        (JOBS_TOOL, "ok"),
    ]

    # the model read the failure as an error ToolMessage carrying the do-not-claim-absence note
    failed = [
        m for seen in SEEN for m in seen if isinstance(m, ToolMessage) and m.status == "error"
    ]
    assert failed and all(m.name == JOBS_TOOL for m in failed)
    assert json.loads(str(failed[0].content))["kind"] == "timeout"

    # verdict from the state, model and usage from the AI messages
    for trace in (healthy, faulty):
        assert trace.verdict == "jobs"
        assert trace.models == [MODEL]
        assert trace.usage.input_tokens == 40 and trace.usage.output_tokens == 14
        assert trace.reported_tools == [COMPANY_TOOL, JOBS_TOOL]

    # the report scores the misreport on the faulted case only
    cases = report.cases
    assert cases["jobs-timeout"].scores["misreport_as_empty"] == 1.0
    assert cases["jobs-timeout"].scores["failure_handling"] == 0.0
    assert cases["healthy"].scores.get("misreport_as_empty") is None
    assert cases["healthy"].scores["route"] == 1.0
    metric = report.metrics["misreport_as_empty"]
    assert (metric.k, metric.n) == (1, 1)
    assert report.counts.faults_fired == 1


def test_the_prebuilt_react_agent_runs_the_wrapped_tools(body_runs: dict[str, int]) -> None:
    from langgraph.prebuilt import create_react_agent

    tools = [as_langchain_tool(find_company), as_langchain_tool(search_jobs)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # moved to langchain.agents in v1
        graph = create_react_agent(ScriptedJobsModel(), tools)
    traces, report = run_report(from_langgraph(graph), jobs_cases())

    faulty = traces["jobs-timeout"]
    assert faulty.answer == "There are no open jobs at Acme."
    assert [(c.name, c.status, c.kind) for c in faulty.tool_calls] == [
        (COMPANY_TOOL, "ok", None),
        (JOBS_TOOL, "error", "timeout"),
    ]
    assert faulty.verdict is None  # no verdict_from: the agent reports none
    assert report.cases["jobs-timeout"].scores["misreport_as_empty"] == 1.0


def test_langchains_create_agent_runs_the_wrapped_tools(body_runs: dict[str, int]) -> None:
    from langchain.agents import create_agent

    tools = [as_langchain_tool(find_company), as_langchain_tool(search_jobs)]
    graph = create_agent(ScriptedJobsModel(), tools)
    traces, report = run_report(from_langgraph(graph), jobs_cases())

    healthy, faulty = traces["healthy"], traces["jobs-timeout"]
    assert healthy.status == faulty.status == "ok"
    assert healthy.answer == "Acme has 2 open jobs: Data engineer, Site reliability engineer."
    assert faulty.answer == "There are no open jobs at Acme."
    # the fault fired inside the agent's tool execution; the tool's body never ran for that case
    assert faulty.faults_fired == [FiredFault(fault=0, tool=JOBS_TOOL, kind="timeout", call=0)]
    assert body_runs == {COMPANY_TOOL: 2, JOBS_TOOL: 1}
    assert [(c.name, c.status, c.kind, c.fault_injected) for c in faulty.tool_calls] == [
        (COMPANY_TOOL, "ok", None, False),
        (JOBS_TOOL, "error", "timeout", True),
    ]
    assert faulty.tool_calls[1].arguments == {"company_id": "co-acme", "limit": 10}
    assert [(c.name, c.status) for c in healthy.tool_calls] == [
        (COMPANY_TOOL, "ok"),
        (JOBS_TOOL, "ok"),
    ]
    for trace in (healthy, faulty):
        assert trace.verdict is None  # no verdict_from: the agent reports none
        assert trace.models == [MODEL]
        assert trace.usage.input_tokens == 40 and trace.usage.output_tokens == 14
        assert trace.reported_tools == [COMPANY_TOOL, JOBS_TOOL]
    assert report.cases["jobs-timeout"].scores["misreport_as_empty"] == 1.0
    assert report.cases["healthy"].scores.get("misreport_as_empty") is None
    assert report.counts.faults_fired == 1


class Answer(BaseModel):
    route: str
    answer: str


class SchemaAnsweringModel(ScriptedJobsModel):
    """``ScriptedJobsModel`` given a response format: its final answer comes as a call of the
    ``Answer`` schema's tool, the way a model answers under LangChain's tool strategy."""

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        reply = super()._generate(messages, stop, run_manager, **kw).generations[0].message
        if isinstance(reply, AIMessage) and not reply.tool_calls:
            args = {"route": "jobs", "answer": str(reply.content)}
            reply = AIMessage(
                content="",
                tool_calls=[{"name": "Answer", "args": args, "id": "final", "type": "tool_call"}],
                response_metadata={"model_name": MODEL},
            )
        return ChatResult(generations=[ChatGeneration(message=reply)])


def test_create_agent_with_a_response_format_answers_with_its_structured_response(
    body_runs: dict[str, int],
) -> None:
    from langchain.agents import create_agent
    from langchain.agents.structured_output import ToolStrategy

    tools = [as_langchain_tool(find_company), as_langchain_tool(search_jobs)]
    graph = create_agent(SchemaAnsweringModel(), tools, response_format=ToolStrategy(Answer))
    target = from_langgraph(graph, verdict_from="structured_response")
    traces, report = run_report(target, jobs_cases())

    faulty = traces["jobs-timeout"]
    assert faulty.status == "ok"
    assert json.loads(faulty.answer or "") == {
        "route": "jobs",
        "answer": "There are no open jobs at Acme.",
    }
    assert faulty.verdict == "jobs"
    # the schema's tool call gave the answer: it is neither a traced nor a reported tool
    assert [(c.name, c.status, c.kind) for c in faulty.tool_calls] == [
        (COMPANY_TOOL, "ok", None),
        (JOBS_TOOL, "error", "timeout"),
    ]
    assert faulty.reported_tools == [COMPANY_TOOL, JOBS_TOOL]
    assert report.cases["healthy"].scores["route"] == 1.0
    assert report.counts.faults_fired == 1


def test_answer_from_a_field_of_the_structured_response_lets_the_misreport_be_read(
    body_runs: dict[str, int],
) -> None:
    from langchain.agents import create_agent
    from langchain.agents.structured_output import ToolStrategy

    tools = [as_langchain_tool(find_company), as_langchain_tool(search_jobs)]
    graph = create_agent(SchemaAnsweringModel(), tools, response_format=ToolStrategy(Answer))

    # without answer_from the answer is the JSON of the whole response: its quoted text is not
    # read, so the misreport is not measured
    traces, report = run_report(
        from_langgraph(graph, verdict_from="structured_response"), jobs_cases()
    )
    assert (
        json.loads(traces["jobs-timeout"].answer or "")["answer"]
        == "There are no open jobs at Acme."
    )
    case = report.cases["jobs-timeout"]
    assert case.scores.get("misreport_as_empty") is None
    assert case.excluded["misreport_as_empty"] == "unreadable"
    metric = report.metrics["misreport_as_empty"]
    assert (metric.n, metric.excluded.get("unreadable")) == (0, 1)

    # with answer_from the answer is the text the user reads, and the misreport is scored
    target = from_langgraph(graph, verdict_from="structured_response", answer_from="answer")
    traces, report = run_report(target, jobs_cases())
    healthy, faulty = traces["healthy"], traces["jobs-timeout"]
    assert faulty.status == healthy.status == "ok"
    assert faulty.answer == "There are no open jobs at Acme."
    assert healthy.answer == "Acme has 2 open jobs: Data engineer, Site reliability engineer."
    assert faulty.verdict == "jobs"
    assert faulty.faults_fired == [FiredFault(fault=0, tool=JOBS_TOOL, kind="timeout", call=0)]
    assert faulty.reported_tools == [COMPANY_TOOL, JOBS_TOOL]
    assert report.cases["jobs-timeout"].scores["misreport_as_empty"] == 1.0
    assert report.cases["jobs-timeout"].repeats[0].labels["misreport_as_empty"] == "misreport"
    assert report.cases["healthy"].scores.get("misreport_as_empty") is None
    metric = report.metrics["misreport_as_empty"]
    assert (metric.k, metric.n) == (1, 1)


def test_answer_from_a_callable_receives_the_final_state(body_runs: dict[str, int]) -> None:
    from langchain.agents import create_agent
    from langchain.agents.structured_output import ToolStrategy

    tools = [as_langchain_tool(find_company), as_langchain_tool(search_jobs)]
    graph = create_agent(SchemaAnsweringModel(), tools, response_format=ToolStrategy(Answer))
    seen: list[Any] = []

    def answer(state: Any) -> str:
        seen.append(state)
        return f"{state['structured_response'].answer} ({len(state['messages'])} messages)"

    traces, report = run_report(from_langgraph(graph, answer_from=answer), jobs_cases())
    assert traces["jobs-timeout"].answer == "There are no open jobs at Acme. (7 messages)"
    assert all(isinstance(state["structured_response"], Answer) for state in seen)
    assert report.cases["jobs-timeout"].scores["misreport_as_empty"] == 1.0


@dataclass
class Reply:
    text: str
    openings: int


def structured_graph(structured: Any) -> Any:
    """One node that answers with an empty AI message and ``structured`` as the structured response."""

    class AnsweredState(MessagesState):
        structured_response: Any

    async def answer(state: AnsweredState) -> dict[str, Any]:
        return {"messages": [AIMessage("")], "structured_response": structured}

    graph = StateGraph(AnsweredState)
    graph.add_node("answer", answer)
    graph.add_edge(START, "answer")
    graph.add_edge("answer", END)
    return graph.compile()


@pytest.mark.parametrize(
    "structured",
    [
        Reply(text="No openings in Lyon.", openings=0),
        {"text": "No openings in Lyon.", "openings": 0},
    ],
    ids=["dataclass", "dict"],
)
def test_answer_from_reads_dataclass_and_dict_responses_and_names_what_is_wrong(
    structured: Any,
) -> None:
    graph = structured_graph(structured)
    data = Dataset([Case(id="c", input="Jobs in Lyon?")])

    def answer_with(answer_from: Any) -> Trace:
        return run_report(from_langgraph(graph, answer_from=answer_from), data)[0]["c"]

    assert answer_with("text").answer == "No openings in Lyon."
    assert json.loads(answer_with(None).answer or "") == {
        "text": "No openings in Lyon.",
        "openings": 0,
    }

    for answer_from, message in [
        (
            "summary",
            "answer_from='summary': state['structured_response'] "
            f"({type(structured).__name__}) has no field 'summary'; its fields: 'text', 'openings'",
        ),
        (
            "openings",
            "answer_from='openings': field 'openings' of state['structured_response'] is int, "
            "not str: 0",
        ),
        (lambda state: 3, "answer_from returned int, not str: 3"),
    ]:
        trace = answer_with(answer_from)
        assert trace.status == "crashed" and trace.answer is None
        assert trace.error is not None
        assert (trace.error.type, trace.error.message) == ("InvalidReturn", message)


def test_answer_from_a_field_without_a_structured_response_is_a_target_error(
    body_runs: dict[str, int],
) -> None:
    graph = jobs_graph([as_langchain_tool(find_company), as_langchain_tool(search_jobs)])
    traces, _ = run_report(from_langgraph(graph, answer_from="answer"), jobs_cases())
    error = traces["healthy"].error
    assert traces["healthy"].status == "crashed" and error is not None
    assert error.message == (
        "answer_from='answer' reads a structured response, but state['structured_response'] is None"
    )


def test_conversation_inputs_and_a_callable_verdict(body_runs: dict[str, int]) -> None:
    graph = jobs_graph([as_langchain_tool(find_company), as_langchain_tool(search_jobs)])
    case = Case(
        id="chat",
        input={
            "messages": [
                {"role": "system", "content": "You help job seekers."},
                {"role": "user", "content": "Hi"},
                {"role": "assistant", "content": "Hello! Which company?"},
                {"role": "user", "content": "Acme, please."},
            ]
        },
    )
    target = from_langgraph(graph, verdict_from=lambda state: {"route": state["verdict"]})
    traces, _ = run_report(target, Dataset([case]))
    trace = traces["chat"]
    assert trace.verdict == "jobs"
    assert trace.answer is not None and trace.answer.startswith("Acme has 2 open jobs")
    first_turn = SEEN[0]
    assert [type(m).__name__ for m in first_turn] == [
        "SystemMessage",
        "HumanMessage",
        "AIMessage",
        "HumanMessage",
    ]


class Decision(BaseModel):
    route: str
    confidence: float


def test_the_verdict_from_structured_output_in_the_state() -> None:
    async def decide(state: dict[str, Any]) -> dict[str, Any]:
        reply = AIMessage("Routing you to billing.", response_metadata={"model": "m-2"})
        return {"messages": [reply], "decision": Decision(route="billing", confidence=0.9)}

    class RoutedState(MessagesState):
        decision: Decision

    graph = StateGraph(RoutedState)
    graph.add_node("decide", decide)
    graph.add_edge(START, "decide")
    graph.add_edge("decide", END)
    target = from_langgraph(graph.compile(), verdict_from="decision")
    traces, _ = run_report(target, Dataset([Case(id="r", input="my invoice is wrong")]))
    assert traces["r"].verdict == "billing"
    assert traces["r"].models == ["m-2"]
    assert traces["r"].usage.input_tokens is None  # not reported: unknown, not zero
    assert traces["r"].reported_tools == []


# -- as_langchain_tool ---------------------------------------------------------------------------


def test_a_langchain_tool_from_a_fairwitness_tool() -> None:
    company = as_langchain_tool(find_company)
    jobs = as_langchain_tool(search_jobs)
    assert company.name == COMPANY_TOOL
    assert company.description == "Look up a company by name and return its id."
    assert set(jobs.args) == {"company_id", "limit"}
    assert jobs.tool_call_schema.model_json_schema()["required"] == ["company_id"]

    ok = company.invoke(
        {"name": COMPANY_TOOL, "args": {"name": "Initech"}, "id": "c1", "type": "tool_call"}
    )
    assert isinstance(ok, ToolMessage) and ok.status == "success"
    assert isinstance(ok.artifact, Ok)
    assert json.loads(str(ok.content))["data"] == {"id": "co-initech", "name": "Initech"}

    call = {
        "name": JOBS_TOOL,
        "args": {"company_id": "x", "limit": 0},
        "id": "c0",
        "type": "tool_call",
    }
    empty = asyncio.run(jobs.ainvoke(call))
    assert isinstance(empty, ToolMessage) and empty.status == "success"
    assert isinstance(empty.artifact, Empty) and json.loads(str(empty.content))["status"] == "empty"

    ctx = TrialContext(suite="s", case_id="c", faults=[Fault(tool=JOBS_TOOL, kind="upstream")])
    token = bind(ctx)
    try:
        call = {"name": JOBS_TOOL, "args": {"company_id": "x"}, "id": "c2", "type": "tool_call"}
        failed = asyncio.run(jobs.ainvoke(call))
    finally:
        unbind(token)
    assert isinstance(failed, ToolMessage) and failed.status == "error"
    assert json.loads(str(failed.content))["kind"] == "upstream"
    assert [(c.name, c.status, c.kind) for c in ctx.tool_calls] == [
        (JOBS_TOOL, "error", "upstream")
    ]


def test_only_fairwitness_tools_can_be_converted() -> None:
    def plain(q: str) -> str:
        return q

    with pytest.raises(TypeError, match=r"not wrapped with @tool\(\)"):
        as_langchain_tool(plain)


# -- the callback handler ------------------------------------------------------------------------


@lc_tool
def flaky_feed(topic: str) -> str:
    """Read a news feed that times out."""
    raise TimeoutError("feed did not answer")


@lc_tool
def broken_feed(topic: str) -> str:
    """Read a news feed that breaks."""
    raise RuntimeError("feed is broken")


@lc_tool
def refusing_feed(topic: str) -> str:
    """Read a news feed that reports its own failure."""
    raise ToolException("feed refused the request")


refusing_feed.handle_tool_error = True


@lc_tool
def weather(city: str) -> str:
    """Today's weather."""
    return f"sunny in {city}"


def in_trial(fn: Any) -> TrialContext:
    ctx = TrialContext(suite="s", case_id="c")
    token = bind(ctx)
    try:
        fn()
    finally:
        unbind(token)
    return ctx


def test_the_handler_records_plain_langchain_tools() -> None:
    handler = FairwitnessCallbackHandler()
    config: Any = {"callbacks": [handler]}

    def calls() -> None:
        weather.invoke({"city": "Oslo"}, config=config)
        with pytest.raises(TimeoutError):
            flaky_feed.invoke({"topic": "ai"}, config=config)
        with pytest.raises(RuntimeError):
            broken_feed.invoke({"topic": "ai"}, config=config)
        call = {"name": "refusing_feed", "args": {"topic": "ai"}, "id": "t1", "type": "tool_call"}
        message = refusing_feed.invoke(call, config=config)
        assert isinstance(message, ToolMessage) and message.status == "error"

    ctx = in_trial(calls)
    assert [(c.name, c.status, c.kind) for c in ctx.tool_calls] == [
        ("weather", "ok", None),
        ("flaky_feed", "error", "timeout"),
        ("broken_feed", "error", "unknown"),
        ("refusing_feed", "error", "unknown"),
    ]
    assert ctx.tool_calls[0].arguments == {"city": "Oslo"}
    assert all(c.latency_ms >= 0 and c.attempts == 1 for c in ctx.tool_calls)


def test_the_handler_reads_a_returned_error_tool_message_and_ignores_calls_outside_a_trial() -> (
    None
):
    handler = FairwitnessCallbackHandler()
    ctx = TrialContext(suite="s", case_id="c")
    token = bind(ctx)
    try:
        manager = CallbackManager([handler])
        run = manager.on_tool_start({"name": "lookup"}, "{'q': 'x'}", inputs={"q": "x"})
        run.on_tool_end(ToolMessage("lookup failed", tool_call_id="t9", status="error"))
    finally:
        unbind(token)
    assert [(c.name, c.status, c.kind, c.arguments) for c in ctx.tool_calls] == [
        ("lookup", "error", "unknown", {"q": "x"})
    ]
    weather.invoke({"city": "Oslo"}, config={"callbacks": [handler]})  # no trial: nothing kept
    assert len(ctx.tool_calls) == 1


def test_from_langgraph_traces_plain_tools_once_and_wrapped_tools_once(
    body_runs: dict[str, int],
) -> None:
    @lc_tool
    def lg_plain_lookup(q: str) -> str:
        """A plain LangChain tool."""
        raise ConnectionError("refused")

    class TwoToolModel(ScriptedJobsModel):
        def _generate(
            self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> ChatResult:
            done = [m for m in messages if isinstance(m, ToolMessage)]
            if done:
                failed = any(m.status == "error" for m in done)
                message = self._answer("The lookup failed." if failed else "All good.")
            else:
                message = AIMessage(
                    content="",
                    tool_calls=[
                        {
                            "name": COMPANY_TOOL,
                            "args": {"name": "Acme"},
                            "id": "a",
                            "type": "tool_call",
                        },
                        {
                            "name": "lg_plain_lookup",
                            "args": {"q": "x"},
                            "id": "b",
                            "type": "tool_call",
                        },
                    ],
                )
            return ChatResult(generations=[ChatGeneration(message=message)])

    tools = [as_langchain_tool(find_company), lg_plain_lookup]
    # the plain tool raises; a ToolNode that handles errors turns it into an error ToolMessage
    graph = _with_error_handling(tools, TwoToolModel())
    traces, _ = run_report(from_langgraph(graph), Dataset([Case(id="both", input="go")]))
    trace = traces["both"]
    assert trace.answer == "The lookup failed."
    assert sorted((c.name, c.status, c.kind) for c in trace.tool_calls) == [
        (COMPANY_TOOL, "ok", None),
        ("lg_plain_lookup", "error", "upstream"),
    ]
    assert body_runs[COMPANY_TOOL] == 1
    for callbacks in ([FairwitnessCallbackHandler()], CallbackManager([])):
        # the caller's own handler is not doubled; a caller's manager gets one
        config: Any = {"callbacks": callbacks}
        mine = run_report(from_langgraph(graph, config=config), Dataset([Case(id="m", input="go")]))
        assert len(mine[0]["m"].tool_calls) == 2
    untraced = run_report(
        from_langgraph(graph, trace_tools=False), Dataset([Case(id="x", input="go")])
    )
    assert [c.name for c in untraced[0]["x"].tool_calls] == [COMPANY_TOOL]


def _with_error_handling(tools: list[Any], model: BaseChatModel) -> Any:
    bound = model.bind_tools(tools)

    async def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [await bound.ainvoke(state["messages"])]}

    graph = StateGraph(MessagesState)
    graph.add_node("agent", agent)
    graph.add_node("tools", ToolNode(tools, handle_tool_errors=True))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", tools_condition, {"tools": "tools", END: END})
    graph.add_edge("tools", "agent")
    return graph.compile()


# -- the target's edges --------------------------------------------------------------------------


def test_a_graph_that_adds_no_ai_message_is_a_target_error() -> None:
    async def echo(state: MessagesState) -> dict[str, Any]:
        return {"messages": [HumanMessage("still me")]}

    graph = StateGraph(MessagesState)
    graph.add_node("echo", echo)
    graph.add_edge(START, "echo")
    graph.add_edge("echo", END)
    traces, _ = run_report(from_langgraph(graph.compile()), Dataset([Case(id="e", input="hi")]))
    assert traces["e"].status == "crashed"
    assert traces["e"].error is not None and "no AI message" in traces["e"].error.message


def test_bad_arguments_are_refused() -> None:
    graph = jobs_graph([as_langchain_tool(find_company)])
    with pytest.raises(TypeError, match="compiled graph"):
        from_langgraph(object())
    with pytest.raises(TypeError, match="verdict_from"):
        from_langgraph(graph, verdict_from=3)  # type: ignore[arg-type]
    for answer_from in (3, "", b"answer"):
        with pytest.raises(TypeError, match="answer_from must be a field name"):
            from_langgraph(graph, answer_from=answer_from)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="input_key"):
        from_langgraph(graph, input_key="")


def test_a_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = jobs_graph([as_langchain_tool(find_company)])
    monkeypatch.setitem(sys.modules, "langgraph", None)
    with pytest.raises(TargetLoadError, match=r"pip install 'fairwitness\[langgraph\]'") as info:
        from_langgraph(graph)
    assert isinstance(info.value, FairwitnessError) and info.value.exit_code == 4
    monkeypatch.setitem(sys.modules, "langchain_core.tools", None)
    with pytest.raises(TargetLoadError, match=r"langchain_core\.tools"):
        as_langchain_tool(find_company)


def test_outside_a_run_the_target_still_answers(body_runs: dict[str, int]) -> None:
    graph = jobs_graph([as_langchain_tool(find_company), as_langchain_tool(search_jobs)])
    target = from_langgraph(graph, verdict_from="verdict")
    observation = asyncio.run(target(Case(id="p", input="Jobs at Acme?")))
    assert isinstance(observation, Observation)
    assert observation.verdict == "jobs"
    assert observation.text.startswith("Acme has 2 open jobs")
    assert current().tool_calls == []


# -- the final state -----------------------------------------------------------------------------


def test_state_from_reads_the_graphs_final_state_for_expect_state(
    body_runs: dict[str, int],
) -> None:
    tools = [as_langchain_tool(find_company), as_langchain_tool(search_jobs)]
    seen: list[Any] = []

    def state_from(state: Any) -> dict[str, Any]:
        seen.append(state)
        calls = [m.name for m in state["messages"] if isinstance(m, ToolMessage)]
        return {"verdict": state["verdict"], "tools_run": calls, "messages": len(state["messages"])}

    data = Dataset(
        [
            Case(
                id="reads",
                input="Which jobs are open at Acme?",
                expect={"state": {"verdict": "JOBS", "tools_run": [COMPANY_TOOL, JOBS_TOOL]}},
            ),
            Case(id="wrong", input="Which jobs?", expect={"state": {"tools_run": [JOBS_TOOL]}}),
            Case(id="no-check", input="Which jobs?", expect={"route": "jobs"}),
        ]
    )
    target = from_langgraph(jobs_graph(tools), verdict_from="verdict", state_from=state_from)
    traces, report = run_report(target, data)
    assert traces["reads"].state == {
        "verdict": "jobs",
        "tools_run": [COMPANY_TOOL, JOBS_TOOL],
        "messages": 6,
    }
    assert all(isinstance(state["messages"][0], HumanMessage) for state in seen)
    # a case-sensitive match: "JOBS" is not "jobs"
    assert report.cases["reads"].scores["state"] == 0.0
    assert report.cases["wrong"].scores["state"] == 0.0
    assert "state" not in report.cases["no-check"].scores
    assert (report.metrics["state"].k, report.metrics["state"].n) == (0, 2)


def test_state_from_without_an_argument_and_async(body_runs: dict[str, int]) -> None:
    tools = [as_langchain_tool(find_company), as_langchain_tool(search_jobs)]
    written: dict[str, Any] = {}

    async def store() -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"lookups": dict(body_runs)}

    data = Dataset([Case(id="a", input="Which jobs?", expect={"state": {"lookups": {}}})])
    traces, report = run_report(from_langgraph(jobs_graph(tools), state_from=store), data)
    written.update(traces["a"].state or {})
    assert written == {"lookups": {COMPANY_TOOL: 1, JOBS_TOOL: 1}}
    assert report.cases["a"].scores["state"] == 1.0


@pytest.mark.parametrize(
    ("state_from", "message"),
    [
        (lambda state: None, "state_from returned None, not the final state as a JSON object"),
        (
            lambda state: state,
            "the state state_from returned is not JSON-serialisable: Object of type HumanMessage",
        ),
        (lambda state: ["a"], "the state state_from returned must be a JSON object (a dict)"),
    ],
)
def test_a_state_that_is_not_a_json_object_fails_the_trial(
    state_from: Any, message: str, body_runs: dict[str, int]
) -> None:
    tools = [as_langchain_tool(find_company), as_langchain_tool(search_jobs)]
    data = Dataset([Case(id="a", input="Which jobs?", expect={"state": {}})])
    traces, report = run_report(from_langgraph(jobs_graph(tools), state_from=state_from), data)
    assert traces["a"].status == "crashed"
    assert traces["a"].error is not None
    assert traces["a"].error.type == "InvalidReturn"
    assert traces["a"].error.message.startswith(message)
    assert report.cases["a"].scores["state"] == 0.0
    with pytest.raises(TypeError, match="state_from must be a callable"):
        from_langgraph(jobs_graph(tools), state_from={"a": 1})  # type: ignore[arg-type]
