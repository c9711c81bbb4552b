"""Calibration of a judge against human labels, and whether its numbers may be published.

Each record pairs the label a human gave an item with the label the judge gave it. From them:

- the confusion matrix, rows the human labels and columns the judge labels, over the union of both
  label sets sorted as strings (an ``unparseable`` reply gets a column of its own and counts as
  disagreement);
- Cohen's kappa with its confidence interval (:func:`fairwitness.stats.cohen_kappa`);
- accuracy (share of items where the judge gave the human label) with a Wilson interval;
- per label: precision = agreed / items the judge gave the label, recall = agreed / items the
  humans gave it, F1 their harmonic mean;
- per-language slices with the same numbers, when any record names its language (records without
  one form a slice of their own, so nothing is silently left out).

What is not estimated is ``None`` with a reason, never 0:

- kappa and accuracy need at least :data:`MIN_ITEMS` items (below that fairwitness prints no
  percentage, and the large-sample interval of kappa is not trustworthy);
- kappa needs at least two distinct human labels: when every human label is the same, kappa is at
  most 0 whatever the judge does, so it would measure nothing about the judge;
- precision is undefined when the judge never gave the label, recall when the humans never did,
  and F1 when either is undefined (it is 0 when both are 0).

Publishing: judge-derived numbers are published only when the lower bound of kappa's interval
reaches the threshold; an unestimated kappa never does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fairwitness._jsonable import fields_data
from fairwitness.judge._prompt import UNPARSEABLE
from fairwitness.stats import Kappa, cohen_kappa, wilson

MIN_ITEMS = 10
"""Fewer items than this: no kappa, no accuracy."""

DEFAULT_THRESHOLD = 0.6
"""The kappa lower bound judge-derived numbers must reach by default ("substantial" agreement in
the usual reading of kappa, required of the pessimistic end of the interval)."""


@dataclass(frozen=True)
class CalibrationRecord:
    """One item labelled by a human and by the judge."""

    id: str
    human: str
    judge: str
    language: str | None = None
    metric: str | None = None
    """The metric the labels are for; one calibration covers one metric."""


@dataclass(frozen=True)
class LabelStats:
    """How well the judge does on one label."""

    label: str
    human: int
    """Items the humans gave this label."""
    judge: int
    """Items the judge gave this label."""
    agreed: int
    """Items both gave this label."""
    precision: float | None
    recall: float | None
    f1: float | None


@dataclass(frozen=True)
class Slice:
    """Agreement within the records of one language (``None``: records that name none)."""

    language: str | None
    n: int
    agreed: int
    accuracy: float | None
    accuracy_ci: tuple[float, float] | None
    kappa: Kappa


@dataclass(frozen=True)
class PublishDecision:
    """Whether judge-derived numbers may be published, and why, in one sentence.

    ``notes`` add what does not change the decision but a reader should know (weak slices,
    unparseable replies). Truthy exactly when publishable.
    """

    publishable: bool
    threshold: float
    reason: str
    notes: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.publishable

    def json_data(self) -> dict[str, Any]:
        """The decision as JSON data, its fields in order."""
        return fields_data(self)


def _percent(confidence: float) -> str:
    return f"{confidence * 100:g}%"


def bound_text(value: float, threshold: float) -> str:
    """``value`` rounded, with as many digits as it takes to stay on its side of ``threshold``."""
    for digits in range(2, 17):
        text = f"{value:.{digits}f}"
        if (float(text) >= threshold) == (value >= threshold):
            return text
    return repr(value)  # pragma: no cover - 16 digits always separate two distinct floats


def check_threshold(threshold: float) -> float:
    """``threshold`` as a float; ``ValueError`` unless it is in (0, 1]."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
        raise ValueError(f"threshold must be a number in (0, 1], got {threshold!r}")
    if not 0.0 < threshold <= 1.0:  # also refuses NaN
        raise ValueError(f"threshold must be in (0, 1], got {threshold!r}")
    return float(threshold)


@dataclass(frozen=True)
class Calibration:
    """Agreement between a judge and human labels; see the module docstring for the rules."""

    n: int
    metric: str | None
    confidence: float
    labels: tuple[str, ...]
    """The union of human and judge labels, sorted; the order of the matrix rows and columns."""
    matrix: tuple[tuple[int, ...], ...]
    """``matrix[i][j]``: items the humans labelled ``labels[i]`` and the judge ``labels[j]``."""
    agreed: int
    accuracy: float | None
    accuracy_ci: tuple[float, float] | None
    kappa: Kappa
    per_label: tuple[LabelStats, ...]
    slices: tuple[Slice, ...]
    """Per language, sorted by language, records without a language last; empty when no record
    names a language."""
    unparseable: int
    """Judge replies that named no label (counted as disagreement)."""
    disagreements: tuple[str, ...]
    """Ids of the items where the judge did not give the human label, in input order."""

    def publishable(self, threshold: float = DEFAULT_THRESHOLD) -> PublishDecision:
        """Judge-derived numbers may be published only when kappa's lower bound >= ``threshold``."""
        threshold = check_threshold(threshold)
        kappa = self.kappa
        level = _percent(self.confidence)
        if kappa.value is None or kappa.ci_low is None:
            reason = (
                f"kappa is not estimated ({kappa.undefined_reason}): "
                "judge-derived numbers are withheld"
            )
            ok = False
        else:
            low = bound_text(kappa.ci_low, threshold)
            ok = kappa.ci_low >= threshold
            verdict = (
                f"reaches {threshold:g}: judge-derived numbers may be published"
                if ok
                else f"is below {threshold:g}: judge-derived numbers are withheld"
            )
            reason = f"kappa {kappa} ({level} interval, n={self.n}): lower bound {low} {verdict}"
        return PublishDecision(ok, threshold, reason, self._notes(threshold))

    def _notes(self, threshold: float) -> tuple[str, ...]:
        notes: list[str] = []
        if self.unparseable:
            replies = "reply" if self.unparseable == 1 else "replies"
            notes.append(
                f"{self.unparseable} judge {replies} named no label (unparseable), "
                "counted as disagreement"
            )
        for part in self.slices:
            name = part.language if part.language is not None else "(none)"
            if part.kappa.value is None:
                notes.append(
                    f"language {name}: kappa not estimated ({part.kappa.undefined_reason})"
                )
            elif part.kappa.value < threshold:
                notes.append(
                    f"language {name}: kappa {part.kappa} (n={part.n}) is below {threshold:g}: "
                    "judge labels in this language are doubtful"
                )
        return tuple(notes)

    def json_data(self) -> dict[str, Any]:
        """Everything, JSON-safe: no NaN, no infinity; unestimated numbers are ``null``. The
        matrix is written as ``confusion`` with its axes named."""
        data = {
            ("confusion" if key == "matrix" else key): (
                {"rows": "human", "columns": "judge", "counts": value} if key == "matrix" else value
            )
            for key, value in fields_data(self).items()
        }
        return {**data, "min_items": MIN_ITEMS}


