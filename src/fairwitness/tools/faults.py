"""Fault injection: decide, per tool attempt, which declared faults fire and what they do.

A case declares faults such as ``{"tool": "search_jobs", "kind": "timeout", "after_calls": 1,
"times": 1}``. The runner puts them in the trial's context; ``@tool`` asks :func:`plan` before every
attempt. Faults on one tool apply in declaration order:

- ``latency`` faults that are armed all fire and their delays add up;
- the first armed failing fault (``timeout``, ``rate_limit``, ``upstream``, ``auth``, ``empty``)
  replaces the call: the tool function is not run and the model sees an ``Err`` (or ``Empty``);
- otherwise the first armed ``truncated`` fault lets the call run and cuts its ``Ok`` value short.

A fault is *armed* once the tool has been attempted ``after_calls`` times in the trial, and fires at
most ``times`` times (``None``: every attempt). Only faults that actually fire are recorded as fired.
Retries are attempts, so ``{"kind": "timeout", "times": 1}`` on a tool with ``retries=1`` tests that
the retry recovers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from fairwitness.errors import FaultPlanError, Problem
from fairwitness.tools.results import Empty, Err
from fairwitness.trace.context import TrialContext
from fairwitness.trace.model import Fault

_FAILING = {"timeout", "rate_limit", "upstream", "auth", "empty"}

INJECTED_EMPTY_NOTE = "The lookup succeeded and matched no records."


@dataclass(frozen=True)
class Injection:
    """What the faults do to one attempt."""

    delay_s: float = 0.0
    replace_with: Empty | Err | None = None
    truncate: bool = False

    @property
    def fired(self) -> bool:
        return self.delay_s > 0 or self.replace_with is not None or self.truncate


NO_INJECTION = Injection()


def _replacement(fault: Fault) -> Empty | Err:
    if fault.kind == "empty":
        return Empty(INJECTED_EMPTY_NOTE)
    return Err(
        fault.kind,  # type: ignore[arg-type]
        f"injected {fault.kind} fault on {fault.tool}",
        fault_injected=True,
    )


def plan(ctx: TrialContext | None, tool: str) -> tuple[int, Injection]:
    """Reserve the attempt index of ``tool`` and decide which faults fire on it."""
    if ctx is None:
        return 0, NO_INJECTION
    attempt = ctx.next_attempt(tool)
    declared = ctx.faults_for(tool)
    if not declared:
        return attempt, NO_INJECTION
    armed = [(i, f) for i, f in declared if ctx.is_armed(i, f, attempt)]
    failing = next(((i, f) for i, f in armed if f.kind in _FAILING), None)
    delay_ms = 0
    for i, f in armed:
        if f.kind == "latency":
            ctx.fire(i, f, attempt)
            delay_ms += f.latency_ms or 0
    if failing is not None:
        ctx.fire(failing[0], failing[1], attempt)
        return attempt, Injection(delay_s=delay_ms / 1000, replace_with=_replacement(failing[1]))
    truncating = next(((i, f) for i, f in armed if f.kind == "truncated"), None)
    if truncating is not None:
        ctx.fire(truncating[0], truncating[1], attempt)
    return attempt, Injection(delay_s=delay_ms / 1000, truncate=truncating is not None)


def truncate_value(value: Any) -> Any:
    """Cut a value short for a ``truncated`` fault: sequences and strings keep their first half."""
    if isinstance(value, (list, tuple, str, bytes)):
        keep = len(value) // 2
        return value[:keep]
    if isinstance(value, Mapping):
        items = list(value.items())
        return dict(items[: len(items) // 2])
    return value


def check_fault_plan(
    cases: Iterable[tuple[str, str | None, int | None, list[Fault]]], registered: Iterable[str]
) -> None:
    """Refuse faults declared on tools not wrapped with ``@tool`` before any trial runs.

    ``cases`` yields ``(case_id, file, line, faults)``. Raises :class:`FaultPlanError` listing every
    offending case and tool.
    """
    known = sorted(set(registered))
    problems: list[Problem] = []
    for case_id, file, line, faults in cases:
        for index, fault in enumerate(faults):
            if fault.tool not in known:
                hint = ", ".join(known) if known else "none are registered"
                problems.append(
                    Problem(
                        f"case '{case_id}' declares a {fault.kind} fault on tool '{fault.tool}', "
                        f"which is not wrapped with @tool (known tools: {hint})",
                        file=file,
                        line=line,
                        field=f"faults[{index}].tool",
                    )
                )
    if problems:
        raise FaultPlanError(problems[0], problems=problems)
