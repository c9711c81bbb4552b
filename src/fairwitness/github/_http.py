"""HTTP plumbing under the GitHub client: retries, the waiting budget, rate limits, error bodies.

Two layers of retrying, one budget:

* :class:`BudgetedRetry` (a :class:`urllib3.util.Retry` mounted on the session's adapters)
  retries connection failures and the statuses 429/500/502/503/504, honouring ``Retry-After``.
  Only idempotent methods are retried on a status or a broken read: ``POST`` is not, because a
  ``POST`` that failed with a 5xx may still have created a comment, and a blind retry could post it
  twice. (Connection failures are retried for every method: the request never reached GitHub.)
* :func:`rate_limit_wait` covers what ``Retry`` cannot express: GitHub answers a secondary rate
  limit with HTTP 403 (or 429) and ``retry-after``, or ``x-ratelimit-remaining: 0`` with
  ``x-ratelimit-reset``. A rate-limited request was not carried out, so the client may repeat it
  whatever its method.

Every wait, by either layer, goes through one :class:`WaitBudget` with an injectable clock and
sleep: nothing waits past the deadline, and a wait that would end after it is not started.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connectionpool import ConnectionPool
from urllib3.exceptions import InvalidHeader, MaxRetryError, ResponseError
from urllib3.response import BaseHTTPResponse
from urllib3.util.retry import Retry

from fairwitness._version import __version__
from fairwitness.errors import GitHubError

Clock = Callable[[], float]
"""Seconds since the epoch (``time.time``); also read to turn ``x-ratelimit-reset`` into a wait."""
Sleep = Callable[[float], None]

USER_AGENT = f"fairwitness/{__version__}"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE"})
SECONDARY_LIMIT_WAIT_S = 60.0
"""GitHub's advice when a secondary rate limit names no wait: at least one minute."""


class WaitBudget:
    """How long the client may spend waiting on GitHub, as a deadline on ``clock``.

    :meth:`scope` opens a deadline ``seconds`` from now (nested scopes share the outermost one);
    :meth:`wait` sleeps only when the wait ends before the deadline. ``waits`` records every
    wait, in order.
    """

    def __init__(self, seconds: float, *, clock: Clock, sleep: Sleep) -> None:
        self.seconds = seconds
        self.clock = clock
        self._sleep = sleep
        self._deadline: float | None = None
        self._depth = 0
        self.waits: list[float] = []

    @contextmanager
    def scope(self) -> Iterator[None]:
        """One deadline for everything done inside (the outermost scope decides)."""
        if self._depth == 0:
            self._deadline = self.clock() + self.seconds
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._deadline = None

    def remaining(self) -> float:
        """Seconds left before the deadline (the full budget outside any scope)."""
        if self._deadline is None:
            return self.seconds
        return max(0.0, self._deadline - self.clock())

    def allows(self, seconds: float) -> bool:
        return seconds <= self.remaining()

    def wait(self, seconds: float) -> bool:
        """Sleep ``seconds`` if that ends before the deadline; report whether it did."""
        if seconds <= 0:
            return True
        if not self.allows(seconds):
            return False
        self.waits.append(seconds)
        self._sleep(seconds)
        return True


