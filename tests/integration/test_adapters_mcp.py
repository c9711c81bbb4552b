"""MCP tools through a real MCP server (in-process transport) and the real runner and report."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from builders import ListSink, adapter_report
from fairwitness import Case, Dataset, Runner
from fairwitness.errors import FairwitnessError, TargetLoadError
from fairwitness.scoring import BUILTIN_SCORERS, ScoreBoard
from fairwitness.targets.mcp import (
    INSTALL_HINT,
    classify_error_text,
    mcp_tool,
    mcp_tools,
    result_value,
)
from fairwitness.tools import Empty, Err, Ok
from fairwitness.trace.model import Fault

ROWS = {"Lyon": [{"title": "backend developer", "city": "Lyon"}]}
SALARIES = {"developer": 52000}


def job_server(calls: list[str]) -> MCPServer:
    """Two tools the agent uses, and two shapes of reply the adapter must keep apart."""
    server = MCPServer("jobs")

    @server.tool()
    def search_jobs(city: str) -> list[dict[str, str]]:
        """Open jobs in a city."""
        calls.append(f"search_jobs:{city}")
        return ROWS.get(city, [])

    @server.tool()
    def get_salary(role: str) -> int:
        """Typical salary of a role."""
        calls.append(f"get_salary:{role}")
        if role not in SALARIES:
            raise ValueError(f"unknown role {role!r}")
        return SALARIES[role]

    @server.tool(structured_output=False)
    def list_openings(city: str) -> list[str]:
        """Openings as plain content blocks only."""
        return [row["title"] for row in ROWS.get(city, [])]

    @server.tool()
    def find_role(role: str) -> str:
        """Fails with a message naming the cause."""
        raise ToolError(f"role {role!r} not found")

    @server.tool()
    async def slow_search(city: str) -> list[str]:
        """Never answers in time."""
        await anyio.sleep(30)
        return []

    return server


def run_with_session(server: MCPServer, body: Callable[[Any], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with Client(server) as client:
            return await body(client.session)

    return asyncio.run(main())


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


def test_an_agent_on_mcp_tools_is_traced_faulted_and_scored() -> None:
    server_calls: list[str] = []
    server = job_server(server_calls)

    async def body(session: Any) -> tuple[Any, ListSink, Dataset]:
        tools = await mcp_tools(session, ["search_jobs", "get_salary"])

        async def agent(case: Case) -> str:
            city, role = CASES[case.id]
            jobs = await tools["search_jobs"](city=city)
            salary = await tools["get_salary"](role=role)
            if isinstance(jobs, Ok) and jobs.value:
                text = f"I found {len(jobs.value)} open job(s) in {city}."
            else:  # planted bug: a failed search is reported as an empty one
                text = f"There are no open jobs in {city}."
            if isinstance(salary, Ok):
                text += f" A {role} typically earns {salary.value}."
            return text

        data = dataset()
        sink = ListSink()
        board = ScoreBoard(BUILTIN_SCORERS)
        runner = Runner(agent, suite="mcp", concurrency=2, scoring=board)
        result = await runner.run(data, sink)
        return result, sink, data

    result, sink, data = run_with_session(server, body)
    assert result.complete
    traces = {t.case_id: t for t in sink.traces}

    for trace in traces.values():
        assert [c.name for c in trace.tool_calls] == ["search_jobs", "get_salary"]

    jobs = traces["jobs"].tool_calls
    assert [(c.status, c.kind) for c in jobs] == [("ok", None), ("ok", None)]
    assert jobs[0].arguments == {"city": "Lyon"}
    assert jobs[1].arguments == {"role": "developer"}
    assert traces["jobs"].faults_fired == []

    # an empty search result is a value, not Empty: no empty_when was given
    assert [c.status for c in traces["no_jobs"].tool_calls] == ["ok", "ok"]

    # the declared timeout fired inside the MCP tool and the server never saw that search
    down = traces["search_down"]
    assert [(f.tool, f.kind, f.call) for f in down.faults_fired] == [("search_jobs", "timeout", 0)]
    first, second = down.tool_calls
    assert (first.status, first.kind, first.fault_injected) == ("error", "timeout", True)
    assert (second.status, second.fault_injected) == ("ok", False)
    assert down.answer == "There are no open jobs in Lyon. A developer typically earns 52000."

    # the server's isError result is an Err, not an exception and not Empty
    bad = traces["bad_role"].tool_calls[1]
    assert (bad.status, bad.kind, bad.fault_injected) == ("error", "upstream", False)

    assert sorted(server_calls) == sorted(
        [
            "search_jobs:Lyon",  # jobs
            "search_jobs:Atlantis",
            "search_jobs:Lyon",  # bad_role (search_down's search was replaced by the fault)
            "get_salary:developer",
            "get_salary:developer",
            "get_salary:developer",
            "get_salary:astronaut",
        ]
    )

    report = adapter_report(result, data, target="tests:mcp_agent", concurrency=2)
    fault_case = report.cases["search_down"]
    assert fault_case.faults == 1
    assert fault_case.repeats[0].faults_fired == 1
    assert fault_case.scores["misreport_as_empty"] == 1.0
    assert fault_case.repeats[0].labels["misreport_as_empty"] == "misreport"
    metric = report.metrics["misreport_as_empty"]
    assert (metric.k, metric.n) == (1.0, 1)
    assert metric.excluded.get("not_applicable") == 3
    assert "misreport_as_empty" not in report.cases["jobs"].scores


def test_results_outside_a_run() -> None:
    server = job_server([])

    async def body(session: Any) -> dict[str, Any]:
        plain = await mcp_tools(session)
        empty_aware = await mcp_tools(
            session, ["search_jobs"], empty_when={"search_jobs": lambda rows: rows == []}
        )
        unknown = mcp_tool(session, "no_such_tool")
        return {
            "names": sorted(plain),
            "search_none": await plain["search_jobs"](city="Atlantis"),
            "search_lyon": await plain["search_jobs"](city="Lyon"),
            "empty_none": await empty_aware["search_jobs"](city="Atlantis"),
            "empty_lyon": await empty_aware["search_jobs"](city="Lyon"),
            "openings_none": await plain["list_openings"](city="Atlantis"),
            "openings_lyon": await plain["list_openings"](city="Lyon"),
            "salary": await plain["get_salary"](role="developer"),
            "bad_role": await plain["get_salary"](role="astronaut"),
            "find_role": await plain["find_role"](role="astronaut"),
            "bad_args": await plain["get_salary"](job="developer"),
            "unknown": await unknown(q="x"),
        }

    got = run_with_session(server, body)
    assert got["names"] == [
        "find_role",
        "get_salary",
        "list_openings",
        "search_jobs",
        "slow_search",
    ]
    # structured content wins, and its {"result": ...} wrapper is unwrapped
    assert got["search_none"] == Ok([])
    assert got["search_lyon"] == Ok(ROWS["Lyon"])
    assert got["salary"] == Ok(52000)
    # only empty_when makes Empty
    assert got["empty_none"] == Empty()
    assert got["empty_lyon"] == Ok(ROWS["Lyon"])
    # no structured content: an empty content list is an empty value, one text block is its text
    assert got["openings_none"] == Ok([])
    assert got["openings_lyon"] == Ok("backend developer")
    bad = got["bad_role"]
    assert isinstance(bad, Err) and bad.kind == "upstream" and bad.retryable
    assert isinstance(got["find_role"], Err) and got["find_role"].kind == "not_found"
    assert "not found" in got["find_role"].message
    # a name the schema does not declare is refused before the call
    assert isinstance(got["bad_args"], Err) and got["bad_args"].kind == "invalid_args"
    assert isinstance(got["unknown"], Err) and got["unknown"].kind == "not_found"


def test_timeout_s_bounds_a_real_call_and_the_session_stays_usable() -> None:
    async def body(session: Any) -> tuple[Any, Any]:
        tools = await mcp_tools(session, ["slow_search", "search_jobs"], timeout_s=0.2)
        return await tools["slow_search"](city="Lyon"), await tools["search_jobs"](city="Lyon")

    slow, after = run_with_session(job_server([]), body)
    assert isinstance(slow, Err) and slow.kind == "timeout" and not slow.fault_injected
    assert after == Ok(ROWS["Lyon"])


def test_the_high_level_client_works_as_the_session() -> None:
    async def main() -> Any:
        async with Client(job_server([])) as client:
            tools = await mcp_tools(client, ["search_jobs"])
            return await tools["search_jobs"](city="Lyon")

    assert asyncio.run(main()) == Ok(ROWS["Lyon"])


def test_mcp_tools_refuses_names_the_server_does_not_list() -> None:
    async def body(session: Any) -> None:
        with pytest.raises(TargetLoadError, match=r"'nope'.*search_jobs"):
            await mcp_tools(session, ["search_jobs", "nope"])

    run_with_session(job_server([]), body)


class _Block:
    def __init__(self, text: str) -> None:
        self.type = "text"
        self.text = text


class _V1Result:
    """A result shaped like mcp 1.x's, which names its fields as on the wire."""

    def __init__(
        self, content: list[Any], *, isError: bool = False, structured: Any = None
    ) -> None:
        self.content = content
        self.isError = isError
        self.structuredContent = structured


