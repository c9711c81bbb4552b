"""`fairwitness gate BASE CAND` through the CLI entry point, on reports written by `fairwitness run`
from a throwaway project (the ``project`` fixture), and on edited copies of them."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from fairwitness.cli import main

EXTRA = """
async def worse(text: str) -> dict[str, str]:
    result = await lookup(q=text)
    return {"text": result.to_model(), "verdict": "other" if text.startswith("flip") else "lookup"}


async def shaky(text: str) -> dict[str, str]:
    result = await lookup(q=text)
    flip = text.startswith("flip") and fairwitness.current().repeat == 1
    return {"text": result.to_model(), "verdict": "other" if flip else "lookup"}
"""


def cases(flips: int, n: int = 20, must_pass: tuple[int, ...] = ()) -> list[object]:
    """``n`` cases expecting route ``lookup``; the first ``flips`` are answered wrongly by
    ``worse`` (and unstably by ``shaky``)."""
    return [
        {
            "id": f"c{i}",
            "input": f"flip q{i}" if i < flips else f"q{i}",
            "expect": {"route": "lookup"},
            "must_pass": i in must_pass,
        }
        for i in range(n)
    ]


class Reports:
    """Run the project's agent as ``target`` names and keep each report under its own name."""

    def __init__(self, project: Any, capsys: pytest.CaptureFixture[str]) -> None:
        self.project = project
        self.capsys = capsys

    def run(self, target: str, name: str) -> Path:
        config = self.project.config
        text = re.sub(r':\w+"', f':{target}"', config.read_text(encoding="utf-8"), count=1)
        config.write_text(text, encoding="utf-8")
        assert main(["run", str(config), "--force"]) == 0
        self.capsys.readouterr()
        dest = self.project.root / name
        shutil.copy(self.project.report, dest)
        return dest


@pytest.fixture
def pair(project: Callable[..., Any], capsys: pytest.CaptureFixture[str]) -> Callable[..., Any]:
    """``pair(flips, candidate_target)`` -> (baseline path, candidate path)."""

    def make(flips: int, target: str = "worse", **kw: Any) -> tuple[Path, Path]:
        reports = Reports(project(cases(flips, **kw), extra_agent=EXTRA), capsys)
        return reports.run("target", "base.json"), reports.run(target, "cand.json")

    return make


