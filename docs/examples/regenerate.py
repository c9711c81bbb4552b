"""Regenerate the rendered examples in this folder: ``python docs/examples/regenerate.py``.

Three comparisons, each rendered as the PR comment, the job summary and terminal text (and JUnit
XML for the small one), produced by the same code the gate uses:

- ``small``: 8 cases, where rates show as k/n only;
- ``medium``: the bundled demo, release 2 of the job-search agent against release 1's committed
  report (63 cases x 3 repeats);
- ``large``: 20,000 synthetic cases, where the comment has to stay under GitHub's limit.

``medium`` and ``large`` are rendered as the action renders them inside a workflow run (:data:`RUN`):
they name the artifact holding the HTML report and each flipped case links to the run's artifacts;
``small`` is rendered as ``fairwitness render`` does outside Actions, without links.

Reports are made by the real pipeline (Runner, scorers, build_report); only the run metadata
that changes from machine to machine (times, git sha, Python, platform, latencies) is pinned, so
the files change only when the rendering or the numbers do.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from fairwitness import Case, Dataset, Report, Runner, current
from fairwitness.commands.demo import CANDIDATE, FLOORS, example_dir
from fairwitness.commands.gate import gate_settings
from fairwitness.commands.run import run
from fairwitness.gate import Decision, GateSettings, decide
from fairwitness.render import (
    artifact_link,
    render_comment,
    render_junit,
    render_summary,
    render_terminal,
)
from fairwitness.report import build_report
from fairwitness.scoring import ScoreBoard

HERE = Path(__file__).resolve().parent
PINNED_TIME = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)


class _NullSink:
    def __init__(self) -> None:
        self.lines = 0

    def write(self, trace: Any) -> int:
        self.lines += 1
        return self.lines


def _pin(report: Report, sha: str) -> Report:
    """The same report with machine-dependent metadata fixed."""
    data = report.model_dump(mode="json", by_alias=True)
    data["run"].update(
        created_at=PINNED_TIME.isoformat(),
        finished_at=PINNED_TIME.isoformat(),
        git_sha=sha,
        python="3.12.0",
        platform="Linux-x86_64",
        config_hash="sha256:0000000000000000",
    )
    for case in data["cases"].values():
        for outcome in case["repeats"]:
            outcome["latency_ms"] = 1.0
    return Report.model_validate(data)


def synthetic(n: int, wrong: set[int], *, suite: str, repeats: int = 1, sha: str) -> Report:
    """``n`` routing cases; the agent answers the ones in ``wrong`` with the wrong route."""
    dataset = Dataset(
        [
            Case(
                id=f"{suite}-{i:05d}",
                input=f"question {i}",
                expect={"route": "search" if i % 3 else "salary"},
                must_pass=i == 1,
                tags=["routing"],
            )
            for i in range(n)
        ]
    )

    async def agent(case: Case) -> dict[str, str]:
        current().record_model("example-model-1")
        index = int(case.id.rsplit("-", 1)[1])
        right = case.expect.route or "search"
        return {"text": "done", "verdict": "other" if index in wrong else right}

    board = ScoreBoard()
    runner = Runner(agent, suite=suite, repeats=repeats, concurrency=64, scoring=board)
    result = asyncio.run(runner.run(dataset, _NullSink()))
    report = build_report(
        result,
        dataset,
        board=ScoreBoard(),
        target="agent:target",
        seed=0,
        repeats=repeats,
        concurrency=64,
        timeout_s=None,
        mode="live",
    )
    return _pin(report, sha)


def small() -> tuple[Report, Report, Decision]:
    base = synthetic(8, {5}, suite="small", sha="1111111aaaaaa")
    cand = synthetic(8, {2, 5, 6}, suite="small", sha="2222222bbbbbb")
    return base, cand, decide(base, cand)


def medium() -> tuple[Report, Report, Decision]:
    example = example_dir()
    with tempfile.TemporaryDirectory() as tmp:
        code = run(
            str(example / "fairwitness.toml"),
            out=tmp,
            force=True,
            target=CANDIDATE,
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
        if code != 0:
            raise SystemExit(f"the demo's candidate run failed with exit code {code}")
        cand = _pin(Report.load(Path(tmp) / "jobsearch.report.json"), "2222222bbbbbb")
    base = _pin(Report.load(example / "baseline" / "jobsearch.report.json"), "1111111aaaaaa")
    settings, _ = gate_settings(config=str(example / "fairwitness.toml"), floors=FLOORS)
    return base, cand, decide(base, cand, settings)


def large() -> tuple[Report, Report, Decision]:
    n = 20_000
    base_wrong = {i for i in range(n) if i % 50 == 7}
    cand_wrong = (base_wrong - {i for i in range(n) if i % 500 == 7}) | {
        i for i in range(n) if i % 40 == 3
    }
    base = synthetic(n, base_wrong, suite="large", sha="1111111aaaaaa")
    cand = synthetic(n, cand_wrong, suite="large", sha="2222222bbbbbb")
    return base, cand, decide(base, cand, GateSettings())


SCENARIOS = {"small": small, "medium": medium, "large": large}
RUN = ("https://github.com", "OWNER/REPO", 1234567890)
"""The workflow run the ``medium`` and ``large`` examples are rendered for."""


def render_all(dest: Path) -> list[Path]:
    """Write every example under ``dest``; return the files written."""
    written: list[Path] = []
    for name, make in SCENARIOS.items():
        base, cand, decision = make()
        link = None if name == "small" else artifact_link(*RUN, page=f"{cand.suite}.report.html")
        outputs = {
            f"{name}.comment.md": render_comment(cand, base, decision, artifact=link),
            f"{name}.summary.md": render_summary(cand, base, decision, artifact=link),
            f"{name}.terminal.txt": render_terminal(cand, base, decision),
        }
        if name == "small":
            outputs[f"{name}.junit.xml"] = render_junit(cand, base, decision)
        for filename, text in outputs.items():
            path = dest / filename
            path.write_text(text, encoding="utf-8", newline="")
            written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    for path in render_all(target):
        print(path)
