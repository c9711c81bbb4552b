"""From trial scores to case outcomes to metrics.

Per case, repeats collapse by the metric's kind: capability metrics by majority (a tie is a
failure), safety metrics by any-hit (the bad outcome in any repeat is a finding), continuous
metrics by median. A repeat without a score leaves the denominator. Per metric, cases without a
score are counted by reason, never folded into a zero.

The case is the unit of evidence. For a pass/fail metric each case also keeps its success count:
``successes`` of its ``trials`` measured repeats (a trial value of 1.0, which is a pass for
higher-is-better metrics and a hit for the others). From those counts come the per-trial rate
(the mean over cases of each case's share, with an interval that treats cases as the sampling
unit: :func:`fairwitness.stats.case_mean_interval`), and, for capability metrics, pass^k and
pass@k for k = 1 .. the most repeats a case has (:func:`fairwitness.stats.pass_hat_k`,
:func:`fairwitness.stats.pass_at_k`, averaged over the cases with at least k measured repeats).

The headline value of a capability metric is its per-trial rate; a safety metric's stays any-hit
(one hit in k tries is a finding) and a continuous metric's the mean of per-case medians. Both
figures of a pass/fail metric are kept (``per_trial`` and ``collapsed``).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from fairwitness.scoring.base import Reason, Scorer
from fairwitness.stats import bootstrap_ci, case_mean_interval, pass_at_k, pass_hat_k, wilson

Headline = Literal["collapsed", "per_trial"]
"""Which figure a metric's ``value`` is: its repeats collapsed per case, or its per-trial rate."""


@dataclass(frozen=True, slots=True)
class CaseScore:
    """A metric's value for one case after collapsing its repeats, and (pass/fail metrics) how
    many of its measured repeats scored 1.0."""

    value: float | None
    reason: Reason | None
    unstable: bool
    successes: int = 0
    """Measured repeats that scored 1.0 (pass/fail metrics; 0 for continuous ones)."""
    trials: int = 0
    """Measured repeats (pass/fail metrics; 0 for continuous ones and unmeasured cases)."""


def headline_of(scorer: Scorer) -> Headline:
    """Capability metrics headline their per-trial rate; the others their collapsed value."""
    return "per_trial" if scorer.kind == "capability" else "collapsed"


def success_count(values: Iterable[float]) -> tuple[int, int]:
    """``(successes, trials)`` of measured pass/fail trial values: how many are 1.0 (>= 0.5)."""
    successes = trials = 0
    for value in values:
        trials += 1
        successes += value >= 0.5
    return successes, trials


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
    ones, trials = success_count(measured)
    if scorer.kind == "capability":
        return CaseScore(1.0 if 2 * ones > trials else 0.0, None, unstable, ones, trials)
    bad = 0.0 if scorer.higher_is_better else 1.0
    return CaseScore(bad if bad in measured else 1.0 - bad, None, unstable, ones, trials)


# -- per-trial rates and pass^k -------------------------------------------------------------------


@dataclass(frozen=True)
class PassK:
    """pass^k and pass@k at one k, over the cases with at least k measured repeats."""

    k: int
    cases: int
    pass_hat: float | None
    pass_hat_low: float | None
    pass_hat_high: float | None
    pass_at: float | None
    pass_at_low: float | None
    pass_at_high: float | None


@dataclass(frozen=True)
class Rates:
    """A pass/fail metric's per-trial figures from its cases' success counts."""

    value: float | None
    """The mean over measured cases of successes / trials."""
    total: float
    """The sum of those shares (the mean's numerator)."""
    cases: int
    trials: int
    ci_low: float | None
    ci_high: float | None
    pass_k: tuple[PassK, ...] = ()
    successes: int = 0
    """Measured trials that scored 1.0."""


def _mean_and_interval(
    values: list[float], evidence: int
) -> tuple[float | None, float | None, float | None]:
    if not values:
        return None, None, None
    low, high = case_mean_interval(values, max(evidence, len(values)))
    return math.fsum(values) / len(values), low, high


