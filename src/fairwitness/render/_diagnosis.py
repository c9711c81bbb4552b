"""What ``fairwitness diagnose`` prints for a
:class:`~fairwitness.diagnostics.diagnose.Diagnosis`: the meter, blindness, relations, the cost.

What came from the agent or the user (verdicts, input ids, relation names, error messages) goes
through :func:`~fairwitness.render.plain`, uncut: a terminal shows it as text, never as control
codes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairwitness._format import percent
from fairwitness.render._escape import plain

if TYPE_CHECKING:
    from fairwitness.diagnostics.diagnose import Diagnosis


def _text(value: object) -> str:
    return plain(value, None)


def _pct(value: float | None) -> str:
    return "n/a" if value is None else percent(value)


def diagnosis_text(diagnosis: Diagnosis) -> str:
    """What ``fairwitness diagnose`` prints: diagnostics first (meter, blindness), relations
    after, then what it cost; every number from ``diagnosis``."""
    out: list[str] = ["fairwitness diagnose", ""]
    if diagnosis.error is not None:
        out += [
            f"HARNESS ERROR: {_text(diagnosis.error)}",
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
            f"   call:      {_text(meter.call)} ({meter.design} design, layer {meter.layer}, "
            f"epsilon {meter.epsilon:g}, alpha {meter.alpha:g})",
            f"   flips:     {meter.flips}/{meter.pairs} disjoint pairs = {_pct(meter.flip_rate)}{interval}",
            f"   advice:    {_text(meter.advice)}",
        ]
        if meter.unpaired:
            out.append(
                f"   unpaired:  {meter.unpaired} draw(s) had no partner and were not compared"
            )
        if meter.unstable_inputs:
            shown = ", ".join(f"{_text(i)} ({f}/{n})" for i, f, n in meter.unstable_inputs[:5])
            more = len(meter.unstable_inputs) - 5
            out.append(f"   unstable:  {shown}" + (f" and {more} more" if more > 0 else ""))
    out += ["", "2. blindness"]
    blind = diagnosis.blindness
    if blind is None:
        out.append("   not measured")
    else:
        flag = "BLIND" if blind.blind else "ok"
        out += [
            f"   call:      {flag}: skew {_pct(blind.skew)} ('{_text(blind.top)}' on {blind.n} inputs), "
            f"{blind.distinct} distinct verdict(s)",
            f"   note:      {_text(blind.note)}",
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
            f"   {_text(r.name):<28} {r.kind:<11} {r.held:>5} {r.violated:>8} {r.skipped:>7} "
            f"{_pct(r.violation_rate):>7}  {noise}"
        )
    idle = [r for r in diagnosis.relations if not r.exercised]
    if idle:
        out.append("")
        for r in idle:
            out.append(f"   NOT EXERCISED: {_text(r.name)}: {_text(r.not_exercised_reason)}")
        out.append("   Rows marked n/a are not evidence of anything.")
    out += [
        "",
        f"calls: {diagnosis.calls_made} made, {diagnosis.calls_saved} saved by reusing the "
        f"meter's first draw per input ({diagnosis.inputs} inputs)",
        f"exit code: {diagnosis.exit_code}",
    ]
    return "\n".join(out) + "\n"
