"""Server-side console sessions: a random token in the cookie, its SHA-256 in a row.

A session is valid while its row is not ended, not expired and its operator active,
so signing out, ``operators disable`` and ``operators reset-password`` end it at once
(a copied cookie stops working). Never commits.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from ..models import Operator, OperatorSession
from ..models.types import utcnow

#: longest token accepted from a cookie (ours are 43 characters).
MAX_TOKEN = 128


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class NewSession:
    token: str
    csrf: str


@dataclass(frozen=True, slots=True)
class LiveSession:
    operator: Operator
    csrf: str


def open_session(session: Session, operator_id: int, address: str, hours: int) -> NewSession:
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    now = utcnow()
    # rows of sessions over for a day are of no use any more
    gone = now - timedelta(days=1)
    session.execute(
        delete(OperatorSession).where(
            or_(OperatorSession.expires_at < gone, OperatorSession.ended_at < gone)
        )
    )
    session.add(
        OperatorSession(
            token_hash=token_hash(token),
            operator_id=operator_id,
            csrf=csrf,
            address=address[:64],
            created_at=now,
            expires_at=now + timedelta(hours=hours),
        )
    )
    session.flush()
    return NewSession(token, csrf)


def live_session(session: Session, token: str) -> LiveSession | None:
    """The operator and CSRF token of a valid session; ``None`` for anything else."""
    if not token or len(token) > MAX_TOKEN:
        return None
    row = session.execute(
        select(OperatorSession, Operator)
        .join(Operator, Operator.id == OperatorSession.operator_id)
        .where(OperatorSession.token_hash == token_hash(token))
    ).first()
    if row is None:
        return None
    found, operator = row
    if found.ended_at is not None or found.expires_at <= utcnow() or not operator.active:
        return None
    return LiveSession(operator, found.csrf)


def end_session(session: Session, token: str) -> None:
    session.execute(
        update(OperatorSession)
        .where(OperatorSession.token_hash == token_hash(token))
        .where(OperatorSession.ended_at.is_(None))
        .values(ended_at=utcnow())
    )


def end_all(session: Session, operator_id: int) -> int:
    """End every live session of one operator; how many were live."""
    result = session.execute(
        update(OperatorSession)
        .where(OperatorSession.operator_id == operator_id)
        .where(OperatorSession.ended_at.is_(None))
        .values(ended_at=utcnow())
    )
    return int(getattr(result, "rowcount", 0) or 0)
