"""``comment: changes`` and ``comment: failures`` end to end: the entrypoint in a subprocess, the
real ``requests`` client, and the fake GitHub counting the requests that write a comment."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from action_world import World

from github_fake import BOT, TOKEN, FakeGitHub

pytestmark = pytest.mark.e2e


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        yield World(tmp_path, fake)


def release(world: World, agent: str) -> None:
    """Point the pull request's suite at ``target`` (release 1) or ``candidate`` (release 2)."""
    config = world.workspace / "evals" / "fairwitness.toml"
    text = config.read_text(encoding="utf-8")
    for name in ("target", "candidate"):
        text = text.replace(f"agent:{name}", f"agent:{agent}")
    config.write_text(text, encoding="utf-8")


def writes(world: World) -> list[str]:
    """The comment-writing requests so far: ``POST`` (create) and ``PATCH`` (edit)."""
    return [
        r.method
        for r in world.fake.requests
        if r.method in ("POST", "PATCH") and "/comments" in r.path
    ]


def test_changes_edits_the_comment_only_when_the_decision_changed(world: World) -> None:
    world.publish_baseline()
    world.open_pull_request()
    event = world.pull_request_event()
    first = world.run("pull_request", event, comment="changes", run_id=1001)
    assert first.code == 2, first.stdout + first.stderr
    (comment,) = world.comments()
    assert comment["body"].startswith("<!-- fairwitness:comment default digest=")
    assert first.outputs["comment-outcome"] == "created"
    assert writes(world) == ["POST"]
    # another run of the same code: new times, a new run id and links, the same decision
    same = world.run("pull_request", event, comment="changes", run_id=1002)
    assert same.code == 2, same.stdout + same.stderr
    assert writes(world) == ["POST"]
    assert world.comments() == [comment]
    assert same.outputs["comment-outcome"] == "unchanged"
    assert same.outputs["comment-url"] == comment["html_url"]
    assert f"comment unchanged: {comment['html_url']}" in same.stdout
    # the pull request goes back to release 1: the verdict and the metrics change
    release(world, "target")
    changed = world.run("pull_request", event, comment="changes", run_id=1003)
    assert changed.code == 0, changed.stdout + changed.stderr
    assert writes(world) == ["POST", "PATCH"]
    (edited,) = world.comments()
    assert edited["id"] == comment["id"]
    assert edited["body"].splitlines()[0] != comment["body"].splitlines()[0]
    assert changed.outputs["comment-outcome"] == "updated"


def test_failures_comments_only_while_the_gate_fails(world: World) -> None:
    world.publish_baseline()
    world.open_pull_request(candidate=False)
    event = world.pull_request_event()
    passing = world.run("pull_request", event, comment="failures", run_id=2001)
    assert passing.code == 0, passing.stdout + passing.stderr
    assert world.comments() == []
    assert writes(world) == []
    assert passing.outputs["comment-outcome"] == "skipped"
    assert passing.outputs["comment-url"] == ""
    # release 2 breaks a must-pass case: now there is something to say
    release(world, "candidate")
    failing = world.run("pull_request", event, comment="failures", run_id=2002)
    assert failing.code == 2, failing.stdout + failing.stderr
    assert writes(world) == ["POST"]
    (comment,) = world.comments()
    assert "must-pass failed (exit 2)" in comment["body"]
    # fixed again: the comment no longer shows a failure that is gone
    release(world, "target")
    fixed = world.run("pull_request", event, comment="failures", run_id=2003)
    assert fixed.code == 0, fixed.stdout + fixed.stderr
    assert writes(world) == ["POST", "PATCH"]
    (note,) = world.comments()
    assert note["id"] == comment["id"]
    lines = note["body"].splitlines()
    assert lines[0].startswith("<!-- fairwitness:comment default digest=")
    assert lines[1] == "### fairwitness: pass"
    assert "passes now" in note["body"] and "must-pass" not in note["body"]
    assert f"({world.fake.url}/{world.repo}/actions/runs/2003)" in note["body"]
    assert fixed.outputs["comment-outcome"] == "updated"
    assert fixed.outputs["comment-url"] == comment["html_url"]


def test_an_unknown_comment_mode_is_one_line_and_exit_4(world: World) -> None:
    world.open_pull_request(candidate=False)
    result = world.run("pull_request", world.pull_request_event(), comment="sometimes")
    assert result.code == 4
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 1
    assert "FW_COMMENT" in errors[0] and "changes, failures" in errors[0]
    assert world.comments() == [] and writes(world) == []
