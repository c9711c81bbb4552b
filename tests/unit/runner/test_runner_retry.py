"""Retries of timed-out and transiently failing trials, and what record mode caches."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import fairwitness
from builders import ListSink
from fairwitness import Case, Dataset, Runner
from fairwitness.errors import CacheMissError, UsageError
from fairwitness.trace.cache import TraceCache
from fairwitness.trace.model import TargetFailure, Trace


def dataset(n: int) -> Dataset:
    return Dataset([Case(id=f"c{i:03d}", input=f"question {i}") for i in range(n)])


def run(runner: Runner, data: Dataset) -> tuple[Any, ListSink]:
    sink = ListSink()
    result = asyncio.run(runner.run(data, sink))
    return result, sink


class RateLimited(Exception):
    """What an SDK raises on HTTP 429."""

    status_code = 429


class Flaky:
    """Fails the first ``failures`` calls of every (case, repeat) with ``error``, then answers."""

    def __init__(self, failures: int, error: type[Exception] = ConnectionError) -> None:
        self.failures = failures
        self.error = error
        self.calls: Counter[tuple[str, int]] = Counter()
        self.lock = threading.Lock()

    def __call__(self, case: Case) -> str:
        ctx = fairwitness.current()
        key = (case.id, ctx.repeat)
        with self.lock:
            self.calls[key] += 1
            attempt = self.calls[key]
        if attempt <= self.failures:
            raise self.error(f"attempt {attempt} failed")
        ctx.record_usage(input_tokens=10, output_tokens=2, cost_usd=0.01)
        return f"answer to {case.text}"


def test_record_mode_never_caches_a_crash_and_calls_it_again(tmp_path: Path) -> None:
    agent = Flaky(failures=1)
    first, sink = run(
        Runner(agent, suite="s", mode="record", cache=TraceCache(tmp_path, "s")), dataset(3)
    )
    assert [t.status for t in sink.traces] == ["crashed"] * 3
    assert first.live_calls == 3
    # nothing was cached, so replay refuses rather than replaying the crashes for ever
    with pytest.raises(CacheMissError, match="3 trial\\(s\\) not in the cache"):
        run(Runner(agent, suite="s", mode="replay", cache=TraceCache(tmp_path, "s")), dataset(3))
    # record again: the agent is called again and its answers are cached
    second, sink = run(
        Runner(agent, suite="s", mode="record", cache=TraceCache(tmp_path, "s")), dataset(3)
    )
    assert [t.status for t in sink.traces] == ["ok"] * 3
    assert second.live_calls == 3 and sum(agent.calls.values()) == 6
    third, sink = run(
        Runner(agent, suite="s", mode="replay", cache=TraceCache(tmp_path, "s")), dataset(3)
    )
    assert third.live_calls == 0 and all(t.replayed and t.status == "ok" for t in sink.traces)


def test_record_mode_calls_again_a_crash_an_older_cache_holds(tmp_path: Path) -> None:
    agent = Flaky(failures=0)
    data = dataset(1)
    probe = Runner(agent, suite="s", mode="record", cache=TraceCache(tmp_path, "s"))
    key = probe._key(data.cases[0], 0, "base")
    old = TraceCache(tmp_path, "s")
    crashed = Trace(
        suite="s",
        case_id="c000",
        repeat=0,
        input="question 0",
        status="crashed",
        latency_ms=1.0,
        error=TargetFailure(type="ConnectionError", message="reset by peer"),
    )
    old.put(key, crashed)
    old.save()
    result, sink = run(
        Runner(agent, suite="s", mode="record", cache=TraceCache(tmp_path, "s")), data
    )
    assert result.live_calls == 1 and sink.traces[0].status == "ok"
    # replay mode replays what the cache holds, as it holds it
    replayed, sink = run(
        Runner(agent, suite="s", mode="replay", cache=TraceCache(tmp_path, "s")), data
    )
    assert replayed.live_calls == 0 and sink.traces[0].status == "ok"


@pytest.mark.parametrize("error", [ConnectionError, RateLimited, TimeoutError])
def test_a_transient_failure_is_retried_and_the_trace_says_so(error: type[Exception]) -> None:
    agent = Flaky(failures=2, error=error)
    result, sink = run(Runner(agent, repeats=2, retry=2, retry_backoff_s=0.001), dataset(2))
    assert result.complete and result.live_calls == 12
    for trace in sink.traces:
        assert trace.status == "ok" and trace.attempts == 3
        assert [e.type for e in trace.retried_errors] == [error.__name__] * 2
        assert [e.message for e in trace.retried_errors] == ["attempt 1 failed", "attempt 2 failed"]
    assert [r.attempts for r in result.trials] == [3] * 4
    line = sink.traces[0].model_dump_json(by_alias=True)
    assert '"attempts":3' in line and '"retried_errors":' in line


def test_retries_run_out_and_the_last_failure_stands() -> None:
    agent = Flaky(failures=5, error=ConnectionError)
    result, sink = run(Runner(agent, retry=2, retry_backoff_s=0.001), dataset(1))
    (trace,) = sink.traces
    assert trace.status == "crashed" and trace.attempts == 3
    assert trace.error is not None and trace.error.message == "attempt 3 failed"
    assert [e.message for e in trace.retried_errors] == ["attempt 1 failed", "attempt 2 failed"]
    assert result.live_calls == 3


def test_a_bug_is_not_retried_and_a_never_retried_trace_is_written_as_before() -> None:
    agent = Flaky(failures=1, error=KeyError)
    _, sink = run(Runner(agent, retry=3, retry_backoff_s=0.001), dataset(1))
    (trace,) = sink.traces
    assert trace.status == "crashed" and trace.attempts == 1 and trace.retried_errors == []
    line = trace.model_dump_json(by_alias=True)
    assert "attempts" not in line and "retried_errors" not in line
    assert sum(agent.calls.values()) == 1


def test_a_timed_out_trial_is_retried_async_and_sync() -> None:
    hung = threading.Event()
    calls: Counter[str] = Counter()

    async def slow_once(case: Case) -> str:
        calls["async"] += 1
        if calls["async"] == 1:
            await asyncio.sleep(30)
        return "fast"

    def sync_slow_once(case: Case) -> str:
        calls["sync"] += 1
        if calls["sync"] == 1:
            hung.wait(30)
        return "fast"

    try:
        for agent in (slow_once, sync_slow_once):
            result, sink = run(
                Runner(agent, timeout_s=0.1, retry=1, retry_backoff_s=0.001), dataset(1)
            )
            (trace,) = sink.traces
            assert trace.status == "ok" and trace.answer == "fast"
            assert trace.attempts == 2 and trace.retried_errors[0].type == "Timeout"
        assert result.abandoned_threads == 1
    finally:
        hung.set()


def test_max_calls_counts_retries_and_stops_them() -> None:
    agent = Flaky(failures=5, error=ConnectionError)
    result, sink = run(
        Runner(agent, retry=4, retry_backoff_s=0.001, max_calls=3, concurrency=1), dataset(2)
    )
    assert result.live_calls == 3 and not result.complete
    assert result.incomplete_reason == "budget: max_calls=3 reached"
    (trace,) = sink.traces  # the second case never started
    assert trace.status == "crashed" and trace.attempts == 3


def test_usage_of_every_attempt_is_counted() -> None:
    calls = 0

    def agent(case: Case) -> str:
        nonlocal calls
        calls += 1
        fairwitness.current().record_usage(input_tokens=100, output_tokens=5, cost_usd=0.5)
        if calls == 1:
            raise RateLimited("slow down")
        return "ok"

    _, sink = run(Runner(agent, retry=1, retry_backoff_s=0.001), dataset(1))
    usage = sink.traces[0].usage
    assert (usage.input_tokens, usage.output_tokens, usage.cost_usd) == (200, 10, 1.0)


def test_backoff_doubles_with_a_seeded_jitter() -> None:
    runner = Runner(Flaky(0), retry=5, retry_backoff_s=0.5, seed=7)
    case = dataset(1).cases[0]
    waits = [runner._backoff(case, 0, "base", n) for n in range(1, 6)]
    for n, wait in enumerate(waits, start=1):
        base = 0.5 * 2 ** (n - 1)
        assert base / 2 <= wait < base
    assert waits == [runner._backoff(case, 0, "base", n) for n in range(1, 6)]  # reproducible
    other = [runner._backoff(dataset(2).cases[1], 0, "base", n) for n in range(1, 6)]
    assert other != waits  # trials failing together come back at different times
    assert Runner(Flaky(0), retry_backoff_s=1000)._backoff(case, 0, "base", 1) < 60


def test_a_noisy_agent_crashes_as_often_as_its_retries_allow() -> None:
    rng = random.Random(11)
    lock = threading.Lock()
    failure_rate = 0.4

    def noisy(case: Case) -> str:
        with lock:
            fails = rng.random() < failure_rate
        time.sleep(0.0005)
        if fails:
            raise ConnectionResetError("connection reset by peer")
        return "Quelques offres à Lyon." if "1" in case.id else "No hay resultados."

    result, sink = run(
        Runner(noisy, repeats=3, concurrency=8, retry=2, retry_backoff_s=0.0001), dataset(300)
    )
    attempts = [t.attempts for t in sink.traces]
    crashed = sum(t.status == "crashed" for t in sink.traces)
    assert result.live_calls == sum(attempts)
    assert all(len(t.retried_errors) == t.attempts - 1 for t in sink.traces)
    assert all(t.attempts == 3 for t in sink.traces if t.status == "crashed")
    # 900 trials; P(crash) = 0.4**3 = 0.064: 57.6 expected, sd 7.3
    assert 30 <= crashed <= 90
    retried = sum(a > 1 for a in attempts)
    assert 310 <= retried <= 410  # 900 x 0.4 = 360 expected, sd 14.7


def test_bad_retry_settings_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="retry must be >= 0"):
        Runner(Flaky(0), retry=-1)
    with pytest.raises(UsageError, match="retry_backoff_s must be >= 0"):
        Runner(Flaky(0), retry_backoff_s=-1)
