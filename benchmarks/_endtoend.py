"""The real gate on stochastic agents, end to end: reports built by the pipeline (Runner,
ScoreBoard, build_report) from seeded draws, decided by :func:`fairwitness.gate.decide` with
its default settings.

The agent has one gated capability metric. Per replication, 50 cases each get a latent success
probability p_i from the ``flaky fifth`` noise level of :mod:`_stochastic` (a fifth of the cases
near 0.5; mean 0.85), and every trial succeeds independently with probability p_i.

a. Self-comparison: each case is run four times; repeats 0-1 make the baseline report and repeats
   2-3 the candidate (two repeats each), the same agent on both sides. The gate should pass (exit
   0) in at least 95% of replications: the figure is the share that did not, target 5% plus two
   Monte Carlo s.e. of a rate of 5%. Beside it (informational): how often the candidate's unstable
   share is above 0.10, the limit that used to make the gate inconclusive (exit 3) on its own, as
   ``decide`` with ``max_unstable_rate=0.10`` confirms.
b. A real drop: the candidate's p_i are cut to p_i (1 - 0.20 / 0.85), a 20-point per-trial drop, on
   50 cases x 2 repeats per side. The gate should fail (exit 1) in at least 80% of replications:
   the figure is the share that did not, target 20% plus two Monte Carlo s.e. of a rate of 20%.
"""

from __future__ import annotations

import asyncio
import math
import random
import sys
import time
import zlib
from collections import Counter
from fractions import Fraction
from typing import Any

from _rows import row
from _stochastic import BY_NAME, MEAN, Level

CASES = 50
REPEATS = 2
LEVEL = "flaky fifth"
DROP = Fraction(20, 100)
OLD_UNSTABLE_LIMIT = 0.10
SEED = 20240902
REPLICATIONS = {"self": 2_000, "drop": 1_000}
QUICK_REPLICATIONS = {"self": 20, "drop": 20}
PASS_TARGET = 0.05  # share of self-comparisons that may fail to pass
CATCH_TARGET = 0.20  # share of real drops that may go uncaught

Outcomes = list[list[bool]]  # per case, per repeat: passed?


def _log(message: str) -> None:
    print(f"  gate (end to end): {message}", file=sys.stderr, flush=True)


def report(outcomes: Outcomes) -> Any:
    """A report built by the pipeline from per-case, per-repeat outcomes of one metric."""
    from fairwitness import Case, Dataset, Runner
    from fairwitness.report import build_report
    from fairwitness.scoring import ScoreBoard, Scorer, TrialScore
    from fairwitness.trace import current

    data = Dataset([Case(id=f"c{i:03d}", input=str(i)) for i in range(len(outcomes))])
    by_id = {f"c{i:03d}": found for i, found in enumerate(outcomes)}
    repeats = len(outcomes[0])

    async def target(case: Case) -> dict[str, str]:
        passed = by_id[case.id][current().repeat]
        return {"text": "1" if passed else "0", "verdict": "done"}

    def score(trace: Any, case: Any, settings: Any) -> TrialScore:
        return TrialScore(1.0 if trace.answer == "1" else 0.0)

    class Sink:
        lines = 0

        def write(self, trace: Any) -> int:
            self.lines += 1
            return self.lines

    board = ScoreBoard((Scorer("solved", "capability", True, "simulated agent", score),))
    result = asyncio.run(
        Runner(target, suite="stochastic", repeats=repeats, concurrency=1, scoring=board).run(
            data, Sink()
        )
    )
    return build_report(
        result,
        data,
        board=board,
        target="bench:stochastic",
        seed=0,
        repeats=repeats,
        concurrency=1,
        timeout_s=None,
        mode="live",
    )


def _trials(rng: random.Random, probabilities: list[float], repeats: int) -> Outcomes:
    return [[rng.random() < p for _ in range(repeats)] for p in probabilities]


def _rng(*parts: object) -> random.Random:
    return random.Random(zlib.crc32(repr((SEED, *parts)).encode()))


