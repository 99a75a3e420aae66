"""Fair-play analytics: per-hand features, the last scan's pairs and players, the scans."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .types import UTCDateTime, utcnow


class FairplayFeatures(Base):
    """What the detectors need from one hand (``replay.fairplay.features``), read once."""

    __tablename__ = "fairplay_features"

    log_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("hand_logs.id", ondelete="CASCADE"), primary_key=True
    )
    #: ``replay.fairplay.FEATURES_VERSION`` they were read with
    version: Mapped[int] = mapped_column(SmallInteger)
    #: ``HandFeatures.to_json()``, or ``{"skip": why}`` for a hand that cannot be replayed
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class FairplayPair(Base):
    """One pair of players as the last scan ranked it."""

    __tablename__ = "fairplay_pairs"
    __table_args__ = (Index(None, "player_a", "player_b", unique=True),
                      Index(None, "player_b"))

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    player_a: Mapped[str] = mapped_column(String(128))
    player_b: Mapped[str] = mapped_column(String(128))
    rank: Mapped[int] = mapped_column(Integer, index=True)
    score: Mapped[float] = mapped_column(Float)
    flagged: Mapped[bool] = mapped_column(Boolean)
    hands: Mapped[int] = mapped_column(Integer)
    #: ``PairResult.to_json()``
    result: Mapped[dict[str, Any]] = mapped_column(JSON)


class FairplayPlayer(Base):
    """One player as the last scan ranked it."""

    __tablename__ = "fairplay_players"

    player_id: Mapped[str] = mapped_column(String(128), primary_key=True)
    rank: Mapped[int] = mapped_column(Integer, index=True)
    score: Mapped[float] = mapped_column(Float)
    flagged: Mapped[bool] = mapped_column(Boolean)
    hands: Mapped[int] = mapped_column(Integer)
    #: ``PlayerResult.to_json()``
    result: Mapped[dict[str, Any]] = mapped_column(JSON)


class FairplayScan(Base):
    """One run of ``paohuzi-audit fairplay scan``."""

    __tablename__ = "fairplay_scans"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    hands: Mapped[int] = mapped_column(Integer)
    new_hands: Mapped[int] = mapped_column(Integer)
    skipped: Mapped[int] = mapped_column(Integer)
    seconds_features: Mapped[float] = mapped_column(Float)
    seconds_detectors: Mapped[float] = mapped_column(Float)
