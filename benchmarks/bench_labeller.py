"""The misreport labeller on the labelled corpora in tests/corpus/: precision and recall of
``misreport``, per corpus, against the 0.95 target.

Rows report the error rate (1 - precision, 1 - recall) next to the allowed error rate (0.05), so
the ratio reads like every other row: at or under 1.00x meets the target.

- ``misreport_answers.jsonl``: the development corpus the patterns were written against;
- ``misreport_heldout.jsonl`` and ``misreport_heldout2.jsonl``: written later, independently of the
  patterns; each was first scored untouched (the figures in tests/corpus/README.md) and then
  used to generalise the patterns;
- ``misreport_heldout3.jsonl``: never used to change the patterns: the honest figure.
- ``misreport_heldout4.jsonl``: frozen (its sha256 is in tests/corpus/README.md), written to a
  different brief in many styles, and never used to tune: reported apart, per language, with
  Wilson intervals for precision, recall and the share of acknowledged answers labelled
  misreport (the false alarm a user would see).
- ``misreport_heldout5.jsonl``: frozen (its sha256 is in its .md), 715 answers written in a
  production register (support bots, coding assistants, public services; many styles, regional
  variants) to a brief of its own, and never used to tune: the corpus the targets are held to,
  precision and recall of ``misreport`` at least 0.95 overall and 0.90 in every language, each
  language's pair as rows of their own beside the informational row with Wilson intervals.
- ``misreport_heldout6.jsonl``: frozen (its sha256 is in its .md), 678 answers in the register of
  tool-calling agents' final messages, written before fw-labeller/8 was finished and checked by a
  second annotator; held to the same targets as heldout5.
- ``misreport_heldout7.jsonl``: frozen (its sha256 is in its .md), 661 conversation turns (voice,
  messaging, follow-ups, long chatty answers; 8 real recorded answers), written before
  fw-labeller/10's reader was finished and checked by a second annotator; held to the same
  targets. For each frozen corpus a row also counts the answers the statistical reader decided
  (rules ``reader_absence`` and ``reader_failure``), the rule misreports beside a failure it
  overruled (``reader_overruled_absence``), and how many of those it got right.
- ``misreport_heldout8.jsonl``: frozen (its sha256 is in its .md), written correspondence and
  end-of-task reports (emails, digests, notices, shown reasoning, hand-offs) by authors who never
  saw the labeller, committed before fw-labeller/11 was first scored on it and checked by a
  second annotator; held to the same targets.
- ``misreport_heldout9.jsonl``: frozen (its sha256 is in its .md), the Hindi and Spanish parts of
  heldout8's brief (written blind, second-annotated) and two real recorded answers, committed
  before any version was scored on it; held to the same targets.
- ``misreport_heldout10.jsonl``: frozen (its sha256 is in its .md), plain-language, relayed and
  calibrated answers in all seven languages, written blind and second-annotated while
  fw-labeller/12 was finished, committed before any version was scored on it; held to the same
  targets.
- ``misreport_heldout11.jsonl``: frozen (its sha256 is in its .md), the Spanish and Portuguese
  part of heldout10's brief, second-annotated after heldout10 was frozen, committed before any
  version was scored on it; held to the same targets.
- ``misreport_heldout12.jsonl``: frozen (its sha256 is in its .md), answers of small and badly
  prompted models and of agent-framework templates, in all seven languages, written blind and
  second-annotated while fw-labeller/13 was written, committed before any version was scored on
  it; held to the same targets.
- ``misreport_heldout13.jsonl``: frozen (its sha256 is in its .md), answers of assistants in
  regulated domains wrapped in compliance language, in all seven languages, written blind and
  second-annotated after fw-labeller/14 was finished, committed before any version was scored on
  it; held to the same targets.
- ``misreport_heldout14.jsonl``: frozen (its sha256 is in its .md), answers of internal data and
  operations agents at work (chat replies, tables, pasted query output), in all seven languages,
  written blind and second-annotated while fw-labeller/15 was written, committed before any
  version was scored on it; held to the same targets.
- ``misreport_tuning5.jsonl``, ``misreport_tuning6.jsonl`` and ``misreport_tuning8.jsonl``: tuning
  corpora of fw-labeller/5, /6 and /8: also per language (tuning figures, not estimates).

Run with ``benchmarks/run --only labeller``.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

COMMAND = "benchmarks/run --only labeller"
CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"
TARGET = 0.95
FROZEN = (
    "misreport_heldout4.jsonl",
    "misreport_heldout5.jsonl",
    "misreport_heldout6.jsonl",
    "misreport_heldout7.jsonl",
    "misreport_heldout8.jsonl",
    "misreport_heldout9.jsonl",
    "misreport_heldout10.jsonl",
    "misreport_heldout11.jsonl",
    "misreport_heldout12.jsonl",
    "misreport_heldout13.jsonl",
    "misreport_heldout14.jsonl",
)
"""Held-out corpora never used to tune the labeller."""
HELD_TO_TARGET = (
    "misreport_heldout5.jsonl",
    "misreport_heldout6.jsonl",
    "misreport_heldout7.jsonl",
    "misreport_heldout8.jsonl",
    "misreport_heldout9.jsonl",
    "misreport_heldout10.jsonl",
    "misreport_heldout11.jsonl",
    "misreport_heldout12.jsonl",
    "misreport_heldout13.jsonl",
    "misreport_heldout14.jsonl",
)
"""The frozen corpora the per-language target is held to."""
LANGUAGE_TARGET = 0.90
PER_LANGUAGE = (
    *FROZEN,
    "misreport_tuning5.jsonl",
    "misreport_tuning6.jsonl",
    "misreport_tuning8.jsonl",
)
"""Corpora scored per language as well."""


def _share(k: int, n: int) -> str:
    from fairwitness.stats import wilson

    if n == 0:
        return "not measured"
    low, high = wilson(k, n)
    return f"{k / n:.3f} [{low:.3f}, {high:.3f}] ({k}/{n})"


def _per_language(path: Path) -> list[dict[str, Any]]:
    from fairwitness.scoring import PATTERNS_VERSION, label_answer

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    tallies: dict[str, Counter[tuple[str, str]]] = {}
    for row in rows:
        got = label_answer(row["text"])
        for key in (row["lang"], "all"):
            tallies.setdefault(key, Counter())[(row["label"], got)] += 1
    out: list[dict[str, Any]] = []
    kind = "frozen" if path.name in FROZEN else "tuning corpus"
    for lang in sorted(tallies, key=lambda key: (key == "all", key)):
        c = tallies[lang]
        tp = c[("misreport", "misreport")]
        said = sum(n for (_, got), n in c.items() if got == "misreport")
        gold = sum(n for (label, _), n in c.items() if label == "misreport")
        acknowledged = sum(n for (label, _), n in c.items() if label == "acknowledged")
        alarms = c[("acknowledged", "misreport")]
        if not said and not gold:
            continue
        out.append(
            {
                "figure": (
                    f"labeller {PATTERNS_VERSION} on the {kind} {path.name}, language {lang}: "
                    f"precision of misreport {_share(tp, said)}, recall {_share(tp, gold)}, "
                    f"acknowledged answers labelled misreport {_share(alarms, acknowledged)} "
                    "(95% Wilson intervals; informational: recall shown as the value)"
                ),
                "value": round(tp / gold, 4) if gold else float("nan"),
                "unit": "",
                "target": None,
                "ratio": None,
                "passed": None,
                "command": COMMAND,
            }
        )
        if path.name in HELD_TO_TARGET and lang not in ("all", "other"):
            for name, k, n in (("precision", tp, said), ("recall", tp, gold)):
                value = k / n if n else 0.0
                figure = (
                    f"labeller {PATTERNS_VERSION} {name} of misreport on the frozen "
                    f"{path.name}, language {lang}: {value:.3f} ({k}/{n}), error rate "
                    f"(target {LANGUAGE_TARGET:.2f} in every language)"
                )
                out.append(_error_row(figure, value, LANGUAGE_TARGET))
    return out


def _reader_row(path: Path) -> dict[str, Any]:
    """How many answers of a frozen corpus the statistical reader decided, and how many right."""
    from fairwitness.scoring import PATTERNS_VERSION
    from fairwitness.scoring.misreport import analyze_answer

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    decided: Counter[tuple[str, bool]] = Counter()
    for row in rows:
        analysis = analyze_answer(row["text"])
        if analysis.rule.startswith("reader_"):
            kind = "overruled" if analysis.rule == "reader_overruled_absence" else analysis.label
            decided[(kind, row["label"] == analysis.label)] += 1
    parts = [
        f"{label} {decided[(label, True)]} right of {decided[(label, True)] + decided[(label, False)]}"
        for label in ("misreport", "acknowledged")
    ]
    overruled = decided[("overruled", True)] + decided[("overruled", False)]
    return {
        "figure": (
            f"labeller {PATTERNS_VERSION} on the frozen {path.name}: answers no rule read that the "
            f"statistical reader labelled: {', '.join(parts)}; rule misreports beside a failure it "
            f"read as acknowledgements: {decided[('overruled', True)]} right of {overruled} "
            "(informational; value: all it labelled)"
        ),
        "value": sum(decided.values()),
        "unit": "answers",
        "target": None,
        "ratio": None,
        "passed": None,
        "command": COMMAND,
    }


def _error_row(figure: str, value: float, target: float) -> dict[str, Any]:
    """A precision or recall as its error rate against the allowed one, so the ratio reads like
    every other row's (at or under 1.00x meets it)."""
    error = 1 - value
    return {
        "figure": figure,
        "value": round(error, 4),
        "unit": "",
        "target": round(1 - target, 4),
        "ratio": round(error / (1 - target), 4),
        "passed": value >= target,
        "command": COMMAND,
    }


