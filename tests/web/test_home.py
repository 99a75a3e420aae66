"""The home page: prefix and case-insensitive search, the hands received last and their
findings (by ingest time, whatever the hands' own start time says)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from .conftest import example_bytes


def _send(client: TestClient, headers: dict[str, str], game_id: str, started_at: str,
          name: str = "violations_guo_zhang.json", players: tuple[str, ...] = ("p0", "p1", "p2")
          ) -> None:
    doc: dict[str, Any] = json.loads(example_bytes(name))
    doc["game_id"] = game_id
    doc["started_at"] = started_at
    doc["players"] = [{"seat": i, "id": p} for i, p in enumerate(players)]
    r = client.post("/api/v1/games", content=json.dumps(doc).encode(), headers=headers)
    assert r.status_code == 201, r.text


def test_search_by_prefix_and_any_case(client: TestClient, make_key: Any) -> None:
    key = make_key("ingest")
    _send(client, key, "Table7-Hand-01", "2026-11-01T10:00:00Z", players=("Ann-77", "p1", "p2"))
    _send(client, key, "Table7-Hand-02", "2026-11-01T10:05:00Z")
    # exact ids, any case: straight there when only one matches
    assert client.get("/?q=table7-hand-01").headers["location"] == "/g/Table7-Hand-01"
    assert client.get("/?q=ann").headers["location"] == "/p/Ann-77"
    # a prefix with several matches: the list
    page = client.get("/?q=TABLE7")
    assert page.status_code == 200 and "data-matches" in page.text
    assert 'href="/g/Table7-Hand-01"' in page.text and 'href="/g/Table7-Hand-02"' in page.text
    # LIKE wildcards are plain characters
    assert client.get("/?q=%25").status_code == 404
    assert client.get("/?q=T_ble7").status_code == 404
    missing = client.get("/?q=zz-nothing")
    assert missing.status_code == 404 and "starts with" in missing.text


def test_home_shows_what_came_in_last(client: TestClient, make_key: Any) -> None:
    key = make_key("ingest")
    # started long ago, but received now: first on the home page
    _send(client, key, "late-arrival", "2020-01-01T00:00:00Z", players=("q1", "q2", "q3"))
    page = client.get("/").text
    recent = page[page.index('id="recent-h"'):]
    first_hand = recent[recent.index('href="/g/'):].split('"')[1]
    assert first_hand == "/g/late-arrival"
    findings = page[page.index("data-recent-findings"):page.index('id="recent-h"')]
    assert findings.index("/g/late-arrival") < findings.index("</tbody>")
    assert 'title="guo_zhang">过张' in findings.split("</tr>")[1]  # the newest row


def test_player_pages_show_findings_about_a_whole_hand(client: TestClient) -> None:
    # ex-wrong-score's score_mismatch has no seat: it concerns p0, p1 and p2 alike
    for player in ("p0", "p1", "p2"):
        page = client.get(f"/p/{player}").text
        row = page[page.index('href="/g/ex-wrong-score"'):]
        row = row[: row.index("</tr>")]
        assert 'title="score_mismatch">算分不符' in row and "the whole hand" in row, player
