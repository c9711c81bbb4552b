"""The runner: every (case, repeat) through the target, bounded, timed, budgeted, interruptible.

- Async targets: a fixed pool of ``concurrency`` worker coroutines pulls trials from one
  iterator; no task per trial is created up front, so memory does not grow with the suite.
- Sync targets: ``concurrency`` daemon threads each run whole trials and queue the traces, which
  the event loop writes and scores in batches (``_threaded``): no hand-off per call, no lock per
  trial, so a fast sync target runs about as fast as an async one.
- ``timeout_s`` bounds every trial. Async targets are cancelled. A Python thread cannot be killed:
  a sync target's trial is recorded as ``timed_out``, its thread is abandoned and runs on until
  its call returns (its later tool calls are not recorded, because the trial's context is
  closed), a new thread takes its place, and the process does not wait for it at exit. The count
  of abandoned threads is returned so the report can show it.
- ``retry`` calls a trial again after a timeout or a retryable error, with exponential backoff;
  every attempt is a live call.
- ``max_calls`` and ``max_cost_usd`` stop scheduling new trials once reached; in-flight trials
  finish, and the run is marked incomplete with the reason. Only live trials count: a replayed
  trial spends nothing. A trial's cost is the one it reported, else ``price(trace)`` (the
  ``[pricing]`` table, in ``fairwitness run``).
- :meth:`Runner.request_stop` (called on Ctrl-C / SIGTERM) cancels in-flight trials and returns a
  partial result marked incomplete; trials that did not finish are counted as not run.
- In ``record`` mode cached answers are replayed and missing trials are called live; only answers
  are cached, never a crash or a timeout. In ``replay`` mode every trial must be in the cache
  (checked before anything runs).

The runner writes traces and returns per-trial summaries; it knows nothing of reports.
"""

from __future__ import annotations

from fairwitness.runner._progress import Progress
from fairwitness.runner._results import RunResult, TrialResult
from fairwitness.runner._runner import Mode, Runner, TraceSink

__all__ = [
    "Mode",
    "Progress",
    "RunResult",
    "Runner",
    "TraceSink",
    "TrialResult",
]
