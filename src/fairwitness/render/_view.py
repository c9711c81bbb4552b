"""What a rendering shows, built once from saved reports (and the gate's decision).

Every number is formatted here by the reporting rules (:mod:`fairwitness._format`) and every string
that came from an agent or a dataset (case ids, verdicts, errors, tags, suite names, reasons that
quote them) goes through the view's ``escape`` function before any template sees it. Templates only
lay out what the view holds.

A judge-derived metric whose judge is not calibrated (the candidate's ``diagnostics.judge``) shows
"withheld (judge not calibrated)" in every table, never a number, and the "left out" list says why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from fairwitness import _format as fmt
from fairwitness.gate import Decision, MetricDecision
from fairwitness.judge import WITHHELD, withheld_metrics
from fairwitness.render._diagnostics_rows import diagnostics_rows
from fairwitness.render._flips import BAD_TO_GOOD, GOOD_TO_BAD, FlipRow, flip_order, flip_row
from fairwitness.render._links import ArtifactLink
from fairwitness.render._reliability import ReliabilityRow, reliability_rows
from fairwitness.render._repro import repro_rows
from fairwitness.render._slices import SliceRow, slice_caption, slice_rows
from fairwitness.render._trend import TrendRow, trend_caption, trend_rows
from fairwitness.report import Metric, Report
from fairwitness.report.history import History


class Escape(Protocol):
    """How a view makes text safe where it goes (:func:`md`, :func:`plain`), cut to ``limit``."""

    def __call__(self, text: object, limit: int | None = ...) -> str: ...


REASON_LIMIT = 1000
"""The gate's reasons and notes are written by the gate (the case ids they quote are capped in
number), so they are cut only far beyond their length, never in the middle of a p-value."""

ICONS = {
    "pass": "\u2705",
    "regression": "\u274c",
    "must-pass failed": "\u274c",
    "inconclusive": "\u26a0\ufe0f",
    "invalid": "\u26d4",
    "report": "\U0001f4cb",
}


@dataclass(frozen=True)
class MetricRow:
    name: str
    direction: str
    baseline: str
    candidate: str
    delta: str
    flips: str
    p: str
    p_adjusted: str
    detectable: str
    floor: str
    status: str
    excluded: str
    test: str = ""
    """Which test gave ``p``: ``sign-flip`` or ``McNemar``."""
    mcnemar: str = "\u2014"
    """McNemar's p on the collapsed outcomes, or ``same test`` when it decided."""
    changed: bool = True
    """False for a gated metric whose value did not move, no case of which flipped, and which
    did not decide the verdict: the comment folds those rows away."""


@dataclass
class View:
    """Everything a template may show, already formatted and escaped."""

    suite: str
    verdict: str
    icon: str
    exit_code: int | None
    headline: str
    reasons: list[str]
    notes: list[str]
    has_baseline: bool
    diagnostics: list[tuple[str, str]]
    metrics: list[MetricRow]
    other_metrics: list[MetricRow]
    paired_caption: str
    power_lines: list[str]
    flips: list[FlipRow]
    flips_total: int
    exclusions: list[str]
    repro: list[tuple[str, str, str]]
    reliability: list[ReliabilityRow] = field(default_factory=list)
    reliability_k: list[int] = field(default_factory=list)
    """The k of the pass^k columns (2 .. the most repeats; pass^1 is the per-trial rate)."""
    full_location: str | None = None
    shortened: bool = False
    flip_cap: int = 0
    slices: list[SliceRow] = field(default_factory=list)
    """Tags where a gated metric got worse most (unadjusted p-values; see ``slices_caption``)."""
    slices_caption: str = ""
    artifact: ArtifactLink | None = None
    """Where this run's HTML report is (inside Actions only): flipped cases link to it."""
    trend: list[TrendRow] = field(default_factory=list)
    """Each gated metric over the default branch's recent runs and this one (``--history``)."""
    trend_caption: str = ""
    trend_notes: list[str] = field(default_factory=list)
    """What the trend left out, and why."""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def flips_hidden(self) -> int:
        return self.flips_total - len(self.flips)

    @property
    def metrics_changed(self) -> list[MetricRow]:
        """The paired rows that moved or decided the verdict."""
        return [m for m in self.metrics if m.changed]

    @property
    def metrics_unchanged(self) -> list[MetricRow]:
        """The paired rows of gated metrics that stayed where they were."""
        return [m for m in self.metrics if not m.changed]

    def case_link(self, row: FlipRow) -> str:
        """A flipped case's link into the run's HTML report, or ``""`` outside Actions."""
        if self.artifact is None:
            return ""
        return self.artifact.markdown(f"{self.artifact.page}#case={row.case}")


