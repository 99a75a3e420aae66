"""Turn order, the discard rule (RULES §3) and the forced 提/偎/跑 (§5)."""

import pytest

from replay.discard_rule import Owed, discard_owed
from replay.profiles import HENGSHAN, STANDARD
from replay.verdict import Status

from .builder import HandBuilder, codes, decisions


@pytest.mark.parametrize(
    ("held", "fours", "owed"),
    [
        (21, 0, Owed.YES),  # a plain intake: one discard
        (21, 1, Owed.YES),  # the first 跑/提 needs a discard
        (21, 2, Owed.NO),  # 八块/重跑: the second does not
        (22, 2, Owed.YES),  # after 重跑, the next 吃 needs a discard again
        (22, 3, Owed.NO),  # a third four
        (21, 2, Owed.NO),  # an idle player with two dealt 提 at the first intake
    ],
)
def test_discard_invariant(held: int, fours: int, owed: Owed) -> None:
    got = discard_owed(STANDARD, held, fours, mian_pending=False, chi_or_peng=True, ready=False)
    assert got is owed


def test_hengshan_mian_zhang_only_when_ready_at_chi_or_peng() -> None:
    def owed(chi_or_peng: bool, ready: bool) -> Owed:
        return discard_owed(HENGSHAN, 21, 2, mian_pending=True, chi_or_peng=chi_or_peng,
                            ready=ready)

    assert owed(True, True) is Owed.OPTIONAL
    assert owed(True, False) is Owed.YES
    assert owed(False, True) is Owed.YES  # a 偎 is not a 吃/碰
    # standard: the invariant alone, whatever the hand
    assert discard_owed(STANDARD, 21, 2, mian_pending=True, chi_or_peng=True,
                        ready=False) is Owed.NO


# seat 1 holds 坎 x5 and 坎 x6; the dealer discards x5, seat 2 draws x6.
def _chong_pao() -> HandBuilder:
    b = HandBuilder(["x5 x3", "x5*3 x6*3 x10", "x3"], stock="x6")
    return b.discard(0, "x5").pao(1, "x5").discard(1, "x10").draw(2).pao(1, "x6")


def test_first_pao_owes_a_discard_second_does_not() -> None:
    v = _chong_pao().draw(2).end("abandoned").verify()
    assert v.status is Status.CLEAN, codes(v)


def test_discard_after_chong_pao_is_not_owed() -> None:
    v = _chong_pao().discard(1, "x1").end("abandoned").verify()
    assert codes(v) == [(5, "discard_not_owed")]


def test_missing_discard_after_first_pao() -> None:
    b = HandBuilder(["x5 x3", "x5*3 x6*3 x10", "x3"], stock="x6")
    v = b.discard(0, "x5").pao(1, "x5").draw(2).end("abandoned").verify()
    assert codes(v) == [(2, "discard_missing")]


def test_pao_skipped_is_pao_missed_at_the_event_in_its_place() -> None:
    b = HandBuilder(["x5 x3", "x5*3 x6*3 x10", "x3"], stock="x6")
    v = b.discard(0, "x5").draw(1).end("abandoned").verify()
    assert codes(v) == [(1, "pao_missed")]
    assert v.findings[0].seat == 1 and v.findings[0].refs == (0,)


def test_peng_is_paoed_from_a_draw_but_never_from_a_discard() -> None:
    from replay.claims import open_window
    from replay.logformat import parse_log
    from replay.state import State

    def built() -> HandBuilder:
        b = HandBuilder(["x4 x3", "", "x4*2 x5"], stock="d9 x4")
        return b.discard(0, "x4").peng(2, "x4").discard(2, "x5").draw(0).draw(1)

    ok = built().pao(2, "x4").discard(2, "x1").end("abandoned").verify()
    assert ok.status is Status.CLEAN, codes(ok)
    missed = built().draw(2).end("abandoned").verify()
    assert codes(missed) == [(5, "pao_missed")]
    # the same 碰 meets the fourth x4 as a discard: nobody must 跑
    r = State(parse_log(built().build()))
    for e in r.log.events[:3]:
        r.apply(e)
    w = open_window(r.table, r.ledger, r.profile, r.mian_used, 3, 1, False, 9)
    assert w.pao is None
    w = open_window(r.table, r.ledger, r.profile, r.mian_used, 3, 1, True, 9)
    assert w.pao == 2