def test_result_value_reads_wire_named_fields_and_keeps_declared_results() -> None:
    assert result_value(_V1Result([])) == []
    assert result_value(_V1Result([_Block("a"), _Block("b")])) == ["a", "b"]
    assert result_value(_V1Result([], structured={"result": 0})) == 0
    err = result_value(_V1Result([_Block("Rate limit exceeded")], isError=True))
    assert isinstance(err, Err) and err.kind == "rate_limit"
    assert result_value(_V1Result([], isError=True)) == Err(
        "upstream", "the MCP server reported a failure without a message"
    )
    schema = {"properties": {"result": {}, "total": {}}}
    assert result_value(_V1Result([], structured={"result": 1}), schema) == {"result": 1}
    assert isinstance(result_value(object()), Err)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Request timed out after 30s", "timeout"),
        ("HTTP 429 Too Many Requests", "rate_limit"),
        ("403 Forbidden", "auth"),
        ("Unknown tool: x", "not_found"),
        ("1 validation error for args", "invalid_args"),
        ("Error executing tool get_salary", "upstream"),
    ],
)
def test_error_text_classification(text: str, kind: str) -> None:
    assert classify_error_text(text) == kind


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)
    with pytest.raises(FairwitnessError) as info:
        mcp_tool(object(), "search_jobs")
    assert INSTALL_HINT in str(info.value)
    assert info.value.exit_code == 4
