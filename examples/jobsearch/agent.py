"""A small job-search agent used as fairwitness's bundled example.

It routes a question to one of three tools, answers from what the tools return, and has two
deliberate flaws for the suite to find:

- an ambiguous question ("what do data scientist jobs pay in Berlin?") is routed at random between
  ``search`` and ``salary`` (a seeded stochastic element: the run's seed makes it reproducible);
- when the job search is rate limited, it tells the user there are no openings: a tool failure
  reported as absence.

``target`` is release 1. ``candidate`` is release 2, the change a pull request would bring, with
two more flaws planted for ``fairwitness demo`` to catch: it stops passing the role filter to
``search_jobs`` (a regression in tool arguments, in the search it remembers for the user, which a
case's ``expect.state`` checks, and in the openings it lists, which ``checks.py``'s scorer checks),
and it also reports a timed-out search as "no openings" (more absence claims made after failures).
"""

from __future__ import annotations

import re
from typing import Any

import fairwitness
from fairwitness import Empty, Err, Ok, tool

JOBS: list[dict[str, Any]] = [
    {"id": "J-101", "title": "Backend Engineer", "role": "backend engineer", "city": "Pune"},
    {"id": "J-102", "title": "Senior Backend Engineer", "role": "backend engineer", "city": "Pune"},
    {"id": "J-103", "title": "Backend Engineer", "role": "backend engineer", "city": "Berlin"},
    {"id": "J-104", "title": "Data Scientist", "role": "data scientist", "city": "Berlin"},
    {"id": "J-105", "title": "Data Scientist", "role": "data scientist", "city": "London"},
    {"id": "J-106", "title": "Product Designer", "role": "designer", "city": "London"},
    {"id": "J-107", "title": "Product Manager", "role": "product manager", "city": "Austin"},
    {"id": "J-108", "title": "Staff Nurse", "role": "nurse", "city": "Toronto"},
    {"id": "J-109", "title": "ICU Nurse", "role": "nurse", "city": "Toronto"},
    {"id": "J-110", "title": "Data Scientist", "role": "data scientist", "city": "Pune"},
    {"id": "J-111", "title": "Product Manager", "role": "product manager", "city": "Bangalore"},
    {"id": "J-112", "title": "Backend Engineer", "role": "backend engineer", "city": "Bangalore"},
]

SALARIES: dict[tuple[str, str], tuple[int, int, str]] = {
    ("backend engineer", "Pune"): (1_800_000, 3_200_000, "INR"),
    ("backend engineer", "Berlin"): (65_000, 90_000, "EUR"),
    ("backend engineer", "Bangalore"): (2_000_000, 3_800_000, "INR"),
    ("data scientist", "Berlin"): (60_000, 85_000, "EUR"),
    ("data scientist", "London"): (55_000, 80_000, "GBP"),
    ("designer", "London"): (45_000, 70_000, "GBP"),
    ("product manager", "Austin"): (120_000, 165_000, "USD"),
    ("nurse", "Toronto"): (75_000, 98_000, "CAD"),
}

CITIES = ["Pune", "Bangalore", "Berlin", "London", "Austin", "Toronto", "Reykjavik", "Lagos"]
ROLES = ["backend engineer", "data scientist", "designer", "product manager", "nurse"]


class SalaryNotFoundError(LookupError):
    """No salary data for that role and city."""


@tool(empty_when=lambda rows: rows == [])
async def search_jobs(city: str, role: str | None = None) -> list[dict[str, Any]]:
    """Open positions in a city, optionally for one role."""
    return [j for j in JOBS if j["city"] == city and (role is None or j["role"] == role)]


@tool()
async def get_salary(role: str, city: str) -> dict[str, Any]:
    """The usual salary range for a role in a city."""
    try:
        low, high, currency = SALARIES[(role, city)]
    except KeyError:
        raise SalaryNotFoundError(f"no salary data for {role} in {city}") from None
    return {"role": role, "city": city, "low": low, "high": high, "currency": currency}


@tool()
def get_job(job_id: str) -> dict[str, Any]:
    """Details of one posting."""
    for job in JOBS:
        if job["id"] == job_id:
            return job
    raise KeyError(job_id)


