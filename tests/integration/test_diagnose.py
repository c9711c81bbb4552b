"""fairwitness.diagnose and `fairwitness diagnose`, on real (small) agents."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import fairwitness
from fairwitness import DiagnoseConfig, Observation, diagnose
from fairwitness.cli import main
from fairwitness.diagnostics import (
    case_invariance,
    normalisation_invariance,
    tool_selection_invariance,
)
from fairwitness.render import diagnosis_text

ROOT = Path(__file__).resolve().parents[2]


def case_sensitive(text: str) -> Observation:
    return Observation(text="ok", verdict="block" if "URGENT" in text else "allow")


def case_blind(text: str) -> Observation:
    return Observation(text="ok", verdict="block" if "urgent" in text.lower() else "allow")


PROBES = ["please review this", "URGENT: wire money", "hello", "urgent help", "lunch?", "Urgent!"]


def test_no_op_transforms_leave_every_relation_not_exercised() -> None:
    relations = (normalisation_invariance(), case_invariance(), tool_selection_invariance())
    diagnosis = diagnose(
        case_blind, ["123 ?!", "42", "1 + 1 = 2"], DiagnoseConfig(relations=relations, max_pairs=40)
    )
    assert [r.exercised for r in diagnosis.relations] == [False, False, False]
    assert all(r.violation_rate is None for r in diagnosis.relations)
    assert all(r.skipped == 3 and r.held == 0 for r in diagnosis.relations)
    summary = diagnosis_text(diagnosis)
    assert summary.count("NOT EXERCISED") == 3
    assert "n/a" in summary
    assert "0.0%" not in summary.split("3. relations")[1]
    # no transformed input, no extra call: only the meter's draws were made
    assert diagnosis.calls_made == 3 + 2 * 40 - 3


def test_a_case_sensitive_agent_violates_case_invariance() -> None:
    config = DiagnoseConfig(relations=(case_invariance(),))
    diagnosis = diagnose(case_sensitive, PROBES, config)
    assert diagnosis.meter is not None
    assert diagnosis.meter.call == "verdict-deterministic"
    relation = diagnosis.relations[0]
    assert relation.violated >= 1  # "URGENT: wire money" -> "urgent: WIRE MONEY" flips the verdict
    assert relation.above_noise is True
    assert diagnosis.exit_code == 1
    assert diagnose(case_blind, PROBES, config).relations[0].violated == 0


def test_a_stochastic_agents_violations_sit_within_noise() -> None:
    def coin(text: str) -> Observation:
        # a seeded per-call coin: the verdict flips on unchanged input as often as on changed input
        return Observation(text="ok", verdict=random.choice(["allow", "block"]))

    random.seed(7)
    diagnosis = diagnose(coin, [f"probe {i}" for i in range(30)], DiagnoseConfig())
    assert diagnosis.meter is not None
    assert diagnosis.meter.call == "verdict-stochastic"
    violated = [r for r in diagnosis.relations if r.violated]
    assert violated, "a coin-flipping agent violates invariance relations"
    assert all(r.above_noise is False for r in violated)
    assert diagnosis.exit_code == 0


def test_calls_are_reused_and_counted() -> None:
    n, k = len(PROBES), 4
    relations = (case_invariance(),)  # changes every probe with letters: all six
    diagnosis = diagnose(
        case_blind, PROBES, DiagnoseConfig(design="fixed", k=k, relations=relations)
    )
    assert diagnosis.calls_made == n * (k + 1)  # n*(k+r)
    assert diagnosis.calls_saved == n + n  # the blindness sample and the relation sources


def test_a_deterministic_agent_is_called_124_times_on_20_inputs_at_epsilon_5_percent() -> None:
    """62 flip-free pairs (the fixed design's floor: 59); each input's first draw is reused."""
    config = DiagnoseConfig(epsilon=0.05, relations=())
    diagnosis = diagnose(case_blind, [f"probe {i}" for i in range(20)], config)
    assert diagnosis.meter is not None
    assert diagnosis.meter.call == "verdict-deterministic"
    assert (diagnosis.meter.pairs, diagnosis.meter.calls, diagnosis.calls_made) == (62, 124, 124)


def test_a_target_that_fails_is_a_harness_error_not_a_verdict() -> None:
    def broken(text: str) -> Observation:
        raise RuntimeError("model offline")

    def silent(text: str) -> str:
        return "an answer without a decision"

    failed = diagnose(broken, ["a", "b"])
    assert failed.exit_code == 4
    assert failed.error is not None
    assert "RuntimeError: model offline" in failed.error
    undecided = diagnose(silent, ["a", "b"])
    assert undecided.exit_code == 4
    assert undecided.error is not None
    assert "returned no verdict" in undecided.error


def test_the_odd_k_is_rounded_up_and_the_fixed_design_pairs_disjointly() -> None:
    config = DiagnoseConfig(design="fixed", k=3, relations=())
    diagnosis = diagnose(case_blind, ["a"], config)
    assert diagnosis.meter is not None
    assert (diagnosis.meter.pairs, diagnosis.calls_made) == (2, 4)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


AGENT = """\
from fairwitness import Observation

def agent(text):
    return Observation(text="ok", verdict="block" if "URGENT" in text else "allow")
"""


def test_cli_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    agent = write(tmp_path, "probe_agent.py", AGENT)
    inputs = write(tmp_path, "probes.txt", "URGENT now\n  leading spaces\nplain\n")
    code = main(["diagnose", "--agent", f"{agent}:agent", "--inputs", str(inputs), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == out["exit_code"] == 1  # the case-sensitive probe agent violates case-invariance
    assert {"call", "flip_rate", "pairs", "flips", "ci_low", "ci_high"} <= set(out["meter"])
    assert {"blind", "skew", "distinct"} <= set(out["blindness"])
    for relation in out["relations"]:
        assert {"name", "held", "violated", "skipped", "exercised", "above_noise"} <= set(relation)
    assert set(out["calls"]) == {"made", "saved"}


PLAIN_AGENT = """\
def agent(text):
    return {"text": "ok", "verdict": "block" if "urgent" in text.lower() else "allow"}


def by_case(inputs):
    return {"text": "ok", "verdict": "block" if "urgent" in inputs.lower() else "allow"}
"""


def test_a_plain_function_of_the_text_is_diagnosed(tmp_path: Path, capsys) -> None:
    agent = write(tmp_path, "plain_agent.py", PLAIN_AGENT)
    inputs = write(tmp_path, "probes.txt", "URGENT now\nplain\nurgent help\nlunch?\n")
    code = main(["diagnose", "--agent", f"{agent}:agent", "--inputs", str(inputs), "--json"])
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["error"] is None, out["error"]
    assert code == out["exit_code"] == 0
    assert out["meter"]["call"] == "verdict-deterministic"
    # a parameter named like neither gets the case, and the error line says how to ask for text
    assert main(["diagnose", "--agent", f"{agent}:by_case", "--inputs", str(inputs)]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "'Case' object has no attribute 'lower'" in err[0]
    assert 'target_takes = "text"' in err[0]


def test_cli_keeps_whitespace_and_refuses_duplicates(tmp_path: Path, capsys) -> None:
    from fairwitness.commands.diagnose import read_inputs

    probes = write(tmp_path, "p.txt", "  spaced  \n\tTabbed\nplain\n\nplain\n")
    assert main(["diagnose", "--agent", "x.py:f", "--inputs", str(probes)]) == 4
    assert "duplicate input (first on line 3)" in capsys.readouterr().err
    ok = write(tmp_path, "ok.txt", "  spaced  \n\tTabbed\r\n")
    assert list(read_inputs(str(ok)).values()) == ["  spaced  ", "\tTabbed\r"]
    crlf = write(tmp_path, "crlf.txt", "a\r\nb\r\n")
    assert list(read_inputs(str(crlf)).values()) == ["a", "b"]


def test_cli_usage_errors(tmp_path: Path, capsys) -> None:
    inputs = write(tmp_path, "p.txt", "a\n")
    assert main(["diagnose", "--agent", "nope_module:f", "--inputs", str(inputs)]) == 4
    assert "cannot import target module 'nope_module'" in capsys.readouterr().err
    assert main(["diagnose", "--agent", "m:f", "--inputs", str(inputs), "--epsilon", "2"]) == 4
    assert "must be between 0 and 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--k", "1", "k must be >= 2 (one pair), got 1"),
        ("--epsilon", "nan", "epsilon must be between 0 and 1, got nan"),
        ("--epsilon", "0", "epsilon must be between 0 and 1, got 0.0"),
    ],
)
def test_diagnose_settings_are_checked_once_before_the_agent_is_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str, message: str
) -> None:
    """The one check of k and epsilon is DiagnoseConfig's (argparse only converts); it runs
    before the inputs are read or the agent imported, so the missing module is never reached."""
    argv = ["diagnose", "--agent", "nope_module:f", "--inputs", str(tmp_path / "none.txt")]
    assert main([*argv, flag, value]) == 4
    assert capsys.readouterr().err == f"fairwitness: error: {message}\n"


def test_the_example_agent_shows_all_three_diagnostics(capsys: pytest.CaptureFixture[str]) -> None:
    example = ROOT / "examples" / "jobsearch"
    code = main(
        [
            "diagnose",
            "--agent",
            f"{example / 'agent.py'}:target",
            "--inputs",
            str(example / "probes.txt"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "1. verdict-stochasticity meter" in out
    assert "call:      verdict-stochastic" in out  # the ambiguous pay-and-jobs questions
    assert "2. blindness" in out
    assert "3. relations" in out
    assert "within noise" in out
    assert "calls: " in out


def test_suite_runs_store_meter_and_blindness(tmp_path: Path, capsys, clean_modules) -> None:
    example = ROOT / "examples" / "jobsearch"
    assert main(["run", str(example / "fairwitness.toml"), "--out", str(tmp_path)]) == 0
    report = fairwitness.Report.load(tmp_path / "jobsearch.report.json")
    diagnostics = report.diagnostics
    assert diagnostics["meter"]["measured"] is True
    assert diagnostics["meter"]["design"] == "fixed"
    assert diagnostics["meter"]["flips"] >= 1
    assert diagnostics["meter"]["unstable_inputs"][0][0].startswith("ambiguous-")
    assert diagnostics["blindness"]["blind"] is False
    assert diagnostics["label_skew"]["source"] == "labels"
    assert diagnostics["relations"]["measured"] is False
