"""Foundation benchmarks: end-to-end throughput and memory, runner overhead, start-up time.

a. ``fairwitness run`` end to end, as a subprocess of the installed console script: 20,000 cases x
   3 repeats at the starter config's concurrency (8), against a no-op async target and a no-op
   sync target, runs interleaved (async, sync, async, ...) so a busy moment of the machine hits
   both alike; best wall time of 3 and highest peak RSS. Targets: each under 3 s and 150 MB, and
   the sync path within 1.2x of the async path measured in the same run (sync targets run on
   worker threads; the async path is the reference for what the harness itself costs).
b. The runner in process (``Runner`` + ``NullTraceSink``): 2,000 cases x 3 repeats of a target that
   sleeps 20 ms, concurrency 200. The ideal wall time is trials x 0.02 s / 200; target 1.15x ideal.
c. Start-up: ``python -c "import fairwitness"`` and ``fairwitness --version``, best of 10, target
   150 ms each; ``python -c pass`` is reported alongside as the interpreter's own floor.
d. ``fairwitness run`` of 100,000 cases x 3 repeats (a router's cases, with expected routes and
   tags) against a no-op sync target at concurrency 8: peak RSS, target 300 MB (wall time
   informational).

Run with ``benchmarks/run --only foundation`` (``--quick`` for reduced sizes).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _rows import console_script, row

COMMAND = "benchmarks/run --only foundation"

E2E_CASES = 20_000
E2E_REPEATS = 3
E2E_CONCURRENCY = 8  # the starter config's (fairwitness init)
E2E_TIMEOUT_S = 10
E2E_RUNS = 3  # end-to-end runs of each target: best wall time, highest peak RSS
E2E_WALL_TARGET_S = 3.0
E2E_RSS_TARGET_MB = 150.0
E2E_SYNC_RATIO_TARGET = 1.2  # sync wall / async wall, same run

LARGE_CASES = 100_000
LARGE_QUICK_CASES = 5_000
LARGE_RSS_TARGET_MB = 300.0

RUNNER_CASES = 2_000
RUNNER_REPEATS = 3
RUNNER_CONCURRENCY = 200
RUNNER_SLEEP_S = 0.02
RUNNER_TIMEOUT_S = 10.0
RUNNER_RUNS = 3  # best of
RUNNER_TARGET_RATIO = 1.15

STARTUP_RUNS = 10  # best of
STARTUP_TARGET_MS = 150.0

ASYNC_TARGET = '''\
"""A no-op async target."""


async def target(text: str) -> str:
    return "ok"
'''

SYNC_TARGET = '''\
"""A no-op sync target."""


def target(text: str) -> str:
    return "ok"
'''

# Runs one command and reports its wall time and peak RSS as JSON on stdout.
#
# Why a separate, fresh interpreter: ``getrusage(RUSAGE_CHILDREN).ru_maxrss`` is the maximum over
# every child the calling process has ever waited for, so in the benchmark process it would also
# cover earlier children. Worse, on Linux a child started with vfork (what ``subprocess`` uses)
# shares its parent's memory until it execs, and the kernel folds the high-water mark of the
# memory it leaves behind at exec into the child's ``maxrss``: a child of the benchmark process
# (which has fairwitness imported and has just run 6,000 trials in process) would be charged the
# benchmark process's own peak. This wrapper has waited for no other child and its own footprint
# is a few MB (plain interpreter plus ``subprocess``), far below the figure being measured, so the
# maximum it reports is the peak of ``fairwitness run`` itself (and of anything ``fairwitness run``
# waited for, such as a short-lived ``git``). ``ru_maxrss`` is in KiB on Linux, bytes on macOS.
MEASURE_CHILD = """\
import json, resource, subprocess, sys, time
command = json.loads(sys.argv[1])
with open(sys.argv[2], "wb") as log:
    started = time.perf_counter()
    code = subprocess.call(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    wall = time.perf_counter() - started
maxrss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
scale = 1 if sys.platform == "darwin" else 1024
print(json.dumps({"code": code, "wall_s": wall, "peak_rss_bytes": maxrss * scale}))
"""


def _row(
    figure: str,
    value: float,
    unit: str,
    target: float | None,
    command: str,
    *,
    informational: bool = False,
) -> dict[str, Any]:
    passed = None if informational or target is None else value <= target
    return row(figure, value, unit, target, passed, command, digits=4)


def _log(message: str) -> None:
    print(f"  foundation: {message}", file=sys.stderr, flush=True)


# -- a. end to end -------------------------------------------------------------------------------


def _write_project(folder: Path, cases: int, repeats: int) -> None:
    with open(folder / "cases.jsonl", "w", encoding="utf-8") as handle:
        for i in range(cases):
            line = {"id": f"case-{i:06d}", "input": f"Any backend engineer jobs in city {i}?"}
            handle.write(json.dumps(line) + "\n")
    (folder / "async_target.py").write_text(ASYNC_TARGET, encoding="utf-8")
    (folder / "sync_target.py").write_text(SYNC_TARGET, encoding="utf-8")
    for kind in ("async", "sync"):
        (folder / f"{kind}.toml").write_text(
            f'target = "{kind}_target:target"\n'
            "\n"
            "[run]\n"
            f"repeats = {repeats}\n"
            f"concurrency = {E2E_CONCURRENCY}\n"
            f"timeout_s = {E2E_TIMEOUT_S}\n"
            'out = "out"\n'
            "\n"
            "[[suites]]\n"
            'name = "bench"\n'
            'path = "cases.jsonl"\n',
            encoding="utf-8",
        )


def _measure_cli(folder: Path, kind: str, trials: int) -> tuple[float, float]:
    """One ``fairwitness run``: (wall seconds, peak RSS in MB)."""
    out = folder / f"out-{kind}"
    command = [console_script(), "run", str(folder / f"{kind}.toml"), "--out", str(out), "--force"]
    log = folder / f"{kind}.log"
    done = subprocess.run(
        [sys.executable, "-c", MEASURE_CHILD, json.dumps(command), str(log)],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=True,
    )
    measured = json.loads(done.stdout)
    text = log.read_text(encoding="utf-8", errors="replace")
    expected = f"bench: {trials}/{trials} trials"
    if measured["code"] != 0 or expected not in text:
        raise RuntimeError(
            f"fairwitness run ({kind}) exited {measured['code']} without '{expected}':\n{text[-2000:]}"
        )
    if not (out / "bench.report.json").is_file():
        raise RuntimeError(f"fairwitness run ({kind}) wrote no report in {out}")
    shutil.rmtree(out)
    return measured["wall_s"], measured["peak_rss_bytes"] / 1e6  # MB = 10**6 bytes


def _end_to_end(quick: bool, command: str) -> list[dict[str, Any]]:
    cases = 500 if quick else E2E_CASES
    runs = 1 if quick else E2E_RUNS
    trials = cases * E2E_REPEATS
    what = f"{cases:,} cases x {E2E_REPEATS}, concurrency {E2E_CONCURRENCY}"
    walls: dict[str, list[float]] = {"async": [], "sync": []}
    peaks: dict[str, list[float]] = {"async": [], "sync": []}
    with tempfile.TemporaryDirectory(prefix="fairwitness-bench-") as tmp:
        folder = Path(tmp)
        _write_project(folder, cases, E2E_REPEATS)
        for i in range(runs):
            for kind in ("async", "sync"):
                wall, peak = _measure_cli(folder, kind, trials)
                _log(
                    f"fairwitness run, {kind} no-op, {what}: {wall:.2f} s, {peak:.1f} MB ({i + 1})"
                )
                walls[kind].append(wall)
                peaks[kind].append(peak)
    best = f"best of {runs}" if runs > 1 else "one run"
    highest = f"highest of {runs}" if runs > 1 else "one run"
    rows = [
        _row(
            f"`fairwitness run` wall, no-op {kind} target, {what} ({best})",
            min(walls[kind]),
            "s",
            E2E_WALL_TARGET_S,
            command,
        )
        for kind in ("async", "sync")
    ]
    ratio = min(walls["sync"]) / min(walls["async"])
    rows.append(
        _row(
            f"`fairwitness run` wall, sync / async no-op target, {what} (best of each, "
            f"same run: {min(walls['sync']):.2f} s / {min(walls['async']):.2f} s)",
            ratio,
            "x async",
            E2E_SYNC_RATIO_TARGET,
            command,
        )
    )
    rows += [
        _row(
            f"`fairwitness run` peak RSS, no-op {kind} target, {what} ({highest})",
            max(peaks[kind]),
            "MB",
            E2E_RSS_TARGET_MB,
            command,
        )
        for kind in ("async", "sync")
    ]
    return rows


# -- d. a large suite, sync target -----------------------------------------------------------------


LARGE_TARGET = '''\
"""A no-op sync router."""


def target(text: str) -> dict:
    route = ("search", "salary", "details", "other")[int(text.split()[-1]) % 4]
    return {"text": "ok", "verdict": route}
'''


def _large_sync(quick: bool, command: str) -> list[dict[str, Any]]:
    cases = LARGE_QUICK_CASES if quick else LARGE_CASES
    routes = ("search", "salary", "details", "other")
    with tempfile.TemporaryDirectory(prefix="fairwitness-bench-") as tmp:
        folder = Path(tmp)
        with open(folder / "cases.jsonl", "w", encoding="utf-8") as handle:
            for i in range(cases):
                line = {
                    "id": f"case-{i:06d}",
                    "input": f"question {i}",
                    "expect": {"route": routes[i % 4]},
                    "tags": [routes[i % 4]],
                }
                handle.write(json.dumps(line) + "\n")
        (folder / "large_target.py").write_text(LARGE_TARGET, encoding="utf-8")
        (folder / "large.toml").write_text(
            'target = "large_target:target"\n\n[run]\n'
            f"repeats = {E2E_REPEATS}\nconcurrency = {E2E_CONCURRENCY}\ntimeout_s = 60\n"
            'out = "out"\n\n[[suites]]\nname = "bench"\npath = "cases.jsonl"\n',
            encoding="utf-8",
        )
        wall, peak = _measure_cli(folder, "large", cases * E2E_REPEATS)
    _log(
        f"fairwitness run, sync no-op, {cases:,} cases x {E2E_REPEATS}: {wall:.1f} s, {peak:.1f} MB"
    )
    what = f"{cases:,} cases x {E2E_REPEATS}, no-op sync target, concurrency {E2E_CONCURRENCY}"
    return [
        _row(
            f"`fairwitness run` peak RSS, {what} (one run)",
            peak,
            "MB",
            LARGE_RSS_TARGET_MB,
            command,
        ),
        _row(
            f"`fairwitness run` wall, {what} (one run; informational)",
            wall,
            "s",
            None,
            command,
        ),
    ]


# -- b. the runner in process --------------------------------------------------------------------


async def _sleeping_target(text: str) -> str:
    await asyncio.sleep(RUNNER_SLEEP_S)
    return "ok"


def _runner_overhead(quick: bool, command: str) -> list[dict[str, Any]]:
    from fairwitness import Case, Dataset, Runner
    from fairwitness.trace.sink import NullTraceSink

    cases = 200 if quick else RUNNER_CASES
    runs = 1 if quick else RUNNER_RUNS
    trials = cases * RUNNER_REPEATS
    ideal = trials * RUNNER_SLEEP_S / RUNNER_CONCURRENCY
    dataset = Dataset([Case(id=f"case-{i:06d}", input=f"question {i}") for i in range(cases)])

    async def once() -> float:
        runner = Runner(
            _sleeping_target,
            suite="bench",
            repeats=RUNNER_REPEATS,
            concurrency=RUNNER_CONCURRENCY,
            timeout_s=RUNNER_TIMEOUT_S,
        )
        sink = NullTraceSink()
        started = time.perf_counter()
        result = await runner.run(dataset, sink)
        wall = time.perf_counter() - started
        if not result.complete or len(result.trials) != trials:
            raise RuntimeError(f"runner ran {len(result.trials)} of {trials} trials")
        if any(t.status != "ok" for t in result.trials):
            raise RuntimeError("a trial of the sleeping target did not end ok")
        return wall

    walls = []
    for i in range(runs):
        wall = asyncio.run(once())
        _log(f"Runner, {trials:,} trials of sleep({RUNNER_SLEEP_S}): {wall:.3f} s ({i + 1})")
        walls.append(wall)
    best = min(walls)
    what = (
        f"{cases:,} cases x {RUNNER_REPEATS} of `asyncio.sleep({RUNNER_SLEEP_S})`, "
        f"concurrency {RUNNER_CONCURRENCY}, timeout_s {RUNNER_TIMEOUT_S:g}, NullTraceSink"
    )
    how = f"best of {runs}" if runs > 1 else "one run"
    return [
        _row(
            f"in-process `Runner.run` wall / ideal ({ideal:.3g} s), {what} ({how})",
            best / ideal,
            "x ideal",
            RUNNER_TARGET_RATIO,
            command,
        ),
        _row(
            f"in-process `Runner.run` wall, same run (informational; "
            f"ideal {ideal:.3g} s, {RUNNER_TARGET_RATIO:g}x ideal = "
            f"{ideal * RUNNER_TARGET_RATIO:.3g} s)",
            best,
            "s",
            None,
            command,
        ),
    ]


# -- c. start-up ---------------------------------------------------------------------------------


def _startup(quick: bool, command: str) -> list[dict[str, Any]]:
    runs = 3 if quick else STARTUP_RUNS
    script = console_script()
    commands = {
        "import": ([sys.executable, "-c", "import fairwitness"], 'python -c "import fairwitness"'),
        "version": ([script, "--version"], "fairwitness --version"),
        "floor": ([sys.executable, "-c", "pass"], "python -c pass"),
    }

    def once(argv: list[str]) -> float:
        started = time.perf_counter()
        subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
        )
        return time.perf_counter() - started

    for argv, _ in commands.values():
        once(argv)  # warm up: byte-code caches written, files in the page cache
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(runs):  # rounds, so a slow moment of the machine hits every command alike
        for key, (argv, _) in commands.items():
            best[key] = min(best[key], once(argv))
    for key, (_, text) in commands.items():
        _log(f"{text}: best of {runs} {best[key] * 1000:.1f} ms")
    return [
        _row(
            f"start-up: `{commands['import'][1]}`, best of {runs}",
            best["import"] * 1000,
            "ms",
            STARTUP_TARGET_MS,
            command,
        ),
        _row(
            f"start-up: `{commands['version'][1]}`, best of {runs}",
            best["version"] * 1000,
            "ms",
            STARTUP_TARGET_MS,
            command,
        ),
        _row(
            f"start-up floor: `{commands['floor'][1]}`, best of {runs} (informational)",
            best["floor"] * 1000,
            "ms",
            None,
            command,
        ),
    ]


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    """Measure everything above on this machine; one row per figure."""
    command = COMMAND + (" --quick" if quick else "")
    rows = _end_to_end(quick, command)
    rows += _runner_overhead(quick, command)
    rows += _startup(quick, command)
    rows += _large_sync(quick, command)
    return rows
