"""Datasets: JSONL cases, loaded with line numbers, checked for duplicates, hashed per split.

One JSON object per line::

    {"id": "route-001", "input": "jobs in Pune", "expect": {"route": "search"},
     "faults": [{"tool": "search_jobs", "kind": "timeout"}], "must_pass": false, "tags": ["routing"]}

Lines are split on ``\\n`` only: U+2028, U+0085 and friends inside a JSON string are data, not line
breaks. Blank lines are allowed. Every bad line is reported with its number and field.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from fairwitness.errors import DatasetError, Problem, UsageError
from fairwitness.trace.model import CaseInput, Fault, input_text


def _json_type(value: Any) -> str:
    """The JSON name of a parsed JSON value's type."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__


class Expect(BaseModel):
    """What a case expects. Every field is optional; a scorer whose expectation is absent is not
    applicable to the case (never a pass, never a fail)."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    route: str | None = None
    """The route (verdict of a router) the agent should take."""
    verdict: str | None = None
    """The final verdict or label the agent should reach."""
    first_tool: str | None = None
    """The tool the agent should call first."""
    tools: list[str] | None = None
    """Tools the agent should call."""
    args: dict[str, dict[str, Any]] | None = None
    """Expected arguments per tool name."""
    forbidden_tools: list[str] | None = None
    """Tools the agent must not call."""
    forbidden_claims: list[str] | None = None
    """Claims (regular expressions) the answer must not make."""
    facts: list[str] | None = None
    """Facts the answer should state (matched case-insensitively, whitespace-normalised)."""
    state: dict[str, Any] | None = None
    """What the world should look like after the agent acted: a JSON object matched against the
    ``state`` the target reports, like ``args`` (``[scoring] args_mode``, numeric tolerance,
    case-insensitivity). A target that reports no state fails it."""

    @field_validator("state", mode="before")
    @classmethod
    def _state_is_object(cls, value: Any) -> Any:
        if value is not None and not isinstance(value, dict):
            raise ValueError(
                "must be a JSON object (what the target's reported state should contain), "
                f"got {_json_type(value)}"
            )
        return value

    @field_validator("forbidden_claims")
    @classmethod
    def _claims_compile(cls, claims: list[str] | None) -> list[str] | None:
        for index, claim in enumerate(claims or []):
            try:
                re.compile(claim)
            except re.error as exc:
                raise ValueError(
                    f"forbidden_claims[{index}] is not a valid regular expression: {exc}"
                ) from None
        return claims


class Case(BaseModel):
    """One evaluation case."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    id: str = Field(min_length=1)
    """Unique id within the dataset; pairs cases across runs."""
    suite: str | None = None
    """Suite the case belongs to; defaults to the suite named in the config."""
    split: str | None = None
    """Split (dev, test, ...); defaults to the split named in the config."""
    input: CaseInput
    """A string, or ``{"messages": [{"role": ..., "content": ...}, ...]}``."""
    expect: Expect = Field(default_factory=Expect)
    """What the agent should do; all fields optional."""
    faults: list[Fault] = Field(default_factory=list)
    """Faults to inject into ``@tool`` calls during this case's trials."""
    must_pass: bool = False
    """A failure of this case fails the gate on its own (exit 2)."""
    tags: list[str] = Field(default_factory=list)
    """Free-form labels for slicing results."""

    @field_validator("id")
    @classmethod
    def _id_is_printable(cls, value: str) -> str:
        if value != value.strip() or any(ch in value for ch in "\r\n\t"):
            raise ValueError("id must not have surrounding whitespace or control characters")
        return value

    @property
    def text(self) -> str:
        """The input text a text-only target receives."""
        return input_text(self.input)

    def fingerprint(self) -> str:
        """A stable hash of everything that defines the case (not of its position in a file)."""
        canonical = json.dumps(
            self.model_dump(mode="json", exclude_none=True), sort_keys=True, ensure_ascii=False
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    def agent_fingerprint(self) -> str:
        """A hash of what the agent sees (input and faults): the record/replay cache key part."""
        canonical = json.dumps(
            {
                "input": self.model_dump(mode="json")["input"],
                "faults": [f.model_dump(mode="json") for f in self.faults],
            },
            sort_keys=True,
            ensure_ascii=False,
        )
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


class Dataset:
    """Cases in file order, with the file and line each came from."""

    def __init__(self, cases: list[Case], *, locations: dict[str, tuple[str, int]] | None = None):
        self.cases = cases
        self.locations = locations or {}
        counts = Counter(c.id for c in cases)
        dupes = sorted(i for i, n in counts.items() if n > 1)
        if dupes:
            raise DatasetError(f"duplicate case ids: {', '.join(dupes)}")

    def __len__(self) -> int:
        return len(self.cases)

    def __iter__(self) -> Iterator[Case]:
        return iter(self.cases)

    def location(self, case_id: str) -> tuple[str | None, int | None]:
        """File and line a case came from, when loaded from a file."""
        loc = self.locations.get(case_id)
        return (loc[0], loc[1]) if loc else (None, None)

    def split_hash(self) -> str:
        """A hash of the cases' content, independent of their order in the file(s)."""
        digest = hashlib.sha256()
        for fingerprint in sorted(c.id + "\x00" + c.fingerprint() for c in self.cases):
            digest.update(fingerprint.encode("utf-8"))
            digest.update(b"\n")
        return "sha256:" + digest.hexdigest()

    def ids_hash(self) -> str:
        """A hash of the set of case ids (what a sharded run must cover)."""
        return ids_hash(c.id for c in self.cases)

    def shard(self, index: int, total: int) -> tuple[Dataset, list[int]]:
        """Shard ``index`` of ``total`` (counting from 1): its cases in dataset order, and their
        positions in this dataset. See :func:`assign_shards`."""
        if not 1 <= index <= total:
            raise ValueError(f"shard {index}/{total}: expected 1 <= I <= N")
        owner = assign_shards([c.id for c in self.cases], total)
        positions = [i for i, c in enumerate(self.cases) if owner[c.id] == index]
        subset = Dataset(
            [self.cases[i] for i in positions],
            locations={self.cases[i].id: self.locations[self.cases[i].id] for i in positions}
            if self.locations
            else None,
        )
        return subset, positions

    def select(self, tags: Sequence[str] = (), exclude_tags: Sequence[str] = ()) -> Dataset:
        """The cases with any of ``tags`` (every case when none is given) and none of
        ``exclude_tags``, in dataset order. A tag no case has, or a selection of no case, is a
        :class:`UsageError` naming it and the tags the cases have."""
        known = sorted({tag for case in self.cases for tag in case.tags})
        for flag, given in (("--tag", tags), ("--exclude-tag", exclude_tags)):
            for tag in given:
                if tag not in known:
                    listed = ", ".join(repr(t) for t in known) if known else "none"
                    raise UsageError(f"{flag}: no case has the tag {tag!r}; known tags: {listed}")
        wanted, unwanted = set(tags), set(exclude_tags)
        chosen = [
            case
            for case in self.cases
            if (not wanted or wanted.intersection(case.tags))
            and not unwanted.intersection(case.tags)
        ]
        if not chosen:
            raise UsageError("--tag/--exclude-tag: no case is left to run by this selection")
        return Dataset(
            chosen,
            locations={c.id: self.locations[c.id] for c in chosen if c.id in self.locations},
        )

    @classmethod
    def load(cls, *paths: str | Path, suite: str | None = None) -> Dataset:
        """Load one or more JSONL files; raises :class:`DatasetError` listing every problem.

        With ``suite``, a case whose own ``suite`` field names another suite is a problem: it
        would otherwise be run and scored under ``suite``."""
        cases: list[Case] = []
        locations: dict[str, tuple[str, int]] = {}
        problems: list[Problem] = []
        for path in paths:
            for line_no, case_or_problem in _parse_file(Path(path)):
                if isinstance(case_or_problem, Problem):
                    problems.append(case_or_problem)
                    continue
                case = case_or_problem
                if case.id in locations:
                    first_file, first_line = locations[case.id]
                    problems.append(
                        Problem(
                            f"duplicate id '{case.id}' (first seen at {first_file}:{first_line})",
                            file=str(path),
                            line=line_no,
                            field="id",
                        )
                    )
                    continue
                locations[case.id] = (str(path), line_no)
                if suite is not None and case.suite is not None and case.suite != suite:
                    problems.append(
                        Problem(
                            f"case '{case.id}' belongs to suite '{case.suite}', "
                            f"but this file is loaded for suite '{suite}'",
                            file=str(path),
                            line=line_no,
                            field="suite",
                        )
                    )
                    continue
                cases.append(case)
        if problems:
            raise DatasetError(problems[0], problems=problems)
        if not cases:
            names = ", ".join(str(p) for p in paths)
            raise DatasetError(Problem("no cases found", file=names))
        return cls(cases, locations=locations)


def _id_key(case_id: str) -> bytes:
    return hashlib.sha256(case_id.encode("utf-8")).digest()


def assign_shards(ids: Iterable[str], total: int) -> dict[str, int]:
    """Which shard (1..``total``) runs each case.

    Cases are ordered by a stable hash of their id (SHA-256) and dealt round-robin, so the
    assignment depends only on the set of ids, never on file order, and shard sizes differ by at
    most one case."""
    if total < 1:
        raise ValueError(f"total must be >= 1, got {total}")
    ranked = sorted(ids, key=_id_key)
    return {case_id: rank % total + 1 for rank, case_id in enumerate(ranked)}


def ids_hash(ids: Iterable[str]) -> str:
    """A hash of a set of case ids, independent of their order."""
    digest = hashlib.sha256()
    for case_id in sorted(ids):
        digest.update(case_id.encode("utf-8") + b"\n")
    return "sha256:" + digest.hexdigest()


def _field_path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "Conversation"):
            continue
        else:
            out += ("." if out else "") + part
    return out