def gate(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main(["gate", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def edited(path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    dest = path.with_name("edited.json")
    dest.write_text(json.dumps(data), encoding="utf-8")
    return dest


def test_the_same_agent_passes_with_the_power_statement(pair, capsys) -> None:
    base, cand = pair(0)
    code, out, err = gate(capsys, base, cand)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(
        "fairwitness gate: PASS (exit 0): no regression detected in 2 gated metric(s)"
    )
    assert "smallest change detectable with 80% power: route 0.348, false_alarm" in lines[0]
    header = lines[2].split()
    assert header[:4] == ["metric", "baseline", "candidate", "delta"]
    assert "detectable" in header
    assert lines[3].split()[:4] == ["route", "1.000", "1.000", "+0.000"]
    assert lines[-1].startswith("detectable: the smallest drop in a metric")
    assert "no regression" not in out.replace("no regression detected", "")


def test_twelve_flipped_cases_are_a_regression(pair, capsys) -> None:
    base, cand = pair(12)
    code, out, _ = gate(capsys, base, cand)
    assert code == 1
    first = out.splitlines()[0]
    assert first.startswith(
        "fairwitness gate: REGRESSION (exit 1): 'route' regressed: per-trial rate 1.000 -> "
        "0.400 over 20 paired cases (12 went from good to bad, 0 from bad to good)"
    )
    row = next(line for line in out.splitlines() if line.startswith("route")).split()
    assert row[:5] == ["route", "1.000", "0.400", "-0.600", "20"]
    assert row[6:10] == ["sign-flip", "0.000244", "12", "0"]
    back, _, _ = gate(capsys, cand, base)  # the other way round is an improvement
    assert back == 0


def test_json_output_has_the_whole_decision(pair, capsys) -> None:
    base, cand = pair(12)
    code, out, _ = gate(capsys, base, cand, "--json", "--floor", "route=0.9")
    data = json.loads(out)
    assert code == data["exit_code"] == 1
    assert data["verdict"] == "regression"
    assert [r.split(":")[0] for r in data["reasons"]] == ["'route' regressed", "floor breached"]
    assert [m["name"] for m in data["metrics"]] == ["route", "false_alarm"]
    route = data["metrics"][0]
    assert (route["baseline"], route["candidate"]) == (1.0, 0.4)
    assert (route["regressions"], route["improvements"], route["n"]) == (12, 0, 20)
    assert route["p"] == pytest.approx(0.5**13)
    assert route["p_adjusted"] == pytest.approx(2 * route["p"])  # Holm over 2 gated metrics
    assert route["rejected"] is True
    assert 0 < route["detectable_drop"] < 1
    assert data["unpaired"] == {"missing_from_candidate": [], "new_in_candidate": []}


def test_mid_p_and_exact_differ_at_four_flips(pair, capsys) -> None:
    base, cand = pair(4)
    code, out, _ = gate(capsys, base, cand, "--metric", "route", "--json")
    assert code == 1 and json.loads(out)["metrics"][0]["p"] == pytest.approx(0.03125)
    assert gate(capsys, base, cand, "--metric", "route", "--test", "midp")[0] == 1
    code, out, _ = gate(capsys, base, cand, "--metric", "route", "--test", "exact", "--json")
    assert code == 0 and json.loads(out)["metrics"][0]["p"] == pytest.approx(0.0625)
    # gated with false_alarm as well, Holm doubles the smaller p-value: 0.0625 > 0.05
    code, out, _ = gate(capsys, base, cand, "--json")
    assert code == 0 and json.loads(out)["metrics"][0]["p_adjusted"] == pytest.approx(0.0625)


def test_a_failed_must_pass_case_exits_2(pair, capsys) -> None:
    base, cand = pair(1, must_pass=(0,))
    code, out, _ = gate(capsys, base, cand)
    assert code == 2
    assert out.splitlines()[0] == (
        f"fairwitness gate: MUST-PASS FAILED (exit 2): 1 must-pass case(s) failed in "
        f"candidate {cand}: c0 (route)"
    )


def test_instability_is_inconclusive_only_beyond_a_limit_the_user_sets(pair, capsys) -> None:
    base, cand = pair(4, target="shaky")
    code, out, _ = gate(capsys, base, cand)
    assert code in (0, 1) and "unstable" not in out.splitlines()[0]  # decided by the test
    code, out, _ = gate(capsys, base, cand, "--max-unstable-rate", "0.1")
    assert code == 3
    assert "20.0% of the cases of candidate" in out and "set for this gate" in out
    assert gate(capsys, base, cand, "--max-unstable-rate", "0.25")[0] in (0, 1)


def test_a_drop_the_run_cannot_detect_is_inconclusive_with_what_would(pair, capsys) -> None:
    base, cand = pair(0)
    code, out, _ = gate(capsys, base, cand, "--must-detect", "0.05")
    assert code == 3
    first = out.splitlines()[0]
    assert "'route': this run cannot detect the drop it must (must_detect 0.05)" in first
    assert "paired cases at these repeats" in first
    assert gate(capsys, base, cand, "--must-detect", "0.9")[0] == 0


def test_the_blind_probe_set_is_inconclusive_only_with_fail_on_vacuous(pair, capsys) -> None:
    base, cand = pair(0)
    assert gate(capsys, base, cand)[0] == 0
    code, out, _ = gate(capsys, base, cand, "--fail-on-vacuous")
    assert code == 3 and "the probe set is blind" in out


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(suite="other"), "field 'suite' differs"),
        (lambda d: d.update(split_hash="sha256:0"), "field 'split_hash' differs"),
        (lambda d: d["scoring"].update(patterns_version="x/1"), "'scoring.patterns_version'"),
        (lambda d: d["run"].update(models=["m-2"]), "field 'run.models' differs"),
        (lambda d: d.update(complete=False, incomplete_reason="interrupted by SIGINT"), "SIGINT"),
        (lambda d: d["metrics"]["route"].update(k=19.0), "field 'metrics.route': stored k=19"),
        (lambda d: d["cases"]["c5"]["scores"].update(route=0.0), "disagrees with the case's"),
    ],
)
def test_invalid_candidates_exit_4_naming_the_file_and_field(
    pair, capsys, change: Callable[[dict[str, Any]], None], expected: str
) -> None:
    base, cand = pair(0)
    bad = edited(cand, change)
    code, out, err = gate(capsys, base, bad)
    assert code == 4 and err == ""
    assert out.startswith("fairwitness gate: INVALID (exit 4): ")
    assert expected in out and str(bad) in out


def test_a_model_change_can_be_allowed(pair, capsys) -> None:
    base, cand = pair(0)
    bad = edited(cand, lambda d: d["run"].update(models=["m-2"]))
    code, out, _ = gate(capsys, base, bad, "--allow-model-change")
    assert code == 0 and "note: field 'run.models' differs" in out


def test_missing_cases_are_invalid_beyond_max_unpaired(pair, capsys) -> None:
    base, cand = pair(0)

    def drop(data: dict[str, Any]) -> None:
        del data["cases"]["c19"]
        # the figures as a report written before per-trial rates stores them
        for name in ("route", "false_alarm"):
            for key in ("headline", "trials", "successes", "per_trial", "collapsed", "pass_k"):
                data["metrics"][name].pop(key, None)
        data["metrics"]["route"].update(k=19.0, n=19, value=1.0)
        data["metrics"]["false_alarm"].update(n=19)

    fewer = edited(cand, drop)
    code, out, _ = gate(capsys, base, fewer, "--json")
    data = json.loads(out)
    assert code == 4 and data["unpaired"]["missing_from_candidate"] == ["c19"]
    assert data["reasons"] == [
        f"1 case(s) of baseline {base} are missing from candidate {fewer} (max_unpaired 0): c19"
    ]
    assert gate(capsys, base, fewer, "--max-unpaired", "1")[0] == 0


def test_floors_from_the_command_line(pair, capsys) -> None:
    base, cand = pair(1)
    assert gate(capsys, base, cand, "--floor", "route=0.95")[0] == 0
    code, out, _ = gate(capsys, base, cand, "--floor", "route=0.96")
    assert code == 1 and "floor breached: 'route' is 0.95" in out
    code, out, _ = gate(capsys, base, cand, "--floor", "rout=0.95")
    assert code == 4 and "did you mean 'route'?" in out.splitlines()[0]
    assert gate(capsys, base, cand, "--floor", "false_alarm_max=0")[0] == 0
    code, out, _ = gate(capsys, base, cand, "--floor", "verdict=0.5")
    assert code == 4 and "'verdict' was not measured in candidate" in out
    assert "nothing measured cannot pass a floor" in out


def test_gated_metrics_from_the_command_line(pair, capsys) -> None:
    base, cand = pair(0)
    code, out, _ = gate(capsys, base, cand, "--metric", "route", "--metric", "verdcit")
    assert code == 4 and "did you mean 'verdict'?" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--floor", "route"], "--floor: expected NAME=VALUE"),
        (["--floor", "route=high"], "--floor route: expected a number, got 'high'"),
        (["--floor", "route=nan"], "--floor route: expected a finite number"),
        (["--floor", "route=0.9", "--floor", "route=0.8"], "--floor route: given more than once"),
        (["--alpha", "0.7"], "--alpha: Input should be less than 0.5"),
        (["--alpha", "x"], "argument --alpha: expected a number"),
        (["--max-unstable-rate", "2"], "--max-unstable-rate: Input should be less than or equal"),
        (["--max-unpaired", "-1"], "--max-unpaired: Input should be greater than or equal to 0"),
        (["--test", "chi2"], "argument --test: invalid choice"),
    ],
)
def test_usage_errors_are_one_line_and_exit_4(pair, capsys, args: list[str], message: str) -> None:
    base, cand = pair(0)
    code, out, err = gate(capsys, base, cand, *args)
    assert (code, out) == (4, "")
    lines = err.splitlines()
    assert len(lines) == 1 and message in lines[0], err


