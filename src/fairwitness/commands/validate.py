"""``fairwitness validate PATH...``: check datasets, configs, reports and trace files."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from fairwitness.config import load_config
from fairwitness.dataset import Dataset
from fairwitness.errors import EXIT_INVALID, EXIT_OK, FairwitnessError
from fairwitness.judge import check_judge_metrics, judge_price
from fairwitness.report import Report
from fairwitness.trace.sink import read_traces


def _kind(path: Path) -> str:
    if path.suffix == ".toml":
        return "config"
    if path.suffix == ".json":
        return "report"
    try:
        with open(path, "rb") as handle:
            head = handle.readline(4096)
    except OSError:
        return "dataset"
    return "traces" if b'"fairwitness.trace/' in head else "dataset"


def _check(path: Path, suite: str | None) -> str:
    kind = _kind(path)
    if kind == "config":
        loaded = load_config(path)
        check_judge_metrics(loaded)
        judge_price(loaded)
        return f"config, {len(loaded.config.suites)} suite(s), target {loaded.config.target}"
    if kind == "report":
        report = Report.load(path)
        state = "complete" if report.complete else f"INCOMPLETE ({report.incomplete_reason})"
        return f"report, suite {report.suite}, {report.counts.cases} cases, {state}"
    if kind == "traces":
        count = sum(1 for _ in read_traces(path))
        return f"traces, {count} trace(s)"
    dataset = Dataset.load(path, suite=suite)
    return f"dataset, {len(dataset)} cases, split hash {dataset.split_hash()}"


def validate(
    paths: list[str],
    *,
    suite: str | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Check each file; one line per problem on stderr, one ``ok`` line per good file on stdout.

    With ``suite``, a dataset's cases that name another suite in their ``suite`` field are
    problems, as ``fairwitness run`` refuses them for that suite."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    exit_code = EXIT_OK
    for name in paths:
        try:
            summary = _check(Path(name), suite)
        except FairwitnessError as exc:
            for problem in exc.problems:
                stderr.write(f"{problem}\n")
            exit_code = EXIT_INVALID
        else:
            stdout.write(f"ok: {name}: {summary}\n")
    return exit_code
