"""Render a view through the templates: PR comment, job summary, terminal text, JSON, JUnit XML."""

from __future__ import annotations

import dataclasses
import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from fairwitness.errors import ConfigError, Problem
from fairwitness.gate import Decision, is_bad
from fairwitness.judge import WITHHELD, withheld_metrics
from fairwitness.render._escape import md, plain, xml_text
from fairwitness.render._links import ArtifactLink
from fairwitness.render._view import View, build_view
from fairwitness.report import CaseOutcomes, Report
from fairwitness.report.history import History
from fairwitness.scoring import BUILTIN_SCORERS

COMMENT_LIMIT: Final = 65_000
"""Characters a PR comment body may use: GitHub refuses bodies over 65,536; the rest is room for
the hidden marker that finds the comment again."""
SUMMARY_LIMIT: Final = 1_000_000
"""Bytes a job summary may use (GitHub's step-summary cap is 1 MiB)."""
FULL_FLIP_CAP: Final = 1_000
COMMENT_FLIP_CAPS: Final = (25, 10, 3, 0)
"""The comment shows up to this many flipped cases, fewer when it would not fit."""
TEMPLATES: Final = ("comment.md.j2", "gate.txt.j2", "summary.md.j2", "terminal.txt.j2")


class Renderer:
    """Templates from the package, overridable one file at a time from ``template_dir``."""

    def __init__(self, template_dir: str | Path | None = None) -> None:
        loaders: list[jinja2.BaseLoader] = []
        if template_dir is not None:
            folder = Path(template_dir)
            if not folder.is_dir():
                raise ConfigError(
                    Problem("template directory not found", file=str(folder), field="templates")
                )
            loaders.append(jinja2.FileSystemLoader(str(folder)))
        loaders.append(jinja2.PackageLoader("fairwitness.render", "templates"))
        self.env = SandboxedEnvironment(
            loader=jinja2.ChoiceLoader(loaders),
            autoescape=False,
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            trim_blocks=False,
        )
        self.env.filters["md"] = md

    def render(self, name: str, view: object) -> str:
        """Template ``name`` rendered with ``view``, tidied; a template error is a config error
        naming the template file."""
        try:
            template = self.env.get_template(name)
            text = template.render(view=view)
        except jinja2.TemplateSyntaxError as exc:
            raise ConfigError(
                Problem(
                    f"template error: {exc.message}", file=exc.filename or name, line=exc.lineno
                )
            ) from None
        except jinja2.TemplateError as exc:
            raise ConfigError(Problem(f"template error: {exc}", file=name)) from None
        return _tidy(text)


def _tidy(text: str) -> str:
    """At most one blank line in a row, one newline at the end."""
    lines = text.splitlines()
    out: list[str] = []
    for line in lines:
        line = line.rstrip()
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def _cut(text: str, limit: int, note: str) -> str:
    """Cut at a line boundary so that text plus note fits ``limit`` characters."""
    room = limit - len(note) - 2
    head = text[: max(room, 0)]
    if "\n" in head:
        head = head[: head.rindex("\n")]
    closing = "\n\n</details>" if head.count("<details>") > head.count("</details>") else ""
    room -= len(closing)
    if len(head) > room and "\n" in head[:room]:
        head = head[: head[:room].rindex("\n")]
    return head.rstrip() + closing + "\n\n" + note + "\n"


def render_comment(
    candidate: Report,
    baseline: Report | None = None,
    decision: Decision | None = None,
    *,
    full_location: str | None = "the job summary of this run",
    limit: int = COMMENT_LIMIT,
    renderer: Renderer | None = None,
    context: Sequence[str] = (),
    artifact: ArtifactLink | None = None,
    history: History | None = None,
) -> str:
    """The PR comment. When it would not fit ``limit`` characters it is shortened
    deterministically: fewer flipped cases first, then the tail is cut at a line boundary; either
    way it says so and where the full version is. With ``artifact`` (a run's, from
    :func:`~fairwitness.render.artifact_link`) the comment names it and each flipped case links
    to it; with ``history`` (:func:`~fairwitness.report.history.load_history`) each gated
    metric gets its trend line."""
    renderer = renderer or Renderer()
    text = ""
    for step, cap in enumerate(COMMENT_FLIP_CAPS):
        view = build_view(
            candidate,
            baseline,
            decision,
            escape=md,
            flip_cap=cap,
            full_location=full_location,
            context=context,
            artifact=artifact,
            history=history,
        )
        view.shortened = step > 0
        text = renderer.render("comment.md.j2", view)
        if len(text) <= limit:
            return text
    where = f"; the full version is in {md(full_location)}" if full_location else ""
    return _cut(text, limit, f"Shortened to fit GitHub's comment limit{where}.")


