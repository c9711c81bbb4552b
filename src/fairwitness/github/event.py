"""The webhook payload that triggered a run, reduced to what an action run needs.

:func:`load_event` reads ``GITHUB_EVENT_PATH`` and returns one of :class:`PullRequestEvent`
(``pull_request`` and ``pull_request_target``), :class:`PushEvent`, :class:`WorkflowRunEvent`, or
:class:`OtherEvent` for every other trigger. A missing file, bad JSON or a missing or mistyped
field raises :class:`~fairwitness.errors.ActionContextError` naming the file and the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairwitness.errors import ActionContextError, Problem

PULL_REQUEST_EVENTS = ("pull_request", "pull_request_target")


@dataclass(frozen=True)
class PullRequestEvent:
    """A ``pull_request`` or ``pull_request_target`` event."""

    name: str
    action: str | None
    number: int
    head_sha: str
    head_ref: str
    head_repo: str | None
    """The head repository's ``owner/name``; ``None`` when that repository was deleted."""
    base_repo: str
    base_ref: str
    base_sha: str

    @property
    def is_fork(self) -> bool:
        """Whether the change comes from another repository (or from a deleted one)."""
        return self.head_repo is None or self.head_repo.lower() != self.base_repo.lower()


@dataclass(frozen=True)
class PushEvent:
    """A ``push`` event."""

    name: str
    repository: str
    ref: str
    before: str
    after: str
    default_branch: str | None
    deleted: bool

    @property
    def is_default_branch(self) -> bool:
        """Whether the push updated the repository's default branch."""
        return self.default_branch is not None and self.ref == f"refs/heads/{self.default_branch}"


@dataclass(frozen=True)
class WorkflowRunEvent:
    """A ``workflow_run`` event: another workflow's run was requested or completed."""

    name: str
    action: str | None
    repository: str
    run_id: int
    head_sha: str
    head_branch: str | None
    event: str | None
    """The event that triggered the other run (``pull_request``, ``push``, ...)."""
    status: str | None
    conclusion: str | None
    pull_requests: tuple[int, ...]
    """Numbers of the pull requests of the run's head (empty for runs from forks)."""
    head_repo: str | None

    @property
    def is_fork(self) -> bool:
        """Whether the run's head lives in another repository (or in a deleted one)."""
        return self.head_repo is None or self.head_repo.lower() != self.repository.lower()


@dataclass(frozen=True)
class OtherEvent:
    """Any other trigger (``workflow_dispatch``, ``schedule``, ...)."""

    name: str
    repository: str | None


Event = PullRequestEvent | PushEvent | WorkflowRunEvent | OtherEvent


def load_event(name: str, path: Path | None) -> Event:
    """Read the payload of the ``name`` event from ``path`` (``GITHUB_EVENT_PATH``).

    A pull request, push or workflow run needs its payload; any other event is described by its
    name alone when ``path`` is ``None``.
    """
    if path is None:
        if name in (*PULL_REQUEST_EVENTS, "push", "workflow_run"):
            raise ActionContextError(
                f"environment variable GITHUB_EVENT_PATH: not set, but the {name} event needs "
                "its payload"
            )
        return OtherEvent(name=name, repository=None)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ActionContextError(
            Problem(f"cannot read the event payload: {exc.strerror or exc}", file=str(path))
        ) from exc
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ActionContextError(
            Problem(f"not valid JSON: {exc.msg}", file=str(path), line=exc.lineno)
        ) from exc
    if not isinstance(payload, dict):
        raise ActionContextError(Problem("the event payload is not a JSON object", file=str(path)))
    return parse_event(name, payload, source=str(path))


