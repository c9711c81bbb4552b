"""The gate's settings, checked when they are made."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Test = Literal["midp", "exact"]
"""The one-sided paired test's p-value: mid-p (default) or exact (conservative); for McNemar's
test and for the sign-flip test on per-case rates alike."""


class GateSettings(BaseModel):
    """How the gate decides. Metric names in ``gated`` and ``floors`` are checked against the
    reports by :func:`~fairwitness.gate.decide`: an unknown name makes the decision invalid."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, allow_inf_nan=False, use_attribute_docstrings=True
    )

    alpha: float = Field(default=0.05, gt=0.0, lt=0.5)
    """Family-wise error rate over the gated metrics (Holm), one-sided."""
    test: Test = "midp"
    """The paired tests' p-values: ``midp`` or ``exact``."""
    gated: list[str] | None = None
    """Metrics to test for a regression; ``None``: every pass/fail metric measured in both
    reports."""
    floors: dict[str, float] = Field(default_factory=dict)
    """``NAME`` -> minimum for higher-is-better metrics, ``NAME_max`` -> maximum for
    lower-is-better ones, compared with the candidate's value."""
    max_unstable_rate: float | None = Field(default=None, ge=0.0, le=1.0)
    """Above this share of unstable cases in the candidate the gate is inconclusive; ``None``
    (the default): instability is reported, never a verdict."""
    must_detect: float | None = Field(default=None, gt=0.0, lt=1.0)
    """The drop in a gated metric's per-trial rate that must be caught: when the run cannot
    detect it with 80% power, the gate is inconclusive and says how many cases or repeats would;
    ``None``: the power statement is only shown."""
    max_unpaired: int = Field(default=0, ge=0, strict=True)
    """How many baseline cases may be missing from the candidate."""
    fail_on_vacuous: bool = False
    """Also inconclusive when the candidate's probe set is blind (diagnostics.blindness)."""
    allow_model_change: bool = False
    """Compare reports made with different models (``run.models``)."""

    @field_validator("gated")
    @classmethod
    def _gated(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        if not value:
            raise ValueError("name at least one metric, or leave it unset for the default")
        if any(not name.strip() for name in value):
            raise ValueError("metric names must not be empty")
        return list(dict.fromkeys(value))

    @field_validator("floors")
    @classmethod
    def _floors(cls, value: dict[str, float]) -> dict[str, float]:
        if any(not name.strip() for name in value):
            raise ValueError("metric names must not be empty")
        return value
