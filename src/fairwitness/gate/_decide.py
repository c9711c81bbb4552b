"""The decision: compare a candidate report with a baseline, case by case."""

from __future__ import annotations

from collections.abc import Sequence

from fairwitness.errors import EXIT_OK
from fairwitness.gate._audit import Audit
from fairwitness.gate._compare import Comparison, Pairs
from fairwitness.gate._decision import VERDICTS, Decision, MetricDecision
from fairwitness.gate._power import POWER, detectable_drop
from fairwitness.gate._settings import GateSettings, Test
from fairwitness.report import Report
from fairwitness.scoring import Scorer
from fairwitness.stats import HolmResult, holm, mcnemar

_EPSILON = 1e-12


def paired_tests(
    counts: Sequence[tuple[int, int]], *, alpha: float, test: Test = "midp"
) -> list[HolmResult]:
    """One-sided McNemar p-values for ``(regressions, improvements)`` per metric, adjusted by Holm
    over all of them at ``alpha``: exactly the test the gate applies."""
    return holm([mcnemar(r, i, method=test) for r, i in counts], alpha)


def _audit_value(audit: Audit, name: str) -> float | None:
    return audit.value(name) if name in audit.totals else None


def _power_note(
    name: str, scorer: Scorer, pairs: Pairs, alpha: float, m: int
) -> tuple[float | None, str]:
    found = detectable_drop(pairs.n, pairs.regressions + pairs.improvements, alpha=alpha)
    if found.drop is None:
        return None, f"{name}: {found.reason}"
    change = "drop" if scorer.higher_is_better else "rise"
    return found.drop, (
        f"{name}: with {pairs.n} paired cases, {found.psi:.1%} discordant, a {change} of "
        f"{found.drop:.3f} or more would be detected with {POWER:.0%} power at one-sided alpha "
        f"{alpha:.4g} (alpha/m, m = {m}); a smaller one can pass undetected"
    )


def decide(
    baseline: Report,
    candidate: Report,
    settings: GateSettings | None = None,
    *,
    baseline_name: str | None = None,
    candidate_name: str | None = None,
) -> Decision:
    """Compare ``candidate`` with ``baseline``; see :mod:`fairwitness.gate` for the rules.

    ``baseline_name``/``candidate_name`` (e.g. the files) are named in the reasons."""
    settings = settings or GateSettings()
    labels = (
        "baseline" if baseline_name is None else f"baseline {baseline_name}",
        "candidate" if candidate_name is None else f"candidate {candidate_name}",
    )
    gate = Comparison(baseline, candidate, settings, labels)
    gate.check_compatible()
    gate.check_pairing()
    gate.note_withheld()
    gate.note_rejudged()
    gated = gate.gated()
    floors = {floor.metric: floor for floor in gate.floors()}
    if not gated and not floors:
        withheld = " (judge-derived metrics are withheld: see the note)" if gate.withheld else ""
        gate.why.invalid.append(
            "nothing to gate: no pass/fail metric is measured in both reports and no floor is set"
            + withheld
        )
    gate.check_must_pass()
    gate.check_stability()

    counts = {name: gate.pairs(name) for name in gated}
    tests = paired_tests(
        [(counts[n].regressions, counts[n].improvements) for n in gated],
        alpha=settings.alpha,
        test=settings.test,
    )
    power_alpha = settings.alpha / len(gated) if gated else None
    metrics: list[MetricDecision] = []
    for name in [*gated, *(name for name in floors if name not in counts)]:
        scorer = gate.scorers[name]
        pairs = counts[name] if name in counts else gate.pairs(name)
        result = tests[gated.index(name)] if name in counts else None
        drop, note = (
            _power_note(name, scorer, pairs, power_alpha, len(gated))
            if result is not None and power_alpha is not None
            else (None, f"{name}: not gated (floor only)")
        )
        floor = floors.get(name)
        value = _audit_value(gate.c_audit, name)
        breached = (
            floor is not None
            and value is not None
            and (
                value < floor.value - _EPSILON
                if floor.kind == "min"
                else value > floor.value + _EPSILON
            )
        )
        metrics.append(
            MetricDecision(
                name=name,
                kind=scorer.kind,
                higher_is_better=scorer.higher_is_better,
                gated=result is not None,
                baseline=_audit_value(gate.b_audit, name),
                candidate=value,
                n=pairs.n,
                regressions=pairs.regressions,
                improvements=pairs.improvements,
                p=None if result is None else result.p,
                p_adjusted=None if result is None else result.p_adjusted,
                rejected=result is not None and result.rejected,
                detectable_drop=drop,
                power_note=note,
                floor=None if floor is None else floor.value,
                floor_kind=None if floor is None else floor.kind,
                floor_breached=breached,
                regressed_ids=tuple(pairs.regressed),
                improved_ids=tuple(pairs.improved),
            )
        )
    _regression_reasons(gate, metrics, settings)

    exit_code, reasons = EXIT_OK, []
    for code, found in gate.why.by_code():
        if found and exit_code == EXIT_OK:
            exit_code = code
        reasons.extend(found)
    if exit_code == EXIT_OK:
        reasons.append(_pass_reason(metrics, settings))
    return Decision(
        exit_code=exit_code,
        verdict=VERDICTS[exit_code],
        reasons=reasons,
        metrics=metrics,
        unpaired={"missing_from_candidate": gate.missing, "new_in_candidate": gate.new},
        alpha=settings.alpha,
        test=settings.test,
        power_alpha=power_alpha,
        notes=gate.why.notes,
    )


def _regression_reasons(
    gate: Comparison, metrics: list[MetricDecision], settings: GateSettings
) -> None:
    for metric in metrics:
        if metric.rejected:
            gate.why.regression.append(
                f"'{metric.name}' regressed: {metric.regressions} of {metric.n} paired cases "
                f"went from good to bad, {metric.improvements} from bad to good; one-sided "
                f"McNemar ({settings.test}) p = {metric.p:.3g}, Holm-adjusted {metric.p_adjusted:.3g}"
                f" <= alpha {settings.alpha:g}"
            )
        if metric.floor_breached:
            bound = "below the minimum" if metric.floor_kind == "min" else "above the maximum"
            k, n = gate.c_audit.totals[metric.name]
            gate.why.regression.append(
                f"floor breached: '{metric.name}' is {metric.candidate:.4g} in {gate.cl} "
                f"(k = {k:g} of n = {n}), {bound} {metric.floor:g}"
            )


def _pass_reason(metrics: list[MetricDecision], settings: GateSettings) -> str:
    gated = [m for m in metrics if m.gated]
    parts = [
        f"no regression detected in {len(gated)} gated metric(s) (one-sided McNemar "
        f"{settings.test}, Holm at alpha {settings.alpha:g})"
        if gated
        else "no pass/fail metric is measured in both reports, so no paired test was run"
    ]
    floors = [m for m in metrics if m.floor is not None]
    if floors:
        held = ", ".join(
            f"{m.name} {m.candidate:.4g} {'>=' if m.floor_kind == 'min' else '<='} {m.floor:g}"
            for m in floors
        )
        parts.append(f"floors held: {held}")
    if gated:
        drops = ", ".join(
            f"{m.name} {m.detectable_drop:.3f}"
            if m.detectable_drop is not None
            else f"{m.name} none (too few paired cases)"
            for m in gated
        )
        parts.append(f"smallest change detectable with {POWER:.0%} power: {drops}")
    return "; ".join(parts)
