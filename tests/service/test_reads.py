from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

import replay.native
from app.demo.synthetic import EPOCH
from replay.tools.simulate import simulate

from .logs import engine_verdict, log_doc

GAMES = "/api/v1/games"


def _post(client: TestClient, headers: dict[str, str], doc: dict) -> None:  # type: ignore[type-arg]
    assert client.post(GAMES, content=json.dumps(doc).encode(), headers=headers).status_code == 201


def _seed(client: TestClient, headers: dict[str, str]) -> list[dict]:  # type: ignore[type-arg]
    docs = []
    for i in range(12):
        doctor = ("out_of_turn", "commitment", "")[i % 3]
        ruleset = "hengshan" if i % 4 == 0 else "standard"
        doc = log_doc(f"f-{i:02d}", index=i, doctor=doctor, ruleset=ruleset)
        doc["players"][0]["id"] = "alice"
        _post(client, headers, doc)
        docs.append(doc)
    return docs


def test_findings_pages_cover_everything_once(client: TestClient, headers: dict[str, str]) -> None:
    docs = _seed(client, headers)
    total = sum(len(engine_verdict(doc).findings) for doc in docs)
    assert total >= 8
    seen: list[dict] = []  # type: ignore[type-arg]
    cursor = None
    while True:
        query = "limit=3" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(f"/api/v1/findings?{query}", headers=headers).json()
        seen += page["items"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == total
    assert len({f["id"] for f in seen}) == total
    keys = [(f["played_at"], f["id"]) for f in seen]
    assert keys == sorted(keys, reverse=True)


def test_findings_filters(client: TestClient, headers: dict[str, str]) -> None:
    docs = _seed(client, headers)

    def get(query: str) -> list[dict[str, Any]]:
        answer = client.get(f"/api/v1/findings?{query}", headers=headers)
        assert answer.status_code == 200, answer.text
        items: list[dict[str, Any]] = answer.json()["items"]
        return items

    assert {f["code"] for f in get("code=out_of_turn")} == {"out_of_turn"}
    codes = [str(f.code) for doc in docs for f in engine_verdict(doc).findings]
    both = get("code=out_of_turn&code=commitment_mismatch")
    assert len(both) == codes.count("out_of_turn") + codes.count("commitment_mismatch")
    severities = [str(f.severity) for doc in docs for f in engine_verdict(doc).findings]
    assert len(get("severity=violation")) == severities.count("violation")
    assert len(get("severity=invalid")) == severities.count("invalid")
    assert {f["ruleset"] for f in get("ruleset=hengshan")} == {"hengshan"}
    assert {f["game_id"] for f in get("game_id=f-03")} == {"f-03"}
    # Player filter: out_of_turn findings name the discarding seat's player.
    some = get("code=out_of_turn")[0]
    mine = get(f"player={some['player_id']}&code=out_of_turn")
    assert mine and all(f["player_id"] == some["player_id"] for f in mine)
    # Commitment findings are about the deal: no seat, no player.
    assert all(f["player_id"] is None for f in get("code=commitment_mismatch"))
    # Time range on the hand's start (f-03 starts at EPOCH + 21 min), until exclusive.
    start = EPOCH + timedelta(minutes=21)
    window = get(
        f"since={start.isoformat().replace('+00:00', 'Z')}"
        f"&until={(start + timedelta(minutes=7)).isoformat().replace('+00:00', 'Z')}"
    )
    assert {f["game_id"] for f in window} == {"f-03"}
    assert all(datetime.fromisoformat(f["played_at"]) == start for f in window)


def test_player_record(client: TestClient, headers: dict[str, str]) -> None:
    _seed(client, headers)
    record = client.get("/api/v1/players/alice", headers=headers)
    assert record.status_code == 200
    body = record.json()
    assert body["hands"] == 12
    assert body["hands_by_ruleset"] == {"hengshan": 3, "standard": 9}
    assert len(body["recent_games"]) == 12
    assert body["recent_games"][0]["game_id"] == "f-11"
    assert {g["verdict_status"] for g in body["recent_games"]} == {"clean", "violations"}
    findings = client.get("/api/v1/findings?player=alice", headers=headers).json()["items"]
    expected: dict[str, int] = {}
    for f in findings:
        expected[f["code"]] = expected.get(f["code"], 0) + 1
    assert body["findings_by_code"] == expected
    assert isinstance(body["decisions_by_kind"], dict)


def test_player_decisions_by_kind(client: TestClient, headers: dict[str, str]) -> None:
    """A player's decisions by kind are those of their seat in each of their hands'
    verdicts (simulated hands: ~20 decisions each, several of a kind)."""
    kinds: Counter[str] = Counter()
    for i, doc in enumerate(simulate(6, 11, "standard")):
        seat = i % 3
        next(p for p in doc["players"] if p["seat"] == seat)["id"] = "bob"
        _post(client, headers, doc)
        kinds.update(str(d.kind) for d in engine_verdict(doc).decisions if d.seat == seat)
    assert sum(kinds.values()) > len(kinds) > 1
    body = client.get("/api/v1/players/bob", headers=headers).json()
    assert body["decisions_by_kind"] == dict(sorted(kinds.items()))


def test_verdict_of_unknown_engine_404(client: TestClient, headers: dict[str, str]) -> None:
    _post(client, headers, log_doc("v-1"))
    answer = client.get(f"{GAMES}/v-1/verdict?engine=nope", headers=headers)
    assert answer.status_code == 404
    assert "nope" in answer.json()["error"]["message"]


def test_healthz(client: TestClient) -> None:
    answer = client.get("/api/v1/healthz")
    assert answer.status_code == 200
    assert answer.json()["status"] == "ok" and answer.json()["database"] == "ok"
    # which build of the rules core this process runs (replay/native.py)
    assert answer.json()["engine_build"] == replay.native.BUILD
    assert replay.native.BUILD in (replay.native.NATIVE, replay.native.PURE)


def test_metrics(client: TestClient, headers: dict[str, str]) -> None:
    _post(client, headers, log_doc("mx-1", doctor="commitment"))
    client.post(GAMES, content=b"nope", headers=headers)
    text = client.get("/api/v1/metrics", headers=headers).text
    assert 'paohuzi_ingest_logs_total{outcome="created"}' in text
    assert 'paohuzi_ingest_logs_total{outcome="rejected"}' in text
    assert "paohuzi_verify_seconds_bucket" in text
    assert 'paohuzi_findings_total{code="commitment_mismatch"}' in text
    assert 'paohuzi_stored_findings{code="commitment_mismatch"} 1.0' in text
    assert "paohuzi_stored_logs 1.0" in text


def test_root_points_at_the_docs(client: TestClient) -> None:
    answer = client.get("/", follow_redirects=False)
    assert answer.status_code in (302, 307, 200)
