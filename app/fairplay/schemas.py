from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class DetectorOut(BaseModel):
    z: float
    p: float
    n: int
    observed: float
    expected: float


class EvidenceOut(BaseModel):
    detector: str
    game_id: str
    #: the steps (event indexes) of the hand that carry it; empty for a whole-hand item
    seq: list[int]
    note: str


class PairOut(BaseModel):
    players: list[str]
    score: float
    flagged: bool
    hands: int
    detectors: dict[str, DetectorOut]
    evidence: list[EvidenceOut]


class PairsOut(BaseModel):
    hands: int
    scanned_at: datetime | None
    pairs: list[PairOut]


class PartnerOut(BaseModel):
    player: str
    hands: int


class PlayerFairplayOut(BaseModel):
    player: str
    score: float
    flagged: bool
    hands: int
    detectors: dict[str, DetectorOut]
    evidence: list[EvidenceOut]
    pairs: list[PairOut]
    partners: list[PartnerOut]
