"""A small GitHub REST client: the calls an action run makes, nothing more.

The base URL comes from ``GITHUB_API_URL`` (``https://HOST/api/v3`` on GitHub Enterprise Server);
no host is written anywhere else. The token travels only to that origin: pagination links and
redirects that point elsewhere are followed without it (or, for pagination, refused).

Retries, rate limits and the waiting budget are described in :mod:`fairwitness.github._http`.
Every failure becomes a :class:`~fairwitness.errors.GitHubError` naming the call, the status,
GitHub's message and its documentation link.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, urljoin, urlsplit

import requests
from pydantic import BaseModel, ValidationError

from fairwitness.errors import GitHubError
from fairwitness.github._http import (
    USER_AGENT,
    Clock,
    Sleep,
    WaitBudget,
    build_session,
    error_from_response,
    rate_limit_wait,
)
from fairwitness.github.models import Artifact, Comment, CommitComparison, PullRequest, WorkflowRun
from fairwitness.github.settings import Secret

if TYPE_CHECKING:
    from fairwitness.github.settings import Settings

API_VERSION = "2022-11-28"
MEDIA_TYPE = "application/vnd.github+json"
PER_PAGE = 100
MAX_PAGES = 1000
MAX_REDIRECTS = 3
DEFAULT_MAX_DOWNLOAD = 512 * 1024 * 1024
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})

_M = TypeVar("_M", bound=BaseModel)


class GitHubClient:
    """GitHub's REST API over ``session``, authenticated with ``token``.

    ``budget`` bounds every wait (retries and rate limits); build the session with
    :func:`~fairwitness.github._http.build_session` on the same budget, or use :meth:`create`.
    Each public call runs under one deadline; wrap several in :meth:`deadline` to share one.
    A client is meant for one thread at a time.
    """

    def __init__(
        self,
        session: requests.Session,
        *,
        api_url: str,
        token: Secret | str | None,
        budget: WaitBudget,
        timeout_s: float = 30.0,
        max_rate_limit_waits: int = 3,
    ) -> None:
        self.api_url = api_url.rstrip("/")
        self._session = session
        self._token = Secret(token) if isinstance(token, str) else token
        self.budget = budget
        self.timeout_s = timeout_s
        self.max_rate_limit_waits = max_rate_limit_waits
        origin = urlsplit(self.api_url)
        self._origin = (origin.scheme, origin.hostname, origin.port)

    @classmethod
    def create(
        cls,
        *,
        api_url: str,
        token: Secret | str | None,
        clock: Clock = time.time,
        sleep: Sleep = time.sleep,
        wait_budget_s: float = 60.0,
        timeout_s: float = 30.0,
    ) -> GitHubClient:
        """A client on a new session that retries within a ``wait_budget_s`` budget."""
        budget = WaitBudget(wait_budget_s, clock=clock, sleep=sleep)
        return cls(
            build_session(budget), api_url=api_url, token=token, budget=budget, timeout_s=timeout_s
        )

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        clock: Clock = time.time,
        sleep: Sleep = time.sleep,
        wait_budget_s: float = 60.0,
    ) -> GitHubClient:
        """A client for the run's API URL and token."""
        return cls.create(
            api_url=settings.api_url,
            token=settings.token,
            clock=clock,
            sleep=sleep,
            wait_budget_s=wait_budget_s,
        )

    def __repr__(self) -> str:
        return f"GitHubClient(api_url={self.api_url!r})"

    def close(self) -> None:
        self._session.close()

    def __enter__(self) -> GitHubClient:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def deadline(self) -> AbstractContextManager[None]:
        """One waiting deadline for every call made inside the ``with`` block."""
        return self.budget.scope()

    # -- calls ---------------------------------------------------------------------------------

    def current_login(self) -> str | None:
        """The login the token acts as; ``None`` when GitHub will not say (an installation token
        such as the workflow's ``GITHUB_TOKEN`` gets 403 on ``/user``)."""
        with self.deadline():
            response = self._send("GET", self._url("/user"))
            if response.status_code in (403, 404):
                return None
            data = self._ok_json(response, "GET /user")
        login = data.get("login") if isinstance(data, dict) else None
        if not isinstance(login, str):
            raise GitHubError("GET /user: the response has no login", request="GET /user")
        return login

    def list_issue_comments(self, repo: str, number: int) -> list[Comment]:
        """Every comment of issue or pull request ``number``, oldest first, over all pages."""
        path = f"{_repo_path(repo)}/issues/{_positive(number)}/comments"
        return self._models(Comment, self._paginate(path), path)

    def create_comment(self, repo: str, number: int, body: str) -> Comment:
        """Post a new comment (never retried on a 5xx: it may have been created)."""
        path = f"{_repo_path(repo)}/issues/{_positive(number)}/comments"
        return self._model(Comment, self._call("POST", path, json={"body": body}), path)

    def update_comment(self, repo: str, comment_id: int, body: str) -> Comment:
        """Replace the body of comment ``comment_id``."""
        path = f"{_repo_path(repo)}/issues/comments/{_positive(comment_id)}"
        return self._model(Comment, self._call("PATCH", path, json={"body": body}), path)

    def get_pull(self, repo: str, number: int) -> PullRequest:
        path = f"{_repo_path(repo)}/pulls/{_positive(number)}"
        return self._model(PullRequest, self._call("GET", path), path)

    def list_workflow_runs(
        self,
        repo: str,
        workflow_id: int | str | None = None,
        *,
        branch: str | None = None,
        event: str | None = None,
        status: str | None = None,
        head_sha: str | None = None,
        limit: int = 100,
    ) -> list[WorkflowRun]:
        """Runs of one workflow (its id or file name), or of every workflow, newest first; at
        most ``limit`` of them."""
        path = _repo_path(repo) + "/actions"
        if workflow_id is not None:
            path += f"/workflows/{quote(str(workflow_id), safe='')}"
        path += "/runs"
        params = {"branch": branch, "event": event, "status": status, "head_sha": head_sha}
        items = self._paginate(path, params, key="workflow_runs", limit=limit)
        return self._models(WorkflowRun, items, path)

    def list_run_artifacts(self, repo: str, run_id: int) -> list[Artifact]:
        """Every artifact uploaded by run ``run_id``."""
        path = f"{_repo_path(repo)}/actions/runs/{_positive(run_id)}/artifacts"
        return self._models(Artifact, self._paginate(path, key="artifacts"), path)

    def list_repo_artifacts(
        self, repo: str, name: str | None = None, *, limit: int = 100
    ) -> list[Artifact]:
        """The repository's artifacts (only those called ``name`` when given), newest first."""
        path = f"{_repo_path(repo)}/actions/artifacts"
        items = self._paginate(path, {"name": name}, key="artifacts", limit=limit)
        return self._models(Artifact, items, path)

    def download_artifact(
        self, repo: str, artifact_id: int, *, max_bytes: int = DEFAULT_MAX_DOWNLOAD
    ) -> bytes:
        """The zip archive of an artifact.

        GitHub answers with a redirect to a short-lived signed URL, usually on another host; the
        redirect is followed without the ``Authorization`` header unless it stays on the API's
        own origin.
        """
        path = f"{_repo_path(repo)}/actions/artifacts/{_positive(artifact_id)}/zip"
        url = self._url(path)
        with self.deadline():
            for _ in range(MAX_REDIRECTS + 1):
                label = self._label("GET", url)
                response = self._send("GET", url, authorized=self._same_origin(url), stream=True)
                if response.status_code in REDIRECT_STATUSES:
                    location = response.headers.get("location")
                    response.close()
                    if not location:
                        raise GitHubError(f"{label}: a redirect without a Location", request=label)
                    url = urljoin(url, location)
                    continue
                if not response.ok:
                    raise error_from_response(response, label)
                return _read_capped(response, max_bytes, label)
        raise GitHubError(f"GET {path}: more than {MAX_REDIRECTS} redirects", request=f"GET {path}")

    def compare(self, repo: str, base: str, head: str) -> CommitComparison:
        """How ``head`` relates to ``base`` (commits, branches or ``owner:branch``)."""
        basehead = f"{quote(base, safe='/:')}...{quote(head, safe='/:')}"
        path = f"{_repo_path(repo)}/compare/{basehead}"
        return self._model(CommitComparison, self._call("GET", path, params={"per_page": 1}), path)

    # -- plumbing ------------------------------------------------------------------------------

    def _url(self, path: str) -> str:
        return self.api_url + path

    def _same_origin(self, url: str) -> bool:
        parts = urlsplit(url)
        return (parts.scheme, parts.hostname, parts.port) == self._origin

    def _label(self, method: str, url: str) -> str:
        """The call as shown in errors: the path on the API, host and path elsewhere; never the
        query (a signed URL carries its signature there)."""
        parts = urlsplit(url)
        if self._same_origin(url):
            return f"{method} {parts.path}"
        return f"{method} {parts.hostname}{parts.path}"

    def _headers(self, authorized: bool) -> dict[str, str | None]:
        # ``None`` removes a header the session may carry by default.
        headers: dict[str, str | None] = {"User-Agent": USER_AGENT, "Authorization": None}
        if authorized:
            headers["Accept"] = MEDIA_TYPE
            headers["X-GitHub-Api-Version"] = API_VERSION
            if self._token:
                headers["Authorization"] = f"Bearer {self._token.reveal()}"
        return headers

    def _send(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        authorized: bool = True,
        stream: bool = False,
    ) -> requests.Response:
        """One request, repeated while GitHub rate-limits it and the budget allows waiting."""
        label = self._label(method, url)
        waits = 0
        while True:
            try:
                response = self._session.request(
                    method,
                    url,
                    params=params,
                    json=json,
                    headers=self._headers(authorized),
                    timeout=self.timeout_s,
                    allow_redirects=False,
                    stream=stream,
                )
            except requests.RequestException as exc:
                raise GitHubError(f"{label}: {_describe(exc)}", request=label) from exc
            wait = rate_limit_wait(response, self.budget.clock())
            if wait is None:
                return response
            if waits >= self.max_rate_limit_waits or not self.budget.wait(wait):
                raise error_from_response(response, label, rate_limited=True)
            response.close()
            waits += 1

    def _call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
    ) -> Any:
        with self.deadline():
            response = self._send(method, self._url(path), params=params, json=json)
            return self._ok_json(response, f"{method} {path}")

    def _ok_json(self, response: requests.Response, label: str) -> Any:
        if not 200 <= response.status_code < 300:
            raise error_from_response(response, label)
        try:
            return response.json()
        except ValueError as exc:
            raise GitHubError(
                f"{label}: HTTP {response.status_code} but the body is not JSON",
                status=response.status_code,
                request=label,
            ) from exc

    def _paginate(
        self,
        path: str,
        params: Mapping[str, Any] | None = None,
        *,
        key: str | None = None,
        limit: int | None = None,
    ) -> list[Any]:
        """Items of every page, following ``Link: <...>; rel="next"``."""
        query: dict[str, Any] | None = {
            **{k: v for k, v in (params or {}).items() if v is not None},
            "per_page": PER_PAGE,
        }
        url: str | None = self._url(path)
        items: list[Any] = []
        with self.deadline():
            for _ in range(MAX_PAGES):
                if url is None:
                    return items
                response = self._send("GET", url, params=query)
                label = f"GET {path}"
                data = self._ok_json(response, label)
                page = data.get(key) if key is not None and isinstance(data, dict) else data
                if not isinstance(page, list):
                    raise GitHubError(f"{label}: expected a list of items", request=label)
                items.extend(page)
                if limit is not None and len(items) >= limit:
                    return items[:limit]
                url, query = response.links.get("next", {}).get("url"), None
                if url is not None and not self._same_origin(url):
                    raise GitHubError(
                        f"{label}: a next-page link leaves {self.api_url}", request=label
                    )
        raise GitHubError(f"GET {path}: more than {MAX_PAGES} pages", request=f"GET {path}")

    def _model(self, model: type[_M], data: Any, path: str) -> _M:
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            raise _unexpected(model, path, exc) from exc

    def _models(self, model: type[_M], items: list[Any], path: str) -> list[_M]:
        return [self._model(model, item, path) for item in items]


