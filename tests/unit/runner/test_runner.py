from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import fairwitness
from builders import ListSink
from fairwitness import Case, Dataset, Observation, Runner, tool
from fairwitness.errors import CacheMissError, UsageError
from fairwitness.trace.cache import TraceCache
from fairwitness.trace.model import Trace


def dataset(n: int, **extra: Any) -> Dataset:
    return Dataset([Case(id=f"c{i:03d}", input=f"question {i}", **extra) for i in range(n)])


def run(runner: Runner, data: Dataset) -> tuple[Any, ListSink]:
    sink = ListSink()
    result = asyncio.run(runner.run(data, sink))
    return result, sink


def test_every_case_runs_repeats_times_with_bounded_concurrency() -> None:
    in_flight = 0
    peak = 0
    max_tasks = 0

    async def target(text: str) -> str:
        nonlocal in_flight, peak, max_tasks
        in_flight += 1
        peak = max(peak, in_flight)
        max_tasks = max(max_tasks, len(asyncio.all_tasks()))
        await asyncio.sleep(0.001)
        in_flight -= 1
        return text.upper()

    result, sink = run(Runner(target, repeats=3, concurrency=4), dataset(50))
    assert result.complete and result.incomplete_reason is None
    assert len(result.trials) == 150 == result.planned
    assert sorted((t.case_id, t.repeat) for t in sink.traces) == [
        (f"c{i:03d}", r) for i in range(50) for r in range(3)
    ]
    assert peak == 4
    # a fixed pool: the main task plus 4 workers, never a task per trial
    assert max_tasks <= 5
    assert sink.traces[0].answer == sink.traces[0].input.upper()  # type: ignore[union-attr]


def test_sync_targets_run_in_threads_with_the_trial_context() -> None:
    @tool(name="runner_sync_lookup")
    def lookup(q: str) -> str:
        return q

    def target(case: Case) -> Observation:
        fairwitness.current().set_verdict("from-context")
        lookup(q=case.id)
        fairwitness.current().record_model("m-1")
        return Observation(text=f"done {threading.current_thread().name}")

    result, sink = run(Runner(target, concurrency=3), dataset(6))
    assert result.complete
    for trace in sink.traces:
        assert trace.verdict == "from-context"
        assert [c.name for c in trace.tool_calls] == ["runner_sync_lookup"]
        assert trace.tool_calls[0].arguments == {"q": trace.case_id}
        assert "fairwitness-trial" in (trace.answer or "")
    assert result.models == ["m-1"]


def test_observation_verdict_wins_over_context_verdict() -> None:
    async def target(text: str) -> dict[str, str]:
        fairwitness.current().set_verdict("ctx")
        return {"text": "t", "verdict": "returned"}

    _, sink = run(Runner(target), dataset(1))
    assert sink.traces[0].verdict == "returned"


def test_crashes_and_invalid_returns_are_recorded_and_the_run_goes_on() -> None:
    async def target(case: Case) -> object:
        if case.id == "c000":
            raise RuntimeError("boom")
        if case.id == "c001":
            return None
        if case.id == "c002":
            return 42
        return "fine"

    result, sink = run(Runner(target), dataset(4))
    by_id = {t.case_id: t for t in sink.traces}
    assert result.complete
    assert by_id["c000"].status == "crashed"
    assert by_id["c000"].error is not None
    assert (by_id["c000"].error.type, by_id["c000"].error.message) == ("RuntimeError", "boom")
    assert by_id["c001"].status == "crashed" and by_id["c001"].error is not None
    assert by_id["c001"].error.type == "InvalidReturn"
    assert "None" in by_id["c001"].error.message
    assert by_id["c001"].verdict is None and by_id["c001"].answer is None
    assert by_id["c002"].error is not None and "int" in by_id["c002"].error.message
    assert by_id["c003"].status == "ok"


def test_a_target_that_always_fails_makes_the_run_incomplete() -> None:
    def target(text: str) -> str:
        raise ValueError("no model configured")

    result, sink = run(Runner(target, repeats=2), dataset(3))
    assert len(sink.traces) == 6
    assert not result.complete
    assert result.incomplete_reason == (
        "no trial produced an answer: all 6 crashed or timed out "
        "(first, case 'c000': ValueError: no model configured)"
    )


