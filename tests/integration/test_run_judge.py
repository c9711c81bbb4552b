"""``fairwitness run`` with a ``[judge]`` section: the calibration is computed once, before any
call, and stored in every report's ``diagnostics.judge``; a bad label file or an unknown metric
is refused with exit 4 before the agent is even imported; ``fairwitness gate`` on such reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from fairwitness import Report
from fairwitness.cli import main
from fairwitness.judge import NO_LABELS, WITHHELD, CalibrationRecord, calibrate

LABELS = ("acknowledged", "misreport", "unreadable")
CASES = [{"id": f"c{i}", "input": f"q{i}", "expect": {"route": "lookup"}} for i in range(4)]
COUNTING_AGENT = """
import pathlib


async def counted(text: str) -> dict[str, str]:
    with pathlib.Path(__file__).with_name("calls.txt").open("a") as calls:
        calls.write("call\\n")
    return await target(text)
"""


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def label_lines(wrong: int, n: int = 60) -> list[dict[str, str]]:
    """``n`` labelled items, the judge disagreeing with the humans on the first ``wrong``."""
    return [
        {
            "id": f"r{i:03d}",
            "human": LABELS[i % 3],
            "judge": LABELS[(i + 1) % 3] if i < wrong else LABELS[i % 3],
        }
        for i in range(n)
    ]


def write_labels(root: Path, lines: list[object], name: str = "judge-labels.jsonl") -> Path:
    path = root / name
    text = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    path.write_text(text, encoding="utf-8")
    return path


def judge_config(*, labels: str | None = "judge-labels.jsonl", metrics: str = "") -> str:
    lines = ["[judge]", "threshold = 0.6"]
    if labels is not None:
        lines.append(f'labels = "{labels}"')
    if metrics:
        lines.append(f"metrics = {metrics}")
    return "\n".join(lines) + "\n"


def expected_kappa(wrong: int) -> tuple[float, float, float]:
    records = [CalibrationRecord(x["id"], x["human"], x["judge"]) for x in label_lines(wrong)]
    kappa = calibrate(records).kappa
    assert kappa.value is not None and kappa.ci_low is not None and kappa.ci_high is not None
    return kappa.value, kappa.ci_low, kappa.ci_high


def test_a_calibrated_judge_is_stored_and_its_metrics_shown(project, capsys) -> None:
    p = project(CASES, config_extra=judge_config(metrics='["route"]'))
    write_labels(p.root, label_lines(wrong=3))
    assert main(["run", str(p.config)]) == 0
    _, err = capsys.readouterr()
    judge = Report.load(p.report).diagnostics["judge"]
    kappa, low, high = expected_kappa(3)
    assert judge == {
        "measured": True,
        "labels": "judge-labels.jsonl",
        "n": 60,
        "kappa": kappa,
        "ci_low": low,
        "ci_high": high,
        "threshold": 0.6,
        "publishable": True,
        "reason": judge["reason"],
        "notes": [],
        "metrics": ["route"],
    }
    assert low >= 0.6 and judge["reason"].endswith("judge-derived numbers may be published")
    assert "  route                8/8 trials; pass^2 4/4\n" in err
    assert "lower bound reaches 0.6: judge-derived numbers shown" in err


def test_a_judge_below_the_threshold_withholds_its_metrics(project, capsys) -> None:
    p = project(CASES, config_extra=judge_config(metrics='["route"]'))
    write_labels(p.root, label_lines(wrong=20))
    assert main(["run", str(p.config)]) == 0
    _, err = capsys.readouterr()
    report = Report.load(p.report)
    judge = report.diagnostics["judge"]
    kappa, low, high = expected_kappa(20)
    assert (judge["measured"], judge["publishable"], judge["n"]) == (True, False, 60)
    assert (judge["kappa"], judge["ci_low"], judge["ci_high"]) == (kappa, low, high)
    assert low < 0.6 and judge["reason"].endswith("judge-derived numbers are withheld")
    assert report.metrics["route"].k == 4  # the report keeps what was measured
    assert f"  route                {WITHHELD}\n" in err
    assert "4/4" not in err
    assert f"judge calibration    withheld: {judge['reason']}" in err


def test_metrics_without_labels_are_withheld_as_not_measured(project, capsys) -> None:
    p = project(CASES, config_extra=judge_config(labels=None, metrics='["route"]'))
    assert main(["run", str(p.config)]) == 0
    judge = Report.load(p.report).diagnostics["judge"]
    assert judge == {
        "measured": False,
        "labels": None,
        "n": None,
        "kappa": None,
        "ci_low": None,
        "ci_high": None,
        "threshold": 0.6,
        "publishable": False,
        "reason": NO_LABELS,
        "notes": [],
        "metrics": ["route"],
    }


def test_without_a_judge_section_the_report_has_no_judge_block(project, capsys) -> None:
    p = project(CASES, config_extra="[judge]\nthreshold = 0.7\n")
    assert main(["run", str(p.config)]) == 0
    assert "judge" not in Report.load(p.report).diagnostics
    assert "judge calibration" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (
            [{"id": "a", "human": "misreport", "judge": "misreport"}, {"id": "a", "human": "x"}],
            "2: field 'judge': required field is missing (no judge was given to label the item)",
        ),
        (['{"id": "a", "human": '], "1: invalid JSON"),
    ],
)
def test_a_bad_label_file_is_refused_before_any_call(project, capsys, lines, message) -> None:
    p = project(
        CASES,
        extra_agent=COUNTING_AGENT,
        target="counted",
        config_extra=judge_config(metrics='["route"]'),
    )
    labels = write_labels(p.root, lines)
    before = p.files()
    assert main(["run", str(p.config)]) == 4
    out, err = capsys.readouterr()
    assert out == ""
    assert one_error_line(err).startswith(f"fairwitness: error: {labels}:{message}")
    assert p.files() == before  # no report, no traces, no calls.txt
    assert p.module not in sys.modules  # the agent was not even imported
    write_labels(p.root, label_lines(wrong=0))
    assert main(["run", str(p.config)]) == 0
    assert (p.root / "calls.txt").read_text().count("call") == 8


def test_a_missing_label_file_is_refused(project, capsys) -> None:
    p = project(CASES, config_extra=judge_config(labels="nowhere.jsonl"))
    assert main(["run", str(p.config)]) == 4
    assert one_error_line(capsys.readouterr().err) == (
        f"fairwitness: error: {p.root / 'nowhere.jsonl'}: file not found"
    )
    assert not p.out.exists()


def test_an_unknown_judge_metric_is_refused_with_its_line(project, capsys) -> None:
    p = project(CASES, config_extra=judge_config(labels=None, metrics='["rout"]'))
    assert main(["run", str(p.config)]) == 4
    assert one_error_line(capsys.readouterr().err) == (
        f"fairwitness: error: {p.config.resolve()}:4: field 'judge.metrics': unknown metric "
        "'rout'; did you mean 'route'?"
    )
    assert not p.out.exists()


WORSE_AGENT = """
async def worse(text: str) -> dict[str, str]:
    result = await lookup(q=text)
    return {"text": result.to_model(), "verdict": "other" if text.startswith("flip") else "lookup"}
