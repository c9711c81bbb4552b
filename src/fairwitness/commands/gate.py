"""``fairwitness gate BASE CAND``: may the candidate report replace the baseline? Exit 0-4."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from fairwitness._atomic import write_atomic
from fairwitness.config import LoadedConfig, find_config, load_config
from fairwitness.errors import UsageError
from fairwitness.gate import POWER, Decision, GateSettings, MetricDecision, decide
from fairwitness.render import Renderer, render_comment, render_junit, render_summary
from fairwitness.report.lite import collector_paused, load_for_decision

_FLAGS = {
    "alpha": "--alpha",
    "test": "--test",
    "gated": "--metric",
    "floors": "--floor",
    "max_unstable_rate": "--max-unstable-rate",
    "must_detect": "--must-detect",
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


def project_config(path: str | None) -> LoadedConfig | None:
    """The config named by ``--config``, else the one in the current folder, else none."""
    if path is not None:
        return load_config(path)
    found = find_config(Path.cwd())
    return load_config(found) if found is not None else None


def gate_settings(
    *,
    config: str | None = None,
    alpha: float | None = None,
    test: str | None = None,
    metrics: list[str] | None = None,
    floors: list[str] | None = None,
    max_unstable_rate: float | None = None,
    must_detect: float | None = None,
    max_unpaired: int | None = None,
    fail_on_vacuous: bool | None = None,
    allow_model_change: bool | None = None,
    templates: str | None = None,
) -> tuple[GateSettings, str | None]:
    """The gate's settings and the templates folder: command-line values first, then the
    config's ``[gate]`` and ``[render]`` sections, then the defaults. A bad value is a usage
    error naming its flag."""
    loaded = project_config(config)
    values: dict[str, Any] = {}
    folder = templates
    if loaded is not None:
        section = loaded.config.gate
        values = section.model_dump(exclude_unset=True)
        if "metrics" in values:
            values["gated"] = values.pop("metrics")
        if folder is None and loaded.config.render.templates is not None:
            folder = str(loaded.resolve(loaded.config.render.templates))
    flags: dict[str, Any] = {
        "alpha": alpha,
        "test": test,
        "gated": metrics,
        "max_unstable_rate": max_unstable_rate,
        "must_detect": must_detect,
        "max_unpaired": max_unpaired,
        "fail_on_vacuous": fail_on_vacuous,
        "allow_model_change": allow_model_change,
    }
    values.update({key: value for key, value in flags.items() if value is not None})
    values["floors"] = {**values.get("floors", {}), **parse_floors(floors)}
    return _settings(values), folder


def write_output(path: str, text: str) -> None:
    """Write a rendered output atomically (a half-written comment is never left behind)."""
    write_atomic(Path(path), text)


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
    code. ``flags`` are :func:`gate_settings`'s. ``markdown``, ``summary`` and ``junit`` name
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
        write_output(path, text)
    if as_json:
        stdout.write(json.dumps(decision.to_dict(), indent=2, ensure_ascii=False) + "\n")
    else:
        stdout.write(render(decision))
    return decision.exit_code
