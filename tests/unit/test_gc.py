"""The command line's setting of the garbage collector: tuned while a command runs, paused for the
commands that only read and write files, and put back as it was afterwards."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairwitness._gc import READ_ONLY, YOUNG_THRESHOLD, collector_for
from fairwitness.cli import ROUTES, main


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    yield
    gc.set_threshold(*thresholds)
    if enabled:
        gc.enable()


def test_a_read_only_command_pauses_the_collector_and_gives_it_back() -> None:
    gc.enable()
    gc.set_threshold(700, 10, 10)
    with collector_for("gate"):
        assert not gc.isenabled()
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
    assert gc.isenabled() and gc.get_threshold() == (700, 10, 10)


def test_a_command_that_runs_user_code_keeps_collecting_cycles() -> None:
    gc.enable()
    with collector_for("run"):
        assert gc.isenabled()
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD
        # a cycle an agent's SDK might leave is still freed
        collected_before = gc.get_stats()[0]["collected"]
        for _ in range(YOUNG_THRESHOLD // 2):
            node: list[object] = []
            node.append(node)
        del node
        gc.collect(0)
        assert gc.get_stats()[0]["collected"] > collected_before


def test_an_error_inside_the_command_still_restores_the_collector() -> None:
    gc.disable()
    with pytest.raises(RuntimeError), collector_for("view"):
        raise RuntimeError("boom")
    assert not gc.isenabled()  # it was off before: left off


def test_every_read_only_command_is_a_command() -> None:
    assert set(ROUTES) >= READ_ONLY
    # commands that run the user's agent, scorers or judge keep the collector on
    assert not READ_ONLY & {"run", "diagnose", "demo", "judge", "import", "init"}


def test_main_puts_the_collector_back_after_a_command(tmp_path: Path) -> None:
    gc.enable()
    gc.set_threshold(700, 10, 10)
    assert main(["validate", str(tmp_path / "missing.jsonl")]) == 4
    assert gc.isenabled() and gc.get_threshold() == (700, 10, 10)


def test_importing_fairwitness_leaves_the_collector_alone() -> None:
    code = (
        "import gc; before = (gc.get_threshold(), gc.isenabled()); import fairwitness, "
        "fairwitness.cli, fairwitness.report; assert (gc.get_threshold(), gc.isenabled()) == before"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