def _validation_problems(
    exc: ValidationError, obj: dict[str, Any], file: str, line: int
) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[str] = set()
    raw_input = obj.get("input")
    for error in exc.errors(include_url=False):
        loc = error["loc"]
        if loc[:1] == ("input",) and len(loc) >= 2:
            branch = loc[1]
            if not isinstance(raw_input, dict) and branch != "str":
                continue
            if isinstance(raw_input, dict) and branch == "str":
                continue
            if not isinstance(raw_input, dict):
                msg = 'must be a string or an object like {"messages": [{"role": ..., "content": ...}]}'
                problems.append(Problem(msg, file=file, line=line, field="input"))
                continue
        field = _field_path(error["loc"]) or None
        msg = error["msg"]
        if error["type"] == "extra_forbidden":
            msg = "unknown field"
        elif error["type"] == "missing":
            msg = "required field is missing"
        key = f"{field}|{msg}"
        if key in seen:
            continue
        seen.add(key)
        problems.append(Problem(msg, file=file, line=line, field=field))
    return problems


def read_json_lines(path: Path, *, array_hint: str = "") -> Iterator[tuple[int, object | Problem]]:
    """``(line, value)`` for each non-blank line of a JSONL file, or ``(line, Problem)`` for a line
    that is not UTF-8 or not JSON (line 0: the file cannot be read). Lines split on ``\\n`` only;
    a leading byte-order mark is ignored. ``array_hint`` is added when line 1 opens a JSON array."""
    name = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        yield 0, Problem("file not found", file=name)
        return
    except OSError as exc:
        yield 0, Problem(f"cannot read: {exc.strerror or exc}", file=name)
        return
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for index, raw in enumerate(data.split(b"\n")):
        line_no = index + 1
        stripped = raw.strip()
        if not stripped:
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield line_no, Problem(f"not valid UTF-8 at byte {exc.start}", file=name, line=line_no)
            continue
        try:
            yield line_no, json.loads(text)
        except json.JSONDecodeError as exc:
            hint = array_hint if line_no == 1 and stripped.startswith(b"[") else ""
            yield (
                line_no,
                Problem(
                    f"invalid JSON: {exc.msg} at column {exc.colno}{hint}", file=name, line=line_no
                ),
            )