def test_dealt_four_must_be_ti_before_first_action() -> None:
    b = HandBuilder(["x3", "x9*4", ""], stock="x6")
    v = b.discard(0, "x3").draw(1).end("abandoned").verify()
    assert codes(v) == [(1, "ti_missed")]
    b = HandBuilder(["x3", "x9*4", ""], stock="x6")
    v = b.discard(0, "x3").ti(1, "x9").draw(1).end("abandoned").verify()
    assert v.status is Status.CLEAN


def test_dealer_with_two_dealt_ti_does_not_discard() -> None:
    b = HandBuilder(["x9*4 x8*4", "", ""], stock="x6")
    assert b.ti(0, "x9").ti(0, "x8").draw(1).end("abandoned").verify().status is Status.CLEAN
    b = HandBuilder(["x9*4 x8*4", "", ""], stock="x6")
    v = b.ti(0, "x9").ti(0, "x8").discard(0, "x1").end("abandoned").verify()
    assert codes(v) == [(2, "discard_not_owed")]


def test_dealer_with_one_dealt_ti_discards() -> None:
    b = HandBuilder(["x9*4 x1", "", ""], stock="x6")
    v = b.ti(0, "x9").draw(1).end("abandoned").verify()
    assert codes(v) == [(1, "discard_missing")]


def test_dealers_ti_must_come_before_its_first_discard() -> None:
    b = HandBuilder(["x9*4 x1", "", ""], stock="x6")
    v = b.discard(0, "x1").ti(0, "x9").end("abandoned").verify()
    assert codes(v) == [(0, "ti_missed")]


# Seat 1 was dealt two fours; its first intake (吃 x5) owes no discard in standard.
TWO_TI = "x9*4 x8*4 d1*3 d4 d5 d6 x1 x2 d10 d10 x6 x7"


def test_idle_player_with_two_dealt_ti_skips_first_discard_standard() -> None:
    b = HandBuilder(["x5", TWO_TI, ""], stock="x3")
    b.ti(1, "x9").ti(1, "x8").discard(0, "x5").chi(1, "x5", "x5 x6 x7")
    assert b.draw(2).end("abandoned").verify().status is Status.CLEAN
    b = HandBuilder(["x5", TWO_TI, ""], stock="x3")
    b.ti(1, "x9").ti(1, "x8").discard(0, "x5").chi(1, "x5", "x5 x6 x7")
    v = b.discard(1, "d4").end("abandoned").verify()
    assert codes(v) == [(4, "discard_not_owed")]


def test_hengshan_mian_zhang_when_ready() -> None:
    b = HandBuilder(["x5", TWO_TI, ""], stock="x3 x6", ruleset="hengshan")
    b.ti(1, "x9").ti(1, "x8").discard(0, "x5").chi(1, "x5", "x5 x6 x7").draw(2)
    v = b.end("abandoned").verify()
    assert v.status is Status.CLEAN, codes(v)
    assert [d[2] for d in decisions(v, "mian_zhang")] == ["mian_zhang"]
    # discarding there is allowed too (免张 is a choice)
    b = HandBuilder(["x5", TWO_TI, ""], stock="x3", ruleset="hengshan")
    b.ti(1, "x9").ti(1, "x8").discard(0, "x5").chi(1, "x5", "x5 x6 x7").discard(1, "d4")
    assert b.end("abandoned").verify().status is Status.CLEAN


def test_hengshan_no_mian_zhang_when_not_ready() -> None:
    hand = TWO_TI.replace("d10 d10", "d10 d9")
    b = HandBuilder(["x5", hand, ""], stock="x3", ruleset="hengshan")
    b.ti(1, "x9").ti(1, "x8").discard(0, "x5").chi(1, "x5", "x5 x6 x7").draw(2)
    v = b.end("abandoned").verify()
    assert codes(v) == [(4, "discard_missing")]


