"""Regenerate the HTML viewer's screenshots: ``python docs/screenshots/regenerate.py``.

Runs the bundled demo's candidate (release 2 of the job-search agent), gates it against release
1's committed report, builds the page ``fairwitness view`` would write (with its traces and the
dataset), and photographs it in headless chromium (Debian's, driven by Playwright): the summary
(``summary.png``) and the case view of the must-pass case that failed (``case.png``). Run
metadata and latencies that change from machine to machine are pinned, so the page, and the
SHA-256 of it kept in ``page.sha256``, change only when the viewer or the numbers do.
"""

from __future__ import annotations

import hashlib
import io
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from fairwitness import Report
from fairwitness.commands.demo import CANDIDATE, FLOORS, example_dir
from fairwitness.commands.run import run
from fairwitness.dataset import Dataset
from fairwitness.gate import decide, gate_settings
from fairwitness.trace.model import Trace
from fairwitness.view import build_page, load_traces, trace_lines

HERE = Path(__file__).resolve().parent
PINNED = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc).isoformat()
CASE = "search-018"


def _pin(report: Report, sha: str) -> Report:
    data = report.json_data()
    data["run"].update(
        created_at=PINNED,
        finished_at=PINNED,
        git_sha=sha,
        python="3.12.0",
        platform="Linux-x86_64",
        config_hash="sha256:0000000000000000",
    )
    for case in data["cases"].values():
        for outcome in case["repeats"]:
            outcome["latency_ms"] = 1.0
    return Report.model_validate(data)


def _pin_trace(trace: Trace) -> Trace:
    calls = [c.model_copy(update={"latency_ms": 0.1}) for c in trace.tool_calls]
    return trace.model_copy(update={"latency_ms": 1.0, "tool_calls": calls})


def demo_page() -> str:
    """The pinned page of the demo's comparison."""
    example = example_dir()
    with tempfile.TemporaryDirectory() as tmp:
        code = run(
            str(example / "fairwitness.toml"),
            out=tmp,
            force=True,
            target=CANDIDATE,
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
        if code != 0:
            raise SystemExit(f"the demo's candidate run failed with exit code {code}")
        path = Path(tmp) / "jobsearch.report.json"
        cand = Report.load(path)
        traces = load_traces(Path(tmp) / "jobsearch.traces.jsonl", trace_lines(cand))
    cand = _pin(cand, "2222222bbbbbb")
    base_path = example / "baseline" / "jobsearch.report.json"
    base = _pin(Report.load(base_path), "1111111aaaaaa")
    base_traces = load_traces(base_path.with_name("jobsearch.traces.jsonl"), trace_lines(base))
    settings, _ = gate_settings(config=str(example / "fairwitness.toml"), floors=FLOORS)
    decision = decide(base, cand, settings)
    return build_page(
        cand,
        base,
        decision,
        traces={line: _pin_trace(t) for line, t in traces.items()},
        baseline_traces={line: _pin_trace(t) for line, t in base_traces.items()},
        cases={case.id: case for case in Dataset.load(example / "cases.jsonl")},
        names=("candidate", "baseline"),
    )


def render_all(dest: Path) -> list[Path]:
    """Write ``page.sha256``, ``summary.png`` and ``case.png`` under ``dest``."""
    from playwright.sync_api import sync_playwright

    html = demo_page()
    dest.mkdir(parents=True, exist_ok=True)
    digest = dest / "page.sha256"
    digest.write_text(hashlib.sha256(html.encode("utf-8")).hexdigest() + "\n", encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        page_path = Path(tmp) / "report.html"
        page_path.write_text(html, encoding="utf-8")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(page_path.as_uri())
            page.wait_for_selector("body[data-ready]")
            page.screenshot(path=str(dest / "summary.png"))
            page.goto(page_path.as_uri() + f"#case={CASE}")
            page.wait_for_selector(f'#case-view[data-case="{CASE}"]')
            page.locator("#cases").screenshot(path=str(dest / "case.png"))
            browser.close()
    return [digest, dest / "summary.png", dest / "case.png"]


if __name__ == "__main__":
    for written in render_all(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(written)
