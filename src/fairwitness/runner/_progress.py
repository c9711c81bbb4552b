"""Progress of a run, written to stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Progress to stderr: a rewritten line on a TTY, a line every ``interval_s`` otherwise."""

    def __init__(self, stream: TextIO | None = None, *, interval_s: float = 10.0) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval_s = 0.2 if self.tty else interval_s
        self._started = time.monotonic()
        self._last = self._started  # the first line comes after one interval, not at once

    def update(
        self, done: int, planned: int, crashed: int, timed_out: int, *, final: bool = False
    ) -> None:
        now = time.monotonic()
        if not final and now - self._last < self.interval_s:
            return
        self._last = now
        share = 100.0 * done / planned if planned else 100.0
        line = (
            f"fairwitness: {done}/{planned} trials ({share:.0f}%), {crashed} crashed, "
            f"{timed_out} timed out, {now - self._started:.1f}s"
        )
        if self.tty:
            self.stream.write("\r" + line + ("\n" if final else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
