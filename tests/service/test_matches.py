"""GET /api/v1/matches/{match_id}: dealer rotation and running totals of one table."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from replay.tools.simulate import simulate


def _table(hands: int) -> list[dict[str, Any]]:
    docs = list(simulate(hands, 5, "standard", match=hands))
    assert len({d["match"]["id"] for d in docs}) == 1
    return docs


def _post(client: TestClient, headers: dict[str, str], doc: dict[str, Any]) -> None:
    answer = client.post("/api/v1/games", content=json.dumps(doc).encode(), headers=headers)
    assert answer.status_code == 201, answer.text


def test_match_report_totals_and_rotation(client: TestClient, headers: dict[str, str]) -> None:
    docs = _table(4)
    for doc in docs:
        _post(client, headers, doc)
    match_id = docs[0]["match"]["id"]
    report = client.get(f"/api/v1/matches/{match_id}", headers=headers).json()
    assert [h["hand"] for h in report["hands"]] == [1, 2, 3, 4]
    assert report["problems"] == []
    totals: dict[str, int] = {}
    for doc in docs:
        for p, score in zip(doc["players"], doc["result"]["scores"], strict=True):
            totals[p["id"]] = totals.get(p["id"], 0) + score
    assert report["expected_totals"] == dict(sorted(totals.items()))
    assert report["claimed_totals"] == report["expected_totals"]
    assert sum(report["expected_totals"].values()) == 0


def test_wrong_dealer_is_reported(client: TestClient, headers: dict[str, str]) -> None:
    docs = _table(2)
    second = docs[1]
    second["dealer"] = (second["dealer"] + 1) % 3  # a deal the rotation does not allow
    second.pop("result")
    second["events"] = [{"type": "end", "reason": "abandoned"}]
    hands = second["deal"]["hands"]
    # the new dealer must hold 21 cards: move the old dealer's extra card across
    old = (second["dealer"] + 2) % 3
    hands[second["dealer"]].append(hands[old].pop())
    second["deal"]["shown"] = hands[second["dealer"]][-1]
    second["deal"].pop("commitment")
    for doc in docs:
        _post(client, headers, doc)
    report = client.get(f"/api/v1/matches/{docs[0]['match']['id']}", headers=headers).json()
    assert [(p["hand"], p["code"]) for p in report["problems"]] == [(2, "match_invalid")]


def test_unknown_match_and_scope(client: TestClient, headers: dict[str, str],
                                 make_key: Any) -> None:
    assert client.get("/api/v1/matches/nope", headers=headers).status_code == 404
    assert client.get("/api/v1/matches/nope").status_code == 401
    ingest_only = make_key("ingest")
    answer = client.get("/api/v1/matches/nope", headers={"X-API-Key": ingest_only})
    assert answer.status_code == 403
