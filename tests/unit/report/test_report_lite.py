"""The light reader the gate and renderers use gives the same decisions as the full reader and
refuses the same bad files, naming file, line and field."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from builders import CRASH, FAIL, PASS, build, plan_of
from fairwitness.errors import ReportError
from fairwitness.gate import audit_report, decide
from fairwitness.render import render_comment, render_junit
from fairwitness.report import Report
from fairwitness.report._shapes import Shapes
from fairwitness.report.lite import CaseView, load_for_decision

BASE = build(plan_of(60, lambda i: [PASS, PASS, PASS]), must_pass=["c5"])
CAND = build(
    plan_of(60, lambda i: [CRASH, FAIL, FAIL] if i < 14 else [PASS, FAIL, PASS]),
    must_pass=["c5"],
)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    base, cand = tmp_path / "base.report.json", tmp_path / "cand.report.json"
    BASE.save(base)
    CAND.save(cand)
    return base, cand


def test_decisions_and_renderings_match_the_full_reader(files: tuple[Path, Path]) -> None:
    base, cand = files
    full = decide(Report.load(base), Report.load(cand))
    lite_base, lite_cand = load_for_decision(base), load_for_decision(cand)
    assert isinstance(next(iter(lite_cand.cases.values())), CaseView)
    lite = decide(lite_base, lite_cand)
    assert lite.json_data() == full.json_data()
    assert render_comment(lite_cand, lite_base, lite) == render_comment(
        Report.load(cand), Report.load(base), full
    )
    assert render_junit(lite_cand, lite_base, lite) == render_junit(
        Report.load(cand), Report.load(base), full
    )


def test_repeats_that_read_alike_are_shared(files: tuple[Path, Path]) -> None:
    report = load_for_decision(files[0])
    firsts = {id(case.repeats[0]) for case in report.cases.values()}
    assert len(firsts) == 1  # sixty cases, one view of "repeat 0 passed"


def _line_of(path: Path, case_id: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith(f'  "{case_id}": '):
            return number
    raise AssertionError(case_id)


def test_a_bad_case_line_is_refused_with_file_line_and_field(files: tuple[Path, Path]) -> None:
    path = files[1]
    text = path.read_text(encoding="utf-8")
    line = _line_of(path, "c0")  # the first crashed repeat
    path.write_text(text.replace('"status":"crashed"', '"status":"exploded"', 1), "utf-8")
    with pytest.raises(ReportError) as err:
        load_for_decision(path)
    assert str(err.value).startswith(f"{path}:{line}: field 'cases.c0.repeats[0].status': ")


def test_truncated_and_hand_edited_files_fall_back_to_the_full_reader(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    path = files[1]
    text = path.read_text(encoding="utf-8")
    cut = tmp_path / "cut.report.json"
    cut.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(ReportError, match="truncated"):
        load_for_decision(cut)
    pretty = tmp_path / "pretty.report.json"
    pretty.write_text(json.dumps(json.loads(text), indent=2), encoding="utf-8")
    assert load_for_decision(pretty).to_json() == Report.load(path).to_json()
    with pytest.raises(ReportError, match="not found"):
        load_for_decision(tmp_path / "nope.json")


def test_reading_pauses_the_cycle_collector_and_always_restores_it(
    files: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    import fairwitness.report.lite as lite

    seen: list[bool] = []
    original = lite._case

    def spying(*args: object) -> CaseView:
        seen.append(gc.isenabled())
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(lite, "_case", spying)
    assert gc.isenabled()
    load_for_decision(files[0])
    assert seen and not any(seen)  # paused while the cases were read
    assert gc.isenabled()
    bad = tmp_path / "bad.report.json"
    bad.write_text(
        files[1].read_text(encoding="utf-8").replace('"status":"crashed"', '"status":"x"', 1),
        encoding="utf-8",
    )
    with pytest.raises(ReportError):
        load_for_decision(bad)
    assert gc.isenabled()  # restored after a refusal too
    gc.disable()
    try:
        load_for_decision(files[0])
        assert not gc.isenabled()  # a caller's own pause is left as it was
    finally:
        gc.enable()


# -- lines of one shape (report/_shapes.py) -------------------------------------------------------


@pytest.fixture
def readers(monkeypatch: pytest.MonkeyPatch) -> list[Shapes[Any]]:
    """The shape readers made while the test runs (one per report read light)."""
    made: list[Shapes[Any]] = []
    original = Shapes.__init__

    def keep(self: Shapes[Any], *args: Any) -> None:
        original(self, *args)
        made.append(self)

    monkeypatch.setattr(Shapes, "__init__", keep)
    return made


def _same_cases(light: Report, full: Report) -> None:
    """Every case reads alike through both readers, field by field."""
    assert list(light.cases) == list(full.cases)
    for case_id, case in full.cases.items():
        view = light.cases[case_id]
        assert (view.must_pass, view.tags, view.faults) == (case.must_pass, case.tags, case.faults)
        assert (view.scores, view.excluded, view.unstable) == (
            case.scores,
            case.excluded,
            case.unstable,
        )
        assert view.latencies == tuple(o.latency_ms for o in case.repeats)  # type: ignore[attr-defined]
        assert [
            (o.repeat, o.variant, o.status, o.verdict, o.error, o.scores) for o in view.repeats
        ] == [(o.repeat, o.variant, o.status, o.verdict, o.error, o.scores) for o in case.repeats]


def _edit_lines(path: Path, change: Callable[[str, str], str]) -> None:
    """Rewrite each case line (``change(case_id, line)``), keeping the file's layout."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if line.startswith('  "'):
            lines[i] = change(line[3 : line.index('": ')], line)
    path.write_text("\n".join(lines), encoding="utf-8")


