"""Sync targets on threads that run whole trials, with the event loop kept out of each one.

Handing every call of a sync target from the event loop to a worker thread and back costs two
thread wake-ups per trial, and with the loop idle while the threads wake, a no-op sync target ran
at well under half the speed of an async one. Here each of ``concurrency`` threads runs trials
from start to end (cache look-up, the call, retries, the trace) and queues the finished traces;
the loop writes, scores and counts them in batches: it is woken once per batch, not per trial.

- No lock is taken per trial. Threads share only operations the interpreter makes atomic: the
  next trial and the next call come from ``itertools.count`` tickets, the watchdog and a thread
  race for an attempt with one ``dict.pop``, the cache is a dict. (With a lock per trial, a
  thread preempted while holding it made the others queue behind it, and the queue fed itself:
  runs with 8 threads took three times as long, at random.) The sink, the scorers and the
  results are the loop's alone.
- Time limits: a thread marks the start of each attempt; a watchdog task on the loop finds the
  attempts past ``timeout_s``, records them as timed out and starts a new thread to carry on
  (retry the trial or take the next one), so ``concurrency`` threads keep working. The thread
  that hung is abandoned: when its call returns at last, it finds its attempt expired, drops
  the result and exits. It is a daemon, so it never keeps the process alive.
- An interrupt (:meth:`Runner.request_stop`) ends the run at once: results that arrive after it
  are dropped, as the async path drops cancelled trials.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import itertools
import math
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from fairwitness.runner._attempt import attempt_trace
from fairwitness.trace.context import TrialContext, bind, unbind
from fairwitness.trace.model import TargetFailure, Trace

if TYPE_CHECKING:
    from fairwitness.dataset import Case
    from fairwitness.runner._attempt import Trial
    from fairwitness.runner._runner import Runner
    from fairwitness.scoring.apply import TrialScores


class _Sink(Protocol):
    def write(self, trace: Trace) -> int: ...


@dataclass
class _Attempt:
    """One call of the target in flight on a thread."""

    trial: Trial
    ctx: TrialContext
    started: float
    deadline: float


BACKLOG_PER_THREAD = 16

_ABANDONED = object()
"""What an attempt returns to a thread that the watchdog gave up on."""


class TrialThreads:
    """Runs the plan's trials of a sync target on threads; see the module docstring."""

    def __init__(
        self,
        runner: Runner,
        cases: Sequence[Case],
        sink: _Sink,
        tally: Callable[[Trace, int, TrialScores | None], None],
    ) -> None:
        self.runner = runner
        self.cases = cases
        self.sink = sink
        self.tally = tally
        self.planned = len(cases) * runner.repeats
        self.tickets = itertools.count()
        """The next trial: ticket t is repeat ``t % repeats`` of case ``t // repeats``."""
        self.calls = itertools.count(1)
        """Live calls taken, numbered from 1: the run's ``max_calls`` budget."""
        self.calls_before = runner._live_calls
        self.lock = threading.Lock()
        self.attempts: dict[int, _Attempt] = {}
        self.ids = itertools.count()
        self.names = itertools.count(1)
        self.active = 0
        self.all_done = False
        self.over = False
        self.finished: queue.SimpleQueue[tuple[Trace, Case]] = queue.SimpleQueue()
        self.woken = False
        self.backlog = BACKLOG_PER_THREAD * max(runner.concurrency, 1)
        """Finished trials the loop may have queued before threads wait for it."""
        self.room = threading.Event()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.wakeup: asyncio.Event | None = None
        self.context = contextvars.copy_context()

    async def run(self, threads: int) -> None:
        """Start ``threads`` threads and return when all have finished."""
        if threads < 1:
            return
        self.loop = asyncio.get_running_loop()
        self.wakeup = asyncio.Event()
        self.context = contextvars.copy_context()
        watchdog = None
        if self.runner.timeout_s is not None:
            watchdog = asyncio.ensure_future(self._watchdog(self.runner.timeout_s))
        with self.lock:
            self.active = threads
        for _ in range(threads):
            self._start(None)
        try:
            await self._record()
        finally:
            self.over = (
                True  # the loop stopped recording (done, interrupted or failed): no new trial
            )
            if watchdog is not None:
                watchdog.cancel()
                await asyncio.gather(watchdog, return_exceptions=True)

    # -- threads -----------------------------------------------------------------------------

    def _start(self, resume: tuple[Trial, Trace] | None) -> None:
        thread = threading.Thread(
            target=self.context.copy().run,
            args=(self._main, resume),
            name=f"fairwitness-trial-{next(self.names)}",
            daemon=True,
        )
        thread.start()

    def _main(self, resume: tuple[Trial, Trace] | None) -> None:
        try:
            if resume is not None:
                trial, timed_out = resume
                if self._settle(trial, self._attempts(trial, (timed_out, True))):
                    return
            runner = self.runner
            while runner._stop_reason is None and not runner._interrupted and not self.over:
                ticket = next(self.tickets)
                if ticket >= self.planned:
                    break
                case = self.cases[ticket // runner.repeats]
                begun = runner._begin(case, ticket % runner.repeats, "base")
                if isinstance(begun, Trace):
                    self._finish(begun, case)
                    continue
                if not self._take_call():
                    break
                if self._settle(begun, self._attempts(begun)):
                    return
        except BaseException as exc:  # never lose a thread silently: stop the run with why
            with self.lock:
                self.runner._stop(f"internal error in a trial thread: {type(exc).__name__}: {exc}")
        self._exit()

    def _settle(self, trial: Trial, outcome: Trace | object) -> bool:
        """Record a finished trial; ``True`` when this thread was abandoned and must end."""
        if outcome is _ABANDONED:
            return True
        assert isinstance(outcome, Trace)
        self._finish(outcome, trial.case)
        return False

    def _exit(self) -> None:
        with self.lock:
            self.active -= 1
            last = self.active == 0
        if last:
            self._call_soon(self._end)

    def _end(self) -> None:
        self.all_done = True
        self._wake()

    # -- one trial ---------------------------------------------------------------------------

    def _take_call(self) -> bool:
        """Take one live call of the budget (an atomic ticket), or stop the run."""
        runner = self.runner
        number = self.calls_before + next(self.calls)
        if runner.max_calls is not None and number > runner.max_calls:
            runner._stop(f"budget: max_calls={runner.max_calls} reached")
            return False
        return True

    def calls_taken(self) -> int:
        """Live calls taken in this run (call when every thread is done)."""
        taken = next(self.calls) - 1
        runner = self.runner
        if runner.max_calls is not None:
            taken = min(taken, runner.max_calls - self.calls_before)
        return taken

    def _attempts(self, trial: Trial, first: tuple[Trace, bool] | None = None) -> Trace | object:
        """Call the target until the trial's outcome stands (retries included); ``first`` is an
        attempt already made (one the watchdog timed out). A call is taken for each attempt
        before it starts."""
        runner = self.runner
        made = first
        while True:
            if made is None:
                called = self._call(trial)
                if called is _ABANDONED:
                    return _ABANDONED
                assert isinstance(called, tuple)
                made = called
            trace, retryable = made
            made = None
            if not (runner._after_attempt(trial, trace, retryable) and self._take_call()):
                return runner._end(trial, trace)
            time.sleep(runner._retry(trial, trace))

    def _call(self, trial: Trial) -> tuple[Trace, bool] | object:
        runner = self.runner
        ctx = runner._context(trial.case, trial.repeat, trial.variant)
        argument = runner.target.argument(trial.case)
        started = time.perf_counter()
        limit = runner.timeout_s
        attempt = _Attempt(
            trial, ctx, started, time.monotonic() + limit if limit is not None else math.inf
        )
        key = next(self.ids)
        self.attempts[key] = attempt
        value: Any = None
        failure: TargetFailure | None = None
        retryable = False
        token = bind(ctx)
        try:
            value = runner.target.fn(argument)
        except Exception as exc:
            failure, retryable = runner._failure(exc)
        except BaseException as exc:  # SystemExit or KeyboardInterrupt inside a target
            failure, retryable = runner._failure(RuntimeError(repr(exc)))
        finally:
            unbind(token)
        if self.attempts.pop(key, None) is None:  # the watchdog took it: it timed out
            return _ABANDONED
        return attempt_trace(
            runner.suite, trial.case, trial.repeat, trial.variant, ctx, value, failure, started
        ), retryable

    def _finish(self, trace: Trace, case: Case) -> None:
        """Queue a finished trial for the loop; wake the loop unless a wake-up is pending. While
        the loop has a backlog, wait for room: threads that keep the interpreter's lock would
        starve the loop (it gets one turn in ``concurrency + 1``), and traces would pile up."""
        self.finished.put((trace, case))
        if not self.woken:
            self.woken = True
            self._call_soon(self._wake)
        while self.finished.qsize() >= self.backlog and not (self.runner._interrupted or self.over):
            self.room.wait(0.001)

    def _call_soon(self, callback: Callable[[], None]) -> None:
        assert self.loop is not None
        with contextlib.suppress(RuntimeError):  # the loop is gone: the run was interrupted
            self.loop.call_soon_threadsafe(callback)

    def _wake(self) -> None:
        if self.wakeup is not None:
            self.wakeup.set()

    async def _record(self) -> None:
        """Write, score and count finished trials as they arrive, until every thread is done."""
        assert self.wakeup is not None
        runner = self.runner
        while True:
            await self.wakeup.wait()
            self.wakeup.clear()
            self.woken = False  # before draining: a trial queued from now on wakes the loop again
            while True:
                try:
                    trace, case = self.finished.get_nowait()
                except queue.Empty:
                    self.room.set()  # wake the threads waiting for room
                    self.room.clear()
                    break
                if runner._interrupted:
                    continue
                line = self.sink.write(trace)
                scores = runner.scoring(trace, case) if runner.scoring is not None else None
                if inspect.isawaitable(scores):  # an async scorer (a judge): await it
                    scores = await runner._scored(scores)
                self.tally(trace, line, scores)
            if self.all_done and self.finished.empty():
                return

    # -- time limits -------------------------------------------------------------------------

    async def _watchdog(self, limit: float) -> None:
        tick = min(max(limit / 20, 0.01), 0.5)
        while True:
            await asyncio.sleep(tick)
            now = time.monotonic()
            late = [key for key, a in list(self.attempts.items()) if now >= a.deadline]
            for key in late:
                attempt = self.attempts.pop(key, None)
                if attempt is None:  # its thread took it first: the call returned in time
                    continue
                self.runner._abandoned += 1
                trial = attempt.trial
                trace = attempt_trace(
                    self.runner.suite,
                    trial.case,
                    trial.repeat,
                    trial.variant,
                    attempt.ctx,
                    None,
                    self.runner._timeout(),
                    attempt.started,
                    timed_out=True,
                )
                self._start((trial, trace))
