"""A world for running the action's entrypoint: real git repositories (an origin with a default
branch, a checkout on a pull request branch), the real webhook payloads as ``GITHUB_EVENT_PATH``,
and the fake GitHub REST server on loopback."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from github_fake import FIXTURES, TOKEN, FakeGitHub
from ownership import hand_over

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "jobsearch"
REPO = "Codertocat/Hello-World"
BASELINE_REPORT = EXAMPLE / "baseline" / "jobsearch.report.json"


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "-c",
            "safe.directory=*",
            *args,
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def zipped(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def read_outputs(path: Path) -> dict[str, str]:
    """Parse a ``GITHUB_OUTPUT`` file written with ``name<<DELIMITER`` blocks."""
    found: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").split("\n") if path.exists() else []
    i = 0
    while i < len(lines):
        if "<<" in lines[i]:
            name, _, fence = lines[i].partition("<<")
            j = lines.index(fence, i + 1)
            found[name] = "\n".join(lines[i + 1 : j])
            i = j + 1
        else:
            i += 1
    return found


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str


@dataclass
class World:
    tmp: Path
    fake: FakeGitHub
    repo: str = REPO
    number: int = 7
    main_sha: str = ""
    head_sha: str = ""
    workspace: Path = field(init=False)
    origin: Path = field(init=False)

    def __post_init__(self) -> None:
        self.origin = self.tmp / "origin.git"
        self.workspace = self.tmp / "workspace"
        git(self.tmp, "init", "-q", "--bare", "-b", "main", str(self.origin))
        git(self.tmp, "init", "-q", "-b", "main", str(self.workspace))
        shutil.copytree(
            EXAMPLE,
            self.workspace / "evals",
            ignore=shutil.ignore_patterns("baseline", "fairwitness-out", "__pycache__"),
        )
        (self.workspace / "README.md").write_text(
            "# demo\n\n<!-- fairwitness:begin jobsearch:route -->\n"
            "<!-- fairwitness:end jobsearch:route -->\n",
            encoding="utf-8",
        )
        (self.workspace / ".gitignore").write_text("__pycache__/\n", encoding="utf-8")
        git(self.workspace, "add", "-A")
        git(self.workspace, "commit", "-q", "-m", "release 1")
        git(self.workspace, "remote", "add", "origin", self.origin.as_uri())
        git(self.workspace, "push", "-q", "origin", "main")
        self.main_sha = git(self.workspace, "rev-parse", "HEAD")

    def open_pull_request(self, *, candidate: bool = True) -> None:
        """Check out a pull request branch whose agent is release 2 (``candidate``)."""
        git(self.workspace, "checkout", "-q", "-b", "feature")
        config = self.workspace / "evals" / "fairwitness.toml"
        if candidate:
            text = config.read_text(encoding="utf-8").replace("agent:target", "agent:candidate")
            config.write_text(text, encoding="utf-8")
        else:
            (self.workspace / "evals" / "NOTES.md").write_text("docs only\n", encoding="utf-8")
        git(self.workspace, "add", "-A")
        git(self.workspace, "commit", "-q", "-m", "release 2")
        self.head_sha = git(self.workspace, "rev-parse", "HEAD")
        self.fake.add_pull(self.repo, self.number, head_sha=self.head_sha, base_sha=self.main_sha)
        self.fake.set_compare(
            self.repo, "main", self.head_sha, merge_base=self.main_sha, ahead=1, behind=0
        )

    def commit_baseline_report(self) -> None:
        """Commit the release 1 report on main, where the pull request's report is written."""
        out = self.workspace / "evals" / "fairwitness-out"
        out.mkdir(exist_ok=True)
        (out / "jobsearch.report.json").write_bytes(BASELINE_REPORT.read_bytes())
        git(self.workspace, "add", "-A")
        git(self.workspace, "commit", "-q", "-m", "commit the baseline report")
        git(self.workspace, "push", "-q", "origin", "main")
        self.main_sha = git(self.workspace, "rev-parse", "HEAD")

    def forget_the_base_branch(self) -> None:
        """Drop ``main`` and ``origin/main`` from the checkout, as ``actions/checkout`` leaves a
        pull request's checkout: the base branch has to be fetched."""
        git(self.workspace, "branch", "-q", "-D", "main")
        git(self.workspace, "update-ref", "-d", "refs/remotes/origin/main")

    def hand_to(self, uid: int, gid: int) -> None:
        """Give the workspace and the origin, every path of them, to ``uid:gid`` (the runner's
        user, while the action's container runs as root)."""
        for top in (self.workspace, self.origin):
            hand_over(top, uid, gid)

    def publish_baseline(self, *, at: str | None = None, name: str = "fairwitness-baseline") -> int:
        """A successful push run on main at ``at`` (the merge base) with the baseline artifact."""
        run_id = self.fake.add_run(self.repo, head_sha=at or self.main_sha)
        self.fake.add_artifact(
            self.repo, run_id, name, zipped({"jobsearch.report.json": BASELINE_REPORT.read_bytes()})
        )
        return run_id

    def pull_request_event(self, *, fork: str | None = None, name: str = "pull_request") -> Path:
        payload: dict[str, Any] = json.loads(
            (FIXTURES / "webhooks" / "pull_request.opened.payload.json").read_text("utf-8")
        )
        payload["number"] = self.number
        pr = payload["pull_request"]
        pr["number"] = self.number
        pr["head"].update(sha=self.head_sha, ref="feature")
        pr["head"]["repo"]["full_name"] = fork or self.repo
        pr["base"].update(sha=self.main_sha, ref="main")
        pr["base"]["repo"]["full_name"] = self.repo
        payload["repository"]["full_name"] = self.repo
        path = self.tmp / f"{name}.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        return path

    def workflow_run_event(self, run_id: int) -> Path:
        payload: dict[str, Any] = json.loads(
            (
                FIXTURES / "webhooks" / "workflow_run.completed.with-pull-requests.payload.json"
            ).read_text("utf-8")
        )
        run = payload["workflow_run"]
        run.update(id=run_id, head_sha=self.head_sha, event="pull_request", head_branch="feature")
        run["pull_requests"] = []  # GitHub leaves this empty for pull requests from forks
        run["head_repository"]["full_name"] = "forker/Hello-World"
        payload["repository"]["full_name"] = self.repo
        path = self.tmp / "workflow_run.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        return path

    def push_event(self) -> Path:
        payload: dict[str, Any] = json.loads(
            (FIXTURES / "webhooks" / "push.payload.json").read_text("utf-8")
        )
        payload.update(ref="refs/heads/main", after=self.main_sha)
        payload["repository"].update(full_name=self.repo, default_branch="main")
        path = self.tmp / "push.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        return path

    def run(
        self,
        event_name: str,
        event_path: Path,
        *,
        api_url: str | None = None,
        token: str = TOKEN,
        python: str = sys.executable,
        entrypoint: Path = ROOT / "entrypoint.py",
        run_id: int = 4242,
        **inputs: str,
    ) -> Result:
        """Run ``entrypoint.py`` as the container would, with the runner's environment."""
        temp = self.tmp / "runner-temp"
        temp.mkdir(exist_ok=True)
        output = temp / "github_output"
        summary = temp / "step_summary"
        for path in (output, summary):
            path.write_text("", encoding="utf-8")
        system = temp / "gitconfig"
        system.write_text("[safe]\n\tdirectory = *\n", encoding="utf-8")
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("GITHUB_", "FW_", "RUNNER_", "INPUT_"))
        }
        env.update(
            GITHUB_ACTIONS="true",
            GITHUB_EVENT_NAME=event_name,
            GITHUB_EVENT_PATH=str(event_path),
            GITHUB_REPOSITORY=self.repo,
            GITHUB_API_URL=api_url or self.fake.api_url,
            GITHUB_SERVER_URL=self.fake.url,
            GITHUB_SHA=self.head_sha or self.main_sha,
            GITHUB_REF=f"refs/pull/{self.number}/merge",
            GITHUB_WORKSPACE=str(self.workspace),
            GITHUB_OUTPUT=str(output),
            GITHUB_STEP_SUMMARY=str(summary),
            GITHUB_RUN_ID=str(run_id),
            RUNNER_TEMP=str(temp),
            FW_GITHUB_TOKEN=token,
            FW_WORKING_DIRECTORY="evals",
            # as the image's `git config --system --add safe.directory '*'`: read by every user
            # and by the `git upload-pack` of a local origin (which drops GIT_CONFIG_COUNT)
            GIT_CONFIG_SYSTEM=str(system),
        )
        if event_name.startswith("pull_request"):
            env.update(GITHUB_BASE_REF="main", GITHUB_HEAD_REF="feature")
        env.update({f"FW_{k.upper()}": v for k, v in inputs.items()})
        done = subprocess.run(
            [python, str(entrypoint)],
            cwd=self.workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        return Result(
            done.returncode,
            done.stdout,
            done.stderr,
            read_outputs(output),
            summary.read_text(encoding="utf-8"),
        )

    def comments(self) -> list[dict[str, Any]]:
        return self.fake.comments_of(self.repo, self.number)
