"""A report is taken at its word only after its numbers are recomputed from its own outcomes.

Per listed metric, each case's collapsed value and (pass/fail metrics) its success count are
recomputed from its repeats, and the metric's figures from the per-case values: its collapsed k
and n, its per-trial rate, its pass^k and its per-tag figures (``by_tag``); a stored number that
disagrees makes the report unusable for the gate. Reports written before per-trial rates store
only the collapsed figure; the gate recomputes the rest from their repeats, so they gate against
new reports alike. Reports written before per-tag figures store none, and none are checked.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING

from fairwitness.report.slices import tag_figures
from fairwitness.scoring import (
    BUILTIN_SCORERS,
    CaseScore,
    Rates,
    Scorer,
    TrialScore,
    collapse,
    headline_of,
    rates,
    success_count,
)
from fairwitness.scoring.base import KIND_OF_COLLAPSE, Reason

if TYPE_CHECKING:
    from fairwitness.dataset import Case
    from fairwitness.report import CaseOutcomes, Report
    from fairwitness.report.model import Figure, Metric
    from fairwitness.scoring import ScoringSettings
    from fairwitness.trace.model import Trace

BUILTIN: dict[str, Scorer] = {scorer.name: scorer for scorer in BUILTIN_SCORERS}
Expected = dict[str, float | None]
Successes = dict[str, tuple[int, int]]
"""Per pass/fail metric, a case's ``(successes, measured repeats)``."""


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
    rates: dict[str, Rates] = field(default_factory=dict)
    """Recomputed per-trial rate, pass^k and pass@k per pass/fail metric."""
    case_keys: list[tuple[int, int]] = field(default_factory=list)
    """Per case, in report order, the key of its success counts in ``successes``."""
    successes: dict[tuple[int, int], Successes] = field(default_factory=dict)
    """Success counts per metric, by case key (cases that read alike share one)."""
    by_tag: dict[str, dict[str, Figure]] = field(default_factory=dict)
    """Recomputed per-tag headline figures per metric (:mod:`fairwitness.report.slices`)."""
    problems: list[str] = field(default_factory=list)

    def collapsed_value(self, name: str) -> float | None:
        k, n = self.totals.get(name, (0.0, 0))
        return k / n if n else None

    def value(self, name: str) -> float | None:
        """The metric's headline value as recomputed: a capability metric's per-trial rate,
        any other metric's collapsed value."""
        scorer = self.scorers.get(name)
        if scorer is not None and headline_of(scorer) == "per_trial" and name in self.rates:
            return self.rates[name].value
        return self.collapsed_value(name)

    def pass_k(self, name: str, k: int, which: str) -> tuple[float | None, int]:
        """pass^k (``which`` "hat") or pass@k ("at") and its cases; ``(None, 0)`` when no case
        has k measured repeats."""
        found = self.rates.get(name)
        for one in found.pass_k if found is not None else ():
            if one.k == k:
                return (one.pass_hat if which == "hat" else one.pass_at), one.cases
        return None, 0


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
    kind = KIND_OF_COLLAPSE[stored.collapse]
    identity = report.scoring.scorers.get(name)
    if identity is not None and (kind, stored.higher_is_better) != (
        identity.kind,
        identity.kind != "safety",
    ):
        audit.problems.append(
            f"{where}: stored collapse {stored.collapse!r}, higher_is_better "
            f"{stored.higher_is_better} disagree with its scorer's kind '{identity.kind}' "
            f"(field 'scoring.scorers.{name}')"
        )
        return None
    return Scorer(name, kind, stored.higher_is_better, stored.description, _not_scored_here)


def _expected(
    case: CaseOutcomes,
    scorers: dict[str, Scorer],
    collapsed: dict[tuple[int, ...], tuple[Expected, Successes]],
) -> tuple[Expected, Successes]:
    """The case's per-metric values as its base repeats collapse them, and its success counts."""
    rows = [outcome.scores for outcome in case.repeats if outcome.variant == "base"]
    # Cases whose repeats share their score maps (identical maps are shared when a large report
    # is read) collapse alike: compute each combination once.
    key = tuple(map(id, rows))
    found = collapsed.get(key)
    if found is None:
        # Only measured repeats decide the collapsed value (reasons matter when none is).
        measured: dict[str, list[tuple[float | None, Reason | None]]] = {}
        for row in rows:
            for name, value in row.items():
                if value is not None:
                    measured.setdefault(name, []).append((value, None))
        found = (
            {
                name: collapse(scorers[name], values).value
                for name, values in measured.items()
                if name in scorers
            },
            {
                name: success_count(value for value, _ in values if value is not None)
                for name, values in measured.items()
                if name in scorers and scorers[name].kind != "continuous"
            },
        )
        collapsed[key] = found
    return found


@dataclass
class _Checked:
    """What one combination of repeats and stored values gives: the stored value of each metric
    that has one, and the metrics whose stored value disagrees (with what the repeats give)."""

    stored: list[tuple[str, float]]
    wrong: list[tuple[str, float | None, float | None]]
    successes: Successes