def test_async_timeout_cancels_the_trial_and_continues() -> None:
    cancelled = []

    async def target(case: Case) -> str:
        if case.id == "c001":
            try:
                await asyncio.sleep(30)
            except asyncio.CancelledError:
                cancelled.append(case.id)
                raise
        return "ok"

    started = time.monotonic()
    result, sink = run(Runner(target, timeout_s=0.2, concurrency=2), dataset(3))
    assert time.monotonic() - started < 10
    by_id = {t.case_id: t for t in sink.traces}
    assert by_id["c001"].status == "timed_out"
    assert by_id["c001"].error is not None and by_id["c001"].error.type == "Timeout"
    assert cancelled == ["c001"]
    assert result.complete and result.abandoned_threads == 0


def test_blocking_sync_target_times_out_and_its_thread_is_abandoned() -> None:
    release = threading.Event()
    late_calls: list[str] = []

    @tool(name="runner_late_tool")
    def late_tool() -> str:
        late_calls.append("called")
        return "late"

    def target(case: Case) -> str:
        if case.id == "c000":
            release.wait(30)  # stands in for a call that never returns
            late_tool()  # after the timeout: must not reach the closed trace
            return "too late"
        return "ok"

    try:
        result, sink = run(Runner(target, timeout_s=0.3, concurrency=2), dataset(3))
    finally:
        release.set()
    by_id = {t.case_id: t for t in sink.traces}
    assert by_id["c000"].status == "timed_out"
    assert by_id["c001"].status == by_id["c002"].status == "ok"
    assert result.abandoned_threads == 1
    deadline = time.monotonic() + 5
    while not late_calls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert late_calls == ["called"]
    assert by_id["c000"].tool_calls == []


def test_max_calls_stops_cleanly_and_marks_incomplete() -> None:
    async def target(text: str) -> str:
        return "ok"

    result, sink = run(Runner(target, max_calls=5, concurrency=2), dataset(10))
    assert len(sink.traces) == 5
    assert not result.complete
    assert result.incomplete_reason == "budget: max_calls=5 reached"
    assert result.live_calls == 5


def test_max_cost_stops_after_the_cap_is_reached() -> None:
    async def target(text: str) -> str:
        fairwitness.current().record_usage(input_tokens=10, output_tokens=5, cost_usd=0.01)
        return "ok"

    result, sink = run(Runner(target, max_cost_usd=0.05, concurrency=1), dataset(20))
    assert len(sink.traces) == 5
    assert not result.complete
    assert result.incomplete_reason is not None
    assert result.incomplete_reason.startswith("budget: max_cost_usd=0.05 reached")


def test_max_cost_counts_priced_trials_and_never_replayed_ones(tmp_path: Path) -> None:
    async def target(text: str) -> str:
        fairwitness.current().record_model("m-1")
        fairwitness.current().record_usage(input_tokens=1000, output_tokens=0)  # no cost reported
        return "ok"

    def price(trace: Trace) -> float | None:
        return 0.01 if trace.models == ["m-1"] else None

    data = dataset(20)
    priced, sink = run(Runner(target, max_cost_usd=0.05, concurrency=1, price=price), data)
    assert len(sink.traces) == 5
    assert (priced.incomplete_reason or "").startswith("budget: max_cost_usd=0.05 reached")
    # without a price the cost is unknown, and an unknown cost is not spending
    unpriced, sink = run(Runner(target, max_cost_usd=0.05, concurrency=1), data)
    assert unpriced.complete and len(sink.traces) == 20

    async def paid(text: str) -> str:
        fairwitness.current().record_usage(input_tokens=10, output_tokens=5, cost_usd=0.01)
        return "ok"

    # 4 trials that cost 0.01 each replay under a 0.02 cap: replaying spends nothing
    recorder = Runner(paid, suite="s", mode="record", cache=TraceCache(tmp_path, "s"))
    assert run(recorder, dataset(4))[0].complete
    replayer = Runner(
        paid,
        suite="s",
        mode="replay",
        cache=TraceCache(tmp_path, "s"),
        price=price,
        max_cost_usd=0.02,
    )
    replayed, sink = run(replayer, dataset(4))
    assert replayed.complete and len(sink.traces) == 4 and replayed.live_calls == 0


