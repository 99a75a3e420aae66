"""Hands the simulator found the engine wrong on, kept as regression cases."""

from pathlib import Path

from replay.chi import can_chi
from replay.engine import verify
from replay.logformat import parse_log
from replay.verdict import Status

from .builder import HandBuilder, codes

HERE = Path(__file__).parent / "regressions"


def _verdict(name: str):  # type: ignore[no-untyped-def]
    return verify(parse_log((HERE / name).read_bytes()))


def test_pao_then_hu_is_judged_as_the_po_pao_hu_it_is() -> None:
    # hengshan: seat 2 could win on the discard d6, logs its forced 跑 and then 胡
    v = _verdict("pao_then_hu_po_pao_hu.json")
    assert v.status is Status.CLEAN, codes(v)
    assert v.score["expected"]["winner"] == 2  # type: ignore[index]


def test_standard_pao_of_a_discard_offers_no_win_and_no_chou_hu() -> None:
    v = _verdict("standard_pao_of_discard_no_chou_hu.json")
    assert v.status is Status.CLEAN
    assert [d for d in v.decisions if str(d.kind) == "chou_hu"] == []


def test_cards_of_an_undeclared_dealt_four_are_not_used_in_chi() -> None:
    hand = [0] * 20
    hand[3], hand[4] = 4, 1  # x4 x4 x4 x4 x5
    assert not can_chi(hand, 5)  # x6 with x4 x5 would split the four


def test_nothing_to_discard_passes_the_turn() -> None:
    from replay.groups import GroupKind
    from replay.state import Phase, State
    from replay.table import Meld

    r = State(parse_log(HandBuilder(["", "", ""]).end("abandoned").build()))
    seat = r.table.seats[1]
    # after a 碰 of x4, seat 1 holds only a 坎 of x5 and has 21 cards: nothing to throw
    seat.hand = [0] * 20
    seat.hand[4] = 3
    seat.melds = [Meld(GroupKind.PENG, (3, 3, 3), 5)] + [
        Meld(GroupKind.CHI, (k, k + 1, k + 2), 1) for k in (10, 13, 16, 10, 13)]
    r.after_intake(1, GroupKind.PENG, 3, src=0, drawn=False, seq=5, others=[], table_huxi=None)
    assert r.phase is Phase.DRAW and r.turn == 2
    seat.hand[6] = 1  # one loose card: the discard is owed
    r.after_intake(1, GroupKind.PENG, 3, src=0, drawn=False, seq=5, others=[], table_huxi=None)
    assert r.phase is Phase.DISCARD and r.turn == 1
