"""The action's entrypoint: gate a 20,000-case report and post the comment, end to end.

Two reports of 20,000 cases (one repeat; the candidate drops 2.5 points) are built by the real
pipeline and saved in a workspace. ``entrypoint.py`` then runs as the container would: a fresh
process with the runner's environment on a ``pull_request`` event, ``report:`` set (so no suite
runs) and ``baseline:`` a path. It loads both reports, gates, renders the comment and the job
summary, posts the comment to a fake GitHub REST server on loopback, and writes the outputs.

a. Wall time of that process, median of 3 runs; target 2 s.
b. Informational: ``python -c "import fairwitness"`` in the same environment, the floor of any
   entrypoint run (median of 3).

Run with ``benchmarks/run --only action``.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _rows import row

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))

COMMAND = "benchmarks/run --only action"
CASES = 20_000
QUICK_CASES = 2_000
REPEATS = 3


class _Sink:
    def __init__(self) -> None:
        self.lines = 0

    def write(self, trace: Any) -> int:
        self.lines += 1
        return self.lines


def _report(n: int, wrong: set[int]) -> Any:
    from fairwitness import Case, Dataset, Runner, current
    from fairwitness.report import build_report
    from fairwitness.scoring import ScoreBoard

    data = Dataset([Case(id=f"c{i:05d}", input=f"q{i}", expect={"route": "yes"}) for i in range(n)])

    async def agent(case: Case) -> dict[str, str]:
        current().record_model("bench-model")
        return {"text": "ok", "verdict": "no" if int(case.id[1:]) in wrong else "yes"}

    runner = Runner(agent, suite="bench", repeats=1, concurrency=64, scoring=ScoreBoard())
    result = asyncio.run(runner.run(data, _Sink()))
    return build_report(
        result,
        data,
        board=ScoreBoard(),
        target="bench:agent",
        seed=0,
        repeats=1,
        concurrency=64,
        timeout_s=None,
        mode="live",
    )


def _event(folder: Path) -> Path:
    payload = json.loads(
        (ROOT / "tests/fixtures/github/webhooks/pull_request.opened.payload.json").read_text(
            "utf-8"
        )
    )
    path = folder / "event.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def _time(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise RuntimeError(f"entrypoint failed ({done.returncode}): {done.stdout}{done.stderr}")
    return elapsed


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    from github_fake import BOT, TOKEN, FakeGitHub

    n = QUICK_CASES if quick else CASES
    with tempfile.TemporaryDirectory() as tmp, FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        folder = Path(tmp)
        workspace = folder / "workspace"
        workspace.mkdir()
        _report(n, set(range(0, n, 50))).save(workspace / "base.report.json")
        _report(n, set(range(0, n, 50)) | set(range(3, n, 40))).save(workspace / "cand.report.json")
        event = _event(folder)
        payload = json.loads(event.read_text("utf-8"))
        repo = payload["repository"]["full_name"]
        number = payload["number"]
        env = {
            k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "FW_", "RUNNER_"))
        }
        env.update(
            GITHUB_EVENT_NAME="pull_request",
            GITHUB_EVENT_PATH=str(event),
            GITHUB_REPOSITORY=repo,
            GITHUB_API_URL=fake.api_url,
            GITHUB_WORKSPACE=str(workspace),
            GITHUB_OUTPUT=str(folder / "output"),
            GITHUB_STEP_SUMMARY=str(folder / "summary"),
            RUNNER_TEMP=str(folder),
            FW_GITHUB_TOKEN=TOKEN,
            FW_REPORT="cand.report.json",
            FW_BASELINE="base.report.json",
        )
        entry = [sys.executable, str(ROOT / "entrypoint.py")]
        times = [_time(entry, env, workspace) for _ in range(REPEATS)]
        comments = fake.comments_of(repo, number)
        if len(comments) != 1:
            raise RuntimeError(f"expected one sticky comment, found {len(comments)}")
        floor = [
            _time([sys.executable, "-c", "import fairwitness"], env, workspace)
            for _ in range(REPEATS)
        ]
    value = statistics.median(times)
    return [
        row(
            f"action entrypoint: gate {n:,}-case reports, render, post the sticky comment to a "
            f"loopback server (median of {REPEATS} processes)",
            value,
            "s",
            2.0,
            value <= 2.0,
            COMMAND,
            digits=3,
        ),
        row(
            "informational: python -c 'import fairwitness' in the same environment (floor)",
            statistics.median(floor),
            "s",
            None,
            None,
            COMMAND,
            digits=3,
        ),
    ]
