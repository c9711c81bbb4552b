"""Fault injection through the trial context, the Fault model and the fault plan check."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from fairwitness.errors import EXIT_INVALID, FairwitnessError, FaultPlanError
from fairwitness.tools import Empty, Err, Ok, check_fault_plan, registered_tools, tool
from fairwitness.tools.faults import INJECTED_EMPTY_NOTE
from fairwitness.tools.results import ERR_NOTE
from fairwitness.trace.context import TrialContext, bind, unbind
from fairwitness.trace.model import Fault, FiredFault

MODES = ["sync", "async"]
FAILING_ERR_KINDS = ["timeout", "rate_limit", "upstream", "auth"]
NON_LATENCY_KINDS = ["timeout", "rate_limit", "upstream", "auth", "empty", "truncated"]


def uniq(stem: str = "tool") -> str:
    """A tool name no other test uses (the registry is process-wide)."""
    return f"{stem}_{uuid.uuid4().hex[:12]}"


@contextlib.contextmanager
def trial(*faults: Fault) -> Iterator[TrialContext]:
    ctx = TrialContext(suite="s", case_id="c", faults=list(faults))
    token = bind(ctx)
    try:
        yield ctx
    finally:
        unbind(token)


class Probe:
    """A sync or async tool that counts the calls that reached its body."""

    def __init__(self, mode: str, value: Any = None, **options: Any) -> None:
        self.name: str = options.pop("name", None) or uniq(mode)
        self.calls = 0
        self.value = ["a", "b", "c", "d"] if value is None else value
        body: Callable[..., Any]
        if mode == "sync":

            def sync_body(query: str = "q") -> Any:
                self.calls += 1
                return self.value

            body = sync_body
        else:

            async def async_body(query: str = "q") -> Any:
                self.calls += 1
                return self.value

            body = async_body
        self.fn = tool(name=self.name, **options)(body)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if inspect.iscoroutinefunction(self.fn):
            return asyncio.run(self.fn(*args, **kwargs))
        return self.fn(*args, **kwargs)

    def fault(self, kind: str, **fields: Any) -> Fault:
        return Fault(tool=self.name, kind=kind, **fields)  # type: ignore[arg-type]


# -- each fault kind -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", FAILING_ERR_KINDS)
def test_failing_faults_replace_the_call_with_err(mode: str, kind: str) -> None:
    probe = Probe(mode)
    with trial(probe.fault(kind)) as ctx:
        result = probe()
    assert isinstance(result, Err)
    assert result.kind == kind
    assert result.fault_injected is True
    assert result.retryable is (kind != "auth")
    assert kind in result.message
    assert probe.name in result.message
    assert probe.calls == 0
    [call] = ctx.tool_calls
    assert call.name == probe.name
    assert call.status == "error"
    assert call.kind == kind
    assert call.fault_injected is True
    assert call.attempts == 1
    assert ctx.faults_fired == [FiredFault(fault=0, tool=probe.name, kind=kind, call=0)]  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", FAILING_ERR_KINDS)
def test_injected_err_still_tells_the_model_the_lookup_failed(kind: str) -> None:
    probe = Probe("sync")
    with trial(probe.fault(kind)):
        result = probe()
    assert '"note": ' in result.to_model()
    assert ERR_NOTE in result.to_model()


@pytest.mark.parametrize("mode", MODES)
def test_empty_fault_returns_empty_without_calling(mode: str) -> None:
    probe = Probe(mode)
    with trial(probe.fault("empty")) as ctx:
        result = probe()
    assert isinstance(result, Empty)
    assert result.note == INJECTED_EMPTY_NOTE
    assert probe.calls == 0
    [call] = ctx.tool_calls
    assert call.status == "empty"
    assert call.kind is None
    assert call.fault_injected is True
    assert ctx.faults_fired == [FiredFault(fault=0, tool=probe.name, kind="empty", call=0)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (["a", "b", "c", "d"], ["a", "b"]),
        (["a", "b", "c", "d", "e"], ["a", "b"]),
        ("abcdef", "abc"),
        (("x", "y"), ("x",)),
        ({"a": 1, "b": 2, "c": 3, "d": 4}, {"a": 1, "b": 2}),
    ],
    ids=["list", "odd-list", "str", "tuple", "dict"],
)
def test_truncated_fault_calls_and_halves_the_value(mode: str, value: Any, expected: Any) -> None:
    probe = Probe(mode, value)
    with trial(probe.fault("truncated")) as ctx:
        result = probe()
    assert probe.calls == 1
    assert isinstance(result, Ok)
    assert result.value == expected
    assert result.truncated is True
    [call] = ctx.tool_calls
    assert call.status == "ok"
    assert call.truncated is True
    assert call.fault_injected is True
    assert ctx.faults_fired == [FiredFault(fault=0, tool=probe.name, kind="truncated", call=0)]


def test_truncated_fault_leaves_scalars_alone_but_marks_them() -> None:
    probe = Probe("sync", 42)
    with trial(probe.fault("truncated")):
        result = probe()
    assert result == Ok(42, truncated=True)


def test_truncated_fault_does_not_turn_an_error_into_a_value() -> None:
    @tool(name=uniq())
    def broken() -> list[int]:
        raise ConnectionError("down")

    name = broken.__fairwitness_tool__.name  # type: ignore[attr-defined]
    with trial(Fault(tool=name, kind="truncated")) as ctx:
        result = broken()
    assert isinstance(result, Err)
    assert result.kind == "upstream"
    assert result.fault_injected is False
    assert ctx.tool_calls[0].fault_injected is False
    assert ctx.tool_calls[0].truncated is False


def test_truncated_fault_and_truncate_at_both_apply() -> None:
    probe = Probe("sync", list(range(100)), truncate_at=20)
    with trial(probe.fault("truncated")):
        result = probe()
    assert result.truncated is True
    assert result.value == list(range(len(result.value)))
    assert len(result.value) < 50


@pytest.mark.parametrize("mode", MODES)
def test_latency_fault_delays_then_calls(mode: str) -> None:
    probe = Probe(mode)
    with trial(probe.fault("latency", latency_ms=50)) as ctx:
        started = time.perf_counter()
        result = probe()
        elapsed = time.perf_counter() - started
    assert elapsed >= 0.045
    assert probe.calls == 1
    assert result == Ok(["a", "b", "c", "d"])
    [call] = ctx.tool_calls
    assert call.status == "ok"
    assert call.latency_ms >= 45
    assert call.fault_injected is False
    assert ctx.faults_fired == [FiredFault(fault=0, tool=probe.name, kind="latency", call=0)]


def test_latency_faults_add_up() -> None:
    probe = Probe("sync")
    with trial(probe.fault("latency", latency_ms=25), probe.fault("latency", latency_ms=25)) as ctx:
        started = time.perf_counter()
        probe()
        elapsed = time.perf_counter() - started
    assert elapsed >= 0.045
    assert [f.fault for f in ctx.faults_fired] == [0, 1]


@pytest.mark.parametrize("mode", MODES)
def test_latency_then_failing_fault_both_fire(mode: str) -> None:
    probe = Probe(mode)
    with trial(probe.fault("latency", latency_ms=50), probe.fault("rate_limit")) as ctx:
        started = time.perf_counter()
        result = probe()
        elapsed = time.perf_counter() - started
    assert elapsed >= 0.045
    assert isinstance(result, Err)
    assert result.kind == "rate_limit"
    assert probe.calls == 0
    assert [(f.fault, f.kind) for f in ctx.faults_fired] == [(0, "latency"), (1, "rate_limit")]


# -- when faults fire ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_after_calls_lets_the_first_calls_through(mode: str) -> None:
    probe = Probe(mode)
    with trial(probe.fault("upstream", after_calls=2)) as ctx:
        results = [probe() for _ in range(4)]
    assert [r.status for r in results] == ["ok", "ok", "error", "error"]
    assert probe.calls == 2
    assert [f.call for f in ctx.faults_fired] == [2, 3]
    assert [c.fault_injected for c in ctx.tool_calls] == [False, False, True, True]


@pytest.mark.parametrize("mode", MODES)
def test_times_fires_exactly_that_many_times(mode: str) -> None:
    probe = Probe(mode)
    with trial(probe.fault("auth", times=2)) as ctx:
        results = [probe() for _ in range(5)]
    assert [r.status for r in results] == ["error", "error", "ok", "ok", "ok"]
    assert probe.calls == 3
    assert len(ctx.faults_fired) == 2
    assert [f.call for f in ctx.faults_fired] == [0, 1]


def test_times_none_fires_on_every_call() -> None:
    probe = Probe("sync")
    with trial(probe.fault("timeout")) as ctx:
        results = [probe() for _ in range(4)]
    assert all(isinstance(r, Err) for r in results)
    assert probe.calls == 0
    assert [f.call for f in ctx.faults_fired] == [0, 1, 2, 3]


def test_after_calls_and_times_together() -> None:
    probe = Probe("sync")
    with trial(probe.fault("empty", after_calls=1, times=1)) as ctx:
        results = [probe() for _ in range(3)]
    assert [r.status for r in results] == ["ok", "empty", "ok"]
    assert probe.calls == 2
    assert ctx.faults_fired == [FiredFault(fault=0, tool=probe.name, kind="empty", call=1)]


def test_failing_faults_apply_in_declaration_order() -> None:
    probe = Probe("sync")
    faults = (probe.fault("rate_limit", times=1), probe.fault("auth", times=1))
    with trial(*faults) as ctx:
        results = [probe() for _ in range(3)]
    assert [r.kind if isinstance(r, Err) else r.status for r in results] == [
        "rate_limit",
        "auth",
        "ok",
    ]
    assert [(f.fault, f.kind, f.call) for f in ctx.faults_fired] == [
        (0, "rate_limit", 0),
        (1, "auth", 1),
    ]


def test_first_declared_failing_fault_wins() -> None:
    probe = Probe("sync")
    with trial(probe.fault("auth"), probe.fault("rate_limit")) as ctx:
        results = [probe() for _ in range(2)]
    assert [r.kind for r in results] == ["auth", "auth"]
    assert {f.kind for f in ctx.faults_fired} == {"auth"}


def test_failing_fault_takes_precedence_over_truncated() -> None:
    probe = Probe("sync")
    with trial(probe.fault("truncated"), probe.fault("timeout", times=1)) as ctx:
        first = probe()
        second = probe()
    assert isinstance(first, Err)
    assert first.kind == "timeout"
    assert second == Ok(["a", "b"], truncated=True)
    assert [(f.fault, f.kind) for f in ctx.faults_fired] == [(1, "timeout"), (0, "truncated")]


def test_fault_index_counts_faults_on_every_tool() -> None:
    probe = Probe("sync")
    other = uniq("other")
    with trial(Fault(tool=other, kind="auth"), probe.fault("upstream")) as ctx:
        probe()
    assert ctx.faults_fired == [FiredFault(fault=1, tool=probe.name, kind="upstream", call=0)]


@pytest.mark.parametrize("mode", MODES)
def test_faults_on_another_tool_do_not_fire(mode: str) -> None:
    probe = Probe(mode)
    with trial(Fault(tool=uniq("other"), kind="timeout")) as ctx:
        result = probe()
    assert result == Ok(["a", "b", "c", "d"])
    assert probe.calls == 1
    assert ctx.faults_fired == []
    assert ctx.tool_calls[0].fault_injected is False


def test_calls_are_counted_per_tool() -> None:
    target = Probe("sync")
    other = Probe("sync")
    with trial(target.fault("auth", after_calls=1)) as ctx:
        other()
        other()
        first = target()
        second = target()
    assert first.status == "ok"
    assert second.status == "error"
    assert ctx.faults_fired == [FiredFault(fault=0, tool=target.name, kind="auth", call=1)]


def test_calls_with_invalid_arguments_do_not_consume_a_fault() -> None:
    probe = Probe("sync")
    with trial(probe.fault("timeout", times=1)) as ctx:
        bad = probe("q", "extra")
        good = probe()
    assert isinstance(bad, Err)
    assert bad.kind == "invalid_args"
    assert bad.fault_injected is False
    assert isinstance(good, Err)
    assert good.kind == "timeout"
    assert ctx.faults_fired == [FiredFault(fault=0, tool=probe.name, kind="timeout", call=0)]


def test_no_faults_outside_a_trial() -> None:
    probe = Probe("sync")
    assert probe() == Ok(["a", "b", "c", "d"])
    assert probe.calls == 1


def test_no_faults_fire_after_close() -> None:
    probe = Probe("sync")
    with trial(probe.fault("timeout")) as ctx:
        assert probe().status == "error"
        ctx.close()
        assert probe() == Ok(["a", "b", "c", "d"])
    assert probe.calls == 1
    assert len(ctx.faults_fired) == 1
    assert len(ctx.tool_calls) == 1


def test_a_fault_fires_once_across_concurrent_calls() -> None:
    probe = Probe("async")

    async def main() -> list[Any]:
        return list(await asyncio.gather(*(probe.fn() for _ in range(5))))

    with trial(probe.fault("upstream", times=1)) as ctx:
        results = asyncio.run(main())
    assert [r.status for r in results] == ["error", "ok", "ok", "ok", "ok"]
    assert probe.calls == 4
    assert len(ctx.faults_fired) == 1
    assert [c.fault_injected for c in ctx.tool_calls] == [True, False, False, False, False]


def test_each_trial_has_its_own_fault_counters() -> None:
    probe = Probe("sync")
    for _ in range(2):
        with trial(probe.fault("timeout", times=1)) as ctx:
            assert probe().status == "error"
            assert probe().status == "ok"
        assert len(ctx.faults_fired) == 1


# -- faults and retries --------------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_timeout_fault_once_is_recovered_by_a_retry(mode: str) -> None:
    probe = Probe(mode, retries=1, backoff_s=0)
    with trial(probe.fault("timeout", times=1)) as ctx:
        result = probe()
    assert result == Ok(["a", "b", "c", "d"])
    assert probe.calls == 1
    [call] = ctx.tool_calls
    assert call.status == "ok"
    assert call.attempts == 2
    assert call.fault_injected is False
    assert ctx.faults_fired == [FiredFault(fault=0, tool=probe.name, kind="timeout", call=0)]


@pytest.mark.parametrize("mode", MODES)
def test_persistent_retryable_fault_exhausts_retries(mode: str) -> None:
    probe = Probe(mode, retries=2, backoff_s=0)
    with trial(probe.fault("rate_limit")) as ctx:
        result = probe()
    assert isinstance(result, Err)
    assert result.kind == "rate_limit"
    assert result.fault_injected is True
    assert probe.calls == 0
    [call] = ctx.tool_calls
    assert call.attempts == 3
    assert call.fault_injected is True
    assert [f.call for f in ctx.faults_fired] == [0, 1, 2]


def test_auth_fault_is_not_retried() -> None:
    probe = Probe("sync", retries=3, backoff_s=0)
    with trial(probe.fault("auth")) as ctx:
        result = probe()
    assert result.kind == "auth"
    assert ctx.tool_calls[0].attempts == 1
    assert len(ctx.faults_fired) == 1


def test_empty_fault_is_not_retried() -> None:
    probe = Probe("sync", retries=3, backoff_s=0)
    with trial(probe.fault("empty", times=1)) as ctx:
        result = probe()
    assert isinstance(result, Empty)
    assert ctx.tool_calls[0].attempts == 1
    assert probe.calls == 0


def test_retries_count_as_calls_for_after_calls() -> None:
    probe = Probe("sync", retries=1, backoff_s=0)
    with trial(probe.fault("upstream", times=1), probe.fault("auth", after_calls=2)) as ctx:
        first = probe()
        second = probe()
    assert first == Ok(["a", "b", "c", "d"])
    assert isinstance(second, Err)
    assert second.kind == "auth"
    assert [(f.kind, f.call) for f in ctx.faults_fired] == [("upstream", 0), ("auth", 2)]


# -- the Fault model -----------------------------------------------------------------------------


def test_fault_defaults() -> None:
    fault = Fault(tool="search", kind="timeout")
    assert fault.after_calls == 0
    assert fault.times is None
    assert fault.latency_ms is None


def test_fault_from_json_like_dict() -> None:
    fault = Fault.model_validate(
        {"tool": "search_jobs", "kind": "timeout", "after_calls": 1, "times": 1}
    )
    assert (fault.tool, fault.kind, fault.after_calls, fault.times) == (
        "search_jobs",
        "timeout",
        1,
        1,
    )


def test_latency_fault_with_latency_ms_is_valid() -> None:
    assert Fault(tool="t", kind="latency", latency_ms=0).latency_ms == 0
    assert Fault.model_validate({"latency_ms": 5, "tool": "t", "kind": "latency"}).latency_ms == 5


def test_latency_fault_refuses_explicit_null_latency_ms() -> None:
    with pytest.raises(ValidationError, match="latency_ms"):
        Fault(tool="t", kind="latency", latency_ms=None)


def test_latency_fault_refuses_missing_latency_ms() -> None:
    with pytest.raises(ValidationError, match="latency fault needs latency_ms"):
        Fault(tool="t", kind="latency")
    with pytest.raises(ValidationError, match="latency fault needs latency_ms"):
        Fault.model_validate({"tool": "t", "kind": "latency"})


@pytest.mark.parametrize("kind", NON_LATENCY_KINDS)
def test_latency_ms_is_refused_on_other_kinds(kind: str) -> None:
    with pytest.raises(ValidationError, match="latency_ms only applies"):
        Fault(tool="t", kind=kind, latency_ms=10)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "timeout", "after_calls": -1},
        {"kind": "timeout", "times": 0},
        {"kind": "timeout", "times": -2},
        {"kind": "latency", "latency_ms": -1},
        {"kind": "explode"},
        {"kind": "timeout", "tool": ""},
        {"kind": "timeout", "unknown_field": 1},
    ],
    ids=[
        "negative-after_calls",
        "times-zero",
        "negative-times",
        "negative-latency",
        "unknown-kind",
        "empty-tool",
        "extra-field",
    ],
)
def test_fault_refuses_invalid_fields(fields: dict[str, Any]) -> None:
    payload = {"tool": "t", **fields}
    with pytest.raises(ValidationError):
        Fault.model_validate(payload)


def test_fault_is_frozen() -> None:
    fault = Fault(tool="t", kind="timeout")
    with pytest.raises(ValidationError):
        fault.times = 3  # type: ignore[misc]


# -- check_fault_plan ----------------------------------------------------------------------------


def test_check_fault_plan_passes_when_every_tool_is_registered() -> None:
    first = Probe("sync", name=uniq("search_jobs"))
    second = Probe("async", name=uniq("get_salary"))
    assert {first.name, second.name} <= set(registered_tools())
    cases = [
        ("a", "cases.jsonl", 1, [first.fault("timeout"), second.fault("empty")]),
        ("b", "cases.jsonl", 2, []),
        ("c", None, None, [second.fault("latency", latency_ms=5)]),
    ]
    assert check_fault_plan(cases, registered_tools()) is None


def test_check_fault_plan_passes_with_no_faults_and_no_tools() -> None:
    check_fault_plan([("a", None, None, [])], [])
    check_fault_plan([], [])


def test_check_fault_plan_names_case_tool_and_known_tools() -> None:
    cases = [("case-7", "suite.jsonl", 7, [Fault(tool="serch_jobs", kind="timeout")])]
    with pytest.raises(FaultPlanError) as caught:
        check_fault_plan(cases, ["search_jobs", "get_salary"])
    error = caught.value
    assert isinstance(error, FairwitnessError)
    assert error.exit_code == 4 == EXIT_INVALID
    message = str(error)
    assert "case-7" in message
    assert "serch_jobs" in message
    assert "timeout" in message
    assert "get_salary, search_jobs" in message
    assert message.startswith("suite.jsonl:7: ")
    [problem] = error.problems
    assert problem.file == "suite.jsonl"
    assert problem.line == 7
    assert problem.field == "faults[0].tool"


def test_check_fault_plan_lists_every_offending_case() -> None:
    known = ["search_jobs"]
    cases = [
        ("good", "s.jsonl", 1, [Fault(tool="search_jobs", kind="auth")]),
        (
            "bad-1",
            "s.jsonl",
            2,
            [Fault(tool="search_jobs", kind="auth"), Fault(tool="missing_a", kind="empty")],
        ),
        ("bad-2", "s.jsonl", 3, [Fault(tool="missing_b", kind="latency", latency_ms=1)]),
        ("bad-3", None, None, [Fault(tool="missing_a", kind="truncated")]),
    ]
    with pytest.raises(FaultPlanError) as caught:
        check_fault_plan(cases, known)
    problems = caught.value.problems
    assert len(problems) == 3
    assert ["bad-1" in p.message for p in problems] == [True, False, False]
    assert ["bad-2" in p.message for p in problems] == [False, True, False]
    assert ["bad-3" in p.message for p in problems] == [False, False, True]
    assert not any("'good'" in p.message for p in problems)
    assert [p.field for p in problems] == ["faults[1].tool", "faults[0].tool", "faults[0].tool"]
    assert [(p.file, p.line) for p in problems] == [("s.jsonl", 2), ("s.jsonl", 3), (None, None)]
    assert "missing_a" in problems[0].message
    assert "missing_b" in problems[1].message
    assert all("search_jobs" in p.message for p in problems)
    assert str(caught.value) == str(problems[0])


def test_check_fault_plan_with_no_registered_tools_says_so() -> None:
    with pytest.raises(FaultPlanError, match="none are registered"):
        check_fault_plan([("a", None, None, [Fault(tool="x", kind="auth")])], [])


def test_check_fault_plan_lists_known_tools_sorted_once() -> None:
    with pytest.raises(FaultPlanError) as caught:
        check_fault_plan([("a", None, None, [Fault(tool="zz", kind="auth")])], ["b", "a", "b", "c"])
    assert "(known tools: a, b, c)" in caught.value.problems[0].message


def test_check_fault_plan_is_case_sensitive() -> None:
    with pytest.raises(FaultPlanError):
        check_fault_plan([("a", None, None, [Fault(tool="Search", kind="auth")])], ["search"])


def test_check_fault_plan_accepts_generators() -> None:
    name = Probe("sync").name
    cases = (("a", None, None, [Fault(tool=name, kind="auth")]) for _ in range(2))
    check_fault_plan(cases, iter(registered_tools()))
