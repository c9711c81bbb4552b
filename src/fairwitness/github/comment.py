"""The pull request comment: one sticky comment per key, updated in place on every run.

A comment is recognised by a hidden marker on its first line, ``<!-- fairwitness:comment KEY
-->`` (with ``digest=HEX`` before the ``-->`` under ``comment: changes`` and ``failures``), *and*
by its author: only a comment written by the token's own identity is ever edited, so a marker
pasted by somebody else is ignored, and so is one further down a body (where text from an agent
could put it). When GitHub will not name the token's identity (installation tokens get 403 on
``/user``) the author is taken to be ``github-actions[bot]``.

The digest (:func:`~fairwitness.github._digest.decision_digest`) says what the comment decided:
``changes`` leaves the comment alone while it is the new run's, and ``failures`` comments only
while the gate fails, turning an earlier comment into a short "passes now" note once it passes.

:func:`post_comment` never raises: a read-only token (a pull request from a fork) gives a
``forbidden`` outcome, any other failure a ``failed`` one, each with a one-line message fit for a
``::warning::`` annotation, so the caller can fall back to the job summary or an artifact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from fairwitness.errors import FairwitnessError, GitHubError
from fairwitness.github._markdown import FENCE_CLOSE, close_fence
from fairwitness.github.client import GitHubClient
from fairwitness.github.models import Comment
from fairwitness.github.settings import CommentMode

MAX_COMMENT_CHARS = 65_536
"""GitHub refuses a comment body longer than this (HTTP 422)."""
FALLBACK_LOGIN = "github-actions[bot]"
"""The author assumed for comments when the token cannot read its own identity."""
DEFAULT_KEY = "default"
MAX_KEY_CHARS = 100

Action = Literal["created", "updated", "unchanged", "skipped", "forbidden", "failed"]

_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9._/-]+")
_DASHES = re.compile(r"-{2,}")
_MARKER = re.compile(
    r"<!-- fairwitness:comment (?P<key>[A-Za-z0-9._/-]+)(?: digest=(?P<digest>[0-9a-f]{1,64}))? -->"
)


@dataclass(frozen=True)
class CommentOutcome:
    """What happened to the comment."""

    action: Action
    url: str | None = None
    """The comment's web address (created or updated)."""
    comment_id: int | None = None
    message: str | None = None
    """Why it was unchanged, skipped, forbidden or failed: one line, fit for a ``::warning::``."""
    shortened: bool = False
    """The body was cut to fit GitHub's limit (see :func:`fit_comment`)."""

    @property
    def ok(self) -> bool:
        """Whether the comment is as asked: created, updated, left as it was, or not wanted."""
        return self.action in ("created", "updated", "unchanged", "skipped")


def comment_key(key: str | None) -> str:
    """``key`` reduced to ``[A-Za-z0-9._/-]``: other characters become ``-``, runs of ``-``
    one ``-`` (``--`` does not belong in an HTML comment), at most 100 characters; ``default``
    when nothing is left."""
    cleaned = _DASHES.sub("-", _KEY_UNSAFE.sub("-", (key or "").strip()))
    return cleaned.strip("-")[:MAX_KEY_CHARS].strip("-") or DEFAULT_KEY


def marker(key: str | None = None, digest: str | None = None) -> str:
    """The hidden line that identifies the comment of ``key`` (and carries ``digest``)."""
    kept = f" digest={digest}" if digest else ""
    return f"<!-- fairwitness:comment {comment_key(key)}{kept} -->"


def read_marker(body: str) -> tuple[str, str | None] | None:
    """The key and digest of the marker on ``body``'s first line, the only place it is written;
    ``None`` when that line is not a marker."""
    first = body.split("\n", 1)[0].rstrip("\r")
    found = _MARKER.fullmatch(first)
    return None if found is None else (found["key"], found["digest"])


def find_sticky(comments: Iterable[Comment], key: str | None, login: str) -> Comment | None:
    """The oldest comment whose first line is ``key``'s marker and that ``login`` wrote."""
    wanted = comment_key(key)
    for comment in comments:
        author = comment.user_login
        if author is None or author.lower() != login.lower():
            continue
        found = read_marker(comment.body)
        if found is not None and found[0] == wanted:
            return comment
    return None


def digest_of(comment: Comment) -> str | None:
    """The digest ``comment``'s marker carries, if any."""
    found = read_marker(comment.body)
    return None if found is None else found[1]


def passes_now(verdict: str, run_url: str | None) -> str:
    """The short body that replaces a failure's comment once the gate passes (``comment:
    failures``), so the pull request does not keep showing a failure that is gone."""
    where = f"the [workflow run]({run_url})" if run_url else "the job summary of this run"
    return (
        f"### fairwitness: {verdict}\n\n"
        "The gate passes now; the failure this comment showed before is gone. "
        f"The full results are in {where}.\n"
    )


