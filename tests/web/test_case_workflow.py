"""The case workflow: reports on closed cases reopen them, reopening with a reason, notes,
one count per reporter, player cases and a player's case history (API and console)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .conftest import NASTY_GAME, Console, report

CASES = "/api/v1/cases"


def _close(client: TestClient, ops: dict[str, str], case_id: int, decision: str = "upheld"
           ) -> None:
    for body in ({"to": "under_review", "note": "mine", "assignee": "alice"},
                 {"to": decision, "note": "decided"}, {"to": "closed", "note": "done"}):
        r = client.post(f"{CASES}/{case_id}/transitions", headers=ops, json=body)
        assert r.status_code == 200, r.text


def test_a_report_on_a_closed_case_reopens_it(client: TestClient, make_key: Any) -> None:
    key, ops = make_key("ingest"), make_key("operate")
    first = report(client, key).json()
    assert first["outcome"] == "opened" and first["merged"] is False
    case_id = first["case"]["id"]
    _close(client, ops, case_id)
    again = report(client, key, reporter="p2", reason="collusion")
    assert again.status_code == 201
    body = again.json()
    assert body["outcome"] == "reopened" and body["merged"] is True
    assert body["case"]["id"] == case_id  # the same case, not a new one
    assert body["case"]["state"] == "open" and body["case"]["reopen_count"] == 1
    assert body["case"]["resolution"] is None
    case = client.get(f"{CASES}/{case_id}", headers=ops).json()
    reopened = [e for e in case["trail"] if e["action"] == "reopened"]
    assert len(reopened) == 1
    assert reopened[0]["from_state"] == "closed" and reopened[0]["to_state"] == "open"
    assert reopened[0]["data"]["previous_resolution"] == "upheld"
    assert "p2" in reopened[0]["note"]
    # it is back in the default queue (not closed)
    queue = client.get(f"{CASES}?state=open", headers=ops).json()["items"]
    assert [c["id"] for c in queue] == [case_id]


def test_reopen_with_a_reason(client: TestClient, make_key: Any) -> None:
    key, ops = make_key("ingest"), make_key("operate")
    case_id = report(client, key).json()["case"]["id"]
    _close(client, ops, case_id, "dismissed")
    url = f"{CASES}/{case_id}/transitions"
    assert client.post(url, headers=ops, json={"to": "open", "note": " "}).status_code == 422
    assert client.post(url, headers=ops, json={"to": "under_review", "note": "x"}
                       ).status_code == 409
    r = client.post(url, headers=ops, json={"to": "open", "note": "new evidence from p2"})
    assert r.status_code == 200
    body = r.json()
    assert body["state"] == "open" and body["reopen_count"] == 1
    assert body["next_states"] == ["under_review"]
    last = body["trail"][-1]
    assert (last["action"], last["note"]) == ("reopened", "new evidence from p2")


def test_notes_change_no_state(client: TestClient, make_key: Any) -> None:
    key, ops = make_key("ingest"), make_key("operate")
    case_id = report(client, key).json()["case"]["id"]
    r = client.post(f"{CASES}/{case_id}/notes", headers=ops, json={"note": "called p1"})
    assert r.status_code == 201
    assert r.json()["action"] == "note_added" and r.json()["to_state"] is None
    assert client.post(f"{CASES}/{case_id}/notes", headers=ops, json={"note": ""}
                       ).status_code == 422
    assert client.post(f"{CASES}/999999/notes", headers=ops, json={"note": "x"}
                       ).status_code == 404
    assert client.post(f"{CASES}/{case_id}/notes", headers=make_key("read"), json={"note": "x"}
                       ).status_code == 403
    case = client.get(f"{CASES}/{case_id}", headers=ops).json()
    assert case["state"] == "open" and case["trail"][-1]["note"] == "called p1"
    _close(client, ops, case_id)  # a closed case takes notes too
    r = client.post(f"{CASES}/{case_id}/notes", headers=ops, json={"note": "appeal lost"})
    assert r.status_code == 201
    assert client.get(f"{CASES}/{case_id}", headers=ops).json()["state"] == "closed"


def test_one_reporter_counts_once_per_hand(client: TestClient, make_key: Any) -> None:
    key, ops = make_key("ingest"), make_key("operate")
    for _ in range(5):  # p0 reports ex-guo-zhang five times
        last = report(client, key, "ex-guo-zhang", "p0").json()
    assert last["counted"] is False
    assert last["case"]["report_count"] == 1 and last["case"]["reports_filed"] == 5
    report(client, key, "ex-chou-hu", "p0")
    other = report(client, key, "ex-chou-hu", "p2").json()
    assert other["counted"] is True and other["case"]["report_count"] == 2
    items = client.get(f"{CASES}?sort=reports", headers=ops).json()["items"]
    # two reporters beat one insistent reporter
    assert [c["game_id"] for c in items][:2] == ["ex-chou-hu", "ex-guo-zhang"]


def test_player_cases_group_hands(client: TestClient, make_key: Any) -> None:
    key, ops = make_key("ingest"), make_key("operate")
    a = report(client, key, "ex-guo-zhang", "p0").json()["case"]["id"]
    b = report(client, key, "ex-chou-hu", "p0").json()["case"]["id"]
    c = report(client, key, "ex-ba-kuai", "p0", accused_seat=2).json()["case"]["id"]
    r = client.post("/api/v1/player-cases", headers=ops,
                    json={"player_id": "p1", "cases": [a], "note": "p1 keeps doing this"})
    assert r.status_code == 201, r.text
    pc = r.json()
    assert pc["player_id"] == "p1" and pc["state"] == "open" and pc["hand_case_count"] == 1
    assert [h["id"] for h in pc["hand_cases"]] == [a]
    assert pc["hand_cases"][0]["accused"] == ["p1"]
    merged = client.post(f"/api/v1/player-cases/{pc['id']}/cases", headers=ops,
                         json={"case_id": b, "note": "same pattern"})
    assert merged.status_code == 200
    assert sorted(h["id"] for h in merged.json()["hand_cases"]) == sorted([a, b])
    assert [e["action"] for e in merged.json()["trail"]] == ["opened", "grouped", "grouped"]
    # a hand case sits in one player case only
    r = client.post("/api/v1/player-cases", headers=ops,
                    json={"player_id": "p1", "cases": [b], "note": "again"})
    assert r.status_code == 409
    # a player with no hand stored: 404; a hand the player did not play: 409
    r = client.post("/api/v1/player-cases", headers=ops,
                    json={"player_id": "nobody", "cases": [c], "note": "x"})
    assert r.status_code == 404
    nasty = report(client, key, NASTY_GAME, "p2", accused_seat=0).json()["case"]["id"]
    r = client.post("/api/v1/player-cases", headers=ops,
                    json={"player_id": "p0", "cases": [nasty], "note": "x"})
    assert r.status_code == 409 and "did not play" in r.json()["error"]["message"]
    assert client.get("/api/v1/player-cases?player=p0", headers=ops).json()["player_cases"] == []
    assert client.get(f"{CASES}/{a}", headers=ops).json()["player_case"] == pc["id"]
    hand_trail = client.get(f"{CASES}/{a}", headers=ops).json()["trail"]
    assert hand_trail[-1]["action"] == "grouped" and hand_trail[-1]["data"]["player"] == "p1"
    # the player case moves like a hand case, reopen included
    url = f"/api/v1/player-cases/{pc['id']}"
    for body in ({"to": "under_review", "note": "n", "assignee": "bob"},
                 {"to": "upheld", "note": "banned"}, {"to": "closed", "note": "done"}):
        assert client.post(f"{url}/transitions", headers=ops, json=body).status_code == 200
    assert client.post(f"{url}/cases", headers=ops, json={"case_id": c, "note": "x"}
                       ).status_code == 409  # closed: reopen first
    assert client.post(f"{url}/notes", headers=ops, json={"note": "appeal"}).status_code == 201
    r = client.post(f"{url}/transitions", headers=ops, json={"to": "open", "note": "appeal won"})
    assert r.status_code == 200 and r.json()["trail"][-1]["action"] == "reopened"
    # the player's history: the player case and the hand cases accusing them
    h = client.get("/api/v1/player-cases?player=p1", headers=ops).json()
    assert [p["id"] for p in h["player_cases"]] == [pc["id"]]
    assert sorted(x["id"] for x in h["hand_cases"]) == sorted([a, b])
    h2 = client.get("/api/v1/player-cases?player=p2", headers=ops).json()
    assert h2["player_cases"] == [] and [x["id"] for x in h2["hand_cases"]] == [c]
    assert client.get("/api/v1/player-cases?player=p1", headers=make_key("read")).status_code == 403


def test_queue_shows_accused_reason_ruleset_and_the_hand(console: Console, make_key: Any
                                                        ) -> None:
    client = console.client
    key = make_key("ingest")
    case_id = report(client, key, "ex-shao-bi", "p0", reason="card_peeking").json()["case"]["id"]
    page = client.get("/ops").text
    row = page[page.index(f'data-case="{case_id}"'):]
    row = row[: row.index("</tr>")]
    assert 'data-hand-link' in row and 'href="/g/ex-shao-bi"' in row
    assert 'href="/p/p1"' in row and "card peeking" in row and "hengshan" in row
    api = client.get(f"{CASES}?accused=p1", headers=make_key("operate")).json()["items"]
    assert [c["id"] for c in api] == [case_id] and api[0]["reasons"] == ["card_peeking"]


def test_console_reopen_note_and_player_case(console: Console, make_key: Any) -> None:
    client = console.client
    key, ops = make_key("ingest"), make_key("operate")
    case_id = report(client, key).json()["case"]["id"]
    r = console.post(f"/ops/cases/{case_id}/note", {"note": "looked at it", "step": "2"})
    assert r.status_code == 303
    assert client.get(f"{CASES}/{case_id}", headers=ops).json()["state"] == "open"
    _close(client, ops, case_id)
    page = client.get(f"/ops/cases/{case_id}").text
    assert "Reopen" in page and 'value="open"' in page
    r = console.post(f"/ops/cases/{case_id}/transition",
                     {"to": "open", "note": "new report by phone", "from_state": "closed"})
    assert r.status_code == 303
    page = client.get(f"/ops/cases/{case_id}").text
    assert "data-reopened>reopened ×1" in page and "new report by phone" in page
    assert "data-reopened-line" in page and "looked at it" in page
    r = console.post(f"/ops/cases/{case_id}/group", {"target": "new:p1", "note": "pattern"})
    assert r.status_code == 303 and r.headers["location"].startswith("/ops/player-cases/")
    pc_page = client.get(r.headers["location"]).text
    assert "data-player-id>p1" in pc_page and f'href="/ops/cases/{case_id}"' in pc_page
    queue = client.get("/ops").text
    assert "data-player-cases" in queue and "in P#" in queue
    # operators see the related cases beside the replay and on the player page
    replay = client.get("/g/ex-guo-zhang").text
    assert "data-related-cases" in replay and f'href="/ops/cases/{case_id}"' in replay
    player = client.get("/p/p1").text
    assert "Case history" in player and "player case about p1" in player


def test_strangers_see_no_related_cases(client: TestClient, make_key: Any) -> None:
    report(client, make_key("ingest"))
    assert "data-related-cases" not in client.get("/g/ex-guo-zhang").text
    assert "Case history" not in client.get("/p/p1").text


def test_a_case_opens_at_the_first_finding(console: Console, make_key: Any) -> None:
    from .html import read_table

    case_id = report(console.client, make_key("ingest")).json()["case"]["id"]
    assert read_table(console.client.get(f"/ops/cases/{case_id}").text).step == 2
    assert read_table(console.client.get(f"/ops/cases/{case_id}?step=0").text).step == 0
