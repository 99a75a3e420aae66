"""The operator console: sign-in, sessions, CSRF, access rules, a case's whole life."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.database import Database

from .conftest import PASSWORD, Console, csrf_of, report, sign_in


def test_no_console_without_sign_in(client: TestClient, make_key: Any) -> None:
    case_id = report(client, make_key("ingest")).json()["case"]["id"]
    for path in ("/ops", f"/ops/cases/{case_id}", "/ops?state=all"):
        r = client.get(path)
        assert r.status_code == 303
        assert r.headers["location"].startswith("/ops/sign-in?next=")
        assert "ex-guo-zhang" not in r.text
    before = client.get(f"/api/v1/cases/{case_id}", headers=make_key("operate")).json()
    r = client.post(f"/ops/cases/{case_id}/transition",
                    data={"to": "under_review", "note": "x", "csrf_token": "x"})
    assert r.status_code == 303 and r.headers["location"].startswith("/ops/sign-in")
    r = client.post(f"/ops/cases/{case_id}/evidence", data={"step": "1", "comment": "x"})
    assert r.status_code == 303
    after = client.get(f"/api/v1/cases/{case_id}", headers=make_key("operate")).json()
    assert after["trail"] == before["trail"] and after["state"] == "open"


def test_sign_in_wrong_password_and_csrf(client: TestClient) -> None:
    page = client.get("/ops/sign-in")
    token = csrf_of(page.text)
    bad = client.post("/ops/sign-in", data={"username": "alice", "password": "nope",
                                            "csrf_token": token})
    assert bad.status_code == 401 and "Wrong username or password" in bad.text
    unknown = client.post("/ops/sign-in", data={"username": "mallory", "password": PASSWORD,
                                                "csrf_token": token})
    assert unknown.status_code == 401
    no_token = client.post("/ops/sign-in", data={"username": "alice", "password": PASSWORD})
    assert no_token.status_code == 403
    assert client.get("/ops").status_code == 303


def test_sign_in_sets_a_safe_cookie_and_sign_out_ends_it(client: TestClient) -> None:
    page = client.get("/ops/sign-in?next=/ops?state=all")
    r = client.post("/ops/sign-in", data={"username": "Alice", "password": PASSWORD,
                                          "csrf_token": csrf_of(page.text),
                                          "next": "/ops?state=all"})
    assert r.status_code == 303 and r.headers["location"] == "/ops?state=all"
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "paohuzi_ops=" in cookie
    # a new CSRF token after sign-in (no fixation of the anonymous one)
    assert csrf_of(client.get("/ops").text) != csrf_of(page.text)
    assert client.get("/ops").status_code == 200
    no_token = client.post("/ops/sign-out", data={})
    assert no_token.status_code == 403
    out = client.post("/ops/sign-out", data={"csrf_token": csrf_of(client.get("/ops").text)})
    assert out.status_code == 303
    assert client.get("/ops").status_code == 303


def test_open_redirects_are_refused(client: TestClient) -> None:
    page = client.get("/ops/sign-in")
    for target in ("https://evil.example/", "//evil.example/ops", "/g/x"):
        r = client.post("/ops/sign-in", data={"username": "alice", "password": PASSWORD,
                                              "csrf_token": csrf_of(page.text), "next": target})
        assert r.headers["location"] == "/ops"
        page = client.get("/ops/sign-in")  # signed in: redirected; take a fresh page
        client.cookies.clear()
        page = client.get("/ops/sign-in")


def test_a_forged_cookie_is_no_session(client: TestClient) -> None:
    sign_in(client)
    value = client.cookies.get("paohuzi_ops")
    assert value
    client.cookies.set("paohuzi_ops", value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB"))
    assert client.get("/ops").status_code == 303


def test_no_case_action_without_the_csrf_token(console: Console, make_key: Any) -> None:
    client = console.client
    case_id = report(client, make_key("ingest")).json()["case"]["id"]
    for data in ({}, {"csrf_token": ""}, {"csrf_token": "forged"}):
        r = client.post(f"/ops/cases/{case_id}/transition",
                        data={"to": "under_review", "note": "look", "assignee": "alice", **data})
        assert r.status_code == 403, data
        r = client.post(f"/ops/cases/{case_id}/evidence",
                        data={"step": "1", "comment": "here", **data})
        assert r.status_code == 403
    case = client.get(f"/api/v1/cases/{case_id}", headers=make_key("operate")).json()
    assert case["state"] == "open" and case["evidence"] == []
    assert [e["action"] for e in case["trail"]] == ["opened", "report_merged"]


def test_every_form_carries_a_csrf_token(console: Console, make_key: Any) -> None:
    import re

    case_id = report(console.client, make_key("ingest")).json()["case"]["id"]
    for path in ("/ops", f"/ops/cases/{case_id}", "/g/ex-guo-zhang"):
        body = console.client.get(path).text
        for form in re.findall(r"<form\b[^>]*>.*?</form>", body, re.S):
            if 'method="post"' in form:
                assert 'name="csrf_token"' in form, form[:200]


def test_a_case_through_every_state(console: Console, make_key: Any) -> None:
    client = console.client
    filed = report(client, make_key("ingest")).json()
    case_id = filed["case"]["id"]
    page = client.get(f"/ops/cases/{case_id}?step=2")
    assert page.status_code == 200
    assert "guo_zhang" in page.text and 'data-step="2"' in page.text  # replay beside it

    def move(to: str, note: str, **extra: str) -> Any:
        return console.post(f"/ops/cases/{case_id}/transition",
                            {"to": to, "note": note, "step": "2", **extra})

    # a note is required, and only the next states are allowed
    assert move("under_review", "  ").status_code == 422
    assert move("closed", "skip ahead").status_code == 409
    r = move("under_review", "taking it", assignee="bob", from_state="open")
    assert r.status_code == 303 and r.headers["location"] == f"/ops/cases/{case_id}?step=2"
    # a form from a stale page is refused
    assert move("upheld", "stale", from_state="open").status_code == 409
    pin = console.post(f"/ops/cases/{case_id}/evidence", {"step": "2", "comment": "the 吃"})
    assert pin.status_code == 303
    assert console.post(f"/ops/cases/{case_id}/evidence",
                        {"step": "99", "comment": "x"}).status_code == 422
    assert move("upheld", "he took a passed card").status_code == 303
    assert move("closed", "penalty applied").status_code == 303
    assert move("under_review", "again").status_code == 409  # closed: only reopen

    body = client.get(f"/ops/cases/{case_id}").text
    assert 'data-case-state>closed' in body and "data-resolution>upheld" in body
    assert "This case is closed" in body
    case = client.get(f"/api/v1/cases/{case_id}", headers=make_key("operate")).json()
    trail = [(e["action"], e["to_state"], e["actor"], e["note"]) for e in case["trail"]]
    assert trail[2:] == [
        ("state_changed", "under_review", "operator:alice", "taking it"),
        ("evidence_pinned", None, "operator:alice", "the 吃"),
        ("state_changed", "upheld", "operator:alice", "he took a passed card"),
        ("state_changed", "closed", "operator:alice", "penalty applied"),
    ]
    assert case["assignee"] == "bob" and case["resolution"] == "upheld"
    for _, _, _, note in trail[2:]:
        assert note in body  # the trail is on the page


def test_queue_filters_and_sorts(console: Console, make_key: Any) -> None:
    client = console.client
    key = make_key("ingest")
    report(client, key, "ex-guo-zhang", "p0")
    report(client, key, "ex-guo-zhang", "p2")
    report(client, key, "ex-standard-zimo", "p0")
    report(client, key, "ex-draw-mismatch", "p0")
    q = client.get("/ops?sort=reports").text
    assert q.index("ex-guo-zhang") < q.index("ex-standard-zimo")
    sev = client.get("/ops?sort=severity").text
    assert sev.index("ex-draw-mismatch") < sev.index("ex-guo-zhang") < sev.index(
        "ex-standard-zimo")
    only = client.get("/ops?code=guo_zhang").text
    assert "ex-guo-zhang" in only and "ex-standard-zimo" not in only
    assert "ex-hengshan" not in client.get("/ops?ruleset=hengshan").text
    assert "ex-guo-zhang" not in client.get("/ops?state=closed").text
    assert "ex-guo-zhang" in client.get("/ops?player=p2").text


def test_the_trail_is_append_only_in_the_database(
    client: TestClient, make_key: Any, db: Database
) -> None:
    report(client, make_key("ingest"))
    with db.write() as session:
        with pytest.raises(DBAPIError):
            with session.begin_nested():
                session.execute(text("UPDATE case_events SET note = 'rewritten'"))
        with pytest.raises(DBAPIError):
            with session.begin_nested():
                session.execute(text("DELETE FROM case_events"))


def test_unknown_case_page(console: Console) -> None:
    assert console.client.get("/ops/cases/999999").status_code == 404


def test_public_pages_set_no_cookie(client: TestClient) -> None:
    for path in ("/", "/g/ex-guo-zhang?step=1", "/p/p0", "/replay-table/ex-guo-zhang?step=1"):
        assert "set-cookie" not in client.get(path).headers, path
    # the sign-in form's CSRF cookie (a signed-in session is the paohuzi_ops cookie)
    assert "paohuzi_csrf=" in client.get("/ops/sign-in").headers["set-cookie"]
