"""Importers: traces from agents that do not use the fairwitness SDK.

- :func:`read_otlp_file` / :func:`sdk_spans` + :func:`traces_from_spans`: OpenTelemetry GenAI spans,
  from OTLP JSON files or from the SDK's in-memory exporter;
- :func:`read_jsonl`: fairwitness trace JSONL written by an agent in another language;
- :func:`read_promptfoo`: a promptfoo results file, with the cases it defines.

Every importer returns an :class:`ImportResult` (traces with their source records, and what was
skipped and why) and refuses malformed input with a :class:`~fairwitness.errors.ReportError` that
names the file, the record and the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairwitness.trace.importers._jsonl import read_jsonl
from fairwitness.trace.importers._otel import (
    DEFAULT_ANSWER_ATTRIBUTES,
    SpanMapping,
    traces_from_spans,
)
from fairwitness.trace.importers._promptfoo import read_promptfoo
from fairwitness.trace.importers._result import Imported, ImportResult
from fairwitness.trace.importers._spans import Span, read_otlp_file, sdk_spans

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def import_sdk_spans(spans: Iterable[Any], *, mapping: SpanMapping | None = None) -> ImportResult:
    """Traces from OpenTelemetry SDK ``ReadableSpan`` objects (e.g. an in-memory exporter's)."""
    return traces_from_spans(sdk_spans(spans), source="<in-memory spans>", mapping=mapping)


def import_otlp_file(path: str, *, mapping: SpanMapping | None = None) -> ImportResult:
    """Traces from an OTLP JSON export file."""
    return traces_from_spans(read_otlp_file(path), source=path, mapping=mapping)


__all__ = [
    "DEFAULT_ANSWER_ATTRIBUTES",
    "ImportResult",
    "Imported",
    "Span",
    "SpanMapping",
    "import_otlp_file",
    "import_sdk_spans",
    "read_jsonl",
    "read_otlp_file",
    "read_promptfoo",
    "sdk_spans",
    "traces_from_spans",
]
