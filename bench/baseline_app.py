"""The baseline of ``bench/ingest.py --baseline``: the service's own app (same process,
engine, pool and durability settings) plus two minimal endpoints that parse the body
with the same JSON library and insert the raw bytes, nothing else.

    uvicorn --app-dir bench baseline_app:create_app --factory
"""

from __future__ import annotations

import json

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from sqlalchemy import Column, LargeBinary, MetaData, Table, insert

from app.database import Database, transaction
from app.main import create_app as service_app
from app.models.ids import BigId

RAW = Table(
    "bench_raw",
    MetaData(),
    Column("id", BigId, primary_key=True, autoincrement=True),
    Column("raw", LargeBinary, nullable=False),
)
BATCH = 200


def create_app() -> FastAPI:
    app = service_app()
    db: Database = app.state.db
    RAW.create(db.engine, checkfirst=True)

    def store(rows: list[bytes]) -> None:
        for start in range(0, len(rows), BATCH):
            with transaction(db.write) as session:
                session.execute(insert(RAW), [{"raw": r} for r in rows[start : start + BATCH]])

    @app.post("/bench/baseline")
    async def one(request: Request) -> JSONResponse:
        raw = await request.body()
        doc = json.loads(raw)
        await run_in_threadpool(store, [raw])
        return JSONResponse({"game_id": doc["game_id"], "outcome": "created"}, status_code=201)

    @app.post("/bench/baseline:bulk")
    async def many(request: Request) -> Response:
        lines = [line for line in (await request.body()).split(b"\n") if line.strip()]
        ids = [json.loads(line)["game_id"] for line in lines]
        await run_in_threadpool(store, lines)
        out = b"".join(
            json.dumps({"game_id": g, "status": "created"}).encode() + b"\n" for g in ids
        )
        return Response(out, media_type="application/x-ndjson")

    return app
