"""Find the baseline report a pull request is compared with.

``baseline`` (the action input) is one of:

- ``auto``: in order, (1) the report artifact of the base branch's successful push run whose head
  is the pull request's merge base; (2) the newest such artifact on the base branch, saying how many
  commits it lags behind the merge base; (3) the report committed at the base ref (``git show``,
  fetching the ref shallowly when the checkout lacks it); (4) none: the caller shows the candidate
  alone;
- ``artifact:NAME``: the newest artifact ``NAME`` made on the base branch;
- ``PATH@REF``: the file ``PATH`` as committed at ``REF``;
- a path to a report file.

An artifact may hold several reports: the one of the candidate's suite is taken. Every step that
could not be used is remembered in :attr:`Baseline.tried`, so the comment can say why there is no
baseline. Nothing here runs code from the pull request.
"""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fairwitness.errors import ActionContextError, FairwitnessError, Problem, ReportError
from fairwitness.github.client import GitHubClient
from fairwitness.github.models import Artifact
from fairwitness.report import Report
from fairwitness.report.lite import load_for_decision

MAX_REPORT_BYTES = 256 * 1024 * 1024

Runner = Callable[..., "subprocess.CompletedProcess[bytes]"]


@dataclass
class Baseline:
    """The baseline found (or not), and how."""

    report: Report | None = None
    path: Path | None = None
    source: str = "none"
    """Where it came from, in words."""
    lag: int | None = None
    """Commits the baseline's own commit lies behind the merge base, when known."""
    tried: list[str] = field(default_factory=list)
    """What was tried and why it could not be used."""

    def describe(self) -> str:
        """One line for the comment."""
        if self.report is None:
            why = "; ".join(self.tried) or "nothing was found"
            return f"no baseline: {why}"
        behind = ""
        if self.lag:
            behind = f"; it is {self.lag} commit(s) behind the merge base"
        return f"baseline: {self.source}{behind}"


