"""A noisy multi-trial run of an external agent, brought in with ``fairwitness import`` and gated,
as a user does it: the console script in a subprocess, on the cases, config and trace JSONL that
``tests/fixtures/stochastic/make.py`` writes.

The agent disagrees with itself on about half of the tasks. The report must headline the per-trial
success rate (not the majority of repeats), give pass^k and pass@k, and count instability; the
gate must let the run pass against itself (instability is shown, not a verdict, unless a limit is
configured) and catch a drop planted in the candidate with the sign-flip test on per-case rates.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from math import comb
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from fairwitness import Report

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "tests" / "fixtures" / "stochastic" / "make.py"
REPORT = "travel-desk.report.json"


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("stochastic_make", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


make = _load_generator()

# The seed is chosen, not found by luck; what it stands for is statistical. Under no change
# (baseline = trials 0-1, candidate = trials 2-3 of the same agent) the gate passes at 95% or more
# per replication, the family-wise rate Holm keeps at alpha 0.05 over the gated metrics: a
# property checked across seeds by `benchmarks/run --only gate`, not by one seed here. Over
# generator seeds 0-199 the self-gate passed for 195 (97.5%) and the planted drop below was caught
# for 184 (92%). Seed 4436 (make.SEED) realises the targeted figures exactly (per-trial 0.42,
# majority of 4 0.28, 26 of 50 tasks disagreeing), its self-gate passes with room (the smallest
# Holm-adjusted p is about 0.68) and its planted drop is caught with room (Holm-adjusted p about
# 6e-4).
SEED = make.SEED

# The three figures vary from seed to seed around make.expected_figures() (0.417, 0.283, 0.522).
# Their standard deviations across seeds, from make.draw over seeds 0-4999 with these tiers: 0.029
# (per-trial rate), 0.038 (majority of 4) and 0.052 (share of tasks whose trials disagree). A
# figure further than two of those from its target means the generator no longer makes the run it
# says it makes.
TARGETS = {"per_trial": 0.42, "majority": 0.28, "disagreeing": 0.52}
SPREAD = {"per_trial": 0.029, "majority": 0.038, "disagreeing": 0.052}


def fairwitness_cmd() -> list[str]:
    script = Path(sys.executable).parent / "fairwitness"
    return [str(script)] if script.exists() else [sys.executable, "-m", "fairwitness"]


def cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*fairwitness_cmd(), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def successes(traces: Path, cases: Path) -> dict[str, list[bool]]:
    """Per case, in repeat order: did the trial take the expected route? Counted here from the
    files, the way the README defines ``route``: the trial answered and its verdict equals
    ``expect.route`` (case and surrounding space ignored). A crash or a timeout is a failure."""
    routes = {case["id"]: case["expect"]["route"] for case in read_jsonl(cases)}
    by_case: dict[str, dict[int, bool]] = defaultdict(dict)
    for trace in read_jsonl(traces):
        verdict = trace.get("verdict")
        by_case[trace["case_id"]][trace["repeat"]] = (
            trace["status"] == "ok"
            and trace.get("answer") is not None
            and verdict is not None
            and verdict.strip().casefold() == routes[trace["case_id"]].strip().casefold()
        )
    return {cid: [row[r] for r in sorted(row)] for cid, row in by_case.items()}


def pass_hat(counts: list[tuple[int, int]], k: int) -> float:
    return sum(comb(c, k) / comb(n, k) for c, n in counts) / len(counts)


def pass_at(counts: list[tuple[int, int]], k: int) -> float:
    return sum(1 - comb(n - c, k) / comb(n, k) for c, n in counts) / len(counts)


@dataclass(frozen=True)
class World:
    root: Path
    run: Any  # make.Run
    turned: int

    def report(self, name: str) -> Report:
        return Report.load(self.root / name / REPORT)

    def traces(self, name: str) -> Path:
        return self.root / f"{name}.traces.jsonl"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    """The generated files, and four imports of them: all four trials (``run``), trials 0-1
    (``base``), trials 2-3 renumbered 0-1 (``cand``), and the candidate with half its passing
    trials turned into failures (``drop``)."""
    root = tmp_path_factory.mktemp("stochastic")
    run = make.make(root, SEED)
    records = read_jsonl(root / "run.traces.jsonl")
    cases = read_jsonl(root / "cases.jsonl")
    candidate = make.select_trials(records, range(2, 4))
    dropped, turned = make.plant_drop(candidate, cases, SEED)
    make.write_jsonl(root / "base.traces.jsonl", make.select_trials(records, range(2)))
    make.write_jsonl(root / "cand.traces.jsonl", candidate)
    make.write_jsonl(root / "drop.traces.jsonl", dropped)
    for name, trials in (("run", 200), ("base", 100), ("cand", 100), ("drop", 100)):
        done = cli(
            root,
            "import",
            f"{name}.traces.jsonl",
            "--format",
            "jsonl",
            "--dataset",
            "cases.jsonl",
            "--out",
            name,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"{trials} imported, 0 skipped" in done.stdout
        assert done.stdout.splitlines()[-1] == str(Path(name) / REPORT)
    return World(root, run, turned)


def test_the_generated_run_is_as_noisy_as_a_real_agent(world: World) -> None:
    """The three headline figures, read from the imported report, are near their targets."""
    report = world.report("run")
    route = report.metrics["route"]
    assert route.per_trial is not None and route.collapsed is not None
    figures = {
        "per_trial": route.per_trial.value,
        "majority": route.collapsed.value,
        "disagreeing": report.stability.unstable_share,
    }
    print(
        f"seed {SEED}: per-trial rate {figures['per_trial']:.3f}, majority of 4 "
        f"{figures['majority']:.3f}, tasks with disagreeing trials {figures['disagreeing']:.3f} "
        f"({report.stability.unstable_cases}/{report.stability.measured_cases})"
    )
    for name, target in TARGETS.items():
        value = figures[name]
        assert value is not None
        assert abs(value - target) <= 2 * SPREAD[name], (name, value)
    expected = dict(zip(TARGETS, make.expected_figures(), strict=True))
    for name, target in TARGETS.items():
        assert abs(expected[name] - target) < 0.01, (name, expected[name])
    # The run holds what the brief of a real noisy agent needs: crashes, timeouts, slow trials,
    # typed tool outcomes, several languages.
    traces = read_jsonl(world.traces("run"))
    statuses = [t["status"] for t in traces]
    assert (report.counts.ok, report.counts.crashed, report.counts.timed_out) == (
        statuses.count("ok"),
        statuses.count("crashed"),
        statuses.count("timed_out"),
    )
    assert report.counts.crashed > 0 and report.counts.timed_out > 0
    assert sum(t["latency_ms"] >= 15_000 for t in traces) >= 10
    outcomes = {c["status"] for t in traces for c in t["tool_calls"]}
    assert outcomes == {"ok", "empty", "error"}
    languages = {tag for c in read_jsonl(world.root / "cases.jsonl") for tag in c["tags"]}
    assert {"en", "es", "de", "fr", "ja"} <= languages


def test_import_headlines_the_per_trial_rate_with_pass_k_recomputed_from_the_traces(
    world: World,
) -> None:
    report = world.report("run")
    route = report.metrics["route"]
    counted = successes(world.traces("run"), world.root / "cases.jsonl")
    counts = [(sum(row), len(row)) for row in counted.values()]
    assert len(counts) == 50 and {n for _, n in counts} == {4}

    assert route.headline == "per_trial"
    assert route.per_trial is not None and route.collapsed is not None
    per_trial = sum(c / n for c, n in counts) / len(counts)
    majority = sum(2 * c > n for c, n in counts) / len(counts)
    assert route.value == pytest.approx(per_trial)
    assert route.per_trial.value == pytest.approx(per_trial)
    assert route.collapsed.value == pytest.approx(majority)
    assert (route.trials, route.successes) == (200, sum(c for c, _ in counts))

    assert [p.k for p in route.pass_k] == [1, 2, 3, 4]
    for entry in route.pass_k:
        assert entry.cases == 50
        assert entry.pass_hat == pytest.approx(pass_hat(counts, entry.k))
        assert entry.pass_at == pytest.approx(pass_at(counts, entry.k))
    one, four = route.pass_k[0], route.pass_k[-1]
    assert one.pass_hat == pytest.approx(per_trial)
    assert four.pass_hat is not None and one.pass_hat is not None and four.pass_at is not None
    assert four.pass_hat <= one.pass_hat <= four.pass_at
    assert four.pass_hat < one.pass_hat < four.pass_at  # strictly, for a run this noisy

    disagreeing = {cid for cid, row in counted.items() if len(set(row)) > 1}
    assert report.stability.measured_cases == 50
    assert report.stability.unstable_cases == len(disagreeing)
    assert report.stability.unstable_share == pytest.approx(len(disagreeing) / 50)
    assert {cid for cid, case in report.cases.items() if case.unstable} == disagreeing


def test_a_run_gated_against_itself_passes_and_instability_alone_does_not_fail_it(
    world: World,
) -> None:
    base, cand = f"base/{REPORT}", f"cand/{REPORT}"
    for name in ("base", "cand"):
        route = world.report(name).metrics["route"]
        assert route.headline == "per_trial"
        assert [p.k for p in route.pass_k] == [1, 2]
    unstable = world.report("cand").stability.unstable_share
    assert unstable is not None and unstable > 0.10

    done = cli(world.root, "gate", base, cand)
    first = done.stdout.splitlines()[0]
    print(first)
    assert done.returncode == 0, done.stdout + done.stderr
    assert first.startswith("fairwitness gate: PASS (exit 0): no regression detected in ")
    assert "sign-flip" in first

    # What the gate did before per-case rates, and still does when a limit is configured:
    # repeats that disagree on more than 10% of the cases make the run inconclusive.
    done = cli(world.root, "gate", base, cand, "--max-unstable-rate", "0.10")
    first = done.stdout.splitlines()[0]
    print(first)
    assert done.returncode == 3, done.stdout + done.stderr
    assert first.startswith("fairwitness gate: INCONCLUSIVE (exit 3): ")
    assert "unstable" in first and "max_unstable_rate" in first
    config = (world.root / "fairwitness.toml").read_text(encoding="utf-8")
    strict = world.root / "strict.toml"
    strict.write_text(config + "\n[gate]\nmax_unstable_rate = 0.10\n", encoding="utf-8")
    done = cli(world.root, "gate", base, cand, "--config", "strict.toml")
    assert done.returncode == 3, done.stdout + done.stderr


def test_a_planted_drop_is_caught_by_the_sign_flip_test_and_shown_in_the_comment(
    world: World,
) -> None:
    cand = successes(world.traces("cand"), world.root / "cases.jsonl")
    drop = successes(world.traces("drop"), world.root / "cases.jsonl")
    passing = sum(sum(row) for row in cand.values())
    assert world.turned == passing // 2 > 0
    assert sum(sum(row) for row in drop.values()) == passing - world.turned
    dropped = world.report("drop").metrics["route"]
    assert dropped.per_trial is not None
    rate = sum(sum(row) / len(row) for row in drop.values()) / len(drop)
    assert dropped.per_trial.value == pytest.approx(rate)

    done = cli(world.root, "gate", f"base/{REPORT}", f"drop/{REPORT}", "--markdown", "comment.md")
    lines = done.stdout.splitlines()
    print(lines[0])
    assert done.returncode == 1, done.stdout + done.stderr
    assert lines[0].startswith("fairwitness gate: REGRESSION (exit 1): 'route' regressed: ")
    assert "one-sided sign-flip test p = " in lines[0]
    # Only the route was changed: no other metric is named as regressed.
    assert not [line for line in lines[1:] if line.startswith("  also:") and "regressed" in line]

    comment = (world.root / "comment.md").read_text(encoding="utf-8")
    assert "per trial" in comment
    assert "#### Reliability over repeats" in comment
    reliability = comment.split("#### Reliability over repeats", 1)[1]
    header = next(line for line in reliability.splitlines() if line.startswith("| metric |"))
    assert "per trial (pass^1)" in header and "pass^2" in header and "pass@2" in header
    row = next(line for line in reliability.splitlines() if line.startswith("| route |"))
    assert row.startswith(f"| route | {rate:.1%} ")
