"""The digest of what a comment says that matters: verdict, exit code, and each gated metric.

``comment: changes`` leaves the sticky comment alone while the digest it carries in its marker
equals the new run's; ``comment: failures`` uses it not to rewrite a "passes now" note that
already says so. Only what the gate decided goes in: the verdict, the exit code, and for every
metric that can decide (gated by the paired test, or under a floor) its name, both headline
values (rounded to the comment's precision and a little more) and what was decided about it.
Timestamps, run ids, links, baseline descriptions and wording never do, so two runs that decide
the same give the same digest wherever and whenever they ran.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Protocol

DIGEST_SCHEMA = "fairwitness.digest/1"
"""Changed whenever what goes into the digest changes, so old digests never match new ones."""
DIGEST_CHARS = 16
"""Hex characters kept of the SHA-256: 64 bits, plenty to tell two states of one pull request
apart."""
_PLACES = 6
"""Decimal places of a headline value in the digest (the comment shows 3)."""


class _Floor(Protocol):
    @property
    def breached(self) -> bool: ...


class _Metric(Protocol):
    """What the digest reads of a :class:`fairwitness.gate.MetricDecision`."""

    @property
    def name(self) -> str: ...
    @property
    def gated(self) -> bool: ...
    @property
    def baseline(self) -> float | None: ...
    @property
    def candidate(self) -> float | None: ...
    @property
    def rejected(self) -> bool: ...
    @property
    def floor(self) -> float | None: ...
    @property
    def floor_breached(self) -> bool: ...
    @property
    def pass_floors(self) -> Sequence[_Floor]: ...


class _Decision(Protocol):
    """What the digest reads of a :class:`fairwitness.gate.Decision` (this package talks to the
    gate only through the action, so the digest names no gate type)."""

    @property
    def metrics(self) -> Sequence[_Metric]: ...


def decision_digest(decision: _Decision | None, exit_code: int, verdict: str) -> str:
    """The digest of ``decision`` (``None``: no baseline, nothing gated) with the run's
    ``exit_code`` and ``verdict``: 16 lowercase hex characters."""
    content: dict[str, Any] = {
        "schema": DIGEST_SCHEMA,
        "verdict": verdict,
        "exit_code": exit_code,
        "metrics": []
        if decision is None
        else [_metric(m) for m in decision.metrics if _decides(m)],
    }
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def _decides(metric: _Metric) -> bool:
    """Whether ``metric`` can change the decision: gated, or under a floor."""
    return metric.gated or metric.floor is not None or bool(metric.pass_floors)


def _metric(metric: _Metric) -> list[Any]:
    breached = metric.floor_breached or any(f.breached for f in metric.pass_floors)
    if metric.rejected:
        decided = "regressed"
    elif breached:
        decided = "floor breached"
    else:
        decided = "held"
    return [
        metric.name,
        _value(metric.baseline),
        _value(metric.candidate),
        decided,
        metric.rejected,
        breached,
    ]


def _value(value: float | None) -> str | None:
    """``None`` (not measured) stays apart from every number, 0 included."""
    return None if value is None else f"{value:.{_PLACES}f}"
