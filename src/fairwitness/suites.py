"""Run the configured suites: the library function under ``fairwitness run`` and the action.

:func:`run_suites` refuses everything that can be refused before anything is written or called
(datasets, outputs that exist, fault plans, the judge, the target), then runs each suite in turn
and saves its report and traces, and returns what happened per suite: the paths, the report and
whether it is complete. It prints nothing but the runner's progress; ``on_report`` hears of each
report as soon as it is saved.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from fairwitness.config import (
    LoadedConfig,
    PricingConfig,
    RunConfig,
    SuiteConfig,
    load_config,
    settings_from,
)
from fairwitness.dataset import Dataset
from fairwitness.errors import (
    EXIT_INVALID,
    EXIT_OK,
    DatasetError,
    OutputExistsError,
    Problem,
    UsageError,
)
from fairwitness.judge import (
    JUDGED_METRIC,
    RUBRIC_PROMPT_VERSION,
    Calibration,
    JudgedScorer,
    JudgeWork,
    ProviderJudge,
    RubricScorer,
    calibrate,
    check_judge_metrics,
    configured_judge,
    judge_block,
    judge_identity,
    load_labels,
    rubric_blocks,
    rubric_scorers,
)
from fairwitness.report import Report, Selection, git_sha, save_run_report
from fairwitness.report._usage import trial_cost
from fairwitness.runner import Progress, Runner, RunResult
from fairwitness.scoring.apply import unscored_lines
from fairwitness.scoring.configured import RubricEntry, configured_board, rubric_entries
from fairwitness.targets.loader import load_target
from fairwitness.tools import check_fault_plan, registered_tools
from fairwitness.trace.cache import TraceCache
from fairwitness.trace.model import Trace
from fairwitness.trace.sink import JsonlTraceSink


@dataclass(frozen=True)
class SuiteRun:
    """One suite's run: where its report and traces are, and the report."""

    suite: str
    report_path: Path
    traces_path: Path
    report: Report
    repeats: int
    warnings: tuple[str, ...] = ()
    """One line per user scorer that left trials unscored: how many, and the first reason."""

    @property
    def complete(self) -> bool:
        return self.report.complete


@dataclass
class SuitesRun:
    """Every suite that ran, in order, and the exit code of the whole (4 when any report is
    incomplete; an interrupted suite stops the suites after it)."""

    suites: list[SuiteRun] = field(default_factory=list)
    exit_code: int = EXIT_OK


@dataclass
class _Planned:
    suite: SuiteConfig
    dataset: Dataset
    report_path: Path
    traces_path: Path
    whole: Dataset
    positions: list[int] | None = None
    selection: Selection | None = None
    split_hash: str | None = None


def parse_shard(text: str | None) -> tuple[int, int] | None:
    """``I/N`` (1 <= I <= N) to a pair; a usage error otherwise."""
    if text is None or not text.strip():
        return None
    index, sep, total = text.strip().partition("/")
    try:
        pair = (int(index), int(total))
    except ValueError:
        pair = (0, 0)
    if not sep or not 1 <= pair[0] <= pair[1]:
        raise UsageError(f"--shard: expected I/N with 1 <= I <= N, e.g. 2/4; got {text!r}")
    return pair


def _settings(loaded: LoadedConfig, overrides: Mapping[str, Any]) -> RunConfig:
    """The config's ``[run]`` with ``overrides`` (by field, ``None`` for unset) over it, checked
    by the same model: a bad or unknown one is a usage error naming the field."""
    given = {key: value for key, value in overrides.items() if value is not None}
    return settings_from(RunConfig, {**loaded.config.run.model_dump(), **given}, {})


