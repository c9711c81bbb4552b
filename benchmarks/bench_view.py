"""The HTML report viewer at scale: 20,000 cases x 3 repeats, with traces, against a baseline.

Both reports are made by the real CLI (``fairwitness run``, an agent with one ``@tool`` and
faults on every fifth case; the suite of ``tests/view_scenarios.py``); then:

a. ``fairwitness view`` of the candidate against the baseline, with traces and the dataset: the
   file's size; target 30 MB.
b. The same command's wall time; informational.
c. Headless chromium (Debian's, driven by Playwright) opening the file from ``file://`` until
   the summary and the case list are on screen: wall time, median of 3; target 2 s.
d. Filtering the case list (the "regressed" outcome, then a text search): the slower of the two,
   from the click or keystroke to the next painted frame, median of 3; target 200 ms.

Run with ``benchmarks/run --only view`` (``--quick``: 2,000 cases, same targets).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _rows import row

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from view_scenarios import make_pair

COMMAND = "benchmarks/run --only view"
CASES = 20_000
QUICK_CASES = 2_000
FILTER = """async (how) => {
  const started = performance.now();
  if (how === "regressed") document.querySelector('[data-outcome="regressed"]').click();
  else {
    const box = document.querySelector('[data-filter="q"]');
    box.value = "question 1999";
    box.dispatchEvent(new Event("input"));
  }
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return performance.now() - started;
}"""


def _browser_figures(html: Path) -> tuple[float, float, int]:
    from playwright.sync_api import sync_playwright

    loads, filters, shown = [], [], 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for _ in range(3):
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            started = time.perf_counter()
            page.goto(html.as_uri())
            page.wait_for_selector("body[data-ready]", timeout=60_000)
            loads.append(time.perf_counter() - started)
            times = [page.evaluate(FILTER, how) for how in ("regressed", "search")]
            filters.append(max(times) / 1000)
            shown = int(page.get_attribute("#shown", "data-shown") or 0)
            page.close()
        browser.close()
    return statistics.median(loads), statistics.median(filters), shown


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    n = QUICK_CASES if quick else CASES
    with tempfile.TemporaryDirectory() as tmp:
        base, cand, cases = make_pair(Path(tmp), n)
        out = Path(tmp) / "report.html"
        started = time.perf_counter()
        args = [
            "view",
            str(cand),
            "--baseline",
            str(base),
            "--cases",
            str(cases),
            "--out",
            str(out),
        ]
        done = subprocess.run(
            [sys.executable, "-m", "fairwitness", *args],
            capture_output=True,
            text=True,
            check=False,
        )
        build_s = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"fairwitness view exited {done.returncode}: {done.stderr[-2000:]}")
        size_mb = out.stat().st_size / 1e6
        load_s, filter_s, shown = _browser_figures(out)
        if shown == 0:
            raise RuntimeError("the filtered list showed no case")
    size = f"{n:,} cases x 3 repeats with traces"
    return [
        row(f"fairwitness view, {size}: HTML file size", size_mb, "MB", 30, size_mb <= 30, COMMAND),
        row(
            f"headless chromium opens it from file:// to the summary and case list, {size}: "
            "wall time (median of 3)",
            load_s,
            "s",
            2.0,
            load_s <= 2.0,
            COMMAND,
            digits=2,
        ),
        row(
            f"filtering the case list (outcome, then text search), {n:,} cases: click to painted "
            "frame, slower of the two (median of 3)",
            filter_s * 1000,
            "ms",
            200,
            filter_s * 1000 <= 200,
            COMMAND,
            digits=1,
        ),
        row(
            f"informational: fairwitness view wall time, {size}",
            build_s,
            "s",
            None,
            None,
            COMMAND,
            digits=1,
        ),
    ]
