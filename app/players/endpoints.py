from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..dependencies import ReadSession
from ..errors import error_responses
from .schemas import PlayerOut
from .service import player_record

router = APIRouter(tags=["players"])


@router.get(
    "/players/{player_id:path}",
    response_model=PlayerOut,
    summary="A player's hands, findings by code and decisions by kind",
    responses=error_responses(401, 403, 404),
)
def get_player(
    player_id: str,
    _: Annotated[Principal, Depends(require(Scope.READ))],
    session: ReadSession,
) -> PlayerOut:
    return player_record(session, player_id)
