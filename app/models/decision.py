from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, SmallInteger, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .types import UTCDateTime


class DecisionRow(Base):
    """One decision (过张, 臭牌, 臭偎, 臭胡, or a later check against them) of a current verdict."""

    __tablename__ = "decisions"
    __table_args__ = (Index(None, "player_id", "kind", "played_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    verdict_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("verdicts.id", ondelete="CASCADE"), index=True
    )
    #: the verdict's log (no foreign key: ``verdict_id``'s, and the verdict's own on
    #: ``log_id``, already hold; a check a row cost the ingest, migration 0007)
    log_id: Mapped[int] = mapped_column(BigId, index=True)
    game_id: Mapped[str] = mapped_column(String(128))
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    seq: Mapped[int | None] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(SmallInteger)
    player_id: Mapped[str] = mapped_column(String(128))
    kind: Mapped[str] = mapped_column(String(20))
    card: Mapped[str | None] = mapped_column(String(4))
    outcome: Mapped[str | None] = mapped_column(String(16))
    detail: Mapped[str] = mapped_column(Text)
    refs: Mapped[list[Any]] = mapped_column(JSON)
