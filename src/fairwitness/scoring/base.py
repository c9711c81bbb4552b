"""What a scorer is, what it returns, and the settings scorers share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from fairwitness.dataset import Case
    from fairwitness.trace.model import Trace

Kind = Literal["capability", "safety", "continuous"]
"""How repeats collapse: capability by majority (a tie fails), safety by any-hit, continuous by
median."""

Reason = Literal[
    "not_applicable", "no_answer", "fault_not_fired", "unreadable", "unscored", "not_run"
]
"""Why a score is missing. Every missing score leaves the denominator, and is counted by reason."""

REASONS: tuple[Reason, ...] = (
    "not_applicable",
    "no_answer",
    "fault_not_fired",
    "unreadable",
    "unscored",
    "not_run",
)


COLLAPSE: dict[Kind, str] = {"capability": "majority", "safety": "any_hit", "continuous": "median"}
"""How each kind of metric collapses a case's repeats (the name a report stores)."""
KIND_OF_COLLAPSE: dict[str, Kind] = {rule: kind for kind, rule in COLLAPSE.items()}
"""The kind of metric a stored collapse rule belongs to."""


class ScorerStopped(Exception):
    """A scorer cannot score any more trials in this run (a judge out of budget, a provider that
    refuses every call); the message says why. The run stops instead of marking the rest unscored."""


@dataclass(frozen=True, slots=True)
class TrialScore:
    """One scorer's verdict on one trial: a value, or ``None`` with the reason."""

    value: float | None
    reason: Reason | None = None
    label: str | None = None
    error: str | None = None
    evidence: str | None = None
    """What decided ``label`` (``rule: phrase``); kept only for a misreport, so score rows of
    other trials stay shared."""

    @classmethod
    def of(cls, passed: bool, label: str | None = None) -> TrialScore:
        if label is None:
            return PASS if passed else FAIL
        return cls(1.0 if passed else 0.0, None, label)

    @classmethod
    def missing(cls, reason: Reason, label: str | None = None) -> TrialScore:
        return cls(None, reason, label)


NOT_APPLICABLE = TrialScore(None, "not_applicable")
PASS = TrialScore(1.0)
FAIL = TrialScore(0.0)


@dataclass(frozen=True)
class ScoringSettings:
    """Options of the built-in scorers (``[scoring]`` in the config). The ``args_*`` options
    apply to ``args`` and ``state`` alike."""

    tools_mode: Literal["set", "subset", "ordered"] = "set"
    args_mode: Literal["exact", "subset"] = "subset"
    args_numeric_tolerance: float = 0.0
    args_case_insensitive: bool = False


@dataclass(frozen=True)
class Scorer:
    """A metric: its name, how its repeats collapse, which direction is good, and the function.

    For ``higher_is_better`` metrics a trial value of 1.0 is the good outcome (pass); for the
    others (rates of something bad, like ``misreport_as_empty``) 1.0 is a hit. Any-hit collapse
    therefore means "the bad outcome in any repeat" in both directions.
    """

    name: str
    kind: Kind
    higher_is_better: bool
    description: str
    fn: Callable[[Trace, Case, ScoringSettings], TrialScore]

    @property
    def collapse(self) -> str:
        return COLLAPSE[self.kind]
