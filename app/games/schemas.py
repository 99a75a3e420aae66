from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field


class IngestOut(BaseModel):
    game_id: str
    outcome: Literal["created", "duplicate"]
    log_sha256: str
    #: the stored verdict (as ``GET /games/{id}/verdict``); null if not verified yet.
    verdict: dict[str, Any] | None = Field(description="The verdict JSON (LOG_FORMAT.md)")
    verification: Literal["done", "pending", "not_verified"] = Field(
        description="done: the verdict is here; pending: queued, a worker verifies it (the "
        "verdict link answers 404 verdict_pending until then); not_verified: a reaudit will"
    )


class BulkLineOut(BaseModel):
    """One line of the NDJSON answer of ``POST /games:bulk``."""

    line: int
    game_id: str | None
    status: Literal["created", "duplicate", "conflict", "rejected", "failed"]
    log_sha256: str | None = None
    verdict: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class PlayerAtSeat(BaseModel):
    seat: int
    player_id: str


class VerdictSummary(BaseModel):
    engine: str
    status: str
    findings: int
    verdict_sha256: str
    created_at: datetime


class GameOut(BaseModel):
    game_id: str
    ruleset: str
    match_id: str | None
    hand_no: int | None
    dealer: int
    players: list[PlayerAtSeat]
    started_at: datetime | None
    played_at: datetime
    ingested_at: datetime
    source: str
    api_key: str | None = Field(description="Name of the API key that sent the log")
    size_bytes: int
    raw_sha256: str
    log_sha256: str
    verdict: VerdictSummary | None
    engines: list[str] = Field(description="Engine versions that have a verdict on this log")
    links: dict[str, str]
