from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..models import ApiKey


class ApiKeyRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

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
