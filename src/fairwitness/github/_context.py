"""What one action run works on: the pull request a comment is for, each suite's outcome, and
who owns the workspace."""

from __future__ import annotations

import os
from collections.abc import Iterable
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
class SuiteOutcome:
    """One suite's result."""

    suite: str
    report_path: Path
    exit_code: int
    verdict: str
    markdown_path: Path | None = None
    comment_url: str | None = None
    reasons: list[str] = field(default_factory=list)
    digest: str | None = None
    """What the gate decided, as the comment's marker keeps it (see ``github._digest``)."""
    comment_action: str | None = None
    """What happened to the comment (``created``, ``updated``, ``unchanged``, ...), when one was
    asked for."""


@dataclass
class Ownership:
    """The workspace's owner, when a root process must leave everything in it to that owner,
    and what in it was someone else's before the run (``path: (inode, uid, gid)``)."""

    workspace: Path
    owner: tuple[int, int] | None = None
    """``uid, gid`` of the workspace, or ``None`` when this process is not root or the workspace
    is root's (nothing to run as someone else, nothing to give back)."""
    before: dict[Path, tuple[int, int, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, workspace: Path) -> Ownership:
        """The ownership of ``workspace`` now, before the run touches it."""
        if not hasattr(os, "geteuid") or os.geteuid() != 0:
            return cls(workspace)
        st = workspace.stat()
        if (st.st_uid, st.st_gid) == (0, 0):
            return cls(workspace)
        return cls(workspace, (st.st_uid, st.st_gid), foreign(workspace, st.st_uid, st.st_gid))

    def give_back(self, written: Iterable[Path]) -> list[Path]:
        """Give the owner every path of the workspace that is not the owner's, unless it was
        someone else's before the run and is still the same file; and whatever the action wrote
        there (``written``: files and folders, what they hold, the folders above them) even
        then. Returns the paths that could not be given back."""
        if self.owner is None:
            return []
        uid, gid = self.owner
        top = self.workspace.resolve()
        todo = {
            path for path, seen in foreign(top, uid, gid).items() if self.before.get(path) != seen
        }
        for path in written:
            where = path.parent.resolve()
            if where != top and top not in where.parents:
                continue  # outside the workspace (the runner's temp folder)
            made = where / path.name
            todo.add(made)
            todo.update(p for p in made.parents if top in p.parents)
            if made.is_dir() and not made.is_symlink():
                todo.update(foreign(made, uid, gid))
        return [path for path in sorted(todo) if not chown(path, uid, gid)]


def foreign(top: Path, uid: int, gid: int) -> dict[Path, tuple[int, int, int]]:
    """Every path below ``top`` (symbolic links not followed) not owned by ``uid:gid``, with its
    inode and owner."""
    found: dict[Path, tuple[int, int, int]] = {}
    for root, dirs, files in os.walk(top):
        for name in [*dirs, *files]:
            path = Path(root, name)
            try:
                st = path.lstat()
            except OSError:
                continue
            if (st.st_uid, st.st_gid) != (uid, gid):
                found[path] = (st.st_ino, st.st_uid, st.st_gid)
    return found


def chown(path: Path, uid: int, gid: int) -> bool:
    """Give ``path`` (a link itself, not what it points to) to ``uid:gid``; False when that
    failed."""
    try:
        st = path.lstat()
        if (st.st_uid, st.st_gid) != (uid, gid):
            os.lchown(path, uid, gid)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return True
