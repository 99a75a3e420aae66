"""Findings about a whole hand (no seat) concern every player of that hand."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from .logs import engine_verdict, log_doc

GAMES = "/api/v1/games"


def _post(client: TestClient, headers: dict[str, str], doc: dict[str, Any]) -> None:
    answer = client.post(GAMES, content=json.dumps(doc).encode(), headers=headers)
    assert answer.status_code == 201, answer.text


def _findings(client: TestClient, headers: dict[str, str], query: str) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/findings?{query}", headers=headers)
    assert answer.status_code == 200, answer.text
    items: list[dict[str, Any]] = answer.json()["items"]
    return items


def test_seatless_findings_reach_every_player(client: TestClient, headers: dict[str, str]) -> None:
    doc = log_doc("pf-commit", doctor="commitment")
    players = [p["id"] for p in doc["players"]]
    _post(client, headers, doc)
    codes = [str(f.code) for f in engine_verdict(doc).findings]
    assert codes == ["commitment_mismatch"]
    for pid in players:
        mine = _findings(client, headers, f"player={pid}&game_id=pf-commit")
        assert [f["code"] for f in mine] == ["commitment_mismatch"], pid
        assert mine[0]["seat"] is None and mine[0]["player_id"] is None
        record = client.get(f"/api/v1/players/{pid}", headers=headers).json()
        assert record["findings_by_code"].get("commitment_mismatch", 0) >= 1
    # a player of another hand does not see it
    assert _findings(client, headers, "player=nobody-here&game_id=pf-commit") == []


def test_seated_findings_stay_with_their_seat(client: TestClient, headers: dict[str, str]) -> None:
    doc = log_doc("pf-turn", doctor="out_of_turn")
    _post(client, headers, doc)
    [finding] = engine_verdict(doc).findings
    assert finding.seat is not None
    guilty = doc["players"][finding.seat]["id"]
    for p in doc["players"]:
        mine = _findings(client, headers, f"player={p['id']}&game_id=pf-turn")
        assert len(mine) == (1 if p["id"] == guilty else 0), p


def test_unknown_code_is_422(client: TestClient, headers: dict[str, str]) -> None:
    answer = client.get("/api/v1/findings?code=zzz", headers=headers)
    assert answer.status_code == 422
    assert answer.json()["error"]["problems"][0]["pointer"] == "/query/code/0"
