from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field


class FindingOut(BaseModel):
    id: int
    game_id: str
    ruleset: str
    played_at: datetime
    seq: int | None
    seat: int | None
    player_id: str | None
    code: str
    severity: str
    message: str
    refs: list[Any]


class FindingPage(BaseModel):
    items: list[FindingOut]
    next_cursor: str | None = Field(
        description="Pass as ?cursor= for the next page; null at the end"
    )
