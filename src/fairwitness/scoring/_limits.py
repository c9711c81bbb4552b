"""A time limit on each call of a user's sync scorer, without a thread hand-off per call.

Scorers are called hundreds of thousands of times in a large run, so handing each call to a
worker thread (about 50 us a call here) would cost more than the scoring. In the main thread a
call runs inline under an interval timer: when it runs past the limit, ``SIGALRM`` interrupts
it, a pure-Python loop and a blocking read alike, and it is recorded as timed out. Arming and
disarming the timer are two system calls. Elsewhere (a library caller's own thread, a platform
without ``setitimer``) each call runs on a daemon thread that is abandoned when it runs late, as a
hung sync target's is.

The handler raises only while a call is armed, so a signal that lands after the call returned is
ignored; a scorer that swallows the interruption is interrupted again until it gives up; and
the handler that was installed before scoring began is put back afterwards.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any, Final

_HAS_TIMER: Final = hasattr(signal, "setitimer") and hasattr(signal, "SIGALRM")
_AGAIN_S: Final = 0.05


class _Late(BaseException):
    """Raised into a call that ran past its limit (a BaseException, so a scorer's own
    ``except Exception`` cannot swallow it)."""


class TimedOut:
    """The outcome of a call that ran past its limit."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "TIMED_OUT"


TIMED_OUT: Final = TimedOut()
_LATE: Final = (False, TIMED_OUT)


class CallLimit:
    """Runs calls with at most ``timeout_s`` seconds each. Use as a context manager around a
    stretch of scoring: entering installs the timer's handler (main thread only), leaving puts
    the previous one back.

    :meth:`call_each` runs several calls (one trial's scorers) under one arming of the timer:
    each call's start is noted, and an alarm that lands before the call in progress has run its
    full ``timeout_s`` re-arms the timer for the rest of that call's time instead of interrupting
    it, so every call gets its whole limit for two system calls a batch."""

    def __init__(self, timeout_s: float) -> None:
        if not timeout_s > 0:
            raise ValueError(f"timeout_s must be positive, got {timeout_s!r}")
        self.timeout_s = timeout_s
        self._armed = False
        self._in_call = False
        self._fired = False
        self._started = 0.0
        self._previous: Any = None
        self._inline = False

    def __enter__(self) -> CallLimit:
        self._inline = _HAS_TIMER and threading.current_thread() is threading.main_thread()
        if self._inline:
            self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._inline:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)
            self._inline = False

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if not self._armed:
            return
        if not self._in_call:
            # Between two calls of a batch: the next call gets its whole limit.
            signal.setitimer(signal.ITIMER_REAL, self.timeout_s)
            return
        elapsed = time.perf_counter() - self._started
        if elapsed < self.timeout_s and not self._fired:
            # An earlier call of the batch used part of the time armed: this one is not late.
            signal.setitimer(signal.ITIMER_REAL, self.timeout_s - elapsed)
            return
        self._fired = True
        # Again in 50 ms, until the call unwinds: a scorer that swallows the first one
        # (a bare ``except:``) is interrupted again.
        signal.setitimer(signal.ITIMER_REAL, _AGAIN_S)
        raise _Late

    def call(self, fn: Callable[..., Any], *args: Any) -> tuple[bool, Any]:
        """``(True, value)``, ``(False, exception)``, or ``(False, TIMED_OUT)``."""
        return self.call_each((fn,), *args)[0]

    def call_each(self, fns: Sequence[Callable[..., Any]], *args: Any) -> list[tuple[bool, Any]]:
        """Each of ``fns`` called with ``args`` in turn, each within ``timeout_s``: one outcome
        per function, as :meth:`call` gives it."""
        if not self._inline:
            return [_on_thread(fn, args, self.timeout_s) for fn in fns]
        outcomes: list[tuple[bool, Any]] = []
        self._fired = False
        self._armed = True
        signal.setitimer(signal.ITIMER_REAL, self.timeout_s)
        try:
            for fn in fns:
                self._fired = False
                self._started = time.perf_counter()
                outcome: tuple[bool, Any]
                try:
                    self._in_call = True
                    try:
                        outcome = (True, fn(*args))
                    finally:
                        self._in_call = False
                except _Late:
                    outcome = _LATE
                except Exception as exc:
                    outcome = (False, exc)
                # A call that swallowed the interruption and returned late is late all the same.
                outcomes.append(_LATE if self._fired else outcome)
        finally:
            self._armed = False
            self._in_call = False
            signal.setitimer(signal.ITIMER_REAL, 0)
        return outcomes


def _on_thread(fn: Callable[..., Any], args: tuple[Any, ...], timeout_s: float) -> tuple[bool, Any]:
    outcome: list[tuple[bool, Any]] = []

    def run() -> None:
        try:
            outcome.append((True, fn(*args)))
        except Exception as exc:
            outcome.append((False, exc))

    worker = threading.Thread(target=run, name="fairwitness-scorer", daemon=True)
    worker.start()
    worker.join(timeout_s)
    if not outcome:
        return False, TIMED_OUT
    return outcome[0]


__all__ = ["TIMED_OUT", "CallLimit", "TimedOut"]
