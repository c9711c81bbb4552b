"""A throwaway project on disk: config, cases and an agent module with a unique name."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

_counter = itertools.count()

AGENT = """\
from __future__ import annotations

import fairwitness
from fairwitness import tool


@tool(empty_when=lambda rows: rows == [])
async def lookup(q: str) -> list[str]:
    return [] if "none" in q else [q]


async def target(text: str) -> dict[str, str]:
    result = await lookup(q=text)
    fairwitness.current().record_usage(input_tokens=3, output_tokens=2, cost_usd=0.001)
    return {{"text": result.to_model(), "verdict": "lookup"}}
{extra}
"""


@dataclass
class Project:
    root: Path
    module: str

    @property
    def config(self) -> Path:
        return self.root / "fairwitness.toml"

    @property
    def out(self) -> Path:
        return self.root / "fairwitness-out"

    @property
    def report(self) -> Path:
        return self.out / "s.report.json"

    @property
    def traces(self) -> Path:
        return self.out / "s.traces.jsonl"

    def files(self) -> list[str]:
        return sorted(
            str(p.relative_to(self.root))
            for p in self.root.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        )


@pytest.fixture
def project(tmp_path: Path, clean_modules: None) -> Callable[..., Project]:
    def make(
        cases: list[object] | None = None,
        *,
        extra_agent: str = "",
        target: str = "target",
        run: str = "",
        config_extra: str = "",
    ) -> Project:
        module = f"fw_agent_{next(_counter)}_{tmp_path.name.replace('-', '_')}"
        (tmp_path / f"{module}.py").write_text(AGENT.format(extra=extra_agent), encoding="utf-8")
        if cases is None:
            cases = [{"id": f"c{i}", "input": f"q{i}"} for i in range(4)]
        (tmp_path / "cases.jsonl").write_text(
            "".join((c if isinstance(c, str) else json.dumps(c)) + "\n" for c in cases),
            encoding="utf-8",
        )
        (tmp_path / "fairwitness.toml").write_text(
            f'target = "{module}:{target}"\n{config_extra}\n[run]\nrepeats = 2\nconcurrency = 2\n'
            f'timeout_s = 5\n{run}\n[[suites]]\nname = "s"\npath = "cases.jsonl"\n',
            encoding="utf-8",
        )
        return Project(tmp_path, module)

    return make
