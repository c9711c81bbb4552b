"""Configuration: ``fairwitness.toml``, or ``[tool.fairwitness]`` in ``pyproject.toml``.

::

    target = "agent:target"          # module:function, imported with the config's folder on sys.path

    [run]
    repeats = 3
    concurrency = 8
    timeout_s = 60
    mode = "live"                    # live | record | replay
    seed = 0
    out = "fairwitness-out"          # reports and traces, relative to the config file

    [[suites]]
    name = "jobsearch"
    path = "cases.jsonl"
    split = "test"
    suite_version = "1"

    [scoring]
    scorer_timeout_s = 10            # a call of a user's scorer that runs longer is unscored

    [[scorers]]                      # a user's scorer, imported like the target
    ref = "checks:booked_flight"     # a function decorated with @fairwitness.scorer
    # kind = "capability"            # only for a plain function: capability | safety | continuous

    [judge]                          # optional: an LLM judge and its calibration
    provider = "openai"              # openai | anthropic: scores misreport_as_empty_judged in runs
    model = "gpt-4o-mini"
    key_env = "OPENAI_API_KEY"       # the variable holding the API key
    threshold = 0.6                  # judge-derived numbers need kappa's 95% lower bound >= this
    labels = "judge-labels.jsonl"    # calibration labels, relative to the config file
    metrics = []                     # more metrics scored by the judge: shown only when calibrated

    [gate]                           # optional: command-line flags override these
    alpha = 0.05
    test = "midp"                    # midp | exact
    floors = {route = 0.95, misreport_as_empty_max = 0.02}
    must_detect = 0.05               # exit 3 when this run cannot detect a 5-point drop

    [render]
    templates = "fairwitness-templates"   # your own comment.md.j2 / summary.md.j2 / terminal.txt.j2

    [pricing]                        # optional: prices a trial that reported tokens but no cost
    version = "2026-01"              # required when models are listed; recorded in each report
    [pricing.models."gpt-4o"]        # the exact name the target passes to record_model()
    input_usd_per_mtok = 2.5         # US dollars per million input tokens
    output_usd_per_mtok = 10.0       # US dollars per million output tokens

Unknown keys are refused with the key's line and a "did you mean" suggestion.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from fairwitness._toml_lines import line_of, located
from fairwitness.errors import ConfigError, Problem, UsageError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

CONFIG_NAMES = ("fairwitness.toml", "pyproject.toml")

_M = TypeVar("_M", bound=BaseModel)


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class SuiteConfig(_Section):
    """One suite: a named dataset."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    """Suite name; names the report file."""
    path: str = Field(min_length=1)
    """JSONL file of cases, relative to the config file."""
    split: str = "test"
    """Split name recorded in the report."""
    suite_version: str = "1"
    """Bump when the cases change meaning; reports of different versions are not compared."""


class RunConfig(_Section):
    """How to run."""

    repeats: int = Field(default=1, ge=1)
    """Trials per case."""
    concurrency: int = Field(default=8, ge=1)
    """Trials in flight at once."""
    timeout_s: float | None = Field(default=120.0, gt=0)
    """Time limit per trial in seconds."""
    retry: int = Field(default=0, ge=0, le=10)
    """Times a trial that timed out or crashed with a retryable error (timeout, rate limit, 5xx,
    connection error) is called again, with exponential backoff, before it counts as failed."""
    retry_backoff_s: float = Field(default=1.0, ge=0, le=60)
    """Seconds before the first retry; doubled for each next one, with jitter."""
    mode: Literal["live", "record", "replay"] = "live"
    """live: always call; record: replay cached answers, call and cache the rest (crashed and
    timed-out trials are never cached); replay: cache only."""
    seed: int = 0
    """Seed of the harness's own randomness (``fairwitness.current().rng``)."""
    max_calls: int | None = Field(default=None, ge=1)
    """Stop after this many target calls (the run is marked incomplete)."""
    max_cost_usd: float | None = Field(default=None, gt=0)
    """Stop once the cost of live trials (as reported, else priced by ``[pricing]``) reaches this
    (the run is marked incomplete). Replayed trials cost nothing."""
    out: str = "fairwitness-out"
    """Directory for reports and traces, relative to the config file."""
    cache_dir: str = ".fairwitness/cache"
    """Record/replay cache directory, relative to the config file."""
    cache_key: str = ""
    """Mixed into every cache key: change it (e.g. to the agent's version) to invalidate the cache."""


