"""The sticky pull request comment against the fake GitHub: found on any page, edited in place,
never someone else's, and never an exception out of post_comment."""

from __future__ import annotations

import pytest

from fairwitness.github import MAX_COMMENT_CHARS, GitHubError, marker, post_comment, upsert_comment
from github_fake import BOT, TOKEN, ClientFactory, FakeClock, FakeGitHub

pytestmark = pytest.mark.integration

REPO = "octo-org/octo-repo"
PR = 42


def bodies(fake: FakeGitHub) -> list[str]:
    return [c["body"] for c in fake.comments_of(REPO, PR)]


def ours(fake: FakeGitHub, key: str = "default") -> list[dict[str, object]]:
    return [c for c in fake.comments_of(REPO, PR) if marker(key) in str(c["body"])]


def test_the_first_run_creates_and_the_next_runs_update(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    client = make_client(fake_github)
    first = post_comment(client, REPO, PR, "run 1")
    assert first.action == "created" and first.ok
    assert first.url is not None and first.url.endswith(f"#issuecomment-{first.comment_id}")
    second = post_comment(client, REPO, PR, "run 2")
    third = post_comment(client, REPO, PR, "run 3")
    assert (second.action, third.action) == ("updated", "updated")
    assert second.comment_id == third.comment_id == first.comment_id
    assert bodies(fake_github) == [f"{marker()}\nrun 3"]
    assert len(ours(fake_github)) == 1


def test_the_sticky_comment_is_found_on_page_three(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    for i in range(230):
        fake_github.add_comment(REPO, PR, f"chatter {i}", login=f"dev{i % 4}")
    sticky = fake_github.add_comment(REPO, PR, f"{marker()}\nold results")
    for i in range(19):
        fake_github.add_comment(REPO, PR, f"more chatter {i}", login="dev1")
    assert len(fake_github.comments_of(REPO, PR)) == 250
    outcome = post_comment(make_client(fake_github), REPO, PR, "new results")
    assert outcome.action == "updated"
    assert outcome.comment_id == sticky["id"]
    assert len(fake_github.comments_of(REPO, PR)) == 250
    assert [c["body"] for c in ours(fake_github)] == [f"{marker()}\nnew results"]
    listing = [r for r in fake_github.requests if r.method == "GET" and "comments" in r.path]
    assert [r.query.get("page", ["1"])[0] for r in listing] == ["1", "2", "3"]
    patch = fake_github.requests[-1]
    assert (patch.method, patch.path) == ("PATCH", f"/repos/{REPO}/issues/comments/{sticky['id']}")


def test_a_marker_from_another_author_is_ignored(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    forged = fake_github.add_comment(REPO, PR, f"{marker()}\nforged green", login="mallory")
    outcome = post_comment(make_client(fake_github), REPO, PR, "honest results")
    assert outcome.action == "created"
    assert outcome.comment_id != forged["id"]
    assert bodies(fake_github) == [f"{marker()}\nforged green", f"{marker()}\nhonest results"]


def test_the_identity_comes_from_user_when_the_token_may_ask(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.add_token("ghp_octocat", "octocat", installation=False)
    fake_github.add_comment(REPO, PR, f"{marker()}\nby the bot")
    mine = fake_github.add_comment(REPO, PR, f"{marker()}\nby octocat", login="octocat")
    outcome = post_comment(make_client(fake_github, token="ghp_octocat"), REPO, PR, "updated")
    assert (outcome.action, outcome.comment_id) == ("updated", mine["id"])
    assert bodies(fake_github)[0] == f"{marker()}\nby the bot"


def test_a_known_login_skips_the_user_call(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    post_comment(make_client(fake_github), REPO, PR, "x", login=BOT)
    assert all(r.path != "/user" for r in fake_github.requests)


def test_different_keys_keep_separate_comments(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    client = make_client(fake_github)
    a = post_comment(client, REPO, PR, "linux results", key="linux")
    b = post_comment(client, REPO, PR, "mac results", key="mac")
    a2 = post_comment(client, REPO, PR, "linux again", key="linux")
    assert (a.action, b.action, a2.action) == ("created", "created", "updated")
    assert a2.comment_id == a.comment_id != b.comment_id
    assert bodies(fake_github) == [
        f"{marker('linux')}\nlinux again",
        f"{marker('mac')}\nmac results",
    ]


def test_new_mode_always_posts(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    client = make_client(fake_github)
    outcomes = [post_comment(client, REPO, PR, f"run {i}", mode="new") for i in range(3)]
    assert [o.action for o in outcomes] == ["created"] * 3
    assert len({o.comment_id for o in outcomes}) == 3
    assert len(fake_github.comments_of(REPO, PR)) == 3
    assert all(r.method == "POST" for r in fake_github.requests)


def test_off_mode_does_nothing(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    outcome = post_comment(make_client(fake_github), REPO, PR, "x", mode="off")
    assert (outcome.action, outcome.ok) == ("skipped", True)
    assert fake_github.requests == []


def test_a_body_already_carrying_its_marker_is_kept(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    body = f"{marker('k')}\n## fairwitness\n"
    post_comment(make_client(fake_github), REPO, PR, body, key="k")
    assert bodies(fake_github) == [body]


def test_a_marker_further_down_is_not_the_marker(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    body = f"## fairwitness\n\n{marker('k')}\n"
    client = make_client(fake_github)
    post_comment(client, REPO, PR, body, key="k")
    again = post_comment(client, REPO, PR, body, key="k")
    assert again.action == "updated"
    assert bodies(fake_github) == [f"{marker('k')}\n{body}"]


def test_an_oversize_body_is_shortened_not_refused(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    body = "\n".join(f"| case {i} | failed |" for i in range(10_000))
    outcome = post_comment(
        make_client(fake_github),
        REPO,
        PR,
        body,
        summary_url="https://ghe.example/o/r/actions/runs/5",
    )
    assert (outcome.action, outcome.shortened) == ("created", True)
    (stored,) = bodies(fake_github)
    assert len(stored) <= MAX_COMMENT_CHARS
    assert stored.startswith(f"{marker()}\n| case 0 | failed |")
    assert (
        "the full version is in the [job summary](https://ghe.example/o/r/actions/runs/5)" in stored
    )


def test_a_read_only_token_is_forbidden_not_an_error(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.add_token("ghs_fork", BOT, read_only=True)
    outcome = post_comment(make_client(fake_github, token="ghs_fork"), REPO, PR, "results")
    assert outcome.action == "forbidden"
    assert not outcome.ok
    assert outcome.message is not None
    assert "Resource not accessible by integration" in outcome.message
    assert "\n" not in outcome.message
    assert fake_github.comments_of(REPO, PR) == []


def test_a_read_only_token_cannot_update_either(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.add_token("ghs_fork", BOT, read_only=True)
    fake_github.add_comment(REPO, PR, f"{marker()}\nold")
    outcome = upsert_comment(make_client(fake_github, token="ghs_fork"), REPO, PR, "new")
    assert outcome.action == "forbidden"
    assert bodies(fake_github) == [f"{marker()}\nold"]


def test_a_5xx_while_listing_is_retried(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.add_comment(REPO, PR, f"{marker()}\nold")
    fake_github.inject(502, method="GET", path="/comments")
    fake_github.inject(500, method="PATCH")
    outcome = post_comment(make_client(fake_github), REPO, PR, "new")
    assert outcome.action == "updated"
    assert bodies(fake_github) == [f"{marker()}\nnew"]


def test_a_post_that_landed_despite_a_502_is_not_posted_twice(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.inject(502, method="POST", carry_out=True)
    outcome = post_comment(make_client(fake_github), REPO, PR, "results")
    assert outcome.action == "created"
    assert bodies(fake_github) == [f"{marker()}\nresults"]
    assert [r.method for r in fake_github.requests].count("POST") == 1


def test_a_post_lost_to_a_502_is_posted_again(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.inject(502, method="POST")
    outcome = post_comment(make_client(fake_github), REPO, PR, "results")
    assert outcome.action == "created"
    assert bodies(fake_github) == [f"{marker()}\nresults"]
    assert [r.method for r in fake_github.requests].count("POST") == 2


def test_the_deadline_gives_a_failed_outcome(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject_secondary_limit(30, times=10)
    outcome = post_comment(make_client(fake_github, wait_budget_s=60), REPO, PR, "results")
    assert outcome.action == "failed"
    assert outcome.message is not None
    assert outcome.message.startswith("could not write the pull request comment: ")
    assert "secondary rate limit" in outcome.message
    assert "rate limited for longer than the waiting budget allows" in outcome.message
    assert fake_clock.sleeps == [30, 30]  # one deadline for the whole comment, never passed
    assert fake_github.comments_of(REPO, PR) == []


def test_bad_credentials_give_a_failed_outcome(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    outcome = post_comment(make_client(fake_github, token="ghs_revoked"), REPO, PR, "x", login=BOT)
    assert outcome.action == "failed"
    assert outcome.message is not None and "HTTP 401: Bad credentials" in outcome.message
    assert "ghs_revoked" not in outcome.message


def test_no_server_gives_a_failed_outcome(make_client: ClientFactory) -> None:
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
    outcome = post_comment(make_client(fake), REPO, PR, "x")
    assert outcome.action == "failed"
    assert outcome.message is not None and "no response" in outcome.message


def test_upsert_raises_what_post_comment_reports(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    with pytest.raises(GitHubError) as caught:
        upsert_comment(make_client(fake_github, token="ghs_revoked"), REPO, PR, "x")
    assert caught.value.status == 401
