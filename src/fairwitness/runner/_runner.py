"""The :class:`Runner`, whose guarantees the package docstring states, and its trace sink."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import itertools
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import datetime, timezone
from typing import Any, Literal, Protocol

from fairwitness._threads import _DaemonThreads, on_worker
from fairwitness.dataset import Case, Dataset
from fairwitness.errors import CacheMissError, Problem, UsageError
from fairwitness.runner._progress import Progress
from fairwitness.runner._results import RunResult, TrialResult, _summary
from fairwitness.scoring.apply import ScoringStopped, TrialScores
from fairwitness.targets.base import (
    InvalidReturn,
    Target,
    explain_failure,
    from_callable,
    to_observation,
)
from fairwitness.tools.decorator import classify
from fairwitness.tools.results import RETRYABLE_KINDS
from fairwitness.trace.cache import TraceCache, cache_key
from fairwitness.trace.context import TrialContext, bind, unbind
from fairwitness.trace.model import TargetFailure, Trace, TrialStatus, Usage

Mode = Literal["live", "record", "replay"]


class TraceSink(Protocol):
    """Where finished traces go; ``write`` returns the trace's line number."""

    def write(self, trace: Trace) -> int: ...


class Runner:
    """Runs a dataset against a target. See the module docstring for the guarantees."""

    def __init__(
        self,
        target: Target | Callable[[Any], Any],
        *,
        suite: str = "default",
        repeats: int = 1,
        concurrency: int = 8,
        timeout_s: float | None = None,
        max_calls: int | None = None,
        max_cost_usd: float | None = None,
        seed: int = 0,
        mode: Mode = "live",
        cache: TraceCache | None = None,
        cache_salt: str = "",
        progress: Progress | None = None,
        scoring: Callable[[Trace, Case], TrialScores | Awaitable[TrialScores]] | None = None,
        price: Callable[[Trace], float | None] | None = None,
        retry: int = 0,
        retry_backoff_s: float = 1.0,
    ) -> None:
        if repeats < 1:
            raise UsageError(f"repeats must be >= 1, got {repeats}")
        if concurrency < 1:
            raise UsageError(f"concurrency must be >= 1, got {concurrency}")
        if timeout_s is not None and timeout_s <= 0:
            raise UsageError(f"timeout_s must be > 0, got {timeout_s}")
        if max_calls is not None and max_calls < 1:
            raise UsageError(f"max_calls must be >= 1, got {max_calls}")
        if max_cost_usd is not None and max_cost_usd <= 0:
            raise UsageError(f"max_cost_usd must be > 0, got {max_cost_usd}")
        if retry < 0:
            raise UsageError(f"retry must be >= 0, got {retry}")
        if retry_backoff_s < 0:
            raise UsageError(f"retry_backoff_s must be >= 0, got {retry_backoff_s}")
        if mode not in ("live", "record", "replay"):
            raise UsageError(f"mode must be live, record or replay, got {mode!r}")
        if mode != "live" and cache is None:
            raise UsageError(f"mode {mode!r} needs a cache")
        self.target = from_callable(target)
        self.suite = suite
        self.repeats = repeats
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self.max_calls = max_calls
        self.max_cost_usd = max_cost_usd
        self.seed = seed
        self.mode: Mode = mode
        self.cache = cache
        self.cache_salt = cache_salt
        self.progress = progress
        self.price = price
        """The cost of a trial that reported none (e.g. from a price table), for ``max_cost_usd``."""
        self.scoring = scoring
        self.retry = retry
        """Times a trial that timed out or crashed with a retryable error is called again."""
        self.retry_backoff_s = retry_backoff_s
        """The wait before the first retry; it doubles for each next one (with jitter)."""
        self._stop_reason: str | None = None
        self._interrupted = False
        self._workers: list[asyncio.Task[None]] = []
        self._live_calls = 0
        self._cost = 0.0
        self._abandoned = 0
        self._models: dict[str, None] = {}
        self._threads = _DaemonThreads()
        self._deadlines: dict[asyncio.Task[Any], tuple[float, int]] = {}
        self._expired: set[int] = set()
        self._tokens = itertools.count()

    # -- control -----------------------------------------------------------------------------

    def request_stop(self, reason: str) -> None:
        """Stop now: cancel in-flight trials and return what finished, marked incomplete."""
        if self._stop_reason is None:
            self._stop_reason = reason
        self._interrupted = True
        for task in self._workers:
            task.cancel()

    def _key(self, case: Case, repeat: int, variant: str) -> str:
        return cache_key(
            suite=self.suite,
            salt=self.cache_salt,
            target=self.target.name,
            case_fingerprint=case.agent_fingerprint(),
            repeat=repeat,
            variant=variant,
        )

    def check_replayable(self, dataset: Dataset) -> None:
        """In replay mode, refuse before running if any trial is missing from the cache."""
        if self.mode != "replay" or self.cache is None:
            return
        missing = [
            (case, r)
            for case in dataset
            for r in range(self.repeats)
            if self._key(case, r, "base") not in self.cache
        ]
        if missing:
            case, repeat = missing[0]
            file, line = dataset.location(case.id)
            raise CacheMissError(
                Problem(
                    f"replay mode: {len(missing)} trial(s) not in the cache {self.cache.path}, "
                    f"first: case '{case.id}' repeat {repeat} (run with --mode record first)",
                    file=file,
                    line=line,
                )
            )

    # -- running -----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[Runner]:
        """Keep the time-limit watchdog and the worker threads alive for :meth:`call`."""
        watchdog = asyncio.ensure_future(self._watchdog()) if self.timeout_s is not None else None
        try:
            yield self
        finally:
            self._threads.shutdown()
            if watchdog is not None:
                watchdog.cancel()
                await asyncio.gather(watchdog, return_exceptions=True)

    async def call(self, case: Case, *, repeat: int = 0, variant: str = "base") -> Trace:
        """One live trial of ``case`` outside :meth:`run` (inside ``async with runner.session()``):
        time-limited, traced, faults injected; never cached. Counted as a live call."""
        self._live_calls += 1
        trace, _ = await self._call_target(case, repeat, variant)
        return trace

    async def run(self, dataset: Dataset, sink: TraceSink) -> RunResult:
        """Run every case ``repeats`` times; returns when done, stopped or interrupted."""
        self.check_replayable(dataset)
        started_at = datetime.now(timezone.utc)
        planned = len(dataset) * self.repeats
        plan: Iterator[tuple[Case, int]] = (
            (case, r) for case in dataset for r in range(self.repeats)
        )
        results: list[TrialResult] = []
        counters = {"crashed": 0, "timed_out": 0}

        async def worker() -> None:
            for case, repeat in plan:
                if self._stop_reason is not None:
                    return
                try:
                    trace = await self._trial(case, repeat, "base")
                except asyncio.CancelledError:
                    if self._interrupted:
                        return
                    raise
                if trace is None:
                    return
                line = sink.write(trace)
                scores = await self._score(trace, case)
                results.append(_summary(trace, line, scores))
                if trace.status in counters:
                    counters[trace.status] += 1
                if self.progress is not None:
                    self.progress.update(
                        len(results), planned, counters["crashed"], counters["timed_out"]
                    )

        async with self.session():
            self._workers = [
                asyncio.ensure_future(worker()) for _ in range(min(self.concurrency, planned))
            ]
            try:
                await asyncio.gather(*self._workers)
            except asyncio.CancelledError:
                if not self._interrupted:
                    for task in self._workers:
                        task.cancel()
                    raise
            finally:
                self._workers = []
        if self.progress is not None:
            self.progress.update(
                len(results), planned, counters["crashed"], counters["timed_out"], final=True
            )
        if self.cache is not None and self.mode == "record":
            self.cache.save()
        complete = self._stop_reason is None and len(results) == planned
        reason = self._stop_reason
        if reason is None and not complete:
            reason = f"{planned - len(results)} of {planned} trials did not run"
        answered = sum(1 for r in results if r.status == "ok")
        if results and not answered and self._stop_reason is None:
            first = min(results, key=lambda r: r.trace_line)
            complete = False
            reason = (
                f"no trial produced an answer: all {len(results)} crashed or timed out "
                f"(first, case '{first.case_id}': {first.error})"
            )
        return RunResult(
            suite=self.suite,
            planned=planned,
            trials=results,
            complete=complete,
            incomplete_reason=reason,
            live_calls=self._live_calls,
            abandoned_threads=self._abandoned,
            models=sorted(self._models),
            started_at=started_at,
            finished_at=datetime.now(timezone.utc),
            faults_declared=sum(len(c.faults) for c in dataset) * self.repeats,
        )

    async def _score(self, trace: Trace, case: Case) -> TrialScores | None:
        """The trial's scores; scoring that cannot go on (a judge out of budget) stops the run
        like a budget does: trials in flight finish, no new one starts."""
        if self.scoring is None:
            return None
        scores = self.scoring(trace, case)
        if not inspect.isawaitable(scores):
            return scores
        try:
            return await scores
        except ScoringStopped as stop:
            self._stop(str(stop))
            return stop.scores

    async def _trial(self, case: Case, repeat: int, variant: str) -> Trace | None:
        key = self._key(case, repeat, variant) if self.cache is not None else ""
        if self.cache is not None and self.mode in ("record", "replay"):
            cached = self.cache.get(key)
            # record mode calls again a trial an older cache holds as crashed: it may have been
            # a transient failure, and replaying it would make it permanent
            if cached is not None and (self.mode == "replay" or cached.status == "ok"):
                self._note(cached, live=False)
                return cached.model_copy(update={"replayed": True})
        if self._spent():
            return None
        failures: list[TargetFailure] = []
        usages: list[Usage] = []
        while True:
            self._live_calls += 1
            trace, retryable = await self._call_target(case, repeat, variant)
            self._note(trace, live=True)
            usages.append(trace.usage)
            if not retryable or len(failures) >= self.retry or self._stop_reason is not None:
                break
            if self._spent():
                break  # the last attempt stands as the trial's outcome
            assert trace.error is not None
            failures.append(trace.error)
            await asyncio.sleep(self._backoff(case, repeat, variant, len(failures)))
        if failures:
            trace = trace.model_copy(
                update={
                    "attempts": len(failures) + 1,
                    "retried_errors": failures,
                    "usage": _sum_usage(usages),
                }
            )
        # Only answers are cached: a crash or a timeout may be transient, and a cached one would
        # be replayed for ever instead of calling the agent again.
        if self.cache is not None and self.mode == "record" and trace.status == "ok":
            self.cache.put(key, trace)
        return trace

    def _backoff(self, case: Case, repeat: int, variant: str, retry: int) -> float:
        """The wait before retry number ``retry`` (from 1): ``retry_backoff_s * 2**(retry - 1)``,
        at most 60 s, scaled by a seeded jitter in [0.5, 1) so that trials failing together (a
        rate limit) do not all come back at the same instant."""
        base = min(self.retry_backoff_s * 2.0 ** (retry - 1), 60.0)
        seed = f"{self.seed}\x00{case.id}\x00{repeat}\x00{variant}\x00{retry}"
        return base * (0.5 + random.Random(seed).random() / 2)

    def _spent(self) -> bool:
        """Whether ``max_calls`` is used up (it then stops the run)."""
        if self.max_calls is not None and self._live_calls >= self.max_calls:
            self._stop(f"budget: max_calls={self.max_calls} reached")
            return True
        return False

    def _stop(self, reason: str) -> None:
        if self._stop_reason is None:
            self._stop_reason = reason

    def _note(self, trace: Trace, *, live: bool) -> None:
        for model in trace.models:
            self._models.setdefault(model, None)
        if not live:  # a replayed trial spends nothing
            return
        cost = trace.usage.cost_usd
        if cost is None and self.price is not None:
            cost = self.price(trace)
        if cost is not None:
            self._cost += cost
            if self.max_cost_usd is not None and self._cost >= self.max_cost_usd:
                self._stop(
                    f"budget: max_cost_usd={self.max_cost_usd:g} reached (spent ${self._cost:.4f})"
                )

    async def _call_target(self, case: Case, repeat: int, variant: str) -> tuple[Trace, bool]:
        """One attempt: its trace, and whether it failed in a way worth retrying (it timed out,
        or raised an error ``@tool`` classifies as retryable: timeout, rate limit, upstream)."""
        ctx = TrialContext(
            suite=self.suite,
            case_id=case.id,
            repeat=repeat,
            variant=variant,
            seed=self.seed,
            faults=case.faults,
        )
        argument = self.target.argument(case)
        status: TrialStatus = "ok"
        failure: TargetFailure | None = None
        retryable = False
        value: Any = None
        started = time.perf_counter()
        try:
            if self.target.is_async:
                value = await self._call_async(ctx, argument)
            else:
                value = await self._call_sync(ctx, argument)
        except _TrialTimedOut:
            status = "timed_out"
            retryable = True
            failure = TargetFailure(type="Timeout", message=f"no answer within {self.timeout_s:g}s")
        except asyncio.CancelledError:
            ctx.close()
            raise
        except Exception as exc:
            status = "crashed"
            retryable = classify(exc) in RETRYABLE_KINDS
            failure = TargetFailure(
                type=type(exc).__name__, message=explain_failure(self.target, exc)
            )
        latency_ms = round((time.perf_counter() - started) * 1000, 3)
        ctx.close()
        answer = verdict = None
        reported_tools: list[str] | None = None
        if status == "ok":
            try:
                observation = to_observation(value)
            except InvalidReturn as exc:
                status = "crashed"
                failure = TargetFailure(type="InvalidReturn", message=str(exc))
            else:
                answer = observation.text
                verdict = observation.verdict or ctx.verdict
                reported_tools = list(observation.tools) if observation.tools is not None else None
        trace = Trace(
            suite=self.suite,
            case_id=case.id,
            repeat=repeat,
            variant=variant,
            input=case.input,
            status=status,
            answer=answer,
            verdict=verdict if status == "ok" else None,
            tool_calls=ctx.tool_calls,
            reported_tools=reported_tools,
            faults_declared=case.faults,
            faults_fired=ctx.faults_fired,
            usage=_usage(ctx),
            models=ctx.models,
            latency_ms=latency_ms,
            error=failure,
        )
        return trace, retryable

    # -- time limits -------------------------------------------------------------------------
    #
    # One watchdog task enforces every trial's time limit: a timer per trial would cost more than
    # a fast target itself, and with targets that never suspend, cancelled timers pile up in the
    # event loop faster than it can drop them. Limits are enforced to within one watchdog tick
    # (a twentieth of the limit, between 10 ms and 0.5 s).

    async def _within_time_limit(self, awaitable: Awaitable[Any]) -> Any:
        if self.timeout_s is None:
            return await awaitable
        task = asyncio.current_task()
        assert task is not None
        token = next(self._tokens)
        self._deadlines[task] = (asyncio.get_running_loop().time() + self.timeout_s, token)
        try:
            return await awaitable
        except asyncio.CancelledError:
            if token not in self._expired:
                raise
            self._expired.discard(token)
            uncancel = getattr(task, "uncancel", None)  # 3.11+: keep the cancel count balanced
            if uncancel is not None:
                uncancel()
            raise _TrialTimedOut from None
        finally:
            self._deadlines.pop(task, None)

    async def _watchdog(self) -> None:
        assert self.timeout_s is not None
        tick = min(max(self.timeout_s / 20, 0.01), 0.5)
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(tick)
            now = loop.time()
            for task, (deadline, token) in list(self._deadlines.items()):
                if now >= deadline and token not in self._expired:
                    self._expired.add(token)
                    task.cancel()

    async def _call_async(self, ctx: TrialContext, argument: Any) -> Any:
        token = bind(ctx)
        try:
            return await self._within_time_limit(self.target.fn(argument))
        finally:
            unbind(token)

    async def _call_sync(self, ctx: TrialContext, argument: Any) -> Any:
        token = bind(ctx)
        try:
            context = contextvars.copy_context()
        finally:
            unbind(token)
        future = on_worker(self._threads, context, self.target.fn, argument)
        try:
            return await self._within_time_limit(future)
        except _TrialTimedOut:
            self._abandoned += 1
            raise


