"""Scorers, repeat collapse, the answer labeller behind ``misreport_as_empty``, and the judge
protocol with its calibration against human labels."""

from __future__ import annotations

from fairwitness.scoring.aggregate import CaseScore, MetricSummary, collapse, summarise
from fairwitness.scoring.apply import ScoreBoard, TrialScores
from fairwitness.scoring.base import REASONS, Scorer, ScoringSettings, TrialScore
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
from fairwitness.scoring.judge_labels import LabelRecord, judge_records, load_labels, read_labels
from fairwitness.scoring.misreport import PATTERNS_VERSION, Analysis, analyze_answer, label_answer
from fairwitness.scoring.scorers import BUILTIN_SCORERS, FAILING_FAULTS

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
    "PublishDecision",
    "REASONS",
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
    "judge_records",
    "label_answer",
    "load_labels",
    "parse_reply",
    "read_labels",
    "run_judge",
    "summarise",
]
