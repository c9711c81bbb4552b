"""``fairwitness import``: trace files from any agent become a trace file and a report."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from fairwitness.commands.import_ import import_traces
from fairwitness.errors import OutputExistsError, ReportError
from fairwitness.report import Report
from fairwitness.trace.importers import import_otlp_file, read_jsonl, read_promptfoo
from fairwitness.trace.model import Fault, FiredFault, TargetFailure, ToolCall, Trace, Usage
from fairwitness.trace.sink import JsonlTraceSink, read_traces

pytestmark = pytest.mark.integration

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OTLP = FIXTURES / "otlp" / "genai_spans.json"
PROMPTFOO = FIXTURES / "promptfoo" / "results.json"


def cases_file(tmp_path: Path, *cases: dict[str, Any]) -> Path:
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return path


def sample_traces() -> list[Trace]:
    common: dict[str, Any] = {"suite": "jobs", "latency_ms": 12.5}
    return [
        Trace(
            case_id="route-001",
            repeat=0,
            input="python jobs in Pune",
            status="ok",
            answer="Two jobs.",
            verdict="search",
            tool_calls=[
                ToolCall(
                    name="search_jobs",
                    arguments={"city": "Pune", "n": 5},
                    status="error",
                    kind="timeout",
                    latency_ms=30.0,
                    attempts=2,
                    fault_injected=True,
                ),
                ToolCall(name="search_jobs", arguments={"city": "Pune"}, status="ok", latency_ms=3),
            ],
            faults_declared=[Fault(tool="search_jobs", kind="timeout", times=1)],
            faults_fired=[FiredFault(fault=0, tool="search_jobs", kind="timeout", call=0)],
            usage=Usage(input_tokens=10, output_tokens=4, cost_usd=0.002, cost_unknown_reason=None),
            models=["m-1"],
            **common,
        ),
        Trace(
            case_id="route-001",
            repeat=1,
            input="python jobs in Pune",
            status="crashed",
            error=TargetFailure(type="ValueError", message="boom"),
            **common,
        ),
        Trace(
            case_id="route-002",
            repeat=0,
            input="jobs in Lagos",
            status="ok",
            answer="None found",
            verdict="search",
            **common,
        ),
        Trace(
            case_id="route-002",
            repeat=1,
            input="jobs in Lagos",
            status="ok",
            answer="None found",
            verdict="search",
            **common,
        ),
    ]


def write_traces(path: Path, traces: list[Trace]) -> Path:
    sink = JsonlTraceSink(path)
    for trace in traces:
        sink.write(trace)
    sink.commit()
    return path


DATASET = (
    {"id": "route-001", "input": "python jobs in Pune", "expect": {"route": "search"}},
    {"id": "route-002", "input": "jobs in Lagos", "expect": {"route": "search"}},
)


def test_jsonl_round_trip_gives_identical_traces(tmp_path: Path) -> None:
    traces = sample_traces()
    source = write_traces(tmp_path / "from-go.jsonl", traces)
    out = tmp_path / "out"
    stdout = io.StringIO()
    code = import_traces(
        str(source),
        format="jsonl",
        dataset=str(cases_file(tmp_path, *DATASET)),
        out=str(out),
        stdout=stdout,
        stderr=io.StringIO(),
    )
    assert code == 0
    written = [trace for _, trace in read_traces(out / "jobs.traces.jsonl")]
    assert written == traces
    assert (out / "jobs.traces.jsonl").read_bytes() == source.read_bytes()
    report = Report.load(out / "jobs.report.json")
    assert report.complete
    assert (report.counts.trials, report.counts.crashed, report.counts.faults_fired) == (4, 1, 1)
    assert report.traces == "jobs.traces.jsonl"
    assert "4 imported, 0 skipped" in stdout.getvalue()


def test_malformed_jsonl_is_refused_at_its_line_and_nothing_is_written(tmp_path: Path) -> None:
    source = write_traces(tmp_path / "t.jsonl", sample_traces())
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1][:40] + "\n"
    source.write_text("".join(lines), encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(ReportError) as info:
        import_traces(str(source), format="jsonl", dataset=None, out=str(out))
    assert info.value.problem.line == 2
    assert str(info.value).startswith(f"{source}:2: invalid JSON")
    assert not out.exists()


def test_jsonl_with_a_wrong_field_names_line_and_field(tmp_path: Path) -> None:
    source = write_traces(tmp_path / "t.jsonl", sample_traces())
    lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
    bad = json.loads(lines[2])
    bad["tool_calls"] = [{"name": "x", "arguments": {}, "status": "nothing", "latency_ms": 1}]
    lines[2] = json.dumps(bad) + "\n"
    source.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(ReportError) as info:
        read_jsonl(source)
    assert (info.value.problem.line, info.value.problem.field) == (3, "tool_calls.0.status")


def test_case_id_not_in_the_dataset_is_refused_with_the_record(tmp_path: Path) -> None:
    source = write_traces(tmp_path / "t.jsonl", sample_traces())
    dataset = cases_file(tmp_path, DATASET[0])
    out = tmp_path / "out"
    with pytest.raises(ReportError, match=r"case id 'route-002'.*is not in the dataset") as info:
        import_traces(str(source), format="jsonl", dataset=str(dataset), out=str(out))
    assert info.value.problem.line == 3
    assert not out.exists()


def test_the_same_trial_twice_is_refused(tmp_path: Path) -> None:
    traces = sample_traces()
    source = write_traces(tmp_path / "t.jsonl", [*traces, traces[0]])
    with pytest.raises(ReportError, match="already imported from record 1") as info:
        import_traces(str(source), format="jsonl", dataset=None, out=str(tmp_path / "out"))
    assert info.value.problem.line == 5


def test_dataset_cases_without_a_trial_make_the_report_incomplete(tmp_path: Path) -> None:
    source = write_traces(tmp_path / "t.jsonl", sample_traces())
    dataset = cases_file(tmp_path, *DATASET, {"id": "route-003", "input": "x"})
    stderr = io.StringIO()
    code = import_traces(
        str(source),
        format="jsonl",
        dataset=str(dataset),
        out=str(tmp_path / "out"),
        stdout=io.StringIO(),
        stderr=stderr,
    )
    assert code == 4
    report = Report.load(tmp_path / "out" / "jobs.report.json")
    assert not report.complete
    assert report.counts.not_run == 2
    assert "route-003" in (report.incomplete_reason or "")
    assert "incomplete" in stderr.getvalue()


def test_existing_outputs_are_not_replaced_without_force(tmp_path: Path) -> None:
    source = write_traces(tmp_path / "t.jsonl", sample_traces())
    args: dict[str, Any] = {
        "format": "jsonl",
        "dataset": None,
        "out": str(tmp_path / "out"),
        "stdout": io.StringIO(),
        "stderr": io.StringIO(),
    }
    assert import_traces(str(source), **args) == 0
    with pytest.raises(OutputExistsError):
        import_traces(str(source), **args)
    assert import_traces(str(source), force=True, **args) == 0


def test_otlp_file_import_maps_tools_models_tokens_and_skips_other_traces() -> None:
    result = import_otlp_file(str(OTLP))
    assert result.skipped == {"trace without an invoke_agent span": 1}
    first, second = result.traces
    assert (first.case_id, first.verdict, first.answer) == (
        "route-001",
        "search",
        "Two Python jobs in Pune.",
    )
    assert first.models == ["gpt-4o-mini-2024-07-18"]
    assert (first.usage.input_tokens, first.usage.output_tokens) == (120, 14)
    assert [(c.name, c.arguments, c.status) for c in first.tool_calls] == [
        ("search_jobs", {"city": "Pune", "limit": 5}, "ok")
    ]
    assert first.latency_ms == pytest.approx(900.0)
    assert [(c.status, c.kind) for c in second.tool_calls] == [("error", "timeout")]
    assert second.usage.input_tokens is None  # not reported is not zero


def test_otlp_command_scores_against_the_dataset_and_reports_counts(tmp_path: Path) -> None:
    dataset = cases_file(
        tmp_path,
        {
            "id": "route-001",
            "input": "python jobs in Pune",
            "expect": {"first_tool": "search_jobs"},
        },
        {"id": "route-002", "input": "jobs in Lagos", "expect": {"first_tool": "search_jobs"}},
    )
    stdout = io.StringIO()
    code = import_traces(
        str(OTLP),
        format="otlp",
        dataset=str(dataset),
        out=str(tmp_path / "out"),
        suite="jobs",
        stdout=stdout,
    )
    assert code == 0
    text = stdout.getvalue()
    assert "2 imported, 1 skipped (trace without an invoke_agent span: 1)" in text
    report = Report.load(tmp_path / "out" / "jobs.report.json")
    assert report.metrics["first_tool"].k == 2 and report.metrics["first_tool"].n == 2
    written = [t for _, t in read_traces(tmp_path / "out" / "jobs.traces.jsonl")]
    assert written[0].input == "python jobs in Pune"  # the span gave no input: the case's


def test_otlp_span_without_pairing_attribute_refused(tmp_path: Path) -> None:
    doc = json.loads(OTLP.read_text(encoding="utf-8"))
    attrs = doc["resourceSpans"][1]["scopeSpans"][0]["spans"][0]["attributes"]
    attrs[:] = [a for a in attrs if a["key"] != "fairwitness.case_id"]
    path = tmp_path / "spans.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ReportError) as info:
        import_traces(str(path), format="otlp", dataset=None, out=str(tmp_path / "out"))
    assert info.value.problem.field == "resourceSpans[1].scopeSpans[0].spans[0]"
    assert "fairwitness.case_id" in str(info.value)
    assert not (tmp_path / "out").exists()


def test_otlp_lines_file_refuses_malformed_json_at_its_line(tmp_path: Path) -> None:
    doc = OTLP.read_text(encoding="utf-8")
    one_line = json.dumps(json.loads(doc))
    path = tmp_path / "collector.jsonl"
    path.write_text(f"{one_line}\n{one_line}\n{{not json\n", encoding="utf-8")
    with pytest.raises(ReportError) as info:
        import_otlp_file(str(path))
    assert info.value.problem.line == 3
    path.write_text(f"{one_line}\n\n", encoding="utf-8")
    assert len(import_otlp_file(str(path)).traces) == 2


def test_otlp_file_that_is_not_an_export_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"spans": []}', encoding="utf-8")
    with pytest.raises(ReportError, match="no resourceSpans list"):
        import_otlp_file(str(path))


def test_promptfoo_fixture_maps_success_to_the_verdict_metric(tmp_path: Path) -> None:
    result = read_promptfoo(PROMPTFOO)
    assert [(t.case_id, t.verdict, t.status) for t in result.traces] == [
        ("search-pune", "pass", "ok"),
        ("search-berlin", "fail", "ok"),
        ("search-lagos", "fail", "ok"),
        ("test-3", "pass", "ok"),
    ]
    assert result.traces[1].answer == "Find rust jobs in Berlin"
    assert result.traces[0].models == ["echo"]
    assert result.cases[1]["tags"] == ["promptfoo", "assert:contains", "assert:equals"]
    assert result.assertions[("equals", False)] == 1
    stdout = io.StringIO()
    code = import_traces(
        str(PROMPTFOO), format="promptfoo", dataset=None, out=str(tmp_path), stdout=stdout
    )
    assert code == 0
    report = Report.load(tmp_path / "promptfoo.report.json")
    verdict = report.metrics["verdict"]
    assert (verdict.k, verdict.n) == (2, 4)
    assert report.run.target == "import:promptfoo:results.json"
    text = stdout.getvalue()
    assert "4 imported, 0 skipped" in text
    assert "equals 0/1 passed" in text


def test_promptfoo_file_that_is_not_a_results_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text('{"results": []}', encoding="utf-8")
    with pytest.raises(ReportError, match=r"no results\.results list"):
        read_promptfoo(path)


def test_promptfoo_errors_repeats_and_several_providers(tmp_path: Path) -> None:
    doc = json.loads(PROMPTFOO.read_text(encoding="utf-8"))
    rows = doc["results"]["results"]
    errored = json.loads(json.dumps(rows[0]))
    errored.update(success=False, failureReason=2, error="API error: 500", response={})
    second = json.loads(json.dumps(rows[0]))
    second["provider"] = {"id": "openai:gpt-4o-mini", "label": ""}
    doc["results"]["results"] = [rows[0], errored, second]
    path = tmp_path / "results.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    traces = read_promptfoo(path).traces
    assert [(t.case_id, t.repeat, t.status, t.verdict) for t in traces] == [
        ("search-pune@echo#0", 0, "ok", "pass"),
        ("search-pune@echo#0", 1, "crashed", None),
        ("search-pune@openai:gpt-4o-mini#0", 0, "ok", "pass"),
    ]
    assert traces[1].error is not None and traces[1].error.message == "API error: 500"


def test_otlp_case_not_in_dataset_names_the_agent_span(tmp_path: Path) -> None:
    dataset = cases_file(tmp_path, {"id": "route-001", "input": "x"})
    with pytest.raises(ReportError, match="case id 'route-002'") as info:
        import_traces(str(OTLP), format="otlp", dataset=str(dataset), out=str(tmp_path / "out"))
    assert info.value.problem.field == (
        "resourceSpans[1].scopeSpans[0].spans[0] (trace 0af7651916cd43dd8448eb211c80319c)"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("fmt", ["otlp", "promptfoo"])
def test_imported_traces_match_the_published_trace_schema(tmp_path: Path, fmt: str) -> None:
    import jsonschema

    schema = json.loads(
        (FIXTURES.parents[1] / "schemas" / "trace.schema.json").read_text(encoding="utf-8")
    )
    source = OTLP if fmt == "otlp" else PROMPTFOO
    import_traces(
        str(source),
        format=fmt,
        dataset=None,
        out=str(tmp_path),
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    (written,) = tmp_path.glob("*.traces.jsonl")
    lines = written.read_text(encoding="utf-8").splitlines()
    assert lines
    for line in lines:
        jsonschema.validate(json.loads(line), schema)
