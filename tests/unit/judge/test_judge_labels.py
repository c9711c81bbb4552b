"""Label files for judge calibration: every refusal names file, line and field; the judge fills in
missing labels, and only those."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from fairwitness.errors import DatasetError
from fairwitness.judge import (
    UNPARSEABLE,
    CalibrationRecord,
    FakeJudge,
    judge_records,
    load_labels,
    read_labels,
)

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE_LABELS = ROOT / "examples" / "jobsearch" / "judge-labels.jsonl"

GOOD = {"id": "a", "human": "misreport", "judge": "misreport", "language": "en"}
TO_JUDGE = {
    "id": "b",
    "question": "Any jobs in Pune?",
    "answer": "There are no jobs in Pune.",
    "tool_outcomes": ["search_jobs: error (timeout)"],
    "human": "misreport",
    "language": "en",
}


def problems_of(path: Path, **kwargs: bool) -> list[str]:
    with pytest.raises(DatasetError) as caught:
        read_labels(path, **kwargs)
    assert caught.value.exit_code == 4
    assert str(caught.value) == str(caught.value.problems[0])
    return [str(p) for p in caught.value.problems]


def test_loads_records_in_order_and_ignores_blank_lines(write_jsonl) -> None:
    path = write_jsonl(
        [GOOD, "", "   ", {"id": "c", "human": "acknowledged", "judge": "misreport"}],
        name="labels.jsonl",
    )
    loaded = load_labels(path)
    assert loaded == [
        CalibrationRecord("a", "misreport", "misreport", "en"),
        CalibrationRecord("c", "acknowledged", "misreport", None),
    ]
    lines = read_labels(path)
    assert [(r.file, r.line) for r in lines] == [(str(path), 1), (str(path), 4)]


def test_bom_crlf_and_optional_fields(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_bytes(
        b'\xef\xbb\xbf{"id": "a", "human": "x", "judge": "y", "metric": "m", "note": "hard one",'
        b' "language": null}\r\n'
    )
    (record,) = read_labels(path)
    assert (record.id, record.human, record.judge, record.metric, record.language) == (
        "a",
        "x",
        "y",
        "m",
        None,
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "{not json",
            "invalid JSON: Expecting property name enclosed in double quotes at column 2",
        ),
        ('["a", "b"]', "expected a label object, got array"),
        ("42", "expected a label object, got number"),
        ('{"human": "x", "judge": "y"}', "field 'id': required field is missing"),
        ('{"id": "a", "judge": "y"}', "field 'human': required field is missing"),
        (
            '{"id": "a", "human": "x"}',
            "field 'judge': required field is missing (no judge was given to label the item)",
        ),
        ('{"id": 7, "human": "x", "judge": "y"}', "field 'id': must be a string, got number"),
        ('{"id": null, "human": "x", "judge": "y"}', "field 'id': must be a string, got null"),
        (
            '{"id": "a", "human": true, "judge": "y"}',
            "field 'human': must be a string, got boolean",
        ),
        ('{"id": "a", "human": "x", "judge": ["y"]}', "field 'judge': must be a string, got array"),
        (
            '{"id": "a", "human": "", "judge": "y"}',
            "field 'human': must be non-empty, without surrounding whitespace",
        ),
        (
            '{"id": " a", "human": "x", "judge": "y"}',
            "field 'id': must be non-empty, without surrounding whitespace",
        ),
        (
            '{"id": "a", "human": "x", "judge": "y", "language": ""}',
            "field 'language': must be non-empty, without surrounding whitespace",
        ),
        (
            '{"id": "a", "human": "x", "judge": "y", "language": {"code": "en"}}',
            "field 'language': must be a string, got object",
        ),
        (
            '{"id": "a", "human": "x", "judge": "y", "tool_outcomes": "timeout"}',
            "field 'tool_outcomes': must be a list of strings, got string",
        ),
        (
            '{"id": "a", "human": "x", "judge": "y", "tool_outcomes": [1]}',
            "field 'tool_outcomes': must be a list of strings, got array",
        ),
        (
            '{"id": "a", "human": "x", "judgement": "y"}',
            "field 'judgement': unknown field (did you mean 'judge'?)",
        ),
        ('{"id": "a", "human": "x", "judge": "y", "zzz": 1}', "field 'zzz': unknown field"),
    ],
)
def test_each_refusal_names_file_line_and_field(write_jsonl, line: str, message: str) -> None:
    path = write_jsonl([GOOD, "", line], name="labels.jsonl")
    problems = problems_of(path)
    assert problems[0] == f"{path}:3: {message}"


def test_every_bad_line_is_reported(write_jsonl) -> None:
    path = write_jsonl(
        ["{", GOOD, {"id": "b", "human": 1, "judge": 2}, {"id": "a", "human": "x", "judge": "y"}],
        name="labels.jsonl",
    )
    assert problems_of(path) == [
        f"{path}:1: invalid JSON: Expecting property name enclosed in double quotes at column 2",
        f"{path}:3: field 'human': must be a string, got number",
        f"{path}:3: field 'judge': must be a string, got number",
        f"{path}:4: field 'id': duplicate id 'a' (first seen at line 2)",
    ]


def test_one_file_calibrates_one_metric(write_jsonl) -> None:
    path = write_jsonl(
        [{**GOOD, "metric": "m1"}, {**GOOD, "id": "b", "metric": "m2"}, {**GOOD, "id": "c"}],
        name="labels.jsonl",
    )
    assert problems_of(path) == [
        f"{path}:2: field 'metric': 'm2' here, but 'm1' at line 1: one label file calibrates one "
        "metric",
        f"{path}:3: field 'metric': no metric here, but 'm1' at line 1: one label file calibrates "
        "one metric",
    ]


def test_missing_empty_and_undecodable_files(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    assert problems_of(missing) == [f"{missing}: file not found"]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n", encoding="utf-8")
    assert problems_of(empty) == [f"{empty}: no label records found"]
    binary = tmp_path / "bad.jsonl"
    binary.write_bytes(b'{"id": "a", "human": "x", "judge": "y"}\n{"id": "\xff"}\n')
    assert problems_of(binary) == [f"{binary}:2: not valid UTF-8 at byte 8"]


def test_line_separators_inside_strings_are_not_line_breaks(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(
        '{"id": "a", "human": "x", "judge": "y", "note": "one\u2028two\u0085three"}\n'
        '{"id": "b", "human": "x", "judge": "y"}\n',
        encoding="utf-8",
    )
    assert [r.line for r in read_labels(path)] == [1, 2]


# -- with a judge --------------------------------------------------------------------------------


def test_a_judge_labels_only_the_records_without_a_label(write_jsonl) -> None:
    path = write_jsonl(
        [GOOD, TO_JUDGE, {**TO_JUDGE, "id": "c", "answer": "The search failed, sorry."}],
        name="labels.jsonl",
    )
    judge = FakeJudge()
    loaded = load_labels(path, judge=judge, concurrency=2)
    assert [(r.id, r.human, r.judge) for r in loaded] == [
        ("a", "misreport", "misreport"),
        ("b", "misreport", "misreport"),
        ("c", "misreport", "acknowledged"),
    ]
    assert judge.calls == 2


def test_a_given_judge_label_is_kept_and_the_judge_not_called(write_jsonl) -> None:
    path = write_jsonl([{**TO_JUDGE, "judge": "unreadable"}], name="labels.jsonl")
    judge = FakeJudge()
    assert load_labels(path, judge=judge)[0].judge == "unreadable"
    assert judge.calls == 0


def test_an_unparseable_reply_becomes_a_label_of_its_own(write_jsonl) -> None:
    path = write_jsonl([TO_JUDGE], name="labels.jsonl")
    judge = FakeJudge({TO_JUDGE["answer"]: "It is a misreport."})
    assert load_labels(path, judge=judge)[0].judge == UNPARSEABLE


def test_records_to_judge_need_question_answer_and_a_judge_label_as_human(write_jsonl) -> None:
    lines = [
        {"id": "a", "human": "misreport", "answer": "none"},
        {"id": "b", "human": "misreport"},
        {**TO_JUDGE, "id": "c", "human": "wrong"},
        {**TO_JUDGE, "id": "d", "human": "wrong", "judge": "misreport"},  # not judged: any label
    ]
    path = write_jsonl(lines, name="labels.jsonl")
    assert problems_of(path, judge_available=True) == [
        f"{path}:1: field 'question': required to run the judge on an item without a 'judge' label",
        f"{path}:2: field 'question': required to run the judge on an item without a 'judge' label",
        f"{path}:2: field 'answer': required to run the judge on an item without a 'judge' label",
        f"{path}:3: field 'human': 'wrong' is not a label the judge can give "
        "(acknowledged, misreport, unreadable)",
    ]


def test_judge_records_from_async_code(write_jsonl) -> None:
    path = write_jsonl([GOOD, TO_JUDGE], name="labels.jsonl")
    records = read_labels(path, judge_available=True)
    assert records[1].request is not None
    assert records[1].request.tool_outcomes == ("search_jobs: error (timeout)",)
    result = asyncio.run(judge_records(records, FakeJudge(error_rate=1.0, seed=1)))
    assert result[0].judge == "misreport"
    assert result[1].judge != "misreport"
    with pytest.raises(ValueError, match="no judge label for 'b'"):
        records[1].record()


def test_the_bundled_example_labels_load() -> None:
    loaded = load_labels(EXAMPLE_LABELS)
    assert len(loaded) == 60
    assert {r.language for r in loaded} == {"en", "de", "es"}
    assert {r.human for r in loaded} == {"acknowledged", "misreport", "unreadable"}
    assert {r.metric for r in loaded} == {"misreport_as_empty"}
