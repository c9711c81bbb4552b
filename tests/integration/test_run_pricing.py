"""`fairwitness run` with a [pricing] table: per-model tokens and cost in the report, unknown
costs explained, the comment's cost rows, and merged shards equal to the whole run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fairwitness import Report
from fairwitness.cli import main
from fairwitness.render import render_comment
from markdown_check import check

pytestmark = pytest.mark.integration

AGENT = """
async def models(text: str) -> dict[str, str]:
    ctx = fairwitness.current()
    n = int(text[1:])
    if n % 3 == 0:
        ctx.record_model("priced-model")
        ctx.record_usage(input_tokens=1000 + n, output_tokens=100)
    elif n % 3 == 1:
        ctx.record_model("unpriced-model")
        ctx.record_usage(input_tokens=50, output_tokens=5)
    else:
        ctx.record_model("reporting-model")
        ctx.record_usage(input_tokens=10, output_tokens=1, cost_usd=0.0003)
    return {"text": "ok", "verdict": "lookup"}
"""
PRICING = """
[pricing]
version = "prices-2026-01"
[pricing.models."priced-model"]
input_usd_per_mtok = 2.5
output_usd_per_mtok = 10.0
"""
CASES = [{"id": f"c{i}", "input": f"q{i}"} for i in range(9)]
VOLATILE = re.compile(
    r'("created_at":"[^"]*"|"finished_at":"[^"]*"|"latency_ms":[0-9.eE+-]+|"trace_line":\d+)'
)
"""Time and file layout (see the merge's docs)."""


def test_run_reports_tokens_and_cost_per_model(project, capsys) -> None:
    p = project(CASES, extra_agent=AGENT, target="models", config_extra=PRICING)
    assert main(["run", str(p.config)]) == 0
    capsys.readouterr()
    usage = Report.load(p.report).usage
    assert usage.pricing_version == "prices-2026-01"
    assert list(usage.by_model) == ["priced-model", "reporting-model", "unpriced-model"]
    priced = usage.by_model["priced-model"]
    # cases 0, 3, 6 x 2 repeats: (1000 + n) input and 100 output tokens each
    assert (priced.trials, priced.input_tokens, priced.output_tokens) == (6, 6018, 600)
    assert priced.cost_usd == pytest.approx((6018 * 2.5 + 600 * 10.0) / 1e6)
    assert (priced.cost_source, priced.cost_unknown_reason) == ("pricing", None)
    reporting = usage.by_model["reporting-model"]
    assert reporting.cost_usd == pytest.approx(6 * 0.0003)
    assert reporting.cost_source == "reported"
    unpriced = usage.by_model["unpriced-model"]
    assert (unpriced.trials, unpriced.input_tokens, unpriced.output_tokens) == (6, 300, 30)
    assert unpriced.cost_usd is None and unpriced.cost_source is None
    assert unpriced.cost_unknown_reason == (
        "no cost reported and no price for model 'unpriced-model' in [pricing]"
    )
    # the total is unknown while one model's is, and counts the priced trials as known
    assert usage.cost_usd is None and usage.cost_known_trials == 12
    assert usage.cost_unknown_reason == "cost neither reported nor priced for 6 of 18 trials"
    assert usage.input_tokens == 6018 + 300 + 60
    saved = json.loads(p.report.read_text(encoding="utf-8"))["usage"]
    assert saved["by_model"]["unpriced-model"]["cost_usd"] is None  # null, never 0


def test_the_comment_shows_each_models_cost_next_to_the_baselines(project, capsys) -> None:
    p = project(CASES, extra_agent=AGENT, target="models")
    assert main(["run", str(p.config), "--out", str(p.root / "base")]) == 0
    p.config.write_text(
        p.config.read_text(encoding="utf-8").replace("[run]", PRICING + "\n[run]"),
        encoding="utf-8",
    )
    assert main(["run", str(p.config)]) == 0
    capsys.readouterr()
    base = Report.load(p.root / "base" / "s.report.json")
    cand = Report.load(p.report)
    assert base.usage.pricing_version is None
    assert base.usage.by_model["priced-model"].cost_usd is None
    text = render_comment(cand, base)
    assert check(text).problems == []
    rows = {line.split(" | ")[0]: line for line in text.splitlines() if line.startswith("| cost")}
    assert rows["| cost: priced-model"] == (
        "| cost: priced-model | unknown (no cost reported and no price for model "
        "'priced-model' in \\[pricing\\]); 6018 in / 600 out tokens; 6 trials | "
        "\\$0.0210 priced; 6018 in / 600 out tokens; 6 trials |"
    )
    assert (
        "| \\$0.0018 reported; 60 in / 6 out tokens; 6 trials |" in rows["| cost: reporting-model"]
    )
    assert rows["| cost: unpriced-model"].count("unknown (no cost reported") == 2
    assert rows["| cost"] == (
        "| cost | unknown (cost not reported for 12 of 18 trials) | "
        "unknown (cost neither reported nor priced for 6 of 18 trials) |"
    )
    assert "| pricing | none | prices-2026-01 |" in text


def test_merged_shards_carry_the_same_per_model_usage_as_the_whole_run(
    project, capsys, tmp_path: Path
) -> None:
    p = project(CASES, extra_agent=AGENT, target="models", config_extra=PRICING)
    shards = p.root / "shards"
    assert main(["run", str(p.config)]) == 0
    for i in (1, 2, 3):
        assert main(["run", str(p.config), "--shard", f"{i}/3", "--out", str(shards)]) == 0
    merged = p.root / "merged" / "s.report.json"
    assert (
        main(["merge", *sorted(map(str, shards.glob("*.report.json"))), "--out", str(merged)]) == 0
    )
    capsys.readouterr()
    whole_text = p.report.read_text(encoding="utf-8")
    merged_text = merged.read_text(encoding="utf-8")
    assert VOLATILE.sub("<>", merged_text) == VOLATILE.sub("<>", whole_text)
    assert Report.load(merged).usage.by_model == Report.load(p.report).usage.by_model
    assert sorted(Report.load(merged).run.models) == sorted(Report.load(p.report).run.models)


def test_the_run_budget_counts_priced_trials(project, capsys) -> None:
    # each priced trial costs (1000 + n) * 2.5e-6 + 100 * 1e-5 = about 0.0035; with concurrency 1
    # the cap of 0.005 is reached on the second priced trial, which only the price can tell
    agent = AGENT.replace("n % 3 == 0", "True")
    p = project(
        CASES, extra_agent=agent, target="models", config_extra=PRICING, run="max_cost_usd = 0.005"
    )
    assert main(["run", str(p.config), "--concurrency", "1"]) == 4
    report = Report.load(p.report)
    assert not report.complete
    assert report.counts.trials == 2
    assert (report.incomplete_reason or "").startswith("budget: max_cost_usd=0.005 reached")
