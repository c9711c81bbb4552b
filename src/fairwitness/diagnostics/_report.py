"""A report's ``diagnostics``: what says whether the suite's results can be trusted, typed.

Every block is optional: a report saved before a block existed has none, and a block is written
back exactly as it was read (see :class:`~fairwitness.diagnostics._block.DiagnosticBlock`), so an
old report round-trips unchanged and keys this version does not know are kept.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from fairwitness.diagnostics._block import DiagnosticBlock, NotMeasured
from fairwitness.diagnostics._meter_result import MeasuredMeter
from fairwitness.diagnostics.blindness import BlindnessResult
from fairwitness.judge._diagnostics import JudgeBlock

__all__ = ["Diagnostics", "MeterBlock", "Relations"]

MeterBlock = Annotated[MeasuredMeter | NotMeasured, Field(discriminator="measured")]
"""``diagnostics.meter``: the meter's result, or why it could not run (``measured`` tells)."""


class Relations(DiagnosticBlock):
    """``diagnostics.relations``: whether metamorphic relations were measured."""

    measured: bool
    """False for a suite run, which does not call the agent on transformed inputs."""
    reason: str | None = None
    """Why they were not measured."""
    summary: str | None = None
    """What they showed, when measured."""


class Diagnostics(DiagnosticBlock):
    """Suite-trust diagnostics of a report (stochasticity meter, blindness, label skew,
    relations, judge calibration)."""

    meter: MeterBlock | None = None
    """The verdict-stochasticity meter over the run's repeat pairs (fixed design)."""
    blindness: BlindnessResult | None = None
    """How concentrated the agent's verdicts are (first answered repeat of each case)."""
    label_skew: BlindnessResult | None = None
    """How concentrated the dataset's expected routes are; null when no case expects one."""
    relations: Relations | None = None
    """Metamorphic relations: a suite run does not measure them (``fairwitness diagnose``
    does)."""
    judge: JudgeBlock | None = None
    """The LLM judge's calibration and whether its numbers may be shown; absent when the config
    names no judge, no calibration labels and no judge-derived metrics."""