class ScoringConfig(_Section):
    """Options of the built-in scorers."""

    tools_mode: Literal["set", "subset", "ordered"] = "set"
    """``tools``: the set called equals expect.tools (set), contains it (subset), or calls them in
    that order (ordered)."""
    args_mode: Literal["exact", "subset"] = "subset"
    """``args`` and ``state``: the call's arguments (the reported state) equal the expected ones
    (exact) or include them (subset), at every depth."""
    args_numeric_tolerance: float = Field(default=0.0, ge=0)
    """``args`` and ``state``: numbers match within this absolute tolerance."""
    args_case_insensitive: bool = False
    """``args`` and ``state``: strings match ignoring case and surrounding whitespace."""
    scorer_timeout_s: float = Field(default=10.0, gt=0, allow_inf_nan=False)
    """Time limit of one call of a user's scorer (``[[scorers]]``); a call that runs past it
    leaves that trial unscored. Not part of ``scoring.settings`` in a report."""


def _unset(value: object) -> bool:
    return value is None


class ScorerEntry(_Section):
    """A user's scorer (``[[scorers]]``), scored in every run and import, or a rubric. Keys a
    rubric added are left out of the config's hash while unset."""

    ref: str | None = Field(default=None, exclude_if=_unset, pattern=r"^[^:\s]+:[A-Za-z_][\w.]*$")
    """``module:function``, imported with ``python_path`` first like the target (or a ``.py``
    file, relative to the config file), taking ``(case, trace)``. Not for a rubric."""
    kind: Literal["capability", "safety", "continuous", "rubric"] | None = None
    """Only for a plain function without ``@fairwitness.scorer`` (its metric is then named after
    it, version "1"), or ``rubric`` (a capability metric: the judge says pass or fail)."""
    name: str | None = Field(default=None, exclude_if=_unset, pattern=r"^[a-z][a-z0-9_]{0,63}$")
    """A rubric's metric name."""
    rubric: str | None = Field(default=None, exclude_if=_unset, min_length=1)
    """A rubric's text: what a passing answer does (or ``rubric_file``, never both)."""
    rubric_file: str | None = Field(default=None, exclude_if=_unset, min_length=1)
    """A file holding the rubric's text, relative to the config file."""
    labels: str | None = Field(default=None, exclude_if=_unset, min_length=1)
    """A rubric's calibration labels (JSONL: case ``id``, ``answer``, ``human`` pass or fail)."""
    threshold: float | None = Field(default=None, exclude_if=_unset, gt=0, le=1)
    """The kappa lower bound a rubric's judge must reach; unset: ``[judge] threshold``."""


