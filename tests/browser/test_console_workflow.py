"""The case workflow in Chromium: reopening (by an operator, by a new report), notes,
grouping hand cases into a player case (a new one, then a merge), and the related cases
an operator sees on the replay and player pages."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from .conftest import Live
from .test_console import file_report, sign_in

pytestmark = pytest.mark.browser


def _decide(page: Page, label: str, note: str, button: str = "Apply") -> None:
    page.get_by_label(label, exact=True).check()
    page.locator("#note").fill(note)
    page.get_by_role("button", name=button, exact=True).click()


def test_reopen_a_closed_case(page: Page, live: Live) -> None:
    case_id = file_report(live, "ex-wrong-score", "p0", 1)["case"]["id"]  # type: ignore[index]
    sign_in(page, f"/ops/cases/{case_id}")
    state = page.locator("[data-case-state]")
    _decide(page, "under review", "looking")
    expect(state).to_have_text("under review")
    _decide(page, "dismissed", "the producer fixed its scorer")
    _decide(page, "closed", "done")
    expect(state).to_have_text("closed")
    expect(page.locator("[data-closed-note]")).to_contain_text("Reopen it with the reason")
    # a note leaves the state alone
    page.get_by_label("Note (the state stays closed)").fill("player asked why")
    page.get_by_role("button", name="Add the note").click()
    expect(state).to_have_text("closed")
    expect(page.locator('[data-trail] li[data-action="note_added"]')).to_contain_text(
        "player asked why")
    # reopen with a reason
    page.get_by_label("reopen", exact=True).check()
    page.get_by_label("Reason (required)").fill("the same scorer bug came back")
    page.get_by_role("button", name="Reopen", exact=True).click()
    expect(state).to_have_text("open")
    expect(page.locator("[data-reopened]")).to_have_text("reopened ×1")
    expect(page.locator('[data-trail] li[data-action="reopened"]')).to_contain_text(
        "the same scorer bug came back")
    # closed again, then a new report reopens it by itself
    _decide(page, "under review", "again")
    _decide(page, "upheld", "yes")
    _decide(page, "closed", "done")
    filed = file_report(live, "ex-wrong-score", "p2", 1)
    assert filed["outcome"] == "reopened" and filed["case"]["id"] == case_id  # type: ignore[index]
    page.reload()
    expect(state).to_have_text("open")
    expect(page.locator("[data-reopened]")).to_have_text("reopened ×2")
    expect(page.locator('[data-trail] li[data-action="reopened"]').last).to_contain_text(
        "reopened by a new report of p2")


def test_group_hands_into_a_player_case(page: Page, live: Live) -> None:
    first = file_report(live, "ex-shao-bi", "p0", 2)["case"]["id"]  # type: ignore[index]
    second = file_report(live, "ex-draw-mismatch", "p0", 2)["case"]["id"]  # type: ignore[index]
    sign_in(page, f"/ops/cases/{first}")
    page.get_by_label("Player case", exact=True).select_option(label="a new player case about p2")
    page.get_by_label("Why (required)").fill("p2 again")
    page.get_by_role("button", name="Group", exact=True).click()
    expect(page.locator("h1")).to_contain_text("Player case P#")
    grouped = page.locator("[data-grouped] tbody tr")
    expect(grouped).to_have_count(1)
    # merge the second hand case from the player case page
    page.get_by_label("Merge another hand case accusing p2").select_option(value=str(second))
    page.get_by_label("Why (required)").fill("same table, same trick")
    page.get_by_role("button", name="Merge", exact=True).click()
    expect(grouped).to_have_count(2)
    expect(page.locator('[data-trail] li[data-action="grouped"]')).to_have_count(2)
    player_case = urlsplit(page.url).path
    # the hand case says where it went; the queue lists the player case
    page.goto(f"/ops/cases/{second}")
    expect(page.locator("[data-player-case] a")).to_have_attribute("href", player_case)
    page.goto("/ops")
    expect(page.locator("[data-player-cases]")).to_contain_text("p2")
    # related cases beside the replay and on the player page, for an operator
    page.goto("/g/ex-shao-bi")
    expect(page.locator("[data-related-cases]")).to_contain_text(f"#{first}")
    expect(page.locator("[data-related-cases]")).to_contain_text("player case about p2")
    page.goto("/p/p2")
    expect(page.locator("[data-related-cases]")).to_contain_text("player case about p2")
    expect(page.locator(f'[data-related-cases] a[href="/ops/cases/{second}"]')).to_be_visible()
