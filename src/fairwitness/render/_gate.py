"""What ``fairwitness gate`` prints for a decision: the verdict with its reasons and notes, one
row per compared metric, and what the columns mean (template ``gate.txt.j2``).

The verdict, reasons and notes are laid out by the same macros (``_decision.txt.j2``) as in
``terminal.txt.j2``, so ``gate`` and ``compare`` show a decision's verdict alike and an override
of those macros changes both. Metric names, reasons and notes (which quote case ids) go through
:func:`~fairwitness.render.plain`, uncut: a terminal shows them as text, never as control codes.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from fairwitness.gate import POWER, Decision, MetricDecision
from fairwitness.render._escape import plain
from fairwitness.render._render import Renderer
from fairwitness.render._trend import trend_caption, trend_rows
from fairwitness.report.history import History

GATE_COLUMNS: tuple[str, ...] = (
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
"""The gate table's column headers, in order."""


@dataclass(frozen=True)
class GateView:
    """Everything ``gate.txt.j2`` may show, already formatted and escaped."""

    verdict: str
    exit_code: int
    headline: str
    """The first reason, shown on the verdict line."""
    reasons: list[str]
    """The other reasons."""
    notes: list[str]
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]
    """One row of cells per compared metric, in :data:`GATE_COLUMNS` order."""
    widths: list[int] = field(default_factory=list)
    """Each column's width: its widest cell or header."""
    power: str = ""
    """The power the detectable drop is computed for, e.g. ``80%``."""
    alpha: str = ""
    """The gate's one-sided alpha, e.g. ``0.05``."""
    gated: int = 0
    """How many metrics were tested (the Bonferroni divisor of the power statement)."""
    power_alpha: str | None = None
    """``alpha / gated`` as the power statement uses it; ``None`` when nothing was tested, and
    then the columns are not explained."""
    trend: list[str] = field(default_factory=list)
    """With a history: one line per gated metric, ``route ▅▆▇█ 91.0% 93.0% → 90.0%``."""
    trend_caption: str = ""
    """What the trend lines cover; empty without a history."""
    trend_notes: list[str] = field(default_factory=list)
    """What the history left out."""


def _number(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _floor_cell(metric: MetricDecision) -> str:
    if metric.floor is None:
        return "-"
    sign = ">=" if metric.floor_kind == "min" else "<="
    return f"{sign} {metric.floor:g} {'BREACHED' if metric.floor_breached else 'ok'}"


def _row(m: MetricDecision) -> tuple[str, ...]:
    tested = m.gated
    return (
        plain(m.name, None),
        _number(m.baseline, ".3f"),
        _number(m.candidate, ".3f"),
        _number(m.delta, "+.3f"),
        str(m.n),
        _number(m.p, ".3g"),
        (m.test or "-") if tested else "-",
        _number(m.p_adjusted, ".3g"),
        str(m.regressions) if tested and m.kind != "continuous" else "-",
        str(m.improvements) if tested and m.kind != "continuous" else "-",
        ("same" if m.test == "mcnemar" else _number(m.mcnemar_p, ".3g")) if tested else "-",
        _number(m.detectable_drop, ".3f") if tested else "-",
        _floor_cell(m),
    )


def gate_view(
    decision: Decision, history: History | None = None, withheld: Collection[str] = ()
) -> GateView:
    """The decision as ``gate.txt.j2`` shows it: numbers formatted, strings escaped; with
    ``history``, each gated metric's trend line (but the ``withheld`` judge-derived ones)."""
    head, *rest = [plain(reason, None) for reason in decision.reasons] or [""]
    rows = [_row(m) for m in decision.metrics]
    widths = [max(len(row[i]) for row in [GATE_COLUMNS, *rows]) for i in range(len(GATE_COLUMNS))]
    return GateView(
        verdict=decision.verdict,
        exit_code=decision.exit_code,
        headline=head,
        reasons=rest,
        notes=[plain(note, None) for note in decision.notes],
        columns=GATE_COLUMNS,
        rows=rows,
        widths=widths,
        power=f"{POWER:.0%}",
        alpha=f"{decision.alpha:g}",
        gated=sum(m.gated for m in decision.metrics),
        power_alpha=None if decision.power_alpha is None else f"{decision.power_alpha:.4g}",
        **_trend(decision, history, withheld),
    )


def _trend(
    decision: Decision, history: History | None, withheld: Collection[str]
) -> dict[str, Any]:
    if history is None:
        return {}
    gated = [m.name for m in decision.metrics if m.gated]
    names = [name for name in history.metrics_for(gated) if name not in withheld]
    return {
        "trend": [row.line for row in trend_rows(history, names, _uncut)],
        "trend_caption": trend_caption(history, _uncut),
        "trend_notes": [plain(note, None) for note in history.notes],
    }


def _uncut(text: object, limit: int | None = None) -> str:
    """:func:`plain` without a length limit: the terminal wraps, it never loses the end."""
    return plain(text, limit)


def gate_text(
    decision: Decision,
    *,
    renderer: Renderer | None = None,
    history: History | None = None,
    withheld: Collection[str] = (),
) -> str:
    """What ``fairwitness gate`` prints: the verdict line with the first reason, the other
    reasons and the notes, then a table of the compared metrics and what its columns mean, and
    with ``history`` each gated metric's trend over the default branch's earlier runs."""
    view = gate_view(decision, history, withheld)
    return (renderer or Renderer()).render("gate.txt.j2", view)
