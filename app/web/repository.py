"""Read queries of the pages (hands, players, findings)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, func, select
from sqlalchemy import null as sa_null
from sqlalchemy.orm import Session

from ..models import FindingRow, HandLog, LogPlayer, VerdictRow
from ..players.concerns import concerns_player


@dataclass(frozen=True, slots=True)
class HandRow:
    game_id: str
    ruleset: str
    played_at: datetime
    status: str | None
    finding_count: int | None
    seat: int | None = None
    ingested_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class RecentFinding:
    finding: FindingRow
    ingested_at: datetime


class PageRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    def stored(self, game_id: str) -> tuple[HandLog, VerdictRow | None] | None:
        log = self.session.scalars(select(HandLog).where(HandLog.game_id == game_id)).first()
        if log is None:
            return None
        verdict = self.session.scalars(
            select(VerdictRow).where(VerdictRow.log_id == log.id, VerdictRow.is_current.is_(True))
        ).first()
        return log, verdict

    def game_exists(self, game_id: str) -> bool:
        return self.session.scalar(select(HandLog.id).where(HandLog.game_id == game_id)) is not None

    def player_exists(self, player_id: str) -> bool:
        return (
            self.session.scalar(
                select(LogPlayer.log_id).where(LogPlayer.player_id == player_id).limit(1)
            )
            is not None
        )

    def recent(self, limit: int, with_findings: bool = False) -> list[HandRow]:
        """The hands received last (by ingest time, whatever their start time says)."""
        stmt = select(
            HandLog.game_id,
            HandLog.ruleset,
            HandLog.played_at,
            VerdictRow.status,
            VerdictRow.finding_count,
            sa_null(),
            HandLog.ingested_at,
        ).outerjoin(
            VerdictRow, and_(VerdictRow.log_id == HandLog.id, VerdictRow.is_current.is_(True))
        )
        if with_findings:
            stmt = stmt.where(VerdictRow.finding_count > 0)
        rows = self.session.execute(
            stmt.order_by(HandLog.ingested_at.desc(), HandLog.id.desc()).limit(limit)
        )
        return [HandRow(*r) for r in rows]

    def recent_findings(self, limit: int) -> list[RecentFinding]:
        """The findings of the hands received last (by ingest time)."""
        rows = self.session.execute(
            select(FindingRow, HandLog.ingested_at)
            .join(HandLog, HandLog.id == FindingRow.log_id)
            .order_by(HandLog.ingested_at.desc(), HandLog.id.desc(), FindingRow.id)
            .limit(limit)
        )
        return [RecentFinding(f, at) for f, at in rows]

    def search(self, q: str, limit: int) -> tuple[list[str], list[str]]:
        """Game ids and player ids starting with ``q``, whatever the case of either."""
        prefix = q.lower()
        games = self.session.scalars(
            select(HandLog.game_id)
            .where(func.lower(HandLog.game_id).startswith(prefix, autoescape=True))
            .order_by(HandLog.game_id)
            .limit(limit)
        )
        players = self.session.scalars(
            select(LogPlayer.player_id)
            .where(func.lower(LogPlayer.player_id).startswith(prefix, autoescape=True))
            .distinct()
            .order_by(LogPlayer.player_id)
            .limit(limit)
        )
        return list(games), list(players)

    def hands_of(self, player_id: str, limit: int, offset: int) -> list[HandRow]:
        rows = self.session.execute(
            select(
                HandLog.game_id,
                HandLog.ruleset,
                HandLog.played_at,
                VerdictRow.status,
                VerdictRow.finding_count,
                LogPlayer.seat,
            )
            .join(LogPlayer, LogPlayer.log_id == HandLog.id)
            .outerjoin(
                VerdictRow, and_(VerdictRow.log_id == HandLog.id, VerdictRow.is_current.is_(True))
            )
            .where(LogPlayer.player_id == player_id)
            .order_by(HandLog.played_at.desc(), HandLog.id.desc())
            .limit(limit)
            .offset(offset)
        )
        return [HandRow(*r) for r in rows]

    def hand_count(self, player_id: str) -> int:
        return (
            self.session.scalar(
                select(func.count()).select_from(LogPlayer).where(LogPlayer.player_id == player_id)
            )
            or 0
        )

    def findings_of(self, player_id: str, limit: int) -> Sequence[FindingRow]:
        return self.session.scalars(
            select(FindingRow)
            .where(concerns_player(player_id))
            .order_by(FindingRow.played_at.desc(), FindingRow.id.desc())
            .limit(limit)
        ).all()

    def finding_counts(self, player_id: str) -> dict[str, int]:
        rows = self.session.execute(
            select(FindingRow.code, func.count())
            .where(concerns_player(player_id))
            .group_by(FindingRow.code)
            .order_by(FindingRow.code)
        )
        return {code: n for code, n in rows}
