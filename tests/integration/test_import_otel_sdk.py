"""OpenTelemetry SDK spans, exported as an OTLP JSON file, import to the same traces."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import opentelemetry.sdk.trace  # noqa: F401  (a dev dependency)
import pytest

from fairwitness.commands.import_ import import_traces
from fairwitness.report import Report
from fairwitness.trace.importers import import_otlp_file, import_sdk_spans
from fairwitness.trace.sink import read_traces
from otel_spans import Agent, Tool, exporter_and_tracer, otlp_json, run_agent

pytestmark = pytest.mark.integration


def spans_of(*agents: Agent) -> list[Any]:
    exporter, tracer = exporter_and_tracer()
    for agent in agents:
        run_agent(tracer, agent)
    return list(exporter.get_finished_spans())


def test_otlp_encoding_of_sdk_spans_imports_to_the_same_traces(tmp_path: Path) -> None:
    spans = spans_of(
        Agent("a", tools=[Tool("search_jobs", {"city": "Pune"}, error="rate_limit")]),
        Agent("b", repeat=1, fails=True),
    )
    path = tmp_path / "spans.json"
    path.write_text(json.dumps(otlp_json(spans)), encoding="utf-8")
    from_file = import_otlp_file(str(path)).traces
    assert from_file == import_sdk_spans(spans).traces
    assert [t.case_id for t in from_file] == ["a", "b"]


def test_sdk_spans_through_the_command_score_failure_handling(tmp_path: Path) -> None:
    spans = spans_of(
        Agent("a", answer="Search failed, please retry.", tools=[Tool("s", {}, error="timeout")]),
        Agent("a", repeat=1, answer="No jobs found.", tools=[Tool("s", {}, error="timeout")]),
    )
    source = tmp_path / "spans.json"
    source.write_text(json.dumps(otlp_json(spans)), encoding="utf-8")
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps({"id": "a", "input": "jobs in Pune", "expect": {"first_tool": "s"}}) + "\n",
        encoding="utf-8",
    )
    code = import_traces(
        str(source),
        format="otlp",
        dataset=str(cases),
        out=str(tmp_path / "out"),
        stdout=io.StringIO(),
    )
    assert code == 0
    traces = [t for _, t in read_traces(tmp_path / "out" / "imported.traces.jsonl")]
    assert [(t.repeat, t.tool_calls[0].kind) for t in traces] == [(0, "timeout"), (1, "timeout")]
    report = Report.load(tmp_path / "out" / "imported.report.json")
    assert report.run.models == ["gpt-test-1-2025", "gpt-test-1"]
    assert report.counts.trials == 2
