"""The comparison behind a decision: which metrics, which cases, and every reason found."""

from __future__ import annotations

import difflib
import re
from collections import Counter
from itertools import compress
from operator import attrgetter
from typing import Literal

from fairwitness.gate._audit import BUILTIN, audit_report, id_list
from fairwitness.gate._identity import rescored_gated, rescored_metrics
from fairwitness.gate._rates import RatePairs, base_values, pair_means, pair_rates
from fairwitness.gate._settings import GateSettings
from fairwitness.gate._tally import Floor, Pairs, Reasons, flips_between, good_value, is_bad
from fairwitness.judge import judge_changed, judge_metrics, withheld_metrics
from fairwitness.report import Report, selection_text
from fairwitness.scoring import Scorer

_PASS_K = re.compile(r"^(?P<name>.+)\.pass(?P<which>[\^@])(?P<k>[0-9]+)$")


class ReportComparison:
    """Two reports side by side, with the reasons found so far."""

    def __init__(
        self, baseline: Report, candidate: Report, settings: GateSettings, labels: tuple[str, str]
    ) -> None:
        self.b, self.c, self.settings = baseline, candidate, settings
        self.bl, self.cl = labels
        self.why = Reasons()
        self.b_audit = audit_report(baseline, self.bl)
        self.c_audit = audit_report(candidate, self.cl)
        self.known = sorted(
            set(BUILTIN) | set(baseline.scoring.metrics) | set(candidate.scoring.metrics)
        )
        self.scorers: dict[str, Scorer] = {**self.b_audit.scorers, **self.c_audit.scorers}
        self._pairs: dict[str, Pairs] | None = None
        self._rates: dict[str, RatePairs] = {}
        self._combos: Counter[tuple[tuple[int, int], tuple[int, int]]] | None = None
        b_cases, c_cases = baseline.cases, candidate.cases
        b_ids = list(b_cases)
        # the usual case: the same cases in the same order, paired at C speed
        self._aligned = b_ids == list(c_cases)
        if self._aligned or b_cases.keys() == c_cases.keys():
            self.paired, self.missing, self.new = b_ids, [], []
        else:
            self.paired = [case_id for case_id in b_cases if case_id in c_cases]
            self.missing = [case_id for case_id in b_cases if case_id not in c_cases]
            self.new = [case_id for case_id in c_cases if case_id not in b_cases]
        # judge-derived metrics of the candidate whose judge is not calibrated, with why
        self.withheld = withheld_metrics(candidate.diagnostics)
        # judge-derived metrics scored by different judges in the two reports, with why
        changed = judge_changed(baseline.diagnostics, candidate.diagnostics)
        self.rejudged = (
            dict.fromkeys(judge_metrics(candidate.diagnostics), changed) if changed else {}
        )
        self.rescored = rescored_metrics(self)  # user scorers of another identity, with why

    # -- invalid ----------------------------------------------------------------------------

    def check_compatible(self) -> None:
        b, c = self.b, self.c
        fields = (
            ("suite", b.suite, c.suite),
            ("suite_version", b.suite_version, c.suite_version),
            ("split_hash", b.split_hash, c.split_hash),
            ("selection", selection_text(b), selection_text(c)),
            ("scoring.patterns_version", b.scoring.patterns_version, c.scoring.patterns_version),
            ("scoring.settings", b.scoring.settings, c.scoring.settings),
        )
        for name, ours, theirs in fields:
            if ours != theirs:
                self.why.invalid.append(
                    f"field '{name}' differs: {self.bl} has {ours!r}, {self.cl} has {theirs!r}; "
                    "the reports do not measure the same thing"
                )
        models_b, models_c = sorted(set(b.run.models)), sorted(set(c.run.models))
        if models_b != models_c:
            text = f"field 'run.models' differs: {self.bl} has {models_b}, {self.cl} has {models_c}"
            if self.settings.allow_model_change:
                self.why.notes.append(f"{text}; compared anyway (allow_model_change)")
            else:
                self.why.invalid.append(
                    f"{text}; allow a model change (--allow-model-change) to compare them"
                )
        for report, label in ((b, self.bl), (c, self.cl)):
            if report.shard is not None:
                self.why.invalid.append(
                    f"{label} is shard {report.shard.index}/{report.shard.total} of a sharded "
                    "run (field 'shard'); merge every shard first (fairwitness merge)"
                )
            if not report.complete:
                self.why.invalid.append(
                    f"{label} is incomplete (field 'complete' is false): "
                    f"{report.incomplete_reason or 'no reason given'}; "
                    "the gate compares only complete runs"
                )
        self.why.invalid.extend(self.b_audit.problems + self.c_audit.problems)
        for name in set(self.b_audit.scorers) & set(self.c_audit.scorers) - set(self.rescored):
            before, after = self.b_audit.scorers[name], self.c_audit.scorers[name]
            if (before.kind, before.higher_is_better) != (after.kind, after.higher_is_better):
                self.why.invalid.append(
                    f"metric '{name}' is {before.kind} (higher_is_better "
                    f"{before.higher_is_better}) in {self.bl} but {after.kind} "
                    f"({after.higher_is_better}) in {self.cl}"
                )

    def check_pairing(self) -> None:
        if len(self.missing) > self.settings.max_unpaired:
            self.why.invalid.append(
                f"{len(self.missing)} case(s) of {self.bl} are missing from {self.cl} "
                f"(max_unpaired {self.settings.max_unpaired}): {id_list(self.missing)}"
            )
        elif self.missing:
            self.why.notes.append(
                f"{len(self.missing)} case(s) of {self.bl} are missing from {self.cl}, "
                f"within max_unpaired {self.settings.max_unpaired}: {id_list(self.missing)}"
            )
        if self.new:
            self.why.notes.append(
                f"{len(self.new)} case(s) only in {self.cl}, not compared: {id_list(self.new)}"
            )

    def _unknown(self, name: str, what: str, vocabulary: list[str]) -> None:
        close = difflib.get_close_matches(name, vocabulary, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'?" if close else f"known: {', '.join(vocabulary)}"
        self.why.invalid.append(f"unknown metric '{name}' in {what}; {hint}")

    def _absent(self, name: str, what: str) -> bool:
        """Whether ``name`` is missing from a report's scorer list (and say so)."""
        absent = False
        for report, label in ((self.b, self.bl), (self.c, self.cl)):
            if what == "floors" and report is self.b:
                continue  # a floor reads the candidate only
            if name not in report.scoring.metrics:
                self.why.invalid.append(
                    f"{what} metric '{name}' is not among the scorers of {label} "
                    f"(field 'scoring.metrics')"
                )
                absent = True
        return absent

    def note_withheld(self) -> None:
        """Say which judge-derived metrics the gate leaves alone, and why."""
        names = [name for name in self.withheld if name in self.c.scoring.metrics]
        if names:
            listed = ", ".join(f"'{name}'" for name in names)
            self.why.notes.append(
                f"judge-derived metric(s) {listed} not gated, no floor applied, not counted for "
                f"must-pass cases: {self.cl}'s judge is not calibrated "
                f"(field 'diagnostics.judge'): {self.withheld[names[0]]}"
            )

    def note_rejudged(self) -> None:
        """Say which judge-derived metrics are not compared because the judge changed."""
        names = [name for name in self.rejudged if self._measured_in_both(name)]
        if names and self.settings.gated is None:
            listed = ", ".join(f"'{name}'" for name in names)
            self.why.notes.append(
                f"judge-derived metric(s) {listed} not compared: {self.rejudged[names[0]]} "
                "(field 'diagnostics.judge.judge')"
            )

    def _withheld(self, name: str, what: str, fix: str) -> None:
        self.why.invalid.append(
            f"{what} '{name}' is judge-derived and its numbers are withheld in {self.cl} "
            f"(field 'diagnostics.judge': {self.withheld[name]}); {fix}"
        )

    # -- metrics ----------------------------------------------------------------------------

    def pairs(self, name: str) -> Pairs:
        """Paired cases measured in both reports for ``name``, and which of them flipped."""
        if self._pairs is None:
            self._pairs = self._count_pairs()
        return self._pairs.get(name, Pairs())

    def _count_pairs(self) -> dict[str, Pairs]:
        """Every metric's pairs in one pass over the paired cases.

        Paired cases whose two score maps are the very same objects as another pair's (a large
        report read light shares identical maps) count alike: each combination is worked out
        once and counted; only the cases that flipped are listed one by one, in dataset order."""
        rules = {
            name: (good_value(scorer), scorer.kind != "continuous")
            for name, scorer in self.scorers.items()
        }
        scores = attrgetter("scores")
        if self._aligned:
            before = list(map(scores, self.b.cases.values()))
            after = list(map(scores, self.c.cases.values()))
        else:
            before = list(map(scores, map(self.b.cases.__getitem__, self.paired)))
            after = list(map(scores, map(self.c.cases.__getitem__, self.paired)))
        # the maps are held in the two lists, so their ids stay theirs
        keys = list(zip(map(id, before), map(id, after), strict=True))
        flips = {
            key: flips_between(b, a, rules)
            for key, (b, a) in dict(zip(keys, zip(before, after, strict=True), strict=True)).items()
        }
        found = {name: Pairs() for name in rules}
        for key, count in Counter(keys).items():
            for name in flips[key].measured:
                found[name].n += count
        flipped = {key for key, pair in flips.items() if pair.regressed or pair.improved}
        for case_id, key in compress(
            zip(self.paired, keys, strict=True), map(flipped.__contains__, keys)
        ):
            for name in flips[key].regressed:
                found[name].regressions += 1
                found[name].regressed.append(case_id)
            for name in flips[key].improved:
                found[name].improvements += 1
                found[name].improved.append(case_id)
        return found

    def rate_pairs(self, name: str) -> RatePairs:
        """The per-case success shares of ``name`` over the cases measured in both reports."""
        found = self._rates.get(name)
        if found is None:
            found = self._rates[name] = self._rate_pairs(name)
        return found

    def _rate_pairs(self, name: str) -> RatePairs:
        scorer = self.scorers[name]
        if scorer.kind == "continuous":
            return pair_means(scorer, base_values(self.b, self.c, self.paired, name))
        if self._combos is None:
            b_keys, c_keys = self.b_audit.case_keys, self.c_audit.case_keys
            if self._aligned:
                self._combos = Counter(zip(b_keys, c_keys, strict=True))
            else:
                b_of = dict(zip(self.b.cases, b_keys, strict=True))
                c_of = dict(zip(self.c.cases, c_keys, strict=True))
                self._combos = Counter((b_of[case_id], c_of[case_id]) for case_id in self.paired)
        return pair_rates(
            name, scorer, self._combos, self.b_audit.successes, self.c_audit.successes
        )

    def _measured_in_both(self, name: str) -> bool:
        return name in self.b_audit.scorers and name in self.c_audit.scorers

    def gated(self) -> list[str]:
        wanted = self.settings.gated
        if wanted is None:
            return [
                name
                for name in self.b.scoring.metrics
                if self._measured_in_both(name)
                and name not in self.withheld
                and name not in self.rejudged
                and name not in self.rescored
                and self.scorers[name].kind != "continuous"
                and self.pairs(name).n > 0
            ]
        chosen: list[str] = []
        for name in wanted:
            if name not in self.known:
                self._unknown(name, "the gated metrics (--metric)", self.known)
            elif self._absent(name, "gated") or not self._measured_in_both(name):
                continue
            elif name in self.withheld:
                self._withheld(
                    name,
                    "gated metric",
                    "a test that cannot be run must not pass: calibrate the judge or stop gating it",
                )
            elif name in self.rescored:
                self.why.invalid.append(rescored_gated(name, self.rescored[name]))
            elif name in self.rejudged:
                self.why.invalid.append(
                    f"gated metric '{name}' is judge-derived and {self.rejudged[name]}: a paired "
                    "test across two judges measures the judges, not the agent; rerun the "
                    "baseline with this judge, or stop gating it"
                )
            elif self.rate_pairs(name).outside is not None:
                self.why.invalid.append(
                    f"gated metric '{name}' is continuous with a per-trial value of "
                    f"{self.rate_pairs(name).outside:g}, outside [0, 1]: the paired test on "
                    "per-case means needs values between 0 and 1 (set a floor on it instead)"
                )
            elif self.pairs(name).n == 0:
                self.why.invalid.append(
                    f"gated metric '{name}' has no case measured in both reports: "
                    "nothing to compare"
                )
            else:
                chosen.append(name)
        return chosen

    def floors(self) -> list[Floor]:
        vocabulary = sorted(self._floor_key(name) for name in self.known)
        found: list[Floor] = []
        for key, value in self.settings.floors.items():
            kind: Literal["min", "max"]
            reliability = _PASS_K.match(key)
            if reliability is not None and reliability["name"] in self.known:
                floor = self._pass_floor(key, reliability, value)
                if floor is not None:
                    found.append(floor)
                continue
            if key in self.known:
                name, kind = key, "min"
            elif key.endswith("_max") and key[: -len("_max")] in self.known:
                name, kind = key[: -len("_max")], "max"
            else:
                self._unknown(key, "the floors (--floor)", vocabulary)
                continue
            if self._floor_withheld(key, name):
                continue
            if self._absent(name, "floors") or name not in self.c_audit.scorers:
                continue
            scorer = self.c_audit.scorers[name]
            if kind == "min" and not scorer.higher_is_better:
                self.why.invalid.append(
                    f"floor '{key}': '{name}' is lower-is-better, so its bound is a maximum: "
                    f"write it as '{name}_max'"
                )
                continue
            if kind == "max" and scorer.higher_is_better:
                self.why.invalid.append(
                    f"floor '{key}': '{name}' is higher-is-better, so its bound is a minimum: "
                    f"write it as '{name}'"
                )
                continue
            if scorer.kind != "continuous" and not 0.0 <= value <= 1.0:
                self.why.invalid.append(
                    f"floor '{key}' = {value:g} is not a proportion between 0 and 1"
                )
                continue
            if self.c_audit.totals[name][1] == 0:
                self.why.invalid.append(
                    f"floor '{key}': '{name}' was not measured in {self.cl} (n = 0); "
                    "nothing measured cannot pass a floor"
                )
                continue
            found.append(Floor(name, kind, value))
        return found

    def _floor_withheld(self, key: str, name: str) -> bool:
        """Whether floor ``key`` names a metric whose numbers the candidate withholds (and say so)."""
        if name not in self.withheld:
            return False
        self._withheld(
            name,
            f"floor '{key}': metric",
            "a floor that cannot be checked must not pass: calibrate the judge or remove the floor",
        )
        return True

    def _pass_floor(self, key: str, match: re.Match[str], value: float) -> Floor | None:
        name, k = match["name"], int(match["k"])
        which: Literal["hat", "at"] = "hat" if match["which"] == "^" else "at"
        if self._floor_withheld(key, name):
            return None
        if self._absent(name, "floors") or name not in self.c_audit.scorers:
            return None
        if self.c_audit.scorers[name].kind != "capability":
            self.why.invalid.append(
                f"floor '{key}': pass^k and pass@k are defined for capability metrics; "
                f"'{name}' is a {self.c_audit.scorers[name].kind} metric"
            )
            return None
        if k < 1 or not 0.0 <= value <= 1.0:
            self.why.invalid.append(
                f"floor '{key}' = {value:g}: k must be 1 or more and the floor a proportion "
                "between 0 and 1"
            )
            return None
        if self.c_audit.pass_k(name, k, which)[1] == 0:
            self.why.invalid.append(
                f"floor '{key}': no case of {self.cl} has {k} or more measured repeats of "
                f"'{name}'; run with repeats >= {k} to check it"
            )
            return None
        return Floor(name, "min", value, k, which)

    def _floor_key(self, name: str) -> str:
        scorer = self.scorers.get(name) or BUILTIN.get(name)
        return name if scorer is None or scorer.higher_is_better else f"{name}_max"

    # -- verdict-level checks ---------------------------------------------------------------

    def check_must_pass(self) -> None:
        failed: list[str] = []
        for case_id, case in self.c.cases.items():
            if not case.must_pass:
                continue
            bad = [
                name
                for name, value in case.scores.items()
                if value is not None
                and name not in self.withheld
                and name in self.c_audit.scorers
                and is_bad(value, self.c_audit.scorers[name])
            ]
            base = [outcome for outcome in case.repeats if outcome.variant == "base"]
            if all(outcome.status != "ok" for outcome in base):
                bad.append(f"all {len(base)} repeats crashed or timed out")
            if bad:
                failed.append(f"{case_id} ({', '.join(bad)})")
        gone = [cid for cid in self.missing if self.b.cases[cid].must_pass]
        failed.extend(f"{case_id} (not in the candidate)" for case_id in gone)
        if failed:
            self.why.must_pass.append(
                f"{len(failed)} must-pass case(s) failed in {self.cl}: {id_list(failed)}"
            )

    def check_stability(self) -> None:
        stability = self.c.stability
        share, limit = stability.unstable_share, self.settings.max_unstable_rate
        if share is not None and limit is not None and share > limit:
            self.why.inconclusive.append(
                f"{share:.1%} of the cases of {self.cl} are unstable ({stability.unstable_cases} "
                f"of {stability.measured_cases}, field 'stability.unstable_share'), above the "
                f"max_unstable_rate {limit:.1%} set for this gate"
            )
        blindness = self.c.diagnostics.blindness
        if self.settings.fail_on_vacuous and blindness is not None and blindness.blind:
            self.why.inconclusive.append(
                f"{self.cl}: the probe set is blind (field 'diagnostics.blindness.blind'; "
                f"{blindness.skew or 0.0:.0%} of verdicts '{blindness.top}'), so "
                "green results may be vacuous (fail_on_vacuous)"
            )
