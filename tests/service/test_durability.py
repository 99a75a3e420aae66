"""SIGKILL the server mid-bulk: what it acknowledged is stored, the retry adds no duplicates."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from sqlalchemy import func, select, text

from app.auth.service import create_key
from app.database import Database, transaction
from app.models import FindingRow, HandLog, LogPlayer, VerdictRow

from .backends import fresh_database
from .conftest import row_counts
from .logs import log_bytes
from .server import Server

pytestmark = pytest.mark.slow

TOTAL = 2400
BATCH = 25


def _bulk_body() -> bytes:
    doctors = ("", "", "out_of_turn", "commitment")
    return (
        b"\n".join(log_bytes(f"dur-{i:05d}", index=i, doctor=doctors[i % 4]) for i in range(TOTAL))
        + b"\n"
    )


def _intact(db: Database, kind: str) -> None:
    """Nothing half-stored: every log has its players and one current verdict with its rows."""
    with db.read() as s:
        if kind == "sqlite":
            assert s.execute(text("PRAGMA integrity_check")).scalar() == "ok"
        logs = s.scalar(select(func.count()).select_from(HandLog)) or 0
        assert s.scalar(select(func.count()).select_from(LogPlayer)) == 3 * logs
        current = select(VerdictRow).where(VerdictRow.is_current.is_(True))
        assert s.scalar(select(func.count()).select_from(current.subquery())) == logs
        expected = s.scalar(select(func.sum(VerdictRow.finding_count))) or 0
        assert s.scalar(select(func.count()).select_from(FindingRow)) == expected
        ids = s.scalar(select(func.count(func.distinct(HandLog.game_id))))
        assert ids == logs


def test_sigkill_mid_bulk(kind: str, tmp_path: Path) -> None:
    body = _bulk_body()
    with fresh_database(kind, tmp_path) as backend:
        db = Database.from_engine(backend.engine)
        with transaction(db.write) as session:
            _, secret = create_key(session, "durability", ["ingest", "read"])
        headers = {"X-API-Key": secret, "Content-Type": "application/x-ndjson"}
        server = Server(
            backend.url, tmp_path / "server.log", bulk_batch_size=str(BATCH), verify_mode="inline"
        ).start()
        acked: dict[str, str] = {}
        try:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                with client.stream(
                    "POST", "/api/v1/games:bulk", content=body, headers=headers
                ) as r:
                    assert r.status_code == 200
                    try:
                        for line in r.iter_lines():
                            item = json.loads(line)
                            acked[item["game_id"]] = item["status"]
                            if len(acked) == BATCH:
                                server.kill()
                    except (httpx.RemoteProtocolError, httpx.ReadError):
                        pass
        finally:
            server.stop()
        assert BATCH <= len(acked) < TOTAL, "the kill should land mid-bulk"
        assert set(acked.values()) == {"created"}

        # Restart on the same database: every acknowledged log is there, intact.
        server = Server(
            backend.url, tmp_path / "server.log", bulk_batch_size=str(BATCH), verify_mode="inline"
        ).start()
        try:
            with transaction(db.read) as s:
                stored = set(s.scalars(select(HandLog.game_id)))
            assert set(acked) <= stored
            assert len(stored) < TOTAL
            _intact(db, kind)

            # The client retries the whole request: nothing is stored twice.
            with httpx.Client(base_url=server.url, timeout=120) as client:
                answer = client.post("/api/v1/games:bulk", content=body, headers=headers)
                lines = [json.loads(x) for x in answer.text.splitlines()]
                assert len(lines) == TOTAL
                status = {x["game_id"]: x["status"] for x in lines}
                assert {status[g] for g in stored} == {"duplicate"}
                assert {status[g] for g in set(status) - stored} == {"created"}
                one = client.get(f"/api/v1/games/{next(iter(acked))}", headers=headers)
                assert one.status_code == 200
        finally:
            server.stop()
        counts = row_counts(db)
        assert counts["hand_logs"] == TOTAL and counts["verdicts"] == TOTAL
        _intact(db, kind)
        db.dispose()
