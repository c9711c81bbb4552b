"""Rubric metrics: the ``[judge]`` model's pass/fail verdict on each answer against a rubric of
``[[scorers]]`` (``kind = "rubric"``), believed only once calibrated against the rubric's labels.

A rubric metric is a capability metric (pass is good): the judge reads the rubric, the case's
input, the trial's tool outcomes and its answer (:func:`~fairwitness.judge.build_rubric_prompt`)
and says ``pass`` (1) or ``fail`` (0). A trial that gave no answer (it crashed or timed out) fails
without a call; an unparseable reply leaves the trial out as ``unreadable``; a call that fails
leaves it ``unscored`` with the error. A judge that cannot go on (its call or cost cap, a replay
that was never recorded) stops the run, marked incomplete, as the misreport judge does.

Before any trial runs, every rubric's label file is read and checked against the suites' cases,
then the judge labels each labelled answer (through the same cache and caps as the run's calls)
and :func:`~fairwitness.judge.calibrate` measures its agreement with the human. The report stores
that calibration under ``diagnostics.judge.rubrics`` with the rubric's hash and the judge model;
the metric is withheld unless kappa's lower bound reaches the rubric's threshold. Its identity in
``scoring.scorers`` is the prompt version and judge model (``version``) and the rubric's hash
(``source_hash``), so the gate does not compare a rubric metric scored by another rubric or judge.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from fairwitness.config import LoadedConfig
from fairwitness.dataset import Case, Dataset
from fairwitness.errors import CacheMissError, ConfigError, FairwitnessError, Problem
from fairwitness.judge._calibration import Calibration, CalibrationRecord, calibrate
from fairwitness.judge._prompt import UNPARSEABLE, JudgeModel, close_judge, outcomes_from_calls
from fairwitness.judge._providers import AnthropicJudge, JudgeBudgetExceeded, OpenAIJudge
from fairwitness.judge._rubric import (
    RUBRIC_PROMPT_VERSION,
    RubricRequest,
    build_rubric_prompt,
    check_rubric_judge,
    parse_verdict,
    rubric_hash,
    run_rubric,
)
from fairwitness.judge._rubric_labels import RubricLabel, read_rubric_labels
from fairwitness.judge._scorer import JudgeStopped
from fairwitness.scoring.base import Scorer, ScoringSettings, TrialScore
from fairwitness.scoring.configured import RubricEntry
from fairwitness.trace.model import Trace


def _unavailable(trace: Trace, case: Case, settings: ScoringSettings) -> TrialScore:
    raise RuntimeError("a rubric metric is scored by RubricScorer.score, not synchronously")


class _Gate:
    """One semaphore per event loop, shared by every rubric of a run: ``[judge] concurrency``
    bounds their calls together."""

    def __init__(self, concurrency: int) -> None:
        self.concurrency = concurrency
        self._gate: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._gate is None or self._loop is not loop:
            self._gate, self._loop = asyncio.Semaphore(self.concurrency), loop
        return self._gate


def judge_of(judge: JudgeModel) -> dict[str, str]:
    """Provider, model and prompt version of a rubric judge, as a report records them."""
    base = getattr(judge, "base", None)
    if isinstance(base, (OpenAIJudge, AnthropicJudge)):
        provider, model = base.provider, base.model
    else:
        provider, _, model = judge.name.rpartition(":")
    return {"provider": provider, "model": model, "prompt_version": judge.prompt_version}


class RubricScorer:
    """Scores the rubric metric ``name`` with ``judge`` (running :data:`RUBRIC_PROMPT_VERSION`)."""

    def __init__(
        self, name: str, rubric: str, judge: JudgeModel, *, gate: _Gate | None = None
    ) -> None:
        check_rubric_judge(judge)
        self.name, self.rubric, self.judge = name, rubric, judge
        self.rubric_hash = rubric_hash(rubric)
        """``sha256:`` and the rubric text's SHA-256."""
        self.identity = judge_of(judge)
        """The judge's provider, model and prompt version."""
        self._scorer = Scorer(
            name,
            "capability",
            True,
            f"the answer meets the rubric '{name}' ({self.rubric_hash[7:19]}), as judged by "
            f"{judge.name} (prompt {RUBRIC_PROMPT_VERSION})",
            _unavailable,
        )
        self.asked = 0
        """Prompts sent to the judge (live or replayed) by the run's trials."""
        self._gate = gate or _Gate(4)

    @property
    def scorer(self) -> Scorer:
        """The metric."""
        return self._scorer

    def identity_data(self) -> dict[str, str]:
        """The metric's identity in ``scoring.scorers``: kind, the prompt version and judge
        model as ``version``, the first 12 hex digits of the rubric's hash as ``source_hash``."""
        model = f"{self.identity['provider']}:{self.identity['model']}"
        return {
            "kind": "capability",
            "version": f"{RUBRIC_PROMPT_VERSION} {model}",
            "source_hash": self.rubric_hash[7:19],
        }

    def request(self, trace: Trace, case: Case) -> RubricRequest:
        """What the judge is shown for a trial."""
        return RubricRequest(
            self.rubric, case.text, trace.answer or "", outcomes_from_calls(trace.tool_calls)
        )

    async def score(self, trace: Trace, case: Case) -> TrialScore:
        """The trial's score; raises :class:`JudgeStopped` when the judge cannot go on."""
        if trace.status != "ok" or trace.answer is None:
            return TrialScore(0.0, None, "no_answer")
        prompt = build_rubric_prompt(self.request(trace, case))
        try:
            async with self._gate.semaphore():
                self.asked += 1
                reply = await self.judge.judge(prompt)
        except (CacheMissError, ConfigError, JudgeBudgetExceeded) as exc:
            raise JudgeStopped(str(exc)) from exc
        except Exception as exc:
            return TrialScore(None, "unscored", None, f"judge: {type(exc).__name__}: {exc}")
        if not isinstance(reply, str):
            return TrialScore(
                None, "unscored", None, f"judge returned {type(reply).__name__}, not str"
            )
        verdict = parse_verdict(reply)
        if verdict == UNPARSEABLE:
            return TrialScore.missing("unreadable", verdict)
        return TrialScore(1.0 if verdict == "pass" else 0.0, None, verdict)

    async def aclose(self) -> None:
        """Release what the judge holds for the running event loop."""
        await close_judge(self.judge)


