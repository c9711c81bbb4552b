"""from_mcp: an agent on the tools of a real MCP server, over stdio (a subprocess) and in memory."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import StdioServerParameters
from mcp.client import Client
from mcp.server.mcpserver import MCPServer

from builders import ListSink, adapter_report
from fairwitness import Case, Dataset, Runner
from fairwitness.errors import TargetLoadError
from fairwitness.runner import RunResult
from fairwitness.scoring import BUILTIN_SCORERS, ScoreBoard
from fairwitness.targets.mcp import INSTALL_HINT, from_mcp
from fairwitness.tools import Err, Ok, registered_tools
from fairwitness.trace.model import Fault, Trace

pytestmark = pytest.mark.integration

# Every run is bounded, so a server that never answers fails the test instead of hanging it.
LIMIT_S = 60.0

SERVER = '''\
import os
import sys
from pathlib import Path

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

ROWS = {"Lyon": [{"title": "backend developer", "city": "Lyon"}]}
SALARIES = {"developer": 52000}
LOG = Path(sys.argv[1])

server = MCPServer("jobs")


def note(line: str) -> None:
    with LOG.open("a", encoding="utf-8") as log:
        log.write(line + "\\n")


@server.tool()
async def search_jobs(city: str) -> list[dict[str, str]]:
    """Open jobs in a city."""
    note(f"search_jobs:{city}")
    if city == "Slowtown":
        await anyio.sleep(60)
    return ROWS.get(city, [])


@server.tool()
def get_salary(role: str) -> int:
    """Typical salary of a role."""
    note(f"get_salary:{role}")
    if role not in SALARIES:
        raise ToolError(f"no salary data for role {role!r}")
    return SALARIES[role]


if __name__ == "__main__":
    note(f"pid:{os.getpid()}")
    server.run("stdio")
'''

CASES = {
    "jobs": ("Lyon", "developer"),
    "no_jobs": ("Atlantis", "developer"),
    "search_down": ("Lyon", "developer"),
    "bad_role": ("Lyon", "astronaut"),
}


def stdio_server(tmp_path: Path) -> tuple[StdioServerParameters, Path]:
    """Parameters starting the job server in a subprocess, and the log its tools write to."""
    script = tmp_path / "job_server.py"
    script.write_text(SERVER, encoding="utf-8")
    log = tmp_path / "calls.log"
    log.touch()
    return StdioServerParameters(command=sys.executable, args=[str(script), str(log)]), log


def logged(log: Path) -> tuple[list[str], list[int]]:
    """The tool calls the servers saw, and the process ids of every server started."""
    lines = log.read_text(encoding="utf-8").splitlines()
    pids = [int(line.removeprefix("pid:")) for line in lines if line.startswith("pid:")]
    return [line for line in lines if not line.startswith("pid:")], pids


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    if status.exists():  # a zombie has exited; it only waits to be reaped
        return "\nState:\tZ" not in status.read_text(encoding="utf-8")
    return True


def bounded(main: Callable[[], Awaitable[Any]]) -> Any:
    async def run() -> Any:
        return await asyncio.wait_for(main(), LIMIT_S)

    return asyncio.run(run())


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


async def job_agent(case: Case, tools: dict[str, Any]) -> str:
    """Calls both tools in order; a failed search is reported as an empty one (a planted bug)."""
    city, role = CASES[case.id]
    jobs = await tools["search_jobs"](city=city)
    salary = await tools["get_salary"](role=role)
    if isinstance(jobs, Ok) and jobs.value:
        text = f"I found {len(jobs.value)} open job(s) in {city}."
    else:
        text = f"There are no open jobs in {city}: no results."
    if isinstance(salary, Ok):
        text += f" A {role} typically earns {salary.value}."
    return text


def run(target: Any, data: Dataset, **options: Any) -> tuple[RunResult, dict[str, Trace]]:
    sink = ListSink()
    runner = Runner(target, suite="mcp", scoring=ScoreBoard(BUILTIN_SCORERS), **options)
    result = bounded(lambda: runner.run(data, sink))
    return result, {t.case_id: t for t in sink.traces}


def test_an_agent_on_a_stdio_server_is_traced_faulted_and_scored(tmp_path: Path) -> None:
    params, log = stdio_server(tmp_path)
    target = from_mcp(params, job_agent, names=["search_jobs", "get_salary"])
    data = dataset()
    result, traces = run(target, data, concurrency=2, timeout_s=30)
    assert result.complete, result.incomplete_reason

    for trace in traces.values():
        assert trace.status == "ok", trace.error
        assert [c.name for c in trace.tool_calls] == ["search_jobs", "get_salary"]

    jobs = traces["jobs"].tool_calls
    assert [(c.status, c.kind) for c in jobs] == [("ok", None), ("ok", None)]
    assert jobs[0].arguments == {"city": "Lyon"}
    assert jobs[1].arguments == {"role": "developer"}
    assert (
        traces["jobs"].answer == "I found 1 open job(s) in Lyon. A developer typically earns 52000."
    )
    assert traces["jobs"].faults_fired == []
    assert [c.status for c in traces["no_jobs"].tool_calls] == ["ok", "ok"]

    # the declared timeout fired inside the MCP tool: that search never reached the server
    down = traces["search_down"]
    assert [(f.tool, f.kind, f.call) for f in down.faults_fired] == [("search_jobs", "timeout", 0)]
    first, second = down.tool_calls
    assert (first.status, first.kind, first.fault_injected) == ("error", "timeout", True)
    assert (second.status, second.fault_injected) == ("ok", False)

    # the server's isError reply is an Err in the trace, not a crash and not Empty
    bad = traces["bad_role"].tool_calls[1]
    assert (bad.status, bad.kind, bad.fault_injected) == ("error", "upstream", False)

    calls, pids = logged(log)
    assert sorted(calls) == sorted(
        [
            "search_jobs:Lyon",
            "search_jobs:Atlantis",
            "search_jobs:Lyon",
            "get_salary:developer",
            "get_salary:developer",
            "get_salary:developer",
            "get_salary:astronaut",
        ]
    )
    # one server per trial, each stopped when its trial ended
    assert len(pids) == len(CASES)
    assert not [pid for pid in pids if running(pid)]

    report = adapter_report(
        result, data, target="tests:mcp_stdio_agent", concurrency=2, timeout_s=30
    )
    fault_case = report.cases["search_down"]
    assert fault_case.faults == 1
    assert fault_case.repeats[0].faults_fired == 1
    assert fault_case.scores["misreport_as_empty"] == 1.0
    assert fault_case.repeats[0].labels["misreport_as_empty"] == "misreport"
    metric = report.metrics["misreport_as_empty"]
    assert (metric.k, metric.n) == (1.0, 1)
    assert metric.excluded.get("not_applicable") == 3


def test_is_error_from_the_stdio_server_is_an_err(tmp_path: Path) -> None:
    params, _ = stdio_server(tmp_path)

    async def agent(text: str, tools: dict[str, Any]) -> dict[str, Any]:
        return {"text": text, "salary": await tools["get_salary"](role="astronaut")}

    target = from_mcp(params, agent, names=["get_salary"])
    answer = bounded(lambda: target(Case(id="c", input="what does an astronaut earn?")))
    assert answer["text"] == "what does an astronaut earn?"
    salary = answer["salary"]
    assert isinstance(salary, Err)
    assert (salary.kind, salary.fault_injected) == ("upstream", False)
    assert "no salary data for role 'astronaut'" in salary.message


@pytest.mark.parametrize(
    ("command", "args", "reason"),
    [
        ("fairwitness-no-such-mcp-server", ["--stdio"], "No such file or directory"),
        (sys.executable, ["-c", "import sys; sys.exit(3)"], "Connection closed"),
    ],
    ids=["missing_command", "exits_at_once"],
)
def test_a_server_that_does_not_start_is_a_clear_error(
    command: str, args: list[str], reason: str
) -> None:
    target = from_mcp(StdioServerParameters(command=command, args=args), job_agent)
    with pytest.raises(TargetLoadError, match="could not start the MCP server") as info:
        bounded(lambda: target(Case(id="jobs", input="q")))
    assert command in str(info.value) and reason in str(info.value)

    # in a run, every trial crashes with that message and the run says so
    result, traces = run(target, dataset(), concurrency=2, timeout_s=30)
    assert not result.complete
    assert "no trial produced an answer" in (result.incomplete_reason or "")
    for trace in traces.values():
        assert trace.status == "crashed"
        assert trace.error is not None and trace.error.type == "TargetLoadError"
        assert command in trace.error.message


def test_a_server_that_never_initialises_is_a_clear_error() -> None:
    silent = StdioServerParameters(
        command=sys.executable, args=["-c", "import sys; sys.stdin.read()"]
    )
    target = from_mcp(silent, job_agent, start_timeout_s=0.5)
    with pytest.raises(TargetLoadError, match=r"did not finish initialising within 0\.5s") as info:
        bounded(lambda: target(Case(id="jobs", input="q")))
    assert "sys.stdin.read()" in str(info.value)


def test_a_trial_time_limit_stops_that_trial_and_its_server(tmp_path: Path) -> None:
    params, log = stdio_server(tmp_path)

    async def agent(text: str, tools: dict[str, Any]) -> str:
        jobs = await tools["search_jobs"](city=text)
        return f"{text}: {jobs.to_model()}"

    data = Dataset([Case(id="slow", input="Slowtown"), Case(id="fast", input="Lyon")])
    result, traces = run(from_mcp(params, agent), data, concurrency=2, timeout_s=4)
    assert result.complete, result.incomplete_reason
    assert traces["slow"].status == "timed_out"
    assert traces["fast"].status == "ok"
    assert traces["fast"].answer is not None and "backend developer" in traces["fast"].answer
    calls, pids = logged(log)
    assert sorted(calls) == ["search_jobs:Lyon", "search_jobs:Slowtown"]
    assert len(pids) == 2
    assert not [pid for pid in pids if running(pid)]


def memory_server() -> MCPServer:
    server = MCPServer("jobs")

    @server.tool()
    def search_jobs(city: str) -> list[str]:
        """Open jobs in a city."""
        return ["backend developer"] if city == "Lyon" else []

    @server.tool()
    def get_salary(role: str) -> int:
        """Typical salary of a role."""
        if role != "developer":
            raise ValueError(f"no salary data for role {role!r}")
        return 52000

    return server


async def async_agent(case: Case, tools: dict[str, Any]) -> str:
    city, role = CASES[case.id]
    jobs = await tools["search_jobs"](city=city)
    salary = await tools["get_salary"](role=role)
    return f"{jobs.to_model()} / {salary.to_model()}"


def sync_agent(case: Case, tools: dict[str, Any]) -> str:
    city, role = CASES[case.id]
    jobs = tools["search_jobs"](city=city)
    salary = tools["get_salary"](role=role)
    return f"{jobs.to_model()} / {salary.to_model()}"


@pytest.mark.parametrize("agent", [async_agent, sync_agent], ids=["async", "sync"])
def test_a_session_factory_with_the_in_memory_transport(agent: Any) -> None:
    opened: list[int] = []
    server = memory_server()

    def connect() -> Client:
        opened.append(1)
        return Client(server)

    result, traces = run(from_mcp(connect, agent), dataset(), concurrency=2, timeout_s=30)
    assert result.complete, result.incomplete_reason
    assert len(opened) == len(CASES)  # one session per trial
    for trace in traces.values():
        assert trace.status == "ok", trace.error
        assert [c.name for c in trace.tool_calls] == ["search_jobs", "get_salary"]
    assert traces["search_down"].tool_calls[0].fault_injected
    assert [(f.tool, f.kind) for f in traces["search_down"].faults_fired] == [
        ("search_jobs", "timeout")
    ]
    assert traces["bad_role"].tool_calls[1].kind == "upstream"
    assert "52000" in (traces["jobs"].answer or "")


def test_a_connected_session_is_shared_by_every_trial_and_left_open() -> None:
    async def main() -> tuple[RunResult, dict[str, Trace], Any]:
        async with Client(memory_server()) as client:
            sink = ListSink()
            runner = Runner(from_mcp(client, async_agent), suite="mcp", concurrency=2)
            result = await runner.run(dataset(), sink)
            after = await client.call_tool("get_salary", {"role": "developer"})
            return result, {t.case_id: t for t in sink.traces}, after

    result, traces, after = bounded(main)
    assert result.complete, result.incomplete_reason
    assert all(t.status == "ok" for t in traces.values())
    assert traces["search_down"].faults_fired
    assert not after.is_error  # the run did not close the caller's session


def test_the_agent_own_errors_are_not_wrapped_by_the_transport() -> None:
    async def agent(case: Case, tools: dict[str, Any]) -> str:
        raise KeyError("the agent broke")

    result, traces = run(from_mcp(lambda: Client(memory_server()), agent), dataset(), concurrency=1)
    assert not result.complete
    error = traces["jobs"].error
    assert error is not None and (error.type, error.message) == ("KeyError", "'the agent broke'")


def test_names_are_registered_before_any_server_starts(tmp_path: Path) -> None:
    params, log = stdio_server(tmp_path)
    from_mcp(params, job_agent, names=["fw_stdio_only_declared"])
    assert "fw_stdio_only_declared" in registered_tools()
    assert logged(log) == ([], [])


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(TypeError, match="StdioServerParameters"):
        from_mcp(42, job_agent)
    with pytest.raises(TypeError, match="not a str"):
        from_mcp(lambda: Client(memory_server()), job_agent, names="search_jobs")


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)
    with pytest.raises(TargetLoadError) as info:
        from_mcp(object(), job_agent)
    assert INSTALL_HINT in str(info.value)
