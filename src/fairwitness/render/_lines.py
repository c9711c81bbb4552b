"""A saved report's figures as the lines ``fairwitness run`` and ``fairwitness import`` print."""

from __future__ import annotations

from pathlib import Path

from fairwitness._format import percent, share
from fairwitness.diagnostics import MeasuredMeter
from fairwitness.judge import WITHHELD, judge_summary, withheld_metrics
from fairwitness.render._view import headline_figure
from fairwitness.report import Report


def metric_lines(report: Report) -> list[str]:
    """One line per measured metric, read from the saved report: its headline (a capability
    metric's per-trial rate, with pass^k at the most repeats), k/n below n = 10, a percentage and
    interval from n = 10 up; exclusions named."""
    lines = []
    withheld = withheld_metrics(report.diagnostics)
    for name, metric in report.metrics.items():
        if metric.n == 0 and set(metric.excluded) <= {"not_applicable"}:
            continue
        if name in withheld:
            lines.append(f"{name:<20} {WITHHELD}")
            continue
        shown = headline_figure(metric)
        if len(metric.pass_k) >= 2:
            last = metric.pass_k[-1]
            shown += f"; pass^{last.k} " + share(
                last.pass_hat, last.cases, last.pass_hat_low, last.pass_hat_high, unit=""
            )
        excluded = ", ".join(
            f"{count} {reason.replace('_', ' ')}"
            for reason, count in metric.excluded.items()
            if reason != "not_applicable"
        )
        lines.append(f"{name:<20} {shown}" + (f" (excluded: {excluded})" if excluded else ""))
    stability = report.stability
    if stability.unstable_share is not None:
        lines.append(
            f"{'unstable cases':<20} {stability.unstable_cases}/{stability.measured_cases}"
        )
    meter = report.diagnostics.meter
    if isinstance(meter, MeasuredMeter):
        lines.append(
            f"{'meter':<20} {meter.call}: {meter.flips}/{meter.pairs} repeat pairs changed verdict"
        )
    blindness = report.diagnostics.blindness
    if blindness is not None and blindness.skew is not None:
        flag = "BLIND" if blindness.blind else "not blind"
        lines.append(
            f"{'blindness':<20} {flag}: {percent(blindness.skew, 0)} '{blindness.top}', "
            f"{blindness.distinct} distinct verdicts"
        )
    judge = judge_summary(report.diagnostics)
    if judge is not None:
        lines.append(f"{'judge calibration':<20} {judge}")
    return lines


def suite_lines(suite: str, report: Report, repeats: int, path: Path) -> list[str]:
    """What ``fairwitness run`` says of one suite's finished run: what ran and what was left out,
    each metric's figures, and, for an incomplete run, where the partial report is."""
    counts = report.counts
    lines = [
        f"fairwitness: {suite}: {counts.trials}/{counts.planned} trials "
        f"({counts.cases} cases x {repeats}), {counts.crashed} crashed, "
        f"{counts.timed_out} timed out, faults fired {counts.faults_fired} "
        f"(declared {counts.faults_declared}), {counts.live_calls} live calls, "
        f"{counts.replayed} replayed"
        + (
            f", {counts.retried} retried ({counts.retries} retries, {counts.recovered} recovered)"
            if counts.retried
            else ""
        )
    ]
    lines.extend(f"  {line}" for line in metric_lines(report))
    if not report.complete:
        lines.append(
            f"fairwitness: {suite}: run incomplete ({report.incomplete_reason}); "
            f"partial report written to {path}"
        )
    return lines
