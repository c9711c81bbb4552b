"""OpenAIJudge and AnthropicJudge against loopback servers: requests, retries, caps, record/replay."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from fairwitness.errors import CacheMissError, ConfigError, FairwitnessError
from fairwitness.judge import (
    CACHE_FILE,
    JUDGE_PROMPT_VERSION,
    AnthropicJudge,
    JudgeBudgetExceeded,
    JudgeCacheMiss,
    JudgePrice,
    JudgeRequest,
    OpenAIJudge,
    build_prompt,
    cache_key,
    run_judge,
)
from llm_fakes import Reply, anthropic_answer, chat_answer, error, serve

pytestmark = pytest.mark.integration

KEY_ENV = "FW_TEST_JUDGE_KEY"
SECRET = "sk-test-secret-value"
ITEMS = [
    JudgeRequest("jobs in Lyon?", "There are no open jobs.", ("search_jobs: error (timeout)",)),
    JudgeRequest("jobs in Lyon?", "The search failed.", ("search_jobs: error (timeout)",)),
]


def ask(judge: OpenAIJudge | AnthropicJudge, prompt: str) -> str:
    """One judge call in its own event loop, closing the judge's client before the loop ends."""

    async def once() -> str:
        async with judge:
            return await judge.judge(prompt)

    return asyncio.run(once())


@dataclass(frozen=True)
class Provider:
    name: str
    cls: type[OpenAIJudge] | type[AnthropicJudge]
    sdk: str
    path: str
    answer: Callable[[str, str, tuple[int, int]], Reply]

    def base_url(self, url: str) -> str:
        return f"{url}/v1" if self.sdk == "openai" else url

    def judge(self, url: str, **options: Any) -> OpenAIJudge | AnthropicJudge:
        options.setdefault("environ", {KEY_ENV: SECRET})
        return self.cls("judge-model", base_url=self.base_url(url), api_key_env=KEY_ENV, **options)


PROVIDERS = [
    Provider("openai", OpenAIJudge, "openai", "/v1/chat/completions", chat_answer),
    Provider("anthropic", AnthropicJudge, "anthropic", "/v1/messages", anthropic_answer),
]


@pytest.fixture(params=PROVIDERS, ids=lambda p: p.name)
def provider(request: pytest.FixtureRequest) -> Provider:
    found: Provider = request.param
    importlib.import_module(found.sdk)  # installed with the dev extra
    return found


def labelling(provider: Provider, usage: tuple[int, int] = (100, 1)) -> Any:
    """A judge model that reads the prompt it was sent and labels the answer in it."""

    def script(path: str, body: dict[str, Any]) -> Reply:
        prompt = body["messages"][0]["content"]
        label = "misreport" if "no open jobs" in prompt else "acknowledged"
        return provider.answer("judge-model-2026", label, usage)

    return script


def test_deterministic_requests_and_labels(provider: Provider) -> None:
    with serve(labelling(provider)) as server:
        judge = provider.judge(server.url)
        labels = asyncio.run(run_judge(judge, ITEMS, concurrency=2))
    assert labels == ["misreport", "acknowledged"]
    assert judge.name == f"{provider.name}:judge-model"
    assert judge.prompt_version == JUDGE_PROMPT_VERSION
    assert len(server.requests) == 2
    prompts = sorted(r.body["messages"][0]["content"] for r in server.requests)
    assert prompts == sorted(build_prompt(item) for item in ITEMS)
    for request in server.requests:
        assert request.path == provider.path
        if provider.sdk == "openai":
            assert request.body["temperature"] == 0
            assert request.body["max_completion_tokens"] == 16
        else:  # the 2026-10-21 Messages API refuses every sampling parameter
            assert "temperature" not in request.body
            assert request.body["max_tokens"] == 16
        assert request.body["model"] == "judge-model"
        assert request.body["messages"] == [request.body["messages"][0]]
        assert SECRET in (
            request.headers.get("authorization", "") + request.headers.get("x-api-key", "")
        )
    assert SECRET not in repr(judge) and SECRET not in repr(vars(judge))


@pytest.mark.parametrize("status", [429, 500, 503])
def test_rate_limits_and_server_errors_are_retried(provider: Provider, status: int) -> None:
    failures = iter([error(status), error(status)])
    good = labelling(provider)

    def script(path: str, body: dict[str, Any]) -> Reply:
        return next(failures, None) or good(path, body)

    with serve(script) as server:
        judge = provider.judge(server.url, max_retries=2)
        reply = ask(judge, build_prompt(ITEMS[0]))
    assert reply == "misreport"
    assert len(server.requests) == 3
    assert judge.live_calls == 1


def test_retries_run_out_into_an_error_never_a_label(provider: Provider) -> None:
    with serve(lambda path, body: error(429)) as server:
        judge = provider.judge(server.url, max_retries=1)
        with pytest.raises(Exception, match="429") as raised:
            asyncio.run(run_judge(judge, ITEMS[:1]))
    assert getattr(raised.value, "status_code", None) == 429
    assert len(server.requests) == 2


def test_the_cost_cap_refuses_calls_once_reached(provider: Provider) -> None:
    # each call: 100 input tokens at $2500/Mtok + 1 output token at $0 -> $0.25
    price = JudgePrice(input_usd_per_mtok=2500.0, output_usd_per_mtok=0.0)
    with serve(labelling(provider)) as server:
        judge = provider.judge(server.url, price=price, cost_cap_usd=0.5)
        prompt = build_prompt(ITEMS[0])
        assert ask(judge, prompt) == "misreport"
        assert judge.spent_usd == pytest.approx(0.25)
        ask(judge, prompt)
        with pytest.raises(JudgeBudgetExceeded, match=r"cost cap reached \(estimated \$0\.500000"):
            ask(judge, prompt)
    assert len(server.requests) == 2