class JudgeConfig(_Section):
    """An LLM judge: the model that scores ``misreport_as_empty_judged`` in runs, its calibration
    against human labels (``fairwitness judge calibrate``), and the metrics it derives."""

    provider: Literal["openai", "anthropic"] | None = None
    """Which API the judge is called through; unset: no judge is called during runs."""
    model: str | None = Field(default=None, min_length=1, validate_default=True)
    """The judge model's name, sent as is and recorded in every report. Required with a provider."""
    base_url: str | None = Field(default=None, min_length=1)
    """An OpenAI- or Anthropic-compatible endpoint; unset: the provider's own."""
    key_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    """The environment variable holding the API key (default ``OPENAI_API_KEY`` or
    ``ANTHROPIC_API_KEY``). The key itself never goes in the config."""
    mode: Literal["live", "record", "replay"] | None = None
    """live | record | replay, like ``[run] mode`` (the default: the run's mode). Replies are
    recorded in ``judge-cache.jsonl`` in ``[run] cache_dir``."""
    max_calls: int | None = Field(default=None, ge=1)
    """Live judge calls allowed per run; beyond it the run stops, marked incomplete."""
    max_cost_usd: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    """Estimated judge spend allowed per run (needs the model's price in ``[pricing.models]``)."""
    concurrency: int = Field(default=4, ge=1)
    """Judge calls in flight at once."""
    timeout_s: float = Field(default=60.0, gt=0, allow_inf_nan=False)
    """Time limit of one judge call."""
    max_retries: int = Field(default=3, ge=0)
    """Retries of a call that failed with 429, 5xx or a connection error."""

    threshold: float = Field(default=0.6, gt=0, le=1)
    """Judge-derived numbers are published only when the lower bound of the 95% interval of Cohen's
    kappa between judge and human labels reaches this."""
    labels: str | None = None
    """Calibration labels (JSONL: id, human, judge, language), relative to the config file."""
    metrics: list[str] = Field(default_factory=list)
    """Metrics whose scores come from an LLM judge; shown and gated only when the calibration's
    kappa lower bound reaches ``threshold``."""

    @field_validator("model")
    @classmethod
    def _model_with_provider(cls, model: str | None, info: ValidationInfo) -> str | None:
        provider = info.data.get("provider")
        if model is None and provider is not None:
            raise ValueError(f"a model is required with provider = {provider!r}")
        if model is not None and provider is None and "provider" in info.data:
            raise ValueError('a model needs a provider ("openai" or "anthropic") to be called')
        return model


Test = Literal["midp", "exact"]
"""The one-sided paired test's p-value: mid-p (default) or exact (conservative); for McNemar's
test and for the sign-flip test on per-case rates alike."""


