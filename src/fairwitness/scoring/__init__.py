"""Scorers, repeat collapse, and the answer labeller behind ``misreport_as_empty``."""

from __future__ import annotations

from fairwitness.scoring.aggregate import CaseScore, MetricSummary, collapse, summarise
from fairwitness.scoring.apply import ScoreBoard, TrialScores
from fairwitness.scoring.base import REASONS, Scorer, ScoringSettings, TrialScore
from fairwitness.scoring.misreport import PATTERNS_VERSION, Analysis, analyze_answer, label_answer
from fairwitness.scoring.scorers import BUILTIN_SCORERS, FAILING_FAULTS

__all__ = [
    "Analysis",
    "BUILTIN_SCORERS",
    "CaseScore",
    "FAILING_FAULTS",
    "MetricSummary",
    "PATTERNS_VERSION",
    "REASONS",
    "ScoreBoard",
    "Scorer",
    "ScoringSettings",
    "TrialScore",
    "TrialScores",
    "analyze_answer",
    "collapse",
    "label_answer",
    "summarise",
]
