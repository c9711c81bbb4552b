"""Suite-trust diagnostics: stochasticity meter, blindness, metamorphic relations, and whether an
LLM judge is calibrated well enough for its numbers to be shown.

Before any pass rate is believed: is the agent's decision stable enough to test against, and can
this probe set make it change its mind?
"""

from __future__ import annotations

from fairwitness.diagnostics.blindness import BlindnessResult, detect_blindness, label_skew
from fairwitness.diagnostics.diagnose import DiagnoseConfig, Diagnosis, adiagnose, diagnose
from fairwitness.diagnostics.judge import judge_block, judge_summary, withheld_metrics
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

__all__ = [
    "BUILTIN_RELATIONS",
    "BlindnessResult",
    "DiagnoseConfig",
    "Diagnosis",
    "MeterResult",
    "Relation",
    "RelationResult",
    "SequentialMeter",
    "adiagnose",
    "case_invariance",
    "compare_with_noise",
    "detect_blindness",
    "diagnose",
    "evaluate",
    "fault_invariance",
    "fixed_meter",
    "judge_block",
    "judge_summary",
    "label_skew",
    "normalisation_invariance",
    "pair_outcomes",
    "run_sequential",
    "suite_diagnostics",
    "tool_selection_invariance",
    "transform_inputs",
    "whitespace_invariance",
    "withheld_metrics",
]
