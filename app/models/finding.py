from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, SmallInteger, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .types import UTCDateTime


class FindingRow(Base):
    """One finding of a log's current verdict, with the player it concerns.

    ``game_id``, ``ruleset`` and ``played_at`` are copied from the log so that a
    question like "all chou_hu of player X this week" is one index range, no join.
    """

    __tablename__ = "findings"
    __table_args__ = (
        Index(None, "player_id", "code", "played_at", "id"),
        Index(None, "code", "played_at", "id"),
        Index(None, "played_at", "id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    verdict_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("verdicts.id", ondelete="CASCADE"), index=True
    )
    log_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("hand_logs.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[str] = mapped_column(String(128))
    ruleset: Mapped[str] = mapped_column(String(32))
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    seq: Mapped[int | None] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(SmallInteger)
    player_id: Mapped[str | None] = mapped_column(String(128))
    code: Mapped[str] = mapped_column(String(40))
    severity: Mapped[str] = mapped_column(String(16))
    message: Mapped[str] = mapped_column(Text)
    refs: Mapped[list[Any]] = mapped_column(JSON)
