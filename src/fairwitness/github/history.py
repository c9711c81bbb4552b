"""The trend's runs for the action: the report artifacts of the default branch's last successful
push runs, fetched through the REST API.

With ``history: N``, the action lists the successful ``push`` runs of the pull request's base
branch (newest first) and the repository's artifacts of the name the baseline comes from
(``baseline-artifact``), takes each run's newest such artifact until it has ``N``, downloads each
and keeps the report of the candidate's suite
(:func:`~fairwitness.github.baseline.save_suite_report`, as the baseline does), then reads them
as a trend (:func:`~fairwitness.report.history.load_history`, lenient: a bad report is a note).

Nothing here may fail the gate. An expired artifact, or one that cannot be downloaded or holds
no report of the suite, is skipped and said in a note; when the runs cannot be listed at all
(a 404, a 5xx after the client's retries, no token) the trend is unavailable, with the reason.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from fairwitness.errors import FairwitnessError
from fairwitness.github.baseline import save_suite_report
from fairwitness.github.client import GitHubClient
from fairwitness.github.models import Artifact
from fairwitness.report import Report
from fairwitness.report.history import History, load_history

if TYPE_CHECKING:
    from fairwitness.github._context import PullContext
    from fairwitness.github.action import Action

MAX_LISTED = 300
"""Push runs, and artifacts of the name, looked through (three pages of the API each)."""


@dataclass
class Trend:
    """The trend found (or not) and what was skipped on the way."""

    history: History | None = None
    unavailable: str | None = None
    """Why there is no trend, when there is none."""
    skipped: list[str] = field(default_factory=list)

    def notes(self) -> list[str]:
        """Lines for the comment: why the trend is unavailable, or what it skipped."""
        if self.unavailable is not None:
            return [f"trend unavailable: {self.unavailable}"]
        if not self.skipped:
            return []
        shown = "; ".join(self.skipped[:3])
        more = f"; and {len(self.skipped) - 3} more" if len(self.skipped) > 3 else ""
        return [f"trend: skipped {len(self.skipped)} artifact(s): {shown}{more}"]


def fetch_trend(
    client: GitHubClient | None,
    *,
    repo: str | None,
    branch: str | None,
    artifact_name: str,
    candidate: Report,
    runs: int,
    scratch: Path,
) -> Trend:
    """The last ``runs`` default-branch reports of ``candidate``'s suite, as a trend (see the
    module); never raises a fairwitness error."""
    found = Trend()
    if client is None or not repo:
        found.unavailable = "no API token or repository to list the default branch's runs"
        return found
    if not branch:
        found.unavailable = "no base branch is known for this event"
        return found
    folder = scratch / "history"
    shutil.rmtree(folder, ignore_errors=True)
    try:
        listed = client.list_workflow_runs(
            repo, branch=branch, event="push", status="success", limit=MAX_LISTED
        )
        by_run: dict[int, list[Artifact]] = {}
        for artifact in client.list_repo_artifacts(repo, artifact_name, limit=MAX_LISTED):
            if artifact.name == artifact_name and artifact.run_id is not None:
                by_run.setdefault(artifact.run_id, []).append(artifact)
        taken = 0
        for run in listed:
            if taken >= runs:
                break
            if run.id not in by_run:
                continue
            artifact = max(by_run[run.id], key=lambda a: (a.created_at or "", a.id))
            if artifact.expired:
                found.skipped.append(f"run {run.id}: artifact '{artifact_name}' expired")
                continue
            path = folder / str(run.id) / f"{candidate.suite}.report.json"
            try:
                save_suite_report(client, repo, artifact, candidate.suite, path)
            except FairwitnessError as exc:
                found.skipped.append(f"run {run.id}: {exc}")
                continue
            taken += 1
    except FairwitnessError as exc:
        found.unavailable = str(exc)
        return found
    source = f"the last successful {branch} push runs' '{artifact_name}' artifacts"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        found.history = load_history(folder, candidate, limit=runs, strict=False, source=source)
    except (FairwitnessError, OSError) as exc:
        found.unavailable = str(exc)
    return found


def trend_for(
    action: Action, pull: PullContext | None, candidate: Report, context: list[str]
) -> History | None:
    """The trend ``action`` shows for ``candidate`` on ``pull`` (none off a pull request or
    with ``history: 0``); what it could not fetch goes to ``context``, the comment's notes."""
    if pull is None or action.s.history <= 0:
        return None
    trend = fetch_trend(
        action.client,
        repo=pull.repo,
        branch=pull.base_ref,
        artifact_name=action.s.baseline_artifact,
        candidate=candidate,
        runs=action.s.history,
        scratch=action.scratch,
    )
    context.extend(trend.notes())
    return trend.history
