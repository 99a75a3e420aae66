from __future__ import annotations

from pydantic import BaseModel, Field


class MatchHand(BaseModel):
    hand: int | None = Field(description="the log's 1-based match.hand")
    game_id: str
    dealer: int
    players: list[str] = Field(description="player id by seat")
    outcome: str | None = Field(description="hu, exhausted, abandoned; null when unknown")
    winner: int | None
    expected_scores: list[int] | None = Field(description="the payouts the rules give")
    claimed_scores: list[int] | None = Field(description="the producer's result.scores")
    verdict_status: str | None


class MatchProblemOut(BaseModel):
    hand: int
    game_id: str
    code: str
    message: str


class MatchOut(BaseModel):
    match_id: str
    hands: list[MatchHand]
    #: running totals per player id over the stored hands, as the rules give them
    expected_totals: dict[str, int]
    #: the same from the producers' claimed results (hands without one count 0)
    claimed_totals: dict[str, int]
    problems: list[MatchProblemOut] = Field(
        description="dealer rotation (RULES §10, match_invalid) and, in profiles with 黄番, "
        "match.drawn_before against the drawn hands before it (§11, drawn_before_mismatch)")
