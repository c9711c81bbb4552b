"""Typed tool results, the ``@tool`` decorator and fault injection."""

from __future__ import annotations

from fairwitness.tools.decorator import ToolSpec, classify, registered_tools, tool
from fairwitness.tools.faults import check_fault_plan
from fairwitness.tools.results import Empty, Err, Ok, ToolResult

__all__ = [
    "Empty",
    "Err",
    "Ok",
    "ToolResult",
    "ToolSpec",
    "check_fault_plan",
    "classify",
    "registered_tools",
    "tool",
]
