"""Statistics benchmarks: the exact binomial tail and McNemar's test, in pure Python.

a. ``binom_tail(10141, 20000)``: P(X >= 10141) for X ~ Binomial(20000, 1/2), the incomplete beta
   branch. Median time of one call, target 1 ms.
b. ``mcnemar(5200, 5000)``: the one-sided mid-p McNemar test on 10,200 discordant pairs. Median time
   of one call, target 1 ms.
c. For reference, when scipy is importable, the same computations with scipy in the same run
   (``scipy.stats.binom.sf`` and ``sf + pmf/2``), and fairwitness's time as a multiple of scipy's
   (informational: scipy is not a dependency of fairwitness).

Each figure is the median over many batches of calls, divided by the batch size. Before timing,
the fairwitness values are checked against scipy's (relative 1e-9) when scipy is there.

Run with ``benchmarks/run --only stats`` (``--quick`` for fewer batches).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from _rows import row

COMMAND = "benchmarks/run --only stats"

TARGET_MS = 1.0
BATCH = 20  # calls per timed batch
BATCHES = 300  # timed batches (median taken)
QUICK_BATCHES = 20
WARMUP_BATCHES = 3

TAIL_K, TAIL_N = 10141, 20000
REGRESSIONS, IMPROVEMENTS = 5200, 5000


def _row(
    figure: str, value: float, unit: str, target: float | None, command: str
) -> dict[str, Any]:
    passed = None if target is None else value <= target
    return row(figure, value, unit, target, passed, command)


def _log(message: str) -> None:
    print(f"  stats: {message}", file=sys.stderr, flush=True)


def _median_ms(call: Callable[[], object], batches: int) -> float:
    """Median time of one call in milliseconds, over ``batches`` batches of ``BATCH`` calls."""
    for _ in range(WARMUP_BATCHES):
        for _ in range(BATCH):
            call()
    per_call: list[float] = []
    for _ in range(batches):
        started = time.perf_counter()
        for _ in range(BATCH):
            call()
        per_call.append((time.perf_counter() - started) / BATCH)
    return statistics.median(per_call) * 1000.0


def collect(*, quick: bool = False) -> list[dict[str, Any]]:
    """Measure the figures above on this machine; one row per figure."""
    from fairwitness.stats import binom_tail, mcnemar

    command = COMMAND + (" --quick" if quick else "")
    batches = QUICK_BATCHES if quick else BATCHES
    how = f"median of {batches} batches of {BATCH} calls"

    ours: dict[str, tuple[str, Callable[[], float]]] = {
        "tail": (
            f"`binom_tail({TAIL_K}, {TAIL_N})`",
            lambda: binom_tail(TAIL_K, TAIL_N),
        ),
        "mcnemar": (
            f"`mcnemar({REGRESSIONS}, {IMPROVEMENTS})` (mid-p)",
            lambda: mcnemar(REGRESSIONS, IMPROVEMENTS),
        ),
    }
    rows: list[dict[str, Any]] = []
    times: dict[str, float] = {}
    for key, (text, call) in ours.items():
        times[key] = _median_ms(call, batches)
        _log(f"{text}: {times[key] * 1000:.1f} us per call ({how})")
        rows.append(_row(f"{text}, one call ({how})", times[key], "ms", TARGET_MS, command))

    try:
        from scipy.stats import binom
    except ImportError:
        _log("scipy is not importable: no reference rows")
        return rows

    d = REGRESSIONS + IMPROVEMENTS
    reference: dict[str, tuple[str, Callable[[], float]]] = {
        "tail": (
            f"`scipy.stats.binom.sf({TAIL_K - 1}, {TAIL_N}, 0.5)`",
            lambda: float(binom.sf(TAIL_K - 1, TAIL_N, 0.5)),
        ),
        "mcnemar": (
            f"mid-p with scipy: `binom.sf({REGRESSIONS}, {d}, 0.5) + binom.pmf(...)/2`",
            lambda: float(binom.sf(REGRESSIONS, d, 0.5) + 0.5 * binom.pmf(REGRESSIONS, d, 0.5)),
        ),
    }
    for key, (text, call) in reference.items():
        expected = call()
        actual = ours[key][1]()
        if abs(actual - expected) > 1e-9 * abs(expected):
            raise RuntimeError(f"{ours[key][0]} = {actual!r} but scipy gives {expected!r}")
        scipy_ms = _median_ms(call, batches)
        _log(f"{text}: {scipy_ms * 1000:.1f} us per call ({how})")
        rows.append(
            _row(
                f"reference, same run: {text}, one call ({how}; informational)",
                scipy_ms,
                "ms",
                None,
                command,
            )
        )
        rows.append(
            _row(
                f"{ours[key][0]} time / scipy's time in the same run (informational)",
                times[key] / scipy_ms,
                "x scipy",
                None,
                command,
            )
        )
    return rows