def fit_comment(
    text: str, *, limit: int = MAX_COMMENT_CHARS, summary_url: str | None = None
) -> tuple[str, bool]:
    """``text`` if it fits in ``limit`` characters; otherwise its start, cut at the last line
    break that leaves room for a note pointing at the job summary, and ``True``.

    A last line of defence: the renderer shortens its own output first. The cut is
    deterministic, and a code block left open by it is closed.
    """
    if len(text) <= limit:
        return text, False
    where = f"[job summary]({summary_url})" if summary_url else "job summary of this workflow run"
    note = (
        f"\n\n> [!NOTE]\n> This comment was shortened to fit GitHub's limit of {limit:,} "
        f"characters; the full version is in the {where}.\n"
    )
    room = limit - len(note) - len(FENCE_CLOSE)
    if room <= 0:
        raise ValueError(f"a limit of {limit} characters leaves no room for the note")
    cut = text.rfind("\n", 0, room + 1)
    kept = text[: cut if cut > 0 else room].rstrip()
    return close_fence(kept) + note, True


def upsert_comment(
    client: GitHubClient,
    repo: str,
    number: int,
    body: str,
    *,
    mode: CommentMode = "sticky",
    key: str | None = None,
    login: str | None = None,
    summary_url: str | None = None,
    digest: str | None = None,
    passing: str | None = None,
) -> CommentOutcome:
    """Write ``body`` to pull request (or issue) ``number`` as ``mode`` asks.

    ``sticky`` edits this key's comment (found on any page) or posts it; ``changes`` does the
    same unless that comment's marker already carries ``digest``, the new run's; ``failures``
    is ``sticky`` while the gate fails, and once it passes (``passing``, the short body to say
    so, is given) edits an existing comment to ``passing`` (unless it already says so for this
    ``digest``) and posts nothing when there is none;
    ``new`` always posts; ``off`` does nothing. ``login`` is the token's identity when known;
    otherwise it is asked for. A 403 (a read-only token) gives a ``forbidden`` outcome; other
    failures raise :class:`~fairwitness.errors.GitHubError`.
    """
    if mode == "off":
        return CommentOutcome("skipped", message="commenting is off (comment: off)")
    kept = digest if mode in ("changes", "failures") else None
    passes = passing if mode == "failures" else None
    text, shortened = fit_comment(
        _with_marker(body if passes is None else passes, key, kept), summary_url=summary_url
    )
    try:
        with client.deadline():
            if mode == "new":
                made = client.create_comment(repo, number, text)
                return CommentOutcome("created", made.html_url, made.id, shortened=shortened)
            author = login or client.current_login() or FALLBACK_LOGIN
            found = find_sticky(client.list_issue_comments(repo, number), key, author)
            settled = mode == "changes" or passes is not None
            if found is not None and settled and kept is not None and digest_of(found) == kept:
                return CommentOutcome(
                    "unchanged",
                    found.html_url,
                    found.id,
                    message=f"nothing that matters changed since the comment (comment: {mode})",
                )
            if found is not None:
                made = client.update_comment(repo, found.id, text)
                return CommentOutcome("updated", made.html_url, made.id, shortened=shortened)
            if passes is not None:
                return CommentOutcome(
                    "skipped",
                    message="the gate passes and there is no comment to update (comment: failures)",
                )
            made = _create_once(client, repo, number, text, key, author)
            return CommentOutcome("created", made.html_url, made.id, shortened=shortened)
    except GitHubError as exc:
        if exc.status == 403 and not exc.rate_limited:
            return CommentOutcome(
                "forbidden",
                message=(
                    "the token may not comment on this pull request (read-only, as for a pull "
                    f"request from a fork): {exc.api_message or 'HTTP 403'}"
                ),
                shortened=shortened,
            )
        raise


def post_comment(
    client: GitHubClient,
    repo: str,
    number: int,
    body: str,
    *,
    mode: CommentMode = "sticky",
    key: str | None = None,
    login: str | None = None,
    summary_url: str | None = None,
    digest: str | None = None,
    passing: str | None = None,
) -> CommentOutcome:
    """:func:`upsert_comment` that never raises: any failure is a ``failed`` outcome whose
    message says what went wrong."""
    try:
        return upsert_comment(
            client,
            repo,
            number,
            body,
            mode=mode,
            key=key,
            login=login,
            summary_url=summary_url,
            digest=digest,
            passing=passing,
        )
    except FairwitnessError as exc:
        return CommentOutcome("failed", message=f"could not write the pull request comment: {exc}")
    except Exception as exc:  # a comment is a courtesy: its failure must not end the run
        return CommentOutcome(
            "failed",
            message=f"could not write the pull request comment: {type(exc).__name__}: {exc}",
        )


def _with_marker(body: str, key: str | None, digest: str | None = None) -> str:
    """``body`` with ``key``'s marker (carrying ``digest``) as its first line: one already there
    is replaced, else the marker is put before it."""
    tag = marker(key, digest)
    if read_marker(body) is not None:
        body = body.split("\n", 1)[1] if "\n" in body else ""
    return f"{tag}\n{body}"


def _create_once(
    client: GitHubClient, repo: str, number: int, text: str, key: str | None, login: str
) -> Comment:
    """Post the sticky comment. A POST that failed without a clear answer (no response, or a
    5xx) may still have created it, so look for it before posting a second time."""
    try:
        return client.create_comment(repo, number, text)
    except GitHubError as exc:
        if exc.status is not None and exc.status < 500:
            raise
    landed = find_sticky(client.list_issue_comments(repo, number), key, login)
    if landed is not None:
        return landed if landed.body == text else client.update_comment(repo, landed.id, text)
    return client.create_comment(repo, number, text)