class _TrialTimedOut(Exception):
    """The trial's own time limit ran out (a TimeoutError raised by the target is a crash)."""


def _usage(ctx: TrialContext) -> Usage:
    if ctx.usage_reports == 0:
        return Usage()
    missing = ctx.usage_reports_without_cost
    return Usage(
        input_tokens=ctx.input_tokens,
        output_tokens=ctx.output_tokens,
        cost_usd=None if missing else ctx.cost_usd,
        cost_unknown_reason=(
            f"cost not reported for {missing} of {ctx.usage_reports} model call(s)"
            if missing
            else None
        ),
    )


def _sum_usage(usages: list[Usage]) -> Usage:
    """The usage of all of a trial's attempts: tokens summed over the attempts that reported
    any; the cost known only when every attempt that reported usage reported its cost."""
    reported = [u for u in usages if u != Usage()]
    if not reported:
        return Usage()
    if len(reported) == 1:
        return reported[0]

    def total(values: list[int | None]) -> int | None:
        known = [v for v in values if v is not None]
        return sum(known) if known else None

    costs = [u.cost_usd for u in reported]
    unknown = sum(c is None for c in costs)
    return Usage(
        input_tokens=total([u.input_tokens for u in reported]),
        output_tokens=total([u.output_tokens for u in reported]),
        cost_usd=None if unknown else sum(c for c in costs if c is not None),
        cost_unknown_reason=(
            f"cost not reported for {unknown} of {len(reported)} attempt(s)" if unknown else None
        ),
    )
