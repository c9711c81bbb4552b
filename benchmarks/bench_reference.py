"""Reference benchmark: ``fairwitness run`` and neverempty 0.1.0 on the same work, in the same run.

The performance target for a no-op sync target (20,000 cases x 3 repeats, concurrency 8, the
starter config's) is under 3 s, stated as a 9x lead on neverempty 0.1.0. That lead is measured
here, never quoted: every run of this module installs the reference and times both tools, one
after the other in rounds (so a slow moment of the machine hits both alike), best of 3 each.

How the reference is run
    neverempty 0.1.0 is installed with pip into a throwaway virtualenv (``python -m venv`` of this
    interpreter, so both tools run on the same Python) in a temporary folder, and run through its
    own CLI, as its README says: ``neverempty run scored.toml --out scored.report.json``, the
    config holding one ``[[suite]]`` (the cases file, ``split = "dev"``, ``scorers = ["route"]``)
    and ``[run] repeats = 3, concurrency = 8, case_timeout_s = 10``. The CLI expresses all of it;
    its Python API is not used.

What is the same, and what differs
    - Cases: the same 20,000 ids and input texts as ``bench_foundation.py``'s (``case-000000``,
      ``"Any backend engineer jobs in city 0?"``). neverempty's case schema has no plain-text
      input, so each line carries the text as one user message (``input.messages``), plus the
      ``suite`` and ``split`` it requires.
    - Target: a no-op sync ``def`` in each tool's own shape. fairwitness calls
      ``target(text) -> "ok"``; neverempty calls ``target(case, tracer)``, which returns nothing
      and sets the answer ``"ok"`` (and the route ``"ok"``) on the run. neverempty's docs describe
      an async target; its runner also takes a plain function, which it calls inline on its
      event loop, where fairwitness runs sync targets on worker threads.
    - Scoring: neverempty refuses a case with no expectation, so each case expects the route
      ``"ok"``, and its run is scored with the ``route`` scorer (each trial passes). Without any
      scorer, neverempty leaves every case unscored and ends the run ``incomplete`` with exit 1;
      that run is timed too, as an informational floor under the reference's time, so the lead
      does not rest on the choice of scorer. fairwitness runs its built-in scorers, which find
      nothing applicable on these cases.
    - Output: fairwitness writes a traces file (one JSON line per trial) and a report;
      neverempty keeps its traces in memory and writes one report (which lists every trial).

Rows: neverempty's wall time (scored, and without a scorer; informational), ``fairwitness run``'s
wall time (target 3 s), the lead as fairwitness wall / neverempty wall (rows are "should not
exceed", so a 9x lead is a target of 1/9), and both tools' peak RSS (informational). If the
reference cannot be installed (no network, no ``venv``), its rows say so, valued NaN ("not
measured", never 0), and the fairwitness rows are still measured. A reference that installs but
does not complete the work is an error of this module, never a figure.

Run with ``benchmarks/run --only reference`` (``--quick``: 2,000 cases, one run of each).
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _rows import console_script, row

COMMAND = "benchmarks/run --only reference"

REFERENCE = "neverempty"
REFERENCE_VERSION = "0.1.0"

CASES = 20_000
QUICK_CASES = 2_000
REPEATS = 3
CONCURRENCY = 8
TIMEOUT_S = 10
RUNS = 3  # best of, for each tool
QUICK_RUNS = 1

WALL_TARGET_S = 3.0
LEAD = 9
RATIO_TARGET = 1 / LEAD

STEP_TIMEOUT_S = 600  # any one subprocess: venv, pip install, one timed run

FAIRWITNESS_TARGET = '''\
"""A no-op sync target."""


def target(text: str) -> str:
    return "ok"
'''

REFERENCE_TARGET = '''\
"""A no-op sync target in the reference's shape: (case, tracer), the answer set on the run."""


def target(case, tracer):
    tracer.current_run.set_output(answer="ok", route="ok")
