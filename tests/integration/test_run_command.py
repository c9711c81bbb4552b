"""`fairwitness run` / `validate` / `init` through the CLI entry point, in process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fairwitness import Report
from fairwitness.cli import main
from fairwitness.trace.sink import read_traces


def one_error_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, lines
    return lines[0]


def test_run_writes_report_and_traces_and_prints_the_path(project, capsys) -> None:
    p = project()
    assert main(["run", str(p.config)]) == 0
    out, err = capsys.readouterr()
    assert out == f"{p.report}\n"
    report = Report.load(p.report)
    assert report.complete
    assert (report.counts.cases, report.counts.trials, report.counts.ok) == (4, 8, 8)
    assert report.traces == "s.traces.jsonl"
    assert report.usage.cost_usd == pytest.approx(0.008)
    traces = list(read_traces(p.traces))
    assert len(traces) == 8
    for outcome in (o for c in report.cases.values() for o in c.repeats):
        _, trace = traces[outcome.trace_line - 1]  # type: ignore[operator]
        assert (trace.repeat, trace.verdict) == (outcome.repeat, outcome.verdict)
    assert "s: 8/8 trials (4 cases x 2)" in err
    assert p.files() == sorted(
        [
            "cases.jsonl",
            "fairwitness.toml",
            f"{p.module}.py",
            "fairwitness-out/s.report.json",
            "fairwitness-out/s.traces.jsonl",
        ]
    )


def test_an_existing_report_is_not_overwritten_without_force(project, capsys) -> None:
    p = project()
    assert main(["run", str(p.config)]) == 0
    before = (p.report.read_bytes(), p.traces.read_bytes())
    capsys.readouterr()
    assert main(["run", str(p.config)]) == 4
    out, err = capsys.readouterr()
    assert out == ""
    assert one_error_line(err) == (
        f"fairwitness: error: {p.report}: output already exists; pass --force to replace it"
    )
    assert (p.report.read_bytes(), p.traces.read_bytes()) == before
    assert main(["run", str(p.config), "--force", "--seed", "3"]) == 0
    assert Report.load(p.report).run.seed == 3


@pytest.mark.parametrize(
    ("flag", "message"),
    [
        (
            ["--repeats", "0"],
            "fairwitness: error: --repeats: Input should be greater than or equal to 1 (got 0)",
        ),
        (
            ["--repeats", "-1"],
            "fairwitness: error: --repeats: Input should be greater than or equal to 1",
        ),
        (
            ["--repeats", "two"],
            "fairwitness run: argument --repeats: expected a whole number, got 'two'",
        ),
        (
            ["--concurrency", "0"],
            "fairwitness: error: --concurrency: Input should be greater than or equal",
        ),
        (
            ["--timeout", "0"],
            "fairwitness: error: --timeout: Input should be greater than 0 (got 0.0)",
        ),
        (["--mode", "fast"], "fairwitness run: argument --mode: invalid choice: 'fast'"),
    ],
)
def test_bad_flags_exit_4_with_one_line_and_write_nothing(project, capsys, flag, message) -> None:
    """A value argparse cannot convert is its error; one the ``[run]`` model refuses is the
    model's words, the same as for the config key, naming the flag."""
    p = project()
    before = p.files()
    assert main(["run", str(p.config), *flag]) == 4
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith(message), line
    assert p.files() == before


@pytest.mark.parametrize("argv", [["frobnicate"], [], ["run", "--no-such-flag"], ["validate"]])
def test_usage_errors_exit_4_never_2(argv, capsys) -> None:
    assert main(argv) == 4
    assert capsys.readouterr().err.strip()


def test_version_and_help_exit_0(capsys) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == "fairwitness 0.1.0"
    assert main(["run", "--help"]) == 0
    assert "--repeats" in capsys.readouterr().out


def test_unknown_config_key(project, capsys) -> None:
    p = project(run="repeat = 3")
    assert main(["run", str(p.config)]) == 4
    assert one_error_line(capsys.readouterr().err) == (
        f"fairwitness: error: {p.config}:7: field 'run.repeat': unknown key (did you mean 'repeats'?)"
    )
    assert not p.out.exists()


def test_missing_target_module(project, capsys) -> None:
    p = project()
    p.config.write_text(p.config.read_text().replace(p.module, "no_such_agent_module"))
    assert main(["run", str(p.config)]) == 4
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith(
        f"fairwitness: error: {p.config.resolve()}: field 'target': cannot import target module "
        "'no_such_agent_module'"
    )
    assert not p.out.exists()


