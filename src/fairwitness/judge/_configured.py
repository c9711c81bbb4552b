"""The judge a config's ``[judge]`` section names, built and checked before anything is called."""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fairwitness.config import LoadedConfig
from fairwitness.errors import ConfigError
from fairwitness.judge._providers import AnthropicJudge, JudgeMode, JudgePrice, OpenAIJudge
from fairwitness.judge._scorer import JUDGED_METRIC, JudgedScorer
from fairwitness.scoring.scorers import BUILTIN_SCORERS

if TYPE_CHECKING:
    from fairwitness.judge._rubrics import RubricScorer

ProviderJudge = OpenAIJudge | AnthropicJudge
_PROVIDERS: dict[str, type[ProviderJudge]] = {"openai": OpenAIJudge, "anthropic": AnthropicJudge}


def configured_judge(
    loaded: LoadedConfig,
    *,
    run_mode: JudgeMode,
    cache_dir: str | Path,
    environ: Mapping[str, str] | None = None,
) -> ProviderJudge | None:
    """The judge ``[judge] provider`` names, or ``None`` without one.

    Its mode is ``[judge] mode``, else the run's; replies are recorded in ``cache_dir``. A price
    comes from ``[pricing.models]`` under the judge model's name. Refused here, naming the key:
    ``max_cost_usd`` without a price, and (unless replaying) an unset API key variable or a missing
    SDK, so a run never starts with a judge that cannot answer.
    """
    section = loaded.config.judge
    if section.provider is None or section.model is None:
        return None
    cls = _PROVIDERS[section.provider]
    price = judge_price(loaded)
    mode: JudgeMode = section.mode or run_mode
    judge = cls(
        section.model,
        base_url=section.base_url,
        api_key_env=section.key_env,
        max_retries=section.max_retries,
        cost_cap_usd=section.max_cost_usd,
        price=price,
        max_calls=section.max_calls,
        cache_dir=cache_dir,
        mode=mode,
        timeout_s=section.timeout_s,
        environ=environ,
    )
    if mode != "replay":
        env = os.environ if environ is None else environ
        if not env.get(judge.api_key_env):
            raise ConfigError(
                loaded.problem(
                    f"the judge's API key variable {judge.api_key_env} is not set (set it, or "
                    'replay recorded replies with mode = "replay")',
                    section="judge",
                    key="key_env" if section.key_env else "provider",
                )
            )
        judge.check_sdk()
    return judge


def judge_price(loaded: LoadedConfig) -> JudgePrice | None:
    """The judge model's price from ``[pricing.models]``; refuses ``[judge] max_cost_usd`` without
    one, naming the key's line."""
    section = loaded.config.judge
    if section.model is None:
        return None
    listed = loaded.config.pricing.models.get(section.model)
    price = (
        JudgePrice(listed.input_usd_per_mtok, listed.output_usd_per_mtok)
        if listed is not None
        else None
    )
    if section.max_cost_usd is not None and price is None:
        raise ConfigError(
            loaded.problem(
                f"max_cost_usd needs the price of '{section.model}' in [pricing.models] to "
                "estimate what the judge spends (or bound it with max_calls)",
                section="judge",
                key="max_cost_usd",
            )
        )
    return price


def check_judge_metrics(loaded: LoadedConfig, names: Sequence[str] | None = None) -> None:
    """Refuse a ``[judge] metrics`` name that is not a metric of the run (``names``; default: the
    built-in metrics, and the judge's own when a provider is set), naming the key's line."""
    if names is None:
        judged = [JUDGED_METRIC] if loaded.config.judge.provider is not None else []
        names = [scorer.name for scorer in BUILTIN_SCORERS] + judged
    for name in loaded.config.judge.metrics:
        if name not in names:
            close = difflib.get_close_matches(name, list(names), n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'?" if close else f"known: {', '.join(names)}"
            raise ConfigError(
                loaded.problem(f"unknown metric '{name}'; {hint}", section="judge", key="metrics")
            )


def judge_identity(judge: ProviderJudge) -> dict[str, Any]:
    """What a report records of the judge: provider, model and prompt version."""
    return {
        "provider": judge.provider,
        "model": judge.model,
        "prompt_version": judge.prompt_version,
    }


class JudgeWork:
    """What the run's judge did since :meth:`start`: prompts asked (for its own metric and the
    rubrics'), live calls, replies replayed and the estimated spend, for a report's
    ``diagnostics.judge.usage``."""

    def __init__(
        self, judged: JudgedScorer, model: ProviderJudge, rubrics: Sequence[RubricScorer] = ()
    ) -> None:
        self.judged, self.model, self.rubrics = judged, model, tuple(rubrics)
        self.start()

    def _asked(self) -> int:
        return self.judged.asked + sum(rubric.asked for rubric in self.rubrics)

    def start(self) -> None:
        """Start counting (at the start of each suite)."""
        model = self.model
        self._mark = (self._asked(), model.live_calls, model.replayed, model.spent_usd)
        judged = self.judged
        self._decided = (judged.by_labeller, judged.by_judge, judged.unread)

    def usage(self) -> dict[str, Any]:
        """What the judge did since :meth:`start`."""
        asked, live, replayed, spent = self._mark
        model = self.model
        cost = None
        if model.spent_usd is not None and spent is not None:
            cost = round(model.spent_usd - spent, 6)
        return {
            "asked": self._asked() - asked,
            "live_calls": model.live_calls - live,
            "replayed": model.replayed - replayed,
            "cost_usd": cost,
            "mode": model.mode,
            "by_labeller": self.judged.by_labeller - self._decided[0],
            "by_judge": self.judged.by_judge - self._decided[1],
            "unread": self.judged.unread - self._decided[2],
        }
