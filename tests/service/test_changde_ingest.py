"""The service takes changde logs like the other profiles (no ruleset list to extend)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

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