def test_an_unreadable_report_is_one_line_and_exit_4(pair, capsys, tmp_path: Path) -> None:
    base, _ = pair(0)
    code, out, err = gate(capsys, base, tmp_path / "missing.json")
    assert (code, out) == (4, "")
    assert err == f"fairwitness: error: {tmp_path / 'missing.json'}: report not found\n"


def test_gate_is_listed_in_the_help(capsys) -> None:
    assert main(["--help"]) == 0
    assert "gate" in capsys.readouterr().out


# -- outputs, config sections, compare and render ---------------------------------------------


def test_markdown_summary_and_junit_are_written_whatever_the_verdict(
    pair, capsys, tmp_path: Path
) -> None:
    base, cand = pair(12)
    out = tmp_path / "out"
    code, _, _ = gate(
        capsys,
        base,
        cand,
        "--markdown",
        out / "comment.md",
        "--summary",
        out / "summary.md",
        "--junit",
        out / "junit.xml",
    )
    assert code == 1
    comment = (out / "comment.md").read_text(encoding="utf-8")
    assert comment.startswith("### \u274c fairwitness \u00b7 s: regression (exit 1)")
    assert "#### Cases that flipped (12)" in comment
    assert (out / "summary.md").read_text(encoding="utf-8").startswith("## ")
    assert "<testsuites>" in (out / "junit.xml").read_text(encoding="utf-8")
    other = edited(cand, lambda d: d.update(suite="other"))
    code, _, _ = gate(capsys, base, other, "--markdown", out / "invalid.md")
    assert code == 4
    assert "invalid (exit 4)" in (out / "invalid.md").read_text(encoding="utf-8")


