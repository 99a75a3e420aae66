"""Opaque keyset cursors: ``(played_at, id)`` of the last item of a page."""

from __future__ import annotations

import base64
import json
from datetime import datetime

from ..bounds import MAX_INT64, as_utc
from ..errors import InvalidRequest


def encode(played_at: datetime, row_id: int) -> str:
    raw = json.dumps([played_at.isoformat(), row_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(cursor: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        when, row_id = json.loads(raw)
        moment = datetime.fromisoformat(when)
        at = as_utc(moment) if moment.tzinfo is not None else None
        if at is None or not isinstance(row_id, int) or isinstance(row_id, bool):
            raise ValueError
        if not 0 <= row_id <= MAX_INT64:
            raise ValueError
        return at, row_id
    except (ValueError, TypeError, RecursionError):
        raise InvalidRequest(
            "the cursor is not one this API gave out",
            problems=[{"pointer": "/query/cursor", "expected": "a next_cursor value"}],
        ) from None
