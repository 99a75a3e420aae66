"""Every public page: status codes, the table at a step against the rules core, the
seat perspective, escaping of producer data, page weight and headers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

import replay

from .conftest import NASTY_GAME, NASTY_PLAYER, example_bytes, sign_in
from .html import read_table

ROOT = Path(__file__).resolve().parents[2]


def steps_of(name: str) -> list[dict[str, Any]]:
    return replay.table_steps(replay.parse_log(example_bytes(name))).steps


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/", 200),
        ("/g/ex-guo-zhang", 200),
        ("/g/ex-guo-zhang?step=2", 200),
        ("/g/ex-guo-zhang?step=-1&as=2", 200),
        ("/g/ex-guo-zhang?step=banana", 200),
        ("/g/ex-guo-zhang?as=7", 400),
        ("/g/no-such-hand", 404),
        ("/replay-table/ex-guo-zhang?step=1", 200),
        ("/replay-table/no-such-hand?step=1", 404),
        ("/p/p0", 200),
        ("/p/p0?page=2", 200),
        ("/p/nobody", 404),
        ("/?q=ex-chou-hu", 303),
        ("/?q=p1", 303),
        ("/?q=nothing-like-this", 404),
        ("/ops/sign-in", 200),
        ("/ops", 303),
        ("/ops/cases/1", 303),
        ("/static/app.css", 200),
        ("/static/replay.js", 200),
    ],
)
def test_status_codes(client: TestClient, path: str, status: int) -> None:
    r = client.get(path)
    assert r.status_code == status, r.text[:500]
    if status in (200, 400, 404) and not path.startswith("/static"):
        assert r.headers["content-type"].startswith("text/html")


def test_search_redirects(client: TestClient) -> None:
    assert client.get("/?q=ex-chou-hu").headers["location"] == "/g/ex-chou-hu"
    assert client.get("/?q=p1").headers["location"] == "/p/p1"


@pytest.mark.parametrize(
    "name",
    ["clean_standard_chong_pao.json", "violations_guo_zhang.json",
     "clean_hengshan_fang_pao.json", "invalid_draw_mismatch.json",
     "violations_discard_not_owed.json"],
)
def test_table_at_every_step_matches_the_rules_core(client: TestClient, name: str) -> None:
    log = replay.parse_log(example_bytes(name))
    for step in steps_of(name):
        r = client.get(f"/g/{log.game_id}?step={step['seq']}")
        assert r.status_code == 200
        table = read_table(r.text)
        assert table.step == step["seq"]
        assert table.stock == str(step["stock_left"])
        for seat in step["seats"]:
            shown = table.seats[seat["seat"]]
            assert shown["hand"] == seat["hand"]
            assert shown["row"] == seat["row"]
            assert [m["cards"] for m in shown["melds"]] == [m["cards"] for m in seat["melds"]]
            assert [m["kind"] for m in shown["melds"]] == [m["kind"] for m in seat["melds"]]
            assert shown["huxi"] == seat["table_huxi"]
        if step["revealed"]:
            assert table.revealed == step["revealed"]["card"]


def test_steps_clamp_and_the_address_names_the_step(client: TestClient) -> None:
    last = steps_of("violations_guo_zhang.json")[-1]["seq"]
    assert read_table(client.get("/g/ex-guo-zhang?step=999").text).step == last
    assert read_table(client.get("/g/ex-guo-zhang?step=end").text).step == last
    assert read_table(client.get("/g/ex-guo-zhang?step=-9").text).step == -1
    # no step asked: the first finding (the 过张 吃 at event 2); a clean hand: the deal
    assert read_table(client.get("/g/ex-guo-zhang").text).step == 2
    assert read_table(client.get("/g/ex-chong-pao").text).step == -1
    page = client.get("/g/ex-guo-zhang?step=1").text
    assert 'href="/g/ex-guo-zhang?step=2"' in page  # next
    assert 'href="/g/ex-guo-zhang?step=0"' in page  # previous
    assert 'value="1"' in page  # the slider


def test_fragment_is_the_same_table(client: TestClient) -> None:
    page = read_table(client.get("/g/ex-chong-pao?step=4").text)
    frag = read_table(client.get("/replay-table/ex-chong-pao?step=4").text)
    assert page.seats == frag.seats and frag.step == 4


def test_as_seat_hides_the_other_hands(client: TestClient) -> None:
    steps = steps_of("clean_standard_chong_pao.json")
    for step in steps:
        for viewer in (0, 1, 2):
            r = client.get(f"/g/ex-chong-pao?step={step['seq']}&as={viewer}")
            table = read_table(r.text)
            for seat in step["seats"]:
                shown = table.seats[seat["seat"]]
                if seat["seat"] == viewer:
                    assert shown["hand"] == seat["hand"]
                else:
                    assert shown["hand"] == ["?"] * len(seat["hand"])
                    for m_shown, m in zip(shown["melds"], seat["melds"], strict=True):
                        up = m["face_up"]
                        assert m_shown["cards"][:up] == m["cards"][:up]
                        assert set(m_shown["cards"][up:]) <= {"?"}
                assert shown["row"] == seat["row"]
            # the other seats' cards never reach the page, not even in the script data
            other = [s for s in step["seats"] if s["seat"] != viewer]
            body = r.text
            for s in other:
                hidden = " ".join(f'data-card="{c}"' for c in s["hand"])
                assert hidden not in body or not s["hand"]


def test_a_wei_is_face_down_to_the_others(client: TestClient) -> None:
    """Seat 2 of a simulated hengshan hand would do; the examples: find any wei."""
    for name in sorted(p.name for p in (ROOT / "examples").glob("*.json")):
        log = replay.parse_log(example_bytes(name))
        for step in steps_of(name):
            for seat in step["seats"]:
                for m in seat["melds"]:
                    if m["kind"] in ("wei", "chou_wei", "ti") and m["face_up"] < 4:
                        viewer = (seat["seat"] + 1) % 3
                        r = client.get(f"/g/{log.game_id}?step={step['seq']}&as={viewer}")
                        melds = read_table(r.text).seats[seat["seat"]]["melds"]
                        mine = [x for x in melds if x["kind"] == m["kind"]][0]
                        assert mine["cards"].count("?") == len(m["cards"]) - m["face_up"]
                        return
    pytest.skip("no example lays a wei or ti")


def test_full_view_is_a_setting(client: TestClient, app: Any) -> None:
    app.state.settings = app.state.settings.model_copy(update={"full_view_public": False})
    r = client.get("/g/ex-guo-zhang?step=1")
    assert r.status_code == 403 and "as seat 0" in r.text
    assert client.get("/replay-table/ex-guo-zhang?step=1").status_code == 403
    assert client.get("/g/ex-guo-zhang?step=1&as=0").status_code == 200
    sign_in(client)
    assert client.get("/g/ex-guo-zhang?step=1").status_code == 200
    assert client.get("/replay-table/ex-guo-zhang?step=1").status_code == 200


def test_audit_beside_the_table(client: TestClient) -> None:
    page = client.get("/g/ex-guo-zhang?step=0").text
    assert "guo_zhang" in page and 'data-step="2"' in page  # finding and its step
    assert "rests on" in page  # refs
    assert "Decision ledger" in page
    wrong = client.get("/g/ex-wrong-score?step=end").text
    assert 'class="mismatch"' in wrong and "badge mismatch" in wrong
    zimo = client.get("/g/ex-standard-zimo?step=end").text
    assert "Arrangement, group by group" in zimo and 'title="kan">坎</abbr>' in zimo


def test_cards_are_faces_with_names_for_screen_readers(client: TestClient) -> None:
    page = client.get("/g/ex-standard-zimo?step=-1").text
    # x2 is red: 二 with the canonical name in visually hidden text
    assert re.search(r'class="card red" data-card="x2" title="x2"><span class="face" '
                     r'aria-hidden="true">二</span><span class="sr">二 \(x2\)</span>', page)
    assert re.search(r'class="card big" data-card="d1" title="d1"><span class="face" '
                     r'aria-hidden="true">壹', page)


def test_chou_kinds_are_marked_on_the_cards(client: TestClient) -> None:
    # after event 0 of ex-guo-zhang seat 0 discarded x3 (臭牌) and seat 1 passed it (过张)
    page = client.get("/g/ex-guo-zhang?step=1").text
    assert 'title="chou_pai: its own discards">臭牌' in page
    assert 'title="guo_zhang: chances it passed">过张' in page
    # seat 0 still holds an x3, barred by its own discard: a visible 臭 mark and a tooltip
    assert re.search(r'chou" data-card="x3" title="x3 · 臭 \(臭牌\): this seat may not 吃/碰 三">'
                     r'<span class="face" aria-hidden="true">三</span><span class="chou-mark" '
                     r'aria-hidden="true">臭</span>', page)
    # seat 0's view hides seat 1's 过张 (it rests on seat 1's hand)
    as0 = client.get("/g/ex-guo-zhang?step=1&as=0").text
    assert "chances it passed" not in as0


def test_producer_data_is_escaped_everywhere(client: TestClient, make_key: Any) -> None:
    gid = quote(NASTY_GAME, safe="")
    headers = make_key("ingest")
    r = client.post("/api/v1/reports", headers=headers, json={
        "game_id": NASTY_GAME, "reporter": "p1", "accused_player": NASTY_PLAYER,
        "reason": "collusion", "text": "<img src=x onerror=alert(1)>"})
    assert r.status_code == 201, r.text
    case_id = r.json()["case"]["id"]
    console = sign_in(client)
    pages = [
        f"/g/{gid}", f"/g/{gid}?step=2", f"/g/{gid}?as=0", f"/replay-table/{gid}?step=1",
        f"/p/{quote(NASTY_PLAYER, safe='')}", "/", "/ops", f"/ops/cases/{case_id}",
        f"/?q={quote('<i>x</i>')}",
    ]
    for path in pages:
        body = console.client.get(path).text
        assert "<script>alert" not in body, path
        assert "<b>\"bold\"</b>" not in body, path
        assert "<img src=x" not in body, path
        assert "<i>x</i>" not in body, path
    assert "&lt;script&gt;alert(&#34;p&#34;)&lt;/script&gt;" in client.get(f"/g/{gid}").text
    assert "&lt;img src=x onerror=alert(1)&gt;" in client.get(f"/ops/cases/{case_id}").text


def test_page_weight_and_no_other_host(client: TestClient) -> None:
    for path in ("/g/ex-chong-pao?step=3", "/g/ex-guo-zhang?step=end"):
        body = client.get(path).text
        data = re.search(r'<script type="application/json" id="replay-index">.*?</script>',
                         body, re.S)
        assert data
        page = len(body.encode()) - len(data.group(0).encode())
        css = len(client.get("/static/app.css").content)
        js = len(client.get("/static/replay.js").content)
        assert page + css + js < 100_000, (page, css, js)
    for folder in ("templates", "static"):
        for f in (ROOT / "app" / folder).rglob("*"):
            if f.is_file():
                assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", f.read_text()), f


def test_security_headers(client: TestClient) -> None:
    r = client.get("/g/ex-guo-zhang")
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"


def test_player_page_lists_hands_and_findings(client: TestClient) -> None:
    page = client.get("/p/p1").text
    assert "ex-guo-zhang" in page and "guo_zhang" in page
    assert "/g/ex-guo-zhang?step=2" in page


def test_every_control_has_a_label(client: TestClient) -> None:
    console = sign_in(client)
    for path in ("/", "/g/ex-guo-zhang?step=1", "/ops", "/ops/sign-in"):
        body = console.client.get(path).text
        for m in re.finditer(r"<(input|select|textarea)\b([^>]*)>", body):
            attrs = m.group(2)
            if 'type="hidden"' in attrs:
                continue
            ident = re.search(r'id="([^"]+)"', attrs)
            assert ident and f'for="{ident.group(1)}"' in body, (path, m.group(0))
