"""From a run's trial summaries to a report: collapse repeats, aggregate metrics, count exclusions.

Per-case records are produced one case at a time, so a large run's report streams to disk without
building an object per outcome (:func:`save_run_report`).
"""

from __future__ import annotations

import dataclasses
import platform
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from fairwitness._version import __version__
from fairwitness.config import PricingConfig
from fairwitness.dataset import Dataset
from fairwitness.diagnostics import Diagnostics
from fairwitness.diagnostics.suite import suite_diagnostics
from fairwitness.judge import JudgeBlock
from fairwitness.report._usage import digest_usage
from fairwitness.report.io import render_report, write_report
from fairwitness.report.model import (
    CaseOutcomes,
    Counts,
    Metric,
    Report,
    RunInfo,
    ScoringInfo,
    ShardInfo,
    Stability,
)
from fairwitness.report.selection import Selection
from fairwitness.report.slices import tag_figures
from fairwitness.runner import RunResult, TrialResult
from fairwitness.scoring import (
    PATTERNS_VERSION,
    CaseScore,
    ScoreBoard,
    TrialScores,
    collapse,
    summarise,
)

Mode = Literal["live", "record", "replay"]


def _trial_order(t: TrialResult) -> tuple[bool, str, int]:
    return (t.variant != "base", t.variant, t.repeat)


