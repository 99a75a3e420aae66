"""The columns of one audit-trail line, shared by the hand-case and player-case trails."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from .ids import BigId
from .types import UTCDateTime, utcnow


class TrailLine:
    """Who did what to a case, when, with which note. Append-only tables: the database
    refuses updates and deletes (triggers made by the migrations)."""

    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: who: ``operator:<username>`` or ``api-key:<name>`` (kept as text, never rewritten).
    actor: Mapped[str] = mapped_column(String(200))
    operator_id: Mapped[int | None] = mapped_column(BigId, ForeignKey("operators.id"))
    api_key_id: Mapped[int | None] = mapped_column(BigId, ForeignKey("api_keys.id"))
    action: Mapped[str] = mapped_column(String(32))
    from_state: Mapped[str | None] = mapped_column(String(16))
    to_state: Mapped[str | None] = mapped_column(String(16))
    note: Mapped[str] = mapped_column(Text, default="")
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
