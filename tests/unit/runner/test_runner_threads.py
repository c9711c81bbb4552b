"""Sync targets: whole trials on threads, the loop writing and scoring them in batches."""

from __future__ import annotations

import asyncio
import contextvars
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import fairwitness
from builders import ListSink
from fairwitness import Case, Dataset, Runner, tool
from fairwitness.scoring import ScoreBoard
from fairwitness.scoring.apply import TrialScores
from fairwitness.trace.cache import TraceCache
from fairwitness.trace.model import Trace


def dataset(n: int) -> Dataset:
    return Dataset([Case(id=f"c{i:03d}", input=f"question {i}") for i in range(n)])


def run(runner: Runner, data: Dataset) -> tuple[Any, ListSink]:
    sink = ListSink()
    result = asyncio.run(runner.run(data, sink))
    return result, sink


def test_every_trial_runs_once_and_concurrency_bounds_the_calls_in_flight() -> None:
    lock = threading.Lock()
    in_flight = peak = 0
    seen: list[tuple[str, int]] = []

    def target(case: Case) -> str:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
            seen.append((case.id, fairwitness.current().repeat))
        time.sleep(0.002)
        with lock:
            in_flight -= 1
        return "ok"

    result, sink = run(Runner(target, repeats=3, concurrency=4), dataset(50))
    assert result.complete and result.live_calls == 150
    assert sorted(seen) == sorted((f"c{i:03d}", r) for i in range(50) for r in range(3))
    assert 2 <= peak <= 4
    assert sorted(t.trace_line for t in result.trials) == list(range(1, 151))
    assert len(sink.traces) == 150


def test_the_loops_context_variables_reach_the_target() -> None:
    request = contextvars.ContextVar("request", default="none")

    def target(text: str) -> str:
        return request.get()

    async def main() -> ListSink:
        request.set("from the caller")
        sink = ListSink()
        await Runner(target, concurrency=3).run(dataset(6), sink)
        return sink

    sink = asyncio.run(main())
    assert {t.answer for t in sink.traces} == {"from the caller"}


def test_hung_calls_are_abandoned_and_the_others_keep_their_concurrency() -> None:
    release = threading.Event()
    late: list[str] = []

    @tool(name="threads_late_tool")
    def late_tool() -> str:
        late.append("called")
        return "late"

    def target(case: Case) -> str:
        if case.id in ("c001", "c004"):
            release.wait(30)
            late_tool()  # after its trial timed out: never recorded
            return "too late"
        time.sleep(0.01)
        return "ok"

    try:
        started = time.monotonic()
        result, sink = run(Runner(target, timeout_s=0.3, concurrency=2), dataset(12))
        elapsed = time.monotonic() - started
    finally:
        release.set()
    by_id = {t.case_id: t for t in sink.traces}
    assert by_id["c001"].status == by_id["c004"].status == "timed_out"
    assert by_id["c001"].error is not None and by_id["c001"].error.type == "Timeout"
    assert all(by_id[f"c{i:03d}"].status == "ok" for i in range(12) if i not in (1, 4))
    assert result.complete and result.abandoned_threads == 2 and len(sink.traces) == 12
    assert elapsed < 10  # the hung calls did not hold the run
    deadline = time.monotonic() + 5
    while len(late) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert late == ["called", "called"]
    assert by_id["c001"].tool_calls == [] and by_id["c004"].tool_calls == []


def test_a_stop_request_returns_what_finished_and_drops_later_answers() -> None:
    release = threading.Event()

    def target(case: Case) -> str:
        if case.id >= "c003":
            release.wait(30)
        return "ok"

    runner = Runner(target, concurrency=2)

    async def main() -> tuple[Any, ListSink]:
        sink = ListSink()
        task = asyncio.ensure_future(runner.run(dataset(10), sink))
        while len(sink.traces) < 3:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        runner.request_stop("interrupted by SIGINT")
        result = await asyncio.wait_for(task, 5)
        release.set()  # the hung calls return now: their answers must not be recorded
        await asyncio.sleep(0.1)
        return result, sink

    try:
        result, sink = asyncio.run(main())
    finally:
        release.set()
    assert [t.case_id for t in sink.traces] == ["c000", "c001", "c002"]
    assert not result.complete and result.incomplete_reason == "interrupted by SIGINT"
    assert len(result.trials) == 3


