"""The report: one versioned JSON file per suite run, the single source of every printed number.

A report holds the run's metadata, per-case per-repeat outcomes with their scores, the metrics
aggregated from them with what was excluded and why, and slots for diagnostics. It is written
atomically, never silently overwritten, and refused on load when truncated or of an unknown
schema version.
"""

from __future__ import annotations

from fairwitness.report.build import RunDigest, report_header, save_run_report
from fairwitness.report.io import git_sha, render_report, write_report
from fairwitness.report.model import (
    REPORT_SCHEMA,
    CaseOutcomes,
    Counts,
    Metric,
    Outcome,
    Report,
    RunInfo,
    ScoringInfo,
    ShardInfo,
    Stability,
    UsageTotals,
)

__all__ = [
    "CaseOutcomes",
    "Counts",
    "Metric",
    "Outcome",
    "REPORT_SCHEMA",
    "Report",
    "RunDigest",
    "RunInfo",
    "ScoringInfo",
    "ShardInfo",
    "Stability",
    "UsageTotals",
    "git_sha",
    "render_report",
    "report_header",
    "save_run_report",
    "write_report",
]
