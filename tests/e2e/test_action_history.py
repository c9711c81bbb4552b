"""``history: N``: the action fetches the report artifacts of the base branch's last N
successful push runs through the REST API (the fake GitHub pages them, marks expired artifacts
and answers 410 on their download, as GitHub does) and shows each gated metric's trend; a trend
that cannot be fetched is a note, never a different exit code."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from action_world import BASELINE_REPORT, World, zipped

from github_fake import BOT, TOKEN, FakeGitHub
from markdown_check import check

pytestmark = pytest.mark.e2e


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        yield World(tmp_path, fake)


def _earlier(hours: int, sha: str) -> bytes:
    """The committed baseline report as if made ``hours`` earlier on commit ``sha``."""
    data = json.loads(BASELINE_REPORT.read_text(encoding="utf-8"))
    started = datetime.fromisoformat(data["run"]["created_at"]) - timedelta(hours=hours)
    data["run"]["created_at"] = started.isoformat()
    data["run"]["git_sha"] = sha
    return json.dumps(data).encode("utf-8")


def _publish(world: World, count: int, *, expired: tuple[int, ...] = ()) -> list[str]:
    """``count`` successful push runs on main, oldest first, each with its report artifact (the
    ``expired`` ones expired); returns their commits, oldest first."""
    shas = []
    for n in range(count):
        sha = f"{n:02d}" + "e" * 38
        run_id = world.fake.add_run(world.repo, head_sha=sha)
        files = {"jobsearch.report.json": _earlier(10 * (count - n), sha)}
        world.fake.add_artifact(
            world.repo, run_id, "fairwitness-baseline", zipped(files), expired=n in expired
        )
        shas.append(sha)
    return shas


def _trend_rows(text: str) -> list[str]:
    start = text.index("Trend on the default branch")
    table = text[start:].split("\n\n")[2]
    return table.splitlines()[2:]


def test_history_shows_the_trend_of_the_last_runs_skipping_expired_ones(world: World) -> None:
    _publish(world, 8, expired=(6,))
    for n in range(101):  # newer push runs of another workflow, without the artifact: the runs
        world.fake.add_run(world.repo, head_sha=f"{n:03d}" + "d" * 37, workflow_id=78)
    world.publish_baseline()  # the merge base's run, newest
    world.open_pull_request()
    result = world.run("pull_request", world.pull_request_event(), history="5")
    assert result.code == 2, result.stdout + result.stderr  # the gate decides as without it
    (comment,) = world.comments()
    body = comment["body"]
    assert (
        "5 earlier run(s) from the last successful main push runs' 'fairwitness-baseline'" in body
    )
    rows = _trend_rows(body)
    assert rows and all(row.startswith("| ") for row in rows)
    assert "trend: skipped 1 artifact(s)" in body and "expired" in body
    url = f"{world.fake.url}/{world.repo}/actions/runs/4242#artifacts"
    assert check(body.split("\n", 1)[1], links=url).problems == []
    assert "Trend on the default branch" in result.summary
    downloads = [r for r in world.fake.requests if r.path.endswith("/zip")]
    # the baseline's download, five for the trend; the expired one is never asked for
    assert len(downloads) == 6
    listed = [r for r in world.fake.requests if r.path.endswith("/actions/runs")]
    assert any(
        r.query.get("event") == ["push"] and r.query.get("status") == ["success"] for r in listed
    )
    assert any(r.query.get("page") == ["2"] for r in world.fake.requests)  # a second page
    page = world.workspace / "evals" / "fairwitness-out" / "jobsearch.report.html"
    assert page.is_file()


def test_a_trend_that_cannot_be_fetched_never_fails_the_gate(world: World) -> None:
    world.publish_baseline()
    world.open_pull_request()
    world.fake.inject(500, times=50, method="GET", path="/actions/runs")
    result = world.run("pull_request", world.pull_request_event(), history="5")
    assert result.code == 2, result.stdout + result.stderr
    (comment,) = world.comments()
    assert "trend unavailable:" in comment["body"]
    assert "500" in comment["body"]
    assert "Trend on the default branch" not in comment["body"]


def test_history_zero_fetches_nothing(world: World) -> None:
    world.publish_baseline()
    world.open_pull_request()
    result = world.run("pull_request", world.pull_request_event())
    assert result.code == 2, result.stdout + result.stderr
    assert "Trend" not in world.comments()[0]["body"]