def _judge(
    loaded: LoadedConfig,
    names: Sequence[str],
    model: ProviderJudge | None = None,
    rubrics: tuple[Sequence[RubricEntry], Sequence[RubricScorer]] = ((), ()),
) -> dict[str, Any] | None:
    """The ``diagnostics.judge`` block every report of this run gets, or ``None`` when the config
    names no judge, no calibration labels and no judge-derived metrics. A bad label file or an
    unknown metric is refused here, before any call.

    With a configured judge (``model``), its metric is judge-derived and the calibration labels
    are labelled by that judge (stored ``judge`` labels are set aside), so the calibration shown
    next to the metric is the calibration of the model that scored it. Each rubric's labels
    are checked, then labelled by that judge, first (:func:`~fairwitness.judge.rubric_blocks`)."""
    section = loaded.config.judge
    if section.labels is None and not section.metrics and model is None:
        return None
    check_judge_metrics(loaded, names)
    blocks = rubric_blocks(loaded, *rubrics)
    calibration: Calibration | None = None
    if section.labels is not None:
        path = loaded.resolve(section.labels)
        try:
            records = load_labels(
                path, judge=model, concurrency=section.concurrency, relabel=model is not None
            )
            calibration = calibrate(records)
        except ValueError as exc:
            raise DatasetError(Problem(str(exc), file=str(path))) from None
    metrics = list(section.metrics)
    if model is not None:
        metrics.append(JUDGED_METRIC)
    return judge_block(
        calibration,
        labels=section.labels,
        threshold=section.threshold,
        metrics=list(dict.fromkeys(metrics)),
        judge=judge_identity(model) if model is not None else None,
        rubrics=blocks,
    )


def _pricer(pricing: PricingConfig) -> Callable[[Trace], float | None] | None:
    """The cost of a trial that reported none, priced as its report will price it."""
    if not pricing.models:
        return None

    def price(trace: Trace) -> float | None:
        models = trace.models
        listed = pricing.models.get(models[0]) if len(models) == 1 else None
        usage = trace.usage
        return trial_cost(None, usage.input_tokens, usage.output_tokens, listed)[0]

    return price


async def _run_one(
    runner: Runner, dataset: Dataset, sink: JsonlTraceSink, judged: JudgedScorer | None
) -> RunResult:
    loop = asyncio.get_running_loop()
    installed: list[int] = []

    def on_signal(signum: int) -> None:
        name = signal.Signals(signum).name
        runner.request_stop(f"interrupted by {name}")
        loop.remove_signal_handler(signum)  # a second signal takes the default action

    for signum in (int(signal.SIGINT), int(signal.SIGTERM)):
        try:
            loop.add_signal_handler(signum, on_signal, signum)
            installed.append(signum)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread, or a platform without signal support in asyncio
    try:
        return await runner.run(dataset, sink)
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)
        if judged is not None:
            await judged.aclose()


