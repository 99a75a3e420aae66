"""Real worker processes on PostgreSQL: one SIGKILLed mid-job, two sharing a re-audit."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from app.database import Database, transaction
from app.games.service import Source, parse, prepare, store
from app.models import FindingRow, HandLog, VerdictRow, WebhookDelivery
from app.webhooks.service import create_subscription

from .backends import fresh_database
from .logs import engine_verdict, log_bytes
from .queue_helpers import ROOT, Worker, cli, jobs, postgres_only, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

DOCTORS = ("", "", "out_of_turn", "commitment")


def _raws(prefix: str, n: int) -> dict[str, bytes]:
    return {
        f"{prefix}-{i:04d}": log_bytes(f"{prefix}-{i:04d}", index=i, doctor=DOCTORS[i % 4])
        for i in range(n)
    }


def _store(db: Database, raws: list[bytes], *, enqueue: bool) -> None:
    items = [prepare(parse(raw, 64), verify=False) for raw in raws]
    with transaction(db.write) as session:
        store(session, items, api_key_id=None, source=Source.IMPORT, enqueue=enqueue)


def _verdicts(db: Database) -> dict[str, str]:
    with db.read() as session:
        rows = session.execute(
            select(HandLog.game_id, VerdictRow.verdict_json).join(
                VerdictRow, VerdictRow.log_id == HandLog.id
            )
        ).all()
    return {game_id: text_ for game_id, text_ in rows}


def _exactly_once(db: Database, raws: dict[str, bytes]) -> None:
    """One verdict per log, the engine's own, and its finding rows once."""
    stored = _verdicts(db)
    assert len(stored) == len(raws)
    for game_id, raw in raws.items():
        assert stored[game_id].encode() == engine_verdict(raw).to_bytes(), game_id
    with db.read() as session:
        expected = session.scalar(select(func.sum(VerdictRow.finding_count)))
        assert session.scalar(select(func.count()).select_from(FindingRow)) == expected
        assert (
            session.scalar(
                select(func.count()).select_from(VerdictRow).where(VerdictRow.is_current.is_(False))
            )
            == 0
        )


def test_sigkill_worker_mid_job(kind: str, tmp_path: Path) -> None:
    postgres_only(kind)
    raws = _raws("kill", 1200)
    with fresh_database(kind, tmp_path) as backend:
        db = Database.from_engine(backend.engine)
        with transaction(db.write) as session:  # nobody listens there: retried, counted
            create_subscription(
                session,
                name="sink",
                url="http://127.0.0.1:9/x",
                secret=None,
                codes=["out_of_turn"],
                rulesets=[],
                statuses=[],
            )
        _store(db, list(raws.values()), enqueue=True)  # one job for all 1,200 logs
        assert jobs(db, "todo", "verify") == 1

        first = Worker(backend.url, tmp_path / "worker-1.log").start()
        try:
            wait_until(lambda: jobs(db, "doing") == 1, 30, "the first worker takes the job")
            time.sleep(0.3)
            first.kill()  # mid-job: verifying 1,200 hands takes seconds
        finally:
            first.stop()
        assert jobs(db, "doing") == 1 and _verdicts(db) == {}, "killed after its commit"

        second = Worker(backend.url, tmp_path / "worker-2.log").start()
        try:
            wait_until(lambda: len(_verdicts(db)) == len(raws), 90, "the job is run again")
            wait_until(lambda: jobs(db, queue="verify") == 0, 30, "the job is finished")
        finally:
            second.stop()
        assert "put back in the queue" in (tmp_path / "worker-2.log").read_text()
        _exactly_once(db, raws)
        with db.read() as session:
            deliveries = session.scalar(select(func.count()).select_from(WebhookDelivery))
            flagged = session.scalar(
                select(func.count(func.distinct(FindingRow.log_id))).where(
                    FindingRow.code == "out_of_turn"
                )
            )
        assert deliveries == flagged > 0


def test_reaudit_with_two_workers_matches_inline(kind: str, tmp_path: Path) -> None:
    postgres_only(kind)
    raws = _raws("ra2", 600)
    with fresh_database(kind, tmp_path) as backend:
        db = Database.from_engine(backend.engine)
        _store(db, list(raws.values()), enqueue=False)  # stored unverified
        workers = Worker(backend.url, tmp_path / "workers.log", processes=2).start()
        try:

            def two_alive() -> bool:
                with db.read() as session:
                    sql = text("SELECT count(*) FROM procrastinate_workers")
                    return session.execute(sql).scalar() == 2

            wait_until(two_alive, 30, "two worker processes")
            done = subprocess.run(
                cli("reaudit", "--chunk-size", "40"),
                cwd=ROOT,
                env={**workers.env},
                capture_output=True,
                text=True,
                timeout=300,
            )
        finally:
            workers.stop()
        assert done.returncode == 0, done.stderr
        assert "600 logs to re-verify, 15 chunk jobs enqueued" in done.stdout
        assert "600 logs re-verified by the workers" in done.stdout
        assert "reaudit [" in done.stderr  # the progress bar
        _exactly_once(db, raws)