def test_target_module_that_fails_to_import(project, capsys) -> None:
    p = project(extra_agent="raise RuntimeError('missing API key')")
    assert main(["run", str(p.config)]) == 4
    assert "raised RuntimeError: missing API key" in one_error_line(capsys.readouterr().err)
    assert not p.out.exists()


def test_missing_target_attribute(project, capsys) -> None:
    p = project(target="nope")
    assert main(["run", str(p.config)]) == 4
    assert f"module '{p.module}' has no attribute 'nope'" in one_error_line(capsys.readouterr().err)


def test_malformed_dataset_line(project, capsys) -> None:
    p = project([{"id": "a", "input": "x"}, '{"id": "b", "input": '])
    assert main(["run", str(p.config)]) == 4
    assert one_error_line(capsys.readouterr().err).startswith(
        f"fairwitness: error: {p.root / 'cases.jsonl'}:2: invalid JSON"
    )
    assert not p.out.exists()


def test_a_case_from_another_suite_is_refused_before_anything_runs(project, capsys) -> None:
    p = project(
        [{"id": "a", "input": "x", "suite": "s"}, {"id": "b", "input": "y", "suite": "other"}]
    )
    assert main(["run", str(p.config)]) == 4
    assert one_error_line(capsys.readouterr().err) == (
        f"fairwitness: error: {p.root / 'cases.jsonl'}:2: field 'suite': case 'b' belongs to "
        "suite 'other', but this file is loaded for suite 's'"
    )
    assert not p.out.exists()
    cases = str(p.root / "cases.jsonl")
    assert main(["validate", "--suite", "s", cases]) == 4
    assert "case 'b' belongs to suite 'other'" in capsys.readouterr().err
    assert main(["validate", cases]) == 0  # without --suite a file may hold several suites
    assert main(["validate", "--suite", "other", cases]) == 4
    assert f"{cases}:1: field 'suite': case 'a' belongs to suite 's'" in capsys.readouterr().err


def test_json_array_dataset(project, capsys) -> None:
    p = project([json.dumps([{"id": "a", "input": "x"}])])
    assert main(["run", str(p.config)]) == 4
    assert "one case object per line" in one_error_line(capsys.readouterr().err)


def test_duplicate_ids(project, capsys) -> None:
    p = project([{"id": "a", "input": "x"}, {"id": "a", "input": "y"}])
    assert main(["run", str(p.config)]) == 4
    assert "duplicate id 'a'" in one_error_line(capsys.readouterr().err)
    assert not p.out.exists()


def test_fault_on_a_tool_not_wrapped_is_refused_before_running(project, capsys) -> None:
    p = project(
        [
            {"id": "ok", "input": "x", "faults": [{"tool": "lookup", "kind": "timeout"}]},
            {
                "id": "bad",
                "input": "y",
                "faults": [{"tool": "no_such_tool_anywhere", "kind": "timeout"}],
            },
        ]
    )
    assert main(["run", str(p.config)]) == 4
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith(
        f"fairwitness: error: {p.root / 'cases.jsonl'}:2: field 'faults[0].tool': "
    )
    assert (
        "case 'bad' declares a timeout fault on tool 'no_such_tool_anywhere', which is not wrapped with @tool"
        in line
    )
    assert "lookup" in line
    assert not p.out.exists()


def test_target_raising_on_every_call(project, capsys) -> None:
    p = project(
        extra_agent="async def broken(text: str) -> str:\n    raise ValueError('no key')\n",
        target="broken",
    )
    assert main(["run", str(p.config)]) == 4
    out, err = capsys.readouterr()
    assert out == f"{p.report}\n"
    assert (
        "run incomplete (no trial produced an answer: all 8 crashed or timed out "
        "(first, case 'c0': ValueError: no key))"
    ) in err
    report = Report.load(p.report)
    assert not report.complete and report.counts.crashed == 8


def test_a_plain_function_of_the_text_runs(project, capsys) -> None:
    extra = "\n\ndef plain(query):\n    return {'text': query.lower(), 'verdict': 'lookup'}\n"
    proj = project(extra_agent=extra, target="plain")
    assert main(["run", str(proj.config)]) == 0, capsys.readouterr().err
    traces = [trace for _, trace in read_traces(proj.traces)]
    assert {t.status for t in traces} == {"ok"}
    assert sorted({t.answer for t in traces}) == ["q0", "q1", "q2", "q3"]


