"""What the gate decided, per metric and overall."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from fairwitness.errors import (
    EXIT_INCONCLUSIVE,
    EXIT_INVALID,
    EXIT_MUST_PASS,
    EXIT_OK,
    EXIT_REGRESSION,
)
from fairwitness.gate._power import POWER

Verdict = Literal["pass", "regression", "must-pass failed", "inconclusive", "invalid"]

VERDICTS: dict[int, Verdict] = {
    EXIT_INVALID: "invalid",
    EXIT_MUST_PASS: "must-pass failed",
    EXIT_INCONCLUSIVE: "inconclusive",
    EXIT_REGRESSION: "regression",
    EXIT_OK: "pass",
}
PRECEDENCE = (EXIT_INVALID, EXIT_MUST_PASS, EXIT_INCONCLUSIVE, EXIT_REGRESSION)
"""When several exit codes apply, the first of these that does is the exit code."""


@dataclass(frozen=True)
class MetricDecision:
    """One metric's comparison. Values are recomputed from the per-case outcomes; ``None`` means
    not measured (or, for the test columns, not tested)."""

    name: str
    kind: str
    higher_is_better: bool
    gated: bool
    """Whether McNemar's test (with Holm) was applied."""
    baseline: float | None
    candidate: float | None
    n: int
    """Paired cases measured in both reports."""
    regressions: int
    """Paired cases good in the baseline and bad in the candidate."""
    improvements: int
    """Paired cases bad in the baseline and good in the candidate."""
    p: float | None
    """One-sided McNemar p-value (candidate worse)."""
    p_adjusted: float | None
    """Holm-adjusted over the gated metrics."""
    rejected: bool
    """Holm rejects "no drop": a regression."""
    detectable_drop: float | None
    """Smallest drop (in the metric's proportion) detectable with 80% power; see power_note."""
    power_note: str
    floor: float | None = None
    """The floor set on this metric, if any."""
    floor_kind: Literal["min", "max"] | None = None
    floor_breached: bool = False
    regressed_ids: tuple[str, ...] = ()
    """The paired cases that went from good to bad, in dataset order."""
    improved_ids: tuple[str, ...] = ()
    """The paired cases that went from bad to good, in dataset order."""

    @property
    def delta(self) -> float | None:
        """Candidate minus baseline."""
        if self.baseline is None or self.candidate is None:
            return None
        return self.candidate - self.baseline

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["delta"] = self.delta
        return data


@dataclass(frozen=True)
class Decision:
    """The gate's decision: exit code, verdict, every reason, and the per-metric figures."""

    exit_code: int
    verdict: Verdict
    reasons: list[str]
    """One line each; all that apply, the exit code's own first."""
    metrics: list[MetricDecision]
    unpaired: dict[str, list[str]]
    """``missing_from_candidate`` and ``new_in_candidate`` case ids."""
    alpha: float
    test: str
    power_alpha: float | None = None
    """The one-sided level of the power statements: alpha / m over m gated metrics."""
    notes: list[str] = field(default_factory=list)
    """Things worth knowing that do not change the exit code."""

    @property
    def summary(self) -> str:
        """The verdict with its first reason, on one line."""
        return f"{self.verdict}: {self.reasons[0]}" if self.reasons else self.verdict

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict of the whole decision."""
        return {
            "exit_code": self.exit_code,
            "verdict": self.verdict,
            "summary": self.summary,
            "reasons": list(self.reasons),
            "metrics": [metric.to_dict() for metric in self.metrics],
            "unpaired": {key: list(ids) for key, ids in self.unpaired.items()},
            "alpha": self.alpha,
            "test": self.test,
            "power": {
                "level": POWER,
                "alpha": self.power_alpha,
                "method": "Connor (1987) normal approximation to McNemar's test, one-sided at "
                "alpha / m (Holm's first step over m gated metrics)",
            },
            "notes": list(self.notes),
        }
