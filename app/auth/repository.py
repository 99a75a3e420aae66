from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from ..database import shared_read
from ..models import ApiKey

#: what authenticating a request reads: one row, no ORM object (built once, so that
#: its cache key is computed once).
_CREDENTIALS = select(
    ApiKey.id, ApiKey.name, ApiKey.scopes, ApiKey.revoked_at.is_not(None).label("revoked")
).where(ApiKey.key_hash == bindparam("key_hash"))


@dataclass(frozen=True, slots=True)
class Credentials:
    key_id: int
    name: str
    scopes: frozenset[str]
    revoked: bool


class ApiKeyRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def credentials(self, key_hash: str) -> Credentials | None:
        """The key with this hash, for a request: a Core select on the session's
        connection (half the cost of loading the ORM object through the session), once
        a group commit (``shared_read``)."""
        return shared_read(self.session, ("credentials", key_hash),
                           lambda: self._credentials(key_hash))

    def _credentials(self, key_hash: str) -> Credentials | None:
        row = self.session.connection().execute(_CREDENTIALS, {"key_hash": key_hash}).first()
        if row is None:
            return None
        return Credentials(row.id, row.name, frozenset(row.scopes.split()), bool(row.revoked))

    def by_hash(self, key_hash: str) -> ApiKey | None:
        return self.session.scalars(select(ApiKey).where(ApiKey.key_hash == key_hash)).first()

    def by_id(self, key_id: int) -> ApiKey | None:
        return self.session.get(ApiKey, key_id)

    def all(self) -> Sequence[ApiKey]:
        return self.session.scalars(select(ApiKey).order_by(ApiKey.id)).all()

    def names_by_id(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        rows = self.session.execute(select(ApiKey.id, ApiKey.name).where(ApiKey.id.in_(ids)))
        return {row.id: row.name for row in rows}

    def add(self, key: ApiKey) -> ApiKey:
        self.session.add(key)
        self.session.flush()
        return key
