"""Run every scorer on one trace; a scorer that raises (or, a user's, hangs or returns no verdict) is
recorded as unscored, not as a fail."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

from fairwitness.dataset import Case
from fairwitness.scoring._limits import TIMED_OUT, CallLimit
from fairwitness.scoring.base import Reason, Scorer, ScorerStopped, ScoringSettings, TrialScore
from fairwitness.scoring.custom import ScorerSpec, as_scorer, raised, timed_out, to_trial_score
from fairwitness.scoring.scorers import BUILTIN_SCORERS, MISREPORT_METRIC
from fairwitness.trace.model import Trace

if TYPE_CHECKING:
    from fairwitness.judge import JudgedScorer

DEFAULT_SCORER_TIMEOUT_S: Final = 10.0
"""``[scoring] scorer_timeout_s`` unless set: the time one call of a user's scorer may take."""


class AwaitedScorer(Protocol):
    """A metric scored by awaiting a model (a rubric's judge): ``scorer`` names it, ``score``
    gives a trial's score and raises :class:`~fairwitness.scoring.base.ScorerStopped` when the
    model cannot answer any more, and ``identity_data`` is what a report records of it
    (``scoring.scorers``)."""

    @property
    def scorer(self) -> Scorer:
        """The metric."""

    def identity_data(self) -> dict[str, str]:
        """Kind, version and source hash, as ``scoring.scorers`` records them."""

    async def score(self, trace: Trace, case: Case) -> TrialScore:
        """The trial's score."""


@dataclass(frozen=True, slots=True)
class TrialScores:
    """Scores of one trial, aligned with the scorer list (tuples keep 100,000s of trials small)."""

    values: tuple[float | None, ...]
    reasons: tuple[Reason | None, ...]
    labels: tuple[str | None, ...]
    errors: tuple[str | None, ...]
    unscored: bool = False
    """Whether any scorer raised on this trial."""
    evidence: tuple[str | None, ...] = ()
    """What decided each label (aligned with the scorer list), or ``()`` when nothing did: only
    a misreport keeps its deciding phrase."""


class ScoringStopped(Exception):
    """Scoring cannot go on (the judge stopped); ``scores`` are the trial's scores nonetheless,
    with the judge's metric unscored."""

    def __init__(self, reason: str, scores: TrialScores) -> None:
        super().__init__(reason)
        self.scores = scores


