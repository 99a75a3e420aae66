from __future__ import annotations

from datetime import datetime
from typing import Final

from sqlalchemy import ForeignKey, Index, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from replay.verdict import DecisionKind

from .base import Base
from .ids import BigId
from .types import UTCDateTime

#: the column of ``DecisionCount`` that counts each kind of decision
KIND_COLUMNS: Final = {str(kind): f"n_{kind}" for kind in DecisionKind}


class DecisionCount(Base):
    """How many decisions of each kind (过张, 臭牌, 臭偎, 臭胡, 免张, or a later check
    against them) one seat made in a current verdict: what a player's record counts.
    A row for each seat with at least one decision.

    The decisions themselves, each with its seq, card, detail and refs, are in the
    verdict's JSON (``verdicts.verdict_json``). A row a decision (~22 a hand, four
    indexes and a foreign key each) was most of what a verification wrote to the
    database, and was only ever counted (migration ``0008_decision_counts``). A new
    ``DecisionKind`` needs its column (``tests/service/test_migrations.py`` says so).
    """

    __tablename__ = "decision_counts"
    __table_args__ = (Index(None, "player_id", "played_at"),)

    verdict_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("verdicts.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(128))
    #: the log's time, as on its finding rows
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    n_guo_zhang: Mapped[int] = mapped_column(Integer)
    n_chou_pai: Mapped[int] = mapped_column(Integer)
    n_chou_wei: Mapped[int] = mapped_column(Integer)
    n_chou_hu: Mapped[int] = mapped_column(Integer)
    n_mian_zhang: Mapped[int] = mapped_column(Integer)
    n_check: Mapped[int] = mapped_column(Integer)