def _check_case(
    case: CaseOutcomes,
    scorers: dict[str, Scorer],
    collapsed: dict[tuple[int, ...], tuple[Expected, Successes]],
) -> _Checked:
    expected_all, successes = _expected(case, scorers, collapsed)
    stored_scores = case.scores
    checked = _Checked([], [], successes)
    for name in expected_all.keys() | stored_scores.keys():
        if name not in scorers:
            continue
        expected = expected_all.get(name)
        stored = stored_scores.get(name)
        if not _same(stored, expected):
            checked.wrong.append((name, stored, expected))
        if stored is not None:
            checked.stored.append((name, stored))
    return checked


def _check_cases(report: Report, scorers: dict[str, Scorer], audit: Audit) -> None:
    """Recompute every listed metric's per-case values and totals.

    Cases that share their repeats and their stored values (a large report read light shares
    them) check alike: each combination is checked once and counted, and only an invalid report
    is gone through again case by case, to name the cases that disagree."""
    cases = list(report.cases.values())
    # repeats and stored values are held in these lists, so their ids stay theirs
    repeats = list(map(attrgetter("repeats"), cases))
    stored = list(map(attrgetter("scores"), cases))
    keys = list(zip(map(id, repeats), map(id, stored), strict=True))
    collapsed: dict[tuple[int, ...], tuple[Expected, Successes]] = {}
    checked = {
        key: _check_case(case, scorers, collapsed)
        for key, case in dict(zip(keys, cases, strict=True)).items()
    }
    tally = Counter(keys)
    wrong: dict[str, list[str]] = {name: [] for name in scorers}
    example: dict[str, str] = {}
    if any(found.wrong for found in checked.values()):
        for case_id, key in zip(report.cases, keys, strict=True):
            for name, value, expected in checked[key].wrong:
                if not wrong[name]:
                    example[name] = (
                        f"case '{case_id}' stores {value}, its repeats collapse to {expected}"
                    )
                wrong[name].append(case_id)
    totals = _totals(scorers, checked, tally, stored)
    audit.case_keys = keys
    audit.successes = {key: found.successes for key, found in checked.items()}
    per_metric: dict[str, Counter[tuple[int, int]]] = {name: Counter() for name in scorers}
    for key, found in checked.items():
        for name, pair in found.successes.items():
            if name in per_metric:
                per_metric[name][pair] += tally[key]
    for name, scorer in scorers.items():
        if scorer.kind != "continuous":
            audit.rates[name] = rates(per_metric[name], with_pass_k=scorer.kind == "capability")
    _tag_figures(report, cases, keys, checked, audit)
    for name, scorer in scorers.items():
        audit.totals[name] = totals[name]
        if wrong[name]:
            audit.problems.append(
                f"{audit.label}: field 'cases.*.scores.{name}': the stored per-case value "
                f"disagrees with the case's repeats ({scorer.collapse}) in {len(wrong[name])} "
                f"case(s): {id_list(wrong[name])} ({example[name]})"
            )


def _tag_figures(
    report: Report,
    cases: list[CaseOutcomes],
    keys: list[tuple[int, int]],
    checked: dict[tuple[int, int], _Checked],
    audit: Audit,
) -> None:
    """Each metric's per-tag figures from the stored per-case values and the success counts."""
    # cases alike in what is checked here share one entry, even when each has its own objects
    # (a report read whole): their stored values and success counts, as hashable signatures
    signature = {
        key: (tuple(found.stored), tuple(found.successes.items())) for key, found in checked.items()
    }
    tagged = Counter(
        (tuple(case.tags), signature[key])
        for case, key in zip(cases, keys, strict=True)
        if case.tags
    )
    read = {sign: (dict(sign[0]), dict(sign[1])) for _, sign in tagged}
    for name, scorer in audit.scorers.items():
        items = []
        for (tags, sign), count in tagged.items():
            stored, successes = read[sign]
            value = stored.get(name)
            score = (
                CaseScore(None, "not_applicable", False)
                if value is None
                else CaseScore(value, None, False, *successes.get(name, (0, 0)))
            )
            items.append((tags, score, count))
        audit.by_tag[name] = tag_figures(scorer, items, seed=report.run.seed)


def _check_tags(audit: Audit, name: str, stored: Metric, where: str) -> None:
    """The stored per-tag figures of ``name`` against the recomputed ones."""
    found = audit.by_tag.get(name, {})
    if list(stored.by_tag) != list(found):
        audit.problems.append(
            f"{where}.by_tag: stored for tags {id_list(stored.by_tag)} but the cases have tags "
            f"{id_list(found) or '(none)'}"
        )
        return
    for tag, figure in stored.by_tag.items():
        again = found[tag]
        pairs = [(getattr(figure, key), getattr(again, key)) for key in _FIGURE]
        if figure.n != again.n or any(_differs(a, b) for a, b in pairs):
            audit.problems.append(
                f"{where}.by_tag.{tag}: stored value {figure.value} (k={figure.k:g}, "
                f"n={figure.n}) but the tag's cases give {again.value} (k={again.k:g}, "
                f"n={again.n})"
            )
            return


