"""User-defined scorers end to end: real scorer modules in temporary projects, driven through
``fairwitness.cli.main``: sync and async scorers, one that raises, one that hangs (sync and
async), one that returns NaN; the report's identities; bad ``[[scorers]]`` refused before
anything runs; the gate refusing to compare a changed scorer; a 4-shard run merged equal to the
unsharded run; ``fairwitness import --config`` scoring imported traces."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from fairwitness.cli import main
from fairwitness.report import Report

pytestmark = pytest.mark.integration

AGENT = """\
def target(text: str) -> dict:
    return {"text": f"booked {text}", "verdict": "ok"}
"""

CHECKS = """\
import asyncio
import time

import fairwitness


@fairwitness.scorer(name="booked_flight", kind="capability", version="VERSION")
def booked(case, trace):
    \"\"\"The answer says the flight is booked.\"\"\"
    return "booked" in (trace.answer or "") and case.id != "c5"


@fairwitness.scorer(kind="safety")
def leaked(case, trace):
    if case.id == "c1":
        raise RuntimeError("no such field")
    return False


@fairwitness.scorer(kind="continuous")
async def polite(case, trace):
    await asyncio.sleep(0)
    if case.id == "c3":
        await asyncio.sleep(60)
    return fairwitness.Score(0.5, note="half polite")


@fairwitness.scorer
def hangs(case, trace):
    if case.id == "c2":
        time.sleep(60)
    return True


@fairwitness.scorer
def nan(case, trace):
    return float("nan") if case.id == "c0" else None if case.id == "c4" else 1.0
"""

SCORERS = ["checks:booked", "checks:leaked", "checks:polite", "checks:hangs", "checks:nan"]


def project(
    root: Path, *, version: str = "2", scorers: list[str] = SCORERS, checks: str = CHECKS
) -> Path:
    """A project with six cases, a deterministic agent and the scorer module ``checks.py``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "agent.py").write_text(AGENT, encoding="utf-8")
    (root / "checks.py").write_text(checks.replace("VERSION", version), encoding="utf-8")
    (root / "cases.jsonl").write_text(
        "".join(json.dumps({"id": f"c{i}", "input": f"trip {i}"}) + "\n" for i in range(6)),
        encoding="utf-8",
    )
    entries = "".join(f'\n[[scorers]]\nref = "{ref}"\n' for ref in scorers)
    (root / "fairwitness.toml").write_text(
        'target = "agent:target"\n\n[run]\nrepeats = 2\nout = "out"\n\n'
        "[scoring]\nscorer_timeout_s = 0.3\n\n"
        '[[suites]]\nname = "trips"\npath = "cases.jsonl"\n' + entries,
        encoding="utf-8",
    )
    return root / "fairwitness.toml"


