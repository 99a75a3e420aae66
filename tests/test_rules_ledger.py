"""The decision ledger: 臭牌, 过张 with its preemption rule, 臭偎 and 臭胡 (RULES §7)."""

from builder import HandBuilder, codes, decisions

from replay.cards import parse_card
from replay.ledger import Ledger
from replay.profiles import HENGSHAN, STANDARD
from replay.verdict import Status

# Seat 1 can 吃 x3 with x4 x5; the dealer discards x3, seat 1 lets it go.


def test_guo_zhang_decision_and_violation() -> None:
    b = HandBuilder(["x3*2", "x4 x5", "x3"], stock="x3")
    v = b.discard(0, "x3").draw(1).chi(1, "x3", "x3 x4 x5").end("abandoned").verify()
    assert (0, 1, "guo_zhang", "x3") in decisions(v)
    assert codes(v) == [(2, "guo_zhang")]
    assert v.findings[0].refs == (0,)
    checks = [d for d in v.decisions if str(d.kind) == "check"]
    assert [(d.seq, d.outcome) for d in checks] == [(2, "violation")]


def test_taking_the_card_is_not_a_pass() -> None:
    b = HandBuilder(["x3*2", "x4 x5", "x3"], stock="x3")
    v = b.discard(0, "x3").chi(1, "x3", "x3 x4 x5").discard(1, "x1").end("abandoned").verify()
    assert v.status is Status.CLEAN, codes(v)
    assert not decisions(v, "guo_zhang") or all(d[1] != 1 for d in decisions(v, "guo_zhang"))
    assert [(d.seq, d.outcome) for d in v.decisions if str(d.kind) == "check"] == [(1, "ok")]


def test_chou_pai_own_discard_may_not_be_taken() -> None:
    # seat 1 discards x6 after its 吃; later the dealer discards x6 and seat 1 takes it.
    b = HandBuilder(["x3 x6", "x4 x5 x6 x7 x8", "x3"], stock="d9")
    b.discard(0, "x3").chi(1, "x3", "x3 x4 x5").discard(1, "x6")
    b.draw(2).draw(0)  # seat 2 draws... wait: after x6 unclaimed seat 2 draws
    v = b.end("abandoned").verify()
    assert (2, 1, "chou_pai", "x6") in decisions(v)


def test_chou_pai_violation() -> None:
    # seat 1: 吃 x3, discard x6; seat 2 draws d9 (nobody wants it), seat 0 draws x6? no:
    # the dealer holds the other x6 and discards it after a 碰.
    b = HandBuilder(["x3 x6 d9*2", "x4 x5 x6 x7 x8", ""], stock="d9 x6")
    b.discard(0, "x3").chi(1, "x3", "x3 x4 x5").discard(1, "x6")
    # seat 2 draws d9: the dealer holds a pair of d9 and pengs it, then discards x6
    b.draw(2).peng(0, "d9").discard(0, "x6").chi(1, "x6", "x6 x7 x8")
    v = b.end("abandoned").verify()
    assert codes(v) == [(6, "chou_pai")]
    assert v.findings[0].refs == (2,)


def test_preemption_peng_over_chi_is_not_guo_zhang() -> None:
    # seat 1 could 吃 x3, but seat 2 pengs it: not a 过张 for seat 1.
    b = HandBuilder(["x3", "x4 x5", "x3*2"], stock="x3")
    b.discard(0, "x3").peng(2, "x3").discard(2, "x1")
    v = b.end("abandoned").verify()
    assert v.status is Status.CLEAN, codes(v)
    assert [d for d in decisions(v, "guo_zhang") if d[1] == 1] == []


def test_passing_a_peng_while_another_chis_is_guo_zhang() -> None:
    b = HandBuilder(["x3", "x4 x5", "x3*2"], stock="x3")
    b.discard(0, "x3").chi(1, "x3", "x3 x4 x5").discard(1, "x1")
    v = b.end("abandoned").verify()
    assert (0, 2, "guo_zhang", "x3") in decisions(v)
    assert [d for d in decisions(v, "guo_zhang") if d[1] == 1] == []


