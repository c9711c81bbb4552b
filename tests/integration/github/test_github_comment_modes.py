"""``comment: changes`` and ``comment: failures`` against the fake GitHub: which runs edit the
sticky comment, which leave it alone, and which post nothing."""

from __future__ import annotations

import pytest

from fairwitness.github import marker, passes_now, post_comment
from github_fake import ClientFactory, FakeGitHub

pytestmark = pytest.mark.integration

REPO = "octo-org/octo-repo"
PR = 42
RUN = "https://github.com/octo-org/octo-repo/actions/runs/9"


def bodies(fake: FakeGitHub) -> list[str]:
    return [c["body"] for c in fake.comments_of(REPO, PR)]


def writes(fake: FakeGitHub) -> list[str]:
    return [r.method for r in fake.requests if r.method in ("POST", "PATCH")]


def test_changes_leaves_the_comment_alone_while_the_digest_is_the_same(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    client = make_client(fake_github)
    first = post_comment(client, REPO, PR, "run 1", mode="changes", digest="aa")
    same = post_comment(client, REPO, PR, "run 2, same decision", mode="changes", digest="aa")
    assert (first.action, same.action) == ("created", "unchanged")
    assert same.ok and same.comment_id == first.comment_id and same.url == first.url
    assert same.message is not None and "comment: changes" in same.message
    assert bodies(fake_github) == [f"{marker(None, 'aa')}\nrun 1"]
    assert writes(fake_github) == ["POST"]
    other = post_comment(client, REPO, PR, "run 3", mode="changes", digest="bb")
    assert other.action == "updated" and other.comment_id == first.comment_id
    assert bodies(fake_github) == [f"{marker(None, 'bb')}\nrun 3"]
    assert writes(fake_github) == ["POST", "PATCH"]


def test_changes_updates_a_comment_from_before_digests(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.add_comment(REPO, PR, f"{marker()}\nold sticky")
    done = post_comment(make_client(fake_github), REPO, PR, "new", mode="changes", digest="aa")
    assert done.action == "updated"
    assert bodies(fake_github) == [f"{marker(None, 'aa')}\nnew"]


def test_a_forged_digest_does_not_hold_the_comment_back(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.add_comment(REPO, PR, f"{marker(None, 'aa')}\nforged", login="mallory")
    fake_github.add_comment(REPO, PR, f"{marker()}\nagent text: {marker(None, 'aa')}")
    done = post_comment(make_client(fake_github), REPO, PR, "honest", mode="changes", digest="aa")
    assert done.action == "updated"
    assert bodies(fake_github)[1] == f"{marker(None, 'aa')}\nhonest"


def test_sticky_keeps_its_marker_without_a_digest(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    client = make_client(fake_github)
    post_comment(client, REPO, PR, "run 1", digest="aa")
    again = post_comment(client, REPO, PR, "run 2", digest="aa")
    assert again.action == "updated"
    assert bodies(fake_github) == [f"{marker()}\nrun 2"]


def test_failures_posts_nothing_while_the_gate_passes(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    note = passes_now("pass", RUN)
    done = post_comment(
        make_client(fake_github), REPO, PR, "all green", mode="failures", digest="aa", passing=note
    )
    assert (done.action, done.ok, done.url) == ("skipped", True, None)
    assert done.message is not None and "no comment to update" in done.message
    assert fake_github.comments_of(REPO, PR) == []
    assert writes(fake_github) == []


def test_failures_comments_on_a_failure_and_says_when_it_passes_again(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    client = make_client(fake_github)
    failed = post_comment(client, REPO, PR, "regression!", mode="failures", digest="f1")
    assert failed.action == "created"
    note = passes_now("pass", RUN)
    fixed = post_comment(client, REPO, PR, "green", mode="failures", digest="beef", passing=note)
    assert fixed.action == "updated" and fixed.comment_id == failed.comment_id
    assert bodies(fake_github) == [f"{marker(None, 'beef')}\n{note}"]
    still = post_comment(client, REPO, PR, "green", mode="failures", digest="beef", passing=note)
    assert still.action == "unchanged"
    assert writes(fake_github) == ["POST", "PATCH"]
    again = post_comment(client, REPO, PR, "regression again", mode="failures", digest="f1")
    assert again.action == "updated"
    assert bodies(fake_github) == [f"{marker(None, 'f1')}\nregression again"]


def test_failures_rewrites_every_failure(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    client = make_client(fake_github)
    post_comment(client, REPO, PR, "run 1", mode="failures", digest="f1")
    second = post_comment(client, REPO, PR, "run 2", mode="failures", digest="f1")
    assert second.action == "updated"
    assert writes(fake_github) == ["POST", "PATCH"]
