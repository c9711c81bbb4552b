"""Spans from two sources brought to one shape: OTLP JSON export files and in-memory SDK spans.

OTLP JSON files hold ``{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}``; a file is either
one such document or one document per line (what a collector's file exporter writes). SDK spans
are the ``ReadableSpan`` objects an ``InMemorySpanExporter`` returns; they are read by attribute
name, so the OpenTelemetry SDK is not needed to import a file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fairwitness.errors import Problem, ReportError

_ERROR_CODES = (2, "2", "STATUS_CODE_ERROR", "ERROR")


@dataclass(frozen=True)
class Span:
    """One span, whatever its source."""

    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    attributes: dict[str, Any]
    error: bool
    error_message: str | None
    start_ns: int
    end_ns: int
    file: str | None = None
    line: int | None = None
    where: str = ""
    """Where the span sits in its source (``resourceSpans[0].scopeSpans[0].spans[3]``)."""
    order: int = field(default=0, compare=False)
    """Position in the source, to break ties between spans that started at the same time."""

    @property
    def duration_ms(self) -> float:
        return max(self.end_ns - self.start_ns, 0) / 1e6

    def problem(self, message: str, field_name: str | None = None) -> Problem:
        """A problem located at this span."""
        place = self.where + (f".{field_name}" if field_name else "")
        return Problem(message, file=self.file, line=self.line, field=place or None)


def _any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` object as a plain Python value."""
    if not isinstance(value, dict) or not value:
        return None
    key, inner = next(iter(value.items()))
    if key == "intValue":
        return int(inner)
    if key == "doubleValue":
        return float(inner)
    if key == "arrayValue":
        return [_any_value(v) for v in (inner or {}).get("values", [])]
    if key == "kvlistValue":
        return {
            kv.get("key"): _any_value(kv.get("value")) for kv in (inner or {}).get("values", [])
        }
    return inner  # stringValue, boolValue, bytesValue


def _attributes(raw: Any, where: str, file: str, line: int | None) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, list):
        raise ReportError(Problem("attributes must be a list", file=file, line=line, field=where))
    out: dict[str, Any] = {}
    for index, item in enumerate(raw):
        if not isinstance(item, dict) or not isinstance(item.get("key"), str):
            raise ReportError(
                Problem(
                    'attribute must be {"key": ..., "value": {...}}',
                    file=file,
                    line=line,
                    field=f"{where}[{index}]",
                )
            )
        try:
            out[item["key"]] = _any_value(item.get("value"))
        except (TypeError, ValueError, AttributeError) as exc:
            raise ReportError(
                Problem(
                    f"attribute '{item['key']}' has an unreadable value: {exc}",
                    file=file,
                    line=line,
                    field=f"{where}[{index}].value",
                )
            ) from None
    return out


def _nanos(raw: Any, where: str, file: str, line: int | None) -> int:
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise ReportError(
            Problem(f"expected nanoseconds, got {raw!r}", file=file, line=line, field=where)
        ) from None


def _otlp_span(raw: Any, where: str, file: str, line: int | None, order: int) -> Span:
    if not isinstance(raw, dict):
        raise ReportError(Problem("span must be an object", file=file, line=line, field=where))
    for key in ("traceId", "spanId"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise ReportError(
                Problem(f"span has no {key}", file=file, line=line, field=f"{where}.{key}")
            )
    status = raw.get("status") or {}
    if not isinstance(status, dict):
        raise ReportError(
            Problem("status must be an object", file=file, line=line, field=f"{where}.status")
        )
    return Span(
        trace_id=raw["traceId"].lower(),
        span_id=raw["spanId"].lower(),
        parent_id=(raw.get("parentSpanId") or "").lower() or None,
        name=str(raw.get("name", "")),
        attributes=_attributes(raw.get("attributes"), f"{where}.attributes", file, line),
        error=status.get("code") in _ERROR_CODES,
        error_message=status.get("message") or None,
        start_ns=_nanos(raw.get("startTimeUnixNano", 0), f"{where}.startTimeUnixNano", file, line),
        end_ns=_nanos(raw.get("endTimeUnixNano", 0), f"{where}.endTimeUnixNano", file, line),
        file=file,
        line=line,
        where=where,
        order=order,
    )


def _document_spans(doc: Any, file: str, line: int | None, start: int) -> Iterator[Span]:
    if not isinstance(doc, dict) or not isinstance(doc.get("resourceSpans"), list):
        raise ReportError(
            Problem(
                "not an OTLP JSON trace export (no resourceSpans list)",
                file=file,
                line=line,
                field="resourceSpans",
            )
        )
    order = start
    for r, resource in enumerate(doc["resourceSpans"]):
        scopes = resource.get("scopeSpans", []) if isinstance(resource, dict) else None
        if not isinstance(scopes, list):
            raise ReportError(
                Problem(
                    "scopeSpans must be a list",
                    file=file,
                    line=line,
                    field=f"resourceSpans[{r}].scopeSpans",
                )
            )
        for s, scope in enumerate(scopes):
            spans = scope.get("spans", []) if isinstance(scope, dict) else None
            if not isinstance(spans, list):
                raise ReportError(
                    Problem(
                        "spans must be a list",
                        file=file,
                        line=line,
                        field=f"resourceSpans[{r}].scopeSpans[{s}].spans",
                    )
                )
            for i, raw in enumerate(spans):
                where = f"resourceSpans[{r}].scopeSpans[{s}].spans[{i}]"
                yield _otlp_span(raw, where, file, line, order)
                order += 1


def read_otlp_file(path: str | Path) -> list[Span]:
    """Every span of an OTLP JSON file (one document, or one document per line).

    Raises :class:`ReportError` naming the file, the line (for one-document-per-line files) and
    the span's position on the first malformed record.
    """
    name = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else str(exc)
        raise ReportError(Problem(f"cannot read: {reason or exc}", file=name)) from None
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
        lines = text.split("\n")
    else:
        return list(_document_spans(whole, name, None, 0))
    spans: list[Span] = []
    for index, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            doc = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise ReportError(Problem(f"invalid JSON: {exc}", file=name, line=index + 1)) from None
        spans.extend(_document_spans(doc, name, index + 1, len(spans)))
    if not spans and not text.strip():
        raise ReportError(Problem("file is empty", file=name))
    return spans


def _hex(value: int, width: int) -> str:
    return format(value, f"0{width}x")


def sdk_spans(spans: Iterable[Any]) -> list[Span]:
    """SDK ``ReadableSpan`` objects (e.g. from ``InMemorySpanExporter.get_finished_spans()``)."""
    out: list[Span] = []
    for order, span in enumerate(spans):
        context = span.context
        parent = span.parent
        status = span.status
        code = getattr(getattr(status, "status_code", None), "name", None)
        out.append(
            Span(
                trace_id=_hex(context.trace_id, 32),
                span_id=_hex(context.span_id, 16),
                parent_id=None if parent is None else _hex(parent.span_id, 16),
                name=str(span.name),
                attributes={
                    k: list(v) if isinstance(v, tuple) else v
                    for k, v in dict(span.attributes or {}).items()
                },
                error=code == "ERROR",
                error_message=getattr(status, "description", None) or None,
                start_ns=int(span.start_time or 0),
                end_ns=int(span.end_time or span.start_time or 0),
                where=f"span {span.name!r} ({_hex(context.span_id, 16)})",
                order=order,
            )
        )
    return out
