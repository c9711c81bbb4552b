"""Judge providers over the OpenAI and Anthropic SDKs: :class:`OpenAIJudge` and :class:`AnthropicJudge`.

Both implement :class:`~fairwitness.judge.JudgeModel` and share what makes a judge safe to
run in CI:

- **deterministic requests**: the prompt as the only user message, a small fixed ``max_tokens``,
  and for OpenAI temperature 0 (``temperature=None`` leaves it out, for models that refuse it).
  Anthropic's Messages API (version 2026-10-21, SDK 2.x) refuses every sampling parameter, so an
  Anthropic judge's replies are pinned by recording them instead;
- **retries** on 429 and 5xx with backoff, by the SDK's own ``max_retries``;
- **a spending cap**: with a :class:`JudgePrice`, the running cost estimate from reported usage
  tokens is kept and calls are refused once it reaches ``cost_cap_usd``; with no price, ``max_calls``
  bounds the number of live calls instead. A provider that reports no usage makes the estimate
  unknown, and a capped judge then refuses further calls rather than guessing. A call that fails
  still counts as made (it may have been billed); calls already in flight when the cap is reached
  finish, so with concurrency ``c`` the estimate can pass the cap by at most ``c - 1`` calls;
- **record / replay**: ``mode="record"`` answers a prompt already recorded in
  ``<cache_dir>/judge-cache.jsonl`` (keyed by ``sha256(model, prompt_version, prompt)``) from the
  file, and calls and appends the rest; ``mode="replay"`` answers from that file only, without
  network, SDK or API key, so a calibrated judge reruns offline. A missing entry raises
  :class:`JudgeCacheMiss`; it is never answered live;
- **one judge, several prompts**: ``judge.for_prompt(version)`` runs another prompt (the rubric
  prompt) on the same model, caps, cache and connections; its replies are keyed by that version,
  and the judge's own prompt keeps its keys.

The API key is read from the environment variable named by ``api_key_env`` when a live call is made,
handed to the SDK client and never stored elsewhere, printed or logged. A judge keeps one SDK client
(one connection pool) per event loop, so calls reuse connections, and a judge can be used from
several event loops (``asyncio.run`` more than once). Close the running loop's client with
``await judge.aclose()`` or ``async with judge:`` before that loop ends;
:func:`~fairwitness.judge.run_judge` and ``fairwitness run`` close it when they are done.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib
import json
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Final, Literal

from fairwitness.errors import CacheMissError, ConfigError, FairwitnessError, Problem
from fairwitness.judge._prompt import JUDGE_PROMPT_VERSION
from fairwitness.judge._views import PromptJudge

JudgeMode = Literal["live", "record", "replay"]

CACHE_FILE: Final = "judge-cache.jsonl"
"""Name of the record/replay file inside ``cache_dir``."""


class JudgeBudgetExceeded(FairwitnessError):
    """A judge refused a call: its cost cap or call limit is reached, or its cost is unknown."""


class JudgeCacheMiss(CacheMissError):
    """A replaying judge was asked a prompt that was never recorded."""


@dataclass(frozen=True)
class JudgePrice:
    """What the judge model costs, in US dollars per million tokens."""

    input_usd_per_mtok: float
    output_usd_per_mtok: float

    def __post_init__(self) -> None:
        for name in ("input_usd_per_mtok", "output_usd_per_mtok"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{name} must be a non-negative number, got {value!r}")

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        """The cost of one call that used these tokens."""
        return (
            input_tokens * self.input_usd_per_mtok + output_tokens * self.output_usd_per_mtok
        ) / 1_000_000


def cache_key(model: str, prompt_version: str, prompt: str) -> str:
    """The record/replay key of one judge call."""
    material = "\x1f".join([model, prompt_version, prompt])
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


class JudgeCache:
    """Recorded judge replies, one JSON object per line; a later line for a key wins."""

    def __init__(self, directory: str | Path) -> None:
        self.path = Path(directory) / CACHE_FILE
        self._entries: dict[str, str] | None = None
        self._lock = threading.Lock()

    def _load(self) -> dict[str, str]:
        if self._entries is not None:
            return self._entries
        entries: dict[str, str] = {}
        if self.path.exists():
            text = self.path.read_text(encoding="utf-8")
            for number, line in enumerate(text.split("\n"), start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise FairwitnessError(
                        Problem(f"not JSON: {exc.msg}", str(self.path), number)
                    ) from None
                if not (
                    isinstance(record, dict)
                    and isinstance(record.get("key"), str)
                    and isinstance(record.get("reply"), str)
                ):
                    raise FairwitnessError(
                        Problem(
                            "a judge cache line needs str 'key' and 'reply'", str(self.path), number
                        )
                    )
                entries[record["key"]] = record["reply"]
        self._entries = entries
        return entries

    def get(self, key: str) -> str | None:
        """The recorded reply for ``key``, or ``None``."""
        with self._lock:
            return self._load().get(key)

    def put(self, key: str, *, model: str, prompt_version: str, reply: str) -> None:
        """Append one reply (flushed at once, so a crash keeps what was already paid for)."""
        line = json.dumps(
            {"key": key, "model": model, "prompt_version": prompt_version, "reply": reply},
            ensure_ascii=False,
        )
        with self._lock:
            entries = self._load()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            entries[key] = reply


@dataclass(frozen=True)
class ProviderReply:
    """One live reply: its text and the usage tokens the provider reported (``None`` if not)."""

    text: str
    input_tokens: int | None
    output_tokens: int | None


def _tokens(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


class _ProviderJudge:
    """Budget, cache and key handling shared by the provider judges."""

    provider: ClassVar[str]
    sdk: ClassVar[str]
    key_env: ClassVar[str]
    """The environment variable the API key is read from unless ``api_key_env`` names another."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key_env: str | None = None,
        max_retries: int = 3,
        cost_cap_usd: float | None = None,
        price: JudgePrice | None = None,
        max_calls: int | None = None,
        cache_dir: str | Path | None = None,
        mode: JudgeMode = "live",
        max_tokens: int = 16,
        timeout_s: float = 60.0,
        prompt_version: str = JUDGE_PROMPT_VERSION,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        api_key_env = api_key_env or self.key_env
        if not isinstance(model, str) or not model:
            raise ValueError("model must be a non-empty str")
        if mode not in ("live", "record", "replay"):
            raise ValueError(f"mode must be 'live', 'record' or 'replay', got {mode!r}")
        if mode != "live" and cache_dir is None:
            raise ValueError(f"mode={mode!r} needs cache_dir")
        if cost_cap_usd is not None:
            if price is None:
                raise ValueError(
                    "cost_cap_usd needs price= to estimate cost; without a price, bound the "
                    "judge with max_calls="
                )
            if cost_cap_usd < 0:
                raise ValueError(f"cost_cap_usd must be >= 0, got {cost_cap_usd!r}")
        for label, value in (("max_retries", max_retries), ("max_tokens", max_tokens)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{label} must be a non-negative integer, got {value!r}")
        if max_calls is not None and (isinstance(max_calls, bool) or max_calls < 0):
            raise ValueError(f"max_calls must be a non-negative integer, got {max_calls!r}")
        self.model = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.max_retries = max_retries
        self.cost_cap_usd = cost_cap_usd
        self.price = price
        self.max_calls = max_calls
        self.mode: JudgeMode = mode
        self.max_tokens = max_tokens
        self.timeout_s = timeout_s
        self._prompt_version = prompt_version

        def read_key() -> str:  # a closure: the key never sits in the judge's attributes
            return (os.environ if environ is None else environ).get(api_key_env, "")

        self._read_key = read_key
        self.cache = JudgeCache(cache_dir) if cache_dir is not None else None
        self.live_calls = 0
        """Live calls started (replayed answers are not counted)."""
        self.replayed = 0
        """Prompts answered from the record/replay cache."""
        self.spent_usd: float | None = 0.0 if price is not None else None
        """Estimated cost of the live calls so far; ``None`` without a price or when unknown."""
        self._cost_unknown = False
        self._lock = threading.Lock()
        self._clients: dict[asyncio.AbstractEventLoop, Any] = {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.model!r}, mode={self.mode!r})"

    @property
    def name(self) -> str:
        """The provider and model, e.g. ``openai:gpt-4o-mini``."""
        return f"{self.provider}:{self.model}"

    @property
    def prompt_version(self) -> str:
        """The prompt template version this judge is run (and calibrated) for."""
        return self._prompt_version

    # -- the JudgeModel call -------------------------------------------------------------------

    def for_prompt(self, prompt_version: str) -> PromptJudge:
        """This judge running the prompt of ``prompt_version`` (e.g. the rubric prompt): the same
        model, budget, cache and connections, with replies recorded under that version."""
        return PromptJudge(self, prompt_version)

    async def judge(self, prompt: str) -> str:
        """The raw reply to ``prompt``: replayed, or live (then recorded in ``record`` mode)."""
        return await self.ask(prompt, self._prompt_version)

    async def ask(self, prompt: str, prompt_version: str) -> str:
        """The raw reply to ``prompt``, built from the template of ``prompt_version``, which keys
        its record/replay entry; caps and counts are this judge's whichever prompt it runs."""
        key = cache_key(self.model, prompt_version, prompt)
        if self.cache is not None and self.mode != "live":
            reply = self.cache.get(key)
            if reply is not None:
                with self._lock:
                    self.replayed += 1
                return reply
        if self.mode == "replay":
            assert self.cache is not None
            raise JudgeCacheMiss(
                Problem(
                    f"judge {self.name} (prompt {prompt_version}) has no recorded reply "
                    f"for key {key[:16]}; record it with mode='record'",
                    str(self.cache.path),
                )
            )
        self._reserve()
        answer = await self._call(self._client(), prompt)
        self._account(answer)
        if self.mode == "record":
            assert self.cache is not None
            self.cache.put(key, model=self.model, prompt_version=prompt_version, reply=answer.text)
        return answer.text

    # -- budget --------------------------------------------------------------------------------

    def _reserve(self) -> None:
        with self._lock:
            if self.max_calls is not None and self.live_calls >= self.max_calls:
                raise JudgeBudgetExceeded(
                    f"judge {self.name}: call limit reached ({self.live_calls} of max_calls="
                    f"{self.max_calls})"
                )
            if self.cost_cap_usd is not None:
                if self._cost_unknown:
                    raise JudgeBudgetExceeded(
                        f"judge {self.name}: the provider reported no usage, so the cost cap "
                        f"of ${self.cost_cap_usd:g} cannot be enforced; refusing further calls"
                    )
                spent = self.spent_usd or 0.0
                if spent >= self.cost_cap_usd:
                    raise JudgeBudgetExceeded(
                        f"judge {self.name}: cost cap reached (estimated ${spent:.6f} of "
                        f"${self.cost_cap_usd:g})"
                    )
            self.live_calls += 1

    def _account(self, answer: ProviderReply) -> None:
        if self.price is None:
            return
        with self._lock:
            if answer.input_tokens is None or answer.output_tokens is None:
                self._cost_unknown = True
                self.spent_usd = None
                return
            if self.spent_usd is not None:
                self.spent_usd += self.price.cost(answer.input_tokens, answer.output_tokens)

    # -- provider ------------------------------------------------------------------------------

    def _api_key(self) -> str:
        value = self._read_key()
        if not value:
            raise ConfigError(
                f"judge {self.name}: set the environment variable {self.api_key_env} to the "
                "API key (or use mode='replay' with a recorded cache)"
            )
        return value

    def _client(self) -> Any:
        """The SDK client of the running event loop, made on its first call."""
        loop = asyncio.get_running_loop()
        with self._lock:
            for gone in [other for other in self._clients if other.is_closed()]:
                del self._clients[gone]  # its loop ended without aclose(); nothing left to close
            client = self._clients.get(loop)
        if client is None:
            client = self._new_client(self._sdk(), self._api_key())
            with self._lock:
                client = self._clients.setdefault(loop, client)
        return client

    async def aclose(self) -> None:
        """Close the running event loop's SDK client, if the judge made one."""
        with self._lock:
            client = self._clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.close()

    async def __aenter__(self) -> _ProviderJudge:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def check_sdk(self) -> None:
        """Raise :class:`ConfigError` naming the extra when the provider's SDK is not installed."""
        self._sdk()

    def _sdk(self) -> Any:
        try:
            return importlib.import_module(self.sdk)
        except ImportError:
            raise ConfigError(
                f"{type(self).__name__} needs the '{self.sdk}' package, which is not installed: "
                f"pip install 'fairwitness[{self.sdk}]'"
            ) from None

    def _new_client(self, sdk: Any, api_key: str) -> Any:
        raise NotImplementedError

    async def _call(self, client: Any, prompt: str) -> ProviderReply:
        raise NotImplementedError


