"""The sign-in limiter: failures counted per account and per address in the database.

Each key (``account:NAME``, ``address:IP``) has a fixed window of
``sign_in_window_seconds``; the failure that reaches the key's limit locks it for
``sign_in_lockout_seconds``. The table is shared, so the limit holds across workers
and machines. A locked key is refused before any password hashing (429 with
``Retry-After``); a good password clears the account's count. Never commits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from ..database import insert_if_absent
from ..models import SignInThrottle
from ..settings import Settings


@dataclass(frozen=True, slots=True)
class ThrottleKey:
    key: str
    limit: int


def keys(settings: Settings, username: str, address: str) -> tuple[ThrottleKey, ThrottleKey]:
    return (
        ThrottleKey(f"account:{username}"[:200], settings.sign_in_account_failures),
        ThrottleKey(f"address:{address}"[:200], settings.sign_in_address_failures),
    )


def retry_after(session: Session, wanted: Sequence[ThrottleKey], now: datetime) -> int | None:
    """Seconds until every key of ``wanted`` is unlocked; ``None`` when none is locked."""
    rows = session.scalars(
        select(SignInThrottle.locked_until).where(
            SignInThrottle.key.in_([k.key for k in wanted])
        )
    ).all()
    waits = [(until - now).total_seconds() for until in rows if until is not None and until > now]
    return max(1, math.ceil(max(waits))) if waits else None


def _ensure(session: Session, key: str, now: datetime) -> None:
    values = {"key": key, "failures": 0, "window_start": now}
    insert_if_absent(session, SignInThrottle, values)


def record_failure(
    session: Session, wanted: Sequence[ThrottleKey], settings: Settings, now: datetime
) -> None:
    window = timedelta(seconds=settings.sign_in_window_seconds)
    _purge(session, now - window, now)
    for item in wanted:
        _ensure(session, item.key, now)
        row = session.scalars(
            select(SignInThrottle).where(SignInThrottle.key == item.key).with_for_update()
        ).one()
        if row.window_start + window <= now:
            row.failures, row.window_start = 0, now
        row.failures += 1
        if row.failures >= item.limit:
            row.locked_until = now + timedelta(seconds=settings.sign_in_lockout_seconds)
            row.failures, row.window_start = 0, now
    session.flush()


def _purge(session: Session, window_start_before: datetime, now: datetime) -> None:
    """Forget keys whose window is over and that are not locked (the table stays small)."""
    session.execute(
        delete(SignInThrottle)
        .where(SignInThrottle.window_start < window_start_before)
        .where(or_(SignInThrottle.locked_until.is_(None), SignInThrottle.locked_until < now))
    )


def clear(session: Session, key: ThrottleKey) -> None:
    session.execute(delete(SignInThrottle).where(SignInThrottle.key == key.key))
