from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Body, Depends
from fastapi.concurrency import run_in_threadpool

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..database import transaction
from ..dependencies import DB, AppSettings
from ..errors import error_responses
from .schemas import ReauditIn, ReauditOut
from .service import merge, run_batches

router = APIRouter(tags=["admin"])


@router.post(
    "/admin/reaudit",
    response_model=ReauditOut,
    summary="Re-verify stored logs with the current engine",
    description=(
        "Re-executes up to `limit` logs whose current verdict is from another engine "
        "version (or that have none), makes the new verdicts current and reports which "
        "changed. Each batch of 200 is committed on its own. Call again while `remaining` "
        "is above 0. Needs the `operate` scope."
    ),
    responses=error_responses(401, 403, 422),
)
async def post_reaudit(
    _: Annotated[Principal, Depends(require(Scope.OPERATE))],
    db: DB,
    settings: AppSettings,
    body: Annotated[ReauditIn | None, Body()] = None,
) -> ReauditOut:
    wanted = body or ReauditIn()
    batches = run_batches(
        partial(transaction, db.read),
        partial(transaction, db.write),
        limit=wanted.limit,
        game_ids=wanted.game_ids,
        max_depth=settings.max_json_depth,
    )
    return await run_in_threadpool(merge, batches)
