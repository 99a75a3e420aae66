"""The fair-play suspicion queue in the operator console, opening a case with the
evidence pinned, and the player page's fair-play panel (operators only)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select

from app.database import Database
from app.fairplay.repository import FairplayRepository
from app.fairplay.service import scan
from app.models import CaseReport

from .conftest import sign_in


def _pair_with_steps(db: Database) -> tuple[str, str, int]:
    with db.read() as session:
        for p in FairplayRepository(session).pairs(1000):
            steps = sum(len(e["seq"]) for e in p.result["evidence"])
            if steps:
                return p.player_a, p.player_b, steps
    raise AssertionError("no pair with evidence steps")


def test_queue_needs_an_operator(client: TestClient) -> None:
    r = client.get("/ops/fairplay")
    assert r.status_code in (303, 401)


def test_queue_and_open_a_case_on_a_pair(client: TestClient, db: Database) -> None:
    summary = scan(db)
    assert summary.hands > 0 and summary.pairs > 0
    console = sign_in(client)
    page = client.get("/ops/fairplay")
    assert page.status_code == 200
    assert 'data-fairplay="pairs"' in page.text and "Open a case" in page.text
    assert 'href="/ops/fairplay"' in client.get("/ops").text
    a, b, steps = _pair_with_steps(db)
    r = console.post("/ops/fairplay/case", {"player_a": a, "player_b": b})
    assert r.status_code == 303
    case_url = r.headers["location"]
    assert case_url.startswith("/ops/cases/")
    case = client.get(case_url)
    assert case.status_code == 200
    assert case.text.count("[fair play:") >= 1
    assert "Filed by the fair-play scan" in case.text
    # the report is the scan's own, not put in the mouth of a player who sat there
    with db.read() as session:
        reporters = session.scalars(
            select(CaseReport.reporter_player_id)
            .where(CaseReport.case_id == int(case_url.rsplit("/", 1)[1]))).all()
    assert reporters == ["fair-play scan"]
    missing = console.post("/ops/fairplay/case", {"player_a": "nobody", "player_b": "none"})
    assert missing.status_code == 404


def test_player_page_panel_for_operators_only(client: TestClient, db: Database) -> None:
    scan(db)
    a, _, _ = _pair_with_steps(db)
    anon = client.get(f"/p/{a}")
    assert anon.status_code == 200 and "data-fairplay-player" not in anon.text
    sign_in(client)
    page = client.get(f"/p/{a}")
    assert "data-fairplay-player" in page.text and "Sits with" in page.text
