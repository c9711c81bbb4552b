"""Scorers, repeat collapse, the answer labeller behind ``misreport_as_empty``, and the judge
protocol with its calibration against human labels."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairwitness._lazy import lazy_exports

if TYPE_CHECKING:
    from fairwitness.scoring.aggregate import (
        CaseScore,
        MetricSummary,
        PassK,
        Rates,
        collapse,
        headline_of,
        rates,
        success_count,
        summarise,
    )
    from fairwitness.scoring.apply import (
        ScoreBoard,
        TrialScores,
    )
    from fairwitness.scoring.base import (
        REASONS,
        Scorer,
        ScoringSettings,
        TrialScore,
    )
    from fairwitness.scoring.calibration import (
        Calibration,
        CalibrationRecord,
        LabelStats,
        PublishDecision,
        Slice,
        calibrate,
    )
    from fairwitness.scoring.judge import (
        JUDGE_LABELS,
        JUDGE_PROMPT_VERSION,
        UNPARSEABLE,
        FakeJudge,
        JudgeModel,
        JudgeRequest,
        build_prompt,
        parse_reply,
        run_judge,
    )
    from fairwitness.scoring.judge_labels import (
        LabelRecord,
        judge_records,
        load_labels,
        read_labels,
    )
    from fairwitness.scoring.misreport import (
        PATTERNS_VERSION,
        Analysis,
        analyze_answer,
        label_answer,
    )
    from fairwitness.scoring.scorers import (
        BUILTIN_SCORERS,
        FAILING_FAULTS,
    )

_WHERE: dict[str, str] = {
    "Analysis": "fairwitness.scoring.misreport",
    "BUILTIN_SCORERS": "fairwitness.scoring.scorers",
    "Calibration": "fairwitness.scoring.calibration",
    "CalibrationRecord": "fairwitness.scoring.calibration",
    "CaseScore": "fairwitness.scoring.aggregate",
    "FAILING_FAULTS": "fairwitness.scoring.scorers",
    "FakeJudge": "fairwitness.scoring.judge",
    "JUDGE_LABELS": "fairwitness.scoring.judge",
    "JUDGE_PROMPT_VERSION": "fairwitness.scoring.judge",
    "JudgeModel": "fairwitness.scoring.judge",
    "JudgeRequest": "fairwitness.scoring.judge",
    "LabelRecord": "fairwitness.scoring.judge_labels",
    "LabelStats": "fairwitness.scoring.calibration",
    "MetricSummary": "fairwitness.scoring.aggregate",
    "PATTERNS_VERSION": "fairwitness.scoring.misreport",
    "PassK": "fairwitness.scoring.aggregate",
    "PublishDecision": "fairwitness.scoring.calibration",
    "REASONS": "fairwitness.scoring.base",
    "Rates": "fairwitness.scoring.aggregate",
    "ScoreBoard": "fairwitness.scoring.apply",
    "Scorer": "fairwitness.scoring.base",
    "ScoringSettings": "fairwitness.scoring.base",
    "Slice": "fairwitness.scoring.calibration",
    "TrialScore": "fairwitness.scoring.base",
    "TrialScores": "fairwitness.scoring.apply",
    "UNPARSEABLE": "fairwitness.scoring.judge",
    "analyze_answer": "fairwitness.scoring.misreport",
    "build_prompt": "fairwitness.scoring.judge",
    "calibrate": "fairwitness.scoring.calibration",
    "collapse": "fairwitness.scoring.aggregate",
    "headline_of": "fairwitness.scoring.aggregate",
    "judge_records": "fairwitness.scoring.judge_labels",
    "label_answer": "fairwitness.scoring.misreport",
    "load_labels": "fairwitness.scoring.judge_labels",
    "parse_reply": "fairwitness.scoring.judge",
    "rates": "fairwitness.scoring.aggregate",
    "read_labels": "fairwitness.scoring.judge_labels",
    "run_judge": "fairwitness.scoring.judge",
    "success_count": "fairwitness.scoring.aggregate",
    "summarise": "fairwitness.scoring.aggregate",
}
"""Where each public name lives; modules are imported on first use, so a command that reads
reports does not load what only runs need."""


__all__ = [
    "Analysis",
    "BUILTIN_SCORERS",
    "Calibration",
    "CalibrationRecord",
    "CaseScore",
    "FAILING_FAULTS",
    "FakeJudge",
    "JUDGE_LABELS",
    "JUDGE_PROMPT_VERSION",
    "JudgeModel",
    "JudgeRequest",
    "LabelRecord",
    "LabelStats",
    "MetricSummary",
    "PATTERNS_VERSION",
    "PassK",
    "PublishDecision",
    "REASONS",
    "Rates",
    "ScoreBoard",
    "Scorer",
    "ScoringSettings",
    "Slice",
    "TrialScore",
    "TrialScores",
    "UNPARSEABLE",
    "analyze_answer",
    "build_prompt",
    "calibrate",
    "collapse",
    "headline_of",
    "judge_records",
    "label_answer",
    "load_labels",
    "parse_reply",
    "rates",
    "read_labels",
    "run_judge",
    "success_count",
    "summarise",
]

__getattr__, __dir__ = lazy_exports(globals(), _WHERE)