def self_comparison(level: Level, replications: int) -> tuple[Counter[int], int, int]:
    """Exit codes of the default gate; replications with an unstable share above the old limit,
    and those in which ``decide`` with that limit exits 3."""
    from fairwitness.gate import GateSettings, decide

    rng = _rng("self", level.name)
    exits: Counter[int] = Counter()
    unstable = old_exit = 0
    old = GateSettings(max_unstable_rate=OLD_UNSTABLE_LIMIT)
    for _ in range(replications):
        probabilities = [level.draw(rng) for _ in range(CASES)]
        trials = _trials(rng, probabilities, 2 * REPEATS)
        before = report([case[:REPEATS] for case in trials])
        after = report([case[REPEATS:] for case in trials])
        exits[decide(before, after).exit_code] += 1
        share = after.stability.unstable_share
        unstable += share is not None and share > OLD_UNSTABLE_LIMIT
        old_exit += decide(before, after, old).exit_code == 3
    return exits, unstable, old_exit


def real_drop(level: Level, replications: int) -> Counter[int]:
    from fairwitness.gate import decide

    rng = _rng("drop", level.name)
    cut = float(1 - DROP / MEAN)
    exits: Counter[int] = Counter()
    for _ in range(replications):
        probabilities = [level.draw(rng) for _ in range(CASES)]
        before = report(_trials(rng, probabilities, REPEATS))
        after = report(_trials(rng, [p * cut for p in probabilities], REPEATS))
        exits[decide(before, after).exit_code] += 1
    return exits


def _se(rate: float, replications: int) -> float:
    return math.sqrt(rate * (1.0 - rate) / replications)


def _codes(exits: Counter[int]) -> str:
    return ", ".join(f"exit {code}: {count}" for code, count in sorted(exits.items()))


def collect(*, quick: bool, command: str) -> list[dict[str, Any]]:
    level = BY_NAME[LEVEL]
    size = QUICK_REPLICATIONS if quick else REPLICATIONS
    selves, drops = size["self"], size["drop"]
    started = time.perf_counter()
    exits, unstable, old_exit = self_comparison(level, selves)
    _log(f"self-comparison: {_codes(exits)} in {time.perf_counter() - started:.1f}s")
    started = time.perf_counter()
    dropped = real_drop(level, drops)
    _log(f"real drop: {_codes(dropped)} in {time.perf_counter() - started:.1f}s")

    setting = (
        f"{CASES} cases, {level.label()}, one gated capability metric, default gate settings "
        f"(mid-p, alpha 0.05), reports built by Runner, ScoreBoard and build_report and "
        f"decided by decide()"
    )
    failed = 1.0 - exits[0] / selves
    pass_limit = PASS_TARGET + 2.0 * _se(PASS_TARGET, selves)
    missed = 1.0 - dropped[1] / drops
    catch_limit = CATCH_TARGET + 2.0 * _se(CATCH_TARGET, drops)
    share, old_share = unstable / selves, old_exit / selves
    return [
        row(
            f"end to end, self-comparison of a stochastic agent (each case run 4 times, repeats "
            f"0-1 the baseline and 2-3 the candidate): share of replications in which the gate "
            f"did not pass, i.e. not exit 0 ({setting}; {selves:,} seeded replications; exit 0 "
            f"in {exits[0] / selves:.1%}; {_codes(exits)}; ±{100 * _se(failed, selves):.2f} pts "
            f"Monte Carlo s.e.; target 5% plus 2 Monte Carlo s.e.)",
            100.0 * failed,
            "%",
            round(100.0 * pass_limit, 4),
            failed <= pass_limit,
            command,
        ),
        row(
            f"end to end, the same self-comparisons: share in which the candidate's unstable "
            f"share is above {OLD_UNSTABLE_LIMIT:.2f}, the limit that used to make the gate "
            f"inconclusive (exit 3) whatever the test said (decide() with max_unstable_rate "
            f"{OLD_UNSTABLE_LIMIT:g} exits 3 in {old_share:.1%}; "
            f"±{100 * _se(share, selves):.2f} pts Monte Carlo s.e.; informational)",
            100.0 * share,
            "%",
            None,
            None,
            command,
        ),
        row(
            f"end to end, a 20-point per-trial drop (every p_i cut by the same share, 0.85 to "
            f"0.65), {REPEATS} repeats per side: share of replications in which the gate did not "
            f"report the regression, i.e. not exit 1 ({setting}; {drops:,} seeded replications; "
            f"exit 1 in {dropped[1] / drops:.1%}; {_codes(dropped)}; "
            f"±{100 * _se(missed, drops):.2f} pts Monte Carlo s.e.; target 20% plus 2 Monte "
            f"Carlo s.e.)",
            100.0 * missed,
            "%",
            round(100.0 * catch_limit, 4),
            missed <= catch_limit,
            command,
        ),
    ]
