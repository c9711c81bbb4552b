"""How the command line sets Python's cyclic garbage collector.

A run builds a trace, a score row and an outcome for every trial, and the read-only commands
(``gate``, ``view``, ``merge``...) build a model object for every case and trial of a report: large
trees of objects that live until the command ends and hold no reference cycles. The collector's
default (a pass every 700 allocations, the survivors traversed again as they age) spends more
time walking those trees than building them: loading 60,000 traces took 3.3 s with it and 0.5 s
without it; a 20,000-case ``view`` 17 s against 7 s.

- Every command runs with a young generation of :data:`YOUNG_THRESHOLD` allocations, so cyclic
  garbage (an agent's SDK makes some) is still collected, a few hundred times less often.
- Commands that only read files and write a result (:data:`READ_ONLY`) pause the collector
  altogether: reference counting frees what they drop, and nothing of theirs forms a cycle.

Only the command line and the action's entrypoint do this, and put the collector back after;
importing fairwitness never changes it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

YOUNG_THRESHOLD: Final = 100_000
"""Allocations between two passes over the youngest generation (Python's default is 700)."""
READ_ONLY: Final = frozenset({"merge", "validate", "gate", "compare", "render", "view", "readme"})
"""Commands that run no agent, scorer or judge of the user's: the collector is paused for them."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the collector while reports or traces are read (and, by a command, used): reading
    makes hundreds of thousands of objects and no reference cycle, and every pass would scan them
    for cycles that are not there. A pause already in place (a caller's own) is left as it was."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def collector_for(command: str | None) -> Iterator[None]:
    """Set the collector for ``command`` while it runs, and put it back as it was after."""
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, *thresholds[1:])
    try:
        if command in READ_ONLY:
            with collector_paused():
                yield
        else:
            yield
    finally:
        gc.set_threshold(*thresholds)
