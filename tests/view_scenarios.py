"""Suites for the HTML viewer's tests and benchmark, run by the real CLI.

:func:`make_pair` writes a small project (an agent with one ``@tool``, cases that declare faults,
optionally full of hostile strings), runs release 1 as the baseline and release 2 as the
candidate (every seventh case answers the wrong route; a rate-limited search is reported as "no
results"), and returns the two reports' paths and the dataset's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HOSTILE = (
    "<script>window.__pwned = 1; alert(1)</script>",
    '<img src=x onerror="window.__pwned = 1; alert(1)">',
    "javascript:window.__pwned=1",
    "</script><script>window.__pwned = 1</script>",
    "line\u2028separator\u2029paragraph",
    '"><svg onload="window.__pwned = 1">',
)
"""Strings a page must show as text and never run."""

AGENT = '''\
from fairwitness import Empty, Err, Ok, tool


@tool(empty_when=lambda rows: rows == [])
async def search(query: str) -> list:
    """Rows matching a query."""
    return [{"title": query}]


async def _answer(text: str, release: int) -> dict:
    index = int(text.rsplit("#", 1)[1])
    route = ("search", "salary", "details")[index % 3]
    if release == 2 and index % 7 == 3:
        route = "other"
    found = await search(query=text)
    if isinstance(found, Err):
        answer = "No results for " + text
    elif isinstance(found, Empty):
        answer = "Nothing found"
    else:
        answer = "Found: " + found.value[0]["title"]
    return {"text": answer, "verdict": route}


async def target(text: str) -> dict:
    return await _answer(text, 1)


async def candidate(text: str) -> dict:
    return await _answer(text, 2)
'''


def case_id(i: int, hostile: bool) -> str:
    """The id of case ``i``."""
    return f"{HOSTILE[i % len(HOSTILE)]} #{i}" if hostile and i % 2 else f"case-{i:05d}"


def make_pair(folder: Path, n: int, *, hostile: bool = False) -> tuple[Path, Path, Path]:
    """Run the suite of ``n`` cases as baseline and candidate under ``folder``; returns the
    baseline's report, the candidate's report and the dataset."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "agent.py").write_text(AGENT, encoding="utf-8")
    cases = folder / "cases.jsonl"
    with open(cases, "w", encoding="utf-8") as handle:
        for i in range(n):
            text = HOSTILE[i % len(HOSTILE)] if hostile else f"question {i}"
            case = {
                "id": case_id(i, hostile),
                "input": f"{text} #{i}",
                "expect": {"route": ("search", "salary", "details")[i % 3], "tools": ["search"]},
                "tags": [("search", "salary", "details")[i % 3]]
                + ([HOSTILE[(i + 1) % len(HOSTILE)]] if hostile else []),
                "must_pass": i == 3,
            }
            if i % 5 == 0:
                case["faults"] = [{"tool": "search", "kind": "rate_limit"}]
            handle.write(json.dumps(case, ensure_ascii=False) + "\n")
    (folder / "fairwitness.toml").write_text(
        'target = "agent:target"\n[run]\nrepeats = 3\nconcurrency = 32\ntimeout_s = 60\n'
        '[[suites]]\nname = "viewer"\npath = "cases.jsonl"\n',
        encoding="utf-8",
    )
    for out, target in (("base", "agent:target"), ("cand", "agent:candidate")):
        done = subprocess.run(
            [sys.executable, "-m", "fairwitness", "run", "--out", out, "--target", target],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"run {target} exited {done.returncode}: {done.stderr[-2000:]}")
    return folder / "base" / "viewer.report.json", folder / "cand" / "viewer.report.json", cases
