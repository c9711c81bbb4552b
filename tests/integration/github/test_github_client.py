"""The REST client over real `requests` against the fake GitHub on loopback."""

from __future__ import annotations

import json

import pytest

from fairwitness._version import __version__
from fairwitness.github import GitHubClient, GitHubError, Settings
from github_fake import BOT, TOKEN, ClientFactory, FakeBlobStore, FakeClock, FakeGitHub

pytestmark = pytest.mark.integration

REPO = "octo-org/octo-repo"


def test_every_call_sends_the_api_headers(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    make_client(fake_github).list_issue_comments(REPO, 1)
    seen = fake_github.requests[-1].headers
    assert seen["authorization"] == f"Bearer {TOKEN}"
    assert seen["accept"] == "application/vnd.github+json"
    assert seen["x-github-api-version"] == "2022-11-28"
    assert seen["user-agent"] == f"fairwitness/{__version__}"


def test_the_token_is_not_in_the_clients_repr(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    assert TOKEN not in repr(make_client(fake_github))


def test_current_login_of_an_installation_token_is_unknown(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    assert make_client(fake_github).current_login() is None
    assert fake_github.requests[-1].status == 403


def test_current_login_of_a_user_token(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    fake_github.add_token("ghp_user", "octocat", installation=False)
    assert make_client(fake_github, token="ghp_user").current_login() == "octocat"


def test_bad_credentials(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github, token="ghs_wrong").current_login()
    assert caught.value.status == 401
    assert caught.value.api_message == "Bad credentials"
    assert caught.value.documentation_url == "https://docs.github.com/rest"
    assert "ghs_wrong" not in str(caught.value)


def test_pagination_follows_link_headers(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    for i in range(250):
        fake_github.add_comment(REPO, 7, f"comment {i}", login=f"user{i % 3}")
    comments = make_client(fake_github).list_issue_comments(REPO, 7)
    assert [c.body for c in comments] == [f"comment {i}" for i in range(250)]
    assert comments[1].user_login == "user1"
    pages = [r for r in fake_github.requests if r.method == "GET"]
    assert len(pages) == 3
    assert pages[0].path == f"/repos/{REPO}/issues/7/comments"
    assert pages[0].query == {"per_page": ["100"]}
    # GitHub's next links point at /repositories/ID/...: they are followed as given.
    assert pages[1].path.startswith("/repositories/") and pages[1].query["page"] == ["2"]
    assert pages[2].query == {"per_page": ["100"], "page": ["3"]}


def test_no_comments_is_one_request(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    assert make_client(fake_github).list_issue_comments(REPO, 3) == []
    assert len(fake_github.requests) == 1


def test_create_and_update_a_comment(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    client = make_client(fake_github)
    made = client.create_comment(REPO, 5, "first")
    assert made.user_login == BOT
    assert made.html_url.endswith(f"/{REPO}/pull/5#issuecomment-{made.id}")
    edited = client.update_comment(REPO, made.id, "second")
    assert (edited.id, edited.body) == (made.id, "second")
    assert [c["body"] for c in fake_github.comments_of(REPO, 5)] == ["second"]
    patch = fake_github.requests[-1]
    assert (patch.method, patch.path) == ("PATCH", f"/repos/{REPO}/issues/comments/{made.id}")
    assert patch.body == {"body": "second"}


def test_an_oversize_body_gets_githubs_422(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github).create_comment(REPO, 5, "x" * 65_537)
    err = caught.value
    assert (err.status, err.api_message) == (422, "Validation Failed")
    assert "body is too long (maximum is 65536 characters)" in str(err)
    assert err.documentation_url is not None and "create-an-issue-comment" in err.documentation_url
    assert fake_github.comments_of(REPO, 5) == []


def test_get_pull(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    fake_github.add_pull(
        REPO, 9, head_sha="h" * 40, base_sha="b" * 40, head_repo="mallory/octo-repo"
    )
    pull = make_client(fake_github).get_pull(REPO, 9)
    assert (pull.number, pull.head_sha, pull.base_sha) == (9, "h" * 40, "b" * 40)
    assert (pull.head_ref, pull.base_ref, pull.base_repo) == ("feature", "main", REPO)
    assert pull.head_repo == "mallory/octo-repo" and pull.is_fork


def test_a_missing_pull_is_a_404(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github).get_pull(REPO, 404)
    assert (caught.value.status, caught.value.api_message) == (404, "Not Found")
    assert caught.value.request == f"GET /repos/{REPO}/pulls/404"


def test_compare(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    fake_github.set_compare(REPO, "main", "feature/x", merge_base="m" * 40, ahead=3, behind=2)
    result = make_client(fake_github).compare(REPO, "main", "feature/x")
    assert (result.merge_base_sha, result.ahead_by, result.behind_by) == ("m" * 40, 3, 2)
    assert result.status == "diverged"


def test_workflow_runs_and_their_artifacts(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    old = fake_github.add_run(REPO, head_sha="a" * 40)
    fake_github.add_run(REPO, head_sha="b" * 40, head_branch="topic", event="pull_request")
    failed = fake_github.add_run(REPO, head_sha="c" * 40, conclusion="failure")
    other = fake_github.add_run(
        REPO, head_sha="d" * 40, workflow_id=88, workflow_file="nightly.yml"
    )
    client = make_client(fake_github)
    runs = client.list_workflow_runs(REPO, "ci.yml", branch="main", event="push", status="success")
    assert [r.id for r in runs] == [old]
    assert [r.id for r in client.list_workflow_runs(REPO, 77, status="failure")] == [failed]
    assert [r.id for r in client.list_workflow_runs(REPO, None, branch="main")] == [
        other,
        failed,
        old,
    ]
    assert len(client.list_workflow_runs(REPO, limit=2)) == 2
    assert fake_github.requests[-1].path == f"/repos/{REPO}/actions/runs"

    a1 = fake_github.add_artifact(REPO, old, "fairwitness-report", b"zip-1")
    fake_github.add_artifact(REPO, old, "coverage", b"zip-2")
    a3 = fake_github.add_artifact(REPO, failed, "fairwitness-report", b"zip-3")
    assert [a.name for a in client.list_run_artifacts(REPO, old)] == [
        "fairwitness-report",
        "coverage",
    ]
    named = client.list_repo_artifacts(REPO, "fairwitness-report")
    assert [(a.id, a.run_id, a.head_sha) for a in named] == [
        (a3, failed, "c" * 40),
        (a1, old, "a" * 40),
    ]
    assert named[0].size_in_bytes == 5


def test_download_from_another_origin_drops_the_token(make_client: ClientFactory) -> None:
    store = FakeBlobStore()
    try:
        with FakeGitHub(blob_store=store) as fake:
            fake.add_token(TOKEN, BOT)
            run = fake.add_run(REPO, head_sha="a" * 40)
            artifact = fake.add_artifact(REPO, run, "fairwitness-report", b"PK\x03\x04report")
            data = make_client(fake).download_artifact(REPO, artifact)
            assert data == b"PK\x03\x04report"
            api_call = fake.requests[-1]
            assert api_call.status == 302
            assert api_call.headers["authorization"] == f"Bearer {TOKEN}"
        (blob_call,) = store.requests
        assert blob_call.path == f"/blobs/{artifact}"
        assert "authorization" not in blob_call.headers
        assert TOKEN not in json.dumps(blob_call.headers)
    finally:
        store.stop()


def test_download_on_the_same_origin(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    run = fake_github.add_run(REPO, head_sha="a" * 40)
    artifact = fake_github.add_artifact(REPO, run, "r", b"bytes")
    assert make_client(fake_github).download_artifact(REPO, artifact) == b"bytes"
    assert [r.path for r in fake_github.requests] == [
        f"/repos/{REPO}/actions/artifacts/{artifact}/zip",
        f"/_blobs/{artifact}",
    ]


def test_an_expired_artifact(fake_github: FakeGitHub, make_client: ClientFactory) -> None:
    run = fake_github.add_run(REPO, head_sha="a" * 40)
    artifact = fake_github.add_artifact(REPO, run, "r", b"bytes", expired=True)
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github).download_artifact(REPO, artifact)
    assert (caught.value.status, caught.value.api_message) == (410, "Artifact has expired")


def test_a_download_over_the_cap_is_refused(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    run = fake_github.add_run(REPO, head_sha="a" * 40)
    artifact = fake_github.add_artifact(REPO, run, "r", b"x" * 1000)
    with pytest.raises(GitHubError, match="larger than 999 bytes"):
        make_client(fake_github).download_artifact(REPO, artifact, max_bytes=999)


def test_github_enterprise_server_prefix(make_client: ClientFactory) -> None:
    with FakeGitHub(prefix="/api/v3") as fake:
        fake.add_token(TOKEN, BOT)
        settings = Settings.from_environ(
            {"GITHUB_API_URL": fake.api_url + "/", "FW_GITHUB_TOKEN": TOKEN}
        )
        assert settings.api_url == f"{fake.url}/api/v3"
        clock = FakeClock()
        with GitHubClient.from_settings(settings, clock=clock, sleep=clock.sleep) as client:
            for i in range(120):
                fake.add_comment(REPO, 1, f"c{i}")
            assert len(client.list_issue_comments(REPO, 1)) == 120
            run = fake.add_run(REPO, head_sha="a" * 40)
            artifact = fake.add_artifact(REPO, run, "r", b"ghes")
            assert client.download_artifact(REPO, artifact) == b"ghes"
        api_paths = [r.path for r in fake.requests if not r.path.startswith("/_blobs/")]
        assert all(p.startswith("/api/v3/") for p in api_paths), api_paths
        assert len(api_paths) == 3


def test_5xx_then_success_is_retried(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.add_comment(REPO, 1, "hello")
    fake_github.inject(502, times=1, method="GET")
    fake_github.inject(503, times=1, method="GET")
    fake_github.inject(500, times=1, method="GET")
    comments = make_client(fake_github).list_issue_comments(REPO, 1)
    assert [c.body for c in comments] == ["hello"]
    assert [r.status for r in fake_github.requests] == [502, 503, 500, 200]
    assert fake_clock.sleeps == [1.0, 2.0]  # exponential backoff: 0, 1, 2 seconds


def test_a_failing_post_is_not_repeated(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.inject(502, method="POST", carry_out=True)
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github).create_comment(REPO, 1, "once")
    assert caught.value.status == 502
    assert [r.method for r in fake_github.requests] == ["POST"]
    assert len(fake_github.comments_of(REPO, 1)) == 1  # it was created; a retry would double it


def test_too_many_5xx_give_the_last_answer(
    fake_github: FakeGitHub, make_client: ClientFactory
) -> None:
    fake_github.inject(504, times=10, method="GET", message="Gateway Timeout")
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github).list_issue_comments(REPO, 1)
    assert (caught.value.status, caught.value.api_message) == (504, "Gateway Timeout")
    assert len(fake_github.requests) == 5  # one try and four retries


def test_429_retry_after_is_honoured(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject_rate_limit(7, method="GET")
    assert make_client(fake_github).list_issue_comments(REPO, 1) == []
    assert fake_clock.sleeps == [7]
    assert [r.status for r in fake_github.requests] == [429, 200]


def test_429_on_a_post_is_repeated_after_the_wait(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject_rate_limit(4, method="POST")
    make_client(fake_github).create_comment(REPO, 1, "hi")
    assert fake_clock.sleeps == [4]
    assert len(fake_github.comments_of(REPO, 1)) == 1


def test_secondary_rate_limit_with_retry_after(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject_secondary_limit(12, times=2)
    assert make_client(fake_github).create_comment(REPO, 1, "hi").body == "hi"
    assert fake_clock.sleeps == [12, 12]
    assert [r.status for r in fake_github.requests] == [403, 403, 201]


def test_rate_limit_until_reset(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject_secondary_limit(None, reset=int(fake_clock.now) + 20)
    make_client(fake_github).list_issue_comments(REPO, 1)
    assert fake_clock.sleeps == [20]


def test_a_wait_beyond_the_budget_is_not_started(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject_secondary_limit(3600)
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github).list_issue_comments(REPO, 1)
    assert caught.value.status == 403
    assert caught.value.rate_limited is True
    assert "secondary rate limit" in str(caught.value)
    assert fake_clock.sleeps == []


def test_a_retry_after_beyond_the_budget_stops_retrying(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject(503, times=3, method="GET", headers={"retry-after": "61"})
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github).get_pull(REPO, 1)
    assert caught.value.status == 503
    assert fake_clock.sleeps == []
    assert len(fake_github.requests) == 1


def test_waits_add_up_to_the_budget(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject_rate_limit(25, times=5, method="GET")
    with pytest.raises(GitHubError) as caught:
        make_client(fake_github, wait_budget_s=60).list_issue_comments(REPO, 1)
    assert caught.value.status == 429
    assert fake_clock.sleeps == [25, 25]
    assert sum(fake_clock.sleeps) <= 60


def test_no_server_is_an_error_without_a_status(make_client: ClientFactory) -> None:
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
    client = make_client(fake)  # the server is gone: connections are refused
    with pytest.raises(GitHubError) as caught:
        client.get_pull(REPO, 1)
    assert caught.value.status is None
    assert "no response" in str(caught.value)


def test_an_unreadable_retry_after_falls_back_to_backoff(
    fake_github: FakeGitHub, make_client: ClientFactory, fake_clock: FakeClock
) -> None:
    fake_github.inject(503, times=2, method="GET", headers={"retry-after": "soon-ish"})
    assert make_client(fake_github).list_issue_comments(REPO, 1) == []
    assert fake_clock.sleeps == [1.0]


def test_a_session_wide_authorization_never_reaches_the_blob_host(
    make_client: ClientFactory,
) -> None:
    store = FakeBlobStore()
    try:
        with FakeGitHub(blob_store=store) as fake:
            fake.add_token(TOKEN, BOT)
            artifact = fake.add_artifact(REPO, fake.add_run(REPO, head_sha="a" * 40), "r", b"z")
            client = make_client(fake)
            client._session.headers["Authorization"] = f"Bearer {TOKEN}"
            assert client.download_artifact(REPO, artifact) == b"z"
        assert "authorization" not in store.requests[0].headers
    finally:
        store.stop()
