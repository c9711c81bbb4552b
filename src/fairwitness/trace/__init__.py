"""Run context and the trace format."""

from __future__ import annotations

from fairwitness.trace.context import TrialContext, current
from fairwitness.trace.model import (
    TRACE_SCHEMA,
    CaseInput,
    Conversation,
    Fault,
    FiredFault,
    Message,
    TargetFailure,
    ToolCall,
    Trace,
    Usage,
    input_text,
)

__all__ = [
    "CaseInput",
    "Conversation",
    "Fault",
    "FiredFault",
    "Message",
    "TRACE_SCHEMA",
    "TargetFailure",
    "ToolCall",
    "Trace",
    "TrialContext",
    "Usage",
    "current",
    "input_text",
]
