"""The replay page in Chromium: keys, deep links, the back button, findings, seats."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

import replay

from .conftest import EXAMPLES

pytestmark = pytest.mark.browser


def steps_of(name: str) -> list[dict[str, Any]]:
    return replay.table_steps(replay.parse_log((EXAMPLES / name).read_bytes())).steps


def at_step(page: Page, n: int) -> None:
    """Wait until the table shows step ``n`` and the address says it."""
    expect(page.locator("section.table")).to_have_attribute("data-step", str(n))
    expect(page).to_have_url(f"{page.url.split('?')[0]}?{_query(page, n)}")


def _query(page: Page, n: int) -> str:
    from urllib.parse import parse_qsl, urlencode, urlsplit

    q = dict(parse_qsl(urlsplit(page.url).query))
    q["step"] = str(n)
    return urlencode(q)


def cards(page: Page, seat: int, zone: str) -> list[str]:
    loc = page.locator(f'section.seat[data-seat="{seat}"] [data-zone="{zone}"] [data-card]')
    return [c or "" for c in loc.evaluate_all("els => els.map(e => e.dataset.card)")]


def check_table(page: Page, step: dict[str, Any], viewer: int | None = None) -> None:
    expect(page.locator("[data-stock]")).to_have_text(str(step["stock_left"]))
    for seat in step["seats"]:
        s = seat["seat"]
        hand = seat["hand"] if viewer in (None, s) else ["?"] * len(seat["hand"])
        assert cards(page, s, "hand") == hand
        assert cards(page, s, "row") == seat["row"]
        melds = [c for m in seat["melds"] for c in m["cards"]]
        shown = cards(page, s, "melds")
        if viewer in (None, s):
            assert shown == melds
        else:
            assert len(shown) == len(melds)
        expect(page.locator(f'section.seat[data-seat="{s}"] [data-huxi]')).to_have_text(
            str(seat["table_huxi"]))


def test_step_through_a_hand_with_the_keys(page: Page) -> None:
    steps = {s["seq"]: s for s in steps_of("clean_standard_chong_pao.json")}
    last = max(steps)
    page.goto("/g/ex-chong-pao")
    at_step(page, -1)  # no step given: the deal, and the address says so
    check_table(page, steps[-1])
    for key, n in [("ArrowRight", 0), ("ArrowRight", 1), ("j", 2), ("j", 3), ("k", 2),
                   ("ArrowLeft", 1), ("End", last), ("ArrowRight", last), ("Home", -1)]:
        page.keyboard.press(key)
        at_step(page, n)
        check_table(page, steps[n])
    expect(page.locator("#step-slider")).to_have_value("-1")
    # the buttons and the slider do the same
    page.get_by_role("link", name="Next step").click()
    at_step(page, 0)
    page.locator("#step-slider").fill("4")
    at_step(page, 4)
    check_table(page, steps[4])


def test_deep_link_and_the_back_button(page: Page) -> None:
    steps = {s["seq"]: s for s in steps_of("clean_standard_chong_pao.json")}
    page.goto("/g/ex-chong-pao?step=3")
    at_step(page, 3)
    check_table(page, steps[3])
    page.keyboard.press("ArrowRight")
    at_step(page, 4)
    page.keyboard.press("ArrowRight")
    at_step(page, 5)
    page.go_back()
    at_step(page, 4)
    check_table(page, steps[4])
    page.go_back()
    at_step(page, 3)
    page.go_forward()
    at_step(page, 4)
    page.reload()
    at_step(page, 4)


def test_jump_from_a_finding_to_its_step(page: Page) -> None:
    steps = {s["seq"]: s for s in steps_of("violations_guo_zhang.json")}
    page.goto("/g/ex-guo-zhang?step=-1")
    finding = page.locator('.finding[data-code="guo_zhang"]')
    finding.get_by_role("link", name="Go to step 2").click()
    at_step(page, 2)
    check_table(page, steps[2])
    expect(page.locator(".step-findings")).to_contain_text("过张 seat 1 may not 吃 三")
    expect(page.locator("#step-heading")).to_be_focused()
    finding.get_by_role("link", name="step 0", exact=True).click()  # refs: the passed discard
    at_step(page, 0)
    page.keyboard.press("Home")
    at_step(page, -1)
    page.keyboard.press("n")  # next finding
    at_step(page, 2)
    page.keyboard.press("p")  # no earlier finding: stays
    at_step(page, 2)


def test_as_a_seat_hides_the_other_hands(page: Page) -> None:
    steps = {s["seq"]: s for s in steps_of("clean_standard_chong_pao.json")}
    page.goto("/g/ex-chong-pao?step=1&as=1")
    at_step(page, 1)
    check_table(page, steps[1], viewer=1)
    page.keyboard.press("ArrowRight")
    at_step(page, 2)
    assert "as=1" in page.url
    check_table(page, steps[2], viewer=1)
    page.get_by_role("link", name="every card").click()
    at_step(page, 2)
    check_table(page, steps[2])


def test_360_px_and_visible_focus(page: Page) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/g/ex-chong-pao?step=4")
    at_step(page, 4)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.keyboard.press("ArrowRight")
    at_step(page, 5)
    assert errors == []
