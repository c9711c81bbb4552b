"""fairwitness trace JSONL written by an agent in any language.

Each line must be a ``fairwitness.trace/1`` object (``schemas/trace.schema.json``); the first bad
line is refused with its number and field, so a partly valid file never becomes a partial import.
"""

from __future__ import annotations

from pathlib import Path

from fairwitness.trace.importers._result import Imported, ImportResult
from fairwitness.trace.sink import read_traces


def read_jsonl(path: str | Path) -> ImportResult:
    """Every trace of a trace JSONL file, each with its line number."""
    name = str(path)
    result = ImportResult(source=name, format="jsonl")
    for line, trace in read_traces(path):
        result.records.append(Imported(trace, line, file=name, line=line))
    return result
