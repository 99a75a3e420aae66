from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from ..models import FindingRow
from ..players.concerns import concerns_player


@dataclass(frozen=True, slots=True)
class FindingFilter:
    codes: Sequence[str] = ()
    severity: str | None = None
    player_id: str | None = None
    ruleset: str | None = None
    game_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None


class FindingRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def page(
        self, f: FindingFilter, limit: int, after: tuple[datetime, int] | None
    ) -> Sequence[FindingRow]:
        """Newest first, by ``(played_at, id)``; served by the ``findings`` indexes."""
        stmt = select(FindingRow)
        if f.codes:
            stmt = stmt.where(FindingRow.code.in_(list(f.codes)))
        if f.severity:
            stmt = stmt.where(FindingRow.severity == f.severity)
        if f.player_id:
            stmt = stmt.where(concerns_player(f.player_id))
        if f.ruleset:
            stmt = stmt.where(FindingRow.ruleset == f.ruleset)
        if f.game_id:
            stmt = stmt.where(FindingRow.game_id == f.game_id)
        if f.since:
            stmt = stmt.where(FindingRow.played_at >= f.since)
        if f.until:
            stmt = stmt.where(FindingRow.played_at < f.until)
        if after is not None:
            at, row_id = after
            stmt = stmt.where(
                or_(
                    FindingRow.played_at < at,
                    and_(FindingRow.played_at == at, FindingRow.id < row_id),
                )
            )
        stmt = stmt.order_by(FindingRow.played_at.desc(), FindingRow.id.desc()).limit(limit)
        return self.session.scalars(stmt).all()
