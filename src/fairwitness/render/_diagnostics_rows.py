"""The candidate's suite-trust diagnostics (meter, blindness, label skew, judge) as the rows of
the comment's and terminal's diagnostics table, each cell escaped for where it goes."""

from __future__ import annotations

from collections.abc import Callable

from fairwitness import _format as fmt
from fairwitness.diagnostics import MeasuredMeter
from fairwitness.judge import judge_summary
from fairwitness.render._reliability import most_unstable
from fairwitness.report import Report

Escape = Callable[[object], str]


def diagnostics_rows(report: Report, escape: Escape) -> list[tuple[str, str]]:
    """``(check, result)`` rows, in the order the table shows them."""
    rows: list[tuple[str, str]] = []
    diag = report.diagnostics
    meter = diag.meter
    if isinstance(meter, MeasuredMeter):
        text = f"{meter.call}: {meter.flips}/{meter.pairs} repeat pairs changed verdict"
        if meter.pairs >= fmt.SMALL_N and meter.flip_rate is not None:
            bounds = fmt.interval(meter.ci_low, meter.ci_high)
            text += f" ({fmt.percent(meter.flip_rate)} {bounds})"
        rows.append(("verdict stochasticity", escape(text)))
    else:
        reason = meter.reason if meter is not None else "no meter in this report"
        rows.append(("verdict stochasticity", escape(f"not measured: {reason}")))
    blind = diag.blindness
    if blind is not None and blind.skew is not None:
        flag = "BLIND" if blind.blind else "not blind"
        rows.append(
            (
                "blindness",
                escape(
                    f"{flag}: {fmt.percent(blind.skew)} of {blind.n} verdicts were "
                    f"'{blind.top}', {blind.distinct} distinct"
                ),
            )
        )
    else:
        note = blind.note if blind is not None else "no verdicts"
        rows.append(("blindness", escape(f"not measured: {note}")))
    skew = diag.label_skew
    if skew is not None and skew.skew is not None:
        flag = "SKEWED" if skew.blind else "ok"
        rows.append(
            (
                "expected labels",
                escape(
                    f"{flag}: {fmt.percent(skew.skew)} of {skew.n} expected labels were "
                    f"'{skew.top}'"
                ),
            )
        )
    relations = diag.relations
    if relations is not None and relations.measured:
        rows.append(("metamorphic relations", escape(relations.summary or "measured")))
    else:
        why = relations.reason if relations is not None else None
        rows.append(("metamorphic relations", escape(f"not run: {why or 'not measured'}")))
    stab = report.stability
    if stab.unstable_share is not None:
        rows.append(
            (
                "unstable cases",
                fmt.rate(stab.unstable_cases, stab.measured_cases, stab.unstable_share)
                + " (repeats disagree)",
            )
        )
    else:
        rows.append(
            ("unstable cases", escape(f"not measured: {stab.reason or 'fewer than 2 repeats'}"))
        )
    unsteady = most_unstable(report)
    if unsteady:
        rows.append(("most unstable cases", escape(unsteady)))
    judge = judge_summary(diag)
    if judge is not None:
        rows.append(("judge calibration", escape(judge)))
    return rows


__all__ = ["diagnostics_rows"]
