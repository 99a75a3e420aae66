from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .types import UTCDateTime, utcnow


class VerdictStatus(StrEnum):
    CLEAN = "clean"
    VIOLATIONS = "violations"
    INVALID = "invalid"


class VerdictRow(Base):
    """The verdict of one engine version on one log. ``is_current`` marks the newest one."""

    __tablename__ = "verdicts"
    __table_args__ = (
        UniqueConstraint("log_id", "engine_version"),
        Index(None, "log_id", "is_current"),
        Index(None, "engine_version", "is_current"),
        #: verdicts made per second (``/metrics``: verification throughput).
        Index(None, "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    log_id: Mapped[int] = mapped_column(BigId, ForeignKey("hand_logs.id", ondelete="CASCADE"))
    engine_version: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    is_current: Mapped[bool] = mapped_column(Boolean, default=True)
    #: the canonical verdict JSON, exactly as the engine wrote it.
    verdict_json: Mapped[str] = mapped_column(Text)
    verdict_sha256: Mapped[str] = mapped_column(String(64))
    #: SHA-256 of the verdict without its ``engine`` field: equal means "nothing changed".
    content_sha256: Mapped[str] = mapped_column(String(64))
    finding_count: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