def _find(options: list[str], text: str) -> str | None:
    lowered = text.lower()
    for option in options:
        if option.lower() in lowered or option.lower().rstrip("r") + "rs" in lowered:
            return option
    return None


def route_of(text: str, rng_draw: float) -> str:
    """Decide the route; ambiguous pay-and-jobs questions are a coin flip."""
    lowered = text.lower()
    asks_pay = bool(re.search(r"\b(salary|salaries|pay|paid|earn)\b", lowered))
    asks_jobs = bool(re.search(r"\b(jobs?|openings?|positions?|hiring|vacanc\w+)\b", lowered))
    if re.search(r"\bJ-\d{3}\b", text):
        return "job_details"
    if asks_pay and asks_jobs:
        return "salary" if rng_draw < 0.5 else "search"
    if asks_pay:
        return "salary"
    if asks_jobs:
        return "search"
    return "out_of_scope"


def _describe_failure(result: Err, what: str) -> str:
    return f"I couldn't check {what} just now because the lookup failed ({result.kind}). Please try again."


async def _search(city: str | None, role: str | None, release: int, state: dict[str, Any]) -> str:
    if city is None:
        return "Which city should I search in?"
    # Release 2 "simplified" the call and lost the role filter.
    used = None if release >= 2 else role
    result = await search_jobs(city=city, role=used) if used else await search_jobs(city=city)
    # The app remembers the user's last search, as it was run, to offer it again next time.
    state["recent_search"] = {"city": city, "role": used}
    label = f"{role} roles" if role else "jobs"
    if isinstance(result, Err):
        absent_on = ("rate_limit", "timeout") if release >= 2 else ("rate_limit",)
        if result.kind in absent_on:
            # The planted bug: a rate-limited search is reported as if nothing exists.
            return f"There are no open {label} in {city} right now."
        return _describe_failure(result, f"{label} in {city}")
    if isinstance(result, Empty):
        return f"There are no open {label} in {city} right now."
    rows = result.value
    listing = "; ".join(f"{r['title']} ({r['id']})" for r in rows)
    more = " These are only some of the results." if result.truncated else ""
    return f"Found {len(rows)} opening(s) in {city}: {listing}.{more}"


async def _salary(city: str | None, role: str | None) -> str:
    if city is None or role is None:
        return "Tell me the role and the city and I'll look up the usual pay."
    result = await get_salary(role=role, city=city)
    if isinstance(result, Err):
        if result.kind == "not_found":
            return f"I don't have salary data for {role} in {city}."
        return _describe_failure(result, f"salaries for {role} in {city}")
    if isinstance(result, Ok):
        data = result.value
        return (
            f"A {role} in {city} usually earns {data['low']:,}-{data['high']:,} {data['currency']}."
        )
    return f"I don't have salary data for {role} in {city}."


def _details(job_id: str) -> str:
    result = get_job(job_id=job_id)
    if isinstance(result, Ok):
        job = result.value
        return f"{job_id} is a {job['title']} position in {job['city']}."
    if isinstance(result, Err) and result.kind == "not_found":
        return f"I can't find a posting with id {job_id}."
    assert isinstance(result, Err)
    return _describe_failure(result, f"posting {job_id}")


async def target(text: str) -> dict[str, Any]:
    """The agent, release 1: a question in, an answer and its route out."""
    return await _respond(text, release=1)


async def candidate(text: str) -> dict[str, Any]:
    """The agent, release 2 (see the module's docstring for what changed)."""
    return await _respond(text, release=2)


async def _respond(text: str, *, release: int) -> dict[str, Any]:
    ctx = fairwitness.current()
    ctx.record_model("jobsearch-rules-1")
    route = route_of(text, ctx.rng.random())
    city, role = _find(CITIES, text), _find(ROLES, text)
    state: dict[str, Any] = {}
    if route == "search":
        answer = await _search(city, role, release, state)
    elif route == "salary":
        answer = await _salary(city, role)
    elif route == "job_details":
        match = re.search(r"\bJ-\d{3}\b", text)
        answer = _details(match.group(0) if match else "")
    else:
        answer = "I can help with job openings, salaries and job postings."
    words = len(text.split()) + len(answer.split())
    ctx.record_usage(
        input_tokens=40 + words, output_tokens=len(answer.split()), cost_usd=words * 2e-7
    )
    return {"text": answer, "verdict": route, "state": state}
