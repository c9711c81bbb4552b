"""The command line's grammar: every subcommand and flag, and the flags of each settings section
declared once (model field -> flag). argparse only converts types; the settings models check the
values, naming the flag the user wrote. Only this module and :mod:`fairwitness.cli` know argparse.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from fairwitness._version import __version__
from fairwitness.errors import EXIT_INVALID, UsageError

_Flags = dict[str, tuple[str, dict[str, Any]]]
"""A settings section's flags: model field -> (the flag, how argparse takes it). The flag's
``dest`` is the field; a bad value is refused by the model, naming the flag."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            sys.stderr.write(message)
        raise SystemExit(status if status == 0 else EXIT_INVALID)


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


_TEMPLATES_HELP = "a folder whose templates replace the built-in ones of the same name"


def _add_history_flags(parser: argparse.ArgumentParser, what: str) -> None:
    """``--history DIR`` and ``--history-runs N``: the default branch's earlier reports, for
    the trend of each gated metric."""
    parser.add_argument(
        "--history",
        metavar="DIR",
        help=f"earlier reports of the default branch (*.report.json, searched recursively): "
        f"{what} each gated metric's trend over them, the candidate last",
    )
    parser.add_argument(
        "--history-runs",
        type=_int,
        default=20,
        metavar="N",
        help="the trend shows the last N earlier runs (default 20)",
    )


def _flag(flag: str, help: str, **options: Any) -> tuple[str, dict[str, Any]]:
    return flag, {"help": help, **options}


_NUMBER = {"type": _number}
_WHOLE = {"type": _int}
_SWITCH = {"action": "store_true", "default": None}

RUN_FLAGS: _Flags = {
    "repeats": _flag("--repeats", "trials per case", metavar="K", **_WHOLE),
    "concurrency": _flag("--concurrency", "trials in flight", metavar="C", **_WHOLE),
    "timeout_s": _flag("--timeout", "seconds per trial", metavar="S", **_NUMBER),
    "retry": _flag(
        "--retry",
        "call a trial again up to N times after a timeout or a retryable error",
        metavar="N",
        **_WHOLE,
    ),
    "mode": _flag("--mode", "call mode", choices=["live", "record", "replay"]),
    "seed": _flag("--seed", "seed of the harness's randomness", metavar="N", **_WHOLE),
    "out": _flag("--out", "directory for reports and traces", metavar="DIR"),
}
"""``fairwitness run``'s flags for :class:`~fairwitness.config.RunConfig` (``[run]``)."""

GATE_FLAGS: _Flags = {
    "alpha": _flag(
        "--alpha",
        "family-wise error rate over the gated metrics, one-sided (default 0.05)",
        metavar="A",
        **_NUMBER,
    ),
    "test": _flag(
        "--test", "the paired tests' p-values: mid-p (default) or exact", choices=["midp", "exact"]
    ),
    "gated": _flag(
        "--metric",
        "gate this metric (repeatable; default: every pass/fail metric measured in both)",
        action="append",
        metavar="NAME",
    ),
    "floors": _flag(
        "--floor",
        "minimum for a metric, or NAME_max=VALUE: maximum for a lower-is-better one (repeatable)",
        action="append",
        metavar="NAME=VALUE",
    ),
    "max_unstable_rate": _flag(
        "--max-unstable-rate",
        "above this unstable share of the candidate: inconclusive (default: none; instability "
        "is shown, not a verdict)",
        metavar="R",
        **_NUMBER,
    ),
    "must_detect": _flag(
        "--must-detect",
        "the per-trial drop the run must be able to detect with 80%% power, e.g. 0.05; "
        "inconclusive (exit 3) when it cannot, saying how many cases or repeats would",
        metavar="D",
        **_NUMBER,
    ),
    "max_unpaired": _flag(
        "--max-unpaired",
        "baseline cases that may be missing from the candidate (default 0)",
        metavar="N",
        **_WHOLE,
    ),
    "fail_on_vacuous": _flag(
        "--fail-on-vacuous", "inconclusive when the candidate's probe set is blind", **_SWITCH
    ),
    "allow_model_change": _flag(
        "--allow-model-change", "compare reports made with different models", **_SWITCH
    ),
}
"""The flags of ``gate``, ``compare`` and ``render`` for :class:`~fairwitness.gate.GateSettings`
(``[gate]``)."""

