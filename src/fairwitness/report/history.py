"""A suite's recent runs on the default branch, for the trend beside a candidate report.

:func:`load_history` reads every ``*.report.json`` under a folder (recursively), keeps the
reports of the candidate's suite that were scored the way the candidate was, orders them oldest
to newest by when each run started (``run.created_at``; ties broken by commit, then by file
name, so the order never depends on the file system), keeps the last ``limit`` and adds the
candidate as the last run. Each run keeps, per metric, the figure its report saved (the headline
value with its interval, out of ``n`` cases): the trend shows saved numbers only, never numbers
computed again.

What is left out is said, never dropped silently (:attr:`History.notes`): reports of another
suite (counted), reports scored by another labeller or with other scoring options, incomplete
runs and shard reports (each a note naming the files), the candidate's own file, the same run
found twice; a metric whose user scorer changed identity, or whose judge was not calibrated in
that run, has no value in that run, with the reason.

A file that is not a valid report is refused (:class:`~fairwitness.errors.ReportError`, naming
the file and the field) unless ``strict`` is false, where it is skipped with a note instead (the
action, whose artifacts come from other runs, must not fail the gate over one).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Final

from fairwitness.errors import FairwitnessError, Problem, UsageError
from fairwitness.judge import withheld_metrics
from fairwitness.report.lite import load_for_decision
from fairwitness.report.model import Metric, Report

HISTORY_RUNS: Final = 20
"""How many earlier runs a trend shows unless told otherwise."""
_SHOWN_FILES: Final = 3


@dataclass(frozen=True)
class TrendPoint:
    """One metric in one run, as its report saved it; ``value`` None is not measured (see
    ``reason``)."""

    value: float | None
    k: float = 0.0
    n: int = 0
    low: float | None = None
    high: float | None = None
    continuous: bool = False
    """The metric is a median of continuous values, not a rate."""
    reason: str | None = None
    """Why ``value`` is None, when it is."""


@dataclass(frozen=True)
class HistoryRun:
    """One run of the trend: where its report came from and its metrics."""

    name: str
    """The report's file, relative to the history folder (the candidate's as given)."""
    created_at: datetime
    git_sha: str | None
    candidate: bool
    points: dict[str, TrendPoint]

    @property
    def label(self) -> str:
        """``abc1234 2024-05-01`` (the commit when known, else the file), as a trend shows it."""
        when = self.created_at.strftime("%Y-%m-%d %H:%M")
        what = self.git_sha[:7] if self.git_sha else self.name
        return f"{'candidate ' if self.candidate else ''}{what} {when}"


@dataclass
class History:
    """The runs of a trend, oldest first, the candidate last; what was left out, and why."""

    source: str
    """Where the runs came from, in words (a folder, the default branch's artifacts)."""
    runs: list[HistoryRun] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    other_suites: int = 0
    """Reports of another suite, skipped."""
    older: int = 0
    """Earlier runs beyond the limit, left out."""

    @property
    def earlier(self) -> int:
        """Runs before the candidate."""
        return sum(not run.candidate for run in self.runs)

    def series(self, name: str) -> list[TrendPoint | None]:
        """``name``'s point in each run, oldest first (None where that run lacks it)."""
        return [run.points.get(name) for run in self.runs]

    def default_metrics(self) -> list[str]:
        """The metrics a trend shows when no gate chose them: the candidate's pass/fail metrics
        that measured something."""
        if not self.runs or not self.runs[-1].candidate:
            return []
        last = self.runs[-1].points
        return [
            name
            for name, point in last.items()
            if not point.continuous and point.value is not None and point.n > 0
        ]

    def metrics_for(self, gated: Sequence[str] | None) -> list[str]:
        """The metrics to chart: the ``gated`` ones (those the candidate has), else
        :meth:`default_metrics`."""
        if gated:
            have = self.runs[-1].points if self.runs else {}
            return [name for name in gated if name in have]
        return self.default_metrics()

    def summary(self) -> str:
        """How many earlier runs, from where (what was skipped is in :attr:`notes`)."""
        text = f"{self.earlier} earlier run(s) from {self.source}"
        if self.older:
            text += f" (the last {self.earlier}; {self.older} older left out)"
        return text


def _points(report: Report, comparable: Report | None) -> tuple[dict[str, TrendPoint], list[str]]:
    """Each metric's saved figure in ``report``; a metric whose user scorer differs from
    ``comparable``'s, or whose judge ``report`` withholds, has none."""
    withheld = withheld_metrics(report.diagnostics)
    points: dict[str, TrendPoint] = {}
    changed: list[str] = []
    for name, metric in report.metrics.items():
        reason = withheld.get(name)
        if comparable is not None and reason is None:
            ours = report.scoring.scorers.get(name)
            theirs = comparable.scoring.scorers.get(name)
            if ours != theirs:
                reason = "scored by another version of its scorer than the candidate"
                changed.append(name)
        points[name] = _point(metric, reason)
    return points, changed


def _point(metric: Metric, reason: str | None) -> TrendPoint:
    continuous = metric.collapse == "median"
    value = metric.value
    if reason is not None or value is None or metric.n <= 0 or not math.isfinite(value):
        return TrendPoint(None, n=metric.n, continuous=continuous, reason=reason or "not measured")
    return TrendPoint(
        value, metric.k, metric.n, metric.ci_low, metric.ci_high, continuous=continuous
    )


def _same_run(a: Report, b: Report) -> bool:
    return (a.run.created_at, a.run.git_sha, a.run.target, a.run.seed, a.split_hash) == (
        b.run.created_at,
        b.run.git_sha,
        b.run.target,
        b.run.seed,
        b.split_hash,
    )


def _listed(names: list[str]) -> str:
    shown = ", ".join(names[:_SHOWN_FILES])
    return shown + (f" and {len(names) - _SHOWN_FILES} more" if len(names) > _SHOWN_FILES else "")


def _scoring_differs(report: Report, candidate: Report) -> str | None:
    ours, theirs = report.scoring, candidate.scoring
    if ours.patterns_version != theirs.patterns_version:
        return (
            f"labeller patterns {ours.patterns_version!r}, the candidate's "
            f"{theirs.patterns_version!r}"
        )
    if ours.settings != theirs.settings:
        return "other scoring options (scoring.settings)"
    return None


def load_history(
    folder: str | Path,
    candidate: Report,
    *,
    candidate_path: str | Path | None = None,
    limit: int = HISTORY_RUNS,
    strict: bool = True,
    source: str | None = None,
) -> History:
    """The trend of ``candidate``'s suite from the reports under ``folder`` (see the module):
    at most ``limit`` earlier runs, oldest first, then the candidate. ``candidate_path`` is the
    candidate's file, left out when it lies in ``folder``. A bad report raises
    :class:`~fairwitness.errors.ReportError` unless ``strict`` is false."""
    root = Path(folder)
    if not root.is_dir():
        raise UsageError(Problem("history folder not found (--history)", file=str(root)))
    if limit < 0:
        raise UsageError(f"--history-runs: expected 0 or more runs, got {limit}")
    history = History(source or f"the reports in {root}")
    own = Path(candidate_path).resolve() if candidate_path is not None else None
    found: list[tuple[tuple[datetime, str, str], HistoryRun]] = []
    skipped: dict[str, list[str]] = {}
    seen: set[tuple[object, ...]] = set()
    for path in sorted(root.rglob("*.report.json")):
        if not path.is_file():
            continue
        name = path.relative_to(root).as_posix()
        if own is not None and path.resolve() == own:
            continue
        try:
            report = load_for_decision(path)
        except FairwitnessError as exc:
            if strict:
                raise
            skipped.setdefault("unreadable", []).append(f"{name} ({exc})")
            continue
        if report.suite != candidate.suite:
            history.other_suites += 1
            continue
        why = _scoring_differs(report, candidate)
        key = (report.run.created_at, report.run.git_sha, report.run.target, report.run.seed)
        if _same_run(report, candidate):
            skipped.setdefault("the candidate's own run", []).append(name)
        elif why is not None:
            skipped.setdefault(f"scored differently: {why}", []).append(name)
        elif report.shard is not None:
            skipped.setdefault("shard reports (merge them first)", []).append(name)
        elif not report.complete:
            skipped.setdefault("incomplete runs", []).append(name)
        elif key in seen:
            skipped.setdefault("the same run found twice", []).append(name)
        else:
            seen.add(key)
            points, changed = _points(report, candidate)
            for metric in changed:
                skipped.setdefault(f"metric '{metric}' scored by another scorer", []).append(name)
            run = HistoryRun(name, report.run.created_at, report.run.git_sha, False, points)
            found.append(((report.run.created_at, report.run.git_sha or "", name), run))
        del report
    found.sort(key=lambda item: item[0])
    kept = found[-limit:] if limit else []
    history.older = len(found) - len(kept)
    history.runs = [run for _, run in kept]
    points, _ = _points(candidate, None)
    shown = str(candidate_path) if candidate_path is not None else "candidate"
    history.runs.append(
        HistoryRun(shown, candidate.run.created_at, candidate.run.git_sha, True, points)
    )
    if history.other_suites:
        history.notes.append(f"{history.other_suites} report(s) of other suites skipped")
    for why, names in skipped.items():
        history.notes.append(f"left out of the trend, {why}: {_listed(names)}")
    if not found:
        history.notes.append(f"no earlier run of suite '{candidate.suite}' in {history.source}")
    return history