def test_drawers_chi_over_next_chi() -> None:
    # seat 1 draws x3 and 吃s it; seat 2 could 吃 too, but the drawer ranks first.
    hands = ["x9", "x4 x5", "x1 x2"]
    b = HandBuilder(hands, stock="x3")
    b.discard(0, "x9").draw(1).chi(1, "x3", "x3 x4 x5").discard(1, "d1").end("abandoned")
    v = b.verify()
    assert [d for d in decisions(v, "guo_zhang") if d[3] == "x3"] == []
    # next's 吃 over a drawer who could 吃: the drawer passed it
    b = HandBuilder(hands, stock="x3")
    b.discard(0, "x9").draw(1).chi(2, "x3", "x1 x2 x3").discard(2, "d1").end("abandoned")
    v = b.verify()
    assert (1, 1, "guo_zhang", "x3") in decisions(v)


def test_chou_wei_is_recorded_and_laid_with_one_card_shown() -> None:
    b = HandBuilder(["x8", "x8*2", ""], stock="d9 d8 d7 x8")
    b.discard(0, "x8").draw(1).draw(2).draw(0).draw(1).wei(1, "x8").discard(1, "x1")
    v = b.end("abandoned").verify()
    assert v.status is Status.CLEAN, codes(v)
    assert (0, 1, "guo_zhang", "x8") in decisions(v)
    assert (5, 1, "chou_wei", "x8") in decisions(v)
    melds = b.replayer().table.seats[1].melds
    assert [(str(m.kind), m.face_up_count()) for m in melds] == [("chou_wei", 1)]


# Seat 1 waits on x3 (x1 x2) with 21 huxi: three big 坎 and three sentences.
WIN = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x1 x2"


def test_chou_hu_standard_same_kind_unchanged_huxi() -> None:
    b = HandBuilder(["d10 x3", WIN, "x3"], stock="x3 x3", shown="d10")
    b.discard(0, "d10").draw(1).draw(2).hu(1, "x3")
    v = b.verify()
    assert (1, 1, "chou_hu", "x3") in decisions(v)
    assert codes(v) == [(3, "chou_hu")]
    assert v.findings[0].refs == (1,)


def test_chou_hu_hengshan_any_card() -> None:
    # waits on x1 or x4 (x2 x3); refuses x1, then wins on x4: barred in hengshan only.
    hand = WIN.replace("x1 x2", "x2 x3")
    for ruleset, expected in (("standard", []), ("hengshan", [(3, "chou_hu")])):
        b = HandBuilder(["d10 x1", hand, "x4"], stock="x1 x4", shown="d10", ruleset=ruleset)
        v = b.discard(0, "d10").draw(1).draw(2).hu(1, "x4").verify()
        assert (1, 1, "chou_hu", "x1") in decisions(v), ruleset
        assert codes(v) == expected, ruleset


def test_chou_hu_unlock_rules() -> None:
    x3 = parse_card("x3")
    std = Ledger(STANDARD)
    std.refused_win(1, x3, 4, 7, "test")
    assert std.hu_bar(1, x3, 4) is not None  # same kind, unchanged
    assert std.hu_bar(1, x3, 5) is None  # table huxi changed
    assert std.hu_bar(1, parse_card("x4"), 4) is None  # another kind
    hs = Ledger(HENGSHAN)
    hs.refused_win(1, x3, 4, 7, "test")
    assert hs.hu_bar(1, parse_card("x4"), 4) is not None  # any card
    assert hs.hu_bar(1, x3, 6) is not None  # +2 is not enough
    assert hs.hu_bar(1, x3, 7) is None  # +3 lifts it
    hs.refused_win(1, x3, 7, 9, "test")
    assert hs.hu_bar(1, x3, 9) is not None  # counted from the latest refusal


def test_hengshan_no_win_on_a_passed_kind() -> None:
    x3 = parse_card("x3")
    for profile, barred in ((STANDARD, False), (HENGSHAN, True)):
        led = Ledger(profile)
        led.passed(1, x3, 4, False, "吃")
        assert (led.hu_bar(1, x3, 0) is not None) is barred


def test_no_chou_hu_for_a_win_passed_after_ones_own_wei() -> None:
    # seat 1 holds a pair of x3 (x3 x3 instead of x1 x2 x3 in the winning shape) and
    # draws the third: forced 偎, after which it could win (自摸) but discards instead.
    hand = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x3 x3"
    def drawn() -> HandBuilder:
        b = HandBuilder(["d10", hand, ""], stock="x3", shown="d10", avoid="x1 x2")
        return b.discard(0, "d10").draw(1).wei(1, "x3")

    won = drawn().hu(1, "x3").verify()
    assert won.status is Status.CLEAN and won.score["expected"]["huxi"] == 21  # type: ignore[index]
    v = drawn().discard(1, "x4").end("abandoned").verify()
    assert v.status is Status.CLEAN
    assert decisions(v, "chou_hu") == []
