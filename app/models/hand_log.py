from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, LargeBinary, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .base import Base
from .ids import BigId
from .types import UTCDateTime, utcnow


class HandLog(Base):
    """One hand as the producer sent it: ``raw`` is kept byte for byte and never updated."""

    __tablename__ = "hand_logs"
    __table_args__ = (Index(None, "match_id", "hand_no"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(128), unique=True)
    ruleset: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[str | None] = mapped_column(String(128))
    hand_no: Mapped[int | None] = mapped_column(Integer)
    dealer: Mapped[int] = mapped_column(SmallInteger)
    #: the log's ``started_at`` (may be absent).
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: ``started_at`` or, without one, the ingest time: what time filters use.
    played_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    #: SHA-256 of ``raw``.
    raw_sha256: Mapped[str] = mapped_column(String(64))
    #: SHA-256 of the canonical log (sorted keys): equal content, equal hash.
    log_sha256: Mapped[str] = mapped_column(String(64))
    size_bytes: Mapped[int] = mapped_column(Integer)
    ingested_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    #: the API key that sent it; null for CLI imports and demo hands (see ``source``).
    api_key_id: Mapped[int | None] = mapped_column(
        BigId, ForeignKey("api_keys.id", ondelete="SET NULL"), index=True
    )
    #: ``api``, ``import`` or ``demo``.
    source: Mapped[str] = mapped_column(String(16))

    players: Mapped[list[LogPlayer]] = relationship(
        order_by="LogPlayer.seat", lazy="selectin", cascade="all, delete-orphan"
    )


class LogPlayer(Base):
    """The player id at each seat of a hand."""

    __tablename__ = "log_players"
    __table_args__ = (Index(None, "player_id", "log_id"),)

    log_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("hand_logs.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(128))
