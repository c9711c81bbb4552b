"""Sharded runs: a 4-shard run of the bundled example, merged, equals the unsharded run of the
same replayed traces; every way shards can fail to be one run is refused."""

from __future__ import annotations

import io
import json
import random
import re
import shutil
from pathlib import Path

import pytest

from fairwitness.cli import main
from fairwitness.commands.run import run
from fairwitness.dataset import assign_shards
from fairwitness.report import Report

pytestmark = pytest.mark.integration

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "jobsearch"
# Fields that record time or file layout, the only ones a merge may change (see the merge docs).
VOLATILE = re.compile(
    r'("created_at":"[^"]*"|"finished_at":"[^"]*"|"latency_ms":[0-9.eE+-]+|"trace_line":\d+)'
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("shards")
    project = root / "project"
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns("baseline", "fairwitness-out"))
    config = str(project / "fairwitness.toml")
    quiet = {"stdout": io.StringIO(), "stderr": io.StringIO()}
    assert run(config, mode="record", out=str(root / "recorded"), **quiet) == 0
    assert run(config, mode="replay", out=str(root / "whole"), **quiet) == 0
    for i in range(1, 5):
        assert run(config, mode="replay", shard=f"{i}/4", out=str(root / "shards"), **quiet) == 0
    return {
        "root": root,
        "config": Path(config),
        "whole": root / "whole" / "jobsearch.report.json",
        "shards": root / "shards",
    }


def shard_files(runs: dict[str, Path]) -> list[str]:
    return sorted(str(p) for p in runs["shards"].glob("*.shard-*-of-4.report.json"))


def test_four_merged_shards_equal_the_unsharded_run(runs: dict[str, Path], capsys) -> None:
    out = runs["root"] / "merged" / "jobsearch.report.json"
    assert main(["merge", *shard_files(runs), "--out", str(out)]) == 0
    merged_text = out.read_text(encoding="utf-8")
    whole_text = runs["whole"].read_text(encoding="utf-8")
    assert VOLATILE.sub("<>", merged_text) == VOLATILE.sub("<>", whole_text)
    merged = Report.load(out)
    assert merged.shard is None and merged.counts.cases == 63 and merged.counts.replayed == 189
    sizes = [len(Report.load(p).cases) for p in shard_files(runs)]
    assert sorted(sizes) == [15, 16, 16, 16]
    # the merged trace file holds every trial, and each outcome points at its own trace
    traces = (out.parent / "jobsearch.traces.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(traces) == 189
    for case_id, case in merged.cases.items():
        for outcome in case.repeats:
            assert outcome.trace_line is not None
            trace = json.loads(traces[outcome.trace_line - 1])
            assert (trace["case_id"], trace["repeat"]) == (case_id, outcome.repeat)


def test_a_merged_run_gates_and_a_shard_does_not(runs: dict[str, Path], capsys) -> None:
    out = runs["root"] / "merged2" / "jobsearch.report.json"
    assert main(["merge", *shard_files(runs), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["gate", str(runs["whole"]), str(out)]) == 0
    assert main(["gate", str(runs["whole"]), shard_files(runs)[0]]) == 4
    assert "merge every shard first" in capsys.readouterr().out


def _refused(args: list[str], capsys) -> str:
    code = main(["merge", *args])
    err = capsys.readouterr().err
    assert code == 4, err
    return err


def test_missing_and_overlapping_shards_are_refused(
    runs: dict[str, Path], capsys, tmp_path
) -> None:
    files = shard_files(runs)
    out = str(tmp_path / "m.report.json")
    assert "missing shard(s) 3/4" in _refused([*files[:2], files[3], "--out", out], capsys)
    twice = tmp_path / "again.report.json"
    shutil.copy(files[0], twice)
    assert "shard 1/4 given twice" in _refused([*files, str(twice), "--out", out], capsys)
    assert not Path(out).exists()


def _edited(path: str, dest: Path, old: str, new: str) -> str:
    text = Path(path).read_text(encoding="utf-8")
    assert old in text
    dest.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(dest)


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('"seed":20261130', '"seed":7', "run.seed"),
        ('"tool_version":"', '"tool_version":"9.9.9+', "run.tool_version"),
        ('"config_hash":"sha256:', '"config_hash":"sha256:ff', "run.config_hash"),
        ('"split_hash": "sha256:', '"split_hash": "sha256:00', "split_hash"),
    ],
)
def test_shards_of_different_runs_are_refused(
    runs: dict[str, Path], capsys, tmp_path: Path, old: str, new: str, field: str
) -> None:
    files = shard_files(runs)
    files[2] = _edited(files[2], tmp_path / "odd.shard-3-of-4.report.json", old, new)
    err = _refused([*files, "--out", str(tmp_path / "m.report.json")], capsys)
    assert f"differ in {field}" in err and "odd.shard-3-of-4.report.json" in err


def test_a_shard_of_another_dataset_is_refused(runs: dict[str, Path], capsys, tmp_path) -> None:
    project = tmp_path / "other"
    shutil.copytree(runs["config"].parent, project)
    cases = project / "cases.jsonl"
    cases.write_text(cases.read_text(encoding="utf-8").replace("Pune", "Poona", 1), "utf-8")
    quiet = {"stdout": io.StringIO(), "stderr": io.StringIO()}
    run(str(project / "fairwitness.toml"), shard="2/4", out=str(tmp_path / "s"), **quiet)
    files = shard_files(runs)
    files[1] = str(tmp_path / "s" / "jobsearch.shard-2-of-4.report.json")
    err = _refused([*files, "--out", str(tmp_path / "m.report.json")], capsys)
    assert "differ in split_hash" in err


def test_only_unedited_shard_reports_are_merged(runs: dict[str, Path], capsys, tmp_path) -> None:
    files = shard_files(runs)
    pretty = tmp_path / "pretty.report.json"
    pretty.write_text(json.dumps(json.loads(Path(files[0]).read_text("utf-8")), indent=4), "utf-8")
    err = _refused([str(pretty), *files[1:], "--out", str(tmp_path / "m.report.json")], capsys)
    assert "not a report as fairwitness writes it" in err
    err = _refused([str(runs["whole"]), "--out", str(tmp_path / "m.report.json")], capsys)
    assert "not a shard report" in err


def test_assignment_is_balanced_and_independent_of_order() -> None:
    ids = [f"case-{i}" for i in range(1000)]
    owners = assign_shards(ids, 4)
    sizes = [sum(1 for v in owners.values() if v == s) for s in range(1, 5)]
    assert max(sizes) - min(sizes) <= 1
    shuffled = ids[:]
    random.Random(3).shuffle(shuffled)
    assert assign_shards(shuffled, 4) == owners
    for total in (2, 3, 7, 16):
        counts = [0] * total
        for shard in assign_shards(ids, total).values():
            counts[shard - 1] += 1
        assert max(counts) <= 1.05 * (len(ids) / total)


def test_a_truncated_shard_is_refused(runs: dict[str, Path], capsys, tmp_path: Path) -> None:
    files = shard_files(runs)
    cut = tmp_path / "cut.shard-4-of-4.report.json"
    data = Path(files[3]).read_bytes()
    cut.write_bytes(data[:-40])  # inside the last case's line
    err = _refused([*files[:3], str(cut), "--out", str(tmp_path / "m.report.json")], capsys)
    assert "report is truncated (cut short)" in err
