"""Reading a trace file: good lines parse in one step, and any bad line is named by file, line and
field, exactly as the slow reader names it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairwitness.errors import ReportError
from fairwitness.trace.model import Trace
from fairwitness.trace.sink import JsonlTraceSink, read_traces

GOOD = {
    "schema": "fairwitness.trace/1",
    "suite": "s",
    "case_id": "c",
    "repeat": 0,
    "input": "q",
    "status": "ok",
    "answer": "Found 2 jobs.",
    "verdict": "search",
    "latency_ms": 1.5,
    "tool_calls": [
        {"name": "search", "arguments": {"city": "Pune"}, "status": "error", "kind": "timeout",
         "latency_ms": 2.0}
    ],
}  # fmt: skip


def _file(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "t.traces.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_good_lines_read_as_the_model_validates_them(tmp_path: Path) -> None:
    path = _file(tmp_path, json.dumps(GOOD), "", json.dumps({**GOOD, "repeat": 1}))
    found = list(read_traces(path))
    assert [line for line, _ in found] == [1, 3]
    assert found[0][1] == Trace.model_validate(GOOD)
    assert found[1][1].repeat == 1 and found[1][1].tool_calls[0].kind == "timeout"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "t.traces.jsonl:2: invalid JSON"),
        (json.dumps({**GOOD, "schema": "other/9"}), "unknown trace schema 'other/9'"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "schema"}), "unknown trace schema None"),
        (json.dumps({**GOOD, "repeat": "first"}), "field 'repeat'"),
        (json.dumps([1, 2]), "unknown trace schema None"),
    ],
)
def test_a_bad_line_is_named_by_file_line_and_field(
    tmp_path: Path, line: str, message: str
) -> None:
    path = _file(tmp_path, json.dumps(GOOD), line)
    with pytest.raises(ReportError) as caught:
        list(read_traces(path))
    assert message in str(caught.value)
    assert "t.traces.jsonl:2" in str(caught.value)


@settings(max_examples=40, deadline=None)
@given(
    answer=st.one_of(st.none(), st.text()),
    latency=st.floats(min_value=0, max_value=1e6, allow_nan=False),
    arguments=st.dictionaries(
        st.text(max_size=5), st.one_of(st.integers(), st.text(), st.booleans())
    ),
)
def test_what_is_written_reads_back_the_same(
    tmp_path_factory: pytest.TempPathFactory, answer: str | None, latency: float, arguments: dict
) -> None:
    folder = tmp_path_factory.mktemp("sink")
    trace = Trace.model_validate(
        {**GOOD, "answer": answer, "latency_ms": latency,
         "tool_calls": [{**GOOD["tool_calls"][0], "arguments": arguments}]}  # type: ignore[dict-item]
    )  # fmt: skip
    path = folder / "t.traces.jsonl"
    sink = JsonlTraceSink(path)
    sink.write(trace)
    sink.commit()
    ((_, back),) = list(read_traces(path))
    assert back == trace


def test_the_partial_file_shows_the_run_within_the_flush_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [100.0]
    monkeypatch.setattr("fairwitness.trace.sink.time.monotonic", lambda: clock[0])
    sink = JsonlTraceSink(tmp_path / "s.traces.jsonl")
    trace = Trace.model_validate(GOOD)
    sink.write(trace)
    sink.write(trace)
    # within the interval the lines wait in the buffer: a few system calls per thousand lines
    assert sink.partial.read_text(encoding="utf-8") == ""
    clock[0] += JsonlTraceSink.FLUSH_S
    sink.write(trace)
    # past it, every line written so far is in the partial file, where a person can watch the run
    assert sink.partial.read_text(encoding="utf-8").count("\n") == 3
    sink.write(trace)
    path = sink.commit()
    assert [line for line, _ in read_traces(path)] == [1, 2, 3, 4]
    assert not sink.partial.exists()
