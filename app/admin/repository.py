from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, exists, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from ..database import among
from ..models import HandLog, VerdictRow


@dataclass(frozen=True, slots=True)
class StoredLog:
    id: int
    game_id: str
    raw: bytes


def _not_current(engine: str) -> ColumnElement[bool]:
    return ~exists().where(
        and_(
            VerdictRow.log_id == HandLog.id,
            VerdictRow.is_current.is_(True),
            VerdictRow.engine_version == engine,
        )
    )


class ReauditRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def stale(
        self, engine: str, limit: int, game_ids: Sequence[str] | None, after_id: int = 0
    ) -> list[StoredLog]:
        """Logs whose current verdict is not from ``engine`` (or that have none)."""
        stmt = select(HandLog.id, HandLog.game_id, HandLog.raw).where(
            _not_current(engine), HandLog.id > after_id
        )
        if game_ids is not None:
            stmt = stmt.where(HandLog.game_id.in_(list(game_ids)))
        rows = self.session.execute(stmt.order_by(HandLog.id).limit(limit))
        return [StoredLog(r.id, r.game_id, r.raw) for r in rows]

    def stale_among(
        self, engine: str, *, log_ids: Sequence[int] = (), first: int = 0, last: int = 0
    ) -> list[StoredLog]:
        """The stale logs among ``log_ids``, or with ``first <= id <= last`` (the jobs)."""
        stmt = select(HandLog.id, HandLog.game_id, HandLog.raw).where(_not_current(engine))
        if log_ids:
            stmt = stmt.where(among(self.session, HandLog.id, log_ids))
        else:
            stmt = stmt.where(HandLog.id.between(first, last))
        rows = self.session.execute(stmt.order_by(HandLog.id))
        return [StoredLog(r.id, r.game_id, r.raw) for r in rows]

    def stale_ids(self, engine: str, after_id: int, limit: int) -> list[int]:
        """Ids of stale logs after ``after_id``, in order (re-audit chunking)."""
        stmt = (
            select(HandLog.id)
            .where(_not_current(engine), HandLog.id > after_id)
            .order_by(HandLog.id)
            .limit(limit)
        )
        return list(self.session.scalars(stmt))

    def count_stale(self, engine: str, game_ids: Sequence[str] | None) -> int:
        stmt = select(func.count()).select_from(HandLog).where(_not_current(engine))
        if game_ids is not None:
            stmt = stmt.where(HandLog.game_id.in_(list(game_ids)))
        return self.session.scalar(stmt) or 0

    def lock_stale(self, engine: str, log_ids: Sequence[int]) -> dict[int, datetime]:
        """Lock these logs (PostgreSQL; SQLite's write lock is already held) and return
        ``{id: played_at}`` of those still stale: a concurrent re-audit may have done some.

        The staleness check is a second statement, after the locks are held, so that
        under READ COMMITTED it sees what the re-audit that held them committed.
        """
        if not log_ids:
            return {}
        ids = list(log_ids)
        self.session.execute(
            select(HandLog.id).where(among(self.session, HandLog.id, ids)).with_for_update()
        ).all()
        rows = self.session.execute(
            select(HandLog.id, HandLog.played_at).where(
                among(self.session, HandLog.id, ids), _not_current(engine)
            )
        )
        return {r.id: r.played_at for r in rows}
