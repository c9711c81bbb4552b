"""What the gate decided, per metric and overall: versioned pydantic models, so ``gate --json``
has a schema (``fairwitness.decision/1``, committed in ``schemas/decision.schema.json``)."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from fairwitness.errors import (
    EXIT_INCONCLUSIVE,
    EXIT_INVALID,
    EXIT_MUST_PASS,
    EXIT_OK,
    EXIT_REGRESSION,
)
from fairwitness.gate._power import POWER

Verdict = Literal["pass", "regression", "must-pass failed", "inconclusive", "invalid"]

VERDICTS: dict[int, Verdict] = {
    EXIT_INVALID: "invalid",
    EXIT_MUST_PASS: "must-pass failed",
    EXIT_INCONCLUSIVE: "inconclusive",
    EXIT_REGRESSION: "regression",
    EXIT_OK: "pass",
}
PRECEDENCE = (EXIT_INVALID, EXIT_MUST_PASS, EXIT_INCONCLUSIVE, EXIT_REGRESSION)
"""When several exit codes apply, the first of these that does is the exit code."""
DECISION_SCHEMA: Final = "fairwitness.decision/1"
"""The version of the decision's JSON form."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class PassFloor(_Model):
    """A floor on a capability metric's pass^k or pass@k (``route.pass^3 = 0.8``)."""

    k: int
    which: Literal["pass^k", "pass@k"]
    floor: float
    value: float | None
    """The candidate's pass^k or pass@k; ``None`` when no case has k measured repeats."""
    cases: int
    """Cases with at least k measured repeats."""
    breached: bool


class MetricDecision(_Model):
    """One metric's comparison. Values are recomputed from the per-case outcomes; ``None`` means
    not measured (or, for the test columns, not tested)."""

    name: str
    kind: str
    higher_is_better: bool
    gated: bool
    """Whether the paired test (with Holm) was applied."""
    baseline: float | None
    """The baseline's headline value, recomputed (a capability metric's per-trial rate)."""
    candidate: float | None
    """The candidate's headline value, recomputed."""
    n: int
    """Paired cases measured in both reports."""
    regressions: int
    """Paired cases good in the baseline and bad in the candidate, repeats collapsed."""
    improvements: int
    """Paired cases bad in the baseline and good in the candidate, repeats collapsed."""
    p: float | None
    """One-sided p-value of the deciding test (candidate worse): the sign-flip test on per-case
    rates, which is McNemar's when every paired case has one repeat on both sides."""
    p_adjusted: float | None
    """Holm-adjusted over the gated metrics."""
    rejected: bool
    """Holm rejects "no drop": a regression."""
    detectable_drop: float | None
    """Smallest drop in the per-trial rate detectable with 80% power; see power_note."""
    power_note: str
    floor: float | None = None
    """The floor set on this metric, if any."""
    floor_kind: Literal["min", "max"] | None = None
    floor_breached: bool = False
    regressed_ids: tuple[str, ...] = ()
    """The paired cases that went from good to bad, in dataset order."""
    improved_ids: tuple[str, ...] = ()
    """The paired cases that went from bad to good, in dataset order."""
    test: Literal["mcnemar", "sign-flip"] | None = None
    """Which test gave ``p``: ``mcnemar`` when every paired case has one measured repeat on
    both sides (the two tests are then one), else ``sign-flip``."""
    rate_n: int = 0
    """Paired cases in the rate test."""
    rate_baseline: float | None = None
    """Mean per-trial rate of the baseline over the paired cases."""
    rate_candidate: float | None = None
    """Mean per-trial rate of the candidate over the paired cases."""
    mean_square: float | None = None
    """Mean squared per-case difference of rates: the run's own noise, behind the power."""
    exact: bool = True
    """Whether ``p`` was computed exactly (else by seeded Monte Carlo, see ``mc_error``)."""
    mc_error: float = 0.0
    """Monte Carlo standard error of ``p``; 0 when exact."""
    mcnemar_p: float | None = None
    """McNemar's one-sided p-value on the collapsed outcomes (shown beside the rate test)."""
    cases_needed: int | None = None
    """With ``must_detect``: paired cases that would detect that drop at these repeats."""
    repeats_needed: int | None = None
    """With ``must_detect``: repeats per case that would detect it at these cases."""
    pass_floors: tuple[PassFloor, ...] = ()
    """Floors on this metric's pass^k or pass@k."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def rate_drop(self) -> float | None:
        """The mean per-case drop of the per-trial rate, in the good direction (positive: the
        candidate does worse)."""
        if self.rate_baseline is None or self.rate_candidate is None:
            return None
        change = self.rate_baseline - self.rate_candidate
        return change if self.higher_is_better else -change

    @computed_field  # type: ignore[prop-decorator]
    @property
    def delta(self) -> float | None:
        """Candidate minus baseline."""
        if self.baseline is None or self.candidate is None:
            return None
        return self.candidate - self.baseline

    def json_data(self) -> dict[str, Any]:
        """A JSON-safe dict of this metric's decision."""
        return self.model_dump(mode="json")


