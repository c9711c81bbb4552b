from __future__ import annotations

import signal
import threading
import time
from typing import Any

import pytest

from fairwitness.scoring._limits import TIMED_OUT, CallLimit


def _sleep_long() -> str:
    time.sleep(30)
    return "late"


def _spin() -> None:
    while True:
        pass


def _swallow() -> str:
    for _ in range(5):
        try:
            time.sleep(30)
        except BaseException:
            continue
    return "gave up swallowing"


def _raise() -> None:
    raise KeyError("flight")


@pytest.mark.parametrize("fn", [_sleep_long, _spin, _swallow])
def test_a_hanging_call_is_cut_off_in_the_main_thread(fn: Any) -> None:
    with CallLimit(0.2) as limit:
        started = time.monotonic()
        ok, value = limit.call(fn)
        took = time.monotonic() - started
        assert (ok, value) == (False, TIMED_OUT)
        assert took < 10  # bounded, not 30 s; never a hang
        # the limit is spent per call: the next call gets its own
        assert limit.call(lambda x: x + 1, 41) == (True, 42)


def test_values_and_exceptions_come_back() -> None:
    with CallLimit(5) as limit:
        assert limit.call(lambda a, b: (a, b), 1, 2) == (True, (1, 2))
        ok, exc = limit.call(_raise)
        assert not ok and isinstance(exc, KeyError)


def test_interrupts_and_exits_are_not_swallowed() -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    with CallLimit(5) as limit, pytest.raises(KeyboardInterrupt):
        limit.call(interrupted)


def test_the_previous_handler_is_put_back_and_no_alarm_is_left() -> None:
    seen: list[int] = []

    def mine(signum: int, frame: object) -> None:
        seen.append(signum)

    before = signal.signal(signal.SIGALRM, mine)
    try:
        with CallLimit(0.05) as limit:
            assert limit.call(lambda: "quick") == (True, "quick")
            assert limit.call(_sleep_long) == (False, TIMED_OUT)
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        time.sleep(0.15)
        assert seen == []  # no alarm from the limit reached the user's handler
    finally:
        signal.signal(signal.SIGALRM, before)


def test_a_late_alarm_after_the_call_returned_is_ignored() -> None:
    with CallLimit(0.05) as limit:
        assert limit.call(lambda: "done") == (True, "done")
        time.sleep(0.15)  # had the timer been left armed, its handler would raise here


def test_off_the_main_thread_a_late_call_is_abandoned_on_its_thread() -> None:
    results: list[tuple[bool, Any]] = []

    def scorer_thread() -> None:
        with CallLimit(0.2) as limit:
            results.append(limit.call(_sleep_long))
            results.append(limit.call(lambda: "next"))
            results.append(limit.call(_raise))

    worker = threading.Thread(target=scorer_thread)
    worker.start()
    worker.join(20)
    assert not worker.is_alive()
    assert results[0] == (False, TIMED_OUT)
    assert results[1] == (True, "next")
    assert not results[2][0] and isinstance(results[2][1], KeyError)


def test_a_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="timeout_s must be positive"):
        CallLimit(0)


def test_a_batch_gives_each_call_its_whole_limit() -> None:
    def nap() -> str:
        time.sleep(0.12)
        return "rested"

    with CallLimit(0.2) as limit:
        started = time.perf_counter()
        outcomes = limit.call_each((nap, nap, _sleep_long, nap), *())
        took = time.perf_counter() - started
    # Two naps use more than the limit together, yet neither is late; the hang is cut off at
    # its own limit, and the call after it still runs.
    assert outcomes == [(True, "rested"), (True, "rested"), (False, TIMED_OUT), (True, "rested")]
    assert took < 2.0
