"""The action leaves the HTML report beside the suite's report, and the comment and the job
summary name the artifact the workflow uploads it as, linking to the run's artifacts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from action_world import World

from github_fake import BOT, TOKEN, FakeGitHub
from markdown_check import check

pytestmark = pytest.mark.e2e


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        yield World(tmp_path, fake)


def test_the_report_page_is_written_and_linked_from_the_comment_and_summary(world: World) -> None:
    world.publish_baseline()
    world.open_pull_request()
    result = world.run("pull_request", world.pull_request_event(), run_id=777)
    assert result.code == 2, result.stdout + result.stderr
    page = world.workspace / "evals" / "fairwitness-out" / "jobsearch.report.html"
    html = page.read_text(encoding="utf-8")
    assert html.lower().startswith("<!doctype html>") and "Content-Security-Policy" in html
    assert "HTML report: evals/fairwitness-out/jobsearch.report.html" in result.stdout
    assert result.outputs["html-path"] == "evals/fairwitness-out/jobsearch.report.html"
    url = f"{world.fake.url}/{world.repo}/actions/runs/777#artifacts"
    (comment,) = world.comments()
    body = comment["body"]
    assert f"[jobsearch.report.html in artifact fairwitness-report]({url})" in body
    assert f"| [jobsearch.report.html#case=search-018]({url}) |" in body
    assert f"[jobsearch.report.html in artifact fairwitness-report]({url})" in result.summary
    assert check(body.split("\n", 1)[1], links=url).problems == []


def test_a_push_writes_the_page_without_a_baseline(world: World) -> None:
    result = world.run("push", world.push_event())
    assert result.code == 0, result.stdout + result.stderr
    page = world.workspace / "evals" / "fairwitness-out" / "jobsearch.report.html"
    assert page.is_file()
    assert result.outputs["html-path"] == "evals/fairwitness-out/jobsearch.report.html"
    assert "artifact fairwitness-report" in result.summary


def test_a_matrix_leg_names_its_own_html_artifact(world: World) -> None:
    world.publish_baseline()
    world.open_pull_request()
    result = world.run(
        "pull_request", world.pull_request_event(), run_id=778, html_artifact="fairwitness-report-a"
    )
    assert result.code == 2, result.stdout + result.stderr
    url = f"{world.fake.url}/{world.repo}/actions/runs/778#artifacts"
    (comment,) = world.comments()
    assert f"[jobsearch.report.html in artifact fairwitness-report-a]({url})" in comment["body"]
    assert "artifact fairwitness-report-a" in result.summary
    assert "the workflow uploads it as fairwitness-report-a" in result.stdout
    assert "artifact fairwitness-report]" not in comment["body"]