def render_summary(
    candidate: Report,
    baseline: Report | None = None,
    decision: Decision | None = None,
    *,
    limit: int = SUMMARY_LIMIT,
    renderer: Renderer | None = None,
    context: Sequence[str] = (),
    artifact: ArtifactLink | None = None,
    history: History | None = None,
) -> str:
    """The job summary: the full version (every metric, power notes, up to 1,000 flipped cases),
    cut at a line boundary below ``limit`` bytes if it must be; ``artifact`` and ``history`` as
    for :func:`render_comment`."""
    renderer = renderer or Renderer()
    view = build_view(
        candidate,
        baseline,
        decision,
        escape=md,
        flip_cap=FULL_FLIP_CAP,
        context=context,
        artifact=artifact,
        history=history,
    )
    text = renderer.render("summary.md.j2", view)
    if len(text.encode("utf-8")) <= limit:
        return text
    view.shortened = True
    text = renderer.render("summary.md.j2", view)
    budget = limit
    while len(text.encode("utf-8")) > limit:
        budget = budget * 9 // 10
        text = _cut(text, budget, "Shortened to fit the job summary's size limit.")
    return text


def render_terminal(
    candidate: Report,
    baseline: Report | None = None,
    decision: Decision | None = None,
    *,
    flip_cap: int = 25,
    renderer: Renderer | None = None,
    context: Sequence[str] = (),
) -> str:
    """Plain text for a terminal or a CI log."""
    renderer = renderer or Renderer()
    view = build_view(
        candidate, baseline, decision, escape=plain, flip_cap=flip_cap, context=context
    )
    return renderer.render("terminal.txt.j2", view)


def view_dict(
    candidate: Report, baseline: Report | None = None, decision: Decision | None = None
) -> dict[str, Any]:
    """The decision (when there is one) and the candidate's headline figures as JSON-safe data;
    a judge-derived metric whose judge is not calibrated shows why instead of its figures."""
    withheld = withheld_metrics(candidate.diagnostics)
    data: dict[str, Any] = {
        "suite": candidate.suite,
        "complete": candidate.complete,
        "decision": None if decision is None else decision.json_data(),
        "metrics": {
            name: {"withheld": WITHHELD, "reason": withheld[name]}
            if name in withheld
            else metric.model_dump(mode="json")
            for name, metric in candidate.metrics.items()
        },
        "stability": candidate.stability.model_dump(mode="json"),
        "diagnostics": candidate.diagnostics.json_data(),
        "baseline": None
        if baseline is None
        else {"git_sha": baseline.run.git_sha, "created_at": baseline.run.created_at.isoformat()},
    }
    return data


def render_json(
    candidate: Report, baseline: Report | None = None, decision: Decision | None = None
) -> str:
    return json.dumps(view_dict(candidate, baseline, decision), indent=2, ensure_ascii=False) + "\n"


def _with_share(name: str, case: CaseOutcomes) -> str:
    """``route (1/4 repeats passed)`` for a metric of several measured repeats, else ``route``."""
    values = [
        value
        for outcome in case.repeats
        if outcome.variant == "base" and (value := outcome.scores.get(name)) is not None
    ]
    if len(values) < 2:
        return name
    ones = sum(value >= 0.5 for value in values)
    return f"{name} ({ones}/{len(values)} repeats scored 1)"


