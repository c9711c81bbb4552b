"""The Actions part of the fake GitHub: workflow runs, artifacts, and artifact downloads that
redirect to a signed blob URL."""

from __future__ import annotations

import re
from typing import Any

from github_fake_http import FakeBlobStore, Reply, error_reply, json_reply


class ActionsApi:
    """Mixed into :class:`github_fake.FakeGitHub`, whose state and paging it uses."""

    url: str
    api_url: str
    blob_store: FakeBlobStore | None
    runs: dict[str, list[dict[str, Any]]]
    artifacts: dict[str, list[dict[str, Any]]]
    _blobs: dict[str, bytes]
    _lock: Any
    _id: Any
    _now: Any
    _page: Any

    def add_run(
        self,
        repo: str,
        *,
        head_sha: str,
        head_branch: str = "main",
        event: str = "push",
        status: str = "completed",
        conclusion: str | None = "success",
        workflow_id: int = 77,
        workflow_file: str = "ci.yml",
    ) -> int:
        with self._lock:
            run_id = self._id()
            self.runs.setdefault(repo, []).append(
                {
                    "id": run_id,
                    "name": "CI",
                    "head_sha": head_sha,
                    "head_branch": head_branch,
                    "event": event,
                    "status": status,
                    "conclusion": conclusion,
                    "workflow_id": workflow_id,
                    "path": f".github/workflows/{workflow_file}",
                    "html_url": f"{self.url}/{repo}/actions/runs/{run_id}",
                    "created_at": self._now(),
                }
            )
            return run_id

    def add_artifact(
        self, repo: str, run_id: int, name: str, data: bytes, *, expired: bool = False
    ) -> int:
        with self._lock:
            artifact_id = self._id()
            run = next(r for r in self.runs.get(repo, []) if r["id"] == run_id)
            self._blobs[str(artifact_id)] = data
            self.artifacts.setdefault(repo, []).append(
                {
                    "id": artifact_id,
                    "node_id": f"MDg6QXJ0aWZhY3Q{artifact_id}",
                    "name": name,
                    "size_in_bytes": len(data),
                    "url": f"{self.api_url}/repos/{repo}/actions/artifacts/{artifact_id}",
                    "archive_download_url": (
                        f"{self.api_url}/repos/{repo}/actions/artifacts/{artifact_id}/zip"
                    ),
                    "expired": expired,
                    "created_at": self._now(),
                    "expires_at": "2099-01-01T00:00:00Z",
                    "workflow_run": {
                        "id": run_id,
                        "head_branch": run["head_branch"],
                        "head_sha": run["head_sha"],
                    },
                }
            )
            return artifact_id

    def _list_runs(
        self, found: re.Match[str], query: dict[str, list[str]], body: Any, who: object
    ) -> Reply:
        repo = found["repo"]
        runs = list(reversed(self.runs.get(repo, [])))
        wf = found.groupdict().get("wf")
        if wf is not None:
            runs = [r for r in runs if str(r["workflow_id"]) == wf or r["path"].endswith("/" + wf)]
        filters = {k: query[k][0] for k in ("branch", "event", "status", "head_sha") if k in query}
        key = {"branch": "head_branch"}
        for name, value in filters.items():
            runs = [
                r
                for r in runs
                if r[key.get(name, name)] == value
                or (name == "status" and r["conclusion"] == value)
            ]
        path = found.group(0)
        chunk, headers = self._page(runs, query, path, filters)
        return json_reply(200, {"total_count": len(runs), "workflow_runs": chunk}, headers)

    def _run_artifacts(self, found: re.Match[str], query: Any, body: Any, who: object) -> Reply:
        repo = found["repo"]
        items = [
            a for a in self.artifacts.get(repo, []) if a["workflow_run"]["id"] == int(found["run"])
        ]
        chunk, headers = self._page(items, query, found.group(0), {})
        return json_reply(200, {"total_count": len(items), "artifacts": chunk}, headers)

    def _repo_artifacts(
        self, found: re.Match[str], query: dict[str, list[str]], body: Any, who: object
    ) -> Reply:
        items = list(reversed(self.artifacts.get(found["repo"], [])))
        extra = {}
        if "name" in query:
            extra["name"] = query["name"][0]
            items = [a for a in items if a["name"] == extra["name"]]
        chunk, headers = self._page(items, query, found.group(0), extra)
        return json_reply(200, {"total_count": len(items), "artifacts": chunk}, headers)

    def _download(self, found: re.Match[str], query: Any, body: Any, who: object) -> Reply:
        artifact = next(
            (a for a in self.artifacts.get(found["repo"], []) if a["id"] == int(found["id"])), None
        )
        if artifact is None:
            return error_reply(404, "Not Found")
        if artifact["expired"]:
            return error_reply(410, "Artifact has expired")
        key = str(artifact["id"])
        if self.blob_store is not None:
            location = self.blob_store.put(key, self._blobs[key])
        else:
            location = f"{self.url}/_blobs/{key}?sig=s3cr3t-signature"
        return Reply(302, b"", {"location": location})
