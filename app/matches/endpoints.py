from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..dependencies import ReadSession
from ..errors import error_responses
from .schemas import MatchOut
from .service import match_report

router = APIRouter(tags=["matches"])


@router.get(
    "/matches/{match_id:path}",
    response_model=MatchOut,
    summary="The hands of one table: dealer rotation and running totals",
    description=(
        "Every stored hand whose log names this `match.id`, in hand order, with the "
        "expected and claimed payouts, running totals per player, and the dealer-rotation "
        "problems (RULES §10: the winner deals next; after a drawn hand standard keeps the "
        "dealer until the third in a row, hengshan passes the deal at once)."
    ),
    responses=error_responses(401, 403, 404),
)
def get_match(
    match_id: str,
    _: Annotated[Principal, Depends(require(Scope.READ))],
    session: ReadSession,
) -> MatchOut:
    return match_report(session, match_id)