'''

# Runs one command under a time limit; prints its exit code (null on timeout), wall time and
# peak RSS as JSON. A fresh interpreter, because RUSAGE_CHILDREN is the maximum over every child
# a process has waited for: here that is the timed command alone (bench_foundation.py's
# MEASURE_CHILD explains why the benchmark process itself cannot ask).
TIMED_CHILD = """\
import json, resource, subprocess, sys, time
argv, log_path, limit = json.loads(sys.argv[1]), sys.argv[2], float(sys.argv[3])
with open(log_path, "wb") as log:
    started = time.perf_counter()
    try:
        code = subprocess.call(
            argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, timeout=limit
        )
    except subprocess.TimeoutExpired:
        code = None
    wall = time.perf_counter() - started
scale = 1 if sys.platform == "darwin" else 1024
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale
print(json.dumps({"code": code, "wall_s": wall, "peak_rss_bytes": peak}))
"""


def _log(message: str) -> None:
    print(f"  reference: {message}", file=sys.stderr, flush=True)


def _tail(text: str, chars: int = 2000) -> str:
    return text[-chars:].strip() or "(no output)"


# -- the reference, installed --------------------------------------------------------------------


def _step(argv: list[str], what: str) -> subprocess.CompletedProcess[str] | str:
    """Run one installation step; its result, or why it failed (in words, for a row)."""
    try:
        done = subprocess.run(
            argv,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=STEP_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"{what} did not finish within {STEP_TIMEOUT_S} s"
    except OSError as exc:
        return f"{what} could not start ({exc.strerror or exc})"
    if done.returncode != 0:
        # The output goes to the console only: it may name the package index, which a row,
        # written to the results file and the docs page, must not.
        _log(f"{what} exited {done.returncode}:\n{_tail(done.stdout + done.stderr)}")
        return f"{what} exited {done.returncode}"
    return done


def _install(venv: Path) -> tuple[Path, str] | str:
    """``(console script, version line)`` of the installed reference, or why it is missing."""
    made = _step([sys.executable, "-m", "venv", str(venv)], "python -m venv")
    if isinstance(made, str):
        return made
    python = venv / "bin" / "python"
    spec = f"{REFERENCE}=={REFERENCE_VERSION}"
    _log(f"pip install {spec} into a throwaway virtualenv ...")
    pip = [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-q"]
    installed = _step([*pip, spec], f"pip install {spec}")
    if isinstance(installed, str):
        return installed
    script = venv / "bin" / REFERENCE
    if not script.is_file():
        raise RuntimeError(f"pip installed {spec} but there is no console script at {script}")
    asked = _step([str(script), "--version"], f"{REFERENCE} --version")
    if isinstance(asked, str):
        raise RuntimeError(f"the installed {spec} does not start: {asked}")
    version = (asked.stdout + asked.stderr).strip()
    if version != f"{REFERENCE} {REFERENCE_VERSION}":
        raise RuntimeError(f"pip installed {spec} but '{REFERENCE} --version' says {version!r}")
    return script, version


# -- the work ------------------------------------------------------------------------------------


def _write_work(folder: Path, cases: int) -> tuple[Path, Path]:
    """The same cases, target and run settings for each tool: (fairwitness folder, reference's)."""
    ours, theirs = folder / "fairwitness", folder / REFERENCE
    ours.mkdir()
    theirs.mkdir()
    with (
        open(ours / "cases.jsonl", "w", encoding="utf-8") as plain,
        open(theirs / "cases.jsonl", "w", encoding="utf-8") as messages,
    ):
        for i in range(cases):
            case_id, text = f"case-{i:06d}", f"Any backend engineer jobs in city {i}?"
            plain.write(json.dumps({"id": case_id, "input": text}) + "\n")
            line = {
                "schema_version": 1,
                "id": case_id,
                "suite": "bench.noop",
                "split": "dev",
                "input": {"messages": [{"role": "user", "content": text}]},
                "expect": {"route": {"label": "ok"}},
            }
            messages.write(json.dumps(line) + "\n")
    (ours / "noop_target.py").write_text(FAIRWITNESS_TARGET, encoding="utf-8")
    (ours / "fairwitness.toml").write_text(
        'target = "noop_target:target"\n'
        "\n"
        "[run]\n"
        f"repeats = {REPEATS}\n"
        f"concurrency = {CONCURRENCY}\n"
        f"timeout_s = {TIMEOUT_S}\n"
        'out = "out"\n'
        "\n"
        "[[suites]]\n"
        'name = "bench"\n'
        'path = "cases.jsonl"\n',
        encoding="utf-8",
    )
    (theirs / "noop_target.py").write_text(REFERENCE_TARGET, encoding="utf-8")
    for name, scorers in (("scored", '["route"]'), ("unscored", "[]")):
        (theirs / f"{name}.toml").write_text(
            "[project]\n"
            'name = "bench"\n'
            "\n"
            "[target]\n"
            'entrypoint = "noop_target:target"\n'
            "\n"
            "[[suite]]\n"
            'name = "bench.noop"\n'
            'path = "cases.jsonl"\n'
            'split = "dev"\n'
            f"scorers = {scorers}\n"
            "\n"
            "[run]\n"
            f"repeats = {REPEATS}\n"
            f"concurrency = {CONCURRENCY}\n"
            f"case_timeout_s = {TIMEOUT_S}\n",
            encoding="utf-8",
        )
    return ours, theirs


def _timed(argv: list[str], cwd: Path, label: str) -> tuple[int, float, float, str]:
    """One timed command: (exit code, wall seconds, peak RSS in MB, its output)."""
    log = cwd / f"{label.replace(' ', '-')}.log"
    try:
        done = subprocess.run(
            [sys.executable, "-c", TIMED_CHILD, json.dumps(argv), str(log), str(STEP_TIMEOUT_S)],
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=STEP_TIMEOUT_S + 60,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError(f"{label}: the timing wrapper did not return within the limit") from exc
    if done.returncode != 0:
        raise RuntimeError(f"{label}: the timing wrapper failed:\n{_tail(done.stderr)}")
    measured = json.loads(done.stdout)
    text = log.read_text(encoding="utf-8", errors="replace")
    log.unlink()
    if measured["code"] is None:
        raise RuntimeError(f"{label} did not finish within {STEP_TIMEOUT_S} s:\n{_tail(text)}")
    return measured["code"], measured["wall_s"], measured["peak_rss_bytes"] / 1e6, text


def _run_fairwitness(folder: Path, cases: int) -> tuple[float, float]:
    """One ``fairwitness run`` of the work, checked: (wall seconds, peak RSS in MB)."""
    trials = cases * REPEATS
    out = folder / "out"
    argv = [console_script(), "run", "fairwitness.toml", "--out", str(out), "--force"]
    code, wall, peak, text = _timed(argv, folder, "fairwitness run")
    expected = f"bench: {trials}/{trials} trials"
    if code != 0 or expected not in text:
        raise RuntimeError(f"fairwitness run exited {code} without '{expected}':\n{_tail(text)}")
    report = json.loads((out / "bench.report.json").read_text(encoding="utf-8"))
    counts = report["counts"]
    if not report["complete"] or counts["trials"] != trials or counts["ok"] != trials:
        raise RuntimeError(f"fairwitness run did not end {trials} trials ok: {counts}")
    shutil.rmtree(out)
    return wall, peak


def _run_reference(script: Path, folder: Path, cases: int, *, scored: bool) -> tuple[float, float]:
    """One ``neverempty run`` of the work, checked: (wall seconds, peak RSS in MB).

    Scored, the run must end ``status=ok`` with exit 0; without a scorer, neverempty ends it
    ``incomplete`` with exit 1 (every case unscored) and that is what is checked. Either way every
    one of the cases x repeats trials must have run, and none crashed."""
    name = "scored" if scored else "unscored"
    report_path = folder / f"{name}.report.json"
    report_path.unlink(missing_ok=True)
    argv = [str(script), "run", f"{name}.toml", "--out", report_path.name]
    code, wall, peak, text = _timed(argv, folder, f"{REFERENCE} run {name}")
    status, want_code, scored_cases = ("ok", 0, cases) if scored else ("incomplete", 1, 0)
    expected = f"bench.noop: status={status} {scored_cases}/{cases} scored"
    if code != want_code or expected not in text or not report_path.is_file():
        raise RuntimeError(
            f"{REFERENCE} run ({name}) exited {code} without '{expected}' (expected exit "
            f"{want_code}):\n{_tail(text)}"
        )
    report = json.loads(report_path.read_text(encoding="utf-8"))
    report_path.unlink()
    counts, outcomes = report["counts"], report["outcomes"]
    ran = sum(o["trace_status"] == "ok" for o in outcomes)
    if (
        counts["cases"] != cases
        or counts["repeats"] != REPEATS
        or counts["crashed"] != 0
        or counts["scored"] != scored_cases
        or len(outcomes) != cases * REPEATS
        or ran != cases * REPEATS
    ):
        raise RuntimeError(
            f"{REFERENCE} run ({name}) did not run {cases} cases x {REPEATS} ok: {counts}, "
            f"{len(outcomes)} trials recorded, {ran} ok"
        )
    return wall, peak


# -- rows ----------------------------------------------------------------------------------------


def _info(figure: str, value: float, unit: str, command: str) -> dict[str, Any]:
    return row(figure, value, unit, None, None, command, digits=4)


def _checked(figure: str, value: float, unit: str, target: float, command: str) -> dict[str, Any]:
    return row(figure, value, unit, target, value <= target, command, digits=4)


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    """Install the reference, time both tools on the same work; one row per figure."""
    command = COMMAND + (" --quick" if quick else "")
    cases = QUICK_CASES if quick else CASES
    runs = QUICK_RUNS if quick else RUNS
    what = (
        f"{cases:,} cases x {REPEATS}, concurrency {CONCURRENCY}, timeout {TIMEOUT_S} s, "
        "no-op sync target"
    )
    best = f"best of {runs}" if runs > 1 else "one run"
    highest = f"highest of {runs}" if runs > 1 else "one run"

    with tempfile.TemporaryDirectory(prefix="fairwitness-reference-") as tmp:
        folder = Path(tmp)
        installed = _install(folder / "venv")
        ours, theirs = _write_work(folder, cases)
        walls: dict[str, list[float]] = {"scored": [], "unscored": [], "fairwitness": []}
        peaks: dict[str, list[float]] = {"scored": [], "unscored": [], "fairwitness": []}
        for i in range(runs):  # rounds: a slow moment of the machine hits every tool alike
            if not isinstance(installed, str):
                for name in ("scored", "unscored"):
                    wall, peak = _run_reference(
                        installed[0], theirs, cases, scored=name == "scored"
                    )
                    _log(f"{REFERENCE} run ({name}), {what}: {wall:.2f} s, {peak:.0f} MB ({i + 1})")
                    walls[name].append(wall)
                    peaks[name].append(peak)
            wall, peak = _run_fairwitness(ours, cases)
            _log(f"fairwitness run, {what}: {wall:.2f} s, {peak:.0f} MB ({i + 1})")
            walls["fairwitness"].append(wall)
            peaks["fairwitness"].append(peak)

    ours_wall, ours_peak = min(walls["fairwitness"]), max(peaks["fairwitness"])
    ours_rows = [
        _checked(
            f"`fairwitness run` wall, {what} ({best})",
            ours_wall,
            "s",
            WALL_TARGET_S,
            command,
        ),
        _info(
            f"`fairwitness run` peak RSS, same work ({highest}; informational)",
            ours_peak,
            "MB",
            command,
        ),
    ]
    lead_text = (
        f"`fairwitness run` wall / `{REFERENCE} run` wall, {what}, {best} each, "
        f"in the same run (lower is better: target 1/{LEAD} = a {LEAD}x lead)"
    )
    if isinstance(installed, str):
        missing = (
            f"not measured: {REFERENCE} {REFERENCE_VERSION} could not be installed ({installed})"
        )
        return [
            _info(f"`{REFERENCE} run` wall, {what}: {missing}", math.nan, "s", command),
            ours_rows[0],
            _info(
                f"lead on {REFERENCE} {REFERENCE_VERSION}: {lead_text}: {missing}",
                math.nan,
                f"x {REFERENCE}",
                command,
            ),
            ours_rows[1],
        ]

    version = installed[1]
    how = (
        f"its CLI: `{REFERENCE} run scored.toml --out scored.report.json`, {version} in its own "
        f"virtualenv; [run] repeats {REPEATS}, concurrency {CONCURRENCY}, case_timeout_s "
        f'{TIMEOUT_S}; target `def target(case, tracer)` setting answer and route "ok"'
    )
    theirs_wall, bare_wall = min(walls["scored"]), min(walls["unscored"])
    ratio, bare_ratio = ours_wall / theirs_wall, ours_wall / bare_wall
    return [
        _info(
            f"`{REFERENCE} run` wall, {what}, scorer `route` ({how}; {best}; informational: "
            "the reference)",
            theirs_wall,
            "s",
            command,
        ),
        _info(
            f"`{REFERENCE} run` wall, same work with no scorer (`scorers = []`: every case left "
            f"unscored, the run ends incomplete with exit 1; {best}; informational: a floor under "
            "the reference's time)",
            bare_wall,
            "s",
            command,
        ),
        ours_rows[0],
        _checked(
            f"lead on {REFERENCE} {REFERENCE_VERSION}: {lead_text}; measured lead {1 / ratio:.1f}x",
            ratio,
            f"x {REFERENCE}",
            RATIO_TARGET,
            command,
        ),
        _info(
            f"lead on {REFERENCE} run with no scorer: `fairwitness run` wall / that run's wall, "
            f"{best} each (informational; measured lead {1 / bare_ratio:.1f}x)",
            bare_ratio,
            f"x {REFERENCE}",
            command,
        ),
        _info(
            f"`{REFERENCE} run` peak RSS, same work, scorer `route` ({highest}; informational)",
            max(peaks["scored"]),
            "MB",
            command,
        ),
        ours_rows[1],
    ]
