"""Pull requests from forks: their token cannot comment, so the comment travels as an artifact.

The pull request's run leaves, in ``fairwitness-comment/``, one metadata file per comment
(``fairwitness.comment/1``: repository, pull request, head sha, key, suite) and the candidate
report it is about; the workflow uploads that folder. A second workflow, on ``workflow_run``,
runs with the base repository's token and code: it downloads the artifact through the REST API,
checks that the pull request named has the head the run was made on, resolves the baseline and
renders the comment itself from the report (nothing the fork wrote is posted as it is), and posts
it. No code from the fork is checked out or run.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fairwitness.errors import EXIT_OK, ActionContextError, Problem, ReportError
from fairwitness.github._context import PullContext, SuiteOutcome
from fairwitness.github.comment import comment_key
from fairwitness.github.event import WorkflowRunEvent
from fairwitness.report import Report

if TYPE_CHECKING:
    from fairwitness.github.action import Action

COMMENT_SCHEMA = "fairwitness.comment/1"
COMMENT_DIR = Path("fairwitness-comment")


def leave_for_relay(
    action: Action,
    pull: PullContext,
    cand: Report,
    path: Path,
    outcome: SuiteOutcome,
    key: str,
    why: str,
) -> None:
    """Leave the comment (its metadata and the candidate report) in ``fairwitness-comment/``
    for an artifact that the ``workflow_run`` relay posts."""
    folder = action.workspace / COMMENT_DIR
    name = comment_key(key).replace("/", "_")
    report_name = f"{name}.report.json"
    action.write(folder / report_name, path.read_text(encoding="utf-8"))
    meta = {
        "schema": COMMENT_SCHEMA,
        "repository": pull.repo,
        "pull_request": pull.number,
        "head_sha": pull.head_sha,
        "base_ref": pull.base_ref,
        "key": key,
        "suite": cand.suite,
        "report": report_name,
        "exit_code": outcome.exit_code,
    }
    action.write(folder / f"{name}.json", json.dumps(meta, indent=2) + "\n")
    action.annotations.notice(
        f"{why}: the comment was left in {COMMENT_DIR.as_posix()}/ for the workflow_run "
        "relay (upload it as the artifact "
        f"'{action.s.comment_artifact}')",
        title="fairwitness comment deferred",
    )


def relay(action: Action, event: WorkflowRunEvent) -> tuple[int, dict[str, str]]:
    """Post the comments a fork's pull request run left in its artifact: each is re-rendered
    here from its report, and only for the pull request whose head is the run's head."""
    if action.client is None:
        raise ActionContextError(Problem("the relay needs a token", field="FW_GITHUB_TOKEN"))
    repo = event.repository
    artifacts = [
        a
        for a in action.client.list_run_artifacts(repo, event.run_id)
        if a.name == action.s.comment_artifact and not a.expired
    ]
    if not artifacts:
        action.say(
            f"run {event.run_id} left no '{action.s.comment_artifact}' artifact: nothing to relay"
        )
        return EXIT_OK, {"exit-code": "0", "verdict": "none"}
    data = action.client.download_artifact(repo, artifacts[0].id)
    outcomes: list[SuiteOutcome] = []
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ReportError(Problem("the comment artifact is not a zip file")) from None
    for info in archive.infolist():
        if not info.filename.endswith(".json") or info.filename.endswith(".report.json"):
            continue
        meta = _meta(archive.read(info), info.filename)
        pull = action.client.get_pull(repo, meta["pull_request"])
        if pull.head_sha != event.head_sha:
            action.annotations.warning(
                f"{info.filename} names pull request #{meta['pull_request']}, whose head "
                f"{pull.head_sha[:7]} is not the run's {event.head_sha[:7]}: not posted"
            )
            continue
        action.scratch.mkdir(parents=True, exist_ok=True)
        report_path = action.scratch / Path(str(meta["report"])).name
        report_path.write_bytes(archive.read(str(meta["report"])))
        context = PullContext(repo, pull.number, pull.base_ref, pull.head_sha, True, True)
        outcomes.append(action.handle(report_path, context, key=str(meta["key"])))
    return EXIT_OK, action.outputs(outcomes) | {"exit-code": "0"}


def _meta(data: bytes, name: str) -> dict[str, Any]:
    """A comment's metadata file, checked: schema, pull request number, report and key."""
    try:
        meta = json.loads(data)
    except ValueError:
        raise ReportError(Problem("not valid JSON", file=name)) from None
    if not isinstance(meta, dict) or meta.get("schema") != COMMENT_SCHEMA:
        raise ReportError(Problem(f"not a {COMMENT_SCHEMA} file", file=name, field="schema"))
    for key, kind in (("pull_request", int), ("report", str), ("key", str)):
        value = meta.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ReportError(Problem(f"expected {kind.__name__}", file=name, field=key))
    if Path(meta["report"]).name != meta["report"] or not meta["report"].endswith(".report.json"):
        raise ReportError(
            Problem("expected a file name ending in .report.json", file=name, field="report")
        )
    return meta
