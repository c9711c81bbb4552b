"""The self-contained HTML report viewer: one file, everything inline, no request of any kind.

:func:`build_page` turns a report (optionally with its baseline, the gate's decision, the traces
and the dataset) into the page's HTML; :func:`load_traces` reads the traces a report names. The
page shows the decision and its reasons, every metric with its interval, per-trial rate and
pass^k, the diagnostics, the paired table, and every case, filterable, each opening to its
repeats side by side with the baseline's (see ``static/view.js``).
"""

from __future__ import annotations

from fairwitness.view._build import (
    build_page,
    iter_traces,
    load_traces,
    trace_lines,
    traces_path,
)
from fairwitness.view._data import build_data
from fairwitness.view._page import csp_hash, script_safe

__all__ = [
    "build_data",
    "build_page",
    "csp_hash",
    "iter_traces",
    "load_traces",
    "script_safe",
    "trace_lines",
    "traces_path",
]
