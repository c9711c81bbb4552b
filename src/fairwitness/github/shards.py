"""A sharded run's final job: collect the legs' shard reports from this run's artifacts and
merge them, so the gate and the comment see one report.

Each matrix leg runs ``shard: I/N`` and uploads its shard report (and traces) as an artifact
whose name starts with the ``merge-artifacts`` prefix. The final job lists this workflow run's
artifacts through the REST API, downloads the matching zips, and merges the shards of each suite
(:func:`~fairwitness.report.merge.merge_reports`, which refuses missing, overlapping or foreign
shards) into the config's output folder.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from fairwitness.errors import ActionContextError, Problem, ReportError
from fairwitness.github.client import GitHubClient
from fairwitness.report.io import NotCanonical, read_canonical
from fairwitness.report.merge import merge_reports

MAX_MEMBER_BYTES = 1024 * 1024 * 1024


def collect_shards(
    client: GitHubClient | None,
    repo: str | None,
    run_id: int | None,
    prefix: str,
    scratch: Path,
) -> dict[str, list[Path]]:
    """Download this run's artifacts named ``prefix*`` into ``scratch``; shard reports by suite."""
    if client is None or not repo or run_id is None:
        raise ActionContextError(
            Problem(
                "merge-artifacts needs a token, GITHUB_REPOSITORY and GITHUB_RUN_ID",
                field="FW_MERGE_ARTIFACTS",
            )
        )
    artifacts = [
        a
        for a in client.list_run_artifacts(repo, run_id)
        if a.name.startswith(prefix) and not a.expired
    ]
    if not artifacts:
        raise ActionContextError(
            Problem(
                f"this run (id {run_id}) has no artifact whose name starts with '{prefix}'",
                field="FW_MERGE_ARTIFACTS",
            )
        )
    by_suite: dict[str, list[Path]] = {}
    for artifact in sorted(artifacts, key=lambda a: a.name):
        folder = scratch / "shards" / f"{artifact.id}"
        folder.mkdir(parents=True, exist_ok=True)
        try:
            archive = zipfile.ZipFile(io.BytesIO(client.download_artifact(repo, artifact.id)))
        except zipfile.BadZipFile:
            raise ReportError(
                Problem(f"artifact '{artifact.name}' is not a zip file", field="FW_MERGE_ARTIFACTS")
            ) from None
        for info in archive.infolist():
            name = Path(info.filename).name  # never a path from the archive
            if info.is_dir() or not name.endswith((".report.json", ".traces.jsonl")):
                continue
            if info.file_size > MAX_MEMBER_BYTES:
                raise ReportError(Problem(f"{info.filename} is too large", file=artifact.name))
            target = folder / name
            target.write_bytes(archive.read(info))
            if name.endswith(".report.json"):
                try:
                    header, _ = read_canonical(target)
                except NotCanonical:
                    raise ReportError(
                        Problem("not a shard report as fairwitness writes it", file=name)
                    ) from None
                by_suite.setdefault(str(header.get("suite")), []).append(target)
    if not by_suite:
        raise ReportError(Problem(f"the '{prefix}*' artifacts hold no *.report.json file"))
    return by_suite


def merge_collected(by_suite: dict[str, list[Path]], out_dir: Path) -> list[Path]:
    """Merge each suite's shards into ``out_dir/SUITE.report.json``."""
    merged = []
    for suite, paths in sorted(by_suite.items()):
        target = out_dir / f"{suite}.report.json"
        merge_reports(paths, target, force=True)
        merged.append(target)
    return merged