def rates(counts: Mapping[tuple[int, int], int], *, with_pass_k: bool) -> Rates:
    """Per-trial rate (and pass^k, pass@k) from ``(successes, trials) -> cases`` counts.

    Cases with no measured trial are left out. Each figure's interval treats cases as the
    sampling unit (:func:`fairwitness.stats.case_mean_interval`)."""
    measured = sorted((key, count) for key, count in counts.items() if key[1] > 0 and count > 0)
    cases = sum(count for _, count in measured)
    trials = sum(t * count for (_, t), count in measured)
    if not cases:
        return Rates(None, 0.0, 0, 0, None, None)
    successes = sum(s * count for (s, _), count in measured)
    total = sum((Fraction(s, t) * count for (s, t), count in measured), Fraction(0))
    # one value per distinct count, repeated for its cases: a suite of 100,000 cases has a few
    # distinct (successes, trials) pairs, so the estimators run a few times, not per case
    shares = [share for (s, t), count in measured for share in [s / t] * count]
    low, high = case_mean_interval(shares, trials)
    found: list[PassK] = []
    if with_pass_k:
        for k in range(1, max(t for (_, t), _ in measured) + 1):
            eligible = [(s, t, count) for (s, t), count in measured if t >= k]
            n = sum(count for *_, count in eligible)
            hats = [v for s, t, count in eligible for v in [pass_hat_k(s, t, k)] * count]
            ats = [v for s, t, count in eligible for v in [pass_at_k(s, t, k)] * count]
            evidence = sum((t // k) * count for _, t, count in eligible)
            hat, hat_low, hat_high = _mean_and_interval(hats, evidence)
            at, at_low, at_high = _mean_and_interval(ats, evidence)
            found.append(PassK(k, n, hat, hat_low, hat_high, at, at_low, at_high))
    return Rates(
        float(total / cases), float(total), cases, trials, low, high, tuple(found), successes
    )


@dataclass
class MetricSummary:
    """A metric over all cases, with what was excluded and why.

    ``value``, ``k``, ``n`` and the interval are the headline figure (``headline``); a pass/fail
    metric also carries its collapsed count and its per-trial ``rates``."""

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
    headline: Headline = "collapsed"
    collapsed_k: float = 0.0
    collapsed_interval: tuple[float | None, float | None] = (None, None)
    rates: Rates | None = None

    def as_dict(self) -> dict[str, Any]:
        """The metric as :class:`fairwitness.report.Metric` data."""
        data: dict[str, Any] = {
            "value": self.value,
            "k": self.k,
            "n": self.n,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "excluded": self.excluded,
            "collapse": self.collapse,
            "higher_is_better": self.higher_is_better,
            "description": self.description,
            "headline": self.headline,
        }
        rates = self.rates
        if rates is not None:
            low, high = self.collapsed_interval
            data["trials"] = rates.trials
            data["successes"] = rates.successes
            data["per_trial"] = {
                "value": rates.value,
                "k": rates.total,
                "n": rates.cases,
                "ci_low": rates.ci_low,
                "ci_high": rates.ci_high,
            }
            data["collapsed"] = {
                "value": self.collapsed_k / self.n if self.n else None,
                "k": self.collapsed_k,
                "n": self.n,
                "ci_low": low,
                "ci_high": high,
            }
            data["pass_k"] = [dataclasses.asdict(one) for one in rates.pass_k]
        return data


def summarise(
    scorer: Scorer, cases: Iterable[CaseScore | tuple[CaseScore, int]], *, seed: int = 0
) -> MetricSummary:
    """Aggregate collapsed case scores. A pass/fail metric gets its collapsed k/n with a Wilson
    interval and its per-trial rate (with pass^k and pass@k for capability metrics); a
    continuous one the mean of per-case values with a seeded bootstrap interval. The headline
    is chosen by :func:`headline_of`. ``value`` is ``None`` when no case was measured ("not
    measured").

    ``cases`` may give ``(score, count)`` pairs, for many cases that collapsed alike."""
    measured: list[float] = []
    excluded: Counter[str] = Counter()
    counts: Counter[tuple[int, int]] = Counter()
    for item in cases:
        case, count = item if isinstance(item, tuple) else (item, 1)
        if case.value is None:
            excluded[case.reason or "not_applicable"] += count
        else:
            measured.extend([case.value] * count)
            counts[case.successes, case.trials] += count
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
    summary = MetricSummary(
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
    if scorer.kind == "continuous":
        return summary
    found = rates(counts, with_pass_k=scorer.kind == "capability")
    summary.collapsed_k, summary.collapsed_interval = k, (ci_low, ci_high)
    summary.rates = found
    if headline_of(scorer) == "per_trial":
        summary.headline = "per_trial"
        summary.value, summary.k = found.value, found.total
        summary.ci_low, summary.ci_high = found.ci_low, found.ci_high
    return summary
