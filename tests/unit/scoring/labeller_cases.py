"""What the labeller's rule tests share: a case is ``(answer, label, rule or None)``, and
:func:`check` asserts the label and, where one rule must decide, the rule, showing the labeller's
own explanation when either differs."""

from __future__ import annotations

import json
from pathlib import Path

from fairwitness.scoring import analyze_answer, explain_answer

CORPUS = Path(__file__).resolve().parents[2] / "corpus"

Case = tuple[str, str, str | None]


def check(text: str, label: str, rule: str | None) -> None:
    analysis = analyze_answer(text)
    assert analysis.label == label, explain_answer(text)
    if rule is not None:
        assert analysis.rule == rule, explain_answer(text)


def corpus_texts() -> set[str]:
    """Every answer of every labelled corpus, to check that a test's sentences are in none."""
    return {
        json.loads(line)["text"]
        for path in CORPUS.glob("misreport_*.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line
    }
