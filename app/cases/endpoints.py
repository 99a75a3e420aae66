"""``POST /reports`` (game clients) and ``/cases…`` (scope ``operate``, for pipelines)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..bounds import MAX_INT32, MAX_INT64, storable_text
from ..dependencies import ReadSession, WriteSession
from ..errors import error_responses
from ..models.case import CaseState
from ..operators.repository import OperatorRepository
from .player_endpoints import router as player_router
from .repository import CaseFilter
from .schemas import (
    CaseOut,
    CasePage,
    EvidenceIn,
    EvidenceOut,
    FiledOut,
    NoteIn,
    ReportIn,
    TrailOut,
    TransitionIn,
)
from .service import (
    Actor,
    NewReport,
    add_note,
    file_report,
    get_case,
    pin_evidence,
    queue,
    transition,
)
from .views import case_out, evidence_out, queue_out, report_out, summary_out, trail_out

router = APIRouter(tags=["cases"])


#: game clients hold ``ingest`` or ``read``: either may file a report.
Reporter = Annotated[Principal, Depends(require(Scope.INGEST, Scope.READ))]
#: a case id: a positive 64-bit integer (anything else is 422).
CaseId = Annotated[int, Path(ge=1, le=MAX_INT64)]
OperateKey = Annotated[Principal, Depends(require(Scope.OPERATE))]


def _actor(p: Principal) -> Actor:
    return Actor.api_key(p.key_id, p.name)


@router.post(
    "/reports",
    status_code=201,
    response_model=FiledOut,
    summary="File a cheating report on a hand",
    description=(
        "The reporter must have played the hand; the accused is a seat (0-2) or a player "
        "id of the hand. The first report on a hand opens its case (`outcome: opened`); "
        "later ones join it (`merged`); a report on a closed case reopens it (`reopened`, "
        "the decision stays in the trail). One reporter counts once per hand: a repeat "
        "is kept but `counted: false` and `report_count` (distinct reporters) stays. "
        "Needs the `ingest` or `read` scope."
    ),
    responses=error_responses(401, 403, 404, 422),
)
def post_report(body: ReportIn, principal: Reporter, session: WriteSession) -> FiledOut:
    filed = file_report(
        session,
        NewReport(
            game_id=body.game_id,
            reporter=body.reporter,
            reason=body.reason,
            text=body.text,
            accused_seat=body.accused_seat,
            accused_player=body.accused_player,
        ),
        _actor(principal),
    )
    detail = get_case(session, filed.case.id)
    return FiledOut(
        report=report_out(filed.report, filed.case.game_id),
        outcome=filed.outcome,
        merged=filed.merged,
        counted=filed.counted,
        case=summary_out(
            detail.case,
            detail.assignee,
            detail.severity_rank,
            sorted({f.code for f in detail.findings}),
            accused=detail.accused,
            reasons=detail.reasons,
        ),
    )


@router.get(
    "/cases",
    response_model=CasePage,
    summary="The case queue",
    description="Filters combine with AND. `sort`: `updated` (default), `reports`, "
    "`severity` (worst finding first), `oldest`.",
    responses=error_responses(401, 403, 422),
)
def list_cases(
    _: OperateKey,
    session: ReadSession,
    state: Annotated[list[CaseState] | None, Query(description="A state (may repeat)")] = None,
    code: Annotated[str | None, Query(max_length=40, description="A finding code")] = None,
    ruleset: Annotated[str | None, Query(max_length=32)] = None,
    player: Annotated[str | None, Query(max_length=128, description="A player of the hand")] = None,
    game_id: Annotated[str | None, Query(max_length=128)] = None,
    accused: Annotated[
        str | None, Query(max_length=128, description="A player its reports accuse")
    ] = None,
    sort: Annotated[str, Query(pattern="^(updated|reports|severity|oldest)$")] = "updated",
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_INT32)] = 0,
) -> CasePage:
    if not all(storable_text(v) for v in (code, ruleset, player, game_id, accused) if v):
        return CasePage(items=[], limit=limit, offset=offset)  # no stored value holds a NUL
    rows = queue(
        session,
        CaseFilter(
            states=tuple(str(s) for s in state or ()),
            code=code,
            ruleset=ruleset,
            player_id=player,
            game_id=game_id,
            accused=accused,
        ),
        sort,
        limit,
        offset,
    )
    names = OperatorRepository(session).names_by_id(
        {r.case.assignee_id for r in rows if r.case.assignee_id is not None}
    )
    return CasePage(
        items=[queue_out(r, names.get(r.case.assignee_id or 0)) for r in rows],
        limit=limit,
        offset=offset,
    )


@router.get(
    "/cases/{case_id}",
    response_model=CaseOut,
    summary="A case: reports, findings, evidence and its audit trail",
    responses=error_responses(401, 403, 404, 422),
)
def read_case(case_id: CaseId, _: OperateKey, session: ReadSession) -> CaseOut:
    return case_out(get_case(session, case_id))


@router.post(
    "/cases/{case_id}/transitions",
    response_model=CaseOut,
    summary="Move a case to its next state (with a note)",
    description=(
        "open → under_review (needs `assignee`, an operator username) → upheld | "
        "dismissed → closed; closed → open reopens it (the note is the reason; trail "
        "action `reopened`). 409 for any other move, or when `from_state` is given and "
        "the case is no longer in it."
    ),
    responses=error_responses(401, 403, 404, 409, 422),
)
def post_transition(
    case_id: CaseId, body: TransitionIn, principal: OperateKey, session: WriteSession
) -> CaseOut:
    transition(
        session,
        case_id,
        body.to,
        body.note,
        _actor(principal),
        assignee=body.assignee,
        expected_state=body.from_state,
    )
    return case_out(get_case(session, case_id))


@router.post(
    "/cases/{case_id}/evidence",
    status_code=201,
    response_model=EvidenceOut,
    summary="Pin a step of the hand as evidence, with a comment",
    responses=error_responses(401, 403, 404, 409, 422),
)
def post_evidence(
    case_id: CaseId, body: EvidenceIn, principal: OperateKey, session: WriteSession
) -> EvidenceOut:
    pin = pin_evidence(session, case_id, body.step, body.comment, _actor(principal))
    detail = get_case(session, case_id)
    return evidence_out(pin, detail.case.game_id)


@router.post(
    "/cases/{case_id}/notes",
    status_code=201,
    response_model=TrailOut,
    summary="Add a note to a case's trail, without changing its state",
    description="Any case takes notes, a closed one too.",
    responses=error_responses(401, 403, 404, 422),
)
def post_note(
    case_id: CaseId, body: NoteIn, principal: OperateKey, session: WriteSession
) -> TrailOut:
    return trail_out(add_note(session, case_id, body.note, _actor(principal)))


router.include_router(player_router)
