"""The parts of GitHub's REST responses the action reads, as small frozen models.

Unknown fields are ignored (GitHub adds fields over time); a missing field the action needs makes
the response invalid, which the client reports as a :class:`~fairwitness.errors.GitHubError`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, use_attribute_docstrings=True)


class Comment(_Model):
    """An issue (or pull request) comment."""

    id: int
    body: str = ""
    """The markdown body (GitHub may send ``null`` for an empty one)."""
    html_url: str
    user_login: str | None = None
    """The author's login; ``None`` for a deleted ("ghost") account."""
    created_at: str | None = None
    updated_at: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _flatten(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            user = data.get("user")
            if "user_login" not in data:
                data["user_login"] = user.get("login") if isinstance(user, dict) else None
            if data.get("body") is None:
                data["body"] = ""
        return data


class PullRequest(_Model):
    """A pull request, as far as comparing its head with its base goes."""

    number: int
    state: str
    draft: bool = False
    head_sha: str
    head_ref: str
    head_repo: str | None
    """The head repository's ``owner/name``; ``None`` when it was deleted."""
    base_sha: str
    base_ref: str
    base_repo: str

    @model_validator(mode="before")
    @classmethod
    def _flatten(cls, data: Any) -> Any:
        if isinstance(data, dict) and "head" in data and "base" in data:
            head, base = data["head"] or {}, data["base"] or {}
            head_repo = head.get("repo")
            return {
                "number": data.get("number"),
                "state": data.get("state"),
                "draft": bool(data.get("draft")),
                "head_sha": head.get("sha"),
                "head_ref": head.get("ref"),
                "head_repo": head_repo.get("full_name") if isinstance(head_repo, dict) else None,
                "base_sha": base.get("sha"),
                "base_ref": base.get("ref"),
                "base_repo": (base.get("repo") or {}).get("full_name"),
            }
        return data

    @property
    def is_fork(self) -> bool:
        """Whether the head lives in another repository (or in a deleted one)."""
        return self.head_repo is None or self.head_repo.lower() != self.base_repo.lower()


class WorkflowRun(_Model):
    """One run of a workflow."""

    id: int
    name: str | None = None
    head_sha: str
    head_branch: str | None = None
    event: str
    status: str | None = None
    conclusion: str | None = None
    workflow_id: int | None = None
    html_url: str | None = None
    created_at: str | None = None


class Artifact(_Model):
    """An artifact uploaded by a workflow run."""

    id: int
    name: str
    size_in_bytes: int = Field(ge=0)
    expired: bool = False
    created_at: str | None = None
    expires_at: str | None = None
    run_id: int | None = None
    """The run that uploaded it."""
    head_sha: str | None = None
    """The commit that run was for."""
    head_branch: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _flatten(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("workflow_run"), dict):
            run = data["workflow_run"]
            data = dict(data)
            data.setdefault("run_id", run.get("id"))
            data.setdefault("head_sha", run.get("head_sha"))
            data.setdefault("head_branch", run.get("head_branch"))
        return data


class CommitComparison(_Model):
    """How two commits relate: their merge base and how far each side moved from it."""

    status: str
    """``ahead``, ``behind``, ``diverged`` or ``identical`` (head relative to base)."""
    ahead_by: int = Field(ge=0)
    behind_by: int = Field(ge=0)
    merge_base_sha: str

    @model_validator(mode="before")
    @classmethod
    def _flatten(cls, data: Any) -> Any:
        if isinstance(data, dict) and "merge_base_sha" not in data:
            data = dict(data)
            base = data.get("merge_base_commit")
            data["merge_base_sha"] = base.get("sha") if isinstance(base, dict) else None
        return data