class BudgetedRetry(Retry):
    """A :class:`Retry` whose every wait goes through a :class:`WaitBudget`.

    When the next wait (``Retry-After`` or backoff) would overrun the budget, retrying stops: the
    last response is handed back (``raise_on_status`` is off), or the connection error raised.
    """

    def __init__(self, *args: Any, budget: WaitBudget | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget = budget

    def new(self, **kw: Any) -> BudgetedRetry:
        kw.setdefault("budget", self.budget)
        return super().new(**kw)

    def get_retry_after(self, response: BaseHTTPResponse) -> float | None:
        """``Retry-After`` in seconds; an unreadable one counts as absent (backoff applies)."""
        try:
            return super().get_retry_after(response)
        except InvalidHeader:
            return None

    def planned_wait(self, response: BaseHTTPResponse | None) -> float:
        """What :meth:`sleep` would wait after ``response``."""
        if self.respect_retry_after_header and response is not None:
            retry_after = self.get_retry_after(response)
            if retry_after:
                return retry_after
        return self.get_backoff_time()

    def increment(
        self,
        method: str | None = None,
        url: str | None = None,
        response: BaseHTTPResponse | None = None,
        error: Exception | None = None,
        _pool: ConnectionPool | None = None,
        _stacktrace: TracebackType | None = None,
    ) -> BudgetedRetry:
        new = super().increment(method, url, response, error, _pool, _stacktrace)
        wait = new.planned_wait(response)
        if self.budget is not None and not self.budget.allows(wait):
            reason = error or ResponseError(
                f"the next retry would wait {wait:g}s, beyond the {self.budget.remaining():g}s "
                "left of the waiting budget"
            )
            raise MaxRetryError(_pool, url, reason)  # type: ignore[arg-type]
        return new

    def sleep_for_retry(self, response: BaseHTTPResponse) -> bool:
        retry_after = self.get_retry_after(response)
        if retry_after:
            self._wait(retry_after)
            return True
        return False

    def _sleep_backoff(self) -> None:
        self._wait(self.get_backoff_time())

    def _wait(self, seconds: float) -> None:
        if seconds <= 0:
            return
        if self.budget is not None:
            self.budget.wait(seconds)


def build_session(
    budget: WaitBudget,
    *,
    total: int = 4,
    backoff_factor: float = 0.5,
    retry_methods: Collection[str] = IDEMPOTENT_METHODS,
) -> requests.Session:
    """A session whose adapters retry through ``budget`` (see the module docstring)."""
    retry = BudgetedRetry(
        total=total,
        backoff_factor=backoff_factor,
        backoff_max=30.0,
        status_forcelist=RETRY_STATUSES,
        allowed_methods=frozenset(m.upper() for m in retry_methods),
        respect_retry_after_header=True,
        raise_on_status=False,
        raise_on_redirect=False,
        budget=budget,
    )
    session = requests.Session()
    adapter = HTTPAdapter(max_retries=retry)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    session.headers["User-Agent"] = USER_AGENT
    return session


def _header_seconds(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        return None
    return max(0.0, seconds) if math.isfinite(seconds) else None


def rate_limit_wait(response: requests.Response, now: float) -> float | None:
    """Seconds GitHub asks to wait before repeating a rate-limited request; ``None`` when the
    response is not a rate limit."""
    if response.status_code not in (403, 429):
        return None
    headers = response.headers
    retry_after = _header_seconds(headers.get("retry-after"))
    if retry_after is not None:
        return retry_after
    if headers.get("x-ratelimit-remaining", "").strip() == "0":
        reset = _header_seconds(headers.get("x-ratelimit-reset"))
        if reset is not None:
            return max(1.0, reset - now)
    if "rate limit" in (api_error_body(response)[0] or "").lower():
        return SECONDARY_LIMIT_WAIT_S
    return None


def api_error_body(response: requests.Response) -> tuple[str | None, str | None, list[Any]]:
    """GitHub's ``message``, ``documentation_url`` and ``errors`` from an error response."""
    try:
        body = json.loads(response.content.decode("utf-8", errors="replace") or "null")
    except ValueError:
        text = response.content.decode("utf-8", errors="replace").strip()
        return (text[:200] or response.reason or None), None, []
    if not isinstance(body, dict):
        return response.reason or None, None, []
    message = body.get("message")
    docs = body.get("documentation_url")
    errors = body.get("errors")
    return (
        message if isinstance(message, str) else None,
        docs if isinstance(docs, str) else None,
        errors if isinstance(errors, list) else [],
    )


def error_from_response(
    response: requests.Response, request: str, *, rate_limited: bool = False
) -> GitHubError:
    """A :class:`GitHubError` describing a failed response, in one line."""
    message, docs, errors = api_error_body(response)
    text = f"{request}: HTTP {response.status_code}"
    if message:
        text += f": {message}"
    details = [_error_detail(item) for item in errors]
    if any(details):
        text += " (" + "; ".join(d for d in details if d) + ")"
    if rate_limited:
        text += "; rate limited for longer than the waiting budget allows"
    if docs:
        text += f" [{docs}]"
    return GitHubError(
        text,
        status=response.status_code,
        api_message=message,
        documentation_url=docs,
        request=request,
        rate_limited=rate_limited,
    )


def _error_detail(item: object) -> str:
    if isinstance(item, str):
        return item
    if not isinstance(item, dict):
        return ""
    if isinstance(item.get("message"), str):
        return str(item["message"])
    parts = [f"{k}={item[k]}" for k in ("resource", "field", "code") if k in item]
    return " ".join(parts)
