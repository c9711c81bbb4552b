"""Run every scorer on one trace; a scorer that raises is recorded as unscored, not as a fail."""

from __future__ import annotations

from dataclasses import dataclass

from fairwitness.dataset import Case
from fairwitness.scoring.base import Reason, Scorer, ScoringSettings, TrialScore
from fairwitness.scoring.scorers import BUILTIN_SCORERS
from fairwitness.trace.model import Trace


@dataclass(frozen=True, slots=True)
class TrialScores:
    """Scores of one trial, aligned with the scorer list (tuples keep 100,000s of trials small)."""

    values: tuple[float | None, ...]
    reasons: tuple[Reason | None, ...]
    labels: tuple[str | None, ...]
    errors: tuple[str | None, ...]
    unscored: bool = False
    """Whether any scorer raised on this trial."""


class ScoreBoard:
    """The scorers of a run, applied to each trace as it arrives."""

    def __init__(
        self,
        scorers: tuple[Scorer, ...] = BUILTIN_SCORERS,
        settings: ScoringSettings | None = None,
    ) -> None:
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
        row = tuple(self._score(scorer, trace, case) for scorer in self.scorers)
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
