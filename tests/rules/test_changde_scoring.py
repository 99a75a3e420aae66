"""changde scoring (RULES §11): 囤, the fifteen 名堂 added, 黄番, cap, the arrangement with
the most points. The two checks at the end of §11 are the first two tests, verbatim."""

from __future__ import annotations

from dataclasses import replace

import pytest

from replay.arrangements import Meld, holdings, search_shapes
from replay.cards import counts_of, parse_card
from replay.groups import GroupKind
from replay.mingtang import MINGTANG, WinShape, mingtang, multiplier
from replay.profiles import CHANGDE, STANDARD, Flowers, Grading, ProfileError, resolve
from replay.results import FAN_NAMES, Score
from replay.scoring import WinFacts, grade, score_mandatory_tian_hu, score_win

G = GroupKind


def c(name: str) -> int:
    return parse_card(name)


def counts(text: str) -> list[int]:
    return counts_of(parse_card(n) for n in text.split())


def meld(kind: GroupKind, text: str) -> Meld:
    return (kind, tuple(parse_card(n) for n in text.split()))


def win(melds: list[Meld], hand: str, card: str, *, profile: object = CHANGDE,
        zi_mo: bool = False, ting: bool = False, hai_di: bool = False, winner: int = 0,
        dealer: int = 0, drawn_before: int = 0, opening: bool = False) -> Score:
    counted = counts(hand)
    k = c(card)
    arrs = search_shapes(melds, counted, k)
    facts = WinFacts(winner, zi_mo, opening, hai_di, None, None, dealer=dealer, ting=ting,
                     shua_hou=sum(counted) == 1, drawn_before=drawn_before)
    assert isinstance(profile, type(CHANGDE))
    out = score_win(profile, arrs, holdings(melds, counted, k), facts)
    assert out is not None
    return out


# --------------------------------------------------------------------------- §11 checks

# "21 huxi, 10 red, 自摸, no other fan: 囤 = 1 + 2 + 1 = 4, fans 3 -> 12 points, each
#  loser pays 12 × stake."
CHECK_1_MELDS = [meld(G.CHI, "x6 x7 x8")]
CHECK_1_HAND = "d10 d10 d10 d1 d2 d3 x1 x2 x2 x7 x10 x8 x8 x8 d6 d7 d8"  # + x3 drawn


def test_section_11_check_1() -> None:
    stake = 5
    out = win(CHECK_1_MELDS, CHECK_1_HAND, "x3", zi_mo=True,
              profile=replace(CHANGDE, stake=stake))
    assert out.huxi == 21
    assert out.grade == 4  # 1 + (21 - 15) // 3 + 1 for 自摸
    assert out.fans == ("hong_hu",)
    assert out.fan_values == (("hong_hu", 3),)
    assert out.multiplier == 3
    assert out.points == 12
    assert out.scores == (24 * stake, -12 * stake, -12 * stake)  # winner: seat 0


# "15 huxi, no red, seven 碰/坎/偎 groups and no pair, 9 big and 12 small cards, not 自摸:
#  囤 1, fans 乌胡 8 + 对子胡 8 + 行行息 8 = 24 -> 24 points."
CHECK_2_MELDS = [meld(G.PENG, "x3 x3 x3"), meld(G.PENG, "x4 x4 x4"), meld(G.PENG, "x5 x5 x5"),
                 meld(G.PENG, "d3 d3 d3"), meld(G.PENG, "d4 d4 d4")]
CHECK_2_HAND = "x1 x1 x1 d5 d5"  # + d5 revealed by another seat's draw


def test_section_11_check_2() -> None:
    out = win(CHECK_2_MELDS, CHECK_2_HAND, "d5")
    held = holdings(CHECK_2_MELDS, counts(CHECK_2_HAND), c("d5"))
    assert sum(held[10:]) == 9 and sum(held[:10]) == 12
    assert out.huxi == 15
    assert out.grade == 1
    assert sorted(out.fans) == sorted(("wu_hu", "dui_dui_hu", "hang_hang_xi"))
    assert dict(out.fan_values or ()) == {"wu_hu": 8, "dui_dui_hu": 8, "hang_hang_xi": 8}
    assert out.multiplier == 24
    assert out.points == 24
    assert out.scores == (48, -24, -24)  # each loser pays 24 × stake (1)


# --------------------------------------------------------------------------- the profile


def test_changde_profile_is_standard_table_play_with_its_own_score() -> None:
    for field in ("min_huxi", "hu_on_discard", "hu_on_passed_card", "chou_hu", "mian_zhang",
                  "dealer_rotation", "tian_hu_fours", "tian_hu_threes", "zi_mo_grade_bonus",
                  "payout", "duo"):
        assert getattr(CHANGDE, field) == getattr(STANDARD, field), field
    assert CHANGDE.grading is Grading.TUN
    assert CHANGDE.flowers is Flowers.CHANGDE_FULL
    assert CHANGDE.huang_fan is True
    assert CHANGDE.cap is None


def test_cap_and_huang_fan_are_overridable_and_validated() -> None:
    assert resolve("changde", {"cap": 30}).cap == 30
    assert resolve("changde", {"cap": None}).cap is None
    assert resolve("standard", {"huang_fan": True}).huang_fan is True
    for bad in ({"cap": 0}, {"cap": "10"}, {"cap": True}, {"huang_fan": 1},
                {"flowers": "full"}, {"grading": "tuns"}):
        with pytest.raises(ProfileError):
            resolve("changde", bad)
    with pytest.raises(ProfileError):
        replace(CHANGDE, grading="nope")  # validated at load, not only through ``rules``