def test_no_chi_after_mian_zhang() -> None:
    # after 免张 seat 1 may not 吃 again: seat 0 discards x2... seat 1 takes it anyway
    b = HandBuilder(["x5 x3", TWO_TI, ""], stock="d7 x3", ruleset="hengshan")
    b.ti(1, "x9").ti(1, "x8").discard(0, "x5").chi(1, "x5", "x5 x6 x7").draw(2)
    b.draw(0).chi(1, "x3", "x1 x2 x3")
    v = b.end("abandoned").verify()
    assert (6, "chi_not_allowed") in codes(v)


def test_drawn_card_onto_kan_must_be_ti() -> None:
    b = HandBuilder(["x3", "", "x8*3"], stock="d9 x8", filler="d9 d9 d9")
    b.discard(0, "x3").draw(1).draw(2)
    ok = b.build()
    v = HandBuilder(["x3", "", "x8*3"], stock="d9 x8")
    v.discard(0, "x3").draw(1).draw(2).ti(2, "x8").discard(2, "x1").end("abandoned")
    assert v.verify().status is Status.CLEAN, codes(v.verify())
    w = HandBuilder(["x3", "", "x8*3"], stock="d9 x8")
    w.discard(0, "x3").draw(1).draw(2).draw(0).end("abandoned")
    assert codes(w.verify())[0] == (3, "ti_missed")
    assert ok["events"][2]["card"] == "x8"


def test_drawn_card_onto_pair_must_be_wei() -> None:
    b = HandBuilder(["x3", "", "x8*2"], stock="d9 x8")
    b.discard(0, "x3").draw(1).draw(2).wei(2, "x8").discard(2, "x1").end("abandoned")
    v = b.verify()
    assert v.status is Status.CLEAN, codes(v)
    b = HandBuilder(["x3", "", "x8*2"], stock="d9 x8")
    b.discard(0, "x3").draw(1).draw(2).draw(0).end("abandoned")
    assert codes(b.verify())[0] == (3, "wei_missed")


def test_out_of_turn_draw() -> None:
    b = HandBuilder(["x3", "", ""], stock="d9")
    v = b.discard(0, "x3").draw(2).end("abandoned").verify()
    assert codes(v) == [(1, "out_of_turn")]


def test_no_peng_after_mian_zhang() -> None:
    b = HandBuilder(["x5", TWO_TI, ""], stock="d7 d10", ruleset="hengshan")
    b.ti(1, "x9").ti(1, "x8").discard(0, "x5").chi(1, "x5", "x5 x6 x7").draw(2)
    b.draw(0).peng(1, "d10")
    v = b.end("abandoned").verify()
    assert (6, "peng_not_allowed") in codes(v)


def test_claim_on_a_card_that_is_not_revealed_is_invalid() -> None:
    b = HandBuilder(["x4 x3", "", "x4*2 x9*2"], stock="d9")
    v = b.discard(0, "x4").peng(2, "x9").verify()
    assert v.status is Status.INVALID
    assert codes(v) == [(1, "claim_invalid")]


def test_discarding_a_kan_card_is_kan_split() -> None:
    b = HandBuilder(["x7*3", "", ""], stock="d9")
    v = b.discard(0, "x7").draw(1).end("abandoned").verify()
    assert codes(v) == [(0, "kan_split")]


def test_chi_while_someone_had_to_pao() -> None:
    # seat 2 holds a 坎 of x5; the dealer discards x5 and seat 1 takes it with a 吃
    b = HandBuilder(["x5 x3", "x6 x7", "x5*3"], stock="d9", avoid="x4")
    v = b.discard(0, "x5").chi(1, "x5", "x5 x6 x7").discard(1, "x1").end("abandoned").verify()
    assert codes(v) == [(1, "pao_missed"), (1, "priority_violated")]
    assert [f.seat for f in v.findings] == [2, 1]
