"""The light reader the gate and renderers use gives the same decisions as the full reader and
refuses the same bad files, naming file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builders import CRASH, FAIL, PASS, build, plan_of
from fairwitness.errors import ReportError
from fairwitness.gate import decide
from fairwitness.render import render_comment, render_junit
from fairwitness.report import Report
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
    assert lite.to_dict() == full.to_dict()
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
