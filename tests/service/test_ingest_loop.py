"""Where a single ingest runs: on SQLite the event loop runs it (in a group commit,
tests/service/test_group_commit.py) when the write lock is free, and hands it to a
worker thread, without waiting itself, when another connection holds the lock
(``dependencies.run_ingest``, ``app.group_commit``); on PostgreSQL always a worker
thread."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

import app.games.endpoints as endpoints
import app.games.service as service
from app.database import Database, WriteLockBusy, transaction
from app.main import create_app
from app.settings import Settings

from .conftest import key_headers, row_counts
from .logs import log_bytes

URL = "/api/v1/games"


def _on_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture
def where(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per ingest, whether it ran on the event loop's thread."""
    seen: list[bool] = []
    original = service.prepare  # (the verification, in the ingest's transaction)

    def recording(*args: Any, **kwargs: Any) -> Any:
        seen.append(_on_loop())
        return original(*args, **kwargs)

    monkeypatch.setattr(endpoints, "prepare", recording)
    return seen


@contextmanager
def write_lock_held(db: Database) -> Iterator[sqlite3.Connection]:
    """Another connection (as another process would) holds SQLite's write lock."""
    path = db.engine.url.database
    assert path
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        if other.in_transaction:
            other.rollback()
        other.close()


def test_write_now_raises_at_once_when_the_lock_is_held(committed_db: Database) -> None:
    if committed_db.write_now is None:
        assert committed_db.engine.dialect.name == "postgresql"
        return
    with write_lock_held(committed_db):
        with pytest.raises(WriteLockBusy):
            with transaction(committed_db.write_now) as session:
                session.execute(text("SELECT 1"))
    # the lock free again: the same pooled connection writes, and waits as long as before
    with transaction(committed_db.write_now) as session:
        assert session.execute(text("PRAGMA busy_timeout")).scalar() == 30000
        session.execute(text("CREATE TABLE probe_now (x INTEGER)"))
    with transaction(committed_db.read) as session:
        assert session.execute(text("SELECT count(*) FROM probe_now")).scalar() == 0


def test_ingest_runs_on_the_event_loop_when_the_lock_is_free(
    committed_db: Database, settings: Settings, where: list[bool]
) -> None:
    headers = key_headers(committed_db)
    with TestClient(create_app(settings, db=committed_db)) as client:
        for i in range(3):
            answer = client.post(URL, content=log_bytes(f"loop-{i}"), headers=headers)
            assert answer.status_code == 201, answer.text
    sqlite = committed_db.engine.dialect.name == "sqlite"
    assert where == [sqlite] * 3
    assert row_counts(committed_db)["verdicts"] == 3


def test_a_held_lock_sends_the_ingest_to_a_thread_and_the_loop_keeps_serving(
    committed_db: Database, settings: Settings, where: list[bool]
) -> None:
    """While another connection holds the write lock, the ingest waits on a worker
    thread; the event loop answers other requests meanwhile; the log is stored once
    the lock is released."""
    if committed_db.engine.dialect.name != "sqlite":
        pytest.skip("SQLite's write lock")
    headers = key_headers(committed_db)
    app = create_app(settings, db=committed_db)
    answers: list[httpx.Response] = []
    with TestClient(app) as client, write_lock_held(committed_db) as other:
        safety = threading.Timer(30, other.rollback)  # never hang the suite
        safety.start()
        try:
            poster = threading.Thread(
                target=lambda: answers.append(
                    client.post(URL, content=log_bytes("held"), headers=headers)
                )
            )
            poster.start()
            deadline = time.monotonic() + 20
            while getattr(app.state, "group_commit", None) is None or (
                app.state.group_commit.limiter.borrowed_tokens == 0
            ):
                assert time.monotonic() < deadline, "the ingest never reached a worker thread"
                time.sleep(0.01)
            health = client.get("/api/v1/healthz")
            released_before_health = not other.in_transaction
            other.rollback()
            poster.join(30)
        finally:
            safety.cancel()
    assert health.status_code == 200
    assert not released_before_health, "the event loop waited for the write lock"
    assert [a.status_code for a in answers] == [201]
    assert where == [False]
    assert row_counts(committed_db)["hand_logs"] == 1
