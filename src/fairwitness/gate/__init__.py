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
- 3 inconclusive: the run cannot support the decision asked of it: with ``must_detect`` set, a
  gated metric's detectable drop (below) is larger than that; or the candidate's unstable share
  is above a ``max_unstable_rate`` the user set; or, with ``fail_on_vacuous``, its probe set is
  blind. Instability on its own is reported, never a verdict: noise is handled by the test;
- 1 regression: the one-sided paired test of a gated metric, Holm-adjusted over all gated
  metrics, rejects "no drop"; or a floor (on the headline value, or on ``NAME.pass^K`` /
  ``NAME.pass@K``) is breached. The test is a sign-flip (paired permutation) test on each paired
  case's drop in per-trial success rate, exact by enumeration (seeded Monte Carlo with its
  standard error when that is too large), valid whatever the per-case noise; when every paired
  case has one measured repeat on both sides it is McNemar's test, mid-p or exact. McNemar's test
  on the collapsed outcomes is computed beside it and shown;
- 0 pass: no regression *detected*. With every gated metric comes the smallest drop in its
  per-trial rate the run could have detected with 80% power (a normal approximation to the
  sign-flip test from the run's own mean squared per-case difference, Connor's 1987
  approximation to McNemar's test when k = 1, at one-sided alpha / m, the level of Holm's first
  step over m gated metrics: the conservative choice), because an undetected drop is not an
  absent one.

Values are headline values recomputed from the per-case outcomes: a capability metric's is its
per-trial rate (the mean over cases of each case's share of passing repeats), any other metric's
its collapsed value. A report written before per-trial rates gates against a new one: both keep
every repeat's scores, from which the gate recomputes everything.

Per gated metric that dropped, the decision also lists the tags where it dropped most, each with
the same paired test restricted to the tag's cases, unadjusted (:mod:`fairwitness.gate._slices`);
they are shown, never decided on.

Judge-derived metrics (the candidate's ``diagnostics.judge``) whose judge is not calibrated are not
tested, get no floor and do not fail must-pass cases; a note says so.
"""

from __future__ import annotations

from fairwitness.gate._audit import Audit, audit_report
from fairwitness.gate._decide import decide, paired_tests, rate_test
from fairwitness.gate._decision import Decision, MetricDecision, PassFloor, TagSlice, Verdict
from fairwitness.gate._options import gate_settings, parse_floors
from fairwitness.gate._power import POWER, DetectableDrop, detectable_drop
from fairwitness.gate._rates import RatePairs
from fairwitness.gate._settings import GateSettings, Test
from fairwitness.gate._slices import SLICE_MIN_CASES, SLICE_TOP
from fairwitness.gate._tally import is_bad

__all__ = [
    "Audit",
    "Decision",
    "DetectableDrop",
    "GateSettings",
    "MetricDecision",
    "POWER",
    "PassFloor",
    "RatePairs",
    "SLICE_MIN_CASES",
    "SLICE_TOP",
    "TagSlice",
    "Test",
    "Verdict",
    "audit_report",
    "decide",
    "detectable_drop",
    "gate_settings",
    "is_bad",
    "paired_tests",
    "parse_floors",
    "rate_test",
]
