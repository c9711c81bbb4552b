"""Diagnostics of a suite run, computed from its repeats (no extra agent calls).

- meter: the fixed design over disjoint pairs of each case's answered repeats, at the verdict layer;
- blindness: the verdict distribution over the first answered repeat of each case, and the skew of
  the dataset's expected routes;
- relations need transformed inputs, so a suite run does not measure them: ``fairwitness diagnose``
  does. (Fault invariance, the relation that injecting a fault must not turn an answer into an
  absence claim, is what the run's ``misreport_as_empty`` metric measures.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fairwitness.diagnostics._block import NotMeasured
from fairwitness.diagnostics._meter_result import MeasuredMeter
from fairwitness.diagnostics._report import Diagnostics, Relations
from fairwitness.diagnostics.blindness import detect_blindness, label_skew
from fairwitness.diagnostics.meter import fixed_meter, pair_outcomes

RELATIONS_NOT_RUN = (
    "suite runs do not call the agent on transformed inputs; run `fairwitness diagnose` for "
    "metamorphic relations (fault invariance is measured here as misreport_as_empty)"
)


def suite_diagnostics(
    verdicts_by_case: Mapping[str, Sequence[str | None]],
    expected_routes: Sequence[str | None],
    *,
    epsilon: float = 0.01,
    alpha: float = 0.05,
    threshold: float = 0.9,
) -> Diagnostics:
    """The report's ``diagnostics``. ``verdicts_by_case`` lists each case's verdicts in
    repeat order (``None`` for a repeat without one)."""
    pairs_by_input: dict[str, list[bool]] = {}
    unpaired = 0
    for case_id, verdicts in verdicts_by_case.items():
        known = [v for v in verdicts if v is not None]
        flips, left = pair_outcomes(known)
        if flips:
            pairs_by_input[case_id] = flips
        unpaired += left
    meter: MeasuredMeter | NotMeasured
    if pairs_by_input:
        meter = MeasuredMeter.of(
            fixed_meter(
                pairs_by_input, epsilon=epsilon, alpha=alpha, layer="verdict", unpaired=unpaired
            )
        )
    else:
        has_verdicts = any(v is not None for vs in verdicts_by_case.values() for v in vs)
        meter = NotMeasured(
            measured=False,
            reason=(
                "no case has two answered repeats with a verdict (run with repeats >= 2)"
                if has_verdicts
                else "the target reports no verdicts"
            ),
        )
    first = [
        next((v for v in verdicts if v is not None), None) for verdicts in verdicts_by_case.values()
    ]
    labels = (
        label_skew(expected_routes, threshold=threshold)
        if any(route is not None for route in expected_routes)
        else None
    )
    return Diagnostics(
        meter=meter,
        blindness=detect_blindness(first, threshold=threshold),
        label_skew=labels,
        relations=Relations(measured=False, reason=RELATIONS_NOT_RUN),
    )
