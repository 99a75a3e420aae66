"""Operator accounts: creation (CLI), listing, sign-in. Never commits."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlalchemy.orm import Session

from ..errors import Conflict, InvalidRequest
from ..models.operator import Operator
from ..models.types import utcnow
from .passwords import MIN_LENGTH, hash_password, needs_rehash, verify_password
from .repository import OperatorRepository

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


def sign_in(session: Session, username: str, password: str) -> Operator | None:
    """The operator when the password is right and the account active; else ``None``.

    Takes one argon2 verification whether or not the username exists.
    """
    operator = OperatorRepository(session).by_username(username.strip().lower())
    ok = verify_password(operator.password_hash if operator else None, password)
    if operator is None or not ok or not operator.active:
        return None
    if needs_rehash(operator.password_hash):
        operator.password_hash = hash_password(password)
    operator.last_sign_in_at = utcnow()
    session.flush()
    return operator


def active_operator(session: Session, operator_id: int) -> Operator | None:
    operator = OperatorRepository(session).by_id(operator_id)
    return operator if operator is not None and operator.active else None
