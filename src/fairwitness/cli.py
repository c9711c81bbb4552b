"""The ``fairwitness`` command line. Only this module knows argparse.

Exit codes: 0 ok, 1 regression, 2 must-pass failed, 3 inconclusive, 4 invalid (usage errors too:
argparse's own exit code 2 would read as "must-pass failed").
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
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


def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _probability(text: str) -> float:
    value = _number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {text}")
    return value


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


def _given(args: argparse.Namespace, flags: _Flags) -> dict[str, Any]:
    """The flags of ``flags`` given on the command line, by field."""
    values = {field: getattr(args, field) for field in flags}
    return {field: value for field, value in values.items() if value is not None}


def _checked(model: type[Any], given: dict[str, Any], flags: _Flags) -> None:
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


def _gate_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of :func:`~fairwitness.gate.gate_settings` from the command line, each
    given value checked by the models of ``[gate]`` and ``[render]``."""
    from fairwitness.config import GateSettings, RenderConfig
    from fairwitness.gate import parse_floors

    given = _given(args, GATE_FLAGS)
    floors = given.pop("floors", None)
    _checked(GateSettings, {**given, "floors": parse_floors(floors)}, GATE_FLAGS)
    _checked(RenderConfig, _given(args, RENDER_FLAGS), RENDER_FLAGS)
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
        type=_positive_int,
        default=4,
        metavar="K",
        help="draws per input for the fixed design (default 4)",
    )
    p_diag.add_argument(
        "--epsilon",
        type=_probability,
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


def _init(args: argparse.Namespace) -> int:
    from fairwitness.commands.init import init

    return init(args.directory)


def _run(args: argparse.Namespace) -> int:
    from fairwitness.config import RunConfig

    _checked(RunConfig, _given(args, RUN_FLAGS), RUN_FLAGS)
    from fairwitness.commands.run import run

    return run(
        args.config,
        suite=args.suite,
        repeats=args.repeats,
        concurrency=args.concurrency,
        timeout=args.timeout_s,
        retry=args.retry,
        mode=args.mode,
        seed=args.seed,
        out=args.out,
        force=args.force,
        target=args.target,
        shard=args.shard,
    )


def _diagnose(args: argparse.Namespace) -> int:
    from fairwitness.commands.diagnose import run_diagnose

    return run_diagnose(
        args.agent,
        args.inputs,
        k=args.k,
        epsilon=args.epsilon,
        layer=args.layer,
        design=args.design,
        relations=args.relations,
        as_json=args.json,
    )


def _demo(args: argparse.Namespace) -> int:
    from fairwitness.commands.demo import demo

    return demo(args.out, strict=args.strict)


def _merge(args: argparse.Namespace) -> int:
    from fairwitness.commands.merge import merge

    return merge(args.shards, out=args.out, force=args.force)


def _import(args: argparse.Namespace) -> int:
    from fairwitness.commands.import_ import import_traces

    return import_traces(
        args.source,
        format=args.format,
        dataset=args.dataset,
        out=args.out,
        pair_attribute=args.pair_attribute,
        force=args.force,
        suite=args.suite,
        answer_attributes=args.answer_attributes,
    )


def _validate(args: argparse.Namespace) -> int:
    from fairwitness.commands.validate import validate

    return validate(args.paths, suite=args.suite)


def _gate(args: argparse.Namespace) -> int:
    flags = _gate_flags(args)
    from fairwitness.commands.gate import gate

    return gate(
        args.baseline,
        args.candidate,
        as_json=args.json,
        markdown=args.markdown,
        summary=args.summary,
        junit=args.junit,
        **flags,
    )


def _compare(args: argparse.Namespace) -> int:
    flags = _gate_flags(args)
    from fairwitness.commands.render import compare

    return compare(args.baseline, args.candidate, fmt=args.format, out=args.out, **flags)


def _render(args: argparse.Namespace) -> int:
    flags = _gate_flags(args)
    from fairwitness.commands.render import render

    return render(args.report, baseline=args.baseline, fmt=args.format, out=args.out, **flags)


def _judge(args: argparse.Namespace) -> int:
    from fairwitness.commands.judge import calibrate_from_config

    return calibrate_from_config(
        args.labels, threshold=args.threshold, config=args.config, as_json=args.json
    )


def _readme(args: argparse.Namespace) -> int:
    from fairwitness.commands.readme import readme

    return readme(args.file, reports=args.reports, check=args.check, write=args.write)


ROUTES: dict[str, Callable[[argparse.Namespace], int]] = {
    "init": _init,
    "run": _run,
    "diagnose": _diagnose,
    "demo": _demo,
    "merge": _merge,
    "import": _import,
    "validate": _validate,
    "gate": _gate,
    "compare": _compare,
    "render": _render,
    "judge": _judge,
    "readme": _readme,
}
"""Each subcommand of :func:`build_parser` and the function that calls its command."""


def _route(args: argparse.Namespace) -> Callable[[argparse.Namespace], int]:
    route = ROUTES.get(args.command) if args.command else None
    if route is None:
        raise UsageError(
            "fairwitness: a command is required (demo, init, run, merge, import, diagnose, "
            "validate, gate, compare, render, judge, readme); see --help"
        )
    if args.command == "judge" and args.judge_command is None:
        raise UsageError("fairwitness judge: a subcommand is required (calibrate)")
    return route


def _crash_log(exc: BaseException) -> str:
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    fd, path = tempfile.mkstemp(prefix=f"fairwitness-crash-{stamp}-", suffix=".log")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(f"fairwitness {__version__}, Python {sys.version}\n")
        handle.write("argv: " + " ".join(sys.argv) + "\n\n")
        handle.write("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (the console script passes it to ``sys.exit``)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        route = _route(args)
    except UsageError as exc:  # the parser's own words, already prefixed with the command
        sys.stderr.write(f"{exc}\n")
        return exc.exit_code
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else EXIT_INVALID
    try:
        return route(args)
    except KeyboardInterrupt:
        sys.stderr.write("fairwitness: interrupted; nothing was written\n")
        return EXIT_INVALID
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else EXIT_INVALID
    except Exception as exc:
        from fairwitness.errors import FairwitnessError

        if isinstance(exc, FairwitnessError):
            for problem in exc.problems[:50]:
                sys.stderr.write(f"fairwitness: error: {problem}\n")
            if len(exc.problems) > 50:
                sys.stderr.write(f"fairwitness: ... and {len(exc.problems) - 50} more\n")
            return exc.exit_code
        path = _crash_log(exc)
        sys.stderr.write(
            f"fairwitness: internal error: {type(exc).__name__}: {exc} (details in {path})\n"
        )
        return EXIT_INVALID


def entry() -> None:  # pragma: no cover - thin console-script shim
    sys.exit(main())
