"""Player cases: one player's conduct over several hands, grouping their hand cases."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .operator import Operator  # noqa: F401  (the operators table, for the FKs)
from .trail import TrailLine
from .types import UTCDateTime, utcnow


class PlayerCase(Base):
    """A case about one player: the hand cases grouped into it are its evidence. It moves
    through the same states as a hand case (``TRANSITIONS``)."""

    __tablename__ = "player_cases"
    __table_args__ = (Index(None, "state", "updated_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(128), index=True)
    state: Mapped[str] = mapped_column(String(16), default="open")
    resolution: Mapped[str | None] = mapped_column(String(16), default=None)
    assignee_id: Mapped[int | None] = mapped_column(
        BigId, ForeignKey("operators.id"), default=None, index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class PlayerCaseEvent(TrailLine, Base):
    """One line of a player case's audit trail; append-only like ``case_events``."""

    __tablename__ = "player_case_events"
    __table_args__ = (Index(None, "player_case_id", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    player_case_id: Mapped[int] = mapped_column(BigId, ForeignKey("player_cases.id"))
