"""A provider judge seen through another prompt: one model, one budget, one cache, two prompts."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fairwitness.judge._providers import JudgeMode, _ProviderJudge


class PromptJudge:
    """A provider judge running another prompt than its own (``judge.for_prompt(version)``):
    a :class:`~fairwitness.judge.JudgeModel` whose calls are the provider judge's, counted against
    its caps and recorded in its cache under this prompt's version."""

    def __init__(self, base: _ProviderJudge, prompt_version: str) -> None:
        self.base = base
        self._prompt_version = prompt_version

    def __repr__(self) -> str:
        return f"{self.base!r}.for_prompt({self._prompt_version!r})"

    @property
    def name(self) -> str:
        """The provider judge's name, e.g. ``openai:gpt-4o-mini``."""
        return self.base.name

    @property
    def prompt_version(self) -> str:
        """The prompt template version this view runs."""
        return self._prompt_version

    @property
    def mode(self) -> JudgeMode:
        """The provider judge's call mode."""
        return self.base.mode

    @property
    def live_calls(self) -> int:
        """Live calls the provider judge made, for any prompt."""
        return self.base.live_calls

    @property
    def replayed(self) -> int:
        """Replies the provider judge took from its cache, for any prompt."""
        return self.base.replayed

    async def judge(self, prompt: str) -> str:
        """The raw reply to ``prompt`` (the provider judge's ``ask``)."""
        return await self.base.ask(prompt, self._prompt_version)

    async def aclose(self) -> None:
        """Close the provider judge's client of the running event loop."""
        await self.base.aclose()


__all__ = ["PromptJudge"]
