"""``/games``: ingest one log or many, read a log, its verdict, its metadata."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import StreamingResponse
from sqlalchemy.orm import Session
from starlette.datastructures import URLPath

from replay.logschema import schema_bytes

from ..auth.dependencies import KeyCheck, require, require_in_transaction
from ..auth.scopes import Scope
from ..auth.service import Principal
from ..bounds import storable_text
from ..database import Database
from ..dependencies import DB, AppSettings, ReadSession, run_ingest
from ..errors import (
    AppError,
    Conflict,
    Forbidden,
    NotFound,
    Unauthorized,
    error_responses,
)
from ..group_commit import Staged
from ..settings import Verification, verification
from ..system.metrics import INGEST
from . import bulk
from .body import read_body
from .schemas import BulkLineOut, GameOut, IngestOut
from .service import Outcome, Prepared, Source, StoreSingles, parse, prepare
from .views import game_out, stored_log, stored_verdict

router = APIRouter(tags=["games"])


def game_url(request: Request, game_id: str) -> str:
    """The game's URL, its id percent-encoded (ids may hold spaces, ``#``, ``?``…)."""
    return str(_games_path(request).make_absolute_url(request.base_url)) + quote(game_id, safe="/")


def _games_path(request: Request) -> URLPath:
    """``url_for("get_game", game_id="")``'s path, looked up once per app (the lookup
    walks every route: a tenth of a millisecond on each ingest)."""
    state = request.app.state
    path: URLPath | None = getattr(state, "games_path", None)
    if path is None:
        path = state.games_path = request.app.url_path_for("get_game", game_id="")
    return path


Ingester = Annotated[Principal, Depends(require(Scope.INGEST))]
#: the single-log ingest looks its key up in the transaction that stores the log.
IngestKey = Annotated[KeyCheck, Depends(require_in_transaction(Scope.INGEST))]
Reader = Annotated[Principal, Depends(require(Scope.READ))]

_LOG_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "One paohuzi-log/1 document (LOG_FORMAT.md), sent as raw JSON.",
        "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/PaohuziLog1"}}},
    }
}
_BULK_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "NDJSON: one paohuzi-log/1 document per line.",
        "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
    }
}


@router.get(
    "/schema/paohuzi-log-1.json",
    summary="The JSON Schema of paohuzi-log/1 (no key needed)",
    responses={200: {"description": "The schema (JSON Schema draft 2020-12)",
                     "content": {"application/schema+json": {}}}},
)
def get_log_schema() -> Response:
    return Response(schema_bytes(), media_type="application/schema+json")


@router.post(
    "/games",
    status_code=201,
    response_model=IngestOut,
    summary="Ingest one hand log",
    description=(
        "Parses the body strictly, re-executes the hand and stores the log and its verdict. "
        "201: stored, with its verdict. 200: the same game_id with the same content was "
        "already stored (idempotent), with the stored verdict. 409: the same game_id with "
        "different content; nothing changed. 422: not a paohuzi-log/1 document."
    ),
    responses={
        200: {"description": "Already stored with the same content", "model": IngestOut},
        **error_responses(401, 403, 409, 413, 422),
    },
    openapi_extra=_LOG_BODY,
)
async def create_game(
    request: Request, key: IngestKey, db: DB, settings: AppSettings
) -> Response:
    mode = verification(settings)
    try:
        raw = await read_body(request, settings.max_log_bytes)
    except AppError:  # 413, or a Content-Length that is not a number
        await key.check_alone(db)  # but 401 or 403 first, as for any other fault
        _count(Outcome.REJECTED)
        raise

    def checked(session: Session) -> tuple[int | None, Prepared]:  # the key, then the log
        principal = key.principal(session)
        verify = mode is Verification.INLINE
        return principal.key_id, prepare(parse(raw, settings.max_json_depth), verify)

    # stored with the other posts of its group commit (``run_ingest``)
    ingest = Staged(checked, StoreSingles(Source.API, enqueue=mode is Verification.QUEUE))
    try:
        result = await run_ingest(request.app, ingest)
    except (Unauthorized, Forbidden):
        raise  # not an ingest outcome: the request was refused before it
    except AppError as exc:
        _count(Outcome.CONFLICT if isinstance(exc, Conflict) else Outcome.REJECTED)
        raise
    _count(result.outcome)
    assert result.game_id is not None and result.log_sha256 is not None
    state = "done" if result.verdict_json else "pending" if mode is Verification.QUEUE else None
    head = {
        "game_id": result.game_id,
        "outcome": str(result.outcome),
        "log_sha256": result.log_sha256,
        "verification": state or "not_verified",
    }
    # The stored verdict text goes in as it is (no parse and re-serialisation).
    text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))
    body = f'{text[:-1]},"verdict":{result.verdict_json or "null"}}}'
    created = result.outcome is Outcome.CREATED
    return Response(
        body.encode("utf-8"),
        status_code=201 if created else 200,
        media_type="application/json",
        headers={"Location": game_url(request, result.game_id)},
    )


