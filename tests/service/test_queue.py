"""Queue mode (PostgreSQL): ingest stores the log and its job in one transaction and
answers at once; the job stores the verdict once however often it runs."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from app.admin.repository import ReauditRepository
from app.auth.service import create_key
from app.database import Database, transaction
from app.games.audit import engine_version
from app.games.service import Source, parse, prepare, store
from app.jobs.reaudit import enqueue_chunks
from app.jobs.verify import verify_logs
from app.main import create_app
from app.models import HandLog, VerdictRow
from app.settings import Settings, Verification, verification

from .backends import Backend
from .conftest import ALL_SCOPES, make_settings, row_counts
from .logs import engine_verdict, log_bytes
from .queue_helpers import jobs, postgres_only

pytestmark = pytest.mark.postgres


@pytest.fixture
def queued(backend: Backend, committed_db: Database) -> Iterator[tuple[TestClient, Database]]:
    postgres_only(backend.kind)
    settings = make_settings(backend, verify_mode="auto", bulk_batch_size=3)
    with transaction(committed_db.write) as session:
        _, secret = create_key(session, "queue", ALL_SCOPES)
    with TestClient(create_app(settings, db=committed_db)) as client:
        client.headers["X-API-Key"] = secret
        yield client, committed_db


def _log_id(db: Database, game_id: str) -> int:
    with db.read() as session:
        found = session.scalar(select(HandLog.id).where(HandLog.game_id == game_id))
    assert found is not None
    return found


def test_modes() -> None:
    sqlite = Settings(database_url="sqlite:///x.db")
    pg = Settings(database_url="postgresql+psycopg://u@h/db")
    assert verification(sqlite) is Verification.INLINE
    assert verification(sqlite.model_copy(update={"verify_mode": "queue"})) is Verification.INLINE
    assert verification(pg) is Verification.QUEUE
    assert verification(pg.model_copy(update={"verify_mode": "inline"})) is Verification.INLINE
    assert verification(pg.model_copy(update={"verify_on_ingest": False})) is Verification.OFF


def test_ingest_answers_pending_and_the_job_verifies_once(
    queued: tuple[TestClient, Database],
) -> None:
    client, db = queued
    raw = log_bytes("q-1", doctor="out_of_turn")
    answer = client.post("/api/v1/games", content=raw)
    assert answer.status_code == 201
    assert answer.json()["verdict"] is None and answer.json()["verification"] == "pending"
    pending = client.get("/api/v1/games/q-1/verdict")
    assert pending.status_code == 404 and pending.json()["error"]["reason"] == "verdict_pending"

    log_id = _log_id(db, "q-1")
    with db.read() as session:
        args = session.execute(text("SELECT args FROM procrastinate_jobs")).scalars().all()
    assert args == [{"log_ids": [log_id]}]

    first = verify_logs(db, 64, log_ids=[log_id])
    again = verify_logs(db, 64, log_ids=[log_id])  # the job ran twice (a worker died late)
    assert (first.checked, again.checked) == (1, 0)
    assert row_counts(db)["verdicts"] == 1
    body = client.get("/api/v1/games/q-1/verdict")
    assert body.status_code == 200
    assert body.content == engine_verdict(raw).to_bytes()
    assert row_counts(db)["findings"] == len(engine_verdict(raw).findings) > 0

    # The same log sent again: a duplicate, no second job.
    assert client.post("/api/v1/games", content=raw).status_code == 200
    assert jobs(db) == 1


def test_a_rolled_back_ingest_leaves_no_job(backend: Backend, committed_db: Database) -> None:
    postgres_only(backend.kind)
    item = prepare(parse(log_bytes("q-rb"), 64), verify=False)
    with pytest.raises(RuntimeError):
        with transaction(committed_db.write) as session:
            store(session, [item], api_key_id=None, source=Source.API, enqueue=True)
            assert jobs_in(session) == 1  # the job is there inside the transaction …
            raise RuntimeError("the request failed before its commit")
    assert jobs(committed_db) == 0  # … and went with it
    assert row_counts(committed_db)["hand_logs"] == 0


def jobs_in(session: Session) -> int:
    return int(session.execute(text("SELECT count(*) FROM procrastinate_jobs")).scalar() or 0)


def test_bulk_enqueues_one_job_per_batch(queued: tuple[TestClient, Database]) -> None:
    client, db = queued
    body = b"\n".join(log_bytes(f"qb-{i}") for i in range(7)) + b"\n" + log_bytes("qb-0")
    answer = client.post(
        "/api/v1/games:bulk", content=body, headers={"Content-Type": "application/x-ndjson"}
    )
    statuses = [line["status"] for line in map(json.loads, answer.text.splitlines())]
    assert statuses == ["created"] * 7 + ["duplicate"]
    assert jobs(db, "todo", "verify") == 3  # batches of 3: 3 + 3 + 1 (+ the duplicate)
    with db.read() as session:
        ids = session.execute(text("SELECT args->'log_ids' FROM procrastinate_jobs")).scalars()
        enqueued = sorted(i for chunk in ids for i in chunk)
        assert enqueued == sorted(session.scalars(select(HandLog.id)))
        assert session.scalar(select(func.count()).select_from(VerdictRow)) == 0


def test_metrics_show_the_queue(queued: tuple[TestClient, Database]) -> None:
    client, db = queued
    for i in range(2):
        client.post("/api/v1/games", content=log_bytes(f"qm-{i}"))
    text_ = client.get("/api/v1/metrics").text
    assert 'paohuzi_queue_jobs{queue="verify",status="todo"} 2.0' in text_
    lag = next(
        line
        for line in text_.splitlines()
        if line.startswith('paohuzi_queue_lag_seconds{queue="verify"}')
    )
    assert float(lag.split()[-1]) >= 0.0
    assert "paohuzi_verified_per_second 0.0" in text_
    verify_logs(db, 64, log_ids=[_log_id(db, "qm-0"), _log_id(db, "qm-1")])
    assert "paohuzi_verified_per_second 0.0333" in client.get("/api/v1/metrics").text


def test_reaudit_chunks_resume(backend: Backend, committed_db: Database) -> None:
    """A re-audit enqueues a job per chunk of stale logs; run again (after a crash, say)
    it adds no second job for a chunk still waiting, and a chunk job verifies only what
    is still stale."""
    postgres_only(backend.kind)
    db = committed_db
    items = [prepare(parse(log_bytes(f"rc-{i:02d}", index=i), 64), verify=False) for i in range(25)]
    with transaction(db.write) as session:
        store(session, items, api_key_id=None, source=Source.IMPORT)
    engine = engine_version()
    assert enqueue_chunks(db, engine, 10) == 3
    assert enqueue_chunks(db, engine, 10) == 0  # the same three are still waiting
    with db.read() as session:
        ranges = sorted(
            (a["first"], a["last"])
            for a in session.execute(
                text("SELECT args FROM procrastinate_jobs WHERE queue_name = 'reaudit'")
            ).scalars()
        )
    assert [last - first + 1 for first, last in ranges] == [10, 10, 5]
    first, last = ranges[0]
    assert verify_logs(db, 64, first=first, last=last).checked == 10
    assert verify_logs(db, 64, first=first, last=last).checked == 0  # run twice: nothing new
    with db.read() as session:
        assert ReauditRepository(session).count_stale(engine, None) == 15
