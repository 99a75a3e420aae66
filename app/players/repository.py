from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from ..models import DecisionCount, FindingRow, HandLog, LogPlayer, VerdictRow
from ..models.decision import KIND_COLUMNS
from .concerns import concerns_player


@dataclass(frozen=True, slots=True)
class RecentGame:
    game_id: str
    seat: int
    ruleset: str
    played_at: datetime
    verdict_status: str | None


class PlayerRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def hands_by_ruleset(self, player_id: str) -> dict[str, tuple[int, datetime, datetime]]:
        rows = self.session.execute(
            select(
                HandLog.ruleset,
                func.count(),
                func.min(HandLog.played_at),
                func.max(HandLog.played_at),
            )
            .join(LogPlayer, LogPlayer.log_id == HandLog.id)
            .where(LogPlayer.player_id == player_id)
            .group_by(HandLog.ruleset)
        )
        return {r[0]: (r[1], r[2], r[3]) for r in rows}

    def findings_by_code(self, player_id: str) -> dict[str, int]:
        rows = self.session.execute(
            select(FindingRow.code, func.count())
            .where(concerns_player(player_id))
            .group_by(FindingRow.code)
        )
        return {code: n for code, n in rows}

    def decisions_by_kind(self, player_id: str) -> dict[str, int]:
        table = DecisionCount.__table__.c
        sums = self.session.execute(
            select(*(func.sum(table[column]) for column in KIND_COLUMNS.values()))
            .where(DecisionCount.player_id == player_id)
        ).one()
        return {kind: int(n) for kind, n in zip(KIND_COLUMNS, sums, strict=True) if n}

    def recent_games(self, player_id: str, limit: int) -> list[RecentGame]:
        rows = self.session.execute(
            select(
                HandLog.game_id,
                LogPlayer.seat,
                HandLog.ruleset,
                HandLog.played_at,
                VerdictRow.status,
            )
            .join(LogPlayer, LogPlayer.log_id == HandLog.id)
            .outerjoin(
                VerdictRow, and_(VerdictRow.log_id == HandLog.id, VerdictRow.is_current.is_(True))
            )
            .where(LogPlayer.player_id == player_id)
            .order_by(HandLog.played_at.desc(), HandLog.id.desc())
            .limit(limit)
        )
        return [RecentGame(r[0], r[1], r[2], r[3], r[4]) for r in rows]
