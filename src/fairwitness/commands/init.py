"""``fairwitness init [DIR]``: write a working config, example cases, an example target, one
custom scorer and a GitHub workflow. Never overwrites: if any file exists, nothing is written."""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path
from typing import TextIO

from fairwitness._atomic import write_atomic
from fairwitness.errors import EXIT_OK, OutputExistsError, Problem

_FILES = {
    "fairwitness.toml": "fairwitness.toml",
    "cases.jsonl": "cases.jsonl",
    "agent.py": "agent.py",
    "checks.py": "checks.py",
}
_WORKFLOW = ".github/workflows/fairwitness.yml"


def _workflow_root(directory: Path) -> Path:
    """The git work tree holding ``directory`` (where .github belongs), else ``directory``."""
    for parent in [directory, *directory.parents]:
        if (parent / ".git").exists():
            return parent
    return directory


def init(
    directory: str = ".", *, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    """Write the starter files into ``directory``; refuse (exit 4) if any already exists."""
    stdout = stdout or sys.stdout
    target = Path(directory).resolve()
    root = _workflow_root(target)
    rel = os.path.relpath(target, root)
    starter = resources.files("fairwitness.commands") / "starter"
    plan: dict[Path, str] = {
        target / name: (starter / source).read_text(encoding="utf-8")
        for name, source in _FILES.items()
    }
    workflow = (starter / "workflow.yml").read_text(encoding="utf-8")
    plan[root / _WORKFLOW] = workflow.replace("{directory}", "." if rel == "." else rel)
    existing = [p for p in plan if p.exists()]
    if existing:
        names = ", ".join(str(p) for p in existing)
        raise OutputExistsError(
            Problem(f"refusing to overwrite existing file(s): {names}; nothing was written")
        )
    for path, text in plan.items():
        write_atomic(path, text)
        stdout.write(f"wrote {path}\n")
    stdout.write(f"next: fairwitness run {target / 'fairwitness.toml'}\n")
    return EXIT_OK
