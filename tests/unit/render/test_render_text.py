"""Terminal text for people: what ``fairwitness gate`` prints for a decision, laid out by the same
macros as the comparison's terminal view, with what it quotes made inert."""

from __future__ import annotations

import json
from pathlib import Path

from builders import FAIL, PASS, build, plan_of
from fairwitness.gate import GateSettings, decide
from fairwitness.render import GateView, Renderer, gate_text, render_terminal

BASE = build(plan_of(40, lambda i: [PASS, PASS]))
DROP = build(plan_of(40, lambda i: [FAIL, FAIL] if i < 12 else [PASS, PASS]))


def test_the_gate_text_leads_with_the_verdict_then_a_table_and_its_legend() -> None:
    decision = decide(BASE, DROP, GateSettings(floors={"route": 0.9}))
    lines = gate_text(decision).splitlines()
    assert lines[0].startswith("fairwitness gate: REGRESSION (exit 1): 'route' regressed: ")
    assert lines[1].startswith("  also: floor breached: 'route' is 0.7")
    assert lines[2] == ""
    assert lines[3].split()[:4] == ["metric", "baseline", "candidate", "delta"]
    assert lines[4].split()[:5] == ["route", "1.000", "0.700", "-0.300", "40"]
    assert lines[4].endswith(">= 0.9 BREACHED")
    assert len(lines[3]) == len(lines[4])  # the columns line up
    assert lines[-1].startswith("detectable: the smallest drop in a metric's per-trial rate")
    assert "at one-sided alpha 0.05/1 = 0.05" in lines[-1]


def test_without_a_compared_metric_the_table_says_so_and_nothing_is_explained() -> None:
    refused = decide(BASE, build(plan_of(40, lambda i: [PASS, PASS]), suite="other"))
    text = gate_text(refused.model_copy(update={"metrics": [], "power_alpha": None}))
    assert text.startswith("fairwitness gate: INVALID (exit 4): ")
    assert "(no metric compared)\n" in text
    assert "detectable:" not in text


def test_what_the_reasons_and_notes_quote_cannot_drive_the_terminal() -> None:
    decision = decide(BASE, DROP).model_copy(
        update={
            "reasons": ["case \x1b[2Jc1\rfailed", "also\u202e this"],
            "notes": ["a\nnote\x07"],
        }
    )
    text = gate_text(decision)
    assert "\x1b" not in text and "\r" not in text and "\x07" not in text
    assert "\u202e" not in text
    assert text.splitlines()[:3] == [
        "fairwitness gate: REGRESSION (exit 1): case [2Jc1 failed",
        "  also: also this",
        "  note: a note",
    ]


def test_gate_and_the_terminal_view_share_the_verdict_and_its_reasons() -> None:
    decision = decide(BASE, DROP, GateSettings(floors={"route": 0.9}))
    gated = gate_text(decision).splitlines()
    shown = render_terminal(DROP, BASE, decision).splitlines()
    assert gated[0].startswith("fairwitness gate: REGRESSION (exit 1): ")
    assert shown[0].endswith(": REGRESSION (exit 1)")
    assert gated[1] == shown[2] == "  also: " + decision.reasons[1]


def test_a_project_can_replace_the_gate_text_or_the_shared_macros(tmp_path: Path) -> None:
    decision = decide(BASE, DROP)
    (tmp_path / "gate.txt.j2").write_text(
        "{{ view.verdict }}: {% for row in view.rows %}{{ row[0] }}{% endfor %}\n",
        encoding="utf-8",
    )
    assert gate_text(decision, renderer=Renderer(tmp_path)) == "regression: route\n"
    (tmp_path / "gate.txt.j2").unlink()
    (tmp_path / "_decision.txt.j2").write_text(
        "{% macro verdict(view) %}[{{ view.exit_code }}]{% endmacro %}"
        "{% macro followups(reasons, notes) %}{% endmacro %}",
        encoding="utf-8",
    )
    renderer = Renderer(tmp_path)
    assert gate_text(decision, renderer=renderer).startswith("fairwitness gate: [1]: 'route'")
    assert render_terminal(DROP, BASE, decision, renderer=renderer).startswith(
        "fairwitness \u00b7 s: [1]\n"
    )


def test_the_view_holds_formatted_cells_and_their_widths() -> None:
    from fairwitness.render._gate import gate_view

    view = gate_view(decide(BASE, DROP))
    assert isinstance(view, GateView)
    assert view.columns[0] == "metric" and len(view.widths) == len(view.columns)
    assert all(len(row) == len(view.columns) for row in view.rows)
    assert (view.power, view.alpha, view.gated) == ("80%", "0.05", 1)


def test_what_a_label_file_holds_cannot_drive_the_terminal(tmp_path: Path) -> None:
    from fairwitness.judge import calibrate, load_labels
    from fairwitness.render import calibration_text

    labels = tmp_path / "labels\x1b[2J.jsonl"
    rows = [
        {"id": f"i{i}\x07", "human": h, "judge": "ok" if i % 3 else "bad\x1b[31m"}
        for i, h in enumerate(["ok", "bad\x1b[31m"] * 10)
    ]
    labels.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    calibration = calibrate(load_labels(str(labels)))
    text = calibration_text(calibration, calibration.publishable(0.6), str(labels))
    assert "\x1b" not in text and "\x07" not in text
    assert text.startswith("fairwitness judge calibrate: WITHHELD (exit 3): ")
    assert "bad[31m" in text and "labels[2J.jsonl" in text


def test_what_the_agent_answers_cannot_drive_the_diagnosis_text() -> None:
    from fairwitness import DiagnoseConfig, Observation, diagnose
    from fairwitness.render import diagnosis_text

    def agent(text: str) -> Observation:
        return Observation(text="ok", verdict="\x1b]0;owned\x07same")

    diagnosis = diagnose(agent, [f"q{i}" for i in range(12)], DiagnoseConfig(max_pairs=12))
    text = diagnosis_text(diagnosis)
    assert text.startswith("fairwitness diagnose\n\n1. verdict-stochasticity meter\n")
    assert "\x1b" not in text and "\x07" not in text
    assert "']0;ownedsame' on 12 inputs" in text
