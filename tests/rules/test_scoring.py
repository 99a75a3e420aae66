"""Scoring a win (RULES §4.1, §8, §9)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from replay.arrangements import Arrangement, Group, search
from replay.cards import counts_of, parse_card, red_count
from replay.groups import GroupKind
from replay.profiles import FLOWERS, HENGSHAN, STANDARD, Profile
from replay.scoring import (
    FAN_ORDER,
    FAN_SCHEMES,
    WinFacts,
    drawn_score,
    duo_count,
    fans,
    grade,
    payouts,
    score_mandatory_tian_hu,
    score_win,
)

G = GroupKind


def win_json(*args: Any) -> dict[str, Any] | None:
    """``score_win`` as the verdict's JSON object."""
    out = score_win(*args)
    return None if out is None else out.to_json()


def tian_hu_json(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return score_mandatory_tian_hu(*args, **kwargs).to_json()
BASIC = replace(STANDARD, flowers="basic")


def counts(text: str) -> list[int]:
    return counts_of(parse_card(n) for n in text.split())


def c(name: str) -> int:
    return parse_card(name)


def arrangement(huxi: int, dui_dui: bool, tag: str = "x1") -> Arrangement:
    """A stand-in arrangement: one labelled group carrying all the huxi."""
    return Arrangement((Group(G.SENTENCE, (c(tag),) * 3, huxi, False),), huxi, dui_dui)


def facts(winner: int = 0, *, zi_mo: bool = False, tian_hu: bool = False, hai_di: bool = False,
          discarder: int | None = None, turned: int | None = None) -> WinFacts:
    return WinFacts(winner, zi_mo, tian_hu, hai_di, discarder, turned)


# --------------------------------------------------------------------------- 等 / 级


@pytest.mark.parametrize(
    ("huxi", "zi_mo", "expected"),
    [(15, False, 1), (17, False, 1), (18, False, 2), (20, False, 2), (21, False, 3),
     (21, True, 4), (15, True, 2), (30, False, 6)],
)
def test_standard_deng(huxi: int, zi_mo: bool, expected: int) -> None:
    assert grade(STANDARD, huxi, zi_mo) == expected


@pytest.mark.parametrize(
    ("huxi", "expected"),
    [(10, 3), (11, 1), (12, 2), (13, 2), (14, 2), (15, 3), (17, 3), (18, 4), (21, 5)],
)
def test_hengshan_ji(huxi: int, expected: int) -> None:
    assert grade(HENGSHAN, huxi, False) == expected
    assert grade(HENGSHAN, huxi, True) == expected  # no 自摸 bonus in this profile
    assert grade(replace(HENGSHAN, zi_mo_grade_bonus=2), huxi, True) == expected + 2


# --------------------------------------------------------------------------- fans


def test_every_flowers_value_has_a_scheme() -> None:
    assert set(FAN_SCHEMES) == set(FLOWERS)


@pytest.mark.parametrize(
    ("red", "dui_dui", "hai_di", "names", "mult"),
    [
        (5, False, False, [], 1),  # 平胡
        (9, False, False, [], 1),
        (10, False, False, ["hong_hu"], 2),
        (12, False, False, ["hong_hu"], 2),
        (13, False, False, ["hong_wu"], 4),
        (20, False, False, ["hong_wu"], 4),
        (1, False, False, ["dian_hu"], 3),
        (2, False, False, [], 1),
        (0, False, False, ["wu_hu"], 5),
        (5, True, False, ["dui_dui_hu"], 4),
        (0, True, False, ["wu_hu", "dui_dui_hu"], 10),  # not 9
        (5, False, True, ["hai_di"], 1),  # 平胡海底 = 1
        (11, False, True, ["hong_hu", "hai_di"], 4),
        (1, False, True, ["dian_hu", "hai_di"], 5),
        (5, True, True, ["dui_dui_hu", "hai_di"], 6),
        (13, True, False, ["hong_wu", "dui_dui_hu"], 8),
        (0, True, True, ["wu_hu", "dui_dui_hu", "hai_di"], 12),
    ],
)
def test_half_fans(red: int, dui_dui: bool, hai_di: bool, names: list[str], mult: int) -> None:
    assert fans(STANDARD, red, dui_dui, hai_di) == (names, mult)


def test_basic_fans_ignore_dui_dui_and_hai_di() -> None:
    assert fans(BASIC, 5, True, True) == ([], 1)
    assert fans(BASIC, 0, True, True) == (["wu_hu"], 5)
    assert fans(BASIC, 11, True, False) == (["hong_hu"], 2)
    assert fans(BASIC, 1, False, True) == (["dian_hu"], 3)
    assert fans(BASIC, 14, False, False) == (["hong_wu"], 4)


def test_red_x3() -> None:
    assert fans(HENGSHAN, 9, False, False) == ([], 1)
    assert fans(HENGSHAN, 10, False, False) == (["hong_hu"], 3)
    assert fans(HENGSHAN, 16, True, True) == (["hong_hu"], 3)
    assert fans(HENGSHAN, 0, True, True) == ([], 1)  # no 乌胡, 对对胡 or 海底 here
    assert fans(HENGSHAN, 1, False, False) == ([], 1)


def test_red_only_ignores_dui_dui_and_hai_di() -> None:
    assert fans(STANDARD, 0, True, True, red_only=True) == (["wu_hu"], 5)
    assert fans(STANDARD, 5, True, True, red_only=True) == ([], 1)


def test_fan_names_follow_fan_order() -> None:
    names, _ = fans(STANDARD, 0, True, True)
    assert names == sorted(names, key=FAN_ORDER.index)


# --------------------------------------------------------------------------- 垛 and payouts


def test_duo_count() -> None:
    held = counts("x2 x2 x2 x2 d7 d7 x5")
    assert duo_count(held, c("x2")) == 4
    assert duo_count(held, c("d7")) == 2
    assert duo_count(held, c("d8")) == 0
    assert duo_count(held, None) == 0


def test_payouts() -> None:
    assert payouts(STANDARD, 5, 1, None) == [-5, 10, -5]
    assert payouts(replace(STANDARD, stake=3), 5, 2, None) == [-15, -15, 30]
    # each_loser ignores a discarder.
    assert payouts(STANDARD, 5, 1, 0) == [-5, 10, -5]
    assert payouts(HENGSHAN, 5, 1, None) == [-5, 10, -5]
    assert payouts(HENGSHAN, 5, 1, 2) == [0, 10, -10]  # 放炮: the discarder pays double
    assert payouts(HENGSHAN, 5, 0, 1) == [10, -10, 0]
    for scores in (payouts(HENGSHAN, 7, 2, 0), payouts(STANDARD, 7, 0, None)):
        assert sum(scores) == 0


# Seed 002: "打10快，胡个21胡10红，一边输150，加起来就是300 … 再中4垛，就是270一边，一共赢540".
SEED_002 = replace(HENGSHAN, stake=10)
TEN_RED = counts("x2 x2 x2 x2 x7 x7 x7 x7 d10 d10 x1 x3 x4 x5 x6 x8 x9 d1 d3 d4 d5")


def test_seed_002_checks() -> None:
    assert red_count(TEN_RED) == 10
    out = win_json(SEED_002, [arrangement(21, False)], TEN_RED, facts(1, zi_mo=True,
                                                                         turned=c("d8")))
    assert out is not None
    assert (out["huxi"], out["grade"], out["duo"], out["fans"], out["multiplier"]) == (
        21, 5, 0, ["hong_hu"], 3)
    assert out["points"] == 15
    assert out["scores"] == [-150, 300, -150]
    # 4 垛: the turned card is x2, held four times.
    out = win_json(SEED_002, [arrangement(21, False)], TEN_RED, facts(1, zi_mo=True,
                                                                         turned=c("x2")))
    assert out is not None
    assert (out["duo"], out["points"], out["scores"]) == (4, 27, [-270, 540, -270])
    # 放炮 by seat 2: it pays double, seat 0 nothing.
    out = win_json(SEED_002, [arrangement(21, False)], TEN_RED, facts(1, discarder=2,
                                                                         turned=c("d8")))
    assert out is not None
    assert out["scores"] == [0, 300, -300]
    assert out["facts"] == ["fang_pao"]


def test_standard_points_and_dict_shape() -> None:
    held = counts("x1 x1 x3 x3 x4 x5 x6 x8 x9 d1 d3 d4 d5 d6 d8 d9 x2 x7 d2 d7 x10")  # 5 red
    out = win_json(STANDARD, [arrangement(21, False)], held,
                    facts(2, zi_mo=True, hai_di=True, turned=c("x1")))
    assert out == {
        "outcome": "hu",
        "winner": 2,
        "huxi": 21,
        "grade": 4,  # 3 + 1 for 自摸
        "fans": ["hai_di"],
        "multiplier": 1,
        "points": 4,
        "scores": [-4, -4, 8],
        "arrangement": ["sentence x1 x1 x1 (21)"],
        "facts": ["hai_di", "zi_mo"],
    }
    # An optional 天胡 counts as 自摸.
    out = win_json(STANDARD, [arrangement(15, False)], held, facts(0, tian_hu=True))
    assert out is not None
    assert out["grade"] == 2
    assert out["facts"] == ["tian_hu", "zi_mo"]


def test_below_min_huxi_is_no_score() -> None:
    assert win_json(STANDARD, [arrangement(14, True)], TEN_RED, facts()) is None
    assert win_json(STANDARD, [], TEN_RED, facts()) is None
    assert win_json(HENGSHAN, [arrangement(9, False)], TEN_RED, facts()) is None
    assert win_json(HENGSHAN, [arrangement(10, False)], TEN_RED, facts()) is not None


def test_the_arrangement_with_most_points_is_scored_not_most_huxi() -> None:
    held = counts("x1 x1 x3 x3 x4 x5 x6 x8 x9 d1 d3 d4 d5 d6 d8 d9 x2 x7 d2 d7 x10")  # 5 red
    more_huxi = arrangement(18, False, "x3")  # 2 等 x 1
    dui_dui = arrangement(15, True, "x4")  # 1 等 x 4 (对对胡)
    for order in ([more_huxi, dui_dui], [dui_dui, more_huxi]):
        out = win_json(STANDARD, order, held, facts())
        assert out is not None
        assert (out["huxi"], out["fans"], out["points"]) == (15, ["dui_dui_hu"], 4)
        assert out["arrangement"] == ["sentence x4 x4 x4 (15)"]
    # Equal points: more huxi wins.
    for order in ([arrangement(18, False), arrangement(19, False, "x3")],
                  [arrangement(19, False, "x3"), arrangement(18, False)]):
        out = win_json(STANDARD, order, held, facts())
        assert out is not None
        assert out["huxi"] == 19


def test_hengshan_scores_10_huxi_above_11() -> None:
    # A real hand: 11 huxi with a 碰 of x5, 10 with the x5 in a 绞 and a sentence.
    melds = [(G.PENG, (c("x2"),) * 3)]
    hand = counts("x2 x5 x5 x6 x7 x7 x8 x8 x10 d1 d2 d3 d5 d6 d7 d8 d8")
    arrs = search(melds, hand, c("x5"), every_huxi=True)
    held = [n + (3 if k == c("x2") else 0) + (1 if k == c("x5") else 0)
            for k, n in enumerate(hand)]
    out = win_json(HENGSHAN, arrs, held, facts(0, zi_mo=True))
    assert out is not None
    assert (out["huxi"], out["grade"], out["points"]) == (10, 3, 3)
    # With only the best-huxi arrangement the hand scores 1 级.
    out = win_json(HENGSHAN, search(melds, hand, c("x5")), held, facts(0, zi_mo=True))
    assert out is not None
    assert (out["huxi"], out["grade"]) == (11, 1)


def test_duo_only_in_profiles_with_duo() -> None:
    out = win_json(STANDARD, [arrangement(15, False)], TEN_RED, facts(turned=c("x2")))
    assert out is not None
    assert "duo" not in out
    assert out["points"] == 1 * 2  # hong_hu; the 4 x2 add nothing
    with_duo: Profile = replace(STANDARD, duo=True)
    out = win_json(with_duo, [arrangement(15, False)], TEN_RED, facts(turned=c("x2")))
    assert out is not None
    assert (out["duo"], out["points"]) == (4, (1 + 4) * 2)


# --------------------------------------------------------------------------- 天胡 and draws


def test_mandatory_tian_hu_three_fours() -> None:
    held = counts("x1 x1 x1 x1 x2 x2 x2 x2 d7 d7 d7 d7 x10 d10 x3 x4 x5 x6 d3 d4")
    assert red_count(held) == 10
    out = tian_hu_json(STANDARD, 1, held)
    assert out == {
        "outcome": "hu",
        "winner": 1,
        "huxi": 9 + 9 + 12,
        "grade": 6 + 1,  # 1 + (30 - 15) // 3, + 1 for 自摸
        "fans": ["hong_hu"],
        "multiplier": 2,
        "points": 14,
        "scores": [-14, 28, -14],
        "arrangement": [
            "ti x1 x1 x1 x1 (9)",
            "ti x2 x2 x2 x2 (9)",
            "ti d7 d7 d7 d7 (12)",
            "rest x3 x4 x5 x6 x10 d3 d4 d10 (0)",
        ],
        "facts": ["tian_hu", "zi_mo"],
    }


def test_mandatory_tian_hu_five_threes_and_red_only() -> None:
    # No red at all and nothing but 坎 and pairs: 乌胡 only, no 对对胡.
    held = counts("x1 x1 x1 x3 x3 x3 x4 x4 x4 x5 x5 x5 d6 d6 d6 d8 d8 x9 x9 d1")
    out = tian_hu_json(STANDARD, 0, held)
    assert out["huxi"] == 3 * 4 + 6
    assert out["grade"] == 2 + 1
    assert (out["fans"], out["multiplier"], out["points"]) == (["wu_hu"], 5, 15)
    assert out["arrangement"][:5] == [
        "kan x1 x1 x1 (3)", "kan x3 x3 x3 (3)", "kan x4 x4 x4 (3)", "kan x5 x5 x5 (3)",
        "kan d6 d6 d6 (6)",
    ]
    assert out["arrangement"][5] == "rest x9 x9 d1 d8 d8 (0)"
    # Hengshan: 级 from the huxi, 垛 from the turned card, no 放炮.
    out = tian_hu_json(HENGSHAN, 2, held, turned=c("d6"))
    assert (out["grade"], out["duo"], out["points"]) == (4, 3, 7)
    assert out["scores"] == [-7, -7, 14]


def test_drawn_score() -> None:
    assert drawn_score("exhausted").to_json() == {"outcome": "exhausted", "winner": None,
                                        "scores": [0, 0, 0]}
    assert drawn_score("abandoned").to_json()["scores"] == [0, 0, 0]