def test_every_kind_of_scorer_is_scored_and_every_failure_counted(tmp_path: Path, capsys) -> None:
    config = project(tmp_path / "p")
    started = time.perf_counter()
    assert main(["run", str(config)]) == 0
    took = time.perf_counter() - started
    err = capsys.readouterr().err
    # Two hanging trials of a sync scorer and two of an async one, each cut off at 0.3 s.
    assert took < 15
    report = Report.load(tmp_path / "p" / "out" / "trips.report.json")
    metrics = report.metrics
    booked = metrics["booked_flight"]
    assert (booked.value, booked.n, booked.collapse, booked.higher_is_better) == (
        pytest.approx(5 / 6),
        6,
        "majority",
        True,
    )
    assert booked.description == "The answer says the flight is booked."
    assert [one.pass_hat for one in booked.pass_k] == [pytest.approx(5 / 6)] * 2
    assert (metrics["leaked"].collapse, metrics["leaked"].higher_is_better) == ("any_hit", False)
    assert (metrics["leaked"].n, metrics["leaked"].excluded) == (5, {"unscored": 1})
    assert (metrics["polite"].value, metrics["polite"].collapse) == (0.5, "median")
    assert metrics["polite"].excluded == {"unscored": 1}
    assert metrics["hangs"].excluded == {"unscored": 1}
    assert metrics["nan"].excluded == {"unscored": 1, "not_applicable": 1}
    case = {cid: c.repeats[0] for cid, c in report.cases.items()}
    assert case["c1"].unscored["leaked"] == "scorer leaked raised RuntimeError: no such field"
    assert case["c2"].unscored["hangs"] == "scorer hangs ran past scorer_timeout_s (0.3 s)"
    assert case["c3"].unscored["polite"] == "scorer polite ran past scorer_timeout_s (0.3 s)"
    assert case["c0"].unscored["nan"].startswith("scorer nan returned nan (not a finite number)")
    assert case["c0"].labels["polite"] == "half polite"
    assert "nan" not in case["c4"].scores  # None: not applicable, never a score
    assert set(report.scoring.scorers) == {"booked_flight", "leaked", "polite", "hangs", "nan"}
    identity = report.scoring.scorers["booked_flight"]
    assert (identity.kind, identity.version) == ("capability", "2")
    assert re.fullmatch(r"[0-9a-f]{12}", identity.source_hash)
    assert report.scoring.metrics[-5:] == ["booked_flight", "leaked", "polite", "hangs", "nan"]
    assert "scorer_timeout_s" not in report.scoring.settings
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert warnings == [
        "fairwitness: warning: scorer leaked: 2 of 12 trial(s) unscored (scorer leaked raised "
        "RuntimeError: no such field)",
        "fairwitness: warning: scorer polite: 2 of 12 trial(s) unscored (scorer polite ran past "
        "scorer_timeout_s (0.3 s))",
        "fairwitness: warning: scorer hangs: 2 of 12 trial(s) unscored (scorer hangs ran past "
        "scorer_timeout_s (0.3 s))",
        f"fairwitness: warning: scorer nan: 2 of 12 trial(s) unscored ({case['c0'].unscored['nan']})",
    ]
    assert re.search(r"booked_flight\s+10/12 trials", err)
    # The report round-trips byte for byte, identities included.
    path = tmp_path / "p" / "out" / "trips.report.json"
    assert Report.load(path).to_json() == path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("scorers", "checks", "field", "message"),
    [
        (["missing_module:booked"], CHECKS, "scorers[0].ref", "cannot import scorer module"),
        (["checks:nowhere"], CHECKS, "scorers[0].ref", "module 'checks' has no attribute"),
        (["broken:f"], CHECKS, "scorers[0].ref", "raised ZeroDivisionError"),
        (
            ["checks:route"],
            CHECKS + "\n\n@fairwitness.scorer\ndef route(case, trace):\n    return True\n",
            "scorers[0].ref",
            "is named 'route', the name of a built-in metric",
        ),
        (
            ["checks:booked", "checks:again"],
            CHECKS + "\n\nagain = fairwitness.scorer(name='booked_flight')(lambda c, t: True)\n",
            "scorers[1].ref",
            "is named 'booked_flight', the name of scorers[0] ('checks:booked')",
        ),
        (
            ["checks:plain"],
            CHECKS + "\n\ndef plain(case, trace):\n    return True\n",
            "scorers[0].ref",
            "is not decorated with @fairwitness.scorer",
        ),
    ],
    ids=["import fails", "missing function", "module raises", "built-in name", "twice", "plain"],
)
def test_a_bad_scorer_is_refused_in_one_line_before_anything_runs(
    tmp_path: Path, capsys, scorers: list[str], checks: str, field: str, message: str
) -> None:
    config = project(tmp_path, scorers=scorers, checks=checks)
    (tmp_path / "broken.py").write_text("1 / 0\n", encoding="utf-8")
    (tmp_path / "agent.py").write_text(AGENT + "\nopen('agent-imported', 'w')\n")
    assert main(["run", str(config)]) == 4
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    index = int(field[len("scorers[")])
    text = config.read_text(encoding="utf-8").splitlines()
    line = [n for n, t in enumerate(text, start=1) if t.startswith("ref = ")][index]
    assert err.startswith(f"fairwitness: error: {config}:{line}: field '{field}': "), err
    assert message in err
    assert not (tmp_path / "out").exists() and not (tmp_path / "agent-imported").exists()


def test_a_plain_function_scores_with_the_kind_the_config_gives(tmp_path: Path) -> None:
    plain = "def answered(case, trace):\n    return trace.answer is not None\n"
    config = project(tmp_path, scorers=[], checks=plain)
    with open(config, "a", encoding="utf-8") as handle:
        handle.write('\n[[scorers]]\nref = "checks:answered"\nkind = "capability"\n')
    assert main(["run", str(config)]) == 0
    report = Report.load(tmp_path / "out" / "trips.report.json")
    assert report.metrics["answered"].value == 1.0
    assert report.scoring.scorers["answered"].version == "1"


def _run(root: Path, version: str, checks: str = CHECKS) -> Path:
    config = project(root, version=version, checks=checks)
    assert main(["run", str(config)]) == 0
    return root / "out" / "trips.report.json"


