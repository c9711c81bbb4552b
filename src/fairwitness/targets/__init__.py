"""Targets: turning a user's agent into something the runner can call."""

from __future__ import annotations

from fairwitness.targets.base import (
    InvalidReturn,
    Observation,
    Target,
    from_callable,
    to_observation,
)

__all__ = ["InvalidReturn", "Observation", "Target", "from_callable", "to_observation"]
