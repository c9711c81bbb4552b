"""From trial scores to case outcomes to metrics.

Per case, repeats collapse by the metric's kind: capability metrics by majority (a tie is a
failure), safety metrics by any-hit (the bad outcome in any repeat is a finding), continuous
metrics by median. A repeat without a score leaves the denominator. Per metric, cases without a
score are counted by reason, never folded into a zero.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fairwitness.scoring.base import Reason, Scorer
from fairwitness.stats import bootstrap_ci, wilson


@dataclass(frozen=True, slots=True)
class CaseScore:
    """A metric's value for one case after collapsing its repeats."""

    value: float | None
    reason: Reason | None
    unstable: bool


def collapse(scorer: Scorer, repeats: Sequence[tuple[float | None, Reason | None]]) -> CaseScore:
    """Collapse one case's repeat scores for ``scorer``."""
    if not repeats:
        return CaseScore(None, "not_run", False)
    measured = [value for value, _ in repeats if value is not None]
    if not measured:
        reasons: Counter[Reason] = Counter(r for _, r in repeats if r is not None)
        for reason, _ in reasons.most_common():
            if reason != "not_applicable":
                return CaseScore(None, reason, False)
        return CaseScore(None, "not_applicable", False)
    unstable = len(set(measured)) > 1
    if scorer.kind == "continuous":
        return CaseScore(float(statistics.median(measured)), None, unstable)
    if scorer.kind == "capability":
        passes = sum(1 for value in measured if value >= 0.5)
        return CaseScore(1.0 if 2 * passes > len(measured) else 0.0, None, unstable)
    bad = 0.0 if scorer.higher_is_better else 1.0
    return CaseScore(bad if bad in measured else 1.0 - bad, None, unstable)


@dataclass
class MetricSummary:
    """A metric over all cases, with what was excluded and why."""

    name: str
    value: float | None
    k: float
    n: int
    ci_low: float | None
    ci_high: float | None
    excluded: dict[str, int] = field(default_factory=dict)
    collapse: str = ""
    higher_is_better: bool = True
    description: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "k": self.k,
            "n": self.n,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "excluded": self.excluded,
            "collapse": self.collapse,
            "higher_is_better": self.higher_is_better,
            "description": self.description,
        }


def summarise(
    scorer: Scorer, cases: Iterable[CaseScore | tuple[CaseScore, int]], *, seed: int = 0
) -> MetricSummary:
    """Aggregate collapsed case scores: k/n with a Wilson interval (continuous: mean with a seeded
    bootstrap interval). ``value`` is ``None`` when no case was measured ("not measured").

    ``cases`` may give ``(score, count)`` pairs, for many cases that collapsed alike."""
    measured: list[float] = []
    excluded: Counter[str] = Counter()
    for item in cases:
        case, count = item if isinstance(item, tuple) else (item, 1)
        if case.value is None:
            excluded[case.reason or "not_applicable"] += count
        else:
            measured.extend([case.value] * count)
    n = len(measured)
    k = float(sum(measured))
    value = ci_low = ci_high = None
    if n:
        value = k / n
        if scorer.kind == "continuous":
            if n >= 2:  # sorted: the interval depends on the values, never on case order
                ci_low, ci_high = bootstrap_ci(sorted(measured), n_resamples=2000, seed=seed)
        else:
            ci_low, ci_high = wilson(round(k), n)
    return MetricSummary(
        name=scorer.name,
        value=value,
        k=k,
        n=n,
        ci_low=ci_low,
        ci_high=ci_high,
        excluded=dict(sorted(excluded.items())),
        collapse=scorer.collapse,
        higher_is_better=scorer.higher_is_better,
        description=scorer.description,
    )