def _metric_rate(report: Report | None, name: str, *, trials: bool = False) -> str:
    if report is None:
        return fmt.DASH
    metric = report.metrics.get(name)
    if metric is None:
        return "absent"
    return headline_figure(metric, with_trials=trials)


def headline_figure(metric: Metric, *, with_trials: bool = True) -> str:
    """A metric's headline as the reporting rules show it: a per-trial rate as a share of
    trials over cases, any other figure as k/n or a percentage with its interval."""
    if metric.headline == "per_trial":
        return fmt.share(
            metric.value,
            metric.n,
            metric.ci_low,
            metric.ci_high,
            successes=metric.successes,
            trials=metric.trials,
            with_trials=with_trials,
        )
    return fmt.rate(metric.k, metric.n, metric.value, metric.ci_low, metric.ci_high)


def _excluded(report: Report, name: str) -> str:
    metric = report.metrics.get(name)
    if metric is None:
        return ""
    parts = [
        f"{n} {reason.replace('_', ' ')}"
        for reason, n in metric.excluded.items()
        if n and reason != "not_applicable"
    ]
    return ", ".join(parts)


def _status(m: MetricDecision) -> str:
    if m.rejected:
        return "regression"
    if m.floor_breached:
        return "floor breached"
    if not m.gated:
        return "floor only"
    if m.p is None:
        return "not tested"
    return "no drop detected"


def _floor(m: MetricDecision) -> str:
    if m.floor is None:
        return fmt.DASH
    sign = "\u2265" if m.floor_kind == "min" else "\u2264"
    return f"{sign} {m.floor:g}" + (" breached" if m.floor_breached else " held")


def _withheld_row(name: str, higher_is_better: bool, compared: bool, escape: Escape) -> MetricRow:
    """A judge-derived metric's row when the judge is not calibrated: no number anywhere."""
    return MetricRow(
        name=escape(name),
        direction="higher is better" if higher_is_better else "lower is better",
        baseline=WITHHELD if compared else fmt.DASH,
        candidate=WITHHELD,
        delta=fmt.DASH,
        flips=fmt.DASH,
        p=fmt.DASH,
        p_adjusted=fmt.DASH,
        detectable=fmt.DASH,
        floor=fmt.DASH,
        status="withheld" if compared else "",
        excluded="",
    )


def _decision_row(
    m: MetricDecision, base: Report, cand: Report, escape: Escape, withheld: Mapping[str, str]
) -> MetricRow:
    if m.name in withheld:
        return _withheld_row(m.name, m.higher_is_better, True, escape)
    return MetricRow(
        name=escape(m.name),
        direction="higher is better" if m.higher_is_better else "lower is better",
        baseline=_metric_rate(base, m.name),
        candidate=_metric_rate(cand, m.name),
        delta=fmt.points(m.delta),
        flips=f"{m.regressions} / {m.improvements}" if _flips_shown(m) else fmt.DASH,
        p=_p_with_error(m),
        p_adjusted=fmt.p_value(m.p_adjusted),
        detectable=fmt.DASH if m.detectable_drop is None else fmt.points(m.detectable_drop)[1:],
        floor=_floor(m),
        status=_status(m),
        excluded=escape(_excluded(cand, m.name)),
        test=_test_name(m),
        mcnemar=fmt.DASH
        if not m.gated
        else ("same test" if m.test == "mcnemar" else fmt.p_value(m.mcnemar_p)),
        changed=_moved(m),
    )


def _moved(m: MetricDecision) -> bool:
    """Whether a paired row belongs in the comment's table: its value moved (or one side has
    none), a case of it flipped, or it decided the verdict."""
    return (
        m.delta is None
        or fmt.points(m.delta) != fmt.points(0.0)
        or bool(m.regressions or m.improvements)
        or m.rejected
        or m.floor_breached
    )


def _flips_shown(m: MetricDecision) -> bool:
    """Whether the row counts cases that flipped: gated pass/fail metrics (a continuous metric's
    per-case values do not flip between good and bad)."""
    return m.gated and m.kind != "continuous"


