"""Every query on hand logs and their verdicts, findings and decision counts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Connection, Table, delete, func, select, update
from sqlalchemy.orm import Session

from ..database import among
from ..models import DecisionCount, FindingRow, HandLog, LogPlayer, VerdictRow
from .copy import insert_rows, rows_returning

LOGS = cast(Table, HandLog.__table__)
PLAYERS = cast(Table, LogPlayer.__table__)
VERDICTS = cast(Table, VerdictRow.__table__)
FINDINGS = cast(Table, FindingRow.__table__)
DECISION_COUNTS = cast(Table, DecisionCount.__table__)

@dataclass(frozen=True, slots=True)
class StoredRef:
    id: int
    log_sha256: str


class GameRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    @property
    def _core(self) -> Connection:
        """The session's connection, for Core statements on the ingest path: the same
        transaction without the session's ORM execution layer (which cost more than
        the statements themselves)."""
        return self.session.connection()

    # --- writes --------------------------------------------------------------------------

    def insert_logs(self, rows: Sequence[dict[str, Any]]) -> dict[str, int]:
        """Insert the logs whose ``game_id`` is new; ``{game_id: id}`` of those inserted.

        ``ON CONFLICT DO NOTHING``: a concurrent insert of the same ``game_id`` makes this
        one skip the row (PostgreSQL waits for the other transaction first), never fail.
        """
        found = rows_returning(self.session, LOGS, rows, ("id", "game_id"), "game_id")
        return {game_id: log_id for log_id, game_id in found}

    def insert_players(self, rows: Sequence[dict[str, Any]]) -> None:
        insert_rows(self.session, PLAYERS, rows)

    def insert_verdicts(self, rows: Sequence[dict[str, Any]]) -> dict[int, int]:
        """``{log_id: verdict_id}``."""
        found = rows_returning(self.session, VERDICTS, rows, ("id", "log_id"))
        return {log_id: verdict_id for verdict_id, log_id in found}

    def insert_findings(self, rows: Sequence[dict[str, Any]]) -> None:
        insert_rows(self.session, FINDINGS, rows)

    def insert_decision_counts(self, rows: Sequence[dict[str, Any]]) -> None:
        insert_rows(self.session, DECISION_COUNTS, rows)

    def retire_verdicts(self, log_ids: Iterable[int]) -> None:
        """Make the logs' verdicts non-current and drop their finding and decision-count
        rows."""
        ids = list(log_ids)
        if not ids:
            return
        # the counts of the logs' verdicts (only the current ones have any), by the
        # verdicts' own (log_id, is_current) index and the counts' primary key
        logs = among(self.session, VERDICTS.c.log_id, ids)
        current = select(VERDICTS.c.id).where(logs, VERDICTS.c.is_current.is_(True))
        self.session.execute(
            delete(DECISION_COUNTS).where(DECISION_COUNTS.c.verdict_id.in_(current))
        )
        self.session.execute(
            update(VERDICTS)
            .where(logs, VERDICTS.c.is_current.is_(True))
            .values(is_current=False)
        )
        self.session.execute(delete(FINDINGS).where(among(self.session, FINDINGS.c.log_id, ids)))

    def delete_verdicts_of_engine(self, log_ids: Iterable[int], engine: str) -> None:
        ids = list(log_ids)
        if ids:
            self.session.execute(
                delete(VERDICTS).where(
                    among(self.session, VERDICTS.c.log_id, ids),
                    VERDICTS.c.engine_version == engine,
                )
            )

    # --- reads ---------------------------------------------------------------------------

    def refs_by_game_id(self, game_ids: Iterable[str]) -> dict[str, StoredRef]:
        ids = list(set(game_ids))
        if not ids:
            return {}
        rows = self._core.execute(
            select(LOGS.c.game_id, LOGS.c.id, LOGS.c.log_sha256).where(
                among(self.session, LOGS.c.game_id, ids)
            )
        )
        return {row.game_id: StoredRef(row.id, row.log_sha256) for row in rows}

    def current_verdicts(self, log_ids: Iterable[int]) -> dict[int, VerdictRow]:
        ids = list(log_ids)
        if not ids:
            return {}
        rows = self.session.scalars(
            select(VerdictRow).where(
                among(self.session, VerdictRow.log_id, ids), VerdictRow.is_current.is_(True)
            )
        )
        return {row.log_id: row for row in rows}

    def by_game_id(self, game_id: str) -> HandLog | None:
        return self.session.scalars(select(HandLog).where(HandLog.game_id == game_id)).first()

    def raw_of(self, game_id: str) -> tuple[bytes, str] | None:
        row = self.session.execute(
            select(LOGS.c.raw, LOGS.c.raw_sha256).where(LOGS.c.game_id == game_id)
        ).first()
        return (row.raw, row.raw_sha256) if row else None

    def verdict_for(self, log_id: int, engine: str | None) -> VerdictRow | None:
        stmt = select(VerdictRow).where(VerdictRow.log_id == log_id)
        if engine is None:
            stmt = stmt.where(VerdictRow.is_current.is_(True))
        else:
            stmt = stmt.where(VerdictRow.engine_version == engine)
        return self.session.scalars(stmt).first()

    def engines_of(self, log_id: int) -> list[str]:
        return list(
            self.session.scalars(
                select(VerdictRow.engine_version)
                .where(VerdictRow.log_id == log_id)
                .order_by(VerdictRow.id)
            )
        )

    def count_logs(self) -> int:
        return self.session.scalar(select(func.count()).select_from(LOGS)) or 0