def _score(path: Path) -> tuple[float, float, int, float]:
    from fairwitness.scoring import label_answer

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    confusion: Counter[tuple[str, str]] = Counter()
    started = time.perf_counter()
    for row in rows:
        confusion[(row["label"], label_answer(row["text"]))] += 1
    per_answer_ms = (time.perf_counter() - started) * 1000 / len(rows)
    tp = confusion[("misreport", "misreport")]
    fp = sum(
        n for (gold, got), n in confusion.items() if got == "misreport" and gold != "misreport"
    )
    fn = sum(
        n for (gold, got), n in confusion.items() if gold == "misreport" and got != "misreport"
    )
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, len(rows), per_answer_ms


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    from fairwitness.scoring import PATTERNS_VERSION

    rows: list[dict[str, Any]] = []
    for path in sorted(CORPUS.glob("misreport_*.jsonl")):
        precision, recall, n, per_answer_ms = _score(path)
        for name, value in (("precision", precision), ("recall", recall)):
            figure = (
                f"labeller {PATTERNS_VERSION} {name} of misreport on {path.name} "
                f"({n} answers): {value:.3f}, error rate"
            )
            rows.append(_error_row(figure, value, TARGET))
        if path.name in PER_LANGUAGE:
            rows.extend(_per_language(path))
        if path.name in FROZEN:
            rows.append(_reader_row(path))
        rows.append(
            {
                "figure": f"labeller time per answer on {path.name}",
                "value": round(per_answer_ms, 4),
                "unit": "ms",
                "target": None,
                "ratio": None,
                "passed": None,
                "command": COMMAND,
            }
        )
    return rows
