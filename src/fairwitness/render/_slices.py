"""The rows of "where it got worse, by tag": the gate's tag slices, formatted and escaped.

Tags are dataset text: each is made one line, cut to :data:`TAG_LIMIT` characters and escaped by
the view's ``escape`` before a template sees it. The caption says what the rows are and what
they are not: their p-values are not adjusted for multiple comparisons, and they do not change
the decision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from fairwitness import _format as fmt
from fairwitness.gate import SLICE_MIN_CASES, SLICE_TOP, Decision
from fairwitness.render._escape import plain

TAG_LIMIT: Final = 60
"""Characters of a tag shown; a longer one is cut with an ellipsis."""

Escape = Callable[[object], str]


@dataclass(frozen=True)
class SliceRow:
    """One tag where a gated metric got worse, as shown."""

    metric: str
    tag: str
    n: int
    """Paired cases with the tag."""
    baseline: str
    candidate: str
    change: str
    p: str
    """One-sided, not adjusted for multiple comparisons."""
    test: str


def slice_caption() -> str:
    """What the rows are, in one paragraph (the same in every rendering)."""
    return (
        "For each gated metric that got worse (its per-trial rate fell, or rose for a "
        f"lower-is-better metric such as misreport_as_empty): the {SLICE_TOP} tags (among those "
        f"with at least {SLICE_MIN_CASES} paired cases) where it got worse most, with the mean "
        "per-trial rate over those cases. p: the gate's one-sided paired test on the tag's "
        "cases alone, not adjusted for multiple comparisons (many tags were looked at). These "
        "say where a change is, not whether there is one, and do not change the exit code."
    )


def slice_rows(
    decision: Decision | None, escape: Escape, withheld: Mapping[str, str]
) -> list[SliceRow]:
    """The decision's tag slices as rows, worst first within each metric."""
    if decision is None:
        return []
    rows: list[SliceRow] = []
    for one in decision.slices:
        if one.metric in withheld:
            continue
        p = fmt.p_value(one.p)
        if not one.exact:
            p += f" \u00b1 {one.mc_error:.1g}"
        rows.append(
            SliceRow(
                metric=escape(one.metric),
                tag=escape(plain(one.tag, TAG_LIMIT)),
                n=one.n,
                baseline=fmt.percent(one.baseline),
                candidate=fmt.percent(one.candidate),
                change=fmt.points(one.candidate - one.baseline),
                p=p,
                test="McNemar" if one.test == "mcnemar" else "sign-flip",
            )
        )
    return rows