def _repo_path(repo: str) -> str:
    owner, _, name = repo.partition("/")
    if not owner or not name or "/" in name or owner in (".", "..") or name in (".", ".."):
        raise ValueError(f"expected a repository as owner/name, got {repo!r}")
    return f"/repos/{quote(owner, safe='')}/{quote(name, safe='')}"


def _positive(number: int) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or number <= 0:
        raise ValueError(f"expected a positive integer, got {number!r}")
    return number


def _describe(exc: requests.RequestException) -> str:
    """Why no response arrived, from the innermost cause, without any URL query string."""
    reason: BaseException = exc
    for _ in range(10):
        inner = getattr(reason, "reason", None)
        if not isinstance(inner, BaseException):
            inner = reason.__cause__ or reason.__context__
        if inner is None:
            break
        reason = inner
    if reason is exc:
        return f"no response ({type(exc).__name__})"
    detail = re.sub(r"\?[^\s'\")]*", "", str(reason))
    return f"no response ({type(exc).__name__}: {type(reason).__name__}: {detail})"


def _unexpected(model: type[BaseModel], path: str, exc: ValidationError) -> GitHubError:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(root)"
    return GitHubError(
        f"{path}: unexpected {model.__name__} in the response: {where}: {first['msg']}",
        request=path,
    )


def _read_capped(response: requests.Response, max_bytes: int, label: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    try:
        for chunk in _iter_body(response):
            size += len(chunk)
            if size > max_bytes:
                raise GitHubError(f"{label}: larger than {max_bytes} bytes", request=label)
            chunks.append(chunk)
    except requests.RequestException as exc:
        raise GitHubError(f"{label}: {_describe(exc)}", request=label) from exc
    finally:
        response.close()
    return b"".join(chunks)


def _iter_body(response: requests.Response) -> Iterator[bytes]:
    yield from response.iter_content(chunk_size=1 << 16)