def test_max_calls_is_exact_across_threads() -> None:
    def target(text: str) -> str:
        time.sleep(0.001)
        return "ok"

    result, sink = run(Runner(target, max_calls=37, concurrency=8), dataset(100))
    assert result.live_calls == 37 and len(sink.traces) == 37
    assert not result.complete and result.incomplete_reason == "budget: max_calls=37 reached"


def test_an_async_scorer_runs_on_the_loop_for_sync_targets() -> None:
    board = ScoreBoard()
    loops: set[int] = set()

    async def ascore(trace: Trace, case: Case) -> TrialScores:
        loops.add(id(asyncio.get_running_loop()))
        await asyncio.sleep(0)
        return board(trace, case)

    def target(text: str) -> str:
        return "ok"

    result, _ = run(Runner(target, repeats=2, concurrency=3, scoring=ascore), dataset(10))
    assert result.complete and len(loops) == 1
    assert all(t.scores is not None for t in result.trials)


def test_record_and_replay_on_threads(tmp_path: Path) -> None:
    calls: list[str] = []

    def target(case: Case) -> str:
        calls.append(case.id)
        return f"answer {case.id} {fairwitness.current().rng.random()}"

    first, first_sink = run(
        Runner(target, repeats=2, concurrency=4, mode="record", cache=TraceCache(tmp_path, "s")),
        dataset(20),
    )
    assert first.live_calls == 40 and len(calls) == 40
    again, again_sink = run(
        Runner(target, repeats=2, concurrency=4, mode="replay", cache=TraceCache(tmp_path, "s")),
        dataset(20),
    )
    assert again.live_calls == 0 and len(calls) == 40
    answers = {(t.case_id, t.repeat): t.answer for t in first_sink.traces}
    assert {(t.case_id, t.repeat): t.answer for t in again_sink.traces} == answers


def test_a_noisy_slow_crashing_agent_in_many_languages() -> None:
    """Real sync agents: latency that varies, crashes, hangs and answers in many languages."""
    rng = random.Random(5)
    lock = threading.Lock()
    release = threading.Event()
    answers = ["Keine Treffer.", "没有找到职位。", "Aucune offre.", "3 vagas em Lisboa.", "OK"]

    def agent(case: Case) -> dict[str, str]:
        with lock:
            roll, pause, text = rng.random(), rng.random() * 0.004, rng.choice(answers)
        if roll < 0.05:
            raise ConnectionResetError("reset by peer")
        if roll < 0.07:
            release.wait(30)  # hangs
        time.sleep(pause)
        return {"text": text, "verdict": "search" if roll < 0.6 else "refuse"}

    try:
        result, sink = run(
            Runner(agent, repeats=3, concurrency=6, timeout_s=0.25, retry=1, retry_backoff_s=0),
            dataset(200),
        )
    finally:
        release.set()
    statuses = [t.status for t in sink.traces]
    assert result.complete and len(sink.traces) == 600
    assert statuses.count("ok") > 540
    # a crash or hang retried once: both attempts fail with probability about 0.07**2
    assert statuses.count("crashed") + statuses.count("timed_out") < 15
    assert result.live_calls == sum(t.attempts for t in sink.traces)
    assert {t.answer for t in sink.traces if t.status == "ok"} <= set(answers)
    assert result.abandoned_threads == sum(
        e.type == "Timeout" for t in sink.traces for e in t.retried_errors
    ) + statuses.count("timed_out")


def test_a_failing_sink_ends_the_run_and_no_new_trial_starts() -> None:
    calls = 0

    class FullDisk:
        def __init__(self) -> None:
            self.lines = 0

        def write(self, trace: Trace) -> int:
            self.lines += 1
            if self.lines == 5:
                raise OSError(28, "No space left on device")
            return self.lines

    def target(text: str) -> str:
        nonlocal calls
        calls += 1
        time.sleep(0.001)
        return "ok"

    with pytest.raises(OSError, match="No space left"):
        asyncio.run(Runner(target, concurrency=4).run(dataset(2000), FullDisk()))
    seen = calls
    time.sleep(0.1)
    assert calls == seen  # the threads stopped taking trials
    assert calls < 200
