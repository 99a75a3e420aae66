from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from ..bounds import Text


class ReauditIn(BaseModel):
    limit: int = Field(default=1000, ge=1, le=10_000, description="Most logs to re-verify now")
    game_ids: list[Annotated[Text, Field(max_length=128)]] | None = Field(
        default=None, max_length=10_000, description="Only these games (default: all stale)"
    )


class VerdictChange(BaseModel):
    game_id: str
    from_engine: str
    to_engine: str
    from_status: str
    to_status: str
    findings_before: int
    findings_after: int


class ReauditFailure(BaseModel):
    game_id: str
    reason: str


class ReauditOut(BaseModel):
    engine: str
    checked: int = Field(description="Logs re-verified in this call")
    changed: int = Field(description="Verdicts whose content changed (engine field aside)")
    unchanged: int
    newly_verified: int = Field(description="Logs that had no verdict before")
    failed: list[ReauditFailure]
    remaining: int = Field(description="Logs still without a verdict of this engine")
    changes: list[VerdictChange] = Field(description="The changed verdicts (first 1000)")
