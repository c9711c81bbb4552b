"""Where a gated metric dropped most, by tag: the gate's paired test restricted to each tag.

For each gated metric whose paired per-trial rate dropped, every tag of the paired cases
(``CaseOutcomes.tags`` of the candidate; equal split hashes mean the baseline's are the same) is
looked at: its paired cases' mean per-trial rates on both sides, and, for the
:data:`SLICE_TOP` tags where the rate dropped most, the same one-sided paired test the gate
applies to the whole metric (the sign-flip test on per-case drops, McNemar's when each case has
one repeat on both sides), restricted to that tag's cases.

Only tags with at least :data:`SLICE_MIN_CASES` paired cases are shown: below that a drop is one
or two cases moving, and the reporting rules show no percentage below n = 10. The p-values are
not adjusted for multiple comparisons (many tags are looked at and the worst are picked, so a
small one is weak evidence), and slices never change the decision or its exit code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final

from fairwitness.gate._compare import ReportComparison
from fairwitness.gate._decision import MetricDecision, TagSlice
from fairwitness.gate._rates import RatePairs, pair_rates
from fairwitness.stats import SignFlip

SLICE_MIN_CASES: Final = 10
"""Paired cases a tag needs before its drop is shown."""
SLICE_TOP: Final = 3
"""Tags shown per gated metric that dropped."""

Combos = Counter[tuple[tuple[int, int], tuple[int, int]]]


def _combos_by_tag(gate: ReportComparison) -> dict[str, Combos]:
    """Per tag, how many paired cases have each combination of baseline and candidate keys."""
    b_of = dict(zip(gate.b.cases, gate.b_audit.case_keys, strict=True))
    c_of = dict(zip(gate.c.cases, gate.c_audit.case_keys, strict=True))
    found: dict[str, Combos] = {}
    for case_id in gate.paired:
        tags = gate.c.cases[case_id].tags
        if not tags:
            continue
        pair = (b_of[case_id], c_of[case_id])
        for tag in set(tags):
            combos = found.get(tag)
            if combos is None:
                combos = found[tag] = Counter()
            combos[pair] += 1
    return found


def tag_slices(
    gate: ReportComparison,
    metrics: Sequence[MetricDecision],
    test: Callable[[RatePairs, str], SignFlip],
) -> tuple[TagSlice, ...]:
    """For each gated metric of ``metrics`` whose per-trial rate dropped, the :data:`SLICE_TOP`
    tags with at least :data:`SLICE_MIN_CASES` paired cases where it dropped most (largest mean
    per-case drop first, then by tag), each tested by ``test`` (the gate's rate test) on its own
    cases, unadjusted."""
    dropped = [m for m in metrics if m.gated and m.rate_drop is not None and m.rate_drop > 0]
    if not dropped:
        return ()
    by_tag = _combos_by_tag(gate)
    found: list[TagSlice] = []
    for metric in dropped:
        scorer = gate.scorers[metric.name]
        sign = 1.0 if scorer.higher_is_better else -1.0
        ranked: list[tuple[float, str, RatePairs, float, float]] = []
        for tag, combos in by_tag.items():
            rates = pair_rates(
                metric.name, scorer, combos, gate.b_audit.successes, gate.c_audit.successes
            )
            before, after = rates.baseline, rates.candidate
            if rates.n < SLICE_MIN_CASES or before is None or after is None:
                continue
            drop = sign * (before - after)
            if drop > 0:
                ranked.append((drop, tag, rates, before, after))
        ranked.sort(key=lambda row: (-row[0], row[1]))
        for drop, tag, rates, before, after in ranked[:SLICE_TOP]:
            flip = test(rates, metric.name)
            found.append(
                TagSlice(
                    metric=metric.name,
                    tag=tag,
                    n=rates.n,
                    baseline=before,
                    candidate=after,
                    drop=drop,
                    p=flip.p,
                    test="mcnemar" if rates.single else "sign-flip",
                    exact=flip.exact,
                    mc_error=flip.mc_error,
                )
            )
    return tuple(found)
