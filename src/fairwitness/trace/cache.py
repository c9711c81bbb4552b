"""The record/replay cache: finished traces keyed by what the agent saw, so reruns make no calls.

The key is the suite, a user-chosen ``cache_key`` (bump it when the agent changes), the target's
name, the case's input and faults, the repeat and the variant. The cache cannot see your code: key
it by commit in CI (e.g. include the agent's version in ``cache_key``) or clear it when the agent
changes. One JSONL file per suite; new entries are merged in atomically when the run ends.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from fairwitness._atomic import write_atomic
from fairwitness.errors import Problem, ReportError
from fairwitness.trace.model import Trace


def cache_key(
    *, suite: str, salt: str, target: str, case_fingerprint: str, repeat: int, variant: str
) -> str:
    """The cache key of one trial."""
    material = "\x1f".join([suite, salt, target, case_fingerprint, str(repeat), variant])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class TraceCache:
    """Traces by key, loaded from and saved to ``<directory>/<suite>.jsonl``."""

    def __init__(self, directory: str | Path, suite: str) -> None:
        safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in suite)
        self.path = Path(directory) / f"{safe}.jsonl"
        self._entries: dict[str, str] = {}
        self._new: dict[str, str] = {}
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, encoding="utf-8") as handle:
            for index, line in enumerate(handle):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                    key, trace = obj["key"], obj["trace"]
                except (json.JSONDecodeError, KeyError, TypeError):
                    raise ReportError(
                        Problem(
                            "corrupt cache entry; delete the file to rebuild it",
                            file=str(self.path),
                            line=index + 1,
                        )
                    ) from None
                self._entries[key] = json.dumps(trace, separators=(",", ":"))

    def __contains__(self, key: str) -> bool:
        return key in self._entries or key in self._new

    def __len__(self) -> int:
        return len(self._entries) + len(self._new)

    def get(self, key: str) -> Trace | None:
        """The cached trace for ``key``, or ``None``."""
        raw = self._new.get(key) or self._entries.get(key)
        return None if raw is None else Trace.model_validate_json(raw)

    def put(self, key: str, trace: Trace) -> None:
        """Remember a freshly recorded trace (saved by :meth:`save`)."""
        self._new[key] = trace.model_dump_json(by_alias=True)

    def save(self) -> None:
        """Merge new entries into the cache file atomically."""
        if not self._new:
            return
        merged = {**self._entries, **self._new}
        write_atomic(
            self.path,
            ('{"key":"' + key + '","trace":' + raw + "}\n" for key, raw in merged.items()),
        )
        self._entries, self._new = merged, {}
