"""The decision: compare a candidate report with a baseline, case by case.

Each gated metric is tested on its per-case success shares: the drop of each paired case (the
baseline's share of measured repeats that passed minus the candidate's) goes into a one-sided
sign-flip test (:func:`fairwitness.stats.sign_flip`), valid whatever the per-case noise, and
exactly McNemar's test when every paired case has one repeat on both sides. McNemar's test on the
collapsed outcomes is computed beside it and shown; Holm's adjustment runs over the rate tests.
A continuous metric named with ``--metric`` is tested the same way on its per-case means over
the measured repeats (values in [0, 1]): the sign-flip test needs only that a case's drop is
symmetric about 0 under "no change", whatever the values' distribution.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from fairwitness.errors import EXIT_OK
from fairwitness.gate._audit import Audit
from fairwitness.gate._compare import ReportComparison
from fairwitness.gate._decision import VERDICTS, Decision, MetricDecision, PassFloor
from fairwitness.gate._power import POWER
from fairwitness.gate._rates import RatePairs
from fairwitness.gate._settings import GateSettings, Test
from fairwitness.gate._slices import tag_slices
from fairwitness.gate._tally import Floor
from fairwitness.report import Report
from fairwitness.scoring import Scorer
from fairwitness.stats import (
    HolmResult,
    SignFlip,
    cases_needed,
    holm,
    mcnemar,
    rate_detectable_drop,
    sign_flip,
)

_EPSILON = 1e-12
MAX_REPEATS_SUGGESTED = 20
"""The most repeats per case the gate suggests before it says only more cases would do."""


def paired_tests(
    counts: Sequence[tuple[int, int]], *, alpha: float, test: Test = "midp"
) -> list[HolmResult]:
    """One-sided McNemar p-values for ``(regressions, improvements)`` per metric, adjusted by Holm
    over all of them at ``alpha``: the test the gate applies when every paired case has one
    measured repeat on both sides (the sign-flip test on per-case rates is then McNemar's)."""
    return holm([mcnemar(r, i, method=test) for r, i in counts], alpha)


def _audit_value(audit: Audit, name: str) -> float | None:
    return audit.value(name) if name in audit.totals else None


def rate_test(rates: RatePairs, name: str, test: Test = "midp") -> SignFlip:
    """The one-sided sign-flip test on ``rates``' per-case drops, seeded by the metric's name."""
    drops = [drop for drop, count in rates.drops if drop for _ in range(count)]
    return sign_flip(drops, method=test, seed=zlib.crc32(name.encode()))


def _needed(rates: RatePairs, want: float, alpha: float) -> tuple[int | None, int | None]:
    """Paired cases at these repeats, and repeats per case at these cases, that would make a drop
    of ``want`` detectable with 80% power; ``None`` where none would (repeats up to
    :data:`MAX_REPEATS_SUGGESTED`)."""
    square = rates.mean_square
    cases = cases_needed(want, square, alpha=alpha)
    repeats = None
    if rates.n:
        per_b, per_c = rates.trials_baseline / rates.n, rates.trials_candidate / rates.n
        # Without a change, a case's squared drop is its within-case variance over each side's
        # repeats: E[d^2] = w (1/k_b + 1/k_c); more repeats shrink it, not the cases' spread.
        within = square / (1.0 / per_b + 1.0 / per_c)
        for k in range(1, MAX_REPEATS_SUGGESTED + 1):
            found = rate_detectable_drop(rates.n, 2.0 * within / k, alpha=alpha)
            if found is not None and found <= want + _EPSILON:
                repeats = k
                break
    return cases, repeats


def measure_of(kind: str) -> str:
    """What the rate test compares for a metric of ``kind``: the per-trial rate of a pass/fail
    metric, the per-case mean of a continuous one."""
    return "per-case mean" if kind == "continuous" else "per-trial rate"


def _power_note(
    name: str, scorer: Scorer, rates: RatePairs, drop: float | None, alpha: float, m: int
) -> str:
    change = "drop" if scorer.higher_is_better else "rise"
    if drop is None:
        return (
            f"{name}: {rates.n} paired case(s) are too few: not even a {change} from all good "
            f"to all bad would be detected with {POWER:.0%} power"
        )
    return (
        f"{name}: with {rates.n} paired cases (mean squared per-case difference "
        f"{rates.mean_square:.3g}), a {change} of {drop:.3f} or more in the "
        f"{measure_of(scorer.kind)} "
        f"would be detected with {POWER:.0%} power at one-sided alpha {alpha:.4g} (alpha/m, "
        f"m = {m}); a smaller one can pass undetected"
    )


def _pass_floors(gate: ReportComparison, name: str, floors: list[Floor]) -> tuple[PassFloor, ...]:
    found: list[PassFloor] = []
    for floor in floors:
        if floor.metric != name or floor.k is None:
            continue
        value, cases = gate.c_audit.pass_k(name, floor.k, floor.which or "hat")
        found.append(
            PassFloor(
                k=floor.k,
                which="pass^k" if floor.which == "hat" else "pass@k",
                floor=floor.value,
                value=value,
                cases=cases,
                breached=value is not None and value < floor.value - _EPSILON,
            )
        )
    return tuple(found)


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
    gate = ReportComparison(baseline, candidate, settings, labels)
    gate.check_compatible()
    gate.check_pairing()
    gate.note_withheld()
    gate.note_rejudged()
    gated = gate.gated()
    floor_list = gate.floors()
    floors = {floor.metric: floor for floor in floor_list if floor.k is None}
    floored = list(dict.fromkeys(floor.metric for floor in floor_list))
    if not gated and not floor_list:
        withheld = " (judge-derived metrics are withheld: see the note)" if gate.withheld else ""
        gate.why.invalid.append(
            "nothing to gate: no pass/fail metric is measured in both reports and no floor is set"
            + withheld
        )
    gate.check_must_pass()
    gate.check_stability()

    counts = {name: gate.pairs(name) for name in gated}
    rates = {name: gate.rate_pairs(name) for name in gated}
    flips = {name: rate_test(rates[name], name, settings.test) for name in gated}
    tests = holm([flips[name].p for name in gated], settings.alpha)
    power_alpha = settings.alpha / len(gated) if gated else None
    metrics: list[MetricDecision] = []
    for name in [*gated, *(name for name in floored if name not in counts)]:
        scorer = gate.scorers[name]
        pairs = counts[name] if name in counts else gate.pairs(name)
        result = tests[gated.index(name)] if name in counts else None
        flip = flips.get(name)
        paired = rates.get(name)
        drop: float | None = None
        needed: tuple[int | None, int | None] = (None, None)
        if paired is not None and power_alpha is not None:
            drop = rate_detectable_drop(paired.n, paired.mean_square, alpha=power_alpha)
            note = _power_note(name, scorer, paired, drop, power_alpha, len(gated))
            if settings.must_detect is not None:
                needed = _needed(paired, settings.must_detect, power_alpha)
        else:
            note = f"{name}: not gated (floor only)"
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
                test=None
                if flip is None or paired is None
                else ("mcnemar" if paired.single else "sign-flip"),
                rate_n=0 if paired is None else paired.n,
                rate_baseline=None if paired is None else paired.baseline,
                rate_candidate=None if paired is None else paired.candidate,
                mean_square=None if paired is None else paired.mean_square,
                exact=flip is None or flip.exact,
                mc_error=0.0 if flip is None else flip.mc_error,
                mcnemar_p=None
                if result is None or scorer.kind == "continuous"
                else mcnemar(pairs.regressions, pairs.improvements, method=settings.test),
                cases_needed=needed[0],
                repeats_needed=needed[1],
                pass_floors=_pass_floors(gate, name, floor_list),
            )
        )
    _detectability_reasons(gate, metrics, settings)
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
        slices=tag_slices(gate, metrics, lambda pairs, name: rate_test(pairs, name, settings.test)),
    )


