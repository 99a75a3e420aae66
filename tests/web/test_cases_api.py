"""``POST /api/v1/reports`` and ``/api/v1/cases…``."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import report


@pytest.mark.parametrize("scopes", [("ingest",), ("read",), ("admin",)])
def test_game_clients_file_reports(client: TestClient, make_key: Any, scopes: tuple[str]) -> None:
    r = report(client, make_key(*scopes))
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["merged"] is False
    assert body["report"]["accused_player"] == "p1"
    assert body["case"]["state"] == "open" and body["case"]["report_count"] == 1
    assert body["case"]["finding_codes"] == ["guo_zhang"]


def test_report_needs_a_key_with_ingest_or_read(client: TestClient, make_key: Any) -> None:
    assert report(client, {}).status_code == 401
    assert report(client, make_key("operate")).status_code == 403


def test_reports_on_one_hand_merge_into_one_case(client: TestClient, make_key: Any) -> None:
    key = make_key("ingest")
    first = report(client, key, reporter="p0").json()
    second = report(client, key, reporter="p2", accused_seat=None, accused_player="p1",
                    reason="collusion").json()
    assert second["merged"] is True and second["case"]["id"] == first["case"]["id"]
    assert second["case"]["report_count"] == 2
    case = client.get(f"/api/v1/cases/{first['case']['id']}", headers=make_key("operate")).json()
    assert case["reporters"] == ["p0", "p2"] and case["accused"] == ["p1"]
    assert [e["action"] for e in case["trail"]] == ["opened", "report_merged", "report_merged"]
    other = report(client, key, game_id="ex-chou-hu").json()
    assert other["merged"] is False and other["case"]["id"] != first["case"]["id"]


@pytest.mark.parametrize(
    ("extra", "status"),
    [
        ({"game_id": "no-such-game"}, 404),
        ({"reporter": "stranger"}, 422),
        ({"accused_seat": 0}, 422),  # p0 reporting itself
        ({"accused_seat": None}, 422),  # nobody accused
        ({"accused_seat": None, "accused_player": "stranger"}, 422),
        ({"accused_seat": 2, "accused_player": "p1"}, 422),
        ({"accused_seat": 3}, 422),
        ({"reason": "because"}, 422),
        ({"surprise": 1}, 422),
        ({"text": "x" * 4001}, 422),
    ],
)
def test_bad_reports(client: TestClient, make_key: Any, extra: dict[str, Any], status: int
                     ) -> None:
    r = report(client, make_key("ingest"), **extra)
    assert r.status_code == status, r.text
    assert "error" in r.json()


def test_case_actions_over_the_api(client: TestClient, make_key: Any) -> None:
    ops = make_key("operate", name="pipeline")
    case_id = report(client, make_key("ingest")).json()["case"]["id"]
    base = f"/api/v1/cases/{case_id}"
    assert client.get(base, headers=make_key("read")).status_code == 403
    assert client.get(base).status_code == 401
    r = client.post(f"{base}/transitions", headers=ops, json={"to": "under_review", "note": "x"})
    assert r.status_code == 422  # an API key is nobody: name the assignee
    r = client.post(f"{base}/transitions", headers=ops,
                    json={"to": "under_review", "note": "queued", "assignee": "alice"})
    assert r.status_code == 200 and r.json()["assignee"] == "alice"
    r = client.post(f"{base}/transitions", headers=ops,
                    json={"to": "dismissed", "note": "n", "from_state": "open"})
    assert r.status_code == 409
    r = client.post(f"{base}/evidence", headers=ops, json={"step": 2, "comment": "see"})
    assert r.status_code == 201 and r.json()["link"] == "/g/ex-guo-zhang?step=2"
    r = client.post(f"{base}/transitions", headers=ops, json={"to": "dismissed", "note": "ok"})
    assert r.status_code == 200 and r.json()["resolution"] == "dismissed"
    r = client.post(f"{base}/transitions", headers=ops, json={"to": "closed", "note": "done"})
    assert r.status_code == 200
    body = r.json()
    assert body["state"] == "closed" and body["next_states"] == ["open"]  # only: reopen
    assert {e["actor"] for e in body["trail"][2:]} == {"api-key:pipeline"}
    r = client.post(f"{base}/evidence", headers=ops, json={"step": 2, "comment": "late"})
    assert r.status_code == 409
    assert client.get("/api/v1/cases/424242", headers=ops).status_code == 404


def test_case_queue_over_the_api(client: TestClient, make_key: Any) -> None:
    key, ops = make_key("ingest"), make_key("operate")
    report(client, key, "ex-guo-zhang", "p0")
    report(client, key, "ex-guo-zhang", "p2")
    report(client, key, "ex-draw-mismatch", "p0")
    items = client.get("/api/v1/cases?sort=reports", headers=ops).json()["items"]
    assert [c["game_id"] for c in items][:2] == ["ex-guo-zhang", "ex-draw-mismatch"]
    items = client.get("/api/v1/cases?sort=severity", headers=ops).json()["items"]
    assert items[0]["game_id"] == "ex-draw-mismatch" and items[0]["severity"] == "invalid"
    items = client.get("/api/v1/cases?code=guo_zhang&state=open", headers=ops).json()["items"]
    assert [c["game_id"] for c in items] == ["ex-guo-zhang"]
    assert client.get("/api/v1/cases?state=closed", headers=ops).json()["items"] == []
    assert client.get("/api/v1/cases?sort=bogus", headers=ops).status_code == 422