"""


def test_the_gate_leaves_a_withheld_metric_alone_and_refuses_a_floor_on_it(project, capsys) -> None:
    cases = [
        {"id": f"c{i}", "input": f"flip q{i}" if i < 12 else f"q{i}", "expect": {"route": "lookup"}}
        for i in range(30)
    ]
    p = project(cases, extra_agent=WORSE_AGENT, config_extra=judge_config(metrics='["route"]'))
    write_labels(p.root, label_lines(wrong=20))
    assert main(["run", str(p.config), "--out", str(p.root / "base")]) == 0
    assert main(["run", str(p.config), "--target", f"{p.module}:worse"]) == 0
    base, cand = str(p.root / "base" / "s.report.json"), str(p.report)
    capsys.readouterr()
    assert main(["gate", base, cand]) == 0
    out, _ = capsys.readouterr()
    assert "note: judge-derived metric(s) 'route' not gated" in out
    assert not [line for line in out.splitlines() if line.startswith("route ")]  # no figures
    assert main(["gate", base, cand, "--floor", "route=0.5"]) == 4
    out, _ = capsys.readouterr()
    assert "floor 'route': metric 'route' is judge-derived and its numbers are withheld" in out
    # with a calibrated judge the same change is a regression
    write_labels(p.root, label_lines(wrong=0))
    assert main(["run", str(p.config), "--out", str(p.root / "base"), "--force"]) == 0
    assert main(["run", str(p.config), "--target", f"{p.module}:worse", "--force"]) == 0
    capsys.readouterr()
    assert main(["gate", base, cand]) == 1
    assert "'route' regressed: per-trial rate 1.000 -> 0.600 over 30 paired cases (12 went" in (
        capsys.readouterr().out
    )
