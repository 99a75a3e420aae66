from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, Integer, SmallInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .types import UTCDateTime


class DecisionCount(Base):
    """How many decisions of one kind (过张, 臭牌, 臭偎, 臭胡, 免张, or a later check
    against them) one seat made in a current verdict: what a player's record counts.

    The decisions themselves, each with its seq, card, detail and refs, are in the
    verdict's JSON (``verdicts.verdict_json``); a row a decision (~22 a hand, four
    indexes each) was most of what a verification wrote to the database and was only
    ever counted (migration ``0008_decision_counts``).
    """

    __tablename__ = "decision_counts"
    __table_args__ = (Index(None, "player_id", "kind", "played_at"),)

    verdict_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("verdicts.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(128))
    #: the log's time, as on its finding rows
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    #: decisions of this kind by this seat in the verdict (at least 1)
    n: Mapped[int] = mapped_column(Integer)
