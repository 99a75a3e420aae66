"""The replay page of changde hands: each 名堂 with its Chinese name and value beside the
expected and claimed score, the arrangement from the typed score."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient


def _fans_table(html: str) -> str:
    m = re.search(r'<table class="fan-table">.*?</table>', html, re.S)
    assert m is not None, "no fan table on the page"
    return m.group(0)


def _row(table: str, fan: str) -> list[str]:
    m = re.search(rf'<tr[^>]*data-fan="{fan}".*?</tr>', table, re.S)
    assert m is not None, fan
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>",
                                                                    m.group(0), re.S)]


def test_every_mingtang_with_chinese_name_and_value(client: TestClient) -> None:
    html = client.get("/g/ex-changde-shua-hou").text
    table = _fans_table(html)
    assert _row(table, "shua_hou") == ["耍猴 shua_hou", "8", "yes", "not given"]
    assert _row(table, "wu_hu") == ["乌胡 (黑胡) wu_hu", "8", "yes", "not given"]
    assert _row(table, "dui_dui_hu")[1] == "8"
    assert _row(table, "jia_hang_hang")[:2] == ["假行行 jia_hang_hang", "4"]
    assert "grade 5 × multiplier 28 × (1 + 黄番 0) = 140 points" in html


def test_claimed_fans_beside_expected(client: TestClient) -> None:
    table = _fans_table(client.get("/g/ex-changde-standard-score").text)
    # expected 听胡 6; the producer claimed no fan
    assert _row(table, "ting_hu") == ["听胡 ting_hu", "6", "yes", "no"]


def test_cap_is_shown(client: TestClient) -> None:
    html = client.get("/g/ex-changde-huang-fan-cap").text
    assert "× (1 + 黄番 2) = 72, capped at 50 points" in html


def _arrangement(html: str) -> list[str]:
    m = re.search(r'<ol class="arrangement">(.*?)</ol>', html, re.S)
    assert m is not None
    return re.findall(r"<li>(.*?)</li>", m.group(1), re.S)


def test_arrangement_from_typed_groups(client: TestClient) -> None:
    items = _arrangement(client.get("/g/ex-changde-hang-hang-xi").text)
    assert len(items) == 7
    assert all("胡息" in i for i in items)


def test_standard_page_shows_fans_without_values(client: TestClient) -> None:
    html = client.get("/g/ex-standard-zimo").text
    assert "No fan (平胡): multiplier 1." in html
    assert "grade 4 × multiplier 1 = 4 points" in html


def test_mandatory_tian_hu_groups_and_rest(client: TestClient) -> None:
    html = client.get("/g/ex-changde-mandatory-di-hu").text
    items = _arrangement(html)
    assert len(items) == 4
    assert items[0].startswith('<abbr class="cn" title="ti">提</abbr>') and "12 胡息" in items[1]
    assert items[3].startswith('<abbr class="cn" title="rest">散牌</abbr>') and "0 胡息" in items[3]
    assert "地胡" in _fans_table(html) and "大团圆" in _fans_table(html)