def _test_name(m: MetricDecision) -> str:
    if m.test is None:
        return ""
    return "McNemar" if m.test == "mcnemar" else "sign-flip"


def _p_with_error(m: MetricDecision) -> str:
    text = fmt.p_value(m.p)
    if m.p is not None and not m.exact:
        text += f" \u00b1 {m.mc_error:.1g}"
    return text


def _plain_row(
    name: str, base: Report | None, cand: Report, escape: Escape, withheld: Mapping[str, str]
) -> MetricRow:
    metric = cand.metrics[name]
    if name in withheld:
        return _withheld_row(name, metric.higher_is_better, base is not None, escape)
    delta = None
    if base is not None and name in base.metrics:
        before = base.metrics[name].value
        if before is not None and metric.value is not None:
            delta = metric.value - before
    return MetricRow(
        name=escape(name),
        direction="higher is better" if metric.higher_is_better else "lower is better",
        baseline=_metric_rate(base, name),
        candidate=_metric_rate(cand, name),
        delta=fmt.points(delta) if base is not None else fmt.DASH,
        flips=fmt.DASH,
        p=fmt.DASH,
        p_adjusted=fmt.DASH,
        detectable=fmt.DASH,
        floor=fmt.DASH,
        status="not gated" if base is not None else "",
        excluded=escape(_excluded(cand, name)),
    )


def _shown(name: str, report: Report) -> bool:
    metric = report.metrics[name]
    return metric.n > 0 or bool(set(metric.excluded) - {"not_applicable"})


def _exclusions(
    cand: Report, base: Report | None, decision: Decision | None, escape: Escape
) -> list[str]:
    out: list[str] = []
    withheld = withheld_metrics(cand.diagnostics)
    counts = cand.counts
    if counts.not_run:
        out.append(f"{counts.not_run} planned trial(s) never ran")
    if counts.crashed or counts.timed_out:
        out.append(f"{counts.crashed} trial(s) crashed, {counts.timed_out} timed out")
    if counts.retried:
        out.append(
            f"{counts.retried} trial(s) were called again after a timeout or a transient error "
            f"({counts.retries} retries; {counts.recovered} answered on a retry)"
        )
    if counts.unscored:
        out.append(f"{counts.unscored} trial(s) had a scorer that raised (unscored)")
    unfired = counts.faults_declared - counts.faults_fired
    if unfired:
        out.append(
            f"{unfired} of {counts.faults_declared} declared fault(s) never fired "
            "(those trials are not counted for fault metrics)"
        )
    for name in cand.metrics:
        if name in withheld:
            out.append(escape(f"{name}: {WITHHELD}: {withheld[name]}"))
            continue
        text = _excluded(cand, name)
        if text:
            out.append(escape(f"{name}: {text} left out of n"))
    if decision is not None:
        for key, label in (
            ("missing_from_candidate", "baseline case(s) missing from the candidate"),
            ("new_in_candidate", "new case(s) not in the baseline (not compared)"),
        ):
            ids = decision.unpaired.get(key, [])
            if ids:
                shown = ", ".join(ids[:10]) + (
                    f" and {len(ids) - 10} more" if len(ids) > 10 else ""
                )
                out.append(f"{len(ids)} {label}: " + escape(shown))
    if counts.abandoned_threads:
        out.append(f"{counts.abandoned_threads} hung thread(s) abandoned")
    return out


