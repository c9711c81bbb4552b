"""What an importer returns: the traces it made, where each came from, and what it skipped."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fairwitness.errors import Problem
from fairwitness.trace.model import Trace


@dataclass(frozen=True)
class Imported:
    """One imported trace and the record it came from (for messages that point back at it)."""

    trace: Trace
    record: int
    """1-based record number in the source (line, trace id group or result, per format)."""
    file: str | None = None
    """The source file, when there is one."""
    line: int | None = None
    """The 1-based line in ``file``, when the format is line-based."""
    field: str | None = None
    """Where in the record (a span's position, a result index), when that says more than the line."""

    def problem(self, message: str, field: str | None = None) -> Problem:
        """A problem located at this record."""
        return Problem(message, file=self.file, line=self.line, field=field or self.field)


@dataclass
class ImportResult:
    """Traces made from a source, in source order, with every skipped record counted by reason."""

    source: str
    format: str
    records: list[Imported] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    """Records that are not agent trials, by reason (never a malformed record: those are refused)."""
    cases: list[dict[str, Any]] = field(default_factory=list)
    """Case records derived from the source when it defines its own tests (promptfoo), else empty."""
    assertions: Counter[tuple[str, bool]] = field(default_factory=Counter)
    """Per-assertion results ``(type, passed)`` when the source grades with assertions."""

    @property
    def traces(self) -> list[Trace]:
        return [item.trace for item in self.records]

    def summary(self) -> str:
        """``N imported, M skipped (reason: k, ...)``."""
        total = sum(self.skipped.values())
        text = f"{len(self.records)} imported, {total} skipped"
        if total:
            reasons = ", ".join(f"{reason}: {count}" for reason, count in self.skipped.items())
            text += f" ({reasons})"
        return text
