"""Statistics for comparing evaluation runs: intervals, exact binomial tails, Holm, Cohen's kappa.

Pure Python on the standard library only, so that fairwitness needs no numeric package at run time.
Every function checks its arguments: a count that is not an integer raises ``TypeError``, any other
bad argument raises ``ValueError`` naming the argument and the value it was given. Functions that
draw random numbers take an explicit ``seed``.

Methods, with the references each function's docstring cites:

- binomial probabilities by Loader's saddle-point expansion (Loader 2000), which keeps full relative
  precision for any ``n`` where the textbook ``lgamma`` formula loses digits to cancellation;
- the regularized incomplete beta function by its continued fraction in the contracted form of
  DiDonato & Morris (1992), evaluated with the modified Lentz method (Lentz 1976; Thompson & Barnett
  1986), with the prefactor computed in log space;
- its inverse by Halley/Newton steps safeguarded by bisection on a bracket that always holds the root;
- Wilson (1927) and Clopper & Pearson (1934) intervals for a proportion;
- McNemar's (1947) test for paired pass/fail outcomes, exact and mid-p (Fagerland, Lydersen & Laake
  2013);
- Holm's (1979) step-down adjustment for multiple tests;
- the percentile bootstrap (Efron & Tibshirani 1993);
- Cohen's (1960) kappa with the large-sample standard error of Fleiss, Cohen & Everitt (1969).
"""

from __future__ import annotations

from fairwitness.stats._agreement import Kappa, cohen_kappa
from fairwitness.stats._beta import betainc, betaincinv, binom_pmf, binom_tail
from fairwitness.stats._intervals import bootstrap_ci, clopper_pearson, normal_quantile, wilson
from fairwitness.stats._significance import HolmResult, holm, mcnemar

__all__ = [
    "HolmResult",
    "Kappa",
    "betainc",
    "betaincinv",
    "binom_pmf",
    "binom_tail",
    "bootstrap_ci",
    "clopper_pearson",
    "cohen_kappa",
    "holm",
    "mcnemar",
    "normal_quantile",
    "wilson",
]
