"""What a run returns: a summary per finished trial, and the run's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fairwitness.scoring.apply import TrialScores
from fairwitness.trace.model import Trace, TrialStatus


@dataclass(slots=True)
class TrialResult:
    """What the report needs to know about one finished trial (the trace holds the rest)."""

    case_id: str
    repeat: int
    variant: str
    status: TrialStatus
    verdict: str | None
    latency_ms: float
    tool_calls: int
    faults_fired: int
    error: str | None
    replayed: bool
    cost_usd: float | None
    input_tokens: int | None
    output_tokens: int | None
    trace_line: int
    scores: TrialScores | None = None
    models: tuple[str, ...] = ()
    """The models the trial recorded, first-seen order."""
    attempts: int = 1
    """Calls of the target the trial took (1 + retries spent)."""


@dataclass
class RunResult:
    """The outcome of :meth:`Runner.run`."""

    suite: str
    planned: int
    trials: list[TrialResult] = field(repr=False)
    complete: bool
    incomplete_reason: str | None
    live_calls: int
    abandoned_threads: int
    models: list[str]
    started_at: datetime
    finished_at: datetime
    faults_declared: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def _summary(trace: Trace, line: int, scores: TrialScores | None) -> TrialResult:
    return TrialResult(
        case_id=trace.case_id,
        repeat=trace.repeat,
        variant=trace.variant,
        status=trace.status,
        verdict=trace.verdict,
        latency_ms=trace.latency_ms,
        tool_calls=len(trace.tool_calls),
        faults_fired=len(trace.faults_fired),
        error=None if trace.error is None else f"{trace.error.type}: {trace.error.message}",
        replayed=trace.replayed,
        cost_usd=trace.usage.cost_usd,
        input_tokens=trace.usage.input_tokens,
        output_tokens=trace.usage.output_tokens,
        trace_line=line,
        scores=scores,
        models=tuple(trace.models),
        attempts=trace.attempts,
    )
