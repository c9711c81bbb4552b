from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fairwitness import Report
from fairwitness.errors import OutputExistsError, ReportError
from fairwitness.report import build_report
from fairwitness.trace.sink import read_traces

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def test_golden_report_loads_and_round_trips_byte_for_byte() -> None:
    text = (GOLDEN / "report-v1.json").read_text(encoding="utf-8")
    report = Report.load(GOLDEN / "report-v1.json")
    assert report.to_json() == text
    assert report.complete and report.incomplete_reason is None
    assert report.counts.cases == 3 and report.counts.trials == 6
    assert report.counts.faults_declared == 2 and report.counts.faults_fired == 2
    assert report.cases["a"].must_pass and report.cases["a"].tags == ["t"]
    assert [o.repeat for o in report.cases["c"].repeats] == [0, 1]
    assert report.usage.cost_usd == pytest.approx(0.006)
    assert report.run.models == ["golden-model"]


def test_golden_report_top_level_contract() -> None:
    obj = json.loads((GOLDEN / "report-v1.json").read_text(encoding="utf-8"))
    for key in (
        "schema",
        "complete",
        "incomplete_reason",
        "suite",
        "suite_version",
        "split_hash",
        "counts",
        "metrics",
        "cases",
    ):
        assert key in obj
    assert obj["schema"] == "fairwitness.report/1"
    for key in ("cases", "trials", "crashed", "timed_out", "unscored"):
        assert isinstance(obj["counts"][key], int)


def test_golden_traces_load_and_round_trip() -> None:
    lines = (GOLDEN / "traces-v1.jsonl").read_text(encoding="utf-8").splitlines()
    traces = list(read_traces(GOLDEN / "traces-v1.jsonl"))
    assert [n for n, _ in traces] == list(range(1, 7))
    assert [t.model_dump_json(by_alias=True) for _, t in traces] == lines
    faulted = [t for _, t in traces if t.case_id == "c"]
    assert all(
        t.tool_calls[0].kind == "timeout" and t.tool_calls[0].fault_injected for t in faulted
    )
    assert all(t.faults_fired[0].kind == "timeout" for t in faulted)


def test_unknown_report_version_is_refused(tmp_path: Path) -> None:
    obj = json.loads((GOLDEN / "report-v1.json").read_text(encoding="utf-8"))
    obj["schema"] = "fairwitness.report/2"
    path = tmp_path / "r.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    with pytest.raises(ReportError) as caught:
        Report.load(path)
    assert caught.value.exit_code == 4
    assert str(caught.value) == (
        f"{path}: field 'schema': unknown report schema 'fairwitness.report/2'; "
        "this fairwitness (0.1.0) reads 'fairwitness.report/1'"
    )


def test_truncated_report_is_refused(tmp_path: Path) -> None:
    text = (GOLDEN / "report-v1.json").read_text(encoding="utf-8")
    path = tmp_path / "r.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(ReportError, match=rf"^{path}:\d+: report is truncated"):
        Report.load(path)


def test_non_json_and_wrong_shapes_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("not json at all {", encoding="utf-8")
    with pytest.raises(ReportError, match="not valid JSON"):
        Report.load(path)
    path.write_text("[]", encoding="utf-8")
    with pytest.raises(ReportError, match="not a JSON object"):
        Report.load(path)
    obj = json.loads((GOLDEN / "report-v1.json").read_text(encoding="utf-8"))
    del obj["counts"]["crashed"]
    path.write_text(json.dumps(obj), encoding="utf-8")
    with pytest.raises(ReportError, match=r"field 'counts\.crashed'"):
        Report.load(path)
    with pytest.raises(ReportError, match="report not found"):
        Report.load(tmp_path / "missing.json")


