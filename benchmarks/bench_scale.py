"""Scale: 100,000 cases x 3 repeats run, split into 4 shards and merged, then gated and rendered.

The suite is a router's: 100,000 cases whose expected route is one of four, with a tag each; the
agent is a no-op async function that answers a route (release 2 breaks every 40th case). Every
step runs as its own process (the CLI), and its peak resident memory is read from the process
itself (``resource.getrusage``), so each figure is one command's cost:

a. ``fairwitness run`` of the whole suite (baseline): peak RSS; target 300 MB.
b. ``fairwitness run --shard I/4`` of release 2, for each shard: the largest peak RSS; 300 MB.
c. ``fairwitness merge`` of the four shard reports: peak RSS; 300 MB.
d. ``fairwitness gate`` of the merged report against the baseline, writing the PR comment and the
   job summary (``--markdown``, ``--summary``): wall time, median of 3; target 3 s.
e. The same gate's peak RSS; target 300 MB.
f. Informational: the wall time of (a) and of the merge.

Run with ``benchmarks/run --only scale`` (``--quick``: 10,000 cases, same targets).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _rows import row

COMMAND = "benchmarks/run --only scale"
CASES = 100_000
QUICK_CASES = 10_000
ROUTES = ("search", "salary", "details", "other")
AGENT = """\
async def target(text: str) -> dict:
    index = int(text.split()[-1])
    route = ("search", "salary", "details", "other")[index % 4]
    return {"text": "ok", "verdict": route}


async def candidate(text: str) -> dict:
    index = int(text.split()[-1])
    route = ("search", "salary", "details", "other")[index % 4]
    return {"text": "ok", "verdict": "other" if index % 40 == 1 else route}
"""
# The peak is read from /proc/self/status (VmHWM: this process image's own high-water mark).
# ``getrusage(RUSAGE_SELF).ru_maxrss`` is no use here: Linux carries the high-water mark of the
# image a process replaced at exec into it, and that image is a fork of the benchmark harness,
# so after a module that made the harness large every command measured reported the harness's
# size (450 MB for each command in one full run, against 172-262 MB measured alone).
MEASURE = """\
import resource, sys
from fairwitness.cli import main
code = main(sys.argv[1:])
peak = None
try:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
except OSError:
    pass
if peak is None:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sys.stderr.write(f"\\nmaxrss_kb={peak}\\n")
sys.exit(code)
"""


def _project(folder: Path, n: int) -> Path:
    (folder / "agent.py").write_text(AGENT, encoding="utf-8")
    with open(folder / "cases.jsonl", "w", encoding="utf-8") as handle:
        for i in range(n):
            case = {
                "id": f"q{i:06d}",
                "input": f"question {i}",
                "expect": {"route": ROUTES[i % 4]},
                "tags": [ROUTES[i % 4]],
            }
            handle.write(json.dumps(case) + "\n")
    config = folder / "fairwitness.toml"
    config.write_text(
        'target = "agent:target"\n[run]\nrepeats = 3\nconcurrency = 64\ntimeout_s = 60\n'
        '[[suites]]\nname = "scale"\npath = "cases.jsonl"\n',
        encoding="utf-8",
    )
    return config


def _measure(args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one CLI command in a fresh process."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1, 2):
        raise RuntimeError(f"{' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    rss_kb = int(done.stderr.rsplit("maxrss_kb=", 1)[1].split()[0])
    return elapsed, rss_kb / 1024


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    n = QUICK_CASES if quick else CASES
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        config = _project(folder, n)
        run_s, run_mb = _measure(["run", str(config), "--out", "base"], folder)
        shard_mb = []
        for i in range(1, 5):
            _, mb = _measure(
                [
                    "run",
                    str(config),
                    "--shard",
                    f"{i}/4",
                    "--out",
                    "shards",
                    "--target",
                    "agent:candidate",
                ],
                folder,
            )
            shard_mb.append(mb)
        shards = sorted(str(p) for p in (folder / "shards").glob("*.report.json"))
        merge_s, merge_mb = _measure(
            ["merge", *shards, "--out", "merged/scale.report.json"], folder
        )
        gate = [
            "gate",
            "base/scale.report.json",
            "merged/scale.report.json",
            "--markdown",
            "comment.md",
            "--summary",
            "summary.md",
        ]
        runs = [_measure(gate, folder) for _ in range(3)]
        if "regression (exit 1)" not in (folder / "comment.md").read_text(encoding="utf-8"):
            raise RuntimeError("the gate did not find release 2's regression")
    gate_s = statistics.median(s for s, _ in runs)
    gate_mb = max(mb for _, mb in runs)
    size = f"{n:,} cases x 3 repeats"
    return [
        row(
            f"fairwitness run, {size}: peak RSS",
            run_mb,
            "MB",
            300,
            run_mb <= 300,
            COMMAND,
            digits=1,
        ),
        row(
            f"fairwitness run --shard I/4, {size}: largest peak RSS of the four",
            max(shard_mb),
            "MB",
            300,
            max(shard_mb) <= 300,
            COMMAND,
            digits=1,
        ),
        row(
            f"fairwitness merge of 4 shards, {size}: peak RSS",
            merge_mb,
            "MB",
            300,
            merge_mb <= 300,
            COMMAND,
            digits=1,
        ),
        row(
            f"fairwitness gate + PR comment + job summary, {n:,}-case reports: wall time "
            "(median of 3 processes)",
            gate_s,
            "s",
            3.0,
            gate_s <= 3.0,
            COMMAND,
            digits=2,
        ),
        row(
            f"fairwitness gate + render, {n:,}-case reports: peak RSS",
            gate_mb,
            "MB",
            300,
            gate_mb <= 300,
            COMMAND,
            digits=1,
        ),
        row(
            f"informational: fairwitness run wall time, {size}",
            run_s,
            "s",
            None,
            None,
            COMMAND,
            digits=1,
        ),
        row(
            f"informational: fairwitness merge wall time, {size}",
            merge_s,
            "s",
            None,
            None,
            COMMAND,
            digits=1,
        ),
    ]
