"""What ``fairwitness gate`` prints for a decision: the verdict with its reasons and notes, one
row per compared metric, and what the columns mean (template ``gate.txt.j2``).

The verdict, reasons and notes are laid out by the same macros (``_decision.txt.j2``) as in
``terminal.txt.j2``, so ``gate`` and ``compare`` show a decision's verdict alike and an override
of those macros changes both. Metric names, reasons and notes (which quote case ids) go through
:func:`~fairwitness.render.plain`, uncut: a terminal shows them as text, never as control codes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fairwitness.gate import POWER, Decision, MetricDecision
from fairwitness.render._escape import plain
from fairwitness.render._render import Renderer

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


def gate_view(decision: Decision) -> GateView:
    """The decision as ``gate.txt.j2`` shows it: numbers formatted, strings escaped."""
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
    )


def gate_text(decision: Decision, *, renderer: Renderer | None = None) -> str:
    """What ``fairwitness gate`` prints: the verdict line with the first reason, the other
    reasons and the notes, then a table of the compared metrics and what its columns mean."""
    return (renderer or Renderer()).render("gate.txt.j2", gate_view(decision))
