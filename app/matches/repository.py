from __future__ import annotations

from sqlalchemy import and_, select
from sqlalchemy.orm import Session

from ..models import HandLog, VerdictRow


class MatchRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def hands(self, match_id: str, limit: int) -> list[tuple[HandLog, str | None]]:
        """The match's stored hands in hand order, each with its current verdict JSON."""
        rows = self.session.execute(
            select(HandLog, VerdictRow.verdict_json)
            .outerjoin(
                VerdictRow, and_(VerdictRow.log_id == HandLog.id, VerdictRow.is_current.is_(True))
            )
            .where(HandLog.match_id == match_id)
            .order_by(HandLog.hand_no, HandLog.id)
            .limit(limit)
        )
        return [(r[0], r[1]) for r in rows]