def rubric_scorers(
    entries: Sequence[RubricEntry], judge: JudgeModel, *, concurrency: int = 4
) -> list[RubricScorer]:
    """One scorer per rubric entry, in order, sharing ``judge`` (running the rubric prompt) and
    one bound of ``concurrency`` calls in flight."""
    gate = _Gate(concurrency)
    return [RubricScorer(entry.name, entry.text, judge, gate=gate) for entry in entries]


def suite_cases(loaded: LoadedConfig) -> dict[str, str]:
    """Each case id of the configured suites, with its input (the first suite's, for an id
    that several suites have)."""
    cases: dict[str, str] = {}
    for suite in loaded.config.suites:
        for case in Dataset.load(loaded.resolve(suite.path), suite=suite.name):
            cases.setdefault(case.id, case.text)
    return cases


def read_all_labels(
    entries: Sequence[RubricEntry], cases: Mapping[str, str]
) -> list[list[RubricLabel]]:
    """Every rubric's labelled answers, each file checked against ``cases`` before any call."""
    return [read_rubric_labels(entry.labels, cases) for entry in entries]


def calibrate_rubric(
    scorer: RubricScorer, labels: Sequence[RubricLabel], *, concurrency: int = 4
) -> Calibration:
    """The judge's verdict on each labelled answer, against the human's (starts its own event
    loop; the calls go through the judge's cache and caps). A call that fails (after the
    provider's retries) raises :class:`~fairwitness.errors.FairwitnessError` naming the rubric:
    a calibration is never made of the answers that happened to get a reply."""
    requests = [label.request(scorer.rubric) for label in labels]
    try:
        verdicts = asyncio.run(run_rubric(scorer.judge, requests, concurrency))
    except FairwitnessError:
        raise
    except Exception as exc:
        raise FairwitnessError(
            Problem(
                f"rubric '{scorer.name}': the judge {scorer.judge.name} could not label the "
                f"calibration answers: {type(exc).__name__}: {exc}"
            )
        ) from exc
    return calibrate(
        CalibrationRecord(label.id, label.human, verdict, label.language, scorer.name)
        for label, verdict in zip(labels, verdicts, strict=True)
    )


def rubric_block(
    scorer: RubricScorer, calibration: Calibration, *, labels: str, threshold: float
) -> dict[str, Any]:
    """The rubric's entry of ``diagnostics.judge.rubrics``: its hash, its judge, and whether
    the calibration on ``labels`` (as the config names them) reaches ``threshold``."""
    decision = calibration.publishable(threshold)
    kappa = calibration.kappa
    return {
        "rubric_hash": scorer.rubric_hash,
        "judge": dict(scorer.identity),
        "labels": labels,
        "n": calibration.n,
        "kappa": kappa.value,
        "ci_low": kappa.ci_low,
        "ci_high": kappa.ci_high,
        "threshold": decision.threshold,
        "publishable": decision.publishable,
        "reason": decision.reason,
        "notes": list(decision.notes),
    }


__all__ = [
    "RubricScorer",
    "calibrate_rubric",
    "judge_of",
    "read_all_labels",
    "rubric_block",
    "rubric_blocks",
    "rubric_scorers",
    "suite_cases",
]


def rubric_blocks(
    loaded: LoadedConfig, entries: Sequence[RubricEntry], scorers: Sequence[RubricScorer]
) -> dict[str, dict[str, Any]]:
    """Each rubric's block of ``diagnostics.judge.rubrics``, by metric name: every label file is
    read and checked against the suites' cases first (a bad one raises a located
    :class:`~fairwitness.errors.DatasetError` before any call), then the judge labels each."""
    if not entries:
        return {}
    labelled = read_all_labels(entries, suite_cases(loaded))
    concurrency = loaded.config.judge.concurrency
    blocks: dict[str, dict[str, Any]] = {}
    for entry, scorer, labels in zip(entries, scorers, labelled, strict=True):
        calibration = calibrate_rubric(scorer, labels, concurrency=concurrency)
        blocks[entry.name] = rubric_block(
            scorer, calibration, labels=entry.labels_name, threshold=entry.threshold
        )
    return blocks
