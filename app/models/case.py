from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Index, Integer, SmallInteger, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .operator import Operator  # noqa: F401  (the operators table, for the FKs)
from .player_case import PlayerCase  # noqa: F401  (the player_cases table, for the FK)
from .trail import TrailLine
from .types import UTCDateTime, utcnow


class CaseState(StrEnum):
    OPEN = "open"
    UNDER_REVIEW = "under_review"
    UPHELD = "upheld"
    DISMISSED = "dismissed"
    CLOSED = "closed"


#: the only moves a case makes: open -> under review -> upheld | dismissed -> closed, and
#: closed -> open (reopened, with the reason as the note).
TRANSITIONS: dict[CaseState, tuple[CaseState, ...]] = {
    CaseState.OPEN: (CaseState.UNDER_REVIEW,),
    CaseState.UNDER_REVIEW: (CaseState.UPHELD, CaseState.DISMISSED),
    CaseState.UPHELD: (CaseState.CLOSED,),
    CaseState.DISMISSED: (CaseState.CLOSED,),
    CaseState.CLOSED: (CaseState.OPEN,),
}

STATE_LABELS: dict[CaseState, str] = {
    CaseState.OPEN: "open",
    CaseState.UNDER_REVIEW: "under review",
    CaseState.UPHELD: "upheld",
    CaseState.DISMISSED: "dismissed",
    CaseState.CLOSED: "closed",
}


class ReportReason(StrEnum):
    COLLUSION = "collusion"
    CARD_PEEKING = "card_peeking"
    ILLEGAL_MOVE = "illegal_move"
    WRONG_SCORE = "wrong_score"
    STALLING = "stalling"
    OTHER = "other"


class CaseAction(StrEnum):
    """What a trail entry records."""

    OPENED = "opened"
    REPORT_MERGED = "report_merged"
    STATE_CHANGED = "state_changed"
    EVIDENCE_PINNED = "evidence_pinned"
    #: closed -> open, by an operator (with the reason) or by a new report.
    REOPENED = "reopened"
    #: a note, no change of state.
    NOTE_ADDED = "note_added"
    #: a hand case put into a player case (on both trails).
    GROUPED = "grouped"


class Case(Base):
    """Everything reported about one hand."""

    __tablename__ = "cases"
    __table_args__ = (Index(None, "state", "updated_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    log_id: Mapped[int] = mapped_column(BigId, ForeignKey("hand_logs.id"), unique=True)
    game_id: Mapped[str] = mapped_column(String(128))
    ruleset: Mapped[str] = mapped_column(String(32))
    state: Mapped[str] = mapped_column(String(16), default=CaseState.OPEN)
    #: the decision taken (``upheld``/``dismissed``), kept once the case is closed.
    resolution: Mapped[str | None] = mapped_column(String(16), default=None)
    assignee_id: Mapped[int | None] = mapped_column(
        BigId, ForeignKey("operators.id"), default=None, index=True
    )
    #: distinct reporters: one reporter counts once per hand, however often they report.
    report_count: Mapped[int] = mapped_column(Integer, default=0)
    #: every report filed, repeats included.
    reports_filed: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: times the case went from closed back to open.
    reopen_count: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: the player case this hand case is grouped into, if any.
    player_case_id: Mapped[int | None] = mapped_column(
        BigId, ForeignKey("player_cases.id"), default=None, index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CaseReport(Base):
    """One cheating report filed by a game client (``POST /api/v1/reports``)."""

    __tablename__ = "case_reports"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    case_id: Mapped[int] = mapped_column(BigId, ForeignKey("cases.id"), index=True)
    reporter_player_id: Mapped[str] = mapped_column(String(128))
    accused_seat: Mapped[int] = mapped_column(SmallInteger)
    accused_player_id: Mapped[str] = mapped_column(String(128))
    reason: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(Text)
    api_key_id: Mapped[int | None] = mapped_column(
        BigId, ForeignKey("api_keys.id", ondelete="SET NULL")
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CaseEvidence(Base):
    """A step of the hand pinned by an operator, with a comment."""

    __tablename__ = "case_evidence"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    case_id: Mapped[int] = mapped_column(BigId, ForeignKey("cases.id"), index=True)
    step: Mapped[int] = mapped_column(Integer)
    comment: Mapped[str] = mapped_column(Text)
    actor: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CaseEvent(TrailLine, Base):
    """One line of a case's audit trail (append-only)."""

    __tablename__ = "case_events"
    __table_args__ = (Index(None, "case_id", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    case_id: Mapped[int] = mapped_column(BigId, ForeignKey("cases.id"))
