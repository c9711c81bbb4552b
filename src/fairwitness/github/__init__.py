"""The GitHub-facing layer: settings from the environment, the triggering event, a REST client,
the sticky pull request comment, and step outputs, job summary and annotations.

Only this package knows GitHub. It reads its collaborators (environment, HTTP session, clock,
sleep) from its callers, so tests run it against a local fake of the REST API.
"""

from __future__ import annotations

from fairwitness.errors import ActionContextError, GitHubError
from fairwitness.github._digest import decision_digest
from fairwitness.github._http import WaitBudget, build_session
from fairwitness.github.client import GitHubClient
from fairwitness.github.comment import (
    FALLBACK_LOGIN,
    MAX_COMMENT_CHARS,
    CommentOutcome,
    comment_key,
    digest_of,
    find_sticky,
    fit_comment,
    marker,
    passes_now,
    post_comment,
    read_marker,
    upsert_comment,
)
from fairwitness.github.event import (
    Event,
    OtherEvent,
    PullRequestEvent,
    PushEvent,
    WorkflowRunEvent,
    load_event,
    parse_event,
)
from fairwitness.github.models import Artifact, Comment, CommitComparison, PullRequest, WorkflowRun
from fairwitness.github.outputs import (
    MAX_ANNOTATIONS,
    STEP_SUMMARY_LIMIT,
    Annotations,
    SummaryWrite,
    annotation,
    append_step_summary,
    escape_data,
    escape_property,
    fit_summary,
    set_output,
    set_outputs,
)
from fairwitness.github.settings import CommentMode, Secret, Settings, Shard

__all__ = [
    "ActionContextError",
    "Annotations",
    "Artifact",
    "Comment",
    "CommentMode",
    "CommentOutcome",
    "CommitComparison",
    "Event",
    "FALLBACK_LOGIN",
    "GitHubClient",
    "GitHubError",
    "MAX_ANNOTATIONS",
    "MAX_COMMENT_CHARS",
    "OtherEvent",
    "PullRequest",
    "PullRequestEvent",
    "PushEvent",
    "STEP_SUMMARY_LIMIT",
    "Secret",
    "Settings",
    "Shard",
    "SummaryWrite",
    "WaitBudget",
    "WorkflowRun",
    "WorkflowRunEvent",
    "annotation",
    "append_step_summary",
    "build_session",
    "comment_key",
    "decision_digest",
    "digest_of",
    "escape_data",
    "escape_property",
    "find_sticky",
    "fit_comment",
    "fit_summary",
    "load_event",
    "marker",
    "parse_event",
    "passes_now",
    "post_comment",
    "read_marker",
    "set_output",
    "set_outputs",
    "upsert_comment",
]
