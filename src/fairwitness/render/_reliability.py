"""What the reader sees of repeats: each capability metric's per-trial rate, majority, pass^k and
pass@k, and the cases whose repeats split most evenly. Formatted by the reporting rules; names
are escaped by the caller's ``escape``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from fairwitness import _format as fmt
from fairwitness.report import Report

Escape = Callable[[object], str]


@dataclass(frozen=True)
class ReliabilityRow:
    """A capability metric's per-trial rate, collapsed value, pass^k and pass@k."""

    name: str
    per_trial: str
    collapsed: str
    pass_hat: list[str]
    pass_at: str


def reliability_rows(
    report: Report, escape: Escape, withheld: Mapping[str, str]
) -> tuple[list[ReliabilityRow], list[int]]:
    """Per capability metric with pass^k figures: its per-trial rate (pass^1), its collapsed
    (majority) value, pass^k for k = 2 .. the most repeats, and pass@k at that k. Empty when no
    case has two measured repeats."""
    top = max(
        (len(m.pass_k) for name, m in report.metrics.items() if name not in withheld),
        default=0,
    )
    if top < 2:
        return [], []
    rows: list[ReliabilityRow] = []
    for name, metric in report.metrics.items():
        if name in withheld or not metric.pass_k or metric.n == 0:
            continue
        figures = {one.k: one for one in metric.pass_k}
        hats = []
        for k in range(2, top + 1):
            one = figures.get(k)
            hats.append(
                fmt.DASH
                if one is None
                else fmt.share(
                    one.pass_hat, one.cases, one.pass_hat_low, one.pass_hat_high, unit=""
                ).strip()
            )
        last = figures.get(top)
        collapsed = metric.collapsed
        rows.append(
            ReliabilityRow(
                name=escape(name),
                per_trial=fmt.share(
                    metric.per_trial.value if metric.per_trial else None,
                    metric.n,
                    metric.per_trial.ci_low if metric.per_trial else None,
                    metric.per_trial.ci_high if metric.per_trial else None,
                    unit="",
                    successes=metric.successes,
                    trials=metric.trials,
                ),
                collapsed=fmt.DASH
                if collapsed is None
                else fmt.rate(
                    collapsed.k, collapsed.n, collapsed.value, collapsed.ci_low, collapsed.ci_high
                ),
                pass_hat=hats,
                pass_at=fmt.DASH
                if last is None
                else fmt.share(
                    last.pass_at, last.cases, last.pass_at_low, last.pass_at_high, unit=""
                ),
            )
        )
    return rows, list(range(2, top + 1))


def most_unstable(report: Report, limit: int = 5) -> str:
    """The cases whose repeats split most evenly on some pass/fail metric, worst first:
    ``id (route 2/4)``."""
    binary = {name for name, metric in report.metrics.items() if metric.collapse != "median"}
    found: list[tuple[float, int, str, str]] = []
    for position, (case_id, case) in enumerate(report.cases.items()):
        if not case.unstable:
            continue
        best: tuple[float, str] | None = None
        tally: dict[str, list[int]] = {}
        for outcome in case.repeats:
            if outcome.variant != "base":
                continue
            for name, value in outcome.scores.items():
                if value is None or name not in binary:
                    continue
                counts = tally.setdefault(name, [0, 0])
                counts[0] += value >= 0.5
                counts[1] += 1
        for name, (ones, trials) in tally.items():
            if 0 < ones < trials:
                balance = min(ones, trials - ones) / trials
                if best is None or balance > best[0]:
                    best = (balance, f"{name} {ones}/{trials}")
        if best is not None:
            found.append((-best[0], position, case_id, best[1]))
    if not found:
        return ""
    found.sort()
    shown = ", ".join(f"{case_id} ({what})" for _, _, case_id, what in found[:limit])
    more = len(found) - limit
    return shown + (f" and {more} more" if more > 0 else "")
