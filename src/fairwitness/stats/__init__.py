"""Statistics for comparing evaluation runs: intervals, exact binomial tails, Holm, Cohen's kappa,
and rates over repeated trials.

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
- Cohen's (1960) kappa with the large-sample standard error of Fleiss, Cohen & Everitt (1969);
- for repeated trials of a case: pass^k (Yao et al. 2024) and pass@k (Chen et al. 2021), Wilson's
  interval at the effective sample size of a mean of per-case rates (Kish 1965), the paired
  sign-flip test of a drop (Fisher 1935; Phipson & Smyth 2010 for its Monte Carlo form) and its
  detectable drop by Connor's (1987) normal approximation.
"""

from __future__ import annotations

from fairwitness.stats._agreement import Kappa, cohen_kappa
from fairwitness.stats._beta import betainc, betaincinv, binom_pmf, binom_tail
from fairwitness.stats._intervals import bootstrap_ci, clopper_pearson, normal_quantile, wilson
from fairwitness.stats._rates import case_mean_interval, pass_at_k, pass_hat_k
from fairwitness.stats._signflip import SignFlip, cases_needed, rate_detectable_drop, sign_flip
from fairwitness.stats._significance import HolmResult, holm, mcnemar

__all__ = [
    "HolmResult",
    "Kappa",
    "SignFlip",
    "betainc",
    "betaincinv",
    "binom_pmf",
    "binom_tail",
    "bootstrap_ci",
    "case_mean_interval",
    "cases_needed",
    "clopper_pearson",
    "cohen_kappa",
    "holm",
    "mcnemar",
    "normal_quantile",
    "pass_at_k",
    "pass_hat_k",
    "rate_detectable_drop",
    "sign_flip",
    "wilson",
]