FLAKY = """

import threading
_seen: dict[tuple[str, int], int] = {}
_lock = threading.Lock()


class Overloaded(Exception):
    status_code = 503


def flaky(text: str) -> dict[str, str]:
    ctx = fairwitness.current()
    with _lock:
        _seen[(text, ctx.repeat)] = attempt = _seen.get((text, ctx.repeat), 0) + 1
    if text == "q0" and attempt <= 2:
        raise Overloaded("upstream overloaded")
    if text == "q1":
        raise ConnectionResetError("connection reset by peer")
    return {"text": text, "verdict": "lookup"}
"""


def test_retry_recovers_transient_failures_and_the_report_counts_them(project, capsys) -> None:
    p = project(extra_agent=FLAKY, target="flaky", run="retry = 2\nretry_backoff_s = 0.001")
    assert main(["run", str(p.config)]) == 0
    err = capsys.readouterr().err
    # q0 recovers on its third attempt (2 repeats x 2 retries); q1 never does (2 x 2 retries)
    assert "0 crashed" not in err and "2 crashed" in err
    assert ", 4 retried (8 retries, 2 recovered)" in err
    report = Report.load(p.report)
    counts = report.counts
    assert (counts.retried, counts.retries, counts.recovered) == (4, 8, 2)
    assert counts.live_calls == 8 + 8 and counts.crashed == 2
    by_case = {(t.case_id, t.repeat): t for _, t in read_traces(p.traces)}
    assert by_case["c0", 0].status == "ok" and by_case["c0", 0].attempts == 3
    assert [e.type for e in by_case["c0", 0].retried_errors] == ["Overloaded", "Overloaded"]
    assert by_case["c1", 1].status == "crashed" and by_case["c1", 1].attempts == 3
    assert by_case["c2", 0].attempts == 1
    # the flag overrides the config: no retries, so c0 crashes too
    assert main(["run", str(p.config), "--force", "--retry", "0"]) == 0
    assert Report.load(p.report).counts.retried == 0


def test_bad_retry_settings_name_the_flag_or_the_line(project, capsys) -> None:
    p = project()
    assert main(["run", str(p.config), "--retry", "-1"]) == 4
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith("fairwitness: error: --retry: ") and "(got -1)" in line
    q = project(run="retry = 11")
    assert main(["run", str(q.config)]) == 4
    assert one_error_line(capsys.readouterr().err).startswith(
        f"fairwitness: error: {q.config}:7: field 'run.retry': "
    )


def test_target_returning_none(project, capsys) -> None:
    p = project(extra_agent="def silent(text: str) -> None:\n    return None\n", target="silent")
    assert main(["run", str(p.config)]) == 4
    assert "InvalidReturn: target returned None instead of an answer" in capsys.readouterr().err
    report = Report.load(p.report)
    assert report.counts.crashed == 8 and not report.complete
    first = report.cases["c0"].repeats[0]
    assert first.status == "crashed" and first.verdict is None


def test_record_then_replay_makes_no_calls(project, capsys) -> None:
    p = project()
    assert main(["run", str(p.config), "--mode", "replay"]) == 4
    assert "replay mode: 8 trial(s) not in the cache" in one_error_line(capsys.readouterr().err)
    assert not p.out.exists()
    assert main(["run", str(p.config), "--mode", "record"]) == 0
    assert Report.load(p.report).counts.live_calls == 8
    assert main(["run", str(p.config), "--mode", "replay", "--force"]) == 0
    report = Report.load(p.report)
    assert (report.counts.live_calls, report.counts.replayed) == (0, 8)
    assert report.run.mode == "replay"


def test_suite_selection(project, capsys) -> None:
    p = project()
    assert main(["run", str(p.config), "--suite", "other"]) == 4
    assert "no suite named 'other' (known: s)" in one_error_line(capsys.readouterr().err)
    assert main(["run", str(p.config), "--suite", "s", "--out", str(p.root / "elsewhere")]) == 0
    assert (p.root / "elsewhere" / "s.report.json").exists()


def test_run_discovers_config_in_cwd(project, capsys, monkeypatch) -> None:
    p = project()
    monkeypatch.chdir(p.root)
    assert main(["run"]) == 0
    assert capsys.readouterr().out.strip() == str(p.report)


