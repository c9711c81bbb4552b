"""The ``fairwitness`` command line: parse (the grammar is :mod:`fairwitness.commands._parser`),
route each subcommand to its command function, and turn every error into one line and an exit code.

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

from fairwitness._gc import collector_for
from fairwitness._version import __version__
from fairwitness.commands._parser import RUN_FLAGS, build_parser, checked, gate_flags, given_flags
from fairwitness.errors import EXIT_INVALID, UsageError


def _init(args: argparse.Namespace) -> int:
    from fairwitness.commands.init import init

    return init(args.directory)


def _run(args: argparse.Namespace) -> int:
    from fairwitness.config import RunConfig

    overrides = given_flags(args, RUN_FLAGS)
    checked(RunConfig, overrides, RUN_FLAGS)
    out = overrides.pop("out", None)
    from fairwitness.commands.run import run

    return run(
        args.config,
        suite=args.suite,
        out=out,
        force=args.force,
        target=args.target,
        shard=args.shard,
        tags=args.tags,
        exclude_tags=args.exclude_tags,
        **overrides,
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
        config=args.config,
    )


def _validate(args: argparse.Namespace) -> int:
    from fairwitness.commands.validate import validate

    return validate(args.paths, suite=args.suite)


def _gate(args: argparse.Namespace) -> int:
    flags = gate_flags(args)
    from fairwitness.commands.gate import gate

    return gate(
        args.baseline,
        args.candidate,
        as_json=args.json,
        markdown=args.markdown,
        summary=args.summary,
        junit=args.junit,
        history=args.history,
        history_runs=args.history_runs,
        **flags,
    )


def _compare(args: argparse.Namespace) -> int:
    flags = gate_flags(args)
    from fairwitness.commands.render import compare

    return compare(args.baseline, args.candidate, fmt=args.format, out=args.out, **flags)


def _render(args: argparse.Namespace) -> int:
    flags = gate_flags(args)
    from fairwitness.commands.render import render

    return render(args.report, baseline=args.baseline, fmt=args.format, out=args.out, **flags)


def _view(args: argparse.Namespace) -> int:
    flags = gate_flags(args)
    from fairwitness.commands.view import view

    return view(
        args.report,
        out=args.out,
        baseline=args.baseline,
        traces=args.traces,
        cases=args.cases,
        history=args.history,
        history_runs=args.history_runs,
        **flags,
    )


def _judge(args: argparse.Namespace) -> int:
    from fairwitness.commands.judge import calibrate_from_config

    return calibrate_from_config(
        args.labels,
        threshold=args.threshold,
        config=args.config,
        as_json=args.json,
        rubric=args.rubric,
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
    "view": _view,
    "judge": _judge,
    "readme": _readme,
}
"""Each subcommand of :func:`build_parser` and the function that calls its command."""


def _route(args: argparse.Namespace) -> Callable[[argparse.Namespace], int]:
    route = ROUTES.get(args.command) if args.command else None
    if route is None:
        raise UsageError(
            "fairwitness: a command is required (demo, init, run, merge, import, diagnose, "
            "validate, gate, compare, render, view, judge, readme); see --help"
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
        with collector_for(args.command):
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
