"""What the labeller's rule tests share: a case is ``(answer, label, rule or None)``, and
:func:`check` asserts the label and, where one rule must decide, the rule, showing the labeller's
own explanation when either differs."""

from __future__ import annotations

from fairwitness.scoring import analyze_answer, explain_answer

Case = tuple[str, str, str | None]


def check(text: str, label: str, rule: str | None) -> None:
    analysis = analyze_answer(text)
    assert analysis.label == label, explain_answer(text)
    if rule is not None:
        assert analysis.rule == rule, explain_answer(text)
