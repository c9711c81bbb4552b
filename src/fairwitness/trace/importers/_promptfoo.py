"""promptfoo results (``promptfoo eval -o results.json``) to traces and cases.

The mapping, one promptfoo result row (a test run against one prompt and one provider) at a time:

- case id: the test's ``description``, else ``test-<testIdx>``; a ``vars`` or ``metadata`` entry
  named by the pairing attribute wins over both. When the file holds several prompts or providers,
  ``@<provider>#<promptIdx>`` is appended so each combination is its own case. Rows repeated by
  ``--repeat`` become repeats 0, 1, ... in file order;
- the trace: input is the rendered prompt, answer is the provider's output, models is the provider
  id, latency and tokens as promptfoo reported them, cost when promptfoo reported one;
- promptfoo's verdict becomes the trace's ``verdict``: ``pass`` when the row succeeded (every
  assertion passed, weighted by promptfoo's own threshold), ``fail`` otherwise. A row promptfoo
  marks as an error (``failureReason`` 2, or a provider error with no output) is a ``crashed``
  trial with promptfoo's message, not a fail;
- the derived case expects ``verdict: pass``, so the report's ``verdict`` metric is promptfoo's
  pass rate, with fairwitness's counting (intervals, exclusions, repeats). Each assertion's type is
  kept as a case tag ``assert:<type>``, and the per-assertion results are counted in
  :attr:`ImportResult.assertions` as ``(type, passed)``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from fairwitness.errors import Problem, ReportError
from fairwitness.trace.importers._result import Imported, ImportResult
from fairwitness.trace.model import TargetFailure, Trace, Usage

_ERROR = 2


def _bad(file: str, index: int, field: str, message: str) -> ReportError:
    return ReportError(
        Problem(message, file=file, line=None, field=f"results.results[{index}].{field}")
    )


def _rows(doc: Any, file: str) -> list[Any]:
    results = doc.get("results") if isinstance(doc, dict) else None
    rows = results.get("results") if isinstance(results, dict) else None
    if not isinstance(rows, list):
        raise ReportError(
            Problem(
                "not a promptfoo results file (no results.results list)",
                file=file,
                field="results.results",
            )
        )
    return rows


def _case_id(row: dict[str, Any], index: int, pair: str, file: str) -> str:
    test = _obj(row.get("testCase"))
    for holder in (row.get("vars"), test.get("metadata"), test.get("vars")):
        if isinstance(holder, dict) and pair in holder:
            return str(holder[pair])
    description = test.get("description")
    if isinstance(description, str) and description.strip():
        return description.strip()
    test_idx = row.get("testIdx")
    if not isinstance(test_idx, int):
        raise _bad(file, index, "testIdx", "result has neither a test description nor a testIdx")
    return f"test-{test_idx}"


def _assertions(row: dict[str, Any]) -> list[tuple[str, bool]]:
    grading = row.get("gradingResult")
    parts = grading.get("componentResults") if isinstance(grading, dict) else None
    out: list[tuple[str, bool]] = []
    for part in parts or []:
        if isinstance(part, dict):
            assertion = part.get("assertion") or {}
            kind = assertion.get("type") if isinstance(assertion, dict) else None
            out.append((str(kind or "unknown"), part.get("pass") is True))
    return out


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def read_promptfoo(
    path: str | Path, *, suite: str = "promptfoo", pair_attribute: str = "fairwitness.case_id"
) -> ImportResult:
    """Traces and derived cases from a promptfoo results file; see the module docstring."""
    name = str(path)
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReportError(Problem(f"cannot read: {exc.strerror or exc}", file=name)) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ReportError(Problem(f"invalid JSON: {exc}", file=name)) from None
    rows = _rows(doc, name)
    combos = {
        (r.get("promptIdx"), (r.get("provider") or {}).get("id"))
        for r in rows
        if isinstance(r, dict) and isinstance(r.get("provider"), dict)
    }
    result = ImportResult(source=name, format="promptfoo")
    seen: Counter[str] = Counter()
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ReportError(
                Problem("result must be an object", file=name, field=f"results.results[{index}]")
            )
        provider = _obj(row.get("provider"))
        provider_id = str(provider.get("id") or "unknown")
        case_id = _case_id(row, index, pair_attribute, name)
        if len(combos) > 1:
            case_id = f"{case_id}@{provider_id}#{row.get('promptIdx', 0)}"
        repeat = seen[case_id]
        seen[case_id] += 1
        prompt = _obj(row.get("prompt"))
        text = prompt.get("raw")
        if not isinstance(text, str):
            raise _bad(name, index, "prompt.raw", "result has no rendered prompt text")
        response = _obj(row.get("response"))
        output = response.get("output")
        if output is not None and not isinstance(output, str):
            output = json.dumps(output, ensure_ascii=False, sort_keys=True)
        success = row.get("success")
        if not isinstance(success, bool):
            raise _bad(name, index, "success", f"expected true or false, got {success!r}")
        errored = row.get("failureReason") == _ERROR or (output is None and not success)
        message = row.get("error") or response.get("error")
        tokens = _obj(response.get("tokenUsage") or row.get("tokenUsage"))
        cost = response.get("cost", row.get("cost"))
        latency = row.get("latencyMs")
        checks = _assertions(row)
        for kind, passed in checks:
            result.assertions[(kind, passed)] += 1
        trace = Trace(
            suite=suite,
            case_id=case_id,
            repeat=repeat,
            input=text,
            status="crashed" if errored else "ok",
            answer=None if errored else output,
            verdict=None if errored else ("pass" if success else "fail"),
            usage=Usage(
                input_tokens=_int(tokens.get("prompt")),
                output_tokens=_int(tokens.get("completion")),
                cost_usd=float(cost) if isinstance(cost, int | float) else None,
                cost_unknown_reason=None
                if isinstance(cost, int | float)
                else "not reported by promptfoo",
            ),
            models=[provider_id],
            latency_ms=float(latency) if isinstance(latency, int | float) else 0.0,
            error=TargetFailure(type="PromptfooError", message=str(message or "error"))
            if errored
            else None,
        )
        result.records.append(
            Imported(trace, index + 1, file=name, field=f"results.results[{index}]")
        )
        if repeat == 0:
            tags = ["promptfoo", *dict.fromkeys(f"assert:{kind}" for kind, _ in checks)]
            result.cases.append(
                {"id": case_id, "input": text, "expect": {"verdict": "pass"}, "tags": tags}
            )
    return result
