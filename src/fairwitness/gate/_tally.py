"""The pieces a comparison is tallied in: per-metric flip counts between paired cases, the
reasons found (by exit code), and floors as the gate reads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from fairwitness.gate._decision import PRECEDENCE
from fairwitness.scoring import Scorer


def good_value(scorer: Scorer) -> float:
    return 1.0 if scorer.higher_is_better else 0.0


def is_bad(value: float, scorer: Scorer) -> bool:
    return value < 1.0 if scorer.higher_is_better else value > 0.0


@dataclass
class Pairs:
    n: int = 0
    regressions: int = 0
    improvements: int = 0
    regressed: list[str] = field(default_factory=list)
    improved: list[str] = field(default_factory=list)


@dataclass
class Flips:
    """What one baseline score map and one candidate score map give, metric by metric."""

    measured: list[str] = field(default_factory=list)
    regressed: list[str] = field(default_factory=list)
    improved: list[str] = field(default_factory=list)


def flips_between(
    before_scores: dict[str, float | None],
    after_scores: dict[str, float | None],
    rules: dict[str, tuple[float, bool]],
) -> Flips:
    pair = Flips()
    for name, before in before_scores.items():
        after = after_scores.get(name)
        if before is None or after is None or name not in rules:
            continue
        good, binary = rules[name]
        pair.measured.append(name)
        if binary and before == good and after != good:
            pair.regressed.append(name)
        elif binary and before != good and after == good:
            pair.improved.append(name)
    return pair


@dataclass
class Reasons:
    invalid: list[str] = field(default_factory=list)
    must_pass: list[str] = field(default_factory=list)
    inconclusive: list[str] = field(default_factory=list)
    regression: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def by_code(self) -> list[tuple[int, list[str]]]:
        return list(
            zip(
                PRECEDENCE,
                (self.invalid, self.must_pass, self.inconclusive, self.regression),
                strict=True,
            )
        )


@dataclass
class Floor:
    metric: str
    kind: Literal["min", "max"]
    value: float
    k: int | None = None
    """Set for a floor on pass^k (``which`` "hat") or pass@k ("at")."""
    which: Literal["hat", "at"] | None = None


__all__ = ["Flips", "Floor", "Pairs", "Reasons", "flips_between", "good_value", "is_bad"]
