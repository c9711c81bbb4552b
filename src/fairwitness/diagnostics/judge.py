"""The report's ``diagnostics.judge`` block: may numbers that come from an LLM judge be shown?

``fairwitness run`` writes the block when the config's ``[judge]`` section names calibration
labels or judge-derived metrics::

    {"measured": true, "labels": "judge-labels.jsonl", "n": 60, "kappa": 0.84, "ci_low": 0.72,
     "ci_high": 0.96, "threshold": 0.6, "publishable": true, "reason": "...", "notes": [],
     "metrics": ["misreport_as_empty"]}

``measured`` is false (and ``publishable`` false) when no labels are configured; ``kappa`` and its
bounds are ``null`` when kappa is not estimated. Reports without the block have no judge-derived
metrics.

Readers (the gate, the renderings, README blocks) ask :func:`withheld_metrics` which metrics to
withhold: every metric the block lists, unless the block says ``publishable`` is exactly ``true``.
A block edited into something unreadable therefore withholds rather than publishes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from fairwitness.scoring.calibration import Calibration, bound_text

WITHHELD: Final = "withheld (judge not calibrated)"
"""What is shown instead of a judge-derived number when the judge is not calibrated."""
NO_LABELS: Final = "no calibration labels configured ([judge] labels)"
"""Why judge-derived numbers are withheld when the config names no calibration labels."""
NOT_MARKED: Final = "no metric is marked judge-derived ([judge] metrics)"


def judge_block(
    calibration: Calibration | None,
    *,
    labels: str | None,
    threshold: float,
    metrics: Sequence[str],
) -> dict[str, Any]:
    """The JSON-safe ``diagnostics.judge`` block; ``calibration`` is ``None`` when no labels are
    configured. ``labels`` is the label file as the config names it."""
    if calibration is None:
        return {
            "measured": False,
            "labels": labels,
            "n": None,
            "kappa": None,
            "ci_low": None,
            "ci_high": None,
            "threshold": threshold,
            "publishable": False,
            "reason": NO_LABELS,
            "notes": [],
            "metrics": list(metrics),
        }
    decision = calibration.publishable(threshold)
    kappa = calibration.kappa
    return {
        "measured": True,
        "labels": labels,
        "n": calibration.n,
        "kappa": kappa.value,
        "ci_low": kappa.ci_low,
        "ci_high": kappa.ci_high,
        "threshold": decision.threshold,
        "publishable": decision.publishable,
        "reason": decision.reason,
        "notes": list(decision.notes),
        "metrics": list(metrics),
    }


def _block(diagnostics: Mapping[str, Any]) -> Mapping[str, Any] | None:
    block = diagnostics.get("judge")
    return block if isinstance(block, Mapping) else None


def judge_metrics(diagnostics: Mapping[str, Any]) -> list[str]:
    """The metrics the block marks judge-derived (none without a block)."""
    block = _block(diagnostics)
    names = block.get("metrics") if block is not None else None
    if not isinstance(names, list):
        return []
    return [name for name in names if isinstance(name, str)]


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _figures_agree(block: Mapping[str, Any]) -> bool:
    low, threshold = _number(block.get("ci_low")), _number(block.get("threshold"))
    return low is not None and threshold is not None and low >= threshold


def publishable(diagnostics: Mapping[str, Any]) -> bool:
    """Whether judge-derived numbers may be shown: the block says ``publishable`` and its stored
    lower bound reaches its stored threshold (``False`` without a block)."""
    block = _block(diagnostics)
    return block is not None and block.get("publishable") is True and _figures_agree(block)


def withheld_reason(diagnostics: Mapping[str, Any]) -> str:
    """Why judge-derived numbers are withheld, as the block states it."""
    block = _block(diagnostics)
    if block is None:
        return "the report has no judge calibration (diagnostics.judge)"
    if block.get("publishable") is True:
        return (
            "the judge block says publishable, but its kappa lower bound (ci_low) does not "
            "reach its threshold"
        )
    reason = block.get("reason")
    return reason if isinstance(reason, str) and reason else "the judge calibration gives no reason"


def withheld_metrics(diagnostics: Mapping[str, Any]) -> dict[str, str]:
    """Metric name -> why its numbers are withheld; empty when nothing is withheld."""
    if publishable(diagnostics):
        return {}
    reason = withheld_reason(diagnostics)
    return dict.fromkeys(judge_metrics(diagnostics), reason)


def judge_summary(diagnostics: Mapping[str, Any]) -> str | None:
    """One line on the judge calibration for a "can this suite be trusted?" table, from the
    block's stored figures; ``None`` without a block."""
    block = _block(diagnostics)
    if block is None:
        return None
    marked = judge_metrics(diagnostics)
    tail = "" if marked else f"; {NOT_MARKED}"
    kappa, high = _number(block.get("kappa")), _number(block.get("ci_high"))
    low, threshold = _number(block.get("ci_low")), _number(block.get("threshold"))
    if not publishable(diagnostics) or low is None or threshold is None:
        return f"withheld: {withheld_reason(diagnostics)}{tail}"
    shown = "not stored" if kappa is None else f"{kappa:.2f}"
    upper = "?" if high is None else f"{high:.2f}"
    return (
        f"kappa {shown} [{bound_text(low, threshold)}, {upper}], n = {block.get('n')}, lower "
        f"bound reaches {threshold:g}: judge-derived numbers shown{tail}"
    )
