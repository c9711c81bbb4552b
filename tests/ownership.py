"""File ownership in tests run as root: hand a tree to a user, list what is not theirs, a folder
another user can enter, and git run as that user."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def hand_over(top: Path, uid: int, gid: int) -> None:
    """Give ``top`` and every path under it to ``uid:gid`` (symbolic links themselves)."""
    for path in [top, *top.rglob("*")]:
        os.lchown(path, uid, gid)


def foreign_owned(root: Path, uid: int, gid: int) -> list[str]:
    """Every path under ``root`` (``root`` itself and ``.git`` included, symbolic links not
    followed) that is not owned by ``uid:gid``, as ``path (uid:gid)``."""
    found: list[str] = []
    for path in [root, *sorted(root.rglob("*"))]:
        st = path.lstat()
        if (st.st_uid, st.st_gid) != (uid, gid):
            found.append(f"{path.relative_to(root).as_posix() or '.'} ({st.st_uid}:{st.st_gid})")
    return found


def git_as(uid: int, cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``git ARGS`` in ``cwd`` run as ``uid`` (its group too, no other groups)."""
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        user=uid,
        group=uid,
        extra_groups=[],
        env={"PATH": os.environ["PATH"], "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A temporary folder another user can enter (pytest's own sit under a 0700 folder)."""
    path = Path(tempfile.mkdtemp(prefix="fairwitness-owner-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
