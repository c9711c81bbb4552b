"""Metrics scored by different versions of a user's scorer are not compared.

A report records the identity of each user's scorer (``scoring.scorers``: kind, version and a
hash of its source). When a metric's identity differs between the baseline and the candidate,
its numbers measure two different things: the metric is left out of the default family of
paired tests (with a note saying why), and gating it by name (``--metric``) is invalid. A floor
on it still applies, as a floor reads the candidate alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairwitness.gate._compare import ReportComparison
    from fairwitness.report.model import ScorerIdentity


def _why(
    name: str, before: ScorerIdentity | None, after: ScorerIdentity | None, bl: str, cl: str
) -> str:
    if before is None or after is None:
        has, lacks = (cl, bl) if before is None else (bl, cl)
        return (
            f"metric '{name}' is scored by a user's scorer in {has} but {lacks} records no "
            f"scorer identity for it (field 'scoring.scorers.{name}')"
        )
    if before.version != after.version:
        change = f"version {before.version} in {bl} but version {after.version} in {cl}"
    elif before.kind != after.kind:
        change = f"kind {before.kind} in {bl} but {after.kind} in {cl}"
    else:
        change = (
            f"source changed between {bl} and {cl} (hash {before.source_hash or '(none)'} vs "
            f"{after.source_hash or '(none)'}) though both say version {after.version}"
        )
    return f"scorer '{name}' is {change} (field 'scoring.scorers.{name}')"


def rescored_metrics(comparison: ReportComparison) -> dict[str, str]:
    """The metrics of both reports whose scorer identity differs, with why; a note goes to the
    comparison's reasons for each that is left out of the family (not named by ``--metric``)."""
    b, c = comparison.b.scoring, comparison.c.scoring
    labels = (comparison.bl, comparison.cl)
    gated = comparison.settings.gated
    notes = comparison.why.notes
    found: dict[str, str] = {}
    for name in b.metrics:
        before, after = b.scorers.get(name), c.scorers.get(name)
        if name in c.metrics and before != after:
            found[name] = _why(name, before, after, *labels)
    for name, why in found.items():
        if gated is None or name not in gated:
            notes.append(f"{why}: not compared, as the two reports measure different things")
    return found


def rescored_gated(name: str, why: str) -> str:
    """The reason a gated metric scored by two versions of a scorer makes the gate invalid."""
    return (
        f"gated metric '{name}' cannot be compared: {why}; a paired test across two scorers "
        "measures the change of scorer, not of the agent: rerun the baseline with this scorer, "
        "or stop gating it"
    )


__all__ = ["rescored_gated", "rescored_metrics"]
