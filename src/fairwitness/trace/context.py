"""The run context of one trial, reachable from anywhere in the target through a context variable.

The runner opens a :class:`TrialContext` around every trial. ``@tool`` records calls into it and
reads the trial's fault plan from it, so user code needs no changes to be traced or to have faults
injected. A target may also use it directly through :func:`current`::

    ctx = fairwitness.current()
    ctx.set_verdict("search")
    ctx.record_usage(input_tokens=812, output_tokens=64, cost_usd=0.0011)
    ctx.record_model("gpt-4o-mini-2024-07-18")

Outside a trial, :func:`current` returns a detached context that accepts the same calls and keeps
nothing, so agent code runs unchanged in production.

Sync targets and tools run in worker threads with a copy of the context, so their records land in
the same :class:`TrialContext`. Code that starts its own threads without copying the context
(``contextvars.copy_context().run``) is not traced.
"""

from __future__ import annotations

import random
import threading
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairwitness.trace.model import Fault, FiredFault, ToolCall

_CURRENT: ContextVar[TrialContext | None] = ContextVar("fairwitness_trial", default=None)


class TrialContext:
    """Mutable, thread-safe record of one trial in progress."""

    def __init__(
        self,
        *,
        suite: str = "",
        case_id: str = "",
        repeat: int = 0,
        variant: str = "base",
        seed: int | None = None,
        faults: list[Fault] | None = None,
        active: bool = True,
    ) -> None:
        self.suite = suite
        self.case_id = case_id
        self.repeat = repeat
        self.variant = variant
        self.active = active
        self.faults: list[Fault] = list(faults or [])
        self._calls: list[tuple[int, ToolCall]] = []
        self._call_seq = 0
        self.faults_fired: list[FiredFault] = []
        self.verdict: str | None = None
        self.models: list[str] = []
        self.input_tokens: int | None = None
        self.output_tokens: int | None = None
        self.cost_usd: float | None = None
        self.usage_reports = 0
        self.usage_reports_without_cost = 0
        self._seed = seed
        self._rng: random.Random | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._attempts: dict[str, int] = {}
        self._fired_per_fault: dict[int, int] = {}

    # -- for targets -------------------------------------------------------------------------

    @property
    def rng(self) -> random.Random:
        """A random generator seeded from the run seed, case, repeat and variant.

        Use it for any randomness the target owns, so a rerun with the same seed is reproducible.
        """
        if self._rng is None:
            material = f"{self._seed}|{self.suite}|{self.case_id}|{self.repeat}|{self.variant}"
            self._rng = random.Random(material) if self._seed is not None else random.Random()
        return self._rng

    def set_verdict(self, verdict: str) -> None:
        """Record the trial's verdict (route, decision, label)."""
        if not isinstance(verdict, str) or not verdict:
            raise TypeError(f"verdict must be a non-empty str, got {verdict!r}")
        with self._lock:
            if self._writable():
                self.verdict = verdict

    def record_usage(
        self,
        *,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        cost_usd: float | None = None,
    ) -> None:
        """Add one model call's usage. A call without ``cost_usd`` makes the trial's cost unknown."""
        for name, value in (("input_tokens", input_tokens), ("output_tokens", output_tokens)):
            if value is not None and (isinstance(value, bool) or value < 0):
                raise ValueError(f"{name} must be a non-negative int, got {value!r}")
        if cost_usd is not None and cost_usd < 0:
            raise ValueError(f"cost_usd must be non-negative, got {cost_usd!r}")
        with self._lock:
            if not self._writable():
                return
            self.usage_reports += 1
            if input_tokens is not None:
                self.input_tokens = (self.input_tokens or 0) + input_tokens
            if output_tokens is not None:
                self.output_tokens = (self.output_tokens or 0) + output_tokens
            if cost_usd is None:
                self.usage_reports_without_cost += 1
            else:
                self.cost_usd = (self.cost_usd or 0.0) + cost_usd

    def record_model(self, model: str) -> None:
        """Record the identity of a model the target called (first-seen order, no duplicates)."""
        with self._lock:
            if self._writable() and model not in self.models:
                self.models.append(model)

    # -- for @tool and the runner --------------------------------------------------------------

    def _writable(self) -> bool:
        return self.active and not self._closed

    def close(self) -> None:
        """Stop accepting records: a thread abandoned after a timeout can no longer change the trace."""
        with self._lock:
            self._closed = True

    def next_attempt(self, tool: str) -> int:
        """Reserve and return the 0-based attempt index of ``tool`` within this trial."""
        with self._lock:
            index = self._attempts.get(tool, 0)
            self._attempts[tool] = index + 1
            return index

    def faults_for(self, tool: str) -> list[tuple[int, Fault]]:
        """The declared faults on ``tool`` with their indices, in declaration order."""
        return [(i, f) for i, f in enumerate(self.faults) if f.tool == tool]

    def is_armed(self, index: int, fault: Fault, attempt: int) -> bool:
        """Whether fault ``index`` would fire at ``attempt`` (armed, shots left, trial still open)."""
        with self._lock:
            if not self._writable() or attempt < fault.after_calls:
                return False
            return fault.times is None or self._fired_per_fault.get(index, 0) < fault.times

    def fire(self, index: int, fault: Fault, attempt: int) -> None:
        """Record that fault ``index`` fired at ``attempt``."""
        from fairwitness.trace.model import FiredFault

        with self._lock:
            if not self._writable():
                return
            self._fired_per_fault[index] = self._fired_per_fault.get(index, 0) + 1
            self.faults_fired.append(
                FiredFault(fault=index, tool=fault.tool, kind=fault.kind, call=attempt)
            )

    def start_tool_call(self) -> int:
        """Reserve the position of a tool call that is starting (calls are ordered by start)."""
        with self._lock:
            seq = self._call_seq
            self._call_seq += 1
            return seq

    def record_tool_call(self, seq: int, call: ToolCall) -> None:
        """Record a finished tool call at the position reserved when it started."""
        with self._lock:
            if self._writable():
                self._calls.append((seq, call))

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Finished tool calls in start order."""
        with self._lock:
            return [call for _, call in sorted(self._calls, key=lambda item: item[0])]


_DETACHED = TrialContext(active=False)


def current() -> TrialContext:
    """The context of the trial in progress, or an inert detached context outside a run."""
    ctx = _CURRENT.get()
    return ctx if ctx is not None else _DETACHED


def active() -> TrialContext | None:
    """The context of the trial in progress, or ``None`` outside a run."""
    return _CURRENT.get()


def bind(ctx: TrialContext) -> object:
    """Make ``ctx`` current in this context; returns a token for :func:`unbind`."""
    return _CURRENT.set(ctx)


def unbind(token: object) -> None:
    """Restore the context that was current before :func:`bind`."""
    _CURRENT.reset(token)  # type: ignore[arg-type]
