"""Per-tag figures: each metric's headline over the cases of one tag (``Metric.by_tag``).

A tag's figure is computed exactly as the metric's headline is, by
:func:`fairwitness.scoring.summarise` over the tag's cases: a capability metric's per-trial rate
with its case-level interval, a safety metric's collapsed count with a Wilson interval, a
continuous metric's mean of per-case values with its seeded bootstrap interval. A case counts
once per tag it has (a tag listed twice on one case counts once). The report build, the merge of
shards and the gate's audit all call :func:`tag_figures`, so the three agree by construction.

Cases are grouped before they are summarised (equal per-case scores are counted, not listed), so
a large run's per-tag figures take memory in the number of distinct outcomes, not of cases.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from fairwitness.report.model import Figure, Report
from fairwitness.scoring import CaseScore, MetricSummary, Scorer, summarise


def headline(summary: MetricSummary) -> Figure:
    """A summary's headline figure (``value``, ``k``, ``n`` and interval as the metric has them)."""
    n = summary.rates.cases if summary.headline == "per_trial" and summary.rates else summary.n
    return Figure(
        value=summary.value, k=summary.k, n=n, ci_low=summary.ci_low, ci_high=summary.ci_high
    )


def tag_figures(
    scorer: Scorer, cases: Iterable[tuple[Sequence[str], CaseScore, int]], *, seed: int
) -> dict[str, Figure]:
    """``scorer``'s headline figure per tag, sorted by tag, from ``(tags, score, count)``: the
    tags of ``count`` cases that collapsed to ``score``. Empty when no case has a tag."""
    by_tag: dict[str, Counter[CaseScore]] = {}
    for tags, score, count in cases:
        for tag in set(tags):
            found = by_tag.get(tag)
            if found is None:
                found = by_tag[tag] = Counter()
            found[score] += count
    return {
        tag: headline(summarise(scorer, by_tag[tag].items(), seed=seed)) for tag in sorted(by_tag)
    }


def known_tags(tag_lists: Iterable[Sequence[str]]) -> list[str]:
    """Every tag of these cases, sorted."""
    return sorted({tag for tags in tag_lists for tag in tags})


def selection_text(report: Report) -> str:
    """The cases ``report``'s run selected by tag, in words: ``every case`` when it ran all."""
    return "every case" if report.selection is None else report.selection.describe()
