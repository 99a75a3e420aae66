"""Operator accounts: creation, listing, disabling, password resets (CLI). Never commits."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.orm import Session

from ..errors import Conflict, InvalidRequest, NotFound
from ..models.operator import Operator
from ..models.types import utcnow
from .passwords import MIN_LENGTH, hash_password
from .repository import OperatorRepository
from .sessions import end_all

USERNAME = re.compile(r"^[a-z0-9][a-z0-9._-]{1,63}$")


def create_operator(
    session: Session, username: str, password: str, display_name: str | None = None
) -> Operator:
    username = username.strip().lower()
    if not USERNAME.match(username):
        raise InvalidRequest(
            "a username is 2-64 characters: lower-case letters, digits, '.', '_' or '-'"
        )
    if len(password) < MIN_LENGTH:
        raise InvalidRequest(f"a password needs at least {MIN_LENGTH} characters")
    repo = OperatorRepository(session)
    if repo.by_username(username) is not None:
        raise Conflict(f"operator {username!r} already exists")
    name = (display_name or username).strip()[:100] or username
    return repo.add(
        Operator(username=username, display_name=name, password_hash=hash_password(password))
    )


def list_operators(session: Session) -> Sequence[Operator]:
    return OperatorRepository(session).all()


def set_disabled(session: Session, username: str, disabled: bool) -> Operator:
    """Disable (ending every session at once) or enable an account."""
    operator = _by_name(session, username)
    operator.disabled_at = utcnow() if disabled else None
    if disabled:
        end_all(session, operator.id)
    session.flush()
    return operator


def reset_password(session: Session, username: str, password: str) -> Operator:
    """A new password; every session of the account ends."""
    if len(password) < MIN_LENGTH:
        raise InvalidRequest(f"a password needs at least {MIN_LENGTH} characters")
    operator = _by_name(session, username)
    operator.password_hash = hash_password(password)
    end_all(session, operator.id)
    session.flush()
    return operator


def _by_name(session: Session, username: str) -> Operator:
    operator = OperatorRepository(session).by_username(username.strip().lower())
    if operator is None:
        raise NotFound(f"no operator {username!r}")
    return operator


def active_operator(session: Session, operator_id: int) -> Operator | None:
    operator = OperatorRepository(session).by_id(operator_id)
    return operator if operator is not None and operator.active else None
