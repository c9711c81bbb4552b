"""Run every scorer on one trace; a scorer that raises is recorded as unscored, not as a fail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fairwitness.dataset import Case
from fairwitness.scoring.base import Reason, Scorer, ScorerStopped, ScoringSettings, TrialScore
from fairwitness.scoring.scorers import BUILTIN_SCORERS
from fairwitness.trace.model import Trace

if TYPE_CHECKING:
    from fairwitness.judge import JudgedScorer


@dataclass(frozen=True, slots=True)
class TrialScores:
    """Scores of one trial, aligned with the scorer list (tuples keep 100,000s of trials small)."""

    values: tuple[float | None, ...]
    reasons: tuple[Reason | None, ...]
    labels: tuple[str | None, ...]
    errors: tuple[str | None, ...]
    unscored: bool = False
    """Whether any scorer raised on this trial."""


class ScoringStopped(Exception):
    """Scoring cannot go on (the judge stopped); ``scores`` are the trial's scores nonetheless,
    with the judge's metric unscored."""

    def __init__(self, reason: str, scores: TrialScores) -> None:
        super().__init__(reason)
        self.scores = scores


class ScoreBoard:
    """The scorers of a run, applied to each trace as it arrives.

    With ``judged`` the board also scores the judge's metric (last in :attr:`scorers`); then use
    :meth:`ascore`, which awaits the judge, instead of calling the board.
    """

    def __init__(
        self,
        scorers: tuple[Scorer, ...] = BUILTIN_SCORERS,
        settings: ScoringSettings | None = None,
        judged: JudgedScorer | None = None,
    ) -> None:
        self.judged = judged
        if judged is not None:
            scorers = (*scorers, judged.scorer)
        names = [s.name for s in scorers]
        if len(set(names)) != len(names):
            raise ValueError(
                f"duplicate scorer names: {sorted(n for n in names if names.count(n) > 1)}"
            )
        self.scorers = scorers
        self.settings = settings or ScoringSettings()
        # Most trials share one of a few score rows; keeping one object per distinct row keeps a
        # 100,000-trial run's scores to a few kilobytes.
        self._interned: dict[tuple[TrialScore, ...], TrialScores] = {}

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.scorers]

    def __call__(self, trace: Trace, case: Case) -> TrialScores:
        if self.judged is not None:
            raise TypeError("a board with a judge scores with 'await board.ascore(trace, case)'")
        return self._row(tuple(self._score(scorer, trace, case) for scorer in self.scorers))

    async def ascore(self, trace: Trace, case: Case) -> TrialScores:
        """Every score of the trial, the judge's awaited. Raises :class:`ScoringStopped` (with the
        scores, the judge's unscored) when the judge cannot go on."""
        if self.judged is None:
            return self(trace, case)
        rules = tuple(self._score(scorer, trace, case) for scorer in self.scorers[:-1])
        try:
            judged = await self.judged.score(trace, case)
        except ScorerStopped as stop:
            row = (*rules, TrialScore(None, "unscored", None, f"judge stopped: {stop}"))
            raise ScoringStopped(f"judge stopped: {stop}", self._row(row)) from stop
        except Exception as exc:  # a broken judge must not sink the run either
            judged = TrialScore(None, "unscored", None, f"{type(exc).__name__}: {exc}")
        return self._row((*rules, judged))

    def _row(self, row: tuple[TrialScore, ...]) -> TrialScores:
        found = self._interned.get(row)
        if found is None:
            found = TrialScores(
                tuple(score.value for score in row),
                tuple(score.reason for score in row),
                tuple(score.label for score in row),
                tuple(score.error for score in row),
                any(score.error is not None for score in row),
            )
            self._interned[row] = found
        return found

    def _score(self, scorer: Scorer, trace: Trace, case: Case) -> TrialScore:
        try:
            return scorer.fn(trace, case, self.settings)
        except Exception as exc:  # a broken scorer must not sink the run
            return TrialScore(None, "unscored", None, f"{type(exc).__name__}: {exc}")
