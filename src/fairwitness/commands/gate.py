"""``fairwitness gate BASE CAND``: may the candidate report replace the baseline? Exit 0-4."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

from fairwitness._atomic import write_atomic
from fairwitness.gate import POWER, Decision, MetricDecision, decide, gate_settings
from fairwitness.render import Renderer, render_comment, render_junit, render_summary
from fairwitness.report.lite import collector_paused, load_for_decision


def _number(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _floor_cell(metric: MetricDecision) -> str:
    if metric.floor is None:
        return "-"
    sign = ">=" if metric.floor_kind == "min" else "<="
    return f"{sign} {metric.floor:g} {'BREACHED' if metric.floor_breached else 'ok'}"


def render(decision: Decision) -> str:
    """The terminal verdict: one line with the first reason, the others, then a table."""
    head, *rest = decision.reasons or [""]
    lines = [f"fairwitness gate: {decision.verdict.upper()} (exit {decision.exit_code}): {head}"]
    lines.extend(f"  also: {reason}" for reason in rest)
    lines.extend(f"  note: {note}" for note in decision.notes)
    header = (
        "metric",
        "baseline",
        "candidate",
        "delta",
        "n",
        "p",
        "test",
        "p_adj",
        "regr",
        "impr",
        "mcnemar",
        "detectable",
        "floor",
    )
    rows = [header]
    for m in decision.metrics:
        tested = m.gated
        rows.append(
            (
                m.name,
                _number(m.baseline, ".3f"),
                _number(m.candidate, ".3f"),
                _number(m.delta, "+.3f"),
                str(m.n),
                _number(m.p, ".3g"),
                (m.test or "-") if tested else "-",
                _number(m.p_adjusted, ".3g"),
                str(m.regressions) if tested else "-",
                str(m.improvements) if tested else "-",
                ("same" if m.test == "mcnemar" else _number(m.mcnemar_p, ".3g")) if tested else "-",
                _number(m.detectable_drop, ".3f") if tested else "-",
                _floor_cell(m),
            )
        )
    if decision.metrics:
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        lines.append("")
        for row in rows:
            cells = [row[0].ljust(widths[0])]
            cells.extend(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))
            lines.append("  ".join(cells).rstrip())
    else:
        lines.append("(no metric compared)")
    if decision.power_alpha is not None:
        gated = sum(m.gated for m in decision.metrics)
        lines.append(
            "baseline, candidate: headline values (a capability metric's per-trial rate); p: "
            "the one-sided sign-flip test on per-case rates (McNemar's when every case has one "
            "repeat), p_adj: Holm; regr, impr, mcnemar: repeats collapsed per case."
        )
        lines.append(
            f"detectable: the smallest drop in a metric's per-trial rate (a rise, for "
            f"lower-is-better ones) these paired cases would detect with {POWER:.0%} power at "
            f"one-sided alpha {decision.alpha:g}/{gated} = {decision.power_alpha:.4g}, from "
            "their own per-case noise; a smaller change can pass undetected."
        )
    return "\n".join(lines) + "\n"


def gate(
    baseline: str,
    candidate: str,
    *,
    as_json: bool = False,
    markdown: str | None = None,
    summary: str | None = None,
    junit: str | None = None,
    stdout: TextIO | None = None,
    **flags: Any,
) -> int:
    """Compare the report ``candidate`` with ``baseline``; print the decision, return its exit
    code. ``flags`` are :func:`fairwitness.gate.gate_settings`'s. ``markdown``, ``summary`` and ``junit`` name
    files for the PR comment, the full job summary and JUnit XML; they are written (atomically)
    whatever the decision, so a comment can say why the reports could not be compared."""
    # Two large reports are hundreds of thousands of objects without a cycle among them: with the
    # cycle collector running, each collection while they are compared and shown scans them all.
    with collector_paused():
        return _gate(baseline, candidate, as_json, markdown, summary, junit, stdout, flags)


def _gate(
    baseline: str,
    candidate: str,
    as_json: bool,
    markdown: str | None,
    summary: str | None,
    junit: str | None,
    stdout: TextIO | None,
    flags: dict[str, Any],
) -> int:
    stdout = stdout or sys.stdout
    settings, templates = gate_settings(**flags)
    renderer = Renderer(templates) if templates or markdown or summary else None
    base = load_for_decision(baseline)
    cand = load_for_decision(candidate)
    decision = decide(base, cand, settings, baseline_name=baseline, candidate_name=candidate)
    outputs: list[tuple[str, str]] = []
    if markdown:
        outputs.append((markdown, render_comment(cand, base, decision, renderer=renderer)))
    if summary:
        outputs.append((summary, render_summary(cand, base, decision, renderer=renderer)))
    if junit:
        outputs.append((junit, render_junit(cand, base, decision)))
    for path, text in outputs:
        write_atomic(Path(path), text)  # a half-written comment is never left behind
    if as_json:
        stdout.write(json.dumps(decision.to_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        stdout.write(render(decision))
    return decision.exit_code
