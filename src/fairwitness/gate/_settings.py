"""The gate's settings: the model of the config's ``[gate]`` section, checked when made.

The model is declared once, in :mod:`fairwitness.config` (the config file is read below the gate),
and is the gate's :class:`GateSettings` as it is; the gate's modules import it from here."""

from __future__ import annotations

from fairwitness.config import GateSettings, Test

__all__ = ["GateSettings", "Test"]
