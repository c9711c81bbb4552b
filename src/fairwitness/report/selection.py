"""Which cases of a dataset a run selected by tag (``run --tag`` / ``--exclude-tag``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)


class Selection(_Model):
    """Which cases of the dataset a run selected by tag (``run --tag`` / ``--exclude-tag``);
    ``split_hash`` stays the whole dataset's, so two runs of one selection compare."""

    tags: list[str] = Field(default_factory=list)
    """A case with any of these tags ran; empty: every case not excluded."""
    exclude_tags: list[str] = Field(default_factory=list)
    """A case with any of these tags did not run (even with a tag of ``tags``)."""
    cases: int = Field(ge=0)
    """Cases selected."""
    dataset_cases: int = Field(ge=0)
    """Cases in the dataset before the selection."""

    def describe(self) -> str:
        """``tagged a or b, not tagged c``: the selection in words (its tags, as given)."""
        parts = []
        if self.tags:
            parts.append("tagged " + " or ".join(self.tags))
        if self.exclude_tags:
            parts.append("not tagged " + " or ".join(self.exclude_tags))
        return ", ".join(parts) or "every case"
