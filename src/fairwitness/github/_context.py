"""What one action run works on: the pull request a comment is for, and each suite's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class PullContext:
    """The pull request a comment is for."""

    repo: str
    number: int
    base_ref: str
    head_sha: str
    is_fork: bool
    relayed: bool = False


@dataclass
class Outcome:
    """One suite's result."""

    suite: str
    report_path: Path
    exit_code: int
    verdict: str
    markdown_path: Path | None = None
    comment_url: str | None = None
    reasons: list[str] = field(default_factory=list)