class Git:
    """``git`` in one folder; ``runner`` is :func:`subprocess.run` (tests pass their own), and
    ``environ`` the environment git gets (this process's by default).

    With ``owner`` (``uid, gid``; a root process only), every command runs as that user, with no
    supplementary groups, so whatever git creates or rewrites in the repository (``FETCH_HEAD``,
    ``shallow``, ``refs/remotes/...`` and their ``logs/``, objects) belongs to the repository's
    owner, as if the owner had run it. That user is told to trust the repository on the command
    line (``-c safe.directory=*``, as the image's system config tells everyone), because it may
    not read root's global config; when it cannot enter ``$HOME`` or ``$XDG_CONFIG_HOME``, git
    gets a ``HOME`` that does not exist instead of a warning about each config file it tries.
    When that user cannot reach the folder, or this process may not change its user, git runs
    as this process (and the action gives back what it made, see
    :meth:`fairwitness.github.action.Action.give_back`).
    """

    def __init__(
        self,
        cwd: Path,
        runner: Runner = subprocess.run,
        *,
        owner: tuple[int, int] | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.cwd = cwd
        self.owner = owner
        self._run = runner
        self._environ = os.environ if environ is None else environ

    def _git(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        if self.owner is not None and enterable(self.cwd.absolute(), *self.owner):
            uid, gid = self.owner
            try:
                return self._run(
                    ["git", "-c", "safe.directory=*", *args],
                    cwd=self.cwd,
                    capture_output=True,
                    check=False,
                    timeout=120,
                    user=uid,
                    group=gid,
                    extra_groups=[],
                    env=owner_environ(self._environ, uid, gid),
                )
            except PermissionError:
                self.owner = None  # this process may not change its user: git runs as it is
        return self._run(
            ["git", *args],
            cwd=self.cwd,
            capture_output=True,
            check=False,
            timeout=120,
            env=dict(self._environ),
        )

    def toplevel(self) -> Path | None:
        done = self._git("rev-parse", "--show-toplevel")
        return Path(done.stdout.decode().strip()) if done.returncode == 0 else None

    def has(self, ref: str) -> bool:
        return self._git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode == 0

    def fetch(self, ref: str) -> bool:
        """Fetch ``ref`` from origin, one commit deep; True when it worked."""
        return self._git("fetch", "--no-tags", "--depth=1", "origin", ref).returncode == 0

    def show(self, ref: str, path: str) -> bytes | None:
        done = self._git("show", f"{ref}:{path}")
        return done.stdout if done.returncode == 0 else None


NO_HOME = "/nonexistent"
"""``HOME`` for a user that cannot enter the one it was given: git skips a missing config file
silently."""


def enterable(path: Path, uid: int, gid: int) -> bool:
    """Whether ``uid:gid``, without supplementary groups, can reach inside ``path`` by the mode
    bits of it and of every folder above it (a missing folder counts as reachable: nothing is
    read from it)."""
    for folder in [*reversed(path.parents), path]:
        try:
            st = folder.stat()
        except FileNotFoundError:
            return True
        except OSError:
            return False
        if not stat.S_ISDIR(st.st_mode):
            return True
        if st.st_uid == uid:
            bit = stat.S_IXUSR
        elif st.st_gid == gid:
            bit = stat.S_IXGRP
        else:
            bit = stat.S_IXOTH
        if not st.st_mode & bit:
            return False
    return True


def owner_environ(environ: Mapping[str, str], uid: int, gid: int) -> dict[str, str]:
    """``environ`` for a git run as ``uid:gid``: ``HOME`` and ``XDG_CONFIG_HOME`` kept when that
    user can enter them; else ``HOME`` becomes :data:`NO_HOME` and ``XDG_CONFIG_HOME`` is
    dropped (git then looks under ``$HOME/.config``)."""
    env = dict(environ)
    home = env.get("HOME")
    if home and not enterable(Path(home).absolute(), uid, gid):
        env["HOME"] = NO_HOME
    xdg = env.get("XDG_CONFIG_HOME")
    if xdg and not enterable(Path(xdg).absolute(), uid, gid):
        del env["XDG_CONFIG_HOME"]
    return env


def save_suite_report(
    client: GitHubClient, repo: str, artifact: Artifact, suite: str, path: Path
) -> Path:
    """Download ``artifact`` and write the report of ``suite`` it holds to ``path``; raises a
    :class:`~fairwitness.errors.FairwitnessError` saying why it could not."""
    data = client.download_artifact(repo, artifact.id)
    content = _suite_report(data, suite, f"artifact {artifact.name} ({artifact.id})")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def _suite_report(data: bytes, suite: str, where: str) -> bytes:
    """The report of ``suite`` inside an artifact's zip."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ReportError(Problem("the artifact is not a zip file", file=where)) from None
    names = [
        info
        for info in archive.infolist()
        if info.filename.endswith(".report.json") and not info.is_dir()
    ]
    if not names:
        raise ReportError(Problem("the artifact holds no *.report.json file", file=where))
    found: list[bytes] = []
    for info in names:
        if info.file_size > MAX_REPORT_BYTES:
            raise ReportError(Problem(f"{info.filename} is too large", file=where))
        content = archive.read(info)
        try:
            named = json.loads(content).get("suite")
        except (ValueError, AttributeError):
            named = None
        if named == suite or len(names) == 1:
            found.append(content)
    if len(found) != 1:
        listed = ", ".join(info.filename for info in names)
        raise ReportError(
            Problem(f"no single report of suite '{suite}' among {listed}", file=where)
        )
    return found[0]


class BaselineFinder:
    """Resolves the ``baseline`` input for one candidate report."""

    def __init__(
        self,
        *,
        client: GitHubClient | None,
        git: Git,
        repo: str | None,
        base_ref: str | None,
        head_sha: str | None,
        artifact_name: str,
        scratch: Path,
    ) -> None:
        self.client = client
        self.git = git
        self.repo = repo
        self.base_ref = base_ref
        self.head_sha = head_sha
        self.artifact_name = artifact_name
        self.scratch = scratch
        self._merge_base: str | None = None

    # -- the forms of the input -----------------------------------------------------------------

    def resolve(self, spec: str, *, suite: str, committed_path: str | None) -> Baseline:
        """The baseline that ``spec`` names for ``suite``; ``committed_path`` is where the
        candidate's report sits in the repository (for ``auto``'s committed-report step)."""
        spec = spec.strip() or "auto"
        if spec == "auto":
            return self._auto(suite, committed_path)
        if spec.startswith("artifact:"):
            name = spec.partition(":")[2].strip()
            if not name:
                raise ActionContextError(
                    Problem("baseline: artifact:NAME needs a name", field="FW_BASELINE")
                )
            found = Baseline()
            self._newest_artifact(name, suite, found)
            return found
        local = Path(spec)
        if not local.is_absolute():
            local = self.git.cwd / local
        if "@" in spec and not local.exists():
            path, _, ref = spec.rpartition("@")
            found = Baseline()
            self._committed(path, ref, suite, found, required=True)
            return found
        if not local.is_file():
            raise ActionContextError(
                Problem("baseline report not found", file=str(local), field="FW_BASELINE")
            )
        return Baseline(load_for_decision(local), local, f"the file {spec}")

    def _auto(self, suite: str, committed_path: str | None) -> Baseline:
        found = Baseline()
        if self.client is not None and self.repo and self.base_ref:
            if self._merge_base_artifact(suite, found) or self._newest_artifact(
                self.artifact_name, suite, found
            ):
                return found
        elif self.client is None:
            found.tried.append("no API token to look for artifacts")
        if committed_path and self.base_ref:
            self._committed(committed_path, self.base_ref, suite, found, required=False)
        elif not self.base_ref:
            found.tried.append("no base branch is known for this event")
        return found

    # -- the steps ------------------------------------------------------------------------------

    def merge_base(self) -> str | None:
        if (
            self._merge_base is None
            and self.client
            and self.repo
            and self.base_ref
            and self.head_sha
        ):
            try:
                self._merge_base = self.client.compare(
                    self.repo, self.base_ref, self.head_sha
                ).merge_base_sha
            except FairwitnessError:
                self._merge_base = None
        return self._merge_base

    def _load_artifact(self, artifact: Artifact, suite: str, found: Baseline, what: str) -> bool:
        assert self.client is not None
        assert self.repo is not None
        try:
            path = self.scratch / f"baseline-{artifact.id}-{suite}.report.json"
            save_suite_report(self.client, self.repo, artifact, suite, path)
            found.report = load_for_decision(path)
        except FairwitnessError as exc:
            found.tried.append(f"{what}: {exc}")
            return False
        found.path = path
        found.source = f"{what} (artifact '{artifact.name}', commit {str(artifact.head_sha)[:7]})"
        return True

    def _merge_base_artifact(self, suite: str, found: Baseline) -> bool:
        assert self.client is not None
        assert self.repo is not None
        base = self.merge_base()
        if base is None:
            found.tried.append("the merge base could not be found through the API")
            return False
        try:
            runs = self.client.list_workflow_runs(
                self.repo, branch=self.base_ref, event="push", status="success", head_sha=base
            )
            for run in runs:
                for artifact in self.client.list_run_artifacts(self.repo, run.id):
                    if artifact.name == self.artifact_name and not artifact.expired:
                        what = f"the {self.base_ref} run {run.id} at the merge base"
                        if self._load_artifact(artifact, suite, found, what):
                            found.lag = 0
                            return True
        except FairwitnessError as exc:
            found.tried.append(f"artifacts at the merge base: {exc}")
            return False
        found.tried.append(
            f"no '{self.artifact_name}' artifact from a successful push run at the merge base "
            f"{base[:7]}"
        )
        return False

    def _newest_artifact(self, name: str, suite: str, found: Baseline) -> bool:
        if self.client is None or not self.repo:
            found.tried.append(f"artifact '{name}': no API token or repository")
            return False
        try:
            artifacts: Sequence[Artifact] = self.client.list_repo_artifacts(self.repo, name)
        except FairwitnessError as exc:
            found.tried.append(f"artifact '{name}': {exc}")
            return False
        usable = [
            a
            for a in artifacts
            if not a.expired and (self.base_ref is None or a.head_branch == self.base_ref)
        ]
        if not usable:
            found.tried.append(f"no unexpired '{name}' artifact on {self.base_ref or 'any branch'}")
            return False
        newest = max(usable, key=lambda a: (a.created_at or "", a.id))
        if not self._load_artifact(newest, suite, found, f"the newest {self.base_ref} artifact"):
            return False
        base = self.merge_base()
        if base and newest.head_sha and self.client is not None and newest.head_sha != base:
            try:
                found.lag = self.client.compare(self.repo, newest.head_sha, base).ahead_by
            except FairwitnessError:
                found.lag = None
        elif newest.head_sha == base:
            found.lag = 0
        return True

    def _committed(
        self, path: str, ref: str, suite: str, found: Baseline, *, required: bool
    ) -> bool:
        for candidate in (f"origin/{ref}", ref):
            if self.git.has(candidate):
                break
        else:
            candidate = "FETCH_HEAD" if self.git.fetch(ref) else ""
        content = self.git.show(candidate, path) if candidate else None
        if content is None:
            message = f"no committed {path} at {ref}"
            if required:
                raise ActionContextError(Problem(message, field="FW_BASELINE"))
            found.tried.append(message)
            return False
        self.scratch.mkdir(parents=True, exist_ok=True)
        target = self.scratch / f"baseline-committed-{suite}.report.json"
        target.write_bytes(content)
        try:
            found.report = load_for_decision(target)
        except FairwitnessError as exc:
            if required:
                raise
            found.tried.append(f"committed {path} at {ref}: {exc}")
            return False
        found.path = target
        found.source = f"{path} as committed on {ref}"
        return True
