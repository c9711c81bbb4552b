"""``fairwitness gate --history DIR`` and ``fairwitness view --history DIR`` end to end, with
reports built by the real pipeline: the trend shows the default branch's saved values, oldest
first, the candidate last."""

from __future__ import annotations

import base64
import gzip
import json
import re
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from builders import FAIL, PASS, build, edit, plan_of
from fairwitness.cli import main
from fairwitness.render import point_text, sparkline
from fairwitness.report import Report
from fairwitness.report.history import TrendPoint
from markdown_check import check

pytestmark = pytest.mark.integration

T0 = datetime(2024, 5, 1, tzinfo=timezone.utc)


def _report(fails: int, at: int, sha: str) -> Report:
    def stamp(data: dict[str, Any]) -> None:
        data["run"]["created_at"] = (T0 + timedelta(hours=at)).isoformat()
        data["run"]["git_sha"] = sha

    return edit(build(plan_of(12, lambda i: [FAIL if i < fails else PASS] * 2)), stamp)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("trend")
    history = root / "history"
    earlier = []
    # saved in an order unlike their times: the trend orders by when each run started
    for n, (fails, at) in enumerate(((2, 30), (0, 10), (1, 20), (3, 40))):
        report = _report(fails, at, f"{n}" * 40)
        report.save(history / f"artifact-{n}" / "s.report.json")
        earlier.append(report)
    _report(0, 50, "9" * 40).save(history / "elsewhere" / "s.report.json")
    base = _report(0, 60, "a" * 40)
    cand = _report(4, 70, "b" * 40)
    base.save(root / "base.report.json")
    cand.save(root / "cand.report.json")
    ordered = sorted(
        [*earlier, Report.load(history / "elsewhere" / "s.report.json")],
        key=lambda r: r.run.created_at,
    )
    return {"root": root, "history": history, "ordered": ordered, "cand": cand}


def test_gate_history_writes_the_trend_into_the_comment_and_summary(
    project: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    root = project["root"]
    comment, summary = root / "comment.md", root / "summary.md"
    code = main(
        [
            "gate",
            str(root / "base.report.json"),
            str(root / "cand.report.json"),
            "--history",
            str(project["history"]),
            "--history-runs",
            "3",
            "--markdown",
            str(comment),
            "--summary",
            str(summary),
        ]
    )
    assert code in (0, 1)
    kept = project["ordered"][-3:]
    values = [r.metrics["route"].value for r in kept] + [project["cand"].metrics["route"].value]
    texts = [point_text(TrendPoint(v, k=v * 12, n=12)) for v in values]
    row = f"| route | {sparkline(values)} | {' '.join(texts[:-1])} | {texts[-1]} |"
    for path in (comment, summary):
        text = path.read_text(encoding="utf-8")
        assert row in text
        assert "3 earlier run(s) from the reports in" in text
        assert "the last 3; 2 older left out" in text
        assert check(text).problems == []
    # the terminal shows the same trend, one line per gated metric
    out = capsys.readouterr().out
    line = f"  route {sparkline(values)} {' '.join(texts[:-1])} \u2192 {texts[-1]}"
    assert line in out.splitlines(), out
    assert "trend: Each gated metric over 3 earlier run(s)" in out


def _data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/octet-stream" id="fw-data">(.*?)</script>', html)
    assert found is not None
    return json.loads(gzip.decompress(base64.b64decode(found.group(1).replace("<\\/", "</"))))


def test_view_history_embeds_the_trend_of_the_saved_values(project: dict[str, Any]) -> None:
    root = project["root"]
    out = root / "report.html"
    code = main(
        [
            "view",
            str(root / "cand.report.json"),
            "--baseline",
            str(root / "base.report.json"),
            "--history",
            str(project["history"]),
            "--out",
            str(out),
        ]
    )
    assert code == 0
    trend = _data(out.read_text(encoding="utf-8"))["trend"]
    ordered = project["ordered"]
    assert [run["sha"] for run in trend["runs"]] == [r.run.git_sha for r in ordered] + ["b" * 40]
    assert [run["cand"] for run in trend["runs"]] == [False] * len(ordered) + [True]
    (route,) = trend["metrics"]
    assert route["name"] == "route"
    reports = [*ordered, project["cand"]]
    assert [p[0] for p in route["points"]] == [r.metrics["route"].value for r in reports]
    assert [p[1:3] for p in route["points"]] == [
        [r.metrics["route"].ci_low, r.metrics["route"].ci_high] for r in reports
    ]


def test_view_without_history_has_no_trend(project: dict[str, Any]) -> None:
    out = project["root"] / "plain.html"
    assert main(["view", str(project["root"] / "cand.report.json"), "--out", str(out)]) == 0
    assert _data(out.read_text(encoding="utf-8"))["trend"] is None
