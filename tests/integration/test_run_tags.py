"""`fairwitness run --tag T / --exclude-tag T` through the CLI in a real project: which cases run,
unknown tags refused before anything runs, the selection recorded and enforced by the gate, and
shards of a selection merged into the unsharded selection's report."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fairwitness import Report
from fairwitness.cli import main

pytestmark = pytest.mark.integration

CASES = [
    {"id": "a1", "input": "q1", "tags": ["alpha"]},
    {"id": "a2", "input": "q2", "tags": ["alpha", "slow"]},
    {"id": "b1", "input": "q3", "tags": ["beta"]},
    {"id": "b2", "input": "q4", "tags": ["beta", "slow"]},
    {"id": "n1", "input": "q5"},
]
VOLATILE = re.compile(
    r'("created_at":"[^"]*"|"finished_at":"[^"]*"|"latency_ms":[0-9.eE+-]+|"trace_line":\d+)'
)


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize(
    ("flags", "ran"),
    [
        (["--tag", "alpha"], ["a1", "a2"]),
        (["--tag", "alpha", "--tag", "beta"], ["a1", "a2", "b1", "b2"]),
        (["--exclude-tag", "slow"], ["a1", "b1", "n1"]),
        (["--tag", "beta", "--exclude-tag", "slow"], ["b1"]),
    ],
)
def test_tags_select_the_cases_that_run(project, capsys, flags: list[str], ran: list[str]) -> None:
    p = project(CASES)
    assert main(["run", str(p.config), *flags]) == 0
    report = Report.load(p.report)
    assert list(report.cases) == ran
    assert report.selection is not None
    assert (report.selection.cases, report.selection.dataset_cases) == (len(ran), 5)
    whole = p.root / "whole"
    assert main(["run", str(p.config), "--out", str(whole)]) == 0
    saved = whole / "s.report.json"
    assert Report.load(saved).split_hash == report.split_hash  # the dataset's, not the slice's
    assert "selection" not in json.loads(saved.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ["--tag", "gamma"],
            "fairwitness: error: --tag: no case has the tag 'gamma'; known tags: 'alpha', "
            "'beta', 'slow'",
        ),
        (
            ["--exclude-tag", "alpha", "--exclude-tag", "nope"],
            "fairwitness: error: --exclude-tag: no case has the tag 'nope'; known tags: 'alpha', "
            "'beta', 'slow'",
        ),
        (
            ["--tag", "alpha", "--exclude-tag", "alpha"],
            "fairwitness: error: --tag/--exclude-tag: no case is left to run by this selection",
        ),
    ],
)
def test_an_unknown_tag_is_a_usage_error_before_anything_runs(
    project, capsys, flags: list[str], message: str
) -> None:
    p = project(CASES)
    capsys.readouterr()
    assert main(["run", str(p.config), *flags]) == 4
    assert one_error_line(capsys.readouterr().err) == message
    assert not p.out.exists()


def test_the_gate_refuses_a_filtered_run_against_an_unfiltered_baseline(
    project, capsys, tmp_path: Path
) -> None:
    p = project(CASES)
    assert main(["run", str(p.config), "--out", str(tmp_path / "all")]) == 0
    assert main(["run", str(p.config), "--tag", "alpha", "--out", str(tmp_path / "alpha")]) == 0
    assert main(["run", str(p.config), "--tag", "alpha", "--out", str(tmp_path / "again")]) == 0
    capsys.readouterr()
    whole, alpha, again = (str(tmp_path / d / "s.report.json") for d in ("all", "alpha", "again"))
    assert main(["gate", whole, alpha, "--max-unpaired", "5"]) == 4
    out = capsys.readouterr().out
    (line,) = [line for line in out.splitlines() if "field 'selection' differs" in line]
    assert "has 'every case'" in line and "has 'tagged alpha'" in line
    assert "split_hash" not in out
    assert main(["gate", alpha, again]) == 0


def test_shards_of_a_selection_merge_into_the_selections_report(project, capsys) -> None:
    p = project(CASES * 1 + [{"id": f"m{i}", "input": f"m{i}", "tags": ["beta"]} for i in range(8)])
    out = p.root / "runs"
    for mode, extra in (("record", []), ("replay", [])):
        assert (
            main(
                [
                    "run",
                    str(p.config),
                    "--mode",
                    mode,
                    "--tag",
                    "beta",
                    "--out",
                    str(out / mode),
                    *extra,
                ]
            )
            == 0
        )
    for i in (1, 2, 3):
        assert (
            main(
                [
                    "run",
                    str(p.config),
                    "--mode",
                    "replay",
                    "--tag",
                    "beta",
                    "--shard",
                    f"{i}/3",
                    "--out",
                    str(out / "shards"),
                ]
            )
            == 0
        )
    merged = out / "merged" / "s.report.json"
    shards = sorted(str(f) for f in (out / "shards").glob("*.shard-*.report.json"))
    assert main(["merge", *shards, "--out", str(merged)]) == 0
    whole = out / "replay" / "s.report.json"
    assert VOLATILE.sub("<>", merged.read_text(encoding="utf-8")) == VOLATILE.sub(
        "<>", whole.read_text(encoding="utf-8")
    )
    report = Report.load(merged)
    assert report.selection is not None and report.selection.cases == 10
    assert report.metrics["route"].by_tag.keys() == {"beta", "slow"} or report.metrics
