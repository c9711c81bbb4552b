"""fairwitness: an evaluation harness and CI gate for tool-calling agents that reports only what
it observed.

Public names are imported lazily, so ``import fairwitness`` stays fast for the CLI and for agents
that only need :func:`current` at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairwitness._lazy import lazy_exports
from fairwitness._version import __version__

if TYPE_CHECKING:
    from fairwitness.dataset import Case, Dataset, Expect
    from fairwitness.diagnostics.diagnose import DiagnoseConfig, Diagnosis, diagnose
    from fairwitness.diagnostics.relations import Relation
    from fairwitness.errors import FairwitnessError
    from fairwitness.report import Report
    from fairwitness.runner import Runner, RunResult
    from fairwitness.scoring.custom import Score, scorer
    from fairwitness.targets.base import Observation, from_callable
    from fairwitness.tools.decorator import tool
    from fairwitness.tools.results import Empty, Err, Ok, ToolResult
    from fairwitness.trace.context import TrialContext, current
    from fairwitness.trace.model import Fault, Trace

_EXPORTS: dict[str, str] = {
    "Case": "fairwitness.dataset",
    "DiagnoseConfig": "fairwitness.diagnostics.diagnose",
    "Diagnosis": "fairwitness.diagnostics.diagnose",
    "Relation": "fairwitness.diagnostics.relations",
    "diagnose": "fairwitness.diagnostics.diagnose",
    "Dataset": "fairwitness.dataset",
    "Empty": "fairwitness.tools.results",
    "Err": "fairwitness.tools.results",
    "Expect": "fairwitness.dataset",
    "FairwitnessError": "fairwitness.errors",
    "Fault": "fairwitness.trace.model",
    "Observation": "fairwitness.targets.base",
    "Ok": "fairwitness.tools.results",
    "Report": "fairwitness.report",
    "RunResult": "fairwitness.runner",
    "Runner": "fairwitness.runner",
    "Score": "fairwitness.scoring.custom",
    "ToolResult": "fairwitness.tools.results",
    "Trace": "fairwitness.trace.model",
    "TrialContext": "fairwitness.trace.context",
    "current": "fairwitness.trace.context",
    "from_callable": "fairwitness.targets.base",
    "scorer": "fairwitness.scoring.custom",
    "tool": "fairwitness.tools.decorator",
}

__all__ = [
    "Case",
    "Dataset",
    "DiagnoseConfig",
    "Diagnosis",
    "Empty",
    "Err",
    "Expect",
    "FairwitnessError",
    "Fault",
    "Observation",
    "Ok",
    "Relation",
    "Report",
    "RunResult",
    "Runner",
    "Score",
    "ToolResult",
    "Trace",
    "TrialContext",
    "__version__",
    "current",
    "diagnose",
    "from_callable",
    "scorer",
    "tool",
]

__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
