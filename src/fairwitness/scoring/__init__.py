"""Scorers, repeat collapse and the answer labeller behind ``misreport_as_empty``; the LLM judge
lives in :mod:`fairwitness.judge`."""

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
        ScorerStopped,
        ScoringSettings,
        TrialScore,
    )
    from fairwitness.scoring.misreport import (
        PATTERNS_VERSION,
        Analysis,
        analyze_answer,
        explain_answer,
        label_answer,
    )
    from fairwitness.scoring.scorers import (
        BUILTIN_SCORERS,
        FAILING_FAULTS,
    )

_WHERE: dict[str, str] = {
    "Analysis": "fairwitness.scoring.misreport",
    "BUILTIN_SCORERS": "fairwitness.scoring.scorers",
    "CaseScore": "fairwitness.scoring.aggregate",
    "FAILING_FAULTS": "fairwitness.scoring.scorers",
    "MetricSummary": "fairwitness.scoring.aggregate",
    "PATTERNS_VERSION": "fairwitness.scoring.misreport",
    "PassK": "fairwitness.scoring.aggregate",
    "REASONS": "fairwitness.scoring.base",
    "Rates": "fairwitness.scoring.aggregate",
    "ScoreBoard": "fairwitness.scoring.apply",
    "Scorer": "fairwitness.scoring.base",
    "ScorerStopped": "fairwitness.scoring.base",
    "ScoringSettings": "fairwitness.scoring.base",
    "TrialScore": "fairwitness.scoring.base",
    "TrialScores": "fairwitness.scoring.apply",
    "analyze_answer": "fairwitness.scoring.misreport",
    "collapse": "fairwitness.scoring.aggregate",
    "explain_answer": "fairwitness.scoring.misreport",
    "headline_of": "fairwitness.scoring.aggregate",
    "label_answer": "fairwitness.scoring.misreport",
    "rates": "fairwitness.scoring.aggregate",
    "success_count": "fairwitness.scoring.aggregate",
    "summarise": "fairwitness.scoring.aggregate",
}
"""Where each public name lives; modules are imported on first use, so a command that reads
reports does not load what only runs need."""


__all__ = [
    "Analysis",
    "BUILTIN_SCORERS",
    "CaseScore",
    "FAILING_FAULTS",
    "MetricSummary",
    "PATTERNS_VERSION",
    "PassK",
    "REASONS",
    "Rates",
    "ScoreBoard",
    "Scorer",
    "ScorerStopped",
    "ScoringSettings",
    "TrialScore",
    "TrialScores",
    "analyze_answer",
    "collapse",
    "explain_answer",
    "headline_of",
    "label_answer",
    "rates",
    "success_count",
    "summarise",
]

__getattr__, __dir__ = lazy_exports(globals(), _WHERE)
