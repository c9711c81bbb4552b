"""Trace files: JSONL written atomically as a stream, and read back with version checks."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from pydantic import ValidationError

from fairwitness.errors import Problem, ReportError
from fairwitness.trace.model import TRACE_SCHEMA, Trace


class JsonlTraceSink:
    """Streams traces to ``<path>.partial`` and moves the file into place on :meth:`commit`.

    Nothing appears at ``path`` until the run is over, so a reader never sees half a file under the
    final name. Each trace is one line; :meth:`write` returns its 1-based line number.
    """

    BUFFER = 1 << 20
    FLUSH_S = 0.5

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # A large buffer writes tens of thousands of trace lines in a few hundred system calls; a
        # flush at most every FLUSH_S seconds keeps the partial file a live view of the run.
        self._file: IO[str] | None = open(  # noqa: SIM115
            self.partial, "w", encoding="utf-8", buffering=self.BUFFER
        )
        self._flushed = time.monotonic()
        self.lines = 0

    def write(self, trace: Trace) -> int:
        """Append one trace; returns its line number."""
        if self._file is None:
            raise RuntimeError("trace sink is closed")
        self._file.write(trace.model_dump_json(by_alias=True) + "\n")
        self.lines += 1
        now = time.monotonic()
        if now - self._flushed >= self.FLUSH_S:
            self._file.flush()
            self._flushed = now
        return self.lines

    def commit(self) -> Path:
        """Flush, fsync and move the file to its final name."""
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None
        os.replace(self.partial, self.path)
        return self.path

    def discard(self) -> None:
        """Close and delete the partial file."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self.partial.unlink(missing_ok=True)


class NullTraceSink:
    """A sink that keeps nothing (for library use without trace files)."""

    lines = 0

    def write(self, trace: Trace) -> int:
        self.lines += 1
        return self.lines


def _parsed(raw: bytes) -> Trace | None:
    """A good trace line parsed in one step by the model's own JSON parser; ``None`` for any line
    that is not one (invalid JSON, another schema, a missing ``schema`` key, a bad field), which
    the caller then reads the slow way to say why."""
    try:
        trace = Trace.model_validate_json(raw)
    except ValidationError:
        return None
    return trace if "schema_" in trace.model_fields_set else None


def read_traces(path: str | Path) -> Iterator[tuple[int, Trace]]:
    """Yield ``(line, trace)`` from a trace file; raises :class:`ReportError` on the first bad line."""
    name = str(path)
    try:
        handle = open(path, "rb")  # noqa: SIM115
    except OSError as exc:
        raise ReportError(Problem(f"cannot read: {exc.strerror or exc}", file=name)) from None
    with handle:
        for index, raw in enumerate(handle):
            line_no = index + 1
            if not raw.strip():
                continue
            if not raw.endswith(b"\n"):
                raise ReportError(
                    Problem("last line is cut short (truncated file?)", file=name, line=line_no)
                )
            fast = _parsed(raw)
            if fast is not None:
                yield line_no, fast
                continue
            try:  # the slow path, which names what is wrong with the line
                obj = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ReportError(
                    Problem(f"invalid JSON: {exc}", file=name, line=line_no)
                ) from None
            schema = obj.get("schema") if isinstance(obj, dict) else None
            if schema != TRACE_SCHEMA:
                raise ReportError(
                    Problem(
                        f"unknown trace schema {schema!r}; this fairwitness reads {TRACE_SCHEMA!r}",
                        file=name,
                        line=line_no,
                        field="schema",
                    )
                )
            try:
                yield line_no, Trace.model_validate(obj)
            except ValidationError as exc:
                first = exc.errors(include_url=False)[0]
                field = ".".join(str(p) for p in first["loc"])
                raise ReportError(
                    Problem(first["msg"], file=name, line=line_no, field=field)
                ) from None
