"""The gate: may this candidate report replace the baseline? One exit code, every reason.

:func:`decide` compares two reports of the same suite case by case. Exit codes, by precedence
(when several apply the first is the exit code; every reason is listed):

- 4 invalid: the reports do not measure the same thing (suite, suite version, split hash,
  labeller patterns version, or models unless allowed), either run is incomplete, a stored number
  disagrees with what the report's own outcomes give (per-case collapsed values are recomputed from
  the repeats, and each metric's k and n from the per-case values), a gated or floored metric is
  unknown (with the closest known name) or missing from a report, a floor is set on a metric the
  candidate did not measure, a floor or an explicit test is set on a judge-derived metric whose
  numbers the candidate withholds, more baseline cases are missing from the candidate than
  allowed, or nothing at all could be gated;
- 2 must-pass failed: a ``must_pass`` case of the candidate has a bad collapsed score, or every
  repeat crashed or timed out (or the case is missing);
- 3 inconclusive: the candidate's unstable share is above ``max_unstable_rate`` (rerun, don't
  blame), or, with ``fail_on_vacuous``, its probe set is blind;
- 1 regression: McNemar's one-sided test on the paired cases of a gated metric, Holm-adjusted over
  all gated metrics, rejects "no drop"; or a floor is breached;
- 0 pass: no regression *detected*. With every gated metric comes the smallest drop the suite
  could have detected with 80% power (Connor's 1987 approximation at one-sided alpha / m, the level
  of Holm's first step over m gated metrics: the conservative choice), because an undetected drop
  is not an absent one.

Judge-derived metrics (the candidate's ``diagnostics.judge``) whose judge is not calibrated are not
tested, get no floor and do not fail must-pass cases; a note says so.
"""

from __future__ import annotations

from fairwitness.gate._audit import Audit, audit_report
from fairwitness.gate._compare import is_bad
from fairwitness.gate._decide import decide, paired_tests
from fairwitness.gate._decision import Decision, MetricDecision, Verdict
from fairwitness.gate._power import POWER, DetectableDrop, detectable_drop
from fairwitness.gate._settings import GateSettings, Test

__all__ = [
    "Audit",
    "Decision",
    "DetectableDrop",
    "GateSettings",
    "MetricDecision",
    "POWER",
    "Test",
    "Verdict",
    "audit_report",
    "decide",
    "detectable_drop",
    "is_bad",
    "paired_tests",
]