def _junit_properties(suite: ET.Element, report: Report, withheld: Mapping[str, str]) -> None:
    """The suite's figures as JUnit properties: each measured metric's headline value, its
    per-trial rate and collapsed value, and pass^k / pass@k for k = 2 .. the most repeats."""
    found: list[tuple[str, float]] = []
    for name, metric in report.metrics.items():
        if name in withheld or metric.n == 0 or metric.value is None:
            continue
        found.append((name, metric.value))
        if metric.per_trial is not None and metric.per_trial.value is not None:
            found.append((f"{name}.per_trial", metric.per_trial.value))
        if metric.collapsed is not None and metric.collapsed.value is not None:
            found.append((f"{name}.collapsed", metric.collapsed.value))
        for one in metric.pass_k[1:]:
            if one.pass_hat is not None and one.pass_at is not None:
                found.append((f"{name}.pass^{one.k}", one.pass_hat))
                found.append((f"{name}.pass@{one.k}", one.pass_at))
    if not found:
        return
    properties = ET.SubElement(suite, "properties")
    for key, value in found:
        ET.SubElement(properties, "property", name=xml_text(key), value=f"{value:.6g}")


def render_junit(
    candidate: Report, baseline: Report | None = None, decision: Decision | None = None
) -> str:
    """JUnit XML: one ``testcase`` per case (failed when any collapsed score is bad, with the
    metrics named; errored when every repeat crashed; skipped when nothing could be scored), and a
    ``fairwitness.gate`` testcase carrying the decision when there is one. Judge-derived metrics
    whose judge is not calibrated are left out of every case's result; a case with nothing else
    scored is skipped, saying so."""
    scorers = {s.name: s for s in BUILTIN_SCORERS}
    withheld = withheld_metrics(candidate.diagnostics)
    suite = ET.Element("testsuite", name=xml_text(candidate.suite))
    _junit_properties(suite, candidate, withheld)
    failures = errors = skipped = 0
    for case_id, case in candidate.cases.items():
        tc = ET.SubElement(
            suite, "testcase", classname=xml_text(candidate.suite), name=xml_text(case_id)
        )
        latencies = getattr(case, "latencies", None)  # a light case view keeps them apart
        if latencies is None:
            latencies = [o.latency_ms for o in case.repeats]
        seconds = sum(latencies) / 1000
        tc.set("time", f"{seconds:.3f}")
        shown = {name: v for name, v in case.scores.items() if name not in withheld}
        held = sorted(set(case.scores) & set(withheld))
        bad = [
            name
            for name, value in shown.items()
            if value is not None and name in scorers and is_bad(value, scorers[name])
        ]
        crashed = case.repeats and all(o.status != "ok" for o in case.repeats)
        if crashed:
            errors += 1
            first = case.repeats[0]
            el = ET.SubElement(tc, "error", message=xml_text(f"{first.status}: {first.error}", 500))
            el.text = xml_text(
                "\n".join(f"repeat {o.repeat}: {o.status} {o.error or ''}" for o in case.repeats)
            )
        elif bad:
            failures += 1
            verdicts = ", ".join(str(o.verdict) for o in case.repeats)
            message = (
                "failed: "
                + ", ".join(_with_share(name, case) for name in bad)
                + (" (must pass)" if case.must_pass else "")
            )
            el = ET.SubElement(tc, "failure", message=xml_text(message, 500))
            el.text = xml_text(f"verdicts by repeat: {verdicts}")
        elif not any(v is not None for v in shown.values()):
            skipped += 1
            reasons = ", ".join(
                [f"{k}: {v}" for k, v in case.excluded.items() if k not in withheld]
                + [f"{name}: {WITHHELD}" for name in held]
            )
            ET.SubElement(tc, "skipped", message=xml_text(reasons or "nothing scored", 500))
    tests = len(candidate.cases)
    if decision is not None:
        tests += 1
        tc = ET.SubElement(suite, "testcase", classname="fairwitness", name="fairwitness.gate")
        if decision.exit_code != 0:
            failures += 1
            el = ET.SubElement(tc, "failure", message=xml_text(decision.summary, 1000))
            el.text = xml_text("\n".join(decision.reasons))
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    suite.set("skipped", str(skipped))
    root = ET.Element("testsuites")
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def view_fields() -> list[str]:
    """The names a template may use on ``view`` (documented for template authors)."""
    return [f.name for f in dataclasses.fields(View)] + ["flips_hidden"]
