"""Winning (RULES §4 天胡, §8) and the settlement check (§9) in whole hands."""

from replay.verdict import Status

from .builder import HandBuilder, codes, decisions

# Seat 1 waits on x3 (x1 x2) with 21 huxi: three big 坎 (18) and 一二三 (3).
WIN = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x1 x2"
ARRANGEMENT = [
    "kan d1 d1 d1 (6)", "kan d2 d2 d2 (6)", "kan d3 d3 d3 (6)", "sentence x1 x2 x3 (3)",
    "sentence x4 x5 x6 (0)", "sentence x7 x8 x9 (0)", "sentence d4 d5 d6 (0)",
]


def test_win_on_own_draw_is_zi_mo() -> None:
    b = HandBuilder(["d10", WIN, "x3"], stock="x3", shown="d10")
    v = b.discard(0, "d10").draw(1).hu(1, "x3").verify()
    assert v.status is Status.CLEAN, codes(v)
    exp = v.score["expected"]  # type: ignore[index]
    # 21 huxi: 等 = 1 + (21-15)//3 = 3, +1 for 自摸; 5 red (d2×3, x2, x7): no fan
    assert (exp["huxi"], exp["grade"], exp["fans"], exp["multiplier"]) == (21, 4, [], 1)
    assert exp["scores"] == [-4, 8, -4]
    assert exp["facts"] == ["zi_mo"]
    assert exp["arrangement"] == ARRANGEMENT


def test_win_on_anothers_draw() -> None:
    b = HandBuilder(["d10", WIN, ""], stock="d9 x3", shown="d10")
    v = b.discard(0, "d10").draw(1).draw(2).hu(1, "x3").verify()
    assert v.status is Status.CLEAN, codes(v)
    assert v.score["expected"]["grade"] == 3  # type: ignore[index]
    assert v.score["expected"]["scores"] == [-3, 6, -3]  # type: ignore[index]


def test_claimed_result_is_compared_field_by_field() -> None:
    b = HandBuilder(["d10", WIN, "x3"], stock="x3", shown="d10")
    b.discard(0, "d10").draw(1).hu(1, "x3")
    b.result(outcome="hu", winner=1, huxi=21, grade=4, fans=[], multiplier=1, points=4,
             scores=[-4, 8, -4])
    assert b.verify().status is Status.CLEAN
    b.result(outcome="hu", winner=1, huxi=21, grade=3, points=3, scores=[-3, 6, -3])
    v = b.verify()
    assert codes(v) == [(None, "score_mismatch")]
    assert v.score["mismatches"] == ["grade", "points", "scores"]  # type: ignore[index]


def test_standard_allows_no_win_on_a_discard() -> None:
    b = HandBuilder(["x3", WIN, ""], stock="d9", avoid="x3")
    v = b.discard(0, "x3").hu(1, "x3").verify()
    assert codes(v) == [(1, "hu_invalid")]


def test_hengshan_fang_pao_pays_double() -> None:
    b = HandBuilder(["x3", WIN, ""], stock="d9", ruleset="hengshan", avoid="x3",
                    rules={"stake": 10})
    v = b.discard(0, "x3").hu(1, "x3").verify()
    assert v.status is Status.CLEAN, codes(v)
    exp = v.score["expected"]  # type: ignore[index]
    # 21 huxi -> 级 5; 垛: the next stock card d9, none held; no 红胡 (5 red)
    assert (exp["grade"], exp["duo"], exp["multiplier"], exp["points"]) == (5, 0, 1, 5)
    assert exp["scores"] == [-100, 100, 0]
    assert exp["facts"] == ["fang_pao"]


def test_hengshan_duo_counts_the_turned_card() -> None:
    b = HandBuilder(["x3", WIN, ""], stock="d1", ruleset="hengshan", avoid="x3")
    v = b.discard(0, "x3").hu(1, "x3").verify()
    exp = v.score["expected"]  # type: ignore[index]
    assert exp["duo"] == 3  # the turned d1 meets seat 1's 坎 of d1
    assert exp["points"] == 8


def test_not_a_winning_hand() -> None:
    b = HandBuilder(["d10", WIN.replace("x1 x2", "x1 x9"), "x3"], stock="x3", shown="d10")
    v = b.discard(0, "d10").draw(1).hu(1, "x3").verify()
    assert codes(v) == [(2, "hu_invalid")]
    assert v.score["expected"] is None  # type: ignore[index]


