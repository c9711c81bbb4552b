"""The worker threads that sync targets run in."""

from __future__ import annotations

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