class RunDigest:
    """Everything a report says about a run, computed once.

    ``judge``, when given, is stored as ``diagnostics.judge`` (see
    :mod:`fairwitness.judge`). ``pricing``, when given, prices the trials that
    reported tokens but no cost (see :mod:`fairwitness.report._usage`). ``selection``, when
    given, records the cases a run selected by tag; ``split_hash`` is then the whole dataset's."""

    def __init__(
        self,
        result: RunResult,
        dataset: Dataset,
        *,
        board: ScoreBoard | None = None,
        suite_version: str = "1",
        split: str = "test",
        target: str,
        seed: int,
        repeats: int,
        concurrency: int,
        timeout_s: float | None,
        mode: Mode,
        config_hash: str | None = None,
        git_sha: str | None = None,
        traces: str | None = None,
        judge: dict[str, Any] | None = None,
        whole: Dataset | None = None,
        shard: tuple[int, int] | None = None,
        positions: list[int] | None = None,
        pricing: PricingConfig | None = None,
        selection: Selection | None = None,
        split_hash: str | None = None,
    ) -> None:
        self.result = result
        self.selection = selection
        """The cases the run selected by tag (``dataset`` and ``whole`` hold only those)."""
        self.split_hash = split_hash
        """The whole dataset's split hash when the run selected some of its cases."""
        self.pricing = pricing
        self.judge = judge
        self.dataset = dataset
        self.whole = whole or dataset
        """The whole dataset when ``dataset`` is one shard of it (split hash, label skew)."""
        self.shard = shard
        self.positions = positions
        self.board = board
        self.names = board.names if board is not None else []
        self._collapse_cache: dict[tuple[int, ...], tuple[list[CaseScore], bool]] = {}
        self._outcome_cache: dict[int, tuple[dict[str, Any], ...]] = {}
        by_case: dict[str, list[TrialResult]] = {}
        for t in result.trials:
            by_case.setdefault(t.case_id, []).append(t)
        for trials in by_case.values():
            trials.sort(key=_trial_order)  # in place: a copy per case would double the lists
        self.trials = {case.id: by_case.get(case.id, []) for case in dataset}
        del by_case
        self.collapsed = {
            case_id: self._collapse(trials) for case_id, trials in self.trials.items()
        }
        self.header = self._header(
            suite_version=suite_version,
            split=split,
            run={
                "target": target,
                "seed": seed,
                "repeats": repeats,
                "concurrency": concurrency,
                "timeout_s": timeout_s,
                "mode": mode,
                "config_hash": config_hash,
                "git_sha": git_sha,
            },
            seed=seed,
            traces=traces,
        )

    # -- per case ----------------------------------------------------------------------------

    def _collapse(self, trials: list[TrialResult]) -> tuple[list[CaseScore], bool]:
        if self.board is None:
            return [], False
        base = [t for t in trials if t.variant == "base"]
        rows = tuple(t.scores for t in base if t.scores is not None)
        # Cases whose repeats scored identically collapse identically: compute each once.
        key = tuple(id(row) for row in rows)
        cached = self._collapse_cache.get(key)
        if cached is None:
            scores = [
                collapse(scorer, [(row.values[index], row.reasons[index]) for row in rows])
                for index, scorer in enumerate(self.board.scorers)
            ]
            cached = (scores, any(score.unstable for score in scores))
            self._collapse_cache[key] = cached
        scores, disagree = cached
        verdicts = {t.verdict for t in base if t.status == "ok"}
        return scores, disagree or len(verdicts) > 1

    def records(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """Per-case outcome records in dataset order (same keys and order as the models)."""
        for case in self.dataset:
            scores, unstable = self.collapsed[case.id]
            collapsed: dict[str, float | None] = {}
            excluded: dict[str, str] = {}
            for name, score in zip(self.names, scores, strict=True):
                if score.reason == "not_applicable":
                    continue
                collapsed[name] = score.value
                if score.value is None and score.reason is not None:
                    excluded[name] = score.reason
            yield (
                case.id,
                {
                    "must_pass": case.must_pass,
                    "tags": list(case.tags),
                    "faults": len(case.faults),
                    "repeats": [self._outcome(t) for t in self.trials[case.id]],
                    "scores": collapsed,
                    "excluded": excluded,
                    "unstable": unstable,
                },
            )

    def _score_dicts(self, row: TrialScores | None) -> tuple[dict[str, Any], ...]:
        """The scores, reasons, labels, unscored and evidence maps of one score row (shared by
        its trials)."""
        if row is None:
            return {}, {}, {}, {}, {}
        cached = self._outcome_cache.get(id(row))
        if cached is not None:
            return cached
        scores: dict[str, float | None] = {}
        reasons: dict[str, str] = {}
        labels: dict[str, str] = {}
        unscored: dict[str, str] = {}
        columns = zip(self.names, row.values, row.reasons, row.labels, row.errors, strict=True)
        for name, value, reason, label, error in columns:
            if reason == "not_applicable":
                continue
            scores[name] = value
            if value is None and reason is not None:
                reasons[name] = reason
            if label is not None:
                labels[name] = label
            if error is not None:
                unscored[name] = error
        evidence = {
            name: text
            for name, text in zip(self.names, row.evidence or [None] * len(self.names), strict=True)
            if text is not None
        }
        self._outcome_cache[id(row)] = (scores, reasons, labels, unscored, evidence)
        return scores, reasons, labels, unscored, evidence

    def _outcome(self, t: TrialResult) -> dict[str, Any]:
        scores, reasons, labels, unscored, evidence = self._score_dicts(t.scores)
        return {
            "repeat": t.repeat,
            "variant": t.variant,
            "status": t.status,
            "verdict": t.verdict,
            "latency_ms": t.latency_ms,
            "tool_calls": t.tool_calls,
            "faults_fired": t.faults_fired,
            "error": t.error,
            "replayed": t.replayed,
            "trace_line": t.trace_line,
            "scores": scores,
            "reasons": reasons,
            "labels": labels,
            "unscored": unscored,
            **({"evidence": evidence} if evidence else {}),
        }

    # -- whole run ---------------------------------------------------------------------------

    def _metrics(self, seed: int) -> dict[str, Metric]:
        if self.board is None:
            return {}
        # Metrics depend only on how many cases collapsed to each distinct result.
        groups = Counter(id(self.collapsed[case.id][0]) for case in self.dataset)
        lists = {
            id(self.collapsed[case.id][0]): self.collapsed[case.id][0] for case in self.dataset
        }
        tagged = Counter(
            (tuple(case.tags), id(self.collapsed[case.id][0])) for case in self.dataset if case.tags
        )
        metrics: dict[str, Metric] = {}
        for index, scorer in enumerate(self.board.scorers):
            summary = summarise(
                scorer, ((lists[key][index], count) for key, count in groups.items()), seed=seed
            )
            data = summary.as_dict()
            data["by_tag"] = tag_figures(
                scorer,
                ((tags, lists[key][index], count) for (tags, key), count in tagged.items()),
                seed=seed,
            )
            metrics[scorer.name] = Metric.model_validate(data)
        return metrics

    def _stability(self) -> Stability:
        measured = unstable = 0
        for case in self.dataset:
            finished = [t for t in self.trials[case.id] if t.variant == "base"]
            if len(finished) >= 2:
                measured += 1
                unstable += self.collapsed[case.id][1]
        if measured:
            return Stability(
                measured_cases=measured, unstable_cases=unstable, unstable_share=unstable / measured
            )
        reason = (
            "repeats = 1: disagreement between repeats cannot be seen"
            if self.result.planned <= len(self.dataset)
            else "no case finished two repeats"
        )
        return Stability(reason=reason)

    def _diagnostics(self) -> Diagnostics:
        diagnostics = suite_diagnostics(
            _BaseVerdicts(self.trials), [case.expect.route for case in self.whole]
        )
        if self.judge is None:
            return diagnostics
        return diagnostics.model_copy(update={"judge": JudgeBlock.model_validate(self.judge)})

    def _header(
        self, *, suite_version: str, split: str, run: dict[str, Any], seed: int, traces: str | None
    ) -> Report:
        result = self.result
        totals = {"ok": 0, "crashed": 0, "timed_out": 0, "cancelled": 0}
        replayed = fired = unscored = retried = retries = recovered = 0
        for t in result.trials:
            totals[t.status] += 1
            replayed += t.replayed
            fired += t.faults_fired
            unscored += t.scores is not None and t.scores.unscored
            if t.attempts > 1:
                retried += 1
                retries += t.attempts - 1
                recovered += t.status == "ok"
        finished = len(result.trials)
        pricing = self.pricing
        usage = digest_usage(
            result.trials,
            pricing.models if pricing is not None else {},
            pricing.version if pricing is not None else None,
        )
        metrics = self._metrics(seed)
        complete, reason = result.complete, result.incomplete_reason
        if complete:
            for name, metric in metrics.items():
                if metric.n == 0 and metric.excluded.get("unscored"):
                    complete = False
                    reason = f"metric '{name}' could not be scored on any case (its scorer raised)"
                    break
        return Report(
            complete=complete,
            incomplete_reason=reason,
            suite=result.suite,
            suite_version=suite_version,
            split=split,
            split_hash=self.split_hash or self.whole.split_hash(),
            run=RunInfo(
                tool_version=__version__,
                created_at=result.started_at,
                finished_at=result.finished_at,
                python=platform.python_version(),
                platform=f"{platform.system()}-{platform.machine()}",
                models=result.models,
                **run,
            ),
            counts=Counts(
                cases=len(self.dataset),
                planned=result.planned,
                trials=finished,
                not_run=result.planned - finished,
                ok=totals["ok"],
                crashed=totals["crashed"],
                timed_out=totals["timed_out"],
                unscored=unscored,
                replayed=replayed,
                live_calls=result.live_calls,
                abandoned_threads=result.abandoned_threads,
                faults_declared=result.faults_declared,
                faults_fired=fired,
                retried=retried,
                retries=retries,
                recovered=recovered,
            ),
            usage=usage.totals,
            metrics=metrics,
            diagnostics=self._diagnostics(),
            stability=self._stability(),
            scoring=ScoringInfo(
                patterns_version=PATTERNS_VERSION if self.board is not None else "",
                metrics=self.names,
                settings=dataclasses.asdict(self.board.settings) if self.board is not None else {},
                scorers=self.board.identities() if self.board is not None else {},
            ),
            traces=traces,
            shard=None
            if self.shard is None
            else ShardInfo(
                index=self.shard[0],
                total=self.shard[1],
                dataset_cases=len(self.whole),
                dataset_ids_hash=self.whole.ids_hash(),
                positions=list(self.positions or []),
                cost_usd_sum=usage.cost_usd_sum,
                cost_usd_sum_by_model=usage.sums_by_model,
            ),
            selection=self.selection,
            cases={},
        )


def build_report(result: RunResult, dataset: Dataset, **meta: Any) -> Report:
    """Build a whole report in memory from a run (see :func:`save_run_report` for large runs).

    ``meta`` holds :func:`report_header`'s keyword arguments.
    """
    digest = RunDigest(result, dataset, **meta)
    cases = {case_id: CaseOutcomes.model_validate(record) for case_id, record in digest.records()}
    return digest.header.model_copy(update={"cases": cases})


def report_header(result: RunResult, dataset: Dataset, **meta: Any) -> Report:
    """Everything in a report except the per-case outcomes (``cases`` is left empty)."""
    return RunDigest(result, dataset, **meta).header


def save_run_report(
    result: RunResult, dataset: Dataset, path: Path, *, force: bool = False, **meta: Any
) -> Report:
    """Stream a run's report to ``path`` without building per-case objects; returns the header.

    Writes exactly the bytes ``build_report(result, dataset, **meta).save(path)`` would.
    """
    digest = RunDigest(result, dataset, **meta)
    data = digest.header.json_data()
    write_report(path, render_report(data, digest.records()), force=force)
    return digest.header


class _BaseVerdicts(Mapping[str, list[str | None]]):
    """Each case's verdicts of its base repeats, in repeat order, made when asked for: a list per
    case held at once costs tens of MB on a 100,000-case run."""

    def __init__(self, trials: dict[str, list[TrialResult]]) -> None:
        self._trials = trials

    def __getitem__(self, case_id: str) -> list[str | None]:
        return [t.verdict for t in self._trials[case_id] if t.variant == "base"]

    def __iter__(self) -> Iterator[str]:
        return iter(self._trials)

    def __len__(self) -> int:
        return len(self._trials)