_FIGURE = ("value", "k", "ci_low", "ci_high")


def _totals(
    scorers: dict[str, Scorer],
    checked: dict[tuple[int, int], _Checked],
    tally: Counter[tuple[int, int]],
    stored: list[dict[str, float | None]],
) -> dict[str, tuple[float, int]]:
    """Each metric's k (the sum of the stored per-case values) and n (how many there are).

    Small whole-number values (pass/fail scores) are summed as counts, which is exact in any
    order; a metric with any other value is summed case by case in dataset order, as
    floating-point addition is not associative."""
    exact = 2.0**53 / max(len(stored), 1)  # no partial sum of such values is rounded
    k: dict[str, float] = dict.fromkeys(scorers, 0.0)
    n: dict[str, int] = dict.fromkeys(scorers, 0)
    in_order: set[str] = set()
    for key, found in checked.items():
        count = tally[key]
        for name, value in found.stored:
            n[name] += count
            if float(value).is_integer() and abs(value) < exact:
                k[name] += count * value
            else:
                in_order.add(name)
    for name in in_order:
        total = 0.0
        for scores in stored:
            one = scores.get(name)
            if one is not None:
                total += one
        k[name] = total
    return {name: (float(k[name]), int(n[name])) for name in scorers}


def audit_report(report: Report, label: str) -> Audit:
    """Recompute ``report``'s per-case values and metrics; list every disagreement."""
    audit = Audit(label)
    listed = report.scoring.metrics
    for name in listed:
        scorer = _scorer(report, name, audit)
        if scorer is not None:
            audit.scorers[name] = scorer
    _check_cases(report, audit.scorers, audit)
    # Reports written before per-tag figures store none: there is nothing to disagree with.
    tagged = any(metric.by_tag for metric in report.metrics.values())
    for name in audit.scorers:
        k, n = audit.totals[name]
        stored = report.metrics.get(name)
        where = f"{audit.label}: field 'metrics.{name}'"
        if stored is None:
            audit.problems.append(f"{where}: missing, although scoring.metrics lists '{name}'")
            continue
        _check_figures(audit, name, stored, k, n, where)
        if tagged:
            _check_tags(audit, name, stored, where)
    for name in report.metrics:
        if name not in listed:
            audit.problems.append(
                f"{label}: field 'metrics.{name}': not among the scorers that ran (scoring.metrics)"
            )
    return audit


def _differs(stored: float | None, recomputed: float | None) -> bool:
    if stored is None or recomputed is None:
        return stored is not recomputed
    return not math.isclose(stored, recomputed, rel_tol=1e-9, abs_tol=1e-9)


def _check_figures(audit: Audit, name: str, stored: Metric, k: float, n: int, where: str) -> None:
    """The stored headline, collapsed and per-trial figures and pass^k against the recomputed."""
    scorer = audit.scorers[name]
    found = audit.rates.get(name)
    collapsed_value = k / n if n else None
    if stored.headline == "per_trial":
        if scorer.kind != "capability" or found is None:
            audit.problems.append(
                f"{where}: field 'headline' is 'per_trial', but '{name}' is a {scorer.kind} "
                "metric, whose headline is its collapsed value"
            )
            return
        head = (found.value, found.total, found.cases)
    else:
        head = (collapsed_value, k, n)
    if stored.n != head[2] or _differs(stored.k, head[1]) or _differs(stored.value, head[0]):
        what = "per-trial rate" if stored.headline == "per_trial" else "value"
        audit.problems.append(
            f"{where}: stored k={stored.k:g}, n={stored.n} ({what} {stored.value}) but the "
            f"per-case scores give k={head[1]:g}, n={head[2]} ({what} {head[0]})"
        )
        return
    if stored.collapsed is not None and (
        stored.collapsed.n != n
        or _differs(stored.collapsed.k, k)
        or _differs(stored.collapsed.value, collapsed_value)
    ):
        audit.problems.append(
            f"{where}.collapsed: stored k={stored.collapsed.k:g}, n={stored.collapsed.n} but the "
            f"per-case scores give k={k:g}, n={n}"
        )
    if found is None:
        return
    if stored.per_trial is not None and (
        stored.per_trial.n != found.cases
        or _differs(stored.per_trial.value, found.value)
        or stored.trials != found.trials
        or stored.successes != found.successes
    ):
        audit.problems.append(
            f"{where}.per_trial: stored value {stored.per_trial.value} over "
            f"{stored.per_trial.n} cases and {stored.trials} trials but the repeats give "
            f"{found.value} over {found.cases} cases and {found.trials} trials"
        )
    for one in stored.pass_k:
        hat, cases = audit.pass_k(name, one.k, "hat")
        at, _ = audit.pass_k(name, one.k, "at")
        if one.cases != cases or _differs(one.pass_hat, hat) or _differs(one.pass_at, at):
            audit.problems.append(
                f"{where}.pass_k (k = {one.k}): stored pass^k {one.pass_hat}, pass@k "
                f"{one.pass_at} over {one.cases} cases but the repeats give {hat}, {at} over "
                f"{cases} cases"
            )
            break
