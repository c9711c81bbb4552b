"""The digest a comment's marker keeps, and the marker read only from where it is written: the
first line of a comment by the expected author."""

from __future__ import annotations

from typing import Any

import pytest

from fairwitness.gate import Decision, MetricDecision, PassFloor
from fairwitness.github import (
    FALLBACK_LOGIN,
    Comment,
    Settings,
    decision_digest,
    digest_of,
    find_sticky,
    marker,
    passes_now,
    read_marker,
)


def metric(name: str = "route", **changes: Any) -> MetricDecision:
    values: dict[str, Any] = {
        "name": name,
        "kind": "capability",
        "higher_is_better": True,
        "gated": True,
        "baseline": 0.9,
        "candidate": 0.85,
        "n": 40,
        "regressions": 3,
        "improvements": 1,
        "p": 0.2,
        "p_adjusted": 0.4,
        "rejected": False,
        "detectable_drop": 0.12,
        "power_note": "detects a drop of 0.12",
    }
    return MetricDecision(**(values | changes))


def decision(*metrics: MetricDecision, **changes: Any) -> Decision:
    values: dict[str, Any] = {
        "exit_code": 0,
        "verdict": "pass",
        "reasons": ["no gated metric dropped significantly"],
        "metrics": list(metrics) or [metric()],
        "unpaired": {"missing_from_candidate": [], "new_in_candidate": []},
        "alpha": 0.05,
        "test": "auto",
    }
    return Decision(**(values | changes))


def digest(d: Decision) -> str:
    return decision_digest(d, d.exit_code, d.verdict)


def test_the_digest_is_short_lowercase_hex_and_fits_the_marker() -> None:
    value = digest(decision())
    assert len(value) == 16 and value == value.lower()
    int(value, 16)
    assert read_marker(marker("job-a", value)) == ("job-a", value)


def test_the_digest_ignores_wording_notes_power_and_unpaired_cases() -> None:
    first = decision(
        reasons=["run 1234 at 2025-01-01T10:00:00Z: https://github.com/o/r/actions/runs/1"]
    )
    second = decision(
        reasons=["run 9876 at 2025-06-30T23:59:59Z: https://github.com/o/r/actions/runs/2"],
        notes=["the baseline is 3 commits behind"],
        unpaired={"missing_from_candidate": ["a"], "new_in_candidate": ["b"]},
        alpha=0.05,
    )
    assert digest(first) == digest(second)
    assert digest(decision(metric(power_note="other", p=0.21, n=41))) == digest(decision())


def test_ungated_metrics_without_floors_do_not_count() -> None:
    shown = metric("latency", gated=False, candidate=0.1)
    assert digest(decision(metric(), shown)) == digest(decision(metric()))
    floored = metric("latency", gated=False, candidate=0.1, floor=0.5, floor_kind="min")
    assert digest(decision(metric(), floored)) != digest(decision(metric()))


@pytest.mark.parametrize(
    "changed",
    [
        decision(metric(candidate=0.80)),
        decision(metric(baseline=0.95)),
        decision(metric(candidate=None)),
        decision(metric("args")),
        decision(metric(), metric("args")),
        decision(metric(rejected=True)),
        decision(metric(floor=0.9, floor_kind="min", floor_breached=True)),
        decision(
            metric(
                pass_floors=(
                    PassFloor(k=3, which="pass^k", floor=0.8, value=0.7, cases=40, breached=True),
                )
            )
        ),
        decision(exit_code=1, verdict="regression"),
        decision(exit_code=2, verdict="must-pass failed"),
    ],
)
def test_the_digest_changes_with_the_verdict_or_a_gated_metric(changed: Decision) -> None:
    assert digest(changed) != digest(decision())


def test_not_measured_is_not_zero() -> None:
    assert digest(decision(metric(candidate=None))) != digest(decision(metric(candidate=0.0)))


def test_no_decision_digests_the_verdict_and_exit_code_only() -> None:
    assert decision_digest(None, 0, "report") == decision_digest(None, 0, "report")
    assert decision_digest(None, 0, "report") != decision_digest(None, 4, "invalid")
    assert decision_digest(None, 0, "pass") != digest(decision())


def comment(cid: int, body: str, login: str | None = FALLBACK_LOGIN) -> Comment:
    return Comment.model_validate(
        {
            "id": cid,
            "body": body,
            "html_url": f"https://x/{cid}",
            "user": login and {"login": login},
        }
    )


def test_the_marker_is_read_from_the_first_line_only() -> None:
    assert read_marker(f"{marker('k', 'ab12')}\nbody") == ("k", "ab12")
    assert read_marker(f"{marker('k')}\r\nbody") == ("k", None)
    assert read_marker(marker("k", "ab12")) == ("k", "ab12")
    assert read_marker(f"text\n{marker('k', 'ab12')}") is None
    assert read_marker(f" {marker('k')}\nbody") is None
    assert read_marker(f"{marker('k')} and more\nbody") is None
    assert read_marker("<!-- fairwitness:comment k digest=XYZ -->") is None
    assert read_marker("") is None


def test_a_forged_marker_in_the_body_is_ignored() -> None:
    """Agent text ends up in our own comment's body: a marker there, digest and all, neither
    finds the comment nor gives it a digest."""
    forged = f"### results\n\nthe agent said: {marker('default', 'ffffffffffffffff')}\n"
    ours = comment(2, f"{marker('default', '0123456789abcdef')}\n{forged}")
    assert find_sticky([comment(1, forged), ours], "default", FALLBACK_LOGIN) is ours
    assert digest_of(ours) == "0123456789abcdef"
    assert digest_of(comment(1, forged)) is None


def test_a_marker_in_another_user_s_comment_is_ignored() -> None:
    mine = comment(3, f"{marker('default', 'aa')}\nmine")
    comments = [
        comment(1, f"{marker('default', 'aa')}\nforged", "mallory"),
        comment(2, f"{marker('default', 'aa')}\nghost", None),
        mine,
    ]
    assert find_sticky(comments, "default", FALLBACK_LOGIN) is mine
    assert find_sticky(comments[:2], "default", FALLBACK_LOGIN) is None


def test_a_marker_with_or_without_a_digest_finds_the_same_comment() -> None:
    old = comment(1, f"{marker('default')}\nfrom before digests")
    assert find_sticky([old], "default", FALLBACK_LOGIN) is old
    assert digest_of(old) is None
    assert find_sticky([comment(2, f"{marker('default2', 'aa')}\n")], "default", "x") is None


def test_the_passes_now_note_names_the_verdict_and_the_run() -> None:
    url = "https://github.com/o/r/actions/runs/7"
    note = passes_now("pass", url)
    assert note.startswith("### fairwitness: pass\n")
    assert f"[workflow run]({url})" in note
    assert "job summary" in passes_now("pass", None)


@pytest.mark.parametrize("mode", ["changes", "failures", "CHANGES", " Failures "])
def test_the_new_modes_are_settings(mode: str) -> None:
    assert Settings.from_environ({"FW_COMMENT": mode}).comment == mode.strip().lower()