def test_unknown_cost_is_null_with_a_reason_never_zero() -> None:
    async def target(case: Case) -> str:
        if case.id == "c000":
            fairwitness.current().record_usage(input_tokens=3, output_tokens=4)
        elif case.id == "c001":
            fairwitness.current().record_usage(input_tokens=3, cost_usd=0.5)
        return "ok"

    _, sink = run(Runner(target), dataset(3))
    by_id = {t.case_id: t.usage for t in sink.traces}
    assert by_id["c000"].cost_usd is None
    assert by_id["c000"].cost_unknown_reason == "cost not reported for 1 of 1 model call(s)"
    assert (by_id["c000"].input_tokens, by_id["c000"].output_tokens) == (3, 4)
    assert by_id["c001"].cost_usd == 0.5 and by_id["c001"].cost_unknown_reason is None
    assert by_id["c002"].cost_usd is None
    assert by_id["c002"].cost_unknown_reason == "not reported by the target"


def test_request_stop_cancels_in_flight_trials_and_returns_partial() -> None:
    async def target(case: Case) -> str:
        if case.id >= "c003":
            await asyncio.sleep(30)
        return "ok"

    runner = Runner(target, concurrency=2)

    async def main() -> Any:
        sink = ListSink()
        task = asyncio.ensure_future(runner.run(dataset(10), sink))
        while len(sink.traces) < 3:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        runner.request_stop("interrupted by SIGINT")
        return await asyncio.wait_for(task, 5), sink

    result, sink = asyncio.run(main())
    assert [t.case_id for t in sink.traces] == ["c000", "c001", "c002"]
    assert not result.complete
    assert result.incomplete_reason == "interrupted by SIGINT"
    assert len(result.trials) == 3 and result.planned == 10


def test_cancelling_the_run_propagates() -> None:
    async def target(text: str) -> str:
        await asyncio.sleep(30)
        return "ok"

    async def main() -> None:
        task = asyncio.ensure_future(Runner(target).run(dataset(3), ListSink()))
        await asyncio.sleep(0.05)
        task.cancel()
        await task

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(main())


def test_seeded_rng_is_reproducible_per_case_and_repeat() -> None:
    async def target(text: str) -> str:
        return str(fairwitness.current().rng.random())

    def answers(seed: int) -> dict[tuple[str, int], str | None]:
        _, sink = run(Runner(target, repeats=2, seed=seed, concurrency=3), dataset(5))
        return {(t.case_id, t.repeat): t.answer for t in sink.traces}

    first, again, other = answers(7), answers(7), answers(8)
    assert first == again
    assert first != other
    assert first[("c000", 0)] != first[("c000", 1)]


def test_faults_fire_through_the_runner() -> None:
    @tool(name="runner_faulty_search")
    async def search(q: str) -> list[str]:
        return [q]

    async def target(case: Case) -> str:
        result = await search(q=case.text)
        return result.to_model()

    data = Dataset(
        [
            Case(
                id="f", input="x", faults=[{"tool": "runner_faulty_search", "kind": "rate_limit"}]
            ),
            Case(id="g", input="y"),
        ]
    )
    _, sink = run(Runner(target, repeats=2), data)
    by = {(t.case_id, t.repeat): t for t in sink.traces}
    for repeat in (0, 1):
        faulted = by[("f", repeat)]
        assert faulted.tool_calls[0].status == "error"
        assert faulted.tool_calls[0].kind == "rate_limit"
        assert faulted.tool_calls[0].fault_injected
        assert [f.kind for f in faulted.faults_fired] == ["rate_limit"]
        assert '"kind": "rate_limit"' in (faulted.answer or "")
        clean = by[("g", repeat)]
        assert clean.tool_calls[0].status == "ok" and clean.faults_fired == []


