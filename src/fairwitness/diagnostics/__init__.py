"""Suite-trust diagnostics: stochasticity meter, blindness and metamorphic relations (whether an
LLM judge may be believed is :mod:`fairwitness.judge`'s).

Before any pass rate is believed: is the agent's decision stable enough to test against, and can
this probe set make it change its mind?
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairwitness._lazy import lazy_exports

if TYPE_CHECKING:
    from fairwitness.diagnostics._block import DiagnosticBlock, NotMeasured
    from fairwitness.diagnostics._meter_result import MeasuredMeter
    from fairwitness.diagnostics._report import Diagnostics, MeterBlock, Relations
    from fairwitness.diagnostics.blindness import BlindnessResult, detect_blindness, label_skew
    from fairwitness.diagnostics.diagnose import DiagnoseConfig, Diagnosis, adiagnose, diagnose
    from fairwitness.diagnostics.meter import (
        MeterResult,
        SequentialMeter,
        fixed_meter,
        pair_outcomes,
        run_sequential,
    )
    from fairwitness.diagnostics.relations import (
        BUILTIN_RELATIONS,
        Relation,
        RelationResult,
        case_invariance,
        compare_with_noise,
        evaluate,
        fault_invariance,
        normalisation_invariance,
        tool_selection_invariance,
        transform_inputs,
        whitespace_invariance,
    )
    from fairwitness.diagnostics.suite import suite_diagnostics

_WHERE = {
    "BUILTIN_RELATIONS": "relations",
    "BlindnessResult": "blindness",
    "DiagnoseConfig": "diagnose",
    "Diagnosis": "diagnose",
    "DiagnosticBlock": "_block",
    "Diagnostics": "_report",
    "MeasuredMeter": "_meter_result",
    "MeterBlock": "_report",
    "MeterResult": "meter",
    "NotMeasured": "_block",
    "Relation": "relations",
    "RelationResult": "relations",
    "Relations": "_report",
    "SequentialMeter": "meter",
    "adiagnose": "diagnose",
    "case_invariance": "relations",
    "compare_with_noise": "relations",
    "detect_blindness": "blindness",
    "diagnose": "diagnose",
    "evaluate": "relations",
    "fault_invariance": "relations",
    "fixed_meter": "meter",
    "label_skew": "blindness",
    "normalisation_invariance": "relations",
    "pair_outcomes": "meter",
    "run_sequential": "meter",
    "suite_diagnostics": "suite",
    "tool_selection_invariance": "relations",
    "transform_inputs": "relations",
    "whitespace_invariance": "relations",
}
"""Where each public name lives; modules are imported on first use, so reading a report's
diagnostics does not load the meter and the relations."""


__all__ = [
    "BUILTIN_RELATIONS",
    "BlindnessResult",
    "DiagnoseConfig",
    "Diagnosis",
    "DiagnosticBlock",
    "Diagnostics",
    "MeasuredMeter",
    "MeterBlock",
    "MeterResult",
    "NotMeasured",
    "Relation",
    "RelationResult",
    "Relations",
    "SequentialMeter",
    "adiagnose",
    "case_invariance",
    "compare_with_noise",
    "detect_blindness",
    "diagnose",
    "evaluate",
    "fault_invariance",
    "fixed_meter",
    "label_skew",
    "normalisation_invariance",
    "pair_outcomes",
    "run_sequential",
    "suite_diagnostics",
    "tool_selection_invariance",
    "transform_inputs",
    "whitespace_invariance",
]

__getattr__, __dir__ = lazy_exports(
    globals(), {name: f"{__name__}.{module}" for name, module in _WHERE.items()}
)