class ScoreBoard:
    """The scorers of a run, applied to each trace as it arrives.

    ``user`` are the user's scorers (``[[scorers]]``, :mod:`fairwitness.scoring.custom`), scored
    after the built-in ones, each call within ``scorer_timeout_s``: a sync scorer inline under an
    interval timer while the board is entered (``with board:``; on a thread per call otherwise),
    an async one under :func:`asyncio.wait_for`. With ``judged`` the board also scores the
    judge's metric (last in :attr:`scorers`), and with ``rubrics`` the rubric metrics (after the
    user's, before the judge's). A board with a judge, a rubric or an async scorer
    (:attr:`awaits`) scores with :meth:`ascore` instead of being called.
    """

    def __init__(
        self,
        scorers: tuple[Scorer, ...] = BUILTIN_SCORERS,
        settings: ScoringSettings | None = None,
        judged: JudgedScorer | None = None,
        *,
        user: Sequence[ScorerSpec] = (),
        rubrics: Sequence[AwaitedScorer] = (),
        scorer_timeout_s: float = DEFAULT_SCORER_TIMEOUT_S,
    ) -> None:
        self.judged = judged
        self._rules = scorers
        self._misreport = next(
            (i for i, scorer in enumerate(scorers) if scorer.name == MISREPORT_METRIC), None
        )
        """Where the labeller's ``misreport_as_empty`` is among the rules: the judge reads only
        the answers it left unreadable."""
        self.user = tuple(user)
        self.rubrics = tuple(rubrics)
        scorers = (*scorers, *(as_scorer(spec) for spec in self.user))
        scorers = (*scorers, *(rubric.scorer for rubric in self.rubrics))
        if judged is not None:
            scorers = (*scorers, judged.scorer)
        names = [s.name for s in scorers]
        if len(set(names)) != len(names):
            raise ValueError(
                f"duplicate scorer names: {sorted(n for n in names if names.count(n) > 1)}"
            )
        self.scorers = scorers
        self.settings = settings or ScoringSettings()
        self.scorer_timeout_s = scorer_timeout_s
        self._limit = CallLimit(scorer_timeout_s)
        self._sync = tuple(spec for spec in self.user if not spec.is_async)
        self._sync_fns = tuple(spec.fn for spec in self._sync)
        self._async = tuple(spec for spec in self.user if spec.is_async)
        # where each user scorer's score goes in the row: the sync ones', then the async ones'
        order = [self.user.index(spec) for spec in (*self._sync, *self._async)]
        self._order = tuple(order.index(i) for i in range(len(self.user)))
        # Most trials share one of a few score rows; keeping one object per distinct row keeps a
        # 100,000-trial run's scores to a few kilobytes.
        self._interned: dict[tuple[TrialScore, ...], TrialScores] = {}

    @property
    def names(self) -> list[str]:
        """Every metric's name, in the order of its scores in a row."""
        return [s.name for s in self.scorers]

    @property
    def awaits(self) -> bool:
        """Whether scores must be awaited (:meth:`ascore`): a judge, a rubric or an async user
        scorer."""
        return self.judged is not None or bool(self._async) or bool(self.rubrics)

    def identities(self) -> dict[str, dict[str, str]]:
        """Each user scorer's and rubric's identity, by metric name, as a report records it."""
        found = {spec.name: spec.identity_data() for spec in self.user}
        found.update((r.scorer.name, r.identity_data()) for r in self.rubrics)
        return found

    def __enter__(self) -> ScoreBoard:
        if self._sync:
            self._limit.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._sync:
            self._limit.__exit__(*exc)

    def __call__(self, trace: Trace, case: Case) -> TrialScores:
        if self.awaits:
            raise TypeError(
                "a board with a judge or an async scorer scores with "
                "'await board.ascore(trace, case)'"
            )
        return self._row((*self._built_in(trace, case), *self._user_sync(trace, case)))

    async def ascore(self, trace: Trace, case: Case) -> TrialScores:
        """Every score of the trial, the async scorers', the rubrics' and the judge's awaited.
        Raises :class:`ScoringStopped` (with the scores, those of the judge that stopped and of
        the judges after it unscored) when a judge cannot go on."""
        if not self.awaits:
            return self(trace, case)
        rules = self._built_in(trace, case)
        user = self._user_sync(trace, case)
        if self._async:
            done = [await self._user_async(spec, trace, case) for spec in self._async]
            both = (*user, *done)
            user = tuple(both[i] for i in self._order)
        judges: list[AwaitedScorer | JudgedScorer] = [*self.rubrics]
        if self.judged is not None:
            judges.append(self.judged)
        judged: list[TrialScore] = []
        stopped: ScorerStopped | None = None
        for judge in judges:
            if stopped is not None:
                judged.append(TrialScore(None, "unscored", None, f"judge stopped: {stopped}"))
                continue
            try:
                if judge is self.judged:
                    labelled = rules[self._misreport] if self._misreport is not None else None
                    judged.append(await judge.score(trace, case, labelled))
                else:
                    judged.append(await judge.score(trace, case))
            except ScorerStopped as stop:
                stopped = stop
                judged.append(TrialScore(None, "unscored", None, f"judge stopped: {stop}"))
            except Exception as exc:  # a broken judge must not sink the run either
                judged.append(TrialScore(None, "unscored", None, f"{type(exc).__name__}: {exc}"))
        row = self._row((*rules, *user, *judged))
        if stopped is not None:
            raise ScoringStopped(f"judge stopped: {stopped}", row) from stopped
        return row

    def _built_in(self, trace: Trace, case: Case) -> tuple[TrialScore, ...]:
        return tuple(self._score(scorer, trace, case) for scorer in self._rules)

    def _user_sync(self, trace: Trace, case: Case) -> tuple[TrialScore, ...]:
        if not self._sync:
            return ()
        outcomes = self._limit.call_each(self._sync_fns, case, trace)
        return tuple(
            _outcome(spec, ok, value, self.scorer_timeout_s)
            for spec, (ok, value) in zip(self._sync, outcomes, strict=True)
        )

    async def _user_async(self, spec: ScorerSpec, trace: Trace, case: Case) -> TrialScore:
        try:
            returned = await asyncio.wait_for(spec.fn(case, trace), self.scorer_timeout_s)
        except asyncio.TimeoutError:
            return timed_out(spec, self.scorer_timeout_s)
        except Exception as exc:  # a broken scorer must not sink the run
            return raised(spec, exc)
        return to_trial_score(spec, returned)

    def _row(self, row: tuple[TrialScore, ...]) -> TrialScores:
        found = self._interned.get(row)
        if found is None:
            found = TrialScores(
                tuple(score.value for score in row),
                tuple(score.reason for score in row),
                tuple(score.label for score in row),
                tuple(score.error for score in row),
                any(score.error is not None for score in row),
                tuple(score.evidence for score in row)
                if any(score.evidence is not None for score in row)
                else (),
            )
            self._interned[row] = found
        return found

    def _score(self, scorer: Scorer, trace: Trace, case: Case) -> TrialScore:
        try:
            return scorer.fn(trace, case, self.settings)
        except Exception as exc:  # a broken scorer must not sink the run
            return TrialScore(None, "unscored", None, f"{type(exc).__name__}: {exc}")


def _outcome(spec: ScorerSpec, ok: bool, value: object, timeout_s: float) -> TrialScore:
    if ok:
        return to_trial_score(spec, value)
    if value is TIMED_OUT:
        return timed_out(spec, timeout_s)
    assert isinstance(value, BaseException)
    return raised(spec, value)


def unscored_lines(board: ScoreBoard, rows: Iterable[TrialScores | None]) -> list[str]:
    """One warning per user scorer that left trials unscored (it raised, hung, or returned no
    verdict): how many of the trials, and the first reason."""
    first = len(board.scorers) - len(board.user) - len(board.rubrics) - (board.judged is not None)
    counts = [0] * len(board.user)
    example: list[str | None] = [None] * len(board.user)
    trials = 0
    for row in rows:
        if row is None:
            continue
        trials += 1
        if not row.unscored:
            continue
        for i, error in enumerate(row.errors[first : first + len(board.user)]):
            if error is not None:
                counts[i] += 1
                example[i] = example[i] or error
    return [
        f"scorer {spec.name}: {count} of {trials} trial(s) unscored ({example[i]})"
        for i, (spec, count) in enumerate(zip(board.user, counts, strict=True))
        if count
    ]
