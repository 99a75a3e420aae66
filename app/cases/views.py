"""Cases and reports as API bodies."""

from __future__ import annotations

from urllib.parse import quote

from ..models import FindingRow
from ..models.case import Case, CaseEvent, CaseEvidence, CaseReport
from ..models.player_case import PlayerCase, PlayerCaseEvent
from .repository import QueueRow
from .schemas import (
    SEVERITY_NAMES,
    CaseOut,
    CaseSummary,
    EvidenceOut,
    PlayerCaseSummary,
    ReportOut,
    TrailOut,
)
from .service import CaseDetail


def replay_link(game_id: str, step: int | None = None) -> str:
    link = f"/g/{quote(game_id, safe='')}"
    return link if step is None else f"{link}?step={step}"


def report_out(r: CaseReport, game_id: str) -> ReportOut:
    return ReportOut(
        id=r.id,
        case_id=r.case_id,
        game_id=game_id,
        reporter=r.reporter_player_id,
        accused_seat=r.accused_seat,
        accused_player=r.accused_player_id,
        reason=r.reason,
        text=r.text,
        created_at=r.created_at,
    )


def evidence_out(e: CaseEvidence, game_id: str) -> EvidenceOut:
    return EvidenceOut(
        id=e.id,
        step=e.step,
        comment=e.comment,
        actor=e.actor,
        created_at=e.created_at,
        link=replay_link(game_id, e.step),
    )


def trail_out(e: CaseEvent | PlayerCaseEvent) -> TrailOut:
    """A line of either trail (a hand case's or a player case's)."""
    return TrailOut(
        id=e.id,
        at=e.at,
        actor=e.actor,
        action=e.action,
        from_state=e.from_state,
        to_state=e.to_state,
        note=e.note,
        data=e.data or {},
    )


def _links(case: Case) -> dict[str, str]:
    return {
        "self": f"/api/v1/cases/{case.id}",
        "page": f"/ops/cases/{case.id}",
        "replay": replay_link(case.game_id),
    }


def summary_out(
    case: Case,
    assignee: str | None,
    severity_rank: int,
    codes: list[str],
    *,
    accused: list[str] | None = None,
    reasons: list[str] | None = None,
) -> CaseSummary:
    return CaseSummary(
        id=case.id,
        game_id=case.game_id,
        ruleset=case.ruleset,
        state=case.state,  # type: ignore[arg-type]
        resolution=case.resolution,
        assignee=assignee,
        report_count=case.report_count,
        reports_filed=case.reports_filed,
        reopen_count=case.reopen_count,
        player_case=case.player_case_id,
        accused=accused or [],
        reasons=reasons or [],
        severity=SEVERITY_NAMES.get(severity_rank),
        finding_codes=codes,
        created_at=case.created_at,
        updated_at=case.updated_at,
        links=_links(case),
    )


def queue_out(row: QueueRow, assignee: str | None) -> CaseSummary:
    return summary_out(
        row.case, assignee, row.severity_rank, row.codes, accused=row.accused, reasons=row.reasons
    )


def finding_json(f: FindingRow) -> dict[str, object]:
    return {
        "seq": f.seq,
        "seat": f.seat,
        "player_id": f.player_id,
        "code": f.code,
        "severity": f.severity,
        "message": f.message,
        "refs": f.refs,
    }


def case_out(d: CaseDetail) -> CaseOut:
    codes = sorted({f.code for f in d.findings})
    base = summary_out(
        d.case, d.assignee, d.severity_rank, codes, accused=d.accused, reasons=d.reasons
    )
    return CaseOut(
        **base.model_dump(),
        reporters=d.reporters,
        next_states=list(d.next_states),
        reports=[report_out(r, d.case.game_id) for r in d.reports],
        evidence=[evidence_out(e, d.case.game_id) for e in d.evidence],
        trail=[trail_out(e) for e in d.trail],
        findings=[finding_json(f) for f in d.findings],
    )


def player_case_summary(pc: PlayerCase, assignee: str | None, count: int) -> PlayerCaseSummary:
    return PlayerCaseSummary(
        id=pc.id,
        player_id=pc.player_id,
        state=pc.state,  # type: ignore[arg-type]
        resolution=pc.resolution,
        assignee=assignee,
        hand_case_count=count,
        created_at=pc.created_at,
        updated_at=pc.updated_at,
        links={
            "self": f"/api/v1/player-cases/{pc.id}",
            "page": f"/ops/player-cases/{pc.id}",
            "player": f"/p/{quote(pc.player_id, safe='')}",
        },
    )
