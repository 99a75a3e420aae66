"""changde in whole hands: every 名堂 from the replayed hand (examples/changde_examples.py),
history facts never taken from the log's claims, 黄番 from ``match.drawn_before``."""

from __future__ import annotations

from typing import Any

import pytest

from replay.mingtang import MINGTANG
from replay.verdict import Status
from tests.rules.builder import HandBuilder, codes
from tests.rules.changde_examples import changde_examples


def ex(name: str) -> HandBuilder:
    """A fresh copy of one example (tests change them)."""
    return changde_examples()[name]


# name -> (huxi, 囤, {名堂: fans}, multiplier, points)
EXPECTED: dict[str, tuple[int, int, dict[str, int], int, int]] = {
    "clean_changde_ting_hu.json": (21, 4, {"ting_hu": 6}, 6, 24),
    "clean_changde_huang_fan_cap.json": (21, 4, {"ting_hu": 6}, 6, 50),
    "clean_changde_hong_hu.json": (18, 3, {"hong_hu": 3, "ting_hu": 6}, 9, 27),
    "clean_changde_dian_hu.json": (21, 4, {"dian_hu": 6, "ting_hu": 6}, 12, 48),
    "clean_changde_si_qi_hong.json": (24, 5, {"si_qi_hong": 2, "ting_hu": 6}, 8, 40),
    "clean_changde_da_hu.json": (33, 8, {"da_hu": 8, "ting_hu": 6}, 14, 112),
    "clean_changde_xiao_hu.json": (21, 4, {"xiao_hu": 12, "ting_hu": 6}, 18, 72),
    "clean_changde_hang_hang_xi.json": (33, 8, {"hang_hang_xi": 8, "ting_hu": 6}, 14, 112),
    "clean_changde_tian_hu.json": (21, 4, {"tian_hu": 6, "ting_hu": 6}, 12, 48),
    "clean_changde_di_hu.json": (21, 4, {"di_hu": 6, "ting_hu": 6}, 12, 48),
    "clean_changde_da_tuan_yuan.json": (24, 4, {"da_tuan_yuan": 8, "ting_hu": 6}, 14, 56),
    "clean_changde_shua_hou.json": (
        28, 5, {"wu_hu": 8, "dui_dui_hu": 8, "shua_hou": 8, "jia_hang_hang": 4}, 28, 140),
    "clean_changde_hai_di.json": (21, 4, {"hai_di": 6, "ting_hu": 6}, 12, 48),
    # mandatory 天胡 by seat 1: 3 提 (33 huxi, 7 囤 + 自摸); fans from the cards alone
    "clean_changde_mandatory_di_hu.json": (
        33, 8, {"wu_hu": 8, "di_hu": 6, "ting_hu": 6, "da_tuan_yuan": 8}, 28, 224),
    "clean_changde_check_1.json": (21, 4, {"hong_hu": 3}, 3, 12),
}


def expected(b: HandBuilder) -> dict[str, Any]:
    v = b.verify()
    assert v.status is Status.CLEAN, codes(v)
    assert v.score is not None and v.score["expected"] is not None
    exp: dict[str, Any] = v.score["expected"]
    return exp


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_scores(name: str) -> None:
    huxi, tun, fans, mult, points = EXPECTED[name]
    exp = expected(ex(name))
    assert (exp["huxi"], exp["grade"], exp["fan_values"], exp["multiplier"], exp["points"]) == (
        huxi, tun, fans, mult, points)
    assert sorted(exp["fans"]) == sorted(fans)
    assert exp["scores"][1 if name != "clean_changde_tian_hu.json" else 0] > 0
    assert sum(exp["scores"]) == 0


def test_every_mingtang_has_an_example() -> None:
    seen: set[str] = set()
    for name in EXPECTED:
        seen |= set(EXPECTED[name][2])
    assert seen == {m.name for m in MINGTANG}


