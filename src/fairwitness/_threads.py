"""Daemon worker threads for sync code called from the event loop (sync targets, sync agents)."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import queue
import threading
from collections.abc import Callable
from typing import Any


class _DaemonThreads:
    """Daemon worker threads for sync targets, grown on demand, never joined.

    Each submitted job gets a worker: an idle one if there is one, else a new thread. A worker
    whose job hangs past the trial's timeout is simply never idle again, so it cannot delay other
    trials, and being a daemon it cannot keep the process alive at exit.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], Callable[[Any], None]] | None] = (
            queue.SimpleQueue()
        )
        self._lock = threading.Lock()
        self._idle = 0
        self._started = 0

    def submit(self, compute: Callable[[], Any], deliver: Callable[[Any], None]) -> None:
        """Run ``compute()`` on a worker and pass its return value to ``deliver``."""
        with self._lock:
            if self._idle:
                self._idle -= 1
            else:
                self._started += 1
                threading.Thread(
                    target=self._work, name=f"fairwitness-trial-{self._started}", daemon=True
                ).start()
        self._jobs.put((compute, deliver))

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            compute, deliver = job
            outcome = compute()
            # Idle before delivering: the next trial, submitted as soon as this one's result
            # arrives, must find this worker free rather than start another thread.
            with self._lock:
                self._idle += 1
            deliver(outcome)

    def shutdown(self) -> None:
        """Let idle workers exit; busy (or hung) ones end when their job does."""
        with self._lock:
            idle, self._idle = self._idle, 0
        for _ in range(idle):
            self._jobs.put(None)


def on_worker(
    threads: _DaemonThreads, context: contextvars.Context, fn: Callable[..., Any], *args: Any
) -> asyncio.Future[Any]:
    """Run ``fn(*args)`` in ``context`` on one of ``threads``; a future of the running loop gets
    its value or exception. The loop never blocks, and a worker whose caller gave up (a time limit)
    is left to finish alone: its result is dropped, also when the loop has ended meanwhile."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def deliver(ok: bool, payload: Any) -> None:
        if future.done():
            return
        if ok:
            future.set_result(payload)
        else:
            future.set_exception(payload)

    def compute() -> tuple[bool, Any]:
        try:
            return True, context.run(fn, *args)
        except BaseException as exc:
            return False, exc if isinstance(exc, Exception) else RuntimeError(repr(exc))

    def hand_over(outcome: tuple[bool, Any]) -> None:
        # RuntimeError: the event loop is gone (the run ended while this worker was abandoned).
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(deliver, *outcome)

    threads.submit(compute, hand_over)
    return future