def confusion_matrix(
    humans: Sequence[str], judges: Sequence[str], labels: Sequence[str]
) -> tuple[tuple[int, ...], ...]:
    """Counts of (human, judge) label pairs, rows and columns in the order of ``labels``."""
    index = {label: i for i, label in enumerate(labels)}
    counts = [[0] * len(labels) for _ in labels]
    for human, judge in zip(humans, judges, strict=True):
        counts[index[human]][index[judge]] += 1
    return tuple(tuple(row) for row in counts)


def _kappa(humans: Sequence[str], judges: Sequence[str], confidence: float) -> Kappa:
    n = len(humans)
    if n < MIN_ITEMS:
        return Kappa(None, None, None, n, f"{n} items, fewer than {MIN_ITEMS}")
    distinct = sorted(set(humans))
    if len(distinct) < 2:
        return Kappa(
            None,
            None,
            None,
            n,
            f"every human label is '{distinct[0]}': one label cannot show agreement beyond chance",
        )
    labels = sorted(set(humans) | set(judges))
    return cohen_kappa(confusion_matrix(humans, judges, labels), confidence)


def _accuracy(
    agreed: int, n: int, confidence: float
) -> tuple[float | None, tuple[float, float] | None]:
    if n < MIN_ITEMS:
        return None, None
    return agreed / n, wilson(agreed, n, confidence)


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _label_stats(label: str, human: int, judge: int, agreed: int) -> LabelStats:
    precision = _ratio(agreed, judge)
    recall = _ratio(agreed, human)
    f1: float | None = None
    if precision is not None and recall is not None:
        f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return LabelStats(label, human, judge, agreed, precision, recall, f1)


def _slice(language: str | None, records: list[CalibrationRecord], confidence: float) -> Slice:
    humans = [r.human for r in records]
    judges = [r.judge for r in records]
    agreed = sum(h == j for h, j in zip(humans, judges, strict=True))
    accuracy, interval = _accuracy(agreed, len(records), confidence)
    return Slice(
        language, len(records), agreed, accuracy, interval, _kappa(humans, judges, confidence)
    )


def calibrate(records: Iterable[CalibrationRecord], *, confidence: float = 0.95) -> Calibration:
    """Agreement between the judge and the humans over ``records``.

    Raises ``ValueError`` for no records, a repeated id, records for more than one metric, or a
    ``confidence`` outside (0, 1).
    """
    items = list(records)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    if not items:
        raise ValueError("no records: there is nothing to calibrate")
    repeated = sorted(i for i, count in Counter(r.id for r in items).items() if count > 1)
    if repeated:
        raise ValueError(f"repeated record ids: {', '.join(repeated)}")
    metrics = {r.metric for r in items}
    if len(metrics) > 1:
        names = ", ".join(sorted(m if m is not None else "(none)" for m in metrics))
        raise ValueError(f"records are for several metrics ({names}): calibrate each on its own")
    humans = [r.human for r in items]
    judges = [r.judge for r in items]
    labels = tuple(sorted(set(humans) | set(judges)))
    matrix = confusion_matrix(humans, judges, labels)
    n = len(items)
    agreed = sum(matrix[i][i] for i in range(len(labels)))
    accuracy, interval = _accuracy(agreed, n, confidence)
    per_label = tuple(
        _label_stats(
            label,
            sum(matrix[i]),
            sum(row[i] for row in matrix),
            matrix[i][i],
        )
        for i, label in enumerate(labels)
    )
    slices: tuple[Slice, ...] = ()
    if any(r.language is not None for r in items):
        groups: dict[str | None, list[CalibrationRecord]] = {}
        for record in items:
            groups.setdefault(record.language, []).append(record)
        order = sorted(groups, key=lambda lang: (lang is None, lang or ""))
        slices = tuple(_slice(lang, groups[lang], confidence) for lang in order)
    return Calibration(
        n=n,
        labels=labels,
        matrix=matrix,
        agreed=agreed,
        accuracy=accuracy,
        accuracy_ci=interval,
        kappa=_kappa(humans, judges, confidence),
        per_label=per_label,
        slices=slices,
        unparseable=sum(j == UNPARSEABLE for j in judges),
        disagreements=tuple(r.id for r in items if r.human != r.judge),
        metric=next(iter(metrics)),
        confidence=float(confidence),
    )