def test_huang_fan_multiplies_then_cap_limits() -> None:
    exp = expected(ex("clean_changde_huang_fan_cap.json"))
    assert exp["drawn_before"] == 2
    assert exp["scores"] == [-100, 200, -100]  # 50 points × stake 2
    b = ex("clean_changde_huang_fan_cap.json")
    b.doc.pop("result")
    b.doc["rules"] = {"stake": 2}  # no cap: 24 × (1 + 2)
    assert expected(b)["points"] == 72
    b.doc["match"]["drawn_before"] = 0
    assert expected(b)["points"] == 24


def test_drawn_before_is_not_read_by_other_profiles() -> None:
    b = ex("clean_changde_ting_hu.json")
    b.doc["ruleset"] = "standard"
    b.doc.pop("result")
    b.doc["match"] = {"id": "t", "hand": 2, "drawn_before": 3}
    exp = expected(b)
    assert exp["points"] == 4 and "drawn_before" not in exp and "fan_values" not in exp


def test_a_claimed_history_fan_is_not_believed() -> None:
    # The log claims 耍猴 and 海胡: the replayed hand shows neither.
    b = ex("clean_changde_ting_hu.json")
    b.result(outcome="hu", winner=1, huxi=21, grade=4, fans=["ting_hu", "shua_hou", "hai_di"],
             multiplier=20, points=80, scores=[-80, 160, -80])
    v = b.verify()
    assert codes(v) == [(None, "score_mismatch")]
    assert v.score is not None and v.score["mismatches"] == ["fans", "multiplier", "points",
                                                             "scores"]


def test_peng_chi_pao_end_ting_hu_but_ti_does_not() -> None:
    # 大团圆 example: a dealt 提 before the win keeps 听胡 (§11 names 吃, 碰, 跑 only).
    assert "ting_hu" in expected(ex("clean_changde_da_tuan_yuan.json"))["fans"]
    # 耍猴 example: four 碰 -> no 听胡; §11 check 1: a 吃 -> no 听胡.
    assert "ting_hu" not in expected(ex("clean_changde_shua_hou.json"))["fans"]
    assert "ting_hu" not in expected(ex("clean_changde_check_1.json"))["fans"]


def test_a_pao_before_the_win_ends_ting_hu() -> None:
    # Seat 1 跑s the dealer's x5 onto its 坎, discards, then wins on its own draw.
    win = "x5*3 d1*3 d2*3 x7 x8 x9 d4 d5 d6 x1 x2 d9 d9 x10"
    b = HandBuilder(["x5", win, "d8"], stock="d8 d7 x3", shown="x5", ruleset="changde")
    b.discard(0, "x5").pao(1, "x5").discard(1, "x10").draw(2).draw(0).draw(1).hu(1, "x3")
    exp = expected(b)
    assert "ting_hu" not in exp["fans"]
    assert exp["huxi"] == 6 + 6 + 6 + 3  # 跑 x5, 坎 d1, 坎 d2, 一二三


def test_changde_verdict_is_deterministic() -> None:
    b = ex("clean_changde_shua_hou.json")
    assert b.verify().to_bytes() == b.verify().to_bytes()


def test_po_pao_hu_written_as_pao_then_hu_keeps_ting_hu() -> None:
    # Seat 1 holds a 坎 of x5 and x4 x6: it wins on seat 2's drawn x5 only with the card in
    # x4 x5 x6 (破跑胡). Written as `hu`, or as the forced `pao` then `hu` (judged on the
    # holdings before the 跑), it is the same win with the same 名堂.
    hand = "x5*3 x4 x6 d1*3 d2*3 x1 x2 x3 d4 d5 d6 x7 x8 x9"
    direct = HandBuilder(["d10", hand, "x10"], stock="x10 x5", shown="d10", ruleset="changde")
    direct.discard(0, "d10").draw(1).draw(2).hu(1, "x5")
    via_pao = HandBuilder(["d10", hand, "x10"], stock="x10 x5", shown="d10",
                          ruleset="changde")
    via_pao.discard(0, "d10").draw(1).draw(2).pao(1, "x5").hu(1, "x5")
    one, two = expected(direct), expected(via_pao)
    assert one["fans"] == two["fans"] == ["ting_hu"]
    assert (one["huxi"], one["points"]) == (two["huxi"], two["points"]) == (18, 12)