def _tests_named(gated: list[MetricDecision]) -> str:
    names = {m.test for m in gated}
    means = any(m.kind == "continuous" for m in gated)
    if names == {"mcnemar"}:
        return "one-sided McNemar"
    on = "per-case rates and means" if means else "per-case rates"
    if names == {"sign-flip"}:
        return f"one-sided sign-flip tests on {on}"
    return f"one-sided sign-flip tests on {on}, McNemar's where k = 1"


def _regression_reasons(
    gate: ReportComparison, metrics: list[MetricDecision], settings: GateSettings
) -> None:
    for metric in metrics:
        if metric.rejected:
            gate.why.regression.append(_regressed(metric, settings))
        for one in metric.pass_floors:
            if one.breached:
                gate.why.regression.append(
                    f"floor breached: '{metric.name}.{one.which[:-1]}{one.k}' is "
                    f"{one.value:.4g} in {gate.cl} (over {one.cases} cases with {one.k} or "
                    f"more measured repeats), below the minimum {one.floor:g}"
                )
        if metric.floor_breached:
            bound = "below the minimum" if metric.floor_kind == "min" else "above the maximum"
            k, n = gate.c_audit.totals[metric.name]
            gate.why.regression.append(
                f"floor breached: '{metric.name}' is {metric.candidate:.4g} in {gate.cl} "
                f"(k = {k:g} of n = {n}), {bound} {metric.floor:g}"
            )


