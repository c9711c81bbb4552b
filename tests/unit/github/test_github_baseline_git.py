"""``Git`` of the baseline finder run as the repository's owner: against real repositories in
temporary folders, the files a shallow fetch makes belong to the owner; and the environment
that owner gets."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from fairwitness.github.baseline import NO_HOME, Git, enterable, owner_environ
from ownership import foreign_owned, hand_over

OWNER = 1234
OTHER = 4321

root_only = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="only a root process (as in the action's container) can run git as another user",
)


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.fixture
def checkout(open_tmp: Path) -> Path:
    """A clone whose origin's ``main`` holds ``report.json``, on a branch of its own and without
    ``main`` or ``origin/main``, as a pull request's checkout is."""
    origin = open_tmp / "origin.git"
    work = open_tmp / "work"
    git(open_tmp, "init", "-q", "--bare", "-b", "main", str(origin))
    git(open_tmp, "init", "-q", "-b", "main", str(work))
    (work / "report.json").write_text('{"suite": "s"}\n', encoding="utf-8")
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "one")
    git(work, "remote", "add", "origin", origin.as_uri())
    git(work, "push", "-q", "origin", "main")
    git(work, "checkout", "-q", "-b", "feature")
    git(work, "branch", "-q", "-D", "main")
    git(work, "update-ref", "-d", "refs/remotes/origin/main")
    return work


@root_only
def test_a_fetch_run_as_the_owner_leaves_the_repository_to_the_owner(
    checkout: Path, open_tmp: Path
) -> None:
    hand_over(open_tmp, OWNER, OWNER)
    environ = {"PATH": os.environ["PATH"], "HOME": "/root", "GIT_CONFIG_NOSYSTEM": "1"}
    repo = Git(checkout, owner=(OWNER, OWNER), environ=environ)
    assert repo.toplevel() == checkout
    assert not repo.has("origin/main") and not repo.has("main")
    assert repo.fetch("main")
    assert repo.show("FETCH_HEAD", "report.json") == b'{"suite": "s"}\n'
    assert (checkout / ".git" / "FETCH_HEAD").exists()
    left = foreign_owned(checkout, OWNER, OWNER)
    assert not left, f"not owned by {OWNER}:{OWNER}:\n" + "\n".join(left)


@root_only
def test_the_owner_trusts_a_repository_someone_else_made(checkout: Path, open_tmp: Path) -> None:
    """No system or global config says ``safe.directory`` here: the command line does."""
    hand_over(open_tmp, OTHER, OTHER)
    environ = {"PATH": os.environ["PATH"], "HOME": NO_HOME, "GIT_CONFIG_NOSYSTEM": "1"}
    repo = Git(checkout, owner=(OWNER, OWNER), environ=environ)
    assert repo.toplevel() == checkout
    assert repo.show("HEAD", "report.json") == b'{"suite": "s"}\n'


@root_only
def test_git_runs_as_this_process_where_the_owner_cannot_reach(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o700)
    git(locked, "init", "-q", "-b", "main", "work")
    hand_over(locked / "work", OWNER, OWNER)
    assert not enterable(locked / "work", OWNER, OWNER)
    # as the image's `git config --system --add safe.directory '*'`
    trust = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory"}
    environ = {**os.environ, **trust, "GIT_CONFIG_VALUE_0": "*"}
    repo = Git(locked / "work", owner=(OWNER, OWNER), environ=environ)
    assert repo.toplevel() == locked / "work"


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[list[str], dict[str, Any]]] = []

    def __call__(self, args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        self.calls.append((args, kwargs))
        return subprocess.CompletedProcess(args, 0, b"", b"")


def test_with_an_owner_every_command_runs_as_it_without_other_groups(open_tmp: Path) -> None:
    runner = Recorder()
    environ = {"PATH": "/usr/bin", "HOME": str(open_tmp)}
    repo = Git(open_tmp, runner, owner=(OWNER, OWNER), environ=environ)
    assert repo.fetch("main")
    ((args, kwargs),) = runner.calls
    assert args[:3] == ["git", "-c", "safe.directory=*"]
    assert args[3:] == ["fetch", "--no-tags", "--depth=1", "origin", "main"]
    assert (kwargs["user"], kwargs["group"], kwargs["extra_groups"]) == (OWNER, OWNER, [])
    assert kwargs["env"] == environ


def test_without_an_owner_git_runs_as_this_process(tmp_path: Path) -> None:
    runner = Recorder()
    Git(tmp_path, runner, environ={"HOME": "/root"}).show("HEAD", "a.json")
    ((args, kwargs),) = runner.calls
    assert args == ["git", "show", "HEAD:a.json"]
    assert not {"user", "group", "extra_groups"} & set(kwargs)
    assert kwargs["env"] == {"HOME": "/root"}


def test_a_process_that_may_not_change_its_user_runs_git_as_it_is(open_tmp: Path) -> None:
    calls: list[dict[str, Any]] = []

    def runner(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        calls.append(kwargs)
        if "user" in kwargs:
            raise PermissionError(1, "Operation not permitted")
        return subprocess.CompletedProcess(args, 0, b"", b"")

    repo = Git(open_tmp, runner, owner=(OWNER, OWNER), environ={})
    assert repo.has("main") and repo.has("origin/main")
    assert ["user" in c for c in calls] == [True, False, False]


def test_enterable_follows_the_mode_bits_of_every_folder_on_the_way(
    tmp_path: Path, open_tmp: Path
) -> None:
    me = (os.getuid(), os.getgid())
    stranger = (me[0] + 1000, me[1] + 1000)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o700)
    (locked / "home").mkdir(mode=0o755)
    assert enterable(locked / "home", *me)
    assert not enterable(locked / "home", *stranger)
    (open_tmp / "home").mkdir(mode=0o755)
    assert enterable(open_tmp / "home", *stranger)
    assert enterable(open_tmp / "missing" / "home", *stranger)
    (open_tmp / "grouped").mkdir()
    (open_tmp / "grouped").chmod(0o750)
    assert not enterable(open_tmp / "grouped", *stranger)


def test_the_owner_gets_a_home_it_can_enter(tmp_path: Path, open_tmp: Path) -> None:
    me = (os.getuid(), os.getgid())
    stranger = (me[0] + 1000, me[1] + 1000)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o700)
    environ = {"HOME": str(locked), "XDG_CONFIG_HOME": str(locked / "config"), "PATH": "/bin"}
    assert owner_environ(environ, *me) == environ
    assert owner_environ(environ, *stranger) == {"HOME": NO_HOME, "PATH": "/bin"}
    reachable = {"HOME": str(open_tmp), "XDG_CONFIG_HOME": str(locked)}
    assert owner_environ(reachable, *stranger) == {"HOME": str(open_tmp)}
    assert owner_environ({}, *stranger) == {}
    assert not Path(NO_HOME).exists()
