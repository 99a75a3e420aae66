from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .ids import BigId
from .types import UTCDateTime, utcnow


class Operator(Base):
    """A console account. ``password_hash`` is an argon2id PHC string; never the password."""

    __tablename__ = "operators"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    display_name: Mapped[str] = mapped_column(String(100))
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    last_sign_in_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)
    disabled_at: Mapped[datetime | None] = mapped_column(UTCDateTime, default=None)

    @property
    def active(self) -> bool:
        return self.disabled_at is None