def _regressed(metric: MetricDecision, settings: GateSettings) -> str:
    if metric.test == "mcnemar":
        collapsed = (
            f"{metric.regressions} of {metric.n} paired cases went from good to bad, "
            f"{metric.improvements} from bad to good"
        )
        return (
            f"'{metric.name}' regressed: {collapsed}; one-sided McNemar ({settings.test}) p = "
            f"{metric.p:.3g}, Holm-adjusted {metric.p_adjusted:.3g} <= alpha {settings.alpha:g}"
        )
    if metric.kind == "continuous":
        return (
            f"'{metric.name}' regressed: per-case mean {metric.rate_baseline:.3f} -> "
            f"{metric.rate_candidate:.3f} over {metric.rate_n} paired cases; one-sided "
            f"sign-flip test p = {metric.p:.3g}, Holm-adjusted {metric.p_adjusted:.3g} <= alpha "
            f"{settings.alpha:g}"
        )
    return (
        f"'{metric.name}' regressed: per-trial rate {metric.rate_baseline:.3f} -> "
        f"{metric.rate_candidate:.3f} over {metric.rate_n} paired cases ({metric.regressions} "
        f"went from good to bad, {metric.improvements} from bad to good); one-sided sign-flip "
        f"test p = {metric.p:.3g}, Holm-adjusted {metric.p_adjusted:.3g} <= alpha "
        f"{settings.alpha:g}"
    )


def _detectability_reasons(
    gate: ReportComparison, metrics: list[MetricDecision], settings: GateSettings
) -> None:
    """Exit 3 when the run cannot detect the drop ``must_detect`` asks for, with what would."""
    want = settings.must_detect
    if want is None:
        return
    for metric in metrics:
        if not metric.gated:
            continue
        drop = metric.detectable_drop
        if drop is not None and drop <= want + _EPSILON:
            continue
        can = "nothing" if drop is None else f"only a drop of {drop:.3f} or more"
        ways = []
        if metric.cases_needed is not None:
            ways.append(f"about {metric.cases_needed} paired cases at these repeats")
        if metric.repeats_needed is not None:
            ways.append(
                f"{metric.repeats_needed} repeats per case in both runs at these "
                f"{metric.rate_n} cases"
            )
        fix = (
            " or ".join(ways) + " would"
            if ways
            else "more repeats alone would not: it needs more cases"
        )
        if metric.repeats_needed is None and metric.cases_needed is not None:
            fix += f" (more repeats alone would not, up to {MAX_REPEATS_SUGGESTED})"
        gate.why.inconclusive.append(
            f"'{metric.name}': this run cannot detect the drop it must (must_detect "
            f"{want:g}) with {POWER:.0%} power: it detects {can} in the "
            f"{measure_of(metric.kind)}; "
            f"{fix}"
        )


def _pass_reason(metrics: list[MetricDecision], settings: GateSettings) -> str:
    gated = [m for m in metrics if m.gated]
    parts = [
        f"no regression detected in {len(gated)} gated metric(s) ({_tests_named(gated)}, "
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