@pytest.mark.parametrize(("huxi", "zi_mo", "tun"),
                         [(15, False, 1), (17, False, 1), (18, False, 2), (21, True, 4),
                          (30, False, 6), (15, True, 2)])
def test_tun(huxi: int, zi_mo: bool, tun: int) -> None:
    assert grade(CHANGDE, huxi, zi_mo) == tun


# --------------------------------------------------------------------------- the table


def shape(**kw: object) -> WinShape:
    base: dict[str, object] = {"red": 5, "big": 10, "small": 11, "da_tuan_yuan": False}
    base.update(kw)
    return WinShape(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(("kw", "expected"), [
    ({}, ()),
    ({"red": 10}, (("hong_hu", 3),)),
    ({"red": 13}, (("hong_hu", 6),)),
    ({"red": 0}, (("wu_hu", 8),)),
    ({"red": 1}, (("dian_hu", 6),)),
    ({"red": 4}, (("si_qi_hong", 2),)),
    ({"red": 7}, (("si_qi_hong", 2),)),
    ({"dui_dui": True, "has_pair": True}, (("dui_dui_hu", 8),)),
    ({"big": 18, "small": 3}, (("da_hu", 8),)),
    ({"big": 21, "small": 0}, (("da_hu", 11),)),
    ({"big": 5, "small": 16}, (("xiao_hu", 10),)),
    ({"big": 2, "small": 19}, (("xiao_hu", 13),)),
    ({"opening_dealer": True}, (("tian_hu", 6),)),
    ({"opening_other": True}, (("di_hu", 6),)),
    ({"hai_di": True}, (("hai_di", 6),)),
    ({"ting": True}, (("ting_hu", 6),)),
    ({"shua_hou": True}, (("shua_hou", 8),)),
    ({"da_tuan_yuan": True}, (("da_tuan_yuan", 8),)),
    ({"all_groups_xi": True}, (("hang_hang_xi", 8),)),
    ({"all_groups_xi": True, "has_pair": True}, (("jia_hang_hang", 4),)),
    ({"red": 0, "dui_dui": True, "all_groups_xi": True},
     (("wu_hu", 8), ("dui_dui_hu", 8), ("hang_hang_xi", 8))),
])
def test_each_mingtang_condition_and_value(kw: dict[str, object],
                                           expected: tuple[tuple[str, int], ...]) -> None:
    assert mingtang(shape(**kw)) == expected


def test_fifteen_mingtang_all_named() -> None:
    names = [m.name for m in MINGTANG]
    assert len(names) == len(set(names)) == 15
    assert set(names) <= set(FAN_NAMES)
    assert multiplier(()) == 1
    assert multiplier((("si_qi_hong", 2), ("hai_di", 6))) == 8


# --------------------------------------------------------------------------- arrangements


def test_a_pair_and_the_card_as_a_peng_is_dui_dui() -> None:
    # The card onto a pair in hand is a 碰: every group of one kind.
    melds = [meld(G.PENG, "x3 x3 x3"), meld(G.PENG, "x4 x4 x4"), meld(G.PENG, "d3 d3 d3"),
             meld(G.PENG, "d4 d4 d4"), meld(G.WEI, "x9 x9 x9")]
    hand = counts("x1 x1 x1 x5 x5")
    arrs = search_shapes(melds, hand, c("x5"))
    assert any(a.dui_dui for a in arrs)


def test_hang_hang_xi_versus_jia_hang_hang() -> None:
    # No four: no pair, and every group has huxi -> 行行息 8.
    melds = [meld(G.PENG, "x3 x3 x3"), meld(G.PENG, "d3 d3 d3"), meld(G.CHI, "x1 x2 x3")]
    out = win(melds, "d1 d2 d3 x2 x7 x10 x5 x5 x5 d9 d9", "d9")
    assert "hang_hang_xi" in out.fans and "jia_hang_hang" not in out.fans
    # With a 跑 (a four) a pair is owed: the other six all with huxi -> 假行行 4.
    melds2 = [meld(G.PAO, "x4 x4 x4 x4"), meld(G.PENG, "d3 d3 d3"), meld(G.CHI, "x1 x2 x3")]
    out2 = win(melds2, "d2 d3 x2 x7 x10 x5 x5 x5 d8 d8", "d1")
    assert "jia_hang_hang" in out2.fans and "hang_hang_xi" not in out2.fans


def test_huang_fan_and_cap() -> None:
    out = win(CHECK_1_MELDS, CHECK_1_HAND, "x3", zi_mo=True, drawn_before=2)
    assert (out.points, out.drawn_before) == (12 * 3, 2)
    capped = win(CHECK_1_MELDS, CHECK_1_HAND, "x3", zi_mo=True, drawn_before=2,
                 profile=replace(CHANGDE, cap=20, stake=2))
    assert (capped.points, capped.uncapped, capped.scores) == (20, 36, (80, -40, -40))
    assert capped.to_json()["drawn_before"] == 2


def test_mandatory_tian_hu_changde() -> None:
    held = counts("x1 x1 x1 x1 x2 x2 x2 x2 d7 d7 d7 d7 x10 d10 x3 x4 x5 x6 d3 d4")
    facts = WinFacts(1, True, True, False, None, None, dealer=0, ting=True)
    out = score_mandatory_tian_hu(CHANGDE, 1, held, facts=facts)
    # R = 10 -> 红胡 3; 地胡 (not the dealer) 6; 听胡 6.
    assert dict(out.fan_values or ()) == {"hong_hu": 3, "di_hu": 6, "ting_hu": 6}
    assert out.multiplier == 15
    assert out.grade == 1 + (30 - 15) // 3 + 1
    assert out.points == 7 * 15
