"""Webhook subscriptions, the deliveries made for them and every attempt of a delivery."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    SmallInteger,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .types import UTCDateTime, utcnow


class DeliveryState(StrEnum):
    #: waiting for its next attempt (``next_attempt_at``).
    PENDING = "pending"
    #: the receiver answered 2xx.
    DELIVERED = "delivered"
    #: every attempt failed; ``POST …/replay`` sends it again.
    FAILED = "failed"


class WebhookSubscription(Base):
    """Where to push verdicts, with the shared secret that signs each body.

    Filters (JSON lists; empty means any): finding codes (the verdict must hold at least
    one finding with one of them), rulesets, verdict statuses.
    """

    __tablename__ = "webhook_subscriptions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(100))
    url: Mapped[str] = mapped_column(String(2000))
    #: kept as given: HMAC needs it in the clear. Shown once, when it is made.
    secret: Mapped[str] = mapped_column(String(200))
    codes: Mapped[list[str]] = mapped_column(JSON)
    rulesets: Mapped[list[str]] = mapped_column(JSON)
    statuses: Mapped[list[str]] = mapped_column(JSON)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class WebhookDelivery(Base):
    """One verdict for one subscription. ``body`` is fixed when it is made, so every
    attempt and every replay sends the same bytes (only the timestamp header moves)."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index(None, "subscription_id", "id"),
        Index(None, "state", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    subscription_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("webhook_subscriptions.id", ondelete="CASCADE")
    )
    verdict_id: Mapped[int] = mapped_column(BigId, ForeignKey("verdicts.id", ondelete="CASCADE"))
    game_id: Mapped[str] = mapped_column(String(128))
    body: Mapped[bytes] = mapped_column(LargeBinary)
    state: Mapped[str] = mapped_column(String(16))
    #: attempts in all; ``round_attempts`` since it was made or last replayed.
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    round_attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class WebhookAttempt(Base):
    """One HTTP attempt of a delivery: when, what came back (or what went wrong)."""

    __tablename__ = "webhook_attempts"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    delivery_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("webhook_deliveries.id", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    status_code: Mapped[int | None] = mapped_column(SmallInteger)
    error: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[int] = mapped_column(Integer)
    ok: Mapped[bool] = mapped_column(Boolean)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)
