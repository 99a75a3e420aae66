from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..dependencies import ReadSession
from ..errors import error_responses
from .schemas import PairsOut, PlayerFairplayOut
from .service import pairs_page, player_record

router = APIRouter(tags=["fairplay"])


@router.get(
    "/fairplay/pairs",
    response_model=PairsOut,
    summary="Pairs of players ranked by fair-play suspicion (the last scan), highest first",
    responses=error_responses(401, 403, 422),
)
def get_pairs(
    _: Annotated[Principal, Depends(require(Scope.READ))],
    session: ReadSession,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    flagged: bool | None = None,
) -> dict[str, Any]:
    return pairs_page(session, limit, offset, flagged)


@router.get(
    "/fairplay/players/{player_id:path}",
    response_model=PlayerFairplayOut,
    summary="One player's fair-play statistics, evidence, pairs and who they sit with",
    responses=error_responses(401, 403, 404),
)
def get_player(
    player_id: str,
    _: Annotated[Principal, Depends(require(Scope.READ))],
    session: ReadSession,
) -> dict[str, Any]:
    return player_record(session, player_id)