RENDER_FLAGS: _Flags = {"templates": _flag("--templates", _TEMPLATES_HELP, metavar="DIR")}
"""The flags for :class:`~fairwitness.config.RenderConfig` (``[render]``)."""

CONFIG_ONLY: dict[str, tuple[str, ...]] = {
    "run": ("retry_backoff_s", "max_calls", "max_cost_usd", "cache_dir", "cache_key"),
    "gate": (),
    "render": (),
}
"""The fields of each section that are set in the config file only, never by a flag."""


def _add_flags(parser: argparse.ArgumentParser, flags: _Flags) -> None:
    for field, (flag, options) in flags.items():
        parser.add_argument(flag, dest=field, **options)


def given_flags(args: argparse.Namespace, flags: _Flags) -> dict[str, Any]:
    """The flags of ``flags`` given on the command line, by field."""
    values = {field: getattr(args, field) for field in flags}
    return {field: value for field, value in values.items() if value is not None}


def checked(model: type[Any], given: dict[str, Any], flags: _Flags) -> None:
    """Refuse a given value ``model`` refuses, naming its flag, before anything is read."""
    from fairwitness.config import settings_from

    settings_from(model, given, {field: flag for field, (flag, _) in flags.items()})


def _add_gate_flags(parser: argparse.ArgumentParser) -> None:
    """Gate flags; unset ones come from the config's [gate] section, then the defaults."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="read [gate] and [render] from this config (default: ./fairwitness.toml or "
        "[tool.fairwitness] in ./pyproject.toml, when present)",
    )
    _add_flags(parser, GATE_FLAGS)


def _add_output_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=["terminal", "comment", "summary", "json", "junit"],
        default="terminal",
        help="terminal text (default), the PR comment, the full markdown, JSON or JUnit XML",
    )
    parser.add_argument("--out", metavar="FILE", help="write to FILE instead of printing")
    _add_flags(parser, RENDER_FLAGS)


def gate_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of :func:`~fairwitness.gate.gate_settings` from the command line, each
    given value checked by the models of ``[gate]`` and ``[render]``."""
    from fairwitness.config import GateSettings, RenderConfig
    from fairwitness.gate import parse_floors

    given = given_flags(args, GATE_FLAGS)
    floors = given.pop("floors", None)
    checked(GateSettings, {**given, "floors": parse_floors(floors)}, GATE_FLAGS)
    checked(RenderConfig, given_flags(args, RENDER_FLAGS), RENDER_FLAGS)
    return {"config": args.config, "given": given, "floors": floors, "templates": args.templates}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fairwitness",
        description="Evaluate tool-calling agents honestly and gate pull requests on the result.",
        epilog="Exit codes: 0 ok, 1 regression, 2 must-pass failed, 3 inconclusive, 4 invalid.",
    )
    parser.add_argument("--version", action="version", version=f"fairwitness {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p_init = sub.add_parser(
        "init", help="write a working config, example cases, target and workflow"
    )
    p_init.add_argument("directory", nargs="?", default=".", metavar="DIR")

    p_run = sub.add_parser("run", help="run the configured suites and write reports")
    p_run.add_argument(
        "config", nargs="?", metavar="CONFIG", help="fairwitness.toml or pyproject.toml"
    )
    p_run.add_argument("--suite", metavar="S", help="run only this suite")
    _add_flags(p_run, RUN_FLAGS)
    p_run.add_argument("--force", action="store_true", help="replace existing reports")
    p_run.add_argument(
        "--target", metavar="MOD:ATTR", help="run this target instead of the config's"
    )
    p_run.add_argument(
        "--shard",
        metavar="I/N",
        help="run only shard I of N (cases dealt by a stable hash of their id); join the shard "
        "reports with `fairwitness merge`",
    )
    p_run.add_argument(
        "--tag",
        action="append",
        dest="tags",
        default=[],
        metavar="T",
        help="run only the cases with this tag (repeatable: a case with any of them runs)",
    )
    p_run.add_argument(
        "--exclude-tag",
        action="append",
        dest="exclude_tags",
        default=[],
        metavar="T",
        help="do not run the cases with this tag (repeatable; wins over --tag)",
    )

    p_diag = sub.add_parser(
        "diagnose", help="is the agent stable, is the probe set blind, do relations hold?"
    )
    p_diag.add_argument(
        "--agent",
        required=True,
        metavar="MOD:FUNC",
        help="module (dotted, or a path to a .py file) and callable",
    )
    p_diag.add_argument("--inputs", required=True, metavar="FILE", help="one probe per line")
    p_diag.add_argument(
        "--k",
        type=_int,
        default=4,
        metavar="K",
        help="draws per input for the fixed design (default 4)",
    )
    p_diag.add_argument(
        "--epsilon",
        type=_number,
        default=0.01,
        metavar="E",
        help="flip-rate tolerance (default 0.01)",
    )
    p_diag.add_argument("--layer", choices=["verdict", "tools", "text"], default="verdict")
    p_diag.add_argument("--design", choices=["sequential", "fixed"], default="sequential")
    p_diag.add_argument("--relations", metavar="MOD:FUNC", help="custom relations")
    p_diag.add_argument("--json", action="store_true", help="print the diagnosis as JSON")

    p_demo = sub.add_parser(
        "demo",
        help="run the bundled example's second release against its committed baseline and "
        "show the pull request comment (offline, a few seconds)",
    )
    p_demo.add_argument(
        "--out",
        default="fairwitness-demo",
        metavar="DIR",
        help="where to write (default ./fairwitness-demo)",
    )
    p_demo.add_argument("--strict", action="store_true", help="exit with the code CI would get")

    p_merge = sub.add_parser(
        "merge", help="join the shard reports of one `run --shard` run into one report"
    )
    p_merge.add_argument("shards", nargs="+", metavar="SHARD", help="every shard's report")
    p_merge.add_argument("--out", required=True, metavar="REPORT", help="the merged report")
    p_merge.add_argument("--force", action="store_true", help="replace an existing report")

    p_import = sub.add_parser(
        "import",
        help="score traces made elsewhere: OpenTelemetry GenAI spans (OTLP JSON), fairwitness "
        "trace JSONL, or promptfoo results",
    )
    p_import.add_argument("source", metavar="SOURCE", help="the file to import")
    p_import.add_argument(
        "--format", required=True, choices=["otlp", "jsonl", "promptfoo"], help="what SOURCE is"
    )
    p_import.add_argument("--dataset", metavar="PATH", help="the cases to pair and score against")
    p_import.add_argument(
        "--out", required=True, metavar="DIR", help="where the report and traces are written"
    )
    p_import.add_argument(
        "--pair-attribute",
        default="fairwitness.case_id",
        metavar="NAME",
        help="the span attribute that names the case (default fairwitness.case_id)",
    )
    p_import.add_argument("--suite", metavar="NAME", help="the suite name of the report")
    p_import.add_argument(
        "--config",
        metavar="PATH",
        help="score with this config's [scoring] options and [[scorers]] too",
    )
    p_import.add_argument(
        "--answer-attribute",
        action="append",
        dest="answer_attributes",
        metavar="NAME",
        help="a span attribute holding the answer (repeatable; first found wins)",
    )
    p_import.add_argument("--force", action="store_true", help="replace existing outputs")

    p_validate = sub.add_parser("validate", help="check datasets, configs, reports and traces")
    p_validate.add_argument("paths", nargs="+", metavar="PATH")
    p_validate.add_argument(
        "--suite",
        metavar="NAME",
        help="datasets are for this suite: a case whose 'suite' field names another is refused",
    )

    p_gate = sub.add_parser(
        "gate",
        help="compare a candidate report with a baseline: exit 0 pass, 1 regression, "
        "2 must-pass failed, 3 inconclusive, 4 invalid",
    )
    p_gate.add_argument("baseline", metavar="BASE", help="the baseline report")
    p_gate.add_argument("candidate", metavar="CAND", help="the candidate report")
    _add_gate_flags(p_gate)
    p_gate.add_argument("--json", action="store_true", help="print the decision as JSON")
    p_gate.add_argument(
        "--markdown", metavar="FILE", help="also write the PR comment (markdown) to FILE"
    )
    p_gate.add_argument(
        "--summary", metavar="FILE", help="also write the full markdown (job summary) to FILE"
    )
    p_gate.add_argument(
        "--junit", metavar="FILE", help="also write JUnit XML (one testcase per case) to FILE"
    )
    _add_flags(p_gate, RENDER_FLAGS)
    _add_history_flags(p_gate, "the comment and the summary show")

    p_compare = sub.add_parser(
        "compare",
        help="show how a candidate report compares with a baseline (exit 0, or 4 when the two "
        "cannot be compared)",
    )
    p_compare.add_argument("baseline", metavar="BASE", help="the baseline report")
    p_compare.add_argument("candidate", metavar="CAND", help="the candidate report")
    _add_output_flags(p_compare)
    _add_gate_flags(p_compare)

    p_render = sub.add_parser("render", help="show one report (optionally against a baseline)")
    p_render.add_argument("report", metavar="REPORT", help="the report to show")
    p_render.add_argument("--baseline", metavar="BASE", help="show it against this report")
    _add_output_flags(p_render)
    _add_gate_flags(p_render)

    p_view = sub.add_parser(
        "view",
        help="write one self-contained HTML page of a report (optionally against a baseline)",
    )
    p_view.add_argument("report", metavar="REPORT", help="the report to show")
    p_view.add_argument("--baseline", metavar="BASE", help="show it against this report")
    p_view.add_argument(
        "--traces",
        metavar="T",
        help="the report's trace file (default: the one the report names, when it exists)",
    )
    p_view.add_argument(
        "--cases", metavar="FILE", help="the dataset (JSONL), to show inputs and expectations"
    )
    p_view.add_argument("--out", required=True, metavar="FILE", help="the HTML file to write")
    _add_history_flags(p_view, "the page charts")
    _add_gate_flags(p_view)
    p_view.set_defaults(templates=None)  # the page has no templates to override

    p_judge = sub.add_parser("judge", help="LLM-judge tools: calibrate against human labels")
    judge_sub = p_judge.add_subparsers(dest="judge_command", parser_class=_Parser)
    p_cal = judge_sub.add_parser(
        "calibrate",
        help="Cohen's kappa of judge vs human labels, with its interval: exit 0 publishable, "
        "3 withheld, 4 bad input",
    )
    p_cal.add_argument(
        "labels",
        nargs="?",
        metavar="LABELS.jsonl",
        help="id, human, judge[, language] per line (default: [judge] labels in the config)",
    )
    p_cal.add_argument(
        "--threshold",
        type=_number,
        metavar="K",
        help="lowest acceptable lower bound of kappa's 95%% interval (default: [judge] "
        "threshold, else 0.6)",
    )
    p_cal.add_argument("--config", metavar="FILE", help="the config to read [judge] from")
    p_cal.add_argument(
        "--rubric",
        metavar="NAME",
        help="calibrate the [judge] model on the rubric scorer NAME of [[scorers]], against "
        "its labels",
    )
    p_cal.add_argument("--json", action="store_true", help="print the calibration as JSON")

    p_readme = sub.add_parser(
        "readme", help="regenerate a README's number blocks from committed reports"
    )
    p_readme.add_argument("file", metavar="FILE", help="the markdown file with fairwitness blocks")
    p_readme.add_argument(
        "--reports",
        required=True,
        metavar="GLOB",
        help="report files to read (quote it; ** matches folders); one report per suite",
    )
    readme_mode = p_readme.add_mutually_exclusive_group(required=True)
    readme_mode.add_argument(
        "--check", action="store_true", help="exit 1 with a diff when any block is stale"
    )
    readme_mode.add_argument("--write", action="store_true", help="rewrite the stale blocks")
    return parser


__all__ = [
    "CONFIG_ONLY",
    "GATE_FLAGS",
    "RENDER_FLAGS",
    "RUN_FLAGS",
    "build_parser",
    "checked",
    "gate_flags",
    "given_flags",
]