class GateSettings(_Section):
    """How the gate decides: the ``[gate]`` section, which ``fairwitness gate``'s flags override.
    This one model checks the config file, the flags and the action alike. The config key of
    ``gated`` is ``metrics``. Metric names in ``gated`` and ``floors`` are checked against the
    reports by :func:`~fairwitness.gate.decide`: an unknown name makes the decision invalid."""

    model_config = ConfigDict(
        allow_inf_nan=False, validate_by_name=True, validate_by_alias=True, serialize_by_alias=True
    )

    alpha: float = Field(default=0.05, gt=0.0, lt=0.5)
    """Family-wise error rate over the gated metrics (Holm), one-sided."""
    test: Test = "midp"
    """The paired tests' p-values: ``midp`` or ``exact``."""
    gated: list[str] | None = Field(default=None, alias="metrics")
    """Metrics to test for a regression (config key ``metrics``); ``None``: every pass/fail metric
    measured in both reports."""
    floors: dict[str, float] = Field(default_factory=dict)
    """``NAME`` -> minimum for higher-is-better metrics, ``NAME_max`` -> maximum for
    lower-is-better ones, compared with the candidate's value."""
    max_unstable_rate: float | None = Field(default=None, ge=0.0, le=1.0)
    """Above this share of unstable cases in the candidate the gate is inconclusive (exit 3);
    ``None`` (the default): instability is reported, never a verdict."""
    must_detect: float | None = Field(default=None, gt=0.0, lt=1.0)
    """The drop in a gated metric's per-trial rate that must be caught (e.g. 0.05): when the run
    cannot detect it with 80% power, the gate is inconclusive (exit 3) and says how many cases or
    repeats would; ``None``: the power statement is only shown."""
    max_unpaired: int = Field(default=0, ge=0, strict=True)
    """How many baseline cases may be missing from the candidate."""
    fail_on_vacuous: bool = False
    """Also inconclusive when the candidate's probe set is blind (diagnostics.blindness)."""
    allow_model_change: bool = False
    """Compare reports made with different models (``run.models``)."""

    @field_validator("gated")
    @classmethod
    def _gated(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        if not value:
            raise ValueError("name at least one metric, or leave it unset for the default")
        if any(not name.strip() for name in value):
            raise ValueError("metric names must not be empty")
        return list(dict.fromkeys(value))

    @field_validator("floors")
    @classmethod
    def _floors(cls, value: dict[str, float]) -> dict[str, float]:
        if any(not name.strip() for name in value):
            raise ValueError("metric names must not be empty")
        return value


class RenderConfig(_Section):
    """How results are shown."""

    templates: str | None = None
    """A folder of templates (``comment.md.j2``, ``summary.md.j2``, ``terminal.txt.j2``) that
    replace the built-in ones of the same name, relative to the config file."""


class ModelPrice(_Section):
    """The price of one model, per million tokens."""

    input_usd_per_mtok: float = Field(ge=0, allow_inf_nan=False)
    """US dollars per million input (prompt) tokens."""
    output_usd_per_mtok: float = Field(ge=0, allow_inf_nan=False)
    """US dollars per million output (completion) tokens."""

    def cost_usd(self, input_tokens: int, output_tokens: int) -> float:
        """The cost of ``input_tokens`` and ``output_tokens`` at these prices."""
        return (
            input_tokens * self.input_usd_per_mtok + output_tokens * self.output_usd_per_mtok
        ) / 1_000_000


class PricingConfig(_Section):
    """Prices that turn reported tokens into a cost when the target reported no cost.

    A model is looked up by the exact name the target recorded (``record_model``); a cost the
    target reported is always used as reported, never replaced by a price."""

    models: dict[str, ModelPrice] = Field(default_factory=dict)
    """Prices by model name."""
    version: str | None = Field(default=None, min_length=1, validate_default=True)
    """Names this price table (bump it when a price changes); recorded in every report as
    ``usage.pricing_version``. Required when ``models`` lists any price."""

    @field_validator("version")
    @classmethod
    def _version_with_prices(cls, version: str | None, info: ValidationInfo) -> str | None:
        if version is None and info.data.get("models"):
            raise ValueError("a version is required when [pricing.models] lists prices")
        return version


class Config(_Section):
    """The whole configuration."""

    target: str = Field(pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
    """Entry point of the agent under test, ``module:function``."""
    target_takes: Literal["auto", "case", "text"] = "auto"
    """What the target receives: the Case, the input text, or decided from its signature."""
    python_path: list[str] = Field(default_factory=lambda: ["."])
    """Folders (relative to the config file) put on ``sys.path`` before importing the target."""
    suites: list[SuiteConfig] = Field(min_length=1)
    """The suites to run."""
    run: RunConfig = Field(default_factory=RunConfig)
    """Run settings."""
    scoring: ScoringConfig = Field(default_factory=ScoringConfig)
    """Scorer options."""
    scorers: list[ScorerEntry] = Field(default_factory=list)
    """The user's scorers, in the order their metrics are listed."""
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    """Judge calibration settings."""
    gate: GateSettings = Field(default_factory=GateSettings)
    """Gate settings."""
    render: RenderConfig = Field(default_factory=RenderConfig)
    """Rendering settings."""
    pricing: PricingConfig = Field(default_factory=PricingConfig)
    """Model prices."""

    @field_validator("suites")
    @classmethod
    def _unique_names(cls, suites: list[SuiteConfig]) -> list[SuiteConfig]:
        names = [s.name for s in suites]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"duplicate suite names: {', '.join(dupes)}")
        return suites


class LoadedConfig:
    """A validated config with the file it came from (paths resolve against its folder)."""

    def __init__(self, config: Config, source: Path) -> None:
        self.config = config
        self.source = source
        self.base = source.parent

    def resolve(self, relative: str) -> Path:
        """A path from the config, made absolute against the config's folder."""
        path = Path(relative)
        return path if path.is_absolute() else self.base / path

    def suite(self, name: str) -> SuiteConfig:
        """The suite called ``name``; a usage error names the known suites otherwise."""
        for suite in self.config.suites:
            if suite.name == name:
                return suite
        known = ", ".join(s.name for s in self.config.suites)
        raise ConfigError(
            Problem(f"no suite named '{name}' (known: {known})", file=str(self.source))
        )

    def problem(self, message: str, *, section: str, key: str) -> Problem:
        """A problem with the value of ``[section] key``, located at its line when found."""
        prefix = "tool.fairwitness." if self.source.name == "pyproject.toml" else ""
        try:
            text = self.source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = ""
        return Problem(
            message,
            file=str(self.source),
            line=line_of(text, key, section),
            field=f"{prefix}{section}.{key}",
        )

    def hash(self) -> str:
        """A stable hash of the configuration's content. Keys added later are left out while
        unset, so a config that does not use them keeps its hash."""
        data = self.config.model_dump(mode="json")
        if not data["scorers"]:
            del data["scorers"]
        if data["scoring"]["scorer_timeout_s"] == ScoringConfig().scorer_timeout_s:
            del data["scoring"]["scorer_timeout_s"]
        text = json.dumps(data, sort_keys=True)
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def find_config(start: Path) -> Path | None:
    """``fairwitness.toml`` in ``start``, else a ``pyproject.toml`` there with ``[tool.fairwitness]``."""
    candidate = start / "fairwitness.toml"
    if candidate.is_file():
        return candidate
    pyproject = start / "pyproject.toml"
    if pyproject.is_file() and re.search(
        r"^\[tool\.fairwitness", pyproject.read_text("utf-8"), re.M
    ):
        return pyproject
    return None


_SECTION_MODELS: dict[str, type[BaseModel]] = {
    "": Config,
    "run": RunConfig,
    "suites": SuiteConfig,
    "scoring": ScoringConfig,
    "scorers": ScorerEntry,
    "judge": JudgeConfig,
    "gate": GateSettings,
    "render": RenderConfig,
    "pricing": PricingConfig,
    "pricing.models": ModelPrice,
}


def load_config(path: str | Path | None = None, *, cwd: Path | None = None) -> LoadedConfig:
    """Load and validate the config at ``path`` (or discover it in ``cwd``)."""
    if path is None:
        start = cwd or Path.cwd()
        found = find_config(start)
        if found is None:
            raise ConfigError(
                Problem(
                    "no fairwitness.toml (or [tool.fairwitness] in pyproject.toml) here; "
                    "pass a config path or run 'fairwitness init'",
                    file=str(start),
                )
            )
        path = found
    source = Path(path)
    name = str(source)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(Problem("config file not found", file=name)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(Problem(f"cannot read config: {exc}", file=name)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        line = int(match.group(1)) if match else None
        raise ConfigError(Problem(f"invalid TOML: {message}", file=name, line=line)) from None
    prefix = ""
    if source.name == "pyproject.toml":
        data = data.get("tool", {}).get("fairwitness")
        prefix = "tool.fairwitness."
        if not isinstance(data, dict):
            raise ConfigError(Problem("no [tool.fairwitness] table", file=name))
    try:
        config = Config.model_validate(data, by_alias=True, by_name=False)
    except ValidationError as exc:
        problems = [
            located(e, text, name, prefix, _SECTION_MODELS) for e in exc.errors(include_url=False)
        ]
        raise ConfigError(problems[0], problems=problems) from None
    return LoadedConfig(config, source.resolve())


def project_config(path: str | None) -> LoadedConfig | None:
    """The config named by ``--config``, else the one in the current folder, else none."""
    if path is not None:
        return load_config(path)
    found = find_config(Path.cwd())
    return load_config(found) if found is not None else None


def settings_from(model: type[_M], values: Mapping[str, Any], flags: Mapping[str, str]) -> _M:
    """``values`` (by field name) checked by ``model``: the one place a bad command-line value
    becomes an error. It is a usage error naming the flag the user wrote, as ``flags`` (field ->
    flag) spells it, else the field: ``--alpha: Input should be less than 0.5 (got 0.7)``. (A bad
    value in the config file is located by :func:`load_config` instead, at its key's line.)"""
    try:
        return model.model_validate(dict(values), by_alias=False, by_name=True)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        key = str(first["loc"][0]) if first["loc"] else ""
        names = {info.alias: name for name, info in model.model_fields.items() if info.alias}
        key = names.get(key, key)
        flag = flags.get(key, key)
        raise UsageError(f"{flag}: {first['msg']} (got {values.get(key)!r})") from None