def test_record_then_replay_makes_no_calls(tmp_path: Path) -> None:
    calls: list[str] = []

    async def target(case: Case) -> str:
        calls.append(case.id)
        return f"answer {case.id} {fairwitness.current().rng.random()}"

    data = dataset(4)
    cache = TraceCache(tmp_path, "s")
    first, first_sink = run(Runner(target, suite="s", repeats=2, mode="record", cache=cache), data)
    assert len(calls) == 8 and first.live_calls == 8
    assert (tmp_path / "s.jsonl").exists()

    again, again_sink = run(
        Runner(target, suite="s", repeats=2, mode="replay", cache=TraceCache(tmp_path, "s")), data
    )
    assert len(calls) == 8 and again.live_calls == 0
    assert all(t.replayed for t in again_sink.traces)
    key = lambda t: (t.case_id, t.repeat)  # noqa: E731
    assert {key(t): t.answer for t in again_sink.traces} == {
        key(t): t.answer for t in first_sink.traces
    }

    # record mode reuses what is cached and calls only for what is new
    bigger = Dataset([*data.cases, Case(id="new", input="fresh")])
    third, _ = run(
        Runner(target, suite="s", repeats=2, mode="record", cache=TraceCache(tmp_path, "s")), bigger
    )
    assert third.live_calls == 2 and calls[-2:] == ["new", "new"]


def test_replay_refuses_before_calling_when_the_cache_lacks_a_trial(tmp_path: Path) -> None:
    calls: list[str] = []

    async def target(text: str) -> str:
        calls.append(text)
        return "x"

    with pytest.raises(CacheMissError, match="2 trial\\(s\\) not in the cache") as caught:
        run(Runner(target, mode="replay", cache=TraceCache(tmp_path, "s"), repeats=2), dataset(1))
    assert caught.value.exit_code == 4
    assert calls == []


def test_a_changed_input_is_not_served_from_the_cache(tmp_path: Path) -> None:
    async def target(text: str) -> str:
        return text

    run(Runner(target, suite="s", mode="record", cache=TraceCache(tmp_path, "s")), dataset(1))
    changed = Dataset([Case(id="c000", input="a different question")])
    with pytest.raises(CacheMissError):
        run(Runner(target, suite="s", mode="replay", cache=TraceCache(tmp_path, "s")), changed)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"repeats": 0}, "repeats must be >= 1, got 0"),
        ({"repeats": -1}, "repeats must be >= 1, got -1"),
        ({"concurrency": 0}, "concurrency must be >= 1"),
        ({"timeout_s": 0}, "timeout_s must be > 0"),
        ({"max_calls": 0}, "max_calls must be >= 1"),
        ({"max_cost_usd": -1.0}, "max_cost_usd must be > 0"),
        ({"mode": "replay"}, "needs a cache"),
    ],
)
def test_bad_settings_are_usage_errors(kwargs: dict[str, Any], message: str) -> None:
    async def target(text: str) -> str:
        return text

    with pytest.raises(UsageError, match=message):
        Runner(target, **kwargs)


@pytest.mark.parametrize("timeout_s", [None, 5.0])
def test_a_timeout_error_raised_by_the_target_is_a_crash_not_a_timeout(
    timeout_s: float | None,
) -> None:
    async def target(text: str) -> str:
        raise TimeoutError("model API timed out")

    def sync_target(text: str) -> str:
        raise TimeoutError("model API timed out")

    for fn in (target, sync_target):
        _, sink = run(Runner(fn, timeout_s=timeout_s), dataset(1))
        trace = sink.traces[0]
        assert trace.status == "crashed"
        assert trace.error is not None
        assert (trace.error.type, trace.error.message) == ("TimeoutError", "model API timed out")


def test_sync_workers_are_reused_not_one_thread_per_trial() -> None:
    names: set[str] = set()

    def target(text: str) -> str:
        names.add(threading.current_thread().name)
        return text

    result, _ = run(Runner(target, repeats=5, concurrency=3), dataset(40))
    assert result.complete
    assert 1 <= len(names) <= 3


def test_one_worker_recovers_from_each_timeout() -> None:
    async def target(case: Case) -> str:
        if case.id in ("c000", "c002"):
            await asyncio.sleep(30)
        await asyncio.sleep(0.01)  # a fresh await after a timed-out trial must not be cancelled
        return "ok"

    result, sink = run(Runner(target, timeout_s=0.2, concurrency=1), dataset(4))
    assert [t.status for t in sink.traces] == ["timed_out", "ok", "timed_out", "ok"]
    assert result.complete