def test_lines_of_a_known_shape_read_as_the_full_reader_reads_them(
    files: tuple[Path, Path], readers: list[Shapes[Any]]
) -> None:
    for path in files:
        _same_cases(load_for_decision(path), Report.load(path))
    base, cand = readers
    # the must-pass case c5 has a shape of its own; the other lines share one (two in CAND)
    assert (len(base.proven), base.misses) == (1, 2)
    assert (len(cand.proven), cand.misses) == (2, 3)


def test_latencies_written_in_any_json_form_are_read_exactly(
    files: tuple[Path, Path], readers: list[Shapes[Any]]
) -> None:
    path = files[0]
    forms = ["0", "12", "0.5", "1e-05", "2.5E+3", "123456789.123456789", "7e400", "-3", '"4.5"']

    def change(case_id: str, line: str) -> str:
        i = int(case_id[1:])
        return re.sub(r'"latency_ms":[^,]*', f'"latency_ms":{forms[i % len(forms)]}', line)

    _edit_lines(path, change)
    _same_cases(load_for_decision(path), Report.load(path))
    (reader,) = readers
    assert reader.proven  # the numbers the slots take are read from the line


def test_a_bad_line_of_a_known_shape_is_still_refused(files: tuple[Path, Path]) -> None:
    path = files[0]
    line = _line_of(path, "c40")  # sixty lines of one shape: c40's is long proven

    def change(case_id: str, text: str) -> str:
        return (
            re.sub(r'"latency_ms":[^,]*', '"latency_ms":"soon"', text) if case_id == "c40" else text
        )

    _edit_lines(path, change)
    with pytest.raises(ReportError) as err:
        load_for_decision(path)
    assert str(err.value).startswith(
        f"{path}:{line}: field 'cases.c40.repeats[0].latency_ms': Input should be a valid number"
    )


def test_a_metric_named_like_a_slot_keeps_its_own_value(
    files: tuple[Path, Path], readers: list[Shapes[Any]]
) -> None:
    """A score called latency_ms or trace_line sits where a shape's slots are looked for: the
    shape is not proven, and every such line is read in full."""
    path = files[0]

    def change(case_id: str, line: str) -> str:
        i = int(case_id[1:])
        return line.replace(
            '"scores":{"route":1.0}', f'"scores":{{"route":1.0,"latency_ms":{i},"trace_line":{i}}}'
        )

    _edit_lines(path, change)
    light = load_for_decision(path)
    _same_cases(light, Report.load(path))
    assert light.cases["c7"].repeats[0].scores == {
        "route": 1.0,
        "latency_ms": 7.0,
        "trace_line": 7.0,
    }
    (reader,) = readers
    assert not reader.proven and reader.misses == 60


def test_escaped_case_ids_are_read_with_their_lines(files: tuple[Path, Path]) -> None:
    path = files[0]
    names = {"c1": 'c\\"1', "c2": "c\\\\2", "c3": "c\\u00e93", "c4": "\u00e9t\u00e9"}

    def change(case_id: str, line: str) -> str:
        return (
            line.replace(f'"{case_id}": ', f'"{names[case_id]}": ', 1) if case_id in names else line
        )

    _edit_lines(path, change)
    light = load_for_decision(path)
    _same_cases(light, Report.load(path))
    assert {'c"1', "c\\2", "c\u00e93", "\u00e9t\u00e9"} <= set(light.cases)


def test_a_report_of_all_different_lines_stops_looking_for_shapes(
    files: tuple[Path, Path], readers: list[Shapes[Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    import fairwitness.report._shapes as shapes

    monkeypatch.setattr(shapes, "MAX_SHAPES", 4)
    path = files[0]
    _edit_lines(
        path, lambda case_id, line: line.replace('"verdict":"yes"', f'"verdict":"{case_id}"')
    )
    _same_cases(load_for_decision(path), Report.load(path))
    (reader,) = readers
    assert not reader.looking and reader.lines == 4 and not reader.proven


def test_the_audit_of_a_light_report_is_the_audit_of_the_full_one(files: tuple[Path, Path]) -> None:
    """Shared repeats and score maps are checked once and counted; the totals and the problems
    found are exactly those of the full reader, fractional values included."""
    path = files[1]

    def change(case_id: str, line: str) -> str:
        i = int(case_id[1:])
        return line.replace(
            '"scores":{"route":1.0},"excluded"', f'"scores":{{"route":0.{i % 7}}},"excluded"'
        )

    _edit_lines(path, change)
    light, full = audit_report(load_for_decision(path), "x"), audit_report(Report.load(path), "x")
    assert light.totals == full.totals and light.problems == full.problems
    assert "disagrees with the case's repeats (majority) in 46 case(s)" in light.problems[0]
