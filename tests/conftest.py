"""Shared fixtures."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from ownership import open_tmp  # noqa: F401  (a fixture every tier may use)

# Property tests must not fail because a shared CI machine was slow for one example, and a failure
# must reproduce: no per-example deadline, and a fixed search order.
settings.register_profile("fairwitness", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("fairwitness")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "jobsearch"


@pytest.fixture
def write_jsonl(tmp_path: Path):
    """Write objects (or raw strings) as lines of a JSONL file and return its path."""

    def write(lines: list[object], name: str = "cases.jsonl") -> Path:
        path = tmp_path / name
        text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def clean_modules() -> Iterator[None]:
    """Forget modules and sys.path entries a test imported from a temp dir (fairwitness stays:
    its tool registry is process-wide)."""
    before_modules = set(sys.modules)
    before_path = list(sys.path)
    yield
    for name in set(sys.modules) - before_modules:
        if name != "fairwitness" and not name.startswith("fairwitness."):
            del sys.modules[name]
    sys.path[:] = before_path
