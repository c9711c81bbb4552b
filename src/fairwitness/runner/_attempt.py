"""One attempt of a trial: its trace, its usage, and the state of a trial across attempts."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from fairwitness.dataset import Case
from fairwitness.targets.base import InvalidReturn, to_observation
from fairwitness.trace.context import TrialContext
from fairwitness.trace.model import TargetFailure, Trace, TrialStatus, Usage


@dataclass
class Trial:
    """A trial being called: its attempts so far."""

    case: Case
    repeat: int
    variant: str
    key: str
    """Its record/replay cache key ("" without a cache)."""
    failures: list[TargetFailure] = field(default_factory=list)
    """Why each attempt retried so far failed."""
    usages: list[Usage] = field(default_factory=list)
    """The usage of each attempt so far."""


def attempt_trace(
    suite: str,
    case: Case,
    repeat: int,
    variant: str,
    ctx: TrialContext,
    value: Any,
    failure: TargetFailure | None,
    started: float,
    *,
    timed_out: bool = False,
) -> Trace:
    """The trace of one attempt that returned ``value``, failed with ``failure``, or timed
    out. Closes ``ctx``: nothing the target does afterwards is recorded."""
    latency_ms = round((time.perf_counter() - started) * 1000, 3)
    ctx.close()
    status: TrialStatus = "ok"
    if failure is not None:
        status = "timed_out" if timed_out else "crashed"
    answer = verdict = None
    reported_tools: list[str] | None = None
    state: dict[str, Any] | None = None
    if status == "ok":
        try:
            observation = to_observation(value)
        except InvalidReturn as exc:
            status = "crashed"
            failure = TargetFailure(type="InvalidReturn", message=str(exc))
        else:
            answer = observation.text
            verdict = observation.verdict or ctx.verdict
            reported_tools = list(observation.tools) if observation.tools is not None else None
            state = observation.state
    return Trace(
        suite=suite,
        case_id=case.id,
        repeat=repeat,
        variant=variant,
        input=case.input,
        status=status,
        answer=answer,
        verdict=verdict if status == "ok" else None,
        tool_calls=ctx.tool_calls,
        reported_tools=reported_tools,
        state=state,
        faults_declared=case.faults,
        faults_fired=ctx.faults_fired,
        usage=ctx_usage(ctx),
        models=ctx.models,
        latency_ms=latency_ms,
        error=failure,
    )


def ctx_usage(ctx: TrialContext) -> Usage:
    if ctx.usage_reports == 0:
        return Usage()
    missing = ctx.usage_reports_without_cost
    return Usage(
        input_tokens=ctx.input_tokens,
        output_tokens=ctx.output_tokens,
        cost_usd=None if missing else ctx.cost_usd,
        cost_unknown_reason=(
            f"cost not reported for {missing} of {ctx.usage_reports} model call(s)"
            if missing
            else None
        ),
    )


def sum_usage(usages: list[Usage]) -> Usage:
    """The usage of all of a trial's attempts: tokens summed over the attempts that reported
    any; the cost known only when every attempt that reported usage reported its cost."""
    reported = [u for u in usages if u != Usage()]
    if not reported:
        return Usage()
    if len(reported) == 1:
        return reported[0]

    def total(values: list[int | None]) -> int | None:
        known = [v for v in values if v is not None]
        return sum(known) if known else None

    costs = [u.cost_usd for u in reported]
    unknown = sum(c is None for c in costs)
    return Usage(
        input_tokens=total([u.input_tokens for u in reported]),
        output_tokens=total([u.output_tokens for u in reported]),
        cost_usd=None if unknown else sum(c for c in costs if c is not None),
        cost_unknown_reason=(
            f"cost not reported for {unknown} of {len(reported)} attempt(s)" if unknown else None
        ),
    )
