"""The :class:`Runner`, whose guarantees the package docstring states, and its trace sink."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import itertools
import random
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from datetime import datetime, timezone
from typing import Any, Literal, Protocol

from fairwitness._threads import _DaemonThreads, on_worker
from fairwitness.dataset import Case, Dataset
from fairwitness.errors import CacheMissError, Problem, UsageError
from fairwitness.runner._attempt import Trial, attempt_trace, sum_usage
from fairwitness.runner._progress import Progress
from fairwitness.runner._results import RunResult, TrialResult, _summary
from fairwitness.runner._threaded import TrialThreads
from fairwitness.scoring.apply import ScoringStopped, TrialScores
from fairwitness.targets.base import (
    Target,
    explain_failure,
    from_callable,
)
from fairwitness.tools.decorator import classify
from fairwitness.tools.results import RETRYABLE_KINDS
from fairwitness.trace.cache import TraceCache, cache_key
from fairwitness.trace.context import TrialContext, bind, unbind
from fairwitness.trace.model import TargetFailure, Trace

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
        self._cost_lock = threading.Lock()
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

        def tally(trace: Trace, line: int, scores: TrialScores | None) -> None:
            results.append(_summary(trace, line, scores))
            if trace.status in counters:
                counters[trace.status] += 1
            if self.progress is not None:
                self.progress.update(
                    len(results), planned, counters["crashed"], counters["timed_out"]
                )

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
                tally(trace, line, await self._score(trace, case))

        if self.target.is_async:
            async with self.session():
                await self._gather([worker() for _ in range(min(self.concurrency, planned))])
        else:
            pool = TrialThreads(self, dataset.cases, sink, tally)
            try:
                await self._gather([pool.run(min(self.concurrency, planned))])
            finally:
                self._live_calls = pool.calls_before + pool.calls_taken()
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

    async def _gather(self, workers: list[Coroutine[Any, Any, None]]) -> None:
        """Run the workers until they finish; an interrupt (:meth:`request_stop`) ends them early,
        any other cancellation propagates."""
        self._workers = [asyncio.ensure_future(w) for w in workers]
        try:
            await asyncio.gather(*self._workers)
        except asyncio.CancelledError:
            if not self._interrupted:
                for task in self._workers:
                    task.cancel()
                raise
        finally:
            self._workers = []

    async def _score(self, trace: Trace, case: Case) -> TrialScores | None:
        """The trial's scores; scoring that cannot go on (a judge out of budget) stops the run
        like a budget does: trials in flight finish, no new one starts."""
        if self.scoring is None:
            return None
        scores = self.scoring(trace, case)
        if not inspect.isawaitable(scores):
            return scores
        return await self._scored(scores)

    async def _scored(self, scores: Awaitable[TrialScores]) -> TrialScores:
        try:
            return await scores
        except ScoringStopped as stop:
            self._stop(str(stop))
            return stop.scores

    async def _trial(self, case: Case, repeat: int, variant: str) -> Trace | None:
        trial = self._begin(case, repeat, variant)
        if isinstance(trial, Trace):
            return trial
        if not self._take_call():
            return None
        while True:
            trace, retryable = await self._call_target(case, repeat, variant)
            if not (self._after_attempt(trial, trace, retryable) and self._take_call()):
                return self._end(trial, trace)
            await asyncio.sleep(self._retry(trial, trace))

    def _begin(self, case: Case, repeat: int, variant: str) -> Trial | Trace:
        """A trial about to be called, or its cached trace (record and replay modes)."""
        key = self._key(case, repeat, variant) if self.cache is not None else ""
        if self.cache is not None and self.mode in ("record", "replay"):
            cached = self.cache.get(key)
            # record mode calls again a trial an older cache holds as crashed: it may have been
            # a transient failure, and replaying it would make it permanent
            if cached is not None and (self.mode == "replay" or cached.status == "ok"):
                self._note(cached, live=False)
                return cached.model_copy(update={"replayed": True})
        return Trial(case, repeat, variant, key)

    def _take_call(self) -> bool:
        """Count one live call, unless ``max_calls`` is used up (which stops the run)."""
        if self._spent():
            return False
        self._live_calls += 1
        return True

    def _after_attempt(self, trial: Trial, trace: Trace, retryable: bool) -> bool:
        """Account for one attempt; whether to retry it (a call must then be taken for it)."""
        self._note(trace, live=True)
        trial.usages.append(trace.usage)
        return retryable and len(trial.failures) < self.retry and self._stop_reason is None

    def _retry(self, trial: Trial, trace: Trace) -> float:
        """Note why the attempt is retried; the wait before the retry."""
        assert trace.error is not None
        trial.failures.append(trace.error)
        return self._backoff(trial.case, trial.repeat, trial.variant, len(trial.failures))

    def _end(self, trial: Trial, trace: Trace) -> Trace:
        """The trial's trace: its last attempt, with the retries it took; cached if answered."""
        if trial.failures:
            trace = trace.model_copy(
                update={
                    "attempts": len(trial.failures) + 1,
                    "retried_errors": trial.failures,
                    "usage": sum_usage(trial.usages),
                }
            )
        # Only answers are cached: a crash or a timeout may be transient, and a cached one would
        # be replayed for ever instead of calling the agent again.
        if self.cache is not None and self.mode == "record" and trace.status == "ok":
            self.cache.put(trial.key, trace)
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
            with self._cost_lock:  # trials of a sync target end on several threads
                self._cost += cost
            if self.max_cost_usd is not None and self._cost >= self.max_cost_usd:
                self._stop(
                    f"budget: max_cost_usd={self.max_cost_usd:g} reached (spent ${self._cost:.4f})"
                )

    async def _call_target(self, case: Case, repeat: int, variant: str) -> tuple[Trace, bool]:
        """One attempt: its trace, and whether it failed in a way worth retrying (it timed out,
        or raised an error ``@tool`` classifies as retryable: timeout, rate limit, upstream)."""
        ctx = self._context(case, repeat, variant)
        argument = self.target.argument(case)
        value: Any = None
        failure: TargetFailure | None = None
        retryable = timed_out = False
        started = time.perf_counter()
        try:
            if self.target.is_async:
                value = await self._call_async(ctx, argument)
            else:
                value = await self._call_sync(ctx, argument)
        except TrialTimedOut:
            failure, retryable, timed_out = self._timeout(), True, True
        except asyncio.CancelledError:
            ctx.close()
            raise
        except Exception as exc:
            failure, retryable = self._failure(exc)
        trace = attempt_trace(
            self.suite, case, repeat, variant, ctx, value, failure, started, timed_out=timed_out
        )
        return trace, retryable

    def _context(self, case: Case, repeat: int, variant: str) -> TrialContext:
        return TrialContext(
            suite=self.suite,
            case_id=case.id,
            repeat=repeat,
            variant=variant,
            seed=self.seed,
            faults=case.faults,
        )

    def _timeout(self) -> TargetFailure:
        return TargetFailure(type="Timeout", message=f"no answer within {self.timeout_s:g}s")

    def _failure(self, exc: Exception) -> tuple[TargetFailure, bool]:
        """What the target's exception is recorded as, and whether it is worth a retry."""
        failure = TargetFailure(type=type(exc).__name__, message=explain_failure(self.target, exc))
        return failure, classify(exc) in RETRYABLE_KINDS

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
            raise TrialTimedOut from None
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
        except TrialTimedOut:
            self._abandoned += 1
            raise


class TrialTimedOut(Exception):
    """The trial's own time limit ran out (a TimeoutError raised by the target is a crash)."""
