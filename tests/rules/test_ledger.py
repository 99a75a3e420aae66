"""The decision ledger: 臭牌, 过张 with its preemption rule, 臭偎 and 臭胡 (RULES §7)."""

from replay.cards import parse_card
from replay.ledger import Ledger
from replay.profiles import HENGSHAN, STANDARD
from replay.verdict import Status

from .builder import HandBuilder, codes, decisions

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
    melds = b.state().table.seats[1].melds
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


# -- issue 13: the refusal after a forced 跑 keeps the post-跑 huxi --------------------
# seat 1 holds a 坎 of d1 and wins on d1 (into a 跑) or, after the 跑, on x1 (the pair)
PAO_HAND = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 x9 d4 d5 d6 x1 x1"


def _refused_after_pao(ruleset: str) -> HandBuilder:
    # hengshan: seat 0's discard d1; standard (no win on a discard): seat 2's draw of d1
    if ruleset == "hengshan":
        b = HandBuilder(["d1 x10", PAO_HAND, ""], stock="x1", shown="x10", ruleset=ruleset,
                        avoid="x2 x3")
        return b.discard(0, "d1").pao(1, "d1").discard(1, "x1")
    b = HandBuilder(["x10", PAO_HAND, ""], stock="d10 d1 x1", shown="x10", ruleset=ruleset,
                    avoid="x2 x3 d9")
    return b.discard(0, "x10").draw(1).draw(2).pao(1, "d1").discard(1, "x1")


def test_chou_hu_after_a_forced_pao_records_the_huxi_after_the_pao() -> None:
    for ruleset, stays in (("hengshan", "reaches 12"), ("standard", "stays 9")):
        v = _refused_after_pao(ruleset).end("abandoned").verify()
        refusals = [d for d in v.decisions if str(d.kind) == "chou_hu" and d.card == "d1"]
        assert len(refusals) == 1, ruleset
        # a big 跑 is 9 huxi: the seat could win after it, with 9 on the table
        assert refusals[0].detail.endswith(stays), (ruleset, refusals[0].detail)
        assert refusals[0].refs == (refusals[0].seq,)


def test_hengshan_the_pao_that_came_with_a_refusal_does_not_unlock_it() -> None:
    # refused at 9 (after the 跑): a win at 9 on the next card is 臭胡 (seed 002 "能胡不胡，
    # 必须胡数增加3胡才可胡"); recording 0 (before the 跑) would let the 跑 itself unlock it.
    v = _refused_after_pao("hengshan").draw(2).hu(1, "x1").verify()
    assert codes(v) == [(4, "chou_hu")]
    assert v.findings[0].refs == (0,)
    assert v.score is not None and v.score["expected"] is not None  # complete, but barred


def test_declined_tian_hu_records_the_huxi_of_the_dealt_ti() -> None:
    # seat 1 was dealt four d2 (a big 提, 12 huxi) and wins on the shown card x1; it
    # declines, so its 臭胡 is at 12, the huxi it held when it could have won.
    hand = "d1*3 d2*4 x4 x5 x6 x7 x8 x9 d4 d5 d6 x2 x3 x10 x10"
    b = HandBuilder(["x1 d10", hand, ""], shown="x1", ruleset="hengshan")
    v = b.ti(1, "d2").discard(0, "d10").end("abandoned").verify()
    refusals = [d for d in v.decisions if str(d.kind) == "chou_hu"]
    assert [(d.seq, d.seat, d.card) for d in refusals] == [(None, 1, "x1")]
    assert refusals[0].detail.endswith("reaches 15")


# -- issue 13: a hengshan win on a passed kind is guo_zhang, whatever the path ----------
# seat 1 passes a 碰 of x3 (seq 0), 吃s x9, and later draws the third x3 (a 臭偎) to win
GUO_HAND = "d1*3 d2*3 d3*3 x4 x5 x6 x7 x8 d4 d5 d6 x3 x3 d10"


def _passed_then_drawn() -> HandBuilder:
    b = HandBuilder(["x3", GUO_HAND, ""], stock="x9 x10 x10 x3", shown="x3",
                    ruleset="hengshan", avoid="x1 x2")
    return b.discard(0, "x3").draw(1).chi(1, "x9", "x7 x8 x9").discard(1, "d10") \
        .draw(2).draw(0).draw(1)


def test_hengshan_win_on_a_passed_kind_after_ones_own_chou_wei_is_guo_zhang() -> None:
    for b in (_passed_then_drawn().wei(1, "x3").hu(1, "x3"),  # the 臭偎 logged
              _passed_then_drawn().hu(1, "x3")):  # the forced 偎 implied by the win
        v = b.verify()
        assert (0, 1, "guo_zhang", "x3") in decisions(v)
        assert [(f.code, f.refs) for f in v.findings] == [("guo_zhang", (0,))]
        assert v.findings[0].seq == len(b.events) - 1
        assert v.score is not None and v.score["expected"]["huxi"] > 0  # type: ignore[index]


def test_standard_may_win_on_a_passed_kind_after_its_chou_wei() -> None:
    b = _passed_then_drawn().wei(1, "x3").hu(1, "x3")
    b.doc["ruleset"] = "standard"
    v = b.verify()
    assert v.status is Status.CLEAN, codes(v)



def test_hengshan_po_pao_hu_barred_by_chou_hu_is_chou_hu() -> None:
    # seat 1 waits on x3 or x6 and refuses x3 (seq 0: any card barred until huxi 3);
    # seat 0 draws x6 and seat 2 must 跑 it (its 坎); seat 1 then wins on the 跑'd x6
    # (破跑胡): a complete hand barred by its 臭胡, so chou_hu, not "cannot win here".
    hand = "d1*3 d2*3 d3*3 x7 x8 x9 d4 d5 d6 d7 d8 d9 x4 x5"
    b = HandBuilder(["x3 x1", hand, "x6*3"], stock="d10 d6 x6", shown="x1", ruleset="hengshan",
                    avoid="d10")
    v = b.discard(0, "x3").draw(1).draw(2).draw(0).pao(2, "x6").hu(1, "x6").verify()
    assert (0, 1, "chou_hu", "x3") in decisions(v)
    assert [(f.seq, str(f.code), f.refs) for f in v.findings] == [(5, "chou_hu", (0,))]
    assert v.score is not None and v.score["expected"]["winner"] == 1  # type: ignore[index]
