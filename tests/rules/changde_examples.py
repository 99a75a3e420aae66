"""Hand-built changde hands (RULES §11), at least one per 名堂; ``examples/build_examples.py``
writes them with their golden verdicts. Each winner is seat 1 unless said otherwise."""

from __future__ import annotations

from typing import Any

from tests.rules.builder import HandBuilder

CD = "changde"


def _zi_mo(name: str, hand: str, card: str, *, dealer_hand: str = "d10",
           shown: str = "d10", **kw: Any) -> HandBuilder:
    """Seat 1 holds ``hand`` (20 cards) and wins on its first draw, ``card``."""
    b = HandBuilder([dealer_hand, hand, card], stock=card, shown=shown, ruleset=CD,
                    game_id=f"ex-changde-{name}", **kw)
    b.discard(0, shown).draw(1).hu(1, card)
    return b


def changde_examples() -> dict[str, HandBuilder]:
    out: dict[str, HandBuilder] = {}

    # 听胡 + 自摸: three big 坎 (18) + 一二三 (3) = 21 huxi, 5 red. 囤 3 + 1; fans 6.
    win = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x1 x2"
    b = _zi_mo("ting-hu", win, "x3")
    b.result(outcome="hu", winner=1, huxi=21, grade=4, fans=["ting_hu"], multiplier=6,
             points=24, scores=[-24, 48, -24])
    out["clean_changde_ting_hu.json"] = b

    # 黄番 with a cap: the same hand after two drawn hands: 24 × 3 = 72, capped at 50.
    b = _zi_mo("huang-fan-cap", win, "x3", rules={"cap": 50, "stake": 2})
    b.doc["match"] = {"id": "ex-changde-table", "hand": 3, "drawn_before": 2}
    b.result(outcome="hu", winner=1, huxi=21, grade=4, fans=["ting_hu"], multiplier=6,
             points=50, scores=[-100, 200, -100])
    out["clean_changde_huang_fan_cap.json"] = b

    # 红胡: 坎 d2, 坎 x7, 坎 d10 + 一二三: R = 10 -> 3; 18 huxi.
    b = _zi_mo("hong-hu", "d2*3 x7*3 d10*3 x1 x2 x4 x5 x6 d4 d5 d6 x9 x9 d9", "x3",
               dealer_hand="d8", shown="d8")
    out["clean_changde_hong_hu.json"] = b

    # 点胡: one red card (x2).
    b = _zi_mo("dian-hu", "d1*3 d3*3 d4*3 x1 x2 x4 x5 x6 x8 x8 d8 d5 d5 x5", "x3")
    out["clean_changde_dian_hu.json"] = b

    # 四七红: four red cards.
    b = _zi_mo("si-qi-hong", "d1*3 d3*3 d4*3 x1 x2 x2 x7 x10 x4 x5 x6 d5 d5 x5", "x3")
    out["clean_changde_si_qi_hong.json"] = b

    # 大胡 (十八大): 18 big cards.
    b = _zi_mo("da-hu", "d4*3 d5*3 d6*3 d1 d2 d3 d7 d8 d9 d2 d7 d10 x1 x2", "x3",
               dealer_hand="x10", shown="x10")
    out["clean_changde_da_hu.json"] = b

    # 小胡 (十八小): 18 small cards.
    b = _zi_mo("xiao-hu", "x4*3 x5*3 x6*3 x1 x2 x3 x7 x8 x9 x2 x7 x10 d1 d2", "d3",
               dealer_hand="d10", shown="d10")
    out["clean_changde_xiao_hu.json"] = b

    # 行行息: seven groups, all with huxi, no pair.
    b = _zi_mo("hang-hang-xi", "d4*3 d5*3 x4*3 x1 x2 x3 d1 d2 d3 x2 x7 x10 d2 d7", "d10",
               dealer_hand="x9", shown="x9")
    out["clean_changde_hang_hang_xi.json"] = b

    # 天胡: the dealer's 21 cards with the shown card are a win.
    b = HandBuilder([win + " x3", "", ""], shown="x3", ruleset=CD, game_id="ex-changde-tian-hu")
    b.hu(0, "x3")
    out["clean_changde_tian_hu.json"] = b

    # 地胡: seat 1's 20 cards and the dealer's shown card are a win.
    b = HandBuilder(["x3", win, ""], shown="x3", ruleset=CD, game_id="ex-changde-di-hu")
    b.hu(1, "x3")
    out["clean_changde_di_hu.json"] = b

    # Mandatory 天胡 of a seat that does not deal (地胡): three fours; fans from the cards.
    b = HandBuilder(["", "x1*4 d1*4 d5*4 x3 x4 x6 x8 x9 d3 d4 d6", ""], ruleset=CD,
                    game_id="ex-changde-mandatory-di-hu")
    b.hu(1, None)
    out["clean_changde_mandatory_di_hu.json"] = b

    # 大团圆: a dealt 提 of d5, a 坎 of x5 and the fourth x5 drawn by seat 2.
    b = HandBuilder(["d10", "d5*4 x5*3 x4 x6 d1 d2 d3 x1 x2 x3 x7 x8 x9 d9 d9", "x10"],
                    stock="x10 x5", shown="d10", ruleset=CD, game_id="ex-changde-da-tuan-yuan")
    b.ti(1, "d5").discard(0, "d10").draw(1).draw(2).hu(1, "x5")
    out["clean_changde_da_tuan_yuan.json"] = b

    # 耍猴 (+ 对子胡, 乌胡, 假行行): two dealt 提, four 碰, one card left, won on its pair.
    b = HandBuilder(["x3", "d9*4 d8*4 x3*2 x4*2 x5*2 x6*2 x9 d1 d3 x1", ""],
                    stock="x4 x5 x6 x1", shown="x3", ruleset=CD, game_id="ex-changde-shua-hou")
    b.ti(1, "d9").ti(1, "d8").discard(0, "x3").peng(1, "x3")
    b.draw(2).peng(1, "x4").discard(1, "x9")
    b.draw(2).peng(1, "x5").discard(1, "d1")
    b.draw(2).peng(1, "x6").discard(1, "d3")
    b.draw(2).hu(1, "x1")
    out["clean_changde_shua_hou.json"] = b

    # 海胡: every stock card drawn in turn, nobody claims; seat 1 wins on the last one.
    b = HandBuilder(
        ["x2 x3 d5 d10 d3 d7 x6 d1 x4 x10 d9 d9 d8 x5 x8 d8 d10 x4 d2 d6 x3", win,
         "x1 d8 d4 x7 x7 x10 d6 x8 x8 d8 x3 x9 d6 d5 x5 x10 d5 d4 d9 d10"],
        stock="x1 d9 d4 x4 d7 x7 d7 x2 x6 d7 x9 x1 x2 d10 x5 x9 x6 x10 x3", shown="x2",
        ruleset=CD, fill=False, game_id="ex-changde-hai-di")
    b.discard(0, "x2")
    for i in range(18):
        b.draw((1 + i) % 3)
    b.draw(1).hu(1, "x3")
    out["clean_changde_hai_di.json"] = b

    # RULES §11 check 1 in a whole hand: a 吃 (no 听胡), 21 huxi, 10 red, 自摸:
    # 囤 4 × 红胡 3 = 12 points, each loser pays 12 × stake.
    b = HandBuilder(["x6", "x7 x8 d7*3 d1 d2 d3 x1 x2 x2 x7 x10 x9*3 d8 d9 d10 d5", ""],
                    stock="x5 d6 x3", shown="x6", ruleset=CD, rules={"stake": 10},
                    game_id="ex-changde-check-1")
    b.discard(0, "x6").chi(1, "x6", "x6 x7 x8").discard(1, "d5")
    b.draw(2).draw(0).draw(1).hu(1, "x3")
    b.result(outcome="hu", winner=1, huxi=21, grade=4, fans=["hong_hu"], multiplier=3,
             points=12, scores=[-120, 240, -120])
    out["clean_changde_check_1.json"] = b

    # A producer that scores a changde win by the standard table: every score field differs.
    b = _zi_mo("standard-score", win, "x3")
    b.result(outcome="hu", winner=1, huxi=21, grade=4, fans=[], multiplier=1, points=4,
             scores=[-4, 8, -4])
    out["violations_changde_score_mismatch.json"] = b
    return out