def test_validate_reports_each_file(project, capsys, tmp_path: Path) -> None:
    p = project()
    assert main(["run", str(p.config)]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a"}\n{"id": "a", "input": "x"}\n{"id": "a", "input": "x"}\n')
    assert (
        main(
            [
                "validate",
                str(p.root / "cases.jsonl"),
                str(p.config),
                str(p.report),
                str(p.traces),
                str(bad),
            ]
        )
        == 4
    )
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"ok: {p.root / 'cases.jsonl'}: dataset, 4 cases, split hash "
        + Report.load(p.report).split_hash,
        f"ok: {p.config}: config, 1 suite(s), target {p.module}:target",
        f"ok: {p.report}: report, suite s, 4 cases, complete",
        f"ok: {p.traces}: traces, 8 trace(s)",
    ]
    assert err.splitlines() == [
        f"{bad}:1: field 'input': required field is missing",
        f"{bad}:3: field 'id': duplicate id 'a' (first seen at {bad}:2)",
    ]


def test_internal_errors_are_logged_not_dumped(monkeypatch, capsys, tmp_path: Path) -> None:
    import fairwitness.commands.validate as validate_module

    def explode(path: Path, suite: str | None) -> str:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(validate_module, "_check", explode)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    assert main(["validate", "x.jsonl"]) == 4
    line = one_error_line(capsys.readouterr().err)
    assert line.startswith(
        "fairwitness: internal error: ZeroDivisionError: division by zero (details in "
    )
    logs = list(tmp_path.glob("fairwitness-crash-*.log"))
    assert len(logs) == 1 and "Traceback" in logs[0].read_text()


def test_init_writes_a_working_project_and_never_overwrites(
    tmp_path: Path, capsys, clean_modules
) -> None:
    (tmp_path / ".git").mkdir()
    target = tmp_path / "evals"
    assert main(["init", str(target)]) == 0
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written == [
        ".github/workflows/fairwitness.yml",
        "evals/agent.py",
        "evals/cases.jsonl",
        "evals/checks.py",
        "evals/fairwitness.toml",
    ]
    workflow = (tmp_path / ".github/workflows/fairwitness.yml").read_text()
    assert "working-directory: evals" in workflow
    capsys.readouterr()
    assert main(["run", str(target / "fairwitness.toml")]) == 0
    report = Report.load(target / "fairwitness-out" / "starter.report.json")
    assert report.complete and report.counts.faults_fired == 6
    # the starter already uses a state check and a custom scorer, both measured and passing
    for name, trials in (("state", 9), ("names_the_order", 9)):
        metric = report.metrics[name]
        assert (metric.trials, metric.successes) == (trials, trials)
        assert metric.excluded == {"not_applicable": 4}  # the cases naming no order / no state
    assert set(report.scoring.scorers) == {"names_the_order"}
    # a second init refuses and leaves everything as it was
    (target / "agent.py").write_text("# mine\n")
    capsys.readouterr()
    assert main(["init", str(target)]) == 4
    assert "refusing to overwrite existing file(s)" in one_error_line(capsys.readouterr().err)
    assert (target / "agent.py").read_text() == "# mine\n"


def test_validate_names_a_truncated_report_and_unknown_version(
    project, capsys, tmp_path: Path
) -> None:
    p = project()
    assert main(["run", str(p.config)]) == 0
    text = p.report.read_text(encoding="utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 3], encoding="utf-8")
    future = tmp_path / "future.json"
    future.write_text(
        text.replace("fairwitness.report/1", "fairwitness.report/7"), encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["validate", str(cut)]) == 4
    assert one_error_line(capsys.readouterr().err).startswith(f"{cut}:")
    assert main(["validate", str(future)]) == 4
    assert "unknown report schema 'fairwitness.report/7'" in one_error_line(capsys.readouterr().err)


def test_the_library_call_takes_run_settings_by_field(project) -> None:
    """``run_suites`` takes any ``[run]`` field by name, checked by the same model as the config
    file and the flags; an unknown or bad one is refused, naming it, before anything is written."""
    from fairwitness.errors import UsageError
    from fairwitness.suites import run_suites

    p = project()
    done = run_suites(str(p.config), repeats=3, seed=7, out=str(p.root / "lib"))
    assert done.exit_code == 0
    (ran,) = done.suites
    assert ran.repeats == 3
    assert ran.report.counts.trials == 12
    assert (ran.report.run.seed, ran.report.run.repeats) == (7, 3)
    with pytest.raises(UsageError, match=r"^repeats: Input should be greater than or equal to 1"):
        run_suites(str(p.config), repeats=0, out=str(p.root / "bad"))
    with pytest.raises(UsageError, match=r"^repeat: Extra inputs are not permitted \(got 3\)"):
        run_suites(str(p.config), repeat=3, out=str(p.root / "bad"))
    assert not (p.root / "bad").exists()
