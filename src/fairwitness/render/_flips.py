"""The rows of "Cases that flipped": which case, which metric, and what differed, in words.

What differed comes from the two reports only: how many repeats were good for the metric on each
side, the verdicts (routes) the agent reported when they differ, the labels behind a score when
they differ (a misreport against an acknowledged failure), and for a case gone bad the phrase that
decided its label. Every piece that came from an agent or a dataset is escaped and cut before it is
joined; the joining words are fixed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from fairwitness.report import CaseOutcomes

OBSERVED = "observed"
"""The rule part of a failed expectation's evidence (what the built-in scorers write: the same
word as :data:`fairwitness.scoring.scorers.OBSERVED`, kept here so rendering loads no scorer)."""

Escape = Callable[[object], str]

GOOD_TO_BAD = "good \u2192 bad"
BAD_TO_GOOD = "bad \u2192 good"
EVIDENCE_CHARS = 80
"""A deciding phrase is cut to this many characters."""
_COUNTS_SHOWN = 3
"""At most this many distinct verdicts or labels per side; the rest is counted."""


@dataclass(frozen=True)
class FlipRow:
    case: str
    metric: str
    change: str
    baseline: str
    candidate: str
    must_pass: bool
    evidence: str = ""
    """For a case gone bad, the phrase that decided the candidate's label (a misreport's
    absence claim), escaped and cut; ``""`` when none was recorded."""
    differed: str = ""
    """What differed between the two reports, in words (escaped): good repeats on each side,
    the verdicts or labels when they differ, and ``said: "…"`` for a deciding phrase."""
    case_id: str = ""
    """The case id as given (not escaped): only for building a trusted link's fragment text."""


def _evidence(case: CaseOutcomes | None, metric: str, escape: Escape) -> tuple[str, str]:
    """``(rule, phrase)`` of the first evidence a repeat of ``case`` recorded for ``metric``, the
    phrase cut and escaped (agent text: it may hold links, HTML or markdown meant to deceive the
    reader); ``("", "")`` when none."""
    if case is None:
        return "", ""
    for outcome in case.repeats:
        found = outcome.evidence.get(metric)
        if found:
            rule, _, phrase = found.partition(": ")
            phrase = " ".join(phrase.split())
            if len(phrase) > EVIDENCE_CHARS:
                phrase = phrase[: EVIDENCE_CHARS - 1].rstrip() + "\u2026"
            return rule, escape(phrase)
    return "", ""


def evidence(case: CaseOutcomes | None, metric: str, escape: Escape) -> str:
    """The first phrase of the answer that decided ``metric``'s label in a repeat of ``case``
    (a misreport's deciding phrase), cut and escaped; ``""`` when none."""
    rule, phrase = _evidence(case, metric, escape)
    return "" if rule == OBSERVED else phrase


def observed(case: CaseOutcomes | None, metric: str, escape: Escape) -> str:
    """What a repeat of ``case`` did instead of what ``metric`` expected (arguments, tools,
    state: ``search_jobs city "Pune", expected "Berlin"``), cut and escaped; ``""`` when none."""
    rule, phrase = _evidence(case, metric, escape)
    return phrase if rule == OBSERVED else ""


def _counted(found: Counter[str], escape: Escape) -> str:
    shown = [
        escape(v) + (f" \u00d7{n}" if n > 1 else "") for v, n in found.most_common(_COUNTS_SHOWN)
    ]
    rest = sum(found.values()) - sum(n for _, n in found.most_common(_COUNTS_SHOWN))
    return ", ".join(shown) + (f" and {rest} more" if rest else "")


def verdicts(case: CaseOutcomes | None, escape: Escape) -> str:
    """The verdicts a case's repeats reported, counted (``search \\u00d73`` shows as search, times 3)."""
    if case is None:
        return "absent"
    found: Counter[str] = Counter()
    for outcome in case.repeats:
        if outcome.verdict is not None:
            found[outcome.verdict] += 1
        elif outcome.status != "ok":
            found[f"({outcome.status})"] += 1
        else:
            found["(no verdict)"] += 1
    if not found:
        return "no repeats"
    return _counted(found, escape)


def _labels(case: CaseOutcomes | None, metric: str) -> Counter[str]:
    found: Counter[str] = Counter()
    if case is None:
        return found
    for outcome in case.repeats:
        label = getattr(outcome, "labels", {}).get(metric)  # a light case view keeps none
        if label:
            found[label] += 1
    return found


def _good(case: CaseOutcomes | None, metric: str, higher_is_better: bool) -> str | None:
    """``2/3``: the measured base repeats of ``case`` that were good for ``metric``."""
    if case is None:
        return None
    values = [
        value
        for outcome in case.repeats
        if outcome.variant == "base" and (value := outcome.scores.get(metric)) is not None
    ]
    if not values:
        return None
    good = sum((value >= 0.5) == higher_is_better for value in values)
    return f"{good}/{len(values)}"


def differed(
    base: CaseOutcomes | None,
    cand: CaseOutcomes | None,
    metric: str,
    *,
    higher_is_better: bool,
    continuous: bool,
    gone_bad: bool,
    escape: Escape,
) -> str:
    """What differed for ``metric`` between the baseline's and the candidate's repeats of one
    case, in words; the verdicts are named even when the same, so a reader knows the route held."""
    parts: list[str] = []
    if not continuous:
        before = _good(base, metric, higher_is_better)
        after = _good(cand, metric, higher_is_better)
        if before is not None and after is not None:
            parts.append(f"good in {before} \u2192 {after} repeats")
    seen_before, seen_after = verdicts(base, escape), verdicts(cand, escape)
    if seen_before == seen_after:
        parts.append(f"verdict {seen_after} on both sides")
    else:
        parts.append(f"verdict {seen_before} \u2192 {seen_after}")
    labels_before, labels_after = _labels(base, metric), _labels(cand, metric)
    if labels_before != labels_after and (labels_before or labels_after):
        parts.append(
            f"labelled {_counted(labels_before, escape) or 'nothing'} \u2192 "
            f"{_counted(labels_after, escape) or 'nothing'}"
        )
    said = evidence(cand, metric, escape) if gone_bad else ""
    if said:
        parts.append(f"said: \u201c{said}\u201d")
    instead = observed(cand if gone_bad else base, metric, escape)
    if instead:
        parts.append(f"{'now' if gone_bad else 'was'}: {instead}")
    return "; ".join(parts)


def flip_row(
    case_id: str,
    metric: str,
    change: str,
    base: CaseOutcomes | None,
    cand: CaseOutcomes | None,
    *,
    higher_is_better: bool,
    continuous: bool,
    escape: Escape,
) -> FlipRow:
    """One row of the flipped cases' table."""
    gone_bad = change == GOOD_TO_BAD
    return FlipRow(
        case=escape(case_id),
        metric=escape(metric),
        change=change,
        baseline=verdicts(base, escape),
        candidate=verdicts(cand, escape),
        must_pass=cand is not None and cand.must_pass,
        evidence=evidence(cand if gone_bad else None, metric, escape),
        differed=differed(
            base,
            cand,
            metric,
            higher_is_better=higher_is_better,
            continuous=continuous,
            gone_bad=gone_bad,
            escape=escape,
        ),
        case_id=case_id,
    )


def flip_order(found: Iterable[tuple[bool, int, str, str, str]]) -> list[tuple[str, str, str]]:
    """Must-pass cases first, then the gate's order (metric by metric, dataset order)."""
    return [(case_id, name, change) for _, _, case_id, name, change in sorted(found)]
