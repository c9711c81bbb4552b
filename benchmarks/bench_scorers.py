"""What user-defined scorers cost: ``fairwitness run`` of 20,000 cases x 3 repeats against a
no-op sync target at concurrency 8, with and without three trivial ``@fairwitness.scorer``
functions in ``[[scorers]]`` (each called once per trial, under ``[scoring] scorer_timeout_s``),
as subprocesses of the installed console script, runs interleaved (plain, scored, plain, ...) so
a busy moment of the machine hits both alike; best wall time of 3 each. Target: the scored run
within 1.20x of the plain one measured in the same run.

The three are pass/fail metrics (two capability, one safety), so the row measures calling and
recording scorers. A continuous metric adds the cost of its bootstrap interval, the same for a
built-in one (``facts``) as for a user's.

Run with ``benchmarks/run --only scorers`` (``--quick`` for 2,000 cases, one run each).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _rows import console_script, row

COMMAND = "benchmarks/run --only scorers"

CASES = 20_000
QUICK_CASES = 2_000
REPEATS = 3
CONCURRENCY = 8
RUNS = 3  # best of
RATIO_TARGET = 1.20

TARGET = '''\
"""A no-op sync target."""


def target(text: str) -> str:
    return "ok"
'''

CHECKS = '''\
"""Three trivial pass/fail scorers."""

import fairwitness


@fairwitness.scorer
def answered(case, trace):
    return trace.answer is not None


@fairwitness.scorer(kind="safety")
def shouted(case, trace):
    return (trace.answer or "").isupper() and len(trace.answer or "") > 3


@fairwitness.scorer
def brevity(case, trace):
    return len(trace.answer or "") < 80
'''


def _log(message: str) -> None:
    print(f"  scorers: {message}", file=sys.stderr, flush=True)


def _write(folder: Path, cases: int) -> None:
    with open(folder / "cases.jsonl", "w", encoding="utf-8") as handle:
        for i in range(cases):
            line = {"id": f"case-{i:06d}", "input": f"Any backend engineer jobs in city {i}?"}
            handle.write(json.dumps(line) + "\n")
    (folder / "bench_target.py").write_text(TARGET, encoding="utf-8")
    (folder / "bench_checks.py").write_text(CHECKS, encoding="utf-8")
    common = (
        'target = "bench_target:target"\n\n[run]\n'
        f"repeats = {REPEATS}\nconcurrency = {CONCURRENCY}\ntimeout_s = 10\n"
        'out = "out"\n\n[[suites]]\nname = "bench"\npath = "cases.jsonl"\n'
    )
    (folder / "plain.toml").write_text(common, encoding="utf-8")
    scorers = "".join(
        f'\n[[scorers]]\nref = "bench_checks:{name}"\n'
        for name in ("answered", "shouted", "brevity")
    )
    (folder / "scored.toml").write_text(common + scorers, encoding="utf-8")


def _wall(folder: Path, kind: str, trials: int) -> float:
    out = folder / f"out-{kind}"
    command = [console_script(), "run", f"{kind}.toml", "--out", str(out), "--force"]
    started = time.perf_counter()
    done = subprocess.run(
        command, cwd=folder, stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    expected = f"bench: {trials}/{trials} trials"
    if done.returncode != 0 or expected not in done.stderr:
        raise RuntimeError(f"fairwitness run ({kind}) exited {done.returncode}:\n{done.stderr}")
    if kind == "scored":
        report = json.loads((out / "bench.report.json").read_text(encoding="utf-8"))
        if set(report["scoring"]["scorers"]) != {"answered", "shouted", "brevity"}:
            raise RuntimeError("the scored run's report lists no user scorers")
    return wall


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    """Wall time of the plain and the scored run, and their ratio (the row with the target)."""
    command = COMMAND + (" --quick" if quick else "")
    cases = QUICK_CASES if quick else CASES
    runs = 1 if quick else RUNS
    trials = cases * REPEATS
    walls: dict[str, list[float]] = {"plain": [], "scored": []}
    with tempfile.TemporaryDirectory(prefix="fairwitness-bench-") as tmp:
        folder = Path(tmp)
        _write(folder, cases)
        for i in range(runs):
            for kind in ("plain", "scored"):
                wall = _wall(folder, kind, trials)
                _log(
                    f"fairwitness run, {kind}, {cases:,} cases x {REPEATS}: {wall:.2f} s ({i + 1})"
                )
                walls[kind].append(wall)
    plain, scored = min(walls["plain"]), min(walls["scored"])
    best = f"best of {runs}" if runs > 1 else "one run"
    what = f"{cases:,} cases x {REPEATS}, no-op sync target, concurrency {CONCURRENCY}"
    ratio = scored / plain
    return [
        row(
            f"`fairwitness run` wall with 3 trivial `[[scorers]]` / without, {what} ({best} of "
            f"each, same run: {scored:.2f} s / {plain:.2f} s)",
            ratio,
            "x without",
            RATIO_TARGET,
            ratio <= RATIO_TARGET,
            command,
            digits=4,
        )
    ]
