"""The reproducibility table: how each report was made, and what it cost, side by side.

Costs print as "unknown (reason)" when unknown, never as 0; a cost below $0.0001 keeps two
significant digits. Model names and reasons are escaped like every other agent-supplied string.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Final

from fairwitness import _format as fmt
from fairwitness.report import Report
from fairwitness.report.model import ModelUsage
from fairwitness.report.slices import selection_text

Escape = Callable[[object], str]

MODEL_ROWS: Final = 12
"""Models shown one row each in the reproducibility table; the rest are counted in one row."""


def usd(value: float) -> str:
    """A cost in US dollars: 4 decimals, or 2 significant digits below $0.0001 so that a small
    cost never prints as $0.0000."""
    if value == 0 or abs(value) >= 0.0001:
        return f"${value:.4f}"
    return f"${value:.{1 - math.floor(math.log10(abs(value)))}f}"


def _tokens(usage: ModelUsage) -> str:
    if usage.input_tokens is None and usage.output_tokens is None:
        return "tokens not reported"
    shown = ["unknown" if n is None else str(n) for n in (usage.input_tokens, usage.output_tokens)]
    return f"{shown[0]} in / {shown[1]} out tokens"


def _model_cost(usage: ModelUsage) -> str:
    """One model's cost, its source, tokens and trials; "unknown (reason)" when unknown."""
    if usage.cost_usd is None:
        cost = f"unknown ({usage.cost_unknown_reason or 'not reported'})"
    else:
        source = {"pricing": "priced", "mixed": "reported and priced"}.get(
            usage.cost_source or "", "reported"
        )
        cost = f"{usd(usage.cost_usd)} {source}"
    trials = f"{usage.trials} trial" + ("" if usage.trials == 1 else "s")
    return f"{cost}; {_tokens(usage)}; {trials}"


def _model_rows(cand: Report, base: Report | None, escape: Escape) -> list[tuple[str, str, str]]:
    """One "cost: MODEL" row per model of either report (most trials first)."""
    reports = [r for r in (cand, base) if r is not None]
    trials: Counter[str] = Counter()
    for r in reports:
        for key, usage in r.usage.by_model.items():
            trials[key] += usage.trials
    if not trials:
        return []

    def cell(r: Report | None, key: str) -> str:
        if r is None:
            return fmt.DASH
        if not r.usage.by_model:
            return "not recorded per model"
        usage = r.usage.by_model.get(key)
        return "not used" if usage is None else escape(_model_cost(usage))

    keys = sorted(trials, key=lambda k: (-trials[k], k))
    rows = [("cost: " + escape(key), cell(base, key), cell(cand, key)) for key in keys[:MODEL_ROWS]]
    rest = keys[MODEL_ROWS:]
    if rest:
        rows.append(
            (f"cost: {len(rest)} more models", fmt.DASH, "see usage.by_model in the report")
        )
    return rows


def _selected(report: Report) -> str:
    """The run's selection by tag, with how many of the dataset's cases it kept."""
    chosen = report.selection
    if chosen is None:
        return selection_text(report)
    return f"{selection_text(report)} ({chosen.cases} of {chosen.dataset_cases} cases)"


def repro_rows(cand: Report, base: Report | None, escape: Escape) -> list[tuple[str, str, str]]:
    """``(label, baseline, candidate)`` rows: run metadata, the total cost, one "cost: MODEL" row
    per model, and the price table's version when either report used one."""

    def row(label: str, get: Callable[[Report], object]) -> tuple[str, str, str]:
        return (
            label,
            escape(get(base)) if base is not None else fmt.DASH,
            escape(get(cand)),
        )

    def cost(r: Report) -> str:
        if r.usage.cost_usd is not None:
            return usd(r.usage.cost_usd)
        return f"unknown ({r.usage.cost_unknown_reason or 'not reported'})"

    rows = [
        row("fairwitness", lambda r: r.run.tool_version),
        row("git sha", lambda r: (r.run.git_sha or "unknown")[:12]),
        row("created", lambda r: r.run.created_at.strftime("%Y-%m-%d %H:%M UTC")),
        row("suite version", lambda r: r.suite_version),
        row("split hash", lambda r: r.split_hash[:19]),
        row("labeller patterns", lambda r: r.scoring.patterns_version or "none"),
        row("seed", lambda r: r.run.seed),
        row("cases x repeats", lambda r: f"{r.counts.cases} x {r.run.repeats}"),
        row("mode", lambda r: r.run.mode),
        row("models", lambda r: ", ".join(r.run.models) or "not reported"),
        row("cost", cost),
        *_model_rows(cand, base, escape),
    ]
    if cand.usage.pricing_version or (base is not None and base.usage.pricing_version):
        rows.append(row("pricing", lambda r: r.usage.pricing_version or "none"))
    if cand.selection is not None or (base is not None and base.selection is not None):
        rows.append(row("cases selected", _selected))
    rows.append(row("target", lambda r: r.run.target))
    return rows
