"""The action's real container, built from the Dockerfile and run the way the runner runs it,
against real git repositories, recorded webhook payloads and the fake GitHub API on loopback."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from container_engine import Engine
from docker_action import Step, run_action

from e2e.action_world import World
from github_fake import BOT, TOKEN, FakeGitHub
from ownership import foreign_owned, git_as

pytestmark = pytest.mark.container

OWNER = 1234
RUNNER_FOLDERS = ["_github_home", "_github_workflow", "_runner_file_commands"]


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        yield World(tmp_path, fake)


@pytest.fixture
def step(engine: Engine, action_image: str, world: World):
    def run(event_name: str, event_path: Path, **inputs: str) -> Step:
        return run_action(world, engine, action_image, event_name, event_path, **inputs)

    return run


def annotations(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith(("::error", "::warning"))]


def test_first_pull_request_without_a_baseline(world: World, step) -> None:
    world.open_pull_request()
    result = step("pull_request", world.pull_request_event())
    assert result.code == 0, result.stdout + result.stderr
    (comment,) = world.comments()
    assert comment["body"].startswith("<!-- fairwitness:comment default -->\n### ")
    assert "no baseline to compare with" in comment["body"]
    assert result.outputs == {
        "exit-code": "0",
        "verdict": "report",
        "report-path": "evals/fairwitness-out/jobsearch.report.json",
        "markdown-path": "evals/fairwitness-out/jobsearch.comment.md",
        "html-path": "evals/fairwitness-out/jobsearch.report.html",
        "comment-url": comment["html_url"],
        "comment-outcome": "created",
        "readme-changed": "false",
    }
    for output in ("report-path", "markdown-path", "html-path"):
        assert (world.workspace / result.outputs[output]).is_file()
    assert "## " in result.summary and "no baseline" in result.summary
    # RUNNER_TEMP is not mounted: what the action put there stayed in the container
    assert sorted(p.name for p in result.runner_temp.iterdir()) == RUNNER_FOLDERS


def test_a_second_run_updates_the_sticky_comment(world: World, step) -> None:
    world.publish_baseline()
    world.open_pull_request()
    event = world.pull_request_event()
    first = step("pull_request", event)
    assert first.code == 2, first.stdout + first.stderr
    (comment,) = world.comments()
    assert "must-pass failed (exit 2)" in comment["body"].splitlines()[1]
    assert "::error title=fairwitness jobsearch%3A must-pass failed::" in first.stdout
    second = step("pull_request", event, fail_on="regression")
    assert second.code == 0, second.stdout + second.stderr
    assert second.outputs["exit-code"] == "2"
    (again,) = world.comments()
    assert again["id"] == comment["id"]
    edits = [r for r in world.fake.requests if r.method == "PATCH"]
    assert [r.path.rsplit("/", 1)[-1] for r in edits] == [str(comment["id"])]
    assert second.outputs["comment-url"] == comment["html_url"]


def test_a_fork_writes_the_relay_artifact_and_no_comment(world: World, step) -> None:
    world.publish_baseline()
    world.open_pull_request()
    result = step("pull_request", world.pull_request_event(fork="forker/Hello-World"))
    assert result.code == 2, result.stdout + result.stderr
    assert world.comments() == []
    assert not [r for r in world.fake.requests if r.method in ("POST", "PATCH")]
    left = world.workspace / "fairwitness-comment"
    assert sorted(p.name for p in left.iterdir()) == ["default.json", "default.report.json"]
    assert "fairwitness comment deferred" in result.stdout
    assert result.outputs["comment-url"] == ""


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_the_committed_baseline_is_fetched_and_the_workspace_stays_its_owner_s(
    engine: Engine, action_image: str, open_tmp: Path
) -> None:
    """The checkout lacks the base branch, so the action fetches it with git; before the run the
    workspace belongs to another user than the container's root, and afterwards every path of
    it, ``.git`` included, still does, and that user's own ``git fetch`` works."""
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        world = World(open_tmp, fake)
        world.commit_baseline_report()
        world.open_pull_request()
        world.forget_the_base_branch()
        world.hand_to(OWNER, OWNER)
        result = run_action(world, engine, action_image, "pull_request", world.pull_request_event())
        assert result.code == 2, result.stdout + result.stderr
        body = world.comments()[0]["body"].replace("\\", "")
        assert "evals/fairwitness-out/jobsearch.report.json as committed on main" in body
    assert (world.workspace / ".git" / "FETCH_HEAD").exists()  # the base branch was fetched
    foreign = foreign_owned(world.workspace, OWNER, OWNER)
    assert not foreign, f"not owned by {OWNER}:{OWNER} after the run:\n" + "\n".join(foreign)
    again = git_as(OWNER, world.workspace, open_tmp, "fetch", "origin")
    assert again.returncode == 0, again.stderr


def test_a_push_updates_the_readme(world: World, step) -> None:
    result = step("push", world.push_event(), update_readme="true", readme="README.md")
    assert result.code == 0, result.stdout + result.stderr
    assert result.outputs["readme-changed"] == "true"
    readme = (world.workspace / "README.md").read_text(encoding="utf-8")
    assert "| route (per trial) | 97.4% | 63 | 93.2% \u2013 99.0% |" in readme
    assert world.comments() == []


def test_a_bad_config_is_exit_4_and_one_annotation(world: World, step) -> None:
    world.open_pull_request()
    config = world.workspace / "evals" / "fairwitness.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace("repeats = 3", 'repeats = "three"'),
        encoding="utf-8",
    )
    result = step("pull_request", world.pull_request_event())
    assert result.code == 4, result.stdout + result.stderr
    (annotation,) = annotations(result.stdout)
    assert annotation.startswith("::error")
    assert "/github/workspace/evals/fairwitness.toml" in annotation and "repeats" in annotation
    assert "Traceback" not in result.stdout + result.stderr
    assert result.outputs["exit-code"] == "4" and result.outputs["verdict"] == "invalid"
