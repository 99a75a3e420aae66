"""The replay page in Chromium: the event list, finding marks, keys after a slider click,
the first-finding landing, the copy-link button and the phone layout."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import SHOTS
from .test_replay import at_step, check_table, steps_of

pytestmark = pytest.mark.browser


def test_a_hand_opens_at_its_first_finding(page: Page) -> None:
    page.goto("/g/ex-guo-zhang")
    at_step(page, 2)  # the 过张 吃, and the address says so
    expect(page.locator(".step-findings")).to_contain_text("过张")
    page.goto("/g/ex-chong-pao")  # a clean hand: the deal
    at_step(page, -1)


def test_the_event_list_moves_the_table(page: Page) -> None:
    steps = {s["seq"]: s for s in steps_of("violations_guo_zhang.json")}
    page.goto("/g/ex-guo-zhang?step=-1")
    rows = page.locator("[data-events] a")
    expect(rows).to_have_count(len(steps))
    expect(rows.nth(0)).to_contain_text("发牌")
    row = page.locator('[data-events] a[data-step="1"]')
    row.click()
    at_step(page, 1)
    check_table(page, steps[1])
    expect(row).to_have_attribute("aria-current", "step")
    flagged = page.locator("[data-events] li.has-finding")
    expect(flagged).to_have_count(1)
    expect(flagged.locator("a")).to_have_attribute("data-step", "2")
    page.go_back()
    at_step(page, -1)


def test_finding_marks_on_the_timeline(page: Page) -> None:
    page.goto("/g/ex-chou-hu?step=-1")
    marks = page.locator("[data-marks] .mark")
    wanted = sorted({int(n) for n in page.locator("[data-replay]").get_attribute(
        "data-findings").strip("[]").split(",") if n.strip()})  # type: ignore[union-attr]
    assert wanted, "ex-chou-hu has findings"
    expect(marks).to_have_count(len(wanted))
    track = page.locator("#step-slider").bounding_box()
    assert track is not None
    first, last = steps_of("violations_chou_hu.json")[0]["seq"], steps_of(
        "violations_chou_hu.json")[-1]["seq"]
    for i, n in enumerate(wanted):
        box = marks.nth(i).bounding_box()
        assert box is not None
        share = (box["x"] + box["width"] / 2 - track["x"]) / track["width"]
        assert abs(share - (n - first) / (last - first)) < 0.08, (n, share)
    marks.nth(len(wanted) - 1).click()
    at_step(page, wanted[-1])


def test_keys_after_a_slider_click(page: Page) -> None:
    page.goto("/g/ex-guo-zhang?step=0")
    at_step(page, 0)
    slider = page.locator("#step-slider")
    box = slider.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)  # the slider's left end
    at_step(page, -1)
    expect(slider).to_be_focused()
    page.keyboard.press("j")
    at_step(page, 0)
    page.keyboard.press("ArrowRight")  # one step, not two (the slider's own step is held)
    at_step(page, 1)
    page.keyboard.press("k")
    at_step(page, 0)
    page.keyboard.press("n")
    at_step(page, 2)
    page.keyboard.press("n")  # no finding after the last one: stays, and says so
    at_step(page, 2)
    expect(page.locator("#key-hint")).to_contain_text("last")
    page.keyboard.press("p")
    at_step(page, 2)
    expect(page.locator("#key-hint")).to_contain_text("first")
    # a link focused: the keys still step
    page.locator('[data-events] a[data-step="0"]').focus()
    page.keyboard.press("j")
    at_step(page, 3)


def test_copy_link_at_the_current_step(page: Page) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/g/ex-guo-zhang?step=1")
    at_step(page, 1)
    page.keyboard.press("j")
    at_step(page, 2)
    button = page.get_by_role("button", name="Copy link")
    button.click()
    expect(button).to_have_attribute("data-copied", page.url)
    assert page.url.endswith("/g/ex-guo-zhang?step=2")
    expect(page.locator("#key-hint")).to_contain_text("step 2 copied")
    assert page.evaluate("navigator.clipboard.readText()") == page.url


def test_the_phone_layout_shows_board_step_and_finding_first(page: Page) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/g/ex-guo-zhang")
    at_step(page, 2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone-first-screen.png"))  # what a phone shows first
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    height = 740
    for what in ("#step-heading", ".step-findings", "#step-slider",
                 'section.seat[data-seat="0"]', 'section.seat[data-seat="1"]',
                 'section.seat[data-seat="2"] [data-zone="hand"]'):
        box = page.locator(what).bounding_box()
        assert box is not None, what
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (what, box)
    mark = page.locator('section.seat [data-card].chou .chou-mark').first
    if mark.count():
        mbox = mark.bounding_box()
        assert mbox is not None and mbox["height"] >= 8  # a mark one can see