def test_too_little_huxi() -> None:
    hand = "d1*3 x5 x6 x7 x8 x9 x10 d4 d5 d6 x4 x5 x6 d7 d8 d9 x1 x2"
    b = HandBuilder(["d10", hand, "x3"], stock="x3", shown="d10")
    v = b.discard(0, "d10").draw(1).hu(1, "x3").verify()
    assert codes(v) == [(2, "hu_invalid")]


def test_optional_tian_hu_on_the_shown_card() -> None:
    b = HandBuilder(["x3", WIN, ""], shown="x3")
    v = b.hu(1, "x3").verify()
    assert v.status is Status.CLEAN, codes(v)
    exp = v.score["expected"]  # type: ignore[index]
    assert exp["facts"] == ["tian_hu", "zi_mo"] and exp["grade"] == 4


def test_declined_optional_tian_hu_is_chou_hu() -> None:
    b = HandBuilder(["x3", WIN, ""], shown="x3", stock="d9")
    v = b.discard(0, "x3").draw(1).end("abandoned").verify()
    assert (None, 1, "chou_hu", "x3") in decisions(v)


def test_mandatory_tian_hu() -> None:
    b = HandBuilder(["", "x1*4 x2*4 d5*4", ""])
    v = b.hu(1, None).verify()
    assert v.status is Status.CLEAN, codes(v)
    exp = v.score["expected"]  # type: ignore[index]
    # three small/big 提: 9 + 9 + 12 = 30 huxi; 等 1 + 15//3 = 6, +1 自摸
    assert exp["huxi"] == 30 and exp["grade"] == 7
    assert exp["facts"] == ["tian_hu", "zi_mo"]


def test_mandatory_tian_hu_five_threes() -> None:
    b = HandBuilder(["", "x1*3 x3*3 x5*3 d6*3 d8*3", ""])
    v = b.hu(1, None).verify()
    assert v.status is Status.CLEAN, codes(v)
    assert v.score["expected"]["huxi"] == 3 + 3 + 3 + 6 + 6  # type: ignore[index]


def test_mandatory_tian_hu_cannot_be_skipped() -> None:
    b = HandBuilder(["x9", "x1*4 x2*4 d5*4", ""], stock="d9")
    v = b.discard(0, "x9").end("abandoned").verify()
    assert (0, "tian_hu_missed") in codes(v)


def test_mandatory_tian_hu_beats_a_shown_card_win() -> None:
    b = HandBuilder(["x3", WIN, "x10*4 d8*4 d7*4"], shown="x3")
    v = b.hu(1, "x3").verify()
    assert codes(v) == [(0, "priority_violated")]


def test_no_mandatory_tian_hu_without_the_cards() -> None:
    v = HandBuilder(["", "x1*4", ""]).hu(1, None).verify()
    assert codes(v) == [(0, "hu_invalid")]


def _to_the_last_card(ruleset: str = "standard") -> HandBuilder:
    """Nobody can use the first 18 stock cards; seat 1 draws the 19th, its x3."""
    b = HandBuilder(["", WIN, ""], stock="d7*4 d8*4 d9*4 d10*4 x10 x10 x3", ruleset=ruleset)
    b.discard(0, b.hands[0][0])
    for k in range(19):
        b.draw((1 + k) % 3)
    return b


def test_hai_di_on_the_last_stock_card() -> None:
    v = _to_the_last_card().hu(1, "x3").verify()
    assert v.status is Status.CLEAN, codes(v)
    exp = v.score["expected"]  # type: ignore[index]
    # 海底 with no other fan counts 1 (平胡海底算1番)
    assert (exp["fans"], exp["multiplier"], exp["points"]) == (["hai_di"], 1, 4)
    assert exp["facts"] == ["hai_di", "zi_mo"]


def test_hengshan_duo_uses_the_last_card_when_the_stock_is_empty() -> None:
    v = _to_the_last_card("hengshan").hu(1, "x3").verify()
    exp = v.score["expected"]  # type: ignore[index]
    assert exp["duo"] == 1 and exp["grade"] == 5 and exp["points"] == 6


def test_exhausted_hand() -> None:
    b = _to_the_last_card()
    assert b.end("exhausted").verify().score["expected"] == {  # type: ignore[index]
        "outcome": "exhausted", "winner": None, "scores": [0, 0, 0]}
    # the refused last-card win is a 臭胡 decision, and no end event is needed
    v = _to_the_last_card().verify()
    assert v.status is Status.CLEAN
    assert (19, 1, "chou_hu", "x3") in decisions(v)
