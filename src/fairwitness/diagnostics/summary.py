"""The plain-text summary of a :class:`~fairwitness.diagnostics.diagnose.Diagnosis`.

Superseded by :func:`fairwitness.render.diagnosis_text`, which ``fairwitness diagnose`` prints
(and which escapes what the agent answered); kept only while ``Diagnosis.summary()`` calls it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairwitness._format import percent

if TYPE_CHECKING:
    from fairwitness.diagnostics.diagnose import Diagnosis


def _pct(value: float | None) -> str:
    return "n/a" if value is None else percent(value)


def render_summary(diagnosis: Diagnosis) -> str:
    """Diagnostics first (meter, blindness), relations after, then what it cost."""
    out: list[str] = ["fairwitness diagnose", ""]
    if diagnosis.error is not None:
        out += [
            f"HARNESS ERROR: {diagnosis.error}",
            "(the diagnosis stopped; nothing below is a verdict)",
            "",
        ]
    meter = diagnosis.meter
    out.append("1. verdict-stochasticity meter")
    if meter is None:
        out.append("   not measured")
    else:
        interval = (
            f" [{_pct(meter.ci_low)}, {_pct(meter.ci_high)}]" if meter.ci_low is not None else ""
        )
        out += [
            f"   call:      {meter.call} ({meter.design} design, layer {meter.layer}, "
            f"epsilon {meter.epsilon:g}, alpha {meter.alpha:g})",
            f"   flips:     {meter.flips}/{meter.pairs} disjoint pairs = {_pct(meter.flip_rate)}{interval}",
            f"   advice:    {meter.advice}",
        ]
        if meter.unpaired:
            out.append(
                f"   unpaired:  {meter.unpaired} draw(s) had no partner and were not compared"
            )
        if meter.unstable_inputs:
            shown = ", ".join(f"{i} ({f}/{n})" for i, f, n in meter.unstable_inputs[:5])
            more = len(meter.unstable_inputs) - 5
            out.append(f"   unstable:  {shown}" + (f" and {more} more" if more > 0 else ""))
    out += ["", "2. blindness"]
    blind = diagnosis.blindness
    if blind is None:
        out.append("   not measured")
    else:
        flag = "BLIND" if blind.blind else "ok"
        out += [
            f"   call:      {flag}: skew {_pct(blind.skew)} ('{blind.top}' on {blind.n} inputs), "
            f"{blind.distinct} distinct verdict(s)",
            f"   note:      {blind.note}",
        ]
    out += [
        "",
        "3. relations",
        f"   {'relation':<28} {'kind':<11} {'held':>5} {'violated':>8} "
        f"{'skipped':>7} {'rate':>7}  noise",
    ]
    for r in diagnosis.relations:
        noise = (
            "n/a" if r.above_noise is None else ("ABOVE noise" if r.above_noise else "within noise")
        )
        out.append(
            f"   {r.name:<28} {r.kind:<11} {r.held:>5} {r.violated:>8} {r.skipped:>7} "
            f"{_pct(r.violation_rate):>7}  {noise}"
        )
    idle = [r for r in diagnosis.relations if not r.exercised]
    if idle:
        out.append("")
        for r in idle:
            out.append(f"   NOT EXERCISED: {r.name}: {r.not_exercised_reason}")
        out.append("   Rows marked n/a are not evidence of anything.")
    out += [
        "",
        f"calls: {diagnosis.calls_made} made, {diagnosis.calls_saved} saved by reusing the "
        f"meter's first draw per input ({diagnosis.inputs} inputs)",
        f"exit code: {diagnosis.exit_code}",
    ]
    return "\n".join(out) + "\n"
