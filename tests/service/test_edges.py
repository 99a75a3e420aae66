"""Inputs at the edges never reach the database as something it cannot store.

Each case ran into a 500 before (issue 12): integers past 64 bits, dates whose UTC time
falls outside years 1-9999, NUL bytes in ids and queries, over-long match ids, bodies
that are not JSON. Every answer is a documented status with the JSON error shape.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .logs import log_bytes, log_doc

HUGE = 2**70


def _post(client: TestClient, headers: dict[str, str], doc: dict[str, Any]) -> Any:
    body = json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return client.post("/api/v1/games", content=body, headers=headers)


def _problems(response: Any) -> list[str]:
    return [p["pointer"] for p in response.json()["error"].get("problems", [])]


@pytest.mark.parametrize(
    ("field", "value", "pointer"),
    [
        ("match", {"id": "room-1", "hand": HUGE}, "/match/hand"),
        ("match", {"id": "room-1", "hand": 2**31}, "/match/hand"),
        ("match", {"id": "r" * 129, "hand": 1}, "/match/id"),
        ("match", {"id": "room\x00", "hand": 1}, "/match/id"),
        ("started_at", "0001-01-01T00:00:00+05:00", "/started_at"),
        ("started_at", "9999-12-31T23:59:59-14:00", "/started_at"),
    ],
)
def test_unstorable_log_fields_are_422(
    client: TestClient, headers: dict[str, str], field: str, value: Any, pointer: str
) -> None:
    doc = log_doc("edge-1")
    doc[field] = value
    r = _post(client, headers, doc)
    assert r.status_code == 422, r.text
    assert pointer in _problems(r)


def test_largest_storable_values_are_stored(client: TestClient, headers: dict[str, str]) -> None:
    doc = log_doc("edge-max")
    doc["match"] = {"id": "r" * 128, "hand": 2**31 - 1}
    doc["started_at"] = "0001-01-01T00:00:00-05:00"
    r = _post(client, headers, doc)
    assert r.status_code == 201, r.text
    got = client.get("/api/v1/games/edge-max", headers=headers).json()
    assert (got["match_id"], got["hand_no"]) == ("r" * 128, 2**31 - 1)
    assert got["started_at"].startswith("0001-01-01T05:00:00")


def test_nul_in_player_id_is_422(client: TestClient, headers: dict[str, str]) -> None:
    doc = log_doc("edge-nul")
    doc["players"][1]["id"] = "p\x00x"
    r = _post(client, headers, doc)
    assert r.status_code == 422 and "/players/1/id" in _problems(r), r.text


def test_lone_surrogate_is_422(client: TestClient, headers: dict[str, str]) -> None:
    doc = log_doc("edge-sur")
    doc["players"][2]["id"] = "p\ud800"
    r = _post(client, headers, doc)
    assert r.status_code == 422, r.text


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/a%00b",
        "/api/v1/games/a%00b/log",
        "/api/v1/games/a%00b/verdict",
        "/api/v1/players/p%00",
        "/api/v1/matches/m%00",
        "/api/v1/games/" + "g" * 5000,
    ],
)
def test_nul_or_long_ids_in_paths_are_404(
    client: TestClient, headers: dict[str, str], path: str
) -> None:
    r = client.get(path, headers=headers)
    assert r.status_code == 404, r.text
    assert r.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("query", ["code=a%00b", "code=x&code=%00", "player=p%00",
                                   "game_id=%00", "ruleset=%00"])
def test_nul_in_filters_matches_nothing(
    client: TestClient, headers: dict[str, str], query: str
) -> None:
    client.post("/api/v1/games", content=log_bytes("edge-f", doctor="out_of_turn"), headers=headers)
    r = client.get(f"/api/v1/findings?{query}", headers=headers)
    if query.startswith("code="):  # /findings knows its codes: any other one is 422
        assert r.status_code == 422 and r.json()["error"]["problems"], r.text
    else:
        assert r.status_code == 200 and r.json() == {"items": [], "next_cursor": None}, r.text
    r = client.get(f"/api/v1/cases?{query.replace('code=x&', '')}", headers=headers)
    assert r.status_code == 200 and r.json()["items"] == [], r.text


@pytest.mark.parametrize(
    "query",
    [
        "cursor=%00",
        f"cursor={HUGE}",
        "since=9999-12-31T23:59:59-14:00",
        "until=0001-01-01T00:00:00%2B05:00",
        "since=0001-01-01T00:00:00%2B14:00",
    ],
)
def test_bad_queries_are_422(client: TestClient, headers: dict[str, str], query: str) -> None:
    r = client.get(f"/api/v1/findings?{query}", headers=headers)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "invalid_request"


def test_cursor_with_a_huge_id_is_422(client: TestClient, headers: dict[str, str]) -> None:
    import base64

    raw = json.dumps(["2026-01-01T00:00:00+00:00", HUGE]).encode()
    cursor = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    r = client.get(f"/api/v1/findings?cursor={cursor}", headers=headers)
    assert r.status_code == 422, r.text


@pytest.mark.parametrize("case_id", [str(HUGE), str(2**63), "-1", "0", "abc"])
def test_case_ids_out_of_range_are_404_or_422(
    client: TestClient, headers: dict[str, str], case_id: str
) -> None:
    r = client.get(f"/api/v1/cases/{case_id}", headers=headers)
    assert r.status_code in (404, 422), r.text
    r = client.post(
        f"/api/v1/cases/{case_id}/transitions",
        json={"to": "under_review", "note": "x", "assignee": "alice"},
        headers=headers,
    )
    assert r.status_code in (404, 422), r.text


@pytest.mark.parametrize("query", [f"offset={HUGE}", f"offset={2**63}", "state=%00"])
def test_case_queue_bounds(client: TestClient, headers: dict[str, str], query: str) -> None:
    r = client.get(f"/api/v1/cases?{query}", headers=headers)
    assert r.status_code == 422, r.text


def test_verdict_engine_with_nul_is_404(client: TestClient, headers: dict[str, str]) -> None:
    client.post("/api/v1/games", content=log_bytes("edge-v"), headers=headers)
    r = client.get("/api/v1/games/edge-v/verdict?engine=a%00", headers=headers)
    assert r.status_code == 404, r.text


def test_a_malformed_authorization_header_is_401(
    client: TestClient, headers: dict[str, str]
) -> None:
    r = client.get("/api/v1/findings", headers={**headers, "Authorization": "Basic x"})
    assert r.status_code == 401, r.text


@pytest.mark.parametrize("path", ["/api/v1/admin/reaudit", "/api/v1/reports",
                                  "/api/v1/cases/1/transitions", "/api/v1/cases/1/evidence"])
@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe\x00", b"{\"limit\": \"\xff\"}"])
def test_unparseable_bodies_are_422(
    client: TestClient, headers: dict[str, str], path: str, body: bytes
) -> None:
    r = client.post(path, content=body, headers={**headers, "Content-Type": "application/json"})
    assert r.status_code == 422, (path, body, r.status_code, r.text)
    assert r.json()["error"]["code"] == "invalid_request"


@pytest.mark.parametrize(
    "body",
    [
        {"game_id": "g\x00", "reporter": "p0", "accused_seat": 1, "reason": "other"},
        {"game_id": "g", "reporter": "p\x00", "accused_seat": 1, "reason": "other"},
        {"game_id": "g", "reporter": "p0", "accused_player": "\x00", "reason": "other"},
        {"game_id": "g", "reporter": "p0", "accused_seat": 1, "reason": "other", "text": "\x00"},
    ],
)
def test_nul_in_report_bodies_is_422(
    client: TestClient, headers: dict[str, str], body: dict[str, Any]
) -> None:
    r = client.post("/api/v1/reports", json=body, headers=headers)
    assert r.status_code == 422, r.text


def test_nul_in_reaudit_game_ids_is_422(client: TestClient, headers: dict[str, str]) -> None:
    r = client.post("/api/v1/admin/reaudit", json={"game_ids": ["a\x00"]}, headers=headers)
    assert r.status_code == 422, r.text


def test_bulk_without_a_body_is_422(client: TestClient, headers: dict[str, str]) -> None:
    r = client.post("/api/v1/games:bulk", headers=headers)
    assert r.status_code == 422, r.text
    r = client.post("/api/v1/games:bulk", content=b"\n \n", headers=headers)
    assert r.status_code == 422, r.text


def test_a_bad_line_in_bulk_is_rejected_alone(
    client: TestClient, headers: dict[str, str]
) -> None:
    bad = log_doc("bulk-bad")
    bad["match"] = {"id": "m" * 300, "hand": HUGE}
    lines = [log_bytes("bulk-ok-1"), json.dumps(bad).encode(), log_bytes("bulk-ok-2"),
             log_bytes("bulk-ok-3"), log_bytes("bulk-ok-4"), log_bytes("bulk-ok-5")]
    r = client.post("/api/v1/games:bulk", content=b"\n".join(lines), headers=headers)
    assert r.status_code == 200
    statuses = [json.loads(x)["status"] for x in r.text.splitlines()]
    assert statuses == ["created", "rejected", "created", "created", "created", "created"]


@pytest.mark.parametrize("path", ["/g/a%00b", "/p/a%00b", "/replay-table/a%00b", "/?q=a%00b",
                                  "/ops/sign-in?next=/ops%00"])
def test_nul_on_pages_is_never_a_500(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code in (200, 400, 404, 422), (path, r.status_code)


# Found by `make fuzz` (100 examples) on the merged API.
def test_nul_in_the_accused_filter_matches_nothing(
    client: TestClient, headers: dict[str, str]
) -> None:
    r = client.get("/api/v1/cases?accused=a%00b", headers=headers)
    assert r.status_code == 200, r.text
    assert r.json()["items"] == []


@pytest.mark.parametrize("field", ["name", "secret"])
def test_nul_in_a_webhook_subscription_is_422(
    client: TestClient, headers: dict[str, str], field: str
) -> None:
    body = {"name": "pipeline", "url": "http://127.0.0.1:9/hook", "secret": "s" * 20}
    body[field] = body[field] + "\x00"
    r = client.post("/api/v1/webhooks", json=body, headers=headers)
    assert r.status_code == 422, r.text
    r = client.post("/api/v1/webhooks", json={**body, field: "x" * 20, "extra": 1},
                    headers=headers)
    assert r.status_code == 422, r.text


def test_a_note_of_control_characters_is_blank_by_the_schema(
    client: TestClient, headers: dict[str, str]
) -> None:
    r = client.post("/api/v1/player-cases/1/cases", json={"case_id": 1, "note": "\x1f"},
                    headers=headers)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["problems"][0]["pointer"] == "/body/note"
