from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

import replay.native

from ..auth.dependencies import require
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..dependencies import DB, AppSettings
from ..errors import error_responses
from ..games.audit import engine_version
from .metrics import render
from .storage import sqlite_room

router = APIRouter(tags=["system"])


def _probe(db: Any, min_free: int) -> str | None:
    """``None`` when the database answers and has room; else what is wrong."""
    try:
        with db.read() as session:
            session.execute(text("SELECT 1"))
            if session.get_bind().dialect.name == "sqlite" and sqlite_room(session) < min_free:
                return "full"
        return None
    except SQLAlchemyError as exc:
        return type(exc).__name__


@router.get(
    "/healthz",
    summary="Liveness and database reachability (no key needed)",
    responses={
        200: {"description": "Up; `engine_build` says whether this process runs the rules "
              "core compiled (`make native`) or from its sources (same verdicts, half the "
              "speed)", "content": {"application/json": {"example": {
                  "status": "ok", "engine": "paohuzi-replay/0.2.0",
                  "engine_build": "compiled (mypyc)", "database": "ok"}}}},
        503: {"description": "The database is unreachable (its error's name) or full "
              "(`\"database\": \"full\"`); with Retry-After"},
    },
)
async def healthz(db: DB, settings: AppSettings) -> JSONResponse:
    problem = await run_in_threadpool(_probe, db, settings.min_free_bytes)
    body = {"status": "ok" if problem is None else "unavailable", "engine": engine_version(),
            "engine_build": replay.native.BUILD}
    if problem is not None:
        body["database"] = problem
        retry = {"Retry-After": str(settings.retry_after_seconds)}
        return JSONResponse(body, status_code=503, headers=retry)
    body["database"] = "ok"
    return JSONResponse(body)


@router.get(
    "/metrics",
    summary="Prometheus metrics (needs the operate scope; a bearer token works too)",
    response_class=Response,
    responses={
        200: {"description": "Prometheus text format", "content": {"text/plain": {}}},
        **error_responses(401, 403),
    },
)
def metrics(_: Annotated[Principal, Depends(require(Scope.OPERATE))], db: DB) -> Response:
    body, content_type = render(db.read)
    return Response(body, media_type=content_type)
