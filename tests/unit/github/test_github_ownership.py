"""What the action gives back to the workspace's owner, on real files in a temporary folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fairwitness.github._context import Ownership, foreign

OWNER = 1234

root_only = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="only a root process (as in the action's container) changes ownership",
)


def give(top: Path, uid: int, gid: int) -> None:
    for path in [top, *top.rglob("*")]:
        os.lchown(path, uid, gid)


@root_only
def test_what_the_run_made_or_replaced_is_given_back_and_the_rest_left_as_found(
    tmp_path: Path,
) -> None:
    workspace = tmp_path / "workspace"
    (workspace / ".git" / "refs").mkdir(parents=True)
    (workspace / "old.txt").write_text("someone else's\n", encoding="utf-8")
    (workspace / "replaced.txt").write_text("before\n", encoding="utf-8")
    give(workspace, OWNER, OWNER)
    os.lchown(workspace / "old.txt", 0, 0)
    os.lchown(workspace / "replaced.txt", 4321, 4321)
    ownership = Ownership.of(workspace)
    assert ownership.owner == (OWNER, OWNER)
    assert set(ownership.before) == {workspace / "old.txt", workspace / "replaced.txt"}
    (workspace / ".git" / "refs" / "remotes").mkdir()
    (workspace / ".git" / "FETCH_HEAD").write_text("x\n", encoding="utf-8")
    (workspace / "replaced.txt").unlink()
    (workspace / "replaced.txt").write_text("after\n", encoding="utf-8")
    (workspace / "outside").symlink_to(tmp_path)
    assert ownership.give_back([]) == []
    assert sorted(
        p.relative_to(workspace).as_posix() for p in foreign(workspace, OWNER, OWNER)
    ) == ["old.txt"]
    assert tmp_path.stat().st_uid == 0  # a link is given back, not what it points to


@root_only
def test_a_file_the_action_wrote_is_given_back_even_over_someone_else_s(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "out").mkdir(parents=True)
    (workspace / "out" / "report.json").write_text("{}\n", encoding="utf-8")
    give(workspace, OWNER, OWNER)
    os.lchown(workspace / "out" / "report.json", 0, 0)
    ownership = Ownership.of(workspace)
    (workspace / "out" / "report.json").write_text("{}\n", encoding="utf-8")  # same file
    assert ownership.give_back([workspace / "out" / "report.json", tmp_path / "elsewhere"]) == []
    assert foreign(workspace, OWNER, OWNER) == {}


def test_nothing_to_give_back_unless_root_and_the_workspace_is_someone_else_s(
    tmp_path: Path,
) -> None:
    """A folder this process made is its own (root's, in the container): nothing to do."""
    assert Ownership.of(tmp_path).owner is None
    assert Ownership(tmp_path).give_back([tmp_path / "x"]) == []
