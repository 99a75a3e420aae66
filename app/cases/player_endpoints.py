"""``/player-cases…`` and ``/players/{id}/cases`` (scope ``operate``): cases about one
player over several hands, grouping their hand cases."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query
from sqlalchemy.orm import Session

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..bounds import MAX_INT64, Text
from ..dependencies import ReadSession, WriteSession
from ..errors import error_responses
from ..operators.repository import OperatorRepository
from .moves import Actor
from .player_cases import (
    get_player_case,
    group_case,
    history,
    open_player_case,
    player_note,
    player_transition,
)
from .repository import CaseFilter, CaseRepository
from .schemas import (
    CaseSummary,
    GroupIn,
    HistoryOut,
    NoteIn,
    PlayerCaseIn,
    PlayerCaseOut,
    TrailOut,
    TransitionIn,
)
from .views import player_case_summary, queue_out, trail_out

router = APIRouter(tags=["cases"])

OperateKey = Annotated[Principal, Depends(require(Scope.OPERATE))]
PlayerCaseId = Annotated[int, Path(ge=1, le=MAX_INT64)]


def _actor(p: Principal) -> Actor:
    return Actor.api_key(p.key_id, p.name)


def hand_summaries(session: Session, ids: list[int]) -> list[CaseSummary]:
    if not ids:
        return []
    rows = CaseRepository(session).queue(CaseFilter(ids=ids), "updated", len(ids), 0)
    names = OperatorRepository(session).names_by_id(
        {r.case.assignee_id for r in rows if r.case.assignee_id is not None}
    )
    return [queue_out(r, names.get(r.case.assignee_id or 0)) for r in rows]


def player_case_out(session: Session, player_case_id: int) -> PlayerCaseOut:
    d = get_player_case(session, player_case_id)
    base = player_case_summary(d.case, d.assignee, len(d.hand_cases))
    return PlayerCaseOut(
        **base.model_dump(),
        next_states=list(d.next_states),
        hand_cases=hand_summaries(session, [c.id for c in d.hand_cases]),
        trail=[trail_out(e) for e in d.trail],
    )


@router.post(
    "/player-cases",
    status_code=201,
    response_model=PlayerCaseOut,
    summary="Open a case about a player, grouping hand cases",
    description=(
        "404 when no hand of the player is stored or a hand case does not exist; 409 when "
        "a hand case named in `cases` is of a hand the player did not play or is already "
        "in a player case. The player case then moves like a hand case."
    ),
    responses=error_responses(401, 403, 404, 409, 422),
)
def post_player_case(
    body: PlayerCaseIn, principal: OperateKey, session: WriteSession
) -> PlayerCaseOut:
    pc = open_player_case(session, body.player_id, body.cases, body.note, _actor(principal))
    return player_case_out(session, pc.id)


@router.get(
    "/player-cases/{player_case_id}",
    response_model=PlayerCaseOut,
    summary="A player case: its hand cases and its audit trail",
    description="422 for a non-integer or out-of-range id.",
    responses=error_responses(401, 403, 404, 422),
)
def read_player_case(
    player_case_id: PlayerCaseId, _: OperateKey, session: ReadSession
) -> PlayerCaseOut:
    return player_case_out(session, player_case_id)


@router.post(
    "/player-cases/{player_case_id}/cases",
    response_model=PlayerCaseOut,
    summary="Merge a hand case into a player case",
    description="409 when the player case is closed, the hand case is in a player case, "
    "or the player did not play its hand.",
    responses=error_responses(401, 403, 404, 409, 422),
)
def post_group(
    player_case_id: PlayerCaseId, body: GroupIn, principal: OperateKey, session: WriteSession
) -> PlayerCaseOut:
    group_case(session, player_case_id, body.case_id, body.note, _actor(principal))
    return player_case_out(session, player_case_id)


@router.post(
    "/player-cases/{player_case_id}/transitions",
    response_model=PlayerCaseOut,
    summary="Move a player case to its next state (with a note), or reopen it",
    description="The moves of a hand case (see `/cases/{case_id}/transitions`).",
    responses=error_responses(401, 403, 404, 409, 422),
)
def post_player_transition(
    player_case_id: PlayerCaseId, body: TransitionIn, principal: OperateKey, session: WriteSession
) -> PlayerCaseOut:
    player_transition(
        session,
        player_case_id,
        body.to,
        body.note,
        _actor(principal),
        assignee=body.assignee,
        expected_state=body.from_state,
    )
    return player_case_out(session, player_case_id)


@router.post(
    "/player-cases/{player_case_id}/notes",
    status_code=201,
    response_model=TrailOut,
    summary="Add a note to a player case, without changing its state",
    responses=error_responses(401, 403, 404, 422),
)
def post_player_note(
    player_case_id: PlayerCaseId, body: NoteIn, principal: OperateKey, session: WriteSession
) -> TrailOut:
    return trail_out(player_note(session, player_case_id, body.note, _actor(principal)))


@router.get(
    "/player-cases",
    response_model=HistoryOut,
    summary="A player's case history",
    description="The player cases about the player and the hand cases accusing them (or "
    "grouped into those), newest activity first.",
    responses=error_responses(401, 403, 422),
)
def read_history(
    player: Annotated[Text, Query(min_length=1, max_length=128, description="A player id")],
    _: OperateKey,
    session: ReadSession,
) -> HistoryOut:
    player_id = player
    h = history(session, player_id)
    ops = OperatorRepository(session)
    names = ops.names_by_id({p.assignee_id for p in h.player_cases if p.assignee_id is not None})
    counts = CaseRepository(session).grouped_counts([p.id for p in h.player_cases])
    return HistoryOut(
        player_id=player_id,
        player_cases=[
            player_case_summary(p, names.get(p.assignee_id or 0), counts.get(p.id, 0))
            for p in h.player_cases
        ],
        hand_cases=hand_summaries(session, [c.id for c in h.hand_cases]),
    )
