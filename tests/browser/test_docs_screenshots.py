"""The README's screenshots (``docs/*.png``): ``PAOHUZI_SCREENSHOTS=1 pytest
tests/browser/test_docs_screenshots.py`` writes them again; otherwise skipped."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from playwright.sync_api import Page, expect

from app.demo import demo_hands, in_the_past

from .conftest import ROOT, Live
from .test_console import file_report, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.environ.get("PAOHUZI_SCREENSHOTS"),
                       reason="set PAOHUZI_SCREENSHOTS=1 to write docs/*.png"),
]
DOCS = ROOT / "docs"


def _demo_hand(live: Live) -> tuple[str, int]:
    """A simulated hengshan hand with many melds; its game id and a step late in it."""
    best: tuple[int, str, int] = (-1, "", 0)
    now = datetime.now(UTC)
    for doc in in_the_past(demo_hands(6, 2026, doctored_every=0), 6, now, timedelta(minutes=3)):
        if doc["ruleset"] != "hengshan":
            continue
        raw = json.dumps(doc, ensure_ascii=False).encode()
        r = httpx.post(f"{live.url}/api/v1/games", content=raw, timeout=30,
                       headers={"X-API-Key": live.ingest_key, "Content-Type": "application/json"})
        assert r.status_code in (200, 201), r.text
        melds = sum(e["type"] in ("chi", "peng", "pao", "wei", "ti") for e in doc["events"])
        if melds > best[0]:
            best = (melds, doc["game_id"], len(doc["events"]) * 3 // 4)
    return best[1], best[2]


def test_write_the_screenshots(page: Page, live: Live) -> None:
    game_id, step = _demo_hand(live)
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"/g/{game_id}?step={step}")
    expect(page.locator("section.table")).to_have_attribute("data-step", str(step))
    page.screenshot(path=str(DOCS / "replay-desktop.png"))

    page.goto("/g/ex-wrong-score?step=end")  # the score difference beside the board
    expect(page.locator("[data-score-diff]")).to_be_visible()
    page.screenshot(path=str(DOCS / "replay-score-difference.png"))

    page.set_viewport_size({"width": 360, "height": 740})  # a phone's first screen
    page.goto("/g/ex-guo-zhang")  # opens at its first finding
    expect(page.locator("section.table")).to_have_attribute("data-step", "2")
    page.screenshot(path=str(DOCS / "replay-360px.png"))

    filed = file_report(live, "ex-guo-zhang", "p0", 1)
    file_report(live, "ex-guo-zhang", "p2", 1)
    case_id = filed["case"]["id"]  # type: ignore[index]
    page.set_viewport_size({"width": 1280, "height": 1200})
    sign_in(page, f"/ops/cases/{case_id}?step=2")
    page.get_by_label("under review", exact=True).check()
    page.get_by_label("Note (required)").fill("two reports and a guo_zhang finding: looking")
    page.get_by_role("button", name="Apply").click()
    page.get_by_label("Comment").fill("takes x3 after passing it at the deal's discard")
    page.get_by_role("button", name="Pin this step").click()
    expect(page.locator(".evidence")).to_contain_text("takes x3")
    page.screenshot(path=str(DOCS / "case-page.png"))

    page.get_by_label("Why (required)").fill("p1 takes passed cards again and again")
    page.get_by_role("button", name="Group").click()
    expect(page.locator("[data-grouped]")).to_contain_text("ex-guo-zhang")
    page.screenshot(path=str(DOCS / "player-case.png"))

    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/ops?state=all")
    page.screenshot(path=str(DOCS / "queue-360px.png"))
