"""Console security: server-side operator sessions, the sign-in limiter, the signing key."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .types import UTCDateTime, utcnow


class OperatorSession(Base):
    """A signed-in console session. The cookie holds a random token; only its SHA-256 is
    kept. Signing out, disabling the operator or resetting the password ends it."""

    __tablename__ = "operator_sessions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    operator_id: Mapped[int] = mapped_column(
        BigId, ForeignKey("operators.id", ondelete="CASCADE"), index=True
    )
    #: the session's CSRF token (every console form posts it back).
    csrf: Mapped[str] = mapped_column(String(64))
    address: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)


class SignInThrottle(Base):
    """Failed sign-ins of one account (``account:NAME``) or address (``address:IP``) in
    the current window, and the lockout they caused."""

    __tablename__ = "sign_in_throttle"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    window_start: Mapped[datetime] = mapped_column(UTCDateTime)
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)


class AppSecret(Base):
    """A key the service made itself on first use (never a constant), shared by workers."""

    __tablename__ = "app_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
