"""Show a report, or a gate decision, to people: PR comment, job summary, terminal, JSON, JUnit;
and everything else the commands print for people (:func:`gate_text`, :func:`calibration_text`,
:func:`diagnosis_text`, :func:`suite_lines`), so a command only gathers, calls and prints.

Templates are package data (``templates/``) rendered in a jinja2 ``SandboxedEnvironment``; a
project may override any of them from its own folder (``templates`` in the config, or
``--templates``), with the package's as fallback. Templates receive one object, ``view``
(:class:`View`), whose numbers are already formatted by the reporting rules and whose strings from
agents or datasets are already escaped (:func:`md` for markdown, :func:`plain` for terminals).

Inside GitHub Actions the comment and the job summary name the run's artifact that holds the HTML
report, and each flipped case links there (:func:`artifact_link` builds that one kind of link from
checked parts only); elsewhere they read the same without links.

The PR comment stays under :data:`COMMENT_LIMIT` characters whatever the suite's size; when it
would not fit it is shortened deterministically and says where the full version is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fairwitness._lazy import lazy_exports

if TYPE_CHECKING:
    from fairwitness.render._calibration import calibration_text
    from fairwitness.render._diagnosis import diagnosis_text
    from fairwitness.render._escape import md, plain, xml_text
    from fairwitness.render._flips import FlipRow
    from fairwitness.render._gate import GateView, gate_text
    from fairwitness.render._lines import metric_lines, suite_lines
    from fairwitness.render._links import DEFAULT_ARTIFACT, ArtifactLink, artifact_link
    from fairwitness.render._render import (
        COMMENT_LIMIT,
        SUMMARY_LIMIT,
        Renderer,
        render_comment,
        render_json,
        render_junit,
        render_summary,
        render_terminal,
        view_dict,
    )
    from fairwitness.render._trend import TrendRow, point_text, sparkline
    from fairwitness.render._view import MetricRow, View, build_view

# the renderers (jinja2, the gate) load on first use: `fairwitness run` needs only its lines
_WHERE: dict[str, str] = {
    "ArtifactLink": "fairwitness.render._links",
    "COMMENT_LIMIT": "fairwitness.render._render",
    "DEFAULT_ARTIFACT": "fairwitness.render._links",
    "FlipRow": "fairwitness.render._flips",
    "GateView": "fairwitness.render._gate",
    "MetricRow": "fairwitness.render._view",
    "Renderer": "fairwitness.render._render",
    "SUMMARY_LIMIT": "fairwitness.render._render",
    "TrendRow": "fairwitness.render._trend",
    "View": "fairwitness.render._view",
    "artifact_link": "fairwitness.render._links",
    "build_view": "fairwitness.render._view",
    "calibration_text": "fairwitness.render._calibration",
    "diagnosis_text": "fairwitness.render._diagnosis",
    "gate_text": "fairwitness.render._gate",
    "md": "fairwitness.render._escape",
    "metric_lines": "fairwitness.render._lines",
    "plain": "fairwitness.render._escape",
    "point_text": "fairwitness.render._trend",
    "render_comment": "fairwitness.render._render",
    "render_json": "fairwitness.render._render",
    "render_junit": "fairwitness.render._render",
    "render_summary": "fairwitness.render._render",
    "render_terminal": "fairwitness.render._render",
    "sparkline": "fairwitness.render._trend",
    "suite_lines": "fairwitness.render._lines",
    "view_dict": "fairwitness.render._render",
    "xml_text": "fairwitness.render._escape",
}

__all__ = [
    "ArtifactLink",
    "COMMENT_LIMIT",
    "DEFAULT_ARTIFACT",
    "FlipRow",
    "GateView",
    "MetricRow",
    "Renderer",
    "SUMMARY_LIMIT",
    "TrendRow",
    "View",
    "artifact_link",
    "build_view",
    "calibration_text",
    "diagnosis_text",
    "gate_text",
    "md",
    "metric_lines",
    "plain",
    "point_text",
    "render_comment",
    "render_json",
    "render_junit",
    "render_summary",
    "render_terminal",
    "sparkline",
    "suite_lines",
    "view_dict",
    "xml_text",
]

__getattr__, __dir__ = lazy_exports(globals(), _WHERE)
