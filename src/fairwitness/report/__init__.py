"""The report: one versioned JSON file per suite run, the single source of every printed number.

A report holds the run's metadata, per-case per-repeat outcomes with their scores, the metrics
aggregated from them with what was excluded and why, and slots for diagnostics. It is written
atomically, never silently overwritten, and refused on load when truncated or of an unknown
schema version.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairwitness._lazy import lazy_exports
from fairwitness.diagnostics._report import Diagnostics
from fairwitness.report.model import (
    REPORT_SCHEMA,
    CaseOutcomes,
    Counts,
    Metric,
    Report,
    RunInfo,
    ScoringInfo,
    ShardInfo,
    Stability,
    TrialOutcome,
    UsageTotals,
)
from fairwitness.report.selection import Selection

if TYPE_CHECKING:
    from fairwitness.report.build import (
        RunDigest,
        build_report,
        report_header,
        save_run_report,
    )
    from fairwitness.report.history import History, load_history
    from fairwitness.report.io import (
        git_sha,
        render_report,
        write_report,
    )
    from fairwitness.report.slices import selection_text

_WHERE: dict[str, str] = {
    "RunDigest": "fairwitness.report.build",
    "build_report": "fairwitness.report.build",
    "History": "fairwitness.report.history",
    "git_sha": "fairwitness.report.io",
    "load_history": "fairwitness.report.history",
    "render_report": "fairwitness.report.io",
    "report_header": "fairwitness.report.build",
    "save_run_report": "fairwitness.report.build",
    "selection_text": "fairwitness.report.slices",
    "write_report": "fairwitness.report.io",
}
"""Where each public name lives; modules are imported on first use, so a command that reads
reports does not load what only runs need."""


__all__ = [
    "CaseOutcomes",
    "Counts",
    "Diagnostics",
    "History",
    "Metric",
    "REPORT_SCHEMA",
    "Report",
    "RunDigest",
    "RunInfo",
    "ScoringInfo",
    "Selection",
    "ShardInfo",
    "Stability",
    "TrialOutcome",
    "UsageTotals",
    "build_report",
    "git_sha",
    "load_history",
    "render_report",
    "report_header",
    "save_run_report",
    "selection_text",
    "write_report",
]

__getattr__, __dir__ = lazy_exports(globals(), _WHERE)
