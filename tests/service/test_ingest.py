from __future__ import annotations

import hashlib
import json

import pytest
from fastapi.testclient import TestClient

from app.database import Database
from app.settings import Settings

from .conftest import row_counts
from .logs import log_bytes, log_doc, pretty

URL = "/api/v1/games"


def test_created_then_duplicate(client: TestClient, headers: dict[str, str], db: Database) -> None:
    raw = log_bytes("g-1", doctor="out_of_turn")
    first = client.post(URL, content=raw, headers=headers)
    assert first.status_code == 201, first.text
    body = first.json()
    assert body["outcome"] == "created"
    assert body["game_id"] == "g-1"
    assert body["verdict"]["status"] == "violations"
    assert [f["code"] for f in body["verdict"]["findings"]] == ["out_of_turn"]
    assert first.headers["location"].endswith("/api/v1/games/g-1")
    counts = row_counts(db)

    again = client.post(URL, content=raw, headers=headers)
    assert again.status_code == 200
    assert again.json() == {**body, "outcome": "duplicate"}
    assert row_counts(db) == counts
    assert counts["hand_logs"] == 1 and counts["verdicts"] == 1 and counts["log_players"] == 3


def test_same_content_other_bytes_is_a_duplicate(
    client: TestClient, headers: dict[str, str]
) -> None:
    doc = log_doc("g-2")
    assert client.post(URL, content=json.dumps(doc).encode(), headers=headers).status_code == 201
    again = client.post(URL, content=pretty(doc), headers=headers)
    assert again.status_code == 200
    # The bytes first received are kept, byte for byte.
    stored = client.get(f"{URL}/g-2/log", headers=headers)
    assert stored.content == json.dumps(doc).encode()


def test_conflict_changes_nothing(
    client: TestClient, headers: dict[str, str], db: Database
) -> None:
    raw = log_bytes("g-3")
    assert client.post(URL, content=raw, headers=headers).status_code == 201
    before = row_counts(db)
    other = log_bytes("g-3", seed=1)
    answer = client.post(URL, content=other, headers=headers)
    assert answer.status_code == 409
    error = answer.json()["error"]
    assert error["code"] == "conflict"
    assert "g-3" in error["message"]
    assert error["log_sha256"] != error["stored_log_sha256"]
    assert row_counts(db) == before
    assert client.get(f"{URL}/g-3/log", headers=headers).content == raw


def test_log_is_stored_verbatim(client: TestClient, headers: dict[str, str]) -> None:
    raw = b"\xef\xbb\xbf" + pretty(log_doc("g-4")) + b"\n\n"
    assert client.post(URL, content=raw, headers=headers).status_code == 201
    got = client.get(f"{URL}/g-4/log", headers=headers)
    assert got.status_code == 200
    assert got.content == raw
    assert got.headers["etag"] == f'"{hashlib.sha256(raw).hexdigest()}"'
    meta = client.get(f"{URL}/g-4", headers=headers).json()
    assert meta["raw_sha256"] == hashlib.sha256(raw).hexdigest()
    assert meta["size_bytes"] == len(raw)


def test_verdict_is_the_engines_bytes(client: TestClient, headers: dict[str, str]) -> None:
    from replay.engine import verify
    from replay.logformat import parse_log

    raw = log_bytes("g-5", doctor="commitment")
    client.post(URL, content=raw, headers=headers)
    got = client.get(f"{URL}/g-5/verdict", headers=headers)
    assert got.status_code == 200
    assert got.content == verify(parse_log(raw)).to_bytes()


def test_game_metadata(client: TestClient, make_key: object, db: Database) -> None:
    secret = make_key("ingest", "read", name="table-server-7")  # type: ignore[operator]
    headers = {"X-API-Key": secret}
    doc = log_doc("g-6", index=9)
    client.post(URL, content=json.dumps(doc).encode(), headers=headers)
    meta = client.get(f"{URL}/g-6", headers=headers).json()
    assert meta["api_key"] == "table-server-7"
    assert meta["source"] == "api"
    assert meta["ruleset"] == "standard"
    assert meta["match_id"] == doc["match"]["id"] and meta["hand_no"] == doc["match"]["hand"]
    assert [p["player_id"] for p in meta["players"]] == [p["id"] for p in doc["players"]]
    assert meta["started_at"].replace("+00:00", "Z") == doc["started_at"]
    assert meta["verdict"]["status"] == "clean"
    assert meta["links"]["log"].endswith("/api/v1/games/g-6/log")


def test_game_ids_with_odd_characters(client: TestClient, headers: dict[str, str]) -> None:
    game_id = "srv 7#a?b=c%d/é"
    answer = client.post(URL, content=log_bytes(game_id), headers=headers)
    assert answer.status_code == 201
    location = answer.headers["location"]
    assert location.endswith("/api/v1/games/srv%207%23a%3Fb%3Dc%25d/%C3%A9")
    assert client.get(location, headers=headers).json()["game_id"] == game_id
    meta = client.get(location, headers=headers).json()
    assert client.get(meta["links"]["verdict"], headers=headers).status_code == 200


def test_game_ids_with_slashes(client: TestClient, headers: dict[str, str]) -> None:
    raw = log_bytes("srv/7/000123")
    assert client.post(URL, content=raw, headers=headers).status_code == 201
    assert client.get(f"{URL}/srv/7/000123", headers=headers).json()["game_id"] == "srv/7/000123"
    assert client.get(f"{URL}/srv/7/000123/log", headers=headers).content == raw
    assert client.get(f"{URL}/srv/7/000123/verdict", headers=headers).status_code == 200


def test_unverified_ingest(settings: Settings, db: Database, key: str) -> None:
    from app.main import create_app

    settings = settings.model_copy(update={"verify_on_ingest": False})
    with TestClient(create_app(settings, db=db)) as client:
        headers = {"X-API-Key": key}
        answer = client.post(URL, content=log_bytes("g-7"), headers=headers)
        assert answer.status_code == 201
        assert answer.json()["verdict"] is None
        pending = client.get(f"{URL}/g-7/verdict", headers=headers)
        assert pending.status_code == 404
        assert pending.json()["error"]["reason"] == "verdict_pending"
        assert client.get(f"{URL}/g-7", headers=headers).json()["verdict"] is None


def test_engine_failure_keeps_the_log(
    client: TestClient, headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine bug is no reason to lose a producer's log: stored, verdict pending."""
    import replay.engine

    original = replay.engine.verify

    def broken(log: object) -> object:
        raise RuntimeError("engine bug")

    def errors() -> float:
        text = client.get("/api/v1/metrics", headers=headers).text
        line = next(x for x in text.splitlines() if x.startswith("paohuzi_engine_errors_total"))
        return float(line.split()[-1])

    before = errors()
    monkeypatch.setattr(replay.engine, "verify", broken)
    answer = client.post(URL, content=log_bytes("e-1"), headers=headers)
    assert answer.status_code == 201
    assert answer.json()["verdict"] is None
    assert errors() == before + 1
    monkeypatch.setattr(replay.engine, "verify", original)
    report = client.post("/api/v1/admin/reaudit", headers=headers).json()
    assert report["newly_verified"] == 1
    assert client.get(f"{URL}/e-1/verdict", headers=headers).status_code == 200