def _parse_file(path: Path) -> Iterator[tuple[int, Case | Problem]]:
    name = str(path)
    # Cases often expect the same thing (a route, a verdict): one frozen Expect per distinct
    # expectation keeps a large dataset small in memory.
    expects: dict[str, Expect] = {}
    hint = " (this looks like a JSON array; fairwitness reads JSONL: one case object per line)"
    for line_no, obj in read_json_lines(path, array_hint=hint):
        if isinstance(obj, Problem):
            yield line_no, obj
            continue
        if isinstance(obj, list):
            yield (
                line_no,
                Problem(
                    "a JSON array, not a case object (fairwitness reads JSONL: one case object per line)",
                    file=name,
                    line=line_no,
                ),
            )
            continue
        if not isinstance(obj, dict):
            yield (
                line_no,
                Problem(
                    f"expected a case object, got {type(obj).__name__}", file=name, line=line_no
                ),
            )
            continue
        key = None
        if isinstance(obj.get("expect"), dict):
            key = json.dumps(obj["expect"], sort_keys=True)
            if key in expects:
                obj = {**obj, "expect": expects[key]}
        try:
            case = Case.model_validate(obj)
        except ValidationError as exc:
            for problem in _validation_problems(exc, obj, name, line_no):
                yield line_no, problem
            continue
        if key is not None:
            expects.setdefault(key, case.expect)
        yield line_no, case
