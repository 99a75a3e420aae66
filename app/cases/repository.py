"""Every query on cases, their reports, evidence and trail."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Insert, case, exists, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from ..models import FindingRow, HandLog, LogPlayer
from ..models.case import Case, CaseEvent, CaseEvidence, CaseReport

CASES = Case.__table__

#: severity of a hand's findings, for sorting: none 0, violation 1, invalid 2.
SEVERITY_RANK = {"violation": 1, "invalid": 2}


@dataclass(frozen=True, slots=True)
class CaseFilter:
    states: Sequence[str] = ()
    code: str | None = None
    ruleset: str | None = None
    player_id: str | None = None
    game_id: str | None = None
    assignee_id: int | None = None
    #: only these cases (None: any)
    ids: Sequence[int] | None = None
    #: only cases whose reports accuse this player
    accused: str | None = None


@dataclass(slots=True)
class QueueRow:
    case: Case
    severity_rank: int
    finding_count: int
    codes: list[str] = field(default_factory=list)
    accused: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


class CaseRepository:
    def __init__(self, session: Session) -> None:
        self.session = session

    # --- writes --------------------------------------------------------------------------

    def _insert_ignoring_conflicts(self) -> Insert:
        dialect = self.session.get_bind().dialect.name
        if dialect == "postgresql":
            return postgresql.insert(Case).on_conflict_do_nothing(index_elements=["log_id"])
        if dialect == "sqlite":
            return sqlite.insert(Case).on_conflict_do_nothing(index_elements=["log_id"])
        raise NotImplementedError(f"unsupported database: {dialect}")

    def open_for_log(self, log: HandLog, now: object) -> tuple[Case, bool]:
        """The hand's case, made if there is none; ``(case, created)``.

        One statement: two reports on the same hand at the same moment end in one case.
        """
        stmt = self._insert_ignoring_conflicts().values(
            log_id=log.id,
            game_id=log.game_id,
            ruleset=log.ruleset,
            state="open",
            report_count=0,
            created_at=now,
            updated_at=now,
        )
        created = self.session.execute(stmt.returning(CASES.c.id)).first() is not None
        found = self.for_log(log.id, lock=True)
        assert found is not None
        return found, created

    def add(self, row: CaseReport | CaseEvidence | CaseEvent) -> None:
        self.session.add(row)
        self.session.flush()

    # --- reads ---------------------------------------------------------------------------

    def for_log(self, log_id: int, *, lock: bool = False) -> Case | None:
        stmt = select(Case).where(Case.log_id == log_id).execution_options(populate_existing=True)
        if lock:
            stmt = stmt.with_for_update()
        return self.session.scalars(stmt).first()

    def by_id(self, case_id: int, *, lock: bool = False) -> Case | None:
        stmt = select(Case).where(Case.id == case_id).execution_options(populate_existing=True)
        if lock:
            stmt = stmt.with_for_update()
        return self.session.scalars(stmt).first()

    def by_game_id(self, game_id: str) -> Case | None:
        return self.session.scalars(select(Case).where(Case.game_id == game_id)).first()

    def has_reported(self, case_id: int, reporter: str) -> bool:
        stmt = select(CaseReport.id).where(
            CaseReport.case_id == case_id, CaseReport.reporter_player_id == reporter
        )
        return self.session.scalar(stmt.limit(1)) is not None

    def reports(self, case_id: int) -> Sequence[CaseReport]:
        return self.session.scalars(
            select(CaseReport).where(CaseReport.case_id == case_id).order_by(CaseReport.id)
        ).all()

    def evidence(self, case_id: int) -> Sequence[CaseEvidence]:
        return self.session.scalars(
            select(CaseEvidence).where(CaseEvidence.case_id == case_id).order_by(CaseEvidence.id)
        ).all()

    def trail(self, case_id: int) -> Sequence[CaseEvent]:
        return self.session.scalars(
            select(CaseEvent).where(CaseEvent.case_id == case_id).order_by(CaseEvent.id)
        ).all()

    def findings_of(self, log_id: int) -> Sequence[FindingRow]:
        return self.session.scalars(
            select(FindingRow).where(FindingRow.log_id == log_id).order_by(FindingRow.id)
        ).all()

    def queue(self, f: CaseFilter, sort: str, limit: int, offset: int) -> list[QueueRow]:
        rank = func.max(
            case(
                *((FindingRow.severity == sev, r) for sev, r in SEVERITY_RANK.items()),
                else_=0,
            )
        )
        per_log = (
            select(
                FindingRow.log_id.label("log_id"),
                rank.label("severity_rank"),
                func.count().label("finding_count"),
            )
            .group_by(FindingRow.log_id)
            .subquery()
        )
        severity = func.coalesce(per_log.c.severity_rank, 0)
        count = func.coalesce(per_log.c.finding_count, 0)
        stmt = select(Case, severity, count).outerjoin(per_log, per_log.c.log_id == Case.log_id)
        if f.states:
            stmt = stmt.where(Case.state.in_(list(f.states)))
        if f.ruleset:
            stmt = stmt.where(Case.ruleset == f.ruleset)
        if f.game_id:
            stmt = stmt.where(Case.game_id == f.game_id)
        if f.assignee_id is not None:
            stmt = stmt.where(Case.assignee_id == f.assignee_id)
        if f.ids is not None:
            stmt = stmt.where(Case.id.in_(list(f.ids)))
        if f.accused:
            stmt = stmt.where(
                exists().where(
                    CaseReport.case_id == Case.id, CaseReport.accused_player_id == f.accused
                )
            )
        if f.code:
            stmt = stmt.where(
                exists().where(FindingRow.log_id == Case.log_id, FindingRow.code == f.code)
            )
        if f.player_id:
            stmt = stmt.where(
                exists().where(LogPlayer.log_id == Case.log_id, LogPlayer.player_id == f.player_id)
            )
        order: tuple[Any, ...]
        if sort == "severity":
            order = (severity.desc(), count.desc(), Case.report_count.desc(), Case.id.desc())
        elif sort == "reports":
            order = (Case.report_count.desc(), severity.desc(), Case.id.desc())
        elif sort == "oldest":
            order = (Case.updated_at.asc(), Case.id.asc())
        else:  # newest activity first
            order = (Case.updated_at.desc(), Case.id.desc())
        rows = self.session.execute(stmt.order_by(*order).limit(limit).offset(offset)).all()
        out = [QueueRow(r[0], int(r[1] or 0), int(r[2] or 0)) for r in rows]
        codes = self.codes_by_log(row.case.log_id for row in out)
        facts = self.report_facts(row.case.id for row in out)
        for row in out:
            row.codes = codes.get(row.case.log_id, [])
            row.accused, row.reasons = facts.get(row.case.id, ([], []))
        return out

    def grouped_counts(self, player_case_ids: Iterable[int]) -> dict[int, int]:
        """``{player_case_id: hand cases grouped into it}``."""
        ids = list(set(player_case_ids))
        if not ids:
            return {}
        rows = self.session.execute(
            select(Case.player_case_id, func.count())
            .where(Case.player_case_id.in_(ids))
            .group_by(Case.player_case_id)
        )
        return {int(pc): int(n) for pc, n in rows if pc is not None}

    def report_facts(self, case_ids: Iterable[int]) -> dict[int, tuple[list[str], list[str]]]:
        """``{case_id: (accused players, reasons)}``, each sorted and distinct."""
        ids = list(set(case_ids))
        if not ids:
            return {}
        rows = self.session.execute(
            select(CaseReport.case_id, CaseReport.accused_player_id, CaseReport.reason)
            .where(CaseReport.case_id.in_(ids))
            .distinct()
        )
        accused: dict[int, set[str]] = {}
        reasons: dict[int, set[str]] = {}
        for case_id, player, reason in rows:
            accused.setdefault(case_id, set()).add(player)
            reasons.setdefault(case_id, set()).add(reason)
        return {i: (sorted(accused[i]), sorted(reasons[i])) for i in accused}

    def codes_by_log(self, log_ids: Iterable[int]) -> dict[int, list[str]]:
        ids = list(set(log_ids))
        if not ids:
            return {}
        rows = self.session.execute(
            select(FindingRow.log_id, FindingRow.code)
            .where(FindingRow.log_id.in_(ids))
            .distinct()
            .order_by(FindingRow.log_id, FindingRow.code)
        )
        out: dict[int, list[str]] = {}
        for log_id, code in rows:
            out.setdefault(log_id, []).append(code)
        return out

    def severity_of(self, log_id: int) -> int:
        ranks = [SEVERITY_RANK.get(f.severity, 0) for f in self.findings_of(log_id)]
        return max(ranks, default=0)

    def known_codes(self) -> list[str]:
        stmt = select(FindingRow.code).distinct().order_by(FindingRow.code)
        return list(self.session.scalars(stmt))

    def known_rulesets(self) -> list[str]:
        return list(self.session.scalars(select(Case.ruleset).distinct().order_by(Case.ruleset)))