@router.post(
    "/games:bulk",
    summary="Ingest many hand logs (NDJSON)",
    description=(
        "One log per line in, one result line per non-blank input line out (NDJSON, in "
        "input order), each with its own status: created, duplicate, conflict, rejected "
        "(with the problems), or failed (a server error stopped the run: send those again). "
        "Lines are stored in batches; a batch's results are sent once it is committed. "
        "The answer is 200 whatever the lines' statuses; 422 when the body holds no "
        "non-blank line."
    ),
    responses={
        200: {
            "description": "One JSON object per input line",
            "content": {"application/x-ndjson": {"schema": BulkLineOut.model_json_schema()}},
        },
        **error_responses(401, 403, 413, 422),
    },
    response_class=StreamingResponse,
    openapi_extra=_BULK_BODY,
)
async def bulk_games(
    request: Request, principal: Ingester, db: DB, settings: AppSettings
) -> StreamingResponse:
    body = await read_body(request, settings.max_bulk_bytes)
    lines = bulk.split_lines(body, settings.max_bulk_lines)
    del body
    limits = bulk.Limits(
        max_log_bytes=settings.max_log_bytes,
        max_depth=settings.max_json_depth,
        batch_size=settings.bulk_batch_size,
        verify=verification(settings) is Verification.INLINE,
        enqueue=verification(settings) is Verification.QUEUE,
    )
    return StreamingResponse(
        _ndjson(db, lines, limits, api_key_id=principal.key_id),
        media_type="application/x-ndjson",
    )


def _count(outcome: Outcome, n: int = 1) -> None:
    """``paohuzi_ingest_logs_total``: counted here, where the API answers, and only here."""
    INGEST.labels(outcome=str(outcome)).inc(n)


def _ndjson(
    db: Database, lines: list[bulk.Line], limits: bulk.Limits, *, api_key_id: int | None
) -> Iterator[bytes]:
    """The bulk answer: the result lines of each batch, sent as soon as it is committed."""
    for batch in bulk.ingest_batches(db, lines, limits, api_key_id=api_key_id, source=Source.API):
        for _, result in batch:
            _count(result.outcome)
        yield b"".join(
            json.dumps(
                bulk.line_json(line, result), ensure_ascii=False, separators=(",", ":")
            ).encode()
            + b"\n"
            for line, result in batch
        )


@router.get(
    "/games/{game_id:path}/log",
    summary="The log exactly as it was received",
    response_class=Response,
    responses={
        200: {"description": "The original bytes", "content": {"application/json": {}}},
        **error_responses(401, 403, 404),
    },
)
def get_game_log(game_id: str, _: Reader, session: ReadSession) -> Response:
    raw, sha = stored_log(session, game_id)
    return Response(raw, media_type="application/json", headers={"ETag": f'"{sha}"'})


@router.get(
    "/games/{game_id:path}/verdict",
    summary="The verdict (the current engine's, or the one of a given engine version)",
    response_class=Response,
    responses={
        200: {
            "description": "The verdict JSON, byte for byte as stored",
            "content": {"application/json": {}},
        },
        **error_responses(401, 403, 404),
    },
)
def get_game_verdict(
    game_id: str,
    _: Reader,
    session: ReadSession,
    engine: Annotated[str | None, Query(description="An engine version")] = None,
) -> Response:
    if engine is not None and not storable_text(engine):
        raise NotFound(f"no verdict of engine {engine!r}")
    text, sha = stored_verdict(session, game_id, engine)
    return Response(text, media_type="application/json", headers={"ETag": f'"{sha}"'})


@router.get(
    "/games/{game_id:path}",
    name="get_game",
    response_model=GameOut,
    summary="A stored hand: header, players, hashes, verdict summary, links",
    responses=error_responses(401, 403, 404),
)
def get_game(game_id: str, _: Reader, session: ReadSession, request: Request) -> GameOut:
    base = game_url(request, game_id)
    return game_out(session, game_id, base)
