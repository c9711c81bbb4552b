"""The one kind of link a rendering may hold: to the artifacts of the workflow run that made it.

A PR comment cannot link into a file inside an artifact, so a flipped case links to the run's
artifacts (``{server}/{owner}/{name}/actions/runs/{id}#artifacts``) and names the artifact, the
page in it and the case (the page opens a case from ``#case=ID``). The link is built only from
parts that are checked here, whatever checked them before: an http(s) server of host name
characters, an ``owner/name`` of GitHub's characters, a run id of digits, an artifact and a file
name of letters, digits, ``.``, ``_`` and ``-``. Anything else gives no link, never a link built
from what was given. The link text holds only those names and an escaped case id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

DEFAULT_ARTIFACT: Final = "fairwitness-report"
"""The artifact name the documented workflows upload the HTML report as."""

_SERVER = re.compile(r"https?://[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(?::[0-9]{1,5})?")
_REPOSITORY = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}")
_RUN_ID = re.compile(r"[1-9][0-9]{0,19}")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


@dataclass(frozen=True)
class ArtifactLink:
    """Where the HTML report of a run is: ``url`` (its artifacts), the artifact's ``name`` and
    the ``page`` inside it. Only :func:`artifact_link` makes one."""

    url: str
    name: str
    page: str

    def markdown(self, text: str) -> str:
        """A markdown link to the artifacts; ``text`` must already be escaped for markdown."""
        return f"[{text}]({self.url})"


def artifact_link(
    server_url: str | None,
    repository: str | None,
    run_id: int | str | None,
    *,
    name: str = DEFAULT_ARTIFACT,
    page: str = "report.html",
) -> ArtifactLink | None:
    """The link to a run's artifacts, or ``None`` when any part is missing or not what it must
    be (a value from the environment is not trusted to be well formed)."""
    if server_url is None or repository is None or run_id is None:
        return None
    server = server_url.rstrip("/")
    run = str(run_id)
    if not (
        _SERVER.fullmatch(server)
        and _REPOSITORY.fullmatch(repository)
        and repository.split("/")[1] not in (".", "..")
        and _RUN_ID.fullmatch(run)
        and _NAME.fullmatch(name)
        and _NAME.fullmatch(page)
    ):
        return None
    return ArtifactLink(f"{server}/{repository}/actions/runs/{run}#artifacts", name, page)
