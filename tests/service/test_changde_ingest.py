"""The service takes changde logs like the other profiles (no ruleset list to extend)."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from replay.tools.simulate import simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_changde_log_is_verified_and_stored(client: TestClient,
                                            headers: dict[str, str]) -> None:
    raw = (EXAMPLES / "clean_changde_shua_hou.json").read_bytes()
    r = client.post("/api/v1/games", content=raw, headers=headers)
    assert r.status_code == 201, r.text
    verdict = r.json()["verdict"]
    assert verdict["ruleset"] == "changde" and verdict["status"] == "clean"
    assert verdict["score"]["expected"]["fan_values"] == {
        "wu_hu": 8, "dui_dui_hu": 8, "shua_hou": 8, "jia_hang_hang": 4}
    got = client.get("/api/v1/games/ex-changde-shua-hou/verdict", headers=headers)
    assert got.status_code == 200, got.text
    assert got.json()["score"]["expected"]["points"] == 140


def test_changde_wrong_score_is_a_finding(client: TestClient, headers: dict[str, str]) -> None:
    raw = (EXAMPLES / "violations_changde_score_mismatch.json").read_bytes()
    r = client.post("/api/v1/games", content=raw, headers=headers)
    assert r.status_code == 201, r.text
    assert [f["code"] for f in r.json()["verdict"]["findings"]] == ["score_mismatch"]


def test_match_report_checks_drawn_before(client: TestClient, headers: dict[str, str]) -> None:
    docs = list(simulate(40, 3, "changde", match=40))
    at = next(i for i, d in enumerate(docs)
              if i and docs[i - 1]["result"]["outcome"] == "exhausted")
    docs[at]["match"]["drawn_before"] += 5
    docs[at].pop("result")
    for doc in docs[: at + 1]:
        r = client.post("/api/v1/games", content=json.dumps(doc).encode(), headers=headers)
        assert r.status_code == 201, r.text
    report = client.get(f"/api/v1/matches/{docs[0]['match']['id']}", headers=headers).json()
    assert [(p["hand"], p["code"]) for p in report["problems"]] == [
        (at + 1, "drawn_before_mismatch")]
