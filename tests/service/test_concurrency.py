"""Concurrent duplicates: exactly one row, one 201, the others 200 with the same verdict."""

from __future__ import annotations

import dataclasses
import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

import replay.engine
import replay.version
from app.admin.schemas import ReauditOut
from app.admin.service import merge, run_batches
from app.database import Database, transaction
from app.main import create_app
from app.models import VerdictRow
from app.settings import Settings

from .conftest import key_headers, row_counts
from .logs import log_bytes

URL = "/api/v1/games"


def _race(client: TestClient, bodies: list[bytes], headers: dict[str, str]) -> list[httpx.Response]:
    barrier = threading.Barrier(len(bodies))

    def post(body: bytes) -> httpx.Response:
        barrier.wait()
        answer: httpx.Response = client.post(URL, content=body, headers=headers)
        return answer

    with ThreadPoolExecutor(len(bodies)) as pool:
        return list(pool.map(post, bodies))


def test_concurrent_identical_posts(committed_db: Database, settings: Settings) -> None:
    headers = key_headers(committed_db)
    with TestClient(create_app(settings, db=committed_db)) as client:
        for round_ in range(6):
            raw = log_bytes(f"c-{round_}", doctor="out_of_turn")
            answers = _race(client, [raw] * 4, headers)
            assert sorted(a.status_code for a in answers) == [200, 200, 200, 201]
            verdicts = {a.json()["verdict"]["log_sha256"] for a in answers}
            assert len(verdicts) == 1
    counts = row_counts(committed_db)
    assert counts["hand_logs"] == 6 and counts["verdicts"] == 6 and counts["log_players"] == 18


def test_concurrent_conflicting_posts(committed_db: Database, settings: Settings) -> None:
    headers = key_headers(committed_db)
    with TestClient(create_app(settings, db=committed_db)) as client:
        for round_ in range(4):
            a, b = log_bytes(f"k-{round_}"), log_bytes(f"k-{round_}", seed=1)
            answers = _race(client, [a, b], headers)
            assert sorted(x.status_code for x in answers) == [201, 409]
            winner = next(x for x in answers if x.status_code == 201)
            stored = client.get(f"{URL}/k-{round_}/log", headers=headers).content
            assert stored == (a if winner is answers[0] else b)
    assert row_counts(committed_db)["hand_logs"] == 4


def test_concurrent_reaudits(
    committed_db: Database, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two re-audits at once: each log ends with exactly one current verdict, no error."""
    headers = key_headers(committed_db)
    with TestClient(create_app(settings, db=committed_db)) as client:
        body = b"\n".join(log_bytes(f"cr-{i}") for i in range(40))
        client.post(f"{URL}:bulk", content=body, headers=headers)
    monkeypatch.setattr(replay.version, "ENGINE_VERSION", "concurrent-next")
    original = replay.engine.verify
    monkeypatch.setattr(
        replay.engine,
        "verify",
        lambda log: dataclasses.replace(original(log), engine="concurrent-next"),
    )
    barrier = threading.Barrier(2)

    def run() -> ReauditOut:
        barrier.wait()
        return merge(
            run_batches(
                partial(transaction, committed_db.read),
                partial(transaction, committed_db.write),
                limit=1000,
                batch=7,
            )
        )

    with ThreadPoolExecutor(2) as pool:
        reports = list(pool.map(lambda _: run(), range(2)))
    assert sum(r.checked for r in reports) == 40
    assert all(r.remaining == 0 and not r.failed for r in reports)
    with committed_db.read() as session:
        current = session.scalars(
            select(VerdictRow.engine_version).where(VerdictRow.is_current.is_(True))
        ).all()
    assert sorted(current) == ["concurrent-next"] * 40
    assert row_counts(committed_db)["verdicts"] == 80
