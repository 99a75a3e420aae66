"""Every 4xx answer: its documented status, a clear message, and nothing stored."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from app.auth.repository import ApiKeyRepository
from app.auth.secrets import hash_key
from app.auth.service import revoke_key
from app.database import Database, transaction

from .conftest import KeyMaker, row_counts
from .logs import log_doc

URL = "/api/v1/games"


def _doc_with(change: Callable[[dict], None]) -> bytes:  # type: ignore[type-arg]
    doc = log_doc("bad-1")
    change(doc)
    return json.dumps(doc).encode()


def _unknown_card(doc: dict) -> None:  # type: ignore[type-arg]
    doc["deal"]["hands"][0][0] = "x11"


def _wrong_field(doc: dict) -> None:  # type: ignore[type-arg]
    doc["dealer"] = "zero"


def _extra_field(doc: dict) -> None:  # type: ignore[type-arg]
    doc["players"][1]["nick"] = "bob"


def _wrong_format(doc: dict) -> None:  # type: ignore[type-arg]
    doc["format"] = "paohuzi-log/2"


CASES = [
    (b'{"format": "paohuzi-log/1",', "", "valid JSON"),
    (b"[1, NaN]", "/1", "finite number"),
    (b'{"a": "\\ud800"}', "/a", "lone surrogates"),
    (b"[" * 100 + b"]" * 100, "", "nesting at most"),
    (b"\xff\xfe{}", "", "UTF-8"),
    (b"", "", "valid JSON"),
    (_doc_with(_unknown_card), "/deal/hands/0/0", "card name"),
    (_doc_with(_wrong_field), "/dealer", "seat"),
    (_doc_with(_extra_field), "/players/1/nick", ""),
    (_doc_with(_wrong_format), "/format", "paohuzi-log/1"),
]


@pytest.mark.parametrize(
    ("raw", "pointer", "words"),
    CASES,
    ids=[
        "truncated",
        "nan",
        "surrogate",
        "deep",
        "utf16",
        "empty",
        "unknown-card",
        "wrong-type",
        "unknown-field",
        "wrong-format",
    ],
)
def test_invalid_log_422(
    client: TestClient, headers: dict[str, str], db: Database, raw: bytes, pointer: str, words: str
) -> None:
    before = row_counts(db)
    answer = client.post(URL, content=raw, headers=headers)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["code"] == "invalid_log"
    assert error["message"]
    problem = next(p for p in error["problems"] if p["pointer"] == pointer)
    assert words in problem["expected"]
    assert row_counts(db) == before


def test_oversize_413(client: TestClient, headers: dict[str, str], db: Database) -> None:
    before = row_counts(db)
    doc = log_doc("big-1")
    doc["meta"] = {"pad": "x" * 70_000}
    answer = client.post(URL, content=json.dumps(doc).encode(), headers=headers)
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "payload_too_large"
    assert "65536" in answer.json()["error"]["message"]
    assert row_counts(db) == before


def test_oversize_without_content_length_413(
    client: TestClient, headers: dict[str, str], db: Database
) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 1024

    answer = client.post(URL, content=chunks(), headers=headers)
    assert answer.status_code == 413
    assert row_counts(db)["hand_logs"] == 0


def test_bulk_oversize_413(client: TestClient, headers: dict[str, str], db: Database) -> None:
    body = (json.dumps(log_doc("b")) + "\n").encode() * 400  # > 512 KiB
    answer = client.post(f"{URL}:bulk", content=body, headers=headers)
    assert answer.status_code == 413
    assert row_counts(db)["hand_logs"] == 0


def test_bulk_too_many_lines_413(client: TestClient, headers: dict[str, str], db: Database) -> None:
    body = b"{}\n" * 51
    answer = client.post(f"{URL}:bulk", content=body, headers=headers)
    assert answer.status_code == 413
    assert "at most 50" in answer.json()["error"]["message"]


@pytest.mark.parametrize(
    "method,path",
    [
        ("post", URL),
        ("post", f"{URL}:bulk"),
        ("get", f"{URL}/x"),
        ("get", f"{URL}/x/log"),
        ("get", f"{URL}/x/verdict"),
        ("get", "/api/v1/findings"),
        ("get", "/api/v1/players/p"),
        ("post", "/api/v1/admin/reaudit"),
        ("get", "/api/v1/metrics"),
    ],
)
def test_missing_or_bad_key_401(client: TestClient, db: Database, method: str, path: str) -> None:
    raw = json.dumps(log_doc("nokey")).encode()
    for headers in ({}, {"X-API-Key": "pha_not-a-key"}, {"Authorization": "Bearer nope"}):
        answer = client.request(method, path, headers=headers, content=raw)
        assert answer.status_code == 401, (path, headers)
        error = answer.json()["error"]
        assert error["code"] == "unauthorized" and "API key" in error["message"]
    assert row_counts(db)["hand_logs"] == 0


@pytest.mark.parametrize(
    "method,path,scope",
    [
        ("post", URL, "ingest"),
        ("post", f"{URL}:bulk", "ingest"),
        ("get", f"{URL}/x", "read"),
        ("get", "/api/v1/findings", "read"),
        ("get", "/api/v1/players/p", "read"),
        ("post", "/api/v1/admin/reaudit", "operate"),
        ("get", "/api/v1/metrics", "operate"),
    ],
)
def test_wrong_scope_403(
    client: TestClient, make_key: KeyMaker, db: Database, method: str, path: str, scope: str
) -> None:
    others = [s for s in ("ingest", "read", "operate") if s != scope]
    headers = {"X-API-Key": make_key(*others)}
    answer = client.request(method, path, headers=headers, content=json.dumps(log_doc("s")))
    assert answer.status_code == 403
    assert answer.json()["error"]["message"] == f"this API key lacks the '{scope}' scope"
    assert row_counts(db)["hand_logs"] == 0


def test_admin_scope_grants_everything(client: TestClient, make_key: KeyMaker) -> None:
    headers = {"X-API-Key": make_key("admin")}
    assert client.post(URL, content=json.dumps(log_doc("adm")), headers=headers).status_code == 201
    assert client.get("/api/v1/metrics", headers=headers).status_code == 200


def test_bearer_token_works(client: TestClient, key: str) -> None:
    answer = client.get("/api/v1/findings", headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 200


def test_revoked_key_401(client: TestClient, key: str, db: Database) -> None:
    with transaction(db.write) as session:
        row = ApiKeyRepository(session).by_hash(hash_key(key))
        assert row is not None
        revoke_key(session, row.id)
    answer = client.post(URL, content=json.dumps(log_doc("rv")), headers={"X-API-Key": key})
    assert answer.status_code == 401
    assert "revoked" in answer.json()["error"]["message"]
    assert row_counts(db)["hand_logs"] == 0


def test_unknown_game_404(client: TestClient, headers: dict[str, str]) -> None:
    for path in (f"{URL}/nope", f"{URL}/nope/log", f"{URL}/nope/verdict", "/api/v1/players/nobody"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "not_found"
        assert (
            "nope" in answer.json()["error"]["message"]
            or "nobody" in answer.json()["error"]["message"]
        )


def test_bad_query_422(client: TestClient, headers: dict[str, str]) -> None:
    for query, pointer in (
        ("limit=0", "/query/limit"),
        ("limit=abc", "/query/limit"),
        ("since=2026-01-01T00:00:00", "/query/since"),
        ("cursor=garbage", "/query/cursor"),
        ("severity=bad", "/query/severity"),
    ):
        answer = client.get(f"/api/v1/findings?{query}", headers=headers)
        assert answer.status_code == 422, query
        assert answer.json()["error"]["problems"][0]["pointer"] == pointer


def test_reaudit_bad_body_422(client: TestClient, headers: dict[str, str]) -> None:
    answer = client.post("/api/v1/admin/reaudit", json={"limit": -1}, headers=headers)
    assert answer.status_code == 422
    assert answer.json()["error"]["problems"][0]["pointer"] == "/body/limit"


def test_unknown_route_and_method(client: TestClient, headers: dict[str, str]) -> None:
    assert client.get("/api/v1/nothing", headers=headers).json()["error"]["code"] == "not_found"
    answer = client.delete(f"{URL}/x", headers=headers)
    assert answer.status_code == 405
    assert answer.json()["error"]["code"] == "method_not_allowed"


def test_the_key_is_checked_before_the_body(
    client: TestClient, make_key: KeyMaker, db: Database
) -> None:
    """The single-log ingest looks its key up in its own transaction: a bad key or a
    missing scope still answers 401/403 before a body that is too large or not a log,
    and is not counted as an ingest outcome."""
    big = json.dumps({**log_doc("order-1"), "meta": {"pad": "x" * 70_000}}).encode()
    reader = {"X-API-Key": make_key("read")}

    def rejected() -> float:
        text = client.get("/api/v1/metrics", headers={"X-API-Key": make_key("operate")}).text
        name = 'paohuzi_ingest_logs_total{outcome="rejected"}'
        line = next((x for x in text.splitlines() if x.startswith(name)), "x 0")
        return float(line.split()[-1])

    before = rejected()
    for headers, body, status in (
        ({"X-API-Key": "pha_not-a-key"}, big, 401),
        ({"X-API-Key": "pha_not-a-key"}, b"{not json", 401),
        (reader, big, 403),
        (reader, b"{not json", 403),
    ):
        answer = client.post(URL, content=body, headers=headers)
        assert answer.status_code == status, (headers, body[:20])
    assert rejected() == before
    assert row_counts(db)["hand_logs"] == 0
