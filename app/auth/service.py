"""Key management (used by the CLI) and request authentication. Never commits."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..errors import Forbidden, InvalidRequest, NotFound, Unauthorized
from ..models import ApiKey
from ..models.types import utcnow
from .repository import ApiKeyRepository
from .scopes import Scope, grants
from .secrets import display_prefix, hash_key, new_key


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the key's id, name and scopes."""

    key_id: int
    name: str
    scopes: frozenset[str]


def create_key(session: Session, name: str, scopes: Iterable[str]) -> tuple[ApiKey, str]:
    """A new key; returns the row and the secret, which is shown once and never stored."""
    wanted = sorted(set(scopes))
    known = {str(s) for s in Scope}
    bad = [s for s in wanted if s not in known]
    if bad or not wanted:
        raise InvalidRequest(
            f"scopes must be some of {', '.join(sorted(known))}; got {', '.join(bad) or 'none'}"
        )
    if not name.strip():
        raise InvalidRequest("a key needs a name")
    secret = new_key()
    row = ApiKey(
        name=name.strip()[:100],
        prefix=display_prefix(secret),
        key_hash=hash_key(secret),
        scopes=" ".join(wanted),
    )
    ApiKeyRepository(session).add(row)
    return row, secret


def list_keys(session: Session) -> Sequence[ApiKey]:
    return ApiKeyRepository(session).all()


def revoke_key(session: Session, key_id: int) -> ApiKey:
    row = ApiKeyRepository(session).by_id(key_id)
    if row is None:
        raise NotFound(f"no API key with id {key_id}")
    if row.revoked_at is None:
        row.revoked_at = utcnow()
        session.flush()
    return row


def authenticate(session: Session, secret: str | None, *needed: Scope) -> Principal:
    """401 when the key is missing, unknown or revoked; 403 when it holds none of ``needed``."""
    if not secret:
        raise Unauthorized()
    row = ApiKeyRepository(session).credentials(hash_key(secret))
    if row is None:
        raise Unauthorized("the API key is not valid")
    if row.revoked:
        raise Unauthorized("the API key has been revoked")
    if not any(grants(row.scopes, scope) for scope in needed):
        names = " or ".join(f"'{scope}'" for scope in needed)
        raise Forbidden(f"this API key lacks the {names} scope")
    return Principal(key_id=row.key_id, name=row.name, scopes=row.scopes)