class TagSlice(_Model):
    """A gated metric's paired per-trial rate over the cases of one tag, where it dropped: shown
    to say where a drop is, never part of the decision (the exit code ignores it)."""

    metric: str
    tag: str
    n: int
    """Paired cases with this tag measured in both reports."""
    baseline: float
    """Mean per-trial rate of the baseline over those cases."""
    candidate: float
    """Mean per-trial rate of the candidate over those cases."""
    drop: float
    """The mean per-case drop, in the good direction (positive: the candidate does worse)."""
    p: float
    """One-sided p-value of the gate's own paired test restricted to these cases: NOT adjusted
    for multiple comparisons (many tags are looked at; the smallest p of many is small by
    chance)."""
    test: Literal["mcnemar", "sign-flip"]
    """``mcnemar`` when each of these cases has one measured repeat on both sides."""
    exact: bool = True
    """Whether ``p`` was computed exactly (else by seeded Monte Carlo, see ``mc_error``)."""
    mc_error: float = 0.0
    """Monte Carlo standard error of ``p``; 0 when exact."""


def _no_slices(value: tuple[TagSlice, ...]) -> bool:
    return not value


class Decision(_Model):
    """The gate's decision: exit code, verdict, every reason, and the per-metric figures."""

    schema_: Literal["fairwitness.decision/1"] = Field(default=DECISION_SCHEMA, alias="schema")
    """Format version of the decision's JSON form."""
    exit_code: int
    verdict: Verdict
    reasons: list[str]
    """One line each; all that apply, the exit code's own first."""
    metrics: list[MetricDecision]
    unpaired: dict[str, list[str]]
    """``missing_from_candidate`` and ``new_in_candidate`` case ids."""
    alpha: float
    test: str
    power_alpha: float | None = Field(default=None, exclude=True)
    """The one-sided level of the power statements: alpha / m over m gated metrics (written as
    ``power.alpha``)."""
    notes: list[str] = Field(default_factory=list)
    """Things worth knowing that do not change the exit code."""
    slices: tuple[TagSlice, ...] = Field(default=(), exclude_if=_no_slices)
    """Per gated metric whose per-trial rate dropped, the tags (with at least
    ``SLICE_MIN_CASES`` paired cases) where it dropped most, worst first: each with its own
    unadjusted p-value. Left out of the JSON when there are none; never changes the exit code."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", use_attribute_docstrings=True, populate_by_name=True
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def summary(self) -> str:
        """The verdict with its first reason, on one line."""
        return f"{self.verdict}: {self.reasons[0]}" if self.reasons else self.verdict

    @computed_field  # type: ignore[prop-decorator]
    @property
    def power(self) -> dict[str, Any]:
        """How the power statements were made: level, one-sided alpha and method."""
        return {
            "level": POWER,
            "alpha": self.power_alpha,
            "method": "normal approximation to the one-sided sign-flip test on per-case "
            "rates from the run's mean squared per-case difference (Connor 1987's for "
            "McNemar's test when k = 1), at alpha / m (Holm's first step over m gated "
            "metrics)",
        }

    def json_data(self) -> dict[str, Any]:
        """A JSON-safe dict of the whole decision (what ``gate --json`` prints)."""
        return self.model_dump(mode="json", by_alias=True)
