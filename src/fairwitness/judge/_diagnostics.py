"""The report's ``diagnostics.judge`` block: may numbers that come from an LLM judge be shown?

``fairwitness run`` writes the block when the config's ``[judge]`` section names calibration
labels or judge-derived metrics::

    {"measured": true, "labels": "judge-labels.jsonl", "n": 60, "kappa": 0.84, "ci_low": 0.72,
     "ci_high": 0.96, "threshold": 0.6, "publishable": true, "reason": "...", "notes": [],
     "metrics": ["misreport_as_empty"]}

``measured`` is false (and ``publishable`` false) when no labels are configured; ``kappa`` and its
bounds are ``null`` when kappa is not estimated. Reports without the block have no judge-derived
metrics.

When ``[judge] provider`` names a model, the run scores ``misreport_as_empty_judged`` with it; the
block then says which judge that was and what it did in this run::

    "judge": {"provider": "openai", "model": "gpt-4o-mini", "prompt_version": "fw-judge/1"},
    "usage": {"asked": 14, "live_calls": 3, "replayed": 11, "cost_usd": 0.000412, "mode": "record"}

and the calibration figures are those of that model, labelling the calibration file itself.

Readers (the gate, the renderings, README blocks) ask :func:`withheld_metrics` which metrics to
withhold: every metric the block lists, unless the block says ``publishable`` is exactly ``true``.
A block edited into something unreadable therefore withholds rather than publishes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from fairwitness.judge._calibration import Calibration

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
    judge: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON-safe ``diagnostics.judge`` block; ``calibration`` is ``None`` when no labels are
    configured. ``labels`` is the label file as the config names it. ``judge`` (provider, model,
    prompt version) is the model that scored the run's judge metric, stored as ``judge``."""
    block = _calibration_block(calibration, labels=labels, threshold=threshold, metrics=metrics)
    if judge is not None:
        block["judge"] = dict(judge)
    return block


def _calibration_block(
    calibration: Calibration | None,
    *,
    labels: str | None,
    threshold: float,
    metrics: Sequence[str],
) -> dict[str, Any]:
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


def judge_model(diagnostics: Mapping[str, Any]) -> str | None:
    """``provider:model (prompt version)`` of the judge that scored the run, or ``None``."""
    block = _block(diagnostics)
    judge = block.get("judge") if block is not None else None
    if not isinstance(judge, Mapping):
        return None
    provider, model, version = (judge.get(k) for k in ("provider", "model", "prompt_version"))
    if not all(isinstance(value, str) for value in (provider, model, version)):
        return None
    return f"{provider}:{model} (prompt {version})"


def judge_changed(baseline: Mapping[str, Any], candidate: Mapping[str, Any]) -> str | None:
    """Why two reports' judge-derived numbers are not comparable (their judges differ), or
    ``None`` when the same judge scored both, or neither recorded one."""
    before, after = judge_model(baseline), judge_model(candidate)
    if before == after:
        return None
    return (
        f"the judge changed: the baseline was scored by {before or 'no recorded judge'}, "
        f"the candidate by {after or 'no recorded judge'}"
    )


def judge_summary(diagnostics: Mapping[str, Any]) -> str | None:
    """One line on the judge calibration for a "can this suite be trusted?" table, from the
    block's stored figures; ``None`` without a block."""
    block = _block(diagnostics)
    if block is None:
        return None
    marked = judge_metrics(diagnostics)
    tail = "" if marked else f"; {NOT_MARKED}"
    model = judge_model(diagnostics)
    if model is not None:
        tail += f"; judge {model}"
    kappa, high = _number(block.get("kappa")), _number(block.get("ci_high"))
    low, threshold = _number(block.get("ci_low")), _number(block.get("threshold"))
    if not publishable(diagnostics) or low is None or threshold is None:
        return f"withheld: {withheld_reason(diagnostics)}{tail}"
    shown = "not stored" if kappa is None else f"{kappa:.2f}"
    upper = "?" if high is None else f"{high:.2f}"
    return (
        f"kappa {shown} [{_bound_text(low, threshold)}, {upper}], n = {block.get('n')}, lower "
        f"bound reaches {threshold:g}: judge-derived numbers shown{tail}"
    )


def _bound_text(low: float, threshold: float) -> str:
    # the calibration module (statistics, the judge protocol) loads only when a judge is shown
    from fairwitness.judge._calibration import bound_text

    return bound_text(low, threshold)