def run_suites(
    config: str | None = None,
    *,
    suite: str | None = None,
    out: str | None = None,
    force: bool = False,
    target: str | None = None,
    shard: str | None = None,
    tags: Sequence[str] = (),
    exclude_tags: Sequence[str] = (),
    progress: TextIO | None = None,
    on_report: Callable[[SuiteRun], None] | None = None,
    **overrides: Any,
) -> SuitesRun:
    """Run every configured suite (or ``suite``) and save one report and trace file per suite.

    ``target`` replaces the config's target (``module:attr``), e.g. to run a second version.
    ``shard`` (``I/N``) runs only the cases :func:`~fairwitness.dataset.assign_shards` gives
    shard I, into ``SUITE.shard-I-of-N.report.json``; ``fairwitness merge`` joins the shards.
    ``tags`` (a case with any of them) and ``exclude_tags`` (a case with none of them) select the
    cases before anything runs or is sharded (:meth:`~fairwitness.dataset.Dataset.select`); the
    report records the selection (``selection``), and its split hash stays the whole dataset's.
    ``progress`` receives the runner's progress line (none when ``None``). Any other keyword is a
    field of ``[run]`` (:class:`~fairwitness.config.RunConfig`: ``repeats``, ``concurrency``,
    ``timeout_s``, ``retry``, ``mode``, ``seed``, ...) that replaces the config's value; ``None``
    leaves it. ``out`` is a folder relative to the working directory, not to the config."""
    part = parse_shard(shard)
    loaded = load_config(config)
    settings = _settings(loaded, overrides)
    suites = [loaded.suite(suite)] if suite else list(loaded.config.suites)
    out_dir = Path(out) if out is not None else loaded.resolve(settings.out)

    # Everything that can be refused is refused before anything is written or called.
    planned: list[_Planned] = []
    for s in suites:
        whole = Dataset.load(loaded.resolve(s.path), suite=s.name)
        selection = split_hash = None
        if tags or exclude_tags:
            everything, whole = whole, whole.select(tags, exclude_tags)
            split_hash = everything.split_hash()
            selection = Selection(
                tags=sorted(set(tags)),
                exclude_tags=sorted(set(exclude_tags)),
                cases=len(whole),
                dataset_cases=len(everything),
            )
        dataset, positions = whole.shard(*part) if part else (whole, None)
        stem = f"{s.name}.shard-{part[0]}-of-{part[1]}" if part else s.name
        report_path = out_dir / f"{stem}.report.json"
        traces_path = out_dir / f"{stem}.traces.jsonl"
        if not force:
            for path in (report_path, traces_path):
                if path.exists():
                    raise OutputExistsError(
                        Problem("output already exists; pass --force to replace it", file=str(path))
                    )
        planned.append(
            _Planned(s, dataset, report_path, traces_path, whole, positions, selection, split_hash)
        )
    entries = rubric_entries(loaded)
    model = configured_judge(
        loaded, run_mode=settings.mode, cache_dir=loaded.resolve(settings.cache_dir)
    )
    judged = (
        JudgedScorer(model, concurrency=loaded.config.judge.concurrency)
        if model is not None
        else None
    )
    rubrics = (
        rubric_scorers(
            entries,
            model.for_prompt(RUBRIC_PROMPT_VERSION),
            concurrency=loaded.config.judge.concurrency,
        )
        if model is not None
        else []
    )
    board = configured_board(loaded, reserved=(JUDGED_METRIC,), judged=judged, rubrics=rubrics)
    judge = _judge(loaded, board.names, model, (entries, rubrics))
    work = JudgeWork(judged, model, rubrics) if judged is not None and model is not None else None
    entry = target or loaded.config.target
    agent = load_target(
        entry,
        search_path=[loaded.resolve(p) for p in loaded.config.python_path],
        takes=loaded.config.target_takes,
        where=str(loaded.source),
    )
    tools = registered_tools()
    runners: list[Runner] = []
    for item in planned:
        check_fault_plan(
            (
                (case.id, *item.dataset.location(case.id), list(case.faults))
                for case in item.dataset
                if case.faults
            ),
            tools,
        )
        cache = (
            TraceCache(loaded.resolve(settings.cache_dir), item.suite.name)
            if settings.mode != "live"
            else None
        )
        runner = Runner(
            agent,
            suite=item.suite.name,
            repeats=settings.repeats,
            concurrency=settings.concurrency,
            timeout_s=settings.timeout_s,
            max_calls=settings.max_calls,
            max_cost_usd=settings.max_cost_usd,
            seed=settings.seed,
            mode=settings.mode,
            cache=cache,
            cache_salt=settings.cache_key,
            progress=Progress(progress) if progress is not None else None,
            scoring=board.ascore if board.awaits else board,
            price=_pricer(loaded.config.pricing),
            retry=settings.retry,
            retry_backoff_s=settings.retry_backoff_s,
        )
        runner.check_replayable(item.dataset)
        runners.append(runner)

    sha = git_sha(loaded.base)
    done = SuitesRun()
    for item, runner in zip(planned, runners, strict=True):
        sink = JsonlTraceSink(item.traces_path)
        if work is not None:
            work.start()
        try:
            with board:
                result = asyncio.run(_run_one(runner, item.dataset, sink, judged))
        except BaseException:
            sink.discard()
            raise
        sink.commit()
        block = judge
        if block is not None and work is not None:
            block = {**block, "usage": work.usage()}
        report = save_run_report(
            result,
            item.dataset,
            item.report_path,
            force=True,
            board=board,
            suite_version=item.suite.suite_version,
            split=item.suite.split,
            target=entry,
            seed=settings.seed,
            repeats=settings.repeats,
            concurrency=settings.concurrency,
            timeout_s=settings.timeout_s,
            mode=settings.mode,
            config_hash=loaded.hash(),
            git_sha=sha,
            traces=item.traces_path.name,
            judge=block,
            whole=item.whole,
            shard=part,
            positions=item.positions,
            pricing=loaded.config.pricing,
            selection=item.selection,
            split_hash=item.split_hash,
        )
        ran = SuiteRun(
            item.suite.name,
            item.report_path,
            item.traces_path,
            report,
            settings.repeats,
            tuple(unscored_lines(board, (t.scores for t in result.trials))),
        )
        done.suites.append(ran)
        if on_report is not None:
            on_report(ran)
        if not report.complete:
            done.exit_code = EXIT_INVALID
            if report.incomplete_reason and report.incomplete_reason.startswith("interrupted"):
                break
    return done