class OpenAIJudge(_ProviderJudge):
    """A judge over the OpenAI Chat Completions API (``base_url`` for compatible servers).

    ``model`` is sent as is; the API key comes from the environment variable ``api_key_env`` (read
    from ``environ``, default ``os.environ``). ``max_retries`` is the SDK's retry count for 429,
    5xx and connection errors. ``price`` with ``cost_cap_usd`` caps the estimated spend; without a
    price, ``max_calls`` caps the number of live calls. ``mode`` and ``cache_dir`` select
    record/replay. ``temperature`` is 0 unless set to ``None`` (left out of the request).
    """

    provider = "openai"
    sdk = "openai"
    key_env = "OPENAI_API_KEY"

    def __init__(self, model: str, *, temperature: float | None = 0.0, **options: Any) -> None:
        self.temperature = temperature
        super().__init__(model, **options)

    def _new_client(self, sdk: Any, api_key: str) -> Any:
        return sdk.AsyncOpenAI(
            api_key=api_key,
            base_url=self.base_url,
            max_retries=self.max_retries,
            timeout=self.timeout_s,
        )

    async def _call(self, client: Any, prompt: str) -> ProviderReply:
        sampling: dict[str, Any] = {}
        if self.temperature is not None:
            sampling["temperature"] = self.temperature
        response = await client.chat.completions.create(
            model=self.model,
            messages=[{"role": "user", "content": prompt}],
            max_completion_tokens=self.max_tokens,
            **sampling,
        )
        usage = getattr(response, "usage", None)
        content = response.choices[0].message.content if response.choices else None
        return ProviderReply(
            text=str(content or ""),
            input_tokens=_tokens(getattr(usage, "prompt_tokens", None)),
            output_tokens=_tokens(getattr(usage, "completion_tokens", None)),
        )


