"""A report is taken at its word only after its numbers are recomputed from its own outcomes.

Per listed metric, each case's collapsed value is recomputed from its repeats with the scorer's
collapse rule, and the metric's k and n from the per-case values; a stored number that disagrees
makes the report unusable for the gate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from fairwitness.scoring import BUILTIN_SCORERS, Scorer, TrialScore, collapse
from fairwitness.scoring.base import KIND_OF_COLLAPSE, Reason

if TYPE_CHECKING:
    from fairwitness.dataset import Case
    from fairwitness.report import Report
    from fairwitness.scoring import ScoringSettings
    from fairwitness.trace.model import Trace

BUILTIN: dict[str, Scorer] = {scorer.name: scorer for scorer in BUILTIN_SCORERS}


def _not_scored_here(trace: Trace, case: Case, settings: ScoringSettings) -> TrialScore:
    raise NotImplementedError("the gate reads saved scores; it never scores a trace")


def id_list(ids: Iterable[str], limit: int = 10) -> str:
    """``a, b, c`` or ``a, b, ... and 7 more``."""
    items = list(ids)
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@dataclass
class Audit:
    """One report's metrics as recomputed, and what disagreed with what it stores."""

    label: str
    scorers: dict[str, Scorer] = field(default_factory=dict)
    """Listed metrics whose collapse rule and direction are known."""
    totals: dict[str, tuple[float, int]] = field(default_factory=dict)
    """Recomputed k and n per metric, from the per-case collapsed values."""
    problems: list[str] = field(default_factory=list)

    def value(self, name: str) -> float | None:
        k, n = self.totals.get(name, (0.0, 0))
        return k / n if n else None


def _scorer(report: Report, name: str, audit: Audit) -> Scorer | None:
    stored = report.metrics.get(name)
    builtin = BUILTIN.get(name)
    where = f"{audit.label}: field 'metrics.{name}'"
    if builtin is not None:
        if stored is not None and (
            stored.collapse != builtin.collapse
            or stored.higher_is_better != builtin.higher_is_better
        ):
            audit.problems.append(
                f"{where}: stored collapse {stored.collapse!r}, higher_is_better "
                f"{stored.higher_is_better} disagree with the built-in metric "
                f"({builtin.collapse!r}, {builtin.higher_is_better})"
            )
        return builtin
    if stored is None or stored.collapse not in KIND_OF_COLLAPSE:
        audit.problems.append(
            f"{where}: cannot tell how custom metric '{name}' collapses its repeats "
            "(no stored metric with a known collapse)"
        )
        return None
    return Scorer(
        name,
        KIND_OF_COLLAPSE[stored.collapse],
        stored.higher_is_better,
        stored.description,
        _not_scored_here,
    )


def _check_cases(report: Report, scorers: dict[str, Scorer], audit: Audit) -> None:
    """Recompute every listed metric's per-case values (one pass over the cases) and totals."""
    wrong: dict[str, list[str]] = {name: [] for name in scorers}
    example: dict[str, str] = {}
    totals = {name: [0.0, 0] for name in scorers}
    # Cases whose repeats share their score maps (identical maps are shared when a large report
    # is read) collapse alike: compute each combination once.
    collapsed: dict[tuple[int, ...], dict[str, float | None]] = {}
    for case_id, case in report.cases.items():
        rows = [outcome.scores for outcome in case.repeats if outcome.variant == "base"]
        key = tuple(map(id, rows))
        expected_all = collapsed.get(key)
        if expected_all is None:
            # Only measured repeats decide the collapsed value (reasons matter when none is).
            measured: dict[str, list[tuple[float | None, Reason | None]]] = {}
            for row in rows:
                for name, value in row.items():
                    if value is not None:
                        measured.setdefault(name, []).append((value, None))
            expected_all = {
                name: collapse(scorers[name], values).value
                for name, values in measured.items()
                if name in scorers
            }
            collapsed[key] = expected_all
        stored_scores = case.scores
        for name in expected_all.keys() | stored_scores.keys():
            if name not in scorers:
                continue
            expected = expected_all.get(name)
            stored = stored_scores.get(name)
            if not _same(stored, expected):
                if not wrong[name]:
                    example[name] = (
                        f"case '{case_id}' stores {stored}, its repeats collapse to {expected}"
                    )
                wrong[name].append(case_id)
            if stored is not None:
                totals[name][0] += stored
                totals[name][1] += 1
    for name, scorer in scorers.items():
        audit.totals[name] = (float(totals[name][0]), int(totals[name][1]))
        if wrong[name]:
            audit.problems.append(
                f"{audit.label}: field 'cases.*.scores.{name}': the stored per-case value "
                f"disagrees with the case's repeats ({scorer.collapse}) in {len(wrong[name])} "
                f"case(s): {id_list(wrong[name])} ({example[name]})"
            )


def audit_report(report: Report, label: str) -> Audit:
    """Recompute ``report``'s per-case values and metrics; list every disagreement."""
    audit = Audit(label)
    listed = report.scoring.metrics
    for name in listed:
        scorer = _scorer(report, name, audit)
        if scorer is not None:
            audit.scorers[name] = scorer
    _check_cases(report, audit.scorers, audit)
    for name in audit.scorers:
        k, n = audit.totals[name]
        stored = report.metrics.get(name)
        where = f"{audit.label}: field 'metrics.{name}'"
        if stored is None:
            audit.problems.append(f"{where}: missing, although scoring.metrics lists '{name}'")
            continue
        value = k / n if n else None
        if stored.n != n or not _same(stored.k, k) or not _same(stored.value, value):
            audit.problems.append(
                f"{where}: stored k={stored.k:g}, n={stored.n} (value {stored.value}) but the "
                f"per-case scores give k={k:g}, n={n} (value {value})"
            )
    for name in report.metrics:
        if name not in listed:
            audit.problems.append(
                f"{label}: field 'metrics.{name}': not among the scorers that ran (scoring.metrics)"
            )
    return audit
