"""Rewrite the golden report and traces. Run only when the saved formats change on purpose:

    python tests/golden/regenerate.py

Latencies are pinned to 1.5 ms and the machine fields to fixed values so the files are stable.
"""

from __future__ import annotations

import asyncio
import re
from datetime import datetime, timezone
from pathlib import Path

from fairwitness import Case, Dataset, Runner, current, tool
from fairwitness.report import build_report
from fairwitness.scoring import ScoreBoard
from fairwitness.trace.sink import JsonlTraceSink

HERE = Path(__file__).resolve().parent


@tool(name="golden_search", empty_when=lambda rows: rows == [])
async def search(q: str) -> list[str]:
    return [] if q == "none" else [q]


async def target(case: Case) -> dict[str, str]:
    result = await search(q=case.text)
    current().record_usage(input_tokens=5, output_tokens=2, cost_usd=0.001)
    current().record_model("golden-model")
    return {"text": result.to_model(), "verdict": "search"}


def main() -> None:
    data = Dataset(
        [
            Case(
                id="a",
                input="jobs",
                must_pass=True,
                tags=["t"],
                expect={"route": "search", "first_tool": "golden_search", "facts": ["jobs"]},
            ),
            Case(id="b", input="none", expect={"route": "lookup"}),
            Case(
                id="c",
                input={"messages": [{"role": "user", "content": "x"}]},
                faults=[{"tool": "golden_search", "kind": "timeout"}],
                expect={"forbidden_tools": ["delete_everything"]},
            ),
        ]
    )
    sink = JsonlTraceSink(HERE / "traces-v1.jsonl")
    result = asyncio.run(
        Runner(target, suite="golden", repeats=2, concurrency=1, seed=1, scoring=ScoreBoard()).run(
            data, sink
        )
    )
    sink.commit()
    result.started_at = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
    result.finished_at = datetime(2026, 11, 30, 12, 0, 1, tzinfo=timezone.utc)
    report = build_report(
        result,
        data,
        target="golden:target",
        seed=1,
        repeats=2,
        concurrency=1,
        timeout_s=None,
        mode="live",
        config_hash="sha256:0000000000000000",
        git_sha="0123456789abcdef0123456789abcdef01234567",
        traces="traces-v1.jsonl",
        board=ScoreBoard(),
    )
    run = report.run.model_copy(update={"python": "3.11.7", "platform": "Linux-x86_64"})
    (HERE / "report-v1.json").write_text(report.model_copy(update={"run": run}).to_json(), "utf-8")
    for name in ("report-v1.json", "traces-v1.jsonl"):
        path = HERE / name
        text = re.sub(r'"latency_ms": ?[0-9.e-]+', '"latency_ms":1.5', path.read_text("utf-8"))
        path.write_text(text, "utf-8")


if __name__ == "__main__":
    main()