def build_view(
    candidate: Report,
    baseline: Report | None = None,
    decision: Decision | None = None,
    *,
    escape: Escape,
    flip_cap: int = 25,
    full_location: str | None = None,
    context: Sequence[str] = (),
    artifact: ArtifactLink | None = None,
    history: History | None = None,
) -> View:
    """Gather what a template shows. Without ``decision`` this is a single report's view.
    ``context`` lines (e.g. where the baseline came from) are shown as notes; ``artifact`` is
    where the run's HTML report is, when there is a run; ``history`` the default branch's
    recent runs, for the trend of each gated metric."""
    suite = escape(candidate.suite)
    metrics: list[MetricRow] = []
    flips: list[FlipRow] = []
    total_flips = 0
    decided: set[str] = set()
    withheld = withheld_metrics(candidate.diagnostics)
    if decision is not None and baseline is not None:
        found: list[tuple[bool, int, str, str, str]] = []
        for m in decision.metrics:
            decided.add(m.name)
            metrics.append(_decision_row(m, baseline, candidate, escape, withheld))
            if m.name in withheld:
                continue
            for ids, change in ((m.regressed_ids, GOOD_TO_BAD), (m.improved_ids, BAD_TO_GOOD)):
                for case_id in ids:
                    case = candidate.cases.get(case_id)
                    must = case is not None and case.must_pass
                    found.append((not must, len(found), case_id, m.name, change))
        total_flips = len(found)
        by_name = {m.name: m for m in decision.metrics}
        for case_id, name, change in flip_order(found)[:flip_cap]:
            flips.append(
                flip_row(
                    case_id,
                    name,
                    change,
                    baseline.cases.get(case_id),
                    candidate.cases.get(case_id),
                    higher_is_better=by_name[name].higher_is_better,
                    continuous=by_name[name].kind == "continuous",
                    escape=escape,
                )
            )
    others = [
        _plain_row(name, baseline, candidate, escape, withheld)
        for name in candidate.metrics
        if name not in decided and _shown(name, candidate)
    ]
    verdict: str
    code: int | None
    if decision is not None:
        verdict, code = decision.verdict, decision.exit_code
        head, *rest = [escape(r, REASON_LIMIT) for r in decision.reasons] or [verdict]
        headline = head
        reasons = rest
        notes = [escape(n, REASON_LIMIT) for n in decision.notes]
        gated = sum(m.gated for m in decision.metrics)
        paired = max((m.n for m in decision.metrics), default=0)
        tests = {m.test for m in decision.metrics if m.gated}
        means = any(m.gated and m.kind == "continuous" for m in decision.metrics)
        test = (
            "McNemar's test (one repeat per case)"
            if tests == {"mcnemar"}
            else f"sign-flip test on per-case success rates{' and means' if means else ''} "
            "(McNemar's where each case has one repeat)"
        )
        caption = (
            f"up to {paired} paired cases; p: one-sided {test}, {decision.test}, Holm over "
            f"{gated} gated metric(s) at alpha {decision.alpha:g}; regressed / improved and "
            "McNemar: repeats collapsed per case"
        )
        power = [
            escape(m.power_note) for m in decision.metrics if m.gated and m.name not in withheld
        ]
    else:
        verdict, code = "report", None
        headline = (
            "no baseline to compare with: the candidate is shown alone and nothing was gated"
            if baseline is None
            else "shown without a decision"
        )
        reasons, notes, caption, power = [], [], "", []
    reliability, reliability_k = reliability_rows(candidate, escape, withheld)
    notes.extend(escape(line) for line in context)
    if not candidate.complete:
        notes.insert(0, escape(f"this run is incomplete: {candidate.incomplete_reason}"))
    return View(
        suite=suite,
        verdict=verdict,
        icon=ICONS.get(verdict, ""),
        exit_code=code,
        headline=headline,
        reasons=reasons,
        notes=notes,
        has_baseline=baseline is not None and decision is not None,
        diagnostics=diagnostics_rows(candidate, escape),
        metrics=metrics,
        other_metrics=others,
        paired_caption=caption,
        power_lines=power,
        flips=flips,
        flips_total=total_flips,
        exclusions=_exclusions(candidate, baseline, decision, escape),
        repro=repro_rows(candidate, baseline, escape),
        reliability=reliability,
        reliability_k=reliability_k,
        full_location=escape(full_location) if full_location else None,
        flip_cap=flip_cap,
        slices=slice_rows(decision, escape, withheld) if baseline is not None else [],
        slices_caption=slice_caption(),
        artifact=artifact,
        **_trend(history, decision, escape, withheld),
    )


def _trend(
    history: History | None,
    decision: Decision | None,
    escape: Escape,
    withheld: Mapping[str, str],
) -> dict[str, Any]:
    if history is None:
        return {}
    gated = [m.name for m in decision.metrics if m.gated] if decision is not None else None
    names = [name for name in history.metrics_for(gated) if name not in withheld]
    return {
        "trend": trend_rows(history, names, escape),
        "trend_caption": trend_caption(history, escape),
        "trend_notes": [escape(note, REASON_LIMIT) for note in history.notes],
    }
