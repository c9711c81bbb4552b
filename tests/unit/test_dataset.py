from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairwitness.dataset import Case, Dataset
from fairwitness.errors import DatasetError

GOOD = {"id": "a", "input": "jobs in Pune", "expect": {"route": "search"}}


def test_loads_cases_with_locations(write_jsonl) -> None:
    path = write_jsonl(
        [GOOD, "", {"id": "b", "input": {"messages": [{"role": "user", "content": "hi"}]}}]
    )
    dataset = Dataset.load(path)
    assert [c.id for c in dataset] == ["a", "b"]
    assert dataset.location("b") == (str(path), 3)
    assert dataset.cases[1].text == "hi"
    assert dataset.cases[0].expect.route == "search"
    assert dataset.cases[0].expect.first_tool is None  # absent stays absent, never False


def test_malformed_line_names_file_and_line(write_jsonl) -> None:
    path = write_jsonl([GOOD, '{"id": "b", "input": "x"', {"id": "c", "input": "y"}])
    with pytest.raises(DatasetError) as caught:
        Dataset.load(path)
    assert caught.value.exit_code == 4
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:2: invalid JSON: Expecting ',' delimiter at column 25"
    ]


def test_every_bad_line_is_reported_with_its_field(write_jsonl) -> None:
    path = write_jsonl(
        [
            {"id": "a", "input": "x", "expect": {"rout": "search"}},
            {"id": "", "input": "x"},
            {"input": "x"},
            {"id": "d", "input": 5},
            {"id": "e", "input": "x", "faults": [{"tool": "t", "kind": "explode"}]},
            {"id": "f", "input": "x", "faults": [{"tool": "t", "kind": "latency"}]},
        ]
    )
    with pytest.raises(DatasetError) as caught:
        Dataset.load(path)
    lines = [str(p) for p in caught.value.problems]
    assert lines[0] == f"{path}:1: field 'expect.rout': unknown field"
    assert lines[1].startswith(f"{path}:2: field 'id': String should have at least 1 character")
    assert lines[2] == f"{path}:3: field 'id': required field is missing"
    assert lines[3].startswith(f"{path}:4: field 'input': must be a string or an object")
    assert lines[4].startswith(f"{path}:5: field 'faults[0].kind': Input should be")
    assert (
        lines[5]
        == f"{path}:6: field 'faults[0].latency_ms': Value error, a latency fault needs latency_ms"
    )
    assert len(lines) == 6


def test_json_array_instead_of_jsonl_is_named(write_jsonl, tmp_path: Path) -> None:
    one_line = write_jsonl([json.dumps([GOOD, GOOD])])
    with pytest.raises(DatasetError) as caught:
        Dataset.load(one_line)
    assert "JSON array" in str(caught.value) and "one case object per line" in str(caught.value)
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps([GOOD], indent=2), encoding="utf-8")
    with pytest.raises(DatasetError) as caught:
        Dataset.load(pretty)
    assert f"{pretty}:1:" in str(caught.value.problems[0])
    assert "looks like a JSON array" in str(caught.value.problems[0])


def test_duplicate_ids_are_refused_with_both_places(write_jsonl) -> None:
    path = write_jsonl([GOOD, {"id": "b", "input": "x"}, GOOD])
    with pytest.raises(DatasetError) as caught:
        Dataset.load(path)
    assert str(caught.value) == f"{path}:3: field 'id': duplicate id 'a' (first seen at {path}:1)"


def test_duplicate_ids_across_files(write_jsonl) -> None:
    first = write_jsonl([GOOD], name="one.jsonl")
    second = write_jsonl([GOOD], name="two.jsonl")
    with pytest.raises(DatasetError, match="duplicate id 'a'"):
        Dataset.load(first, second)


def test_a_case_naming_another_suite_is_refused_for_this_suite(write_jsonl) -> None:
    path = write_jsonl(
        [
            {**GOOD, "suite": "jobs"},
            {"id": "b", "input": "x", "suite": "billing"},
            {"id": "c", "input": "y"},
        ]
    )
    assert [c.id for c in Dataset.load(path)] == ["a", "b", "c"]  # no suite asked: all load
    with pytest.raises(DatasetError) as caught:
        Dataset.load(path, suite="jobs")
    assert caught.value.exit_code == 4
    assert [str(p) for p in caught.value.problems] == [
        f"{path}:2: field 'suite': case 'b' belongs to suite 'billing', "
        "but this file is loaded for suite 'jobs'"
    ]