def test_gate_reads_its_settings_from_the_config_and_flags_override(pair, capsys) -> None:
    base, cand = pair(4)
    config = base.parent / "fairwitness.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text + '\n[gate]\ntest = "exact"\nmetrics = ["route"]\nfloors = {route = 0.5}\n',
        encoding="utf-8",
    )
    code, out, _ = gate(capsys, base, cand, "--config", config, "--json")
    data = json.loads(out)
    assert code == 0 and data["test"] == "exact"
    assert [m["name"] for m in data["metrics"]] == ["route"]
    assert data["metrics"][0]["floor"] == 0.5
    code, out, _ = gate(capsys, base, cand, "--config", config, "--test", "midp", "--json")
    assert code == 1 and json.loads(out)["test"] == "midp"
    code, out, _ = gate(capsys, base, cand, "--config", config, "--floor", "route=0.9", "--json")
    assert code == 1 and json.loads(out)["metrics"][0]["floor"] == 0.9


def test_a_misspelled_gate_key_in_the_config_is_refused_with_its_line(pair, capsys) -> None:
    base, cand = pair(0)
    config = base.parent / "fairwitness.toml"
    lines = config.read_text(encoding="utf-8").count("\n")
    config.write_text(
        config.read_text(encoding="utf-8") + "\n[gate]\nflors = {route = 0.9}\n", encoding="utf-8"
    )
    code, out, err = gate(capsys, base, cand, "--config", config)
    assert (code, out) == (4, "")
    assert (
        f"fairwitness.toml:{lines + 3}: field 'gate.flors': unknown key (did you mean 'floors'?)"
        in err
    )


def test_templates_come_from_the_config(pair, capsys, tmp_path: Path) -> None:
    base, cand = pair(12)
    folder = base.parent / "my-templates"
    folder.mkdir()
    (folder / "comment.md.j2").write_text("{{ view.verdict }}!\n", encoding="utf-8")
    config = base.parent / "fairwitness.toml"
    config.write_text(
        config.read_text(encoding="utf-8") + '\n[render]\ntemplates = "my-templates"\n',
        encoding="utf-8",
    )
    code, _, _ = gate(capsys, base, cand, "--config", config, "--markdown", tmp_path / "c.md")
    assert code == 1
    assert (tmp_path / "c.md").read_text(encoding="utf-8") == "regression!\n"


def _with_templates(base: Path, files: dict[str, str]) -> Path:
    """The project's config with ``[render] templates`` naming a folder beside it of ``files``."""
    folder = base.parent / "my-templates"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    config = base.parent / "fairwitness.toml"
    config.write_text(
        config.read_text(encoding="utf-8") + '\n[render]\ntemplates = "my-templates"\n',
        encoding="utf-8",
    )
    return config


