"""The waiting budget, the budgeted urllib3 Retry, and reading rate limits and error bodies."""

from __future__ import annotations

import json

import pytest
import requests

from fairwitness._version import __version__
from fairwitness.github import GitHubError, WaitBudget, build_session
from fairwitness.github._http import (
    IDEMPOTENT_METHODS,
    RETRY_STATUSES,
    SECONDARY_LIMIT_WAIT_S,
    BudgetedRetry,
    error_from_response,
    rate_limit_wait,
)
from github_fake import FakeClock

NOW = 1_714_568_000.0


def response(status: int, body: object = None, **headers: str) -> requests.Response:
    r = requests.Response()
    r.status_code = status
    r.reason = "Reason"
    r._content = b"" if body is None else json.dumps(body).encode()
    r.headers.update({k.replace("_", "-"): v for k, v in headers.items()})
    return r


def test_the_budget_waits_only_within_its_deadline() -> None:
    clock = FakeClock(NOW)
    budget = WaitBudget(60, clock=clock, sleep=clock.sleep)
    with budget.scope():
        assert budget.wait(25) is True
        assert budget.remaining() == 35
        assert budget.wait(36) is False
        assert budget.wait(35) is True
        assert budget.wait(0.001) is False
    assert clock.sleeps == [25, 35]
    assert budget.waits == [25, 35]
    assert budget.remaining() == 60  # a new scope starts a new deadline


def test_nested_scopes_share_the_outer_deadline() -> None:
    clock = FakeClock(NOW)
    budget = WaitBudget(10, clock=clock, sleep=clock.sleep)
    with budget.scope():
        budget.wait(6)
        with budget.scope():
            assert budget.remaining() == 4
            assert budget.wait(5) is False


def test_the_deadline_counts_time_spent_outside_waits() -> None:
    clock = FakeClock(NOW)
    budget = WaitBudget(10, clock=clock, sleep=clock.sleep)
    with budget.scope():
        clock.now += 8  # a slow request
        assert budget.wait(3) is False
        assert budget.wait(2) is True


def test_the_mounted_retry_carries_the_budget_and_the_policy() -> None:
    clock = FakeClock(NOW)
    budget = WaitBudget(60, clock=clock, sleep=clock.sleep)
    session = build_session(budget)
    try:
        retry = session.get_adapter("https://ghe.example/api/v3").max_retries
        assert isinstance(retry, BudgetedRetry)
        assert retry.budget is budget
        assert retry.new(total=1).budget is budget
        assert set(retry.status_forcelist) == set(RETRY_STATUSES) == {429, 500, 502, 503, 504}
        assert retry.allowed_methods == IDEMPOTENT_METHODS
        assert "POST" not in IDEMPOTENT_METHODS
        assert retry.respect_retry_after_header is True
        assert retry.raise_on_status is False
        assert session.headers["User-Agent"] == f"fairwitness/{__version__}"
        assert session.get_adapter("http://127.0.0.1:1").max_retries is retry
    finally:
        session.close()


@pytest.mark.parametrize(
    ("r", "wait"),
    [
        (response(403, retry_after="30"), 30.0),
        (response(429, retry_after="7"), 7.0),
        (response(403, x_ratelimit_remaining="0", x_ratelimit_reset=str(int(NOW) + 42)), 42.0),
        (response(403, x_ratelimit_remaining="0", x_ratelimit_reset=str(int(NOW) - 5)), 1.0),
        (
            response(403, {"message": "You have exceeded a secondary rate limit."}),
            SECONDARY_LIMIT_WAIT_S,
        ),
        (response(403, {"message": "Resource not accessible by integration"}), None),
        (response(403, x_ratelimit_remaining="12", x_ratelimit_reset=str(int(NOW) + 42)), None),
        (response(500, retry_after="3"), None),
        (response(200), None),
    ],
)
def test_rate_limit_wait(r: requests.Response, wait: float | None) -> None:
    assert rate_limit_wait(r, NOW) == wait


def test_errors_carry_status_message_and_docs() -> None:
    body = {
        "message": "Validation Failed",
        "errors": [{"resource": "Label", "code": "invalid", "field": "color"}],
        "documentation_url": "https://docs.github.com/rest/reference/issues#create-a-label",
    }
    err = error_from_response(response(422, body), "POST /repos/o/r/labels")
    assert isinstance(err, GitHubError)
    assert (err.status, err.api_message) == (422, "Validation Failed")
    assert err.documentation_url == body["documentation_url"]
    assert err.request == "POST /repos/o/r/labels"
    assert err.exit_code == 4
    assert str(err) == (
        "POST /repos/o/r/labels: HTTP 422: Validation Failed (resource=Label field=color "
        "code=invalid) [https://docs.github.com/rest/reference/issues#create-a-label]"
    )


def test_a_non_json_error_body_is_quoted() -> None:
    r = response(502)
    r._content = b"<html>Bad gateway</html>"
    err = error_from_response(r, "GET /user")
    assert err.api_message == "<html>Bad gateway</html>"
    assert err.documentation_url is None
