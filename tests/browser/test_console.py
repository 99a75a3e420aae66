"""The operator console in Chromium: sign in, decide a case, see reports merge."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Page, expect

from .conftest import PASSWORD, Live

pytestmark = pytest.mark.browser


def file_report(live: Live, game_id: str, reporter: str, accused_seat: int) -> dict[str, object]:
    r = httpx.post(
        f"{live.url}/api/v1/reports",
        headers={"X-API-Key": live.ingest_key},
        json={"game_id": game_id, "reporter": reporter, "accused_seat": accused_seat,
              "reason": "illegal_move", "text": f"report by {reporter}"},
        timeout=10,
    )
    assert r.status_code == 201, r.text
    return r.json()


def sign_in(page: Page, next_path: str = "/ops") -> None:
    page.goto(next_path)
    expect(page).to_have_url(re.compile(r"/ops/sign-in\?next="))
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out alice")).to_be_visible()


def test_no_console_without_sign_in(page: Page) -> None:
    page.goto("/ops")
    expect(page).to_have_url(re.compile(r"/ops/sign-in\?next=%2Fops$"))
    expect(page.get_by_role("heading", name="Operator sign-in")).to_be_visible()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("Wrong username or password")


def test_take_a_case_through_every_state(page: Page, live: Live) -> None:
    filed = file_report(live, "ex-chou-hu", "p0", 1)
    case_id = filed["case"]["id"]  # type: ignore[index]
    sign_in(page)
    page.get_by_label("State").select_option("open")
    page.get_by_role("button", name="Apply").click()
    page.get_by_role("link", name=f"#{case_id}", exact=True).click()
    expect(page.locator("[data-case-state]")).to_have_text("open")
    # the replay sits beside the case: step to the finding and pin it
    go = page.locator(".finding").first.get_by_role("link", name="Go to")
    step = go.get_attribute("data-step") or ""
    go.click()
    expect(page.locator("section.table")).to_have_attribute("data-step", step)
    expect(page).to_have_url(re.compile(rf"/ops/cases/{case_id}\?step={step}$"))
    expect(page.get_by_label("Step to pin")).to_have_value(step)
    page.get_by_label("Comment").fill("the refused win, then the win")
    page.get_by_role("button", name="Pin this step").click()
    expect(page.locator(".evidence")).to_contain_text("the refused win, then the win")

    moves = [("under review", "taking this one"), ("upheld", "the 臭胡 rule was broken"),
             ("closed", "penalty applied")]
    for label, note in moves:
        page.get_by_label(label, exact=True).check()
        page.get_by_label("Note (required)").fill(note)
        page.get_by_role("button", name="Apply").click()
        expect(page.locator("[data-case-state]")).to_have_text(label)
    expect(page.locator("[data-resolution]")).to_have_text("upheld")
    expect(page.locator("[data-assignee]")).to_have_text("alice")
    expect(page.get_by_text("This case is closed")).to_be_visible()
    trail = page.locator("[data-trail] > li")
    expect(trail).to_have_count(6)
    expect(trail.nth(0)).to_contain_text("opened the case")
    expect(trail.nth(1)).to_contain_text("report from p0")
    expect(trail.nth(2)).to_contain_text("pinned")
    for i, (_, note) in enumerate(moves, start=3):
        expect(trail.nth(i)).to_contain_text("operator:alice")
        expect(trail.nth(i)).to_contain_text(note)
    # the trail has no control to change it
    controls = page.locator("[data-trail] form, [data-trail] button, [data-trail] input")
    expect(controls).to_have_count(0)


def test_a_report_filed_through_the_api_merges(page: Page, live: Live) -> None:
    first = file_report(live, "ex-ba-kuai", "p0", 1)
    second = file_report(live, "ex-ba-kuai", "p2", 1)
    assert first["merged"] is False and second["merged"] is True
    case_id = second["case"]["id"]  # type: ignore[index]
    assert case_id == first["case"]["id"]  # type: ignore[index]
    sign_in(page, f"/ops/cases/{case_id}")
    expect(page.locator("[data-report-count]")).to_have_text("2")
    expect(page.locator("[data-reporters]")).to_have_text("p0, p2")
    third = file_report(live, "ex-ba-kuai", "p1", 0)
    assert third["merged"] is True
    page.reload()
    expect(page.locator("[data-report-count]")).to_have_text("3")
    expect(page.locator("[data-reporters]")).to_have_text("p0, p1, p2")
    page.goto("/ops?sort=reports")
    expect(page.locator(f'tr[data-case="{case_id}"] [data-reports]')).to_have_text("3")