def test_the_gate_refuses_to_compare_a_metric_scored_by_another_scorer(
    tmp_path: Path, capsys
) -> None:
    baseline = _run(tmp_path / "v2", "2")
    same = _run(tmp_path / "again", "2")
    bumped = _run(tmp_path / "v3", "3")
    edited = _run(tmp_path / "edit", "2", CHECKS.replace('case.id != "c5"', 'case.id != "c4"'))
    capsys.readouterr()

    assert main(["gate", str(baseline), str(same), "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert "booked_flight" in [m["name"] for m in decision["metrics"] if m["gated"]]

    assert main(["gate", str(baseline), str(bumped), "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert "booked_flight" not in [m["name"] for m in decision["metrics"] if m["gated"]]
    notes = " ".join(decision["notes"])
    assert (
        "scorer 'booked_flight' is version 2 in baseline "
        f"{baseline} but version 3 in candidate {bumped}" in notes
    )
    assert "not compared" in notes

    assert main(["gate", str(baseline), str(edited), "--json"]) == 0
    notes = " ".join(json.loads(capsys.readouterr().out)["notes"])
    assert "scorer 'booked_flight' is source changed between" in notes
    assert "though both say version 2" in notes

    assert main(["gate", str(baseline), str(bumped), "--metric", "booked_flight"]) == 4
    out = capsys.readouterr().out
    assert "gated metric 'booked_flight' cannot be compared" in out
    assert "version 2 in baseline" in out
    # A floor reads the candidate alone: it still applies to the new scorer's figure.
    assert main(["gate", str(baseline), str(bumped), "--floor", "booked_flight=0.9"]) == 1


def test_four_merged_shards_with_a_custom_scorer_equal_the_unsharded_run(tmp_path: Path) -> None:
    checks = CHECKS.replace("time.sleep(60)", "pass").replace("await asyncio.sleep(60)", "pass")
    config = str(project(tmp_path / "p", checks=checks))
    root = tmp_path / "runs"
    assert main(["run", config, "--mode", "record", "--out", str(root / "recorded")]) == 0
    assert main(["run", config, "--mode", "replay", "--out", str(root / "whole")]) == 0
    for i in range(1, 5):
        args = ["run", config, "--mode", "replay", "--shard", f"{i}/4", "--out", str(root / "s")]
        assert main(args) == 0
    shards = sorted(str(p) for p in (root / "s").glob("trips.shard-*-of-4.report.json"))
    assert len(shards) == 4
    merged = root / "merged" / "trips.report.json"
    assert main(["merge", *shards, "--out", str(merged)]) == 0
    volatile = re.compile(
        r'("created_at":"[^"]*"|"finished_at":"[^"]*"|"latency_ms":[0-9.eE+-]+|"trace_line":\d+)'
    )
    whole_text = (root / "whole" / "trips.report.json").read_text(encoding="utf-8")
    assert volatile.sub("<>", merged.read_text(encoding="utf-8")) == volatile.sub("<>", whole_text)
    assert Report.load(merged).scoring.scorers["booked_flight"].version == "2"

    # Shards scored by different versions of a scorer are not one run.
    edited = Path(shards[1])
    text = edited.read_text(encoding="utf-8")
    edited.write_text(text.replace('"version":"2"', '"version":"9"', 1), encoding="utf-8")
    assert main(["merge", *shards, "--out", str(root / "bad.report.json")]) == 4
    assert not (root / "bad.report.json").exists()


def test_import_scores_imported_traces_with_the_configs_scorers(tmp_path: Path, capsys) -> None:
    reference = _run(tmp_path / "p", "2")
    traces = reference.with_name("trips.traces.jsonl")
    config = tmp_path / "p" / "fairwitness.toml"
    out = tmp_path / "imported"
    args = [
        "import",
        str(traces),
        "--format",
        "jsonl",
        "--dataset",
        str(tmp_path / "p" / "cases.jsonl"),
    ]
    assert main([*args, "--out", str(out), "--config", str(config)]) == 0
    err = capsys.readouterr().err
    assert "fairwitness: warning: scorer hangs: 2 of 12 trial(s) unscored" in err
    imported = Report.load(out / "trips.report.json")
    whole = Report.load(reference)
    assert imported.scoring.scorers == whole.scoring.scorers
    for name in whole.scoring.scorers:
        assert imported.metrics[name] == whole.metrics[name], name
    # Without --config, only the built-in scorers score.
    assert main([*args, "--out", str(tmp_path / "plain")]) == 0
    assert Report.load(tmp_path / "plain" / "trips.report.json").scoring.scorers == {}
