from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class PlayerGame(BaseModel):
    game_id: str
    seat: int
    ruleset: str
    played_at: datetime
    verdict_status: str | None


class PlayerOut(BaseModel):
    player_id: str
    hands: int
    hands_by_ruleset: dict[str, int]
    first_played_at: datetime
    last_played_at: datetime
    findings_by_code: dict[str, int]
    decisions_by_kind: dict[str, int]
    recent_games: list[PlayerGame]
