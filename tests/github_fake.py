"""A fake GitHub REST API on loopback, answering the way the recordings in
``fixtures/github/rest/`` show (error bodies, ``Link`` pagination headers).

It checks ``Authorization: Bearer TOKEN`` against the tokens it was given, keeps issue comments in
memory, paginates with ``per_page``/``page`` and ``Link`` headers (next pages under
``/repositories/ID/...``, as GitHub does), refuses bodies over 65,536 characters with GitHub's 422,
answers 403 "Resource not accessible by integration" to writes with a read-only token and to
``/user`` with an installation token, serves pulls, compare, workflow runs and artifacts (a zip
download is a 302 to a signed blob URL, on this server or on a separate :class:`FakeBlobStore`),
can prefix every API path (``/api/v3``, as GitHub Enterprise Server does), can inject failures,
and records every request.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

import pytest

from fairwitness.github import GitHubClient
from github_fake_actions import ActionsApi
from github_fake_http import (
    DOCS,
    FakeBlobStore,
    FakeClock,
    LoopbackServer,
    Recorded,
    Reply,
    error_reply,
    json_reply,
    lower,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "github"
TOKEN = "ghs_fake_installation_token_0001"
"""The default token: an installation token acting as ``github-actions[bot]``."""
BOT = "github-actions[bot]"
MAX_BODY = 65_536
EPOCH = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)

__all__ = [
    "BOT",
    "TOKEN",
    "ClientFactory",
    "FakeBlobStore",
    "FakeClock",
    "FakeGitHub",
    "Recorded",
    "fake_clock",
    "fake_github",
    "github_fixtures",
    "make_client",
]


@dataclass
class Identity:
    login: str
    installation: bool = True
    """``/user`` answers 403 (as for the workflow's ``GITHUB_TOKEN``)."""
    read_only: bool = False
    """Writes answer 403 "Resource not accessible by integration"."""


@dataclass
class Injection:
    reply: Reply
    times: int
    method: str | None
    path: str | None
    carry_out: bool
    """Carry the request out, then answer with the failure instead."""


class FakeGitHub(ActionsApi):
    """The fake API server. Use as a context manager, or call :meth:`stop`."""

    def __init__(self, *, prefix: str = "", blob_store: FakeBlobStore | None = None) -> None:
        self.prefix = prefix.rstrip("/")
        self.blob_store = blob_store
        self.tokens: dict[str, Identity] = {}
        self.comments: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.pulls: dict[tuple[str, int], dict[str, Any]] = {}
        self.compares: dict[tuple[str, str], dict[str, Any]] = {}
        self.runs: dict[str, list[dict[str, Any]]] = {}
        self.artifacts: dict[str, list[dict[str, Any]]] = {}
        self.requests: list[Recorded] = []
        self._blobs: dict[str, bytes] = {}
        self._repo_ids: dict[str, int] = {}
        self._injections: list[Injection] = []
        self._next_id = 1000
        self._tick = 0
        self._lock = threading.RLock()
        self._server = LoopbackServer(self._handle)
        self.url = self._server.url
        self.api_url = self.url + self.prefix

    def __enter__(self) -> FakeGitHub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self._server.stop()

    # -- configuration -----------------------------------------------------------------------

    def add_token(
        self, token: str, login: str, *, installation: bool = True, read_only: bool = False
    ) -> None:
        self.tokens[token] = Identity(login, installation, read_only)

    def inject(
        self,
        status: int,
        *,
        times: int = 1,
        message: str = "Server Error",
        headers: dict[str, str] | None = None,
        method: str | None = None,
        path: str | None = None,
        carry_out: bool = False,
        docs: str = DOCS,
    ) -> None:
        """Answer the next ``times`` matching requests (``method``; ``path`` a substring) with
        ``status``."""
        reply = json_reply(status, {"message": message, "documentation_url": docs}, headers)
        with self._lock:
            self._injections.append(Injection(reply, times, method, path, carry_out))

    def inject_rate_limit(
        self, retry_after: int, *, times: int = 1, method: str | None = None
    ) -> None:
        """429 with ``Retry-After``."""
        self.inject(
            429,
            times=times,
            method=method,
            message="API rate limit exceeded for installation.",
            headers={"retry-after": str(retry_after)},
            docs="https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api",
        )

    def inject_secondary_limit(
        self,
        retry_after: int | None,
        *,
        times: int = 1,
        method: str | None = None,
        reset: int | None = None,
    ) -> None:
        """GitHub's secondary rate limit: 403 with ``retry-after`` (or remaining 0 + reset)."""
        headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
        if reset is not None:
            headers |= {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)}
        self.inject(
            403,
            times=times,
            method=method,
            message=(
                "You have exceeded a secondary rate limit. Please wait a few minutes before you "
                "try again."
            ),
            headers=headers,
            docs="https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
            "#about-secondary-rate-limits",
        )

    def add_comment(self, repo: str, number: int, body: str, login: str = BOT) -> dict[str, Any]:
        with self._lock:
            return self._new_comment(repo, number, body, login)

    def comments_of(self, repo: str, number: int) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(c) for c in self.comments.get((repo, number), [])]

    def add_pull(
        self,
        repo: str,
        number: int,
        *,
        head_sha: str,
        base_sha: str,
        head_ref: str = "feature",
        base_ref: str = "main",
        head_repo: str | None = "",
    ) -> None:
        head_full = repo if head_repo == "" else head_repo
        self.pulls[(repo, number)] = {
            "number": number,
            "state": "open",
            "draft": False,
            "head": {
                "ref": head_ref,
                "sha": head_sha,
                "repo": None if head_full is None else {"full_name": head_full},
            },
            "base": {"ref": base_ref, "sha": base_sha, "repo": {"full_name": repo}},
        }

    def set_compare(
        self, repo: str, base: str, head: str, *, merge_base: str, ahead: int, behind: int
    ) -> None:
        status = (
            "identical"
            if ahead == behind == 0
            else "diverged"
            if ahead and behind
            else ("ahead" if ahead else "behind")
        )
        self.compares[(repo, f"{base}...{head}")] = {
            "status": status,
            "ahead_by": ahead,
            "behind_by": behind,
            "total_commits": ahead,
            "merge_base_commit": {"sha": merge_base},
            "commits": [],
            "files": [],
        }

    # -- helpers ---------------------------------------------------------------------------

    def _id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _now(self) -> str:
        self._tick += 1
        return (EPOCH + timedelta(seconds=self._tick)).strftime("%Y-%m-%dT%H:%M:%SZ")

    def _repo_id(self, repo: str) -> int:
        return self._repo_ids.setdefault(repo, 1000 + len(self._repo_ids))

    def _new_comment(self, repo: str, number: int, body: str, login: str) -> dict[str, Any]:
        comment_id = self._id()
        now = self._now()
        comment = {
            "url": f"{self.api_url}/repos/{repo}/issues/comments/{comment_id}",
            "html_url": f"{self.url}/{repo}/pull/{number}#issuecomment-{comment_id}",
            "issue_url": f"{self.api_url}/repos/{repo}/issues/{number}",
            "id": comment_id,
            "node_id": f"IC_fake{comment_id}",
            "user": {"login": login, "id": abs(hash(login)) % 10**8, "type": "Bot"},
            "created_at": now,
            "updated_at": now,
            "author_association": "NONE",
            "body": body,
            "performed_via_github_app": None,
        }
        self.comments.setdefault((repo, number), []).append(comment)
        return comment

    def _page(
        self, items: list[Any], query: dict[str, list[str]], link_path: str, extra: dict[str, str]
    ) -> tuple[list[Any], dict[str, str]]:
        per_page = max(1, min(100, int(query.get("per_page", ["30"])[0])))
        page = max(1, int(query.get("page", ["1"])[0]))
        last = max(1, -(-len(items) // per_page))
        chunk = items[(page - 1) * per_page : page * per_page]

        def link(n: int) -> str:
            return (
                f"{self.api_url}{link_path}?{urlencode({**extra, 'per_page': per_page, 'page': n})}"
            )

        rels: list[str] = []
        if page > 1:
            rels.append(f'<{link(page - 1)}>; rel="prev"')
        if page < last:
            rels.append(f'<{link(page + 1)}>; rel="next"')
            rels.append(f'<{link(last)}>; rel="last"')
        if page > 1:
            rels.append(f'<{link(1)}>; rel="first"')
        return chunk, ({"link": ", ".join(rels)} if rels else {})

    # -- serving ---------------------------------------------------------------------------

    def _handle(self, method: str, target: str, headers: dict[str, str], raw: bytes) -> Reply:
        parts = urlsplit(target)
        query = parse_qs(parts.query)
        headers = lower(headers)
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            return error_reply(400, "Problems parsing JSON")
        with self._lock:
            reply = self._dispatch(method, unquote(parts.path), query, headers, body)
            self.requests.append(
                Recorded(method, parts.path, query, headers, body, status=reply.status)
            )
        base = {
            "x-ratelimit-limit": "5000",
            "x-ratelimit-remaining": "4999",
            "x-ratelimit-reset": "1714568400",
            "x-ratelimit-resource": "core",
            "x-github-media-type": "github.v3; format=json",
        }
        return Reply(reply.status, reply.body, {**base, **reply.headers})

    def _dispatch(
        self,
        method: str,
        path: str,
        query: dict[str, list[str]],
        headers: dict[str, str],
        body: Any,
    ) -> Reply:
        if path.startswith("/_blobs/"):
            data = self._blobs.get(path.removeprefix("/_blobs/"))
            if data is None or "sig" not in query:
                return Reply(403, b"forbidden", {"content-type": "text/plain"})
            return Reply(200, data, {"content-type": "application/zip"})
        if not path.startswith(self.prefix + "/"):
            return error_reply(404, "Not Found")
        path = path.removeprefix(self.prefix)
        auth = headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if not auth:
            return error_reply(401, "Requires authentication")
        if scheme.lower() not in ("bearer", "token") or token not in self.tokens:
            return error_reply(401, "Bad credentials")
        who = self.tokens[token]
        for injection in self._injections:
            if (
                injection.times > 0
                and (injection.method in (None, method))
                and (injection.path is None or injection.path in path)
            ):
                injection.times -= 1
                if injection.carry_out:
                    self._route(method, path, query, body, who)
                return injection.reply
        return self._route(method, path, query, body, who)

    def _route(
        self, method: str, path: str, query: dict[str, list[str]], body: Any, who: Identity
    ) -> Reply:
        for pattern, verb, handler in self._routes():
            found = re.fullmatch(pattern, path)
            if found and verb == method:
                return handler(found, query, body, who)
        return error_reply(404, "Not Found")

    def _routes(self) -> list[tuple[str, str, Callable[..., Reply]]]:
        repo = r"/repos/(?P<repo>[^/]+/[^/]+)"
        return [
            (r"/user", "GET", self._user),
            (repo + r"/issues/(?P<n>\d+)/comments", "GET", self._list_comments),
            (r"/repositories/(?P<rid>\d+)/issues/(?P<n>\d+)/comments", "GET", self._list_comments),
            (repo + r"/issues/(?P<n>\d+)/comments", "POST", self._create_comment),
            (repo + r"/issues/comments/(?P<id>\d+)", "PATCH", self._update_comment),
            (repo + r"/pulls/(?P<n>\d+)", "GET", self._get_pull),
            (repo + r"/compare/(?P<basehead>.+)", "GET", self._compare),
            (repo + r"/actions/runs", "GET", self._list_runs),
            (repo + r"/actions/workflows/(?P<wf>[^/]+)/runs", "GET", self._list_runs),
            (repo + r"/actions/runs/(?P<run>\d+)/artifacts", "GET", self._run_artifacts),
            (repo + r"/actions/artifacts", "GET", self._repo_artifacts),
            (repo + r"/actions/artifacts/(?P<id>\d+)/zip", "GET", self._download),
        ]

    def _repo_of(self, found: re.Match[str]) -> str:
        groups = found.groupdict()
        if groups.get("repo"):
            return groups["repo"]
        rid = int(groups["rid"])
        return next(name for name, i in self._repo_ids.items() if i == rid)

    def _user(self, found: re.Match[str], query: Any, body: Any, who: Identity) -> Reply:
        if who.installation:
            return error_reply(
                403,
                "Resource not accessible by integration",
                "https://docs.github.com/rest/users/users#get-the-authenticated-user",
            )
        return json_reply(200, {"login": who.login, "id": 1, "type": "User"})

    def _list_comments(self, found: re.Match[str], query: Any, body: Any, who: Identity) -> Reply:
        repo = self._repo_of(found)
        number = int(found["n"])
        items = self.comments.get((repo, number), [])
        link_path = f"/repositories/{self._repo_id(repo)}/issues/{number}/comments"
        chunk, headers = self._page(items, query, link_path, {})
        return json_reply(200, chunk, headers)

    def _check_body(self, body: Any, docs: str) -> Reply | None:
        text = body.get("body") if isinstance(body, dict) else None
        if not isinstance(text, str):
            return error_reply(422, 'Invalid request.\n\n"body" wasn\'t supplied.', docs)
        if len(text) > MAX_BODY:
            return error_reply(
                422,
                "Validation Failed",
                docs,
                errors=[
                    {
                        "resource": "IssueComment",
                        "code": "custom",
                        "field": "body",
                        "message": f"body is too long (maximum is {MAX_BODY} characters)",
                    }
                ],
            )
        return None

    def _create_comment(self, found: re.Match[str], query: Any, body: Any, who: Identity) -> Reply:
        docs = "https://docs.github.com/rest/issues/comments#create-an-issue-comment"
        if who.read_only:
            return error_reply(403, "Resource not accessible by integration", docs)
        problem = self._check_body(body, docs)
        if problem is not None:
            return problem
        comment = self._new_comment(found["repo"], int(found["n"]), body["body"], who.login)
        return json_reply(201, comment, {"location": comment["url"]})

    def _update_comment(self, found: re.Match[str], query: Any, body: Any, who: Identity) -> Reply:
        docs = "https://docs.github.com/rest/issues/comments#update-an-issue-comment"
        if who.read_only:
            return error_reply(403, "Resource not accessible by integration", docs)
        comment_id = int(found["id"])
        for (repo, _), comments in self.comments.items():
            for comment in comments:
                if repo == found["repo"] and comment["id"] == comment_id:
                    problem = self._check_body(body, docs)
                    if problem is not None:
                        return problem
                    comment["body"] = body["body"]
                    comment["updated_at"] = self._now()
                    return json_reply(200, comment)
        return error_reply(404, "Not Found", docs)

    def _get_pull(self, found: re.Match[str], query: Any, body: Any, who: Identity) -> Reply:
        pull = self.pulls.get((found["repo"], int(found["n"])))
        return json_reply(200, pull) if pull else error_reply(404, "Not Found")

    def _compare(self, found: re.Match[str], query: Any, body: Any, who: Identity) -> Reply:
        result = self.compares.get((found["repo"], found["basehead"]))
        return json_reply(200, result) if result else error_reply(404, "Not Found")


@dataclass
class ClientFactory:
    """Builds clients on a fake clock against a fake server, and closes them afterwards."""

    clock: FakeClock
    made: list[GitHubClient] = field(default_factory=list)

    def __call__(
        self, fake: FakeGitHub, *, token: str = TOKEN, wait_budget_s: float = 60.0
    ) -> GitHubClient:
        client = GitHubClient.create(
            api_url=fake.api_url,
            token=token,
            clock=self.clock,
            sleep=self.clock.sleep,
            wait_budget_s=wait_budget_s,
            timeout_s=10.0,
        )
        self.made.append(client)
        return client


@pytest.fixture
def github_fixtures() -> Path:
    """The recorded GitHub fixtures (webhook payloads, REST
    recordings)."""
    return FIXTURES.resolve()


@pytest.fixture
def fake_github() -> Iterator[FakeGitHub]:
    """A running fake API that knows :data:`TOKEN` (an installation token of ``BOT``)."""
    with FakeGitHub() as fake:
        fake.add_token(TOKEN, BOT)
        yield fake


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_client(fake_clock: FakeClock) -> Iterator[ClientFactory]:
    factory = ClientFactory(fake_clock)
    yield factory
    for client in factory.made:
        client.close()