def test_without_a_price_max_calls_bounds_the_judge(provider: Provider) -> None:
    with serve(labelling(provider)) as server:
        judge = provider.judge(server.url, max_calls=1)
        ask(judge, build_prompt(ITEMS[0]))
        with pytest.raises(JudgeBudgetExceeded, match="max_calls=1"):
            ask(judge, build_prompt(ITEMS[1]))
        with pytest.raises(JudgeBudgetExceeded):  # a refusal is never turned into a label
            asyncio.run(run_judge(judge, ITEMS, concurrency=1))
    assert len(server.requests) == 1
    assert judge.spent_usd is None
    with pytest.raises(ValueError, match="max_calls"):
        provider.judge(server.url, cost_cap_usd=1.0)


def test_a_capped_judge_stops_when_usage_is_not_reported(provider: Provider) -> None:
    def script(path: str, body: dict[str, Any]) -> Reply:
        status, payload = provider.answer("judge-model", "misreport", (1, 1))[:2]
        payload.pop("usage")
        return status, payload

    price = JudgePrice(1.0, 1.0)
    with serve(script) as server:
        judge = provider.judge(server.url, price=price, cost_cap_usd=10.0)
        ask(judge, "p")
        with pytest.raises(JudgeBudgetExceeded, match="reported no usage"):
            ask(judge, "p")
    assert judge.spent_usd is None


def test_record_then_replay_offline(
    provider: Provider, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serve(labelling(provider)) as server:
        recorder = provider.judge(server.url, mode="record", cache_dir=tmp_path)
        recorded = asyncio.run(run_judge(recorder, ITEMS))
    lines = [json.loads(line) for line in (tmp_path / CACHE_FILE).read_text().splitlines()]
    assert sorted(line["key"] for line in lines) == sorted(
        cache_key("judge-model", JUDGE_PROMPT_VERSION, build_prompt(item)) for item in ITEMS
    )
    assert all(SECRET not in json.dumps(line) for line in lines)

    # no server, no API key, no SDK: the replaying judge answers from the file alone
    monkeypatch.setitem(sys.modules, provider.sdk, None)
    replayer = provider.judge("http://127.0.0.1:9", mode="replay", cache_dir=tmp_path, environ={})
    assert asyncio.run(run_judge(replayer, ITEMS)) == recorded
    assert replayer.live_calls == 0

    new = JudgeRequest("q", "never recorded")
    with pytest.raises(JudgeCacheMiss, match="no recorded reply") as missed:
        asyncio.run(run_judge(replayer, [new]))
    assert isinstance(missed.value, CacheMissError)
    assert CACHE_FILE in str(missed.value)


def test_the_cache_key_depends_on_model_prompt_version_and_prompt() -> None:
    keys = {
        cache_key("m", "v1", "p"),
        cache_key("m2", "v1", "p"),
        cache_key("m", "v2", "p"),
        cache_key("m", "v1", "p2"),
        cache_key("mv", "1", "p"),
    }
    assert len(keys) == 5


def test_a_corrupt_cache_line_is_named(tmp_path: Path) -> None:
    (tmp_path / CACHE_FILE).write_text('{"key": "k", "reply": "misreport"}\n{oops\n')
    judge = OpenAIJudge("m", mode="replay", cache_dir=tmp_path)
    with pytest.raises(FairwitnessError, match=rf"{CACHE_FILE}:2: not JSON"):
        ask(judge, "p")


def test_a_missing_key_names_the_variable_and_sends_nothing(provider: Provider) -> None:
    with serve(labelling(provider)) as server:
        judge = provider.judge(server.url, environ={})
        with pytest.raises(ConfigError, match=KEY_ENV):
            ask(judge, "p")
    assert server.requests == []


def test_a_missing_sdk_names_the_extra(provider: Provider, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, provider.sdk, None)
    judge = provider.judge("http://127.0.0.1:9")
    with pytest.raises(ConfigError, match=rf"pip install 'fairwitness\[{provider.sdk}\]'"):
        ask(judge, "p")


def test_openai_temperature_can_be_left_out() -> None:
    with serve(labelling(PROVIDERS[0])) as server:
        judge = OpenAIJudge(
            "m",
            base_url=f"{server.url}/v1",
            api_key_env=KEY_ENV,
            environ={KEY_ENV: SECRET},
            temperature=None,
        )
        ask(judge, "p")
    assert "temperature" not in server.requests[0].body


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="cache_dir"):
        OpenAIJudge("m", mode="replay")
    with pytest.raises(ValueError, match="mode"):
        AnthropicJudge("m", mode="offline")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="input_usd_per_mtok"):
        JudgePrice(-1.0, 0.0)


def test_one_client_per_event_loop_closed_when_the_batch_ends(
    provider: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Any] = []
    original = provider.cls._new_client

    def counting(self: Any, sdk: Any, api_key: str) -> Any:
        client = original(self, sdk, api_key)
        made.append(client)
        return client

    monkeypatch.setattr(provider.cls, "_new_client", counting)
    items = ITEMS * 5
    with serve(labelling(provider)) as server:
        judge = provider.judge(server.url)
        assert len(asyncio.run(run_judge(judge, items, concurrency=3))) == 10
        assert len(asyncio.run(run_judge(judge, items[:2]))) == 2  # a second event loop
    assert len(server.requests) == 12
    assert len(made) == 2  # one per loop, shared by its calls, not one per call
    assert all(client.is_closed() for client in made)