def test_the_printed_decision_comes_from_the_configured_templates(
    pair, capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base, cand = pair(12)
    config = _with_templates(
        base, {"gate.txt.j2": "{{ view.verdict }} {{ view.exit_code }}: {{ view.rows[0][0] }}\n"}
    )
    monkeypatch.chdir(tmp_path)  # the folder is found beside the config, not in the cwd
    code, out, err = gate(capsys, base, cand, "--config", config)
    assert (code, out, err) == (1, "regression 1: route\n", "")
    code, out, _ = gate(capsys, base, cand, "--config", config, "--json")
    assert code == 1 and json.loads(out)["verdict"] == "regression"


def test_gate_and_compare_show_a_decision_through_the_same_template(pair, capsys) -> None:
    base, cand = pair(12)
    code, gated, _ = gate(capsys, base, cand, "--floor", "route=0.9")
    assert main(["compare", str(base), str(cand), "--floor", "route=0.9"]) == 0
    compared = capsys.readouterr().out
    assert code == 1
    # the verdict, and every reason after the first, alike in both
    assert gated.splitlines()[0].startswith("fairwitness gate: REGRESSION (exit 1): ")
    assert compared.splitlines()[0] == "fairwitness \u00b7 s: REGRESSION (exit 1)"
    also = [line for line in gated.splitlines() if line.startswith("  also: ")]
    assert also and also == [line for line in compared.splitlines() if line.startswith("  also: ")]
    # and one override of the shared macros changes both
    macros = (
        "{% macro verdict(view) %}<{{ view.verdict }}>{% endmacro %}"
        "{% macro followups(reasons, notes) %}{% for r in reasons %}+ {{ r }}\n"
        "{% endfor %}{% endmacro %}"
    )
    config = _with_templates(base, {"_decision.txt.j2": macros})
    code, gated, _ = gate(capsys, base, cand, "--config", config, "--floor", "route=0.9")
    assert (
        main(["compare", str(base), str(cand), "--config", str(config), "--floor", "route=0.9"])
        == 0
    )
    compared = capsys.readouterr().out
    assert gated.startswith("fairwitness gate: <regression>: 'route' regressed")
    assert compared.startswith("fairwitness \u00b7 s: <regression>\n")
    also = [line for line in gated.splitlines() if line.startswith("+ ")]
    assert also == [line for line in compared.splitlines() if line.startswith("+ ")]
    assert also[0].startswith("+ floor breached: 'route'")


@pytest.mark.parametrize(
    ("fmt", "start"),
    [
        ("terminal", "fairwitness \u00b7 s: REGRESSION (exit 1)"),
        ("comment", "### \u274c fairwitness \u00b7 s: regression (exit 1)"),
        ("summary", "## \u274c fairwitness \u00b7 s: regression (exit 1)"),
        ("json", "{"),
        ("junit", '<?xml version="1.0" encoding="utf-8"?>'),
    ],
)
def test_compare_shows_every_format_and_exits_0(pair, capsys, fmt: str, start: str) -> None:
    base, cand = pair(12)
    assert main(["compare", str(base), str(cand), "--format", fmt]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(start) and err == ""


def test_compare_exits_4_when_the_reports_cannot_be_compared(pair, capsys, tmp_path: Path) -> None:
    base, cand = pair(0)
    other = edited(cand, lambda d: d.update(suite="other"))
    target = tmp_path / "cmp.md"
    assert (
        main(["compare", str(base), str(other), "--format", "comment", "--out", str(target)]) == 4
    )
    assert "invalid (exit 4)" in target.read_text(encoding="utf-8")


def test_render_shows_one_report_without_gating(pair, capsys) -> None:
    base, _ = pair(0)
    assert main(["render", str(base), "--format", "comment"]) == 0
    out, _ = capsys.readouterr()
    assert "no baseline to compare with" in out
    assert main(["render", "missing.json"]) == 4
    assert "report not found" in capsys.readouterr().err


def test_judge_calibrate_from_the_command_line(capsys, tmp_path: Path) -> None:
    labels = tmp_path / "labels.jsonl"
    rows = [
        {"id": f"i{i}", "human": h, "judge": h if i >= 2 else "unreadable", "language": "en"}
        for i, h in enumerate(["misreport", "acknowledged"] * 15)
    ]
    labels.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["judge", "calibrate", str(labels)]) == 0
    assert "PUBLISHABLE" in capsys.readouterr().out
    assert main(["judge", "calibrate", str(labels), "--threshold", "0.95"]) == 3
    capsys.readouterr()
    assert main(["judge"]) == 4
    assert "a subcommand is required" in capsys.readouterr().err
