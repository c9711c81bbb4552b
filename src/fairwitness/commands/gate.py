"""``fairwitness gate BASE CAND``: may the candidate report replace the baseline? Exit 0-4."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from fairwitness._atomic import write_atomic
from fairwitness.errors import UsageError
from fairwitness.gate import POWER, Decision, GateSettings, MetricDecision, decide
from fairwitness.render import Renderer, render_comment, render_junit, render_summary
from fairwitness.report import Report

_FLAGS = {
    "alpha": "--alpha",
    "test": "--test",
    "gated": "--metric",
    "floors": "--floor",
    "max_unstable_rate": "--max-unstable-rate",
    "max_unpaired": "--max-unpaired",
}
_FLOOR_SYNTAX = "NAME=VALUE, e.g. route=0.95 or misreport_as_empty_max=0.02"


def parse_floors(items: list[str] | None) -> dict[str, float]:
    """``NAME=VALUE`` strings to a dict; bad syntax, a non-number or a repeat is a usage error."""
    floors: dict[str, float] = {}
    for item in items or []:
        name, sep, text = item.partition("=")
        name, text = name.strip(), text.strip()
        if not sep or not name or not text:
            raise UsageError(f"--floor: expected {_FLOOR_SYNTAX}; got {item!r}")
        try:
            value = float(text)
        except ValueError:
            raise UsageError(f"--floor {name}: expected a number, got {text!r}") from None
        if not math.isfinite(value):
            raise UsageError(f"--floor {name}: expected a finite number, got {text!r}")
        if name in floors:
            raise UsageError(f"--floor {name}: given more than once")
        floors[name] = value
    return floors


def _settings(values: dict[str, Any]) -> GateSettings:
    try:
        return GateSettings.model_validate(values)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        key = str(first["loc"][0]) if first["loc"] else ""
        flag = _FLAGS.get(key, key)
        raise UsageError(f"{flag}: {first['msg']} (got {values.get(key)!r})") from None


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
        "regr",
        "impr",
        "n",
        "p",
        "p_adj",
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
                str(m.regressions) if tested else "-",
                str(m.improvements) if tested else "-",
                str(m.n),
                _number(m.p, ".3g"),
                _number(m.p_adjusted, ".3g"),
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
            f"detectable: the smallest drop in a metric (a rise, for lower-is-better ones) these "
            f"paired cases would detect with {POWER:.0%} power at one-sided alpha "
            f"{decision.alpha:g}/{gated} = {decision.power_alpha:.4g} (Connor 1987 normal "
            "approximation); a smaller change can pass undetected."
        )
    return "\n".join(lines) + "\n"


def gate_settings(
    *,
    alpha: float = 0.05,
    test: str = "midp",
    metrics: list[str] | None = None,
    floors: list[str] | None = None,
    max_unstable_rate: float = 0.10,
    max_unpaired: int = 0,
    fail_on_vacuous: bool = False,
    allow_model_change: bool = False,
) -> GateSettings:
    """The gate's settings from command-line values; a bad value is a usage error naming its
    flag."""
    return _settings(
        {
            "alpha": alpha,
            "test": test,
            "gated": metrics,
            "floors": parse_floors(floors),
            "max_unstable_rate": max_unstable_rate,
            "max_unpaired": max_unpaired,
            "fail_on_vacuous": fail_on_vacuous,
            "allow_model_change": allow_model_change,
        }
    )


def write_output(path: str, text: str) -> None:
    """Write a rendered output atomically (a half-written comment is never left behind)."""
    write_atomic(Path(path), text)


def gate(
    baseline: str,
    candidate: str,
    *,
    alpha: float = 0.05,
    test: str = "midp",
    metrics: list[str] | None = None,
    floors: list[str] | None = None,
    max_unstable_rate: float = 0.10,
    max_unpaired: int = 0,
    fail_on_vacuous: bool = False,
    allow_model_change: bool = False,
    as_json: bool = False,
    markdown: str | None = None,
    summary: str | None = None,
    junit: str | None = None,
    templates: str | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Compare the report ``candidate`` with ``baseline``; print the decision, return its exit
    code. ``markdown``, ``summary`` and ``junit`` name files for the PR comment, the full job
    summary and JUnit XML; they are written (atomically) whatever the decision, so a comment can
    say why the reports could not be compared."""
    stdout = stdout or sys.stdout
    settings = gate_settings(
        alpha=alpha,
        test=test,
        metrics=metrics,
        floors=floors,
        max_unstable_rate=max_unstable_rate,
        max_unpaired=max_unpaired,
        fail_on_vacuous=fail_on_vacuous,
        allow_model_change=allow_model_change,
    )
    renderer = Renderer(templates) if templates or markdown or summary else None
    base = Report.load(baseline)
    cand = Report.load(candidate)
    decision = decide(base, cand, settings, baseline_name=baseline, candidate_name=candidate)
    outputs: list[tuple[str, str]] = []
    if markdown:
        outputs.append((markdown, render_comment(cand, base, decision, renderer=renderer)))
    if summary:
        outputs.append((summary, render_summary(cand, base, decision, renderer=renderer)))
    if junit:
        outputs.append((junit, render_junit(cand, base, decision)))
    for path, text in outputs:
        write_output(path, text)
    if as_json:
        stdout.write(json.dumps(decision.to_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        stdout.write(render(decision))
    return decision.exit_code
