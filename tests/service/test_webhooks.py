"""Webhooks: subscriptions over the API (admin), signed deliveries of matching verdicts,
retries while the receiver is down, every attempt recorded, failed ones replayed."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.auth.service import create_key
from app.database import Database, transaction
from app.webhooks.signing import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    signature,
    verify_signature,
)

from .backends import fresh_database
from .conftest import ALL_SCOPES, KeyMaker
from .logs import log_bytes
from .queue_helpers import Worker, wait_until
from .receiver import Receiver
from .server import Server

HOOKS = "/api/v1/webhooks"
SECRET = "s3cret-shared-with-the-receiver"


def test_signature_round_trip() -> None:
    body = b'{"game_id":"g"}'
    sig = signature(SECRET, 1_800_000_000, body)
    assert sig.startswith("sha256=") and len(sig) == 7 + 64
    assert verify_signature(SECRET, "1800000000", body, sig, now=1_800_000_100)
    assert not verify_signature(SECRET, "1800000000", body + b" ", sig, now=1_800_000_100)
    assert not verify_signature("another-secret-xx", "1800000000", body, sig, now=1_800_000_100)
    assert not verify_signature(SECRET, "1800000000", body, sig, now=1_800_001_000)  # stale


def test_subscriptions_need_admin(client: TestClient, make_key: KeyMaker) -> None:
    reader = {"X-API-Key": make_key("read", "operate", "ingest")}
    admin = {"X-API-Key": make_key("admin")}
    wanted = {"name": "siem", "url": "https://hooks.example/x", "codes": ["chou_hu"]}
    assert client.post(HOOKS, json=wanted, headers=reader).status_code == 403
    assert client.get(HOOKS, headers=reader).status_code == 403
    assert client.post(HOOKS, json=wanted).status_code == 401
    made = client.post(HOOKS, json=wanted, headers=admin)
    assert made.status_code == 201
    sub = made.json()
    assert sub["secret"].startswith("whsec_") and sub["codes"] == ["chou_hu"]
    listed = client.get(HOOKS, headers=admin).json()
    assert [s["id"] for s in listed] == [sub["id"]] and "secret" not in listed[0]
    assert client.get(f"{HOOKS}/{sub['id']}", headers=admin).json()["url"] == wanted["url"]
    for bad in (
        {**wanted, "url": "ftp://x/y"},
        {**wanted, "statuses": ["great"]},
        {**wanted, "codes": ["Not A Code"]},
        {**wanted, "secret": "short"},
    ):
        assert client.post(HOOKS, json=bad, headers=admin).status_code == 422, bad
    assert client.get(f"{HOOKS}/99999999999999999999", headers=admin).status_code == 422
    assert client.delete(f"{HOOKS}/{sub['id']}", headers=admin).status_code == 204
    assert client.get(f"{HOOKS}/{sub['id']}", headers=admin).status_code == 404
    assert client.get(f"{HOOKS}/deliveries/12345", headers=admin).status_code == 404


def test_only_matching_verdicts_make_deliveries(
    client: TestClient, headers: dict[str, str]
) -> None:
    by_code = client.post(
        HOOKS,
        json={"name": "a", "url": "http://127.0.0.1:9/a", "codes": ["out_of_turn"]},
        headers=headers,
    ).json()
    clean = client.post(
        HOOKS,
        json={
            "name": "b",
            "url": "http://127.0.0.1:9/b",
            "statuses": ["clean"],
            "rulesets": ["standard"],
        },
        headers=headers,
    ).json()
    client.post("/api/v1/games", content=log_bytes("wh-bad", doctor="out_of_turn"), headers=headers)
    client.post("/api/v1/games", content=log_bytes("wh-ok"), headers=headers)
    client.post("/api/v1/games", content=log_bytes("wh-hs", ruleset="hengshan"), headers=headers)

    def games(sub: dict[str, object]) -> list[str]:
        page = client.get(f"{HOOKS}/{sub['id']}/deliveries", headers=headers).json()
        return sorted(d["game_id"] for d in page["items"])

    assert games(by_code) == ["wh-bad"]
    assert games(clean) == ["wh-ok"]
    page = client.get(f"{HOOKS}/{by_code['id']}/deliveries?state=pending", headers=headers)
    delivery = page.json()["items"][0]
    assert delivery["state"] == "pending" and delivery["attempts"] == 0


@pytest.fixture
def live(kind: str, tmp_path: Path) -> Iterator[tuple[str, Database, str]]:
    """A fresh database with an admin key: its URL, the database, the key."""
    with fresh_database(kind, tmp_path) as backend:
        db = Database.from_engine(backend.engine)
        with transaction(db.write) as session:
            _, secret = create_key(session, "hooks", ALL_SCOPES)
        yield backend.url, db, secret


def _serve(url: str, kind: str, tmp_path: Path, **settings: str) -> tuple[Server, Worker | None]:
    """The server; on PostgreSQL also a worker (verification and deliveries are jobs)."""
    server = Server(url, tmp_path / "server.log", **settings).start()
    worker = None
    if kind == "postgresql":
        worker = Worker(url, tmp_path / "worker.log", **settings).start()
    return server, worker


def _stop(server: Server, worker: Worker | None) -> None:
    server.stop()
    if worker is not None:
        worker.stop()


QUICK = {"webhook_backoff_seconds": "0.2", "webhook_max_backoff_seconds": "0.5"}


@pytest.mark.slow
def test_a_receiver_down_for_a_while_gets_every_delivery(
    kind: str, tmp_path: Path, live: tuple[str, Database, str]
) -> None:
    url, _db, key = live
    receiver = Receiver()  # down: nothing listens on its port yet
    server, worker = _serve(url, kind, tmp_path, webhook_max_attempts="60", **QUICK)
    try:
        with httpx.Client(base_url=server.url, headers={"X-API-Key": key}, timeout=30) as api:
            sub = api.post(
                HOOKS, json={"name": "pipe", "url": receiver.url, "secret": SECRET}
            ).json()
            sent = [f"down-{i}" for i in range(8)]
            for i, game_id in enumerate(sent):
                doctor = "out_of_turn" if i % 2 else ""
                assert (
                    api.post("/api/v1/games", content=log_bytes(game_id, doctor=doctor)).status_code
                    == 201
                )

            def failed_attempts() -> bool:
                items = api.get(f"{HOOKS}/{sub['id']}/deliveries").json()["items"]
                return len(items) == len(sent) and all(d["attempts"] >= 2 for d in items)

            wait_until(failed_attempts, 60, "every delivery tried twice while the receiver is down")
            receiver.up()
            wait_until(lambda: len(receiver.deliveries()) == len(sent), 60, "all delivered")
            items = api.get(f"{HOOKS}/{sub['id']}/deliveries").json()["items"]
            assert {d["state"] for d in items} == {"delivered"}
            detail = api.get(f"{HOOKS}/deliveries/{items[0]['id']}").json()
            attempts = detail["attempts_made"]
            assert [a["ok"] for a in attempts] == [False] * (len(attempts) - 1) + [True]
            assert attempts[0]["status_code"] is None and "Connect" in attempts[0]["error"]
            assert attempts[-1]["status_code"] == 204
    finally:
        _stop(server, worker)
        receiver.down()

    got = receiver.deliveries().values()
    assert sorted(json.loads(r.body)["game_id"] for r in got) == sorted(sent)
    now = int(time.time())
    for r in got:
        assert verify_signature(
            SECRET, r.headers[TIMESTAMP_HEADER], r.body, r.headers[SIGNATURE_HEADER], now=now
        )
        doc = json.loads(r.body)
        assert doc["event"] == "verdict" and doc["engine"].startswith("paohuzi-replay/")
        codes = {f["code"] for f in doc["findings"]}
        assert ("out_of_turn" in codes) == (int(doc["game_id"][-1]) % 2 == 1)


@pytest.mark.slow
def test_a_failed_delivery_is_replayed(
    kind: str, tmp_path: Path, live: tuple[str, Database, str]
) -> None:
    url, _db, key = live
    receiver = Receiver()
    server, worker = _serve(url, kind, tmp_path, webhook_max_attempts="2", **QUICK)
    try:
        with httpx.Client(base_url=server.url, headers={"X-API-Key": key}, timeout=30) as api:
            sub = api.post(
                HOOKS,
                json={"name": "r", "url": receiver.url, "secret": SECRET, "codes": ["out_of_turn"]},
            ).json()
            api.post("/api/v1/games", content=log_bytes("rp-1", doctor="out_of_turn"))
            api.post("/api/v1/games", content=log_bytes("rp-2"))  # no out_of_turn: not sent

            def failed() -> list[dict[str, object]]:
                page = api.get(f"{HOOKS}/{sub['id']}/deliveries?state=failed").json()
                return list(page["items"])

            wait_until(lambda: len(failed()) == 1, 60, "the delivery fails after 2 attempts")
            delivery = failed()[0]
            assert delivery["game_id"] == "rp-1" and delivery["attempts"] == 2
            receiver.up()
            replayed = api.post(f"{HOOKS}/deliveries/{delivery['id']}/replay")
            assert replayed.status_code == 202 and replayed.json()["state"] == "pending"
            wait_until(lambda: len(receiver.deliveries()) == 1, 30, "the replay arrives")
            detail = api.get(f"{HOOKS}/deliveries/{delivery['id']}").json()
            assert detail["state"] == "delivered"
            assert [a["ok"] for a in detail["attempts_made"]] == [False, False, True]
            again = api.post(f"{HOOKS}/deliveries/{delivery['id']}/replay")
            assert again.status_code == 202  # a delivered one may be sent again too
    finally:
        _stop(server, worker)
        receiver.down()