class AnthropicJudge(_ProviderJudge):
    """A judge over the Anthropic Messages API.

    Options as for :class:`OpenAIJudge`. No sampling parameter is sent: the API refuses them, so
    reproducible labels come from ``mode="record"`` then ``mode="replay"``.
    """

    provider = "anthropic"
    sdk = "anthropic"
    key_env = "ANTHROPIC_API_KEY"

    def _new_client(self, sdk: Any, api_key: str) -> Any:
        return sdk.AsyncAnthropic(
            api_key=api_key,
            base_url=self.base_url,
            max_retries=self.max_retries,
            timeout=self.timeout_s,
        )

    async def _call(self, client: Any, prompt: str) -> ProviderReply:
        response = await client.messages.create(
            model=self.model,
            max_tokens=self.max_tokens,
            messages=[{"role": "user", "content": prompt}],
        )
        usage = getattr(response, "usage", None)
        inputs = _tokens(getattr(usage, "input_tokens", None))
        if inputs is not None:
            for name in ("cache_creation_input_tokens", "cache_read_input_tokens"):
                inputs += _tokens(getattr(usage, name, None)) or 0
        text = "".join(
            block.text for block in response.content if getattr(block, "type", None) == "text"
        )
        return ProviderReply(
            text=text,
            input_tokens=inputs,
            output_tokens=_tokens(getattr(usage, "output_tokens", None)),
        )


__all__ = [
    "CACHE_FILE",
    "AnthropicJudge",
    "JudgeBudgetExceeded",
    "JudgeCache",
    "JudgeCacheMiss",
    "JudgeMode",
    "JudgePrice",
    "OpenAIJudge",
    "ProviderReply",
    "cache_key",
]