def parse_event(name: str, payload: Mapping[str, Any], *, source: str = "event payload") -> Event:
    """The typed event of ``name`` from an already decoded ``payload``; ``source`` names it in
    errors."""
    read = _Reader(payload, source)
    if name in PULL_REQUEST_EVENTS:
        return PullRequestEvent(
            name=name,
            action=read.optional_str("action"),
            number=read.integer("pull_request.number"),
            head_sha=read.string("pull_request.head.sha"),
            head_ref=read.string("pull_request.head.ref"),
            head_repo=read.repo_name("pull_request.head.repo"),
            base_repo=read.string("pull_request.base.repo.full_name"),
            base_ref=read.string("pull_request.base.ref"),
            base_sha=read.string("pull_request.base.sha"),
        )
    if name == "push":
        return PushEvent(
            name=name,
            repository=read.string("repository.full_name"),
            ref=read.string("ref"),
            before=read.string("before"),
            after=read.string("after"),
            default_branch=read.optional_str("repository.default_branch"),
            deleted=read.optional_bool("deleted"),
        )
    if name == "workflow_run":
        numbers = tuple(
            read.integer(f"workflow_run.pull_requests.{i}.number")
            for i in range(len(read.array("workflow_run.pull_requests")))
        )
        return WorkflowRunEvent(
            name=name,
            action=read.optional_str("action"),
            repository=read.string("repository.full_name"),
            run_id=read.integer("workflow_run.id"),
            head_sha=read.string("workflow_run.head_sha"),
            head_branch=read.optional_str("workflow_run.head_branch"),
            event=read.optional_str("workflow_run.event"),
            status=read.optional_str("workflow_run.status"),
            conclusion=read.optional_str("workflow_run.conclusion"),
            pull_requests=numbers,
            head_repo=read.repo_name("workflow_run.head_repository"),
        )
    return OtherEvent(name=name, repository=read.optional_str("repository.full_name"))


_MISSING = object()


class _Reader:
    """Reads dotted paths (``pull_request.head.sha``; list items by index) from a payload."""

    def __init__(self, payload: Mapping[str, Any], source: str) -> None:
        self._payload = payload
        self._source = source

    def _fail(self, dotted: str, message: str) -> ActionContextError:
        return ActionContextError(Problem(message, file=self._source, field=dotted))

    def _get(self, dotted: str) -> object:
        node: object = self._payload
        for part in dotted.split("."):
            if isinstance(node, Mapping):
                node = node.get(part, _MISSING)
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return _MISSING
            if node is _MISSING:
                return _MISSING
        return node

    def string(self, dotted: str) -> str:
        value = self._get(dotted)
        if value is _MISSING or value is None:
            raise self._fail(dotted, "missing")
        if not isinstance(value, str) or not value:
            raise self._fail(dotted, f"expected a non-empty string, got {value!r}")
        return value

    def optional_str(self, dotted: str) -> str | None:
        value = self._get(dotted)
        if value is _MISSING or value is None:
            return None
        if not isinstance(value, str):
            raise self._fail(dotted, f"expected a string, got {value!r}")
        return value

    def optional_bool(self, dotted: str) -> bool:
        value = self._get(dotted)
        if value is _MISSING or value is None:
            return False
        if not isinstance(value, bool):
            raise self._fail(dotted, f"expected true or false, got {value!r}")
        return value

    def integer(self, dotted: str) -> int:
        value = self._get(dotted)
        if value is _MISSING or value is None:
            raise self._fail(dotted, "missing")
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise self._fail(dotted, f"expected a positive integer, got {value!r}")
        return value

    def array(self, dotted: str) -> list[object]:
        value = self._get(dotted)
        if value is _MISSING or value is None:
            return []
        if not isinstance(value, list):
            raise self._fail(dotted, f"expected a list, got {type(value).__name__}")
        return value

    def repo_name(self, dotted: str) -> str | None:
        """``full_name`` of the repository object at ``dotted``; ``None`` when it is null (a
        deleted repository)."""
        value = self._get(dotted)
        if value is _MISSING:
            raise self._fail(dotted, "missing")
        if value is None:
            return None
        return self.string(f"{dotted}.full_name")