def test_save_refuses_to_overwrite_and_leaves_no_temp_files(tmp_path: Path) -> None:
    report = Report.load(GOLDEN / "report-v1.json")
    path = tmp_path / "out" / "r.json"
    report.save(path)
    before = path.read_bytes()
    with pytest.raises(OutputExistsError, match="pass --force"):
        report.save(path)
    assert path.read_bytes() == before
    report.save(path, force=True)
    assert sorted(p.name for p in path.parent.iterdir()) == ["r.json"]


def test_truncated_and_unknown_traces_are_refused(tmp_path: Path) -> None:
    src = GOLDEN / "traces-v1.jsonl"
    cut = tmp_path / "cut.jsonl"
    data = src.read_bytes()
    cut.write_bytes(data[: len(data) - 40])
    with pytest.raises(ReportError, match=r"cut.jsonl:6: last line is cut short"):
        list(read_traces(cut))
    other = tmp_path / "other.jsonl"
    shutil.copy(src, other)
    other.write_text(
        src.read_text(encoding="utf-8").replace("fairwitness.trace/1", "fairwitness.trace/9", 1),
        encoding="utf-8",
    )
    with pytest.raises(ReportError, match=r"other.jsonl:1: field 'schema': unknown trace schema"):
        list(read_traces(other))


def _sample_run() -> tuple[object, object]:
    import asyncio

    from fairwitness import Case, Dataset, Runner

    async def target(case: Case) -> str:
        if case.id == "b":
            raise RuntimeError("x")
        return "ok"

    data = Dataset([Case(id=i, input=i, tags=["t"]) for i in ("a", "b", "c")])

    class Sink:
        n = 0

        def write(self, trace: object) -> int:
            self.n += 1
            return self.n

    return asyncio.run(Runner(target, repeats=3, concurrency=2).run(data, Sink())), data


META = {
    "target": "m:f",
    "seed": 0,
    "repeats": 3,
    "concurrency": 2,
    "timeout_s": None,
    "mode": "live",
}


def test_streamed_report_is_byte_identical_to_the_model(tmp_path: Path) -> None:
    from fairwitness.report import save_run_report

    result, data = _sample_run()
    streamed = tmp_path / "streamed.json"
    header = save_run_report(result, data, streamed, **META)  # type: ignore[arg-type]
    built = build_report(result, data, **META)  # type: ignore[arg-type]
    assert streamed.read_text(encoding="utf-8") == built.to_json()
    assert header.cases == {}
    assert header.counts == built.counts
    loaded = Report.load(streamed)
    assert loaded == built
    assert loaded.to_json() == built.to_json()
    assert [o.repeat for o in loaded.cases["b"].repeats] == [0, 1, 2]
    assert loaded.cases["b"].repeats[0].error == "RuntimeError: x"


def test_outcome_records_match_the_model_field_for_field() -> None:
    from fairwitness.report import CaseOutcomes, RunDigest, TrialOutcome
    from fairwitness.scoring import ScoreBoard

    result, data = _sample_run()
    for _, record in RunDigest(result, data, board=ScoreBoard(), **META).records():  # type: ignore[arg-type]
        assert list(record) == list(CaseOutcomes.model_fields)
        dumped_case = CaseOutcomes.model_validate(record).model_dump(mode="json")
        for repeat in dumped_case["repeats"]:
            if not repeat["evidence"]:
                repeat.pop("evidence")
        assert dumped_case == record
        for outcome in record["repeats"]:
            # ``evidence`` is left out while empty, as Report.json_data leaves it out
            fields = [f for f in TrialOutcome.model_fields if f != "evidence" or f in outcome]
            assert list(outcome) == fields
            dumped = TrialOutcome.model_validate(outcome).model_dump(mode="json")
            if not dumped["evidence"]:
                dumped.pop("evidence")
            assert dumped == outcome


def test_an_empty_run_renders_valid_json(tmp_path: Path) -> None:
    from fairwitness.report import render_report

    text = "".join(render_report({"schema": "x"}, []))
    assert json.loads(text) == {"schema": "x", "cases": {}}