def test_splits_on_newline_only(tmp_path: Path) -> None:
    # U+2028, U+2029 and U+0085 are valid inside JSON strings; str.splitlines() would break them.
    text = "jobs\u2028in\u0085Pune\u2029now\x0bplease\x1c"
    path = tmp_path / "cases.jsonl"
    path.write_text(
        json.dumps({"id": "a", "input": text}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    dataset = Dataset.load(path)
    assert dataset.cases[0].input == text


def test_crlf_line_endings_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes(
        b"\xef\xbb\xbf" + json.dumps(GOOD).encode() + b"\r\n" + b'{"id":"b","input":"y"}\r\n'
    )
    assert [c.id for c in Dataset.load(path)] == ["a", "b"]


def test_invalid_utf8_is_a_located_problem(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_bytes(json.dumps(GOOD).encode() + b"\n" + b'{"id": "b", "input": "\xff"}\n')
    with pytest.raises(DatasetError, match=r"cases.jsonl:2: not valid UTF-8"):
        Dataset.load(path)


def test_missing_file_and_empty_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="file not found"):
        Dataset.load(tmp_path / "nope.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="no cases found"):
        Dataset.load(empty)


def test_scalar_line_is_refused(write_jsonl) -> None:
    with pytest.raises(DatasetError, match="expected a case object, got str"):
        Dataset.load(write_jsonl(['"just a string"']))


def test_split_hash_ignores_order_and_sees_content(write_jsonl) -> None:
    a = {"id": "a", "input": "x"}
    b = {"id": "b", "input": "y", "faults": [{"tool": "t", "kind": "timeout"}]}
    forward = Dataset.load(write_jsonl([a, b], name="f.jsonl")).split_hash()
    backward = Dataset.load(write_jsonl([b, a], name="r.jsonl")).split_hash()
    changed = Dataset.load(write_jsonl([a, {**b, "input": "z"}], name="c.jsonl")).split_hash()
    assert forward == backward
    assert forward != changed
    assert forward.startswith("sha256:") and len(forward) == len("sha256:") + 64


def test_split_hash_is_stable_across_releases() -> None:
    # Pinned: a change here would make every saved baseline incomparable.
    dataset = Dataset(
        [
            Case(id="a", input="x"),
            Case(
                id="b",
                input={"messages": [{"role": "user", "content": "hi"}]},
                faults=[{"tool": "t", "kind": "timeout"}],
            ),
        ]
    )
    assert (
        dataset.split_hash()
        == "sha256:cff868c635804f097c937fa3c04c0e597a42b2151c2f6bdf42548da764d77c9e"
    )


def test_agent_fingerprint_ignores_expectations() -> None:
    base = Case(id="a", input="x", expect={"route": "r1"})
    other_expect = Case(id="a", input="x", expect={"route": "r2"}, tags=["t"])
    other_input = Case(id="a", input="y")
    assert base.agent_fingerprint() == other_expect.agent_fingerprint()
    assert base.agent_fingerprint() != other_input.agent_fingerprint()
    assert base.fingerprint() != other_expect.fingerprint()


def test_dataset_constructor_refuses_duplicates() -> None:
    with pytest.raises(DatasetError, match="duplicate case ids: a"):
        Dataset([Case(id="a", input="x"), Case(id="a", input="y")])


def test_id_with_surrounding_whitespace_is_refused(write_jsonl) -> None:
    with pytest.raises(DatasetError, match="field 'id'"):
        Dataset.load(write_jsonl([{"id": " a", "input": "x"}]))


def test_the_bundled_example_is_valid() -> None:
    root = Path(__file__).resolve().parents[2]
    dataset = Dataset.load(root / "examples" / "jobsearch" / "cases.jsonl")
    assert 55 <= len(dataset) <= 65
    assert sum(1 for c in dataset if c.faults) >= 10
    assert any(c.must_pass for c in dataset)
